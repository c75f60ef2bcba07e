/* SPDX-License-Identifier: BSD-2-Clause */
/* Other processes (proc.c): the owners of XDP programs and control sockets. Thread: any. */
#ifndef XSKF_PROC_H
#define XSKF_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Start time (field 22 of /proc/PID/stat, clock ticks since boot), 0 when unknown. */
uint64_t xskf_proc__start_time(pid_t pid);
/* @pid exists and is not a zombie (state Z or X): a zombie holds nothing any more. */
bool xskf_proc__alive(pid_t pid);
/* @pid is alive (as above) and is the process that started at @start_time (not a reused pid). */
bool xskf_proc__same(pid_t pid, uint64_t start_time);

/*
 * The control folder: $XSKF_CTL_DIR, else /run/xskf. The runner's control sockets live there,
 * and the lock files of the interfaces that runs share (prog_share.c). Thread: any.
 */
const char *xskf_proc__ctl_dir(void);

/*
 * The control folder, made (0700) when missing, opened O_NOFOLLOW and checked on the fd: a
 * folder of our effective uid that group and others cannot write (ctl.c's rule for sockets,
 * prog_share.c's for lock files). Files a root process creates there are then out of other
 * users' reach. Returns an O_DIRECTORY fd, or -errno: -EPERM when the folder is not ours
 * alone, said in @why (owner and mode). Thread: any.
 */
int xskf_proc__ctl_dir_open(char *why, size_t len);

/*
 * The same rule for any folder @dir (made with @mode when missing): the pin folders of
 * --pin-dir (backend/xdp/serve/pin.c) are checked as the control folder is. Returns an O_DIRECTORY
 * fd, or -errno (-EPERM: not ours alone, said in @why). Thread: any.
 */
int xskf_proc__trusted_dir_open(const char *dir, mode_t mode, char *why, size_t len);

/*
 * A socket file xskf made in a folder it holds open (the control folder, --serve-uds's), so
 * that it is removed there and nowhere else: the folder's fd is kept from bind to removal,
 * and the file is removed only while it is the inode bind made (dev and ino). A folder
 * renamed and replaced by a symlink, or a file swapped in, is then left alone.
 */
struct xskf_sock_file {
	int dfd; /* the folder, -1 when none */
	dev_t dev;
	ino_t ino;
	char name[108];
};

/*
 * Bind @sock to @name in the folder @dfd (@dir its path, for a kernel without /proc): through
 * /proc/self/fd/DFD/NAME, so that the path is resolved from the fd, not from @dir again.
 * Takes @dfd on success (xskf_sock_file__remove() closes it). Returns 0 or -errno (-EXDEV:
 * the file bind made is not at @name in @dfd: the folder changed under us). Thread: any.
 */
int xskf_sock_file__bind(struct xskf_sock_file *f, int sock, int dfd, const char *dir,
			 const char *name);
/*
 * Remove the file when it is still the one bind made (async-signal-safe: fstatat, unlinkat).
 * 1 removed, 0 already gone, -1 something else is there now (left alone). Thread: any.
 */
int xskf_sock_file__unlink(const struct xskf_sock_file *f);
/* Unlink as above, then close the folder. Thread: any. */
int xskf_sock_file__remove(struct xskf_sock_file *f);

#endif /* XSKF_PROC_H */

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
 * --pin-dir (backend/xdp/pin.c) are checked as the control folder is. Returns an O_DIRECTORY
 * fd, or -errno (-EPERM: not ours alone, said in @why). Thread: any.
 */
int xskf_proc__trusted_dir_open(const char *dir, mode_t mode, char *why, size_t len);

#endif /* XSKF_PROC_H */

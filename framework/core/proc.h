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

#endif /* XSKF_PROC_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/* Least privilege after set-up (privs.c). */
#ifndef XSKF_PRIVS_H
#define XSKF_PRIVS_H

#include <stdint.h>

/*
 * xskf_privs__keep() - keep only the capabilities in the bit mask @keep (effective, permitted
 * and bounding sets). Returns 0 or -errno. Thread: the calling thread only.
 */
int xskf_privs__keep(uint64_t keep);

/* The filesystem uid and gid a worker of a root run takes after set-up: nobody's. */
#define XSKF_PRIVS_WORKER_ID 65534

/*
 * xskf_privs__worker() - a worker's credentials after set-up: no capability in any set and,
 * if the thread runs as root, the filesystem uid and gid XSKF_PRIVS_WORKER_ID with no
 * supplementary group (privs.c says why: the real, effective and saved uid stay 0). Returns 0 or -errno (then the thread may hold more than that).
 * Thread: the calling thread only (raw system calls: the other threads keep theirs).
 */
int xskf_privs__worker(void);

#endif /* XSKF_PRIVS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared between the XDP program (xskf_redirect.bpf.c) and the framework: map sizes and the
 * layout of the program's counters and owner record.
 */
#ifndef XSKF_PROG_H
#define XSKF_PROG_H

#include <linux/types.h>

#define XSKF_PROG_MAX_QUEUES 256

/* Per-CPU, per-queue counters: the framework sums them over CPUs. */
struct xskf_prog_counters {
	__u64 redirected; /* bpf_redirect_map() said XDP_REDIRECT: a socket is bound there */
	__u64 passed;     /* no socket on this queue: frame given to the stack */
	__u64 errors;     /* unexpected redirect result, or hints could not be written */
};

/*
 * Written by the framework after load (map "xskf_owner", one entry). It lets a later run tell
 * its own program left behind by a killed process (owner dead: replace it) from one that a live
 * xskf process uses (error), and from a foreign program (no such map: error unless --force).
 */
struct xskf_prog_owner {
	__u32 pid;
	__u32 pad;
	__u64 start_time; /* field 22 of /proc/PID/stat: tells a reused pid apart */
};

#endif /* XSKF_PROG_H */

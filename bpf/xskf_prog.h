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

/*
 * Several runs on one interface share one program (docs/steering.md, framework/core/
 * prog_share.c). Map "xskf_queues", one entry per RX queue: the run that owns it (pid 0: none),
 * its name for messages, and the default action of its rules on that queue.
 */
struct xskf_prog_qowner {
	__u32 pid;
	__u8 def_kind; /* enum xskf_steer_act_kind of the owner's default */
	__u8 gone;     /* the owner died and its rules left the table (the entry stays, so that
			* the run that takes the queue over can say whose it was) */
	__u8 served;   /* kept by the owner for another AF_XDP app's socket (--serve): the
			* owner binds none there, the app enters its own in the pinned XSKMAP */
	__u8 pad;
	__u64 start_time;
	__u64 def_cpus; /* the default's cpumap set */
	char comm[16];	/* the owner's name (/proc/PID/comm) */
};

/*
 * Map "xskf_rules", by hit-counter slot: every live run's rules with their owner, so that any
 * run can rebuild the one table of the interface. @rule holds the framework's parsed rule
 * (struct xskf_steer_rule, which the program never reads).
 */
#define XSKF_PROG_RULE_BYTES 96
struct xskf_prog_srule {
	__u32 pid; /* 0: the slot is free */
	__u32 id;  /* the owner's rule id */
	__u64 start_time;
	__u32 pos; /* position in the owner's matching order */
	__u8 keep_host;
	__u8 pad[3];
	__u8 rule[XSKF_PROG_RULE_BYTES];
};

/* Map "xskf_share", one entry: when the table was last flipped (CLOCK_MONOTONIC ns). */
struct xskf_prog_share {
	__u64 flipped_ns;
};

#endif /* XSKF_PROG_H */

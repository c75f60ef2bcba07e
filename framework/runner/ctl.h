/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The control socket of a run (ctl.c) and its request parser (ctl_proto.c). Thread: control
 * thread (the run loop's hook).
 */
#ifndef XSKF_CTL_H
#define XSKF_CTL_H

#include <stddef.h>
#include <stdio.h>

#include "xskf.h"

struct xskf_chain;

struct xskf_ctl;
struct xskf_ctl *xskf_ctl__open(const char *name);
void xskf_ctl__serve(struct xskf_ctl *ctl, struct xskf_chain *ch, struct xskf_engine *eng,
		     double elapsed);
void xskf_ctl__close(struct xskf_ctl *ctl);
/* The run ends (before its engine stops): a live capture is finished and its client let go. */
void xskf_ctl__run_end(struct xskf_ctl *ctl, struct xskf_engine *eng);
/* Remove the control socket's file; async-signal-safe (the fatal-signal handler). */
void xskf_ctl__emergency_unlink(int sig);
/*
 * Parse one request (ctl_proto.c): @buf of @len bytes (at most XSKF_CTL_MAX) with room for one
 * more, where the parser may write a NUL. Returns the kind,
 * with arg0 and arg1 pointing into @buf (NUL-terminated in place), or XSKF_CTL_BAD.
 */
#define XSKF_CTL_MAX 1024
enum xskf_ctl_req {
	XSKF_CTL_BAD,
	XSKF_CTL_STATS,
	XSKF_CTL_PLUGINS,
	XSKF_CTL_PLUGIN_CMD,
	XSKF_CTL_CAPTURE, /* "capture ARGS": arg1 the arguments, for xskf_ctl__capture_args() */
	XSKF_CTL_DOCTOR,  /* "doctor": what `xskfctl doctor` needs beyond stats (ctl_doctor.c) */
};
enum xskf_ctl_req xskf_ctl__parse(char *buf, size_t len, char **arg0, char **arg1);

/* A capture request's arguments: "[port=IFACE] [queue=Q] [dir=rx|tx|both] [count=N]
 * [snaplen=S]", each at most once, in any order. */
struct xskf_ctl_capture {
	char port[16];         /* IF_NAMESIZE; "" for every port */
	int queue;             /* -1: every queue */
	unsigned int dirs;     /* 1 RX, 2 TX, 3 both (default) */
	unsigned long long count; /* frames, then the capture ends; 0: until the client goes */
	unsigned int snaplen;  /* 1 to 65535 (default 65535) */
};

/*
 * Parse @args (NUL-terminated printable ASCII, as xskf_ctl__parse() leaves arg1) into @c.
 * Returns 0, or -EINVAL with a one-line reason in @err (no newline). Thread: any (ctl_proto.c,
 * fuzzed by tests/fuzz/fuzz_ctl.c).
 */
int xskf_ctl__capture_args(const char *args, struct xskf_ctl_capture *c, char *err,
			   size_t errlen);

/*
 * The answer to "doctor" (ctl_doctor.c): one JSON document of what the stats document does not
 * hold and `xskfctl doctor` needs: the ring sizes, each worker's CPU and UMEM, busy polling
 * asked and in use, and the backend's part (xdp: the program's counters on every RX queue,
 * bound or not; each socket's NAPI ID and its queue's interrupt). Read only.
 */
void xskf_ctl__doctor(FILE *f, struct xskf_engine *eng);
#endif /* XSKF_CTL_H */

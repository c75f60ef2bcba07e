/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The control socket of a run (ctl.c) and its request parser (ctl_proto.c). Thread: control
 * thread (the run loop's hook).
 */
#ifndef XSKF_CTL_H
#define XSKF_CTL_H

#include <stddef.h>

#include "xskf.h"

struct xskf_chain;

struct xskf_ctl;
struct xskf_ctl *xskf_ctl__open(const char *name);
void xskf_ctl__serve(struct xskf_ctl *ctl, struct xskf_chain *ch, struct xskf_engine *eng,
		     double elapsed);
void xskf_ctl__close(struct xskf_ctl *ctl);
/* Remove the control socket's file; async-signal-safe (the fatal-signal handler). */
void xskf_ctl__emergency_unlink(void);
/*
 * Parse one request (ctl_proto.c): @buf of @len bytes (at most XSKF_CTL_MAX) with room for one
 * more, where the parser may write a NUL. Returns the kind,
 * with arg0 and arg1 pointing into @buf (NUL-terminated in place), or XSKF_CTL_BAD.
 */
#define XSKF_CTL_MAX 1024
enum xskf_ctl_req { XSKF_CTL_BAD, XSKF_CTL_STATS, XSKF_CTL_PLUGINS, XSKF_CTL_PLUGIN_CMD };
enum xskf_ctl_req xskf_ctl__parse(char *buf, size_t len, char **arg0, char **arg1);

#endif /* XSKF_CTL_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Steering in the runner (steer_cmd.c): --steer, --steer-file and --keep-host into the engine,
 * `xskfctl steer add|del|list` on the control socket, the steering counters in the live lines
 * and the JSON document. Thread: control thread.
 */
#ifndef XSKF_STEER_CMD_H
#define XSKF_STEER_CMD_H

#include <stdio.h>

#include "xskf.h"

struct xskf_cli;
struct xjw;

/* The command line's rules, in order, on every port. Returns 0, or 2 (said: bad rule). */
int xskf_steer_cmd__apply(struct xskf_engine *eng, const struct xskf_cli *c);
/* The control socket's "steer ARGS" request: its answer into @f. */
void xskf_steer_cmd__ctl(FILE *f, struct xskf_engine *eng, const char *args);
/* One live line per port that steers (rules, or a default other than xsk). */
void xskf_steer_cmd__line(struct xskf_engine *eng, FILE *f, double elapsed);
/* The stats document's member "steering": [...] (util/counters.h's steering families). */
void xskf_steer_cmd__json(struct xskf_engine *eng, struct xjw *w);

#endif

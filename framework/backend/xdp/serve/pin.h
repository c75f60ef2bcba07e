/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Serving other AF_XDP apps (pin.c): queues kept for their sockets (--serve), each port's
 * maps pinned in bpffs (--pin-dir, --pin-group). Thread: the control thread.
 */
#ifndef XSKF_BACKEND_XDP_PIN_H
#define XSKF_BACKEND_XDP_PIN_H

#include <stdbool.h>

#include "core/port.h"

struct xskf_engine;

/*
 * --serve's queues into the port's served queues, taken out of @p->queues when they were not given
 * (@explicit_queues false); 0, or -errno said in one line (out of range, also in -q, every
 * queue served). At add-port time.
 */
int xskf_pin__serve_queues(struct xskf_engine *eng, struct xskf_port *p, bool explicit_queues);
/*
 * Pin @p's maps in PIN_DIR/IFNAME/ when --pin-dir or --serve asks (after the attach): 0, or
 * -errno said in one line (not a bpffs, a folder not ours alone, no such group). Pins a killed
 * run left there are removed first (said); pins of our own maps made by the run that shares
 * the interface are left to it (said).
 */
int xskf_pin__port(struct xskf_engine *eng, struct xskf_port *p);
/* Remove what xskf_pin__port() pinned, and its folder. Nothing when nothing was pinned. */
void xskf_pin__unpin(struct xskf_port *p);
/* The fatal-signal handler's (async-signal-safe): the maps pinned so far unpinned, their
 * folders removed (the backend's emergency(), xdp.c). */
void xskf_pin__emergency(void);
/* The start-up line of --serve's queues (nothing without --serve). */
void xskf_pin__served_line(const struct xskf_engine *eng, const struct xskf_port *p);

#endif /* XSKF_BACKEND_XDP_PIN_H */

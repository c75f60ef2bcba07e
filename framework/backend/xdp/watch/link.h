/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XSKF_BACKEND_XDP_LINK_H
#define XSKF_BACKEND_XDP_LINK_H

#include "core/engine.h"

/* What a port's link was before the attach (xskf_link__before_attach()). */
struct xskf_link_seen {
	bool up;      /* IFF_UP, IFF_RUNNING and carrier */
	long changes; /* carrier_changes, -1 unknown */
};

/* Fill @seen[i] with the link of port i, before the attach. Control thread, at start. */
void xskf_link__before_attach(const struct xskf_engine *eng, struct xskf_link_seen *seen);

/*
 * After the attach: for each port whose link was up before (@seen) and went down since (a
 * driver that resets its link at an XDP attach: igb, e1000e, ...), wait until it is up again,
 * at most XSKF_LINK_WAIT_MS, and say so in one line. Never fails: a link still down is said
 * and the run goes on (frames flow once it is up). Control thread, at start.
 */
void xskf_link__after_attach(const struct xskf_engine *eng, const struct xskf_link_seen *seen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unfinished TCP/UDP checksums, framework side (csum.c, csum_watch.c). The public side is
 * xskf_csum__finish() and xskf_pkt__csum_finish() in include/xskf_hints.h.
 */
#ifndef XSKF_CORE_CSUM_H
#define XSKF_CORE_CSUM_H

#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"

struct xskf_sock;
struct xskf_engine;

/* What xskf_csum__test() found. */
enum {
	XSKF_CSUM_NONE = 0,	  /* no TCP/UDP checksum to look at (or headers cut short) */
	XSKF_CSUM_COMPLETE = 1,	  /* not the pseudo-header sum, or a checksum that verifies */
	XSKF_CSUM_UNFINISHED = 2, /* left for a NIC to finish (finished now if asked) */
};

/*
 * Full bursts between two samples when the repair is off: the first frame of every 64th full
 * burst is looked at (every frame of a shorter burst): a compare and a decrement per burst.
 */
#define XSKF_CSUM_SAMPLE 64

/*
 * Test (and with @finish, finish) the checksum of @pkt, a frame of one buffer (its frags are
 * not looked at). Thread: the worker owning @pkt.
 */
int xskf_csum__test(struct xskf_pkt *pkt, bool finish);

/*
 * Test (and finish) the checksums of @n frames received on @s, counting csum_checked,
 * csum_unfinished and csum_repaired. @has_frags: the burst may hold multi-buffer frames
 * (rx_take_sg() said so); their checksums are summed over every buffer, else each frame is one
 * buffer, tested as it always was. Out of line: called only with --csum-repair, for bursts shorter
 * than the batch, and every XSKF_CSUM_SAMPLE full bursts. Thread: @s's worker.
 */
void xskf_csum__burst(struct xskf_sock *s, struct xskf_pkt *pkts, unsigned int n, bool finish,
		      bool has_frags);

/* One buffer of a frame that spans several (a multi-buffer frame: docs/jumbo.md). */
struct xskf_csum_buf {
	uint8_t *p;
	uint32_t len;
};

/*
 * xskf_csum__finish() for a frame in @nb buffers @b, the frame being their bytes one after
 * the other: the TCP/UDP checksum covers them all (buffer edges may fall anywhere, at odd
 * offsets too). The headers, up to the TCP/UDP header's end, must lie in the first buffer, as
 * every reader of a multi-buffer frame's headers has them (docs/jumbo.md): else 0, nothing done.
 * Returns 1, 0 or -EBADMSG as xskf_csum__finish() on the same bytes in one buffer. Thread: any.
 */
int xskf_csum__finish_bufs(const struct xskf_csum_buf *b, unsigned int nb);

/*
 * At start-up, for an app that forwards (XSKF_APP_F_FORWARDS): say in one line which veth
 * ports have a peer whose TX checksum offload leaves checksums unfinished, with the fix.
 * Thread: control thread, after the ports are attached.
 */
void xskf_csum__probe(struct xskf_engine *eng);

/*
 * While running: the first time a port counts unfinished checksums, say so once in one line,
 * with the fix (a warning for apps that forward without --csum-repair). Thread: control
 * thread (xskf_engine__watch()).
 */
void xskf_csum__watch(struct xskf_engine *eng);

#endif /* XSKF_CORE_CSUM_H */

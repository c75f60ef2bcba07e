/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TX metadata per frame: a TCP/UDP checksum, a TX timestamp, a launch time (docs/tx-offloads.md).
 *
 * An app sets XSKF_APP_F_TX_META (or xskf_engine_opts.tx_meta from its option check); at start-up xskf registers the UMEM with room for the
 * kernel's struct xsk_tx_metadata in front of each TX frame, probes what each port does with
 * each request, and prints it (xskf_engine__tx_offload() answers the same). Per frame, in
 * rx_burst() or tx_fill(), after the frame's last xskf_pkt__push()/pull():
 *
 *     xskf_pkt__tx_l4_csum(pkt, 14, 34);      // IPv4 at 14, UDP or TCP at 34: xskf seeds it
 *     xskf_pkt__tx_tstamp(pkt, seq);          // a timestamp back, with this cookie
 *     xskf_pkt__tx_launch(pkt, tai_ns);       // not before this CLOCK_TAI time
 *
 * A request is written at the start of the frame's chunk (headroom the frame does not use)
 * and carried out by the worker after rx_burst()/tx_fill() returned, for apps that set
 * XSKF_APP_F_TX_META (or xskf_engine_opts.tx_meta): apps that ask nothing pay nothing, and
 * the requests of an app that did not say it asks are not looked at. A push after the request that
 * leaves less than XSKF_TX_REQ_ROOM bytes of headroom drops the frame (txmd_invalid): its
 * request may be cut short. A checksum the
 * port cannot offload is computed by xskf in software before TX (counted in txmd_csum_sw), so
 * the app's code is the same everywhere. A request that cannot be carried out (a checksum
 * start or offset beyond the frame, a push into the request's room) drops the frame, counted
 * in txmd_invalid: xskf never hands the kernel a request it would refuse, which would stop the
 * TX ring. A timestamp or launch time the port has not is counted in txmd_unsupported and the
 * frame goes without it.
 *
 * Timestamps come back in the worker's array (xskf_worker_info.tx_stamps) as the frames
 * complete, in the order they were sent: read and empty it from the app's next callback on
 * that worker. Each frame that asked gets one entry; its tai_ns is 0 when the kernel or the
 * device filled none.
 */
#ifndef XSKF_TX_H
#define XSKF_TX_H

#include <errno.h>
#include <stdint.h>

#include <xskf_pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskf_engine;

/* xskf_tx_req.flags bits */
enum xskf_tx_req_flags {
	XSKF_TXR_CSUM = 1u << 0,
	XSKF_TXR_TSTAMP = 1u << 1,
	XSKF_TXR_LAUNCH = 1u << 2,
};

/* Launch times further ahead than this are not passed on (txmd_launch_bad): 1 s. */
#define XSKF_TX_LAUNCH_MAX_NS 1000000000ull

/* csum_offset: derived from the IP header's protocol by xskf (xskf_pkt__tx_l4_csum()) */
#define XSKF_TX_CSUM_FROM_L3 0xffff

/*
 * A frame's request, at the start of its chunk (framework-owned layout: use the accessors).
 * Offsets count from the chunk's start, so that a push or pull after the request moves none.
 */
struct xskf_tx_req {
	uint16_t magic;       /* XSKF_TX_REQ_MAGIC while a request waits */
	uint8_t flags;        /* enum xskf_tx_req_flags */
	uint8_t reserved0;
	uint16_t csum_start;  /* first byte summed */
	uint16_t csum_offset; /* of the checksum field from csum_start, or XSKF_TX_CSUM_FROM_L3 */
	uint16_t l3;          /* the IP header, with XSKF_TX_CSUM_FROM_L3 */
	uint16_t reserved1[3];
	uint64_t launch_time; /* CLOCK_TAI ns */
	uint64_t cookie;      /* handed back with the timestamp */
};

#define XSKF_TX_REQ_MAGIC 0x5854 /* "TX" */

/*
 * Bytes of headroom a frame needs for a request: its own (at the chunk's start) and the
 * kernel's struct xsk_tx_metadata (24 bytes, right in front of the frame). Received frames and
 * tx_fill()'s have hundreds.
 */
#define XSKF_TX_REQ_ROOM (sizeof(struct xskf_tx_req) + 24)

/*
 * Not API: the bit of xskf_pkt's private marks (xskf__pkt_mark()) the accessors set in a frame
 * of one buffer, so that the worker looks for a request only in frames that asked, and only on
 * the sockets of apps that ask (XSKF_APP_F_TX_META or xskf_engine_opts.tx_meta): the others'
 * burst functions never look. (A multi-buffer frame's request is found by its magic, and only
 * counted.)
 */
#define XSKF_PKT_TX_REQ 0x8000

/* One timestamp handed back. */
struct xskf_tx_stamp {
	uint64_t cookie; /* the app's, from xskf_pkt__tx_tstamp() */
	uint64_t tai_ns; /* when the frame left (CLOCK_TAI), 0 when none was filled in */
};

#define XSKF_TX_STAMPS_CAP 1024

/*
 * A worker's timestamps: s[0 .. n - 1], oldest first. The worker appends as frames complete
 * (beyond XSKF_TX_STAMPS_CAP they are counted in txmd_stamps_lost); the app reads them and
 * sets n = 0. Thread: the worker (the app's callbacks on it).
 */
struct xskf_tx_stamps {
	uint32_t n;
	struct xskf_tx_stamp s[XSKF_TX_STAMPS_CAP];
};

/* The request of @pkt, started on its first use; NULL when the headroom is too small. */
static inline struct xskf_tx_req *xskf_pkt__tx_req(struct xskf_pkt *pkt)
{
	struct xskf_tx_req *r;

	if (pkt->headroom < XSKF_TX_REQ_ROOM)
		return NULL;
	r = (struct xskf_tx_req *)(void *)(pkt->data - pkt->headroom);
	if (r->magic != XSKF_TX_REQ_MAGIC) {
		memset(r, 0, sizeof(*r));
		r->magic = XSKF_TX_REQ_MAGIC;
	}
	if (!pkt->frags)
		xskf__pkt_mark(pkt, XSKF_PKT_TX_REQ);
	return r;
}

/*
 * xskf_pkt__tx_csum() - ask for the 16-bit ones'-complement checksum of the frame's bytes from
 * @start (counted from pkt->data) to its end, stored at @start + @offset, as a NIC's
 * CHECKSUM_PARTIAL offload does: the field must hold the pseudo-header sum (folded, not
 * complemented). Returns 0, or -ENOSPC (headroom below XSKF_TX_REQ_ROOM). Bounds are checked
 * when the frame is sent (txmd_invalid). Thread: worker, in rx_burst or tx_fill.
 */
static inline int xskf_pkt__tx_csum(struct xskf_pkt *pkt, uint16_t start, uint16_t offset)
{
	struct xskf_tx_req *r = xskf_pkt__tx_req(pkt);

	if (!r)
		return -ENOSPC;
	r->csum_start = (uint16_t)(pkt->headroom + start);
	r->csum_offset = offset;
	r->flags |= XSKF_TXR_CSUM;
	return 0;
}

/*
 * xskf_pkt__tx_l4_csum() - the TCP or UDP checksum of the segment at @l4 behind the IPv4 or
 * IPv6 header at @l3 (both from pkt->data; IPv6 without extension headers): xskf writes the
 * pseudo-header sum into the field itself, whatever the field held, and asks for the rest.
 * Returns 0, or -ENOSPC. Any other protocol is found when the frame is sent (txmd_invalid).
 * Thread: worker, in rx_burst or tx_fill.
 */
static inline int xskf_pkt__tx_l4_csum(struct xskf_pkt *pkt, uint16_t l3, uint16_t l4)
{
	struct xskf_tx_req *r = xskf_pkt__tx_req(pkt);

	if (!r)
		return -ENOSPC;
	r->csum_start = (uint16_t)(pkt->headroom + l4);
	r->csum_offset = XSKF_TX_CSUM_FROM_L3;
	r->l3 = (uint16_t)(pkt->headroom + l3);
	r->flags |= XSKF_TXR_CSUM;
	return 0;
}

/*
 * xskf_pkt__tx_tstamp() - ask for the time the frame leaves, handed back with @cookie in
 * xskf_worker_info.tx_stamps. Returns 0, or -ENOSPC. Thread: worker, in rx_burst or tx_fill.
 */
static inline int xskf_pkt__tx_tstamp(struct xskf_pkt *pkt, uint64_t cookie)
{
	struct xskf_tx_req *r = xskf_pkt__tx_req(pkt);

	if (!r)
		return -ENOSPC;
	r->cookie = cookie;
	r->flags |= XSKF_TXR_TSTAMP;
	return 0;
}

/*
 * xskf_pkt__tx_launch() - send the frame not before @tai_ns (CLOCK_TAI), where the port offloads
 * launch time (xskf_engine__tx_offload()). A time in the past or more than
 * XSKF_TX_LAUNCH_MAX_NS ahead is not passed on (txmd_launch_bad; the frame goes at once).
 * Returns 0, or -ENOSPC. Thread: worker, in rx_burst or tx_fill.
 */
static inline int xskf_pkt__tx_launch(struct xskf_pkt *pkt, uint64_t tai_ns)
{
	struct xskf_tx_req *r = xskf_pkt__tx_req(pkt);

	if (!r)
		return -ENOSPC;
	r->launch_time = tai_ns;
	r->flags |= XSKF_TXR_LAUNCH;
	return 0;
}

/* Who carries out a request on a port (xskf_engine__tx_offload()). */
enum xskf_tx_how {
	XSKF_TXH_NONE = 0,   /* nobody: the request is counted (txmd_unsupported) */
	XSKF_TXH_DEVICE = 1, /* the NIC (zero-copy: the driver's xsk-features) */
	XSKF_TXH_KERNEL = 2, /* the kernel's copy-mode path, in software */
	XSKF_TXH_XSKF = 3,   /* xskf, in software, before TX (checksums only) */
};

/*
 * xskf_engine__tx_offload() - how port @port carries out each kind of request: @how[0] the
 * checksum, [1] the timestamp, [2] the launch time (enum xskf_tx_how). With
 * XSKF_APP_F_TX_META, as probed and printed at start-up; without, checksums by xskf and
 * nothing else. Returns 0, -ENOENT (no such port), -EAGAIN (not started).
 * Thread: control thread, after xskf_engine__start() (e.g. from app->init()).
 */
XSKF_API int xskf_engine__tx_offload(const struct xskf_engine *eng, unsigned int port,
				     enum xskf_tx_how how[3]);

/* "device", "kernel (software)", ... for messages. Thread: any. */
XSKF_API const char *xskf_tx_how__str(enum xskf_tx_how how);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_TX_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: the packet layer (include/xskf.h includes it, and every layer above): struct xskf_pkt,
 * the verdicts and the accessors an app calls on the per-packet path. Also the conventions'
 * macros (XSKF_API, XSKF_OPTS()) that every xskf header uses; xskf.h tells the conventions.
 */
#ifndef XSKF_PUB_PKT_H
#define XSKF_PUB_PKT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskf_meta; /* xskf_meta.h: its layout, for xskf_hints.h */

#define XSKF_API __attribute__((visibility("default")))

/* Declare and zero an options struct, setting its size: XSKF_OPTS(xskf_engine_opts, o, .batch = 32); */
#define XSKF_OPTS(TYPE, NAME, ...)                                                                 \
	struct TYPE NAME = ({                                                                      \
		memset(&NAME, 0, sizeof(struct TYPE));                                             \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };                           \
	})

/* ------------------------------------------------------------------------------------------ */
/* Packets: what an app sees on the per-packet path                                            */

enum xskf_action {
	XSKF_DROP = 0, /* default: the frame goes back to the fill ring */
	XSKF_TX = 1,   /* send back out of the port and queue it came from */
	XSKF_FWD = 2,  /* send out of port pkt->out_port (on the worker's queue of that port) */
	/*
	 * In a chain of plugins (xskf_plugin.h): hand the frame to the next plugin, which gets it
	 * with action XSKF_DROP again. After the last plugin it is dropped (counted as drop_app).
	 */
	XSKF_NEXT = 3,
};

/*
 * One received frame. The framework fills data, len, port, queue and meta; the app sets action
 * (and out_port for XSKF_FWD) and may change the bytes in place, or move data back into the
 * headroom (xskf_pkt__push()) or forward (xskf_pkt__pull()) to add or strip headers.
 */
struct xskf_pkt {
	uint8_t *data;        /* first byte of the frame (the Ethernet header) */
	uint32_t len;         /* bytes from data */
	uint16_t port;        /* index of the port the frame arrived on */
	uint16_t queue;       /* queue id it arrived on */
	uint16_t out_port;    /* for XSKF_FWD: index of the port to send it out of */
	uint16_t headroom;    /* bytes free in front of data, for xskf_pkt__push() */
	uint8_t action;       /* enum xskf_action; XSKF_DROP when the burst is handed over */
	/*
	 * Buffers of the frame after the first (0: the whole frame is data, len). Frames longer
	 * than one UMEM frame come with frags (multi-buffer AF_XDP, docs/jumbo.md) to apps with
	 * XSKF_APP_F_FRAGS only: data and len are then the first buffer (it holds the headers),
	 * xskf_pkt__buf() gives the others and xskf_pkt__read() a range across them. An app
	 * may lower frags to send only the first buffers as a frame of their own (the tunnel's
	 * ICMP answer to a frame too big); the framework takes the others back.
	 */
	uint8_t frags;
	/* Not API: the framework's own bytes (its view: framework/core/pkt_priv.h), which hold
	 * the layout for plugins built before. Only the inline functions here touch them. */
	uint8_t xskf_private[10];
	/* where the XDP program wrote RX hints (just in front of data), or NULL with hints off;
	 * read it through the accessors of xskf_hints.h, which check that it is valid */
	const struct xskf_meta *meta;
};

/*
 * Not API: the inline functions' part of xskf_private, which plugins built with them keep (so
 * it is ABI; core/pkt_priv.h asserts it): 16 bits of marks at byte 0 (xskf_tx.h's request), 64
 * bits at XSKF__PKT_PRIV_AT that move with data. Through memcpy(): the bytes have no type.
 */
#define XSKF__PKT_PRIV_AT 2

static inline void xskf__pkt_moved(struct xskf_pkt *pkt, int64_t n)
{
	uint64_t v;

	memcpy(&v, pkt->xskf_private + XSKF__PKT_PRIV_AT, sizeof(v));
	v += (uint64_t)n;
	memcpy(pkt->xskf_private + XSKF__PKT_PRIV_AT, &v, sizeof(v));
}

static inline void xskf__pkt_mark(struct xskf_pkt *pkt, uint16_t bits)
{
	uint16_t v;

	memcpy(&v, pkt->xskf_private, sizeof(v));
	v |= bits;
	memcpy(pkt->xskf_private, &v, sizeof(v));
}

/*
 * xskf_pkt__push() - grow the frame at its front by @n bytes (into the headroom), e.g. to
 * prepend a tunnel header. Returns the new data pointer, or NULL if the headroom is too small
 * (the frame is unchanged). Thread: worker, inside rx_burst.
 */
static inline uint8_t *xskf_pkt__push(struct xskf_pkt *pkt, uint32_t n)
{
	if (n > pkt->headroom)
		return NULL;
	pkt->headroom -= n;
	pkt->data -= n;
	xskf__pkt_moved(pkt, -(int64_t)n);
	pkt->len += n;
	return pkt->data;
}

/*
 * xskf_pkt__pull() - strip @n bytes from the front of the frame. Returns the new data pointer,
 * or NULL if the frame is shorter than @n. Thread: worker, inside rx_burst.
 */
static inline uint8_t *xskf_pkt__pull(struct xskf_pkt *pkt, uint32_t n)
{
	if (n > pkt->len)
		return NULL;
	pkt->headroom += n;
	pkt->data += n;
	xskf__pkt_moved(pkt, n);
	pkt->len -= n;
	return pkt->data;
}

/*
 * Multi-buffer frames, in the kernel's words (Documentation/networking/af_xdp.rst, XDP's
 * xdp.frags): a frame of several buffers, its first buffer (pkt->data, pkt->len) and its
 * frags (pkt->frags of them, the buffers after the first).
 *
 * Most buffers one received frame may take: longer frames are dropped whole
 * (drop_chain_long). The kernel's own limit is lower (copy mode: max_skb_frags + 1, 18 by
 * default).
 */
#define XSKF_MAX_BUFS 48
#define XSKF_MAX_SEGS XSKF_MAX_BUFS /* deprecated name */

/* Buffers of @pkt: 1, or more for a frame with frags (XSKF_APP_F_FRAGS). Thread: worker. */
static inline unsigned int xskf_pkt__nb_bufs(const struct xskf_pkt *pkt)
{
	return 1u + pkt->frags;
}

/* Deprecated name of xskf_pkt__nb_bufs(). */
static inline unsigned int xskf_pkt__nb_segs(const struct xskf_pkt *pkt)
{
	return xskf_pkt__nb_bufs(pkt);
}

/*
 * xskf_pkt__buf() - buffer @i (0 .. xskf_pkt__nb_bufs() - 1) of @pkt: returns its first byte
 * and sets *@len to its length; buffer 0 is pkt->data, pkt->len, buffers 1.. its frags.
 * Returns NULL past the last buffer. The bytes may be changed in place; the lengths of
 * buffers after the first may not. Thread: worker, inside rx_burst, for a packet of the burst
 * it was handed. xskf_pkt__seg() is its deprecated name (the same function).
 */
XSKF_API uint8_t *xskf_pkt__buf(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len);
XSKF_API uint8_t *xskf_pkt__seg(const struct xskf_pkt *pkt, unsigned int i, uint32_t *len);

/*
 * xskf_pkt__frags_len() - bytes of a frame with frags, all its buffers. Use
 * xskf_pkt__total_len(). Thread: worker, inside rx_burst. xskf_pkt__chain_len() is its
 * deprecated name.
 */
XSKF_API uint32_t xskf_pkt__frags_len(const struct xskf_pkt *pkt);
XSKF_API uint32_t xskf_pkt__chain_len(const struct xskf_pkt *pkt);

/* Bytes of the whole frame, all its buffers. Thread: worker, inside rx_burst. */
static inline uint32_t xskf_pkt__total_len(const struct xskf_pkt *pkt)
{
	return pkt->frags ? xskf_pkt__frags_len(pkt) : pkt->len;
}

/*
 * xskf_pkt__read() - bytes @off .. @off + @len - 1 of the frame, wherever they are: a pointer
 * into the frame when they lie in one buffer (no copy), else a copy into @buf (at least @len
 * bytes), for a header that crosses a buffer's edge (as DPDK's rte_pktmbuf_read()). Returns
 * NULL when the frame is shorter than @off + @len. Thread: worker, inside rx_burst.
 */
static inline const void *xskf_pkt__read(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					 void *buf);
/* xskf_pkt__read()'s path across frags; xskf_pkt__read_chain() is its deprecated name. */
XSKF_API const void *xskf_pkt__read_frags(const struct xskf_pkt *pkt, uint32_t off,
					  uint32_t len, void *buf);
XSKF_API const void *xskf_pkt__read_chain(const struct xskf_pkt *pkt, uint32_t off,
					  uint32_t len, void *buf);

static inline const void *xskf_pkt__read(const struct xskf_pkt *pkt, uint32_t off, uint32_t len,
					 void *buf)
{
	if ((uint64_t)off + len <= pkt->len)
		return pkt->data + off;
	return pkt->frags ? xskf_pkt__read_frags(pkt, off, len, buf) : NULL;
}

/*
 * xskf_pkt__append() - for a TX-only app in tx_fill(): add a buffer of @len bytes (1 .. the
 * frame room, worker_info.frame_size - headroom) at the end of frame @pkt, to build a frame
 * longer than one buffer holds (a jumbo frame: XSKF_APP_F_FRAGS, and the engine binds for
 * frags: xskf_engine__frags()). Build each frame's buffers before the next frame's. Returns
 * the buffer's first byte, for the app to write @len bytes to, or NULL: the engine takes no
 * frags, @len is out of range, the frame has XSKF_MAX_BUFS buffers, another frame was added
 * to since, or no free UMEM frame is left (send the frame shorter, or not at all).
 * Thread: worker, inside tx_fill.
 */
XSKF_API uint8_t *xskf_pkt__append(struct xskf_pkt *pkt, uint32_t len);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_PKT_H */

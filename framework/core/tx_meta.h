/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TX metadata, framework side (tx_meta.c, xsk_raw.c; docs/tx-offloads.md): the kernel's UAPI
 * of Linux 6.8+ (Debian 12's linux/if_xdp.h is 6.1's), the set-up of each socket's offloads and
 * the per-burst slow paths of the sockets of apps that ask (burst.c): the frames of a burst
 * from the first that asked on (dispatch()), completions of frames that asked a timestamp
 * (reap_completions()). The public side is include/xskf_tx.h.
 */
#ifndef XSKF_TX_META_H
#define XSKF_TX_META_H

#include <stdint.h>
#include <linux/if_xdp.h>

#include "xskf_tx.h"

#ifndef XDP_UMEM_TX_SW_CSUM
#define XDP_UMEM_TX_SW_CSUM (1 << 1)
#endif
#ifndef XDP_UMEM_TX_METADATA_LEN
#define XDP_UMEM_TX_METADATA_LEN (1 << 2)
#endif
#ifndef XDP_TX_METADATA
#define XDP_TX_METADATA (1 << 1) /* xdp_desc.options */
#endif
#ifndef XDP_TXMD_FLAGS_TIMESTAMP
#define XDP_TXMD_FLAGS_TIMESTAMP (1 << 0)
#define XDP_TXMD_FLAGS_CHECKSUM	 (1 << 1)
#endif
#ifndef XDP_TXMD_FLAGS_LAUNCH_TIME
#define XDP_TXMD_FLAGS_LAUNCH_TIME (1 << 2)
#endif

/*
 * The kernel's struct xsk_tx_metadata (include/uapi/linux/if_xdp.h, 6.8, launch_time 6.14),
 * under our own name so that a newer system header does not clash: 24 bytes, right in front of
 * a TX frame's data.
 */
struct xskf_xsk_tx_metadata {
	uint64_t flags;
	union {
		struct {
			uint16_t csum_start;
			uint16_t csum_offset;
			uint32_t pad;
			uint64_t launch_time;
		} request;
		struct {
			uint64_t tx_timestamp;
		} completion;
	};
};
_Static_assert(sizeof(struct xskf_xsk_tx_metadata) == 24, "the kernel's layout");

/* struct xdp_umem_reg of 6.8+: tx_metadata_len where 6.1's has padding */
struct xskf_umem_reg {
	uint64_t addr;
	uint64_t len;
	uint32_t chunk_size;
	uint32_t headroom;
	uint32_t flags;
	uint32_t tx_metadata_len;
};

#define XSKF_TXMD_LEN ((uint32_t)sizeof(struct xskf_xsk_tx_metadata))

/* netdev netlink xsk-features bits (Documentation/netlink/specs/netdev.yaml) */
#define XSKF_XSK_FEAT_TX_TIMESTAMP	  (1u << 0)
#define XSKF_XSK_FEAT_TX_CHECKSUM	  (1u << 1)
#define XSKF_XSK_FEAT_TX_LAUNCH_TIME_FIFO (1u << 2)

struct xskf_worker;
struct xskf_sock;
struct xskf_pkt;
struct xskf_umem;
struct xskf_engine;

/* What dispatch() does with a frame that asked (xskf_txmd__frame()). */
enum { XSKF_TXMD_STAGED, XSKF_TXMD_DROP_APP, XSKF_TXMD_DROP };

/*
 * Carry out the request of @p (received on @s, or built by tx_fill()) and stage it on its out
 * socket. Returns XSKF_TXMD_STAGED, XSKF_TXMD_DROP_APP (its verdict was a drop) or
 * XSKF_TXMD_DROP (counted on @s; the caller gives the frame back). Thread: the worker.
 */
int xskf_txmd__frame(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *p);

/*
 * The rest of dispatch() for @n frames on @s from the first that asked for TX metadata
 * (XSKF_PKT_TX_REQ): every frame's verdict carried out, its request with it; frames staged,
 * or given back to the cache and counted. Thread: the worker.
 */
void xskf_txmd__burst(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *pkts,
		      unsigned int n);

/*
 * Frames of @pkts[0..n) that may have asked and go without it, found by the request's magic
 * (a multi-buffer frame is not marked: XSKF_PKT_TX_REQ is for frames of one buffer): a burst of
 * multi-buffer frames (multi-buffer: requests are not carried out for multi-buffer frames,
 * docs/tx-offloads.md), or frames tx_fill() built and the app did not hand over. Their requests are
 * taken back and counted (txmd_unsupported), so that the chunk's next frame starts a request of its
 * own. Thread: the worker.
 */
void xskf_txmd__forget(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *pkts,
		       unsigned int n);

/*
 * Hand back the timestamps of the @n completed frames from shadow slot @from of @s (before
 * their frames go back to the cache). Thread: the worker.
 */
void xskf_txmd__reap(struct xskf_sock *s, const struct xskf_umem *um, uint32_t from, uint32_t n);

#endif /* XSKF_TX_META_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RX hints: what the XDP program learnt about each frame (xskf_meta.h), read through inline
 * accessors, and the software RSS hash that stands in when the driver gave none.
 *
 * Where the values come from: the packet type and header offsets from the XDP program's parse
 * of the frame (always, when hints are on); the hash, timestamp and stripped VLAN tag from the
 * driver (XDP metadata kfuncs) when the program runs in native mode on a driver that has them.
 * A hash the driver did not give is computed here, lazily, only when the app asks for it: a
 * Toeplitz hash over the same fields with the port's RSS key, so that it has the meaning and,
 * with the same key, the value the NIC would have given.
 *
 * Accessors: any thread; a few loads from the meta, which shares the frame's first cache line.
 * They return "absent" when hints are off (pkt->meta NULL) or the meta is not valid (no magic:
 * the XDP program could not write it). Read them before xskf_pkt__push(), which may write over
 * the meta; offsets are from the first byte of the frame as received, also after a pull.
 */
#ifndef XSKF_HINTS_H
#define XSKF_HINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xskf_pkt.h>
#include <xskf_meta.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the frame's meta if hints are on and it is valid, else NULL. Thread: any. */
static inline const struct xskf_meta *xskf_pkt__meta(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = pkt->meta;

	if (!m || m->magic != XSKF_META_MAGIC)
		return NULL;
	return m;
}

/* Returns true if the frame carries valid hints. Thread: any. */
static inline bool xskf_pkt__meta_valid(const struct xskf_pkt *pkt)
{
	return xskf_pkt__meta(pkt) != NULL;
}

/*
 * xskf_pkt__ptype() - the packet type, XSKF_PTYPE_* (xskf_meta.h): test it with the masks,
 * e.g. (pt & XSKF_PTYPE_L4_MASK) == XSKF_PTYPE_L4_UDP. Returns 0 (all layers "none", no stop
 * layer) without valid hints. Thread: any.
 */
static inline uint32_t xskf_pkt__ptype(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->ptype : 0;
}

/* The inner frame's L2/L3/L4/FRAG bits moved to the outer positions (0 without a tunnel). */
static inline uint32_t xskf_ptype__inner(uint32_t ptype)
{
	return (ptype & XSKF_PTYPE_INNER_MASK) >> XSKF_PTYPE_INNER_SHIFT;
}

/*
 * Header offsets, in bytes from the first byte of the frame as received. Each returns 0 when
 * the header is absent or incomplete, or without valid hints: a non-zero offset means the whole
 * fixed header is inside the frame. Thread: any.
 */
static inline uint16_t xskf_pkt__l3_off(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->l3_off : 0;
}

static inline uint16_t xskf_pkt__l4_off(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->l4_off : 0;
}

/* Tunnels: the encapsulated frame (inner Ethernet, or inner L3 for GRE carrying IP). */
static inline uint16_t xskf_pkt__inner_off(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->inner_off : 0;
}

static inline uint16_t xskf_pkt__inner_l3_off(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->inner_l3_off : 0;
}

static inline uint16_t xskf_pkt__inner_l4_off(const struct xskf_pkt *pkt)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	return m ? m->inner_l4_off : 0;
}

/*
 * xskf_pkt__hdr() - pointer to the header at offset @off (one of the above) of the frame as
 * received, or NULL if @off is 0, there are no valid hints, or the app pulled past it.
 * Thread: any.
 */
static inline const uint8_t *xskf_pkt__hdr(const struct xskf_pkt *pkt, uint16_t off)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);
	const uint8_t *p;

	if (!m || !off)
		return NULL;
	p = (const uint8_t *)(m + 1) + off;
	return p >= pkt->data && p < pkt->data + pkt->len ? p : NULL;
}

/*
 * xskf_pkt__rx_timestamp() - the driver's RX timestamp, in ns of the NIC's clock (mlx5, ice:
 * PHC time, with RX timestamping enabled on the port). Sets *ts and returns XSKF_SRC_HW, or
 * returns XSKF_SRC_NONE (no software stand-in: an XDP-time clock would not mean the same).
 * Thread: any.
 */
static inline enum xskf_src xskf_pkt__rx_timestamp(const struct xskf_pkt *pkt, uint64_t *ts)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	if (!m || XSKF_META_SRC(m->src, XSKF_F_TIMESTAMP) != XSKF_SRC_HW)
		return XSKF_SRC_NONE;
	*ts = m->rx_timestamp;
	return XSKF_SRC_HW;
}

/*
 * xskf_pkt__vlan() - the outermost VLAN tag: one the NIC stripped (XSKF_SRC_HW; it is no
 * longer in the frame) or the first one in the frame (XSKF_SRC_SW). Sets *tci and *tpid (0x8100
 * or 0x88a8; either may be NULL), or returns XSKF_SRC_NONE for an untagged frame.
 * Thread: any.
 */
static inline enum xskf_src xskf_pkt__vlan(const struct xskf_pkt *pkt, uint16_t *tci,
					   uint16_t *tpid)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);
	enum xskf_src src;

	if (!m)
		return XSKF_SRC_NONE;
	src = (enum xskf_src)XSKF_META_SRC(m->src, XSKF_F_VLAN);
	if (src == XSKF_SRC_NONE)
		return src;
	if (tci)
		*tci = m->vlan_tci;
	if (tpid)
		*tpid = m->src & XSKF_META_VLAN_STAG ? 0x88a8 : 0x8100;
	return src;
}

/* ------------------------------------------------------------------------------------------ */
/* Software RSS hash                                                                           */

/* An RSS key with its precomputed Toeplitz tables (about 36 KiB). */
struct xskf_rss;

/*
 * xskf_rss__new() - prepare hashing with @key of @key_len bytes (4..64; 40 for mlx5, i40e and
 * the Microsoft specification, 52 for ice), or with the specification's 40-byte key when @key
 * is NULL. Returns the object, or NULL with errno set (EINVAL, ENOMEM).
 * Thread: any (the control thread, usually: building the tables takes tens of microseconds).
 */
XSKF_API struct xskf_rss *xskf_rss__new(const uint8_t *key, size_t key_len);

/* Free @rss; NULL is a no-op. Thread: any, once no thread hashes with it. */
XSKF_API void xskf_rss__free(struct xskf_rss *rss);

/* The shared object for the specification's 40-byte key; never freed. Thread: any. */
XSKF_API const struct xskf_rss *xskf_rss__default(void);

/*
 * xskf_rss__hash() - the Toeplitz hash of @len bytes at @in (len <= 36), e.g. an IPv4 source,
 * destination and ports in network order, as the specification lays the input out.
 * Returns the hash. Thread: any.
 */
XSKF_API uint32_t xskf_rss__hash(const struct xskf_rss *rss, const void *in, size_t len);

/*
 * xskf_rss__hash_pkt() - the software RSS hash of @pkt with @rss (NULL: the default key): over
 * IPv4/IPv6 source and destination, and the ports for TCP and UDP that are not fragments, of
 * the outer headers. Uses the meta's parse when valid, else parses the frame itself. Sets
 * *hash and *type (enum xdp_rss_hash_type: XDP_RSS_TYPE_L4_IPV4_TCP, ..., XDP_RSS_TYPE_L3_IPV6)
 * and returns 0, or returns -ENOENT when the frame has no complete IPv4/IPv6 header.
 * Thread: any; about 10 ns for IPv4, 20 ns for IPv6 (docs/hints.md).
 */
XSKF_API int xskf_rss__hash_pkt(const struct xskf_rss *rss, const struct xskf_pkt *pkt,
				uint32_t *hash, uint16_t *type);

/*
 * xskf_hash__sw() - xskf_rss__hash_pkt() with the RSS key of the port @pkt arrived on, as the
 * framework read it from the driver (ethtool), or the default key where the driver has none
 * (veth) or outside the framework's workers. Returns 0 or -ENOENT, as xskf_rss__hash_pkt().
 * Thread: any; the port's key on the framework's workers.
 */
XSKF_API int xskf_hash__sw(const struct xskf_pkt *pkt, uint32_t *hash, uint16_t *type);

/*
 * xskf_pkt__rx_hash() - the RSS hash of @pkt: the driver's if it gave one (XSKF_SRC_HW), else
 * the software Toeplitz hash computed now (XSKF_SRC_SW), with the same meaning (*type, enum
 * xdp_rss_hash_type, says which fields it covers). Returns XSKF_SRC_NONE, and leaves *hash and
 * *type alone, when the frame has nothing to hash (no IPv4/IPv6). Thread: any; a few loads
 * with a hardware hash, one call to xskf_hash__sw() without.
 */
static inline enum xskf_src xskf_pkt__rx_hash(const struct xskf_pkt *pkt, uint32_t *hash,
					      uint16_t *type)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);

	if (m && XSKF_META_SRC(m->src, XSKF_F_HASH) == XSKF_SRC_HW) {
		*hash = m->rx_hash;
		*type = m->hash_type;
		return XSKF_SRC_HW;
	}
	return xskf_hash__sw(pkt, hash, type) ? XSKF_SRC_NONE : XSKF_SRC_SW;
}

/* ------------------------------------------------------------------------------------------ */
/* Unfinished TCP/UDP checksums                                                                */

/*
 * A sender with TX checksum offload (veth's default, so every container's network) leaves the
 * TCP or UDP checksum of its frames for the NIC to finish (CHECKSUM_PARTIAL): the field holds
 * only the sum of the pseudo-header, not complemented. XDP and AF_XDP hand such frames over as
 * they are, and nothing on the frame says so; a receiver drops them as bad checksums when they
 * are sent on unchanged. The kernel's VXLAN device leaves the inner frame's checksum the same
 * way. These finish them, as the NIC would have (docs/forwarding.md).
 */

/*
 * xskf_csum__finish() - finish the TCP or UDP checksum of the Ethernet frame of @len bytes at
 * @frame (IPv4 or IPv6, behind up to two VLAN tags) if the sender left it unfinished: the field
 * holds the pseudo-header sum and the checksum does not verify as it is. The L4 length is the
 * IP header's (Ethernet padding is left out).
 * Returns 1 when it finished the checksum; 0 when there was nothing to finish (not TCP or UDP
 * over IPv4/IPv6, a fragment, a checksum that is complete, an IPv4 UDP datagram without a
 * checksum); -EBADMSG when the IP header says more bytes than the frame has, or fewer than its
 * TCP/UDP header (left unchanged). Thread: any; reads the L4 segment once (about one
 * instruction per byte) only when the field holds the pseudo-header sum.
 */
XSKF_API int xskf_csum__finish(void *frame, uint32_t len);

/*
 * xskf_pkt__csum_finish() - xskf_csum__finish() on the frame of @pkt: with the XDP program's
 * offsets when the frame starts where it was received and its hints are valid, else parsing
 * it (an app that decapsulated a frame calls it on the inner frame once pulled to it). A
 * multi-buffer frame (pkt->frags, docs/jumbo.md) is summed over all its buffers; its headers must
 * be in the first, as the kernel hands them (else 0, nothing done). Returns 1, 0 or -EBADMSG as
 * xskf_csum__finish(). Thread: any (a worker, in rx_burst: a frame's buffers are found through the
 * worker's burst).
 */
XSKF_API int xskf_pkt__csum_finish(struct xskf_pkt *pkt);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_HINTS_H */

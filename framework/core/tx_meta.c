// SPDX-License-Identifier: BSD-2-Clause
/*
 * TX metadata, the worker's side and the set-up (docs/tx-offloads.md).
 *
 * Only the sockets of apps that ask come here: their burst functions (burst.c) are chosen at
 * start. The accessors mark each frame that asked (XSKF_PKT_TX_REQ in the frame's private
 * frag_idx, core/pkt_priv.h), and dispatch() (ring_ops.h) hands the frames of a burst from the
 * first that asked on here (xskf_txmd__burst()). The kernel refuses a request it cannot carry
 * out (sendto() EINVAL) and leaves the descriptor at the head of the TX ring, so that nothing
 * behind it is ever sent again: every request is checked here first, and a frame whose request
 * cannot be right is dropped and counted, never sent.
 *
 * Where the metadata goes: the kernel reads struct xsk_tx_metadata from the tx_metadata_len
 * bytes in front of the descriptor's address, and writes the completion's timestamp there.
 * The app's request waits at the start of the frame's chunk (xskf_tx.h), out of the way of
 * pushes and pulls, until the frame is staged.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "core/engine.h"
#include "core/pkt_priv.h"
#include "core/tx_meta.h"
#include "xskf_csum.h"

/*
 * xskf_pkt__tx_l4_csum(): from the IP header at @l3, the checksum field's offset in the
 * segment at @start, and the pseudo-header sum written into it. Returns the offset, or -1
 * (not IPv4/IPv6 with TCP or UDP, or headers beyond the frame).
 */
static int seed_l4(uint8_t *d, uint32_t len, uint32_t l3, uint32_t start)
{
	uint32_t l4len, off;
	uint64_t acc;
	uint16_t seed;
	uint8_t proto;

	if (l3 + 20 > len || start <= l3)
		return -1;
	if ((d[l3] >> 4) == 4) {
		uint32_t tot = (uint32_t)d[l3 + 2] << 8 | d[l3 + 3];

		if (l3 + tot > len || l3 + (d[l3] & 15) * 4u != start)
			return -1;
		proto = d[l3 + 9];
		l4len = l3 + tot - start;
		acc = xskf_csum__add(0, d + l3 + 12, 8);
	} else if ((d[l3] >> 4) == 6) {
		if (l3 + 40 > len || start != l3 + 40)
			return -1;
		proto = d[l3 + 6];
		l4len = (uint32_t)d[l3 + 4] << 8 | d[l3 + 5];
		if (start + l4len > len)
			return -1;
		acc = xskf_csum__add(0, d + l3 + 8, 32);
	} else {
		return -1;
	}
	off = proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 0;
	if (!off || start + off + 2 > start + l4len)
		return -1;
	acc += htons(proto) + htons((uint16_t)l4len);
	seed = xskf_csum__fold(acc);
	memcpy(d + start + off, &seed, 2);
	return (int)off;
}

/* Stage @addr on @out with @opts: stage() with the descriptor's options. */
static bool stage_opts(struct xskf_sock *out, uint64_t addr, uint32_t len, uint32_t opts)
{
	struct xdp_desc *d;

	if (xskf_sock__staged(out) == XSKF_TXQ_CAP) {
		out->c.drop_tx_full++;
		return false;
	}
	d = &out->txq[out->txq_tail++ & out->txq_mask];
	d->addr = addr;
	d->len = len;
	d->options = opts;
	return true;
}

static uint64_t tai_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The request waiting at @chunk, taken (cleared there) into @r; false when there is none. */
static bool take_req(uint8_t *chunk, uint32_t off, struct xskf_tx_req *r)
{
	struct xskf_tx_req *q = (struct xskf_tx_req *)(void *)chunk;

	/* a frame whose data starts within the magic's two bytes has none */
	if (off < sizeof(q->magic) || q->magic != XSKF_TX_REQ_MAGIC)
		return false;
	*r = *q;
	q->magic = 0;
	return r->flags != 0;
}

int xskf_txmd__frame(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *p)
{
	struct xskf_umem *um = &w->umem;
	uint64_t fmask = ~((uint64_t)um->frame_size - 1), addr = pkt_priv(p)->addr;
	uint32_t len = p->len, off = (uint32_t)(addr & ~fmask), opts = 0;
	uint8_t *chunk = (uint8_t *)um->area + (addr & fmask), *d = chunk + off;
	/* built here, copied in front of the frame: after a push it need not be 8-byte aligned */
	struct xskf_xsk_tx_metadata m = { 0 }, *md = &m;
	struct xskf_tx_req req_copy = { 0 }, *r = &req_copy;
	bool asked = take_req(chunk, off, r);
	uint8_t req = asked ? r->flags : 0;
	struct xskf_sock *out;
	uint64_t flags = 0;

	if (p->action == XSKF_TX)
		out = s;
	else if (p->action == XSKF_FWD)
		out = p->out_port < XSKF_MAX_PORTS ? w->tx_sock[p->out_port] : NULL;
	else
		return XSKF_TXMD_DROP_APP; /* a drop asks for nothing */
	if (!out) {
		s->c.drop_no_port++;
		return XSKF_TXMD_DROP;
	}
	if (((addr + (uint32_t)(len - 1)) ^ addr) & fmask) {
		s->c.drop_too_long++;
		return XSKF_TXMD_DROP;
	}
	/* a push into the request's room after the request: it may be cut short */
	if (asked && off < XSKF_TX_REQ_ROOM) {
		s->c.txmd_invalid++;
		return XSKF_TXMD_DROP;
	}
	if (req & XSKF_TXR_CSUM) {
		uint32_t start = r->csum_start - off, coff = r->csum_offset;

		if (r->csum_start < off || start >= len) {
			s->c.txmd_invalid++;
			return XSKF_TXMD_DROP;
		}
		if (coff == XSKF_TX_CSUM_FROM_L3) {
			int o = r->l3 < off ? -1 : seed_l4(d, len, r->l3 - off, start);

			if (o < 0) {
				s->c.txmd_invalid++;
				return XSKF_TXMD_DROP;
			}
			coff = (uint32_t)o;
		}
		if (coff & 1 || start + coff + 2 > len) {
			s->c.txmd_invalid++;
			return XSKF_TXMD_DROP;
		}
		if (out->txmd_how[0] == XSKF_TXH_XSKF) {
			/* as the kernel's skb_checksum_help(): a sum of 0 goes out as 0xffff */
			uint16_t c = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, d + start, len - start));

			if (!c)
				c = 0xffff;
			memcpy(d + start + coff, &c, 2);
			s->c.txmd_csum_sw++;
		} else {
			flags |= XDP_TXMD_FLAGS_CHECKSUM;
			md->request.csum_start = (uint16_t)start;
			md->request.csum_offset = (uint16_t)coff;
		}
	}
	if (req & XSKF_TXR_TSTAMP) {
		if (out->txmd_how[1] == XSKF_TXH_NONE || !out->tx_stamps)
			s->c.txmd_unsupported++;
		else
			flags |= XDP_TXMD_FLAGS_TIMESTAMP;
	}
	if (req & XSKF_TXR_LAUNCH) {
		uint64_t now;

		if (out->txmd_how[2] == XSKF_TXH_NONE) {
			s->c.txmd_unsupported++;
		} else if (r->launch_time < (now = tai_now()) ||
			   r->launch_time - now > XSKF_TX_LAUNCH_MAX_NS) {
			s->c.txmd_launch_bad++;
		} else {
			flags |= XDP_TXMD_FLAGS_LAUNCH_TIME;
			md->request.launch_time = r->launch_time;
		}
	}
	if (flags) {
		md->flags = flags;
		memcpy(d - XSKF_TXMD_LEN, md, sizeof(*md));
		opts = XDP_TX_METADATA;
	}
	if (!stage_opts(out, addr, len, opts))
		return XSKF_TXMD_DROP;
	if (flags) {
		out->c.txmd_frames++;
		out->txmd_ts_out += !!(flags & XDP_TXMD_FLAGS_TIMESTAMP);
	}
	return XSKF_TXMD_STAGED;
}

void xskf_txmd__burst(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *pkts,
		      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct xskf_pkt *p = &pkts[i];

		switch (xskf_txmd__frame(w, s, p)) {
		case XSKF_TXMD_STAGED:
			break;
		case XSKF_TXMD_DROP_APP:
			s->c.drop_app++;
			xskf_cache_put(&w->umem, pkt_priv(p)->addr);
			break;
		default:
			xskf_cache_put(&w->umem, pkt_priv(p)->addr);
			break;
		}
	}
}

void xskf_txmd__forget(struct xskf_worker *w, struct xskf_sock *s, const struct xskf_pkt *pkts,
		       unsigned int n)
{
	uint64_t fmask = ~((uint64_t)w->umem.frame_size - 1);
	struct xskf_tx_req r;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t addr = pkt_priv(&pkts[i])->addr;

		if (take_req((uint8_t *)w->umem.area + (addr & fmask), (uint32_t)(addr & ~fmask),
			     &r))
			s->c.txmd_unsupported++;
	}
}

void xskf_txmd__reap(struct xskf_sock *s, const struct xskf_umem *um, uint32_t from, uint32_t n)
{
	uint64_t fmask = ~((uint64_t)um->frame_size - 1);
	struct xskf_tx_stamps *st = s->tx_stamps;
	uint32_t i;

	for (i = 0; i < n && s->txmd_ts_out; i++) {
		const struct xdp_desc *d = &s->txq[(from + i) & s->txq_mask];
		const uint8_t *area = um->area;
		struct xskf_xsk_tx_metadata m, *md = &m;
		uint64_t cookie;

		if (!(d->options & XDP_TX_METADATA))
			continue;
		memcpy(md, area + d->addr - XSKF_TXMD_LEN, sizeof(*md)); /* maybe unaligned */
		if (!(md->flags & XDP_TXMD_FLAGS_TIMESTAMP))
			continue;
		s->txmd_ts_out--;
		if (st->n == XSKF_TX_STAMPS_CAP) {
			s->c.txmd_stamps_lost++;
			continue;
		}
		/* the request's magic is cleared, its cookie still there (the chunk's start) */
		memcpy(&cookie, area + (d->addr & fmask) + offsetof(struct xskf_tx_req, cookie),
		       sizeof(cookie));
		st->s[st->n].cookie = cookie;
		st->s[st->n++].tai_ns = md->completion.tx_timestamp;
		s->c.txmd_stamps++;
	}
}

const char *xskf_tx_how__str(enum xskf_tx_how how)
{
	switch (how) {
	case XSKF_TXH_DEVICE:
		return "by the device";
	case XSKF_TXH_KERNEL:
		return "by the kernel in software (copy mode)";
	case XSKF_TXH_XSKF:
		return "by xskf in software";
	default:
		return "not offloaded";
	}
}

int xskf_engine__tx_offload(const struct xskf_engine *eng, unsigned int port,
			    enum xskf_tx_how how[3])
{
	unsigned int i, j;

	if (port >= eng->nr_ports)
		return -ENOENT;
	for (i = 0; eng->workers && i < eng->nr_workers; i++) {
		const struct xskf_worker *w = &eng->workers[i];

		for (j = 0; j < w->nr_socks; j++) {
			const struct xskf_sock *s = w->socks[j];

			if (s->port->idx != port || !s->open)
				continue;
			how[0] = s->txmd_how[0];
			how[1] = s->txmd_how[1];
			how[2] = s->txmd_how[2];
			return 0;
		}
	}
	return -EAGAIN;
}

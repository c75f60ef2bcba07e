// SPDX-License-Identifier: BSD-2-Clause
/*
 * TX metadata on the worker's side (framework/core/tx_meta.c, include/xskf_tx.h), no root: one
 * socket's rings in plain memory, frames received and given verdicts with requests, as the
 * worker sees them (dispatch() of an app that asks: xskf_txmd__burst() from the first frame that
 * asked on; reap_completions()). Checked: what is staged (descriptor options,
 * struct xsk_tx_metadata in front of the frame), the checksum xskf computes where the port
 * has no offload, the pseudo-header seed it writes for xskf_pkt__tx_l4_csum(), every bad
 * request counted and its frame back in the cache (never staged: the kernel would refuse it
 * and stop the TX ring), offloads the port has not, launch times out of range, and the
 * timestamps handed back at completion. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ring_ops.h"

#include "../csum_ref.h"
#include "tap.h"

#define FRAMES	 256
#define FSIZE	 2048
#define RXOFF	 288
#define RING	 64
#define TXQ_SLOTS 1024

struct kring {
	uint32_t producer, consumer, flags;
};

static struct kring kfill, krx, ktx, kcomp;
static uint64_t fill_slots[RING], comp_slots[RING];
static struct xdp_desc rx_slots[RING], tx_slots[RING];
static struct xskf_port port;
static struct xskf_sock sock;
static struct xskf_worker worker;
static struct xskf_tx_stamps stamps;

static void ring_init(void *ring, struct kring *k, void *slots, bool producer)
{
	xskf_ring__init(ring, &k->producer, &k->consumer, &k->flags, slots, RING, producer);
}

static void setup(void)
{
	static struct xdp_desc txq[TXQ_SLOTS];
	struct xskf_umem_place pl = { .policy = XSKF_HUGEPAGES_OFF, .node = -1, .who = "unit" };

	memset(&worker, 0, sizeof(worker));
	CHECK(xskf_umem__alloc(&worker.umem, FRAMES, FSIZE, &pl) == 0, "UMEM");
	memset(&sock, 0, sizeof(sock));
	sock.port = &port;
	sock.worker = &worker;
	sock.txq = txq;
	sock.txq_mask = TXQ_SLOTS - 1;
	ring_init(&sock.fill, &kfill, fill_slots, true);
	ring_init(&sock.rx, &krx, rx_slots, false);
	ring_init(&sock.tx, &ktx, tx_slots, true);
	ring_init(&sock.comp, &kcomp, comp_slots, false);
	sock.tx_stamps = &stamps;
	worker.socks[0] = &sock;
	worker.nr_socks = 1;
	worker.tx_sock[0] = &sock;
}

static uint32_t sum16(const uint8_t *p, uint32_t n, uint32_t acc)
{
	return csum_ref_fold(csum_ref_sum(p, n, acc));
}

/* A UDP/IPv4 frame of @len bytes (60..) at @d, its UDP checksum field garbage. */
static void udp4(uint8_t *d, uint32_t len)
{
	uint32_t i, tot = len - 14;

	memset(d, 0, len);
	d[12] = 0x08;
	d[14] = 0x45;
	d[16] = (uint8_t)(tot >> 8);
	d[17] = (uint8_t)tot;
	d[22] = 64;
	d[23] = 17;
	d[26] = 198, d[27] = 51, d[28] = 100, d[29] = 1;
	d[30] = 198, d[31] = 51, d[32] = 100, d[33] = 2;
	d[34] = 0x12, d[35] = 0x34, d[36] = 0, d[37] = 9;
	d[38] = (uint8_t)((tot - 20) >> 8);
	d[39] = (uint8_t)(tot - 20);
	d[40] = 0xde, d[41] = 0xad; /* deliberately wrong */
	for (i = 42; i < len; i++)
		d[i] = (uint8_t)(i * 7);
}

/* The UDP/IPv4 checksum of @d verifies: pseudo-header + segment sums to 0xffff. */
static bool udp4_ok(const uint8_t *d)
{
	uint32_t ulen = (uint32_t)d[38] << 8 | d[39];
	uint32_t acc = sum16(d + 26, 8, 0) + 17 + ulen;

	return sum16(d + 34, ulen, acc) == 0xffff;
}

/* One received frame as rx_take() hands it over (a fresh chunk from the cache). */
static void one_pkt(struct xskf_pkt *p, uint32_t len)
{
	uint64_t chunk = worker.umem.cache[--worker.umem.cache_len];

	memset(p, 0, sizeof(*p));
	pkt_priv(p)->addr = chunk + RXOFF;
	p->data = (uint8_t *)worker.umem.area + pkt_priv(p)->addr;
	p->len = len;
	p->headroom = RXOFF;
	udp4(p->data, len);
}

static const struct xskf_xsk_tx_metadata *md_of(const struct xdp_desc *d)
{
	return (const void *)((uint8_t *)worker.umem.area + d->addr - XSKF_TXMD_LEN);
}

/* The last descriptor staged on sock. */
static const struct xdp_desc *last_staged(void)
{
	return &sock.txq[(sock.txq_tail - 1) & sock.txq_mask];
}

static uint64_t tai(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What the burst functions of an app that asks do after rx_burst() (burst.c). */
static void disp(struct xskf_pkt *pkts, unsigned int n)
{
	dispatch(&worker, &sock, pkts, n, XSKF_BURST_TXMD);
}

static void how(uint8_t c, uint8_t t, uint8_t l)
{
	sock.txmd_how[0] = c;
	sock.txmd_how[1] = t;
	sock.txmd_how[2] = l;
}

int main(void)
{
	struct xskf_pkt p[4];
	uint32_t tail, cache;
	uint64_t now;

	setup();

	/* no request: staged as ever, options 0, no counter */
	how(XSKF_TXH_KERNEL, XSKF_TXH_KERNEL, XSKF_TXH_NONE);
	one_pkt(&p[0], 100);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(xskf_sock__staged(&sock) == 1 && last_staged()->options == 0 && !sock.c.txmd_frames,
	      "a frame without a request: staged, no metadata");

	/* xskf_pkt__tx_l4_csum() offloaded: the option, the flags, start/offset, the seed */
	one_pkt(&p[0], 100);
	CHECK(xskf_pkt__tx_l4_csum(&p[0], 14, 34) == 0 &&
		      (pkt_priv(&p[0])->frag_idx & XSKF_PKT_TX_REQ) &&
		      ((struct xskf_tx_req *)(void *)(p[0].data - p[0].headroom))->flags ==
			      XSKF_TXR_CSUM,
	      "tx_l4_csum accepted: the request at the chunk's start, the frame marked");
	p[0].action = XSKF_TX;
	disp(p, 1);
	{
		const struct xdp_desc *d = last_staged();
		const struct xskf_xsk_tx_metadata *md = md_of(d);
		const uint8_t *f = p[0].data;
		uint32_t seed = sum16(f + 26, 8, 17 + 66);

		CHECK(d->options == XDP_TX_METADATA && md->flags == XDP_TXMD_FLAGS_CHECKSUM &&
			      md->request.csum_start == 34 && md->request.csum_offset == 6,
		      "checksum offloaded: option, flags, start 34, offset 6");
		CHECK(((uint32_t)f[40] << 8 | f[41]) == seed,
		      "the pseudo-header sum written in the field (%02x%02x, want %04x)", f[40],
		      f[41], seed);
		CHECK(sock.c.txmd_frames == 1, "txmd_frames 1");
	}

	/* no offload: xskf computes it, the frame goes without metadata */
	how(XSKF_TXH_XSKF, XSKF_TXH_NONE, XSKF_TXH_NONE);
	one_pkt(&p[0], 333);
	CHECK(!udp4_ok(p[0].data), "the frame's UDP checksum starts out wrong");
	xskf_pkt__tx_l4_csum(&p[0], 14, 34);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(last_staged()->options == 0 && sock.c.txmd_csum_sw == 1 && udp4_ok(p[0].data),
	      "software fallback: the UDP checksum verifies, no metadata, txmd_csum_sw 1");
	/* the raw form, the field seeded by the app */
	one_pkt(&p[0], 61);
	{
		uint8_t *f = p[0].data;
		uint32_t seed = sum16(f + 26, 8, 17 + 27);

		f[40] = (uint8_t)(seed >> 8);
		f[41] = (uint8_t)seed;
	}
	xskf_pkt__tx_csum(&p[0], 34, 6);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(sock.c.txmd_csum_sw == 2 && udp4_ok(p[0].data),
	      "software fallback, raw start/offset, odd length: verifies");

	/* bad requests: counted, the frame back in the cache, nothing staged */
	how(XSKF_TXH_KERNEL, XSKF_TXH_KERNEL, XSKF_TXH_NONE);
	tail = sock.txq_tail;
	cache = worker.umem.cache_len;
	one_pkt(&p[0], 100);
	xskf_pkt__tx_csum(&p[0], 100, 6); /* start at the end */
	one_pkt(&p[1], 100);
	xskf_pkt__tx_csum(&p[1], 34, 65); /* field beyond the end */
	one_pkt(&p[2], 100);
	xskf_pkt__tx_csum(&p[2], 34, 7); /* odd offset */
	one_pkt(&p[3], 100);
	p[3].data[23] = 1; /* ICMP: no TCP/UDP checksum to seed */
	xskf_pkt__tx_l4_csum(&p[3], 14, 34);
	p[0].action = p[1].action = p[2].action = p[3].action = XSKF_TX;
	disp(p, 4);
	CHECK(sock.txq_tail == tail && sock.c.txmd_invalid == 4 && worker.umem.cache_len == cache,
	      "start or offset beyond the frame, odd offset, not TCP/UDP: 4 invalid, none staged, "
	      "all back in the cache");
	one_pkt(&p[0], 100);
	p[0].data[17] = 200; /* IPv4 total length beyond the frame */
	xskf_pkt__tx_l4_csum(&p[0], 14, 34);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(sock.txq_tail == tail && sock.c.txmd_invalid == 5,
	      "IP length beyond the frame: invalid");
	/* a push into the request's room after it: the request is gone */
	one_pkt(&p[0], 100);
	xskf_pkt__tx_l4_csum(&p[0], 14, 34);
	xskf_pkt__push(&p[0], RXOFF - 16);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(sock.txq_tail == tail && sock.c.txmd_invalid == 6,
	      "pushed into the request's room: invalid, not staged");
	/* too little headroom to ask */
	one_pkt(&p[0], 100);
	xskf_pkt__push(&p[0], RXOFF - 40);
	CHECK(xskf_pkt__tx_csum(&p[0], 34, 6) == -ENOSPC && xskf_pkt__tx_tstamp(&p[0], 1) ==
		      -ENOSPC && !(pkt_priv(&p[0])->frag_idx & XSKF_PKT_TX_REQ),
	      "headroom below XSKF_TX_REQ_ROOM: -ENOSPC, nothing asked");
	xskf_cache_put(&worker.umem, pkt_priv(&p[0])->addr);
	/* a request on a frame dropped: an app drop, nothing else */
	one_pkt(&p[0], 100);
	xskf_pkt__tx_tstamp(&p[0], 5);
	p[0].action = XSKF_DROP;
	disp(p, 1);
	CHECK(sock.txq_tail == tail && sock.c.drop_app == 1, "a request on a dropped frame: drop_app");

	/* offloads the port has not: counted, the frame goes without */
	how(XSKF_TXH_XSKF, XSKF_TXH_NONE, XSKF_TXH_NONE);
	one_pkt(&p[0], 100);
	xskf_pkt__tx_tstamp(&p[0], 1);
	xskf_pkt__tx_launch(&p[0], tai() + 1000000);
	p[0].action = XSKF_TX;
	disp(p, 1);
	CHECK(sock.txq_tail == tail + 1 && last_staged()->options == 0 &&
		      sock.c.txmd_unsupported == 2 && !sock.txmd_ts_out,
	      "timestamp and launch time where the port has none: 2 unsupported, sent without");

	/* launch time: in range passed on; in the past or beyond 1 s counted, sent at once */
	how(XSKF_TXH_DEVICE, XSKF_TXH_DEVICE, XSKF_TXH_DEVICE);
	now = tai();
	one_pkt(&p[0], 100);
	xskf_pkt__tx_launch(&p[0], now + 5000000);
	one_pkt(&p[1], 100);
	xskf_pkt__tx_launch(&p[1], now - 1000000);
	one_pkt(&p[2], 100);
	xskf_pkt__tx_launch(&p[2], now + 5 * XSKF_TX_LAUNCH_MAX_NS);
	p[0].action = p[1].action = p[2].action = XSKF_TX;
	tail = sock.txq_tail;
	disp(p, 3);
	{
		const struct xdp_desc *d0 = &sock.txq[tail & sock.txq_mask];

		CHECK(d0->options == XDP_TX_METADATA &&
			      md_of(d0)->flags == XDP_TXMD_FLAGS_LAUNCH_TIME &&
			      md_of(d0)->request.launch_time == now + 5000000,
		      "launch time 5 ms ahead: passed on");
		CHECK(sock.txq_tail == tail + 3 && sock.c.txmd_launch_bad == 2 &&
			      sock.txq[(tail + 1) & sock.txq_mask].options == 0 &&
			      sock.txq[(tail + 2) & sock.txq_mask].options == 0,
		      "launch time in the past, 5 s ahead: txmd_launch_bad 2, sent without");
	}

	/*
	 * A burst whose first frame asks nothing: it goes dispatch()'s own way, the frames from
	 * the first that asked on the TX metadata way (xskf_txmd__burst()), all in order; a
	 * frame that asked and is dropped takes its request back (its chunk's next frame starts
	 * a request of its own).
	 */
	how(XSKF_TXH_KERNEL, XSKF_TXH_KERNEL, XSKF_TXH_NONE);
	{
		uint32_t tail = sock.txq_tail, m = sock.txq_mask;
		uint64_t drops = sock.c.drop_app;
		const struct xskf_tx_req *r;

		one_pkt(&p[0], 100);
		one_pkt(&p[1], 100);
		xskf_pkt__tx_l4_csum(&p[1], 14, 34);
		one_pkt(&p[2], 100);
		xskf_pkt__tx_tstamp(&p[2], 7);
		r = (const void *)(p[2].data - p[2].headroom);
		one_pkt(&p[3], 100);
		p[0].action = p[1].action = p[3].action = XSKF_TX;
		p[2].action = XSKF_DROP;
		disp(p, 4);
		CHECK(sock.txq_tail == tail + 3 &&
			      sock.txq[tail & m].addr == pkt_priv(&p[0])->addr &&
			      sock.txq[tail & m].options == 0 &&
			      sock.txq[(tail + 1) & m].addr == pkt_priv(&p[1])->addr &&
			      sock.txq[(tail + 1) & m].options == XDP_TX_METADATA &&
			      sock.txq[(tail + 2) & m].addr == pkt_priv(&p[3])->addr &&
			      sock.txq[(tail + 2) & m].options == 0,
		      "a burst asked from its second frame on: 3 staged in order, only the one "
		      "that asked with metadata");
		CHECK(r->magic == 0 && sock.c.drop_app == drops + 1 && !sock.txmd_ts_out,
		      "the drop that asked: its request taken back, counted a drop, no timestamp");
	}

	/* timestamps: asked, filled in by "the kernel", handed back in order at reap */
	how(XSKF_TXH_KERNEL, XSKF_TXH_KERNEL, XSKF_TXH_NONE);
	flush_tx(&sock);
	while (ktx.consumer != ktx.producer)
		comp_slots[kcomp.producer++ & (RING - 1)] = tx_slots[ktx.consumer++ & (RING - 1)].addr;
	reap_completions(&sock, &worker.umem, XSKF_BURST_TXMD);
	CHECK(!xskf_sock__tx_out(&sock) && !stamps.n, "earlier frames completed, no stamps");
	one_pkt(&p[0], 100);
	xskf_pkt__tx_tstamp(&p[0], 1001);
	one_pkt(&p[1], 100); /* no request between two that asked */
	one_pkt(&p[2], 100);
	xskf_pkt__tx_tstamp(&p[2], 1002);
	xskf_pkt__tx_l4_csum(&p[2], 14, 34);
	p[0].action = p[1].action = p[2].action = XSKF_TX;
	disp(p, 3);
	CHECK(sock.txmd_ts_out == 2, "2 timestamps in flight");
	flush_tx(&sock);
	{
		uint64_t t = 5000;

		while (ktx.consumer != ktx.producer) {
			const struct xdp_desc *d = &tx_slots[ktx.consumer++ & (RING - 1)];
			struct xskf_xsk_tx_metadata *md = (void *)((uint8_t *)worker.umem.area +
								   d->addr - XSKF_TXMD_LEN);

			if (d->options & XDP_TX_METADATA && md->flags & XDP_TXMD_FLAGS_TIMESTAMP)
				md->completion.tx_timestamp = t++;
			comp_slots[kcomp.producer++ & (RING - 1)] = d->addr;
		}
	}
	reap_completions(&sock, &worker.umem, XSKF_BURST_TXMD);
	CHECK(stamps.n == 2 && stamps.s[0].cookie == 1001 && stamps.s[0].tai_ns == 5000 &&
		      stamps.s[1].cookie == 1002 && stamps.s[1].tai_ns == 5001 &&
		      !sock.txmd_ts_out && sock.c.txmd_stamps == 2,
	      "timestamps back in order with their cookies (%u)", stamps.n);
	CHECK(worker.umem.cache_len == FRAMES, "every frame back in the cache (%u of %u)",
	      worker.umem.cache_len, FRAMES);
	xskf_umem__free(&worker.umem);
	return tap_done();
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Ring handling of the per-packet path (framework/ring_ops.h), no root needed: the four rings
 * of one socket live in plain memory and this test plays the kernel's side of each (takes fill
 * frames, posts RX descriptors, consumes TX descriptors, posts completions). Checked: refill
 * in batches, RX bursts, every verdict, TX back-pressure on a short ring, completion bytes, and
 * that every frame is always in exactly one place. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_ops.h"

#include "tap.h"

#define FRAMES	 1024
#define FSIZE	 2048
#define RXOFF	 288 /* XDP_PACKET_HEADROOM + 32 bytes of UMEM headroom */
#define FILL_SZ	 64
#define RX_SZ	 64
#define TX_SZ	 8 /* short on purpose: back-pressure */
#define COMP_SZ	 64

struct kring {
	uint32_t producer, consumer, flags;
};

static struct kring kfill, krx, ktx, kcomp;
static uint64_t fill_slots[FILL_SZ], comp_slots[COMP_SZ];
static struct xdp_desc rx_slots[RX_SZ], tx_slots[TX_SZ];

static void ring_init(void *ring, struct kring *k, void *slots, uint32_t size, bool producer)
{
	xskf_ring__init(ring, &k->producer, &k->consumer, &k->flags, slots, size, producer);
}

/* The kernel side. */
static uint32_t kern_take_fill(uint64_t *addrs, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && kfill.consumer != kfill.producer; i++)
		addrs[i] = fill_slots[kfill.consumer++ & (FILL_SZ - 1)];
	return i;
}

static void kern_rx(uint64_t chunk, uint32_t len)
{
	struct xdp_desc *d = &rx_slots[krx.producer & (RX_SZ - 1)];

	d->addr = chunk + RXOFF;
	d->len = len;
	d->options = 0;
	krx.producer++;
}

/* Send what is on the TX ring: consume the descriptors, post their addresses as completed. */
static uint32_t kern_tx(void)
{
	uint32_t n = 0;

	while (ktx.consumer != ktx.producer) {
		comp_slots[kcomp.producer++ & (COMP_SZ - 1)] = tx_slots[ktx.consumer++ & (TX_SZ - 1)].addr;
		n++;
	}
	return n;
}

static struct xskf_port port;
static struct xskf_sock sock;
static struct xskf_worker worker;

static uint64_t census_sum(void)
{
	return worker.umem.cache_len + sock.fill_out + sock.tx_out + sock.txq_len;
}

static void setup(void)
{
	static struct xdp_desc txq[XSKF_TXQ_CAP];
	static uint32_t tx_len[TX_SZ];
	struct xskf_umem_place pl = { .policy = XSKF_HUGEPAGES_OFF, .node = -1, .who = "unit" };

	memset(&worker, 0, sizeof(worker));
	CHECK(xskf_umem__alloc(&worker.umem, FRAMES, FSIZE, &pl) == 0,
	      "UMEM of %d frames", FRAMES);
	port.idx = 0;
	memset(&sock, 0, sizeof(sock));
	sock.port = &port;
	sock.queue = 3;
	sock.worker = &worker;
	sock.txq = txq;
	sock.tx_len_ring = tx_len;
	ring_init(&sock.fill, &kfill, fill_slots, FILL_SZ, true);
	ring_init(&sock.rx, &krx, rx_slots, RX_SZ, false);
	ring_init(&sock.tx, &ktx, tx_slots, TX_SZ, true);
	ring_init(&sock.comp, &kcomp, comp_slots, COMP_SZ, false);
	worker.socks[0] = &sock;
	worker.nr_socks = 1;
	worker.tx_sock[0] = &sock;
}

int main(void)
{
	struct xskf_pkt pkts[16];
	uint64_t got[64];
	unsigned int n, i;
	uint64_t before;

	setup();

	/* refill: a whole ring, then nothing until a batch is free again */
	refill(&sock, &worker.umem, 16);
	CHECK(kfill.producer == FILL_SZ && sock.fill_out == FILL_SZ, "refill fills the ring (%u)",
	      kfill.producer);
	CHECK(worker.umem.cache_len == FRAMES - FILL_SZ, "cache gave %d frames", FILL_SZ);
	n = kern_take_fill(got, 10);
	refill(&sock, &worker.umem, 16);
	CHECK(kfill.producer == FILL_SZ, "10 free slots < batch 16: no refill");
	n += kern_take_fill(got + n, 10);
	refill(&sock, &worker.umem, 16);
	CHECK(kfill.producer == FILL_SZ + 20, "20 free slots: 20 refilled");
	CHECK(census_sum() == FRAMES, "census adds up after refills");

	/* RX: the kernel puts 12 of the frames it took into the RX ring */
	for (i = 0; i < 12; i++)
		kern_rx(got[i], 60 + i);
	n = rx_burst(&worker, &sock, pkts, 16, true);
	CHECK(n == 12 && sock.c.rx_packets == 12, "RX burst of 12");
	CHECK(pkts[0].data == (uint8_t *)worker.umem.area + got[0] + RXOFF && pkts[0].len == 60 &&
		      pkts[0].headroom == RXOFF && pkts[0].queue == 3 && pkts[0].action == XSKF_DROP,
	      "packet view: data, len, headroom, queue, default verdict");
	CHECK((const uint8_t *)pkts[0].meta == pkts[0].data - 32, "meta right in front of data");
	CHECK(sock.c.rx_bytes == 12 * 60 + 66, "RX bytes %llu", (unsigned long long)sock.c.rx_bytes);
	CHECK(sock.fill_out == FILL_SZ + 20 - 12, "frames out of the fill side: 12 fewer");
	CHECK(census_sum() + n == FRAMES, "census adds up with 12 frames in the app");

	/* verdicts: 2 drop, 8 TX, 1 FWD to a port without socket, 1 grown past its chunk */
	for (i = 2; i < 10; i++)
		pkts[i].action = XSKF_TX;
	pkts[10].action = XSKF_FWD;
	pkts[10].out_port = 5;
	pkts[11].action = XSKF_TX;
	pkts[11].len = FSIZE; /* from offset 288 this crosses into the next chunk */
	before = worker.umem.cache_len;
	dispatch(&worker, &sock, pkts, 12);
	CHECK(sock.c.drop_app == 2 && sock.c.drop_no_port == 1 && sock.c.drop_too_long == 1,
	      "drops by reason: app 2, no port 1, too long 1");
	CHECK(worker.umem.cache_len == before + 4 && sock.txq_len == 8, "4 back to cache, 8 staged");
	CHECK(census_sum() == FRAMES, "census adds up with 8 frames staged");

	/* pushing a header inside the headroom keeps the frame in its chunk */
	CHECK(xskf_pkt__push(&pkts[0], 50) && pkts[0].headroom == RXOFF - 50 && pkts[0].len == 110,
	      "push 50 bytes into the headroom");
	CHECK(!xskf_pkt__push(&pkts[0], RXOFF), "push beyond the headroom refused");

	/* TX: the ring holds 8; 4 more frames received and sent back make 12 wait */
	for (i = 12; i < 16; i++)
		kern_rx(got[i], 100);
	n = rx_burst(&worker, &sock, pkts, 16, true);
	for (i = 0; i < n; i++)
		pkts[i].action = XSKF_TX;
	dispatch(&worker, &sock, pkts, n);
	CHECK(n == 4 && sock.txq_len == 12, "4 more received and staged: 12 wait");
	flush_tx(&sock);
	CHECK(ktx.producer == TX_SZ && sock.tx_out == TX_SZ && sock.txq_len == 4,
	      "short TX ring: %d on the ring, 4 still staged", TX_SZ);
	CHECK(sock.c.tx_ring_full == 1, "back-pressure counted");
	flush_tx(&sock);
	CHECK(ktx.producer == TX_SZ && sock.c.tx_ring_full == 2, "full ring: nothing moves");
	CHECK(census_sum() == FRAMES, "census adds up under back-pressure");

	/* completions: the kernel sends the 8; the staged 4 follow */
	CHECK(kern_tx() == TX_SZ, "kernel sent %d", TX_SZ);
	reap_completions(&sock, &worker.umem);
	CHECK(sock.c.tx_packets == 8 && sock.tx_out == 0, "8 completions reaped");
	CHECK(sock.c.tx_bytes == 62 + 63 + 64 + 65 + 66 + 67 + 68 + 69,
	      "TX bytes from the per-slot lengths (%llu)", (unsigned long long)sock.c.tx_bytes);
	flush_tx(&sock);
	kern_tx();
	reap_completions(&sock, &worker.umem);
	CHECK(sock.c.tx_packets == 12 && sock.c.tx_bytes == 524 + 400 && sock.txq_len == 0,
	      "the 4 staged frames went out after the ring drained");
	CHECK(census_sum() == FRAMES, "census adds up at the end");
	for (i = 0; i < worker.umem.cache_len; i++)
		if (worker.umem.cache[i] % FSIZE)
			break;
	CHECK(i == worker.umem.cache_len, "every cached frame is back at its chunk start");

	/* staging overflow: frames beyond the staging capacity are dropped and counted */
	before = sock.c.drop_tx_full;
	for (i = 0; i < XSKF_TXQ_CAP + 3; i++) {
		struct xskf_pkt p = { .addr = worker.umem.cache[--worker.umem.cache_len] + RXOFF,
				      .len = 64 };

		if (!stage(&sock, &p)) /* not taken: the caller gives it back, as dispatch() does */
			xskf_cache_put(&worker.umem, p.addr);
	}
	CHECK(sock.txq_len == XSKF_TXQ_CAP && sock.c.drop_tx_full == before + 3,
	      "staging full: 3 dropped and counted");
	CHECK(census_sum() == FRAMES, "census adds up after staging overflow");

	xskf_umem__free(&worker.umem);
	return tap_done();
}

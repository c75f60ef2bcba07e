// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: multi-buffer frame assembly of multi-buffer AF_XDP (framework/core/frags_ops.h),
 * against rings in plain memory with this target playing the kernel, which posts what the input
 * says:
 *
 * Input: a byte of settings (burst size 1..16 from its low nibble), then records of two bytes:
 * [options: bit 0 XDP_PKT_CONTD, bit 1 "a burst now", bit 2 "the app sends it back", bit 3
 * "the kernel completes TX now"] [length / 16 + 1]. Each record is one RX descriptor of one
 * fill frame, so that any sequence of multi-buffer frame marks comes: frames of any length up to
 * the input's, multi-buffer frames longer than XSKF_MAX_SEGS, a last buffer marked to go on.
 *
 * Properties, at every step:
 *  - the frame census adds up: cache + fill + RX + in the app + staged + in flight = all;
 *  - every frame handed to the app is a whole multi-buffer frame as posted: its buffers are the
 * next descriptors in order, all but the last marked, at most XSKF_MAX_SEGS of them; its length is
 * theirs; xskf_pkt__read() of any range gives their bytes in order;
 *  - a multi-buffer frame is never handed over half: what is held back is a cut at the end of the
 * ring;
 *  - TX puts only whole multi-buffer frames on the TX ring (its last descriptor never marked);
 * and at the end, after draining, every frame is back in the cache once, at its chunk start, and
 * frames handed over + dropped as too long / open = frames posted.
 */
#include <string.h>

#include "core/frags_ops.h"
#include "core/ring_ops.h"

#include "fuzz.h"

#define FRAMES	 256
#define FSIZE	 2048
#define RXOFF	 256
#define RING	 256
#define TX_SZ	 32
#define TXQ	 1024
#define POSTED	 4096 /* descriptors an input can post: (size - 1) / 2, inputs longer are cut */

struct kring {
	uint32_t producer, consumer, flags;
};

static struct kring kfill, krx, ktx, kcomp;
static uint64_t fill_slots[RING], comp_slots[RING];
static struct xdp_desc rx_slots[RING], tx_slots[TX_SZ], txq[TXQ];
static struct xskf_port port;
static struct xskf_sock sock;
static struct xskf_worker worker;
static bool ready;

/* what the kernel posted and the app has not yet had, in order: to check each frame with */
static struct xdp_desc posted[POSTED];
static uint32_t posted_head, posted_tail;

static void ring_init(void *ring, struct kring *k, void *slots, uint32_t size, bool producer)
{
	xskf_ring__init(ring, &k->producer, &k->consumer, &k->flags, slots, size, producer);
}

static void setup(void)
{
	struct xskf_umem_place pl = { .policy = XSKF_HUGEPAGES_OFF, .node = -1, .who = "fuzz" };
	uint8_t *area;

	if (!ready) {
		memset(&worker, 0, sizeof(worker));
		FUZZ_ASSERT(!xskf_umem__alloc(&worker.umem, FRAMES, FSIZE, &pl), "UMEM");
		ready = true;
	}
	area = worker.umem.area;
	memset(&kfill, 0, sizeof(kfill));
	memset(&krx, 0, sizeof(krx));
	memset(&ktx, 0, sizeof(ktx));
	memset(&kcomp, 0, sizeof(kcomp));
	worker.umem.area = area;
	worker.umem.cache_len = FRAMES;
	for (uint32_t i = 0; i < FRAMES; i++)
		worker.umem.cache[i] = (uint64_t)i * FSIZE;
	memset(&sock, 0, sizeof(sock));
	sock.port = &port;
	sock.worker = &worker;
	sock.txq = txq;
	sock.txq_mask = TXQ - 1;
	sock.sg = true;
	sock.tx_max_segs = 18;
	ring_init(&sock.fill, &kfill, fill_slots, RING, true);
	ring_init(&sock.rx, &krx, rx_slots, RING, false);
	ring_init(&sock.tx, &ktx, tx_slots, TX_SZ, true);
	ring_init(&sock.comp, &kcomp, comp_slots, RING, false);
	worker.socks[0] = &sock;
	worker.nr_socks = 1;
	worker.tx_sock[0] = &sock;
	xskf_frags__register(&worker);
	posted_head = posted_tail = 0;
}

static uint64_t census(uint32_t in_app)
{
	return worker.umem.cache_len + sock.fill_out + xskf_sock__tx_out(&sock) +
	       xskf_sock__staged(&sock) + in_app;
}

/* The kernel sends what is on the TX ring; only whole multi-buffer frames may be there. */
static void kern_tx(void)
{
	FUZZ_ASSERT(ktx.consumer == ktx.producer ||
			!(tx_slots[(ktx.producer - 1) & (TX_SZ - 1)].options & XDP_PKT_CONTD),
		    "a TX ring that ends inside a multi-buffer frame");
	while (ktx.consumer != ktx.producer)
		comp_slots[kcomp.producer++ & (RING - 1)] = tx_slots[ktx.consumer++ & (TX_SZ - 1)].addr;
}

/*
 * The reference: the next whole frame of what was posted, as the kernel means it, skipping
 * multi-buffer frames longer than XSKF_MAX_SEGS (dropped by the code as soon as it sees that many
 * buffers, and the rest of them up to their end). Returns its first posted index and its buffers,
 * or false while no whole frame is there (an open multi-buffer frame at the end).
 */
static bool ref_skip;

static bool ref_next(uint32_t *first, uint32_t *nb)
{
	for (;;) {
		uint32_t k;

		while (ref_skip && posted_head != posted_tail)
			ref_skip = posted[posted_head++ % POSTED].options & XDP_PKT_CONTD;
		if (ref_skip)
			return false;
		for (k = 0; posted_head + k != posted_tail && k < XSKF_MAX_SEGS; k++)
			if (!(posted[(posted_head + k) % POSTED].options & XDP_PKT_CONTD))
				break;
		if (k == XSKF_MAX_SEGS) {
			posted_head += XSKF_MAX_SEGS;
			ref_skip = true;
			continue;
		}
		if (posted_head + k == posted_tail)
			return false;
		*first = posted_head;
		*nb = k + 1;
		posted_head += k + 1;
		return true;
	}
}

/* Check the frames of a burst against the reference. */
static void check_burst(struct xskf_pkt *pkts, unsigned int n)
{
	uint8_t buf[64], cat[64];

	for (unsigned int i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		uint32_t total = 0, len, j, first, nb, c = 0;
		const uint8_t *r;

		FUZZ_ASSERT(ref_next(&first, &nb),
			    "a frame handed over that is no whole multi-buffer frame");
		FUZZ_ASSERT(xskf_pkt__nb_segs(p) == nb, "a frame of %u buffers, posted as %u",
			    xskf_pkt__nb_segs(p), nb);
		for (j = 0; j < nb; j++) {
			const struct xdp_desc *d = &posted[(first + j) % POSTED];
			uint8_t *b = xskf_pkt__seg(p, j, &len);

			FUZZ_ASSERT(b == (uint8_t *)worker.umem.area + d->addr && len == d->len,
				    "buffer %u of a frame is not the posted descriptor", j);
			/* the bytes around the first edge, concatenated by hand */
			if (j <= 1)
				for (uint32_t q = j ? 0 : (len > 16 ? len - 16 : 0); q < len && c < 32; q++)
					cat[c++] = b[q];
			total += len;
		}
		FUZZ_ASSERT(xskf_pkt__total_len(p) == total, "frame length");
		if (nb > 1 && c) {
			uint32_t from = p->len > 16 ? p->len - 16 : 0;

			r = xskf_pkt__read(p, from, c, buf);
			FUZZ_ASSERT(r && !memcmp(r, cat, c), "a range across the first edge");
		}
		FUZZ_ASSERT(!xskf_pkt__read(p, total, 1, buf), "a range past the end");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xskf_pkt pkts[16];
	uint32_t batch, i, k;
	size_t off;
	bool has_frags;

	if (size < 1)
		return 0;
	setup();
	ref_skip = false;
	batch = (data[0] & 15) + 1;
	refill(&sock, &worker.umem, 1);
	if (size > 2 * POSTED)
		size = 2 * POSTED;
	for (off = 1; off + 1 < size; off += 2) {
		uint8_t o = data[off];
		unsigned int n;

		/* one fill frame, one descriptor, if the kernel has both */
		if (kfill.consumer != kfill.producer && krx.producer - krx.consumer < RING) {
			struct xdp_desc *d = &rx_slots[krx.producer & (RING - 1)];

			d->addr = fill_slots[kfill.consumer++ & (RING - 1)] + RXOFF;
			d->len = (uint32_t)data[off + 1] * 7 % (FSIZE - RXOFF) + 1;
			d->options = o & 1 ? XDP_PKT_CONTD : 0;
			for (k = 0; k < d->len; k++)
				((uint8_t *)worker.umem.area)[d->addr + k] = (uint8_t)(off + k);
			posted[posted_tail++ % POSTED] = *d;
			krx.producer++;
		}
		if (o & 2) {
			n = rx_take_sg(&worker, &sock, pkts, batch, false, false, false, &has_frags);
			FUZZ_ASSERT(n <= batch, "%u frames from a burst of %u", n, batch);
			for (k = 0, i = 0; i < n; i++)
				k += xskf_pkt__nb_segs(&pkts[i]);
			FUZZ_ASSERT(census(k) == FRAMES, "census with a burst in the app");
			check_burst(pkts, n);
			for (i = 0; i < n; i++)
				pkts[i].action = o & 4 ? XSKF_TX : XSKF_DROP;
			dispatch_sg(&worker, &sock, pkts, n);
			FUZZ_ASSERT(census(0) == FRAMES, "census after a burst");
			flush_tx(&sock);
		}
		if (o & 8) {
			kern_tx();
			reap_completions(&sock, &worker.umem, XSKF_BURST_SG);
		}
		refill(&sock, &worker.umem, 1);
		FUZZ_ASSERT(census(0) == FRAMES, "census after TX");
	}
	/* drain: what is left is taken or dropped, every frame comes back */
	for (k = 0; k < 4 * RING && (krx.producer != krx.consumer || xskf_sock__staged(&sock) ||
			       xskf_sock__tx_out(&sock));
	     k++) {
		unsigned int n = rx_take_sg(&worker, &sock, pkts, batch, false, false, true, &has_frags);

		dispatch_sg(&worker, &sock, pkts, n);
		flush_tx(&sock);
		kern_tx();
		reap_completions(&sock, &worker.umem, XSKF_BURST_SG);
	}
	FUZZ_ASSERT(krx.producer == krx.consumer, "RX not drained");
	/* the fill ring's frames come back as the kernel gives them at teardown */
	while (kfill.consumer != kfill.producer)
		xskf_cache_put(&worker.umem, fill_slots[kfill.consumer++ & (RING - 1)]);
	sock.fill_out = 0;
	FUZZ_ASSERT(worker.umem.cache_len == FRAMES, "frames lost: %u of %u back",
		    worker.umem.cache_len, FRAMES);
	for (i = 0; i < FRAMES; i++)
		FUZZ_ASSERT(worker.umem.cache[i] % FSIZE == 0, "a frame back not at its chunk start");
	return 0;
}

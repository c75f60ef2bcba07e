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

#include "core/frags_ops.h"
#include "core/ring_ops.h"

#include "tap.h"

#define FRAMES	 1024
#define FSIZE	 2048
#define RXOFF	 288 /* XDP_PACKET_HEADROOM + 32 bytes of UMEM headroom */
#define FILL_SZ	 64
#define RX_SZ	 64
#define TX_SZ	 8 /* short on purpose: back-pressure */
#define COMP_SZ	 64
#define TXQ_SLOTS 1024 /* the TX shadow: a power of two >= TX_SZ + COMP_SZ + XSKF_TXQ_CAP */

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
	return worker.umem.cache_len + sock.fill_out + xskf_sock__tx_out(&sock) + xskf_sock__staged(&sock);
}

static void setup(void)
{
	static struct xdp_desc txq[TXQ_SLOTS];
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
	sock.txq_mask = TXQ_SLOTS - 1;
	ring_init(&sock.fill, &kfill, fill_slots, FILL_SZ, true);
	ring_init(&sock.rx, &krx, rx_slots, RX_SZ, false);
	ring_init(&sock.tx, &ktx, tx_slots, TX_SZ, true);
	ring_init(&sock.comp, &kcomp, comp_slots, COMP_SZ, false);
	worker.socks[0] = &sock;
	worker.nr_socks = 1;
	worker.tx_sock[0] = &sock;
}

/* A small deterministic generator (xorshift32): the same rounds on every run. */
static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* What the test expects, kept apart from what the code under test counts. */
struct model {
	uint64_t drop_app, drop_no_port, drop_too_long, drop_tx_full;
	uint64_t staged, sent; /* frames staged (in order, in tx_addr/tx_len) and sent so far */
	uint64_t completed, completed_bytes;
	uint64_t tx_addr[1 << 20];
	uint32_t tx_len[1 << 20];
	unsigned int order_errors, census_errors;
};

static struct model m;

/* The kernel sends up to @max descriptors, each only with a completion slot reserved first. */
static void kern_tx_some(uint32_t max)
{
	while (max-- && ktx.consumer != ktx.producer && kcomp.producer - kcomp.consumer < COMP_SZ) {
		const struct xdp_desc *d = &tx_slots[ktx.consumer++ & (TX_SZ - 1)];

		if (d->addr != m.tx_addr[m.sent] || d->len != m.tx_len[m.sent] || d->options)
			m.order_errors++;
		m.completed_bytes += m.tx_len[m.sent++];
		comp_slots[kcomp.producer++ & (COMP_SZ - 1)] = d->addr;
	}
}

/* Give every packet of a burst a verdict, as an app might, and note what dispatch() must do. */
static void verdicts(struct xskf_pkt *pkts, unsigned int n)
{
	uint64_t staged = xskf_sock__staged(&sock);
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		uint32_t r = rnd(20);
		bool tx = false;

		if (r < 7) {
			m.drop_app++; /* the verdict the burst came with */
		} else if (r < 14) {
			p->action = XSKF_TX;
			if (r == 13) /* a header pushed in front, as a tunnel does */
				xskf_pkt__push(p, 1 + rnd(RXOFF));
			tx = true;
		} else if (r < 16) {
			p->action = XSKF_FWD; /* to the port it came from: the same socket */
			p->out_port = 0;
			tx = true;
		} else if (r == 16) {
			p->action = XSKF_FWD;
			p->out_port = 1 + rnd(XSKF_MAX_PORTS + 3); /* no socket there, or no port */
			m.drop_no_port++;
		} else if (r == 17) {
			p->action = XSKF_TX;
			p->len = rnd(2) ? 0 : FSIZE - RXOFF + 1 + rnd(64); /* empty, or past its chunk */
			m.drop_too_long++;
		} else if (r == 18) {
			p->action = 7; /* unknown: a drop */
			m.drop_app++;
		} else {
			p->action = XSKF_TX;
			p->len = FSIZE - RXOFF; /* the longest that fits */
			tx = true;
		}
		if (!tx)
			continue;
		if (staged == XSKF_TXQ_CAP) {
			m.drop_tx_full++;
			continue;
		}
		m.tx_addr[m.staged] = pkt_priv(p)->addr;
		m.tx_len[m.staged++] = p->len;
		staged++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Many rounds of random bursts, verdicts and kernel progress on short rings, so that every
 * ring and the TX shadow wrap again and again: every frame must be in exactly one place after
 * each round, TX descriptors must reach the kernel in the order they were staged with the
 * right lengths, and each counter must equal the model's.
 */
static void stress(unsigned int rounds)
{
	struct xskf_pkt pkts[32];
	uint64_t got[RX_SZ];
	unsigned int r, i, n, dups = 0, misaligned = 0;

	memset(&kfill, 0, sizeof(kfill));
	memset(&krx, 0, sizeof(krx));
	memset(&ktx, 0, sizeof(ktx));
	memset(&kcomp, 0, sizeof(kcomp));
	setup();
	for (r = 0; r < rounds; r++) {
		uint32_t room = RX_SZ - (krx.producer - krx.consumer);

		refill(&sock, &worker.umem, 1 + rnd(16));
		n = kern_take_fill(got, rnd(room + 1));
		for (i = 0; i < n; i++)
			kern_rx(got[i], 60 + rnd(1400));
		n = rx_take(&worker, &sock, pkts, 1 + rnd(32), rnd(2), false, rnd(2));
		verdicts(pkts, n);
		dispatch(&worker, &sock, pkts, n, 0);
		if (rnd(3))
			flush_tx(&sock);
		kern_tx_some(rnd(12));
		if (rnd(3))
			reap_completions(&sock, &worker.umem, 0);
		if (census_sum() != FRAMES)
			m.census_errors++;
	}
	/* drain: what is staged goes out, the kernel sends it all, the RX ring empties */
	for (i = 0; i < 10000 && (xskf_sock__staged(&sock) || xskf_sock__tx_out(&sock)); i++) {
		flush_tx(&sock);
		kern_tx_some(TX_SZ);
		reap_completions(&sock, &worker.umem, 0);
	}
	while ((n = rx_take(&worker, &sock, pkts, 32, false, false, false))) {
		m.drop_app += n;
		dispatch(&worker, &sock, pkts, n, 0);
	}
	CHECK(m.census_errors == 0 && census_sum() == FRAMES,
	      "stress, %u rounds: the census added up after every round", rounds);
	CHECK(xskf_sock__staged(&sock) == 0 && xskf_sock__tx_out(&sock) == 0 && m.sent == m.staged,
	      "stress: all %llu staged frames were sent", (unsigned long long)m.staged);
	CHECK(m.order_errors == 0, "stress: TX descriptors reached the kernel in staging order, "
				   "with their lengths (%u wrong)", m.order_errors);
	CHECK(sock.c.tx_packets == m.sent && sock.c.tx_bytes == m.completed_bytes,
	      "stress: TX packets %llu and bytes %llu as completed", (unsigned long long)m.sent,
	      (unsigned long long)m.completed_bytes);
	CHECK(sock.c.drop_app == m.drop_app && sock.c.drop_no_port == m.drop_no_port &&
		      sock.c.drop_too_long == m.drop_too_long &&
		      sock.c.drop_tx_full == m.drop_tx_full,
	      "stress: drops by reason (app %llu, no port %llu, too long %llu, staging full %llu)",
	      (unsigned long long)m.drop_app, (unsigned long long)m.drop_no_port,
	      (unsigned long long)m.drop_too_long, (unsigned long long)m.drop_tx_full);
	CHECK(m.drop_tx_full > 0 && sock.c.tx_ring_full > 0,
	      "stress: staging and the TX ring were full at times (back-pressure was exercised)");
	CHECK(ktx.producer > 4 * (TXQ_SLOTS + 0u) && kfill.producer > 4 * (FILL_SZ + 0u),
	      "stress: the TX shadow and the rings wrapped many times");
	/* every frame is in the cache or on the fill ring: each chunk exactly once */
	n = worker.umem.cache_len;
	for (i = 0; i < FILL_SZ && kfill.consumer + i != kfill.producer; i++)
		worker.umem.cache[n++] = fill_slots[(kfill.consumer + i) & (FILL_SZ - 1)];
	qsort(worker.umem.cache, n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < n; i++) {
		misaligned += worker.umem.cache[i] % FSIZE != 0;
		dups += i && worker.umem.cache[i] == worker.umem.cache[i - 1];
	}
	CHECK(n == FRAMES && !dups && !misaligned,
	      "stress: %u frames, each chunk once (%u duplicates, %u not at a chunk start)", n,
	      dups, misaligned);
	xskf_umem__free(&worker.umem);
}

/* ring_copy() against a copy slot by slot, for rings of every size pair and every offset. */
static void ring_copy_cases(void)
{
	uint32_t dst[16], src[16], ref[16], ds, ss, di, si, n, bad = 0, cases = 0, i;

	for (ds = 1; ds <= 16; ds <<= 1)
		for (ss = 1; ss <= 16; ss <<= 1)
			for (di = 0; di < 2 * ds; di++)
				for (si = 0; si < 2 * ss; si++)
					for (n = 0; n <= (ds < ss ? ds : ss); n++) {
						for (i = 0; i < 16; i++) {
							src[i] = 100 + i;
							dst[i] = ref[i] = 0;
						}
						for (i = 0; i < n; i++)
							ref[(di + i) & (ds - 1)] = src[(si + i) & (ss - 1)];
						ring_copy(dst, ds - 1, di, src, ss - 1, si, n, sizeof(*dst));
						bad += memcmp(dst, ref, sizeof(dst)) != 0;
						cases++;
					}
	CHECK(!bad, "ring_copy() copies like a slot-by-slot loop (%u cases, %u wrong)", cases, bad);
	for (i = 0; i < 16; i++)
		src[i] = 200 + i;
	ring_put(dst, 7, 6, src + 3, 5, sizeof(*dst));
	CHECK(dst[6] == 203 && dst[7] == 204 && dst[0] == 205 && dst[2] == 207,
	      "ring_put() from a plain array into a ring that wraps");
}

/* The kernel posts one RX descriptor of a multi-buffer frame: XDP_PKT_CONTD unless it is the last.
 */
static void kern_rx_seg(uint64_t chunk, uint32_t len, bool more)
{
	kern_rx(chunk, len);
	rx_slots[(krx.producer - 1) & (RX_SZ - 1)].options = more ? XDP_PKT_CONTD : 0;
}

/*
 * Multi-buffer frames (frags_ops.h): whole multi-buffer frames taken, a multi-buffer frame cut at
 * the end of what the kernel posted held back and dropped only when draining, the buffers walked
 * and read across an edge, TX staged whole and flushed only at a frame's end, completions counted
 * by frame, a multi-buffer frame longer than XSKF_MAX_SEGS dropped; the census exact at every step.
 */
static void frags_cases(void)
{
	struct xskf_pkt pkts[16];
	uint64_t got[64], before;
	uint8_t buf[16], want[16];
	const uint8_t *r;
	uint32_t len, k;
	unsigned int n, i, j;
	bool has_frags;

	memset(&kfill, 0, sizeof(kfill));
	memset(&krx, 0, sizeof(krx));
	memset(&ktx, 0, sizeof(ktx));
	memset(&kcomp, 0, sizeof(kcomp));
	setup();
	sock.sg = true;
	sock.tx_max_segs = 18;
	xskf_frags__register(&worker);
	refill(&sock, &worker.umem, 16);
	n = kern_take_fill(got, 64);
	/* three frames of 3 (100, 200, 300 bytes), then the first two buffers of a fourth */
	for (j = 0; j < 3; j++)
		for (i = 0; i < 3; i++) {
			uint8_t *p = (uint8_t *)worker.umem.area + got[3 * j + i] + RXOFF;

			for (k = 0; k < 100 * (i + 1); k++)
				p[k] = (uint8_t)(i * 100 + k);
			kern_rx_seg(got[3 * j + i], 100 * (i + 1), i < 2);
		}
	kern_rx_seg(got[9], 100, true);
	kern_rx_seg(got[10], 100, true);
	n = rx_take_sg(&worker, &sock, pkts, 16, true, false, false, &has_frags);
	CHECK(n == 3 && has_frags && pkts[0].frags == 2 && xskf_pkt__nb_segs(&pkts[0]) == 3,
	      "three whole frames of 3 taken (%u)", n);
	CHECK(krx.consumer == 9 && census_sum() + 9 == FRAMES,
	      "the cut fourth stays on the RX ring; census adds up with 9 buffers in the app");
	CHECK(sock.c.rx_packets == 3 && sock.c.rx_bytes == 3 * 600 && sock.c.rx_chains == 3,
	      "counted by frame: 3 packets, 1800 bytes, 3 multi-buffer frames");
	CHECK(xskf_pkt__total_len(&pkts[1]) == 600 && xskf_pkt__seg(&pkts[1], 2, &len) && len == 300 &&
		      !xskf_pkt__seg(&pkts[1], 3, &len),
	      "walked: 600 bytes in 3 buffers, none past the last");
	for (k = 0; k < 16; k++)
		want[k] = (uint8_t)(k < 8 ? 92 + k : 100 + k - 8);
	r = xskf_pkt__read(&pkts[0], 92, 16, buf);
	CHECK(r == buf && !memcmp(buf, want, 16), "a range across the first edge read into buf");
	r = xskf_pkt__read(&pkts[0], 110, 8, buf);
	CHECK(r && r != buf && r[0] == 110, "a range inside the second buffer: no copy");
	CHECK(!xskf_pkt__read(&pkts[0], 595, 8, buf), "a range past the end: NULL");

	/* TX back: staged whole; the ring of 8 takes two multi-buffer frames, not 2 2/3 */
	for (i = 0; i < 3; i++)
		pkts[i].action = XSKF_TX;
	dispatch_sg(&worker, &sock, pkts, 3);
	CHECK(xskf_sock__staged(&sock) == 9 && sock.txq[0].options == XDP_PKT_CONTD &&
		  sock.txq[1].options == XDP_PKT_CONTD && sock.txq[2].options == 0,
	      "3 multi-buffer frames staged, XDP_PKT_CONTD on all but each one's last");
	flush_tx(&sock);
	CHECK(ktx.producer == 6 && xskf_sock__staged(&sock) == 3,
	      "flush cut at a frame's end: 6 on a ring of 8, one multi-buffer frame still staged");
	CHECK(census_sum() == FRAMES,
	      "census adds up with multi-buffer frames staged and in flight");
	kern_tx();
	reap_completions(&sock, &worker.umem, XSKF_BURST_SG);
	flush_tx(&sock);
	kern_tx();
	reap_completions(&sock, &worker.umem, XSKF_BURST_SG);
	CHECK(sock.c.tx_packets == 3 && sock.c.tx_bytes == 1800 && !xskf_sock__tx_out(&sock),
	      "completions counted by frame: 3 packets, 1800 bytes");

	/* the cut multi-buffer frame never ends: held while running, dropped when draining */
	n = rx_take_sg(&worker, &sock, pkts, 16, true, false, false, &has_frags);
	CHECK(n == 0 && krx.consumer == 9, "an open multi-buffer frame is held back");
	n = rx_take_sg(&worker, &sock, pkts, 16, true, false, true, &has_frags);
	CHECK(n == 0 && krx.consumer == 11 && sock.c.drop_chain_open == 1 && census_sum() == FRAMES,
	      "draining: the open multi-buffer frame dropped, counted (drop_chain_open), its "
	      "buffers back");

	/* too long: XSKF_MAX_SEGS + 1 buffers */
	refill(&sock, &worker.umem, 1);
	n = kern_take_fill(got, 64);
	for (i = 0; i <= XSKF_MAX_SEGS; i++)
		kern_rx_seg(got[i], 64, i < XSKF_MAX_SEGS);
	before = worker.umem.cache_len;
	n = rx_take_sg(&worker, &sock, pkts, 16, true, false, false, &has_frags);
	CHECK(n == 0 && sock.c.drop_chain_long == 1 &&
		  worker.umem.cache_len == before + XSKF_MAX_SEGS + 1 && !sock.rx_skip &&
		  census_sum() == FRAMES,
	      "a frame of %d dropped whole (drop_chain_long), census exact", XSKF_MAX_SEGS + 1);

	/* TX refused: more buffers than the socket takes */
	sock.tx_max_segs = 2;
	kern_rx_seg(got[50], 64, true);
	kern_rx_seg(got[51], 64, true);
	kern_rx_seg(got[52], 64, false);
	n = rx_take_sg(&worker, &sock, pkts, 16, true, false, false, &has_frags);
	pkts[0].action = XSKF_TX;
	dispatch_sg(&worker, &sock, pkts, n);
	CHECK(n == 1 && sock.c.drop_chain_tx == 1 && !xskf_sock__staged(&sock) &&
		  census_sum() == FRAMES,
	      "a frame of 3 on a socket that takes 2: refused (drop_chain_tx), buffers back");

	/*
	 * Draining, a full peek (batch 2 + XSKF_MAX_SEGS = 50 descriptors) that ends inside a
	 * whole multi-buffer frame: a frame of 48, then one of 3 cut after its second buffer. The
	 * cut one is held, not dropped as open: dropping it handed its last buffer to the next
	 * burst as a frame of its own (counted twice, and sent on by a forwarder).
	 */
	refill(&sock, &worker.umem, 1);
	n = kern_take_fill(got, 64);
	for (i = 0; i < XSKF_MAX_SEGS; i++)
		kern_rx_seg(got[i], 64, i + 1 < XSKF_MAX_SEGS);
	for (i = 0; i < 3; i++)
		kern_rx_seg(got[XSKF_MAX_SEGS + i], 100, i < 2);
	before = sock.c.drop_chain_open;
	n = rx_take_sg(&worker, &sock, pkts, 2, true, false, true, &has_frags);
	CHECK(n == 1 && pkts[0].frags == XSKF_MAX_SEGS - 1 && sock.c.drop_chain_open == before,
	      "draining, a full peek ending inside a whole multi-buffer frame: the multi-buffer "
	      "frame of %d taken, the cut one held",
	      XSKF_MAX_SEGS);
	dispatch_sg(&worker, &sock, pkts, n);
	n = rx_take_sg(&worker, &sock, pkts, 2, true, false, true, &has_frags);
	CHECK(n == 1 && pkts[0].frags == 2 && xskf_pkt__total_len(&pkts[0]) == 300 &&
		  sock.c.drop_chain_open == before,
	      "the next burst takes the held multi-buffer frame whole: 3 buffers, 300 bytes, "
	      "nothing dropped");
	dispatch_sg(&worker, &sock, pkts, n);
	CHECK(census_sum() == FRAMES, "census exact after the held multi-buffer frame");
	xskf_frags__unregister(&worker);
	xskf_umem__free(&worker.umem);
}

int main(void)
{
	struct xskf_pkt pkts[16];
	uint64_t got[64];
	unsigned int n, i;
	uint64_t before;

	ring_copy_cases();
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
	n = rx_take(&worker, &sock, pkts, 16, true, false, true);
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
	dispatch(&worker, &sock, pkts, 12, 0);
	CHECK(sock.c.drop_app == 2 && sock.c.drop_no_port == 1 && sock.c.drop_too_long == 1,
	      "drops by reason: app 2, no port 1, too long 1");
	CHECK(worker.umem.cache_len == before + 4 && xskf_sock__staged(&sock) == 8, "4 back to cache, 8 staged");
	CHECK(census_sum() == FRAMES, "census adds up with 8 frames staged");

	/* pushing a header inside the headroom keeps the frame in its chunk */
	CHECK(xskf_pkt__push(&pkts[0], 50) && pkts[0].headroom == RXOFF - 50 && pkts[0].len == 110,
	      "push 50 bytes into the headroom");
	CHECK(!xskf_pkt__push(&pkts[0], RXOFF), "push beyond the headroom refused");

	/* TX: the ring holds 8; 4 more frames received and sent back make 12 wait */
	for (i = 12; i < 16; i++)
		kern_rx(got[i], 100);
	n = rx_take(&worker, &sock, pkts, 16, true, false, true);
	for (i = 0; i < n; i++)
		pkts[i].action = XSKF_TX;
	dispatch(&worker, &sock, pkts, n, 0);
	CHECK(n == 4 && xskf_sock__staged(&sock) == 12, "4 more received and staged: 12 wait");
	flush_tx(&sock);
	CHECK(ktx.producer == TX_SZ && xskf_sock__tx_out(&sock) == TX_SZ && xskf_sock__staged(&sock) == 4,
	      "short TX ring: %d on the ring, 4 still staged", TX_SZ);
	CHECK(sock.c.tx_ring_full == 1, "back-pressure counted");
	flush_tx(&sock);
	CHECK(ktx.producer == TX_SZ && sock.c.tx_ring_full == 2, "full ring: nothing moves");
	CHECK(census_sum() == FRAMES, "census adds up under back-pressure");

	/* completions: the kernel sends the 8; the staged 4 follow */
	CHECK(kern_tx() == TX_SZ, "kernel sent %d", TX_SZ);
	reap_completions(&sock, &worker.umem, 0);
	CHECK(sock.c.tx_packets == 8 && xskf_sock__tx_out(&sock) == 0, "8 completions reaped");
	CHECK(sock.c.tx_bytes == 62 + 63 + 64 + 65 + 66 + 67 + 68 + 69,
	      "TX bytes from the per-slot lengths (%llu)", (unsigned long long)sock.c.tx_bytes);
	flush_tx(&sock);
	kern_tx();
	reap_completions(&sock, &worker.umem, 0);
	CHECK(sock.c.tx_packets == 12 && sock.c.tx_bytes == 524 + 400 && xskf_sock__staged(&sock) == 0,
	      "the 4 staged frames went out after the ring drained");
	CHECK(census_sum() == FRAMES, "census adds up at the end");
	for (i = 0; i < worker.umem.cache_len; i++)
		if (worker.umem.cache[i] % FSIZE)
			break;
	CHECK(i == worker.umem.cache_len, "every cached frame is back at its chunk start");

	/* hints carried in the headroom (adjust_meta refused): each descriptor starts with the
	 * meta; the view starts past it, with the meta where data_meta would have put it */
	refill(&sock, &worker.umem, 1);
	CHECK(kern_take_fill(got, 2) == 2, "2 frames from the fill ring");
	kern_rx(got[0], 60 + 32);
	kern_rx(got[1], 100 + 32);
	before = sock.c.rx_bytes;
	n = rx_take(&worker, &sock, pkts, 16, true, true, true);
	CHECK(n == 2 && pkts[0].len == 60 && pkts[1].len == 100 &&
		      pkt_priv(&pkts[0])->addr == got[0] + RXOFF + 32 &&
		      pkts[0].data == (uint8_t *)worker.umem.area + got[0] + RXOFF + 32 &&
		      pkts[0].headroom == RXOFF + 32 &&
		      (const uint8_t *)pkts[1].meta == (uint8_t *)worker.umem.area + got[1] + RXOFF &&
		      sock.c.rx_bytes == before + 160,
	      "head hints: view past the meta, meta at the descriptor's start, bytes without it");
	for (i = 0; i < n; i++)
		xskf_cache_put(&worker.umem, pkt_priv(&pkts[i])->addr);
	CHECK(census_sum() == FRAMES, "census adds up after a burst with head hints");

	/* staging overflow: frames beyond the staging capacity are dropped and counted */
	before = sock.c.drop_tx_full;
	for (i = 0; i < XSKF_TXQ_CAP + 3; i++) {
		uint64_t addr = worker.umem.cache[--worker.umem.cache_len] + RXOFF;

		if (!stage(&sock, addr, 64)) /* not taken: the caller gives it back */
			xskf_cache_put(&worker.umem, addr);
	}
	CHECK(xskf_sock__staged(&sock) == XSKF_TXQ_CAP && sock.c.drop_tx_full == before + 3,
	      "staging full: 3 dropped and counted");
	CHECK(census_sum() == FRAMES, "census adds up after staging overflow");

	xskf_umem__free(&worker.umem);

	stress(20000);
	frags_cases();
	return tap_done();
}

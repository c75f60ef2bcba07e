// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-txgen: send frames with AF_XDP TX only (XSKF_APP_F_TX_ONLY): UDP/IPv4 frames built from
 * a template, or the frames of a pcap file replayed.
 *
 *   xsk-txgen -i veth0 --size 60 --flows 16 --rate 1000000 --count 10000000
 *   xsk-txgen -i veth0 --imix --dst-mac 02:00:00:00:00:02
 *   xsk-txgen -i veth0 --pcap trace.pcap --loop
 *
 * --imix sends 7:4:1 of 60-, 590- and 1514-byte frames (IP packets of 46, 576 and 1500 bytes;
 * sizes here never include the 4-byte FCS). --rate and --count are for the whole run: built
 * frames are split evenly between workers (each runs its own token bucket); a pcap file is
 * split by flow (txgen_flow.h), each worker replaying its own flows in file order, and the
 * count and rate in proportion. The framework still attaches its XDP program on the interface
 * (see docs/forwarding.md); it passes what arrives to the stack.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <xskf_csum.h>
#include <xskf_engine.h> /* its options check sets engine options; the queue counters */
#include <xskf_plugin.h>
#include <xskf_tx.h>

#include "txgen_flow.h" /* the split by flow */
#include "txgen_pcap.h" /* struct txgen_frames; the reader is built with libpcap only */

#define ETH_ALEN   6
#define HDR_LEN	   42 /* Ethernet + IPv4 + UDP */
#define MAX_FRAME  4096
/* --size beyond one buffer: a multi-buffer frame (multi-buffer AF_XDP, docs/jumbo.md), up to MTU
 * 9000 with the Ethernet header and a VLAN tag */
#define MAX_JUMBO  9018
#define IMIX_CYCLE 12
#define IMIX_MAX   1514
/* what an interface forwards beyond its MTU: the Ethernet header and one VLAN tag (the
 * kernel's is_skb_forwardable(), which veth applies to every frame it passes to its peer) */
#define MTU_EXTRA 18

static const uint32_t imix_sizes[IMIX_CYCLE] = {60,  60, 60, 590, 60,  60,
						590, 60, 60, 590, 590, 1514};
/*
 * --imix-jumbo: the same cycle with one of its 60-byte frames a 9018-byte one (6:4:1:1 of
 * 60/590/1514/9018: 1 frame in 12, 68% of the bytes), for 9000-MTU networks (docs/jumbo.md).
 */
static const uint32_t imix_jumbo_sizes[IMIX_CYCLE] = {60,  60, 60, 590, 60,  9018,
						      590, 60, 60, 590, 590, 1514};

/* Counters (the runner's per-worker arrays: shown each second, in --json, `xskfctl stats`). */
enum { C_BUILT, C_BUILT_BYTES };
static const char *const txgen_counters[] = { "built", "built_bytes", NULL };

struct txgen_worker {
	uint64_t limit; /* frames this worker sends, 0 = no limit */
	double tokens;	/* token bucket, when rate-limited */
	double rate;	/* frames per ns for this worker, 0 = unlimited */
	uint64_t last_ns;
	uint64_t *ctr;	 /* the runner's counters of this worker (C_*) */
	uint64_t own[2]; /* for a caller without them */
	/*
	 * Built frames: the flow of the next frame, its place in the IMIX cycle, and the round
	 * (how often the flows came round, the flow's IPv4 ID). The cycle starts one place later
	 * each round, so that the 12-frame cycle and N flows never line up: every flow sees every
	 * size, in the 7:4:1 mix, over 12 rounds. Counters, not divisions, in the per-frame path.
	 */
	uint32_t flow, imix, imix_base;
	uint16_t round;
	/* pcap: this worker's share of the file (file order) and the next frame of it */
	const uint32_t *idx;
	uint32_t nr_idx, pos;
	bool done;
	/*
	 * --tx-stamp (and --latency): the user-space CLOCK_TAI reading before each frame was
	 * built (by frame number, STAMP_RING of them), the TX timestamps come back
	 * (xskf_worker_info.tx_stamps) and what was checked of them; --launch-time: the next
	 * frame's launch time
	 */
	struct xskf_tx_stamps *stamps;
	uint64_t *t_built;
	uint32_t *lat_kernel, *lat_user; /* ns: stamp - built, seen - built */
	uint64_t nr_lat, last_stamp;
	uint64_t back_seq, back_ts; /* the last TX timestamp back, and its frame's number */
	uint64_t st_got, st_zero, st_order, st_outside;
	uint64_t next_launch, launch_step;
} __attribute__((aligned(64)));

#define STAMP_RING (1u << 16) /* more than the frames a worker can have in flight */
#define LAT_MAX	   (1u << 20) /* latencies kept per worker for the percentiles */

struct txgen {
	/* options */
	uint32_t size;
	const char *size_arg; /* checked against the frame room in txgen_check() */
	bool imix, loop;
	const uint32_t *imix_tbl; /* imix_sizes or imix_jumbo_sizes */
	uint32_t imix_max;
	uint32_t flows;
	uint64_t rate, count;
	uint8_t src_mac[ETH_ALEN], dst_mac[ETH_ALEN];
	bool have_src_mac;
	struct in_addr src_ip, dst_ip;
	uint16_t sport, dport;
	const char *pcap;
	bool tx_csum, tx_stamp, latency, launch;
	/* state */
	bool launch_offloaded;
	struct xskf_engine *eng;
	unsigned int nr_workers, nr_ports;
	uint8_t tmpl[MAX_JUMBO]; /* the largest UDP frame; smaller ones are its prefix */
	uint32_t room;           /* bytes a buffer holds; --size beyond: multi-buffer frames */
	uint32_t frame_size;
	struct txgen_frames fr;	 /* pcap frames */
	struct txgen_share shares[XSKF_MAX_WORKERS]; /* the frames of each worker's flows */
	uint64_t tx_dropped0[XSKF_MAX_PORTS];	     /* each port's tx_dropped at configure */
	uint64_t t_start;
	atomic_uint workers_done;
	struct txgen_worker workers[XSKF_MAX_WORKERS];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * --tx-csum on a frame of the pcap file: the TCP or UDP checksum behind IPv4 (not a later
 * fragment) or IPv6 (no extension header), behind up to two VLAN tags; other frames go as
 * they are.
 */
static void ask_csum(struct xskf_pkt *p)
{
	const uint8_t *d = p->data;
	uint32_t l3 = 14, l4, i;
	uint16_t type;

	if (p->len < 14)
		return;
	type = (uint16_t)(d[12] << 8 | d[13]);
	for (i = 0; i < 2 && (type == 0x8100 || type == 0x88a8) && p->len >= l3 + 4; i++) {
		type = (uint16_t)(d[l3 + 2] << 8 | d[l3 + 3]);
		l3 += 4;
	}
	if (type == 0x0800 && p->len >= l3 + 20) {
		if ((d[l3 + 9] != 6 && d[l3 + 9] != 17) || (d[l3 + 6] & 0x1f) || d[l3 + 7])
			return;
		l4 = l3 + (d[l3] & 15) * 4u;
	} else if (type == 0x86dd && p->len >= l3 + 40) {
		if (d[l3 + 6] != 6 && d[l3 + 6] != 17)
			return;
		l4 = l3 + 40;
	} else {
		return;
	}
	xskf_pkt__tx_l4_csum(p, (uint16_t)l3, (uint16_t)l4);
}

/*
 * --latency: the TX timestamps that came back since the last look, each checked against the
 * user-space CLOCK_TAI readings around its frame: the one before it was built, and now.
 */
static void take_stamps(struct txgen_worker *w)
{
	struct xskf_tx_stamps *st = w->stamps;
	uint64_t seen = tai_ns();
	uint32_t i;

	for (i = 0; i < st->n; i++) {
		uint64_t ts = st->s[i].tai_ns, built = w->t_built[st->s[i].cookie & (STAMP_RING - 1)];

		w->st_got++;
		if (!ts) {
			w->st_zero++;
			continue;
		}
		w->st_order += ts < w->last_stamp;
		w->last_stamp = ts;
		/* the next probes carry it, for a receiver's one-way time (apps/latency.c) */
		w->back_seq = st->s[i].cookie;
		w->back_ts = ts;
		if (ts < built || ts > seen) {
			w->st_outside++;
			continue;
		}
		if (w->nr_lat < LAT_MAX) {
			w->lat_kernel[w->nr_lat] = (uint32_t)(ts - built);
			w->lat_user[w->nr_lat] = (uint32_t)(seen - built > UINT32_MAX ? UINT32_MAX
										: seen - built);
			w->nr_lat++;
		}
	}
	st->n = 0;
}

/*
 * Headers of a frame of @len bytes: the template holds the largest frame's headers, and IP
 * total length, the IPv4 ID, the IP checksum and the UDP length are per frame. UDP checksum
 * 0 = none (IPv4).
 */
static void put_headers(const struct txgen *t, uint8_t *f, uint32_t len, uint16_t sport,
			uint16_t id)
{
	uint16_t ip_len = (uint16_t)(len - 14), udp_len = (uint16_t)(len - 34), c;

	memcpy(f, t->tmpl, HDR_LEN);
	f[16] = (uint8_t)(ip_len >> 8);
	f[17] = (uint8_t)ip_len;
	f[18] = (uint8_t)(id >> 8);
	f[19] = (uint8_t)id;
	c = (uint16_t)~xskf_csum__fold(xskf_csum__add(0, f + 14, 20));
	memcpy(f + 24, &c, 2);
	f[34] = (uint8_t)(sport >> 8);
	f[35] = (uint8_t)sport;
	f[38] = (uint8_t)(udp_len >> 8);
	f[39] = (uint8_t)udp_len;
}

static void build_template(struct txgen *t)
{
	uint8_t *f = t->tmpl;
	uint32_t i;

	memset(f, 0, sizeof(t->tmpl));
	memcpy(f, t->dst_mac, ETH_ALEN);
	memcpy(f + 6, t->src_mac, ETH_ALEN);
	f[12] = 0x08; /* IPv4 */
	f[14] = 0x45;
	f[22] = 64; /* TTL */
	f[23] = 17; /* UDP */
	memcpy(f + 26, &t->src_ip, 4);
	memcpy(f + 30, &t->dst_ip, 4);
	f[36] = (uint8_t)(t->dport >> 8);
	f[37] = (uint8_t)t->dport;
	for (i = HDR_LEN; i < sizeof(t->tmpl); i++)
		f[i] = (uint8_t)i; /* a recognisable payload */
	/* the checksum field must be zero while it is computed: put_headers() starts from here */
}

/*
 * What a UMEM frame holds after the headroom the engine puts in front of every frame
 * (XDP_PACKET_HEADROOM 256, and 32 bytes of hints unless --no-hints: framework/engine.c).
 */
static uint32_t frame_room(uint32_t frame_size, bool no_hints)
{
	return frame_size - 256 - (no_hints ? 0 : 32);
}

/* @ifname's interface counter @name (statistics/ in sysfs), or -errno. */
static int if_counter(const char *ifname, const char *name, uint64_t *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", ifname, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fscanf(f, "%" SCNu64, v) == 1;
	fclose(f);
	return ok ? 0 : -EIO;
}

#ifdef XSKF_HAVE_PCAP
static int load_pcap(struct txgen *t, uint32_t room)
{
	char err[512];
	int ret;

	ret = txgen_pcap__load(t->pcap, room, &t->fr, err, sizeof(err));
	if (t->fr.skipped)
		fprintf(stderr,
			"txgen: %s: %u frame%s skipped (truncated, shorter than 14 or longer "
			"than %u bytes)\n",
			t->pcap, t->fr.skipped, t->fr.skipped == 1 ? "" : "s", room);
	if (ret)
		fprintf(stderr, "txgen: %s\n", err);
	return ret;
}
#endif

/*
 * Frames longer than a port's MTU allows are dropped by the interface (a veth drops them and
 * counts them in tx_dropped; a NIC driver may do the same): say so, with the numbers.
 */
static void warn_mtu(const struct txgen *t, const char *name, uint32_t mtu)
{
	uint32_t limit = mtu + MTU_EXTRA, max = t->imix ? t->imix_max : t->size, i, n, longest;

	if (!t->pcap) {
		if (max > limit)
			fprintf(stderr,
				"txgen: warning: %u-byte frames are longer than the MTU of %s "
				"(%u) allows (%u bytes with the Ethernet header and a VLAN tag): "
				"the interface will drop them (tx_dropped)\n",
				max, name, mtu, limit);
		return;
	}
	for (i = 0, n = 0, longest = 0; i < t->fr.nr; i++)
		if (t->fr.len[i] > limit) {
			n++;
			longest = t->fr.len[i] > longest ? t->fr.len[i] : longest;
		}
	if (n)
		fprintf(stderr,
			"txgen: warning: %u of the %u frames of %s are longer than the MTU of "
			"%s (%u) allows (%u bytes with the Ethernet header and a VLAN tag; the "
			"longest has %u): the interface will drop them (tx_dropped)\n",
			n, t->fr.nr, t->pcap, name, mtu, limit, longest);
}

/*
 * Before any set-up: warn of frames the MTU does not let through, once per port, and
 * remember each port's tx_dropped to report the run's drops.
 */
static int txgen_configure(void *app_ctx, struct xskf_engine *eng)
{
	struct txgen *t = app_ctx;
	unsigned int p, nr = xskf_engine__nr_ports(eng);

	for (p = 0; p < nr && p < XSKF_MAX_PORTS; p++) {
		const char *name = xskf_engine__port_name(eng, p);
		struct xskf_port_info pi = { .sz = sizeof(pi) };

		if (if_counter(name, "tx_dropped", &t->tx_dropped0[p]))
			t->tx_dropped0[p] = UINT64_MAX; /* unknown: not reported */
		/* a memory port (ifindex 0) has no interface to drop anything; an error: init says it */
		if (!xskf_engine__port_info(eng, p, &pi) && pi.ifindex > 0)
			warn_mtu(t, name, pi.mtu);
	}
	return 0;
}

/* Split count and rate evenly over the workers; the first workers take the remainder. */
static void share_built(struct txgen *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_workers; i++) {
		struct txgen_worker *w = &t->workers[i];

		w->limit = t->count / t->nr_workers + (i < t->count % t->nr_workers);
		if (t->count && !w->limit)
			w->done = true;
		w->rate = (double)t->rate / t->nr_workers / 1e9;
	}
}

/*
 * Each worker replays its own flows of the file (txgen_flow.h), in file order. The run sends
 * the first count frames of the file repeated end to end (one pass without --count and
 * --loop), as one worker would; worker w sends those of them that are its own, which is
 * (count / nr) times its share plus its frames among the first (count % nr). The rate is
 * shared in proportion, so that the workers finish together.
 */
static int share_pcap(struct txgen *t)
{
	uint64_t full, total;
	uint32_t rest, j;
	unsigned int i;
	int err;

	err = txgen_frames__split(&t->fr, t->nr_workers, t->shares);
	if (err) {
		fprintf(stderr, "txgen: %s: out of memory\n", t->pcap);
		return err;
	}
	full = t->count / t->fr.nr;
	rest = (uint32_t)(t->count % t->fr.nr);
	for (i = 0; i < t->nr_workers; i++) {
		struct txgen_worker *w = &t->workers[i];
		const struct txgen_share *sh = &t->shares[i];

		w->idx = sh->idx;
		w->nr_idx = sh->nr;
		if (!t->count) {
			/* --loop without --count: until stopped; a worker without a flow is done */
			w->done = !sh->nr;
			w->rate = (double)t->rate * sh->nr / t->fr.nr / 1e9;
			continue;
		}
		for (j = 0, total = full * sh->nr; j < sh->nr && sh->idx[j] < rest; j++)
			total++;
		w->limit = total;
		w->done = !total;
		w->rate = (double)t->rate * (double)total / (double)t->count / 1e9;
	}
	return 0;
}

static int txgen_init(void *app_ctx, struct xskf_engine *eng)
{
	struct txgen *t = app_ctx;
	const char *name = xskf_engine__port_name(eng, 0);
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	int err;

	t->eng = eng;
	t->nr_workers = xskf_engine__nr_workers(eng);
	t->nr_ports = xskf_engine__nr_ports(eng);
	err = xskf_engine__port_info(eng, 0, &pi);
	if (err) {
		fprintf(stderr, "txgen: cannot read %s: %s\n", name, strerror(-err));
		return err;
	}
	if (!t->have_src_mac)
		memcpy(t->src_mac, pi.mac, ETH_ALEN);
	if (!t->pcap && t->imix && t->imix_max > t->room && !xskf_engine__frags(eng)) {
		fprintf(stderr,
			"txgen: --imix-jumbo's %u-byte frames need frames of several buffers (a "
			"%u-byte UMEM frame holds %u): %s's MTU of %u needs none, or the kernel has "
			"no multi-buffer AF_XDP; raise the MTU (ip link set dev %s mtu 9000) or use "
			"--imix\n",
			t->imix_max, t->frame_size, t->room, name, pi.mtu, name);
		return -EINVAL;
	}
	if (!t->pcap && !t->imix && t->size > t->room && !xskf_engine__frags(eng)) {
		uint32_t room4k = t->room + 4096 - t->frame_size;
		char more[64] = "";

		if (t->frame_size < 4096 && t->size <= room4k)
			snprintf(more, sizeof(more), ", or add --frame-size 4096 (it holds %u)", room4k);
		fprintf(stderr,
			"txgen: --size %u needs frames of several buffers (a %u-byte UMEM frame "
			"holds %u): %s's MTU of %u needs none, or the kernel has no multi-buffer "
			"AF_XDP; raise the MTU (ip link set dev %s mtu 9000) or use --size %u at "
			"most%s\n",
			t->size, t->frame_size, t->room, name, pi.mtu, name, t->room, more);
		return -EINVAL;
	}
	build_template(t);
	if (t->pcap && !xskf_engine__frags(eng)) {
		uint32_t i, n = 0, longest = 0;

		for (i = 0; i < t->fr.nr; i++)
			if (t->fr.len[i] > t->room) {
				n++;
				longest = t->fr.len[i] > longest ? t->fr.len[i] : longest;
			}
		if (n) {
			fprintf(stderr,
				"txgen: %u of the %u frames of %s are longer than a %u-byte UMEM frame "
				"holds (%u; the longest has %u) and %s's MTU of %u needs no frames of "
				"several buffers, or the kernel has no multi-buffer AF_XDP: raise the "
				"MTU (ip link set dev %s mtu 9000) or drop those frames from the file\n",
				n, t->fr.nr, t->pcap, t->frame_size, t->room, longest, name, pi.mtu,
				name);
			return -EINVAL;
		}
	}
	if (t->pcap) {
		if (!t->count && !t->loop)
			t->count = t->fr.nr; /* one pass over the file */
		err = share_pcap(t);
		if (err)
			return err;
	} else {
		share_built(t);
	}
	if (t->latency) {
		enum xskf_tx_how how[3];

		if (xskf_engine__tx_offload(eng, 0, how) || how[1] == XSKF_TXH_NONE)
			fprintf(stderr, "txgen: --latency: no TX timestamps on this port (see the TX "
					"metadata line above): the probes go without them\n");
	}
	if (t->launch) {
		enum xskf_tx_how how[3];

		err = xskf_engine__tx_offload(eng, 0, how);
		t->launch_offloaded = !err && how[2] == XSKF_TXH_DEVICE;
		fprintf(stderr, "txgen: --launch-time: %s\n",
			t->launch_offloaded ? "the device sends each frame at its launch time"
					    : "no launch-time offload on this port (see the TX "
					      "metadata line above): software pacing");
	}
	t->t_start = now_ns();
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles (50, 99, 99.9) in us of the workers' latencies @which (0 kernel, 1 user). */
static int percentiles(const struct txgen *t, int which, double pct[3])
{
	static const double at[3] = { 0.5, 0.99, 0.999 };
	uint64_t n = 0, k = 0;
	uint32_t *all;
	unsigned int i, j;

	for (i = 0; i < t->nr_workers; i++)
		n += t->workers[i].nr_lat;
	if (!n)
		return -ENOENT;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < t->nr_workers; i++) {
		const struct txgen_worker *w = &t->workers[i];

		memcpy(all + k, which ? w->lat_user : w->lat_kernel, w->nr_lat * sizeof(*all));
		k += w->nr_lat;
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	for (j = 0; j < 3; j++)
		pct[j] = all[(uint64_t)(at[j] * (double)(n - 1))] / 1e3;
	free(all);
	return 0;
}

/* --latency's totals over the workers. */
static void stamp_totals(const struct txgen *t, uint64_t v[4])
{
	unsigned int i;

	v[0] = v[1] = v[2] = v[3] = 0;
	for (i = 0; i < t->nr_workers; i++) {
		v[0] += t->workers[i].st_got;
		v[1] += t->workers[i].st_zero;
		v[2] += t->workers[i].st_order;
		v[3] += t->workers[i].st_outside;
	}
}

static void latency_report(const struct txgen *t)
{
	double k[3], u[3];
	uint64_t v[4];

	stamp_totals(t, v);
	fprintf(stderr,
		"txgen: latency: %llu TX timestamps back, %llu empty, %llu out of order, %llu "
		"outside the user-space clock readings around their frame\n",
		(unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		(unsigned long long)v[3]);
	if (percentiles(t, 0, k) || percentiles(t, 1, u))
		return;
	fprintf(stderr,
		"txgen: latency (us, CLOCK_TAI): built -> TX timestamp p50 %.1f p99 %.1f p999 "
		"%.1f; built -> timestamp seen in user space p50 %.1f p99 %.1f p999 %.1f\n",
		k[0], k[1], k[2], u[0], u[1], u[2]);
}

static int txgen_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct txgen *t = app_ctx;
	struct txgen_worker *w = &t->workers[wi->id];

	/* sizes were checked against the frame room before set-up (txgen_check) */
	w->last_ns = now_ns();
	w->ctr = wi->counters ? wi->counters : w->own;
	if (t->latency) {
		w->stamps = wi->tx_stamps;
		w->t_built = calloc(STAMP_RING, sizeof(*w->t_built));
		w->lat_kernel = calloc(LAT_MAX, sizeof(*w->lat_kernel));
		w->lat_user = calloc(LAT_MAX, sizeof(*w->lat_user));
		/* no array (--no-tx-offload): the probes go, no timestamp comes back */
		if (!w->t_built || !w->lat_kernel || !w->lat_user) {
			fprintf(stderr, "txgen: --latency: out of memory\n");
			return -ENOMEM;
		}
	}
	if (t->launch_offloaded) {
		w->launch_step = (uint64_t)(1.0 / w->rate);
		w->next_launch = tai_ns() + 1000000; /* 1 ms from now: time to build and send */
	}
	/* a worker with no share of --count is done at once; it may even be the last one */
	if (w->done && atomic_fetch_add(&t->workers_done, 1) + 1 == t->nr_workers)
		xskf_engine__request_stop(t->eng);
	*wctx = w;
	return 0;
}

static struct txgen tg;

/* How many frames this round may send: the count left, then the token bucket. */
static unsigned int budget(struct txgen_worker *w, unsigned int max)
{
	uint64_t left, now;

	if (w->limit) {
		left = w->limit - w->ctr[C_BUILT];
		if (left < max)
			max = (unsigned int)left;
	}
	if (w->launch_step) {
		/* --launch-time: the device waits; build no more than 10 ms ahead */
		uint64_t ahead = tai_ns() + 10000000;

		left = w->next_launch < ahead ? (ahead - w->next_launch) / w->launch_step + 1 : 0;
		return left < max ? (unsigned int)left : max;
	}
	if (w->rate > 0) {
		now = now_ns();
		w->tokens += (double)(now - w->last_ns) * w->rate;
		w->last_ns = now;
		/* no credit for idle time beyond one full burst */
		if (w->tokens > XSKF_MAX_BATCH)
			w->tokens = XSKF_MAX_BATCH;
		if (w->tokens < max)
			max = (unsigned int)w->tokens;
		w->tokens -= max;
	}
	return max;
}

/* The next built frame: next flow; when the flows come round, the next round (see above). */
static inline void next_built(struct txgen_worker *w, uint32_t flows)
{
	if (++w->flow == flows) {
		w->flow = 0;
		w->round++;
		if (++w->imix_base == IMIX_CYCLE)
			w->imix_base = 0;
		w->imix = w->imix_base;
	} else if (++w->imix == IMIX_CYCLE) {
		w->imix = 0;
	}
}

#define unlikely_jumbo(x) __builtin_expect(!!(x), 0)

/*
 * A frame of @len bytes longer than one buffer: @src's bytes from @from on over a frame of
 * buffers, the first full, the others appended (the template's from HDR_LEN: put_headers()
 * writes the headers; a pcap record's whole). False when a buffer cannot be had now (no free
 * frame): the frame is not sent.
 */
static bool build_frags(const struct txgen *t, struct xskf_pkt *p, const uint8_t *src,
			uint32_t from, uint32_t len)
{
	uint32_t off = t->room, k;
	uint8_t *b;

	memcpy(p->data + from, src + from, t->room - from);
	p->len = t->room;
	while (off < len) {
		k = len - off < t->room ? len - off : t->room;
		b = xskf_pkt__append(p, k);
		if (!b)
			return false; /* not sent: the framework takes back what was appended */
		memcpy(b, src + off, k);
		off += k;
	}
	return true;
}

static unsigned int txgen_fill(void *wctx, struct xskf_pkt *pkts, unsigned int max)
{
	struct txgen_worker *w = wctx;
	struct txgen *t = &tg;
	unsigned int n, i;
	uint64_t bytes = 0;

	uint64_t t0 = 0;

	if (w->stamps && w->stamps->n)
		take_stamps(w);
	if (w->done)
		return 0;
	n = budget(w, max);
	if (t->latency)
		t0 = tai_ns();
	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		uint32_t len;

		if (t->pcap) {
			uint32_t k = w->idx[w->pos];

			len = t->fr.len[k];
			if (unlikely_jumbo(len > t->room)) {
				if (!build_frags(t, p, t->fr.data[k], 0, len))
					break; /* no free frame now: this record next round */
			} else {
				memcpy(p->data, t->fr.data[k], len);
			}
			if (++w->pos == w->nr_idx)
				w->pos = 0;
		} else {
			len = t->imix ? t->imix_tbl[w->imix] : t->size;
			if (unlikely_jumbo(len > t->room)) {
				if (!build_frags(t, p, t->tmpl, HDR_LEN, len))
					break; /* no free frame now: the rest next round */
			} else {
				memcpy(p->data + HDR_LEN, t->tmpl + HDR_LEN, len - HDR_LEN);
				p->len = len;
			}
			put_headers(t, p->data, len, (uint16_t)(t->sport + w->flow), w->round);
			next_built(w, t->flows);
		}
		if (t->pcap && len <= t->room)
			p->len = len;
		p->out_port = (uint16_t)(t->nr_ports > 1 ? (w->ctr[C_BUILT] + i) % t->nr_ports : 0);
		bytes += len;
		if (t->latency) {
			/* a probe: its number and send time in the UDP payload, its timestamp asked */
			w->t_built[(w->ctr[C_BUILT] + i) & (STAMP_RING - 1)] = t0;
			if (!t->pcap) {
				uint64_t seq = w->ctr[C_BUILT] + i;

				memcpy(p->data + HDR_LEN, &seq, sizeof(seq));
				memcpy(p->data + HDR_LEN + 8, &t0, sizeof(t0));
				/* from 74 bytes on: an earlier probe's TX timestamp */
				if (len >= HDR_LEN + 32) {
					memcpy(p->data + HDR_LEN + 16, &w->back_seq, 8);
					memcpy(p->data + HDR_LEN + 24, &w->back_ts, 8);
				}
			}
			xskf_pkt__tx_tstamp(p, w->ctr[C_BUILT] + i);
		}
		if (t->tx_csum) {
			if (t->pcap)
				ask_csum(p);
			else
				xskf_pkt__tx_l4_csum(p, 14, 34);
		}
		if (w->launch_step) {
			xskf_pkt__tx_launch(p, w->next_launch);
			w->next_launch += w->launch_step;
		}
	}
	n = i;
	w->ctr[C_BUILT] += n; /* frames built so far: the count, and the next frame's number */
	w->ctr[C_BUILT_BYTES] += bytes;
	if (w->limit && w->ctr[C_BUILT] == w->limit) {
		w->done = true;
		/* the last worker to finish stops the run; the engine then drains what is queued */
		if (atomic_fetch_add(&t->workers_done, 1) + 1 == t->nr_workers)
			xskf_engine__request_stop(t->eng);
	}
	return n;
}

/* What the run handed to the kernel, and what the kernel and the interfaces dropped of it. */
struct txgen_totals {
	uint64_t handed, bytes;	    /* completed by the kernel (tx_packets, tx_bytes) */
	uint64_t invalid;	    /* refused by the kernel: XDP_STATISTICS tx_invalid_descs */
	uint64_t dropped;	    /* the interfaces' tx_dropped, since configure */
	char where[128];	    /* "g0 tx_dropped +10" for each port that dropped */
};

static void totals(struct txgen *t, struct xskf_engine *eng, struct txgen_totals *tt)
{
	struct xskf_queue_stats st;
	unsigned int i;
	size_t off = 0;
	uint64_t v;

	memset(tt, 0, sizeof(*tt));
	for (i = 0; xskf_engine__queue_stats(eng, i, NULL, NULL, &st) == 0; i++) {
		tt->handed += st.tx_packets;
		tt->bytes += st.tx_bytes;
		tt->invalid += st.k_tx_invalid_descs;
	}
	for (i = 0; i < xskf_engine__nr_ports(eng) && i < XSKF_MAX_PORTS; i++) {
		const char *name = xskf_engine__port_name(eng, i);

		if (t->tx_dropped0[i] == UINT64_MAX || if_counter(name, "tx_dropped", &v) ||
		    v <= t->tx_dropped0[i])
			continue;
		tt->dropped += v - t->tx_dropped0[i];
		if (off < sizeof(tt->where))
			off += (size_t)snprintf(tt->where + off, sizeof(tt->where) - off,
						"%s%s tx_dropped +%llu", off ? ", " : "", name,
						(unsigned long long)(v - t->tx_dropped0[i]));
	}
}

static void txgen_fini(void *app_ctx, struct xskf_engine *eng)
{
	struct txgen *t = app_ctx;
	double secs = (double)(now_ns() - t->t_start) / 1e9;
	struct txgen_totals tt;
	uint64_t sent;

	totals(t, eng, &tt);
	if (t->latency) {
		unsigned int i;

		/* what came back while the workers drained (they call tx_fill() no more) */
		for (i = 0; i < t->nr_workers; i++)
			if (t->workers[i].stamps && t->workers[i].stamps->n)
				take_stamps(&t->workers[i]);
		latency_report(t);
	}
	/*
	 * A frame the interface drops was still completed by the kernel (tx_packets): it is not
	 * sent. Bytes are those handed over: the counters do not say which frames were dropped.
	 */
	sent = tt.handed > tt.dropped ? tt.handed - tt.dropped : 0;
	if (!tt.dropped && !tt.invalid) {
		/* on the wire each frame also takes FCS (4), preamble (8) and the gap (12) */
		fprintf(stderr,
			"txgen: sent %llu frames, %llu bytes in %.3f s: %.0f pps, %.0f bps "
			"(%.0f bps on the wire)\n",
			(unsigned long long)sent, (unsigned long long)tt.bytes, secs,
			(double)sent / secs, 8.0 * (double)tt.bytes / secs,
			8.0 * (double)(tt.bytes + 24 * sent) / secs);
		return;
	}
	if (tt.invalid)
		snprintf(tt.where + strlen(tt.where), sizeof(tt.where) - strlen(tt.where),
			 "%s%llu refused by the kernel: tx_invalid_descs", tt.dropped ? ", " : "",
			 (unsigned long long)tt.invalid);
	fprintf(stderr,
		"txgen: sent %llu frames in %.3f s (%.0f pps), dropped %llu (%s); handed to "
		"the kernel: %llu frames, %llu bytes\n",
		(unsigned long long)sent, secs, (double)sent / secs,
		(unsigned long long)(tt.dropped + tt.invalid), tt.where,
		(unsigned long long)tt.handed, (unsigned long long)tt.bytes);
}

static void txgen_json(void *app_ctx, struct xskf_engine *eng, void *out)
{
	struct txgen *t = app_ctx;
	struct txgen_totals tt;
	uint64_t built = 0;
	unsigned int i;

	totals(t, eng, &tt);
	for (i = 0; i < t->nr_workers; i++)
		if (t->workers[i].ctr)
			built += __atomic_load_n(&t->workers[i].ctr[C_BUILT], __ATOMIC_RELAXED);
	if (t->latency) {
		uint64_t v[4];
		double k[3] = { 0, 0, 0 }, u[3] = { 0, 0, 0 };

		stamp_totals(t, v);
		percentiles(t, 0, k);
		percentiles(t, 1, u);
		fprintf(out,
			"{\"latency\": {\"stamps\": %llu, \"empty\": %llu, \"out_of_order\": "
			"%llu, \"outside\": %llu, \"stamp_us\": [%.1f, %.1f, %.1f], "
			"\"seen_us\": [%.1f, %.1f, %.1f]}, ",
			(unsigned long long)v[0], (unsigned long long)v[1],
			(unsigned long long)v[2], (unsigned long long)v[3], k[0], k[1], k[2], u[0],
			u[1], u[2]);
	} else {
		fputc('{', out);
	}
	fprintf(out,
		"\"built\": %llu, \"sent\": %llu, \"bytes\": %llu, \"handed\": %llu, "
		"\"if_tx_dropped\": %llu, \"tx_invalid_descs\": %llu, \"mode\": \"%s\"}",
		(unsigned long long)built,
		(unsigned long long)(tt.handed > tt.dropped ? tt.handed - tt.dropped : 0),
		(unsigned long long)tt.bytes, (unsigned long long)tt.handed,
		(unsigned long long)tt.dropped, (unsigned long long)tt.invalid,
		t->pcap	  ? "pcap"
		: t->imix ? "imix"
			  : "fixed");
}

static const struct xskf_cli_opt txgen_opts[] = {
    {"size", 1, "BYTES", "frame size without FCS, 60..frame room, or up to 9018 in several buffers where the MTU allows (default 60)"},
    {"imix", 0, NULL, "7:4:1 of 60/590/1514-byte frames (IP packets of 46/576/1500)"},
    {"flows", 1, "N", "N flows: UDP source port = sport + frame number % N (default 1)"},
    {"rate", 1, "PPS", "send at most PPS frames per second in all (default: no limit)"},
    {"count", 1, "N", "send N frames in all, then stop (default: until stopped)"},
    {"src-mac", 1, "MAC", "source MAC (default: the interface's)"},
    {"dst-mac", 1, "MAC", "destination MAC (default ff:ff:ff:ff:ff:ff)"},
    {"src-ip", 1, "IPv4", "source address (default 198.51.100.1)"},
    {"dst-ip", 1, "IPv4", "destination address (default 198.51.100.2)"},
    {"sport", 1, "PORT", "base UDP source port (default 1024)"},
    {"dport", 1, "PORT", "UDP destination port (default 9)"},
    {"pcap", 1, "FILE", "replay the Ethernet frames of FILE (default: once; see --loop)"},
    {"loop", 0, NULL, "with --pcap: replay the file until stopped or --count"},
    {"tx-csum", 0, NULL, "TCP/UDP checksums by TX offload (by xskf in software where none)"},
    {"latency", 0, NULL, "probes with TX timestamps: p50/p99/p999 beside the user-space clock"},
    {"launch-time", 0, NULL, "with --rate: pace by launch time where the port offloads it"},
    {"imix-jumbo", 0, NULL, "--imix with a jumbo share: 6:4:1:1 of 60/590/1514/9018-byte frames"},
    {NULL, 0, NULL, NULL},
};

/*
 * Decimal, as every option number and rule is: "010" is 10 (base 0 read it as octal 8), and
 * hexadecimal is refused. A leading digit keeps strtoull() from skipping spaces or taking a
 * sign.
 */
static bool dec_num(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static int parse_num(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long n;

	if (!dec_num(s, &n) || n < min || n > max) {
		fprintf(stderr, "txgen: invalid --%s '%s': use a number from %llu to %llu\n", name, s,
			(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*v = n;
	return 0;
}

static int txgen_parse(void *ctx, int idx, const char *arg)
{
	struct txgen *t = ctx;
	const char *name = txgen_opts[idx].name;
	uint64_t v = 0;
	int err = 0;

	switch (idx) {
	case 0:
		/* its bound is the frame room, known once every option is read: txgen_check() */
		t->size_arg = arg;
		break;
	case 1:
		t->imix = true;
		break;
	case 2:
		err = parse_num(name, arg, 1, 65536, &v);
		t->flows = (uint32_t)v;
		break;
	case 3:
		err = parse_num(name, arg, 1, 1000000000ull, &t->rate);
		break;
	case 4:
		err = parse_num(name, arg, 1, UINT64_MAX, &t->count);
		break;
	case 5:
	case 6:
		if (xskf_mac__parse(arg, idx == 5 ? t->src_mac : t->dst_mac)) {
			fprintf(stderr, "txgen: invalid --%s '%s': use e.g. 02:00:00:00:00:01\n", name,
				arg);
			return -EINVAL;
		}
		t->have_src_mac |= idx == 5;
		break;
	case 7:
	case 8:
		if (inet_pton(AF_INET, arg, idx == 7 ? &t->src_ip : &t->dst_ip) != 1) {
			fprintf(stderr, "txgen: invalid --%s '%s': use an IPv4 address\n", name, arg);
			return -EINVAL;
		}
		break;
	case 9:
	case 10:
		err = parse_num(name, arg, 0, 65535, &v);
		*(idx == 9 ? &t->sport : &t->dport) = (uint16_t)v;
		break;
	case 11:
		t->pcap = arg;
		break;
	case 12:
		t->loop = true;
		break;
	case 13:
		t->tx_csum = true;
		break;
	case 14:
		t->latency = true;
		break;
	case 15:
		t->launch = true;
		break;
	case 16:
		t->imix = true;
		t->imix_tbl = imix_jumbo_sizes;
		t->imix_max = MAX_JUMBO;
		break;
	default:
		return -EINVAL;
	}
	return err;
}

/*
 * --size against what a UMEM frame holds, with advice that is true for the numbers: a
 * larger --frame-size where it holds the size, else no advice but the limit.
 */
static int check_size(struct txgen *t, uint32_t frame_size, bool no_hints)
{
	uint32_t room = frame_room(frame_size, no_hints), room4k = frame_room(4096, no_hints);
	unsigned long long v = 0;
	bool number = dec_num(t->size_arg, &v);

	t->room = room;
	t->frame_size = frame_size;
	if (number && v >= 60 && v <= room) {
		t->size = (uint32_t)v;
		return 0;
	}
	/* longer: several buffers, if the engine binds for them (txgen_init() checks) */
	if (number && v > room && v <= MAX_JUMBO) {
		t->size = (uint32_t)v;
		return 0;
	}
	if (!number || v < 60 || v > room4k || room4k == room)
		fprintf(stderr,
			"invalid --size '%s': use a number from 60 to %u (what a %u-byte UMEM "
			"frame holds after its %u-byte headroom)%s\n",
			t->size_arg, room, frame_size, frame_size - room,
			number && v > room ? "; or up to 9018 (a jumbo frame, several buffers)" : "");
	else
		fprintf(stderr,
			"invalid --size '%s': use a number from 60 to %u (what a %u-byte UMEM "
			"frame holds after its %u-byte headroom), or add --frame-size 4096 (it "
			"holds %u)\n",
			t->size_arg, room, frame_size, frame_size - room, room4k);
	return -EINVAL;
}

static int txgen_check(void *ctx, struct xskf_engine_opts *eo)
{
	struct txgen *t = ctx;
	uint32_t fs = eo->frame_size ? eo->frame_size : 2048;
	int err;

	if (t->imix && !t->imix_tbl) { /* --imix alone: the classic cycle */
		t->imix_tbl = imix_sizes;
		t->imix_max = IMIX_MAX;
	}
	if (t->pcap && (t->imix || t->size_arg || t->flows != 1)) {
		fprintf(stderr,
			"--pcap replays the file as it is: drop --size, --imix and --flows\n");
		return -EINVAL;
	}
	if (t->loop && !t->pcap) {
		fprintf(stderr, "txgen: --loop needs --pcap\n");
		return -EINVAL;
	}
	t->room = frame_room(fs, eo->no_hints);
	t->frame_size = fs;
	if (t->launch && !t->rate) {
		fprintf(stderr, "txgen: --launch-time paces --rate: add --rate PPS\n");
		return -EINVAL;
	}
	/* TX metadata room only when asked: the UMEM is then registered by xskf (xskf_tx.h) */
	eo->tx_meta = t->tx_csum || t->latency || t->launch;
	if (t->size_arg) {
		err = check_size(t, fs, eo->no_hints);
		if (err)
			return err;
	}
	if (t->pcap) {
#ifdef XSKF_HAVE_PCAP
		/* records beyond one buffer go as multi-buffer frames where the MTU has them
		 * (txgen_init) */
		return load_pcap(t, MAX_JUMBO);
#else
		fprintf(stderr, "txgen: --pcap: this xsk-txgen was built without libpcap\n");
		return -EOPNOTSUPP;
#endif
	}
	return 0;
}

static const struct xskf_app txgen_app = {
	.name = "xsk-txgen",
	/* frags: --size beyond one buffer is sent as several (xskf_pkt__append()) */
	.flags = XSKF_APP_F_TX_ONLY | XSKF_APP_F_FRAGS,
	.configure = txgen_configure,
	.init = txgen_init,
	.worker_init = txgen_worker_init,
	.tx_fill = txgen_fill,
	.fini = txgen_fini,
	.json = txgen_json,
};
static const struct xskf_app_cli txgen_cli = {
	.sz = sizeof(txgen_cli),
	.summary = "Send UDP frames (or replay a pcap file) with AF_XDP TX; print pps and bps.",
	.opts = txgen_opts,
	.parse = txgen_parse,
	.check = txgen_check,
};

/* The defaults, before any option is parsed: when the plugin is loaded (or the program starts). */
__attribute__((constructor)) static void txgen_defaults(void)
{
	tg.size = 60;
	tg.flows = 1;
	tg.sport = 1024;
	tg.dport = 9;
	memset(tg.dst_mac, 0xff, ETH_ALEN);
	inet_pton(AF_INET, "198.51.100.1", &tg.src_ip);
	inet_pton(AF_INET, "198.51.100.2", &tg.dst_ip);
}

static void txgen_cleanup(void *app_ctx)
{
	struct txgen *t = app_ctx;

	unsigned int i;

	txgen_shares__free(t->shares, XSKF_MAX_WORKERS);
	for (i = 0; i < XSKF_MAX_WORKERS; i++) {
		free(t->workers[i].t_built);
		free(t->workers[i].lat_kernel);
		free(t->workers[i].lat_user);
	}
#ifdef XSKF_HAVE_PCAP
	txgen_frames__free(&t->fr);
#endif
}

XSKF_PLUGIN(.name = "txgen", .app = &txgen_app, .app_ctx = &tg, .cli = &txgen_cli,
	    .counters = txgen_counters,
	    .cleanup = txgen_cleanup);

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
 * sizes here never include the 4-byte FCS). --rate and --count are for the whole run and are
 * split evenly between workers (each runs its own token bucket). The framework still opens RX
 * rings and attaches its XDP program on the interface (see docs/forwarding.md): frames that
 * arrive on the generator's queues are dropped and counted as the kernel's rx_dropped.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <xskf_plugin.h>

#include "txgen_pcap.h" /* struct txgen_frames; the reader is built with libpcap only */

#define ETH_ALEN   6
#define HDR_LEN	   42 /* Ethernet + IPv4 + UDP */
#define MAX_FRAME  4096
#define IMIX_CYCLE 12

static const uint32_t imix_sizes[IMIX_CYCLE] = {60,  60, 60, 590, 60,  60,
						590, 60, 60, 590, 590, 1514};

struct txgen_worker {
	uint64_t seq;	/* frames built so far */
	uint64_t limit; /* frames this worker sends, 0 = no limit */
	double tokens;	/* token bucket, when rate-limited */
	double rate;	/* frames per ns for this worker, 0 = unlimited */
	uint64_t last_ns;
	uint64_t bytes;
	bool done;
} __attribute__((aligned(64)));

struct txgen {
	/* options */
	uint32_t size;
	bool imix, loop;
	uint32_t flows;
	uint64_t rate, count;
	uint8_t src_mac[ETH_ALEN], dst_mac[ETH_ALEN];
	bool have_src_mac;
	struct in_addr src_ip, dst_ip;
	uint16_t sport, dport;
	const char *pcap;
	/* state */
	struct xskf_engine *eng;
	unsigned int nr_workers, nr_ports;
	uint8_t tmpl[MAX_FRAME]; /* the largest UDP frame; smaller ones are its prefix */
	struct txgen_frames fr;	 /* pcap frames */
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

static uint16_t ip_csum(const uint8_t *p, unsigned int len)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * Headers of a frame of @len bytes: the template holds the largest frame's headers, and IP
 * total length, its checksum and the UDP length are per size. UDP checksum 0 = none (IPv4).
 */
static void put_headers(const struct txgen *t, uint8_t *f, uint32_t len, uint16_t sport)
{
	uint16_t ip_len = (uint16_t)(len - 14), udp_len = (uint16_t)(len - 34), c;

	memcpy(f, t->tmpl, HDR_LEN);
	f[16] = (uint8_t)(ip_len >> 8);
	f[17] = (uint8_t)ip_len;
	c = ip_csum(f + 14, 20);
	f[24] = (uint8_t)(c >> 8);
	f[25] = (uint8_t)c;
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

#ifdef XSKF_HAVE_PCAP
static int load_pcap(struct txgen *t, uint32_t room)
{
	char err[512];
	int ret;

	ret = txgen_pcap__load(t->pcap, room, &t->fr, err, sizeof(err));
	if (t->fr.skipped)
		fprintf(stderr,
			"xsk-txgen: %s: %u frame%s skipped (truncated, shorter than 14 or longer "
			"than %u bytes)\n",
			t->pcap, t->fr.skipped, t->fr.skipped == 1 ? "" : "s", room);
	if (ret)
		fprintf(stderr, "xsk-txgen: %s\n", err);
	return ret;
}
#endif

static int txgen_init(void *app_ctx, struct xskf_engine *eng)
{
	struct txgen *t = app_ctx;
	const char *name = xskf_engine__port_name(eng, 0);
	uint32_t max = t->imix ? 1514 : t->size;
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	unsigned int i;
	int err;

	t->eng = eng;
	t->nr_workers = xskf_engine__nr_workers(eng);
	t->nr_ports = xskf_engine__nr_ports(eng);
	err = xskf_engine__port_info(eng, 0, &pi);
	if (err) {
		fprintf(stderr, "xsk-txgen: cannot read %s: %s\n", name, strerror(-err));
		return err;
	}
	if (!t->have_src_mac)
		memcpy(t->src_mac, pi.mac, ETH_ALEN);
	if (!t->pcap && max > pi.mtu + 14)
		fprintf(stderr,
			"xsk-txgen: warning: %u-byte frames exceed the MTU of %s (%u): the "
			"interface will drop them\n",
			max, name, pi.mtu);
	build_template(t);
	if (t->pcap && !t->count && !t->loop)
		t->count = t->fr.nr; /* one pass over the file */
	for (i = 0; i < t->nr_workers; i++) {
		struct txgen_worker *w = &t->workers[i];

		/* split count and rate evenly; the first workers take the remainder */
		w->limit = t->count / t->nr_workers + (i < t->count % t->nr_workers);
		if (t->count && !w->limit)
			w->done = true;
		w->rate = (double)t->rate / t->nr_workers / 1e9;
	}
	t->t_start = now_ns();
	return 0;
}

static int txgen_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct txgen *t = app_ctx;
	uint32_t room = wi->frame_size - wi->headroom, max = t->imix ? 1514 : t->size;
	struct txgen_worker *w = &t->workers[wi->id];

	if (!t->pcap && max > room) {
		fprintf(stderr,
			"xsk-txgen: %u-byte frames do not fit in a UMEM frame (%u bytes free): "
			"use --frame-size 4096 or a smaller --size\n",
			max, room);
		return -EINVAL;
	}
	w->last_ns = now_ns();
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
		left = w->limit - w->seq;
		if (left < max)
			max = (unsigned int)left;
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

static unsigned int txgen_fill(void *wctx, struct xskf_pkt *pkts, unsigned int max)
{
	struct txgen_worker *w = wctx;
	struct txgen *t = &tg;
	unsigned int n, i;
	uint64_t bytes = 0;

	if (w->done)
		return 0;
	n = budget(w, max);
	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		uint64_t seq = w->seq + i;
		uint32_t len;

		if (t->pcap) {
			uint32_t k = (uint32_t)(seq % t->fr.nr);

			len = t->fr.len[k];
			memcpy(p->data, t->fr.data[k], len);
		} else {
			len = t->imix ? imix_sizes[seq % IMIX_CYCLE] : t->size;
			memcpy(p->data + HDR_LEN, t->tmpl + HDR_LEN, len - HDR_LEN);
			put_headers(t, p->data, len, (uint16_t)(t->sport + seq % t->flows));
		}
		p->len = len;
		p->out_port = (uint16_t)(t->nr_ports > 1 ? seq % t->nr_ports : 0);
		bytes += len;
	}
	w->seq += n;
	w->bytes += bytes;
	if (w->limit && w->seq == w->limit) {
		w->done = true;
		/* the last worker to finish stops the run; the engine then drains what is queued */
		if (atomic_fetch_add(&t->workers_done, 1) + 1 == t->nr_workers)
			xskf_engine__request_stop(t->eng);
	}
	return n;
}

static void totals(struct xskf_engine *eng, uint64_t *pkts, uint64_t *bytes)
{
	struct xskf_queue_stats st;
	unsigned int i;

	*pkts = *bytes = 0;
	for (i = 0; xskf_engine__queue_stats(eng, i, NULL, NULL, &st) == 0; i++) {
		*pkts += st.tx_packets;
		*bytes += st.tx_bytes;
	}
}

static void txgen_fini(void *app_ctx, struct xskf_engine *eng)
{
	struct txgen *t = app_ctx;
	double secs = (double)(now_ns() - t->t_start) / 1e9;
	uint64_t pkts, bytes;

	totals(eng, &pkts, &bytes);
	/* on the wire each frame also takes FCS (4), preamble (8) and the inter-frame gap (12) */
	fprintf(stderr,
		"xsk-txgen: sent %llu frames, %llu bytes in %.3f s: %.0f pps, %.0f bps "
		"(%.0f bps on the wire)\n",
		(unsigned long long)pkts, (unsigned long long)bytes, secs, (double)pkts / secs,
		8.0 * (double)bytes / secs, 8.0 * (double)(bytes + 24 * pkts) / secs);
}

static void txgen_json(void *app_ctx, struct xskf_engine *eng, void *out)
{
	struct txgen *t = app_ctx;
	uint64_t pkts, bytes, built = 0;
	unsigned int i;

	totals(eng, &pkts, &bytes);
	for (i = 0; i < t->nr_workers; i++)
		built += t->workers[i].seq;
	fprintf(out, "{\"built\": %llu, \"sent\": %llu, \"bytes\": %llu, \"mode\": \"%s\"}",
		(unsigned long long)built, (unsigned long long)pkts, (unsigned long long)bytes,
		t->pcap	  ? "pcap"
		: t->imix ? "imix"
			  : "fixed");
}

static const struct xskf_cli_opt txgen_opts[] = {
    {"size", 1, "BYTES", "frame size without FCS, 60..frame room (default 60)"},
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
    {NULL, 0, NULL, NULL},
};

static int parse_num(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || *v < min || *v > max) {
		fprintf(stderr, "invalid --%s '%s': use a number from %llu to %llu\n", name, s,
			(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

static int txgen_parse(void *ctx, int idx, const char *arg)
{
	struct txgen *t = ctx;
	const char *name = txgen_opts[idx].name;
	uint64_t v;
	int err = 0;

	switch (idx) {
	case 0:
		err = parse_num(name, arg, 60, MAX_FRAME, &v);
		t->size = (uint32_t)v;
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
			fprintf(stderr, "invalid --%s '%s': use e.g. 02:00:00:00:00:01\n", name,
				arg);
			return -EINVAL;
		}
		t->have_src_mac |= idx == 5;
		break;
	case 7:
	case 8:
		if (inet_pton(AF_INET, arg, idx == 7 ? &t->src_ip : &t->dst_ip) != 1) {
			fprintf(stderr, "invalid --%s '%s': use an IPv4 address\n", name, arg);
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
	default:
		return -EINVAL;
	}
	return err;
}

static int txgen_check(void *ctx, struct xskf_engine_opts *eo)
{
	struct txgen *t = ctx;

	if (t->pcap && (t->imix || t->size != 60 || t->flows != 1)) {
		fprintf(stderr,
			"--pcap replays the file as it is: drop --size, --imix and --flows\n");
		return -EINVAL;
	}
	if (t->loop && !t->pcap) {
		fprintf(stderr, "--loop needs --pcap\n");
		return -EINVAL;
	}
	if (t->pcap) {
#ifdef XSKF_HAVE_PCAP
		uint32_t fs = eo->frame_size ? eo->frame_size : 2048;

		/* the frame room is only known per worker; the largest headroom is 256 + 32 */
		return load_pcap(t, fs - 288);
#else
		(void)eo;
		fprintf(stderr, "--pcap: this xsk-txgen was built without libpcap\n");
		return -EOPNOTSUPP;
#endif
	}
	return 0;
}

static const struct xskf_app txgen_app = {
	.name = "xsk-txgen",
	.flags = XSKF_APP_F_TX_ONLY,
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
#ifdef XSKF_HAVE_PCAP
	struct txgen *t = app_ctx;

	txgen_frames__free(&t->fr);
#else
	(void)app_ctx;
#endif
}

XSKF_PLUGIN(.name = "txgen", .app = &txgen_app, .app_ctx = &tg, .cli = &txgen_cli,
	    .cleanup = txgen_cleanup);

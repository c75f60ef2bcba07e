// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf-trafficgen - line-rate test traffic from an XDP program, for the xskf test bed.
 *
 * It builds one template frame, loads xskf_trafficgen.bpf.c and runs it with BPF_PROG_RUN in
 * "live frames" mode (BPF_F_TEST_XDP_LIVE_FRAMES): the kernel copies the template into pages of
 * a page pool, runs the program on each, and turns XDP_TX into a redirect out of the interface
 * given in ctx.ingress_ifindex. On veth that puts frames straight into the peer's RX ring
 * (queue = sending CPU % number of queues), which is why --cpu picks the queue.
 *
 * How many frames reached the peer is read from veth's per-queue XDP transmit counters before
 * and after, not assumed: a test can assert that its receiver saw exactly `sent` frames.
 *
 * Kernels that refuse live-frame runs (EPERM on some 6.18 builds, EINVAL on 5.10 which has no
 * live frames) get the second method, an AF_XDP copy-mode TX socket (trafficgen_xsk.c). The
 * first real BPF_PROG_RUN call is the probe; --method or XSKF_FEATURES_OFF=live_frames force
 * the choice. See docs/trafficgen.md.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "trafficgen.h"
#include "xskf.h" /* xskf_version__get(): core/version.c is built in */
#include "xskf_trafficgen.skel.h"

#define PROG "xskf-trafficgen"

#ifndef BPF_F_TEST_XDP_LIVE_FRAMES
#define BPF_F_TEST_XDP_LIVE_FRAMES (1U << 1)
#endif
#define TG_MAX_BATCH 256 /* kernel limit of bpf_test_run_opts.batch_size (live frames) */
#define TG_MIN_CHUNK 1024
#define TG_FIRST_CHUNK 16384 /* ~1 ms on a fast machine; the fixed cost alone on a slow one */
#define TG_MAX_CHUNK (1u << 26)
/* frames per tg_xsk__send() call: ~2-4 ms, so --duration and Ctrl-C are followed closely */
#define TG_XSK_CHUNK 4096
#define TG_XSK_DRAIN_S 1.0 /* a completion must come within this, or the rest is lost */

enum tg_method { TG_AUTO, TG_LIVE, TG_XSK };

struct tg_opts {
	const char *ifname;
	uint64_t count;		/* 0: not given */
	double duration;	/* seconds, 0: not given */
	struct tg_pkt_cfg pkt;
	const char *src_mac, *dst_mac, *src_ip, *dst_ip;
	uint32_t flows;
	int cpu;		/* -1: not pinned */
	uint64_t rate;		/* frames per second, 0: as fast as possible */
	uint32_t batch;		/* frames per flush inside the kernel, 0: kernel default (64) */
	uint64_t chunk;		/* frames per BPF_PROG_RUN call, 0: sized from call times */
	bool json;
	bool verbose;
	bool resend;		/* --resend: refused frames are made again until count were sent */
	enum tg_method method;	/* --method; TG_AUTO: live frames, AF_XDP if refused */
	const char *why_xsk;	/* set when AF_XDP is forced: by what */
};

/* Frames handed out by the program and what the counters say happened to them. */
struct tg_result {
	uint64_t frames, sent, tx_errors, lost;
	uint64_t calls, chunk; /* BPF_PROG_RUN calls made, and the repeat count settled on */
	double seconds;
	bool exact;
	struct tg_xmit_stats delta;
	enum tg_method method; /* TG_LIVE or TG_XSK: the one that sent */
	unsigned int queue;    /* TG_XSK: the socket's queue */
	struct tg_xsk_stats xsk;
};

static volatile sig_atomic_t stop_requested;
static bool verbose;

static void __attribute__((noreturn, format(printf, 2, 3))) die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* the verifier log is long: only with --verbose */
	if (level == LIBBPF_DEBUG || !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -i IFACE [options]\n"
		"Send test frames out of IFACE (in the current network namespace) from an XDP\n"
		"program run in BPF_PROG_RUN live-frames mode, or from an AF_XDP socket (copy\n"
		"mode) where the kernel refuses live frames. Needs root.\n"
		"\n"
		"  -i, --interface IFACE interface to send on (required)\n"
		"  -n, --count N         send N frames (wins over --duration)\n"
		"  -d, --duration SEC    send for SEC seconds (fractions allowed);\n"
		"                        without -n and -d: until Ctrl-C\n"
		"  -s, --size BYTES      frame size without FCS, %d..%d (default %d, or the\n"
		"                        headers' size when larger: 62 IPv6/UDP, 74 IPv6/TCP)\n"
		"      --flows N         N flows: source port = sport + (frame number %% N)\n"
		"  -6, --ipv6            IPv6 instead of IPv4\n"
		"  -t, --tcp             TCP (bare ACK segments) instead of UDP\n"
		"      --src-mac MAC     default: IFACE's MAC\n"
		"      --dst-mac MAC     default: from the neighbour entry of the destination IP,\n"
		"                        else ff:ff:ff:ff:ff:ff (with a warning)\n"
		"      --src-ip IP       default: IFACE's first (non link-local) address\n"
		"      --dst-ip IP       default: the first neighbour entry on IFACE\n"
		"      --sport PORT      base source port (default 1024)\n"
		"      --dport PORT      destination port (default 9)\n"
		"      --cpus N          pin the sending thread to CPU N (one CPU; veth: peer RX queue =\n"
		"                        N %% queues, with either method)\n"
		"      --method M        live, xsk or auto (default): live frames, and AF_XDP TX on\n"
		"                        queue (N %% queues) when the kernel refuses them; the word\n"
		"                        live_frames in XSKF_FEATURES_OFF (comma-separated) makes\n"
		"                        auto act as if they were refused\n"
		"      --rate PPS        pace to PPS frames per second (batches every ~1 ms)\n"
		"      --batch N         frames per kernel flush, 1..%d (default 64; xsk: frames\n"
		"                        put into the TX ring per sendto(), default 2048)\n"
		"      --chunk N         frames per BPF_PROG_RUN call (default: grown until the\n"
		"                        fixed cost of a call is under a tenth of it; xsk: frames\n"
		"                        between two looks at the clock, default %d)\n"
		"      --resend          with -n N: frames the peer's RX ring refuses (tx_errors)\n"
		"                        are made again, until N were sent (veth, whose counters\n"
		"                        say which were refused; frames then counts every one)\n"
		"      --json            print one JSON object at the end instead of text\n"
		"  -v, --verbose         show libbpf warnings\n"
		"  -V, --version         versions of xskf, libbpf and libxdp it runs with\n"
		"  -h, --help            this text\n",
		TG_MIN_SIZE, TG_MAX_SIZE, TG_MIN_SIZE, TG_MAX_BATCH, TG_XSK_CHUNK);
}

static uint64_t parse_u64(const char *s, const char *what, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	/* decimal, as every option number is ("010" is 10, not octal); a digit first, so no
	 * space or sign is skipped */
	if (!isdigit((unsigned char)*s))
		die(2, "bad %s '%s' (expected %llu..%llu)", what, s, (unsigned long long)min,
		    (unsigned long long)max);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		die(2, "bad %s '%s' (expected %llu..%llu)", what, s, (unsigned long long)min,
		    (unsigned long long)max);
	return v;
}

static void parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	int i, used = 0;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%n", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &used) != 6 || s[used])
		die(2, "bad MAC address '%s'", s);
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			die(2, "bad MAC address '%s'", s);
		mac[i] = b[i];
	}
}

static void __attribute__((noreturn)) print_version(void)
{
	struct xskf_version v;

	xskf_version__get(&v);
	printf("xskf-trafficgen (xskf) %s, %s, %s\n", v.xskf, v.libbpf,
	       strcmp(v.libxdp, "none") ? v.libxdp : "no libxdp");
	exit(0);
}

static int parse_cpu(const char *s)
{
	if (strspn(s, "0123456789") != strlen(s))
		die(2, "bad --cpus '%s': the generator sends from one thread: give one CPU", s);
	return parse_u64(s, "--cpus", 0, CPU_SETSIZE - 1);
}

/* Whether the comma-separated list in XSKF_FEATURES_OFF names @feature. */
static bool feature_off(const char *feature)
{
	const char *p = getenv("XSKF_FEATURES_OFF");
	size_t len = strlen(feature), n;

	for (; p && *p; p += n) {
		p += strspn(p, ", ");
		n = strcspn(p, ", ");
		if (n == len && !strncmp(p, feature, len))
			return true;
	}
	return false;
}

static enum tg_method parse_method(const char *s)
{
	if (!strcmp(s, "auto"))
		return TG_AUTO;
	if (!strcmp(s, "live"))
		return TG_LIVE;
	if (!strcmp(s, "xsk"))
		return TG_XSK;
	die(2, "bad --method '%s' (expected live, xsk or auto)", s);
}

/* What parse_opts() checks once every option is read. */
static void check_opts(struct tg_opts *o, bool size_given)
{
	uint16_t hdr;

	if (!o->ifname)
		die(2, "missing -i IFACE (see --help)");
	if (o->resend && !o->count)
		die(2, "--resend needs -n N: it makes the count of frames sent exact");

	hdr = tg_pkt_hdr_len(o->pkt.ipv6, o->pkt.tcp);
	if (!size_given)
		o->pkt.size = hdr > TG_MIN_SIZE ? hdr : TG_MIN_SIZE;
	else if (o->pkt.size < hdr)
		die(2, "bad size %u: %s/%s headers need %u bytes", o->pkt.size,
		    o->pkt.ipv6 ? "IPv6" : "IPv4", o->pkt.tcp ? "TCP" : "UDP", hdr);
	if ((uint32_t)o->pkt.sport + o->flows - 1 > 65535)
		die(2, "sport %u + %u flows goes past port 65535", o->pkt.sport, o->flows);

	/* an explicit --method live wins over the environment, which only steers auto */
	if (o->method == TG_XSK)
		o->why_xsk = "not used (--method xsk)";
	else if (o->method == TG_AUTO && feature_off("live_frames"))
		o->why_xsk = "forced off by XSKF_FEATURES_OFF";
	if (o->why_xsk)
		o->method = TG_XSK;
}

/* The long options; those without a short letter get numbers past any character. */
enum tg_opt {
	O_SRC_MAC = 256, O_DST_MAC, O_SRC_IP, O_DST_IP, O_SPORT, O_DPORT, O_CPU, O_RATE,
	O_BATCH, O_CHUNK, O_JSON, O_FLOWS, O_RESEND, O_METHOD,
};

static const struct option longopts[] = {
	{ "interface", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "size", required_argument, NULL, 's' },
	{ "flows", required_argument, NULL, O_FLOWS },
	{ "ipv6", no_argument, NULL, '6' },
	{ "tcp", no_argument, NULL, 't' },
	{ "src-mac", required_argument, NULL, O_SRC_MAC },
	{ "dst-mac", required_argument, NULL, O_DST_MAC },
	{ "src-ip", required_argument, NULL, O_SRC_IP },
	{ "dst-ip", required_argument, NULL, O_DST_IP },
	{ "sport", required_argument, NULL, O_SPORT },
	{ "dport", required_argument, NULL, O_DPORT },
	{ "cpus", required_argument, NULL, O_CPU },
	{ "rate", required_argument, NULL, O_RATE },
	{ "batch", required_argument, NULL, O_BATCH },
	{ "chunk", required_argument, NULL, O_CHUNK },
	{ "resend", no_argument, NULL, O_RESEND },
	{ "method", required_argument, NULL, O_METHOD },
	{ "json", no_argument, NULL, O_JSON },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{}
};

static void parse_opts(int argc, char **argv, struct tg_opts *o)
{
	bool size_given = false;
	char *end;
	int c;

	*o = (struct tg_opts){ .flows = 1, .cpu = -1 };
	o->pkt.sport = 1024;
	o->pkt.dport = 9;
	while ((c = getopt_long(argc, argv, ":i:n:d:s:6tvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->ifname = optarg;
			break;
		case 'n':
			o->count = parse_u64(optarg, "count", 1, UINT64_MAX);
			break;
		case 'd':
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->duration > 0) ||
			    !isfinite(o->duration))
				die(2, "bad duration '%s' (expected seconds > 0)", optarg);
			break;
		case 's':
			o->pkt.size = parse_u64(optarg, "size", TG_MIN_SIZE, TG_MAX_SIZE);
			size_given = true;
			break;
		case O_FLOWS:
			o->flows = parse_u64(optarg, "flows", 1, 65536);
			break;
		case '6':
			o->pkt.ipv6 = true;
			break;
		case 't':
			o->pkt.tcp = true;
			break;
		case O_SRC_MAC:
			o->src_mac = optarg;
			break;
		case O_DST_MAC:
			o->dst_mac = optarg;
			break;
		case O_SRC_IP:
			o->src_ip = optarg;
			break;
		case O_DST_IP:
			o->dst_ip = optarg;
			break;
		case O_SPORT:
			o->pkt.sport = parse_u64(optarg, "sport", 0, 65535);
			break;
		case O_DPORT:
			o->pkt.dport = parse_u64(optarg, "dport", 0, 65535);
			break;
		case O_CPU:
			o->cpu = parse_cpu(optarg);
			break;
		case O_RATE:
			o->rate = parse_u64(optarg, "rate", 1, 1000000000);
			break;
		case O_BATCH:
			o->batch = parse_u64(optarg, "batch", 1, TG_MAX_BATCH);
			break;
		case O_CHUNK:
			o->chunk = parse_u64(optarg, "chunk", 1, TG_MAX_CHUNK);
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_RESEND:
			o->resend = true;
			break;
		case O_METHOD:
			o->method = parse_method(optarg);
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			print_version();
		case ':':
			die(2, "option '%s' needs a value (see --help)", argv[optind - 1]);
		default:
			die(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (see --help)", argv[optind]);
	check_opts(o, size_given);
}

static const char *ip_str(const struct tg_opts *o, const union tg_ip *ip, char *buf, size_t len)
{
	return inet_ntop(o->pkt.ipv6 ? AF_INET6 : AF_INET, ip, buf, len);
}

/* Fill in the addresses the user left out, from the interface and its neighbour table. */
static void resolve_addresses(struct tg_opts *o, int ifindex)
{
	int family = o->pkt.ipv6 ? AF_INET6 : AF_INET;
	const char *fam = o->pkt.ipv6 ? "IPv6" : "IPv4";
	struct tg_pkt_cfg *p = &o->pkt;
	char buf[INET6_ADDRSTRLEN];
	bool have_dst_mac = false;
	int err;

	if (o->src_mac) {
		parse_mac(o->src_mac, p->src_mac);
	} else {
		err = tg_if_mac(o->ifname, p->src_mac);
		if (err)
			die(1, "cannot read the MAC of %s: %s", o->ifname, strerror(-err));
	}
	if (o->dst_mac) {
		parse_mac(o->dst_mac, p->dst_mac);
		have_dst_mac = true;
	}

	if (o->src_ip) {
		if (inet_pton(family, o->src_ip, &p->src_ip) != 1)
			die(2, "bad %s source address '%s'", fam, o->src_ip);
	} else if (tg_if_addr(o->ifname, family, &p->src_ip)) {
		die(1, "%s has no %s address: give --src-ip", o->ifname, fam);
	}

	if (o->dst_ip) {
		if (inet_pton(family, o->dst_ip, &p->dst_ip) != 1)
			die(2, "bad %s destination address '%s'", fam, o->dst_ip);
		if (!have_dst_mac) {
			err = tg_neigh_find(ifindex, family, &p->dst_ip, NULL, p->dst_mac);
			have_dst_mac = !err;
		}
	} else {
		/* Without --dst-ip: the first neighbour on the link (the test bed installs one). */
		uint8_t mac[6];

		err = tg_neigh_find(ifindex, family, NULL, &p->dst_ip, mac);
		if (err)
			die(1, "no %s neighbour on %s: give --dst-ip", fam, o->ifname);
		if (!have_dst_mac)
			memcpy(p->dst_mac, mac, 6);
		have_dst_mac = true;
	}
	if (!have_dst_mac) {
		memset(p->dst_mac, 0xff, 6);
		fprintf(stderr, PROG ": warning: no neighbour entry for %s on %s, sending to "
				"ff:ff:ff:ff:ff:ff (give --dst-mac)\n",
			ip_str(o, &p->dst_ip, buf, sizeof(buf)), o->ifname);
	}
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t };

	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !stop_requested)
		;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * How many frames one BPF_PROG_RUN call makes. A call costs a fixed amount (the kernel sets up
 * and tears down a page pool for every live-frames run: microseconds on most machines, ~24 ms
 * on some VMs) plus a cost per frame. Sizing calls from the rate seen so far traps a machine
 * with a high fixed cost: small calls make a low rate, and a low rate makes small calls. So the
 * size comes from what calls take. From the last two full calls (sizes m < n, times tm, tn) the
 * line t = a + b * size gives the fixed cost a and the cost per frame b; the next size is the
 * one whose fixed cost is 2.5% of the call (39 a / b), but at least TG_CALL_MIN long (cheap in
 * syscalls), at most TG_CALL_MAX long (quick to follow --duration), and at most 16 times the
 * last size (one noisy estimate cannot run away). Once the wanted size is within 25% of the
 * current one, it stays: about 4 calls on either kind of machine.
 */
#define TG_CALL_MIN 0.010
#define TG_CALL_MAX 1.0
#define TG_GROW_MAX 16

struct tg_sizer {
	uint64_t chunk;     /* frames per call now */
	uint64_t last_n;    /* size and duration of the last full call, 0: none yet */
	double last_t;
	double per_frame;   /* the latest estimate of b, seconds; 0: none */
	bool settled;
};

static void sizer_init(struct tg_sizer *z, uint64_t fixed)
{
	*z = (struct tg_sizer){ .chunk = fixed ? fixed : TG_FIRST_CHUNK, .settled = fixed != 0 };
}

/* A call of @n frames took @t seconds: learn from it, and pick the size of the next one. */
static void sizer_update(struct tg_sizer *z, uint64_t n, double t)
{
	double a = 0, b = 0, want;

	if (n != z->chunk || t <= 0)
		return; /* a partial call (the end, a signal, pacing) says little */
	if (z->last_n && z->last_n < n && t > z->last_t) {
		b = (t - z->last_t) / (double)(n - z->last_n);
		a = z->last_t - b * (double)z->last_n;
		if (a < 0)
			a = 0;
		z->per_frame = b;
	}
	z->last_n = n;
	z->last_t = t;
	if (z->settled)
		return;
	if (b <= 0) {
		/* no estimate yet, or times too noisy to tell: grow */
		want = (double)n * TG_GROW_MAX;
		if (t * TG_GROW_MAX > TG_CALL_MAX)
			want = (double)n * TG_CALL_MAX / t;
	} else {
		want = 39 * a / b;
		if (want * b < TG_CALL_MIN)
			want = TG_CALL_MIN / b;
		if (want * b > TG_CALL_MAX)
			want = TG_CALL_MAX / b;
		if (want > (double)n * TG_GROW_MAX)
			want = (double)n * TG_GROW_MAX;
	}
	if (want > TG_MAX_CHUNK)
		want = TG_MAX_CHUNK;
	if (want < TG_MIN_CHUNK)
		want = TG_MIN_CHUNK;
	if (want <= n * 1.25 && want >= n * 0.8) {
		z->settled = true;
		return;
	}
	z->chunk = (uint64_t)want;
}

/* Frames the peer refused since @before (its RX ring full), read now; 0 if unreadable. */
static uint64_t refused_since(struct tg_ethtool *et, const struct tg_xmit_stats *before)
{
	struct tg_xmit_stats now;
	uint64_t n = 0;
	unsigned int q;

	if (tg_ethtool__read(et, &now))
		return 0;
	for (q = 0; q < now.nr_queues && q < before->nr_queues; q++)
		n += now.errors[q] - before->errors[q];
	return n;
}

/* The state of the sending method: live frames, or the AF_XDP socket it fell back to. */
struct tg_sender {
	const struct tg_opts *o;
	enum tg_method method; /* TG_LIVE (also while auto has not been refused) or TG_XSK */
	bool probed;	       /* auto: a live-frames call has made frames, no fallback since */
	/* live frames */
	struct xskf_trafficgen *skel;
	struct bpf_test_run_opts *run;
	struct tg_ethtool *et;
	const struct tg_xmit_stats *before;
	/* AF_XDP */
	struct tg_xsk *xsk;
	unsigned int queue;
	const uint8_t *frame;
	const struct tg_layout *lay;
};

/*
 * Open the AF_XDP socket on queue (--cpus % TX queues), or 0 when not pinned, and say so in
 * the one line that names the method and why (@why completes "live-frame test runs ...").
 */
static void start_xsk(struct tg_sender *s, const char *why)
{
	const struct tg_opts *o = s->o;
	int nq = tg_if_tx_queues(o->ifname), err;
	struct tg_xsk_cfg cfg = { .ifname = o->ifname, .frame = s->frame, .size = o->pkt.size,
				  .lay = s->lay, .sport = o->pkt.sport, .flows = o->flows,
				  .batch = o->batch, .verbose = o->verbose };

	if (nq < 0)
		die(1, "cannot count the TX queues of %s: %s", o->ifname, strerror(-nq));
	cfg.queue = o->cpu >= 0 ? (unsigned int)o->cpu % nq : 0;
	err = tg_xsk__open(&s->xsk, &cfg);
	if (err)
		die(1, "live-frame test runs %s, and no AF_XDP socket on %s queue %u: %s", why,
		    o->ifname, cfg.queue, strerror(-err));
	s->queue = cfg.queue;
	s->method = TG_XSK;
	fprintf(stderr, PROG ": live-frame test runs %s: sending with AF_XDP TX (copy mode) on "
			"queue %u\n",
		why, s->queue);
}

/* What a refused live-frames run says: 5.10 knows no such flag, some 6.18 builds say EPERM. */
static bool live_refused(int err)
{
	/* E2BIG: a kernel older than bpf_attr's batch_size field, given --batch */
	return err == -EPERM || err == -EINVAL || err == -EOPNOTSUPP || err == -E2BIG;
}

/* Make @n frames with the method in use; 0, -EINTR (a signal) or -errno. */
static int send_chunk(struct tg_sender *s, uint64_t n)
{
	char why[96];
	int err;

	if (s->method == TG_XSK)
		return tg_xsk__send(s->xsk, n, &stop_requested);
	s->run->repeat = n;
	err = bpf_prog_test_run_opts(bpf_program__fd(s->skel->progs.xskf_trafficgen), s->run);
	/* the probe is the first call that makes frames: a refusal makes none */
	if (err && s->o->method == TG_AUTO && !s->probed && !s->skel->bss->tg_frames &&
	    live_refused(err)) {
		snprintf(why, sizeof(why), "refused by this kernel (%s)", strerror(-err));
		start_xsk(s, why);
		return tg_xsk__send(s->xsk, n, &stop_requested);
	}
	s->probed = s->skel->bss->tg_frames > 0;
	return err;
}

static uint64_t frames_made(const struct tg_sender *s)
{
	return s->method == TG_XSK ? tg_xsk__stats(s->xsk)->made : s->skel->bss->tg_frames;
}

/*
 * Frames refused by the peer so far, for --resend. veth counts a live frame's refusal inside
 * the call that made it; an AF_XDP frame's drop is known when the kick that carried it
 * returns, but frames may still be in the TX ring: at the end, @final waits for them all.
 */
static uint64_t refused_now(struct tg_sender *s, bool final)
{
	if (s->method == TG_LIVE)
		return refused_since(s->et, s->before);
	if (final)
		tg_xsk__drain(s->xsk, TG_XSK_DRAIN_S);
	return tg_xsk__stats(s->xsk)->dropped;
}

/* How many frames the next call makes under --rate, or 0 when it should wait. */
static uint64_t paced(const struct tg_opts *o, uint64_t done, double t, double t0,
		      double last_call)
{
	uint64_t pace = o->rate / 1000 ? o->rate / 1000 : 1;
	/*
	 * Send what is due by now. A late wake-up (busy CPU) or a slow call is made up for by a
	 * bigger one, up to 10 ms worth or twice the last call's time, so the average holds.
	 */
	uint64_t due = (uint64_t)((t - t0) * o->rate), burst = pace * 10;

	if (last_call * 2 * o->rate > burst)
		burst = (uint64_t)(last_call * 2 * o->rate);
	if (due < done + pace) {
		sleep_until(t0 + (double)(done + pace) / o->rate);
		return 0;
	}
	return due - done < burst ? due - done : burst;
}

/*
 * Send until --count frames, --duration or a signal. BPF_PROG_RUN returns -EINTR when a signal
 * arrives in the middle of a repeat; the program's own counter (tg_frames) then still says
 * exactly how many frames were made, so we never have to guess. With --resend, the count grows
 * by the frames the peer refused (refused_now()).
 */
static int send_frames(struct tg_sender *s, struct tg_result *res)
{
	const struct tg_opts *o = s->o;
	uint64_t done = 0, before_call, count = o->count;
	double t0, t, end, last_call = 0;
	struct tg_sizer z;
	int err = 0;

	sizer_init(&z, s->method == TG_XSK && !o->chunk ? TG_XSK_CHUNK : o->chunk);
	t0 = now_sec();
	end = t0 + o->duration;
	while (!stop_requested) {
		uint64_t n = z.chunk;

		t = now_sec();
		if (!o->count && o->duration) {
			if (t >= end)
				break;
			/*
			 * The last call of a --duration run ends near the end, not a call
			 * later; a short remainder goes into the call before it, so that the
			 * run does not pay one more fixed cost for a sliver.
			 */
			if (z.per_frame > 0 && (double)n * z.per_frame * 1.5 > end - t)
				n = (uint64_t)((end - t) / z.per_frame) + 1;
		}
		if (count && done >= count && o->resend)
			count = o->count + refused_now(s, true);
		if (count && done >= count)
			break;
		if (count && n > count - done)
			n = count - done;
		if (o->rate) {
			n = paced(o, done, t, t0, last_call);
			if (!n)
				continue;
			if (count && n > count - done)
				n = count - done;
		}
		before_call = done;
		err = send_chunk(s, n);
		if (s->method == TG_XSK && !o->chunk && z.chunk != TG_XSK_CHUNK)
			sizer_init(&z, TG_XSK_CHUNK); /* the probe failed: AF_XDP from now on */
		done = frames_made(s);
		if (o->resend)
			count = o->count + refused_now(s, false);
		res->calls++;
		if (err && err != -EINTR)
			break;
		last_call = now_sec() - t;
		if (!err && !o->rate && s->method == TG_LIVE)
			sizer_update(&z, done - before_call, last_call);
		err = 0;
	}
	/* what is still in the TX ring goes out (or is dropped) before the clock stops */
	if (s->method == TG_XSK)
		tg_xsk__drain(s->xsk, TG_XSK_DRAIN_S);
	res->seconds = now_sec() - t0;
	res->chunk = z.chunk;
	return err;
}

/* Turn the counters read before and after into the result. */
static void account(struct tg_result *r, const struct tg_xmit_stats *before,
		    const struct tg_xmit_stats *after)
{
	unsigned int q;

	r->exact = after->nr_queues > 0;
	r->delta.nr_queues = after->nr_queues;
	for (q = 0; q < after->nr_queues; q++) {
		r->delta.xmit[q] = after->xmit[q] - before->xmit[q];
		r->delta.errors[q] = after->errors[q] - before->errors[q];
		r->sent += r->delta.xmit[q];
		r->tx_errors += r->delta.errors[q];
	}
	if (!r->exact) {
		/* not a veth: nothing tells us what the driver did, take the program's word */
		r->sent = r->frames;
		return;
	}
	/*
	 * Frames the program made that the device neither sent nor counted as errors were
	 * dropped on the way (veth refuses XDP frames when its peer runs no NAPI: no XDP
	 * program and no GRO there). More counted than made means someone else was sending
	 * through this interface at the same time.
	 */
	if (r->sent + r->tx_errors <= r->frames)
		r->lost = r->frames - r->sent - r->tx_errors;
	else
		fprintf(stderr, PROG ": warning: the counters moved by %llu more frames than were "
				"generated: other XDP traffic on this interface?\n",
			(unsigned long long)(r->sent + r->tx_errors - r->frames));
}

/*
 * The AF_XDP method's result, from its own completion accounting. veth's tx_queue_N_xdp_xmit
 * counters count XDP frames only, not the skbs that copy mode sends. The accounting is exact:
 * every frame the kernel takes from the TX ring either completes (the device took it, or
 * dropped it and said so with one -EBUSY) or is counted in tx_invalid_descs, and the drain
 * waited for all of them. A frame that veth accepts is in the peer's RX ring or backlog; one
 * it cannot place there it drops, and that is the -EBUSY. Only a drain that timed out (the
 * device stopped completing) leaves frames unaccounted for: those are `lost`, exact false.
 */
static void account_xsk(struct tg_result *r, const struct tg_sender *s, unsigned int nr_queues)
{
	const struct tg_xsk_stats *st = tg_xsk__stats(s->xsk);
	bool drained = st->completed + st->invalid == st->made;

	r->method = TG_XSK;
	r->queue = s->queue;
	r->xsk = *st;
	r->frames = st->made;
	r->tx_errors = st->dropped;
	r->sent = st->completed - st->dropped;
	r->lost = st->made - st->completed;
	r->exact = drained;
	if (nr_queues <= s->queue)
		nr_queues = s->queue + 1;
	memset(&r->delta, 0, sizeof(r->delta));
	r->delta.nr_queues = nr_queues < TG_MAX_QUEUES ? nr_queues : TG_MAX_QUEUES;
	if (s->queue < TG_MAX_QUEUES) {
		r->delta.xmit[s->queue] = r->sent;
		r->delta.errors[s->queue] = r->tx_errors;
	}
}

static const char *method_name(enum tg_method m)
{
	return m == TG_XSK ? "xsk" : "live";
}

static void report_json(const struct tg_opts *o, const struct tg_result *r, double mpps,
			double gbps)
{
	unsigned int q;

	printf("{\"iface\":\"%s\",\"method\":\"%s\",\"l3\":\"%s\",\"l4\":\"%s\",\"size\":%u,"
	       "\"flows\":%u,\"cpu\":%d,\"frames\":%llu,\"sent\":%llu,\"tx_errors\":%llu,"
	       "\"lost\":%llu,\"bytes\":%llu,\"seconds\":%.6f,\"mpps\":%.4f,\"gbps\":%.4f,"
	       "\"exact\":%s,\"calls\":%llu,\"chunk\":%llu,",
	       o->ifname, method_name(r->method), o->pkt.ipv6 ? "ipv6" : "ipv4",
	       o->pkt.tcp ? "tcp" : "udp", o->pkt.size, o->flows, o->cpu,
	       (unsigned long long)r->frames, (unsigned long long)r->sent,
	       (unsigned long long)r->tx_errors, (unsigned long long)r->lost,
	       (unsigned long long)(r->sent * o->pkt.size), r->seconds, mpps, gbps,
	       r->exact ? "true" : "false", (unsigned long long)r->calls,
	       (unsigned long long)r->chunk);
	if (r->method == TG_XSK)
		printf("\"xsk\":{\"queue\":%u,\"budget\":%d,\"kicks\":%llu,\"busy\":%llu,"
		       "\"tx_invalid_descs\":%llu,\"tx_ring_empty_descs\":%llu},",
		       r->queue, r->xsk.budget, (unsigned long long)r->xsk.kicks,
		       (unsigned long long)r->xsk.busy, (unsigned long long)r->xsk.invalid,
		       (unsigned long long)r->xsk.ring_empty);
	printf("\"queues\":[");
	for (q = 0; q < r->delta.nr_queues; q++)
		printf("%s{\"queue\":%u,\"sent\":%llu,\"tx_errors\":%llu}", q ? "," : "", q,
		       (unsigned long long)r->delta.xmit[q], (unsigned long long)r->delta.errors[q]);
	printf("]}\n");
}

static void report(const struct tg_opts *o, const struct tg_result *r)
{
	double mpps = r->seconds > 0 ? r->sent / r->seconds / 1e6 : 0;
	double gbps = r->seconds > 0 ? r->sent * (double)o->pkt.size * 8 / r->seconds / 1e9 : 0;
	bool xsk = r->method == TG_XSK;
	unsigned int q;

	if (o->json) {
		report_json(o, r, mpps, gbps);
		return;
	}
	printf("%s: %s/%s, %u-byte frames, %u flow%s, ", o->ifname, o->pkt.ipv6 ? "ipv6" : "ipv4",
	       o->pkt.tcp ? "tcp" : "udp", o->pkt.size, o->flows, o->flows > 1 ? "s" : "");
	if (o->cpu < 0)
		printf("cpu not pinned\n");
	else
		printf("cpu %d\n", o->cpu);
	if (xsk)
		printf("method     xsk\t(AF_XDP TX, copy mode, queue %u)\n", r->queue);
	else
		printf("method     live\t(BPF_PROG_RUN live frames)\n");
	printf("frames     %llu\t(%s)\n", (unsigned long long)r->frames,
	       xsk ? "put into the AF_XDP TX ring" : "made by the program");
	printf("sent       %llu\t(%s)\n", (unsigned long long)r->sent,
	       xsk	 ? "taken by the device, AF_XDP completions less its drops"
	       : r->exact ? "put into the peer's RX rings, veth counters"
			  : "not counted by the device");
	printf("tx_errors  %llu\t(%s)\n", (unsigned long long)r->tx_errors,
	       xsk ? "dropped by the device: peer RX ring full" : "peer RX ring full");
	printf("lost       %llu\t(dropped before the peer)\n", (unsigned long long)r->lost);
	printf("bytes      %llu\n", (unsigned long long)(r->sent * o->pkt.size));
	printf("seconds    %.6f\n", r->seconds);
	printf("Mpps       %.3f\n", mpps);
	printf("Gbit/s     %.3f\t(frame bytes, without FCS)\n", gbps);
	if (xsk)
		printf("kicks      %llu\t(sendto() of up to %d frames; %llu said busy, retried)\n",
		       (unsigned long long)r->xsk.kicks, r->xsk.budget,
		       (unsigned long long)r->xsk.busy);
	else
		printf("calls      %llu\t(BPF_PROG_RUN, %llu frames each at the end)\n",
		       (unsigned long long)r->calls, (unsigned long long)r->chunk);
	for (q = 0; q < r->delta.nr_queues; q++)
		printf("queue %-4u sent %llu tx_errors %llu\n", q,
		       (unsigned long long)r->delta.xmit[q], (unsigned long long)r->delta.errors[q]);
}

static struct xskf_trafficgen *load_prog(const struct tg_opts *o, const struct tg_layout *lay)
{
	struct xskf_trafficgen *skel;
	int err;

	skel = xskf_trafficgen__open();
	if (!skel)
		die(1, "cannot open the BPF program: %s", strerror(errno));
	skel->rodata->cfg_flows = o->flows;
	skel->rodata->cfg_sport_base = o->pkt.sport;
	skel->rodata->cfg_sport_off = lay->sport_off;
	skel->rodata->cfg_csum_off = lay->csum_off;
	skel->rodata->cfg_seq_off = lay->seq_off;
	skel->rodata->cfg_csum_is_udp = lay->csum_is_udp;
	err = xskf_trafficgen__load(skel);
	if (err)
		die(1, "cannot load the BPF program: %s%s", strerror(-err),
		    verbose ? "" : " (run with -v for details)");
	return skel;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die(1, "cannot pin to CPU %d: %s", cpu, strerror(errno));
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct tg_xmit_stats before, after;
	struct tg_sender s = {};
	uint8_t frame[TG_MAX_SIZE];
	struct tg_result res = {};
	struct tg_layout lay;
	struct tg_opts o;
	struct xdp_md ctx = {};
	int ifindex, err;

	parse_opts(argc, argv, &o);
	verbose = o.verbose;
	if (geteuid() != 0)
		die(1, "must be run as root (BPF_PROG_RUN of XDP needs CAP_BPF and CAP_NET_ADMIN)");
	ifindex = if_nametoindex(o.ifname);
	if (!ifindex)
		die(1, "unknown interface '%s'", o.ifname);
	resolve_addresses(&o, ifindex);
	if (tg_pkt_build(&o.pkt, frame, sizeof(frame), &lay))
		die(1, "cannot build a %u-byte frame", o.pkt.size);
	pin_cpu(o.cpu);

	/* the kernel wants ctx to describe data_in exactly: data 0, data_end its size */
	ctx.data_end = o.pkt.size;
	ctx.ingress_ifindex = ifindex;
	/*
	 * batch_size always given (64, the kernel's own default, without --batch): Linux 5.10,
	 * which has no live frames, ignores an XDP test run's flags and runs the frame once, not
	 * live, with success; the attribute it does not know makes it refuse (E2BIG) instead,
	 * and the first call's refusal switches to AF_XDP TX (features.c probes it the same way)
	 */
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frame, .data_size_in = o.pkt.size,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = o.batch ? o.batch : 64);
	s = (struct tg_sender){ .o = &o, .method = TG_LIVE, .run = &run, .frame = frame,
				.lay = &lay, .before = &before };
	libbpf_set_print(libbpf_print);
	if (o.method == TG_XSK)
		start_xsk(&s, o.why_xsk);
	else
		s.skel = load_prog(&o, &lay);

	s.et = tg_ethtool__open(o.ifname);
	if (!s.et)
		die(1, "cannot read the counters of %s: %s", o.ifname, strerror(errno));
	if (tg_ethtool__read(s.et, &before))
		die(1, "cannot read the counters of %s: %s", o.ifname, strerror(errno));

	/* no SA_RESTART: a signal must interrupt BPF_PROG_RUN so that Ctrl-C stops at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o.resend && !before.nr_queues && o.method != TG_XSK)
		die(2, "--resend: %s has no per-queue XDP counters to tell refused frames by "
		       "(veth has them): leave --resend out, or use --method xsk", o.ifname);
	err = send_frames(&s, &res);

	if (tg_ethtool__read(s.et, &after))
		die(1, "cannot read the counters of %s: %s", o.ifname, strerror(errno));
	if (s.method == TG_XSK) {
		account_xsk(&res, &s, after.nr_queues);
	} else {
		res.frames = s.skel->bss->tg_frames;
		account(&res, &before, &after);
	}
	report(&o, &res);
	if (res.lost)
		fprintf(stderr, PROG ": warning: %llu frames dropped before reaching the peer "
				"(%s)\n",
			(unsigned long long)res.lost,
			s.method == TG_XSK ? "the device stopped completing them"
					   : "does the peer have an XDP program or GRO on?");

	tg_ethtool__close(s.et);
	tg_xsk__close(s.xsk);
	xskf_trafficgen__destroy(s.skel);
	if (err)
		die(1, "%s failed: %s", s.method == TG_XSK ? "AF_XDP send" : "BPF_PROG_RUN",
		    strerror(-err));
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The standard command line of apps/: one table of options gives getopt_long's table, its short
 * options string and the --help text, so they cannot disagree. App options are appended from struct xskf_app_cli.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/cli.h"
#include "core/cpus.h"
#include "core/hugepages.h"
#include "core/log.h"
#include "core/backend.h"

enum {
	O_IFACE = 'i', O_QUEUE = 'q', O_ZC = 'z', O_COPY = 'c', O_NATIVE = 'N', O_SKB = 'S',
	O_BUSY = 'B', O_BATCH = 'b', O_DURATION = 'd', O_FRAME = 'f', O_VERBOSE = 'v', O_HELP = 'h',
	O_NOWAKE = 'm', O_FORCE = 'F', O_VERSION = 'V',
	O_JSON = 256, O_CPUS, O_WORKERS, O_HUGE, O_RXR, O_TXR, O_FILLR, O_COMPR, O_FRAMES,
	O_NOHINTS, O_INTERVAL, O_QUIET, O_BACKEND, O_MEM_FRAMES, O_MEM_FRAME, O_MEM_SEGS, O_HUGE_DIR,
	O_HUGE_SIZE, O_CSUM_REPAIR, O_STEER, O_STEER_FILE, O_KEEP_HOST, O_NO_TX_OFFLOAD, O_IDLE,
	O_IDLE_SPIN, O_NAPI, O_PIN_DIR, O_PIN_GROUP, O_SERVE, O_SERVE_UDS, O_XSK_MAP, O_XSK_MAP_UDS, O_ATTACH,
	O_HINTS_IN,
	O_APP_BASE = 1000,
};

struct std_opt {
	const char *name;
	int val, has_arg;
	const char *arg, *help;
	/* what the option does: 0 or -EINVAL (said); NULL for --help and --version */
	int (*set)(struct xskf_cli *c, const char *arg);
};

/* The options' handlers (below the table, which names them), one each, as xdp-tools has it. */
#define HANDLER(fn) static int fn(struct xskf_cli *c, const char *arg)
HANDLER(set_iface);
HANDLER(set_queue);
HANDLER(set_zc);
HANDLER(set_copy);
HANDLER(set_native);
HANDLER(set_skb);
HANDLER(set_attach);
HANDLER(set_busy);
HANDLER(set_idle);
HANDLER(set_idle_spin);
HANDLER(set_napi);
HANDLER(set_batch);
HANDLER(set_duration);
HANDLER(set_json);
HANDLER(set_cpus);
HANDLER(set_workers);
HANDLER(set_huge);
HANDLER(set_huge_size);
HANDLER(set_huge_dir);
HANDLER(set_frame);
HANDLER(set_frames);
HANDLER(set_rxr);
HANDLER(set_txr);
HANDLER(set_fillr);
HANDLER(set_compr);
HANDLER(set_nowake);
HANDLER(set_nohints);
HANDLER(set_hints_in);
HANDLER(set_force);
HANDLER(set_csum_repair);
HANDLER(set_steer);
HANDLER(set_steer_file);
HANDLER(set_keep_host);
HANDLER(set_no_tx_offload);
HANDLER(set_serve);
HANDLER(set_pin_dir);
HANDLER(set_pin_group);
HANDLER(set_serve_uds);
HANDLER(set_xsk_map);
HANDLER(set_xsk_map_uds);
HANDLER(set_interval);
HANDLER(set_quiet);
HANDLER(set_backend);
HANDLER(set_mem_frames);
HANDLER(set_mem_frame);
HANDLER(set_mem_segs);
HANDLER(set_verbose);

static const struct std_opt std_opts[] = {
	{ "interface", O_IFACE, 1, "IFACE", "interface to run on (repeat for more ports)", set_iface },
	{ "queue", O_QUEUE, 1, "Q", "queue id, repeatable; 'all' (default) for every RX queue", set_queue },
	{ "zero-copy", O_ZC, 0, NULL, "bind in zero-copy mode (an error where unsupported)", set_zc },
	{ "copy", O_COPY, 0, NULL, "bind in copy mode (default: zero-copy, else copy)", set_copy },
	{ "native", O_NATIVE, 0, NULL, "attach XDP in native mode (default: native, else SKB)", set_native },
	{ "skb", O_SKB, 0, NULL, "attach XDP in SKB (generic) mode", set_skb },
	{ "attach", O_ATTACH, 1, "dispatcher|alone",
	  "through libxdp's dispatcher beside other XDP programs (default), or alone", set_attach },
	{ "busy-poll", O_BUSY, 0, NULL, "preferred busy polling (SO_PREFER_BUSY_POLL)", set_busy },
	{ "idle", O_IDLE, 1, "busy|adaptive|sleep",
	  "without frames: poll, poll then sleep in poll() (default), or sleep at once", set_idle },
	{ "idle-spin", O_IDLE_SPIN, 1, "US", "adaptive: poll this long without frames before sleeping "
	  "(default 50)", set_idle_spin },
	{ "napi", O_NAPI, 1, "defer=N,gro-flush=NS,irq-suspend=NS",
	  "set the bound queues' NAPIs (else the device's); put back at exit (docs/idle.md)", set_napi },
	{ "batch", O_BATCH, 1, "N", "RX burst size, 1-256 (default 64)", set_batch },
	{ "duration", O_DURATION, 1, "SECONDS", "stop after this long (default: until Ctrl-C)", set_duration },
	{ "json", O_JSON, 0, NULL, "print one JSON document with all counters at exit", set_json },
	{ "cpus", O_CPUS, 1, "LIST", "pin workers to these CPUs, one worker each: '1' or '0,2-3'", set_cpus },
	{ "workers", O_WORKERS, 1, "N", "number of workers (default: one per CPU in --cpus, else 1)", set_workers },
	{ "hugepages", O_HUGE, 1, "auto|require|off", "UMEM on hugepages (default auto)", set_huge },
	{ "huge-size", O_HUGE_SIZE, 1, "2M|1G", "hugepage size (default: the mount's, else the kernel's)", set_huge_size },
	{ "huge-dir", O_HUGE_DIR, 1, "DIR", "UMEM in a file on this hugetlbfs mount (unlinked)", set_huge_dir },
	{ "frame-size", O_FRAME, 1, "2048|4096", "UMEM frame size (default 2048)", set_frame },
	{ "frames", O_FRAMES, 1, "N", "UMEM frames per worker (default: fill + TX ring per socket)", set_frames },
	{ "rx-ring", O_RXR, 1, "N", "RX ring size, power of two (default 2048)", set_rxr },
	{ "tx-ring", O_TXR, 1, "N", "TX ring size (default 2048)", set_txr },
	{ "fill-ring", O_FILLR, 1, "N", "fill ring size (default 2048)", set_fillr },
	{ "comp-ring", O_COMPR, 1, "N", "completion ring size (default 2048)", set_compr },
	{ "no-need-wakeup", O_NOWAKE, 0, NULL, "turn need_wakeup off", set_nowake },
	{ "no-hints", O_NOHINTS, 0, NULL, "do not write RX hints in front of frames", set_nohints },
	{ "hints-in", O_HINTS_IN, 1, "auto|data_meta|headroom|userspace",
	  "where RX hints reach the app (default auto: the kernel's best; docs/hints.md)", set_hints_in },
	{ "force", O_FORCE, 0, NULL, "replace a foreign XDP program until exit (it is put back)", set_force },
	{ "csum-repair", O_CSUM_REPAIR, 0, NULL,
	  "finish TCP/UDP checksums a sender's TX offload left unfinished (veth's default)", set_csum_repair },
	{ "steer", O_STEER, 1, "RULE",
	  "steering rule, repeatable, matched in order: 'udp dport 53 xsk' (docs/steering.md)", set_steer },
	{ "steer-file", O_STEER_FILE, 1, "FILE", "steering rules from a file, one a line (# comments)", set_steer_file },
	{ "keep-host", O_KEEP_HOST, 0, NULL,
	  "the host keeps its ARP, ICMPv6 (ND) and frames to its own addresses", set_keep_host },
	{ "no-tx-offload", O_NO_TX_OFFLOAD, 0, NULL,
	  "no TX metadata: checksums by xskf in software, no TX timestamps or launch times", set_no_tx_offload },
	{ "serve", O_SERVE, 1, "QUEUES",
	  "keep these queues for other AF_XDP apps' sockets (pinned XSKMAP); our rules apply there", set_serve },
	{ "pin-dir", O_PIN_DIR, 1, "DIR",
	  "pin the XSKMAP and rule maps in DIR/IFACE/ on bpffs (default with --serve: /sys/fs/bpf/xskf)", set_pin_dir },
	{ "pin-group", O_PIN_GROUP, 1, "GROUP", "the group that may open the pinned maps (default: none)", set_pin_group },
	{ "serve-uds", O_SERVE_UDS, 1, "PATH",
	  "hand out the XSKMAP on this socket, the AF_XDP device plugin's protocol (DPDK use_cni)", set_serve_uds },
	{ "xsk-map", O_XSK_MAP, 1, "PATH",
	  "be served: our sockets into this pinned XSKMAP, no program of ours (CAP_NET_RAW only)", set_xsk_map },
	{ "xsk-map-uds", O_XSK_MAP_UDS, 1, "PATH",
	  "be served: the XSKMAP from this device-plugin socket (/xsk_map_fd), no program of ours", set_xsk_map_uds },
	{ "interval", O_INTERVAL, 1, "SECONDS", "stats interval (default 1)", set_interval },
	{ "quiet", O_QUIET, 0, NULL, "no per-interval stats lines", set_quiet },
	{ "backend", O_BACKEND, 1, "xdp|memory",
	  "xdp (default), or rings in plain memory with no kernel: to measure xskf's own cost", set_backend },
	{ "mem-frames", O_MEM_FRAMES, 1, "N", "memory backend: stop after N frames per worker", set_mem_frames },
	{ "mem-frame", O_MEM_FRAME, 1, "FILE", "memory backend: the frame received (raw bytes); once per port for "
	  "different frames (none: that port receives nothing)", set_mem_frame },
	{ "mem-segs", O_MEM_SEGS, 1, "N", "memory backend: each frame in N buffers "
	  "(multi-buffer, 1..56: above 48 dropped as too long; apps that take frags)", set_mem_segs },
	{ "verbose", O_VERBOSE, 0, NULL, "more messages (repeat for debug)", set_verbose },
	{ "version", O_VERSION, 0, NULL, "versions of xskf, the plugin ABI, libbpf and libxdp", NULL },
	{ "help", O_HELP, 0, NULL, "this text", NULL },
};
#define NR_STD (sizeof(std_opts) / sizeof(std_opts[0]))

static void usage(FILE *f, const char *prog, const struct xskf_app_cli *cli)
{
	const struct xskf_cli_opt *a;
	char left[64];
	size_t i;

	fprintf(f, "Usage: %s -i IFACE [-q QUEUE]... [OPTIONS]\n", prog);
	if (cli && cli->summary)
		fprintf(f, "%s\n", cli->summary);
	fprintf(f, "\nOptions:\n");
	for (i = 0; i < NR_STD; i++) {
		const struct std_opt *o = &std_opts[i];

		if (o->val < 128)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->val, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(f, "  %-32s %s\n", left, o->help);
	}
	if (cli && cli->opts && cli->opts[0].name) {
		fprintf(f, "\nApp options:\n");
		for (a = cli->opts; a->name; a++) {
			snprintf(left, sizeof(left), "    --%s%s%s", a->name, a->arg ? " " : "",
				 a->arg ? a->arg : "");
			fprintf(f, "  %-32s %s\n", left, a->help);
		}
	}
}

void xskf_cli__version(FILE *f, const char *prog)
{
	struct xskf_version v;

	xskf_version__get(&v);
	fprintf(f, "%s (xskf) %s, plugin ABI %d, %s, %s\n", prog, v.xskf,
		v.plugin_abi, v.libbpf, v.libxdp);
}

/*
 * The raw bytes of one frame from @path, for the memory backend. The first --mem-frame is
 * every port's frame; a second makes them per port, in the order of -i ("none": that port
 * receives nothing).
 */
static int read_frame(struct xskf_cli *c, const char *path)
{
	unsigned int k = c->nr_mem_frame;
	FILE *f;
	size_t n;

	if (k == XSKF_MAX_PORTS) {
		pr_warn("--mem-frame '%s': at most %u, one per port\n", path, XSKF_MAX_PORTS);
		return -EINVAL;
	}
	c->nr_mem_frame++;
	if (!strcmp(path, "none")) {
		c->mem_port_frame[k] = NULL;
		c->mem_port_len[k] = 0;
		goto out;
	}
	f = fopen(path, "rb");
	if (!f) {
		pr_warn("cannot open --mem-frame '%s': %s\n", path, strerror(errno));
		return -EINVAL;
	}
	n = fread(c->mem_frame[k], 1, sizeof(c->mem_frame[k]), f);
	if (n < 14 || fgetc(f) != EOF) {
		pr_warn("--mem-frame '%s': a frame is 14 to %zu bytes, this file is %s\n", path,
			sizeof(c->mem_frame[k]), n < 14 ? "shorter" : "longer");
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	c->mem_port_frame[k] = c->mem_frame[k];
	c->mem_port_len[k] = (uint32_t)n;
out:
	if (c->nr_mem_frame == 1 && c->mem_port_frame[0]) {
		c->mem.frame = c->mem_port_frame[0];
		c->mem.frame_len = c->mem_port_len[0];
	} else {
		c->mem.frame = NULL;
		c->mem.frame_len = 0;
		c->mem.port_frames = c->mem_port_frame;
		c->mem.port_frame_lens = c->mem_port_len;
		c->mem.nr_port_frames = c->nr_mem_frame;
	}
	return 0;
}

/*
 * An option number: decimal, as rules are (steer_parse.c): "010" is 10, not octal 8 as base 0
 * read it, and "0x10" is refused (no option documents hexadecimal). The first character must
 * be a digit: strtoul() would skip spaces and take a sign ("-1" is ULONG_MAX).
 */
static int parse_dec(const char *s, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

static int parse_u32(const char *name, const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long long v;

	if (parse_dec(s, &v) || v < min || v > max) {
		pr_warn("invalid %s '%s': use a number from %u to %u\n", name, s, min, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/* ---- the options' handlers ---- */

#define FLAG(fn, lvalue)                                                                           \
	HANDLER(fn)                                                                                \
	{                                                                                          \
		(void)arg;                                                                         \
		lvalue;                                                                            \
		return 0;                                                                          \
	}
#define TEXT(fn, field)                                                                            \
	HANDLER(fn)                                                                                \
	{                                                                                          \
		c->field = arg;                                                                    \
		return 0;                                                                          \
	}
#define U32(fn, what, min, max, field)                                                             \
	HANDLER(fn)                                                                                \
	{                                                                                          \
		return parse_u32(what, arg, min, max, &c->field);                                  \
	}

FLAG(set_zc, c->eo.bind_mode = XSKF_BIND_ZEROCOPY)
FLAG(set_copy, c->eo.bind_mode = XSKF_BIND_COPY)
FLAG(set_native, c->eo.attach_mode = XSKF_ATTACH_NATIVE)
FLAG(set_skb, c->eo.attach_mode = XSKF_ATTACH_SKB)
FLAG(set_busy, c->eo.busy_poll = true)
FLAG(set_json, c->json = true)
FLAG(set_nowake, c->eo.no_need_wakeup = true)
FLAG(set_nohints, c->eo.no_hints = true)
FLAG(set_force, c->eo.force = true)
FLAG(set_csum_repair, c->eo.csum_repair = true)
FLAG(set_no_tx_offload, c->eo.no_tx_meta = true)
FLAG(set_keep_host, c->keep_host = true)
FLAG(set_quiet, c->quiet = true)
FLAG(set_verbose, c->verbose++)
TEXT(set_huge_dir, eo.huge_dir)
TEXT(set_serve, eo.serve)
TEXT(set_pin_dir, eo.pin_dir)
TEXT(set_pin_group, eo.pin_group)
TEXT(set_serve_uds, eo.serve_uds)
TEXT(set_xsk_map, eo.xsk_map)
TEXT(set_xsk_map_uds, eo.xsk_map_uds)
U32(set_idle_spin, "--idle-spin", 1, 1000000, eo.idle_spin_us)
U32(set_batch, "batch size", 1, XSKF_MAX_BATCH, eo.batch)
U32(set_duration, "duration", 1, 1000000, duration)
U32(set_workers, "worker count", 1, XSKF_MAX_WORKERS, eo.nr_workers)
U32(set_frames, "frame count", 64, 1u << 24, eo.frames)
U32(set_rxr, "RX ring size", 0, UINT32_MAX, eo.rx_size)
U32(set_txr, "TX ring size", 0, UINT32_MAX, eo.tx_size)
U32(set_fillr, "fill ring size", 0, UINT32_MAX, eo.fill_size)
U32(set_compr, "completion ring size", 0, UINT32_MAX, eo.comp_size)
U32(set_interval, "interval", 1, 3600, interval)
U32(set_mem_segs, "--mem-segs", 1, XSKF_MAX_SEGS + 8, mem.segs)

/*
 * One of @n words for @what's @arg: its index, or -EINVAL said ("use a, b or c", in the
 * words' order).
 */
static int word_of(const char *what, const char *arg, const char *const *words, int n)
{
	char list[128] = "";
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, words[i]))
			return i;
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 !i ? "" : i + 1 < n ? ", " : " or ", words[i]);
	pr_warn("invalid %s '%s': use %s\n", what, arg, list);
	return -EINVAL;
}

HANDLER(set_iface)
{
	if (c->nr_ifaces == XSKF_MAX_PORTS) {
		pr_warn("too many interfaces: at most %d\n", XSKF_MAX_PORTS);
		return -EINVAL;
	}
	c->ifaces[c->nr_ifaces++] = arg;
	return 0;
}

HANDLER(set_queue)
{
	uint32_t v;

	if (!strcmp(arg, "all")) {
		c->all_queues = true;
		return 0;
	}
	if (c->nr_queues == XSKF_MAX_QUEUES)
		return -EINVAL;
	if (parse_u32("queue id", arg, 0, XSKF_MAX_QUEUES - 1, &v))
		return -EINVAL;
	c->queues[c->nr_queues++] = v;
	c->all_queues = false;
	return 0;
}

HANDLER(set_attach)
{
	if (!strcmp(arg, "dispatcher")) {
		c->eo.xdp_alone = false;
	} else if (!strcmp(arg, "alone")) {
		c->eo.xdp_alone = true;
	} else {
		pr_warn("--attach takes dispatcher or alone, not '%s'\n", arg);
		return -EINVAL;
	}
	return 0;
}

HANDLER(set_hints_in)
{
	static const char *const w[] = { "auto", "data_meta", "headroom", "userspace" };
	int i = word_of("--hints-in", arg, w, 4);

	if (i < 0)
		return i;
	/* the words in enum xskf_hints_in's order (core/hints_in.c names them the same) */
	c->eo.hints_in = (enum xskf_hints_in)i;
	return 0;
}

HANDLER(set_idle)
{
	static const char *const w[] = { "busy", "adaptive", "sleep" };
	static const enum xskf_idle m[] = { XSKF_IDLE_BUSY, XSKF_IDLE_ADAPTIVE, XSKF_IDLE_SLEEP };
	int i = word_of("--idle", arg, w, 3);

	if (i < 0)
		return i;
	c->eo.idle = m[i];
	return 0;
}

HANDLER(set_napi)
{
	struct xskf_engine_opts t = { .sz = sizeof(t), .napi = arg };

	/* said here, before any set-up, by the XDP backend's check; the engine checks it again */
	c->eo.napi = arg;
	return xskf_backend__check(&t);
}

HANDLER(set_cpus)
{
	c->eo.cpus = arg;
	return xskf_parse_cpus(arg, c->cpus, XSKF_MAX_WORKERS, &c->nr_cpus);
}

HANDLER(set_huge)
{
	static const char *const w[] = { "auto", "require", "off" };
	static const unsigned int m[] = { XSKF_HUGEPAGES_AUTO, XSKF_HUGEPAGES_REQUIRE,
					  XSKF_HUGEPAGES_OFF };
	int i = word_of("--hugepages", arg, w, 3);

	if (i < 0)
		return i;
	c->eo.hugepages = XSKF_HUGEPAGES_SET(m[i]);
	return 0;
}

HANDLER(set_huge_size)
{
	int err = xskf_huge__parse_size(arg, &c->eo.huge_page_size);

	if (err)
		pr_warn("invalid --huge-size '%s': use 2M or 1G\n", arg);
	return err;
}

HANDLER(set_frame)
{
	int err = parse_u32("frame size", arg, 0, UINT32_MAX, &c->eo.frame_size);

	if (!err && c->eo.frame_size != 2048 && c->eo.frame_size != 4096) {
		pr_warn("invalid frame size %s: use 2048 or 4096\n", arg);
		err = -EINVAL;
	}
	return err;
}

static int add_steer(struct xskf_cli *c, const char *arg, bool file)
{
	if (c->nr_steer == XSKF_CLI_MAX_STEER) {
		pr_warn("too many --steer and --steer-file: at most %d; put the rules in one file\n",
			XSKF_CLI_MAX_STEER);
		return -EINVAL;
	}
	c->steer[c->nr_steer].arg = arg;
	c->steer[c->nr_steer++].file = file;
	return 0;
}

HANDLER(set_steer)
{
	return add_steer(c, arg, false);
}

HANDLER(set_steer_file)
{
	return add_steer(c, arg, true);
}

HANDLER(set_backend)
{
	static const char *const w[] = { "xdp", "memory" };
	int i = word_of("--backend", arg, w, 2);

	if (i < 0)
		return i;
	c->eo.backend = i ? XSKF_BACKEND_MEMORY : XSKF_BACKEND_XDP;
	return 0;
}

HANDLER(set_mem_frames)
{
	unsigned long long ull = 0;

	if (parse_dec(arg, &ull) || !ull) {
		pr_warn("invalid --mem-frames '%s': use a number above 0\n", arg);
		return -EINVAL;
	}
	c->mem.frames = ull;
	return 0;
}

HANDLER(set_mem_frame)
{
	return read_frame(c, arg);
}

/* ---- the parse ---- */

/* getopt_long's table and short-option string from std_opts and the app's options. */
static size_t build_opts(struct option *lopts, char *shorts, const struct xskf_app_cli *cli,
			 size_t *nr_app)
{
	char *s = shorts;
	size_t n = 0, i;

	*s++ = ':'; /* a missing value is ':', not '?': said our way (opterr is off) */
	for (i = 0; i < NR_STD; i++) {
		lopts[n++] = (struct option){ std_opts[i].name, std_opts[i].has_arg, NULL,
					      std_opts[i].val };
		/* the short options too: an option whose value is a letter has one */
		if (std_opts[i].val < 128) {
			*s++ = (char)std_opts[i].val;
			if (std_opts[i].has_arg)
				*s++ = ':';
		}
	}
	*s = 0;
	*nr_app = 0;
	if (cli && cli->opts)
		for (; cli->opts[*nr_app].name && *nr_app < 64; (*nr_app)++)
			lopts[n++] = (struct option){ cli->opts[*nr_app].name,
						      cli->opts[*nr_app].has_arg, NULL,
						      O_APP_BASE + (int)*nr_app };
	return n;
}

/*
 * An option not in std_opts: the app's (its parse()), or unknown, said our way: getopt's own
 * messages are off (opterr), they name argv[0], which in `xskf run` is the plugin list, and
 * give no way out.
 */
static int other_opt(int opt, size_t nr_app, const struct xskf_app_cli *cli, void *app_ctx,
		     char **argv)
{
	if (opt >= O_APP_BASE && opt < O_APP_BASE + (int)nr_app && cli->parse)
		return cli->parse(app_ctx, opt - O_APP_BASE, optarg);
	if (opt == ':')
		pr_warn("option '%s' needs a value; try '%s --help'\n", argv[optind - 1], argv[0]);
	else if (optopt && optopt < 128)
		pr_warn("unrecognized option '-%c'; try '%s --help'\n", optopt, argv[0]);
	else
		pr_warn("unrecognized option '%s'; try '%s --help'\n", argv[optind - 1], argv[0]);
	return -EINVAL;
}

/* What the options say together, once all are read. */
static int check_together(const struct xskf_cli *c, int argc, char **argv)
{
	if (optind < argc) {
		pr_warn("unexpected argument '%s'; try '%s --help'\n", argv[optind], argv[0]);
		return -EINVAL;
	}
	if ((c->mem.frames || c->nr_mem_frame || c->mem.segs) &&
	    c->eo.backend != XSKF_BACKEND_MEMORY) {
		pr_warn("--mem-frames, --mem-frame and --mem-segs need --backend memory\n");
		return -EINVAL;
	}
	if (c->eo.cpus && c->eo.nr_workers > c->nr_cpus) {
		pr_warn("--workers %u needs as many CPUs in --cpus (got %u)\n", c->eo.nr_workers,
			c->nr_cpus);
		return -EINVAL;
	}
	return 0;
}

int xskf_cli__parse(struct xskf_cli *c, const struct xskf_app_cli *cli, void *app_ctx, int argc,
		    char **argv)
{
	struct option lopts[NR_STD + 64 + 1];
	char shorts[2 * NR_STD + 2];
	size_t nr_app, i;
	int opt, idx, err;

	memset(lopts, 0, sizeof(lopts));
	build_opts(lopts, shorts, cli, &nr_app);
	c->interval = 1;
	c->all_queues = true;
	/* 0, not 1: glibc's getopt then forgets all of a previous parse, also where it stopped
	 * inside a cluster of short options ("-Xv" after an error at X) */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		for (i = 0; i < NR_STD && std_opts[i].val != opt; i++)
			;
		if (i == NR_STD) {
			err = other_opt(opt, nr_app, cli, app_ctx, argv);
		} else if (opt == O_HELP || opt == O_VERSION) {
			if (opt == O_HELP)
				usage(stdout, argv[0], cli);
			else
				xskf_cli__version(stdout, argv[0]);
			c->help = true;
			return 0;
		} else {
			err = std_opts[i].set(c, optarg);
		}
		if (err)
			return err;
	}
	return check_together(c, argc, argv);
}

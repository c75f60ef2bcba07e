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
#include "backend/xdp/napi.h"

enum {
	O_IFACE = 'i', O_QUEUE = 'q', O_ZC = 'z', O_COPY = 'c', O_NATIVE = 'N', O_SKB = 'S',
	O_BUSY = 'B', O_BATCH = 'b', O_DURATION = 'd', O_FRAME = 'f', O_VERBOSE = 'v', O_HELP = 'h',
	O_NOWAKE = 'm', O_FORCE = 'F', O_VERSION = 'V',
	O_JSON = 256, O_CPUS, O_WORKERS, O_HUGE, O_RXR, O_TXR, O_FILLR, O_COMPR, O_FRAMES,
	O_NOHINTS, O_INTERVAL, O_QUIET, O_BACKEND, O_MEM_FRAMES, O_MEM_FRAME, O_MEM_SEGS, O_HUGE_DIR,
	O_HUGE_SIZE, O_CSUM_REPAIR, O_STEER, O_STEER_FILE, O_KEEP_HOST, O_NO_TX_OFFLOAD, O_IDLE,
	O_IDLE_SPIN, O_NAPI, O_PIN_DIR, O_PIN_GROUP, O_SERVE, O_SERVE_UDS, O_XSK_MAP, O_XSK_MAP_UDS, O_ATTACH,
	O_APP_BASE = 1000,
};

struct std_opt {
	const char *name;
	int val, has_arg;
	const char *arg, *help;
};

static const struct std_opt std_opts[] = {
	{ "interface", O_IFACE, 1, "IFACE", "interface to run on (repeat for more ports)" },
	{ "queue", O_QUEUE, 1, "Q", "queue id, repeatable; 'all' (default) for every RX queue" },
	{ "zero-copy", O_ZC, 0, NULL, "bind in zero-copy mode (an error where unsupported)" },
	{ "copy", O_COPY, 0, NULL, "bind in copy mode (default: zero-copy, else copy)" },
	{ "native", O_NATIVE, 0, NULL, "attach XDP in native mode (default: native, else SKB)" },
	{ "skb", O_SKB, 0, NULL, "attach XDP in SKB (generic) mode" },
	{ "attach", O_ATTACH, 1, "dispatcher|alone",
	  "through libxdp's dispatcher beside other XDP programs (default), or alone" },
	{ "busy-poll", O_BUSY, 0, NULL, "preferred busy polling (SO_PREFER_BUSY_POLL)" },
	{ "idle", O_IDLE, 1, "busy|adaptive|sleep",
	  "without frames: poll, poll then sleep in poll() (default), or sleep at once" },
	{ "idle-spin", O_IDLE_SPIN, 1, "US", "adaptive: poll this long without frames before sleeping "
	  "(default 50)" },
	{ "napi", O_NAPI, 1, "defer=N,gro-flush=NS,irq-suspend=NS",
	  "set the bound queues' NAPIs (else the device's); put back at exit (docs/idle.md)" },
	{ "batch", O_BATCH, 1, "N", "RX burst size, 1-256 (default 64)" },
	{ "duration", O_DURATION, 1, "SECONDS", "stop after this long (default: until Ctrl-C)" },
	{ "json", O_JSON, 0, NULL, "print one JSON document with all counters at exit" },
	{ "cpus", O_CPUS, 1, "LIST", "pin workers to these CPUs, one worker each: '1' or '0,2-3'" },
	{ "workers", O_WORKERS, 1, "N", "number of workers (default: one per CPU in --cpus, else 1)" },
	{ "hugepages", O_HUGE, 1, "auto|require|off", "UMEM on hugepages (default auto)" },
	{ "huge-size", O_HUGE_SIZE, 1, "2M|1G", "hugepage size (default: the mount's, else the kernel's)" },
	{ "huge-dir", O_HUGE_DIR, 1, "DIR", "UMEM in a file on this hugetlbfs mount (unlinked)" },
	{ "frame-size", O_FRAME, 1, "2048|4096", "UMEM frame size (default 2048)" },
	{ "frames", O_FRAMES, 1, "N", "UMEM frames per worker (default: fill + TX ring per socket)" },
	{ "rx-ring", O_RXR, 1, "N", "RX ring size, power of two (default 2048)" },
	{ "tx-ring", O_TXR, 1, "N", "TX ring size (default 2048)" },
	{ "fill-ring", O_FILLR, 1, "N", "fill ring size (default 2048)" },
	{ "comp-ring", O_COMPR, 1, "N", "completion ring size (default 2048)" },
	{ "no-need-wakeup", O_NOWAKE, 0, NULL, "turn need_wakeup off" },
	{ "no-hints", O_NOHINTS, 0, NULL, "do not write RX hints in front of frames" },
	{ "force", O_FORCE, 0, NULL, "replace a foreign XDP program until exit (it is put back)" },
	{ "csum-repair", O_CSUM_REPAIR, 0, NULL,
	  "finish TCP/UDP checksums a sender's TX offload left unfinished (veth's default)" },
	{ "steer", O_STEER, 1, "RULE",
	  "steering rule, repeatable, matched in order: 'udp dport 53 xsk' (docs/steering.md)" },
	{ "steer-file", O_STEER_FILE, 1, "FILE", "steering rules from a file, one a line (# comments)" },
	{ "keep-host", O_KEEP_HOST, 0, NULL,
	  "the host keeps its ARP, ICMPv6 (ND) and frames to its own addresses" },
	{ "no-tx-offload", O_NO_TX_OFFLOAD, 0, NULL,
	  "no TX metadata: checksums by xskf in software, no TX timestamps or launch times" },
	{ "serve", O_SERVE, 1, "QUEUES",
	  "keep these queues for other AF_XDP apps' sockets (pinned XSKMAP); our rules apply there" },
	{ "pin-dir", O_PIN_DIR, 1, "DIR",
	  "pin the XSKMAP and rule maps in DIR/IFACE/ on bpffs (default with --serve: /sys/fs/bpf/xskf)" },
	{ "pin-group", O_PIN_GROUP, 1, "GROUP", "the group that may open the pinned maps (default: none)" },
	{ "serve-uds", O_SERVE_UDS, 1, "PATH",
	  "hand out the XSKMAP on this socket, the AF_XDP device plugin's protocol (DPDK use_cni)" },
	{ "xsk-map", O_XSK_MAP, 1, "PATH",
	  "be served: our sockets into this pinned XSKMAP, no program of ours (CAP_NET_RAW only)" },
	{ "xsk-map-uds", O_XSK_MAP_UDS, 1, "PATH",
	  "be served: the XSKMAP from this device-plugin socket (/xsk_map_fd), no program of ours" },
	{ "interval", O_INTERVAL, 1, "SECONDS", "stats interval (default 1)" },
	{ "quiet", O_QUIET, 0, NULL, "no per-interval stats lines" },
	{ "backend", O_BACKEND, 1, "xdp|memory",
	  "xdp (default), or rings in plain memory with no kernel: to measure xskf's own cost" },
	{ "mem-frames", O_MEM_FRAMES, 1, "N", "memory backend: stop after N frames per worker" },
	{ "mem-frame", O_MEM_FRAME, 1, "FILE", "memory backend: the frame received (raw bytes); once per port for "
	  "different frames (none: that port receives nothing)" },
	{ "mem-segs", O_MEM_SEGS, 1, "N", "memory backend: each frame in N buffers "
	  "(multi-buffer, 1..56: above 48 dropped as too long; apps that take frags)" },
	{ "verbose", O_VERBOSE, 0, NULL, "more messages (repeat for debug)" },
	{ "version", O_VERSION, 0, NULL, "versions of xskf, the plugin ABI, libbpf and libxdp" },
	{ "help", O_HELP, 0, NULL, "this text" },
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

int xskf_cli__parse(struct xskf_cli *c, const struct xskf_app_cli *cli, void *app_ctx, int argc,
		    char **argv)
{
	struct option lopts[NR_STD + 64 + 1];
	char shorts[2 * NR_STD + 2], *s = shorts;
	size_t n = 0, i, nr_app = 0;
	unsigned long long ull;
	uint32_t v;
	int opt, idx, err = 0;

	memset(lopts, 0, sizeof(lopts));
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
	if (cli && cli->opts)
		for (; cli->opts[nr_app].name && nr_app < 64; nr_app++)
			lopts[n++] = (struct option){ cli->opts[nr_app].name,
						      cli->opts[nr_app].has_arg, NULL,
						      O_APP_BASE + (int)nr_app };
	c->interval = 1;
	c->all_queues = true;
	/* 0, not 1: glibc's getopt then forgets all of a previous parse, also where it stopped
	 * inside a cluster of short options ("-Xv" after an error at X) */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		switch (opt) {
		case O_IFACE:
			if (c->nr_ifaces == XSKF_MAX_PORTS) {
				pr_warn("too many interfaces: at most %d\n", XSKF_MAX_PORTS);
				return -EINVAL;
			}
			c->ifaces[c->nr_ifaces++] = optarg;
			break;
		case O_QUEUE:
			if (!strcmp(optarg, "all")) {
				c->all_queues = true;
				break;
			}
			if (c->nr_queues == XSKF_MAX_QUEUES)
				return -EINVAL;
			if (parse_u32("queue id", optarg, 0, XSKF_MAX_QUEUES - 1, &v))
				return -EINVAL;
			c->queues[c->nr_queues++] = v;
			c->all_queues = false;
			break;
		case O_ZC:
			c->eo.bind_mode = XSKF_BIND_ZEROCOPY;
			break;
		case O_COPY:
			c->eo.bind_mode = XSKF_BIND_COPY;
			break;
		case O_NATIVE:
			c->eo.attach_mode = XSKF_ATTACH_NATIVE;
			break;
		case O_SKB:
			c->eo.attach_mode = XSKF_ATTACH_SKB;
			break;
		case O_ATTACH:
			if (!strcmp(optarg, "dispatcher")) {
				c->eo.xdp_alone = false;
			} else if (!strcmp(optarg, "alone")) {
				c->eo.xdp_alone = true;
			} else {
				pr_warn("--attach takes dispatcher or alone, not '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		case O_BUSY:
			c->eo.busy_poll = true;
			break;
		case O_IDLE:
			if (!strcmp(optarg, "adaptive")) {
				c->eo.idle = XSKF_IDLE_ADAPTIVE;
			} else if (!strcmp(optarg, "busy")) {
				c->eo.idle = XSKF_IDLE_BUSY;
			} else if (!strcmp(optarg, "sleep")) {
				c->eo.idle = XSKF_IDLE_SLEEP;
			} else {
				pr_warn("invalid --idle '%s': use busy, adaptive or sleep\n", optarg);
				err = -EINVAL;
			}
			break;
		case O_IDLE_SPIN:
			err = parse_u32("--idle-spin", optarg, 1, 1000000, &c->eo.idle_spin_us);
			break;
		case O_NAPI: {
			struct xskf_napi_req r;

			/* said here, before any set-up; the engine parses it again */
			err = xskf_napi__parse(optarg, &r);
			c->eo.napi = optarg;
			break;
		}
		case O_BATCH:
			err = parse_u32("batch size", optarg, 1, XSKF_MAX_BATCH, &c->eo.batch);
			break;
		case O_DURATION:
			err = parse_u32("duration", optarg, 1, 1000000, &c->duration);
			break;
		case O_JSON:
			c->json = true;
			break;
		case O_CPUS:
			c->eo.cpus = optarg;
			err = xskf_parse_cpus(optarg, c->cpus, XSKF_MAX_WORKERS, &c->nr_cpus);
			break;
		case O_WORKERS:
			err = parse_u32("worker count", optarg, 1, XSKF_MAX_WORKERS, &c->eo.nr_workers);
			break;
		case O_HUGE:
			if (!strcmp(optarg, "auto"))
				c->eo.hugepages = XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_AUTO);
			else if (!strcmp(optarg, "require"))
				c->eo.hugepages = XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_REQUIRE);
			else if (!strcmp(optarg, "off"))
				c->eo.hugepages = XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF);
			else {
				pr_warn("invalid --hugepages '%s': use auto, require or off\n",
					optarg);
				err = -EINVAL;
			}
			break;
		case O_HUGE_SIZE:
			err = xskf_huge__parse_size(optarg, &c->eo.huge_page_size);
			if (err)
				pr_warn("invalid --huge-size '%s': use 2M or 1G\n", optarg);
			break;
		case O_HUGE_DIR:
			c->eo.huge_dir = optarg;
			break;
		case O_FRAME:
			err = parse_u32("frame size", optarg, 0, UINT32_MAX, &c->eo.frame_size);
			if (!err && c->eo.frame_size != 2048 && c->eo.frame_size != 4096) {
				pr_warn("invalid frame size %s: use 2048 or 4096\n", optarg);
				err = -EINVAL;
			}
			break;
		case O_FRAMES:
			err = parse_u32("frame count", optarg, 64, 1u << 24, &c->eo.frames);
			break;
		case O_RXR:
			err = parse_u32("RX ring size", optarg, 0, UINT32_MAX, &c->eo.rx_size);
			break;
		case O_TXR:
			err = parse_u32("TX ring size", optarg, 0, UINT32_MAX, &c->eo.tx_size);
			break;
		case O_FILLR:
			err = parse_u32("fill ring size", optarg, 0, UINT32_MAX, &c->eo.fill_size);
			break;
		case O_COMPR:
			err = parse_u32("completion ring size", optarg, 0, UINT32_MAX, &c->eo.comp_size);
			break;
		case O_NOWAKE:
			c->eo.no_need_wakeup = true;
			break;
		case O_NOHINTS:
			c->eo.no_hints = true;
			break;
		case O_FORCE:
			c->eo.force = true;
			break;
		case O_CSUM_REPAIR:
			c->eo.csum_repair = true;
			break;
		case O_NO_TX_OFFLOAD:
			c->eo.no_tx_meta = true;
			break;
		case O_STEER:
		case O_STEER_FILE:
			if (c->nr_steer == XSKF_CLI_MAX_STEER) {
				pr_warn("too many --steer and --steer-file: at most %d; put the rules "
					"in one file\n", XSKF_CLI_MAX_STEER);
				return -EINVAL;
			}
			c->steer[c->nr_steer].arg = optarg;
			c->steer[c->nr_steer++].file = opt == O_STEER_FILE;
			break;
		case O_KEEP_HOST:
			c->keep_host = true;
			break;
		case O_SERVE:
			c->eo.serve = optarg;
			break;
		case O_PIN_DIR:
			c->eo.pin_dir = optarg;
			break;
		case O_PIN_GROUP:
			c->eo.pin_group = optarg;
			break;
		case O_SERVE_UDS:
			c->eo.serve_uds = optarg;
			break;
		case O_XSK_MAP:
			c->eo.xsk_map = optarg;
			break;
		case O_XSK_MAP_UDS:
			c->eo.xsk_map_uds = optarg;
			break;
		case O_INTERVAL:
			err = parse_u32("interval", optarg, 1, 3600, &c->interval);
			break;
		case O_QUIET:
			c->quiet = true;
			break;
		case O_BACKEND:
			if (!strcmp(optarg, "xdp")) {
				c->eo.backend = XSKF_BACKEND_XDP;
			} else if (!strcmp(optarg, "memory")) {
				c->eo.backend = XSKF_BACKEND_MEMORY;
			} else {
				pr_warn("invalid --backend '%s': use xdp or memory\n", optarg);
				err = -EINVAL;
			}
			break;
		case O_MEM_FRAMES:
			if (parse_dec(optarg, &ull) || !ull) {
				pr_warn("invalid --mem-frames '%s': use a number above 0\n",
					optarg);
				err = -EINVAL;
			}
			c->mem.frames = ull;
			break;
		case O_MEM_FRAME:
			err = read_frame(c, optarg);
			break;
		case O_MEM_SEGS:
			err = parse_u32("--mem-segs", optarg, 1, XSKF_MAX_SEGS + 8, &c->mem.segs);
			break;
		case O_VERBOSE:
			c->verbose++;
			break;
		case O_HELP:
			usage(stdout, argv[0], cli);
			c->help = true;
			return 0;
		case O_VERSION:
			xskf_cli__version(stdout, argv[0]);
			c->help = true;
			return 0;
		default:
			if (opt >= O_APP_BASE && opt < O_APP_BASE + (int)nr_app && cli->parse) {
				err = cli->parse(app_ctx, opt - O_APP_BASE, optarg);
				break;
			}
			/* getopt's own messages are off (opterr): they name argv[0], which in
			 * `xskf run` is the plugin list, and give no way out */
			if (opt == ':')
				pr_warn("option '%s' needs a value; try '%s --help'\n",
					argv[optind - 1], argv[0]);
			else if (optopt && optopt < 128)
				pr_warn("unrecognized option '-%c'; try '%s --help'\n",
					optopt, argv[0]);
			else
				pr_warn("unrecognized option '%s'; try '%s --help'\n",
					argv[optind - 1], argv[0]);
			return -EINVAL;
		}
		if (err)
			return err;
	}
	if (optind < argc) {
		pr_warn("unexpected argument '%s'; try '%s --help'\n", argv[optind],
			argv[0]);
		return -EINVAL;
	}
	if ((c->mem.frames || c->nr_mem_frame || c->mem.segs) &&
	    c->eo.backend != XSKF_BACKEND_MEMORY) {
		pr_warn("--mem-frames, --mem-frame and --mem-segs need --backend memory\n");
		return -EINVAL;
	}
	if (c->eo.cpus && c->eo.nr_workers > c->nr_cpus) {
		pr_warn("--workers %u needs as many CPUs in --cpus (got %u)\n",
			c->eo.nr_workers, c->nr_cpus);
		return -EINVAL;
	}
	return 0;
}

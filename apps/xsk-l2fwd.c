// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-l2fwd: layer-2 forwarding with AF_XDP.
 *
 *   --mode macswap (default)  swap source and destination MAC, send the frame back out of the
 *                             port and queue it came from (as xdpsock's l2fwd does)
 *   --mode fwd                exactly two ports: frames from port 0 leave by port 1 and back;
 *                             --dst-mac-0/--dst-mac-1 rewrite the destination MAC of frames
 *                             leaving port 0/1, and then the source MAC becomes that port's own
 *
 *   xsk-l2fwd -i veth0 --cpus 1
 *   xsk-l2fwd -i a0 -i b0 --mode fwd --dst-mac-1 02:00:00:00:00:02 --dst-mac-0 02:00:00:00:00:01
 *
 * Frames are never copied: forwarding from one port to the other moves the UMEM address from
 * one socket's RX ring to another's TX ring (both sockets share the worker's UMEM).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <xskf_plugin.h>

#define ETH_ALEN 6
#define ETH_HLEN 14

enum l2fwd_mode { MODE_MACSWAP, MODE_FWD };

/*
 * The counters live in the runner's per-worker arrays (xskf_worker_info.counters: one writer,
 * shown each second, in --json and `xskfctl stats`); the worker's context is its array.
 */
enum { C_FRAMES, C_RUNTS };
static const char *const l2fwd_counters[] = { "frames", "runts", NULL };

struct l2fwd {
	enum l2fwd_mode mode;
	bool rewrite[2];	      /* fwd: rewrite MACs of frames leaving port i */
	uint8_t dst_mac[2][ETH_ALEN]; /* fwd: new destination per output port */
	uint8_t src_mac[2][ETH_ALEN]; /* fwd: that port's own MAC, read before set-up */
	uint64_t *ctr[XSKF_MAX_WORKERS]; /* each worker's counters */
	/* for a caller without the runner's counters (wi->counters NULL) */
	uint64_t own[XSKF_MAX_WORKERS][8] __attribute__((aligned(64)));
};

/*
 * Check the ports before any set-up (configure: no socket, no program yet, so a refusal
 * leaves nothing behind and says one line): a port that is down or has no carrier would
 * swallow what we send to it, and in fwd mode a larger MTU on the input side than on the
 * output side would make the output drop frames silently. Frames larger than a UMEM frame
 * never reach us: the kernel drops them (rx_dropped), and the framework says so once at
 * start-up with the MTU that fits.
 */
static int l2fwd_configure(void *app_ctx, struct xskf_engine *eng)
{
	struct l2fwd *l = app_ctx;
	unsigned int i, nr = xskf_engine__nr_ports(eng);
	int mtu[XSKF_MAX_PORTS], err;

	if (l->mode == MODE_FWD && nr != 2) {
		fprintf(stderr, "l2fwd: --mode fwd needs exactly two interfaces (-i A -i B)\n");
		return -EINVAL;
	}
	for (i = 0; i < nr; i++) {
		const char *name = xskf_engine__port_name(eng, i);
		struct xskf_port_info pi = { .sz = sizeof(pi) };

		err = xskf_engine__port_info(eng, i, &pi);
		if (err) {
			fprintf(stderr, "l2fwd: cannot read %s: %s\n", name, strerror(-err));
			return err;
		}
		if (!pi.up || !pi.running) {
			fprintf(stderr,
				"l2fwd: interface %s is %s: bring it (and its peer) up\n", name,
				!pi.up ? "down" : "up but has no carrier");
			return -ENETDOWN;
		}
		mtu[i] = (int)pi.mtu;
		if (i < 2)
			memcpy(l->src_mac[i], pi.mac, ETH_ALEN);
	}
	if (l->mode == MODE_FWD && mtu[0] != mtu[1]) {
		fprintf(
		    stderr, "l2fwd: MTU mismatch: %s has %d, %s has %d; set both the same\n",
		    xskf_engine__port_name(eng, 0), mtu[0], xskf_engine__port_name(eng, 1), mtu[1]);
		return -EINVAL;
	}
	return 0;
}

static int l2fwd_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct l2fwd *l = app_ctx;

	l->ctr[wi->id] = wi->counters ? wi->counters : l->own[wi->id];
	*wctx = l->ctr[wi->id];
	return 0;
}

/* Swap the two addresses: four loads and four stores (through a 6-byte buffer it takes ten). */
static inline void mac_swap(uint8_t *eth)
{
	uint32_t d0, s0;
	uint16_t d1, s1;

	memcpy(&d0, eth, 4);
	memcpy(&d1, eth + 4, 2);
	memcpy(&s0, eth + 6, 4);
	memcpy(&s1, eth + 10, 2);
	memcpy(eth, &s0, 4);
	memcpy(eth + 4, &s1, 2);
	memcpy(eth + 6, &d0, 4);
	memcpy(eth + 10, &d1, 2);
}

static void macswap_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	uint64_t *ctr = wctx;
	unsigned int i;

	/* two frames per turn: the loop's compare and branch paid once per two (callgrind) */
#pragma GCC unroll 2
	for (i = 0; i < n; i++) {
		if (__builtin_expect(pkts[i].len < ETH_HLEN, 0)) {
			ctr[C_RUNTS]++; /* verdict stays XSKF_DROP */
			continue;
		}
		mac_swap(pkts[i].data);
		pkts[i].action = XSKF_TX;
	}
	ctr[C_FRAMES] += n;
}

static struct l2fwd fwd;

static void fwd_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	uint64_t *ctr = wctx;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		unsigned int out = p->port ^ 1u;

		if (__builtin_expect(p->len < ETH_HLEN, 0)) {
			ctr[C_RUNTS]++;
			continue;
		}
		if (fwd.rewrite[out]) {
			memcpy(p->data, fwd.dst_mac[out], ETH_ALEN);
			memcpy(p->data + ETH_ALEN, fwd.src_mac[out], ETH_ALEN);
		}
		p->out_port = (uint16_t)out;
		p->action = XSKF_FWD;
	}
	ctr[C_FRAMES] += n;
}

static void l2fwd_json(void *app_ctx, struct xskf_engine *eng, void *out)
{
	struct l2fwd *l = app_ctx;
	uint64_t runts = 0, frames = 0;
	unsigned int i;

	/* the summary the command always printed, from the same counters as "plugins" */
	for (i = 0; i < xskf_engine__nr_workers(eng); i++) {
		if (!l->ctr[i])
			continue;
		runts += __atomic_load_n(&l->ctr[i][C_RUNTS], __ATOMIC_RELAXED);
		frames += __atomic_load_n(&l->ctr[i][C_FRAMES], __ATOMIC_RELAXED);
	}
	fprintf(out, "{\"mode\": \"%s\", \"frames\": %llu, \"drop_runt\": %llu}",
		l->mode == MODE_FWD ? "fwd" : "macswap", (unsigned long long)frames,
		(unsigned long long)runts);
}

static const struct xskf_cli_opt l2fwd_opts[] = {
    {"mode", 1, "macswap|fwd", "macswap (default): back out of the same port; fwd: A <-> B"},
    {"dst-mac-0", 1, "MAC", "fwd: destination MAC of frames leaving port 0 (first -i)"},
    {"dst-mac-1", 1, "MAC", "fwd: destination MAC of frames leaving port 1 (second -i)"},
    {NULL, 0, NULL, NULL},
};

static int l2fwd_parse(void *ctx, int idx, const char *arg)
{
	struct l2fwd *l = ctx;

	switch (idx) {
	case 0:
		if (!strcmp(arg, "macswap"))
			l->mode = MODE_MACSWAP;
		else if (!strcmp(arg, "fwd"))
			l->mode = MODE_FWD;
		else {
			fprintf(stderr, "l2fwd: invalid --mode '%s': use macswap or fwd\n", arg);
			return -EINVAL;
		}
		return 0;
	case 1:
	case 2:
		if (xskf_mac__parse(arg, l->dst_mac[idx - 1])) {
			fprintf(stderr, "l2fwd: invalid MAC address '%s': use e.g. 02:00:00:00:00:01\n",
				arg);
			return -EINVAL;
		}
		l->rewrite[idx - 1] = true;
		return 0;
	}
	return -EINVAL;
}

static int l2fwd_check(void *ctx, struct xskf_engine_opts *eo)
{
	struct l2fwd *l = ctx;

	if (l->mode == MODE_MACSWAP && (l->rewrite[0] || l->rewrite[1])) {
		fprintf(stderr, "l2fwd: --dst-mac-0/--dst-mac-1 need --mode fwd\n");
		return -EINVAL;
	}
	(void)eo;
	return 0;
}

/* The burst callback depends on the mode: picked once, not per frame. */
static void (*l2fwd_burst_for(void *ctx))(void *, struct xskf_pkt *, unsigned int)
{
	const struct l2fwd *l = ctx;

	return l->mode == MODE_FWD ? fwd_burst : macswap_burst;
}

static const struct xskf_app l2fwd_app = {
	.name = "xsk-l2fwd",
	/* it reads the Ethernet header of every frame (in the first buffer), and no hint: no
	 * meta written for it */
	.flags = XSKF_APP_F_FORWARDS | XSKF_APP_F_FRAGS | XSKF_APP_F_HINTS,
	.hints = 0,
	.configure = l2fwd_configure,
	.worker_init = l2fwd_worker_init,
	.rx_burst = macswap_burst,
	.json = l2fwd_json,
};
static const struct xskf_app_cli l2fwd_cli = {
	.sz = sizeof(l2fwd_cli),
	.summary = "Forward frames with AF_XDP: MAC swap back out of the same port, or A <-> B.",
	.opts = l2fwd_opts,
	.parse = l2fwd_parse,
	.check = l2fwd_check,
	.rx_burst_for = l2fwd_burst_for,
};

XSKF_PLUGIN(.name = "l2fwd", .app = &l2fwd_app, .app_ctx = &fwd, .cli = &l2fwd_cli,
	    .counters = l2fwd_counters);

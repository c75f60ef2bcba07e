// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-tunnel: a VXLAN tunnel endpoint (VTEP) between an access port and an underlay port.
 *
 *   access  --(Ethernet)-->  encap: outer Ethernet/IPv4|IPv6/UDP 4789/VXLAN  --> underlay
 *   access  <--(Ethernet)--  decap: VXLAN to our address with a known VNI    <-- underlay
 *
 *   sudo xsk-tunnel -i ACCESS -i UNDERLAY --config tunnels.conf
 *
 * The tunnel table (tunnel_config.c) is read by the workers under liburcu-qsbr and replaced on
 * SIGHUP with no pause: the control thread builds the new table, publishes it with one pointer
 * store and frees the old one after a grace period. Everything on the underlay that is not
 * VXLAN for us is dropped and counted by reason (see docs/tunnel.md for why not "passed").
 */
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <urcu-qsbr.h>

#include <xskf_hints.h>
#include <xskf_plugin.h>
#include <xskf_tx.h>

#include "tunnel_config.h"
#include "tunnel_pmtu.h"
#include "tunnel_vxlan.h"

#define PORT_ACCESS   0
#define PORT_UNDERLAY 1

struct tunnel {
	const char *config;
	bool forward_only;        /* baseline for benchmarks: forward both ways, unchanged */
	bool policy_pass;         /* underlay frames that are not VXLAN go to the kernel */
	uint32_t icmp_rate;       /* ICMP "too big" messages per second per worker (0: none) */
	uint32_t icmp_burst;      /* and at most this many at once (the token bucket's size) */
	bool csum_repair;         /* --csum-repair: finish the inner checksums after decap */
	bool tx_csum;             /* --tx-csum: ask for the outer UDP checksum (xskf_tx.h) */
	struct tun_table *table;  /* RCU-protected: rcu_dereference() on workers */
	struct tun_underlay ul;   /* set in init(), read-only afterwards */
	pthread_mutex_t lock;     /* guards totals, which workers add to when they end */
	uint64_t totals[TUN_CTR_MAX];
	uint64_t reloads, reload_errors;
};

struct tunnel_worker {
	struct tunnel *tun;
	uint16_t ip_id;
	struct tun_pmtu_bucket pmtu; /* this worker's ICMP "too big" token bucket */
	uint64_t *ctr;             /* the runner's counters of this worker (shown each second) */
	uint64_t own[TUN_CTR_MAX]; /* or these, where there are none */
};

/*
 * A frame too large for its tunnel: answered with ICMP "too big" back out of the access port,
 * or dropped. Off the common path: only frames encap refused for their size come here, so it
 * is kept out of line (noinline, cold), away from the burst loop's instructions.
 */
static __attribute__((noinline, cold)) void
too_big(struct tunnel_worker *w, const struct tun_table *t, struct xskf_pkt *p, uint64_t *now_ns)
{
	enum tun_ctr c;

	/* the answer quotes the first bytes: a jumbo frame's first buffer, sent alone */
	p->frags = 0;
	c = tun_pmtu__answer(&w->pmtu, t, &w->tun->ul, p, now_ns);

	w->ctr[c]++;
	if (c == TUN_PMTU_ICMP4 || c == TUN_PMTU_ICMP6)
		p->action = XSKF_TX;
}

static void tunnel_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct tunnel_worker *w = wctx;
	struct tunnel *tun = w->tun;
	const struct tun_table *t;
	uint64_t now_ns = 0; /* the burst's time, read once a frame needs it (tunnel_pmtu.h) */
	unsigned int i;

	if (tun->forward_only) {
		for (i = 0; i < n; i++) {
			pkts[i].action = XSKF_FWD;
			pkts[i].out_port = pkts[i].port ^ 1;
		}
		return;
	}
	/*
	 * One read-side dereference per burst: the worker loop reports a quiescent state only
	 * between iterations, so the table stays valid until this burst is done.
	 */
	t = rcu_dereference(tun->table);
	for (i = 0; i < n; i++) {
		struct xskf_pkt *p = &pkts[i];
		enum tun_ctr c;

		if (p->port == PORT_ACCESS) {
			c = tun_vxlan__encap(t, &tun->ul, p, &w->ip_id);
			p->out_port = PORT_UNDERLAY;
		} else {
			c = tun_vxlan__decap(t, p);
			p->out_port = PORT_ACCESS;
		}
		w->ctr[c]++;
		/* expected: keeps the forwarded frames' path straight (no jump back per frame) */
		if (__builtin_expect(c == TUN_ENCAP || c == TUN_DECAP, 1))
			p->action = XSKF_FWD;
		else if (c == TUN_ENC_MTU)
			too_big(w, t, p, &now_ns);
	}
	/*
	 * --csum-repair: the kernel's VXLAN leaves the inner frame's TCP/UDP checksum for the
	 * underlay's NIC, as the framework found the outer one. A second pass, so that the loop
	 * above costs nothing more without the option.
	 */
	if (tun->csum_repair)
		for (i = 0; i < n; i++)
			if (pkts[i].port == PORT_UNDERLAY && pkts[i].action == XSKF_FWD)
				xskf_pkt__csum_finish(&pkts[i]);
}

static int tunnel_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct tunnel_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->tun = app_ctx;
	w->ctr = wi->counters ? wi->counters : w->own;
	w->ip_id = (uint16_t)(wi->id << 12); /* workers start their IPv4 ids apart */
	tun_pmtu__bucket_init(&w->pmtu, w->tun->icmp_rate, w->tun->icmp_burst);
	*wctx = w;
	return 0;
}

static void tunnel_worker_fini(void *app_ctx, void *wctx)
{
	struct tunnel *tun = app_ctx;
	struct tunnel_worker *w = wctx;
	unsigned int i;

	pthread_mutex_lock(&tun->lock);
	for (i = 0; i < TUN_CTR_MAX; i++)
		tun->totals[i] += w->ctr[i];
	pthread_mutex_unlock(&tun->lock);
	free(w);
}

/* The underlay's MAC (outer source) and MTU (largest outer packet), from the kernel. */
static int read_underlay(struct xskf_engine *eng, struct tun_underlay *ul)
{
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	int err = xskf_engine__port_info(eng, PORT_UNDERLAY, &pi);

	if (err)
		return err;
	memcpy(ul->mac, pi.mac, 6);
	ul->mtu = pi.mtu;
	return 0;
}

static int tunnel_init(void *app_ctx, struct xskf_engine *eng)
{
	struct tunnel *tun = app_ctx;
	const char *ifname = xskf_engine__port_name(eng, PORT_UNDERLAY);
	int err = read_underlay(eng, &tun->ul);

	tun->csum_repair = xskf_engine__csum_repair(eng);
	if (err) {
		fprintf(stderr, "tunnel: %s: cannot read MAC/MTU: %s\n", ifname,
			strerror(-err));
		return err;
	}
	if (tun->tx_csum) {
		enum xskf_tx_how how[3];

		/*
		 * Only where the kernel or the device does it: asking where xskf would compute
		 * it in software is the same sum, with a detour (docs/tx-offloads.md).
		 */
		tun->ul.tx_csum = !xskf_engine__tx_offload(eng, PORT_UNDERLAY, how) &&
				  (how[0] == XSKF_TXH_DEVICE || how[0] == XSKF_TXH_KERNEL);
		fprintf(stderr, "tunnel: --tx-csum: outer UDP checksums (IPv6 underlay) %s\n",
			tun->ul.tx_csum ? "by TX offload"
					: "computed here: the underlay has no checksum offload");
	}
	return 0;
}

/*
 * Re-read the config; a bad file keeps the running table. One line into @msg either way.
 * Returns 0 or -EINVAL. Control thread (tick on SIGHUP, or `xskfctl tunnel reload`).
 */
static int tunnel_reload(struct tunnel *tun, char *msg, size_t len)
{
	struct tun_table *nt, *old;
	char err[512];

	if (tun->forward_only) {
		snprintf(msg, len, "no table to reload with --forward");
		return -EINVAL;
	}
	nt = tun_config__load(tun->config, err, sizeof(err));
	if (!nt) {
		tun->reload_errors++;
		snprintf(msg, len, "reload rejected, table unchanged: %s", err);
		return -EINVAL;
	}
	old = tun->table;
	/* the store orders the new table's contents before the pointer (release) */
	rcu_assign_pointer(tun->table, nt);
	/* every worker passes a quiescent state between bursts: then nobody sees @old */
	synchronize_rcu();
	tun_table__free(old);
	tun->reloads++;
	snprintf(msg, len, "reloaded %s: %u entries, %s default, %u VNIs", tun->config,
		 nt->nr_entries, nt->has_default ? "with" : "no", nt->nr_vnis);
	return 0;
}

/* Control thread: SIGHUP reloads the config. */
static void tunnel_tick(void *app_ctx, struct xskf_engine *eng)
{
	char msg[700];

	(void)eng;
	if (!xskf_app__sighup() || ((struct tunnel *)app_ctx)->forward_only)
		return;
	tunnel_reload(app_ctx, msg, sizeof(msg));
	fprintf(stderr, "tunnel: %s\n", msg);
}

/* `xskfctl tunnel reload` */
static int tunnel_command(void *app_ctx, const char *args, char *reply, size_t len)
{
	int err;

	if (strcmp(args, "reload")) {
		snprintf(reply, len, "unknown command '%s': the tunnel takes 'reload'", args);
		return -EINVAL;
	}
	err = tunnel_reload(app_ctx, reply, len);
	fprintf(stderr, "tunnel: %s (xskfctl)\n", reply);
	return err;
}

static void tunnel_json(void *app_ctx, struct xskf_engine *eng, void *out)
{
	struct tunnel *tun = app_ctx;
	FILE *f = out;
	unsigned int i;

	(void)eng;
	fprintf(f, "{\"mode\": \"%s\", \"sport_hash\": \"%s\", \"reloads\": %llu, "
		   "\"reload_errors\": %llu",
		tun->forward_only ? "forward" : "vxlan",
#if __has_include(<xskf_hints.h>)
		"hw_hint_else_sw",
#else
		"sw",
#endif
		(unsigned long long)tun->reloads, (unsigned long long)tun->reload_errors);
	for (i = 0; i < TUN_CTR_MAX; i++)
		fprintf(f, ", \"%s\": %llu", tun_ctr_names[i], (unsigned long long)tun->totals[i]);
	fprintf(f, "}");
}

static const struct xskf_cli_opt tunnel_opts[] = {
	{ "config", 1, "FILE", "tunnel table (docs/tunnel.md); re-read on SIGHUP" },
	{ "forward", 0, NULL, "no tunnel: forward frames unchanged between the ports (baseline)" },
	{ "policy", 1, "drop|pass",
	  "underlay frames that are not VXLAN: dropped and counted (default), or passed to the "
	  "kernel (it then answers ARP/ND and ping for the VTEP address)" },
	{ "icmp-rate", 1, "N",
	  "ICMP 'fragmentation needed' / ICMPv6 'packet too big' sent per second per worker for "
	  "frames too large for the tunnel (default 1000; 0: none)" },
	{ "icmp-burst", 1, "N", "and at most N of them at once (default 50)" },
	{ "tx-csum", 0, NULL, "outer UDP checksums (IPv6 underlay) by TX offload where the underlay has it" },
	{ NULL, 0, NULL, NULL },
};

/* A number of 0..@max (@min..@max) for option @name, or -EINVAL and one line. */
static int parse_count(const char *name, const char *arg, uint32_t min, uint32_t max,
		       const char *what, uint32_t *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "tunnel: invalid --%s '%s': %s, a whole number from %u to %u\n",
			name, arg, what, min, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int tunnel_parse(void *app_ctx, int idx, const char *arg)
{
	struct tunnel *tun = app_ctx;

	if (idx == 3)
		return parse_count("icmp-rate", arg, 0, TUN_PMTU_RATE_MAX,
				   "ICMP messages per second per worker (0: none)", &tun->icmp_rate);
	if (idx == 4)
		return parse_count("icmp-burst", arg, 1, TUN_PMTU_BURST_MAX,
				   "ICMP messages a worker may send at once", &tun->icmp_burst);
	if (idx == 5) {
		tun->tx_csum = true;
		return 0;
	}
	if (idx == 0)
		tun->config = arg;
	else if (idx == 1)
		tun->forward_only = true;
	else if (idx == 2 && !strcmp(arg, "pass"))
		tun->policy_pass = true;
	else if (idx == 2 && strcmp(arg, "drop")) {
		fprintf(stderr, "tunnel: invalid --policy '%s': use drop or pass\n", arg);
		return -EINVAL;
	}
	return 0;
}

/*
 * --policy pass: the underlay's XDP program sends only UDP to the VXLAN port to our sockets;
 * the kernel gets the rest. VXLAN frames that are not ours (address, VNI, flags) still reach
 * the app and are dropped and counted by reason.
 */
static int tunnel_configure(void *app_ctx, struct xskf_engine *eng)
{
	struct tunnel *tun = app_ctx;
	char rule[32], err[320];
	int ret;

	/*
	 * The access side's frames are addressed to the hosts behind the remote VTEPs, not to
	 * this port: a NIC drops them unless promiscuous (--forward: both sides)
	 */
	ret = xskf_engine__promisc(eng, tun->forward_only ? -1 : PORT_ACCESS);
	if (ret)
		return ret;
	if (!tun->policy_pass || tun->forward_only)
		return 0;
	/* the rule the tunnel needs: VXLAN on its underlay port to its sockets (the plugin API) */
	snprintf(rule, sizeof(rule), "udp dport %u xsk", TUN_VXLAN_PORT);
	if (xskf_engine__steer_add(eng, PORT_UNDERLAY, rule, err, sizeof(err)) < 0) {
		fprintf(stderr, "tunnel: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int tunnel_check(void *app_ctx, struct xskf_engine_opts *eo)
{
	struct tunnel *tun = app_ctx;
	char err[512];

	/* TX metadata room only when asked (xskf_tx.h) */
	eo->tx_meta = tun->tx_csum && !tun->forward_only;
	if (tun->forward_only)
		return 0;
	if (!tun->config) {
		fprintf(stderr, "tunnel: --config FILE is required (or --forward)\n");
		return -EINVAL;
	}
	tun->table = tun_config__load(tun->config, err, sizeof(err));
	if (!tun->table) {
		fprintf(stderr, "tunnel: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static const struct xskf_app tunnel_app = {
	.name = "xsk-tunnel",
	/* multi-buffer frames: the headers it reads and writes are in the first buffer (see
	 * tunnel_vxlan.c); of the hints only the driver's hash, for the outer source port */
	.flags = XSKF_APP_F_RCU_QSBR | XSKF_APP_F_FORWARDS | XSKF_APP_F_FRAGS |
		 XSKF_APP_F_HINTS,
	.hints = XSKF_HINT_HASH,
	.configure = tunnel_configure,
	.init = tunnel_init,
	.worker_init = tunnel_worker_init,
	.rx_burst = tunnel_burst,
	.tick = tunnel_tick,
	.worker_fini = tunnel_worker_fini,
	.json = tunnel_json,
};
static struct tunnel tun = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.icmp_rate = TUN_PMTU_RATE_DEFAULT,
	.icmp_burst = TUN_PMTU_BURST_DEFAULT,
};
static const struct xskf_app_cli tunnel_cli = {
	.sz = sizeof(tunnel_cli),
	.summary = "VXLAN tunnel endpoint: encapsulate frames from the first interface "
		   "(access) into the second (underlay), decapsulate the other way.",
	.opts = tunnel_opts,
	.parse = tunnel_parse,
	.check = tunnel_check,
	.min_ifaces = 2,
	.max_ifaces = 2,
};

static void tunnel_cleanup(void *app_ctx)
{
	struct tunnel *t = app_ctx;

	tun_table__free(t->table);
	t->table = NULL;
}

XSKF_PLUGIN(.name = "tunnel", .app = &tunnel_app, .app_ctx = &tun, .cli = &tunnel_cli,
	    .counters = tun_ctr_names, .command = tunnel_command, .cleanup = tunnel_cleanup);

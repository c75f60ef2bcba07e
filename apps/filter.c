// SPDX-License-Identifier: BSD-2-Clause
/*
 * filter: a chain's first stage. UDP datagrams to one destination port (--port, IPv4 or IPv6,
 * no VLAN tag) are dropped; every other frame goes on to the next plugin (XSKF_NEXT). Alone,
 * it drops everything (what XSKF_NEXT means after the last plugin), counting what it would pass.
 *
 *   xskf run filter,l2fwd -i eth0 -- --port 9
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_plugin.h>

enum { C_DROPPED, C_PASSED, C_MAX };
static const char *const filter_counters[] = { "dropped", "passed", NULL };

static struct filter {
	uint16_t port; /* network order */
} flt;

struct filter_worker {
	uint64_t *ctr;
	uint64_t own[C_MAX];
};

/* The UDP destination port of @p in network order, or 0 when it is not UDP over IP. */
static inline uint16_t udp_dport(const struct xskf_pkt *p)
{
	const uint8_t *d = p->data;
	uint32_t l4;
	uint16_t dport;

	if (p->len < 14 + 20 + 8)
		return 0;
	if (d[12] == 0x08 && d[13] == 0x00) { /* IPv4: no fragments past the first */
		if (d[14 + 9] != 17 || ((d[14 + 6] & 0x1f) | d[14 + 7]))
			return 0;
		l4 = 14 + (d[14] & 0x0f) * 4u;
	} else if (d[12] == 0x86 && d[13] == 0xdd) { /* IPv6: UDP right after the fixed header */
		if (d[14 + 6] != 17)
			return 0;
		l4 = 14 + 40;
	} else {
		return 0;
	}
	if (l4 + 8 > p->len)
		return 0;
	memcpy(&dport, d + l4 + 2, 2);
	return dport;
}

static void filter_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct filter_worker *w = wctx;
	uint16_t port = flt.port;
	unsigned int i, dropped = 0;

	for (i = 0; i < n; i++) {
		bool hit = udp_dport(&pkts[i]) == port;

		dropped += hit;
		pkts[i].action = hit ? XSKF_DROP : XSKF_NEXT;
	}
	w->ctr[C_DROPPED] += dropped;
	w->ctr[C_PASSED] += n - dropped;
}

static int filter_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct filter_worker *w = calloc(1, sizeof(*w));

	(void)app_ctx;
	if (!w)
		return -ENOMEM;
	w->ctr = wi->counters ? wi->counters : w->own;
	*wctx = w;
	return 0;
}

static void filter_worker_fini(void *app_ctx, void *wctx)
{
	(void)app_ctx;
	free(wctx);
}

static const struct xskf_cli_opt filter_opts[] = {
	{ "port", 1, "PORT", "drop UDP datagrams to this destination port (required)" },
	{ NULL, 0, NULL, NULL },
};

static int filter_parse(void *app_ctx, int idx, const char *arg)
{
	struct filter *f = app_ctx;
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	(void)idx;
	if (end == arg || *end || !v || v > 65535) {
		fprintf(stderr, "filter: invalid --port '%s': use 1 to 65535\n", arg);
		return -EINVAL;
	}
	f->port = (uint16_t)(((v & 0xff) << 8) | (v >> 8));
	return 0;
}

static int filter_check(void *app_ctx, struct xskf_engine_opts *eo)
{
	(void)eo;
	if (!((struct filter *)app_ctx)->port) {
		fprintf(stderr, "filter: --port PORT is required\n");
		return -EINVAL;
	}
	return 0;
}

static const struct xskf_app filter_app = {
	.name = "filter",
	/* it parses the frame itself (no hint read); the UDP header it reads is in the first
	 * buffer of a multi-buffer frame */
	.flags = XSKF_APP_F_HINTS | XSKF_APP_F_FRAGS,
	.hints = 0,
	.worker_init = filter_worker_init,
	.rx_burst = filter_burst,
	.worker_fini = filter_worker_fini,
};
static const struct xskf_app_cli filter_cli = {
	.sz = sizeof(filter_cli),
	.summary = "Drop UDP to one port, pass the rest to the next plugin of the chain.",
	.opts = filter_opts,
	.parse = filter_parse,
	.check = filter_check,
};

XSKF_PLUGIN(.name = "filter", .app = &filter_app, .app_ctx = &flt, .cli = &filter_cli,
	    .counters = filter_counters);

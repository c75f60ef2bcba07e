// SPDX-License-Identifier: BSD-2-Clause
/*
 * count-udp: an xskf plugin built outside the xskf tree, against an installed xskf. It counts
 * UDP datagrams (IPv4, any port) and other frames, and drops them all.
 *
 *   meson setup build && ninja -C build
 *   sudo xskf run ./build/count_udp.so -i eth0 -q 0
 */
#include <string.h>

#include <xskf_plugin.h>

enum { C_UDP, C_OTHER };
static const char *const names[] = { "udp", "other", NULL };

struct worker {
	uint64_t *ctr;
};
static struct worker workers[XSKF_MAX_WORKERS];

static int count_worker_init(void *ctx, const struct xskf_worker_info *wi, void **wctx)
{
	(void)ctx;
	workers[wi->id].ctr = wi->counters;
	*wctx = &workers[wi->id];
	return 0;
}

static void count_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct worker *w = wctx;
	unsigned int i, udp = 0;

	for (i = 0; i < n; i++) {
		const uint8_t *d = pkts[i].data;

		/* Ethernet type IPv4 and IP protocol 17 */
		udp += pkts[i].len >= 34 && d[12] == 0x08 && d[13] == 0 && d[23] == 17;
	}
	w->ctr[C_UDP] += udp;
	w->ctr[C_OTHER] += n - udp;
	/* every action is XSKF_DROP already: nothing else to do */
}

static const struct xskf_app app = {
	.name = "count-udp",
	/* it reads the headers itself and no RX hint: the XDP program then writes none */
	.flags = XSKF_APP_F_HINTS,
	.hints = 0,
	.worker_init = count_worker_init,
	.rx_burst = count_burst,
};

XSKF_PLUGIN(.name = "count-udp", .app = &app, .counters = names);

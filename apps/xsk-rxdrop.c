// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-rxdrop: receive on every given queue and drop. The framework does the rest: the frames go
 * straight back to the fill ring, and the counters say where every frame went.
 *
 *   sudo xsk-rxdrop -i eth0 -q 0
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <xskf.h>

struct rxdrop {
	bool touch; /* read the Ethernet header of each frame, as a real app would */
};

struct rxdrop_worker {
	uint64_t sum;
};

static int rxdrop_worker_init(void *app_ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct rxdrop *r = app_ctx;

	(void)wi;
	/* no worker state unless frames are to be read: rx_burst then touches nothing */
	*wctx = NULL;
	if (r->touch && !(*wctx = calloc(1, sizeof(struct rxdrop_worker))))
		return -ENOMEM;
	return 0;
}

static void rxdrop_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct rxdrop_worker *w = wctx;
	unsigned int i;

	/* verdicts start as XSKF_DROP: nothing to do unless asked to read the frames */
	if (!w)
		return;
	for (i = 0; i < n; i++)
		w->sum += pkts[i].data[12];
}

static void rxdrop_worker_fini(void *app_ctx, void *wctx)
{
	(void)app_ctx;
	free(wctx);
}

static struct rxdrop rx;

static const struct xskf_cli_opt rxdrop_opts[] = {
	{ "touch", 0, NULL, "read each frame's Ethernet type (measures a first cache miss)" },
	{ NULL, 0, NULL, NULL },
};

static int rxdrop_parse(void *ctx, int idx, const char *arg)
{
	struct rxdrop *r = ctx;

	(void)arg;
	if (idx == 0)
		r->touch = true;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct xskf_app app = {
		.name = "xsk-rxdrop",
		.worker_init = rxdrop_worker_init,
		.rx_burst = rxdrop_burst,
		.worker_fini = rxdrop_worker_fini,
	};
	struct xskf_app_cli cli = {
		.sz = sizeof(cli),
		.summary = "Receive frames with AF_XDP and drop them; print rates and counters.",
		.opts = rxdrop_opts,
		.parse = rxdrop_parse,
	};

	return xskf_app__main(&app, &rx, &cli, argc, argv);
}

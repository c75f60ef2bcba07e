// SPDX-License-Identifier: BSD-2-Clause
/*
 * Plugins that are wrong on purpose, one per build flag, for the bad-input tests of the runner:
 *   BAD_ABI      built for another plugin ABI
 *   NO_RX        no rx_burst callback
 *   INIT_FAILS   its init() fails with -EIO
 *   WORKER_INIT_FAILS  its worker_init() fails with -EIO
 *   PARSE_CRASH  its option parser dereferences NULL
 *   SHORT_DESC   a descriptor too short to hold the required fields
 *   BAD_JSON     its json() prints members of an object, not one JSON value
 *   NEEDS_HINTS  a good plugin that says it reads the RX hints (XSKF_APP_F_NEEDS_HINTS)
 *   RX_CRASH     its rx_burst writes to address 16 (SIGSEGV) at the first burst
 * Without a flag: a plugin that counts and drops every frame (the good control).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include <xskf_plugin.h>

static int bad_init(void *ctx, struct xskf_engine *eng)
{
	(void)ctx;
	(void)eng;
#ifdef INIT_FAILS
	return -EIO;
#else
	return 0;
#endif
}

#ifdef RX_CRASH
static volatile uintptr_t rx_bad_addr = 16;
#endif

static int bad_worker_init(void *ctx, const struct xskf_worker_info *wi, void **wctx)
{
	(void)ctx;
	(void)wi;
	*wctx = NULL;
#ifdef WORKER_INIT_FAILS
	return -EIO;
#else
	return 0;
#endif
}

__attribute__((unused)) static void bad_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	(void)wctx;
	(void)pkts;
	(void)n;
#ifdef RX_CRASH
	*(volatile unsigned int *)rx_bad_addr = n;
#endif
}

#ifdef PARSE_CRASH
static volatile uintptr_t bad_addr = 16;
#endif

static int bad_parse(void *ctx, int idx, const char *arg)
{
	(void)ctx;
	(void)idx;
	(void)arg;
#ifdef PARSE_CRASH
	/* a real fault, at an address UBSan's null check does not flag first */
	return *(volatile int *)bad_addr;
#else
	return 0;
#endif
}

static const struct xskf_cli_opt bad_opts[] = {
	{ "knob", 1, "N", "an option whose parser may crash" },
	{ NULL, 0, NULL, NULL },
};
/* unused by the variants with a descriptor of their own */
static const struct xskf_app_cli bad_cli __attribute__((unused)) = {
	.sz = sizeof(bad_cli), .opts = bad_opts, .parse = bad_parse
};
#ifdef BAD_JSON
/* what the header's comment once told plugin authors to do: members, not a value */
static void bad_json(void *ctx, struct xskf_engine *eng, void *out)
{
	(void)ctx;
	(void)eng;
	fprintf(out, "\"seen\": 1, \"other\": 2");
}
#endif

static const struct xskf_app bad_app = {
	.name = "bad",
#ifdef NEEDS_HINTS
	.flags = XSKF_APP_F_NEEDS_HINTS,
#endif
	.init = bad_init,
	.worker_init = bad_worker_init,
#ifndef NO_RX
	.rx_burst = bad_burst,
#endif
#ifdef BAD_JSON
	.json = bad_json,
#endif
};

#if defined(BAD_ABI)
XSKF_API const struct xskf_plugin xskf_plugin_descriptor = {
	.sz = sizeof(struct xskf_plugin), .abi = XSKF_PLUGIN_ABI + 98, .name = "bad", .app = &bad_app
};
#elif defined(SHORT_DESC)
XSKF_API const struct xskf_plugin xskf_plugin_descriptor = {
	.sz = offsetof(struct xskf_plugin, app), .abi = XSKF_PLUGIN_ABI, .name = "bad",
	.app = &bad_app
};
#else
XSKF_PLUGIN(.name = "bad", .app = &bad_app, .cli = &bad_cli);
#endif

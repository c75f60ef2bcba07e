/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: an app's own command-line options (struct xskf_app_cli) and the calls it makes of the
 * runner that parsed them (-v, --quiet, the output, SIGHUP). A plugin gets it from
 * xskf_plugin.h; xskf_runner.h adds xskf_app__main() for a binary of its own.
 */
#ifndef XSKF_PUB_CLI_H
#define XSKF_PUB_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include <xskf_pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskf_engine_opts;

/* ------------------------------------------------------------------------------------------ */
/* Standard command line: every binary in apps/ is a thin main() around xskf_app__main().      */

struct xskf_cli_opt {
	const char *name;    /* long option name */
	int has_arg;         /* as in getopt_long: 0 no, 1 required */
	const char *arg;     /* argument name shown in --help, or NULL */
	const char *help;
};

struct xskf_app_cli {
	size_t sz;
	const char *summary;              /* one line under the usage line */
	const struct xskf_cli_opt *opts;  /* the app's own long options, ended by { NULL } */
	/* called for each of the app's options, with its index in opts; 0 or -EINVAL */
	int (*parse)(void *app_ctx, int idx, const char *arg);
	/* called after parsing, before the engine starts: check the app's options; 0 or -EINVAL */
	int (*check)(void *app_ctx, struct xskf_engine_opts *eo);
	unsigned int min_ifaces;          /* -i needed at least this many times (default 1) */
	unsigned int max_ifaces;          /* and at most (default XSKF_MAX_PORTS) */
	/*
	 * Called after check(): the rx_burst callback the app runs with, chosen from its options
	 * once (xsk-l2fwd has one per mode), or NULL for app->rx_burst. Optional; an app with
	 * one burst function leaves it NULL. Thread: control thread.
	 */
	void (*(*rx_burst_for)(void *app_ctx))(void *wctx, struct xskf_pkt *pkts, unsigned int n);
};
#define xskf_app_cli__last_field rx_burst_for

/*
 * xskf_app__sighup() - returns true once per SIGHUP received since the last call.
 * Thread: control thread (e.g. from app->tick()).
 */
XSKF_API bool xskf_app__sighup(void);

/* Verbosity given with -v (0, 1, 2). Thread: any. */
XSKF_API int xskf_app__verbose(void);

/*
 * xskf_app__quiet() - true when --quiet was given: the app prints no live lines from tick()
 * either (it still does its work there). Thread: any.
 */
XSKF_API bool xskf_app__quiet(void);

/*
 * xskf_app__out() - the stream (a FILE *) for the app's own live lines from tick(): stdout,
 * or stderr with --json so that stdout carries only the JSON document. Thread: control thread.
 */
XSKF_API void *xskf_app__out(void);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_CLI_H */

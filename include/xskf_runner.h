/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: the runner layer (include/xskf.h includes it): the standard command line every binary
 * of apps/ runs through (xskf_app__main()). The calls an app makes of it, and an app's own
 * options, are in xskf_cli.h.
 */
#ifndef XSKF_PUB_RUNNER_H
#define XSKF_PUB_RUNNER_H

#include <xskf_cli.h>
#include <xskf_engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * xskf_app__main() - parse the standard options (-i, -q, -z, -c, -N, -S, -B, -b, --cpus,
 * --duration, --json, --hugepages, ...) and the app's, build the engine, run until SIGINT,
 * SIGTERM or --duration, print stats each second and JSON at exit with --json, and tear down.
 * Returns the process exit status (0 success, 1 runtime error, 2 usage error).
 * Thread: main thread; installs handlers for SIGINT, SIGTERM and SIGHUP (see xskf_app__sighup()).
 */
XSKF_API int xskf_app__main(const struct xskf_app *app, void *app_ctx,
			    const struct xskf_app_cli *cli, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_RUNNER_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run of one app (run.c): argv -> engine -> run loop -> report -> exit status. Private to
 * the runner: xskf_app__main() (include/xskf.h) is this with no hook; the plugin runner
 * (plugin.c) passes the hook that serves its control socket. Thread: main thread.
 */
#ifndef XSKF_RUN_H
#define XSKF_RUN_H

#include "xskf.h"

/* Called on the control thread at each iteration of the run loop (about every 50 ms). */
struct xskf_run_hook {
	void (*fn)(struct xskf_engine *eng, double elapsed, void *arg);
	void *arg;
	/* the run ends: called once, before the engine stops (may be NULL) */
	void (*end)(struct xskf_engine *eng, void *arg);
};

/*
 * xskf_run__app() - xskf_app__main() with @hook (may be NULL) called from the run loop.
 * Returns the process exit status: 0, 1 (runtime error), 2 (usage error).
 */
int xskf_run__app(const struct xskf_app *app, void *app_ctx, const struct xskf_app_cli *cli,
		  int argc, char **argv, const struct xskf_run_hook *hook);

#endif /* XSKF_RUN_H */

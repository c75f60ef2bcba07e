// SPDX-License-Identifier: BSD-2-Clause
/* xskf_app__main(): the life of an app binary, from argv to exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/engine.h"
#include "runner/cli.h"
#include "runner/steer_cmd.h"
#include "runner/report.h"
#include "runner/run.h"

/*
 * What the signal handlers and xskf_app__*() read: the state of the one run a process makes.
 * Nothing else of the runner is process-wide.
 */
static struct xskf_engine *running;
static volatile sig_atomic_t stop_sig; /* the first signal that stopped the run */
static volatile sig_atomic_t hup_count;
static int hup_seen;
static int verbosity;
static bool quiet;
static FILE *live_out;

static void on_stop_signal(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
	xskf_engine__request_stop(running);
}

/*
 * Every signal whose default action ends the process and that can be caught stops the run
 * the way SIGINT does (detach, workers drained, control socket removed, summary): SIGINT and
 * SIGTERM exit 0 as ever; the others exit 128 + their number, as a shell reports a process
 * they killed, after one line that names them. SIGHUP stays the apps' "reload" (counted,
 * xskf_app__sighup()). SIGPIPE is ignored: a closed stdout is seen as EPIPE on the next live
 * line (out_gone() below). The synchronous faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
 * SIGSYS, SIGTRAP) cannot return safely: engine.c's handler detaches, removes the socket and
 * re-raises them.
 */
static void install_stop_handlers(void)
{
	static const int sigs[] = {
		SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
		SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
	};
	struct sigaction sa = { .sa_handler = on_stop_signal }, ign = { .sa_handler = SIG_IGN };
	size_t i;
	int sig;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	sigaction(SIGPIPE, &ign, NULL);
}

/* The live lines' stream cannot be written any more (a reader that closed the pipe: EPIPE). */
static bool out_gone(FILE *f)
{
	return fflush(f) || ferror(f);
}

static void on_hup(int sig)
{
	(void)sig;
	hup_count++;
}

bool xskf_app__sighup(void)
{
	if (hup_count == hup_seen)
		return false;
	hup_seen = hup_count;
	return true;
}

int xskf_app__verbose(void)
{
	return verbosity;
}

bool xskf_app__quiet(void)
{
	return quiet;
}

void *xskf_app__out(void)
{
	return live_out ? live_out : stdout;
}

static int app_print(enum xskf_log_level level, const char *fmt, va_list args)
{
	if (level == XSKF_LOG_DEBUG && verbosity < 2)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double now_s(void)
{
	return (double)xskf_now_ns() / 1e9;
}

int xskf_app__main(const struct xskf_app *app, void *app_ctx, const struct xskf_app_cli *cli,
		   int argc, char **argv)
{
	return xskf_run__app(app, app_ctx, cli, argc, argv, NULL);
}

/*
 * The command line into @c, checked against what the app accepts (its interface count, its
 * own check()): 0 to run (or, with c->help set, to end with 0 after the help), 2 to end with
 * a usage error already said. The app to run is set in c->eo, with the burst the app chose
 * for its options.
 */
static int read_cli(struct xskf_cli *c, const struct xskf_app *app, void *app_ctx,
		    const struct xskf_app_cli *cli, int argc, char **argv)
{
	unsigned int min_if = 1, max_if = XSKF_MAX_PORTS;

	memset(c, 0, sizeof(*c));
	c->eo.sz = sizeof(c->eo);
	if (cli && cli->sz &&
	    xskf_opts_valid(cli, cli->sz, XSKF_OPTS_KNOWN(xskf_app_cli), "xskf_app_cli"))
		return 2;
	if (cli && cli->min_ifaces)
		min_if = cli->min_ifaces;
	if (cli && cli->max_ifaces)
		max_if = cli->max_ifaces;
	if (xskf_cli__parse(c, cli, app_ctx, argc, argv))
		return 2;
	if (c->help)
		return 0;
	verbosity = c->verbose;
	quiet = c->quiet;
	if (c->nr_ifaces < min_if || c->nr_ifaces > max_if) {
		if (min_if == max_if)
			pr_warn("%s needs %u interface%s (-i IFACE); try '%s --help'\n",
				argv[0], min_if, min_if == 1 ? "" : "s", argv[0]);
		else
			pr_warn("%s needs %u to %u interfaces (-i IFACE); try '%s --help'\n",
				argv[0], min_if, max_if, argv[0]);
		return 2;
	}
	c->eo.app = app;
	c->eo.app_ctx = app_ctx;
	if (cli && cli->check && cli->check(app_ctx, &c->eo))
		return 2;
	/* the burst the app chose for its options (a cli older than the field has none) */
	if (cli && cli->sz >= offsetofend(struct xskf_app_cli, rx_burst_for) && cli->rx_burst_for) {
		static struct xskf_app chosen;

		chosen = *c->eo.app;
		chosen.rx_burst = cli->rx_burst_for(app_ctx);
		if (!chosen.rx_burst)
			chosen.rx_burst = c->eo.app->rx_burst;
		c->eo.app = &chosen;
	}
	return 0;
}

/*
 * The engine of @c, its ports and rules, configured by the app, not yet started; or NULL with
 * the exit status in @status (2 for options the engine refuses, 1 for what the machine refuses).
 */
static struct xskf_engine *build_engine(struct xskf_cli *c, const struct xskf_app *app,
					void *app_ctx, int *status)
{
	struct xskf_engine *eng;
	unsigned int i;
	int err;

	*status = 2;
	eng = xskf_engine__new(&c->eo);
	if (!eng)
		return NULL;
	if (c->eo.backend == XSKF_BACKEND_MEMORY && xskf_engine__backend_opts(eng, &c->mem, sizeof(c->mem)))
		goto fail;
	*status = 1;
	for (i = 0; i < c->nr_ifaces; i++) {
		err = xskf_engine__add_port(eng, c->ifaces[i], c->queues,
					    c->all_queues ? 0 : c->nr_queues);
		if (err < 0)
			goto fail;
	}
	/* the command line's rules first: a plugin's come after them (docs/steering.md) */
	err = xskf_steer_cmd__apply(eng, c);
	if (err) {
		*status = err;
		goto fail;
	}
	if (app->configure && app->configure(app_ctx, eng))
		goto fail;
	return eng;
fail:
	xskf_engine__destroy(eng);
	return NULL;
}

/*
 * The started run until it stops: a signal, --duration, an interface or program gone (status
 * 1), or the live lines' output closed. Every 50 ms the hook and the watch; every interval the
 * live lines and the app's tick. @out may become stderr. The status so far.
 */
static int run_until_stop(struct xskf_engine *eng, const struct xskf_cli *c,
			  const struct xskf_app *app, void *app_ctx,
			  const struct xskf_run_hook *hook, const char *argv0, double t0,
			  FILE **out)
{
	double last = t0, t;

	while (!xskf_engine__stopping(eng)) {
		struct timespec ts = { .tv_nsec = 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (xskf_engine__watch(eng))
			return 1; /* an interface went away, or our program: say so by the exit */
		t = now_s();
		if (hook && hook->fn)
			hook->fn(eng, t - t0, hook->arg);
		if (c->duration && t - t0 >= c->duration)
			return 0;
		if (t - last < c->interval)
			continue;
		if (!c->quiet) {
			xskf_report__interval(eng, *out, t - t0, t - last);
			xskf_steer_cmd__line(eng, *out, t - t0);
			if (out_gone(*out)) {
				/*
				 * A closed stdout ends the run cleanly, as SIGINT would:
				 * `xsk-rxdrop ... | head` must end, and with its summary.
				 */
				pr_warn("%s: the live lines' output is closed (%s): stopping; the "
					"summary goes to stderr\n",
					argv0, strerror(errno));
				*out = live_out = stderr;
				return 0;
			}
		}
		if (app->tick)
			app->tick(app_ctx, eng);
		last = t;
	}
	return 0;
}

/*
 * The stop of a run that lasted @secs: the engine stopped, its summary (and JSON document),
 * and the exit status: @status, or the signal's 128 + N, or 1 when the frame census, the
 * reconciliation, a worker or the JSON output failed.
 */
static int finish_run(struct xskf_engine *eng, const struct xskf_cli *c,
		      const struct xskf_run_hook *hook, const char *argv0, FILE *out, double secs,
		      int status)
{
	int census_err, recon_err;

	if (stop_sig && stop_sig != SIGINT && stop_sig != SIGTERM) {
		pr_warn("%s: stopped by signal %d (%s)\n", argv0, (int)stop_sig,
			strsignal(stop_sig));
		status = 128 + stop_sig;
	}
	if (hook && hook->end)
		hook->end(eng, hook->arg);
	census_err = xskf_engine__stop(eng);
	recon_err = xskf_report__summary(eng, out, secs);
	if (out != stderr && out_gone(out)) {
		/* stdout closed while quiet: the summary is not lost */
		out = live_out = stderr;
		xskf_report__summary(eng, out, secs);
	}
	if (c->json) {
		xskf_report__json(eng, stdout, secs, census_err);
		if (out_gone(stdout)) {
			pr_warn("%s: cannot write the JSON document to stdout: %s\n", argv0,
				strerror(errno));
			status = status ? status : 1;
		}
	}
	if ((census_err || recon_err) && status < 128)
		status = 1;
	if (xskf_engine__worker_failed(eng) && status < 128)
		status = 1;
	return status;
}

int xskf_run__app(const struct xskf_app *app, void *app_ctx, const struct xskf_app_cli *cli,
		  int argc, char **argv, const struct xskf_run_hook *hook)
{
	static struct xskf_cli c;
	struct sigaction hup = { .sa_handler = on_hup };
	struct xskf_engine *eng;
	double t0;
	FILE *out;
	int status;

	xskf_set_print(app_print);
	status = read_cli(&c, app, app_ctx, cli, argc, argv);
	if (status || c.help)
		return status;
	eng = build_engine(&c, app, app_ctx, &status);
	if (!eng)
		return status;
	/* With --json, stdout carries only the JSON document; the live lines go to stderr. */
	out = c.json ? stderr : stdout;
	live_out = out;
	running = eng;
	install_stop_handlers();
	sigaction(SIGHUP, &hup, NULL);
	if (xskf_engine__start(eng)) {
		xskf_engine__destroy(eng);
		running = NULL;
		return 1;
	}
	t0 = now_s();
	status = run_until_stop(eng, &c, app, app_ctx, hook, argv[0], t0, &out);
	status = finish_run(eng, &c, hook, argv[0], out, now_s() - t0, status);
	xskf_engine__destroy(eng);
	running = NULL;
	return status;
}

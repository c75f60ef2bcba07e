// SPDX-License-Identifier: BSD-2-Clause
/*
 * A chain of plugins as one struct xskf_app, so that the engine and the worker loop know
 * nothing of plugins. On a worker each burst goes through the plugins in turn: a frame a plugin
 * drops, transmits or forwards stops there; one it marks XSKF_NEXT goes on to the next plugin
 * (with XSKF_DROP as its action again). Between two plugins the burst is partitioned once: the
 * frames going on are moved to the front (in order), the decided ones behind them, so that the
 * next plugin sees a plain array and dispatch() sees every verdict. A chain of one is the
 * plugin's own callbacks, with nothing in between.
 *
 * Also here: the plugins' counters (an array per worker, summed for the report), their
 * options merged into one command line, and their JSON.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"
#include "core/log.h"
#include "runner/chain.h"
#include "runner/json_check.h"
#include "json.h" /* util/: the JSON writer */

/* Per worker: each plugin's wctx, and room to move decided frames aside. */
struct chain_worker {
	const struct xskf_chain *ch; /* the burst's wctx is this: no process-wide chain */
	void *wctx[XSKF_CHAIN_MAX];
	struct xskf_pkt aside[XSKF_MAX_BATCH];
};

static void chain_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	struct chain_worker *cw = wctx;
	const struct xskf_chain *ch = cw->ch;
	unsigned int k, i, m, d;

	for (k = 0;; k++) {
		xskf__chain_k = (unsigned char)k; /* the worker marked rx_burst (crash.c) */
		ch->pl[k].app.rx_burst(cw->wctx[k], pkts, n);
		if (k + 1 == ch->n)
			return;
		/* the common case, a burst that goes on whole: no partition, one store per frame */
		for (i = 0; i < n && pkts[i].action == XSKF_NEXT; i++)
			pkts[i].action = XSKF_DROP;
		if (i == n)
			continue;
		for (m = i, d = 0; i < n; i++) {
			if (pkts[i].action == XSKF_NEXT) {
				if (m != i)
					pkts[m] = pkts[i];
				pkts[m++].action = XSKF_DROP;
			} else {
				cw->aside[d++] = pkts[i];
			}
		}
		if (d)
			memcpy(pkts + m, cw->aside, d * sizeof(*pkts));
		if (!m)
			return;
		n = m;
	}
}

/* Each plugin's configure() (@init false) or init(), in chain order, until one fails. */
static int each_plugin(struct xskf_chain *ch, struct xskf_engine *eng, bool init)
{
	unsigned int k;
	bool paren;
	int err;

	for (k = 0; k < ch->n; k++) {
		int (*cb)(void *, struct xskf_engine *) = init ? ch->pl[k].app.init :
								 ch->pl[k].app.configure;

		if (!cb)
			continue;
		xskf_chain__mark(k, init ? XSKF_CB_INIT : XSKF_CB_CONFIGURE);
		err = cb(ch->pl[k].p->app_ctx, eng);
		xskf_chain__mark(0, XSKF_CB_NONE);
		if (!err)
			continue;
		if (!init)
			return err;
		/* "(built in)" comes in parentheses already */
		paren = ch->pl[k].file[0] == '(';
		pr_warn("plugin '%s' %s%s%s: init failed: %s\n", ch->pl[k].p->name, paren ? "" : "(",
			ch->pl[k].file, paren ? "" : ")", strerror(-err));
		return -ECANCELED; /* said why: the engine adds nothing */
	}
	return 0;
}

static int chain_configure(void *ctx, struct xskf_engine *eng)
{
	return each_plugin(ctx, eng, false);
}

static int chain_init(void *ctx, struct xskf_engine *eng)
{
	return each_plugin(ctx, eng, true);
}

static int chain_worker_init(void *ctx, const struct xskf_worker_info *wi, void **wctx)
{
	struct xskf_chain *ch = ctx;
	struct chain_worker *cw;
	unsigned int k;
	int err;

	cw = calloc(1, sizeof(*cw));
	if (!cw)
		return -ENOMEM;
	cw->ch = ch;
	for (k = 0; k < ch->n; k++) {
		struct xskf_chain_plugin *pl = &ch->pl[k];
		struct xskf_worker_info own = *wi;

		own.counters = pl->nr_counters ? xskf_chain__counters(ch, k, wi->id) : NULL;
		if (pl->app.worker_init) {
			xskf_chain__mark(k, XSKF_CB_WORKER_INIT);
			err = pl->app.worker_init(pl->p->app_ctx, &own, &cw->wctx[k]);
			xskf_chain__mark(0, XSKF_CB_NONE);
			if (err) {
				bool paren = pl->file[0] == '('; /* "(built in)" */

				pr_warn("plugin '%s' %s%s%s: worker_init failed on worker %u: %s\n",
					pl->p->name, paren ? "" : "(", pl->file, paren ? "" : ")",
					wi->id, strerror(-err));
				free(cw);
				return -ECANCELED; /* said why: the worker adds nothing */
			}
		}
	}
	ch->workers[wi->id] = cw;
	/* a chain of one hands the plugin's own wctx to its own rx_burst */
	*wctx = ch->n == 1 ? cw->wctx[0] : cw;
	return 0;
}

static void chain_worker_fini(void *ctx, void *wctx)
{
	struct xskf_chain *ch = ctx;
	struct chain_worker *cw = NULL;
	unsigned int k, w;

	(void)wctx;
	for (w = 0; w < XSKF_MAX_WORKERS && !cw; w++)
		if (ch->workers[w] && (ch->workers[w] == wctx || ch->workers[w]->wctx[0] == wctx))
			cw = ch->workers[w], ch->workers[w] = NULL;
	if (!cw)
		return;
	for (k = 0; k < ch->n; k++)
		if (ch->pl[k].app.worker_fini) {
			xskf_chain__mark(k, XSKF_CB_WORKER_FINI);
			ch->pl[k].app.worker_fini(ch->pl[k].p->app_ctx, cw->wctx[k]);
		}
	xskf_chain__mark(0, XSKF_CB_NONE);
	free(cw);
}

/* Each interval: the plugins' counters, summed over workers, then their own tick(). */
static void chain_tick(void *ctx, struct xskf_engine *eng)
{
	struct xskf_chain *ch = ctx;
	FILE *f = xskf_app__out();
	unsigned int k, c;

	for (k = 0; k < ch->n; k++) {
		const struct xskf_chain_plugin *pl = &ch->pl[k];

		if (pl->nr_counters && !xskf_app__quiet()) {
			fprintf(f, "           %s ", pl->p->name);
			for (c = 0; c < pl->nr_counters; c++)
				fprintf(f, " %s %llu", pl->p->counters[c],
					(unsigned long long)xskf_chain__sum(ch, k, c, xskf_engine__nr_workers(eng)));
			fputc('\n', f);
		}
		if (pl->app.tick) {
			xskf_chain__mark(k, XSKF_CB_TICK);
			pl->app.tick(pl->p->app_ctx, eng);
			xskf_chain__mark(0, XSKF_CB_NONE);
		}
	}
}

static void chain_fini(void *ctx, struct xskf_engine *eng)
{
	struct xskf_chain *ch = ctx;
	unsigned int k;

	for (k = 0; k < ch->n; k++)
		if (ch->pl[k].app.fini) {
			xskf_chain__mark(k, XSKF_CB_FINI);
			ch->pl[k].app.fini(ch->pl[k].p->app_ctx, eng);
		}
	xskf_chain__mark(0, XSKF_CB_NONE);
}

/*
 * A plugin's json() output goes into the document only when it is one JSON value: it is
 * printed into a buffer and checked first. Anything else (members of an object, two values,
 * garbage) becomes null, and the plugin is named once per run on stderr, so that one plugin
 * cannot make the document unreadable for all (`--json` and `xskfctl stats` alike).
 */
static void plugin_json(struct xskf_chain_plugin *pl, struct xskf_engine *eng, FILE *f)
{
	char *buf = NULL;
	size_t len = 0, off;
	const char *why;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		fputs("null", f);
		return;
	}
	pl->app.json(pl->p->app_ctx, eng, m);
	if (fclose(m)) {
		free(buf);
		fputs("null", f);
		return;
	}
	if (!xskf_json__check(buf, len, &off, &why)) {
		fwrite(buf, 1, len, f);
	} else {
		fputs("null", f);
		if (!pl->json_warned)
			pr_warn("plugin '%s' (%s): its json() printed no single JSON value "
				"(byte %zu: expected %s); its \"app_stats\" is null: print one value, "
				"e.g. {\"name\": 1} (docs/plugins.md)\n",
				pl->p->name, pl->file, off, why);
		pl->json_warned = true;
	}
	free(buf);
}

/*
 * The "app_stats" member of the JSON document: a chain of one keeps its plugin's own object
 * (as the xsk-* commands always printed it), a longer chain an object by plugin name; then a
 * member "plugins" of its own with every plugin's counters, summed and per worker.
 */
void xskf_chain__json(struct xskf_chain *ch, struct xskf_engine *eng, FILE *f)
{
	unsigned int k, c, wk, nw = xskf_engine__nr_workers(eng);
	struct xjw w;

	/* app_stats' value: the plugins' own, each written by its json() to @f */
	xjw__init(&w, f);
	if (ch->n > 1)
		xjw_obj(&w, NULL, NULL);
	for (k = 0; k < ch->n; k++) {
		if (ch->n > 1)
			xjw_key(&w, ch->pl[k].p->name);
		if (ch->pl[k].app.json) {
			xskf_chain__mark(k, XSKF_CB_JSON);
			plugin_json(&ch->pl[k], eng, f);
			xskf_chain__mark(0, XSKF_CB_NONE);
		} else
			fputs("null", f);
	}
	if (ch->n > 1)
		xjw_end(&w, NULL);
	/* then "plugins" beside it in the document's top object */
	xjw__resume(&w, f, "\n  ");
	xjw_arr(&w, "plugins", "\n    ");
	for (k = 0; k < ch->n; k++) {
		const struct xskf_chain_plugin *pl = &ch->pl[k];

		xjw_obj(&w, NULL, NULL);
		xjw_str(&w, "name", pl->p->name);
		xjw_str(&w, "file", pl->file);
		xjw_obj(&w, "counters", NULL);
		for (c = 0; c < pl->nr_counters; c++)
			xjw_u64(&w, pl->p->counters[c], xskf_chain__sum(ch, k, c, nw));
		xjw_end(&w, NULL);
		xjw_arr(&w, "workers", NULL);
		for (wk = 0; wk < nw; wk++) {
			xjw_obj(&w, NULL, NULL);
			for (c = 0; c < pl->nr_counters; c++)
				xjw_u64(&w, pl->p->counters[c], xskf_chain__counters(ch, k, wk)[c]);
			xjw_end(&w, NULL);
		}
		xjw_end(&w, NULL);
		xjw_end(&w, NULL);
	}
	xjw_end(&w, "\n  ");
}

static void chain_json(void *ctx, struct xskf_engine *eng, void *out)
{
	xskf_chain__json(ctx, eng, out);
}

uint64_t *xskf_chain__counters(struct xskf_chain *ch, unsigned int k, unsigned int worker)
{
	return ch->pl[k].counters + (size_t)worker * ch->pl[k].stride;
}

uint64_t xskf_chain__sum(struct xskf_chain *ch, unsigned int k, unsigned int c, unsigned int nw)
{
	uint64_t s = 0;
	unsigned int w;

	/* relaxed loads: each worker stores its counters whole, and no ordering is needed */
	for (w = 0; w < nw; w++)
		s += __atomic_load_n(&xskf_chain__counters(ch, k, w)[c], __ATOMIC_RELAXED);
	return s;
}

/* ---- the merged command line ---- */

static sigjmp_buf parse_jmp;
static volatile sig_atomic_t parse_sig;

static void on_parse_crash(int sig)
{
	parse_sig = sig;
	siglongjmp(parse_jmp, 1);
}

/* A plugin's option parser, run so that its crash is a message, not the runner's. */
static int guarded_parse(struct xskf_chain_plugin *pl, int idx, const char *arg)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa = { .sa_handler = on_parse_crash }, old[5];
	const struct xskf_app_cli *cli = pl->p->cli;
	int err = -EINVAL;
	size_t i;

	if (!cli->parse)
		return -EINVAL;
	for (i = 0; i < 5; i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (!sigsetjmp(parse_jmp, 1)) {
		err = cli->parse(pl->p->app_ctx, idx, arg);
	} else {
		pr_warn("%s: plugin '%s' crashed (%s) parsing --%s: a bug in the "
			"plugin\n",
			pl->file, pl->p->name, strsignal(parse_sig), cli->opts[idx].name);
		err = -EFAULT;
	}
	for (i = 0; i < 5; i++)
		sigaction(sigs[i], &old[i], NULL);
	return err;
}

static int chain_parse(void *ctx, int idx, const char *arg)
{
	struct xskf_chain *ch = ctx;
	struct xskf_chain_plugin *pl = &ch->pl[ch->opt_owner[idx]];

	return guarded_parse(pl, ch->opt_local[idx], arg);
}

static size_t cli_size(const struct xskf_app_cli *cli)
{
	return cli ? (cli->sz < sizeof(*cli) ? cli->sz : sizeof(*cli)) : 0;
}

/* The burst @pl chose for its options (xskf_app_cli.rx_burst_for), into pl->app. */
static void choose_burst(struct xskf_chain_plugin *pl)
{
	const struct xskf_app_cli *cli = pl->p->cli;
	void (*fn)(void *, struct xskf_pkt *, unsigned int);

	if (cli_size(cli) < offsetofend(struct xskf_app_cli, rx_burst_for) || !cli->rx_burst_for)
		return;
	fn = cli->rx_burst_for(pl->p->app_ctx);
	if (fn)
		pl->app.rx_burst = fn;
}

/*
 * What the chain reads: the hints of all its plugins, and frame bytes unless every plugin says
 * it reads none. Read from each plugin's own app now, after its options (which may change them:
 * xskf_app.hints), and taken as "all hints, bytes read" for a plugin that does not say.
 */
static void chain_hints(struct xskf_chain *ch)
{
	uint32_t hints = 0;
	bool no_touch = true;
	unsigned int k;

	for (k = 0; k < ch->n; k++) {
		const struct xskf_app *a = ch->pl[k].p->app;

		hints |= a->flags & XSKF_APP_F_HINTS ? a->hints : XSKF_HINT_ALL;
		no_touch &= !!(a->flags & XSKF_APP_F_NO_TOUCH);
	}
	ch->app.flags &= ~(XSKF_APP_F_HINTS | XSKF_APP_F_NO_TOUCH);
	ch->app.flags |= XSKF_APP_F_HINTS | (no_touch ? XSKF_APP_F_NO_TOUCH : 0);
	ch->app.hints = hints & XSKF_HINT_ALL;
}

static int chain_check(void *ctx, struct xskf_engine_opts *eo)
{
	struct xskf_chain *ch = ctx;
	const struct xskf_app *mine = eo->app;
	unsigned int k;
	int err;

	for (k = 0; k < ch->n; k++) {
		struct xskf_chain_plugin *pl = &ch->pl[k];

		if ((pl->app.flags & XSKF_APP_F_NEEDS_HINTS) && eo->no_hints) {
			pr_warn("plugin '%s' (%s) reads the RX hints, and --no-hints "
				"turns them off: drop --no-hints\n",
				pl->p->name, pl->file);
			return -EINVAL;
		}
		if (!pl->p->cli)
			continue;
		if (pl->p->cli->check) {
			/*
			 * The plugin sees its own app. A plugin built before
			 * xskf_app_cli.rx_burst_for chose its burst by swapping eo->app for a
			 * copy: still honoured (docs/plugins.md, ABI rules), until
			 * XSKF_PLUGIN_ABI next changes.
			 */
			eo->app = &pl->app;
			err = pl->p->cli->check(pl->p->app_ctx, eo);
			if (eo->app != &pl->app)
				pl->app = *eo->app;
			eo->app = mine;
			if (err)
				return err;
		}
		choose_burst(pl);
		if (!pl->app.rx_burst && !(pl->app.flags & XSKF_APP_F_TX_ONLY))
			return -EINVAL;
	}
	if (ch->n > 1)
		ch->app.rx_burst = chain_burst;
	else
		ch->app.rx_burst = ch->pl[0].app.rx_burst;
	chain_hints(ch);
	return 0;
}

int xskf_chain__build(struct xskf_chain *ch)
{
	unsigned int k, i, j, nopt = 0;
	bool frags;

	ch->cli = (struct xskf_app_cli){ .sz = sizeof(ch->cli), .opts = ch->opts,
					 .parse = chain_parse, .check = chain_check };
	ch->app = (struct xskf_app){ .name = ch->name, .configure = chain_configure,
				     .init = chain_init, .worker_init = chain_worker_init,
				     .tick = chain_tick, .worker_fini = chain_worker_fini,
				     .fini = chain_fini, .json = chain_json };
	for (k = 0; k < ch->n; k++) {
		struct xskf_chain_plugin *pl = &ch->pl[k];
		struct xskf_app_cli cli = {};

		if (pl->p->cli) /* a plugin without options has none */
			memcpy(&cli, pl->p->cli, cli_size(pl->p->cli));
		pl->app = *pl->p->app;
		if (pl->app.flags & XSKF_APP_F_TX_ONLY) {
			if (ch->n > 1) {
				pr_warn("plugin '%s' only sends (TX-only): it runs alone, "
					"not in a chain\n",
					pl->p->name);
				return -EINVAL;
			}
			/* it runs alone, so the wctx the worker hands tx_fill() is its own */
			ch->app.tx_fill = pl->app.tx_fill;
		}
		/* multi-buffer frames only when every plugin takes them; the other flags add up */
		frags = (pl->app.flags & XSKF_APP_F_FRAGS) &&
			(k == 0 || (ch->app.flags & XSKF_APP_F_FRAGS));
		ch->app.flags = ((ch->app.flags | pl->app.flags) & ~XSKF_APP_F_FRAGS) |
				(frags ? XSKF_APP_F_FRAGS : 0);
		ch->app.rx_burst = pl->app.rx_burst; /* chain_check() sets the final one */
		for (pl->nr_counters = 0; pl->p->counters && pl->p->counters[pl->nr_counters];)
			pl->nr_counters++;
		/* one cache line or more per worker: workers never share one */
		pl->stride = (pl->nr_counters + 7) / 8 * 8;
		if (pl->nr_counters) {
			pl->counters = calloc((size_t)XSKF_MAX_WORKERS * pl->stride, sizeof(uint64_t));
			if (!pl->counters)
				return -ENOMEM;
		}
		if (ch->n == 1 && cli.summary)
			ch->cli.summary = cli.summary;
		if (ch->n > 1) {
			size_t l = strlen(ch->summary);

			if (!k)
				l = (size_t)snprintf(ch->summary, sizeof(ch->summary),
						     "A chain of %u plugins; a frame one marks XSKF_NEXT "
						     "goes on to the next:",
						     ch->n);
			if (l < sizeof(ch->summary))
				snprintf(ch->summary + l, sizeof(ch->summary) - l, "\n  %-10s %s",
					 pl->p->name, cli.summary ? cli.summary : "");
			ch->cli.summary = ch->summary;
		}
		if (cli.min_ifaces > ch->cli.min_ifaces)
			ch->cli.min_ifaces = cli.min_ifaces;
		if (cli.max_ifaces && (!ch->cli.max_ifaces || cli.max_ifaces < ch->cli.max_ifaces))
			ch->cli.max_ifaces = cli.max_ifaces;
		for (i = 0; cli.opts && cli.opts[i].name; i++) {
			for (j = 0; j < nopt; j++)
				if (!strcmp(ch->opts[j].name, cli.opts[i].name)) {
					pr_warn("plugins '%s' and '%s' both have an option "
						"--%s: they cannot run in one chain\n",
						ch->pl[ch->opt_owner[j]].p->name, pl->p->name,
						cli.opts[i].name);
					return -EINVAL;
				}
			if (nopt == XSKF_CHAIN_OPTS) {
				pr_warn("too many plugin options (at most %d)\n",
					XSKF_CHAIN_OPTS);
				return -E2BIG;
			}
			ch->opts[nopt] = cli.opts[i];
			if (ch->n > 1) { /* say whose option it is */
				snprintf(ch->opt_help[nopt], sizeof(ch->opt_help[nopt]), "%s: %s",
					 pl->p->name, cli.opts[i].help ? cli.opts[i].help : "");
				ch->opts[nopt].help = ch->opt_help[nopt];
			}
			ch->opt_owner[nopt] = k;
			ch->opt_local[nopt] = (int)i;
			nopt++;
		}
	}
	ch->opts[nopt] = (struct xskf_cli_opt){ NULL, 0, NULL, NULL };
	return 0;
}

void xskf_chain__free(struct xskf_chain *ch)
{
	unsigned int k;

	for (k = 0; k < ch->n; k++) {
		free(ch->pl[k].counters);
		ch->pl[k].counters = NULL;
	}
}

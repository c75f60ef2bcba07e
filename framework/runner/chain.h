/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Plugins (plugin.c: loading, the runner) and the chain they form (chain.c). Private.
 * Thread: control thread, except the callbacks chain.c gives the engine.
 */
#ifndef XSKF_CHAIN_H
#define XSKF_CHAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "xskf.h"
#include "xskf_plugin.h"
#include "core/app_cb.h"

#define XSKF_CHAIN_MAX 8   /* plugins in one chain */
#define XSKF_CHAIN_OPTS 64 /* their options together */

struct xskf_chain_plugin {
	const struct xskf_plugin *p; /* &desc */
	struct xskf_plugin desc;     /* its descriptor, as far as this xskf knows it (sz) */
	char file[256];              /* where it came from, for messages ("built in") */
	void *dl;                    /* dlopen() handle, NULL when built in */
	struct xskf_app app;         /* its callbacks (its check() may have swapped rx_burst) */
	unsigned int nr_counters, stride;
	uint64_t *counters;          /* XSKF_MAX_WORKERS arrays of stride counters */
	bool json_warned;            /* its json() printed no JSON value, and we said so */
};

struct chain_worker;

struct xskf_chain {
	char name[128];
	unsigned int n;
	struct xskf_chain_plugin pl[XSKF_CHAIN_MAX];
	struct xskf_app app;         /* what the engine runs */
	struct xskf_app_cli cli;     /* every plugin's options */
	struct xskf_cli_opt opts[XSKF_CHAIN_OPTS + 1];
	unsigned int opt_owner[XSKF_CHAIN_OPTS];
	int opt_local[XSKF_CHAIN_OPTS];
	/* a chain's --help: what it is and, per option, whose ("l2fwd: macswap (default) ...") */
	char summary[1024];
	char opt_help[XSKF_CHAIN_OPTS][192];
	struct chain_worker *workers[XSKF_MAX_WORKERS];
};

/* Fill in ch->app and ch->cli from ch->pl[0 .. n-1]. 0 or -errno (message printed). */
int xskf_chain__build(struct xskf_chain *ch);
void xskf_chain__free(struct xskf_chain *ch);
uint64_t *xskf_chain__counters(struct xskf_chain *ch, unsigned int k, unsigned int worker);
uint64_t xskf_chain__sum(struct xskf_chain *ch, unsigned int k, unsigned int c, unsigned int nw);
void xskf_chain__json(struct xskf_chain *ch, struct xskf_engine *eng, FILE *f);

/* The plugin of the chain whose callback this thread is in (crash.c), with xskf__app_cb. */
extern __thread unsigned char xskf__chain_k __attribute__((tls_model("initial-exec")));

/* This thread is in plugin @k's callback @cb (XSKF_CB_NONE: none), for a crash's line. */
static inline void xskf_chain__mark(unsigned int k, enum xskf_app_cb cb)
{
	xskf__chain_k = (unsigned char)k;
	xskf__app_cb = (unsigned char)cb;
}

/*
 * From now on, a fatal signal (core/engine.c's handler) prints one line that names the plugin
 * of @ch and the callback that crashed (crash.c). Thread: control thread.
 */
void xskf_chain__on_crash(const struct xskf_chain *ch);

#endif /* XSKF_CHAIN_H */

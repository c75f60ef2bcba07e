// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl metrics`: the `stats` document of one instance (or of all, --all) in the Prometheus
 * text exposition format (version 0.0.4): a HELP and a TYPE line per family, then its samples,
 * every family once even when several instances have samples in it.
 *
 * The names are derived from the JSON document's paths (docs/operations.md has the rule and
 * the list): xskf_<section>_<object>_<key>[_total], the section singular (queues[] gives
 * xskf_queue_, steering[].rules[] xskf_steering_rule_, workers[] xskf_worker_), a KEY_ns in
 * seconds as KEY_seconds; census, ports, plugins and app_stats have names of their own. A key
 * these tables do not know still appears, as an `untyped` family of the same derivation, so
 * a counter the runs gain shows up before xskfctl learns its meaning. Every value is the
 * JSON's number as written (whole numbers stay exact beyond 2^53), booleans 1 or 0.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xskfctl.h"
#include "buf.h"      /* util/: a family's sample lines */
#include "counters.h" /* util/: the counter families */

struct fam {
	char name[160];
	const char *type;
	char help[200];
	struct xbuf buf; /* its sample lines (util/buf.h) */
};

struct out {
	struct fam *f;
	int n, cap;
	bool oom;
	const char *inst; /* the instance label, escaped */
};

static void fam_free(struct out *o)
{
	for (int i = 0; i < o->n; i++)
		xbuf_free(&o->f[i].buf);
	free(o->f);
}

/* A metric name from @s: [a-zA-Z0-9_:], anything else an '_' (a key is not trusted). */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == ':'))
			*s = '_';
}

static struct fam *fam_get(struct out *o, const char *name, const char *type, const char *help)
{
	char n[160];
	int i;

	snprintf(n, sizeof(n), "%s", name);
	sanitize(n);
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->f[i].name, n))
			return &o->f[i];
	if (o->n == o->cap) {
		int cap = o->cap ? 2 * o->cap : 64;
		struct fam *nf = realloc(o->f, (size_t)cap * sizeof(*nf));

		if (!nf) {
			o->oom = true;
			return NULL;
		}
		o->f = nf;
		o->cap = cap;
	}
	memset(&o->f[o->n], 0, sizeof(o->f[o->n]));
	snprintf(o->f[o->n].name, sizeof(o->f[o->n].name), "%s", n);
	o->f[o->n].type = type;
	/* HELP text: a backslash and a line feed escaped, as the format asks */
	{
		char *h = o->f[o->n].help;
		size_t k = 0;

		for (; *help && k + 3 < sizeof(o->f[o->n].help); help++) {
			if (*help == '\\' || *help == '\n')
				h[k++] = '\\';
			h[k++] = *help == '\n' ? 'n' : *help;
		}
		h[k] = 0;
	}
	return &o->f[o->n++];
}

/* One sample of family @f: NAME{@labels} @v. */
static void sample(struct out *o, struct fam *f, const char *labels, const char *v)
{
	if (!f)
		return;
	xbuf_printf(&f->buf, "%s{%s} %s\n", f->name, labels, v);
	o->oom |= f->buf.oom;
}

/* @v escaped as a label value (backslash, double quote, newline) into @b. */
static const char *esc(char *b, size_t bl, const char *v)
{
	size_t o = 0;

	for (; *v && o + 3 < bl; v++) {
		if (*v == '\\' || *v == '"') {
			b[o++] = '\\';
			b[o++] = *v;
		} else if (*v == '\n') {
			b[o++] = '\\';
			b[o++] = 'n';
		} else {
			b[o++] = *v;
		}
	}
	b[o] = 0;
	return b;
}

/*
 * The value of node @i as sample text: a number as written, a boolean 1/0; NULL otherwise,
 * and for i < 0 (a member the document does not have).
 */
static const char *val(const struct xj_node *n, int i, char *b, size_t bl)
{
	if (i < 0) /* no such member (xj_get()) */
		return NULL;
	switch (n[i].type) {
	case XJ_NUMBER:
		snprintf(b, bl, "%.*s", (int)n[i].len, n[i].str);
		return b;
	case XJ_TRUE:
		return "1";
	case XJ_FALSE:
		return "0";
	default:
		return NULL;
	}
}

/* Node @i, a whole number of nanoseconds, as seconds ("12.000000345"); as written if not. */
static const char *seconds(const struct xj_node *n, int i, char *b, size_t bl)
{
	unsigned long long ns = 0;
	size_t k;

	for (k = 0; k < n[i].len; k++) {
		if (n[i].str[k] < '0' || n[i].str[k] > '9' || ns > (~0ULL - 9) / 10)
			return val(n, i, b, bl);
		ns = ns * 10 + (unsigned long long)(n[i].str[k] - '0');
	}
	snprintf(b, bl, "%llu.%09llu", ns / 1000000000, ns % 1000000000);
	return b;
}

static const struct xc_queue_row *qrow_lookup(const char *obj, const char *key)
{
	for (unsigned int i = 0; i < XC_NR_QUEUE; i++)
		if (!strcmp(xc_queue[i].key, key) && !strcmp(xc_queue[i].obj, obj))
			return &xc_queue[i];
	return NULL;
}

/*
 * May member @key of an object of @fam be a sample of its own? Not its name (fam->id, a
 * label), not a row that is a label (prom NULL) or that has one (done by labelled()).
 */
static bool own_sample(const struct xc_family *fam, const char *key)
{
	const struct xc_row *r = xc_find(fam, key);

	if (fam && fam->id && !strcmp(fam->id, key))
		return false;
	return !r || (r->prom && !r->label);
}

/*
 * Every number and boolean member of object @obj as a family: a row of @fam as it says, a
 * queue counter (@qobj not NULL: the queue's object) as its row of xskf_counters.h, any other
 * key as untyped PREFIX_KEY. @labels: the sample's labels (without braces). @skip: members
 * that are labels, not values.
 */
static void members_of(struct out *o, const struct xj_node *n, int obj, const char *prefix,
		       const struct xc_family *fam, const char *labels, const char *const *skip,
		       const char *qobj)
{
	char name[160], help[200], vb[160];
	int c;

	for (c = xj_first(n, obj); c >= 0; c = xj_next(n, obj, c)) {
		const struct xc_row *k = xc_find(fam, n[c].key);
		const struct xc_queue_row *qr = k || !qobj ? NULL : qrow_lookup(qobj, n[c].key);
		const char *v = val(n, c, vb, sizeof(vb));
		bool skipped = !own_sample(fam, n[c].key);

		size_t kl = strlen(n[c].key);
		bool ns = kl > 3 && !strcmp(n[c].key + kl - 3, "_ns") && n[c].type == XJ_NUMBER;

		for (const char *const *s = skip; s && *s; s++)
			skipped |= !strcmp(*s, n[c].key);
		if (skipped || !v)
			continue;
		if (ns)
			v = seconds(n, c, vb, sizeof(vb));
		if (k) {
			sample(o, fam_get(o, k->prom, k->type, k->help), labels, v);
			continue;
		}
		if (qr) { /* a queue counter: PREFIX_KEY, "_total" for a counter */
			snprintf(name, sizeof(name), "%s_%s%s", prefix, n[c].key,
				 strcmp(qr->type, "counter") ? "" : "_total");
			sample(o, fam_get(o, name, qr->type, qr->help), labels, v);
			continue;
		}
		/* KEY_ns is a time: in seconds, the format's base unit (promtool refuses "_ns") */
		if (ns)
			snprintf(name, sizeof(name), "%s_%.*s_seconds", prefix, (int)(kl - 3),
				 n[c].key);
		else
			snprintf(name, sizeof(name), "%s_%s", prefix, n[c].key);
		snprintf(help, sizeof(help),
			 "'%s' of the stats document (not known to this xskfctl)", n[c].key);
		sample(o, fam_get(o, name, "untyped", help), labels, v);
	}
}

/* The rows of @fam that are samples labelled by their key (the census's places), of @obj. */
static void labelled(struct out *o, const struct xj_node *n, int obj, const struct xc_family *fam,
		     const char *labels)
{
	char l[1400], vb[64];

	for (unsigned int i = 0; i < fam->nr; i++) {
		const struct xc_row *r = &fam->rows[i];
		const char *v = r->label ? val(n, xj_get(n, obj, r->key), vb, sizeof(vb)) : NULL;

		if (!v)
			continue;
		snprintf(l, sizeof(l), "%s,%s=\"%s\"", labels, r->label, r->key);
		sample(o, fam_get(o, r->prom, r->type, r->help), l, v);
	}
}

/* Object @obj of family @fam (util/counters.h, or this file's): every sample of it. */
static void element(struct out *o, const struct xj_node *n, int obj, const struct xc_family *fam,
		    const char *labels)
{
	labelled(o, n, obj, fam, labels);
	members_of(o, n, obj, fam->prefix, fam, labels, NULL, NULL);
}

/*
 * The document's members that are no counter family of util/counters.h: a queue's besides its
 * counters, a port's, the run's. Their objects are written by hand (report.c).
 */
#define INFO(key_, prom_, help_)                                                                   \
	{ .key = key_, .prom = prom_, .type = "gauge", .help = help_ }
#define FAMILY(name_, prefix_, rows_)                                                              \
	static const struct xc_family name_ = { .name = #name_, .prefix = prefix_, .rows = rows_,  \
						.nr = sizeof(rows_) / sizeof((rows_)[0]) }
#define Q "xskf_queue_"
static const struct xc_row queue_rows[] = {
	INFO("zerocopy", Q "zerocopy", "1 when the queue's socket is bound in zero-copy mode."),
	INFO("reconciled", Q "reconciled",
	     "1 when the queue's counters add up (frames in = frames out + drops)."),
};
FAMILY(queue_info, "xskf_queue", queue_rows);
static const struct xc_row port_rows[] = {
	INFO("rx_queues", "xskf_port_rx_queues", "RX queues of the port."),
	INFO("numa_node", "xskf_port_numa_node", "NUMA node of the port (-1: none)."),
};
FAMILY(port_info, "xskf_port", port_rows);
static const struct xc_row run_rows[] = {
	INFO("duration_s", "xskf_uptime_seconds", "Seconds since the run started."),
	INFO("census_ok", "xskf_census_ok", "1 when every worker's frame census adds up."),
};
FAMILY(run_info, "xskf", run_rows);

static void queue(struct out *o, const struct xj_node *n, int q)
{
	static const char *const skip[] = {"port", "queue", "worker", NULL};
	/*
	 * The objects of a queue, in the order of their first counter rows (xskf_counters.h):
	 * the order their families have always come in, a newer object's after them
	 */
	const char *objs[XC_NR_QUEUE];
	char l[1024], e[512], vb[64], prefix[64];
	const char *qv = val(n, xj_get(n, q, "queue"), vb, sizeof(vb));
	unsigned int s, no = 0, i;

	for (i = 0; i < XC_NR_QUEUE; i++) {
		if (!*xc_queue[i].obj)
			continue;
		for (s = 0; s < no && strcmp(objs[s], xc_queue[i].obj); s++)
			;
		if (s == no)
			objs[no++] = xc_queue[i].obj;
	}
	snprintf(l, sizeof(l), "instance=\"%s\",port=\"%s\",queue=\"%s\"", o->inst,
		 esc(e, sizeof(e), xj_str(n, q, "port", "")), qv ? qv : "");
	if (xj_get(n, q, "worker") >= 0) {
		char il[1100];

		snprintf(il, sizeof(il), "%s,worker=\"%s\"", l,
			 val(n, xj_get(n, q, "worker"), vb, sizeof(vb)) ?: "");
		sample(o, fam_get(o, Q "info", "gauge", "1 per queue: the worker that serves it."),
		       il, "1");
	}
	members_of(o, n, q, "xskf_queue", &queue_info, l, skip, "");
	for (s = 0; s < no; s++) {
		int c = xj_get(n, q, objs[s]);

		if (c < 0 || n[c].type != XJ_OBJECT)
			continue;
		snprintf(prefix, sizeof(prefix), "xskf_queue_%s", objs[s]);
		members_of(o, n, c, prefix, NULL, l, NULL, objs[s]);
	}
}

/*
 * One family's objects, the elements of array @arr, each labelled by its member fam->id
 * after @labels: the census's and the idle accounting's (workers[]) per worker, the memory
 * backend's.
 */
static void each(struct out *o, const struct xj_node *n, int arr, const struct xc_family *fam,
		 const char *labels)
{
	char l[1400], e[300], vb[64];
	int c;

	for (c = xj_first(n, arr); c >= 0; c = xj_next(n, arr, c)) {
		int id = xj_get(n, c, fam->id);
		const char *v = val(n, id, vb, sizeof(vb));

		if (!v && id >= 0 && n[id].type == XJ_STRING)
			v = esc(e, sizeof(e), n[id].str);
		snprintf(l, sizeof(l), "%s,%s=\"%s\"", labels, fam->id, v ?: "");
		element(o, n, c, fam, l);
	}
}

/* steering: per port its actions, per rule its hits (the rule's text a label), per queue. */
static void steering(struct out *o, const struct xj_node *n, int arr)
{
	char pl[700], l[2000], e1[300], e2[1100], vb[64];
	int p, c, a;

	for (p = xj_first(n, arr); p >= 0; p = xj_next(n, arr, p)) {
		snprintf(pl, sizeof(pl), "instance=\"%s\",port=\"%s\"", o->inst,
			 esc(e1, sizeof(e1), xj_str(n, p, "port", "")));
		element(o, n, p, &xc_steer, pl);
		a = xj_get(n, p, "rules");
		for (c = xj_first(n, a); c >= 0; c = xj_next(n, a, c)) {
			snprintf(l, sizeof(l), "%s,id=\"%s\",rule=\"%s\"", pl,
				 val(n, xj_get(n, c, "id"), vb, sizeof(vb)) ?: "",
				 esc(e2, sizeof(e2), xj_str(n, c, "rule", "")));
			element(o, n, c, &xc_steer_rule, l);
		}
		each(o, n, xj_get(n, p, "queues"), &xc_steer_queue, pl);
	}
}

/* app_stats: every number and boolean leaf, its path as the key label (untyped: the app's). */
static void app_leaf(struct out *o, const struct xj_node *n, int i, char *path, size_t pl)
{
	size_t l = strlen(path);
	char lab[1400], e[1100], vb[160];
	const char *v;
	int c, k = 0;

	if (n[i].type == XJ_OBJECT || n[i].type == XJ_ARRAY) {
		for (c = xj_first(n, i); c >= 0; c = xj_next(n, i, c), k++) {
			if (n[i].type == XJ_OBJECT)
				snprintf(path + l, pl - l, "%s%s", l ? "." : "", n[c].key);
			else
				snprintf(path + l, pl - l, "[%d]", k);
			app_leaf(o, n, c, path, pl);
			path[l] = 0;
		}
		return;
	}
	v = val(n, i, vb, sizeof(vb));
	if (!v)
		return;
	snprintf(lab, sizeof(lab), "instance=\"%s\",key=\"%s\"", o->inst, esc(e, sizeof(e), path));
	sample(o,
	       fam_get(o, "xskf_app_stat", "untyped",
		       "The app's own statistics (app_stats of the stats document), by key."),
	       lab, v);
}

static void plugins(struct out *o, const struct xj_node *n, int arr)
{
	char l[1400], cl[1700], e1[300], e2[600], e3[300], vb[64];
	int p, c, w, k;

	for (p = xj_first(n, arr); p >= 0; p = xj_next(n, arr, p)) {
		int ctr = xj_get(n, p, "counters"), ws = xj_get(n, p, "workers");

		esc(e1, sizeof(e1), xj_str(n, p, "name", ""));
		snprintf(l, sizeof(l), "instance=\"%s\",plugin=\"%s\",file=\"%s\"", o->inst, e1,
			 esc(e2, sizeof(e2), xj_str(n, p, "file", "")));
		sample(
		    o,
		    fam_get(o, "xskf_plugin_info", "gauge",
			    "1 per plugin of the run: its name and the file it was loaded from."),
		    l, "1");
		for (c = xj_first(n, ctr); c >= 0; c = xj_next(n, ctr, c)) {
			const char *v = val(n, c, vb, sizeof(vb));

			if (!v)
				continue;
			snprintf(cl, sizeof(cl), "instance=\"%s\",plugin=\"%s\",counter=\"%s\"",
				 o->inst, e1, esc(e3, sizeof(e3), n[c].key));
			sample(o,
			       fam_get(o, "xskf_plugin_events_total", "counter",
				       "A plugin's counter, summed over its workers."),
			       cl, v);
		}
		for (w = xj_first(n, ws), k = 0; w >= 0; w = xj_next(n, ws, w), k++) {
			for (c = xj_first(n, w); c >= 0; c = xj_next(n, w, c)) {
				const char *v = val(n, c, vb, sizeof(vb));

				if (!v)
					continue;
				snprintf(
				    cl, sizeof(cl),
				    "instance=\"%s\",plugin=\"%s\",worker=\"%d\",counter=\"%s\"",
				    o->inst, e1, k, esc(e3, sizeof(e3), n[c].key));
				sample(o,
				       fam_get(o, "xskf_plugin_worker_events_total", "counter",
					       "A plugin's counter, one worker's."),
				       cl, v);
			}
		}
	}
}

/* Every family of one instance's document @n. */
static void instance(struct out *o, const struct xj_node *n)
{
	static const char *const skip[] = {"app",    "backend", "version", "plugin_abi",
					   "libbpf", "libxdp",	NULL};
	char l[2400], e1[300], e2[300], e3[300], e4[300], e5[300], path[1024] = "", abi[24] = "";
	bool ok;
	uint64_t v = xj_u64(n, 0, "plugin_abi", &ok);
	int a, i;

	if (ok)
		snprintf(abi, sizeof(abi), "%llu", (unsigned long long)v);

	snprintf(l, sizeof(l),
		 "instance=\"%s\",app=\"%s\",backend=\"%s\",version=\"%s\",plugin_abi=\"%s\","
		 "libbpf=\"%s\",libxdp=\"%s\"",
		 o->inst, esc(e1, sizeof(e1), xj_str(n, 0, "app", "")),
		 esc(e2, sizeof(e2), xj_str(n, 0, "backend", "")),
		 esc(e3, sizeof(e3), xj_str(n, 0, "version", "")), abi,
		 esc(e4, sizeof(e4), xj_str(n, 0, "libbpf", "")),
		 esc(e5, sizeof(e5), xj_str(n, 0, "libxdp", "")));
	sample(o,
	       fam_get(o, "xskf_info", "gauge",
		       "1 per instance: its app (command or chain), backend, version of xskf and "
		       "plugin ABI, libbpf and libxdp files."),
	       l, "1");
	snprintf(l, sizeof(l), "instance=\"%s\"", o->inst);
	members_of(o, n, 0, "xskf", &run_info, l, skip, NULL);
	a = xj_get(n, 0, "ports");
	for (i = xj_first(n, a); i >= 0; i = xj_next(n, a, i)) {
		static const char *const pskip[] = {"name", "ifindex", NULL};
		char pl[1400], ib[64];

		snprintf(pl, sizeof(pl), "instance=\"%s\",port=\"%s\"", o->inst,
			 esc(e1, sizeof(e1), xj_str(n, i, "name", "")));
		snprintf(l, sizeof(l), "%s,ifindex=\"%s\",attach_mode=\"%s\",redirect=\"%s\"", pl,
			 val(n, xj_get(n, i, "ifindex"), ib, sizeof(ib)) ?: "",
			 esc(e2, sizeof(e2), xj_str(n, i, "attach_mode", "")),
			 esc(e3, sizeof(e3), xj_str(n, i, "redirect", "")));
		sample(o,
		       fam_get(o, "xskf_port_info", "gauge",
			       "1 per port: its ifindex, XDP attach mode and redirect method."),
		       l, "1");
		members_of(o, n, i, "xskf_port", &port_info, pl, pskip, NULL);
	}
	a = xj_get(n, 0, "queues");
	for (i = xj_first(n, a); i >= 0; i = xj_next(n, a, i))
		queue(o, n, i);
	snprintf(l, sizeof(l), "instance=\"%s\"", o->inst);
	each(o, n, xj_get(n, 0, "census"), &xc_census, l);
	if (xj_get(n, 0, "idle") >= 0) {
		snprintf(l, sizeof(l), "instance=\"%s\",mode=\"%s\"", o->inst,
			 esc(e1, sizeof(e1), xj_str(n, 0, "idle", "")));
		sample(o,
		       fam_get(o, "xskf_idle_info", "gauge",
			       "1 per instance: its workers' idle mode (--idle, docs/idle.md)."),
		       l, "1");
	}
	snprintf(l, sizeof(l), "instance=\"%s\"", o->inst);
	each(o, n, xj_get(n, 0, "workers"), &xc_idle, l);
	steering(o, n, xj_get(n, 0, "steering"));
	each(o, n, xj_get(n, 0, "memory_backend"), &xc_mem, l);
	a = xj_get(n, 0, "app_stats");
	if (a >= 0)
		app_leaf(o, n, a, path, sizeof(path));
	plugins(o, n, xj_get(n, 0, "plugins"));
}

static void up(struct out *o, int v)
{
	char l[600];

	snprintf(l, sizeof(l), "instance=\"%s\"", o->inst);
	sample(o, fam_get(o, "xskf_up", "gauge", "1 when the instance answered, 0 when not."), l,
	       v ? "1" : "0");
}

int cmd_metrics(const char *want, int argc, char **argv)
{
	static struct ctl_inst v[CTL_MAX_INSTANCES];
	struct out o = {0};
	char err[600], ie[600];
	bool all = false;
	int n, i, rc = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			all = true;
			continue;
		}
		fprintf(stderr, "xskfctl: metrics: unknown %s '%s' (xskfctl --help)\n",
			argv[i][0] == '-' ? "option" : "argument", argv[i]);
		return 2;
	}
	if (all && want) {
		fprintf(stderr,
			"xskfctl: metrics --all asks every run: drop -s, --name or --pid\n");
		return 2;
	}
	if (all) {
		/*
		 * No control folder: nothing runs, and that is an answer (no samples, exit 0), or a
		 * textfile collector's file would keep the last run's series as if it were alive.
		 */
		if (access(ctl_dir(), F_OK) && errno == ENOENT)
			return 0;
		n = ctl_instances(v, CTL_MAX_INSTANCES);
		if (n < 0)
			return 1;
	} else {
		if (ctl_choose(want, &v[0]))
			return 1;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		struct xj_doc doc;

		o.inst = esc(ie, sizeof(ie), v[i].name);
		if (ctl_stats(v[i].path, &doc, err, sizeof(err))) {
			fprintf(stderr, "xskfctl: %s\n", err);
			if (!all) {
				fam_free(&o);
				return 1;
			}
			up(&o, 0);
			continue;
		}
		up(&o, 1);
		instance(&o, doc.n);
		xj_doc__free(&doc);
	}
	if (o.oom) {
		fprintf(stderr, "xskfctl: out of memory\n");
		rc = 1;
	} else {
		for (i = 0; i < o.n; i++)
			printf("# HELP %s %s\n# TYPE %s %s\n%.*s", o.f[i].name, o.f[i].help,
			       o.f[i].name, o.f[i].type, (int)o.f[i].buf.len,
			       o.f[i].buf.p ? o.f[i].buf.p : "");
	}
	fam_free(&o);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "xskfctl: cannot write the metrics: %s\n", strerror(errno));
		rc = 1;
	}
	return rc;
}

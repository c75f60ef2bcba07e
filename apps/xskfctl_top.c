// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl list` (every instance of the control folder, a line each) and `xskfctl top` (a
 * table per port and queue of one instance, with rates, redrawn every interval). Both read
 * only `stats` answers: no request of the runs is theirs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xskfctl.h"
#include "counters.h" /* util/: the queue view, top's columns */

/* "rxdrop" or "filter,l2fwd": the plugins of document @n. */
static void plugin_names(const struct xj_node *n, char *b, size_t bl)
{
	int a = xj_get(n, 0, "plugins"), p;
	size_t l = 0;

	b[0] = 0;
	for (p = xj_first(n, a); p >= 0 && l < bl; p = xj_next(n, a, p))
		l += (size_t)snprintf(b + l, bl - l, "%s%s", l ? "," : "",
				      xj_str(n, p, "name", "?"));
	if (!b[0])
		snprintf(b, bl, "-");
}

/* "veth0:0,1 veth1:0": each port and its queues, in the document's order. */
static void port_queues(const struct xj_node *n, char *b, size_t bl)
{
	int a = xj_get(n, 0, "queues"), q, r;
	const char *last = NULL;
	size_t l = 0;

	b[0] = 0;
	for (q = xj_first(n, a); q >= 0 && l < bl; q = xj_next(n, a, q)) {
		const char *port = xj_str(n, q, "port", "?");
		char qb[32];
		int qi = xj_get(n, q, "queue");

		snprintf(qb, sizeof(qb), "%.*s",
			 qi >= 0 && n[qi].type == XJ_NUMBER ? (int)n[qi].len : 1,
			 qi >= 0 && n[qi].type == XJ_NUMBER ? n[qi].str : "?");
		if (last && !strcmp(last, port))
			r = snprintf(b + l, bl - l, ",%s", qb);
		else
			r = snprintf(b + l, bl - l, "%s%s:%s", l ? " " : "", port, qb);
		l += r > 0 ? (size_t)r : 0;
		last = port;
	}
	/* queues kept for other AF_XDP apps' sockets (--serve): "veth0:1(served)" */
	a = xj_get(n, 0, "ports");
	for (q = xj_first(n, a); q >= 0 && l < bl; q = xj_next(n, a, q)) {
		int sv = xj_get(n, q, "served"), e;

		for (e = xj_first(n, sv); e >= 0 && l < bl; e = xj_next(n, sv, e)) {
			r = snprintf(b + l, bl - l, "%s%s:%.*s(served)", l ? " " : "",
				     xj_str(n, q, "name", "?"), (int)n[e].len, n[e].str);
			l += r > 0 ? (size_t)r : 0;
		}
	}
	if (!b[0])
		snprintf(b, bl, "-");
}

/* Workers of the run: its census has one entry each. */
static int workers(const struct xj_node *n)
{
	int a = xj_get(n, 0, "census");

	return a >= 0 && n[a].type == XJ_ARRAY ? (int)n[a].count : 0;
}

int cmd_list(int argc, char **argv)
{
	static struct ctl_inst v[CTL_MAX_INSTANCES];
	struct stat st;
	int n, i;

	if (argc) {
		fprintf(stderr, "xskfctl: list takes no %s: '%s' (xskfctl --help)\n",
			argv[0][0] == '-' ? "option" : "argument", argv[0]);
		return 2;
	}
	/* no folder: nothing has run since boot, an empty list, not an error */
	if (stat(ctl_dir(), &st) && errno == ENOENT)
		n = 0;
	else if ((n = ctl_instances(v, CTL_MAX_INSTANCES)) < 0)
		return 1;
	printf("%-8s %-24s %10s %7s %-8s %-20s %s\n", "PID", "NAME", "UPTIME_S", "WORKERS",
	       "VERSION", "PLUGINS", "INTERFACES:QUEUES");
	for (i = 0; i < n; i++) {
		char err[600], pl[256], pq[1024], nm[256];
		struct xj_doc doc;
		size_t l = strlen(v[i].name) - strlen(v[i].pid) - 1;

		snprintf(nm, sizeof(nm), "%.*s", (int)l, v[i].name);
		if (ctl_stats(v[i].path, &doc, err, sizeof(err))) {
			printf("%-8s %-24s not answering: %s\n", v[i].pid, nm, err);
			continue;
		}
		plugin_names(doc.n, pl, sizeof(pl));
		port_queues(doc.n, pq, sizeof(pq));
		printf("%-8s %-24s %10.1f %7d %-8s %-20s %s\n", v[i].pid, nm,
		       xj_num(doc.n, 0, "duration_s"), workers(doc.n),
		       xj_str(doc.n, 0, "version", "-"), pl, pq);
		xj_doc__free(&doc);
	}
	return 0;
}

/* --- top --------------------------------------------------------------------------------- */

/* The queue of @n (a document) with @port and @queue, or -1. */
static int find_queue(const struct xj_node *n, const char *port, uint64_t queue)
{
	int a = xj_get(n, 0, "queues"), q;

	for (q = xj_first(n, a); q >= 0; q = xj_next(n, a, q))
		if (!strcmp(xj_str(n, q, "port", ""), port) && xj_u64(n, q, "queue", NULL) == queue)
			return q;
	return -1;
}

/* Queue @q of @n as "PORT:QUEUE" in @buf; returns the same queue in @p (before), or -1. */
static int queue_label(const struct xj_node *n, int q, const struct xj_node *p, char *buf,
		       size_t len)
{
	const char *port = xj_str(n, q, "port", "?");
	uint64_t qi = xj_u64(n, q, "queue", NULL);

	snprintf(buf, len, "%s:%llu", port, (unsigned long long)qi);
	return find_queue(p, port, qi);
}

/* The rate of member @key of object @a (now) against @b (before), over @dt s. */
static double rate(const struct xj_node *na, int a, const struct xj_node *nb, int b,
		   const char *key, double dt)
{
	uint64_t x = xj_u64(na, a, key, NULL), y = b >= 0 ? xj_u64(nb, b, key, NULL) : x;

	return x > y ? (double)(x - y) / dt : 0.0;
}

static double sub_rate(const struct xj_node *na, int a, const struct xj_node *nb, int b,
		       const char *obj, const char *key, double dt)
{
	return rate(na, xj_get(na, a, obj), nb, b >= 0 ? xj_get(nb, b, obj) : -1, key, dt);
}

/* The rate of queue counter @row (xc_queue[]) of queue @a (now) against @b (before). */
static double qrate(const struct xj_node *na, int a, const struct xj_node *nb, int b,
		    unsigned int row, double dt)
{
	const struct xc_queue_row *r = &xc_queue[row];

	if (!*r->obj)
		return rate(na, a, nb, b, r->key, dt);
	return sub_rate(na, a, nb, b, r->obj, r->key, dt);
}

/*
 * The columns of the two tables (XC_TOP_TRAFFIC, XC_TOP_DROPS): a queue counter each, as a
 * rate, under a heading of its own width; each is its counter's row of the queue view
 * (util/counters.c), which says its table and place.
 */

/* The headings of table @top after the first column's (already printed), then the line's end. */
static void col_heads(unsigned int top)
{
	const struct xc_qview *v;

	for (unsigned int c = 0; (v = xc_top_col(top, c)); c++)
		printf(" %*s", v->width, v->head);
	printf("\n");
}

/* Queue @q's rates (@b: the same queue before, or -1) in table @top, then the line's end. */
static void col_rates(unsigned int top, const struct xj_node *n, int q, const struct xj_node *p,
		      int b, double dt)
{
	const struct xc_qview *v;

	for (unsigned int c = 0; (v = xc_top_col(top, c)); c++)
		printf(" %*.0f", v->width, qrate(n, q, p, b, v->row, dt));
	printf("\n");
}

static void table(const char *name, const struct xj_node *n, const struct xj_node *p, double dt)
{
	int a = xj_get(n, 0, "queues"), q, pa, pp;

	printf("xskfctl top: %s  app %s  uptime %.1f s  rates over %.2f s\n", name,
	       xj_str(n, 0, "app", "?"), xj_num(n, 0, "duration_s"), dt);
	printf("%-16s %6s", "PORT:QUEUE", "WORKER");
	col_heads(XC_TOP_TRAFFIC);
	for (q = xj_first(n, a); q >= 0; q = xj_next(n, a, q)) {
		char pq[64];
		int b = queue_label(n, q, p, pq, sizeof(pq));

		printf("%-16s %6llu", pq, (unsigned long long)xj_u64(n, q, "worker", NULL));
		col_rates(XC_TOP_TRAFFIC, n, q, p, b, dt);
	}
	printf("%-16s", "DROPS/S");
	col_heads(XC_TOP_DROPS);
	for (q = xj_first(n, a); q >= 0; q = xj_next(n, a, q)) {
		char pq[64];
		int b = queue_label(n, q, p, pq, sizeof(pq));

		printf("%-16s", pq);
		col_rates(XC_TOP_DROPS, n, q, p, b, dt);
	}
	/* plugin counters, per second */
	a = xj_get(n, 0, "plugins");
	pa = xj_get(p, 0, "plugins");
	for (q = xj_first(n, a); q >= 0; q = xj_next(n, a, q)) {
		int c = xj_get(n, q, "counters"), k;
		const char *pn = xj_str(n, q, "name", "?");

		if (xj_first(n, c) < 0)
			continue;
		for (pp = xj_first(p, pa); pp >= 0; pp = xj_next(p, pa, pp))
			if (!strcmp(xj_str(p, pp, "name", ""), pn))
				break;
		printf("plugin %-12s", pn);
		for (k = xj_first(n, c); k >= 0; k = xj_next(n, c, k))
			printf(
			    " %s %.0f/s", n[k].key,
			    rate(n, c, p, pp >= 0 ? xj_get(p, pp, "counters") : -1, n[k].key, dt));
		printf("\n");
	}
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A number from @s in [@lo, @hi], all of it; false if not. */
static bool number_in(const char *s, double lo, double hi, bool whole, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*v) && *v >= lo && *v <= hi &&
	       (!whole || *v == floor(*v)) && !strpbrk(s, "xXpPnN");
}

int cmd_top(const char *want, int argc, char **argv)
{
	double interval = 1.0, count = 0, t0, t1, dt;
	struct xj_doc prev, cur;
	struct ctl_inst inst;
	char err[600];
	bool tty = isatty(STDOUT_FILENO);
	long k;
	int i;

	for (i = 0; i < argc; i++) {
		bool is_i = !strcmp(argv[i], "--interval"), is_c = !strcmp(argv[i], "--count");

		if (!is_i && !is_c) {
			fprintf(stderr, "xskfctl: top: unknown %s '%s' (xskfctl --help)\n",
				argv[i][0] == '-' ? "option" : "argument", argv[i]);
			return 2;
		}
		if (++i == argc) {
			fprintf(stderr, "xskfctl: top: %s needs a value\n", argv[i - 1]);
			return 2;
		}
		if (is_i && !number_in(argv[i], 0.1, 3600, false, &interval)) {
			fprintf(stderr,
				"xskfctl: invalid --interval '%s': seconds from 0.1 to 3600\n",
				argv[i]);
			return 2;
		}
		if (is_c && !number_in(argv[i], 1, 1000000, true, &count)) {
			fprintf(stderr,
				"xskfctl: invalid --count '%s': a number of tables from 1 to "
				"1000000\n",
				argv[i]);
			return 2;
		}
	}
	if (ctl_choose(want, &inst))
		return 1;
	if (ctl_stats(inst.path, &prev, err, sizeof(err))) {
		fprintf(stderr, "xskfctl: %s\n", err);
		return 1;
	}
	t0 = mono();
	for (k = 0; !count || k < (long)count; k++) {
		struct timespec ts = {(time_t)interval, (long)((interval - floor(interval)) * 1e9)};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (ctl_stats(inst.path, &cur, err, sizeof(err))) {
			fprintf(stderr, "xskfctl: %s (the run ended?)\n", err);
			xj_doc__free(&prev);
			return 1;
		}
		t1 = mono();
		/* the run's own clock says when each document was made; ours if it did not move */
		dt = xj_num(cur.n, 0, "duration_s") - xj_num(prev.n, 0, "duration_s");
		if (dt <= 0)
			dt = t1 - t0;
		if (tty)
			printf("\033[H\033[2J");
		else if (k)
			printf("\n");
		table(inst.name, cur.n, prev.n, dt > 0 ? dt : 1e-9);
		if (fflush(stdout)) {
			xj_doc__free(&prev);
			xj_doc__free(&cur);
			return 1;
		}
		xj_doc__free(&prev);
		prev = cur;
		t0 = t1;
	}
	xj_doc__free(&prev);
	return 0;
}

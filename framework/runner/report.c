// SPDX-License-Identifier: BSD-2-Clause
/* What apps print: a line per socket per interval, a closing summary, and the JSON document. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "runner/report.h"
#include "runner/steer_cmd.h"
#include "counters.h" /* util/: the counter families */
#include "json.h"     /* util/: the JSON writer */

static struct xskf_queue_stats prev[XSKF_MAX_PORTS * XSKF_MAX_QUEUES];

/* @to += @s, every queue counter */
static void add_counters(struct xskf_queue_stats *to, const struct xskf_queue_stats *s)
{
	for (unsigned int i = 0; i < XC_NR_QUEUE; i++) {
		uint64_t a, b;

		memcpy(&a, (char *)to + xc_queue[i].off, sizeof(a));
		memcpy(&b, (const char *)s + xc_queue[i].off, sizeof(b));
		a += b;
		memcpy((char *)to + xc_queue[i].off, &a, sizeof(a));
	}
}

/*
 * Per worker, over the last interval: the share of its time busy and asleep, its wake-ups and
 * those that found nothing ("  w0 busy 3% asleep 97% wakeups 12/2"), and the frames the kernel
 * dropped while it slept when there were any (" lost_asleep 2038"), at the end of the total
 * line (docs/idle.md).
 */
static struct xskf_idle_stats prev_idle[XSKF_MAX_WORKERS];

static void idle_words(struct xskf_engine *eng, FILE *f)
{
	unsigned int i;

	for (i = 0; i < eng->nr_workers && i < XSKF_MAX_WORKERS; i++) {
		struct xskf_idle_stats st = { .sz = sizeof(st) }, *p = &prev_idle[i];

		if (xskf_engine__idle_stats(eng, i, &st))
			continue;
		fprintf(f, "  w%u", i);
		xc_live(f, &xc_idle, &st, p); /* the rows of util/counters.c */
		*p = st;
	}
	fputc('\n', f);
}

/*
 * A line per queue when there are several, then the total line: the words of the queue view
 * (util/counters.c: xc_qlive()), the total's over the sums of every queue's counters.
 */
void xskf_report__interval(struct xskf_engine *eng, FILE *f, double elapsed, double secs)
{
	struct xskf_queue_stats st, tot = {}, ptot = {};
	bool repair = eng->o.csum_repair;
	unsigned int i, port;
	uint32_t q;

	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_queue_stats *p = &prev[i];

		if (xskf_engine__queue_stats(eng, i, &port, &q, &st))
			continue;
		if (eng->nr_socks > 1) {
			fprintf(f, "[%7.1fs] %s:%u", elapsed, eng->ports[port].name, q);
			xc_qlive(f, &st, p, secs, XC_QL_QUEUE, repair);
			fputc('\n', f);
		}
		add_counters(&tot, &st);
		add_counters(&ptot, p);
		*p = st;
	}
	fprintf(f, "[%7.1fs] total", elapsed);
	xc_qlive(f, &tot, &ptot, secs, XC_QL_TOTAL, repair);
	idle_words(eng, f);
	fflush(f);
}

/*
 * redirected by the program = received by the socket + dropped by the kernel (per queue). A
 * served run (--xsk-map, --xsk-map-uds) has no program of its own to count: nothing to hold
 * the socket's counts against (its program counters stay 0, and say so).
 */
static bool reconciles(const struct xskf_engine *eng, const struct xskf_queue_stats *s)
{
	if (eng->o.xsk_map || eng->o.xsk_map_uds)
		return true;
	/* multi-buffer frames the worker dropped as bad were received, not counted in rx_packets */
	return s->prog_redirected == s->rx_packets + s->drop_chain_long + s->drop_chain_open +
					     s->k_rx_dropped + s->k_rx_ring_full + s->rx_left;
}

int xskf_report__summary(struct xskf_engine *eng, FILE *f, double elapsed)
{
	struct xskf_queue_stats st;
	unsigned int i, port;
	uint32_t q;
	int err = 0;

	fprintf(f, "--- %s: %.1f s\n", eng->app.name ? eng->app.name : "xskf", elapsed);
	for (i = 0; i < eng->nr_socks; i++) {
		if (xskf_engine__queue_stats(eng, i, &port, &q, &st))
			continue;
		fprintf(f,
			"%s:%u rx %llu pkts %llu bytes, tx %llu pkts, app drops %llu, other drops "
			"%llu; kernel: rx_dropped %llu rx_ring_full %llu fill_empty %llu; program: "
			"redirected %llu passed %llu errors %llu%s\n",
			eng->ports[port].name, q, (unsigned long long)st.rx_packets,
			(unsigned long long)st.rx_bytes, (unsigned long long)st.tx_packets,
			(unsigned long long)st.drop_app, (unsigned long long)xc_qword(&st, "drop"),
			(unsigned long long)st.k_rx_dropped, (unsigned long long)st.k_rx_ring_full,
			(unsigned long long)st.k_rx_fill_ring_empty_descs,
			(unsigned long long)st.prog_redirected, (unsigned long long)st.prog_passed,
			(unsigned long long)st.prog_errors,
			reconciles(eng, &st) ? "" : "  << DOES NOT RECONCILE");
		if (st.txmd_frames || st.txmd_csum_sw || st.txmd_invalid || st.txmd_unsupported ||
		    st.txmd_launch_bad)
			/* TX metadata (xskf_tx.h): only when some frame asked */
			fprintf(f,
				"%s:%u TX metadata: %llu frames with it, %llu checksums by xskf, "
				"%llu invalid (dropped), %llu unsupported, %llu launch times out "
				"of range, %llu timestamps (%llu lost)\n",
				eng->ports[port].name, q, (unsigned long long)st.txmd_frames,
				(unsigned long long)st.txmd_csum_sw,
				(unsigned long long)st.txmd_invalid,
				(unsigned long long)st.txmd_unsupported,
				(unsigned long long)st.txmd_launch_bad,
				(unsigned long long)st.txmd_stamps,
				(unsigned long long)st.txmd_stamps_lost);
		if (st.rx_left)
			fprintf(f,
				"%s:%u %llu frames were still in the RX ring when the drain's half "
				"second ended (the app took longer for what the ring held): counted, "
				"never handed to the app\n",
				eng->ports[port].name, q, (unsigned long long)st.rx_left);
		if (!reconciles(eng, &st))
			err = -EIO;
	}
	return err;
}

/*
 * The objects of a queue in the order the document has always had them ("": the queue's own
 * members); an object only a newer row names follows them, in the order of the rows. The rows
 * alone cannot give it: they have chains before tx_meta (struct xskf_queue_stats's order, an
 * ABI), the document tx_meta first (as Prometheus does not: xskfctl_metrics.c takes the rows').
 */
static const char *const qobjs[] = { "", "kernel", "program", "csum", "tx_meta", "chains" };
#define NR_QOBJS (sizeof(qobjs) / sizeof(qobjs[0]))

/* A line of its own in a queue's object */
#define QBREAK "\n     "

/*
 * Every counter of @s: the queue's own four a line, then one line per object, and a line
 * break before the member that closes the queue.
 */
static void json_counters(struct xjw *w, const struct xskf_queue_stats *s)
{
	const char *objs[NR_QOBJS + XC_NR_QUEUE];
	unsigned int no = 0, o, i, k;

	for (i = 0; i < NR_QOBJS; i++)
		objs[no++] = qobjs[i];
	for (i = 0; i < XC_NR_QUEUE; i++) {
		for (o = 0; o < no && strcmp(objs[o], xc_queue[i].obj); o++)
			;
		if (o == no)
			objs[no++] = xc_queue[i].obj;
	}
	for (o = 0; o < no; o++) {
		bool top = !*objs[o];

		for (i = 0, k = 0; i < XC_NR_QUEUE; i++) {
			uint64_t v;

			if (strcmp(xc_queue[i].obj, objs[o]))
				continue;
			memcpy(&v, (const char *)s + xc_queue[i].off, sizeof(v));
			if (top && k % 4 == 0)
				xjw_break(w, QBREAK);
			else if (!top && !k) {
				xjw_break(w, QBREAK);
				xjw_obj(w, objs[o], NULL);
			}
			xjw_u64(w, xc_queue[i].key, v);
			k++;
		}
		if (k && !top)
			xjw_end(w, NULL);
	}
	xjw_break(w, QBREAK);
}

static void json_queue(struct xjw *w, struct xskf_engine *eng, unsigned int i)
{
	struct xskf_queue_stats s;
	unsigned int port;
	uint32_t q;

	xskf_engine__queue_stats(eng, i, &port, &q, &s);
	xjw_obj(w, NULL, NULL);
	xjw_str(w, "port", eng->ports[port].name);
	xjw_u64(w, "queue", q);
	xjw_u64(w, "worker", eng->socks[i].worker->id);
	xjw_bool(w, "zerocopy", eng->socks[i].zerocopy);
	json_counters(w, &s);
	xjw_bool(w, "reconciled", reconciles(eng, &s));
	xjw_end(w, NULL);
}

/* ports[]: each port's name, attach mode, queues. */
static void json_ports(struct xjw *w, struct xskf_engine *eng)
{
	unsigned int i;

	xjw_arr(w, "ports", "\n    ");
	for (i = 0; i < eng->nr_ports; i++) {
		struct xskf_port *p = &eng->ports[i];
		const char *attach, *redirect;

		eng->be->port_mode(p, &attach, &redirect);
		xjw_obj(w, NULL, NULL);
		xjw_str(w, "name", p->name);
		xjw_i64(w, "ifindex", p->ifindex);
		xjw_str(w, "attach_mode", attach);
		xjw_str(w, "redirect", redirect);
		xjw_u64(w, "rx_queues", p->nr_hw_queues);
		xjw_i64(w, "numa_node", p->numa_node);
		/* the backend's own (xdp: --serve's queues and where their maps are pinned) */
		if (eng->be->port_json)
			eng->be->port_json(p, w);
		xjw_end(w, NULL);
	}
	xjw_end(w, "\n  ");
}

/* census[]: per worker its UMEM and where its frames are (xc_census of util/counters.c) */
static void json_census(struct xjw *w, struct xskf_engine *eng)
{
	unsigned int i;

	xjw_arr(w, "census", "\n    ");
	for (i = 0; i < eng->nr_workers; i++) {
		const struct xskf_umem *um = &eng->workers[i].umem;
		struct xc_census c = {
			.hugepages = um->hugepages,
			.umem_file = um->huge_file,
			.page_size = um->page_size,
			.umem_bytes = um->size,
			.umem_node = um->numa_node,
			.umem_pages_on_node = um->pages_on_node,
		};

		c.ok = xskf_engine__census(eng, i, &c.c) == 0;
		xjw_obj(w, NULL, NULL);
		xjw_u64(w, "worker", i);
		xc_json(w, &xc_census, &c);
		xjw_end(w, NULL);
	}
	xjw_end(w, "\n  ");
}

/* workers[]: what each worker did with its time (xc_idle) */
static void json_workers(struct xjw *w, struct xskf_engine *eng)
{
	unsigned int i;

	xjw_arr(w, "workers", "\n    ");
	for (i = 0; i < eng->nr_workers; i++) {
		struct xskf_idle_stats st = { .sz = sizeof(st) };

		xskf_engine__idle_stats(eng, i, &st);
		xjw_obj(w, NULL, NULL);
		xjw_u64(w, "worker", i);
		xc_json(w, &xc_idle, &st);
		xjw_end(w, NULL);
	}
	xjw_end(w, "\n  ");
}

void xskf_report__json(struct xskf_engine *eng, FILE *f, double elapsed, int census_err)
{
	struct xskf_version v;
	struct xjw w;
	unsigned int i;

	xskf_version__get(&v);
	xjw__init(&w, f);
	xjw_obj(&w, NULL, "\n  ");
	xjw_str(&w, "app", eng->app.name ? eng->app.name : "");
	xjw_str(&w, "backend", eng->be->name);
	xjw_str(&w, "version", v.xskf);
	xjw_i64(&w, "plugin_abi", v.plugin_abi);
	xjw_str(&w, "libbpf", v.libbpf);
	xjw_str(&w, "libxdp", v.libxdp);
	xjw_fixed(&w, "duration_s", elapsed, 3);
	/* where the XDP program writes the hints (backend/xdp/prog/features.c) */
	/* where the hints are written (core/hints_in.c's choice) */
	xjw_str(&w, "hints_in", eng->o.no_hints  ? "none"
				: eng->hints_user ? "userspace"
				: eng->hints_head ? "headroom"
						  : "data_meta");
	json_ports(&w, eng);
	xjw_arr(&w, "queues", "\n    ");
	for (i = 0; i < eng->nr_socks; i++)
		json_queue(&w, eng, i);
	xjw_end(&w, "\n  ");
	json_census(&w, eng);
	xjw_str(&w, "idle", xskf_idle__name(eng->o.idle));
	json_workers(&w, eng);
	xjw_bool(&w, "census_ok", !census_err);
	xskf_steer_cmd__json(eng, &w);
	if (eng->be->json)
		eng->be->json(eng, &w);
	if (eng->app.json) {
		/* the app prints its value itself (xskf_app.h: to a FILE *) */
		xjw_key(&w, "app_stats");
		eng->app.json(eng->app_ctx, eng, f);
	}
	xjw_end(&w, "\n");
	fputc('\n', f);
	fflush(f);
}

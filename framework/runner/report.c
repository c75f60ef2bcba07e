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
#include "json.h" /* util/: xj_write_str() */

static struct xskf_queue_stats prev[XSKF_MAX_PORTS * XSKF_MAX_QUEUES];

static void fmt_rate(char *buf, size_t len, double pps)
{
	if (pps >= 1e6)
		snprintf(buf, len, "%6.2f Mpps", pps / 1e6);
	else if (pps >= 1e3)
		snprintf(buf, len, "%6.1f Kpps", pps / 1e3);
	else
		snprintf(buf, len, "%6.0f  pps", pps);
}

static uint64_t drops(const struct xskf_queue_stats *s)
{
	return s->drop_no_port + s->drop_too_long + s->drop_tx_full + s->drop_chain_long +
	       s->drop_chain_open + s->drop_chain_tx;
}

/*
 * "  csum_unfinished 12" at the end of a live line once a frame had an unfinished checksum
 * (docs/forwarding.md), with "  csum_repaired 12" under --csum-repair; else nothing, so that
 * the lines of the common case stay as they were.
 */
static const char *csum_words(const struct xskf_engine *eng, const struct xskf_queue_stats *s,
			      char *buf, size_t len)
{
	buf[0] = 0;
	if (s->csum_unfinished || eng->o.csum_repair)
		snprintf(buf, len, "  csum_unfinished %llu",
			 (unsigned long long)s->csum_unfinished);
	if (eng->o.csum_repair)
		snprintf(buf + strlen(buf), len - strlen(buf), "  csum_repaired %llu",
			 (unsigned long long)s->csum_repaired);
	return buf;
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
		uint64_t busy, asleep;

		if (xskf_engine__idle_stats(eng, i, &st))
			continue;
		busy = st.busy_ns - p->busy_ns;
		asleep = st.asleep_ns - p->asleep_ns;
		fprintf(f, "  w%u busy %.0f%% asleep %.0f%% wakeups %llu/%llu", i,
			busy + asleep ? 100.0 * (double)busy / (double)(busy + asleep) : 0.0,
			busy + asleep ? 100.0 * (double)asleep / (double)(busy + asleep) : 0.0,
			(unsigned long long)(st.wakeups - p->wakeups),
			(unsigned long long)(st.empty_wakeups - p->empty_wakeups));
		/* only when it happened: the line of the common case stays as it was */
		if (st.lost_asleep != p->lost_asleep)
			fprintf(f, " lost_asleep %llu",
				(unsigned long long)(st.lost_asleep - p->lost_asleep));
		*p = st;
	}
	fputc('\n', f);
}

void xskf_report__interval(struct xskf_engine *eng, FILE *f, double elapsed, double secs)
{
	struct xskf_queue_stats st, tot = {}, ptot = {};
	char rx[32], tx[32], cs[64];
	unsigned int i, port;
	uint32_t q;

	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_queue_stats *p = &prev[i];

		if (xskf_engine__queue_stats(eng, i, &port, &q, &st))
			continue;
		fmt_rate(rx, sizeof(rx), (double)(st.rx_packets - p->rx_packets) / secs);
		fmt_rate(tx, sizeof(tx), (double)(st.tx_packets - p->tx_packets) / secs);
		if (eng->nr_socks > 1)
			fprintf(f, "[%7.1fs] %s:%u  rx %s  tx %s  rx_total %llu  kernel_drop %llu%s\n",
				elapsed, eng->ports[port].name, q, rx, tx,
				(unsigned long long)st.rx_packets,
				(unsigned long long)(st.k_rx_dropped + st.k_rx_ring_full),
				csum_words(eng, &st, cs, sizeof(cs)));
		tot.rx_packets += st.rx_packets;
		tot.tx_packets += st.tx_packets;
		tot.k_rx_dropped += st.k_rx_dropped + st.k_rx_ring_full;
		tot.drop_tx_full += drops(&st);
		tot.csum_unfinished += st.csum_unfinished;
		tot.csum_repaired += st.csum_repaired;
		ptot.rx_packets += p->rx_packets;
		ptot.tx_packets += p->tx_packets;
		*p = st;
	}
	fmt_rate(rx, sizeof(rx), (double)(tot.rx_packets - ptot.rx_packets) / secs);
	fmt_rate(tx, sizeof(tx), (double)(tot.tx_packets - ptot.tx_packets) / secs);
	fprintf(f, "[%7.1fs] total  rx %s  tx %s  rx_total %llu  tx_total %llu  kernel_drop %llu  "
		   "drop %llu%s",
		elapsed, rx, tx, (unsigned long long)tot.rx_packets,
		(unsigned long long)tot.tx_packets, (unsigned long long)tot.k_rx_dropped,
		(unsigned long long)tot.drop_tx_full, csum_words(eng, &tot, cs, sizeof(cs)));
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
			(unsigned long long)st.drop_app, (unsigned long long)drops(&st),
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

/* @s as a JSON string (an operator's path may hold any byte), or null. */

/* The queue counters as the stats document names them: the rows of xskf_counters.h. */
static const struct {
	const char *obj, *key;
	size_t off;
} qrows[] = {
#define QROW(field, obj, key, src, type, help)                                                     \
	{ #obj, #key, offsetof(struct xskf_queue_stats, field) },
	XSKF_QUEUE_COUNTERS(QROW, XSKF_COUNTER_SKIP)
#undef QROW
};
#define NR_QROWS (sizeof(qrows) / sizeof(qrows[0]))

/*
 * The objects of a queue in the order the document has always had them ("": the queue's own
 * members); an object only a newer row names follows them, in the order of the rows. The rows
 * alone cannot give it: they have chains before tx_meta (struct xskf_queue_stats's order, an
 * ABI), the document tx_meta first (as Prometheus does not: xskfctl_metrics.c takes the rows').
 */
static const char *const qobjs[] = { "", "kernel", "program", "csum", "tx_meta", "chains" };
#define NR_QOBJS (sizeof(qobjs) / sizeof(qobjs[0]))

/*
 * Every counter of @s: the queue's own four a line, then one line per object, each line
 * ending in ",\n     " (the member that closes the queue follows).
 */
static void json_counters(FILE *f, const struct xskf_queue_stats *s)
{
	const char *objs[NR_QOBJS + NR_QROWS];
	unsigned int no = 0, o, i, k;

	for (i = 0; i < NR_QOBJS; i++)
		objs[no++] = qobjs[i];
	for (i = 0; i < NR_QROWS; i++) {
		for (o = 0; o < no && strcmp(objs[o], qrows[i].obj); o++)
			;
		if (o == no)
			objs[no++] = qrows[i].obj;
	}
	for (o = 0; o < no; o++) {
		bool top = !*objs[o];

		for (i = 0, k = 0; i < NR_QROWS; i++) {
			uint64_t v;

			if (strcmp(qrows[i].obj, objs[o]))
				continue;
			memcpy(&v, (const char *)s + qrows[i].off, sizeof(v));
			if (k)
				fputs(top && k % 4 == 0 ? ",\n     " : ", ", f);
			else if (!top)
				fprintf(f, "\"%s\": {", objs[o]);
			fprintf(f, "\"%s\": %llu", qrows[i].key, (unsigned long long)v);
			k++;
		}
		if (k)
			fputs(top ? ",\n     " : "},\n     ", f);
	}
}

static void json_queue(FILE *f, struct xskf_engine *eng, unsigned int i)
{
	struct xskf_queue_stats s;
	unsigned int port;
	uint32_t q;

	xskf_engine__queue_stats(eng, i, &port, &q, &s);
	fprintf(f, "    {\"port\": \"%s\", \"queue\": %u, \"worker\": %u, \"zerocopy\": %s,\n     ",
		eng->ports[port].name, q, eng->socks[i].worker->id,
		eng->socks[i].zerocopy ? "true" : "false");
	json_counters(f, &s);
	fprintf(f, "\"reconciled\": %s}", reconciles(eng, &s) ? "true" : "false");
}

void xskf_report__json(struct xskf_engine *eng, FILE *f, double elapsed, int census_err)
{
	struct xskf_frame_census c;
	struct xskf_version v;
	unsigned int i;

	xskf_version__get(&v);
	fprintf(f,
		"{\n  \"app\": \"%s\",\n  \"backend\": \"%s\",\n  \"version\": \"%s\",\n"
		"  \"plugin_abi\": %d,\n  \"libbpf\": \"%s\",\n  \"libxdp\": \"%s\",\n"
		"  \"duration_s\": %.3f,\n  \"hints_in\": \"%s\",\n  \"ports\": [\n",
		eng->app.name ? eng->app.name : "", eng->be->name, v.xskf, v.plugin_abi, v.libbpf,
		v.libxdp, elapsed,
		/* where the XDP program writes the hints (backend/xdp/features.c) */
		eng->o.no_hints ? "none"
		: eng->hints_user ? "userspace"
		: eng->hints_head ? "headroom"
				  : "data_meta");
	for (i = 0; i < eng->nr_ports; i++) {
		struct xskf_port *p = &eng->ports[i];
		const char *attach, *redirect, *pinned = NULL;
		const uint32_t *served = NULL;
		unsigned int k, nr_served = 0;

		eng->be->port_mode(p, &attach, &redirect);
		fprintf(f,
			"    {\"name\": \"%s\", \"ifindex\": %d, \"attach_mode\": \"%s\", "
			"\"redirect\": \"%s\", \"rx_queues\": %u, \"numa_node\": %d, ",
			p->name, p->ifindex, attach, redirect, p->nr_hw_queues, p->numa_node);
		/* --serve's queues (other apps' sockets) and where the maps are pinned (pin.c) */
		if (eng->be->port_served)
			eng->be->port_served(p, &served, &nr_served, &pinned);
		fprintf(f, "\"served\": [");
		for (k = 0; k < nr_served; k++)
			fprintf(f, "%s%u", k ? ", " : "", served[k]);
		fprintf(f, "], \"pinned\": ");
		xj_write_str(f, pinned);
		fprintf(f, "}%s\n", i + 1 < eng->nr_ports ? "," : "");
	}
	fprintf(f, "  ],\n  \"queues\": [\n");
	for (i = 0; i < eng->nr_socks; i++) {
		json_queue(f, eng, i);
		fprintf(f, "%s\n", i + 1 < eng->nr_socks ? "," : "");
	}
	fprintf(f, "  ],\n  \"census\": [\n");
	for (i = 0; i < eng->nr_workers; i++) {
		const struct xskf_umem *um = &eng->workers[i].umem;
		int ok = xskf_engine__census(eng, i, &c) == 0;

		fprintf(f,
			"    {\"worker\": %u, \"hugepages\": %s, \"page_size\": %llu, "
			"\"umem_bytes\": %zu, \"umem_file\": %s, \"umem_node\": %d, "
			"\"umem_pages_on_node\": %ld, \"total\": %llu, \"cache\": %llu, "
			"\"fill_ring\": %llu, \"rx_ring\": %llu, \"rx_kernel\": %llu, \"tx_pending\": "
			"%llu, \"tx_ring\": %llu, \"comp_ring\": %llu, \"tx_kernel\": %llu, \"ok\": "
			"%s}%s\n",
			i, um->hugepages ? "true" : "false", (unsigned long long)um->page_size, um->size,
			um->huge_file ? "true" : "false", um->numa_node, um->pages_on_node,
			(unsigned long long)c.total, (unsigned long long)c.cache,
			(unsigned long long)c.fill_ring, (unsigned long long)c.rx_ring,
			(unsigned long long)c.rx_kernel, (unsigned long long)c.tx_pending,
			(unsigned long long)c.tx_ring, (unsigned long long)c.comp_ring,
			(unsigned long long)c.tx_kernel, ok ? "true" : "false",
			i + 1 < eng->nr_workers ? "," : "");
	}
	fprintf(f, "  ],\n  \"idle\": \"%s\",\n  \"workers\": [\n", xskf_idle__name(eng->o.idle));
	for (i = 0; i < eng->nr_workers; i++) {
		struct xskf_idle_stats st = { .sz = sizeof(st) };

		xskf_engine__idle_stats(eng, i, &st);
		fprintf(f,
			"    {\"worker\": %u, \"busy_ns\": %llu, \"asleep_ns\": %llu, \"wakeups\": "
			"%llu, \"empty_wakeups\": %llu, \"lost_asleep\": %llu}%s\n",
			i, (unsigned long long)st.busy_ns, (unsigned long long)st.asleep_ns,
			(unsigned long long)st.wakeups, (unsigned long long)st.empty_wakeups,
			(unsigned long long)st.lost_asleep, i + 1 < eng->nr_workers ? "," : "");
	}
	fprintf(f, "  ],\n  \"census_ok\": %s", census_err ? "false" : "true");
	xskf_steer_cmd__json(eng, f);
	if (eng->be->json)
		eng->be->json(eng, f);
	if (eng->app.json) {
		fprintf(f, ",\n  \"app_stats\": ");
		eng->app.json(eng->app_ctx, eng, f);
	}
	fprintf(f, "\n}\n");
	fflush(f);
}

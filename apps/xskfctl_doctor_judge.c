// SPDX-License-Identifier: BSD-2-Clause
/*
 * The judge of `xskfctl doctor`: two samples of a run's answers, and every frame lost between
 * them explained by the counters that moved (xskfctl_doctor.c lists the causes). Nothing here
 * reads a socket or a file: tests/unit/test_xskfctl_doctor.c gives it made-up samples.
 *
 * Where a frame goes, per queue (report.c's reconciliation, over the window):
 *   program redirected = socket rx_packets + kernel rx_dropped + kernel rx_ring_full
 *                        + multi-buffer frames dropped whole + frames still in the RX ring
 * and frames the program passed to the stack are counted apart (passed), on bound queues and
 * on the others alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h" /* util/ */
#include "xskfctl_doctor.h"

void dr_add(struct dr_out *o, int sev, const char *check, const char *fmt, ...)
{
	struct dr_line *l;
	va_list ap;

	if (o->n == DR_MAX_LINES)
		return;
	l = &o->l[o->n++];
	l->sev = sev;
	snprintf(l->check, sizeof(l->check), "%.*s", (int)sizeof(l->check) - 1, check);
	va_start(ap, fmt);
	xskf_finding__vformat(XSKF_FINDING_TEXT(l), fmt, ap);
	va_end(ap);
}

/* @key of @obj, or of its member object @sub (NULL: @obj's own). */
static uint64_t val(const struct xj_node *n, int obj, const char *sub, const char *key)
{
	int o = sub ? xj_get(n, obj, sub) : obj;

	return o >= 0 ? xj_u64(n, o, key, NULL) : 0;
}

/* What grew between @a's and @b's (0 when it did not: a counter never goes back). */
static uint64_t grew(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* The element of array @arr whose @key is @v, or -1. */
static int find(const struct xj_node *n, int arr, const char *key, uint64_t v)
{
	int e;

	for (e = xj_first(n, arr); e >= 0; e = xj_next(n, arr, e))
		if (xj_u64(n, e, key, NULL) == v)
			return e;
	return -1;
}

/* The element of array @arr whose string @key is @s, or -1. */
static int find_str(const struct xj_node *n, int arr, const char *key, const char *s)
{
	int e;

	for (e = xj_first(n, arr); e >= 0; e = xj_next(n, arr, e))
		if (!strcmp(xj_str(n, e, key, ""), s))
			return e;
	return -1;
}

/* The queue @q of port @port in the array @arr, or -1. */
static int find_queue(const struct xj_node *n, int arr, const char *port, uint64_t q)
{
	int e;

	for (e = xj_first(n, arr); e >= 0; e = xj_next(n, arr, e))
		if (xj_u64(n, e, "queue", NULL) == q && !strcmp(xj_str(n, e, "port", ""), port))
			return e;
	return -1;
}

/* Steering's count @key ("pass", "cpumap") on @port's queue @q, in sample @n (0: none). */
static uint64_t steer_count(const struct xj_node *n, const char *port, uint64_t q, const char *key)
{
	int p = find_str(n, xj_get(n, 0, "steering"), "port", port);
	int e = p >= 0 ? find(n, xj_get(n, p, "queues"), "queue", q) : -1;

	return e >= 0 ? val(n, e, NULL, key) : 0;
}

/* One queue's window: its deltas and where it lives. */
struct qwin {
	const char *port;
	uint64_t queue, worker;
	uint64_t rx, redir, passed, errors, kdrop, kfull, kfempty, wfempty;
	uint64_t txfull, txring, other, chains, tx, stpass, stcpu;
	bool no_prog;  /* no program of the run's counts (memory backend, a served run) */
	bool zc;       /* a zero-copy socket: an empty fill ring leaves the NIC without buffers */
	double busy;   /* its worker's busy share in the window, 0..1 (-1: unknown) */
	double busy_s; /* its worker's time at work in the window */
	uint64_t lost_asleep, rx_ring, fill, rxr, txr, comp, batch, frames, socks;
	double secs;
};

#define D(sub, key) grew(val(an, qa, sub, key), val(bn, qb, sub, key))

static void window(struct qwin *w, const struct dr_sample *a, const struct dr_sample *b, int qa,
		   int qb)
{
	const struct xj_node *an = a->stats.n, *bn = b->stats.n, *dn = b->dr.n;
	int wa, wb, c;
	uint64_t busy, asleep;

	w->port = xj_str(bn, qb, "port", "?");
	/* the run's own reconciled holds a served run (--xsk-map) to nothing: report.c */
	w->no_prog =
	    strcmp(xj_str(bn, 0, "backend", "xdp"), "xdp") ||
	    (!grew(val(an, qa, "program", "redirected"), val(bn, qb, "program", "redirected")) &&
	     xj_get(bn, qb, "reconciled") >= 0 &&
	     bn[xj_get(bn, qb, "reconciled")].type == XJ_TRUE &&
	     grew(val(an, qa, NULL, "rx_packets"), val(bn, qb, NULL, "rx_packets")));
	w->zc = xj_get(bn, qb, "zerocopy") >= 0 && bn[xj_get(bn, qb, "zerocopy")].type == XJ_TRUE;
	w->queue = val(bn, qb, NULL, "queue");
	w->worker = val(bn, qb, NULL, "worker");
	w->rx = D(NULL, "rx_packets");
	w->redir = D("program", "redirected");
	w->passed = D("program", "passed");
	w->errors = D("program", "errors");
	w->kdrop = D("kernel", "rx_dropped");
	w->kfull = D("kernel", "rx_ring_full");
	w->kfempty = D("kernel", "rx_fill_ring_empty_descs");
	w->wfempty = D(NULL, "fill_ring_empty");
	w->txfull = D(NULL, "drop_tx_full");
	w->txring = D(NULL, "tx_ring_full");
	w->tx = D(NULL, "tx_packets");
	w->other = D(NULL, "drop_no_port") + D(NULL, "drop_too_long") + D("chains", "drop_tx");
	w->chains = D("chains", "drop_long") + D("chains", "drop_open");
	wa = find(an, xj_get(an, 0, "workers"), "worker", w->worker);
	wb = find(bn, xj_get(bn, 0, "workers"), "worker", w->worker);
	busy = wa >= 0 && wb >= 0 ? grew(val(an, wa, NULL, "busy_ns"), val(bn, wb, NULL, "busy_ns"))
				  : 0;
	asleep = wa >= 0 && wb >= 0
		     ? grew(val(an, wa, NULL, "asleep_ns"), val(bn, wb, NULL, "asleep_ns"))
		     : 0;
	w->busy = busy + asleep ? (double)busy / (double)(busy + asleep) : -1;
	w->busy_s = (double)busy / 1e9;
	w->lost_asleep = wa >= 0 && wb >= 0 ? grew(val(an, wa, NULL, "lost_asleep"),
						   val(bn, wb, NULL, "lost_asleep"))
					    : 0;
	c = find(bn, xj_get(bn, 0, "census"), "worker", w->worker);
	w->rx_ring = c >= 0 ? val(bn, c, NULL, "rx_ring") : 0;
	w->fill = val(dn, 0, "rings", "fill");
	w->rxr = val(dn, 0, "rings", "rx");
	w->txr = val(dn, 0, "rings", "tx");
	w->comp = val(dn, 0, "rings", "comp");
	w->batch = val(dn, 0, "rings", "batch");
	c = find(dn, xj_get(dn, 0, "workers"), "worker", w->worker);
	w->frames = c >= 0 ? val(dn, c, NULL, "umem_frames") : 0;
	w->socks = c >= 0 ? val(dn, c, NULL, "sockets") : 1;
	w->stpass = grew(steer_count(an, w->port, w->queue, "pass"),
			 steer_count(bn, w->port, w->queue, "pass"));
	/* frames a rule sent to other CPUs (cpumap) the program counts as passed too */
	w->stcpu = grew(steer_count(an, w->port, w->queue, "cpumap"),
			steer_count(bn, w->port, w->queue, "cpumap"));
}

#undef D

/*
 * "worker 0 worked 0.90 s of the 4.1 s, 125.0 us per frame received": what the app costs per
 * frame says more than the busy share, which the time before and after a burst dilutes.
 */
static const char *busy_words(const struct qwin *w, char *buf, size_t len)
{
	if (w->busy < 0)
		snprintf(buf, len, "worker %llu's time at work unknown",
			 (unsigned long long)w->worker);
	else if (w->rx)
		snprintf(buf, len,
			 "worker %llu worked %.2f s of the %.1f s, %.1f us per frame "
			 "received",
			 (unsigned long long)w->worker, w->busy_s, w->secs,
			 w->busy_s * 1e6 / (double)w->rx);
	else
		snprintf(buf, len, "worker %llu worked %.2f s of the %.1f s and received nothing",
			 (unsigned long long)w->worker, w->busy_s, w->secs);
	return buf;
}

/*
 * How an empty fill ring showed. Copy mode: the kernel dropped each frame that found it empty
 * (rx_dropped). Zero-copy: the driver found no buffer to give the NIC, which then holds or drops
 * the frames before XDP, where no counter of the socket's sees them; the kernel counts only the
 * driver's attempts (rx_fill_ring_empty_descs: virtio-net on 7.3.4 with the slow test app, 3 in
 * 30 s, rx_dropped 0, the tap holding the frames).
 */
static void fill_head(const struct qwin *w, char *buf, size_t len)
{
	if (w->zc && !w->kdrop)
		snprintf(buf, len,
			 "%s queue %llu: the fill ring was empty %llu times, and the NIC had no "
			 "buffer for the frames that came (zero-copy: they wait in the NIC or are "
			 "dropped there, where no counter here sees them)",
			 w->port, (unsigned long long)w->queue, (unsigned long long)w->kfempty);
	else
		snprintf(buf, len,
			 "%s queue %llu lost %llu frames: the fill ring was empty when they came",
			 w->port, (unsigned long long)w->queue, (unsigned long long)w->kdrop);
}

/* The fill ring was empty when frames came: the UMEM too small, the worker too slow or asleep. */
static void fill_empty(struct dr_out *o, const struct qwin *w)
{
	char bw[128], head[256];
	uint64_t need = w->socks * w->fill;

	busy_words(w, bw, sizeof(bw));
	fill_head(w, head, sizeof(head));
	if (w->frames && w->frames < need) {
		dr_add(
		    o, DR_PROBLEM, "fill-empty",
		    "%s, and the UMEM is too small to fill it\nkernel rx_dropped +%llu, "
		    "rx_fill_ring_empty_descs +%llu; the UMEM has %llu frames for %llu socket%s, "
		    "each fill ring %llu slots (%llu frames to fill them)\n--frames %llu or "
		    "more (or leave --frames out: the fill and TX rings of every socket)",
		    head, (unsigned long long)w->kdrop, (unsigned long long)w->kfempty,
		    (unsigned long long)w->frames, (unsigned long long)w->socks,
		    w->socks > 1 ? "s" : "", (unsigned long long)w->fill, (unsigned long long)need,
		    (unsigned long long)(2 * need));
		return;
	}
	/* most of them lost while the worker slept: it was asleep, not slow */
	if (2 * w->lost_asleep > w->kdrop) {
		dr_add(
		    o, DR_PROBLEM, "fill-empty",
		    "%s queue %llu lost %llu frames: the fill ring ran dry while the worker slept "
		    "(idle) and a burst came\nkernel rx_dropped +%llu, rx_fill_ring_empty_descs "
		    "+%llu; lost while asleep +%llu; %s\n--idle busy (or a bigger --fill-ring "
		    "and --frames to hold a burst)",
		    w->port, (unsigned long long)w->queue, (unsigned long long)w->kdrop,
		    (unsigned long long)w->kdrop, (unsigned long long)w->kfempty,
		    (unsigned long long)w->lost_asleep, bw);
		return;
	}
	dr_add(o, DR_PROBLEM, "fill-empty",
	       "%s: the app gives buffers back slower than the traffic takes them\nkernel "
	       "rx_dropped +%llu, rx_fill_ring_empty_descs +%llu in %.1f s (%llu of them while "
	       "the worker slept); fill ring %llu slots, UMEM %llu frames for %llu socket%s; "
	       "%s\na cheaper app per frame, or more queues and workers (-q, --cpus); a bigger "
	       "--fill-ring and --frames only ride out bursts",
	       head, (unsigned long long)w->kdrop, (unsigned long long)w->kfempty, w->secs,
	       (unsigned long long)w->lost_asleep, (unsigned long long)w->fill,
	       (unsigned long long)w->frames, (unsigned long long)w->socks, w->socks > 1 ? "s" : "",
	       bw);
}

/*
 * The RX ring was full when frames came. An RX ring smaller than the fill ring is full while
 * the fill ring still holds buffers (the kernel checks the RX ring's room first: net/xdp/xsk.c
 * __xsk_rcv): the buffers the fill ring holds cannot wait anywhere, and a ring as big as the
 * fill ring is the fix; else the worker is slow, as with an empty fill ring.
 */
static void rx_full(struct dr_out *o, const struct qwin *w, const char *bw)
{
	char fix[256];

	if (w->rxr && w->rxr < w->fill)
		snprintf(fix, sizeof(fix),
			 "--rx-ring %llu (the fill ring's size: each buffer it holds can then "
			 "wait in the RX ring); else a cheaper app per frame, or more queues",
			 (unsigned long long)w->fill);
	else
		snprintf(
		    fix, sizeof(fix),
		    "a cheaper app per frame, or more queues and workers (-q, --cpus); "
		    "--rx-ring %llu --fill-ring %llu (--frames to match) ride out longer bursts",
		    (unsigned long long)(2 * w->rxr), (unsigned long long)(2 * w->fill));
	dr_add(o, DR_PROBLEM, "rx-ring-full",
	       "%s queue %llu lost %llu frames: the RX ring was full: the worker takes frames off "
	       "it slower than they come\nkernel rx_ring_full +%llu, rx_dropped +%llu, "
	       "rx_fill_ring_empty_descs +%llu in %.1f s; RX ring %llu slots, fill ring %llu, "
	       "bursts of %llu; %s\n%s",
	       w->port, (unsigned long long)w->queue, (unsigned long long)w->kfull,
	       (unsigned long long)w->kfull, (unsigned long long)w->kdrop,
	       (unsigned long long)w->kfempty, w->secs, (unsigned long long)w->rxr,
	       (unsigned long long)w->fill, (unsigned long long)w->batch, bw, fix);
}

/* The kernel's losses on one bound queue. */
static void kernel_losses(struct dr_out *o, const struct qwin *w)
{
	char bw[128];

	busy_words(w, bw, sizeof(bw));
	if (w->kfempty && (w->kdrop || w->zc))
		fill_empty(o, w);
	else if (w->kdrop)
		dr_add(
		    o, DR_PROBLEM, "rx-dropped",
		    "%s queue %llu: the kernel dropped %llu frames with buffers in the fill ring: "
		    "frames longer than a UMEM frame holds (or invalid)\nkernel rx_dropped +%llu, "
		    "rx_fill_ring_empty_descs +0\nxskf doctor -i %s (its mtu line: --frame-size "
		    "4096, or a lower MTU)",
		    w->port, (unsigned long long)w->queue, (unsigned long long)w->kdrop,
		    (unsigned long long)w->kdrop, w->port);
	if (w->kfull)
		rx_full(o, w, bw);
}

/*
 * Frames to send dropped: the TX ring stayed full longer than the worker's staging (two bursts)
 * could wait. The ring drains only as fast as the kernel sends and completes (copy mode: at
 * each kick, at most the ring); a burst bigger than the ring fills it at once.
 */
static void tx_full(struct dr_out *o, const struct qwin *w)
{
	uint64_t want = 2 * (w->batch > w->txr ? w->batch : w->txr), p = 64;

	while (p < want)
		p <<= 1;
	dr_add(o, DR_PROBLEM, "tx-full",
	       "%s queue %llu: %llu frames to send were dropped: the TX ring stayed full "
	       "(completions come late, or the port sends slower than the app)\ndrop_tx_full "
	       "+%llu, TX ring found full %llu times, sent +%llu; TX ring %llu slots, completion "
	       "ring %llu, bursts of %llu\n--tx-ring %llu --comp-ring %llu (or a slower sender)",
	       w->port, (unsigned long long)w->queue, (unsigned long long)w->txfull,
	       (unsigned long long)w->txfull, (unsigned long long)w->txring,
	       (unsigned long long)w->tx, (unsigned long long)w->txr, (unsigned long long)w->comp,
	       (unsigned long long)w->batch, (unsigned long long)p, (unsigned long long)p);
}

/* What the program and the worker counted on one bound queue. */
static void worker_losses(struct dr_out *o, const struct qwin *w)
{
	uint64_t q = w->queue;

	/* the rules' own choice: said, not a loss of the run's */
	if (w->passed && w->stpass)
		dr_add(
		    o, DR_INFO, "passed",
		    "%s queue %llu: the steering rules passed %llu frames to the stack\n"
		    "program passed +%llu, steering pass +%llu (xskfctl steer list: each "
		    "rule's hits)\nxskfctl steer del ID (if a rule passes what the app should get)",
		    w->port, (unsigned long long)q, (unsigned long long)w->stpass,
		    (unsigned long long)w->passed, (unsigned long long)w->stpass);
	if (w->passed > w->stpass + w->stcpu)
		dr_add(
		    o, DR_PROBLEM, "passed",
		    "%s queue %llu: the program passed %llu frames to the stack though this run "
		    "binds the queue: its socket was not in the XSKMAP\nprogram passed +%llu, by "
		    "steering rules +%llu (pass) and +%llu (to CPUs)\nrestart the run "
		    "(xskfctl stats: its queues)",
		    w->port, (unsigned long long)q,
		    (unsigned long long)(w->passed - w->stpass - w->stcpu),
		    (unsigned long long)w->passed, (unsigned long long)w->stpass,
		    (unsigned long long)w->stcpu);
	if (w->errors)
		dr_add(o, DR_PROBLEM, "errors",
		       "%s queue %llu: the program could not deliver %llu frames (no room for the "
		       "RX hints, or the redirect failed)\nprogram errors +%llu\n--no-hints, if "
		       "the frames come without headroom",
		       w->port, (unsigned long long)q, (unsigned long long)w->errors,
		       (unsigned long long)w->errors);
	if (w->txfull)
		tx_full(o, w);
	if (w->other)
		dr_add(
		    o, DR_PROBLEM, "other-drops",
		    "%s queue %llu: the worker dropped %llu frames: to a port that is not there, "
		    "too long for their port, or with more buffers than it takes\ndrop_no_port + "
		    "drop_too_long + chains.drop_tx = +%llu\nxskfctl stats (the queue's counters)",
		    w->port, (unsigned long long)q, (unsigned long long)w->other,
		    (unsigned long long)w->other);
}

/* redirected = received + kernel drops + multi-buffer drops + frames still in the RX ring. */
static void reconcile(struct dr_out *o, const struct qwin *w)
{
	uint64_t acc = w->rx + w->kdrop + w->kfull + w->chains;
	/* read a moment apart: frames in the RX ring, and a burst the worker holds */
	uint64_t slack = w->rx_ring + w->batch;

	if (w->no_prog || (acc + slack >= w->redir && acc <= w->redir + slack))
		return;
	dr_add(o, DR_PROBLEM, "reconcile",
	       "%s queue %llu: the counters do not reconcile: the program redirected %llu frames, "
	       "the socket accounts for %llu\nreceived +%llu, kernel rx_dropped +%llu, "
	       "rx_ring_full +%llu, multi-buffer drops +%llu; %llu in the RX ring at the end\n"
	       "report it with both samples (xskfctl stats, twice)",
	       w->port, (unsigned long long)w->queue, (unsigned long long)w->redir,
	       (unsigned long long)acc, (unsigned long long)w->rx, (unsigned long long)w->kdrop,
	       (unsigned long long)w->kfull, (unsigned long long)w->chains,
	       (unsigned long long)w->rx_ring);
}

/* The bound queues of @a and @b: each one's window, judged. Returns the frames they got. */
static uint64_t judge_bound(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b)
{
	const struct xj_node *an = a->stats.n, *bn = b->stats.n;
	int qs = xj_get(bn, 0, "queues"), qb;
	uint64_t got = 0;

	for (qb = xj_first(bn, qs); qb >= 0; qb = xj_next(bn, qs, qb)) {
		struct qwin w = {.secs = b->t - a->t};
		int qa = find_queue(an, xj_get(an, 0, "queues"), xj_str(bn, qb, "port", ""),
				    val(bn, qb, NULL, "queue"));

		if (qa < 0)
			continue;
		window(&w, a, b, qa, qb);
		got += w.redir;
		kernel_losses(o, &w);
		worker_losses(o, &w);
		reconcile(o, &w);
	}
	return got;
}

/*
 * The queues of each port this run binds no socket on: frames the program passed there went to
 * the stack. @got: what the bound queues received, to say when they got nothing at all.
 */
static void judge_unbound(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b,
			  uint64_t got)
{
	const struct xj_node *an = a->dr.n, *bn = b->dr.n, *sn = b->stats.n;
	int ports = xj_get(bn, 0, "ports"), p;

	for (p = xj_first(bn, ports); p >= 0; p = xj_next(bn, ports, p)) {
		const char *port = xj_str(bn, p, "name", "?");
		int pa = find_str(an, xj_get(an, 0, "ports"), "name", port);
		int arr = xj_get(bn, p, "program"), e;

		for (e = xj_first(bn, arr); pa >= 0 && e >= 0; e = xj_next(bn, arr, e)) {
			uint64_t q = val(bn, e, NULL, "queue");
			int ea = find(an, xj_get(an, pa, "program"), "queue", q);
			uint64_t pass = grew(ea >= 0 ? val(an, ea, NULL, "passed") : 0,
					     val(bn, e, NULL, "passed"));

			if (!pass || find_queue(sn, xj_get(sn, 0, "queues"), port, q) >= 0)
				continue;
			dr_add(
			    o, DR_PROBLEM, "unbound-queue",
			    "%llu frames arrived on %s queue %llu, where this run binds no socket: "
			    "the program passed them to the stack%s\nprogram passed +%llu on queue "
			    "%llu; the bound queues received %llu\nbind queue %llu too (-q %llu), "
			    "or "
			    "steer the flow to a bound queue (xskf doctor -i %s: RSS, ntuple)",
			    (unsigned long long)pass, port, (unsigned long long)q,
			    got ? "" : ", while the bound queues received nothing",
			    (unsigned long long)pass, (unsigned long long)q,
			    (unsigned long long)got, (unsigned long long)q, (unsigned long long)q,
			    port);
		}
	}
}

/* Is CPU @cpu in the list @l ("0-3,6")? */
static bool in_list(const char *l, long cpu)
{
	while (*l) {
		char *end;
		long lo = strtol(l, &end, 10), hi = lo;

		if (end == l)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		l = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return false;
	}
	return false;
}

/* What the doctor answer says of the sockets: their interrupt's CPU, NAPI IDs, programs. */
static void judge_setup(struct dr_out *o, const struct dr_sample *b)
{
	const struct xj_node *n = b->dr.n;
	int arr = xj_get(n, 0, "sockets"), s, bp = xj_get(n, 0, "busy_poll");
	unsigned int nonapi = 0, socks = 0;

	for (s = xj_first(n, arr); s >= 0; s = xj_next(n, arr, s)) {
		int cpu = (int)(int64_t)xj_num(n, s, "cpu");
		const char *aff = xj_str(n, s, "irq_cpus", "");

		nonapi += !val(n, s, NULL, "napi_id");
		socks++;
		if (cpu < 0 || !aff[0] || !in_list(aff, cpu))
			continue;
		dr_add(
		    o, DR_PROBLEM, "irq-cpu",
		    "%s queue %llu: worker %llu polls on CPU %d, where the queue's interrupt runs: "
		    "the softirq that fills its rings and the worker take turns\nIRQ %llu (%s), "
		    "effective affinity %s; the worker pinned to CPU %d (--cpus)\necho CPU > "
		    "/proc/irq/%llu/smp_affinity_list with a CPU no worker uses (or other "
		    "--cpus)",
		    xj_str(n, s, "port", "?"), (unsigned long long)val(n, s, NULL, "queue"),
		    (unsigned long long)val(n, s, NULL, "worker"), cpu,
		    (unsigned long long)val(n, s, NULL, "irq"), xj_str(n, s, "irq_name", "?"), aff,
		    cpu, (unsigned long long)val(n, s, NULL, "irq"));
	}
	if (bp >= 0 && xj_get(n, bp, "asked") >= 0 && n[xj_get(n, bp, "asked")].type == XJ_TRUE &&
	    xj_get(n, bp, "on") >= 0 && n[xj_get(n, bp, "on")].type != XJ_TRUE)
		dr_add(o, DR_PROBLEM, "busy-poll",
		       "busy polling (-B) was asked and is off: %u of the run's %u sockets %s no "
		       "NAPI ID to poll (their driver names none, as veth)\ndoctor answer: "
		       "busy_poll.asked true, on false; napi_id 0 on %u socket%s\ndrop -B (the "
		       "worker polls its rings either way)",
		       nonapi, socks, nonapi == 1 ? "has" : "have", nonapi, nonapi == 1 ? "" : "s");
	arr = xj_get(n, 0, "programs");
	for (s = xj_first(n, arr); s >= 0; s = xj_next(n, arr, s))
		dr_add(o, strcmp(xj_str(n, s, "severity", ""), "problem") ? DR_INFO : DR_PROBLEM,
		       xj_str(n, s, "check", "xdp"), "%s\n%s\n%s", xj_str(n, s, "what", ""),
		       xj_str(n, s, "evidence", ""), xj_str(n, s, "fix", ""));
}

/* A bound queue that starves beside one that took at least this many frames: a skew to say. */
#define DR_SKEW_MIN 100

/*
 * Port @port's bound queues: one received nothing while another took the traffic. Not a loss,
 * but not what a run on several queues asks for: the port's rx-flow-hash problem (the run's
 * doctor answer, "steering") is the cause when there is one, else the traffic is one flow.
 */
static void judge_skew_port(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b,
			    const char *port, int steer)
{
	const struct xj_node *an = a->stats.n, *bn = b->stats.n, *dn = b->dr.n;
	int qs = xj_get(bn, 0, "queues"), qb, e;
	uint64_t most = 0, mq = 0, idle = 0, nb = 0, d;
	bool starved = false;

	for (qb = xj_first(bn, qs); qb >= 0; qb = xj_next(bn, qs, qb)) {
		int qa;

		if (strcmp(xj_str(bn, qb, "port", ""), port))
			continue;
		qa = find_queue(an, xj_get(an, 0, "queues"), port, val(bn, qb, NULL, "queue"));
		if (qa < 0)
			continue;
		nb++;
		d = grew(val(an, qa, "program", "redirected"),
			 val(bn, qb, "program", "redirected"));
		if (d > most)
			most = d, mq = val(bn, qb, NULL, "queue");
		if (!d && !starved)
			starved = true, idle = val(bn, qb, NULL, "queue");
	}
	if (nb < 2 || !starved || most < DR_SKEW_MIN)
		return;
	for (e = xj_first(dn, steer); e >= 0; e = xj_next(dn, steer, e)) {
		if (strcmp(xj_str(dn, e, "check", ""), "rx-flow-hash"))
			continue;
		dr_add(o, DR_PROBLEM, "rx-flow-hash",
		       "%s queue %llu received nothing while queue %llu received %llu frames: %s\n"
		       "program redirected +0 and +%llu; %s\n%s",
		       port, (unsigned long long)idle, (unsigned long long)mq,
		       (unsigned long long)most, xj_str(dn, e, "what", ""),
		       (unsigned long long)most, xj_str(dn, e, "evidence", ""),
		       xj_str(dn, e, "fix", ""));
		return;
	}
	dr_add(o, DR_INFO, "skew",
	       "%s queue %llu received nothing while queue %llu received %llu frames: the NIC put "
	       "all of this traffic on one queue (one flow, or an RSS table or ntuple rule that "
	       "sends it there)\nprogram redirected +0 and +%llu; no rx-flow-hash problem known on "
	       "the port\nxskf doctor -i %s (RSS table, ntuple rules)",
	       port, (unsigned long long)idle, (unsigned long long)mq, (unsigned long long)most,
	       (unsigned long long)most, port);
}

static void judge_skew(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b)
{
	const struct xj_node *dn = b->dr.n;
	int ports = xj_get(dn, 0, "ports"), p;

	for (p = xj_first(dn, ports); p >= 0; p = xj_next(dn, ports, p))
		judge_skew_port(o, a, b, xj_str(dn, p, "name", "?"), xj_get(dn, p, "steering"));
}

void dr_judge(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b)
{
	uint64_t got = judge_bound(o, a, b);

	judge_unbound(o, a, b, got);
	judge_skew(o, a, b);
	judge_setup(o, b);
}

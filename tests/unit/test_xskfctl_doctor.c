// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl doctor`'s judge (apps/xskfctl_doctor_judge.c) with made-up samples of a run's
 * `stats` and `doctor` answers: each loss made on purpose is named by exactly one line, of its
 * cause, and a window without loss says nothing.
 */
#include <stdio.h>
#include <string.h>

#include "../tap.h"
#include "xskfctl_doctor.h"

/* The counters a case sets; the rest are 0. */
struct win {
	unsigned long long rx, redir, passed1, kdrop, kfull, kfempty, umem;
	unsigned long long busy, asleep, lost_asleep;
	unsigned long long txfull, txring, tx; /* the worker's TX counts */
	unsigned int rxr, txr, batch;	       /* ring sizes and burst (0: 2048, 2048, 64) */
	const char *irq_cpus;
	bool bp_asked, bp_on, zc;
	unsigned int napi;
};

static void doc(struct xj_doc *d, const char *text)
{
	size_t off;
	const char *why;

	if (xj_doc__new(d, text, strlen(text), &off, &why))
		printf("# bad test JSON at %zu: %s\n", off, why);
}

static void sample(struct dr_sample *s, const struct win *w, double t)
{
	char st[2048], dr[2048];

	snprintf(
	    st, sizeof(st),
	    "{\"queues\": [{\"port\": \"eth0\", \"queue\": 0, \"worker\": 0, \"zerocopy\": %s, "
	    "\"rx_packets\": %llu, "
	    "\"tx_packets\": %llu, \"drop_tx_full\": %llu, \"tx_ring_full\": %llu, "
	    "\"kernel\": {\"rx_dropped\": %llu, \"rx_ring_full\": %llu, "
	    "\"rx_fill_ring_empty_descs\": %llu}, \"program\": {\"redirected\": %llu, "
	    "\"passed\": 0, \"errors\": 0}}], \"census\": [{\"worker\": 0, \"rx_ring\": 0}], "
	    "\"workers\": [{\"worker\": 0, \"busy_ns\": %llu, \"asleep_ns\": %llu, "
	    "\"lost_asleep\": %llu}]}",
	    w->zc ? "true" : "false", w->rx, w->tx, w->txfull, w->txring, w->kdrop, w->kfull,
	    w->kfempty, w->redir, w->busy, w->asleep, w->lost_asleep);
	snprintf(
	    dr, sizeof(dr),
	    "{\"doctor\": 1, \"rings\": {\"rx\": %u, \"tx\": %u, \"fill\": 2048, \"comp\": "
	    "2048, \"frame_size\": 2048, \"batch\": %u}, \"busy_poll\": {\"asked\": %s, \"on\": "
	    "%s}, \"idle\": \"adaptive\", \"workers\": [{\"worker\": 0, \"cpu\": 1, "
	    "\"umem_frames\": %llu, \"sockets\": 1}], \"ports\": [{\"name\": \"eth0\", "
	    "\"rx_queues\": 2, \"program\": [{\"queue\": 0, \"redirected\": %llu, \"passed\": 0, "
	    "\"errors\": 0}, {\"queue\": 1, \"redirected\": 0, \"passed\": %llu, \"errors\": "
	    "0}]}], "
	    "\"sockets\": [{\"port\": \"eth0\", \"queue\": 0, \"worker\": 0, \"cpu\": 1, "
	    "\"napi_id\": %u, \"irq\": 45, \"irq_name\": \"eth0-TxRx-0\", \"irq_cpus\": \"%s\"}], "
	    "\"programs\": []}",
	    w->rxr ? w->rxr : 2048, w->txr ? w->txr : 2048, w->batch ? w->batch : 64,
	    w->bp_asked ? "true" : "false", w->bp_on ? "true" : "false", w->umem ? w->umem : 4096,
	    w->redir, w->passed1, w->napi, w->irq_cpus ? w->irq_cpus : "");
	doc(&s->stats, st);
	doc(&s->dr, dr);
	s->t = t;
}

/*
 * Judge the window @a -> @b: exactly one line, of check @check, holding @text (or none), and
 * @fix in its fix when given.
 */
static void judge_fix(const char *name, const struct win *a, const struct win *b, const char *check,
		      const char *text, const char *fix)
{
	static struct dr_out o;
	struct dr_sample sa = {}, sb = {};

	memset(&o, 0, sizeof(o));
	sample(&sa, a, 0);
	sample(&sb, b, 3);
	dr_judge(&o, &sa, &sb);
	if (!check)
		CHECK(o.n == 0, "%s: no line (got %u, the first: %s)", name, o.n,
		      o.n ? o.l[0].what : "-");
	else
		CHECK(o.n == 1 && !strcmp(o.l[0].check, check) && o.l[0].sev == DR_PROBLEM &&
			  strstr(o.l[0].what, text),
		      "%s: one line, %s (got %u: %s %s)", name, check, o.n,
		      o.n ? o.l[0].check : "-", o.n ? o.l[0].what : "-");
	if (check && fix)
		CHECK(o.n == 1 && strstr(o.l[0].fix, fix), "%s: the fix holds '%s' (got: %s)", name,
		      fix, o.n ? o.l[0].fix : "-");
	xj_doc__free(&sa.stats);
	xj_doc__free(&sa.dr);
	xj_doc__free(&sb.stats);
	xj_doc__free(&sb.dr);
}

/*
 * Two bound queues of eth0 that received @r0 and @r1 frames in the window, the port's
 * "steering" findings @steer (a JSON array): exactly one line of @check holding @text, of
 * severity @sev (or none).
 */
static void skew(const char *name, unsigned long long r0, unsigned long long r1, const char *steer,
		 const char *check, int sev, const char *text)
{
	static struct dr_out o;
	struct dr_sample s[2] = {};
	char st[1024], dr[1024];
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(
		    st, sizeof(st),
		    "{\"queues\": [{\"port\": \"eth0\", \"queue\": 0, \"worker\": 0, "
		    "\"rx_packets\": %llu, \"program\": {\"redirected\": %llu}}, {\"port\": "
		    "\"eth0\", \"queue\": 1, \"worker\": 0, \"rx_packets\": %llu, \"program\": "
		    "{\"redirected\": %llu}}]}",
		    i * r0, i * r0, i * r1, i * r1);
		snprintf(dr, sizeof(dr),
			 "{\"doctor\": 1, \"rings\": {\"batch\": 64}, \"ports\": [{\"name\": "
			 "\"eth0\", \"rx_queues\": 2, \"program\": [], \"steering\": %s}], "
			 "\"sockets\": [], \"programs\": []}",
			 steer);
		doc(&s[i].stats, st);
		doc(&s[i].dr, dr);
		s[i].t = 3 * i;
	}
	memset(&o, 0, sizeof(o));
	dr_judge(&o, &s[0], &s[1]);
	if (!check)
		CHECK(o.n == 0, "%s: no line (got %u: %s)", name, o.n, o.n ? o.l[0].what : "-");
	else
		CHECK(o.n == 1 && !strcmp(o.l[0].check, check) && o.l[0].sev == sev &&
			  strstr(o.l[0].what, text),
		      "%s: one line, %s (got %u: %s %s)", name, check, o.n,
		      o.n ? o.l[0].check : "-", o.n ? o.l[0].what : "-");
	for (i = 0; i < 2; i++) {
		xj_doc__free(&s[i].stats);
		xj_doc__free(&s[i].dr);
	}
}

static void judge(const char *name, const struct win *a, const struct win *b, const char *check,
		  const char *text)
{
	judge_fix(name, a, b, check, text, NULL);
}

int main(void)
{
	struct win a = {.busy = 1, .asleep = 1}, b;

	b = a;
	b.rx = b.redir = 1000;
	judge("healthy", &a, &b, NULL, NULL);
	b = a;
	b.passed1 = 500;
	judge("traffic on an unbound queue", &a, &b, "unbound-queue",
	      "500 frames arrived on eth0 queue 1, where this run binds no socket: the program "
	      "passed them to the stack, while the bound queues received nothing");
	b = a;
	b.rx = 1000, b.redir = 3000, b.kdrop = b.kfempty = 2000, b.busy = 95, b.asleep = 5;
	judge("a slow app", &a, &b, "fill-empty", "the app gives buffers back slower");
	b.umem = a.umem = 1024;
	judge("a UMEM too small", &a, &b, "fill-empty", "the UMEM is too small to fill it");
	/* zero-copy: the driver finds the fill ring empty, the NIC holds the frames; no drop */
	b = a = (struct win){.busy = 1, .asleep = 1, .zc = true};
	b.rx = b.redir = 1000, b.kfempty = 37, b.busy = 95;
	judge("a slow app in zero-copy", &a, &b, "fill-empty",
	      "eth0 queue 0: the fill ring was empty 37 times, and the NIC had no buffer");
	b.umem = a.umem = 1024;
	judge("a UMEM too small in zero-copy", &a, &b, "fill-empty",
	      "empty 37 times, and the NIC had no buffer for the frames that came (zero-copy: they "
	      "wait in the NIC or are dropped there, where no counter here sees them), and the "
	      "UMEM is too small to fill it");
	/* copy mode: an empty fill ring the kernel found without a frame to drop says nothing */
	b = a = (struct win){.busy = 1, .asleep = 1};
	b.rx = b.redir = 1000, b.kfempty = 37;
	judge("copy mode, the fill ring empty without loss", &a, &b, NULL, NULL);
	b = a = (struct win){.busy = 1, .asleep = 1};
	b.rx = 1000, b.redir = 3000, b.kfull = 2000;
	judge_fix("the RX ring full", &a, &b, "rx-ring-full",
		  "lost 2000 frames: the RX ring was full", "--rx-ring 4096 --fill-ring 4096");
	/* an RX ring smaller than the fill ring: full while the fill ring holds buffers */
	a.rxr = b.rxr = 64;
	judge_fix("an RX ring smaller than the fill ring", &a, &b, "rx-ring-full",
		  "lost 2000 frames: the RX ring was full", "--rx-ring 2048 (the fill ring's size");
	/* bursts of 256 into a TX ring of 64: the staging overflows, the frames are dropped */
	b = a = (struct win){.busy = 1, .asleep = 1, .txr = 64, .batch = 256};
	b.rx = b.redir = 4000, b.tx = 1664, b.txfull = 2336, b.txring = 25;
	judge_fix("the TX ring full", &a, &b, "tx-full",
		  "2336 frames to send were dropped: the TX ring stayed full", "--tx-ring 512");
	b = a;
	b.kdrop = b.redir = 10;
	judge("frames too long", &a, &b, "rx-dropped", "dropped 10 frames with buffers");
	b = a;
	a.bp_asked = b.bp_asked = true;
	judge("-B without NAPI IDs", &a, &b, "busy-poll", "busy polling (-B) was asked and is off");
	b = a = (struct win){.busy = 1, .asleep = 1, .irq_cpus = "0-1"};
	judge("the worker on its IRQ's CPU", &a, &b, "irq-cpu", "worker 0 polls on CPU 1");
	b = a = (struct win){.busy = 1, .asleep = 1};
	b.redir = 5000, b.rx = 1000;
	judge("counters that do not reconcile", &a, &b, "reconcile",
	      "the program redirected 5000 frames, the socket accounts for 1000");
	/* two bound queues, one flow: the hash over addresses only named as the cause */
	static const char *hash =
	    "[{\"check\": \"rx-flow-hash\", \"severity\": \"problem\", \"what\": \"udp4 "
	    "frames are hashed over their addresses only\", \"evidence\": \"ethtool -n eth0 "
	    "rx-flow-hash udp4: IP SA, IP DA; asked: 0,1\", \"fix\": \"ethtool -N eth0 "
	    "rx-flow-hash udp4 sdfn\"}]";
	skew("a hash over addresses only", 2000, 0, hash, "rx-flow-hash", DR_PROBLEM,
	     "eth0 queue 1 received nothing while queue 0 received 2000 frames: udp4 frames are "
	     "hashed over their addresses only");
	skew("one queue starved, no hash problem", 0, 2000, "[]", "skew", DR_INFO,
	     "eth0 queue 0 received nothing while queue 1 received 2000 frames");
	skew("both queues busy", 1000, 1000, hash, NULL, 0, NULL);
	skew("too few frames to say", 50, 0, hash, NULL, 0, NULL);
	return tap_done();
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl doctor [--seconds N] [--json]`: sample a running instance's counters twice, N seconds
 * apart (its `stats` and `doctor` answers), and explain every frame lost in between by its
 * cause, with the evidence and the fix, one line each; "no problem found" when nothing was
 * lost. The causes, and the counters that tell them (xskfctl-doctor in xskfctl(1)):
 *
 *   fill-empty      kernel rx_dropped with rx_fill_ring_empty_descs: no buffer for the frame
 *   rx-dropped      kernel rx_dropped with the fill ring never empty: frames too long
 *   rx-ring-full    kernel rx_ring_full: the worker takes frames off the RX ring too slowly (an
 *                   RX ring smaller than the fill ring: full while the fill ring has buffers)
 *   passed          the program passed frames on a bound queue: by a steering rule, or no socket
 *   unbound-queue   the program passed frames on a queue this run binds no socket on
 *   rx-flow-hash    a bound queue got nothing while another took the traffic, and the port
 *                   hashes over addresses only (else one info line, skew)
 *   tx-full         drop_tx_full: the TX ring stayed full (late completions, bursts > ring)
 *   other-drops, errors   the worker's and the program's own counts
 *   irq-cpu         a worker polls on the CPU its queue's interrupt runs on
 *   busy-poll       -B asked, and off: the sockets have no NAPI ID
 *   reconcile       what the program redirected is not what the socket accounts for
 *
 * Frames the app dropped by its own verdict (drop_app: XSKF_DROP, all of xsk-rxdrop's) are its
 * choice, not a loss: no line says them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xskfctl.h"
#include "xskfctl_doctor.h"
#include "finding.h" /* util/: a finding as a line or JSON */
#include "json.h" /* util/: xj_write_str() */


static unsigned int problems(const struct dr_out *o)
{
	unsigned int i, n = 0;

	for (i = 0; i < o->n; i++)
		n += o->l[i].sev == DR_PROBLEM;
	return n;
}

static void print(FILE *f, const struct dr_out *o, const char *inst, double secs, bool json)
{
	unsigned int i;

	if (json) {
		fprintf(f, "{\"doctor\": 1, \"instance\": ");
		xj_write_str(f, inst);
		fprintf(f, ", \"seconds\": %.3f, \"problems\": %u, \"infos\": %u, \"checks\": [",
			secs, problems(o), o->n - problems(o));
	}
	for (i = 0; i < o->n; i++) {
		const struct dr_line *l = &o->l[i];
		const char *sev = l->sev == DR_PROBLEM ? "problem" : "info";

		if (json) {
			fprintf(f, "%s\n  ", i ? "," : "");
			xskf_finding__json(f, sev, l->check, l->what, l->evidence, l->fix);
		} else {
			xskf_finding__line(f, sev, l->check, l->what, l->evidence, l->fix);
		}
	}
	if (json)
		fprintf(f, "]}\n");
	else if (!problems(o))
		fprintf(f, "no problem found\n");
}

/* One sample: the two answers, parsed. 0, or -1 with the reason in @err. */
static int take(const char *path, struct dr_sample *s, char *err, size_t el)
{
	size_t len, off = 0;
	const char *why = "";
	char *ans;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (ctl_stats(path, &s->stats, err, el))
		return -1;
	if (ctl_ask(path, "doctor\n", &ans, &len, err, el))
		return -1;
	if (len >= 6 && !memcmp(ans, "error:", 6)) {
		snprintf(err, el,
			 "the run does not answer 'doctor' (an xskf older than "
			 "xskfctl?): %.*s",
			 (int)strcspn(ans, "\n"), ans);
		free(ans);
		return -1;
	}
	if (xj_doc__new(&s->dr, ans, len, &off, &why)) {
		snprintf(err, el, "the run's doctor answer is no JSON (byte %zu: expected %s)", off,
			 why);
		free(ans);
		return -1;
	}
	free(ans);
	return 0;
}

static void sample_free(struct dr_sample *s)
{
	xj_doc__free(&s->stats);
	xj_doc__free(&s->dr);
}

int cmd_doctor(const char *want, int argc, char **argv)
{
	static struct dr_out out;
	struct dr_sample a = {}, b = {};
	struct ctl_inst inst;
	char err[512];
	double secs = 3;
	bool json = false;
	int i, rc = 1;

	for (i = 0; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			secs = strtod(argv[++i], &end);
			if (*end || !(secs >= 0.1 && secs <= 3600)) {
				fprintf(stderr,
					"xskfctl: doctor: invalid --seconds '%s': 0.1 to "
					"3600\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr,
				"xskfctl: doctor: unknown argument '%s' (doctor "
				"[--seconds N] [--json])\n",
				argv[i]);
			return 2;
		}
	}
	if (ctl_choose(want, &inst))
		return 1;
	if (take(inst.path, &a, err, sizeof(err)))
		goto fail;
	/* on stderr: the window is open (a test sends its frames once it reads this) */
	fprintf(stderr, "xskfctl: doctor: sampling %s for %.1f s\n", inst.name, secs);
	usleep((useconds_t)(secs * 1e6));
	if (take(inst.path, &b, err, sizeof(err)))
		goto fail;
	memset(&out, 0, sizeof(out));
	dr_judge(&out, &a, &b);
	print(stdout, &out, inst.name, b.t - a.t, json);
	rc = problems(&out) ? 1 : 0;
	goto done;
fail:
	fprintf(stderr, "xskfctl: doctor: %s\n", err);
done:
	sample_free(&a);
	sample_free(&b);
	return rc;
}

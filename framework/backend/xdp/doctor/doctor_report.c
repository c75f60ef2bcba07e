// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskf doctor`'s findings and their output: one line each (problems and information), or one
 * JSON document with every check (xskf-doctor(1) documents its schema: keep it stable).
 */
#include <stdarg.h>
#include <string.h>

#include "backend/xdp/doctor/doctor.h"
#include "finding.h" /* util/: a finding split, printed */
#include "json.h" /* util/: xj_write_str() */

void xskf_dr__add(struct xskf_dr_report *r, enum xskf_dr_sev sev, const char *check,
		  const char *fmt, ...)
{
	struct xskf_dr_finding *f;
	va_list ap;

	if (r->n == XSKF_DR_MAX) {
		r->dropped++;
		return;
	}
	f = &r->f[r->n++];
	f->sev = sev;
	snprintf(f->check, sizeof(f->check), "%s", check);
	/* what\nevidence\nfix: one format keeps the three parts of a finding together */
	va_start(ap, fmt);
	xskf_finding__vformat(XSKF_FINDING_TEXT(f), fmt, ap);
	va_end(ap);
}

unsigned int xskf_dr__count(const struct xskf_dr_report *r, enum xskf_dr_sev sev)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->f[i].sev == sev;
	return n;
}

const char *xskf_dr__sev_name(enum xskf_dr_sev sev)
{
	static const char *const names[] = {"ok", "unknown", "info", "problem"};

	return names[sev];
}

void xskf_dr__print(FILE *f, const struct xskf_dr_report *r, bool verbose)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		const struct xskf_dr_finding *x = &r->f[i];

		if (!verbose && x->sev < XSKF_DR_INFO)
			continue;
		xskf_finding__line(f, xskf_dr__sev_name(x->sev), x->check, x->what, x->evidence,
				   x->fix);
	}
	if (r->dropped)
		fprintf(f, "problem doctor: %u more findings not shown (at most %d)\n", r->dropped,
			XSKF_DR_MAX);
	if (!xskf_dr__count(r, XSKF_DR_PROBLEM) && !r->dropped)
		fprintf(f, "no problem found\n");
}


void xskf_dr__json(FILE *f, const struct xskf_dr_report *r, const char *ifname,
		   const uint32_t *queues, unsigned int nq)
{
	unsigned int i;

	fprintf(f, "{\"doctor\": 1, \"interface\": ");
	xj_write_str(f, ifname);
	fprintf(f, ", \"queues\": [");
	for (i = 0; i < nq; i++)
		fprintf(f, "%s%u", i ? ", " : "", queues[i]);
	fprintf(f, "], \"problems\": %u, \"infos\": %u, \"checks\": [",
		xskf_dr__count(r, XSKF_DR_PROBLEM) + r->dropped, xskf_dr__count(r, XSKF_DR_INFO));
	for (i = 0; i < r->n; i++) {
		const struct xskf_dr_finding *x = &r->f[i];

		fprintf(f, "%s\n  ", i ? "," : "");
		xskf_finding__json(f, xskf_dr__sev_name(x->sev), x->check, x->what, x->evidence,
				   x->fix);
	}
	fprintf(f, "]}\n");
}

const char *xskf_dr__ranges(const bool *set, unsigned int n, char *buf, size_t len)
{
	unsigned int i = 0, j;
	size_t off = 0;

	buf[0] = 0;
	while (i < n && off < len) {
		if (!set[i]) {
			i++;
			continue;
		}
		for (j = i; j + 1 < n && set[j + 1]; j++)
			;
		off += (size_t)snprintf(buf + off, len - off, j == i ? "%s%u" : "%s%u-%u",
					off ? "," : "", i, j);
		i = j + 1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

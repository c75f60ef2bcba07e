// SPDX-License-Identifier: BSD-2-Clause
/* A doctor's finding: split into its parts, printed as a line or a JSON object (finding.h). */
#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "json.h"

void xskf_finding__vformat(const struct xskf_finding_text *t, const char *fmt, va_list ap)
{
	char buf[1024], *ev, *fix;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	ev = strchr(buf, '\n');
	if (ev)
		*ev++ = 0;
	fix = ev ? strchr(ev, '\n') : NULL;
	if (fix)
		*fix++ = 0;
	/* a longer text is cut: the precision says so to the compiler too */
	snprintf(t->what, t->what_len, "%.*s", (int)t->what_len - 1, buf);
	snprintf(t->evidence, t->evidence_len, "%.*s", (int)t->evidence_len - 1, ev ? ev : "");
	snprintf(t->fix, t->fix_len, "%.*s", (int)t->fix_len - 1, fix ? fix : "");
}

void xskf_finding__line(FILE *f, const char *sev, const char *check, const char *what,
			const char *evidence, const char *fix)
{
	fprintf(f, "%s %s: %s", sev, check, what);
	if (evidence[0])
		fprintf(f, "; evidence: %s", evidence);
	if (fix[0])
		fprintf(f, "; fix: %s", fix);
	fputc('\n', f);
}

void xskf_finding__json(FILE *f, const char *sev, const char *check, const char *what,
			const char *evidence, const char *fix)
{
	fprintf(f, "{\"check\": ");
	xj_write_str(f, check);
	fprintf(f, ", \"severity\": \"%s\", \"what\": ", sev);
	xj_write_str(f, what);
	fprintf(f, ", \"evidence\": ");
	xj_write_str(f, evidence);
	fprintf(f, ", \"fix\": ");
	xj_write_str(f, fix);
	fputc('}', f);
}

// SPDX-License-Identifier: BSD-2-Clause
/* A doctor's finding, "what\nevidence\nfix", split into its parts (finding.h). */
#include <stdio.h>
#include <string.h>

#include "finding.h"

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

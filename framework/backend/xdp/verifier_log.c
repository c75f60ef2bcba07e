// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's log of a refused XDP program, printed as the kernel wrote it (its last lines,
 * all of it at -vv) rather than a cause guessed from the load's errno: a refusal is "frags
 * unsupported" or anything else only when the kernel says so (issue 33).
 */
#include <string.h>

#include "core/log.h"
#include "backend/xdp/verifier_log.h"

void xskf_verifier_log__print(const char *name, const char *log, int err)
{
	const char *p, *end = log + strlen(log), *nl, *tail;
	int n = 0;

	while (end > log && end[-1] == '\n')
		end--;
	if (end == log) {
		pr_warn("%s: the kernel refused the XDP program (%s) with no verifier log\n", name,
			strerror(-err));
		return;
	}
	for (tail = end; tail > log; tail--)
		if (tail[-1] == '\n' && ++n == XSKF_VERIFIER_LOG_LINES)
			break;
	pr_warn("%s: the kernel refused the XDP program (%s); the verifier's log ends (-vv: all "
		"of it):\n",
		name, strerror(-err));
	for (p = log; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (p < tail)
			pr_debug("  %.*s\n", (int)(nl - p), p);
		else
			pr_warn("  %.*s\n", (int)(nl - p), p);
	}
}

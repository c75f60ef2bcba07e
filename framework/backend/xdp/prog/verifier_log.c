// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's log of a refused XDP program, printed as the kernel wrote it (its last lines,
 * all of it at -vv) rather than a cause guessed from the load's errno: a refusal is "frags
 * unsupported" or anything else only when the kernel says so (issue 33).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "core/log.h"
#include "backend/xdp/prog/verifier_log.h"
#include "xskf_redirect.skel.h"

/* a line of the verifier's instruction trace, "16: (71) r1 = *(u8 *)(r0 +0)" */
static bool is_insn(const char *p, const char *nl)
{
	const char *q = p;

	while (q < nl && *q >= '0' && *q <= '9')
		q++;
	return q > p && nl - q >= 3 && q[0] == ':' && q[1] == ' ' && q[2] == '(';
}

/* the end of the line at @p (its '\n', or @end) */
static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

void xskf_verifier_log__print(const char *name, const char *log, int err)
{
	const char *p, *nl, *end = log + strlen(log);
	int n = 0, i = 0, insn = -1;
	bool warn;

	while (end > log && end[-1] == '\n')
		end--;
	if (end == log) {
		pr_warn("%s: the kernel refused the XDP program (%s) with no verifier log\n", name,
			strerror(-err));
		return;
	}
	/* the lines that are not empty, and the last instruction the verifier took */
	for (p = log; p < end; p = nl + 1) {
		nl = line_end(p, end);
		if (nl == p)
			continue;
		if (is_insn(p, nl))
			insn = n;
		n++;
	}
	pr_warn("%s: the kernel refused the XDP program (%s); the verifier's log ends (-vv: all "
		"of it):\n",
		name, strerror(-err));
	/*
	 * Warnings: the log's last lines, and the last instruction with the lines after it, where
	 * the verifier says what it refused. Up to 6.x both are the end of the log; 7.x follows
	 * the refusal with a report of its own (a reason, the source, the causal path, a
	 * suggestion: 70 lines for one bad index), whose end alone does not name the refusal.
	 */
	for (p = log; p < end; p = nl + 1) {
		nl = line_end(p, end);
		if (nl == p)
			continue;
		warn = i >= n - XSKF_VERIFIER_LOG_LINES ||
		       (insn >= 0 && i >= insn && i < insn + XSKF_VERIFIER_LOG_LINES);
		if (warn)
			pr_warn("  %.*s\n", (int)(nl - p), p);
		else
			pr_debug("  %.*s\n", (int)(nl - p), p);
		i++;
	}
}

struct xskf_redirect *xskf_verifier_log__open(char **log)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct xskf_redirect *skel;
	int err;

	*log = malloc(XSKF_VERIFIER_LOG_SIZE);
	oo.kernel_log_buf = *log;
	oo.kernel_log_size = *log ? XSKF_VERIFIER_LOG_SIZE : 0;
	if (*log)
		(*log)[0] = '\0';
	skel = xskf_redirect__open_opts(&oo);
	if (!skel) {
		err = errno;
		free(*log);
		*log = NULL;
		errno = err;
	}
	return skel;
}

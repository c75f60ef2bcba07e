/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A doctor's finding as one format: "what\nevidence\nfix", split into its three parts. Both
 * doctors write their findings so (`xskf doctor`, framework/backend/xdp/doctor_report.c, and
 * `xskfctl doctor`, apps/xskfctl_doctor_judge.c): one format keeps a finding's three parts
 * together where it is written, and this is where it is taken apart (util/: linked into both).
 */
#ifndef XSKF_UTIL_FINDING_H
#define XSKF_UTIL_FINDING_H

#include <stdarg.h>
#include <stddef.h>

struct xskf_finding_text {
	char *what, *evidence, *fix; /* the caller's buffers */
	size_t what_len, evidence_len, fix_len;
};

/*
 * xskf_finding__vformat() - @fmt with @ap, split at its first two newlines into t->what,
 * t->evidence and t->fix (a part not given: empty). Each part is cut to its buffer; the whole
 * text to 1023 bytes first. Any thread.
 */
void xskf_finding__vformat(const struct xskf_finding_text *t, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif

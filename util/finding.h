/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A doctor's finding: written as one format, "what\nevidence\nfix", and printed as one line or
 * one JSON object. Both doctors have findings (`xskf doctor`, framework/backend/xdp/doctor_*.c,
 * and `xskfctl doctor`, apps/xskfctl_doctor*.c): one format keeps a finding's three parts
 * together where it is written, and both print them alike (xskf-doctor(1) documents the JSON
 * object: keep it stable). util/: linked into both.
 */
#ifndef XSKF_UTIL_FINDING_H
#define XSKF_UTIL_FINDING_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

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

/* The xskf_finding_text of @x, a struct with the arrays what, evidence and fix. */
#define XSKF_FINDING_TEXT(x)                                                                       \
	(&(const struct xskf_finding_text){(x)->what, (x)->evidence, (x)->fix, sizeof((x)->what),  \
					   sizeof((x)->evidence), sizeof((x)->fix)})

/*
 * xskf_finding__line() - "SEV CHECK: WHAT; evidence: EVIDENCE; fix: FIX" and a newline to @f,
 * the evidence and fix parts only when not empty.
 */
void xskf_finding__line(FILE *f, const char *sev, const char *check, const char *what,
			const char *evidence, const char *fix);

/*
 * xskf_finding__json() - {"check": CHECK, "severity": SEV, "what": WHAT, "evidence": EVIDENCE,
 * "fix": FIX} to @f, each string escaped (xj_write_str()).
 */
void xskf_finding__json(FILE *f, const char *sev, const char *check, const char *what,
			const char *evidence, const char *fix);

#endif

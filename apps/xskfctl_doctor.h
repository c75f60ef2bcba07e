/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xskfctl doctor` (xskfctl_doctor.c): two samples of a run's `stats` and `doctor` answers, and
 * the judge of what changed between them (xskfctl_doctor_judge.c: no I/O, so that the unit
 * test tests/unit/test_xskfctl_doctor.c can give it made-up samples).
 */
#ifndef XSKFCTL_DOCTOR_H
#define XSKFCTL_DOCTOR_H
#include <stdbool.h>

#include "json.h"

enum { DR_INFO, DR_PROBLEM };
struct dr_line {
	int sev;
	char check[24], what[320], evidence[448], fix[256];
};
#define DR_MAX_LINES 64
struct dr_out {
	struct dr_line l[DR_MAX_LINES];
	unsigned int n;
};
struct dr_sample {
	struct xj_doc stats, dr; /* the answers to "stats" and "doctor" */
	double t;		 /* when (CLOCK_MONOTONIC, s) */
};
/* One line into @o: what, evidence and fix printf-style, separated by '\n' in @fmt. */
__attribute__((format(printf, 4, 5))) void dr_add(struct dr_out *o, int sev, const char *check,
						  const char *fmt, ...);
/* Every loss between samples @a and @b (b later), by cause. */
void dr_judge(struct dr_out *o, const struct dr_sample *a, const struct dr_sample *b);
int cmd_doctor(const char *want, int argc, char **argv);
#endif /* XSKFCTL_DOCTOR_H */

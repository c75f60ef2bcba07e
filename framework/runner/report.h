/* SPDX-License-Identifier: BSD-2-Clause */
/* What a run prints (report.c): live lines, the closing summary, the JSON document. */
#ifndef XSKF_REPORT_H
#define XSKF_REPORT_H

#include <stdio.h>

#include "xskf.h"

/* Print one stats line per socket and a total, for the last @secs seconds (report.c). */
void xskf_report__interval(struct xskf_engine *eng, FILE *f, double elapsed, double secs);
/* Print the closing summary (report.c). Returns 0 if the counters reconcile, else -EIO. */
int xskf_report__summary(struct xskf_engine *eng, FILE *f, double elapsed);
/* Print the JSON document (report.c). */
void xskf_report__json(struct xskf_engine *eng, FILE *f, double elapsed, int census_err);

#endif /* XSKF_REPORT_H */

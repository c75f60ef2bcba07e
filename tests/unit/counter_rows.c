// SPDX-License-Identifier: BSD-2-Clause
/*
 * Prints the rows of a counter table as test_counter_docs.sh compares them with
 * docs/operations.md: their path in the stats document, their Prometheus family, their help,
 * separated by tabs. No argument: XSKF_QUEUE_COUNTERS (xskf_counters.h). FAMILY: that family
 * of util/counters.h (its name, e.g. idle), its rows that are samples (not the labels: a
 * steering rule's id and text); a row labelled by its key prints FAMILY{LABEL="KEY"}. `all`:
 * every family's rows, and a fourth column, its TYPE (the test that holds the stats document
 * and `xskfctl metrics` to the tables reads them). `live`: FAMILY and WORD of every row that
 * puts a word in the live lines (a PAIR row's value follows the row before's word: none), and
 * `queue` and each word of the queue view (its rates' and its values' words).
 */
#include <stdio.h>
#include <string.h>

#include <xskf_counters.h>

#include "counters.h"

static void row(const char *obj, const char *key, const char *type, const char *help)
{
	printf("queues[].%s%s%s\txskf_queue_%s%s%s%s\t%s\n", obj, *obj ? "." : "", key, obj,
	       *obj ? "_" : "", key, strcmp(type, "counter") ? "" : "_total", help);
}

static void family(const struct xc_family *f, bool type)
{
	for (unsigned int i = 0; i < f->nr; i++) {
		const struct xc_row *r = &f->rows[i];

		if (!r->prom)
			continue;
		printf("%s.%s\t%s", f->path, r->key, r->prom);
		if (r->label)
			printf("{%s=\"%s\"}", r->label, r->key);
		printf("\t%s", r->help);
		if (type)
			printf("\t%s", r->type);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1 && !strcmp(argv[1], "live")) {
		for (i = 0; xc_families[i]; i++)
			for (unsigned int k = 0; k < xc_families[i]->nr; k++) {
				const struct xc_row *r = &xc_families[i]->rows[k];

				if (r->live != XC_LIVE_NONE && r->live != XC_LIVE_PAIR)
					printf("%s\t%s\n", xc_families[i]->name,
					       r->word ? r->word : r->key);
			}
		for (i = 0; i < xc_nr_qview; i++) {
			if (xc_qview[i].rate)
				printf("queue\t%s\n", xc_qview[i].rate);
			if (xc_qview[i].total)
				printf("queue\t%s\n", xc_qview[i].total);
		}
		return 0;
	}
	if (argc < 2) {
#define ROW(field, obj, key, src, type, help) row(#obj, #key, #type, help);
		XSKF_QUEUE_COUNTERS(ROW, XSKF_COUNTER_SKIP)
		return 0;
	}
	for (i = 0; xc_families[i]; i++)
		if (!strcmp(argv[1], "all") || !strcmp(argv[1], xc_families[i]->name))
			family(xc_families[i], !strcmp(argv[1], "all"));
	return 0;
}

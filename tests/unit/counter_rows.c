// SPDX-License-Identifier: BSD-2-Clause
/*
 * Prints every row of XSKF_QUEUE_COUNTERS (xskf_counters.h) as test_counter_docs.sh compares
 * it with docs/operations.md: its path in the stats document, its Prometheus family, its
 * help, separated by tabs.
 */
#include <stdio.h>
#include <string.h>

#include <xskf_counters.h>

static void row(const char *obj, const char *key, const char *type, const char *help)
{
	printf("queues[].%s%s%s\txskf_queue_%s%s%s%s\t%s\n", obj, *obj ? "." : "", key, obj,
	       *obj ? "_" : "", key, strcmp(type, "counter") ? "" : "_total", help);
}

int main(void)
{
#define ROW(field, obj, key, src, type, help) row(#obj, #key, #type, help);
	XSKF_QUEUE_COUNTERS(ROW, XSKF_COUNTER_SKIP)
	return 0;
}

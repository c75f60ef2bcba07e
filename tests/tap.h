/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TAP output for the C tests: CHECK(cond, fmt, ...) prints "ok N - ..." or "not ok N - ...";
 * a test ends with tap_done(), which prints the plan and gives the exit status.
 */
#ifndef XSKF_TESTS_TAP_H
#define XSKF_TESTS_TAP_H

#include <stdbool.h>
#include <stdio.h>

static int nr_test, nr_fail;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		bool ok_ = (cond); /* evaluated once: cond may have side effects */              \
		nr_test++;                                                                         \
		printf("%s %d - ", ok_ ? "ok" : "not ok", nr_test);                                \
		nr_fail += !ok_;                                                                   \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", nr_test);
	return nr_fail ? 1 : 0;
}

#endif

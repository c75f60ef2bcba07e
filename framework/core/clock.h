/* SPDX-License-Identifier: BSD-2-Clause */
/* Time, for every layer: the worker's TX drain clock, the stand-in's busy time, the run loop. */
#ifndef XSKF_CLOCK_H
#define XSKF_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds (a vDSO call, no syscall). Thread: any. */
static inline uint64_t xskf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif /* XSKF_CLOCK_H */

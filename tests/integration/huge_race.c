// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk-rxdrop with a competitor: between xskf's check of the hugepage pool and its mmap, this
 * takes every free page of that pool, as another process starting at the same moment would.
 * Linked with the rxdrop plugin and builtin_main.c into xsk-rxdrop-race, for the "pool
 * exhausted between check and mmap" case of test_hugepages.sh. The pages stay taken until exit.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "core/internal.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static void take_all(uint64_t page_size, int node)
{
	long n = xskf_huge__available(page_size, node);
	size_t size = (size_t)n * page_size;
	void *p;

	if (n <= 0)
		return;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 (__builtin_ctzll(page_size) << MAP_HUGE_SHIFT),
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("huge_race: mmap");
		return;
	}
	memset(p, 0, size);
	fprintf(stderr, "huge_race: took the %ld free pages of %llu kB\n", n,
		(unsigned long long)(page_size >> 10));
}

__attribute__((constructor)) static void install(void)
{
	xskf__huge_checked_hook = take_all;
}

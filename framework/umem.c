// SPDX-License-Identifier: BSD-2-Clause
/*
 * UMEM memory and the per-worker frame cache.
 *
 * Memory comes from 2 MiB hugepages (MAP_HUGETLB) when the policy allows and pages are reserved:
 * a UMEM of a few MiB then needs a handful of TLB entries instead of thousands. Without reserved
 * pages it falls back to 4 KiB pages and says once how to reserve them. The area is bound to the
 * NIC's NUMA node before it is first touched, so the pages are allocated there.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#define HUGEPAGE_SIZE (2u << 20)

static atomic_bool warned_no_huge;

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

static void *map_area(size_t *size, enum xskf_hugepages policy, bool *huge)
{
	void *p;

	*huge = false;
	if (policy != XSKF_HUGEPAGES_OFF) {
		size_t hsize = round_up(*size, HUGEPAGE_SIZE);

		/* no MAP_NORESERVE: without reserved pages mmap must fail here, not SIGBUS later */
		p = mmap(NULL, hsize, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p != MAP_FAILED) {
			*size = hsize;
			*huge = true;
			return p;
		}
		if (policy == XSKF_HUGEPAGES_REQUIRE) {
			pr_warn("no hugepages for a %zu KiB UMEM (--hugepages=require): reserve them with "
				"'echo 512 > /proc/sys/vm/nr_hugepages'\n",
				hsize >> 10);
			errno = ENOMEM;
			return NULL;
		}
		if (!atomic_exchange(&warned_no_huge, true))
			pr_warn("warning: no hugepages reserved, UMEM uses 4 KiB pages (more TLB misses); "
				"reserve them with 'echo 512 > /proc/sys/vm/nr_hugepages'\n");
	}
	*size = round_up(*size, 4096);
	p = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Bind [p, p+size) to @node before first touch. Failure only costs locality: warn and go on. */
static int bind_node(void *p, size_t size, int node)
{
	struct bitmask *nodes;
	int err;

	if (node < 0 || numa_available() < 0 || node > numa_max_node())
		return -1;
	nodes = numa_allocate_nodemask();
	numa_bitmask_setbit(nodes, node);
	err = mbind(p, size, MPOL_BIND, nodes->maskp, nodes->size + 1, 0);
	numa_free_nodemask(nodes);
	if (err) {
		pr_warn("warning: cannot place UMEM on NUMA node %d (%s); using local memory\n", node,
			strerror(errno));
		return -1;
	}
	return node;
}

int xskf_umem__alloc(struct xskf_umem *um, uint32_t nr_frames, uint32_t frame_size,
		     enum xskf_hugepages policy, int numa_node)
{
	size_t size = (size_t)nr_frames * frame_size;
	uint32_t i;

	memset(um, 0, sizeof(*um));
	um->area = map_area(&size, policy, &um->hugepages);
	if (!um->area)
		return -errno;
	um->size = size;
	um->frame_size = frame_size;
	um->nr_frames = nr_frames;
	um->numa_node = bind_node(um->area, size, numa_node);
	/* Touch every page now, on the right node, instead of on the per-packet path. */
	memset(um->area, 0, size);

	um->cache = calloc(nr_frames, sizeof(*um->cache));
	if (!um->cache) {
		munmap(um->area, size);
		um->area = NULL;
		return -ENOMEM;
	}
	/* Highest addresses at the bottom: the first frames handed out are the lowest. */
	for (i = 0; i < nr_frames; i++)
		um->cache[i] = (uint64_t)(nr_frames - 1 - i) * frame_size;
	um->cache_len = nr_frames;
	return 0;
}

void xskf_umem__free(struct xskf_umem *um)
{
	if (um->xu)
		xsk_umem__delete(um->xu);
	um->xu = NULL;
	if (um->area)
		munmap(um->area, um->size);
	um->area = NULL;
	free(um->cache);
	um->cache = NULL;
}

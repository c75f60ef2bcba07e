/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * UMEM memory (hugepages, NUMA) and the per-worker frame cache (umem.c).
 */
#ifndef XSKF_UMEM_H
#define XSKF_UMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "xskf.h"

/* Where a UMEM's memory should come from. */
struct xskf_umem_place {
	enum xskf_hugepages policy;
	uint64_t page_size;   /* hugepage size (xskf_huge__resolve()); 0: the kernel has none */
	const char *huge_dir; /* a hugetlbfs mount for a file, or NULL: anonymous memory */
	int node;             /* NUMA node to place it on, or -1 */
	const char *who;      /* "worker 0", for messages */
};

struct xskf_umem {
	void *area;
	size_t size;          /* bytes mapped: the frames, rounded up to whole pages */
	uint32_t frame_size;
	uint32_t nr_frames;
	bool hugepages;       /* backed by hugepages */
	bool huge_file;       /* a file on hugetlbfs (unlinked), not anonymous memory */
	uint64_t page_size;   /* bytes of each page backing it */
	int numa_node;        /* node the memory was bound to, or -1 */
	long pages_checked;   /* pages whose node move_pages() reported after the first touch */
	long pages_step;      /* 1 in this many pages was asked about (1: every page) */
	long pages_on_node;   /* of them, on numa_node */
	struct xsk_umem *xu;  /* libxdp's handle, created with the first socket */
	/* TX metadata (xsk_raw.c): room asked for in front of TX frames (0: none, libxdp
	 * registers the UMEM), the room the kernel took, the registering socket's fd */
	uint32_t tx_meta_want;
	uint32_t tx_meta_len;
	/* copy mode: the kernel refused its software checksum (XDP_UMEM_TX_SW_CSUM) on this
	 * device at the bind (xsk_raw.c): the UMEM has room, xskf does the checksums */
	bool tx_no_sw_csum;
	bool raw_reg;
	int raw_fd;
	/* frame cache: a LIFO stack of free frame addresses (chunk starts), worker-private */
	uint64_t *cache;
	uint32_t cache_len;
};

/* 0, or -ENOMEM (too few hugepages with require), another -errno; one line said either way. */
int xskf_umem__alloc(struct xskf_umem *um, uint32_t nr_frames, uint32_t frame_size,
		     const struct xskf_umem_place *pl);
void xskf_umem__free(struct xskf_umem *um);
/* "16 MiB: 8 pages of 2 MiB (anonymous) on node 0 (checked: ...); 56 pages of 2 MiB left ..." */
void xskf_umem__describe(const struct xskf_umem *um, char *buf, size_t len);
/* Tests only: called between the pool check and the mmap of a hugepage UMEM. */
extern void (*xskf__huge_checked_hook)(uint64_t page_size, int node);

static inline uint32_t xskf_cache_get(struct xskf_umem *um, uint64_t *addrs, uint32_t n)
{
	uint32_t i;

	if (n > um->cache_len)
		n = um->cache_len;
	for (i = 0; i < n; i++)
		addrs[i] = um->cache[--um->cache_len];
	return n;
}

static inline void xskf_cache_put(struct xskf_umem *um, uint64_t addr)
{
	/* aligned mode: any address inside a chunk maps back to its start */
	um->cache[um->cache_len++] = addr & ~((uint64_t)um->frame_size - 1);
}

#endif /* XSKF_UMEM_H */

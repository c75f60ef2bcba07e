/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hugepage sizes, pools per node and hugetlbfs mounts (hugepages.c): read only.
 */
#ifndef XSKF_HUGEPAGES_H
#define XSKF_HUGEPAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xskf_huge_pool {
	long nr, free, surplus; /* pages of one size on one node (node -1: all nodes) */
	long resv, overcommit;  /* reserved by mappings, not yet touched; may grow by: all nodes */
};

/* "2M", "1G", "2048kB", ... into bytes (a power of two). 0 or -EINVAL. */
int xskf_huge__parse_size(const char *s, uint64_t *bytes);
/* "2 MiB" / "2M" for @bytes, in @buf. Returns @buf. */
const char *xskf_huge__name(uint64_t bytes, char *buf, size_t len);
const char *xskf_huge__short(uint64_t bytes, char *buf, size_t len);
/* The kernel's default hugepage size (Hugepagesize), 0 when it has none. */
uint64_t xskf_huge__default_size(void);
/* The kernel has a pool of pages of @size bytes. */
bool xskf_huge__supported(uint64_t size);
/* "2M, 1G": the sizes the kernel has, for messages. */
void xskf_huge__sizes(char *buf, size_t len);
/* The pool of @size on @node (-1: all nodes) from sysfs. 0 or -ENOENT. */
int xskf_huge__pool(uint64_t size, int node, struct xskf_huge_pool *p);
/* Pages of @size a new mapping bound to @node (-1: any) can get now. */
long xskf_huge__available(uint64_t size, int node);
/* The nr_hugepages file of that pool, for messages. */
void xskf_huge__pool_path(uint64_t size, int node, char *buf, size_t len);
/* Page size of the hugetlbfs at @dir; -ENOTTY with @fstype set when it is another fs. */
int xskf_huge__mount_size(const char *dir, uint64_t *page_size, char *fstype, size_t len);
/*
 * The page size a UMEM will use, from --huge-dir (@dir, may be NULL) and --huge-size (@want,
 * 0: not given): the mount's, else @want, else the kernel's default (0: none). Checks the
 * two agree and that the kernel has the size. 0, or -EINVAL with one line said.
 */
int xskf_huge__resolve(const char *dir, uint64_t want, uint64_t *page_size);

#endif /* XSKF_HUGEPAGES_H */

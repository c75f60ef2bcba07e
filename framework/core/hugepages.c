// SPDX-License-Identifier: BSD-2-Clause
/*
 * Hugepage pools and hugetlbfs mounts, as the kernel shows them: which page sizes it has, how
 * many pages each node's pool has free (/sys/devices/system/node/nodeN/hugepages/), what a
 * hugetlbfs mount's page size is. umem.c asks these before it maps a UMEM; nothing here
 * changes the machine (xskf-hugepages, tools/hugepages.sh, does that). docs/memory.md has the
 * whole picture.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/vfs.h>

#include "core/hugepages.h"
#include "core/log.h"
#include "core/sysfs.h"

#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif

#define SYS_GLOBAL "/sys/kernel/mm/hugepages"
#define SYS_NODE   "/sys/devices/system/node/node%d/hugepages"

int xskf_huge__parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	char *end;
	int shift;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || !v)
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	end++;
	if ((*end == 'b' || *end == 'B') && !end[1])
		end++;
	if (*end || v > (UINT64_MAX >> shift) || (v & (v - 1)))
		return -EINVAL;
	*bytes = (uint64_t)v << shift;
	return 0;
}

const char *xskf_huge__name(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (i + 1 < sizeof(unit) / sizeof(unit[0]) && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, unit[i]);
	return buf;
}

const char *xskf_huge__short(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1ull << 30 && !(bytes % (1ull << 30)))
		snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes >= 1ull << 20 && !(bytes % (1ull << 20)))
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
	return buf;
}

uint64_t xskf_huge__default_size(void)
{
	char line[128];
	unsigned long kb;
	uint64_t size = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1) {
			size = (uint64_t)kb << 10;
			break;
		}
	fclose(f);
	return size;
}

bool xskf_huge__supported(uint64_t size)
{
	char path[128];

	snprintf(path, sizeof(path), SYS_GLOBAL "/hugepages-%llukB",
		 (unsigned long long)(size >> 10));
	return size >= 4096 && !access(path, F_OK);
}

void xskf_huge__sizes(char *buf, size_t len)
{
	static const uint64_t cand[] = { 64ull << 10, 2ull << 20, 32ull << 20, 512ull << 20,
					 1ull << 30, 16ull << 30 };
	char s[32];
	size_t i, n = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(cand) / sizeof(cand[0]) && n < len; i++)
		if (xskf_huge__supported(cand[i]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      xskf_huge__short(cand[i], s, sizeof(s)));
	if (!buf[0])
		snprintf(buf, len, "none");
}

int xskf_huge__pool(uint64_t size, int node, struct xskf_huge_pool *p)
{
	unsigned long long kb = size >> 10;

	memset(p, 0, sizeof(*p));
	if (node >= 0) {
		p->nr = xskf_sysfs__long(SYS_NODE "/hugepages-%llukB/nr_hugepages", node, kb);
		p->free = xskf_sysfs__long(SYS_NODE "/hugepages-%llukB/free_hugepages", node, kb);
		p->surplus = xskf_sysfs__long(SYS_NODE "/hugepages-%llukB/surplus_hugepages", node, kb);
	} else {
		p->nr = xskf_sysfs__long(SYS_GLOBAL "/hugepages-%llukB/nr_hugepages", kb);
		p->free = xskf_sysfs__long(SYS_GLOBAL "/hugepages-%llukB/free_hugepages", kb);
		p->surplus = xskf_sysfs__long(SYS_GLOBAL "/hugepages-%llukB/surplus_hugepages", kb);
	}
	/* reserved-but-unfaulted pages and overcommit exist only globally */
	p->resv = xskf_sysfs__long(SYS_GLOBAL "/hugepages-%llukB/resv_hugepages", kb);
	p->overcommit = xskf_sysfs__long(SYS_GLOBAL "/hugepages-%llukB/nr_overcommit_hugepages", kb);
	if (p->nr < 0 || p->free < 0)
		return -ENOENT;
	if (p->resv < 0)
		p->resv = 0;
	if (p->surplus < 0)
		p->surplus = 0;
	if (p->overcommit < 0)
		p->overcommit = 0;
	return 0;
}

long xskf_huge__available(uint64_t size, int node)
{
	struct xskf_huge_pool g, n;
	long avail;

	if (xskf_huge__pool(size, -1, &g))
		return 0;
	/* free pages another mapping has reserved (not yet touched) are not ours */
	avail = g.free - g.resv;
	if (node >= 0 && !xskf_huge__pool(size, node, &n) && n.free < avail)
		avail = n.free;
	if (avail < 0)
		avail = 0;
	/* the pool may grow beyond nr_hugepages by up to nr_overcommit_hugepages surplus pages */
	if (g.overcommit > g.surplus)
		avail += g.overcommit - g.surplus;
	return avail;
}

void xskf_huge__pool_path(uint64_t size, int node, char *buf, size_t len)
{
	if (node >= 0)
		snprintf(buf, len, SYS_NODE "/hugepages-%llukB/nr_hugepages", node,
			 (unsigned long long)(size >> 10));
	else
		snprintf(buf, len, SYS_GLOBAL "/hugepages-%llukB/nr_hugepages",
			 (unsigned long long)(size >> 10));
}

/* The type of the file system @dir is on, from the longest matching line of /proc/self/mounts. */
static void fs_type_of(const char *dir, char *type, size_t len)
{
	char real[PATH_MAX], mnt[PATH_MAX], fs[64], line[PATH_MAX + 128];
	size_t best = 0;
	FILE *f;

	snprintf(type, len, "unknown");
	if (!realpath(dir, real) || !(f = fopen("/proc/self/mounts", "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n;

		if (sscanf(line, "%*s %4095s %63s", mnt, fs) != 2)
			continue;
		n = strlen(mnt);
		if (strncmp(real, mnt, n) || (real[n] && real[n] != '/' && strcmp(mnt, "/")))
			continue;
		if (n >= best) {
			best = n;
			snprintf(type, len, "%s", fs);
		}
	}
	fclose(f);
}

int xskf_huge__mount_size(const char *dir, uint64_t *page_size, char *fstype, size_t len)
{
	struct statfs st;

	if (statfs(dir, &st))
		return -errno;
	if ((unsigned long)st.f_type != HUGETLBFS_MAGIC) {
		fs_type_of(dir, fstype, len);
		return -ENOTTY;
	}
	snprintf(fstype, len, "hugetlbfs");
	*page_size = (uint64_t)st.f_bsize;
	return 0;
}

int xskf_huge__resolve(const char *dir, uint64_t want, uint64_t *page_size)
{
	char fstype[64], have[64], a[32], b[32];
	uint64_t mnt = 0;
	int err;

	if (want && (want & (want - 1) || !xskf_huge__supported(want))) {
		xskf_huge__sizes(have, sizeof(have));
		pr_warn("--huge-size %s: this kernel has no %s hugepages (it has %s): use one of "
			"those\n",
			xskf_huge__short(want, a, sizeof(a)), xskf_huge__name(want, b, sizeof(b)),
			have);
		return -EINVAL;
	}
	*page_size = want;
	if (!dir) {
		if (!want)
			*page_size = xskf_huge__default_size(); /* 0: no hugepages at all */
		return 0;
	}
	err = xskf_huge__mount_size(dir, &mnt, fstype, sizeof(fstype));
	if (err == -ENOTTY) {
		xskf_huge__short(want ? want : xskf_huge__default_size(), a, sizeof(a));
		pr_warn("--huge-dir %s is not a hugetlbfs mount (it is %s): mount one with "
			"'mount -t hugetlbfs -o pagesize=%s nodev %s' or 'xskf-hugepages "
			"mount %s %s'\n",
			dir, fstype, a, dir, a, dir);
		return -EINVAL;
	}
	if (err) {
		pr_warn("--huge-dir %s: %s: give the folder a hugetlbfs is mounted on ('grep "
			"hugetlbfs /proc/mounts')\n",
			dir, strerror(-err));
		return -EINVAL;
	}
	if (want && want != mnt) {
		pr_warn("--huge-dir %s has %s pages (pagesize=%s) but --huge-size is %s: use "
			"--huge-size %s, or a mount with pagesize=%s\n",
			dir, xskf_huge__name(mnt, fstype, sizeof(fstype)),
			xskf_huge__short(mnt, a, sizeof(a)), xskf_huge__short(want, b, sizeof(b)),
			a, b);
		return -EINVAL;
	}
	*page_size = mnt;
	return 0;
}

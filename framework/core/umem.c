// SPDX-License-Identifier: BSD-2-Clause
/*
 * UMEM memory and the per-worker frame cache.
 *
 * Memory comes from hugepages when the policy allows and the pool of the chosen size on the
 * NUMA node has enough free pages (hugepages.c reads the pools): a UMEM of a few MiB then needs
 * a handful of TLB entries instead of thousands. Anonymous memory (MAP_HUGETLB with the size in
 * MAP_HUGE_*), or a file on a hugetlbfs mount (--huge-dir), unlinked once mapped. The area is
 * bound to the node (mbind) before it is first touched, and the reservation made at mmap is
 * taken with the thread's policy bound to that node too, so that the kernel counts that node's
 * pool; after the first touch, move_pages() says where the pages are. Without pages the policy
 * decides: auto falls back to 4 KiB pages with one warning, require fails with one line.
 * docs/memory.md has the options, the messages and the helper script.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <numa.h>
#include <numaif.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <xdp/xsk.h>

#include "core/hugepages.h"
#include "core/log.h"
#include "core/umem.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

#define MAX_CHECKED 4096 /* pages whose node move_pages() is asked for, spread over the area */

void (*xskf__huge_checked_hook)(uint64_t page_size, int node);

static atomic_bool warned_fallback;

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

static bool numa_ok(int node)
{
	return node >= 0 && numa_available() >= 0 && node <= numa_max_node();
}

/* The calling thread's memory policy, bound to one node while the UMEM is mapped. */
struct policy {
	int mode;
	struct bitmask *mask;
	bool changed;
};

static void policy_bind(struct policy *s, int node)
{
	struct bitmask *nodes;

	memset(s, 0, sizeof(*s));
	if (!numa_ok(node))
		return;
	s->mask = numa_allocate_nodemask();
	if (get_mempolicy(&s->mode, s->mask->maskp, s->mask->size + 1, NULL, 0))
		return;
	nodes = numa_allocate_nodemask();
	numa_bitmask_setbit(nodes, (unsigned int)node);
	s->changed = !set_mempolicy(MPOL_BIND, nodes->maskp, nodes->size + 1);
	numa_free_nodemask(nodes);
}

static void policy_restore(struct policy *s)
{
	if (s->changed)
		set_mempolicy(s->mode, s->mode == MPOL_DEFAULT ? NULL : s->mask->maskp,
			      s->mode == MPOL_DEFAULT ? 0 : s->mask->size + 1);
	if (s->mask)
		numa_free_nodemask(s->mask);
}

/* Bind [p, p+size) to @node before first touch. Failure only costs locality: warn and go on. */
static int bind_node(void *p, size_t size, int node)
{
	struct bitmask *nodes;
	int err;

	if (!numa_ok(node))
		return -1;
	nodes = numa_allocate_nodemask();
	numa_bitmask_setbit(nodes, (unsigned int)node);
	err = mbind(p, size, MPOL_BIND, nodes->maskp, nodes->size + 1, 0);
	numa_free_nodemask(nodes);
	if (err) {
		pr_warn("warning: cannot place UMEM on NUMA node %d (%s); using local memory\n",
			node, strerror(errno));
		return -1;
	}
	return node;
}

/*
 * A file on the hugetlbfs at @dir, mapped shared and unlinked at once: nothing stays behind.
 * Sets *said when it printed why it failed.
 */
static void *map_file(const struct xskf_umem_place *pl, size_t size, bool *said)
{
	char path[PATH_MAX];
	void *p = MAP_FAILED;
	int fd, err;

	snprintf(path, sizeof(path), "%s/xskf-umem.%d.XXXXXX", pl->huge_dir, (int)getpid());
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		pr_warn("%s: cannot create the UMEM file in --huge-dir %s: %s: give a hugetlbfs "
			"folder this user may write to\n",
			pl->who, pl->huge_dir, strerror(err));
		*said = true;
		errno = err == ENOMEM ? EIO : err; /* ENOMEM means "too few pages" to the caller */
		return NULL;
	}
	if (ftruncate(fd, (off_t)size)) {
		err = errno;
		pr_warn("%s: cannot size the UMEM file in --huge-dir %s to %zu bytes: %s\n",
			pl->who, pl->huge_dir, size, strerror(err));
		*said = true;
		err = err == ENOMEM ? EIO : err;
	} else {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		err = errno;
	}
	unlink(path);
	close(fd);
	errno = err;
	return p == MAP_FAILED ? NULL : p;
}

static void *map_anon(uint64_t page_size, size_t size)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	void *p;

	if (page_size > 4096)
		flags |= MAP_HUGETLB | (__builtin_ctzll(page_size) << MAP_HUGE_SHIFT);
	/* no MAP_NORESERVE: without the pages mmap must fail here, not SIGBUS on first touch */
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* "echo N > PATH' (or 'xskf-hugepages reserve 2M N --node 0"): a pool with @more pages */
static void fix_text(char *buf, size_t len, uint64_t ps, int node, long more)
{
	struct xskf_huge_pool pool;
	char path[160], sz[32], nd[24] = "";
	long total = more;

	if (!xskf_huge__pool(ps, node, &pool))
		total += pool.nr;
	xskf_huge__pool_path(ps, node, path, sizeof(path));
	if (node >= 0)
		snprintf(nd, sizeof(nd), " --node %d", node);
	snprintf(buf, len, "'echo %ld > %s' (or 'xskf-hugepages reserve %s %ld%s')", total,
		 path, xskf_huge__short(ps, sz, sizeof(sz)), total, nd);
}

/*
 * Hugepages for @size bytes, or NULL: errno ENOMEM when there are too few (said here, once as a
 * warning with auto, as the error with require), another errno for a failure that is no
 * shortage (said here too).
 */
static void *map_huge(struct xskf_umem *um, const struct xskf_umem_place *pl, size_t size)
{
	bool require = pl->policy == XSKF_HUGEPAGES_REQUIRE;
	uint64_t ps = pl->page_size;
	char fix[400], psn[32], szn[32], nd[16] = "any node";
	struct policy pol;
	bool said = false;
	long need, avail;
	void *p;
	int err;

	if (!ps) {
		if (require)
			pr_warn("no hugepages for %s's UMEM: this kernel has no hugepage sizes "
				"(--hugepages=require): use --hugepages=off\n",
				pl->who);
		else if (!atomic_exchange(&warned_fallback, true))
			pr_warn("warning: no hugepages in this kernel: UMEM on 4 KiB pages\n");
		errno = ENOMEM;
		return NULL;
	}
	size = round_up(size, ps);
	need = (long)(size / ps);
	if (pl->node >= 0)
		snprintf(nd, sizeof(nd), "node %d", pl->node);
	xskf_huge__name(ps, psn, sizeof(psn));
	xskf_huge__name(size, szn, sizeof(szn));
	avail = xskf_huge__available(ps, pl->node);
	if (avail < need) {
		fix_text(fix, sizeof(fix), ps, pl->node, need - avail);
		if (require)
			pr_warn("no hugepages for %s's %s UMEM: it needs %ld pages of %s on %s, "
				"%ld free there (--hugepages=require): reserve them with %s\n",
				pl->who, szn, need, psn, nd, avail, fix);
		else if (!atomic_exchange(&warned_fallback, true))
			pr_warn("warning: no hugepages for %s's %s UMEM (%ld pages of %s needed "
				"on %s, %ld free): it uses 4 KiB pages (more TLB misses); reserve "
				"them with %s\n",
				pl->who, szn, need, psn, nd, avail, fix);
		errno = ENOMEM;
		return NULL;
	}
	if (xskf__huge_checked_hook)
		xskf__huge_checked_hook(ps, pl->node);
	policy_bind(&pol, pl->node);
	p = pl->huge_dir ? map_file(pl, size, &said) : map_anon(ps, size);
	err = errno;
	if (!p && err == ENOMEM) {
		/* the check said yes: someone took them since, or the mount's size= is smaller */
		const char *mnt = pl->huge_dir ? ", or the mount's size= is smaller" : "";

		fix_text(fix, sizeof(fix), ps, pl->node, need);
		if (require)
			pr_warn("the %s hugepage pool on %s ran out between the check (%ld free) "
				"and mmap for %s's UMEM (another process took them%s): reserve "
				"more with %s, then start again\n",
				psn, nd, avail, pl->who, mnt, fix);
		else if (!atomic_exchange(&warned_fallback, true))
			pr_warn("warning: the %s hugepage pool on %s ran out between the check "
				"(%ld free) and mmap (another process took them%s): %s's UMEM uses "
				"4 KiB pages; reserve more with %s\n",
				psn, nd, avail, mnt, pl->who, fix);
	} else if (!p && !said) {
		pr_warn("%s: mmap of %s of %s hugepages failed: %s\n", pl->who, szn, psn,
			strerror(err));
	}
	if (p) {
		um->size = size;
		um->page_size = ps;
		um->hugepages = true;
		um->huge_file = pl->huge_dir != NULL;
		um->numa_node = bind_node(p, size, pl->node);
	}
	policy_restore(&pol);
	errno = err;
	return p;
}

/* After the first touch: on which node are the pages (a sample of MAX_CHECKED at most)? */
static void check_node(struct xskf_umem *um)
{
	unsigned long n = um->size / um->page_size, step, i;
	void **pages;
	int *status;

	if (um->numa_node < 0 || numa_available() < 0)
		return;
	step = n > MAX_CHECKED ? (n + MAX_CHECKED - 1) / MAX_CHECKED : 1;
	n = (n + step - 1) / step;
	pages = calloc(n, sizeof(*pages));
	status = calloc(n, sizeof(*status));
	if (pages && status) {
		for (i = 0; i < n; i++)
			pages[i] = (uint8_t *)um->area + i * step * um->page_size;
		if (!move_pages(0, n, pages, NULL, status, 0)) {
			um->pages_checked = (long)n;
			um->pages_step = (long)step;
			for (i = 0; i < n; i++)
				um->pages_on_node += status[i] == um->numa_node;
		}
	}
	free(pages);
	free(status);
}

/* MemAvailable and MemTotal of /proc/meminfo in bytes; 0 when unknown. */
static void meminfo(uint64_t *avail, uint64_t *total)
{
	char line[128];
	unsigned long long kb;
	FILE *f = fopen("/proc/meminfo", "re");

	*avail = *total = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			*total = (uint64_t)kb << 10;
		else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			*avail = (uint64_t)kb << 10;
	}
	fclose(f);
}

/* "23.4 GiB", "512 MiB": a rough size for messages */
static const char *rough(uint64_t b, char *buf, size_t len)
{
	if (b >= 1ull << 30)
		snprintf(buf, len, "%.1f GiB", (double)b / (double)(1ull << 30));
	else
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	return buf;
}

/*
 * A UMEM is touched whole at start-up: one larger than the memory available now would end
 * in the OOM killer, or in advice to reserve more hugepages than the machine has. Say so first.
 */
static int check_size(size_t want, const struct xskf_umem_place *pl, uint32_t nr_frames,
		      uint32_t frame_size)
{
	char w[32], a[32], t[32];
	uint64_t avail, total;

	meminfo(&avail, &total);
	if (!avail || want <= avail)
		return 0;
	pr_warn("%s: a %s UMEM (%u frames of %u bytes) is more than the memory available "
		"(%s of %s): use fewer frames (--frames)\n",
		pl->who, xskf_huge__name(want, w, sizeof(w)), nr_frames, frame_size,
		rough(avail, a, sizeof(a)), rough(total, t, sizeof(t)));
	return -ENOMEM;
}

int xskf_umem__alloc(struct xskf_umem *um, uint32_t nr_frames, uint32_t frame_size,
		     const struct xskf_umem_place *pl)
{
	size_t want = (size_t)nr_frames * frame_size;
	uint32_t i;
	int err;

	memset(um, 0, sizeof(*um));
	um->numa_node = -1;
	err = check_size(want, pl, nr_frames, frame_size);
	if (err)
		return err;
	if (pl->policy != XSKF_HUGEPAGES_OFF) {
		um->area = map_huge(um, pl, want);
		err = errno;
		if (!um->area && (err != ENOMEM || pl->policy == XSKF_HUGEPAGES_REQUIRE))
			return err ? -err : -EIO;
	}
	if (!um->area) {
		um->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
		um->size = round_up(want, um->page_size);
		um->area = map_anon(um->page_size, um->size);
		if (!um->area) {
			err = -errno;
			char sz[32];

			pr_warn("%s: cannot map a %s UMEM: %s\n", pl->who,
				xskf_huge__name(um->size, sz, sizeof(sz)), strerror(-err));
			return err;
		}
		um->numa_node = bind_node(um->area, um->size, pl->node);
	}
	um->frame_size = frame_size;
	um->nr_frames = nr_frames;
	if (um->size > want) {
		char a[32], b[32], c[32], d[32];
		size_t fill = um->size / frame_size;

		pr_info("%s: UMEM of %s (%u frames of %u bytes) rounded up to %s, whole pages "
			"of %s: %s unused (--frames %zu fills it)\n",
			pl->who, xskf_huge__name(want, a, sizeof(a)), nr_frames, frame_size,
			xskf_huge__name(um->size, b, sizeof(b)),
			xskf_huge__name(um->page_size, c, sizeof(c)),
			xskf_huge__name(um->size - want, d, sizeof(d)), fill);
	}
	/* Touch every page now, on the right node, instead of on the per-packet path. */
	memset(um->area, 0, um->size);
	check_node(um);

	um->cache = calloc(nr_frames, sizeof(*um->cache));
	if (!um->cache) {
		pr_warn("%s: no memory for a frame cache of %u frames\n", pl->who, nr_frames);
		munmap(um->area, um->size);
		um->area = NULL;
		return -ENOMEM;
	}
	/* Highest addresses at the bottom: the first frames handed out are the lowest. */
	for (i = 0; i < nr_frames; i++)
		um->cache[i] = (uint64_t)(nr_frames - 1 - i) * frame_size;
	um->cache_len = nr_frames;
	return 0;
}

void xskf_umem__describe(const struct xskf_umem *um, char *buf, size_t len)
{
	char ps[32], sz[32], where[200] = "on any node (not bound)", left[80] = "";
	const char *kind = !um->hugepages ? "no hugepages" :
			   um->huge_file  ? "hugetlbfs file, unlinked" :
					    "anonymous";
	unsigned long pages = (unsigned long)(um->size / um->page_size);
	struct xskf_huge_pool pool;
	long long free_b;

	xskf_huge__name(um->page_size, ps, sizeof(ps));
	if (um->numa_node >= 0 && um->pages_checked && um->pages_step > 1)
		/* a sample: say of how many pages, and why not all (MAX_CHECKED) */
		snprintf(where, sizeof(where),
			 "on node %d (sampled %ld of %lu pages, 1 in %ld, to bound start-up: %ld of "
			 "%ld there)",
			 um->numa_node, um->pages_checked, pages, um->pages_step, um->pages_on_node,
			 um->pages_checked);
	else if (um->numa_node >= 0 && um->pages_checked)
		snprintf(where, sizeof(where), "on node %d (checked: %ld of %ld page%s there)",
			 um->numa_node, um->pages_on_node, um->pages_checked,
			 um->pages_checked == 1 ? "" : "s");
	else if (um->numa_node >= 0)
		snprintf(where, sizeof(where), "on node %d (not checked)", um->numa_node);
	if (um->hugepages && !xskf_huge__pool(um->page_size, um->numa_node, &pool))
		snprintf(left, sizeof(left), "; %ld pages of %s left %s", pool.free, ps,
			 um->numa_node >= 0 ? "on that node" : "(all nodes)");
	else if (!um->hugepages && um->numa_node >= 0 &&
		 numa_node_size64(um->numa_node, &free_b) >= 0)
		snprintf(left, sizeof(left), "; %lld MiB free on that node", free_b >> 20);
	snprintf(buf, len, "%s: %lu page%s of %s (%s) %s%s",
		 xskf_huge__name(um->size, sz, sizeof(sz)), pages, pages == 1 ? "" : "s", ps, kind,
		 where, left);
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

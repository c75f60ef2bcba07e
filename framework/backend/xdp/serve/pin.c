// SPDX-License-Identifier: BSD-2-Clause
/*
 * Serving other AF_XDP apps (docs/operations.md, "Serving other AF_XDP apps"): --serve keeps
 * queues for their sockets, --pin-dir pins each port's XSKMAP (and nothing else) in bpffs, in
 * PIN_DIR/IFNAME/, where libxdp's xsk_socket__update_xskmap() or DPDK's use_pinned_map finds
 * the XSKMAP (as "xsks_map", the device plugin's name).
 *
 * The folders follow the control folder's rules (core/proc.c): ours alone, opened O_NOFOLLOW
 * and checked on the fd; every pin is made through that fd (/proc/self/fd/N/NAME: libbpf 1.1
 * has no path_fd), so a folder swapped in by someone else is never written. The IFNAME folder
 * is made 0700 and opened to --pin-group (0750, maps 0660) only once every map is in it.
 * Unpinned at stop and at a failed start, by the fatal-signal hook after a crash, and after
 * SIGKILL by the next run that pins in the same folder (pins of maps no attached program uses).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/serve/pin.h"
#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/serve/serve_maps.h"

#define PIN_DEFAULT_DIR "/sys/fs/bpf/xskf"
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

/* ---- --serve ---- */

/* "1", "2-3", "0,2-3" into @out (at most @max, each below @nq); 0 or -EINVAL said. */
static int parse_queues(const char *s, const char *ifname, unsigned int nq, uint32_t *out,
			unsigned int max, unsigned int *n)
{
	const char *p = s;
	char *end;

	*n = 0;
	while (*p) {
		unsigned long a = strtoul(p, &end, 10), b = a, q;

		/* decimal digits only, as every option number: no sign, no space (strtoul takes both) */
		if (end == p || *p < '0' || *p > '9')
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || p[1] < '0' || p[1] > '9' || b < a)
				goto bad;
			p = end;
		}
		if (*p && *p != ',')
			goto bad;
		if (*p)
			p++;
		for (q = a; q <= b; q++) {
			unsigned int i;

			if (q >= nq) {
				pr_warn("--serve %s: queue %lu out of range: %s has %u RX queue%s\n", s,
					q, ifname, nq, nq == 1 ? "" : "s");
				return -ERANGE;
			}
			for (i = 0; i < *n; i++)
				if (out[i] == q) {
					pr_warn("--serve %s: queue %lu given twice\n", s, q);
					return -EINVAL;
				}
			if (*n == max)
				return -E2BIG;
			out[(*n)++] = (uint32_t)q;
		}
	}
	if (*n)
		return 0;
bad:
	pr_warn("--serve '%s': not a queue list (for example '1' or '2-3,5')\n", s);
	return -EINVAL;
}

int xskf_pin__serve_queues(struct xskf_engine *eng, struct xskf_port *p, bool explicit_queues)
{
	unsigned int i, j, k;
	int err;

	if (!eng->o.serve)
		return 0;
	err = parse_queues(eng->o.serve, p->name, p->nr_hw_queues, xskf_xdp_port(p)->served,
			   XSKF_MAX_QUEUES, &xskf_xdp_port(p)->nr_served);
	if (err)
		return err;
	for (i = 0, k = 0; i < p->nr_queues; i++) {
		for (j = 0;
		     j < xskf_xdp_port(p)->nr_served && xskf_xdp_port(p)->served[j] != p->queues[i];
		     j++)
			;
		if (j == xskf_xdp_port(p)->nr_served) {
			p->queues[k++] = p->queues[i];
			continue;
		}
		if (explicit_queues) {
			pr_warn("queue %u of %s is given with -q and with --serve: a queue is ours "
				"(-q) or another app's (--serve), not both\n",
				p->queues[i], p->name);
			return -EINVAL;
		}
	}
	p->nr_queues = k; /* without -q: every queue not served */
	if (!k) {
		pr_warn("%s: --serve keeps every queue for other apps: give this run one (-q) or "
			"serve fewer\n",
			p->name);
		return -EINVAL;
	}
	return 0;
}

/* ---- pins ---- */

/* What the fatal-signal hook removes: each port's folder, and the names in it. */
static char sig_dirs[XSKF_MAX_PORTS][256];
#define PIN_MAX_MAPS (XSKF_PROG_MAX_QUEUES + 1)
static char sig_names[PIN_MAX_MAPS][32];
static unsigned int sig_nr_names;

void xskf_pin__emergency(void)
{
	char path[320];
	unsigned int d, n;

	for (d = 0; d < XSKF_MAX_PORTS; d++) {
		size_t l = 0;

		if (!sig_dirs[d][0])
			continue;
		while (sig_dirs[d][l] && l < sizeof(path) - 40) {
			path[l] = sig_dirs[d][l];
			l++;
		}
		path[l] = '/';
		for (n = 0; n < sig_nr_names; n++) {
			size_t k = 0;

			while (sig_names[n][k] && k < 31) {
				path[l + 1 + k] = sig_names[n][k];
				k++;
			}
			path[l + 1 + k] = 0;
			unlink(path);
		}
		path[l] = 0;
		rmdir(path);
	}
}

static void sig_remember(const struct xskf_port *p)
{
	snprintf(sig_dirs[p->idx % XSKF_MAX_PORTS], sizeof(sig_dirs[0]), "%s",
		 xskf_xdp_port(p)->pin_path);
}

static int resolve_group(const char *s, gid_t *gid)
{
	char buf[4096], *end;
	struct group g, *r = NULL;
	unsigned long v = strtoul(s, &end, 10);

	if (*s && !*end) {
		*gid = (gid_t)v;
		return 0;
	}
	if (getgrnam_r(s, &g, buf, sizeof(buf), &r) || !r) {
		pr_warn("--pin-group %s: no such group (getent group %s): give a group name or "
			"id\n",
			s, s);
		return -ENOENT;
	}
	*gid = r->gr_gid;
	return 0;
}

/* @name among the names the fatal-signal hook removes (once). */
static void sig_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < sig_nr_names; i++)
		if (!strcmp(sig_names[i], name))
			return;
	if (sig_nr_names < PIN_MAX_MAPS)
		snprintf(sig_names[sig_nr_names++], sizeof(sig_names[0]), "%s", name);
}

/* Pin map @mfd as @name in our folder @fd, for group @gid when given: 0 or -errno said. */
static int pin_one(struct xskf_engine *eng, struct xskf_port *p, int fd, int mfd,
		   const char *name, const gid_t *gid)
{
	char path[96];
	int err;

	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", fd, name);
	if (bpf_obj_pin(mfd, path)) {
		err = -errno;
		pr_warn("%s: cannot pin map %s in %s: %s\n", p->name, name,
			xskf_xdp_port(p)->pin_path, strerror(-err));
		return err;
	}
	sig_name(name);
	if (gid && (fchownat(fd, name, (uid_t)-1, *gid, AT_SYMLINK_NOFOLLOW) ||
		    fchmodat(fd, name, 0660, 0))) {
		err = -errno;
		pr_warn("%s: cannot give %s/%s to group %s: %s\n", p->name,
			xskf_xdp_port(p)->pin_path, name, eng->o.pin_group, strerror(-err));
		return err;
	}
	return 0;
}

/*
 * Pin what a served app needs and nothing else: each served queue's own XSKMAP
 * (serve_maps.c), as xsks_map_qQ, and as xsks_map too when one queue is served (the name
 * DPDK's use_pinned_map and the device plugin use). The run's own XSKMAP and the maps only
 * xskf writes (owners, rules, the table, counters) are not pinned: the runs that share the
 * program reach them by its map ids (prog_share.c, root only), and xskfctl reads the counters
 * on the control socket. Their names into @names.
 */
static int pin_served(struct xskf_engine *eng, struct xskf_port *p, int fd, const gid_t *gid,
		      char *names, size_t len)
{
	const struct xskf_xdp_port *x = xskf_xdp_port(p);
	char name[32];
	size_t nl = 0;
	unsigned int i;
	int err;

	for (i = 0; i < x->nr_served_maps; i++) {
		snprintf(name, sizeof(name), "xsks_map_q%u", x->served[i]);
		err = pin_one(eng, p, fd, x->served_map[i], name, gid);
		if (!err && x->nr_served == 1)
			err = pin_one(eng, p, fd, x->served_map[i], "xsks_map", gid);
		if (err)
			return err;
		nl += (size_t)snprintf(names + nl, len - nl, "%s%s", nl ? ", " : "", name);
		if (nl >= len)
			nl = len - 1;
	}
	if (x->nr_served == 1)
		snprintf(names + nl, len - nl, " (also as xsks_map)");
	return 0;
}

/* Remove every pin in folder @fd (ours alone, checked), then the folder @name in @bfd. */
static void remove_pins(int bfd, int fd, const char *name)
{
	struct dirent *de;
	int d = dup(fd);
	DIR *dir = d >= 0 ? fdopendir(d) : NULL;
	struct stat st;

	if (!dir) {
		if (d >= 0)
			close(d);
		return;
	}
	while ((de = readdir(dir)))
		if (!fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
			unlinkat(fd, de->d_name, 0);
	closedir(dir);
	unlinkat(bfd, name, AT_REMOVEDIR);
}

/* The id of map @fd, or 0. */
static uint32_t map_id(int fd)
{
	struct bpf_map_info mi = {};
	uint32_t len = sizeof(mi);

	return fd >= 0 && !bpf_obj_get_info_by_fd(fd, &mi, &len) ? mi.id : 0;
}

/*
 * An IFNAME folder already there: pins of our maps (another run on this interface pinned them:
 * 1, left as they are), or of maps no program of ours uses any more (a killed run's: removed,
 * said, 0), or not a folder of ours (-EPERM, said).
 */
static int existing(struct xskf_port *p, int bfd, const char *base)
{
	char why[512], path[64];
	struct stat st;
	int fd, m;
	uint32_t theirs;

	fd = openat(bfd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(why, sizeof(why), "%s/%s is not a folder of ours alone", base, p->name);
		if (fd >= 0)
			close(fd);
		pr_warn("%s: cannot pin the maps: %s (owner and mode, or a symlink): remove it or "
			"choose another --pin-dir\n",
			p->name, why);
		return -EPERM;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d/xsks_map", fd);
	m = bpf_obj_get(path);
	theirs = map_id(m);
	if (m >= 0)
		close(m);
	/* a queue's XSKMAP the program serves now: the pins of the run that shares it */
	if (xskf_serve_maps__in_use(p, theirs)) {
		close(fd);
		pr_info("%s: its maps are pinned in %s/%s already (by the xskf run that shares the "
			"interface): used as they are\n",
			p->name, base, p->name);
		return 1;
	}
	remove_pins(bfd, fd, p->name);
	close(fd);
	pr_info("%s: removed the pins in %s/%s of maps no program uses (a killed run's)\n",
		p->name, base, p->name);
	return 0;
}

/*
 * Is @dir on a bpffs, or, where it does not exist yet, the nearest folder above it that does?
 * Asked before anything is made: a --pin-dir off a bpffs is refused with nothing left behind.
 * An error other than ENOENT says yes: the open that follows names it.
 */
static bool on_bpffs(const char *dir)
{
	char path[PATH_MAX];
	struct statfs sf;
	char *slash;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return true;
	for (;;) {
		if (!statfs(path, &sf))
			return sf.f_type == BPF_FS_MAGIC;
		if (errno != ENOENT)
			return true;
		slash = strrchr(path, '/');
		if (!slash) {
			/* a relative path whose first part is missing: the current folder's */
			snprintf(path, sizeof(path), ".");
			continue;
		}
		if (slash == path) {
			path[1] = '\0';
			continue;
		}
		*slash = '\0';
	}
}

int xskf_pin__port(struct xskf_engine *eng, struct xskf_port *p)
{
	const char *base = eng->o.pin_dir ? eng->o.pin_dir : PIN_DEFAULT_DIR;
	gid_t gid = 0;
	bool group = eng->o.pin_group != NULL;
	char why[512], names[512] = "";
	struct statfs sf;
	struct stat st;
	int bfd, fd = -1, err;

	/* --serve alone pins in the default folder; with --serve-uds the socket hands the map */
	if (!eng->o.pin_dir && (!eng->o.serve || eng->o.serve_uds))
		return 0;
	/* only served queues' XSKMAPs are pinned: the run's own XSKMAP is not an app's */
	if (!xskf_xdp_port(p)->nr_served_maps) {
		pr_info("%s: --pin-dir without --serve: nothing to pin (only served queues' XSKMAPs "
			"are)\n",
			p->name);
		return 0;
	}
	if (group && (err = resolve_group(eng->o.pin_group, &gid)))
		return err;
	if (!on_bpffs(base)) {
		pr_warn("%s: cannot pin the maps: %s is not on a bpffs: mount one there ('mount -t "
			"bpf bpf /sys/fs/bpf') or give a --pin-dir on one\n",
			p->name, base);
		return -ENOTSUP;
	}
	/* 0711: a --pin-group member may pass through to IFNAME, not list the others */
	bfd = xskf_proc__trusted_dir_open(base, 0711, why, sizeof(why));
	if (bfd < 0) {
		pr_warn("%s: cannot pin the maps in %s: %s: choose another --pin-dir\n", p->name, base,
			why[0] ? why : strerror(-bfd));
		return bfd;
	}
	if (fstatfs(bfd, &sf) || sf.f_type != BPF_FS_MAGIC) {
		pr_warn("%s: cannot pin the maps: %s is not on a bpffs: mount one there ('mount -t "
			"bpf bpf /sys/fs/bpf') or give a --pin-dir on one\n",
			p->name, base);
		close(bfd);
		return -ENOTSUP;
	}
	if (group && !fstat(bfd, &st) && !(st.st_mode & 01))
		pr_warn("%s: %s is mode %03o: members of group %s cannot reach the pins in it "
			"(chmod o+x)\n",
			p->name, base, (unsigned int)(st.st_mode & 0777), eng->o.pin_group);
	if (mkdirat(bfd, p->name, 0700)) {
		err = errno == EEXIST ? existing(p, bfd, base) : -errno;
		if (err == 0 && mkdirat(bfd, p->name, 0700))
			err = -errno;
		if (err) {
			close(bfd);
			if (err < 0 && err != -EPERM)
				pr_warn("%s: cannot make %s/%s: %s\n", p->name, base, p->name,
					strerror(-err));
			return err > 0 ? 0 : err;
		}
	}
	snprintf(xskf_xdp_port(p)->pin_path, sizeof(xskf_xdp_port(p)->pin_path), "%s/%s", base,
		 p->name);
	sig_remember(p);
	fd = openat(bfd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		err = fd < 0 ? -errno : -EPERM;
		pr_warn("%s: %s changed while it was made: not pinning there\n", p->name,
			xskf_xdp_port(p)->pin_path);
		goto fail;
	}
	err = pin_served(eng, p, fd, group ? &gid : NULL, names, sizeof(names));
	if (err)
		goto fail;
	/* the folder last: the group sees it whole or not at all */
	if (group && (fchown(fd, (uid_t)-1, gid) || fchmod(fd, 0750))) {
		err = -errno;
		pr_warn("%s: cannot give %s to group %s: %s\n", p->name, xskf_xdp_port(p)->pin_path,
			eng->o.pin_group, strerror(-err));
		goto fail;
	}
	close(fd);
	close(bfd);
	pr_info("%s: maps pinned in %s: %s, each served queue's own XSKMAP and nothing else, for "
		"%s\n",
		p->name, xskf_xdp_port(p)->pin_path, names,
		group ? eng->o.pin_group : "the owner only");
	return 0;
fail:
	if (fd >= 0) {
		remove_pins(bfd, fd, p->name);
		close(fd);
	}
	close(bfd);
	xskf_xdp_port(p)->pin_path[0] = 0;
	sig_dirs[p->idx % XSKF_MAX_PORTS][0] = 0;
	return err;
}

void xskf_pin__unpin(struct xskf_port *p)
{
	char dir[256], *slash;
	int bfd, fd;

	if (!xskf_xdp_port(p)->pin_path[0])
		return;
	snprintf(dir, sizeof(dir), "%s", xskf_xdp_port(p)->pin_path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		bfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		fd = bfd >= 0 ? openat(bfd, slash + 1, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
							    O_CLOEXEC)
			      : -1;
		if (fd >= 0) {
			remove_pins(bfd, fd, slash + 1);
			close(fd);
		}
		if (bfd >= 0)
			close(bfd);
	}
	xskf_xdp_port(p)->pin_path[0] = 0;
	sig_dirs[p->idx % XSKF_MAX_PORTS][0] = 0;
}

void xskf_pin__served_line(const struct xskf_engine *eng, const struct xskf_port *p)
{
	char list[256], how[512];
	size_t l = 0;
	unsigned int i;

	if (!xskf_xdp_port(p)->nr_served)
		return;
	for (i = 0; i < xskf_xdp_port(p)->nr_served && l < sizeof(list); i++)
		l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%u", i ? "," : "",
				      xskf_xdp_port(p)->served[i]);
	if (xskf_xdp_port(p)->pin_path[0])
		snprintf(how, sizeof(how), "entering its socket in %s/xsks_map_qQ (its queue's own "
					   "XSKMAP%s)",
			 xskf_xdp_port(p)->pin_path,
			 xskf_xdp_port(p)->nr_served == 1 ? ", also as xsks_map" : "");
	else if (eng->o.serve_uds)
		snprintf(how, sizeof(how), "taking the XSKMAP from the device-plugin socket %s",
			 eng->o.serve_uds);
	else
		snprintf(how, sizeof(how), "entering its socket in its queue's own XSKMAP, pinned "
					   "with --pin-dir or handed out with --serve-uds");
	pr_info("%s: queue%s %s kept for other AF_XDP apps (--serve): our rules apply there; an "
		"app takes one by %s\n",
		p->name, xskf_xdp_port(p)->nr_served == 1 ? "" : "s", list, how);
}

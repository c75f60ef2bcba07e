// SPDX-License-Identifier: BSD-2-Clause
/*
 * Several xskf runs on one interface share one XDP program (docs/steering.md, "Several
 * instances on one interface"). The first run loads and attaches it; a later run finds it
 * through the interface (bpf_xdp_query() -> program id -> its maps' ids), loads its skeleton
 * over those maps (bpf_map__reuse_fd()) without a program, and enters its own sockets in the
 * XSKMAP. Pinning in bpffs would be the usual way, but no bpffs reaches every run here: `ip
 * netns exec` gives each command its own mount namespace, so one run's bpffs mount is not
 * another's.
 *
 * What the runs share lives in the program's own maps (bpf/xskf_prog.h): the owner of each
 * queue (xskf_queues), every run's rules with their owner (xskf_rules), the time of the last
 * flip (xskf_share). Every change of those, and every write and flip of the rule table, is
 * made under a file lock in the control folder, one per interface (netns inode + ifindex).
 * An owner is a pid and its start time: a run killed with SIGKILL is told from a live one, and
 * its queues and rules are taken out by the next run that writes the table, or by the
 * survivors' watch.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/percpu.h"
#include "backend/xdp/prog/share_check.h"
#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/hints.h"
#include "core/proc.h"
#include "backend/xdp/steer/steer.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/share.h"
#include "backend/xdp/serve/serve_maps.h"

/* ---- the maps of an attached program ---- */

int xskf_share__prog_map(uint32_t prog_id, const char *name, struct bpf_map_info *mi)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info), ids[64], i;
	int fd, mfd, found = -ENOENT;

	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return -ENOENT;
	info.nr_map_ids = 64;
	info.map_ids = (uintptr_t)ids;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		goto out;
	for (i = 0; i < info.nr_map_ids && i < 64 && found < 0; i++) {
		uint32_t mlen = sizeof(*mi);

		memset(mi, 0, sizeof(*mi));
		mfd = bpf_map_get_fd_by_id(ids[i]);
		if (mfd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(mfd, mi, &mlen) && !strcmp(mi->name, name))
			found = mfd;
		else
			close(mfd);
	}
out:
	close(fd);
	return found;
}

/*
 * A record's owner is alive: a pid with that start time that holds the map @map_id
 * (share_owner.c): a record someone else wrote names no live owner.
 */
static bool owner_live(uint32_t map_id, const struct xskf_prog_qowner *o)
{
	return o->pid && !xskf_share_check__owner(o, 64, NULL, 0) &&
	       xskf_share__owner_live(map_id, o->pid, o->start_time);
}

/* The id of our xskf_queues map, read once. */
static uint32_t queues_id(struct xskf_port *port)
{
	if (!xskf_xdp_port(port)->share.queues_id)
		xskf_xdp_port(port)->share.queues_id =
		    xskf_share__map_id(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues));
	return xskf_xdp_port(port)->share.queues_id;
}

int xskf_share__live(uint32_t prog_id, pid_t *pid)
{
	struct xskf_prog_qowner o;
	struct bpf_map_info mi;
	int fd = xskf_share__prog_map(prog_id, "xskf_queues", &mi), ret = 0;
	uint32_t q;

	if (fd < 0)
		return -ENOENT;
	if (mi.value_size != sizeof(o)) {
		close(fd);
		return -ENOENT;
	}
	for (q = 0; q < mi.max_entries && !ret; q++)
		if (!bpf_map_lookup_elem(fd, &q, &o) && owner_live(mi.id, &o)) {
			*pid = (pid_t)o.pid;
			ret = 1;
		}
	close(fd);
	return ret;
}

/* ---- queues ---- */

static void self_comm(char comm[16])
{
	FILE *f = fopen("/proc/self/comm", "re");

	memset(comm, 0, 16);
	if (!f || !fgets(comm, 16, f))
		snprintf(comm, 16, "xskf");
	if (f)
		fclose(f);
	comm[strcspn(comm, "\n")] = 0;
}

/* The @i-th queue of ours: bound ones first, then the served (--serve) */
#define QUEUE_AT(port, i)                                                                    \
	((i) < (port)->nr_queues ? (port)->queues[(i)]                                     \
				 : xskf_xdp_port(port)->served[(i) - (port)->nr_queues])

/* A queue's counters from zero, when it changes hands: the program's, steering's, default's. */
static void zero_queue(struct xskf_port *port, uint32_t q)
{
	const struct xskf_redirect *s = xskf_xdp_port(port)->skel;

	xskf_percpu__zero(bpf_map__fd(s->maps.counters), q, 1, sizeof(struct xskf_prog_counters));
	xskf_percpu__zero(bpf_map__fd(s->maps.steer_qstats), q, 1,
			  sizeof(struct xskf_steer_qstats));
	xskf_percpu__zero(bpf_map__fd(s->maps.steer_hits), XSKF_STEER_MAX_RULES + q, 1,
			  sizeof(uint64_t));
}

int xskf_share__queues(struct xskf_engine *eng, struct xskf_port *port, bool claim)
{
	struct xskf_prog_qowner o, me = {.pid = (uint32_t)getpid()};
	struct bpf_map_info mi;
	char comm[17];
	unsigned int i;
	uint32_t id;
	int fd;

	(void)eng;
	if (xskf_xdp_port(port)->skel)
		fd = dup(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues));
	else if (xskf_xdp_port(port)->share.join_id)
		fd = xskf_share__prog_map(xskf_xdp_port(port)->share.join_id, "xskf_queues", &mi);
	else
		return 0; /* no program yet: nothing to share */
	if (fd < 0)
		return 0;
	id = xskf_share__map_id(fd);
	/* ours: the queues we bind, then those we keep for other apps' sockets (--serve) */
	for (i = 0; i < port->nr_queues + xskf_xdp_port(port)->nr_served; i++) {
		uint32_t q = QUEUE_AT(port, i);

		if (bpf_map_lookup_elem(fd, &q, &o) || o.pid == me.pid ||
		    !xskf_share__owner_ok(port, q, &o) || !owner_live(id, &o))
			continue;
		xskf_share_check__comm(&o, comm);
		if (o.served)
			pr_warn("queue %u of %s is kept for another AF_XDP app's socket by %s pid "
				"%u (--serve): choose other queues (-q) or stop it first\n",
				q, port->name, comm, o.pid);
		else
			pr_warn("queue %u of %s is taken by %s pid %u: choose other queues (-q) "
				"or stop it first\n",
				q, port->name, comm, o.pid);
		close(fd);
		return -EBUSY;
	}
	if (!claim) {
		close(fd);
		return 0;
	}
	me.start_time = xskf_proc__start_time(getpid());
	self_comm(me.comm);
	for (i = 0; i < port->nr_queues + xskf_xdp_port(port)->nr_served; i++) {
		uint32_t q = QUEUE_AT(port, i);

		if (!bpf_map_lookup_elem(fd, &q, &o) && o.pid && o.pid != me.pid) {
			xskf_share_check__comm(&o, comm);
			pr_info("queue %u of %s: taking it over from %s pid %u, which is gone\n",
				q, port->name, comm, o.pid);
		}
		zero_queue(port, q);
		me.served = i >= port->nr_queues;
		if (bpf_map_update_elem(fd, &q, &me, 0)) {
			int err = -errno;

			close(fd);
			return err;
		}
	}
	close(fd);
	xskf_xdp_port(port)->share.claimed = true;
	return 0;
}

/* ---- joining a live run's program ---- */

static const char *mode_name(uint32_t mode)
{
	return mode == XDP_FLAGS_SKB_MODE ? "SKB" : "native";
}

/* Does the program's own .rodata say what ours would? One line naming the difference if not. */
static int same_settings(struct xskf_engine *eng, struct xskf_port *port, struct xskf_redirect *s)
{
	uint32_t id = xskf_xdp_port(port)->share.join_id, key = 0;
	struct bpf_map_info mi;
	char theirs[64], ours[64];
	void *v;
	int fd;

	fd = xskf_share__prog_map(id, bpf_map__name(s->maps.rodata), &mi);
	if (fd < 0 || mi.value_size != bpf_map__value_size(s->maps.rodata)) {
		if (fd >= 0)
			close(fd);
		pr_warn("%s: the XDP program (id %u) of the run there is another xskf version's: "
			"stop that run first, or run the same xskf\n",
			port->name, id);
		return -EPROTO;
	}
	v = calloc(1, mi.value_size);
	if (!v || bpf_map_lookup_elem(fd, &key, v)) {
		free(v);
		close(fd);
		return -EIO;
	}
	close(fd);
	/* the layout is ours: same value size, same skeleton */
	{
		const struct xskf_redirect__rodata *r = v;

		if (r->hints_on != !eng->o.no_hints || r->xskf_hints_mask != eng->hints) {
			if (r->hints_on)
				xskf_hints__set_str(r->xskf_hints_mask, theirs, sizeof(theirs));
			else
				snprintf(theirs, sizeof(theirs), "none");
			if (!eng->o.no_hints)
				xskf_hints__set_str(eng->hints, ours, sizeof(ours));
			else
				snprintf(ours, sizeof(ours), "none");
			pr_warn(
			    "%s: the shared XDP program (id %u) writes the RX hints '%s', this run "
			    "reads '%s': runs that share an interface must read the same hints "
			    "(an app's own, or none with --no-hints)\n",
			    port->name, id, theirs, ours);
			free(v);
			return -EINVAL;
		}
		/* the driver hints it reads are the attached program's (same device, same hints) */
		xskf_xdp_port(port)->hints_hw = r->xskf_hints_kfuncs;
		/* and where it writes them: the RX path must move past a meta in the headroom */
		eng->hints_head = r->hints_on && r->meta_head && !r->hints_user;
		/* or nowhere: the RX path computes them itself (core/hints_in.h) */
		eng->hints_user = r->hints_on && r->hints_user;
	}
	free(v);
	return 0;
}

int xskf_share__join(struct xskf_engine *eng, struct xskf_port *port)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info), mode = xskf_xdp_port(port)->share.join_mode,
		 id = xskf_xdp_port(port)->share.join_id;
	enum xskf_attach_mode want = eng->o.attach_mode;
	struct xskf_redirect *s;
	struct bpf_program *prog;
	struct bpf_map *m;
	int pfd, err;

	if ((want == XSKF_ATTACH_SKB && mode != XDP_FLAGS_SKB_MODE) ||
	    (want == XSKF_ATTACH_NATIVE && mode == XDP_FLAGS_SKB_MODE)) {
		pr_warn(
		    "%s: the XDP program of the run there is attached in %s mode, this run asks "
		    "for %s mode (%s): runs that share an interface share its mode\n",
		    port->name, mode_name(mode),
		    mode_name(mode ^ (XDP_FLAGS_SKB_MODE | XDP_FLAGS_DRV_MODE)),
		    want == XSKF_ATTACH_SKB ? "-S" : "-N");
		return -EINVAL;
	}
	/* a served queue's XSKMAP is made by the run that loaded the program (serve_maps.c) */
	if (xskf_xdp_port(port)->nr_served) {
		pr_warn("%s: --serve: another xskf run holds the XDP program (id %u) of this "
			"interface; queues are served by the run that loaded it: serve them there, "
			"or stop that run first\n",
			port->name, id);
		return -EBUSY;
	}
	pfd = bpf_prog_get_fd_by_id(id);
	if (pfd < 0 || bpf_obj_get_info_by_fd(pfd, &info, &len)) {
		err = pfd < 0 ? -errno : -EIO;
		pr_warn(
		    "%s: the XDP program (id %u) of the run there is gone meanwhile: start again\n",
		    port->name, id);
		if (pfd >= 0)
			close(pfd);
		return err;
	}
	s = xskf_redirect__open();
	if (!s) {
		close(pfd);
		return -ENOMEM;
	}
	err = same_settings(eng, port, s);
	/* the attached program is the one: load none, only the maps (over its own) */
	bpf_object__for_each_program(prog, s->obj) {
		bpf_program__set_autoload(prog, false);
	}
	bpf_object__for_each_map(m, s->obj) {
		struct bpf_map_info mi;
		int fd;

		if (err)
			break;
		if (strchr(bpf_map__name(m), '.'))
			continue; /* .rodata: read above, not shared */
		fd = xskf_share__prog_map(id, bpf_map__name(m), &mi);
		if (fd < 0 || mi.type != bpf_map__type(m) || mi.key_size != bpf_map__key_size(m) ||
		    mi.value_size != bpf_map__value_size(m) ||
		    mi.max_entries != bpf_map__max_entries(m)) {
			pr_warn(
			    "%s: the XDP program (id %u) of the run there has %s map %s: it is "
			    "another xskf version's; stop that run first, or run the same xskf\n",
			    port->name, id, fd < 0 ? "no" : "another", bpf_map__name(m));
			err = -EPROTO;
		} else {
			err = bpf_map__reuse_fd(m, fd);
		}
		if (fd >= 0)
			close(fd);
	}
	if (!err)
		err = xskf_redirect__load(s);
	if (err) {
		if (err != -EINVAL && err != -EPROTO)
			pr_warn("%s: cannot use the maps of the XDP program (id %u): %s\n",
				port->name, id, strerror(-err));
		xskf_redirect__destroy(s);
		close(pfd);
		return err;
	}
	xskf_xdp_port(port)->skel = s;
	xskf_xdp_port(port)->prog_fd = xskf_xdp_port(port)->native_fd =
	    xskf_xdp_port(port)->skb_fd = pfd;
	xskf_xdp_port(port)->attach_flags = mode;
	/* info.name is cut to 15 characters: xskf_redirect_l(k), xskf_redirect_h(w) */
	xskf_xdp_port(port)->tier =
	    !strcmp(info.name, "xskf_redirect_l") ? XSKF_TIER_MAP_LOOKUP : XSKF_TIER_MAP_FALLBACK;
	if (strcmp(info.name, "xskf_redirect_h"))
		xskf_xdp_port(port)->hints_hw = 0;
	xskf_xdp_port(port)->share.joined = true;
	return 0;
}

/* ---- leaving, and the dead ---- */

bool xskf_share__leave(struct xskf_port *port)
{
	struct xskf_prog_qowner o, none = {};
	uint32_t me = (uint32_t)getpid(), q;
	bool others = false;
	unsigned int i;
	int fd;

	if (!xskf_xdp_port(port)->skel || !xskf_xdp_port(port)->share.claimed)
		return true;
	xskf_share__lock(port);
	fd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues);
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++)
		if (!bpf_map_lookup_elem(fd, &q, &o) && o.pid != me && owner_live(queues_id(port), &o))
			others = true;
	for (i = 0; i < port->nr_queues; i++)
		bpf_map_delete_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.xsks),
				    &port->queues[i]);
	xskf_xdp_port(port)->share.leaving = true;
	/* the table without our rules and queues, while the program still runs for the others */
	if (others)
		xskf_steer__rewrite(port);
	for (i = 0; i < port->nr_queues + xskf_xdp_port(port)->nr_served; i++) {
		q = QUEUE_AT(port, i);
		if (!bpf_map_lookup_elem(fd, &q, &o) && o.pid == me)
			bpf_map_update_elem(fd, &q, &none, 0);
	}
	/* another app's socket in a queue we served: out with our rules (its owner is gone) */
	xskf_serve_maps__drop(port);
	xskf_xdp_port(port)->share.claimed = false;
	if (others && xskf_xdp_port(port)->attached) {
		pr_info("%s: the XDP program stays for the other xskf runs on this interface; our "
			"queues and rules left it\n",
			port->name);
		if (xskf_xdp_port(port)->foreign_saved) {
			pr_warn(
			    "%s: the foreign XDP program %s that --force replaced cannot be put "
			    "back while other xskf runs use the interface\n",
			    port->name, xskf_xdp_port(port)->foreign_name);
			close(xskf_xdp_port(port)->foreign_fd);
			xskf_xdp_port(port)->foreign_saved = false;
		}
	}
	xskf_share__unlock(port);
	return !others;
}

/*
 * Every queue's owner record of the xskf_queues map @fd into @o, in one system call: the watch
 * reads them all every period (xskf_share__reap()), and a lookup per queue was 256 bpf()
 * calls each time, most of the control thread's CPU time. A kernel that cannot (no batch
 * lookups) gets one lookup per queue; a record that cannot be read is left zero (no owner).
 */
static void read_owners(int fd, struct xskf_prog_qowner o[XSKF_PROG_MAX_QUEUES])
{
	uint32_t keys[XSKF_PROG_MAX_QUEUES], count = XSKF_PROG_MAX_QUEUES, next, q;
	int err;

	err = bpf_map_lookup_batch(fd, NULL, &next, keys, o, &count, NULL);
	/* ENOENT: the last batch, which here is the whole map; an array's come in key order */
	if ((!err || errno == ENOENT) && count == XSKF_PROG_MAX_QUEUES &&
	    keys[0] == 0 && keys[XSKF_PROG_MAX_QUEUES - 1] == XSKF_PROG_MAX_QUEUES - 1)
		return;
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++)
		if (bpf_map_lookup_elem(fd, &q, &o[q]))
			memset(&o[q], 0, sizeof(o[q]));
}

int xskf_share__reap(struct xskf_port *port)
{
	struct xskf_prog_qowner own[XSKF_PROG_MAX_QUEUES];
	uint32_t me = (uint32_t)getpid(), q, dead = 0, id;
	char comm[17];
	int fd;

	if (!xskf_xdp_port(port)->skel || !xskf_xdp_port(port)->share.claimed)
		return 0;
	fd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues);
	id = queues_id(port);
	read_owners(fd, own);
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++)
		if (own[q].pid && own[q].pid != me && !own[q].gone &&
		    xskf_share__owner_ok(port, q, &own[q]) && !owner_live(id, &own[q]))
			dead++;
	if (!dead || xskf_share__lock(port))
		return 0;
	/* again under the lock: another run may have taken a queue over since */
	read_owners(fd, own);
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++) {
		if (!own[q].pid || own[q].pid == me || own[q].gone ||
		    !xskf_share__owner_ok(port, q, &own[q]) || owner_live(id, &own[q]))
			continue;
		xskf_share_check__comm(&own[q], comm);
		pr_info("%s: queue %u: its owner %s pid %u is gone: its rules leave the table, "
			"the queue is free\n",
			port->name, q, comm, own[q].pid);
		own[q].gone = 1;
		bpf_map_update_elem(fd, &q, &own[q], 0);
	}
	xskf_steer__rewrite(port); /* without the rules of owners no longer alive */
	xskf_share__unlock(port);
	return 0;
}

bool xskf_share__others_sigsafe(int fd)
{
	struct xskf_prog_qowner o;
	uint32_t q;

	if (fd < 0)
		return false;
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++)
		if (!bpf_map_lookup_elem(fd, &q, &o) && o.pid && o.pid != (uint32_t)getpid() &&
		    !kill((pid_t)o.pid, 0))
			return true;
	return false;
}

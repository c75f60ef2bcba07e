// SPDX-License-Identifier: BSD-2-Clause
/*
 * Who owns a queue of a shared program (prog_share.c), told from what the kernel says rather
 * than from what a map says. An owner record of xskf_queues holds a pid and its start time;
 * a record someone else wrote could name any live process (a queue held forever), or a dead
 * pid over a live run's queues (its program replaced by the next run). So an owner is alive
 * when its pid has that start time AND the process holds an fd of the program's xskf_queues
 * map (every xskf run on the program does, from its load or join to its exit; nothing else
 * does, since the map is not pinned). The answer for a (pid, start time) does not change
 * while that process lives, so it is cached: the watch asks for every queue every period.
 * Records that fail share_check.c are ignored and named once per slot (until they change).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/share_check.h"
#include "backend/xdp/xdp_state.h"
#include "core/log.h"
#include "core/proc.h"
#include "xskf_steer.h"
#include "backend/xdp/prog/share.h"

/* Does /proc/@pid/fdinfo/@name say map @map_id? */
static bool fd_is_map(int dfd, const char *name, uint32_t map_id)
{
	char buf[1024], *p;
	ssize_t n;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strstr(buf, "\nmap_id:");
	return p && strtoul(p + 8, NULL, 10) == map_id;
}

/*
 * Does process @pid hold an fd of map @map_id? 1 yes, 0 no, -1 unknown: its fdinfo is not
 * ours to read (EACCES: reading it is a ptrace access, refused to a run that dropped its
 * capabilities after set-up while @pid, an xskf run in its own set-up, still holds more).
 */
static int holds_map(pid_t pid, uint32_t map_id)
{
	char path[64];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == EACCES || errno == EPERM ? -1 : 0;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] != '.')
			found = fd_is_map(dirfd(d), de->d_name, map_id);
	closedir(d);
	return found;
}

pid_t xskf_share__map_holder(uint32_t map_id)
{
	struct dirent *de;
	pid_t found = 0, me = getpid();
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (pid > 0 && !*end && pid != me && holds_map((pid_t)pid, map_id) == 1)
			found = (pid_t)pid;
	}
	closedir(d);
	return found;
}

#define OWNER_CACHE 16
static struct {
	uint32_t pid, map_id;
	uint64_t start;
	bool live;
} cache[OWNER_CACHE];
static unsigned int cache_next;

bool xskf_share__owner_live(uint32_t map_id, uint32_t pid, uint64_t start)
{
	unsigned int i;
	int held;
	bool live;

	if (!pid || pid > 4194304 || !xskf_proc__same((pid_t)pid, start))
		return false;
	for (i = 0; i < OWNER_CACHE; i++)
		if (cache[i].pid == pid && cache[i].start == start && cache[i].map_id == map_id)
			return cache[i].live;
	held = map_id ? holds_map((pid_t)pid, map_id) : 1;
	/*
	 * Unknown: the process lives (its start time matched) but has more capabilities than
	 * we kept. Live for now and not cached: cached "dead", a run that joined while we
	 * looked lost its queues' rules to our watch, and our exit detached its program.
	 */
	if (held < 0)
		return true;
	live = held == 1;
	cache[cache_next].pid = pid;
	cache[cache_next].start = start;
	cache[cache_next].map_id = map_id;
	cache[cache_next].live = live;
	cache_next = (cache_next + 1) % OWNER_CACHE;
	return live;
}

uint32_t xskf_share__map_id(int fd)
{
	struct bpf_map_info mi = {};
	uint32_t len = sizeof(mi);

	return fd >= 0 && !bpf_obj_get_info_by_fd(fd, &mi, &len) ? mi.id : 0;
}

/* FNV-1a of a record: a bad record is said again only when it changes */
static uint32_t hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h | 1; /* 0: nothing said for the slot yet */
}

static unsigned int ncpu(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? (unsigned int)n : 1;
}

bool xskf_share__owner_ok(const struct xskf_port *port, uint32_t q,
			  const struct xskf_prog_qowner *o)
{
	static uint32_t said[XSKF_PROG_MAX_QUEUES];
	char why[96];
	uint32_t h;

	if (!o->pid || !xskf_share_check__owner(o, ncpu(), why, sizeof(why)))
		return true;
	h = hash(o, sizeof(*o));
	if (q < XSKF_PROG_MAX_QUEUES && said[q] != h) {
		said[q] = h;
		pr_warn(
		    "%s: queue %u: its owner record in the shared map xskf_queues is not one xskf "
		    "writes (%s): ignored, the queue taken as free\n",
		    port->name, q, why);
	}
	return false;
}

bool xskf_share__rule_ok(const struct xskf_port *port, uint32_t slot,
			 const struct xskf_prog_srule *r)
{
	static uint32_t said[XSKF_STEER_MAX_RULES];
	char why[96];
	uint32_t h;

	if (!r->pid || !xskf_share_check__rule(r, ncpu(), why, sizeof(why)))
		return true;
	h = hash(r, sizeof(*r));
	if (slot < XSKF_STEER_MAX_RULES && said[slot] != h) {
		said[slot] = h;
		pr_warn("%s: rule slot %u: the record in the shared map xskf_rules (pid %u) is not "
			"one xskf writes (%s): ignored\n",
			port->name, slot, r->pid, why);
	}
	return false;
}

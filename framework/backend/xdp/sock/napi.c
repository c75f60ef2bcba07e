// SPDX-License-Identifier: BSD-2-Clause
/*
 * NAPI settings of the bound devices: napi_defer_hard_irqs, gro_flush_timeout and, per NAPI
 * only, irq-suspend-timeout (--napi, docs/idle.md). Nothing is changed unless asked: on veth they cost latency (p50 31 -> 354 us
 * measured) and they are the device's, shared with the kernel's own stack.
 *
 * Where the bound queues name their NAPIs (a zero-copy socket's SO_INCOMING_NAPI_ID, or the
 * driver's queue-get), each NAPI is set over netdev netlink (napi-set, 6.13+); else the device
 * is set through sysfs, which sets every NAPI of it (veth names no NAPI per queue: its sockets
 * have no NAPI ID, in either mode). The old values are written to a state file in the control
 * folder before anything changes (NAME napi.PID.state, with the start time and the network
 * namespace), put back at stop, and by the next start of the same namespace when the run that
 * wrote it is dead (proc.c), as prog.c does for programs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "backend/xdp/xdp_state.h"
#include "backend/xdp/prog/features.h"
#include "core/engine.h"
#include "core/idle.h"
#include "core/log.h"
#include "backend/xdp/sock/napi.h"
#include "backend/xdp/sock/napi_nl.h"
#include "core/port.h"
#include "core/proc.h"
#include "core/sock.h"
#include "core/sysfs.h"
#include "backend/xdp/sock/sock.h"

#define NAPI_MAX_ENTRIES (XSKF_MAX_PORTS * 8)

/* One device or one NAPI whose values were changed, with the values it had before. */
struct napi_entry {
	bool per_napi;
	int ifindex;
	char ifname[IF_NAMESIZE];
	uint32_t napi_id;
	uint32_t defer;
	uint64_t gro_ns;
	bool has_irq; /* irq-suspend-timeout was changed (per NAPI only) */
	uint64_t irq_ns;
};

struct xskf_napi_run {
	struct xskf_napi_nl nl;
	bool nl_ok;
	bool irq_suspend;    /* the kernel reports irq-suspend-timeout */
	char path[PATH_MAX]; /* our state file, "" when none */
	struct napi_entry e[NAPI_MAX_ENTRIES];
	unsigned int n;
	char used[160]; /* what --napi did, for the idle line */
	bool irq_used;	/* --napi irq-suspend= set */
};

/* The --napi settings: name, sysfs/netlink meaning for messages, largest value. */
static const struct {
	const char *name, *what;
	unsigned long long max;
} napi_keys[] = {
	{"defer", "defer=0..2147483647 (napi_defer_hard_irqs)", INT32_MAX},
	{"gro-flush", "gro-flush=0..1000000000 (ns; gro_flush_timeout)", 1000000000ull},
	{"irq-suspend", "irq-suspend=0..1000000000 (ns; irq-suspend-timeout)", 1000000000ull},
};

int xskf_napi__parse(const char *s, struct xskf_napi_req *r)
{
	char buf[256], *tok, *save, *end;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	if (!s || !*s || strlen(s) >= sizeof(buf)) {
		pr_warn("--napi '%s': give defer=N, gro-flush=NS and/or irq-suspend=NS (e.g. "
			"defer=2,gro-flush=200000)\n",
			s ? s : "");
		return -EINVAL;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v;

		if (eq)
			*eq = 0;
		for (k = 0; eq && k < sizeof(napi_keys) / sizeof(napi_keys[0]); k++)
			if (!strcmp(tok, napi_keys[k].name))
				break;
		if (!eq || k == sizeof(napi_keys) / sizeof(napi_keys[0])) {
			pr_warn("--napi: unknown setting '%s': use defer=N, gro-flush=NS and/or "
				"irq-suspend=NS\n",
				tok);
			return -EINVAL;
		}
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end || eq[1] == '-' || v > napi_keys[k].max) {
			pr_warn("--napi %s=%s: not a number in range: use %s\n", tok, eq + 1,
				napi_keys[k].what);
			return -EINVAL;
		}
		if (k == 0) {
			r->defer_set = true;
			r->defer = (uint32_t)v;
		} else if (k == 1) {
			r->gro_set = true;
			r->gro_ns = v;
		} else {
			r->irq_set = true;
			r->irq_ns = v;
		}
	}
	if (!r->defer_set && !r->gro_set && !r->irq_set) {
		pr_warn("--napi '%s': give defer=N, gro-flush=NS and/or irq-suspend=NS\n", s);
		return -EINVAL;
	}
	return 0;
}

static const char *state_dir(void)
{
	return xskf_proc__ctl_dir(); /* the control folder, as for sockets and lock files */
}

static uint64_t netns_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : (uint64_t)st.st_ino;
}

static int sysfs_write(const char *ifname, const char *file, uint64_t v)
{
	char path[PATH_MAX];
	int fd, n, err = 0;
	char num[32];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(num, sizeof(num), "%" PRIu64 "\n", v);
	if (write(fd, num, (size_t)n) != n)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Write the state file @name into the control folder @dfd (checked: ours alone), through NAME.tmp
 * and a rename. A NAME.tmp already there (a run killed while writing it) is removed and made
 * anew with O_EXCL | O_NOFOLLOW: whatever it was, a FIFO that would block the open or a hard
 * link to someone's file, it is not written into.
 */
static int write_state(int dfd, const char *name, const struct napi_entry *e, unsigned int n)
{
	char tmp[NAME_MAX + 1];
	unsigned int i;
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	if (unlinkat(dfd, tmp, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlinkat(dfd, tmp, 0);
		return -ENOMEM;
	}
	fprintf(f, "xskf-napi 1\npid %d start %" PRIu64 " netns %" PRIu64 "\n", (int)getpid(),
		xskf_proc__start_time(getpid()), netns_ino());
	/*
	 * irq-suspend-timeout, where changed, ends the line: an older xskf reads the first six
	 * fields of it and still puts back the other two
	 */
	for (i = 0; i < n; i++) {
		fprintf(f, "%s %d %s %u defer %u gro-flush %" PRIu64, e[i].per_napi ? "napi" : "dev",
			e[i].ifindex, e[i].ifname, e[i].napi_id, e[i].defer, e[i].gro_ns);
		if (e[i].has_irq)
			fprintf(f, " irq-suspend %" PRIu64, e[i].irq_ns);
		fputc('\n', f);
	}
	if (fflush(f) || fsync(fd) || fclose(f)) {
		unlinkat(dfd, tmp, 0);
		return -EIO;
	}
	/* the name itself is replaced whatever it was (a rename does not open it) */
	if (renameat(dfd, tmp, dfd, name)) {
		int err = -errno;

		unlinkat(dfd, tmp, 0);
		return err;
	}
	return 0;
}

/*
 * Entries of state file @name in the control folder @dfd; its writer's pid, start time and
 * netns. -EINVAL for a file that is not one xskf wrote (not a regular file of ours with one
 * link, or not in its format), -errno when it cannot be opened.
 */
static int read_state(int dfd, const char *name, struct napi_entry *e, unsigned int *n, pid_t *pid,
		      uint64_t *start, uint64_t *ns)
{
	char line[256], kind[8], *p;
	int pd, ver = 0;
	/* O_NONBLOCK: a FIFO is refused by the fstat() below, not waited on at the open */
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	*n = 0;
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -EIO;
	}
	if (!fgets(line, sizeof(line), f) || sscanf(line, "xskf-napi %d", &ver) != 1 || ver != 1 ||
	    !fgets(line, sizeof(line), f) ||
	    sscanf(line, "pid %d start %" SCNu64 " netns %" SCNu64, &pd, start, ns) != 3) {
		fclose(f);
		return -EINVAL;
	}
	*pid = pd;
	while (*n < NAPI_MAX_ENTRIES && fgets(line, sizeof(line), f)) {
		struct napi_entry *x = &e[*n];

		memset(x, 0, sizeof(*x));
		if (sscanf(line, "%7s %d %15s %u defer %u gro-flush %" SCNu64, kind, &x->ifindex,
			   x->ifname, &x->napi_id, &x->defer, &x->gro_ns) != 6)
			continue;
		x->per_napi = !strcmp(kind, "napi");
		/* absent in the files of runs before irq-suspend (and of runs that did not set it) */
		p = strstr(line, " irq-suspend ");
		x->has_irq = x->per_napi && p && sscanf(p, " irq-suspend %" SCNu64, &x->irq_ns) == 1;
		(*n)++;
	}
	fclose(f);
	return 0;
}

/* ", irq-suspend-timeout N" where @x changed it, else "": for the put-back lines */
static const char *irq_text(const struct napi_entry *x, char *buf, size_t len)
{
	buf[0] = 0;
	if (x->has_irq)
		snprintf(buf, len, ", irq-suspend-timeout %" PRIu64, x->irq_ns);
	return buf;
}

/*
 * Put back @e (the values a run found), saying each one that cannot be. @nl may be NULL (no
 * netdev netlink). Returns how many could not.
 */
static unsigned int put_back(struct xskf_napi_nl *nl, const struct napi_entry *e, unsigned int n,
			     const char *who)
{
	unsigned int i, bad = 0;
	char name[IF_NAMESIZE];
	int err;

	for (i = 0; i < n; i++) {
		const struct napi_entry *x = &e[i];

		/* the device must still be the one we changed (an ifindex is not reused soon) */
		if (!if_indextoname((unsigned int)x->ifindex, name) || strcmp(name, x->ifname)) {
			pr_warn("warning: %s: cannot put back %s's napi_defer_hard_irqs %u and "
				"gro_flush_timeout %" PRIu64 ": the device is gone\n",
				who, x->ifname, x->defer, x->gro_ns);
			bad++;
			continue;
		}
		if (x->per_napi) {
			struct xskf_napi_info v = {.defer_hard_irqs = x->defer,
						   .gro_flush_timeout = x->gro_ns,
						   .irq_suspend_timeout = x->irq_ns};

			err = nl ? xskf_napi_nl__set(nl, x->napi_id, &v,
						     XSKF_NAPI_DEFER | XSKF_NAPI_GRO_FLUSH |
							 (x->has_irq ? XSKF_NAPI_IRQ_SUSPEND : 0))
				 : -EOPNOTSUPP;
			if (err) {
				pr_warn(
				    "warning: %s: cannot put back NAPI %u of %s: defer-hard-irqs "
				    "%u, gro-flush-timeout %" PRIu64 ": %s\n",
				    who, x->napi_id, x->ifname, x->defer, x->gro_ns,
				    err == -ENOENT ? "that NAPI is gone (a new one has the "
						     "device's values)"
						   : strerror(-err));
				bad++;
			}
			continue;
		}
		err = sysfs_write(x->ifname, "napi_defer_hard_irqs", x->defer);
		if (err) {
			pr_warn("warning: %s: cannot put back %s's napi_defer_hard_irqs %u: %s\n",
				who, x->ifname, x->defer, strerror(-err));
			bad++;
		}
		err = sysfs_write(x->ifname, "gro_flush_timeout", x->gro_ns);
		if (err) {
			pr_warn("warning: %s: cannot put back %s's gro_flush_timeout %" PRIu64
				": %s\n",
				who, x->ifname, x->gro_ns, strerror(-err));
			bad++;
		}
	}
	return bad;
}

/*
 * State files of dead runs of our network namespace: put their values back, remove them. A file
 * under a state file's name that xskf did not write (garbage, a FIFO, a link) is said in one
 * line and removed: it can put nothing back, and left there it would be read at every start.
 */
static void clean_stale(struct xskf_napi_run *r)
{
	struct napi_entry e[NAPI_MAX_ENTRIES];
	uint64_t start, ns, our_ns = netns_ino();
	const char *dir = state_dir();
	char who[64], irq[48], why[200];
	struct dirent *de;
	unsigned int n, i;
	pid_t pid = 0;
	int dfd, err;
	DIR *d;

	/* a dead run's files say what to write: only from a folder nobody else may write (ctl.c) */
	dfd = xskf_proc__ctl_dir_open(why, sizeof(why));
	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (strncmp(de->d_name, "napi.", 5) || l < 12 ||
		    strcmp(de->d_name + l - 6, ".state"))
			continue;
		err = read_state(dfd, de->d_name, e, &n, &pid, &start, &ns);
		if (err == -EINVAL) {
			pr_warn("warning: %s/%s is not a NAPI state file xskf wrote (not a regular "
				"file of ours in its format): removed\n",
				dir, de->d_name);
			unlinkat(dfd, de->d_name, 0);
			continue;
		}
		if (err)
			continue;
		/* another namespace's devices are not ours to see; a live run keeps its own */
		if (ns != our_ns || xskf_proc__same(pid, start) || pid == getpid())
			continue;
		snprintf(who, sizeof(who), "a dead run (pid %d)", (int)pid);
		if (!put_back(r->nl_ok ? &r->nl : NULL, e, n, who))
			for (i = 0; i < n; i++)
				pr_info("%s left NAPI settings changed: put back %s%s%.0u: "
					"napi_defer_hard_irqs %u, gro_flush_timeout %" PRIu64
					"%s\n",
					who, e[i].ifname, e[i].per_napi ? " NAPI " : "",
					e[i].per_napi ? e[i].napi_id : 0, e[i].defer, e[i].gro_ns,
					irq_text(&e[i], irq, sizeof(irq)));
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d); /* closes dfd */
}

const char *xskf_napi__device_why(bool netlink, bool napi_set, uint32_t napi_id)
{
	if (!netlink)
		return xskf_features__forced_off("netdev_genl")
			   ? "the netdev netlink family forced off by XSKF_FEATURES_OFF"
			   : "the kernel has no netdev netlink family (6.3+)";
	if (!napi_set)
		return "the kernel has no napi-set (6.13+)";
	if (!napi_id)
		return "its queues name no NAPI (its sockets have no NAPI ID)";
	return NULL;
}

static bool napi_known(const struct xskf_napi_run *r, uint32_t id)
{
	for (unsigned int i = 0; i < r->n; i++)
		if (r->e[i].per_napi && r->e[i].napi_id == id)
			return true;
	return false;
}

/*
 * The entries for port @p: its bound queues' NAPIs when every one names its NAPI and the kernel
 * has napi-set, else the device. Sets *@why to the reason for the device.
 */
static int plan_port(struct xskf_engine *eng, struct xskf_napi_run *r, const struct xskf_port *p,
		     const char **why)
{
	unsigned int i, first = r->n;

	*why = xskf_napi__device_why(r->nl_ok, r->nl.has_napi_set, 1);
	if (!*why && xskf_features__probe(XSKF_FEAT_NAPI_IDS))
		*why = xskf_features__probe(XSKF_FEAT_NAPI_IDS) == -ECANCELED
			   ? "NAPI IDs per queue forced off by XSKF_FEATURES_OFF"
			   : "the kernel names no NAPI per queue (netdev queue-get, 6.8+)";
	for (i = 0; i < eng->nr_socks && !*why; i++) {
		const struct xskf_sock *s = &eng->socks[i];
		uint32_t id;

		if (s->port != p)
			continue;
		id = xskf_sock__napi_id(s);
		if (!id)
			xskf_napi_nl__queue_napi(&r->nl, (uint32_t)p->ifindex, s->queue, &id);
		*why = xskf_napi__device_why(true, true, id);
		if (*why)
			break;
		if (napi_known(r, id) || r->n >= NAPI_MAX_ENTRIES)
			continue;
		r->e[r->n] =
		    (struct napi_entry){.per_napi = true, .ifindex = p->ifindex, .napi_id = id};
		snprintf(r->e[r->n].ifname, IF_NAMESIZE, "%s", p->name);
		r->n++;
	}
	if (*why) {
		r->n = first;
		if (r->n >= NAPI_MAX_ENTRIES)
			return -E2BIG;
		r->e[r->n] = (struct napi_entry){.ifindex = p->ifindex};
		snprintf(r->e[r->n].ifname, IF_NAMESIZE, "%s", p->name);
		r->n++;
	}
	return 0;
}

/* The old values of the planned entries, read now; @irq: irq-suspend-timeout's too. */
static int read_old(struct xskf_napi_run *r, bool irq)
{
	for (unsigned int i = 0; i < r->n; i++) {
		struct napi_entry *x = &r->e[i];
		struct xskf_napi_info in;
		long d, g;
		int err;

		if (x->per_napi) {
			err = xskf_napi_nl__get(&r->nl, x->napi_id, &in);
			if (err)
				return err;
			x->defer = in.defer_hard_irqs;
			x->gro_ns = in.gro_flush_timeout;
			x->has_irq = irq && in.has_irq_suspend;
			x->irq_ns = in.irq_suspend_timeout;
			continue;
		}
		d = xskf_sysfs__long("/sys/class/net/%s/napi_defer_hard_irqs", x->ifname);
		g = xskf_sysfs__long("/sys/class/net/%s/gro_flush_timeout", x->ifname);
		if (d < 0 || g < 0)
			return -ENOENT;
		x->defer = (uint32_t)d;
		x->gro_ns = (uint64_t)g;
	}
	return 0;
}

static int apply(struct xskf_engine *eng, struct xskf_napi_run *r)
{
	const struct xskf_napi_req *q = &xskf_xdp_eng(eng)->napi_req;
	unsigned int i;
	int err = 0;

	for (i = 0; i < r->n && !err; i++) {
		struct napi_entry *x = &r->e[i];

		if (x->per_napi) {
			struct xskf_napi_info v = {.defer_hard_irqs = q->defer,
						   .gro_flush_timeout = q->gro_ns,
						   .irq_suspend_timeout = q->irq_ns};

			err = xskf_napi_nl__set(&r->nl, x->napi_id, &v,
						(q->defer_set ? XSKF_NAPI_DEFER : 0) |
						    (q->gro_set ? XSKF_NAPI_GRO_FLUSH : 0) |
						    (q->irq_set ? XSKF_NAPI_IRQ_SUSPEND : 0));
		} else {
			if (q->defer_set)
				err = sysfs_write(x->ifname, "napi_defer_hard_irqs", q->defer);
			if (!err && q->gro_set)
				err = sysfs_write(x->ifname, "gro_flush_timeout", q->gro_ns);
		}
		if (err) {
			pr_warn("--napi: cannot set %s%s: %s\n", x->ifname,
				x->per_napi ? "'s NAPI" : "", strerror(-err));
			break;
		}
		pr_info(
		    "--napi: %s%s%.0u: napi_defer_hard_irqs %u -> %u, gro_flush_timeout %" PRIu64
		    " -> %" PRIu64 " ns, %s; put back at exit\n",
		    x->ifname, x->per_napi ? " NAPI " : "", x->per_napi ? x->napi_id : 0, x->defer,
		    q->defer_set ? q->defer : x->defer, x->gro_ns,
		    q->gro_set ? q->gro_ns : x->gro_ns,
		    x->per_napi ? "per NAPI (netdev netlink napi-set)"
				: "per device (sysfs: every NAPI of it)");
		if (x->has_irq)
			pr_info("--napi: %s NAPI %u: irq-suspend-timeout %" PRIu64 " -> %" PRIu64
				" ns; put back at exit\n",
				x->ifname, x->napi_id, x->irq_ns, q->irq_ns);
	}
	return err;
}

/*
 * --napi irq-suspend= is set per NAPI, and the kernel suspends a NAPI's interrupts only while
 * an epoll_wait() with preferred busy polling finds its events (napi.rst, "IRQ suspension"):
 * so it needs napi-set with the attribute, sockets that name their NAPI (a NAPI ID), -B and the
 * epoll wait (xdp.c). Where one is missing: one line, and the start fails (a forced mode).
 */
static int irq_suspend_check(struct xskf_engine *eng, const struct xskf_napi_run *r)
{
	const struct xskf_engine_opts *o = &eng->o;
	unsigned int i;

	if (!xskf_xdp_eng(eng)->napi_req.irq_set)
		return 0;
	if (!r->nl_ok && xskf_features__forced_off("netdev_genl")) {
		pr_warn("--napi irq-suspend=%" PRIu64 ": the netdev netlink family forced off by "
			"XSKF_FEATURES_OFF: leave it out\n",
			xskf_xdp_eng(eng)->napi_req.irq_ns);
		return -EOPNOTSUPP;
	}
	if (!r->nl_ok || !r->nl.has_napi_set || !r->irq_suspend) {
		pr_warn("--napi irq-suspend=%" PRIu64 ": the kernel %s (6.13+): leave it out\n",
			xskf_xdp_eng(eng)->napi_req.irq_ns,
			!r->nl_ok ? "has no netdev netlink family"
			: !r->nl.has_napi_set ? "has no napi-set"
					      : "reports no irq-suspend-timeout for these NAPIs");
		return -EOPNOTSUPP;
	}
	if (xskf_features__probe(XSKF_FEAT_NAPI_IDS) == -ECANCELED) {
		pr_warn("--napi irq-suspend=%" PRIu64 ": IRQ suspension is per NAPI, and NAPI IDs "
			"per queue are forced off by XSKF_FEATURES_OFF: leave it out\n",
			xskf_xdp_eng(eng)->napi_req.irq_ns);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];

		if (!xskf_sock__napi_id(s)) {
			pr_warn("--napi irq-suspend=%" PRIu64 ": IRQ suspension is per NAPI and "
				"needs -B on sockets with a NAPI ID: %s queue %u (%s) has none\n",
				xskf_xdp_eng(eng)->napi_req.irq_ns, s->port->name, s->queue,
				s->zerocopy ? "zero-copy" : "copy mode");
			return -EOPNOTSUPP;
		}
	}
	if (!o->busy_poll || o->idle == XSKF_IDLE_BUSY) {
		pr_warn("--napi irq-suspend=%" PRIu64 ": IRQ suspension needs preferred busy polling "
			"in the idle wait's epoll_wait(): %s\n",
			xskf_xdp_eng(eng)->napi_req.irq_ns,
			!o->busy_poll ? "add -B" : "drop --idle busy (it never waits)");
		return -EOPNOTSUPP;
	}
	if (!xskf_idle__epoll(eng)) {
		pr_warn("--napi irq-suspend=%" PRIu64 ": IRQ suspension needs epoll busy polling "
			"(EPIOCSPARAMS, 6.9+), which this kernel refused (the line above): leave it "
			"out\n",
			xskf_xdp_eng(eng)->napi_req.irq_ns);
		return -EOPNOTSUPP;
	}
	return 0;
}

int xskf_napi__start(struct xskf_engine *eng)
{
	struct xskf_napi_run *r;
	struct xskf_napi_info in[4];
	const char *why = NULL;
	bool dev = false, per_napi = false;
	char fwhy[200] = "";
	unsigned int i;
	int err, n, dfd;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	xskf_xdp_eng(eng)->napi = r;
	r->nl.fd = -1;
	r->nl_ok = !xskf_napi_nl__open(&r->nl);
	/* the probe: irq-suspend-timeout is in napi-get's answer where the kernel has it */
	for (i = 0; r->nl_ok && i < eng->nr_ports && !r->irq_suspend; i++) {
		n = xskf_napi_nl__dump(&r->nl, (uint32_t)eng->ports[i].ifindex, in, 4);
		r->irq_suspend = n > 0 && in[0].has_irq_suspend;
	}
	clean_stale(r);
	if (!xskf_xdp_eng(eng)->napi_req.defer_set && !xskf_xdp_eng(eng)->napi_req.gro_set &&
	    !xskf_xdp_eng(eng)->napi_req.irq_set)
		return 0;
	err = irq_suspend_check(eng, r);
	if (err)
		return err;
	/*
	 * The NAPI settings are the interface's, and runs that share it each put back what they
	 * found: a second run's "old" values would be the first one's, put back after it left.
	 */
	for (i = 0; i < eng->nr_ports; i++) {
		if (!xskf_xdp_port(&eng->ports[i])->share.joined)
			continue;
		pr_warn("--napi: %s is shared with the xskf run that attached its XDP program: its "
			"NAPI settings are the interface's; give --napi to that run (the first) only\n",
			eng->ports[i].name);
		return -EBUSY;
	}
	for (i = 0; i < eng->nr_ports; i++) {
		err = plan_port(eng, r, &eng->ports[i], &why);
		if (err) {
			pr_warn("--napi: more than %d NAPIs to set\n", NAPI_MAX_ENTRIES);
			r->n = 0; /* nothing changed: nothing to put back */
			return err;
		}
		if (why && xskf_xdp_eng(eng)->napi_req.irq_set) {
			/* irq_suspend_check() saw NAPI IDs: only a NAPI gone since comes here */
			pr_warn("--napi irq-suspend=%" PRIu64 ": IRQ suspension is per NAPI and %s "
				"has to be set per device: %s\n",
				xskf_xdp_eng(eng)->napi_req.irq_ns, eng->ports[i].name, why);
			r->n = 0;
			return -EOPNOTSUPP;
		}
		if (why)
			pr_info("--napi: %s set per device through sysfs: %s\n", eng->ports[i].name,
				why);
		dev |= why != NULL;
		per_napi |= why == NULL;
	}
	err = read_old(r, xskf_xdp_eng(eng)->napi_req.irq_set);
	if (err) {
		pr_warn("--napi: cannot read the NAPI settings to change: %s\n", strerror(-err));
		r->n = 0;
		return err;
	}
	/* recorded before anything changes: a crash from here on is put right by the next start */
	snprintf(r->path, sizeof(r->path), "%s/napi.%d.state", state_dir(), (int)getpid());
	dfd = xskf_proc__ctl_dir_open(fwhy, sizeof(fwhy));
	if (dfd >= 0) {
		err = write_state(dfd, strrchr(r->path, '/') + 1, r->e, r->n);
		close(dfd);
	} else {
		err = dfd;
	}
	if (err) {
		pr_warn(
		    "--napi: cannot record the old NAPI settings in %s: %s (set XSKF_CTL_DIR to a "
		    "folder xskf may write)\n",
		    r->path, fwhy[0] ? fwhy : strerror(-err));
		r->path[0] = 0;
		r->n = 0;
		return err;
	}
	err = apply(eng, r);
	if (xskf_xdp_eng(eng)->napi_req.defer_set || xskf_xdp_eng(eng)->napi_req.gro_set)
		snprintf(r->used, sizeof(r->used), "NAPI deferral set by --napi (%s)",
			 dev && per_napi ? "per NAPI, netlink, and per device, sysfs"
			 : dev		 ? "per device, sysfs"
					 : "per NAPI, netlink");
	else
		snprintf(r->used, sizeof(r->used), "NAPI deferral not set by --napi");
	r->irq_used = xskf_xdp_eng(eng)->napi_req.irq_set;
	if (err)
		xskf_napi__restore(eng);
	return err;
}

void xskf_napi__restore(struct xskf_engine *eng)
{
	struct xskf_napi_run *r = xskf_xdp_eng(eng)->napi;
	char irq[48];

	if (!r)
		return;
	if (r->n) {
		if (!put_back(r->nl_ok ? &r->nl : NULL, r->e, r->n, "--napi"))
			for (unsigned int i = 0; i < r->n; i++)
				pr_info("--napi: put back %s%s%.0u: napi_defer_hard_irqs %u, "
					"gro_flush_timeout %" PRIu64 "%s\n",
					r->e[i].ifname, r->e[i].per_napi ? " NAPI " : "",
					r->e[i].per_napi ? r->e[i].napi_id : 0, r->e[i].defer,
					r->e[i].gro_ns, irq_text(&r->e[i], irq, sizeof(irq)));
		r->n = 0;
	}
	if (r->path[0])
		unlink(r->path);
	r->path[0] = 0;
	xskf_napi_nl__close(&r->nl);
	r->nl_ok = false;
	xskf_xdp_eng(eng)->napi = NULL;
	free(r);
}

bool xskf_napi__used(const struct xskf_engine *eng)
{
	return xskf_xdp_eng(eng)->napi && xskf_xdp_eng(eng)->napi->used[0];
}

void xskf_napi__help(const struct xskf_engine *eng, char *buf, size_t len)
{
	const struct xskf_napi_run *r = xskf_xdp_eng(eng)->napi;
	const char *kernel = !r || !r->nl_ok  ? "has no netdev netlink for"
			     : r->irq_suspend ? "has"
					      : "lists no NAPI with";
	char irq[200];

	if (r && r->irq_used)
		snprintf(irq, sizeof(irq),
			 "IRQ suspension: irq-suspend-timeout %" PRIu64
			 " ns per NAPI (--napi), with epoll busy polling in the idle wait",
			 xskf_xdp_eng(eng)->napi_req.irq_ns);
	else if (eng->busy_poll && xskf_idle__epoll(eng))
		snprintf(irq, sizeof(irq),
			 "IRQ suspension not used: --napi irq-suspend=NS turns it on (the kernel %s "
			 "irq-suspend-timeout)",
			 kernel);
	else
		snprintf(irq, sizeof(irq),
			 "IRQ suspension not used: it needs -B on sockets with a NAPI ID (epoll "
			 "busy polling in the idle wait) and --napi irq-suspend=NS (the kernel %s "
			 "irq-suspend-timeout)",
			 kernel);
	snprintf(buf, len, "%s; %s",
		 r && r->used[0] ? r->used
		 /* the kernel's preferred busy polling keeps interrupts off only with both */
		 : eng->busy_poll
		     ? "NAPI deferral not set, so the device's interrupts stay on beside "
		       "busy polling (--napi defer=2,gro-flush=200000 sets it)"
		     : "NAPI deferral not set (--napi defer=N,gro-flush=NS sets it)",
		 irq);
}

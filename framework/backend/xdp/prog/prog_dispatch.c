// SPDX-License-Identifier: BSD-2-Clause
/*
 * Our XDP program as one component of libxdp's multi-program dispatcher, so that it runs beside
 * xdp-filter, xdp-loader's programs and every other libxdp user of the interface, in either
 * start order, and leaves alone (docs/operations.md, "Beside other XDP programs").
 *
 * The skeleton's programs stay as prog.c loads them (XDP programs: the redirect tier's test
 * run, the maps every run shares); for the dispatcher a second object is opened over the same
 * maps with only the chosen program, and libxdp loads that one as a freplace (BPF_PROG_TYPE_EXT)
 * program into one of the dispatcher's slots. Its run config: priority 50 (libxdp's default;
 * xdp-filter runs at 10, so it filters first), and XDP_PASS goes on to the next program: frames
 * of queues without a socket, and those steering passes, reach the programs after ours.
 *
 * libxdp keeps the dispatcher's state (its links) pinned in bpffs (/sys/fs/bpf/xdp, or
 * $LIBXDP_BPFFS): every libxdp user of the interface must see the same bpffs. Where it has none,
 * or the kernel refuses freplace programs, libxdp attaches our program alone; that is said in
 * one line with libxdp's reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/verifier_log.h"
#include "backend/xdp/xdp_state.h"
#include "core/hints_in.h"
#include "core/engine.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/dispatch.h"

#define DISP_PRIO      50 /* libxdp's default (XDP_DEFAULT_RUN_PRIO); xdp-filter's is 10 */
#define DISP_MAX_PROGS 10 /* the dispatcher's slots (MAX_DISPATCHER_ACTIONS) */
/* why a program that writes hints cannot join libxdp's dispatcher before 1.5.5 */
#define PKT_WHY                                                                                    \
	"Linux 6.13+ refuses a freplace program that changes packet data "                         \
	"(bpf_xdp_adjust_meta()) into libxdp's dispatcher before libxdp 1.5.5"

bool xskf_disp__is_dispatcher(uint32_t id)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	bool r;

	if (fd < 0)
		return false;
	r = !bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "xdp_dispatcher");
	close(fd);
	return r;
}

int xskf_disp__components(struct xskf_port *port, uint32_t *ids, int max)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(port->ifindex);
	struct xdp_program *p = NULL;
	long err = libxdp_get_error(mp);
	int n = 0;

	if (err)
		return err == -ENOENT || !mp ? -ENOENT : (int)err;
	/* a dispatcher whose links are pinned in a bpffs we do not see looks "legacy" */
	if (xdp_multiprog__is_legacy(mp)) {
		xdp_multiprog__close(mp);
		return -ENOENT;
	}
	while ((p = xdp_multiprog__next_prog(p, mp)) && n < max)
		ids[n++] = xdp_program__id(p);
	xdp_multiprog__close(mp);
	return n;
}

/* What libxdp said while it attached: its reason when it had to attach our program alone. */
static libxdp_print_fn_t prev_print;
static char why[200];

static int capture(enum libxdp_print_level level, const char *fmt, va_list args)
{
	char line[200];
	va_list copy;

	if (level != LIBXDP_DEBUG && !why[0]) {
		va_copy(copy, args);
		vsnprintf(line, sizeof(line), fmt, copy);
		va_end(copy);
		line[strcspn(line, "\n")] = '\0';
		/* the cause, not the "falling back" that follows it */
		if (strstr(line, "failed") || strstr(line, "bpffs"))
			snprintf(why, sizeof(why), "%s", line);
	}
	return prev_print ? prev_print(level, fmt, args) : 0;
}

static void say_alone(struct xskf_port *port)
{
	const char *c = strstr(why, "failed: ");

	if (strstr(why, "bpffs"))
		pr_warn("%s: libxdp's dispatcher needs a bpffs shared by its users (none at %s "
			"here: mount -t bpf bpf /sys/fs/bpf); attached alone: no other XDP program "
			"can join the interface while xskf runs\n",
			port->name, secure_getenv("LIBXDP_BPFFS") ?: "/sys/fs/bpf");
	else
		pr_warn("%s: libxdp's dispatcher does not work on this kernel (%s%s%s); attached "
			"alone: no other XDP program can join the interface while xskf runs "
			"(docs/operations.md)\n",
			port->name,
			c ? "it refuses freplace programs, libxdp's check: " : "",
			c ? c + strlen("failed: ") : why[0] ? why : "libxdp fell back",
			c && strstr(c, "not permitted") ? ", with every capability: lockdown or a "
							   "kernel patch" : "");
}

bool xskf_disp__bpffs(const struct xskf_port *port)
{
	const char *dir = secure_getenv("LIBXDP_BPFFS") ?: "/sys/fs/bpf";
	const char *mount = secure_getenv("LIBXDP_BPFFS_AUTOMOUNT");
	struct statfs st;

	(void)port;
	if (mount && !strcmp(mount, "1"))
		return true;
	return !statfs(dir, &st) && (unsigned long)st.f_type == BPF_FS_MAGIC;
}

/*
 * A map that holds programs (a CPUMAP: steering's steer_cpus) belongs to the kind of the first
 * program loaded with it: the kernel then refuses, with EINVAL and no verifier message, every
 * program of another kind that uses it (bpf_prog_map_compatible(): the frags flag since Linux
 * 5.18, which libxdp clears on a component; a freplace program's attach_func_proto on newer
 * kernels, 7.3 included). Our skeleton's XDP programs own steer_cpus: the component gets one
 * of its own, with the same entries (ensure_cpus() in steer.c writes both).
 */
static bool holds_progs(const struct bpf_map *m)
{
	switch (bpf_map__type(m)) {
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
		return true;
	default:
		return false;
	}
}

/* The CPUMAP entries of @from in @to (0 or -errno): a rule written before the attach. */
static int copy_entries(int to, int from, uint32_t max)
{
	struct bpf_cpumap_val v;
	uint32_t k;

	for (k = 0; k < max; k++) {
		memset(&v, 0, sizeof(v));
		if (bpf_map_lookup_elem(from, &k, &v))
			continue; /* no entry: none there either */
		v.bpf_prog.fd = 0;
		if (bpf_map_update_elem(to, &k, &v, 0))
			return -errno;
	}
	return 0;
}

/*
 * The maps of @to are @from's: one set of maps for both objects, and for every run; those
 * that hold programs aside (holds_progs()), which the component gets filled after its load.
 */
static int reuse_maps(struct xskf_redirect *to, struct xskf_redirect *from)
{
	struct bpf_map *m, *src;
	int err;

	bpf_object__for_each_map(m, to->obj) {
		src = bpf_object__find_map_by_name(from->obj, bpf_map__name(m));
		if (!src || bpf_map__fd(src) < 0)
			return -ENOENT;
		if (holds_progs(m))
			continue;
		err = bpf_map__reuse_fd(m, bpf_map__fd(src));
		if (err)
			return err;
	}
	return 0;
}

int xskf_disp__cpus_fd(const struct xskf_port *port)
{
	const struct xskf_redirect *s = xskf_xdp_port(port)->disp.skel;

	return s ? bpf_map__fd(s->maps.steer_cpus) : -1;
}

/* The maps the program does not use, bound to it: a later run finds them in its info. */
static int bind_shared(struct xskf_port *port, int prog_fd)
{
	const struct bpf_map *bound[] = {
	    xskf_xdp_port(port)->skel->maps.xskf_owner, xskf_xdp_port(port)->skel->maps.xskf_queues,
	    xskf_xdp_port(port)->skel->maps.xskf_rules, xskf_xdp_port(port)->skel->maps.xskf_share};
	unsigned int i;

	for (i = 0; i < sizeof(bound) / sizeof(bound[0]); i++)
		if (bpf_prog_bind_map(prog_fd, bpf_map__fd(bound[i]), NULL))
			return -errno;
	return 0;
}

/* The name of the skeleton's program behind @fd (the one set-up chose), or NULL. */
static const char *chosen_name(struct xskf_redirect *skel, int fd)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, skel->obj)
		if (bpf_program__fd(p) == fd)
			return bpf_program__name(p);
	return NULL;
}

void xskf_disp__close(struct xskf_port *port)
{
	xdp_program__close(xskf_xdp_port(port)->disp.prog);
	xskf_xdp_port(port)->disp.prog = NULL;
	if (xskf_xdp_port(port)->disp.skel)
		xskf_redirect__destroy(xskf_xdp_port(port)->disp.skel);
	xskf_xdp_port(port)->disp.skel = NULL;
}

/*
 * The name of the program that joins the dispatcher for @mode: the one set-up chose, or its
 * variant without the hints' code when no meta is written (its comment in bpf/). NULL: none.
 */
static const char *component_name(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode)
{
	int fd = mode == XDP_FLAGS_SKB_MODE ? xskf_xdp_port(port)->skb_fd
					    : xskf_xdp_port(port)->native_fd;
	const char *name = chosen_name(xskf_xdp_port(port)->skel, fd);

	if (name && (eng->o.no_hints || eng->hints_user) && !strcmp(name, "xskf_redirect"))
		name = "xskf_redirect_nm";
	return name;
}

/*
 * Can the dispatcher take a component here? 0, or -EOPNOTSUPP (said once: our program is
 * then attached alone) when freplace programs are forced off or there is no bpffs. libxdp
 * without a bpffs loads our program once more to attach it alone (a second verification, the
 * longest part of a start): we attach the loaded one ourselves.
 */
static int dispatcher_usable(struct xskf_port *port)
{
	/*
	 * ext programs forced off (XSKF_FEATURES_OFF=ext, features.c): as on a kernel that
	 * refuses them. Only the forced answer counts here: libbpf's own probe of ext programs
	 * is not trusted to decide (libxdp's load says the kernel's word, below)
	 */
	if (xskf_features__probe(XSKF_FEAT_EXT) == -ECANCELED) {
		snprintf(why, sizeof(why), "freplace (ext) programs forced off by XSKF_FEATURES_OFF");
		if (!xskf_xdp_port(port)->disp.told++)
			say_alone(port);
		return -EOPNOTSUPP;
	}
	if (!xskf_disp__bpffs(port)) {
		snprintf(why, sizeof(why), "no bpffs");
		if (!xskf_xdp_port(port)
			 ->disp.told++) /* once, not again for the SKB-mode attempt */
			say_alone(port);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Our component, not yet attached: a second object of the skeleton over our maps (its
 * configuration the loaded one's) with only @name to load, as libxdp's program of priority
 * DISP_PRIO that passes XDP_PASS on. The object in *@sp, the verifier log buffer in *@log (the
 * kernel's reason for a refusal). NULL with *@err set, and nothing kept, when it cannot be made.
 */
static struct xdp_program *make_component(struct xskf_engine *eng, struct xskf_port *port,
					  const char *name, struct xskf_redirect **sp, char **log,
					  int *err)
{
	DECLARE_LIBXDP_OPTS(xdp_program_opts, xo);
	struct xskf_redirect *s;
	struct xdp_program *xp;
	struct bpf_program *p;

	s = xskf_verifier_log__open(log);
	if (!s) {
		*err = -errno;
		return NULL;
	}
	*s->rodata = *xskf_xdp_port(port)->skel->rodata;
	/* a run that joins ours reads where the hints are from the attached program's rodata */
	s->rodata->hints_user = eng->hints_user;
	/* a kernel without frags: the section handler of prog.c loads xdp.frags without the flag */
	bpf_object__for_each_program(p, s->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	*err = reuse_maps(s, xskf_xdp_port(port)->skel);
	if (*err)
		goto fail;
	xo.obj = s->obj;
	xo.prog_name = name;
	xp = xdp_program__create(&xo);
	*err = (int)libxdp_get_error(xp);
	if (*err)
		goto fail;
	xdp_program__set_run_prio(xp, DISP_PRIO);
	xdp_program__set_chain_call_enabled(xp, XDP_PASS, true);
	xdp_program__set_xdp_frags_support(xp, !xskf_xdp_eng(eng)->kernel_no_frags);
	*sp = s;
	return xp;
fail:
	xskf_redirect__destroy(s);
	free(*log);
	*log = NULL;
	return NULL;
}

/*
 * The dispatcher refused our component with @err (@pkt: because it changes packet data):
 * the error to return, said. -EBUSY and -EEXIST pass on (a program attached meanwhile:
 * prog.c says so); inside another program's dispatcher, alone is no way out (-ECANCELED);
 * else -EOPNOTSUPP: our program is attached alone, said once.
 */
static int component_refused(struct xskf_port *port, int err, bool pkt)
{
	if (err == -EBUSY || err == -EEXIST)
		return err;
	if (xskf_xdp_port(port)->disp.main_id) {
		/* another program's dispatcher holds the interface: alone is no way out */
		if (pkt)
			pr_warn("%s: libxdp's dispatcher (id %u) cannot take xskf's program "
				"while it writes RX hints: " PKT_WHY ", and another program "
				"holds the interface: run with --no-hints, --hints-in "
				"userspace, or with libxdp 1.5.5 or later\n",
				port->name, xskf_xdp_port(port)->disp.main_id);
		else
			pr_warn("%s: libxdp's dispatcher (id %u) refused xskf's program (%s)\n",
				port->name, xskf_xdp_port(port)->disp.main_id, strerror(-err));
		return -ECANCELED; /* said: no other attempt */
	}
	/* the dispatcher refused ours: alone then, once said */
	if (!xskf_xdp_port(port)->disp.told++) {
		if (pkt)
			pr_warn("%s: libxdp's dispatcher cannot take xskf's program while it "
				"writes RX hints: " PKT_WHY "; attached alone: no other XDP "
				"program can join the interface while xskf runs (--no-hints "
				"or --hints-in userspace run through this libxdp's "
				"dispatcher)\n",
				port->name);
		else
			pr_warn("%s: libxdp's dispatcher refused xskf's program (%s%s%s); "
				"attached alone: no other XDP program can join the interface "
				"while xskf runs\n",
				port->name, strerror(-err), why[0] ? ", libxdp: " : "", why);
	}
	return -EOPNOTSUPP;
}

/*
 * Our component attached (@xp of object @s, in @mode): the port's state says so, and the
 * component's own CPUMAP gets steering's entries written before the attach. A dispatcher that
 * is "legacy" (links pinned in a bpffs we do not see) means libxdp attached ours alone.
 */
static void component_attached(struct xskf_port *port, struct xdp_program *xp,
			       struct xskf_redirect *s, uint32_t mode)
{
	struct xdp_multiprog *mp;
	bool alone;
	int err;

	mp = xdp_multiprog__get_from_ifindex(port->ifindex);
	alone = libxdp_get_error(mp) || xdp_multiprog__is_legacy(mp);
	xskf_xdp_port(port)->disp.main_id =
	    alone ? 0 : xdp_program__id(xdp_multiprog__main_prog(mp));
	if (!libxdp_get_error(mp))
		xdp_multiprog__close(mp);
	xskf_xdp_port(port)->disp.prog = xp;
	xskf_xdp_port(port)->disp.skel = s;
	err = copy_entries(bpf_map__fd(s->maps.steer_cpus),
			   bpf_map__fd(xskf_xdp_port(port)->skel->maps.steer_cpus),
			   bpf_map__max_entries(s->maps.steer_cpus));
	if (err)
		pr_warn("%s: cannot copy steering's CPUMAP entries to xskf's component: %s\n",
			port->name, strerror(-err));
	xskf_xdp_port(port)->disp.id = xdp_program__id(xp);
	xskf_xdp_port(port)->disp.on = !alone;
	xskf_xdp_port(port)->prog_fd = xdp_program__fd(xp);
	xskf_xdp_port(port)->attach_flags = mode;
	if (alone)
		say_alone(port);
}

/*
 * Our program @name as a component into the dispatcher on @port in @mode: 0 with the object
 * in *@sp and libxdp's handle in *@xpp, or -errno with nothing kept; *@pkt: the kernel
 * refused it because it changes packet data (the verifier's log says so).
 */
static int component_try(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode,
			 const char *name, struct xskf_redirect **sp, struct xdp_program **xpp,
			 bool *pkt)
{
	struct xskf_redirect *s = NULL;
	struct xdp_program *xp;
	char *log = NULL;
	int err;

	*pkt = false;
	xp = make_component(eng, port, name, &s, &log, &err);
	if (!xp)
		return err;
	why[0] = '\0';
	prev_print = libxdp_set_print(capture);
	err = xdp_program__attach(xp, port->ifindex,
				  mode == XDP_FLAGS_SKB_MODE ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
	libxdp_set_print(prev_print);
	if (!err)
		err = bind_shared(port, xdp_program__fd(xp));
	/*
	 * Linux 6.13+ takes a freplace program that changes packet data (the hints grow the meta:
	 * bpf_xdp_adjust_meta()) only into a function that does too: libxdp's dispatcher stubs do
	 * from libxdp 1.5.5 (xdp-tools 092365f). The verifier log tells it from other refusals:
	 * bpf_check_attach_target()'s "Extension program changes packet data, while original
	 * does not", with EINVAL.
	 */
	*pkt = err == -EINVAL && log && strstr(log, "changes packet data");
	free(log);
	if (err) {
		if (xdp_program__id(xp) && !xdp_program__detach(xp, port->ifindex, XDP_MODE_UNSPEC, 0))
			pr_debug("%s: our component taken out again after: %s\n", port->name,
				 strerror(-err));
		xdp_program__close(xp);
		xskf_redirect__destroy(s);
		return err;
	}
	*sp = s;
	*xpp = xp;
	return 0;
}

/*
 * The dispatcher refused our program because it writes the hints: with --hints-in auto and
 * before any port runs, the program without them (xskf_redirect_nm) instead, the hints
 * computed in userspace (core/hints_in.h), said in one line. 0 when that one went in.
 */
static int disp_user(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode,
		     struct xskf_redirect **sp, struct xdp_program **xpp)
{
	unsigned int i;
	bool pkt;
	int err;

	if (eng->o.no_hints || eng->hints_user || eng->o.hints_in != XSKF_HINTS_IN_AUTO)
		return -EPERM;
	/* the workers take one way for every port: none may be running another yet */
	for (i = 0; i < eng->nr_ports; i++)
		if (xskf_xdp_port(&eng->ports[i])->attached)
			return -EPERM;
	eng->hints_user = true;
	err = component_try(eng, port, mode, "xskf_redirect_nm", sp, xpp, &pkt);
	if (err) {
		eng->hints_user = false;
		return err;
	}
	eng->hints_head = false;
	xskf_xdp_port(port)->hints_hw = 0;
	xskf_hints_in__say(XSKF_HINTS_IN_USERSPACE,
			   "libxdp's dispatcher refused xskf's program that writes them: " PKT_WHY);
	return 0;
}

int xskf_disp__attach(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode)
{
	const char *name = component_name(eng, port, mode);
	struct xskf_redirect *s = NULL;
	struct xdp_program *xp = NULL;
	bool pkt;
	int err;

	if (!name)
		return -ENOENT;
	err = dispatcher_usable(port);
	if (err)
		return err;
	err = component_try(eng, port, mode, name, &s, &xp, &pkt);
	if (err && pkt && !disp_user(eng, port, mode, &s, &xp))
		err = 0;
	if (err)
		return component_refused(port, err, pkt);
	component_attached(port, xp, s, mode);
	return 0;
}

int xskf_disp__detach_id(struct xskf_port *port, uint32_t id)
{
	struct xdp_program *p = xskf_xdp_port(port)->disp.prog && xskf_xdp_port(port)->disp.id == id
				    ? xskf_xdp_port(port)->disp.prog
				    : xdp_program__from_id(id);
	int err = (int)libxdp_get_error(p);

	if (err)
		return err;
	prev_print = libxdp_set_print(capture);
	err = xdp_program__detach(p, port->ifindex, XDP_MODE_UNSPEC, 0);
	libxdp_set_print(prev_print);
	if (p != xskf_xdp_port(port)->disp.prog)
		xdp_program__close(p);
	return err;
}

bool xskf_disp__watch(struct xskf_port *port, uint32_t attached)
{
	uint32_t ids[DISP_MAX_PROGS];
	int n, i;

	if (attached && attached == xskf_xdp_port(port)->disp.main_id)
		return true;
	if (!attached || !xskf_disp__is_dispatcher(attached))
		return false;
	/* another program joined or left: libxdp made a new dispatcher, with ours in it? */
	n = xskf_disp__components(port, ids, DISP_MAX_PROGS);
	for (i = 0; i < n; i++)
		if (ids[i] == xskf_xdp_port(port)->disp.id) {
			xskf_xdp_port(port)->disp.main_id = attached;
			return true;
		}
	return false;
}

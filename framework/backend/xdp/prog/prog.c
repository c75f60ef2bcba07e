// SPDX-License-Identifier: BSD-2-Clause
/*
 * The XDP program of one port: find what is already attached, choose the redirect tier by
 * probing the running kernel, load, attach (native, else SKB), and detach on every exit path.
 *
 * One program per interface, attached by us: libxdp's multi-program dispatcher does not work
 * on every kernel/bpffs set-up (see docs/architecture.md), and AF_XDP needs no other program.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/xdp_state.h"
#include "core/hints.h"
#include "core/hints_in.h"
#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/prog/percpu.h"
#include "backend/xdp/prog/features_probe.h"
#include "core/engine.h"
#include "core/proc.h"
#include "backend/xdp/prog/verifier_log.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/prog/prog.h"
#include "backend/xdp/prog/share.h"
#include "backend/xdp/serve/serve_maps.h"
#include "backend/xdp/steer/steer.h"
#include "backend/xdp/prog/dispatch.h"

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6) /* Linux 6.3 */
#endif

/* ---- who owns a program ---- */

enum owner_kind { OWNER_FOREIGN, OWNER_OURS_DEAD, OWNER_OURS_ALIVE };

/*
 * Classify program @id: ours (has an "xskf_owner" map) and whether a run still uses it: one
 * that owns a queue of it (prog_share.c; @shares then), else, for a program without queue
 * owners, the process that loaded it.
 */
static enum owner_kind classify(uint32_t id, char *name, size_t name_len, pid_t *pid,
				bool *shares)
{
	struct bpf_prog_info info = {};
	struct xskf_prog_owner owner;
	enum owner_kind kind = OWNER_FOREIGN;
	uint32_t len = sizeof(info), key = 0;
	struct bpf_map_info mi;
	int fd;

	*pid = 0;
	*shares = false;
	snprintf(name, name_len, "id %u", id);
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return OWNER_FOREIGN;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		snprintf(name, name_len, "'%s' (id %u)", info.name, id);
	close(fd);
	fd = xskf_share__prog_map(id, "xskf_owner", &mi);
	if (fd < 0)
		return OWNER_FOREIGN;
	if (mi.value_size == sizeof(owner) && !bpf_map_lookup_elem(fd, &key, &owner)) {
		*pid = (pid_t)owner.pid;
		kind = OWNER_OURS_DEAD;
		/* a zombie (killed, not yet reaped) holds nothing: it is dead (proc.c) */
		if (xskf_proc__same((pid_t)owner.pid, owner.start_time))
			kind = OWNER_OURS_ALIVE;
	}
	close(fd);
	if (kind != OWNER_FOREIGN) {
		pid_t live = 0;
		int r = xskf_share__live(id, &live);

		if (r >= 0) {
			*shares = true;
			kind = r ? OWNER_OURS_ALIVE : OWNER_OURS_DEAD;
			if (r)
				*pid = live;
		}
	}
	/*
	 * The maps say dead; the kernel has the last word: a process that holds the program's
	 * owner map is a run of it, whatever its record says (someone may have written it)
	 */
	if (kind == OWNER_OURS_DEAD && (fd = xskf_share__prog_map(id, "xskf_queues", &mi)) >= 0) {
		pid_t holder = xskf_share__map_holder(mi.id);

		close(fd);
		if (holder) {
			kind = OWNER_OURS_ALIVE;
			*pid = holder;
		}
	}
	return kind;
}

/* "native"/"SKB" for messages; with @ip, iproute2's word for the mode (xdpdrv, xdpgeneric) */
static const char *mode_word(uint32_t mode, bool ip)
{
	if (mode == XDP_FLAGS_SKB_MODE)
		return ip ? "xdpgeneric" : "generic (SKB)";
	return ip ? "xdpdrv" : "native";
}

/*
 * Keep a foreign program that --force replaces, to put it back at exit: an fd holds it alive
 * after it is detached. Without one (it was unloaded meanwhile) it is simply gone.
 */
static void save_foreign(struct xskf_port *port, uint32_t id, uint32_t mode, const char *name)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0 || xskf_xdp_port(port)->foreign_saved) {
		if (fd >= 0)
			close(fd);
		return;
	}
	xskf_xdp_port(port)->foreign_saved = true;
	xskf_xdp_port(port)->foreign_fd = fd;
	xskf_xdp_port(port)->foreign_mode = mode;
	snprintf(xskf_xdp_port(port)->foreign_name, sizeof(xskf_xdp_port(port)->foreign_name), "%s",
		 name);
}

/* Put back what --force replaced, once ours is gone; never over a program attached since. */
static void restore_foreign(struct xskf_port *port)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, o);
	int err;

	if (!xskf_xdp_port(port)->foreign_saved)
		return;
	err = bpf_xdp_attach(port->ifindex, xskf_xdp_port(port)->foreign_fd,
			     xskf_xdp_port(port)->foreign_mode | XDP_FLAGS_UPDATE_IF_NOEXIST, &o);
	if (err)
		pr_warn("%s: cannot put back the foreign XDP program %s: %s\n", port->name,
			xskf_xdp_port(port)->foreign_name, strerror(-err));
	else
		pr_info("%s: foreign XDP program %s put back (%s mode)\n", port->name,
			xskf_xdp_port(port)->foreign_name,
			mode_word(xskf_xdp_port(port)->foreign_mode, false));
	close(xskf_xdp_port(port)->foreign_fd);
	xskf_xdp_port(port)->foreign_saved = false;
}

/*
 * libxdp's dispatcher @main_id (mode @mode) is on the interface: join the xskf component of a
 * live run in it, take out one a killed run left (@detach), and run beside the others; with
 * @alone (--attach alone) another program in it refuses the start, as a foreign one does.
 */
static int dispatcher_existing(struct xskf_port *port, uint32_t main_id, uint32_t mode,
			       bool alone, bool detach)
{
	uint32_t ids[10];
	int n = xskf_disp__components(port, ids, 10), i, err;

	if (n < 0) {
		pr_warn("%s: libxdp's dispatcher (id %u) is attached, but its state is pinned in a "
			"bpffs this process does not see at /sys/fs/bpf: mount that bpffs there "
			"(each 'ip netns exec' has a mount namespace of its own), or detach it with "
			"'xdp-loader unload %s --all'\n",
			port->name, main_id, port->name);
		return n;
	}
	xskf_xdp_port(port)->disp.main_id = main_id;
	xskf_xdp_port(port)->disp.main_mode = mode;
	for (i = 0; i < n; i++) {
		char name[64];
		bool shares;
		pid_t pid;

		switch (classify(ids[i], name, sizeof(name), &pid, &shares)) {
		case OWNER_OURS_ALIVE:
			if (!shares) {
				pr_warn("%s: xskf (pid %d) is already running on this interface; stop "
					"it first\n",
					port->name, (int)pid);
				return -EBUSY;
			}
			/* a live run's component: join it on other queues (prog_share.c) */
			xskf_xdp_port(port)->share.join_id = ids[i];
			xskf_xdp_port(port)->share.join_mode = mode;
			xskf_xdp_port(port)->disp.on = true;
			xskf_xdp_port(port)->disp.id = ids[i];
			break;
		case OWNER_OURS_DEAD:
			if (!detach)
				break;
			pr_info("%s: taking XDP program %s left by a killed xskf run (pid %d) out of "
				"libxdp's dispatcher\n",
				port->name, name, (int)pid);
			err = xskf_disp__detach_id(port, ids[i]);
			if (err) {
				pr_warn("%s: cannot take %s out of libxdp's dispatcher: %s\n",
					port->name, name, strerror(-err));
				return err;
			}
			break;
		case OWNER_FOREIGN:
			if (!alone)
				break; /* the point of the dispatcher: we run beside it */
			pr_warn("%s: libxdp's dispatcher (id %u) runs other XDP programs (%s first): "
				"xskf runs beside them with --attach dispatcher (the default), not alone; "
				"or remove them with 'xdp-loader unload %s --all'\n",
				port->name, main_id, name, port->name);
			return -EEXIST;
		}
	}
	return 0;
}

/*
 * Deal with programs already on the interface: left by a killed run of ours (replace), used by
 * a live xskf process (refuse), or foreign (refuse unless forced); libxdp's dispatcher: run
 * beside its programs (dispatcher_existing()). With @detach false it only checks, so that
 * start-up can fail before it touches anything.
 */
static int clear_existing(struct xskf_port *port, bool force, bool alone, bool detach)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct {
		uint32_t id, mode;
	} progs[2];
	int n = 0, i, err;

	err = bpf_xdp_query(port->ifindex, 0, &q);
	if (err) {
		pr_warn("%s: cannot query its XDP program: %s%s\n", port->name, strerror(-err),
			err == -EPERM ? " (run as root)" : "");
		return err;
	}
	if (q.drv_prog_id)
		progs[n++] = (typeof(progs[0])){ q.drv_prog_id, XDP_FLAGS_DRV_MODE };
	if (q.skb_prog_id)
		progs[n++] = (typeof(progs[0])){ q.skb_prog_id, XDP_FLAGS_SKB_MODE };
	if (q.hw_prog_id) {
		pr_warn("%s: an offloaded XDP program (id %u) is attached; remove it with 'ip link set "
			"dev %s xdpoffload off'\n",
			port->name, q.hw_prog_id, port->name);
		return -EEXIST;
	}
	for (i = 0; i < n; i++) {
		char name[64];
		bool shares;
		pid_t pid;

		if (xskf_disp__is_dispatcher(progs[i].id)) {
			err = dispatcher_existing(port, progs[i].id, progs[i].mode, alone, detach);
			if (err)
				return err;
			continue;
		}
		switch (classify(progs[i].id, name, sizeof(name), &pid, &shares)) {
		case OWNER_OURS_ALIVE:
			if (shares) {
				/* a live run's: join it on other queues (prog_share.c) */
				xskf_xdp_port(port)->share.join_id = progs[i].id;
				xskf_xdp_port(port)->share.join_mode = progs[i].mode;
				continue;
			}
			pr_warn("%s: xskf (pid %d) is already running on this interface; stop it first\n",
				port->name, (int)pid);
			return -EBUSY;
		case OWNER_OURS_DEAD:
			if (detach)
				pr_info("%s: replacing XDP program %s left by a killed xskf run (pid %d)\n",
					port->name, name, (int)pid);
			break;
		case OWNER_FOREIGN:
			if (!force && !alone) {
				/* not libxdp's dispatcher: nothing can run beside it */
				pr_warn("%s: another XDP program %s holds the interface alone (%s mode), "
					"not through libxdp's dispatcher: xskf cannot run beside it. Load "
					"it through the dispatcher (libxdp's tools do where a bpffs is "
					"mounted and the kernel takes freplace programs), remove it with 'ip link set dev %s %s off', or pass --force to "
					"replace it until xskf exits\n",
					port->name, name, mode_word(progs[i].mode, false), port->name,
					mode_word(progs[i].mode, true));
				return -EEXIST;
			}
			if (!force) {
				/* 'xdp off' removes only a native program: name the mode's own word */
				pr_warn("%s: another XDP program %s is attached in %s mode; remove it "
					"with 'ip link set dev %s %s off' or pass --force to replace it "
					"until xskf exits\n",
					port->name, name, mode_word(progs[i].mode, false), port->name,
					mode_word(progs[i].mode, true));
				return -EEXIST;
			}
			if (!detach)
				break;
			save_foreign(port, progs[i].id, progs[i].mode, name);
			pr_info("%s: replacing foreign XDP program %s (%s mode, --force)%s\n",
				port->name, name, mode_word(progs[i].mode, false),
				xskf_xdp_port(port)->foreign_saved
				    ? "; it is put back when xskf exits (not after a "
				      "crash or SIGKILL)"
				    : "; it cannot be put back (its fd is gone)");
			break;
		}
		if (!detach)
			continue;
		err = bpf_xdp_detach(port->ifindex, progs[i].mode, NULL);
		if (err) {
			pr_warn("%s: cannot detach XDP program %s: %s\n", port->name, name,
				strerror(-err));
			return err;
		}
	}
	return 0;
}

int xskf_prog__preflight(struct xskf_engine *eng, struct xskf_port *port)
{
	int err;

	xskf_xdp_port(port)->share.join_id = 0;
	xskf_xdp_port(port)->disp.on = false;
	xskf_xdp_port(port)->disp.main_id = 0;
	err = clear_existing(port, eng->o.force, eng->o.xdp_alone, false);
	/* a live run's program there: our queues must be free (checked again when taken) */
	if (!err && xskf_xdp_port(port)->share.join_id)
		err = xskf_share__queues(eng, port, false);
	return err;
}

/* ---- redirect tier ---- */

/*
 * bpf_redirect_xsk() was proposed upstream (2021) and never merged. A kernel that carries it
 * names it in its BTF, as a helper id (enum bpf_func_id) or as a kfunc.
 */
static bool kernel_has_redirect_xsk(const struct btf *btf)
{
	bool found = false;
	int id;

	if (btf__find_by_name_kind(btf, "bpf_redirect_xsk", BTF_KIND_FUNC) > 0)
		found = true;
	id = btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM);
	if (id > 0) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e = btf_enum(t);
		int i;

		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), "BPF_FUNC_redirect_xsk"))
				found = true;
	}
	return found;
}

/* Does the kernel's struct @type have member @member (what a feature added to the kernel)? */
static bool kernel_has_member(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT), i;
	const struct btf_type *t;
	const struct btf_member *m;

	if (id <= 0)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), member))
			return true;
	return false;
}

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/*
 * Where the hints reach the app (core/hints_in.h): the metadata area where the kernel takes
 * bpf_xdp_adjust_meta(), else the headroom (bpf_xdp_adjust_head(): eng->hints_head, the RX
 * path moves past it), else computed in userspace (eng->hints_user: the program changes no
 * packet data), or what --hints-in asks. Said in one line; -EOPNOTSUPP (said) for a way asked
 * for that the kernel refuses.
 */
static int hints_where(struct xskf_engine *eng)
{
	struct xskf_hints_in_facts f = {
		.adjust_meta = xskf_features__probe(XSKF_FEAT_ADJUST_META),
		.dispatcher = !eng->o.xdp_alone,
	};
	char why[160];
	int in;

	if (eng->o.no_hints)
		return 0;
	/* the other probes only where they can change the answer: each is a program load */
	if (f.adjust_meta || eng->o.hints_in == XSKF_HINTS_IN_HEADROOM)
		f.adjust_head = xskf_features__probe(XSKF_FEAT_ADJUST_HEAD);
	f.disp_pkt_data = xskf_features__probe(XSKF_FEAT_DISP_PKT_DATA);
	in = xskf_hints_in__choose(eng->o.hints_in, &f, why, sizeof(why));
	if (in < 0) {
		pr_warn("RX hints: %s: use --hints-in auto or userspace\n", why);
		return in;
	}
	eng->hints_head = in == XSKF_HINTS_IN_HEADROOM;
	eng->hints_user = in == XSKF_HINTS_IN_USERSPACE;
	xskf_hints_in__say(in, why);
	return 0;
}

/*
 * libbpf adds BPF_F_XDP_HAS_FRAGS to each program of a SEC("xdp.frags") as it loads it
 * (libbpf_prepare_prog_load(), libbpf 0.8 on), whatever bpf_program__set_flags() said. A kernel
 * older than 5.18 refuses that flag with EINVAL before its verifier runs: no log (seen on
 * Debian 11's 5.10). A handler of our own for the section, found before libbpf's own at every
 * open that follows in this process, loads them as plain XDP programs: the same program and
 * attach type, no flag added. Registered once, where the kernel refuses frags-aware programs.
 */
static void no_frags_section(void)
{
	static int done;
	int id;

	if (done++)
		return;
	id = libbpf_register_prog_handler("xdp.frags", BPF_PROG_TYPE_XDP, BPF_XDP, NULL);
	if (id < 0)
		pr_warn("cannot make libbpf load xdp.frags programs without frags (%s): the kernel "
			"will refuse them\n",
			strerror(-id));
}

/*
 * What the kernel's BTF tells, read once per run (it is 5-6 MiB to parse): the hint kfuncs,
 * and whether bpf_redirect_xsk() exists. libbpf still parses it once more for each object it
 * loads with kfunc externs (libbpf 1.1 takes no parsed BTF from its caller). A failure here
 * would fail libbpf's load too, with a worse message ("No such process"), so it is said here
 * with its cause.
 */
int xskf_prog__probe_kernel(struct xskf_engine *eng)
{
	struct rlimit as;
	struct btf *btf;
	int err;

	if (xskf_xdp_eng(eng)->kernel_probed)
		return xskf_xdp_eng(eng)->kernel_probe_err;
	xskf_xdp_eng(eng)->kernel_probed = true;
	/* the file itself first, as libbpf does: its error is the real one (libbpf says ESRCH) */
	btf = access(VMLINUX_BTF, R_OK) ? btf__load_vmlinux_btf() : btf__parse(VMLINUX_BTF, NULL);
	err = libbpf_get_error(btf);
	if (err) {
		btf = NULL;
		if (err == -ENOMEM && !getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
			pr_warn("cannot load the kernel's BTF (" VMLINUX_BTF "): out of memory under "
				"the address-space limit (RLIMIT_AS, ulimit -v) of %llu KiB: raise it "
				"('ulimit -v unlimited')\n",
				(unsigned long long)as.rlim_cur >> 10);
		else if (err == -ENOENT || err == -ESRCH)
			pr_warn("the kernel has no BTF (" VMLINUX_BTF " is missing): the XDP program "
				"needs a kernel built with CONFIG_DEBUG_INFO_BTF\n");
		else
			pr_warn("cannot load the kernel's BTF (" VMLINUX_BTF "): %s\n",
				strerror((int)-err));
		xskf_xdp_eng(eng)->kernel_probe_err = (int)err;
		return (int)err;
	}
	xskf_hints__probe_kfuncs_btf(btf, &xskf_xdp_eng(eng)->kernel_kfuncs);
	xskf_features__kfunc_btf(btf); /* the rx_kfuncs probe parses no BTF of its own */
	xskf_xdp_eng(eng)->kernel_redirect_xsk = kernel_has_redirect_xsk(btf);
	/*
	 * Multi-buffer AF_XDP (XDP_USE_SG, Linux 6.6) added `bool sg` to struct xdp_sock: a
	 * kernel without refuses the bind flag with EINVAL. BPF_F_XDP_HAS_FRAGS (Linux 5.18)
	 * added xdp_has_frags to struct bpf_prog_aux: a kernel without refuses the flag with
	 * EINVAL, as it refuses anything else (a verifier refusal, an unknown map flag), so the
	 * kernel's own structure says it, not the error.
	 */
	xskf_xdp_eng(eng)->kernel_sg = kernel_has_member(btf, "xdp_sock", "sg");
	btf__free(btf);
	/* frags-aware programs: a kernel without refuses the flag (features.c loads one) */
	xskf_xdp_eng(eng)->kernel_no_frags = xskf_features__probe(XSKF_FEAT_FRAGS) != 0;
	if (xskf_xdp_eng(eng)->kernel_no_frags)
		no_frags_section();
	/* multi-buffer AF_XDP: the bind refuses the flag (EINVAL) or it is forced off */
	err = xskf_features__probe(XSKF_FEAT_XSK_SG);
	if (err == -EINVAL || err == -ECANCELED)
		xskf_xdp_eng(eng)->kernel_sg = false;
	xskf_xdp_eng(eng)->kernel_probe_err = hints_where(eng);
	return xskf_xdp_eng(eng)->kernel_probe_err;
}

/*
 * Does bpf_redirect_map() take the fallback action from its flags (Linux >= 5.3)? Run the
 * program once on an empty XSKMAP: the answer must be XDP_PASS.
 */
static bool redirect_map_takes_fallback(int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt), .repeat = 1);

	return bpf_prog_test_run_opts(prog_fd, &t) == 0 && t.retval == XDP_PASS;
}

/* a program we join counts for the others: our queues were zeroed when taken */
static int reset_counters(struct xskf_port *port)
{
	return xskf_percpu__zero(bpf_map__fd(xskf_xdp_port(port)->skel->maps.counters), 0,
				 XSKF_PROG_MAX_QUEUES, sizeof(struct xskf_prog_counters));
}

static const char *tier_name(enum xskf_redirect_tier t)
{
	switch (t) {
	case XSKF_TIER_REDIRECT_XSK:
		return "bpf_redirect_xsk()";
	case XSKF_TIER_MAP_FALLBACK:
		return "XSKMAP bpf_redirect_map(&xsks, rx_queue_index, XDP_PASS)";
	default:
		return "XSKMAP lookup, then bpf_redirect_map(&xsks, rx_queue_index, 0)";
	}
}

/* ---- emergency detach: a fatal signal must not leave our program attached ---- */

static struct {
	int ifindex;
	uint32_t flags;
	int prog_fd;
	int owners_fd; /* xskf_queues: another live run there keeps the program */
} attached_list[XSKF_MAX_PORTS * 4];
static volatile sig_atomic_t nr_attached;

static void remember_attached(struct xskf_port *port)
{
	int i;

	/* a component of libxdp's dispatcher: libxdp cannot run in a signal handler. It stays,
	 * passing every frame once our sockets are gone; the next run takes it out */
	if (xskf_xdp_port(port)->disp.on)
		return;
	for (i = 0; i < nr_attached; i++)
		if (attached_list[i].ifindex == 0)
			break;
	if (i >= (int)(sizeof(attached_list) / sizeof(attached_list[0])))
		return;
	attached_list[i].ifindex = port->ifindex;
	attached_list[i].flags = xskf_xdp_port(port)->attach_flags;
	attached_list[i].prog_fd = xskf_xdp_port(port)->prog_fd;
	attached_list[i].owners_fd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_queues);
	if (i == nr_attached)
		nr_attached = i + 1;
}

static void forget_attached(struct xskf_port *port)
{
	int i;

	for (i = 0; i < nr_attached; i++)
		if (attached_list[i].ifindex == port->ifindex)
			attached_list[i].ifindex = 0;
}

void xskf_prog__emergency_detach(void)
{
	int i;

	for (i = 0; i < nr_attached; i++) {
		LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = attached_list[i].prog_fd);

		if (attached_list[i].ifindex &&
		    !xskf_share__others_sigsafe(attached_list[i].owners_fd))
			bpf_xdp_detach(attached_list[i].ifindex,
				       attached_list[i].flags | XDP_FLAGS_REPLACE, &o);
	}
}

/* ---- set-up ---- */

/*
 * Record who we are in the owner map and bind that map to every loaded program: the programs
 * do not use it, and only maps bound to a program show in its info (BPF_PROG_BIND_MAP).
 */
static int write_owner(struct xskf_port *port)
{
	struct xskf_prog_owner owner = {
		.pid = (uint32_t)getpid(),
		.start_time = xskf_proc__start_time(getpid()),
	};
	const struct bpf_map *bound[] = {
	    xskf_xdp_port(port)->skel->maps.xskf_owner, xskf_xdp_port(port)->skel->maps.xskf_queues,
	    xskf_xdp_port(port)->skel->maps.xskf_rules, xskf_xdp_port(port)->skel->maps.xskf_share};
	int fd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xskf_owner);
	struct bpf_program *prog;
	uint32_t key = 0, i;

	if (bpf_map_update_elem(fd, &key, &owner, 0))
		return -errno;
	/* the maps the runs share, too: a later run finds them in the program's info */
	bpf_object__for_each_program(prog, xskf_xdp_port(port)->skel->obj)
	{
		for (i = 0; i < sizeof(bound) / sizeof(bound[0]); i++)
			if (bpf_program__fd(prog) >= 0 &&
			    bpf_prog_bind_map(bpf_program__fd(prog), bpf_map__fd(bound[i]), NULL))
				return -errno;
	}
	return 0;
}

static int attach(struct xskf_engine *eng, struct xskf_port *port, int prog_fd, uint32_t mode)
{
	int err;

	if (!eng->o.xdp_alone) {
		err = xskf_disp__attach(eng, port, mode);
		if (err != -EOPNOTSUPP)
			return err;
		/* no bpffs: alone, with the program loaded (said by prog_dispatch.c) */
	}
	/*
	 * Hints computed in userspace since another port's dispatcher refused a program that
	 * changes packet data (prog_dispatch.c, disp_user()): this port's program, loaded before,
	 * must not write the meta either (a meta in the headroom would shift every frame)
	 */
	if (eng->hints_user && xskf_xdp_port(port)->tier == XSKF_TIER_MAP_FALLBACK)
		prog_fd = bpf_program__fd(xskf_xdp_port(port)->skel->progs.xskf_redirect_nm);
	err = bpf_xdp_attach(port->ifindex, prog_fd, XDP_FLAGS_UPDATE_IF_NOEXIST | mode, NULL);
	if (!err) {
		xskf_xdp_port(port)->attach_flags = mode;
		xskf_xdp_port(port)->prog_fd = prog_fd;
	}
	return err;
}

/* @native_fd: the program for native mode (device-bound with hardware hints, or not). */
static int attach_mode(struct xskf_engine *eng, struct xskf_port *port, int native_fd, int skb_fd)
{
	enum xskf_attach_mode m = eng->o.attach_mode;
	const char *why;
	int err;

	/* a dispatcher there already: in its mode (libxdp replaces it by one in the same) */
	if (xskf_xdp_port(port)->disp.main_id && m == XSKF_ATTACH_AUTO)
		m = xskf_xdp_port(port)->disp.main_mode == XDP_FLAGS_SKB_MODE ? XSKF_ATTACH_SKB
							       : XSKF_ATTACH_NATIVE;
	if (m != XSKF_ATTACH_SKB) {
		xskf_log__take_kernel_msg();
		err = attach(eng, port, native_fd, XDP_FLAGS_DRV_MODE);
		if (err == -ECANCELED) /* libxdp's dispatcher refused it: said */
			return err;
		/* the driver's own reason, where it gave one (extack: igb "The RX buffer ...") */
		why = err ? xskf_log__take_kernel_msg() : "";
		if (!err || m == XSKF_ATTACH_NATIVE) {
			if (err && *why)
				pr_warn("%s: the driver refused native XDP: %s (%s): fix that, or "
					"use -S (SKB mode)\n",
					port->name, why, strerror(-err));
			else if (err)
				pr_warn("%s: native XDP attach failed: %s; the driver may not support "
					"it, try -S (SKB mode)\n",
					port->name, strerror(-err));
			return err;
		}
		if (err == -EBUSY || err == -EEXIST)
			return err;
		pr_info("%s: native XDP not available (%s%s%s): falling back to SKB mode\n",
			port->name, *why ? why : "", *why ? ": " : "", strerror(-err));
		xskf_xdp_port(port)->hints_hw = 0; /* the SKB-mode program has no kfuncs */
	}
	/*
	 * A 'cpumap' rule given before an attach in auto mode that ends in SKB mode (steer.c
	 * refuses them where SKB mode is known: -S, or after the attach)
	 */
	why = xskf_features__why(XSKF_FEAT_SKB_CPUMAP, "needs Linux 5.15");
	if (why && xskf_steer__uses_cpumap(port)) {
		pr_warn("%s: SKB mode: a 'cpumap' steering rule, but a CPUMAP in SKB mode %s "
			"(skb_cpumap): use native mode, or rules without 'cpumap'\n",
			port->name, why);
		return -EOPNOTSUPP;
	}
	err = attach(eng, port, skb_fd, XDP_FLAGS_SKB_MODE);
	if (err && err != -ECANCELED)
		pr_warn("%s: SKB-mode XDP attach failed: %s\n", port->name, strerror(-err));
	return err;
}

/*
 * Which driver hints can the native-mode program read? The kfunc must be in the kernel and
 * the device must implement it; a device-bound program cannot run in SKB mode at all.
 */
static unsigned int hw_hints_mask(struct xskf_engine *eng, struct xskf_port *port)
{
	unsigned int k = 0, d = 0;

	/* hints computed in userspace: no program of ours calls a kfunc (hints_in.h) */
	if (eng->o.no_hints || eng->hints_user || eng->o.attach_mode == XSKF_ATTACH_SKB)
		return 0;
	/* only the kfuncs of hints some app reads: the rest are not called (docs/hints.md) */
	k = xskf_xdp_eng(eng)->kernel_kfuncs & xskf_hints__kfuncs_for(eng->hints);
	if (!k)
		return 0;
	/*
	 * The table's row, forced off: the software program. (The kernel without them: k is 0
	 * above.) Another refusal of its probe (a device-bound load on a veth of its own, in a
	 * namespace of its own: EPERM without CAP_SYS_ADMIN) is met here by the load on the port
	 * itself, which falls back to the software program in one line (xskf_prog__setup());
	 * features_cmd.c's kfuncs_called() says the same.
	 */
	if (xskf_features__probe(XSKF_FEAT_RX_KFUNCS) == -ECANCELED) {
		xskf_xdp_port(port)->hints_why = "RX metadata kfuncs forced off by XSKF_FEATURES_OFF";
		return 0;
	}
	if (xskf_hints__probe_dev(port->ifindex, &d)) {
		xskf_xdp_port(port)->hints_why =
		    xskf_features__probe(XSKF_FEAT_NETDEV_GENL) == -ECANCELED
			? "the netdev netlink family forced off by XSKF_FEATURES_OFF: the driver's "
			  "kfuncs unknown"
			: "the kernel does not say which kfuncs the driver implements (netdev "
			  "netlink xdp-rx-metadata-features, Linux 6.8+)";
		return 0;
	}
	/*
	 * A kfunc caller must be loaded device-bound, and so must the dispatcher it is a
	 * component of: libxdp binds its dispatcher only from its v3 (libxdp 1.6), which this
	 * xskf does not use yet
	 */
	if ((k & d) && !eng->o.xdp_alone && xskf_disp__bpffs(port)) {
		xskf_xdp_port(port)->disp.hw_lost = true;
		return 0;
	}
	return k & d;
}

static void print_hints(struct xskf_engine *eng, struct xskf_port *port)
{
	const char *parse = !(eng->hints & XSKF_HINT_PARSE) ? "no parse"
			    : eng->hints_user && eng->hints & XSKF_HINT_TUNNEL
				? "packet type, offsets, tunnels parsed in userspace"
			    : eng->hints_user ? "packet type and offsets parsed in userspace"
			    : eng->hints & XSKF_HINT_TUNNEL ? "packet type, offsets, tunnels parsed in XDP"
							     : "packet type and offsets parsed in XDP";
	char set[96];

	if (eng->o.no_hints) {
		pr_info("%s: RX hints off (%s): the XDP program writes no meta\n", port->name,
			eng->hints_unread ? "no app reads any"
			: xskf_features__probe(XSKF_FEAT_ADJUST_META) &&
				  xskf_features__probe(XSKF_FEAT_ADJUST_HEAD)
			    ? "neither adjust helper: the line above"
			    : "--no-hints");
		return;
	}
	xskf_hints__set_str(eng->hints, set, sizeof(set));
	if (!xskf_xdp_port(port)->hints_hw &&
	    !(eng->hints & (XSKF_HINT_HASH | XSKF_HINT_TIMESTAMP | XSKF_HINT_VLAN))) {
		pr_info("%s: RX hints: %s; read: %s\n", port->name, parse, set);
		return;
	}
	if (!xskf_xdp_port(port)->hints_hw) {
		pr_info(
		    "%s: RX hints: %s, %s (%s); read: %s\n", port->name, parse,
		    eng->hints & XSKF_HINT_HASH ? "rx hash in software" : "no driver hints",
		    eng->hints_user ? "computed in userspace: no driver values"
		    : xskf_xdp_port(port)->attach_flags == XDP_FLAGS_SKB_MODE
			? "SKB mode cannot read driver hints"
		    : xskf_xdp_port(port)->disp.hw_lost
			? "libxdp's dispatcher before v3 (libxdp 1.6) cannot be device-bound, "
			  "so its programs cannot call the driver's hint kfuncs: --attach alone "
			  "reads them"
		    : !xskf_xdp_eng(eng)->kernel_kfuncs
			? "driver hints need the RX metadata kfuncs of Linux 6.3+"
		    : xskf_xdp_port(port)->hints_why ? xskf_xdp_port(port)->hints_why
						      : "the driver offers no hint kfunc",
		    set);
		return;
	}
	pr_info("%s: RX hints from the driver:%s%s%s; %s; read: %s\n", port->name,
		xskf_xdp_port(port)->hints_hw & XSKF_HINTS_KF_HASH ? " rx_hash" : "",
		xskf_xdp_port(port)->hints_hw & XSKF_HINTS_KF_TIMESTAMP ? " rx_timestamp" : "",
		xskf_xdp_port(port)->hints_hw & XSKF_HINTS_KF_VLAN_TAG ? " rx_vlan_tag" : "", parse,
		set);
}

static struct xskf_redirect *open_load(struct xskf_engine *eng, struct xskf_port *port)
{
	struct xskf_redirect *skel;
	struct bpf_program *hw;
	char *log;
	int err;

	skel = xskf_verifier_log__open(&log);
	if (!skel)
		return NULL;
	if (xskf_xdp_eng(eng)->kernel_no_frags) {
		/* no native attach of jumbo MTUs then: said once per run */
		if (!xskf_xdp_eng(eng)->frags_said++)
			pr_info("%s: XDP programs for multi-buffer frames (xdp.frags) need Linux 5.18: "
				"loaded without; native mode then needs an MTU whose frames fit one "
				"buffer\n",
				port->name);
	}
	/*
	 * A kernel whose SKB mode refuses a program using a CPUMAP with program slots (before
	 * 5.15, which cannot redirect there in SKB mode either): steering's CPUMAP without them,
	 * its qsize alone (xskf puts no program in it), so that the program attaches in SKB mode
	 */
	if (xskf_features__probe(XSKF_FEAT_SKB_CPUMAP)) {
		if (!xskf_xdp_eng(eng)->skb_cpumap_said++)
			pr_info("%s: steering's CPUMAP made without program slots: SKB-mode XDP "
				"with them %s; 'cpumap' rules refused in SKB mode\n",
				port->name,
				xskf_features__why(XSKF_FEAT_SKB_CPUMAP,
						   "needs Linux 5.15 (the attach refused it)"));
		bpf_map__set_value_size(skel->maps.steer_cpus, sizeof(__u32));
	}
	/* no hint read: the program writes no meta at all; else only what is read */
	skel->rodata->hints_on = !eng->o.no_hints;
	skel->rodata->meta_head = eng->hints_head;
	skel->rodata->hints_user = eng->hints_user;
	/* no served queue: the verifier cuts the served path out (xskf_serve.bpf.h) */
	skel->rodata->serve_on = xskf_xdp_port(port)->nr_served > 0;
	skel->rodata->xskf_hints_mask = eng->hints;
	hw = skel->progs.xskf_redirect_hw;
	if (xskf_xdp_port(port)->hints_hw) {
		skel->rodata->xskf_hints_kfuncs = xskf_xdp_port(port)->hints_hw;
		bpf_program__set_ifindex(hw, (unsigned int)port->ifindex);
		bpf_program__set_flags(hw, bpf_program__flags(hw) | BPF_F_XDP_DEV_BOUND_ONLY);
	} else {
		skel->rodata->xskf_hints_kfuncs = 0;
		bpf_program__set_autoload(hw, false);
	}
	err = xskf_redirect__load(skel);
	if (err && log)
		xskf_verifier_log__print(port->name, log, err);
	free(log);
	if (err) {
		xskf_redirect__destroy(skel);
		errno = -err;
		return NULL;
	}
	return skel;
}

/* A failed set-up: what it took back, the lock given back. */
static void setup_undo(struct xskf_port *port)
{
	if (xskf_xdp_port(port)->share.claimed && xskf_share__leave(port))
		xskf_share__forget(port);
	xskf_steer__unload(port);
	xskf_redirect__destroy(xskf_xdp_port(port)->skel);
	xskf_xdp_port(port)->skel = NULL;
	if (xskf_xdp_port(port)->share.joined)
		close(xskf_xdp_port(port)->prog_fd);
	xskf_xdp_port(port)->share.joined = false;
}

int xskf_prog__setup(struct xskf_engine *eng, struct xskf_port *port)
{
	static int printed_tier_a;
	struct bpf_program *native = NULL, *skb = NULL;
	int err;

	/* held until the attach: a run starting at once finds our program whole, or none (no
	 * lock file: said, and set-up goes on; a lock held too long: said, and we stop) */
	err = xskf_share__lock(port);
	if (err == -ETIMEDOUT)
		goto unlock;
	xskf_xdp_port(port)->share.join_id = 0;
	xskf_xdp_port(port)->disp.on = false;
	xskf_xdp_port(port)->disp.main_id = 0;
	err = clear_existing(port, eng->o.force, eng->o.xdp_alone, true);
	if (!err)
		err = xskf_prog__probe_kernel(eng);
	if (err)
		goto unlock;

	xskf_xdp_port(port)->hints_why = NULL;
	xskf_xdp_port(port)->hints_hw = hw_hints_mask(eng, port);
	if (xskf_xdp_port(port)->share.join_id) {
		err = xskf_share__join(eng, port);
		if (err)
			goto unlock;
		goto queues;
	}
	xskf_xdp_port(port)->skel = open_load(eng, port);
	if (!xskf_xdp_port(port)->skel && xskf_xdp_port(port)->hints_hw) {
		pr_info("%s: cannot load the device-bound hints program (%s): software hints only\n",
			port->name, strerror(errno));
		xskf_xdp_port(port)->hints_hw = 0;
		xskf_xdp_port(port)->skel = open_load(eng, port);
	}
	if (!xskf_xdp_port(port)->skel) {
		err = -errno;
		pr_warn("%s: cannot load the XDP program: %s%s\n", port->name, strerror(-err),
			err == -EPERM ? " (run as root, or with CAP_BPF and CAP_NET_ADMIN)" : "");
		goto unlock;
	}
	err = write_owner(port);
	if (err)
		goto fail;

	if (xskf_xdp_eng(eng)->kernel_redirect_xsk) {
		if (!printed_tier_a++)
			pr_info("redirect: the kernel names bpf_redirect_xsk() but this xskf has no "
				"program for its unmerged signature; using the next tier\n");
	} else if (!printed_tier_a++) {
		pr_info("redirect: bpf_redirect_xsk() unavailable (not in this kernel's BTF)\n");
	}
	if (redirect_map_takes_fallback(
		bpf_program__fd(xskf_xdp_port(port)->skel->progs.xskf_redirect))) {
		xskf_xdp_port(port)->tier = XSKF_TIER_MAP_FALLBACK;
		/* hints computed in userspace: the variant without the hints' code at all */
		skb = eng->hints_user ? xskf_xdp_port(port)->skel->progs.xskf_redirect_nm
				      : xskf_xdp_port(port)->skel->progs.xskf_redirect;
		native = xskf_xdp_port(port)->hints_hw
			     ? xskf_xdp_port(port)->skel->progs.xskf_redirect_hw
			     : skb;
	} else {
		xskf_xdp_port(port)->tier = XSKF_TIER_MAP_LOOKUP;
		skb = native = xskf_xdp_port(port)->skel->progs.xskf_redirect_lk;
		xskf_xdp_port(port)->hints_hw = 0;
	}
	err = reset_counters(port);
	if (err)
		goto fail;
	xskf_xdp_port(port)->native_fd = bpf_program__fd(native);
	xskf_xdp_port(port)->skb_fd = bpf_program__fd(skb);
queues:
	/* our queues, before the table: its rules are scoped to their owners' queues */
	err = xskf_share__queues(eng, port, true);
	if (!err)
		err = xskf_steer__load(eng, port);
	if (err)
		goto fail;
	return 0;
fail:
	setup_undo(port);
unlock:
	xskf_share__unlock(port);
	return err;
}

static void print_steering(struct xskf_port *port)
{
	const struct xskf_steer *st = &port->steer;
	static const char *const act[] = { "xsk", "pass", "cpumap", "drop" };

	if (!st->n) {
		if (st->def.action != XSKF_STEER_ACT_XSK)
			pr_info("%s: steering: no rule, default %s\n", port->name,
				act[st->def.action & 3]);
		return;
	}
	pr_info("%s: steering: %u rule%s (first: %s), default %s%s\n", port->name, st->n,
		st->n == 1 ? "" : "s", st->e[0].text, act[st->def.action & 3],
		st->def.action == XSKF_STEER_ACT_PASS ? ": frames no rule takes go to the stack"
						       : "");
}

/*
 * Attach the loaded program. Called once the sockets are in the XSKMAP, so that a program seen
 * attached (by a user, or a test waiting for it) already steers every queue to its socket.
 */
int xskf_prog__attach(struct xskf_engine *eng, struct xskf_port *port)
{
	int err;

	if (xskf_xdp_port(port)->share.joined) {
		xskf_xdp_port(port)->attached = true;
		remember_attached(port);
		pr_info("%s: joined the XDP program (id %u) of the xskf runs already there, in %s "
			"mode%s, redirect: %s; our queues and rules are in it\n",
			port->name, xskf_xdp_port(port)->share.join_id,
			xskf_xdp_port(port)->attach_flags == XDP_FLAGS_DRV_MODE ? "native" : "SKB",
			xskf_xdp_port(port)->disp.on ? " through libxdp's dispatcher" : ", alone",
			tier_name(xskf_xdp_port(port)->tier));
		xskf_share__unlock(port); /* taken by set-up */
		print_hints(eng, port);
		print_steering(port);
		return 0;
	}
	err = attach_mode(eng, port, xskf_xdp_port(port)->native_fd, xskf_xdp_port(port)->skb_fd);
	xskf_share__unlock(port); /* taken by set-up */
	if (err) {
		if (err == -EBUSY || err == -EEXIST)
			pr_warn("%s: an XDP program was attached meanwhile; remove it or use --force\n",
				port->name);
		return err;
	}
	xskf_xdp_port(port)->attached = true;
	remember_attached(port);
	if (xskf_xdp_port(port)->disp.on)
		pr_info("%s: XDP program attached in %s mode through libxdp's dispatcher (id %u; "
			"priority 50, XDP_PASS goes on to the next program; one more call a frame, "
			"docs/performance.md), redirect: %s\n",
			port->name,
			xskf_xdp_port(port)->attach_flags == XDP_FLAGS_DRV_MODE ? "native" : "SKB",
			xskf_xdp_port(port)->disp.main_id, tier_name(xskf_xdp_port(port)->tier));
	else
		pr_info("%s: XDP program attached alone in %s mode (no other XDP program can join "
			"it), redirect: %s\n",
			port->name,
			xskf_xdp_port(port)->attach_flags == XDP_FLAGS_DRV_MODE ? "native" : "SKB",
			tier_name(xskf_xdp_port(port)->tier));
	print_hints(eng, port);
	print_steering(port);
	return 0;
}

int xskf_prog__set_xsk(struct xskf_port *port, uint32_t queue, int xsk_fd)
{
	int fd = bpf_map__fd(xskf_xdp_port(port)->skel->maps.xsks);

	if (xsk_fd < 0)
		return bpf_map_delete_elem(fd, &queue) ? -errno : 0;
	return bpf_map_update_elem(fd, &queue, &xsk_fd, 0) ? -errno : 0;
}

void xskf_prog__detach(struct xskf_port *port)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = xskf_xdp_port(port)->prog_fd);
	int err;

	if (!xskf_xdp_port(port)->attached) {
		if (xskf_xdp_port(port)->share.claimed) /* set-up failed after it took the queues */
			xskf_share__leave(port);
		restore_foreign(port); /* set-up failed after --force took it off */
		return;
	}
	if (xskf_xdp_port(port)->seen.gone || xskf_xdp_port(port)->seen.replaced) {
		/* nothing of ours to detach here: xskf_engine__watch() said why; our queues and
		 * rules leave the maps all the same, and, when we were the last, the lock file */
		xskf_xdp_port(port)->attached = false;
		forget_attached(port);
		xskf_share__lock(port);
		if (xskf_share__leave(port))
			xskf_share__forget(port);
		xskf_share__unlock(port);
		if (xskf_xdp_port(port)->foreign_saved)
			close(xskf_xdp_port(port)->foreign_fd);
		xskf_xdp_port(port)->foreign_saved = false;
		return;
	}
	/* the last run out detaches; the others leave it their queues and rules only */
	xskf_share__lock(port);
	if (!xskf_share__leave(port)) { /* it said so */
		xskf_xdp_port(port)->attached = false;
		forget_attached(port);
		xskf_share__unlock(port);
		return;
	}
	xskf_share__forget(port); /* no run left to share with: no lock file left behind */
	if (xskf_xdp_port(port)->disp.on) {
		/* ours out of libxdp's dispatcher; the others' stay */
		err = xskf_disp__detach_id(port, xskf_xdp_port(port)->disp.id);
		if (err)
			pr_warn("%s: taking our XDP program out of libxdp's dispatcher failed: %s\n",
				port->name, strerror(-err));
	} else {
		/* REPLACE with our fd: never remove a program someone attached after us. */
		err = bpf_xdp_detach(port->ifindex,
				     xskf_xdp_port(port)->attach_flags | XDP_FLAGS_REPLACE, &o);
		if (err && err != -EEXIST)
			pr_warn("%s: detaching the XDP program failed: %s\n", port->name,
				strerror(-err));
	}
	xskf_xdp_port(port)->attached = false;
	forget_attached(port);
	if (!err)
		restore_foreign(port);
	xskf_share__unlock(port);
}

void xskf_prog__teardown(struct xskf_port *port)
{
	xskf_prog__detach(port);
	xskf_serve_maps__drop(port);
	xskf_steer__unload(port);
	if (xskf_xdp_port(port)->skel)
		xskf_redirect__destroy(xskf_xdp_port(port)->skel);
	xskf_xdp_port(port)->skel = NULL;
	if (xskf_xdp_port(port)->share.joined)
		close(xskf_xdp_port(port)
			  ->prog_fd); /* the attached program's, from its id (prog_share.c) */
	xskf_xdp_port(port)->share.joined = false;
	xskf_disp__close(port);
	while (xskf_xdp_port(port)
		   ->share.lock_depth) /* a set-up that failed between set-up and attach */
		xskf_share__unlock(port);
	if (xskf_xdp_port(port)->share.lock_fd >= 3)
		close(xskf_xdp_port(port)->share.lock_fd);
	xskf_xdp_port(port)->share.lock_fd = -1;
}

int xskf_prog__owner(uint32_t id, char *name, size_t name_len, int *pid)
{
	bool shares;
	pid_t p = 0;
	enum owner_kind k = classify(id, name, name_len, &p, &shares);

	*pid = (int)p;
	return k == OWNER_OURS_ALIVE ? 2 : k == OWNER_OURS_DEAD ? 1 : 0;
}

int xskf_prog__counters(struct xskf_port *port, uint32_t queue, uint64_t out[3])
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct xskf_prog_counters *v;

	out[0] = out[1] = out[2] = 0;
	if (!xskf_xdp_port(port)->skel || ncpu < 0 || queue >= XSKF_PROG_MAX_QUEUES)
		return -ENOENT;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(port)->skel->maps.counters), &queue, v)) {
		free(v);
		return -errno;
	}
	for (i = 0; i < ncpu; i++) {
		out[0] += v[i].redirected;
		out[1] += v[i].passed;
		out[2] += v[i].errors;
	}
	free(v);
	return 0;
}

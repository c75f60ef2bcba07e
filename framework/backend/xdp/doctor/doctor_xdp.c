// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskf doctor`'s XDP checks: the programs already on the interface (a foreign one in front,
 * SKB mode), what the driver offers (netdev netlink xdp-features: native XDP, zero-copy,
 * multi-buffer) and the NAPI IDs busy polling needs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <xdp/libxdp.h>

#include "backend/xdp/doctor/doctor.h"
#include "backend/xdp/doctor/doctor_read.h"
#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/sock/napi_nl.h"
#include "backend/xdp/xdp_state.h"
#include "backend/xdp/prog/prog.h"
#include "backend/xdp/prog/dispatch.h"
#include "backend/xdp/doctor/doctor_judge.h"
#include "backend/xdp/prog/features.h"

/* netdev xdp-features bits (hints_probe.h) */
#define XF_BASIC (1ull << 0)
#define XF_ZC	 (1ull << 3)
#define XF_RX_SG (1ull << 5)

/* The components of libxdp's dispatcher on @ifindex: another's programs run beside xskf's. */
static void judge_dispatcher(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex,
			     uint32_t id)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p = NULL;
	unsigned int foreign = 0;

	if (libxdp_get_error(mp) || !mp || xdp_multiprog__is_legacy(mp)) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "xdp",
			     "libxdp's dispatcher (id %u) is attached; "
			     "its programs are pinned in a bpffs this process does not see\n"
			     "xdp-loader status %s\n",
			     id, a->ifname);
		if (!libxdp_get_error(mp) && mp)
			xdp_multiprog__close(mp);
		return;
	}
	while ((p = xdp_multiprog__next_prog(p, mp))) {
		char name[96];
		int pid;

		if (xskf_prog__owner(xdp_program__id(p), name, sizeof(name), &pid))
			continue;
		foreign++;
		/*
		 * xskf's component runs at priority 50 (prog_dispatch.c): lower runs first.
		 * Information, not a problem: it runs there by design and passes frames on by
		 * default; what it drops cannot be counted from here.
		 */
		xskf_dr__add(r, XSKF_DR_INFO, "xdp",
			     "XDP program %s runs %s xskf's in libxdp's dispatcher: frames it "
			     "drops, redirects or sends back%s never reach xskf's sockets\n"
			     "xdp-loader status %s: %s, priority %u (xskf's: 50)\n"
			     "xdp-loader unload %s -i %u",
			     name, xdp_program__run_prio(p) < 50 ? "before" : "beside",
			     xdp_program__run_prio(p) < 50 ? "" : " when it runs first", a->ifname,
			     name, xdp_program__run_prio(p), a->ifname, xdp_program__id(p));
	}
	xdp_multiprog__close(mp);
	if (!foreign)
		xskf_dr__add(r, XSKF_DR_OK, "xdp",
			     "libxdp's dispatcher holds xskf's programs only");
}

/* One program attached alone in @mode (XDP_FLAGS_DRV_MODE, _SKB_MODE). */
static void judge_prog(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t id, bool skb)
{
	const char *n = a->ifname, *mw = skb ? "SKB (generic)" : "native";
	char name[96];
	int pid, own = xskf_prog__owner(id, name, sizeof(name), &pid);

	if (own == 2 && skb && (a->zero_copy || !a->skb))
		xskf_dr__add(r, a->zero_copy ? XSKF_DR_PROBLEM : XSKF_DR_INFO, "xdp-mode",
			     "xskf's program of the run of pid %d is attached in SKB mode: a run "
			     "that joins it runs in copy mode%s\nbpf_xdp_query(%s): %s, SKB mode\n"
			     "stop that run and start it without --skb",
			     pid, a->zero_copy ? ", and -z fails" : "", n, name);
	else if (own == 2)
		xskf_dr__add(r, XSKF_DR_OK, "xdp",
			     "xskf's program of the run of pid %d (%s mode): "
			     "a run on other queues joins it",
			     pid, mw);
	else if (own == 1)
		xskf_dr__add(r, XSKF_DR_OK, "xdp",
			     "xskf's program %s, left by a run that is gone "
			     "(pid %d): the next run replaces it",
			     name, pid);
	else
		xskf_dr__add(r, XSKF_DR_PROBLEM, "xdp",
			     "another XDP program %s holds %s alone, in %s mode: it sees every "
			     "frame first, and xskf refuses to start beside it\nbpf_xdp_query(%s): "
			     "%s, %s mode, not xskf's, not libxdp's dispatcher\nip link set dev %s "
			     "%s off (or xskf run --force: replaced until xskf exits)",
			     name, n, mw, n, name, mw, n, skb ? "xdpgeneric" : "xdp");
}

/*
 * libxdp's dispatcher in SKB mode: every program in it, xskf's of another run too, sees frames
 * copied out of socket buffers, and a run that joins it runs in copy mode (judge_prog's line,
 * for the dispatcher: a run in its default attach mode goes through it).
 */
static void judge_skb_dispatcher(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t id)
{
	if (a->skb && !a->zero_copy)
		return;
	xskf_dr__add(
	    r, a->zero_copy ? XSKF_DR_PROBLEM : XSKF_DR_INFO, "xdp-mode",
	    "libxdp's dispatcher (id %u) is attached in SKB mode: a run that joins it runs "
	    "in copy mode%s\nbpf_xdp_query(%s): skb_prog_id %u, a dispatcher (xdp-loader "
	    "status %s)\nstop the runs on %s and start them without --skb (-S)",
	    id, a->zero_copy ? ", and -z fails" : "", a->ifname, id, a->ifname, a->ifname);
}

void xskf_dr__check_xdp(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err = bpf_xdp_query(ifindex, 0, &q);

	if (err) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "xdp",
			     "the XDP programs of %s are unknown\n"
			     "bpf_xdp_query: %s%s\n",
			     a->ifname, strerror(-err), err == -EPERM ? " (run as root)" : "");
		return;
	}
	if (q.hw_prog_id)
		xskf_dr__add(r, XSKF_DR_PROBLEM, "xdp",
			     "an offloaded XDP program (id %u) runs in "
			     "the NIC: xskf refuses to start\nbpf_xdp_query(%s): hw_prog_id %u\n"
			     "ip link set dev %s xdpoffload off",
			     q.hw_prog_id, a->ifname, q.hw_prog_id, a->ifname);
	if (q.drv_prog_id) {
		if (xskf_disp__is_dispatcher(q.drv_prog_id))
			judge_dispatcher(r, a, ifindex, q.drv_prog_id);
		else
			judge_prog(r, a, q.drv_prog_id, false);
	}
	if (q.skb_prog_id) {
		if (xskf_disp__is_dispatcher(q.skb_prog_id)) {
			judge_dispatcher(r, a, ifindex, q.skb_prog_id);
			judge_skb_dispatcher(r, a, q.skb_prog_id);
		} else
			judge_prog(r, a, q.skb_prog_id, true);
	}
	if (!q.drv_prog_id && !q.skb_prog_id && !q.hw_prog_id)
		xskf_dr__add(r, XSKF_DR_OK, "xdp", "no XDP program on %s", a->ifname);
}

void xskf_dr__check_features(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex,
			     uint64_t xf, int xerr)
{
	const char *n = a->ifname;

	if (xerr) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "zero-copy",
			     "the driver's XDP features are not "
			     "reported\nnetdev netlink xdp-features: %s (Linux 6.3+)\n",
			     strerror(-xerr));
		return;
	}
	(void)ifindex;
	if (!(xf & XF_BASIC))
		xskf_dr__add(r, a->zero_copy ? XSKF_DR_PROBLEM : XSKF_DR_INFO, "xdp-mode",
			     "the driver of %s has no native XDP: xskf attaches in SKB (generic) "
			     "mode, where every frame is copied%s\nnetdev xdp-features of %s: no "
			     "basic (xskf features -i %s)\n%s",
			     n, a->zero_copy ? " and -z fails" : "", n, n,
			     a->zero_copy ? "drop -z (copy mode)" : "");
	else if (a->skb)
		xskf_dr__add(r, a->zero_copy ? XSKF_DR_PROBLEM : XSKF_DR_INFO, "xdp-mode",
			     "--skb asked: SKB (generic) mode copies every frame into the UMEM%s\n"
			     "the driver of %s has native XDP (netdev xdp-features: basic)\n"
			     "drop --skb",
			     a->zero_copy ? ", and -z fails" : "", n);
	if (a->zero_copy && (xf & XF_BASIC) && !(xf & XF_ZC))
		xskf_dr__add(r, XSKF_DR_PROBLEM, "zero-copy",
			     "-z asked, and the driver of %s has no AF_XDP zero-copy: the bind "
			     "fails\nnetdev xdp-features of %s: no xsk-zerocopy (xskf features -i "
			     "%s)\ndrop -z (xskf tries zero-copy, then copy mode)",
			     n, n, n);
	else
		xskf_dr__add(r, XSKF_DR_OK, "zero-copy", "%s",
			     xf & XF_ZC ? "the driver has AF_XDP zero-copy"
					: "copy mode: the driver has no "
					  "AF_XDP zero-copy");
}

void xskf_dr__check_napi(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex)
{
	static bool none[XSKF_DR_MAXQ];
	struct xskf_napi_nl nl;
	unsigned int i, nr = 0;
	char qw[256];
	int err = xskf_napi_nl__open(&nl);

	memset(none, 0, sizeof(none));
	if (!err && xskf_features__probe(XSKF_FEAT_NAPI_IDS) == -ECANCELED) {
		xskf_napi_nl__close(&nl);
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "napi",
			     "the NAPI IDs of the queues are not read\nnapi_ids forced off by "
			     "XSKF_FEATURES_OFF\n");
		return;
	}
	if (!err) {
		for (i = 0; !err && i < a->nq; i++) {
			uint32_t id = 0;

			err = xskf_napi_nl__queue_napi(&nl, (uint32_t)ifindex, a->queues[i], &id);
			if (!err && !id && a->queues[i] < XSKF_DR_MAXQ && !none[a->queues[i]]) {
				none[a->queues[i]] = true;
				nr++;
			}
		}
		xskf_napi_nl__close(&nl);
	}
	if (err) {
		xskf_dr__add(r, XSKF_DR_UNKNOWN, "napi",
			     "the NAPI IDs of the queues are not "
			     "reported\nnetdev netlink queue-get: %s (Linux 6.8+)\n",
			     xskf_features__forced_off("netdev_genl")
				 ? "forced off by XSKF_FEATURES_OFF"
				 : strerror(-err));
		return;
	}
	if (!nr) {
		xskf_dr__add(r, XSKF_DR_OK, "napi", "every asked queue has a NAPI ID");
		return;
	}
	xskf_dr__ranges(none, XSKF_DR_MAXQ, qw, sizeof(qw));
	xskf_dr__add(r, a->busy_poll ? XSKF_DR_PROBLEM : XSKF_DR_OK, "napi",
		     "queue%s %s of %s ha%s no NAPI ID%s\nnetdev queue-get: no napi-id for %u of "
		     "the %u asked queues (the driver names none, as veth does)\n%s",
		     nr > 1 ? "s" : "", qw, a->ifname, nr > 1 ? "ve" : "s",
		     a->busy_poll ? ": busy polling (-B) needs one, and xskf falls back to "
				    "polling the rings without it"
				  : "",
		     nr, a->nq, a->busy_poll ? "drop -B (--busy-poll)" : "");
}

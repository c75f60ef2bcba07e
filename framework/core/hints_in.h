/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the RX hints reach the app (enum xskf_hints_in of xskf_engine.h): the choice from what
 * the kernel's probes (backend/xdp/prog/features.c) and libxdp's dispatcher said, kept apart from
 * them so that it is one function of its inputs, tested alone (tests/unit/test_hints_in.c).
 * Private to libxskf.
 *
 *   data_meta  the XDP program writes the meta in the metadata area (bpf_xdp_adjust_meta())
 *   headroom   the XDP program writes it in the headroom (bpf_xdp_adjust_head()); the RX path
 *              moves each frame past it
 *   userspace  the XDP program changes no packet data (xskf_redirect_nm); the RX path computes
 *              the meta from each frame with the program's parser (core/sw_meta.h) into the
 *              UMEM headroom in front of it: no driver (kfunc) values
 */
#ifndef XSKF_HINTS_IN_H
#define XSKF_HINTS_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xskf_engine.h>
#include <xskf_pkt.h>

/* The answers the choice takes: 0 (works), or a probe's -errno (-ECANCELED: forced off). */
struct xskf_hints_in_facts {
	int adjust_meta;   /* bpf_xdp_adjust_meta() in an XDP program */
	int adjust_head;   /* bpf_xdp_adjust_head() in an XDP program */
	int disp_pkt_data; /* libxdp's dispatcher takes a component that changes packet data */
	bool dispatcher;   /* the program is to join libxdp's dispatcher (not --attach alone) */
};

/*
 * xskf_hints_in__choose() - where the hints go for @want with @f. Returns
 * XSKF_HINTS_IN_DATA_META, _HEADROOM or _USERSPACE, or -EOPNOTSUPP when @want names a way
 * that @f refuses. @why (@len bytes) gets the reason of a way other than data_meta, or of the
 * refusal, in words for the start-up line ("" for data_meta). Thread: any.
 */
int xskf_hints_in__choose(enum xskf_hints_in want, const struct xskf_hints_in_facts *f, char *why,
			  size_t len);

/*
 * xskf_hints_in__say() - the start-up line of way @way (the headroom's or userspace's; nothing
 * for data_meta) with its reason @why. Thread: control thread.
 */
void xskf_hints_in__say(int way, const char *why);

/* "data_meta", "headroom", "userspace" (--hints-in's and --json's words), "auto", or "?". */
const char *xskf_hints_in__name(enum xskf_hints_in in);

/* The value of one of those words, or -EINVAL. Thread: any. */
int xskf_hints_in__parse(const char *word);

/*
 * xskf_hints_user__burst() - the meta of each of the @n frames of @pkts (their first buffer,
 * as the XDP program sees it), written where pkt->meta points (in front of pkt->data), for an
 * app that reads @hints (XSKF_HINT_*). Thread: the worker that took the frames.
 */
void xskf_hints_user__burst(struct xskf_pkt *pkts, unsigned int n, uint32_t hints);

#endif /* XSKF_HINTS_IN_H */

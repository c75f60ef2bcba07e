// SPDX-License-Identifier: BSD-2-Clause
/*
 * Where the RX hints reach the app: the choice (hints_in.h). Userspace is the way that works
 * everywhere; it is the automatic choice only where the other two cannot run, because it
 * costs the worker a parse per frame and loses the driver's values (docs/performance.md, "RX
 * hints computed in userspace").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/hints_in.h"
#include "core/log.h"

static const char *const names[] = {
    [XSKF_HINTS_IN_AUTO] = "auto",
    [XSKF_HINTS_IN_DATA_META] = "data_meta",
    [XSKF_HINTS_IN_HEADROOM] = "headroom",
    [XSKF_HINTS_IN_USERSPACE] = "userspace",
};

const char *xskf_hints_in__name(enum xskf_hints_in in)
{
	return (unsigned int)in <= XSKF_HINTS_IN_USERSPACE ? names[in] : "?";
}

int xskf_hints_in__parse(const char *word)
{
	unsigned int i;

	for (i = 0; i <= XSKF_HINTS_IN_USERSPACE; i++)
		if (!strcmp(word, names[i]))
			return (int)i;
	return -EINVAL;
}

/* "forced off by XSKF_FEATURES_OFF" or "refused by this kernel's verifier" for probe answer @r */
static const char *refused(int r)
{
	return r == -ECANCELED ? "forced off by XSKF_FEATURES_OFF"
			       : "refused by this kernel's verifier";
}

/* @want explicitly: the way itself, or -EOPNOTSUPP where its helper is refused */
static int asked(enum xskf_hints_in want, const struct xskf_hints_in_facts *f, char *why,
		 size_t len)
{
	int r = want == XSKF_HINTS_IN_DATA_META	 ? f->adjust_meta
		: want == XSKF_HINTS_IN_HEADROOM ? f->adjust_head
						 : 0;

	if (r) {
		snprintf(why, len, "--hints-in %s needs bpf_xdp_adjust_%s(), %s",
			 xskf_hints_in__name(want),
			 want == XSKF_HINTS_IN_DATA_META ? "meta" : "head", refused(r));
		return -EOPNOTSUPP;
	}
	snprintf(why, len, "%s", want == XSKF_HINTS_IN_DATA_META ? "" : "--hints-in asks for it");
	return (int)want;
}

int xskf_hints_in__choose(enum xskf_hints_in want, const struct xskf_hints_in_facts *f, char *why,
			  size_t len)
{
	if (want != XSKF_HINTS_IN_AUTO)
		return asked(want, f, why, len);
	/*
	 * The dispatcher first: it refuses the whole program, whichever helper grows the frame
	 * (Linux 6.13+ with libxdp before 1.5.5), and attaching alone instead would shut every
	 * other XDP program out of the interface.
	 */
	if (f->dispatcher && f->disp_pkt_data) {
		snprintf(
		    why, len, "libxdp's dispatcher takes no program that changes packet data (%s)",
		    f->disp_pkt_data == -ECANCELED ? "forced by XSKF_FEATURES_OFF=disp_pkt_data"
						   : "Linux 6.13+ with libxdp before 1.5.5");
		return XSKF_HINTS_IN_USERSPACE;
	}
	if (!f->adjust_meta) {
		snprintf(why, len, "%s", "");
		return XSKF_HINTS_IN_DATA_META;
	}
	if (!f->adjust_head) {
		snprintf(why, len, "bpf_xdp_adjust_meta() %s", refused(f->adjust_meta));
		return XSKF_HINTS_IN_HEADROOM;
	}
	snprintf(why, len, "bpf_xdp_adjust_meta() %s, bpf_xdp_adjust_head() %s",
		 refused(f->adjust_meta), refused(f->adjust_head));
	return XSKF_HINTS_IN_USERSPACE;
}

void xskf_hints_in__say(int way, const char *why)
{
	if (way == XSKF_HINTS_IN_HEADROOM)
		pr_info(
		    "RX hints: %s: the XDP program carries them in the headroom "
		    "(bpf_xdp_adjust_head()) of frames bound for our sockets, and the framework "
		    "moves each frame past them before the app sees it\n",
		    why);
	else if (way == XSKF_HINTS_IN_USERSPACE)
		pr_info(
		    "RX hints: computed in userspace (%s): the XDP program changes no packet "
		    "data, the framework parses each frame into the meta in front of it; packet "
		    "type, offsets and VLAN in software, the hash the software Toeplitz with the "
		    "port's RSS key, no driver (kfunc) values\n",
		    why);
}

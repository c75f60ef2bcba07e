// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskf features [-i IFACE] [--json]`: the probe table of features.c for this kernel and, with
 * an interface, what its driver offers (netdev netlink) and what xskf will use there.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "backend/xdp/prog/features.h"
#include "backend/xdp/prog/hints_probe.h"
#include "core/hints_in.h"
#include "core/log.h"

static const char *const xdp_feat_words[] = { "basic",	      "redirect", "ndo-xmit", "xsk-zerocopy",
					      "hw-offload", "rx-sg",	  "ndo-xmit-sg" };

/*
 * The RX metadata kfuncs the driver implements (@kf, or unknown: @ekf), and what xskf reads
 * there: as prog.c's hw_hints_mask() decides, none where the driver's answer is unknown or
 * the kernel's row is off (software values then).
 */
/*
 * Does xskf call the RX metadata kfuncs where the driver has them? As prog.c's
 * hw_hints_mask(): not where the row is forced off or the kernel has none (EOPNOTSUPP: not in
 * its BTF); another refusal of the probe (its veth, its namespace: EPERM without
 * CAP_SYS_ADMIN) is left to the load on the port, which falls back to software values.
 */
static bool kfuncs_called(void)
{
	int r = xskf_features__probe(XSKF_FEAT_RX_KFUNCS);

	return r != -ECANCELED && r != -EOPNOTSUPP;
}

static void print_kfuncs(FILE *f, unsigned int kf, int ekf)
{
	const char *off = kfuncs_called() ? NULL
			  : xskf_features__why(XSKF_FEAT_RX_KFUNCS, "not in this kernel");

	if (ekf) {
		fprintf(f, "  rx kfuncs      unknown (%s): xskf calls none: software values\n",
			xskf_features__forced_off("netdev_genl") ? "netdev_genl forced off"
								  : strerror(-ekf));
		return;
	}
	fprintf(f, "  rx kfuncs      %s%s%s", kf & XSKF_HINTS_KF_HASH ? "hash " : "",
		kf & XSKF_HINTS_KF_TIMESTAMP ? "timestamp " : "",
		kf & XSKF_HINTS_KF_VLAN_TAG ? "vlan_tag " : "");
	if (!kf)
		fprintf(f, "none: software hash (Toeplitz with the port's RSS key)\n");
	else if (off)
		fprintf(f, "implemented; xskf calls none (rx_kfuncs %s): software values\n", off);
	else
		fprintf(f, "implemented and called\n");
}

/* What the driver of @ifindex says (netdev netlink), as JSON members or lines. */
static void print_dev(FILE *f, const char *ifname, int ifindex, bool json)
{
	unsigned int kf = 0, i;
	uint64_t xf = 0;
	uint32_t segs = 0;
	int exf = xskf_netdev__xdp_features(ifindex, &xf);
	int ekf = xskf_hints__probe_dev(ifindex, &kf);
	char words[128] = "";

	xskf_netdev__zc_max_segs(ifindex, &segs);
	for (i = 0; i < sizeof(xdp_feat_words) / sizeof(xdp_feat_words[0]); i++)
		if (xf & (1ull << i))
			snprintf(words + strlen(words), sizeof(words) - strlen(words), "%s%s",
				 words[0] ? " " : "", xdp_feat_words[i]);
	if (json) {
		fprintf(f, ",\"interface\":{\"name\":\"%s\",\"xdp_features\":\"%s\",\"known\":%s,"
			   "\"zero_copy\":%s,\"zc_max_segs\":%u,\"rx_kfuncs\":\"%s%s%s\"}",
			ifname, words, exf ? "false" : "true",
			xf & (1u << 3) ? "true" : "false", segs,
			kf & XSKF_HINTS_KF_HASH ? "hash " : "",
			kf & XSKF_HINTS_KF_TIMESTAMP ? "timestamp " : "",
			kf & XSKF_HINTS_KF_VLAN_TAG ? "vlan_tag" : "");
		return;
	}
	fprintf(f, "\n%s:\n", ifname);
	if (exf && xskf_features__forced_off("netdev_genl"))
		fprintf(f, "  xdp features   unknown (netdev_genl forced off by XSKF_FEATURES_OFF)\n");
	else if (exf)
		fprintf(f, "  xdp features   unknown (%s: netdev netlink is Linux 6.3+)\n",
			strerror(-exf));
	else
		fprintf(f, "  xdp features   %s\n", words[0] ? words : "none");
	fprintf(f, "  zero-copy      %s", exf ? "unknown: xskf tries it, then copy mode\n"
				  : xf & (1u << 3) ? "yes" : "no: copy mode\n");
	if (!exf && (xf & (1u << 3)))
		fprintf(f, ", %u buffers a frame at most\n", segs ? segs : 1);
	print_kfuncs(f, kf, ekf);
}

/* "true" where the row works: xskf uses the feature */
static const char *yes(enum xskf_feat f)
{
	return xskf_features__probe(f) ? "false" : "true";
}

/* Where the hints go by default (--hints-in auto, through the dispatcher): hints_in.h's word. */
static const char *hints_way(char *why, size_t len)
{
	struct xskf_hints_in_facts f = {
		.adjust_meta = xskf_features__probe(XSKF_FEAT_ADJUST_META),
		.adjust_head = xskf_features__probe(XSKF_FEAT_ADJUST_HEAD),
		.disp_pkt_data = xskf_features__probe(XSKF_FEAT_DISP_PKT_DATA),
		.dispatcher = true,
	};

	return xskf_hints_in__name(xskf_hints_in__choose(XSKF_HINTS_IN_AUTO, &f, why, len));
}

/* What xskf will do with this kernel's answers: one line each. */
static void print_uses(FILE *f, bool json)
{
	char why[160];
	const char *hints = hints_way(why, sizeof(why));
	bool disp = !xskf_features__probe(XSKF_FEAT_EXT) && !xskf_features__probe(XSKF_FEAT_BPFFS);
	const char *gen = !xskf_features__probe(XSKF_FEAT_LIVE_FRAMES) ? "live" : "xsk";

	if (json) {
		fprintf(f,
			",\"uses\":{\"hints\":\"%s\",\"attach\":\"%s\",\"trafficgen\":\"%s\","
			"\"rx_kfuncs\":%s,\"tx_metadata\":%s,\"busy_poll\":%s,\"napi_ids\":%s,"
			"\"netdev_genl\":%s}",
			hints, disp ? "dispatcher" : "alone", gen, kfuncs_called() ? "true" : "false",
			yes(XSKF_FEAT_TX_METADATA), yes(XSKF_FEAT_BUSY_POLL), yes(XSKF_FEAT_NAPI_IDS),
			yes(XSKF_FEAT_NETDEV_GENL));
		return;
	}
	fprintf(f, "\nxskf uses:\n");
	if (!strcmp(hints, "data_meta"))
		fprintf(f, "  RX hints       in the metadata area (bpf_xdp_adjust_meta())\n");
	else if (!strcmp(hints, "headroom"))
		fprintf(f,
			"  RX hints       in the headroom (bpf_xdp_adjust_head()), moved past "
			"before the app (%s)\n",
			why);
	else
		fprintf(f,
			"  RX hints       computed in userspace from each frame, no driver "
			"values (%s)\n",
			why);
	if (strcmp(hints, "userspace"))
		fprintf(f, "                 computed in userspace where libxdp's dispatcher "
			   "refuses a program that changes packet data (Linux 6.13+, libxdp "
			   "before 1.5.5), or with --hints-in userspace\n");
	fprintf(f, "  attach         %s\n",
		disp ? "through libxdp's dispatcher, beside other programs"
		     : "alone: libxdp's dispatcher needs ext programs and a bpffs");
	fprintf(f, "  trafficgen     %s\n",
		!strcmp(gen, "live") ? "XDP live frames (BPF_PROG_TEST_RUN)"
				     : "AF_XDP TX from its own interface (no live frames)");
}

int xskf_features__cmd(int argc, char **argv)
{
	const char *ifname = NULL;
	bool json = false;
	int i, ifindex = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "--interface")) &&
			   i + 1 < argc) {
			ifname = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: xskf features [-i IFACE] [--json]\n"
			       "Probe, by using each, the kernel features xskf uses, and say what\n"
			       "xskf does without each. XSKF_FEATURES_OFF=name,... forces one off.\n");
			return 0;
		} else {
			pr_warn("features: unknown argument '%s' (usage: xskf features [-i IFACE] "
				"[--json])\n",
				argv[i]);
			return 2;
		}
	}
	if (ifname) {
		ifindex = (int)if_nametoindex(ifname);
		if (!ifindex) {
			pr_warn("features: no interface '%s' in this network namespace (ip link "
				"lists them)\n",
				ifname);
			return 1;
		}
	}
	xskf_features__check_env();
	if (json)
		printf("{\"features\":");
	xskf_features__print(stdout, json);
	if (ifindex)
		print_dev(stdout, ifname, ifindex, json);
	print_uses(stdout, json);
	if (json)
		printf("}\n");
	return 0;
}

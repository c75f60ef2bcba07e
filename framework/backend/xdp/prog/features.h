/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel features xskf uses, each probed by using it (features.c): one table, and for each
 * feature what xskf does without it. Private to libxskf; `xskf features` prints it.
 *
 * XSKF_FEATURES_OFF=name[,name...] in the environment makes a probe fail as if the kernel had
 * refused the feature, so that each fallback runs on every kernel (the test suite does).
 */
#ifndef XSKF_XDP_FEATURES_H
#define XSKF_XDP_FEATURES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/features_off.h" /* xskf_features__forced_off() */

enum xskf_feat {
	XSKF_FEAT_ADJUST_META,	/* bpf_xdp_adjust_meta() in an XDP program */
	XSKF_FEAT_ADJUST_HEAD,	/* bpf_xdp_adjust_head() in an XDP program */
	XSKF_FEAT_FRAGS,	/* frags-aware XDP programs (BPF_F_XDP_HAS_FRAGS) */
	XSKF_FEAT_EXT,		/* BPF_PROG_TYPE_EXT (freplace): libxdp's dispatcher */
	XSKF_FEAT_BPFFS,	/* a bpffs at /sys/fs/bpf */
	XSKF_FEAT_XSKMAP,	/* BPF_MAP_TYPE_XSKMAP */
	XSKF_FEAT_CPUMAP,	/* BPF_MAP_TYPE_CPUMAP (steering to other CPUs) */
	XSKF_FEAT_DEVMAP,	/* BPF_MAP_TYPE_DEVMAP */
	XSKF_FEAT_LIVE_FRAMES,	/* BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES */
	XSKF_FEAT_NEED_WAKEUP,	/* XDP_USE_NEED_WAKEUP at bind */
	XSKF_FEAT_XSK_SG,	/* XDP_USE_SG at bind: multi-buffer AF_XDP */
	XSKF_FEAT_BUSY_POLL,	/* SO_PREFER_BUSY_POLL on an AF_XDP socket */
	XSKF_FEAT_TX_BUDGET,	/* XDP_MAX_TX_SKB_BUDGET */
	XSKF_FEAT_DISP_PKT_DATA, /* libxdp's dispatcher takes a component that changes packet
				  * data: told by the attach, not probed ahead (0 unless forced) */
	XSKF_FEAT_BPF_NOCAP,	/* bpf() on fds held, by a thread without CAP_BPF */
	XSKF_FEAT_RX_KFUNCS,	/* the RX metadata kfuncs in a device-bound program */
	XSKF_FEAT_TX_METADATA,	/* AF_XDP TX metadata (UMEM tx_metadata_len) */
	XSKF_FEAT_NETDEV_GENL,	/* the netdev generic-netlink family (dev-get) */
	XSKF_FEAT_NAPI_IDS,	/* NAPI IDs per queue (netdev queue-get) */
	XSKF_FEAT_SKB_CPUMAP,	/* SKB mode takes a program that uses a CPUMAP with program
				 * slots, and redirects into a CPUMAP (Linux 5.15+) */
	XSKF_FEAT_NR
};

/*
 * xskf_features__probe() - does the kernel take feature @f? Probed by use the first time
 * (a program loaded, a map created, a socket bound on the loopback device, a call made), then
 * cached. Returns 0 (it works), the -errno of the refusal, or -ECANCELED when
 * XSKF_FEATURES_OFF names it. Thread: any, but the first call of each feature is not
 * thread-safe (the engine's control thread makes it).
 */
int xskf_features__probe(enum xskf_feat f);

/* The feature's short name (the word XSKF_FEATURES_OFF takes), and what xskf does without it. */
const char *xskf_features__name(enum xskf_feat f);
const char *xskf_features__without(enum xskf_feat f);
const char *xskf_features__what(enum xskf_feat f);

/*
 * xskf_features__why() - the reason @f is not used, for a start-up line: "forced off by
 * XSKF_FEATURES_OFF", or @kernel_why (what the kernel lacks) where the kernel refused it.
 * NULL where the feature works. Thread: as xskf_features__probe().
 */
const char *xskf_features__why(enum xskf_feat f, const char *kernel_why);


/*
 * xskf_features__check_env() - say in one line each name of XSKF_FEATURES_OFF that is no
 * feature of the table (a typo would otherwise test nothing). Thread: control thread.
 */
void xskf_features__check_env(void);

/*
 * xskf_features__print() - the table for this kernel: one line per feature (or a JSON array
 * with @json) to @f. Thread: any (probes what is not probed yet).
 */
void xskf_features__print(FILE *f, bool json);

/*
 * xskf_features__cmd() - `xskf features [-i IFACE] [--json]`: the table, the interface's driver
 * (netdev netlink) and what xskf will use. Returns the exit status. Thread: main.
 */
int xskf_features__cmd(int argc, char **argv);

#endif /* XSKF_XDP_FEATURES_H */

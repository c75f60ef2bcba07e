// SPDX-License-Identifier: BSD-2-Clause
/*
 * TX metadata of an AF_XDP socket (docs/tx-offloads.md): who carries out each request, decided
 * once the socket is bound: the device (zero-copy, the driver's netdev xsk-features), the
 * kernel (copy mode), or xskf itself (core/tx_meta.c, on the worker).
 */
#include <stdint.h>

#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/xdp_state.h"
#include "backend/xdp/prog/features.h"
#include "core/tx_meta.h"
#include "backend/xdp/sock/txmd.h"

void xskf_txmd__setup_sock(struct xskf_engine *eng, struct xskf_sock *s, bool say)
{
	const struct xskf_umem *um = &s->worker->umem;
	uint64_t feat = 0;
	int err = 0;
	const char *why = "";

	/* without room (no XSKF_APP_F_TX_META, or a kernel before 6.8): xskf's checksums only */
	s->txmd_how[0] = XSKF_TXH_XSKF;
	s->txmd_how[1] = s->txmd_how[2] = XSKF_TXH_NONE;
	if (!um->tx_meta_want)
		return;
	if (!um->tx_meta_len) {
		why = xskf_features__probe(XSKF_FEAT_TX_METADATA) == -ECANCELED
			  ? " (AF_XDP TX metadata forced off by XSKF_FEATURES_OFF)"
			  : " (this kernel has no AF_XDP TX metadata: Linux 6.8+)";
	} else if (!s->zerocopy) {
		/*
		 * Copy mode: generic kernel code, whatever the driver (net/xdp/xsk.c): the
		 * checksum by skb_checksum_help() (XDP_UMEM_TX_SW_CSUM), a software CLOCK_TAI
		 * timestamp when the skb is freed; the launch time is set on the skb but the
		 * frame bypasses the qdisc, so nothing waits for it.
		 */
		s->txmd_how[0] = XSKF_TXH_KERNEL;
		s->txmd_how[1] = XSKF_TXH_KERNEL;
		why = " (copy mode bypasses the qdisc: software pacing)";
		if (um->tx_no_sw_csum) {
			/* refused at the bind on this device (xsk_raw.c) */
			s->txmd_how[0] = XSKF_TXH_XSKF;
			why =
			    " (the kernel refuses its copy-mode software checksum on this driver, "
			    "whose copy-mode TX sends frames without a linear part: "
			    "IFF_TX_SKB_NO_LINEAR, e.g. virtio-net)";
		}
	} else {
		err = xskf_hints__probe_xsk_features(s->port->ifindex, &feat);
		if (!err) {
			if (feat & XSKF_XSK_FEAT_TX_CHECKSUM)
				s->txmd_how[0] = XSKF_TXH_DEVICE;
			if (feat & XSKF_XSK_FEAT_TX_TIMESTAMP)
				s->txmd_how[1] = XSKF_TXH_DEVICE;
			if (feat & XSKF_XSK_FEAT_TX_LAUNCH_TIME_FIFO)
				s->txmd_how[2] = XSKF_TXH_DEVICE;
		} else {
			why = xskf_features__forced_off("netdev_genl")
				  ? " (the driver's xsk-features unread: the netdev netlink family "
				    "forced off by XSKF_FEATURES_OFF)"
				  : " (the driver's xsk-features unreadable: netdev netlink, Linux "
				    "6.8+)";
		}
	}
	if (say)
		pr_info("%s: TX metadata (%u bytes in front of each frame): checksum %s, "
			"timestamp %s, launch time %s%s\n",
			s->port->name, um->tx_meta_len, xskf_tx_how__str(s->txmd_how[0]),
			xskf_tx_how__str(s->txmd_how[1]), xskf_tx_how__str(s->txmd_how[2]), why);
	(void)eng;
}

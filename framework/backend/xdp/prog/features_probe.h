/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The probes of features.c's table made in features_probe.c: each uses the feature and
 * returns 0 or the -errno of the refusal. Called by xskf_features__probe() only (cached
 * there, XSKF_FEATURES_OFF asked there). Thread: any (see each).
 */
#ifndef XSKF_XDP_FEATURES_PROBE_H
#define XSKF_XDP_FEATURES_PROBE_H

/*
 * A device-bound XDP program calling bpf_xdp_metadata_rx_timestamp(), loaded on a veth of a
 * network namespace made for it in a thread of its own (Linux 6.3+). -EOPNOTSUPP where the
 * kernel's BTF has no such kfunc.
 */
int xskf_features__probe_rx_kfuncs(void);
struct btf;
/* The kfunc's id from a kernel BTF already parsed (prog.c), so that the probe parses none. */
void xskf_features__kfunc_btf(const struct btf *btf);

/* A UMEM registered with tx_metadata_len (XDP_UMEM_TX_METADATA_LEN, Linux 6.8+). */
int xskf_features__probe_tx_metadata(void);

/* The netdev family's dev-get of the loopback device (Linux 6.3+). */
int xskf_features__probe_netdev_genl(void);

/* The netdev family's queue-get of the loopback device's RX queue 0 (Linux 6.8+). */
int xskf_features__probe_napi_ids(void);

/*
 * An SKB-mode attach, on the loopback device of a network namespace made for it in a thread of
 * its own, of a program that uses a CPUMAP with struct bpf_cpumap_val values (Linux 5.15+; 5.9
 * to 5.14 refuse it with EINVAL).
 */
int xskf_features__probe_skb_cpumap(void);

#endif /* XSKF_XDP_FEATURES_PROBE_H */

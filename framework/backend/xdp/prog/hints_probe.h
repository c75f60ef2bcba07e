/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which XDP metadata kfuncs the running kernel has, and which a device's driver implements:
 * the framework's choice between the two variants of its XDP program (private to libxskf).
 *
 *	kernel = xskf_hints__probe_kfuncs(&k) ? 0 : k;
 *	driver = xskf_hints__probe_dev(ifindex, &d) ? XSKF_HINTS_KF_ALL : d;
 *	use = kernel & driver;
 *	native mode and use != 0: hw = true, device-bound, rodata xskf_hints_kfuncs = use
 *	else (SKB mode, or nothing to ask): hw = false
 */
#ifndef XSKF_HINTS_PROBE_H
#define XSKF_HINTS_PROBE_H

#include <stdint.h>

#include "xskf_meta.h" /* XSKF_HINTS_KF_* */

/*
 * xskf_hints__probe_kfuncs() - set *@mask to the XSKF_HINTS_KF_* kfuncs present in the kernel's
 * BTF (/sys/kernel/btf/vmlinux): hash and timestamp since 6.3, VLAN tag since 6.8.
 * Returns 0, or a negative errno when the kernel BTF cannot be read (*mask is then 0).
 * Thread: any (reads and parses the kernel BTF, a few ms: call once).
 */
int xskf_hints__probe_kfuncs(unsigned int *mask);

struct btf;
/*
 * xskf_hints__probe_kfuncs_btf() - the same from a kernel BTF the caller has parsed already
 * (the engine reads it once per run, prog.c). Thread: any.
 */
void xskf_hints__probe_kfuncs_btf(const struct btf *btf, unsigned int *mask);

/*
 * xskf_hints__probe_dev() - set *@mask to the XSKF_HINTS_KF_* kfuncs the driver of @ifindex
 * implements (netdev netlink family, xdp-rx-metadata-features, Linux 6.8+: veth all three,
 * mlx5 all three, ice all three, i40e none in 6.18). A kfunc a driver does not implement
 * answers -EOPNOTSUPP for every frame. Returns 0, -EOPNOTSUPP when the kernel cannot tell
 * (older kernel: assume all and let the kfuncs answer), -ENODEV, or another -errno.
 * Thread: any (two netlink round trips).
 */
int xskf_hints__probe_dev(int ifindex, unsigned int *mask);

/*
 * xskf_netdev__zc_max_segs() - set *@segs to the most buffers per frame the driver of
 * @ifindex takes in zero-copy mode (netdev netlink, xdp-zc-max-segs, Linux 6.6+; only drivers
 * with zero-copy say it: i40e and ice 8). Returns 0, -ENOENT (the driver says nothing: *segs
 * is 0), -EOPNOTSUPP (no netdev family), or another -errno. Thread: any.
 */
int xskf_netdev__zc_max_segs(int ifindex, uint32_t *segs);

/*
 * xskf_netdev__xdp_features() - the netdev netlink xdp-features of @ifindex (Linux 6.3+): bit 0
 * basic, 1 redirect, 2 ndo-xmit, 3 xsk-zerocopy, 4 hw-offload, 5 rx-sg, 6 ndo-xmit-sg.
 * Returns 0, -EOPNOTSUPP (no netdev family), or another -errno (*@feat 0). Thread: any.
 */
int xskf_netdev__xdp_features(int ifindex, uint64_t *feat);

/*
 * xskf_hints__probe_xsk_features() - the netdev netlink xsk-features of @ifindex (Linux 6.8+):
 * the TX metadata its driver carries out in zero-copy mode (XSKF_XSK_FEAT_*, core/tx_meta.h).
 * Returns 0, -ENOENT (the attribute is missing: an older kernel), -EOPNOTSUPP (no netdev
 * family), or another -errno; *@feat is 0 then. Thread: any.
 */
int xskf_hints__probe_xsk_features(int ifindex, uint64_t *feat);

#endif /* XSKF_HINTS_PROBE_H */

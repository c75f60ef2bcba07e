// SPDX-License-Identifier: BSD-2-Clause
/*
 * Probes for the XDP metadata kfuncs: the kernel's BTF (does the kfunc exist?) and the netdev
 * netlink family (does this device's driver implement it?). See hints_probe.h.
 */
#include <errno.h>
#include <stdint.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/hints_probe.h"
#include "backend/xdp/sock/napi_nl.h"

/* include/uapi/linux/netdev.h (Linux 6.3+; the RX metadata attribute 6.8+), not in 6.1 UAPI */
#define XSKF_NETDEV_A_DEV_XDP_ZC_MAX_SEGS      4
#define XSKF_NETDEV_A_DEV_XDP_RX_METADATA_FEAT 5
#define XSKF_NETDEV_A_DEV_XSK_FEATURES	       6

static const struct {
	const char *name;
	unsigned int bit;
} kfuncs[] = {
	{ "bpf_xdp_metadata_rx_timestamp", XSKF_HINTS_KF_TIMESTAMP },
	{ "bpf_xdp_metadata_rx_hash", XSKF_HINTS_KF_HASH },
	{ "bpf_xdp_metadata_rx_vlan_tag", XSKF_HINTS_KF_VLAN_TAG },
};

void xskf_hints__probe_kfuncs_btf(const struct btf *btf, unsigned int *mask)
{
	unsigned int i;

	*mask = 0;
	for (i = 0; i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++)
		if (btf__find_by_name_kind(btf, kfuncs[i].name, BTF_KIND_FUNC) > 0)
			*mask |= kfuncs[i].bit;
}

int xskf_hints__probe_kfuncs(unsigned int *mask)
{
	struct btf *btf;
	long err;

	*mask = 0;
	btf = btf__load_vmlinux_btf();
	err = libbpf_get_error(btf);
	if (err)
		return (int)err;
	xskf_hints__probe_kfuncs_btf(btf, mask);
	btf__free(btf);
	return 0;
}

/*
 * Attribute @type of the netdev family's answer for @ifindex, as a number (napi_nl.c's
 * client). -ENOENT when the answer has no such attribute, -EOPNOTSUPP without the family
 * (before 6.3).
 */
static int netdev_attr(int ifindex, uint16_t type, uint64_t *val)
{
	struct xskf_napi_nl nl;
	int err;

	*val = 0;
	err = xskf_napi_nl__open(&nl);
	if (err)
		return err == -ENOENT ? -EOPNOTSUPP : err; /* no netdev family: before 6.3 */
	err = xskf_napi_nl__dev_attr(&nl, (uint32_t)ifindex, type, val);
	xskf_napi_nl__close(&nl);
	return err;
}

int xskf_hints__probe_dev(int ifindex, unsigned int *mask)
{
	uint64_t feat;
	int err = netdev_attr(ifindex, XSKF_NETDEV_A_DEV_XDP_RX_METADATA_FEAT, &feat);

	/* -ENOENT: 6.3 - 6.7, the family exists, this attribute not yet */
	*mask = err ? 0 : (unsigned int)feat & XSKF_HINTS_KF_ALL;
	return err == -ENOENT ? -EOPNOTSUPP : err;
}

int xskf_netdev__zc_max_segs(int ifindex, uint32_t *segs)
{
	uint64_t v;
	int err = netdev_attr(ifindex, XSKF_NETDEV_A_DEV_XDP_ZC_MAX_SEGS, &v);

	*segs = err ? 0 : (uint32_t)v;
	return err;
}

int xskf_netdev__xdp_features(int ifindex, uint64_t *feat)
{
	int err = netdev_attr(ifindex, 3 /* NETDEV_A_DEV_XDP_FEATURES */, feat);

	if (err)
		*feat = 0;
	return err;
}

int xskf_hints__probe_xsk_features(int ifindex, uint64_t *feat)
{
	int err = netdev_attr(ifindex, XSKF_NETDEV_A_DEV_XSK_FEATURES, feat);

	if (err)
		*feat = 0;
	return err;
}

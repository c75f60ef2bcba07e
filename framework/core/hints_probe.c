// SPDX-License-Identifier: BSD-2-Clause
/*
 * Probes for the XDP metadata kfuncs: the kernel's BTF (does the kfunc exist?) and the netdev
 * netlink family (does this device's driver implement it?). See hints_probe.h.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/hints_probe.h"

/* include/uapi/linux/netdev.h (Linux 6.3+; the RX metadata attribute 6.8+), not in 6.1 UAPI */
#define XSKF_NETDEV_FAMILY		       "netdev"
#define XSKF_NETDEV_CMD_DEV_GET		       1
#define XSKF_NETDEV_A_DEV_IFINDEX	       1
#define XSKF_NETDEV_A_DEV_XDP_ZC_MAX_SEGS      4
#define XSKF_NETDEV_A_DEV_XDP_RX_METADATA_FEAT 5

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

/* A generic netlink request with room for a few attributes. */
struct genl_req {
	struct nlmsghdr nh;
	struct genlmsghdr g;
	char attrs[64];
};

/* A request with no attributes yet: family @type, command @cmd. */
static void genl_start(struct genl_req *r, uint16_t type, uint8_t cmd)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST;
	r->g.cmd = cmd;
	r->g.version = 1;
}

static void put_attr(struct genl_req *r, unsigned short type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* The attribute @type among the attributes of the genetlink reply @nh, or NULL. */
static const struct nlattr *find_attr(const struct nlmsghdr *nh, unsigned short type)
{
	const char *p = (const char *)NLMSG_DATA(nh) + GENL_HDRLEN;
	const char *end = (const char *)nh + nh->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/* Send @r, receive one reply into @buf: the reply message, or NULL with *err set. */
static const struct nlmsghdr *transact(int fd, struct genl_req *r, char *buf, size_t len,
				       int *err)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;
	ssize_t n;

	if (send(fd, r, r->nh.nlmsg_len, 0) < 0) {
		*err = -errno;
		return NULL;
	}
	n = recv(fd, buf, len, 0);
	if (n < 0) {
		*err = -errno;
		return NULL;
	}
	if (!NLMSG_OK(nh, (unsigned int)n)) {
		*err = -EPROTO;
		return NULL;
	}
	if (nh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nh);

		*err = e->error ? e->error : -EPROTO;
		return NULL;
	}
	return nh;
}

/*
 * Attribute @type of the netdev family's answer for @ifindex, as a number. -ENOENT when the
 * answer has no such attribute, -EOPNOTSUPP without the family (before 6.3).
 */
static int netdev_attr(int ifindex, unsigned short type, uint64_t *val)
{
	char buf[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *nh;
	const struct nlattr *a;
	struct genl_req r;
	uint32_t idx = (uint32_t)ifindex;
	uint16_t family;
	int fd, err = 0;

	*val = 0;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;

	/* the netdev family's id */
	genl_start(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, XSKF_NETDEV_FAMILY, sizeof(XSKF_NETDEV_FAMILY));
	nh = transact(fd, &r, buf, sizeof(buf), &err);
	if (!nh) {
		err = err == -ENOENT ? -EOPNOTSUPP : err; /* no netdev family: before 6.3 */
		goto out;
	}
	a = find_attr(nh, CTRL_ATTR_FAMILY_ID);
	if (!a) {
		err = -EPROTO;
		goto out;
	}
	memcpy(&family, (const char *)a + NLA_HDRLEN, sizeof(family));

	/* the device */
	genl_start(&r, family, XSKF_NETDEV_CMD_DEV_GET);
	put_attr(&r, XSKF_NETDEV_A_DEV_IFINDEX, &idx, sizeof(idx));
	nh = transact(fd, &r, buf, sizeof(buf), &err);
	if (!nh)
		goto out;
	a = find_attr(nh, type);
	if (!a) {
		err = -ENOENT;
		goto out;
	}
	memcpy(val, (const char *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN < 8 ? 4 : 8);
out:
	close(fd);
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

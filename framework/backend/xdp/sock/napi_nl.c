// SPDX-License-Identifier: BSD-2-Clause
/*
 * The netdev generic-netlink family, as much of it as xskf needs (napi_nl.h): a device's
 * attributes (hints_probe.c) and its NAPIs' settings (napi.c). Requests
 * are built by hand in one buffer; replies are read until NLMSG_DONE or the ack, so that a
 * socket never holds a stale reply for the next request.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include "backend/xdp/sock/napi_nl.h"
#include "backend/xdp/prog/features.h"

/* netdev.yaml's numbers (include/uapi/linux/netdev.h), stable uapi; Debian 12 has none */
#define NL_NETDEV_CMD_DEV_GET	1
#define NL_DEV_IFINDEX		1
#define NL_NETDEV_CMD_QUEUE_GET 10
#define NL_NETDEV_CMD_NAPI_GET	11
#define NL_NETDEV_CMD_NAPI_SET	14 /* 6.13 */
#define NL_NAPI_IFINDEX		1
#define NL_NAPI_ID		2
#define NL_NAPI_DEFER_HARD_IRQS 5 /* u32 */
#define NL_NAPI_GRO_FLUSH	6 /* uint (4 or 8 bytes), ns */
#define NL_NAPI_IRQ_SUSPEND	7 /* uint, ns; 6.13 */
#define NL_QUEUE_ID		1
#define NL_QUEUE_IFINDEX	2
#define NL_QUEUE_TYPE		3
#define NL_QUEUE_NAPI_ID	4
#define NL_QUEUE_TYPE_RX	0

#define NL_BUF 16384

struct nl_req {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	char attrs[256];
};

static void put_attr(struct nl_req *r, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void put_u32(struct nl_req *r, uint16_t type, uint32_t v)
{
	put_attr(r, type, &v, sizeof(v));
}

static void req_init(struct xskf_napi_nl *nl, struct nl_req *r, uint16_t family, uint8_t cmd,
		     uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nh.nlmsg_type = family;
	r->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->nh.nlmsg_seq = ++nl->seq;
	r->gh.cmd = cmd;
	r->gh.version = 1;
}

/* an unsigned attribute of 1, 2, 4 or 8 bytes (the kernel's "uint" type is 4 or 8) */
static uint64_t attr_uint(const struct nlattr *a)
{
	const void *d = (const char *)a + NLA_HDRLEN;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (a->nla_len - NLA_HDRLEN) {
	case 8:
		memcpy(&v64, d, 8);
		return v64;
	case 4:
		memcpy(&v32, d, 4);
		return v32;
	case 2:
		memcpy(&v16, d, 2);
		return v16;
	case 1:
		return *(const uint8_t *)d;
	}
	return 0;
}

#define for_each_attr(a, start, len)                                                               \
	for (a = (const struct nlattr *)(start);                                                   \
	     (const char *)a + NLA_HDRLEN <= (const char *)(start) + (len) &&                      \
	     a->nla_len >= NLA_HDRLEN &&                                                           \
	     (const char *)a + a->nla_len <= (const char *)(start) + (len);                        \
	     a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len)))

typedef void (*nl_cb)(const struct nlmsghdr *nh, void *ctx);

/*
 * Send @r and read every reply message of it (a dump's parts, then NLMSG_DONE; or a do's reply,
 * then its ack), handing each data message to @cb. Returns 0 or the kernel's -errno.
 */
static int nl_talk(struct xskf_napi_nl *nl, struct nl_req *r, nl_cb cb, void *ctx)
{
	static __thread char buf[NL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	bool dump = r->nh.nlmsg_flags & NLM_F_DUMP;
	int err = 0;

	if (sendto(nl->fd, r, r->nh.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(nl->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != r->nh.nlmsg_seq)
				continue; /* a reply to an earlier request we gave up on */
			if (nh->nlmsg_type == NLMSG_DONE)
				return err;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				/* the ack (0) or the error ends a do; a dump ends at DONE */
				if (e->error || !dump)
					return e->error ? e->error : err;
				continue;
			}
			if (cb)
				cb(nh, ctx);
		}
	}
}

struct family_ctx {
	struct xskf_napi_nl *nl;
	bool found;
};

static void family_cb(const struct nlmsghdr *nh, void *ctx)
{
	struct family_ctx *f = ctx;
	const struct nlattr *a, *op, *oa;
	size_t len = nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	for_each_attr(a, (const char *)NLMSG_DATA(nh) + GENL_HDRLEN, len) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID) {
			f->nl->family = (uint16_t)attr_uint(a);
			f->found = true;
			continue;
		}
		if (a->nla_type != CTRL_ATTR_OPS)
			continue;
		for_each_attr(op, (const char *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN) {
			for_each_attr(oa, (const char *)op + NLA_HDRLEN, op->nla_len - NLA_HDRLEN) {
				if (oa->nla_type == CTRL_ATTR_OP_ID &&
				    attr_uint(oa) == NL_NETDEV_CMD_NAPI_SET)
					f->nl->has_napi_set = true;
			}
		}
	}
}

int xskf_napi_nl__open(struct xskf_napi_nl *nl)
{
	/* XSKF_FEATURES_OFF=netdev_genl plays a kernel without the family (before 6.3) */
	if (xskf_features__forced_off("netdev_genl")) {
		memset(nl, 0, sizeof(*nl));
		nl->fd = -1;
		return -ENOENT;
	}
	return xskf_napi_nl__open_raw(nl);
}

int xskf_napi_nl__open_raw(struct xskf_napi_nl *nl)
{
	struct family_ctx f = {.nl = nl};
	struct timeval tv = {.tv_sec = 2};
	struct nl_req r;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	/* a kernel that never answers must not hang the start */
	setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	req_init(nl, &r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, "netdev", sizeof("netdev"));
	err = nl_talk(nl, &r, family_cb, &f);
	if (!err && !f.found)
		err = -ENOENT;
	if (err) {
		close(nl->fd);
		nl->fd = -1;
	}
	return err;
}

void xskf_napi_nl__close(struct xskf_napi_nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
}

static void parse_napi(const struct nlmsghdr *nh, struct xskf_napi_info *in)
{
	const struct nlattr *a;
	size_t len = nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	memset(in, 0, sizeof(*in));
	for_each_attr(a, (const char *)NLMSG_DATA(nh) + GENL_HDRLEN, len) {
		switch (a->nla_type) {
		case NL_NAPI_IFINDEX:
			in->ifindex = (uint32_t)attr_uint(a);
			break;
		case NL_NAPI_ID:
			in->id = (uint32_t)attr_uint(a);
			break;
		case NL_NAPI_DEFER_HARD_IRQS:
			in->defer_hard_irqs = (uint32_t)attr_uint(a);
			break;
		case NL_NAPI_GRO_FLUSH:
			in->gro_flush_timeout = attr_uint(a);
			break;
		case NL_NAPI_IRQ_SUSPEND:
			in->irq_suspend_timeout = attr_uint(a);
			in->has_irq_suspend = true;
			break;
		}
	}
}

struct dump_ctx {
	struct xskf_napi_info *out;
	unsigned int max, n;
};

static void dump_cb(const struct nlmsghdr *nh, void *ctx)
{
	struct dump_ctx *d = ctx;

	if (d->n < d->max)
		parse_napi(nh, &d->out[d->n]);
	d->n++;
}

int xskf_napi_nl__dump(struct xskf_napi_nl *nl, uint32_t ifindex, struct xskf_napi_info *out,
		       unsigned int max)
{
	struct dump_ctx d = {.out = out, .max = max};
	struct nl_req r;
	int err;

	req_init(nl, &r, nl->family, NL_NETDEV_CMD_NAPI_GET, NLM_F_DUMP);
	put_u32(&r, NL_NAPI_IFINDEX, ifindex);
	err = nl_talk(nl, &r, dump_cb, &d);
	return err ? err : (int)d.n;
}

int xskf_napi_nl__get(struct xskf_napi_nl *nl, uint32_t id, struct xskf_napi_info *out)
{
	struct dump_ctx d = {.out = out, .max = 1};
	struct nl_req r;
	int err;

	req_init(nl, &r, nl->family, NL_NETDEV_CMD_NAPI_GET, 0);
	put_u32(&r, NL_NAPI_ID, id);
	err = nl_talk(nl, &r, dump_cb, &d);
	if (!err && !d.n)
		err = -ENOENT;
	return err;
}

/* One attribute of a reply, as a number: its type asked, whether it came, its value. */
struct attr_ctx {
	uint16_t type;
	bool found;
	uint64_t val;
};

static void attr_cb(const struct nlmsghdr *nh, void *ctx)
{
	struct attr_ctx *c = ctx;
	const struct nlattr *a;
	size_t len = nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	for_each_attr(a, (const char *)NLMSG_DATA(nh) + GENL_HDRLEN, len) {
		if ((a->nla_type & NLA_TYPE_MASK) == c->type) {
			c->val = attr_uint(a);
			c->found = true;
		}
	}
}

int xskf_napi_nl__dev_attr(struct xskf_napi_nl *nl, uint32_t ifindex, uint16_t type,
			   uint64_t *val)
{
	struct attr_ctx c = {.type = type};
	struct nl_req r;
	int err;

	req_init(nl, &r, nl->family, NL_NETDEV_CMD_DEV_GET, 0);
	put_u32(&r, NL_DEV_IFINDEX, ifindex);
	err = nl_talk(nl, &r, attr_cb, &c);
	if (!err && !c.found)
		err = -ENOENT;
	*val = err ? 0 : c.val;
	return err;
}

int xskf_napi_nl__queue_napi(struct xskf_napi_nl *nl, uint32_t ifindex, uint32_t queue,
			     uint32_t *id)
{
	struct attr_ctx c = {.type = NL_QUEUE_NAPI_ID};
	struct nl_req r;
	int err;

	req_init(nl, &r, nl->family, NL_NETDEV_CMD_QUEUE_GET, 0);
	put_u32(&r, NL_QUEUE_IFINDEX, ifindex);
	put_u32(&r, NL_QUEUE_TYPE, NL_QUEUE_TYPE_RX);
	put_u32(&r, NL_QUEUE_ID, queue);
	err = nl_talk(nl, &r, attr_cb, &c);
	*id = err ? 0 : (uint32_t)c.val;
	return err;
}

int xskf_napi_nl__set(struct xskf_napi_nl *nl, uint32_t id, const struct xskf_napi_info *v,
		      unsigned int what)
{
	struct nl_req r;

	if (!nl->has_napi_set)
		return -EOPNOTSUPP;
	req_init(nl, &r, nl->family, NL_NETDEV_CMD_NAPI_SET, 0);
	put_u32(&r, NL_NAPI_ID, id);
	if (what & XSKF_NAPI_DEFER)
		put_u32(&r, NL_NAPI_DEFER_HARD_IRQS, v->defer_hard_irqs);
	if (what & XSKF_NAPI_GRO_FLUSH)
		put_attr(&r, NL_NAPI_GRO_FLUSH, &v->gro_flush_timeout, sizeof(uint64_t));
	if (what & XSKF_NAPI_IRQ_SUSPEND)
		put_attr(&r, NL_NAPI_IRQ_SUSPEND, &v->irq_suspend_timeout, sizeof(uint64_t));
	return nl_talk(nl, &r, NULL, NULL);
}

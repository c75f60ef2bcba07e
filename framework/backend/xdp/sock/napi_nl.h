/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small client of the kernel's netdev generic-netlink family (napi_nl.c): a device's
 * attributes (dev-get), the NAPIs of an interface, the NAPI serving an RX queue, and napi-set
 * (6.13+). Raw AF_NETLINK, no library.
 * The uapi numbers are defined here where the build's linux/netdev.h lacks them: they are the
 * kernel's stable uapi (Documentation/netlink/specs/netdev.yaml). Thread: control thread; one
 * struct per user, not shared.
 */
#ifndef XSKF_NAPI_NL_H
#define XSKF_NAPI_NL_H

#include <stdbool.h>
#include <stdint.h>

struct xskf_napi_nl {
	int fd;
	uint16_t family; /* the "netdev" family's id */
	uint32_t seq;
	bool has_napi_set; /* NETDEV_CMD_NAPI_SET is in the family's ops (6.13+) */
};

/* One NAPI as napi-get reports it. */
struct xskf_napi_info {
	uint32_t id, ifindex;
	uint32_t defer_hard_irqs;
	uint64_t gro_flush_timeout;   /* ns */
	uint64_t irq_suspend_timeout; /* ns; valid when has_irq_suspend */
	bool has_irq_suspend;	      /* the kernel reported the attribute (6.13+) */
};

/* Which values xskf_napi_nl__set() sends. */
#define XSKF_NAPI_DEFER	      (1u << 0)
#define XSKF_NAPI_GRO_FLUSH   (1u << 1)
#define XSKF_NAPI_IRQ_SUSPEND (1u << 2)

/*
 * xskf_napi_nl__open() - open a socket and resolve the "netdev" family and its ops.
 * Returns 0, -ENOENT when the kernel has no netdev family (before 6.3) or
 * XSKF_FEATURES_OFF names netdev_genl, or -errno.
 */
int xskf_napi_nl__open(struct xskf_napi_nl *nl);
/* The same whatever XSKF_FEATURES_OFF says: for the probe of the family (features_probe.c). */
int xskf_napi_nl__open_raw(struct xskf_napi_nl *nl);
void xskf_napi_nl__close(struct xskf_napi_nl *nl);

/*
 * xskf_napi_nl__dev_attr() - attribute @type (netdev.yaml's dev attribute set) of interface
 * @ifindex, as a number. Returns 0, -ENOENT when the kernel's answer has no such attribute,
 * or -errno.
 */
int xskf_napi_nl__dev_attr(struct xskf_napi_nl *nl, uint32_t ifindex, uint16_t type,
			   uint64_t *val);

/*
 * xskf_napi_nl__dump() - the NAPIs of interface @ifindex (napi-get dump), at most @max of them
 * into @out. Returns how many the kernel listed (may exceed @max), or -errno.
 */
int xskf_napi_nl__dump(struct xskf_napi_nl *nl, uint32_t ifindex, struct xskf_napi_info *out,
		       unsigned int max);

/* xskf_napi_nl__get() - NAPI @id into @out. Returns 0, -ENOENT (no such NAPI), or -errno. */
int xskf_napi_nl__get(struct xskf_napi_nl *nl, uint32_t id, struct xskf_napi_info *out);

/*
 * xskf_napi_nl__queue_napi() - the NAPI id of RX queue @queue of @ifindex (queue-get).
 * Returns 0 with *@id set (0: the driver names none), -ENOENT (no such queue), or -errno.
 */
int xskf_napi_nl__queue_napi(struct xskf_napi_nl *nl, uint32_t ifindex, uint32_t queue,
			     uint32_t *id);

/*
 * xskf_napi_nl__set() - napi-set on NAPI @id: the values of @v named by @what (XSKF_NAPI_*).
 * Returns 0, -EOPNOTSUPP without napi-set, -ENOENT (no such NAPI), or -errno.
 */
int xskf_napi_nl__set(struct xskf_napi_nl *nl, uint32_t id, const struct xskf_napi_info *v,
		      unsigned int what);

#endif /* XSKF_NAPI_NL_H */

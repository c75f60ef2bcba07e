/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RX hints layout, shared by the XDP program (bpf/) and userspace.
 *
 * The XDP program writes one struct xskf_meta into data_meta, so that it ends exactly where the
 * frame begins: userspace finds it at (frame data - sizeof(struct xskf_meta)). The last field is
 * a magic/version word, so a reader can tell valid hints from stale headroom bytes.
 *
 * This header is included by BPF C (clang -target bpf) and by C/C++ userspace: plain fixed-width
 * types only.
 */
#ifndef XSKF_META_H
#define XSKF_META_H

#include <linux/types.h>

#define XSKF_META_MAGIC 0x5846 /* "XF" */
#define XSKF_META_VERSION 1

/* Where a value came from: two bits per field in xskf_meta.src. */
enum xskf_src {
	XSKF_SRC_NONE = 0, /* absent */
	XSKF_SRC_HW = 1,   /* the driver gave it (XDP metadata kfunc) */
	XSKF_SRC_SW = 2,   /* computed in software, with the same meaning */
};

/* Field positions in xskf_meta.src (shift = 2 * field). */
enum xskf_meta_field {
	XSKF_F_HASH = 0,
	XSKF_F_TIMESTAMP = 1,
	XSKF_F_VLAN = 2,
	XSKF_F_PTYPE = 3,
};

struct xskf_meta {
	__u64 rx_timestamp; /* ns, when src says so */
	__u32 rx_hash;      /* RSS hash */
	__u32 ptype;        /* packet type, XSKF_PTYPE_* (xskf_hints.h) */
	__u16 hash_type;    /* enum xdp_rss_hash_type */
	__u16 vlan_tci;     /* outer VLAN TCI */
	__u16 l3_off;       /* offset of the (outer) L3 header from the frame start */
	__u16 l4_off;       /* offset of the (outer) L4 header, 0 if none */
	__u16 inner_l3_off; /* tunnels: offset of the inner L3 header, else 0 */
	__u16 inner_l4_off; /* tunnels: offset of the inner L4 header, else 0 */
	__u16 src;          /* enum xskf_src per enum xskf_meta_field, 2 bits each */
	__u16 magic;        /* XSKF_META_MAGIC + version: last, next to the frame */
};

#endif /* XSKF_META_H */

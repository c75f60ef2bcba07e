/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RX hints, framework side (private to libxskf): the RSS key of each port for the software
 * hash. The public side is include/xskf_hints.h; the XDP side bpf/xskf_hints.bpf.h.
 *
 * Use: at xskf_engine__add_port(), rss[port] = xskf_rss__for_ifname(ifname, &err) (err says
 * whether the driver's key was read); at the start of each worker,
 * xskf_hints__set_thread_rss(rss, nr_ports); at destroy, xskf_rss__free() each.
 */
#ifndef XSKF_FW_HINTS_H
#define XSKF_FW_HINTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xskf_hints.h"

/*
 * xskf_rss__read_key() - read @ifname's RSS key (ETHTOOL_GRSSH) into @key, of *@len bytes
 * room; sets *@len to the key's length. Returns 0, -EOPNOTSUPP (the driver has no RSS key:
 * veth), -EPROTONOSUPPORT (its hash is not plain Toeplitz: XOR, CRC32, or the symmetric input
 * transform), -ENOSPC (key longer than *len), -ENODEV, -EPERM, or another -errno.
 * Thread: control thread (one ioctl pair).
 */
int xskf_rss__read_key(const char *ifname, uint8_t *key, size_t *len);

/*
 * xskf_rss__for_ifname() - an RSS object for @ifname: with its driver's key when it can be read,
 * else with the specification's default key. *@key_err (may be NULL) receives the result of
 * xskf_rss__read_key() (0: the driver's key), for a message. Returns a new object (free it with
 * xskf_rss__free()), or NULL with errno set (ENOMEM). Thread: control thread.
 */
struct xskf_rss *xskf_rss__for_ifname(const char *ifname, int *key_err);

/*
 * xskf_hints__set_thread_rss() - make xskf_hash__sw() on the calling thread use @by_port[port]
 * for frames of port index port (< @nr_ports; a NULL entry, or NULL @by_port: the default key).
 * The array and objects must outlive the thread's hashing. Thread: each worker, at its start.
 */
void xskf_hints__set_thread_rss(const struct xskf_rss *const *by_port, unsigned int nr_ports);

/*
 * xskf_hints__forget() - zero the magic of the meta slot in front of @data, the address where
 * a frame will start (UMEM area + chunk + XDP_PACKET_HEADROOM + UMEM headroom), before the chunk
 * goes back to a fill ring. Then a frame the XDP program could not give a meta (it returns -1
 * from xskf_hints_write()) cannot show the hints of the chunk's previous frame. One 2-byte
 * store. Thread: the worker that owns the frame.
 */
static inline void xskf_hints__forget(uint8_t *data)
{
	memset(data - 2, 0, 2);
}

/*
 * xskf_hints__kfuncs_for() - the metadata kfuncs (XSKF_HINTS_KF_*) that serve the hints
 * @hints (XSKF_HINT_*): those an app reads and the driver gives. Returns the mask.
 * Thread: any.
 */
static inline uint32_t xskf_hints__kfuncs_for(uint32_t hints)
{
	return (hints & XSKF_HINT_HASH ? XSKF_HINTS_KF_HASH : 0) |
	       (hints & XSKF_HINT_TIMESTAMP ? XSKF_HINTS_KF_TIMESTAMP : 0) |
	       (hints & XSKF_HINT_VLAN ? XSKF_HINTS_KF_VLAN_TAG : 0);
}

/*
 * xskf_hints__set_str() - the names of @hints (XSKF_HINT_*), space-separated, or "none", into
 * @buf of @len bytes (truncated to fit). Thread: any.
 */
void xskf_hints__set_str(uint32_t hints, char *buf, size_t len);

#endif /* XSKF_FW_HINTS_H */

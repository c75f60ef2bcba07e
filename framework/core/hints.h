/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RX hints, framework side (private to libxskf): the RSS key of each port for the software
 * hash. The public side is include/xskf_hints.h; the XDP side bpf/xskf_hints.bpf.h.
 *
 * Use: at start, rss[port] = xskf_rss__new() with the key the backend's rss_key() read (the xdp
 * backend: the driver's, backend/xdp/watch/rss_key.c), else the default; at the start of each worker,
 * xskf_hints__set_thread_rss(rss, nr_ports); at destroy, xskf_rss__free() each.
 */
#ifndef XSKF_FW_HINTS_H
#define XSKF_FW_HINTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xskf_hints.h"

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

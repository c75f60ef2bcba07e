/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Served queues (--serve): each has an XSKMAP of its own, the only map its app is given (pinned
 * for --pin-group, or handed out on the device-plugin socket), reached here through the map
 * of maps xskf_served at the queue's index. The app enters its socket at key = its queue (as
 * DPDK's use_pinned_map and libxdp's xsk_socket__update_xskmap() do); the program reads that
 * key alone, so an entry at another key reaches nothing, and the app never holds the run's
 * own XSKMAP (xsks), its rules, owners or counters.
 *
 * serve_on is set before load: a run that serves nothing loads a program in which the verifier
 * has cut this path out (rodata is frozen), so it costs what it did before serving.
 */
#ifndef XSKF_SERVE_BPF_H
#define XSKF_SERVE_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xskf_prog.h"

/* The inner maps' template: a served queue's XSKMAP (framework: serve_maps.c) */
struct xskf_serve_inner {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSKF_PROG_MAX_QUEUES);
	__type(key, __u32);
	__type(value, __u32);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, XSKF_PROG_MAX_QUEUES);
	__type(key, __u32);
	__array(values, struct xskf_serve_inner);
} xskf_served SEC(".maps");

const volatile __u32 serve_on = 0;

/*
 * A frame of @queue to its socket: in the served queue's own XSKMAP when the queue is served,
 * else in the run's own XSKMAP @xsks; no socket there: XDP_PASS, the stack. @lookup: the
 * kernel's redirect_map takes no fallback action (the _lk program): look the socket up first.
 * *@served: the queue is served (its frames go to another app, as they came).
 */
static __always_inline int xskf_serve_redirect(void *xsks, __u32 queue, const bool lookup,
					       bool *served)
{
	void *map = xsks;

	*served = false;
	if (serve_on) {
		void *inner = bpf_map_lookup_elem(&xskf_served, &queue);

		if (inner) {
			map = inner;
			*served = true;
		}
	}
	if (!lookup)
		return bpf_redirect_map(map, queue, XDP_PASS);
	if (bpf_map_lookup_elem(map, &queue))
		return bpf_redirect_map(map, queue, 0);
	return XDP_PASS;
}

#endif /* XSKF_SERVE_BPF_H */

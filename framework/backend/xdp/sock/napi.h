/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NAPI settings of the bound devices (napi.c, docs/idle.md): --napi parsed, the kernel's
 * help probed, the old values recorded in the control folder before anything changes, put back
 * at stop, at a failed start, and by the next start after a crash. Thread: control thread.
 */
#ifndef XSKF_NAPI_H
#define XSKF_NAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xskf_engine;

/* What --napi asks for. */
struct xskf_napi_req {
	bool defer_set, gro_set, irq_set;
	uint32_t defer;	 /* napi_defer_hard_irqs */
	uint64_t gro_ns; /* gro_flush_timeout */
	uint64_t irq_ns; /* irq-suspend-timeout: per NAPI only, with the epoll wait of -B */
};

/*
 * xskf_napi__parse() - "defer=N,gro-flush=NS,irq-suspend=NS" (any of them) into @r. A bad part gets
 * one line naming it and the fix. Returns 0 or -EINVAL.
 */
int xskf_napi__parse(const char *s, struct xskf_napi_req *r);

/*
 * xskf_napi__device_why() - why a port's NAPIs are set per device (sysfs) and not one by one
 * (napi-set), from what was probed: the netdev family, its napi-set op, the NAPI id a bound
 * queue names (0: none). NULL: per NAPI. Thread: any.
 */
const char *xskf_napi__device_why(bool netlink, bool napi_set, uint32_t napi_id);

/*
 * xskf_napi__start() - once the program is attached: put back what a dead run of this network
 * namespace left changed (one line per run), probe the kernel's help, and apply the engine's
 * --napi to the bound devices (old values recorded first). Returns 0 or -errno (a message
 * said; what was set is put back).
 */
int xskf_napi__start(struct xskf_engine *eng);

/* xskf_napi__restore() - put back what this run changed (before the detach); idempotent. */
void xskf_napi__restore(struct xskf_engine *eng);

/* True when --napi changed a setting of this run. */
bool xskf_napi__used(const struct xskf_engine *eng);

/* The kernel-help clause of the idle line (core/idle.c): what was used and why not the rest. */
void xskf_napi__help(const struct xskf_engine *eng, char *buf, size_t len);

#endif /* XSKF_NAPI_H */

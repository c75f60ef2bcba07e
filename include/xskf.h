/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: a framework for AF_XDP packet processing.
 *
 * An application ("app") is a set of callbacks (struct xskf_app). The framework opens one AF_XDP
 * socket (XSK) per (interface, queue), loads and attaches the XDP program that steers each queue's
 * frames to its XSK, and runs one pinned worker thread per set of queues. Each worker runs
 *
 *     refill fill rings -> RX burst -> app->rx_burst() -> TX batch -> reap completions
 *
 * with no locks and no per-packet syscalls. The framework owns every frame: apps give each packet
 * a verdict (drop, transmit, forward) and never free or allocate buffers themselves.
 *
 * Conventions (as in libbpf):
 *  - objects are opaque, functions are named xskf_<object>__<verb>();
 *  - functions returning int return 0 (or a count) on success and a negative errno on failure;
 *    functions returning a pointer return NULL and set errno on failure;
 *  - option structs start with `size_t sz` and are declared with XSKF_OPTS(); fields the caller
 *    does not set are zero and mean "default";
 *  - messages go through the print callback (xskf_set_print()), never straight to stderr.
 *
 * Threads: "control thread" below means any one thread that owns the engine (usually main()).
 * "Worker" means a thread created by the framework; app callbacks say which they run on.
 */
#ifndef XSKF_H
#define XSKF_H

/*
 * The API in four layers, each a header of its own that includes the one below it; this header
 * includes them all, so an app or plugin includes <xskf.h> and nothing else:
 *   xskf_pkt.h     packets: struct xskf_pkt, verdicts, accessors (the per-packet path)
 *   xskf_app.h     apps: struct xskf_app, the callbacks
 *   xskf_engine.h  the engine: messages, options, ports, start/stop, statistics
 *   xskf_runner.h  the standard command line (xskf_app__main())
 */
#include <xskf_pkt.h>
#include <xskf_app.h>
#include <xskf_engine.h>
#include <xskf_runner.h>

#endif /* XSKF_H */

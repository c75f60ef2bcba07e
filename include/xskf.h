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
 * The API as siblings over one base (as libbpf's): this header includes them all, for a
 * program that embeds xskf; a plugin includes <xskf_plugin.h>, which takes only its part.
 *   xskf_pkt.h     the base: struct xskf_pkt, verdicts, accessors (the per-packet path)
 *   xskf_app.h     apps: struct xskf_app, the callbacks
 *   xskf_cli.h     an app's options and the runner's calls (-v, --quiet, SIGHUP)
 *   xskf_ports.h   what an app asks of the ports from its callbacks (steering, port info)
 *   xskf_engine.h  the engine's life: messages, options, start/stop, statistics
 *   xskf_runner.h  the standard command line (xskf_app__main())
 *   xskf_hints.h, xskf_tx.h, xskf_csum.h, xskf_meta.h, xskf_counters.h: by need
 */
#include <xskf_pkt.h>
#include <xskf_meta.h>
#include <xskf_app.h>
#include <xskf_cli.h>
#include <xskf_ports.h>
#include <xskf_engine.h>
#include <xskf_runner.h>

#endif /* XSKF_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a backend gives the engine: the kernel's side of the rings. The engine (core/engine.c)
 * runs one start sequence, one stop sequence and one worker loop for every backend and asks
 * its backend, through this table, only for what differs, in the manner of CNDP's device ops
 * and DPDK's null PMD:
 *
 *   xdp     (backend/xdp/xdp.c)          AF_XDP sockets on real interfaces, our XDP program
 *   memory  (backend/mem_backend.c)  rings in plain memory, a kernel stand-in on the worker
 *
 * The table is the core's: the core defines what it asks, backend/ answers (the core never
 * includes a backend's header; it names each backend's table once, in xskf_engine__new()).
 *
 * A NULL operation means "nothing to do". Every operation but step() runs on the control
 * thread; step() runs on each worker, once per loop iteration.
 */
#ifndef XSKF_BACKEND_H
#define XSKF_BACKEND_H

#include <stdio.h>

#include "core/engine.h"

struct xjw;

/* What xskf_engine__promisc() and its kind ask of a backend's port_ctl(). */
enum xskf_port_ctl {
	XSKF_PORT_CTL_PROMISC, /* take frames to every MAC until fini() */
};

/* A command a backend adds to `xskf` (xskf features, xskf doctor): data the runner looks up. */
struct xskf_backend_cmd {
	const char *name;  /* argv[1] of xskf */
	const char *usage; /* its lines of `xskf --help`, each ending in '\n' */
	int (*main)(int argc, char **argv); /* argv[0] is the name; returns the exit code */
};

struct xskf_backend_ops {
	const char *name; /* "xdp", "memory": the JSON's "backend" */
	/* the commands it adds to xskf, ended by one with a NULL name; NULL: none */
	const struct xskf_backend_cmd *cmds;
	/* the rings need wakeup syscalls (a kernel serves them), and set-up needs capabilities
	 * that every thread drops once it is done (privs.c) */
	bool wakeups, caps;
	/* xskf_engine__new(), before anything is allocated: the options this backend cannot
	 * serve, said in one line. 0 or -errno */
	int (*check)(const struct xskf_engine_opts *o);
	/* the backend's own settings (@sz bytes of its struct: core/mem_opts.h for the memory
	 * backend), before xskf_engine__start(). 0 or -EINVAL. NULL: it has none */
	int (*set_opts)(struct xskf_engine *eng, const void *opts, size_t sz);
	/* xskf_engine__new(): the backend's own state of @eng into eng->be_priv. 0 or -errno */
	int (*init)(struct xskf_engine *eng);
	/* xskf_engine__destroy(), after teardown: free what init() and add_port() took */
	void (*fini)(struct xskf_engine *eng);
	/* the fatal-signal handler (async-signal-safe, no engine at hand): whatever must not
	 * outlive a crashed process (xdp: our program off the interfaces) */
	void (*emergency)(void);
	/* the capabilities (bit mask, 1 << CAP_*) the control thread keeps after set-up for its
	 * watch and tear-down; every other one is dropped (privs.c). NULL: CAP_NET_ADMIN */
	uint64_t (*keep_caps)(struct xskf_engine *eng);
	/* before anything is set up: permissions, programs already on the interfaces */
	int (*preflight)(struct xskf_engine *eng);
	/* fill in port @p (zeroed; name, idx and prog_fd set) for @name and its queue ids
	 * (@nr_queues 0: the default ones). 0 or -errno, a message said */
	int (*add_port)(struct xskf_engine *eng, struct xskf_port *p, const char *name,
			const uint32_t *queues, unsigned int nr_queues);
	/* open socket @s, the @i-th of worker @w, whose UMEM is allocated: its four rings set up.
	 * 0 or -errno, a message said */
	int (*open_sock)(struct xskf_worker *w, struct xskf_sock *s, unsigned int i);
	/* once every socket of @w is open and its fill ring primed */
	int (*prime)(struct xskf_worker *w);
	/* once every worker's sockets are open: the frames start to flow (program attached) */
	int (*attach)(struct xskf_engine *eng);
	/* stop: no new frames from here on (program detached) */
	void (*detach)(struct xskf_engine *eng);
	/* tear-down: undo attach() (program unloaded), close one socket */
	void (*teardown)(struct xskf_engine *eng);
	void (*close_sock)(struct xskf_sock *s);
	/*
	 * The kernel's step, on the worker's own thread at each loop iteration (NULL: a kernel
	 * does it by itself): @rx false while the worker drains. The loop pays one predictable
	 * branch per iteration for it (core/worker.c).
	 */
	void (*step)(struct xskf_worker *w, uint32_t batch, bool rx);
	/*
	 * Idle (core/idle.c): sleep on worker @w's own thread until a frame may have come, its
	 * eventfd (w->idle.pfd[0]) is written, or @timeout_ms (-1: none) passes; poll()'s revents
	 * left in w->idle.pfd. Returns poll()'s result, or -EAGAIN without sleeping when frames are
	 * there to take although the round found none (the worker goes on polling). Required.
	 */
	int (*wait)(struct xskf_worker *w, int timeout_ms);
	/*
	 * At start, once the sockets are bound: which help of the kernel the idle and busy-poll
	 * modes get, and why not the rest, as a clause of one line into @buf; may turn
	 * eng->busy_poll off (with a one-line fallback message) where the sockets cannot busy
	 * poll. NULL: nothing to say.
	 */
	void (*idle_help)(struct xskf_engine *eng, char *buf, size_t len);
	/* the kernel's drops of socket @s (a full RX ring, others) for idle.c's lost_asleep,
	 * read at both ends of a sleep: 0 or -errno (NULL: the backend drops nothing) */
	int (*drops)(const struct xskf_sock *s, uint64_t *ring_full, uint64_t *dropped);
	/* port @p's NIC's RSS key into @key, *@len bytes at most (then its length): 0 or -errno;
	 * NULL or an error: software hashes use the default key (core/hints.c) */
	int (*rss_key)(const struct xskf_port *p, uint8_t *key, size_t *len);
	/* the kernel's and the program's counters of socket @s, into @st */
	void (*kstats)(const struct xskf_sock *s, struct xskf_queue_stats *st);
	/* MAC, MTU and link state of port @p into @pi. 0 or -errno */
	int (*port_info)(const struct xskf_engine *eng, const struct xskf_port *p,
			 struct xskf_port_info *pi);
	/* xskf_engine__watch(): 0, -ENODEV or -EEXIST (include/xskf.h) */
	int (*watch)(struct xskf_engine *eng);
	/* for messages and the JSON: how socket @s runs, how port @p is attached and redirects */
	const char *(*sock_mode)(const struct xskf_sock *s);
	void (*port_mode)(const struct xskf_port *p, const char **attach, const char **redirect);
	/* a setting of port @p the engine's API asks for (enum xskf_port_ctl): 0 or -errno, said
	 * in one line. NULL op, or -EOPNOTSUPP: the backend has nothing to set (0 to the app) */
	int (*port_ctl)(struct xskf_port *p, enum xskf_port_ctl what);
	/* the stats document: the backend's own members of port @p's object, through the writer
	 * (util/json.h) open in that object (the xdp backend: the queues it serves and where it
	 * pinned their maps). NULL: none */
	void (*port_json)(const struct xskf_port *p, struct xjw *w);
	/* the backend's own members of the stats document, through the writer (util/json.h)
	 * open in its top object; NULL: none */
	void (*json)(struct xskf_engine *eng, struct xjw *w);
	/* the backend's members of the control socket's "doctor" answer (runner/ctl_doctor.c),
	 * each after a comma; NULL: none */
	void (*doctor)(struct xskf_engine *eng, FILE *f);
};

extern const struct xskf_backend_ops xskf_backend_xdp;
extern const struct xskf_backend_ops xskf_backend_mem;

/*
 * What the runner may ask of the backends without naming one (engine.c, the one place that
 * names them). Thread: any, before or without an engine.
 *
 * xskf_backend__of() - the backend of @kind.
 * xskf_backend__check() - the options @o as xskf_engine__new() will check them, before any
 * set-up (said in one line): 0 or -errno.
 * xskf_backend__cmd() - the command named @name of either backend, or NULL.
 * xskf_backend__usage() - every backend command's usage lines to @f.
 */
const struct xskf_backend_ops *xskf_backend__of(enum xskf_backend kind);
int xskf_backend__check(const struct xskf_engine_opts *o);
const struct xskf_backend_cmd *xskf_backend__cmd(const char *name);
void xskf_backend__usage(FILE *f);
/*
 * xskf_engine__backend_opts() - hand engine @eng its backend's own settings (@sz bytes, the
 * backend's struct, copied). 0, or -EINVAL (another backend's, or started). Thread: control
 * thread, before xskf_engine__start().
 */
int xskf_engine__backend_opts(struct xskf_engine *eng, const void *opts, size_t sz);

#endif /* XSKF_BACKEND_H */

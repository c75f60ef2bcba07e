/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Idle workers (idle.c, docs/idle.md): when a worker's rounds find no frames it spins for a
 * while (adaptive), then sleeps in its backend's wait (poll() on its XSK fds and an eventfd)
 * until a frame, a stop or a control request comes. What it did with its time is counted here.
 */
#ifndef XSKF_IDLE_H
#define XSKF_IDLE_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

struct xskf_worker;
struct xskf_engine;

/* A worker's. Each member has one writer: the worker, except efd (written by anyone). */
struct xskf_idle_state {
	int efd;              /* eventfd: stop, reload and control wake the worker with it */
	struct pollfd *pfd;   /* efd first, then each socket's fd (the backend's wait) */
	unsigned int nr_pfd;
	int epfd;             /* >= 0: the backend waits in epoll_wait() on it instead (xdp.c) */
	uint64_t spin_ns;     /* 0: sleep at the first empty round */
	uint64_t spin_min_ns; /* --idle-spin: where spin_ns starts and what it comes back to */
	uint64_t ring_full;   /* the kernel's rx_ring_full of its sockets at the last wake-up */
	uint64_t k_lost;      /* their rx_ring_full + rx_dropped when it fell asleep */
	uint64_t spin_since;  /* the clock at the first look of this empty stretch */
	uint64_t seen;        /* frames received (all sockets) at the last empty round */
	uint32_t empty;       /* empty rounds in a row since then */
	bool woke;            /* the last empty round slept */
	bool on;              /* not --idle busy */
	/* for xskf_engine__idle_stats(), read by other threads (aligned: never torn) */
	uint64_t t0, t_end;   /* the loop's first and last round */
	uint64_t sleep_since; /* != 0 while asleep */
	uint64_t asleep_ns, wakeups, empty_wakeups, lost_asleep;
};

/*
 * xskf_idle__open() - the eventfd and poll set of worker @w, whose sockets are open.
 * Returns 0 or -errno. Thread: control thread, at start.
 */
int xskf_idle__open(struct xskf_worker *w);
/* Close what xskf_idle__open() opened; safe on a worker never opened. Thread: control thread. */
void xskf_idle__close(struct xskf_worker *w);
/*
 * Whether every worker of @eng waits in epoll_wait() (its backend opened w->idle.epfd: epoll
 * busy polling, which IRQ suspension needs). Thread: control thread, after the attach.
 */
bool xskf_idle__epoll(const struct xskf_engine *eng);
/* Wake worker @w if it sleeps (else its next sleep returns at once). Async-signal-safe. */
void xskf_idle__wake(struct xskf_worker *w);
/*
 * xskf_idle__empty() - a round of worker @w received no frames (a TX-only app: built none).
 * Counts towards a sleep: spins until the bound, then sleeps. Never while @draining (the stop
 * waits for the rings to empty); @rcu: the thread is a QSBR reader (offline while asleep, so
 * that synchronize_rcu() of a reload never waits for it); @tx_only: a paced generator, whose
 * sleeps are short. Thread: the worker's own.
 */
__attribute__((cold)) void xskf_idle__empty(struct xskf_worker *w, bool draining, bool rcu,
					    bool tx_only);
/* One line at start: the mode, and which help of the kernel is used and why not the others. */
void xskf_idle__say(struct xskf_engine *eng);

#endif /* XSKF_IDLE_H */

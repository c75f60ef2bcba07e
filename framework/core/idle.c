// SPDX-License-Identifier: BSD-2-Clause
/*
 * Idle workers: spin, then sleep (docs/idle.md has the measurements behind each number here).
 *
 * A wake-up across CPUs costs about 30 us on the project's machine, and sleeping at the first
 * empty round cost a veth sender 40% of its rate; spinning about twice a wake-up's cost (50 us)
 * first lost nothing measurable. An empty round costs a few ns, so the bound is a time, read
 * from the clock once every 64 empty rounds. Nothing here runs on a round that found frames.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <urcu-qsbr.h>

#include "core/backend.h"
#include "core/clock.h"
#include "core/idle.h"

/*
 * The spin bound adapts to what sleeping cost: a wake-up after which the kernel counts frames
 * dropped for a full RX ring (XDP_STATISTICS rx_ring_full, since the last wake-up) doubles it,
 * up to SPIN_MAX_X times --idle-spin; one without halves it back. At full load a sender's
 * pauses (its CPU's other work) are longer than 50 us now and then: with a fixed bound the
 * worker slept in them and lost frames to the wake-up (docs/idle.md). A first version grew on
 * a ring an eighth full at the wake-up: a paced sender's bursts did that at 10% load without
 * any loss, and the worker spun between them (68% of a CPU, from 33%). One getsockopt() per
 * socket at the wake-up, one more as it falls asleep (lost_asleep, kernel_lost()); a socket
 * without the statistics (the memory backend) counts no loss.
 */
#define SPIN_MAX_X 32

/* A worker with frames in flight, or a paced generator, sleeps at most this long: completions
 * and a generator's next send time raise no event on any fd. */
#define IDLE_SHORT_MS 1

const char *xskf_idle__name(enum xskf_idle mode)
{
	switch (mode) {
	case XSKF_IDLE_BUSY:
		return "busy";
	case XSKF_IDLE_ADAPTIVE:
		return "adaptive";
	case XSKF_IDLE_SLEEP:
		return "sleep";
	}
	return "?";
}

int xskf_idle__open(struct xskf_worker *w)
{
	struct xskf_idle_state *id = &w->idle;
	const struct xskf_engine_opts *o = &w->eng->o;
	unsigned int i;

	id->pfd = calloc(w->nr_socks + 1, sizeof(*id->pfd));
	if (!id->pfd)
		return -ENOMEM;
	id->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (id->efd < 0) {
		int err = -errno;

		pr_warn("worker %u: cannot make its wake-up eventfd: %s\n", w->id, strerror(errno));
		free(id->pfd);
		id->pfd = NULL;
		return err;
	}
	id->pfd[0] = (struct pollfd){ .fd = id->efd, .events = POLLIN };
	for (i = 0; i < w->nr_socks; i++)
		id->pfd[i + 1] = (struct pollfd){ .fd = w->socks[i]->fd, .events = POLLIN };
	id->nr_pfd = w->nr_socks + 1;
	id->epfd = -1; /* the xdp backend may open one at attach (xdp_idle_prepare()) */
	id->on = o->idle != XSKF_IDLE_BUSY;
	id->spin_ns = o->idle == XSKF_IDLE_SLEEP ? 0 : (uint64_t)o->idle_spin_us * 1000;
	id->spin_min_ns = id->spin_ns;
	return 0;
}

void xskf_idle__close(struct xskf_worker *w)
{
	struct xskf_idle_state *id = &w->idle;

	if (!id->pfd)
		return;
	close(id->efd);
	if (id->epfd >= 0)
		close(id->epfd);
	id->epfd = -1;
	free(id->pfd);
	id->pfd = NULL;
}

bool xskf_idle__epoll(const struct xskf_engine *eng)
{
	for (unsigned int i = 0; i < eng->nr_workers; i++)
		if (eng->workers[i].idle.epfd < 0)
			return false;
	return eng->nr_workers > 0;
}

void xskf_idle__wake(struct xskf_worker *w)
{
	uint64_t one = 1;

	if (w->idle.pfd && write(w->idle.efd, &one, sizeof(one)) < 0) {
		/* EAGAIN: the counter is full, the worker will wake anyway */
	}
}

/*
 * The kernel's counts of frames it dropped on @w's sockets: into *@full those for a full RX
 * ring, returned those plus the others (the backend's drops(): for xdp one getsockopt() of
 * XDP_STATISTICS per socket); a backend without drops() (memory) counts none.
 */
static uint64_t kernel_lost(const struct xskf_worker *w, uint64_t *full)
{
	int (*drops)(const struct xskf_sock *, uint64_t *, uint64_t *) = w->eng->be->drops;
	uint64_t lost = 0, ring_full, dropped;
	unsigned int i;

	*full = 0;
	for (i = 0; drops && i < w->nr_socks; i++)
		if (!drops(w->socks[i], &ring_full, &dropped)) {
			*full += ring_full;
			lost += ring_full + dropped;
		}
	return lost;
}

/*
 * After a wake-up: count what the kernel dropped while the worker slept (lost_asleep), and
 * grow or shrink the spin bound by whether frames were lost to a full ring (SPIN_MAX_X).
 */
static void after_sleep(struct xskf_worker *w)
{
	struct xskf_idle_state *id = &w->idle;
	uint64_t full, lost = kernel_lost(w, &full);

	if (lost > id->k_lost)
		__atomic_store_n(&id->lost_asleep, id->lost_asleep + lost - id->k_lost,
				 __ATOMIC_RELAXED);
	if (!id->spin_min_ns)
		return; /* --idle sleep: never spins */
	if (full != id->ring_full && id->spin_ns < id->spin_min_ns * SPIN_MAX_X)
		id->spin_ns *= 2;
	else if (full == id->ring_full && id->spin_ns > id->spin_min_ns)
		id->spin_ns /= 2;
	id->ring_full = full;
}

/* Returns false when the backend said frames are there to take: no sleep, nothing counted. */
static bool idle_sleep(struct xskf_worker *w, int timeout_ms, bool rcu)
{
	struct xskf_idle_state *id = &w->idle;
	uint64_t t, v, full;
	int r;

	/*
	 * The kernel's drops so far: those from here to the wake-up are the sleep's (frames a
	 * wake-up in time would have saved). Read before the clock, so that the syscall counts
	 * as busy time, as it is.
	 */
	id->k_lost = kernel_lost(w, &full);
	t = xskf_now_ns();
	id->sleep_since = t;
	if (rcu)
		rcu_thread_offline();
	r = w->eng->be->wait(w, timeout_ms);
	if (rcu)
		rcu_thread_online();
	if (r == -EAGAIN) {
		id->sleep_since = 0;
		return false;
	}
	if (id->pfd[0].revents & POLLIN && read(id->efd, &v, sizeof(v)) < 0) {
		/* EAGAIN: someone else's wake was read already */
	}
	id->asleep_ns += xskf_now_ns() - t;
	id->sleep_since = 0;
	id->wakeups++;
	after_sleep(w);
	return true;
}

/*
 * @w's progress so far: frames its sockets received, or for a TX-only app frames they put on
 * their TX rings. A change means the stretch of empty rounds ended.
 */
static uint64_t progress(const struct xskf_worker *w, bool tx_only)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < w->nr_socks; i++)
		n += tx_only ? w->socks[i]->tx.cached_prod : w->socks[i]->c.rx_packets;
	return n;
}

void xskf_idle__empty(struct xskf_worker *w, bool draining, bool rcu, bool tx_only)
{
	struct xskf_idle_state *id = &w->idle;
	uint64_t seen;
	int timeout = tx_only ? IDLE_SHORT_MS : -1;
	unsigned int i;

	if (!id->on)
		return; /* --idle busy: today's loop */
	/* a TX-only app's rounds with frames built do not come here: count what it sent */
	seen = progress(w, tx_only);
	if (seen != id->seen) {
		/* frames came since the last empty round: a new stretch */
		id->seen = seen;
		id->empty = 0;
		id->woke = false;
	} else if (id->woke) {
		id->empty_wakeups++;
		id->woke = false;
		id->empty = 0;
	}
	if (draining)
		return;
	if (id->spin_ns) {
		uint64_t now;

		if (++id->empty & 63)
			return;
		now = xskf_now_ns();
		if (id->empty == 64) {
			id->spin_since = now;
			return;
		}
		if (id->empty > (1u << 30))
			id->empty = 64;
		if (now - id->spin_since < id->spin_ns)
			return;
	}
	for (i = 0; i < w->nr_socks; i++) {
		const struct xskf_sock *s = w->socks[i];

		/* staged frames go out on the next round (an empty round flushes them) */
		if (xskf_sock__staged(s))
			return;
		if (xskf_sock__tx_out(s))
			timeout = IDLE_SHORT_MS;
	}
	if (!idle_sleep(w, timeout, rcu))
		return; /* frames to take: the next look is 64 empty rounds on */
	id->empty = 0;
	id->woke = true;
}

void xskf_idle__say(struct xskf_engine *eng)
{
	const struct xskf_engine_opts *o = &eng->o;
	char help[768] = "";
	const char *wait = xskf_idle__epoll(eng) ? "epoll_wait()" : "poll()";

	if (eng->be->idle_help)
		eng->be->idle_help(eng, help, sizeof(help));
	if (o->idle == XSKF_IDLE_BUSY)
		pr_info("idle busy: workers poll without sleeping%s%s\n", help[0] ? "; " : "", help);
	else if (o->idle == XSKF_IDLE_SLEEP)
		pr_info("idle sleep: workers sleep in %s at the first round without frames%s%s\n",
			wait, help[0] ? "; " : "", help);
	else
		pr_info("idle adaptive: workers poll while frames come, sleep in %s after %u us "
			"without any%s%s\n",
			wait, o->idle_spin_us, help[0] ? "; " : "", help);
}

int xskf_engine__idle_stats(const struct xskf_engine *eng, unsigned int worker,
			    struct xskf_idle_stats *st)
{
	const struct xskf_idle_state *id;
	uint64_t now, since, end, asleep, t0;
	size_t sz;

	if (!st || st->sz < sizeof(size_t))
		return -EINVAL;
	if (!eng || worker >= eng->nr_workers)
		return -ENOENT;
	sz = st->sz < sizeof(*st) ? st->sz : sizeof(*st);
	memset(st, 0, sz);
	st->sz = sz;
	id = &eng->workers[worker].idle;
	/* one writer (the worker); the reads may straddle its update: clamp, never negative */
	t0 = __atomic_load_n(&id->t0, __ATOMIC_ACQUIRE);
	if (!t0)
		return 0;
	end = __atomic_load_n(&id->t_end, __ATOMIC_ACQUIRE);
	now = end ? end : xskf_now_ns();
	asleep = __atomic_load_n(&id->asleep_ns, __ATOMIC_RELAXED);
	since = __atomic_load_n(&id->sleep_since, __ATOMIC_RELAXED);
	if (since && since < now)
		asleep += now - since;
	if (asleep > now - t0)
		asleep = now - t0;
	st->asleep_ns = asleep;
	st->busy_ns = now - t0 - asleep;
	st->wakeups = __atomic_load_n(&id->wakeups, __ATOMIC_RELAXED);
	if (sz > offsetof(struct xskf_idle_stats, empty_wakeups))
		st->empty_wakeups = __atomic_load_n(&id->empty_wakeups, __ATOMIC_RELAXED);
	if (sz > offsetof(struct xskf_idle_stats, lost_asleep))
		st->lost_asleep = __atomic_load_n(&id->lost_asleep, __ATOMIC_RELAXED);
	return 0;
}

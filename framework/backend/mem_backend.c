// SPDX-License-Identifier: BSD-2-Clause
/*
 * The memory backend: the worker's real per-packet path (worker.c, ring_ops.h) against rings in
 * plain memory, with a stand-in for the kernel on the same thread, in the manner of DPDK's null
 * PMD or CNDP's null device. It measures what xskf itself costs per packet, apart from the
 * kernel's copy path: the stand-in moves descriptors from fill to RX (the frames are written
 * once, at start) and from TX to completion, and nothing else. No socket, no XDP program, no
 * syscall on the way.
 *
 * The stand-in's own work is in xskf_mem__kernel(), kept out of line so that a profile
 * (callgrind) shows it apart from the framework's.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>

#include "core/mem_opts.h"
#include "core/features_off.h" /* the XDP backend's switch: XSKF_FEATURES_OFF */
#include "core/backend.h"
#include "core/clock.h"
#include "core/hints_in.h"
#include "core/ring_ops.h"
#include "core/sw_meta.h"
#include "core/tx_meta.h"
#include "counters.h" /* util/: xc_mem, the memory backend's rows */

/* One ring's shared words, each in its own cache line as the kernel lays them out. */
struct mem_ring_words {
	uint32_t producer __attribute__((aligned(64)));
	uint32_t consumer __attribute__((aligned(64)));
	uint32_t flags __attribute__((aligned(64)));
};

struct xskf_mem_rings {
	struct mem_ring_words w[4]; /* fill, rx, tx, comp */
	void *slots[4];
	/* a frame of this port's own (nr_mem_port_frames), copied in at each receive */
	const uint8_t *frame;
	uint32_t len;
	bool silent; /* this port receives nothing */
	bool meta_on;
	struct xskf_meta meta;
	uint64_t rx; /* frames the stand-in received: the program's redirected */
};

/* A worker's (w->be_priv, allocated by prime(), freed by fini()) */
struct xskf_mem_worker {
	uint64_t left;    /* frames its stand-in still makes */
	uint64_t busy_ns; /* and how long the worker took for all of them */
	uint64_t t0;      /* when its stand-in first ran */
	bool finished;    /* all its frames made and back: it waits for the stop */
} __attribute__((aligned(64))); /* each worker writes its own: no line shared */

/* The memory backend's state of an engine (eng->be_priv) */
struct xskf_mem_engine {
	struct xskf_mem_opts o;
	atomic_uint finished; /* its workers that received all their frames */
	uint32_t len;         /* the frames' length */
};

static struct xskf_mem_engine *mem_of(const struct xskf_engine *eng)
{
	return eng->be_priv;
}

static struct xskf_mem_worker *mem_worker(const struct xskf_worker *w)
{
	return w->be_priv;
}

static struct xskf_mem_rings *mem_rings(const struct xskf_sock *s)
{
	return s->be_priv;
}

static void ring_init(void *ring, struct mem_ring_words *k, void *slots, uint32_t size,
		      bool producer)
{
	xskf_ring__init(ring, &k->producer, &k->consumer, &k->flags, slots, size, producer);
}

static void mem_close_sock(struct xskf_sock *s);

/*
 * Where the hints go (core/hints_in.h), the stand-in playing the XDP program of a kernel whose
 * answers XSKF_FEATURES_OFF gives (it has no kernel to ask): adjust_meta off, the meta in the
 * headroom, each RX descriptor starting at it (xskf_mem__kernel()); adjust_head off too, or
 * disp_pkt_data, or --hints-in userspace: no meta written, the RX path computes it. The same
 * choice and the same RX path as the XDP backend's, so that callgrind counts each way.
 */
static int hints_where(struct xskf_engine *eng)
{
	struct xskf_hints_in_facts f = {
		.adjust_meta = xskf_features__forced_off("adjust_meta") ? -ECANCELED : 0,
		.adjust_head = xskf_features__forced_off("adjust_head") ? -ECANCELED : 0,
		.disp_pkt_data = xskf_features__forced_off("disp_pkt_data") ? -ECANCELED : 0,
		.dispatcher = !eng->o.xdp_alone,
	};
	char why[160];
	int in;

	if (eng->o.no_hints)
		return 0;
	in = xskf_hints_in__choose(eng->o.hints_in, &f, why, sizeof(why));
	if (in < 0) {
		pr_warn("RX hints: %s: use --hints-in auto or userspace\n", why);
		return in;
	}
	/* said once, by the first socket's set-up (the choice is the same for all) */
	if (!eng->hints_head && !eng->hints_user)
		xskf_hints_in__say(in, why);
	eng->hints_head = in == XSKF_HINTS_IN_HEADROOM;
	eng->hints_user = in == XSKF_HINTS_IN_USERSPACE;
	return 0;
}

static int mem_open_sock(struct xskf_worker *w, struct xskf_sock *s, unsigned int idx)
{
	const struct xskf_engine_opts *o = &w->eng->o;
	const struct xskf_mem_opts *mo = &mem_of(w->eng)->o;
	const uint32_t sizes[4] = { o->fill_size, o->rx_size, o->tx_size, o->comp_size };
	const size_t slot[4] = { sizeof(uint64_t), sizeof(struct xdp_desc), sizeof(struct xdp_desc),
				 sizeof(uint64_t) };
	struct xskf_mem_rings *m;
	unsigned int i;
	int err;

	(void)idx;
	/* before the port frames' meta below: in userspace, the RX path writes it */
	err = hints_where(w->eng);
	if (err)
		return err;
	if (posix_memalign((void **)&m, 64, sizeof(*m)))
		return -ENOMEM;
	memset(m, 0, sizeof(*m));
	s->be_priv = m;
	for (i = 0; i < 4; i++) {
		if (posix_memalign(&m->slots[i], 64, sizes[i] * slot[i])) {
			mem_close_sock(s);
			return -ENOMEM;
		}
		memset(m->slots[i], 0, sizes[i] * slot[i]);
	}
	ring_init(&s->fill, &m->w[0], m->slots[0], sizes[0], true);
	ring_init(&s->rx, &m->w[1], m->slots[1], sizes[1], false);
	ring_init(&s->tx, &m->w[2], m->slots[2], sizes[2], true);
	ring_init(&s->comp, &m->w[3], m->slots[3], sizes[3], false);
	if (s->port->idx < mo->nr_port_frames) {
		m->frame = mo->port_frames[s->port->idx];
		m->len = m->frame ? mo->port_frame_lens[s->port->idx] : 0;
		m->silent = !m->frame;
		/* hints computed in userspace: the RX path writes the meta (hints_where()) */
		m->meta_on = !o->no_hints && !w->eng->hints_user;
		if (m->frame)
			xskf_sw_meta(m->frame, m->len, &m->meta);
	}
	s->fd = -1;
	/* the stand-in needs no kick: as a zero-copy driver that never asks for a wakeup */
	s->zerocopy = true;
	/* multi-buffer frames: as a copy-mode socket bound with XDP_USE_SG (18 buffers per frame on
	 * TX) */
	if (mo->segs > 1) {
		if (!(w->eng->app.flags & XSKF_APP_F_FRAGS)) {
			pr_warn("--mem-segs %u: the app does not take multi-buffer frames "
				"(XSKF_APP_F_FRAGS): use --mem-segs 1\n",
				mo->segs);
			mem_close_sock(s);
			return -EINVAL;
		}
		w->eng->sg = true;
		w->eng->sg_segs = mo->segs;
		w->eng->tx_segs_copy = 18;
	}
	s->sg = w->eng->sg;
	s->tx_max_segs = s->sg ? (uint8_t)w->eng->tx_segs_copy : 1;
	/* a NIC that finishes checksums (its work, not xskf's: nothing of it is measured) */
	if (w->umem.tx_meta_want)
		s->txmd_how[0] = XSKF_TXH_DEVICE;
	return 0;
}

static void mem_close_sock(struct xskf_sock *s)
{
	struct xskf_mem_rings *m = mem_rings(s);
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < 4; i++)
		free(m->slots[i]);
	free(m);
	s->be_priv = NULL;
}

/* A 60-byte IPv4/UDP frame (64 on the wire), 192.0.2.1:1024 -> 192.0.2.2:9, valid checksums. */
static const uint8_t default_frame[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb6, 0xbb, 0xc0, 0x00,
	0x02, 0x01, 0xc0, 0x00, 0x02, 0x02, 0x04, 0x00, 0x00, 0x09, 0x00, 0x1a, 0x00, 0x00,
};

static int mem_prime(struct xskf_worker *w)
{
	struct xskf_engine *eng = w->eng;
	const struct xskf_engine_opts *o = &eng->o;
	const struct xskf_mem_opts *mo = &mem_of(eng)->o;
	const uint8_t *frame = mo->frame ? mo->frame : default_frame;
	uint32_t len = mo->frame ? mo->frame_len : sizeof(default_frame);
	uint32_t off = eng->rx_data_off, i;
	struct xskf_umem *um = &w->umem;
	struct xskf_meta meta;

	for (i = 0; i <= mo->nr_port_frames; i++) {
		uint32_t l = i < mo->nr_port_frames ? mo->port_frame_lens[i] : len;

		if (i < mo->nr_port_frames && !mo->port_frames[i])
			continue;
		if (!l || off + l > um->frame_size) {
			pr_warn("memory backend: a %u-byte frame does not fit a %u-byte UMEM frame "
				"after %u bytes of headroom\n",
				l, um->frame_size, off);
			return -EINVAL;
		}
	}
	xskf_sw_meta(frame, len, &meta);
	for (i = 0; i < um->nr_frames; i++) {
		uint8_t *chunk = (uint8_t *)um->area + (uint64_t)i * um->frame_size;

		memcpy(chunk + off, frame, len);
		/* hints computed in userspace: the RX path writes the meta, as on an interface */
		if (!o->no_hints && !eng->hints_user)
			memcpy(chunk + off - sizeof(meta), &meta, sizeof(meta));
	}
	mem_of(eng)->len = len;
	if (posix_memalign(&w->be_priv, 64, sizeof(struct xskf_mem_worker)))
		return -ENOMEM;
	memset(w->be_priv, 0, sizeof(struct xskf_mem_worker));
	mem_worker(w)->left = mo->frames ? mo->frames : UINT64_MAX;
	return 0;
}

/*
 * The kernel's side of the worker's sockets, once per loop iteration: up to @batch frames from
 * each fill ring into its RX ring (their bytes are already in place), and every TX descriptor
 * into the completion ring. It stops making RX frames once its worker's left is used up, and while
 * the worker drains (as an interface does once its XDP program is detached).
 */
static void xskf_mem__kernel(struct xskf_worker *w, uint32_t batch, bool rx)
{
	struct xskf_engine *eng = w->eng;
	struct xskf_mem_worker *mw = mem_worker(w);
	uint32_t off = eng->rx_data_off, len = mem_of(eng)->len;
	uint32_t segs = mem_of(eng)->o.segs > 1 ? mem_of(eng)->o.segs : 1;
	uint32_t head = eng->hints_head ? (uint32_t)sizeof(struct xskf_meta) : 0;
	unsigned int i;

	if (!mw->t0)
		mw->t0 = xskf_now_ns();
	if (mw->finished) {
		/* nothing more will come: wait for the stop without spinning, so that a profile
		 * counts the packets' work, not idle polls */
		struct timespec ts = { .tv_nsec = 1000 * 1000 };

		nanosleep(&ts, NULL);
		return;
	}
	if (!mw->left && xskf_worker__drained(w)) {
		/* the last worker through its frames stops the engine */
		mw->finished = true;
		mw->busy_ns = xskf_now_ns() - mw->t0;
		if (atomic_fetch_add(&mem_of(eng)->finished, 1) + 1 == eng->nr_workers)
			atomic_store(&eng->stop, true);
		return;
	}

	for (i = 0; i < w->nr_socks; i++) {
		struct xskf_sock *s = w->socks[i];
		struct xskf_mem_rings *m = mem_rings(s);
		struct mem_ring_words *fill = &m->w[0], *rxw = &m->w[1], *tx = &m->w[2];
		struct mem_ring_words *comp = &m->w[3];
		const uint64_t *fslots = m->slots[0];
		struct xdp_desc *rslots = m->slots[1];
		const struct xdp_desc *tslots = m->slots[2];
		uint64_t *cslots = m->slots[3];
		uint32_t n, j;

		/* TX -> completion: the plain-memory rings are this thread's: no barriers needed */
		n = tx->producer - tx->consumer;
		j = comp->consumer + s->comp.size - comp->producer;
		if (n > j)
			n = j;
		for (j = 0; j < n; j++)
			cslots[(comp->producer + j) & s->comp.mask] =
			    tslots[(tx->consumer + j) & s->tx.mask].addr;
		tx->consumer += n;
		comp->producer += n;

		if (!rx || m->silent)
			continue;
		n = fill->producer - fill->consumer;
		j = rxw->consumer + s->rx.size - rxw->producer;
		if (n > j)
			n = j;
		if (n > batch * segs)
			n = batch * segs;
		/* n descriptors: with --mem-segs, whole frames of segs */
		n -= n % segs;
		if (n / segs > mw->left)
			n = (uint32_t)mw->left * segs;
		for (j = 0; j < n; j++) {
			struct xdp_desc *d = &rslots[(rxw->producer + j) & s->rx.mask];

			d->addr = fslots[(fill->consumer + j) & s->fill.mask] + off;
			d->len = len;
			d->options = segs > 1 && (j + 1) % segs ? XDP_PKT_CONTD : 0;
			if (m->frame && j % segs == 0) {
				/* a port frame of its own: the shared UMEM's frames move between
				 * ports, and apps rewrite them, so it is written at each receive */
				uint8_t *p = (uint8_t *)w->umem.area + d->addr;

				memcpy(p, m->frame, m->len);
				if (m->meta_on)
					memcpy(p - sizeof(m->meta), &m->meta, sizeof(m->meta));
				d->len = m->len;
			}
			if (head && j % segs == 0) {
				d->addr -= head;
				d->len += head;
			}
		}
		fill->consumer += n;
		rxw->producer += n;
		m->rx += n / segs;
		mw->left -= n / segs;
	}
}

/* The backend's set_opts(): --mem-frames and --mem-frame (core/mem_opts.h), copied. */
static int mem_set_opts(struct xskf_engine *eng, const void *opts, size_t sz)
{
	const struct xskf_mem_opts *mo = opts;

	if (sz != sizeof(*mo))
		return -EINVAL;
	if (mo->nr_port_frames > XSKF_MAX_PORTS ||
	    (mo->nr_port_frames && (!mo->port_frames || !mo->port_frame_lens))) {
		pr_warn("memory backend: %u per-port frames without their array (at most %u)\n",
			mo->nr_port_frames, XSKF_MAX_PORTS);
		return -EINVAL;
	}
	mem_of(eng)->o = *mo;
	return 0;
}

/* A port of the memory backend is a name and queue ids (default: queue 0); any queue id is
 * valid, as on an interface with XSKF_MAX_QUEUES queues. */
static int mem_add_port(struct xskf_engine *eng, struct xskf_port *p, const char *name,
			const uint32_t *queues, unsigned int nr_queues)
{
	unsigned int i, j;

	if (strlen(name) >= IF_NAMESIZE || nr_queues > XSKF_MAX_QUEUES)
		return -EINVAL;
	p->numa_node = -1;
	p->nr_hw_queues = XSKF_MAX_QUEUES;
	p->nr_queues = nr_queues ? nr_queues : 1;
	for (i = 0; i < p->nr_queues; i++) {
		p->queues[i] = nr_queues ? queues[i] : 0;
		for (j = 0; j < i; j++)
			if (p->queues[j] == p->queues[i] || p->queues[i] >= XSKF_MAX_QUEUES)
				return -EINVAL;
	}
	for (i = 0; i < eng->nr_ports; i++)
		if (!strcmp(eng->ports[i].name, p->name))
			return -EINVAL;
	return 0;
}

/* The stand-in plays the XDP program: what it put on the RX ring. No kernel counters. */
static void mem_kstats(const struct xskf_sock *s, struct xskf_queue_stats *st)
{
	const struct xskf_mem_rings *m = mem_rings(s);

	st->prog_redirected = m ? m->rx : 0;
}

/* A memory port: the MAC its frames are addressed to (default_frame), always up. */
static int mem_port_info(const struct xskf_engine *eng, const struct xskf_port *p,
			 struct xskf_port_info *pi)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };

	(void)eng;
	memcpy(pi->mac, mac, sizeof(mac));
	pi->mac[5] += (uint8_t)p->idx;
	pi->mtu = 1500;
	pi->up = pi->running = true;
	return 0;
}

static const char *mem_sock_mode(const struct xskf_sock *s)
{
	(void)s;
	return "memory backend";
}

static void mem_port_mode(const struct xskf_port *p, const char **attach, const char **redirect)
{
	(void)p;
	*attach = "none";
	*redirect = "memory";
}

/* How long each worker took for its --mem-frames (0: it did not finish them): xc_mem's rows. */
static void mem_json(struct xskf_engine *eng, struct xjw *w)
{
	unsigned int i;

	xjw_arr(w, "memory_backend", NULL);
	for (i = 0; i < eng->nr_workers; i++) {
		const struct xskf_mem_worker *mw = mem_worker(&eng->workers[i]);
		struct xc_mem m = { .frames = mem_of(eng)->o.frames, .busy_ns = mw ? mw->busy_ns : 0 };

		xjw_obj(w, NULL, NULL);
		xjw_u64(w, "worker", i);
		xc_json(w, &xc_mem, &m);
		xjw_end(w, NULL);
	}
	xjw_end(w, NULL);
}

/*
 * Idle: the stand-in makes frames only when the worker runs it. Until it is done with them for
 * a port that receives, they are there to take (a kernel would wake the poller at once: a round
 * can be empty with frames coming, e.g. a multi-buffer frame held back until its last buffer is
 * made), so the worker must not sleep: -EAGAIN. Else nothing is coming: it waits for its eventfd (a
 * stop) or the timeout.
 */
static int mem_wait(struct xskf_worker *w, int timeout_ms)
{
	unsigned int i;

	/* until it is finished: with its last frames made, its next step sees them all back */
	if (!mem_worker(w)->finished)
		for (i = 0; i < w->nr_socks; i++)
			if (!mem_rings(w->socks[i])->silent)
				return -EAGAIN;
	return poll(w->idle.pfd, 1, timeout_ms);
}

/* What only a NIC gives: said in one line (xskf_engine__new()). */
static int mem_check(const struct xskf_engine_opts *o)
{
	if (o->napi) {
		pr_warn("--napi sets a device's NAPIs: the memory backend has none (drop "
			"--napi)\n");
		return -EINVAL;
	}
	if (o->pin_dir || o->serve || o->serve_uds || o->xsk_map || o->xsk_map_uds) {
		pr_warn("--pin-dir, --serve, --serve-uds, --xsk-map and --xsk-map-uds share an "
			"interface's maps: the memory backend has none (drop them)\n");
		return -EINVAL;
	}
	if (o->busy_poll) {
		pr_warn("busy polling needs a NIC: the memory backend has none (drop -B)\n");
		return -EINVAL;
	}
	return 0;
}

static int mem_init(struct xskf_engine *eng)
{
	eng->be_priv = calloc(1, sizeof(struct xskf_mem_engine));
	return eng->be_priv ? 0 : -ENOMEM;
}

static void mem_fini(struct xskf_engine *eng)
{
	unsigned int i;

	for (i = 0; eng->workers && i < eng->nr_workers; i++) {
		free(eng->workers[i].be_priv);
		eng->workers[i].be_priv = NULL;
	}
	free(eng->be_priv);
	eng->be_priv = NULL;
}

/* No capabilities, no wakeups, no program: no preflight, attach, detach or watch. */
const struct xskf_backend_ops xskf_backend_mem = {
	.name = "memory",
	.check = mem_check, .set_opts = mem_set_opts, .init = mem_init, .fini = mem_fini,
	/* start and stop */
	.add_port = mem_add_port, .open_sock = mem_open_sock, .prime = mem_prime,
	.close_sock = mem_close_sock,
	/* the worker's loop: the kernel's side, played here */
	.step = xskf_mem__kernel, .wait = mem_wait,
	/* what the control thread asks */
	.kstats = mem_kstats, .port_info = mem_port_info,
	.sock_mode = mem_sock_mode, .port_mode = mem_port_mode, .json = mem_json,
};

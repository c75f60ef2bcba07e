// SPDX-License-Identifier: BSD-2-Clause
/*
 * Live capture switched on and off (capture.h): the rings published, then each socket's burst
 * function swapped for its capture twin (burst.c); the other way round at stop. Apart from
 * capture.c, whose xskf_capture__burst() the twins call, so that the two files do not call
 * each other. The order and why it is safe: capture.c's head comment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

#include "core/burst.h"
#include "core/capture.h"
#include "core/compiler.h"
#include "core/engine.h"
#include "core/worker.h"

int xskf_capture__start(struct xskf_engine *eng, const struct xskf_cap_filter *f)
{
	static uint32_t gen;
	unsigned int i;

	if (!f->dirs || f->dirs & ~3u || !f->snaplen || f->snaplen > 65535 ||
	    (f->port >= 0 && (unsigned int)f->port >= eng->nr_ports))
		return -EINVAL;
	gen++;
	for (i = 0; i < eng->nr_workers; i++) {
		struct xskf_worker *w = &eng->workers[i];
		struct xskf_cap_ring *r = w->cap_ring;

		if (!r) {
			r = aligned_alloc(XSKF_CACHE_LINE, sizeof(*r));
			if (!r)
				return -ENOMEM;
			memset(r, 0, offsetof(struct xskf_cap_ring, rec));
			w->cap_ring = r;
		}
		r->f = *f;
		if (r->f.snaplen > XSKF_CAP_DATA)
			r->f.snaplen = XSKF_CAP_DATA;
		r->gen = gen;
		atomic_store(&r->drops, 0);
		/* what an earlier capture left is skipped by its generation, not emptied here:
		 * the head is the reader's alone */
	}
	for (i = 0; i < eng->nr_workers; i++)
		atomic_store(&eng->workers[i].cap, eng->workers[i].cap_ring);
	/* then the sockets' burst functions with the capture around the app (burst.c) */
	xskf_burst__capture(eng, true);
	return 0;
}

void xskf_capture__stop(struct xskf_engine *eng)
{
	unsigned int i;

	xskf_burst__capture(eng, false);
	for (i = 0; i < eng->nr_workers; i++)
		atomic_store(&eng->workers[i].cap, NULL);
	for (i = 0; i < eng->nr_workers; i++)
		while (atomic_load(&eng->workers[i].cap_busy))
			sched_yield(); /* one burst's copies at most */
}

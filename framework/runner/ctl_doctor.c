// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket's "doctor" answer: what `xskfctl doctor` needs to explain a loss that the
 * stats document does not hold. Small and read-only: the sizes the run chose, where its workers
 * run, and the backend's own part (backend/xdp/doctor/doctor_live.c). xskfctl-doctor(1) documents it.
 */
#include <stdio.h>

#include "core/backend.h"
#include "core/engine.h"
#include "core/worker.h"
#include "runner/ctl.h"
#include "json.h" /* util/: the JSON writer */

void xskf_ctl__doctor(FILE *f, struct xskf_engine *eng)
{
	const struct xskf_engine_opts *o = &eng->o;
	unsigned int i;
	struct xjw w;

	xjw__init(&w, f);
	xjw_obj(&w, NULL, NULL);
	xjw_u64(&w, "doctor", 1);
	xjw_obj(&w, "rings", NULL);
	xjw_u64(&w, "rx", o->rx_size);
	xjw_u64(&w, "tx", o->tx_size);
	xjw_u64(&w, "fill", o->fill_size);
	xjw_u64(&w, "comp", o->comp_size);
	xjw_u64(&w, "frame_size", o->frame_size);
	xjw_u64(&w, "batch", o->batch);
	xjw_end(&w, NULL);
	xjw_break(&w, "\n ");
	xjw_obj(&w, "busy_poll", NULL);
	xjw_bool(&w, "asked", o->busy_poll);
	xjw_bool(&w, "on", eng->busy_poll);
	xjw_end(&w, NULL);
	xjw_str(&w, "idle", xskf_idle__name(o->idle));
	xjw_break(&w, "\n ");
	xjw_arr(&w, "workers", NULL);
	for (i = 0; i < eng->nr_workers; i++) {
		xjw_obj(&w, NULL, NULL);
		xjw_u64(&w, "worker", i);
		xjw_i64(&w, "cpu", eng->workers[i].cpu);
		xjw_u64(&w, "umem_frames", eng->workers[i].umem.nr_frames);
		xjw_u64(&w, "sockets", eng->workers[i].nr_socks);
		xjw_end(&w, NULL);
	}
	xjw_end(&w, NULL);
	/* the backend's members, each after a comma (backend/xdp/doctor/doctor_live.c) */
	if (eng->be->doctor)
		eng->be->doctor(eng, f);
	xjw_end(&w, NULL);
	fputc('\n', f);
	fflush(f);
}

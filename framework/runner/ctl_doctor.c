// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket's "doctor" answer: what `xskfctl doctor` needs to explain a loss that the
 * stats document does not hold. Small and read-only: the sizes the run chose, where its workers
 * run, and the backend's own part (backend/xdp/doctor_live.c). xskfctl-doctor(1) documents it.
 */
#include <stdio.h>

#include "core/backend.h"
#include "core/engine.h"
#include "core/worker.h"
#include "runner/ctl.h"

void xskf_ctl__doctor(FILE *f, struct xskf_engine *eng)
{
	const struct xskf_engine_opts *o = &eng->o;
	unsigned int i;

	fprintf(f,
		"{\"doctor\": 1, \"rings\": {\"rx\": %u, \"tx\": %u, \"fill\": %u, \"comp\": %u, "
		"\"frame_size\": %u, \"batch\": %u},\n \"busy_poll\": {\"asked\": %s, \"on\": %s}, "
		"\"idle\": \"%s\",\n \"workers\": [",
		o->rx_size, o->tx_size, o->fill_size, o->comp_size, o->frame_size, o->batch,
		o->busy_poll ? "true" : "false", eng->busy_poll ? "true" : "false",
		xskf_idle__name(o->idle));
	for (i = 0; i < eng->nr_workers; i++)
		fprintf(f, "%s{\"worker\": %u, \"cpu\": %d, \"umem_frames\": %u, \"sockets\": %u}",
			i ? ", " : "", i, eng->workers[i].cpu, eng->workers[i].umem.nr_frames,
			eng->workers[i].nr_socks);
	fprintf(f, "]");
	if (eng->be->doctor)
		eng->be->doctor(eng, f);
	fprintf(f, "}\n");
	fflush(f);
}

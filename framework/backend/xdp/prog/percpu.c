// SPDX-License-Identifier: BSD-2-Clause
/*
 * Per-CPU map values set to zero: the program's queue counters, steering's hit and queue
 * counters, when a table, a queue or a slot starts over (prog.c, prog_share.c, steer.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/prog/percpu.h"

int xskf_percpu__zero(int fd, uint32_t first, uint32_t n, size_t size)
{
	int ncpu = libbpf_num_possible_cpus(), err = 0;
	uint32_t k;
	void *z;

	if (ncpu < 0)
		return ncpu;
	z = calloc((size_t)ncpu, size);
	if (!z)
		return -ENOMEM;
	for (k = first; k < first + n; k++)
		if (bpf_map_update_elem(fd, &k, z, 0) && !err)
			err = -errno;
	free(z);
	return err;
}

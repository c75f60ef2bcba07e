// SPDX-License-Identifier: BSD-2-Clause
/*
 * One XSKMAP per served queue (--serve; bpf/xskf_serve.bpf.h): the map a served app gets,
 * pinned (pin.c) or by the device-plugin socket (dp_uds.c), holds nothing but its own queue's
 * socket; the program finds it in the map of maps xskf_served at the queue's index, and reads
 * it at that key alone. Made after the program is loaded, by the run that loaded it (a run
 * that joins another's program serves nothing: prog_share.c); taken out of xskf_served when
 * the run leaves, so an app that still holds its fd then reaches nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/xdp/xdp_state.h"
#include "core/log.h"
#include "xskf_prog.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/serve/serve_maps.h"

static int outer_fd(const struct xskf_port *p)
{
	return bpf_map__fd(xskf_xdp_port(p)->skel->maps.xskf_served);
}

int xskf_serve_maps__make(struct xskf_port *p)
{
	struct xskf_xdp_port *x = xskf_xdp_port(p);
	char name[BPF_OBJ_NAME_LEN];
	unsigned int i;
	int fd, err;

	for (i = x->nr_served_maps; i < x->nr_served; i++) {
		snprintf(name, sizeof(name), "xskf_q%u", x->served[i]);
		/* the inner template's shape (xskf_serve_inner), or the kernel refuses it */
		fd = bpf_map_create(BPF_MAP_TYPE_XSKMAP, name, sizeof(uint32_t), sizeof(uint32_t),
				    XSKF_PROG_MAX_QUEUES, NULL);
		if (fd < 0 || bpf_map_update_elem(outer_fd(p), &x->served[i], &fd, 0)) {
			err = -errno;
			if (fd >= 0)
				close(fd);
			pr_warn("%s: cannot make the XSKMAP of served queue %u: %s\n", p->name,
				x->served[i], strerror(-err));
			xskf_serve_maps__drop(p);
			return err;
		}
		x->served_map[i] = fd;
		x->nr_served_maps = i + 1;
	}
	return 0;
}

void xskf_serve_maps__drop(struct xskf_port *p)
{
	struct xskf_xdp_port *x = xskf_xdp_port(p);
	unsigned int i;

	for (i = 0; i < x->nr_served_maps; i++) {
		if (x->skel)
			bpf_map_delete_elem(outer_fd(p), &x->served[i]);
		close(x->served_map[i]);
	}
	x->nr_served_maps = 0;
}

int xskf_serve_maps__fd(const struct xskf_port *p, uint32_t q)
{
	const struct xskf_xdp_port *x = xskf_xdp_port(p);
	unsigned int i;

	for (i = 0; i < x->nr_served_maps; i++)
		if (x->served[i] == q)
			return x->served_map[i];
	return -1;
}

bool xskf_serve_maps__in_use(const struct xskf_port *p, uint32_t map_id)
{
	uint32_t q, id;

	if (!map_id || !xskf_xdp_port(p)->skel)
		return false;
	/* an array of maps looked up from user space gives the inner map's id */
	for (q = 0; q < XSKF_PROG_MAX_QUEUES; q++)
		if (!bpf_map_lookup_elem(outer_fd(p), &q, &id) && id == map_id)
			return true;
	return false;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XSKMAP of each queue served to other AF_XDP apps (serve_maps.c).
 */
#ifndef XSKF_BACKEND_XDP_SERVE_MAPS_H
#define XSKF_BACKEND_XDP_SERVE_MAPS_H

#include <stdbool.h>
#include <stdint.h>

struct xskf_port;

/*
 * Served queues' XSKMAPs (serve_maps.c). make: one per served queue, entered in the program's
 * xskf_served (after load, by the run that loaded it): 0, or -errno said, none left. drop:
 * out of xskf_served and closed (any time, again). fd: served queue @q's map, or -1. in_use:
 * is map @map_id the XSKMAP of a queue the program serves now?
 */
int xskf_serve_maps__make(struct xskf_port *p);
void xskf_serve_maps__drop(struct xskf_port *p);
int xskf_serve_maps__fd(const struct xskf_port *p, uint32_t q);
bool xskf_serve_maps__in_use(const struct xskf_port *p, uint32_t map_id);

#endif /* XSKF_BACKEND_XDP_SERVE_MAPS_H */

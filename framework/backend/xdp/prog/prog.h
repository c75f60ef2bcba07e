/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XDP program of a port (prog.c): checked before set-up, the kernel's BTF read once per
 * run, loaded, attached (alone, through libxdp's dispatcher, or joined to a live run's),
 * fed the sockets, read for counters, detached. Thread: the control thread unless said.
 */
#ifndef XSKF_BACKEND_XDP_PROG_H
#define XSKF_BACKEND_XDP_PROG_H

#include <stddef.h>
#include <stdint.h>

struct xskf_engine;
struct xskf_port;

int xskf_prog__preflight(struct xskf_engine *eng, struct xskf_port *port);
/*
 * xskf_prog__probe_kernel() - read the kernel's BTF once per run: the hint kfuncs, the
 * redirect tier, multi-buffer AF_XDP (eng->kernel_sg). 0 or -errno (said in one line).
 */
int xskf_prog__probe_kernel(struct xskf_engine *eng);
int xskf_prog__setup(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__attach(struct xskf_engine *eng, struct xskf_port *port);
int xskf_prog__set_xsk(struct xskf_port *port, uint32_t queue, int xsk_fd);
void xskf_prog__detach(struct xskf_port *port);
void xskf_prog__teardown(struct xskf_port *port);
int xskf_prog__counters(struct xskf_port *port, uint32_t queue, uint64_t out[3]);
/*
 * xskf_prog__owner() - whose XDP program @id is: 0 another's, 1 xskf's left by a run that is
 * gone, 2 xskf's of a live run (*@pid). Its name ("'name' (id N)") into @name. Thread: any.
 */
int xskf_prog__owner(uint32_t id, char *name, size_t name_len, int *pid);
void xskf_prog__emergency_detach(void);

#endif /* XSKF_BACKEND_XDP_PROG_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Our program as a component of libxdp's dispatcher (prog_dispatch.c).
 */
#ifndef XSKF_BACKEND_XDP_DISPATCH_H
#define XSKF_BACKEND_XDP_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

struct xskf_engine;
struct xskf_port;

/*
 * libxdp's dispatcher (prog_dispatch.c). Thread: the control thread.
 *
 * xskf_disp__is_dispatcher() - is program @id libxdp's dispatcher (xdp_dispatcher)?
 * xskf_disp__components() - the ids of the programs in the dispatcher on @port (at most @max,
 * in run order): their number, or -errno (-ENOENT: no dispatcher there, or its bpffs state is
 * not in this mount namespace's bpffs).
 * xskf_disp__attach() - attach our loaded program as a component, mode @mode (XDP_FLAGS_*):
 * 0 (disp.on false when libxdp could only attach it alone: said in one line), or -errno.
 * xskf_disp__detach_id() - take component @id out of the dispatcher on @port: 0 or -errno.
 * xskf_disp__watch() - is our component still in the dispatcher @attached (id) on @port?
 * xskf_disp__close() - libxdp's handle of our program, at teardown.
 * xskf_disp__bpffs() - is there a bpffs where libxdp looks ($LIBXDP_BPFFS, else /sys/fs/bpf),
 * or will it mount one (LIBXDP_BPFFS_AUTOMOUNT=1)? Without, it attaches alone.
 */
bool xskf_disp__bpffs(const struct xskf_port *port);
/*
 * xskf_disp__cpus_fd() - the CPUMAP of our component in libxdp's dispatcher (its own: see
 * prog_dispatch.c, holds_progs()), or -1 without one. Steering writes its entries there too.
 */
int xskf_disp__cpus_fd(const struct xskf_port *port);
bool xskf_disp__is_dispatcher(uint32_t id);
int xskf_disp__components(struct xskf_port *port, uint32_t *ids, int max);
int xskf_disp__attach(struct xskf_engine *eng, struct xskf_port *port, uint32_t mode);
int xskf_disp__detach_id(struct xskf_port *port, uint32_t id);
bool xskf_disp__watch(struct xskf_port *port, uint32_t attached);
void xskf_disp__close(struct xskf_port *port);

#endif /* XSKF_BACKEND_XDP_DISPATCH_H */

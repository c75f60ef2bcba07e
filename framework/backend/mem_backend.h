/* SPDX-License-Identifier: BSD-2-Clause */
/* The memory backend's settings, for the runner (--mem-frames, --mem-frame). */
#ifndef XSKF_MEM_BACKEND_H
#define XSKF_MEM_BACKEND_H

#include "core/engine.h" /* struct xskf_mem_opts */

/*
 * xskf_mem__set_opts() - give a memory-backend engine its benchmark settings (copied; the
 * frames must outlive the engine). Returns 0, -EINVAL (not the memory backend, or too many
 * per-port frames: said). Thread: control thread, before xskf_engine__start().
 */
int xskf_mem__set_opts(struct xskf_engine *eng, const struct xskf_mem_opts *mo);

#endif /* XSKF_MEM_BACKEND_H */

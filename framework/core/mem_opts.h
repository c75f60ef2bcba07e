/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The memory backend's settings (--mem-frames, --mem-frame): data the runner fills and hands
 * to the engine with xskf_engine__backend_opts() (core/backend.h), which gives them to the
 * backend (backend/mem_backend.c). The runner includes no backend header.
 */
#ifndef XSKF_MEM_OPTS_H
#define XSKF_MEM_OPTS_H

#include <stdint.h>

/*
 * The memory backend's benchmark settings (--mem-frames, --mem-frame): the runner's, not the
 * public engine options'.
 */
struct xskf_mem_opts {
	/* frames each worker receives before the engine stops by itself (0: until stopped) */
	uint64_t frames;
	/* the frame they carry (NULL: a 60-byte IPv4/UDP frame) */
	const void *frame;
	uint32_t frame_len;
	/*
	 * When ports must receive different frames (a tunnel: inner frames on its access port,
	 * VXLAN on its underlay): port k (in the order the ports were given) receives
	 * port_frames[k], port_frame_lens[k] bytes, copied in at each receive (apps such as the
	 * tunnel rewrite frames in place); NULL: port k receives nothing. Ports from
	 * nr_port_frames on receive frame.
	 */
	const void *const *port_frames;
	const uint32_t *port_frame_lens;
	uint32_t nr_port_frames;
	/*
	 * --mem-segs: each frame comes in this many buffers (multi-buffer AF_XDP,
	 * frags_ops.h), the frame's bytes in each; 0 or 1: one buffer. Needs an app with
	 * XSKF_APP_F_FRAGS. The stand-in's TX takes 18 buffers per frame, as copy mode.
	 */
	uint32_t segs;
};

#endif /* XSKF_MEM_OPTS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the root run reads back from the maps it shares with other xskf runs (xskf_queues,
 * xskf_rules: bpf/xskf_prog.h) is checked before use (share_check.c): those maps are not
 * pinned, but any process with CAP_BPF, or a map fd leaked to one, could have written them,
 * and a rule read back unchecked once made write_table() index past its arrays. Pure: no
 * system call, no global state (fuzzed: tests/fuzz/fuzz_share.c). Thread: any.
 */
#ifndef XSKF_BACKEND_XDP_SHARE_CHECK_H
#define XSKF_BACKEND_XDP_SHARE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "core/steer.h"
#include "xskf_prog.h"

/*
 * Can rule record @r of xskf_rules go into the table? Its fields within their bounds (the
 * dimensions known, queue, EtherType, VLAN, protocol, prefixes, port ranges in order and at
 * most 65535, an action of enum xskf_steer_act_kind, a cpumap set within the @ncpu possible
 * CPUs and not empty, not a default), its position below the table's size. 0, or -EINVAL with
 * the field at fault in @why.
 */
int xskf_share_check__rule(const struct xskf_prog_srule *r, unsigned int ncpu, char *why,
			   size_t len);

/*
 * Can owner record @o of xskf_queues be believed, as far as its bytes tell (whether its pid is
 * a live xskf run is the caller's to ask)? Flags 0 or 1, a default action known, a cpumap
 * default within the @ncpu possible CPUs, a name that prints on one line. 0, or -EINVAL.
 */
int xskf_share_check__owner(const struct xskf_prog_qowner *o, unsigned int ncpu, char *why,
			    size_t len);

/*
 * The name of @o's owner, safe to print in one line: @o->comm up to its NUL, characters that are
 * not printable ASCII as '?'. @out holds 17 bytes.
 */
void xskf_share_check__comm(const struct xskf_prog_qowner *o, char out[17]);

#endif /* XSKF_BACKEND_XDP_SHARE_CHECK_H */

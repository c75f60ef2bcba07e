// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* A "foreign" XDP program for the tests: xskf must refuse to replace it without --force. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int foreign_pass(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

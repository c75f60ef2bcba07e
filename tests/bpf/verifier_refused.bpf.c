// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * An XDP program every verifier refuses, for test_verifier_log.c: it reads a 64-byte map value
 * at an index taken from the frame (0..65535), checked against nothing. The same class of
 * refusal as issue 33's (a map value reached at an index the verifier cannot bound to the
 * value), on purpose: clang cannot drop the read, and no kernel accepts it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[64]);
} table SEC(".maps");

SEC("xdp")
int refused(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 key = 0;
	__u8 *v;

	if (data + sizeof(__u16) > end)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&table, &key);
	if (!v)
		return XDP_PASS;
	return v[*(volatile __u16 *)data] ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

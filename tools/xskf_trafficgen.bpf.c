// SPDX-License-Identifier: BSD-2-Clause
/*
 * XDP program of xskf-trafficgen, run by BPF_PROG_RUN in "live frames" mode.
 *
 * The kernel hands each run a frame initialised with the template built by userspace and turns
 * our XDP_TX into a redirect to the generator's interface (for veth: straight into the peer's RX
 * ring). Per frame we stamp two fields from a counter:
 *  - the L4 source port, sport_base + (counter % flows), so one template makes N flows;
 *  - a 32-bit big-endian sequence number at the start of the payload, when there is room.
 *
 * Both lie inside the L4 checksum, so the checksum is patched incrementally (RFC 1624) from the
 * bytes that are in the frame *now*: live-frame pages are recycled without being re-initialised,
 * so a frame may hold the template or whatever an earlier run left in it; patching from the
 * current bytes is right in both cases. The IP header never changes, so its checksum is fixed.
 *
 * All offsets come from userspace through read-only globals; the program does not parse headers.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* Set by userspace before load (skel->rodata); 0 offsets mean "absent". */
const volatile __u32 cfg_flows = 1;
const volatile __u16 cfg_sport_base;  /* host order */
const volatile __u16 cfg_sport_off;   /* offset of the L4 source port in the frame */
const volatile __u16 cfg_csum_off;    /* offset of the L4 checksum, 0: not maintained */
const volatile __u16 cfg_seq_off;     /* offset of the sequence number, 0: none */
const volatile __u8 cfg_csum_is_udp;  /* UDP sends a computed 0 as 0xffff (RFC 768) */

/*
 * Frames the program has seen since userspace last zeroed it. Only one thread runs the program
 * (BPF_PROG_RUN runs on the caller's CPU, migration disabled), so a plain increment is exact;
 * userspace reads it to know how many frames a run that was interrupted (EINTR) produced.
 */
__u64 tg_frames;

/* One's complement sum of 16-bit words folded back to 16 bits, never 0 for a non-zero input. */
static __always_inline __u16 csum_fold32(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)s;
}

SEC("xdp")
int xskf_trafficgen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u64 n = tg_frames++;
	/* ~old + new for every changed 16-bit word, in network order like the checksum itself */
	__u32 delta = 0;
	__u16 *csum = NULL;
	__u16 *w;

	if (cfg_csum_off) {
		csum = data + (cfg_csum_off & 0x7ff);
		if ((void *)(csum + 1) > data_end)
			return XDP_ABORTED;
	}

	if (cfg_flows > 1) {
		__u16 port = bpf_htons(cfg_sport_base + (__u16)((__u32)n % cfg_flows));

		w = data + (cfg_sport_off & 0x7ff);
		if ((void *)(w + 1) > data_end)
			return XDP_ABORTED;
		delta += (__u16)~*w + port;
		*w = port;
	}

	if (cfg_seq_off) {
		/* big-endian in memory, stored as two 16-bit words: the offset is only 2-aligned */
		__u32 seq = bpf_htonl((__u32)n);
		__u16 w0 = (__u16)seq, w1 = (__u16)(seq >> 16);

		w = data + (cfg_seq_off & 0x7ff);
		if ((void *)(w + 2) > data_end)
			return XDP_ABORTED;
		delta += (__u16)~w[0] + w0;
		delta += (__u16)~w[1] + w1;
		w[0] = w0;
		w[1] = w1;
	}

	if (csum && delta) {
		/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') */
		__u16 c = ~csum_fold32(delta + (__u16)~*csum);

		if (cfg_csum_is_udp && c == 0)
			c = 0xffff;
		*csum = c;
	}
	return XDP_TX;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

// SPDX-License-Identifier: BSD-2-Clause
/*
 * What xskf_hints_write(ctx, false) costs the XDP program (suite 'perf', root; 77 = skip):
 * BPF_PROG_TEST_RUN with a repeat count, ns per run (median of 7), on frames of several types:
 * a program that only returns XDP_PASS; one that grows data_meta, writes the magic and gives
 * the room back; and one that writes the whole hints (the parse) and gives the room back.
 * "parse" is the difference of the last two. The kfuncs of hw = true cannot be timed this
 * way (test runs refuse device-bound programs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xskf_meta.h"
#include "hints_test.skel.h"
#include "hints_vectors.h"

#define RUNS   7
#define REPEAT 1000000

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t median_ns(int fd, const struct hv_frame *f)
{
	uint32_t d[RUNS];
	int r;

	for (r = 0; r < RUNS; r++) {
		LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = f->b, .data_size_in = f->len,
			    .repeat = REPEAT);
		if (bpf_prog_test_run_opts(fd, &t) || t.retval != XDP_PASS)
			return 0;
		d[r] = t.duration;
	}
	qsort(d, RUNS, sizeof(d[0]), cmp_u32);
	return d[RUNS / 2];
}

int main(void)
{
	static const char *const names[] = { "ipv4-udp", "qinq-ipv6-tcp", "ipv6-ext-chain-tcp",
					     "vxlan-inner-ipv4-tcp", "gre-teb-ipv6-tcp" };
	struct hints_test *skel;
	unsigned int i, k;

	if (geteuid() != 0) {
		printf("SKIP: needs root\n");
		return 77;
	}
	skel = hints_test__open();
	if (!skel)
		return 1;
	bpf_program__set_autoload(skel->progs.hints_hw, false);
	if (hints_test__load(skel))
		return 1;
	printf("%-24s %8s %8s %8s %8s\n", "frame", "pass", "meta", "hints", "parse");
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		for (i = 0; i < HV_NR_CASES; i++) {
			struct hv_frame f = { .len = 0 };
			uint32_t pass, meta, hints;

			if (strcmp(hv_cases[i].name, names[k]))
				continue;
			hv_cases[i].build(&f);
			pass = median_ns(bpf_program__fd(skel->progs.pass_only), &f);
			meta = median_ns(bpf_program__fd(skel->progs.meta_only), &f);
			hints = median_ns(bpf_program__fd(skel->progs.hints_only), &f);
			printf("%-24s %8u %8u %8u %8d\n", names[k], pass, meta, hints,
			       (int)hints - (int)meta);
		}
	}
	hints_test__destroy(skel);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The XDP program's cost per frame with N steering rules: BPF_PROG_RUN with a repeat count
 * (the kernel times the loop and reports ns per run), for a frame that matches the last rule
 * (every word of the bitmaps read) and one that matches none (the default), the best of
 * @rounds runs. bench/steer.sh runs it for 0, 1, 16 and 1000 rules.
 *
 * usage: bench_steer NRULES [REPEAT [ROUNDS [RULE]]]
 *   -> one line: rules N last NS none NS wall NS NS (the wall-clock pair: last, none)
 * RULE is the rules' format, its %u the port (default "udp dport %u pass"): a field added to
 * every rule shows what its lookup costs ("udp dport %u src 192.0.2.0/24 pass": an LPM trie;
 * "ip udp dport %u pass": the EtherType hash). The frames come from 192.0.2.1.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/clock.h"
#include "steer_port.h"

/*
 * The best of @rounds runs: the kernel's ns per frame (whole ns: its average is an integer
 * division), and in *wall the same run timed around the call, to a tenth of a ns (the
 * call's own cost, a few microseconds, is spread over @repeat frames).
 */
static double ns_per_frame(struct xskf_port *p, const struct frame_spec *f, unsigned int repeat,
			   unsigned int rounds, double *wall)
{
	unsigned char pkt[128];
	unsigned int len = build_frame(pkt, f), i;
	struct xdp_md ctx = {.data_end = len, .rx_queue_index = 0};
	double best = 1e18, t0;

	*wall = 1e18;
	for (i = 0; i < rounds; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = len,
			    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = repeat);

		t0 = (double)xskf_now_ns();
		if (bpf_prog_test_run_opts(
			bpf_program__fd(xskf_xdp_port(p)->skel->progs.xskf_redirect), &t))
			return -1;
		t0 = ((double)xskf_now_ns() - t0) / repeat;
		if (t.duration < best)
			best = t.duration;
		if (t0 < *wall)
			*wall = t0;
	}
	return best;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 0;
	unsigned int repeat = argc > 2 ? (unsigned int)atoi(argv[2]) : 1000000;
	unsigned int rounds = argc > 3 ? (unsigned int)atoi(argv[3]) : 5, i;
	const char *fmt = argc > 4 ? argv[4] : "udp dport %u pass";
	struct frame_spec last = {.vlan = -1, .proto = 17, .sport = 1, .dport = 10000 + n - 1};
	struct frame_spec none = {.vlan = -1, .proto = 17, .sport = 1, .dport = 9};
	struct xskf_engine *eng;
	struct xskf_port p;
	char rule[64], err[320];
	double ns_last, ns_none, wall_last, wall_none;

	if (geteuid()) {
		fprintf(stderr, "bench_steer: needs root\n");
		return 77;
	}
	if (n > XSKF_STEER_MAX_RULES || steer_port_open(&eng, &p, 1)) {
		fprintf(stderr, "bench_steer: cannot load the program, or more than %d rules\n",
			XSKF_STEER_MAX_RULES);
		return 1;
	}
	/*
	 * "udp dport P pass", the default pass: every frame takes the same way out of the
	 * program (XDP_PASS), so the numbers differ only by the classification.
	 */
	for (i = 0; i < n; i++) {
		snprintf(rule, sizeof(rule), fmt, 10000 + i);
		if (xskf_steer__add(eng, &p, rule, i + 1, false, err, sizeof(err))) {
			fprintf(stderr, "bench_steer: %s\n", err);
			return 1;
		}
	}
	if (xskf_steer__add(eng, &p, "default pass", 0, false, err, sizeof(err)) ||
	    xskf_steer__load(eng, &p)) {
		fprintf(stderr, "bench_steer: cannot load the table\n");
		return 1;
	}
	if (!n)
		last = none;
	ns_last = ns_per_frame(&p, &last, repeat, rounds, &wall_last);
	ns_none = ns_per_frame(&p, &none, repeat, rounds, &wall_none);
	printf("rules %u last %.1f none %.1f wall %.2f %.2f\n", n, ns_last, ns_none, wall_last,
	       wall_none);
	steer_port_close(eng, &p);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench-xdp-prog: what the xskf XDP program costs per frame, by variant of its rodata knobs,
 * without veth's copy around it (bench/xdp_prog.sh; root). Each variant is the real
 * program (bpf/xskf_redirect.bpf.c, software-hints entry: test runs refuse the device-bound one,
 * so the kfuncs are not in any row) loaded with its knobs, run by BPF_PROG_TEST_RUN with a
 * repeat count over fixed frames; ns per frame is the kernel's own duration (its average over
 * the repeats), the median of RUNS calls. The XSKMAP is empty: bpf_redirect_map() answers
 * XDP_PASS, as for a queue without a socket.
 *
 *
 * Three more rows: xskf_redirect_nm alone, the program xskf puts in libxdp's dispatcher with
 * --no-hints (no bpf_xdp_adjust_meta() call at all: Linux 6.13+ takes no other into the
 * dispatcher of libxdp before 1.5.5), and that program behind libxdp's dispatcher (its
 * xdp-dispatcher.o, from libxdp1; $XSKF_XDP_DISPATCHER_OBJ), as xskf's default attach does:
 * alone in it (libxdp then freplaces the dispatcher's own function), and second of two behind
 * a program that passes every frame (the dispatcher's loop, as beside xdp-filter). The last two
 * need a kernel that takes freplace programs: "failed" where it refuses them (this project's
 * test machine: EPERM); the lab's dispcost test runs them on Debian's 7.x (lab/citizen.sh).
 *
 *   bench-xdp-prog [REPEAT [RUNS]]      (defaults 1000000, 7)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <xdp/prog_dispatcher.h>

#include "xskf_meta.h"
#include "xskf_steer.h"
#include "bench_prog.skel.h"
#include "hints_vectors.h"

static unsigned int repeat = 1000000, runs = 7;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Median ns per frame of @runs calls of @repeat runs each, or -1. */
static double median_ns(int fd, const struct hv_frame *f)
{
	uint32_t d[64];
	unsigned int r;

	for (r = 0; r < runs; r++) {
		LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = f->b, .data_size_in = f->len,
			    .repeat = repeat);
		if (bpf_prog_test_run_opts(fd, &t) || t.retval != XDP_PASS)
			return -1;
		d[r] = t.duration;
	}
	qsort(d, runs, sizeof(d[0]), cmp_u32);
	return d[runs / 2];
}

struct variant {
	const char *name;
	uint32_t hints;       /* xskf_hints_mask; 0: hints_on = 0 */
	uint16_t steer_dport; /* 0: no steering */
};

static const struct variant variants[] = {
	{ "no hints", 0, 0 },
	{ "ptype", XSKF_HINT_PTYPE, 0 },
	{ "tunnel", XSKF_HINT_TUNNEL, 0 },
	{ "rx_hash", XSKF_HINT_HASH, 0 },
	{ "rx_timestamp", XSKF_HINT_TIMESTAMP, 0 },
	{ "vlan", XSKF_HINT_VLAN, 0 },
	{ "all hints", XSKF_HINT_ALL, 0 },
	{ "steer udp, no hints", 0, 4789 },
	{ "steer udp, all hints", XSKF_HINT_ALL, 4789 },
};
#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

static const char *const frames[] = { "ipv4-udp", "qinq-ipv6-tcp", "vxlan-inner-ipv4-tcp" };
#define NR_FRAMES (sizeof(frames) / sizeof(frames[0]))

static int build_frame(const char *name, struct hv_frame *f)
{
	unsigned int i;

	for (i = 0; i < HV_NR_CASES; i++)
		if (!strcmp(hv_cases[i].name, name)) {
			memset(f, 0, sizeof(*f));
			hv_cases[i].build(f);
			/* at least 60 bytes, as on the wire without the FCS */
			if (f->len < 60)
				f->len = 60;
			return 0;
		}
	return -1;
}

/*
 * The steering table of "udp dport DPORT xsk" with the default pass on queue 0, written into
 * generation 0 of the maps as framework/backend/xdp/steer/steer.c would (bpf/xskf_steer.h): what
 * xskf_engine__steer_udp() asks for. Returns 0 or -1.
 */
static int steer_udp(struct bench_prog *skel, uint16_t dport)
{
	struct xskf_steer_cfg cfg = { .nr_rules = 1,
				      .dims = 1u << XSKF_DIM_QUEUE | 1u << XSKF_DIM_PROTO |
					      1u << XSKF_DIM_DPORT };
	struct xskf_steer_bm one = { .sum = 1 };
	struct xskf_steer_bms *bms = calloc(1, sizeof(*bms));
	struct xskf_steer_pcls *pcls = calloc(1, sizeof(*pcls));
	struct xskf_steer_acts *acts = calloc(1, sizeof(*acts));
	uint32_t zero = 0, d, gen = 0 | XSKF_STEER_GEN_LIVE;
	int err = 0;

	if (!bms || !pcls || !acts) {
		free(bms);
		free(pcls);
		free(acts);
		return -1;
	}
	one.w[xskf_steer_word_at(1)] = 1; /* rule 0 */
	bms->bm[XSKF_STEER_BM_QUEUE + 0] = one;
	for (d = 0; d < XSKF_NR_DIMS; d++) /* what the fields no rule asks for allow: the rule */
		bms->bm[XSKF_STEER_BM_WILD + d] = one;
	bms->bm[XSKF_STEER_BM_PROTO + 17] = one;
	bms->bm[XSKF_STEER_BM_DPORT + 1] = one; /* class 1: the port; 0 and 2 (no port) empty */
	bms->bm[XSKF_STEER_BM_SPORT + 0] = one; /* no rule asks for a source port: one class */
	pcls->cls[(0 * 2 + 1) * XSKF_STEER_PORT_KEYS + dport] = XSKF_STEER_PCLS(1, 1);
	pcls->cls[(0 * 2 + 1) * XSKF_STEER_PORT_KEYS + XSKF_STEER_PORT_NONE] = XSKF_STEER_PCLS(2, 0);
	pcls->cls[(0 * 2 + 0) * XSKF_STEER_PORT_KEYS + 0] = XSKF_STEER_PCLS(0, 1);
	acts->cfg[0] = cfg;
	acts->slot[xskf_steer_act_at(0)] = 0;
	acts->kind[xskf_steer_act_at(0)] = XSKF_STEER_ACT_XSK;
	acts->slot[XSKF_STEER_MAX_RULES + 0] = XSKF_STEER_MAX_RULES;
	acts->kind[XSKF_STEER_MAX_RULES + 0] = XSKF_STEER_ACT_PASS;
	err |= bpf_map_update_elem(bpf_map__fd(skel->maps.steer_bms), &zero, bms, 0);
	err |= bpf_map_update_elem(bpf_map__fd(skel->maps.steer_pcls), &zero, pcls, 0);
	err |= bpf_map_update_elem(bpf_map__fd(skel->maps.steer_acts), &zero, acts, 0);
	err |= bpf_map_update_elem(bpf_map__fd(skel->maps.steer_gen), &zero, &gen, 0);
	free(bms);
	free(pcls);
	free(acts);
	return err ? -1 : 0;
}

static struct bench_prog *load(const struct variant *v)
{
	struct bench_prog *skel = bench_prog__open();

	if (!skel)
		return NULL;
	skel->rodata->hints_on = v->hints != 0;
	skel->rodata->xskf_hints_mask = v->hints;
	skel->rodata->xskf_hints_kfuncs = 0;
	bpf_program__set_autoload(skel->progs.xskf_redirect, false);
	bpf_program__set_autoload(skel->progs.xskf_redirect_hw, false);
	bpf_program__set_autoload(skel->progs.xskf_redirect_lk, false);
	bpf_program__set_autoload(skel->progs.xskf_redirect_nm, false);
	if (bench_prog__load(skel) || (v->steer_dport && steer_udp(skel, v->steer_dport))) {
		bench_prog__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * xskf_redirect_nm alone (hints off), in an object of its own: it is frags-aware (xdp.frags,
 * which libbpf sets at load whatever the flags say) and the bench's programs are not, and the
 * kernel refuses programs that disagree on it in one CPUMAP (steer_cpus) with EINVAL.
 */
static struct bench_prog *load_nm(void)
{
	struct bench_prog *skel = bench_prog__open();
	struct bpf_program *p;

	if (!skel)
		return NULL;
	skel->rodata->hints_on = 0;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.xskf_redirect_nm);
	if (bench_prog__load(skel)) {
		bench_prog__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * libxdp's dispatcher with @n programs (1 or 2): the bench program, behind pass_only for 2,
 * linked by freplace as libxdp links them. Returns the dispatcher's fd (test-run it), or -1;
 * @links and the objects are kept in @keep for the caller to free.
 */
struct disp_keep {
	struct bpf_object *disp;
	struct bench_prog *skel;
	struct bpf_link *links[2];
};

static int dispatcher(unsigned int n, struct disp_keep *keep)
{
	const char *path = getenv("XSKF_XDP_DISPATCHER_OBJ");
	struct xdp_dispatcher_config cfg = {
		.magic = XDP_DISPATCHER_MAGIC,
		.dispatcher_version = XDP_DISPATCHER_VERSION,
		.num_progs_enabled = (__u8)n,
	};
	struct bpf_program *mine, *first;
	unsigned int i;

	memset(keep, 0, sizeof(*keep));
	for (i = 0; i < n; i++) {
		/* what libxdp writes: XDP_PASS goes on, and its own "no program here" value */
		cfg.chain_call_actions[i] = 1U << XDP_PASS | 1U << XDP_DISPATCHER_RETVAL;
		cfg.run_prios[i] = i ? 50 : 10;
	}
	keep->disp = bpf_object__open_file(path ? path : "/usr/lib/x86_64-linux-gnu/bpf/xdp-dispatcher.o",
					   NULL);
	if (libbpf_get_error(keep->disp) ||
	    bpf_map__set_initial_value(bpf_object__next_map(keep->disp, NULL), &cfg, sizeof(cfg)))
		goto fail;
	bpf_program__set_autoload(bpf_object__find_program_by_name(keep->disp, "xdp_pass"), false);
	if (bpf_object__load(keep->disp))
		goto fail;
	keep->skel = bench_prog__open();
	if (!keep->skel)
		goto fail;
	keep->skel->rodata->hints_on = 0;
	/*
	 * what xskf puts in the dispatcher: xskf_redirect_nm (--no-hints), which has no
	 * bpf_xdp_adjust_meta() call; Linux 6.13+ refuses bench_redirect there (it changes
	 * packet data, libxdp's stubs before 1.5.5 do not)
	 */
	mine = keep->skel->progs.xskf_redirect_nm;
	first = keep->skel->progs.pass_only;
	{
		struct bpf_program *p;
		int dfd = bpf_program__fd(
			bpf_object__find_program_by_name(keep->disp, "xdp_dispatcher"));

		bpf_object__for_each_program(p, keep->skel->obj) {
			bool used = p == mine || (n == 2 && p == first);

			bpf_program__set_autoload(p, used);
			if (!used)
				continue;
			/* as libxdp does: an EXT program into the dispatcher's slot; alone, into
			 * the dispatcher's own function */
			bpf_program__set_type(p, BPF_PROG_TYPE_EXT);
			bpf_program__set_expected_attach_type(p, 0);
			bpf_program__set_flags(p, bpf_program__flags(p) & ~BPF_F_XDP_HAS_FRAGS);
			bpf_program__set_attach_target(p, dfd, n == 1 ? "xdp_dispatcher"
							   : p == first	? "prog0"
									: "prog1");
		}
		if (bench_prog__load(keep->skel))
			goto fail;
		keep->links[0] = bpf_program__attach_freplace(mine, dfd, n == 1 ? "xdp_dispatcher"
										: "prog1");
		if (libbpf_get_error(keep->links[0]))
			goto fail;
		if (n == 2) {
			keep->links[1] = bpf_program__attach_freplace(first, dfd, "prog0");
			if (libbpf_get_error(keep->links[1]))
				goto fail;
		}
		return dfd;
	}
fail:
	fprintf(stderr, "bench-xdp-prog: libxdp's dispatcher with %u program%s: %s\n", n,
		n == 1 ? "" : "s", strerror(errno));
	return -1;
}

static void dispatcher_free(struct disp_keep *keep)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (!libbpf_get_error(keep->links[i]))
			bpf_link__destroy(keep->links[i]);
	if (keep->skel)
		bench_prog__destroy(keep->skel);
	if (!libbpf_get_error(keep->disp))
		bpf_object__close(keep->disp);
}

int main(int argc, char **argv)
{
	struct hv_frame f[NR_FRAMES];
	double ns[NR_VARIANTS + 5][NR_FRAMES];
	struct disp_keep keep;
	int dfd;
	struct bench_prog *skel;
	unsigned int i, k;

	if (argc > 1)
		repeat = (unsigned int)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		runs = (unsigned int)strtoul(argv[2], NULL, 0);
	if (!repeat || !runs || runs > 64) {
		fprintf(stderr, "usage: bench-xdp-prog [REPEAT (>0) [RUNS (1-64)]]\n");
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "bench-xdp-prog: needs root (BPF_PROG_TEST_RUN)\n");
		return 77;
	}
	for (k = 0; k < NR_FRAMES; k++)
		if (build_frame(frames[k], &f[k])) {
			fprintf(stderr, "bench-xdp-prog: no test frame '%s'\n", frames[k]);
			return 1;
		}
	for (i = 0; i < NR_VARIANTS; i++) {
		skel = load(&variants[i]);
		if (!skel) {
			fprintf(stderr, "bench-xdp-prog: variant '%s' does not load\n",
				variants[i].name);
			return 1;
		}
		for (k = 0; k < NR_FRAMES; k++)
			ns[i][k] = median_ns(bpf_program__fd(skel->progs.bench_redirect), &f[k]);
		if (i == 0)
			for (k = 0; k < NR_FRAMES; k++) {
				ns[NR_VARIANTS][k] =
					median_ns(bpf_program__fd(skel->progs.pass_only), &f[k]);
				ns[NR_VARIANTS + 1][k] =
					median_ns(bpf_program__fd(skel->progs.meta_pair), &f[k]);
			}
		bench_prog__destroy(skel);
	}
	skel = load_nm();
	if (!skel) {
		fprintf(stderr, "bench-xdp-prog: xskf_redirect_nm does not load\n");
		return 1;
	}
	for (k = 0; k < NR_FRAMES; k++)
		ns[NR_VARIANTS + 2][k] = median_ns(bpf_program__fd(skel->progs.xskf_redirect_nm), &f[k]);
	bench_prog__destroy(skel);
	for (i = 0; i < 2; i++) {
		dfd = dispatcher(i + 1, &keep);
		for (k = 0; k < NR_FRAMES; k++)
			ns[NR_VARIANTS + 3 + i][k] = dfd < 0 ? -1 : median_ns(dfd, &f[k]);
		dispatcher_free(&keep);
	}
	printf("ns per frame (BPF_PROG_TEST_RUN, repeat %u, median of %u); frames:", repeat, runs);
	for (k = 0; k < NR_FRAMES; k++)
		printf(" %s (%u B)", frames[k], f[k].len);
	printf("\n| variant |");
	for (k = 0; k < NR_FRAMES; k++)
		printf(" %s |", frames[k]);
	printf("\n| --- |");
	for (k = 0; k < NR_FRAMES; k++)
		printf(" ---: |");
	printf("\n");
	for (i = 0; i < NR_VARIANTS + 5; i++) {
		printf("| %s |", i < NR_VARIANTS	  ? variants[i].name
			       : i == NR_VARIANTS	  ? "(reference) XDP_PASS only"
			       : i == NR_VARIANTS + 1 ? "(reference) meta grown and given back"
			       : i == NR_VARIANTS + 2 ? "(reference) xskf_redirect_nm alone "
							    "(--no-hints: the dispatcher's component)"
			       : i == NR_VARIANTS + 3 ? "no hints, alone in libxdp's dispatcher"
						  : "no hints, second in libxdp's dispatcher "
						    "(after XDP_PASS only)");
		for (k = 0; k < NR_FRAMES; k++)
			printf(ns[i][k] < 0 ? " failed |" : " %.0f |", ns[i][k]);
		printf("\n");
	}
	return 0;
}

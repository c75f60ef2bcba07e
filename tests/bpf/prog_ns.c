// SPDX-License-Identifier: BSD-2-Clause
/*
 * prog-ns: ns per frame of the XDP program PROG in the object files OBJ..., run side by side
 * (bench/compare.sh: another commit's xskf_redirect.bpf.o against this build's). Each
 * object is opened as it is, its rodata left at the defaults the framework starts from (no
 * hints, no rules: the empty steering table of a run without --steer), only PROG loaded (the
 * device-bound variant cannot be test-run). Then ROUNDS rounds, each one BPF_PROG_TEST_RUN of
 * REPEAT runs per object in turn over a 60-byte IPv4/UDP frame, so a drift of the machine hits
 * every object alike; printed per object: the median ns per frame and the smallest and largest,
 * to 0.01 ns: the wall time of the call over REPEAT (the kernel's own duration is whole ns per
 * run, too coarse for a difference of one or two). The XSKMAP is empty: bpf_redirect_map()
 * answers XDP_PASS. OBJ:NAME runs program NAME of OBJ instead of PROG (libxdp's own
 * xsk_def_xdp_prog.o:xsk_def_prog beside xskf's, for instance).
 *
 *   prog-ns PROG REPEAT ROUNDS OBJ[:NAME]...      (root)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hints_vectors.h"

#define MAX_OBJS   8
#define MAX_ROUNDS 256

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

/* Opens @path and loads its program @prog alone; its fd, or -1 (said on stderr). */
static int load(const char *path, const char *prog, struct bpf_object **objp)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p, *want = NULL;

	if (!obj) {
		fprintf(stderr, "prog-ns: cannot open %s\n", path);
		return -1;
	}
	bpf_object__for_each_program(p, obj)
	{
		bool me = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, me);
		if (me)
			want = p;
	}
	if (!want || bpf_object__load(obj)) {
		fprintf(stderr, "prog-ns: %s: program %s %s\n", path, prog,
			want ? "does not load" : "not found");
		bpf_object__close(obj);
		return -1;
	}
	*objp = obj;
	return bpf_program__fd(want);
}

int main(int argc, char **argv)
{
	static double d[MAX_OBJS][MAX_ROUNDS];
	struct bpf_object *obj[MAX_OBJS];
	int fd[MAX_OBJS], n, i, r, rounds;
	unsigned int repeat;
	struct hv_frame f;

	if (argc < 5 || argc - 4 > MAX_OBJS) {
		fprintf(stderr, "usage: prog-ns PROG REPEAT ROUNDS OBJ[:NAME]... (1-%d objects)\n",
			MAX_OBJS);
		return 2;
	}
	repeat = (unsigned int)strtoul(argv[2], NULL, 0);
	rounds = atoi(argv[3]);
	if (!repeat || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "prog-ns: REPEAT must be > 0, ROUNDS 1-%d\n", MAX_ROUNDS);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "prog-ns: needs root (BPF_PROG_TEST_RUN)\n");
		return 77;
	}
	libbpf_set_print(silent);
	memset(&f, 0, sizeof(f));
	for (i = 0; i < (int)HV_NR_CASES && strcmp(hv_cases[i].name, "ipv4-udp"); i++)
		;
	if (i == (int)HV_NR_CASES)
		return 1;
	hv_cases[i].build(&f);
	if (f.len < 60)
		f.len = 60;
	n = argc - 4;
	for (i = 0; i < n; i++) {
		char *name = strrchr(argv[4 + i], ':');

		/* OBJ:NAME: this object's program is NAME (printed as OBJ:NAME below) */
		if (name)
			*name = 0;
		fd[i] = load(argv[4 + i], name ? name + 1 : argv[1], &obj[i]);
		if (name)
			*name = ':';
		if (fd[i] < 0)
			return 1;
	}
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = f.b, .data_size_in = f.len,
				    .repeat = repeat);
			struct timespec t0, t1;
			int err;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			err = bpf_prog_test_run_opts(fd[i], &t);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if (err || t.retval != XDP_PASS) {
				fprintf(stderr, "prog-ns: %s: test run failed (retval %u)\n",
					argv[4 + i], t.retval);
				return 1;
			}
			d[i][r] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
				   (double)(t1.tv_nsec - t0.tv_nsec)) /
				  repeat;
		}
	for (i = 0; i < n; i++) {
		qsort(d[i], (size_t)rounds, sizeof(d[i][0]), cmp_dbl);
		printf("%s %.2f %.2f %.2f\n", argv[4 + i], d[i][rounds / 2], d[i][0],
		       d[i][rounds - 1]);
		bpf_object__close(obj[i]);
	}
	return 0;
}

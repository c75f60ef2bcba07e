// SPDX-License-Identifier: BSD-2-Clause
/*
 * A refused XDP program's verifier log, as xskf prints it (framework/backend/xdp/prog/verifier_log.c,
 * the function prog.c calls when the kernel refuses its program): the kernel really refuses
 * verifier_refused.bpf.o, loaded the way prog.c loads (libbpf, the log buffer given at open),
 * and the test checks the message's exact form against the kernel's own log:
 *  - one warning "NAME: the kernel refused the XDP program (ERRNO TEXT); the verifier's log ends
 *    (-vv: all of it):", ERRNO TEXT from the load's own error;
 *  - then the log's lines in order, each indented by two spaces, empty ones left out: as
 *    warnings its last XSKF_VERIFIER_LOG_LINES lines and as many from the trace's last
 *    instruction on, the verifier's reason among them; every other line at debug level (-vv):
 *    the whole log, nothing added;
 *  - the same with the log of Linux 7.3 (a copy of what it wrote for this object in the kernel
 *    lab), whose report after the refusal (70 lines: reason, source, causal path, suggestion)
 *    would leave the refusal out of its last lines;
 *  - an empty log: "NAME: the kernel refused the XDP program (ERRNO TEXT) with no verifier log".
 * Usage: test_verifier_log OBJ. Root; 77 = skip.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "tap.h"
#include "xskf.h"
#include "backend/xdp/prog/verifier_log.h"

#define MAX_LINES 4096

static struct {
	enum xskf_log_level level;
	char *text;
} out[MAX_LINES];
static int nr_out;

static int capture(enum xskf_log_level level, const char *fmt, va_list args)
{
	if (nr_out < MAX_LINES && vasprintf(&out[nr_out].text, fmt, args) >= 0)
		out[nr_out++].level = level;
	return 0;
}

/* the captured messages dropped (ASan's leak check runs this test too) */
static void forget(void)
{
	while (nr_out > 0)
		free(out[--nr_out].text);
}

/* the kernel's log split into lines, empty lines dropped (as xskf prints it) */
static int split(char *log, char **lines)
{
	int n = 0;
	char *p, *save;

	for (p = strtok_r(log, "\n", &save); p && n < MAX_LINES; p = strtok_r(NULL, "\n", &save))
		lines[n++] = p;
	return n;
}

/* the index of the trace's last instruction ("16: (71) ..."), or -1 */
static int last_insn(char **lines, int n)
{
	unsigned int a, b;
	int i, insn = -1;

	for (i = 0; i < n; i++)
		if (sscanf(lines[i], "%u: (%2x)", &a, &b) == 2)
			insn = i;
	return insn;
}

/*
 * The messages captured for the log in @lines (@n lines) against the rule: a heading for
 * @err, then every line in order, a warning where it is among the last
 * XSKF_VERIFIER_LOG_LINES or as many from the last instruction on, else at debug level;
 * @reason among the warnings. @what names the log in the checks.
 */
static void check_print(const char *what, char **lines, int n, int err, const char *reason)
{
	char want[512];
	int i, bad, insn = last_insn(lines, n), warn;

	CHECK(nr_out == n + 1,
	      "%s: one heading and every line of the log: %d messages for %d lines", what, nr_out,
	      n);
	snprintf(
	    want, sizeof(want),
	    "xskf: lab0: the kernel refused the XDP program (%s); the verifier's log ends (-vv: "
	    "all of it):\n",
	    strerror(-err));
	CHECK(nr_out > 0 && out[0].level == XSKF_LOG_WARN && !strcmp(out[0].text, want),
	      "%s: heading as a warning: %s", what, nr_out ? out[0].text : "(none)\n");
	for (i = 0, bad = -1; i < n && i + 1 < nr_out && bad < 0; i++) {
		warn = i >= n - XSKF_VERIFIER_LOG_LINES ||
		       (insn >= 0 && i >= insn && i < insn + XSKF_VERIFIER_LOG_LINES);
		snprintf(want, sizeof(want), "xskf:   %s\n", lines[i]);
		if (strcmp(out[i + 1].text, want) ||
		    out[i + 1].level != (warn ? XSKF_LOG_WARN : XSKF_LOG_DEBUG))
			bad = i;
	}
	CHECK(bad < 0 && nr_out == n + 1,
	      "%s: every line in order, the last %d and %d from the last instruction (line %d) as "
	      "warnings, the rest at debug level%s%s",
	      what, XSKF_VERIFIER_LOG_LINES, XSKF_VERIFIER_LOG_LINES, insn,
	      bad < 0 ? "" : "; differs at: ", bad < 0 ? "" : out[bad + 1].text);
	for (i = 1, bad = 1; i < nr_out; i++)
		if (out[i].level == XSKF_LOG_WARN && strstr(out[i].text, reason))
			bad = 0;
	CHECK(!bad, "%s: the refusal's reason is among the warnings", what);
	if (bad) /* the whole log, to see how this kernel words it */
		for (i = 0; i < n; i++)
			printf("# log %d: %s\n", i, lines[i]);
}

/*
 * What Linux 7.3.4 wrote for verifier_refused.bpf.o (the kernel lab, lab/vm_lab.sh
 * --kernel 7 core, 2026-12-05), shortened in the trace before the refusal and in the causal
 * path, its empty lines kept: the classic refusal, then the report 7.x adds.
 */
static const char log_7x[] =
    "func#0 @0\n"
    "0: R1=ctx() R10=fp0\n"
    "; void *data = (void *)(long)ctx->data; @ verifier_refused.bpf.c:22\n"
    "0: (61) r7 = *(u32 *)(r1 +0)          ; R1=ctx() R7=pkt(r=0)\n"
    "13: (15) if r0 == 0x0 goto pc+6       ; R0=map_value(map=table,ks=4,vs=64)\n"
    "14: (69) r1 = *(u16 *)(r7 +0)         ; "
    "R1=scalar(smin=smin32=0,smax=umax=smax32=umax32=0xffff,var_off=(0x0; 0xffff)) R7=pkt(r=2)\n"
    "15: (0f) r0 += r1                     ; "
    "R0=map_value(map=table,ks=4,vs=64,smin=smin32=0,smax=umax=smax32=umax32=0xffff,var_off=(0x0; "
    "0xffff))\n"
    "16: (71) r1 = *(u8 *)(r0 +0)\n"
    "invalid access to map value, value_size=64 off=65535 size=1\n"
    "R0 max value is outside of the allowed memory range\n"
    "Verification failed: Memory Safety: Access outside bounds\n"
    "Reason:\n"
    "  The verifier cannot prove offset + access_size <= object_size. Here, the maximal bound for "
    "a\n"
    "  memory access is 65536: start 65535 + access_size 1, beyond object_size 64. R0 is "
    "map_value;\n"
    "  offset is variable: known bits 0x0, unknown mask 0xffff; signed range [0, 65535], unsigned "
    "range\n"
    "  [0, 65535]; access_size is 1; object_size is 64.\n"
    "At:\n"
    "  refused @ verifier_refused.bpf.c:30:9\n"
    "  Source context:\n"
    "  >>> 30 |         return v[*(volatile __u16 *)data] ? XDP_PASS : XDP_DROP;\n"
    "         |         ^-- error: access may be outside object bounds\n"
    "  Instruction context:\n"
    "      15 | (0f) r0 += r1\n"
    "  >>> 16 | (71) r1 = *(u8 *)(r0 +0)\n"
    "Causal path:\n"
    "  refused @ verifier_refused.bpf.c:27:6\n"
    "  >>> 27 |         v = bpf_map_lookup_elem(&table, &key);\n"
    "  refused @ verifier_refused.bpf.c:30:9\n"
    "  >>> 30 |         return v[*(volatile __u16 *)data] ? XDP_PASS : XDP_DROP;\n"
    "  Instruction context:\n"
    "      14 | (69) r1 = *(u16 *)(r7 +0)\n"
    "  >>> 15 | (0f) r0 += r1\n"
    "      16 | (71) r1 = *(u8 *)(r0 +0)\n"
    "\n"
    "Suggestion:\n"
    "  Add or adjust a bounds check that proves offset + access_size stays within the object.\n"
    "\n"
    "processed 16 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 "
    "mark_read 0\n";

int main(int argc, char **argv)
{
	static char *lines[MAX_LINES];
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct bpf_object *obj;
	char *log, *copy, want[512], name[] = "lab0";
	int err, n, i, first, bad;

	if (argc != 2) {
		fprintf(stderr, "usage: %s verifier_refused.bpf.o\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 77;
	}
	log = calloc(1, XSKF_VERIFIER_LOG_SIZE);
	if (!log)
		return 1;
	/* as prog.c's open_load(): libbpf loads again with this log when the kernel refuses */
	oo.kernel_log_buf = log;
	oo.kernel_log_size = XSKF_VERIFIER_LOG_SIZE;
	libbpf_set_print(NULL);
	obj = bpf_object__open_file(argv[1], &oo);
	CHECK(obj != NULL, "open %s", argv[1]);
	if (!obj) {
		free(log);
		return tap_done();
	}
	err = bpf_object__load(obj);
	CHECK(err < 0, "the kernel refuses the program (%d: %s)", err, strerror(-err));
	CHECK(strstr(log, "invalid access to map value") != NULL,
	      "its verifier log gives the reason (the unbounded map value index)");

	xskf_set_print(capture);
	xskf_verifier_log__print(name, log, err);
	copy = strdup(log);
	if (!copy)
		return 1;
	n = split(copy, lines);
	CHECK(n > XSKF_VERIFIER_LOG_LINES, "the log has %d lines, more than the %d printed", n,
	      XSKF_VERIFIER_LOG_LINES);
	check_print("this kernel's log", lines, n, err, "invalid access to map value");
	for (i = 0; i < nr_out; i++)
		if (out[i].level == XSKF_LOG_WARN)
			printf("# %s", out[i].text);
	free(copy);

	/* Linux 7.x's log: the refusal far from the end */
	forget();
	xskf_verifier_log__print(name, log_7x, -EACCES);
	copy = strdup(log_7x);
	if (!copy)
		return 1;
	n = split(copy, lines);
	first = last_insn(lines, n);
	CHECK(first >= 0 && n - first > 2 * XSKF_VERIFIER_LOG_LINES,
	      "7.x's log: the last instruction (line %d) is more than %d lines from the end (%d)",
	      first, 2 * XSKF_VERIFIER_LOG_LINES, n);
	check_print("7.x's log", lines, n, -EACCES, "invalid access to map value");
	for (i = 0, bad = 0; i < nr_out; i++)
		if (!strcmp(out[i].text, "xskf:   \n"))
			bad = 1;
	CHECK(!bad, "7.x's log: no empty line printed");

	forget();
	xskf_verifier_log__print(name, "\n", -EINVAL);
	snprintf(want, sizeof(want),
		 "xskf: %s: the kernel refused the XDP program (%s) with no verifier log\n", name,
		 strerror(EINVAL));
	CHECK(nr_out == 1 && out[0].level == XSKF_LOG_WARN && !strcmp(out[0].text, want),
	      "an empty log: one line, %s", nr_out ? out[0].text : "(none)\n");
	forget();
	free(copy);
	free(log);
	bpf_object__close(obj);
	return tap_done();
}

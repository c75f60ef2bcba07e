// SPDX-License-Identifier: BSD-2-Clause
/*
 * A refused XDP program's verifier log, as xskf prints it (framework/backend/xdp/verifier_log.c,
 * the function prog.c calls when the kernel refuses its program): the kernel really refuses
 * verifier_refused.bpf.o, loaded the way prog.c loads (libbpf, the log buffer given at open),
 * and the test checks the message's exact form against the kernel's own log:
 *  - one warning "NAME: the kernel refused the XDP program (ERRNO TEXT); the verifier's log ends
 *    (-vv: all of it):", ERRNO TEXT from the load's own error;
 *  - then the log's last XSKF_VERIFIER_LOG_LINES lines as warnings, in order, each indented by
 *    two spaces, the verifier's reason among them;
 *  - every line before them at debug level (-vv), in order: the whole log, nothing added;
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
#include "backend/xdp/verifier_log.h"

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

/* the kernel's log split into lines, trailing empty lines dropped (as xskf reads it) */
static int split(char *log, char **lines)
{
	int n = 0;
	char *p, *save;

	for (p = strtok_r(log, "\n", &save); p && n < MAX_LINES; p = strtok_r(NULL, "\n", &save))
		lines[n++] = p;
	return n;
}

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
	CHECK(nr_out == n + 1, "one heading and every line of the log: %d messages for %d lines",
	      nr_out, n);
	snprintf(want, sizeof(want),
		 "xskf: %s: the kernel refused the XDP program (%s); the verifier's log ends (-vv: "
		 "all of it):\n",
		 name, strerror(-err));
	CHECK(nr_out > 0 && out[0].level == XSKF_LOG_WARN && !strcmp(out[0].text, want),
	      "heading as a warning: %s", nr_out ? out[0].text : "(none)\n");
	first = n - XSKF_VERIFIER_LOG_LINES;
	for (i = 0, bad = -1; i < n && i + 1 < nr_out && bad < 0; i++) {
		snprintf(want, sizeof(want), "xskf:   %s\n", lines[i]);
		if (strcmp(out[i + 1].text, want) ||
		    out[i + 1].level != (i < first ? XSKF_LOG_DEBUG : XSKF_LOG_WARN))
			bad = i;
	}
	CHECK(bad < 0 && nr_out == n + 1,
	      "the log's %d first lines at debug level, its last %d as warnings, in order%s%s",
	      first, XSKF_VERIFIER_LOG_LINES,
	      bad < 0 ? "" : "; differs at: ", bad < 0 ? "" : out[bad + 1].text);
	for (i = first, bad = 1; i < n; i++)
		if (strstr(lines[i], "invalid access to map value"))
			bad = 0;
	CHECK(!bad, "the refusal's reason is among the warnings");
	for (i = 0; i < nr_out; i++)
		if (out[i].level == XSKF_LOG_WARN)
			printf("# %s", out[i].text);

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

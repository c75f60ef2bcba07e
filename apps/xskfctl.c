// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskfctl - talk to a running xskf (any xsk-* command or `xskf run`) over its control socket.
 *
 *   xskfctl [-s NAME|PID|SOCKET] stats            the run's JSON document, now
 *   xskfctl [-s NAME|PID|SOCKET] plugins          its plugins
 *   xskfctl [-s NAME|PID|SOCKET] steer add RULE | del ID | list
 *                                                 its steering rules, live (docs/steering.md)
 *   xskfctl [-s NAME|PID|SOCKET] PLUGIN ARGS...   a plugin's command (`xskfctl tunnel reload`)
 *   xskfctl list                                  every running instance, a line each
 *   xskfctl [-s ...] metrics [--all]              the counters, Prometheus text format
 *   xskfctl [-s ...] top [--interval S] [--count N]  rates per port and queue, redrawn
 *   xskfctl [-s ...] capture [...] -w FILE|-          a live capture into pcapng
 *   xskfctl [-s ...] doctor [--seconds N] [--json]   every loss of the next N s, by cause
 *
 * Without -s: the one socket in /run/xskf (or $XSKF_CTL_DIR); -s picks a run by its name (the
 * NAME of NAME.PID.sock), its pid, or its socket's path. Exit 0 when the answer is not an
 * error, 1 when it is or nothing answers, 2 on usage errors. list, metrics and top are
 * xskfctl's own (built from `stats` answers, doctor also from `doctor` ones; capture streams): a plugin of one of those names is
 * not reachable.
 *
 * Who answers is checked (SO_PEERCRED: the uid that created the listening socket): root or
 * ourselves, never another user, who could have put a socket of theirs where we look and
 * forge the answer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xskf_plugin.h"
#include "xskfctl.h"
#include "xskfctl_doctor.h"

#ifndef XSKF_VERSION
#define XSKF_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xskfctl [-s NAME|PID|SOCKET] stats | plugins | PLUGIN [ARGS...]\n"
		"       xskfctl [-s NAME|PID|SOCKET] steer add RULE | steer del ID | steer list\n"
		"       xskfctl list\n"
		"       xskfctl [-s NAME|PID|SOCKET] metrics [--all]\n"
		"       xskfctl [-s NAME|PID|SOCKET] top [--interval S] [--count N]\n"
		"       xskfctl [-s NAME|PID|SOCKET] capture [--port IFACE] [--queue Q]\n"
		"               [--rx|--tx|--both] [-c N] [--snaplen S] -w FILE.pcapng|-\n"
		"       xskfctl [-s NAME|PID|SOCKET] doctor [--seconds N] [--json]\n"
		"  -s, --socket X   the run to ask: its name (xsk-rxdrop, filter+l2fwd), its pid,\n"
		"                   or its socket's path (default: the only run in %s)\n"
		"      --name NAME  the run called NAME (as -s NAME)\n"
		"      --pid PID    the run of process PID (as -s PID)\n"
		"      --all        metrics: every running instance\n"
		"      --interval S top: seconds between two tables (default 1, 0.1 to 3600)\n"
		"      --count N    top: N tables, then exit (default: until interrupted)\n"
		"      --port IFACE capture: frames of this port only (default: every port)\n"
		"      --queue Q    capture: of this queue only (default: every queue)\n"
		"      --rx         capture: the frames received (before the app)\n"
		"      --tx         capture: the frames sent (as the app sends them)\n"
		"      --both       capture: both (default)\n"
		"  -c N             capture: N frames, then exit (default: until interrupted)\n"
		"      --snaplen S  capture: bytes kept of each frame, 1 to 65535 (default all,\n"
		"                   at most 4096)\n"
		"  -w FILE          capture: the pcapng file to write, - for stdout\n"
		"      --mode MODE  capture: the -w file's mode, octal (default 0600)\n"
		"      --seconds N  doctor: sample the counters this long (default 3)\n"
		"      --json       doctor: one JSON document (xskfctl(1))\n"
		"  -V, --version    xskfctl's version and the plugin ABI it knows\n"
		"  -h, --help       this text\n",
		ctl_dir());
}

/* A request to the run itself: stats, plugins, a plugin's command. */
static int cmd_remote(const char *want, int argc, char **argv)
{
	char req[1100], err[512], *ans;
	struct ctl_inst inst;
	size_t len = 0, n;
	int i, is_error;
	bool cut;

	for (i = 0; i < argc; i++) {
		int w = snprintf(req + len, sizeof(req) - len, "%s%s", len ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(req) - len - 1) {
			fprintf(stderr, "xskfctl: request too long\n");
			return 2;
		}
		len += (size_t)w;
	}
	req[len++] = '\n';
	req[len] = 0;
	if (ctl_choose(want, &inst))
		return 1;
	if (ctl_ask(inst.path, req, &ans, &n, err, sizeof(err))) {
		fprintf(stderr, "xskfctl: %s\n", err);
		return 1;
	}
	is_error = n >= 6 && !memcmp(ans, "error:", 6);
	/* every answer ends with a newline: one without was cut on its way (the run ended) */
	cut = n && ans[n - 1] != '\n';
	fwrite(ans, 1, n, stdout);
	free(ans);
	if (cut) {
		fprintf(stderr, "\nxskfctl: the answer of %s ended early (%zu bytes, no final "
				"newline): the run ended or let go of it\n",
			inst.path, n);
		return 1;
	}
	return is_error;
}

int main(int argc, char **argv)
{
	const char *want = NULL;
	int i = 1;

	/* options come before the request; what follows the request's first word is its own */
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("xskfctl (xskf) %s, plugin ABI %d\n", XSKF_VERSION, XSKF_PLUGIN_ABI);
			return 0;
		}
		if (strcmp(o, "-s") && strcmp(o, "--socket") && strcmp(o, "--name") &&
		    strcmp(o, "--pid")) {
			fprintf(stderr, "xskfctl: unknown option '%s' (xskfctl --help)\n", o);
			return 2;
		}
		if (++i == argc) {
			fprintf(stderr, "xskfctl: %s needs a %s\n", o,
				!strcmp(o, "--name")  ? "NAME"
				: !strcmp(o, "--pid") ? "PID"
						      : "NAME, PID or SOCKET");
			return 2;
		}
		if (want) {
			fprintf(stderr,
				"xskfctl: %s: the run is already chosen ('%s'): give one of "
				"-s, --name, --pid\n",
				o, want);
			return 2;
		}
		want = argv[i];
		if (!strcmp(o, "--pid") && !ctl_all_digits(want)) {
			fprintf(stderr, "xskfctl: invalid --pid '%s': a process id (digits)\n",
				want);
			return 2;
		}
		if (!strcmp(o, "--name") && (ctl_all_digits(want) || strchr(want, '/') || !*want)) {
			fprintf(stderr,
				"xskfctl: invalid --name '%s': a run's name (xsk-rxdrop, "
				"filter+l2fwd), not a pid or a path\n",
				want);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[i], "list")) {
		if (want) {
			fprintf(stderr, "xskfctl: list shows every run: it takes no -s, --name or "
					"--pid\n");
			return 2;
		}
		return cmd_list(argc - i - 1, argv + i + 1);
	}
	if (!strcmp(argv[i], "metrics"))
		return cmd_metrics(want, argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "top"))
		return cmd_top(want, argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "capture"))
		return cmd_capture(want, argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "doctor"))
		return cmd_doctor(want, argc - i - 1, argv + i + 1);
	return cmd_remote(want, argc - i, argv + i);
}

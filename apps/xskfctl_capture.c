// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl capture`: a live capture of a running xskf into pcapng. The run writes the pcapng
 * (framework/runner/capture.c) after an "ok: ..." line; this copies it into the file (or to
 * stdout, for tcpdump -r - and Wireshark -k -i -) and reads its blocks on the way, to say at
 * the end how many frames it holds and how many the run's capture rings dropped. The capture
 * ends after -c N frames, at Ctrl-C (the file is complete up to there), or when the run ends.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "xskfctl.h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* The pcapng blocks of the stream as they pass: frames (EPB) and the drops (ISB isb_osdrop). */
struct scan {
	uint8_t *blk;
	size_t got, cap;
	unsigned long long frames, drops;
	bool end_seen, bad;
};

static void block(struct scan *sc)
{
	uint32_t type, len, olen;
	uint16_t code;
	size_t o;

	memcpy(&type, sc->blk, 4);
	memcpy(&len, sc->blk + 4, 4);
	if (type == 6)
		sc->frames++;
	if (type != 5 || len < 24)
		return;
	sc->end_seen = true;
	for (o = 20; o + 4 <= len - 4; o += 4 + ((olen + 3) & ~3u)) { /* its options */
		memcpy(&code, sc->blk + o, 2);
		olen = 0;
		memcpy(&olen, sc->blk + o + 2, 2);
		if (!code)
			break;
		if (code == 7 && olen == 8 && o + 12 <= len) {
			uint64_t d;

			memcpy(&d, sc->blk + o + 4, 8);
			sc->drops += d;
		}
	}
}

static void feed(struct scan *sc, const uint8_t *p, size_t n)
{
	while (n && !sc->bad) {
		size_t need = 8, take;
		uint32_t len;

		if (sc->got >= 8) {
			memcpy(&len, sc->blk + 4, 4);
			if (len < 12 || len % 4 || len > (64u << 20)) {
				sc->bad = true; /* not pcapng: the server's, so not ours to fix */
				return;
			}
			need = len;
		}
		if (need > sc->cap) {
			uint8_t *nb = realloc(sc->blk, need);

			if (!nb) {
				sc->bad = true;
				return;
			}
			sc->blk = nb;
			sc->cap = need;
		}
		take = need - sc->got < n ? need - sc->got : n;
		memcpy(sc->blk + sc->got, p, take);
		sc->got += take;
		p += take;
		n -= take;
		if (sc->got == need && need > 8) {
			block(sc);
			sc->got = 0;
		}
	}
}

static int usage_err(const char *what, const char *arg)
{
	fprintf(stderr, "xskfctl: capture: %s%s%s (xskfctl --help)\n", what, arg ? " " : "",
		arg ? arg : "");
	return 2;
}

/* @s as a whole number from @min to @max. */
static bool num(const char *s, unsigned long long min, unsigned long long max,
		unsigned long long *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return false;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v >= min && *v <= max;
}

int cmd_capture(const char *want, int argc, char **argv)
{
	char req[512], err[600], line[512];
	const char *file = NULL, *port = NULL, *dir = "both";
	unsigned long long count = 0, snap = 0, queue = 0;
	bool has_queue = false;
	struct scan sc = {0};
	struct ctl_inst inst;
	struct sigaction sa = {.sa_handler = on_stop}; /* no SA_RESTART: recv() returns */
	size_t ll = 0;
	FILE *out = NULL;
	int i, fd = -1, tries, rc = 1;

	for (i = 0; i < argc; i++) {
		const char *o = argv[i];
		bool val = !strcmp(o, "--port") || !strcmp(o, "--queue") || !strcmp(o, "-c") ||
			   !strcmp(o, "--snaplen") || !strcmp(o, "-w");

		if (!strcmp(o, "--rx") || !strcmp(o, "--tx") || !strcmp(o, "--both")) {
			dir = o + 2;
			continue;
		}
		if (!val)
			return usage_err(o[0] == '-' ? "unknown option" : "unexpected argument", o);
		if (++i == argc) {
			fprintf(stderr, "xskfctl: capture: %s needs a value\n", o);
			return 2;
		}
		if (!strcmp(o, "--port")) {
			port = argv[i];
			if (!*port || strlen(port) >= 16 || strpbrk(port, " /=")) {
				fprintf(stderr, "xskfctl: capture: invalid --port '%s': an interface "
						"name\n", port);
				return 2;
			}
		} else if (!strcmp(o, "--queue")) {
			if (!num(argv[i], 0, 65535, &queue)) {
				fprintf(stderr, "xskfctl: capture: invalid --queue '%s': 0 to 65535\n",
					argv[i]);
				return 2;
			}
			has_queue = true;
		} else if (!strcmp(o, "-c")) {
			if (!num(argv[i], 1, 1000000000000ull, &count)) {
				fprintf(stderr, "xskfctl: capture: invalid -c '%s': a number of frames "
						"from 1 to 10^12\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(o, "--snaplen")) {
			if (!num(argv[i], 1, 65535, &snap)) {
				fprintf(stderr, "xskfctl: capture: invalid --snaplen '%s': 1 to 65535 "
						"bytes (leave it out for whole frames)\n", argv[i]);
				return 2;
			}
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		fprintf(stderr, "xskfctl: capture needs -w FILE.pcapng (or -w - for stdout)\n");
		return 2;
	}
	snprintf(req, sizeof(req), "capture dir=%s", dir);
	if (port)
		snprintf(req + strlen(req), sizeof(req) - strlen(req), " port=%s", port);
	if (has_queue)
		snprintf(req + strlen(req), sizeof(req) - strlen(req), " queue=%llu", queue);
	if (count)
		snprintf(req + strlen(req), sizeof(req) - strlen(req), " count=%llu", count);
	if (snap)
		snprintf(req + strlen(req), sizeof(req) - strlen(req), " snaplen=%llu", snap);
	strcat(req, "\n");
	if (ctl_choose(want, &inst))
		return 1;
	/* the first line decides: "ok: ..." then pcapng, or one "error: ..." line */
	for (tries = 0;; tries++) {
		ssize_t r;

		fd = ctl_connect(inst.path, err, sizeof(err));
		if (fd < 0) {
			fprintf(stderr, "xskfctl: %s\n", err);
			return 1;
		}
		if (send(fd, req, strlen(req), MSG_NOSIGNAL) < 0 && errno != EPIPE &&
		    errno != ECONNRESET) {
			fprintf(stderr, "xskfctl: cannot send to %s: %s\n", inst.path,
				strerror(errno));
			goto out;
		}
		shutdown(fd, SHUT_WR);
		ll = 0;
		while (ll < sizeof(line) - 1 && (r = recv(fd, line + ll, 1, 0)) == 1 &&
		       line[ll] != '\n')
			ll++;
		line[ll] = 0;
		if (tries < 40 && (!ll || !strncmp(line, "error: busy", 11))) {
			close(fd);
			usleep(50 * 1000);
			continue;
		}
		break;
	}
	if (strncmp(line, "ok:", 3)) {
		fprintf(stderr, "xskfctl: %s\n", ll ? (strncmp(line, "error: ", 7) ? line : line + 7)
					       : "the run closed the capture without an answer");
		goto out;
	}
	/* the run's own words on what it captures: a script waits for this line */
	fprintf(stderr, "xskfctl: %s\n", line + 4);
	out = strcmp(file, "-") ? fopen(file, "wb") : stdout;
	if (!out) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", file, strerror(errno));
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* -w - into a reader that goes: a write error, said */
	for (;;) {
		uint8_t buf[65536];
		ssize_t r = recv(fd, buf, sizeof(buf), 0);

		if (r < 0 && errno == EINTR && !stop)
			continue;
		if (r <= 0)
			break;
		feed(&sc, buf, (size_t)r);
		if (fwrite(buf, 1, (size_t)r, out) != (size_t)r || fflush(out)) {
			fprintf(stderr, "xskfctl: cannot write %s: %s: the capture stops\n",
				strcmp(file, "-") ? file : "stdout", strerror(errno));
			goto out;
		}
		if (stop)
			break;
	}
	if (sc.bad) {
		fprintf(stderr, "xskfctl: the run's capture stream is not pcapng\n");
		goto out;
	}
	if (count && sc.frames < count && !stop) {
		fprintf(stderr, "xskfctl: the run ended the capture after %llu of %llu frames "
				"(%s holds them)\n", sc.frames, count,
			strcmp(file, "-") ? file : "stdout");
		goto out;
	}
	fprintf(stderr, "xskfctl: %llu frame%s captured into %s%s", sc.frames,
		sc.frames == 1 ? "" : "s", strcmp(file, "-") ? file : "stdout",
		stop ? " (interrupted)" : "");
	if (sc.end_seen)
		fprintf(stderr, ", %llu dropped (capture rings full)\n", sc.drops);
	else
		fprintf(stderr, "\n");
	rc = 0;
out:
	if (out && out != stdout && fclose(out) && !rc) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", file, strerror(errno));
		rc = 1;
	}
	if (fd >= 0)
		close(fd);
	free(sc.blk);
	return rc;
}

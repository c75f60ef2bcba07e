// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xskfctl capture`: a live capture of a running xskf into pcapng. The run writes the pcapng
 * (framework/runner/capture.c) after an "ok: ..." line; this copies it into the file (or to
 * stdout, for tcpdump -r - and Wireshark -k -i -) and reads its blocks on the way, to say at
 * the end how many frames it holds and how many the run's capture rings dropped. The capture
 * ends after -c N frames, at Ctrl-C (the run is asked to end it, and ends it as after -c N:
 * the statistics block with the drops, then the close), or when the run ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
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

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* What @st is, for the refusal of an existing -w file. */
static const char *not_ours(const struct stat *st, char *buf, size_t len)
{
	if (S_ISLNK(st->st_mode))
		return "a symlink";
	if (S_ISDIR(st->st_mode))
		return "a folder";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (!S_ISREG(st->st_mode))
		return "a device";
	if (st->st_uid != geteuid()) {
		snprintf(buf, len, "owned by uid %u, not you", (unsigned int)st->st_uid);
		return buf;
	}
	if (st->st_nlink != 1) {
		snprintf(buf, len, "a file with %lu hard links", (unsigned long)st->st_nlink);
		return buf;
	}
	return NULL;
}

/*
 * The -w file, opened before the run is asked for a capture (a path that cannot be written is
 * said before a capture starts). xskfctl mostly runs as root, and the path may be in a folder
 * others can write (/tmp): a symlink, FIFO, device or hard link planted under that name would
 * make root write where it should not. So the folder is opened once and the file is reached
 * through it (openat, unlinkat: a folder renamed meanwhile cannot send either elsewhere); a new
 * file is created O_CREAT | O_EXCL | O_NOFOLLOW; an existing one is replaced (truncated once
 * the run says ok) only when it is a regular file of the caller's with one link, checked on
 * the opened fd; anything else is refused in one line. Either gets @mode (0600 unless --mode
 * says otherwise): a capture holds others' traffic, not for every local user to read.
 */
struct out_file {
	int dfd;	  /* the folder of the file, held until the file is closed */
	const char *base; /* its name there */
	bool created;	  /* new: removed again if the capture does not start */
};

static int open_new_or_ours(const char *file, struct out_file *o)
{
	struct stat st, st2;
	const char *what;
	char buf[64];
	int fd;

	fd = openat(o->dfd, o->base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		o->created = true;
		return fd;
	}
	if (errno != EEXIST || fstatat(o->dfd, o->base, &st, AT_SYMLINK_NOFOLLOW)) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", file, strerror(errno));
		return -1;
	}
	what = not_ours(&st, buf, sizeof(buf));
	if (what) {
		fprintf(stderr,
			"xskfctl: capture: %s exists and is %s: not written (remove it or "
			"choose another path)\n",
			file, what);
		return -1;
	}
	/* O_NONBLOCK: a FIFO swapped in since the fstatat() does not hold the open */
	fd = openat(o->dfd, o->base, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st2) || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino ||
	    not_ours(&st2, buf, sizeof(buf)) || fcntl(fd, F_SETFL, 0)) {
		fprintf(stderr,
			"xskfctl: capture: %s changed while it was checked: not written "
			"(choose another path)\n",
			file);
		close(fd);
		return -1;
	}
	return fd;
}

static int open_out(const char *file, mode_t mode, struct out_file *o)
{
	const char *slash = strrchr(file, '/');
	char dir[4096];
	int fd;

	o->created = false;
	o->base = slash ? slash + 1 : file;
	if (!*o->base || (slash && (size_t)(slash - file) >= sizeof(dir))) {
		fprintf(stderr, "xskfctl: capture: -w %s: give a file name\n", file);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	o->dfd = open(slash == file ? "/" : dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (o->dfd < 0) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", file, strerror(errno));
		return -1;
	}
	fd = open_new_or_ours(file, o);
	/* the mode asked, whatever the umask or the old file's mode */
	if (fd >= 0 && fchmod(fd, mode)) {
		fprintf(stderr, "xskfctl: cannot set the mode of %s: %s\n", file, strerror(errno));
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		close(o->dfd);
		o->dfd = -1;
	}
	return fd;
}

/* A file open_out() created for a capture that did not start: gone again, if still ours. */
static void remove_new(const struct out_file *o, int fd)
{
	struct stat a, b;

	if (!fstat(fd, &a) && !fstatat(o->dfd, o->base, &b, AT_SYMLINK_NOFOLLOW) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlinkat(o->dfd, o->base, 0);
}

/* --mode: octal, as chmod takes it (the one option number that is not decimal), 0 to 0777 */
static bool parse_mode(const char *s, mode_t *mode)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "01234567") != strlen(s))
		return false;
	v = strtoul(s, &end, 8);
	if (*end || v > 0777)
		return false;
	*mode = (mode_t)v;
	return true;
}

/* What the command line asks: the request's fields and where the frames go. */
struct cap_args {
	const char *file, *port;
	unsigned long long count, snap, queue;
	unsigned int dirs; /* 1 rx, 2 tx: --rx --tx is both */
	bool has_queue;
	mode_t mode;
};

/* One option that takes a value, @v: 0, or 2 (the exit code) with the refusal said. */
static int set_value(struct cap_args *a, const char *o, const char *v)
{
	if (!strcmp(o, "--port")) {
		a->port = v;
		if (!*v || strlen(v) >= 16 || strpbrk(v, " /=")) {
			fprintf(stderr, "xskfctl: capture: invalid --port '%s': an interface name\n",
				v);
			return 2;
		}
	} else if (!strcmp(o, "--queue")) {
		if (!num(v, 0, 65535, &a->queue)) {
			fprintf(stderr, "xskfctl: capture: invalid --queue '%s': 0 to 65535\n", v);
			return 2;
		}
		a->has_queue = true;
	} else if (!strcmp(o, "-c")) {
		if (!num(v, 1, 1000000000000ull, &a->count)) {
			fprintf(stderr, "xskfctl: capture: invalid -c '%s': a number of frames "
					"from 1 to 10^12\n", v);
			return 2;
		}
	} else if (!strcmp(o, "--snaplen")) {
		if (!num(v, 1, 65535, &a->snap)) {
			fprintf(stderr, "xskfctl: capture: invalid --snaplen '%s': 1 to 65535 "
					"bytes (leave it out for whole frames)\n", v);
			return 2;
		}
	} else if (!strcmp(o, "--mode")) {
		if (!parse_mode(v, &a->mode)) {
			fprintf(stderr, "xskfctl: capture: invalid --mode '%s': octal, 0 to "
					"0777 (default 0600)\n", v);
			return 2;
		}
	} else {
		a->file = v;
	}
	return 0;
}

/* The command line into @a: 0, or 2 (the exit code of a usage error) with the error said. */
static int parse_args(int argc, char **argv, struct cap_args *a)
{
	int i, rc;

	for (i = 0; i < argc; i++) {
		const char *o = argv[i];
		bool val = !strcmp(o, "--port") || !strcmp(o, "--queue") || !strcmp(o, "-c") ||
			   !strcmp(o, "--snaplen") || !strcmp(o, "-w") || !strcmp(o, "--mode");

		if (!strcmp(o, "--rx") || !strcmp(o, "--tx") || !strcmp(o, "--both")) {
			a->dirs |= o[2] == 'r' ? 1 : o[2] == 't' ? 2 : 3;
			continue;
		}
		if (!val)
			return usage_err(o[0] == '-' ? "unknown option" : "unexpected argument", o);
		if (++i == argc) {
			fprintf(stderr, "xskfctl: capture: %s needs a value\n", o);
			return 2;
		}
		rc = set_value(a, o, argv[i]);
		if (rc)
			return rc;
	}
	if (!a->file) {
		fprintf(stderr, "xskfctl: capture needs -w FILE.pcapng (or -w - for stdout)\n");
		return 2;
	}
	return 0;
}

/* The request line of the control protocol for @a (framework/runner/ctl_proto.c reads it). */
static void format_request(const struct cap_args *a, char *req, size_t size)
{
	snprintf(req, size, "capture dir=%s", a->dirs == 1 ? "rx" : a->dirs == 2 ? "tx" : "both");
	if (a->port)
		snprintf(req + strlen(req), size - strlen(req), " port=%s", a->port);
	if (a->has_queue)
		snprintf(req + strlen(req), size - strlen(req), " queue=%llu", a->queue);
	if (a->count)
		snprintf(req + strlen(req), size - strlen(req), " count=%llu", a->count);
	if (a->snap)
		snprintf(req + strlen(req), size - strlen(req), " snaplen=%llu", a->snap);
	snprintf(req + strlen(req), size - strlen(req), "\n");
}

/*
 * Asks the run at @path for the capture @req and reads its first line into @line: the
 * connected socket (the caller tells "ok: ..." from "error: ...") or -1 with the error said.
 * A run busy with another capture, or one that closed before answering, is asked again for
 * 2 s: a capture that just ended frees its place a moment after its client has seen the end.
 */
static int ask_capture(const char *path, const char *req, char *line, size_t size)
{
	char err[600];
	size_t ll = 0;
	int tries, fd;

	for (tries = 0;; tries++) {
		fd = ctl_connect(path, err, sizeof(err));
		if (fd < 0) {
			fprintf(stderr, "xskfctl: %s\n", err);
			return -1;
		}
		/* the write side stays open: Ctrl-C sends "end" on it (the run then closes) */
		if (send(fd, req, strlen(req), MSG_NOSIGNAL) < 0 && errno != EPIPE &&
		    errno != ECONNRESET) {
			fprintf(stderr, "xskfctl: cannot send to %s: %s\n", path, strerror(errno));
			close(fd);
			return -1;
		}
		ll = 0;
		while (ll < size - 1 && recv(fd, line + ll, 1, 0) == 1 && line[ll] != '\n')
			ll++;
		line[ll] = 0;
		if (tries < 40 && (!ll || !strncmp(line, "error: busy", 11))) {
			close(fd);
			usleep(50 * 1000);
			continue;
		}
		return fd;
	}
}

/*
 * Copies the stream of @fd into @out, read on the way by @sc, until the run closes it (after
 * -c N frames, or when it ends) or Ctrl-C ends it: 0, or -1 with a write error said.
 * @ending tells the caller that Ctrl-C ended it.
 */
static int copy_stream(int fd, FILE *out, const char *name, struct scan *sc, bool *ending)
{
	uint64_t end_by = 0;

	for (;;) {
		uint8_t buf[65536];
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t r;
		int left = -1;

		if (stop && !*ending) {
			/*
			 * Ctrl-C: the run is asked to end the capture, and ends the stream as -c
			 * does (its last frames, the statistics block with the drops), then closes.
			 * A second Ctrl-C, or 2 s without the end, stops at once.
			 */
			*ending = true;
			stop = 0;
			end_by = now_ms() + 2000;
			if (send(fd, "end\n", 4, MSG_NOSIGNAL) != 4)
				return 0;
		} else if (stop) {
			return 0;
		}
		if (*ending) {
			uint64_t now = now_ms();

			if (now >= end_by)
				return 0;
			left = (int)(end_by - now);
		}
		if (poll(&p, 1, left) <= 0)
			continue; /* a signal, or the time to end: seen above */
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return 0;
		feed(sc, buf, (size_t)r);
		if (fwrite(buf, 1, (size_t)r, out) != (size_t)r || fflush(out)) {
			fprintf(stderr, "xskfctl: cannot write %s: %s: the capture stops\n", name,
				strerror(errno));
			return -1;
		}
	}
}

/* The last words on a capture that ended: 0, or 1 when it is not what was asked. */
static int say_result(const struct scan *sc, const struct cap_args *a, const char *name,
		      bool ending)
{
	if (sc->bad) {
		fprintf(stderr, "xskfctl: the run's capture stream is not pcapng\n");
		return 1;
	}
	if (a->count && sc->frames < a->count && !ending) {
		fprintf(stderr, "xskfctl: the run ended the capture after %llu of %llu frames "
				"(%s holds them)\n", sc->frames, a->count, name);
		return 1;
	}
	fprintf(stderr, "xskfctl: %llu frame%s captured into %s%s", sc->frames,
		sc->frames == 1 ? "" : "s", name, ending ? " (interrupted)" : "");
	if (sc->end_seen)
		fprintf(stderr, ", %llu dropped (capture rings full)\n", sc->drops);
	else
		fprintf(stderr, " (the run sent no drop count: the file has no statistics "
				"block)\n");
	return 0;
}

/*
 * The stream of a capture the run accepted (@line: its "ok: ..."), into the -w file @ofd or
 * stdout: 0 or 1. The file is emptied only now (an existing one stays as it was when the
 * run refuses) and then stays, whatever it holds. @ofd is closed here.
 */
static int receive(int fd, const char *line, const struct cap_args *a, struct out_file *of,
		   int ofd)
{
	const char *name = strcmp(a->file, "-") ? a->file : "stdout";
	struct sigaction sa = {.sa_handler = on_stop}; /* no SA_RESTART: poll() returns */
	struct scan sc = {0};
	bool ending = false;
	FILE *out;
	int rc = 1;

	/* the run's own words on what it captures: a script waits for this line */
	fprintf(stderr, "xskfctl: %s\n", line + 4);
	if (ofd >= 0 && !of->created && ftruncate(ofd, 0)) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", a->file, strerror(errno));
		close(ofd);
		return 1;
	}
	of->created = false; /* the capture started: the file stays, whatever it holds */
	out = ofd >= 0 ? fdopen(ofd, "wb") : stdout;
	if (!out) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", a->file, strerror(errno));
		close(ofd);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* -w - into a reader that goes: a write error, said */
	if (!copy_stream(fd, out, name, &sc, &ending))
		rc = say_result(&sc, a, name, ending);
	if (out != stdout && fclose(out) && !rc) {
		fprintf(stderr, "xskfctl: cannot write %s: %s\n", a->file, strerror(errno));
		rc = 1;
	}
	free(sc.blk);
	return rc;
}

int cmd_capture(const char *want, int argc, char **argv)
{
	struct cap_args a = {.mode = 0600};
	struct out_file of = {.dfd = -1};
	char req[512], line[512];
	struct ctl_inst inst;
	int fd = -1, ofd = -1, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	format_request(&a, req, sizeof(req));
	if (ctl_choose(want, &inst))
		return 1;
	/* the file first: a path that cannot be written starts no capture on the run */
	if (strcmp(a.file, "-")) {
		ofd = open_out(a.file, a.mode, &of);
		if (ofd < 0)
			return 1;
	}
	/* the first line decides: "ok: ..." then pcapng, or one "error: ..." line */
	fd = ask_capture(inst.path, req, line, sizeof(line));
	rc = 1;
	if (fd >= 0 && !strncmp(line, "ok:", 3)) {
		rc = receive(fd, line, &a, &of, ofd);
		ofd = -1;
	} else if (fd >= 0) {
		fprintf(stderr, "xskfctl: %s\n", *line ? (strncmp(line, "error: ", 7) ? line : line + 7)
						 : "the run closed the capture without an answer");
	}
	if (ofd >= 0) {
		if (of.created)
			remove_new(&of, ofd);
		close(ofd);
	}
	if (of.dfd >= 0)
		close(of.dfd);
	if (fd >= 0)
		close(fd);
	return rc;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskfctl - talk to a running xskf (any xsk-* command or `xskf run`) over its control socket.
 *
 *   xskfctl [-s NAME|PID|SOCKET] stats            the run's JSON document, now
 *   xskfctl [-s NAME|PID|SOCKET] plugins          its plugins
 *   xskfctl [-s NAME|PID|SOCKET] steer add RULE | del ID | list
 *                                                 its steering rules, live (docs/steering.md)
 *   xskfctl [-s NAME|PID|SOCKET] PLUGIN ARGS...   a plugin's command (`xskfctl tunnel reload`)
 *
 * Without -s: the one socket in /run/xskf (or $XSKF_CTL_DIR); -s picks a run by its name (the
 * NAME of NAME.PID.sock), its pid, or its socket's path. Exit 0 when the answer is not an
 * error, 1 when it is or nothing answers, 2 on usage errors.
 *
 * Who answers is checked (SO_PEERCRED: the uid that created the listening socket): root or
 * ourselves, never another user, who could have put a socket of theirs where we look and
 * forge the answer.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char *ctl_dir(void)
{
	const char *dir = getenv("XSKF_CTL_DIR");

	return dir && *dir ? dir : "/run/xskf";
}

/* Does socket file @name (NAME.PID.sock) belong to @want: a PID (all digits), a NAME, or any? */
static bool sock_matches(const char *name, const char *want)
{
	size_t l = strlen(name), wl;
	const char *dot;

	if (l <= 5 || strcmp(name + l - 5, ".sock"))
		return false;
	if (!want)
		return true;
	dot = memrchr(name, '.', l - 5); /* the dot before PID */
	if (!dot)
		return false;
	wl = strlen(want);
	if (strspn(want, "0123456789") == wl) /* a pid */
		return (size_t)(name + l - 5 - dot - 1) == wl && !memcmp(dot + 1, want, wl);
	return (size_t)(dot - name) == wl && !memcmp(name, want, wl);
}

/*
 * The one NAME.PID.sock of the control folder that matches @want (NULL: any); with several,
 * name them and give up.
 */
static int find_socket(const char *want, char *path, size_t len)
{
	const char *dir = ctl_dir();
	char names[16][256];
	struct dirent *de;
	unsigned int n = 0, i;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			fprintf(stderr, "xskfctl: no xskf is running (no control folder %s)\n", dir);
		else if (errno == EACCES)
			fprintf(stderr, "xskfctl: cannot read the control folder %s: %s: only its "
					"owner (root) can reach a running xskf: run xskfctl as root\n",
				dir, strerror(errno));
		else
			fprintf(stderr, "xskfctl: cannot read the control folder %s: %s\n", dir,
				strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (!sock_matches(de->d_name, want))
			continue;
		if (n < 16)
			snprintf(names[n], sizeof(names[n]), "%s", de->d_name);
		n++;
	}
	closedir(d);
	if (n == 1) {
		int w = snprintf(path, len, "%s/%s", dir, names[0]);

		if (w > 0 && (size_t)w < len)
			return 0;
		fprintf(stderr, "xskfctl: the socket's path in %s is too long\n", dir);
		return -1;
	}
	for (i = 0; i < n && i < 16; i++)
		fprintf(stderr, "%s/%s\n", dir, names[i]);
	if (!n && want)
		fprintf(stderr, "xskfctl: no running xskf called '%s' (no %s.sock in %s)\n", want,
			strspn(want, "0123456789") == strlen(want) ? "*.PID" : "NAME.*", dir);
	else if (!n)
		fprintf(stderr, "xskfctl: no xskf is running (no socket in %s)\n", dir);
	else
		fprintf(stderr, "xskfctl: %u runs have a socket (above): choose one with -s NAME, "
				"-s PID or -s SOCKET\n",
			n);
	return -1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: xskfctl [-s NAME|PID|SOCKET] stats | plugins | steer add RULE | steer del ID\n"
		   "               | steer list | PLUGIN [ARGS...]\n"
		   "  -s, --socket X   the run to ask: its name (xsk-rxdrop, filter+l2fwd), its pid,\n"
		   "                   or its socket's path (default: the only run in %s)\n"
		   "  -h, --help       this text\n",
		ctl_dir());
}

/*
 * One request to the run at @path: connect, check who serves it, send, print the answer.
 * Returns 0 (answered), 1 (an error answer, or no answer), or -EAGAIN when the run was busy
 * and @may_retry (nothing printed then).
 */
static long ask(const char *path, const char *req, size_t len, bool may_retry)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static char buf[65536];
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	ssize_t r, got = 0;
	int fd, is_error;

	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "xskfctl: cannot connect to %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
		fprintf(stderr, "xskfctl: cannot tell who serves %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	if (cred.uid != 0 && cred.uid != geteuid()) {
		fprintf(stderr,
			"xskfctl: %s is served by uid %u (pid %d), neither root nor you: not "
			"trusting it\n",
			path, (unsigned int)cred.uid, (int)cred.pid);
		close(fd);
		return 1;
	}
	/* a refusal may have closed the socket before we wrote: its line is still to be read */
	r = send(fd, req, len, MSG_NOSIGNAL);
	if (r != (ssize_t)len && errno != EPIPE && errno != ECONNRESET) {
		fprintf(stderr, "xskfctl: cannot send to %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	shutdown(fd, SHUT_WR);
	/* the first line decides: a busy answer is retried, not printed */
	while (got < (ssize_t)sizeof(buf) && !memchr(buf, '\n', (size_t)got) &&
	       (r = recv(fd, buf + got, sizeof(buf) - (size_t)got, 0)) > 0)
		got += r;
	if (may_retry && got >= 11 && !memcmp(buf, "error: busy", 11)) {
		close(fd);
		return -EAGAIN;
	}
	if (!got) {
		close(fd);
		if (may_retry)
			return -EAGAIN; /* closed before a word: refused while we were writing */
		fprintf(stderr, "xskfctl: %s closed without an answer\n", path);
		return 1;
	}
	is_error = got >= 6 && !memcmp(buf, "error:", 6);
	fwrite(buf, 1, (size_t)got, stdout);
	while ((r = recv(fd, buf, sizeof(buf), 0)) > 0)
		fwrite(buf, 1, (size_t)r, stdout);
	close(fd);
	return is_error;
}

int main(int argc, char **argv)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)] = "", req[1100];
	size_t len = 0;
	long r;
	int i = 1, tries;
	const char *want = NULL;

	/* options come before the request; what follows the request's first word is its own */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "-s") && strcmp(argv[i], "--socket")) {
			fprintf(stderr, "xskfctl: unknown option '%s' (xskfctl --help)\n", argv[i]);
			return 2;
		}
		if (++i == argc) {
			fprintf(stderr, "xskfctl: %s needs a NAME, PID or SOCKET\n", argv[i - 1]);
			return 2;
		}
		want = argv[i];
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (want && strchr(want, '/')) {
		if (strlen(want) >= sizeof(path)) {
			fprintf(stderr, "xskfctl: socket path too long: %s\n", want);
			return 2;
		}
		snprintf(path, sizeof(path), "%s", want);
	}
	for (; i < argc; i++) {
		int w = snprintf(req + len, sizeof(req) - len, "%s%s", len ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(req) - len - 1) {
			fprintf(stderr, "xskfctl: request too long\n");
			return 2;
		}
		len += (size_t)w;
	}
	req[len++] = '\n';
	if (!path[0] && find_socket(want, path, sizeof(path)))
		return 1;
	/*
	 * A run serves a bounded number of connections; one that comes while they are all taken
	 * and before its request has arrived is told "error: busy" (the server never waits).
	 * That answer says to try again: so we do, for up to 2 s, 50 ms apart.
	 */
	for (tries = 0;; tries++) {
		r = ask(path, req, len, tries < 40);
		if (r != -EAGAIN)
			return (int)r;
		usleep(50 * 1000);
	}
}

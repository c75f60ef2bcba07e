// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskfctl - talk to a running xskf (any xsk-* command or `xskf run`) over its control socket.
 *
 *   xskfctl [-s SOCKET] stats            the run's JSON document, now
 *   xskfctl [-s SOCKET] plugins          its plugins
 *   xskfctl [-s SOCKET] PLUGIN ARGS...   a plugin's command, e.g. `xskfctl tunnel reload`
 *
 * Without -s: the one socket in /run/xskf (or $XSKF_CTL_DIR). Exit 0 when the answer is not an
 * error, 1 when it is or nothing answers, 2 on usage errors.
 *
 * Who answers is checked (SO_PEERCRED: the uid that created the listening socket): root or
 * ourselves, never another user, who could have put a socket of theirs where we look and
 * forge the answer.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* The one NAME.PID.sock of the control folder; with several, name them and give up. */
static int find_socket(char *path, size_t len)
{
	const char *dir = getenv("XSKF_CTL_DIR");
	char names[16][256];
	struct dirent *de;
	unsigned int n = 0, i;
	DIR *d;

	if (!dir || !*dir)
		dir = "/run/xskf";
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "xskfctl: no xskf is running (cannot open %s: %s)\n", dir,
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= 5 || strcmp(de->d_name + l - 5, ".sock"))
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
	if (!n)
		fprintf(stderr, "xskfctl: no xskf is running (no socket in %s)\n", dir);
	else
		fprintf(stderr, "xskfctl: %u runs have a socket (above): give one with -s SOCKET\n",
			n);
	return -1;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[sizeof(sa.sun_path)] = "", req[1100], buf[65536];
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	size_t len = 0;
	ssize_t r;
	int i = 1, fd, is_error = 0, first = 1;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		snprintf(path, sizeof(path), "%s", argv[2]);
		i = 3;
	}
	if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
		fprintf(i >= argc ? stderr : stdout,
			"usage: xskfctl [-s SOCKET] stats | plugins | PLUGIN ARGS...\n");
		return i >= argc ? 2 : 0;
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
	if (!path[0] && find_socket(path, sizeof(path)))
		return 1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "xskfctl: cannot connect to %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
		fprintf(stderr, "xskfctl: cannot tell who serves %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (cred.uid != 0 && cred.uid != geteuid()) {
		fprintf(stderr,
			"xskfctl: %s is served by uid %u (pid %d), neither root nor you: not "
			"trusting it\n",
			path, (unsigned int)cred.uid, (int)cred.pid);
		return 1;
	}
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		fprintf(stderr, "xskfctl: cannot send to %s: %s\n", path, strerror(errno));
		return 1;
	}
	shutdown(fd, SHUT_WR);
	while ((r = recv(fd, buf, sizeof(buf), 0)) > 0) {
		if (first && r >= 6 && !memcmp(buf, "error:", 6))
			is_error = 1;
		first = 0;
		fwrite(buf, 1, (size_t)r, stdout);
	}
	close(fd);
	if (first) {
		fprintf(stderr, "xskfctl: %s closed without an answer\n", path);
		return 1;
	}
	return is_error;
}

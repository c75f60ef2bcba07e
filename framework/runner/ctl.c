// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket of a run: /run/xskf/NAME.PID.sock (or $XSKF_CTL_DIR), a UNIX stream socket
 * of mode 0600 in a folder of mode 0700, served by the control thread between two loop
 * iterations (run.c's hook, every ~50 ms). One request per connection (ctl_proto.c), one
 * answer, then the connection is closed. Peers that are not root are refused (SO_PEERCRED).
 * `xskfctl` (tools/xskfctl.c) is the client.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "runner/chain.h"
#include "runner/ctl.h"
#include "runner/report.h"
#include "core/log.h"

struct xskf_ctl {
	int fd;
	char path[108];
};

static const char *ctl_dir(void)
{
	const char *d = getenv("XSKF_CTL_DIR");

	return d && *d ? d : "/run/xskf";
}

/* Sockets of runs that are gone (SIGKILL): NAME.PID.sock with no process PID. */
static void remove_stale(const char *dir)
{
	char path[512];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end, *dot;
		long pid;
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".sock"))
			continue;
		de->d_name[l - 5] = 0;
		dot = strrchr(de->d_name, '.');
		if (!dot)
			continue;
		pid = strtol(dot + 1, &end, 10);
		de->d_name[l - 5] = '.';
		if (*end != '.' || pid <= 0 || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

struct xskf_ctl *xskf_ctl__open(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *dir = ctl_dir();
	struct xskf_ctl *ctl;
	mode_t old;
	int n;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		pr_warn("warning: no control socket: cannot create %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	remove_stale(dir);
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		return NULL;
	n = snprintf(ctl->path, sizeof(ctl->path), "%s/%s.%d.sock", dir, name, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path)) {
		pr_warn("warning: no control socket: the path in %s is too long\n", dir);
		free(ctl);
		return NULL;
	}
	memcpy(sa.sun_path, ctl->path, (size_t)n + 1);
	ctl->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	old = umask(0177); /* the socket is created 0600: nobody else may even connect */
	if (ctl->fd < 0 || bind(ctl->fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(ctl->fd, 8)) {
		umask(old);
		pr_warn("warning: no control socket %s: %s\n", ctl->path, strerror(errno));
		if (ctl->fd >= 0)
			close(ctl->fd);
		free(ctl);
		return NULL;
	}
	umask(old);
	chmod(ctl->path, 0600);
	pr_info("control socket %s (xskfctl stats)\n", ctl->path);
	return ctl;
}

static void reply(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t w = send(fd, s, len, MSG_NOSIGNAL);

		if (w <= 0)
			return;
		s += w;
		len -= (size_t)w;
	}
}

static void replyf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void replyf(int fd, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		reply(fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Read one request: what arrives within 200 ms, up to the limit (one byte more tells "too long"). */
static ssize_t read_request(int fd, char *buf, size_t cap)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < cap && poll(&p, 1, 200) == 1) {
		ssize_t r = recv(fd, buf + got, cap - got, 0);

		if (r <= 0)
			break;
		got += (size_t)r;
		if (memchr(buf, '\n', got))
			break;
	}
	return (ssize_t)got;
}

static void answer(int fd, struct xskf_chain *ch, struct xskf_engine *eng, double elapsed)
{
	char buf[XSKF_CTL_MAX + 2], *a0, *a1, out[512], *doc = NULL;
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	size_t doclen = 0;
	unsigned int k;
	ssize_t len;
	FILE *f;
	int err;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) || cred.uid != 0) {
		replyf(fd, "error: permission denied: only root may use this socket\n");
		return;
	}
	len = read_request(fd, buf, XSKF_CTL_MAX + 1);
	if (len > XSKF_CTL_MAX) {
		replyf(fd, "error: request longer than %d bytes\n", XSKF_CTL_MAX);
		return;
	}
	switch (xskf_ctl__parse(buf, (size_t)len, &a0, &a1)) {
	case XSKF_CTL_STATS:
		f = open_memstream(&doc, &doclen);
		if (!f) {
			replyf(fd, "error: %s\n", strerror(errno));
			return;
		}
		xskf_report__json(eng, f, elapsed, 0);
		fclose(f);
		reply(fd, doc, doclen);
		free(doc);
		return;
	case XSKF_CTL_PLUGINS:
		for (k = 0; k < ch->n; k++)
			replyf(fd, "%s %s%s\n", ch->pl[k].p->name, ch->pl[k].file,
			       ch->pl[k].p->command ? " (takes commands)" : "");
		return;
	case XSKF_CTL_PLUGIN_CMD:
		for (k = 0; k < ch->n && strcmp(ch->pl[k].p->name, a0); k++)
			;
		if (k == ch->n) {
			replyf(fd, "error: no plugin '%s' in this run (xskfctl plugins)\n", a0);
			return;
		}
		if (!ch->pl[k].p->command) {
			replyf(fd, "error: plugin '%s' takes no commands\n", a0);
			return;
		}
		out[0] = 0;
		err = ch->pl[k].p->command(ch->pl[k].p->app_ctx, a1, out, sizeof(out));
		out[sizeof(out) - 1] = 0;
		replyf(fd, "%s: %s\n", err ? "error" : "ok", out[0] ? out : strerror(-err));
		return;
	case XSKF_CTL_BAD:
		break;
	}
	replyf(fd, "error: bad request (one line: stats, plugins, or PLUGIN ARGS)\n");
}

/*
 * Read what the peer still sends (an oversized request) before closing, up to 64 KiB or 100 ms:
 * closing with unread bytes would reset the connection and lose the answer on the way.
 */
static void drain(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096];
	size_t total = 0;

	shutdown(fd, SHUT_WR);
	while (total < 65536 && poll(&p, 1, 100) == 1) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);

		if (r <= 0)
			break;
		total += (size_t)r;
	}
}

void xskf_ctl__serve(struct xskf_ctl *ctl, struct xskf_chain *ch, struct xskf_engine *eng,
		     double elapsed)
{
	int i, fd;

	if (!ctl)
		return;
	for (i = 0; i < 8; i++) {
		fd = accept4(ctl->fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return;
		answer(fd, ch, eng, elapsed);
		drain(fd);
		close(fd);
	}
}

void xskf_ctl__close(struct xskf_ctl *ctl)
{
	if (!ctl)
		return;
	close(ctl->fd);
	unlink(ctl->path);
	free(ctl);
}

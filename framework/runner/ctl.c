// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket of a run: /run/xskf/NAME.PID.sock (or $XSKF_CTL_DIR), a UNIX stream socket
 * of mode 0600 in a folder of mode 0700 that xskf owns. One request per connection
 * (ctl_proto.c), one answer, then the connection is closed. Peers that are neither root nor
 * the run's own user are refused (SO_PEERCRED). `xskfctl` (apps/xskfctl.c) is the client.
 *
 * The control thread serves it between two ticks of its loop (run.c's hook, every ~50 ms),
 * and that thread also runs the interface watch, --duration and the per-second lines: so
 * nothing here ever waits. The listening socket and every connection are non-blocking; each
 * connection has its own buffers and a deadline (CTL_DEADLINE_MS from accept to close) and
 * moves through READ -> WRITE -> DRAIN as far as its peer lets it in one call; a connection
 * over CTL_MAX_CLIENTS gets a one-line refusal and is closed at once. A client that sends
 * nothing, or a byte at a time, costs a slot until its deadline, never the thread's time.
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

#include "runner/capture.h"
#include "runner/chain.h"
#include "runner/ctl.h"
#include "runner/report.h"
#include "runner/steer_cmd.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/proc.h"

#define CTL_MAX_CLIENTS 16   /* connections served at once; more are refused */
#define CTL_ACCEPTS	64   /* accept() calls per tick: a flood cannot hold the thread */
#define CTL_DEADLINE_MS 1000 /* from accept: the request in, the answer out, the close */
#define CTL_DRAIN_MAX	65536
#define CTL_REPLY_MAX	65536 /* a plugin's command() reply buffer (command_out(): no bound) */

enum ctl_state { CL_FREE, CL_READ, CL_WRITE, CL_DRAIN, CL_CAPTURE };

struct ctl_client {
	int fd;
	enum ctl_state st;
	uint64_t deadline; /* xskf_now_ns() */
	size_t got;	   /* request bytes in req */
	char req[XSKF_CTL_MAX + 2];
	char *out;         /* the answer (malloc), out_off of out_len bytes sent */
	size_t out_len, out_off, drained;
	struct xskf_capture_session *cap; /* CL_CAPTURE: its live capture (runner/capture.h) */
};

struct xskf_ctl {
	int fd;
	uid_t uid; /* ours: peers must be root or this user */
	char path[108];
	struct ctl_client cl[CTL_MAX_CLIENTS];
};

/* The one live capture of the run, and the engine it captures from (one at a time). */
static struct ctl_client *capturing;
static struct xskf_engine *cap_eng;

/*
 * The socket file, in the control folder's fd held from start to stop: removed there, only
 * while it is the inode bind made (also by the fatal-signal hook: fstatat and unlinkat are
 * async-signal-safe). One control socket per process.
 */
static struct xskf_sock_file ctl_file = { .dfd = -1 };

static const char *ctl_dir(void)
{
	return xskf_proc__ctl_dir(); /* core's: the interfaces' lock files live there too */
}

/*
 * The folder must be ours alone: a real directory (not a symlink), owned by our effective
 * uid, writable by nobody else. Else another user could swap a socket in (and answer
 * xskfctl) or lay files for the stale clean-up to delete. Opened O_NOFOLLOW, checked on the fd.
 */
static int open_dir(const char *dir)
{
	struct stat st, st2;
	int fd;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		pr_warn("warning: no control socket: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st)) {
		pr_warn("warning: no control socket: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		pr_warn("warning: no control socket: %s is not a folder (%s): remove it or set "
			"XSKF_CTL_DIR\n",
			dir, S_ISLNK(st.st_mode) ? "a symlink" : "a file");
		return -1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		pr_warn("warning: no control socket: %s is not a folder xskf owns (owner uid %u, "
			"mode %03o; it must be uid %u and not group/other writable): remove it or set "
			"XSKF_CTL_DIR\n",
			dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 0777),
			(unsigned int)geteuid());
		return -1;
	}
	/* the same folder, not one swapped in since the look above */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st2) || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		pr_warn("warning: no control socket: %s changed while it was checked\n", dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/*
 * Sockets of runs that are gone (SIGKILL): NAME.PID.sock with no live process PID. Only
 * sockets (a plain file or a symlink of that name is left alone), only in our folder @dfd.
 */
static void remove_stale(int dfd)
{
	struct dirent *de;
	struct stat st;
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		char *end, *dot;
		long pid;
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".sock"))
			continue;
		de->d_name[l - 5] = 0;
		dot = strrchr(de->d_name, '.');
		pid = dot ? strtol(dot + 1, &end, 10) : 0;
		de->d_name[l - 5] = '.';
		if (!dot || *end != '.' || pid <= 0 || pid > 0x7fffffff || xskf_proc__alive((pid_t)pid))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISSOCK(st.st_mode))
			continue;
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

struct xskf_ctl *xskf_ctl__open(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *dir = ctl_dir();
	struct xskf_ctl *ctl;
	mode_t old;
	int n, dfd, i, err;

	dfd = open_dir(dir);
	if (dfd < 0)
		return NULL;
	remove_stale(dfd);
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl) {
		close(dfd);
		return NULL;
	}
	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		ctl->cl[i].fd = -1;
	ctl->uid = geteuid();
	n = snprintf(ctl->path, sizeof(ctl->path), "%s/%s.%d.sock", dir, name, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path)) {
		pr_warn("warning: no control socket: the path in %s is too long\n", dir);
		close(dfd);
		free(ctl);
		return NULL;
	}
	ctl->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	old = umask(0177); /* the socket is created 0600: nobody else may even connect */
	/* bound through the folder's fd, kept until xskf_ctl__close() removes the file there */
	err = ctl->fd < 0 ? -errno
			  : xskf_sock_file__bind(&ctl_file, ctl->fd, dfd, dir,
						 ctl->path + strlen(dir) + 1);
	umask(old);
	if (!err && listen(ctl->fd, CTL_MAX_CLIENTS))
		err = -errno;
	if (err) {
		pr_warn("warning: no control socket %s: %s\n", ctl->path,
			err == -EXDEV ? "the folder changed while the socket was made" : strerror(-err));
		if (ctl_file.dfd >= 0)
			xskf_sock_file__remove(&ctl_file); /* closes dfd */
		else
			close(dfd);
		if (ctl->fd >= 0)
			close(ctl->fd);
		free(ctl);
		return NULL;
	}
	/* a crash removes the file too: the core's fatal-signal handler calls this back */
	xskf_engine__on_fatal_cleanup(xskf_ctl__emergency_unlink);
	pr_info("control socket %s (xskfctl stats)\n", ctl->path);
	return ctl;
}

void xskf_ctl__emergency_unlink(int sig)
{
	(void)sig;
	xskf_sock_file__unlink(&ctl_file);
}

/*
 * The answer of plugin @k (@pl) to `PLUGIN ARGS`, into @f: "ok: " or "error: " and what it
 * wrote, of any length and lines (command_out(), or command()'s 64 KiB buffer), ending with a
 * newline; an empty answer on error is the errno's text.
 */
static void plugin_command(FILE *f, const struct xskf_chain_plugin *pl, unsigned int k,
			   const char *args)
{
	const size_t cap = CTL_REPLY_MAX;
	char *out = NULL;
	size_t len = 0;
	FILE *m = NULL;
	int err;

	if (pl->p->command_out) {
		m = open_memstream(&out, &len);
		if (!m) {
			fputs("error: out of memory\n", f);
			return;
		}
	} else {
		out = calloc(1, cap);
		if (!out) {
			fputs("error: out of memory\n", f);
			return;
		}
	}
	xskf_chain__mark(k, XSKF_CB_COMMAND);
	if (m)
		err = pl->p->command_out(pl->p->app_ctx, args, m);
	else
		err = pl->p->command(pl->p->app_ctx, args, out, cap);
	xskf_chain__mark(0, XSKF_CB_NONE);
	if (m) {
		if (fclose(m)) {
			free(out);
			fputs("error: out of memory\n", f);
			return;
		}
	} else {
		out[cap - 1] = 0;
		len = strlen(out);
	}
	/* a reply that fills command()'s buffer was cut: an error, then what there is */
	if (!m && len == cap - 1)
		fprintf(f, "error: the answer of plugin '%s' was cut at %zu bytes (its command() "
			   "reply buffer; command_out() has no bound); what it gave:\n",
			pl->p->name, cap - 1);
	while (len && out[len - 1] == '\n') /* the one newline at the end is ours */
		len--;
	fprintf(f, "%s: ", err ? "error" : "ok");
	if (len)
		fwrite(out, 1, len, f);
	else
		fputs(err ? strerror(-err) : "", f);
	fputc('\n', f);
	free(out);
}

/* The answer to the request in @c->req, into @f. */
static void answer(FILE *f, struct ctl_client *c, struct xskf_chain *ch, struct xskf_engine *eng,
		   double elapsed)
{
	char *a0, *a1;
	unsigned int k;

	if (c->got > XSKF_CTL_MAX) {
		fprintf(f, "error: request longer than %d bytes\n", XSKF_CTL_MAX);
		return;
	}
	switch (xskf_ctl__parse(c->req, c->got, &a0, &a1)) {
	case XSKF_CTL_STATS:
		xskf_report__json(eng, f, elapsed, 0);
		return;
	case XSKF_CTL_PLUGINS:
		for (k = 0; k < ch->n; k++)
			fprintf(f, "%s %s%s\n", ch->pl[k].p->name, ch->pl[k].file,
				ch->pl[k].p->command || ch->pl[k].p->command_out ? " (takes commands)"
										   : "");
		return;
	case XSKF_CTL_PLUGIN_CMD:
		if (!strcmp(a0, "steer")) { /* the framework's own: xskfctl steer add|del|list */
			xskf_steer_cmd__ctl(f, eng, a1);
			return;
		}
		for (k = 0; k < ch->n && strcmp(ch->pl[k].p->name, a0); k++)
			;
		if (k == ch->n) {
			fprintf(f, "error: no plugin '%s' in this run (xskfctl plugins)\n", a0);
			return;
		}
		if (!ch->pl[k].p->command && !ch->pl[k].p->command_out) {
			fprintf(f, "error: plugin '%s' takes no commands\n", a0);
			return;
		}
		plugin_command(f, &ch->pl[k], k, a1);
		return;
	case XSKF_CTL_DOCTOR:
		xskf_ctl__doctor(f, eng);
		return;
	case XSKF_CTL_CAPTURE: /* taken by start_capture() before an answer is written */
	case XSKF_CTL_BAD:
		break;
	}
	fprintf(f, "error: bad request (one line: stats, plugins, doctor, or PLUGIN ARGS)\n");
}

static void drop(struct ctl_client *c)
{
	if (c->cap) {
		xskf_capture_session__free(c->cap, cap_eng); /* stops the capture */
		capturing = NULL;
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* The answer, or one line of @err when there is none to give. */
static void to_write(struct ctl_client *c, struct xskf_chain *ch, struct xskf_engine *eng,
		     double elapsed, const char *err)
{
	FILE *f = open_memstream(&c->out, &c->out_len);

	c->st = CL_WRITE;
	if (!f) {
		c->out = NULL;
		c->out_len = 0;
		return;
	}
	if (err)
		fputs(err, f);
	else
		answer(f, c, ch, eng, elapsed);
	fclose(f);
}

/*
 * A "capture ..." request turns the connection into a live capture's stream (one at a time).
 * False when the request is something else (answered as usual).
 */
static bool start_capture(struct ctl_client *c, struct xskf_engine *eng)
{
	char req[XSKF_CTL_MAX + 2], err[320], *a0, *a1;

	if (c->got > XSKF_CTL_MAX)
		return false;
	memcpy(req, c->req, c->got);
	if (xskf_ctl__parse(req, c->got, &a0, &a1) != XSKF_CTL_CAPTURE)
		return false;
	if (capturing) {
		c->st = CL_WRITE;
		c->out = strdup("error: capture: another capture of this run is going on (one at "
				"a time): wait for it to end\n");
		c->out_len = c->out ? strlen(c->out) : 0;
		return true;
	}
	c->cap = xskf_capture_session__new(eng, a1, err, sizeof(err));
	if (!c->cap) {
		c->st = CL_WRITE;
		c->out = strdup(err);
		c->out_len = c->out ? strlen(c->out) : 0;
		return true;
	}
	capturing = c;
	cap_eng = eng;
	c->st = CL_CAPTURE;
	c->deadline = UINT64_MAX; /* as long as the client takes what comes */
	return true;
}

/* Move @c on as far as its peer lets it without waiting. */
static void step(struct ctl_client *c, struct xskf_chain *ch, struct xskf_engine *eng,
		 double elapsed, uint64_t now)
{
	char buf[4096];
	ssize_t r;

	if (c->st == CL_READ) {
		for (;;) {
			r = recv(c->fd, c->req + c->got, XSKF_CTL_MAX + 1 - c->got, MSG_DONTWAIT);
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			if (r < 0) {
				drop(c);
				return;
			}
			c->got += (size_t)r;
			/* complete: a newline, one byte more than a request may have, or the end */
			if (!r || memchr(c->req, '\n', c->got) || c->got > XSKF_CTL_MAX) {
				if (!start_capture(c, eng))
					to_write(c, ch, eng, elapsed, NULL);
				break;
			}
		}
		if (c->st == CL_READ && now >= c->deadline)
			to_write(c, ch, eng, elapsed, "error: no complete request within 1 s\n");
	}
	if (c->st == CL_CAPTURE) {
		if (xskf_capture_session__step(c->cap, eng, c->fd) <= 0)
			drop(c); /* all sent, or the client is gone: the capture stops */
		return;
	}
	if (c->st == CL_WRITE) {
		while (c->out_off < c->out_len) {
			r = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			if (r <= 0) {
				drop(c);
				return;
			}
			c->out_off += (size_t)r;
		}
		if (c->out_off < c->out_len) {
			if (now >= c->deadline)
				drop(c); /* a peer that does not read its answer */
			return;
		}
		shutdown(c->fd, SHUT_WR);
		c->st = CL_DRAIN;
	}
	/*
	 * Read what the peer still sends (an oversized request) before closing, up to 64 KiB or
	 * the deadline: closing with unread bytes resets the connection, and the peer may lose
	 * the answer on its way.
	 */
	while (c->st == CL_DRAIN) {
		r = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (now >= c->deadline)
				drop(c);
			return;
		}
		if (r <= 0 || (c->drained += (size_t)r) >= CTL_DRAIN_MAX)
			drop(c);
	}
}

/* SO_PEERCRED of a connection: root, or the user the run runs as. */
static bool peer_allowed(const struct xskf_ctl *ctl, int fd)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) &&
	       (cred.uid == 0 || cred.uid == ctl->uid);
}

static void refuse(int fd, const char *line)
{
	ssize_t r = send(fd, line, strlen(line), MSG_DONTWAIT | MSG_NOSIGNAL);

	(void)r; /* a fresh connection has room for one line; if not, the close says enough */
	close(fd);
}

/*
 * A connection over the bound: served now if its whole request is already there (xskfctl
 * sends it right after connect, so a flood of idle connections cannot lock it out), else
 * refused with one line. Either way it is closed before this returns.
 */
static void serve_over_bound(int fd, struct xskf_chain *ch, struct xskf_engine *eng,
			     double elapsed, uint64_t now)
{
	struct ctl_client t = { .fd = fd, .st = CL_READ, .deadline = UINT64_MAX };
	char line[96];

	step(&t, ch, eng, elapsed, now);
	if (t.st == CL_READ) {
		snprintf(line, sizeof(line), "error: busy: %d clients are being served; try again\n",
			 CTL_MAX_CLIENTS);
		refuse(fd, line);
		t.fd = -1;
	}
	if (t.st != CL_FREE)
		drop(&t); /* its answer went out whole, or it gets no more time than this */
}

void xskf_ctl__serve(struct xskf_ctl *ctl, struct xskf_chain *ch, struct xskf_engine *eng,
		     double elapsed)
{
	uint64_t now = xskf_now_ns();
	int i, k, fd;

	if (!ctl)
		return;
	for (k = 0; k < CTL_ACCEPTS; k++) {
		struct ctl_client *c = NULL;

		fd = accept4(ctl->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			break;
		if (!peer_allowed(ctl, fd)) {
			refuse(fd, "error: permission denied: only root or the run's own user may use "
				   "this socket\n");
			continue;
		}
		for (i = 0; i < CTL_MAX_CLIENTS && !c; i++)
			if (ctl->cl[i].st == CL_FREE)
				c = &ctl->cl[i];
		if (!c) {
			serve_over_bound(fd, ch, eng, elapsed, now);
			continue;
		}
		c->fd = fd;
		c->st = CL_READ;
		c->deadline = now + CTL_DEADLINE_MS * 1000000ull;
	}
	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		if (ctl->cl[i].st != CL_FREE)
			step(&ctl->cl[i], ch, eng, elapsed, now);
}

void xskf_ctl__run_end(struct xskf_ctl *ctl, struct xskf_engine *eng)
{
	struct ctl_client *c = capturing;
	uint64_t until = xskf_now_ns() + 1000000000ull;
	struct pollfd p;

	if (!ctl || !c)
		return;
	xskf_capture_session__end(c->cap, eng, c->fd);
	/*
	 * The run is ending, the workers have stopped capturing: the client gets up to 1 s to
	 * take the rest (its last frames and the drop counts), then is let go whatever it has.
	 */
	while (xskf_capture_session__step(c->cap, eng, c->fd) > 0 && xskf_now_ns() < until) {
		p = (struct pollfd){ .fd = c->fd, .events = POLLOUT };
		poll(&p, 1, 100);
	}
	drop(c);
}

void xskf_ctl__close(struct xskf_ctl *ctl)
{
	int i;

	if (!ctl)
		return;
	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		if (ctl->cl[i].st != CL_FREE)
			drop(&ctl->cl[i]);
	close(ctl->fd);
	if (xskf_sock_file__remove(&ctl_file) < 0)
		pr_warn("warning: %s no longer holds the control socket xskf made (replaced "
			"since): left alone\n",
			ctl->path);
	free(ctl);
}

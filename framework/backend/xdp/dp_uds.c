// SPDX-License-Identifier: BSD-2-Clause
/*
 * --serve-uds PATH: the AF_XDP device plugin's UDS protocol as a server (dp_proto.h), so that
 * an app in a pod, DPDK's af_xdp driver (use_cni, dp_path) or an xskf run with --xsk-map-uds,
 * takes the XSKMAP of an interface this run holds (its fd by SCM_RIGHTS) and enters its own
 * socket on a queue kept for it (--serve).
 *
 * Served from the control thread's watch (xskf_engine__watch(), every ~50 ms): the listening
 * socket and the connections are non-blocking, and an answer is one small message, so nothing
 * here waits. Who may connect is the socket file's mode: 0600, or 0660 with --pin-group (the
 * device plugin checks the pod's name with the kubelet; there is no kubelet here, any host
 * name is taken). A connection's state: NEW (only /connect is understood: anything else gets
 * /nak and the close), CONNECTED (/version, /xsk_map_fd, /config_busy_poll, /fin; a second
 * /connect or junk gets /nak and the connection stays, as the device plugin does). A peer that
 * goes away is closed at its next read; every fd a peer passes is closed once answered.
 * The socket file is removed at stop, at a failed start, by the fatal-signal hook, and a
 * stale one (nobody listening: a SIGKILLed run's) at the next start (said).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <bpf/libbpf.h>

#include "backend/xdp/dp_proto.h"
#include "backend/xdp/dp_uds.h"
#include "backend/xdp/xdp.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "xskf_redirect.skel.h"

#define DP_MAX_CONN 16 /* connections at once; the next gets /error */
#define DP_ACCEPTS 16  /* accept() calls per watch */
#define DP_MSGS 8      /* messages per connection per watch: a flood cannot hold the thread */


struct dp_conn {
	int fd;
	bool connected;
	pid_t pid;
	char host[XSKF_DP_MSG_MAX + 1];
};

static struct {
	int fd;
	struct dp_conn c[DP_MAX_CONN];
} srv = { .fd = -1 };

/* For the fatal-signal hook's unlink(). */
static char sig_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

void xskf_dp_uds__emergency(void)
{
	if (sig_path[0])
		unlink(sig_path);
}

/*
 * Whatever is at @name in our folder @dfd: nothing (0), a socket nobody listens on (a killed
 * run's: removed, said, 0), or something else (-EEXIST/-EADDRINUSE, said).
 */
static int clear_stale(int dfd, const char *path, const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int s, r;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		pr_warn("--serve-uds %s: it exists and is not a socket: remove it or choose another "
			"path\n",
			path);
		return -EEXIST;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	r = s >= 0 ? connect(s, (struct sockaddr *)&sa, sizeof(sa)) : -1;
	if (!r || (errno != ECONNREFUSED && errno != ENOENT)) {
		if (s >= 0)
			close(s);
		pr_warn("--serve-uds %s: another server answers there: stop it first or choose "
			"another path\n",
			path);
		return -EADDRINUSE;
	}
	close(s);
	unlinkat(dfd, name, 0);
	pr_info("--serve-uds %s: removed a socket nobody listened on (a killed run's)\n", path);
	return 0;
}

int xskf_dp_uds__open(struct xskf_engine *eng)
{
	const char *path = eng->o.serve_uds;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)], why[512], *slash;
	struct group g, *gr = NULL;
	char gbuf[4096];
	gid_t gid = 0;
	mode_t old;
	int dfd, err, i;

	if (!path)
		return 0;
	for (i = 0; i < DP_MAX_CONN; i++)
		srv.c[i].fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path) || path[0] != '/' || !(slash = strrchr(path, '/')) ||
	    !slash[1]) {
		pr_warn("--serve-uds %s: give an absolute path of a socket, at most %zu bytes\n", path,
			sizeof(sa.sun_path) - 1);
		return -EINVAL;
	}
	if (eng->o.pin_group) {
		char *end;
		unsigned long v = strtoul(eng->o.pin_group, &end, 10);

		if (*eng->o.pin_group && !*end)
			gid = (gid_t)v;
		else if (!getgrnam_r(eng->o.pin_group, &g, gbuf, sizeof(gbuf), &gr) && gr)
			gid = gr->gr_gid;
		else {
			pr_warn("--pin-group %s: no such group\n", eng->o.pin_group);
			return -ENOENT;
		}
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* the folder: ours alone (the control folder's rule); a group member passes through */
	dfd = xskf_proc__trusted_dir_open(dir[0] ? dir : "/", 0711, why, sizeof(why));
	if (dfd < 0) {
		pr_warn("--serve-uds %s: %s: choose a folder of ours\n", path,
			why[0] ? why : strerror(-dfd));
		return dfd;
	}
	err = clear_stale(dfd, path, slash + 1);
	if (err) {
		close(dfd);
		return err;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	srv.fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	old = umask(0177); /* made 0600: nobody else may connect until it is given to the group */
	if (srv.fd < 0 || bind(srv.fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		umask(old);
		pr_warn("--serve-uds %s: %s\n", path, strerror(-err));
		if (srv.fd >= 0)
			close(srv.fd);
		srv.fd = -1;
		close(dfd);
		return err;
	}
	umask(old);
	snprintf(sig_path, sizeof(sig_path), "%s", path);
	if ((eng->o.pin_group && (fchownat(dfd, slash + 1, (uid_t)-1, gid, AT_SYMLINK_NOFOLLOW) ||
				  fchmodat(dfd, slash + 1, 0660, 0))) ||
	    listen(srv.fd, DP_MAX_CONN)) {
		err = -errno;
		pr_warn("--serve-uds %s: %s\n", path, strerror(-err));
		close(dfd);
		xskf_dp_uds__close();
		return err;
	}
	close(dfd);
	pr_info("device-plugin socket %s (AF_XDP device plugin protocol %s: /connect, "
		"/xsk_map_fd,IFACE), for %s\n",
		path, XSKF_DP_PROTO_VERSION, eng->o.pin_group ? eng->o.pin_group : "the owner only");
	return 0;
}

static void conn_close(struct dp_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/*
 * Close @c, then say so when it had connected: the line comes after the close, so that whoever
 * reads it (an operator, a test counting the server's fds) sees the connection gone.
 */
static void conn_gone(struct dp_conn *c)
{
	close(c->fd);
	c->fd = -1;
	if (c->connected)
		pr_info("device-plugin socket: %s (pid %d) went away\n", c->host, (int)c->pid);
	conn_close(c); /* the rest of the slot */
}

/* One answer, with @fd passed when not -1. False when the peer cannot take it (closed). */
static bool answer(struct dp_conn *c, const char *msg, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = strlen(msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (fd >= 0) {
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	/* a peer whose buffer is full of our answers does not read them: it is let go */
	return sendmsg(c->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)iov.iov_len;
}

static const struct xskf_port *port_named(struct xskf_engine *eng, const char *name)
{
	unsigned int i;

	for (i = 0; i < eng->nr_ports; i++)
		if (!strcmp(eng->ports[i].name, name) && xskf_xdp_port(&eng->ports[i])->skel)
			return &eng->ports[i];
	return NULL;
}

/*
 * /xsk_map_fd: the XSKMAP of served queue @q of @p (serve_maps.c), which holds that queue's
 * socket and nothing else: never the run's own XSKMAP. Without a queue (-1, the device
 * plugin's request) the one served queue's; a queue not served, or none given where several
 * are, is refused in one line.
 */
static bool give_map(struct dp_conn *c, const struct xskf_port *p, int32_t q)
{
	const struct xskf_xdp_port *x = xskf_xdp_port(p);
	int fd;

	if (q < 0 && x->nr_served_maps == 1)
		q = (int32_t)x->served[0];
	fd = q >= 0 ? xskf_serve_maps__fd(p, (uint32_t)q) : -1;
	if (fd < 0) {
		if (q >= 0)
			pr_warn("device-plugin socket: %s (pid %d) asked for the XSKMAP of queue %d of "
				"%s, which is not served (--serve): refused\n",
				c->host, (int)c->pid, q, p->name);
		else
			pr_warn("device-plugin socket: %s (pid %d) asked for an XSKMAP of %s without "
				"a queue, and %u are served: refused (ask /xsk_map_fd,%s,QUEUE)\n",
				c->host, (int)c->pid, p->name, x->nr_served_maps, p->name);
		return answer(c, "/fd_nak", -1);
	}
	pr_info("device-plugin socket: gave the XSKMAP of %s to %s (pid %d): queue %d's alone\n",
		p->name, c->host, (int)c->pid, q);
	return answer(c, "/fd_ack", fd);
}

/* /config_busy_poll on the AF_XDP socket @fd the peer passed: what it cannot set itself. */
static bool busy_poll(int fd, const struct xskf_dp_msg *m)
{
	int dom = 0;
	socklen_t l = sizeof(dom);

	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &l) || dom != AF_XDP)
		return false;
	return !xskf_sock__busy_poll(fd, (int)m->timeout_us, (int)m->budget);
}

/* Answer one request @buf (@len bytes, @trunc: longer than a message may be, @fd passed). */
static bool request(struct xskf_engine *eng, struct dp_conn *c, const char *buf, size_t len,
		    bool trunc, int fd)
{
	struct xskf_dp_msg m;
	const struct xskf_port *p;

	if (trunc)
		m.kind = XSKF_DP_BAD;
	else
		xskf_dp__parse(buf, len, &m);
	if (!c->connected) {
		/* before /connect nothing else is understood: /nak, and the connection ends */
		if (m.kind != XSKF_DP_CONNECT) {
			answer(c, "/nak", -1);
			return false;
		}
		if (!m.arg[0]) {
			answer(c, "/host_nak", -1);
			return false;
		}
		c->connected = true;
		snprintf(c->host, sizeof(c->host), "%s", m.arg);
		pr_info("device-plugin socket: %s (pid %d) connected\n", c->host, (int)c->pid);
		return answer(c, "/host_ok", -1);
	}
	switch (m.kind) {
	case XSKF_DP_VERSION:
		return answer(c, XSKF_DP_PROTO_VERSION, -1);
	case XSKF_DP_XSK_MAP:
		p = m.arg[0] ? port_named(eng, m.arg) : NULL;
		if (!p)
			return answer(c, "/fd_nak", -1);
		return give_map(c, p, m.queue);
	case XSKF_DP_BUSY_POLL:
		return answer(c, busy_poll(fd, &m) ? "/config_busy_poll_ack"
						   : "/config_busy_poll_nak",
			      -1);
	case XSKF_DP_FIN:
		c->connected = false; /* it ends here, it did not go away */
		answer(c, "/fin_ack", -1);
		return false;
	case XSKF_DP_CONNECT: /* a second /connect */
	case XSKF_DP_BAD:
		break;
	}
	return answer(c, "/nak", -1);
}

/* The fds a message carried (SCM_RIGHTS): the first in @fd, every other closed. */
static void take_fds(struct msghdr *m, int *fd)
{
	struct cmsghdr *cm;

	*fd = -1;
	for (cm = CMSG_FIRSTHDR(m); cm; cm = CMSG_NXTHDR(m, cm)) {
		size_t n, i;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			int f;

			memcpy(&f, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = f;
			else
				close(f);
		}
	}
}

/* Move @c on by what it sent; closed when it ends or goes away. */
static void conn_step(struct xskf_engine *eng, struct dp_conn *c)
{
	char buf[XSKF_DP_MSG_MAX + 1];
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	int k, fd;

	for (k = 0; k < DP_MSGS && c->fd >= 0; k++) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf) };
		ssize_t r = recvmsg(c->fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		bool keep;

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (r <= 0) { /* gone (0: closed; an error: reset) */
			conn_gone(c);
			return;
		}
		take_fds(&m, &fd);
		keep = request(eng, c, buf, (size_t)r,
			       (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || r > XSKF_DP_MSG_MAX, fd);
		if (fd >= 0)
			close(fd);
		if (!keep) /* the request ended the connection */
			conn_gone(c);
	}
}

static struct dp_conn *free_slot(void)
{
	int i;

	for (i = 0; i < DP_MAX_CONN; i++)
		if (srv.c[i].fd < 0)
			return &srv.c[i];
	return NULL;
}

void xskf_dp_uds__serve(struct xskf_engine *eng)
{
	int i, k, fd;

	if (srv.fd < 0)
		return;
	/* the connections first: the slots of peers gone since the last call are free then */
	for (i = 0; i < DP_MAX_CONN; i++)
		if (srv.c[i].fd >= 0)
			conn_step(eng, &srv.c[i]);
	for (k = 0; k < DP_ACCEPTS; k++) {
		struct dp_conn *c = NULL;
		struct ucred cr;
		socklen_t cl = sizeof(cr);

		fd = accept4(srv.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			break;
		c = free_slot();
		if (!c) {
			/* peers may have gone since the step above: their slots first */
			for (i = 0; i < DP_MAX_CONN; i++)
				conn_step(eng, &srv.c[i]);
			c = free_slot();
		}
		if (!c) {
			send(fd, "/error", 6, MSG_DONTWAIT | MSG_NOSIGNAL);
			close(fd);
			continue;
		}
		c->fd = fd;
		c->connected = false;
		c->pid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) ? 0 : cr.pid;
		conn_step(eng, c); /* a request sent with the connect: answered now */
	}
}

void xskf_dp_uds__close(void)
{
	int i;

	if (srv.fd < 0)
		return;
	for (i = 0; i < DP_MAX_CONN; i++)
		if (srv.c[i].fd >= 0)
			conn_close(&srv.c[i]);
	close(srv.fd);
	srv.fd = -1;
	if (sig_path[0])
		unlink(sig_path);
	sig_path[0] = 0;
}

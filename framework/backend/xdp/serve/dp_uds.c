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
 * Connections have a deadline to take their XSKMAP, and places are shared by peer uid (see
 * DP_DEADLINE_MS): an idle client cannot keep another out.
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

#include "backend/xdp/serve/dp_proto.h"
#include "backend/xdp/serve/dp_uds.h"
#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "xskf_redirect.skel.h"
#include "backend/xdp/serve/serve_maps.h"
#include "backend/xdp/sock/sock.h"

/*
 * Under load (issue 44): a client that connects and then says nothing must not keep others
 * out. A connection has DP_DEADLINE_MS from accept to take its XSKMAP (the control socket's
 * idea, ctl.c: DPDK and --xsk-map-uds ask at once); then it is held for the client's life, as
 * the device plugin does, with no deadline. A peer uid (SO_PEERCRED) holds DP_PER_UID
 * connections at most: its next one takes the place of its oldest still asking. A full
 * table gives the newcomer the place of the oldest asking connection of the uid holding the
 * most: idle clients of one uid, or of a few, cannot keep another uid out.
 */
#define DP_MAX_CONN 64	      /* connections at once */
#define DP_PER_UID 8	      /* of one peer uid */
#define DP_DEADLINE_MS 1000  /* from accept to the XSKMAP given (or /fin) */
#define DP_ACCEPTS 16	      /* accept() calls per watch */
#define DP_MSGS 8	      /* messages per connection per watch: a flood cannot hold the thread */


struct dp_conn {
	int fd;
	bool connected;
	bool held;	   /* its XSKMAP given: no deadline from then on */
	pid_t pid;
	uid_t uid;
	uint64_t since;	   /* accepted, xskf_now_ns() */
	uint64_t deadline; /* to be given its XSKMAP by */
	char host[XSKF_DP_MSG_MAX + 1];
};

static struct {
	int fd;
	struct dp_conn c[DP_MAX_CONN];
	/* the socket file, removed through its folder's fd, and only while it is ours */
	struct xskf_sock_file file;
	/* connections closed for the deadline or for a newcomer, said once a second at most */
	unsigned long dropped;
	uint64_t said_ns;
} srv = { .fd = -1, .file = { .dfd = -1 } };

void xskf_dp_uds__emergency(void)
{
	xskf_sock_file__unlink(&srv.file);
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
	srv.fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	old = umask(0177); /* made 0600: nobody else may connect until it is given to the group */
	/* bound in the folder's fd, which is kept: the file is removed there, not by path */
	err = srv.fd < 0 ? -errno : xskf_sock_file__bind(&srv.file, srv.fd, dfd, dir, slash + 1);
	umask(old);
	if (err) {
		pr_warn("--serve-uds %s: %s\n", path,
			err == -EXDEV ? "the folder changed while the socket was made" : strerror(-err));
		if (srv.fd >= 0)
			close(srv.fd);
		srv.fd = -1;
		close(dfd);
		return err;
	}
	if ((eng->o.pin_group && (fchownat(dfd, slash + 1, (uid_t)-1, gid, AT_SYMLINK_NOFOLLOW) ||
				  fchmodat(dfd, slash + 1, 0660, 0))) ||
	    listen(srv.fd, DP_MAX_CONN)) {
		err = -errno;
		pr_warn("--serve-uds %s: %s\n", path, strerror(-err));
		xskf_dp_uds__close();
		return err;
	}
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
	/* held for the client's life from now on, with no deadline (as the device plugin) */
	c->held = true;
	c->deadline = UINT64_MAX;
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

/* Connections of @uid open now. */
static unsigned int uid_conns(uid_t uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < DP_MAX_CONN; i++)
		n += srv.c[i].fd >= 0 && srv.c[i].uid == uid;
	return n;
}

/*
 * The slot for a newcomer of @uid: a free one while @uid holds fewer than DP_PER_UID;
 * else its own oldest connection still asking; in a full table, the oldest asking one of
 * the uid holding the most. NULL: every candidate holds its XSKMAP (the newcomer is refused).
 */
static struct dp_conn *slot_for(uid_t uid)
{
	struct dp_conn *best = NULL;
	unsigned int i, n, best_n = 0;
	bool own = uid_conns(uid) >= DP_PER_UID;

	for (i = 0; i < DP_MAX_CONN && !own; i++)
		if (srv.c[i].fd < 0)
			return &srv.c[i];
	for (i = 0; i < DP_MAX_CONN; i++) {
		struct dp_conn *c = &srv.c[i];

		if (c->held || (own && c->uid != uid))
			continue;
		n = own ? DP_PER_UID : uid_conns(c->uid);
		if (!best || n > best_n || (n == best_n && c->since < best->since)) {
			best = c;
			best_n = n;
		}
	}
	return best;
}

/* Close @c for the deadline or a newcomer: /error, so that a client knows it was not it. */
static void conn_drop(struct dp_conn *c)
{
	send(c->fd, "/error", 6, MSG_DONTWAIT | MSG_NOSIGNAL);
	c->connected = false; /* not "went away": said in the count below */
	conn_gone(c);
	srv.dropped++;
}

/* Connections past their deadline closed, and what was dropped said once a second at most. */
static void expire(uint64_t now)
{
	int i;

	for (i = 0; i < DP_MAX_CONN; i++)
		if (srv.c[i].fd >= 0 && now >= srv.c[i].deadline)
			conn_drop(&srv.c[i]);
	if (srv.dropped && now - srv.said_ns >= 1000000000ull) {
		pr_info("device-plugin socket: closed %lu connection%s that had not taken an XSKMAP "
			"(%d ms from connect to /xsk_map_fd; %d connections per peer uid, %d in all)\n",
			srv.dropped, srv.dropped == 1 ? "" : "s", DP_DEADLINE_MS, DP_PER_UID,
			DP_MAX_CONN);
		srv.dropped = 0;
		srv.said_ns = now;
	}
}

/* A connection accepted: into its slot (taking another's place, as slot_for() says), or refused. */
static void take(struct xskf_engine *eng, int fd, uint64_t now)
{
	struct ucred cr = { .pid = 0, .uid = (uid_t)-1 };
	socklen_t cl = sizeof(cr);
	struct dp_conn *c;

	/* no credentials: counted as one unknown uid, which gets no more than any other */
	getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl);
	c = slot_for(cr.uid);
	if (!c) {
		send(fd, "/error", 6, MSG_DONTWAIT | MSG_NOSIGNAL);
		close(fd);
		srv.dropped++;
		return;
	}
	if (c->fd >= 0)
		conn_drop(c);
	c->fd = fd;
	c->connected = false;
	c->held = false;
	c->pid = cr.pid;
	c->uid = cr.uid;
	c->since = now;
	c->deadline = now + DP_DEADLINE_MS * 1000000ull;
	conn_step(eng, c); /* a request sent with the connect: answered now */
}

void xskf_dp_uds__serve(struct xskf_engine *eng)
{
	uint64_t now = xskf_now_ns();
	int i, k, fd;

	if (srv.fd < 0)
		return;
	/* the connections first: the slots of peers gone since the last call are free then */
	for (i = 0; i < DP_MAX_CONN; i++)
		if (srv.c[i].fd >= 0)
			conn_step(eng, &srv.c[i]);
	expire(now);
	for (k = 0; k < DP_ACCEPTS; k++) {
		fd = accept4(srv.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			break;
		take(eng, fd, now);
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
	if (xskf_sock_file__remove(&srv.file) < 0)
		pr_warn("--serve-uds: the socket's name no longer holds the socket xskf made "
			"(replaced since): left alone\n");
}

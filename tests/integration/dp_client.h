/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The client side of the AF_XDP device plugin's UDS protocol, as a pod's app speaks it
 * (afxdp-plugins-for-kubernetes, constants.go and udsserver.go, protocol "0.1"; DPDK's af_xdp
 * driver with use_cni speaks the same): a SOCK_SEQPACKET connection, one message per request
 * and per answer, no terminator, at most 64 bytes:
 *
 *   /connect,HOSTNAME  -> /host_ok | /host_nak | /error
 *   /version           -> 0.1
 *   /xsk_map_fd,IFACE  -> /fd_ack with the XSKMAP's fd (SCM_RIGHTS) | /fd_nak
 *   /fin               -> /fin_ack (the server closes)
 *
 * Header-only, for xsk_client.c (tests) and xskf itself is not built from it.
 */
#ifndef XSKF_TEST_DP_CLIENT_H
#define XSKF_TEST_DP_CLIENT_H

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct dp_client {
	int fd;
};

/* One request, one answer (into @ans, NUL-ended); the fd passed with it in @fd (or -1). */
static int dp_client__ask(struct dp_client *c, const char *req, char *ans, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = ans, .iov_len = len - 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	ssize_t n;

	if (fd)
		*fd = -1;
	if (send(c->fd, req, strlen(req), MSG_NOSIGNAL) < 0)
		return -errno;
	if (poll(&p, 1, 5000) != 1)
		return -ETIMEDOUT;
	n = recvmsg(c->fd, &m, MSG_CMSG_CLOEXEC);
	if (n <= 0)
		return n < 0 ? -errno : -ECONNRESET;
	ans[n] = 0;
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS && fd)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return 0;
}

/* A host name the server takes: RFC 1123's letters, digits, '-' and '.', a letter or digit
 * first (what framework/backend/xdp/serve/dp_proto.c checks), in a message of 64 bytes. */
static bool host_name_ok(const char *s)
{
	if (!isalnum((unsigned char)*s) || strlen(s) > 64 - sizeof("/connect,") + 1)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '.')
			return false;
	return true;
}

/* Connect, say who we are, and take the XSKMAP of @iface: its fd, or -1 (said). */
static int dp_client__map(struct dp_client *c, const char *path, const char *iface)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char req[80], ans[80], host[64] = "xsk-client";
	int fd, err;

	c->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "xsk-client: cannot connect to %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* a pod's name, as DPDK sends it; where there is none (the lab's guests: the kernel's
	 * "(none)", which the server rightly answers /host_nak) our own */
	if (gethostname(host, sizeof(host) - 1) || !host_name_ok(host))
		snprintf(host, sizeof(host), "xsk-client");
	snprintf(req, sizeof(req), "/connect,%s", host);
	if ((err = dp_client__ask(c, req, ans, sizeof(ans), NULL)) || strcmp(ans, "/host_ok")) {
		fprintf(stderr, "xsk-client: %s answered '%s' to /connect (%s)\n", path,
			err ? "" : ans, err ? strerror(-err) : "not /host_ok");
		return -1;
	}
	if ((err = dp_client__ask(c, "/version", ans, sizeof(ans), NULL)) || strcmp(ans, "0.1")) {
		fprintf(stderr, "xsk-client: %s speaks version '%s', not 0.1\n", path, ans);
		return -1;
	}
	snprintf(req, sizeof(req), "/xsk_map_fd,%s", iface);
	if ((err = dp_client__ask(c, req, ans, sizeof(ans), &fd)) || strcmp(ans, "/fd_ack") ||
	    fd < 0) {
		fprintf(stderr, "xsk-client: %s answered '%s' to %s\n", path, err ? "" : ans, req);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The server went away (closed or reset) while we hold its map. */
static int dp_client__gone(struct dp_client *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/* /fin, when connected: the server's /fin_ack is read and the connection closed. */
static void dp_client__fin(struct dp_client *c)
{
	char ans[80];

	if (c->fd < 0)
		return;
	if (!dp_client__ask(c, "/fin", ans, sizeof(ans), NULL) && strcmp(ans, "/fin_ack"))
		fprintf(stderr, "xsk-client: /fin answered '%s', not /fin_ack\n", ans);
	close(c->fd);
	c->fd = -1;
}

#endif /* XSKF_TEST_DP_CLIENT_H */

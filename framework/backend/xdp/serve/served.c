// SPDX-License-Identifier: BSD-2-Clause
/*
 * Being served (--xsk-map PATH, --xsk-map-uds PATH): another process holds the XDP program
 * (a privileged xskf with --serve, the AF_XDP device plugin, bpfman) and this run only enters
 * its sockets in that program's XSKMAP, taken from a bpffs pin or from the device plugin's
 * socket (/connect, /xsk_map_fd,IFACE: dp_proto.h). It needs what an AF_XDP socket needs,
 * CAP_NET_RAW and locked memory for its UMEM, and none of CAP_BPF, CAP_SYS_ADMIN,
 * CAP_NET_ADMIN: it loads and attaches nothing, writes no rule and no NAPI setting.
 *
 * What it cannot do there is refused before set-up in one line (--steer, --keep-host, --napi,
 * --force, an app that needs RX hints), and said in its start-up line otherwise. RX hints are
 * off: the meta in front of a frame is the serving program's, whose layout is not ours to
 * know. At stop our entries leave the map (the kernel would take them out with the sockets
 * anyway), the map's fd is closed, and the UDS connection ends with /fin.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <bpf/bpf.h>

#include "backend/xdp/serve/dp_proto.h"
#include "backend/xdp/serve/served.h"
#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/sock.h"

static int map_fds[XSKF_MAX_PORTS] = { [0 ... XSKF_MAX_PORTS - 1] = -1 };
static int uds = -1;
/* per socket (eng->socks' order): its queue's own XSKMAP from the device plugin's socket */
static int *qmap_fds;
static unsigned int nr_qmap_fds;

bool xskf_served__on(const struct xskf_engine *eng)
{
	return eng->o.xsk_map || eng->o.xsk_map_uds;
}

/* The effective capabilities, as a mask of 1 << CAP_*. */
static uint64_t caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return ~0ull;
	return d[0].effective | ((uint64_t)d[1].effective << 32);
}

int xskf_served__preflight(struct xskf_engine *eng)
{
	const char *opt = eng->o.xsk_map ? "--xsk-map" : "--xsk-map-uds";
	unsigned int i;

	if (eng->o.xsk_map && eng->o.xsk_map_uds) {
		pr_warn("--xsk-map and --xsk-map-uds both name the XSKMAP: give one\n");
		return -EINVAL;
	}
	if (eng->o.pin_dir || eng->o.serve || eng->o.serve_uds) {
		pr_warn("%s: this run is served the map of another's program; --serve, --pin-dir "
			"and --serve-uds are for the run that holds the program\n",
			opt);
		return -EINVAL;
	}
	if (eng->o.xsk_map && eng->nr_ports != 1) {
		pr_warn("--xsk-map %s is one interface's XSKMAP: give one interface (-i), or use "
			"--xsk-map-uds, which asks for each\n",
			eng->o.xsk_map);
		return -EINVAL;
	}
	if (!(caps() & (1ull << CAP_NET_RAW))) {
		pr_warn("permission denied: an AF_XDP socket needs CAP_NET_RAW (setpriv "
			"--ambient-caps=+net_raw, or a pod's securityContext capabilities add)\n");
		return -EPERM;
	}
	for (i = 0; i < eng->nr_ports; i++)
		if (eng->ports[i].steer.n || eng->ports[i].steer.default_set ||
		    eng->ports[i].steer.keep_host) {
			pr_warn("%s: --steer, --steer-file and --keep-host write the program's rule "
				"table, and the program is the serving process's: give the rules to "
				"it (xskf --serve ... --steer, or xskfctl steer there)\n",
				opt);
			return -EINVAL;
		}
	if (xskf_xdp_eng(eng)->napi_req.defer_set || xskf_xdp_eng(eng)->napi_req.gro_set ||
	    xskf_xdp_eng(eng)->napi_req.irq_set) {
		pr_warn("%s: --napi changes the device (CAP_NET_ADMIN), which a served run does not "
			"do: set it on the serving run\n",
			opt);
		return -EINVAL;
	}
	if (eng->o.force) {
		pr_warn("%s: --force replaces an XDP program: a served run attaches none\n", opt);
		return -EINVAL;
	}
	if (eng->app.flags & XSKF_APP_F_NEEDS_HINTS) {
		pr_warn("%s: app '%s' reads RX hints, and a served run has none (the meta in front "
			"of a frame is the serving program's): run it where xskf holds the program\n",
			opt, eng->app.name ? eng->app.name : "?");
		return -EINVAL;
	}
	/* the worker reads no meta: the serving program's is not ours to read */
	eng->hints = 0;
	eng->o.no_hints = true;
	return 0;
}

/*
 * Why bpf() said @err to this process, as a message's tail. EPERM is not the pin's mode (that
 * is EACCES): a seccomp filter (a container runtime's default profile allows bpf() only with
 * CAP_SYS_ADMIN), or a kernel before 6.5 with kernel.unprivileged_bpf_disabled set, which
 * refuses every bpf() command to a process without CAP_BPF.
 */
static const char *bpf_why(int err)
{
	char line[128];
	bool filtered = false;
	FILE *f;

	if (err == -EACCES)
		return " (its folder and file must let this user in: --pin-group on the serving "
		       "run)";
	if (err != -EPERM)
		return "";
	f = fopen("/proc/self/status", "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8)) {
			filtered = atoi(line + 8) == 2;
			break;
		}
	if (f)
		fclose(f);
	if (filtered)
		return " (bpf() is refused by this process's seccomp filter: a container "
		       "runtime's default profile allows it only with CAP_SYS_ADMIN; run with a "
		       "profile that allows bpf(), deploy/seccomp-allow-bpf.py makes one)";
	return " (the kernel refuses bpf() to this process: before Linux 6.5, "
	       "kernel.unprivileged_bpf_disabled refuses it every command without CAP_BPF)";
}

/* One request on the device plugin's socket, its answer in @ans, a passed fd in @fd. */
static int ask(const char *req, char *ans, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = ans, .iov_len = len - 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	ssize_t n;

	if (fd)
		*fd = -1;
	if (send(uds, req, strlen(req), MSG_NOSIGNAL) < 0)
		return -errno;
	n = recvmsg(uds, &m, MSG_CMSG_CLOEXEC);
	if (n <= 0)
		return n < 0 ? -errno : -ECONNRESET;
	ans[n] = 0;
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			int f;

			memcpy(&f, CMSG_DATA(cm), sizeof(int));
			if (fd && *fd < 0)
				*fd = f;
			else
				close(f);
		}
	return 0;
}

/* Connect to the device plugin's socket and say who we are: 0, or -errno said. */
static int uds_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	char req[XSKF_DP_MSG_MAX + 1], ans[XSKF_DP_MSG_MAX + 1], host[64] = "xskf";
	int err;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		pr_warn("--xsk-map-uds %s: a socket path is at most %zu bytes\n", path,
			sizeof(sa.sun_path) - 1);
		return -EINVAL;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	uds = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (uds < 0 || setsockopt(uds, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(uds, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		pr_warn("--xsk-map-uds %s: cannot connect: %s (is the device plugin, or an xskf "
			"run with --serve-uds, serving there?)\n",
			path, strerror(-err));
		return err;
	}
	/* the host name, as a pod sends its own; where it is not one the server takes (the
	 * kernel's "(none)" where nothing set one, as in the lab's guests, or too long for a
	 * message) ours */
	if (gethostname(host, sizeof(host) - 1))
		host[0] = 0;
	host[sizeof(host) - 1] = 0;
	if (!xskf_dp__host_ok(host) || sizeof("/connect,") - 1 + strlen(host) > XSKF_DP_MSG_MAX)
		snprintf(host, sizeof(host), "xskf");
	snprintf(req, sizeof(req), "/connect,%s", host);
	err = ask(req, ans, sizeof(ans), NULL);
	if (err || strcmp(ans, "/host_ok")) {
		pr_warn("--xsk-map-uds %s: /connect,%s answered %s\n", path, host,
			err ? strerror(-err) : ans);
		return err ? err : -EACCES;
	}
	err = ask("/version", ans, sizeof(ans), NULL);
	if (err || strcmp(ans, XSKF_DP_PROTO_VERSION)) {
		pr_warn("--xsk-map-uds %s: the server speaks protocol version '%s', this run %s\n",
			path, err ? strerror(-err) : ans, XSKF_DP_PROTO_VERSION);
		return err ? err : -EPROTO;
	}
	return 0;
}

/* Map @fd, from @from, is an XSKMAP: @fd (its id in @id), or -errno said and @fd closed. */
static int check_map(const struct xskf_port *p, const char *from, int fd, uint32_t *id)
{
	struct bpf_map_info mi = {};
	uint32_t len = sizeof(mi);
	int err;

	if (bpf_obj_get_info_by_fd(fd, &mi, &len)) {
		err = -errno;
		pr_warn("%s: cannot read what the map of %s is: %s%s\n", p->name, from,
			strerror(-err), err == -EPERM ? bpf_why(err) : "");
		close(fd);
		return err;
	}
	if (mi.type != BPF_MAP_TYPE_XSKMAP) {
		pr_warn("%s: %s is not an XSKMAP (map type %u)\n", p->name, from, mi.type);
		close(fd);
		return -EINVAL;
	}
	*id = mi.id;
	return fd;
}

/* The XSKMAP of @p: pinned, or asked for on the socket. Its fd, or -errno said. */
static int map_of(struct xskf_engine *eng, const struct xskf_port *p, uint32_t *id)
{
	char req[XSKF_DP_MSG_MAX + 1], ans[XSKF_DP_MSG_MAX + 1];
	const char *from = eng->o.xsk_map ? eng->o.xsk_map : eng->o.xsk_map_uds;
	int fd, err;

	if (eng->o.xsk_map) {
		fd = bpf_obj_get(eng->o.xsk_map);
		if (fd < 0) {
			err = -errno;
			pr_warn("--xsk-map %s: cannot open the pinned map: %s%s\n", eng->o.xsk_map,
				strerror(-err), bpf_why(err));
			return err;
		}
	} else {
		snprintf(req, sizeof(req), "/xsk_map_fd,%s", p->name);
		err = ask(req, ans, sizeof(ans), &fd);
		if (err || strcmp(ans, "/fd_ack") || fd < 0) {
			pr_warn("--xsk-map-uds %s: %s answered %s: the server holds no XSKMAP of %s\n",
				eng->o.xsk_map_uds, req, err ? strerror(-err) : ans, p->name);
			if (fd >= 0)
				close(fd);
			return err ? err : -ENOENT;
		}
	}
	return check_map(p, from, fd, id);
}

/*
 * On the device plugin's socket, the XSKMAP of @s's queue alone: an xskf server gives each
 * served queue a map of its own (/xsk_map_fd,IFACE,QUEUE). A server that does not know that
 * form (the device plugin: /nak) has one map per interface, asked once (map_of()). The fd,
 * in qmap_fds[] or map_fds[], or -errno said.
 */
static int uds_map(struct xskf_engine *eng, const struct xskf_sock *s, unsigned int i,
		   uint32_t *id)
{
	char req[XSKF_DP_MSG_MAX + 1], ans[XSKF_DP_MSG_MAX + 1];
	int fd, err;

	if (map_fds[s->port->idx] >= 0)
		return map_fds[s->port->idx];
	snprintf(req, sizeof(req), "/xsk_map_fd,%s,%u", s->port->name, s->queue);
	err = ask(req, ans, sizeof(ans), &fd);
	if (!err && !strcmp(ans, "/nak")) {
		fd = map_of(eng, s->port, id);
		if (fd >= 0)
			map_fds[s->port->idx] = fd;
		return fd;
	}
	if (err || strcmp(ans, "/fd_ack") || fd < 0) {
		pr_warn("--xsk-map-uds %s: %s answered %s: queue %u of %s is not served there\n",
			eng->o.xsk_map_uds, req, err ? strerror(-err) : ans, s->queue,
			s->port->name);
		if (fd >= 0)
			close(fd);
		return err ? err : -ENOENT;
	}
	fd = check_map(s->port, eng->o.xsk_map_uds, fd, id);
	if (fd >= 0)
		qmap_fds[i] = fd;
	return fd;
}

/* Every socket's map: the queue's (the device plugin's socket) or the interface's (a pin). */
static int socket_maps(struct xskf_engine *eng)
{
	const char *from = eng->o.xsk_map ? eng->o.xsk_map : eng->o.xsk_map_uds;
	unsigned int i;
	uint32_t id = 0;
	int fd;

	qmap_fds = malloc(eng->nr_socks * sizeof(*qmap_fds));
	if (!qmap_fds)
		return -ENOMEM;
	for (i = 0; i < eng->nr_socks; i++)
		qmap_fds[i] = -1;
	nr_qmap_fds = eng->nr_socks;
	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];
		bool port_map = map_fds[s->port->idx] >= 0;

		if (eng->o.xsk_map_uds)
			fd = uds_map(eng, s, i, &id);
		else
			fd = port_map ? map_fds[s->port->idx] : map_of(eng, s->port, &id);
		if (fd < 0)
			return fd;
		if (!eng->o.xsk_map_uds)
			map_fds[s->port->idx] = fd;
		if (port_map)
			continue;
		pr_info("%s: served: the XSKMAP (id %u) of %s; this run attaches no XDP program "
			"(the serving process's: attaching needs CAP_NET_ADMIN and CAP_BPF), writes "
			"no steering rule (its rules decide what reaches our queues) and sets no "
			"NAPI (--napi needs CAP_NET_ADMIN); RX hints off%s\n",
			s->port->name, id, from, qmap_fds[i] >= 0 ? "; the map is this queue's alone" : "");
	}
	return 0;
}

/* The map socket @i enters. */
static int sock_map(unsigned int i, const struct xskf_sock *s)
{
	return i < nr_qmap_fds && qmap_fds[i] >= 0 ? qmap_fds[i] : map_fds[s->port->idx];
}

int xskf_served__attach(struct xskf_engine *eng)
{
	const char *from = eng->o.xsk_map ? eng->o.xsk_map : eng->o.xsk_map_uds;
	unsigned int i;
	int err;

	if (eng->o.xsk_map_uds && (err = uds_connect(eng->o.xsk_map_uds)))
		return err;
	err = socket_maps(eng);
	if (err)
		return err;
	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_sock *s = &eng->socks[i];

		if (bpf_map_update_elem(sock_map(i, s), &s->queue, &s->fd, 0)) {
			err = -errno;
			pr_warn("%s queue %u: cannot enter the socket in the XSKMAP of %s: %s%s\n",
				s->port->name, s->queue, from, strerror(-err),
				err == -EPERM ? bpf_why(err) : "");
			return err;
		}
	}
	return 0;
}

void xskf_served__detach(struct xskf_engine *eng)
{
	char ans[XSKF_DP_MSG_MAX + 1];
	unsigned int i;

	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_sock *s = &eng->socks[i];

		if (sock_map(i, s) >= 0)
			bpf_map_delete_elem(sock_map(i, s), &s->queue);
	}
	for (i = 0; i < nr_qmap_fds; i++)
		if (qmap_fds[i] >= 0)
			close(qmap_fds[i]);
	free(qmap_fds);
	qmap_fds = NULL;
	nr_qmap_fds = 0;
	for (i = 0; i < XSKF_MAX_PORTS; i++)
		if (map_fds[i] >= 0) {
			close(map_fds[i]);
			map_fds[i] = -1;
		}
	if (uds >= 0) {
		ask("/fin", ans, sizeof(ans), NULL); /* the answer is /fin_ack, or the server is gone */
		close(uds);
		uds = -1;
	}
}

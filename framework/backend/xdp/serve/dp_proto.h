/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The AF_XDP device plugin's UDS protocol, version 0.1 (afxdp-plugins-for-kubernetes; DPDK's
 * af_xdp driver with use_cni speaks it as a client): one SOCK_SEQPACKET message per request
 * and per answer, no terminator, at most XSKF_DP_MSG_MAX bytes. The requests, parsed here
 * (dp_proto.c, pure: the fuzz target calls it); dp_uds.c serves them. Thread: any.
 *
 *   /connect,HOSTNAME        -> /host_ok, or /host_nak (a bad name)
 *   /version                 -> 0.1
 *   /xsk_map_fd,IFACE        -> /fd_ack with the XSKMAP's fd (SCM_RIGHTS), or /fd_nak
 *   /xsk_map_fd,IFACE,QUEUE  (xskf's own) the same, for a queue of several served
 *   /config_busy_poll,US,N   (an AF_XDP socket's fd with it) -> /config_busy_poll_ack | _nak
 *   /fin                     -> /fin_ack, and the server closes
 *   anything else            -> /nak
 *
 * As the device plugin does, blanks in the arguments are dropped.
 */
#ifndef XSKF_BACKEND_XDP_DP_PROTO_H
#define XSKF_BACKEND_XDP_DP_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define XSKF_DP_MSG_MAX 64 /* the device plugin's udsMsgBufSize */
#define XSKF_DP_PROTO_VERSION "0.1"
#define XSKF_DP_MAX_QUEUE 255 /* the program's queues: XSKF_PROG_MAX_QUEUES - 1 */

enum xskf_dp_req {
	XSKF_DP_BAD,       /* not a request of the protocol: /nak */
	XSKF_DP_CONNECT,   /* arg: the host name, "" when it is not one (/host_nak) */
	XSKF_DP_VERSION,
	XSKF_DP_XSK_MAP,   /* arg: the interface, "" when it cannot be one (/fd_nak) */
	XSKF_DP_BUSY_POLL, /* timeout_us, budget; bad numbers: XSKF_DP_BAD */
	XSKF_DP_FIN,
};

struct xskf_dp_msg {
	enum xskf_dp_req kind;
	char arg[XSKF_DP_MSG_MAX + 1];
	uint32_t timeout_us, budget;
	int32_t queue; /* XSKF_DP_XSK_MAP: the queue asked for, -1 when not given */
};

/* 1 when @s is a host name /connect takes (RFC 1123, 1-63 bytes, a letter or digit first). */
int xskf_dp__host_ok(const char *s);

/* Parse the message @buf of @len bytes into @m; returns m->kind. */
enum xskf_dp_req xskf_dp__parse(const char *buf, size_t len, struct xskf_dp_msg *m);

#endif /* XSKF_BACKEND_XDP_DP_PROTO_H */

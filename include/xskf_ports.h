/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf: what an app asks of the engine and its ports from its callbacks (configure, init,
 * tick, json, and the workers' where said): the ports and workers, the engine's choices,
 * steering rules, promiscuous mode, a port's interface, and the stop. A plugin gets it from
 * xskf_plugin.h; the engine's own life (xskf_engine.h) is the embedding program's.
 */
#ifndef XSKF_PUB_PORTS_H
#define XSKF_PUB_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xskf_pkt.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskf_engine;

/* The engine's limits (an app sizes its per-port and per-worker arrays by them). */
#define XSKF_MAX_PORTS   16
#define XSKF_MAX_QUEUES  256 /* per port */
#define XSKF_MAX_WORKERS 64
#define XSKF_MAX_BATCH   256

/*
 * xskf_engine__request_stop() - ask the workers to stop. Async-signal-safe: call it from a
 * SIGINT/SIGTERM handler. Thread: any.
 */
XSKF_API void xskf_engine__request_stop(struct xskf_engine *eng);

/* Returns true once a stop was requested. Thread: any. */
XSKF_API bool xskf_engine__stopping(const struct xskf_engine *eng);

/* Number of ports added. Thread: any. */
XSKF_API unsigned int xskf_engine__nr_ports(const struct xskf_engine *eng);
/* Interface name of port @port, or NULL. Thread: any. */
XSKF_API const char *xskf_engine__port_name(const struct xskf_engine *eng, unsigned int port);
/* Number of workers. Thread: any. */
XSKF_API unsigned int xskf_engine__nr_workers(const struct xskf_engine *eng);
/*
 * xskf_engine__csum_repair() - true when the engine finishes unfinished TCP/UDP checksums of
 * received frames (xskf_engine_opts.csum_repair, --csum-repair): an app that builds or
 * decapsulates frames then does the same to them (xskf_pkt__csum_finish()). Thread: any.
 */
XSKF_API bool xskf_engine__csum_repair(const struct xskf_engine *eng);
/*
 * xskf_engine__frags() - true when the sockets were bound for frames of several buffers
 * (multi-buffer AF_XDP, XDP_USE_SG: a port's MTU needs it, the kernel has it and the app takes
 * frags, docs/jumbo.md), so that frames longer than one UMEM frame are received and can be
 * sent (xskf_pkt__append()). Thread: any, after xskf_engine__start() (e.g. from app->init()).
 * xskf_engine__chains() is its deprecated name.
 */
XSKF_API bool xskf_engine__frags(const struct xskf_engine *eng);
XSKF_API bool xskf_engine__chains(const struct xskf_engine *eng);

/*
 * Steering (docs/steering.md): each port's XDP program holds a table of rules, matched in
 * order, the first match deciding a frame's fate: its queue's socket (xsk), the kernel's stack
 * on this CPU (pass) or on a CPU of a set (cpumap), or dropped (drop). Rules are text, e.g.
 * "udp dport 53 xsk", "src 198.51.100.0/24 drop", "default pass". A frame no rule matches
 * takes the default: set by "default ACTION"; otherwise xsk, or pass once a rule given before
 * start sends frames to the sockets (the app then takes what it asked for, the host the rest).
 * Before xskf_engine__start() rules are kept; after, each change is written to the program's
 * maps at once (no reload; a frame sees the old table or the new one, whole).
 */

/*
 * xskf_engine__steer_add() - add @rule at the end of the rule list of @port (-1: every port;
 * a plugin declares the rules it needs so, from its configure() callback). Returns the rule's
 * id (> 0, the same on every port; xskf_engine__steer_del() takes it), 0 for a "default"
 * rule, or -EINVAL (malformed: @err says why), -EEXIST (the same match is there: @err names
 * the rule), -ENOSPC (the table is full), -ENODEV (a cpumap CPU does not exist or is offline),
 * -ENOENT (no such port), or the errno of a failed map write. On an error nothing changed.
 * @err (may be NULL) receives one line. Thread: control thread.
 */
XSKF_API int xskf_engine__steer_add(struct xskf_engine *eng, int port, const char *rule,
				    char *err, size_t err_len);
/*
 * xskf_engine__steer_keep_host() - give @port (-1: every port) the --keep-host rules at start:
 * the host's ARP, ICMPv6 (neighbour discovery) and frames to the interface's own addresses go
 * to the stack, after every other rule. Returns 0, -ENOENT, -EBUSY (started).
 * Thread: control thread, before xskf_engine__start().
 */
XSKF_API int xskf_engine__steer_keep_host(struct xskf_engine *eng, int port);
/*
 * xskf_engine__promisc() - @port (-1: every port) receives frames to every MAC until the
 * engine is destroyed or the process ends: a NIC drops unicast frames to other MACs before XDP
 * sees them (veth does not). For ports whose frames are not addressed to them, such as a
 * tunnel's access side. Held as an AF_PACKET PACKET_MR_PROMISC membership, which the kernel
 * drops when the process ends, crash included. Returns 0, -ENOENT (no such port), or the errno
 * of the socket or setsockopt (one line says so). Thread: control thread.
 */
XSKF_API int xskf_engine__promisc(struct xskf_engine *eng, int port);

/*
 * xskf_engine__steer_udp() - send only UDP datagrams to port @dport (over IPv4 or IPv6, one
 * optional VLAN tag, first fragments) of @port's queues to the sockets; every other frame goes
 * on to the kernel's stack (ARP, ICMP, management traffic keep working). The rule
 * "udp dport DPORT xsk" (the default then becomes pass). @dport 0: nothing. Returns 0, -ENOENT
 * (no such port), -EBUSY (already started), or what xskf_engine__steer_add() returns.
 * Thread: control thread, before xskf_engine__start() (e.g. from app->configure()).
 */
XSKF_API int xskf_engine__steer_udp(struct xskf_engine *eng, unsigned int port, uint16_t dport);

/* What the kernel says of a port's interface, read when asked. */
struct xskf_port_info {
	size_t sz;            /* set by the caller: sizeof(struct xskf_port_info) */
	int ifindex;
	uint8_t mac[6];
	bool up;              /* administratively up (IFF_UP) */
	bool running;         /* has carrier (IFF_RUNNING) */
	uint32_t mtu;
	unsigned int rx_queues;
};
#define xskf_port_info__last_field rx_queues

/*
 * xskf_engine__port_info() - MAC address, MTU, link state and RX queue count of port @port,
 * read from the kernel now. Returns 0, -ENOENT (no such port), -EINVAL (bad sz), or the
 * negative errno of the failed ioctl. Thread: control thread (e.g. from app->init()).
 */
XSKF_API int xskf_engine__port_info(const struct xskf_engine *eng, unsigned int port,
				    struct xskf_port_info *info);

/*
 * xskf_mac__parse() - "02:00:00:00:00:01" (six two-digit hex groups) into 6 bytes.
 * Returns 0 or -EINVAL. Thread: any.
 */
XSKF_API int xskf_mac__parse(const char *s, uint8_t mac[6]);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PUB_PORTS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf doctor's judges (doctor_judge.c; the steering of frames to queues: doctor_steer.c):
 * each takes what was read and adds its findings, with no system call (unit-tested with
 * made-up answers); and the XDP checks that read and judge (doctor_xdp.c).
 */
#ifndef XSKF_DOCTOR_JUDGE_H
#define XSKF_DOCTOR_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/xdp/doctor/doctor.h"

/* Is queue @q asked (every queue when none is named)? */
bool xskf_dr__asked(const struct xskf_dr_ask *a, uint32_t q);
/* "0,2": the asked queues, or "every queue", for messages. */
const char *xskf_dr__asked_words(const struct xskf_dr_ask *a, char *buf, size_t len);

/* Link: IFF_UP, carrier; MTU against the room of one frame (@rx_sg: the driver takes
 * multi-buffer frames in native mode, xdp-features rx-sg; -1 unknown). */
void xskf_dr__judge_link(struct xskf_dr_report *r, const struct xskf_dr_ask *a, bool up,
			 bool carrier, int mtu, int rx_sg);
/* The asked queues against the interface's @nr_rx RX queues (@max_rx: the most ethtool -L
 * allows, 0 unknown). */
void xskf_dr__judge_queues(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			   unsigned int nr_rx, unsigned int max_rx);
/* The RSS indirection table (ETHTOOL_GRXFHINDIR) of @n entries, or @err when it could not
 * be read (-EOPNOTSUPP: the driver has none). */
void xskf_dr__judge_rss(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			const uint32_t *indir, unsigned int n, unsigned int nr_rx, int err);
/* One ntuple rule (struct ethtool_rx_flow_spec) of ETHTOOL_GRXCLSRLALL. */
struct ethtool_rx_flow_spec;
void xskf_dr__judge_rule(struct xskf_dr_report *r, const struct xskf_dr_ask *a,
			 const struct ethtool_rx_flow_spec *fs);
/* The rule in ethtool's words ("udp4 dst-port 9000"), into @buf. */
const char *xskf_dr__rule_words(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len);
/* rx-flow-hash (ETHTOOL_GRXFH) of flow type @flow (UDP_V4_FLOW, ...): its RXH_* fields. */
void xskf_dr__judge_rxfh(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t flow,
			 uint64_t fields, int err);
/* Promiscuous mode: @physical (a device with a MAC filter), @promisc, the interface's MAC. */
void xskf_dr__judge_promisc(struct xskf_dr_report *r, const struct xskf_dr_ask *a, bool physical,
			    bool promisc, const uint8_t *ifmac);

/*
 * The RX queue an interrupt serves, from its name in /proc/interrupts ("eth0-TxRx-3",
 * "virtio0-input.3", "i40e-eth0-TxRx-3", "mlx5_comp3@pci:..."): the queue, or -1 (a TX-only
 * or link interrupt, or a name of no known form).
 */
int xskf_dr__irq_queue(const char *name);
/*
 * One line of /proc/interrupts: its IRQ number and the name of its action (the last word),
 * into @name. Returns 0, or -EINVAL (the header, or "NMI:" and the other lines of no IRQ).
 */
int xskf_dr__irq_line(const char *line, unsigned int *irq, char *name, size_t len);
/* Queue @q's interrupt @irq (@name), allowed on the CPUs of @affinity (a cpu list, "0-3"). */
void xskf_dr__judge_irq(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint32_t q,
			unsigned int irq, const char *name, const char *affinity,
			unsigned int nr_cpus);
/* Hugepages: @node the NIC's (-1: none), @free pages of @page_size there, @need per worker. */
void xskf_dr__judge_huge(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int node,
			 uint64_t page_size, long free, unsigned int workers);
/* RLIMIT_MEMLOCK @limit (RLIM_INFINITY: none) and whether CAP_IPC_LOCK lifts it. */
void xskf_dr__judge_memlock(struct xskf_dr_report *r, const struct xskf_dr_ask *a, uint64_t limit,
			    bool ipc_lock, unsigned int workers);
/* --frames @frames (0: the default) for @socks sockets per worker of @fill-slot fill rings. */
void xskf_dr__judge_umem(struct xskf_dr_report *r, uint32_t frames, uint32_t fill, uint32_t tx,
			 unsigned int socks);
/* "0-3,6" into a set of CPUs (at most @max); -EINVAL when it is no cpu list. */
int xskf_dr__cpu_list(const char *s, bool *set, unsigned int max);

/* ---- the XDP checks (doctor_xdp.c): read and judge ---- */
/* The programs on the interface: a foreign one in front, SKB mode. */
void xskf_dr__check_xdp(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex);
/* netdev xdp-features @xf (@xerr: not known): native XDP, zero-copy. */
void xskf_dr__check_features(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex,
			     uint64_t xf, int xerr);
/* The NAPI IDs of the asked queues (netdev queue-get): what -B needs. */
void xskf_dr__check_napi(struct xskf_dr_report *r, const struct xskf_dr_ask *a, int ifindex);

#endif /* XSKF_DOCTOR_JUDGE_H */

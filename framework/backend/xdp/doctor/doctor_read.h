/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What `xskf doctor` reads of an interface through the ethtool ioctl and procfs (doctor_read.c).
 * Each returns 0 (or a count) or the driver's -errno: -EOPNOTSUPP where it has no answer (veth
 * for all of the ethtool ones), which doctor says as "not reported by the driver".
 * Thread: any.
 */
#ifndef XSKF_DOCTOR_READ_H
#define XSKF_DOCTOR_READ_H
#include <stdint.h>

#include "backend/xdp/doctor/doctor.h"

/* An AF_INET datagram socket for the ethtool ioctl, or -errno. */
int xskf_dr__open_ethtool(void);
/* ETHTOOL_GCHANNELS: RX queues now (combined + rx) and at most. */
int xskf_dr__channels(int fd, const char *ifn, unsigned int *rx, unsigned int *max_rx);
/* ETHTOOL_GRXFHINDIR: the table (malloc'd, *@n entries; free() it). */
int xskf_dr__indir(int fd, const char *ifn, uint32_t **indir, unsigned int *n);
/* ETHTOOL_GRXCLSRLCNT, ETHTOOL_GRXCLSRLALL, ETHTOOL_GRXCLSRULE: every ntuple rule (malloc'd). */
struct ethtool_rx_flow_spec;
int xskf_dr__rules(int fd, const char *ifn, struct ethtool_rx_flow_spec **rules, unsigned int *n);
/* ETHTOOL_GRXFH: the RXH_* fields flow type @flow is hashed over. */
int xskf_dr__rxfh(int fd, const char *ifn, uint32_t flow, uint64_t *fields);

/* An RX queue's interrupt: /proc/interrupts among the device's msi_irqs. */
struct xskf_dr_irq {
	unsigned int irq;
	uint32_t queue;
	char name[64];
	char affinity[64]; /* effective_affinity_list, else smp_affinity_list; "" unknown */
};
/* The RX queue interrupts of @ifn, at most @max: how many, or -errno. */
int xskf_dr__irqs(const char *ifn, struct xskf_dr_irq *out, unsigned int max);
#endif /* XSKF_DOCTOR_READ_H */

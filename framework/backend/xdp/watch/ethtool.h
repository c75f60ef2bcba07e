/* SPDX-License-Identifier: BSD-2-Clause */
/* The one way the core asks a driver something through the ethtool ioctl. */
#ifndef XSKF_ETHTOOL_H
#define XSKF_ETHTOOL_H

#include <errno.h>
#include <stdio.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

/*
 * xskf_ethtool() - run the ethtool command @cmd (a struct ethtool_* whose first member is its
 * ETHTOOL_* number) on interface @ifname through the socket @fd (any AF_INET datagram socket).
 * Returns 0 or -errno. Thread: any.
 */
static inline int xskf_ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

#endif /* XSKF_ETHTOOL_H */

// SPDX-License-Identifier: BSD-2-Clause
/* What apps ask of their ports' interfaces (MAC, MTU, link state), and MAC parsing. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "core/backend.h"

int xskf_engine__port_info(const struct xskf_engine *eng, unsigned int port,
			   struct xskf_port_info *info)
{
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	const struct xskf_port *p;
	int err;

	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	/* filled in by us: bytes past what we know must be zero, not the caller's padding */
	if (!info || xskf_opts_valid(info, info->sz, sizeof(pi), "xskf_port_info"))
		return -EINVAL;
	p = &eng->ports[port];
	pi.ifindex = p->ifindex;
	pi.rx_queues = p->nr_hw_queues;
	err = eng->be->port_info(eng, p, &pi);
	if (err)
		return err;
	memcpy(info, &pi, info->sz < sizeof(pi) ? info->sz : sizeof(pi));
	info->sz = info->sz < sizeof(pi) ? info->sz : sizeof(pi);
	return 0;
}

int xskf_engine__promisc(struct xskf_engine *eng, int port)
{
	unsigned int i;
	int err;

	if (!eng || port >= (int)eng->nr_ports)
		return -ENOENT;
	if (!eng->be->port_ctl)
		return 0; /* no NIC (the memory backend): nothing filters */
	for (i = 0; i < eng->nr_ports; i++) {
		if (port >= 0 && i != (unsigned int)port)
			continue;
		err = eng->be->port_ctl(&eng->ports[i], XSKF_PORT_CTL_PROMISC);
		if (err && err != -EOPNOTSUPP)
			return err;
	}
	return 0;
}

int xskf_mac__parse(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char extra;
	int i;

	/* exactly six two-digit groups: "2:0:0:0:0:1" is more likely a typo than meant */
	if (!s || strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &extra) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

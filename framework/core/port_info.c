// SPDX-License-Identifier: BSD-2-Clause
/* What apps ask of their ports' interfaces (MAC, MTU, link state), and MAC address parsing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "core/internal.h"

int xskf_engine__port_info(const struct xskf_engine *eng, unsigned int port,
			   struct xskf_port_info *info)
{
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	const struct xskf_port *p;
	struct ifreq ifr = {};
	int fd, err = 0;

	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	if (!info || xskf_opts_valid(info, info->sz, sizeof(pi), "xskf_port_info"))
		return -EINVAL;
	p = &eng->ports[port];
	pi.ifindex = p->ifindex;
	pi.rx_queues = p->nr_hw_queues;
	if (eng->mem) {
		/* a memory port: the MAC its frames are addressed to (mem_backend.c), always up */
		static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };

		memcpy(pi.mac, mac, sizeof(mac));
		pi.mac[5] += (uint8_t)port;
		pi.mtu = 1500;
		pi.up = pi.running = true;
		memcpy(info, &pi, info->sz < sizeof(pi) ? info->sz : sizeof(pi));
		info->sz = info->sz < sizeof(pi) ? info->sz : sizeof(pi);
		return 0;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->name);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		err = -errno;
		goto out;
	}
	memcpy(pi.mac, ifr.ifr_hwaddr.sa_data, sizeof(pi.mac));
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		err = -errno;
		goto out;
	}
	pi.mtu = (uint32_t)ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		err = -errno;
		goto out;
	}
	pi.up = ifr.ifr_flags & IFF_UP;
	pi.running = ifr.ifr_flags & IFF_RUNNING;
	memcpy(info, &pi, info->sz < sizeof(pi) ? info->sz : sizeof(pi));
	info->sz = info->sz < sizeof(pi) ? info->sz : sizeof(pi);
out:
	close(fd);
	return err;
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

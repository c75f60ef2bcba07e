// SPDX-License-Identifier: BSD-2-Clause
/*
 * What xskf-trafficgen reads from the interface: its MAC and addresses, the neighbour table (to
 * address frames to the peer without ARP/ND), and the veth XDP transmit counters through
 * ETHTOOL_GSTATS, the counters that say how many generated frames reached the peer.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "trafficgen.h"

int tg_if_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr = {};
	int fd, err = 0;

	if (strlen(ifname) >= IFNAMSIZ)
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

int tg_if_addr(const char *ifname, int family, union tg_ip *ip)
{
	struct ifaddrs *ifa_list, *ifa;
	int err = -ENOENT;

	if (getifaddrs(&ifa_list) < 0)
		return -errno;
	for (ifa = ifa_list; ifa; ifa = ifa->ifa_next) {
		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != family ||
		    strcmp(ifa->ifa_name, ifname))
			continue;
		if (family == AF_INET) {
			ip->v4 = ((struct sockaddr_in *)ifa->ifa_addr)->sin_addr;
		} else {
			const struct in6_addr *a = &((struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr;

			if (IN6_IS_ADDR_LINKLOCAL(a))
				continue;
			ip->v6 = *a;
		}
		err = 0;
		break;
	}
	freeifaddrs(ifa_list);
	return err;
}

/* Does this RTM_NEWNEIGH entry match? If so copy its address and MAC. */
static bool neigh_match(struct nlmsghdr *nh, int ifindex, int family, const union tg_ip *ip,
			union tg_ip *ip_out, uint8_t mac[6])
{
	struct ndmsg *nd = NLMSG_DATA(nh);
	size_t alen = family == AF_INET ? 4 : 16;
	int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof(*nd));
	const void *dst = NULL, *lladdr = NULL;
	struct rtattr *rta;

	/* NOARP entries are multicast/broadcast mappings, not a peer to send to */
	if (nh->nlmsg_type != RTM_NEWNEIGH || len < 0 || nd->ndm_family != family ||
	    nd->ndm_ifindex != ifindex ||
	    (nd->ndm_state & (NUD_INCOMPLETE | NUD_FAILED | NUD_NOARP)))
		return false;
	for (rta = RTM_RTA(nd); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == NDA_DST && RTA_PAYLOAD(rta) == alen)
			dst = RTA_DATA(rta);
		else if (rta->rta_type == NDA_LLADDR && RTA_PAYLOAD(rta) == 6)
			lladdr = RTA_DATA(rta);
	}
	if (!dst || !lladdr || (ip && memcmp(dst, ip, alen)))
		return false;
	/* guessing a peer: our source address is global, so must be its */
	if (!ip && family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL((const struct in6_addr *)dst))
		return false;
	if (ip_out)
		memcpy(ip_out, dst, alen);
	memcpy(mac, lladdr, 6);
	return true;
}

int tg_neigh_find(int ifindex, int family, const union tg_ip *ip, union tg_ip *ip_out,
		  uint8_t mac[6])
{
	struct {
		struct nlmsghdr nh;
		struct ndmsg nd;
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_GETNEIGH,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.nh.nlmsg_seq = 1,
		.nd.ndm_family = family,
		.nd.ndm_ifindex = ifindex,
	};
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
	int fd, err = -ENOENT;
	bool done = false;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		err = -errno;
		goto out;
	}
	/* read the whole dump even after a match, so the socket is left clean */
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			if (err == -ENOENT && neigh_match(nh, ifindex, family, ip, ip_out, mac))
				err = 0;
		}
	}
out:
	close(fd);
	return err;
}

struct tg_ethtool {
	int fd;
	struct ifreq ifr;
	unsigned int n_stats;
	/* index into the stats array of each queue's counter, -1 when absent */
	int xmit_idx[TG_MAX_QUEUES];
	int err_idx[TG_MAX_QUEUES];
	unsigned int nr_queues;
	struct ethtool_stats *stats;
};

static int ethtool_ioctl(struct tg_ethtool *et, void *cmd)
{
	et->ifr.ifr_data = cmd;
	return ioctl(et->fd, SIOCETHTOOL, &et->ifr) < 0 ? -errno : 0;
}

/* Map the counter names we use to their index; other drivers simply have none of them. */
static void ethtool_index(struct tg_ethtool *et, const struct ethtool_gstrings *gs)
{
	unsigned int i, q;
	char suffix[32];

	for (q = 0; q < TG_MAX_QUEUES; q++)
		et->xmit_idx[q] = et->err_idx[q] = -1;
	for (i = 0; i < gs->len; i++) {
		const char *name = (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;
		int used = 0;

		if (sscanf(name, "tx_queue_%u_%31s%n", &q, suffix, &used) != 2 ||
		    q >= TG_MAX_QUEUES || name[used] != '\0')
			continue;
		if (!strcmp(suffix, "xdp_xmit"))
			et->xmit_idx[q] = i;
		else if (!strcmp(suffix, "xdp_xmit_errors"))
			et->err_idx[q] = i;
		else
			continue;
		if (q + 1 > et->nr_queues)
			et->nr_queues = q + 1;
	}
}

struct tg_ethtool *tg_ethtool__open(const char *ifname)
{
	/* the header and room for its one data word (a union: hdr ends in a flexible array) */
	union {
		struct ethtool_sset_info hdr;
		uint8_t raw[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} sset = { .hdr.cmd = ETHTOOL_GSSET_INFO, .hdr.sset_mask = 1ULL << ETH_SS_STATS };
	struct ethtool_gstrings *gs = NULL;
	struct tg_ethtool *et;
	int err;

	if (strlen(ifname) >= IFNAMSIZ) {
		errno = ENODEV;
		return NULL;
	}
	et = calloc(1, sizeof(*et));
	if (!et)
		return NULL;
	et->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (et->fd < 0) {
		err = -errno;
		goto err_free;
	}
	strcpy(et->ifr.ifr_name, ifname);
	err = ethtool_ioctl(et, &sset);
	if (err)
		goto err_close;
	et->n_stats = sset.hdr.sset_mask ? sset.hdr.data[0] : 0;

	gs = calloc(1, sizeof(*gs) + (size_t)et->n_stats * ETH_GSTRING_LEN);
	et->stats = calloc(1, sizeof(*et->stats) + (size_t)et->n_stats * sizeof(uint64_t));
	if (!gs || !et->stats) {
		err = -ENOMEM;
		goto err_close;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = et->n_stats;
	err = ethtool_ioctl(et, gs);
	if (err)
		goto err_close;
	ethtool_index(et, gs);
	free(gs);
	return et;

err_close:
	free(gs);
	free(et->stats);
	close(et->fd);
err_free:
	free(et);
	errno = -err;
	return NULL;
}

int tg_ethtool__read(struct tg_ethtool *et, struct tg_xmit_stats *st)
{
	unsigned int q;
	int err;

	memset(st, 0, sizeof(*st));
	if (!et->nr_queues)
		return 0;
	et->stats->cmd = ETHTOOL_GSTATS;
	et->stats->n_stats = et->n_stats;
	err = ethtool_ioctl(et, et->stats);
	if (err)
		return err;
	st->nr_queues = et->nr_queues;
	for (q = 0; q < et->nr_queues; q++) {
		if (et->xmit_idx[q] >= 0)
			st->xmit[q] = et->stats->data[et->xmit_idx[q]];
		if (et->err_idx[q] >= 0)
			st->errors[q] = et->stats->data[et->err_idx[q]];
	}
	return 0;
}

void tg_ethtool__close(struct tg_ethtool *et)
{
	if (!et)
		return;
	close(et->fd);
	free(et->stats);
	free(et);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Read an interface's RSS key with the ethtool ioctl (ETHTOOL_GRSSH), so that the software hash
 * of frames without a hardware hash gives what the NIC would have given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "backend/xdp/watch/ethtool.h"
#include "core/hints.h"
#include "core/toeplitz.h"

/* Kernel values not in the 6.1 UAPI header: ETH_RSS_HASH_TOP is bit 0 of hfunc. */
#define XSKF_ETH_RSS_HASH_TOP 0x01

int xskf_rss__read_key(const char *ifname, uint8_t *key, size_t *len)
{
	struct ethtool_rxfh head = { .cmd = ETHTOOL_GRSSH }, *rxfh = NULL;
	size_t size;
	int fd, err;

	if (!ifname || !key || !len || strlen(ifname) >= IF_NAMESIZE)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* first ask for the sizes (veth and other drivers without RSS fail here: EOPNOTSUPP) */
	err = xskf_ethtool(fd, ifname, &head);
	if (err)
		goto out;
	if (!head.key_size) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (head.key_size > *len) {
		err = -ENOSPC;
		goto out;
	}
	size = sizeof(*rxfh) + head.indir_size * sizeof(__u32) + head.key_size;
	rxfh = calloc(1, size);
	if (!rxfh) {
		err = -ENOMEM;
		goto out;
	}
	rxfh->cmd = ETHTOOL_GRSSH;
	rxfh->indir_size = head.indir_size;
	rxfh->key_size = head.key_size;
	err = xskf_ethtool(fd, ifname, rxfh);
	if (err)
		goto out;
	/*
	 * Only Toeplitz over the plain tuple can be reproduced: not XOR or CRC32 hashing, nor
	 * the symmetric input transform of Linux 6.8+ (input_xfrm, the first reserved byte here).
	 */
	if ((rxfh->hfunc && rxfh->hfunc != XSKF_ETH_RSS_HASH_TOP) || rxfh->rsvd8[0]) {
		err = -EPROTONOSUPPORT;
		goto out;
	}
	memcpy(key, (uint8_t *)rxfh->rss_config + rxfh->indir_size * sizeof(__u32),
	       rxfh->key_size);
	*len = rxfh->key_size;
out:
	free(rxfh);
	close(fd);
	return err;
}

struct xskf_rss *xskf_rss__for_ifname(const char *ifname, int *key_err)
{
	uint8_t key[XSKF_TOEPLITZ_MAX_KEY];
	size_t len = sizeof(key);
	int err;

	err = xskf_rss__read_key(ifname, key, &len);
	if (key_err)
		*key_err = err;
	return err ? xskf_rss__new(NULL, 0) : xskf_rss__new(key, len);
}

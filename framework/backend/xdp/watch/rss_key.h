/* SPDX-License-Identifier: BSD-2-Clause */
/* An interface's RSS key, read from its driver (rss_key.c): the xdp backend's rss_key(). */
#ifndef XSKF_RSS_KEY_H
#define XSKF_RSS_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "core/hints.h"

/*
 * xskf_rss__read_key() - read @ifname's RSS key (ETHTOOL_GRSSH) into @key, of *@len bytes
 * room; sets *@len to the key's length. Returns 0, -EOPNOTSUPP (the driver has no RSS key:
 * veth), -EPROTONOSUPPORT (its hash is not plain Toeplitz: XOR, CRC32, or the symmetric input
 * transform), -ENOSPC (key longer than *len), -ENODEV, -EPERM, or another -errno.
 * Thread: control thread (one ioctl pair).
 */
int xskf_rss__read_key(const char *ifname, uint8_t *key, size_t *len);

/*
 * xskf_rss__for_ifname() - an RSS object for @ifname: with its driver's key when it can be read,
 * else with the specification's default key. *@key_err (may be NULL) receives the result of
 * xskf_rss__read_key() (0: the driver's key), for a message. Returns a new object (free it with
 * xskf_rss__free()), or NULL with errno set (ENOMEM). Thread: control thread.
 */
struct xskf_rss *xskf_rss__for_ifname(const char *ifname, int *key_err);

#endif /* XSKF_RSS_KEY_H */

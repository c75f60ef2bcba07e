/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tunnel table's config file (format in docs/tunnel.md):
 *
 *     local 198.51.100.1                              # our VTEP address; one per family
 *     local 2001:db8::1
 *     nexthop-mac 02:00:00:00:00:02                   # outer destination MAC
 *     vni 100 remote 198.51.100.2 mac 02:00:00:00:01:02
 *     default vni 100 remote 198.51.100.2             # for every other destination MAC
 */
#ifndef TUNNEL_CONFIG_H
#define TUNNEL_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "tunnel_table.h"

/*
 * tun_config__load() - read @path and build a table.
 * Returns the table, or NULL with "FILE:LINE: reason" (or "FILE: reason") in @err.
 * Thread: control thread; it touches no table that workers see.
 */
struct tun_table *tun_config__load(const char *path, char *err, size_t errlen);

/*
 * tun_config__parse() - the same from the open stream @f (read to its end, not closed), with
 * @name in front of the errors in place of the path. Thread: as tun_config__load().
 */
struct tun_table *tun_config__parse(FILE *f, const char *name, char *err, size_t errlen);

#endif /* TUNNEL_CONFIG_H */

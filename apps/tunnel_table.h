/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xsk-tunnel's tunnel table: which VXLAN tunnel an inner frame goes into (by its destination
 * MAC), which VNIs we accept on decap, and our own underlay addresses.
 *
 * A table is immutable once built (tunnel_config.c builds it): workers read it under RCU and
 * the control thread replaces it as a whole, so no field ever changes under a reader.
 */
#ifndef TUNNEL_TABLE_H
#define TUNNEL_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#define TUN_VNI_MAX ((1u << 24) - 1)

/* An underlay address; IPv4 uses the first 4 bytes of a. */
struct tun_addr {
	uint8_t family; /* AF_INET or AF_INET6 */
	uint8_t a[16];
};

struct tun_entry {
	uint64_t mac; /* inner destination MAC, as a 48-bit number (first byte most significant) */
	uint32_t vni;
	struct tun_addr remote;
};

struct tun_table {
	bool has_local4, has_local6, has_default;
	struct tun_addr local4, local6;
	uint8_t nexthop_mac[6];
	struct tun_entry dflt;
	unsigned int nr_entries;
	struct tun_entry *entries; /* sorted by mac, unique */
	unsigned int nr_vnis;
	uint32_t *vnis; /* sorted, unique: every VNI of the table, accepted on decap */
};

static inline uint64_t tun_mac_key(const uint8_t *m)
{
	return (uint64_t)m[0] << 40 | (uint64_t)m[1] << 32 | (uint64_t)m[2] << 24 |
	       (uint64_t)m[3] << 16 | (uint64_t)m[4] << 8 | m[5];
}

/* The tunnel for inner destination MAC @key: its entry, else the default, else NULL. */
static inline const struct tun_entry *tun_table__lookup(const struct tun_table *t, uint64_t key)
{
	unsigned int lo = 0, hi = t->nr_entries;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		uint64_t k = t->entries[mid].mac;

		if (k == key)
			return &t->entries[mid];
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->has_default ? &t->dflt : NULL;
}

static inline bool tun_table__has_vni(const struct tun_table *t, uint32_t vni)
{
	unsigned int lo = 0, hi = t->nr_vnis;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (t->vnis[mid] == vni)
			return true;
		if (t->vnis[mid] < vni)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Free a table (NULL is a no-op). Only once no reader can see it any more. */
void tun_table__free(struct tun_table *t);

#endif /* TUNNEL_TABLE_H */

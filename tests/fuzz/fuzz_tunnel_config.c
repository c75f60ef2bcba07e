// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the tunnel config parser (apps/tunnel_config.c), on the input as a file.
 *  - a failed parse gives "NAME:LINE: reason" or "NAME: reason", a line within the file.
 *  - a table it gives is whole and valid, as the workers assume: a local address, a next hop,
 *    entries sorted by MAC with no duplicate, every VNI in range, every remote of a family
 *    with a local of that family and a unicast address; the VNI list sorted, unique and exactly
 *    the VNIs of the entries and the default; each entry found by its MAC and its VNI.
 *  - "line longer than" only for a line that is; the same input parsed again gives the same
 *    table.
 */
#include <string.h>
#include <sys/socket.h>

#include "tunnel_config.h"

#include "fuzz.h"

#define NAME "fuzz.conf"

static struct tun_table *parse(const uint8_t *data, size_t size, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct tun_table *t;

	FUZZ_ASSERT(f, "fmemopen of %zu bytes", size);
	t = tun_config__parse(f, NAME, err, errlen);
	fclose(f);
	return t;
}

/* Bytes of line @n (1-based) of the input, without its newline. */
static size_t line_len(const uint8_t *data, size_t size, unsigned int n)
{
	size_t i = 0, start;

	for (; n > 1 && i < size; i++)
		n -= data[i] == '\n';
	for (start = i; i < size && data[i] != '\n'; i++)
		;
	return i - start;
}

static bool unicast(const struct tun_addr *a)
{
	static const uint8_t zero[16], one[16] = {[15] = 1};

	if (a->family == AF_INET)
		return a->a[0] && a->a[0] != 127 && a->a[0] < 224;
	return a->family == AF_INET6 && memcmp(a->a, zero, 16) && memcmp(a->a, one, 16) &&
	       a->a[0] != 0xff;
}

static bool has_local(const struct tun_table *t, const struct tun_addr *a)
{
	return a->family == AF_INET ? t->has_local4 : t->has_local6;
}

static bool vni_listed(const struct tun_table *t, uint32_t vni)
{
	unsigned int i;

	for (i = 0; i < t->nr_entries; i++)
		if (t->entries[i].vni == vni)
			return true;
	return t->has_default && t->dflt.vni == vni;
}

static void check_table(const struct tun_table *t)
{
	unsigned int i;

	FUZZ_ASSERT(t->has_local4 || t->has_local6, "no local address");
	if (t->has_local4)
		FUZZ_ASSERT(t->local4.family == AF_INET && unicast(&t->local4), "local4");
	if (t->has_local6)
		FUZZ_ASSERT(t->local6.family == AF_INET6 && unicast(&t->local6), "local6");
	FUZZ_ASSERT(!t->nr_entries || t->entries, "%u entries, no array", t->nr_entries);
	for (i = 0; i < t->nr_entries; i++) {
		const struct tun_entry *e = &t->entries[i];

		FUZZ_ASSERT(!i || t->entries[i - 1].mac < e->mac, "entries not sorted/unique at %u",
			    i);
		FUZZ_ASSERT(e->mac < 1ull << 48, "MAC key %#llx", (unsigned long long)e->mac);
		FUZZ_ASSERT(e->vni <= TUN_VNI_MAX, "VNI %u", e->vni);
		FUZZ_ASSERT(unicast(&e->remote) && has_local(t, &e->remote),
			    "entry %u: remote family %u", i, e->remote.family);
		FUZZ_ASSERT(tun_table__lookup(t, e->mac) == e, "entry %u not found by its MAC", i);
		FUZZ_ASSERT(tun_table__has_vni(t, e->vni), "VNI %u of entry %u not accepted",
			    e->vni, i);
	}
	if (t->has_default) {
		FUZZ_ASSERT(t->dflt.vni <= TUN_VNI_MAX && unicast(&t->dflt.remote) &&
				has_local(t, &t->dflt.remote),
			    "default VNI %u family %u", t->dflt.vni, t->dflt.remote.family);
		FUZZ_ASSERT(tun_table__has_vni(t, t->dflt.vni), "default VNI not accepted");
	}
	/* a MAC that is no entry's (the keys are 48 bits): the default, or nothing */
	FUZZ_ASSERT(tun_table__lookup(t, 1ull << 48) == (t->has_default ? &t->dflt : NULL),
		    "lookup of an unknown MAC");
	FUZZ_ASSERT(t->nr_vnis <= t->nr_entries + 1 && (t->nr_vnis == 0 || t->vnis),
		    "%u VNIs for %u entries", t->nr_vnis, t->nr_entries);
	for (i = 0; i < t->nr_vnis; i++) {
		FUZZ_ASSERT(!i || t->vnis[i - 1] < t->vnis[i], "VNIs not sorted/unique at %u", i);
		FUZZ_ASSERT(vni_listed(t, t->vnis[i]), "VNI %u accepted but in no entry",
			    t->vnis[i]);
	}
	FUZZ_ASSERT(!tun_table__has_vni(t, TUN_VNI_MAX + 1), "a VNI out of range accepted");
}

static bool same_table(const struct tun_table *a, const struct tun_table *b)
{
	return a->has_local4 == b->has_local4 && a->has_local6 == b->has_local6 &&
	       a->has_default == b->has_default &&
	       !memcmp(&a->local4, &b->local4, sizeof(a->local4)) &&
	       !memcmp(&a->local6, &b->local6, sizeof(a->local6)) &&
	       !memcmp(a->nexthop_mac, b->nexthop_mac, 6) &&
	       (!a->has_default || !memcmp(&a->dflt, &b->dflt, sizeof(a->dflt))) &&
	       a->nr_entries == b->nr_entries &&
	       (!a->nr_entries ||
		!memcmp(a->entries, b->entries, a->nr_entries * sizeof(*a->entries))) &&
	       a->nr_vnis == b->nr_vnis &&
	       (!a->nr_vnis || !memcmp(a->vnis, b->vnis, a->nr_vnis * sizeof(*a->vnis)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], err2[256];
	struct tun_table *t, *t2;
	unsigned int line, lines = 1;
	size_t i;

	if (size > 64 * 1024)
		return 0;
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	memset(err, 0, sizeof(err));
	t = parse(data, size, err, sizeof(err));
	if (!t) {
		FUZZ_ASSERT(!strncmp(err, NAME ":", sizeof(NAME)) && strlen(err) > sizeof(NAME) + 1,
			    "error '%s'", err);
		if (err[sizeof(NAME)] != ' ') {
			FUZZ_ASSERT(sscanf(err + sizeof(NAME), "%u: ", &line) == 1 && line >= 1 &&
					line <= lines,
				    "error '%s': line out of the file (%u lines)", err, lines);
			if (strstr(err, ": line longer than "))
				FUZZ_ASSERT(line_len(data, size, line) > 1022,
					    "'%s' but line %u is %zu bytes", err, line,
					    line_len(data, size, line));
		}
		/* a short error buffer: cut, still terminated */
		FUZZ_ASSERT(!parse(data, size, err2, 8) && strlen(err2) == 7 &&
				!strncmp(err, err2, 7),
			    "short error buffer: '%s'", err2);
		return 0;
	}
	check_table(t);
	t2 = parse(data, size, err2, sizeof(err2));
	FUZZ_ASSERT(t2 && same_table(t, t2), "a second parse gives another table");
	tun_table__free(t2);
	tun_table__free(t);
	return 0;
}

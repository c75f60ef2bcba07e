// SPDX-License-Identifier: BSD-2-Clause
/*
 * Parse the tunnel config file into a struct tun_table. Everything is checked here, at load,
 * so that a table the workers see is always whole and valid: a bad file leaves the running
 * table in place (the caller only swaps on success).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <xskf.h>

#include "tunnel_config.h"

#define MAX_TOKENS 8
#define MAX_LINE   1022 /* bytes, without the newline */

struct parser {
	const char *path;
	unsigned int line;
	char *err;
	size_t errlen;
	struct tun_table *t;
	unsigned int cap;
	unsigned int *entry_lines; /* line of each entry, for errors found after the whole file */
	unsigned int default_line;
	bool has_nexthop;
};

static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (line)
		n = (size_t)snprintf(p->err, p->errlen, "%s:%u: ", p->path, line);
	else
		n = (size_t)snprintf(p->err, p->errlen, "%s: ", p->path);
	if (n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

void tun_table__free(struct tun_table *t)
{
	if (!t)
		return;
	free(t->entries);
	free(t->vnis);
	free(t);
}

static int parse_vni(struct parser *p, const char *s, uint32_t *vni)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return fail(p, p->line, "VNI '%s' is not a number", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return fail(p, p->line, "VNI '%s' is not a number", s);
	if (errno || v > TUN_VNI_MAX)
		return fail(p, p->line, "VNI %s out of range (0..%u)", s, TUN_VNI_MAX);
	*vni = (uint32_t)v;
	return 0;
}

/*
 * A unicast address a VTEP can have: not unspecified, multicast, broadcast or loopback (the
 * kernel would not send such a packet anywhere useful, so it is a typo in the file).
 */
static int parse_addr(struct parser *p, const char *s, struct tun_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1) {
		a->family = AF_INET;
		if (a->a[0] == 0 || a->a[0] == 127 || a->a[0] >= 224)
			return fail(p, p->line, "address %s out of range (not unicast)", s);
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->a) == 1) {
		static const uint8_t zero[16], one[16] = { [15] = 1 };

		a->family = AF_INET6;
		if (!memcmp(a->a, zero, 16) || !memcmp(a->a, one, 16) || a->a[0] == 0xff)
			return fail(p, p->line, "address %s out of range (not unicast)", s);
		return 0;
	}
	return fail(p, p->line, "'%s' is not an IPv4 or IPv6 address", s);
}

static int add_entry(struct parser *p, const struct tun_entry *e)
{
	struct tun_table *t = p->t;

	if (t->nr_entries == p->cap) {
		unsigned int cap = p->cap ? 2 * p->cap : 16;
		void *ne = realloc(t->entries, cap * sizeof(*t->entries));
		void *nl = ne ? realloc(p->entry_lines, cap * sizeof(*p->entry_lines)) : NULL;

		if (ne)
			t->entries = ne;
		if (!ne || !nl)
			return fail(p, p->line, "out of memory");
		p->entry_lines = nl;
		p->cap = cap;
	}
	p->entry_lines[t->nr_entries] = p->line;
	t->entries[t->nr_entries++] = *e;
	return 0;
}

/* One line, already split into @n tokens. */
static int parse_line(struct parser *p, char **tok, unsigned int n)
{
	struct tun_table *t = p->t;
	struct tun_entry e = { 0 };
	uint8_t mac[6];

	if (!strcmp(tok[0], "local")) {
		struct tun_addr a;

		if (n != 2)
			return fail(p, p->line, "expected 'local ADDRESS'");
		if (parse_addr(p, tok[1], &a))
			return -EINVAL;
		if (a.family == AF_INET ? t->has_local4 : t->has_local6)
			return fail(p, p->line, "second 'local' address of the same family");
		if (a.family == AF_INET) {
			t->local4 = a;
			t->has_local4 = true;
		} else {
			t->local6 = a;
			t->has_local6 = true;
		}
		return 0;
	}
	if (!strcmp(tok[0], "nexthop-mac")) {
		if (n != 2 || xskf_mac__parse(tok[1], t->nexthop_mac))
			return fail(p, p->line, "expected 'nexthop-mac XX:XX:XX:XX:XX:XX'");
		p->has_nexthop = true;
		return 0;
	}
	if (!strcmp(tok[0], "vni")) {
		if (n != 6 || strcmp(tok[2], "remote") || strcmp(tok[4], "mac"))
			return fail(p, p->line, "expected 'vni N remote ADDRESS mac MAC'");
		if (parse_vni(p, tok[1], &e.vni) || parse_addr(p, tok[3], &e.remote))
			return -EINVAL;
		if (xskf_mac__parse(tok[5], mac))
			return fail(p, p->line, "'%s' is not a MAC address", tok[5]);
		e.mac = tun_mac_key(mac);
		return add_entry(p, &e);
	}
	if (!strcmp(tok[0], "default")) {
		if (n != 5 || strcmp(tok[1], "vni") || strcmp(tok[3], "remote"))
			return fail(p, p->line, "expected 'default vni N remote ADDRESS'");
		if (t->has_default)
			return fail(p, p->line, "second 'default' (first on line %u)",
				    p->default_line);
		if (parse_vni(p, tok[2], &t->dflt.vni) || parse_addr(p, tok[4], &t->dflt.remote))
			return -EINVAL;
		t->has_default = true;
		p->default_line = p->line;
		return 0;
	}
	return fail(p, p->line, "unknown keyword '%s'", tok[0]);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tun_entry *x = a, *y = b;

	return x->mac < y->mac ? -1 : x->mac > y->mac;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_local(const struct tun_table *t, const struct tun_addr *a)
{
	return a->family == AF_INET ? t->has_local4 : t->has_local6;
}

/* Checks that need the whole file, then the sorted arrays the workers search. */
static int finish(struct parser *p)
{
	struct tun_table *t = p->t;
	unsigned int i, j;

	if (!t->has_local4 && !t->has_local6)
		return fail(p, 0, "no 'local' address");
	if (!p->has_nexthop)
		return fail(p, 0, "no 'nexthop-mac'");
	if (t->has_default && !has_local(t, &t->dflt.remote))
		return fail(p, p->default_line, "remote is IPv%c but there is no such 'local'",
			    t->dflt.remote.family == AF_INET ? '4' : '6');
	for (i = 0; i < t->nr_entries; i++)
		if (!has_local(t, &t->entries[i].remote))
			return fail(p, p->entry_lines[i],
				    "remote is IPv%c but there is no such 'local'",
				    t->entries[i].remote.family == AF_INET ? '4' : '6');
	/* duplicates: find them by MAC before sorting loses the line numbers */
	for (i = 0; i < t->nr_entries; i++)
		for (j = 0; j < i; j++)
			if (t->entries[i].mac == t->entries[j].mac)
				return fail(p, p->entry_lines[i], "MAC already on line %u",
					    p->entry_lines[j]);
	if (t->nr_entries)
		qsort(t->entries, t->nr_entries, sizeof(*t->entries), cmp_entry);

	t->vnis = calloc(t->nr_entries + 1, sizeof(*t->vnis));
	if (!t->vnis)
		return fail(p, 0, "out of memory");
	for (i = 0; i < t->nr_entries; i++)
		t->vnis[t->nr_vnis++] = t->entries[i].vni;
	if (t->has_default)
		t->vnis[t->nr_vnis++] = t->dflt.vni;
	qsort(t->vnis, t->nr_vnis, sizeof(*t->vnis), cmp_u32);
	for (i = j = 0; i < t->nr_vnis; i++)
		if (!j || t->vnis[j - 1] != t->vnis[i])
			t->vnis[j++] = t->vnis[i];
	t->nr_vnis = j;
	return 0;
}

struct tun_table *tun_config__parse(FILE *f, const char *name, char *err, size_t errlen)
{
	struct parser p = { .path = name, .err = err, .errlen = errlen };
	char *buf = NULL, *tok[MAX_TOKENS + 1], *save, *s;
	size_t cap = 0, words;
	ssize_t len;
	unsigned int n;
	int ret = 0;

	p.t = calloc(1, sizeof(*p.t));
	if (!p.t) {
		fail(&p, 0, "out of memory");
		return NULL;
	}
	/* getline(), not fgets(): the line's length is known, so a NUL byte cannot hide its end */
	while (!ret && (len = getline(&buf, &cap, f)) > 0) {
		p.line++;
		words = (size_t)len - (buf[len - 1] == '\n');
		if (memchr(buf, 0, words)) {
			ret = fail(&p, p.line, "NUL byte in the line");
			break;
		}
		if (words > MAX_LINE) {
			ret = fail(&p, p.line, "line longer than %d bytes", MAX_LINE);
			break;
		}
		s = strchr(buf, '#');
		if (s)
			*s = '\0';
		n = 0;
		for (s = strtok_r(buf, " \t\r\n", &save); s && n <= MAX_TOKENS;
		     s = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = s;
		if (n > MAX_TOKENS)
			ret = fail(&p, p.line, "too many words");
		else if (n)
			ret = parse_line(&p, tok, n);
	}
	if (!ret && ferror(f))
		ret = fail(&p, p.line, "read error");
	free(buf);
	if (!ret)
		ret = finish(&p);
	free(p.entry_lines);
	if (ret) {
		tun_table__free(p.t);
		return NULL;
	}
	return p.t;
}

struct tun_table *tun_config__load(const char *path, char *err, size_t errlen)
{
	struct parser p = { .path = path, .err = err, .errlen = errlen };
	struct tun_table *t;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fail(&p, 0, "%s", strerror(errno));
		return NULL;
	}
	t = tun_config__parse(f, path, err, errlen);
	fclose(f);
	return t;
}

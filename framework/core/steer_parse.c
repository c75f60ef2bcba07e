// SPDX-License-Identifier: BSD-2-Clause
/*
 * The steering rule language (docs/steering.md): words separated by spaces, match fields in
 * any order, the action last.
 *
 *   RULE   := FIELD... ACTION | "default" ACTION
 *   FIELD  := queue N | vlan N | arp | ip | ip6 | ethertype N | src PREFIX | dst PREFIX
 *           | proto (tcp|udp|icmp|icmp6|sctp|N) | tcp | udp | icmp | icmp6 | sctp
 *           | sport P[-P] | dport P[-P]
 *   ACTION := xsk | pass | drop | cpumap CPULIST
 *
 * Every field at most once; a rule must be consistent (no ports on ICMP, no IPv6 prefix on
 * 'ip', ...): a rule that can never match is an error, not a silent dead rule. Pure C with no
 * system call: fuzzed by tests/fuzz/fuzz_steer.c.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/steer.h"

#define MAX_WORDS 24
#define MAX_WORD  64

struct pctx {
	const char *text;
	char *err;
	size_t err_len;
};

__attribute__((format(printf, 2, 3))) static int fail(struct pctx *p, const char *fmt, ...)
{
	char msg[256], text[81];
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the rule as given, but one line of printable bytes: a newline in it must not make
	 * the error two lines (the control socket's answer, a terminal) */
	for (i = 0; i < sizeof(text) - 1 && p->text[i]; i++)
		text[i] = (unsigned char)p->text[i] < 0x20 || (unsigned char)p->text[i] > 0x7e
			      ? '?'
			      : p->text[i];
	text[i] = 0;
	for (i = 0; msg[i]; i++)
		if ((unsigned char)msg[i] < 0x20 || (unsigned char)msg[i] > 0x7e)
			msg[i] = '?';
	if (p->err && p->err_len)
		snprintf(p->err, p->err_len, "steer rule '%s%s': %s", text,
			 strlen(p->text) > 80 ? "..." : "", msg);
	return -EINVAL;
}

/*
 * A number of the rule: decimal, whatever its leading zeros ("053" is 53, as an operator
 * writing ports means; strtoul's base 0 made it octal 43, and "08" an error). Hexadecimal only
 * where docs/steering.md says so: the EtherType, with 0x (@hex).
 */
static int num_base(const char *s, unsigned long max, unsigned long *out, bool hex)
{
	int base = 10;
	char *end;

	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	/* strtoul() would skip spaces and take a sign */
	if (base == 10 ? !isdigit((unsigned char)*s) : !isxdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtoul(s, &end, base);
	if (errno || *end || *out > max)
		return -1;
	return 0;
}

static int num(const char *s, unsigned long max, unsigned long *out)
{
	return num_base(s, max, out, false);
}

static const struct {
	const char *name;
	uint32_t proto;
} protos[] = {{"tcp", 6}, {"udp", 17}, {"icmp", 1}, {"icmp6", 58}, {"sctp", 132}};

static int proto_by_name(const char *w)
{
	size_t i;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (!strcmp(w, protos[i].name))
			return (int)protos[i].proto;
	return -1;
}

static int prefix(struct pctx *p, const char *field, const char *w, uint8_t *fam, uint8_t *len,
		  uint8_t addr[16])
{
	char a[MAX_WORD];
	const char *slash = strchr(w, '/');
	unsigned long l;
	unsigned int bits, i;

	snprintf(a, sizeof(a), "%.*s", (int)(slash ? (size_t)(slash - w) : strlen(w)), w);
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, a, addr) == 1)
		*fam = 4;
	else if (inet_pton(AF_INET6, a, addr) == 1)
		*fam = 6;
	else
		return fail(p,
			    "%s '%s' is not an IPv4 or IPv6 address: use 192.0.2.0/24 or "
			    "2001:db8::/32",
			    field, w);
	bits = *fam == 4 ? 32 : 128;
	l = bits;
	if (slash && num(slash + 1, bits, &l))
		return fail(p, "%s '%s': the prefix length must be 0 to %u for IPv%u", field, w,
			    bits, *fam);
	*len = (uint8_t)l;
	for (i = l; i < bits; i++)
		if (addr[i / 8] & (0x80 >> (i % 8))) {
			char m[INET6_ADDRSTRLEN];

			for (; i < bits; i++)
				addr[i / 8] &= (uint8_t) ~(0x80 >> (i % 8));
			inet_ntop(*fam == 4 ? AF_INET : AF_INET6, addr, m, sizeof(m));
			return fail(p, "%s '%s' has bits set past /%lu: did you mean %s/%lu?",
				    field, w, l, m, l);
		}
	return 0;
}

static int port_range(struct pctx *p, const char *field, const char *w, uint32_t *lo, uint32_t *hi)
{
	char a[MAX_WORD];
	const char *dash = strchr(w, '-');
	unsigned long x, y;

	snprintf(a, sizeof(a), "%.*s", (int)(dash ? (size_t)(dash - w) : strlen(w)), w);
	if (num(a, 65535, &x) || (dash && num(dash + 1, 65535, &y)))
		return fail(p, "%s '%s': use a port 0-65535 or a range like 1024-2047", field, w);
	if (!dash)
		y = x;
	if (x > y)
		return fail(p, "%s '%s': the range is backwards: write %lu-%lu", field, w, y, x);
	*lo = (uint32_t)x;
	*hi = (uint32_t)y;
	return 0;
}

static int cpu_list(struct pctx *p, const char *w, uint64_t *set)
{
	const char *s = w;

	*set = 0;
	while (*s) {
		char a[16];
		size_t n = strcspn(s, ",");
		const char *dash;
		unsigned long x, y;

		if (!n || n >= sizeof(a))
			goto bad;
		snprintf(a, sizeof(a), "%.*s", (int)n, s);
		dash = strchr(a, '-');
		if (dash) {
			a[dash - a] = 0;
			if (num(a, XSKF_STEER_MAX_CPUS - 1, &x) ||
			    num(dash + 1, XSKF_STEER_MAX_CPUS - 1, &y) || x > y)
				goto bad;
		} else {
			if (num(a, XSKF_STEER_MAX_CPUS - 1, &x))
				goto bad;
			y = x;
		}
		for (; x <= y; x++)
			*set |= 1ULL << x;
		s += n;
		if (*s == ',' && !*++s)
			goto bad;
	}
	if (*set)
		return 0;
bad:
	return fail(p, "cpumap '%s': use a CPU list like 1 or 0,2-3 (CPUs 0 to %d)", w,
		    XSKF_STEER_MAX_CPUS - 1);
}

static int action(struct pctx *p, char words[][MAX_WORD], int n, int i, struct xskf_steer_rule *r)
{
	const char *w = words[i];

	if (!strcmp(w, "xsk"))
		r->action = XSKF_STEER_ACT_XSK;
	else if (!strcmp(w, "pass"))
		r->action = XSKF_STEER_ACT_PASS;
	else if (!strcmp(w, "drop"))
		r->action = XSKF_STEER_ACT_DROP;
	else if (!strcmp(w, "cpumap")) {
		r->action = XSKF_STEER_ACT_CPUMAP;
		if (i + 1 >= n)
			return fail(p, "cpumap needs its CPUs: cpumap 1 or cpumap 0,2-3");
		if (cpu_list(p, words[i + 1], &r->cpus))
			return -EINVAL;
		i++;
	} else
		return -ENOENT;
	if (i + 1 < n)
		return fail(p,
			    "'%s' after the action: the action (xsk, pass, drop, cpumap CPUS) "
			    "comes last",
			    words[i + 1]);
	return 0;
}

#define HAS(r, d) ((r)->set & (1u << (d)))

static int twice(struct pctx *p, struct xskf_steer_rule *r, int dim, const char *w)
{
	if (HAS(r, dim))
		return fail(p, "'%s' given twice: a rule has each field once (write two rules)", w);
	r->set |= 1u << dim;
	return 0;
}

/* Fields that make each other impossible: say so instead of adding a rule that never matches. */
static int consistent(struct pctx *p, struct xskf_steer_rule *r)
{
	unsigned int fam = 0;

	if (HAS(r, XSKF_DIM_SRC) && HAS(r, XSKF_DIM_DST) && r->src_fam != r->dst_fam)
		return fail(p, "src is IPv%u and dst IPv%u: a frame has one family", r->src_fam,
			    r->dst_fam);
	if (HAS(r, XSKF_DIM_SRC))
		fam = r->src_fam;
	if (HAS(r, XSKF_DIM_DST))
		fam = r->dst_fam;
	if (HAS(r, XSKF_DIM_ETYPE)) {
		if (r->etype != 0x0800 && r->etype != 0x86dd &&
		    (fam || HAS(r, XSKF_DIM_PROTO) || HAS(r, XSKF_DIM_SPORT) ||
		     HAS(r, XSKF_DIM_DPORT)))
			return fail(p,
				    "ethertype 0x%04x is not IP: it has no addresses, protocol "
				    "or ports",
				    r->etype);
		if ((r->etype == 0x0800 && fam == 6) || (r->etype == 0x86dd && fam == 4))
			return fail(p, "'%s' with an IPv%u address: use one family",
				    r->etype == 0x0800 ? "ip" : "ip6", fam);
		if (r->etype == 0x0800 && fam == 0 && HAS(r, XSKF_DIM_PROTO) && r->proto == 58)
			fam = 4;
	}
	if (HAS(r, XSKF_DIM_PROTO) && r->proto == 58 && fam == 4)
		return fail(p, "icmp6 is IPv6: not with an IPv4 address or 'ip'");
	if (HAS(r, XSKF_DIM_PROTO) && r->proto == 1 && fam == 6)
		return fail(p, "icmp is IPv4: use icmp6 with IPv6");
	if ((HAS(r, XSKF_DIM_SPORT) || HAS(r, XSKF_DIM_DPORT)) && HAS(r, XSKF_DIM_PROTO) &&
	    r->proto != 6 && r->proto != 17 && r->proto != 132)
		return fail(p, "ports need tcp, udp or sctp (protocol %u has none)", r->proto);
	return 0;
}

/*
 * @text, printable ASCII only, into at most MAX_WORDS words split at spaces, up to a '#'
 * (the rest is a comment): how many, or -EINVAL said.
 */
static int split_words(struct pctx *p, const char *text, char words[MAX_WORDS][MAX_WORD])
{
	const char *s;
	int n = 0;

	for (s = text; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return fail(p, "a byte that is not printable ASCII (0x%02x)",
				    (unsigned char)*s);
	for (s = text; *s;) {
		size_t l;

		s += strspn(s, " ");
		if (!*s || *s == '#')
			break;
		l = strcspn(s, " ");
		if (n == MAX_WORDS)
			return fail(p, "more than %d words: a rule is a few fields and an action",
				    MAX_WORDS);
		if (l >= MAX_WORD)
			return fail(p, "the word '%.20s...' is too long", s);
		memcpy(words[n], s, l);
		words[n++][l] = 0;
		s += l;
	}
	return n;
}

/*
 * A field given by its name alone (a protocol: tcp, udp, ...; an ethertype: arp, ip, ip6):
 * 1 when @w is one, set in @r; 0 when it is not; -EINVAL said.
 */
static int bare_field(struct pctx *p, struct xskf_steer_rule *r, const char *w)
{
	int pr = proto_by_name(w);

	if (pr >= 0) {
		if (twice(p, r, XSKF_DIM_PROTO, w))
			return -EINVAL;
		r->proto = (uint32_t)pr;
		return 1;
	}
	if (!strcmp(w, "arp") || !strcmp(w, "ip") || !strcmp(w, "ip6")) {
		if (twice(p, r, XSKF_DIM_ETYPE, w))
			return -EINVAL;
		r->etype = w[0] == 'a' ? 0x0806 : w[2] ? 0x86dd : 0x0800;
		return 1;
	}
	return 0;
}

/* Is @w the name of a field that takes a value (the word after it)? */
static bool valued_field(const char *w)
{
	return !strcmp(w, "queue") || !strcmp(w, "vlan") || !strcmp(w, "ethertype") ||
	       !strcmp(w, "src") || !strcmp(w, "dst") || !strcmp(w, "proto") ||
	       !strcmp(w, "sport") || !strcmp(w, "dport");
}

/* The field @w (valued_field()) with its value @arg into @r: 0, or -EINVAL said. */
static int field_value(struct pctx *p, struct xskf_steer_rule *r, const char *w, const char *arg)
{
	unsigned long v;
	int pr;

	if (!strcmp(w, "queue")) {
		if (twice(p, r, XSKF_DIM_QUEUE, w))
			return -EINVAL;
		if (num(arg, XSKF_STEER_MAX_QUEUES - 1, &v))
			return fail(p, "queue '%s': use a queue id 0 to %d", arg,
				    XSKF_STEER_MAX_QUEUES - 1);
		r->queue = (uint32_t)v;
	} else if (!strcmp(w, "vlan")) {
		if (twice(p, r, XSKF_DIM_VLAN, w))
			return -EINVAL;
		if (num(arg, 4095, &v))
			return fail(p, "vlan '%s': use a VLAN id 0 to 4095", arg);
		r->vlan = (uint32_t)v;
	} else if (!strcmp(w, "ethertype")) {
		if (twice(p, r, XSKF_DIM_ETYPE, w))
			return -EINVAL;
		if (num_base(arg, 0xffff, &v, true) || v < 0x0600)
			return fail(p, "ethertype '%s': use 0x0600 to 0xffff, e.g. 0x88cc", arg);
		r->etype = (uint32_t)v;
	} else if (!strcmp(w, "src")) {
		if (twice(p, r, XSKF_DIM_SRC, w) ||
		    prefix(p, w, arg, &r->src_fam, &r->src_len, r->src))
			return -EINVAL;
	} else if (!strcmp(w, "dst")) {
		if (twice(p, r, XSKF_DIM_DST, w) ||
		    prefix(p, w, arg, &r->dst_fam, &r->dst_len, r->dst))
			return -EINVAL;
	} else if (!strcmp(w, "proto")) {
		if (twice(p, r, XSKF_DIM_PROTO, w))
			return -EINVAL;
		pr = proto_by_name(arg);
		if (pr < 0 && num(arg, 255, &v))
			return fail(p, "proto '%s': use tcp, udp, icmp, icmp6, sctp or 0-255", arg);
		r->proto = pr >= 0 ? (uint32_t)pr : (uint32_t)v;
	} else if (!strcmp(w, "sport")) {
		if (twice(p, r, XSKF_DIM_SPORT, w) ||
		    port_range(p, w, arg, &r->sport_lo, &r->sport_hi))
			return -EINVAL;
	} else {
		if (twice(p, r, XSKF_DIM_DPORT, w) ||
		    port_range(p, w, arg, &r->dport_lo, &r->dport_hi))
			return -EINVAL;
	}
	return 0;
}

/* "default ACTION": the action of frames no rule matches. 0, or -EINVAL said. */
static int parse_default(struct pctx *p, char words[MAX_WORDS][MAX_WORD], int n,
			 struct xskf_steer_rule *r)
{
	int e;

	r->is_default = true;
	if (n < 2)
		return fail(p, "default needs an action: xsk, pass, drop or cpumap CPUS");
	e = action(p, words, n, 1, r);
	if (e == -ENOENT)
		return fail(p, "unknown action '%s': use xsk, pass, drop or cpumap CPUS", words[1]);
	return e;
}

int xskf_steer__parse(const char *text, struct xskf_steer_rule *r, char *err, size_t err_len)
{
	struct pctx p = {.text = text ? text : "", .err = err, .err_len = err_len};
	char words[MAX_WORDS][MAX_WORD];
	int n, i, e;

	memset(r, 0, sizeof(*r));
	if (err && err_len)
		err[0] = 0;
	if (!text)
		return fail(&p, "empty");
	n = split_words(&p, text, words);
	if (n < 0)
		return n;
	if (!n)
		return fail(&p, "empty: a rule is fields and an action, e.g. 'udp dport 53 xsk'");
	if (!strcmp(words[0], "default"))
		return parse_default(&p, words, n, r);
	/* fields, each once, then the action: the last word */
	for (i = 0; i < n; i++) {
		const char *w = words[i], *arg = i + 1 < n ? words[i + 1] : NULL;

		e = action(&p, words, n, i, r);
		if (e != -ENOENT)
			return e ? e : consistent(&p, r);
		e = bare_field(&p, r, w);
		if (e < 0)
			return e;
		if (e)
			continue;
		if (!valued_field(w))
			return fail(&p,
				    "unknown word '%s': fields are queue, vlan, arp, ip, ip6, "
				    "ethertype, src, dst, proto (tcp, udp, ...), sport, dport; "
				    "actions xsk, pass, drop, cpumap CPUS",
				    w);
		if (!arg)
			return fail(&p, "'%s' needs a value", w);
		i++;
		e = field_value(&p, r, w, arg);
		if (e)
			return e;
	}
	return fail(&p, "no action at its end: end it with xsk, pass, drop or cpumap CPUS");
}

static const char *act_name(uint8_t a)
{
	switch (a) {
	case XSKF_STEER_ACT_XSK:
		return "xsk";
	case XSKF_STEER_ACT_PASS:
		return "pass";
	case XSKF_STEER_ACT_DROP:
		return "drop";
	default:
		return "cpumap";
	}
}

static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(off < len ? buf + off : NULL, off < len ? len - off : 0, fmt, ap);
	va_end(ap);
	return off + (w > 0 ? (size_t)w : 0);
}

static size_t put_prefix(char *buf, size_t len, size_t off, const char *name, uint8_t fam,
			 const uint8_t *a, uint8_t l)
{
	char s[INET6_ADDRSTRLEN];

	inet_ntop(fam == 4 ? AF_INET : AF_INET6, a, s, sizeof(s));
	return put(buf, len, off, "%s %s/%u ", name, s, l);
}

static size_t put_range(char *buf, size_t len, size_t off, const char *name, uint32_t lo,
			uint32_t hi)
{
	if (lo == hi)
		return put(buf, len, off, "%s %u ", name, lo);
	return put(buf, len, off, "%s %u-%u ", name, lo, hi);
}

int xskf_steer__format(const struct xskf_steer_rule *r, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	if (len)
		buf[0] = 0;
	if (r->is_default)
		off = put(buf, len, off, "default ");
	if (HAS(r, XSKF_DIM_QUEUE))
		off = put(buf, len, off, "queue %u ", r->queue);
	if (HAS(r, XSKF_DIM_VLAN))
		off = put(buf, len, off, "vlan %u ", r->vlan);
	if (HAS(r, XSKF_DIM_ETYPE)) {
		if (r->etype == 0x0806)
			off = put(buf, len, off, "arp ");
		else if (r->etype == 0x0800)
			off = put(buf, len, off, "ip ");
		else if (r->etype == 0x86dd)
			off = put(buf, len, off, "ip6 ");
		else
			off = put(buf, len, off, "ethertype 0x%04x ", r->etype);
	}
	if (HAS(r, XSKF_DIM_SRC))
		off = put_prefix(buf, len, off, "src", r->src_fam, r->src, r->src_len);
	if (HAS(r, XSKF_DIM_DST))
		off = put_prefix(buf, len, off, "dst", r->dst_fam, r->dst, r->dst_len);
	if (HAS(r, XSKF_DIM_PROTO)) {
		const char *name = NULL;
		size_t k;

		for (k = 0; k < sizeof(protos) / sizeof(protos[0]); k++)
			if (protos[k].proto == r->proto)
				name = protos[k].name;
		off = name ? put(buf, len, off, "%s ", name)
			   : put(buf, len, off, "proto %u ", r->proto);
	}
	if (HAS(r, XSKF_DIM_SPORT))
		off = put_range(buf, len, off, "sport", r->sport_lo, r->sport_hi);
	if (HAS(r, XSKF_DIM_DPORT))
		off = put_range(buf, len, off, "dport", r->dport_lo, r->dport_hi);
	off = put(buf, len, off, "%s", act_name(r->action));
	if (r->action == XSKF_STEER_ACT_CPUMAP) {
		const char *sep = " ";

		for (i = 0; i < XSKF_STEER_MAX_CPUS; i++) {
			int j = i;

			if (!(r->cpus >> i & 1))
				continue;
			while (j + 1 < XSKF_STEER_MAX_CPUS && (r->cpus >> (j + 1) & 1))
				j++;
			off = j > i ? put(buf, len, off, "%s%d-%d", sep, i, j)
				    : put(buf, len, off, "%s%d", sep, i);
			sep = ",";
			i = j;
		}
	}
	return (int)off;
}

bool xskf_steer__same_match(const struct xskf_steer_rule *a, const struct xskf_steer_rule *b)
{
	if (a->set != b->set)
		return false;
	if ((HAS(a, XSKF_DIM_QUEUE) && a->queue != b->queue) ||
	    (HAS(a, XSKF_DIM_VLAN) && a->vlan != b->vlan) ||
	    (HAS(a, XSKF_DIM_ETYPE) && a->etype != b->etype) ||
	    (HAS(a, XSKF_DIM_PROTO) && a->proto != b->proto))
		return false;
	if (HAS(a, XSKF_DIM_SRC) &&
	    (a->src_fam != b->src_fam || a->src_len != b->src_len || memcmp(a->src, b->src, 16)))
		return false;
	if (HAS(a, XSKF_DIM_DST) &&
	    (a->dst_fam != b->dst_fam || a->dst_len != b->dst_len || memcmp(a->dst, b->dst, 16)))
		return false;
	if (HAS(a, XSKF_DIM_SPORT) && (a->sport_lo != b->sport_lo || a->sport_hi != b->sport_hi))
		return false;
	if (HAS(a, XSKF_DIM_DPORT) && (a->dport_lo != b->dport_lo || a->dport_hi != b->dport_hi))
		return false;
	return true;
}

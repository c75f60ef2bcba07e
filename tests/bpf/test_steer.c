// SPDX-License-Identifier: BSD-2-Clause
/*
 * Steering: the real rule table (framework/backend/xdp/steer/steer.c) in the real XDP program, run with
 * BPF_PROG_TEST_RUN. Which rule takes a frame is read from the rules' hit counters (no socket
 * is bound: an xsk verdict then falls back to the stack, and the counters still tell), drop
 * and cpumap from the program's return value. Root; 77 = skip.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "steer_port.h"
#include "xskf_prog.h"
#include "tap.h"

static struct xskf_port port;
static struct xskf_engine *eng;
static unsigned int next_id;
static uint64_t gone_hits; /* of the rules deleted: still frames the program saw */

static int run(unsigned int queue, const struct frame_spec *f)
{
	unsigned char pkt[128];
	unsigned int len = build_frame(pkt, f);
	struct xdp_md ctx = {.data_end = len, .rx_queue_index = queue};
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = len, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = 1);
	int err = bpf_prog_test_run_opts(
	    bpf_program__fd(xskf_xdp_port(&port)->skel->progs.xskf_redirect), &t);

	return err ? err : (int)t.retval;
}

static int add(const char *rule)
{
	char err[320];
	int ret = xskf_steer__add(eng, &port, rule, ++next_id, false, err, sizeof(err));

	if (ret)
		printf("# %s\n", err);
	return ret ? ret : (int)next_id;
}

static uint32_t slot_of(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < port.steer.n; i++)
		if (port.steer.e[i].id == id)
			return port.steer.e[i].slot;
	return UINT32_MAX;
}

static uint64_t hits(unsigned int id)
{
	return xskf_steer__hits(&port, slot_of(id));
}

static uint64_t def_hits(unsigned int q)
{
	return xskf_steer__hits(&port, XSKF_STEER_MAX_RULES + q);
}

/* The program's own count of frames given to the stack on queue @q (all CPUs). */
static uint64_t prog_passed(unsigned int q)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct xskf_prog_counters *v;
	uint64_t sum = 0;

	if (ncpu < 1 || !(v = calloc((size_t)ncpu, sizeof(*v))))
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(xskf_xdp_port(&port)->skel->maps.counters), &q, v))
		for (i = 0; i < ncpu; i++)
			sum += v[i].passed;
	free(v);
	return sum;
}

#define UDP4(sp, dp) ((struct frame_spec){.vlan = -1, .proto = 17, .sport = (sp), .dport = (dp)})

/* seen = xsk + pass + cpumap + drop = every rule's hits and the default's, on queue @q */
static void accounting(unsigned int q, const char *when)
{
	struct xskf_steer_qstats s;
	uint64_t sum = def_hits(q) + gone_hits;
	unsigned int i;

	xskf_steer__qstats(&port, q, &s);
	for (i = 0; i < port.steer.n; i++)
		sum += xskf_steer__hits(&port, port.steer.e[i].slot);
	CHECK(s.seen && s.seen == s.xsk + s.pass + s.cpumap + s.drop && s.seen == sum,
	      "%s: seen %llu = xsk %llu + pass %llu + cpumap %llu + drop %llu = hits %llu", when,
	      (unsigned long long)s.seen, (unsigned long long)s.xsk, (unsigned long long)s.pass,
	      (unsigned long long)s.cpumap, (unsigned long long)s.drop, (unsigned long long)sum);
}

static void test_order(void)
{
	struct frame_spec f;
	int r1, r2, r3, r4, r5, r6, r7;

	r1 = add("udp dport 53 xsk");
	r2 = add("src 198.51.100.0/24 drop");
	r3 = add("tcp dport 8000-8099 cpumap 0");
	r4 = add("vlan 7 drop");
	r5 = add("ip6 dst 2001:db8:1::/48 pass");
	r6 = add("arp pass");
	r7 = add("src 198.51.100.128/25 udp sport 1000-2000 pass");
	CHECK(r1 > 0 && r2 > 0 && r3 > 0 && r4 > 0 && r5 > 0 && r6 > 0 && r7 > 0,
	      "seven rules added before load");
	CHECK(xskf_steer__load(eng, &port) == 0, "table loaded");
	CHECK(port.steer.def.action == XSKF_STEER_ACT_PASS,
	      "default is pass: a rule sends frames to the app");

	f = UDP4(1, 53);
	f.src = "198.51.100.9";
	CHECK(run(0, &f) == XDP_PASS && hits(r1) == 1 && hits(r2) == 0,
	      "udp 53 from a dropped prefix: the first rule (xsk) takes it");
	f.dport = 54;
	CHECK(run(0, &f) == XDP_DROP && hits(r2) == 1, "udp 54 from 198.51.100.0/24: dropped");
	f.src = "198.51.100.200";
	f.sport = 1500;
	CHECK(run(0, &f) == XDP_DROP && hits(r2) == 2 && hits(r7) == 0,
	      "a longer prefix later in the list does not win over an earlier shorter one");
	f = (struct frame_spec){.vlan = -1, .proto = 6, .sport = 5, .dport = 8050};
	CHECK(run(0, &f) == XDP_REDIRECT && hits(r3) == 1, "tcp 8050: cpumap (redirect)");
	f.dport = 8100;
	CHECK(run(0, &f) == XDP_PASS && hits(r3) == 1 && def_hits(0) == 1,
	      "tcp 8100: past the range, the default");
	f.dport = 7999;
	CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 2,
	      "tcp 7999: before the range, the default");
	f = UDP4(1, 99);
	f.vlan = 7;
	CHECK(run(0, &f) == XDP_DROP && hits(r4) == 1, "vlan 7: dropped");
	f.vlan = 8;
	CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 3, "vlan 8: the default");
	f = (struct frame_spec){
	    .vlan = -1, .v6 = true, .proto = 17, .dport = 53, .dst = "2001:db8:1::5"};
	CHECK(run(0, &f) == XDP_PASS && hits(r1) == 2 && hits(r5) == 0,
	      "IPv6 udp 53: the first rule");
	f.dport = 99;
	CHECK(run(0, &f) == XDP_PASS && hits(r5) == 1, "IPv6 to 2001:db8:1::/48: its rule");
	f.dst = "2001:db8:2::5";
	CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 4, "IPv6 elsewhere: the default");
	f = (struct frame_spec){.vlan = -1, .etype = 0x0806};
	CHECK(run(0, &f) == XDP_PASS && hits(r6) == 1, "ARP: its rule");
	f = UDP4(1, 53);
	f.proto = 1; /* ICMP: no ports */
	CHECK(run(0, &f) == XDP_PASS && hits(r1) == 2 && def_hits(0) == 5,
	      "ICMP: no port rule takes it");
	accounting(0, "queue 0");
}

static void test_live(void)
{
	struct frame_spec f = UDP4(1, 54);
	uint32_t gen = port.steer.gen;
	uint64_t h;
	int r8, drop_id = 2;

	f.src = "198.51.100.9";
	r8 = add("udp dport 54 pass");
	CHECK(r8 > 0 && port.steer.gen != gen, "live add: the generation flipped");
	CHECK(run(0, &f) == XDP_DROP && hits(r8) == 0, "the earlier drop rule still wins");
	f.src = "192.0.2.9";
	CHECK(run(0, &f) == XDP_PASS && hits(r8) == 1, "the new rule takes udp 54 elsewhere");
	CHECK(xskf_steer__del(eng, &port, (unsigned int)drop_id, &h) == 0 && h == 3,
	      "live del of the drop rule, its final count 3 (got %llu)", (unsigned long long)h);
	gone_hits += h;
	f.src = "198.51.100.9";
	CHECK(run(0, &f) == XDP_PASS && hits(r8) == 2, "after del, the later rule takes it");
	CHECK(add("default drop") == (int)next_id && port.steer.def.action == XSKF_STEER_ACT_DROP,
	      "live default swap");
	f = UDP4(1, 7);
	CHECK(run(0, &f) == XDP_DROP, "the new default drops");
	accounting(0, "after live changes");
}

static void test_bad(void)
{
	uint32_t gen = port.steer.gen;
	char err[320];
	unsigned int n = port.steer.n;
	struct frame_spec f = UDP4(1, 54);

	CHECK(xskf_steer__add(eng, &port, "udp dport 54 drop", 99, false, err, sizeof(err)) ==
		      -EEXIST &&
		  strstr(err, "conflicts with rule"),
	      "conflicting rule refused: %s", err);
	CHECK(xskf_steer__add(eng, &port, "udp dport 54 pass", 99, false, err, sizeof(err)) ==
		      -EEXIST &&
		  strstr(err, "duplicates rule"),
	      "duplicate refused: %s", err);
	CHECK(xskf_steer__add(eng, &port, "queue 9 drop", 99, false, err, sizeof(err)) == -EINVAL,
	      "queue not bound refused: %s", err);
	CHECK(xskf_steer__add(eng, &port, "udp cpumap 63", 99, false, err, sizeof(err)) == -ENODEV,
	      "cpumap CPU that does not exist refused: %s", err);
	CHECK(port.steer.n == n && port.steer.gen == gen, "nothing changed");
	CHECK(run(0, &f) == XDP_PASS, "the table in use still says pass for udp 54");
}

/*
 * A full table: 1024 rules, the last one still found (its bit in the last word), and every
 * rule found by its own frame and counted in its own counter (each position's word and action
 * are kept where the de Bruijn index of its bits points: bpf/xskf_steer.h).
 */
static void test_full(void)
{
	struct frame_spec f = UDP4(1, 0);
	char rule[64], err[320];
	static int ids[XSKF_STEER_MAX_RULES];
	unsigned int i, own = 0;
	int last = 0;

	steer_port_close(eng, &port);
	gone_hits = 0;
	CHECK(steer_port_open(&eng, &port, 2) == 0, "a fresh program");
	for (i = 0; i < XSKF_STEER_MAX_RULES; i++) {
		snprintf(rule, sizeof(rule), "udp dport %u drop", 10000 + i);
		last = ids[i] = add(rule);
		if (last < 0)
			break;
	}
	CHECK(i == XSKF_STEER_MAX_RULES, "%u rules added", i);
	CHECK(xskf_steer__load(eng, &port) == 0, "loaded");
	CHECK(xskf_steer__add(eng, &port, "udp dport 9 drop", 99999, false, err, sizeof(err)) ==
		      -ENOSPC &&
		  strstr(err, "is full"),
	      "one more: %s", err);
	f.dport = 10000 + XSKF_STEER_MAX_RULES - 1;
	CHECK(run(0, &f) == XDP_DROP && hits((unsigned int)last) == 1, "the 1024th rule matches");
	f.dport = 10000 + XSKF_STEER_MAX_RULES;
	CHECK(run(0, &f) == XDP_PASS, "a port past them: the default (xsk, no socket: pass)");
	for (i = 0; i < XSKF_STEER_MAX_RULES; i++) {
		f.dport = 10000 + i;
		own += run(0, &f) == XDP_DROP &&
		       hits((unsigned int)ids[i]) == (i == XSKF_STEER_MAX_RULES - 1 ? 2u : 1u);
	}
	CHECK(own == XSKF_STEER_MAX_RULES, "each of the %u rules matches its own port, counted once",
	      own);
	accounting(0, "full table");
}

/*
 * The classifier's shortcuts (bpf/xskf_steer.bpf.h): a queue no rule applies to takes its
 * default unread; a frame whose first candidate word (every field's summary has it) holds no
 * rule that all fields allow goes on to the next word; a frame the arrays' fields already
 * rule out never reaches the LPM tries.
 */
static void test_shortcuts(void)
{
	struct frame_spec f = UDP4(1, 7000);
	char rule[64];
	int a, b, c, q1, i, n = 0;

	steer_port_close(eng, &port);
	gone_hits = 0;
	CHECK(steer_port_open(&eng, &port, 2) == 0, "a fresh program");
	/* word 0: dport 7000 allows only a, 203.0.113.5 only b; word 1: c allows both */
	a = add("src 10.0.0.0/8 udp dport 7000 drop");
	b = add("src 203.0.113.0/24 udp dport 7001 drop");
	for (i = 2; i < 64; i++) {
		snprintf(rule, sizeof(rule), "udp dport %d drop", 30000 + i);
		n += add(rule) > 0;
	}
	c = add("udp dport 7000 pass");
	CHECK(a > 0 && b > 0 && n == 62 && c > 0, "65 rules, the last in word 1");
	CHECK(xskf_steer__load(eng, &port) == 0, "loaded");
	f.src = "203.0.113.5";
	CHECK(run(0, &f) == XDP_PASS && hits(c) == 1 && hits(a) == 0 && hits(b) == 0,
	      "udp 7000 from 203.0.113.5: word 0 has neither a nor b for it, word 1's rule");
	f.src = "10.1.2.3";
	CHECK(run(0, &f) == XDP_DROP && hits(a) == 1 && hits(c) == 1, "from 10.1.2.3: rule a");
	f.dport = 7001;
	f.src = "203.0.113.5";
	CHECK(run(0, &f) == XDP_DROP && hits(b) == 1, "udp 7001 from 203.0.113.5: rule b");
	f.dport = 9;
	CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 1 && hits(c) == 1,
	      "udp 9: no rule's port, the default");
	accounting(0, "shortcuts");
	/* test runs are on queue 0 (another needs a device): a table only for queue 1 */
	steer_port_close(eng, &port);
	gone_hits = 0;
	CHECK(steer_port_open(&eng, &port, 2) == 0, "a fresh program");
	q1 = add("queue 1 udp drop");
	CHECK(q1 > 0 && xskf_steer__load(eng, &port) == 0, "'queue 1 udp drop' loaded");
	CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 1 && hits(q1) == 0,
	      "udp on queue 0: no rule for the queue, the default");
	accounting(0, "a queue without rules");
}

/*
 * Numbers with leading zeros are decimal (issue 32.4: strtoul's base 0 read "053" as octal 43
 * and refused "08"); hexadecimal only for the EtherType, with 0x. Each rule's frame goes
 * through the program.
 */
static void test_decimal(void)
{
	struct frame_spec f = UDP4(1, 53);
	struct xskf_steer_rule r;
	char err[320], text[XSKF_STEER_TEXT];
	int d53, v10, tr, d8, e1, e2;

	steer_port_close(eng, &port);
	gone_hits = 0;
	CHECK(steer_port_open(&eng, &port, 2) == 0, "a fresh program");
	d53 = add("udp dport 053 drop");
	v10 = add("vlan 010 pass");
	tr = add("tcp dport 0100-0200 drop");
	d8 = add("udp dport 08 drop");
	e1 = add("ethertype 35020 drop");
	e2 = add("ethertype 0x88cd drop");
	CHECK(d53 > 0 && v10 > 0 && tr > 0 && d8 > 0 && e1 > 0 && e2 > 0,
	      "dport 053, vlan 010, dport 0100-0200, dport 08, ethertype 35020 and 0x88cd taken");
	CHECK(xskf_steer__load(eng, &port) == 0, "loaded");
	CHECK(run(0, &f) == XDP_DROP && hits(d53) == 1, "udp 53: 'dport 053' (not port 43)");
	f.dport = 43;
	CHECK(run(0, &f) == XDP_PASS && hits(d53) == 1 && def_hits(0) == 1, "udp 43: the default");
	f.dport = 8;
	CHECK(run(0, &f) == XDP_DROP && hits(d8) == 1, "udp 8: 'dport 08'");
	f = (struct frame_spec){.vlan = -1, .proto = 6, .sport = 1, .dport = 150};
	CHECK(run(0, &f) == XDP_DROP && hits(tr) == 1, "tcp 150: 'dport 0100-0200' is 100-200");
	f.dport = 64;
	CHECK(run(0, &f) == XDP_PASS && hits(tr) == 1, "tcp 64: not in it (octal 0100 was 64)");
	f = UDP4(1, 9);
	f.vlan = 10;
	CHECK(run(0, &f) == XDP_PASS && hits(v10) == 1, "vlan 10: 'vlan 010'");
	f = (struct frame_spec){.vlan = -1, .etype = 0x88cc};
	CHECK(run(0, &f) == XDP_DROP && hits(e1) == 1, "ethertype 0x88cc: 'ethertype 35020'");
	f.etype = 0x88cd;
	CHECK(run(0, &f) == XDP_DROP && hits(e2) == 1, "ethertype 0x88cd: 'ethertype 0x88cd'");
	accounting(0, "decimal numbers");
	CHECK(xskf_steer__parse("udp dport 0x35 drop", &r, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "use a port 0-65535"),
	      "a port in hex refused: %s", err);
	CHECK(xskf_steer__parse("vlan 0x10 drop", &r, err, sizeof(err)) == -EINVAL,
	      "a VLAN in hex refused: %s", err);
	CHECK(xskf_steer__parse("proto 017 drop", &r, err, sizeof(err)) == 0 && r.proto == 17,
	      "proto 017 is 17");
	CHECK(xskf_steer__parse("udp dport 010 xsk", &r, err, sizeof(err)) == 0 &&
		  xskf_steer__format(&r, text, sizeof(text)) >= 0 &&
		  !strcmp(text, "udp dport 10 xsk"),
	      "its canonical text: '%s'", text);
}

int main(void)
{
	if (geteuid()) {
		printf("1..0 # SKIP needs root\n");
		return 77;
	}
	CHECK(steer_port_open(&eng, &port, 2) == 0, "program loaded");
	if (!xskf_xdp_port(&port)->skel)
		return tap_done();
	CHECK(xskf_steer__load(eng, &port) == 0, "empty table loaded");
	{
		struct frame_spec f = UDP4(1, 53);
		struct xskf_steer_qstats s;
		char err[320];

		/* a feature that is off costs nothing: not even its counters (docs/steering.md) */
		CHECK(run(0, &f) == XDP_PASS && prog_passed(0) == 1,
		      "no rule: the frame to its socket (none bound: the stack), counted by the "
		      "program");
		xskf_steer__qstats(&port, 0, &s);
		CHECK(def_hits(0) == 0 && s.seen == 0,
		      "no rule, default xsk: the table is off, no steering counter moves (seen "
		      "%llu, default hits %llu)",
		      (unsigned long long)s.seen, (unsigned long long)def_hits(0));
		CHECK(xskf_steer__add(eng, &port, "default pass", 0, false, err, sizeof(err)) == 0,
		      "default pass added");
		CHECK(run(0, &f) == XDP_PASS && def_hits(0) == 1,
		      "no rule, default pass: the table steers, the default counts the frame");
		accounting(0, "no rule, default pass");
	}
	steer_port_close(eng, &port);
	CHECK(steer_port_open(&eng, &port, 2) == 0, "program loaded again");
	test_order();
	test_live();
	test_bad();
	test_full();
	test_shortcuts();
	test_decimal();
	steer_port_close(eng, &port);
	return tap_done();
}

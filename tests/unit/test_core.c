// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the framework's control path, no root needed: option checking, the command
 * line, CPU lists, and the frame cache that frame accounting rests on. TAP output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/cli.h"
#include "runner/report.h"
#include "backend/xdp/prog/features.h"
#include "backend/xdp/sock/napi.h"
#include "core/internal.h"

#include "tap.h"

static void nop_burst(void *w, struct xskf_pkt *p, unsigned int n)
{
	(void)w;
	(void)p;
	(void)n;
}

static const struct xskf_app app = { .name = "unit", .rx_burst = nop_burst };

static int quiet(enum xskf_log_level l, const char *f, va_list a)
{
	(void)l;
	(void)f;
	(void)a;
	return 0;
}

static void test_engine_opts(void)
{
	struct xskf_engine *e;
	struct {
		struct xskf_engine_opts o;
		char future[8];
	} big;

	XSKF_OPTS(xskf_engine_opts, o, .app = &app);
	e = xskf_engine__new(&o);
	CHECK(e != NULL, "defaults accepted");
	xskf_engine__destroy(e);

	o.rx_size = 1000;
	errno = 0;
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "ring size 1000 rejected with EINVAL");
	o.rx_size = 0;
	o.frame_size = 3000;
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "frame size 3000 rejected");
	o.frame_size = 4096;
	o.batch = XSKF_MAX_BATCH + 1;
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "batch 257 rejected");
	o.batch = 0;
	o.cpus = "0-";
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "CPU list '0-' rejected");
	o.cpus = NULL;
	o.app = NULL;
	CHECK(!xskf_engine__new(&o), "no app rejected");

	/* a newer caller's struct: unknown trailing bytes must be zero */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.app = &app;
	e = xskf_engine__new(&big.o);
	CHECK(e != NULL, "larger struct with zero tail accepted");
	xskf_engine__destroy(e);
	big.future[3] = 1;
	CHECK(!xskf_engine__new(&big.o) && errno == EINVAL, "larger struct with unknown option rejected");
	big.o.sz = 4;
	CHECK(!xskf_engine__new(&big.o), "sz smaller than size_t rejected");
}

static void test_cpus(void)
{
	int cpus[8];
	unsigned int n;

	CHECK(xskf_parse_cpus("0", cpus, 8, &n) == 0 && n == 1 && cpus[0] == 0, "'0'");
	CHECK(xskf_parse_cpus("0-1", cpus, 8, &n) == 0 && n == 2 && cpus[1] == 1, "'0-1'");
	CHECK(xskf_parse_cpus("1,0", cpus, 8, &n) == 0 && n == 2 && cpus[0] == 1, "'1,0'");
	CHECK(xskf_parse_cpus("", cpus, 8, &n) == -EINVAL, "empty list");
	CHECK(xskf_parse_cpus("1-0", cpus, 8, &n) == -EINVAL, "reversed range");
	CHECK(xskf_parse_cpus("a", cpus, 8, &n) == -EINVAL, "letters");
	CHECK(xskf_parse_cpus("0,,1", cpus, 8, &n) == -EINVAL, "empty element");
	CHECK(xskf_parse_cpus("100000", cpus, 8, &n) == -EINVAL, "CPU beyond the machine");
}

static void test_cli(void)
{
	struct xskf_cli c;
	char *ok_argv[] = { "t", "-i", "veth0", "-q", "0", "-q", "1", "-N", "-c", "-b", "32",
			    "--json", "--hugepages", "off", "-f", "4096", "--duration", "3", NULL };
	char *bad_batch[] = { "t", "-i", "x", "-b", "0", NULL };
	char *bad_huge[] = { "t", "-i", "x", "--hugepages", "maybe", NULL };
	char *extra[] = { "t", "-i", "x", "stray", NULL };

	memset(&c, 0, sizeof(c));
	CHECK(xskf_cli__parse(&c, NULL, NULL, 18, ok_argv) == 0, "full command line parses");
	CHECK(c.nr_ifaces == 1 && !strcmp(c.ifaces[0], "veth0"), "interface");
	CHECK(c.nr_queues == 2 && c.queues[1] == 1 && !c.all_queues, "two queues");
	CHECK(c.eo.attach_mode == XSKF_ATTACH_NATIVE && c.eo.bind_mode == XSKF_BIND_COPY, "modes");
	CHECK(c.eo.batch == 32 && c.json && c.duration == 3, "batch, json, duration");
	CHECK(c.eo.hugepages == XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF) && c.eo.frame_size == 4096,
	      "hugepages, frame size");
	memset(&c, 0, sizeof(c));
	CHECK(xskf_cli__parse(&c, NULL, NULL, 5, bad_batch) == -EINVAL, "batch 0 rejected");
	memset(&c, 0, sizeof(c));
	CHECK(xskf_cli__parse(&c, NULL, NULL, 5, bad_huge) == -EINVAL, "--hugepages maybe rejected");
	memset(&c, 0, sizeof(c));
	CHECK(xskf_cli__parse(&c, NULL, NULL, 4, extra) == -EINVAL, "stray argument rejected");
}

static void test_cache(void)
{
	struct xskf_umem um;
	uint64_t addrs[64];
	uint32_t n, i;
	bool aligned = true;

	struct xskf_umem_place pl = { .policy = XSKF_HUGEPAGES_OFF, .node = -1, .who = "unit" };

	CHECK(xskf_umem__alloc(&um, 256, 2048, &pl) == 0, "UMEM of 256 frames");
	CHECK(um.cache_len == 256 && !um.hugepages, "all frames start in the cache");
	n = xskf_cache_get(&um, addrs, 64);
	CHECK(n == 64 && um.cache_len == 192, "get 64: 192 left");
	for (i = 0; i < n; i++)
		aligned &= addrs[i] % 2048 == 0 && addrs[i] < 256 * 2048;
	CHECK(aligned, "frames are chunk-aligned and inside the UMEM");
	/* frames come back with any offset inside their chunk (RX headroom, pushed headers) */
	for (i = 0; i < n; i++)
		xskf_cache_put(&um, addrs[i] + 256 + 32 + i);
	CHECK(um.cache_len == 256, "all 64 returned");
	n = xskf_cache_get(&um, addrs, 64);
	aligned = true;
	for (i = 0; i < n; i++)
		aligned &= addrs[i] % 2048 == 0;
	CHECK(aligned, "returned frames are normalised to their chunk start");
	n = xskf_cache_get(&um, addrs, 64) + xskf_cache_get(&um, addrs, 64) +
	    xskf_cache_get(&um, addrs, 64) + xskf_cache_get(&um, addrs, 64);
	CHECK(n == 192 && um.cache_len == 0, "the cache empties exactly");
	CHECK(xskf_cache_get(&um, addrs, 64) == 0, "an empty cache gives nothing");
	xskf_umem__free(&um);
}

static void test_huge_sizes(void)
{
	uint64_t v = 0;
	char buf[32];

	CHECK(xskf_huge__parse_size("2M", &v) == 0 && v == 2u << 20, "2M is 2 MiB");
	CHECK(xskf_huge__parse_size("1G", &v) == 0 && v == 1u << 30, "1G is 1 GiB");
	CHECK(xskf_huge__parse_size("2048kB", &v) == 0 && v == 2u << 20, "2048kB is 2 MiB");
	CHECK(xskf_huge__parse_size("1gb", &v) == 0 && v == 1u << 30, "1gb is 1 GiB");
	CHECK(xskf_huge__parse_size("3M", &v) == -EINVAL, "3M (not a power of two) rejected");
	CHECK(xskf_huge__parse_size("0M", &v) == -EINVAL, "0M rejected");
	CHECK(xskf_huge__parse_size("2", &v) == -EINVAL, "no unit rejected");
	CHECK(xskf_huge__parse_size("-2M", &v) == -EINVAL, "negative rejected");
	CHECK(xskf_huge__parse_size("2MX", &v) == -EINVAL, "trailing bytes rejected");
	CHECK(!strcmp(xskf_huge__name(2u << 20, buf, sizeof(buf)), "2 MiB"), "2 MiB named");
	CHECK(!strcmp(xskf_huge__name(1016u << 20, buf, sizeof(buf)), "1016 MiB"), "1016 MiB named");
	CHECK(!strcmp(xskf_huge__short(1u << 30, buf, sizeof(buf)), "1G"), "1G short name");
}

static void test_huge_opts(void)
{
	struct xskf_engine *e;

	XSKF_OPTS(xskf_engine_opts, o, .app = &app, .hugepages = XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF),
		  .huge_page_size = 2u << 20);
	errno = 0;
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "--huge-size with hugepages off rejected");
	o.huge_page_size = 0;
	o.huge_dir = "/";
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "--huge-dir with hugepages off rejected");
	o.hugepages = XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_AUTO);
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "--huge-dir / (not hugetlbfs) rejected");
	o.huge_dir = NULL;
	o.huge_page_size = 3u << 20;
	CHECK(!xskf_engine__new(&o) && errno == EINVAL, "a page size the kernel lacks rejected");
	o.huge_page_size = 0;
	e = xskf_engine__new(&o);
	CHECK(e != NULL, "auto with the default page size accepted");
	xskf_engine__destroy(e);
}

static void test_mac_and_port_info(void)
{
	struct xskf_port_info pi = { .sz = sizeof(pi) };
	struct xskf_engine *e;
	uint8_t mac[6];
	int port;

	CHECK(xskf_mac__parse("02:00:0a:ff:00:01", mac) == 0 && mac[2] == 0x0a && mac[3] == 0xff,
	      "MAC parsed");
	CHECK(xskf_mac__parse("2:0:0:0:0:1", mac) == -EINVAL, "short groups rejected");
	CHECK(xskf_mac__parse("02:00:00:00:00:01:02", mac) == -EINVAL, "seven groups rejected");
	CHECK(xskf_mac__parse("02:00:00:00:00:zz", mac) == -EINVAL, "not hex rejected");
	CHECK(xskf_mac__parse(NULL, mac) == -EINVAL, "NULL rejected");

	XSKF_OPTS(xskf_engine_opts, o, .app = &app);
	e = xskf_engine__new(&o);
	port = xskf_engine__add_port(e, "lo", NULL, 0);
	CHECK(port == 0, "lo added as port 0 (no root needed before start)");
	CHECK(xskf_engine__add_port(e, "nosuchif0", NULL, 0) == -ENODEV, "unknown interface: ENODEV");
	CHECK(xskf_engine__port_info(e, 0, &pi) == 0 && pi.up && pi.mtu >= 1500 && pi.rx_queues >= 1,
	      "port info of lo: up, MTU %u, %u RX queue(s)", pi.mtu, pi.rx_queues);
	CHECK(xskf_engine__port_info(e, 1, &pi) == -ENOENT, "no port 1");
	pi.sz = 2;
	CHECK(xskf_engine__port_info(e, 0, &pi) == -EINVAL, "sz too small rejected");
	xskf_engine__destroy(e);
}

/* --napi: the one parser, and the choice of per NAPI or per device from what was probed */
static void test_napi(void)
{
	struct xskf_napi_req r;

	CHECK(!xskf_napi__parse("defer=2,gro-flush=200000", &r) && r.defer_set && r.defer == 2 &&
		      r.gro_set && r.gro_ns == 200000,
	      "--napi defer=2,gro-flush=200000");
	CHECK(!xskf_napi__parse("gro-flush=0", &r) && !r.defer_set && r.gro_set && !r.gro_ns,
	      "--napi gro-flush=0 alone");
	CHECK(!xskf_napi__parse("defer=2147483647", &r) && r.defer == 2147483647, "defer max");
	CHECK(xskf_napi__parse("defer=2147483648", &r) == -EINVAL, "defer above S32_MAX");
	CHECK(xskf_napi__parse("defer=abc", &r) == -EINVAL, "defer not a number");
	CHECK(xskf_napi__parse("defer=-1", &r) == -EINVAL, "defer negative");
	CHECK(xskf_napi__parse("defer=", &r) == -EINVAL, "defer empty");
	CHECK(xskf_napi__parse("gro-flush=1000000001", &r) == -EINVAL, "gro-flush above 1 s");
	CHECK(xskf_napi__parse("fast=1", &r) == -EINVAL, "unknown setting");
	CHECK(xskf_napi__parse("defer", &r) == -EINVAL, "no value");
	CHECK(xskf_napi__parse("", &r) == -EINVAL, "empty");
	CHECK(xskf_napi__parse(",", &r) == -EINVAL, "nothing set");
	CHECK(!xskf_napi__parse("irq-suspend=20000000", &r) && r.irq_set && r.irq_ns == 20000000 &&
		  !r.defer_set && !r.gro_set,
	      "irq-suspend alone");
	CHECK(!xskf_napi__parse("defer=2,gro-flush=200000,irq-suspend=0", &r) && r.irq_set &&
		  !r.irq_ns && r.defer == 2 && r.gro_ns == 200000,
	      "all three, irq-suspend 0");
	CHECK(!xskf_napi__parse("irq-suspend=1000000000", &r) && r.irq_ns == 1000000000ull,
	      "irq-suspend max");
	CHECK(xskf_napi__parse("irq-suspend=1000000001", &r) == -EINVAL, "irq-suspend above 1 s");
	CHECK(xskf_napi__parse("irq-suspend=-5", &r) == -EINVAL, "irq-suspend negative");
	CHECK(xskf_napi__parse("irq-suspend", &r) == -EINVAL, "irq-suspend without a value");
	/* a kernel without napi-set (before 6.13) or netdev netlink: per device, said why */
	CHECK(strstr(xskf_napi__device_why(true, false, 5), "no napi-set (6.13+)") != NULL,
	      "no napi-set: per device");
	/* (or the family's row forced off, as the suite may run: said so) */
	CHECK(strstr(xskf_napi__device_why(false, false, 5),
		     xskf_features__forced_off("netdev_genl")
			 ? "netdev netlink family forced off by XSKF_FEATURES_OFF"
			 : "no netdev netlink") != NULL,
	      "no netdev family: per device");
	CHECK(strstr(xskf_napi__device_why(true, true, 0), "name no NAPI") != NULL,
	      "copy mode queue: per device");
	CHECK(xskf_napi__device_why(true, true, 5) == NULL, "zero-copy NAPI with napi-set: per NAPI");
}

int main(void)
{
	xskf_set_print(quiet);
	test_engine_opts();
	test_cpus();
	test_cli();
	test_cache();
	test_huge_sizes();
	test_huge_opts();
	test_mac_and_port_info();
	test_napi();
	return tap_done();
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * A plugin slower than the traffic on purpose (test_doctor.sh slow-app): it spends a set time on
 * each frame (--frame-us US, default 100), then drops it, so that the fill ring runs dry and
 * `xskfctl doctor` has a slow app to name.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <xskf_plugin.h>

static long frame_ns = 100000;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spin, not sleep: a worker that sleeps would look idle, and this one is busy. */
static void slow_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	uint64_t end = now_ns() + (uint64_t)frame_ns * n;

	(void)wctx;
	(void)pkts;
	while (now_ns() < end)
		;
}

static struct xskf_app slow_app = {
    .name = "slow",
    .flags = XSKF_APP_F_NO_TOUCH,
    .rx_burst = slow_burst,
};

static const struct xskf_cli_opt slow_opts[] = {
    {"frame-us", 1, "US", "time spent on each frame, 1 to 1000000 us (default 100)"},
    {NULL, 0, NULL, NULL},
};

static int slow_parse(void *ctx, int idx, const char *arg)
{
	char *end;
	long us = strtol(arg, &end, 10);

	(void)ctx;
	(void)idx;
	if (*end || us < 1 || us > 1000000)
		return -EINVAL;
	frame_ns = us * 1000;
	return 0;
}

static const struct xskf_app_cli slow_cli = {
    .sz = sizeof(slow_cli),
    .summary = "Spend a set time on each frame, then drop it (a test plugin: a slow app).",
    .opts = slow_opts,
    .parse = slow_parse,
};

XSKF_PLUGIN(.name = "slow", .app = &slow_app, .cli = &slow_cli);

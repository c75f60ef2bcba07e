// SPDX-License-Identifier: BSD-2-Clause
/*
 * A plugin whose command answers at length (test_plugins.sh reply): `xskfctl talker top N`
 * gives N lines of 60 characters, as a "top flows" command would. TALK_BUF answers through
 * command()'s buffer, else through command_out() (any length).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskf_plugin.h>

static void burst(void *wctx, struct xskf_pkt *pkts, unsigned int n)
{
	(void)wctx;
	(void)pkts;
	(void)n;
}

/* The line @i of the answer, 60 characters and no newline. */
static int line(char *b, size_t len, unsigned int i)
{
	return snprintf(b, len, "flow %5u 198.51.100.%-3u:%5u -> 192.0.2.%-3u:%5u pkts %5u", i,
			i % 250 + 1, 10000 + i, (i * 7) % 250 + 1, 20000 + i, 1000 - i % 1000);
}

/* "top N": N, 1 to 100000; else -EINVAL */
static long top_n(const char *args)
{
	char *end;
	long n;

	if (strncmp(args, "top ", 4))
		return -EINVAL;
	n = strtol(args + 4, &end, 10);
	return *end || n < 1 || n > 100000 ? -EINVAL : n;
}

#ifdef TALK_BUF
static int talk(void *ctx, const char *args, char *reply, size_t len)
{
	long n = top_n(args), i;
	size_t off = 0;

	(void)ctx;
	if (n < 0) {
		snprintf(reply, len, "expected 'top N'");
		return (int)n;
	}
	for (i = 0; i < n && off + 1 < len; i++) {
		off += (size_t)line(reply + off, len - off, (unsigned int)i);
		if (i + 1 < n && off + 1 < len)
			reply[off++] = '\n', reply[off] = 0;
	}
	return 0;
}
#else
static int talk(void *ctx, const char *args, void *out)
{
	long n = top_n(args), i;
	char b[80];

	(void)ctx;
	if (n < 0) {
		fprintf(out, "expected 'top N'");
		return (int)n;
	}
	for (i = 0; i < n; i++) {
		line(b, sizeof(b), (unsigned int)i);
		fprintf(out, "%s\n", b);
	}
	return 0;
}
#endif

static const struct xskf_app app = { .name = "talker", .rx_burst = burst };

#ifdef TALK_BUF
XSKF_PLUGIN(.name = "talker", .app = &app, .command = talk);
#else
XSKF_PLUGIN(.name = "talker", .app = &app, .command_out = talk);
#endif

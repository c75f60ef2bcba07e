// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket's request parser (framework/ctl_proto.c): every kind of request, and every
 * way one can be wrong (empty, oversized, NUL bytes, control bytes, two lines, non-ASCII, bad
 * plugin names, arguments where none are taken). Each buffer is exactly as long as the request
 * plus the one byte the parser may write, so that ASan catches a read or write beyond it.
 */
#include <stdlib.h>
#include <string.h>

#include "runner/ctl.h"

#include "tap.h"

static enum xskf_ctl_req parse(const char *req, size_t len, char *a0, char *a1)
{
	char *buf = malloc(len + 1), *p0, *p1;
	enum xskf_ctl_req r;

	memcpy(buf, req, len);
	r = xskf_ctl__parse(buf, len, &p0, &p1);
	a0[0] = a1[0] = 0;
	if (r != XSKF_CTL_BAD) {
		strcpy(a0, p0);
		strcpy(a1, p1);
	}
	free(buf);
	return r;
}

#define P(s) parse(s, sizeof(s) - 1, a0, a1)

int main(void)
{
	char a0[XSKF_CTL_MAX + 2], a1[XSKF_CTL_MAX + 2], *big;
	size_t i;

	CHECK(P("stats\n") == XSKF_CTL_STATS, "stats");
	CHECK(P("stats") == XSKF_CTL_STATS, "stats without a newline (the peer closed)");
	CHECK(P("stats\r\n") == XSKF_CTL_STATS, "stats with CRLF");
	CHECK(P("doctor\n") == XSKF_CTL_DOCTOR, "doctor");
	CHECK(P("doctor now\n") == XSKF_CTL_BAD, "doctor takes no argument");
	CHECK(P("plugins\n") == XSKF_CTL_PLUGINS, "plugins");
	CHECK(P("tunnel reload\n") == XSKF_CTL_PLUGIN_CMD && !strcmp(a0, "tunnel") &&
		      !strcmp(a1, "reload"),
	      "plugin command: name '%s', args '%s'", a0, a1);
	CHECK(P("tunnel   reload  now\n") == XSKF_CTL_PLUGIN_CMD && !strcmp(a1, "reload  now"),
	      "leading blanks of the arguments skipped: '%s'", a1);
	CHECK(P("tunnel\n") == XSKF_CTL_PLUGIN_CMD && !strcmp(a0, "tunnel") && !a1[0],
	      "plugin command without arguments");
	CHECK(P("") == XSKF_CTL_BAD, "empty");
	CHECK(P("\n") == XSKF_CTL_BAD, "a lone newline");
	CHECK(P("\r\n") == XSKF_CTL_BAD, "a lone CRLF");
	CHECK(P("sta\0ts\n") == XSKF_CTL_BAD, "NUL inside");
	CHECK(P("stats\nplugins\n") == XSKF_CTL_BAD, "two lines");
	CHECK(P("stats\tnow\n") == XSKF_CTL_BAD, "a tab");
	CHECK(P("st\xff" "ats\n") == XSKF_CTL_BAD, "a byte beyond ASCII");
	CHECK(P("stats now\n") == XSKF_CTL_BAD, "stats takes no arguments");
	CHECK(P("plugins x\n") == XSKF_CTL_BAD, "plugins takes no arguments");
	CHECK(P("Tunnel reload\n") == XSKF_CTL_BAD, "upper case is no plugin name");
	CHECK(P("../x reload\n") == XSKF_CTL_BAD, "a path is no plugin name");
	CHECK(P(" stats\n") == XSKF_CTL_BAD, "a leading blank");
	CHECK(P("abcdefghijabcdefghijabcdefghijabc x\n") == XSKF_CTL_BAD, "a 33-byte name");
	CHECK(P("abcdefghijabcdefghijabcdefghijab x\n") == XSKF_CTL_PLUGIN_CMD, "a 32-byte name");
	CHECK(xskf_ctl__parse(NULL, 5, (char **)&big, (char **)&big) == XSKF_CTL_BAD, "NULL");

	big = malloc(XSKF_CTL_MAX + 2);
	memset(big, 'a', XSKF_CTL_MAX + 1);
	CHECK(parse(big, XSKF_CTL_MAX + 1, a0, a1) == XSKF_CTL_BAD, "oversized: %d bytes",
	      XSKF_CTL_MAX + 1);
	big[0] = 'x';
	big[1] = ' ';
	CHECK(parse(big, XSKF_CTL_MAX, a0, a1) == XSKF_CTL_PLUGIN_CMD && strlen(a1) == XSKF_CTL_MAX - 2,
	      "exactly %d bytes is taken", XSKF_CTL_MAX);
	/* every prefix of a good request: never out of bounds, never a crash */
	for (i = 0; i <= sizeof("tunnel reload\n") - 1; i++)
		parse("tunnel reload\n", i, a0, a1);
	CHECK(1, "every prefix of a request parsed in bounds");
	free(big);
	return tap_done();
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The device plugin protocol's requests (dp_proto.h): what a message asks, and its arguments
 * checked. Pure: no I/O, no allocation; tests/fuzz/fuzz_dp.c holds it to a plain reading.
 */
#include <string.h>

#include "backend/xdp/serve/dp_proto.h"

/* @s (NUL-ended, blanks dropped) as a decimal of at most @max, or -1. */
static long long number(const char *s, long long max)
{
	long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > max)
			return -1;
	}
	return v;
}

/*
 * A host name (RFC 1123 letters, digits, '-', '.'; pod names are such) of 1-63 bytes, that
 * begins with a letter or digit: not "." or "..", which a name used in a path would climb.
 */
int xskf_dp__host_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			      (*s >= '0' && *s <= '9')))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/* An interface name the kernel could have: 1-15 bytes, no '/', ':' or blank. */
static int ifname_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 15 || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	return !strpbrk(s, "/:");
}

enum xskf_dp_req xskf_dp__parse(const char *buf, size_t len, struct xskf_dp_msg *m)
{
	char msg[XSKF_DP_MSG_MAX + 1], *args[3] = { NULL };
	size_t i, w = 0;
	int n = 0;

	memset(m, 0, sizeof(*m));
	m->kind = XSKF_DP_BAD;
	if (!len || len > XSKF_DP_MSG_MAX)
		return m->kind;
	/* printable ASCII only; blanks dropped (the device plugin's ReplaceAll(" ", "")) */
	for (i = 0; i < len; i++) {
		if (buf[i] < ' ' || buf[i] > '~')
			return m->kind;
		if (buf[i] != ' ')
			msg[w++] = buf[i];
	}
	msg[w] = 0;
	/* the request word, then up to two comma-separated arguments */
	for (i = 0; i < w; i++)
		if (msg[i] == ',') {
			if (n == 2)
				return m->kind; /* three arguments: no request has them */
			msg[i] = 0;
			args[n++] = &msg[i + 1];
		}
	if (!strcmp(msg, "/connect") && n == 1) {
		m->kind = XSKF_DP_CONNECT;
		if (xskf_dp__host_ok(args[0]))
			strcpy(m->arg, args[0]);
	} else if (!strcmp(msg, "/version") && !n) {
		m->kind = XSKF_DP_VERSION;
	} else if (!strcmp(msg, "/xsk_map_fd") && n >= 1) {
		long long q = n == 2 ? number(args[1], XSKF_DP_MAX_QUEUE) : -1;

		if (n == 2 && q < 0)
			return m->kind; /* a queue that is not a number: not a request */
		m->kind = XSKF_DP_XSK_MAP;
		m->queue = (int32_t)q;
		if (ifname_ok(args[0]))
			strcpy(m->arg, args[0]);
	} else if (!strcmp(msg, "/config_busy_poll") && n == 2) {
		long long t = number(args[0], 1000000000), b = number(args[1], 65535);

		if (t >= 0 && b >= 0) {
			m->kind = XSKF_DP_BUSY_POLL;
			m->timeout_us = (uint32_t)t;
			m->budget = (uint32_t)b;
		}
	} else if (!strcmp(msg, "/fin") && !n) {
		m->kind = XSKF_DP_FIN;
	}
	return m->kind;
}

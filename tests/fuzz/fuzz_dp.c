// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the AF_XDP device plugin protocol's request parser (framework/backend/xdp/
 * dp_proto.c, xskf_dp__parse(), from libxskf), on the input as one SOCK_SEQPACKET message.
 *  - the kind is what a second, plain reading of the protocol (dp_proto.h) gives: split on
 *    commas after the blanks are dropped, a request word and its argument count;
 *  - a host name or an interface handed on is one the checks allow (no '/', no ':', not '.'
 *    or '..', printable, of the protocol's lengths); anything else is handed on as "";
 *  - busy poll's numbers read back as the decimal digits given;
 *  - the input is only read (a const buffer of exactly its length: ASan sees any over-read).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/xdp/serve/dp_proto.h"

#include "fuzz.h"

static enum xskf_dp_req model(const uint8_t *d, size_t len, char *word, char args[3][80],
			      int *nargs)
{
	char msg[XSKF_DP_MSG_MAX + 1];
	size_t i, w = 0;
	int n = 0;
	char *p, *c;

	*nargs = 0;
	if (!len || len > XSKF_DP_MSG_MAX)
		return XSKF_DP_BAD;
	for (i = 0; i < len; i++) {
		if (d[i] < 0x20 || d[i] > 0x7e)
			return XSKF_DP_BAD;
		if (d[i] != ' ')
			msg[w++] = (char)d[i];
	}
	msg[w] = 0;
	p = msg;
	c = strchr(p, ',');
	snprintf(word, 80, "%.*s", c ? (int)(c - p) : (int)strlen(p), p);
	while (c) {
		if (n == 3)
			break;
		p = c + 1;
		c = strchr(p, ',');
		snprintf(args[n++], 80, "%.*s", c ? (int)(c - p) : (int)strlen(p), p);
	}
	*nargs = n + (c ? 1 : 0);
	if (*nargs > 2)
		return XSKF_DP_BAD;
	if (!strcmp(word, "/connect") && n == 1)
		return XSKF_DP_CONNECT;
	if (!strcmp(word, "/version") && !n)
		return XSKF_DP_VERSION;
	if (!strcmp(word, "/xsk_map_fd") && n == 1)
		return XSKF_DP_XSK_MAP;
	if (!strcmp(word, "/xsk_map_fd") && n == 2) { /* IFACE,QUEUE: a decimal 0..255 */
		size_t k, l = strlen(args[1]);

		if (!l)
			return XSKF_DP_BAD;
		for (k = 0; k < l; k++)
			if (args[1][k] < '0' || args[1][k] > '9')
				return XSKF_DP_BAD;
		return strtoull(args[1], NULL, 10) > XSKF_DP_MAX_QUEUE ? XSKF_DP_BAD
								      : XSKF_DP_XSK_MAP;
	}
	if (!strcmp(word, "/config_busy_poll") && n == 2) {
		for (i = 0; i < 2; i++) {
			size_t k, l = strlen(args[i]);

			if (!l)
				return XSKF_DP_BAD;
			for (k = 0; k < l; k++)
				if (args[i][k] < '0' || args[i][k] > '9')
					return XSKF_DP_BAD;
		}
		/* decimal, leading zeros and all (Go's Atoi, which the device plugin uses) */
		if (strtoull(args[0], NULL, 10) > 1000000000ULL ||
		    strtoull(args[1], NULL, 10) > 65535)
			return XSKF_DP_BAD;
		return XSKF_DP_BUSY_POLL;
	}
	if (!strcmp(word, "/fin") && !n)
		return XSKF_DP_FIN;
	return XSKF_DP_BAD;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char word[80], args[3][80];
	struct xskf_dp_msg m;
	enum xskf_dp_req r, want;
	char *buf;
	int n;

	if (size > 4 * XSKF_DP_MSG_MAX)
		return 0;
	buf = malloc(size ? size : 1);
	FUZZ_ASSERT(buf, "malloc");
	memcpy(buf, data, size);
	r = xskf_dp__parse(buf, size, &m);
	want = model(data, size, word, args, &n);
	FUZZ_ASSERT(r == want && m.kind == r, "kind %d (m %d), want %d", r, m.kind, want);
	FUZZ_ASSERT(!memcmp(buf, data, size), "the parser wrote into the message");
	if (r == XSKF_DP_CONNECT || r == XSKF_DP_XSK_MAP) {
		size_t l = strlen(m.arg);

		FUZZ_ASSERT(!l || !strcmp(m.arg, args[0]), "argument '%s', given '%s'", m.arg,
			    args[0]);
		FUZZ_ASSERT(l <= (r == XSKF_DP_CONNECT ? 63u : 15u), "argument of %zu bytes", l);
		FUZZ_ASSERT(!strpbrk(m.arg, "/:") && strcmp(m.arg, ".") && strcmp(m.arg, ".."),
			    "argument '%s' handed on", m.arg);
	} else {
		FUZZ_ASSERT(!m.arg[0], "an argument for kind %d", r);
	}
	if (r == XSKF_DP_XSK_MAP)
		FUZZ_ASSERT(n == 1 ? m.queue == -1
				   : m.queue >= 0 && m.queue == (int32_t)strtoull(args[1], NULL, 10),
			    "queue %d from %d arguments", m.queue, n);
	if (r == XSKF_DP_BUSY_POLL)
		FUZZ_ASSERT(m.timeout_us == strtoull(args[0], NULL, 10) &&
				    m.budget == strtoull(args[1], NULL, 10),
			    "busy poll %u,%u from '%s','%s'", m.timeout_us, m.budget, args[0],
			    args[1]);
	free(buf);
	return 0;
}

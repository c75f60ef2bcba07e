// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket's requests: one line of printable ASCII, at most XSKF_CTL_MAX bytes,
 * ended by a newline (or by the end of the request):
 *
 *   stats                the JSON document of the run, now
 *   plugins              one line per plugin of the chain
 *   doctor               what `xskfctl doctor` needs beyond stats (ctl_doctor.c)
 *   capture [ARGS...]    a live capture: ARGS as xskf_ctl__capture_args() reads them; a
 *                        line the client sends after it ("end") ends the capture
 *   PLUGIN [ARGS...]     the plugin's command (e.g. "tunnel reload")
 *
 * Everything else — empty, too long, a NUL or another control byte, a second line, a name
 * that cannot be a plugin's — is XSKF_CTL_BAD. The parser reads @buf[0 .. len) and writes NUL
 * terminators into @buf[0 .. len] (the caller leaves room for one more byte); it is fuzzed
 * (tests/fuzz/fuzz_ctl.c) and unit-tested (tests/unit/test_ctl.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "runner/ctl.h"
#include "runner/plugin_name.h"

enum xskf_ctl_req xskf_ctl__parse(char *buf, size_t len, char **arg0, char **arg1)
{
	size_t i, w;

	*arg0 = *arg1 = NULL;
	if (!buf || !len || len > XSKF_CTL_MAX)
		return XSKF_CTL_BAD;
	if (buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '\r')
		len--;
	if (!len)
		return XSKF_CTL_BAD;
	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e)
			return XSKF_CTL_BAD; /* NUL, a second line, tabs, bytes beyond ASCII */
	buf[len] = 0; /* the newline's place, or the byte the caller left room for */
	for (w = 0; w < len && buf[w] != ' '; w++)
		;
	if (!xskf_plugin_name__valid(buf, w))
		return XSKF_CTL_BAD;
	*arg0 = buf;
	if (w < len) {
		buf[w] = 0;
		*arg1 = buf + w + 1;
		while (**arg1 == ' ')
			(*arg1)++;
	} else {
		*arg1 = buf + len;
	}
	if (!strcmp(buf, "stats"))
		return **arg1 ? XSKF_CTL_BAD : XSKF_CTL_STATS;
	if (!strcmp(buf, "plugins"))
		return **arg1 ? XSKF_CTL_BAD : XSKF_CTL_PLUGINS;
	if (!strcmp(buf, "capture"))
		return XSKF_CTL_CAPTURE;
	if (!strcmp(buf, "doctor"))
		return **arg1 ? XSKF_CTL_BAD : XSKF_CTL_DOCTOR;
	return XSKF_CTL_PLUGIN_CMD;
}

/* @s[0..len) as a whole number from @min to @max. */
static bool number(const char *s, size_t len, unsigned long long min, unsigned long long max,
		   unsigned long long *v)
{
	unsigned long long x = 0;
	size_t i;

	if (!len || len > 20)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (~0ull - 9) / 10)
			return false;
		x = x * 10 + (unsigned long long)(s[i] - '0');
	}
	*v = x;
	return x >= min && x <= max;
}

int xskf_ctl__capture_args(const char *args, struct xskf_ctl_capture *c, char *err,
			   size_t errlen)
{
	const char *p = args, *eq, *end, *val;
	unsigned int seen = 0;
	unsigned long long v;

	memset(c, 0, sizeof(*c));
	c->queue = -1;
	c->dirs = 3;
	c->snaplen = 65535;
	err[0] = 0;
	for (;;) {
		size_t kl, vl;
		unsigned int bit;

		while (*p == ' ')
			p++;
		if (!*p)
			return 0;
		end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		eq = memchr(p, '=', (size_t)(end - p));
		if (!eq) {
			snprintf(err, errlen, "capture: '%.*s' is not KEY=VALUE", (int)(end - p) > 40 ? 40 : (int)(end - p), p);
			return -EINVAL;
		}
		kl = (size_t)(eq - p);
		val = eq + 1;
		vl = (size_t)(end - val);
		bit = kl == 4 && !memcmp(p, "port", 4)      ? 1
		      : kl == 5 && !memcmp(p, "queue", 5)   ? 2
		      : kl == 3 && !memcmp(p, "dir", 3)     ? 4
		      : kl == 5 && !memcmp(p, "count", 5)   ? 8
		      : kl == 7 && !memcmp(p, "snaplen", 7) ? 16
							    : 0;
		if (!bit) {
			snprintf(err, errlen, "capture: unknown key '%.*s' (port, queue, dir, count, "
				 "snaplen)", (int)(kl > 20 ? 20 : kl), p);
			return -EINVAL;
		}
		if (seen & bit) {
			snprintf(err, errlen, "capture: '%.*s' given twice", (int)kl, p);
			return -EINVAL;
		}
		seen |= bit;
		switch (bit) {
		case 1:
			if (!vl || vl >= sizeof(c->port) || memchr(val, '/', vl)) {
				snprintf(err, errlen, "capture: invalid port '%.*s': an interface name",
					 (int)(vl > 20 ? 20 : vl), val);
				return -EINVAL;
			}
			memcpy(c->port, val, vl);
			c->port[vl] = 0;
			break;
		case 2:
			if (!number(val, vl, 0, 65535, &v)) {
				snprintf(err, errlen, "capture: invalid queue '%.*s': 0 to 65535",
					 (int)(vl > 20 ? 20 : vl), val);
				return -EINVAL;
			}
			c->queue = (int)v;
			break;
		case 4:
			if (vl == 2 && !memcmp(val, "rx", 2))
				c->dirs = 1;
			else if (vl == 2 && !memcmp(val, "tx", 2))
				c->dirs = 2;
			else if (vl == 4 && !memcmp(val, "both", 4))
				c->dirs = 3;
			else {
				snprintf(err, errlen, "capture: invalid dir '%.*s': rx, tx or both",
					 (int)(vl > 20 ? 20 : vl), val);
				return -EINVAL;
			}
			break;
		case 8:
			if (!number(val, vl, 1, 1000000000000ull, &v)) {
				snprintf(err, errlen, "capture: invalid count '%.*s': 1 to 10^12 frames",
					 (int)(vl > 20 ? 20 : vl), val);
				return -EINVAL;
			}
			c->count = v;
			break;
		case 16:
			if (!number(val, vl, 1, 65535, &v)) {
				snprintf(err, errlen, "capture: invalid snaplen '%.*s': 1 to 65535 bytes",
					 (int)(vl > 20 ? 20 : vl), val);
				return -EINVAL;
			}
			c->snaplen = (unsigned int)v;
			break;
		}
		p = end;
	}
}

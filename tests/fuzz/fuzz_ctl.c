// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the control socket's request parser (framework/ctl_proto.c, xskf_ctl__parse(),
 * from libxskf), on the input as one request, in a buffer of exactly its length plus the one
 * byte the parser may write.
 *  - the kind is what a second, plain reading of the protocol (framework/ctl_proto.c's header)
 *    gives, and so are the plugin name and the arguments;
 *  - arg0 and arg1 point into the buffer, NUL-terminated there; the parser changes no byte
 *    but to write a NUL;
 *  - a capture's arguments (xskf_ctl__capture_args()): in range when accepted, and written
 *    back as KEY=VALUE they read the same; one line without a newline when refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runner/ctl.h"

#include "fuzz.h"

/* The protocol, read plainly: the kind, and the name and arguments it carries. */
static enum xskf_ctl_req model(const uint8_t *d, size_t len, char *name, char *args)
{
	size_t i, w;

	if (!len || len > XSKF_CTL_MAX)
		return XSKF_CTL_BAD;
	if (d[len - 1] == '\n')
		len--;
	if (len && d[len - 1] == '\r')
		len--;
	if (!len)
		return XSKF_CTL_BAD;
	for (i = 0; i < len; i++)
		if (d[i] < ' ' || d[i] > '~')
			return XSKF_CTL_BAD;
	for (w = 0; w < len && d[w] != ' '; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", d[w]))
			return XSKF_CTL_BAD;
	if (w < 1 || w > 32)
		return XSKF_CTL_BAD;
	memcpy(name, d, w);
	name[w] = 0;
	for (i = w; i < len && d[i] == ' '; i++)
		;
	memcpy(args, d + i, len - i);
	args[len - i] = 0;
	if (!strcmp(name, "stats"))
		return args[0] ? XSKF_CTL_BAD : XSKF_CTL_STATS;
	if (!strcmp(name, "plugins"))
		return args[0] ? XSKF_CTL_BAD : XSKF_CTL_PLUGINS;
	if (!strcmp(name, "capture"))
		return XSKF_CTL_CAPTURE;
	if (!strcmp(name, "doctor"))
		return args[0] ? XSKF_CTL_BAD : XSKF_CTL_DOCTOR;
	return XSKF_CTL_PLUGIN_CMD;
}

/*
 * A capture's arguments: accepted ones are in range, and written back as KEY=VALUE they read
 * the same; a refusal says why in one line.
 */
static void capture_args(const char *args)
{
	struct xskf_ctl_capture c, c2;
	char err[200], again[200], err2[200];
	int r = xskf_ctl__capture_args(args, &c, err, sizeof(err));

	if (r) {
		FUZZ_ASSERT(r == -EINVAL && err[0] && !strchr(err, '\n'), "refusal %d '%s'", r, err);
		return;
	}
	FUZZ_ASSERT(c.dirs >= 1 && c.dirs <= 3 && c.snaplen >= 1 && c.snaplen <= 65535 &&
			    c.queue >= -1 && c.queue <= 65535 && c.count <= 1000000000000ull &&
			    strlen(c.port) < sizeof(c.port) && !strchr(c.port, ' ') &&
			    !strchr(c.port, '/'),
		    "out of range: dirs %u snaplen %u queue %d", c.dirs, c.snaplen, c.queue);
	snprintf(again, sizeof(again), "dir=%s snaplen=%u%s%s", c.dirs == 1 ? "rx" : c.dirs == 2 ? "tx" : "both",
		 c.snaplen, c.port[0] ? " port=" : "", c.port);
	if (c.queue >= 0)
		snprintf(again + strlen(again), sizeof(again) - strlen(again), " queue=%d", c.queue);
	if (c.count)
		snprintf(again + strlen(again), sizeof(again) - strlen(again), " count=%llu",
			 c.count);
	FUZZ_ASSERT(!xskf_ctl__capture_args(again, &c2, err2, sizeof(err2)), "'%s' refused: %s",
		    again, err2);
	FUZZ_ASSERT(!memcmp(&c, &c2, sizeof(c)) || (!strcmp(c.port, c2.port) &&
		    c.queue == c2.queue && c.dirs == c2.dirs && c.count == c2.count &&
		    c.snaplen == c2.snaplen), "'%s' reads differently", again);
}

static bool in_buf(const char *p, const char *buf, size_t len)
{
	return p >= buf && p <= buf + len && memchr(p, 0, (size_t)(buf + len + 1 - p));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char name[XSKF_CTL_MAX + 1], args[XSKF_CTL_MAX + 1];
	char *buf, *a0, *a1;
	enum xskf_ctl_req r, want;
	size_t i;

	if (size > 2 * XSKF_CTL_MAX)
		return 0;
	buf = malloc(size + 1);
	FUZZ_ASSERT(buf, "malloc");
	memcpy(buf, data, size);
	buf[size] = (char)0xa5; /* the byte the caller leaves: any value */
	r = xskf_ctl__parse(buf, size, &a0, &a1);
	want = model(data, size, name, args);
	FUZZ_ASSERT(r == want, "kind %d, want %d", r, want);
	for (i = 0; i < size; i++)
		FUZZ_ASSERT(buf[i] == (char)data[i] || !buf[i], "byte %zu changed to %#x", i,
			    (unsigned char)buf[i]);
	if (r != XSKF_CTL_BAD) {
		FUZZ_ASSERT(a0 == buf && in_buf(a1, buf, size), "arguments outside the buffer");
		FUZZ_ASSERT(!strcmp(a0, name) && !strcmp(a1, args),
			    "name '%s' args '%s', want '%s' '%s'", a0, a1, name, args);
	}
	if (r == XSKF_CTL_CAPTURE)
		capture_args(a1);
	free(buf);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The control socket's requests: one line of printable ASCII, at most XSKF_CTL_MAX bytes,
 * ended by a newline (or by the end of the request):
 *
 *   stats                the JSON document of the run, now
 *   plugins              one line per plugin of the chain
 *   PLUGIN [ARGS...]     the plugin's command (e.g. "tunnel reload")
 *
 * Everything else — empty, too long, a NUL or another control byte, a second line, a name
 * that cannot be a plugin's — is XSKF_CTL_BAD. The parser reads @buf[0 .. len) and writes NUL
 * terminators into @buf[0 .. len] (the caller leaves room for one more byte); it is fuzzed
 * (tests/fuzz/fuzz_ctl.c) and unit-tested (tests/unit/test_ctl.c).
 */
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
	return XSKF_CTL_PLUGIN_CMD;
}

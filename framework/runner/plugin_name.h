/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The plugin-name rule, for the runner (plugin.c: a descriptor's name, a name on the command
 * line) and the control socket's parser (ctl_proto.c: the first word of a request): 1 to 32 of
 * [a-z0-9_-]. Inline, so that the parser builds alone (tests/unit/test_ctl.c, fuzz_ctl).
 */
#ifndef XSKF_PLUGIN_NAME_H
#define XSKF_PLUGIN_NAME_H

#include <stdbool.h>
#include <stddef.h>

#define XSKF_PLUGIN_NAME_MAX 32

/* One character a plugin name may have. */
static inline bool xskf_plugin_name__char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* @len characters of @s (not NUL-terminated there) are a plugin name. */
static inline bool xskf_plugin_name__valid(const char *s, size_t len)
{
	size_t i;

	if (!s || !len || len > XSKF_PLUGIN_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!xskf_plugin_name__char(s[i]))
			return false;
	return true;
}

#endif /* XSKF_PLUGIN_NAME_H */

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The runner's JSON check of a plugin's json() output: the parser xskfctl reads the document
 * with (util/json.c), with the nesting the document leaves a plugin's value, so that what
 * passes here is what xskfctl can read.
 */
#include "json.h"
#include "runner/json_check.h"

_Static_assert(XSKF_JSON_MAX_DEPTH + 2 <= XJ_MAX_DEPTH,
	       "a plugin's value nests 2 deep in the document: xskfctl must read it");

int xskf_json__check(const char *s, size_t len, size_t *err_off, const char **why)
{
	return xj_check(s, len, XSKF_JSON_MAX_DEPTH, err_off, why);
}

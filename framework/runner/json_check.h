/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A JSON checker for what plugins print (their json() callback): the runner puts a plugin's
 * output into the document only when it is one whole JSON value, so that one plugin cannot
 * make `--json` or `xskfctl stats` unreadable for every other. Private to the runner.
 */
#ifndef XSKF_JSON_CHECK_H
#define XSKF_JSON_CHECK_H

#include <stddef.h>

/*
 * Deepest nesting of arrays and objects accepted: a plugin's value sits in "app_stats", and
 * in a chain's object by plugin name, 2 levels deep in a document xskfctl reads 32 deep.
 */
#define XSKF_JSON_MAX_DEPTH 30

/*
 * xskf_json__check() - is @s[0 .. @len) exactly one JSON value (RFC 8259) as xskfctl reads
 * it (valid UTF-8, no \u0000, surrogates paired: util/json.h), with white space around it
 * allowed? NUL bytes anywhere are refused. Returns 0 when it is, else -EINVAL with the offset
 * of the first byte that is wrong in *@err_off (@len when the text ends too early), and a few
 * words saying what was expected in *@why (-ENOMEM: no memory for the check's copy).
 * Thread: any (no state).
 */
int xskf_json__check(const char *s, size_t len, size_t *err_off, const char **why);

#endif /* XSKF_JSON_CHECK_H */

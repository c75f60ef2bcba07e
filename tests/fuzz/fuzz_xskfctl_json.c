// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the JSON parser of xskfctl and the runner (util/json.c, xj_parse()), on the
 * input as one document, in a buffer of exactly its length, into exactly the nodes
 * xj_doc__new() would give it (len / 2 + 1).
 *  - xj_check() (no nodes, the text untouched) gives what xj_parse() gives: the same verdict,
 *    and for a refused text the same byte and reason;
 *  - what the runner's check lets into the document (xskf_json__check(), libxskf) xskfctl
 *    reads where the runner puts it (2 levels deep); what xskfctl reads and the runner's
 *    check refuses is refused for nesting only;
 *  - the nodes are never too few (no -ENOSPC), and the tree holds together: every subtree
 *    ends inside its parent's, a container's children are `count`, an object's members have
 *    names and an array's elements none, every string is as long as strlen() says;
 *  - written back out (canonical JSON, strings escaped) and read again, the tree is the same.
 */
#include <errno.h>
#include <string.h>

#include "runner/json_check.h"
#include "json.h"

#include "fuzz.h"

static size_t put_str(char *o, const char *s, size_t len)
{
	size_t k = 0;

	o[k++] = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			o[k++] = '\\';
			o[k++] = (char)c;
		} else if (c < 0x20) {
			k += (size_t)sprintf(o + k, "\\u%04x", c);
		} else {
			o[k++] = (char)c;
		}
	}
	o[k++] = '"';
	return k;
}

/* Node @i and its subtree as canonical JSON at @o; its length. */
static size_t dump(const struct xj_node *n, int i, char *o)
{
	size_t k = 0;
	int c, first = 1;

	switch (n[i].type) {
	case XJ_NULL: memcpy(o, "null", 4); return 4;
	case XJ_TRUE: memcpy(o, "true", 4); return 4;
	case XJ_FALSE: memcpy(o, "false", 5); return 5;
	case XJ_NUMBER: memcpy(o, n[i].str, n[i].len); return n[i].len;
	case XJ_STRING: return put_str(o, n[i].str, n[i].len);
	default: break;
	}
	o[k++] = n[i].type == XJ_OBJECT ? '{' : '[';
	for (c = xj_first(n, i); c >= 0; c = xj_next(n, i, c)) {
		if (!first)
			o[k++] = ',';
		first = 0;
		if (n[i].type == XJ_OBJECT) {
			k += put_str(o + k, n[c].key, strlen(n[c].key));
			o[k++] = ':';
		}
		k += dump(n, c, o + k);
	}
	o[k++] = n[i].type == XJ_OBJECT ? '}' : ']';
	return k;
}

static void check_tree(const struct xj_node *n, int count)
{
	for (int i = 0; i < count; i++) {
		int c, k = 0;

		FUZZ_ASSERT(n[i].end > (uint32_t)i && n[i].end <= (uint32_t)count,
			    "node %d ends at %u of %d", i, n[i].end, count);
		if (n[i].type == XJ_STRING)
			FUZZ_ASSERT(strlen(n[i].str) == n[i].len, "string %d has a NUL inside", i);
		if (n[i].type != XJ_OBJECT && n[i].type != XJ_ARRAY) {
			FUZZ_ASSERT(n[i].end == (uint32_t)i + 1, "a leaf %d with children", i);
			continue;
		}
		for (c = xj_first(n, i); c >= 0; c = xj_next(n, i, c), k++) {
			FUZZ_ASSERT(n[c].end <= n[i].end, "child %d beyond its parent %d", c, i);
			FUZZ_ASSERT((n[i].type == XJ_OBJECT) == (n[c].key != NULL),
				    "child %d of %d: key %p", c, i, (const void *)n[c].key);
		}
		FUZZ_ASSERT(k == (int)n[i].count, "node %d: %d children, count %u", i, k,
			    n[i].count);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = size / 2 + 1, off = 0, off2 = 0, jc_off = 0, c_off = 0, l;
	const char *why = NULL, *why2 = NULL, *jc_why = NULL, *c_why = NULL;
	struct xj_node *n, *n2;
	char *buf, *out;
	int r, r2, jc, chk;

	if (size > 1 << 16)
		return 0;
	buf = malloc(size ? size : 1);
	n = calloc(cap, sizeof(*n));
	FUZZ_ASSERT(buf && n, "malloc");
	memcpy(buf, data, size);
	jc = xskf_json__check((const char *)data, size, &jc_off, &jc_why);
	chk = xj_check((const char *)data, size, XJ_MAX_DEPTH, &c_off, &c_why);
	r = xj_parse(buf, size, n, cap, &off, &why);
	FUZZ_ASSERT(r != -ENOSPC, "%zu nodes were too few for %zu bytes", cap, size);
	FUZZ_ASSERT(r > 0 || r == -EINVAL, "returned %d", r);
	FUZZ_ASSERT((r > 0) == !chk, "xj_parse() %d, xj_check() %d", r, chk);
	FUZZ_ASSERT(r > 0 || (off == c_off && !strcmp(why, c_why)),
		    "xj_parse() refused at %zu (%s), xj_check() at %zu (%s)", off, why, c_off, c_why);
	FUZZ_ASSERT(jc || r > 0, "the runner let in what xskfctl refuses at %zu (%s)", off, why);
	FUZZ_ASSERT(!jc || r < 0 || !strcmp(jc_why, XJ_WHY_DEEP),
		    "xskfctl reads what the runner refuses at %zu (%s)", jc_off, jc_why);
	if (!jc) { /* where the runner puts it: "app_stats": {"plugin": VALUE} */
		char *doc = malloc(size + 32);
		struct xj_node *dn = calloc((size + 32) / 2 + 1, sizeof(*dn));
		size_t k;

		FUZZ_ASSERT(doc && dn, "malloc");
		k = (size_t)sprintf(doc, "{\"app_stats\": {\"p\": ");
		memcpy(doc + k, data, size);
		k += size;
		memcpy(doc + k, "}}", 2);
		k += 2;
		FUZZ_ASSERT(xj_parse(doc, k, dn, (size + 32) / 2 + 1, &off2, &why2) > 0,
			    "the runner let in what xskfctl refuses in the document at %zu (%s)",
			    off2, why2);
		free(doc);
		free(dn);
	}
	FUZZ_ASSERT(r > 0 || off <= size, "error offset %zu beyond %zu", off, size);
	if (r > 0) {
		check_tree(n, r);
		out = malloc(6 * size + 16);
		n2 = calloc(cap * 2 + 1, sizeof(*n2));
		FUZZ_ASSERT(out && n2, "malloc");
		l = dump(n, 0, out);
		r2 = xj_parse(out, l, n2, cap * 2 + 1, &off2, &why2);
		FUZZ_ASSERT(r2 == r, "written back (%zu bytes) and read again: %d nodes, not %d (%s)",
			    l, r2, r, why2 ? why2 : "");
		for (int i = 0; i < r; i++) {
			FUZZ_ASSERT(n2[i].type == n[i].type && n2[i].end == n[i].end &&
					    n2[i].count == n[i].count && n2[i].len == n[i].len,
				    "node %d differs after the round trip", i);
			FUZZ_ASSERT(!n[i].len || !memcmp(n2[i].str, n[i].str, n[i].len),
				    "node %d's text differs after the round trip", i);
			FUZZ_ASSERT(!n[i].key == !n2[i].key &&
					    (!n[i].key || !strcmp(n[i].key, n2[i].key)),
				    "node %d's key differs after the round trip", i);
			FUZZ_ASSERT(n2[i].is_u64 == n[i].is_u64 && n2[i].u == n[i].u,
				    "node %d's number differs", i);
		}
		free(out);
		free(n2);
	}
	free(buf);
	free(n);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the steering rule parser (framework/core/steer_parse.c, xskf_steer__parse(),
 * from libxskf), on the input as one rule (a NUL ends it, as a C string would).
 *  - a rule refused has a one-line reason that names it ("steer rule '...': ...");
 *  - a rule accepted is consistent: ranges in order, prefixes within their family's length
 *    with no bit set past it, at least one CPU for cpumap;
 *  - its canonical text parses again to the same rule, and formats to the same text.
 */
#include <errno.h>
#include <string.h>

#include "core/steer.h"

#include "fuzz.h"

static void check_prefix(uint8_t fam, uint8_t len, const uint8_t *a)
{
	unsigned int bits = fam == 4 ? 32 : 128, i;

	FUZZ_ASSERT(fam == 4 || fam == 6, "family %u", fam);
	FUZZ_ASSERT(len <= bits, "prefix /%u for IPv%u", len, fam);
	for (i = len; i < 128; i++)
		FUZZ_ASSERT(!(a[i / 8] & (0x80 >> (i % 8))), "bit %u set past /%u", i, len);
}

static bool same(const struct xskf_steer_rule *a, const struct xskf_steer_rule *b)
{
	return a->is_default == b->is_default && a->action == b->action && a->cpus == b->cpus &&
	       (a->is_default || xskf_steer__same_match(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[4096], err[512], canon[XSKF_STEER_TEXT * 2], again[XSKF_STEER_TEXT * 2];
	struct xskf_steer_rule r, r2;
	int ret;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	ret = xskf_steer__parse(text, &r, err, sizeof(err));
	if (ret) {
		FUZZ_ASSERT(ret == -EINVAL, "error %d", ret);
		FUZZ_ASSERT(!strncmp(err, "steer rule '", 12) && !strchr(err, '\n'), "reason '%s'",
			    err);
		return 0;
	}
	FUZZ_ASSERT(r.action <= XSKF_STEER_ACT_DROP, "action %u", r.action);
	FUZZ_ASSERT(r.action != XSKF_STEER_ACT_CPUMAP || r.cpus, "cpumap with no CPU");
	if (r.set & (1u << XSKF_DIM_SRC))
		check_prefix(r.src_fam, r.src_len, r.src);
	if (r.set & (1u << XSKF_DIM_DST))
		check_prefix(r.dst_fam, r.dst_len, r.dst);
	if (r.set & (1u << XSKF_DIM_SPORT))
		FUZZ_ASSERT(r.sport_lo <= r.sport_hi && r.sport_hi <= 65535, "sport range");
	if (r.set & (1u << XSKF_DIM_DPORT))
		FUZZ_ASSERT(r.dport_lo <= r.dport_hi && r.dport_hi <= 65535, "dport range");
	FUZZ_ASSERT(r.set < (1u << XSKF_NR_DIMS), "set %#x", r.set);
	xskf_steer__format(&r, canon, sizeof(canon));
	ret = xskf_steer__parse(canon, &r2, err, sizeof(err));
	FUZZ_ASSERT(!ret, "canonical '%s' of '%s' refused: %s", canon, text, err);
	FUZZ_ASSERT(same(&r, &r2), "canonical '%s' of '%s' is another rule", canon, text);
	xskf_steer__format(&r2, again, sizeof(again));
	FUZZ_ASSERT(!strcmp(canon, again), "'%s' formats as '%s'", canon, again);
	return 0;
}

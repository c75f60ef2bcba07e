// SPDX-License-Identifier: BSD-2-Clause
/* sz-versioned options structs, as libbpf's OPTS_VALID(). */
#include <errno.h>

#include "core/compiler.h"
#include "core/log.h"

int xskf_opts_valid(const void *opts, size_t user_sz, size_t known_sz, const char *type)
{
	const char *p = opts;
	size_t i;

	if (user_sz < sizeof(size_t)) {
		pr_warn("%s: sz is %zu: declare options with XSKF_OPTS()\n", type, user_sz);
		return -EINVAL;
	}
	for (i = known_sz; i < user_sz; i++) {
		if (p[i]) {
			pr_warn("%s: unknown option set (byte %zu): this libxskf is older than the app\n",
				type, i);
			return -EINVAL;
		}
	}
	return 0;
}

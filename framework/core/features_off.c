// SPDX-License-Identifier: BSD-2-Clause
/* XSKF_FEATURES_OFF: the kernel features forced off, for every backend (features_off.h). */
#include <stdlib.h>
#include <string.h>

#include "core/features_off.h"

bool xskf_features__forced_off(const char *name)
{
	const char *env = secure_getenv("XSKF_FEATURES_OFF"), *p;
	size_t n = strlen(name);

	for (p = env; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
		if (!strncmp(p, "all", 3) && (p[3] == ',' || !p[3]))
			return true;
	}
	return false;
}

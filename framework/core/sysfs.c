// SPDX-License-Identifier: BSD-2-Clause
/* Numbers from sysfs: hugepage pools (hugepages.c), an interface's NUMA node (backend/xdp/xdp.c). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/sysfs.h"

/* A number from a one-line file, or -1 when it cannot be read. */
long xskf_sysfs__long(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	long v = -1;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

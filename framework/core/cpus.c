// SPDX-License-Identifier: BSD-2-Clause
/* CPU lists: --cpus, xskf_engine_opts.cpus. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/cpus.h"
#include "core/log.h"

int xskf_parse_cpus(const char *list, int *cpus, unsigned int max, unsigned int *nr)
{
	const char *p = list;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char *end;

	*nr = 0;
	if (!list || !*list)
		goto bad;
	while (*p) {
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				goto bad;
			p = end;
		}
		for (; a <= b; a++) {
			if (a >= ncpu) {
				pr_warn("CPU %ld in '%s' does not exist: this machine has CPUs 0-%ld\n",
					a, list, ncpu - 1);
				return -EINVAL;
			}
			if (*nr == max)
				goto bad;
			cpus[(*nr)++] = (int)a;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	pr_warn("invalid CPU list '%s': use e.g. '1' or '0,2-3'\n", list ? list : "");
	return -EINVAL;
}

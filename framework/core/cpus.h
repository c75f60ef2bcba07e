/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU lists (cpus.c). */
#ifndef XSKF_CPUS_H
#define XSKF_CPUS_H

/*
 * xskf_parse_cpus() - "0,2-3" into at most @max CPU numbers in @cpus, *@nr of them; each must
 * exist on this machine. Returns 0, or -EINVAL with one line said. Thread: any.
 */
int xskf_parse_cpus(const char *list, int *cpus, unsigned int max, unsigned int *nr);

#endif /* XSKF_CPUS_H */

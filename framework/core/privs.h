/* SPDX-License-Identifier: BSD-2-Clause */
/* Least privilege after set-up (privs.c). */
#ifndef XSKF_PRIVS_H
#define XSKF_PRIVS_H

#include <stdint.h>

/*
 * xskf_privs__keep() - keep only the capabilities in the bit mask @keep (effective, permitted
 * and bounding sets). Returns 0 or -errno. Thread: the calling thread only.
 */
int xskf_privs__keep(uint64_t keep);

#endif /* XSKF_PRIVS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What every module of the core uses: branch hints, the cache line, sz-versioned options.
 */
#ifndef XSKF_COMPILER_H
#define XSKF_COMPILER_H

#include <stddef.h>

#include "xskf.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/*
 * What one worker writes on its path (socket counters, ring positions, its cache's top) must
 * not share a cache line with another worker's: each write would take the line from the
 * other CPU (false sharing), and two workers would run slower than one.
 */
#define XSKF_CACHE_LINE 64

/* The end of @member in @type, as libbpf's: the size of the struct a library knows. */
#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * What this library knows of an options struct: up to the end of its last member
 * (TYPE__last_field in the public header), so that its trailing padding counts as unknown.
 */
#define XSKF_OPTS_KNOWN(type) offsetofend(struct type, type##__last_field)

/*
 * xskf_opts_valid() - check an sz-versioned options struct (opts.c): @user_sz at least the
 * size field, and every byte the caller has beyond the @known_sz this library knows is zero.
 * Returns 0, or -EINVAL with one line naming @type. Thread: any.
 */
int xskf_opts_valid(const void *opts, size_t user_sz, size_t known_sz, const char *type);

#endif /* XSKF_COMPILER_H */

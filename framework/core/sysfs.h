/* SPDX-License-Identifier: BSD-2-Clause */
/* One number from a sysfs (or procfs) file (sysfs.c). */
#ifndef XSKF_SYSFS_H
#define XSKF_SYSFS_H

/*
 * xskf_sysfs__long() - the number in the one-line file whose path is @fmt, printf-style.
 * Returns it, or -1 when the file cannot be read (sysfs numbers read this way are never
 * negative, and -1 is also what a NUMA node "none" reads as). Thread: any.
 */
__attribute__((format(printf, 1, 2))) long xskf_sysfs__long(const char *fmt, ...);

#endif /* XSKF_SYSFS_H */

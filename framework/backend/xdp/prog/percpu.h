/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XSKF_XDP_PERCPU_H
#define XSKF_XDP_PERCPU_H

#include <stddef.h>
#include <stdint.h>

/*
 * xskf_percpu__zero() - keys @first to @first + @n - 1 of the per-CPU array map @fd set to
 * zero on every possible CPU (@size: one CPU's value). A per-CPU map is written whole, one
 * value per possible CPU, so every caller needs the same zeroed buffer; it lives here. Every
 * key is tried; 0, or the first -errno. Thread: control thread.
 */
int xskf_percpu__zero(int fd, uint32_t first, uint32_t n, size_t size);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the fuzz targets share: FUZZ_ASSERT(), which prints the broken property and aborts, so
 * that libFuzzer saves the input as a crash (a property failing is as much a finding as a
 * fault caught by ASan or UBSan).
 *
 * The message goes to a copy of stderr taken before main(): scripts/fuzz.sh runs the targets
 * with -close_fd_mask=3, which silences the parsers' own messages on fd 1 and 2 (libFuzzer and
 * the sanitizers keep a copy of their own, as this does).
 */
#ifndef XSKF_FUZZ_H
#define XSKF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fuzz_report_fd = 2;

__attribute__((constructor)) static void fuzz_report_init(void)
{
	int fd = dup(2);

	if (fd >= 0)
		fuzz_report_fd = fd;
}

/* A big-endian 16-bit field, for the properties. */
static inline uint16_t fuzz_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * The targets' own reference checksum, written plainly to check the code under test with: the
 * one's-complement sum of @len bytes as big-endian words plus @sum, folded (RFC 1071).
 */
static inline uint32_t fuzz_csum(uint32_t sum, const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += fuzz_get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

#define FUZZ_ASSERT(cond, ...)                                                                     \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			dprintf(fuzz_report_fd, "%s:%d: property failed: %s: ", __FILE__,          \
				__LINE__, #cond);                                                  \
			dprintf(fuzz_report_fd, __VA_ARGS__);                                      \
			dprintf(fuzz_report_fd, "\n");                                             \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* XSKF_FUZZ_H */

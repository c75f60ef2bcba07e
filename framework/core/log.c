// SPDX-License-Identifier: BSD-2-Clause
/* Messages: one user-settable callback for ours, libbpf's and libxdp's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "core/log.h"

static int default_print(enum xskf_log_level level, const char *fmt, va_list args)
{
	if (level == XSKF_LOG_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static xskf_print_fn_t print_fn = default_print;

xskf_print_fn_t xskf_set_print(xskf_print_fn_t fn)
{
	xskf_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void xskf_log(enum xskf_log_level level, const char *fmt, ...)
{
	va_list args;

	if (!print_fn)
		return;
	va_start(args, fmt);
	print_fn(level, fmt, args);
	va_end(args);
}

/* libbpf's "Kernel error message: %s" (a netlink extack), kept for the caller's line */
static __thread char kernel_msg[256];

const char *xskf_log__take_kernel_msg(void)
{
	static __thread char taken[sizeof(kernel_msg)];

	memcpy(taken, kernel_msg, sizeof(taken));
	kernel_msg[0] = '\0';
	return taken;
}

static void keep_kernel_msg(const char *fmt, va_list args)
{
	static const char tag[] = "Kernel error message: ";
	char line[sizeof(kernel_msg) + 64];
	const char *m;
	size_t n;

	if (!strstr(fmt, tag))
		return;
	vsnprintf(line, sizeof(line), fmt, args);
	m = strstr(line, tag);
	if (!m)
		return;
	m += sizeof(tag) - 1;
	n = strcspn(m, "\n");
	if (n >= sizeof(kernel_msg))
		n = sizeof(kernel_msg) - 1;
	memcpy(kernel_msg, m, n);
	kernel_msg[n] = '\0';
}

/*
 * libbpf prints the verifier log and probe failures at WARN; we expect some of those (feature
 * probes), so they go to DEBUG and the framework prints its own one-line explanation (with the
 * kernel's extack message where it gave one: xskf_log__take_kernel_msg()).
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	va_list copy;

	(void)level;
	va_copy(copy, args);
	keep_kernel_msg(fmt, copy);
	va_end(copy);
	if (!print_fn)
		return 0;
	return print_fn(XSKF_LOG_DEBUG, fmt, args);
}

static int libxdp_print(enum libxdp_print_level level, const char *fmt, va_list args)
{
	(void)level;
	if (!print_fn)
		return 0;
	return print_fn(XSKF_LOG_DEBUG, fmt, args);
}

void xskf_log_hook_libs(void)
{
	libbpf_set_print(libbpf_print);
	libxdp_set_print(libxdp_print);
}

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XSKF_LOG_H
#define XSKF_LOG_H

#include "xskf.h"

/* Print through the user's callback (xskf_set_print()). Thread: any. */
__attribute__((format(printf, 2, 3))) void xskf_log(enum xskf_log_level level, const char *fmt, ...);

#define pr_warn(fmt, ...)  xskf_log(XSKF_LOG_WARN, "xskf: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  xskf_log(XSKF_LOG_INFO, "xskf: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) xskf_log(XSKF_LOG_DEBUG, "xskf: " fmt, ##__VA_ARGS__)

/* Route libbpf's and libxdp's messages through ours (once, from xskf_engine__new()). */
void xskf_log_hook_libs(void);
/*
 * The kernel's last netlink error message (extack) libbpf reported on this thread since the last
 * call ("" when none): a driver's reason for refusing an XDP attach. Taking it clears it.
 */
const char *xskf_log__take_kernel_msg(void);

#endif

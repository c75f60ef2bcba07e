/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XSKF_VERIFIER_LOG_H
#define XSKF_VERIFIER_LOG_H

/*
 * The verifier's log of a refused load: libbpf loads without a log, and on a failure loads
 * again at log level 1 into a buffer of this size given at open (kernel_log_buf; its own log
 * libbpf would print only at debug level). Level 1 keeps the path that failed only, far below
 * this size; a kernel before 6.4 whose log overflows fails the load with ENOSPC, and a too
 * long log then shows its start.
 */
#define XSKF_VERIFIER_LOG_SIZE (4u << 20)
/* the lines printed at the default level: the refusal and what led to it */
#define XSKF_VERIFIER_LOG_LINES 8

/*
 * xskf_verifier_log__print() - say that the kernel refused the XDP program of @name, with its
 * verifier log @log: as warnings its last XSKF_VERIFIER_LOG_LINES lines and as many from the
 * last instruction of its trace on (where the verifier names the refusal: 7.x writes a report
 * of its own after it), every other line at debug level (-vv: the path the verifier took),
 * empty lines left out. @err: the load's -errno. Said in place of a guessed cause: the log is
 * the kernel's own reason. Thread: control thread.
 */
void xskf_verifier_log__print(const char *name, const char *log, int err);

struct xskf_redirect;
/*
 * xskf_verifier_log__open() - open xskf's skeleton with a verifier log of
 * XSKF_VERIFIER_LOG_SIZE bytes for its load, in *@log (the caller frees it; NULL when no memory:
 * the load then runs without one). NULL with errno set, and nothing kept, when the open fails.
 * prog.c's load and prog_dispatch.c's component both read the kernel's reason from it.
 * Thread: control thread.
 */
struct xskf_redirect *xskf_verifier_log__open(char **log);

#endif

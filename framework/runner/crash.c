// SPDX-License-Identifier: BSD-2-Clause
/*
 * A plugin that crashes is named: the fatal-signal handler (core/engine.c: it detaches the XDP
 * program first) calls crash_line(), which writes one line with the plugin, its file and the
 * callback this thread was in (core/app_cb.h, chain.h's xskf_chain__mark()), then the signal
 * ends the process as before (exit 128 + its number). A C++ exception that leaves a callback
 * ends in std::terminate(): libstdc++'s handler prints its type and what(), then abort()s, and
 * the SIGABRT's line names the plugin. Async-signal-safe: write(2) of a line built by hand.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core/engine.h"
#include "runner/chain.h"

__thread unsigned char xskf__chain_k __attribute__((tls_model("initial-exec")));

static const struct xskf_chain *crash_ch;

static const char *const cb_names[XSKF_CB_MAX] = {
	[XSKF_CB_CONFIGURE] = "configure",
	[XSKF_CB_INIT] = "init",
	[XSKF_CB_WORKER_INIT] = "worker_init",
	[XSKF_CB_RX_BURST] = "rx_burst",
	[XSKF_CB_TX_FILL] = "tx_fill",
	[XSKF_CB_TICK] = "tick",
	[XSKF_CB_WORKER_FINI] = "worker_fini",
	[XSKF_CB_FINI] = "fini",
	[XSKF_CB_JSON] = "json",
	[XSKF_CB_COMMAND] = "command",
	[XSKF_CB_CLEANUP] = "cleanup",
};

/* strsignal() is not async-signal-safe: the signals engine.c catches, and what they mean */
static const char *sig_text(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV, a bad memory access";
	case SIGBUS:
		return "SIGBUS, a bad memory access";
	case SIGFPE:
		return "SIGFPE, an arithmetic fault";
	case SIGILL:
		return "SIGILL, an illegal instruction";
	case SIGABRT:
		return "SIGABRT: abort(), a failed assert() or a C++ exception nothing caught";
	case SIGSYS:
		return "SIGSYS, a bad system call";
	case SIGTRAP:
		return "SIGTRAP";
	default:
		return "a fatal signal";
	}
}

static char *put(char *p, const char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

static void crash_line(int sig)
{
	const struct xskf_chain *ch = crash_ch;
	unsigned int cb = xskf__app_cb, k = xskf__chain_k;
	char buf[640], *p = buf, *end = buf + sizeof(buf) - 1;

	if (!ch)
		return;
	if (cb != XSKF_CB_NONE && cb < XSKF_CB_MAX && k < ch->n) {
		const struct xskf_chain_plugin *pl = &ch->pl[k];
		bool paren = pl->file[0] == '('; /* "(built in)" */

		p = put(p, end, "xskf: plugin '");
		p = put(p, end, pl->p->name);
		p = put(p, end, paren ? "' " : "' (");
		p = put(p, end, pl->file);
		p = put(p, end, paren ? " crashed in " : ") crashed in ");
		p = put(p, end, cb_names[cb]);
		p = put(p, end, "() (");
		p = put(p, end, sig_text(sig));
		p = put(p, end, "): a bug in the plugin; the run ends\n");
	} else {
		p = put(p, end, "xskf: ");
		p = put(p, end, ch->name);
		p = put(p, end, " crashed outside its plugins' callbacks (");
		p = put(p, end, sig_text(sig));
		p = put(p, end, "): a bug in xskf; the run ends\n");
	}
	if (p == end)
		*p++ = '\n';
	if (write(STDERR_FILENO, buf, (size_t)(p - buf)) < 0)
		return; /* nowhere to say it */
}

void xskf_chain__on_crash(const struct xskf_chain *ch)
{
	crash_ch = ch;
	xskf_engine__on_fatal(crash_line);
}

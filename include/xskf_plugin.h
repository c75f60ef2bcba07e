/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xskf plugins: an app (struct xskf_app) in a shared object, loaded by the runner
 * (`xskf run PLUGIN[,PLUGIN...] -i IFACE ...`), alone or in a chain. docs/plugins.md gives the
 * ABI rules; in short:
 *
 *   #include <xskf_plugin.h>
 *   static const struct xskf_app app = { .name = "count", .rx_burst = burst };
 *   XSKF_PLUGIN(.name = "count", .app = &app, .counters = names);
 *
 * What a plugin sees: packets (xskf_pkt.h), its callbacks (xskf_app.h), its options and the
 * runner's calls (xskf_cli.h), what it asks of the ports (xskf_ports.h); RX hints, TX
 * metadata and checksums are siblings it includes when it uses them (xskf_hints.h, xskf_tx.h,
 * xskf_csum.h). Nothing of the engine's life: that is xskf_engine.h's, for embedding programs.
 *
 * The macro defines the one symbol the runner looks for, `xskf_plugin_descriptor`, stamped
 * with the ABI version and the size of the descriptor the plugin was built with. A plugin need
 * not link libxskf: the runner runs on the shared libxskf.so.0 and provides the xskf_*
 * functions it calls (a plugin that links it gets that same copy).
 */
#ifndef XSKF_PLUGIN_H
#define XSKF_PLUGIN_H

#include <xskf_pkt.h>
#include <xskf_app.h>
#include <xskf_cli.h>
#include <xskf_ports.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Bumped when anything a plugin relies on changes incompatibly: a field of a struct it reads
 * moves, a callback's meaning or arguments change. Growing a struct at its end does not bump it
 * (sz says what a plugin knows).
 */
#define XSKF_PLUGIN_ABI 1

struct xskf_plugin {
	size_t sz;        /* sizeof(struct xskf_plugin) when the plugin was built */
	uint32_t abi;     /* XSKF_PLUGIN_ABI when the plugin was built */
	const char *name; /* what `xskf run NAME` and `xskfctl` call it: [a-z0-9_-]+ */
	const struct xskf_app *app; /* required: rx_burst (or tx_fill with XSKF_APP_F_TX_ONLY) */
	void *app_ctx;              /* the plugin's own state, handed to its callbacks */
	const struct xskf_app_cli *cli; /* its options, or NULL */
	/*
	 * Names of the plugin's counters, NULL-terminated, or NULL. Each worker gets an array of
	 * that many uint64_t in xskf_worker_info.counters, written by that worker only; the
	 * runner sums them over workers and shows them each second, in --json and in
	 * `xskfctl stats`.
	 */
	const char *const *counters;
	/*
	 * `xskfctl PLUGIN ARGS...` on the control socket: write the answer into @reply (@len
	 * bytes, 64 KiB today: use @len; several lines may be given, '\n' between them) and return
	 * 0, or a negative errno (the answer then says why). A reply that fills @reply is cut,
	 * and the answer says so: command_out() has no bound. Optional.
	 * Thread: control thread, between two intervals.
	 */
	int (*command)(void *app_ctx, const char *args, char *reply, size_t len);
	/* Control thread, once at exit after the engine is gone: free what app_ctx holds. */
	void (*cleanup)(void *app_ctx);
	/*
	 * As command(), with an answer of any length: print it to @out (a FILE *), one line or
	 * many, and return 0 or a negative errno. Wins over command() when a plugin sets both.
	 * Optional; a runner older than this member ignores it (sz). Thread: control thread.
	 */
	int (*command_out)(void *app_ctx, const char *args, void *out);
};
#define xskf_plugin__last_field command_out

/*
 * Define the plugin's descriptor: XSKF_PLUGIN(.name = "x", .app = &app, ...). In C++ (g++ or
 * clang++, C++11 and later: designated initializers are C++20's, and an extension both take
 * before it) give the members in the order of struct xskf_plugin. A namespace-scope const has
 * internal linkage in C++ and a C++ name is mangled: extern "C" gives the symbol the runner
 * looks for both.
 */
#ifdef __cplusplus
/*
 * g++ -Wextra warns of members a designated initializer leaves out (C leaves them zero
 * silently), and -Wpedantic before C++20 of the designated initializer itself: neither is
 * the plugin's to fix.
 */
#if __cplusplus >= 202002L
#define XSKF_PLUGIN_PRAGMA_DESIGNATED_
#elif defined(__clang__)
#define XSKF_PLUGIN_PRAGMA_DESIGNATED_ _Pragma("GCC diagnostic ignored \"-Wc++20-designator\"")
#elif __GNUC__ >= 12
#define XSKF_PLUGIN_PRAGMA_DESIGNATED_ _Pragma("GCC diagnostic ignored \"-Wc++20-extensions\"")
#else
#define XSKF_PLUGIN_PRAGMA_DESIGNATED_ _Pragma("GCC diagnostic ignored \"-Wpedantic\"")
#endif
#define XSKF_PLUGIN(...)                                                                           \
	_Pragma("GCC diagnostic push")                                                             \
	_Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")                         \
	XSKF_PLUGIN_PRAGMA_DESIGNATED_                                                             \
	extern "C" XSKF_API const struct xskf_plugin xskf_plugin_descriptor = {                    \
		.sz = sizeof(struct xskf_plugin), .abi = XSKF_PLUGIN_ABI, __VA_ARGS__ };           \
	_Pragma("GCC diagnostic pop")
#else
#define XSKF_PLUGIN(...)                                                                           \
	XSKF_API const struct xskf_plugin xskf_plugin_descriptor = {                               \
		.sz = sizeof(struct xskf_plugin), .abi = XSKF_PLUGIN_ABI, __VA_ARGS__ }
#endif

/*
 * xskf_plugin__main() - run one plugin as a program of its own: the same command line,
 * statistics and control socket as `xskf run NAME`. The xsk-* commands are this, linked with
 * the plugin. Returns the exit status (0, 1 runtime error, 2 usage error).
 * Thread: main thread.
 */
XSKF_API int xskf_plugin__main(const struct xskf_plugin *p, int argc, char **argv);

/*
 * xskf_run__main() - the `xskf` command: `xskf run PLUGIN[,PLUGIN...] [options] [-- plugin
 * options]`, `xskf plugins` (list what the plugin folders hold). A PLUGIN with a '/' is a path;
 * without, a name (with or without ".so": a name still), the plugin's own (what `xskf plugins`
 * lists) or its file's, looked up in $XSKF_PLUGIN_PATH (colon-separated), next to the xskf
 * binary, and in the install's plugin folder. Returns the exit status.
 * Thread: main thread.
 */
XSKF_API int xskf_run__main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* XSKF_PLUGIN_H */

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fuzz target: the standard command line (framework/cli.c, xskf_cli__parse(), from libxskf)
 * with an app's options appended. Input: the arguments, separated by NUL bytes (argv[0] is
 * fixed), each in an allocation of its own so that ASan sees a read past one or into the
 * arguments of an earlier run.
 *  - it returns 0 or -EINVAL; the app's parse callback only gets indices of its table, with an
 *    argument exactly for the options that take one.
 *  - what it accepts is in range: interfaces (pointers into argv), queue ids, batch, duration,
 *    frame size and count, interval, CPUs (existing ones), workers (no more than --cpus gives),
 *    hugepages, backend (the memory options only with the memory backend), the frame read by
 *    --mem-frame; queues given unless 'all'.
 *  - parsing the same arguments again gives the same result: no state kept between calls.
 * Arguments naming something under /dev are skipped (--mem-frame /dev/tty would wait).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "runner/cli.h"

#include "fuzz.h"

#define MAX_ARGS 64

static const struct xskf_cli_opt app_opts[] = {
    {"size", 1, "BYTES", "an option with an argument"},
    {"imix", 0, NULL, "a flag"},
    {"pcap", 1, "FILE", "another with an argument"},
    {"loop", 0, NULL, "another flag"},
    {NULL, 0, NULL, NULL},
};
#define NR_APP_OPTS 4

struct app {
	unsigned int calls[NR_APP_OPTS];
	char *const *argv; /* the arguments, to check where optarg points */
	int argc;
	size_t bytes; /* of all arguments: -v once each at most */
};

static bool in_argv(const struct app *a, const char *s)
{
	int i;

	for (i = 0; i < a->argc; i++)
		if (s >= a->argv[i] && s <= a->argv[i] + strlen(a->argv[i]))
			return true;
	return false;
}

static int app_parse(void *ctx, int idx, const char *arg)
{
	struct app *a = ctx;

	FUZZ_ASSERT(idx >= 0 && idx < NR_APP_OPTS, "app option index %d", idx);
	FUZZ_ASSERT(!arg == !app_opts[idx].has_arg, "--%s given arg %p", app_opts[idx].name,
		    (const void *)arg);
	FUZZ_ASSERT(!arg || in_argv(a, arg), "--%s: argument outside argv", app_opts[idx].name);
	a->calls[idx]++;
	/* an app that rejects some values: the error must end the parse */
	return arg && arg[0] == 'x' ? -EINVAL : 0;
}

static const struct xskf_app_cli app_cli = {
    .sz = sizeof(app_cli),
    .summary = "fuzz",
    .opts = app_opts,
    .parse = app_parse,
};

static int quiet(enum xskf_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static long ncpu;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	xskf_set_print(quiet);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	return 0;
}

static void check_ok(const struct xskf_cli *c, const struct app *a)
{
	const struct xskf_engine_opts *eo = &c->eo;
	unsigned int i;

	FUZZ_ASSERT(c->nr_ifaces <= XSKF_MAX_PORTS, "%u interfaces", c->nr_ifaces);
	for (i = 0; i < c->nr_ifaces; i++)
		FUZZ_ASSERT(c->ifaces[i] && in_argv(a, c->ifaces[i]), "interface %u outside argv",
			    i);
	FUZZ_ASSERT(c->nr_queues <= XSKF_MAX_QUEUES, "%u queues", c->nr_queues);
	for (i = 0; i < c->nr_queues; i++)
		FUZZ_ASSERT(c->queues[i] < XSKF_MAX_QUEUES, "queue %u", c->queues[i]);
	FUZZ_ASSERT(c->all_queues || c->nr_queues, "neither all queues nor a queue id");
	FUZZ_ASSERT(!eo->batch || (eo->batch >= 1 && eo->batch <= XSKF_MAX_BATCH), "batch %u",
		    eo->batch);
	FUZZ_ASSERT(c->duration <= 1000000, "duration %u", c->duration);
	FUZZ_ASSERT(c->interval >= 1 && c->interval <= 3600, "interval %u", c->interval);
	FUZZ_ASSERT(!eo->frame_size || eo->frame_size == 2048 || eo->frame_size == 4096,
		    "frame size %u", eo->frame_size);
	FUZZ_ASSERT(!eo->frames || (eo->frames >= 64 && eo->frames <= 1u << 24), "frames %u",
		    eo->frames);
	FUZZ_ASSERT(c->nr_cpus <= XSKF_MAX_WORKERS && (!eo->cpus || c->nr_cpus),
		    "%u CPUs from '%s'", c->nr_cpus, eo->cpus ? eo->cpus : "");
	for (i = 0; i < c->nr_cpus; i++)
		FUZZ_ASSERT(c->cpus[i] >= 0 && c->cpus[i] < ncpu, "CPU %d", c->cpus[i]);
	FUZZ_ASSERT(eo->nr_workers <= XSKF_MAX_WORKERS &&
			(!eo->cpus || eo->nr_workers <= c->nr_cpus),
		    "%u workers, %u CPUs", eo->nr_workers, c->nr_cpus);
	FUZZ_ASSERT(eo->hugepages >= 0 && eo->hugepages <= XSKF_HUGEPAGES_SET(XSKF_HUGEPAGES_OFF), "hugepages %d",
		    eo->hugepages);
	FUZZ_ASSERT(eo->backend == XSKF_BACKEND_XDP || eo->backend == XSKF_BACKEND_MEMORY,
		    "backend %d", eo->backend);
	FUZZ_ASSERT((!c->mem.frames && !c->mem.frame) || eo->backend == XSKF_BACKEND_MEMORY,
		    "memory options without the memory backend");
	FUZZ_ASSERT(!c->mem.frame || (c->mem.frame == c->mem_frame && c->mem.frame_len >= 14 &&
				      c->mem.frame_len <= sizeof(c->mem_frame)),
		    "mem frame of %u bytes", c->mem.frame_len);
	FUZZ_ASSERT(c->verbose >= 0 && (size_t)c->verbose <= a->bytes, "verbose %d", c->verbose);
}

/* Everything but the pointer to the struct's own mem_frame buffer. */
static bool same_cli(const struct xskf_cli *x, const struct xskf_cli *y)
{
	struct xskf_cli a = *x, b = *y;
	unsigned int k;

	/* the frame pointers point into each struct's own buffers: compare what they say */
	if (!a.mem.frame != !b.mem.frame || !a.mem.port_frames != !b.mem.port_frames ||
	    !a.mem.port_frame_lens != !b.mem.port_frame_lens)
		return false;
	a.mem.frame = b.mem.frame = NULL;
	a.mem.port_frames = b.mem.port_frames = NULL;
	a.mem.port_frame_lens = b.mem.port_frame_lens = NULL;
	for (k = 0; k < XSKF_MAX_PORTS; k++) {
		if (!a.mem_port_frame[k] != !b.mem_port_frame[k])
			return false;
		a.mem_port_frame[k] = b.mem_port_frame[k] = NULL;
	}
	return !memcmp(&a, &b, sizeof(a));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct xskf_cli c, c2; /* 64 KiB each (a frame buffer per port): not on the stack */
	char *argv[MAX_ARGS + 2], *argv2[MAX_ARGS + 2];
	struct app a = {.argv = argv}, a2;
	size_t i, start;
	int argc = 1, rc, rc2, k;

	if (size > 4096 || memmem(data, size, "/dev", 4))
		return 0;
	argv[0] = strdup("xskf-fuzz");
	for (i = start = 0; i <= size; i++) {
		if (i < size && data[i])
			continue;
		if (argc == MAX_ARGS + 1)
			break;
		argv[argc] = malloc(i - start + 1);
		FUZZ_ASSERT(argv[argc], "malloc");
		memcpy(argv[argc], data + start, i - start);
		argv[argc][i - start] = 0;
		argc++;
		start = i + 1;
	}
	argv[argc] = NULL;
	a.argc = argc;
	a.bytes = size;
	memcpy(argv2, argv, sizeof(argv)); /* getopt_long permutes argv: the same order again */

	memset(&c, 0, sizeof(c));
	c.eo.sz = sizeof(c.eo);
	rc = xskf_cli__parse(&c, &app_cli, &a, argc, argv);
	FUZZ_ASSERT(rc == 0 || rc == -EINVAL, "rc %d", rc);
	if (!rc && !c.help)
		check_ok(&c, &a);

	/* again, from a clean struct: the same */
	memset(&c2, 0, sizeof(c2));
	c2.eo.sz = sizeof(c2.eo);
	a2 = a;
	memset(a2.calls, 0, sizeof(a2.calls));
	a2.argv = argv2;
	rc2 = xskf_cli__parse(&c2, &app_cli, &a2, argc, argv2);
	FUZZ_ASSERT(rc2 == rc, "a second parse of the same arguments returned %d, then %d", rc,
		    rc2);
	if (!rc)
		FUZZ_ASSERT(same_cli(&c, &c2) && !memcmp(a.calls, a2.calls, sizeof(a.calls)),
			    "a second parse of the same arguments gave another result");
	for (k = 0; k < argc; k++)
		free(argv2[k]);
	return 0;
}

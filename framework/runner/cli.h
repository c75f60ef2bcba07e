/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XSKF_CLI_H
#define XSKF_CLI_H

#include <stdio.h>

#include "core/mem_opts.h" /* struct xskf_mem_opts */
#include "core/engine.h"

#define XSKF_CLI_MAX_STEER 256

/* What the standard command line gives (cli.c), used by run.c. */
struct xskf_cli {
	struct xskf_engine_opts eo;
	const char *ifaces[XSKF_MAX_PORTS];
	unsigned int nr_ifaces;
	uint32_t queues[XSKF_MAX_QUEUES];
	unsigned int nr_queues;
	bool all_queues;
	int cpus[XSKF_MAX_WORKERS];
	unsigned int nr_cpus;
	uint32_t duration, interval;
	bool json, quiet, help;
	int verbose;
	/* --mem-frame: the memory backend's frame; given more than once, one per port */
	uint8_t mem_frame[XSKF_MAX_PORTS][4096];
	const void *mem_port_frame[XSKF_MAX_PORTS];
	uint32_t mem_port_len[XSKF_MAX_PORTS];
	unsigned int nr_mem_frame;
	struct xskf_mem_opts mem; /* --mem-frames and --mem-frame */
	/* --steer RULE and --steer-file FILE, in the order given (steer_cmd.c) */
	struct {
		const char *arg;
		bool file;
	} steer[XSKF_CLI_MAX_STEER];
	unsigned int nr_steer;
	bool keep_host;
};

/*
 * One line on @f: "@prog (xskf) VERSION, plugin ABI N, LIBBPF-FILE, LIBXDP-FILE", the versions it
 * runs with (xskf_version__get()). Thread: any.
 */
void xskf_cli__version(FILE *f, const char *prog);

/* Parse argv into @c. Returns 0 (c->help set if --help was printed) or -EINVAL (message printed). */
int xskf_cli__parse(struct xskf_cli *c, const struct xskf_app_cli *cli, void *app_ctx, int argc,
		    char **argv);

#endif

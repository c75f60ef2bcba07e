// SPDX-License-Identifier: BSD-2-Clause
/*
 * Prints the JSON report of an engine that was configured but never started (no root needed),
 * with interface names that need escaping-free but unusual characters, for test_json.sh to
 * parse with a real JSON parser.
 */
#include <stdio.h>

#include "runner/cli.h"
#include "runner/report.h"
#include "core/internal.h"

static void nop(void *w, struct xskf_pkt *p, unsigned int n)
{
	(void)w;
	(void)p;
	(void)n;
}

static void app_json(void *ctx, struct xskf_engine *eng, void *out)
{
	(void)ctx;
	fprintf(out, "{\"ports\": %u}", xskf_engine__nr_ports(eng));
}

int main(void)
{
	static const struct xskf_app app = { .name = "json-unit", .rx_burst = nop, .json = app_json };
	struct xskf_engine *e;

	XSKF_OPTS(xskf_engine_opts, o, .app = &app);
	e = xskf_engine__new(&o);
	if (!e || xskf_engine__add_port(e, "lo", NULL, 0) != 0)
		return 1;
	xskf_report__json(e, stdout, 1.5, 0);
	xskf_engine__destroy(e);
	return 0;
}

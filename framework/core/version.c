// SPDX-License-Identifier: BSD-2-Clause
/*
 * The versions a binary runs with: xskf's own (meson's project version, compiled in), the
 * plugin ABI of the headers it was built with, and the files of the libbpf and libxdp that the
 * dynamic loader actually mapped, which may differ from the ones it was built against: an
 * operator asking "what runs here" wants the latter. The file's name is what is said, as it
 * is: libxdp has no call that tells its version, and its file name does not always follow
 * its releases (Debian's libxdp1 1.3.1 ships libxdp.so.1.3.0).
 *
 * Built into libxskf and, alone, into xskf-trafficgen (which links no libxskf): it needs
 * nothing of the core.
 */
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "xskf.h"
#include "xskf_plugin.h"

#ifndef XSKF_VERSION
#define XSKF_VERSION "unknown"
#endif

struct lib_find {
	const char *stem; /* "/libbpf.so." */
	char *out;
	size_t len;
};

/* The mapped object whose path has @stem: the name of the file it resolves to
 * (/lib/.../libbpf.so.1 -> "libbpf.so.1.1.2"). */
static int find_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct lib_find *f = arg;
	char real[PATH_MAX];
	const char *v;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, f->stem))
		return 0;
	if (!realpath(info->dlpi_name, real))
		snprintf(real, sizeof(real), "%s", info->dlpi_name);
	v = strstr(real, f->stem);
	snprintf(f->out, f->len, "%s", v ? v + 1 : "?");
	return 1;
}

void xskf_version__get(struct xskf_version *v)
{
	struct lib_find bpf = {"/libbpf.so.", v->libbpf, sizeof(v->libbpf)};
	struct lib_find xdp = {"/libxdp.so.", v->libxdp, sizeof(v->libxdp)};

	memset(v, 0, sizeof(*v));
	snprintf(v->xskf, sizeof(v->xskf), "%s", XSKF_VERSION);
	v->plugin_abi = XSKF_PLUGIN_ABI;
	if (!dl_iterate_phdr(find_lib, &bpf))
		/* linked statically: libbpf tells its major and minor ("v1.1") */
		snprintf(v->libbpf, sizeof(v->libbpf), "libbpf %s", libbpf_version_string());
	if (!dl_iterate_phdr(find_lib, &xdp))
		snprintf(v->libxdp, sizeof(v->libxdp), "none");
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The xsk-* commands: one plugin (the source file linked with this one) behind a fixed name,
 * the same as `xskf run NAME`: `xsk-rxdrop -i eth0 -q 0` is `xskf run rxdrop -i eth0 -q 0`.
 */
#include <xskf_plugin.h>

extern const struct xskf_plugin xskf_plugin_descriptor;

int main(int argc, char **argv)
{
	return xskf_plugin__main(&xskf_plugin_descriptor, argc, argv);
}

// SPDX-License-Identifier: BSD-2-Clause
/* xskf: the plugin runner (`xskf run PLUGIN[,PLUGIN...] -i IFACE ...`, `xskf plugins`). */
#include <xskf_plugin.h>

int main(int argc, char **argv)
{
	return xskf_run__main(argc, argv);
}

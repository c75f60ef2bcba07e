// SPDX-License-Identifier: BSD-2-Clause
/*
 * A C++ plugin whose rx_burst lets an exception out (it is not noexcept, as count-l3's are):
 * the runner must still name the plugin and the callback (test_plugins.sh crash).
 */
#include <stdexcept>

#include <xskf_plugin.h>

namespace {

void on_burst(void *, struct xskf_pkt *, unsigned int n)
{
	if (n)
		throw std::runtime_error("a frame it did not expect");
}

struct xskf_app make_app() noexcept
{
	struct xskf_app a = {};

	a.name = "thrower";
	a.rx_burst = on_burst;
	return a;
}
const struct xskf_app app = make_app();

} // namespace

XSKF_PLUGIN(.name = "thrower", .app = &app);

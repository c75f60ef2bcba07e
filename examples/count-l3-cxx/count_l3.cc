// SPDX-License-Identifier: BSD-2-Clause
/*
 * count-l3: an xskf plugin written in C++, built outside the xskf tree against an installed
 * xskf. It counts frames by network protocol (IPv4, IPv6, other, VLAN tags looked through)
 * and drops them all.
 *
 *   meson setup build && ninja -C build && meson install -C build   # into the plugin folder
 *   sudo xskf run count_l3 -i eth0 -q 0
 *
 * C++ rules for plugins: the callbacks are called from C, so they must not throw (noexcept);
 * XSKF_PLUGIN() gives the descriptor C linkage; the struct xskf_app is built by a function so
 * that members left out are zero without -Wmissing-field-initializers.
 */
#include <array>
#include <cstdint>

#include <xskf_plugin.h>

namespace {

enum counter : unsigned { IPV4, IPV6, OTHER };
const char *const names[] = { "ipv4", "ipv6", "other", nullptr };

struct worker {
	uint64_t *ctr = nullptr; // the runner's array for this worker: ours to write, no one else's
};
std::array<worker, XSKF_MAX_WORKERS> workers;

counter classify(const uint8_t *d, uint32_t len) noexcept
{
	uint32_t off = 12;

	// 802.1Q and 802.1ad tags: the EtherType that matters is behind them
	while (off + 2 <= len && ((d[off] == 0x81 && d[off + 1] == 0x00) ||
				  (d[off] == 0x88 && d[off + 1] == 0xa8)))
		off += 4;
	if (off + 2 > len)
		return OTHER;
	const unsigned type = unsigned(d[off]) << 8 | d[off + 1];
	return type == 0x0800 ? IPV4 : type == 0x86dd ? IPV6 : OTHER;
}

int on_worker_init(void *, const struct xskf_worker_info *wi, void **wctx) noexcept
{
	workers[wi->id].ctr = wi->counters;
	*wctx = &workers[wi->id];
	return 0;
}

void on_burst(void *wctx, struct xskf_pkt *pkts, unsigned int n) noexcept
{
	auto *w = static_cast<worker *>(wctx);

	for (unsigned int i = 0; i < n; i++)
		w->ctr[classify(static_cast<const uint8_t *>(pkts[i].data), pkts[i].len)]++;
	// every action is XSKF_DROP already
}

struct xskf_app make_app() noexcept
{
	struct xskf_app a = {};

	a.name = "count-l3";
	a.worker_init = on_worker_init;
	a.rx_burst = on_burst;
	return a;
}
const struct xskf_app app = make_app();

} // namespace

XSKF_PLUGIN(.name = "count-l3", .app = &app, .counters = names);

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The out-of-tree plugin (examples/count-udp): xskf installed into a DESTDIR (`meson install`),
# the example built against that install alone (pkg-config libxskf from the DESTDIR, with its
# own small meson.build), then run by the installed `xskf run` on the veth test bed: 3000 UDP
# frames are counted as "udp", exactly (or dropped and counted by the kernel), none as "other".
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
dest=$(mktemp -d)
trap 'tb_cleanup; rm -rf "$dest"' EXIT
export XSKF_CTL_DIR=$dest/ctl

meson install -C "$B" --destdir "$dest/root" --no-rebuild --quiet >"$dest/install.log" 2>&1 ||
	{ cat "$dest/install.log"; fail "meson install into a DESTDIR failed"; }
pc=$(find "$dest/root" -name libxskf.pc | head -1)
xskf=$(find "$dest/root" -path '*/bin/xskf' | head -1)
[ -n "$pc" ] && [ -x "$xskf" ] || fail "no libxskf.pc or bin/xskf in the install"
for h in xskf.h xskf_plugin.h xskf_meta.h xskf_hints.h; do
	find "$dest/root" -name "$h" | grep -q . || fail "$h not installed"
done
ls "$(dirname "$xskf")/../lib/"*/xskf/plugins/rxdrop.so >/dev/null 2>&1 ||
	find "$dest/root" -name rxdrop.so | grep -q plugins || fail "rxdrop.so not in the plugin folder"
if command -v scdoc >/dev/null; then
	for m in xskf xskfctl xsk-rxdrop xsk-l2fwd xsk-tunnel xsk-txgen; do
		find "$dest/root" -path "*/man1/$m.1" | grep -q . || fail "man page $m.1 not installed"
	done
fi
ok "installed: $(realpath --relative-to="$dest/root" "$xskf"), $(realpath --relative-to="$dest/root" "$pc")"

# the example sees nothing of the source tree: only the install, through pkg-config
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest/root \
	meson setup "$dest/ex" "$S/examples/count-udp" >"$dest/setup.log" 2>&1 ||
	{ cat "$dest/setup.log"; fail "meson setup of the example failed"; }
ninja -C "$dest/ex" >"$dest/build.log" 2>&1 || { cat "$dest/build.log"; fail "the example does not build"; }
[ -f "$dest/ex/count_udp.so" ] || fail "no count_udp.so"
ok "examples/count-udp built against the install"

tb_up "xe$$"
ip netns exec "$TB_NS_DUT" "$xskf" run "$dest/ex/count_udp.so" -i "$TB_IF_DUT" -q 0 -c --cpus 1 \
	--json --quiet >"$dest/run.json" 2>"$dest/run.err" &
pid=$!
wait_line "$dest/run.err" "XDP program attached"
r0=$(q0_xdp)
gen "$GEN" -i "$TB_IF_GEN" -n 3000 --cpu 0 --rate 50000 --json >/dev/null || fail "generator"
wait_for "3000 frames at the XDP program of queue 0" ge q0_xdp $((r0 + 3000))
kill -INT $pid
wait $pid || { cat "$dest/run.err"; fail "the installed xskf exited non-zero"; }
$PY - "$dest/run.json" <<'EOPY' || fail "counts"
import json, sys
d = json.load(open(sys.argv[1]))
q = d["queues"][0]
c = d["plugins"][0]["counters"]
kd = q["kernel"]["rx_dropped"] + q["kernel"]["rx_ring_full"]
print("count-udp:", c, "received", q["rx_packets"], "kernel drops", kd)
sys.exit(0 if c["udp"] == q["rx_packets"] and c["udp"] + kd == 3000 and c["other"] == 0 else 1)
EOPY
ok "the out-of-tree plugin under the installed xskf: 3000 UDP frames, exactly"

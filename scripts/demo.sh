#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The main job on a built-in test bed, no NIC needed: two network namespaces joined by a
# 2-queue veth pair; xsk-rxdrop runs on one end (pinned to CPU 1) and the project's XDP
# live-frames generator sends 64-byte UDP from the other (CPU 0). Live stats each second, a
# summary at the end, and everything removed afterwards.
#
#   sudo scripts/demo.sh [SECONDS]      (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
[ "$(id -u)" = 0 ] || { echo "demo: run as root (sudo $0)" >&2; exit 1; }
scripts/deps.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
export XSKF_TB=xskfdemo
cleanup() {
	kill -INT "${rx:-}" 2>/dev/null || true
	wait "${rx:-}" 2>/dev/null || true
	scripts/testbed.sh down
}
trap cleanup EXIT
eval "$(scripts/testbed.sh up)"
ncpu=$(nproc)
wcpu=$((ncpu > 1 ? 1 : 0))
echo "== test bed: $TB_NS_GEN/$TB_IF_GEN  <-- veth -->  $TB_NS_DUT/$TB_IF_DUT"
echo "== xsk-rxdrop -i $TB_IF_DUT --cpus $wcpu (in $TB_NS_DUT), generator on CPU 0 for ${secs}s"
ip netns exec "$TB_NS_DUT" build/apps/xsk-rxdrop -i "$TB_IF_DUT" --cpus $wcpu \
	--duration $((secs + 2)) &
rx=$!
sleep 1
ip netns exec "$TB_NS_GEN" build/tools/xskf-trafficgen -i "$TB_IF_GEN" --cpu 0 -d "$secs" \
	--flows 16 >/tmp/xskf-demo-gen.txt
wait $rx
rx=
echo "== generator:"
cat /tmp/xskf-demo-gen.txt

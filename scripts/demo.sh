#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The main job on a built-in test bed, no NIC needed: two network namespaces joined by a
# 2-queue veth pair; xsk-rxdrop runs on one end (pinned to CPU 1) and the project's generator
# sends 64-byte UDP from the other (CPU 0): XDP live frames, or AF_XDP TX where the kernel
# refuses those (or XSKF_FEATURES_OFF=live_frames says so; the generator then says why in one
# line). Live stats each second, then the sending method and the rate it got, what the
# generator offered next to what xsk-rxdrop received, and where every frame that did not
# arrive went. Everything is removed afterwards.
#
#   scripts/demo.sh [SECONDS] [--quiet]     as root (default 10 s; --quiet: no live lines)
#
# Environment: XSKF_BUILD=dir uses that build as it is (no package install, no build step);
# XSKF_TB=prefix names the test bed (default xskfdemo).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=10
quiet=()
for a in "$@"; do
	case "$a" in
	--quiet) quiet=(--quiet) ;;
	*[!0-9.]* | "") echo "demo: usage: $0 [SECONDS] [--quiet]" >&2; exit 2 ;;
	*) secs=$a ;;
	esac
done
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null && exec sudo "$0" "$@"
	echo "demo: run as root (network namespaces and XDP need it): su -c '$0 $*'" >&2
	exit 1
fi
if [ -n "${XSKF_BUILD:-}" ]; then
	B=$XSKF_BUILD
else
	B=build
	scripts/deps.sh
	[ -d "$B" ] || meson setup "$B" >/dev/null
	ninja -C "$B" >/dev/null
fi
PY=/usr/bin/python3
export XSKF_TB=${XSKF_TB:-xskfdemo}
tmp=$(mktemp -d)
cleanup() {
	kill -INT "${rx:-}" 2>/dev/null || true
	wait "${rx:-}" 2>/dev/null || true
	tools/testbed.sh down
	rm -rf "$tmp"
}
trap cleanup EXIT
eval "$(tools/testbed.sh up)"
ncpu=$(nproc)
wcpu=$((ncpu > 1 ? 1 : 0))
echo "== test bed: $TB_NS_GEN/$TB_IF_GEN  <-- veth -->  $TB_NS_DUT/$TB_IF_DUT"
echo "== xsk-rxdrop -i $TB_IF_DUT --cpus $wcpu (in $TB_NS_DUT), generator on CPU 0 for ${secs}s"
# --json: the counters for the summary below; the live lines go to stderr, i.e. the terminal
ip netns exec "$TB_NS_DUT" "$B/apps/xsk-rxdrop" -i "$TB_IF_DUT" --cpus $wcpu --json \
	"${quiet[@]}" >"$tmp/rx.json" 2> >(tee "$tmp/rx.err" >&2) &
rx=$!
# ready when its XDP program is attached (after the sockets are in the XSKMAP)
for ((i = 0; i < 300; i++)); do
	grep -q "XDP program attached" "$tmp/rx.err" 2>/dev/null && break
	kill -0 $rx 2>/dev/null || { echo "demo: xsk-rxdrop did not start" >&2; exit 1; }
	sleep 0.1
done
grep -q "XDP program attached" "$tmp/rx.err" || { echo "demo: xsk-rxdrop not ready in 30 s" >&2; exit 1; }
ip netns exec "$TB_NS_GEN" "$B/tools/xskf-trafficgen" -i "$TB_IF_GEN" --cpus 0 -d "$secs" \
	--flows 16 --json >"$tmp/gen.json"
kill -INT $rx
rc=0
wait $rx || rc=$?
rx=
[ $rc = 0 ] || { echo "demo: xsk-rxdrop exited with status $rc" >&2; exit $rc; }
"$PY" - "$tmp/gen.json" "$tmp/rx.json" <<'EOPY'
import json, sys
g = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
q = r["queues"]
s = lambda f: sum(f(x) for x in q)
got = s(lambda x: x["rx_packets"])
offered = g["frames"]
secs = g["seconds"]
mpps = lambda n: n / secs / 1e6 if secs > 0 else 0.0
if g["method"] == "xsk":
    how = "AF_XDP TX, copy mode, queue %d" % g["xsk"]["queue"]
    calls = "%d sendto() kicks" % g["xsk"]["kicks"]
else:
    how, calls = "BPF_PROG_RUN live frames", "%d BPF_PROG_RUN calls" % g["calls"]
print(f"== sending method: {g['method']} ({how}), {g['mpps']:.3f} Mpps sent")
print(f"== offered by xskf-trafficgen: {offered:>12} frames  {mpps(offered):8.3f} Mpps  "
      f"(in {secs:.3f} s, {calls})")
print(f"== received by xsk-rxdrop:      {got:>12} frames  {mpps(got):8.3f} Mpps  "
      f"({100.0 * got / offered if offered else 0:.2f}% of offered)")
rest = [
    ("refused by veth: the dut's RX ring was full (its NAPI fell behind)", g["tx_errors"]),
    ("dropped before veth (live frames: no NAPI at the dut; AF_XDP: never completed)",
     g["lost"]),
    ("passed to the kernel stack by the XDP program (queue without a socket)",
     s(lambda x: x["program"]["passed"])),
    ("XDP redirect errors", s(lambda x: x["program"]["errors"])),
    ("dropped by the kernel's AF_XDP code: no free frame (fill ring empty) or too long",
     s(lambda x: x["kernel"]["rx_dropped"])),
    ("dropped by the kernel's AF_XDP code: xsk-rxdrop's RX ring full",
     s(lambda x: x["kernel"]["rx_ring_full"])),
]
missing = offered - got
if missing:
    print(f"== not received: {missing} frames")
    for what, n in rest:
        if n:
            print(f"   {n:>12}  {what}")
    left = missing - sum(n for _, n in rest)
    if left:
        print(f"   {left:>12}  not accounted for by any counter")
else:
    print("== every frame offered was received")
print("   (Mpps over the generator's sending time; frames counted by veth's and the kernel's counters)")
EOPY

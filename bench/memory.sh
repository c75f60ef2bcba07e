#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/memory.sh [PASSES] [FRAMES]: the UMEM on 4 KiB, 2 MiB and 1 GiB pages, side by side.
# xsk-rxdrop (hints read: every frame's meta is touched) and xsk-l2fwd macswap (--no-hints:
# every frame's header read and written, sent back) on the memory backend (--backend memory:
# the real worker loop, rings in plain memory, no kernel copy to hide the cost of a TLB miss),
# worker on CPU 1, in two set-ups:
#   big      FRAMES frames of 4096 bytes (default 131072: 512 MiB) and every ring at 65536
#            entries: 131072 frames circulate, each packet is in a 4 KiB page of its own, and a
#            frame comes back only after all the others (so does its page's TLB entry)
#   default  the default rings (2048) and UMEM (4096 frames, 8 MiB)
# Cases run interleaved (pass 1: every case, pass 2: every case, ...), PASSES times (default 5),
# and the medians are printed: ns/packet on the worker's own clock over N frames (start-up and
# tear-down left out), Mpps = 1000 / ns, and the median over the passes of 4 KiB's ns / this
# case's ns in the same pass (the machine's speed drifts between passes, less within one). Pools are reserved on CPU 1's node with
# tools/hugepages.sh and put back on exit, whatever happens. Root; not part of `meson test`.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
PASSES=${1:-5}
FRAMES=${2:-131072}
N=${XSKF_BENCH_FRAMES:-20000000}
[ "$(id -u)" = 0 ] || { echo "bench-memory: reserving hugepages needs root" >&2; exit 1; }
[ -x "$B/apps/xsk-rxdrop" ] || { echo "bench-memory: build first (XSKF_BUILD=$B)" >&2; exit 1; }
TMP=$(mktemp -d)
export XSKF_HUGE_STATE=$TMP/state
NODE=$(basename "$(ls -d /sys/devices/system/cpu/cpu1/node* 2>/dev/null | head -1)")
NODE=${NODE#node}
NODE=${NODE:-0}
POOL=/sys/devices/system/node/node$NODE/hugepages
saved=$(grep . "$POOL"/hugepages-*/nr_hugepages)
cleanup() {
	local f v
	"$SRC/tools/hugepages.sh" undo >/dev/null 2>&1 || true
	# what undo refused (pages still mapped by another process): straight to sysfs
	while IFS=: read -r f v; do
		[ "$(cat "$f")" = "$v" ] || echo "$v" >"$f"
	done <<<"$saved"
	rm -rf "$TMP"
}
trap cleanup EXIT

nr() { cat "$POOL/hugepages-$1kB/nr_hugepages"; }
umem_pages=$(((FRAMES * 4096 + (2 << 20) - 1) / (2 << 20)))
# enough 2 MiB pages for the big UMEM, with a margin: on a shared machine, other users' runs
# with --hugepages=auto take free pages while they run
"$SRC/tools/hugepages.sh" reserve 2M $(($(nr 2048) + umem_pages + 32)) --node "$NODE" >/dev/null
SIZES=(4k 2m)
if [ -d "$POOL/hugepages-1048576kB" ] &&
	"$SRC/tools/hugepages.sh" reserve 1G $(($(nr 1048576) + 1)) --node "$NODE" >"$TMP/r" 2>&1; then
	SIZES+=(1g)
else
	echo "bench-memory: no 1 GiB page on node $NODE ($(cat "$TMP/r" 2>/dev/null)): 1 GiB rows left out" >&2
fi

mem_args() {
	case $1 in
	4k) echo "--hugepages off" ;;
	2m) echo "--hugepages require --huge-size 2M" ;;
	1g) echo "--hugepages require --huge-size 1G" ;;
	esac
}
setup_args() {
	case $1 in
	big) echo "-f 4096 --frames $FRAMES --fill-ring 65536 --rx-ring 65536 --tx-ring 65536 --comp-ring 65536" ;;
	default) echo "" ;;
	esac
}
app_cmd() {
	case $1 in
	rxdrop) echo "$B/apps/xsk-rxdrop" ;;
	l2fwd) echo "$B/apps/xsk-l2fwd --no-hints" ;;
	esac
}

# one APP SETUP SIZE: ns per packet of one run (tried twice: another user may hold the pages)
one() {
	local try
	for try in 1 2; do
		# shellcheck disable=SC2046 # the argument lists are words
		$(app_cmd "$1") -i mem0 --backend memory --mem-frames "$N" --quiet --json --cpus 1 \
			$(setup_args "$2") $(mem_args "$3") >"$TMP/json" 2>"$TMP/err" &&
			$PY -c 'import json, sys; m = json.load(open(sys.argv[1]))["memory_backend"][0]; print(m["busy_ns"] / m["frames"])' "$TMP/json" &&
			return 0
		sleep 1
	done
	echo "bench-memory: $1 $2 $3 failed: $(cat "$TMP/err")" >&2
	echo nan
}

echo "worker CPU 1, node $NODE, $N frames per run, $PASSES interleaved passes; big: $FRAMES frames of 4096 bytes, rings 65536"
for p in $(seq 1 "$PASSES"); do
	line="pass $p:"
	for setup in big default; do
		for app in rxdrop l2fwd; do
			for s in "${SIZES[@]}"; do
				v=$(one $app $setup "$s")
				echo "$p $app $setup $s $v" >>"$TMP/res"
				line+=" $app/$setup/$s $(printf '%.2f' "$v")"
			done
		done
	done
	echo "$line ns"
done
$PY - "$TMP/res" <<'EOPY'
import math, statistics, sys
rows, runs = {}, {}
for l in open(sys.argv[1]):
    p, app, setup, size, ns = l.split()
    if not math.isnan(float(ns)):
        rows.setdefault((setup, app), {}).setdefault(size, []).append(float(ns))
        runs[(p, setup, app, size)] = float(ns)
print()
print("ratio: 4 KiB ns / this case's ns, the median of the ratios within each pass")
print("%-8s %-7s %-6s %9s %8s %8s  %s" % ("setup", "app", "pages", "ns/pkt", "Mpps", "ratio", "range ns"))
for (setup, app), bysize in sorted(rows.items()):
    for size in ("4k", "2m", "1g"):
        if size not in bysize:
            continue
        v = bysize[size]
        m = statistics.median(v)
        r = [runs[(p, s, a, "4k")] / runs[k] for k in runs for (p, s, a, z) in [k]
             if (s, a, z) == (setup, app, size) and (p, s, a, "4k") in runs]
        print("%-8s %-7s %-6s %9.2f %8.1f %7.2fx  %.2f-%.2f" % (setup, app, size, m, 1e3 / m,
              statistics.median(r) if r else float("nan"), min(v), max(v)))
EOPY

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/dpdk_null.sh [PASSES] - the framework's own cost beside DPDK's, both with no NIC under
# them, one core each (CPU 1): dpdk-testpmd on the net_null vdev (--no-huge, burst 64) in
# rxonly and macswap mode, next to xsk-rxdrop and xsk-l2fwd on xskf's memory backend (batch 64,
# --no-hints, UMEM on 4 KiB pages). Mpps per core of each, and the ratios xskf / testpmd, per
# pass and the median; the cases are interleaved and their order turns around every pass, so
# that a machine whose speed drifts favours no side.
#
# What each side does per packet (docs/performance.md has the discussion):
#   testpmd net_null rxonly:  the null PMD allocates a burst of mbufs from a mempool (no data
#                             written, copy=0), testpmd counts them and frees them in bulk.
#   xsk-rxdrop memory:        the worker refills the fill ring, peeks the RX ring, builds a
#                             packet view per frame, calls the app, recycles the frames; the
#                             stand-in moves fill-ring slots to the RX ring (descriptor only).
#   testpmd net_null macswap: as rxonly, then swaps the Ethernet addresses of each mbuf (a
#                             read and a write of its first cache line) and transmits (the null
#                             PMD frees them).
#   xsk-l2fwd memory:         as rxdrop, then swaps the addresses in the UMEM frame and stages
#                             it on the TX ring; the stand-in completes it, the worker reaps it.
# Needs: dpdk-testpmd (scripts/deps.sh bench). No root needed for the memory backend; testpmd
# with --no-huge runs as root here.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
PASSES=${1:-3}
N=20000000 # frames per xskf run
T=6        # seconds per testpmd run (the first stats period is dropped)
command -v dpdk-testpmd >/dev/null || { echo "bench-dpdk-null: dpdk-testpmd missing: scripts/deps.sh bench" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# testpmd MODE: median Rx-pps (Mpps) of the stats periods after the first
testpmd() {
	timeout $((T + 4)) dpdk-testpmd -l 0,1 --no-huge -m 1024 --no-pci --vdev net_null0 \
		--log-level=lib.eal:error --file-prefix "xskfbench$$" -- --forward-mode="$1" \
		--burst=64 --total-num-mbufs=16384 --nb-cores=1 --stats-period=1 \
		</dev/null 2>/dev/null >"$TMP/tp.out" || true
	$PY - "$TMP/tp.out" <<'EOPY'
import re, statistics, sys
v = [int(m.group(1)) for m in re.finditer(r"Rx-pps:\s+(\d+)", open(sys.argv[1]).read())]
v = [x for x in v if x > 0][1:]
print("%.2f" % (statistics.median(v) / 1e6) if v else "nan")
EOPY
}

# xskf APP: Mpps of the worker on CPU 1 over N frames, by its own clock
xskf() {
	"$B/apps/$1" -i mem0 --no-hints --backend memory --hugepages off --mem-frames $N \
		--cpus 1 --quiet --json 2>/dev/null | $PY -c '
import json, sys
m = json.load(sys.stdin)["memory_backend"][0]
print("%.2f" % (m["frames"] / m["busy_ns"] * 1e3))'
}

CASES=("testpmd-rxonly|testpmd rxonly" "xsk-rxdrop|xskf xsk-rxdrop"
	"testpmd-macswap|testpmd macswap" "xsk-l2fwd|xskf xsk-l2fwd")
declare -A R
for ((p = 0; p < PASSES; p++)); do
	order=("${CASES[@]}")
	if ((p % 2)); then
		order=()
		for ((i = ${#CASES[@]} - 1; i >= 0; i--)); do order+=("${CASES[$i]}"); done
	fi
	for c in "${order[@]}"; do
		read -r -a cmd <<<"${c#*|}"
		R[${c%%|*},$p]=$("${cmd[@]}")
	done
	printf 'pass %d: testpmd rxonly %s, xsk-rxdrop %s, testpmd macswap %s, xsk-l2fwd %s Mpps\n' \
		$((p + 1)) "${R[testpmd-rxonly,$p]}" "${R[xsk-rxdrop,$p]}" "${R[testpmd-macswap,$p]}" \
		"${R[xsk-l2fwd,$p]}"
done
args=()
for ((p = 0; p < PASSES; p++)); do
	args+=("${R[testpmd-rxonly,$p]}" "${R[xsk-rxdrop,$p]}" "${R[testpmd-macswap,$p]}" "${R[xsk-l2fwd,$p]}")
done
$PY - "${args[@]}" <<'EOPY'
import statistics, sys
v = [float(x) for x in sys.argv[1:]]
rows = [v[i:i + 4] for i in range(0, len(v), 4)]
med = lambda xs: statistics.median(xs)
for name, a, b in (("rxonly: xsk-rxdrop / testpmd", 1, 0), ("macswap: xsk-l2fwd / testpmd", 3, 2)):
    # a pass where one side gave no rate (testpmd printed no stats: "nan") is left out, and said
    ok = [r for r in rows if r[a] == r[a] and r[b] == r[b] and r[b] > 0]
    if not ok:
        print("%-30s no pass gave both rates" % name)
        continue
    ratios = [r[a] / r[b] for r in ok]
    print("%-30s median %.2f  (per pass %s)  Mpps per core: xskf %.2f, testpmd %.2f%s" % (
        name, med(ratios), " ".join("%.2f" % x for x in ratios), med([r[a] for r in ok]),
        med([r[b] for r in ok]),
        "  (%d of %d passes without a rate left out)" % (len(rows) - len(ok), len(rows))
        if len(ok) < len(rows) else ""))
EOPY

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/xdp_prog.sh [PASSES] [REPEAT] - what the xskf XDP program itself costs per frame, for
# each variant of its rodata knobs (no hints, each hint alone, all hints, steering), without
# veth's copy around it: BPF_PROG_TEST_RUN with REPEAT runs over fixed frames (IPv4 UDP 60 B,
# QinQ IPv6 TCP, VXLAN with inner IPv4 TCP), ns per frame from the kernel's own duration
# (tests/bpf/bench_prog.c, built by meson as bench-xdp-prog). PASSES runs of the whole table
# (default 3), each the median of 7 calls per cell; the table printed is the median per cell
# over the passes, and the spread. The device-bound variant (driver hints through kfuncs)
# cannot be test-run: the kfunc calls are in no row. The last two rows are the "no hints"
# program behind libxdp's dispatcher (xskf's default attach, docs/operations.md): alone in it,
# and second behind a program that passes every frame; "failed" on a kernel that refuses
# freplace programs (this project's test machine). Root.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
PASSES=${1:-3}
REPEAT=${2:-1000000}
T=$B/tests/bpf/bench-xdp-prog
[ -x "$T" ] || { echo "bench/xdp_prog.sh: $T missing: build first (ninja -C $B)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench/xdp_prog.sh: needs root (BPF_PROG_TEST_RUN)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ((p = 1; p <= PASSES; p++)); do
	"$T" "$REPEAT" 7 >"$TMP/p$p"
done
$PY - "$TMP"/p* <<'EOPY'
import statistics, sys
tabs = []
for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    head = lines[0]
    rows = [l for l in lines[3:] if l.startswith("|")]
    tabs.append([[c.strip() for c in r.strip("|").split("|")] for r in rows])
print(head.replace("median of 7", "median of 7 per pass, median of %d passes" % len(tabs)))
print("\n".join(open(sys.argv[1]).read().splitlines()[1:3]))
for i, row in enumerate(tabs[0]):
    cells = []
    for k in range(1, len(row)):
        v = [float(t[i][k]) for t in tabs if t[i][k] != "failed"]
        if not v:
            cells.append("failed")
        elif len(v) > 1:
            cells.append("%.0f (%.0f-%.0f)" % (statistics.median(v), min(v), max(v)))
        else:
            cells.append("%.0f" % v[0])
    print("| %s | %s |" % (row[0], " | ".join(cells)))
EOPY

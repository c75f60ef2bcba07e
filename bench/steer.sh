#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/steer.sh [ROUNDS] - the XDP program's cost per frame with 0, 1, 16 and 1000 steering
# rules, measured by the kernel: BPF_PROG_RUN of the real program with a repeat count of one
# million (tests/bpf/bench_steer.c; the kernel times the loop and reports ns per run). The
# rules are "udp dport P pass" with the default pass, so every frame leaves the program the
# same way (XDP_PASS) and the rows differ only by the classification. Two frames per row:
#   match  UDP to the last rule's port (the rule at position N-1)
#   none   UDP to a port no rule names (the default)
# Each cell is the median of ROUNDS (default 5) runs, each the best of 5 repeats of 10^6 frames;
# the rows are interleaved (0, 1, 16, 1000, 0, 1, ...) so that load moves them alike. Root.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
ROUNDS=${1:-5}
[ "$(id -u)" = 0 ] || { echo "bench-steer: needs root (BPF_PROG_RUN)" >&2; exit 77; }
[ -x "$B/tests/bpf/bench_steer" ] || { echo "bench-steer: build first (ninja -C $B)" >&2; exit 1; }
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
for r in $(seq "$ROUNDS"); do
	for n in 0 1 16 1000; do
		"$B/tests/bpf/bench_steer" "$n" 1000000 5 >>"$TMP"
	done
done
/usr/bin/python3 - "$TMP" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    w = line.split()
    rows.setdefault(int(w[1]), []).append((float(w[3]), float(w[5])))
base = statistics.median(m for m, _ in rows[0])
print("rules  match ns/frame  none ns/frame  (over 0 rules: match, none)")
for n in sorted(rows):
    m = statistics.median(x for x, _ in rows[n])
    z = statistics.median(y for _, y in rows[n])
    print("%5d  %14.1f  %13.1f  (+%.1f, +%.1f)" % (n, m, z, m - base, z - base))
PY

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/trafficgen.sh [RUNS [SECONDS]] - how fast xskf-trafficgen sends on the test bed.
#
# Brings up a test bed (prefix $XSKF_TB, default "xbench"), puts the XDP_DROP sink on the dut
# end (the cheapest receiver: this measures the generator plus veth, not an application), and
# runs the generator pinned to CPU 0 for each case RUNS times (default 5) of SECONDS (default 2),
# interleaving the cases so that drift of the machine hits them all alike. Prints the median
# and the range of Mpps per case. Needs root and a build ($XSKF_BUILD, default ./build).
# Not part of `meson test`: the numbers depend on the machine and what else runs on it.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export XSKF_BUILD=${XSKF_BUILD:-$SRC/build}
export XSKF_TB=${XSKF_TB:-xbench}
RUNS=${1:-5}
SECS=${2:-2}
GEN="$XSKF_BUILD/tools/xskf-trafficgen"
TB="$SRC/tools/testbed.sh"

[[ $EUID -eq 0 ]] || { echo "bench-trafficgen: must be run as root" >&2; exit 1; }
[[ -x $GEN ]] || { echo "bench-trafficgen: $GEN not built" >&2; exit 1; }

trap '"$TB" down' EXIT
eval "$("$TB" up)"
"$TB" sink drop

CASES=(
	"-s 60"
	"-s 60 --flows 16"
	"-6 -s 62"
	"-s 60 -t"
	"-s 60 --batch 256"
	"-s 512"
	"-s 1514"
)
declare -A results

for ((r = 0; r < RUNS; r++)); do
	for c in "${CASES[@]}"; do
		# shellcheck disable=SC2086
		out=$(ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" --cpus 0 -d "$SECS" --json $c)
		results[$c]+="$out"$'\n'
	done
done

printf '%-22s %8s %8s %8s %10s %9s\n' "case (cpu 0)" "median" "min" "max" "tx_errors" "Gbit/s"
for c in "${CASES[@]}"; do
	/usr/bin/python3 -c '
import json, statistics, sys
runs = [json.loads(l) for l in sys.stdin if l.strip()]
m = [r["mpps"] for r in runs]
g = statistics.median(r["gbps"] for r in runs)
e = sum(r["tx_errors"] + r["lost"] for r in runs)
print("%-22s %8.2f %8.2f %8.2f %10d %9.2f" % (sys.argv[1], statistics.median(m), min(m), max(m), e, g))
' "$c" <<<"${results[$c]}"
done
echo "Mpps = frames put into the dut's RX rings per second (veth counters), $RUNS runs of ${SECS}s"

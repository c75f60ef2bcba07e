#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/trafficgen_calls.sh [RUNS [SECONDS]] - does xskf-trafficgen's call sizing reach the rate
# of the set-up? Each BPF_PROG_RUN call has a fixed cost (about 24 ms on some VMs, microseconds on
# others) on top of its cost per frame, so the generator sizes its calls from how long they
# take (docs/trafficgen.md). Side by side on one test bed with the XDP_DROP sink at the dut,
# interleaved RUNS times (default 5):
#   sized       xskf-trafficgen -d SECONDS (default 3): the generator as tests and benchmarks run it
#   one-call    a single call that makes the same number of frames (--chunk N -n N): the fixed
#               cost paid once, the best this set-up can do
#   call-64k    a single call of 65536 frames: what one call of that size reaches
# Prints medians (Mpps, ns/frame) and the ratios; exits 1 if sized / one-call is below 0.9.
# Needs root and a build ($XSKF_BUILD, default ./build). Not part of `meson test`.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export XSKF_BUILD=${XSKF_BUILD:-$SRC/build}
export XSKF_TB=${XSKF_TB:-xbcall$$}
RUNS=${1:-5}
SECS=${2:-3}
GEN="$XSKF_BUILD/tools/xskf-trafficgen"
TB="$SRC/tools/testbed.sh"
PY=/usr/bin/python3

[[ $EUID -eq 0 ]] || { echo "bench-trafficgen-calls: run as root" >&2; exit 1; }
[[ -x $GEN ]] || { echo "bench-trafficgen-calls: $GEN not built (ninja -C build)" >&2; exit 1; }

res=$(mktemp)
trap '"$TB" down; rm -f "$res"' EXIT
eval "$("$TB" up)"
"$TB" sink drop
gen() { ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" --cpus 0 --json "$@"; }
field() { "$PY" -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# the frame count of one-call: what a first sized run makes (the runs below are measured)
n=$(field "$(gen -d "$SECS")" sent)
n=$((n < 67108864 ? n : 67108864)) # one call makes 2^26 frames at most (--chunk)
one() { # one CASE: a run of that case, recorded
	local out
	case $1 in
	sized) out=$(gen -d "$SECS") ;;
	one-call) out=$(gen -n "$n" --chunk "$n") ;;
	call-64k) out=$(gen -n 65536 --chunk 65536) ;;
	esac
	echo "$1 $(field "$out" mpps) $(field "$out" calls) $(field "$out" sent)" >>"$res"
	printf ' %s %s Mpps (%s calls)' "$1" "$(field "$out" mpps)" "$(field "$out" calls)"
}
for ((r = 1; r <= RUNS; r++)); do
	# the order turns around every run, so that a drift of the machine hits all cases alike
	printf 'run %d:' "$r"
	if ((r % 2)); then
		one sized; one one-call; one call-64k
	else
		one call-64k; one one-call; one sized
	fi
	echo
done
echo "(one-call: $n frames in one BPF_PROG_RUN)"

"$PY" - "$res" <<'EOPY'
import statistics, sys
rows = {}
for l in open(sys.argv[1]):
    k, mpps, calls, sent = l.split()
    rows.setdefault(k, []).append(float(mpps))
med = {k: statistics.median(v) for k, v in rows.items()}
print()
print("%-10s %12s %10s %10s" % ("case", "median Mpps", "ns/frame", "runs"))
for k in ("sized", "one-call", "call-64k"):
    print("%-10s %12.3f %10.1f %10d" % (k, med[k], 1e3 / med[k] if med[k] else 0, len(rows[k])))
r1 = med["sized"] / med["one-call"]
r2 = med["sized"] / med["call-64k"]
print("ratio sized / one-call (same frames, one fixed cost): %.3f" % r1)
print("ratio sized / call-64k (one 65536-frame call):        %.3f" % r2)
ok = r1 >= 0.9 and r2 >= 0.9
print("PASS: sized calls reach >= 0.9 of a single large call" if ok else
      "FAIL: sized calls below 0.9 of a single large call")
sys.exit(0 if ok else 1)
EOPY

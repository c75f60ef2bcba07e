#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/compare.sh BASE [CASES] - the receive path of commit BASE against this tree's, side by
# side: BASE is built in a git worktree of its own (its own build folder, both removed at the
# end), then bench/rxdrop.sh runs every case twice per pass, once with BASE's receiver
# (NAME@base) and once with this build's, on the same veth bed with the same generator, the
# order turned around every pass. Run it before a change to the data path lands: the machine's
# rate moves between runs, only a ratio of one run counts.
#
#   bench/compare.sh BASE [CASES]          (as root; build this tree first)
#
# CASES: 'NAME OPTIONS;NAME OPTIONS;...' as XSKF_BENCH_CASES of bench/rxdrop.sh (xsk-rxdrop
# with OPTIONS; NAME refloop is tools/xsk-refloop, the minimal libxdp loop). Default:
# 'hints-off --no-hints;refloop' (refloop runs once per pass, this build's: the loop is the same
# in both, the reference each build is compared with). XSKF_BENCH_SECS (5) and XSKF_BENCH_PASSES (3) set the length.
# Printed per case: the medians of BASE and HEAD in Mpps and ns/packet, and HEAD / BASE as the
# median of the per-pass ratios (the two ran seconds apart), with each pass's. Before the bed,
# the XDP program alone: ns per frame of both builds' xskf_redirect (BPF_PROG_TEST_RUN, no
# hints, no rules; tests/bpf/prog_ns.c, 31 interleaved rounds), and of libxdp's own program
# (the refloop's: one bpf_redirect_map() call) beside them: in veth copy mode the program runs
# on the sender's CPU, so its ns are the rate's (XSKF_BENCH_PROG=0 leaves it out).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
BASE=${1:-}
CASES=${2:-"hints-off --no-hints;refloop"}
SECS=${XSKF_BENCH_SECS:-5}
PASSES=${XSKF_BENCH_PASSES:-3}

[[ -n $BASE ]] || { echo "usage: bench/compare.sh BASE [CASES] (BASE: a commit)" >&2; exit 2; }
rev=$(git -C "$SRC" rev-parse --verify -q "$BASE^{commit}") ||
	{ echo "bench-compare: '$BASE' is not a commit of $SRC: give a hash or a branch" >&2; exit 2; }
[[ $EUID -eq 0 ]] || { echo "bench-compare: needs root (the veth bed)" >&2; exit 1; }
[[ -x $B/apps/xsk-rxdrop && -x $B/tools/xsk-refloop && -x $B/tests/bpf/prog-ns ]] ||
	{ echo "bench-compare: build this tree first (ninja -C $B)" >&2; exit 1; }
[[ $CASES != *@* ]] || { echo "bench-compare: a case name cannot contain '@'" >&2; exit 2; }

TMP=$(mktemp -d)
cleanup() {
	git -C "$SRC" worktree remove --force "$TMP/src" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
echo "bench-compare: building $BASE (${rev:0:12}) in $TMP" >&2
git -C "$SRC" worktree add -q --detach "$TMP/src" "$rev"
meson setup "$TMP/build" "$TMP/src" >"$TMP/setup.log" 2>&1 ||
	{ tail -20 "$TMP/setup.log" >&2; echo "bench-compare: meson setup of $BASE failed" >&2; exit 1; }
ninja -C "$TMP/build" apps/xsk-rxdrop tools/xsk-refloop bpf/xskf_redirect.bpf.o \
	>"$TMP/build.log" 2>&1 ||
	{ tail -20 "$TMP/build.log" >&2; echo "bench-compare: build of $BASE failed" >&2; exit 1; }

if [[ ${XSKF_BENCH_PROG:-1} != 0 ]]; then
	# libxdp's own program (the refloop's: one bpf_redirect_map() call) as the floor
	ref=$(pkg-config --variable=libdir libxdp 2>/dev/null)/bpf/xsk_def_xdp_prog.o
	[[ -f $ref ]] && ref="$ref:xsk_def_prog" || ref=
	echo "XDP program alone, ns per frame (median, min-max of 31 rounds of 2M runs, interleaved):"
	"$B/tests/bpf/prog-ns" xskf_redirect 2000000 31 "$TMP/build/bpf/xskf_redirect.bpf.o" \
		"$B/bpf/xskf_redirect.bpf.o" ${ref:+"$ref"} |
		awk -v base="$BASE" '{ printf "  %-7s %6.2f ns (%.2f-%.2f)\n",
			NR == 1 ? base : NR == 2 ? "HEAD" : "libxdp", $2, $3, $4 }'
fi

# every case twice: BASE's right before HEAD's (the order turns around every pass); refloop
# once, HEAD's: the same loop in both (the reference each is compared with)
both=""
IFS=';' read -r -a cs <<<"$CASES"
for c in "${cs[@]}"; do
	name=${c%% *} opts=
	[[ $c == *" "* ]] && opts=" ${c#* }"
	[[ $name == refloop ]] || both+="${both:+;}$name@base$opts"
	both+="${both:+;}$name$opts"
done
: >"$TMP/raw"
XSKF_BENCH_RAW=$TMP/raw XSKF_BENCH_BASE_BUILD=$TMP/build XSKF_BENCH_CASES=$both XSKF_BUILD=$B \
	"$SRC/bench/rxdrop.sh" "$SECS" "$PASSES"
echo
echo "bench-compare: BASE $BASE (${rev:0:12}) vs HEAD $(git -C "$SRC" rev-parse --short HEAD)$(
	git -C "$SRC" diff --quiet HEAD -- 2>/dev/null || echo ' + uncommitted changes'), $PASSES passes of $SECS s, interleaved"
$PY - "$TMP/raw" "${cs[@]%% *}" <<'EOPY'
import statistics, sys
rows = {}
for l in open(sys.argv[1]):
    k, mpps, _ = l.split()
    rows.setdefault(k, []).append(float(mpps))
print(f"{'case':<16} {'BASE Mpps':>9} {'ns/pkt':>7} {'HEAD Mpps':>9} {'ns/pkt':>7}  HEAD/BASE (per pass)")
for name in sys.argv[2:]:
    if name == "refloop":
        r = rows.get(name, [])
        if r:
            m = statistics.median(r)
            print(f"{name:<16} {'':9} {'':7} {m:9.2f} {1e3 / m if m else 0:7.1f}  (the reference, one loop)")
        continue
    b, h = rows.get(name + "@base", []), rows.get(name, [])
    if not b or not h:
        print(f"{name:<16} (no rows: the case did not run)")
        continue
    mb, mh = statistics.median(b), statistics.median(h)
    per = [y / x for x, y in zip(b, h) if x]
    ns = lambda m: f"{1e3 / m:7.1f}" if m else "      -"
    print(f"{name:<16} {mb:9.2f} {ns(mb)} {mh:9.2f} {ns(mh)}  "
          f"{statistics.median(per) if per else 0:.3f} ({' '.join(f'{r:.2f}' for r in per)})")
# each build against the minimal loop of the same pass, when it ran: the issue's own figure
if "refloop" in rows:
    for name in sys.argv[2:]:
        if name == "refloop" or name not in rows:
            continue
        for tag in ("@base", ""):
            a, r = rows.get(name + tag, []), rows["refloop"]
            per = [x / y for x, y in zip(a, r) if y]
            if per:
                print(f"{name + (tag or '@head')} / refloop: {statistics.median(per):.3f}"
                      f" (per pass {' '.join(f'{x:.2f}' for x in per)})")
EOPY

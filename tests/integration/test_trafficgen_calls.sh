#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# How xskf-trafficgen splits its work into BPF_PROG_RUN calls (docs/trafficgen.md), on the test
# bed with the XDP_DROP sink at the dut. Nothing here depends on the machine's speed:
#  - --chunk N makes calls of exactly N frames: -n 100000 --chunk 30000 is 4 calls, 100000 frames;
#  - sized calls grow: 3,000,000 frames take far fewer calls than at the first size (16384
#    frames a call would need 184), and the size settled on is larger than the first;
#  - --rate paces: 10000 frames at 20000/s take at least 0.5 s, and exactly 10000 are made;
#  - --count stays exact whatever the sizing: frames == sent + tx_errors + lost == N.
# Root; exit 77 to skip.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root
# the sizing of BPF_PROG_RUN calls is the live-frames method's; AF_XDP has no such calls
[[ ${XSKF_FEATURES_OFF:-} =~ (^|[ ,])live_frames($|[ ,]) ]] &&
	skip "BPF_PROG_RUN call sizing: live frames forced off by XSKF_FEATURES_OFF"
tb_up "tgc$$"
"$S/tools/testbed.sh" sink drop
g() { gen "$GEN" -i "$TB_IF_GEN" --json "$@"; }
jv() { $PY -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
[[ $(jv "$(g -n 1)" method) == live ]] ||
	skip "BPF_PROG_RUN call sizing: this kernel refuses live-frame test runs"
exact() { # exact OUT N: the generator made N frames and accounted for each
	local f s e l
	f=$(jv "$1" frames) s=$(jv "$1" sent) e=$(jv "$1" tx_errors) l=$(jv "$1" lost)
	[[ $f -eq $2 && $((s + e + l)) -eq $2 ]] || fail "frames $f, sent $s + errors $e + lost $l != $2"
}

out=$(g -n 100000 --chunk 30000)
exact "$out" 100000
[[ $(jv "$out" calls) -eq 4 ]] || fail "--chunk 30000 for 100000 frames: $(jv "$out" calls) calls, expected 4"
ok "--chunk 30000: 4 calls for 100000 frames"

out=$(g -n 3000000)
exact "$out" 3000000
calls=$(jv "$out" calls) chunk=$(jv "$out" chunk)
[[ $calls -lt 60 ]] || fail "sized calls did not grow: $calls calls for 3000000 frames"
[[ $chunk -gt 16384 ]] || fail "sized calls did not grow: settled on $chunk frames"
ok "sized calls: $calls calls for 3000000 frames, $chunk frames a call at the end"

out=$(g -n 10000 --rate 20000)
exact "$out" 10000
$PY -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.49 else 1)' "$(jv "$out" seconds)" ||
	fail "--rate 20000 sent 10000 frames in $(jv "$out" seconds) s, faster than the rate"
ok "--rate 20000: 10000 frames in $(jv "$out" seconds) s"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The memory backend (--backend memory) runs the real worker loop with exact accounting, no root:
#  - xsk-rxdrop: every one of --mem-frames N frames is received and dropped; census adds up;
#  - xsk-l2fwd: all N frames are sent back and completed (tx_packets == N);
#  - 8 sockets on one worker and batch 16: the frames add up over the sockets;
#  - two workers: each gets its N frames;
#  - bad input: --mem-frames without --backend memory, a frame file too short, -B with memory.
set -euo pipefail
B=${XSKF_BUILD:?XSKF_BUILD not set (run through meson test)}
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

run() { # run OUT CMD...: the JSON document of one run
	local out=$1
	shift
	"$@" --backend memory --quiet --json >"$out" 2>"$out.err" || { cat "$out.err" >&2; fail "$* exited non-zero"; }
}
jv() { $PY -c "import json, sys; d = json.load(open(sys.argv[1])); q = d['queues']; print(repr(($2)))" "$1"; }

run "$TMP/a" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 100000
[ "$(jv "$TMP/a" 'sum(x["rx_packets"] for x in q), sum(x["drop_app"] for x in q), d["census_ok"], d["backend"]')" = \
	"(100000, 100000, True, 'memory')" ] || fail "rxdrop: $(jv "$TMP/a" 'q')"
echo "ok - rxdrop: 100000 frames received and dropped, census ok"

run "$TMP/b" "$B/apps/xsk-l2fwd" -i mem0 --mem-frames 100000 --no-hints
[ "$(jv "$TMP/b" 'q[0]["rx_packets"], q[0]["tx_packets"], q[0]["drop_app"], d["census_ok"]')" = \
	"(100000, 100000, 0, True)" ] || fail "l2fwd: $(jv "$TMP/b" 'q')"
echo "ok - l2fwd: 100000 frames received, sent back and completed"

run "$TMP/c" "$B/apps/xsk-rxdrop" -i mem0 -q 0 -q 1 -q 2 -q 3 -q 4 -q 5 -q 6 -q 7 --batch 16 \
	--mem-frames 50000
[ "$(jv "$TMP/c" 'len(q), sum(x["rx_packets"] for x in q), min(x["rx_packets"] for x in q) > 0, d["census_ok"]')" = \
	"(8, 50000, True, True)" ] || fail "8 sockets: $(jv "$TMP/c" 'q')"
echo "ok - 8 sockets, batch 16: 50000 frames over all of them"

run "$TMP/d" "$B/apps/xsk-rxdrop" -i mem0 -q 0 -q 1 --workers 2 --mem-frames 30000
[ "$(jv "$TMP/d" 'sorted(x["rx_packets"] for x in q), [m["busy_ns"] > 0 for m in d["memory_backend"]]')" = \
	"([30000, 30000], [True, True])" ] || fail "2 workers: $(jv "$TMP/d" 'q')"
echo "ok - 2 workers: 30000 frames each"

expect_usage() { # expect_usage PATTERN CMD...: exit 2 and a one-line message matching PATTERN
	local pat=$1 rc=0
	shift
	"$@" >/dev/null 2>"$TMP/err" || rc=$?
	[ $rc -ne 0 ] || fail "$* succeeded"
	grep -q -- "$pat" "$TMP/err" || fail "$*: message '$(cat "$TMP/err")' lacks '$pat'"
	echo "ok - $* -> exit $rc: $(head -1 "$TMP/err")"
}
expect_usage "need --backend memory" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 10
printf 'short' >"$TMP/short"
expect_usage "14 to" "$B/apps/xsk-rxdrop" -i mem0 --backend memory --mem-frame "$TMP/short"
expect_usage "busy polling" "$B/apps/xsk-rxdrop" -i mem0 --backend memory -B --mem-frames 10

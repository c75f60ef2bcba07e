#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The memory backend (--backend memory) runs the real worker loop with exact accounting, no root:
#  - xsk-rxdrop: every one of --mem-frames N frames is received and dropped; census adds up;
#  - xsk-l2fwd: all N frames are sent back and completed (tx_packets == N);
#  - 8 sockets on one worker and batch 16: the frames add up over the sockets;
#  - two workers: each gets its N frames;
#  - the RX hints in each of their three ways (data_meta, headroom, userspace), counted;
#  - bad input: --mem-frames without --backend memory, a frame file too short, -B with memory,
#    a --hints-in the (forced) kernel refuses, a --hints-in word that is none.
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

# a frame per port (the tunnel): inner frames on the access port are encapsulated onto the
# underlay, VXLAN frames on the underlay decapsulated onto the access port, exactly
cat >"$TMP/tun.conf" <<EOC
local 198.51.100.1
nexthop-mac 02:54:00:00:00:20
vni 100 remote 198.51.100.2 mac 02:54:00:00:00:30
EOC
INNER=02540000003002540000000108004500002e000100004011f6bac0000201c000020204000009001a3b71787878787878787878787878787878787878
OUTER=0254000000110254000000200800450000600001000040112622c6336402c6336401c00012b5004c00000800000000006400$INNER
$PY -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$TMP/inner" $INNER
$PY -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$TMP/outer" $OUTER
run "$TMP/e" "$B/apps/xsk-tunnel" -i mem0 -i mem1 --config "$TMP/tun.conf" --mem-frames 20000 \
	--mem-frame "$TMP/inner" --mem-frame none
[ "$(jv "$TMP/e" '[(x["port"], x["rx_packets"], x["tx_packets"]) for x in q], d["app_stats"]["encap"], d["app_stats"]["decap"]')" = \
	"([('mem0', 20000, 0), ('mem1', 0, 20000)], 20000, 0)" ] || fail "tunnel encap: $(jv "$TMP/e" 'q')"
echo "ok - per-port frames: 20000 inner frames on mem0 encapsulated onto mem1, none on mem1"
run "$TMP/f" "$B/apps/xsk-tunnel" -i mem0 -i mem1 --config "$TMP/tun.conf" --mem-frames 20000 \
	--mem-frame none --mem-frame "$TMP/outer"
[ "$(jv "$TMP/f" '[(x["port"], x["rx_packets"], x["tx_packets"]) for x in q], d["app_stats"]["decap"], d["app_stats"]["encap"]')" = \
	"([('mem0', 0, 20000), ('mem1', 20000, 0)], 20000, 0)" ] || fail "tunnel decap: $(jv "$TMP/f" 'q')"
echo "ok - per-port frames: 20000 VXLAN frames on mem1 decapsulated onto mem0"

# Chains of buffers (multi-buffer AF_XDP, --mem-segs): counted by frame, bytes of every buffer,
# the census by buffer; a burst of 4 shorter than a chain of 6 (a chain cut at the peek's end is
# held back, never handed over half); a chain of 19 refused on TX (18 at most, drop_tx); one of
# 49 dropped as too long (more than 48); all exact at exit.
chain() { # chain APP SEGS N [ARGS...]: "rx rx_bytes tx chains drop_app drop_long drop_tx census"
	local app=$1 segs=$2 n=$3
	shift 3
	run "$TMP/g" "$B/apps/xsk-$app" -i mem0 --no-hints --mem-frames "$n" --mem-segs "$segs" "$@"
	jv "$TMP/g" 'q[0]["rx_packets"], q[0]["rx_bytes"], q[0]["tx_packets"], q[0]["chains"]["rx"], q[0]["drop_app"], q[0]["chains"]["drop_long"], q[0]["chains"]["drop_tx"], d["census_ok"] and q[0]["reconciled"]'
}
[ "$(chain rxdrop 3 30000)" = "(30000, 5400000, 0, 30000, 30000, 0, 0, True)" ] || fail "rxdrop, chains of 3: $(jv "$TMP/g" 'q')"
[ "$(chain l2fwd 5 30000)" = "(30000, 9000000, 30000, 30000, 0, 0, 0, True)" ] || fail "l2fwd, chains of 5: $(jv "$TMP/g" 'q')"
[ "$(chain l2fwd 6 10000 --batch 4)" = "(10000, 3600000, 10000, 10000, 0, 0, 0, True)" ] || fail "l2fwd, batch 4, chains of 6: $(jv "$TMP/g" 'q')"
[ "$(chain l2fwd 18 5000 --batch 1)" = "(5000, 5400000, 5000, 5000, 0, 0, 0, True)" ] || fail "l2fwd, batch 1, chains of 18: $(jv "$TMP/g" 'q')"
[ "$(chain l2fwd 19 5000)" = "(5000, 5700000, 0, 5000, 0, 0, 5000, True)" ] || fail "l2fwd, chains of 19: $(jv "$TMP/g" 'q')"
[ "$(chain rxdrop 49 2000)" = "(0, 0, 0, 0, 0, 2000, 0, True)" ] || fail "rxdrop, chains of 49: $(jv "$TMP/g" 'q')"
echo "ok - chains of 3, 5, 6 (batch 4), 18 (batch 1) exact; 19 refused on TX (drop_tx), 49 dropped as too long (drop_long); census exact"
run "$TMP/h" "$B/apps/xskf" run filter,l2fwd -i mem0 --no-hints --mem-frames 3000 --mem-segs 3 -- --port 10
[ "$(jv "$TMP/h" 'q[0]["rx_packets"], q[0]["tx_packets"], q[0]["chains"]["rx"], d["census_ok"]')" = "(3000, 3000, 3000, True)" ] ||
	fail "filter,l2fwd with chains: $(jv "$TMP/h" 'q')"
echo "ok - a chain of plugins that all take chains (filter,l2fwd): 3000 chains of 3 sent back"
run "$TMP/i" "$B/apps/xsk-tunnel" -i mem0 -i mem1 --config "$TMP/tun.conf" --mem-frames 20000 \
	--mem-frame "$TMP/inner" --mem-frame none --mem-segs 3
[ "$(jv "$TMP/i" '[(x["port"], x["rx_packets"], x["tx_packets"], x["tx_bytes"]) for x in q], d["app_stats"]["encap"], d["census_ok"]')" = \
	"([('mem0', 20000, 0, 0), ('mem1', 0, 20000, 4600000)], 20000, True)" ] || fail "tunnel encap of chains: $(jv "$TMP/i" 'q')"
echo "ok - the tunnel encapsulates 20000 chains of 3 (180-byte inner frames, 230 bytes out)"

# The three ways of the RX hints (docs/hints.md), on the framework's own RX path: the meta the
# stand-in wrote in front of each frame (data_meta), carried as the frame's first bytes (the
# headroom, adjust_meta forced off), or none written, the RX path computing it (userspace, both
# adjust helpers forced off, or --hints-in). Each: every frame with a meta, its hash in software.
ways() { # ways OUT: hints_in, frames, with a meta, without, hash_sw
	jv "$1" 'd["hints_in"], sum(x["rx_packets"] for x in q), d["app_stats"]["ptype"], d["app_stats"]["no_meta"], d["app_stats"]["hash_sw"]'
}
# each way's own switches, whatever the suite forces (XSKF_FEATURES_OFF of a restricted run)
XSKF_FEATURES_OFF= run "$TMP/w1" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 20000
XSKF_FEATURES_OFF=adjust_meta run "$TMP/w2" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 20000
XSKF_FEATURES_OFF=adjust_meta,adjust_head run "$TMP/w3" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 20000
run "$TMP/w4" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 20000 --hints-in userspace
for w in "1 data_meta" "2 headroom" "3 userspace" "4 userspace"; do
	[ "$(ways "$TMP/w${w% *}")" = "('${w#* }', 20000, 20000, 0, 20000)" ] ||
		fail "hints in ${w#* }: $(ways "$TMP/w${w% *}")"
done
for w in 3 4; do
	[ "$(grep -c "RX hints: computed in userspace" "$TMP/w$w.err")" = 1 ] || fail "the userspace line not said once"
done
echo "ok - hints in data_meta, the headroom and userspace: 20000 frames each, every one with its meta"
# multi-buffer frames (rx_take_sg()): the meta from each frame's first buffer
run "$TMP/w6" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 3000 --mem-segs 3 --hints-in userspace
[ "$(ways "$TMP/w6")" = "('userspace', 3000, 3000, 0, 3000)" ] || fail "userspace, chains of 3: $(ways "$TMP/w6")"
echo "ok - userspace hints on chains of 3 buffers: 3000 frames, each with its meta"
# userspace: the stand-in writes no meta, the RX path computes what the app reads: a plugin
# reading the hash only gets a meta without the parse on every frame (the stand-in's own would
# carry it)
if [ -n "${XSKF_TEST_PLUGINS:-}" ]; then
	run "$TMP/w5" "$B/apps/xskf" run "$XSKF_TEST_PLUGINS/hint_check.so" -i mem0 --mem-frames 5000 \
		--hints-in userspace -- --read hash
	[ "$(jv "$TMP/w5" '[d["plugins"][0]["counters"][k] for k in ("frames", "meta", "noparse", "other_fields")]')" = \
		"[5000, 5000, 5000, 0]" ] || fail "userspace, hash only: $(jv "$TMP/w5" 'd["plugins"][0]["counters"]')"
	echo "ok - userspace hints on the memory backend: the RX path's meta (5000 frames, no parse: the app reads the hash only)"
fi
expect_usage() { # expect_usage PATTERN CMD...: exit 2 and a one-line message matching PATTERN (the whole line)
	local pat=$1 rc=0
	shift
	"$@" >/dev/null 2>"$TMP/err" || rc=$?
	[ $rc -ne 0 ] || fail "$* succeeded"
	grep -q -- "$pat" "$TMP/err" || fail "$*: message '$(cat "$TMP/err")' lacks '$pat'"
	echo "ok - $* -> exit $rc: $(head -1 "$TMP/err")"
}
expect_usage "^xskf: --mem-frames, --mem-frame and --mem-segs need --backend memory$" "$B/apps/xsk-rxdrop" -i mem0 --mem-frames 10
printf 'short' >"$TMP/short"
expect_usage "^xskf: --mem-frame '$TMP/short': a frame is 14 to 4096 bytes, this file is shorter$" "$B/apps/xsk-rxdrop" -i mem0 --backend memory --mem-frame "$TMP/short"
expect_usage "^xskf: busy polling needs a NIC: the memory backend has none (drop -B)$" "$B/apps/xsk-rxdrop" -i mem0 --backend memory -B --mem-frames 10
expect_usage "^xskf: invalid --mem-segs '57': use a number from 1 to 56$" "$B/apps/xsk-rxdrop" -i mem0 --backend memory --mem-segs 57
expect_usage "^xskf: RX hints: --hints-in data_meta needs bpf_xdp_adjust_meta(), forced off by XSKF_FEATURES_OFF: use --hints-in auto or userspace$" \
	env XSKF_FEATURES_OFF=adjust_meta "$B/apps/xsk-rxdrop" -i mem0 --backend memory --mem-frames 10 --hints-in data_meta
expect_usage "^xskf: invalid --hints-in 'meta': use auto, data_meta, headroom or userspace$" \
	"$B/apps/xsk-rxdrop" -i mem0 --backend memory --mem-frames 10 --hints-in meta

# The UMEM line says what its NUMA check looked at: every page of a small UMEM; of a large one a
# sample (4096 pages at most, spread), and says so, with the UMEM's real page count (issue 17).
um() { "$B/apps/xsk-rxdrop" -i mem0 --backend memory --hugepages off --cpus 0 --mem-frames 10 \
	--quiet --frames "$1" 2>&1 | grep 'UMEM .* pages of 4 KiB'; }
line=$(um 16384) || fail "no UMEM line"
if [[ $line == *"on node "* ]]; then # bound to a node (libnuma there): the check ran
	[[ $line == *"8192 pages of 4 KiB"*"(sampled 4096 of 8192 pages, 1 in 2, to bound start-up: 4096 of 4096 there)"* ]] ||
		fail "32 MiB UMEM: $line"
	line=$(um 1000) || fail "no UMEM line"
	[[ $line == *"(checked: 500 of 500 pages there)"* ]] || fail "2000 KiB UMEM: $line"
	echo "ok - UMEM NUMA check: a sample of 4096 of 8192 pages said as one, 500 of 500 as all"
else
	echo "ok - UMEM NUMA check: not bound to a node here, nothing to say # SKIP"
fi

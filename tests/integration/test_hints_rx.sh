#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# RX hints end to end on veth, counted by source in xsk-rxdrop's JSON (app_stats):
#   native: frames from sockets in the peer namespace carry the driver's (veth's) rx hash
#           (hash_hw); frames from the XDP live-frames generator get -ENODATA from the kfunc and
#           fall back to software (hash_sw). Exact counts for both. The generator's AF_XDP
#           method (kernels without live frames, XSKF_FEATURES_OFF=live_frames) sends skbs,
#           which carry veth's hash like socket traffic: then all are hash_hw.
#   skb:    the SKB-mode variant has no kfuncs: every IP frame is hash_sw, ptype everywhere.
#   off:    --no-hints: no meta at all.
#   native-head, skb-head: native and skb with bpf_xdp_adjust_meta() forced off
#           (XSKF_FEATURES_OFF=adjust_meta): the program carries the meta in the headroom and
#           the framework moves each frame past it; the same counts, and the line that says so.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
mode=${1:?native|skb|off|native-head|skb-head}
head=0
case $mode in *-head)
	head=1
	mode=${mode%-head}
	export XSKF_FEATURES_OFF=adjust_meta
	;;
esac
# where the hints go on this kernel, as xskf's own probe says (a kernel that refuses
# adjust_meta, or the whole suite run with it forced off, runs every hints test in the headroom)
uses() { "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"][sys.argv[1]])' "$1"; }
[ "$(uses hints)" = headroom ] && [ $mode != off ] && head=1
# both adjust helpers refused (or forced off: XSKF_FEATURES_OFF=all): no hints can be carried,
# by any path; the run without them is the 'off' case
[ "$(uses hints)" = none ] && [ $mode != off ] &&
	skip "RX hints: xskf features says neither bpf_xdp_adjust_meta() nor bpf_xdp_adjust_head() works here (XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:-}): no path carries hints"
# driver hints: where the RX metadata kfuncs' row is off, the native program is the software one
# (or where the driver's kfuncs are unknown: the netdev netlink family's row off)
kfuncs=$(uses rx_kfuncs)
[ "$(uses netdev_genl)" = True ] || kfuncs=False
tb_up_out "xh$$"
NGEN=3000
NUDP=200

flags="-N"
[ "$mode" = skb ] && { flags="-S"; dut ethtool -K "$TB_IF_DUT" gro on >/dev/null; }
[ "$mode" = off ] && flags="-N --no-hints"

# both queues: socket traffic spreads over them (SKB mode on veth puts all on queue 0)
ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -c $flags --cpus 1 --json \
	>"$out/rx.json" 2>"$out/rx.err" &
pid=$!
wait_attached
gen_paced $pid $NGEN 1000 --cpus 0 --flows 4 --json
gen taskset -c 0 $PY -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range($NUDP):
    s.sendto(b'hint' * 8, ('$TB_IP4_DUT', 7000 + i % 5))
" || fail "UDP sender"
wait_app_rx $pid $((NGEN + NUDP))
kill -INT $pid
wait $pid || { cat "$out/rx.err"; fail "xsk-rxdrop failed"; }
drops=$(json_get "$out/rx.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])")
[ "$drops" = 0 ] || fail "$drops frames dropped by the kernel although no burst exceeded the rings"
hw=$(json_get "$out/rx.json" "d['app_stats']['hash_hw']")
sw=$(json_get "$out/rx.json" "d['app_stats']['hash_sw']")
none=$(json_get "$out/rx.json" "d['app_stats']['hash_none']")
nometa=$(json_get "$out/rx.json" "d['app_stats']['no_meta']")
rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
echo "rx $rx: hash_hw $hw hash_sw $sw hash_none $none no_meta $nometa"
[ "$(json_get "$out/rx.json" "sum(q['program']['errors'] for q in d['queues'])")" = 0 ] ||
	fail "program errors"
[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] || fail "reconcile"
# the stacks' own frames (IPv6 MLD/ND) may add a few to the totals
total=$((NGEN + NUDP))
[ "$rx" -ge $total ] && [ "$rx" -le $((total + 10)) ] || fail "received $rx, sent $total"
where=$(json_get "$out/rx.json" "d['hints_in']")
[ "$where" = "$([ $head = 1 ] && echo headroom || { [ $mode = off ] && echo none || echo data_meta; })" ] ||
	fail "--json says hints_in '$where'"
if [ $head = 1 ]; then
	grep -q "RX hints: bpf_xdp_adjust_meta() \(forced off by XSKF_FEATURES_OFF\|refused by this kernel's verifier\): the XDP program carries them in the headroom" "$out/rx.err" ||
		fail "the headroom's line not said"
elif grep -q "in the headroom" "$out/rx.err"; then
	fail "headroom hints on a kernel whose probe says adjust_meta works"
fi
case $mode in
native)
	gm=$(json_get "$out/gen.json" "d['method']")
	if [ "$kfuncs" != True ]; then
		grep -q "rx hash in software (\(RX metadata kfuncs\|the netdev netlink family\) forced off by XSKF_FEATURES_OFF" "$out/rx.err" ||
			fail "rx_kfuncs off: the software variant's line not said"
		[ "$hw" = 0 ] || fail "hash_hw $hw with the RX metadata kfuncs off"
		[ "$sw" -ge $total ] || fail "hash_sw $sw, expected >= $total"
	elif ! grep -q "RX hints from the driver: rx_hash" "$out/rx.err"; then
		fail "hw variant not chosen"
	elif [ "$gm" = xsk ]; then
		# copy-mode AF_XDP frames are skbs in veth's ring: they have a hash
		[ "$hw" -ge $total ] && [ "$hw" -le $((total + 10)) ] ||
			fail "hash_hw $hw, expected $total (socket and AF_XDP generator traffic)"
		[ "$sw" = 0 ] || fail "hash_sw $sw, expected 0 (every frame an skb)"
	else
		[ "$hw" -ge $NUDP ] && [ "$hw" -le $((NUDP + 10)) ] || fail "hash_hw $hw, expected $NUDP (socket traffic)"
		[ "$sw" = $NGEN ] || fail "hash_sw $sw, expected $NGEN (generator traffic: -ENODATA)"
	fi
	[ "$nometa" = 0 ] || fail "frames without meta"
	;;
skb)
	grep -q "SKB mode cannot read driver hints" "$out/rx.err" || fail "sw variant not said"
	[ "$hw" = 0 ] || fail "hash_hw $hw in SKB mode"
	[ "$sw" -ge $total ] || fail "hash_sw $sw, expected >= $total"
	[ "$nometa" = 0 ] || fail "frames without meta"
	;;
off)
	grep -q "RX hints off" "$out/rx.err" || fail "hints off not said"
	[ "$hw" = 0 ] && [ "$sw" = 0 ] || fail "hints counted with --no-hints"
	[ "$nometa" = "$rx" ] || fail "no_meta $nometa != rx $rx"
	;;
esac
assert_no_xdp "after the run"
ok "hints $mode$([ $head = 1 ] && echo ' (in the headroom)'): hw $hw, sw $sw, none $none, no meta $nometa of $rx"

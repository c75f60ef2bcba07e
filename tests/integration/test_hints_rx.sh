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
#   native-user, skb-user: both adjust helpers forced off (XSKF_FEATURES_OFF=adjust_meta,
#           adjust_head): the hints computed in userspace, the attached program
#           xskf_redirect_nm (no packet-data change); every frame's hash in software (no
#           driver value in this way), the same counts otherwise.
#   native-useropt: the same asked for with --hints-in userspace, on any kernel.
#   native-disp: libxdp's dispatcher forced to refuse a program that changes packet data
#           (XSKF_FEATURES_OFF=disp_pkt_data, as Linux 6.13+ with libxdp before 1.5.5): the
#           hints computed in userspace, said with that reason.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
mode=${1:?native|skb|off|native-head|skb-head|native-user|skb-user|native-useropt|native-disp}
head=0 user=0 way=""
# forcing adds to what the suite forces already (XSKF_FEATURES_OFF of a restricted-kernel run)
off_too() { export XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:+$XSKF_FEATURES_OFF,}$1; }
case $mode in
*-head)
	head=1
	mode=${mode%-head}
	export XSKF_FEATURES_OFF=adjust_meta
	;;
*-user)
	user=1 way="bpf_xdp_adjust_meta() forced off by XSKF_FEATURES_OFF, bpf_xdp_adjust_head() forced off"
	# a suite run that forces the dispatcher's refusal too: that reason comes first
	[[ ,${XSKF_FEATURES_OFF:-}, =~ ,(all|disp_pkt_data), ]] && way=""
	mode=${mode%-user}
	off_too adjust_meta,adjust_head
	;;
*-useropt)
	user=1 way="--hints-in asks for it"
	mode=${mode%-useropt}
	;;
*-disp)
	user=1 way="libxdp's dispatcher takes no program that changes packet data (forced by XSKF_FEATURES_OFF=disp_pkt_data)"
	mode=${mode%-disp}
	off_too disp_pkt_data
	;;
esac
# where the hints go on this kernel, as xskf's own probe says (a kernel that refuses
# adjust_meta, or the whole suite run with it forced off, runs every hints test in the headroom;
# with adjust_head or disp_pkt_data forced off too, in userspace)
uses() { "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"][sys.argv[1]])' "$1"; }
probed=$(uses hints)
if [ $mode != off ] && [ $user = 0 ] && [ $head = 0 ]; then
	[ "$probed" = headroom ] && head=1
	[ "$probed" = userspace ] && user=1
fi
# no way carries hints at all (none of the three: the run without them is the 'off' case)
[ "$probed" = none ] && [ $mode != off ] &&
	skip "RX hints: xskf features says no way carries them here (XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:-})"
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
[ "$way" = "--hints-in asks for it" ] && flags="$flags --hints-in userspace"

# both queues: socket traffic spreads over them (SKB mode on veth puts all on queue 0)
ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -c $flags --cpus 1 --json \
	>"$out/rx.json" 2>"$out/rx.err" &
pid=$!
WAIT_SHOW=$out/rx.err wait_attached $pid
if [ $user = 1 ]; then
	# no packet-data change: the variant without the hints' code is the one attached
	pname=$(dut bpftool prog show id "$(xdp_attached)" --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["name"])')
	[ "$pname" = xskf_redirect_nm ] || fail "program '$pname' attached, expected xskf_redirect_nm"
fi
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
[ "$where" = "$([ $user = 1 ] && echo userspace || { [ $head = 1 ] && echo headroom || { [ $mode = off ] && echo none || echo data_meta; }; })" ] ||
	fail "--json says hints_in '$where'"
if [ $user = 1 ]; then
	grep -qF "RX hints: computed in userspace ($way" "$out/rx.err" || fail "the userspace line not said (${way:-any reason})"
	grep -q "packet type and offsets parsed in userspace, rx hash in software (computed in userspace: no driver values)" "$out/rx.err" ||
		fail "the port's hints line does not say userspace"
	# every IP frame's hash is the software Toeplitz: no driver value in this way
	[ "$hw" = 0 ] || fail "hash_hw $hw with the hints computed in userspace"
	[ "$sw" -ge $total ] && [ "$sw" -le $((total + 10)) ] || fail "hash_sw $sw, expected $total"
	[ "$nometa" = 0 ] || fail "frames without meta"
	assert_no_xdp "after the run"
	ok "hints $mode (computed in userspace: $way): hw $hw, sw $sw, none $none, no meta $nometa of $rx"
	exit 0
elif grep -q "computed in userspace" "$out/rx.err"; then
	fail "userspace hints where nothing asks for them"
fi
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

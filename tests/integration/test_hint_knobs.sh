#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The hint knobs through a real veth path (native XDP, copy mode): the test plugin hint_check
# (tests/plugins/hint_check.c) says which RX hints it reads and checks, for every frame, what
# the XDP program wrote in front of it. UDP frames from a socket in the peer namespace (veth's
# rx_hash kfunc gives them a hash).
#   hash:  it reads the hash only: every frame has a meta, the socket frames the driver's hash,
#          and the program wrote no other field (no packet type, offset, tag or timestamp; the
#          meta says NOPARSE).
#   none:  it reads no hint: no meta handed over, and no meta's magic in front of any frame in
#          the UMEM (in copy mode the kernel copies data_meta there: the program wrote none).
#   all:   the control: it reads every hint, and the same check sees the parse's fields.
#   all-user, hash-user: the same with both adjust helpers forced off: the framework computes
#          the meta in userspace for what the plugin reads (hash: no parse, NOPARSE, the hash
#          in software), never a driver value.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
mode=${1:?hash|none|all|all-head|all-user|hash-user}
head=0 user=0
if [ "$mode" = all-head ]; then
	# bpf_xdp_adjust_meta() forced off: the meta in the headroom, the frame moved past it
	head=1
	mode=all
	export XSKF_FEATURES_OFF=adjust_meta
fi
case $mode in *-user)
	# both adjust helpers forced off (added to what the suite forces): the hints computed in
	# userspace from each frame, for what the plugin reads only (hash: no parse)
	user=1
	mode=${mode%-user}
	export XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:+$XSKF_FEATURES_OFF,}adjust_meta,adjust_head
	;;
esac
# the suite run with adjust_head or disp_pkt_data forced off too: every knob in userspace
[ "$("$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"]["hints"])')" = userspace ] &&
	[ $head = 0 ] && [ "$mode" != none ] && user=1
TP=${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}
# what xskf's own probe table lets it use here (`xskf features --json`): with both adjust helpers
# off no path carries a hint; with the kfuncs' (or the netdev family's) row off the hash is software
uses() { "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"][sys.argv[1]])' "$1"; }
[ "$(uses hints)" = none ] && [ "$mode" != none ] &&
	skip "hint knobs: xskf features says neither adjust helper works here (XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:-}): no path carries hints"
kfuncs=$(uses rx_kfuncs)
[ "$(uses netdev_genl)" = True ] || kfuncs=False
tb_up_out "xk$$"
NUDP=300
NVLAN=50

ip netns exec "$TB_NS_DUT" "$B/apps/xskf" run "$TP/hint_check.so" -i "$TB_IF_DUT" -N -c --cpus 1 \
	--json -- --read "$mode" >"$out/rx.json" 2>"$out/rx.err" &
pid=$!
FAIL_HOOKS+=(show_err)
show_err() { tail -5 "$out/rx.err"; }
wait_attached
gen taskset -c 0 $PY -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range($NUDP):
    s.sendto(b'knob' * 8, ('$TB_IP4_DUT', 7000 + i % 5))
" || fail "UDP sender"
# and NVLAN of them behind an 802.1Q tag (VID 100), written whole on an AF_PACKET socket: the
# parse reads the tag from the frame (source software), and the offsets count it
gen taskset -c 0 $PY -c "
import socket, struct
mac = lambda m: bytes.fromhex(m.replace(':', ''))
ip = lambda a: socket.inet_aton(a)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(('$TB_IF_GEN', 0))
pl = b'knob' * 8
for i in range($NVLAN):
    udp = struct.pack('!HHHH', 40000, 7000 + i % 5, 8 + len(pl), 0) + pl
    iph = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), i, 0x4000, 64, 17, 0,
                      ip('$TB_IP4_GEN'), ip('$TB_IP4_DUT'))
    s.send(mac('$TB_MAC_DUT') + mac('$TB_MAC_GEN') + struct.pack('!HH', 0x8100, 100) +
           struct.pack('!H', 0x0800) + iph + udp)
" || fail "VLAN sender"
wait_app_rx $pid $((NUDP + NVLAN))
kill -INT $pid
wait $pid || fail "xskf run hint_check failed"
c() { json_get "$out/rx.json" "d['plugins'][0]['counters']['$1']"; }
frames=$(c frames) meta=$(c meta) hw=$(c hash_hw) noparse=$(c noparse) other=$(c other_fields)
mbytes=$(c meta_bytes) udpok=$(c udp_at_offs) vlan=$(c vlan_sw)
echo "frames $frames meta $meta hash_hw $hw noparse $noparse other_fields $other meta_bytes $mbytes udp_at_offs $udpok vlan_sw $vlan"
grep "RX hints" "$out/rx.err"
# the stacks' own frames (IPv6 MLD/ND) may add a few
total=$((NUDP + NVLAN))
[ "$frames" -ge $total ] && [ "$frames" -le $((total + 10)) ] || fail "saw $frames frames, sent $total"
if [ $user = 1 ]; then
	grep -q "RX hints: computed in userspace (" "$out/rx.err" ||
		fail "the userspace line not said"
	[ "$hw" = 0 ] || fail "a driver hash on $hw frames with the hints computed in userspace"
fi
case $mode in
hash)
	if [ $user = 1 ]; then
		grep -q "RX hints: no parse, rx hash in software (computed in userspace: no driver values); read: rx_hash" "$out/rx.err" ||
			fail "start-up line does not say: no parse, software hash"
	elif [ "$kfuncs" = True ]; then
		grep -q "RX hints from the driver: rx_hash; no parse; read: rx_hash" "$out/rx.err" ||
			fail "start-up line does not say: driver rx_hash only, no parse"
		[ "$hw" -ge $total ] || fail "driver hash on $hw frames, expected >= $total"
	else
		grep -q "RX hints: no parse, rx hash in software (.* forced off by XSKF_FEATURES_OFF.*); read: rx_hash" "$out/rx.err" ||
			fail "start-up line does not say: no parse, rx hash in software (forced off)"
		[ "$hw" = 0 ] || fail "driver hash on $hw frames with the kfuncs off"
	fi
	[ "$meta" = "$frames" ] || fail "meta on $meta of $frames frames"
	[ "$noparse" = "$frames" ] || fail "NOPARSE on $noparse of $frames frames"
	[ "$other" = 0 ] || fail "the program wrote other fields on $other frames"
	;;
none)
	grep -q "RX hints off (no app reads any): the XDP program writes no meta" "$out/rx.err" ||
		fail "start-up line does not say hints off"
	[ "$meta" = 0 ] || fail "a meta handed over on $meta frames"
	[ "$mbytes" = 0 ] || fail "the program wrote a meta in front of $mbytes frames"
	;;
all)
	[ "$meta" = "$frames" ] || fail "meta on $meta of $frames frames"
	[ "$noparse" = 0 ] || fail "NOPARSE on $noparse frames"
	[ "$other" -ge $total ] || fail "the parse's fields on $other frames only: the check sees nothing"
	[ "$udpok" = $total ] || fail "IPv4/UDP at the meta's offsets in $udpok of $total frames"
	[ "$vlan" = $NVLAN ] || fail "VLAN 100 from the frame (source software) in $vlan of $NVLAN tagged frames"
	if [ $head = 1 ]; then
		grep -q "carries them in the headroom" "$out/rx.err" || fail "the headroom's line not said"
	fi
	;;
esac
assert_no_xdp "after the run"
ok "hint knobs, reads $mode$([ $user = 1 ] && echo ' (computed in userspace)'): $frames frames, meta $meta, driver hash $hw, other fields $other"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-txgen's workers, flows and sizes, checked at the receiving end of a 2-queue veth (nsG
# sends, nsP captures with tcpdump), and the MTU messages of xsk-txgen, xsk-l2fwd and the
# framework. One case per run (test_txgen_flows.sh CASE):
#   pcap-split   a mixed capture (24 flows: UDP/TCP/ICMP over IPv4 and IPv6, fragments, ND,
#                ARP, VLAN, QinQ, unknown EtherTypes) replayed by two workers: exactly the
#                file's frames, once, each flow in file order; both workers sent some
#   pcap-loop    the same with --loop --count 2N+37: the file twice and its first 37 frames
#   imix-flows   --imix --flows 8: every flow gets 60-, 590- and 1514-byte frames 7:4:1 and
#                IPv4 IDs 0, 1, 2...; tshark finds no bad IPv4 checksum
#   sizes        --size 1518 passes a 1500 MTU veth with no warning, --size 1519 and 1760 are
#                warned of and counted as dropped (sent 0); pcap records over the MTU warned of;
#                --size beyond the frame room refused before set-up (exit 2, nothing attached)
#   mtu          one MTU line for two ports at MTU 9000 with advice that holds; none for the
#                TX-only generator; the fwd MTU mismatch refused in one line before set-up
set -u
P=tf$$
. "$(dirname "$0")/fwd_lib.sh"
CASE=${1:?usage: test_txgen_flows.sh CASE}
CHK="$PY $SRC/tests/integration/txgen_check.py"

MAC_G=02:00:00:00:0c:01 MAC_P=02:00:00:00:0c:02
NG=$P-g NP=$P-p
mkns $NG
mkns $NP
vpair $NG g0 $MAC_G $NP p0 $MAC_P

# capture_start FILE: tcpdump on p0 of what g0 sends, listening when it returns (TPID)
capture_start() {
	ip netns exec $NP tcpdump -i p0 -Q in -B 16384 -U -w "$1" ether src $MAC_G 2>"$1.err" &
	TPID=$!
	PIDS+=($TPID)
	wait_capture "$1.err"
}

capture_stop() {
	kill -INT $TPID
	wait $TPID 2>/dev/null
}

# txgen NAME ARGS...: run xsk-txgen on g0 to its end (exit 0), JSON in $TMP/NAME.json
txgen() {
	local name=$1 rc=0
	shift
	ip netns exec $NG timeout 60 $TXGEN -i g0 --dst-mac $MAC_P --quiet --json "$@" \
		>$TMP/$name.json 2>$TMP/$name.err || rc=$?
	[[ $rc == 0 ]] || { cat $TMP/$name.err >&2; fail "$name: xsk-txgen exited $rc"; }
	no_xdp $NG g0
}

# replay NAME COUNT ARGS...: capture, replay with two workers, check the capture
replay() {
	local name=$1 count=$2 before
	shift 2
	before=$(rx_count $NP p0)
	capture_start $TMP/$name.pcap
	txgen $name --cpus 0,1 --pcap $TMP/mixed.pcap "$@"
	# exact: the peer counted COUNT frames more, then nothing else came (the run is over)
	wait_ctr $NP p0 rx_packets $((before + count))
	wait_pcap $TMP/$name.pcap $count
	capture_stop
	[[ $(($(rx_count $NP p0) - before)) == "$count" ]] ||
		fail "$name: the peer received $(($(rx_count $NP p0) - before)) frames, $count sent"
	[[ $(jget $TMP/$name.json "j['app_stats']['sent']") == "$count" ]] ||
		{ cat $TMP/$name.err >&2; fail "$name: JSON sent != $count"; }
	# the split is by flow: with 24 flows both workers (queues 0 and 1) have some
	[[ $(jget $TMP/$name.json "min(q['tx_packets'] for q in j['queues'])") -gt 0 ]] ||
		fail "$name: one worker sent nothing: $(jget $TMP/$name.json "[q['tx_packets'] for q in j['queues']]")"
	$CHK replay $TMP/mixed.pcap $TMP/$name.pcap $count || fail "$name: the capture differs"
	ok "$name: $(grep -o 'sent [0-9]* frames' $TMP/$name.err), per queue $(jget $TMP/$name.json "[q['tx_packets'] for q in j['queues']]")"
}

case $CASE in
pcap-split)
	read -r N F < <($CHK mixed $TMP/mixed.pcap $MAC_G) || fail "scapy"
	ok "mixed capture: $N frames, $F flows"
	replay split "$N"
	;;
pcap-loop)
	read -r N F < <($CHK mixed $TMP/mixed.pcap $MAC_G) || fail "scapy"
	replay loop $((2 * N + 37)) --loop --count $((2 * N + 37))
	;;
imix-flows)
	capture_start $TMP/imix.pcap
	txgen imix --imix --flows 8 --count 960 --dst-ip 198.51.100.2
	wait_pcap $TMP/imix.pcap 960
	capture_stop
	$CHK imix $TMP/imix.pcap 8 960 || fail "IMIX sizes or IPv4 IDs per flow"
	bad=$(tshark -r $TMP/imix.pcap -o ip.check_checksum:TRUE -Y 'ip.checksum.status == 0' \
		2>/dev/null | wc -l)
	good=$(tshark -r $TMP/imix.pcap -o ip.check_checksum:TRUE -Y 'ip.checksum.status == 1' \
		2>/dev/null | wc -l)
	[[ $bad == 0 && $good == 960 ]] || fail "tshark: $good good and $bad bad IPv4 checksums of 960"
	ok "tshark: 960 good IPv4 header checksums, 0 bad"
	;;
sizes)
	# veth forwards up to MTU + Ethernet header + one VLAN tag (is_skb_forwardable())
	for s in 1518 1519 1760; do
		drop0=$(sysfs_ctr $NG g0 tx_dropped)
		rx0=$(rx_count $NP p0)
		txgen size$s --size $s --count 10
		drops=$(($(sysfs_ctr $NG g0 tx_dropped) - drop0))
		if [[ $s == 1518 ]]; then
			wait_ctr $NP p0 rx_packets $((rx0 + 10))
			[[ $drops == 0 ]] || fail "--size 1518: $drops dropped"
			grep -E "^txgen: warning: ([0-9]+-byte frames|[0-9]+ of the [0-9]+ frames of .*) (are|is) longer than the MTU of " \
				$TMP/size$s.err && { cat $TMP/size$s.err >&2; fail "--size 1518: an MTU warning, and nothing was dropped"; }
			grep -q "sent 10 frames" $TMP/size$s.err || fail "--size 1518: no 'sent 10 frames'"
		else
			[[ $drops == 10 ]] || fail "--size $s: veth dropped $drops of 10"
			grep -q "warning: $s-byte frames are longer than the MTU of g0 (1500) allows (1518 bytes" \
				$TMP/size$s.err || { cat $TMP/size$s.err >&2; fail "--size $s: no MTU warning"; }
			grep -q "sent 0 frames .* dropped 10 (g0 tx_dropped +10)" $TMP/size$s.err ||
				{ cat $TMP/size$s.err >&2; fail "--size $s: the summary does not say 0 sent, 10 dropped"; }
			[[ $(jget $TMP/size$s.json "j['app_stats']['sent'], j['app_stats']['if_tx_dropped']") == "0 10" ]] ||
				fail "--size $s: JSON $(jget $TMP/size$s.json "j['app_stats']")"
		fi
		ok "--size $s: $(grep -o 'txgen: sent.*' $TMP/size$s.err)"
	done
	# pcap: records longer than the MTU allows are counted and the longest named
	$PY - $TMP/long.pcap <<'PYEOF' || fail "scapy"
import sys
from scapy.all import Ether, Raw, wrpcap
m = dict(src="02:00:00:00:0c:01", dst="02:00:00:00:0c:02", type=0x88b5)
wrpcap(sys.argv[1], [Ether(**m) / Raw(b"a" * (n - 14)) for n in (60, 1518, 1519, 1600, 1000)])
PYEOF
	txgen long --pcap $TMP/long.pcap
	grep -q "warning: 2 of the 5 frames of .*long.pcap are longer than the MTU of g0 (1500) allows (1518 bytes .* the longest has 1600)" \
		$TMP/long.err || { cat $TMP/long.err >&2; fail "pcap: no MTU warning"; }
	grep -q "sent 3 frames .* dropped 2 (g0 tx_dropped +2)" $TMP/long.err ||
		{ cat $TMP/long.err >&2; fail "pcap: the summary does not say 3 sent, 2 dropped"; }
	ok "pcap: $(grep -o 'warning: 2 of.*' $TMP/long.err | cut -c1-90)..."
	# too large even for a chain of buffers: refused before any set-up
	for a in "--size 9019" "--size 9100 --frame-size 4096"; do
		rc=0
		ip netns exec $NG $TXGEN -i g0 $a --count 1 >$TMP/big.out 2>$TMP/big.err || rc=$?
		[[ $rc == 2 ]] || { cat $TMP/big.err >&2; fail "$a: exit $rc, expected 2"; }
		[[ $(wc -l <$TMP/big.err) == 1 ]] && grep -q "^invalid --size" $TMP/big.err ||
			{ cat $TMP/big.err >&2; fail "$a: not one line before set-up"; }
		no_xdp $NG g0
		ok "$a: exit 2, $(cat $TMP/big.err)"
	done
	;;
mtu)
	# a second pair in nsG: two ports of l2fwd fwd
	ip -n $NG link add m0 type veth peer name m1
	ip -n $NG link set m0 mtu 1400
	ip -n $NG link set m0 up
	ip -n $NG link set m1 up
	wait_carrier $NG m0
	rc=0
	ip netns exec $NG $L2FWD -i g0 -i m0 --mode fwd --duration 1 >$TMP/mm.out 2>$TMP/mm.err || rc=$?
	[[ $rc == 1 ]] || { cat $TMP/mm.err >&2; fail "MTU mismatch: exit $rc"; }
	[[ $(wc -l <$TMP/mm.err) == 1 ]] && grep -q "MTU mismatch: g0 has 1500, m0 has 1400; set both the same" $TMP/mm.err ||
		{ cat $TMP/mm.err >&2; fail "MTU mismatch: not one line before set-up"; }
	no_xdp $NG g0
	no_xdp $NG m0
	ok "MTU mismatch: exit 1, $(cat $TMP/mm.err)"
	for i in g0 m0 m1; do ip -n $NG link set $i mtu 9000; done
	sg_why=$(feature_why xsk_sg)
	if [[ -n $sg_why ]]; then
		# no multi-buffer AF_XDP (xskf features: the kernel lacks it, or it is forced off):
		# the MTU line says frames longer than a buffer are dropped, and names the MTU to use
		ip netns exec $NG $L2FWD -i g0 -i m0 --mode fwd --duration 1 --quiet >$TMP/nosg.out \
			2>$TMP/nosg.err || { cat $TMP/nosg.err >&2; fail "l2fwd at MTU 9000 without XDP_USE_SG"; }
		[[ $(mtu_lines $TMP/nosg.err) == 1 ]] &&
			grep -q "g0, m0: MTU 9000 allows 9018-byte frames, a UMEM frame holds 1792 after its headroom: longer frames are dropped by the kernel (rx_dropped); this kernel has no multi-buffer AF_XDP (XDP_USE_SG, Linux 6.6+): use an MTU of at most 1774" $TMP/nosg.err ||
			{ cat $TMP/nosg.err >&2; fail "MTU 9000 without XDP_USE_SG: not the one line naming the MTU to use"; }
		ok "MTU 9000 without multi-buffer AF_XDP ($sg_why): one line, the MTU to use"
		exit 0 # the lines of chains below need XDP_USE_SG: no other path makes them
	fi
	ip -n $NP link set p0 mtu 9000
	for f in 2048 4096; do
		ip netns exec $NG $L2FWD -i g0 -i m0 --mode fwd -f $f --duration 1 --quiet \
			>$TMP/j$f.out 2>$TMP/j$f.err || { cat $TMP/j$f.err >&2; fail "l2fwd at MTU 9000 -f $f"; }
		[[ $(mtu_lines $TMP/j$f.err) == 1 ]] || { cat $TMP/j$f.err >&2; fail "-f $f: not one MTU line"; }
		grep -q "frame-size 4096 (it holds" $TMP/j$f.err && fail "-f $f: advises --frame-size 4096 at MTU 9000"
		# the headroom (256) alone: xsk-l2fwd reads no RX hints, so no meta room (docs/hints.md)
		room=$((f - 256))
		# xsk-l2fwd takes chains: the frames come in several buffers (docs/jumbo.md)
		grep -q "g0: MTU 9000: frames of up to 9018 bytes come in up to $(((9018 + room - 1) / room)) buffers of $room bytes: multi-buffer AF_XDP" \
			$TMP/j$f.err || { cat $TMP/j$f.err >&2; fail "-f $f: the MTU line"; }
		ok "l2fwd -f $f at MTU 9000: $(grep MTU $TMP/j$f.err | cut -c1-60)... (one line)"
	done
	# MTU 3000: two buffers of a 2048-byte frame, one of a 4096-byte frame
	for i in g0 m0 m1; do ip -n $NG link set $i mtu 3000; done
	ip netns exec $NG $L2FWD -i g0 -i m0 --mode fwd --duration 1 --quiet >/dev/null 2>$TMP/m3.err ||
		fail "l2fwd at MTU 3000"
	grep -q "g0: MTU 3000: frames of up to 3018 bytes come in up to 2 buffers of 1792 bytes" \
		$TMP/m3.err || { cat $TMP/m3.err >&2; fail "MTU 3000: the multi-buffer line"; }
	ok "l2fwd at MTU 3000: frames in 2 buffers"
	ip netns exec $NG $L2FWD -i g0 -i m0 --mode fwd -f 4096 --duration 1 --quiet >/dev/null 2>$TMP/m3f.err ||
		fail "l2fwd at MTU 3000 -f 4096"
	[[ $(mtu_lines $TMP/m3f.err) == 0 ]] || { cat $TMP/m3f.err >&2; fail "-f 4096 holds MTU 3000 frames, yet an MTU line"; }
	ok "l2fwd -f 4096 at MTU 3000: no MTU line"
	# the generator receives nothing: no RX frame-room warning for it
	txgen tx9000 --count 10
	[[ $(mtu_warnings $TMP/tx9000.err) == 0 ]] || { cat $TMP/tx9000.err >&2; fail "TX-only: an MTU warning about RX"; }
	ok "xsk-txgen at MTU 3000: no RX MTU warning"
	;;
*) fail "unknown case $CASE" ;;
esac
echo PASS

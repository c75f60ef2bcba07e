#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-txgen in nsG sends on a 2-queue veth; nsP counts what arrives (interface counters and a
# UDP socket). Checks: --count N gives exactly N frames at the peer, for a fixed size with 2
# workers and for --imix with flows; the UDP frames are valid (a socket receives them all);
# --pcap replays a pcap made here frame for frame; JSON sent == N, census ok, no XDP left.
set -u
P=tg$$
. "$(dirname "$0")/fwd_lib.sh"

MAC_G=02:00:00:00:0c:01 MAC_P=02:00:00:00:0c:02
NG=$P-g NP=$P-p
mkns $NG; mkns $NP
vpair $NG g0 $MAC_G $NP p0 $MAC_P
ip -n $NP addr add 198.51.100.2/24 dev p0

# run_txgen NAME EXPECTED ARGS...: run to completion, check the peer got EXPECTED frames more.
run_txgen() {
	local name=$1 exp=$2 before after rc=0
	shift 2
	before=$(rx_count $NP p0)
	ip netns exec $NG timeout 60 $TXGEN -i g0 --dst-mac $MAC_P --quiet --json "$@" \
		>$TMP/$name.json 2>$TMP/$name.err || rc=$?
	[[ $rc == 0 ]] || { cat $TMP/$name.err >&2; fail "$name: xsk-txgen exited $rc"; }
	# sent means handed to the veth: wait until the peer has counted them
	wait_ctr $NP p0 rx_packets $((before + exp))
	after=$(rx_count $NP p0)
	[[ $((after - before)) == "$exp" ]] || fail "$name: peer received $((after - before)), expected $exp"
	[[ $(jget $TMP/$name.json "j['app_stats']['sent']") == "$exp" ]] || fail "$name: JSON sent != $exp"
	[[ $(jget $TMP/$name.json "j['census_ok']") == True ]] || fail "$name: census"
	no_xdp $NG g0
	ok "$name: $exp frames sent, $exp received by the peer ($(grep -o 'sent .*' $TMP/$name.err))"
}

run_txgen fixed 100000 --count 100000 --size 60 --workers 2
run_txgen imix 12000 --count 12000 --imix --flows 8 --rate 200000

# every UDP frame is a valid datagram: a socket on the peer gets all of them
udp_listen $NP 0.0.0.0 7777 2000 $TMP/udp.out
run_txgen udp 2000 --count 2000 --size 200 --dst-ip 198.51.100.2 --dport 7777 --rate 20000
wait $RPID
# 2000 frames at 20000 pps take 0.1 s at least: the token bucket holds them back
d=$(jget $TMP/udp.json "j['duration_s']")
$PY -c "import sys; sys.exit(0 if $d >= 0.095 else 1)" || fail "--rate 20000: 2000 frames in $d s"
ok "--rate 20000: 2000 frames took $d s"
[[ $(cat $TMP/udp.out) == 2000 ]] || fail "UDP socket received $(cat $TMP/udp.out) of 2000"
ok "a UDP socket on the peer received 2000 of 2000 datagrams"

# pcap replay: 7 frames of different sizes and types, compared byte for byte at the peer
$PY - $TMP/in.pcap <<'PYEOF' || fail "scapy"
import sys
from scapy.all import Ether, IP, UDP, TCP, ARP, Raw, wrpcap
m = dict(src="02:00:00:00:0c:01", dst="02:00:00:00:0c:02")
fr = [Ether(**m) / IP(src="198.51.100.1", dst="198.51.100.9") / UDP(sport=1, dport=2) / Raw(b"a" * 18),
      Ether(**m) / IP(src="198.51.100.1", dst="198.51.100.9") / TCP() / Raw(b"b" * 500),
      Ether(**m) / ARP(psrc="198.51.100.1", pdst="198.51.100.9"),
      Ether(**m, type=0x88b5) / Raw(bytes(range(256)) * 5),
      Ether(**m, type=0x88b5) / Raw(b"z" * 1500),
      Ether(**m) / IP(src="198.51.100.1", dst="198.51.100.9") / UDP() / Raw(b"c" * 1000),
      Ether(**m, type=0x88b5) / Raw(b"q" * 46)]
wrpcap(sys.argv[1], fr)
PYEOF
ip netns exec $NP tcpdump -i p0 -U -w $TMP/out.pcap ether src $MAC_G 2>$TMP/out.err &
TPID=$!
PIDS+=($TPID)
wait_capture $TMP/out.err
run_txgen pcap 7 --pcap $TMP/in.pcap
wait_pcap $TMP/out.pcap 7
kill -INT $TPID; wait $TPID 2>/dev/null
$PY - $TMP/in.pcap $TMP/out.pcap <<'PYEOF' || fail "pcap replay differs"
import sys
from scapy.all import rdpcap
a = [bytes(p) for p in rdpcap(sys.argv[1])]
b = [bytes(p) for p in rdpcap(sys.argv[2])]
assert a == b, f"sent {len(a)} frames, captured {len(b)}; equal: {[x == y for x, y in zip(a, b)]}"
PYEOF
ok "pcap replay: 7 frames captured at the peer byte for byte, in order"
run_txgen pcaploop 70 --pcap $TMP/in.pcap --loop --count 70

# A generator does not steal the interface's RX: frames arriving while it sends go to the
# stack (the program passes them; nothing is redirected or dropped), here UDP to a socket.
ip -n $NG addr add 198.51.100.1/24 dev g0
ip -n $NP neigh replace 198.51.100.1 lladdr $MAC_G dev p0 nud permanent
udp_listen $NG 198.51.100.1 9100 300 $TMP/rxside.out
# runs until stopped: the datagrams below come while it sends, however slow the machine
ip netns exec $NG $TXGEN -i g0 --dst-mac $MAC_P --rate 2000 --quiet \
	--json >$TMP/rxside.json 2>$TMP/rxside.err &
GPID=$!
wait_for "xsk-txgen attached on g0" grep -q "XDP program attached" $TMP/rxside.err
ip netns exec $NP $PY -c "
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(300):
    s.sendto(b'to-the-host', ('198.51.100.1', 9100))
    time.sleep(0.001)
"
wait $RPID
kill -INT $GPID
wait $GPID || { cat $TMP/rxside.err >&2; fail "xsk-txgen (rx side) failed"; }
[[ $(cat $TMP/rxside.out) == 300 ]] || fail "host socket got $(cat $TMP/rxside.out) of 300 while txgen ran"
[[ $(jget $TMP/rxside.json "sum(q['program']['redirected'] for q in j['queues'])") == 0 ]] ||
	fail "frames redirected to a TX-only app"
[[ $(jget $TMP/rxside.json "sum(q['program']['passed'] for q in j['queues'])") -ge 300 ]] ||
	fail "program did not pass the frames to the stack"
no_xdp $NG g0
ok "TX-only: 300 of 300 datagrams reached a host socket on the generator's interface"
echo PASS

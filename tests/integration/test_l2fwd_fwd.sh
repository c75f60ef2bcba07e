#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# A <-> xsk-l2fwd --mode fwd <-> B, with the destination MAC rewritten per output port so the
# hosts accept what arrives. Checks: ping both ways; N and M UDP datagrams arrive at a socket
# on the other side and the JSON shows exactly N (M) rx on one port and tx on the other; frames
# of 60..1514 bytes arrive byte for byte (apart from the rewritten MACs); counters reconcile
# with XDP_STATISTICS; the frame census adds up; no XDP program is left.
#
#   nsA [a0 192.0.2.1] --- [la] nsL xsk-l2fwd [lb] --- [b0 192.0.2.2] nsB
set -u
P=fw$$
. "$(dirname "$0")/fwd_lib.sh"

fwd_bed_up

start_app $NL $TMP/l2fwd.json $L2FWD -i la -i lb --mode fwd --dst-mac-0 $MAC_A \
	--dst-mac-1 $MAC_B --quiet

PINGS=3 N=1000 M=500
if command -v ping >/dev/null; then
	ip netns exec $NA ping -c $PINGS -i 0.2 -W 2 192.0.2.2 >$TMP/ping || fail "ping A -> B"
	ok "ping A -> B through xsk-l2fwd ($PINGS echo requests and replies)"
else
	echo "note: no ping binary (apt-get install iputils-ping): ping part skipped"
	PINGS=0
fi

# UDP both ways: a receiver counts datagrams, the sender paces a little so no socket overflows.
udp() { # NS_SEND NS_RECV DST N PORT
	udp_listen $2 0.0.0.0 $5 $4 $TMP/udp.$5
	local rpid=$RPID
	ip netns exec $1 $PY - "$3" "$4" "$5" <<'PYEOF'
import socket, sys, time
for i in range(int(sys.argv[2])):
    if i % 50 == 0:  # a new source port every 50: flows spread over the veth queues
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x" * 64, (sys.argv[1], int(sys.argv[3])))
    if i % 50 == 49:
        time.sleep(0.002)
PYEOF
	wait $rpid
	cat $TMP/udp.$5
}
got=$(udp $NA $NB 192.0.2.2 $N 5001)
[[ $got == "$N" ]] || fail "A -> B: $got of $N datagrams arrived"
ok "A -> B: $N of $N UDP datagrams arrived"
got=$(udp $NB $NA 192.0.2.1 $M 5002)
[[ $got == "$M" ]] || fail "B -> A: $got of $M datagrams arrived"
ok "B -> A: $M of $M UDP datagrams arrived"

# Frames of every size class from 60 bytes to the MTU, random payload, captured at B.
ip netns exec $NB tcpdump -i b0 -U -w $TMP/b.pcap ether proto 0x88b5 2>$TMP/b.err &
TPID=$!
PIDS+=($TPID)
wait_capture $TMP/b.err
ip netns exec $NA $PY - $TMP/sent.pcap <<'PYEOF' || fail "scapy send"
import sys, os
from scapy.all import Ether, Raw, sendp, wrpcap
sizes = [60, 61, 64, 65, 127, 128, 255, 256, 511, 512, 1000, 1023, 1024, 1280, 1499, 1500, 1513, 1514]
frames = []
for i, n in enumerate(sizes):
    f = Ether(dst="02:00:00:00:0a:02", src="02:00:00:00:0a:01", type=0x88b5) / Raw(bytes([i]) + os.urandom(n - 15))
    frames.append(f)
wrpcap(sys.argv[1], frames)
sendp(frames, iface="a0", verbose=False)
PYEOF
wait_pcap $TMP/b.pcap 18
kill -INT $TPID; wait $TPID 2>/dev/null
$PY - $TMP/sent.pcap $TMP/b.pcap $MAC_B $MAC_LB <<'PYEOF' || fail "frames changed on the way"
import sys
from scapy.all import rdpcap
sent = [bytes(p) for p in rdpcap(sys.argv[1])]
got = [bytes(p) for p in rdpcap(sys.argv[2])]
dst = bytes.fromhex(sys.argv[3].replace(":", ""))
src = bytes.fromhex(sys.argv[4].replace(":", ""))
assert len(got) == len(sent), f"{len(got)} of {len(sent)} frames arrived"
for s, g in zip(sent, got):
    assert len(s) == len(g), f"length {len(g)} != {len(s)}"
    assert g[:6] == dst and g[6:12] == src, "MACs not rewritten"
    assert g[12:] == s[12:], f"{len(s)}-byte frame differs"
print(f"{len(got)} frames of {min(map(len, got))}..{max(map(len, got))} bytes identical")
PYEOF
ok "frames of 60..1514 bytes arrive byte for byte"
NF=18

stop_app || fail "xsk-l2fwd exited with an error"
no_xdp $NL la
no_xdp $NL lb
J=$TMP/l2fwd.json
exp_ab=$((PINGS + N + NF)) exp_ba=$((PINGS + M))
sum() { jget $J "sum(q['$2'] for q in j['queues'] if q['port'] == '$1')"; }
[[ $(sum la rx_packets) == "$exp_ab" ]] || fail "la rx $(sum la rx_packets), expected $exp_ab"
[[ $(sum lb tx_packets) == "$exp_ab" ]] || fail "lb tx $(sum lb tx_packets), expected $exp_ab"
[[ $(sum lb rx_packets) == "$exp_ba" ]] || fail "lb rx $(sum lb rx_packets), expected $exp_ba"
[[ $(sum la tx_packets) == "$exp_ba" ]] || fail "la tx $(sum la tx_packets), expected $exp_ba"
ok "JSON: la rx = lb tx = $exp_ab, lb rx = la tx = $exp_ba"
[[ $(jget $J "all(q['reconciled'] for q in j['queues'])") == True ]] || fail "not reconciled"
[[ $(jget $J "j['census_ok']") == True ]] || fail "census does not add up"
ok "reconciled with XDP_STATISTICS, census ok"

# Two workers, one per queue. veth picks the peer's RX queue per flow, and the senders change
# source port every 50 datagrams: 16 flows land on both queues (all on one: p = 2^-15).
start_app $NL $J $L2FWD -i la -i lb --mode fwd --dst-mac-0 $MAC_A --dst-mac-1 $MAC_B \
	--quiet --workers 2 --cpus 0,1
got=$(udp $NA $NB 192.0.2.2 800 5003)
[[ $got == 800 ]] || fail "2 workers: $got of 800 datagrams arrived"
stop_app || fail "xsk-l2fwd (2 workers) exited with an error"
[[ $(sum la rx_packets) == 800 && $(sum lb tx_packets) == 800 ]] ||
	fail "2 workers: la rx $(sum la rx_packets), lb tx $(sum lb tx_packets), expected 800"
split=$(jget $J "[q['rx_packets'] for q in j['queues'] if q['port'] == 'la']")
[[ $(jget $J "sorted(q['worker'] for q in j['queues'] if q['port'] == 'la' and q['rx_packets'] > 0)") == "[0, 1]" ]] ||
	fail "2 workers: not both queues of la received ($split)"
[[ $(jget $J "len(j['census']) == 2 and j['census_ok'] and all(q['reconciled'] for q in j['queues'])") == True ]] ||
	fail "2 workers: census or reconciliation"
no_xdp $NL la
no_xdp $NL lb
ok "2 workers: 800 datagrams through both queues and workers ($split), census ok"
echo PASS

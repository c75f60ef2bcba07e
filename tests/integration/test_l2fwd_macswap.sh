#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-l2fwd --mode macswap in nsL reflects what xskf-trafficgen sends from nsG.
#  1. N frames out, N frames back at the generator's interface (kernel counter); the JSON of
#     xsk-l2fwd shows N rx and N tx, MACs swapped (tcpdump on the generator side).
#  2. Overload with a 64-entry TX ring: the TX ring fills (tx_ring_full > 0) yet no frame is
#     lost from the accounting: census ok, rx = tx + drops, every completed frame is either
#     back at the generator or counted as dropped by the veth; counters reconcile with
#     XDP_STATISTICS per queue.
set -u
P=ms$$
. "$(dirname "$0")/fwd_lib.sh"
TGEN=$BUILD/tools/xskf-trafficgen
[[ -x $TGEN ]] || { echo "SKIP: $TGEN not built"; exit 77; }

MAC_G=02:00:00:00:0d:01 MAC_L=02:00:00:00:0d:02
NG=$P-g NL=$P-l
mkns $NG; mkns $NL
vpair $NG g0 $MAC_G $NL l0 $MAC_L
ip -n $NG addr add 198.51.100.1/24 dev g0
ip -n $NG neigh replace 198.51.100.2 lladdr $MAC_L dev g0 nud permanent

J=$TMP/l2fwd.json
N=20000
start_app $NL $J $L2FWD -i l0 --cpus 1 --quiet
before=$(rx_count $NG g0)
ip netns exec $NG tcpdump -i g0 -c 5 -e -n -U -w $TMP/back.pcap ether dst $MAC_G 2>$TMP/td.err &
TPID=$!
PIDS+=($TPID)
wait_capture $TMP/td.err
# in chunks smaller than the rings, each once the last is back: exact however slow the worker
for ((sent = 0; sent < N; sent += 1000)); do
	ip netns exec $NG $TGEN -i g0 --cpus 0 -n 1000 --rate 50000 --dst-mac $MAC_L \
		--dst-ip 198.51.100.2 >$TMP/tg.out 2>&1 || { cat $TMP/tg.out; fail "trafficgen"; }
	wait_ctr $NG g0 rx_packets $((before + sent + 1000))
done
after=$(rx_count $NG g0)
stop_app || fail "xsk-l2fwd exited with an error"
no_xdp $NL l0
wait $TPID 2>/dev/null
[[ $((after - before)) == "$N" ]] || { grep -E "packets|kicks|kernel" $J; ip -n $NG -s link show g0; ip -n $NL -s link show l0; fail "$((after - before)) of $N frames came back"; }
sum() { jget $J "sum(q['$1'] for q in j['queues'])"; }
[[ $(sum rx_packets) == "$N" && $(sum tx_packets) == "$N" ]] ||
	fail "JSON rx $(sum rx_packets) tx $(sum tx_packets), expected $N"
[[ $(jget $J "j['census_ok'] and all(q['reconciled'] for q in j['queues'])") == True ]] ||
	fail "census or reconciliation"
$PY - $TMP/back.pcap $MAC_G $MAC_L <<'PYEOF' || fail "MACs not swapped"
import sys
from scapy.all import rdpcap
ps = rdpcap(sys.argv[1])
assert len(ps) == 5 and all(p.dst == sys.argv[2] and p.src == sys.argv[3] for p in ps)
PYEOF
ok "macswap: $N frames sent, $N back at the generator with MACs swapped; JSON rx = tx = $N"

# 2. overload: the generator sends far faster than copy-mode TX can return
start_app $NL $J $L2FWD -i l0 --cpus 1 --quiet --tx-ring 64 --comp-ring 64 --rx-ring 512 --batch 256 \
	--fill-ring 512
before=$(rx_count $NG g0)
txdrop0=$(ip netns exec $NL cat /sys/class/net/l0/statistics/tx_dropped)
ip netns exec $NG $TGEN -i g0 --cpus 0 -d 2 --dst-mac $MAC_L --dst-ip 198.51.100.2 \
	>$TMP/tg2.out 2>&1 || { cat $TMP/tg2.out; fail "trafficgen"; }
# every frame xsk-l2fwd sent has come back or was dropped by the veth: its TX is drained
drained() {
	local left tx back drop
	# RX first: every redirected frame received or dropped by the kernel, then TX
	left=$(app_live $APP_PID "sum(q['program']['redirected'] - q['rx_packets'] - q['kernel']['rx_dropped'] - q['kernel']['rx_ring_full'] for q in j['queues'])") || return 1
	[[ $left == 0 ]] || { LAST="$left frames not yet received"; return 1; }
	tx=$(app_tx $APP_PID) || return 1
	back=$(($(rx_count $NG g0) - before))
	drop=$(($(sysfs_ctr $NL l0 tx_dropped) - txdrop0))
	# and what the generator said it sent, for a failure's line
	LAST="tx $tx, back $back, veth drops $drop; generator: $(grep -E '^(sent|frames|method)' $TMP/tg2.out 2>/dev/null | tr '\n\t' '  ')"
	[[ $tx -gt 0 && $tx == $((back + drop)) ]]
}
wait_for "TX drained (xsk-l2fwd's sent frames all back or dropped)" drained
after=$(rx_count $NG g0)
txdrop=$(($(ip netns exec $NL cat /sys/class/net/l0/statistics/tx_dropped) - txdrop0))
stop_app || { cat $J; fail "xsk-l2fwd exited with an error (census or reconciliation)"; }
no_xdp $NL l0
rx=$(sum rx_packets) tx=$(sum tx_packets)
drops=$(jget $J "sum(q['drop_app'] + q['drop_no_port'] + q['drop_too_long'] + q['drop_tx_full'] for q in j['queues'])")
full=$(sum tx_ring_full)
echo "overload: rx $rx tx $tx drops $drops tx_ring_full $full kernel rx_ring_full $(jget $J "sum(q['kernel']['rx_ring_full'] for q in j['queues'])"), back $((after - before)), veth tx_dropped $txdrop"
[[ $full -gt 0 ]] || fail "TX ring never full: the test did not overload it"
[[ $rx == $((tx + drops)) ]] || { cat $J; fail; }; [[ 1 ]] || fail "rx $rx != tx $tx + drops $drops"
[[ $tx == $((after - before + txdrop)) ]] || fail "tx $tx != back $((after - before)) + veth drops $txdrop"
[[ $(jget $J "j['census_ok'] and all(q['reconciled'] for q in j['queues'])") == True ]] ||
	fail "census or reconciliation"
ok "full TX ring: rx = tx + drops, census ok, reconciled per queue"
echo PASS

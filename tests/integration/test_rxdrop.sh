#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-rxdrop on a veth test bed, with real traffic from xskf-trafficgen.
#   test_rxdrop.sh count MODE QUEUE   - N frames sent = N frames counted, exactly, and the
#                                       counters reconcile (MODE: native-copy, skb-copy, auto)
#   test_rxdrop.sh signal SIG         - clean detach and a JSON report after SIGINT / SIGTERM
#   test_rxdrop.sh sigkill            - a killed run leaves its program; the next run replaces it
#   test_rxdrop.sh busy               - a second instance on the same interface is refused
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up_out "xr$$"

run_count() {
	local mode=$1 q=$2 flags n=20000 gcpu wcpu
	case $mode in
	native-copy) flags="-N -c" ;;
	skb-copy) flags="-S -c" ;;
	auto) flags="" ;;
	busy-poll) flags="-N -B -b 32" ;; # copy mode by fallback: -B with -c is refused
	no-wakeup) flags="-N -c --no-need-wakeup" ;;
	*) fail "mode $mode" ;;
	esac
	# veth: the peer's RX queue is the sending CPU modulo the queue count
	gcpu=$q
	wcpu=$((1 - q))
	# without a native XDP program on the dut, veth delivers XDP_TX frames only with GRO on
	dut ethtool -K "$TB_IF_DUT" gro on >/dev/null
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q "$q" $flags --cpus "$wcpu" --json \
		>"$out/rx.json" 2>"$out/rx.err" &
	local pid=$!
	wait_attached
	gen "$GEN" -i "$TB_IF_GEN" -n $n --cpus "$gcpu" --rate 200000 --flows 8 --json \
		>"$out/gen.json" || fail "generator failed"
	wait_seen $pid $n
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	cat "$out/rx.err"
	local sent rx redir
	sent=$(sent_of "$out/gen.json")
	[ "$sent" = $n ] || fail "generator sent $sent of $n"
	rx=$(json_get "$out/rx.json" "d['queues'][0]['rx_packets']")
	redir=$(json_get "$out/rx.json" "d['queues'][0]['program']['redirected']")
	# Every frame sent is accounted for: received, or dropped and counted by the kernel (a
	# loaded machine may starve the worker). The kernel's own frames (IPv6 ND) may add a few.
	local kdrop
	kdrop=$(json_get "$out/rx.json" "d['queues'][0]['kernel']['rx_dropped'] + d['queues'][0]['kernel']['rx_ring_full']")
	[ "$redir" -ge "$sent" ] && [ "$redir" -le $((sent + 10)) ] || fail "sent $sent, redirected $redir"
	[ "$(json_get "$out/rx.json" "d['queues'][0]['queue']")" = "$q" ] || fail "wrong queue"
	[ "$(json_get "$out/rx.json" "d['queues'][0]['reconciled']")" = True ] ||
		fail "counters do not reconcile"
	[ "$redir" = $((rx + kdrop)) ] || fail "redirected $redir != received $rx + kernel drops $kdrop"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "frame census"
	local want_mode=native
	[ $mode = skb-copy ] && want_mode=skb
	[ "$(json_get "$out/rx.json" "d['ports'][0]['attach_mode']")" = $want_mode ] ||
		fail "attach mode"
	[ "$(json_get "$out/rx.json" "d['queues'][0]['zerocopy']")" = False ] || fail "zerocopy?"
	if [ $mode = busy-poll ]; then
		# copy mode has no NAPI ID: -B falls back with one line (docs/idle.md)
		grep -q -- "--busy-poll: .* without a NAPI ID" "$out/rx.err" ||
			fail "-B on a copy-mode socket did not say it fell back"
	fi
	if [ $mode = auto ]; then
		grep -q "zero-copy not available" "$out/rx.err" || fail "auto mode did not say it fell back"
	fi
	grep -q "redirect: XSKMAP" "$out/rx.err" || fail "redirect tier not printed"
	assert_no_xdp "after SIGINT"
	ok "$mode queue $q: sent $sent, redirected $redir, received $rx, kernel drops $kdrop"
}

run_signal() {
	local sig=$1
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --json >"$out/rx.json" 2>"$out/rx.err" &
	local pid=$!
	wait_attached
	gen "$GEN" -i "$TB_IF_GEN" -n 5000 --rate 100000 --json >"$out/gen.json" || fail "gen"
	wait_seen $pid 5000
	kill -"$sig" $pid
	wait $pid
	local rc=$?
	[ $rc = 0 ] || { cat "$out/rx.err"; fail "exit status $rc after SIG$sig"; }
	assert_no_xdp "after SIG$sig"
	# every frame accounted for: received, or dropped and counted by the kernel
	local rx redir
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
	redir=$(json_get "$out/rx.json" "sum(q['program']['redirected'] for q in d['queues'])")
	[ "$redir" -ge 5000 ] || fail "redirected $redir of 5000"
	[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] ||
		fail "counters do not reconcile"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "frame census"
	ok "SIG$sig: exit 0, program detached, $redir frames redirected, $rx received, reconciled"
}

run_sigkill() {
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" >/dev/null 2>&1 &
	local pid=$!
	wait_attached
	kill -KILL $pid
	wait $pid 2>/dev/null
	[ -n "$(xdp_attached)" ] || fail "SIGKILL cannot detach: a program should be left"
	rm -f "$out/rx.err"
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --json >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	# the killed run's program is still there: wait for the new run's own attach
	wait_for "XDP program attached by the restarted run" grep -q "XDP program attached" "$out/rx.err"
	gen "$GEN" -i "$TB_IF_GEN" -n 1000 --rate 100000 --json >"$out/gen.json" || fail "gen"
	wait_seen $pid 1000
	stop_run $pid || { cat "$out/rx.err"; fail "restart after SIGKILL failed"; }
	grep -q "left by a killed xskf run" "$out/rx.err" || fail "stale program not recognised"
	local rx
	rx=$(json_get "$out/rx.json" "sum(q['program']['redirected'] for q in d['queues'])")
	[ "$rx" -ge 1000 ] || fail "after restart redirected $rx of 1000"
	[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] ||
		fail "counters do not reconcile"
	assert_no_xdp "after restart"
	ok "SIGKILL: stale program recognised and replaced; restart received $rx"
}

run_busy() {
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" >/dev/null 2>&1 &
	local pid=$!
	wait_attached
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --duration 1 >"$out/o" 2>"$out/e"
	local rc=$?
	[ $rc != 0 ] || fail "second instance started"
	grep -q "already running on this interface" "$out/e" || { cat "$out/e"; fail "message"; }
	[ -n "$(xdp_attached)" ] || fail "the second instance removed the first one's program"
	stop_run $pid || fail "first instance failed"
	assert_no_xdp "after both"
	ok "second instance refused: $(head -c 200 "$out/e" | grep already)"
}

# Both queues on one worker (one UMEM shared by two sockets), UMEM on reserved hugepages.
run_multiqueue_huge() {
	HP_SAVED=$(cat /proc/sys/vm/nr_hugepages)
	trap 'echo "$HP_SAVED" >/proc/sys/vm/nr_hugepages; tb_cleanup; rm -rf "$out"' EXIT
	echo 64 >/proc/sys/vm/nr_hugepages
	[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 8 ] || skip "cannot reserve hugepages"
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 -q 1 --hugepages=require \
		--json >"$out/rx.json" 2>"$out/rx.err" &
	local pid=$!
	wait_attached
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --cpus 0 --rate 100000 --json >"$out/g0.json" || fail gen0
	gen "$GEN" -i "$TB_IF_GEN" -n 2000 --cpus 1 --rate 100000 --json >"$out/g1.json" || fail gen1
	wait_seen $pid 5000
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop failed"; }
	local r0 r1
	r0=$(json_get "$out/rx.json" "[q for q in d['queues'] if q['queue']==0][0]['program']['redirected']")
	r1=$(json_get "$out/rx.json" "[q for q in d['queues'] if q['queue']==1][0]['program']['redirected']")
	[ "$r0" -ge 3000 ] && [ "$r0" -le 3010 ] || fail "queue 0 redirected $r0 of 3000"
	[ "$r1" -ge 2000 ] && [ "$r1" -le 2010 ] || fail "queue 1 redirected $r1 of 2000"
	[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] || fail reconcile
	[ "$(json_get "$out/rx.json" "d['census'][0]['hugepages']")" = True ] || fail "not on hugepages"
	[ "$(json_get "$out/rx.json" "len(d['census'])")" = 1 ] || fail "expected one worker"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail census
	grep -q "worker 0: 2 sockets, UMEM 8192 frames of 2048 bytes on 2 MiB hugepages" "$out/rx.err" ||
		{ cat "$out/rx.err"; fail "start-up line"; }
	assert_no_xdp "after the run"
	ok "queues 0 and 1 on one shared hugepage UMEM: $r0 + $r1 frames, reconciled"
}

case $case_name in
count) run_count "$2" "$3" ;;
signal) run_signal "$2" ;;
sigkill) run_sigkill ;;
busy) run_busy ;;
multiqueue-huge) run_multiqueue_huge ;;
*) fail "unknown case $case_name" ;;
esac

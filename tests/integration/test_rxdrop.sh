#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-rxdrop on a veth test bed, with real traffic from xskf-trafficgen.
#   test_rxdrop.sh count MODE QUEUE   - N frames sent = N frames counted, exactly, and the
#                                       counters reconcile (MODE: native-copy, skb-copy, auto)
#   test_rxdrop.sh signal SIG         - clean detach and a JSON report after SIGINT / SIGTERM
#   test_rxdrop.sh sigkill            - a killed run leaves its program; the next run replaces it
#   test_rxdrop.sh busy               - a second instance on a queue the first owns is refused in
#                                       one line naming the owner; nothing changes
#   test_rxdrop.sh share              - two instances on queues 0 and 1 share one program, each
#                                       with its own rule, and count their own frames exactly;
#                                       SIGKILL of one leaves the other counting, a restart takes
#                                       the freed queue back, the last one out removes the program
#   test_rxdrop.sh share-crash        - the run that attached the shared program crashes
#                                       (SIGSEGV: its fatal handler must not detach it under the
#                                       other) or is killed: the other keeps counting, and it,
#                                       last out, removes the program
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
	busy-poll) flags="-N -B -c -b 32" ;; # -B in copy mode: runs, veth has no NAPI (falls back)
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
	local sent rx redir
	# frames the veth refused (its ring full: a slow receiver, as under QEMU's TCG) are no
	# frame to wait for: said as they are
	sent=$(sent_of "$out/gen.json")
	[ "$sent" = $n ] || fail "generator sent $sent of $n: $(cat "$out/gen.json")"
	wait_seen $pid $n
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	cat "$out/rx.err"
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
		# -B falls back with one line (docs/idle.md), whose cause is what xskf's own probe
		# says: without preferred busy polling (a kernel before 5.11, or
		# XSKF_FEATURES_OFF=busy_poll) the kernel's lack, else veth's queues' missing NAPI
		local bp line
		bp=$(dut "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"]["busy_poll"])')
		if [ "$bp" = True ]; then
			line="--busy-poll: $TB_IF_DUT queue $q (copy mode) is without a NAPI ID (its driver names no NAPI for the queue, as veth; NIC drivers do, copy mode included): it cannot busy poll; polling its rings without it"
		else
			line="--busy-poll: this kernel has no preferred busy polling (SO_PREFER_BUSY_POLL, Linux 5.11+: $([[ ${XSKF_FEATURES_OFF:-} =~ (^|,)(busy_poll|all)(,|$) ]] && echo 'forced off by XSKF_FEATURES_OFF' || echo '[^)]*')): polling the rings without it"
		fi
		grep -qx -- "xskf: $line" "$out/rx.err" || { cat "$out/rx.err" >&2;
			fail "-B on a copy-mode socket (features say busy_poll $bp): no line '$line'"; }
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
	gen "$GEN" -i "$TB_IF_GEN" -n 5000 --rate 100000 --resend --json >"$out/gen.json" || fail "gen"
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
	gen "$GEN" -i "$TB_IF_GEN" -n 1000 --rate 100000 --resend --json >"$out/gen.json" || fail "gen"
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
	export XSKF_CTL_DIR
	XSKF_CTL_DIR=$(mktemp -d)
	at_exit_last 'rm -rf "$XSKF_CTL_DIR"'
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 1 >/dev/null 2>&1 &
	local pid=$! id
	wait_attached
	wait_for "control socket of pid $pid" ctl_up "$pid"
	id=$(xdp_attached)
	# the same queue: refused in one line naming the owner, before anything is set up
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 1 --duration 1 >"$out/o" 2>"$out/e"
	local rc=$?
	[ $rc != 0 ] || fail "second instance started on a taken queue"
	grep -q "queue 1 of $TB_IF_DUT is taken by xsk-rxdrop pid $pid" "$out/e" ||
		{ cat "$out/e"; fail "message"; }
	[ "$(grep -c . "$out/e")" = 1 ] || { cat "$out/e"; fail "more than one line"; }
	[ "$(xdp_attached)" = "$id" ] || fail "the refused instance changed the program"
	# every queue (the default) includes the taken one: refused the same way
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --duration 1 >"$out/o" 2>"$out/e2" &&
		fail "an instance on every queue started beside one on queue 1"
	grep -q "queue 1 of $TB_IF_DUT is taken by xsk-rxdrop pid $pid" "$out/e2" || fail "message 2"
	kill -0 $pid || fail "the first instance died"
	stop_run $pid || fail "first instance failed"
	assert_no_xdp "after both"
	ok "second instance refused: $(cat "$out/e")"
}

# share: queues 0 and 1 of the dut, each an instance with a rule of its own (UDP 5000 on queue
# 0, 5001 on queue 1); the generator's CPU chooses the queue (veth: the sending CPU).
# share_send N DPORT CPU [PID]: exactly N frames to DPORT, arriving on queue CPU; with PID, the
# run whose socket takes them, 500 at a time, each once PID counted the ones before: its ring
# (2048 slots) never overflows, however slow the machine or the build (ASan)
share_send() {
	if [ -n "${4:-}" ]; then
		gen_paced "$4" "$1" 500 --dport "$2" --cpus "$3" --rate 100000 --json
		return
	fi
	gen "$GEN" -i "$TB_IF_GEN" -n "$1" --dport "$2" --cpus "$3" --rate 100000 --resend --json \
		>"$out/gen.json" || fail "generator"
	sent_is "$out/gen.json" "$1"
}
share_start() { # share_start NAME QUEUE CPU DPORT: an instance; sets PID
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q "$2" --cpus "$3" --json \
		--steer "udp dport $4 xsk" >"$out/$1.json" 2>"$out/$1.err" &
	PID=$!
	wait_attached
	wait_for "control socket of pid $PID" ctl_up "$PID"
}
# rx_is PID N: the run PID received exactly N frames (and no more arrive)
rx_is() {
	wait_app_rx "$1" "$2"
	[ "$(app_rx "$1")" = "$2" ] || fail "pid $1 received $(app_rx "$1"), not $2"
}

# share_two: a control folder of the test's own, and two runs on one interface: a on queue 0
# (UDP 5000), b on queue 1 (UDP 5001); their pids in $a and $b, the program's id in $id (the
# caller's locals)
share_two() {
	export XSKF_CTL_DIR
	XSKF_CTL_DIR=$(mktemp -d)
	at_exit_last 'rm -rf "$XSKF_CTL_DIR"'
	# frames the rules do not take go to the stack: the sender finishes its checksums
	gen ethtool -K "$TB_IF_GEN" tx off >/dev/null
	share_start a 0 1 5000
	a=$PID
	id=$(xdp_attached)
	share_start b 1 0 5001
	b=$PID
}

run_share() {
	local a b b2 id
	share_two
	grep -q "joined the XDP program (id $id)" "$out/b.err" || { cat "$out/b.err"; fail "b did not join"; }
	[ "$(xdp_attached)" = "$id" ] || fail "b replaced the program"
	ok "b joined program $id on queue 1 beside a on queue 0"

	share_send 3000 5000 0 $a
	share_send 2000 5001 1 $b
	share_send 500 5001 0 # b's rule is b's queue's only: on queue 0 these go to the stack
	rx_is $a 3000
	rx_is $b 2000
	# each run's stats: its own queue, its own rule
	[ "$(app_live $a "[q['queue'] for q in j['queues']]")" = "[0]" ] || fail "a's queues"
	[ "$(app_live $b "[q['queue'] for q in j['queues']]")" = "[1]" ] || fail "b's queues"
	[ "$(app_live $a "[r['rule'] for r in j['steering'][0]['rules'] if r['id']]")" = "['udp dport 5000 xsk']" ] ||
		fail "a's rules: $(app_live $a "j['steering'][0]['rules']")"
	[ "$(app_live $b "[r['rule'] for r in j['steering'][0]['rules'] if r['id']]")" = "['udp dport 5001 xsk']" ] ||
		fail "b's rules"
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[3000]" ] ||
		fail "a's rule hits"
	[ "$(app_live $b "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[2000]" ] ||
		fail "b's rule hits"
	[ "$(app_live $a "j['steering'][0]['pass'] >= 500")" = True ] || fail "queue 0's UDP 5001 not passed"
	for p in $a $b; do # each run's accounting over its own queue: seen = actions = hits
		[ "$(app_live $p "(lambda s: s['seen'] == s['xsk'] + s['pass'] + s['cpumap'] + s['drop'] == sum(r['hits'] for r in s['rules']))(j['steering'][0])")" = True ] ||
			fail "pid $p's accounting: $(app_live $p "j['steering'][0]")"
	done
	ok "a received 3000 on queue 0, b 2000 on queue 1, exactly; UDP 5001 on queue 0 passed"

	# a rule added live to a is for a's queue only, and a's rebuild of the table keeps b's
	local r
	r=$(dut "$B/apps/xskfctl" -s "$(ctl_sock $a)" steer add udp dport 5001 drop) || fail "add: $r"
	share_send 100 5001 1 # queue 1: b's rule takes it
	share_send 100 5001 0 # queue 0: a's new rule drops it
	rx_is $b 2100
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['rule'] == 'udp dport 5001 drop']")" = "[100]" ] ||
		fail "a's live rule: $(app_live $a "j['steering'][0]['rules']")"
	[ "$(app_rx $a)" = 3000 ] || fail "a received $(app_rx $a)"
	ok "a rule added live to a dropped 100 on queue 0; b's rule still took 100 on queue 1"

	# the same queue again: one line naming its owner, nothing changed
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 1 --duration 1 >/dev/null 2>"$out/c.err" &&
		fail "a third instance took queue 1"
	grep -q "queue 1 of $TB_IF_DUT is taken by xsk-rxdrop pid $b" "$out/c.err" ||
		{ cat "$out/c.err"; fail "refusal"; }
	[ "$(xdp_attached)" = "$id" ] || fail "the refused instance changed the program"

	# SIGKILL of b under a's traffic: a keeps counting, its watch takes b's rules out, and
	# b's restart takes queue 1 back: two table changes while a's frames flow, none lost
	gen "$GEN" -i "$TB_IF_GEN" -n 15000 --dport 5000 --cpus 0 --rate 10000 --resend --json \
		>"$out/bg.json" &
	local g=$!
	wait_for "a's traffic flowing" ge app_rx $a 3500
	kill -KILL $b
	wait $b 2>/dev/null
	wait_line "$out/a.err" "its owner xsk-rxdrop pid $b is gone"
	[ "$(xdp_attached)" = "$id" ] || fail "the program changed after b's SIGKILL"
	share_start b2 1 0 5001
	b2=$PID
	grep -q "queue 1 of $TB_IF_DUT: taking it over from xsk-rxdrop pid $b, which is gone" "$out/b2.err" ||
		{ cat "$out/b2.err"; fail "take-over line"; }
	local under="under traffic"
	[ "$(app_rx $a)" -lt 18000 ] || under="(a's traffic had ended before b2 joined)"
	wait $g || fail "background generator"
	sent_is "$out/bg.json" 15000
	# none lost to the table changes: every frame taken by a's rule and at a's socket, received
	# or dropped by the kernel there (a full ring: a's worker starved by a loaded machine for
	# the length of a ring, 10 kpps against 2048 slots, which no table change causes)
	wait_for "18000 frames at a's socket" ge app_seen $a 18000
	[ "$(app_seen $a)" = 18000 ] || fail "a's socket saw $(app_seen $a) frames, not 18000"
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['rule'] == 'udp dport 5000 xsk']")" = "[18000]" ] ||
		fail "a's rule: $(app_live $a "j['steering'][0]['rules']")"
	ok "b killed and restarted $under, a's rule took 15000 more: exactly 18000 at its socket ($(app_rx $a) received); b's rules taken out"
	share_send 700 5001 1 $b2
	rx_is $b2 700
	[ "$(app_seen $a)" = 18000 ] || fail "a counted b2's frames"
	ok "restarted b took queue 1 back and received 700 exactly"

	# a leaves: the program stays for b2, which keeps counting; b2 last out removes it
	stop_run $a || { cat "$out/a.err"; fail "a exited $?"; }
	grep -q "the XDP program stays for the other xskf runs" "$out/a.err" || fail "a's leaving line"
	[ "$(xdp_attached)" = "$id" ] || fail "a removed the shared program"
	[ "$(json_get "$out/a.json" "(lambda q: q['rx_packets'] + q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'])(d['queues'][0])")" = 18000 ] ||
		fail "a's final count"
	share_send 300 5001 1
	rx_is $b2 1000
	stop_run $b2 || { cat "$out/b2.err"; fail "b2 exited $?"; }
	[ "$(json_get "$out/b2.json" "d['queues'][0]['rx_packets']")" = 1000 ] || fail "b2's final count"
	assert_no_xdp "after the last instance"
	[ -z "$(ls "$XSKF_CTL_DIR" | grep '\.lock$')" ] || fail "lock file left: $(ls "$XSKF_CTL_DIR")"
	ok "a left the program to b2 (300 more exactly); b2, last out, removed it and its lock file"
}

run_share_crash() {
	local a b id rc
	share_two
	share_send 1000 5001 1 $b
	rx_is $b 1000
	# a fatal signal: the handler detaches only when no other live run owns a queue
	kill -SEGV $a
	wait $a
	rc=$?
	[ $rc -gt 128 ] || fail "a exited $rc after SIGSEGV"
	[ "$(xdp_attached)" = "$id" ] || fail "a's fatal-signal handler detached the program under b"
	share_send 2000 5001 1 $b
	rx_is $b 3000
	wait_line "$out/b.err" "its owner xsk-rxdrop pid $a is gone"
	ok "a crashed (SIGSEGV): the program stayed, b received 2000 more exactly"
	# a restart on queue 0 joins b's program; a SIGKILL of it changes nothing for b either
	share_start a2 0 1 5000
	grep -q "joined the XDP program (id $id)" "$out/a2.err" || fail "a2 did not join"
	kill -KILL $PID
	wait $PID 2>/dev/null
	share_send 500 5001 1 $b
	rx_is $b 3500
	stop_run $b || { cat "$out/b.err"; fail "b exited $?"; }
	assert_no_xdp "after b, the last one, left a program that a attached"
	ok "b, last out, removed the program the crashed a had attached"
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
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --cpus 0 --rate 100000 --resend --json >"$out/g0.json" || fail gen0
	gen "$GEN" -i "$TB_IF_GEN" -n 2000 --cpus 1 --rate 100000 --resend --json >"$out/g1.json" || fail gen1
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
share) run_share ;;
share-crash) run_share_crash ;;
multiqueue-huge) run_multiqueue_huge ;;
*) fail "unknown case $case_name" ;;
esac

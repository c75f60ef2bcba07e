#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xskf doctor and xskfctl doctor on the veth bed (issue 46): each fault made on purpose, and
# doctor names exactly that cause in one line and no other; a healthy setup gets exactly
# "no problem found".
#   test_doctor.sh pre-healthy    xskf doctor -q 0 on the bed: "no problem found", exit 0; --json
#   test_doctor.sh pre-foreign    another XDP program attached alone (foreign_pass.bpf.c)
#   test_doctor.sh pre-queue      a queue the veth does not have
#   test_doctor.sh pre-busy-poll  -B where the queues have no NAPI ID (veth names none)
#   test_doctor.sh pre-umem       --frames smaller than the fill ring
#   test_doctor.sh live-healthy   a run receiving paced traffic: "no problem found"
#   test_doctor.sh live-unbound   a run on queue 0, the traffic sent to queue 1 (--cpus 1)
#   test_doctor.sh live-slow      an app slower than the traffic (tests/plugins/slow.c) starves
#                                 the fill ring
#   test_doctor.sh live-umem      a UMEM too small for the fill ring, a burst
#   test_doctor.sh live-busy-poll -B on sockets without a NAPI ID
#   test_doctor.sh live-rx-full   the slow app with an RX ring smaller than the fill ring: RX ring
#                                 full (kernel rx_ring_full), not the fill ring empty
#   test_doctor.sh live-tx-full   l2fwd with bursts bigger than its TX ring: frames to send
#                                 dropped (drop_tx_full)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
TP=${XSKF_TEST_PLUGINS:-$B/tests/plugins}
tb_up_out "xd$$"
IF=$TB_IF_DUT

# pre ARGS...: xskf doctor on the bed's DUT interface; its stdout in $out/dr.out, status in rc
pre() {
	dut "$XSKF" doctor -i "$IF" "$@" >"$out/dr.out" 2>"$out/dr.err"
	rc=$?
	cat "$out/dr.out"
}

# only_line PATTERN: the doctor's output is one line, and it matches PATTERN (grep -E)
only_line() {
	[ "$(wc -l <"$out/dr.out")" = 1 ] || fail "not one line: $(cat "$out/dr.out" "$out/dr.err")"
	grep -Eq -- "$1" "$out/dr.out" || fail "the line is not '$1': $(cat "$out/dr.out")"
}

# start_run ARGS...: xskf run ARGS on the DUT, in the background: $pid, its stderr $out/rx.err
start_run() {
	XSKF_PLUGIN_PATH=$TP ip netns exec "$TB_NS_DUT" "$XSKF" run "$@" >"$out/rx.out" 2>"$out/rx.err" &
	pid=$!
	FAIL_HOOKS=(show_run)
	wait_for "control socket of pid $pid" ctl_up "$pid"
}
show_run() { tail -5 "$out/rx.err"; }

# doctor_bg SECONDS: xskfctl doctor on the run, in the background ($dpid); returns once its
# first sample is taken (its "sampling" line on stderr)
doctor_bg() {
	"$CTL" -s "$pid" doctor --seconds "$1" >"$out/dr.out" 2>"$out/dr.err" &
	dpid=$!
	wait_line "$out/dr.err" "doctor: sampling"
}

# doctor_end: wait for xskfctl doctor; its status in rc, its lines shown
doctor_end() {
	wait "$dpid"
	rc=$?
	cat "$out/dr.out"
}

case $case_name in
pre-healthy)
	pre -q 0
	[ "$(cat "$out/dr.out")" = "no problem found" ] && [ $rc = 0 ] ||
		fail "a healthy bed: $(cat "$out/dr.out" "$out/dr.err") (exit $rc)"
	dut "$XSKF" doctor -i "$IF" -q 0 --json >"$out/dr.json" || fail "--json exit $?"
	[ "$(json_get "$out/dr.json" 'd["doctor"], d["interface"], d["queues"], d["problems"]')" = \
		"1 $IF [0] 0" ] || fail "JSON: $(cat "$out/dr.json")"
	# every check has the five members; the driver's unanswered ones say so, not a problem
	json_get "$out/dr.json" 'all(set(c) == {"check", "severity", "what", "evidence", "fix"} for c in d["checks"])' |
		grep -q True || fail "JSON members"
	json_get "$out/dr.json" '[c["severity"] for c in d["checks"] if c["check"] == "rss"]' |
		grep -q unknown || fail "rss on veth: not 'unknown'"
	grep -q "not reported by the driver" "$out/dr.json" || fail "no 'not reported by the driver'"
	ok "healthy: exactly 'no problem found', exit 0; --json: problems 0, rss unknown"
	;;
pre-foreign)
	dut ip link set dev "$IF" xdpdrv obj "$XSKF_FOREIGN_OBJ" sec xdp || fail "attach foreign"
	pre -q 0
	only_line "^problem xdp: another XDP program 'foreign_pass' \(id [0-9]+\) holds $IF alone, in native mode: .*; fix: ip link set dev $IF xdp off"
	[ $rc = 1 ] || fail "exit $rc with a problem"
	ok "another program in front: one line, its name, mode and fix"
	;;
pre-queue)
	pre -q 5
	only_line "^problem queues: queue 5 asked, $IF has no such RX queue; evidence: 2 RX queues \(0-1\)"
	ok "a queue the interface lacks"
	;;
pre-busy-poll)
	# the check reads the queues' NAPI IDs (netdev queue-get): where xskf may not (the row of
	# the netdev family or of NAPI IDs forced off, or a kernel before 6.8) no path can tell
	[ "$(dut "$XSKF" features --json | $PY -c 'import json,sys; u=json.load(sys.stdin)["uses"]; print(u["napi_ids"] and u["netdev_genl"])')" = True ] ||
		skip "-B without a NAPI ID: xskf features says the queues' NAPI IDs cannot be read here (XSKF_FEATURES_OFF=${XSKF_FEATURES_OFF:-})"
	pre -q 0 -B
	only_line "^problem napi: queue 0 of $IF has no NAPI ID: busy polling \(-B\) needs one.*; fix: drop -B"
	ok "-B without a NAPI ID"
	;;
pre-umem)
	pre -q 0 --frames 1024
	only_line "^problem umem: the UMEM is too small for the rings: .*--frames 1024 for 1 socket per worker, each fill ring 2048 slots.*; fix: --frames 4096"
	ok "a UMEM too small for the fill ring"
	;;
live-healthy)
	start_run rxdrop -i "$IF" -q 0 -c --cpus 1
	doctor_bg 3
	# veth: the peer's RX queue is the sending CPU modulo the queue count (queue 0)
	gen_paced $pid 3000 500 --cpus 0 --json
	doctor_end
	[ "$(cat "$out/dr.out")" = "no problem found" ] && [ $rc = 0 ] ||
		fail "a healthy run: $(cat "$out/dr.out") (exit $rc)"
	ok "a healthy run receiving 3000 frames: exactly 'no problem found'"
	;;
live-unbound)
	start_run rxdrop -i "$IF" -q 0 -c --cpus 1
	doctor_bg 8
	gen "$GEN" -i "$TB_IF_GEN" -n 1000 --cpus 1 --resend --json >"$out/gen.json" || fail "generator"
	sent_is "$out/gen.json" 1000
	doctor_end
	only_line "^problem unbound-queue: 1000 frames arrived on $IF queue 1, where this run binds no socket: the program passed them to the stack, while the bound queues received nothing; evidence: program passed \+1000 on queue 1; the bound queues received 0; fix: bind queue 1 too \(-q 1\)"
	ok "traffic on an unbound queue: one line, 1000 frames, queue 1"
	;;
live-slow)
	# an RX ring bigger than the frames the fill ring holds: the fill ring runs dry first
	start_run slow -i "$IF" -q 0 -c --cpus 1 --rx-ring 4096 -- --frame-us 100
	doctor_bg 4
	gen "$GEN" -i "$TB_IF_GEN" -n 20000 --cpus 0 --rate 50000 --json >"$out/gen.json" || fail "generator"
	doctor_end
	only_line "^problem fill-empty: $IF queue 0 lost [0-9]+ frames: the fill ring was empty when they came: the app gives buffers back slower than the traffic takes them; evidence: kernel rx_dropped \+[0-9]+, rx_fill_ring_empty_descs \+[0-9]+ in [0-9.]+ s \([0-9]+ of them while the worker slept\); fill ring 2048 slots, UMEM 4096 frames for 1 socket; worker 0 worked [0-9.]+ s of the [0-9.]+ s, [0-9.]+ us per frame received"
	# the plugin spends 100 us on each frame: the line says so
	us=$(sed -E 's/.* ([0-9.]+) us per frame received.*/\1/' "$out/dr.out")
	[ "${us%.*}" -ge 100 ] || fail "$us us per frame, the plugin spends 100"
	ok "a slow app: one line, the fill ring empty, $us us per frame"
	;;
live-umem)
	start_run rxdrop -i "$IF" -q 0 -c --cpus 1 --frames 256
	doctor_bg 4
	gen "$GEN" -i "$TB_IF_GEN" -n 50000 --cpus 0 --json >"$out/gen.json" || fail "generator"
	doctor_end
	only_line "^problem fill-empty: $IF queue 0 lost [0-9]+ frames: the fill ring was empty when they came, and the UMEM is too small to fill it; evidence: .*the UMEM has 256 frames for 1 socket, each fill ring 2048 slots \(2048 frames to fill them\); fix: --frames 4096 or more"
	ok "a UMEM too small: one line, its frames and the fill ring's"
	;;
live-rx-full)
	# an RX ring smaller than the buffers in the fill ring, and the slow app: the RX ring fills
	# first, while the fill ring still holds ~2000 buffers, so the kernel counts every lost frame
	# in rx_ring_full and none in rx_dropped (copy mode checks the RX ring's room before it takes
	# a buffer: net/xdp/xsk.c __xsk_rcv)
	start_run slow -i "$IF" -q 0 -c --cpus 1 --rx-ring 64 --json -- --frame-us 100
	doctor_bg 8
	gen "$GEN" -i "$TB_IF_GEN" -n 20000 --cpus 0 --rate 50000 --json >"$out/gen.json" || fail "generator"
	sent_is "$out/gen.json" 20000
	# every frame received or counted lost, before the window closes (8 s; 20000 frames take 0.4 s)
	wait_seen $pid 20000
	doctor_end
	only_line "^problem rx-ring-full: $IF queue 0 lost [0-9]+ frames: the RX ring was full: the worker takes frames off it slower than they come; evidence: kernel rx_ring_full \+[0-9]+, rx_dropped \+0, rx_fill_ring_empty_descs \+0 in [0-9.]+ s; RX ring 64 slots, fill ring 2048, bursts of 64; worker 0 worked [0-9.]+ s of the [0-9.]+ s, [0-9.]+ us per frame received; fix: --rx-ring 2048 \(the fill ring's size"
	stop_run "$pid" || fail "the run exited $?"
	lost=$(sed -E 's/.* lost ([0-9]+) frames.*/\1/' "$out/dr.out")
	# the whole burst fell in the window: the line's count is the run's, and the frames add up
	[ "$(json_get "$out/rx.out" 'sum(q["kernel"]["rx_ring_full"] for q in d["queues"])')" = "$lost" ] ||
		fail "doctor says $lost, the run's rx_ring_full: $(json_get "$out/rx.out" '[q["kernel"] for q in d["queues"]]')"
	[ "$(json_get "$out/rx.out" 'sum(q["kernel"]["rx_dropped"] for q in d["queues"])')" = 0 ] || fail "rx_dropped too"
	rx=$(json_get "$out/rx.out" 'sum(q["rx_packets"] for q in d["queues"])')
	[ $((rx + lost)) = 20000 ] || fail "received $rx + lost $lost != sent 20000"
	pid=
	ok "RX ring full: one line, $lost of 20000 lost in rx_ring_full (the run's own count), $rx received, none in rx_dropped"
	;;
live-tx-full)
	# l2fwd (MAC swap, back out of the same port) taking bursts of 256 frames (-b 256) into a
	# TX ring of 64: one burst fills the ring at once, the worker stages the rest (two bursts at
	# most) and drops what does not fit, while copy mode sends at most a ring per kick. The 4000
	# frames arrive while the run is stopped (SIGSTOP), whatever the generator's way of sending
	# (live frames, or AF_XDP TX where they are refused, whose pace the forwarder could keep
	# up with): the RX ring (4096) holds them all, so nothing is lost on the way in, and on
	# SIGCONT the worker finds 4000 frames to forward at once
	start_run l2fwd -i "$IF" -q 0 -c --cpus 1 -b 256 --tx-ring 64 --rx-ring 4096 --fill-ring 4096 --json
	doctor_bg 8
	x0=$(q0_xdp)
	kill -STOP "$pid"
	gen "$GEN" -i "$TB_IF_GEN" -n 4000 --chunk 4000 --cpus 0 --json >"$out/gen.json" ||
		{ kill -CONT "$pid"; fail "generator"; }
	arrived() { [ $(($(q0_xdp) - x0)) -ge 4000 ]; }
	wait_for "4000 frames at the XDP program of $IF queue 0" arrived
	kill -CONT "$pid"
	sent_is "$out/gen.json" 4000
	# every frame sent on or dropped, before the window closes
	tx_done() { [ "$(app_live $pid "sum(q['tx_packets'] + q['drop_tx_full'] for q in j['queues'])")" = 4000 ]; }
	wait_for "4000 frames sent or dropped by pid $pid" tx_done
	doctor_end
	only_line "^problem tx-full: $IF queue 0: [0-9]+ frames to send were dropped: the TX ring stayed full \(completions come late, or the port sends slower than the app\); evidence: drop_tx_full \+[0-9]+, TX ring found full [0-9]+ times, sent \+[0-9]+; TX ring 64 slots, completion ring 2048, bursts of 256; fix: --tx-ring 512 --comp-ring 512"
	stop_run "$pid" || fail "the run exited $?"
	lost=$(sed -E 's/.*drop_tx_full \+([0-9]+),.*/\1/' "$out/dr.out")
	sent=$(sed -E 's/.* sent \+([0-9]+);.*/\1/' "$out/dr.out")
	# the line's counts are the run's own, and received = sent on + dropped
	read -r rx tx drop kd < <(json_get "$out/rx.out" '" ".join(str(sum(q[k] for q in d["queues"])) for k in ("rx_packets", "tx_packets", "drop_tx_full")) + " " + str(sum(q["kernel"]["rx_dropped"] + q["kernel"]["rx_ring_full"] for q in d["queues"]))')
	[ "$drop" = "$lost" ] && [ "$tx" = "$sent" ] || fail "doctor says dropped $lost, sent $sent; the run: $drop, $tx"
	[ "$rx" = 4000 ] && [ "$kd" = 0 ] && [ $((tx + drop)) = 4000 ] || fail "received $rx (kernel drops $kd), sent on $tx + dropped $drop"
	pid=
	ok "TX ring full: one line, $lost of 4000 dropped (drop_tx_full, the run's own count), $tx sent on, none lost at RX"
	;;
live-busy-poll)
	start_run rxdrop -i "$IF" -q 0 -c -B --cpus 1
	doctor_bg 1
	doctor_end
	only_line "^problem busy-poll: busy polling \(-B\) was asked and is off: 1 of the run's 1 sockets has no NAPI ID to poll .*; fix: drop -B"
	ok "-B without NAPI IDs: one line"
	;;
*) fail "case $case_name" ;;
esac
if [ -n "${pid:-}" ]; then
	stop_run "$pid" || fail "the run exited $?"
	# a healthy start says nothing of doctor's: no start-up warning names it on veth
	! grep -q "xskf doctor" "$out/rx.err" || fail "start-up warned: $(grep "xskf doctor" "$out/rx.err")"
fi
exit 0

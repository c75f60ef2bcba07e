#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Steering on the veth test bed (docs/steering.md), with real traffic and the kernel's stack:
#   test_steer.sh host     - xsk-rxdrop takes UDP to 5353 with exact counts while the same
#                            interface answers ping and serves HTTP (python3 http.server, curl)
#   test_steer.sh drop     - a drop rule drops exactly the frames it matches, and counts them
#   test_steer.sh live     - rules added, deleted and the default swapped under traffic: every
#                            frame sent is seen once, seen = xsk + pass + cpumap + drop = hits;
#                            'dport 05353' is port 5353, and add answers with the rule as read
#   test_steer.sh cpumap   - frames a cpumap rule passes are taken by the stack in the cpumap
#                            thread of its CPU (its run time grows), those of a plain pass rule
#                            without it; the stack delivers both to UDP sockets
#   test_steer.sh keephost - --keep-host: no rule, every other frame to the app, yet ping works
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up_out "xs$$"
export XSKF_CTL_DIR
XSKF_CTL_DIR=$(mktemp -d)
at_exit_last 'rm -rf "$XSKF_CTL_DIR"'

# steer PID EXPR: EXPR over the first port's steering member `s` of the run PID's live JSON
steer() { app_live "$1" "(lambda s: $2)(j['steering'][0])"; }
# hits PID ID: rule ID's hits (ID 0: the default)
hits() { steer "$1" "[r['hits'] for r in s['rules'] if r['id'] == $2][0]"; }
# balanced PID: seen = xsk + pass + cpumap + drop = every rule's hits + extra ($2)
balanced() {
	steer "$1" "s['seen'] == s['xsk'] + s['pass'] + s['cpumap'] + s['drop'] == sum(r['hits'] for r in s['rules']) + ${2:-0}"
}
ctl() { dut "$CTL" -s "$(ctl_sock "$1")" "${@:2}"; }

start() { # start ARGS...: xsk-rxdrop on the dut with ARGS; sets PID
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --cpus 1 --json "$@" \
		>"$out/rx.json" 2>"$out/rx.err" &
	PID=$!
	WAIT_SHOW=$out/rx.err wait_attached $PID
	wait_for "control socket of pid $PID" ctl_up "$PID"
}

finish() { # stop the run; its final JSON in $out/rx.json
	stop_run "$PID" || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
}

send() { # send N DPORT [generator options]: N frames from CPU 0 (the dut's queue 0), exactly
	local n=$1 dport=$2
	shift 2
	gen "$GEN" -i "$TB_IF_GEN" -n "$n" --dport "$dport" --cpus 0 --rate 100000 --resend --json \
		"$@" >"$out/gen.json" || fail "generator"
	sent_is "$out/gen.json" "$n"
}

# the stack gets frames through XDP: the sender must finish its checksums (ENVIRONMENT.md)
gen ethtool -K "$TB_IF_GEN" tx off >/dev/null

case $case_name in
host)
	start --steer 'udp dport 5353 xsk'
	wait_line "$out/rx.err" "steering: 1 rule (first: udp dport 5353 xsk), default pass"
	ip netns exec "$TB_NS_DUT" /usr/bin/python3 -m http.server 8080 --bind 192.0.2.2 --directory "$out" \
		>/dev/null 2>"$out/http.err" &
	http=$!
	at_exit "kill $http 2>/dev/null"
	echo hello-steer >"$out/index.html"
	# 500 at a time, each once the app counted the ones before: 3000 at once overflowed its
	# 2048-slot ring once, the worker starved by a loaded machine (the lab's guest beside it)
	gen_paced "$PID" 3000 500 --dport 5353 --cpus 0 --rate 100000 --json
	send 500 9
	gen ping -c 3 -i 0.2 -W 2 192.0.2.2 >"$out/ping" || { cat "$out/ping"; fail "no ping answer"; }
	ok "ping answered while the app takes UDP 5353"
	wait_for "HTTP server" gen curl -sf -m 2 -o /dev/null http://192.0.2.2:8080/
	[ "$(gen curl -sf -m 5 http://192.0.2.2:8080/index.html)" = hello-steer ] ||
		fail "HTTP answer"
	ok "HTTP served over TCP while the app takes UDP 5353"
	[ "$(steer "$PID" "s['xsk']")" = 3000 ] || fail "xsk $(steer "$PID" "s['xsk']"), not 3000"
	[ "$(hits "$PID" 1)" = 3000 ] || fail "rule 1 hits $(hits "$PID" 1)"
	[ "$(app_rx "$PID")" = 3000 ] || fail "app received $(app_rx "$PID"), not 3000"
	[ "$(steer "$PID" "s['pass'] >= 500 + 3")" = True ] || fail "pass too low"
	[ "$(balanced "$PID")" = True ] || fail "accounting: $(steer "$PID" s)"
	finish
	[ "$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")" = 3000 ] ||
		fail "final rx"
	ok "exactly 3000 UDP 5353 frames at the app, $(json_get "$out/rx.json" "d['steering'][0]['pass']") to the stack"
	;;
drop)
	start --steer 'udp dport 7 drop' --steer 'udp dport 5353 xsk'
	send 1234 7
	send 100 5353
	wait_app_rx "$PID" 100
	[ "$(hits "$PID" 1)" = 1234 ] || fail "drop rule hits $(hits "$PID" 1), not 1234"
	[ "$(steer "$PID" "s['drop']")" = 1234 ] || fail "drop $(steer "$PID" "s['drop']")"
	[ "$(app_rx "$PID")" = 100 ] || fail "app received $(app_rx "$PID")"
	[ "$(balanced "$PID")" = True ] || fail "accounting: $(steer "$PID" s)"
	ok "1234 frames to port 7 dropped in XDP and counted, 100 to 5353 at the app"
	finish
	;;
live)
	start --steer 'udp dport 9 xsk'
	total=60000
	gen "$GEN" -i "$TB_IF_GEN" -n $total --dport 5353 --cpus 0 --rate 20000 --resend --json \
		>"$out/gen.json" &
	g=$!
	wait_for "traffic seen" ge steer "$PID" "s['seen']" 2000
	# a leading zero is decimal, and the answer is the rule as read (as steer list has it)
	a=$(ctl "$PID" steer add udp dport 05353 drop) || fail "add: $a"
	id=$(sed -n 's/^ok: rule \([0-9]*\) added.*/\1/p' <<<"$a")
	[ "$a" = "ok: rule $id added: udp dport 5353 drop" ] || fail "add's answer: $a"
	wait_for "drops" ge hits "$PID" "$id" 2000
	ctl "$PID" steer add default drop >/dev/null || fail "default drop"
	d=$(ctl "$PID" steer del "$id") || fail "del: $d"
	gone=$(sed -n 's/^ok: rule [0-9]* deleted after \([0-9]*\) hits/\1/p' <<<"$d")
	wait_for "default drops" ge hits "$PID" 0 2000
	# the default's counter is per queue: the default drop's hits and the later xsk's add up
	ctl "$PID" steer add default xsk >/dev/null || fail "default xsk"
	ctl "$PID" steer add udp dport 5353 bogus >/dev/null && fail "a bad rule was taken"
	wait "$g" || fail "generator"
	sent=$(sent_of "$out/gen.json")
	[ "$sent" = $total ] || fail "generator sent $sent of $total"
	wait_for "every frame seen" ge steer "$PID" "s['seen']" $total
	[ "$(steer "$PID" "s['seen']")" = $total ] || fail "seen $(steer "$PID" "s['seen']") of $total"
	[ "$(balanced "$PID" "$gone")" = True ] || fail "accounting: $(steer "$PID" s), deleted $gone"
	xsk=$(steer "$PID" "s['xsk']")
	# received, or dropped by the kernel when the worker fell behind (a loaded machine): the
	# check below counts both, and waiting for received alone never ends once one is dropped
	wait_for "$xsk frames at the sockets of pid $PID" ge app_seen "$PID" "$xsk"
	ctl "$PID" steer list
	finish
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] + q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])")
	[ "$rx" = "$xsk" ] || fail "xsk $xsk but the sockets got $rx"
	ok "$total frames under live changes: seen once each, $(json_get "$out/rx.json" "d['steering'][0]") "
	;;
cpumap)
	ip netns exec "$TB_NS_DUT" /usr/bin/python3 "$S/tests/integration/udp_cpu.py" 192.0.2.2 5000 5001 \
		>"$out/udp.json" 2>"$out/udp.err" &
	u=$! # not through dut(): $! must be python itself, which prints its counts at SIGTERM
	at_exit "kill $u 2>/dev/null"
	wait_line "$out/udp.err" "^ready$"
	start --steer 'udp dport 5000 cpumap 1' --steer 'udp dport 5001 pass' --steer 'default xsk'
	# the cpumap's kernel thread for CPU 1: cpumap/1/map:ID, ID our steer_cpus map's
	prog=$(dut ip -j link show dev "$TB_IF_DUT" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["xdp"]["prog"]["id"])')
	mid=$(bpftool -j prog show id "$prog" | $PY -c '
import json, subprocess, sys
for m in json.load(sys.stdin)["map_ids"]:
    i = json.loads(subprocess.check_output(["bpftool", "-j", "map", "show", "id", str(m)]))
    if i["name"] == "steer_cpus":
        print(m)')
	[ -n "$mid" ] || fail "no steer_cpus map in program $prog"
	name="cpumap/1/map:$mid"
	kt=
	for c in /proc/[0-9]*/comm; do
		case $(cat "$c" 2>/dev/null) in "$name" | "${name:0:15}") kt=${c%/comm} ;; esac
	done
	[ -n "$kt" ] || fail "no kernel thread $name"
	run_ns() { cut -d' ' -f1 "$kt/schedstat"; }
	t0=$(run_ns)
	send 2000 5000
	wait_for "cpumap count" ge steer "$PID" "s['cpumap']" 2000
	# the XDP counter counts a frame when it is queued for the thread, which runs later: wait
	# for its run time to move (a state), not for the machine to be quick enough
	wait_for "$name to run for the cpumap frames" ge run_ns $((t0 + 1))
	t1=$(run_ns)
	send 2000 5001
	wait_for "pass rule count" ge hits "$PID" 2 2000
	t2=$(run_ns)
	[ "$(steer "$PID" "s['cpumap']")" = 2000 ] || fail "cpumap $(steer "$PID" "s['cpumap']")"
	[ "$(hits "$PID" 2)" = 2000 ] || fail "pass rule hits $(hits "$PID" 2)"
	[ "$(balanced "$PID")" = True ] || fail "accounting: $(steer "$PID" s)"
	cpu=$(awk '{ print $39 }' "$kt/stat") # the thread leaves with the program
	finish
	kill -TERM "$u"
	wait "$u"
	cat "$out/udp.json"
	[ "$cpu" = 1 ] || fail "$name runs on CPU $cpu"
	[ "$t1" -gt "$t0" ] || fail "$name did not run for the cpumap frames"
	n0=$(json_get "$out/udp.json" "d['5000']['n']")
	n1=$(json_get "$out/udp.json" "d['5001']['n']")
	# the XDP counters are exact; the stack behind a cpumap may drop when its queue (2048
	# frames) is full on a busy machine, so its delivery is shown, not required whole
	[ "$n0" -gt 0 ] && [ "$n1" -gt 0 ] || fail "the stack delivered $n0 and $n1 of 2000 datagrams"
	ok "cpumap: 2000 frames through $name on CPU 1 ($(((t1 - t0) / 1000)) us of its time, $n0 delivered to the socket), then 2000 by plain pass ($(((t2 - t1) / 1000)) us of it, $n1 delivered)"
	;;
keephost)
	start --keep-host
	wait_line "$out/rx.err" "steering: [0-9]* rules (first: arp pass), default xsk"
	ctl "$PID" steer list | tee "$out/list"
	grep -q "dst 192.0.2.2/32 pass .*(--keep-host)" "$out/list" || fail "own address rule"
	gen ping -c 3 -i 0.2 -W 2 192.0.2.2 >"$out/ping" || { cat "$out/ping"; fail "no ping answer"; }
	send 1000 9 --dst-ip 192.0.2.77
	wait_app_rx "$PID" 1000
	ok "--keep-host: ping to the host answered, 1000 frames to another address at the app"
	finish
	;;
*) fail "unknown case $case_name" ;;
esac

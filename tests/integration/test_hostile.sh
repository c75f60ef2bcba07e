#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# A hostile served client (issue 44; docs/reliability.md, "The serving boundary"): xsk-rxdrop
# binds queue 0 and serves queue 1 (--serve 1 --pin-group nogroup, a rule sending UDP 5000 to
# the sockets). Each attack a pod could try with nothing but the served group is made, as
# nobody in that group and as uid 0 without capabilities (setpriv), through hostile_bpf.py
# (bpf() made directly) and xskf-xsk-client --key; each test asserts the attack is refused or
# has no effect, that the server still counts exactly the frames of its own queue and still
# steers (its rule's hits; UDP 5001 to the stack), and that nothing is left at the end.
#   test_hostile.sh maps          write a rule, steer_gen 0, queue owners marked dead, the
#                                 counters: neither pinned nor reachable by map id
#   test_hostile.sh xskmap-pinned the pinned map is queue 1's alone: no XSKMAP of queue 0 to
#                                 open, its key 0 deleted or filled reaches nothing
#   test_hostile.sh xskmap-uds    the device-plugin socket: queue 0's map refused in one line,
#                                 the map it gives is queue 1's: key 0 deleted or filled does
#                                 nothing to the server
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
require_root
case_name=${1:?case}
HOSTILE=$S/tests/integration/hostile_bpf.py
need_client
GID=$(getent group nogroup | cut -d: -f3)
[ -n "$GID" ] || skip "no group nogroup"
serve_bed_up "xh$$"
# who attacks: nobody in the pin group, and uid 0 without a capability (a pod's shape)
AS_nobody=(setpriv --reuid=65534 --regid=65534 --groups="$GID" --inh-caps=-all
	--bounding-set=-all)
AS_root0=(setpriv --reuid=0 --regid=0 --clear-groups --inh-caps=-all --bounding-set=-all)
# nobody with CAP_NET_RAW alone: what an AF_XDP socket needs
AS_nobody_raw=(setpriv --reuid=65534 --regid=65534 --groups="$GID" --inh-caps=-all,+net_raw
	--ambient-caps=+net_raw --bounding-set=-all,+net_raw)

# as WHO HOSTILE-ARGS...: the attack's line in $out/h.out; its exit status (0: it was done)
as() {
	local who=$1 v="AS_$1[@]"
	shift
	"${!v}" $PY "$HOSTILE" "$@" >"$out/h.out" 2>&1
}
# refused WHO HOSTILE-ARGS...: the attack must fail
refused() {
	as "$@" && fail "$1: the attack was done: $(cat "$out/h.out")"
	grep -q "^refused " "$out/h.out" || fail "$1: $(cat "$out/h.out")"
	echo "#   $1: $(cat "$out/h.out")"
}
# tried WHO HOSTILE-ARGS...: an attack the kernel may well do (deleting an empty XSKMAP key
# succeeds): what counts is that it changes nothing of the server's (still_serving after it)
tried() {
	as "$@"
	grep -q "^\(done\|refused\) " "$out/h.out" || fail "$1: $(cat "$out/h.out")"
	echo "#   $1: $(cat "$out/h.out")"
}
# no_caps WHO: the identity really has no capability (else the test proves nothing)
no_caps() {
	as "$1" caps
	[ "$(cat "$out/h.out")" = 0000000000000000 ] || fail "$1 has capabilities $(cat "$out/h.out")"
}
# map_id NAME: the id of the serving program's map NAME (as root, for the attacks by id)
map_id() {
	bpftool -j prog show id "$(xdp_attached)" | $PY -c '
import json, subprocess, sys
for i in json.load(sys.stdin)["map_ids"]:
    m = json.loads(subprocess.check_output(["bpftool", "-j", "map", "show", "id", str(i)]))
    if m["name"] == sys.argv[1]:
        print(i)' "$1"
}
hits() { app_live "$1" "[r['hits'] for r in j['steering'][0]['rules'] if r['id']][0]"; }

# still_serving PID Q0: the server counts exactly the next 1000 frames of queue 0 (Q0 before),
# UDP 5001 on queue 0 goes to the stack (steering on), its rule took exactly the UDP 5000 ones
still_serving() {
	local a=$1 rx0 h0
	rx0=$(app_rx "$a") && h0=$(hits "$a") || fail "no live stats"
	send 500 5001 0
	send_q0 "$a" 1000
	[ "$(app_rx "$a")" = $((rx0 + 1000)) ] ||
		fail "the server received $(($(app_rx "$a") - rx0)) of 1000 (UDP 5001 must go to the stack)"
	[ "$(hits "$a")" = $((h0 + 1000)) ] || fail "rule hits $(hits "$a"), not $((h0 + 1000))"
}

# the end: server stopped cleanly, nothing pinned, attached or listening, no attacker left
nothing_left() {
	stop_run "$1" || { tail -5 "$out/a.err"; fail "the server exited $?"; }
	[ ! -e "$PINS" ] || fail "pins left: $(ls -la "$PINS")"
	[ -z "$(ls -A "$BPF/xskf" 2>/dev/null)" ] || fail "left in $BPF/xskf: $(ls -A "$BPF/xskf")"
	[ -z "${2:-}" ] || [ ! -e "$2" ] || fail "socket $2 left"
	assert_no_xdp "at the end"
	! grep -q "SIGSEGV\|Segmentation" "$out/a.err" || fail "the server crashed"
}

run_maps() {
	local a who m id
	serve_start a pinned '' --pin-group nogroup
	a=$PID
	for who in nobody root0; do
		no_caps $who
		for m in xskf_rules steer_gen xskf_queues xskf_owner counters steer_acts xsks; do
			id=$(map_id $m)
			[ -n "$id" ] || fail "no map $m in the program"
			refused $who write "$PINS/$m" 0 128
			refused $who write "id:$id" 0 128
			refused $who delete "id:$id" 0
		done
		ok "$who: no rule, steer_gen, owner, counter or own-XSKMAP write: not pinned, not opened by id"
		still_serving "$a"
		ok "$who: the server counted exactly 1000 more on queue 0 and still steers"
	done
	nothing_left "$a"
	ok "nothing left"
}

run_xskmap_pinned() {
	local a who c
	serve_start a pinned '' --pin-group nogroup
	a=$PID
	[ "$(ls "$PINS" | tr '\n' ' ')" = "xsks_map xsks_map_q1 " ] || fail "pinned: $(ls "$PINS")"
	for who in nobody root0; do
		no_caps $who
		refused $who open "$PINS/xsks_map_q0"
		# the served queue's map: the group may open it; key 0 is not the server's there
		tried $who delete "$PINS/xsks_map" 0
		tried $who delete "$PINS/xsks_map_q1" 0
		refused $who write "$PINS/xsks_map" 0 4 # not a socket
		ok "$who: no XSKMAP of queue 0 to open; key 0 of queue 1's map holds nothing of the server"
		still_serving "$a"
	done
	# a socket of queue 1 entered at key 0 of the map it was given: queue 0's frames stay the
	# server's (the program reads queue 1's map at key 1 alone); where the kernel refuses
	# bpf() to the client (before 6.5: the attacks above were refused by it), no client runs
	if why=$(unpriv_bpf_refused); then
		echo "# no served client: $why"
		nothing_left "$a"
		ok "nothing left"
		return
	fi
	ip netns exec "$TB_NS_DUT" "${AS_nobody_raw[@]}" "$CLIENT" "$TB_IF_DUT" 1 \
		--pinned "$PINS/xsks_map" --key 0 >"$out/client.out" 2>"$out/client.err" &
	c=$!
	CLIENT_PID=$c
	at_exit "kill $c 2>/dev/null"
	WAIT_SHOW=$out/client.err wait_for "the client's socket in the map" has_line "$out/client.out" "^ready"
	still_serving "$a"
	kill -TERM $c
	wait $c
	grep -q "^final 0$" "$out/client.out" || fail "the client received: $(tail -1 "$out/client.out")"
	ok "a queue-1 socket at key 0 of queue 1's map got none of queue 0's frames; the server all 1000"
	ip netns exec "$TB_NS_DUT" "${AS_root0[@]}" "$CLIENT" "$TB_IF_DUT" 1 --pinned "$PINS/xsks_map" \
		>"$out/client.out" 2>&1 && fail "uid 0 without capabilities made an AF_XDP socket"
	ok "uid 0 without capabilities: no AF_XDP socket ($(tail -1 "$out/client.out"))"
	nothing_left "$a"
	ok "nothing left"
}

run_xskmap_uds() {
	local a who c udir sock n
	udir=$(mktemp -d)
	chmod 0711 "$udir"
	at_exit "rm -rf '$udir'"
	sock=$udir/afxdp.sock
	serve_start a uds "$sock" --pin-group nogroup
	a=$PID
	for who in nobody root0; do
		no_caps $who
		n=$(grep -c "which is not served (--serve): refused" "$out/a.err")
		refused $who uds "$sock" "/xsk_map_fd,$TB_IF_DUT,0"
		wait_for "the server's line on queue 0" ge grep -c "asked for the XSKMAP of queue 0 of $TB_IF_DUT, which is not served (--serve): refused" "$out/a.err" $((n + 1))
		# the map it does give is queue 1's: key 0 there is not the server's
		tried $who uds "$sock" "/xsk_map_fd,$TB_IF_DUT" delete 0
		tried $who uds "$sock" "/xsk_map_fd,$TB_IF_DUT,1" delete 0
		ok "$who: queue 0's XSKMAP refused (one line); key 0 of the map given holds nothing of the server"
		still_serving "$a"
	done
	if why=$(unpriv_bpf_refused); then # as in run_xskmap_pinned
		echo "# no served client: $why"
		nothing_left "$a" "$sock"
		ok "nothing left"
		return
	fi
	ip netns exec "$TB_NS_DUT" "${AS_nobody_raw[@]}" "$CLIENT" "$TB_IF_DUT" 1 --uds "$sock" --key 0 \
		>"$out/client.out" 2>"$out/client.err" &
	c=$!
	CLIENT_PID=$c
	at_exit "kill $c 2>/dev/null"
	WAIT_SHOW=$out/client.err wait_for "the client's socket in the map" has_line "$out/client.out" "^ready"
	still_serving "$a"
	kill -TERM $c
	wait $c
	grep -q "^final 0$" "$out/client.out" || fail "the client received: $(tail -1 "$out/client.out")"
	ok "a queue-1 socket at key 0 of the map the socket gave got none of queue 0's frames"
	nothing_left "$a" "$sock"
	ok "nothing left"
}

case $case_name in
maps) run_maps ;;
xskmap-pinned) run_xskmap_pinned ;;
xskmap-uds) run_xskmap_uds ;;
*) fail "unknown case $case_name" ;;
esac

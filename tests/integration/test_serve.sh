#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Serving other AF_XDP apps (docs/operations.md, "Serving other AF_XDP apps"):
#   test_serve.sh pinned  - xsk-rxdrop binds queue 0 and keeps queue 1 for another app
#                           (--serve 1), its maps pinned (--pin-dir, --pin-group); a libxdp
#                           app (xskf-xsk-client) enters its socket on queue 1 in the pinned
#                           XSKMAP and receives exactly what xskf's rule sends there, while
#                           xskf takes queue 0's; the queue is listed (xskfctl list) and refused
#                           to another run in one line; the pins go at SIGINT, at a crash
#                           (SIGSEGV), and after SIGKILL at the next start
#   test_serve.sh uds     - the same served queue, its XSKMAP handed out on the AF_XDP device
#                           plugin's socket (--serve-uds): the client takes it by /xsk_map_fd
#                           and receives exactly its frames; bad input (dp_uds_client.py) is
#                           answered /nak, /host_nak, /fd_nak or /error and leaves no fd behind;
#                           the socket files go at exit, in their own folder even when it
#                           was renamed and a symlink put in its place (the target untouched)
#   test_serve.sh unpriv-pinned, unpriv-uds
#                         - xsk-rxdrop as user nobody with CAP_NET_RAW alone (setpriv) on the
#                           served queue 1, the XSKMAP taken from the pinned path (--xsk-map)
#                           or the device-plugin socket (--xsk-map-uds) of a privileged
#                           xsk-rxdrop on queue 0: exact counts on both; its start-up line
#                           says what it did not do; --steer there refused in one line
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
require_root
case_name=${1:?case}
need_client
serve_bed_up "xs$$"

client_rx() { # the client's last count
	local l
	l=$(grep -E '^(rx|final) ' "$out/client.out" | tail -1)
	echo "${l#* }"
}
no_pins() { [ ! -e "$PINS" ]; }

run_pinned() {
	local a c
	serve_start a pinned '' --pin-group nogroup
	a=$PID
	grep -q "queue 1 kept for other AF_XDP apps (--serve)" "$out/a.err" ||
		{ cat "$out/a.err"; fail "the --serve line"; }
	# the folder is opened to the group only once whole: 0750 and 0660, group nogroup
	[ "$(stat -c '%a %G' "$PINS")" = "750 nogroup" ] || fail "folder: $(stat -c '%a %G' "$PINS")"
	[ "$(stat -c '%a %G' "$PINS/xsks_map")" = "660 nogroup" ] || fail "xsks_map's mode"
	# only what the served app needs: the maps only xskf writes are not the group's
	for m in xskf_queues xskf_rules xskf_owner steer_acts steer_gen counters; do
		[ ! -e "$PINS/$m" ] || fail "map $m pinned"
	done
	[ "$(ls "$PINS" | tr '\n' ' ')" = "xsks_map xsks_map_q1 " ] || fail "pinned: $(ls "$PINS")"
	ok "maps pinned in $PINS (0750, maps 0660, group nogroup): queue 1's XSKMAP alone (xsks_map, xsks_map_q1)"

	ip netns exec "$TB_NS_DUT" "$CLIENT" "$TB_IF_DUT" 1 --pinned "$PINS/xsks_map" >"$out/client.out" 2>"$out/client.err" &
	c=$!
	CLIENT_PID=$c
	at_exit "kill $c 2>/dev/null"
	WAIT_SHOW=$out/client.err wait_for "the client's socket in the map" has_line "$out/client.out" "^ready"
	send 500 5001 1     # queue 1, no rule: the stack, not the client
	send_q1 2000 client_rx # queue 1: the rule sends them to the client's socket
	send_q0 $a 3000     # queue 0: xskf's socket
	[ "$(app_rx $a)" = 3000 ] || fail "xskf received $(app_rx $a), not 3000"
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[5000]" ] ||
		fail "rule hits: $(app_live $a "j['steering'][0]['rules']")"
	ok "xskf received 3000 on queue 0; its rule took 5000 in all"

	# listed, and refused to another run in one line
	"$B/apps/xskfctl" list >"$out/list" || fail "xskfctl list"
	grep -q "^$a .* $TB_IF_DUT:0 $TB_IF_DUT:1(served)\$" "$out/list" || { cat "$out/list"; fail "list"; }
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 1 --duration 1 >/dev/null 2>"$out/b.err" &&
		fail "another run took the served queue"
	[ "$(grep -c . "$out/b.err")" = 1 ] || { cat "$out/b.err"; fail "more than one line"; }
	grep -q "queue 1 of $TB_IF_DUT is kept for another AF_XDP app's socket by xsk-rxdrop pid $a (--serve)" \
		"$out/b.err" || { cat "$out/b.err"; fail "refusal"; }
	ok "listed as $TB_IF_DUT:1(served); refused: $(cat "$out/b.err")"

	kill -TERM $c
	wait $c || fail "client exited $?"
	[ "$(client_rx)" = 2000 ] || fail "the client received $(client_rx), not 2000"
	grep -q "^final 2000$" "$out/client.out" || fail "client's final line"
	stop_run $a || { cat "$out/a.err"; fail "xsk-rxdrop exited $?"; }
	[ "$(json_get "$out/a.json" "d['queues'][0]['rx_packets']")" = 3000 ] || fail "a's final count"
	[ "$(json_get "$out/a.json" "d['ports'][0]['served']")" = "[1]" ] || fail "JSON served"
	no_pins || fail "pins left at SIGINT: $(ls -la "$PINS")"
	assert_no_xdp "after SIGINT"
	ok "the client received exactly 2000 (its queue's UDP 5000, not the 500 UDP 5001); pins gone at SIGINT"

	# a crash: the fatal-signal hook unpins
	serve_start s pinned '' --pin-group nogroup
	kill -SEGV $PID
	wait $PID 2>/dev/null
	no_pins || fail "pins left after SIGSEGV"
	assert_no_xdp "after SIGSEGV"
	ok "SIGSEGV: pins removed by the fatal-signal hook"

	# SIGKILL leaves them; the next run with the folder removes them, says so, and pins anew
	serve_start k pinned '' --pin-group nogroup
	kill -KILL $PID
	wait $PID 2>/dev/null
	[ -e "$PINS/xsks_map" ] || fail "SIGKILL cannot unpin: pins should be left"
	serve_start n pinned '' --pin-group nogroup
	grep -q "removed the pins in $PINS of maps no program uses" "$out/n.err" ||
		{ cat "$out/n.err"; fail "stale pins not said"; }
	stop_run $PID || fail "run after SIGKILL"
	no_pins || fail "pins left after the run after SIGKILL"
	assert_no_xdp "at the end"
	ok "SIGKILL left pins; the next run removed them (one line) and left none"
}

run_uds() {
	local a c sock=$XSKF_CTL_DIR/afxdp.sock fds0 fds1
	serve_start a uds "$sock"
	a=$PID
	grep -qF "device-plugin socket $sock (AF_XDP device plugin protocol 0.1" "$out/a.err" ||
		{ cat "$out/a.err"; fail "the device-plugin socket's line"; }
	grep -q "queue 1 kept for other AF_XDP apps (--serve): our rules apply there; an app takes one by taking the XSKMAP from the device-plugin socket $sock" \
		"$out/a.err" || { cat "$out/a.err"; fail "the --serve line"; }
	[ "$(stat -c '%a %F' "$sock")" = "600 socket" ] || fail "socket: $(stat -c '%a %F' "$sock")"
	[ ! -e "$BPF/xskf" ] || fail "--serve with --serve-uds pinned maps"
	ok "device-plugin socket $sock (0600), nothing pinned"

	fds0=$(ls /proc/$a/fd | wc -l)
	ip netns exec "$TB_NS_DUT" "$PY" "$S/tests/integration/dp_uds_client.py" "$sock" "$TB_IF_DUT" ||
		{ tail -5 "$out/a.err"; fail "protocol checks"; }
	wait_line "$out/a.err" "device-plugin socket: test-pod-3 (pid [0-9]*) went away"
	# the line comes after the close; the connections closed for bad input before it may still
	# be on their way out of the server's loop: wait for the count (the state), then compare
	fds_back() { LAST=$(ls /proc/$a/fd | wc -l); [ "$LAST" = "$fds0" ]; }
	wait_until "$WAIT_S" fds_back ||
		fail "the server holds $LAST fds after the bad input, $fds0 before: $(ls -l /proc/$a/fd | tail -n +2 | awk '{print $NF}' | tr '\n' ' ')"
	fds1=$LAST
	ok "bad input answered; the server holds $fds1 fds, as before"

	ip netns exec "$TB_NS_DUT" "$CLIENT" "$TB_IF_DUT" 1 --uds "$sock" >"$out/client.out" 2>"$out/client.err" &
	c=$!
	CLIENT_PID=$c
	at_exit "kill $c 2>/dev/null"
	WAIT_SHOW=$out/client.err wait_for "the client's socket in the map" has_line "$out/client.out" "^ready"
	grep -q "device-plugin socket: gave the XSKMAP of $TB_IF_DUT to " "$out/a.err" || fail "no 'gave' line"
	send 500 5001 1
	send_q1 2000 client_rx
	send_q0 $a 3000
	kill -TERM $c
	wait $c || { cat "$out/client.err"; fail "client exited $?"; }
	[ "$(client_rx)" = 2000 ] || fail "the client received $(client_rx), not 2000"
	[ "$(app_rx $a)" = 3000 ] || fail "xskf received $(app_rx $a), not 3000"
	ok "the client took the XSKMAP by /xsk_map_fd and received exactly 2000; xskf 3000"

	# the folder renamed and a symlink to another in its place: the sockets are removed in
	# the folder they were made in (its fd, held), never through the symlink (issue 44)
	local moved=$XSKF_CTL_DIR.moved victim=$XSKF_CTL_DIR.victim
	mkdir -m 0700 "$victim"
	at_exit "rm -rf '$victim' '$moved'"
	for f in afxdp.sock "xsk-rxdrop.$a.sock"; do
		$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$victim/$f"
	done
	mv "$XSKF_CTL_DIR" "$moved"
	ln -s "$victim" "$XSKF_CTL_DIR"
	stop_run $a || { cat "$out/a.err"; fail "xsk-rxdrop exited $?"; }
	rm "$XSKF_CTL_DIR"
	mv "$moved" "$XSKF_CTL_DIR"
	[ -S "$victim/afxdp.sock" ] && [ -S "$victim/xsk-rxdrop.$a.sock" ] ||
		fail "a socket in the symlink's target was removed: $(ls "$victim")"
	[ ! -e "$sock" ] || fail "socket file left at exit"
	[ ! -e "$XSKF_CTL_DIR/xsk-rxdrop.$a.sock" ] || fail "control socket left at exit"
	assert_no_xdp "after SIGINT"
	ok "socket files removed at exit in their own folder, renamed meanwhile; the symlink's target untouched"
}

# an unprivileged user: nobody, CAP_NET_RAW alone (the AF_XDP socket), no CAP_BPF,
# CAP_SYS_ADMIN or CAP_NET_ADMIN; locked memory: the default limit (8 MiB here, which even
# root cannot raise in this container), so a 4 MiB UMEM (--frames 2048) in copy mode (-c: a
# failed zero-copy bind's UMEM is uncharged only later, and would count twice)
AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+net_raw
	--ambient-caps=+net_raw --bounding-set=-all,+net_raw)
u_live() { # u_live PID EXPR: app_live of the unprivileged run (its own control folder)
	local s
	s=$(XSKF_CTL_DIR=$UCTL ctl_sock "$1") || return 1
	setpriv --reuid=65534 --regid=65534 --clear-groups "$B/apps/xskfctl" -s "$s" stats 2>/dev/null |
		$PY -c "import json,sys; j=json.load(sys.stdin); print($2)"
}
u_rx() { u_live "$1" "sum(q['rx_packets'] for q in j['queues'])"; }

# flood_start SOCK: idle clients of 8 uids of group nogroup take the server's 64 places, each
# opened again as soon as the server closes it (issue 44); a client of another uid must still
# be served within the server's deadline (1 s), and so must the unprivileged run after it
flood_start() {
	local dpc=$S/tests/integration/dp_uds_client.py
	$PY "$dpc" "$1" "$TB_IF_DUT" --flood 65526,65527,65528,65529,65530,65531,65532,65533 8 \
		>"$out/flood.out" 2>&1 &
	FLOOD=$!
	at_exit "kill $FLOOD 2>/dev/null"
	wait_line "$out/flood.out" "^flooding: 8 uids, 8 connections each"
	setpriv --reuid=65534 --regid=nogroup --clear-groups $PY "$dpc" "$1" "$TB_IF_DUT" \
		--served-within 1.0 >"$out/within.out" 2>&1 || { cat "$out/within.out"; fail "not served beside the flood"; }
	ok "64 idle connections of 8 uids, opened again as closed: another uid $(cat "$out/within.out" | sed 's/^ok - //')"
}
flood_stop() { # the flood ends; the server closed its idle connections (said in a line)
	local n
	kill -TERM $FLOOD
	wait $FLOOD || fail "the flood exited $?"
	n=$(awk '/^closed/ {s += $2} END {print s + 0}' "$out/flood.out")
	[ "$n" -gt 0 ] || { cat "$out/flood.out"; fail "the server closed none of the idle connections"; }
	wait_line "$out/a.err" "device-plugin socket: closed [0-9]* connections\? that had not taken an XSKMAP (1000 ms from connect to /xsk_map_fd; 8 connections per peer uid, 64 in all)"
	ok "the flood ended: the server had closed $n of its idle connections; the unprivileged run was served beside it"
}

run_unpriv() {
	local how=$1 a u sock udir from rc why
	why=$(unpriv_bpf_refused) && skip "$why"
	UCTL=$(mktemp -d)
	chown 65534:65534 "$UCTL"
	at_exit_last 'rm -rf "$UCTL"'
	if [ "$how" = pinned ]; then
		serve_start a pinned '' --pin-group nogroup
		from=(--xsk-map "$PINS/xsks_map")
	else
		udir=$(mktemp -d)
		chmod 0711 "$udir"
		at_exit "rm -rf '$udir'" # now: udir is local, gone when the EXIT trap runs
		sock=$udir/afxdp.sock
		serve_start a uds "$sock" --pin-group nogroup
		[ "$(stat -c '%a %G' "$sock")" = "660 nogroup" ] || fail "socket: $(stat -c '%a %G' "$sock")"
		from=(--xsk-map-uds "$sock")
	fi
	a=$PID
	[ "$how" = uds ] && flood_start "$sock"
	# what a served run cannot do is refused in one line, before anything is set up
	ip netns exec "$TB_NS_DUT" "${AS_NOBODY[@]}" env XSKF_CTL_DIR="$UCTL" "$RXDROP" -i "$TB_IF_DUT" \
		-q 1 "${from[@]}" --steer "udp dport 6000 xsk" >/dev/null 2>"$out/r.err" &&
		fail "a served run took --steer"
	[ "$(grep -c . "$out/r.err")" = 1 ] || { cat "$out/r.err"; fail "more than one line"; }
	grep -q -- "--steer, --steer-file and --keep-host write the program's rule table, and the program is the serving process's" \
		"$out/r.err" || { cat "$out/r.err"; fail "--steer refusal"; }

	ip netns exec "$TB_NS_DUT" "${AS_NOBODY[@]}" env XSKF_CTL_DIR="$UCTL" "$RXDROP" -i "$TB_IF_DUT" \
		-q 1 "${from[@]}" -c --frames 2048 --cpus 0 --json >"$out/u.json" 2>"$out/u.err" &
	u=$!
	wait_line "$out/u.err" "served: the XSKMAP (id [0-9]*) of ${from[1]}; this run attaches no XDP program"
	wait_for "control socket of pid $u" u_live "$u" 1
	[ "$how" = uds ] && flood_stop
	# the run's capabilities: at most CAP_NET_RAW (bit 13; its bounding set holds nothing
	# else), none left once set up (privs.c drops them), uid nobody
	[ "$(awk '/^CapBnd/ {print $2}' /proc/$u/status)" = 0000000000002000 ] &&
		[ "$(awk '/^CapEff/ {print $2}' /proc/$u/status)" = 0000000000000000 ] ||
		fail "capabilities $(grep ^Cap /proc/$u/status)"
	[ "$(awk '/^Uid/ {print $3}' /proc/$u/status)" = 65534 ] || fail "not running as nobody"
	send 500 5001 1
	send_q1 2000 u_rx $u
	send_q0 $a 3000
	[ "$(u_rx $u)" = 2000 ] || fail "the unprivileged run received $(u_rx $u), not 2000"
	[ "$(app_rx $a)" = 3000 ] || fail "the privileged run received $(app_rx $a), not 3000"
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[5000]" ] ||
		fail "rule hits: $(app_live $a "j['steering'][0]['rules']")"
	ok "nobody with CAP_NET_RAW alone (${from[0]}) received exactly 2000 on queue 1, the privileged run 3000 on queue 0; rule hits 5000"
	kill -INT $u
	wait $u
	rc=$?
	[ $rc = 0 ] || { tail -5 "$out/u.err"; fail "the unprivileged run exited $rc"; }
	[ "$(json_get "$out/u.json" "d['queues'][0]['rx_packets']")" = 2000 ] || fail "its final count"
	[ "$(json_get "$out/u.json" "d['ports'][0]['attach_mode']")" = served ] || fail "attach_mode"
	if [ "$how" = uds ]; then
		wait_line "$out/a.err" "device-plugin socket: gave the XSKMAP of $TB_IF_DUT to "
	fi
	stop_run $a || { cat "$out/a.err"; fail "the privileged run exited $?"; }
	assert_no_xdp "at the end"
	no_pins || fail "pins left"
	ok "$(grep -o 'served: the XSKMAP.*' "$out/u.err" | head -1)"
}

case $case_name in
pinned) run_pinned ;;
unpriv-pinned) run_unpriv pinned ;;
unpriv-uds) run_unpriv uds ;;
uds) run_uds ;;
*) fail "unknown case $case_name" ;;
esac

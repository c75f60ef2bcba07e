#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# An adversarial pass over a running xsk-rxdrop on the veth test bed (docs/reliability.md,
# issue 26), one case per run:
#   slow-clients  200 idle and 8 drip-feeding control clients, re-connecting as fast as they are
#                 closed, while --duration 8 runs and the link goes down and up: the flap is
#                 reported, the live lines keep coming, another `xskfctl stats` is answered,
#                 the clients over the bound get the one-line refusal, the drip-feeders a
#                 timeout, and the run ends in a bounded time with exit 0
#   signals       each signal whose default action ends the process: the program detached, the
#                 control socket removed, the summary written, the documented exit status
#                 (0 for INT and TERM, 128+N for the others; SIGSYS and SIGTRAP re-raised);
#                 SIGHUP and SIGPIPE do not end the run
#   sigpipe       `xsk-rxdrop ... | head -n 2`: stops cleanly, summary on stderr, exit 0
#   peercred      xskfctl refuses an answer from a socket served by another user; the run
#                 refuses a client of another user
#   stale-files   the stale-socket clean-up deletes only sockets of dead runs, never a plain
#                 file or a symlink named like one, and nothing in a folder xskf does not own
#   zombie        a SIGKILLed run left a zombie (its parent does not reap): a restart comes up
#                 at once and replaces its program
#   btf-once      the kernel BTF is read once per run by xskf (+ once per loaded object by
#                 libbpf): 3 reads for two ports (it was 6)
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
export XSKF_CTL_DIR
XSKF_CTL_DIR=$(mktemp -d)
tb_up "xa$$"
out=$(mktemp -d)
BG= # helpers started in the background, ended on exit
trap 'kill $BG 2>/dev/null; tb_cleanup; rm -rf "$out" "$XSKF_CTL_DIR"' EXIT

# start_rx ARGS...: xsk-rxdrop on the dut (CPU 1), stdout in $out/rx.out; waits for its socket.
# Every signal at its default action (a background job of a script ignores SIGINT and SIGQUIT),
# as it is for a run started from a terminal.
start_rx() {
	rm -f "$out/rx.err"
	ip netns exec "$TB_NS_DUT" env --default-signal "$RXDROP" -i "$TB_IF_DUT" -c --cpus 1 "$@" \
		>"$out/rx.out" 2>"$out/rx.err" </dev/null &
	RX_PID=$!
	wait_for "control socket of pid $RX_PID" up_or_gone $RX_PID
	kill -0 $RX_PID 2>/dev/null || { cat "$out/rx.err"; fail "xsk-rxdrop did not start"; }
}

line_in() { grep -q -- "$1" "$2" 2>/dev/null; }
up_or_gone() { line_in "control socket" "$out/rx.err" || ! kill -0 "$1" 2>/dev/null; }
wait_line() { wait_for "line '$1' from xsk-rxdrop" line_in "$1" "$out/rx.err"; }
gone() { ! kill -0 "$1" 2>/dev/null; }
no_socket() { ! ls "$XSKF_CTL_DIR"/*.sock >/dev/null 2>&1; }

# wait_rc PID: wait for it, its exit status in $rc
wait_rc() {
	rc=0
	wait "$1" || rc=$?
}

case $case_name in
slow-clients)
	start_rx --duration 8
	t0=$(date +%s%N) # the socket opens on the run's first tick: the clock has started
	sock=$(ctl_sock $RX_PID) || fail "no control socket"
	$PY "$S/tests/integration/ctl_clients.py" "$sock" 200 8 "$out/clients.json" &
	cpid=$!
	BG="$BG $cpid"
	# the clients are in: more connections than the listen backlog holds
	clients_in() { [ "$(ls -l /proc/$cpid/fd 2>/dev/null | grep -c socket)" -ge 8 ]; }
	wait_for "client connections" clients_in
	# another request is answered meanwhile (a bound: the old server never got to it)
	ta=$(date +%s%N)
	timeout 5 "$CTL" -s "$sock" stats >"$out/stats" 2>&1 && json_get "$out/stats" 'd["app"]' >/dev/null ||
		{ cat "$out/stats"; fail "xskfctl stats was not answered in 5 s under 200 idle clients"; }
	ms=$((($(date +%s%N) - ta) / 1000000))
	echo "xskfctl stats answered in $ms ms"
	# the watch still runs: a link flap is told, both ways
	dut ip link set "$TB_IF_DUT" down
	WAIT_S=5 wait_line "link down"
	dut ip link set "$TB_IF_DUT" up
	WAIT_S=5 wait_line "link up again"
	wait_rc $RX_PID
	s=$((($(date +%s%N) - t0) / 1000000))
	kill -TERM $cpid 2>/dev/null
	wait $cpid
	cat "$out/clients.json"
	echo
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
	# --duration 8 ends on its clock (it ended at 10.2 s under 200 idle clients before): the
	# run's own summary says when its loop ended, whatever its shutdown and this shell took
	el=$(sed -n 's/^--- xsk-rxdrop: \([0-9.]*\) s$/\1/p' "$out/rx.out")
	[ -n "$el" ] || { cat "$out/rx.out"; fail "no summary line"; }
	awk -v e="$el" 'BEGIN { exit !(e < 9.0) }' || fail "--duration 8 ended its loop after $el s"
	# the per-second lines kept coming: one per second of the run, 2 queues each
	lines=$(grep -c '^\[.*s\] total' "$out/rx.out")
	[ "$lines" -ge 6 ] || { cat "$out/rx.out"; fail "only $lines live lines in 8 s"; }
	json_get "$out/clients.json" 'd["busy"] > 0 and d["timeout"] > 0' | grep -q True ||
		fail "no refusal over the bound, or no timeout of a drip-feeder"
	ok "200 idle + 8 drip clients: flap told, stats in $ms ms, $lines live lines, loop ended at $el s, exit after $s ms"
	;;
signals)
	# name:expected exit status; RTMIN is the first real-time signal (glibc: 34)
	for sc in INT:0 TERM:0 QUIT:131 USR1:138 USR2:140 ALRM:142 VTALRM:154 PROF:155 XCPU:152 \
		XFSZ:153 IO:157 PWR:158 STKFLT:144 RTMIN:162 RTMAX:192 SYS:159 TRAP:133; do
		sig=${sc%%:*} want=${sc#*:}
		start_rx --json
		kill -s "$sig" $RX_PID
		wait_for "the end of the run after SIG$sig" gone $RX_PID
		wait_rc $RX_PID
		[ "$rc" = "$want" ] || { cat "$out/rx.err"; fail "SIG$sig: exit $rc, expected $want"; }
		assert_no_xdp "after SIG$sig"
		no_socket || fail "SIG$sig left the control socket $(ls "$XSKF_CTL_DIR")"
		case $sig in
		SYS | TRAP) ;; # re-raised at once: no summary
		*)
			json_get "$out/rx.out" 'd["census_ok"]' | grep -q True ||
				fail "SIG$sig: no JSON summary with a good census"
			[ $want = 0 ] || grep -q "stopped by signal" "$out/rx.err" || fail "SIG$sig not named"
			;;
		esac
		ok "SIG$sig: exit $rc, program detached, socket removed"
	done
	# SIGHUP (the apps' reload) and SIGPIPE (ignored) do not end the run
	start_rx --json
	kill -HUP $RX_PID
	kill -PIPE $RX_PID
	ctl_up $RX_PID || fail "not answering after SIGHUP and SIGPIPE"
	kill -0 $RX_PID || fail "ended by SIGHUP or SIGPIPE"
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || fail "exit $rc after SIGHUP, SIGPIPE, SIGINT"
	assert_no_xdp "after SIGHUP, SIGPIPE"
	ok "SIGHUP and SIGPIPE: the run goes on; SIGINT then ends it with exit 0"
	;;
sigpipe)
	# the pipeline must end by itself: head reads two lines and exits
	ip netns exec "$TB_NS_DUT" timeout 60 "$RXDROP" -i "$TB_IF_DUT" -c --cpus 1 \
		2>"$out/rx.err" </dev/null | head -n 2 >"$out/head"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 124 ] && fail "xsk-rxdrop | head -n 2 did not end"
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
	[ "$(wc -l <"$out/head")" = 2 ] || fail "head did not get two lines"
	grep -q "output is closed" "$out/rx.err" || fail "no line about the closed output"
	grep -q "^--- xsk-rxdrop" "$out/rx.err" || { cat "$out/rx.err"; fail "no summary on stderr"; }
	assert_no_xdp "after a closed stdout"
	no_socket || fail "the control socket was left"
	ok "xsk-rxdrop | head -n 2: exit 0, summary on stderr, program detached, socket removed"
	;;
peercred)
	# a folder another user controls, and a socket of theirs in it that forges answers
	d=$(mktemp -d)
	chown 65534:65534 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups $PY -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
os.chmod(sys.argv[1], 0o666); print("ready", flush=True)
while True:
    c, _ = s.accept(); c.recv(100); c.sendall(b"ok: forged answer from uid 65534\n"); c.close()
' "$d/xsk-rxdrop.1.sock" >"$out/forger" &
	fpid=$!
	BG="$BG $fpid"
	wait_for "the forger's socket" line_in ready "$out/forger"
	rc=0
	"$CTL" -s "$d/xsk-rxdrop.1.sock" stats >"$out/o" 2>"$out/e" || rc=$?
	kill $fpid
	wait $fpid 2>/dev/null
	rm -rf "$d"
	grep -q forged "$out/o" && fail "xskfctl printed the forged answer"
	[ "$rc" = 1 ] || fail "xskfctl exit $rc on a socket of another user"
	grep -q "served by uid 65534 .*neither root nor you" "$out/e" || { cat "$out/e"; fail "no refusal"; }
	ok "xskfctl: $(cat "$out/e")"
	# the server side: a client of another user (the socket opened to all for the test)
	start_rx
	sock=$(ctl_sock $RX_PID)
	chmod 0777 "$XSKF_CTL_DIR"
	chmod 0666 "$sock"
	ans=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$sock" stats 2>&1)
	chmod 0700 "$XSKF_CTL_DIR"
	grep -q "permission denied: only root or the run's own user" <<<"$ans" || fail "answered: $ans"
	ctl_up $RX_PID || fail "root is not answered"
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || fail "exit $rc"
	ok "the run: '$ans'"
	;;
stale-files)
	sleep 0 &
	dead=$!
	wait $dead
	kill -0 $dead 2>/dev/null && skip "pid $dead reused at once"
	D=$XSKF_CTL_DIR
	echo "precious" >"$D/victim.$dead.sock"
	chown 65534 "$D/victim.$dead.sock"
	echo "target" >"$out/target"
	ln -s "$out/target" "$D/link.$dead.sock"
	$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/old.$dead.sock"
	[ -S "$D/old.$dead.sock" ] || fail "no stale socket made"
	start_rx
	[ -f "$D/victim.$dead.sock" ] || fail "a plain file named like a socket was deleted"
	[ -L "$D/link.$dead.sock" ] && [ -f "$out/target" ] || fail "a symlink or its target was deleted"
	[ -e "$D/old.$dead.sock" ] && fail "the stale socket of a dead run was left"
	kill -INT $RX_PID
	wait_rc $RX_PID
	ok "stale clean-up: the dead run's socket removed, a plain file and a symlink left alone"
	# a folder we do not own: no clean-up in it, no socket, one warning, the run goes on
	D2=$(mktemp -d)
	chown 65534 "$D2"
	$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D2/old.$dead.sock"
	XSKF_CTL_DIR=$D2 ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -c --cpus 1 \
		--duration 1 --quiet >/dev/null 2>"$out/rx.err" </dev/null
	rc=$?
	[ -S "$D2/old.$dead.sock" ] || fail "a socket was deleted in a folder of another user"
	n=$(ls "$D2" | wc -l)
	rm -rf "$D2"
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
	[ "$n" = 1 ] || fail "a socket was made in a folder of another user"
	grep -q "is not a folder xskf owns (owner uid 65534" "$out/rx.err" || { cat "$out/rx.err"; fail "no warning"; }
	ok "a folder of uid 65534: $(grep -o "is not a folder xskf owns[^:]*" "$out/rx.err")"
	;;
zombie)
	# a parent that starts the run and never waits for it: once killed, it stays a zombie
	ZERR=$out/z.err $PY -c '
import os, signal, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open(os.environ["ZERR"], "w"))
print(p.pid, flush=True)
signal.pause()  # never p.wait(): until the test ends us
' ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -c --cpus 1 --quiet >"$out/zpid" &
	ppid_=$!
	BG="$BG $ppid_"
	wait_for "the child's pid" line_in . "$out/zpid"
	zpid=$(cat "$out/zpid")
	# ip netns exec execs the app: the pid is the app's
	wait_for "the first run's socket" line_in "control socket" "$out/z.err"
	kill -KILL "$zpid"
	is_zombie() { [ "$(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null)" = Z ]; }
	wait_for "pid $zpid to be a zombie" is_zombie
	start_rx --quiet
	grep -q "replacing XDP program .* left by a killed xskf run (pid $zpid)" "$out/rx.err" ||
		{ cat "$out/rx.err"; fail "no replacement of the zombie's program"; }
	is_zombie || fail "the zombie went away during the test"
	kill -INT $RX_PID
	wait_rc $RX_PID
	kill $ppid_ 2>/dev/null
	wait $ppid_ 2>/dev/null
	[ "$rc" = 0 ] || fail "exit $rc"
	assert_no_xdp "after the restart"
	ok "a zombie owner (pid $zpid, state Z) is dead: the restart came up at once"
	;;
btf-once)
	# a second port, in native mode (the hints program: the kfuncs need the kernel BTF)
	P2=xa$$p
	dut ip link add "$P2" type veth peer name "${P2}g" netns "$TB_NS_GEN"
	dut ip link set "$P2" up
	gen ip link set "${P2}g" up
	# LeakSanitizer cannot run under ptrace: leaks are checked by the other cases
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" ip netns exec "$TB_NS_DUT" strace -f -qq -e trace=openat -o "$out/strace" "$RXDROP" \
		-i "$TB_IF_DUT" -i "$P2" -c -N --cpus 1 --duration 1 --quiet >/dev/null 2>"$out/rx.err"
	rc=$?
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
	n=$(grep -c '"/sys/kernel/btf/vmlinux"' "$out/strace")
	# xskf's probe once; libbpf once per object it loads (it takes no parsed BTF: 1.1.2)
	[ "$n" = 3 ] || fail "the kernel BTF was opened $n times for two ports (want 1 + 2)"
	ok "two ports: the kernel BTF opened $n times (xskf once, libbpf once per port)"
	;;
*) fail "unknown case $case_name" ;;
esac

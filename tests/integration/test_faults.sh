#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Faults while xsk-rxdrop runs on the veth test bed (docs/reliability.md), one case per run:
#   link-flap    the dut link goes down and up while traffic flows: the run carries on, says
#                so, and every frame the generator made is received, or counted by veth (refused
#                while down) or by the kernel (AF_XDP drops): nothing unaccounted, exit 0
#   deleted      the interface is deleted: one line, exit 1, quickly, nothing attached elsewhere
#   moved        the interface is moved to another namespace: the same
#   channels     `ethtool -L` under the program: refused by the kernel, or reported by xskf
#   mtu          MTU raised beyond a UMEM frame: reported; too-long frames counted in rx_dropped
#   starve       a tiny fill and RX ring under load: frames lost only where the kernel counts
#                them, census and reconciliation hold
#   replaced     another program attached over ours: reported, exit 1, theirs left in place
#   busy         the queue held by another app's AF_XDP socket (the generator's, sending with
#                AF_XDP TX): xsk-rxdrop binds again while a socket closed just before could
#                still be in the kernel's deferred release, then says busy in one line, exit
#                1, nothing attached; the same start once the holder is gone binds at once
#   sigkill50    SIGKILL 50 times: at random points of start-up, while running (after the
#                attach, a state, so whatever the machine's speed) and in shutdown (after a
#                SIGINT): every next start cleans up and comes up, with no refusal line; at
#                the end nothing is left attached
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up_out "xf$$"
at_exit 'ip netns del "xf$$-other" 2>/dev/null'

# start_rx ARGS...: xsk-rxdrop on queue 0 of the dut (CPU 1), JSON in $out/rx.json; waits
# until it says its program is attached (not merely until a program is there: a killed run's
# may be)
start_rx() {
	rm -f "$out/rx.err" # the wait below must not read the last run's lines
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" ${RX_QUEUES--q 0} -c -N --cpus 1 --json --quiet "$@" \
		>"$out/rx.json" 2>"$out/rx.err" &
	RX_PID=$!
	rx_line "XDP program attached"
}

# rx_line PATTERN: until the app's stderr has a line matching PATTERN
rx_line() { wait_line "$out/rx.err" "$1"; }

# wait_rc PID: wait for it, its exit status in $rc
wait_rc() {
	rc=0
	wait "$1" || rc=$?
}

# account GEN_JSON: the generator's frames are all accounted for, end to end
# account GEN_JSON [IN_FLIGHT]: IN_FLIGHT frames sent may be missing from the program's counts
# (a link going down frees what its veth ring holds, uncounted: at most 256 a queue).
account() {
	$PY - "$1" "$out/rx.json" "${2:-0}" <<'EOPY' || fail "accounting"
import json, sys
g = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
slack = int(sys.argv[3])
q = r["queues"]
s = lambda f: sum(f(x) for x in q)
rx = s(lambda x: x["rx_packets"])
kdrop = s(lambda x: x["kernel"]["rx_dropped"] + x["kernel"]["rx_ring_full"])
redir = s(lambda x: x["program"]["redirected"])
passed = s(lambda x: x["program"]["passed"] + x["program"]["errors"])
print(f"generator: frames {g['frames']} sent {g['sent']} refused {g['tx_errors']} lost {g['lost']}; "
      f"xsk-rxdrop: redirected {redir} = received {rx} + kernel drops {kdrop}; passed {passed}")
bad = []
if g["frames"] != g["sent"] + g["tx_errors"] + g["lost"]:
    bad.append("generator does not add up")
if redir != rx + kdrop:
    bad.append("redirected != received + kernel drops")
# the dut's stack adds nothing on the quiet bed; allow its few own frames, never fewer (but
# what a link going down freed in the veth ring: slack)
if not (g["sent"] - slack <= redir + passed <= g["sent"] + 10):
    bad.append("sent %d != redirected + passed %d" % (g["sent"], redir + passed))
elif redir + passed < g["sent"]:
    print("note: %d frames were in the veth ring when the link went down (freed by veth, "
          "uncounted; at most %d)" % (g["sent"] - redir - passed, slack))
if not r["census_ok"] or not all(x["reconciled"] for x in q):
    bad.append("census or reconciliation failed")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOPY
}

# attached_or_gone PID: the start PID (stderr in $out/k.err) said its program is attached, or
# ended (refused: the caller reports it)
attached_or_gone() { grep -q "XDP program attached" "$out/k.err" 2>/dev/null || gone "$1"; }

# kill_point K PID: where start K gets its SIGKILL, a third of them each, whatever the
# machine's speed: at a random time in the first 400 ms (early start-up: load, lock, bind);
# at a random time up to 100 ms after it said its program is attached (a run up and
# running); or up to 50 ms after a SIGINT that followed the attach (shutdown: detach,
# clean-up)
kill_point() {
	case $(($1 % 3)) in
	0) sleep "0.$(printf '%03d' $((RANDOM % 400)))" ;;
	1)
		wait_for "start $1 attached (or ended)" attached_or_gone $2
		sleep "0.$(printf '%03d' $((RANDOM % 100)))"
		;;
	2)
		wait_for "start $1 attached (or ended)" attached_or_gone $2
		kill -INT $2
		sleep "0.$(printf '%03d' $((RANDOM % 50)))"
		;;
	esac
}

case $case_name in
link-flap)
	start_rx
	gen "$GEN" -i "$TB_IF_GEN" --cpus 0 -n 3000000 --rate 300000 --json >"$out/gen.json" &
	gpid=$!
	# traffic flows: the dut's XDP counter moves
	wait_for "traffic at $TB_IF_DUT" ge sysfs_ctr "$TB_NS_DUT" "$TB_IF_DUT" rx_packets 1001
	dut ip link set "$TB_IF_DUT" down || fail "ip link set down"
	# (once, under a loaded parallel suite, no line came in 30 s: should it again, the run's
	# threads and the link's state say where it was)
	link_state() { dut ip link show "$TB_IF_DUT"; }
	FAIL_HOOKS+=(link_state)
	WAIT_PID=$RX_PID rx_line "link down"
	dut ip link set "$TB_IF_DUT" up || fail "ip link set up"
	WAIT_PID=$RX_PID rx_line "link up again"
	wait $gpid || fail "generator failed"
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "xsk-rxdrop exited $rc after a link flap"; }
	# frames veth had queued for the dut when its link went down are freed uncounted (its
	# XDP ring: 256 frames a queue): the one gap the counters cannot close
	account "$out/gen.json" $((256 * TB_QUEUES))
	[ "$(json_get "$out/gen.json" 'd["tx_errors"] + d["lost"]')" -gt 0 ] ||
		echo "note: no frame was refused while the link was down (the flap fell between bursts)"
	ok "link down/up: reported, the run carried on, every frame accounted for"
	;;
deleted | moved)
	# a second port, which must be left as it was: program detached, link working
	P2=xf$$p
	dut ip link add "$P2" type veth peer name "${P2}g" netns "$TB_NS_GEN"
	dut ip addr add 198.51.100.2/24 dev "$P2"
	gen ip addr add 198.51.100.1/24 dev "${P2}g"
	dut ip link set "$P2" up
	gen ip link set "${P2}g" up
	start_rx -i "$P2"
	rx_line "$P2: XDP program attached"
	t0=$(date +%s%N)
	if [ $case_name = deleted ]; then
		dut ip link del "$TB_IF_DUT"
	else
		ip netns add "xf$$-other"
		dut ip link set "$TB_IF_DUT" netns "xf$$-other"
	fi
	wait_rc $RX_PID
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$rc" = 1 ] || fail "exit $rc after the interface was $case_name"
	[ "$(grep -c "the interface is gone" "$out/rx.err")" = 1 ] || { cat "$out/rx.err"; fail "no message"; }
	grep -q "detaching the XDP program failed" "$out/rx.err" && fail "a detach error was printed"
	# the watch looks every 250 ms: a broken one would leave the run going until the bound
	[ $ms -lt 5000 ] || fail "it took $ms ms to stop"
	# the other port: our program detached from it, and it carries traffic
	dut ip link show "$P2" | grep -q "prog/xdp" && fail "XDP program left on the other port $P2"
	gen ping -q -c 2 -i 0.2 -W 2 198.51.100.2 >/dev/null || fail "the other port $P2 is hurt"
	ok "interface $case_name: '$(grep "is gone" "$out/rx.err" | cut -c1-60)...', exit 1 after $ms ms"
	;;
channels)
	start_rx
	if dut ethtool -L "$TB_IF_DUT" rx 1 tx 1 2>"$out/ethtool.err"; then
		rx_line "RX queues changed from 2 to 1"
		ok "queue count change accepted by the kernel and reported by xsk-rxdrop"
	else
		ok "queue count change refused by the kernel: $(head -1 "$out/ethtool.err")"
	fi
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || fail "exit $rc"
	assert_no_xdp "after the channels case"
	;;
mtu)
	RX_QUEUES= start_rx # every queue: the stack's frames may come in on either
	dut ip link set "$TB_IF_DUT" mtu 3000 || fail "cannot raise the MTU with the program attached"
	gen ip link set "$TB_IF_GEN" mtu 3000
	rx_line "MTU 3000 allows 3018-byte frames"
	# 5 frames of 2042 bytes (ICMP echo, 2000 bytes of data): each too long for a 2048-byte
	# UMEM frame after 288 bytes of headroom; the replies never come
	gen ping -q -c 5 -i 0.05 -W 1 -s 2000 "$TB_IP4_DUT" >/dev/null && fail "a reply came back"
	kill -INT $RX_PID
	wait_rc $RX_PID
	drops=$(json_get "$out/rx.json" "sum(q['kernel']['rx_dropped'] for q in d['queues'])")
	[ "$drops" = 5 ] || fail "expected 5 frames dropped as too long, the kernel counted $drops"
	ok "MTU above the UMEM frame: reported, 5 too-long frames counted in rx_dropped"
	;;
starve)
	# 64-slot fill and RX rings, 512 frames: the kernel runs out of room at any rate
	start_rx --fill-ring 64 --rx-ring 64 --tx-ring 64 --comp-ring 64 --frames 512 -b 16
	gen "$GEN" -i "$TB_IF_GEN" --cpus 0 -n 500000 --json >"$out/gen.json" || fail "generator"
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
	account "$out/gen.json"
	ok "tiny rings: every frame received or counted by the kernel or veth"
	;;
replaced)
	start_rx
	ours=$(xdp_attached)
	dut ip -force link set dev "$TB_IF_DUT" xdpdrv obj "$XSKF_FOREIGN_OBJ" sec xdp ||
		fail "cannot attach the foreign program"
	wait_rc $RX_PID
	[ "$rc" = 1 ] || fail "exit $rc after our program was replaced"
	grep -q "replaced ours (id $ours)" "$out/rx.err" || { cat "$out/rx.err"; fail "no message"; }
	theirs=$(xdp_attached)
	[ -n "$theirs" ] && [ "$theirs" != "$ours" ] || fail "the foreign program was removed"
	dut ip link set dev "$TB_IF_DUT" xdp off
	ok "program replaced: reported, exit 1, the other program left in place"
	;;
busy)
	# the generator's AF_XDP TX socket on queue 0 of its interface (live frames forced off),
	# paced to outlast the refused start
	# (not through gen(): $! must be the generator, not a subshell that ignores SIGINT)
	XSKF_FEATURES_OFF=live_frames ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" --cpus 0 \
		-n 100000000 --rate 1000 >/dev/null 2>"$out/gen.err" &
	gpid=$!
	wait_line "$out/gen.err" "sending with AF_XDP TX (copy mode) on queue 0"
	gen "$RXDROP" -i "$TB_IF_GEN" -q 0 -c --quiet >/dev/null 2>"$out/b.err"
	rc=$?
	[ "$rc" = 1 ] || { cat "$out/b.err"; fail "exit $rc on a busy queue"; }
	grep -qx "xskf: $TB_IF_GEN queue 0: busy, another AF_XDP socket is bound to it (still after 3 s)" \
		"$out/b.err" || { cat "$out/b.err"; fail "no busy line"; }
	[ -z "$(gen ip -d -j link show dev "$TB_IF_GEN" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0].get("xdp", ""))')" ] ||
		fail "an XDP program was left on $TB_IF_GEN"
	kill -INT $gpid
	wait $gpid
	# the holder gone (and its socket released by the kernel, which may take a while: the
	# retry), queue 0 binds
	gen "$RXDROP" -i "$TB_IF_GEN" -q 0 -c --quiet --duration 1 >/dev/null 2>"$out/c.err" ||
		{ cat "$out/c.err"; fail "queue 0 refused after the holder left"; }
	ok "busy queue: one line after the retries, exit 1, nothing attached; free again once the holder left"
	;;
sigkill50)
	# The lines a start prints when it refuses what a killed run left on the interface (its
	# program, its sockets, its queue claims, the interface's lock): the exact messages of
	# framework/backend/xdp/prog/prog.c, prog_share.c and framework/backend/xdp/xdp.c. Never common words: a
	# normal start says "busy polling", for one.
	cat >"$out/refusals" <<'EOF_REFUSALS'
: xskf \(pid [0-9]+\) is already running on this interface; stop it first$
: another XDP program .* is attached in [a-z]+ mode; remove it with 'ip link set dev
: another XDP program .* holds the interface alone \(.*\), not through libxdp's dispatcher
: libxdp's dispatcher \(id [0-9]+\) is attached, but its state is pinned in a bpffs
: cannot detach XDP program .*: 
: an XDP program was attached meanwhile; remove it or use --force$
: another xskf run has held the interface's lock for 10 s
queue [0-9]+ of .* is taken by .* pid [0-9]+: choose other queues \(-q\) or stop it first$
: the XDP program \(id [0-9]+\) of the run there is gone meanwhile: start again$
queue [0-9]+: busy, another AF_XDP socket is bound to it \(still after 3 s\)$
EOF_REFUSALS
	for ((k = 1; k <= 50; k++)); do
		rm -f "$out/k.err"
		ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -c --quiet >/dev/null \
			2>"$out/k.err" &
		pid=$!
		kill_point $k $pid
		kill -KILL $pid 2>/dev/null
		rc=0
		wait $pid 2>/dev/null || rc=$? # (no "Killed" line from the shell)
		# every start got as far as it was let: none ended on its own (a refusal exits 1,
		# before the kill: SIGKILL is 137; after a SIGINT, 0 is a clean stop), and none
		# printed a refusal of what the last one left (one that the kill cut short in its
		# clean-up)
		[ $rc = 137 ] || { [ $rc = 0 ] && [ $((k % 3)) = 2 ]; } ||
			{ cat "$out/k.err"; fail "start $k after a SIGKILL did not come up (exit $rc)"; }
		if grep -E -f "$out/refusals" "$out/k.err"; then
			fail "start $k after a SIGKILL refused what the last one left"
		fi
	done
	# the next start replaces what the last killed one left and comes up
	start_rx
	grep -q "XDP program attached" "$out/rx.err" || { cat "$out/rx.err"; fail "no start after 50 kills"; }
	kill -INT $RX_PID
	wait_rc $RX_PID
	[ "$rc" = 0 ] || { cat "$out/rx.err"; fail "exit $rc after 50 kills"; }
	assert_no_xdp "after 50 kills and a clean run"
	[ -z "$(ip netns pids "$TB_NS_DUT")" ] || fail "processes left in the namespace"
	ok "50 SIGKILLs in start-up, while running and in shutdown: every next start came up, nothing left attached"
	;;
*) fail "unknown case $case_name" ;;
esac

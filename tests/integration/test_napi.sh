#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# --napi (docs/idle.md, "The kernel's help") on the veth test bed: the device's NAPI settings set,
# read back through sysfs and through xskf's netdev netlink client (xskf-napi-read), and put
# back; frames counted exactly meanwhile.
#   test_napi.sh restore - --napi defer=2,gro-flush=200000: both set (veth: per device, its
#                          copy mode queues name no NAPI), every NAPI of it shows them; SIGINT:
#                          the values it had before (not zero: set by the test) are back, the
#                          state file gone
#   test_napi.sh sigkill - the same, SIGKILL: the values stay changed, the state file stays; the
#                          next start (without --napi) says it put back the dead run's values
#                          and has, and removes the file
#   test_napi.sh planted - a control folder others can write (0777), with a FIFO or a hard link
#                          to another user's file planted under the next run's temporary state
#                          file name: --napi refuses the folder in one line, exit 1, nothing
#                          changed or written; in a folder of ours, a FIFO left under that
#                          name neither blocks the start nor is written into
#   test_napi.sh garbage - files under state file names that xskf did not write (garbage, a
#                          FIFO) in the control folder: each said in one line and removed at the
#                          next start, which comes up
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
NAPI_READ=$B/tests/integration/xskf-napi-read
tb_up_out "xn$$"
# a control folder of the test's own: the state files it looks at are this run's alone
export XSKF_CTL_DIR=$out/ctl

# napi_vals: "DEFER GRO" of the dut's device (sysfs)
napi_vals() {
	echo "$(dut cat "/sys/class/net/$TB_IF_DUT/napi_defer_hard_irqs")" \
		"$(dut cat "/sys/class/net/$TB_IF_DUT/gro_flush_timeout")"
}
# nl_all DEFER GRO: every NAPI netdev netlink lists for the dut has these values (and one at least)
nl_all() {
	dut "$NAPI_READ" "$TB_IF_DUT" >"$out/nl" || return 1
	grep -q "^napi " "$out/nl" &&
		! awk -v d="$1" -v g="$2" '/^napi / && ($4 != d || $6 != g) { bad = 1 } END { exit !bad }' "$out/nl"
}
state_files() { ls "$XSKF_CTL_DIR"/napi.*.state 2>/dev/null; }

# the values before: not the defaults, so that "put back" cannot pass by writing zeros
dut sh -c "echo 1 >/sys/class/net/$TB_IF_DUT/napi_defer_hard_irqs; echo 5000 >/sys/class/net/$TB_IF_DUT/gro_flush_timeout"
[ "$(napi_vals)" = "1 5000" ] || fail "cannot set the bed's starting values: $(napi_vals)"

# start_napi: xsk-rxdrop --napi on the dut; $pid; waits until it runs and has set the values
start_napi() {
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --napi defer=2,gro-flush=200000 \
		--cpus 1 --quiet --json >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	FAIL_HOOKS=(show_err)
	wait_for "control socket" ctl_up $pid
	# why per device: veth's queues name no NAPI, unless the netdev family's or the NAPI IDs'
	# row is forced off (XSKF_FEATURES_OFF), which the line then names
	local why="its queues name no NAPI (its sockets have no NAPI ID)"
	[[ ${XSKF_FEATURES_OFF:-} =~ (^|,)(napi_ids|all)(,|$) ]] &&
		why="NAPI IDs per queue forced off by XSKF_FEATURES_OFF"
	[[ ${XSKF_FEATURES_OFF:-} =~ (^|,)(netdev_genl|all)(,|$) ]] &&
		why="the netdev netlink family forced off by XSKF_FEATURES_OFF"
	grep -qx "xskf: --napi: $TB_IF_DUT set per device through sysfs: $why" "$out/rx.err" ||
		fail "no line saying why per device ($why)"
	grep -q "xskf: --napi: $TB_IF_DUT: napi_defer_hard_irqs 1 -> 2, gro_flush_timeout 5000 -> 200000 ns, per device" "$out/rx.err" ||
		fail "no line saying what was set"
	grep -q "kernel help: busy polling not used: .*NAPI deferral set by --napi (per device, sysfs); IRQ suspension not used: it needs -B on sockets with a NAPI ID (epoll busy polling in the idle wait)" "$out/rx.err" ||
		fail "the idle line does not say what was used"
	[ "$(napi_vals)" = "2 200000" ] || fail "sysfs after the start: $(napi_vals)"
	nl_all 2 200000 || fail "netdev netlink after the start: $(cat "$out/nl")"
	[ -n "$(state_files)" ] || fail "no state file in $XSKF_CTL_DIR"
}
show_err() { echo "--- xsk-rxdrop's messages:"; cat "$out/rx.err"; }

# traffic N: N frames from the generator, each chunk received before the next (exact)
traffic() {
	gen_paced $pid "$1" 500 --cpus 0 --json
}

run_restore() {
	local rx
	start_napi
	traffic 2000
	stop_run $pid || fail "xsk-rxdrop exited $?"
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
	[ "$rx" = 2000 ] || fail "received $rx of 2000"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "census"
	[ "$(napi_vals)" = "1 5000" ] || fail "not put back at exit: $(napi_vals)"
	grep -q "xskf: --napi: put back $TB_IF_DUT: napi_defer_hard_irqs 1, gro_flush_timeout 5000" "$out/rx.err" ||
		fail "no line saying it put them back"
	[ -z "$(state_files)" ] || fail "state file left: $(state_files)"
	assert_no_xdp "after SIGINT"
	ok "--napi: set (sysfs $(napi_vals) before, 2 200000 while running, on every NAPI netlink lists), 2000 of 2000 frames received, put back at SIGINT, no state file left"
}

run_sigkill() {
	local dead rx base
	start_napi
	dead=$pid
	traffic 1000
	rx=$(app_rx $pid) || fail "no live stats"
	[ "$rx" = 1000 ] || fail "received $rx of 1000 before the kill"
	kill -KILL $pid
	wait $pid 2>/dev/null
	[ "$(napi_vals)" = "2 200000" ] || fail "after SIGKILL: $(napi_vals) (nothing can put them back)"
	[ -n "$(state_files)" ] || fail "the dead run's state file is gone"
	# the next start, without --napi: it puts back what the dead run changed
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --cpus 1 --quiet --json \
		>"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_for "control socket of the next run" ctl_up $pid
	grep -q "xskf: a dead run (pid $dead) left NAPI settings changed: put back $TB_IF_DUT: napi_defer_hard_irqs 1, gro_flush_timeout 5000" "$out/rx.err" ||
		fail "the next start does not say it put back the dead run's values"
	[ "$(napi_vals)" = "1 5000" ] || fail "not put back by the next start: $(napi_vals)"
	nl_all 1 5000 || fail "netdev netlink after the next start: $(cat "$out/nl")"
	[ -z "$(state_files)" ] || fail "the dead run's state file is left: $(state_files)"
	grep -q "NAPI deferral not set (--napi" "$out/rx.err" || fail "the next run changed something"
	base=$(app_rx $pid) || fail "no live stats"
	traffic 1000
	stop_run $pid || fail "the next run exited $?"
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
	[ "$rx" = $((base + 1000)) ] || fail "the next run received $rx of $((base + 1000))"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "census"
	[ "$(napi_vals)" = "1 5000" ] || fail "the next run's exit changed them: $(napi_vals)"
	assert_no_xdp "after the next run"
	ok "--napi then SIGKILL: values stayed 2 200000 with the state file; the next start put back 1 5000 (said in one line) and removed it; 1000 + 1000 frames counted exactly"
}

# start_planted DIR WHAT: xsk-rxdrop --napi with XSKF_CTL_DIR=DIR, after WHAT (a shell command
# with $D the folder and $$ the pid the run will have: the exec keeps it) ran; $pid
start_planted() {
	XSKF_CTL_DIR=$1 ip netns exec "$TB_NS_DUT" sh -c "D=\$0; $2; exec \"\$@\"" "$1" \
		"$RXDROP" -i "$TB_IF_DUT" --napi defer=2,gro-flush=200000 --cpus 1 --quiet \
		--json >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	at_exit "kill -KILL $pid 2>/dev/null"
}

run_planted() {
	local d=$out/wide what line
	FAIL_HOOKS=(show_err)
	mkdir -m 0700 "$d"
	chmod 0777 "$d"
	echo theirs >"$out/victim"
	chown 65534 "$out/victim"
	for what in 'mkfifo "$D/napi.$$.state.tmp"' "ln $out/victim \"\$D/napi.\$\$.state.tmp\""; do
		rm -f "$d"/napi.*
		start_planted "$d" "$what"
		wait_for "the end of the run refused ($what)" gone $pid
		wait $pid && fail "a control folder of mode 0777 ($what): exit 0"
		line="xskf: --napi: cannot record the old NAPI settings in $d/napi.$pid.state: $d is not a folder of ours alone (owner uid 0, mode 777; it must be uid 0 and not group/other writable) (set XSKF_CTL_DIR to a folder xskf may write)"
		grep -qxF "$line" "$out/rx.err" || fail "($what) not refused in one line"
		[ "$(napi_vals)" = "1 5000" ] || fail "($what) the values changed: $(napi_vals)"
		[ "$(cat "$out/victim")" = theirs ] || fail "($what) root wrote into another user's file"
		assert_no_xdp "($what)"
		ok "a folder of mode 0777 with $what: refused, nothing changed or written"
	done
	# a folder of ours with a FIFO left under the temporary name: replaced, not opened
	mkdir -m 0700 "$out/mine"
	start_planted "$out/mine" 'mkfifo "$D/napi.$$.state.tmp"'
	XSKF_CTL_DIR=$out/mine wait_for "control socket (a FIFO was under the temporary name)" ctl_up $pid
	[ "$(napi_vals)" = "2 200000" ] || fail "not set: $(napi_vals)"
	[ -f "$out/mine/napi.$pid.state" ] && [ ! -e "$out/mine/napi.$pid.state.tmp" ] ||
		fail "the state file: $(ls -l "$out/mine")"
	stop_run $pid || fail "xsk-rxdrop exited $?"
	[ "$(napi_vals)" = "1 5000" ] || fail "not put back: $(napi_vals)"
	ok "a FIFO under the temporary name in a folder of ours: the run came up, set and put back"
}

run_garbage() {
	FAIL_HOOKS=(show_err)
	mkdir -m 0700 "$XSKF_CTL_DIR"
	echo garbage >"$XSKF_CTL_DIR/napi.1.state"
	mkfifo "$XSKF_CTL_DIR/napi.2.state"
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --cpus 1 --quiet --json \
		>"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_for "control socket" ctl_up $pid
	for n in 1 2; do
		grep -qxF "xskf: warning: $XSKF_CTL_DIR/napi.$n.state is not a NAPI state file xskf wrote (not a regular file of ours in its format): removed" \
			"$out/rx.err" || fail "napi.$n.state not said"
	done
	[ -z "$(ls "$XSKF_CTL_DIR"/napi.* 2>/dev/null)" ] || fail "left: $(ls "$XSKF_CTL_DIR")"
	stop_run $pid || fail "xsk-rxdrop exited $?"
	ok "garbage and a FIFO under state file names: each said and removed, the run came up"
}

case $case_name in
restore) run_restore ;;
planted) run_planted ;;
garbage) run_garbage ;;
sigkill) run_sigkill ;;
*) fail "unknown case $case_name" ;;
esac

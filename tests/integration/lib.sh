# SPDX-License-Identifier: BSD-2-Clause
# The one library of the integration tests (sourced): every test_*.sh sources it, and so do
# fwd_lib.sh and tunnel_lib.sh, which add their test beds. It gives the paths, skip / fail /
# ok, the root check, one EXIT trap that runs every cleanup registered with at_exit (last
# registered first), and the bounded waits of wait_lib.sh. Every test makes its own test bed
# with a unique prefix and removes it on exit, whatever happens.

S=${XSKF_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
B=${XSKF_BUILD:-$S/build}
RXDROP=$B/apps/xsk-rxdrop
GEN=$B/tools/xskf-trafficgen
# the runner and the control tool (xskf run, xskfctl), as the tests of running instances call them
XSKF=$B/apps/xskf
CTL=$B/apps/xskfctl
PY=/usr/bin/python3 # the one that has scapy

skip() { echo "SKIP: $*"; exit 77; }
# features_use KEY: xskf's own probe table's answer, `xskf features --json`'s uses.KEY
features_use() { "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"][sys.argv[1]])' "$1"; }
# require_feature NAME...: skip, saying why, where a row of xskf's probe table does not work
# (the kernel lacks it, or XSKF_FEATURES_OFF forces it off): for tests no other path can run
# feature_why NAME: empty where the row works, else why not
feature_why() {
	"$B/apps/xskf" features --json | $PY -c 'import json,sys
r = [r for r in json.load(sys.stdin)["features"] if r["feature"] == sys.argv[1]][0]
print("" if r["works"] else "forced off by XSKF_FEATURES_OFF" if r["forced_off"] else r["error"])' "$1"
}
require_feature() {
	local n bad
	for n in "$@"; do
		bad=$(feature_why "$n")
		[ -z "$bad" ] || skip "xskf features: $n does not work here ($bad); no path runs this test without it"
	done
}
ok() { echo "ok - $*"; }

# fail MSG: one line on stderr, then what each hook of FAIL_HOOKS adds (an app's last
# messages), exit 1
FAIL_HOOKS=()
fail() {
	local h
	echo "FAIL: $*" >&2
	for h in "${FAIL_HOOKS[@]}"; do "$h" >&2 || true; done
	exit 1
}

# at_exit CMD: run CMD (eval'd) at exit, before what was registered earlier
AT_EXIT=()
run_at_exit() {
	local c
	# one failing or unset-variable command must not end the trap before the bed's clean-up
	set +eu
	for c in "${AT_EXIT[@]}"; do eval "$c"; done
}
at_exit() {
	AT_EXIT=("$1" "${AT_EXIT[@]}")
	trap run_at_exit EXIT
}
# at_exit_last CMD: run CMD at exit after everything registered before or after it (a folder
# the runs write into: the bed's clean-up must have stopped them first, or one re-creates it)
at_exit_last() {
	AT_EXIT=("${AT_EXIT[@]}" "$1")
	trap run_at_exit EXIT
}

. "$S/tests/integration/wait_lib.sh"

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	ip netns list >/dev/null 2>&1 || skip "no network namespaces"
}

# tb_up PREFIX [MTU]: two namespaces joined by a 2-queue veth of that MTU (default 1500);
# exports TB_* (see tools/testbed.sh).
tb_up() {
	export XSKF_TB=$1
	[ -n "${2:-}" ] && export XSKF_TB_MTU=$2
	eval "$("$S/tools/testbed.sh" up)"
	at_exit tb_cleanup
}

# tb_up_out PREFIX [MTU]: tb_up, and $out, a scratch folder, removed at exit as the bed is.
tb_up_out() {
	tb_up "$@"
	out=$(mktemp -d)
	at_exit 'rm -rf "$out"'
}

tb_cleanup() {
	local pids
	pids=$(ip netns pids "$TB_NS_DUT" 2>/dev/null || true)
	[ -n "$pids" ] && kill -TERM $pids 2>/dev/null
	# what is left gets 10 s to detach and exit, then SIGKILL
	wait_until 10 ns_empty "$TB_NS_DUT"
	pids=$(ip netns pids "$TB_NS_DUT" 2>/dev/null || true)
	[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
	"$S/tools/testbed.sh" down >/dev/null 2>&1 || true
}

# ns_empty NS: no process runs in NS.
ns_empty() { [ -z "$(ip netns pids "$1" 2>/dev/null)" ]; }

dut() { ip netns exec "$TB_NS_DUT" "$@"; }
gen() { ip netns exec "$TB_NS_GEN" "$@"; }

# xdp_attached: prints the XDP program id on the dut interface, empty when none.
xdp_attached() {
	dut ip -d -j link show dev "$TB_IF_DUT" | $PY -c '
import json, sys
l = json.load(sys.stdin)[0]
x = l.get("xdp")
print(x["prog"]["id"] if x and "prog" in x else (x.get("attached", [{}])[0].get("prog", {}).get("id", "") if x else ""))'
}

assert_no_xdp() {
	local id
	id=$(xdp_attached)
	[ -z "$id" ] || fail "XDP program $id left attached on $TB_IF_DUT ($1)"
}

# json_get FILE EXPR: evaluate a python expression over the JSON document `d`.
json_get() {
	$PY -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# q0_xdp: frames the dut's XDP program ran on, RX queue 0 (veth's ethtool -S). Once it has all
# the frames sent, each is in the socket's RX ring or counted by the kernel (rx_dropped,
# rx_ring_full): xdp_redirect alone misses the frames a starved worker's empty fill ring lost.
q0_xdp() { dut ethtool -S "$TB_IF_DUT" | awk '/rx_queue_0_xdp_packets:/ { print $2 }'; }

has_xdp() { [ -n "$(xdp_attached)" ]; }

# wait_attached [PID]: wait until the dut has our XDP program (the app finished starting); with
# PID, the app's exit ends the wait at once, failed (its messages first, WAIT_SHOW's file)
attached_or_gone() { has_xdp || gone "$1"; }
wait_attached() {
	[ -n "${1:-}" ] || { wait_for "XDP program attached on $TB_IF_DUT" has_xdp; return; }
	wait_for "XDP program attached on $TB_IF_DUT" attached_or_gone "$1"
	has_xdp && return 0
	[ -n "${WAIT_SHOW:-}" ] && cat "$WAIT_SHOW" >&2
	fail "pid $1 exited before an XDP program was attached on $TB_IF_DUT"
}

# app_seen PID: frames that reached the run PID's sockets: received, or dropped and counted by
# the kernel (XDP_STATISTICS). Wait on this when a test allows kernel drops.
app_seen() {
	app_live "$1" "sum(q['rx_packets'] + q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in j['queues'])"
}

# wait_seen PID N: wait until N frames reached the run PID's sockets.
wait_seen() { wait_for "$2 frames at the sockets of pid $1" ge app_seen "$1" "$2"; }

# stop_run PID: SIGINT, wait; returns its exit status.
stop_run() {
	kill -INT "$1"
	wait "$1"
}

# gen_paced PID TOTAL CHUNK GENERATOR-OPTIONS...: send TOTAL frames from the generator namespace
# in calls of CHUNK frames, each after the run PID has received all frames before it: a chunk
# smaller than the RX and fill rings cannot overflow them however late the worker runs, so
# exact counts do not depend on the machine's speed. Frames the run received before it count.
gen_paced() {
	local pid=$1 total=$2 chunk=$3 sent=0 n base
	shift 3
	# the control socket opens once the run loop runs, just after the attach
	wait_for "control socket of pid $pid" ctl_up "$pid"
	base=$(app_rx "$pid") || fail "no live stats from pid $pid"
	while [ $sent -lt "$total" ]; do
		n=$((total - sent < chunk ? total - sent : chunk))
		gen "$GEN" -i "$TB_IF_GEN" -n $n --resend "$@" >"$out/gen.json" || fail "generator"
		sent_is "$out/gen.json" $n
		sent=$((sent + n))
		wait_app_rx "$pid" $((base + sent))
	done
}

# sent_of FILE: frames the generator put into the peer's rings (exact veth counters).
sent_of() { json_get "$1" 'd["sent"]'; }
# sent_is FILE N: the generator's JSON FILE says exactly N frames went into the peer's rings;
# else fail with its numbers (frames made, refused by a full peer ring, lost before it). Frames
# refused and made again (--resend) are said in a comment line.
sent_is() {
	local refused
	[ "$(sent_of "$1")" = "$2" ] ||
		fail "generator sent $(sent_of "$1") of $2 ($(json_get "$1" \
			'"frames %d, tx_errors %d, lost %d" % (d["frames"], d["tx_errors"], d["lost"])'))"
	refused=$(json_get "$1" 'd["tx_errors"]')
	[ "$refused" = 0 ] || echo "# generator: the peer's full ring refused $refused frames, made again (--resend)"
}

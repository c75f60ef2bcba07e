# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers of the integration tests (sourced). Every test makes its own test bed with a
# unique prefix and removes it on exit, whatever happens.

B=${XSKF_BUILD:?XSKF_BUILD not set (run through meson test)}
S=${XSKF_SRC:?XSKF_SRC not set}
RXDROP=$B/apps/xsk-rxdrop
GEN=$B/tools/xskf-trafficgen
PY=/usr/bin/python3

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	ip netns list >/dev/null 2>&1 || skip "no network namespaces"
}

# tb_up PREFIX: two namespaces joined by a 2-queue veth; exports TB_* (see scripts/testbed.sh).
tb_up() {
	export XSKF_TB=$1
	eval "$("$S/scripts/testbed.sh" up)"
	trap tb_cleanup EXIT
}

tb_cleanup() {
	local pids
	pids=$(ip netns pids "$TB_NS_DUT" 2>/dev/null || true)
	[ -n "$pids" ] && kill -TERM $pids 2>/dev/null && sleep 0.5
	pids=$(ip netns pids "$TB_NS_DUT" 2>/dev/null || true)
	[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
	"$S/scripts/testbed.sh" down >/dev/null 2>&1 || true
}

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

# wait_attached: wait until the dut has our XDP program (the app finished starting).
wait_attached() {
	local i
	for i in $(seq 1 100); do
		[ -n "$(xdp_attached)" ] && return 0
		sleep 0.05
	done
	fail "no XDP program attached after 5 s"
}

# sent_of FILE: frames the generator put into the peer's rings (exact veth counters).
sent_of() { json_get "$1" 'd["sent"]'; }

# SPDX-License-Identifier: BSD-2-Clause
# Shared by the test_tunnel_*.sh scripts (sourced, not run): the VXLAN test bed.
#
#   ns $NS_H (access host)      ns $NS_T (xsk-tunnel)           ns $NS_V (kernel VTEP)
#   h0 192.0.2.1, 203.0.113.1 == ta [access]   [underlay] tu == v0 198.51.100.2, 2001:db8::2
#                                                                vx0 VNI 100 via 198.51.100.1
#                                                                    192.0.2.2
#                                                                vx6 VNI 200 via 2001:db8::1
#                                                                    203.0.113.2
# xsk-tunnel's VTEP addresses are 198.51.100.1 and 2001:db8::1 (it has no IP stack there: the
# vtep namespace has static neighbour entries for them). Every neighbour is static and IPv6 is
# off where it is not needed, so no ARP/ND/MLD frame adds to the counts the tests assert.

set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root
BUILD=$B
SRC=$S
TUNNEL=$BUILD/apps/xsk-tunnel
HELPER=$SRC/tests/integration/tunnel_pkt.py
. "$SRC/tools/bed_lib.sh"
TAG=${TAG:-t}
WORK=$(mktemp -d /tmp/xsk-tunnel-test.XXXXXX)
APP_PID=

# on a failure: the app's last messages
tun_app_err() {
	[[ -f $WORK/app.err ]] || return 0
	echo "--- xsk-tunnel stderr (tail)"
	tail -20 "$WORK/app.err"
}
FAIL_HOOKS+=(tun_app_err)

tun_cleanup() {
	set +e
	[[ -n $APP_PID ]] && kill -INT "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null
	bed_down
	rm -rf "$WORK"
}
at_exit tun_cleanup

[[ -x $TUNNEL ]] || fail "$TUNNEL not built"
$PY -c 'import scapy' 2>/dev/null || { echo "SKIP: $PY has no scapy"; exit 77; }

# The bed is bed_vxlan3 of tools/bed_lib.sh (drawn above). The sending ends (h0, v0 and the
# VXLAN devices) compute checksums in full: AF_XDP copy mode hands us the frame as the kernel
# left it, and a partial (offloaded) checksum would be wrong after a tunnel.
# tun_bed_up [MTU [UMTU]]: MTU of the access links and the kernel's VXLAN devices (default
# 1500); the underlay carries 100 bytes more (VXLAN over IPv6 adds 70), or UMTU.
tun_bed_up() { bed_vxlan3 "xtun$TAG$$" "${1:-}" "${2:-}"; }

# The table for this test bed: VNI 100 over IPv4 (also the default), VNI 200 over IPv6.
write_config() {
	cat >"$1" <<EOC
# xsk-tunnel test bed
local 198.51.100.1
local 2001:db8::1
nexthop-mac $MAC_V0
vni 100 remote 198.51.100.2 mac $MAC_VX0
vni 200 remote 2001:db8::2 mac $MAC_VX6
default vni 100 remote 198.51.100.2
EOC
}

# app_start ARGS...: run xsk-tunnel in $NS_T with --json; return once its program is attached.
app_start() {
	ip netns exec "$NS_T" "$TUNNEL" -i ta -i tu --json --quiet "$@" >"$WORK/app.json" 2>"$WORK/app.err" &
	APP_PID=$!
	WAIT_SHOW=$WORK/app.err wait_for "xsk-tunnel attached on ta and tu" tun_attached
	# the control socket opens just after the attach: the tests read live counters at once
	# (tunnel-reload's first 'live reloads' found none once, under load)
	WAIT_SHOW=$WORK/app.err wait_for "xsk-tunnel's control socket" ctl_up "$APP_PID"
}

# tun_attached: both ports have the program (0); fail if the app is gone first.
tun_attached() {
	kill -0 "$APP_PID" 2>/dev/null || fail "xsk-tunnel exited early"
	ip -n "$NS_T" link show tu | grep -q xdp && ip -n "$NS_T" link show ta | grep -q xdp
}

# app_stop: SIGINT, wait, check the exit status and that no XDP program is left behind.
app_stop() {
	local st=0
	kill -INT "$APP_PID"
	wait "$APP_PID" || st=$?
	APP_PID=
	[[ $st -eq 0 ]] || fail "xsk-tunnel exited with status $st"
	! ip -n "$NS_T" -d link show | grep -q 'prog/xdp' || fail "XDP program left attached"
	! ip -n "$NS_T" link show | grep -q ' xdp' || fail "XDP program left attached"
}

# cap NS IFACE FILE FILTER: a capture in the background, returning once it listens.
cap() {
	ip netns exec "$1" tcpdump -i "$2" -U -s 0 -w "$3" "$4" 2>"$3.err" &
	wait_capture "$3.err"
}

# live NAME: one of xsk-tunnel's counters now (its control socket): its own JSON members, and
# the plugin counters summed over workers (app_stats has their totals only at exit).
live() { app_live "$APP_PID" "{**j['app_stats'], **j['plugins'][0]['counters']}['$1']"; }

# udp_recv NS PORT N: a receiver of N datagrams in the background (UDP_RX its pid), returning
# once its socket is bound; it prints how many arrived intact to $WORK/rx.PORT, and writes
# its count as it grows to $WORK/rx.PORT.n (udp_send's pace).
udp_recv() {
	ip netns exec "$1" $PY "$HELPER" udp-recv "$2" 60 "$3" "$WORK/rx.$2.n" >"$WORK/rx.$2" \
		2>"$WORK/rx.$2.err" &
	UDP_RX=$!
	wait_for "UDP receiver on port $2" grep -qx ready "$WORK/rx.$2.err"
}

# udp_send NS DST PORT N: N datagrams to udp_recv's receiver on PORT, 32 at a time, each
# window once the receiver has the one before: exact counts whatever the machine's speed
udp_send() {
	ip netns exec "$1" $PY "$HELPER" udp-send "$2" "$3" "$4" "$WORK/rx.$3.n"
}

# stat NAME: one of xsk-tunnel's counters from its JSON output (after app_stop).
stat() {
	$PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["app_stats"][sys.argv[2]])' \
		"$WORK/app.json" "$1"
}

expect_stat() {
	local v
	v=$(stat "$1")
	[[ $v -eq $2 ]] || fail "counter $1 = $v, expected $2"
	ok "$1 = $v"
}

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
TAG=${TAG:-t}
NS_H=xtun$TAG$$-host
NS_T=xtun$TAG$$-tun
NS_V=xtun$TAG$$-vtep
MAC_H=02:54:00:00:00:01
MAC_TA=02:54:00:00:00:10
MAC_TU=02:54:00:00:00:11
MAC_V0=02:54:00:00:00:20
MAC_VX0=02:54:00:00:00:30
MAC_VX6=02:54:00:00:00:31
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
	for ns in "$NS_H" "$NS_T" "$NS_V"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$WORK"
}
at_exit tun_cleanup

[[ -x $TUNNEL ]] || fail "$TUNNEL not built"
$PY -c 'import scapy' 2>/dev/null || { echo "SKIP: $PY has no scapy"; exit 77; }

# Sending namespaces compute checksums in full: AF_XDP copy mode hands us the frame as the
# kernel left it, and a partial (offloaded) checksum would be wrong after a tunnel.
tun_bed_up() {
	ip netns add "$NS_H"
	ip netns add "$NS_T"
	ip netns add "$NS_V"
	ip -n "$NS_H" link add h0 address $MAC_H type veth peer name ta address $MAC_TA netns "$NS_T"
	ip -n "$NS_T" link add tu address $MAC_TU type veth peer name v0 address $MAC_V0 netns "$NS_V"

	ip netns exec "$NS_H" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip netns exec "$NS_T" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip -n "$NS_H" link set lo up
	ip -n "$NS_H" addr add 192.0.2.1/24 dev h0
	ip -n "$NS_H" addr add 203.0.113.1/24 dev h0
	ip -n "$NS_H" link set h0 up
	ip -n "$NS_H" neigh add 192.0.2.2 lladdr $MAC_VX0 dev h0 nud permanent
	ip -n "$NS_H" neigh add 203.0.113.2 lladdr $MAC_VX6 dev h0 nud permanent
	ip netns exec "$NS_H" ethtool -K h0 tx off >/dev/null
	ip -n "$NS_T" link set ta up
	ip -n "$NS_T" link set tu up

	ip -n "$NS_V" link set lo up
	ip -n "$NS_V" addr add 198.51.100.2/24 dev v0
	ip -n "$NS_V" addr add 2001:db8::2/64 dev v0 nodad
	ip -n "$NS_V" link set v0 up
	ip -n "$NS_V" neigh add 198.51.100.1 lladdr $MAC_TU dev v0 nud permanent
	ip -n "$NS_V" neigh add 2001:db8::1 lladdr $MAC_TU dev v0 nud permanent
	ip netns exec "$NS_V" ethtool -K v0 tx off >/dev/null
	ip -n "$NS_V" link add vx0 address $MAC_VX0 type vxlan id 100 local 198.51.100.2 \
		remote 198.51.100.1 dstport 4789 nolearning dev v0
	ip -n "$NS_V" link add vx6 address $MAC_VX6 type vxlan id 200 local 2001:db8::2 \
		remote 2001:db8::1 dstport 4789 nolearning dev v0
	for d in vx0 vx6; do
		ip netns exec "$NS_V" sysctl -qw net.ipv6.conf.$d.disable_ipv6=1
		ip netns exec "$NS_V" ethtool -K $d tx off >/dev/null
	done
	ip -n "$NS_V" addr add 192.0.2.2/24 dev vx0
	ip -n "$NS_V" addr add 203.0.113.2/24 dev vx6
	ip -n "$NS_V" link set vx0 up
	ip -n "$NS_V" link set vx6 up
	ip -n "$NS_V" neigh add 192.0.2.1 lladdr $MAC_H dev vx0 nud permanent
	ip -n "$NS_V" neigh add 203.0.113.1 lladdr $MAC_H dev vx6 nud permanent
}

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
	local i
	for i in $(seq 300); do
		kill -0 "$APP_PID" 2>/dev/null || fail "xsk-tunnel exited early"
		if ip -n "$NS_T" link show tu | grep -q xdp && ip -n "$NS_T" link show ta | grep -q xdp; then
			return 0
		fi
		sleep 0.1
	done
	fail "xsk-tunnel did not attach in 30 s"
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
# once its socket is bound; it prints how many arrived intact to $WORK/rx.PORT.
udp_recv() {
	ip netns exec "$1" $PY "$HELPER" udp-recv "$2" 60 "$3" >"$WORK/rx.$2" 2>"$WORK/rx.$2.err" &
	UDP_RX=$!
	wait_for "UDP receiver on port $2" grep -q ready "$WORK/rx.$2.err"
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

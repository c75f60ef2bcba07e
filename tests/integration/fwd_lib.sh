# SPDX-License-Identifier: BSD-2-Clause
# Helpers for the forwarding / txgen tests (sourced). Each test gets its own namespace prefix
# from its name and PID, and everything it creates is removed by the EXIT trap.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root
SRC=$S
BUILD=$B
L2FWD=$BUILD/apps/xsk-l2fwd
TXGEN=$BUILD/apps/xsk-txgen
P=${P:-f$$}
TMP=$(mktemp -d)
PIDS=()
NSES=()

fwd_cleanup() {
	local p ns
	for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for ns in "${NSES[@]}"; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$TMP"
}
at_exit fwd_cleanup

# mkns NAME: a namespace with lo up, added to the cleanup list.
mkns() {
	ip netns add "$1"
	NSES+=("$1")
	ip -n "$1" link set lo up
}

# vpair NS1 IF1 MAC1 NS2 IF2 MAC2 [QUEUES]: a veth pair across two namespaces, both ends up,
# TX checksum offload off (unless VETH_TX_CSUM=on), IPv6 off so that no router solicitation or MLD report spoils an exact count.
vpair() {
	local q=${7:-2}
	ip link add "$P-t1" numtxqueues "$q" numrxqueues "$q" address "$3" type veth peer name \
		"$P-t2" numtxqueues "$q" numrxqueues "$q" address "$6"
	ip link set "$P-t1" netns "$1"
	ip link set "$P-t2" netns "$4"
	ip -n "$1" link set "$P-t1" name "$2"
	ip -n "$4" link set "$P-t2" name "$5"
	ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	ip netns exec "$4" sysctl -qw "net.ipv6.conf.$5.disable_ipv6=1"
	# A veth hands its peer's XDP program TCP/UDP frames whose checksum is left to an
	# offload that never happens once AF_XDP copies them out: compute checksums in software
	# (VETH_TX_CSUM=on keeps veth's default, for the tests of that case: test_csum_l2fwd.sh).
	if [ "${VETH_TX_CSUM:-off}" = off ]; then
		ip netns exec "$1" ethtool -K "$2" tx off >/dev/null
		ip netns exec "$4" ethtool -K "$5" tx off >/dev/null
	fi
	ip -n "$1" link set "$2" up
	ip -n "$4" link set "$5" up
}

# fwd_bed_up: the forwarding bed, its names in NA NL NB and MAC_*:
#   nsA [a0 192.0.2.1] --- [la] nsL (the app) [lb] --- [b0 192.0.2.2] nsB
# with static neighbours across it, so that no ARP frame is in the counts.
fwd_bed_up() {
	MAC_A=02:00:00:00:0a:01 MAC_LA=02:00:00:00:0a:02
	MAC_B=02:00:00:00:0b:01 MAC_LB=02:00:00:00:0b:02
	NA=$P-a NL=$P-l NB=$P-b
	mkns $NA
	mkns $NL
	mkns $NB
	vpair $NA a0 $MAC_A $NL la $MAC_LA
	vpair $NB b0 $MAC_B $NL lb $MAC_LB
	ip -n $NA addr add 192.0.2.1/24 dev a0
	ip -n $NB addr add 192.0.2.2/24 dev b0
	ip -n $NA neigh replace 192.0.2.2 lladdr $MAC_LA dev a0 nud permanent
	ip -n $NB neigh replace 192.0.2.1 lladdr $MAC_LB dev b0 nud permanent
}

# start NS OUTFILE CMD...: run an xskf app in NS in the background, JSON to OUTFILE, and wait
# until its XDP program is attached (it prints its worker line first).
start_app() {
	local ns=$1 out=$2 i
	shift 2
	ip netns exec "$ns" "$@" --json >"$out" 2>"$out.err" &
	PIDS+=($!)
	APP_PID=$!
	# ready when every port's program is attached (it is attached after its sockets are in
	# the XSKMAP); the workers start right after
	local nports=0 a
	for a in "$@"; do [ "$a" = -i ] && nports=$((nports + 1)); done
	for i in $(seq 1 100); do
		[ "$(grep -c "XDP program attached" "$out.err" 2>/dev/null)" -ge "$nports" ] &&
			return 0
		kill -0 $APP_PID 2>/dev/null || { cat "$out.err" >&2; fail "$* did not start"; }
		sleep 0.1
	done
	cat "$out.err" >&2
	fail "$* did not start in 10 s"
}

# stop_app: SIGINT the last app started, wait for it, check it exited 0 and detached.
stop_app() {
	local rc=0
	kill -INT "$APP_PID"
	wait "$APP_PID" || rc=$?
	PIDS=("${PIDS[@]/$APP_PID/}")
	return $rc
}

# jq-like lookups in an app's JSON with python: jget FILE EXPR (EXPR over `j`).
jget() {
	$PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# no_xdp NS IF: fail if an XDP program is still attached.
no_xdp() {
	if ip -n "$1" -d link show "$2" | grep -q "prog/xdp"; then
		fail "XDP program left attached on $1/$2"
	fi
}

# rx_count NS IF: frames the interface received (kernel counter).
rx_count() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_packets"
}

# udp_listen NS ADDR PORT N OUT: a UDP receiver at ADDR:PORT in NS, in the background (RPID),
# returning once its socket is bound. It counts datagrams until N have come, then 0.3 s more
# (so a datagram too many shows too), or until WAIT_S passed, and writes the count to OUT.
udp_listen() {
	rm -f "$5.ready"
	ip netns exec "$1" $PY - "$2" "$3" "$4" "$WAIT_S" "$5.ready" >"$5" <<'PYEOF' &
import socket, sys, time
addr, port, want, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind((addr, port))
open(sys.argv[5], "w").close()
n, end = 0, time.time() + bound
while time.time() < end:
    s.settimeout(max(0.01, end - time.time()))
    try:
        s.recv(2048)
    except socket.timeout:
        break
    n += 1
    if n == want:
        end = time.time() + 0.3
print(n)
PYEOF
	RPID=$!
	wait_for "UDP receiver on $2:$3" test -e "$5.ready"
}

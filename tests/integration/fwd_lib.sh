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
. "$SRC/tools/bed_lib.sh"

fwd_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	bed_down
	rm -rf "$TMP"
}
at_exit fwd_cleanup

# The beds come from tools/bed_lib.sh. TX checksum offload is off on every veth end here
# (VETH_TX_CSUM=on keeps veth's default, for the tests of that case: test_csum_l2fwd.sh).
BED_TX_CSUM=${VETH_TX_CSUM:-off}

# mkns NAME: a namespace with lo up and IPv6 off, removed at exit.
mkns() { bed_ns "$1"; }

# vpair NS1 IF1 MAC1 NS2 IF2 MAC2 [QUEUES] [MTU]: a veth pair across two namespaces, both ends
# up, IPv6 off so that no router solicitation or MLD report spoils an exact count. MTU: both
# ends' (default 1500; 9000 for jumbo frames, docs/jumbo.md).
vpair() { bed_veth "$1" "$2" "$3" "$4" "$5" "$6" queues="${7:-2}" mtu="${8:-1500}" v6=off; }

# fwd_bed_up [MTU]: the forwarding bed (bed_fwd in tools/bed_lib.sh), its names in NA NL NB
# and MAC_*; MTU of every link (default 1500; 9000: the jumbo bed, test_jumbo.sh):
#   nsA [a0 192.0.2.1] --- [la] nsL (the app) [lb] --- [b0 192.0.2.2] nsB
fwd_bed_up() { BED_MTU=${1:-} bed_fwd "$P"; }

# start NS OUTFILE CMD...: run an xskf app in NS in the background, JSON to OUTFILE, and wait
# until its XDP program is attached (it prints its worker line first).
start_app() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" "$@" --json >"$out" 2>"$out.err" &
	PIDS+=($!)
	APP_PID=$!
	APP_ERR=$out.err
	# ready when every port's program is attached (it is attached after its sockets are in
	# the XSKMAP); the workers start right after
	local nports=0 a
	for a in "$@"; do [ "$a" = -i ] && nports=$((nports + 1)); done
	WAIT_SHOW=$out.err wait_for "$1 attached on $nports port(s)" attached_or_gone "$out.err" \
		"$nports" "$APP_PID" "$*"
}

# attached_or_gone ERRFILE N PID WHAT: N ports attached (0), or fail if PID is gone first.
attached_or_gone() {
	[ "$(grep -c "XDP program attached" "$1" 2>/dev/null)" -ge "$2" ] && return 0
	kill -0 "$3" 2>/dev/null || { cat "$1" >&2; fail "$4 did not start"; }
	return 1
}

# stop_app: SIGINT the last app started, wait for it, check it exited 0 and detached.
stop_app() {
	local rc=0
	kill -INT "$APP_PID"
	wait "$APP_PID" || rc=$?
	PIDS=("${PIDS[@]/$APP_PID/}")
	# an app that exits with an error: its last messages say why
	[ $rc = 0 ] || { echo "exit $rc; its messages:"; grep -v '^libbpf: ' "$APP_ERR" | tail -30; } >&2
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

# mtu_lines FILE: how many lines about an MTU FILE (an app's stderr) holds: jumbo.c's
# multi-buffer line and watch.c's frame-room warnings, by their exact form (not the word MTU).
# mtu_warnings FILE: the same, the warnings only.
MTU_SG_RE='^xskf: [^:]+: MTU [0-9]+: frames of up to [0-9]+ bytes come in up to [0-9]+ buffers of [0-9]+ bytes: '
MTU_WARN_RE='^xskf: [^:]+: MTU [0-9]+ allows [0-9]+-byte frames, (a UMEM frame holds [0-9]+ after its headroom|the kernel takes at most [0-9]+ buffers)'
mtu_lines() { grep -cE -- "$MTU_SG_RE|$MTU_WARN_RE" "$1"; }
mtu_warnings() { grep -cE -- "$MTU_WARN_RE" "$1"; }

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/jumbo.sh [ROUNDS] [SECONDS] - 9014-byte frames (UDP datagrams of 8972 bytes at MTU 9000)
# on the forwarding bed of bed_lib.sh, interleaved in each round, Gbit/s of frames received:
#   rxdrop    xsk-rxdrop on la (native, multi-buffer: 6 buffers a frame)  its rx_bytes
#   xdpdrop   an XDP_DROP program on la (xskf_tb_drop.bpf.o, sec xdp.frags) la's rx_bytes
#   l2fwd     xsk-l2fwd --mode fwd la -> lb                               its tx_bytes on lb
#   bridge    a kernel bridge of la and lb                                b0's rx_bytes
# The sender is a UDP socket in nsA (python, CPU 0) that sends as fast as it can; the apps run on
# CPU 1; b0 drops what reaches it in XDP. Medians of ROUNDS (default 3) x SECONDS (default 3).
# Not part of the test suite: root, about ROUNDS x 4 x (SECONDS + 2) seconds.
#
#   nsA [a0 192.0.2.1] ==== [la] nsL (app | bridge) [lb] ==== [b0 192.0.2.2] nsB
set -euo pipefail
ROUNDS=${1:-3}
D=${2:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
DROP=$BUILD/tools/xskf_tb_drop.bpf.o
P=bj$$
. "$SRC/tools/bed_lib.sh"

[[ $EUID -eq 0 ]] || { echo "needs root" >&2; exit 1; }
for b in "$BUILD/apps/xsk-rxdrop" "$BUILD/apps/xsk-l2fwd" "$DROP"; do
	[[ -e $b ]] || { echo "$b not built (XSKF_BUILD=$BUILD)" >&2; exit 1; }
done
TMP=$(mktemp -d)
GEN=
cleanup() {
	set +e
	[[ -n $GEN ]] && kill "$GEN" 2>/dev/null && wait "$GEN" 2>/dev/null
	bed_down
	rm -rf "$TMP"
}
trap cleanup EXIT

BED_MTU=9000 BED_QUEUES=1 bed_fwd $P
ip -n $NB link set dev b0 xdpdrv obj "$DROP" sec xdp.frags

# the sender: 8972-byte datagrams to 192.0.2.2 as fast as the socket takes them
ip netns exec $NA taskset -c 0 $PY - <<'EOPY' &
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
payload = bytes(8972)
while True:
    try:
        s.sendto(payload, ('192.0.2.2', 9))
    except OSError:
        pass
EOPY
GEN=$!

bytes_of() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_bytes"; }
# sample NS IF: Gbit/s of IF's rx_bytes over D seconds
sample() {
	local a b t0 t1
	a=$(bytes_of "$1" "$2")
	t0=$(date +%s.%N)
	sleep "$D"
	b=$(bytes_of "$1" "$2")
	t1=$(date +%s.%N)
	echo "($b - $a) * 8 / ($t1 - $t0) / 1000000000" | bc -l
}
# app NAME PORT KEY CMD...: Gbit/s from the app's --json: KEY bytes of its queues on PORT
app() {
	local name=$1 port=$2 key=$3
	shift 3
	ip netns exec $NL "$@" --cpus 1 --duration "$D" --json --quiet >"$TMP/$name.json" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; exit 1; }
	$PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(sum(q[sys.argv[3]] for q in j['queues'] if q['port'] == sys.argv[2]) * 8 / j['duration_s'] / 1e9)" \
		"$TMP/$name.json" "$port" "$key"
}
neigh_to() { bed_neigh $NA a0 192.0.2.2 "$1"; }

for r in $(seq "$ROUNDS"); do
	neigh_to $MAC_LA
	echo "rxdrop $(app rxdrop la rx_bytes "$BUILD/apps/xsk-rxdrop" -i la)" >>"$TMP/res"
	ip -n $NL link set dev la xdpdrv obj "$DROP" sec xdp.frags
	echo "xdpdrop $(sample $NL la)" >>"$TMP/res"
	ip -n $NL link set dev la xdp off
	echo "l2fwd $(app l2fwd lb tx_bytes "$BUILD/apps/xsk-l2fwd" -i la -i lb --mode fwd \
		--dst-mac-0 $MAC_A --dst-mac-1 $MAC_B)" >>"$TMP/res"
	ip -n $NL link add br0 type bridge
	ip -n $NL link set la master br0
	ip -n $NL link set lb master br0
	ip -n $NL link set br0 up
	neigh_to $MAC_B
	echo "bridge $(sample $NB b0)" >>"$TMP/res"
	ip -n $NL link del br0
	echo "--- round $r: $(tail -4 "$TMP/res" | awk '{printf "%s %.2f  ", $1, $2}')"
done

echo
echo "| case (9014-byte frames, MTU 9000) | Gbit/s (median of $ROUNDS x $D s) | min | max |"
echo "| --- | ---: | ---: | ---: |"
$PY "$SRC/bench/table.py" "$TMP/res" 2 rxdrop,xdpdrop,l2fwd,bridge rxdrop/xdpdrop l2fwd/bridge

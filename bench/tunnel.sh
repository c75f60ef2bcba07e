#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/tunnel.sh [BUILD_DIR] - VXLAN encap and decap rates of xsk-tunnel next to a plain
# forward (xsk-l2fwd --mode fwd) on the same veth test bed, in the same run, interleaved.
#
#   ns btg: g0 ==== ta [ DUT ns btd: app on CPU 1 ] tu ==== s0 :ns bts
#
# Encap: xskf-trafficgen (XDP live frames, CPU 0) sends 60-byte UDP frames of 64 flows into
# ta; the app wraps them and sends them out of tu. Decap: bench/tunnel_vxgen.py (AF_PACKET,
# CPU 0, TX ring) sends VXLAN frames into tu; the app strips them and sends the inner frames out of ta.
# The rate of a case is the frames the app *sent* (completed TX on its out port) divided by
# its run time, from the app's --json. ROUNDS rounds (default 5) of DURATION s (default 3) per
# case; the table shows medians. Not part of the test suite: needs root and ~2 minutes.
set -euo pipefail

BUILD=${1:-build-tun}
ROUNDS=${ROUNDS:-5}
D=${DURATION:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
TUNNEL=$BUILD/apps/xsk-tunnel
L2FWD=$BUILD/apps/xsk-l2fwd
GEN=$BUILD/tools/xskf-trafficgen
VXGEN=$HERE/tunnel_vxgen.py
MICRO=$BUILD/bench/tunnel_micro
PY=/usr/bin/python3
MAC_G=02:54:00:00:01:01
MAC_TA=02:54:00:00:01:10
MAC_TU=02:54:00:00:01:11
MAC_S0=02:54:00:00:01:20
W=$(mktemp -d /tmp/bench-tunnel.XXXXXX)
GEN_PID=

[[ $(id -u) -eq 0 ]] || { echo "needs root" >&2; exit 1; }
for b in "$TUNNEL" "$L2FWD" "$GEN" "$MICRO"; do
	[[ -x $b ]] || { echo "$b not built" >&2; exit 1; }
done

. "$HERE/../tools/bed_lib.sh"
cleanup() {
	set +e
	[[ -n $GEN_PID ]] && kill "$GEN_PID" 2>/dev/null && wait "$GEN_PID" 2>/dev/null
	bed_down
	rm -rf "$W"
}
trap cleanup EXIT

# built with bed_lib.sh's pieces; veth's default offloads (the generators build their frames)
export BED_TX_CSUM=on
for ns in btg btd bts; do bed_ns $ns; done
bed_veth btg g0 $MAC_G btd ta $MAC_TA queues=1
bed_veth btd tu $MAC_TU bts s0 $MAC_S0 queues=1
# The ends that receive the app's output drop in XDP: the same small cost for every case (the
# kernel stack behind them would cost more for some outputs, e.g. IPv4 routing, than others).
for e in "btg g0" "bts s0"; do
	set -- $e
	ip -n $1 link set dev $2 xdpdrv obj "$BUILD/tools/xskf_tb_drop.bpf.o" sec xdp
done

# tun_conf FILE REMOTE: the app's table, both locals, VNI 100 to REMOTE by default
tun_conf() {
	printf 'local 198.51.100.1\nlocal 2001:db8::1\nnexthop-mac %s\ndefault vni 100 remote %s\n' \
		$MAC_S0 "$2" >"$1"
}
tun_conf "$W/v4.conf" 198.51.100.2
tun_conf "$W/v6.conf" 2001:db8::2

# run_case NAME OUT_PORT APP ARGS...: one run of the app on CPU 1; appends "NAME MPPS".
run_case() {
	local name=$1 out=$2
	shift 2
	local st=0
	ip netns exec btd "$@" --cpus 1 --duration "$D" --json --quiet >"$W/out.json" 2>"$W/err" || st=$?
	# status 1 with a JSON document: a run-time complaint (e.g. the census at exit); the
	# counters are still what the app did, so keep the number and show the complaint
	if [[ $st -ne 0 ]]; then
		[[ -s $W/out.json ]] || { cat "$W/err" >&2; exit 1; }
		echo "$name: exit status $st: $(grep -m1 'does not add up\|error' "$W/err")" >&2
	fi
	$PY - "$W/out.json" "$name" "$out" >>"$W/results" <<'EOP'
import json, sys
j = json.load(open(sys.argv[1]))
tx = sum(q["tx_packets"] for q in j["queues"] if q["port"] == sys.argv[3])
print(sys.argv[2], tx / j["duration_s"] / 1e6)
EOP
	tail -1 "$W/results"
}

# CPU cost of encap/decap alone, no I/O (a tunnel to ourselves, so that decap takes the frame)
SRC=$(cd "$HERE/.." && pwd)
tun_conf "$W/self4.conf" 198.51.100.1
tun_conf "$W/self6.conf" 2001:db8::1
taskset -c 1 "$MICRO" "$W/self4.conf" "$W/self6.conf" | tee "$W/micro.txt"

FWD=("$L2FWD" -i ta -i tu --mode fwd --dst-mac-0 $MAC_G --dst-mac-1 $MAC_S0)
for r in $(seq "$ROUNDS"); do
	echo "--- round $r"
	ip netns exec btg "$GEN" -i g0 --cpus 0 -d 100000 --flows 64 --src-ip 192.0.2.1 --dst-ip 192.0.2.2 \
		--dst-mac 02:54:00:00:00:30 >/dev/null 2>&1 &
	GEN_PID=$!
	sleep 1
	run_case fwd_a2u tu "${FWD[@]}"
	run_case encap4 tu "$TUNNEL" -i ta -i tu --config "$W/v4.conf"
	run_case encap6 tu "$TUNNEL" -i ta -i tu --config "$W/v6.conf"
	kill $GEN_PID 2>/dev/null || true
	wait $GEN_PID 2>/dev/null || true
	for fam in 4 6; do
		ip netns exec bts taskset -c 0 $PY "$VXGEN" s0 $MAC_TU $MAC_S0 100000 $fam >/dev/null &
		GEN_PID=$!
		sleep 1
		[[ $fam == 4 ]] && run_case fwd_u2a ta "${FWD[@]}"
		run_case decap$fam ta "$TUNNEL" -i ta -i tu --config "$W/v4.conf"
		kill $GEN_PID 2>/dev/null || true
		wait $GEN_PID 2>/dev/null || true
	done
	GEN_PID=
done

echo
echo "| case | Mpps (median of $ROUNDS x ${D} s) | min | max |"
echo "| --- | --- | --- | --- |"
$PY "$SRC/bench/table.py" "$W/results" 3 fwd_a2u,encap4,encap6,fwd_u2a,decap4,decap6 \
	encap4/fwd_a2u encap6/fwd_a2u decap4/fwd_u2a decap6/fwd_u2a
echo
cat "$W/micro.txt"

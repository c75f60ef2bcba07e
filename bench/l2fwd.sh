#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/l2fwd.sh [PASSES] [SECONDS]: xsk-l2fwd --mode macswap next to dpdk-testpmd
# --forward-mode=macswap (net_af_xdp) on the same 1-queue veth test bed, in interleaved passes.
# xskf-trafficgen sends 64-byte UDP frames (60 without FCS) from CPU 0 as fast as it can; the
# forwarder runs on CPU 1; the rate is the frames that come back at the generator's interface
# (its rx_packets counter) over the pass. Prints each pass and the medians (Mpps, ns/packet on
# the forwarding core). Not part of the test suite: root, ~1 minute, needs package dpdk-dev.
set -euo pipefail

# L2FWD_ARGS: extra xsk-l2fwd options (default --no-hints: macswap reads no RX hints, and the
# XDP program that writes them runs on the generator's CPU, see docs/forwarding.md)
L2FWD_ARGS=${L2FWD_ARGS---no-hints}
PASSES=${1:-5}
SECS=${2:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${XSKF_BUILD:-$SRC/build}
L2FWD=$BUILD/apps/xsk-l2fwd
TGEN=$BUILD/tools/xskf-trafficgen
export XSKF_TB=bl2f$$ XSKF_TB_QUEUES=1

[[ $EUID -eq 0 ]] || { echo "needs root" >&2; exit 1; }
"$SRC/scripts/deps.sh" bench # dpdk-testpmd (dpdk-dev), bc
[[ -x $L2FWD && -x $TGEN ]] || { echo "build first (XSKF_BUILD=$BUILD)" >&2; exit 1; }
TESTPMD=$(command -v dpdk-testpmd || true)
[[ -n $TESTPMD ]] || echo "dpdk-testpmd not found (apt-get install dpdk-dev): xskf only" >&2

TMP=$(mktemp -d)
FIFO=$TMP/stdin LOG=$TMP/testpmd.log
mkfifo "$FIFO"
cleanup() {
	"$SRC/tools/testbed.sh" down
	rm -rf "$TMP"
}
trap cleanup EXIT
eval "$("$SRC/tools/testbed.sh" up)"
# software checksums: see tests/integration/fwd_lib.sh
ip netns exec "$TB_NS_GEN" ethtool -K "$TB_IF_GEN" tx off >/dev/null

rx_back() { ip netns exec "$TB_NS_GEN" cat "/sys/class/net/$TB_IF_GEN/statistics/rx_packets"; }
tx_out() { ip netns exec "$TB_NS_GEN" cat "/sys/class/net/$TB_IF_GEN/statistics/tx_packets"; }

# wait_xdp present|absent: until the dut's XDP program is there (the forwarder is ready) or gone
wait_xdp() {
	local i
	for ((i = 0; i < 300; i++)); do
		if ip -n "$TB_NS_DUT" link show dev "$TB_IF_DUT" | grep -q prog/xdp; then
			[[ $1 == present ]] && return 0
		else
			[[ $1 == absent ]] && return 0
		fi
		sleep 0.1
	done
	echo "bench-l2fwd: XDP program not $1 after 30 s" >&2
	exit 1
}

# one pass: start the forwarder, let it settle, generate for SECS, count what came back
pass() {
	local who=$1 pid b a tb ta
	case $who in
	xskf)
		# shellcheck disable=SC2086 # L2FWD_ARGS is a list of options
		ip netns exec "$TB_NS_DUT" taskset -c 1 "$L2FWD" -i "$TB_IF_DUT" -q 0 --cpus 1 -c \
			--quiet $L2FWD_ARGS >/dev/null 2>&1 &
		pid=$!
		;;
	refloop)
		ip netns exec "$TB_NS_DUT" "$BUILD/tools/xsk-refloop" -i "$TB_IF_DUT" -q 0 --cpus 1 -c \
			-m macswap -b 64 >/dev/null 2>&1 &
		pid=$!
		;;
	dpdk)
		# testpmd runs until a byte arrives on stdin: a FIFO opened read-write never ends.
		# lcore 0 is its idle main thread, lcore 1 forwards; no hugepages (as xsk-l2fwd
		# here), so the mbuf pool is kept small.
		ip netns exec "$TB_NS_DUT" "$TESTPMD" -l 0,1 --main-lcore 0 --no-pci --no-huge \
			-m 512 --file-prefix "$XSKF_TB" \
			--vdev "net_af_xdp0,iface=$TB_IF_DUT,start_queue=0,queue_count=1" \
			-- --forward-mode=macswap --nb-cores=1 --total-num-mbufs=16384 --auto-start \
			<>"$FIFO" >"$LOG" 2>&1 &
		pid=$!
		;;
	esac
	wait_xdp present
	b=$(rx_back) tb=$(tx_out)
	ip netns exec "$TB_NS_GEN" "$TGEN" -i "$TB_IF_GEN" --cpus 0 -d "$SECS" >/dev/null 2>&1
	sleep 0.2
	a=$(rx_back) ta=$(tx_out)
	kill -INT $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	wait_xdp absent # the queue is released before the next forwarder binds it
	# "back offered": frames back at the generator and frames it sent, in Mpps
	echo "$(echo "scale=3; ($a - $b) / $SECS / 1000000" | bc) $(echo "scale=3; ($ta - $tb) / $SECS / 1000000" | bc)"
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

declare -a X D R RR RD
for i in $(seq 1 "$PASSES"); do
	# the order turns around every pass, so that a drift of the machine hits all alike
	order=(xskf refloop dpdk)
	((i % 2)) || order=(dpdk refloop xskf)
	x=- xo=- rf=- rfo=- d=- do=-
	for who in "${order[@]}"; do
		case $who in
		xskf) read -r x xo < <(pass xskf) ;;
		refloop) read -r rf rfo < <(pass refloop) ;;
		dpdk) [[ -n $TESTPMD ]] && read -r d do < <(pass dpdk) ;;
		esac
	done
	X+=("$x")
	R+=("$rf")
	RR+=("$(echo "scale=3; $x / $rf" | bc)")
	[[ -n $TESTPMD ]] && D+=("$d") && RD+=("$(echo "scale=3; $x / $d" | bc)")
	echo "pass $i: xsk-l2fwd $x Mpps back (offered $xo), xsk-refloop $rf (offered $rfo)," \
		"dpdk-testpmd $d Mpps back (offered $do)"
done
mx=$(median "${X[@]}")
mr=$(median "${R[@]}")
echo "median xsk-l2fwd:    $mx Mpps, $(echo "scale=0; 1000 / $mx" | bc) ns/packet"
echo "median xsk-refloop:  $mr Mpps (the minimal libxdp macswap loop)"
echo "ratio xsk-l2fwd / xsk-refloop: $(echo "scale=2; $mx / $mr" | bc) (of the medians);" \
	"per pass ${RR[*]}, median $(median "${RR[@]}")"
if [[ -n $TESTPMD ]]; then
	md=$(median "${D[@]}")
	echo "median dpdk-testpmd: $md Mpps, $(echo "scale=0; 1000 / $md" | bc) ns/packet"
	echo "ratio xsk-l2fwd / dpdk-testpmd: $(echo "scale=2; $mx / $md" | bc) (of the medians;" \
		"target >= 1.1); per pass ${RD[*]}, median $(median "${RD[@]}")"
fi

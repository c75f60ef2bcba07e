#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/tcp.sh [PASSES] [SECONDS]: TCP (iperf3, one stream, SECONDS each) from nsA to nsB
# through a forwarder in nsL, in interleaved passes, three ways in the same topology:
#   l2fwd    xsk-l2fwd --mode fwd between two ports, the senders' TX checksum offload off
#            (`ethtool -K a0/b0 tx off`: they finish their checksums themselves)
#   repair   xsk-l2fwd --mode fwd --csum-repair, veth's default offloads (xskf finishes them)
#   bridge   a kernel bridge of the same two ports, offloads as for l2fwd (tx off: no TSO either,
#            so the stack sends frames of the MTU, as it must through xsk-l2fwd)
#   bridge-offload  the bridge with veth's default offloads (TSO/GSO on): what a user compares
#            against. A bridge moves a TCP sender's 64 KiB GSO packets whole; an XDP program on
#            the port turns the peer's GSO off (veth), so xsk-l2fwd sees every frame of the MTU
# Prints each pass and the medians in Gb/s, and the ratios to the bridge (per pass and their
# median); per row also the frames per second and their mean size on the forwarder's receiving
# port (la: GSO packets count as one), which tell where the gap to bridge-offload is. xsk-l2fwd runs on CPU 1 (its worker polls and spins there, docs/performance.md);
# iperf3's client and server on CPU 0. Not part of the test suite: root, about
# PASSES x 3 x (SECONDS + 2) seconds.
# XSKF_BENCH_MTU=9000: every link at that MTU (jumbo frames: xsk-l2fwd forwards them as
# multi-buffer chains, docs/jumbo.md); the repair row is left out there, since the checksums of
# chains are not finished (docs/jumbo.md).
#
#   nsA [a0 192.0.2.1] --- [la] nsL xsk-l2fwd | bridge [lb] --- [b0 192.0.2.2] nsB
set -euo pipefail
PASSES=${1:-3}
SECS=${2:-5}
MTU=${XSKF_BENCH_MTU:-1500}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${XSKF_BUILD:-$SRC/build}
L2FWD=$BUILD/apps/xsk-l2fwd
PY=/usr/bin/python3
P=btcp$$
. "$SRC/tools/bed_lib.sh"

[[ $EUID -eq 0 ]] || { echo "needs root" >&2; exit 1; }
"$SRC/scripts/deps.sh" >/dev/null # iperf3, ethtool, ip, taskset, bc
[[ -x $L2FWD ]] || { echo "build first (XSKF_BUILD=$BUILD)" >&2; exit 1; }
TMP=$(mktemp -d)
FWD=
cleanup() {
	set +e
	[[ -n $FWD ]] && kill -INT "$FWD" 2>/dev/null && wait "$FWD" 2>/dev/null
	bed_down
	rm -rf "$TMP"
}
trap cleanup EXIT

# the forwarding bed of bed_lib.sh (drawn above; BED_MTU sets its MTU), veth's default
# offloads: offload() below sets them per case
BED_TX_CSUM=on BED_MTU=$MTU bed_fwd $P
# the forwarder rewrites the destination MAC to the host behind the port; the bridge learns
bed_neigh $NA a0 192.0.2.2 $MAC_B
bed_neigh $NB b0 192.0.2.1 $MAC_A

offload() { # on|off: the senders' TX checksum offload
	ip netns exec $NA ethtool -K a0 tx "$1" >/dev/null
	ip netns exec $NB ethtool -K b0 tx "$1" >/dev/null
}
has_xdp() { ip -n $NL link show dev "$1" | grep -q prog/xdp; }
until_() { # until_ CMD...: up to 30 s
	local i
	for ((i = 0; i < 600; i++)); do "$@" && return 0; sleep 0.05; done
	echo "bench-tcp: timed out waiting for: $*" >&2
	exit 1
}
listening() { ip netns exec $NB ss -ltn | grep -q ':5201 '; }

# la's receive counters in nsL: packets bytes
la_counts() {
	ip netns exec $NL cat /sys/class/net/la/statistics/rx_packets \
		/sys/class/net/la/statistics/rx_bytes | paste -sd' '
}

# pass WHO: one iperf3 run through WHO, prints Gb/s; the frames la took, their rate and mean
# size, in $TMP/WHO.frames
pass() {
	local who=$1 gbps c0 c1
	case $who in
	l2fwd | repair)
		[[ $who == l2fwd ]] && offload off || offload on
		ip netns exec $NL "$L2FWD" -i la -i lb --mode fwd --dst-mac-0 $MAC_A \
			--dst-mac-1 $MAC_B --cpus 1 --quiet $([[ $who == repair ]] && echo --csum-repair) \
			>/dev/null 2>"$TMP/fwd.err" &
		FWD=$!
		until_ has_xdp la
		until_ has_xdp lb
		;;
	bridge | bridge-offload)
		[[ $who == bridge ]] && offload off || offload on
		ip -n $NL link add br0 type bridge
		ip -n $NL link set la master br0
		ip -n $NL link set lb master br0
		ip -n $NL link set br0 up
		;;
	esac
	ip netns exec $NB taskset -c 0 iperf3 -s -1 -B 192.0.2.2 >/dev/null 2>&1 &
	local srv=$!
	until_ listening
	c0=$(la_counts)
	ip netns exec $NA taskset -c 0 iperf3 -c 192.0.2.2 -t "$SECS" --connect-timeout 5000 -J \
		>"$TMP/iperf.json" 2>&1 || true
	c1=$(la_counts)
	wait $srv 2>/dev/null || true
	# packets, bytes: kpps and mean size over the run (la's counters count a GSO packet once)
	echo "$c0 $c1" | awk -v s="$SECS" '{ p = $3 - $1; b = $4 - $2;
		printf "%.0f kpps of %.0f B", p / s / 1e3, p ? b / p : 0 }' >"$TMP/$who.frames"
	gbps=$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); print("%.2f" % (j["end"]["sum_received"]["bits_per_second"] / 1e9) if "error" not in j else "0")' "$TMP/iperf.json")
	case $who in
	l2fwd | repair)
		kill -INT $FWD
		wait $FWD || true
		FWD=
		until_ sh -c "! ip -n $NL link show dev la | grep -q prog/xdp"
		;;
	bridge | bridge-offload)
		ip -n $NL link del br0
		;;
	esac
	echo "$gbps"
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ratio() { [[ $2 == 0 || $2 == 0.00 ]] && echo - || echo "scale=3; $1 / $2" | bc; }

fr() { cat "$TMP/$1.frames"; }

declare -a X R K O RX RR RO
for i in $(seq 1 "$PASSES"); do
	# the order turns around every pass, so that a drift of the machine hits all alike
	order=(l2fwd repair bridge bridge-offload)
	((i % 2)) || order=(bridge-offload bridge repair l2fwd)
	[[ $MTU == 1500 ]] || order=("${order[@]/repair/}")
	r=0
	for who in "${order[@]}"; do
		case $who in
		l2fwd) x=$(pass l2fwd) ;;
		repair) r=$(pass repair) ;;
		"") ;;
		bridge) k=$(pass bridge) ;;
		bridge-offload) o=$(pass bridge-offload) ;;
		esac
	done
	X+=("$x") R+=("$r") K+=("$k") O+=("$o")
	RX+=("$(ratio "$x" "$k")") RR+=("$(ratio "$r" "$k")") RO+=("$(ratio "$r" "$o")")
	line="pass $i (MTU $MTU): xsk-l2fwd (tx off) $x Gb/s ($(fr l2fwd)),"
	[[ $MTU == 1500 ]] && line+=" xsk-l2fwd --csum-repair $r Gb/s ($(fr repair)),"
	echo "$line bridge $k Gb/s ($(fr bridge)), bridge-offload $o Gb/s ($(fr bridge-offload))"
done
mx=$(median "${X[@]}") mr=$(median "${R[@]}") mk=$(median "${K[@]}") mo=$(median "${O[@]}")
echo "median xsk-l2fwd (senders tx off): $mx Gb/s"
[[ $MTU == 1500 ]] && echo "median xsk-l2fwd --csum-repair:    $mr Gb/s"
echo "median kernel bridge (tx off):     $mk Gb/s"
echo "median kernel bridge, offloads on: $mo Gb/s"
echo "ratio xsk-l2fwd / bridge: per pass ${RX[*]}, median $(median "${RX[@]}")"
[[ $MTU == 1500 ]] && echo "ratio xsk-l2fwd --csum-repair / bridge: per pass ${RR[*]}, median $(median "${RR[@]}")"
[[ $MTU == 1500 ]] && echo "ratio xsk-l2fwd --csum-repair / bridge-offload: per pass ${RO[*]}, median $(median "${RO[@]}")"
exit 0

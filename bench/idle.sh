#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/idle.sh [PASSES] [SECONDS]: what each --idle mode costs and gives (docs/idle.md), on the
# veth beds, every row in interleaved passes (the order turns around every pass) and medians:
#   rate     64-byte UDP at full load from the XDP live-frames generator on CPU 0, xsk-rxdrop -q 0
#            on CPU 1, --idle busy and adaptive: Mpps received, receiver CPU %, adaptive / busy
#   cpu      the same at 10% and 50% of busy's median full-load rate (xskf-trafficgen --rate):
#            receiver CPU % for busy, adaptive and sleep, and the frames lost
#   latency  UDP request/response (bench/idle_udp.py) from nsA to an echo server in nsB,
#            through xsk-l2fwd --mode fwd in nsL (CPU 1) in busy and adaptive mode, and through a
#            kernel bridge in nsL (the kernel's own path, no xskf): RTT p50/p99 at 1000
#            requests/s, and of requests sent after 1 s without traffic
# XSKF_BENCH_PARTS=rate,cpu,latency (the default: all) runs only the parts named (cpu needs rate).
# Not part of the test suite: root, about PASSES x (5 x SECONDS + 3 x 30) seconds. The machine's
# other load moves every absolute number: only the ratios of one run count.
#
#   nsA [a0 192.0.2.1] --- [la] nsL xsk-l2fwd | bridge [lb] --- [b0 192.0.2.2] nsB
set -euo pipefail
PASSES=${1:-3}
SECS=${2:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
UDP=$SRC/bench/idle_udp.py
REQS=${XSKF_BENCH_REQS:-3000} PROBES=${XSKF_BENCH_PROBES:-10}
[[ $EUID -eq 0 ]] || { echo "needs root" >&2; exit 1; }
"$SRC/scripts/deps.sh" >/dev/null
[[ -x $B/apps/xsk-rxdrop ]] || { echo "build first (XSKF_BUILD=$B)" >&2; exit 1; }
HZ=$(getconf CLK_TCK)
TMP=$(mktemp -d)
P=bid$$
NA=$P-a NL=$P-l NB=$P-b
MAC_A=02:00:00:00:0a:01 MAC_LA=02:00:00:00:0a:02
MAC_B=02:00:00:00:0b:01 MAC_LB=02:00:00:00:0b:02
export XSKF_TB=bi$$
RUN=
cleanup() {
	set +e # every step, whatever the ones before did (a part not run made no namespaces)
	[[ -n $RUN ]] && kill -INT "$RUN" 2>/dev/null && wait "$RUN" 2>/dev/null
	for ns in $NA $NL $NB; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del $ns 2>/dev/null
	done
	"$SRC/tools/testbed.sh" down >/dev/null 2>&1 || true
	rm -rf "$TMP"
}
trap cleanup EXIT
eval "$("$SRC/tools/testbed.sh" up)"

want() { [[ ,${XSKF_BENCH_PARTS:-rate,cpu,latency}, == *,$1,* ]]; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
until_() { # until_ CMD...: up to 30 s
	local i
	for ((i = 0; i < 600; i++)); do "$@" && return 0; sleep 0.05; done
	echo "bench-idle: timed out waiting for: $*" >&2
	exit 1
}
dut_xdp() { ip -n "$TB_NS_DUT" link show dev "$TB_IF_DUT" | grep -q prog/xdp; }
no_dut_xdp() { ! dut_xdp; }

# rx MODE [RATE]: xsk-rxdrop --idle MODE under the generator (full load, or RATE pps) for SECS;
# prints "Mpps CPU% lost kernel-drops lost-asleep": frames sent and not received, of them those
# the kernel counted (rx_ring_full + rx_dropped), and of those the ones lost while the worker
# slept (the JSON's workers[].lost_asleep, docs/idle.md)
rx() {
	local mode=$1 rate=${2:-} g c0 c1 t0 t1 n
	ip netns exec "$TB_NS_DUT" "$B/apps/xsk-rxdrop" -i "$TB_IF_DUT" -q 0 --cpus 1 -c -N \
		--idle "$mode" --quiet --json >"$TMP/rx.json" 2>"$TMP/rx.err" &
	RUN=$!
	until_ dut_xdp
	t0=$(date +%s%N) c0=$(awk '{print $14+$15}' /proc/$RUN/stat)
	g=$(ip netns exec "$TB_NS_GEN" "$B/tools/xskf-trafficgen" -i "$TB_IF_GEN" --cpus 0 \
		-d "$SECS" ${rate:+--rate "$rate"} --json)
	c1=$(awk '{print $14+$15}' /proc/$RUN/stat) t1=$(date +%s%N)
	kill -INT $RUN
	wait $RUN || true
	RUN=
	until_ no_dut_xdp
	$PY - "$g" "$TMP/rx.json" "$c0" "$c1" "$t0" "$t1" "$HZ" <<'EOF'
import json, sys
g = json.loads(sys.argv[1]); r = json.load(open(sys.argv[2]))
c0, c1, t0, t1, hz = (int(x) for x in sys.argv[3:8])
rx = sum(q['rx_packets'] for q in r['queues'])
k = sum(q['kernel']['rx_ring_full'] + q['kernel']['rx_dropped'] for q in r['queues'])
asleep = sum(w.get('lost_asleep', 0) for w in r.get('workers', []))
print('%.3f %.1f %d %d %d' % (rx / g['seconds'] / 1e6, 100.0 * (c1 - c0) / hz / ((t1 - t0) / 1e9),
                              g['sent'] - rx, k, asleep))
EOF
}

if want rate; then
echo "== rate: full load, $PASSES interleaved passes of $SECS s"
declare -a RB RA CB CA Q
for p in $(seq 1 "$PASSES"); do
	order=(busy adaptive)
	((p % 2)) || order=(adaptive busy)
	for m in "${order[@]}"; do
		read -r mpps cpu lost kdrop asleep < <(rx "$m")
		echo "  pass $p $m: $mpps Mpps, receiver CPU $cpu%, not received $lost (kernel drops $kdrop, lost asleep $asleep)"
		[[ $m == busy ]] && { RB+=("$mpps"); CB+=("$cpu"); b=$mpps; } || { RA+=("$mpps"); CA+=("$cpu"); a=$mpps; }
	done
	Q+=("$(echo "scale=3; $a / $b" | bc)")
done
mb=$(median "${RB[@]}") ma=$(median "${RA[@]}")
echo "rate busy $mb Mpps (CPU $(median "${CB[@]}")%), adaptive $ma Mpps (CPU $(median "${CA[@]}")%), adaptive/busy per pass: ${Q[*]}, median $(median "${Q[@]}")"
elif want cpu; then
	echo "bench-idle: the cpu part needs the rate part (its 10% and 50% are of busy's rate)" >&2
	exit 1
fi

want cpu || { want latency || exit 0; }
want cpu && {
echo "== cpu at 10% and 50% of busy's $mb Mpps"
declare -A CPU LOST
for f in 10 50; do
	r=$($PY -c "print(int($mb * 1e6 * $f / 100))")
	for p in $(seq 1 "$PASSES"); do
		order=(busy adaptive sleep)
		((p % 2)) || order=(sleep adaptive busy)
		for m in "${order[@]}"; do
			read -r mpps cpu lost kdrop asleep < <(rx "$m" "$r")
			echo "  $f% ($r pps) pass $p $m: $mpps Mpps, receiver CPU $cpu%, not received $lost (kernel drops $kdrop, lost asleep $asleep)"
			CPU[$f.$m]+=" $cpu" LOST[$f.$m]+=" $lost"
		done
	done
done
echo "| load | busy CPU % | adaptive CPU % | sleep CPU % |"
for f in 10 50; do
	# shellcheck disable=SC2086 # lists of numbers
	echo "| $f% | $(median ${CPU[$f.busy]}) | $(median ${CPU[$f.adaptive]}) | $(median ${CPU[$f.sleep]}) |"
done
}
want latency || exit 0

echo "== latency: UDP request/response, $REQS at 1000/s, then $PROBES after 1 s idle each"
"$SRC/tools/testbed.sh" down >/dev/null 2>&1 || true
for ns in $NA $NL $NB; do
	ip netns add $ns
	ip -n $ns link set lo up
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
ip link add $P-1 address $MAC_A type veth peer name $P-2 address $MAC_LA
ip link add $P-3 address $MAC_B type veth peer name $P-4 address $MAC_LB
ip link set $P-1 netns $NA name a0
ip link set $P-2 netns $NL name la
ip link set $P-3 netns $NB name b0
ip link set $P-4 netns $NL name lb
ip -n $NA addr add 192.0.2.1/24 dev a0
ip -n $NB addr add 192.0.2.2/24 dev b0
ip -n $NA neigh replace 192.0.2.2 lladdr $MAC_B dev a0 nud permanent
ip -n $NB neigh replace 192.0.2.1 lladdr $MAC_A dev b0 nud permanent
for l in "$NA a0" "$NL la" "$NL lb" "$NB b0"; do
	read -r ns d <<<"$l"
	ip netns exec $ns ethtool -K $d tx off >/dev/null
	ip -n $ns link set $d up
done
ip netns exec $NB taskset -c 0 $PY "$UDP" server 7 &
has_xdp() { ip -n $NL link show dev "$1" | grep -q prog/xdp; }
no_xdp() { ! has_xdp la && ! has_xdp lb; }
lat() { # lat WHO: one client run through WHO (busy, adaptive, bridge); prints its JSON
	local who=$1
	if [[ $who == bridge ]]; then
		ip -n $NL link add br0 type bridge
		ip -n $NL link set la master br0
		ip -n $NL link set lb master br0
		ip -n $NL link set br0 up
	else
		ip netns exec $NL "$B/apps/xsk-l2fwd" -i la -i lb --mode fwd --dst-mac-0 $MAC_A \
			--dst-mac-1 $MAC_B --cpus 1 --idle "$who" --quiet >/dev/null 2>"$TMP/fwd.err" &
		RUN=$!
		until_ has_xdp la
		until_ has_xdp lb
	fi
	ip netns exec $NA taskset -c 0 $PY "$UDP" client 192.0.2.2 7 1000 "$REQS" "$PROBES"
	if [[ $who == bridge ]]; then
		ip -n $NL link del br0
	else
		kill -INT $RUN
		wait $RUN || true
		RUN=
		until_ no_xdp
	fi
}
declare -A L
for p in $(seq 1 "$PASSES"); do
	order=(busy adaptive bridge)
	((p % 2)) || order=(bridge adaptive busy)
	for w in "${order[@]}"; do
		j=$(lat "$w")
		echo "  pass $p $w: $j"
		L[$w]+="$j"$'\n'
	done
done
echo "| path | p50 us | p99 us | after 1 s idle: p50 us | max us | lost |"
for w in busy adaptive bridge; do
	printf '%s' "${L[$w]}" | $PY -c '
import json, statistics, sys
r = [json.loads(l) for l in sys.stdin if l.strip()]
m = lambda k, f: statistics.median(x[k][f] for x in r if x[k][f] is not None)
print("| %s | %.1f | %.1f | %.1f | %.1f | %d |" % (sys.argv[1], m("paced", "p50_us"),
      m("paced", "p99_us"), m("after_idle", "p50_us"), m("after_idle", "max_us"),
      sum(x["lost"] for x in r)))' "$w"
done

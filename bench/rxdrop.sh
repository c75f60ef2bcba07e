#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Receive benchmark on the veth test bed (not part of `meson test`): 64-byte UDP from the XDP
# live-frames generator on CPU 0, the receiver pinned to CPU 1. Cases run interleaved, PASSES
# times each, and medians are reported, because this machine's rates move between runs:
#   xdp-drop        native XDP_DROP on the receiving veth (the ceiling of the set-up)
#   xdp-drop-1call  the same frames as xdp-drop's (2^26 at most) in one BPF_PROG_RUN call (--chunk): the
#                   generator's own reference; xdp-drop / this shows that the generator's call
#                   sizing does not hold the rows down (it should be >= 0.9)
#   hints-off       xsk-rxdrop --no-hints, frames not touched (the default attach: through
#                   libxdp's dispatcher where it works; the line below the table says which)
#   hints-off-alone the same with --attach alone: the program takes the interface by itself
#   refloop         tools/xsk-refloop: the minimal libxdp loop (same batch), the reference
#   testpmd-rxonly  dpdk-testpmd --forward-mode=rxonly on the net_af_xdp vdev (same burst)
#   hints-unread    hints written by the XDP program, not read
#   hints-read      hints written and read (each packet's meta: hash source, packet type)
#   header-only     --no-hints --touch: reads each frame's Ethernet type, no hints
#   hints+header    hints read and the Ethernet type too: the meta and the first 32 bytes of
#                   the frame share one cache line, so this should cost what hints-read costs
# Mpps = frames received by the case / generator seconds; ns/packet = 1e3 / Mpps;
# CPU = the receiver process's CPU time / wall time (veth does the copy in the sender's softirq).
# A case name ending in @base runs the xsk-rxdrop (or xsk-refloop) of the build in
# $XSKF_BENCH_BASE_BUILD, another commit's (bench/compare.sh); the bed and the generator
# stay this build's. XSKF_BENCH_RAW=FILE also appends every run's row (case Mpps CPU) to FILE.
#
#   bench/rxdrop.sh [SECONDS] [PASSES] [extra xsk-rxdrop options]     (as root)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3}
passes=${2:-3}
shift 2 2>/dev/null || shift $# 2>/dev/null || true
extra=("$@")
B=${XSKF_BUILD:-build}
export XSKF_TB=${XSKF_TB:-xbrx} XSKF_BUILD=$B
trap 'tools/testbed.sh down >/dev/null' EXIT
eval "$(tools/testbed.sh up)"
res=$(mktemp)
batch=${XSKF_BENCH_BATCH:-64} # RX burst of every receiver: xsk-rxdrop -b, refloop -b, testpmd --burst
scripts/deps.sh bench # dpdk-testpmd
TESTPMD=$(command -v dpdk-testpmd || true)
[ -n "$TESTPMD" ] || echo "bench: dpdk-testpmd not found (scripts/deps.sh bench): its row is left out" >&2
mkfifo "$res.fifo"

gen() {
	ip netns exec "$TB_NS_GEN" "$B/tools/xskf-trafficgen" -i "$TB_IF_GEN" --cpus 0 -d "$secs" --json
}

one() {
	local name=$1 g rx mpps cpu rb=$B envs=()
	shift
	# leading XSKF_NAME=VALUE words of a case are the receiver's environment, e.g.
	# 'hints-head XSKF_FEATURES_OFF=adjust_meta' plays a kernel that refuses adjust_meta
	while [[ ${1:-} =~ ^XSKF_[A-Z_]+= ]]; do envs+=("$1"); shift; done
	# NAME@base: the same case with the base build's receiver
	if [[ $name == *@base ]]; then
		rb=${XSKF_BENCH_BASE_BUILD:?NAME@base needs XSKF_BENCH_BASE_BUILD}
	fi
	if [ "$name" = xdp-drop ] || [ "$name" = xdp-drop-1call ]; then
		tools/testbed.sh sink drop >/dev/null
		if [ "$name" = xdp-drop ]; then
			g=$(gen)
			last_sent=$($PYTHON -c 'import json,sys; print(json.loads(sys.argv[1])["sent"])' "$g")
		else
			# one call makes at most 2^26 frames (xskf-trafficgen --chunk): on a machine
			# that sends more in a pass, the one call makes fewer frames; the rate compares
			n1=$((last_sent < 67108864 ? last_sent : 67108864))
			g=$(ip netns exec "$TB_NS_GEN" "$B/tools/xskf-trafficgen" -i "$TB_IF_GEN" --cpus 0 \
				-n "$n1" --chunk "$n1" --json)
		fi
		rx=$($PYTHON -c 'import json,sys; print(json.loads(sys.argv[1])["sent"])' "$g")
		cpu=0
		tools/testbed.sh sink off >/dev/null
	else
		local kind=xskf pid i
		case ${name%@base} in
		refloop) kind=refloop ;;
		testpmd-rxonly) kind=testpmd ;;
		esac
		[ $kind = testpmd ] && [ -z "$TESTPMD" ] && return 0
		case $kind in
		xskf)
			ip netns exec "$TB_NS_DUT" env "${envs[@]}" "$rb/apps/xsk-rxdrop" -i "$TB_IF_DUT" -q 0 --cpus 1 -c -N \
				-b "$batch" --quiet --json "$@" "${extra[@]}" >"$res.out" 2>/dev/null &
			;;
		refloop)
			ip netns exec "$TB_NS_DUT" "$rb/tools/xsk-refloop" -i "$TB_IF_DUT" -q 0 --cpus 1 -c \
				-b "$batch" >"$res.out" 2>/dev/null &
			;;
		testpmd)
			# runs until a byte arrives on stdin: a FIFO opened read-write never ends
			ip netns exec "$TB_NS_DUT" "$TESTPMD" -l 0,1 --main-lcore 0 --no-pci --no-huge \
				-m 512 --file-prefix "$XSKF_TB" \
				--vdev "net_af_xdp0,iface=$TB_IF_DUT,start_queue=0,queue_count=1" \
				-- --forward-mode=rxonly --nb-cores=1 --total-num-mbufs=16384 \
				--burst="$batch" --auto-start <>"$res.fifo" >"$res.out" 2>&1 &
			;;
		esac
		pid=$!
		# measure once its XDP program is attached (after its sockets are in the XSKMAP)
		for ((i = 0; i < 300; i++)); do
			ip -n "$TB_NS_DUT" link show dev "$TB_IF_DUT" | grep -q prog/xdp && break
			kill -0 $pid 2>/dev/null || { echo "bench: $name did not start" >&2; exit 1; }
			sleep 0.1
		done
		local t0 c0
		t0=$(date +%s.%N)
		c0=$(awk '{print $14+$15}' /proc/$pid/stat 2>/dev/null || echo 0)
		g=$(gen)
		local c1 t1
		c1=$(awk '{print $14+$15}' /proc/$pid/stat 2>/dev/null || echo 0)
		t1=$(date +%s.%N)
		kill -INT $pid
		wait $pid || true
		case $kind in
		xskf) rx=$($PYTHON -c 'import json,sys; print(sum(q["rx_packets"] for q in json.load(open(sys.argv[1]))["queues"]))' "$res.out") ;;
		refloop) rx=$($PYTHON -c 'import json,sys; print(json.load(open(sys.argv[1]))["rx"])' "$res.out") ;;
		testpmd) rx=$(awk '/Forward statistics for port 0/ { f = 1 } f && /RX-packets:/ { print $2; exit }' "$res.out") ;;
		esac
		cpu=$($PYTHON -c "print(round(100*($c1-$c0)/$(getconf CLK_TCK)/($t1-$t0)))")
		# the next case binds the queue again: wait until this one's program is gone
		for ((i = 0; i < 100; i++)); do
			ip -n "$TB_NS_DUT" link show dev "$TB_IF_DUT" | grep -q prog/xdp || break
			sleep 0.1
		done
	fi
	mpps=$($PYTHON -c 'import json,sys; g=json.loads(sys.argv[1]); print(round(int(sys.argv[2])/g["seconds"]/1e6,3))' "$g" "$rx")
	echo "$name $mpps $cpu" >>"$res"
	[ -z "${XSKF_BENCH_RAW:-}" ] || echo "$name $mpps $cpu" >>"$XSKF_BENCH_RAW"
	echo "  $name: $mpps Mpps, receiver CPU $cpu%"
}

PYTHON=/usr/bin/python3
cases=("xdp-drop" "xdp-drop-1call" "hints-off --no-hints" "hints-off-alone --no-hints --attach alone"
	"refloop" "testpmd-rxonly"
	"hints-unread --no-hint-stats" "hints-read" "header-only --no-hints --touch"
	"hints+header --touch")
# XSKF_BENCH_CASES='NAME OPTIONS;NAME OPTIONS;...' runs those cases instead (xsk-rxdrop with the
# options, unless NAME is one of the special ones above), e.g. to compare a setting side by side;
# OPTIONS may start with XSKF_NAME=VALUE words, the receiver's environment
if [ -n "${XSKF_BENCH_CASES:-}" ]; then
	IFS=';' read -r -a cases <<<"$XSKF_BENCH_CASES"
	case ${cases[0]%% *} in xdp-drop) ;; *) cases=("xdp-drop" "xdp-drop-1call" "${cases[@]}") ;; esac
fi
names=()
for c in "${cases[@]}"; do names+=("${c%% *}"); done
# libxdp (the refloop's program, and xskf's default attach) goes through its dispatcher only
# with a bpffs at /sys/fs/bpf: 'ip netns exec' gives each command a /sys without one
if [ "$(ip netns exec "$TB_NS_DUT" stat -f -c %T /sys/fs/bpf 2>/dev/null)" = bpf_fs ]; then
	attach_note="a bpffs at /sys/fs/bpf: libxdp attaches through its dispatcher where the kernel takes freplace programs (xsk-rxdrop's start-up line says which)"
else
	attach_note="no bpffs at /sys/fs/bpf in the bed's commands: libxdp attached the refloop's program alone, and xskf's default attach was alone too (as hints-off-alone)"
fi
for p in $(seq 1 "$passes"); do
	echo "pass $p"
	# the order turns around every pass (xdp-drop stays first: xdp-drop-1call takes its frame
	# count), so that a drift of the machine hits all cases alike
	order=("${cases[@]}")
	if ((p % 2 == 0)); then
		order=("${cases[0]}" "${cases[1]}")
		for ((i = ${#cases[@]} - 1; i >= 2; i--)); do order+=("${cases[i]}"); done
	fi
	for c in "${order[@]}"; do
		# shellcheck disable=SC2086 # a case is its name and its options
		one $c
	done
done
echo
echo "attach: $attach_note"
echo "case           median Mpps   ns/packet   receiver CPU %"
for c in "${names[@]}"; do
	grep -q "^$c " "$res" || continue
	grep -F "$c " "$res" | grep "^$c" | $PYTHON -c '
import sys, statistics
rows = [l.split() for l in sys.stdin]
m = statistics.median(float(r[1]) for r in rows)
cpu = statistics.median(float(r[2]) for r in rows)
print(f"{rows[0][0]:<14} {m:>10.2f}   {1e3/m if m else 0:>9.1f}   {cpu:>6.0f}")'
done
$PYTHON - "$res" <<'EOPY'
import statistics, sys
rows = {}
for l in open(sys.argv[1]):
    k, mpps, _ = l.split()
    rows.setdefault(k, []).append(float(mpps))
med = {k: statistics.median(v) for k, v in rows.items()}
def ratio(a, b, what):
    # the median of the per-pass ratios (the two ran minutes apart at most), and each pass's
    if a in med and b in med and all(rows[b]):
        per = [x / y for x, y in zip(rows[a], rows[b])]
        print(f"{what}: {a} / {b} = {statistics.median(per):.2f}"
              f" (per pass {' '.join(f'{r:.2f}' for r in per)})")
ratio("xdp-drop", "xdp-drop-1call", "generator check (>= 0.9: its call sizing holds nothing down)")
ratio("hints-off", "refloop", "xsk-rxdrop --no-hints vs the minimal libxdp loop (target >= 1.0)")
ratio("hints-off", "testpmd-rxonly", "xsk-rxdrop --no-hints vs dpdk-testpmd rxonly (target >= 1.05)")
EOPY
rm -f "$res" "$res.out" "$res.fifo"

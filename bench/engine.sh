#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bench/engine.sh [quick] - what xskf itself costs per packet, apart from the kernel: the apps
# on the memory backend (--backend memory: the real worker loop against rings in plain memory,
# the kernel played by a stand-in on the same thread, docs/performance.md). For each app, RX
# batch size (16 32 64 256) and number of sockets per worker (1 2 8):
#   instr/pkt  instructions per packet, valgrind --tool=callgrind, from the difference of two
#              runs (N1 and N2 frames) so that start-up and tear-down cancel out; the stand-in's
#              own instructions (xskf_mem__kernel, inclusive) are taken off, and shown apart
#   ns/pkt     wall time per packet on the worker's clock, the median of 3 runs of N3 frames on CPU 1
# Needs no root and no NIC. `quick`: batch 64, 1 socket only (the perf test suite runs that).
# Every run puts its UMEM on 4 KiB pages (--hugepages off): the rows then do not depend on what
# the machine has reserved, nor take pages from a pool a test made (bench/memory.sh compares
# page sizes).
# valgrind: scripts/deps.sh bench.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${XSKF_BUILD:-$SRC/build}
PY=/usr/bin/python3
command -v valgrind >/dev/null || { echo "bench-engine: valgrind missing: scripts/deps.sh bench" >&2; exit 1; }
N1=200000 N2=1200000 N3=10000000
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The tunnel's table and frames: an inner IPv4/UDP frame for its access port (encap), the same
# frame in VXLAN (VNI 100, IPv4 underlay) for its underlay port (decap); the other port of each
# run receives nothing (--mem-frame none), so each row is one direction.
cat >"$TMP/tun.conf" <<EOC
local 198.51.100.1
nexthop-mac 02:54:00:00:00:20
vni 100 remote 198.51.100.2 mac 02:54:00:00:00:30
default vni 100 remote 198.51.100.2
EOC
cat >"$TMP/tun6.conf" <<EOC
local 2001:db8::1
nexthop-mac 02:54:00:00:00:20
vni 100 remote 2001:db8::2 mac 02:54:00:00:00:30
default vni 100 remote 2001:db8::2
EOC
INNER=02540000003002540000000108004500002e000100004011f6bac0000201c000020204000009001a3b71787878787878787878787878787878787878
OUTER=0254000000110254000000200800450000600001000040112622c6336402c6336401c00012b5004c00000800000000006400$INNER
$PY -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$TMP/inner.bin" $INNER
$PY -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$TMP/outer.bin" $OUTER

# TCP/IPv4 frames whose checksum the sender left unfinished (the folded pseudo-header sum, as
# tcp_v4_send_check() leaves it with TX checksum offload): 60 bytes (no payload) and 1514 bytes.
# Given as the port's own frame (--mem-frame F --mem-frame none), so that each receive writes it
# anew and --csum-repair finishes every one (docs/performance.md).
$PY - "$TMP" <<'PYEOF'
import struct, sys
def fold(s):
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s
def frame(pay, path):
    src, dst, tl = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2]), 20 + pay
    ip = bytearray(struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + tl, 1, 0x4000, 64, 6, 0, src, dst))
    ip[10:12] = struct.pack('!H', ~fold(sum(struct.unpack('!10H', ip))) & 0xffff)
    tcp = bytearray(struct.pack('!HHIIBBHHH', 40000, 5201, 1, 1, 0x50, 0x18, 512, 0, 0))
    tcp += bytes((i * 7 + 3) & 0xff for i in range(pay))
    tcp[16:18] = struct.pack('!H', fold(sum(struct.unpack('!4H', src + dst)) + 6 + tl))
    f = bytes.fromhex('020000000002020000000001') + b'\x08\x00' + bytes(ip) + bytes(tcp)
    open(path, 'wb').write(f + bytes(max(0, 60 - len(f))))
frame(0, sys.argv[1] + '/partial60.bin')
frame(1460, sys.argv[1] + '/partial1514.bin')
# a 1400-byte inner UDP/IPv4 frame for the tunnel over IPv6 (1470 bytes of outer UDP to sum)
pay = 1400 - 42
ip = bytearray(struct.pack('!BBHHHBBH4s4s', 0x45, 0, 28 + pay, 1, 0, 64, 17, 0, bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])))
ip[10:12] = struct.pack('!H', ~fold(sum(struct.unpack('!10H', ip))) & 0xffff)
udp = struct.pack('!HHHH', 1024, 9, 8 + pay, 0) + bytes((i * 7) & 0xff for i in range(pay))
open(sys.argv[1] + '/inner1400.bin', 'wb').write(bytes.fromhex('025400000030025400000001') + b'\x08\x00' + bytes(ip) + udp)
PYEOF

# APPS: name, then the command line (without -i/-q/--batch). Names starting "tunnel" have two
# ports (access mem0, underlay mem1): their sockets per worker are 2 x the queues per port.
APPS=(
	"rxdrop|$B/apps/xsk-rxdrop --no-hints"
	"rxdrop-hints|$B/apps/xsk-rxdrop"
	"l2fwd|$B/apps/xsk-l2fwd --no-hints"
	# multi-buffer frames (docs/jumbo.md): each a chain of 3 or 5 buffers of 60 bytes, counted
	# per frame (the chain path of frags_ops.h: rx_take_sg, dispatch_sg, completions by frame)
	"rxdrop-seg3|$B/apps/xsk-rxdrop --no-hints --mem-segs 3"
	"rxdrop-seg5|$B/apps/xsk-rxdrop --no-hints --mem-segs 5"
	"l2fwd-seg3|$B/apps/xsk-l2fwd --no-hints --mem-segs 3"
	"l2fwd-seg5|$B/apps/xsk-l2fwd --no-hints --mem-segs 5"
	# chains: the filter passes every frame (its port is not the frames' 9) to the next plugin
	"filter+rxdrop|$B/apps/xskf run filter,rxdrop --no-hints -- --port 10"
	"filter+l2fwd|$B/apps/xskf run filter,l2fwd --no-hints -- --port 10"
	"tunnel-encap|$B/apps/xsk-tunnel --no-hints --config $TMP/tun.conf --mem-frame $TMP/inner.bin --mem-frame none"
	# over an IPv6 underlay (its outer UDP checksum) without and with --tx-csum (TX metadata:
	# the memory backend's stand-in is a NIC that finishes it), 60- and 1400-byte inner frames
	"tunnel-enc6|$B/apps/xsk-tunnel --no-hints --config $TMP/tun6.conf --mem-frame $TMP/inner.bin --mem-frame none"
	"tunnel-enc6-txcsum|$B/apps/xsk-tunnel --no-hints --tx-csum --config $TMP/tun6.conf --mem-frame $TMP/inner.bin --mem-frame none"
	"tunnel-enc6-1400|$B/apps/xsk-tunnel --no-hints --config $TMP/tun6.conf --mem-frame $TMP/inner1400.bin --mem-frame none"
	"tunnel-enc6-1400-txcsum|$B/apps/xsk-tunnel --no-hints --tx-csum --config $TMP/tun6.conf --mem-frame $TMP/inner1400.bin --mem-frame none"
	"tunnel-decap|$B/apps/xsk-tunnel --no-hints --config $TMP/tun.conf --mem-frame none --mem-frame $TMP/outer.bin"
	# --csum-repair finishing every frame's TCP checksum, 60 and 1514 bytes; the same 60-byte
	# frame without the option (only sampled): what the option costs
	"l2fwd-partial|$B/apps/xsk-l2fwd --no-hints --mem-frame $TMP/partial60.bin --mem-frame none"
	"l2fwd-repair|$B/apps/xsk-l2fwd --no-hints --csum-repair --mem-frame $TMP/partial60.bin --mem-frame none"
	"l2fwd-rep1514|$B/apps/xsk-l2fwd --no-hints --csum-repair --mem-frame $TMP/partial1514.bin --mem-frame none"
)
BATCHES=(16 32 64 256)
SOCKS=(1 2 8)
if [ "${1:-}" = quick ]; then
	BATCHES=(64)
	SOCKS=(1)
fi

qargs() { # qargs N: -q 0 .. -q N-1
	local i
	for ((i = 0; i < $1; i++)); do printf -- '-q %d ' "$i"; done
}

# instr FRAMES CMD...: "total stand-in" instructions of one run
instr() {
	local n=$1 out="$TMP/cg.out"
	shift
	(cd "$TMP" && valgrind --tool=callgrind --callgrind-out-file="$out" "$@" --backend memory \
		--hugepages off --mem-frames "$n" --quiet >/dev/null 2>&1)
	callgrind_annotate --inclusive=yes --auto=no "$out" 2>/dev/null | $PY -c '
import re, sys
tot = kern = 0
for l in sys.stdin:
    m = re.match(r"\s*([\d,]+) .*PROGRAM TOTALS", l)
    if m: tot = int(m.group(1).replace(",", ""))
    m = re.match(r"\s*([\d,]+) .*:xskf_mem__kernel ", l)
    if m: kern = int(m.group(1).replace(",", ""))
print(tot, kern)'
}

# nspp FRAMES CMD...: ns per packet of the worker (pinned to CPU 1) over FRAMES frames: its own
# clock, from its first loop to its last frame (start-up and tear-down left out)
nspp() {
	local n=$1
	shift
	"$@" --backend memory --hugepages off --mem-frames "$n" --quiet --json --cpus 1 2>/dev/null |
		$PY -c 'import json, sys; m = json.load(sys.stdin)["memory_backend"][0]; print(m["busy_ns"] / m["frames"])'
}

printf '%-13s %5s %5s %10s %10s %10s\n' app batch socks instr/pkt stand-in ns/pkt
for a in "${APPS[@]}"; do
	name=${a%%|*}
	read -r -a cmd <<<"${a#*|}"
	for b in "${BATCHES[@]}"; do
		for s in "${SOCKS[@]}"; do
			if [[ $name == tunnel* ]]; then
				[ "$s" = 1 ] && [ ${#SOCKS[@]} -gt 1 ] && continue
				c=("${cmd[@]}" -i mem0 -i mem1 $(qargs $(((s + 1) / 2))) --batch "$b")
				s=$(((s + 1) / 2 * 2))
			else
				c=("${cmd[@]}" -i mem0 $(qargs "$s") --batch "$b")
			fi
			read -r t1 k1 <<<"$(instr $N1 "${c[@]}")"
			read -r t2 k2 <<<"$(instr $N2 "${c[@]}")"
			ns=()
			for r in 1 2 3; do
				ns+=("$(nspp $N3 "${c[@]}")")
			done
			$PY -c '
import statistics, sys
name, b, s, t1, k1, t2, k2, n1, n2 = sys.argv[1:10]
dn = int(n2) - int(n1)
kern = (int(k2) - int(k1)) / dn
own = (int(t2) - int(t1)) / dn - kern
ns = statistics.median(float(x) for x in sys.argv[10:])
print("%-13s %5s %5s %10.1f %10.1f %10.2f" % (name, b, s, own, kern, ns))' \
				"$name" "$b" "$s" "$t1" "$k1" "$t2" "$k2" $N1 $N2 "${ns[@]}"
		done
	done
done
echo "instr/pkt: xskf + app, without the stand-in; ns/pkt: everything on the worker thread, stand-in included"

# Scaling: one worker on one socket, then two workers (CPUs 0 and 1) on two queues, each with
# the same frames; aggregate Mpps = all frames / the slower worker's busy time. Three runs
# each, interleaved; medians. The memory backend has no generator to be bound by.
scale() { # scale CPUS QUEUE-ARGS...: aggregate Mpps of one run
	local cpus=$1
	shift
	"$B/apps/xsk-rxdrop" --no-hints -i mem0 "$@" --cpus "$cpus" --backend memory \
		--hugepages off --mem-frames "$N3" --quiet --json 2>/dev/null | $PY -c '
import json, sys
m = json.load(sys.stdin)["memory_backend"]
print(sum(w["frames"] for w in m) / max(w["busy_ns"] for w in m) * 1e3)'
}
one=() two=()
for r in 1 2 3; do
	one+=("$(scale 1 -q 0)")
	two+=("$(scale 0,1 -q 0 -q 1)")
done
$PY -c '
import statistics, sys
n = len(sys.argv) // 2
a = statistics.median(float(x) for x in sys.argv[1:n + 1])
b = statistics.median(float(x) for x in sys.argv[n + 1:])
print("scaling, rxdrop --no-hints: 1 worker %.1f Mpps, 2 workers %.1f Mpps: %.2fx" % (a, b, b / a))' \
	"${one[@]}" "${two[@]}"

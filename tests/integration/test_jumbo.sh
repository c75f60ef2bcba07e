#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Jumbo frames (multi-buffer AF_XDP, docs/jumbo.md) on veth beds of MTU 9000, native mode:
#   test_jumbo.sh rxdrop    - N frames of 9018 bytes (MTU 9000 + Ethernet + a VLAN tag) from a
#                             packet socket: xsk-rxdrop counts N packets, N x 9018 bytes, N chains
#   test_jumbo.sh fwd       - N UDP datagrams of 8000 bytes from an ordinary socket in A through
#                             xsk-l2fwd --mode fwd (la -> lb) to a socket in B: N arrive, each
#                             payload checked, counters and the census exact
#   test_jumbo.sh macswap   - N frames of 9014 bytes sent back by xsk-l2fwd (MAC swap): each comes
#                             back byte for byte with its addresses swapped
#   test_jumbo.sh skb       - rxdrop in SKB mode at MTU 9000 counts 9014-byte frames too
#   test_jumbo.sh txgen     - xsk-txgen --size 9000 --count N: N frames of 9000 bytes at rxdrop
#   test_jumbo.sh tunnel    - UDP datagrams of 7000..8000 bytes through xsk-tunnel to and from
#                             the kernel's VXLAN devices (IPv4 and IPv6 underlay, MTU 9100):
#                             encap and decap of jumbo frames, each payload checked, counts exact
#   test_jumbo.sh nochains  - an app that does not take chains, at MTU 9000: one start-up line
#                             naming the cause and the fix; frames dropped by the kernel, counted
set -uo pipefail
P=jb$$
case_name=${1:?case}
N=${N:-500}
if [ "$case_name" = tunnel ]; then
	# MTU 9000 on the access side and the kernel's VXLAN devices, 9100 on the underlay
	TAG=j
	. "$(dirname "$0")/tunnel_lib.sh"
	require_feature xsk_sg frags # chains of buffers, natively: no other path takes these frames
	set +e
	tun_bed_up 9000
	write_config "$WORK/tun.conf"
	app_start --config "$WORK/tun.conf" -N
	grep -q "multi-buffer AF_XDP (XDP_USE_SG)" "$WORK/app.err" || { cat "$WORK/app.err"; fail "no XDP_USE_SG line"; }
	export TUN_PAYLOAD_BASE=7000 # 7000..8000 bytes of UDP: chains, odd lengths among them
	# host -> tunnel (encap, IPv4 and IPv6 underlay) -> kernel VXLAN, and back (decap)
	for dir in "$NS_H 192.0.2.2 $NS_V 5101" "$NS_H 203.0.113.2 $NS_V 5102" \
		"$NS_V 192.0.2.1 $NS_H 5103" "$NS_V 203.0.113.1 $NS_H 5104"; do
		read -r from dst to port <<<"$dir"
		udp_recv "$to" "$port" "$N"
		udp_send "$from" "$dst" "$port" "$N" || fail "sender"
		wait "$UDP_RX"
		got=$(cat "$WORK/rx.$port")
		[ "$got" = "$N" ] || fail "to $dst: $got of $N datagrams of 7000..8000 bytes intact"
		ok "to $dst ($to): $N of $N UDP datagrams of 7000..8000 bytes arrived intact"
	done
	app_stop
	expect_stat encap $((2 * N))
	expect_stat decap $((2 * N))
	[ "$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sum(q["chains"]["rx"] for q in j["queues"]), j["census_ok"])' "$WORK/app.json")" = "$((4 * N)) True" ] ||
		fail "chains received or census"
	ok "tunnel: $((4 * N)) jumbo frames as chains, encap $((2 * N)), decap $((2 * N)), census ok"
	echo PASS
	exit 0
fi
. "$(dirname "$0")/fwd_lib.sh"
# frames longer than a UMEM frame need multi-buffer AF_XDP, and native mode at MTU 9000 a
# frags-aware program: without them no path takes these frames (SKB mode needs the first only)
if [ "$case_name" = skb ]; then require_feature xsk_sg; else require_feature xsk_sg frags; fi

# send_raw NS IF DST SRC N LEN [VLAN]: N frames of LEN bytes (ethertype 0x88b5, the sequence
# number in the first payload bytes, from SEQ0, default 0) from a packet socket.
send_raw() {
	ip netns exec "$1" $PY - "$2" "$3" "$4" "$5" "$6" "${7:-}" "${SEQ0:-0}" <<'PYEOF'
import socket, struct, sys, time
ifc, dst, src, n, ln, vlan, seq0 = sys.argv[1:8]
dst, src = bytes.fromhex(dst.replace(":", "")), bytes.fromhex(src.replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifc, 0))
hdr = dst + src + (b"\x81\x00\x00\x05" if vlan else b"") + b"\x88\xb5"
for i in range(int(seq0), int(seq0) + int(n)):
    body = struct.pack("!I", i) + bytes((i + k) & 0xff for k in range(256))
    f = hdr + (body * (int(ln) // len(body) + 1))[: int(ln) - len(hdr)]
    s.send(f)
    if i % 32 == 31:
        time.sleep(0.001)
PYEOF
}

# the start-up line of the choice, native attach, no kernel drops, exact counts of one port
check_sg_line() {
	grep -q "MTU 9000: frames of up to 9018 bytes come in up to .* multi-buffer AF_XDP (XDP_USE_SG)" "$1" ||
		{ cat "$1"; fail "no start-up line for XDP_USE_SG"; }
	grep -q "XDP program attached alone in native mode\|XDP program attached in native mode through libxdp's dispatcher" "$1" || { cat "$1"; fail "not attached natively"; }
}

case $case_name in
rxdrop | skb)
	fwd_bed_up 9000
	mode=-N len=9018 vlan=1
	[ $case_name = skb ] && mode=-S len=9014 vlan=
	start_app $NL $TMP/rx.json $BUILD/apps/xsk-rxdrop -i la $mode --quiet
	[ $case_name = rxdrop ] && check_sg_line $TMP/rx.json.err
	# in chunks of 100 frames of 6 buffers (600 of the 2048-slot ring), each once the last was
	# received: exact however slow the worker (a loaded machine starved it for a whole ring)
	for ((i = 0; i < N; i += 100)); do
		SEQ0=$i send_raw $NA a0 $MAC_LA $MAC_A $((N - i < 100 ? N - i : 100)) $len $vlan
		wait_app_rx $APP_PID $((N - i < 100 ? N : i + 100))
	done
	stop_app || fail "xsk-rxdrop exited with an error"
	no_xdp $NL la
	J=$TMP/rx.json
	got=$(jget $J "[sum(q[k] for q in j['queues']) for k in ('rx_packets', 'rx_bytes')] + [sum(q['chains']['rx'] for q in j['queues'])]")
	[ "$got" = "[$N, $((N * len)), $N]" ] || fail "rx packets, bytes, chains: $got, expected [$N, $((N * len)), $N]"
	[ "$(jget $J "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in j['queues'])")" = 0 ] ||
		fail "kernel drops"
	[ "$(jget $J "j['census_ok'] and all(q['reconciled'] for q in j['queues'])")" = True ] ||
		fail "census or reconciliation"
	ok "$case_name: $N frames of $len bytes counted exactly ($N packets, $((N * len)) bytes, $N chains), census ok"
	;;
fwd)
	fwd_bed_up 9000
	start_app $NL $TMP/l2fwd.json $L2FWD -i la -i lb -N --mode fwd --dst-mac-0 $MAC_A \
		--dst-mac-1 $MAC_B --quiet
	check_sg_line $TMP/l2fwd.json.err
	rm -f $TMP/recv.ready
	ip netns exec $NB $PY - $N $TMP/recv.ready >$TMP/recv <<'PYEOF' &
import socket, struct, sys, time
n = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
s.bind(("0.0.0.0", 5009))
open(sys.argv[2], "w").close()
seen, bad, end = set(), 0, time.time() + 60
while time.time() < end and len(seen) + bad < n:
    s.settimeout(max(0.01, end - time.time()))
    try:
        d = s.recv(65536)
    except socket.timeout:
        break
    i = struct.unpack("!I", d[:4])[0]
    if len(d) != 8000 or d[4:] != bytes(((i * 7 + k) & 0xff for k in range(7996))):
        bad += 1
    else:
        seen.add(i)
# a datagram too many would show here
s.settimeout(0.3)
try:
    s.recv(65536)
    bad += 1
except socket.timeout:
    pass
print(len(seen), bad)
PYEOF
	rpid=$!
	wait_for "UDP receiver in B" test -e $TMP/recv.ready
	# in chunks of 100 datagrams, each once xsk-l2fwd has sent the last on (its live TX count):
	# exact however slow its worker is on a loaded machine
	for ((i = 0; i < N; i += 100)); do
		ip netns exec $NA $PY - $i $((N - i < 100 ? N - i : 100)) <<'PYEOF' || fail "sender"
import socket, struct, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
i0, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(i0, i0 + n):
    s.sendto(struct.pack("!I", i) + bytes(((i * 7 + k) & 0xff for k in range(7996))), ("192.0.2.2", 5009))
    if i % 16 == 15:
        time.sleep(0.002)
PYEOF
		wait_for "$((N - i < 100 ? N : i + 100)) frames sent on by xsk-l2fwd" ge app_tx $APP_PID $((N - i < 100 ? N : i + 100))
	done
	wait $rpid
	read -r good bad <$TMP/recv
	[ "$good $bad" = "$N 0" ] || fail "B received $good good and $bad bad datagrams of $N"
	ok "fwd: $N UDP datagrams of 8000 bytes from A reached a socket in B, each payload checked"
	stop_app || fail "xsk-l2fwd exited with an error"
	no_xdp $NL la
	no_xdp $NL lb
	J=$TMP/l2fwd.json
	sum() { jget $J "sum(q$2 for q in j['queues'] if q['port'] == '$1')"; }
	got="$(sum la "['rx_packets']") $(sum la "['chains']['rx']") $(sum lb "['tx_packets']") $(sum lb "['tx_bytes']")"
	# 8000 bytes of UDP payload + 8 + 20 + 14 per frame
	[ "$got" = "$N $N $N $((N * 8042))" ] ||
		fail "la rx, la chains, lb tx, lb tx bytes: $got, expected $N $N $N $((N * 8042))"
	[ "$(jget $J "j['census_ok'] and all(q['reconciled'] for q in j['queues'])")" = True ] ||
		fail "census or reconciliation"
	ok "fwd: la rx = la chains = lb tx = $N, $((N * 8042)) bytes sent, census ok"
	;;
macswap)
	fwd_bed_up 9000
	start_app $NL $TMP/l2fwd.json $L2FWD -i la -N --quiet
	check_sg_line $TMP/l2fwd.json.err
	rm -f $TMP/cap.ready
	ip netns exec $NA $PY - a0 $N $MAC_A $MAC_LA $TMP/cap.ready >$TMP/cap <<'PYEOF' &
import socket, struct, sys, time
ifc, n, me, peer = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
me, peer = bytes.fromhex(me.replace(":", "")), bytes.fromhex(peer.replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
s.bind((ifc, 0x88b5))
open(sys.argv[5], "w").close()
seen, bad, end = set(), 0, time.time() + 60
while time.time() < end and len(seen) + bad < n:
    s.settimeout(max(0.01, end - time.time()))
    try:
        f, a = s.recvfrom(65536)
    except socket.timeout:
        break
    if a[2] == socket.PACKET_OUTGOING:
        continue
    i = struct.unpack("!I", f[14:18])[0]
    body = struct.pack("!I", i) + bytes((i + k) & 0xff for k in range(256))
    want = me + peer + b"\x88\xb5" + (body * 40)[: 9014 - 14]
    if f == want:
        seen.add(i)
    else:
        bad += 1
print(len(seen), bad)
PYEOF
	cpid=$!
	wait_for "capture at A" test -e $TMP/cap.ready
	# in chunks of 100, each once xsk-l2fwd has sent the last back (as rxdrop above)
	for ((i = 0; i < N; i += 100)); do
		SEQ0=$i send_raw $NA a0 $MAC_LA $MAC_A $((N - i < 100 ? N - i : 100)) 9014
		wait_for "$((N - i < 100 ? N : i + 100)) frames sent back by xsk-l2fwd" ge app_tx $APP_PID $((N - i < 100 ? N : i + 100))
	done
	wait $cpid
	read -r good bad <$TMP/cap
	[ "$good $bad" = "$N 0" ] || fail "A got back $good good and $bad bad frames of $N"
	ok "macswap: $N frames of 9014 bytes came back byte for byte, addresses swapped"
	stop_app || fail "xsk-l2fwd exited with an error"
	no_xdp $NL la
	J=$TMP/l2fwd.json
	got=$(jget $J "[sum(q[k] for q in j['queues']) for k in ('rx_packets', 'tx_packets', 'tx_bytes')]")
	[ "$got" = "[$N, $N, $((N * 9014))]" ] || fail "rx, tx, tx bytes: $got"
	[ "$(jget $J "j['census_ok']")" = True ] || fail "census"
	ok "macswap: rx = tx = $N, $((N * 9014)) bytes, census ok"
	;;
txgen)
	# xsk-txgen --size 9000 (frames of 6 buffers) from A to xsk-rxdrop on la
	fwd_bed_up 9000
	start_app $NL $TMP/rx.json $BUILD/apps/xsk-rxdrop -i la -N --quiet
	# paced: a starved receiver (a loaded machine) would drop at full speed, counted, not lost
	ip netns exec $NA $TXGEN -i a0 -N --size 9000 --count $N --rate 5000 --dst-mac $MAC_LA --json \
		>$TMP/tx.json 2>$TMP/tx.err || { cat $TMP/tx.err; fail "xsk-txgen"; }
	check_sg_line $TMP/tx.err
	[ "$(jget $TMP/tx.json "[j['app_stats'][k] for k in ('sent', 'bytes', 'handed')] + [j['census_ok']]")" = "[$N, $((N * 9000)), $N, True]" ] ||
		fail "txgen: $(jget $TMP/tx.json "j['app_stats']")"
	wait_app_rx $APP_PID $N
	stop_app || fail "xsk-rxdrop exited with an error"
	J=$TMP/rx.json
	got=$(jget $J "[sum(q[k] for q in j['queues']) for k in ('rx_packets', 'rx_bytes')] + [sum(q['chains']['rx'] for q in j['queues'])]")
	[ "$got" = "[$N, $((N * 9000)), $N]" ] || fail "rx packets, bytes, chains: $got"
	ok "txgen: $N frames of 9000 bytes sent as chains, counted exactly by xsk-rxdrop"
	;;
txgen-imix)
	# xsk-txgen --imix-jumbo: 6:4:1:1 of 60/590/1514/9018-byte frames, the 9018-byte ones chains
	fwd_bed_up 9000
	start_app $NL $TMP/rx.json $BUILD/apps/xsk-rxdrop -i la -N --quiet
	C=24 # cycles of 12 frames: 13252 bytes each, one 9018-byte frame each
	ip netns exec $NA $TXGEN -i a0 -N --imix-jumbo --count $((C * 12)) --rate 5000 \
		--dst-mac $MAC_LA --json >$TMP/tx.json 2>$TMP/tx.err || { cat $TMP/tx.err; fail "xsk-txgen --imix-jumbo"; }
	[ "$(jget $TMP/tx.json "[j['app_stats'][k] for k in ('sent', 'bytes')]")" = "[$((C * 12)), $((C * 13252))]" ] ||
		fail "txgen --imix-jumbo: $(jget $TMP/tx.json "j['app_stats']")"
	wait_app_rx $APP_PID $((C * 12))
	stop_app || fail "xsk-rxdrop exited with an error"
	got=$(jget $TMP/rx.json "[sum(q[k] for q in j['queues']) for k in ('rx_packets', 'rx_bytes')] + [sum(q['chains']['rx'] for q in j['queues'])]")
	[ "$got" = "[$((C * 12)), $((C * 13252)), $C]" ] || fail "rx packets, bytes, chains: $got"
	ok "txgen --imix-jumbo: $((C * 12)) frames, $((C * 13252)) bytes, $C of them 9018-byte chains, counted exactly"
	# where the MTU needs no chains, one line says why, before set-up
	ip -n $NA link set a0 mtu 1500
	ip netns exec $NA $TXGEN -i a0 -N --imix-jumbo --count 12 >/dev/null 2>$TMP/j1500.err &&
		fail "--imix-jumbo at MTU 1500 ran"
	grep -q "txgen: --imix-jumbo's 9018-byte frames need frames of several buffers" $TMP/j1500.err ||
		{ cat $TMP/j1500.err; fail "--imix-jumbo at MTU 1500: no line saying why"; }
	no_xdp $NA a0
	ok "txgen --imix-jumbo at MTU 1500: $(grep -m1 imix-jumbo $TMP/j1500.err | cut -c1-80)..."
	;;
txgen-pcap)
	# a pcap of jumbo records replayed: each record longer than a buffer goes as a chain; a
	# record longer than 9018 bytes (what no 9000 MTU passes) is skipped, in one line
	fwd_bed_up 9000
	start_app $NL $TMP/rx.json $BUILD/apps/xsk-rxdrop -i la -N --quiet
	$PY - $TMP/j.pcap $MAC_LA $MAC_A >$TMP/pcap.sum <<'EOPY'
import struct, sys
path, dst, src = sys.argv[1], bytes.fromhex(sys.argv[2].replace(':', '')), bytes.fromhex(sys.argv[3].replace(':', ''))
sizes = [60, 9018, 1514, 4000, 1761, 9100, 7000, 590, 9018, 3600] * 3
out = open(path, 'wb')
out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
n = b = chains = 0
for i, size in enumerate(sizes):
    frame = dst + src + b'\x88\xb5' + bytes((i + k) & 255 for k in range(size - 14))
    out.write(struct.pack('<IIII', i, 0, size, size) + frame)
    if size <= 9018:
        n, b = n + 1, b + size
        chains += size > 1760
print(n, b, chains)
EOPY
	read -r n b chains <$TMP/pcap.sum
	ip netns exec $NA $TXGEN -i a0 -N --pcap $TMP/j.pcap --rate 5000 --json >$TMP/tx.json 2>$TMP/tx.err ||
		{ cat $TMP/tx.err; fail "xsk-txgen --pcap"; }
	grep -q "txgen: .*j.pcap: 3 frames skipped (truncated, shorter than 14 or longer than 9018 bytes)" $TMP/tx.err ||
		{ cat $TMP/tx.err; fail "no line for the 3 records longer than 9018 bytes"; }
	[ "$(jget $TMP/tx.json "[j['app_stats'][k] for k in ('sent', 'bytes')]")" = "[$n, $b]" ] ||
		fail "txgen --pcap: $(jget $TMP/tx.json "j['app_stats']"), expected $n frames, $b bytes"
	wait_app_rx $APP_PID $n
	stop_app || fail "xsk-rxdrop exited with an error"
	got=$(jget $TMP/rx.json "[sum(q[k] for q in j['queues']) for k in ('rx_packets', 'rx_bytes')] + [sum(q['chains']['rx'] for q in j['queues'])]")
	[ "$got" = "[$n, $b, $chains]" ] || fail "rx packets, bytes, chains: $got (expected $n, $b, $chains)"
	ok "txgen --pcap: $n jumbo and plain records ($b bytes, $chains chains) replayed and counted exactly; 3 over 9018 bytes skipped in one line"
	;;
nochains)
	# a plugin that does not take chains: the MTU needs them, so it says why frames are dropped
	fwd_bed_up 9000
	start_app $NL $TMP/nochain.json $BUILD/apps/xskf run "$XSKF_TEST_PLUGINS/needs_hints.so" -i la -N --quiet
	grep -q "MTU 9000 allows 9018-byte frames, a UMEM frame holds 1760 after its headroom: longer frames are dropped by the kernel (rx_dropped); the app does not take multi-buffer frames (XSKF_APP_F_FRAGS" \
		$TMP/nochain.json.err || { cat $TMP/nochain.json.err; fail "no line naming the cause"; }
	[ "$(mtu_lines $TMP/nochain.json.err)" = 1 ] || { cat $TMP/nochain.json.err; fail "not one MTU line"; }
	grep -q "XDP_USE_SG)" $TMP/nochain.json.err && fail "bound with XDP_USE_SG for an app without chains"
	send_raw $NA a0 $MAC_LA $MAC_A 20 9014
	wait_for "20 kernel drops" ge app_live $APP_PID "sum(q['kernel']['rx_dropped'] for q in j['queues'])" 20
	stop_app || fail "the plugin's run exited with an error"
	no_xdp $NL la
	ok "nochains: one line names the plugin's missing XSKF_APP_F_FRAGS; 20 frames of 9014 bytes counted in rx_dropped"
	;;
*) fail "unknown case $case_name" ;;
esac
echo PASS

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Tunnel table reloads (SIGHUP) under continuous traffic lose nothing: while xskf-trafficgen
# sends a steady stream host -> vtep (encap) and a UDP stream runs vtep -> host (decap), the
# config is swapped between two equivalent tables 8 times, once for a malformed one,
# which must be rejected with file, line and reason while the running table stays in place.
TAG=r
source "$(dirname "$0")/tunnel_lib.sh"

GEN=$BUILD/tools/xskf-trafficgen
[[ -x $GEN ]] || { echo "SKIP: $GEN not built"; exit 77; }
STEPS=8
CHUNK=500     # frames per step host -> vtep (encap)
REV_CHUNK=250 # datagrams per step vtep -> host (decap)
N_REV=$((STEPS * REV_CHUNK))
RATE=10000    # a steady stream while the reload runs; nothing depends on it

tun_bed_up
CONF=$WORK/tun.conf
write_config "$WORK/a.conf"
# B: the same tunnels written differently, plus a VNI no traffic uses
{
	echo "# equivalent table, other order"
	echo "default vni 100 remote 198.51.100.2"
	echo "vni 200 remote 2001:db8::2 mac $MAC_VX6   # IPv6 underlay"
	echo "nexthop-mac $MAC_V0"
	echo "vni 300 remote 198.51.100.3 mac 02:54:00:00:00:99"
	echo "local 2001:db8::1"
	echo "vni 100 remote 198.51.100.2 mac $MAC_VX0"
	echo "local 198.51.100.1"
} >"$WORK/b.conf"
sed 's/^vni 200 remote.*/vni 16777216 remote 2001:db8::2 mac 02:54:00:00:00:31/' \
	"$WORK/a.conf" >"$WORK/bad.conf"
BAD_LINE=$(grep -n 16777216 "$WORK/bad.conf" | cut -d: -f1)
cp "$WORK/a.conf" "$CONF"
app_start --config "$CONF"

rx_before=$(sysfs_ctr "$NS_V" vx0 rx_packets)
udp_recv "$NS_H" 5001 $N_REV

# The file is replaced by rename so that a reload never reads half a file.
swap() {
	cp "$WORK/$1" "$CONF.tmp"
	mv "$CONF.tmp" "$CONF"
	kill -HUP "$APP_PID"
}
reads() { live reloads; }
# Each step: swap the file and signal, then send a chunk each way while the control thread
# reloads (it reads one SIGHUP per tick); the step ends when the reload is counted and every
# frame has arrived. A chunk is smaller than every ring and queue on the way, so however late
# a worker runs nothing can overflow: the counts are exact on any machine.
sent=0 rev=0
for i in $(seq $STEPS); do
	r0=$(($(live reloads) + $(live reload_errors)))
	if [[ $i -eq 4 ]]; then
		swap bad.conf
	elif ((i % 2)); then
		swap b.conf
	else
		swap a.conf
	fi
	ip netns exec "$NS_H" "$GEN" -i h0 -n $CHUNK --rate $RATE --dst-ip 192.0.2.2 --flows 64 --json \
		>"$WORK/gen.json" 2>"$WORK/gen.err" &
	GEN_PID=$!
	ip netns exec "$NS_V" $PY "$HELPER" udp-send 192.0.2.1 5001 $REV_CHUNK
	wait $GEN_PID || fail "generator failed: $(cat "$WORK/gen.err")"
	s=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["sent"])' "$WORK/gen.json")
	[[ $s -eq $CHUNK ]] || fail "generator sent $s of $CHUNK"
	sent=$((sent + CHUNK)) rev=$((rev + REV_CHUNK))
	read_done() { LAST=$(($(live reloads) + $(live reload_errors))) && [[ $LAST -gt $r0 ]]; }
	wait_for "reload $i read" read_done
	wait_ctr "$NS_V" vx0 rx_packets $((rx_before + sent))
done
wait $UDP_RX
rx_after=$(sysfs_ctr "$NS_V" vx0 rx_packets)
app_stop

got=$((rx_after - rx_before))
echo "generator sent $sent, vx0 received $got, $STEPS SIGHUPs"
[[ $got -eq $sent ]] || fail "encap: $got of $sent frames reached the kernel VTEP"
[[ $(cat "$WORK/rx.5001") -eq $N_REV ]] || fail "decap: $(cat "$WORK/rx.5001") of $N_REV datagrams"
ok "decap $N_REV/$N_REV datagrams during reloads"

grep -q "reload rejected.*tun.conf:$BAD_LINE: VNI 16777216 out of range" \
	"$WORK/app.err" || fail "no rejection message with file:line"
grep "reload rejected" "$WORK/app.err"
reloads=$(stat reloads)
[[ $reloads -eq $((STEPS - 1)) ]] || fail "$reloads reloads, expected $((STEPS - 1))"
ok "$reloads reloads"
expect_stat reload_errors 1
expect_stat encap_drop_no_route 0
expect_stat decap_drop_unknown_vni 0
echo "PASS"

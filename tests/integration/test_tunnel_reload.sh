#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Tunnel table reloads (SIGHUP) under continuous traffic lose nothing: while xskf-trafficgen
# sends a steady stream host -> vtep (encap) and a UDP stream runs vtep -> host (decap), the
# config is swapped between two equivalent tables every 0.3 s, and once for a malformed one,
# which must be rejected with file, line and reason while the running table stays in place.
TAG=r
source "$(dirname "$0")/tunnel_lib.sh"

GEN=$BUILD/tools/xskf-trafficgen
[[ -x $GEN ]] || { echo "SKIP: $GEN not built"; exit 77; }
FRAMES=100000 # 10 s at RATE: longer than the 7 swaps below
# modest: on 2 shared CPUs a starved worker (fill ring empty) would lose frames at 40 kpps
RATE=10000
N_REV=3000

tb_up
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

rx_before=$(ip netns exec "$NS_V" cat /sys/class/net/vx0/statistics/rx_packets)
ip netns exec "$NS_H" $PY "$HELPER" udp-recv 5001 60 $N_REV >"$WORK/rev" &
REV_RX=$!
ip netns exec "$NS_H" "$GEN" -i h0 -n $FRAMES --rate $RATE --dst-ip 192.0.2.2 -f 64 --json \
	>"$WORK/gen.json" 2>"$WORK/gen.err" &
GEN_PID=$!
sleep 0.3
ip netns exec "$NS_V" $PY "$HELPER" udp-send 192.0.2.1 5001 $N_REV &
REV_TX=$!

# The file is replaced by rename so that a reload never reads half a file.
swap() {
	cp "$WORK/$1" "$CONF.tmp"
	mv "$CONF.tmp" "$CONF"
	kill -HUP "$APP_PID"
}
i=0
while [[ $i -lt 7 ]] || kill -0 $GEN_PID 2>/dev/null; do
	i=$((i + 1))
	if [[ $i -eq 4 ]]; then
		swap bad.conf
	elif ((i % 2)); then
		swap b.conf
	else
		swap a.conf
	fi
	# one SIGHUP per tick (1 s) at most is read; leave each table in place for a while
	sleep 1.1
done
wait $GEN_PID || fail "generator failed: $(cat "$WORK/gen.err")"
wait $REV_TX
wait $REV_RX
sleep 0.5
rx_after=$(ip netns exec "$NS_V" cat /sys/class/net/vx0/statistics/rx_packets)
app_stop

sent=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["sent"])' "$WORK/gen.json")
got=$((rx_after - rx_before))
echo "generator sent $sent, vx0 received $got, $i SIGHUPs"
[[ $sent -eq $FRAMES ]] || fail "generator sent $sent of $FRAMES"
[[ $got -eq $FRAMES ]] || fail "encap: $got of $FRAMES frames reached the kernel VTEP"
[[ $(cat "$WORK/rev") -eq $N_REV ]] || fail "decap: $(cat "$WORK/rev") of $N_REV datagrams"
echo "ok: decap $N_REV/$N_REV datagrams during reloads"

grep -q "reload rejected.*tun.conf:$BAD_LINE: VNI 16777216 out of range" \
	"$WORK/app.err" || fail "no rejection message with file:line"
grep "reload rejected" "$WORK/app.err"
reloads=$(stat reloads)
[[ $reloads -ge 3 ]] || fail "only $reloads reloads"
echo "ok: $reloads reloads"
expect_stat reload_errors 1
expect_stat encap_drop_no_route 0
expect_stat decap_drop_unknown_vni 0
echo "PASS"

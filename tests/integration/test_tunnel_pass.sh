#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-tunnel --policy pass: the underlay's XDP program steers only UDP 4789 to the app, so the
# kernel of the tunnel namespace answers ARP and ping for the VTEP address itself, while the
# tunnel still carries traffic both ways. With --policy drop the same ping must fail (the
# frames reach the app, which drops and counts them).
TAG=p
source "$(dirname "$0")/tunnel_lib.sh"

tun_bed_up
write_config "$WORK/tun.conf"
# the VTEP address on the underlay interface, and no static neighbour at the far end: the
# kernel must answer ARP for it
ip -n "$NS_T" addr add 198.51.100.1/24 dev tu
ip -n "$NS_V" neigh del 198.51.100.1 dev v0

app_start --config "$WORK/tun.conf" --policy pass
wait_line "$WORK/app.err" "steering: 1 rule (first: udp dport 4789 xsk), default pass" ||
	fail "steering not announced"
ip netns exec "$NS_V" ping -q -c 5 -i 0.05 -W 10 198.51.100.1 | grep -q " 5 received" ||
	fail "ping of the VTEP address with --policy pass"
ok "the kernel answers ARP and ping for the VTEP address (--policy pass)"
ip netns exec "$NS_H" ping -q -c 5 -i 0.05 -W 10 192.0.2.2 | grep -q " 5 received" ||
	fail "ping through the tunnel with --policy pass"
ip netns exec "$NS_V" ping -q -c 5 -i 0.05 -W 10 192.0.2.1 | grep -q " 5 received" ||
	fail "ping through the tunnel (kernel encap) with --policy pass"
ok "the tunnel carries ping both ways with --policy pass"
app_stop
passed=$($PY -c "import json; d=json.load(open('$WORK/app.json')); print(sum(q['program']['passed'] for q in d['queues'] if q['port'] == 'tu'))")
# 5 echo requests and at least one ARP request
[[ $passed -ge 6 ]] || fail "the underlay program passed only $passed frames to the stack"
ok "$passed underlay frames went to the kernel"

# the same ping with --policy drop: the app gets the frames and drops them
app_start --config "$WORK/tun.conf"
ip netns exec "$NS_V" ping -q -c 3 -i 0.05 -W 1 198.51.100.1 >/dev/null &&
	fail "the VTEP address answered with --policy drop"
app_stop
ok "with --policy drop the VTEP address does not answer"
echo PASS

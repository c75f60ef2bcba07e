#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-tunnel against the Linux VXLAN device, both ways, over an IPv4 and an IPv6 underlay:
# ping and UDP with exact counts, inner frames byte-exact on both sides, outer headers checked
# (addresses, checksums, source port range), MTU drops counted, no XDP program left behind.
# Arguments go to xsk-tunnel: with --tx-csum (test tunnel-vxlan-txcsum) the outer UDP
# checksums of the IPv6 underlay are asked of the TX offload (checked by the same outer check),
# and its JSON must show them sent with TX metadata, none computed by xskf, none invalid.
TAG=v
source "$(dirname "$0")/tunnel_lib.sh"

N=300 # UDP datagrams per direction and underlay

tun_bed_up
write_config "$WORK/tun.conf"
app_start --config "$WORK/tun.conf" "$@"
# the access port is promiscuous for the run (a NIC drops frames to other MACs: the lab's
# tunnel-zc showed it), the underlay not; and nothing of it is left after the run
promisc() { ip -n "$NS_T" -d link show "$1" | grep -o 'promiscuity [0-9]*'; }
[[ $(promisc ta) == "promiscuity 1" && $(promisc tu) == "promiscuity 0" ]] ||
	fail "promiscuity while running: ta '$(promisc ta)', tu '$(promisc tu)'"

cap "$NS_H" h0 "$WORK/h0-4.pcap" 'udp and (port 5000 or port 5001)'
cap "$NS_H" h0 "$WORK/h0-6.pcap" 'udp and (port 5002 or port 5003)'
cap "$NS_V" vx0 "$WORK/vx0.pcap" 'udp and (port 5000 or port 5001)'
cap "$NS_V" vx6 "$WORK/vx6.pcap" 'udp and (port 5002 or port 5003)'
cap "$NS_V" v0 "$WORK/v0.pcap" 'udp port 4789'

ping_ok() { # ping_ok NS DST COUNT [ARGS]: all answered
	local ns=$1 dst=$2 n=$3
	shift 3
	ip netns exec "$ns" ping -q -c "$n" -i 0.05 -W 10 "$@" "$dst" | grep -q " $n received" ||
		fail "ping $dst from $ns $*: not $n replies"
	ok "ping $dst from $ns $*: $n/$n"
}
ping_ok "$NS_H" 192.0.2.2 5             # encap IPv4 underlay, kernel decap; and back
ping_ok "$NS_H" 203.0.113.2 5           # the same over IPv6
ping_ok "$NS_H" 192.0.2.2 3 -s 1400     # large frames
ping_ok "$NS_V" 192.0.2.1 5             # kernel encap, xsk-tunnel decap; and back
ping_ok "$NS_V" 203.0.113.1 5

# Too large for the underlay once wrapped: 1500-byte inner IPv4 packet + 50 (+ 70 over IPv6).
# Without DF (-M dont) they are dropped and counted, with no ICMP (docs/tunnel.md, "Path MTU";
# with DF they get one: test_tunnel_pmtu.sh).
ip netns exec "$NS_H" ping -q -c 3 -i 0.05 -W 1 -M dont -s 1472 192.0.2.2 >/dev/null && fail "MTU ping passed"
ip netns exec "$NS_H" ping -q -c 2 -i 0.05 -W 1 -M dont -s 1460 203.0.113.2 >/dev/null && fail "MTU ping passed"

udp() { # udp RXNS SRCNS DST PORT
	udp_recv "$1" "$4" $N
	udp_send "$2" "$3" "$4" $N
	wait $UDP_RX
	[[ $(cat "$WORK/rx.$4") -eq $N ]] || fail "UDP to $3:$4: $(cat "$WORK/rx.$4") of $N intact"
	ok "UDP to $3:$4: $N/$N intact"
}
udp "$NS_V" "$NS_H" 192.0.2.2 5000
udp "$NS_H" "$NS_V" 192.0.2.1 5001
udp "$NS_V" "$NS_H" 203.0.113.2 5002
udp "$NS_H" "$NS_V" 203.0.113.1 5003
# each capture has both directions' datagrams; the underlay also the 46 tunnelled pings
for f in h0-4 h0-6 vx0 vx6; do wait_pcap "$WORK/$f.pcap" $((2 * N)); done
wait_pcap "$WORK/v0.pcap" $((4 * N + 46))
ip netns pids "$NS_H" | xargs -r kill -INT
ip netns pids "$NS_V" | xargs -r kill -INT
wait_for "captures stopped" sh -c "! ip netns pids $NS_H | grep -q . && ! ip netns pids $NS_V | grep -q ."
app_stop
[[ $(promisc ta) == "promiscuity 0" ]] || fail "ta after the run: $(promisc ta)"

# Inner frames: what one side sent is, byte for byte, what the other side received.
$PY "$HELPER" compare "$WORK/h0-4.pcap" "$WORK/vx0.pcap" || fail "inner frames differ (IPv4 underlay)"
$PY "$HELPER" compare "$WORK/h0-6.pcap" "$WORK/vx6.pcap" || fail "inner frames differ (IPv6 underlay)"
$PY "$HELPER" outer "$WORK/v0.pcap" $MAC_TU $MAC_V0 || fail "outer headers"

# host -> vtep: 5 + 5 + 3 echo requests, 10 echo replies, 2N datagrams
expect_stat encap $((23 + 2 * N))
expect_stat decap $((23 + 2 * N))
expect_stat encap_drop_mtu 5
expect_stat pmtu_no_icmp 5
expect_stat pmtu_icmp4_sent 0
expect_stat encap_drop_no_route 0
if [[ " $* " == *" --tx-csum "* ]]; then
	tm=$($PY -c 'import json,sys; q=[q for q in json.load(open(sys.argv[1]))["queues"] if q["port"] == "tu"][0]; t=q["tx_meta"]; print(t["frames"], t["csum_sw"], t["invalid"])' "$WORK/app.json")
	read -r f sw inv <<<"$tm"
	if [[ $(features_use tx_metadata) == True ]]; then
		[[ $f -ge $((N + 10)) && $sw == 0 && $inv == 0 ]] ||
			fail "--tx-csum: underlay tx_meta frames $f (>= $((N + 10)) expected), csum_sw $sw, invalid $inv"
		grep -q "tunnel: --tx-csum: outer UDP checksums (IPv6 underlay) by TX offload" "$WORK/app.err" ||
			fail "--tx-csum: no line says the offload is used"
		ok "--tx-csum: $f outer UDP checksums by TX offload on the IPv6 underlay, 0 by xskf, 0 invalid"
	else
		# no AF_XDP TX metadata (a kernel before 6.8, or XSKF_FEATURES_OFF=tx_metadata): the
		# plugin computes the outer checksum itself and asks nothing; the frames above came
		# through byte for byte
		[[ $f == 0 && $sw == 0 && $inv == 0 ]] ||
			fail "--tx-csum without TX metadata: underlay tx_meta frames $f, csum_sw $sw, invalid $inv (0 expected)"
		grep -q "tunnel: --tx-csum: outer UDP checksums (IPv6 underlay) computed here: the underlay has no checksum offload" "$WORK/app.err" ||
			fail "--tx-csum without TX metadata: no line says the plugin computes them"
		ok "--tx-csum without AF_XDP TX metadata (xskf features): the outer UDP checksums computed by the plugin, said in one line"
	fi
fi
echo "PASS"

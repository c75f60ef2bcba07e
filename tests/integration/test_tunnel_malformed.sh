#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# What is not VXLAN for us on the underlay is dropped and counted by reason (frames crafted
# with scapy: short, bad flags, wrong port, unknown VNI, not UDP, not IP, not our address),
# while the good frames among them are decapsulated. And configs that are wrong are refused at
# start with file, line and reason.
TAG=m
source "$(dirname "$0")/tunnel_lib.sh"

# --- configs refused at load (exit status 2, message names file:line) ---
bad_config() { # bad_config "TEXT" "EXPECTED MESSAGE"
	printf '%b' "$1" >"$WORK/bad.conf"
	local st=0
	"$TUNNEL" -i lo -i lo --config "$WORK/bad.conf" 2>"$WORK/bad.err" >/dev/null || st=$?
	[[ $st -eq 2 ]] || fail "config '$1': exit status $st, expected 2"
	grep -qF "$WORK/bad.conf$2" "$WORK/bad.err" || fail "config '$1': got '$(cat "$WORK/bad.err")'"
	ok "refused: $(cat "$WORK/bad.err")"
}
HEAD='local 198.51.100.1\nnexthop-mac 02:00:00:00:00:02\n'
bad_config "${HEAD}vni 16777216 remote 198.51.100.2 mac 02:00:00:00:00:03\n" ":3: VNI 16777216 out of range"
bad_config "${HEAD}vni -1 remote 198.51.100.2 mac 02:00:00:00:00:03\n" ":3: VNI '-1' is not a number"
bad_config "${HEAD}# c\n\ndefault vni 7 remote 198.51.100.256\n" ":5: '198.51.100.256' is not an IPv4"
bad_config "${HEAD}default vni 7 remote 224.0.0.1\n" ":3: address 224.0.0.1 out of range"
bad_config "${HEAD}default vni 7 remote 2001:db8::2\n" ":3: remote is IPv6 but there is no such 'local'"
bad_config "${HEAD}vni 1 remote 198.51.100.2 mac 02:00:00:00:00:0g\n" ":3: '02:00:00:00:00:0g' is not a MAC"
bad_config "${HEAD}vni 1 remote 198.51.100.2 mac 02:00:00:00:00:03\nvni 2 remote 198.51.100.3 mac 02:00:00:00:00:03\n" ":4: MAC already on line 3"
bad_config "${HEAD}tunnel 1\n" ":3: unknown keyword 'tunnel'"
bad_config "local 198.51.100.1\n" ": no 'nexthop-mac'"

# --- crafted frames at the underlay ---
tun_bed_up
write_config "$WORK/tun.conf"
app_start --config "$WORK/tun.conf"
cap "$NS_H" h0 "$WORK/h0.pcap" 'udp port 7'
ip netns exec "$NS_V" $PY "$HELPER" malformed v0 $MAC_TU $MAC_V0 || fail "scapy"
# the 8 good frames decapsulated and captured, the 27 bad ones counted
wait_pcap "$WORK/h0.pcap" 8
decap_seen() {
	LAST=$(app_live "$APP_PID" "sum(v for k, v in j['plugins'][0]['counters'].items() if k.startswith('decap_drop_') and k != 'decap_drop_not_local')") || return 1
	[[ $LAST -ge 25 ]]
}
wait_for "25 malformed frames counted" decap_seen
ip netns pids "$NS_H" | xargs -r kill -INT
wait_for "capture stopped" sh -c "! ip netns pids $NS_H | grep -q ."
app_stop

expect_stat decap_drop_short 3
expect_stat decap_drop_bad_flags 4
expect_stat decap_drop_wrong_port 5
expect_stat decap_drop_unknown_vni 8
expect_stat decap_drop_not_udp 2
expect_stat decap_drop_not_ip 3
# the vtep's own IPv6 stack also sends MLD reports and router solicitations to multicast
# addresses on v0 (not ours either), so this count is a lower bound
nl=$(stat decap_drop_not_local)
[[ $nl -ge 2 ]] || fail "decap_drop_not_local = $nl, expected at least 2"
ok "decap_drop_not_local = $nl (>= 2)"
expect_stat decap 8
got=$($PY -c 'import sys; from scapy.all import rdpcap; print(len(rdpcap(sys.argv[1])))' "$WORK/h0.pcap")
[[ $got -eq 8 ]] || fail "host received $got decapsulated frames, expected 8"
ok "host received the 8 good inner frames"
echo "PASS"

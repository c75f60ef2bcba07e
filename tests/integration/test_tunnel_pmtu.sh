#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Path MTU discovery through xsk-tunnel (docs/tunnel.md, "Path MTU"): frames too large for the
# tunnel get ICMP "fragmentation needed" / ICMPv6 "packet too big" back, with the MTU the
# kernel would announce (underlay 1500 less 50 over IPv4, less 70 over IPv6), good checksums
# (tshark), counted; none where the rules forbid one; at most what the token bucket allows.
#  1. curl: a 4 MiB download over TCP from a server on the access side (MTU 1500) to a client
#     behind the kernel's VXLAN device that announces MSS 1460, so that both ends think
#     1500-byte packets fit: the server's first full-size segments are too large for the tunnel, TCP must
#     learn 1450 from our ICMP, and the file arrives whole (sha256). The server is on the access
#     side because only that direction goes through our encapsulation: a download from the far
#     side would pass the kernel's VXLAN, which handles its own path MTU.
#  2. ping -M do from the access host, IPv4 over both underlays and IPv6: "mtu = N" printed.
#  3. (a second run, --icmp-rate 1 --icmp-burst 20) one frame of each kind that must not be
#     answered: pmtu_no_icmp counts them, no ICMP leaves; then 200 answerable frames in chunks:
#     at least the 20 of the bucket are answered, at most 20 + 1 per second the run took, the
#     rest counted as rate limited, and the access host receives exactly as many as were sent.
TAG=p
source "$(dirname "$0")/tunnel_lib.sh"
SEND=$SRC/tests/integration/pmtu_send.py
command -v tshark >/dev/null || fail "tshark missing: scripts/deps.sh"
command -v curl >/dev/null || fail "curl missing: scripts/deps.sh"

tun_bed_up
# IPv6 inside the tunnel (VNI 100): h0 2001:db8:100::1 <-> vx0 2001:db8:100::2, static neighbours
ip netns exec "$NS_H" sysctl -qw net.ipv6.conf.h0.disable_ipv6=0
ip -n "$NS_H" addr add 2001:db8:100::1/64 dev h0 nodad
ip -n "$NS_H" neigh add 2001:db8:100::2 lladdr $MAC_VX0 dev h0 nud permanent
ip netns exec "$NS_V" sysctl -qw net.ipv6.conf.vx0.disable_ipv6=0
ip -n "$NS_V" addr add 2001:db8:100::2/64 dev vx0 nodad
ip -n "$NS_V" neigh add 2001:db8:100::1 lladdr $MAC_H dev vx0 nud permanent
# The HTTP client's own address (a destination nothing else in this test has sent to, so that
# no path MTU is known for it before the download), and its route to the server announcing MSS
# 1460, as a host on a 1500-byte link behind the kernel's VTEP would (the VXLAN device itself
# cannot be raised above 1450 over its 1500-byte underlay): the server then sends 1500-byte
# packets. tun_bed_up turned TX checksum offload off on the senders (h0, v0, vx0): with veth's
# default offload their TCP checksums would be left unfinished and the frames dropped after
# the tunnel (a separate issue; not this test's subject).
ip -n "$NS_V" addr add 192.0.2.3/24 dev vx0
ip -n "$NS_V" route add 192.0.2.1/32 dev vx0 src 192.0.2.3 advmss 1460
ip -n "$NS_H" neigh add 192.0.2.3 lladdr $MAC_VX0 dev h0 nud permanent
write_config "$WORK/tun.conf"
app_start --config "$WORK/tun.conf"
# what comes back to the access host as if from the kernel's VTEP: destination unreachable and
# packet too big are only ours here (the pings are too large to be answered)
ICMP_IN="(ether src $MAC_VX0 or ether src $MAC_VX6) and ((icmp and icmp[0] == 3) or (icmp6 and ip6[40] == 2))"
cap "$NS_H" h0 "$WORK/icmp.pcap" "$ICMP_IN"

# 1. curl
mkdir "$WORK/www"
head -c 4194304 /dev/urandom >"$WORK/www/file"
ip netns exec "$NS_H" $PY -m http.server --bind 192.0.2.1 --directory "$WORK/www" 8000 \
	>"$WORK/http.log" 2>&1 &
HTTP_PID=$!
wait_for "HTTP server listening" sh -c "ip netns exec $NS_H ss -ltn | grep -q '192.0.2.1:8000'"
ip netns exec "$NS_V" curl -sS --max-time 60 --interface 192.0.2.3 -o "$WORK/got" \
	http://192.0.2.1:8000/file || fail "curl: the download did not complete"
[[ $(sha256sum <"$WORK/got") == $(sha256sum <"$WORK/www/file") ]] || fail "curl: sha256 differs"
learnt=$(ip -n "$NS_H" route get 192.0.2.3 | grep -o 'mtu [0-9]*' || true)
[[ $learnt == "mtu 1450" ]] || fail "server's path MTU to 192.0.2.3: '$learnt', expected mtu 1450"
sent4=$(live pmtu_icmp4_sent)
[[ $sent4 -ge 1 ]] || fail "pmtu_icmp4_sent $sent4 after the download"
kill "$HTTP_PID"
wait "$HTTP_PID" || true
ok "curl 4 MiB through the tunnel, sha256 matches; server learnt mtu 1450 from $sent4 ICMP"

# 2. ping -M do: each gets its ICMP, with the MTU of its tunnel
# ping_mtu EXPECT DST ARGS...: one probe; ping must print the ICMP it got from DST with the MTU
# (not a "local error ... mtu=": that would be a path MTU its host knew already)
ping_mtu() {
	local want=$1 dst=$2 out
	shift 2
	out=$(ip netns exec "$NS_H" ping -n -c 1 -W 5 -M do "$@" "$dst" 2>&1 || true)
	grep -Eq "^From $dst .*(Frag needed and DF set \(mtu = $want\)|Packet too big: mtu=$want)" \
		<<<"$out" || fail "ping -M do $* $dst: no ICMP with mtu $want from $dst in: $out"
	ok "ping -M do $* $dst: $(grep -Eo '(Frag needed|Packet too big)[^)]*\)?' <<<"$out" | head -1)"
}
ping_mtu 1450 192.0.2.2 -s 1472          # IPv4 underlay: 1500 - 50
ping_mtu 1430 203.0.113.2 -s 1472        # IPv6 underlay: 1500 - 70
ping_mtu 1450 2001:db8:100::2 -6 -s 1452 # IPv6 inside, IPv4 underlay
# the IPv4 messages are the download's and two pings', the ICMPv6 one the last ping's
wait_for "the ICMPv6 message counted" ge live pmtu_icmp6_sent 1
sent4=$(live pmtu_icmp4_sent)
wait_pcap "$WORK/icmp.pcap" $((sent4 + 1))
ip netns pids "$NS_H" | xargs -r kill -INT
wait_for "capture stopped" sh -c "! ip netns pids $NS_H | grep -q ."
app_stop
expect_stat pmtu_icmp6_sent 1
expect_stat pmtu_icmp4_sent "$sent4"
expect_stat pmtu_icmp_ratelimited 0

# Every ICMP that reached the access host: tshark finds the IP header and ICMP checksums good.
tsh() { tshark -r "$WORK/icmp.pcap" -o ip.check_checksum:TRUE "$@" 2>/dev/null; }
n4=$(tsh -Y 'icmp.type == 3 && icmp.code == 4 && icmp.mtu in {1450, 1430}' | wc -l)
n6=$(tsh -Y 'icmpv6.type == 2 && icmpv6.mtu == 1450' | wc -l)
[[ $n4 -eq $sent4 && $n6 -eq 1 ]] || fail "captured $n4 ICMP / $n6 ICMPv6 too big, sent $sent4 / 1"
# the first (outer) IP header and ICMP checksum of each: field occurrence 1 is the outer one
bad=$(tsh -T fields -E occurrence=f -e ip.checksum.status -e icmp.checksum.status \
	-e icmpv6.checksum.status | grep -vcE '^(1\s+1\s*|\s*1)$' || true)
[[ $bad -eq 0 ]] || fail "$bad ICMP messages with a checksum tshark does not find good: $(tsh -T fields -E occurrence=f -e ip.checksum.status -e icmp.checksum.status -e icmpv6.checksum.status | sort | uniq -c)"
ok "$n4 ICMP fragmentation needed and $n6 ICMPv6 packet too big captured, checksums good"

# 3. the rules and the rate limit, with a bucket of 20 refilled at 1 per second
cap "$NS_H" h0 "$WORK/icmp2.pcap" "$ICMP_IN"
app_start --config "$WORK/tun.conf" --icmp-rate 1 --icmp-burst 20
nr=$(ip netns exec "$NS_H" $PY "$SEND" rules h0 $MAC_VX0 $MAC_H)
wait_for "$nr frames refused for their size" ge live encap_drop_mtu "$nr"
[[ $(live pmtu_no_icmp) -eq $nr ]] || fail "pmtu_no_icmp $(live pmtu_no_icmp), expected $nr"
ok "$nr frames that must not be answered: none answered"
N=200
t0=$SECONDS
for i in 1 2 3 4; do # chunks smaller than any ring on the way, each after the last arrived
	ip netns exec "$NS_H" $PY "$SEND" df h0 $MAC_VX0 $MAC_H 50
	wait_for "$((nr + 50 * i)) frames refused" ge live encap_drop_mtu $((nr + 50 * i))
done
took=$((SECONDS - t0 + 1))
sent=$(live pmtu_icmp4_sent)
limited=$(live pmtu_icmp_ratelimited)
[[ $((sent + limited)) -eq $N ]] || fail "sent $sent + rate limited $limited != $N"
[[ $sent -ge 20 && $sent -le $((20 + took)) ]] || fail "sent $sent ICMP in ${took}s: not 20..$((20 + took))"
wait_pcap "$WORK/icmp2.pcap" "$sent"
ip netns pids "$NS_H" | xargs -r kill -INT
wait_for "capture stopped" sh -c "! ip netns pids $NS_H | grep -q ."
app_stop
expect_stat pmtu_no_icmp "$nr"
expect_stat pmtu_icmp4_sent "$sent"
expect_stat pmtu_icmp_ratelimited "$limited"
expect_stat encap_drop_mtu $((nr + N))
got=$($PY -c 'import sys; from scapy.all import rdpcap; print(len(rdpcap(sys.argv[1])))' "$WORK/icmp2.pcap")
[[ $got -eq $sent ]] || fail "the access host received $got ICMP, the tunnel counted $sent"
ok "$N answerable frames: $sent answered (bucket 20, 1/s, ${took}s), $limited rate limited"
echo "PASS"

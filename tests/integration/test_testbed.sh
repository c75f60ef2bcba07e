#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# tools/testbed.sh: up gives two namespaces, a veth pair with the asked queues, fixed MACs,
# static neighbours and working IPv4/IPv6 both ways; a second prefix coexists with its own MACs;
# up twice fails; down removes everything and is idempotent. Root; exit 77 to skip.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
require_root
SRC=$S
TB="$SRC/tools/testbed.sh"
P=tbt$$
P2=tbu$$

cleanup() {
	XSKF_TB=$P "$TB" down || true
	XSKF_TB=$P2 "$TB" down || true
}
at_exit cleanup

# One echo request/reply from namespace $1 to address $2. ping when installed, else a raw ICMP
# socket in python (ping is not part of every minimal install).
ping_ns() {
	local ns=$1 dst=$2
	if command -v ping >/dev/null; then
		ip netns exec "$ns" ping -q -c 1 -W 2 "$dst" >/dev/null
		return
	fi
	ip netns exec "$ns" /usr/bin/python3 - "$dst" <<'EOPY'
import os, socket, struct, sys, time
dst = sys.argv[1]
v6 = ':' in dst
fam, proto, typ, rtyp = ((socket.AF_INET6, socket.IPPROTO_ICMPV6, 128, 129) if v6 else
                         (socket.AF_INET, socket.IPPROTO_ICMP, 8, 0))
s = socket.socket(fam, socket.SOCK_RAW, proto)
ident, payload = os.getpid() & 0xffff, b'xskf-testbed'
def csum(b):
    if len(b) % 2:
        b += b'\0'
    t = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while t >> 16:
        t = (t & 0xffff) + (t >> 16)
    return ~t & 0xffff
msg = struct.pack('!BBHHH', typ, 0, 0, ident, 1) + payload
if not v6:  # the kernel fills in the ICMPv6 checksum, not the ICMPv4 one
    msg = msg[:2] + struct.pack('!H', csum(msg)) + msg[4:]
s.sendto(msg, (dst, 0))
deadline = time.time() + 2
while time.time() < deadline:
    s.settimeout(deadline - time.time())
    try:
        data, addr = s.recvfrom(2048)
    except socket.timeout:
        break
    if not v6:
        data = data[(data[0] & 15) * 4:]
    t, _, _, i, q = struct.unpack('!BBHHH', data[:8])
    if t == rtyp and i == ident and q == 1 and addr[0] == dst:
        sys.exit(0)
sys.exit(1)
EOPY
}

# --- up, and what it printed
out=$(XSKF_TB=$P "$TB" up) || fail "testbed up failed"
eval "$out"
[[ $TB_NS_GEN == "$P-gen" && $TB_NS_DUT == "$P-dut" ]] || fail "namespace names: $out"
[[ $TB_IF_GEN == "${P}g" && $TB_IF_DUT == "${P}d" ]] || fail "interface names: $out"
ip netns list | grep -qw -- "$TB_NS_GEN" || fail "no namespace $TB_NS_GEN"
ip netns list | grep -qw -- "$TB_NS_DUT" || fail "no namespace $TB_NS_DUT"

mac_of() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }
[[ $(mac_of "$TB_NS_GEN" "$TB_IF_GEN") == "$TB_MAC_GEN" ]] || fail "gen MAC is not $TB_MAC_GEN"
[[ $(mac_of "$TB_NS_DUT" "$TB_IF_DUT") == "$TB_MAC_DUT" ]] || fail "dut MAC is not $TB_MAC_DUT"
[[ $TB_MAC_GEN != "$TB_MAC_DUT" ]] || fail "both ends have MAC $TB_MAC_GEN"

for end in "$TB_NS_GEN:$TB_IF_GEN" "$TB_NS_DUT:$TB_IF_DUT"; do
	ns=${end%%:*} ifc=${end#*:}
	for dir in rx tx; do
		n=$(ip netns exec "$ns" sh -c "ls -d /sys/class/net/$ifc/queues/$dir-* | wc -l")
		[[ $n -eq 2 ]] || fail "$ifc has $n $dir queues, expected 2"
	done
	ip -n "$ns" -br link show "$ifc" | grep -q ' UP ' || fail "$ifc is not up"
	ip -n "$ns" -br link show lo | grep -q 'UP' || fail "lo in $ns is not up"
done

# static neighbours, so that no ARP/ND is needed
ip -n "$TB_NS_GEN" neigh show "$TB_IP4_DUT" | grep -q "lladdr $TB_MAC_DUT PERMANENT" ||
	fail "no permanent IPv4 neighbour for the dut"
ip -n "$TB_NS_GEN" -6 neigh show "$TB_IP6_DUT" | grep -q "lladdr $TB_MAC_DUT PERMANENT" ||
	fail "no permanent IPv6 neighbour for the dut"
ip -n "$TB_NS_DUT" neigh show "$TB_IP4_GEN" | grep -q "lladdr $TB_MAC_GEN PERMANENT" ||
	fail "no permanent IPv4 neighbour for gen"

# --- traffic both ways
ping_ns "$TB_NS_GEN" "$TB_IP4_DUT" || fail "gen -> dut IPv4"
ping_ns "$TB_NS_DUT" "$TB_IP4_GEN" || fail "dut -> gen IPv4"
ping_ns "$TB_NS_GEN" "$TB_IP6_DUT" || fail "gen -> dut IPv6"
ping_ns "$TB_NS_DUT" "$TB_IP6_GEN" || fail "dut -> gen IPv6"
# and a negative control, so that a ping helper that always succeeds cannot pass this test
! ping_ns "$TB_NS_GEN" 192.0.2.99 2>/dev/null || fail "ping of an absent address succeeded"

# --- a second test bed beside the first, with another queue count
out2=$(XSKF_TB=$P2 XSKF_TB_QUEUES=4 "$TB" up) || fail "second testbed up failed"
mac2=$(sed -n 's/^TB_MAC_DUT=//p' <<<"$out2")
[[ $mac2 != "$TB_MAC_DUT" ]] || fail "two prefixes got the same MAC $mac2"
n=$(ip netns exec "$P2-dut" sh -c "ls -d /sys/class/net/${P2}d/queues/rx-* | wc -l")
[[ $n -eq 4 ]] || fail "XSKF_TB_QUEUES=4 gave $n rx queues"
ping_ns "$P2-gen" 192.0.2.2 || fail "second testbed: gen -> dut IPv4"

# --- up on an existing test bed must refuse, and leave it working
if XSKF_TB=$P "$TB" up >/dev/null 2>&1; then
	fail "up twice succeeded"
fi
ping_ns "$TB_NS_GEN" "$TB_IP4_DUT" || fail "a refused up broke the test bed"
XSKF_TB=$P "$TB" status | grep -q "TB_IF_DUT=${P}d" || fail "status does not show the test bed"

# --- down, twice, and nothing left
XSKF_TB=$P "$TB" down || fail "down failed"
XSKF_TB=$P "$TB" down || fail "second down failed"
XSKF_TB=$P2 "$TB" down || fail "down of the second test bed failed"
if ip netns list | grep -E -- "^($P|$P2)-"; then
	fail "namespaces left after down"
fi
if ip -br link | grep -E -- "^($P|$P2)[gd]"; then
	fail "interfaces left after down"
fi
echo "PASS"

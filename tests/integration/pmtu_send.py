#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Frames too large for xsk-tunnel's tunnel, sent raw (AF_PACKET) from the access host, for
test_tunnel_pmtu.sh (run with /usr/bin/python3, which has scapy). Raw, because a socket of the
host's stack would stop sending them itself once it learnt the path MTU from the first ICMP.

  df IFACE DSTMAC SRCMAC COUNT   COUNT IPv4/UDP datagrams of 1500 bytes with DF: each is due
                                 an ICMP "fragmentation needed"
  rules IFACE DSTMAC SRCMAC      one frame of each kind that must get no ICMP at all (prints
                                 how many it sent)
"""
import socket
import struct
import sys

SRC4, DST4 = "192.0.2.1", "192.0.2.2"
SRC6, DST6 = "2001:db8:100::1", "2001:db8:100::2"


def pad(pkt, size=1500):
    """@pkt grown with payload bytes to an IP packet of @size bytes."""
    from scapy.all import IP, IPv6, Raw

    have = len(pkt[IP] if IP in pkt else pkt[IPv6])
    return pkt / Raw(b"x" * (size - have))


def send(iface, frames):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    for f in frames:
        s.send(bytes(f))


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def df(iface, dmac, smac, count):
    # by hand, not with scapy: its import alone takes seconds on a loaded machine, and the
    # rate-limit test measures how long the sending took
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 1500, 1, 0x4000, 64, 17, 0,
                               socket.inet_aton(SRC4), socket.inet_aton(DST4)))
    ip[10:12] = struct.pack("!H", csum(bytes(ip)))
    udp = struct.pack("!HHHH", 40000, 9, 1480, 0)  # checksum 0: none (RFC 768)
    eth = bytes.fromhex(dmac.replace(":", "") + smac.replace(":", "")) + b"\x08\x00"
    send(iface, [eth + bytes(ip) + udp + b"x" * 1472] * count)


def rules(iface, dmac, smac):
    from scapy.all import (ICMP, IP, UDP, Dot1Q, Ether, ICMPv6DestUnreach, ICMPv6EchoRequest,
                           IPv6, IPv6ExtHdrFragment)

    eth = Ether(dst=dmac, src=smac)
    quoted = IP(src=DST4, dst=SRC4) / UDP(sport=9, dport=40000)
    frames = [
        # IPv4 without DF: a router would fragment it (we drop it)
        pad(eth / IP(src=SRC4, dst=DST4) / UDP(dport=9)),
        # an ICMP error (destination unreachable) with DF: no error about an error
        pad(eth / IP(src=SRC4, dst=DST4, flags="DF") / ICMP(type=3, code=3) / quoted),
        # a non-first fragment (offset 185 x 8) with DF
        pad(eth / IP(src=SRC4, dst=DST4, flags="DF", frag=185, proto=17)),
        # a first fragment (MF) with DF: frag_off is not DF alone
        pad(eth / IP(src=SRC4, dst=DST4, flags="DF+MF", proto=17)),
        # from a source that is not one host: 0.0.0.0, 127.0.0.1, multicast
        pad(eth / IP(src="0.0.0.0", dst=DST4, flags="DF") / UDP(dport=9)),
        pad(eth / IP(src="127.0.0.1", dst=DST4, flags="DF") / UDP(dport=9)),
        pad(eth / IP(src="224.0.0.9", dst=DST4, flags="DF") / UDP(dport=9)),
        # to a broadcast MAC (link-layer broadcast) and to a multicast address
        pad(Ether(dst="ff:ff:ff:ff:ff:ff", src=smac) / IP(src=SRC4, dst=DST4, flags="DF") /
            UDP(dport=9)),
        pad(eth / IP(src=SRC4, dst="239.1.1.1", flags="DF") / UDP(dport=9)),
        # IPv6: an ICMPv6 error, a non-first fragment, a multicast source, the unspecified one
        pad(eth / IPv6(src=SRC6, dst=DST6) / ICMPv6DestUnreach() / IPv6(src=DST6, dst=SRC6)),
        pad(eth / IPv6(src=SRC6, dst=DST6) / IPv6ExtHdrFragment(offset=100, nh=17)),
        pad(eth / IPv6(src="ff02::1", dst=DST6) / ICMPv6EchoRequest()),
        pad(eth / IPv6(src="::", dst=DST6) / ICMPv6EchoRequest()),
        # neither IPv4 nor IPv6: a VLAN-tagged IPv4 packet
        pad(eth / Dot1Q(vlan=5) / IP(src=SRC4, dst=DST4, flags="DF") / UDP(dport=9), 1496),
    ]
    for f in frames:
        assert len(f) > 14 + 1450, "frame %r is not too large" % f.summary()
    send(iface, frames)
    print(len(frames))


def main(argv):
    if len(argv) == 6 and argv[1] == "df":
        df(argv[2], argv[3], argv[4], int(argv[5]))
    elif len(argv) == 5 and argv[1] == "rules":
        rules(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

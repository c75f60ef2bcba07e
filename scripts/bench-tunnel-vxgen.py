#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench-tunnel-vxgen.py IFACE DSTMAC SRCMAC SECONDS [6]

VXLAN frames (VNI 100, 64 inner flows, 60-byte inner frames) sent as fast as one AF_PACKET
socket with PACKET_QDISC_BYPASS allows: the decap generator of scripts/bench-tunnel.sh, which
xskf-trafficgen cannot be (its payload is not a VXLAN header). Prints the frames sent.
"""
import socket
import sys
import time

from scapy.all import IP, UDP, VXLAN, Ether, IPv6, Raw

SOL_PACKET = 263  # not exported by the socket module
PACKET_QDISC_BYPASS = 20


def frames(dst, src, v6):
    out = []
    for flow in range(64):
        inner = (Ether(dst="02:54:00:00:00:01", src="02:54:00:00:00:30") /
                 IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=1024 + flow, dport=9) /
                 Raw(b"\0" * 18))
        ip = (IPv6(src="2001:db8::2", dst="2001:db8::1") if v6 else
              IP(src="198.51.100.2", dst="198.51.100.1"))
        out.append(bytes(Ether(dst=dst, src=src) / ip /
                         UDP(sport=49152 + flow, dport=4789) / VXLAN(vni=100) / inner))
    return out


def main():
    iface, dst, src, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    fs = frames(dst, src, len(sys.argv) > 5 and sys.argv[5] == "6")
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
    s.bind((iface, 0))
    send = s.send
    n, end = 0, time.time() + seconds
    while time.time() < end:
        for f in fs:
            try:
                send(f)
            except OSError:  # ENOBUFS: the peer is behind; try the next one
                continue
            n += 1
    print(n)


if __name__ == "__main__":
    main()

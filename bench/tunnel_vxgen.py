#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench/tunnel_vxgen.py IFACE DSTMAC SRCMAC SECONDS [6]

VXLAN frames (VNI 100, 64 inner flows, 60-byte inner frames) for the decap half of
bench/tunnel.sh, which xskf-trafficgen cannot make (its payload is not a VXLAN header).
One AF_PACKET socket with a TPACKET_V2 TX ring and PACKET_QDISC_BYPASS: the frames are written
into the ring once; each round only marks slots "send" and one send() hands them all to the
kernel, so Python is out of the per-frame path. Prints the frames handed over.
"""
import mmap
import socket
import struct
import sys
import time

from scapy.all import IP, UDP, VXLAN, Ether, IPv6, Raw

SOL_PACKET = 263  # not exported by the socket module
PACKET_VERSION = 10
PACKET_TX_RING = 13
PACKET_QDISC_BYPASS = 20
TPACKET_V2 = 1
TP_STATUS_SEND_REQUEST = 1
FRAME = 2048
BLOCK = 1 << 16
NR_FRAMES = 4096
DATA_OFF = 32  # TPACKET_ALIGN(sizeof(struct tpacket2_hdr)): where TX data starts in a slot


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
    s.setsockopt(SOL_PACKET, PACKET_VERSION, TPACKET_V2)
    s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
    s.setsockopt(SOL_PACKET, PACKET_TX_RING,
                 struct.pack("IIII", BLOCK, NR_FRAMES * FRAME // BLOCK, FRAME, NR_FRAMES))
    s.bind((iface, 0))
    ring = mmap.mmap(s.fileno(), NR_FRAMES * FRAME)
    lens = []
    for i in range(NR_FRAMES):
        f = fs[i % len(fs)]
        ring[i * FRAME + DATA_OFF:i * FRAME + DATA_OFF + len(f)] = f
        lens.append(len(f))
    n, i, end = 0, 0, time.time() + seconds
    pack, unpack = struct.pack_into, struct.unpack_from
    while time.time() < end:
        queued = 0
        # mark up to 256 free slots, then one send() for all of them
        while queued < 256:
            off = i * FRAME
            if unpack("I", ring, off)[0] != 0:  # not yet sent back to us: ring full
                break
            pack("II", ring, off, TP_STATUS_SEND_REQUEST, lens[i])
            i = (i + 1) % NR_FRAMES
            queued += 1
        try:
            s.send(b"")
        except OSError:
            pass
        n += queued
    print(n)


if __name__ == "__main__":
    main()

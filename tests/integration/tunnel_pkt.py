#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Traffic and checks for the xsk-tunnel tests (run with /usr/bin/python3, which has scapy).

  udp-send DST PORT COUNT [PROG] COUNT datagrams of 18..1018 bytes, each with its sequence number
                                 ($TUN_PAYLOAD_BASE..+1000 bytes: 7000 for jumbo frames); with
                                 PROG, 32 at a time, each window once the receiver wrote there
                                 that it arrived
  udp-recv PORT SECONDS EXPECT [PROG]  print how many arrive (stops early once EXPECT did);
                                 with PROG, the count so far written there as it grows
  compare A.pcap B.pcap          the UDP frames of both captures must be the same bytes, in order
  malformed IFACE DSTMAC SRCMAC  send the crafted underlay frames the malformed test counts
  outer PCAP SRCMAC DSTMAC       check the outer headers xsk-tunnel wrote (captured underlay)
"""
import os
import socket
import sys
import time

BASE = int(os.environ.get("TUN_PAYLOAD_BASE", "18"))


def payload(seq):
    # sizes vary so that odd lengths and frames near 1 KB go through the checksum code
    n = BASE + (seq * 37) % 1001
    head = seq.to_bytes(4, "big")
    return head + bytes((seq + i) & 0xFF for i in range(n - 4))


WINDOW = 32  # datagrams in flight at most when the receiver tells its progress


def arrived(progress):
    try:
        with open(progress, "rb") as f:
            return int(f.read(10) or b"0")
    except (OSError, ValueError):
        return 0


def udp_send(dst, port, count, progress=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for seq in range(count):
        s.sendto(payload(seq), (dst, port))
        if progress and (seq % WINDOW == WINDOW - 1 or seq == count - 1):
            # the next window once this one arrived (or 5 s passed: a lost datagram shows
            # in the receiver's count): no ring or socket buffer on the path can overflow,
            # however slow the machine
            end = time.time() + 5
            while arrived(progress) < seq + 1 and time.time() < end:
                time.sleep(0.001)
        elif not progress and seq % 50 == 49:
            time.sleep(0.002)  # no burst larger than a socket buffer anywhere on the path


def udp_recv(port, seconds, expect, progress=None):
    pfd = os.open(progress, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if progress else -1
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("0.0.0.0", port))
    print("ready", file=sys.stderr, flush=True)  # the test waits for this, not for a time
    s.settimeout(0.2)
    got, bad, end = 0, 0, time.time() + seconds
    while time.time() < end and got < expect:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        seq = int.from_bytes(data[:4], "big")
        if data == payload(seq):
            got += 1
        else:
            bad += 1
        if pfd >= 0:
            os.pwrite(pfd, b"%010d" % (got + bad), 0)
    print(got if not bad else -bad)


def compare(a, b):
    from scapy.all import UDP, rdpcap

    fa = [bytes(p) for p in rdpcap(a) if UDP in p]
    fb = [bytes(p) for p in rdpcap(b) if UDP in p]
    if not fa:
        sys.exit("compare: no UDP frames in %s" % a)
    if fa != fb:
        for i, (x, y) in enumerate(zip(fa, fb)):
            if x != y:
                sys.exit("compare: frame %d differs:\n %s\n %s" % (i, x.hex(), y.hex()))
        sys.exit("compare: %d frames in %s, %d in %s" % (len(fa), a, len(fb), b))
    print("%d frames, %d bytes identical" % (len(fa), sum(map(len, fa))))


def malformed(iface, dst_mac, src_mac):
    from scapy.all import ICMP, IP, UDP, VXLAN, Ether, IPv6, Raw, sendp

    outer4 = Ether(dst=dst_mac, src=src_mac) / IP(src="198.51.100.2", dst="198.51.100.1")
    outer6 = Ether(dst=dst_mac, src=src_mac) / IPv6(src="2001:db8::2", dst="2001:db8::1")
    inner = Ether(dst="02:54:00:00:00:01", src="02:54:00:00:00:30") / IP(
        src="192.0.2.2", dst="192.0.2.1") / UDP(sport=7, dport=7) / Raw(b"x" * 20)
    frames = []
    # The counts here are what test_tunnel_malformed.sh expects, reason by reason.
    frames += [outer4 / UDP(sport=50000, dport=4789) / Raw(b"\x08\x00\x00")] * 3  # short
    frames += [outer4 / UDP(sport=50000, dport=4789) / VXLAN(flags=0, vni=100) / inner] * 4
    frames += [outer4 / UDP(sport=50000, dport=4790) / VXLAN(vni=100) / inner] * 5  # port
    frames += [outer4 / UDP(sport=50000, dport=4789) / VXLAN(vni=999) / inner] * 6  # VNI
    frames += [outer6 / UDP(sport=50000, dport=4789) / VXLAN(vni=999) / inner] * 2  # VNI
    frames += [outer4 / ICMP()] * 2  # not UDP
    frames += [Ether(dst=dst_mac, src=src_mac, type=0x88B5) / Raw(b"y" * 50)] * 3  # not IP
    frames += [Ether(dst=dst_mac, src=src_mac) / IP(src="198.51.100.2", dst="198.51.100.9") /
               UDP(dport=4789) / VXLAN(vni=100) / inner] * 2  # not our address
    frames += [outer4 / UDP(sport=50000, dport=4789) / VXLAN(vni=100) / inner] * 7  # good
    frames += [outer6 / UDP(sport=50001, dport=4789) / VXLAN(vni=200) / inner] * 1  # good
    sendp(frames, iface=iface, verbose=False)


def outer(pcap, src_mac, dst_mac):
    from scapy.all import IP, UDP, Ether, IPv6, rdpcap

    n4 = n6 = 0
    flows = {}
    for p in rdpcap(pcap):
        if UDP not in p or p[UDP].dport != 4789 or p[Ether].src != src_mac:
            continue
        if p[Ether].dst != dst_mac:
            sys.exit("outer: destination MAC %s" % p[Ether].dst)
        u = p[UDP]
        if not 49152 <= u.sport <= 65535:
            sys.exit("outer: source port %d out of range" % u.sport)
        if IP in p and p[IP].dst == "198.51.100.2":
            ip = p[IP]
            want = IP(bytes(ip))
            del want.chksum
            if IP(bytes(want)).chksum != ip.chksum:
                sys.exit("outer: bad IPv4 header checksum")
            if u.chksum != 0:
                sys.exit("outer: UDP checksum over IPv4 is %#x, expected 0" % u.chksum)
            n4 += 1
        elif IPv6 in p:
            want = p[IPv6].copy()
            want[UDP].chksum = None
            if IPv6(bytes(want))[UDP].chksum != u.chksum or u.chksum == 0:
                sys.exit("outer: bad UDP checksum over IPv6")
            n6 += 1
        else:
            continue
        inner = bytes(u.payload)[8:]
        key = inner[:12] + inner[26:38]  # inner MACs, IPv4 addresses and ports
        if flows.setdefault(key, u.sport) != u.sport:
            sys.exit("outer: one inner flow with two source ports")
    if not n4 or not n6:
        sys.exit("outer: %d IPv4 and %d IPv6 frames" % (n4, n6))
    print("%d IPv4 and %d IPv6 outer headers correct, %d flows" % (n4, n6, len(flows)))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "udp-send":
        udp_send(args[0], int(args[1]), int(args[2]), args[3] if len(args) > 3 else None)
    elif cmd == "udp-recv":
        udp_recv(int(args[0]), float(args[1]), int(args[2]), args[3] if len(args) > 3 else None)
    elif cmd == "compare":
        compare(args[0], args[1])
    elif cmd == "outer":
        outer(args[0], args[1], args[2])
    elif cmd == "malformed":
        malformed(args[0], args[1], args[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: BSD-2-Clause
"""What xsk-txgen sent, checked from a capture at the receiving end (run by test_txgen_flows.sh
with /usr/bin/python3, the one that has scapy).

  txgen_check.py mixed OUT.pcap MAC_SRC
      write the test's mixed capture: UDP, TCP, ICMP over IPv4 and IPv6, IPv4 fragments, ND,
      ARP, 802.1Q and QinQ frames and an unknown EtherType, in many flows, interleaved
  txgen_check.py replay IN.pcap CAPTURED.pcap COUNT
      the capture holds exactly the first COUNT frames of IN repeated end to end, as a
      multiset, and the frames of every flow in IN's order
  txgen_check.py imix CAPTURED.pcap FLOWS COUNT
      COUNT frames; every flow (UDP source port) got COUNT/FLOWS frames in the 7:4:1 IMIX
      mix of 60, 590 and 1514 bytes, and its IPv4 IDs count 0, 1, 2... in capture order
"""
import collections
import random
import struct
import sys


def frames(path):
    from scapy.all import rdpcap
    return [bytes(p) for p in rdpcap(path)]


def flow(f):
    """The flow of a frame as docs/forwarding.md defines it (apps/txgen_flow.h)."""
    off, typ, tags = 12, struct.unpack("!H", f[12:14])[0], 0
    while tags < 2 and typ in (0x8100, 0x88A8) and off + 6 <= len(f):
        off += 4
        typ = struct.unpack("!H", f[off:off + 2])[0]
        tags += 1
    off += 2
    ports = (6, 17, 132, 136)
    if typ == 0x0800 and off + 20 <= len(f) and f[off] >> 4 == 4 and f[off] & 15 >= 5:
        proto, l4 = f[off + 9], off + (f[off] & 15) * 4
        frag = struct.unpack("!H", f[off + 6:off + 8])[0] & 0x3FFF
        key = ("v4", f[off + 12:off + 20], proto)
        if proto in ports and not frag and l4 + 4 <= len(f):
            key += (f[l4:l4 + 4],)
        return key
    if typ == 0x86DD and off + 40 <= len(f) and f[off] >> 4 == 6:
        proto = f[off + 6]
        key = ("v6", f[off + 8:off + 40], proto)
        if proto in ports and off + 44 <= len(f):
            key += (f[off + 40:off + 44],)
        return key
    return ("l2", f[0:12], f[off - 2:off])


def mixed(out, src):
    from scapy.all import (ARP, ICMP, IP, TCP, UDP, Dot1AD, Dot1Q, Ether, ICMPv6ND_NS, IPv6,
                           Raw, fragment, wrpcap)
    a4, b4 = "198.51.100.1", "203.0.113.9"
    a6, b6 = "2001:db8::1", "2001:db8::9"
    dst = "02:00:00:00:0d:02"
    kinds = []
    for i in range(8):
        kinds.append(lambda n, i=i: Ether(src=src, dst=dst) / IP(src=a4, dst=b4) /
                     UDP(sport=2000 + i, dport=53) / Raw(b"u%d-%d" % (i, n) * (1 + i * 9)))
    for i in range(3):
        kinds.append(lambda n, i=i: Ether(src=src, dst=dst) / IP(src=a4, dst=b4) /
                     TCP(sport=40000 + i, dport=80, seq=n) / Raw(b"t" * (100 * i + 1)))
    kinds.append(lambda n: Ether(src=src, dst=dst) / IP(src=a4, dst=b4) / ICMP(seq=n))
    for i in range(3):
        kinds.append(lambda n, i=i: Ether(src=src, dst=dst) / IPv6(src=a6, dst=b6) /
                     UDP(sport=3000 + i, dport=4789) / Raw(b"6" * (40 + 300 * i) + bytes([n & 255])))
    kinds.append(lambda n: Ether(src=src, dst="33:33:ff:00:00:09") /
                 IPv6(src=a6, dst="ff02::1:ff00:9", hlim=255) / ICMPv6ND_NS(tgt=b6))
    kinds.append(lambda n: Ether(src=src, dst="ff:ff:ff:ff:ff:ff") /
                 ARP(psrc=a4, pdst="198.51.100.%d" % (n % 200 + 2)))
    kinds.append(lambda n: Ether(src=src, dst=dst) / Dot1Q(vlan=10) / IP(src=a4, dst=b4) /
                 UDP(sport=5000, dport=5001) / Raw(b"v%d" % n * 20))
    kinds.append(lambda n: Ether(src=src, dst=dst) / Dot1AD(vlan=100) / Dot1Q(vlan=20) /
                 IP(src=a4, dst=b4) / UDP(sport=5002, dport=5003) / Raw(b"q%d" % n * 30))
    for i in range(4):
        kinds.append(lambda n, i=i: Ether(src=src, dst="02:00:00:00:0e:%02x" % i, type=0x88B5) /
                     Raw(bytes([i, n & 255]) + b"x" * (46 + 200 * i)))
    rnd = random.Random(17)
    fr = []
    for n in range(12):
        order = list(range(len(kinds)))
        rnd.shuffle(order)
        fr += [kinds[k](n) for k in order]
        # a datagram in two IPv4 fragments: the second has no ports, both stay together
        big = IP(src=a4, dst=b4, id=100 + n) / UDP(sport=6000, dport=6001) / Raw(b"f" * 1200)
        fr += [Ether(src=src, dst=dst) / p for p in fragment(big, fragsize=800)]
    wrpcap(out, fr)
    print(len(fr), len({flow(bytes(f)) for f in fr}))


def replay(inp, cap, count):
    a, b = frames(inp), frames(cap)
    want = (a * (count // len(a) + 1))[:count]
    assert len(b) == count, f"captured {len(b)} frames, sent {count}"
    assert sorted(b) == sorted(want), \
        f"the frames differ: {len(set(want) - set(b))} expected frames missing, " \
        f"{sum((collections.Counter(b) - collections.Counter(want)).values())} extra"
    flows = collections.defaultdict(list)
    for f in want:
        flows[flow(f)].append(f)
    for key, seq in flows.items():
        got = [f for f in b if flow(f) == key]
        assert got == seq, f"flow {key}: {len(got)} frames out of the file's order"
    print(f"{count} frames of {len(flows)} flows: the file's multiset, each flow in order")


def imix(cap, flows, count):
    b = frames(cap)
    assert len(b) == count, f"captured {len(b)} frames, sent {count}"
    sizes = collections.defaultdict(collections.Counter)
    ids = collections.defaultdict(list)
    for f in b:
        sport = struct.unpack("!H", f[34:36])[0]
        sizes[sport][len(f)] += 1
        ids[sport].append(struct.unpack("!H", f[18:20])[0])
    assert len(sizes) == flows, f"{len(sizes)} flows seen, {flows} expected"
    per = count // flows
    mix = {60: per * 7 // 12, 590: per * 4 // 12, 1514: per // 12}
    for sport in sorted(sizes):
        assert dict(sizes[sport]) == mix, f"flow {sport}: sizes {dict(sizes[sport])}, want {mix}"
        assert ids[sport] == list(range(per)), f"flow {sport}: IPv4 IDs {ids[sport][:12]}..."
    print(f"{flows} flows, each {mix} and IPv4 IDs 0..{per - 1} in order")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "mixed":
        mixed(sys.argv[2], sys.argv[3])
    elif cmd == "replay":
        replay(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "imix":
        imix(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(f"unknown command {cmd}")

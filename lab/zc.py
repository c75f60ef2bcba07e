#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The kernel lab's host-side frames for the zero-copy list (lab/zc.sh).

  send IF DMAC SIP DIP N [SIZE [ADDRS]]  N UDP frames (16 flows, frame i carries "XSKFZC" and
                                    i), paced at 1000 a second; prints {"sent": N - the IF's
                                    tx_dropped growth, "tap_dropped": ...}; ADDRS source
                                    addresses from SIP on (frame i: SIP + i % ADDRS; a driver
                                    that hashes UDP by addresses only, as igb, spreads them)
  cap IF OUT N SECONDS              frames IF receives (not those it sends) that carry a lab
                                    marker, until N of them or SECONDS after the file OUT.go
                                    appears (the host writes it when the frames are due: an
                                    app's start takes minutes under TCG); written to OUT (hex)
  check KIND OUT N ARGS...          judge a capture; one line, exit 0 when it passed:
    fwd DMAC SMAC                   frames 0..N-1 once each, MACs rewritten, the rest intact
    same                            frames 0..N-1 once each, byte for byte as sent
    txgen SIZE DMAC SMAC SIP DIP [udpcsum]  N frames of SIZE bytes, addresses, valid IPv4
                                    checksums, 16 flows of source ports from 1024 (and with
                                    udpcsum: every UDP checksum present and valid)
The frames of `send` are a function of their number and of DMAC/SIP/DIP/SIZE alone (the source
MAC is the sending IF's), so `check` rebuilds what was sent and compares bytes.
"""
import json
import os
import select
import socket
import struct
import sys
import time

MARK = b"XSKFZC"
ETH_P_ALL = 3


def mac(m):
    return bytes.fromhex(m.replace(":", ""))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    t = (t >> 16) + (t & 0xFFFF)
    return ~(t + (t >> 16)) & 0xFFFF


def frame(i, dmac, smac, sip, dip, size=60):
    """Frame i of a send: Ethernet + IPv4 + UDP (dport 9) + MARK + i, padded to size."""
    pay = MARK + struct.pack("!I", i)
    pay += bytes(max(0, size - 14 - 20 - 8 - len(pay)))
    udp = struct.pack("!HHHH", 1024 + i % 16, 9, 8 + len(pay), 0) + pay
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xFFFF, 0, 64, 17, 0,
                     socket.inet_aton(sip), socket.inet_aton(dip))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return mac(dmac) + mac(smac) + b"\x08\x00" + ip + udp


def udp4_ok(f):
    """The UDP checksum of IPv4 frame f is right (the pseudo-header sum comes out 0)."""
    udp = f[34:14 + struct.unpack("!H", f[16:18])[0]]
    return csum(f[26:34] + struct.pack("!BBH", 0, 17, len(udp)) + udp) == 0


def if_mac(ifn):
    return open("/sys/class/net/%s/address" % ifn).read().strip()


def drops(ifn):
    return int(open("/sys/class/net/%s/statistics/tx_dropped" % ifn).read())


def send(ifn, dmac, sip, dip, n, size=60, addrs=1):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifn, 0))
    smac = if_mac(ifn)
    d0 = drops(ifn)
    t0 = time.monotonic()
    base = struct.unpack("!I", socket.inet_aton(sip))[0]
    srcs = [socket.inet_ntoa(struct.pack("!I", base + a)) for a in range(addrs)]
    for i in range(n):
        s.send(frame(i, dmac, smac, srcs[i % addrs], dip, size))
        if i % 50 == 49:
            time.sleep(max(0, t0 + (i + 1) / 1000 - time.monotonic()))
    dropped = drops(ifn) - d0
    print(json.dumps({"sent": n - dropped, "tap_dropped": dropped}))


def marked(f):
    """A lab frame: ours (MARK after IPv4 + UDP) or xsk-txgen's (IPv4 UDP to port 9)."""
    if len(f) < 42 or f[12:14] != b"\x08\x00" or f[23] != 17:
        return False
    return f[42:48] == MARK or f[36:38] == b"\x00\x09"


def cap(ifn, out, n, secs):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((ifn, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    open(out + ".ready", "w").close()
    got = []
    # SECONDS count from OUT.go (the frames due), not from the start; an hour at most before
    hard = time.monotonic() + 3600
    end = None
    while len(got) < n and time.monotonic() < (end or hard):
        if end is None and os.path.exists(out + ".go"):
            end = time.monotonic() + secs
        if not select.select([s], [], [], 0.2)[0]:
            continue
        f, addr = s.recvfrom(65536)
        if addr[2] == socket.PACKET_OUTGOING or not marked(f):
            continue
        got.append(f)
    with open(out + ".tmp", "w") as o:
        for f in got:
            o.write(f.hex() + "\n")
    os.rename(out + ".tmp", out)


def frames_of(out):
    return [bytes.fromhex(line) for line in open(out) if line.strip()]


def seqs(got):
    """Frame numbers of captured lab frames, and the frames by number."""
    by = {}
    for f in got:
        by.setdefault(struct.unpack("!I", f[48:52])[0] if f[42:48] == MARK else -1, []).append(f)
    return by


def check(kind, out, n, args):
    got = frames_of(out)
    if kind == "txgen":
        size, dmac, smac, sip, dip = int(args[0]), mac(args[1]), mac(args[2]), args[3], args[4]
        want_ucs = len(args) > 5 and args[5] == "udpcsum"
        bad = 0
        sports = set()
        for f in got:
            ok = (len(f) == size and f[0:6] == dmac and f[6:12] == smac and
                  f[26:30] == socket.inet_aton(sip) and f[30:34] == socket.inet_aton(dip) and
                  csum(f[14:34]) == 0 and struct.unpack("!H", f[16:18])[0] == size - 14)
            if want_ucs:
                ok = ok and f[40:42] != b"\0\0" and udp4_ok(f)
            sports.add(struct.unpack("!H", f[34:36])[0])
            bad += not ok
        if len(got) != n or bad or sports != set(range(1024, 1040)):
            return False, "captured %d of %d, %d not as built, source ports %s" % (
                len(got), n, bad, sorted(sports)[:20])
        return True, "captured %d of %d, each %d bytes, addresses, IPv4%s checksums and 16 flows right" % (
            len(got), n, size, " and UDP" if want_ucs else "")
    by = seqs(got)
    dup = sum(len(v) - 1 for k, v in by.items() if k >= 0)
    missing = [i for i in range(n) if i not in by]
    extra = len(by.get(-1, [])) + sum(1 for k in by if k >= n)
    bad = 0
    for i, fs in by.items():
        if i < 0 or i >= n:
            continue
        f = fs[0]
        if kind == "fwd":
            dmac, smac = mac(args[0]), mac(args[1])
            want = frame(i, args[0], args[1], args[2], args[3], int(args[4]))
            bad += f[0:6] != dmac or f[6:12] != smac or f[12:] != want[12:]
        else:  # same: rebuilt from the sender's MAC and the other arguments
            bad += f != frame(i, args[0], args[1], args[2], args[3], int(args[4]))
    if missing or dup or extra or bad:
        return False, "captured %d: %d of %d missing (first %s), %d twice, %d others, %d changed" % (
            len(got), len(missing), n, missing[:5], dup, extra, bad)
    return True, "captured %d of %d, each once, content as expected" % (len(got), n)


def main(a):
    if a[0] == "send":
        send(a[1], a[2], a[3], a[4], int(a[5]), int(a[6]) if len(a) > 6 else 60,
             int(a[7]) if len(a) > 7 else 1)
    elif a[0] == "cap":
        cap(a[1], a[2], int(a[3]), float(a[4]))
    elif a[0] == "check":
        ok, line = check(a[1], a[2], int(a[3]), a[4:])
        print(line)
        sys.exit(0 if ok else 1)
    else:
        sys.exit("lab/zc.py: unknown command %s" % a[0])


if __name__ == "__main__":
    main(sys.argv[1:])

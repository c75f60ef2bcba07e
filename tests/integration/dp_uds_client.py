#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The AF_XDP device plugin's UDS protocol from the client's side, as its sources define it
(afxdp-plugins-for-kubernetes constants.go / udsserver.go, protocol 0.1; DPDK's af_xdp
driver's use_cni client sends the same), against xskf's --serve-uds server, with bad input.

    dp_uds_client.py SOCKET IFACE

Each check prints "ok - ..." or exits 1 with "FAIL: ...". Checks: the happy path (/connect,
/version, /xsk_map_fd with an XSKMAP's fd by SCM_RIGHTS, /fin); a request before /connect
(/nak, then the close); junk first (/nak, close); a bad host name (/host_nak, close); after
/connect: junk, a second /connect, an over-long message, an unknown interface, busy poll
without an fd and with an fd that is not an AF_XDP socket (each answered, the connection
kept); peers that vanish mid-protocol; 17 connections at once (the 17th gets /error).
"""
import array
import os
import socket
import sys

PATH, IFACE = sys.argv[1], sys.argv[2]


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    s.connect(PATH)
    return s


def ask(s, req, fds=()):
    """One request, one answer: (text, [fds])."""
    anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
    s.sendmsg([req if isinstance(req, bytes) else req.encode()], anc)
    data, anc, _, _ = s.recvmsg(128, socket.CMSG_SPACE(4 * 4))
    got = []
    for level, typ, d in anc:
        if level == socket.SOL_SOCKET and typ == socket.SCM_RIGHTS:
            a = array.array("i")
            a.frombytes(d[: len(d) - (len(d) % a.itemsize)])
            got += list(a)
    return data.decode(errors="replace"), got


def closed(s):
    try:
        return s.recv(128) == b""
    except (ConnectionResetError, socket.timeout):
        return False


def expect(s, req, want, what, fds=()):
    ans, got = ask(s, req, fds)
    for f in got:
        os.close(f)
    if ans != want:
        fail("%s: %r answered %r, not %r" % (what, req, ans, want))
    return ans


def map_type(fd):
    with open("/proc/self/fdinfo/%d" % fd) as f:
        for l in f:
            if l.startswith("map_type:"):
                return int(l.split()[1])
    return None


# the happy path
s = conn()
expect(s, "/connect,test-pod-1", "/host_ok", "connect")
expect(s, "/version", "0.1", "version")
ans, fds = ask(s, "/xsk_map_fd," + IFACE)
if ans != "/fd_ack" or len(fds) != 1:
    fail("/xsk_map_fd,%s answered %r with %d fds" % (IFACE, ans, len(fds)))
if map_type(fds[0]) != 17:  # BPF_MAP_TYPE_XSKMAP
    fail("the fd passed is not an XSKMAP (map_type %s)" % map_type(fds[0]))
os.close(fds[0])
expect(s, "/fin", "/fin_ack", "fin")
if not closed(s):
    fail("the server did not close after /fin_ack")
s.close()
print("ok - /connect /host_ok, /version 0.1, /xsk_map_fd,%s /fd_ack + an XSKMAP fd, /fin /fin_ack, closed" % IFACE)

# wrong order: a request before /connect
s = conn()
expect(s, "/xsk_map_fd," + IFACE, "/nak", "before connect")
if not closed(s):
    fail("a request before /connect: the connection stayed")
s.close()
# junk first
s = conn()
expect(s, b"\x00\xffjunk", "/nak", "junk first")
if not closed(s):
    fail("junk first: the connection stayed")
s.close()
# a bad host name
s = conn()
expect(s, "/connect,../etc", "/host_nak", "bad host")
if not closed(s):
    fail("a bad host name: the connection stayed")
s.close()
print("ok - before /connect: a request and junk get /nak, a bad host name /host_nak; each closed")

# after /connect: each bad request answered, the connection kept
s = conn()
expect(s, "/connect,test-pod-2", "/host_ok", "connect 2")
expect(s, b"junk\n", "/nak", "junk")
expect(s, "/connect,test-pod-2", "/nak", "second connect")
expect(s, "/xsk_map_fd," + "x" * 70, "/nak", "over-long message")
expect(s, "/xsk_map_fd,nosuch0", "/fd_nak", "unknown interface")
expect(s, "/xsk_map_fd,", "/fd_nak", "no interface")
expect(s, "/config_busy_poll,20,64", "/config_busy_poll_nak", "busy poll without an fd")
r, w = os.pipe()
expect(s, "/config_busy_poll,20,64", "/config_busy_poll_nak", "busy poll on a pipe", [r])
os.close(r)
os.close(w)
expect(s, "/config_busy_poll,x,64", "/nak", "busy poll, bad number")
expect(s, "/version", "0.1", "version after bad input")
print("ok - after /connect: junk, a second /connect, 70 bytes, unknown interface, busy poll without an AF_XDP fd: answered, kept")
# a peer that vanishes: mid-protocol, with no /fin
s.close()
s = conn()
s.send(b"/connect,test-pod-3")
s.close()
s = conn()
s.close()
# the server still serves (and, answering, has taken the vanished peers out of its slots)
s = conn()
expect(s, "/connect,test-pod-4", "/host_ok", "connect after vanished peers")
expect(s, "/fin", "/fin_ack", "fin 4")
s.close()
# 17 at once: the 17th gets /error
many = [conn() for _ in range(16)]
x = conn()
try:
    got = x.recv(128)
except socket.timeout:
    got = b"(nothing)"
if got != b"/error":
    fail("the 17th connection got %r, not /error" % got)
x.close()
for m in many:
    m.close()
# and serves on
s = conn()
expect(s, "/connect,test-pod-5", "/host_ok", "connect after 17")
expect(s, "/fin", "/fin_ack", "fin 5")
s.close()
print("ok - peers that vanished; the 17th connection got /error; the server serves on")

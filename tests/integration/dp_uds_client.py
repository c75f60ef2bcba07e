#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The AF_XDP device plugin's UDS protocol from the client's side, as its sources define it
(afxdp-plugins-for-kubernetes constants.go / udsserver.go, protocol 0.1; DPDK's af_xdp
driver's use_cni client sends the same), against xskf's --serve-uds server, with bad input.

    dp_uds_client.py SOCKET IFACE
    dp_uds_client.py SOCKET IFACE --flood UID,UID,... N
    dp_uds_client.py SOCKET IFACE --served-within SECONDS

Each check prints "ok - ..." or exits 1 with "FAIL: ...". Checks: the happy path (/connect,
/version, /xsk_map_fd with an XSKMAP's fd by SCM_RIGHTS, /fin); a request before /connect
(/nak, then the close); junk first (/nak, close); a bad host name (/host_nak, close); after
/connect: junk, a second /connect, an over-long message, an unknown interface, busy poll
without an fd and with an fd that is not an AF_XDP socket (each answered, the connection
kept); peers that vanish mid-protocol; 20 idle connections of ours do not keep a client of
ours out (served at once; the idle ones closed with /error, for it or by the deadline).

--flood: a process per UID (group nogroup) keeps N connections open that say nothing (or
only /connect), opening another as soon as the server closes one; prints "flooding" once
all are open, and how many the server closed at SIGTERM. --served-within: the happy path,
each answer within SECONDS (the server's deadline), else FAIL.
"""
import array
import grp
import os
import selectors
import signal
import socket
import sys
import time

PATH, IFACE = sys.argv[1], sys.argv[2]
DEADLINE = 1.0  # the server's, from connect to the XSKMAP (dp_uds.c DP_DEADLINE_MS)


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


def ended(s, timeout=5 * DEADLINE):
    """The server closed @s: an optional /error, then EOF (or a reset), within @timeout."""
    s.settimeout(timeout)
    try:
        got = s.recv(128)
        if got == b"/error":
            got = s.recv(128)
        return got == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def happy(limit, host, fin=True):
    """/connect, /version, /xsk_map_fd: each answered within @limit seconds. The socket."""
    s = conn()
    s.settimeout(limit)
    try:
        expect(s, "/connect," + host, "/host_ok", "connect " + host)
        expect(s, "/version", "0.1", "version " + host)
        ans, fds = ask(s, "/xsk_map_fd," + IFACE)
    except (socket.timeout, ConnectionError) as e:
        fail("%s: not served within %.1f s: %s" % (host, limit, e))
    if ans != "/fd_ack" or len(fds) != 1:
        fail("%s: /xsk_map_fd answered %r with %d fds" % (host, ans, len(fds)))
    os.close(fds[0])
    if fin:
        expect(s, "/fin", "/fin_ack", "fin " + host)
        s.close()
    return s


def flood_one(uid, n, ready):
    """One uid's N connections, each opened again as soon as the server closes it."""
    gid = grp.getgrnam("nogroup").gr_gid
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    sel, closed_n = selectors.DefaultSelector(), 0

    def one(k):
        while True:
            try:
                s = conn()
                if k % 2:
                    s.send(b"/connect,flood")  # connected, then idle
                break
            except (socket.timeout, BlockingIOError, ConnectionRefusedError):
                continue
        sel.register(s, selectors.EVENT_READ, k)

    def bye(*_):
        print("closed %d" % closed_n, flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, bye)
    for k in range(n):
        one(k)
    os.write(ready, b"x")
    while True:
        for key, _ in sel.select():
            try:
                got = key.fileobj.recv(128)
            except ConnectionResetError:
                got = b""
            if got in (b"", b"/error"):
                sel.unregister(key.fileobj)
                key.fileobj.close()
                closed_n += 1
                one(key.data)


def flood(uids, n):
    r, w = os.pipe()
    kids = []
    for uid in uids:
        pid = os.fork()
        if pid == 0:
            os.close(r)
            flood_one(uid, n, w)
        kids.append(pid)
    os.close(w)
    for _ in uids:
        if len(os.read(r, 1)) != 1:
            fail("a flooding process died")
    print("flooding: %d uids, %d connections each" % (len(uids), n), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: [os.kill(k, signal.SIGTERM) for k in kids])
    for k in kids:
        while True:
            try:
                os.waitpid(k, 0)
                break
            except InterruptedError:
                continue
    sys.exit(0)


if len(sys.argv) == 6 and sys.argv[3] == "--flood":
    flood([int(u) for u in sys.argv[4].split(",")], int(sys.argv[5]))
if len(sys.argv) == 5 and sys.argv[3] == "--served-within":
    t0 = time.monotonic()
    happy(float(sys.argv[4]), "test-pod-served")
    print("ok - served within %.2f s" % (time.monotonic() - t0))
    sys.exit(0)

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
# idle connections (issue 44): 20 of ours that say nothing, then a client of ours (the same
# uid) served within the deadline: the idle ones beyond 8 per uid gave it their places
many = [conn() for _ in range(20)]
s = happy(DEADLINE, "test-pod-5", fin=False)
# every idle one is closed by the server: /error (its place taken, or its deadline), then EOF
for i, m in enumerate(many):
    if not ended(m):
        fail("idle connection %d was not closed by the server" % i)
    m.close()
# the client that took its XSKMAP is held past the deadline (a pod's life), until /fin
expect(s, "/version", "0.1", "a held connection after the deadline")
expect(s, "/fin", "/fin_ack", "fin 5")
s.close()
print("ok - peers that vanished; 20 idle connections of one uid: a client of that uid served within %.1f s, each idle one closed with /error" % DEADLINE)

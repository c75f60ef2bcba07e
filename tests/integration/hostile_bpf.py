#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# A hostile client of a serving xskf run (test_hostile.sh), run as whoever the test makes it
# (nobody in the pin group, uid 0 without capabilities): the bpf() commands a pod could try,
# made directly (ctypes), so that nothing between it and the kernel refuses for it.
#
#   hostile_bpf.py caps                       print CapEff (hex) of this process
#   hostile_bpf.py open PATH                  BPF_OBJ_GET a pin
#   hostile_bpf.py byid ID                    BPF_MAP_GET_FD_BY_ID
#   hostile_bpf.py write PATH|id:ID KEY SIZE  BPF_MAP_UPDATE_ELEM, SIZE bytes of 0x7f at KEY
#   hostile_bpf.py delete PATH|id:ID KEY      BPF_MAP_DELETE_ELEM
#   hostile_bpf.py uds SOCK REQUEST [delete KEY]
#                                             the device plugin protocol: /connect, REQUEST
#                                             (/xsk_map_fd,IFACE[,Q]); with delete, KEY out
#                                             of the map it was given
#
# Prints one line: "done ..." when the kernel or the server did it (exit 0), "refused ..."
# with the errno name or the answer when not (exit 1). Anything else: exit 2.
import array
import ctypes
import errno
import os
import socket
import struct
import sys

SYS_BPF = 321  # x86_64
OBJ_GET, MAP_GET_FD_BY_ID, MAP_UPDATE_ELEM, MAP_DELETE_ELEM = 7, 14, 2, 3
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(bytes(attr), 128)
    r = libc.syscall(SYS_BPF, cmd, buf, 128)
    return r, ctypes.get_errno()


def done(what):
    print("done " + what)
    sys.exit(0)


def refused(what, err):
    print("refused %s: %s" % (what, errno.errorcode.get(err, str(err))))
    sys.exit(1)


def map_fd(spec):
    keep = []
    if spec.startswith("id:"):
        r, e = bpf(MAP_GET_FD_BY_ID, struct.pack("<III", int(spec[3:]), 0, 0))
        what = "map id " + spec[3:]
    else:
        path = ctypes.create_string_buffer(spec.encode())
        keep.append(path)
        r, e = bpf(OBJ_GET, struct.pack("<QIIi", ctypes.addressof(path), 0, 0, 0))
        what = spec
    if r < 0:
        refused("open " + what, e)
    return int(r)


def update(fd, key, size):
    k = ctypes.create_string_buffer(struct.pack("<I", key), 4)
    v = ctypes.create_string_buffer(b"\x7f" * size, size)
    return bpf(MAP_UPDATE_ELEM, struct.pack("<IIQQQ", fd, 0, ctypes.addressof(k),
                                            ctypes.addressof(v), 0))


def delete(fd, key):
    k = ctypes.create_string_buffer(struct.pack("<I", key), 4)
    return bpf(MAP_DELETE_ELEM, struct.pack("<IIQ", fd, 0, ctypes.addressof(k)))


def uds(path, req, rest):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    try:
        s.connect(path)
    except OSError as e:
        refused("connect " + path, e.errno)
    s.send(b"/connect,hostile")
    if s.recv(64) != b"/host_ok":
        refused("/connect", errno.EACCES)
    s.send(req.encode())
    fds = array.array("i")
    msg, anc, _, _ = s.recvmsg(64, socket.CMSG_SPACE(4 * fds.itemsize))
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    if msg != b"/fd_ack" or not fds:
        print("refused %s: %s" % (req, msg.decode(errors="replace")))
        sys.exit(1)
    if rest[:1] == ["delete"]:
        r, e = delete(fds[0], int(rest[1]))
        if r < 0:
            refused("%s then delete key %s" % (req, rest[1]), e)
        done("%s then delete key %s" % (req, rest[1]))
    done(req)


def main(a):
    if a[:1] == ["caps"]:
        for line in open("/proc/self/status"):
            if line.startswith("CapEff:"):
                print(line.split()[1])
        return
    if a[:1] == ["open"] and len(a) == 2:
        map_fd(a[1])
        done("open " + a[1])
    if a[:1] == ["byid"] and len(a) == 2:
        map_fd("id:" + a[1])
        done("open map id " + a[1])
    if a[:1] == ["write"] and len(a) == 4:
        r, e = update(map_fd(a[1]), int(a[2]), int(a[3]))
        if r < 0:
            refused("write %s key %s" % (a[1], a[2]), e)
        done("write %s key %s" % (a[1], a[2]))
    if a[:1] == ["delete"] and len(a) == 3:
        r, e = delete(map_fd(a[1]), int(a[2]))
        if r < 0:
            refused("delete %s key %s" % (a[1], a[2]), e)
        done("delete %s key %s" % (a[1], a[2]))
    if a[:1] == ["uds"] and len(a) >= 3:
        uds(a[1], a[2], a[3:])
    print("usage: see the head of " + sys.argv[0], file=sys.stderr)
    sys.exit(2)


main(sys.argv[1:])

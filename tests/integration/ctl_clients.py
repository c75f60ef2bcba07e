#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Hostile clients of an xskf control socket (test_adversarial.sh slow-clients).

ctl_clients.py SOCKET IDLE DRIP OUT

Keeps IDLE connections that never send a byte and DRIP connections that send a request one
byte every 150 ms (28 bytes: longer than any deadline) open on SOCKET, re-opening each one the server closes, until SOCKET is gone
(the run ended) or SIGTERM. Then writes to OUT (JSON) how the server answered them: "busy"
(the one-line refusal over the bound), "timeout" (no complete request within the deadline),
"other" lines, and "closed" (closed with no line).
"""
import json
import re
import selectors
import signal
import socket
import sys
import time

path, n_idle, n_drip, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
stop = False


def on_term(sig, frm):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
sel = selectors.DefaultSelector()
seen = {"busy": 0, "timeout": 0, "other": 0, "closed": 0, "connects": 0}
others = []


pending = ["idle"] * n_idle + ["drip"] * n_drip


def open_one(kind):
    """True: connected, or the backlog is full (tried again next round); False: gone."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect(path)
    except BlockingIOError:
        s.close()  # the backlog is full (AF_UNIX: EAGAIN, not connected): later
        pending.append(kind)
        return True
    except OSError:
        s.close()
        return False
    seen["connects"] += 1
    sel.register(s, selectors.EVENT_READ, {"kind": kind, "buf": b"", "sent": 0, "next": time.monotonic()})
    return True


BUSY = re.compile(r"error: busy: [0-9]+ clients are being served; try again")
req = b"rxdrop " + b"x" * 20 + b"\n"
while not stop:
    todo, pending[:] = pending[:], []
    for kind in todo:
        if not open_one(kind):
            stop = True  # the socket is gone: the run ended
    now = time.monotonic()
    for key in list(sel.get_map().values()):
        d = key.data
        if d["kind"] == "drip" and d["sent"] < len(req) and now >= d["next"]:
            try:
                key.fileobj.send(req[d["sent"]:d["sent"] + 1])
                d["sent"] += 1
            except OSError:
                pass
            d["next"] = now + 0.15
    for key, _ in sel.select(timeout=0.05):
        s, d = key.fileobj, key.data
        try:
            b = s.recv(4096)
        except BlockingIOError:
            continue
        except OSError:
            b = b""
        d["buf"] += b
        if b:
            continue
        line = d["buf"].split(b"\n")[0].decode(errors="replace")
        # the server's two refusals (framework/runner/ctl.c), whole lines, not their first words
        if BUSY.fullmatch(line):
            seen["busy"] += 1
        elif line == "error: no complete request within 1 s":
            seen["timeout"] += 1
        elif line:
            seen["other"] += 1
            others.append(line[:80])
        else:
            seen["closed"] += 1
        sel.unregister(s)
        s.close()
        pending.append(d["kind"])
json.dump(dict(seen, examples=others[:5]), open(out, "w"))

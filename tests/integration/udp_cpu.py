#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# udp_cpu.py ADDR PORT... : count the UDP datagrams each port receives until SIGTERM; then
# print one JSON line {"PORT": {"n": N}, ...}. Prints "ready" on stderr once every socket is
# bound. (SO_INCOMING_CPU would tell the CPU, but UDP sockets read -1 on this kernel.)
import json
import select
import signal
import socket
import sys

addr = sys.argv[1]
socks = {}
for p in sys.argv[2:]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.bind((addr, int(p)))
    s.setblocking(False)
    socks[s] = {'port': int(p), 'n': 0}
stop = False


def on_term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
print('ready', file=sys.stderr, flush=True)
while not stop:
    r, _, _ = select.select(list(socks), [], [], 0.1)
    for s in r:
        while True:
            try:
                s.recv(2048)
            except BlockingIOError:
                break
            socks[s]['n'] += 1
print(json.dumps({str(v['port']): {'n': v['n']} for v in socks.values()}),
      flush=True)

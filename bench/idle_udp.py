#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""UDP request/response for bench/idle.sh (the latency rows of docs/idle.md).

  bench/idle_udp.py server PORT
      echo every datagram back to its sender, until killed
  bench/idle_udp.py client DST PORT RATE COUNT PROBES
      COUNT requests at RATE per second (each waits for its answer, 100 ms at most), then PROBES
      requests each after 1 s without traffic; prints one JSON object: the RTTs' p50, p90, p99,
      max in microseconds for the paced requests ("paced") and the probes ("after_idle"), and the
      requests that got no answer ("lost")
"""
import json
import socket
import sys
import time


def server(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('0.0.0.0', port))
    while True:
        d, a = s.recvfrom(2048)
        s.sendto(d, a)


def pct(v, p):
    if not v:
        return None
    v = sorted(v)
    return round(v[min(len(v) - 1, int(p / 100.0 * len(v)))] / 1000.0, 1)


def summary(v):
    return {'n': len(v), 'p50_us': pct(v, 50), 'p90_us': pct(v, 90), 'p99_us': pct(v, 99),
            'max_us': round(max(v) / 1000.0, 1) if v else None}


def client(dst, port, rate, count, probes):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.1)
    s.connect((dst, port))
    lost = 0

    def one(i):
        nonlocal lost
        msg = i.to_bytes(8, 'little') * 4
        t0 = time.perf_counter_ns()
        s.send(msg)
        while True:
            try:
                d = s.recv(2048)
            except socket.timeout:
                lost += 1
                return None
            if d == msg:  # a late answer to an earlier request is not this one's
                return time.perf_counter_ns() - t0

    paced = []
    gap = 1e9 / rate
    start = time.perf_counter_ns()
    for i in range(count):
        due = start + i * gap
        while time.perf_counter_ns() < due:
            pass  # spin to the send time: a sleep's own wake-up would add to the RTT
        r = one(i)
        if r is not None:
            paced.append(r)
    idle = []
    for i in range(probes):
        time.sleep(1.0)
        r = one(count + i)
        if r is not None:
            idle.append(r)
    print(json.dumps({'paced': summary(paced), 'after_idle': summary(idle), 'lost': lost}))


if __name__ == '__main__':
    if sys.argv[1] == 'server':
        server(int(sys.argv[2]))
    else:
        client(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]),
               int(sys.argv[6]))

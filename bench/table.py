#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench/table.py RESULTS DIGITS KEYS [A/B ...]: the rows of a benchmark's table.

RESULTS holds one "KEY VALUE" line per case and round. For each key of KEYS (comma-separated,
in that order) one markdown row "| key | median | min | max |" with DIGITS decimals; then for
each A/B the ratio of A to B of the same round (the fairest comparison on a machine whose load
moves), its median and each round's.
"""
import statistics
import sys


def main(argv):
    path, digits, keys, pairs = argv[1], int(argv[2]), argv[3].split(","), argv[4:]
    rows = {}
    with open(path) as f:
        for line in f:
            k, v = line.split()
            rows.setdefault(k, []).append(float(v))
    fmt = "%%.%df" % digits
    for k in keys:
        v = rows.get(k, [])
        if v:
            print("| %s | %s | %s | %s |" % (k, fmt % statistics.median(v), fmt % min(v),
                                            fmt % max(v)))
    for pair in pairs:
        a, b = pair.split("/")
        r = [x / y for x, y in zip(rows.get(a, []), rows.get(b, [])) if y]
        if r:
            print("%s / %s in the same round: median %.2f (%s)" %
                  (a, b, statistics.median(r), " ".join("%.2f" % v for v in r)))


if __name__ == "__main__":
    main(sys.argv)

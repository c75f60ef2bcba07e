#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Files that call each other: circles in the call graph between the object files of one
program or library (a calls a function b defines, and b, maybe through others, calls a).

Usage: call_circles.py DIR...   each DIR holds the .o files of one target (meson's NAME.p).
Prints each circle as "a.c -> b.c -> a.c" and exits 1 when there is one; 0 otherwise.
Calls within a file do not count, nor calls into libraries outside the target."""
import glob
import os
import subprocess
import sys


def graph(d):
    defs, uses = {}, {}
    for o in sorted(glob.glob(os.path.join(d, '*.o'))):
        name = os.path.basename(o)[:-2]
        out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
        uses[name] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRVW':
                defs[f[2]] = name
            elif len(f) == 2 and f[0] == 'U':
                uses[name].add(f[1])
    return {n: {defs[s] for s in u if s in defs and defs[s] != n} for n, u in uses.items()}


def circles(g):
    """Tarjan's strongly connected components with more than one file."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def pretty(n):
    # meson names objects after their path: core_engine.c, backend_xdp_prog.c
    return n


bad = 0
for d in sys.argv[1:]:
    for comp in circles(graph(d)):
        bad = 1
        print('circle in %s: %s' % (os.path.basename(d.rstrip('/')), ' <-> '.join(map(pretty, comp))))
sys.exit(bad)

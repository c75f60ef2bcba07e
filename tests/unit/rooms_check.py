#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The rooms of framework/ (docs/architecture.md, "What may include what"), checked from the
source as text:

  - runner/ includes no backend/ header, core/ neither backend/ nor runner/;
  - no header of framework/ declares functions of more than three .c files other than its
    own (the one of its name): a header is a room's door, not a hub;
  - scripts/ holds the README's entry points only (demo.sh, test.sh, deps.sh, fuzz.sh): the
    benchmarks are in bench/, the kernel lab in lab/, installed scripts in tools/, the checks'
    tools in tests/ (docs/architecture.md, "The folders around the library");
  - the files of scripts/, bench/ and lab/ are named in one style: lower case, words joined
    by "_".

Each breach is one line naming the file and what it does; exit 1 if any."""
import collections
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("XSKF_SRC", ".")
FW = os.path.join(SRC, "framework")


def files(ext):
    for d, _, fs in os.walk(FW):
        for f in sorted(fs):
            if f.endswith(ext):
                yield os.path.join(d, f)


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def rel(p):
    return os.path.relpath(p, SRC)


bad = []
# 1. includes by layer
for f in list(files(".c")) + list(files(".h")):
    layer = rel(f).split(os.sep)[1]
    for inc in re.findall(r'^#include "([^"]+)"', open(f).read(), flags=re.M):
        top = inc.split("/")[0]
        if layer == "runner" and top == "backend":
            bad.append(f"{rel(f)} includes {inc}: the runner reaches a backend through core/backend.h")
        if layer == "core" and top in ("backend", "runner"):
            bad.append(f"{rel(f)} includes {inc}: the core includes only core/")

# 2. which .c defines each function (non-static, at column 0, body follows)
DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*\{", re.M | re.S)
defs = collections.defaultdict(set)
for f in files(".c"):
    for m in DEF.finditer(strip(open(f).read())):
        defs[m.group(1)].add(f)
DECL = re.compile(r"^(?!static\b|#|typedef\b)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*;", re.M | re.S)
for h in files(".h"):
    own = h[:-2] + ".c"
    by = collections.defaultdict(list)
    for m in DECL.finditer(strip(open(h).read())):
        for d in defs.get(m.group(1), ()):
            if d != own:
                by[d].append(m.group(1))
    if len(by) > 3:
        bad.append(f"{rel(h)} declares functions of {len(by)} files: "
                   + ", ".join(f"{rel(d)} ({len(v)})" for d, v in sorted(by.items()))
                   + ": give each concern a header of its own")

# 3. scripts/ by role, and one naming style for the script folders
ENTRY = {"demo.sh", "test.sh", "deps.sh", "fuzz.sh"}
for f in sorted(os.listdir(os.path.join(SRC, "scripts"))):
    if os.path.isfile(os.path.join(SRC, "scripts", f)) and f not in ENTRY:
        bad.append(f"scripts/{f}: scripts/ holds the entry points only ({', '.join(sorted(ENTRY))}); "
                   "a benchmark goes in bench/, the lab's in lab/, an installed script in tools/")
NAME = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*(\.[a-z]+)?$")
for d in ("scripts", "bench", "lab"):
    for f in sorted(os.listdir(os.path.join(SRC, d))):
        if os.path.isfile(os.path.join(SRC, d, f)) and not NAME.match(f):
            bad.append(f"{d}/{f}: not in the folders' naming style (lower case, words joined by _)")

for b in bad:
    print("FAIL:", b)
if bad:
    sys.exit(1)
print(f"ok - framework/: the runner includes no backend header, the core only core/; "
      f"no header declares functions of more than three files ({len(defs)} functions); "
      f"scripts/ holds its entry points only; scripts/, bench/, lab/ named in one style")

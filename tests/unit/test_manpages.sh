#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Every option a command's --help lists is in its man page, and every option the man page
# defines is in --help, with the same short letter: the two cannot drift apart. The pages are
# the build's expanded scdoc sources (the standard options are written once and put into each
# page that has them, docs/man/expand.py). No root needed; skipped without scdoc (no pages).
set -euo pipefail
B=${XSKF_BUILD:?XSKF_BUILD not set (run through meson test)}
PY=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }

# help CMD...: "x name" or "- name" per option a usage text defines (lines that begin, after
# spaces, with "-x, --name" or "--name")
help_opts() {
	"$@" --help 2>&1 | $PY -c '
import re, sys
for l in sys.stdin:
    m = re.match(r"\s+(?:-(\w), )?--([a-z0-9][a-z0-9-]*)", l)
    if m:
        print(m.group(1) or "-", m.group(2))' | sort -u
}
# man PAGE.scd: the same from the definitions of a page (lines that begin with "*-"), where one
# line may define several ("*--rx-ring* _N_, *--tx-ring* _N_")
man_opts() {
	$PY - "$1" <<'EOPY' | sort -u
import re, sys
for l in open(sys.argv[1]):
    if not l.startswith("*-"):
        continue
    short = None
    for tok in re.findall(r"\*(-\w|--[a-z0-9][a-z0-9-]*)\*", l):
        if tok.startswith("--"):
            print(short or "-", tok[2:])
            short = None
        else:
            short = tok[1:]
EOPY
}

[ -f "$B/xskf.1.scd" ] || { echo "SKIP: no man pages in this build (no scdoc)"; exit 77; }
checked=0
for c in "xsk-rxdrop:apps/xsk-rxdrop" "xsk-l2fwd:apps/xsk-l2fwd" "xsk-tunnel:apps/xsk-tunnel" \
	"xsk-txgen:apps/xsk-txgen" "xskfctl:apps/xskfctl" "xskf-trafficgen:tools/xskf-trafficgen" \
	"xskf:apps/xskf run filter" "xskf-doctor:apps/xskf doctor"; do
	page=${c%%:*}
	read -r -a cmd <<<"$B/${c#*:}"
	h=$(help_opts "${cmd[@]}")
	m=$(man_opts "$B/$page.1.scd")
	[ -n "$h" ] || fail "$page: no options found in '${cmd[*]##*/} --help'"
	only_h=$(comm -23 <(echo "$h") <(echo "$m"))
	only_m=$(comm -13 <(echo "$h") <(echo "$m"))
	[ -z "$only_h" ] || fail "$page: in --help, not in $page(1) (letter name): $(echo $only_h)"
	[ -z "$only_m" ] || fail "$page: in $page(1), not in --help (letter name): $(echo $only_m)"
	echo "ok - $page: $(wc -l <<<"$h") options, --help and the man page agree"
	checked=$((checked + 1))
done
echo "$checked commands checked"

# Every command of xskfctl's usage text begins a line of its page's SYNOPSIS
$PY - "$B/xskfctl.1.scd" <<EOPY || fail "xskfctl(1): a command of --help is not in the SYNOPSIS"
import re, sys
usage = """$("$B/apps/xskfctl" --help 2>&1 | sed -n '/^usage:/,/^  -/p')"""
cmds = set()
for l in usage.splitlines():
    l = re.sub(r"^(usage:)?\s*xskfctl\s*", "", l) if "xskfctl" in l else ""
    l = re.sub(r"^\[-s [^]]*\]\s*", "", l)
    for alt in l.split(" | "):
        w = alt.split()[0] if alt.split() else ""
        if re.fullmatch(r"[a-z]+", w):
            cmds.add(w)
page = open(sys.argv[1]).read()
syn = page.split("# SYNOPSIS", 1)[1].split("\n# ", 1)[0]
firsts = set()
for l in syn.splitlines():
    if l.startswith("*xskfctl*"):
        l = re.sub(r"^\*xskfctl\*\s*(\[\*-s\*[^]]*\]\s*)?", "", l)
        m = re.match(r"\*([a-z]+)\*", l)
        if m:
            firsts.add(m.group(1))
missing = sorted(cmds - firsts)
if not cmds or missing:
    print("missing from the SYNOPSIS:", missing or "no commands read from --help", file=sys.stderr)
    sys.exit(1)
print("ok - xskfctl(1): the SYNOPSIS has every command of --help:", " ".join(sorted(cmds)))
EOPY

# Every plugin the build ships (apps/*.so) is in the lists of docs/plugins.md and xskf(1)
S=${XSKF_SRC:?XSKF_SRC not set (run through meson test)}
for so in "$B"/apps/*.so; do
	p=$(basename "$so" .so)
	grep -A3 '^- Shipped plugins:' "$S/docs/plugins.md" | grep -q "\`$p\`" ||
		fail "plugin $p is not in docs/plugins.md's list of shipped plugins"
	grep -A4 'Shipped:' "$S/docs/man/xskf.1.scd" | grep -q "\*$p\*" ||
		fail "plugin $p is not in xskf(1)'s list of shipped plugins"
done
echo "ok - docs/plugins.md and xskf(1) list every shipped plugin: $(cd "$B/apps" && ls -- *.so | sed 's/\.so$//' | paste -sd' ')"

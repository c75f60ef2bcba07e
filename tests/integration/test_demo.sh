#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# scripts/demo.sh as a user runs it (on this build, with its own test bed prefix):
#  - it exits 0 and prints the generator's rate next to xsk-rxdrop's;
#  - every frame offered is either received or named in "not received" with its counter: the
#    numbers it prints add up exactly, and nothing is "not accounted for";
#  - without --quiet the per-second lines (stats and hints) appear; with --quiet none does;
#  - it leaves no namespace behind.
# Root; exit 77 to skip.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root
TMP=$(mktemp -d)
P=xd$$
trap 'XSKF_TB=$P "$S/tools/testbed.sh" down >/dev/null 2>&1; rm -rf "$TMP"' EXIT

run_demo() { # run_demo OUT ARGS...: the demo, stdout + stderr in OUT
	local out=$1
	shift
	XSKF_BUILD=$B XSKF_TB=$P "$S/scripts/demo.sh" "$@" >"$out" 2>&1 || {
		cat "$out" >&2
		fail "demo.sh $* exited non-zero"
	}
}

check_summary() { # the two rate lines, and offered == received + every reason listed
	$PY - "$1" <<'EOPY' || fail "demo summary of $1 does not add up"
import re, sys
t = open(sys.argv[1]).read()
off = re.search(r"== offered by xskf-trafficgen: +(\d+) frames +([\d.]+) Mpps", t)
got = re.search(r"== received by xsk-rxdrop: +(\d+) frames +([\d.]+) Mpps", t)
if not off or not got:
    sys.exit("rate lines missing")
offered, received = int(off.group(1)), int(got.group(1))
if offered <= 0 or received <= 0:
    sys.exit("nothing sent or nothing received")
if "not accounted for" in t:
    sys.exit("frames not accounted for")
miss = re.search(r"== not received: (\d+) frames\n((?:   +\d+  .*\n)*)", t)
listed = sum(int(l.split()[0]) for l in miss.group(2).splitlines()) if miss else 0
if miss and int(miss.group(1)) != offered - received:
    sys.exit("not received %s != %d" % (miss.group(1), offered - received))
if not miss and "every frame offered was received" not in t:
    sys.exit("no accounting line")
if offered != received + listed:
    sys.exit("offered %d != received %d + listed %d" % (offered, received, listed))
print("offered %d received %d listed %d" % (offered, received, listed))
EOPY
}

run_demo "$TMP/loud" 2
check_summary "$TMP/loud"
# the sending method and its rate; a fallback forced by the environment is said, once
grep -Eq '^== sending method: (live|xsk) \(.+\), [0-9.]+ Mpps sent$' "$TMP/loud" ||
	fail "no sending method line"
if [[ ${XSKF_FEATURES_OFF:-} =~ (^|,)live_frames(,|$) ]]; then
	grep -q '^== sending method: xsk (AF_XDP TX, copy mode, queue 0)' "$TMP/loud" &&
		[[ $(grep -c '^xskf-trafficgen: live-frame test runs forced off by XSKF_FEATURES_OFF' \
			"$TMP/loud") -eq 1 ]] || fail "XSKF_FEATURES_OFF=live_frames: not said as AF_XDP"
fi
ok "demo: $(grep '^== sending method' "$TMP/loud")"
grep -qE '^\[ +[0-9.]+s\] total +rx' "$TMP/loud" || fail "no per-second stats line without --quiet"
grep -q "^ *rxdrop  hash_hw [0-9]* hash_sw" "$TMP/loud" || fail "no per-second hint counters line without --quiet"
ok "demo: rates side by side, every frame accounted for, live lines shown"

run_demo "$TMP/quiet" 1 --quiet
check_summary "$TMP/quiet"
if grep -E "^\[ +[0-9.]+s\]|^ *rxdrop  hash_hw" "$TMP/quiet"; then
	fail "--quiet still printed per-second lines"
fi
ok "demo --quiet: no per-second lines"
ip netns list | grep -q "^$P-" && fail "demo left its namespaces behind"
ok "demo removed its test bed"

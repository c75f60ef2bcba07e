#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The kernel lab's per-queue judgement (lab/tests.sh's check_phases): the host sends
# one phase per queue with the guest's RSS indirection table pinned to that queue (lab_phases),
# so each queue must have redirected exactly its phase's frames. Here, on files as the lab
# writes them: exact counts pass; a queue with more or fewer, a missing phase, a queue the
# guest's JSON names as text, all fail in one line; an unphased send (no settable table) passes
# with what is certain only, and says so. No root, no guest.
set -uo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$SRC/lab/parse.sh"
source "$SRC/lab/tests.sh"
d=$T/run
mkdir -p "$d" "$d.host"
# guest Q0 Q1: the guest's JSON with these counts on queues 0 and 1
guest() {
	printf '{"queues": [{"queue": 0, "program": {"redirected": %s}}, {"queue": 1, "program": {"redirected": %s}}]}\n' \
		"$1" "$2" >"$d/t.json"
}
printf '0 1000\n1 1000\n' >"$d.host/t.phases"
guest 1000 1000
out=$(check_phases "$d" t) || fail "exact phases refused: $out"
ok "1000 + 1000 after phases of 1000 each: $out"
guest 2000 0
out=$(check_phases "$d" t) && fail "every frame on queue 0 passed: $out"
[ "$out" = "queue 0 redirected 2000, its phase sent 1000" ] || fail "$out"
guest 999 1001
out=$(check_phases "$d" t) && fail "999 + 1001 passed: $out"
ok "2000 + 0 and 999 + 1001 refused: $out"
guest 1000 1000
printf '0 1000\n' >"$d.host/t.phases"
out=$(check_phases "$d" t) && fail "one phase of two passed: $out"
[ "$out" = "1 of 2 phases done" ] || fail "$out"
: >"$d.host/t.phases"
out=$(check_phases "$d" t) && fail "no phase passed: $out"
ok "a missing phase refused: $out"
printf '0 1000\n1 1000\n' >"$d.host/t.phases"
printf '{"queues": [{"queue": "0", "program": {"redirected": 1000}}, {"queue": 1, "program": {"redirected": "1000"}}]}\n' >"$d/t.json"
out=$(check_phases "$d" t) && fail "text counts passed: $out"
ok "counts as text in the guest's JSON refused: $out"
printf '0 1000 $(id)\n' >"$d.host/t.phases"
out=$(check_phases "$d" t) && fail "a bad phases line passed: $out"
ok "a phases line that is not two integers refused: $out"
rm -f "$d.host/t.phases"
echo "ethtool -X refused (Operation not supported)" >"$d.host/t.unphased"
guest 2000 0
out=$(check_phases "$d" t) || fail "unphased refused: $out"
[ "$out" = "per queue not asserted: ethtool -X refused (Operation not supported)" ] || fail "$out"
ok "no settable table: the split not asserted, said: $out"

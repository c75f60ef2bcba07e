#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# deploy/seccomp-allow-bpf.py (docs/operations.md, "Containers"): on a profile shaped like the
# runtimes' defaults (bpf() refused without CAP_SYS_ADMIN, allowed with it), the copy allows
# bpf() to everyone and keeps every other rule as it was; bad input is one line and exit 1.
# No root needed (test_container.sh runs a container under the profile it writes).
set -euo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
TOOL=$SRC/deploy/seccomp-allow-bpf.py
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cat >"$T/default.json" <<'EOJ'
{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
 {"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"},
 {"names": ["bpf", "perf_event_open"], "action": "SCMP_ACT_ALLOW",
  "includes": {"caps": ["CAP_SYS_ADMIN"]}},
 {"names": ["bpf", "perf_event_open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
  "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
 {"names": ["bpf"], "action": "SCMP_ACT_ERRNO", "comment": "bpf() alone, refused"}]}
EOJ
"$TOOL" "$T/default.json" "$T/out.json" || fail "the tool failed on a valid profile"
/usr/bin/python3 - "$T/out.json" <<'EOP' || fail "the profile written"
import json, sys
p = json.load(open(sys.argv[1]))
r = p["syscalls"]
assert p["defaultAction"] == "SCMP_ACT_ERRNO", p
# nothing refuses bpf() any more; one rule allows it unconditionally
assert not [x for x in r if "bpf" in x["names"] and x["action"] != "SCMP_ACT_ALLOW"], r
assert [x for x in r if x["names"] == ["bpf"] and x["action"] == "SCMP_ACT_ALLOW"
        and not x.get("includes") and not x.get("excludes")], r
# the other names keep their rules: perf_event_open still refused without CAP_SYS_ADMIN
assert {"names": ["perf_event_open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
        "excludes": {"caps": ["CAP_SYS_ADMIN"]}} in r, r
assert {"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"} in r, r
assert len(r) == 4, r  # the bpf-only refusal is gone, the allow rule added
EOP
echo "ok - bpf() allowed to every caller, every other rule kept"

bad() { # bad EXPECTED-LINE ARGS...: one line on stderr, exit 1, nothing written
	local err rc=0
	err=$("$TOOL" "${@:2}" 2>&1 >/dev/null) || rc=$?
	[ $rc = 1 ] || fail "exit $rc for ${*:2}"
	[ "$(grep -c . <<<"$err")" = 1 ] || fail "more than one line for ${*:2}: $err"
	grep -qF -e "$1" <<<"$err" || fail "for ${*:2}: '$err', not '$1'"
}
echo '{' >"$T/junk.json"
echo '{"a": 1}' >"$T/other.json"
bad "usage: seccomp-allow-bpf.py DEFAULT.json OUT.json"
bad "cannot read the profile $T/none.json" "$T/none.json" "$T/o.json"
bad "cannot read the profile $T/junk.json" "$T/junk.json" "$T/o.json"
bad "$T/other.json has no 'syscalls' list: not a seccomp profile" "$T/other.json" "$T/o.json"
bad "cannot write $T/no/o.json" "$T/default.json" "$T/no/o.json"
[ ! -e "$T/o.json" ] || fail "an output written on bad input"
echo "ok - bad input: one line each, exit 1"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# deploy/seccomp-allow-bpf.py (docs/operations.md, "Containers"): on a profile shaped like the
# runtimes' defaults (bpf() refused without CAP_SYS_ADMIN, allowed with it), the copy allows
# everyone the four bpf() commands a served app uses, by the first argument (OBJ_GET,
# OBJ_GET_INFO_BY_FD, MAP_UPDATE_ELEM, MAP_DELETE_ELEM), no other, and keeps every other rule
# as it was; bad input is one line and exit 1.
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
# nothing refuses bpf() by name any more (the default action does, for the other commands)
assert not [x for x in r if "bpf" in x["names"] and x["action"] != "SCMP_ACT_ALLOW"], r
# without CAP_SYS_ADMIN: exactly the served app's commands, each by its first argument
free = [x for x in r if "bpf" in x["names"] and not x.get("includes")]
cmds = []
for x in free:
    assert x["names"] == ["bpf"] and x["action"] == "SCMP_ACT_ALLOW", x
    assert len(x.get("args", [])) == 1, x  # never bpf() whatever its command
    a = x["args"][0]
    assert a["index"] == 0 and a["op"] == "SCMP_CMP_EQ", x
    cmds.append(a["value"])
# BPF_MAP_UPDATE_ELEM 2, BPF_MAP_DELETE_ELEM 3, BPF_OBJ_GET 7, BPF_OBJ_GET_INFO_BY_FD 15;
# not BPF_MAP_CREATE 0, BPF_MAP_LOOKUP_ELEM 1, BPF_PROG_LOAD 5, BPF_*_GET_FD_BY_ID 13/14 ...
assert sorted(cmds) == [2, 3, 7, 15], cmds
# the rule for callers with CAP_SYS_ADMIN is kept as it was
assert {"names": ["bpf", "perf_event_open"], "action": "SCMP_ACT_ALLOW",
        "includes": {"caps": ["CAP_SYS_ADMIN"]}} in r, r
# the other names keep their rules: perf_event_open still refused without CAP_SYS_ADMIN
assert {"names": ["perf_event_open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
        "excludes": {"caps": ["CAP_SYS_ADMIN"]}} in r, r
assert {"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"} in r, r
assert len(r) == 7, r  # the bpf-only refusal is gone, four allow rules added
EOP
echo "ok - bpf() OBJ_GET, OBJ_GET_INFO_BY_FD, MAP_UPDATE_ELEM, MAP_DELETE_ELEM allowed to every caller, no other command; every other rule kept"

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

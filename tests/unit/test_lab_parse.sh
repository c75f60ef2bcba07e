#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The kernel lab's reading of guest files (lab/parse.sh, issue 44): a file the guest
# wrote holding 'x[$(id>FILE)] 0 0' ran id as root on the host once its values went into
# $(( )). Here: that text in $(( )) does run a command (the attack is real; under lab/vm_lab.sh's
# set -u the unset x stops it, a set name such as PATH[...] does not), while lab_int,
# lab_ints and lab_json_int refuse it in one line naming the file, and FILE is never made;
# good numbers pass; a symlink is not read; lab_put writes only the host's message folder
# (the guest's read-only share), never the guest's. No root needed.
set -uo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$SRC/lab/parse.sh"

PWNED=$T/pwned
evil="x[\$(id>$PWNED)]"
printf '%s 0 0\n' "$evil" >"$T/counts"

# the attack, as the old host code did it (read, then arithmetic): a command runs
(set +u; read -r a _ _ <"$T/counts"; : $((a + 0))) 2>/dev/null
[ -e "$PWNED" ] || fail "the control case ran nothing: this test would prove nothing"
rm -f "$PWNED"
printf 'PATH[$(id>%s)] 0 0\n' "$PWNED" >"$T/counts-u"
(set -u; read -r a _ _ <"$T/counts-u"; : $((a + 0))) 2>/dev/null
[ -e "$PWNED" ] || fail "the control case under set -u ran nothing"
rm -f "$PWNED"
out=$(lab_ints "$T/counts-u" a c h) && fail "lab_ints took PATH[...]"
ok "control: '$evil' read into \$(( )) runs the command (PATH[...] under set -u too)"

out=$(lab_ints "$T/counts" a c h) && fail "lab_ints took '$evil'"
[ "$(grep -c . <<<"$out")" = 1 ] || fail "lab_ints: not one line: $out"
grep -qF "$T/counts holds 'x[\$(id>" <<<"$out" || fail "lab_ints: $out"
: $((${a:-0} + ${c:-0} + ${h:-0}))
out2=$(lab_int "$T/counts" 1) && fail "lab_int took '$evil'"
printf '{"sent": "%s"}\n' "$evil" >"$T/gen.json"
out3=$(lab_json_int "$T/gen.json" "d['sent']") && fail "lab_json_int took a string"
printf '{"sent": true}\n' >"$T/bool.json"
lab_json_int "$T/bool.json" "d['sent']" >/dev/null && fail "lab_json_int took a bool"
[ ! -e "$PWNED" ] || fail "$PWNED was made: the guest's text ran"
ok "refused in one line each, nothing ran: $out | $out2 | $out3"

for bad in "" " 1" "1 " "1  2" "+1" "-1" "0x10" "010" "1e3" "1.0" "$(printf '1\r')" "99999999999999999999" "a"; do
	printf '%s\n' "$bad" >"$T/v"
	lab_int "$T/v" >/dev/null && fail "lab_int took '$bad'"
done
ok "not decimal integers: empty, extra spaces, signs, 0x, leading zeros, exponents, CR, 20 digits, letters"

printf '12 0 345\n' >"$T/good"
lab_ints "$T/good" a c h || fail "lab_ints refused '12 0 345'"
[ "$a $c $h" = "12 0 345" ] || fail "lab_ints read '$a $c $h'"
[ "$(lab_int "$T/good" 3)" = 345 ] || fail "lab_int field 3"
printf '{"sent": 2000}\n' >"$T/gen.json"
[ "$(lab_json_int "$T/gen.json" "d['sent']")" = 2000 ] || fail "lab_json_int 2000"
ok "decimal integers read: 12 0 345, a JSON 2000"

echo 7 >"$T/target"
ln -s "$T/target" "$T/link"
lab_int "$T/link" >/dev/null && fail "lab_int read through a symlink"
mkdir "$T/run" "$T/run.host" "$T/run.msg"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/run/t.done"
echo 2000 | lab_put "$T/run" t.done || fail "lab_put"
[ "$(cat "$T/victim")" = precious ] && [ -L "$T/run/t.done" ] || fail "lab_put wrote into the guest's folder"
[ "$(cat "$T/run.msg/t.done")" = 2000 ] || fail "lab_put: $(ls -l "$T/run.msg")"
[ -z "$(ls "$T/run.host")" ] || fail "lab_put left a temporary file"
ok "a symlink is not read; lab_put writes to the host's message folder only (a symlink planted in the guest's folder not followed)"

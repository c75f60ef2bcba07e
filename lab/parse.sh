# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's reading of what the guest wrote (sourced by lab/vm_lab.sh, and by
# tests/unit/test_lab_parse.sh). The run folder is the guest's to write: every value the host
# takes from it is data, never code. Bash evaluates a variable's text again inside $(( )) and
# [[ -lt ]] (a file holding 'x[$(id>FILE)]' ran id as root on the host: issue 44), so every
# number is checked here as a strict decimal integer before any arithmetic sees it; anything
# else fails the test with one line naming the file.

# lab_is_int TEXT: TEXT is 0 or a decimal integer of at most 18 digits, no sign, no spaces
# (a pattern match: nothing in TEXT is expanded or evaluated)
lab_is_int() { [[ $1 =~ ^(0|[1-9][0-9]{0,17})$ ]]; }
# lab_is_ints LINE: integers as above, separated by single spaces, nothing else on the line
lab_is_ints() { [[ $1 =~ ^(0|[1-9][0-9]{0,17})( (0|[1-9][0-9]{0,17}))*$ ]]; }

# lab_say_bad WHAT TEXT: the one line of a value that is not a number (printable, 40 bytes)
lab_say_bad() {
	local t=${2:0:40}
	echo "$1 holds '${t//[^[:print:]]/?}', not a decimal integer"
}

# lab_int FILE [FIELD]: field FIELD (default 1) of the first line of FILE, a strict decimal
# integer, on stdout; else the line naming it, status 1
lab_int() {
	local f=$1 n=${2:-1} line= v
	local -a w=()
	[ -f "$f" ] && [ ! -L "$f" ] || { echo "$f: missing (or not a plain file)"; return 1; }
	IFS= read -r -n 256 line <"$f"
	lab_is_ints "$line" || { lab_say_bad "$f" "$line"; return 1; }
	read -r -a w <<<"$line"
	v=${w[n - 1]:-}
	lab_is_int "$v" || { lab_say_bad "$f (field $n)" "$v"; return 1; }
	echo "$v"
}

# lab_ints FILE VAR...: the first line's fields into VARs, each a strict decimal integer;
# else the line naming the first bad one, status 1 (the VARs then hold nothing of the file)
lab_ints() {
	local f=$1 line= i
	local -a w=()
	shift
	[ -f "$f" ] && [ ! -L "$f" ] || { echo "$f: missing (or not a plain file)"; return 1; }
	IFS= read -r -n 256 line <"$f"
	lab_is_ints "$line" || { lab_say_bad "$f" "$line"; return 1; }
	read -r -a w <<<"$line"
	for i in $(seq 1 $#); do
		lab_is_int "${w[i - 1]:-}" || { lab_say_bad "$f (field $i)" "${w[i - 1]:-}"; return 1; }
	done
	for i in $(seq 1 $#); do
		printf -v "${!i}" '%s' "${w[i - 1]}"
	done
}

# lab_json_int FILE EXPR: EXPR of the guest's JSON document d, which must be an integer
# (not a bool, a string or a float), on stdout; else the line naming it, status 1
lab_json_int() {
	local v
	v=$($PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2], {"d": d})
if type(v) is not int or v < 0:
    sys.exit(1)
print(v)' "$1" "$2" 2>/dev/null) && lab_is_int "$v" || { echo "$1: $2 is not a decimal integer"; return 1; }
	echo "$v"
}

# lab_put DIR NAME: stdin into DIR.msg/NAME, the folder of the host's messages to the guest
# (T.sent, T.done, T.go): exported to the guest read-only (QEMU's readonly=on, mounted at
# /lab/msg), so that nothing the guest does can change them or plant a link there. Made in
# DIR.host and renamed into place, so that the guest never reads half a file.
lab_put() {
	local tmp
	tmp=$(mktemp "$1.host/put.XXXXXX") || return 1
	if cat >"$tmp" && chmod 0644 "$tmp" && mv -fT -- "$tmp" "$1.msg/$2"; then
		return 0
	fi
	rm -f "$tmp"
	echo "vm-lab: cannot write $1.msg/$2" >&2
	return 1
}

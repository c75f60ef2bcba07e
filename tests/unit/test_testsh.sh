#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# scripts/test.sh runs every pass (build, asan, fuzz) whatever the ones before gave, and ends
# naming the passes that failed, with exit 1 (0 when all passed, 2 for a bad option). Run on a
# copy of the script whose meson, ninja, deps.sh and fuzz.sh are stubs that log their calls and
# fail where told: no build, no root needed.
set -euo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

mkdir -p "$T/tree/scripts" "$T/bin"
cp "$SRC/scripts/test.sh" "$T/tree/scripts/"
printf '#!/bin/sh\nexit 0\n' >"$T/tree/scripts/deps.sh"
# fuzz.sh --build-only: the fuzz pass's build step
printf '#!/bin/sh\necho "fuzz.sh $*" >>"$STUB_LOG"\nmkdir -p build-fuzz\n' >"$T/tree/scripts/fuzz.sh"
# id -u: root, so that the script does not re-run itself with sudo
printf '#!/bin/sh\necho 0\n' >"$T/bin/id"
# ninja -C DIR and meson test -C DIR ...: fail for the DIRs named in STUB_FAIL_NINJA and
# STUB_FAIL_TEST; meson setup DIR makes DIR
cat >"$T/bin/ninja" <<'EOS'
#!/bin/sh
echo "ninja $2" >>"$STUB_LOG"
case " $STUB_FAIL_NINJA " in *" $2 "*) exit 1 ;; esac
EOS
# (meson test -C build --suite lab is logged and failed as "build:lab")
cat >"$T/bin/meson" <<'EOS'
#!/bin/sh
case $1 in
setup) echo "meson setup $2" >>"$STUB_LOG"; mkdir -p "$2" ;;
test)
	k=$3
	case " $* " in *" --suite lab "*) k=$3:lab ;; esac
	echo "meson test $k" >>"$STUB_LOG"
	case " $STUB_FAIL_TEST " in *" $k "*) exit 1 ;; esac ;;
esac
EOS
chmod +x "$T"/tree/scripts/*.sh "$T"/bin/*

# run_case FAIL_NINJA FAIL_TEST [ARGS...]: test.sh's exit status in $rc, its output in $T/out
run_case() {
	rm -rf "$T"/tree/build* "$T/log"
	rc=0
	(cd "$T/tree" && PATH="$T/bin:$PATH" STUB_LOG="$T/log" STUB_FAIL_NINJA=$1 \
		STUB_FAIL_TEST=$2 scripts/test.sh "${@:3}") >"$T/out" 2>&1 || rc=$?
}
# ran WHAT: the stubs logged the call WHAT
ran() { grep -qx -- "$1" "$T/log"; }

run_case "" ""
[ $rc = 0 ] || fail "all passes passing: exit $rc"
grep -qx "all test suites passed" "$T/out" || fail "all passing: no closing line: $(cat "$T/out")"
for c in "meson test build" "meson test build:lab" "meson test build-asan" "fuzz.sh --build-only" "meson test build-fuzz"; do
	ran "$c" || fail "all passing: '$c' did not run"
done
echo "ok - every pass passing: all four ran (build, lab, asan, fuzz), exit 0"

run_case "" "build"
[ $rc = 1 ] || fail "a failing test in the first pass: exit $rc"
ran "meson test build-asan" || fail "a failing test in the first pass stopped the ASan pass"
ran "meson test build-fuzz" || fail "a failing test in the first pass stopped the fuzz round"
grep -qx "test: failed passes: build (the failing tests are above; logs in build\*/meson-logs/testlog.txt)" "$T/out" ||
	fail "the failed pass is not named: $(cat "$T/out")"
grep -q "all test suites passed" "$T/out" && fail "'all test suites passed' after a failure"
echo "ok - a failing test in the first pass: ASan and fuzz passes still ran, 'failed passes: build', exit 1"

run_case "build-asan" "build:lab build-fuzz"
[ $rc = 1 ] || fail "two failing passes: exit $rc"
ran "meson test build-asan" && fail "the ASan pass's tests ran after its build failed"
ran "meson test build-fuzz" || fail "the fuzz round did not run after the ASan build failed"
grep -q "^test: failed passes: lab asan fuzz " "$T/out" || fail "not all three named: $(cat "$T/out")"
echo "ok - the lab, the ASan build and the fuzz round failing: all three named, exit 1"

run_case "" "" --no-asan
[ $rc = 0 ] && ! ran "meson test build-asan" && ! ran "fuzz.sh --build-only" ||
	fail "--no-asan: exit $rc, or a second pass ran"
run_case "" "" --bogus
[ $rc = 2 ] || fail "an unknown option: exit $rc"
echo "ok - --no-asan runs one pass; an unknown option exits 2"

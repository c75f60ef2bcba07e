#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The whole test suite, from a fresh machine: install packages, build (warnings are errors),
# run every suite (unit, bpf, integration; the kernel lab once), then build again with ASan/UBSan and run it again,
# then the fuzz targets for a short run each (suite 'fuzz', in build-fuzz: clang + libFuzzer).
# Every pass runs, whatever the ones before it gave: a failing test of the first pass does not
# hide what ASan or the fuzzers would find. The script ends with the list of passes that
# failed (exit 1), or "all test suites passed" (exit 0).
# Root tests (bpf, integration) need root: as a user, the script re-runs itself with sudo.
#
#   scripts/test.sh            # everything (as root)
#   scripts/test.sh --no-asan  # one pass only (and no fuzzing)
#   scripts/test.sh --no-fuzz  # both passes, without the fuzz build
#   scripts/test.sh --load     # the same with CPU 0 kept busy by a spinning process, to show
#                              # that no test depends on the machine's speed
set -euo pipefail
cd "$(dirname "$0")/.."
asan=1
fuzz=1
load=0
for a in "$@"; do
	case "$a" in
	--no-asan)
		asan=0
		fuzz=0
		;;
	--no-fuzz) fuzz=0 ;;
	--load) load=1 ;;
	*)
		echo "test: unknown option '$a' (expected --no-asan, --no-fuzz, --load)" >&2
		exit 2
		;;
	esac
done
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null && exec sudo "$0" "$@"
	echo "test: run as root (the tests make network namespaces and attach XDP programs)" >&2
	exit 1
fi
scripts/deps.sh

if [ $load = 1 ]; then
	# a busy loop pinned to CPU 0, stopped on exit whatever happens
	taskset -c 0 /bin/bash -c 'while :; do :; done' &
	spinner=$!
	trap 'kill $spinner 2>/dev/null || true' EXIT
	echo "test: CPU 0 kept busy by pid $spinner"
fi

# run DIR [MESON_SETUP_ARGS...]: set up (once), build and test one pass; 1 when any step fails.
# (Called in a condition, where set -e is off: each step says itself when it failed.)
run() {
	local dir=$1
	shift
	if [ ! -d "$dir" ]; then
		meson setup "$dir" "$@" >/dev/null || return 1
	fi
	ninja -C "$dir" || return 1
	# one test at a time where tests say so; the suite names are unit, bpf, integration
	meson test -C "$dir" --print-errorlogs --num-processes 2 --no-suite perf
}

# each pass that failed, by name: build, lab, asan, fuzz
failed=()
run build || failed+=(build)
# the kernel lab once (lab/vm_lab.sh: Debian's kernels under QEMU; exit 77, skipped, where
# the machine cannot run it)
meson test -C build --print-errorlogs --suite lab || failed+=(lab)
# a skipped lab says why in one line (meson shows only SKIP)
grep -h -m1 '^vm-lab: skipped: ' build/meson-logs/testlog.txt 2>/dev/null | sed 's/^/test: /' || true
if [ $asan = 1 ]; then
	# detect_leaks stays on; UBSan findings abort so they fail the test
	export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	run build-asan -Db_sanitize=address,undefined -Db_lundef=false || failed+=(asan)
fi
if [ $fuzz = 1 ]; then
	# a build of its own (clang, -Dfuzz=true), set up by scripts/fuzz.sh; each target runs
	# 20000 inputs from its seeds, one target at a time
	{ scripts/fuzz.sh --build-only && meson test -C build-fuzz --print-errorlogs --suite fuzz; } ||
		failed+=(fuzz)
fi
if [ ${#failed[@]} != 0 ]; then
	echo "test: failed passes: ${failed[*]} (the failing tests are above; logs in" \
		"build*/meson-logs/testlog.txt)" >&2
	exit 1
fi
echo "all test suites passed"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The whole test suite, from a fresh machine: install packages, build (warnings are errors),
# run every suite (unit, bpf, integration), then build again with ASan/UBSan and run it again.
# Root tests (bpf, integration) skip with status 77 when not run as root.
#
#   sudo scripts/test.sh            # everything
#   sudo scripts/test.sh --no-asan  # one pass only
set -euo pipefail
cd "$(dirname "$0")/.."
asan=1
[ "${1:-}" = --no-asan ] && asan=0
[ "$(id -u)" = 0 ] && scripts/deps.sh

run() {
	local dir=$1
	shift
	[ -d "$dir" ] || meson setup "$dir" "$@" >/dev/null
	ninja -C "$dir"
	# one test at a time where tests say so; the suite names are unit, bpf, integration
	meson test -C "$dir" --print-errorlogs --num-processes 2 --no-suite perf
}

run build
if [ $asan = 1 ]; then
	# detect_leaks stays on; UBSan findings abort so they fail the test
	export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	run build-asan -Db_sanitize=address,undefined -Db_lundef=false
fi
echo "all test suites passed"

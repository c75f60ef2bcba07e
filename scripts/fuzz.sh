#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Run the libFuzzer targets of tests/fuzz, one at a time, each over a copy of its seeds
# (tests/fuzz/corpus/TARGET, left as it is) with its dictionary (tests/fuzz/dict/TARGET.dict).
#
#   scripts/fuzz.sh [SECONDS | --runs N] [--build DIR] [TARGET...]
#   scripts/fuzz.sh --build-only
#
#   SECONDS      how long each target runs (default 60)
#   --runs N     run each target for N executions instead
#   --build DIR  use the fuzz targets already built in DIR; skip (exit 77) if there are none.
#                Without it, the script sets up and builds build-fuzz (clang, -Dfuzz=true,
#                ASan + UBSan) when needed.
#   --build-only set up and build build-fuzz, run nothing (scripts/test.sh, before its
#                `meson test -C build-fuzz --suite fuzz`)
#   TARGET       fuzz_hints, fuzz_cli, ... (default: every target built)
#
# Prints, per target: executions, executions per second, coverage (libFuzzer's cov: edges and
# ft: features) and the corpus it ended with. Fails (exit 1) on any crash, leak, timeout, OOM
# or broken property, and keeps the input that did it under DIR/fuzz-artifacts/TARGET/.
# Extra libFuzzer flags: XSKF_FUZZ_ARGS="-max_len=8192 ...".
set -euo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRC"

secs=60
runs=
build=
build_only=0
targets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--runs)
		runs=${2:?--runs needs a number}
		shift
		;;
	--build)
		build=${2:?--build needs a directory}
		shift
		;;
	--build-only) build_only=1 ;;
	-h | --help)
		sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "fuzz: unknown option '$1'" >&2
		exit 2
		;;
	*)
		if [[ $1 =~ ^[0-9]+$ ]]; then
			secs=$1
		else
			targets+=("$1")
		fi
		;;
	esac
	shift
done
if [ -n "$runs" ] && ! [[ $runs =~ ^[0-9]+$ ]]; then
	echo "fuzz: --runs '$runs' is not a number" >&2
	exit 2
fi

if [ -n "$build" ]; then
	# from the test suite: the targets are built, or this build has none
	if ! ls "$build"/tests/fuzz/fuzz_* >/dev/null 2>&1; then
		echo "SKIP: no fuzz targets in $build: they need clang with libFuzzer (libclang-rt-14-dev)" \
			"and a build of their own: scripts/fuzz.sh sets up build-fuzz"
		exit 77
	fi
else
	build=build-fuzz
	if [ ! -d "$build" ]; then
		command -v clang >/dev/null || {
			echo "fuzz: clang is needed (scripts/deps.sh installs it)" >&2
			exit 1
		}
		# detect_leaks and the rest as the ASan build of scripts/test.sh
		CC=clang meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined \
			-Db_lundef=false >/dev/null
	fi
	ninja -C "$build" >/dev/null
	ls "$build"/tests/fuzz/fuzz_* >/dev/null 2>&1 || {
		echo "fuzz: no fuzz targets were built in $build (see the warnings of meson setup)" >&2
		exit 1
	}
fi
build=$(cd "$build" && pwd)
[ $build_only = 1 ] && exit 0

if [ ${#targets[@]} = 0 ]; then
	for b in "$build"/tests/fuzz/fuzz_*; do
		[ -x "$b" ] && [ -f "$b" ] && targets+=("$(basename "$b")")
	done
fi

work=$(mktemp -d /tmp/xskf-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
# UBSan findings abort, so that they are crashes; leaks are findings too
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}

failed=0
summary=()
for t in "${targets[@]}"; do
	bin=$build/tests/fuzz/$t
	seeds=$SRC/tests/fuzz/corpus/$t
	if [ ! -x "$bin" ]; then
		echo "fuzz: no target '$t' in $build/tests/fuzz" >&2
		exit 2
	fi
	mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
	[ -d "$seeds" ] && cp "$seeds"/* "$work/$t/corpus/" 2>/dev/null || true
	args=(-print_final_stats=1 -close_fd_mask=3 -timeout=10 -rss_limit_mb=2048
		-artifact_prefix="$work/$t/artifacts/")
	[ -f "$SRC/tests/fuzz/dict/$t.dict" ] && args+=(-dict="$SRC/tests/fuzz/dict/$t.dict")
	if [ -n "$runs" ]; then
		args+=(-runs="$runs")
	else
		args+=(-max_total_time="$secs")
	fi
	# shellcheck disable=SC2206 # the extra flags are words on purpose
	args+=(${XSKF_FUZZ_ARGS:-})
	log=$work/$t/log
	rc=0
	"$bin" "${args[@]}" "$work/$t/corpus" </dev/null >"$log" 2>&1 || rc=$?

	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\)\/\([0-9a-zA-Z]*\).*/\1 inputs, \2/p' <<<"$last")
	line=$(printf '%-20s %10s execs %8s exec/s  cov %5s  ft %6s  corpus %s' "$t" "${execs:-?}" \
		"${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}")
	found=$(ls "$work/$t/artifacts" 2>/dev/null || true)
	if [ $rc != 0 ] || [ -n "$found" ]; then
		failed=1
		keep=$build/fuzz-artifacts/$t
		rm -rf "$keep" # the findings of this run only
		mkdir -p "$keep"
		cp "$log" "$keep/log"
		echo "FAIL $line (exit $rc)"
		grep -E 'ERROR: |property failed|SUMMARY: |runtime error' "$log" | head -5 | sed 's/^/    /'
		for a in $found; do
			cp "$work/$t/artifacts/$a" "$keep/"
			echo "    input: $keep/$a (reproduce: $bin $keep/$a)"
		done
		echo "    log: $keep/log"
		summary+=("FAIL $line")
	else
		echo "ok   $line"
		summary+=("ok   $line")
	fi
done
if [ ${#summary[@]} -gt 1 ]; then
	echo "--"
	printf '%s\n' "${summary[@]}"
fi
exit $failed

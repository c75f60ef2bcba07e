#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Every command the suite runs is there, and scripts/deps.sh knows where each comes from:
#  1. `scripts/deps.sh --check` passes: a missing command fails this test with its package named;
#  2. negative control: with an empty PATH the check fails and names every command's package;
#  3. every command of a known list that a test, script or benchmark uses is in deps.sh's table.
# No root needed.
set -euo pipefail
SRC=${XSKF_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
DEPS=$SRC/scripts/deps.sh
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$DEPS" --check) || fail "missing commands: $out"
echo "ok - every command of the test suite is installed"

# command:package pairs of the table in deps.sh
pairs=$(sed -n '/^\(CMDS\|BENCH_CMDS\)=(/,/)/p' "$DEPS" | grep -oE '[A-Za-z0-9/_.-]+:[a-z0-9.+-]+')
[ -n "$pairs" ] || fail "no command:package table found in $DEPS"
neg=$(PATH=/nonexistent /bin/bash "$DEPS" --check bench) && fail "--check passed with an empty PATH"
for p in $pairs; do
	[[ $p == /* ]] && continue # an absolute path does not depend on PATH
	grep -qF "missing command '${p%%:*}' (package ${p#*:})" <<<"$neg" ||
		fail "--check with an empty PATH did not name '${p%%:*}' (package ${p#*:})"
done
echo "ok - with an empty PATH --check names all $(wc -w <<<"$pairs") commands and their packages"

# Commands that do not come with a minimal Debian (or come from a package that may be absent).
known="ping tcpdump ethtool stress-ng valgrind dpdk-testpmd bpftool clang scdoc
	taskset setpriv ss numactl hugeadm strace nc socat readelf systemd-analyze iperf3 tshark capinfos curl promtool jq bc podman runc meson ninja pkg-config sysctl cc"
cmds=" $(for p in $pairs; do printf '%s ' "${p%%:*}"; done)"
# the lines of every test, script and benchmark, without comment lines
used=$(grep -rh --include='*.sh' --include='*.py' --include='meson.build' \
	--exclude=deps.sh --exclude=test_deps.sh -v -E '^\s*#' "$SRC/tests" "$SRC/scripts" \
	"$SRC/bench" "$SRC/lab" "$SRC/tools")
[ -n "$used" ] || fail "no test or script found under $SRC"
for c in $known; do
	grep -qwF -e "$c" <<<"$used" || continue
	[[ $cmds == *" $c "* ]] || fail "'$c' is used by tests or scripts but scripts/deps.sh does not install it"
done
echo "ok - every known command used by tests and scripts is in scripts/deps.sh"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The systemd unit (systemd/xskf@.service.in, docs/operations.md), as installed:
#  1. `meson install` puts xskf@.service and xskf.conf.example into the prefix;
#     `systemd-analyze verify` finds nothing to say about an instance of it (every key known,
#     the ExecStart binary there), and `systemd-analyze security --offline` rates it;
#  2. where PID 1 is systemd, it would be started, stopped and restarted; elsewhere (this VM)
#     that part is skipped, said so, and what systemd would do is done by hand instead, on the
#     veth bed, with the instance's own configuration file: ExecStart with the file's
#     variables, then KillSignal (SIGTERM) -> exit 0, summary, nothing attached, no socket;
#     a SIGKILL (what Restart=on-failure recovers from) -> the restarted run replaces the
#     program the killed one left, and stops cleanly.
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
command -v systemd-analyze >/dev/null || skip "no systemd-analyze (package systemd)"
dest=$(mktemp -d)
at_exit 'rm -rf "$dest"' # tb_up adds the bed's clean-up (at_exit: a trap set here would be replaced)

meson install -C "$B" --destdir "$dest/root" --no-rebuild --quiet >"$dest/install.log" 2>&1 ||
	{ cat "$dest/install.log"; fail "meson install into a DESTDIR failed"; }
unit=$(find "$dest/root" -path '*/lib/systemd/system/xskf@.service' | head -1)
conf=$(find "$dest/root" -path '*/doc/xskf/xskf.conf.example' | head -1)
[ -n "$unit" ] && [ -n "$conf" ] || fail "no xskf@.service or xskf.conf.example in the install"
prefix=$(sed -n 's|^ExecStart=\(.*\)/bin/xskf run .*|\1|p' "$unit")
[ -n "$prefix" ] || fail "ExecStart is not '<prefix>/bin/xskf run ...': $(grep ExecStart "$unit")"
grep -q "^EnvironmentFile=$prefix/etc/xskf/%i.conf$" "$unit" || fail "EnvironmentFile: $(grep EnvironmentFile "$unit")"
ok "installed: $(realpath --relative-to="$dest/root" "$unit"), $(realpath --relative-to="$dest/root" "$conf")"

# verify an instance whose paths point into the DESTDIR (the binary must exist for verify)
mkdir -p "$dest/v"
sed "s|$prefix|$dest/root$prefix|g" "$unit" >"$dest/v/xskf@t.service"
systemd-analyze verify --man=no "$dest/v/xskf@t.service" >"$dest/verify" 2>&1 ||
	{ cat "$dest/verify"; fail "systemd-analyze verify failed"; }
[ ! -s "$dest/verify" ] || { cat "$dest/verify"; fail "systemd-analyze verify has something to say"; }
score=$(systemd-analyze security --offline=yes "$dest/v/xskf@t.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]* [A-Z]*\).*/\1/p')
[ -n "$score" ] || fail "systemd-analyze security gave no exposure level"
ok "systemd-analyze verify: nothing to say; security --offline: exposure $score"

if [ "$(ps -p 1 -o comm=)" = systemd ]; then
	echo "# PID 1 is systemd, but starting a unit of the machine is left to docs/operations.md"
fi
echo "# start/stop/restart through systemctl skipped: PID 1 is '$(ps -p 1 -o comm=)', not systemd; done by hand below"

# By hand, what the unit does: the instance's file, read as systemd reads an EnvironmentFile
tb_up "xv$$"
printf 'XSKF_PLUGINS=rxdrop\nXSKF_ARGS=-i %s -q 0 -c --quiet\n' "$TB_IF_DUT" >"$dest/t.conf"
export XSKF_CTL_DIR=$dest/ctl
xbin=$dest/root$prefix/bin/xskf
# installed for real, xskf finds its plugins in <libdir>/xskf/plugins; in a DESTDIR, not
XSKF_PLUGIN_PATH=$(dirname "$(find "$dest/root" -path '*/xskf/plugins/rxdrop.so' | head -1)")
export XSKF_PLUGIN_PATH
start() { # start LOG: ExecStart, with the file's variables as systemd expands them
	local XSKF_PLUGINS XSKF_ARGS
	eval "$(grep -E '^XSKF_(PLUGINS|ARGS)=' "$dest/t.conf" | sed "s/=\(.*\)/='\1'/")"
	# ${XSKF_PLUGINS} is one word, $XSKF_ARGS split at spaces: as in ExecStart
	# shellcheck disable=SC2086
	ip netns exec "$TB_NS_DUT" "$xbin" run "${XSKF_PLUGINS}" $XSKF_ARGS >"$1" 2>&1 &
	pid=$!
	if ! (wait_for "attach by the instance" grep -q "XDP program attached" "$1"); then
		cat "$1"
		exit 1
	fi
}
start "$dest/run1.log"
kill -TERM $pid
wait $pid || { cat "$dest/run1.log"; fail "the instance did not exit 0 on SIGTERM (KillSignal)"; }
grep -q "^--- rxdrop: " "$dest/run1.log" || { cat "$dest/run1.log"; fail "no summary at stop"; }
assert_no_xdp "after the stop"
[ -z "$(ls "$XSKF_CTL_DIR" 2>/dev/null)" ] || fail "socket left: $(ls "$XSKF_CTL_DIR")"
ok "stop (SIGTERM): exit 0, summary, program detached, socket removed"
start "$dest/run2.log"
kill -KILL $pid
wait $pid 2>/dev/null
[ -n "$(xdp_attached)" ] || fail "a SIGKILLed run should leave its program"
start "$dest/run3.log"
grep -q "replacing XDP program .* left by a killed xskf run" "$dest/run3.log" ||
	{ cat "$dest/run3.log"; fail "the restart did not say it replaced the killed run's program"; }
kill -TERM $pid
wait $pid || { cat "$dest/run3.log"; fail "the restarted instance did not stop cleanly"; }
assert_no_xdp "after the restarted run"
ok "restart after SIGKILL (Restart=on-failure): the stale program replaced, then a clean stop"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Least privilege (framework/core/privs.c, docs/reliability.md "Least privilege"): once a root
# serving xsk-rxdrop (queue 0 its own, queue 1 served on a device-plugin socket) is set up,
# /proc/PID/task/TID/status shows:
#   the control thread  uid and gid 0 (real, effective, saved, fs), CAP_NET_ADMIN only
#                       (effective, permitted, bounding; inheritable none)
#   the workers (xskf-w*) uid and gid 0 (real, effective, saved) but 65534 (nobody) on the
#                       filesystem, no supplementary group, no capability at all; the process
#                       stays dumpable (another run reads its /proc/PID/fdinfo)
# With that, a client of the device-plugin socket is still served its XSKMAP, the run counts
# 1000 frames exactly and detaches at exit; a worker that crashes (SIGSEGV to that thread) has
# the program detached by the control thread on its behalf. Where the program went into
# libxdp's dispatcher (a kernel that takes freplace programs: not this project's test machine),
# the control thread keeps CAP_BPF and CAP_SYS_ADMIN too, for libxdp's detach (xdp.c).
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
tb_up_out "xp$$"
NET_ADMIN=0000000000001000 # 1 << CAP_NET_ADMIN (12)
DISP=0000008000201000      # and CAP_SYS_ADMIN (21), CAP_BPF (39)
NONE=0000000000000000
SOCK=$out/dp.sock

# start_run: the serving run; pid, ctrl (the control thread's expected sets)
start_run() {
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 --serve 1 --serve-uds "$SOCK" -c \
		--cpus 1 --json --quiet >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_line "$out/rx.err" "device-plugin socket $SOCK"
	return 0
}
# ctrl_want: the control thread's expected sets (and every thread's not named xskf-w*), by what
# the run said (the line of the drop comes after set-up: read at each look)
ctrl_want() {
	ctrl=$NET_ADMIN
	grep -q "attached in native mode through libxdp's dispatcher" "$out/rx.err" && ctrl=$DISP
	# the probe table's bpf_nocap refused (before 6.5) or forced off: the same two kept, said
	grep -q "^xskf: the control thread keeps CAP_BPF and CAP_SYS_ADMIN after set-up" "$out/rx.err" &&
		ctrl=$DISP
	return 0
}
# caps_dropped: every thread of $pid holds what it should, uid 0 in all four places, and a
# worker runs (sets bad, workers). The workers drop theirs as they start: waited for.
caps_dropped() {
	local t f want
	bad=0 workers=0
	ctrl_want
	for t in /proc/$pid/task/*; do
		want=$ctrl id="0 0 0 0" groups=
		if [[ $(cat "$t/comm") == xskf-w* ]]; then
			workers=$((workers + 1)) want=$NONE id="0 0 0 65534"
		else
			groups=$(awk '$1 == "Groups:" { $1 = ""; print }' /proc/self/status)
		fi
		for f in CapEff CapPrm CapBnd; do
			[ "$(awk -v f="$f:" '$1 == f { print $2 }' "$t/status")" = $want ] || bad=1
		done
		[ "$(awk '$1 == "CapInh:" { print $2 }' "$t/status")" = $NONE ] || bad=1
		[ "$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' "$t/status")" = "$id" ] || bad=1
		[ "$(awk '$1 == "Gid:" { print $2, $3, $4, $5 }' "$t/status")" = "$id" ] || bad=1
		# the workers none; the others the groups they were started with (this shell's)
		[ "$(awk '$1 == "Groups:" { $1 = ""; print }' "$t/status")" = "$groups" ] || bad=1
	done
	[ $bad = 0 ] && [ $workers -ge 1 ]
}

start_run
wait_until "$WAIT_S" caps_dropped || true # the lines below say which thread, if any
for t in /proc/$pid/task/*; do
	echo "$(cat "$t/comm"): $(grep -E '^(Uid|Gid|Groups|Cap(Inh|Eff|Prm|Bnd))' "$t/status" | tr '\n\t' '  ')"
done
[ $workers -ge 1 ] || fail "no worker thread named xskf-w*"
[ $bad = 0 ] || fail "a thread holds other than uid 0 with CAP_NET_ADMIN (control thread$([ $ctrl = $NET_ADMIN ] || echo ", and CAP_BPF, CAP_SYS_ADMIN")) or filesystem uid 65534 with nothing (workers)"
ok "the control thread uid 0 with CAP_NET_ADMIN only$([ $ctrl = $NET_ADMIN ] || echo " (and CAP_BPF, CAP_SYS_ADMIN: libxdp's dispatcher, or bpf() refused without them)"); the workers filesystem uid and gid 65534, no group, no capability"

# another run's control thread (uid 0, CAP_NET_ADMIN alone) tells a live owner by its fdinfo
# (share_owner.c): the workers' filesystem ids must not leave the process undumpable
[ "$(setpriv --inh-caps=-all --bounding-set=-all,+net_admin -- ls "/proc/$pid/fdinfo" 2>&1 | grep -c .)" -gt 2 ] ||
	fail "a thread with CAP_NET_ADMIN alone cannot read /proc/$pid/fdinfo: $(setpriv --inh-caps=-all --bounding-set=-all,+net_admin -- ls "/proc/$pid/fdinfo" 2>&1 | head -1)"
ok "the process stays dumpable: a thread of uid 0 with CAP_NET_ADMIN alone reads its fdinfo"

# the control thread serves the device-plugin socket with what it kept
$PY "$S/tests/integration/dp_uds_client.py" "$SOCK" "$TB_IF_DUT" --served-within 1.0 >"$out/dp.out" 2>&1 ||
	{ cat "$out/dp.out"; fail "the device-plugin socket's client was not served"; }
ok "with those: a device-plugin client $(sed 's/^ok - //' "$out/dp.out")"

gen "$GEN" -i "$TB_IF_GEN" -n 1000 --cpus 0 --resend --json >"$out/gen.json" || fail "generator"
wait_for "1000 frames at the XDP program of queue 0" ge q0_xdp 1000
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc = 0 ] || { cat "$out/rx.err"; fail "exit $rc"; }
[ "$(json_get "$out/rx.json" "d['queues'][0]['rx_packets'] + d['queues'][0]['kernel']['rx_dropped']")" = 1000 ] ||
	fail "not 1000 frames counted: $(json_get "$out/rx.json" "d['queues'][0]")"
[ "$(json_get "$out/rx.json" "d['queues'][0]['program']['redirected']")" = 1000 ] ||
	fail "program counters not readable after the drop"
assert_no_xdp "after a run with dropped capabilities"
ok "with those: 1000 frames counted, program counters read, program detached"

# a worker crashes: it holds no CAP_NET_ADMIN, so the control thread detaches for it
start_run
wait_until "$WAIT_S" caps_dropped || fail "capabilities not dropped in the second run"
w=$(for t in /proc/$pid/task/*; do [[ $(cat "$t/comm") == xskf-w* ]] && basename "$t"; done | head -1)
$PY -c 'import ctypes, sys; ctypes.CDLL(None, use_errno=True).syscall(234, int(sys.argv[1]), int(sys.argv[2]), 11) == 0 or sys.exit("tgkill")' \
	"$pid" "$w" || fail "cannot signal worker $w" # 234: tgkill on x86_64
rc=0
wait $pid || rc=$?
[ $rc = $((128 + 11)) ] || { cat "$out/rx.err"; fail "the run exited $rc after a worker's SIGSEGV, not 139"; }
assert_no_xdp "after a worker's crash"
[ ! -e "$SOCK" ] || fail "the device-plugin socket left after a worker's crash"
ok "a worker's SIGSEGV: the control thread detached the program for it; the socket removed"

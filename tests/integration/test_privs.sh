#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Least privilege (framework/core/privs.c): once xsk-rxdrop is set up, every thread (control thread
# and workers, found by their names xskf-w*) holds CAP_NET_ADMIN only, in its effective,
# permitted and bounding sets, as /proc/PID/task/TID/status shows; and with only that it still
# counts 1000 frames exactly and detaches its program at exit. Where the program went into
# libxdp's dispatcher (a kernel that takes freplace programs: not this project's test machine),
# the control thread keeps CAP_BPF and CAP_SYS_ADMIN too, for libxdp's detach (xdp.c).
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
tb_up_out "xp$$"
NET_ADMIN=0000000000001000 # 1 << CAP_NET_ADMIN (12)
DISP=0000008000201000      # and CAP_SYS_ADMIN (21), CAP_BPF (39)

ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 -c --cpus 1 --json --quiet \
	>"$out/rx.json" 2>"$out/rx.err" &
pid=$!
wait_line "$out/rx.err" "XDP program attached"
ctrl=$NET_ADMIN # the control thread's (and every thread's not named xskf-w*)
grep -q "attached in native mode through libxdp's dispatcher" "$out/rx.err" && ctrl=$DISP
# the workers drop theirs as they start: wait until every thread has
# caps_dropped: every thread of $pid holds CAP_NET_ADMIN only, and a worker runs (sets bad,
# workers)
caps_dropped() {
	local t f
	bad=0 workers=0
	for t in /proc/$pid/task/*; do
		want=$ctrl
		[[ $(cat "$t/comm") == xskf-w* ]] && workers=$((workers + 1)) want=$NET_ADMIN
		for f in CapEff CapPrm CapBnd; do
			[ "$(awk -v f="$f:" '$1 == f { print $2 }' "$t/status")" = $want ] || bad=1
		done
	done
	[ $bad = 0 ] && [ $workers -ge 1 ]
}
wait_until "$WAIT_S" caps_dropped || true # the lines below say which thread, if any
for t in /proc/$pid/task/*; do
	echo "$(cat "$t/comm"): $(grep -E '^Cap(Eff|Prm|Bnd)' "$t/status" | tr '\n\t' '  ')"
done
[ $workers -ge 1 ] || fail "no worker thread named xskf-w*"
[ $bad = 0 ] || fail "a thread holds more (or less) than CAP_NET_ADMIN$([ $ctrl = $NET_ADMIN ] || echo " (the control thread: and CAP_BPF, CAP_SYS_ADMIN)")"
ok "every thread holds CAP_NET_ADMIN only$([ $ctrl = $NET_ADMIN ] || echo ", the control thread CAP_BPF and CAP_SYS_ADMIN too (libxdp's dispatcher)")"

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
ok "with CAP_NET_ADMIN only: 1000 frames counted, program counters read, program detached"

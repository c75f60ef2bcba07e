#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Idle workers (--idle, docs/idle.md) on the veth test bed:
#   test_idle.sh cpu     - no traffic for 10 s: an adaptive worker uses at most 1% of a CPU
#                          (/proc/PID/task/TID/stat), a busy one beside it, on a second veth pair of the
#                          same namespace, uses what the scheduler gives it; the JSON says so
#   test_idle.sh sigint  - SIGINT while the worker is asleep in poll(): it exits (bounded wait),
#                          status 0, its program detached
#   test_idle.sh bursts  - 3000 bursts of 1-8 frames, each sent to a worker asleep in its wait: every
#                          frame the generator's interface sent is received, the counters
#                          reconcile, the census adds up, and the worker slept between bursts
#   test_idle.sh epoll-sigint, epoll-bursts, epoll-txpaced, epoll-lost - the same through the epoll wait (the one -B uses
#                          on zero-copy sockets; XSKF_IDLE_EPOLL=1 forces it on veth, where
#                          EPIOCSPARAMS is taken and nothing is busy polled): the worker sleeps in
#                          epoll_wait(), the start line says so
#   test_idle.sh lost    - rings of 256, the worker asleep in poll() then stopped (SIGSTOP), a
#                          burst of 5000: received + the kernel's drops = sent, and the drops are
#                          the worker's lost_asleep (frames lost while it slept)
#   test_idle.sh txpaced - xsk-txgen --rate 2000 --count 1000: a paced generator sleeps between
#                          its frames (1 ms at most) and still sends exactly --count
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up_out "xi$$"
HZ=$(getconf CLK_TCK)

# ticks PID: user + system CPU ticks of the whole process (every thread)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# wticks PID: those of its worker thread (xskf-w0) alone
wticks() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = xskf-w0 ] && { awk '{ print $14 + $15 }' "$t/stat"; return; }
	done
	echo "no worker thread in pid $1" >&2
	return 1
}

# worker_in PID STATE: its worker thread (xskf-w0) is in STATE of /proc/TID/stat (S: an
# interruptible sleep; T: stopped by SIGSTOP)
worker_in() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = xskf-w0 ] || continue
		[ "$(awk '{ print $3 }' "$t/stat")" = "$2" ] && return 0
	done
	return 1
}
worker_asleep() { worker_in "$1" S; }

# in_epoll PID: worker thread xskf-w0 sleeps in epoll_wait() or epoll_pwait() (x86_64 numbers
# 232, 281, 441 in /proc/TID/syscall), not in poll()
in_epoll() {
	local t n
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = xskf-w0 ] || continue
		n=$(awk '{ print $1 }' "$t/syscall" 2>/dev/null)
		case $n in 232 | 281 | 441) return 0 ;; esac
	done
	return 1
}
# EPOLL=1: the cases run through the epoll wait
EPOLL=0
case $case_name in epoll-*) EPOLL=1 case_name=${case_name#epoll-} ;; esac
export XSKF_IDLE_EPOLL=$EPOLL
# check_epoll PID ERRFILE: with EPOLL=1, the start line and the worker's sleep say epoll
check_epoll() {
	[ $EPOLL = 1 ] || return 0
	grep -q "the idle wait is epoll_wait(), forced by XSKF_IDLE_EPOLL=1" "$2" ||
		{ cat "$2"; fail "no epoll wait in the start line"; }
	WAIT_SHOW=$2 wait_for "worker asleep in epoll_wait()" in_epoll $1
}

# idle_of FILE WHAT: a member of worker 0's entry of the JSON's "workers"
idle_of() { json_get "$1" "d['workers'][0]['$2']"; }

run_cpu() {
	local a b ta0 tb0 ta1 tb1 pa0 pa1 t0 t1 pa pb pp ms
	# a second bed in the dut namespace: the busy worker's, so that both run at the same time
	dut ip link add xia$$ type veth peer name xib$$ || fail "second veth pair"
	dut ip link set xia$$ up
	dut ip link set xib$$ up
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --idle adaptive --cpus 0 --quiet \
		--json >"$out/a.json" 2>"$out/a.err" &
	a=$!
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i xia$$ --idle busy --cpus 1 --quiet --json \
		>"$out/b.json" 2>"$out/b.err" &
	b=$!
	wait_for "control socket of the adaptive run" ctl_up $a
	wait_for "control socket of the busy run" ctl_up $b
	grep -q "idle adaptive: .*sleep in poll() after 50 us" "$out/a.err" || fail "no idle line"
	grep -q "kernel help: none: .*these sockets have no NAPI ID" "$out/a.err" ||
		fail "no line on the kernel's help"
	# the worker is what sleeps; the process adds its control thread's tick (50 ms; the ports
	# are looked at every 250 ms)
	ta0=$(wticks $a) tb0=$(wticks $b) pa0=$(ticks $a) t0=$(date +%s%N)
	sleep 10 # the measurement window, not a synchronisation
	ta1=$(wticks $a) tb1=$(wticks $b) pa1=$(ticks $a) t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	pct() { $PY -c "print('%.2f' % (100.0 * $1 / $HZ * 1000 / $ms))"; }
	pa=$(pct $((ta1 - ta0))) pb=$(pct $((tb1 - tb0))) pp=$(pct $((pa1 - pa0)))
	stop_run $a || fail "adaptive run exited $?"
	stop_run $b || fail "busy run exited $?"
	echo "# $ms ms without traffic: adaptive worker $pa% of a CPU ($((ta1 - ta0)) ticks; its whole process $pp%), busy worker $pb% ($((tb1 - tb0)) ticks)"
	$PY -c "import sys; sys.exit(0 if $pa <= 1.0 else 1)" || fail "adaptive worker used $pa% of a CPU (at most 1%)"
	# busy polls whatever the machine's load: it gets far more than the sleeping run
	[ $((tb1 - tb0)) -gt $((10 * (ta1 - ta0) + 10)) ] ||
		fail "busy used $pb%, adaptive $pa%: busy should take far more"
	[ "$(json_get "$out/a.json" "d['idle']")" = adaptive ] || fail "JSON idle mode"
	[ "$(json_get "$out/b.json" "d['idle']")" = busy ] || fail "JSON idle mode (busy)"
	[ "$(idle_of "$out/b.json" asleep_ns)" = 0 ] || fail "busy worker slept"
	[ "$(idle_of "$out/b.json" wakeups)" = 0 ] || fail "busy worker woke"
	# asleep most of the run (it started asleep soon after the attach)
	$PY -c "import json,sys; w=json.load(open(sys.argv[1]))['workers'][0]; sys.exit(0 if w['asleep_ns'] >= 9e9 and w['asleep_ns'] > 20 * w['busy_ns'] else 1)" \
		"$out/a.json" || fail "adaptive worker: $(json_get "$out/a.json" "d['workers'][0]")"
	ok "idle 10 s: adaptive worker $pa% of a CPU (process $pp%), busy worker $pb%; adaptive worker $(json_get "$out/a.json" "d['workers'][0]")"
}

run_sigint() {
	local pid rc
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --quiet --json >"$out/rx.json" \
		2>"$out/rx.err" &
	pid=$!
	wait_for "control socket" ctl_up $pid
	WAIT_SHOW=$out/rx.err wait_for "worker asleep in poll()" worker_asleep $pid
	check_epoll $pid "$out/rx.err"
	kill -INT $pid
	# the eventfd wakes it: a stop never waits for a frame (without it, this never ends)
	wait_until 5 gone $pid || { cat "$out/rx.err"; kill -KILL $pid; fail "still running 5 s after SIGINT while asleep"; }
	wait $pid
	rc=$?
	[ $rc = 0 ] || { cat "$out/rx.err"; fail "exit status $rc"; }
	assert_no_xdp "after SIGINT while asleep"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "census"
	ok "SIGINT while asleep$([ $EPOLL = 1 ] && echo ' in epoll_wait()'): exited at once, status 0, no program left; $(json_get "$out/rx.json" "d['workers'][0]")"
}

# send_bursts N PID: N bursts of 1-8 UDP frames from the generator's end, each sent only once
# the worker of run PID (thread xskf-w0) is asleep in its idle wait (state S in poll(), ppoll()
# or epoll_wait(), /proc/TID/syscall), the next only once it has woken and slept again (its
# voluntary context switches moved and it is back in the wait). So each burst finds the worker
# asleep and ends one sleep, whatever the machine's load: its wake-ups are at least N. Prints
# the interface's tx_packets before and after.
send_bursts() {
	gen taskset -c 0 $PY - "$TB_IF_GEN" "$1" "$TB_MAC_DUT" "$TB_MAC_GEN" "$2" <<'EOF'
import os, socket, struct, sys, time
ifname, n, dmac, smac, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
mac = lambda m: bytes(int(x, 16) for x in m.split(':'))
payload = b'x' * 18
udp = struct.pack('!HHHH', 9, 9, 8 + len(payload), 0) + payload
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                 socket.inet_aton('192.0.2.1'), socket.inet_aton('192.0.2.2'))
s = sum(struct.unpack('!10H', ip)); s = (s & 0xffff) + (s >> 16); s = (s & 0xffff) + (s >> 16)
ip = ip[:10] + struct.pack('!H', ~s & 0xffff) + ip[12:]
frame = mac(dmac) + mac(smac) + b'\x08\x00' + ip + udp
ctr = '/sys/class/net/%s/statistics/tx_packets' % ifname
task = None
for t in os.listdir('/proc/%s/task' % pid):
    if open('/proc/%s/task/%s/comm' % (pid, t)).read().strip() == 'xskf-w0':
        task = '/proc/%s/task/%s/' % (pid, t)
if not task:
    sys.exit('no worker thread xskf-w0 in pid %s' % pid)
WAITS = {7, 271, 232, 281, 441}  # poll, ppoll, epoll_wait, epoll_pwait, epoll_pwait2


def state():
    """(asleep in the idle wait, voluntary context switches so far)"""
    st = open(task + 'stat').read().rsplit(')', 1)[1].split()[0]
    nr = int(open(task + 'syscall').read().split()[0]) if st == 'S' else -1
    vcs = next(int(l.split()[1]) for l in open(task + 'status')
               if l.startswith('voluntary_ctxt_switches'))
    return st == 'S' and nr in WAITS, vcs


def until(ok, what, i):
    # a bound far beyond any wait: a worker that never sleeps again is the failure
    end = time.monotonic() + 30
    while True:
        asleep, vcs = state()
        if ok(asleep, vcs):
            return vcs
        if time.monotonic() > end:
            sys.exit('burst %d: the worker was not %s within 30 s' % (i, what))
        time.sleep(0)


sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
sk.bind((ifname, 0))
before = int(open(ctr).read())
for i in range(n):
    v0 = until(lambda a, v: a, 'asleep in its wait', i)
    for _ in range(1 + i % 8):
        sk.send(frame)
    until(lambda a, v: a and v > v0, 'awake and asleep again after the burst', i)
print(before, int(open(ctr).read()))
EOF
}

run_bursts() {
	local pid r before after base sent rx wake
	# every queue: veth hands a socket's frames to the queue of its own choosing
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --cpus 1 --quiet --json \
		>"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_for "control socket" ctl_up $pid
	check_epoll $pid "$out/rx.err"
	base=$(app_rx $pid) || fail "no live stats"
	r=$(send_bursts 3000 $pid) || fail "sender failed"
	read -r before after <<<"$r"
	sent=$((after - before))
	[ $sent -ge 13500 ] || fail "the sender's interface counted $sent frames (13500 sent)"
	wait_app_rx $pid $((base + sent))
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
	[ "$rx" = $((base + sent)) ] || fail "received $rx, expected $((base + sent))"
	[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] ||
		fail "counters do not reconcile"
	[ "$(json_get "$out/rx.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])")" = 0 ] ||
		fail "kernel drops"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "census"
	wake=$(idle_of "$out/rx.json" wakeups)
	# each burst was sent to a worker asleep in its wait, the next only after it woke and slept
	# again: at least one wake-up each
	[ "$wake" -ge 3000 ] || fail "only $wake wake-ups over 3000 bursts, each sent to a sleeping worker"
	assert_no_xdp "after the bursts"
	ok "3000 bursts$([ $EPOLL = 1 ] && echo ' (epoll wait)'): $sent frames sent, $((rx - base)) received, $wake wake-ups ($(idle_of "$out/rx.json" empty_wakeups) empty), counters reconcile"
}

run_lost() {
	local pid sent rx k la
	# rings of 256: a burst of 5000 while the worker cannot run overflows them
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --cpus 1 --rx-ring 256 --fill-ring 256 \
		--quiet --json >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_for "control socket" ctl_up $pid
	check_epoll $pid "$out/rx.err"
	# asleep in its wait, then stopped there: a wake-up that comes too late (a busy CPU, a
	# host that does not run the VM's CPU), made certain
	wait_for "worker asleep" worker_asleep $pid
	kill -STOP $pid
	wait_for "worker stopped" worker_in $pid T
	gen "$GEN" -i "$TB_IF_GEN" -n 5000 --cpus 0 --json >"$out/gen.json" || fail "generator"
	sent=$(sent_of "$out/gen.json")
	[ "$sent" = 5000 ] || fail "the generator sent $sent of 5000"
	kill -CONT $pid
	wait_seen $pid "$sent"
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	rx=$(json_get "$out/rx.json" "sum(q['rx_packets'] for q in d['queues'])")
	k=$(json_get "$out/rx.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])")
	la=$(idle_of "$out/rx.json" lost_asleep)
	[ "$((rx + k))" = "$sent" ] || fail "received $rx, kernel drops $k: not the $sent sent"
	[ "$k" -gt 0 ] && [ "$rx" -gt 0 ] || fail "received $rx, kernel drops $k: no loss, or nothing received"
	[ "$la" = "$k" ] || fail "lost_asleep $la, the kernel dropped $k"
	[ "$(json_get "$out/rx.json" "all(q['reconciled'] for q in d['queues'])")" = True ] ||
		fail "counters do not reconcile"
	ok "a burst of $sent while the worker slept and could not run: $rx received, $k dropped by the kernel, lost_asleep $la"
}

run_txpaced() {
	local w
	dut "$B/apps/xsk-txgen" -i "$TB_IF_DUT" --dst-mac "$TB_MAC_GEN" --rate 2000 --count 1000 \
		--quiet --json >"$out/tx.json" 2>"$out/tx.err" || { cat "$out/tx.err"; fail "xsk-txgen exited $?"; }
	[ "$(json_get "$out/tx.json" "d['app_stats']['sent']")" = 1000 ] || fail "sent != 1000"
	[ "$(json_get "$out/tx.json" "d['census_ok']")" = True ] || fail "census"
	# the run is too short to catch its thread asleep: the start line says which wait
	[ $EPOLL = 0 ] || grep -q "sleep in epoll_wait() after 50 us.*the idle wait is epoll_wait(), forced" "$out/tx.err" ||
		{ cat "$out/tx.err"; fail "no epoll wait in the start line"; }
	w=$(idle_of "$out/tx.json" wakeups)
	[ "$w" -ge 1 ] || fail "a generator paced at 2000/s never slept"
	ok "txgen --rate 2000 --count 1000$([ $EPOLL = 1 ] && echo ' (epoll wait)'): sent 1000 exactly, slept $w times ($(idle_of "$out/tx.json" asleep_ns) ns asleep)"
}

case $case_name in
cpu) run_cpu ;;
sigint) run_sigint ;;
bursts) run_bursts ;;
txpaced) run_txpaced ;;
lost) run_lost ;;
*) fail "unknown case $case_name" ;;
esac

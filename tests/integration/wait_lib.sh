# SPDX-License-Identifier: BSD-2-Clause
# Waiting for a state, never for a time (sourced by lib.sh, the one test library). A test waits for
# what it needs (a program attached, a capture listening, a counter reached) and gives up after
# a bound that only a broken run reaches: the bounds are generous because a loaded 2-CPU machine
# can be ten times slower than a quiet one, and a passing test never waits for them.

: "${PY:=/usr/bin/python3}"
WAIT_S=${XSKF_TEST_WAIT:-30}

# wait_until SECONDS CMD...: run CMD every 50 ms until it succeeds (0) or SECONDS passed (1).
# The one polling loop of the tests.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.05
	done
}

# show_threads PID: where each thread of PID is (name, state, wait channel, system call,
# kernel stack): what a run that should have said something was doing instead
show_threads() {
	local t
	for t in /proc/"$1"/task/*; do
		[ -d "$t" ] || continue
		echo "thread ${t##*/} $(cat "$t/comm" 2>/dev/null): state" \
			"$(awk '{ print $3 }' "$t/stat" 2>/dev/null), wchan $(cat "$t/wchan" 2>/dev/null)," \
			"syscall $(cat "$t/syscall" 2>/dev/null | cut -d' ' -f1)"
		sed 's/^/    /' "$t/stack" 2>/dev/null
	done >&2
}

# wait_for WHAT CMD...: run CMD every 50 ms until it succeeds; fail naming WHAT after WAIT_S
# (showing the file WAIT_SHOW first, when set: an app's messages; and where the threads of
# process WAIT_PID are, when set)
wait_for() {
	local what=$1
	shift
	LAST=
	wait_until "$WAIT_S" "$@" && return 0
	[ -n "${WAIT_SHOW:-}" ] && cat "$WAIT_SHOW" >&2
	[ -n "${WAIT_PID:-}" ] && show_threads "$WAIT_PID"
	fail "no $what after $WAIT_S s${LAST:+ (last seen: $LAST)}"
}

# wait_line FILE PATTERN: until FILE (an app's stderr) has a line matching PATTERN.
# (A FILE that its app has not opened yet is no line, and no message.)
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }
wait_line() { WAIT_SHOW=$1 wait_for "line '$2' in $1" has_line "$1" "$2"; }

# gone PID: the process has exited (for wait_for).
gone() { ! kill -0 "$1" 2>/dev/null; }

# ge CMD... N: CMD prints a number >= N (for wait_for; the number is kept in LAST).
ge() {
	local n=${*: -1}
	LAST=$("${@:1:$#-1}" 2>/dev/null) || return 1
	[ -n "$LAST" ] && [ "$LAST" -ge "$n" ]
}

# capture_ready ERRFILE: tcpdump (started with stderr to ERRFILE) is listening.
capture_ready() { grep -q "listening on" "$1" 2>/dev/null; }

# wait_capture ERRFILE: wait until the tcpdump whose stderr is ERRFILE has its socket open.
wait_capture() { wait_for "tcpdump listening ($1)" capture_ready "$1"; }

# ctl_sock PID: the control socket of the xskf run PID.
ctl_sock() {
	local s
	for s in "${XSKF_CTL_DIR:-/run/xskf}"/*."$1".sock; do
		[ -S "$s" ] && { echo "$s"; return 0; }
	done
	return 1
}

# app_live PID EXPR: EXPR evaluated over the live JSON (`j`) of the xskf run PID (xskfctl stats).
app_live() {
	local s
	s=$(ctl_sock "$1") || return 1
	"${XSKF_BUILD:-$BUILD}/apps/xskfctl" -s "$s" stats 2>/dev/null |
		$PY -c "import json,sys; j=json.load(sys.stdin); print($2)"
}

# ctl_up PID: the run PID answers on its control socket.
ctl_up() { app_live "$1" 1 >/dev/null; }

# app_rx PID [PORT]: frames the run PID has received so far (every queue, or PORT's).
app_rx() {
	if [ -n "${2:-}" ]; then
		app_live "$1" "sum(q['rx_packets'] for q in j['queues'] if q['port'] == '$2')"
	else
		app_live "$1" "sum(q['rx_packets'] for q in j['queues'])"
	fi
}

# app_tx PID: frames the run PID has sent so far.
app_tx() { app_live "$1" "sum(q['tx_packets'] for q in j['queues'])"; }

# wait_app_rx PID N [PORT]: wait until the run PID has received N frames.
# On a failure, where the missing frames went: each queue's kernel and program counters.
wait_app_rx() {
	LAST=
	wait_until "$WAIT_S" ge app_rx "$1" "${3:-}" "$2" && return 0
	echo "# pid $1's queues: $(app_live "$1" "[(q['port'], q['queue'], q['rx_packets'], q.get('kernel'), q.get('program')) for q in j['queues']]" 2>&1)" >&2
	fail "no $2 frames received by pid $1${3:+ on $3} after $WAIT_S s${LAST:+ (last seen: $LAST)}"
}

# carrier_up NS IF: IF in NS has a carrier (a veth's comes after both ends are up, through the
# kernel's link watch: later than `ip link set up` returns on a loaded machine).
carrier_up() { [ "$(ip netns exec "$1" cat "/sys/class/net/$2/carrier" 2>/dev/null)" = 1 ]; }
wait_carrier() { wait_for "carrier on $1/$2" carrier_up "$1" "$2"; }

# sysfs_ctr NS IF NAME: a kernel interface counter (rx_packets, tx_packets, ...).
sysfs_ctr() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }

# wait_ctr NS IF NAME N: wait until the counter reaches N.
wait_ctr() { wait_for "$4 $3 on $1/$2" ge sysfs_ctr "$1" "$2" "$3" "$4"; }

# pcap_count FILE: complete frames in a pcap that tcpdump -U -w is still writing.
pcap_count() {
	$PY - "$1" <<'PYEOF'
import struct, sys
try:
    b = open(sys.argv[1], "rb").read()
except OSError:
    sys.exit(1)
n, off = 0, 24
end = "<" if b[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
while off + 16 <= len(b):
    incl = struct.unpack(end + "I", b[off + 8:off + 12])[0]
    if off + 16 + incl > len(b):
        break
    n, off = n + 1, off + 16 + incl
print(n)
PYEOF
}

# wait_pcap FILE N: wait until the capture FILE holds N frames.
wait_pcap() { wait_for "$2 frames in $1" ge pcap_count "$1" "$2"; }

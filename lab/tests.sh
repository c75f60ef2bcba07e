# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's tests (sourced by lab/vm_lab.sh): the guest's side, written into the run
# folder as guest.sh, and the host's side, which sends the frames and judges the results.
#
# The two sides meet in the run folder (9p: the host sees the guest's files as they are
# written): the guest writes T.ready when test T waits for frames, the host sends them and
# writes T.sent, the guest writes T.live (its run's live counters) until the host writes
# T.done, then stops the run and writes T.rc, T.json and T.err. What the host writes goes to
# a folder of its own the guest mounts read-only (/lab/msg: lab_put), and what it reads from
# the guest's is data, its numbers strict decimal integers (lab/parse.sh).

PY=/usr/bin/python3
GUEST_MAC=52:54:00:00:00:02
HOST_IP=192.0.2.1
GUEST_IP=192.0.2.2
LAB_TIMEOUT=${XSKF_LAB_TIMEOUT:-600} # a boot and its tests, at most (TCG: 5-10x slower)
LAB_BOOT_S=${XSKF_LAB_BOOT_S:-300}  # until the guest's init script runs, at most (then booted again, once)
LAB_RUN_S=$LAB_TIMEOUT # a boot's whole bound (lab_kernel sets it per boot)
WAIT_S=${XSKF_LAB_WAIT:-120}	     # one state in the guest, at most
# the zero-copy list (its own file: zc_lines, zc_guest_script, zc_host, zc_check, lab_nic_dev)
source "$SRC/lab/zc.sh"
# the citizen tests beyond citizen's start orders (citizen_more_lines, citizen_guest_script, ...)
source "$SRC/lab/citizen.sh"

# The guest's side: the init script the initramfs runs on the root filesystem.
guest_script() {
	cat <<'EOF'
#!/bin/bash
# PID 1 of the lab's guest: mount, run /lab/tests, power off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t bpf bpf /sys/fs/bpf
uname -r >/lab/uname
B=/srv
IF=eth0
ip link set lo up
ip link set $IF up
ip addr add 192.0.2.2/24 dev $IF

# wait_link: until the NIC's link is up (carrier, and the stack's operstate), at most 60 s: igb
# negotiates it for a second or two after it is set up, and after each XDP detach
wait_link() {
	local end=$((SECONDS + 60)) c o
	while :; do
		c= # the file cannot be read while the NIC is down
		read -r c </sys/class/net/$IF/carrier 2>/dev/null
		read -r o </sys/class/net/$IF/operstate
		[ "$c" = 1 ] && [ "$o" = up ] && return 0
		[ $SECONDS -lt $end ] || return 1
		sleep 0.05
	done
}
wait_link
sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ethtool -l $IF >/lab/channels 2>&1
# the probe table on this kernel (the boot's line names what it lacks)
$B/apps/xskf features >/lab/features.txt 2>&1

# wait_file F: until the host writes F (it gives up first: no bound here)
wait_file() { while [ ! -e "$1" ]; do sleep 0.1; done; }
# has_xdp: our program is attached to the NIC
has_xdp() { ip -d link show dev $IF | grep -q 'prog/xdp'; }

# reta_pin Q: every entry of the NIC's RSS indirection table to queue Q (ethtool's weights:
# 0 for each queue before Q, 1 for Q), so that every frame goes to Q whatever its hash
reta_pin() {
	local w= i
	for ((i = 0; i < $1; i++)); do w="$w 0"; done
	ethtool -X $IF weight $w 1
}

# run_frames T ARGS...: xsk-rxdrop ARGS on the NIC; frames from the host; stop when it says.
# live_until_done T PID: T.ready for the host, then the run's counters in T.live until the
# host writes T.done, then SIGINT (the lab's runs: run_frames, lab/zc.sh's run_zc). Meanwhile
# the host's phases (lab_phases): for each T.pinP it writes (a queue), the indirection table
# pinned to that queue (reta_pin), ethtool's exit code in T.pinnedP; the table is put back to
# the driver's default at the end (where a NIC has no table, ethtool's refusal is ignored).
live_until_done() {
	local s p=1 q
	touch /lab/$1.ready
	s=$(ls /run/xskf/*.$2.sock)
	until [ -e /lab/msg/$1.done ]; do
		$B/apps/xskfctl -s "$s" stats >/lab/$1.live.tmp 2>/dev/null && mv /lab/$1.live.tmp /lab/$1.live
		if [ -e /lab/msg/$1.pin$p ]; then
			read -r q </lab/msg/$1.pin$p
			reta_pin $q >/lab/$1.pin$p.err 2>&1
			# renamed into place: the host reads it as soon as it is there
			echo $? >/lab/$1.pinned.tmp && mv /lab/$1.pinned.tmp /lab/$1.pinned$p
			p=$((p + 1))
			continue # the counters again at once: the host waits for them
		fi
		sleep 0.2
	done
	ethtool -X $IF default >/dev/null 2>&1 # (run_frames pins before the start: always)
	kill -INT $2
}

# $BEFORE_READY T, when set, runs once xsk-rxdrop is up, before the host is told to send; the
# NIC's carrier at that moment goes into T.carrier.
run_frames() {
	local t=$1 pid s
	shift
	wait_link # the previous run's detach may have reset it
	# the host's first phase is queue 0's: the table pinned to it before the start, so that
	# frames can come as soon as the run is up (linkreset); its answer in T.prepin
	# (lab_phases); not where the hash's own spread is the test (NO_PREPIN: flowhash)
	if [ -z "${NO_PREPIN:-}" ]; then
		reta_pin 0 >/lab/$t.prepin.err 2>&1
		echo $? >/lab/$t.prepin
	fi
	$B/apps/xsk-rxdrop -i $IF "$@" --json >/lab/$t.json 2>/lab/$t.err &
	pid=$!
	until has_xdp && ls /run/xskf/*.$pid.sock >/dev/null 2>&1; do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		cat /sys/class/net/$IF/carrier >/lab/$t.carrier 2>/dev/null
		[ -z "${BEFORE_READY:-}" ] || $BEFORE_READY $t
		live_until_done $t $pid
	fi
	wait $pid
	echo $? >/lab/$t.rc
}

# run_load T ARGS...: xsk-rxdrop ARGS starts, attaches, and stops at once (-d 1).
run_load() {
	local t=$1
	shift
	$B/apps/xsk-rxdrop -i $IF "$@" -d 1 --json >/lab/$t.json 2>/lab/$t.err
	echo $? >/lab/$t.rc
}

# the zero-copy list's side (lab/zc.sh), when the list has it
[ -e /lab/zc.sh ] && . /lab/zc.sh
# the core test's side (lab/core.sh), when the list has it
[ -e /lab/core.sh ] && . /lab/core.sh
# citizen T ORDER ARGS...: xdp-filter (xdp-tools, the host's binaries in /lab) drops source
# port 1024, xsk-rxdrop ARGS takes the rest, both through libxdp's dispatcher; ORDER says which
# starts first (filter-first: xsk-rxdrop stops first; xskf-first: the filter is unloaded first)
# and each round of frames from the host (T.readyN, T.sentN) comes with the state after it.
run_citizen() {
	local t=$1 order=$2 pid s n r
	shift 2
	xf() { /lab/xdp-filter "$@" >>/lab/$t.filter 2>&1; }
	status() { /lab/xdp-loader status $IF >/lab/$t.status$1 2>&1; }
	# the filter's counters: "PASS DROP HITS" (aggregate passes and drops, port 1024's hits)
	counts() {
		/lab/xdp-filter status 2>/dev/null | awk '$1 == "XDP_PASS" { p = $2 } $1 == "XDP_DROP" { d = $2 }
			$1 == "1024" { h = $NF } END { print p + 0, d + 0, h + 0 }'
	}
	start_xskf() {
		$B/apps/xsk-rxdrop -i $IF "$@" --json >/lab/$t.json 2>/lab/$t.err &
		pid=$!
		until ls /run/xskf/*.$pid.sock >/dev/null 2>&1 && grep -q 'XDP program attached' /lab/$t.err; do
			kill -0 $pid 2>/dev/null || return 1
			sleep 0.1
		done
		s=$(ls /run/xskf/*.$pid.sock)
	}
	redirected() {
		$B/apps/xskfctl -s "$s" stats 2>/dev/null |
			python3 -c "import json,sys; print(sum(q['program']['redirected'] for q in json.load(sys.stdin)['queues']))"
	}
	# round R WANT: the host's frames; until WANT (a command printing a number) reaches the
	# number the host sent plus BASE, at most 60 s
	round() {
		local r=$1 want=$2 base=$3 i=0 v
		touch /lab/$t.ready$r
		wait_file /lab/msg/$t.sent$r
		n=$(cat /lab/msg/$t.sent$r)
		while v=$($want) && [ "${v:-0}" -lt $((n + base)) ] && [ $i -lt 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	}
	stop_xskf() {
		kill -INT $pid
		wait $pid
		echo $? >/lab/$t.rc
	}
	seen() { echo $(($(redirected) + $(counts | cut -d' ' -f3))); }
	agg() { counts | awk '{ print $1 + $2 }'; }
	if [ "$order" = filter-first ]; then
		xf load $IF && xf port 1024 --mode src || { echo 1 >/lab/$t.rc; return; }
		start_xskf "$@" || { echo 1 >/lab/$t.rc; return; }
		status 1
		round 1 seen 0
		counts >/lab/$t.counts1
		stop_xskf
		status 2
		round 2 agg "$(agg)"
		counts >/lab/$t.counts2
		xf unload $IF --all
		status 3
	else
		start_xskf "$@" || { echo 1 >/lab/$t.rc; return; }
		xf load $IF && xf port 1024 --mode src || { stop_xskf; return; }
		status 1
		round 1 seen 0
		counts >/lab/$t.counts1
		xf unload $IF --all
		status 2
		kill -0 $pid 2>/dev/null && echo running >/lab/$t.alive
		round 2 redirected "$(redirected)"
		stop_xskf
		status 3
	fi
}

# the run_KIND of other test kinds (the host writes them into the run folder: guest_*.sh)
for f in /lab/guest_*.sh; do [ -e "$f" ] && . "$f"; done
run_reset() { run_frames "$@"; }

while read -r t args; do
	declare -F run_$t >/dev/null && eval "run_$t $args"
done </lab/tests
echo 0 >/lab/guest.done
sync
/lab/busybox poweroff -f
EOF
}

# The tests' lines (guest.sh's input: KIND NAME ARGS) for kernel K, NIC N and tests T...
guest_tests() {
	local k=$1 nic=$2 t
	shift 2
	for t in "$@"; do
		[ "$nic" = igb ] && { igb_tests "$k" "$t"; continue; }
		case $t in
		load)
			echo "load load-plain -c --no-hints"
			echo "load load-hints -c"
			echo "load load-steer -c --steer 'udp dport 53 drop'"
			echo "load load-skb -c -S"
			;;
		rxdrop) echo "frames rxdrop -c --quiet" ;;
		rxalone) echo "frames rxalone -c --quiet --attach alone" ;;
		zerocopy) [ "$k" = 7 ] && echo "frames zerocopy -z --quiet" ;;
		core) core_lines ;;
		features) core_lines $FEATURES_LIST ;;
		citizen)
			[ "$k" = 7 ] || continue
			echo "citizen citizen-ff filter-first -c --quiet --no-hints"
			echo "citizen citizen-xf xskf-first -c --quiet --no-hints"
			citizen_more_lines # lab/citizen.sh: two runs, the dispatcher's cost
			;;
		*) # the zero-copy list (lab/zc.sh); 5.10: its copy-mode half
			case $k in
			7) ZC_MODES="zc cp" zc_lines "$t" ;;
			5.10) ZC_MODES=cp zc_lines "$t" ;;
			esac
			;;
		esac
	done
}

# " (QEMU X.Y.Z)": the version of NIC's QEMU (igb's runs in the trixie root)
qemu_version() {
	local v
	if [ "$1" = igb ]; then
		v=$(chroot "$QEMU10" qemu-system-x86_64 --version)
	else
		v=$(qemu-system-x86_64 --version)
	fi
	echo " (QEMU $(echo "$v" | sed -n '1s/.*version \([^ ]*\).*/\1/p'))"
}

lab_wait() { # lab_wait SECONDS CMD...: until CMD succeeds, QEMU runs and time is left
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		kill -0 "$QEMU_PID" 2>/dev/null || return 1
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

json() { $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }

# The host's sender: N UDP frames in FLOWS flows (source ports, default 16; ADDRS source
# addresses from SIP on, default 1) from the tap, by AF_PACKET (the
# project's generator needs a driver's counters, which a tap has not), paced at 1000 a second
# (a tap holds 500 frames for QEMU: TCG reads them slower than a burst fills it); the frames the
# tap dropped are counted (its tx_dropped) and left out of "sent".
SEND_PY='
import json, socket, struct, sys, time
ifn, dmac, sip, dip, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
# source addresses: sip, sip + 1, ...
addrs = int(sys.argv[6]) if len(sys.argv) > 6 else 1
flows = int(sys.argv[7]) if len(sys.argv) > 7 else 16
src = [socket.inet_aton(socket.inet_ntoa(struct.pack("!I", struct.unpack("!I", socket.inet_aton(sip))[0] + a))) for a in range(addrs)]
drops = lambda: int(open("/sys/class/net/%s/statistics/tx_dropped" % ifn).read())
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifn, 0))
smac = open("/sys/class/net/%s/address" % ifn).read().strip()
mac = lambda m: bytes.fromhex(m.replace(":", ""))
def csum(b):
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    t = (t >> 16) + (t & 0xffff)
    return ~(t + (t >> 16)) & 0xffff
d0 = drops()
t0 = time.monotonic()
for i in range(n):
    # 16 source ports whose bits differ all over the field, so that a hash of the ports
    # spreads them where nothing pins the queue (the tests that count per queue send in
    # phases instead: lab_phases; flowhash shows the spread)
    udp = struct.pack("!HHHH", 1024 + (i % flows) * 3851, 9, 8 + 18, 0) + bytes(18)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xffff, 0, 64, 17, 0,
                     src[i % addrs], socket.inet_aton(dip))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    s.send(mac(dmac) + mac(smac) + b"\x08\x00" + ip + udp)
    if i % 50 == 49:
        time.sleep(max(0, t0 + (i + 1) / 1000 - time.monotonic()))
dropped = drops() - d0
print(json.dumps({"sent": n - dropped, "tap_dropped": dropped}))
'

# lab_seen D T N: the live counters of test T's run show N frames redirected, or more
lab_seen() {
	local v
	v=$(lab_json_int "$1/$2.live" "sum(q['program']['redirected'] for q in d['queues'])") && [ "$v" -ge "$3" ]
}

# lab_phases D T N SEND: N frames to test T's running app, sent by `SEND COUNT OUT` (COUNT
# frames, its {"sent", "tap_dropped"} in OUT) in one phase per queue of the run. In phase P the
# guest pins the NIC's RSS indirection table to the run's P-th queue (T.pinP: live_until_done),
# SEND sends N / queues frames, and the next phase waits until the run counted them. So each
# queue gets exactly its phase's frames, whatever hash key the driver drew: igb draws one at
# each boot and cannot show it, and hashes UDP by addresses only; 16 source addresses that
# differ in their low 4 bits all went to one queue in 1 boot of 16. Writes D.host/T.phases
# ("QUEUE SENT" a phase) and D.host/T.gen.json (the sums). Where the table cannot be set
# (virtio-net before Linux 5.17 has no RSS), all N at once, ethtool's words in D.host/T.unphased.
lab_phases() {
	local d=$1 t=$2 n=$3 send=$4 nq=0 i=1 q s dr sum=0 drop=0 rc=0
	rm -f "$d.host/$t.phases" "$d.host/$t.unphased"
	touch "$d.host/$t.phases"
	if [ -n "${LAB_UNPHASED:-}" ]; then # the test is about the hash's own spread (flowhash)
		echo "$LAB_UNPHASED" >"$d.host/$t.unphased"
		$send $n "$d.host/$t.gen.json"
		return 0
	fi
	if lab_wait $WAIT_S test -e "$d/$t.live"; then
		nq=$(lab_json_int "$d/$t.live" "len(d['queues'])") || nq=0
	fi
	# the guest's pin before the run's start (run_frames: queue 0), where it made one
	local pre=- m=1 err=$d/$t.pin1.err
	[ ! -e "$d/$t.prepin" ] || pre=$(lab_int "$d/$t.prepin") || pre=bad
	for ((i = 1; i <= nq; i++)); do
		q=$(lab_json_int "$d/$t.live" "d['queues'][$((i - 1))]['queue']") || break
		if [ $i = 1 ] && [ "$pre" != - ]; then
			rc=$pre err=$d/$t.prepin.err
			[ "$q" = 0 ] || rc=bad
		else # message m: the guest pins the table to q, its answer in T.pinnedM
			echo "$q" | lab_put "$d" "$t.pin$m"
			lab_wait $WAIT_S test -e "$d/$t.pinned$m" || break
			rc=$(lab_int "$d/$t.pinned$m") || break
			err=$d/$t.pin$m.err m=$((m + 1))
		fi
		[ "$rc" = 0 ] || break
		$send $((n / nq)) "$d.host/$t.gen$i.json"
		s=$(lab_json_int "$d.host/$t.gen$i.json" "d['sent']") || break
		dr=$(lab_json_int "$d.host/$t.gen$i.json" "d['tap_dropped']") || break
		sum=$((sum + s)) drop=$((drop + dr))
		echo "$q $s" >>"$d.host/$t.phases"
		lab_wait $WAIT_S lab_seen "$d" "$t" $sum || break
	done
	if [ $i = 1 ] && lab_is_int "$rc" && [ "$rc" != 0 ]; then # the first pin refused: no phase
		echo "ethtool -X refused ($(head -c 160 "$err" 2>/dev/null | tr -c '[:print:]' ' '))" \
			>"$d.host/$t.unphased"
		$send $n "$d.host/$t.gen.json"
		return 0
	fi
	printf '{"sent": %d, "tap_dropped": %d}\n' $sum $drop >"$d.host/$t.gen.json"
}

# lab_send_tap0 COUNT OUT: COUNT frames from tap0 to the guest (SEND_PY), its counts in OUT
lab_send_tap0() {
	ip netns exec "$NS" $PY -c "$SEND_PY" tap0 $GUEST_MAC $HOST_IP $GUEST_IP $1 ${LAB_SRC_ADDRS:-1} \
		>"$2" 2>"${2%.json}.err"
}

# Host side of a frames test: N frames in phases once the guest is ready, wait for them.
host_frames() {
	local d=$1 t=$2 n=2000 sent
	# the boot first (minutes on a loaded machine), then the guest's earlier tests (the core
	# list takes an hour on 5.10 under load): bounded by QEMU's own timeout (LAB_RUN_S) only
	lab_wait "$LAB_TIMEOUT" test -e "$d/uname" || return 0
	# until the run is up (T.ready) or gone (T.rc), however long its start takes: a state
	ready_or_rc() { [ -e "$d/$t.ready" ] || [ -e "$d/$t.rc" ]; }
	lab_wait "$LAB_RUN_S" ready_or_rc || { lab_put "$d" "$t.done" </dev/null; return 0; }
	[ -e "$d/$t.ready" ] || return 0 # the guest failed to start it: judged below
	lab_phases "$d" "$t" $n lab_send_tap0
	sent=$(lab_json_int "$d.host/$t.gen.json" "d['sent']") || sent=$n
	echo $sent | lab_put "$d" "$t.sent"
	lab_wait $WAIT_S lab_seen "$d" "$t" $sent
	lab_put "$d" "$t.done" </dev/null
}

# Host side of a citizen test: a round of N frames each time the guest is ready for one.
host_citizen() { host_rounds "$@"; }
host_rounds() {
	local d=$1 t=$2 r n=2000
	for r in 1 2; do
		lab_wait "$([ $r = 1 ] && echo "$LAB_RUN_S" || echo $WAIT_S)" test -e "$d/$t.ready$r" || return 0
		ip netns exec "$NS" $PY -c "$SEND_PY" tap0 $GUEST_MAC $HOST_IP $GUEST_IP $n \
			>"$d.host/$t.gen$r.json" 2>"$d.host/$t.gen$r.err"
		lab_json_int "$d.host/$t.gen$r.json" "d['sent']" | lab_put "$d" "$t.sent$r"
	done
}

# check_citizen D T: every frame of round 1 dropped by xdp-filter (port 1024's hits) or
# redirected by xskf's program, received (less the kernel's drops); round 2 after one of them
# detached alone: the other still sees every frame; xdp-loader status named both.
check_citizen() {
	local d=$1 t=$2 rc s1 s2 redir rx kd h1 c1 c2 a1 a2
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	[ "$rc" = 0 ] || { echo "xsk-rxdrop exited ${rc:-?}: $(tail -3 "$d/$t.err" 2>/dev/null | tr '\n' ' ') $(tail -2 "$d/$t.filter" 2>/dev/null | tr '\n' ' ')"; return 1; }
	grep -q xskf_redirect "$d/$t.status1" && grep -q xdpfilt "$d/$t.status1" ||
		{ echo "xdp-loader status does not name both programs: $(tr '\n' '|' <"$d/$t.status1")"; return 1; }
	grep -q "through libxdp's dispatcher" "$d/$t.err" || { echo "not attached through the dispatcher: $(grep -m2 'libxdp\|attached' "$d/$t.err")"; return 1; }
	# the host's own counts (its folder), then the guest's, each a strict decimal integer
	s1=$(lab_json_int "$d.host/$t.gen1.json" "d['sent']") || { echo "$s1"; return 1; }
	s2=$(lab_json_int "$d.host/$t.gen2.json" "d['sent']") || { echo "$s2"; return 1; }
	redir=$(lab_json_int "$d/$t.json" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$redir"; return 1; }
	rx=$(lab_json_int "$d/$t.json" "sum(q['rx_packets'] for q in d['queues'])") || { echo "$rx"; return 1; }
	kd=$(lab_json_int "$d/$t.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])") || { echo "$kd"; return 1; }
	lab_ints "$d/$t.counts1" a1 c1 h1 || return 1
	[ "${h1:-0}" -gt 0 ] || { echo "xdp-filter dropped nothing of round 1"; return 1; }
	[ "$rx" = $((redir - kd)) ] || { echo "redirected $redir, received $rx, kernel drops $kd"; return 1; }
	if [ -e "$d/$t.counts2" ]; then # filter-first: xskf left, the filter sees round 2
		[ "$redir" = $((s1 - h1)) ] || { echo "round 1: sent $s1, filter dropped $h1, xskf redirected $redir"; return 1; }
		# the filter's total counts every frame of the port, the generator's and any other: one
		# more than the 2000 sent in each run so far, most likely the host's ARP reply (the
		# frames now reach the guest's stack, which answers UDP port 9 with ICMP port
		# unreachable and asks for the host's address first); its port-1024 hits are the
		# generator's alone: every 16th frame (exact where the tap dropped none)
		local h2 want2 seen2
		lab_ints "$d/$t.counts2" a2 c2 h2 || return 1
		seen2=$((a2 + c2 - a1 - c1))
		want2=$(((s2 + 15) / 16))
		[ "$seen2" -ge "$s2" ] || { echo "round 2 (xskf gone): sent $s2, the filter saw $seen2"; return 1; }
		[ "$(json "$d.host/$t.gen2.json" "d['tap_dropped']")" != 0 ] || [ $((h2 - h1)) = $want2 ] ||
			{ echo "round 2 (xskf gone): the filter dropped $((h2 - h1)) of the $want2 frames from port 1024"; return 1; }
		grep -q xdpfilt "$d/$t.status2" && ! grep -q xskf_redirect "$d/$t.status2" ||
			{ echo "after xskf left: $(tr '\n' '|' <"$d/$t.status2")"; return 1; }
		echo "round 1: sent $s1, xdp-filter dropped $h1, xskf redirected $redir, received $rx; round 2 after xskf left: the filter saw all $s2 ($((seen2 - s2)) other), dropped $((h2 - h1))"
	else # xskf-first: the filter left, xskf sees round 2
		[ -e "$d/$t.alive" ] || { echo "xsk-rxdrop stopped when the filter was unloaded"; return 1; }
		[ "$redir" = $((s1 - h1 + s2)) ] || { echo "sent $s1 + $s2, filter dropped $h1, xskf redirected $redir"; return 1; }
		grep -q xskf_redirect "$d/$t.status2" && ! grep -q xdpfilt "$d/$t.status2" ||
			{ echo "after the filter left: $(tr '\n' '|' <"$d/$t.status2")"; return 1; }
		echo "round 1: sent $s1, xdp-filter dropped $h1, xskf redirected $((s1 - h1)); round 2 after the filter left: xskf redirected all $s2; received $rx"
	fi
	grep -q 'No XDP program loaded\|^$' "$d/$t.status3" 2>/dev/null || ! grep -q 'xskf_redirect\|xdpfilt' "$d/$t.status3" ||
		{ echo "left behind: $(tr '\n' '|' <"$d/$t.status3")"; return 1; }
}

# check_frames D T ZC: the frames test T passed (exact counts); ZC: zerocopy expected.
check_frames() {
	local d=$1 t=$2 zc=$3 sent redir rx kd rc
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	[ "$rc" = 0 ] || { echo "xsk-rxdrop exited ${rc:-?}: $(tail -3 "$d/$t.err" 2>/dev/null | tr '\n' ' ')"; return 1; }
	sent=$(lab_json_int "$d.host/$t.gen.json" "d['sent']") || { echo "$sent"; return 1; }
	redir=$(lab_json_int "$d/$t.json" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$redir"; return 1; }
	rx=$(lab_json_int "$d/$t.json" "sum(q['rx_packets'] for q in d['queues'])") || { echo "$rx"; return 1; }
	kd=$(lab_json_int "$d/$t.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])") || { echo "$kd"; return 1; }
	[ -n "$sent" ] && [ "$sent" = "$redir" ] || { echo "sent ${sent:-?}, redirected ${redir:-?}"; return 1; }
	[ "$rx" = $((redir - kd)) ] || { echo "redirected $redir, received $rx, kernel drops $kd"; return 1; }
	[ "$(json "$d/$t.json" "all(q['reconciled'] for q in d['queues'])")" = True ] ||
		{ echo "counters do not reconcile"; return 1; }
	[ "$(json "$d/$t.json" "all(q['zerocopy'] for q in d['queues'])")" = "$zc" ] ||
		{ echo "zerocopy is not $zc"; return 1; }
	local per how
	per=$(json "$d/$t.json" "' + '.join(str(q['program']['redirected']) for q in d['queues'])")
	how=$(check_phases "$d" "$t") || { echo "$how: $per"; return 1; }
	echo "sent $sent, redirected $redir ($per), received $rx, kernel drops $kd, zerocopy $zc; $how"
}

# check_phases D T: each queue of test T's run redirected exactly the frames of its phase
# (lab_phases), every queue had one; where the indirection table could not be set, what is
# certain only (the counts above): the split is the hash's, said, not asserted.
check_phases() {
	local d=$1 t=$2 nq q s got ph=0 line
	if [ -s "$d.host/$t.unphased" ]; then
		echo "per queue not asserted: $(cat "$d.host/$t.unphased")"
		return 0
	fi
	nq=$(lab_json_int "$d/$t.json" "len(d['queues'])") || { echo "$nq"; return 1; }
	while IFS= read -r line; do
		lab_is_ints "$line" || { echo "phases: '$line'"; return 1; }
		read -r q s <<<"$line"
		got=$(lab_json_int "$d/$t.json" "sum(x['program']['redirected'] for x in d['queues'] if x['queue'] == $q)") ||
			{ echo "$got"; return 1; }
		[ "$got" = "$s" ] || { echo "queue $q redirected $got, its phase sent $s"; return 1; }
		ph=$((ph + 1))
	done <"$d.host/$t.phases"
	[ "$ph" = "$nq" ] || { echo "$ph of $nq phases done"; return 1; }
	echo "each queue exactly its phase's frames (indirection table pinned to it)"
}

check_load() {
	local d=$1 t=$2 rc
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	if [ "$rc" != 0 ]; then
		echo "exit ${rc:-?}: $(grep -v '^ *$' "$d/$t.err" 2>/dev/null | tail -8 | tr '\n' '|')"
		return 1
	fi
	echo "$(json "$d/$t.json" "d['ports'][0]['attach_mode']") attach, $(json "$d/$t.json" "d['ports'][0]['redirect']")"
}

# lab_kernel K NIC TESTS...: boot kernel K with NIC (virtio or igb), run TESTS, print one line
# per test; 1 if one failed.
lab_kernel() {
	local k=$1 nic=$2 d=$RUN/$1-$2 kd=$CACHE/kernel-$1 t line fail=0 res
	shift 2
	# the host's own files (its generators' counts, captures, QEMU's log) beside the run
	# folder, out of the guest's reach; the guest's share is d
	# and the host's messages to the guest (lab_put), which the guest mounts read-only at
	# /lab/msg (its mountpoint made in the share before the guest runs)
	mkdir -p "$d" "$d.host" "$d.msg" "$d/msg"
	guest_script >"$d/guest.sh"
	[ "$nic" = igb ] && igb_guest_script >"$d/guest_igb.sh"
	guest_tests "$k" "$nic" "$@" >"$d/tests"
	[ -s "$d/tests" ] || { log "kernel $k, $nic: no test to run"; return 0; }
	# each core test gets its own bound more (the guest kills one at 10 min)
	# the zero-copy list up to a minute more per test (TCG: 20-60 s each)
	local timeout=$((LAB_TIMEOUT + 600 * $(grep -c '^core ' "$d/tests") + 60 * $(grep -c '^zc ' "$d/tests")))
	# the host's wait for a test the guest comes to after others: as long as QEMU may run
	LAB_RUN_S=$timeout
	grep -q '^core ' "$d/tests" && guest_core_script >"$d/core.sh"
	grep -q '^zc ' "$d/tests" && zc_guest_script >"$d/zc.sh"
	grep -q '^citizen2 ' "$d/tests" && citizen_guest_script >"$d/guest_citizen.sh"
	cp "$(command -v busybox)" "$d/busybox"
	# xdp-tools for the citizen test: the host's (the guest has libxdp1 and its BPF objects)
	if grep -q '^citizen' "$d/tests"; then
		cp "$(command -v xdp-filter)" "$(command -v xdp-loader)" "$d/" ||
			die "no xdp-filter/xdp-loader on the host (apt-get install xdp-tools)"
	fi
	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || die "cannot make the network namespace $NS"
	ip -n "$NS" tuntap add tap0 mode tap $([ "$nic" = igb ] || echo multi_queue) || die "cannot make a tap"
	ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$NS" addr add $HOST_IP/24 dev tap0
	ip -n "$NS" link set tap0 up
	ip -n "$NS" neigh add $GUEST_IP lladdr $GUEST_MAC dev tap0 nud permanent
	LAB_NIC=$nic # the NIC model of both guest NICs (lab_nic_dev)
	zc_host_nics # tap1 (the guest's eth1) and the kernel VTEP vx0
	# no_timer_check: on a loaded host TCG's guest misses the IO-APIC timer check at boot
	# ("IO-APIC + timer doesn't work!", a panic: seen on 7.3 beside four other guests)
	# the folders as QEMU sees them: igb's QEMU runs in the trixie root (lab/igb.sh)
	local smp=2 dev queues=2 qk=$kd qr=$CACHE/rootfs qb=$BUILD qd=$d qm=$d.msg
	# the source tree, for the core tests (lab/core.sh; not run on igb)
	local srcfs=(-virtfs "local,path=$SRC,mount_tag=src,security_model=none,multidevs=remap,readonly=on")
	# a second NIC (eth1 on tap1) for the zero-copy list (lab/zc.sh)
	local nic1=(-netdev tap,id=n1,ifname=tap1,script=no,downscript=no,queues=2,vhost=off
		-device "$(lab_nic_dev n1 $GUEST_MAC1)")
	QEMU_PRE=()
	case $nic in
	virtio) dev=$(lab_nic_dev n0 $GUEST_MAC) ;;
	igb)
		# QEMU's igb reads one tap queue (a multi-queue tap refuses a single-queue open);
		# romfile=: no boot ROM (-kernel boots the guest)
		dev="igb,netdev=n0,mac=$GUEST_MAC,romfile="
		queues=1
		qk=/lab/kernel qr=/lab/root qb=/lab/build qd=/lab/run qm=/lab/msg
		srcfs=()
		# the second igb behind a PCIe root port: an igb (an SR-IOV PF) keeps the slots
		# after its own for its VFs, so a second one on pcie.0 is refused ("slot 21
		# function 0 not available for igbvf"); the guest probes it after eth0 (bus 0)
		nic1=(-netdev tap,id=n1,ifname=tap1,script=no,downscript=no,queues=1,vhost=off
			-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1
			-device "$(lab_nic_dev n1 $GUEST_MAC1),bus=rp1")
		qemu10_prefix "$kd" "$d"
		;;
	esac
	# lab_boot: QEMU started, its pid (timeout's: a TERM reaches QEMU) in QEMU_PID
	lab_boot() {
		ip netns exec "$NS" timeout -s KILL "$timeout" "${QEMU_PRE[@]}" qemu-system-x86_64 -machine q35 -cpu max \
			-smp $smp -m 1024 -nographic -no-reboot -nodefaults -serial "file:$qd/console.log" \
			-kernel "$qk/vmlinuz" -initrd "$qk/initramfs.cpio.gz" \
			-append "console=ttyS0 panic=-1 quiet net.ifnames=0 no_timer_check" \
			-virtfs "local,path=$qr,mount_tag=root,security_model=none,multidevs=remap,readonly=on" \
			-virtfs "local,path=$qb,mount_tag=tree,security_model=none,multidevs=remap,readonly=on" \
			-virtfs "local,path=$qd,mount_tag=out,security_model=none,multidevs=remap" \
			-virtfs "local,path=$qm,mount_tag=msg,security_model=none,multidevs=remap,readonly=on" \
			"${srcfs[@]}" \
			-netdev tap,id=n0,ifname=tap0,script=no,downscript=no,queues=$queues,vhost=off -device "$dev" \
			"${nic1[@]}" \
			>"$d.host/qemu.log" 2>&1 &
		QEMU_PID=$!
	}
	lab_boot
	# A guest that never reaches its init script is booted again, once: seen under TCG as a
	# hang (SeaBIOS, then nothing until the timeout) and as a panic at 2 s (6.12: "Oops: int3"
	# in sched_clock_cpu, code patched under the other vCPU), each once in some dozens of
	# boots: the emulator's, not a test's result. The bound is generous: a boot takes 8 s
	# here, a minute or two on a loaded machine.
	if ! lab_wait "$LAB_BOOT_S" test -e "$d/uname"; then
		local how
		if kill -0 $QEMU_PID 2>/dev/null; then
			how="did not come up in $LAB_BOOT_S s"
			kill -TERM $QEMU_PID
			wait $QEMU_PID
		else
			wait $QEMU_PID
			how="ended (QEMU exit $?)"
		fi
		log "kernel $k, $nic: the guest $how before its init script ran (console: $(grep -a -m1 -E 'Oops|panic|BUG' "$d/console.log" 2>/dev/null || tail -c 300 "$d/console.log" 2>/dev/null | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' | tr -cd '[:print:]' | tail -c 80)): booting it again, once"
		mv "$d/console.log" "$d/console.boot1.log" 2>/dev/null
		lab_boot
	fi
	while read -r t line; do
		case $t in
		zc) zc_host "$d" $line ;; # NAME KIND: the rest is the guest's
		*) ! declare -F host_$t >/dev/null || host_$t "$d" "${line%% *}" ;;
		esac
	done <"$d/tests"
	wait $QEMU_PID
	local qrc=$?
	[ -e "$d/guest.done" ] || {
		echo "kernel $k, $nic: the guest did not finish (QEMU exit $qrc; console: $d/console.log)"
		tail -5 "$d/console.log" 2>/dev/null || tail -3 "$d.host/qemu.log"
		return 1
	}
	log "kernel $k: $(cat "$d/uname") booted with $nic$(qemu_version "$nic"), $(grep -c . "$d/tests") test(s)"
	# the features of xskf's probe table this kernel refuses, each with its answer
	[ ! -s "$d/features.txt" ] || log "kernel $k: xskf features refused: $(awk 'NF == 0 { exit }
		$2 != "works" { w = $0; sub(/^[^ ]+ +/, "", w); sub(/  +.*/, "", w); printf "%s%s (%s)", n++ ? ", " : "", $1, w }' "$d/features.txt" |
		tr -cd '[:print:]')"
	while read -r t line; do
		local kind=${line#* }
		kind=${kind%% *}
		line=${line%% *}
		case $t in
		zc) res=$(zc_check "$d" "$line" "$kind") ;;
		frames) res=$(check_frames "$d" "$line" "$([ "$line" = zerocopy ] && echo True || echo False)") ;;
		*) res=$(check_$t "$d" "$line") ;;
		esac
		if [ $? = 0 ]; then
			echo "ok - kernel $k, $nic: $line: $res"
		else
			echo "not ok - kernel $k, $nic: $line: $res"
			fail=1
		fi
	done <"$d/tests"
	ip netns del "$NS" 2>/dev/null
	return $fail
}

# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's doctor tests (sourced by lab/vm_lab.sh after lab/tests.sh and
# lab/igb.sh): `xskf doctor` (before a run) and `xskfctl doctor` (on a running xsk-rxdrop,
# frames sent from the host) on real drivers, issue 46. Each fault is made on purpose in the
# guest, and doctor must name exactly that cause, in one line with its evidence and fix; a
# healthy setup gets exactly "no problem found".
#
#   igb (kernel 7.x):  dr-healthy  dr-rss  dr-ntuple  dr-flowhash  dr-promisc  dr-irq  dr-skb
#   virtio-net:        dr-vhealthy  dr-unbound  dr-foreign  dr-busypoll  dr-vslow  dr-vslow-zc
#                      dr-vumem
#
# Frames are deterministic: igb's RSS key is drawn at each boot, so every igb test sets the
# indirection table (RETA) itself: all of it to the one queue a run binds (`ethtool -X eth0
# weight 0 1`), or, for the fault of a hash over addresses only, frames of one address pair,
# which any key puts on one queue. UDP over IPv6 is hashed by ports too (`sdfn`) in every igb
# test, so that no other rx-flow-hash line can appear. 200 frames a round: fewer than the NIC's
# RX descriptors, so that none is lost however slowly the guest takes them.
#
# The two sides meet as the other lab tests do (lab/tests.sh): the guest writes T.readyR
# when round R of frames may come, the host sends them and writes T.sentR into its own folder
# (lab_put); the guest's files are data to the host, their numbers strict integers
# (lab/parse.sh), their text matched against fixed patterns and shown printable only.

# frames per round: fewer than igb's and virtio-net's 256 RX descriptors (and the tap's 500),
# so that none is lost however slowly the guest takes them. At 2000 a round, TCG's guest on a
# host under a load of 20 took 1955 of 2000 in zero-copy, and its stack 1655 of 2000 (frames
# passed to it), while at a load of 9-15 all 2000 arrived.
DR_N=200
DR_FOREIGN_MAC=52:54:00:00:00:99 # a destination MAC no NIC of the lab has
DR_WINDOW=30                     # xskfctl doctor's window (s): a round at TCG's pace under load (15 s was short once at a host load of 20)
# virtio-net here has no RSS table (QEMU's device without rss=on: ethtool -X is refused): the
# tap puts each flow on a queue by its hash, drawn at each boot. So the tests of one queue
# (dr-vslow*, dr-vumem) send one flow, and learn its queue first: round 1, DR_PROBE_N frames
# before any run (dr_probe), the run then binding that queue alone.
DR_PROBE_N=16
# The slow app (dr-vslow*: tests/plugins/slow.c) spends DR_SLOW_US on each frame, 10 a second,
# in bursts of 64 (6.4 s each, the fill ring topped up only between them), with a fill ring of
# DR_SLOW_FILL slots: DR_SLOW_N frames, paced at 1000 a second, empty it whatever the guest's
# pace, unless the guest took them at fewer than (600 - 256 - 64) / 6.4 s, 44 a second; and
# no frame is lost on the way (the tap's 500 frames and virtio-net's 256 descriptors hold them)
DR_SLOW_US=100000
DR_SLOW_FILL=256
DR_SLOW_N=600
# The UMEM too small (dr-vumem): DR_UMEM_FRAMES frames for a fill ring of 2048; the run is
# stopped (SIGSTOP: what a burst that outruns the worker does, made certain) while DR_UMEM_N
# frames come, so the fill ring holds the UMEM's frames and no more: every frame past them is
# lost, and with the UMEM of the fix none
DR_UMEM_FRAMES=256
DR_UMEM_N=400

# The tests' lines (guest.sh's input: doctor NAME) for kernel K and NIC N: kernel 7.x only
# (igb's AF_XDP and the netdev netlink family the doctor reads need it).
# XSKF_LAB_DOCTOR="dr-rss dr-irq" runs only those of the list.
doctor_lines() {
	[ "$1" = 7 ] || return 0
	local t
	case $2 in
	igb) t="dr-healthy dr-rss dr-ntuple dr-flowhash dr-promisc dr-irq dr-skb" ;;
	virtio) t="dr-vhealthy dr-unbound dr-foreign dr-busypoll dr-vslow dr-vslow-zc dr-vumem" ;;
	esac
	for t in $t; do
		[ -z "${XSKF_LAB_DOCTOR:-}" ] || case " $XSKF_LAB_DOCTOR " in *" $t "*) ;; *) continue ;; esac
		echo "doctor $t"
	done
}

# The hook: guest_tests (lab/tests.sh) with `doctor` added. lab_kernel calls it with its
# run folder in `d` (a local of its own, seen here), where the guest's side of these tests
# goes (guest_doctor.sh: guest.sh sources every /lab/guest_*.sh); each doctor test also gets a
# minute more of the boot's bound (LAB_TIMEOUT: lab_kernel reads it after this call).
eval "doctor_guest_tests_orig() $(declare -f guest_tests | tail -n +2)"
DOCTOR_TIMEOUT0=$LAB_TIMEOUT
guest_tests() {
	local k=$1 nic=$2 t n
	shift 2
	LAB_TIMEOUT=$DOCTOR_TIMEOUT0
	for t in "$@"; do
		if [ "$t" != doctor ]; then
			doctor_guest_tests_orig "$k" "$nic" "$t"
			continue
		fi
		n=$(doctor_lines "$k" "$nic" | grep -c .)
		[ "$n" -gt 0 ] || continue
		doctor_lines "$k" "$nic"
		doctor_guest_script >"$d/guest_doctor.sh"
		cp "$BUILD/tests/integration/foreign_pass.bpf.o" "$d/foreign_pass.bpf.o" 2>/dev/null
		LAB_TIMEOUT=$((LAB_TIMEOUT + 60 * n))
	done
}

# The guest's side (sourced by guest.sh before its test loop).
doctor_guest_script() {
	cat <<EOF
DR_WINDOW=$DR_WINDOW
DR_SLOW_US=$DR_SLOW_US
DR_SLOW_FILL=$DR_SLOW_FILL
DR_UMEM_FRAMES=$DR_UMEM_FRAMES
GUEST_MAC=$GUEST_MAC
DR_FOREIGN_MAC=$DR_FOREIGN_MAC
TAP0_MAC=$TAP0_MAC
EOF
	cat <<'EOF'
# dr_pre T NAME ARGS...: xskf doctor -i eth0 ARGS into T.NAME, its exit status into T.NAME.rc
dr_pre() {
	local t=$1 n=$2
	shift 2
	$B/apps/xskf doctor -i $IF "$@" >/lab/$t.$n 2>/lab/$t.$n.err
	echo $? >/lab/$t.$n.rc
}
# dr_start T ARGS...: xsk-rxdrop ARGS on eth0, up (attached, its control socket, the link up
# again after igb's reset at the attach); DR_PID, DR_SOCK; 1 if it did not come up
dr_start() {
	local t=$1
	shift
	dr_start_cmd $t $B/apps/xsk-rxdrop -i $IF "$@" --quiet --json
}
# dr_slow T ARGS...: the same with the slow app (xskf run slow: DR_SLOW_US on each frame)
dr_slow() {
	local t=$1
	shift
	dr_start_cmd $t env XSKF_PLUGIN_PATH=$B/tests/plugins $B/apps/xskf run slow -i $IF "$@" \
		--quiet --json -- --frame-us $DR_SLOW_US
}
# dr_start_cmd T CMD...: a run of CMD (its JSON in T.json, its stderr in T.err), as dr_start
dr_start_cmd() {
	local t=$1
	shift
	wait_link
	"$@" >/lab/$t.json 2>/lab/$t.err &
	DR_PID=$!
	until has_xdp && ls /run/xskf/*.$DR_PID.sock >/dev/null 2>&1; do
		kill -0 $DR_PID 2>/dev/null || { echo "${*##*/} did not start" >>/lab/$t.fault; return 1; }
		sleep 0.1
	done
	DR_SOCK=$(ls /run/xskf/*.$DR_PID.sock)
	wait_link || echo "no carrier 60 s after the attach" >>/lab/$t.fault
}
dr_stop() {
	kill -INT $DR_PID
	wait $DR_PID
	echo $? >/lab/$1.runrc
}
# dr_rxq: frames the NIC's RX queues took, all of them, as "XDP PACKETS": the sums of the
# driver's per-queue counters of frames XDP ran on (virtio-net on 7.x: rxQ_xdp_packets, and no
# rxQ_packets for zero-copy queues) and of frames received (igb: rx_queue_Q_packets)
dr_rxq() {
	ethtool -S $IF | awk '$1 ~ /^rx[0-9]+_xdp_packets:$/ { x += $2 }
		$1 ~ /^rx(_queue_)?[0-9]+_packets:$/ { p += $2 } END { print x + 0, p + 0 }'
}
# dr_took X0 P0: frames taken since dr_rxq said "X0 P0" (the larger of the two counts)
# (no process substitution: the guest's devtmpfs has no /dev/fd)
dr_took() {
	local x p
	read -r x p <<<"$(dr_rxq)"
	x=$((${x:-0} - $1)) p=$((${p:-0} - $2))
	echo $((x > p ? x : p))
}
# dr_round T R [BOUND]: round R of frames: T.readyR for the host, then until T.sentR, and until
# the NIC took them all or BOUND s (default 30) passed (a NIC that filters them takes none: there
# the bound is the test)
dr_round() {
	local t=$1 r=$2 x0 p0 n end=$((SECONDS + ${3:-30}))
	read -r x0 p0 <<<"$(dr_rxq)"
	touch /lab/$t.ready$r
	wait_file /lab/msg/$t.sent$r
	read -r n </lab/msg/$t.sent$r
	until [ "$(dr_took $x0 $p0)" -ge "$n" ] || [ $SECONDS -ge $end ]; do sleep 0.2; done
	dr_took $x0 $p0 >/lab/$t.nic$r
	ethtool -S $IF >/lab/$t.stats$r 2>&1 # the driver's counters, for a look when it failed
}
# dr_live T [R [BOUND]]: xskfctl doctor on the run for DR_WINDOW s; with R, round R of frames
# in its window (T.inwinR: the NIC took them all while the doctor still sampled)
dr_live() {
	local t=$1 r=${2:-} bound=${3:-30} dp
	$B/apps/xskfctl -s "$DR_SOCK" doctor --seconds $DR_WINDOW >/lab/$t.live 2>/lab/$t.live.err &
	dp=$!
	until grep -q 'doctor: sampling' /lab/$t.live.err 2>/dev/null; do
		kill -0 $dp 2>/dev/null || break
		sleep 0.1
	done
	if [ -n "$r" ]; then
		# DR_HOLD: the run stopped while the round comes (dr-vumem), on again once the NIC
		# took it all
		[ -z "${DR_HOLD:-}" ] || kill -STOP $DR_PID
		dr_round $t $r $bound
		! kill -0 $dp 2>/dev/null || echo 1 >/lab/$t.inwin$r
		[ -z "${DR_HOLD:-}" ] || kill -CONT $DR_PID
	fi
	wait $dp
	echo $? >/lab/$t.live.rc
}
# the host's address resolved for good: frames passed to the stack make the guest answer (ICMP
# port unreachable), and an ARP exchange for it would add a frame to the host's count
ip neigh replace 192.0.2.1 lladdr $TAP0_MAC dev $IF nud permanent
# the igb tests' common state: the RETA all to queue 1, UDP hashed by ports (IPv4 and IPv6),
# promiscuous mode off, no ntuple rule, the interrupts where the kernel put them
dr_igb_base() {
	ethtool -X $IF weight 0 1
	ethtool -N $IF rx-flow-hash udp4 sdfn
	ethtool -N $IF rx-flow-hash udp6 sdfn
	ip link set $IF promisc off
}
# queue Q's RX interrupt: igb names it eth0-rx-Q (2 queues: RX and TX vectors apart; paired
# queues, eth0-TxRx-Q)
dr_irq() {
	awk -v a="$IF-rx-$1" -v b="$IF-TxRx-$1" '$NF == a || $NF == b { sub(":", "", $1); print $1 }' /proc/interrupts
}

doctor_dr-healthy() {
	local t=$1
	dr_igb_base
	ethtool -x $IF >/lab/$t.setup 2>&1
	dr_pre $t pre -q 1 --mac $GUEST_MAC
	dr_start $t -q 1 || return
	dr_live $t 1
	dr_stop $t
}
doctor_dr-rss() { # the RETA leaves queue 1 out; a run on queue 1
	local t=$1
	dr_igb_base
	ethtool -X $IF weight 1 0
	ethtool -x $IF >/lab/$t.setup 2>&1
	dr_pre $t pre -q 1 --mac $GUEST_MAC
	dr_start $t -q 1 || return
	dr_live $t 1
	dr_stop $t
	ethtool -X $IF weight 0 1
}
doctor_dr-ntuple() { # a rule sends IPv4 to queue 0; the RETA and the run on queue 1
	local t=$1
	dr_igb_base
	if ! ethtool -K $IF ntuple on >/lab/$t.ntuple 2>&1 ||
		! ethtool -N $IF flow-type ether proto 0x0800 action 0 >>/lab/$t.ntuple 2>&1; then
		echo 1 >/lab/$t.refused
		return
	fi
	ethtool -n $IF >/lab/$t.setup 2>&1
	dr_pre $t pre -q 1 --mac $GUEST_MAC
	dr_start $t -q 1 || return
	dr_live $t 1
	dr_stop $t
	ethtool -n $IF | awk '/^Filter:/ { print $2 }' | while read -r id; do ethtool -N $IF delete $id; done
	ethtool -K $IF ntuple off
}
doctor_dr-flowhash() { # UDP over IPv4 by addresses only, one address pair; a run on both queues
	local t=$1
	dr_igb_base
	ethtool -X $IF equal 2
	ethtool -N $IF rx-flow-hash udp4 sd
	ethtool -n $IF rx-flow-hash udp4 >/lab/$t.setup 2>&1
	dr_pre $t pre --mac $GUEST_MAC
	dr_start $t || return
	dr_live $t 1
	dr_stop $t
	dr_igb_base
}
doctor_dr-promisc() { # frames to another MAC, promiscuous mode off; then on
	local t=$1
	dr_igb_base
	dr_pre $t pre -q 1 --mac $DR_FOREIGN_MAC
	dr_start $t -q 1 || return
	# (none of them arrives: the bound of the wait is what the test waits)
	dr_live $t 1 8
	# the fix: the same frames arrive once the NIC is promiscuous
	ip link set $IF promisc on
	dr_pre $t fixed -q 1 --mac $DR_FOREIGN_MAC
	dr_round $t 2
	dr_stop $t
	ip link set $IF promisc off
}
doctor_dr-irq() { # queue 1's interrupt on CPU 1, the worker of queue 1 pinned there
	local t=$1 irq
	dr_igb_base
	irq=$(dr_irq 1)
	[ -n "$irq" ] || { echo "no interrupt named $IF-rx-1 or $IF-TxRx-1 among: $(awk '{ print $NF }' /proc/interrupts | grep "^$IF" | tr '\n' ' ')" >>/lab/$t.fault; return; }
	nproc >/lab/$t.cpus
	echo 1 >/proc/irq/$irq/smp_affinity_list 2>>/lab/$t.fault
	cat /proc/irq/$irq/effective_affinity_list >/lab/$t.setup 2>&1
	dr_pre $t pre -q 1 --cpus 1 --mac $GUEST_MAC
	dr_start $t -q 1 --cpus 1 || return
	dr_live $t
	# the fix the line gives: the interrupt off the worker's CPU. x86 moves an MSI interrupt
	# when it next fires: frames make it fire, then its effective affinity is CPU 0
	echo 0 >/proc/irq/$irq/smp_affinity_list
	dr_round $t 1
	local end=$((SECONDS + 30))
	until [ "$(cat /proc/irq/$irq/effective_affinity_list)" = 0 ] || [ $SECONDS -ge $end ]; do sleep 0.2; done
	dr_pre $t fixed -q 1 --cpus 1 --mac $GUEST_MAC
	dr_stop $t
}
doctor_dr-skb() { # -z asked with SKB mode: alone, and beside a run attached in SKB mode
	local t=$1
	dr_igb_base
	dr_pre $t pre -q 1 -z --skb --mac $GUEST_MAC
	dr_start $t -q 0 -S -c || return
	dr_pre $t join -q 1 -z --mac $GUEST_MAC
	dr_stop $t
}

doctor_dr-vhealthy() {
	local t=$1
	dr_pre $t pre --mac $GUEST_MAC
	dr_start $t || return
	dr_live $t 1
	dr_stop $t
}
doctor_dr-unbound() { # a run on queue 0 only: the tap spreads the 16 flows over both queues
	local t=$1
	dr_start $t -q 0 || return
	dr_live $t 1
	dr_stop $t
}
doctor_dr-foreign() { # another XDP program attached alone, natively
	local t=$1
	ip link set dev $IF xdpdrv obj /lab/foreign_pass.bpf.o sec xdp 2>/lab/$t.attach
	dr_pre $t pre -q 0 --mac $GUEST_MAC
	ip link set dev $IF xdpdrv off
	dr_pre $t fixed -q 0 --mac $GUEST_MAC
}
doctor_dr-busypoll() { # -B: do virtio-net's queues have NAPI IDs? Both doctors say
	local t=$1
	dr_pre $t pre -q 0 -B --mac $GUEST_MAC -v
	dr_start $t -q 0 -B || return
	$B/apps/xskfctl -s "$DR_SOCK" stats >/lab/$t.stats 2>&1
	dr_live $t
	dr_stop $t
}
# dr_probe T: round 1 (one flow, before any run) and the queue it came to, in DR_Q and T.queue;
# 1 (and T.fault) if it did not all come to one queue. virtio-net on 7.x counts frames per
# queue only where XDP runs (rxQ_xdp_packets; rxQ_packets went to the netdev family's queue
# stats): a program that passes every frame (foreign_pass) is attached for the probe
dr_probe() {
	local t=$1 before after n end=$((SECONDS + 30))
	ip link set dev $IF xdpdrv obj /lab/foreign_pass.bpf.o sec xdp 2>/lab/$t.attach ||
		{ echo "the probe's program: $(tr -cd '[:print:]' </lab/$t.attach | head -c 200)" >>/lab/$t.fault; return 1; }
	before=$(dr_rxpk)
	touch /lab/$t.ready1
	wait_file /lab/msg/$t.sent1
	read -r n </lab/msg/$t.sent1
	while :; do
		after=$(dr_rxpk)
		# the queue whose count grew by all of the round (a here-string each: no /dev/fd)
		DR_Q=$(printf '%s\n--\n%s\n' "$before" "$after" | awk -v n=$n '
			$1 == "--" { a = 1; next }
			!a { b[$1] = $2; next }
			$2 - b[$1] >= n { print $1 }')
		[ -z "$DR_Q" ] && [ $SECONDS -lt $end ] || break
		sleep 0.2
	done
	ip link set dev $IF xdpdrv off
	printf '%s\n--\n%s\n' "$before" "$after" >/lab/$t.probe
	case $DR_Q in
	[0-9] | [0-9][0-9]) echo $DR_Q >/lab/$t.queue ;;
	*) echo "the probe's $n frames (one flow) did not all come to one queue: $(tr '\n' ' ' </lab/$t.probe)" >>/lab/$t.fault; return 1 ;;
	esac
}
# dr_rxpk: "QUEUE FRAMES" a line, the frames XDP ran on per RX queue (rxQ_xdp_packets)
dr_rxpk() { ethtool -S $IF | awk '$1 ~ /^rx[0-9]+_xdp_packets:$/ { q = $1; gsub(/_xdp_packets:$/, "", q); gsub(/[^0-9]/, "", q); print q, $2 }'; }
doctor_dr-vslow() { # the slow app in copy mode on the flow's queue: the fill ring runs dry
	local t=$1
	dr_probe $t || return
	dr_pre $t pre -q $DR_Q --fill-ring $DR_SLOW_FILL --mac $GUEST_MAC
	dr_slow $t -q $DR_Q -c --fill-ring $DR_SLOW_FILL || return
	dr_live $t 2
	dr_stop $t
}
doctor_dr-vslow-zc() { # the same in the driver's own mode (zero-copy on 7.x: the NIC waits)
	local t=$1
	dr_probe $t || return
	dr_slow $t -q $DR_Q --fill-ring $DR_SLOW_FILL || return
	dr_live $t 2
	dr_stop $t
}
doctor_dr-vumem() { # --frames DR_UMEM_FRAMES, copy mode; then the fix: --frames left out
	local t=$1 f
	dr_probe $t || return
	dr_pre $t pre -q $DR_Q --frames $DR_UMEM_FRAMES --mac $GUEST_MAC
	dr_start $t -q $DR_Q -c --frames $DR_UMEM_FRAMES || return
	DR_HOLD=1 dr_live $t 2
	dr_stop $t
	# the first run's files as T.1.*: the fix's run writes its own
	for f in json err live live.err live.rc runrc; do mv /lab/$t.$f /lab/$t.1.$f; done
	dr_pre $t fixed -q $DR_Q --mac $GUEST_MAC
	dr_start $t -q $DR_Q -c || return
	DR_HOLD=1 dr_live $t 3
	dr_stop $t
}
run_doctor() {
	local t=$1 t0=$SECONDS
	DR_PID=
	doctor_$t $t
	# a run a test that went wrong left: stopped, so that the next tests have the queues
	if [ -n "$DR_PID" ] && kill -0 $DR_PID 2>/dev/null; then
		echo "xsk-rxdrop was still running at the end" >>/lab/$t.fault
		dr_stop $t
	fi
	echo $((SECONDS - t0)) >/lab/$t.secs
	echo 0 >/lab/$t.rc
}
EOF
}

# Host side: each round of frames the guest is ready for (rounds 1, 2, then 3), from one source
# address in 16 flows (source ports; one flow for the tests of one queue), to the guest's MAC
# (dr-promisc: to DR_FOREIGN_MAC).
host_doctor() {
	local d=$1 t=$2 r dmac=$GUEST_MAC n flows
	[ "$t" != dr-promisc ] || dmac=$DR_FOREIGN_MAC
	lab_wait "$LAB_TIMEOUT" test -e "$d/uname" || return 0
	for r in 1 2 3; do
		# the tests of one queue (dr_probe): one flow, round 1 the probe
		case $t/$r in
		dr-vslow*/1 | dr-vumem/1) n=$DR_PROBE_N flows=1 ;;
		dr-vslow*) n=$DR_SLOW_N flows=1 ;;
		dr-vumem/*) n=$DR_UMEM_N flows=1 ;;
		*) n=$DR_N flows=16 ;;
		esac
		ready_or_rc() { [ -e "$d/$t.ready$r" ] || [ -e "$d/$t.rc" ]; }
		lab_wait "$LAB_TIMEOUT" ready_or_rc || return 0
		[ -e "$d/$t.ready$r" ] || return 0
		ip netns exec "$NS" $PY -c "$SEND_PY" tap0 $dmac $HOST_IP $GUEST_IP $n 1 $flows \
			>"$d.host/$t.gen$r.json" 2>"$d.host/$t.gen$r.err"
		lab_json_int "$d.host/$t.gen$r.json" "d['sent']" | lab_put "$d" "$t.sent$r"
	done
}

# --- the host's checks: each guest file read as data -------------------------------------
# dr_text F: F's first lines, printable, 300 bytes at most (for the result line)
dr_text() { head -c 300 "$1" 2>/dev/null | tr '\n' '|' | tr -cd '[:print:]'; }
# dr_only D T N PATTERN RC: file T.N holds exactly one line, matching PATTERN (grep -E), and
# xskf doctor exited RC
dr_only() {
	local f=$1/$2.$3 rc
	rc=$(lab_int "$f.rc") || { echo "$rc"; return 1; }
	[ "$(grep -c . "$f" 2>/dev/null)" = 1 ] && grep -Eq -- "$4" "$f" ||
		{ echo "$3: not the one line wanted: $(dr_text "$f") $(dr_text "$f.err")"; return 1; }
	[ "$rc" = "$5" ] || { echo "$3: exit $rc, not $5: $(dr_text "$f")"; return 1; }
}
# dr_healthy_file F: exactly "no problem found"
dr_none() {
	[ "$(cat "$1/$2.$3" 2>/dev/null)" = "no problem found" ] ||
		{ echo "$3: not 'no problem found': $(dr_text "$1/$2.$3") $(dr_text "$1/$2.$3.err")"; return 1; }
}
# dr_sent D T R: the frames the host put on the tap in round R (its own file)
dr_sent() { lab_json_int "$1.host/$2.gen$3.json" "d['sent']"; }
# dr_inwin D T R: the NIC took all of round R inside the doctor's window
dr_inwin() {
	[ -e "$1/$2.inwin$3" ] || { echo "round $3: the NIC took $(lab_int "$1/$2.nic$3") frames, not all, in the doctor's window"; return 1; }
}
# dr_q D T EXPR: an integer of the run's --json (its queues)
dr_q() { lab_json_int "$1/$2.json" "$3"; }
dr_fault() { [ ! -s "$1/$2.fault" ] || { echo "$(dr_text "$1/$2.fault")"; return 1; }; }

# check_doctor D T: test T's own check, its line ending in the guest's seconds for it
check_doctor() {
	local d=$1 t=$2 res rc secs
	[ -e "$d/$t.rc" ] || { echo "the guest did not finish the test"; return 1; }
	secs=$(lab_int "$d/$t.secs") || secs="?"
	dr_fault "$d" "$t" || return 1
	res=$(check_$t "$d" "$t")
	rc=$?
	echo "$res ($secs s in the guest)"
	return $rc
}

# a run that got every frame on queue 1: "no problem found" before and during, all redirected
check_dr-healthy() {
	local d=$1 t=$2 s r
	dr_none "$d" "$t" pre || return 1
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	dr_none "$d" "$t" live || return 1
	r=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'] if q['queue'] == 1)") || { echo "$r"; return 1; }
	[ "$r" = "$s" ] || { echo "sent $s, queue 1 redirected $r"; return 1; }
	echo "RETA all to queue 1, run on queue 1: xskf doctor and xskfctl doctor (window of $s frames, all redirected): 'no problem found'"
}
check_dr-rss() {
	local d=$1 t=$2 s
	dr_only "$d" "$t" pre "^problem rss: queue 1 of eth0 gets no RSS-hashed frames: only an ntuple rule can send frames there; evidence: the RSS indirection table's [0-9]+ entries name queues 0 only \(ethtool -x eth0\); fix: ethtool -X eth0 equal 2$" 1 || return 1
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	dr_only "$d" "$t" live "^problem unbound-queue: $s frames arrived on eth0 queue 0, where this run binds no socket: the program passed them to the stack, while the bound queues received nothing; " 1 || return 1
	echo "ethtool -X eth0 weight 1 0, run on queue 1: xskf doctor: $(cut -c1-60 "$d/$t.pre" | tr -cd '[:print:]')...; xskfctl doctor: all $s frames on queue 0, unbound"
}
check_dr-ntuple() {
	local d=$1 t=$2 s
	if [ -e "$d/$t.refused" ]; then
		echo "QEMU's igb refuses the ntuple rule: $(dr_text "$d/$t.ntuple") (a fact, not a failure)"
		return 0
	fi
	dr_only "$d" "$t" pre "^problem ntuple: ntuple rule [0-9]+ sends its frames \(ether proto 0x0800\) to queue 0, where this run binds no socket: they go to the stack; evidence: ethtool -n eth0: rule [0-9]+, action 0; asked: 1; fix: ethtool -N eth0 delete [0-9]+ \(or bind queue 0 too: -q 0\)$" 1 || return 1
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	if dr_none "$d" "$t" live >/dev/null; then
		echo "xskf doctor names the rule; QEMU's igb does not apply it (all $s frames reached queue 1, as the RETA says): $(dr_text "$d/$t.pre")"
		return 0
	fi
	dr_only "$d" "$t" live "^problem unbound-queue: $s frames arrived on eth0 queue 0, where this run binds no socket: the program passed them to the stack, while the bound queues received nothing; " 1 || return 1
	echo "ethtool -N eth0 flow-type ether proto 0x0800 action 0, RETA all to queue 1, run on queue 1: xskf doctor names the rule; xskfctl doctor: all $s frames on queue 0"
}
check_dr-flowhash() {
	local d=$1 t=$2 s q0 q1
	dr_only "$d" "$t" pre "^problem rx-flow-hash: udp4 frames are hashed over their addresses only: every flow between two hosts lands on one queue, and the other asked queues get none of them; evidence: ethtool -n eth0 rx-flow-hash udp4: IP SA, IP DA; asked: 0,1; fix: ethtool -N eth0 rx-flow-hash udp4 sdfn$" 1 || return 1
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	q0=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'] if q['queue'] == 0)") || { echo "$q0"; return 1; }
	q1=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'] if q['queue'] == 1)") || { echo "$q1"; return 1; }
	[ $((q0 + q1)) = "$s" ] && { [ "$q0" = 0 ] || [ "$q1" = 0 ]; } ||
		{ echo "one address pair, 16 ports, hashed by addresses: queue 0 got $q0, queue 1 $q1 of $s"; return 1; }
	dr_flowhash_live "$d" "$t" "$s" "$q0" "$q1"
}
# the live doctor on the skew: its line when it has one, else "no problem found" (nothing lost)
dr_flowhash_live() {
	local d=$1 t=$2 s=$3 q0=$4 q1=$5 busy=0 idle=1
	[ "$q0" != 0 ] || { busy=1 idle=0; }
	if grep -q '^problem rx-flow-hash: ' "$d/$t.live" 2>/dev/null; then
		dr_only "$d" "$t" live "^problem rx-flow-hash: eth0 queue $idle received nothing while queue $busy received $s frames: udp4 frames are hashed over their addresses only" 1 || return 1
	else
		dr_none "$d" "$t" live || return 1
	fi
	echo "rx-flow-hash udp4 sd, one address pair in 16 flows: xskf doctor names it; live: queue $busy got all $s, queue $idle none; xskfctl doctor: $(dr_text "$d/$t.live" | cut -c1-120)"
}
check_dr-promisc() {
	local d=$1 t=$2 s1 s2 n1 n2
	dr_only "$d" "$t" pre "^problem promisc: frames to $DR_FOREIGN_MAC are dropped by the NIC's MAC filter, before XDP; evidence: eth0's MAC is $GUEST_MAC, promiscuous mode off; the traffic is for $DR_FOREIGN_MAC \(--mac\); fix: ip link set dev eth0 promisc on$" 1 || return 1
	dr_none "$d" "$t" fixed || return 1
	s1=$(dr_sent "$d" "$t" 1) || { echo "$s1"; return 1; }
	s2=$(dr_sent "$d" "$t" 2) || { echo "$s2"; return 1; }
	n1=$(lab_int "$d/$t.nic1") || { echo "$n1"; return 1; }
	n2=$(lab_int "$d/$t.nic2") || { echo "$n2"; return 1; }
	[ "$n1" = 0 ] || { echo "promiscuous mode off: the NIC took $n1 of $s1 frames to $DR_FOREIGN_MAC"; return 1; }
	[ "$n2" -ge "$s2" ] || { echo "promiscuous mode on: the NIC took $n2 of $s2 frames"; return 1; }
	dr_none "$d" "$t" live || return 1
	echo "frames to $DR_FOREIGN_MAC: xskf doctor names the MAC filter; the NIC took 0 of $s1 (xskfctl doctor: nothing to see), then with promisc on $n2 of $s2 and xskf doctor 'no problem found'"
}
check_dr-irq() {
	local d=$1 t=$2 cpus
	cpus=$(lab_int "$d/$t.cpus") || { echo "$cpus"; return 1; }
	[ "$cpus" -ge 2 ] || { echo "the guest has $cpus CPU: a worker cannot be kept off the interrupt's"; return 1; }
	dr_only "$d" "$t" pre "^problem irq-cpu: queue 1's interrupt runs on CPU 1, where its own worker polls: .*; evidence: IRQ [0-9]+ \(eth0-(rx|TxRx)-1\): /proc/irq/[0-9]+/effective_affinity_list 1; --cpus puts the worker of queue 1 on CPU 1; fix: echo 0 > /proc/irq/[0-9]+/smp_affinity_list" 1 || return 1
	dr_only "$d" "$t" live "^problem irq-cpu: eth0 queue 1: worker 0 polls on CPU 1, where the queue's interrupt runs: .*; evidence: IRQ [0-9]+ \(eth0-(rx|TxRx)-1\), effective affinity 1; the worker pinned to CPU 1 \(--cpus\)" 1 || return 1
	dr_none "$d" "$t" fixed || return 1
	echo "$cpus CPUs, queue 1's IRQ on CPU 1 and --cpus 1: both doctors name it; the interrupt moved to CPU 0: 'no problem found'"
}
check_dr-skb() {
	local d=$1 t=$2
	dr_only "$d" "$t" pre "^problem xdp-mode: --skb asked: SKB \(generic\) mode copies every frame into the UMEM, and -z fails; evidence: the driver of eth0 has native XDP \(netdev xdp-features: basic\); fix: drop --skb$" 1 || return 1
	dr_only "$d" "$t" join "^problem xdp-mode: .*SKB mode: a run that joins it runs in copy mode, and -z fails; " 1 || return 1
	echo "-z --skb: one line; -z beside a run in SKB mode: one line ($(cut -c1-90 "$d/$t.join" | tr -cd '[:print:]')...)"
}

check_dr-vhealthy() {
	local d=$1 t=$2 s r
	dr_none "$d" "$t" pre || return 1
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	dr_none "$d" "$t" live || return 1
	r=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$r"; return 1; }
	[ "$r" = "$s" ] || { echo "sent $s, redirected $r"; return 1; }
	echo "both queues bound: xskf doctor and xskfctl doctor (a window of $s frames, all redirected): 'no problem found'"
}
check_dr-unbound() {
	local d=$1 t=$2 s r n
	s=$(dr_sent "$d" "$t" 1) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 1 || return 1
	r=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$r"; return 1; }
	[ "$r" != "$s" ] || { echo "the tap put all $s frames on queue 0: no frame to judge"; return 1; }
	n=$((s - r))
	dr_only "$d" "$t" live "^problem unbound-queue: $n frames arrived on eth0 queue 1, where this run binds no socket: the program passed them to the stack; evidence: program passed \+$n on queue 1; the bound queues received $r; fix: bind queue 1 too \(-q 1\)" 1 || return 1
	echo "run on queue 0: $r of $s frames there, $n on queue 1: xskfctl doctor names those $n, one line"
}
check_dr-foreign() {
	local d=$1 t=$2
	[ ! -s "$d/$t.attach" ] || { echo "ip link set xdpdrv: $(dr_text "$d/$t.attach")"; return 1; }
	dr_only "$d" "$t" pre "^problem xdp: another XDP program 'foreign_pass' \(id [0-9]+\) holds eth0 alone, in native mode: .*; fix: ip link set dev eth0 xdp off" 1 || return 1
	dr_none "$d" "$t" fixed || return 1
	echo "foreign_pass attached natively: one line, its name, mode and fix; detached: 'no problem found'"
}
check_dr-busypoll() {
	local d=$1 t=$2 napi
	napi=$(grep -m1 -E '^ok napi: ' "$d/$t.pre" | tr -cd '[:print:]')
	if [ -n "$napi" ]; then
		# the queues have NAPI IDs: -B is on, and neither doctor says a word
		[ "$(grep -c '^problem' "$d/$t.pre")" = 0 ] || { echo "pre: $(dr_text "$d/$t.pre")"; return 1; }
		dr_none "$d" "$t" live || return 1
		grep -q 'preferred busy polling, budget one batch (1 of 1 sockets have a NAPI ID)' "$d/$t.err" ||
			{ echo "the run's busy polling line: $(grep -m1 'busy poll' "$d/$t.err" | tr -cd '[:print:]' | cut -c1-200)"; return 1; }
		echo "virtio-net has a NAPI ID per queue ($napi): the run's -B on (1 of 1 sockets have a NAPI ID), both doctors 'no problem found'"
		return 0
	fi
	dr_only "$d" "$t" live "^problem busy-poll: busy polling \(-B\) was asked and is off" 1 || return 1
	echo "virtio-net's queues have no NAPI ID: $(dr_text "$d/$t.live" | cut -c1-100)"
}
# dr_lost D T F: the frames line F (T.F) says were lost ("... lost N frames ...")
dr_lost() { sed -nE '1s/^problem fill-empty: eth0 queue [0-9]+ lost ([0-9]+) frames.*/\1/p' "$1/$2.$3" 2>/dev/null; }
# the slow app: the line names the fill ring run dry by the app, with its time per frame; the
# frames it says lost are the run's own count of the kernel's, and every frame sent reached
# the flow's queue
check_dr-vslow() {
	local d=$1 t=$2 s lost k r us q
	q=$(lab_int "$d/$t.queue") || { echo "the probe: $q"; return 1; }
	dr_none "$d" "$t" pre || return 1
	s=$(dr_sent "$d" "$t" 2) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 2 || return 1
	dr_only "$d" "$t" live "^problem fill-empty: eth0 queue $q lost [0-9]+ frames: the fill ring was empty when they came: the app gives buffers back slower than the traffic takes them; evidence: kernel rx_dropped \+[0-9]+, rx_fill_ring_empty_descs \+[0-9]+ in [0-9.]+ s \([0-9]+ of them while the worker slept\); fill ring $DR_SLOW_FILL slots, UMEM [0-9]+ frames for 1 socket; worker 0 worked [0-9.]+ s of the [0-9.]+ s, [0-9.]+ us per frame received; fix: a cheaper app per frame" 1 || return 1
	lost=$(dr_lost "$d" "$t" live)
	lab_is_int "$lost" && [ "$lost" -gt 0 ] || { echo "live: no count of frames lost: $(dr_text "$d/$t.live")"; return 1; }
	k=$(dr_q "$d" "$t" "sum(q['kernel']['rx_dropped'] for q in d['queues'])") || { echo "$k"; return 1; }
	[ "$k" = "$lost" ] || { echo "doctor says $lost lost, the run's kernel rx_dropped is $k"; return 1; }
	r=$(dr_q "$d" "$t" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$r"; return 1; }
	[ "$r" = "$s" ] || { echo "sent $s, queue $q redirected $r"; return 1; }
	us=$(sed -nE '1s/.* ([0-9]+)(\.[0-9]+)? us per frame received.*/\1/p' "$d/$t.live")
	echo "$DR_SLOW_US us a frame, fill ring $DR_SLOW_FILL, $s frames of one flow to queue $q (copy mode): xskf doctor 'no problem found'; xskfctl doctor: one line, fill-empty by the app, $lost lost (the run's rx_dropped), $us us per frame"
}
# the same in zero-copy: the driver finds the fill ring empty and the NIC waits (the tap holds
# the frames): no frame is lost in the guest, and the line says the fill ring ran dry
check_dr-vslow-zc() {
	local d=$1 t=$2 s zc q
	q=$(lab_int "$d/$t.queue") || { echo "the probe: $q"; return 1; }
	zc=$(dr_q "$d" "$t" "int(all(q['zerocopy'] for q in d['queues']))") || { echo "$zc"; return 1; }
	[ "$zc" = 1 ] || { echo "the run did not bind in zero-copy: $(dr_text "$d/$t.err")"; return 1; }
	s=$(dr_sent "$d" "$t" 2) || { echo "$s"; return 1; }
	dr_only "$d" "$t" live "^problem fill-empty: eth0 queue $q: the fill ring was empty [0-9]+ times, and the NIC had no buffer for the frames that came \(zero-copy: .*\): the app gives buffers back slower than the traffic takes them; evidence: kernel rx_dropped \+0, rx_fill_ring_empty_descs \+[0-9]+ in [0-9.]+ s .*; fill ring $DR_SLOW_FILL slots, .*us per frame received; fix: a cheaper app per frame" 1 || return 1
	echo "$DR_SLOW_US us a frame, fill ring $DR_SLOW_FILL, $s frames of one flow to queue $q in zero-copy: xskfctl doctor: $(dr_text "$d/$t.live" | cut -c1-160)"
}
# the UMEM too small: both doctors name it; the stopped run's fill ring held the UMEM's frames,
# and every frame past them was lost, as the line says; the fix's run loses none
check_dr-vumem() {
	local d=$1 t=$2 s lost rx k s2 rx2 k2 q
	q=$(lab_int "$d/$t.queue") || { echo "the probe: $q"; return 1; }
	dr_only "$d" "$t" pre "^problem umem: the UMEM is too small for the rings: .*; evidence: --frames $DR_UMEM_FRAMES for 1 socket per worker, each fill ring 2048 slots .*; fix: --frames 4096" 1 || return 1
	s=$(dr_sent "$d" "$t" 2) || { echo "$s"; return 1; }
	dr_inwin "$d" "$t" 2 || return 1
	dr_only "$d" "$t" 1.live "^problem fill-empty: eth0 queue $q lost [0-9]+ frames: the fill ring was empty when they came, and the UMEM is too small to fill it; evidence: kernel rx_dropped \+[0-9]+, rx_fill_ring_empty_descs \+[0-9]+; the UMEM has $DR_UMEM_FRAMES frames for 1 socket, each fill ring 2048 slots \(2048 frames to fill them\); fix: --frames 4096 or more" 1 || return 1
	lost=$(dr_lost "$d" "$t" 1.live)
	rx=$(lab_json_int "$d/$t.1.json" "sum(q['rx_packets'] for q in d['queues'])") || { echo "$rx"; return 1; }
	k=$(lab_json_int "$d/$t.1.json" "sum(q['kernel']['rx_dropped'] for q in d['queues'])") || { echo "$k"; return 1; }
	lab_is_int "$lost" && [ "$lost" = "$k" ] && [ $((rx + k)) = "$s" ] && [ "$rx" -le "$DR_UMEM_FRAMES" ] ||
		{ echo "sent $s: received $rx, rx_dropped $k, doctor's lost '$lost'"; return 1; }
	dr_none "$d" "$t" fixed || return 1
	s2=$(dr_sent "$d" "$t" 3) || { echo "$s2"; return 1; }
	dr_inwin "$d" "$t" 3 || return 1
	dr_none "$d" "$t" live || return 1
	rx2=$(dr_q "$d" "$t" "sum(q['rx_packets'] for q in d['queues'])") || { echo "$rx2"; return 1; }
	k2=$(dr_q "$d" "$t" "sum(q['kernel']['rx_dropped'] for q in d['queues'])") || { echo "$k2"; return 1; }
	[ "$rx2" = "$s2" ] && [ "$k2" = 0 ] || { echo "the fix: sent $s2, received $rx2, rx_dropped $k2"; return 1; }
	echo "queue $q, --frames $DR_UMEM_FRAMES, $s frames of one flow while the run was stopped: xskf doctor and xskfctl doctor name the UMEM, $rx received and $lost lost (the run's rx_dropped); --frames left out: 'no problem found', all $s2 received"
}

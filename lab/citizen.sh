# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's citizen tests beyond `citizen`'s two start orders (sourced by lab/vm_lab.sh;
# `citizen` names them all): xskf through libxdp's dispatcher on a kernel that takes freplace
# programs (7.x), with Debian's xdp-tools (the host's xdp-filter and xdp-loader, libxdp1 in the
# guest's root filesystem).
#   citizen-two  two xsk-rxdrop runs on one interface (queue 0 and queue 1) beside xdp-filter:
#                they share one component in the dispatcher (prog_share.c); each counts its
#                queue's frames, the filter's drops reach neither; the one that leaves first
#                leaves the component to the other, the last takes it out, the filter stays
#   citizen-hints  with RX hints on, where libxdp's dispatcher stubs do not change packet
#                data (before libxdp 1.5.5; bookworm has 1.3.1, trixie 1.5.4) and the kernel
#                checks it (6.13+): with --hints-in auto (the default) xskf puts
#                xskf_redirect_nm in the dispatcher and computes the hints in userspace, on a
#                free interface and beside xdp-filter, said in one line; with --hints-in
#                data_meta (the meta grown: bpf_xdp_adjust_meta()) on a free interface it
#                attaches alone, beside xdp-filter it refuses to start; each said in one line
#                naming libxdp 1.5.5, the filter left as it was
#   dispcost     what the dispatcher costs a frame, BPF_PROG_TEST_RUN in the guest
#                (bench-xdp-prog: xskf_redirect_nm, --no-hints' component, alone, alone in
#                the dispatcher, and second behind a pass-only program); TCG's ns are no measure of a CPU: the
#                ratios are what the line reports

# The guest's lines for `citizen` beyond its two start orders (guest_tests).
citizen_more_lines() {
	echo "citizen2 citizen-two -c --quiet --no-hints"
	echo "citizenh citizen-hints -c"
	echo "dispcost dispcost"
}

# The guest's side (the run folder's guest_citizen.sh, sourced by guest.sh).
citizen_guest_script() {
	cat <<'EOF'
# run_citizen2 T ARGS...: xdp-filter drops source port 1024; run a on queue 0 and run b on
# queue 1 (xsk-rxdrop ARGS), through the dispatcher; a round of frames from the host per queue, then b
# stops (the status after it), then a (the status after it), then the filter is unloaded.
run_citizen2() {
	local t=$1 r pa pb sa sb i v n
	shift
	xf() { /lab/xdp-filter "$@" >>/lab/$t.filter 2>&1; }
	hits() { /lab/xdp-filter status 2>/dev/null | awk '$1 == "1024" { h = $NF } END { print h + 0 }'; }
	redir() {
		$B/apps/xskfctl -s "$1" stats 2>/dev/null |
			python3 -c "import json,sys; print(sum(q['program']['redirected'] for q in json.load(sys.stdin)['queues']))"
	}
	start2() { # start2 X Q ARGS: run X on queue Q, until its control socket and its attach line
		local p
		$B/apps/xsk-rxdrop -i $IF -q $2 "${@:3}" --json >/lab/$t.$1.json 2>/lab/$t.$1.err &
		p=$!
		echo $p >/lab/$t.$1.pid
		until ls /run/xskf/*.$p.sock >/dev/null 2>&1 &&
			grep -q 'XDP program attached\|joined the XDP program' /lab/$t.$1.err; do
			kill -0 $p 2>/dev/null || return 1
			sleep 0.1
		done
	}
	stop2() { # stop2 X: SIGINT, its exit code in T.X.rc
		local p
		p=$(cat /lab/$t.$1.pid)
		kill -INT $p
		wait $p
		echo $? >/lab/$t.$1.rc
	}
	xf load $IF && xf port 1024 --mode src || { echo 1 >/lab/$t.rc; return; }
	start2 a 0 "$@" && start2 b 1 "$@" || { echo 1 >/lab/$t.rc; xf unload $IF --all; return; }
	pa=$(cat /lab/$t.a.pid) pb=$(cat /lab/$t.b.pid)
	sa=$(ls /run/xskf/*.$pa.sock) sb=$(ls /run/xskf/*.$pb.sock)
	/lab/xdp-loader status $IF >/lab/$t.status1 2>&1
	# two rounds, the NIC's RSS indirection table pinned to queue 0 (run a's), then to queue 1
	# (run b's): each run gets exactly its round's frames, whatever the hash key
	n=0
	for r in 1 2; do
		reta_pin $((r - 1)) >/lab/$t.pin$r.err 2>&1
		echo $? >/lab/$t.pinned$r
		touch /lab/$t.ready$r
		wait_file /lab/msg/$t.sent$r
		n=$((n + $(cat /lab/msg/$t.sent$r)))
		i=0 # until both runs and the filter saw every frame, at most 60 s
		while v=$(($(redir $sa) + $(redir $sb) + $(hits))) && [ $v -lt $n ] && [ $i -lt 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		hits >/lab/$t.hits$r
	done
	ethtool -X $IF default 2>/dev/null
	hits >/lab/$t.hits
	stop2 b
	/lab/xdp-loader status $IF >/lab/$t.status2 2>&1
	stop2 a
	/lab/xdp-loader status $IF >/lab/$t.status3 2>&1
	xf unload $IF --all
	/lab/xdp-loader status $IF >/lab/$t.status4 2>&1
	echo 0 >/lab/$t.rc
}

# citizenh_status PID FILE: xdp-loader's status into FILE once it names our component, or
# once run PID has exited, or after 50 s (under TCG a start takes seconds): a state, not a time
citizenh_status() {
	local i
	for i in $(seq 500); do
		/lab/xdp-loader status $IF >$2 2>&1
		grep -q xskf_redirect $2 && return 0
		kill -0 $1 2>/dev/null || return 0
		sleep 0.1
	done
}

# run_citizenh T ARGS...: xsk-rxdrop ARGS (hints on) for a second on the free interface, then
# beside xdp-filter, with --hints-in data_meta (free, beside) and auto (ufree, ubeside: each
# stopped by SIGINT once a status, ustatus1 and ustatus2, names our component); the status
# after each
run_citizenh() {
	local t=$1 w
	shift
	$B/apps/xsk-rxdrop -i $IF "$@" --hints-in data_meta -d 1 --json >/lab/$t.free.json 2>/lab/$t.free.err
	echo $? >/lab/$t.free.rc
	/lab/xdp-loader status $IF >/lab/$t.status1 2>&1
	$B/apps/xsk-rxdrop -i $IF "$@" -d 60 --json >/lab/$t.ufree.json 2>/lab/$t.ufree.err &
	w=$!
	citizenh_status $w /lab/$t.ustatus1
	kill -INT $w
	wait $w
	echo $? >/lab/$t.ufree.rc
	/lab/xdp-filter load $IF >>/lab/$t.filter 2>&1
	$B/apps/xsk-rxdrop -i $IF "$@" --hints-in data_meta -d 1 --json >/lab/$t.beside.json 2>/lab/$t.beside.err
	echo $? >/lab/$t.beside.rc
	/lab/xdp-loader status $IF >/lab/$t.status2 2>&1
	$B/apps/xsk-rxdrop -i $IF "$@" -d 60 --json >/lab/$t.ubeside.json 2>/lab/$t.ubeside.err &
	w=$!
	citizenh_status $w /lab/$t.ustatus2
	kill -INT $w
	wait $w
	echo $? >/lab/$t.ubeside.rc
	/lab/xdp-filter unload $IF --all >>/lab/$t.filter 2>&1
	echo 0 >/lab/$t.rc
}

# run_dispcost T: bench-xdp-prog's table (20000 runs a call, median of 5) in T.out
run_dispcost() {
	$B/tests/bpf/bench-xdp-prog 20000 5 >/lab/$1.out 2>/lab/$1.err
	echo $? >/lab/$1.rc
}
EOF
}

# The host's side of citizen-two: two rounds of 1000 frames (16 source ports, 1024 among them),
# one per queue (the guest pins the indirection table to it before each).
host_citizen2() {
	local d=$1 t=$2 n=1000 r
	lab_wait "$LAB_TIMEOUT" test -e "$d/uname" || return 0
	for r in 1 2; do
		lab_wait "$([ $r = 1 ] && echo "$LAB_RUN_S" || echo $WAIT_S)" test -e "$d/$t.ready$r" || return 0
		lab_send_tap0 $n "$d.host/$t.gen$r.json"
		lab_json_int "$d.host/$t.gen$r.json" "d['sent']" | lab_put "$d" "$t.sent$r"
	done
}

# check_citizen2 D T: one component shared by both runs, named in xdp-loader's status beside the
# filter's; every frame the filter did not drop redirected by run a (queue 0) or b (queue 1),
# each exactly its round's (one per queue), received less the kernel's drops; after b left: the component and the filter;
# after a left: the filter alone; after the filter left: nothing.
check_citizen2() {
	local d=$1 t=$2 x rc sent h ra rb rx kd
	for x in a b; do
		rc=$(cat "$d/$t.$x.rc" 2>/dev/null)
		[ "$rc" = 0 ] || { echo "run $x exited ${rc:-?}: $(grep -v '^ *$' "$d/$t.$x.err" 2>/dev/null | tail -3 | tr '\n' ' ') $(tail -2 "$d/$t.filter" 2>/dev/null | tr '\n' ' ')"; return 1; }
	done
	grep -q "through libxdp's dispatcher" "$d/$t.a.err" || { echo "run a: not through the dispatcher: $(grep -m2 'libxdp\|attached' "$d/$t.a.err")"; return 1; }
	grep -q "joined the XDP program (id [0-9]*) of the xskf runs already there, in native mode through libxdp's dispatcher" "$d/$t.b.err" ||
		{ echo "run b did not join run a's component: $(grep -m2 'libxdp\|attached\|joined' "$d/$t.b.err")"; return 1; }
	[ "$(grep -c xskf_redirect "$d/$t.status1")" = 1 ] && grep -q xdpfilt "$d/$t.status1" ||
		{ echo "xdp-loader status, both runs and the filter: $(tr '\n' '|' <"$d/$t.status1")"; return 1; }
	# the host's own count, then the guest's, each a strict decimal integer
	local s1 s2 h1 p1 p2
	s1=$(lab_json_int "$d.host/$t.gen1.json" "d['sent']") || { echo "$s1"; return 1; }
	s2=$(lab_json_int "$d.host/$t.gen2.json" "d['sent']") || { echo "$s2"; return 1; }
	sent=$((s1 + s2))
	h=$(lab_int "$d/$t.hits") || { echo "$h"; return 1; }
	h1=$(lab_int "$d/$t.hits1") || { echo "$h1"; return 1; }
	ra=$(lab_json_int "$d/$t.a.json" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$ra"; return 1; }
	rb=$(lab_json_int "$d/$t.b.json" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$rb"; return 1; }
	[ "$h1" -gt 0 ] && [ "$h" -gt "$h1" ] || { echo "xdp-filter must drop frames of each round: $h1, then $h in all"; return 1; }
	[ $((ra + rb)) = $((sent - h)) ] || { echo "sent $sent, filter dropped $h, run a $ra + run b $rb"; return 1; }
	# each run exactly its round's frames, less the filter's (the table pinned to its queue);
	# where the table cannot be set, the sum above is what is certain
	p1=$(lab_int "$d/$t.pinned1") || { echo "$p1"; return 1; }
	p2=$(lab_int "$d/$t.pinned2") || { echo "$p2"; return 1; }
	if [ "$p1" = 0 ] && [ "$p2" = 0 ]; then
		[ "$ra" = $((s1 - h1)) ] && [ "$rb" = $((s2 - h + h1)) ] ||
			{ echo "round 1 (queue 0): sent $s1, filter $h1, run a $ra; round 2 (queue 1): sent $s2, filter $((h - h1)), run b $rb"; return 1; }
	fi
	for x in a b; do
		local rd
		rx=$(lab_json_int "$d/$t.$x.json" "sum(q['rx_packets'] for q in d['queues'])") || { echo "$rx"; return 1; }
		kd=$(lab_json_int "$d/$t.$x.json" "sum(q['kernel']['rx_dropped'] + q['kernel']['rx_ring_full'] for q in d['queues'])") || { echo "$kd"; return 1; }
		rd=$(lab_json_int "$d/$t.$x.json" "sum(q['program']['redirected'] for q in d['queues'])") || { echo "$rd"; return 1; }
		[ "$rx" = $((rd - kd)) ] || { echo "run $x: redirected $rd, received $rx, kernel drops $kd"; return 1; }
	done
	grep -q xskf_redirect "$d/$t.status2" && grep -q xdpfilt "$d/$t.status2" ||
		{ echo "after run b left: $(tr '\n' '|' <"$d/$t.status2")"; return 1; }
	! grep -q xskf_redirect "$d/$t.status3" && grep -q xdpfilt "$d/$t.status3" ||
		{ echo "after run a left: $(tr '\n' '|' <"$d/$t.status3")"; return 1; }
	! grep -q 'xskf_redirect\|xdpfilt' "$d/$t.status4" || { echo "left behind: $(tr '\n' '|' <"$d/$t.status4")"; return 1; }
	echo "sent $s1 + $s2 (a round per queue): xdp-filter dropped $h1 + $((h - h1)), run a (queue 0) redirected $ra, run b (queue 1) $rb$([ "$p1$p2" = 00 ] || echo " (the indirection table could not be pinned: per-run counts not asserted)"), one component shared; each left alone"
}

# check_citizenh D T: --hints-in data_meta: alone on the free interface, refused beside the
# filter, each in one line; auto: through the dispatcher both times, the hints computed in
# userspace (one line, --json's hints_in), xskf_redirect_nm the component
check_citizenh() {
	local d=$1 t=$2 why n x
	why="Linux 6.13+ refuses a freplace program that changes packet data (bpf_xdp_adjust_meta()) into libxdp's dispatcher before libxdp 1.5.5"
	for x in ufree ubeside; do
		[ "$(cat "$d/$t.$x.rc" 2>/dev/null)" = 0 ] || { echo "$x (auto): exit $(cat "$d/$t.$x.rc" 2>/dev/null): $(grep -v '^ *$' "$d/$t.$x.err" | tail -3 | tr '\n' '|')"; return 1; }
		n=$(grep -c "^xskf: RX hints: computed in userspace (libxdp's dispatcher refused xskf's program that writes them: $why): the XDP program changes no packet data" "$d/$t.$x.err")
		[ "$n" = 1 ] && grep -q "attached in native mode through libxdp's dispatcher" "$d/$t.$x.err" &&
			$PY -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("hints_in") != "userspace")' "$d/$t.$x.json" 2>/dev/null ||
			{ echo "$x (auto): not the userspace line ($n), the dispatcher and hints_in userspace: $(grep -i 'libxdp\|attached\|RX hints' "$d/$t.$x.err" | tr '\n' '|')"; return 1; }
	done
	grep -q xskf_redirect_nm "$d/$t.ustatus1" && grep -q xskf_redirect_nm "$d/$t.ustatus2" && grep -q xdpfilt "$d/$t.ustatus2" ||
		{ echo "auto: xskf_redirect_nm not in the dispatcher: $(tr '\n' '|' <"$d/$t.ustatus1") $(tr '\n' '|' <"$d/$t.ustatus2")"; return 1; }
	[ "$(cat "$d/$t.free.rc" 2>/dev/null)" = 0 ] || { echo "free interface: exit $(cat "$d/$t.free.rc" 2>/dev/null): $(grep -v '^ *$' "$d/$t.free.err" | tail -3 | tr '\n' '|')"; return 1; }
	n=$(grep -c "^xskf: eth0: libxdp's dispatcher cannot take xskf's program while it writes RX hints: $why; attached alone: no other XDP program can join the interface while xskf runs (--no-hints or --hints-in userspace run through this libxdp's dispatcher)$" "$d/$t.free.err")
	[ "$n" = 1 ] && grep -q 'XDP program attached alone in native mode' "$d/$t.free.err" ||
		{ echo "free interface: not the one line and the attach alone ($n): $(grep -i 'libxdp\|attached' "$d/$t.free.err" | tr '\n' '|')"; return 1; }
	! grep -q 'xskf_redirect' "$d/$t.status1" || { echo "left behind: $(tr '\n' '|' <"$d/$t.status1")"; return 1; }
	[ "$(cat "$d/$t.beside.rc" 2>/dev/null)" != 0 ] || { echo "beside xdp-filter: started"; return 1; }
	n=$(grep -c "^xskf: eth0: libxdp's dispatcher (id [0-9]*) cannot take xskf's program while it writes RX hints: $why, and another program holds the interface: run with --no-hints, --hints-in userspace, or with libxdp 1.5.5 or later$" "$d/$t.beside.err")
	[ "$n" = 1 ] || { echo "beside xdp-filter: not the one line ($n): $(grep -v '^ *$' "$d/$t.beside.err" | tail -4 | tr '\n' '|')"; return 1; }
	grep -q xdpfilt "$d/$t.status2" && ! grep -q xskf_redirect "$d/$t.status2" ||
		{ echo "after the refusal: $(tr '\n' '|' <"$d/$t.status2")"; return 1; }
	echo "auto: through the dispatcher, free and beside xdp-filter, hints computed in userspace (one line, xskf_redirect_nm); data_meta: free interface attached alone, one line; beside xdp-filter refused, one line, the filter left as it was"
}

# check_dispcost D T: the dispatcher's rows were measured; the line gives the ratios to the
# program alone (ns under TCG: emulated, no CPU's measure; the ratios only)
check_dispcost() {
	local d=$1 t=$2 rc
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	[ "$rc" = 0 ] || { echo "bench-xdp-prog exited ${rc:-?}: $(tail -2 "$d/$t.err" 2>/dev/null | tr '\n' ' ')"; return 1; }
	$PY - "$d/$t.out" <<'EOPY'
import sys
rows = {}
for l in open(sys.argv[1]):
    c = [x.strip() for x in l.strip().strip("|").split("|")]
    if len(c) == 4 and c[0] and not c[0].startswith("---"):
        rows[c[0]] = c[1:]
a = rows.get("(reference) xskf_redirect_nm alone (--no-hints: the dispatcher's component)")
d1 = rows.get("no hints, alone in libxdp's dispatcher")
d2 = rows.get("no hints, second in libxdp's dispatcher (after XDP_PASS only)")
p = rows.get("(reference) XDP_PASS only")
if not a or not d1 or not d2 or "failed" in d1 + d2:
    print("the dispatcher's rows failed: %s / %s" % (d1, d2)); sys.exit(1)
f = lambda r: "/".join(r)
print("ns per frame under TCG (ipv4-udp/qinq-ipv6-tcp/vxlan): xskf_redirect_nm alone %s, alone in the dispatcher %s (x%.2f), second behind XDP_PASS only %s (x%.2f; XDP_PASS only alone %s)"
      % (f(a), f(d1), float(d1[0]) / float(a[0]), f(d2), float(d2[0]) / float(a[0]), f(p)))
EOPY
}

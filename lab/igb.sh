# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's igb NIC (sourced by lab/vm_lab.sh): QEMU 10 from a trixie root
# filesystem, and the tests of what igb does that virtio-net does not.
#
# igb (`-device igb`, an 82576 with SR-IOV; zero-copy since Linux 6.14) needs QEMU 8 or newer;
# bookworm has 7.2. trixie's qemu-system-x86 (10.0) runs from a trixie root filesystem in the
# cache (debootstrap, once; made again when trixie's qemu-system-x86 changes version), chrooted
# in a mount namespace of its own (unshare -m), with /dev, /proc, /sys and the lab's folders
# bound in: every mount goes with QEMU, nothing is left on the host.
#
# What igb does, and how the tests meet it as a user would:
# - it resets its link at every XDP attach and detach (close and open: 1-2 s without carrier,
#   more under TCG): the guest waits for the carrier, never a sleep, and so must xskf before it
#   says it is up (test `linkreset`);
# - it hashes UDP by addresses only (frames from one address, in 16 flows, all went to queue
#   0), with a key it draws at each boot and cannot show (16 source addresses differing in
#   their low 4 bits all went to one queue in 1 boot of 16): the tests that count frames per
#   queue send in one phase per queue with the indirection table pinned to it (lab_phases);
# - QEMU's igb reads one tap queue (no multi-queue backend): its tap has one queue.

QEMU10= # the trixie root with QEMU 10, once qemu10_make made it

# the version of qemu-system-x86 in trixie on the mirror, as "qemu-system-x86 VERSION"
qemu10_want() {
	madison qemu-system-x86 |
		awk -F' [|] ' '$3 ~ / trixie\/main/ { gsub(/ /, "", $2); print "qemu-system-x86", $2; exit }'
}
qemu10_stamp() { dpkg-query --admindir="$1/var/lib/dpkg" -W -f '${Package} ${Version}\n' qemu-system-x86 2>/dev/null; }

# qemu10_make: QEMU10 set to the trixie root with qemu-system-x86 (made if missing or out of
# date); 1 with one line saying why it cannot be made (the igb part is then skipped).
qemu10_make() {
	local root=$CACHE/qemu10 want
	want=$(qemu10_want)
	# the mirror is not reachable: keep it
	[ -n "$want" ] && [ -z "${NO_MIRROR:-}" ] || want=$(qemu10_stamp "$root")
	if [ -x "$root/usr/bin/qemu-system-x86_64" ] && [ -n "$want" ] &&
		[ "$(qemu10_stamp "$root")" = "$want" ]; then
		QEMU10=$root
		return 0
	fi
	if [ -z "$want" ]; then
		log "skipped: igb: no qemu-system-x86 of trixie on the mirror, none in the cache"
		return 1
	fi
	log "igb: debootstrap trixie with ${want#* } (QEMU 10: -device igb needs QEMU 8+; about 3 minutes, once)"
	rm -rf "$root.tmp"
	LAB_TMPS+=("$root.tmp") # a debootstrap stopped half-way: removed at exit (lab/vm_lab.sh)
	mkdir -p "$CACHE/debs"
	if ! debootstrap --variant=minbase --cache-dir="$CACHE/debs" --include=qemu-system-x86 \
		trixie "$root.tmp" "$MIRROR" >"$CACHE/debootstrap-qemu10.log" 2>&1; then
		log "skipped: igb: debootstrap trixie failed: $(tail -1 "$CACHE/debootstrap-qemu10.log") (log: $CACHE/debootstrap-qemu10.log)"
		rm -rf "$root.tmp"
		return 1
	fi
	# the list read whole: grep -q leaving early would end QEMU by SIGPIPE (pipefail)
	if ! grep -q '^name "igb"' <<<"$(chroot "$root.tmp" qemu-system-x86_64 -device help 2>/dev/null)"; then
		log "skipped: igb: trixie's $(chroot "$root.tmp" qemu-system-x86_64 --version 2>&1 | head -1) has no igb device"
		rm -rf "$root.tmp"
		return 1
	fi
	mkdir -p "$root.tmp"/lab/{kernel,root,build,run,msg}
	rm -rf "$root"
	mv "$root.tmp" "$root"
	QEMU10=$root
}

# qemu10_prefix KERNEL_DIR RUN_DIR: QEMU_PRE set to the command that runs its arguments (QEMU
# and its own) in the trixie root, where they name the kernel's folder /lab/kernel, the guest's
# root filesystem /lab/root, the build folder /lab/build and the run folder /lab/run. Each step
# execs the next: QEMU's PID is the prefix's (timeout's KILL reaches it).
qemu10_prefix() {
	mkdir -p "$QEMU10/lab/msg" # a root made before the host's messages had a folder of their own
	QEMU_PRE=(unshare -m --propagation private /bin/sh -c '
		r=$1 k=$2 root=$3 b=$4 d=$5
		shift 5
		mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" &&
			mount -t sysfs sys "$r/sys" && mount --bind "$k" "$r/lab/kernel" &&
			mount --bind "$root" "$r/lab/root" && mount --bind "$b" "$r/lab/build" &&
			mount --bind "$d" "$r/lab/run" && mount --bind "$d.msg" "$r/lab/msg" || exit 125
		exec chroot "$r" "$@"' sh "$QEMU10" "$1" "$CACHE/rootfs" "$BUILD" "$2")
}

# The igb tests' lines for kernel K and test T (guest.sh's input: KIND NAME ARGS).
# zero-copy needs igb's XSK support (Linux 6.14): kernel 7.x only.
igb_tests() {
	local k=$1
	case $2 in
	rxdrop) echo "frames rxdrop -c --quiet" ;;
	zerocopy) [ "$k" = 7 ] && echo "frames zerocopy -z --quiet" ;;
	linkreset)
		# the attach resets the link: frames sent as soon as the run is up all arrive
		[ "$k" = 7 ] && echo "reset linkreset-zc -z --quiet"
		echo "reset linkreset-copy -c --quiet"
		;;
	faults)
		# link down and up under a running zero-copy rxdrop, then a queue count change (its
		# socket on queue 0 only: the kernel refuses to remove a queue with a socket)
		local m=-z
		[ "$k" = 7 ] || m=-c
		echo "fault linkflap $m --quiet"
		echo "fault channels $m -q 0 --quiet"
		;;
	flowhash)
		# UDP hashed by ports too (ethtool -N rx-flow-hash udp4 sdfn): one source address
		# in 16 flows reaches both queues (igb's default hashes addresses only)
		local m=-z
		[ "$k" = 7 ] || m=-c
		echo "flowhash flowhash $m --quiet"
		;;
	# the driver's XDP refusal: at MTU 9000 igb's RX buffers hold no whole frame
	xdprefuse) echo "xdprefuse xdprefuse -N -c --quiet" ;;
	*) [ "$k" = 7 ] && zc_lines "$2" ;; # the zero-copy list (lab/zc.sh), on two igb NICs
	esac
}

# The guest's side of the igb tests (appended to guest.sh, before its test loop).
igb_guest_script() {
	cat <<'EOF'
# wait_err T LINE: until xsk-rxdrop's messages of test T hold LINE, at most 60 s
wait_err() {
	local end=$((SECONDS + 60))
	until grep -qF -- "$2" /lab/$1.err; do
		[ $SECONDS -lt $end ] || { echo "no line '$2'" >>/lab/$1.fault; return 1; }
		sleep 0.05
	done
}
# the faults, done under a running xsk-rxdrop before the host sends (run_frames's hook)
fault_linkflap() {
	ip link set $IF down
	wait_err $1 "link down: no frames until it is up" || return
	ip link set $IF up
	wait_link || echo "no carrier 60 s after link up" >>/lab/$1.fault
	wait_err $1 "link up again: frames flow"
}
fault_channels() {
	ethtool -L $IF combined 1 2>>/lab/$1.fault || { echo "ethtool -L combined 1 failed" >>/lab/$1.fault; return; }
	wait_err $1 "RX queues changed from 2 to 1; the bound queues remain" || return
	wait_link || echo "no carrier 60 s after ethtool -L" >>/lab/$1.fault
}
# put back what a fault changed, once its run ended
unfault_channels() {
	ethtool -L $IF combined 2 && wait_link
}
# run_flowhash T ARGS...: run_frames T ARGS with UDP over IPv4 hashed by addresses and ports,
# as ethtool reads it back; put back to addresses only after
run_flowhash() {
	ethtool -N $IF rx-flow-hash udp4 sdfn 2>/lab/$1.ethtool || echo "ethtool -N refused" >>/lab/$1.ethtool
	ethtool -n $IF rx-flow-hash udp4 >/lab/$1.hash 2>&1
	NO_PREPIN=1 run_frames "$@"
	ethtool -N $IF rx-flow-hash udp4 sd
}
# run_xdprefuse T ARGS...: xsk-rxdrop ARGS at MTU 9000, which igb refuses native XDP at (its
# reason in the kernel's extack); nothing of the run may be left; the MTU put back after
run_xdprefuse() {
	local t=$1
	shift
	ip link set $IF mtu 9000 2>/lab/$t.mtu || echo "ip link set mtu 9000 failed" >>/lab/$t.mtu
	wait_link || echo "no carrier 60 s after the MTU change" >>/lab/$t.mtu
	$B/apps/xsk-rxdrop -i $IF "$@" -d 1 --json >/lab/$t.json 2>/lab/$t.err
	echo $? >/lab/$t.rc
	! has_xdp || echo "an XDP program is left on $IF" >>/lab/$t.left
	! ls /run/xskf/*.sock >/dev/null 2>&1 || echo "left: $(ls /run/xskf/*.sock)" >>/lab/$t.left
	ip link set $IF mtu 1500
	wait_link
}
# run_fault T ARGS...: run_frames T ARGS with fault T done before the frames come; then
# nothing of the run may be left: no XDP program on the NIC, no control socket
run_fault() {
	BEFORE_READY=fault_$1 run_frames "$@"
	! has_xdp || echo "an XDP program is left on $IF" >>/lab/$1.fault
	! ls /run/xskf/*.sock >/dev/null 2>&1 || echo "left: $(ls /run/xskf/*.sock)" >>/lab/$1.fault
	! declare -F unfault_$1 >/dev/null || unfault_$1
}
EOF
}

# The host's side: as frames tests (host_frames: in phases, lab_phases).
host_reset() { host_frames "$@"; }
host_fault() { host_frames "$@"; }
# flowhash: from one source address (16 source ports): only the ports can spread them. Sent in
# one phase: the hash's own spread is the subject, and which queue a flow gets depends on the
# key igb drew at boot, so the split is shown, not asserted (check_flowhash)
host_flowhash() {
	LAB_SRC_ADDRS=1 LAB_UNPHASED="the split is the hash's (igb's key is drawn at boot)" host_frames "$@"
}

# check_flowhash D T: ethtool read back ports in the hash, and check_frames (every queue got
# frames) with frames from one source address.
check_flowhash() {
	local d=$1 t=$2 res zc=False
	case $(cat "$d/tests") in *"flowhash $t -z"*) zc=True ;; esac
	[ ! -s "$d/$t.ethtool" ] || { echo "ethtool -N: $(tr '\n' ' ' <"$d/$t.ethtool")"; return 1; }
	grep -q 'L4 bytes 0 & 1 \[TCP/UDP src port\]' "$d/$t.hash" ||
		{ echo "the hash has no ports: $(tr '\n' ' ' <"$d/$t.hash")"; return 1; }
	res=$(check_frames "$d" "$t" $zc) || { echo "$res (one source address, 16 ports)"; return 1; }
	echo "$res; one source address, 16 source ports, UDP hashed by ports (ethtool -N rx-flow-hash udp4 sdfn)"
}

# check_reset D T: every frame sent as soon as the run was up arrived (none dropped at the tap
# while the link was down), the guest saw carrier then, and xskf said it waited for it.
check_reset() {
	local d=$1 t=$2 res zc=False
	case $(cat "$d/tests") in *"reset $t -z"*) zc=True ;; esac
	res=$(check_frames "$d" "$t" $zc) || { echo "$res"; return 1; }
	[ "$(json "$d.host/$t.gen.json" "d['tap_dropped']")" = 0 ] ||
		{ echo "$res; the tap dropped $(json "$d.host/$t.gen.json" "d['tap_dropped']") frames (the guest read none for a while)"; return 1; }
	[ "$(cat "$d/$t.carrier" 2>/dev/null)" = 1 ] || { echo "$res; no carrier when xsk-rxdrop was up"; return 1; }
	grep -q 'the driver reset the link at the XDP attach: waited [0-9.]* s for it to be up again' "$d/$t.err" ||
		{ echo "$res; no line of the link reset at the attach"; return 1; }
	echo "$res; xskf $(grep -o 'waited [0-9.]* s' "$d/$t.err")"
}

# check_xdprefuse D T: native XDP refused with the driver's reason in one line, exit 1, nothing
# left behind.
check_xdprefuse() {
	local d=$1 t=$2 rc line
	[ ! -s "$d/$t.mtu" ] || { echo "$(tr '\n' ' ' <"$d/$t.mtu")"; return 1; }
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	line=$(grep -m1 -E '^xskf: eth0: the driver refused native XDP: .+ \([A-Za-z ]+\): fix that, or use -S \(SKB mode\)$' "$d/$t.err")
	[ "$rc" = 1 ] && [ -n "$line" ] ||
		{ echo "exit ${rc:-?}: $(grep -v '^ *$' "$d/$t.err" 2>/dev/null | tail -4 | tr '\n' '|')"; return 1; }
	[ ! -s "$d/$t.left" ] || { echo "$line; but $(tr '\n' ' ' <"$d/$t.left")"; return 1; }
	echo "MTU 9000, exit 1, nothing left: $line"
}

# check_fault D T: the fault was done and said, and every frame after it counted.
check_fault() {
	local d=$1 t=$2 res zc=False
	case $(cat "$d/tests") in *" $t -z"*) zc=True ;; esac
	[ ! -s "$d/$t.fault" ] || { echo "$(tr '\n' ' ' <"$d/$t.fault")"; return 1; }
	res=$(check_frames "$d" "$t" $zc) || { echo "$res"; return 1; }
	echo "$res; said: $(grep -o 'link down: no frames\|link up again: frames flow\|RX queues changed from [0-9]* to [0-9]*' "$d/$t.err" | paste -sd, -)"
}

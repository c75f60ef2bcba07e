# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's zero-copy list (sourced by lab/tests.sh): each feature of issue 33
# point 2 run in zero-copy (-z) and in copy mode (-c) in the same guest, judged on frames that
# crossed the guest's NIC driver and the host side of its taps, with exact counts. Nothing here
# names a driver: the guest's NICs are eth0 and eth1 (the NIC model is lab_nic_dev's), the host
# side is tap0 and tap1 in the lab's namespace.
#
#   host tap0 192.0.2.1 ======= eth0 192.0.2.2   (access: frames in and out)
#   host tap1 198.51.100.2 ==== eth1             (second port: l2fwd fwd; the tunnel's underlay)
#   host vx0: kernel VXLAN VNI 100, 198.51.100.2 -> 198.51.100.1 (xsk-tunnel's VTEP address)
#
# A test line: "zc NAME KIND APP ARGS..."; NAME ends in -zc or -cp (the mode judged), KIND says
# what the host does around it (zc_host) and how it is judged (zc_check). The guest (run_zc):
# writes NAME.pre, waits for NAME.go (the host's captures are up), starts APP with --json,
# writes NAME.ready once its program is attached on every port and its control socket is there,
# then NAME.live (its counters) until NAME.done, stops it with SIGINT, writes NAME.rc. A run
# that ends by itself (a refusal) writes NAME.rc without NAME.ready.

ZC_N=2000 # frames per direction
TAP0_MAC=52:54:00:00:01:01
TAP1_MAC=52:54:00:00:01:02
VX_MAC=52:54:00:00:01:03
GUEST_MAC1=52:54:00:00:00:03
# The guest's NICs: virtio or igb (QEMU 8+), as lab_kernel sets it from --nic.
LAB_NIC=virtio
lab_nic_dev() { # lab_nic_dev NETDEV MAC: QEMU's -device of one guest NIC
	case $LAB_NIC in
	# no rss=on: QEMU 7.2's RSS took the guest's table and did not follow it (lab_phases)
	virtio) echo "virtio-net-pci,netdev=$1,mac=$2,mq=on,vectors=6,iommu_platform=on,disable-legacy=on,romfile=" ;;
	igb) echo "igb,netdev=$1,mac=$2,romfile=" ;; # no boot ROM: -kernel boots the guest
	esac
}
ZC_PY() { $PY "$SRC/lab/zc.py" "$@"; }

# The tests' names, and the lines of each (both modes).
ZC_TESTS="l2fwd macswap txgen tunnel jumbo wakeup busypoll napi hints txmeta steer"
# zc: these (two NICs, TX, the tunnel: 6 runs, 2-4 min under TCG); with --all every test
# above (24 runs, 8-25 min as the machine's load goes): the suite's lab stays under 15 min
ZC_DEFAULT="l2fwd txgen tunnel"
# ZC_MODES: the modes each test runs in (lab_kernel: "zc cp" on 7.x; "cp" on 5.10, whose
# virtio-net has no zero-copy: there `zc` is ZC_DEFAULT's copy-mode half, with --all too, the
# other tests needing what 5.10 lacks: busy polling, NAPI settings, TX metadata, hints kfuncs)
ZC_MODES="zc cp"
zc_lines() { # zc_lines TEST (zc: ZC_DEFAULT, with --all ZC_TESTS)
	local m f
	if [ "$1" = zc ]; then
		for m in $([ "${LAB_ALL:-0}" = 1 ] && [ "$ZC_MODES" != cp ] && echo $ZC_TESTS || echo $ZC_DEFAULT); do
			zc_lines $m
		done
		return
	fi
	for m in $ZC_MODES; do
		f=-z
		[ $m = cp ] && f=-c
		case $1 in
		l2fwd) echo "zc l2fwd-$m fwd xsk-l2fwd -i eth0 -i eth1 $f --mode fwd --dst-mac-0 $TAP0_MAC --dst-mac-1 $TAP1_MAC --quiet" ;;
		macswap) echo "zc macswap-$m macswap xsk-l2fwd -i eth0 $f --quiet" ;;
		txgen) echo "zc txgen-$m txgen xsk-txgen -i eth0 $f --count $ZC_N --rate 1000 --flows 16 --size 128 --dst-mac $TAP0_MAC --src-ip 192.0.2.2 --dst-ip 192.0.2.1 --quiet" ;;
		tunnel) echo "zc tunnel-$m tunnel xsk-tunnel -i eth0 -i eth1 $f --config /tmp/tun.conf --quiet" ;;
		jumbo) echo "zc jumbo-$m jumbo xsk-rxdrop -i eth0 $f --quiet" ;;
		# need_wakeup off (on: macswap above), on RX and TX: MAC swap
		wakeup) echo "zc wakeup-off-$m macswap xsk-l2fwd -i eth0 $f -m --quiet" ;;
		# -B on sockets with a NAPI ID: a NIC driver's queues have one in both modes
		busypoll) echo "zc busypoll-$m busy xsk-rxdrop -i eth0 $f -B --quiet" ;;
		napi)
			if [ $m = zc ]; then
				echo "zc napi-$m napi xsk-rxdrop -i eth0 $f -B --napi defer=2,gro-flush=200000,irq-suspend=20000000 --quiet"
			else
				echo "zc napi-$m napi xsk-rxdrop -i eth0 $f --napi defer=2,gro-flush=200000 --quiet"
			fi
			;;
		hints) echo "zc hints-$m hints xsk-rxdrop -i eth0 $f --hash-check --quiet" ;;
		txmeta) echo "zc txmeta-$m txmeta xsk-txgen -i eth0 $f --tx-csum --count $ZC_N --rate 1000 --flows 16 --size 128 --dst-mac $TAP0_MAC --src-ip 192.0.2.2 --dst-ip 192.0.2.1 --quiet" ;;
		steer) echo "zc steer-$m steer xsk-rxdrop -i eth0 $f --steer 'udp dport 9 xsk' --keep-host --quiet" ;;
		esac
	done
}

# The guest's side, /lab/zc.sh (sourced by guest.sh).
zc_guest_script() {
	cat <<EOF
TAP0_MAC=$TAP0_MAC TAP1_MAC=$TAP1_MAC VX_MAC=$VX_MAC
EOF
	cat <<'EOF'
ip link set eth1 up 2>/dev/null
# xsk-tunnel's table: VTEP 198.51.100.1 on eth1, the host's kernel VTEP 198.51.100.2 on tap1
cat >/tmp/tun.conf <<EOC
local 198.51.100.1
nexthop-mac $TAP1_MAC
vni 100 remote 198.51.100.2 mac $VX_MAC
default vni 100 remote 198.51.100.2
EOC
napi_read() { $B/tests/integration/xskf-napi-read eth0 >"/lab/$1" 2>&1; }
# attached T N: N ports have an XDP program and the run's control socket is there
attached() { [ "$(ip -d link show | grep -c 'prog/xdp')" -ge "$2" ] && ls /run/xskf/*.$1.sock >/dev/null 2>&1; }

# wait_links: both NICs' links up (igb resets a link at each XDP attach and detach: the
# previous run's detach may still be under way)
wait_links() { local IF; for IF in eth0 eth1; do wait_link || echo "$IF: no link after 60 s" >>/lab/links.err; done; }

run_zc() {
	local t=$1 kind=$2 app=$3 pid s ports
	shift 3
	ports=$(echo " $* " | grep -o ' -i ' | wc -l)
	wait_links
	touch /lab/$t.pre
	wait_file /lab/msg/$t.go
	case $kind in
	jumbo) ip link set eth0 mtu 9000 2>/lab/$t.mtu.err || echo "mtu 9000 refused" >>/lab/$t.mtu.err ;;
	napi) napi_read $t.napi0 ;;
	esac
	$B/apps/$app "$@" --json >/lab/$t.json 2>/lab/$t.err &
	pid=$!
	until attached $pid $ports; do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		[ $kind = napi ] && napi_read $t.napi1
		ip -d link show eth0 >/lab/$t.link
		live_until_done $t $pid
	fi
	wait $pid
	local rc=$?
	case $kind in
	jumbo) ip link set eth0 mtu 1500 ;;
	napi) napi_read $t.napi2 ;;
	esac
	echo $rc >/lab/$t.rc
}
EOF
}

# zc_host_nics: the host side of the second NIC and the kernel VTEP (after lab_kernel's tap0).
zc_host_nics() {
	ip -n "$NS" link set tap0 address $TAP0_MAC
	# QEMU's igb reads one tap queue: a multi-queue tap refuses its single-queue open
	ip -n "$NS" tuntap add tap1 mode tap $([ "$LAB_NIC" = igb ] || echo multi_queue) ||
		die "cannot make a tap"
	ip -n "$NS" link set tap1 address $TAP1_MAC
	ip -n "$NS" addr add 198.51.100.2/24 dev tap1
	ip -n "$NS" link set tap1 up
	ip -n "$NS" neigh add 198.51.100.1 lladdr $GUEST_MAC1 dev tap1 nud permanent
	ip -n "$NS" link add vx0 address $VX_MAC type vxlan id 100 local 198.51.100.2 \
		remote 198.51.100.1 dstport 4789 dev tap1 || die "cannot make the VXLAN device"
	ip -n "$NS" link set vx0 up
}

# zc_wait_rc D T: the guest's run T ended (its NAME.rc is there)
zc_wait_rc() { lab_wait $WAIT_S test -e "$1/$2.rc"; }
zc_ready() { [ -e "$1/$2.ready" ] || [ -e "$1/$2.rc" ]; }

# zc_cap D T IF N: capture N lab frames on IF into D/T.IF.cap in the background (CAP_PID)
zc_cap() {
	CAP_OUT=$1.host/$2.$3.cap
	rm -f "$CAP_OUT.ready" "$CAP_OUT.go"
	ip netns exec "$NS" $PY "$SRC/lab/zc.py" cap "$3" "$1.host/$2.$3.cap" "$4" $WAIT_S \
		2>"$1.host/$2.$3.cap.err" &
	CAP_PID=$!
	lab_wait 30 test -e "$1.host/$2.$3.cap.ready"
}
# zc_cap_go: the frames of the running capture are due now: its bound (WAIT_S) starts
zc_cap_go() { [ -z "${CAP_OUT:-}" ] || touch "$CAP_OUT.go"; }
zc_send() { # zc_send D T IF DMAC SIP DIP [SIZE [ADDRS]]: N lab frames from IF
	ip netns exec "$NS" $PY "$SRC/lab/zc.py" send "$3" "$4" "$5" "$6" $ZC_N ${7:-} ${8:-} \
		>"$1.host/$2.gen.json" 2>"$1.host/$2.gen.err"
}
# zc_send_rx COUNT OUT: COUNT lab frames of ZC_SIZE bytes (default 60) from tap0 to eth0, from
# LAB_SRC_ADDRS source addresses (lab_phases' sender)
zc_send_rx() {
	ip netns exec "$NS" $PY "$SRC/lab/zc.py" send tap0 $GUEST_MAC $HOST_IP $GUEST_IP "$1" \
		${ZC_SIZE:-60} ${LAB_SRC_ADDRS:-1} >"$2" 2>"${2%.json}.err"
}
zc_redirected() { # zc_redirected D T: the live counters show every frame sent redirected
	local sent
	sent=$(lab_json_int "$1.host/$2.gen.json" "d['sent']") && lab_seen "$1" "$2" "$sent"
}

# zc_host D T KIND: the host's side of test T.
zc_host() {
	local d=$1 t=$2 kind=$3 # the rest: the guest's command
	# the guest's earlier tests (and for the first, its boot: 100 s under a loaded TCG host)
	# come first: bounded by QEMU's own timeout
	lab_wait "$LAB_RUN_S" test -e "$d/$t.pre" || return 0
	case $kind in
	fwd) zc_cap "$d" "$t" tap1 $ZC_N ;;
	macswap | txgen | txmeta) zc_cap "$d" "$t" tap0 $ZC_N ;;
	tunnel) zc_cap "$d" "$t" vx0 $ZC_N ;;
	jumbo) ip -n "$NS" link set tap0 mtu 9000 ;;
	esac
	lab_put "$d" "$t.go" </dev/null
	# until the app is up or gone, however long its start takes (two igb ports under a loaded
	# TCG: 2 minutes, each attach resetting a link): a state, bounded by QEMU's timeout only
	lab_wait "$LAB_RUN_S" zc_ready "$d" "$t"
	if [ -e "$d/$t.ready" ]; then
		zc_cap_go
		case $kind in
		fwd | macswap) zc_send "$d" "$t" tap0 $GUEST_MAC $HOST_IP $GUEST_IP ;;
		tunnel)
			# access -> underlay: encapsulated by the guest, decapsulated by the kernel
			zc_send "$d" "$t" tap0 $VX_MAC 203.0.113.1 203.0.113.2
			wait $CAP_PID
			# underlay -> access: encapsulated by the kernel, decapsulated by the guest
			zc_cap "$d" "$t" tap0 $ZC_N
			zc_cap_go
			ip netns exec "$NS" $PY "$SRC/lab/zc.py" send vx0 $TAP0_MAC 203.0.113.2 \
				203.0.113.1 $ZC_N >"$d.host/$t.gen2.json" 2>"$d.host/$t.gen2.err"
			;;
		# counted per queue (check_frames): in one phase per queue (lab_phases)
		jumbo) ZC_SIZE=9014 lab_phases "$d" "$t" $ZC_N zc_send_rx ;;
		rx | busy | napi | hints) lab_phases "$d" "$t" $ZC_N zc_send_rx ;;
		steer)
			ip netns exec "$NS" ping -c 10 -i 0.2 -W 5 $GUEST_IP >"$d.host/$t.ping" 2>&1 &
			local ping=$!
			lab_phases "$d" "$t" $ZC_N zc_send_rx
			wait $ping
			;;
		esac
		case $kind in
		fwd | macswap | txgen | txmeta | tunnel) wait $CAP_PID ;;
		refuse) ;;
		*) lab_wait $WAIT_S zc_redirected "$d" "$t" ;;
		esac
		lab_put "$d" "$t.done" </dev/null
	elif [ "$(cat "$d/$t.rc" 2>/dev/null)" = 0 ] && [ -n "${CAP_PID:-}" ] &&
		case $kind in txgen | txmeta) true ;; *) false ;; esac; then
		# a TX run that sent its count and ended before the guest saw it attached (5.10
		# under TCG: 2000 frames in 2.1 s): the capture, up since before the app's start,
		# judges it
		zc_cap_go
		wait $CAP_PID
		lab_put "$d" "$t.done" </dev/null
	else
		[ -n "${CAP_PID:-}" ] && kill $CAP_PID 2>/dev/null
		lab_put "$d" "$t.done" </dev/null # a guest that comes up after all stops, and is judged
	fi
	CAP_PID= CAP_OUT=
	zc_wait_rc "$d" "$t"
	[ $kind = jumbo ] && ip -n "$NS" link set tap0 mtu 1500
	return 0
}

# zc_txmeta D T ZC: xskf's TX metadata line of test T, as each mode must say it; in copy mode
# on a driver whose copy-mode TX has no linear part (virtio-net on 7.x), the kernel refuses its
# software checksum at the bind: that line exactly, and every checksum by xskf (csum_sw).
ZC_TXMD="eth0: TX metadata (24 bytes in front of each frame): checksum"
ZC_TXMD_CP_KERNEL="$ZC_TXMD by the kernel in software (copy mode), timestamp by the kernel in software (copy mode), launch time not offloaded (copy mode bypasses the qdisc: software pacing)"
ZC_TXMD_CP_REFUSED="$ZC_TXMD by xskf in software, timestamp by the kernel in software (copy mode), launch time not offloaded (the kernel refuses its copy-mode software checksum on this driver, whose copy-mode TX sends frames without a linear part: IFF_TX_SKB_NO_LINEAR, e.g. virtio-net)"
zc_txmeta() {
	local d=$1 t=$2 zc=$3 line sw
	line=$(grep -m1 -o "$ZC_TXMD.*" "$d/$t.err")
	sw=$(json "$d/$t.json" "sum(q['tx_meta']['csum_sw'] for q in d['queues'] if 'tx_meta' in q)")
	if [ $zc = True ]; then
		[ -n "$line" ] || { echo "no TX metadata line: $(zc_err "$d/$t.err")"; return 1; }
	elif [ "$line" = "$ZC_TXMD_CP_REFUSED" ]; then
		[ "$sw" = $ZC_N ] || { echo "checksums by xskf ${sw:-?} of $ZC_N: $line"; return 1; }
		line="$line; csum_sw $sw"
	else
		[ "$line" = "$ZC_TXMD_CP_KERNEL" ] || { echo "not the copy-mode TX metadata line: '$line'"; return 1; }
	fi
	echo "$line"
}

zc_err() { grep -v '^ *$' "$1" 2>/dev/null | tail -4 | tr '\n' '|'; }

# zc_check D T KIND: one line on test T; 1 when it failed.
zc_check() {
	local d=$1 t=$2 kind=$3 rc zc=True res
	[ "${t##*-}" = cp ] && zc=False
	rc=$(cat "$d/$t.rc" 2>/dev/null)
	if [ $kind = refuse ]; then
		[ -n "$rc" ] && [ "$rc" != 0 ] || { echo "not refused (exit ${rc:-?})"; return 1; }
		echo "refused (exit $rc): $(zc_err "$d/$t.err")"
		return 0
	fi
	# jumbo: a driver without multi-buffer zero-copy is refused in this one line
	if [ $kind = jumbo ] && [ "$rc" = 1 ] && [ $zc = True ] &&
		grep -q 'the driver takes no multi-buffer zero-copy (xdp-zc-max-segs 1)' "$d/$t.err"; then
		echo "refused (exit 1): $(grep -m1 -o 'eth0 queue 0: the driver takes no multi-buffer zero-copy.*' "$d/$t.err")"
		return 0
	fi
	[ "$rc" = 0 ] || { echo "exit ${rc:-?}: $(zc_err "$d/$t.err")"; return 1; }
	[ "$(json "$d/$t.json" "all(q['zerocopy'] for q in d['queues'])")" = "$zc" ] ||
		{ echo "zerocopy is not $zc on every queue"; return 1; }
	case $kind in
	fwd) res=$(ZC_PY check fwd "$d.host/$t.tap1.cap" $ZC_N $TAP1_MAC $GUEST_MAC1 $HOST_IP $GUEST_IP 60) || { echo "$res"; return 1; } ;;
	macswap)
		res=$(ZC_PY check fwd "$d.host/$t.tap0.cap" $ZC_N $TAP0_MAC $GUEST_MAC $HOST_IP $GUEST_IP 60) || { echo "$res"; return 1; }
		res="$res; TX kicks $(json "$d/$t.json" "sum(q['kicks'] for q in d['queues'])")"
		;;
	txgen) res=$(ZC_PY check txgen "$d.host/$t.tap0.cap" $ZC_N 128 $TAP0_MAC $GUEST_MAC 192.0.2.2 192.0.2.1) || { echo "$res"; return 1; } ;;
	txmeta)
		res=$(ZC_PY check txgen "$d.host/$t.tap0.cap" $ZC_N 128 $TAP0_MAC $GUEST_MAC 192.0.2.2 192.0.2.1 udpcsum) || { echo "$res"; return 1; }
		res="$res; $(zc_txmeta "$d" "$t" $zc)" || { echo "${res#*; }"; return 1; }
		;;
	tunnel)
		local a b
		a=$(ZC_PY check same "$d.host/$t.vx0.cap" $ZC_N $VX_MAC $TAP0_MAC 203.0.113.1 203.0.113.2 60) || { echo "encap: $a"; return 1; }
		b=$(ZC_PY check same "$d.host/$t.tap0.cap" $ZC_N $TAP0_MAC $VX_MAC 203.0.113.2 203.0.113.1 60) || { echo "decap: $b"; return 1; }
		res="encap: $a; decap: $b; app encap $(json "$d/$t.json" "d['app_stats']['encap']") decap $(json "$d/$t.json" "d['app_stats']['decap']")"
		;;
	*)
		res=$(check_frames "$d" "$t" $zc) || { echo "$res"; return 1; }
		case $kind in
		busy)
			# every socket busy polls: none fell back for want of a NAPI ID
			local kh
			kh=$(grep -m1 -o 'kernel help: [^;]*' "$d/$t.err")
			case $kh in
			"kernel help: preferred busy polling, budget one batch (2 of 2 sockets have a NAPI ID)"*) ;;
			*) echo "$res; not every socket busy polls: '$kh'"; return 1 ;;
			esac
			! grep -q -- '--busy-poll: .* without a NAPI ID' "$d/$t.err" ||
				{ echo "$res; $(grep -m1 -- '--busy-poll: ' "$d/$t.err")"; return 1; }
			res="$res; $kh"
			;;
		napi)
			# the NAPIs xskf says it set (its sockets' queues: a driver may list more,
			# igb one per RX and one per TX queue), each read back over netlink before,
			# during and after the run: the asked values during, the old ones after
			local id ids n0 n1 n2 want="defer 2 gro-flush 200000 irq-suspend 0"
			[ "${t#napi-}" = zc ] && want="defer 2 gro-flush 200000 irq-suspend 20000000"
			ids=$(sed -n 's/^xskf: --napi: eth0 NAPI \([0-9]*\): napi_defer_hard_irqs .*/\1/p' "$d/$t.err")
			[ -n "$ids" ] || { echo "$res; xskf named no NAPI it set"; return 1; }
			for id in $ids; do
				n0=$(grep -m1 "^napi $id " "$d/$t.napi0") n1=$(grep -m1 "^napi $id " "$d/$t.napi1")
				n2=$(grep -m1 "^napi $id " "$d/$t.napi2")
				[ "$n1" = "napi $id $want" ] && [ -n "$n0" ] && [ "$n0" = "$n2" ] ||
					{ echo "$res; NAPI $id before '$n0', during '$n1' (not '$want'), after '$n2'"; return 1; }
			done
			res="$res; NAPIs $(echo $ids) read back over netlink: '$want' during the run, as before it after"
			;;
		hints)
			# every driver hash the same as the software one; where the driver gives none,
			# every IPv4 frame hashed in software
			local h
			h=$(json "$d/$t.json" "' '.join(str(d['app_stats'][k]) for k in ('hash_hw', 'hash_hw_same', 'hash_hw_differ', 'hash_sw'))")
			set -- $h
			# the guest's numbers checked before any arithmetic sees them
			[ $# = 4 ] && lab_is_int "$1" && lab_is_int "$4" && [ "$3" = 0 ] &&
				[ $(($1 + $4)) -ge "$(json "$d.host/$t.gen.json" "d['sent']")" ] ||
				{ echo "hash_hw ${1:-?} (same ${2:-?}, differ ${3:-?}), hash_sw ${4:-?}"; return 1; }
			res="$res; driver hashes $1 ($2 the same as software, $3 not), software hashes $4; $(grep -m1 -i 'hint' "$d/$t.err")"
			;;
		steer)
			grep -q ' 10 received' "$d.host/$t.ping" || { echo "ping: $(grep -m1 received "$d.host/$t.ping")"; return 1; }
			res="$res; ping 10 of 10 answered"
			;;
		esac
		;;
	esac
	echo "$res"
}

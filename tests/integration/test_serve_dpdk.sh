#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# DPDK's af_xdp driver as the served app (issue 35, docs/operations.md "Serving other AF_XDP
# apps"): xsk-rxdrop holds the program on the dut's veth, binds queue 0 and keeps queue 1 for
# another app (--serve 1) with the rule `udp dport 5000 xsk`; dpdk-testpmd (rxonly) takes
# queue 1 without loading any program:
#   test_serve_dpdk.sh pinned - `use_pinned_map=1,dp_path=PINS/xsks_map` (--pin-dir)
#   test_serve_dpdk.sh cni    - `use_cni=1,dp_path=SOCK`, the XSKMAP from xskf's device-plugin
#                               socket (--serve-uds)
# testpmd receives exactly the 2000 UDP 5000 frames of queue 1 (not the 500 UDP 5001 frames
# that go to the stack before them), xskf exactly its 3000 of queue 0, and xskf's rule hits
# are 5000. testpmd's close detaches the interface's program (DPDK does so whoever loaded
# it): the serving run attaches it again in one line and receives 1000 more. Bookworm's DPDK 22.11 has neither option: testpmd is trixie's (DPDK 24.11), run
# chrooted from a trixie root filesystem made here with debootstrap and cached in
# /var/cache/xskf-lab/dpdk (about 650 MB, made once; skipped in one line where it cannot be).
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
require_root
case_name=${1:?case}
CACHE=${XSKF_LAB_CACHE:-/var/cache/xskf-lab}
MIRROR=${XSKF_LAB_MIRROR:-http://deb.debian.org/debian}
ROOT=$CACHE/dpdk

# dpdk_root: the trixie root with dpdk-testpmd, made when missing (one run at a time: flock)
dpdk_root() {
	[ -x "$ROOT/usr/bin/dpdk-testpmd" ] && return 0
	command -v debootstrap >/dev/null || skip "no debootstrap (scripts/deps.sh installs it)"
	mkdir -p "$CACHE/debs"
	exec 9>"$CACHE/dpdk.lock"
	flock 9
	[ -x "$ROOT/usr/bin/dpdk-testpmd" ] && return 0
	echo "# debootstrap trixie with dpdk-dev (dpdk-testpmd) into $ROOT (once; a few minutes)"
	rm -rf "$ROOT.tmp"
	if ! debootstrap --variant=minbase --cache-dir="$CACHE/debs" --include=dpdk-dev trixie \
		"$ROOT.tmp" "$MIRROR" >"$CACHE/debootstrap-dpdk.log" 2>&1; then
		rm -rf "$ROOT.tmp"
		skip "debootstrap of trixie with dpdk failed: $(tail -1 "$CACHE/debootstrap-dpdk.log") (log: $CACHE/debootstrap-dpdk.log)"
	fi
	mkdir -p "$ROOT.tmp"/xskf/{pins,uds}
	mv "$ROOT.tmp" "$ROOT"
}
dpdk_root
DPDK_VER=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f '${Version}' dpdk 2>/dev/null)

serve_bed_up "xd$$"

# testpmd DEVARGS: dpdk-testpmd rxonly on the af_xdp vdev in the dut's namespace, chrooted in
# the trixie root (a mount namespace of its own: /dev, /proc, /sys of the dut's namespace, a
# tmpfs on /run for EAL's runtime files, the pins' folder and the socket's folder bound in at
# /xskf: nothing is left in the root); it prints its port statistics every second and stops
# at SIGINT with its forwarding statistics; its pid in TPMD. It polls on CPU 0 (its main lcore,
# CPU 1, sleeps between statistics), xsk-rxdrop on CPU 1.
testpmd() {
	ip netns exec "$TB_NS_DUT" unshare -m --propagation private /bin/sh -c '
		r=$1 pins=$2 uds=$3
		shift 3
		mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" &&
			mount -t sysfs sys "$r/sys" && mount -t tmpfs tmpfs "$r/run" &&
			mount --bind "$pins" "$r/xskf/pins" &&
			mount --bind "$uds" "$r/xskf/uds" || exit 125
		exec chroot "$r" "$@"' sh "$ROOT" "$BPF" "$XSKF_CTL_DIR" \
		dpdk-testpmd -l 0,1 --main-lcore 1 --no-pci --no-huge -m 256 --file-prefix "xd$$" \
		--vdev "net_af_xdp0,iface=$TB_IF_DUT,start_queue=1,queue_count=1,$1" \
		-- --forward-mode=rxonly --nb-cores=1 --total-num-mbufs=8192 --stats-period 1 \
		--auto-start </dev/null >"$out/tpmd.out" 2>&1 &
	TPMD=$!
	at_exit "kill -KILL $TPMD 2>/dev/null"
}
# the last RX-packets of testpmd's periodic port statistics
tpmd_rx() { awk '/RX-packets:/ { n = $2 } END { if (n != "") print n }' "$out/tpmd.out"; }
tpmd_alive() { kill -0 "$TPMD" 2>/dev/null || { cat "$out/tpmd.out" >&2; fail "dpdk-testpmd exited"; }; }
tpmd_started() { tpmd_alive && grep -q "^rxonly packet forwarding - ports=1 " "$out/tpmd.out"; }

run() {
	local how=$1 a from sock=$XSKF_CTL_DIR/afxdp.sock acc
	if [ "$how" = pinned ]; then
		from="use_pinned_map=1,dp_path=/xskf/pins/xskf/$TB_IF_DUT/xsks_map"
		serve_start a pinned ''
	else
		from="use_cni=1,dp_path=/xskf/uds/afxdp.sock"
		serve_start a uds "$sock"
	fi
	a=$PID
	testpmd "$from"
	WAIT_SHOW=$out/tpmd.out wait_for "dpdk-testpmd forwarding" tpmd_started
	[ "$how" = pinned ] ||
		wait_line "$out/a.err" "device-plugin socket: gave the XSKMAP of $TB_IF_DUT to "
	send 500 5001 1                       # queue 1, no rule: the stack, never testpmd
	WAIT_SHOW=$out/tpmd.out send_q1 2000 tpmd_rx # queue 1: the rule sends them to testpmd
	send_q0 $a 3000                       # queue 0: xskf's socket
	[ "$(app_live $a "[r['hits'] for r in j['steering'][0]['rules'] if r['id']]")" = "[5000]" ] ||
		fail "rule hits: $(app_live $a "j['steering'][0]['rules']")"
	kill -INT "$TPMD"
	wait "$TPMD" || { cat "$out/tpmd.out"; fail "dpdk-testpmd exited $?"; }
	# the forwarding statistics at the stop: every frame of queue 1's rule, nothing else
	acc=$(awk '/Accumulated forward statistics/ { f = 1 } f && /RX-packets:/ { print $2, $4; exit }' "$out/tpmd.out")
	[ "$acc" = "2000 0" ] || { cat "$out/tpmd.out"; fail "testpmd's accumulated RX-packets, RX-dropped: '$acc', not '2000 0'"; }
	# DPDK's af_xdp driver detaches the interface's program at its close, even one it did not
	# load: the serving run attaches it again, says so, and goes on receiving
	wait_line "$out/a.err" "our XDP program (id [0-9]*) was detached by someone else (an AF_XDP app we serve?"
	wait_attached
	send_q0 $a 1000
	[ "$(app_rx $a)" = 4000 ] || { tail -5 "$out/a.err"; fail "xskf received $(app_rx $a), not 4000"; }
	stop_run $a || { cat "$out/a.err"; fail "xsk-rxdrop exited $?"; }
	[ "$(json_get "$out/a.json" "d['queues'][0]['rx_packets']")" = 4000 ] || fail "xskf's final count"
	assert_no_xdp "after SIGINT"
	[ ! -e "$PINS" ] || fail "pins left"
	[ ! -e "$sock" ] || fail "socket left"
	ok "dpdk-testpmd (DPDK $DPDK_VER, af_xdp $from) received exactly 2000 on the served queue, none of the 500 for the stack; xsk-rxdrop 3000 on queue 0, rule hits 5000; testpmd's close detached xskf's program, which xskf attached again (1000 more received)"
}

case $case_name in
pinned | cni) run "$case_name" ;;
*) fail "unknown case $case_name" ;;
esac

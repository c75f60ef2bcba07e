#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# testbed.sh up|down|status - veth test beds in network namespaces, built by bed_lib.sh (the one
# builder the tests and benches use too). XSKF_TB_SHAPE chooses the bed: pair (the default,
# drawn below), fwd (three namespaces, the app in the middle) or vxlan (an access host, the
# tunnel, and the kernel's VXLAN endpoint); XSKF_TB_MTU sets the links' MTU (default 1500).
#
#   ${P}-gen  [ ${P}g ] <==== veth ====> [ ${P}d ]  ${P}-dut
#             192.0.2.1/24                192.0.2.2/24
#             2001:db8::1/64              2001:db8::2/64
#
# P is $XSKF_TB (default "xskf"), so tests with different prefixes can run side by side: the
# addresses are the same in every pair but each pair lives in its own namespaces. The number of
# queues per end is $XSKF_TB_QUEUES (default 2). MAC addresses are fixed and derived from the
# prefix (02:<3 bytes of the prefix's CRC>:00:01 for gen, ...:00:02 for dut), and static
# neighbour entries are installed both ways, so that no ARP/ND ever runs: frames built by a
# generator can be addressed to the dut without asking anybody.
#
# `up` prints KEY=VALUE lines for `eval`. `down` is idempotent. Needs root and iproute2.
# Installed as xskf-testbed (xskf-testbed(1)): the build sets XSKF_TB_DATA below to where
# bed_lib.sh and the sink programs are installed, relative to the command's folder; in the
# tree it is empty, and they are beside it (bed_lib.sh) and in the build folder.
set -euo pipefail

XSKF_TB_DATA=
P=${XSKF_TB:-xskf}
QUEUES=${XSKF_TB_QUEUES:-2}
SHAPE=${XSKF_TB_SHAPE:-pair}
HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
[[ -n $XSKF_TB_DATA && $XSKF_TB_DATA != /* ]] && XSKF_TB_DATA=$HERE/$XSKF_TB_DATA
ME=$(basename "$0")
. "${XSKF_TB_DATA:-$HERE}/bed_lib.sh"

die() {
	echo "$ME: $*" >&2
	exit 1
}

# Interface names are limited to 15 bytes (IFNAMSIZ - 1) by the kernel.
[[ ${#P} -le 14 ]] || die "prefix '$P' too long (interface names max 15 bytes)"
[[ $P =~ ^[A-Za-z0-9_.-]+$ ]] || die "prefix '$P' has characters not allowed in names"
[[ $QUEUES =~ ^[0-9]+$ && $QUEUES -ge 1 ]] || die "XSKF_TB_QUEUES must be a positive integer"
[[ -z ${XSKF_TB_MTU:-} || (${XSKF_TB_MTU} =~ ^[0-9]+$ && $XSKF_TB_MTU -ge 68 && $XSKF_TB_MTU -le 65535) ]] ||
	die "XSKF_TB_MTU must be 68 to 65535 (9000 for jumbo frames: docs/jumbo.md)"
case $SHAPE in
pair | fwd | vxlan) ;;
*) die "XSKF_TB_SHAPE must be pair, fwd or vxlan" ;;
esac
export BED_QUEUES=$QUEUES
[[ -n ${XSKF_TB_MTU:-} ]] && export BED_MTU=$XSKF_TB_MTU
# the names of the pair, for status and sink, whatever shape is up
NS_GEN="${P}-gen" NS_DUT="${P}-dut" IF_GEN="${P}g" IF_DUT="${P}d"
MAC_GEN="$(bed_mac_base "$P"):00:01"
MAC_DUT="$(bed_mac_base "$P"):00:02"
ALL_NS=("$P-gen" "$P-dut" "$P-a" "$P-l" "$P-b" "$P-host" "$P-tun" "$P-vtep")

ns_exists() { bed_ns_exists "$1"; }

# One write, so that a reader that stops at its line (grep -q) cannot cut the output short
# (SIGPIPE under pipefail).
print_env() {
	local e
	case $SHAPE in
	pair)
		e="XSKF_TB=$P
TB_NS_GEN=$NS_GEN
TB_NS_DUT=$NS_DUT
TB_IF_GEN=$IF_GEN
TB_IF_DUT=$IF_DUT
TB_MAC_GEN=$MAC_GEN
TB_MAC_DUT=$MAC_DUT
TB_IP4_GEN=192.0.2.1
TB_IP4_DUT=192.0.2.2
TB_IP6_GEN=2001:db8::1
TB_IP6_DUT=2001:db8::2
TB_QUEUES=$QUEUES"
		;;
	fwd) e="XSKF_TB=$P
TB_NS_A=$P-a
TB_NS_L=$P-l
TB_NS_B=$P-b" ;;
	vxlan) e="XSKF_TB=$P
TB_NS_HOST=$P-host
TB_NS_TUN=$P-tun
TB_NS_VTEP=$P-vtep" ;;
	esac
	# bash writes its own output line by line: cat writes it in one go
	cat <<EOV
$e
TB_SHAPE=$SHAPE
TB_MTU=${XSKF_TB_MTU:-1500}
EOV
}

do_down() {
	# Deleting a namespace destroys the veth ends inside it, and with them their peers.
	local ns
	for ns in "${ALL_NS[@]}"; do
		if ns_exists "$ns"; then
			ip netns del "$ns" 2>/dev/null || true
		fi
	done
	return 0
}

do_up() {
	local ns
	[[ $EUID -eq 0 ]] || die "must be root"
	for ns in "${ALL_NS[@]}"; do
		ns_exists "$ns" && die "namespaces for prefix '$P' already exist (run: XSKF_TB=$P $0 down)"
	done
	# Half a test bed is worse than none: undo everything if a step fails.
	case $SHAPE in
	pair) bed_pair "$P" ;;
	fwd) bed_fwd "$P" ;;
	vxlan) bed_vxlan3 "$P" "${XSKF_TB_MTU:-}" ;;
	esac || {
		bed_down
		die "could not build the $SHAPE bed"
	}
	print_env
}

do_status() {
	local ns found=0
	for ns in "${ALL_NS[@]}"; do
		ns_exists "$ns" || continue
		found=1
		echo "== namespace $ns"
		ip -n "$ns" -br link
		ip -n "$ns" -br addr
		ip -n "$ns" neigh show
		ip -n "$ns" link show | grep -E 'prog/xdp|xdp' || true
	done
	[[ $found -eq 1 ]] || echo "== no namespace of prefix '$P'"
	[[ $found -eq 1 ]] && print_env
	return 0
}

# What the dut end runs so that veth hands it XDP frames (see the header of xskf_tb_sink.bpf.c).
do_sink() {
	local mode=${1:-} obj
	local objs=${XSKF_TB_DATA:-$HERE/../build/tools}

	[[ -n ${XSKF_BUILD:-} ]] && objs=$XSKF_BUILD/tools
	ns_exists "$NS_DUT" || die "no test bed with prefix '$P'"
	case "$mode" in
	drop | pass)
		obj="$objs/xskf_tb_$mode.bpf.o"
		[[ -f $obj ]] || die "$obj not found (build first, or set XSKF_BUILD)"
		ip -n "$NS_DUT" -force link set dev "$IF_DUT" xdpdrv obj "$obj" sec xdp
		;;
	gro)
		ip -n "$NS_DUT" link set dev "$IF_DUT" xdp off
		ip netns exec "$NS_DUT" ethtool -K "$IF_DUT" gro on >/dev/null
		;;
	off)
		ip -n "$NS_DUT" link set dev "$IF_DUT" xdp off
		ip netns exec "$NS_DUT" ethtool -K "$IF_DUT" gro off >/dev/null
		;;
	*) die "sink: expected drop|pass|gro|off" ;;
	esac
}

usage() {
	cat >&2 <<EOU
usage: [XSKF_TB=prefix] [XSKF_TB_QUEUES=n] [XSKF_TB_SHAPE=pair|fwd|vxlan] [XSKF_TB_MTU=bytes] $0 COMMAND
  up                 create the test bed, print KEY=VALUE lines
  down               remove it (no error when absent)
  status             show it
  env                print the KEY=VALUE lines without touching anything
  sink drop|pass     attach a trivial XDP program to the dut end (xskf_tb_drop|pass.bpf.o:
                     \$XSKF_BUILD/tools, else the installed ones, else the tree's build/tools)
  sink gro|off       detach it and turn GRO on / off
The generator (xskf-trafficgen) needs "sink" drop, pass or gro, or any XDP program on the
dut end: veth drops XDP frames for a peer that runs no NAPI.
EOU
	exit 2
}

case "${1:-}" in
up) do_up ;;
down) do_down ;;
status) do_status ;;
env) print_env ;;
sink) do_sink "${2:-}" ;;
*) usage ;;
esac

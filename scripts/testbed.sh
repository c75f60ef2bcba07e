#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# testbed.sh up|down|status - two network namespaces joined by one multi-queue veth pair.
#
#   ${P}-gen  [ ${P}g ] <==== veth ====> [ ${P}d ]  ${P}-dut
#             192.0.2.1/24                192.0.2.2/24
#             2001:db8::1/64              2001:db8::2/64
#
# P is $XSKF_TB (default "xskf"), so tests with different prefixes can run side by side: the
# addresses are the same in every pair but each pair lives in its own namespaces. The number of
# queues per end is $XSKF_TB_QUEUES (default 2), the MTU of both ends $XSKF_TB_MTU (default
# 1500; 9000 for jumbo frames: docs/jumbo.md). MAC addresses are fixed and derived from the
# prefix (02:<3 bytes of the prefix's CRC>:00:01 for gen, ...:00:02 for dut), and static
# neighbour entries are installed both ways, so that no ARP/ND ever runs: frames built by a
# generator can be addressed to the dut without asking anybody.
#
# `up` prints KEY=VALUE lines for `eval`. `down` is idempotent. Needs root and iproute2.
set -euo pipefail

P=${XSKF_TB:-xskf}
QUEUES=${XSKF_TB_QUEUES:-2}
MTU=${XSKF_TB_MTU:-1500}
NS_GEN="${P}-gen"
NS_DUT="${P}-dut"
IF_GEN="${P}g"
IF_DUT="${P}d"
IP4_GEN=192.0.2.1
IP4_DUT=192.0.2.2
IP6_GEN=2001:db8::1
IP6_DUT=2001:db8::2

die() {
	echo "testbed: $*" >&2
	exit 1
}

# Interface names are limited to 15 bytes (IFNAMSIZ - 1) by the kernel.
[[ ${#IF_GEN} -le 15 ]] || die "prefix '$P' too long (interface names max 15 bytes)"
[[ $P =~ ^[A-Za-z0-9_.-]+$ ]] || die "prefix '$P' has characters not allowed in names"
[[ $QUEUES =~ ^[0-9]+$ && $QUEUES -ge 1 ]] || die "XSKF_TB_QUEUES must be a positive integer"
[[ $MTU =~ ^[0-9]+$ && $MTU -ge 68 && $MTU -le 65535 ]] || die "XSKF_TB_MTU must be 68 to 65535"

# Three bytes from the CRC of the prefix: stable for a prefix, different between prefixes, and
# with 02 as the first byte (locally administered, unicast).
mac_base() {
	local crc
	crc=$(printf '%s' "$P" | cksum | cut -d' ' -f1)
	printf '02:%02x:%02x:%02x' $(((crc >> 16) & 255)) $(((crc >> 8) & 255)) $((crc & 255))
}
MAC_GEN="$(mac_base):00:01"
MAC_DUT="$(mac_base):00:02"

ns_exists() {
	ip netns list | awk '{print $1}' | grep -qx -- "$1"
}

print_env() {
	cat <<EOV
XSKF_TB=$P
TB_NS_GEN=$NS_GEN
TB_NS_DUT=$NS_DUT
TB_IF_GEN=$IF_GEN
TB_IF_DUT=$IF_DUT
TB_MAC_GEN=$MAC_GEN
TB_MAC_DUT=$MAC_DUT
TB_IP4_GEN=$IP4_GEN
TB_IP4_DUT=$IP4_DUT
TB_IP6_GEN=$IP6_GEN
TB_IP6_DUT=$IP6_DUT
TB_QUEUES=$QUEUES
TB_MTU=$MTU
EOV
}

do_down() {
	# Deleting a namespace destroys the veth end inside it, and with it the peer.
	local ns
	for ns in "$NS_GEN" "$NS_DUT"; do
		if ns_exists "$ns"; then
			ip netns del "$ns" 2>/dev/null || true
		fi
	done
	return 0
}

do_up() {
	[[ $EUID -eq 0 ]] || die "must be root"
	if ns_exists "$NS_GEN" || ns_exists "$NS_DUT"; then
		die "namespaces for prefix '$P' already exist (run: XSKF_TB=$P $0 down)"
	fi
	# Half a test bed is worse than none: undo everything if a step fails.
	trap 'do_down' ERR
	local ns

	ip netns add "$NS_GEN"
	ip netns add "$NS_DUT"
	# Keep the two stacks quiet, so that counters at the dut count what a test sent: no
	# router solicitations (accept_ra 0), no DAD probes for link-local addresses, and the
	# unsolicited MLD reports (which cannot be turned off) sent at once on link up instead
	# of spread over the next second.
	for ns in "$NS_GEN" "$NS_DUT"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.accept_ra=0 \
			net.ipv6.conf.default.dad_transmits=0 \
			net.ipv6.conf.default.mldv1_unsolicited_report_interval=0 \
			net.ipv6.conf.default.mldv2_unsolicited_report_interval=0
	done
	# Create both ends inside the gen namespace, then move the dut end, so nothing named
	# after the prefix ever appears in the caller's namespace (where it could clash).
	ip -n "$NS_GEN" link add "$IF_GEN" numtxqueues "$QUEUES" numrxqueues "$QUEUES" \
		address "$MAC_GEN" type veth peer name "$IF_DUT" \
		numtxqueues "$QUEUES" numrxqueues "$QUEUES" address "$MAC_DUT"
	ip -n "$NS_GEN" link set "$IF_DUT" netns "$NS_DUT"

	local ifc ip4 ip6 pip4 pip6 pmac
	for ns in "$NS_GEN" "$NS_DUT"; do
		if [[ $ns == "$NS_GEN" ]]; then
			ifc=$IF_GEN ip4=$IP4_GEN ip6=$IP6_GEN
			pip4=$IP4_DUT pip6=$IP6_DUT pmac=$MAC_DUT
		else
			ifc=$IF_DUT ip4=$IP4_DUT ip6=$IP6_DUT
			pip4=$IP4_GEN pip6=$IP6_GEN pmac=$MAC_GEN
		fi
		ip -n "$ns" link set lo up
		ip -n "$ns" addr add "$ip4/24" dev "$ifc"
		ip -n "$ns" addr add "$ip6/64" dev "$ifc" nodad
		ip -n "$ns" link set "$ifc" mtu "$MTU" up
		ip -n "$ns" neigh replace "$pip4" lladdr "$pmac" dev "$ifc" nud permanent
		ip -n "$ns" neigh replace "$pip6" lladdr "$pmac" dev "$ifc" nud permanent
	done
	wait_quiet
	trap - ERR
	print_env
}

# The link-local address of each end comes with the carrier event, which the kernel may deliver
# up to a second late (linkwatch), and brings a last pair of MLD reports. Wait for it, so that
# the test bed is quiet when `up` returns.
wait_quiet() {
	local tries ns ifc ready
	for ((tries = 0; tries < 60; tries++)); do
		ready=1
		for ns in "$NS_GEN:$IF_GEN" "$NS_DUT:$IF_DUT"; do
			ifc=${ns#*:}
			ns=${ns%%:*}
			if ! ip -n "$ns" -6 addr show dev "$ifc" scope link -tentative |
				grep -q inet6; then
				ready=0
			fi
		done
		[[ $ready -eq 1 ]] && break
		sleep 0.05
	done
	[[ $ready -eq 1 ]] || die "link-local addresses did not come up"
	# the reports go out within a jiffy of the join (report interval 0)
	sleep 0.1
}

do_status() {
	local ns found=0
	for ns in "$NS_GEN" "$NS_DUT"; do
		if ns_exists "$ns"; then
			found=1
			echo "== namespace $ns"
			ip -n "$ns" -br link
			ip -n "$ns" -br addr
			ip -n "$ns" neigh show
			ip -n "$ns" link show | grep -E 'prog/xdp|xdp' || true
		else
			echo "== namespace $ns: absent"
		fi
	done
	[[ $found -eq 1 ]] && print_env
	return 0
}

# What the dut end runs so that veth hands it XDP frames (see the header of xskf_tb_sink.bpf.c).
do_sink() {
	local mode=${1:-} obj
	local build=${XSKF_BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build}

	ns_exists "$NS_DUT" || die "no test bed with prefix '$P'"
	case "$mode" in
	drop | pass)
		obj="$build/tools/xskf_tb_$mode.bpf.o"
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
usage: [XSKF_TB=prefix] [XSKF_TB_QUEUES=n] $0 COMMAND
  up                 create the test bed, print KEY=VALUE lines
  down               remove it (no error when absent)
  status             show it
  env                print the KEY=VALUE lines without touching anything
  sink drop|pass     attach a trivial XDP program to the dut end (\$XSKF_BUILD/tools/*.bpf.o)
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

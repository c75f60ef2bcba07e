# SPDX-License-Identifier: BSD-2-Clause
#
# bed_lib.sh - the one builder of veth test beds (sourced, not run). tools/testbed.sh, the
# test library (tests/integration/lib.sh, fwd_lib.sh, tunnel_lib.sh) and the bench scripts
# build every bed from these pieces, so a bed means the same thing wherever it is made.
#
# Pieces:
#   bed_ns NS [v6]                     a namespace, lo up; IPv6 off, or quiet with "v6"
#   bed_veth NS1 IF1 MAC1 NS2 IF2 MAC2 [queues=N] [mtu=N] [csum=on|off] [v6=on|off]
#                                      a veth pair across two namespaces, both ends up
#   bed_neigh NS IF IP MAC             a permanent neighbour entry (no ARP/ND in any count)
#   bed_vxlan NS DEV MAC VNI LOCAL REMOTE LOWER [mtu=N]
#                                      the kernel's VXLAN device, up, TX checksum in software
#   bed_down                           remove every namespace this shell made (its processes
#                                      get SIGTERM, then SIGKILL after 5 s)
# Shapes (each sets the names it made, see its comment):
#   bed_pair P      ${P}-gen [${P}g] ==== [${P}d] ${P}-dut       (tools/testbed.sh)
#   bed_fwd P       ${P}-a [a0] ==== [la] ${P}-l [lb] ==== [b0] ${P}-b  (forwarding)
#   bed_vxlan3 P [MTU [UMTU]]  ${P}-host, ${P}-tun, ${P}-vtep with the kernel's VXLAN (the tunnel)
#
# Defaults that every piece reads: BED_QUEUES (2), BED_MTU (the kernel's 1500), BED_TX_CSUM
# (off: a veth leaves TCP/UDP checksums to an offload that never happens once AF_XDP copies the
# frame out, so the senders compute them in software; "on" keeps veth's default, for the
# tests of that case). Names are the caller's: two callers with different prefixes never clash.

BED_NSES=()

bed_die() {
	echo "bed: $*" >&2
	return 1
}

bed_ns_exists() {
	ip netns list | awk '{print $1}' | grep -qx -- "$1"
}

# bed_ns NS [v6]: with v6, IPv6 stays on but quiet (no router solicitations, no DAD, the
# unavoidable MLD reports sent at once on link up instead of over the next second).
bed_ns() {
	ip netns add "$1" || return 1
	BED_NSES+=("$1")
	ip -n "$1" link set lo up
	if [[ ${2:-} == v6 ]]; then
		ip netns exec "$1" sysctl -qw net.ipv6.conf.default.accept_ra=0 \
			net.ipv6.conf.default.dad_transmits=0 \
			net.ipv6.conf.default.mldv1_unsolicited_report_interval=0 \
			net.ipv6.conf.default.mldv2_unsolicited_report_interval=0
	else
		ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	fi
}

# bed_veth NS1 IF1 MAC1 NS2 IF2 MAC2 [key=value...]: both ends are made inside NS1 and the
# second is moved, so no name of the bed ever appears in the caller's namespace.
bed_veth() {
	local ns1=$1 if1=$2 mac1=$3 ns2=$4 if2=$5 mac2=$6 kv
	local q=${BED_QUEUES:-2} mtu=${BED_MTU:-} csum=${BED_TX_CSUM:-off} v6=
	shift 6
	for kv in "$@"; do
		case $kv in
		queues=*) q=${kv#*=} ;;
		mtu=*) mtu=${kv#*=} ;;
		csum=*) csum=${kv#*=} ;;
		v6=*) v6=${kv#*=} ;;
		*) bed_die "bed_veth: unknown setting '$kv'" || return 1 ;;
		esac
	done
	ip -n "$ns1" link add "$if1" numtxqueues "$q" numrxqueues "$q" address "$mac1" \
		${mtu:+mtu "$mtu"} type veth peer name "$if2" numtxqueues "$q" numrxqueues "$q" \
		address "$mac2" ${mtu:+mtu "$mtu"} netns "$ns2" || return 1
	if [[ $v6 == off ]]; then
		ip netns exec "$ns1" sysctl -qw "net.ipv6.conf.$if1.disable_ipv6=1"
		ip netns exec "$ns2" sysctl -qw "net.ipv6.conf.$if2.disable_ipv6=1"
	fi
	if [[ $csum == off ]]; then
		ip netns exec "$ns1" ethtool -K "$if1" tx off >/dev/null
		ip netns exec "$ns2" ethtool -K "$if2" tx off >/dev/null
	fi
	ip -n "$ns1" link set "$if1" up
	ip -n "$ns2" link set "$if2" up
	bed_wait_carrier "$ns1" "$if1" && bed_wait_carrier "$ns2" "$if2"
}

# bed_wait_carrier NS IF: the carrier comes with the kernel's link watch, which may run up to a
# second after `link set up`; an app started before it refuses the port (no carrier).
bed_wait_carrier() {
	local i
	for ((i = 0; i < 60; i++)); do
		[[ $(ip netns exec "$1" cat "/sys/class/net/$2/carrier" 2>/dev/null) == 1 ]] &&
			return 0
		sleep 0.05
	done
	bed_die "no carrier on $1/$2 after 3 s"
}

bed_neigh() {
	ip -n "$1" neigh replace "$3" lladdr "$4" dev "$2" nud permanent
}

# bed_vxlan NS DEV MAC VNI LOCAL REMOTE LOWER [mtu=N]: UDP port 4789, no learning, no IPv6 on
# the device itself.
bed_vxlan() {
	local ns=$1 dev=$2 mtu=
	[[ ${8:-} == mtu=* ]] && mtu=${8#mtu=}
	ip -n "$ns" link add "$dev" address "$3" ${mtu:+mtu "$mtu"} type vxlan id "$4" \
		local "$5" remote "$6" dstport 4789 nolearning dev "$7" || return 1
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=1"
	[[ ${BED_TX_CSUM:-off} == off ]] && ip netns exec "$ns" ethtool -K "$dev" tx off >/dev/null
	ip -n "$ns" link set "$dev" up
}

bed_down() {
	local ns pids i
	for ns in "${BED_NSES[@]}"; do
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[[ -n $pids ]] && kill -TERM $pids 2>/dev/null
	done
	for ns in "${BED_NSES[@]}"; do
		for ((i = 0; i < 100; i++)); do
			[[ -z $(ip netns pids "$ns" 2>/dev/null) ]] && break
			sleep 0.05
		done
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[[ -n $pids ]] && kill -KILL $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	BED_NSES=()
	return 0
}

# Three bytes from the CRC of a prefix: stable for a prefix, different between prefixes, with
# 02 as the first byte (locally administered, unicast).
bed_mac_base() {
	local crc
	crc=$(printf '%s' "$1" | cksum | cut -d' ' -f1)
	printf '02:%02x:%02x:%02x' $(((crc >> 16) & 255)) $(((crc >> 8) & 255)) $((crc & 255))
}

# bed_pair P: the generator/dut pair of tools/testbed.sh, IPv4 and IPv6 on both ends, static
# neighbours both ways. Sets NS_GEN NS_DUT IF_GEN IF_DUT MAC_GEN MAC_DUT IP4_* IP6_*. The TX
# checksum stays veth's default here unless BED_TX_CSUM=off is given (the generator builds its
# own checksums; kernel senders in these namespaces are not part of its tests).
bed_pair() {
	local P=$1 ns ifc ip4 ip6 pip4 pip6 pmac
	NS_GEN="$P-gen" NS_DUT="$P-dut" IF_GEN="${P}g" IF_DUT="${P}d"
	IP4_GEN=192.0.2.1 IP4_DUT=192.0.2.2 IP6_GEN=2001:db8::1 IP6_DUT=2001:db8::2
	MAC_GEN="$(bed_mac_base "$P"):00:01"
	MAC_DUT="$(bed_mac_base "$P"):00:02"
	bed_ns "$NS_GEN" v6 && bed_ns "$NS_DUT" v6 || return 1
	BED_TX_CSUM=${BED_TX_CSUM:-on} bed_veth "$NS_GEN" "$IF_GEN" "$MAC_GEN" \
		"$NS_DUT" "$IF_DUT" "$MAC_DUT" || return 1
	for ns in "$NS_GEN" "$NS_DUT"; do
		if [[ $ns == "$NS_GEN" ]]; then
			ifc=$IF_GEN ip4=$IP4_GEN ip6=$IP6_GEN pip4=$IP4_DUT pip6=$IP6_DUT pmac=$MAC_DUT
		else
			ifc=$IF_DUT ip4=$IP4_DUT ip6=$IP6_DUT pip4=$IP4_GEN pip6=$IP6_GEN pmac=$MAC_GEN
		fi
		ip -n "$ns" addr add "$ip4/24" dev "$ifc"
		ip -n "$ns" addr add "$ip6/64" dev "$ifc" nodad
		bed_neigh "$ns" "$ifc" "$pip4" "$pmac"
		bed_neigh "$ns" "$ifc" "$pip6" "$pmac"
	done
	bed_wait_quiet "$NS_GEN:$IF_GEN" "$NS_DUT:$IF_DUT"
}

# The link-local address of each end comes with the carrier event, which the kernel may deliver
# up to a second late (linkwatch), and brings a last pair of MLD reports. Wait for it, so that
# the bed is quiet when it is handed over.
bed_wait_quiet() {
	local tries e ready
	for ((tries = 0; tries < 60; tries++)); do
		ready=1
		for e in "$@"; do
			ip -n "${e%%:*}" -6 addr show dev "${e#*:}" scope link -tentative |
				grep -q inet6 || ready=0
		done
		[[ $ready -eq 1 ]] && break
		sleep 0.05
	done
	[[ $ready -eq 1 ]] || bed_die "link-local addresses did not come up" || return 1
	# the reports go out within a jiffy of the join (report interval 0)
	sleep 0.1
}

# bed_fwd P: the forwarding bed, IPv4 only, static neighbours across it, so that no ARP frame
# is in the counts. Sets NA NL NB and MAC_A MAC_LA MAC_B MAC_LB.
#   nsA [a0 192.0.2.1] --- [la] nsL (the app) [lb] --- [b0 192.0.2.2] nsB
bed_fwd() {
	local P=$1
	MAC_A=02:00:00:00:0a:01 MAC_LA=02:00:00:00:0a:02
	MAC_B=02:00:00:00:0b:01 MAC_LB=02:00:00:00:0b:02
	NA=$P-a NL=$P-l NB=$P-b
	bed_ns $NA && bed_ns $NL && bed_ns $NB || return 1
	bed_veth $NA a0 $MAC_A $NL la $MAC_LA || return 1
	bed_veth $NB b0 $MAC_B $NL lb $MAC_LB || return 1
	ip -n $NA addr add 192.0.2.1/24 dev a0
	ip -n $NB addr add 192.0.2.2/24 dev b0
	bed_neigh $NA a0 192.0.2.2 $MAC_LA
	bed_neigh $NB b0 192.0.2.1 $MAC_LB
}

# bed_vxlan3 P: the tunnel's bed. Sets NS_H NS_T NS_V and the MAC_* below.
#   ns host (access host)       ns tun (xsk-tunnel)            ns vtep (kernel VTEP)
#   h0 192.0.2.1, 203.0.113.1 == ta [access]   [underlay] tu == v0 198.51.100.2, 2001:db8::2
#                                                                vx0 VNI 100 via 198.51.100.1
#                                                                    192.0.2.2
#                                                                vx6 VNI 200 via 2001:db8::1
#                                                                    203.0.113.2
# xsk-tunnel's VTEP addresses are 198.51.100.1 and 2001:db8::1 (it has no IP stack there: the
# vtep namespace has static neighbour entries for them). MTU (optional) is that of the access
# links and the VXLAN devices; the underlay link then gets 100 bytes more (VXLAN over IPv6 adds
# 70), so that an inner frame always fits, or UMTU (a 9000 underlay under an 8950 access link:
# a full inner frame then fits VXLAN over IPv4 only).
bed_vxlan3() {
	local P=$1 imtu=${2:-} umtu=${3:-}
	[[ -n $imtu && -z $umtu ]] && umtu=$((imtu + 100))
	NS_H=$P-host NS_T=$P-tun NS_V=$P-vtep
	MAC_H=02:54:00:00:00:01 MAC_TA=02:54:00:00:00:10 MAC_TU=02:54:00:00:00:11
	MAC_V0=02:54:00:00:00:20 MAC_VX0=02:54:00:00:00:30 MAC_VX6=02:54:00:00:00:31
	bed_ns "$NS_H" && bed_ns "$NS_T" && bed_ns "$NS_V" v6 || return 1
	BED_MTU= bed_veth "$NS_H" h0 $MAC_H "$NS_T" ta $MAC_TA queues=1 ${imtu:+mtu=$imtu} ||
		return 1
	BED_MTU= bed_veth "$NS_T" tu $MAC_TU "$NS_V" v0 $MAC_V0 queues=1 ${umtu:+mtu=$umtu} ||
		return 1
	ip -n "$NS_H" addr add 192.0.2.1/24 dev h0
	ip -n "$NS_H" addr add 203.0.113.1/24 dev h0
	bed_neigh "$NS_H" h0 192.0.2.2 $MAC_VX0
	bed_neigh "$NS_H" h0 203.0.113.2 $MAC_VX6
	ip -n "$NS_V" addr add 198.51.100.2/24 dev v0
	ip -n "$NS_V" addr add 2001:db8::2/64 dev v0 nodad
	bed_neigh "$NS_V" v0 198.51.100.1 $MAC_TU
	bed_neigh "$NS_V" v0 2001:db8::1 $MAC_TU
	bed_vxlan "$NS_V" vx0 $MAC_VX0 100 198.51.100.2 198.51.100.1 v0 ${imtu:+mtu=$imtu} ||
		return 1
	bed_vxlan "$NS_V" vx6 $MAC_VX6 200 2001:db8::2 2001:db8::1 v0 ${imtu:+mtu=$imtu} ||
		return 1
	ip -n "$NS_V" addr add 192.0.2.2/24 dev vx0
	ip -n "$NS_V" addr add 203.0.113.2/24 dev vx6
	bed_neigh "$NS_V" vx0 192.0.2.1 $MAC_H
	bed_neigh "$NS_V" vx6 203.0.113.1 $MAC_H
}

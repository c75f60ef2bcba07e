#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# hugepages.sh: hugepage pools and hugetlbfs mounts for xskf, as dpdk-hugepages.py does them for
# DPDK (docs/memory.md has both side by side). Installed as xskf-hugepages.
#
#   hugepages.sh [show]                          the pools per node and page size, and the mounts
#   hugepages.sh reserve SIZE N [--node N | --interface IF]
#                                                make the pool of SIZE (2M, 1G) N pages: on node
#                                                N, on the NIC's node of IF, else on all nodes
#   hugepages.sh mount SIZE DIR                  mount a hugetlbfs with pagesize=SIZE on DIR
#   hugepages.sh unmount DIR                     unmount it (and remove DIR if we made it)
#   hugepages.sh undo                            put back every pool and mount changed here
#
# Every change is recorded first (the pool's size before, the mount) in $XSKF_HUGE_STATE
# (default /run/xskf-hugepages.state), so `undo` can put the machine back as it was. A pool in
# use is never shrunk below the pages in use (mapped by a running process) and reserved (by a
# mapping, not yet touched): the script refuses and says who to stop. Uses hugeadm (package
# libhugetlbfs-bin) for the all-nodes pools and its listings where it is installed
# (XSKF_HUGEADM=0: never), sysfs directly otherwise and for everything per node.
# Root for everything but `show`. Exit status: 0 done, 1 refused or failed, 2 usage.
set -euo pipefail

STATE=${XSKF_HUGE_STATE:-/run/xskf-hugepages.state}
SYS=/sys/kernel/mm/hugepages
NODES=/sys/devices/system/node
HUGEADM=
if [ "${XSKF_HUGEADM:-1}" != 0 ] && command -v hugeadm >/dev/null 2>&1; then
	HUGEADM=hugeadm
fi

# tools/hugepages.sh in the tree, xskf-hugepages installed (xskf-hugepages(1)): the same file
ME=$(basename "$0")
die() { echo "$ME: $*" >&2; exit 1; }
usage() {
	sed -n '4,14p' "$0" | sed "s/^# \{0,1\}//; s/hugepages\.sh/$ME/g" >&2
	exit 2
}

# kb SIZE: 2M, 1G, 2048k, 2MB, 1GB -> the size in kB
kb() {
	local v u
	[[ $1 =~ ^([0-9]+)([kKmMgG])[bB]?$ ]] || die "bad page size '$1': use 2M or 1G"
	v=${BASH_REMATCH[1]} u=${BASH_REMATCH[2]}
	case $u in
	k | K) echo "$v" ;;
	m | M) echo $((v * 1024)) ;;
	g | G) echo $((v * 1024 * 1024)) ;;
	esac
}

# name KB: 2048 -> 2M
name() {
	if (($1 % 1048576 == 0)); then echo "$(($1 / 1048576))G"; elif (($1 % 1024 == 0)); then
		echo "$(($1 / 1024))M"; else echo "${1}K"; fi
}

sizes() { # the sizes this kernel has, in kB
	local d
	for d in "$SYS"/hugepages-*kB; do
		[ -d "$d" ] || continue
		d=${d##*/hugepages-}
		echo "${d%kB}"
	done | sort -n
}

nodes() { # the nodes with hugepage pools
	local d
	for d in "$NODES"/node[0-9]*; do
		[ -d "$d/hugepages" ] && echo "${d##*/node}"
	done
}

pooldir() { # pooldir KB [NODE]
	if [ -n "${2:-}" ]; then echo "$NODES/node$2/hugepages/hugepages-$1kB"; else echo "$SYS/hugepages-$1kB"; fi
}

rd() { cat "$1" 2>/dev/null || echo 0; }

# remember FILE: record the pool's persistent pages (nr_hugepages counts surplus pages too) before
# its first change
remember() {
	[ -f "$STATE" ] && grep -q "^pool $1 " "$STATE" && return 0
	echo "pool $1 $(($(rd "$1") - $(rd "${1%/*}/surplus_hugepages")))" >>"$STATE"
}

show() {
	local k n d
	printf '%-5s %5s %8s %8s %8s %8s\n' node size pages free in-use surplus
	for n in $(nodes); do
		for k in $(sizes); do
			d=$(pooldir "$k" "$n")
			printf '%-5s %5s %8s %8s %8s %8s\n' "$n" "$(name "$k")" "$(rd "$d/nr_hugepages")" \
				"$(rd "$d/free_hugepages")" $(($(rd "$d/nr_hugepages") - $(rd "$d/free_hugepages"))) \
				"$(rd "$d/surplus_hugepages")"
		done
	done
	for k in $(sizes); do
		d=$(pooldir "$k")
		printf '%-5s %5s %8s %8s %8s %8s   (reserved by mappings %s, overcommit %s)\n' all \
			"$(name "$k")" "$(rd "$d/nr_hugepages")" "$(rd "$d/free_hugepages")" \
			$(($(rd "$d/nr_hugepages") - $(rd "$d/free_hugepages"))) "$(rd "$d/surplus_hugepages")" \
			"$(rd "$d/resv_hugepages")" "$(rd "$d/nr_overcommit_hugepages")"
	done
	echo "hugetlbfs mounts:"
	awk '$3 == "hugetlbfs" { print "  " $2 "  " $4 }' /proc/mounts
	if [ -n "$HUGEADM" ]; then
		echo "hugeadm --pool-list:"
		hugeadm --pool-list | sed 's/^/  /'
	fi
	if [ -f "$STATE" ]; then
		echo "changed by this script (undo puts them back):"
		sed 's/^/  /' "$STATE"
	fi
}

# set_pool KB NODE N: NODE empty for all nodes
set_pool() {
	local k=$1 node=$2 n=$3 d cur free used resv got
	d=$(pooldir "$k" "$node")
	[ -f "$d/nr_hugepages" ] || die "no $(name "$k") pool${node:+ on node $node} ($d)"
	cur=$(rd "$d/nr_hugepages") free=$(rd "$d/free_hugepages")
	used=$((cur - free))
	resv=$(rd "$(pooldir "$k")/resv_hugepages")
	if ((n < cur && n < used + resv)); then
		die "refusing to shrink the $(name "$k") pool${node:+ of node $node} from $cur to $n pages:" \
			"$used in use, $resv reserved by mappings; stop the process that maps them" \
			"(grep -l kernelpagesize_kB=$k /proc/[0-9]*/numa_maps) and try again"
	fi
	remember "$d/nr_hugepages"
	if [ -z "$node" ] && [ -n "$HUGEADM" ]; then
		hugeadm --pool-pages-min "$(name "$k"):$n" 2>/dev/null || echo "$n" >"$d/nr_hugepages"
	else
		echo "$n" >"$d/nr_hugepages"
	fi
	got=$(rd "$d/nr_hugepages")
	if ((got != n)); then
		die "the $(name "$k") pool${node:+ of node $node} has $got pages, not $n: memory is" \
			"short or fragmented there (reserve 1G pages early, or on the kernel command line:" \
			"hugepagesz=1G hugepages=$n); '$ME undo' puts it back"
	fi
	echo "$(name "$k") pool${node:+ of node $node}: $cur -> $got pages ($(rd "$d/free_hugepages") free)"
}

reserve() {
	local size=${1:-} n=${2:-} node= iface= k
	[ -n "$size" ] && [[ $n =~ ^[0-9]+$ ]] || usage
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--node) node=${2:?--node N}; shift 2 ;;
		--interface) iface=${2:?--interface IF}; shift 2 ;;
		*) usage ;;
		esac
	done
	k=$(kb "$size")
	[ -d "$(pooldir "$k")" ] || die "this kernel has no $(name "$k") hugepages (it has: $(for s in $(sizes); do printf '%s ' "$(name "$s")"; done))"
	if [ -n "$iface" ]; then
		[ -e "/sys/class/net/$iface" ] || die "no interface '$iface' (ip link)"
		node=$(cat "/sys/class/net/$iface/device/numa_node" 2>/dev/null || echo -1)
		if [ "$node" -lt 0 ]; then
			[ "$(nodes | wc -l)" = 1 ] || die "$iface has no NUMA node (a virtual device): give --node N"
			node=$(nodes)
			echo "$iface has no NUMA node: using node $node, the only one"
		fi
	fi
	if [ -n "$node" ]; then
		[[ $node =~ ^[0-9]+$ ]] && [ -d "$NODES/node$node/hugepages" ] ||
			die "no NUMA node '$node' (the nodes are: $(nodes | tr '\n' ' '))"
	fi
	set_pool "$k" "$node" "$n"
}

do_mount() {
	local size=${1:-} dir=${2:-} k made=0
	[ -n "$size" ] && [ -n "$dir" ] || usage
	k=$(kb "$size")
	[ -d "$(pooldir "$k")" ] || die "this kernel has no $(name "$k") hugepages"
	if [ ! -d "$dir" ]; then
		mkdir -p "$dir"
		made=1
	fi
	mountpoint -q "$dir" && die "$dir is a mount point already: unmount it or choose another folder"
	mount -t hugetlbfs -o "pagesize=$(name "$k")" nodev "$dir" || {
		[ $made = 1 ] && rmdir "$dir"
		die "mount of a hugetlbfs with pagesize=$(name "$k") on $dir failed"
	}
	echo "mount $(realpath "$dir") $made" >>"$STATE"
	echo "hugetlbfs with pagesize=$(name "$k") on $dir (xsk-* --huge-dir $dir)"
}

do_unmount() {
	local dir=${1:-} real made
	[ -n "$dir" ] || usage
	real=$(realpath "$dir" 2>/dev/null) || die "no folder $dir"
	awk -v d="$real" '$2 == d && $3 == "hugetlbfs" { f = 1 } END { exit !f }' /proc/mounts ||
		die "$dir is not a hugetlbfs mount"
	umount "$real" || die "cannot unmount $dir (in use? fuser -m $dir)"
	made=0
	if [ -f "$STATE" ]; then
		made=$(awk -v d="$real" '$1 == "mount" && $2 == d { m = $3 } END { print m + 0 }' "$STATE")
		grep -v "^mount $real " "$STATE" >"$STATE.tmp" || true
		mv "$STATE.tmp" "$STATE"
	fi
	[ "$made" = 1 ] && rmdir "$real" 2>/dev/null || true
	echo "unmounted $dir"
}

undo() {
	local kind a b rc=0 rest
	[ -f "$STATE" ] || { echo "nothing to undo ($STATE does not exist)"; return 0; }
	# mounts first, then the pools, each newest first: a pool recorded before a later change to
	# the same pages (per node, then all nodes) is put back last
	while read -r kind a b; do
		[ "$kind" = mount ] || continue
		if awk -v d="$a" '$2 == d && $3 == "hugetlbfs" { f = 1 } END { exit !f }' /proc/mounts; then
			umount "$a" || { echo "$ME: cannot unmount $a (in use?)" >&2; rc=1; continue; }
		fi
		[ "$b" = 1 ] && rmdir "$a" 2>/dev/null || true
		echo "unmounted $a"
	done < <(tac "$STATE")
	rest=$(mktemp)
	while read -r kind a b; do
		[ "$kind" = pool ] || continue
		local d=${a%/nr_hugepages} cur used resv
		cur=$(rd "$a") used=$(($(rd "$a") - $(rd "$d/free_hugepages")))
		resv=$(rd "$SYS/${d##*/}/resv_hugepages")
		if ((b < cur && b < used + resv)); then
			echo "$ME: refusing to shrink $a from $cur to $b: $used pages in use, $resv" \
				"reserved; stop the process that maps them and run undo again" >&2
			echo "pool $a $b" >>"$rest"
			rc=1
			continue
		fi
		echo "$b" >"$a"
		echo "$a: $cur -> $(rd "$a")"
	done < <(tac "$STATE")
	if [ -s "$rest" ]; then tac "$rest" >"$STATE"; else rm -f "$STATE"; fi
	rm -f "$rest"
	return $rc
}

cmd=${1:-show}
[ $# -gt 0 ] && shift
case $cmd in
show) show ;;
reserve | mount | unmount | undo)
	[ "$(id -u)" = 0 ] || die "$cmd changes the machine: run it as root"
	case $cmd in
	reserve) reserve "$@" ;;
	mount) do_mount "$@" ;;
	unmount) do_unmount "$@" ;;
	undo) undo ;;
	esac
	;;
-h | --help | help) usage ;;
*) usage ;;
esac

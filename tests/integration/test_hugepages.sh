#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The UMEM on hugepages as DPDK users set them up (docs/memory.md), on the veth test bed with
# real traffic. Pools and mounts are made with tools/hugepages.sh; the page size a run used is
# read from its /proc/PID/numa_maps (kernelpagesize_kB=).
#   anon-2m, file-2m, anon-1g, file-1g  xsk-rxdrop with exact counts on 2 MiB and 1 GiB pages,
#                                       anonymous and a hugetlbfs file (1 GiB: skipped, 77, with
#                                       the reason, where no page can be reserved)
#   pool-small, pool-small-auto         a pool too small for the UMEM: one-line error (require),
#                                       4 KiB pages and the warning (auto)
#   not-hugetlbfs, size-mismatch        --huge-dir on another file system; a 1G mount with
#                                       --huge-size 2M: one-line errors, exit 2
#   race, race-auto                     the pool emptied between the check and the mmap
#                                       (xsk-rxdrop-race): one-line error / fallback and warning
#   helper                              tools/hugepages.sh: show, reserve on a node, refusing to
#                                       shrink a pool in use, mount, unmount, undo; with hugeadm
#                                       and with sysfs alone
# Every case leaves the pools (each size, each node) and the mounts as it found them, on every
# exit path, and fails if it could not.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
HELPER=$S/tools/hugepages.sh
RACE=${XSKF_RACE:-$B/tests/integration/xsk-rxdrop-race}
SYSN=/sys/devices/system/node

# every pool of every size and node (its persistent pages: nr_hugepages counts surplus pages
# too, which the kernel frees when they are unmapped), and the hugetlbfs mounts
hp_snapshot() {
	local f
	for f in /sys/kernel/mm/hugepages/*/nr_hugepages "$SYSN"/node*/hugepages/*/nr_hugepages; do
		[ -f "$f" ] && echo "$f $(($(cat "$f") - $(cat "${f%/*}/surplus_hugepages")))"
	done
	awk '$3 == "hugetlbfs" { print "mount " $2 }' /proc/mounts | sort
}
HP0=$(hp_snapshot)

tb_up "xhp$$"
out=$(mktemp -d)
export XSKF_HUGE_STATE=$out/hugepages.state

cleanup() {
	local rc=$? f v now m
	# the helper case's holder (memory backend: outside the bed's namespace), before the pools
	if [ -n "${hold:-}" ]; then
		kill -KILL $hold 2>/dev/null
		wait $hold 2>/dev/null
	fi
	tb_cleanup
	"$HELPER" undo >/dev/null 2>&1
	# what undo refused (someone else's process still maps pages): straight to sysfs, where the
	# kernel frees the excess pages when they are unmapped
	for m in $(awk -v o="$out" '$3 == "hugetlbfs" && index($2, o) == 1 { print $2 }' /proc/mounts); do
		umount "$m"
	done
	while read -r f v; do
		[[ $f == "$SYSN"/* ]] || continue
		[ $(($(cat "$f") - $(cat "${f%/*}/surplus_hugepages"))) = "$v" ] || echo "$v" >"$f"
	done <<<"$HP0"
	now=$(hp_snapshot)
	if [ "$now" != "$HP0" ]; then
		echo "FAIL: pools or mounts not as they were:" >&2
		diff <(echo "$HP0") <(echo "$now") >&2
		rc=1
	fi
	rm -rf "$out"
	exit $rc
}
trap cleanup EXIT

# the node the UMEM goes on here: veth has none, so the worker's (CPU 1's)
NODE=$(basename "$(ls -d /sys/devices/system/cpu/cpu1/node* 2>/dev/null | head -1)")
NODE=${NODE#node}
[ -n "$NODE" ] || NODE=0
pool() { cat "$SYSN/node$NODE/hugepages/hugepages-$1kB/$2_hugepages"; }
# add N pages of SIZE (kB) to the pool of $NODE, with the helper
add_pages() {
	local kb=$1 n=$2 name
	name=$([ "$kb" = 1048576 ] && echo 1G || echo 2M)
	"$HELPER" reserve "$name" $(($(pool "$kb" nr) + n)) --node "$NODE"
}
# make the pool of $NODE have N free pages of 2 MiB (never taking pages in use)
free_pages_2m() {
	"$HELPER" reserve 2M $(($(pool 2048 nr) - $(pool 2048 free) + $1)) --node "$NODE" >/dev/null ||
		fail "cannot set the 2M pool of node $NODE to $1 free pages"
}

# run_rx [--bin B] ARGS...: xsk-rxdrop on queue 0 (worker CPU 1, generator CPU 0) with ARGS,
# N frames of real traffic, exact counts. Leaves $out/maps (its numa_maps while running),
# $out/ls (what --huge-dir held then) and $out/rx.err.
N=5000
run_rx() {
	local bin=$RXDROP pid dir=${HUGE_DIR:-}
	if [ "$1" = --bin ]; then
		bin=$2
		shift 2
	fi
	dut ethtool -K "$TB_IF_DUT" gro on >/dev/null
	# until SIGINT once every frame is in, not for a duration: a slow start of the generator
	# must not find the run already ended
	ip netns exec "$TB_NS_DUT" "$bin" -i "$TB_IF_DUT" -q 0 -N -c --cpus 1 --json \
		"$@" >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
	wait_attached
	cat "/proc/$pid/numa_maps" >"$out/maps"
	[ -n "$dir" ] && ls -A "$dir" >"$out/ls"
	gen "$GEN" -i "$TB_IF_GEN" -n $N --cpus 0 --rate 200000 --flows 8 --json >"$out/gen.json" ||
		fail "generator failed"
	WAIT_SHOW=$out/rx.err wait_for "$N frames at the sockets" ge app_seen $pid "$(sent_of "$out/gen.json")"
	kill -INT $pid
	wait $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	cat "$out/rx.err"
	local sent redir rx kdrop
	sent=$(sent_of "$out/gen.json")
	[ "$sent" = $N ] || fail "generator sent $sent of $N"
	rx=$(json_get "$out/rx.json" "d['queues'][0]['rx_packets']")
	redir=$(json_get "$out/rx.json" "d['queues'][0]['program']['redirected']")
	kdrop=$(json_get "$out/rx.json" "d['queues'][0]['kernel']['rx_dropped'] + d['queues'][0]['kernel']['rx_ring_full']")
	# the kernel's own frames (IPv6 ND) may add a few
	[ "$redir" -ge "$sent" ] && [ "$redir" -le $((sent + 10)) ] || fail "sent $sent, redirected $redir"
	[ "$redir" = $((rx + kdrop)) ] || fail "redirected $redir != received $rx + kernel drops $kdrop"
	[ "$(json_get "$out/rx.json" "d['queues'][0]['reconciled']")" = True ] || fail "not reconciled"
	[ "$(json_get "$out/rx.json" "d['census_ok']")" = True ] || fail "frame census"
	assert_no_xdp "after the run"
	COUNTS="sent $sent, redirected $redir, received $rx, kernel drops $kdrop"
}

# expect_maps KB PAGES [FILE-PREFIX]: the run's UMEM in numa_maps: PAGES pages of KB kB on
# $NODE, bound there; anonymous, or a deleted file whose name starts with FILE-PREFIX
expect_maps() {
	local kb=$1 pages=$2 file=${3:-} line
	if [ "$kb" = 4 ]; then
		line=$(grep -E "bind:$NODE .*anon=$pages .*N$NODE=$pages .*kernelpagesize_kB=4\$" "$out/maps")
	elif [ -n "$file" ]; then
		line=$(grep -F "file=$file" "$out/maps" | grep -E "bind:$NODE .*\\\\040\(deleted\) huge .*N$NODE=$pages kernelpagesize_kB=$kb\$")
	else
		line=$(grep -E "bind:$NODE file=/anon_hugepage.* huge anon=$pages .*N$NODE=$pages kernelpagesize_kB=$kb\$" "$out/maps")
	fi
	[ -n "$line" ] || { grep -E "huge|bind" "$out/maps" >&2; fail "no UMEM of $pages pages of $kb kB on node $NODE in numa_maps"; }
	echo "numa_maps: $line"
}

# expect_error EXIT REGEX ARGS...: xsk-rxdrop ARGS fails with EXIT and one line, matching REGEX
expect_error() {
	local want=$1 re=$2 rc=0 bin=$RXDROP lines
	shift 2
	if [ "$1" = --bin ]; then
		bin=$2
		shift 2
	fi
	dut timeout 60 "$bin" -i "$TB_IF_DUT" -q 0 -N -c --cpus 1 --duration 2 "$@" >"$out/o" \
		2>"$out/e" </dev/null || rc=$?
	cat "$out/e"
	[ "$rc" = "$want" ] || fail "exit $rc, expected $want"
	lines=$(grep -v "^huge_race:" "$out/e" | wc -l)
	[ "$lines" = 1 ] || fail "$lines lines of error, expected one"
	grep -qE -- "$re" "$out/e" || fail "no line matching '$re'"
	assert_no_xdp "after the error"
}

case $case_name in
anon-2m)
	add_pages 2048 12 || fail "cannot reserve 2 MiB pages"
	run_rx --hugepages=require --huge-size 2M
	grep -q "UMEM 8 MiB: 4 pages of 2 MiB (anonymous) on node $NODE (checked: 4 of 4 pages there); [0-9]* pages of 2 MiB left on that node" \
		"$out/rx.err" || fail "start-up line: where the memory came from"
	expect_maps 2048 4
	ok "2 MiB anonymous hugepages on node $NODE: $COUNTS"
	;;
file-2m | file-1g)
	kb=2048 sz=2M pages=4 msz="8 MiB"
	if [ "$case_name" = file-1g ]; then
		kb=1048576 sz=1G pages=1 msz="1 GiB"
		[ -d /sys/kernel/mm/hugepages/hugepages-1048576kB ] || skip "this kernel has no 1 GiB hugepages"
		add_pages $kb 1 >"$out/r" 2>&1 || skip "cannot reserve a 1 GiB page on node $NODE: $(cat "$out/r")"
	else
		add_pages $kb 12 || fail "cannot reserve 2 MiB pages"
	fi
	HUGE_DIR=$out/huge
	"$HELPER" mount $sz "$HUGE_DIR" || fail "mount"
	run_rx --hugepages=require --huge-dir "$HUGE_DIR"
	grep -q "UMEM $msz: $pages pages\? of $(echo $sz | sed 's/M/ MiB/;s/G/ GiB/') (hugetlbfs file, unlinked) on node $NODE" "$out/rx.err" ||
		fail "start-up line: where the memory came from"
	[ ! -s "$out/ls" ] || fail "the UMEM file was not unlinked while running: $(cat "$out/ls")"
	[ -z "$(ls -A "$HUGE_DIR")" ] || fail "files left in $HUGE_DIR"
	expect_maps $kb $pages "$HUGE_DIR/xskf-umem."
	ok "$sz hugetlbfs file (unlinked) on node $NODE: $COUNTS"
	;;
anon-1g)
	[ -d /sys/kernel/mm/hugepages/hugepages-1048576kB ] || skip "this kernel has no 1 GiB hugepages"
	# the user's way: one helper command, one flag (the NIC's node; veth has none: the only one)
	dut "$HELPER" reserve 1G $(($(pool 1048576 nr) + 1)) --interface "$TB_IF_DUT" >"$out/r" 2>&1 ||
		skip "cannot reserve a 1 GiB page on node $NODE: $(cat "$out/r")"
	cat "$out/r"
	run_rx --huge-size 1G
	grep -q "UMEM of 8 MiB (4096 frames of 2048 bytes) rounded up to 1 GiB, whole pages of 1 GiB: 1016 MiB unused (--frames 524288 fills it)" \
		"$out/rx.err" || fail "the rounding is not reported"
	grep -q "UMEM 1 GiB: 1 page of 1 GiB (anonymous) on node $NODE (checked: 1 of 1 page there)" \
		"$out/rx.err" || fail "start-up line: where the memory came from"
	# none of umem.c's fallback warnings (no hugepages, a pool that ran out)
	grep -E "^xskf: warning: (no hugepages |the [0-9]+ [KMG]iB hugepage pool on )" "$out/rx.err" &&
		fail "a hugepage warning with the page reserved"
	expect_maps 1048576 1
	ok "1 GiB anonymous hugepage on node $NODE: $COUNTS"
	;;
pool-small)
	# a pool of 2 free pages and a 512 MiB UMEM (256 pages): too small even if another user's
	# run frees some of its pages meanwhile (this machine is shared)
	free_pages_2m 2
	expect_error 1 "no hugepages for worker 0's 512 MiB UMEM: it needs 256 pages of 2 MiB on node $NODE, [0-9]+ free there \(--hugepages=require\): reserve them with 'echo [0-9]+ > $SYSN/node$NODE/hugepages/hugepages-2048kB/nr_hugepages' \(or 'xskf-hugepages reserve 2M [0-9]+ --node $NODE'\)" \
		--hugepages=require --huge-size 2M --frames 262144
	ok "pool too small (require): one line, exit 1, nothing attached"
	;;
pool-small-auto)
	free_pages_2m 2
	run_rx --huge-size 2M --frames 262144
	[ "$(grep -c "warning: no hugepages for worker 0's 512 MiB UMEM (256 pages of 2 MiB needed on node $NODE, [0-9]* free): it uses 4 KiB pages" "$out/rx.err")" = 1 ] ||
		fail "not one fallback warning"
	expect_maps 4 131072
	ok "pool too small (auto): 4 KiB pages and one warning: $COUNTS"
	;;
not-hugetlbfs)
	mkdir "$out/plain"
	fs=$(df --output=fstype "$out/plain" | tail -1)
	expect_error 2 "--huge-dir $out/plain is not a hugetlbfs mount \(it is $fs\): mount one with 'mount -t hugetlbfs -o pagesize=2M nodev $out/plain'" \
		--huge-dir "$out/plain"
	ok "--huge-dir on $fs: one line, exit 2"
	;;
size-mismatch)
	[ -d /sys/kernel/mm/hugepages/hugepages-1048576kB ] || skip "this kernel has no 1 GiB hugepages"
	"$HELPER" mount 1G "$out/huge1g" || fail "mount"
	expect_error 2 "--huge-dir $out/huge1g has 1 GiB pages \(pagesize=1G\) but --huge-size is 2M: use --huge-size 1G, or a mount with pagesize=2M" \
		--huge-dir "$out/huge1g" --huge-size 2M
	ok "a 1G mount with --huge-size 2M: one line, exit 2"
	;;
race)
	add_pages 2048 8 || fail "cannot reserve 2 MiB pages"
	expect_error 1 "the 2 MiB hugepage pool on node $NODE ran out between the check \([0-9]+ free\) and mmap for worker 0's UMEM \(another process took them\): reserve more with" \
		--bin "$RACE" --hugepages=require --huge-size 2M
	grep -q "^huge_race: took the" "$out/e" || fail "the competitor took nothing"
	ok "pool emptied between check and mmap (require): one line, exit 1"
	;;
race-auto)
	add_pages 2048 8 || fail "cannot reserve 2 MiB pages"
	run_rx --bin "$RACE" --huge-size 2M
	[ "$(grep -c "warning: the 2 MiB hugepage pool on node $NODE ran out between the check ([0-9]* free) and mmap (another process took them): worker 0's UMEM uses 4 KiB pages" "$out/rx.err")" = 1 ] ||
		fail "not one fallback warning"
	expect_maps 4 2048
	ok "pool emptied between check and mmap (auto): 4 KiB pages and one warning: $COUNTS"
	;;
helper)
	"$HELPER" show >"$out/show" || fail "show"
	grep -qE "^$NODE +2M +[0-9]+" "$out/show" || { cat "$out/show"; fail "show: no 2M row of node $NODE"; }
	n0=$(pool 2048 nr)
	"$HELPER" reserve 2M $((n0 + 6)) --node "$NODE" || fail "reserve on node $NODE"
	[ "$(pool 2048 nr)" = $((n0 + 6)) ] || fail "the pool of node $NODE is $(pool 2048 nr), not $((n0 + 6))"
	# hold 4 of them until SIGINT (not for a duration a slow machine could outlast): the memory
	# backend needs no interface
	"$RXDROP" -i mem0 --backend memory --hugepages=require --huge-size 2M --cpus 1 --quiet \
		>/dev/null 2>"$out/hold.err" &
	hold=$!
	holds() { grep -q "kernelpagesize_kB=2048" "/proc/$hold/numa_maps" 2>/dev/null; }
	WAIT_SHOW=$out/hold.err wait_for "hugepages mapped by the holder" holds
	rc=0
	"$HELPER" reserve 2M 0 --node "$NODE" 2>"$out/e" || rc=$?
	[ $rc = 1 ] && grep -q "refusing to shrink the 2M pool of node $NODE from $((n0 + 6)) to 0 pages: [0-9]* in use" "$out/e" ||
		{ cat "$out/e"; fail "shrinking a pool in use was not refused (exit $rc)"; }
	[ "$(pool 2048 nr)" = $((n0 + 6)) ] || fail "the refused shrink changed the pool"
	cat "$out/e"
	# undo goes back to n0, the pool as the test found it: refused where that would take
	# pages the holder maps, done where another's reservation left n0 above them
	used=$(($(pool 2048 nr) - $(pool 2048 free)))
	rc=0
	"$HELPER" undo 2>"$out/e" || rc=$?
	if [ "$n0" -lt "$used" ]; then
		[ $rc = 1 ] && grep -q "refusing to shrink" "$out/e" || fail "undo shrank a pool in use"
	else
		[ $rc = 0 ] && [ "$(pool 2048 nr)" = "$n0" ] ||
			fail "undo to the $n0 pages found ($used in use) failed: $(cat "$out/e")"
	fi
	kill -INT $hold
	wait $hold || fail "the holder failed"
	hold=
	# all nodes at once, through hugeadm where it is there, then through sysfs alone
	g=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	for h in 1 0; do
		[ $h = 1 ] && ! command -v hugeadm >/dev/null && continue
		XSKF_HUGEADM=$h "$HELPER" reserve 2M $(($(cat $g) + 2)) >"$out/r" || fail "reserve (hugeadm=$h)"
		grep -q "^2M pool: [0-9]* -> [0-9]* pages" "$out/r" || fail "reserve said: $(cat "$out/r")"
	done
	"$HELPER" mount 2M "$out/m" || fail "mount"
	grep -q " $out/m hugetlbfs .*pagesize=2M" /proc/mounts || fail "not mounted"
	"$HELPER" unmount "$out/m" || fail "unmount"
	[ ! -e "$out/m" ] || fail "the folder the helper made is still there"
	"$HELPER" mount 2M "$out/m2" || fail "mount"
	"$HELPER" undo || fail "undo"
	[ "$(pool 2048 nr)" = "$n0" ] || fail "undo left the pool of node $NODE at $(pool 2048 nr), not $n0"
	grep -q " $out/m2 " /proc/mounts && fail "undo left $out/m2 mounted"
	[ -f "$XSKF_HUGE_STATE" ] && fail "undo left its state file"
	rc=0
	"$HELPER" reserve 3M 1 2>"$out/e" || rc=$?
	[ $rc = 1 ] && grep -q "this kernel has no 3M hugepages" "$out/e" || fail "3M accepted"
	rc=0
	"$HELPER" reserve 2M 1 --node 99 2>"$out/e" || rc=$?
	[ $rc = 1 ] && grep -q "no NUMA node '99'" "$out/e" || fail "node 99 accepted"
	rc=0
	"$HELPER" reserve 2M many >/dev/null 2>&1 || rc=$?
	[ $rc = 2 ] || fail "a bad count is not a usage error (exit $rc)"
	ok "helper: show, reserve per node and all nodes (hugeadm and sysfs), refusal, mount, undo"
	;;
*) fail "unknown case $case_name" ;;
esac

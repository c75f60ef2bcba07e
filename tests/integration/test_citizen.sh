#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xsk-rxdrop beside other XDP programs (docs/operations.md, "Beside other XDP programs"), on a
# veth bed, with xdp-filter and xdp-loader from Debian's xdp-tools as the other libxdp users.
# Every command that uses libxdp sees one bpffs, the test's own, at /sys/fs/bpf (each 'ip
# netns exec' has a mount namespace of its own: an ordinary mount would be one command's only).
#   test_citizen.sh fallback      - the default, through libxdp's dispatcher: attached through
#                                   it, or where libxdp cannot (this host's kernel refuses
#                                   freplace programs) alone, said in one line; exact counts
#   test_citizen.sh alone         - --attach alone: said so, exact counts; xdp-filter then cannot
#                                   load, and xsk-rxdrop keeps counting
#   test_citizen.sh foreign       - a program attached without libxdp (ip link): xsk-rxdrop
#                                   refuses in one line offering what to do; the program stays
#   test_citizen.sh filter-first  - xdp-filter (drops source port 1024) loaded first: where the
#                                   dispatcher works, xsk-rxdrop joins it, the filter's drops
#                                   never reach it and it counts every other frame; where it
#                                   does not, xsk-rxdrop refuses in one line and the filter
#                                   keeps working (its counters see every frame)
#   test_citizen.sh xskf-first    - xsk-rxdrop first, then xdp-filter: the filter joins (or,
#                                   where the dispatcher does not work, cannot load) and xsk-rxdrop
#                                   counts exactly
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
command -v xdp-filter >/dev/null || skip "no xdp-filter (apt-get install xdp-tools)"
tb_up_out "xc$$"

# the test's bpffs, bind-mounted at /sys/fs/bpf for every command below
BPFFS=$out/bpffs
mkdir -p "$BPFFS"
mount -t bpf bpf "$BPFFS" || skip "cannot mount a bpffs"
at_exit 'umount -l "$BPFFS"'
# dutb CMD...: CMD in the dut's namespace, with the test's bpffs
dutb() { ip netns exec "$TB_NS_DUT" sh -c 'mount --bind "$0" /sys/fs/bpf && exec "$@"' "$BPFFS" "$@"; }
# xdp-loader's and xdp-filter's lock is /run/xdp-loader.lck: one at a time, machine-wide
xf() { dutb flock -w 60 /run/xskf-xdp-tools.lock xdp-filter "$@"; }
at_exit 'xf unload "$TB_IF_DUT" --all >/dev/null 2>&1'

N=16000 # 8 flows from source port 1024: the filter's port takes N/8
send() { gen "$GEN" -i "$TB_IF_GEN" -n $N --cpus 0 --rate 200000 --flows 8 --json >"$out/gen$1.json" ||
	fail "generator failed"; [ "$(sent_of "$out/gen$1.json")" = $N ] || fail "generator sent $(sent_of "$out/gen$1.json") of $N"; }
# the filter's counters: "PASS DROP HITS" (aggregate, and port 1024's hits)
counts() {
	xf status 2>/dev/null | awk '$1 == "XDP_PASS" { p = $2 } $1 == "XDP_DROP" { d = $2 }
		$1 == "1024" { h = $NF } END { print p + 0, d + 0, h + 0 }'
}
filter_seen() { counts | awk '{ print $1 + $2 }'; }
# the filter through libxdp's dispatcher (xdp-loader status names xdp_dispatcher's components
# with a priority), or alone (libxdp fell back)
filter_dispatched() { dutb xdp-loader status "$TB_IF_DUT" | grep -q 'xdp_dispatcher'; }
start_rx() {
	# not through dutb (a function: $! would be its subshell's): the pid is xsk-rxdrop's; the
	# wait for its line must not read the last run's
	rm -f "$out/rx.err"
	ip netns exec "$TB_NS_DUT" sh -c 'mount --bind "$0" /sys/fs/bpf && exec "$@"' "$BPFFS" \
		"$RXDROP" -i "$TB_IF_DUT" -q 0 -c --cpus 1 --json "$@" >"$out/rx.json" 2>"$out/rx.err" &
	pid=$!
}
wait_rx_attached() { wait_line "$out/rx.err" "XDP program attached\|joined the XDP program"; }
redirected() { json_get "$out/rx.json" "sum(q['program']['redirected'] for q in d['queues'])"; }

# xsk-rxdrop attached alone: xdp-filter refused ("not using a dispatcher"), then every frame
# sent counted by xsk-rxdrop, and nothing left after its SIGINT
alone_refuses_filter() {
	xf load "$TB_IF_DUT" >"$out/xf.err" 2>&1 && fail "xdp-filter loaded over xskf attached alone"
	grep -q "Existing program is not using a dispatcher" "$out/xf.err" ||
		fail "xdp-filter's refusal: $(cat "$out/xf.err")"
	send 1
	wait_seen $pid $N
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	[ "$(redirected)" = $N ] || fail "sent $N, redirected $(redirected)"
	assert_no_xdp "after SIGINT"
}

dut ethtool -K "$TB_IF_DUT" gro on >/dev/null
show_rx() { [ -e "$out/rx.err" ] && tail -5 "$out/rx.err"; }
FAIL_HOOKS+=(show_rx)

case $case_name in
fallback)
	start_rx
	wait_rx_attached
	send 1
	wait_seen $pid $N
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	cat "$out/rx.err"
	if grep -q "attached in native mode through libxdp's dispatcher" "$out/rx.err"; then
		how="through libxdp's dispatcher"
	else
		[ "$(grep -c "libxdp's dispatcher" "$out/rx.err")" -ge 1 ] &&
			grep -q "^xskf: $TB_IF_DUT: libxdp's dispatcher does not work on this kernel (.*); attached alone" "$out/rx.err" ||
			fail "neither attached through the dispatcher nor one line saying why not"
		how="alone: $(grep -o "does not work on this kernel ([^)]*)" "$out/rx.err")"
	fi
	[ "$(redirected)" = $N ] || fail "sent $N, redirected $(redirected)"
	assert_no_xdp "after SIGINT"
	ok "default attach $how; sent $N, redirected $N"
	;;
alone)
	start_rx --attach alone
	wait_rx_attached
	grep -q "XDP program attached alone in native mode" "$out/rx.err" || fail "not said alone"
	grep -q "libxdp" "$out/rx.err" && fail "--attach alone went through libxdp"
	alone_refuses_filter
	ok "--attach alone: xdp-filter refused ('Existing program is not using a dispatcher'), sent $N, redirected $N"
	;;
foreign)
	[ -n "${XSKF_FOREIGN_OBJ:-}" ] || skip "no XSKF_FOREIGN_OBJ (meson test sets it)"
	dut ip link set dev "$TB_IF_DUT" xdpdrv obj "$XSKF_FOREIGN_OBJ" sec xdp || fail "cannot attach the foreign program"
	id=$(xdp_attached)
	start_rx
	wait_for "xsk-rxdrop to exit" gone $pid
	wait $pid && fail "xsk-rxdrop started beside a program that holds the interface alone"
	cat "$out/rx.err"
	[ "$(grep -c . "$out/rx.err")" = 1 ] || fail "more than one line"
	grep -q "^xskf: $TB_IF_DUT: another XDP program .* holds the interface alone (native mode), not through libxdp's dispatcher: xskf cannot run beside it. Load it through the dispatcher (.*), remove it with 'ip link set dev $TB_IF_DUT xdpdrv off', or pass --force to replace it until xskf exits$" "$out/rx.err" ||
		fail "the refusal"
	[ "$(xdp_attached)" = "$id" ] || fail "the foreign program changed"
	dut ip link set dev "$TB_IF_DUT" xdpdrv off
	ok "a program attached without libxdp: one line, it stays"
	;;
filter-first)
	xf load "$TB_IF_DUT" >"$out/xf.err" 2>&1 || fail "xdp-filter load: $(cat "$out/xf.err")"
	xf port 1024 --mode src || fail "xdp-filter port"
	if ! filter_dispatched; then
		# libxdp attached the filter alone: nothing can join it
		start_rx
		wait_for "xsk-rxdrop to exit" gone $pid
		wait $pid && fail "xsk-rxdrop started beside a filter attached alone"
		cat "$out/rx.err"
		grep -q "another XDP program 'xdpfilt_.*' (id [0-9]*) holds the interface alone (native mode), not through libxdp's dispatcher: xskf cannot run beside it. Load it through the dispatcher" "$out/rx.err" ||
			fail "the refusal"
		before=$(filter_seen)
		send 1
		wait_for "the filter to see $N frames" ge filter_seen $((before + N))
		read -r _ _ hits <<<"$(counts)"
		[ "$hits" = $((N / 8)) ] || fail "the filter dropped $hits of port 1024's $((N / 8))"
		xf unload "$TB_IF_DUT" --all
		assert_no_xdp "after xdp-filter unload"
		ok "xdp-filter attached alone by libxdp (no dispatcher here): xsk-rxdrop refused in one line; the filter saw all $N frames, dropped port 1024's $hits"
		exit 0
	fi
	start_rx
	wait_rx_attached
	grep -q "through libxdp's dispatcher" "$out/rx.err" || fail "not through the dispatcher"
	dutb xdp-loader status "$TB_IF_DUT" | tee "$out/status" | grep -q xskf_redirect || fail "xdp-loader status: $(cat "$out/status")"
	send 1
	both() { echo $(($(app_seen $pid) + $(counts | cut -d' ' -f3))); }
	wait_for "every frame dropped by the filter or at xsk-rxdrop's socket" ge both $N
	stop_run $pid || { cat "$out/rx.err"; fail "xsk-rxdrop exited $?"; }
	read -r _ _ hits <<<"$(counts)"
	[ "$hits" = $((N / 8)) ] || fail "the filter dropped $hits of port 1024's $((N / 8))"
	[ "$(redirected)" = $((N - hits)) ] || fail "sent $N, filter dropped $hits, redirected $(redirected)"
	# xsk-rxdrop left alone: the filter stays, and sees every frame
	dutb xdp-loader status "$TB_IF_DUT" >"$out/status2"
	grep -q xdpfilt "$out/status2" && ! grep -q xskf_redirect "$out/status2" || fail "after xsk-rxdrop: $(cat "$out/status2")"
	before=$(filter_seen)
	send 2
	wait_for "the filter to see $N more frames" ge filter_seen $((before + N))
	xf unload "$TB_IF_DUT" --all
	assert_no_xdp "after xdp-filter unload"
	ok "xdp-filter first: dropped $hits, xsk-rxdrop redirected $((N - hits)) of $N through the dispatcher; after it left the filter saw all $N"
	;;
xskf-first)
	start_rx
	wait_rx_attached
	if ! grep -q "through libxdp's dispatcher" "$out/rx.err"; then
		alone_refuses_filter
		ok "xsk-rxdrop attached alone (no dispatcher here): xdp-filter refused, xsk-rxdrop counted all $N"
		exit 0
	fi
	fail "the dispatcher works here: covered by the lab's citizen test (lab/vm_lab.sh citizen), not yet by this one"
	;;
*) fail "unknown case $case_name" ;;
esac

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The bad-input matrix of docs/reliability.md, row by row: each input on the veth test bed must
# give a line (stderr, or stdout for xskfctl) matching the row's message, the row's exit status (never a crash), and
# leave no XDP program attached. The table is the test: a row added there is run here.
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
FOREIGN=${XSKF_FOREIGN_OBJ:?XSKF_FOREIGN_OBJ not set}
DOC=$S/docs/reliability.md
T=$S/tests/integration/badinput
: "${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}"
# the control socket rows: a folder of the test's own
export XSKF_CTL_DIR
XSKF_CTL_DIR=$(mktemp -d)
tb_up "xm$$"
out=$(mktemp -d)
hp0=$(cat /proc/sys/vm/nr_hugepages)
# the plugin rows' folder: under the build folder, not /tmp, whose mode is part of what they test
U=$B/badinput-plugins.$$
trap 'echo "$hp0" >/proc/sys/vm/nr_hugepages; tb_cleanup; rm -rf "$out" "$XSKF_CTL_DIR" "$U"' EXIT

rows=$(sed -n '/<!-- matrix:begin -->/,/<!-- matrix:end -->/p' "$DOC" | grep -E '^\| [0-9]+ \|')
[ "$(wc -l <<<"$rows")" -ge 40 ] || fail "the matrix in $DOC has fewer than 40 rows"
# The rows of the ranges given as the argument ("1-70": meson runs the matrix in three parts, so
# that each part's bound is for about 70 start-ups, not for 200), and of XSKF_MATRIX_ROWS
# ("180-199 300-319", a developer's check), when set; every row without either.
SHARD=${1:-}
in_list() { # in_list NUM RANGES: NUM is in one of RANGES (all, when RANGES is empty)
	local r
	[ -z "$2" ] && return 0
	for r in $2; do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
	done
	return 1
}
in_ranges() { in_list "$1" "$SHARD" && in_list "$1" "${XSKF_MATRIX_ROWS:-}"; }

setup() { # setup KIND: make the machine what the row needs; BG_PID for "running"
	local q
	case $1 in
	foreign) dut ip link set dev "$TB_IF_DUT" xdpdrv obj "$FOREIGN" sec xdp ;;
	foreignskb) dut ip link set dev "$TB_IF_DUT" xdpgeneric obj "$FOREIGN" sec xdp ;;
	running | running0) # running0: on queue 0 only (a second run may share the interface)
		# not through dut(): $! must be the app itself, not a subshell that ignores SIGINT.
		# The last instance's log goes first: the child truncates it only when it runs, and
		# the wait below must not read the old "control socket" line.
		rm -f "$out/bg.err"
		q=${1#running}
		ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" ${q:+-q "$q"} --quiet >/dev/null \
			2>"$out/bg.err" </dev/null &
		BG_PID=$!
		wait_line "$out/bg.err" "control socket"
		;;
	plug*) # $U/p.so, a good plugin, in a folder of its own: then one thing made wrong
		rm -rf "$U"
		mkdir -m 0755 "$U"
		install -m 0644 "$B/apps/rxdrop.so" "$U/p.so"
		case $1 in
		plugfile666 | pluginsecure | plugpath) chmod 0666 "$U/p.so" ;;
		plugdir777) chmod 0777 "$U" ;;
		plugdir775) chmod 0775 "$U" ;;
		plugsticky) chmod 1777 "$U" ;;
		plugowner) chown 65534 "$U/p.so" ;;
		plugdirowner) chown 65534 "$U" ;;
		esac
		[ "$1" = pluginsecure ] && export XSKF_PLUGIN_INSECURE=1
		[ "$1" = plugpath ] || [ "$1" = plugpathok ] && export XSKF_PLUGIN_PATH=$U
		;;
	ctl*) # the control folder as someone else left it: a symlink, mode 0777, another owner
		ctl_saved=$XSKF_CTL_DIR
		XSKF_CTL_DIR=$out/ctl-$1
		case $1 in
		ctlfile) : >"$XSKF_CTL_DIR" ;;
		ctllink) mkdir -m 0700 "$out/ctl-real" && ln -s ctl-real "$XSKF_CTL_DIR" ;;
		ctlwide) mkdir -m 0700 "$XSKF_CTL_DIR" && chmod 0777 "$XSKF_CTL_DIR" ;;
		ctlowner) mkdir -m 0700 "$XSKF_CTL_DIR" && chown 65534 "$XSKF_CTL_DIR" ;;
		esac
		;;
	nohuge) echo 0 >/proc/sys/vm/nr_hugepages ;;
	bigrules) truncate -s 1025K "$out/big.rules" ;; # sparse, 1 KiB past the bound
	epoll) export XSKF_IDLE_EPOLL=1 ;; # the epoll wait forced on veth (docs/idle.md)
	napi*) # the state file of a run killed while its --napi held (pid: a process gone now)
		dut sh -c "echo 7 >/sys/class/net/$TB_IF_DUT/napi_defer_hard_irqs"
		{
			echo "xskf-napi 1"
			echo "pid $(sh -c 'echo $$') start 1 netns $(dut stat -L -c %i /proc/self/ns/net)"
			if [ "$1" = napidead ]; then
				echo "dev $(dut cat "/sys/class/net/$TB_IF_DUT/ifindex") $TB_IF_DUT 0 defer 0 gro-flush 0"
			else
				echo "dev 99999 xgone0 0 defer 3 gro-flush 1000"
			fi
		} >"$XSKF_CTL_DIR/napi.1.state"
		;;
	mtu3000 | mtu9000) dut ip link set dev "$TB_IF_DUT" mtu "${1#mtu}" ;;
	mtupair) # a second port of another MTU, up with a carrier
		dut ip link add xm1 mtu 1400 type veth peer name xm2 mtu 1400
		dut ip link set xm1 up
		dut ip link set xm2 up
		wait_carrier "$TB_NS_DUT" xm1
		;;
	rxqpair) # a port whose driver refuses native XDP, saying why (extack): veth with fewer RX
		# queues than its peer has TX queues
		dut ip link add xq1 numtxqueues 1 numrxqueues 1 type veth peer name xq2 numtxqueues 2 numrxqueues 2
		dut ip link set xq1 up
		dut ip link set xq2 up
		;;
	esac
}

undo() { # undo KIND
	case $1 in
	foreign) dut ip link set dev "$TB_IF_DUT" xdp off ;;
	foreignskb) dut ip link set dev "$TB_IF_DUT" xdpgeneric off ;;
	running | running0)
		kill -INT "$BG_PID"
		WAIT_SHOW=$out/bg.err wait_for "exit of the first instance" gone "$BG_PID"
		wait "$BG_PID"
		;;
	nohuge) echo "$hp0" >/proc/sys/vm/nr_hugepages ;;
	bigrules) rm -f "$out/big.rules" ;;
	epoll) unset XSKF_IDLE_EPOLL ;;
	napi*)
		[ -e "$XSKF_CTL_DIR/napi.1.state" ] && fail "row $num: the dead run's state file is left"
		[ "$1" = napidead ] && [ "$(dut cat "/sys/class/net/$TB_IF_DUT/napi_defer_hard_irqs")" != 0 ] &&
			fail "row $num: napi_defer_hard_irqs not put back"
		dut sh -c "echo 0 >/sys/class/net/$TB_IF_DUT/napi_defer_hard_irqs"
		;;
	plug*)
		unset XSKF_PLUGIN_INSECURE XSKF_PLUGIN_PATH
		rm -rf "$U"
		;;
	ctl*)
		rm -rf "$XSKF_CTL_DIR" "$out/ctl-real"
		XSKF_CTL_DIR=$ctl_saved
		;;
	mtu3000 | mtu9000) dut ip link set dev "$TB_IF_DUT" mtu 1500 ;;
	mtupair) dut ip link del xm1 ;;
	rxqpair) dut ip link del xq1 ;;
	esac
}

n=0
while IFS= read -r row; do
	num=$(awk -F'|' '{ gsub(/ /, "", $2); print $2 }' <<<"$row")
	cmd=$(awk -F'`' '{ print $2 }' <<<"$row")
	re=$(awk -F'`' '{ print $4 }' <<<"$row")
	want=$(awk -F'|' '{ gsub(/ /, "", $(NF - 2)); print $(NF - 2) }' <<<"$row")
	kind=$(awk -F'|' '{ gsub(/ /, "", $(NF - 1)); print $(NF - 1) }' <<<"$row")
	in_ranges "$num" || continue
	read -r -a argv <<<"${cmd//\$IF/$TB_IF_DUT}"
	argv=("${argv[@]//\$T/$T}")
	argv=("${argv[@]//\$P/$XSKF_TEST_PLUGINS}")
	argv=("${argv[@]//\$U/$U}")
	argv=("${argv[@]//\$O/$out}") # the test's scratch folder
	case ${argv[0]} in
	xsk-*) argv=("$B/apps/${argv[0]}" "${argv[@]:1}" --duration 1) ;;
	xskf-trafficgen) argv=("$GEN" "${argv[@]:1}") ;;
	xskf) argv=("$B/apps/xskf" "${argv[@]:1}" --duration 1) ;;
	xskfctl) argv=("$B/apps/xskfctl" "${argv[@]:1}") ;;
	*) fail "row $num: unknown program '${argv[0]}'" ;;
	esac
	# rows whose line is that of a kernel feature at work (the probe table's xsk_sg, busy_poll,
	# netdev_genl, napi_ids): where xskf features says it does not work, the line is the
	# fallback's (checked by kernel-features, rxdrop-busy-poll, napi-*): said, row left out
	need=
	case $kind in mtu3000 | mtu9000) need=xsk_sg ;; esac
	[[ $re == *"names no NAPI for the queue"* ]] && need=busy_poll
	[[ $re == *"its queues name no NAPI"* ]] && need="netdev_genl napi_ids"
	[[ $re == *"the kernel has irq-suspend-timeout"* ]] && need=netdev_genl
	[[ $re == *"IRQ suspension is per NAPI and needs -B"* ]] && need="netdev_genl napi_ids"
	[[ $re == *"TX metadata \(24 bytes"* || $re == *"TX metadata: "[1-9]*" frames with it"* ]] &&
		need=tx_metadata
	why=
	for f in $need; do
		why=$(feature_why "$f")
		[ -n "$why" ] && break
	done
	if [ -n "$why" ]; then
		ok "row $num: left out: xskf features: $f does not work here ($why)"
		continue
	fi
	setup "$kind"
	rc=0
	# grep without -q reads all of ldd's output: with -q, ldd could die of SIGPIPE and
	# pipefail would make the test false under ASan, now and then
	if [ "$kind" = vmlimit ] && ldd "${argv[0]}" | grep libasan >/dev/null; then
		undo "$kind"
		ok "row $num: skipped under ASan (its shadow memory needs more address space than the limit)"
		continue
	fi
	if [ "$kind" = nonroot ]; then
		dut timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"${argv[@]}" >"$out/o" 2>"$out/e" </dev/null || rc=$?
	elif [ "$kind" = memlock ]; then
		# root without CAP_IPC_LOCK (gone from the bounding set: not regained at exec)
		dut timeout 60 bash -c 'ulimit -l 64 && exec setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock "$@"' \
			_ "${argv[@]}" >"$out/o" 2>"$out/e" </dev/null || rc=$?
	elif [ "$kind" = vmlimit ]; then
		dut timeout 60 bash -c 'ulimit -v 30000 && exec "$@"' _ "${argv[@]}" >"$out/o" 2>"$out/e" </dev/null || rc=$?
	else
		# a bound: a row that hangs fails by name instead of the whole test timing out
		dut timeout 60 "${argv[@]}" >"$out/o" 2>"$out/e" </dev/null || rc=$?
	fi
	[ "$rc" = 124 ] && { cat "$out/e" >&2; fail "row $num ($cmd) did not end in 60 s"; }
	[[ $kind == foreign* ]] && [ -z "$(xdp_attached)" ] && fail "row $num: the foreign program was removed"
	undo "$kind"
	line=$(cat "$out/e" "$out/o" | grep -E -m1 -- "$re") # xskfctl answers on stdout
	[ -n "$line" ] || { cat "$out/e" >&2; fail "row $num ($cmd): no line matching '$re'"; }
	[ "$rc" = "$want" ] || { cat "$out/e" >&2; fail "row $num ($cmd): exit $rc, expected $want"; }
	assert_no_xdp "row $num"
	n=$((n + 1))
	ok "row $num: exit $rc: $line"
done <<<"$rows"
echo "$n rows of the bad-input matrix checked"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Operating xskf from outside (docs/operations.md), one case per run:
#   list     two instances on the memory backend and a socket that does not answer: `xskfctl
#            list` has a line for each (pid, name, plugins, interfaces:queues, workers,
#            uptime) and says which does not answer; each command reaches the one named
#            (-s NAME, --pid, --name); without a choice the message names both sockets
#   metrics  a chain (filter,rxdrop) on the veth bed, after the generator's frames are all in:
#            `xskfctl metrics` is well-formed Prometheus text (promtool check metrics, and a
#            strict parser of tests/integration/metrics_check.py), every row of the counter
#            families' tables (util/counters.c) is in stats and metrics with the same value
#            (tables_check.py), and every value of it agrees
#            with `xskfctl stats` taken just before and after; every number of that document
#            (its list taken from the live document: steering with two rules, the workers'
#            idle clocks) is a sample, under the name its path gives; --all has every instance
#   top      `xskfctl top --count 2` against a live memory-backend chain: two tables, their
#            columns, rates > 0 for RX, app drops and the plugin's counter; no terminal
#            escapes on a pipe
#   quoted   a port whose name has a '"' and a '\': `xskfctl stats` and --json are JSON with
#            the name as it is, metrics has it as an escaped label (promtool passes)
#   version  `--version` of xskfctl, xskf, `xskf run`, each xsk-* and xskf-trafficgen: the
#            project's version (meson), the plugin ABI and the libbpf and libxdp files that
#            ldd resolves; the same in --json, `xskfctl stats`, list and metrics
# Root (the veth bed, the control folder); exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
out=$(mktemp -d)
export XSKF_CTL_DIR=$out/ctl
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -INT "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$out"
}
# lib.sh's one EXIT trap: tb_up registers the bed's removal after (so before) this
at_exit cleanup

# mem_run NAME-OF-LOG CMD...: a memory-backend run in the background; its pid in $RUN_PID
mem_run() {
	local log=$1
	shift
	"$@" --backend memory --quiet >/dev/null 2>"$out/$log.err" </dev/null &
	RUN_PID=$!
	pids+=("$RUN_PID")
	wait_for "control socket of pid $RUN_PID" ctl_up "$RUN_PID"
}

case $case_name in
list)
	"$CTL" list >"$out/empty" || fail "list with no control folder: exit $?"
	[ "$(wc -l <"$out/empty")" = 1 ] || fail "list with nothing running: $(cat "$out/empty")"
	"$CTL" metrics --all >"$out/empty.prom" || fail "metrics --all with no control folder: exit $?"
	[ -s "$out/empty.prom" ] && fail "metrics --all with nothing running: $(head -3 "$out/empty.prom")"
	ok "nothing running: the header alone, exit 0; metrics --all: nothing, exit 0"
	mem_run a "$RXDROP" -i mem0 -d 60 --cpus 0
	pa=$RUN_PID
	mem_run b "$XSKF" run filter,rxdrop -i mem0 -i mem1 -d 60 --cpus 1 -- --port 9
	pb=$RUN_PID
	# a socket nobody serves (a run that died between two starts)
	$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
		"$XSKF_CTL_DIR/ghost.$$.sock" || fail "no ghost socket"
	"$CTL" list >"$out/list" 2>"$out/list.err" || { cat "$out/list.err"; fail "list: exit $?"; }
	cat "$out/list"
	[ "$(wc -l <"$out/list")" = 4 ] || fail "list: not a header and 3 lines"
	head -1 "$out/list" | grep -qE '^PID +NAME +UPTIME_S +WORKERS +VERSION +PLUGINS +INTERFACES:QUEUES$' ||
		fail "list header: $(head -1 "$out/list")"
	grep -qE "^$pa +xsk-rxdrop +[0-9]+\.[0-9] +1 +[^ ]+ +rxdrop +mem0:0$" "$out/list" ||
		fail "list: no line for xsk-rxdrop $pa"
	grep -qE "^$pb +filter\+rxdrop +[0-9]+\.[0-9] +1 +[^ ]+ +filter,rxdrop +mem0:0 mem1:0$" "$out/list" ||
		fail "list: no line for the chain $pb"
	grep -qE "^$$ +ghost +not answering: cannot connect to .*ghost\.$$\.sock: Connection refused" "$out/list" ||
		fail "list: the ghost is not said to be silent"
	ok "list: both instances and the silent socket, exit 0"
	# each command reaches the one named
	for sel in "-s xsk-rxdrop" "--name xsk-rxdrop" "--pid $pa" "-s $pa"; do
		# shellcheck disable=SC2086
		"$CTL" $sel stats | $PY -c 'import json, sys; d = json.load(sys.stdin); sys.exit(d["app"] != "xsk-rxdrop")' ||
			fail "$sel stats did not reach xsk-rxdrop"
		# shellcheck disable=SC2086
		# into a file: grep -q on a pipe would close it early (SIGPIPE, pipefail)
		"$CTL" $sel metrics >"$out/sel.prom" || fail "$sel metrics: exit $?"
		grep -q "^xskf_up{instance=\"xsk-rxdrop.$pa\"} 1$" "$out/sel.prom" ||
			fail "$sel metrics did not reach xsk-rxdrop"
	done
	"$CTL" --pid "$pb" plugins >"$out/o" && grep -q "^filter " "$out/o" || fail "--pid $pb plugins"
	"$CTL" --name filter+rxdrop top --count 1 --interval 0.2 >"$out/o" &&
		grep -q "filter+rxdrop.$pb" "$out/o" || fail "--name filter+rxdrop top"
	ok "-s NAME, -s PID, --name, --pid reach the instance named (stats, metrics, plugins, top)"
	rm "$XSKF_CTL_DIR/ghost.$$.sock"
	for c in stats metrics top; do
		"$CTL" $c >"$out/o" 2>"$out/e" && fail "$c without -s and two runs: exit 0"
		grep -q "xskfctl: 2 runs have a socket (above): choose one with -s NAME" "$out/e" ||
			fail "$c: $(cat "$out/e")"
		grep -q "xsk-rxdrop.$pa.sock" "$out/e" && grep -q "filter+rxdrop.$pb.sock" "$out/e" ||
			fail "$c: the sockets are not named"
	done
	ok "without a choice: both sockets named, exit 1 (stats, metrics, top)"
	;;
metrics)
	tb_up "xo$$"
	# two rules: steering's per-port, per-rule and per-queue counters are in the document
	ip netns exec "$TB_NS_DUT" "$XSKF" run filter,rxdrop -i "$TB_IF_DUT" --cpus 1 --quiet \
		--steer 'udp dport 7777 xsk' --steer 'udp dport 9 xsk' -- --port 9 \
		>/dev/null 2>"$out/r.err" </dev/null &
	pid=$!
	pids+=("$pid")
	wait_for "control socket of pid $pid" ctl_up "$pid"
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --dport 9 --cpus 0 --rate 50000 --resend --json >/dev/null || fail "gen"
	gen "$GEN" -i "$TB_IF_GEN" -n 2000 --dport 7777 --cpus 0 --rate 50000 --resend --json >/dev/null || fail "gen"
	wait_seen "$pid" 5000
	# the counters no longer move: two answers in a row agree (the uptime and the workers'
	# busy/asleep clocks aside: they run while nothing comes)
	snap() {
		"$CTL" stats | $PY -c 'import json, sys; d = json.load(sys.stdin); d.pop("duration_s"); d.pop("workers", None); print(json.dumps(d, sort_keys=True))' >"$1"
	}
	at_rest() {
		snap "$out/s.b" || return 1
		cmp -s "$out/s.a" "$out/s.b" && return 0
		mv "$out/s.b" "$out/s.a"
		return 1
	}
	snap "$out/s.a" || fail "stats"
	wait_for "counters at rest" at_rest
	"$CTL" stats >"$out/before.json" || fail "stats"
	"$CTL" metrics >"$out/m.prom" || fail "metrics: exit $?"
	"$CTL" stats >"$out/after.json" || fail "stats"
	inst=$(basename "$(ctl_sock "$pid")" .sock)
	$PY "$S/tests/integration/metrics_check.py" "$out/m.prom" "$out/before.json" "$out/after.json" "$inst" ||
		{ head -60 "$out/m.prom"; fail "metrics and stats disagree"; }
	# every row of the tables of util/counters.c: in the document and in metrics, the same value
	"$B/tests/unit/counter_rows" all >"$out/rows" || fail "counter_rows all"
	$PY "$S/tests/integration/tables_check.py" "$out/rows" "$out/m.prom" "$out/before.json" \
		"$out/after.json" "$inst" 'workers[]' 'census[]' 'steering[]' 'steering[].queues[]' \
		'steering[].rules[]' || fail "a row of util/counters.c not in stats and metrics alike"
	grep -q "^xskf_plugin_events_total{instance=\"$inst\",plugin=\"filter\",counter=\"dropped\"} [1-9]" "$out/m.prom" ||
		fail "no filter dropped counter"
	# the rules' hits are exactly the generator's frames (metrics_check.py held every other
	# number of the document against its sample)
	sed 's/,id="[0-9]*",/,/' "$out/m.prom" >"$out/m.noid"
	grep -qxF "xskf_steering_rule_hits_total{instance=\"$inst\",port=\"$TB_IF_DUT\",rule=\"udp dport 7777 xsk\"} 2000" "$out/m.noid" &&
		grep -qxF "xskf_steering_rule_hits_total{instance=\"$inst\",port=\"$TB_IF_DUT\",rule=\"udp dport 9 xsk\"} 3000" "$out/m.noid" ||
		{ grep steering "$out/m.prom"; fail "steering rules' hits: not 2000 and 3000"; }
	grep -q "^xskf_worker_wakeups_total{instance=\"$inst\",worker=\"0\"} [0-9][0-9]*$" "$out/m.prom" ||
		fail "no xskf_worker_wakeups_total"
	promtool check metrics <"$out/m.prom" >"$out/pt" 2>&1 || { cat "$out/pt"; fail "promtool check metrics"; }
	ok "promtool check metrics: no problem ($(grep -c '^# TYPE' "$out/m.prom") families, $(grep -vc '^#' "$out/m.prom") samples)"
	# --all: a second instance (memory backend, a port that receives nothing) beside it
	mem_run m "$RXDROP" -i mem0 --mem-frame none -d 60 --cpus 0
	# its document has the memory backend's section: every number of it a sample too
	"$CTL" --pid "$RUN_PID" stats >"$out/mb.json" || fail "stats of the memory backend run"
	"$CTL" --pid "$RUN_PID" metrics >"$out/mm.prom" || fail "metrics of the memory backend run"
	"$CTL" --pid "$RUN_PID" stats >"$out/ma.json" || fail "stats of the memory backend run"
	$PY "$S/tests/integration/metrics_check.py" "$out/mm.prom" "$out/mb.json" "$out/ma.json" \
		"xsk-rxdrop.$RUN_PID" || { cat "$out/mm.prom"; fail "memory backend: metrics and stats disagree"; }
	$PY "$S/tests/integration/tables_check.py" "$out/rows" "$out/mm.prom" "$out/mb.json" \
		"$out/ma.json" "xsk-rxdrop.$RUN_PID" 'memory_backend[]' 'workers[]' 'census[]' ||
		fail "memory backend: a row of util/counters.c not in stats and metrics alike"
	grep -q "^xskf_memory_backend_busy_seconds_total{instance=\"xsk-rxdrop.$RUN_PID\",worker=\"0\"} " "$out/mm.prom" ||
		fail "no xskf_memory_backend_busy_seconds_total"
	"$CTL" metrics >/dev/null 2>&1 && fail "metrics without -s and two runs: exit 0"
	"$CTL" metrics --all >"$out/all.prom" || fail "metrics --all: exit $?"
	promtool check metrics <"$out/all.prom" >"$out/pt" 2>&1 || { cat "$out/pt"; fail "promtool: --all"; }
	[ "$(grep -c '^xskf_up{.*} 1$' "$out/all.prom")" = 2 ] || fail "--all: not 2 instances up"
	[ "$(grep -c '^# TYPE xskf_queue_rx_packets_total ' "$out/all.prom")" = 1 ] || fail "--all: a family twice"
	ok "metrics --all: both instances, one family each, promtool passes"
	;;
top)
	# the memory backend's frame is UDP to port 9: a filter of port 7 passes them all to rxdrop
	mem_run t "$XSKF" run filter,rxdrop -i mem0 -d 60 --cpus 1 -- --port 7
	"$CTL" top --count 2 --interval 0.5 >"$out/top" 2>"$out/top.err" || { cat "$out/top.err"; fail "top: exit $?"; }
	cat "$out/top"
	grep -q $'\033' "$out/top" && fail "terminal escapes on a pipe"
	[ "$(grep -c '^xskfctl top: filter+rxdrop\.[0-9]* .*uptime [0-9.]* s' "$out/top")" = 2 ] || fail "not 2 tables"
	[ "$(grep -cE '^PORT:QUEUE +WORKER +RX_PPS +RX_BYTES/S +TX_PPS +TX_BYTES/S$' "$out/top")" = 2 ] ||
		fail "rates header"
	[ "$(grep -cE '^DROPS/S +APP +NO_PORT +TOO_LONG +TX_FULL +K_RX_DROP +K_RING_FUL +K_FILL_EMPT$' "$out/top")" = 2 ] ||
		fail "drops header"
	awk '/^PORT:QUEUE/ { getline; if ($1 != "mem0:0" || !($3 > 0) || !($4 > 0)) bad = 1; n++ }
		/^DROPS\/S/ { getline; if (!($2 > 0)) bad = 1 }
		END { exit bad || n != 2 }' "$out/top" || fail "RX or app drop rates not > 0"
	grep -qE '^plugin filter +dropped 0/s passed [1-9][0-9]*/s$' "$out/top" || fail "plugin rates"
	ok "top --count 2: two tables, rx pps and B/s > 0, app drops > 0, the filter's rates"
	;;
version)
	v=$(sed -n "s/^  version: '\(.*\)',/\1/p" "$S/meson.build")
	abi=$(sed -n 's/^#define XSKF_PLUGIN_ABI \([0-9]*\)/\1/p' "$S/include/xskf_plugin.h")
	[ "$("$CTL" --version)" = "xskfctl (xskf) $v, plugin ABI $abi" ] || fail "--version: $("$CTL" --version)"
	[ "$("$CTL" -V)" = "xskfctl (xskf) $v, plugin ABI $abi" ] || fail "-V"
	ok "--version: xskfctl (xskf) $v, plugin ABI $abi"
	# the libraries' files as the loader resolves them for each binary
	libfile() { ldd "$1" | awk -v l="$2" '$1 ~ "^"l"\\.so" { print $3 }' | xargs -r readlink -f | xargs -r basename; }
	bpf=$(libfile "$XSKF" libbpf)
	xdp=$(libfile "$XSKF" libxdp)
	[[ $bpf == libbpf.so.* && $xdp == libxdp.so.* ]] || fail "ldd: libbpf '$bpf', libxdp '$xdp'"
	for c in xskf xsk-rxdrop xsk-l2fwd xsk-tunnel xsk-txgen; do
		want="$c (xskf) $v, plugin ABI $abi, $bpf, $xdp"
		got=$("$B/apps/$c" --version) || fail "$c --version: exit $?"
		[ "$got" = "$want" ] || fail "$c --version: '$got', not '$want'"
		[ "$("$B/apps/$c" -V)" = "$want" ] || fail "$c -V"
	done
	got=$("$XSKF" run filter,rxdrop --version)
	[ "$got" = "xskf run filter,rxdrop (xskf) $v, plugin ABI $abi, $bpf, $xdp" ] || fail "xskf run --version: $got"
	# libxdp: its AF_XDP method (docs/trafficgen.md)
	[ "$("$GEN" --version)" = "xskf-trafficgen (xskf) $v, $(libfile "$GEN" libbpf), $(libfile "$GEN" libxdp)" ] ||
		fail "xskf-trafficgen --version: $("$GEN" --version)"
	ok "--version of xskf, xskf run, each xsk-*, xskf-trafficgen: $v, ABI $abi, $bpf, $xdp"
	# the stats document (--json at exit and xskfctl stats), list, metrics
	"$RXDROP" -i mem0 --backend memory --cpus 0 -d 1 --quiet --json >"$out/j" 2>/dev/null || fail "--json run"
	$PY - "$out/j" "$v" "$abi" "$bpf" "$xdp" <<-'PYEOF' || fail "--json: the versions"
		import json, sys
		d = json.load(open(sys.argv[1]))
		want = {"version": sys.argv[2], "plugin_abi": int(sys.argv[3]),
			"libbpf": sys.argv[4], "libxdp": sys.argv[5]}
		got = {k: d.get(k) for k in want}
		sys.exit(0 if got == want else f"{got} != {want}")
	PYEOF
	mem_run v "$RXDROP" -i mem0 -d 60 --cpus 0
	"$CTL" stats >"$out/s" || fail "stats"
	[ "$(json_get "$out/s" 'd["version"], d["plugin_abi"], d["libbpf"], d["libxdp"]')" = "$v $abi $bpf $xdp" ] ||
		fail "stats: $(json_get "$out/s" 'd["version"], d["plugin_abi"], d["libbpf"], d["libxdp"]')"
	"$CTL" list >"$out/l" || fail "list"
	grep -qE "^$RUN_PID +xsk-rxdrop +[0-9.]+ +1 +$v +rxdrop +mem0:0$" "$out/l" || fail "list: $(cat "$out/l")"
	"$CTL" metrics >"$out/m" || fail "metrics"
	grep -qF "xskf_info{instance=\"xsk-rxdrop.$RUN_PID\",app=\"xsk-rxdrop\",backend=\"memory\",version=\"$v\",plugin_abi=\"$abi\",libbpf=\"$bpf\",libxdp=\"$xdp\"} 1" "$out/m" ||
		fail "metrics: $(grep xskf_info "$out/m")"
	ok "the versions in --json, xskfctl stats, list and metrics (xskf_info's labels)"
	;;
quoted)
	# a port whose name needs escaping in JSON (Linux allows '"' and '\' in a name): the stats
	# document (xskfctl stats, --json at exit) stays one JSON value with the name as it is, and
	# metrics gives it escaped as a label (the document was not JSON before the writer)
	tb_up "xq$$"
	qn='q"x\y'
	dut ip link add "$qn" type veth peer name "xq$$" || fail "veth '$qn'"
	dut ip link set "$qn" up && dut ip link set "xq$$" up || fail "link up"
	carrier() { [ "$(dut cat "/sys/class/net/$qn/carrier" 2>/dev/null)" = 1 ]; }
	wait_for "carrier on $qn" carrier
	ip netns exec "$TB_NS_DUT" "$XSKF" run rxdrop -i "$qn" --quiet --json >"$out/q.json" 2>"$out/q.err" </dev/null &
	pid=$!
	pids+=("$pid")
	WAIT_SHOW=$out/q.err wait_for "control socket of pid $pid" ctl_up "$pid"
	named() { # named FILE: the document's port and queue carry the name as it is
		$PY -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert [p["name"] for p in d["ports"]] == [sys.argv[2]] and d["queues"][0]["port"] == sys.argv[2]
assert [s["port"] for s in d["steering"]] == [sys.argv[2]]' "$1" "$qn"
	}
	"$CTL" --pid "$pid" stats >"$out/qs.json" || fail "stats"
	named "$out/qs.json" || fail "xskfctl stats: not JSON with the port '$qn': $(head -c 400 "$out/qs.json")"
	"$CTL" --pid "$pid" metrics >"$out/q.prom" || fail "metrics: exit $?"
	grep -qF 'xskf_queue_rx_packets_total{instance="rxdrop.'"$pid"'",port="q\"x\\y",queue="0"} ' "$out/q.prom" ||
		fail "metrics: no queue sample with the port's label escaped: $(grep rx_packets_total "$out/q.prom")"
	promtool check metrics <"$out/q.prom" >"$out/pt" 2>&1 || { cat "$out/pt"; fail "promtool check metrics"; }
	stop_run "$pid" || fail "exit status $? at SIGINT: $(cat "$out/q.err")"
	named "$out/q.json" || fail "--json: not JSON with the port '$qn': $(head -c 400 "$out/q.json")"
	ok "the port '$qn': xskfctl stats and --json are JSON with its name, metrics its label escaped"
	;;
*) fail "unknown case $case_name" ;;
esac

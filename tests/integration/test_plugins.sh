#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The plugin runner (docs/plugins.md), one case per run:
#   same      every app through `xskf run NAME` counts exactly what its xsk-* command counts:
#             rxdrop on the veth bed; rxdrop, l2fwd, tunnel and txgen on the memory backend
#   chain     filter (--port 9) in front of l2fwd on the veth bed: the port-9 frames are dropped,
#             every other frame is sent back; the counters say so exactly
#   counters  a plugin's counters show in the per-second lines and in --json
#   ctl       the control socket: mode 0600 in a 0700 folder; `xskfctl stats` while running
#             equals the final JSON; `xskfctl plugins`; `xskfctl tunnel reload` (good and bad
#             file); a peer that is not root is refused; malformed, oversized, truncated and
#             empty requests are answered or dropped without harm
#   list      `xskf plugins` with two files of one plugin name (same file name, another
#             file name): each pair is named in a warning that says which one a name runs;
#             a plugin runs by the name listed (its descriptor's), and by its file's name
#   json      a plugin whose json() prints no JSON value (members, not an object) in a chain
#             with rxdrop: --json and a live `xskfctl stats` stay valid JSON, its app_stats is
#             null, rxdrop's are there, and one warning names the plugin
#   crash     a plugin that crashes in rx_burst (SIGSEGV), a C++ one whose rx_burst throws:
#             frames from the generator reach it, the run ends with 128 + the signal after one
#             line naming the plugin, its file and rx_burst(); XDP detached, socket removed
#   reply     a plugin command's answer of any length: `xskfctl talker top N` (N lines of 60
#             characters) whole at 64 and 5000 lines through command_out(), and at 64 lines
#             through command()'s buffer, which says so when an answer does not fit (5000)
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up "xq$$"
out=$(mktemp -d)
export XSKF_CTL_DIR=$out/ctl
# RUN_PID: a run outside the bed's namespace (memory backend) that a failing case leaves
RUN_PID=
trap '[ -n "$RUN_PID" ] && kill -KILL $RUN_PID 2>/dev/null; tb_cleanup; rm -rf "$out"' EXIT

# ctl_seen OUT: frames of queue 0 received or dropped by the kernel (rx_dropped, rx_ring_full),
# from `xskfctl stats` (the document kept in OUT)
ctl_seen() {
	"$CTL" stats >"$1" || return 1
	json_get "$1" "d['queues'][0]['rx_packets'] + d['queues'][0]['kernel']['rx_dropped'] + d['queues'][0]['kernel']['rx_ring_full']"
}

# ctl_rx OUT: frames of queue 0 received or dropped by the kernel (rx_dropped), OUT as above
ctl_rx() {
	"$CTL" stats >"$1" || return 1
	json_get "$1" "d['queues'][0]['rx_packets'] + d['queues'][0]['kernel']['rx_dropped']"
}

# all_back OUT BASE: 5000 frames seen at queue 0 and the generator got back every frame the
# socket sent (its rx_packets above BASE)
all_back() {
	local back
	back=$(($(gen cat "/sys/class/net/$TB_IF_GEN/statistics/rx_packets") - $2))
	[ "$(ctl_seen "$1")" -ge 5000 ] && [ $back -ge "$(json_get "$1" "d['queues'][0]['tx_packets']")" ]
}

# mem_json OUT CMD...: one run on the memory backend, its JSON in OUT
mem_json() {
	local o=$1
	shift
	"$@" --backend memory --quiet --json >"$o" 2>"$o.err" || { cat "$o.err"; fail "$* exited non-zero"; }
}

# counters FILE: the numbers of a run that must not depend on how it was started
counters() {
	json_get "$1" '[(q["rx_packets"], q["tx_packets"], q["drop_app"], q["drop_no_port"]) for q in d["queues"]], d["census_ok"], {k: v for k, v in (d.get("app_stats") or {}).items() if isinstance(v, int)}'
}

case $case_name in
same)
	# memory backend: the same frames, the same counts, through both doors
	cfg=$out/t.conf
	printf 'local 198.51.100.1\nnexthop-mac 02:54:00:00:00:20\ndefault vni 7 remote 198.51.100.2\n' >"$cfg"
	for app in "rxdrop|--mem-frames 50000" "l2fwd|--mem-frames 50000 --no-hints" \
		"tunnel|-i mem1 --mem-frames 50000 --config $cfg" "txgen|--count 50000"; do
		name=${app%%|*}
		read -r -a args <<<"${app#*|}"
		mem_json "$out/a.json" "$B/apps/xsk-$name" -i mem0 "${args[@]}"
		mem_json "$out/b.json" "$XSKF" run "$name" -i mem0 "${args[@]}"
		a=$(counters "$out/a.json") b=$(counters "$out/b.json")
		[ "$a" = "$b" ] || fail "$name: xsk-$name $a, xskf run $name $b"
		[ "$(json_get "$out/a.json" 'sum(q["rx_packets"] + q["tx_packets"] * (q["rx_packets"] == 0) for q in d["queues"])')" = 50000 ] ||
			fail "$name: not 50000 frames: $a"
		ok "$name: xsk-$name and xskf run $name count the same: $a"
	done
	# veth: 10000 frames, exactly, each way
	for cmd in "$RXDROP" "$XSKF run rxdrop"; do
		read -r -a c <<<"$cmd"
		rm -f "$out/v.err" # the wait below must not read the last command's line
		ip netns exec "$TB_NS_DUT" "${c[@]}" -i "$TB_IF_DUT" -q 0 -c --cpus 1 --json --quiet \
			>"$out/v.json" 2>"$out/v.err" &
		pid=$!
		wait_line "$out/v.err" "XDP program attached"
		r0=$(q0_xdp)
		gen "$GEN" -i "$TB_IF_GEN" -n 10000 --cpus 0 --rate 100000 --resend --json >"$out/g.json" || fail "generator"
		wait_for "10000 frames at the XDP program of queue 0" ge q0_xdp $((r0 + 10000))
		kill -INT $pid
		wait $pid || fail "$cmd exited non-zero"
		got=$(json_get "$out/v.json" "d['queues'][0]['rx_packets'] + d['queues'][0]['kernel']['rx_dropped'] + d['queues'][0]['kernel']['rx_ring_full']")
		[ "$got" = 10000 ] || fail "$cmd: $got of 10000 frames accounted for"
		[ "$(json_get "$out/v.json" "d['census_ok']")" = True ] || fail "$cmd: census"
		ok "$cmd on veth: 10000 frames, census ok"
		: >"$out/v.err"
	done
	;;
chain)
	ip netns exec "$TB_NS_DUT" "$XSKF" run filter,l2fwd -i "$TB_IF_DUT" -q 0 -c --cpus 1 --json \
		--quiet -- --port 9 >"$out/c.json" 2>"$out/c.err" &
	pid=$!
	wait_line "$out/c.err" "XDP program attached"
	back0=$(gen cat "/sys/class/net/$TB_IF_GEN/statistics/rx_packets")
	# port 9 (dropped), then port 7777 (sent back); to the dut's address, so that frames
	# coming back to the generator are not for its stack (no ICMP answers)
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --dport 9 --cpus 0 --rate 50000 --resend --json >"$out/g1.json" || fail "gen"
	# the kernel may drop some on a starved machine: how many of the port-9 ones it did
	wait_for "3000 port-9 frames at the socket or dropped by the kernel" ge ctl_seen "$out/s1.json" 3000
	kd1=$(json_get "$out/s1.json" "d['queues'][0]['kernel']['rx_dropped'] + d['queues'][0]['kernel']['rx_ring_full']")
	gen "$GEN" -i "$TB_IF_GEN" -n 2000 --dport 7777 --cpus 0 --rate 50000 --resend --json >"$out/g2.json" || fail "gen"
	wait_for "5000 frames in and every frame sent back" all_back "$out/s2.json" "$back0"
	back=$(($(gen cat "/sys/class/net/$TB_IF_GEN/statistics/rx_packets") - back0))
	kill -INT $pid
	wait $pid || { cat "$out/c.err"; fail "the chain exited non-zero"; }
	$PY - "$out/c.json" "$back" "$kd1" <<'EOPY' || fail "chain counts"
import json, sys
d = json.load(open(sys.argv[1]))
back, kd1 = int(sys.argv[2]), int(sys.argv[3])
q = d["queues"][0]
f = d["plugins"][0]["counters"]
kd = q["kernel"]["rx_dropped"] + q["kernel"]["rx_ring_full"]
print("filter", f, "rx", q["rx_packets"], "tx", q["tx_packets"], "kernel drops", kd1, "+", kd - kd1,
      "back", back)
# every port-9 frame the chain got was dropped by the filter, every other one sent back
ok = (f["dropped"] == 3000 - kd1 and f["passed"] == 2000 - (kd - kd1)
      and q["rx_packets"] == f["dropped"] + f["passed"] and q["drop_app"] == f["dropped"]
      and q["tx_packets"] == f["passed"] and d["census_ok"]
      # at the generator: the frames sent back, and at most a few of the dut stack's own
      and f["passed"] <= back <= f["passed"] + 3)
sys.exit(0 if ok else 1)
EOPY
	ok "filter,l2fwd: the port-9 frames dropped, the others sent back, exactly (kernel drops: $kd1 of port 9)"
	;;
counters)
	# live lines go to stderr with --json; a chain of two on the memory backend, until it
	# has shown the filter's counters twice (a state: not a duration that a loaded machine
	# fills with fewer lines), then SIGINT
	"$XSKF" run filter,rxdrop -i mem0 --backend memory --json -- --port 9 \
		>"$out/k.json" 2>"$out/k.err" &
	RUN_PID=$!
	two_lines() { [ "$(grep -cE '^ +filter  dropped [0-9]+ passed [0-9]+$' "$out/k.err")" -ge 2 ]; }
	WAIT_SHOW=$out/k.err wait_for "two lines of filter's counters" two_lines
	kill -INT $RUN_PID
	rc=0
	wait $RUN_PID || rc=$?
	RUN_PID=
	[ $rc = 0 ] || { cat "$out/k.err"; fail "exit $rc after SIGINT"; }
	n=$(grep -cE '^ +filter  dropped [0-9]+ passed [0-9]+$' "$out/k.err")
	last=$(grep -E '^ +filter  dropped' "$out/k.err" | tail -1 | awk '{ print $3 }')
	fin=$(json_get "$out/k.json" 'd["plugins"][0]["counters"]["dropped"]')
	[ "$fin" -ge "$last" ] && [ "$fin" -gt 0 ] || fail "final $fin below the last line's $last"
	[ "$(json_get "$out/k.json" 'd["plugins"][0]["workers"][0]["dropped"]')" = "$fin" ] ||
		fail "per-worker counters do not add up"
	ok "plugin counters: $n per-second lines, $fin in the JSON, per worker and summed"
	# every name of the total line, and the summary's drops, in docs/operations.md's table
	$PY - "$out/k.err" "$S/docs/operations.md" <<'EOPY' || fail "the live line's fields are not all in docs/operations.md"
import re, sys
line = next(l for l in open(sys.argv[1]) if re.match(r"\[ *[0-9.]+s\] total ", l))
rest = re.sub(r"\b(rx|tx) +[0-9.]+ +[kMG]?pps", r"\1 R", line.split("] total", 1)[1])
names = {re.sub(r"^w[0-9]+$", "wN", f.split()[0]) for f in re.split(r"\s{2,}", rest.strip())}
names |= {"app drops", "other drops"}
doc = open(sys.argv[2]).read()
table = doc.split("<!-- live-line:begin -->", 1)[1].split("<!-- live-line:end -->", 1)[0]
missing = sorted(n for n in names if not re.search(r"`%s[` ]" % re.escape(n), table))
print("live line fields:", " ".join(sorted(names)), "; missing:", missing)
sys.exit(1 if missing or len(names) < 8 else 0)
EOPY
	ok "the live line's fields, and the summary's app and other drops, are named in docs/operations.md"
	;;
list)
	mkdir "$out/pp"
	cp "$B/apps/l2fwd.so" "$out/pp/l2fwd.so"
	cp "$B/apps/rxdrop.so" "$out/pp/other.so"
	XSKF_PLUGIN_PATH=$out/pp "$XSKF" plugins >"$out/l.out" 2>"$out/l.err" || fail "xskf plugins failed"
	grep -qF "xskf: warning: two plugins called 'l2fwd': $out/pp/l2fwd.so and $B/apps/l2fwd.so; 'xskf run l2fwd' runs $out/pp/l2fwd.so: give the other's path to run it" "$out/l.err" ||
		{ cat "$out/l.err"; fail "same file name: no warning"; }
	grep -qF "xskf: warning: two plugins called 'rxdrop': $out/pp/other.so and $B/apps/rxdrop.so; 'xskf run rxdrop' runs $B/apps/rxdrop.so: give the other's path to run it" "$out/l.err" ||
		{ cat "$out/l.err"; fail "another file name: no warning"; }
	[ "$(wc -l <"$out/l.err")" = 2 ] || { cat "$out/l.err"; fail "more warnings than the two pairs"; }
	ok "xskf plugins: both pairs of one name named, with which one runs"
	# A listed name runs: the test plugin whose descriptor is 'bad', in a file called otherwise
	# (as count-l3 is in count_l3.so); a file name runs as before
	TP=${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}
	mkdir "$out/pn"
	cp "$TP/good.so" "$out/pn/counted_drop.so"
	XSKF_PLUGIN_PATH=$out/pn "$XSKF" plugins >"$out/l.out" 2>"$out/l.err" || fail "xskf plugins failed"
	grep -qxF "bad          $out/pn/counted_drop.so" "$out/l.out" || { cat "$out/l.out"; fail "'bad' not listed"; }
	for spec in bad counted_drop; do
		XSKF_PLUGIN_PATH=$out/pn mem_json "$out/n.json" "$XSKF" run "$spec" -i mem0 --mem-frames 2000
		[ "$(json_get "$out/n.json" 'd["plugins"][0]["name"], d["queues"][0]["rx_packets"], d["queues"][0]["drop_app"]')" = "bad 2000 2000" ] ||
			fail "xskf run $spec: $(json_get "$out/n.json" 'd["plugins"][0]["name"], d["queues"][0]')"
	done
	ok "xskf run bad (the listed name) and xskf run counted_drop (the file) run $out/pn/counted_drop.so: 2000 frames"
	;;
json)
	TP=${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}
	"$XSKF" run "$TP/bad_json.so,rxdrop" -i mem0 --backend memory --quiet --json -d 4 \
		>"$out/j.json" 2>"$out/j.err" &
	pid=$!
	wait_line "$out/j.err" "control socket"
	"$CTL" stats >"$out/live.json" || fail "xskfctl stats failed"
	wait "$pid" || { cat "$out/j.err"; fail "the run exited non-zero"; }
	for f in "$out/live.json" "$out/j.json"; do
		json_get "$f" '"ok" if d["app_stats"]["bad"] is None and "hints_read" in d["app_stats"]["rxdrop"] else 1/0' \
			>/dev/null || { cat "$f"; fail "$(basename "$f"): not valid JSON, or app_stats not as expected"; }
	done
	n=$(grep -c "plugin 'bad' (.*bad_json.so): its json() printed no single JSON value (byte 6: expected nothing after the value)" "$out/j.err")
	[ "$n" = 1 ] || { cat "$out/j.err"; fail "the warning was printed $n times, not once"; }
	ok "a plugin's broken json(): --json and xskfctl stats valid, its app_stats null, named once"
	;;
ctl)
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 -c --cpus 1 --json --quiet \
		>"$out/r.json" 2>"$out/r.err" &
	pid=$!
	wait_line "$out/r.err" "control socket"
	sock=$(ls "$XSKF_CTL_DIR"/*.sock)
	[ "$(stat -c %a "$XSKF_CTL_DIR")" = 700 ] || fail "control folder mode $(stat -c %a "$XSKF_CTL_DIR")"
	[ "$(stat -c '%a %u' "$sock")" = "600 0" ] || fail "socket mode/owner $(stat -c '%a %u' "$sock")"
	ok "control socket $sock: 0600, root, in a 0700 folder"
	gen "$GEN" -i "$TB_IF_GEN" -n 5000 --cpus 0 --rate 50000 --resend --json >/dev/null || fail "gen"
	wait_for "5000 frames at the socket or dropped by the kernel" ge ctl_rx "$out/live.json" 5000
	"$CTL" plugins | grep -q "^rxdrop (built in)" || fail "xskfctl plugins"
	# the run chosen by name, by pid and by path: the same answer
	sname=$(basename "$sock")
	sname=${sname%.*.sock}
	for s in "$sname" "$pid" "$sock"; do
		"$CTL" -s "$s" plugins | grep -q "^rxdrop (built in)" || fail "xskfctl -s $s plugins"
	done
	ok "xskfctl -s $sname, -s $pid and -s $sock reach the run"
	"$CTL" nosuch x >"$out/np" && fail "an unknown plugin got an ok"
	grep -q "no plugin 'nosuch'" "$out/np" || fail "unknown plugin: $(cat "$out/np")"
	# requests that are wrong in every way; the run must answer what it can and go on
	$PY - "$sock" <<'EOPY' || fail "malformed requests"
import socket, sys
def ask(data, close_early=False):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    if data:
        s.sendall(data)
    if close_early:
        s.close()
        return b""
    s.shutdown(socket.SHUT_WR)
    out = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        out += b
    s.close()
    return out
cases = {
    "oversized": (b"x" * 5000, b"error: request longer"),
    "NUL byte": (b"sta\x00ts\n", b"error: bad request"),
    "two lines": (b"stats\nplugins\n", b"error: bad request"),
    "non-ASCII": (b"st\xffats\n", b"error: bad request"),
    "empty": (b"", b"error: bad request"),
    "truncated": (b"sta", b"error: no plugin 'sta'"),
    "stats with args": (b"stats now\n", b"error: bad request"),
}
for name, (data, want) in cases.items():
    got = ask(data)
    if not got.startswith(want):
        print(f"{name}: {got[:80]!r}, expected {want!r}", file=sys.stderr)
        sys.exit(1)
    print(f"ok - {name}: {got.decode(errors='replace').strip()[:70]}")
ask(b"stats\n", close_early=True)  # the peer goes away before the answer
if not ask(b"stats\n").startswith(b"{"):
    sys.exit("the socket stopped answering")
EOPY
	# a peer that is not root: the socket is 0600, so make it reachable to see the refusal
	chmod 0666 "$sock"
	chmod 0755 "$XSKF_CTL_DIR" "$out"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$sock" stats >"$out/nr" 2>&1 &&
		fail "a non-root peer got an answer"
	grep -q "permission denied: only root" "$out/nr" || { cat "$out/nr"; fail "non-root: message"; }
	ok "a non-root peer is refused: $(cat "$out/nr")"
	chmod 0600 "$sock"
	"$CTL" stats >"$out/live.json" || fail "xskfctl stats"
	kill -INT $pid
	wait $pid || fail "rxdrop exited non-zero"
	for f in rx_packets tx_packets drop_app; do
		a=$(json_get "$out/live.json" "d['queues'][0]['$f']") b=$(json_get "$out/r.json" "d['queues'][0]['$f']")
		[ "$a" = "$b" ] || fail "$f: xskfctl stats $a, final JSON $b"
	done
	[ ! -e "$sock" ] || fail "the socket was left behind"
	ok "xskfctl stats agrees with the final JSON ($(json_get "$out/r.json" "d['queues'][0]['rx_packets']") frames); socket removed"
	# the tunnel's reload through the socket
	cfg=$out/t.conf
	printf 'local 198.51.100.1\nnexthop-mac 02:54:00:00:00:20\ndefault vni 7 remote 198.51.100.2\n' >"$cfg"
	"$B/apps/xsk-tunnel" -i mem0 -i mem1 --backend memory --config "$cfg" --quiet --json \
		>"$out/t.json" 2>"$out/t.err" &
	pid=$!
	wait_line "$out/t.err" "control socket"
	"$CTL" tunnel reload | grep -q "^ok: reloaded $cfg: 0 entries, with default, 1 VNIs" || fail "reload"
	echo "bogus" >>"$cfg"
	"$CTL" tunnel reload >"$out/rl" && fail "a bad file was taken"
	grep -q "^error: reload rejected, table unchanged: .*unknown keyword 'bogus'" "$out/rl" || fail "bad reload: $(cat "$out/rl")"
	"$CTL" tunnel frobnicate >"$out/uc" && fail "an unknown command got an ok"
	grep -q "error: unknown command 'frobnicate'" "$out/uc" || fail "unknown command: $(cat "$out/uc")"
	kill -INT $pid
	wait $pid || fail "xsk-tunnel exited non-zero"
	[ "$(json_get "$out/t.json" "d['app_stats']['reloads'], d['app_stats']['reload_errors']")" = "1 1" ] ||
		fail "reload counters: $(json_get "$out/t.json" "d['app_stats']")"
	ok "xskfctl tunnel reload: good file taken, bad file refused, counted"
	;;
crash)
	TP=${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}
	cases=("rx_crash|139|xskf: plugin 'bad' ($TP/rx_crash.so) crashed in rx_burst() (SIGSEGV, a bad memory access): a bug in the plugin; the run ends")
	[ -f "$TP/rx_throw.so" ] &&
		cases+=("rx_throw|134|xskf: plugin 'thrower' ($TP/rx_throw.so) crashed in rx_burst() (SIGABRT: abort(), a failed assert() or a C++ exception nothing caught): a bug in the plugin; the run ends")
	for c in "${cases[@]}"; do
		IFS='|' read -r so want line <<<"$c"
		ip netns exec "$TB_NS_DUT" "$XSKF" run "$TP/$so.so" -i "$TB_IF_DUT" -q 0 -c --cpus 1 --quiet \
			>/dev/null 2>"$out/x.err" &
		pid=$!
		wait_line "$out/x.err" "control socket"
		gen "$GEN" -i "$TB_IF_GEN" -n 100 --cpus 0 --rate 10000 --resend --json >/dev/null || fail "generator"
		WAIT_SHOW=$out/x.err wait_for "the end of the run of $so" gone $pid
		wait $pid
		rc=$?
		[ $rc = "$want" ] || { cat "$out/x.err"; fail "$so: exit status $rc, not $want"; }
		grep -qxF "$line" "$out/x.err" || { cat "$out/x.err"; fail "$so: no line naming the plugin and rx_burst"; }
		[ "$so" = rx_throw ] && ! grep -qxF "  what():  a frame it did not expect" "$out/x.err" &&
			{ cat "$out/x.err"; fail "rx_throw: the exception's what() not shown"; }
		assert_no_xdp "$so crashed"
		[ -z "$(ls "$XSKF_CTL_DIR"/*.sock 2>/dev/null)" ] || fail "$so: the control socket was left"
		ok "$so: exit $rc, $(grep -F "xskf: plugin" "$out/x.err")"
	done
	;;
reply)
	TP=${XSKF_TEST_PLUGINS:?XSKF_TEST_PLUGINS not set (run through meson test)}
	# top_lines N: what `top N` must answer, "ok: " before its first line
	top_lines() {
		$PY -c '
import sys
for i in range(int(sys.argv[1])):
    print("%sflow %5u 198.51.100.%-3u:%5u -> 192.0.2.%-3u:%5u pkts %5u" % ("ok: " if i == 0 else "",
          i, i % 250 + 1, 10000 + i, (i * 7) % 250 + 1, 20000 + i, 1000 - i % 1000))' "$1"
	}
	for so in talker talker_buf; do
		"$XSKF" run "$TP/$so.so" -i mem0 --backend memory --quiet >/dev/null 2>"$out/t.$so.err" &
		pid=$!
		wait_line "$out/t.$so.err" "control socket"
		for n in 64 5000; do
			rc=0
			"$CTL" talker top $n >"$out/a.$n" || rc=$?
			if [ $so = talker_buf ] && [ $n = 5000 ]; then
				[ $rc = 1 ] && head -1 "$out/a.$n" | grep -qxF "error: the answer of plugin 'talker' was cut at 65535 bytes (its command() reply buffer; command_out() has no bound); what it gave:" ||
					{ head -c 300 "$out/a.$n"; fail "$so: top $n: exit $rc, no line saying it was cut"; }
				continue
			fi
			[ $rc = 0 ] || fail "$so: xskfctl talker top $n: exit $rc"
			top_lines $n | cmp -s - "$out/a.$n" ||
				{ tail -c 200 "$out/a.$n"; fail "$so: top $n: not the $n lines ($(wc -c <"$out/a.$n") bytes)"; }
		done
		"$CTL" talker bogus >"$out/b" && fail "$so: a bad command got exit 0"
		grep -qxF "error: expected 'top N'" "$out/b" || fail "$so: bad command: $(cat "$out/b")"
		kill -INT $pid
		wait $pid || fail "$so: the run exited non-zero"
		ok "$so: top 64 whole ($(wc -c <"$out/a.64") bytes)$([ $so = talker ] && echo ", top 5000 whole ($(wc -c <"$out/a.5000") bytes)" || echo "; top 5000 said to be cut at 64 KiB")"
	done
	;;
*) fail "unknown case $case_name" ;;
esac

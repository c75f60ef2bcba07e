#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# TCP and UDP through xsk-l2fwd with veth's DEFAULT offloads (issue 17, point 2): the senders'
# TX checksum offload leaves TCP/UDP checksums unfinished, XDP hands the frames over that way.
#  1. without --csum-repair: the start-up line names the fix; UDP datagrams reach B's interface
#     but no socket (the kernel counts them as checksum errors), csum_unfinished counts them,
#     the run-time warning names the fix, iperf3 cannot connect, tshark at B sees bad checksums;
#  2. with --csum-repair: every UDP datagram reaches B's socket, iperf3 completes a bounded
#     transfer (bytes > 0 in its JSON), a 3 MB curl download from B matches its sha256,
#     tshark in B's namespace finds 0 bad TCP/UDP checksums in what B received, and
#     csum_repaired counts what was finished;
#  3. a veth whose peer is in the same namespace: the start-up line names the peer while its
#     offload is on, and says nothing once it is off.
# test_csum_l2fwd.sh 9000 (issue 32, point 2): 1 and 2 on MTU-9000 links, where every frame
# longer than a UMEM frame comes as a chain of buffers (docs/jumbo.md): the datagrams are of
# 8000 bytes, TCP's segments of up to 9000, and their checksums span every buffer. Each port
# must have received chains, the sampling must count the chains' unfinished checksums, and the
# repair finish them (on main: iperf3 connected and moved 0 bytes, curl got nothing).
# The forwarder is pinned to CPU 1 (its idle worker spins there), the clients to CPU 0.
#
#   nsA [a0 192.0.2.1] --- [la] nsL xsk-l2fwd [lb] --- [b0 192.0.2.2] nsB
set -u
P=ck$$
VETH_TX_CSUM=on
MTU=${1:-1500}
. "$(dirname "$0")/fwd_lib.sh"
# MTU 9000: chains of buffers, natively (no other path forwards these frames)
[ "${1:-1500}" = 9000 ] && require_feature xsk_sg frags
for c in iperf3 tshark tcpdump curl; do
	command -v $c >/dev/null || { echo "SKIP: $c missing (scripts/deps.sh)"; exit 77; }
done
case $MTU in
1500) SIZE=100 ;;
9000) SIZE=8000 ;; # 8042-byte frames: chains of 5 buffers of 1792 (4 of 1760 with hints)
*) fail "usage: test_csum_l2fwd.sh [1500|9000]" ;;
esac

fwd_bed_up $MTU
for ns in $NA $NB; do
	[[ $(ip netns exec $ns ethtool -k ${ns: -1}0 | awk '/^tx-checksumming:/ {print $2}') == on ]] ||
		fail "$ns: veth's default TX checksum offload is not on"
done

N=200
# udp_send NS DST PORT N: N datagrams of SIZE bytes, a little paced
udp_send() {
	ip netns exec $1 taskset -c 0 $PY - "$2" "$3" "$4" $SIZE <<'PYEOF'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(int(sys.argv[3])):
    s.sendto(b"u" * int(sys.argv[4]), (sys.argv[1], int(sys.argv[2])))
    if i % 50 == 49:
        time.sleep(0.002)
PYEOF
}
# udp_csum_errors NS: UDP datagrams the kernel of NS dropped for a bad checksum
udp_csum_errors() {
	ip netns exec $1 awk '/^Udp:/ { if (h) { for (i = 1; i <= NF; i++) if (n[i] == "InCsumErrors") print $i } else { h = 1; for (i = 1; i <= NF; i++) n[i] = $i } }' /proc/net/snmp
}
# bad_csums PCAP: TCP/UDP frames whose checksum tshark finds bad; "bad total" on one line
bad_csums() {
	local bad tot
	bad=$(tshark -r "$1" -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-Y 'tcp.checksum.status == 0 || udp.checksum.status == 0' 2>/dev/null | wc -l)
	tot=$(tshark -r "$1" -Y 'tcp || udp' 2>/dev/null | wc -l)
	echo "$bad $tot"
}
# live counter of port PORT: csum.KEY summed over its queues
csum_live() { app_live $APP_PID "sum(q['csum']['$2'] for q in j['queues'] if q['port'] == '$1')"; }
# chains FILE PORT: the chains PORT received, from the app's --json at exit
chains() { jget $1 "sum(q['chains']['rx'] for q in j['queues'] if q['port'] == '$2')"; }
# udp_csum_new: nsB's UDP checksum errors since ERR0
udp_csum_new() { echo $(($(udp_csum_errors $NB) - ERR0)); }
iperf_listening() { ip netns exec $NB ss -ltn | grep -q ':5201 '; }
# iperf_server: one test's server in nsB (IPERF_S its pid), returning once it listens; it gives
# up when nothing comes for 10 s (a transfer that stalls: the bug of issue 32 at MTU 9000)
iperf_server() {
	ip netns exec $NB taskset -c 0 iperf3 -s -1 -B 192.0.2.2 --rcv-timeout 10000 \
		>$TMP/iperf-s.log 2>&1 &
	IPERF_S=$!
	PIDS+=($IPERF_S)
	wait_for "iperf3 server listening" iperf_listening
}
# capture_b NAME: what nsB's b0 receives (TCP/UDP, full frames) into $TMP/NAME.pcap (CAP its pid)
capture_b() {
	ip netns exec $NB tcpdump -i b0 -Q in -U -s 0 -w $TMP/$1.pcap 'tcp or udp' 2>$TMP/$1.pcap.err &
	CAP=$!
	PIDS+=($CAP)
	wait_capture $TMP/$1.pcap.err
}
# csum_line PORT FILE: FILE (an app's stderr) has one of the lines framework/backend/xdp/watch/csum_watch.c
# prints about PORT's checksums (WARN=1: only its warnings), the exact messages, not the word
csum_line() {
	local w="^xskf: warning: $1: (its veth peer [^ ]+ has TX checksum offload on: |a veth port whose peer \\(ifindex [0-9]+, in another network namespace\\) may keep veth's default TX checksum offload: |TCP/UDP frames arrive with unfinished checksums \\(the sender's TX checksum offload\\): sent on as they are)"
	local i="^xskf: $1: (veth port( \\(peer [^ ]+\\))?: --csum-repair finishes the TCP/UDP checksums|TCP/UDP frames arrive with unfinished checksums \\(the sender's TX checksum offload\\): --csum-repair finishes them)"
	if [ "${WARN:-0}" = 1 ]; then
		grep -qE -- "$w" "$2"
	else
		grep -qE -- "$w|$i" "$2"
	fi
}
L2ARGS=(-i la -i lb --mode fwd --dst-mac-0 $MAC_A --dst-mac-1 $MAC_B --quiet --cpus 1)

# --- 1. without the repair: told, counted, and broken as a user sees it ---
start_app $NL $TMP/off.json $L2FWD "${L2ARGS[@]}"
grep -q "la: a veth port whose peer .*TX checksum offload.*'ethtool -K PEER tx off'.*--csum-repair" \
	$TMP/off.json.err || { cat $TMP/off.json.err; fail "no start-up line naming the fix for la"; }
ok "start-up: $(grep -m1 'la: a veth port' $TMP/off.json.err | cut -c1-100)..."
wait_for "control socket" ctl_up $APP_PID
capture_b off
ERR0=$(udp_csum_errors $NB)
udp_send $NA 192.0.2.2 5001 $N
# every datagram reaches nsB, and its UDP drops each for its checksum
wait_for "$N UDP checksum errors in nsB" ge udp_csum_new $N
# the worker looks at a sample (every frame of a short burst, one of a full one): not all
wait_for "unfinished checksums counted on la" ge csum_live la unfinished 1
ok "without the repair: nsB dropped $(udp_csum_new) of $N UDP datagrams as bad checksums; la counted $(csum_live la unfinished) unfinished of $(csum_live la checked) looked at"
wait_for "the run-time warning" grep -q \
	"la: TCP/UDP frames arrive with unfinished checksums.*'ethtool -K PEER tx off'.*--csum-repair" \
	$TMP/off.json.err
ok "run-time: $(grep -m1 'la: TCP/UDP frames arrive' $TMP/off.json.err | cut -c1-100)..."
iperf_server
# iperf3 gives up after its connect timeout (its exit status does not say so with -J: its JSON does)
ip netns exec $NA taskset -c 0 iperf3 -c 192.0.2.2 -n 1M --connect-timeout 3000 -J \
	>$TMP/iperf-off.json 2>&1 || true
err=$(jget $TMP/iperf-off.json "j.get('error', '')")
[[ $err == *"unable to connect"* ]] ||
	fail "iperf3 through xsk-l2fwd without the repair: '$err' (expected: unable to connect)"
ok "without the repair: iperf3: $err"
kill $IPERF_S 2>/dev/null
wait $IPERF_S 2>/dev/null
stop_app || fail "xsk-l2fwd exited non-zero"
no_xdp $NL la
no_xdp $NL lb
kill -INT $CAP
wait $CAP 2>/dev/null
read -r bad tot <<<"$(bad_csums $TMP/off.pcap)"
[[ $bad -gt 0 ]] || fail "tshark at B found no bad checksum without the repair ($tot frames)"
ok "without the repair: tshark at B: $bad of $tot TCP/UDP frames with a bad checksum"
unf=$(jget $TMP/off.json "sum(q['csum']['unfinished'] for q in j['queues'] if q['port'] == 'la')")
[[ $unf -ge 1 ]] || fail "--json: csum unfinished on la = $unf, expected > 0"
ok "--json: csum unfinished on la = $unf"

# --- 2. with --csum-repair: TCP and UDP work, and every checksum B receives is good ---
start_app $NL $TMP/on.json $L2FWD "${L2ARGS[@]}" --csum-repair
grep -q "la: veth port: --csum-repair finishes" $TMP/on.json.err ||
	{ cat $TMP/on.json.err; fail "no start-up line for --csum-repair"; }
WARN=1 csum_line la $TMP/on.json.err && { cat $TMP/on.json.err; fail "a checksum warning with --csum-repair"; }
wait_for "control socket" ctl_up $APP_PID
capture_b on
udp_listen $NB 192.0.2.2 5002 $N $TMP/udp.on
LPID=$RPID
udp_send $NA 192.0.2.2 5002 $N
wait $LPID
got=$(cat $TMP/udp.on)
[[ $got == "$N" ]] || fail "with the repair: $got of $N UDP datagrams reached nsB's socket"
ok "with the repair: $N of $N UDP datagrams reached nsB's socket"
iperf_server
# --snd-timeout: the client gives up when its data stays unacknowledged for 10 s
ip netns exec $NA taskset -c 0 iperf3 -c 192.0.2.2 -n 20M --connect-timeout 10000 \
	--snd-timeout 10000 -J >$TMP/iperf-on.json 2>&1 || true
err=$(jget $TMP/iperf-on.json "j.get('error', '')")
[[ -z $err ]] || fail "iperf3 with --csum-repair at MTU $MTU: $err"
wait $IPERF_S 2>/dev/null
bytes=$(jget $TMP/iperf-on.json "j['end']['sum_received']['bytes']")
[[ $bytes -gt 0 ]] || fail "iperf3 received $bytes bytes"
ok "with the repair: iperf3 TCP transfer of $bytes bytes ($(jget $TMP/iperf-on.json "'%.2f' % (j['end']['sum_received']['bits_per_second'] / 1e9)") Gb/s)"
# curl: a download from B, byte for byte (its sha256)
mkdir "$TMP/www"
head -c 3000000 /dev/urandom >"$TMP/www/blob"
want=$(sha256sum <"$TMP/www/blob" | cut -d' ' -f1)
http_up() { ip netns exec $NB ss -ltn | grep -q '192.0.2.2:8000 '; }
ip netns exec $NB taskset -c 0 $PY -m http.server 8000 --bind 192.0.2.2 --directory "$TMP/www" \
	>"$TMP/http.log" 2>&1 &
HTTP_PID=$!
# SIGTERM: started in the background by a script, python ignores SIGINT (fwd_cleanup's)
at_exit 'kill -TERM $HTTP_PID 2>/dev/null; wait $HTTP_PID 2>/dev/null'
wait_for "HTTP server in nsB" http_up
# bounded by curl itself: it gives up after 10 s below 1 byte/s (a stalled transfer)
ip netns exec $NA taskset -c 0 curl -sS --connect-timeout 4 --speed-limit 1 --speed-time 10 \
	-o "$TMP/got" http://192.0.2.2:8000/blob 2>"$TMP/curl.err" ||
	fail "curl from nsB with --csum-repair at MTU $MTU: $(cat "$TMP/curl.err")"
got=$(sha256sum <"$TMP/got" | cut -d' ' -f1)
[[ $got == "$want" ]] || fail "curl from nsB: sha256 $got, expected $want"
ok "with the repair: curl downloaded 3000000 bytes from nsB, sha256 matched"
rep=$(csum_live la repaired)
[[ $rep -gt $N ]] || fail "csum repaired on la = $rep, expected > $N"
rep_b=$(csum_live lb repaired)
[[ $rep_b -gt 0 ]] || fail "csum repaired on lb = $rep_b (curl's data), expected > 0"
stop_app || fail "xsk-l2fwd exited non-zero"
no_xdp $NL la
no_xdp $NL lb
kill -INT $CAP
wait $CAP 2>/dev/null
read -r bad tot <<<"$(bad_csums $TMP/on.pcap)"
[[ $tot -gt $N ]] || fail "tshark at B: only $tot TCP/UDP frames captured"
[[ $bad -eq 0 ]] || fail "tshark at B: $bad of $tot TCP/UDP frames with a bad checksum"
ok "with the repair: tshark at B: 0 of $tot TCP/UDP frames with a bad checksum; csum_repaired on la $rep, lb $rep_b"
if [[ $MTU == 9000 ]]; then
	ca=$(chains $TMP/on.json la) cb=$(chains $TMP/on.json lb)
	[[ $ca -gt 0 && $cb -gt 0 ]] || fail "chains received: la $ca, lb $cb: the bed made no chain"
	ok "MTU 9000: la received $ca chains, lb $cb"
	exit 0 # part 3 does not depend on the MTU
fi

# --- 3. a peer in the same namespace: named, and its offload read (no line once it is off) ---
ip -n $NL link add p0 type veth peer name p1
ip -n $NL link set p0 up
ip -n $NL link set p1 up
ip netns exec $NL $L2FWD -i p0 --duration 1 --quiet --cpus 1 >/dev/null 2>$TMP/same.err ||
	{ cat $TMP/same.err; fail "xsk-l2fwd -i p0 failed"; }
grep -q "warning: p0: its veth peer p1 has TX checksum offload on: .*fix: 'ethtool -K p1 tx off', or --csum-repair" \
	$TMP/same.err || { cat $TMP/same.err; fail "the peer in the same namespace was not named"; }
ok "peer in the same namespace: $(grep -m1 'p0: its veth peer' $TMP/same.err | cut -c1-100)..."
ip netns exec $NL ethtool -K p1 tx off >/dev/null
ip netns exec $NL $L2FWD -i p0 --duration 1 --quiet --cpus 1 >/dev/null 2>$TMP/same.err ||
	{ cat $TMP/same.err; fail "xsk-l2fwd -i p0 failed"; }
csum_line p0 $TMP/same.err && { cat $TMP/same.err; fail "a checksum line with the peer's offload off"; }
ok "peer in the same namespace with tx off: no checksum line"
no_xdp $NL p0

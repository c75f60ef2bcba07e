#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xskf-trafficgen on the test bed:
#  - N frames out: `frames` == N, sent + tx_errors + lost == N, and the dut's own counters moved
#    by exactly `sent` (veth per-queue XDP counters with an XDP_DROP program; the interface's
#    rx_packets with GRO instead); sent == N when there were no errors;
#  - with no NAPI at the dut (no XDP, no GRO) veth refuses the frames: they must show as `lost`;
#  - --cpus C lands on the dut's RX queue C (2 queues);
#  - captured frames (XDP_PASS + tcpdump, decoded by scapy): --flows 16 gives 16 distinct
#    5-tuples, sequence numbers run 0..N-1, IPv4 header and UDP/TCP checksums are valid for
#    IPv4/IPv6 x UDP/TCP, size is as asked;
#  - --resend: the dut gets exactly N when frames were refused (made again), and frames lost
#    before the peer are not made again;
#  - bad input (unknown interface, size 20, --resend without -n, not root) fails with one line
#    and exit != 0;
#  - the sending method: every run's JSON "method", and its stderr: empty for live frames,
#    exactly the one line that names the AF_XDP fallback and why otherwise; a kernel that
#    refuses test runs (made by xskf-deny-test-run: EPERM, EINVAL) switches to AF_XDP with
#    exact counts, --method live then fails, XSKF_FEATURES_OFF matches whole words only.
# Argument: auto (the method this kernel and environment give), xsk (--method xsk on every
# run), env (XSKF_FEATURES_OFF=adjust_meta,live_frames): all checks run on the method chosen;
# with AF_XDP, a dut without NAPI gets the frames through its stack (veth_xmit) instead of
# losing them. Root; exit 77 to skip.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
require_root
SRC=$S
BUILD=$B
TB="$SRC/tools/testbed.sh"
GEN="$BUILD/tools/xskf-trafficgen"
P=tgt$$
TMP=$(mktemp -d)

cleanup() {
	XSKF_TB=$P "$TB" down || true
	rm -rf "$TMP"
}
at_exit cleanup

[[ -x $GEN ]] || fail "$GEN not built"
eval "$(XSKF_TB=$P "$TB" up)"

MODE=${1:-auto}
GEN_ARGS=()
LINE='^xskf-trafficgen: live-frame test runs %s: sending with AF_XDP TX \(copy mode\) on queue [0-9]+$'
case $MODE in
auto)
	# whatever the kernel and the caller's XSKF_FEATURES_OFF make of it: the first run tells
	WANT= WHY= ;;
xsk) GEN_ARGS=(--method xsk) WANT=xsk WHY='not used \(--method xsk\)' ;;
env)
	export XSKF_FEATURES_OFF=adjust_meta,live_frames
	WANT=xsk WHY='forced off by XSKF_FEATURES_OFF'
	;;
*) fail "unknown mode '$MODE' (auto, xsk or env)" ;;
esac

sink() { XSKF_TB=$P XSKF_BUILD=$BUILD "$TB" sink "$1"; }
# the generator's stderr goes to $TMP/gen.err, for check_method
gen() {
	ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" --json "${GEN_ARGS[@]}" "$@" \
		2>"$TMP/gen.err"
}
jget() { "$PY" -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# check_method JSON: the method is the one expected (in auto mode: the first run's, which must
# then be explained), and stderr is empty for live frames, the one fallback line for xsk.
check_method() {
	local m why
	m=$(jget "$1" method)
	if [[ -z $WANT ]]; then
		WANT=$m
		why='refused by this kernel \([A-Za-z ]+\)'
		[[ ${XSKF_FEATURES_OFF:-} =~ (^|[ ,])live_frames($|[ ,]) ]] &&
			why='forced off by XSKF_FEATURES_OFF'
		WHY=$why
		echo "# method: $m"
	fi
	[[ $m == "$WANT" ]] || fail "method $m, expected $WANT: $1"
	if [[ $m == live ]]; then
		[[ ! -s $TMP/gen.err ]] || fail "live frames, yet stderr says: $(cat "$TMP/gen.err")"
	else
		[[ $(wc -l <"$TMP/gen.err") -eq 1 ]] &&
			grep -Eq "$(printf "$LINE" "$WHY")" "$TMP/gen.err" ||
			fail "AF_XDP: stderr is not the one line naming it ($WHY): $(cat "$TMP/gen.err")"
	fi
}

# Sum of the dut's veth counters whose name matches the regex $1 (e.g. rx_queue_[0-9]+_xdp_packets).
dut_stat() {
	ip netns exec "$TB_NS_DUT" ethtool -S "$TB_IF_DUT" |
		awk -v re="^$1:\$" '$1 ~ re { s += $2 } END { print s + 0 }'
}
dut_xdp_packets() { dut_stat 'rx_queue_[0-9]+_xdp_packets'; }
dut_rx_packets() { ip netns exec "$TB_NS_DUT" cat "/sys/class/net/$TB_IF_DUT/statistics/rx_packets"; }

# Read counter function $1 until it stops moving: the baseline before a send, as the stacks
# send a few MLD reports right after link up.
settle() {
	local a b i
	a=$("$@")
	for i in $(seq 1 40); do
		sleep 0.1
		b=$("$@")
		[[ $a == "$b" ]] && [[ $i -ge 3 ]] && break
		a=$b
	done
	echo "$b"
}

# reach N CMD...: counter function CMD once it has reached N (the dut's NAPI may still be
# draining its ring when the generator returns: wait for the count, not for a time), or its
# value after the bound of wait_lib.sh when it never does (the caller's check then says so).
reach() {
	local n=$1
	shift
	wait_until "$WAIT_S" ge "$@" "$n" || true
	"$@"
}

# Send $1 frames with the rest as options and check them against counter function $COUNTER.
check_count() {
	local n=$1 before after out frames sent errs lost
	shift
	before=$(settle "$COUNTER")
	out=$(gen -n "$n" "$@") || fail "generator failed: $out $(cat "$TMP/gen.err")"
	check_method "$out"
	frames=$(jget "$out" frames) sent=$(jget "$out" sent)
	errs=$(jget "$out" tx_errors) lost=$(jget "$out" lost)
	after=$(reach $((before + sent)) "$COUNTER")
	[[ $frames -eq $n ]] || fail "-n $n made $frames frames"
	[[ $((sent + errs + lost)) -eq $n ]] || fail "-n $n: sent $sent + errors $errs + lost $lost"
	[[ $((after - before)) -eq $sent ]] ||
		fail "-n $n $*: generator says sent $sent, dut counted $((after - before))"
	if [[ $errs -eq 0 && $lost -eq 0 ]]; then
		[[ $sent -eq $n ]] || fail "-n $n: no errors but sent $sent"
	fi
	[[ $lost -eq 0 ]] || fail "-n $n: $lost frames lost with a sink on the dut"
	[[ $(jget "$out" exact) == True ]] || fail "-n $n: not exact: $out"
	ok "-n $n${*:+ $*} ($WANT): sent $sent tx_errors $errs, dut +$((after - before))"
}

# --- exact counts, XDP_DROP at the dut: veth's per-queue XDP counters
sink drop
COUNTER=dut_xdp_packets
check_count 1000
check_count 10000
check_count 10000 --flows 16 -6 -t -s 1514
check_count 5000 --rate 100000
# --rate paces: 20000 frames at 100000/s cannot be done before the last millisecond's batch is
# due (0.199 s); that the run is not far slower is the other method's business (bench)
out=$(gen -n 20000 --rate 100000 --cpus 0) || fail "generator failed: $out"
check_method "$out"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); sys.exit(not (d["sent"] + d["tx_errors"] == 20000 and d["seconds"] >= 0.199))' "$out" ||
	fail "--rate 100000 -n 20000 was faster than paced: $out"
ok "--rate 100000 ($WANT): 20000 frames in $(jget "$out" seconds) s"
# batches of 256 overrun veth's 256-slot ring now and then: tx_errors must then be what the
# dut did not get (check_count asserts dut == sent, and sent + tx_errors == N)
check_count 200000 --batch 256 --cpus 0

# --resend: the refused frames are made again, so the dut gets exactly N (the bursts of 256
# at 300 kpps overran the ring 5212 times in 300000 here); when none was refused the check is
# that of any exact count
check_resend() {
	local n=$1 before after out frames sent errs lost
	shift
	before=$(settle "$COUNTER")
	out=$(gen -n "$n" --resend "$@") || fail "generator failed: $out"
	check_method "$out"
	frames=$(jget "$out" frames) sent=$(jget "$out" sent)
	errs=$(jget "$out" tx_errors) lost=$(jget "$out" lost)
	after=$(reach $((before + n)) "$COUNTER")
	[[ $sent -eq $n && $lost -eq 0 ]] || fail "--resend -n $n: sent $sent, lost $lost"
	[[ $frames -eq $((n + errs)) ]] || fail "--resend -n $n: $frames made, $errs refused"
	[[ $((after - before)) -eq $n ]] || fail "--resend -n $n: dut counted $((after - before))"
	ok "--resend -n $n $* ($WANT): dut +$n exactly, $errs refused frames made again"
}
check_resend 200000 --batch 256 --rate 300000 --cpus 0
check_resend 50000 --flows 16 --rate 200000 --cpus 1

# --- the same with GRO instead of an XDP program: the frames go up the stack
sink gro
COUNTER=dut_rx_packets
check_count 1000
check_count 10000 -t

# --- no NAPI at the dut: veth refuses XDP frames, the generator must not call them sent
sink off
if [[ $WANT == live ]]; then
	out=$(gen -n 1000) || fail "generator failed: $out"
	[[ $(jget "$out" sent) -eq 0 && $(jget "$out" lost) -eq 1000 ]] ||
		fail "with no XDP/GRO at the dut expected sent 0 lost 1000: $out"
	ok "no NAPI at the dut: lost 1000"
	# frames lost before the peer are not made again (only refused ones): the run ends
	out=$(gen -n 1000 --resend) || fail "generator failed: $out"
	[[ $(jget "$out" frames) -eq 1000 && $(jget "$out" lost) -eq 1000 ]] ||
		fail "--resend with no NAPI at the dut: expected 1000 made, 1000 lost: $out"
	ok "no NAPI at the dut, --resend: 1000 made, lost 1000, the run ended"
else
	# AF_XDP sends skbs: veth_xmit hands them to the dut's stack (netif_rx), no NAPI needed
	COUNTER=dut_rx_packets
	check_count 1000
	check_resend 1000
fi

# --- --cpus C lands on the dut's RX queue C
sink drop
if [[ $(nproc) -ge 2 ]]; then
	for cpu in 0 1; do
		other=$((1 - cpu))
		b_me=$(settle dut_stat "rx_queue_${cpu}_xdp_packets")
		b_other=$(dut_stat "rx_queue_${other}_xdp_packets")
		out=$(gen -n 2000 --cpus "$cpu") || fail "generator failed: $out"
		check_method "$out"
		a_me=$(reach $((b_me + $(jget "$out" sent))) dut_stat "rx_queue_${cpu}_xdp_packets")
		a_other=$(dut_stat "rx_queue_${other}_xdp_packets")
		[[ $((a_me - b_me)) -eq $(jget "$out" sent) && $((a_me - b_me)) -gt 0 ]] ||
			fail "--cpus $cpu: queue $cpu got $((a_me - b_me)) of $(jget "$out" sent)"
		[[ $a_other -eq $b_other ]] || fail "--cpus $cpu: queue $other got frames too"
		ok "--cpus $cpu -> dut RX queue $cpu ($WANT)"
	done
else
	echo "skip: --cpus test needs 2 CPUs"
fi

# --- what the frames look like: capture at the dut and decode
if ! "$PY" -c 'import scapy.all' 2>/dev/null; then
	echo "skip: capture checks need python3-scapy (/usr/bin/python3)"
else
	sink pass
	for variant in "" "-6" "-t" "-6 -t"; do
		cap="$TMP/cap.pcap"
		# only the generator's frames: the dut answers with ICMP errors / TCP resets. The last
		# variant's log goes first: the wait below must see this tcpdump's "listening on".
		rm -f "$TMP/tcpdump.err"
		ip netns exec "$TB_NS_DUT" timeout 60 tcpdump -i "$TB_IF_DUT" -U -w "$cap" -c 64 \
			"ether src $TB_MAC_GEN and (udp or tcp)" 2>"$TMP/tcpdump.err" &
		pid=$!
		wait_capture "$TMP/tcpdump.err"
		# shellcheck disable=SC2086
		out=$(gen -n 64 --flows 16 -s 128 --sport 2000 --dport 7777 --cpus 0 $variant) ||
			fail "generator failed: $out"
		check_method "$out"
		wait "$pid" || fail "tcpdump did not see 64 frames ($variant)"
		"$PY" - "$cap" "$variant" "$TB_MAC_GEN" "$TB_MAC_DUT" <<'EOPY' || fail "capture ($variant)"
import sys
from scapy.all import rdpcap, Ether, IP, IPv6, UDP, TCP
cap, variant, mac_src, mac_dst = sys.argv[1:5]
v6, tcp = '-6' in variant, '-t' in variant
pkts = rdpcap(cap)
errors, flows, seqs = [], set(), []

def recomputed(pkt, layer):
    """the checksum scapy computes for layer after clearing it in a copy of pkt"""
    c = Ether(bytes(pkt))
    del c[layer].chksum
    return Ether(bytes(c))[layer].chksum

for p in pkts:
    l3 = p[IPv6] if v6 else p[IP]
    l4 = p[TCP] if tcp else p[UDP]
    if len(p) != 128:
        errors.append('length %d' % len(p))
    if p[Ether].src != mac_src or p[Ether].dst != mac_dst:
        errors.append('MACs %s > %s' % (p[Ether].src, p[Ether].dst))
    if not v6 and recomputed(p, IP) != l3.chksum:
        errors.append('IPv4 header checksum %#x' % l3.chksum)
    layer = TCP if tcp else UDP
    if l4.chksum == 0 or recomputed(p, layer) != l4.chksum:
        errors.append('L4 checksum %#x, expected %#x' % (l4.chksum, recomputed(p, layer)))
    flows.add((l3.src, l3.dst, 6 if tcp else 17, l4.sport, l4.dport))
    seqs.append(int.from_bytes(bytes(l4.payload)[:4], 'big'))

ports = sorted(f[3] for f in flows)
if len(pkts) != 64:
    errors.append('%d frames captured' % len(pkts))
if len(flows) != 16 or ports != list(range(2000, 2016)):
    errors.append('%d flows, source ports %s' % (len(flows), ports))
if {f[4] for f in flows} != {7777}:
    errors.append('destination ports %s' % {f[4] for f in flows})
if sorted(seqs) != list(range(64)):
    errors.append('sequence numbers %s' % seqs[:8])
for e in errors[:5]:
    print('capture:', e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOPY
		ok "capture ${variant:-ipv4/udp} ($WANT): 64 frames, 16 flows, checksums valid"
	done
fi

# --- Ctrl-C: a run without -n and -d stops at SIGINT, with exact counts
sink drop
before=$(settle dut_xdp_packets)
# not through gen(): $! must be the generator itself (ip netns exec execs it), not a subshell
ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" --json "${GEN_ARGS[@]}" --cpus 0 --rate 200000 \
	>"$TMP/int.json" 2>"$TMP/gen.err" &
pid=$!
wait_for "frames of the run at the dut" ge dut_xdp_packets $((before + 1000))
kill -INT "$pid"
wait "$pid" || fail "generator exited $? after SIGINT"
out=$(cat "$TMP/int.json")
check_method "$out"
after=$(reach $((before + $(jget "$out" sent))) dut_xdp_packets)
[[ $((after - before)) -eq $(jget "$out" sent) && $(jget "$out" lost) -eq 0 ]] ||
	fail "SIGINT: generator says sent $(jget "$out" sent), dut counted $((after - before)): $out"
ok "SIGINT ($WANT): stopped after $(jget "$out" sent) frames, the dut counted as many"

# --- the probe: a kernel that refuses test runs (xskf-deny-test-run makes one, whatever this
# kernel does) gets AF_XDP with exact counts and says why; --method live then fails. The
# caller's XSKF_FEATURES_OFF is taken away: these runs are about the probe.
DENY=${XSKF_DENY_TEST_RUN:-$BUILD/tests/integration/xskf-deny-test-run}
[[ -x $DENY ]] || fail "$DENY not built"
tg_bare() { ip netns exec "$TB_NS_GEN" env -u XSKF_FEATURES_OFF "$@"; }
for e in "EPERM:Operation not permitted" "EINVAL:Invalid argument"; do
	before=$(settle dut_xdp_packets)
	out=$(tg_bare "$DENY" "${e%%:*}" "$GEN" -i "$TB_IF_GEN" --json -n 3000 --cpus 1 \
		2>"$TMP/gen.err") || fail "generator failed under ${e%%:*}: $out $(cat "$TMP/gen.err")"
	[[ $(jget "$out" method) == xsk && $(jget "$out" sent) -eq 3000 ]] ||
		fail "test runs refused (${e%%:*}): $out"
	[[ $(wc -l <"$TMP/gen.err") -eq 1 ]] && grep -Eqx "$(printf "$LINE" \
		"refused by this kernel \\(${e#*:}\\)" | sed 's/queue \[0-9\]+/queue 1/')" \
		"$TMP/gen.err" || fail "test runs refused (${e%%:*}): stderr: $(cat "$TMP/gen.err")"
	after=$(reach $((before + 3000)) dut_xdp_packets)
	[[ $((after - before)) -eq 3000 ]] || fail "refused (${e%%:*}): dut counted $((after - before))"
	ok "test runs refused (${e%%:*}): AF_XDP on queue 1, dut +3000: $(cat "$TMP/gen.err")"
done
expect_error() {
	local what=$1 pattern=$2 rc=0
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[[ $rc -ne 0 ]] || fail "$what: exit 0"
	[[ $(wc -l <"$TMP/err") -eq 1 ]] || fail "$what: stderr is not one line: $(cat "$TMP/err")"
	grep -q "$pattern" "$TMP/err" || fail "$what: unexpected message: $(cat "$TMP/err")"
	ok "$what -> exit $rc: $(cat "$TMP/err")"
}
expect_error "--method live, test runs refused" \
	"^xskf-trafficgen: BPF_PROG_RUN failed: Operation not permitted$" \
	tg_bare "$DENY" EPERM "$GEN" -i "$TB_IF_GEN" -n 10 --method live
# the environment: whole words of a comma-separated list, and an explicit --method wins
if tg_bare "$GEN" -i "$TB_IF_GEN" -n 1 --method live >/dev/null 2>&1; then
	for v in "live_framesx,nolive_frames" "live_frames:--method live"; do
		# shellcheck disable=SC2086 # VALUE[:OPTIONS]
		out=$(ip netns exec "$TB_NS_GEN" env XSKF_FEATURES_OFF="${v%%:*}" "$GEN" \
			-i "$TB_IF_GEN" --json -n 100 $([[ $v == *:* ]] && echo "${v#*:}") \
			2>"$TMP/gen.err") || fail "generator failed: $out"
		[[ $(jget "$out" method) == live && ! -s $TMP/gen.err ]] ||
			fail "XSKF_FEATURES_OFF=$v: $out $(cat "$TMP/gen.err")"
		ok "XSKF_FEATURES_OFF=${v/:/ with }: live frames"
	done
else
	echo "skip: XSKF_FEATURES_OFF word checks need a kernel with live-frame test runs"
fi

# --- bad input: one line on stderr, exit != 0
expect_error "bad --method" "^xskf-trafficgen: bad --method 'fast' (expected live, xsk or auto)$" \
	ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" -n 1 --method fast
expect_error "unknown interface" "^xskf-trafficgen: unknown interface 'nosuch0'$" \
	ip netns exec "$TB_NS_GEN" "$GEN" -i nosuch0 -n 1
expect_error "size 20" "^xskf-trafficgen: bad size '20' (expected 60..1514)$" ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" -n 1 -s 20
expect_error "size 1515" "^xskf-trafficgen: bad size '1515' (expected 60..1514)$" ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" -n 1 -s 1515
expect_error "size 60 for IPv6/TCP" "^xskf-trafficgen: bad size 60: IPv6/TCP headers need 74 bytes$" \
	ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" -n 1 -6 -t -s 60
expect_error "--resend without -n" "^xskf-trafficgen: --resend needs -n N: it makes the count of frames sent exact$" \
	ip netns exec "$TB_NS_GEN" "$GEN" -i "$TB_IF_GEN" -d 1 --resend
if command -v setpriv >/dev/null; then
	expect_error "not root" "^xskf-trafficgen: must be run as root (BPF_PROG_RUN of XDP needs CAP_BPF and CAP_NET_ADMIN)$" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$GEN" -i lo -n 1
fi
echo "PASS"

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# TX metadata on the veth bed (copy mode; docs/tx-offloads.md): xsk-txgen in nsG sends on g0,
# nsP receives on p0 (sockets, the kernel's SNMP counters, a capture checked by tshark).
#  - checksums: IPv4/IPv6 UDP/TCP frames with deliberately wrong checksums, replayed with
#    --tx-csum, arrive right (tshark: every checksum good; UDP sockets get every datagram; the
#    peer's Udp/Udp6/Tcp InCsumErrors do not move), offloaded (the kernel, copy mode) and with
#    --no-tx-offload (xskf in software, counted); without --tx-csum the same frames are counted
#    bad by the peer (the control).
#  - bad requests (a checksum field beyond the frame, an IP length beyond it) between good
#    frames: counted invalid, never sent, and the frames behind them still go (no stall).
#  - TX timestamps: probed (the start-up line); where filled, every frame that asked has one,
#    in order, between the user-space clock readings around it; else skipped with the reason.
#  - launch time: probed; where the port has none, --launch-time says so and paces in
#    software (skipped with the reason otherwise).
#  - timestamps asked on a UMEM without room (--no-tx-offload): counted, every frame sent.
#  - latency through a forwarder: probes from xsk-txgen --latency through xsk-l2fwd to the
#    latency plugin, one-way times from the TX timestamps the probes carry.
set -u
P=tm$$
. "$(dirname "$0")/fwd_lib.sh"
command -v tshark >/dev/null || skip "tshark missing: scripts/deps.sh"

MAC_G=02:00:00:00:0d:01 MAC_P=02:00:00:00:0d:02
NG=$P-g NP=$P-p
mkns $NG
mkns $NP
# veth's default TX checksum offload left on (as a sender's would be): the checksums must come
# out right whatever the device's features (xskf sets XDP_UMEM_TX_SW_CSUM in copy mode)
VETH_TX_CSUM=on vpair $NG g0 $MAC_G $NP p0 $MAC_P 1
ip netns exec $NP sysctl -qw net.ipv6.conf.p0.disable_ipv6=0
ip -n $NP addr add 198.51.100.2/24 dev p0
ip -n $NP addr add 2001:db8::2/64 dev p0 nodad

N=20 # frames of each kind

# snmp NAME: the peer's counter NAME (Udp/Tcp in /proc/net/snmp "Proto:Field", Udp6 in snmp6)
snmp() {
	ip netns exec $NP $PY - "$1" <<'PYEOF'
import sys
proto, field = sys.argv[1].split(":")
if proto == "Udp6":
    for l in open("/proc/net/snmp6"):
        k, v = l.split()
        if k == "Udp6" + field:
            print(v)
    sys.exit(0)
lines = [l.split() for l in open("/proc/net/snmp") if l.startswith(proto + ":")]
print(lines[1][lines[0].index(field)])
PYEOF
}
csum_errors() { echo $(($(snmp Udp:InCsumErrors) + $(snmp Udp6:InCsumErrors) + $(snmp Tcp:InCsumErrors))); }

# the frames: UDP to 7001 (v4) and 7002 (v6), TCP SYNs to a listener on 7003, all with wrong
# checksums; bad.pcap puts two frames whose request cannot be carried out between good ones
$PY - $TMP <<'PYEOF' || fail "scapy"
import sys
from scapy.all import Ether, IP, IPv6, UDP, TCP, Raw, wrpcap
d = sys.argv[1]
m = dict(src="02:00:00:00:0d:01", dst="02:00:00:00:0d:02")
v4 = dict(src="198.51.100.1", dst="198.51.100.2")
v6 = dict(src="2001:db8::1", dst="2001:db8::2")
fr = []
for i in range(20):
    fr.append(Ether(**m) / IP(**v4) / UDP(sport=1000 + i, dport=7001, chksum=0x1234) / Raw(b"u" * (18 + i * 37)))
    fr.append(Ether(**m) / IPv6(**v6) / UDP(sport=1000 + i, dport=7002, chksum=0x1234) / Raw(b"w" * (3 + i * 41)))
    fr.append(Ether(**m) / IP(**v4) / TCP(sport=2000 + i, dport=7003, flags="S", seq=i, chksum=0x4321) / Raw(b"t" * i))
    fr.append(Ether(**m) / IPv6(**v6) / TCP(sport=2000 + i, dport=7003, flags="S", seq=i, chksum=0x4321) / Raw(b"s" * i))
wrpcap(d + "/good.pcap", fr)
good = Ether(**m) / IP(**v4) / UDP(sport=999, dport=7001, chksum=0x1234) / Raw(b"g" * 30)
short = bytearray(bytes(Ether(**m) / IP(**v4) / TCP(sport=1, dport=7003, flags="S"))[:14 + 20 + 12])
short[16:18] = (32).to_bytes(2, "big")  # the frame ends before the TCP checksum field
longip = bytearray(bytes(Ether(**m) / IP(**v4) / UDP(sport=2, dport=7001) / Raw(b"x" * 10)))
longip[16:18] = (400).to_bytes(2, "big")  # IPv4 total length beyond the frame
wrpcap(d + "/bad.pcap", [good, Ether(bytes(short)), good, Ether(bytes(longip)), good])
PYEOF

# listeners on the peer: UDP v4 and v6 count datagrams, a TCP socket listens (SYNs with a
# good checksum are answered, counted by the kernel in Tcp InSegs)
listeners() {
	rm -f $TMP/l.ready
	ip netns exec $NP $PY - $TMP/l.ready $TMP/u4.out $TMP/u6.out "$1" <<'PYEOF' &
import socket, sys, time
want = int(sys.argv[4])
u4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u4.bind(("0.0.0.0", 7001))
u6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u6.bind(("::", 7002))
t = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(("::", 7003)); t.listen(64)
open(sys.argv[1], "w").close()
n4 = n6 = 0
end = time.time() + 10
for s in (u4, u6):
    s.settimeout(0.05)
while time.time() < end and (n4 < want or n6 < want):
    for s in (u4, u6):
        try:
            s.recv(4096)
            if s is u4: n4 += 1
            else: n6 += 1
        except socket.timeout:
            pass
time.sleep(0.3)  # a datagram too many shows too
for s, n in ((u4, n4), (u6, n6)):
    s.setblocking(False)
    try:
        while True:
            s.recv(4096); n += 1
    except BlockingIOError:
        pass
    if s is u4: n4 = n
    else: n6 = n
open(sys.argv[2], "w").write(str(n4)); open(sys.argv[3], "w").write(str(n6))
PYEOF
	LPID=$!
	wait_for "the peer's listeners" test -e $TMP/l.ready
}

# replay NAME EXPECT_ERRORS ARGS...: the 80 frames of good.pcap through xsk-txgen ARGS with the
# listeners up and a capture; checks the counts and tshark's verdict
replay() {
	local name=$1 experr=$2 e0 s0 rc=0
	shift 2
	listeners $N
	ip netns exec $NP tcpdump -i p0 -U -w $TMP/$name.pcap ether src $MAC_G 2>$TMP/$name.cap &
	local tpid=$!
	wait_capture $TMP/$name.cap
	e0=$(csum_errors)
	s0=$(snmp Tcp:InSegs)
	ip netns exec $NG timeout 60 $TXGEN -i g0 --quiet --json --pcap $TMP/good.pcap "$@" \
		>$TMP/$name.json 2>$TMP/$name.err || rc=$?
	[[ $rc == 0 ]] || { cat $TMP/$name.err >&2; fail "$name: xsk-txgen exited $rc"; }
	wait_pcap $TMP/$name.pcap $((4 * N))
	wait $LPID
	kill -INT $tpid
	wait $tpid 2>/dev/null
	local e=$(($(csum_errors) - e0)) segs=$(($(snmp Tcp:InSegs) - s0))
	[[ $e == "$experr" ]] || fail "$name: the peer counted $e checksum errors, expected $experr"
	if [[ $experr == 0 ]]; then
		[[ $(cat $TMP/u4.out) == "$N" && $(cat $TMP/u6.out) == "$N" ]] ||
			fail "$name: UDP sockets received $(cat $TMP/u4.out) (v4) and $(cat $TMP/u6.out) (v6) of $N"
		[[ $segs -ge $((2 * N)) ]] || fail "$name: the peer's TCP took $segs segments of $((2 * N))"
		# tshark: 1 good, 2 bad; every UDP and TCP checksum of the 80 frames must be good
		local verdicts
		verdicts=$(tshark -r $TMP/$name.pcap -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
			-T fields -E separator=, -e ipv6.src -e udp.checksum.status \
			-e tcp.checksum.status 2>/dev/null |
			awk -F, '{ v = $1 != "" ? "6" : "4"; k = $2 != "" ? "udp" : "tcp";
			           c[v k $2 $3]++ } END { for (x in c) print x, c[x] }' | sort | tr '\n' ' ')
		[[ $verdicts == "4tcp1 $N 4udp1 $N 6tcp1 $N 6udp1 $N " ]] ||
			fail "$name: tshark's checksum verdicts (kind status count): $verdicts"
		ok "$name: $((4 * N)) frames with wrong checksums arrived right: tshark good for IPv4/IPv6 UDP/TCP, UDP sockets got $N + $N, TCP took $segs segments, 0 checksum errors at the peer"
	else
		ok "$name (control): the same frames without --tx-csum: $e checksum errors at the peer"
	fi
}

replay control $((4 * N))
replay offload 0 --tx-csum
# AF_XDP TX metadata as xskf's own probe table has it (`xskf features --json`): without it (a
# kernel before 6.8, or XSKF_FEATURES_OFF=tx_metadata) the UMEM has no room and xskf does the
# checksums itself, said in the line
if [[ $(ip netns exec $NG "$B/apps/xskf" features --json | $PY -c 'import json,sys; print(json.load(sys.stdin)["uses"]["tx_metadata"])') == True ]]; then
	grep -q "g0: TX metadata (24 bytes in front of each frame): checksum by the kernel in software (copy mode)" \
		$TMP/offload.err || { cat $TMP/offload.err >&2; fail "offload: no probe line"; }
	[[ $(jget $TMP/offload.json "j['queues'][0]['tx_meta']['frames']") == $((4 * N)) &&
		$(jget $TMP/offload.json "j['queues'][0]['tx_meta']['csum_sw']") == 0 ]] ||
		fail "offload: tx_meta $(jget $TMP/offload.json "j['queues'][0]['tx_meta']")"
	ok "offload: the probe line says the kernel does it; $((4 * N)) frames with metadata, none by xskf"
else
	grep -q "g0: TX metadata (0 bytes in front of each frame): checksum by xskf in software, .*(\(AF_XDP TX metadata forced off by XSKF_FEATURES_OFF\|this kernel has no AF_XDP TX metadata: Linux 6.8+\))" \
		$TMP/offload.err || { cat $TMP/offload.err >&2; fail "offload without TX metadata: no line saying xskf does it"; }
	[[ $(jget $TMP/offload.json "j['queues'][0]['tx_meta']['csum_sw']") == $((4 * N)) &&
		$(jget $TMP/offload.json "j['queues'][0]['tx_meta']['frames']") == 0 ]] ||
		fail "offload without TX metadata: tx_meta $(jget $TMP/offload.json "j['queues'][0]['tx_meta']")"
	ok "offload without AF_XDP TX metadata: the line says xskf does it; $((4 * N)) checksums by xskf"
fi
replay software 0 --tx-csum --no-tx-offload
[[ $(jget $TMP/software.json "j['queues'][0]['tx_meta']['csum_sw']") == $((4 * N)) &&
	$(jget $TMP/software.json "j['queues'][0]['tx_meta']['frames']") == 0 ]] ||
	fail "software: tx_meta $(jget $TMP/software.json "j['queues'][0]['tx_meta']")"
grep -q "TX metadata: off (--no-tx-offload)" $TMP/software.err || fail "software: no line says so"
ok "software: $((4 * N)) checksums by xskf (csum_sw), no metadata"

# bad requests between good frames: the bad ones counted and never sent, the good ones all go
before=$(rx_count $NP p0)
rc=0
ip netns exec $NG timeout 20 $TXGEN -i g0 --quiet --json --pcap $TMP/bad.pcap --tx-csum \
	>$TMP/bad.json 2>$TMP/bad.err || rc=$?
[[ $rc == 0 ]] || { cat $TMP/bad.err >&2; fail "bad: xsk-txgen exited $rc (stalled?)"; }
wait_ctr $NP p0 rx_packets $((before + 3))
[[ $(($(rx_count $NP p0) - before)) == 3 ]] || fail "bad: the peer received $(($(rx_count $NP p0) - before)), expected the 3 good"
[[ $(jget $TMP/bad.json "j['queues'][0]['tx_meta']['invalid']") == 2 &&
	$(jget $TMP/bad.json "j['queues'][0]['kernel']['tx_invalid_descs']") == 0 &&
	$(jget $TMP/bad.json "j['census_ok']") == True ]] ||
	fail "bad: $(jget $TMP/bad.json "j['queues'][0]")"
grep -q "2 invalid (dropped)" $TMP/bad.err || fail "bad: the summary does not say it"
ok "bad requests (checksum field beyond the frame, IP length beyond it): 2 invalid, never sent; the 3 good frames behind them arrived, no tx_invalid_descs"

# TX timestamps: probe, then every frame that asked has one, in order, between the clocks
rc=0
ip netns exec $NG timeout 60 $TXGEN -i g0 --quiet --json --count 5000 --rate 100000 \
	--latency >$TMP/ts.json 2>$TMP/ts.err || rc=$?
[[ $rc == 0 ]] || { cat $TMP/ts.err >&2; fail "timestamps: xsk-txgen exited $rc"; }
if grep -q "timestamp not offloaded" $TMP/ts.err; then
	echo "SKIP timestamps: $(grep -o 'g0: TX metadata.*' $TMP/ts.err)"
else
	lat=$(jget $TMP/ts.json "j['app_stats']['latency']")
	[[ $(jget $TMP/ts.json "j['app_stats']['latency']['stamps']") == 5000 &&
		$(jget $TMP/ts.json "j['app_stats']['latency']['empty']") == 0 &&
		$(jget $TMP/ts.json "j['app_stats']['latency']['out_of_order']") == 0 &&
		$(jget $TMP/ts.json "j['app_stats']['latency']['outside']") == 0 &&
		$(jget $TMP/ts.json "j['queues'][0]['tx_meta']['stamps']") == 5000 ]] ||
		fail "timestamps: $lat"
	ok "timestamps: 5000 of 5000 back, none empty, in order, all between the user-space readings around their frame ($(grep -o 'built -> TX.*' $TMP/ts.err))"
fi

# launch time: probe; without the offload --launch-time paces in software
rc=0
ip netns exec $NG timeout 60 $TXGEN -i g0 --quiet --json --count 200 --rate 2000 \
	--launch-time >$TMP/lt.json 2>$TMP/lt.err || rc=$?
[[ $rc == 0 ]] || { cat $TMP/lt.err >&2; fail "launch time: xsk-txgen exited $rc"; }
if grep -q "launch time not offloaded" $TMP/lt.err; then
	grep -q "txgen: --launch-time: no launch-time offload on this port" $TMP/lt.err ||
		fail "launch time: txgen does not say it paces in software"
	d=$(jget $TMP/lt.json "j['duration_s']")
	$PY -c "import sys; sys.exit(0 if $d >= 0.095 else 1)" || fail "software pacing: 200 frames at 2000 pps in $d s"
	echo "SKIP launch time offload: $(grep -o 'launch time not offloaded.*' $TMP/lt.err | head -1)"
	ok "launch time: not offloaded here; --launch-time paced 200 frames at 2000 pps in software ($d s)"
else
	[[ $(jget $TMP/lt.json "j['queues'][0]['tx_meta']['launch_bad']") == 0 ]] || fail "launch time: out of range"
	ok "launch time: offloaded, 200 frames with launch times"
fi

# timestamps asked on a UMEM without room: counted, every frame sent, nothing stalls
before=$(rx_count $NP p0)
rc=0
ip netns exec $NG timeout 20 $TXGEN -i g0 --quiet --json --count 300 --latency --no-tx-offload \
	--dst-mac $MAC_P >$TMP/nr.json 2>$TMP/nr.err || rc=$?
[[ $rc == 0 ]] || { cat $TMP/nr.err >&2; fail "no room: xsk-txgen exited $rc"; }
wait_ctr $NP p0 rx_packets $((before + 300))
[[ $(jget $TMP/nr.json "j['queues'][0]['tx_meta']['unsupported']") == 300 &&
	$(jget $TMP/nr.json "j['app_stats']['latency']['stamps']") == 0 ]] ||
	fail "no room: $(jget $TMP/nr.json "j['queues'][0]['tx_meta']")"
grep -q "txgen: --latency: no TX timestamps on this port" $TMP/nr.err || fail "no room: txgen does not say it"
ok "timestamps on a UMEM without room: 300 counted unsupported, 300 frames sent"
no_xdp $NG g0

# latency through a forwarder: xsk-txgen --latency in nsA -> xsk-l2fwd (fwd) in nsL -> the
# latency plugin in nsB, which matches the TX timestamps the probes carry to its receive times
if grep -q "timestamp not offloaded" $TMP/ts.err; then
	echo "SKIP latency through a forwarder: no TX timestamps (see above)"
else
	fwd_bed_up
	start_app $NB $TMP/lat.json $BUILD/apps/xskf run latency -i b0 --quiet
	LAT_PID=$APP_PID
	start_app $NL $TMP/l2.json $L2FWD -i la -i lb --mode fwd --dst-mac-1 $MAC_B --quiet
	L2_PID=$APP_PID
	rc=0
	ip netns exec $NA timeout 60 $TXGEN -i a0 --quiet --json --count 2000 --rate 20000 \
		--size 100 --latency --dst-mac $MAC_LA --dst-ip 192.0.2.2 >$TMP/lt2.json 2>$TMP/lt2.err || rc=$?
	[[ $rc == 0 ]] || { cat $TMP/lt2.err >&2; fail "latency: xsk-txgen exited $rc"; }
	wait_app_rx $LAT_PID 2000
	APP_PID=$L2_PID
	stop_app || fail "xsk-l2fwd exited with an error"
	APP_PID=$LAT_PID
	stop_app || fail "the latency plugin exited with an error"
	read -r nb ns <<<"$(jget $TMP/lat.json "j['app_stats']['built_n'], j['app_stats']['stamp_n']")"
	nb=${nb%,}
	[[ $nb == 2000 && $ns -ge 1900 ]] ||
		fail "latency: $nb probes timed from their build, $ns from a TX timestamp (2000, >= 1900 expected)"
	ok "latency through xsk-l2fwd: 2000 probes, $ns one-way times from TX timestamps ($(grep -o 'TX timestamp -> received.*' $TMP/lat.json.err)), from the user-space clock ($(grep -o 'built -> received.*' $TMP/lat.json.err))"
fi

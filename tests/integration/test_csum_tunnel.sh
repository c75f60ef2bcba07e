#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# curl and iperf3 through xsk-tunnel against the kernel's VXLAN device, every sender with veth's
# and VXLAN's default offloads (issue 17, point 2; issue 32, point 2). The access host's TCP
# segments arrive with unfinished checksums (TX checksum offload), and so do the frames inside
# the VTEP's VXLAN packets (over IPv6 the outer UDP checksum may be unfinished too):
#  - without --csum-repair: curl cannot connect (the first segment that crosses the tunnel is
#    dropped by its receiver for its checksum);
#  - with it: the framework finishes what the access port receives (encap direction) and the
#    outer checksums of the underlay, xsk-tunnel the inner checksums after decap
#    (xskf_pkt__csum_finish()); over the IPv4 underlay (VNI 100) and the IPv6 one (VNI 200), a
#    3 MB curl download (decap direction) matches its sha256 and an iperf3 upload (encap
#    direction) moves bytes.
# test_csum_tunnel.sh 9000: the same with an 8950-byte access MTU over a 9000-byte underlay:
# the segments come as chains of buffers (docs/jumbo.md), whose checksums span them all; both
# ports must have received chains (on main: curl and iperf3 failed over both underlays).
# HTTP server: /usr/bin/python3 -m http.server in the VTEP namespace; xsk-tunnel on CPU 1.
TAG=ck
BED_TX_CSUM=on # the senders' defaults: TX checksum offload on
. "$(dirname "$0")/tunnel_lib.sh"
# MTU 9000: chains of buffers, natively (no other path forwards these frames)
[ "${1:-1500}" = 9000 ] && require_feature xsk_sg frags
for c in curl iperf3; do
	command -v $c >/dev/null || { echo "SKIP: $c missing (scripts/deps.sh)"; exit 77; }
done
MTU=${1:-1500}
case $MTU in
1500) tun_bed_up ;;
9000) tun_bed_up 8950 9000 ;;
*) fail "usage: test_csum_tunnel.sh [1500|9000]" ;;
esac
for d in "$NS_H h0" "$NS_V v0" "$NS_V vx0" "$NS_V vx6"; do
	read -r ns dev <<<"$d"
	[[ $(ip netns exec $ns ethtool -k $dev | awk '/^tx-checksumming:/ {print $2}') == on ]] ||
		fail "$ns/$dev: the default TX checksum offload is not on"
done
write_config "$WORK/tun.conf"

mkdir "$WORK/www"
head -c 3000000 /dev/urandom >"$WORK/www/blob"
want=$(sha256sum <"$WORK/www/blob" | cut -d' ' -f1)
http_up() { ip netns exec "$NS_V" ss -ltn | grep -q ":8000 "; }
ip netns exec "$NS_V" taskset -c 0 $PY -m http.server 8000 --directory "$WORK/www" \
	>"$WORK/http.log" 2>&1 &
HTTP_PID=$!
wait_for "HTTP server in $NS_V" http_up

# get ADDR: download the blob from ADDR into $WORK/got; curl gives up when it cannot connect
# in 4 s or the transfer stalls (below 1 byte/s for 10 s)
get() {
	rm -f "$WORK/got"
	ip netns exec "$NS_H" taskset -c 0 curl -sS --connect-timeout 4 --speed-limit 1 \
		--speed-time 10 -o "$WORK/got" "http://$1:8000/blob" 2>"$WORK/curl.err"
}
iperf_up() { ip netns exec "$NS_V" ss -ltn | grep -q "$1:5201 "; }
# upload ADDR: iperf3 from the access host to a one-off server at ADDR; prints the bytes the
# server received. Both ends give up when the data stalls for 10 s.
upload() {
	local s
	ip netns exec "$NS_V" taskset -c 0 iperf3 -s -1 -B "$1" --rcv-timeout 10000 \
		>"$WORK/iperf-s.log" 2>&1 &
	s=$!
	wait_for "iperf3 server at $1" iperf_up "$1"
	ip netns exec "$NS_H" taskset -c 0 iperf3 -c "$1" -n 20M --connect-timeout 4000 \
		--snd-timeout 10000 -J >"$WORK/iperf.json" 2>&1 || true
	wait $s 2>/dev/null || true
	$PY -c 'import json,sys; j=json.load(open(sys.argv[1]))
print(j["error"] if "error" in j else j["end"]["sum_received"]["bytes"])' "$WORK/iperf.json"
}

# without the repair: the inner checksums stay unfinished, the first segment is dropped
app_start --config "$WORK/tun.conf" --cpus 1
if get 192.0.2.2; then
	fail "curl through the tunnel worked without --csum-repair: the bed does not show the problem"
fi
ok "without --csum-repair: curl: $(head -c 100 "$WORK/curl.err")"
app_stop

app_start --config "$WORK/tun.conf" --cpus 1 --csum-repair
for addr in 192.0.2.2 203.0.113.2; do
	get $addr || fail "curl from $addr with --csum-repair (MTU $MTU): $(cat "$WORK/curl.err")"
	got=$(sha256sum <"$WORK/got" | cut -d' ' -f1)
	[[ $got == "$want" ]] || fail "from $addr: sha256 $got, expected $want"
	ok "with --csum-repair: 3000000 bytes from $addr through decap, sha256 matched"
	bytes=$(upload $addr)
	[[ $bytes =~ ^[0-9]+$ && $bytes -gt 0 ]] ||
		fail "iperf3 to $addr with --csum-repair (MTU $MTU): $bytes"
	ok "with --csum-repair: iperf3 moved $bytes bytes to $addr through encap"
done
app_stop
# qsum KEY PORT: a per-queue member of the JSON, summed over PORT's queues
qsum() {
	$PY -c 'import json,sys; print(sum(eval("q" + sys.argv[2]) for q in json.load(open(sys.argv[1]))["queues"] if q["port"] == sys.argv[3]))' \
		"$WORK/app.json" "$1" "$2"
}
rep=$(qsum '["csum"]["repaired"]' ta)
[[ $rep -gt 0 ]] || fail "no checksum finished on ta (the access host's segments)"
ok "checksums finished on ta (encap direction): $rep"
# what the framework finished on the underlay: outer UDP/IPv6 checksums the VTEP left
# unfinished (few: with an unfinished inner checksum the kernel completes the outer one, LCO)
echo "note: outer checksums finished on tu: $(qsum '["csum"]["repaired"]' tu)"
if [[ $MTU == 9000 ]]; then
	ca=$(qsum '["chains"]["rx"]' ta) cu=$(qsum '["chains"]["rx"]' tu)
	[[ $ca -gt 0 && $cu -gt 0 ]] || fail "chains received: ta $ca, tu $cu: the bed made no chain"
	ok "MTU 8950/9000: ta received $ca chains, tu $cu"
fi
kill $HTTP_PID 2>/dev/null
wait $HTTP_PID 2>/dev/null || true # SIGTERM: 143
exit 0

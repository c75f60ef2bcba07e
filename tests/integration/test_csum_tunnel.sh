#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# curl through xsk-tunnel's decap direction against the kernel's VXLAN device with default
# offloads (issue 17, point 2). The VTEP namespace keeps veth's and VXLAN's TX checksum
# offload (their default), so the frames inside its VXLAN packets carry unfinished TCP
# checksums (and over IPv6 the outer UDP checksum is unfinished too); the access host finishes
# its own (tx off), so only the decap direction is at stake.
#  - without --csum-repair: curl cannot connect (the server's SYN-ACK reaches the access host
#    with a bad checksum);
#  - with it: xsk-tunnel finishes the inner checksums after decap (xskf_pkt__csum_finish()),
#    and a 3 MB download over the IPv4 underlay (VNI 100) and the IPv6 one (VNI 200) matches
#    its sha256.
# HTTP server: /usr/bin/python3 -m http.server in the VTEP namespace; xsk-tunnel on CPU 1.
TAG=ck
. "$(dirname "$0")/tunnel_lib.sh"
command -v curl >/dev/null || { echo "SKIP: curl missing (scripts/deps.sh)"; exit 77; }

tun_bed_up
# back to the defaults where the server is: the VTEP's underlay and its VXLAN devices
ip netns exec "$NS_V" ethtool -K v0 tx on >/dev/null
for d in vx0 vx6; do ip netns exec "$NS_V" ethtool -K $d tx on >/dev/null; done
write_config "$WORK/tun.conf"

mkdir "$WORK/www"
head -c 3000000 /dev/urandom >"$WORK/www/blob"
want=$(sha256sum <"$WORK/www/blob" | cut -d' ' -f1)
http_up() { ip netns exec "$NS_V" ss -ltn | grep -q ":8000 "; }
ip netns exec "$NS_V" taskset -c 0 $PY -m http.server 8000 --directory "$WORK/www" \
	>"$WORK/http.log" 2>&1 &
HTTP_PID=$!
wait_for "HTTP server in $NS_V" http_up

# get ADDR: download the blob from ADDR into $WORK/got, bounded by curl's own timeouts
get() {
	rm -f "$WORK/got"
	ip netns exec "$NS_H" taskset -c 0 curl -sS --connect-timeout 4 --max-time 60 \
		-o "$WORK/got" "http://$1:8000/blob" 2>"$WORK/curl.err"
}

# without the repair: the inner checksums stay unfinished, the access host drops the SYN-ACK
app_start --config "$WORK/tun.conf" --cpus 1
if get 192.0.2.2; then
	fail "curl through the decap direction worked without --csum-repair: the bed does not show the problem"
fi
ok "without --csum-repair: curl: $(head -c 100 "$WORK/curl.err")"
app_stop

app_start --config "$WORK/tun.conf" --cpus 1 --csum-repair
for addr in 192.0.2.2 203.0.113.2; do
	get $addr || fail "curl from $addr with --csum-repair: $(cat "$WORK/curl.err")"
	got=$(sha256sum <"$WORK/got" | cut -d' ' -f1)
	[[ $got == "$want" ]] || fail "from $addr: sha256 $got, expected $want"
	ok "with --csum-repair: 3000000 bytes from $addr through decap, sha256 matched"
done
app_stop
# what the framework finished on the underlay: outer UDP/IPv6 checksums the VTEP left
# unfinished (few: with an unfinished inner checksum the kernel completes the outer one, LCO)
rep=$($PY -c 'import json,sys; print(sum(q["csum"]["repaired"] for q in json.load(open(sys.argv[1]))["queues"] if q["port"] == "tu"))' "$WORK/app.json")
echo "note: outer checksums finished on tu: $rep"
kill $HTTP_PID 2>/dev/null
wait $HTTP_PID 2>/dev/null || true # SIGTERM: 143
exit 0

# SPDX-License-Identifier: BSD-2-Clause
# The served-queue tests' bed, serving run and traffic (sourced by test_serve.sh,
# test_serve_dpdk.sh and test_container.sh after lib.sh): frames from the generator namespace
# to the dut's veth, whose RX queue is the sending CPU. Every send is paced by the receiver's
# count, never by the machine's speed.

# the served app of these tests: an AF_XDP socket on the XSKMAP it is given (xsk_client.c)
CLIENT=$B/tests/integration/xskf-xsk-client
need_client() { [ -x "$CLIENT" ] || fail "no $CLIENT (ninja -C build)"; }

send() { # send N DPORT CPU: exactly N frames to DPORT, arriving on queue CPU (veth)
	gen "$GEN" -i "$TB_IF_GEN" -n "$1" --dport "$2" --cpus "$3" --rate 100000 --resend --json \
		>"$out/gen.json" || fail "generator"
	sent_is "$out/gen.json" "$1"
}
# send_q1 N CMD...: N frames (a multiple of 500) to UDP 5000 arriving on queue 1, 500 at a time,
# each call once CMD counts every frame before it: no ring overflows however slow the machine
send_q1() {
	local n=$1 sent=0 base
	shift
	base=$("$@") || base=0
	while [ $sent -lt "$n" ]; do
		send 500 5000 1
		sent=$((sent + 500))
		wait_for "$((base + sent)) frames on queue 1" ge "$@" $((base + sent))
	done
}
# send_q0 PID N: N frames to UDP 5000 on queue 0, paced by the run PID's count (gen_paced)
send_q0() { gen_paced "$1" "$2" 500 --dport 5000 --cpus 0 --rate 100000 --json; }

# serve_bed_up PREFIX: the veth bed ($out), a control folder of the test's own (XSKF_CTL_DIR)
# and a bpffs of its own at $BPF (`ip netns exec` remounts /sys, not this folder); PINS is
# where --pin-dir "$BPF/xskf" pins the dut's maps. Frames no rule takes go to the stack, so
# the sender finishes its checksums.
serve_bed_up() {
	tb_up_out "$1"
	export XSKF_CTL_DIR
	XSKF_CTL_DIR=$(mktemp -d)
	# after the bed's clean-up: a run still stopping makes its control folder again (ctl.c)
	at_exit_last 'rm -rf "$XSKF_CTL_DIR"'
	BPF=$(mktemp -d)
	mount -t bpf bpf "$BPF" || skip "cannot mount a bpffs"
	at_exit 'umount -l "$BPF"; rmdir "$BPF"'
	PINS=$BPF/xskf/$TB_IF_DUT
	gen ethtool -K "$TB_IF_GEN" tx off >/dev/null
}

# serve_start NAME pinned|uds SOCK [ARG...]: the serving run, xsk-rxdrop on queue 0 with queue 1
# served and a rule sending UDP 5000 to the sockets; its maps pinned under $BPF/xskf (pinned;
# SOCK unused, give '') or given by the device-plugin socket SOCK (uds); ARGs added to its
# command line (--pin-group nogroup); output in $out/NAME.json and NAME.err. Sets PID once the
# program is attached, the control socket answers and the run has said where its maps are.
serve_start() {
	local name=$1 how=$2 sock=$3 args ready
	shift 3
	case $how in
	pinned) args=(--pin-dir "$BPF/xskf") ready="maps pinned in $PINS" ;;
	uds) args=(--serve-uds "$sock") ready="device-plugin socket $sock" ;;
	*) fail "serve_start: '$how' is neither pinned nor uds" ;;
	esac
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 --serve 1 "${args[@]}" "$@" \
		--cpus 1 --json --steer "udp dport 5000 xsk" >"$out/$name.json" 2>"$out/$name.err" &
	PID=$!
	wait_attached
	wait_for "control socket of pid $PID" ctl_up "$PID"
	wait_line "$out/$name.err" "$ready"
}

# unpriv_bpf_refused: one line saying why a served client without capabilities cannot use its
# queue on this kernel, which refuses every bpf() command to a process without CAP_BPF (before
# Linux 6.5, with Debian's kernel.unprivileged_bpf_disabled): xskf's probe table (bpf_nocap),
# not a version; status 1 where such a client can use the maps it is given (or the probe is
# only forced off)
unpriv_bpf_refused() {
	"$B/apps/xskf" features --json 2>/dev/null | $PY -c '
import json, sys
for f in json.load(sys.stdin)["features"]:
    if f["feature"] == "bpf_nocap" and not f["works"] and not f.get("forced_off"):
        print("this kernel refuses bpf() to a process without CAP_BPF (bpf_nocap: %s; Linux 6.5+ "
              "or kernel.unprivileged_bpf_disabled 0 allow it): a served client without "
              "capabilities cannot use its queue here" % f["error"])
        sys.exit(0)
sys.exit(1)'
}

# client_state: at a failure, where each xskf-xsk-client still running waits (its state,
# wchan and kernel stack: in the lab's 7.3 guest a client said neither "ready" nor an error)
client_state() {
	local p
	# the client the test started (CLIENT_PID), gone: its exit status (128 + N: signal N)
	if [ -n "${CLIENT_PID:-}" ] && ! kill -0 "$CLIENT_PID" 2>/dev/null; then
		wait "$CLIENT_PID"
		echo "client pid $CLIENT_PID exited with status $?"
	fi
	for p in $(pgrep -f xskf-xsk-client); do
		echo "client pid $p: $(grep '^State' /proc/$p/status 2>/dev/null) wchan $(cat /proc/$p/wchan 2>/dev/null)"
		cat /proc/$p/stack 2>/dev/null | head -12
	done
}
FAIL_HOOKS+=(client_state)

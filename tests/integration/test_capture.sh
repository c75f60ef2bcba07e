#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Live capture (xskfctl capture, docs/operations.md) on the veth bed, one case per run:
#   frames      N frames sent with scapy from the generator namespace while `xskfctl capture
#               -c N --rx` runs against xskf run rxdrop on the dut: the pcapng holds exactly N
#               frames, tshark and tcpdump read it, and every frame's bytes are one of those
#               sent (all of them, each once); -w - into tcpdump works too
#   second      a second capture while one runs: refused in one line, exit 1; the first one,
#               interrupted (SIGINT), leaves a pcapng that tshark reads, exit 0, with its
#               interface statistics block (capinfos) and the drop count said
#   client-gone a capture client stopped (SIGSTOP, it reads nothing) while frames come: the
#               run receives all of them (the data path never waits for it); the client
#               killed: a new capture is served
#   run-exits   the run ends (SIGINT) in the middle of a capture of -c 1000000: xskfctl
#               says how many of them it got, exit 1, and the file is readable pcapng
#   disk-full   -w into a full file system (a tmpfs of 4 KiB): one line (No space left on
#               device), exit 1; the run goes on and serves the next capture
#   file        -w where root must not write: a symlink (its target untouched), a FIFO, a
#               folder, a file with two hard links, a file of another user: each refused in one
#               line naming it and the fix, exit 1, before the run is asked (a capture going on
#               does not answer first); a regular file of ours is replaced; --rx --tx is both;
#               the file is 0600 whatever the umask, or --mode's (octal), a bad --mode refused
# Root (the veth bed, the control folder); exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
case_name=${1:?case}
tb_up_out "xc$$"
export XSKF_CTL_DIR=$out/ctl

# run_dut ARGS...: xskf run rxdrop on the dut's interface in the background; its pid in $RUN
run_dut() {
	ip netns exec "$TB_NS_DUT" "$XSKF" run rxdrop -i "$TB_IF_DUT" --cpus 1 --quiet "$@" \
		>/dev/null 2>"$out/run.err" </dev/null &
	RUN=$!
	at_exit "kill -INT $RUN 2>/dev/null; wait $RUN 2>/dev/null"
	wait_for "control socket of pid $RUN" ctl_up "$RUN"
}

# send N FIRST: N distinct UDP frames (their number in the payload) from the generator side;
# their bytes, one hex line each, into $out/sent.hex
send() {
	gen $PY - "$TB_IF_GEN" "$TB_MAC_GEN" "$TB_MAC_DUT" "$TB_IP4_GEN" "$TB_IP4_DUT" "$1" "$2" \
		>>"$out/sent.hex" <<-'PYEOF' || fail "scapy could not send"
		import sys
		from scapy.all import Ether, IP, UDP, Raw, sendp
		ifc, smac, dmac, sip, dip, n, first = sys.argv[1:8]
		pk = [Ether(src=smac, dst=dmac) / IP(src=sip, dst=dip) / UDP(sport=4000, dport=9) /
		      Raw(b"xskf-capture %08d " % i + bytes(range(40))) for i in range(int(first), int(first) + int(n))]
		sendp(pk, iface=ifc, verbose=0)
		for p in pk:
		    print(bytes(p).hex())
	PYEOF
}

# pcap_frames FILE: the frames tshark reads in FILE
tshark_n() { tshark -r "$1" 2>/dev/null | wc -l; }

# isb FILE: capinfos reads FILE whole, and it has the interface statistics block (the drops)
isb() {
	capinfos "$1" >"$out/capinfos" 2>&1 || fail "capinfos cannot read $1: $(cat "$out/capinfos")"
	grep -q "Number of stat entries = 1$" "$out/capinfos" ||
		fail "$1 has no interface statistics block: $(cat "$out/capinfos")"
}

case $case_name in
frames)
	n=300
	run_dut
	"$CTL" capture -c $n --rx -w "$out/c.pcapng" 2>"$out/cap.err" &
	cap=$!
	wait_line "$out/cap.err" "capturing"
	send 150 0
	send 150 150
	wait "$cap" || { cat "$out/cap.err"; fail "capture: exit $?"; }
	cat "$out/cap.err"
	grep -q "^xskfctl: $n frames captured into $out/c.pcapng, 0 dropped" "$out/cap.err" || fail "summary"
	isb "$out/c.pcapng"
	[ "$(tshark_n "$out/c.pcapng")" = $n ] || fail "tshark reads $(tshark_n "$out/c.pcapng") frames, not $n"
	[ "$(tcpdump -r "$out/c.pcapng" -nn 2>/dev/null | wc -l)" = $n ] || fail "tcpdump does not read $n frames"
	# every frame as sent: scapy reads the pcapng, the same bytes (a multiset: 2 queues)
	$PY - "$out/c.pcapng" "$out/sent.hex" <<-'PYEOF' || fail "captured bytes differ from those sent"
		import sys
		from scapy.utils import PcapNgReader
		got = sorted(bytes(p).hex() for p in PcapNgReader(sys.argv[1]))
		sent = sorted(l.strip() for l in open(sys.argv[2]))
		if got != sent:
		    sys.exit(f"{len(got)} frames captured, {len(sent)} sent, "
		             f"{len(set(got) - set(sent))} captured that were not sent")
	PYEOF
	tshark -r "$out/c.pcapng" -T fields -e frame.comment -e pkt_comment -e frame.p2p_dir -c 1 2>/dev/null | head -1
	tshark -r "$out/c.pcapng" -V -c 1 2>/dev/null >"$out/tshark-v"
	grep -qE "^ +[.01 ]+ = Direction: Inbound \(0x1\)$" "$out/tshark-v" || { grep -i direction "$out/tshark-v"; fail "no inbound direction flag"; }
	# the hints' comment where hints reach the app (xskf features: no adjust helper, none)
	if [ "$(features_use hints)" = none ]; then
		grep -q "rx_hash=0x" "$out/tshark-v" && fail "an RX hints comment where no hints are carried"
		hc="no hints comments (xskf features: no adjust helper works here)"
	else
		grep -q "rx_hash=0x" "$out/tshark-v" || fail "no RX hints comment"
		hc="hints comments"
	fi
	ok "capture -c $n: $n frames, tshark and tcpdump read them, bytes equal to those sent, inbound flags, $hc"
	# -w - into tcpdump, a snap length
	rm -f "$out/sent.hex"
	"$CTL" capture -c 10 --snaplen 34 -w - 2>"$out/cap2.err" | tcpdump -r - -nn >"$out/td" 2>&1 &
	cap=$!
	wait_line "$out/cap2.err" "capturing"
	send 10 1000
	wait "$cap" || fail "capture -w - | tcpdump"
	[ "$(grep -c 'IP ' "$out/td")" = 10 ] || { cat "$out/td"; fail "tcpdump from a pipe"; }
	grep -q "snapshot length 34" "$out/td" || fail "snap length"
	ok "capture -w - | tcpdump -r -: 10 frames, snapshot length 34"
	;;
second)
	run_dut
	"$CTL" capture -w "$out/a.pcapng" 2>"$out/a.err" &
	a=$!
	wait_line "$out/a.err" "capturing"
	send 20 0
	"$CTL" capture -c 1 -w "$out/b.pcapng" >"$out/b.out" 2>"$out/b.err" && fail "a second capture: exit 0"
	[ "$(wc -l <"$out/b.err")" = 1 ] || fail "not one line: $(cat "$out/b.err")"
	grep -q "^xskfctl: capture: another capture of this run is going on (one at a time): wait for it to end$" "$out/b.err" ||
		fail "second: $(cat "$out/b.err")"
	[ -e "$out/b.pcapng" ] && fail "the refused capture made a file"
	ok "a second capture at once: $(cat "$out/b.err")"
	wait_for "20 frames in the first capture" ge tshark_n "$out/a.pcapng" 20
	kill -INT $a
	wait $a || { cat "$out/a.err"; fail "the interrupted capture: exit $?"; }
	grep -q "20 frames captured into .* (interrupted)" "$out/a.err" || fail "$(cat "$out/a.err")"
	[ "$(tshark_n "$out/a.pcapng")" = 20 ] || fail "the interrupted file"
	# Ctrl-C ends it as -c does: the drop count said, the statistics block in the file
	grep -q "^xskfctl: 20 frames captured into $out/a.pcapng (interrupted), 0 dropped (capture rings full)$" \
		"$out/a.err" || fail "no drop count at Ctrl-C: $(tail -1 "$out/a.err")"
	isb "$out/a.pcapng"
	ok "the first, interrupted: $(tail -1 "$out/a.err")"
	;;
client-gone)
	run_dut
	"$CTL" capture --rx -w "$out/a.pcapng" 2>"$out/a.err" &
	a=$!
	wait_line "$out/a.err" "capturing"
	kill -STOP $a
	base=$(app_seen "$RUN")
	# 3000 frames: more than the ring and the client's socket hold
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --rate 20000 --cpus 0 --resend --json >"$out/gen.json" || fail "generator"
	sent=$(sent_of "$out/gen.json")
	wait_seen "$RUN" $((base + sent))
	ok "a stopped capture client: the run received all $sent frames"
	kill -KILL $a
	wait $a 2>/dev/null
	"$CTL" capture -c 5 -w "$out/b.pcapng" 2>"$out/b.err" &
	b=$!
	wait_line "$out/b.err" "capturing"
	send 5 0
	wait $b || fail "the capture after a killed client: exit $?"
	[ "$(tshark_n "$out/b.pcapng")" = 5 ] || fail "the next capture"
	ok "the client killed: the next capture is served ($(tail -1 "$out/b.err"))"
	;;
run-exits)
	run_dut
	"$CTL" capture -c 1000000 -w "$out/a.pcapng" 2>"$out/a.err" &
	a=$!
	wait_line "$out/a.err" "capturing"
	send 7 0
	wait_for "7 frames in the capture" ge tshark_n "$out/a.pcapng" 7
	kill -INT "$RUN" # the run ends (a stop, a crash would be the same to the client)
	wait $a && fail "a capture cut short by the run's end: exit 0"
	grep -q "^xskfctl: the run ended the capture after 7 of 1000000 frames" "$out/a.err" ||
		fail "$(cat "$out/a.err")"
	[ "$(tshark_n "$out/a.pcapng")" = 7 ] || fail "the file of a capture the run ended"
	ok "the run ends mid-capture: $(tail -1 "$out/a.err")"
	;;
disk-full)
	run_dut
	mkdir "$out/full"
	mount -t tmpfs -o size=4k xskf-full "$out/full" || fail "cannot mount a tmpfs"
	at_exit 'umount "$out/full"'
	dd if=/dev/zero of="$out/full/fill" bs=4k 2>/dev/null # until it is full
	"$CTL" capture -c 5 -w "$out/full/c.pcapng" 2>"$out/a.err" &
	a=$!
	wait_line "$out/a.err" "capturing"
	send 5 0
	wait $a && fail "a full disk: exit 0"
	grep -q "^xskfctl: cannot write $out/full/c.pcapng: No space left on device: the capture stops$" "$out/a.err" ||
		fail "$(cat "$out/a.err")"
	ok "a full disk: $(tail -1 "$out/a.err")"
	"$CTL" capture -c 3 -w "$out/b.pcapng" 2>"$out/b.err" &
	b=$!
	wait_line "$out/b.err" "capturing"
	send 3 100
	wait $b || fail "the capture after a full disk"
	kill -0 "$RUN" || fail "the run ended"
	ok "the run goes on and serves the next capture"
	;;
file)
	run_dut
	# refused EXPECT -w PATH: one line, exit 1, and no capture started on the run
	refused() {
		local c
		"$CTL" capture -c 1 -w "$2" 2>"$out/r.err" &
		c=$!
		wait_for "the refusal of -w $2" gone $c
		wait $c && fail "-w $2 (${1}): exit 0"
		[ "$(wc -l <"$out/r.err")" = 1 ] || fail "-w $2: not one line: $(cat "$out/r.err")"
		grep -qxF "xskfctl: capture: $2 exists and is $1: not written (remove it or choose another path)" "$out/r.err" ||
			fail "-w $2: $(cat "$out/r.err")"
		ok "-w ${2##*/}: $(cat "$out/r.err")"
	}
	echo precious >"$out/victim"
	ln -s "$out/victim" "$out/link.pcapng"
	refused "a symlink" "$out/link.pcapng"
	[ "$(cat "$out/victim")" = precious ] || fail "the symlink's target was written"
	ln -s "$out/none" "$out/dangling.pcapng"
	refused "a symlink" "$out/dangling.pcapng"
	[ -e "$out/none" ] && fail "a dangling symlink's target was created"
	mkfifo "$out/fifo.pcapng"
	refused "a FIFO" "$out/fifo.pcapng"
	mkdir "$out/dir.pcapng"
	refused "a folder" "$out/dir.pcapng"
	echo mine >"$out/own"
	ln "$out/own" "$out/hard.pcapng"
	refused "a file with 2 hard links" "$out/hard.pcapng"
	[ "$(cat "$out/own")" = mine ] || fail "the hard link's inode was written"
	echo theirs >"$out/other.pcapng"
	chown 65534 "$out/other.pcapng"
	refused "owned by uid 65534, not you" "$out/other.pcapng"
	# a regular file of ours: replaced by the capture; --rx --tx: both directions
	echo old >"$out/mine.pcapng"
	"$CTL" capture --rx --tx -c 2 -w "$out/mine.pcapng" 2>"$out/m.err" &
	c=$!
	wait_line "$out/m.err" "capturing"
	grep -q "^xskfctl: capturing every port, 2 sockets, rx and tx, 2 frames$" "$out/m.err" ||
		fail "--rx --tx: $(head -1 "$out/m.err")"
	send 2 0
	wait $c || fail "capture into a file of ours: exit $? ($(cat "$out/m.err"))"
	[ "$(tshark_n "$out/mine.pcapng")" = 2 ] || fail "the replaced file"
	# made 0644 by echo: a capture holds others' traffic, so the file is 0600 now
	[ "$(stat -c %a "$out/mine.pcapng")" = 600 ] || fail "the replaced file's mode: $(stat -c %a "$out/mine.pcapng")"
	ok "a regular file of ours replaced (2 frames, mode 600), --rx --tx captures rx and tx"
	# a new file: 0600 whatever the umask; --mode, octal, when asked; a bad --mode refused
	(umask 000 && exec "$CTL" capture -c 1 -w "$out/new.pcapng" 2>"$out/n.err") &
	c=$!
	wait_line "$out/n.err" "capturing"
	send 1 0
	wait $c || fail "capture into a new file: exit $? ($(cat "$out/n.err"))"
	[ "$(stat -c %a "$out/new.pcapng")" = 600 ] || fail "a new file's mode (umask 000): $(stat -c %a "$out/new.pcapng")"
	"$CTL" capture -c 1 --mode 0640 -w "$out/shared.pcapng" 2>"$out/s.err" &
	c=$!
	wait_line "$out/s.err" "capturing"
	send 1 0
	wait $c || fail "capture --mode 0640: exit $? ($(cat "$out/s.err"))"
	[ "$(stat -c %a "$out/shared.pcapng")" = 640 ] || fail "--mode 0640: $(stat -c %a "$out/shared.pcapng")"
	for m in 0x1ff 888 1777 ''; do
		"$CTL" capture -c 1 --mode "$m" -w "$out/m.pcapng" 2>"$out/m.err" && fail "--mode '$m': exit 0"
		grep -qxF "xskfctl: capture: invalid --mode '$m': octal, 0 to 0777 (default 0600)" "$out/m.err" ||
			fail "--mode '$m': $(cat "$out/m.err")"
		[ -e "$out/m.pcapng" ] && fail "--mode '$m' left a file"
	done
	ok "a new file 0600 (umask 000), --mode 0640 gives 640; $(cat "$out/m.err")"
	# the path is checked before the run is asked: with a capture going on, a bad path is
	# said (not "another capture")
	"$CTL" capture -w "$out/a.pcapng" 2>"$out/a.err" &
	a=$!
	wait_line "$out/a.err" "capturing"
	"$CTL" capture -w "$out/nodir/x.pcapng" 2>"$out/b.err" && fail "-w into no folder: exit 0"
	grep -qxF "xskfctl: cannot write $out/nodir/x.pcapng: No such file or directory" "$out/b.err" ||
		fail "-w into no folder: $(cat "$out/b.err")"
	"$CTL" capture -w "$out/b.pcapng" 2>"$out/b.err" && fail "a second capture: exit 0"
	[ -e "$out/b.pcapng" ] && fail "the refused capture left its file"
	kill -INT $a
	wait $a || fail "the first capture: exit $?"
	ok "the path is checked first: $(cat "$out/b.err")"
	;;
*) fail "unknown case $case_name" ;;
esac

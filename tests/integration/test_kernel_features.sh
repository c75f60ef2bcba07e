#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Features that need a newer kernel than the one running: xskf says in one line which kernel
# each needs and runs without it (docs/kernels.md). The expected line is chosen by the running
# kernel's version, so the same test checks both sides: on this host (6.18) the features work,
# in the kernel lab (lab/vm_lab.sh core) Debian 11's 5.10, 12's 6.1 and 13's 6.12 lack some.
#   - RX metadata kfuncs (6.3): veth's rx_hash from the driver, else "rx hash in software
#     (driver hints need the RX metadata kfuncs of Linux 6.3+)", and the run goes on;
#   - netdev netlink (6.2) and napi-set (6.13): --napi defer/gro-flush per NAPI, else per
#     device through sysfs, the reason in the line, put back at exit;
#   - IRQ suspension (napi-set, 6.13): refused in one line naming the kernel it needs (a mode
#     asked for: the start fails, nothing left attached);
#   - AF_XDP TX metadata (6.8): xsk-txgen --tx-csum says the kernel has none and sends with
#     xskf's software checksums;
#   - multi-buffer AF_XDP (XDP_USE_SG, 6.6): at MTU 9000 the MTU line names the kernel;
#   - SKB mode with a CPUMAP (5.15): -S attaches on every kernel (before 5.15 with steering's
#     CPUMAP made without program slots, said in one line), and a 'cpumap' rule in SKB mode is
#     refused in one line there, taken where the kernel redirects into a CPUMAP in SKB mode.
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
TXGEN=$B/apps/xsk-txgen

# the running kernel as MAJOR*1000+MINOR
kv=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
kge() { [ "$kv" -ge $(($1 * 1000 + $2)) ]; } # kge MAJOR MINOR: the kernel is at least that

# run NAME ARGS...: xsk-rxdrop ARGS on the dut for a second; its messages in $out/NAME.err,
# its exit status in $rc
run() {
	local name=$1
	shift
	dut "$RXDROP" -i "$TB_IF_DUT" -N -c --cpus 1 -d 1 "$@" >"$out/$name.json" 2>"$out/$name.err"
	rc=$?
}
# uses KEY: xskf's own probe table's answer (`xskf features --json`, uses.KEY) on the dut: a
# row forced off by XSKF_FEATURES_OFF reads as the kernel lacking it, its line says forced
uses() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["uses"][sys.argv[2]])' "$out/features.json" "$1"; }
forced() { [[ ${XSKF_FEATURES_OFF:-} =~ (^|,)($1|all)(,|$) ]]; }
# has NAME LINE: the run NAME printed exactly LINE (a whole line)
has() { grep -qxF -- "$2" "$out/$1.err" || { cat "$out/$1.err" >&2; fail "$1: no line '$2'"; }; }

tb_up_out "xk$$"
I=$TB_IF_DUT
dut "$B/apps/xskf" features --json >"$out/features.json" || fail "xskf features --json"

run hints
[ $rc = 0 ] || { cat "$out/hints.err" >&2; fail "hints: exit $rc"; }
if [ "$(uses hints)" = none ]; then
	has hints "xskf: $I: RX hints off (neither adjust helper: the line above): the XDP program writes no meta"
elif forced rx_kfuncs; then
	has hints "xskf: $I: RX hints: packet type and offsets parsed in XDP, rx hash in software (RX metadata kfuncs forced off by XSKF_FEATURES_OFF); read: ptype rx_hash"
elif kge 6 3 && forced netdev_genl; then
	has hints "xskf: $I: RX hints: packet type and offsets parsed in XDP, rx hash in software (the netdev netlink family forced off by XSKF_FEATURES_OFF: the driver's kfuncs unknown); read: ptype rx_hash"
elif kge 6 3; then
	has hints "xskf: $I: RX hints from the driver: rx_hash; packet type and offsets parsed in XDP; read: ptype rx_hash"
else
	has hints "xskf: $I: RX hints: packet type and offsets parsed in XDP, rx hash in software (driver hints need the RX metadata kfuncs of Linux 6.3+); read: ptype rx_hash"
fi
ok "RX metadata kfuncs (6.3): $(grep -o 'RX hints[^;(]*' "$out/hints.err" | head -1), the run went on"

run napi --napi defer=2,gro-flush=200000
[ $rc = 0 ] || { cat "$out/napi.err" >&2; fail "napi: exit $rc"; }
if forced netdev_genl; then
	why="the netdev netlink family forced off by XSKF_FEATURES_OFF"
elif ! kge 6 3; then
	why="the kernel has no netdev netlink family (6.3+)"
elif ! kge 6 13; then
	why="the kernel has no napi-set (6.13+)"
elif forced napi_ids; then
	why="NAPI IDs per queue forced off by XSKF_FEATURES_OFF"
else
	why="its queues name no NAPI (its sockets have no NAPI ID)"
fi
has napi "xskf: --napi: $I set per device through sysfs: $why"
has napi "xskf: --napi: put back $I: napi_defer_hard_irqs 0, gro_flush_timeout 0"
ok "--napi defer,gro-flush per device: $why; put back at exit"

run irq --napi irq-suspend=1000000
[ $rc != 0 ] || fail "--napi irq-suspend: the start did not fail"
if forced netdev_genl; then
	has irq "xskf: --napi irq-suspend=1000000: the netdev netlink family forced off by XSKF_FEATURES_OFF: leave it out"
elif ! kge 6 3; then
	has irq "xskf: --napi irq-suspend=1000000: the kernel has no netdev netlink family (6.13+): leave it out"
elif ! kge 6 13; then
	has irq "xskf: --napi irq-suspend=1000000: the kernel has no napi-set (6.13+): leave it out"
elif forced napi_ids; then
	has irq "xskf: --napi irq-suspend=1000000: IRQ suspension is per NAPI, and NAPI IDs per queue are forced off by XSKF_FEATURES_OFF: leave it out"
else
	has irq "xskf: --napi irq-suspend=1000000: IRQ suspension is per NAPI and needs -B on sockets with a NAPI ID: $I queue 0 (copy mode) has none"
fi
assert_no_xdp "after the refused --napi irq-suspend"
ok "--napi irq-suspend refused in one line (exit $rc): $(grep -o 'irq-suspend=1000000: .*' "$out/irq.err" | head -1)"

# TX metadata: 100 frames from the generator side's veth end (copy mode)
gen timeout 60 "$TXGEN" -i "$TB_IF_GEN" -c --tx-csum --count 100 --quiet --json >"$out/tx.json" 2>"$out/tx.err"
rc=$?
[ $rc = 0 ] || { cat "$out/tx.err" >&2; fail "xsk-txgen --tx-csum: exit $rc"; }
if forced tx_metadata; then
	line=$(grep -F "(AF_XDP TX metadata forced off by XSKF_FEATURES_OFF)" "$out/tx.err")
elif kge 6 8; then
	line=$(grep -F "(copy mode bypasses the qdisc: software pacing)" "$out/tx.err")
else
	line=$(grep -F "(this kernel has no AF_XDP TX metadata: Linux 6.8+)" "$out/tx.err")
fi
[ -n "$line" ] || { cat "$out/tx.err" >&2; fail "xsk-txgen --tx-csum: no TX metadata line for kernel $(uname -r)"; }
[ "$(json_get "$out/tx.json" "d['queues'][0]['tx_packets']")" = 100 ] ||
	fail "xsk-txgen --tx-csum did not send its 100 frames"
ok "AF_XDP TX metadata (6.8): ${line#xskf: }; 100 frames sent"

# multi-buffer AF_XDP: MTU 9000 on the dut
dut ip link set "$I" mtu 9000 || fail "MTU 9000"
run jumbo
[ $rc = 0 ] || { cat "$out/jumbo.err" >&2; fail "jumbo: exit $rc"; }
if kge 6 6 && ! forced xsk_sg; then
	grep -qF "XDP_USE_SG, Linux 6.6+" "$out/jumbo.err" && fail "jumbo: 'needs 6.6' said on $(uname -r)"
	ok "multi-buffer AF_XDP (6.6): available, no line about it"
else
	line=$(grep -F "; this kernel has no multi-buffer AF_XDP (XDP_USE_SG, Linux 6.6+)" "$out/jumbo.err")
	[ -n "$line" ] || { cat "$out/jumbo.err" >&2; fail "jumbo: no line naming 6.6"; }
	ok "multi-buffer AF_XDP (6.6): ${line#xskf: }"
fi

# SKB mode and a CPUMAP: the program attaches (5.10's generic XDP refused a program using a
# CPUMAP with program slots), and a 'cpumap' rule is taken only where SKB mode redirects into one
skb() { # skb NAME ARGS...: xsk-rxdrop -S ARGS for a second; $out/NAME.err, $rc
	local name=$1
	shift
	dut "$RXDROP" -i "$I" -S -c --cpus 1 -d 1 "$@" >"$out/$name.json" 2>"$out/$name.err"
	rc=$?
}
why=""
if forced skb_cpumap; then
	why="forced off by XSKF_FEATURES_OFF"
elif ! kge 5 15; then
	why="needs Linux 5.15"
fi
dut ip link set "$I" mtu 1500 || fail "MTU 1500"
skb skb
[ $rc = 0 ] || { cat "$out/skb.err" >&2; fail "-S: exit $rc"; }
skb skbcpus --steer 'udp dport 5000 cpumap 0'
if [ -n "$why" ]; then
	has skb "xskf: $I: steering's CPUMAP made without program slots: SKB-mode XDP with them ${why/needs Linux 5.15/needs Linux 5.15 (the attach refused it)}; 'cpumap' rules refused in SKB mode"
	[ $rc != 0 ] || fail "-S with a 'cpumap' rule started although SKB mode cannot redirect into a CPUMAP here"
	grep -qF "steer rule 'udp dport 5000 cpumap 0': a CPUMAP in SKB mode $why (skb_cpumap): use native mode" "$out/skbcpus.err" ||
		{ cat "$out/skbcpus.err" >&2; fail "-S with a 'cpumap' rule: no refusal line"; }
	assert_no_xdp "after the refused 'cpumap' rule"
	ok "SKB mode with a CPUMAP (5.15): $why: -S attached with a CPUMAP without program slots; a 'cpumap' rule refused in one line"
else
	! grep -q "without program slots" "$out/skb.err" || fail "-S: the CPUMAP fallback said on $(uname -r)"
	[ $rc = 0 ] || { cat "$out/skbcpus.err" >&2; fail "-S with a 'cpumap' rule: exit $rc"; }
	ok "SKB mode with a CPUMAP (5.15): -S attached, a 'cpumap' rule taken"
fi

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Bad input: each case must give one line naming the problem (and the fix), a non-zero exit
# status that is not a crash, and leave no XDP program behind.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
FOREIGN=${XSKF_FOREIGN_OBJ:?XSKF_FOREIGN_OBJ not set}
tb_up_out "xb$$"
n=0

# expect_fail "what" "regex of the message" args...
expect_fail() {
	local what=$1 re=$2 rc
	shift 2
	ip netns exec "$TB_NS_DUT" "$RXDROP" --duration 1 "$@" >"$out/o" 2>"$out/e"
	rc=$?
	[ $rc != 0 ] || fail "$what: exit status 0"
	[ $rc -lt 128 ] || fail "$what: crashed (status $rc)"
	grep -Eq -- "$re" "$out/e" || { cat "$out/e"; fail "$what: no message matching '$re'"; }
	assert_no_xdp "$what"
	n=$((n + 1))
	ok "$what: $(grep -E -- "$re" "$out/e" | head -1)"
}

expect_fail "unknown interface" "interface 'nosuch0' not found" -i nosuch0
expect_fail "queue out of range" "queue 5 out of range: $TB_IF_DUT has 2 RX queues" -i "$TB_IF_DUT" -q 5
expect_fail "zero-copy on veth" "zero-copy is not supported by this driver" -i "$TB_IF_DUT" -z
expect_fail "zero-copy with SKB mode" "zero-copy needs native XDP" -i "$TB_IF_DUT" -z -S
expect_fail "ring size not a power of two" "RX ring size 1000 is invalid: use a power of two" -i "$TB_IF_DUT" --rx-ring 1000
expect_fail "invalid frame size" "invalid frame size 3000: use 2048 or 4096" -i "$TB_IF_DUT" -f 3000
expect_fail "invalid CPU list" "CPU 4096 in '4096' does not exist" -i "$TB_IF_DUT" --cpus 4096
expect_fail "malformed CPU list" "invalid CPU list '1-x'" -i "$TB_IF_DUT" --cpus 1-x
expect_fail "no interface" "needs 1 to 16 interfaces \(-i IFACE\)" -q 0
expect_fail "unknown option" "xskf: unrecognized option .--bogus.; try .xsk-rxdrop --help." -i "$TB_IF_DUT" --bogus

# No hugepages with --hugepages=require: free the reserved pages for the duration of the case.
hp=$(cat /proc/sys/vm/nr_hugepages)
echo 0 >/proc/sys/vm/nr_hugepages
expect_fail "no hugepages" "no hugepages .* reserve them with" -i "$TB_IF_DUT" --hugepages=require
echo "$hp" >/proc/sys/vm/nr_hugepages

# Not root: an unprivileged user gets a permission message.
if command -v setpriv >/dev/null; then
	ip netns exec "$TB_NS_DUT" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$RXDROP" -i "$TB_IF_DUT" --duration 1 >"$out/o" 2>"$out/e"
	rc=$?
	[ $rc != 0 ] && [ $rc -lt 128 ] || fail "not root: status $rc"
	grep -q "permission denied: AF_XDP and XDP need root" "$out/e" || { cat "$out/e"; fail "not root: message"; }
	assert_no_xdp "not root"
	ok "not root: $(head -1 "$out/e")"
fi

# A foreign XDP program, native then generic: refused (and left in place) with the mode's own
# command to remove it (which must work: 'xdp off' leaves a generic program), then replaced
# with --force, and put back at exit: the same program (id), in the same mode.
for m in xdpdrv xdpgeneric; do
	dut ip link set dev "$TB_IF_DUT" $m obj "$FOREIGN" sec xdp || fail "cannot attach the foreign program ($m)"
	id=$(xdp_attached)
	mode=$([ $m = xdpdrv ] && echo native || echo "generic (SKB)")
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --duration 1 >"$out/o" 2>"$out/e"
	rc=$?
	[ $rc != 0 ] && [ $rc -lt 128 ] || fail "foreign program ($m): status $rc"
	# the default attach, through libxdp's dispatcher: nothing can run beside it (operations.md)
	grep -qF "another XDP program 'foreign_pass' (id $id) holds the interface alone ($mode mode), not through libxdp's dispatcher: xskf cannot run beside it. Load it through the dispatcher" "$out/e" &&
		grep -qF "remove it with 'ip link set dev $TB_IF_DUT $m off', or pass --force" "$out/e" ||
		{ cat "$out/e"; fail "foreign program ($m): message"; }
	[ "$(xdp_attached)" = "$id" ] || fail "the foreign program was touched without --force"
	ok "foreign program refused: $(grep another "$out/e")"
	ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" --duration 1 --force >"$out/o" 2>"$out/e" ||
		{ cat "$out/e"; fail "--force failed ($m)"; }
	grep -qF "replacing foreign XDP program 'foreign_pass' (id $id) ($mode mode, --force); it is put back when xskf exits" "$out/e" ||
		{ cat "$out/e"; fail "--force: message ($m)"; }
	grep -qF "foreign XDP program 'foreign_pass' (id $id) put back ($mode mode)" "$out/e" ||
		{ cat "$out/e"; fail "--force: not put back ($m)"; }
	[ "$(xdp_attached)" = "$id" ] || fail "after --force ($m): program '$(xdp_attached)' attached, not $id"
	dut ip -d link show dev "$TB_IF_DUT" | grep -q "$([ $m = xdpdrv ] && echo 'xdp ' || echo 'xdpgeneric')" ||
		fail "after --force ($m): put back in another mode"
	# the advice of the refusal, followed to the letter
	dut ip link set dev "$TB_IF_DUT" $m off
	assert_no_xdp "after 'ip link set dev $TB_IF_DUT $m off'"
	ok "--force ($mode): replaced, then put back at exit (id $id); '$m off' removes it"
done
# a --pin-dir off a bpffs: refused before anything is made there (issue 44), no program left
pd=$out/notbpf
mkdir "$pd"
ip netns exec "$TB_NS_DUT" "$RXDROP" -i "$TB_IF_DUT" -q 0 --serve 1 --pin-dir "$pd/a/b" --duration 1 \
	>"$out/o" 2>"$out/e" && fail "--pin-dir off a bpffs: exit 0"
grep -qxF "xskf: $TB_IF_DUT: cannot pin the maps: $pd/a/b is not on a bpffs: mount one there ('mount -t bpf bpf /sys/fs/bpf') or give a --pin-dir on one" "$out/e" ||
	{ cat "$out/e"; fail "--pin-dir off a bpffs: message"; }
[ -z "$(ls -A "$pd")" ] || fail "--pin-dir off a bpffs: left $(ls -A "$pd") behind"
assert_no_xdp "after a --pin-dir off a bpffs"
ok "--pin-dir off a bpffs: refused in one line, nothing made, no program left"
echo "$n bad-input cases checked"

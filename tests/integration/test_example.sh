#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The plugin author's kit, as installed: xskf installed into a DESTDIR (`meson install`), with
# its headers, libxskf.pc (and its plugindir), man pages (xskf-plugin(7) too), LICENSE, the
# plugin guide and the two examples. Each example is built from its installed copy against that
# install alone (pkg-config --cflags and plugindir, its own meson.build: C for count-udp, C++
# for count-l3-cxx), links no libxskf, is installed into plugindir by `meson install`, and is
# then run BY NAME by the installed `xskf run` on the veth test bed: 3000 UDP frames counted
# exactly by each (or dropped and counted by the kernel). And count-udp built with the natural
# `dependency('libxskf')` (NEEDED libxskf.so.0), run by path: the same count.
# Root; exit 77 to skip.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
require_root
dest=$(mktemp -d)
at_exit 'rm -rf "$dest"'
export XSKF_CTL_DIR=$dest/ctl

meson install -C "$B" --destdir "$dest/root" --no-rebuild --quiet >"$dest/install.log" 2>&1 ||
	{ cat "$dest/install.log"; fail "meson install into a DESTDIR failed"; }
pc=$(find "$dest/root" -name libxskf.pc | head -1)
xskf=$(find "$dest/root" -path '*/bin/xskf' | head -1)
[ -n "$pc" ] && [ -x "$xskf" ] || fail "no libxskf.pc or bin/xskf in the install"
for h in xskf.h xskf_plugin.h xskf_meta.h xskf_hints.h; do
	find "$dest/root" -name "$h" | grep -q . || fail "$h not installed"
done
ls "$(dirname "$xskf")/../lib/"*/xskf/plugins/rxdrop.so >/dev/null 2>&1 ||
	find "$dest/root" -name rxdrop.so | grep -q plugins || fail "rxdrop.so not in the plugin folder"
if command -v scdoc >/dev/null; then
	for m in xskf xskfctl xsk-rxdrop xsk-l2fwd xsk-tunnel xsk-txgen; do
		find "$dest/root" -path "*/man1/$m.1" | grep -q . || fail "man page $m.1 not installed"
	done
fi
ok "installed: $(realpath --relative-to="$dest/root" "$xskf"), $(realpath --relative-to="$dest/root" "$pc")"

for f in LICENSE plugins.md examples/count-udp/meson.build examples/count-l3-cxx/meson.build \
	examples/count-l3-cxx/count_l3.cc; do
	find "$dest/root" -path "*/doc/xskf/$f" | grep -q . || fail "$f not installed in doc/xskf"
done
if command -v scdoc >/dev/null; then
	find "$dest/root" -path "*/man7/xskf-plugin.7" | grep -q . || fail "xskf-plugin.7 not installed"
fi
ok "the kit: LICENSE, plugins.md, xskf-plugin(7), examples in C and C++"

# The helpers the docs and messages name, as commands: xskf-hugepages, xskf-testbed (with its
# builder and the sink programs), their man pages; no installed guide names a script of the
# tree without the command
bindir=$(dirname "$xskf")
for c in xskf-hugepages xskf-testbed; do
	[ -x "$bindir/$c" ] || fail "$c not installed in $bindir"
	if command -v scdoc >/dev/null; then
		find "$dest/root" -path "*/man1/$c.1" | grep -q . || fail "man page $c.1 not installed"
	fi
done
for f in bed_lib.sh xskf_tb_drop.bpf.o xskf_tb_pass.bpf.o; do
	find "$dest/root" -path "*/share/xskf/$f" | grep -q . || fail "$f not installed in <datadir>/xskf"
done
"$bindir/xskf-hugepages" show >"$dest/hp.out" 2>&1 || { cat "$dest/hp.out"; fail "xskf-hugepages show failed"; }
"$bindir/xskf-hugepages" --help >"$dest/hp.help" 2>&1 # usage: exit 2
grep -q "^  xskf-hugepages reserve SIZE N" "$dest/hp.help" || { cat "$dest/hp.help"; fail "xskf-hugepages --help does not name itself"; }
docdir=$(find "$dest/root" -path "*/doc/xskf" -type d | head -1)
bad=$(grep -n "tools/hugepages\.sh\|tools/testbed\.sh" "$docdir"/*.md | grep -v "xskf-hugepages\|xskf-testbed" || true)
[ -z "$bad" ] || fail "installed guides name a script of the tree, not its command: $bad"
ok "xskf-hugepages and xskf-testbed installed, with man pages, bed_lib.sh and the sink programs"


# Each example from its installed copy: it sees nothing of the source tree, only the install
# through pkg-config. PKG_CONFIG_SYSROOT_DIR puts the DESTDIR in front of plugindir too, so
# `meson install` (no --destdir) lands in the DESTDIR's plugin folder.
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR=$dest/root
PKG_CONFIG_PATH=$(dirname "$pc")
plugindir=$(pkg-config --variable=plugindir libxskf)
[ -d "$plugindir" ] || fail "plugindir $plugindir (pkg-config) is not the install's plugin folder"
for ex in count-udp:count_udp count-l3-cxx:count_l3; do
	src=$(find "$dest/root" -path "*/doc/xskf/examples/${ex%%:*}" -type d | head -1)
	cp -r "$src" "$dest/${ex%%:*}"
	meson setup "$dest/${ex%%:*}/build" "$dest/${ex%%:*}" >"$dest/setup.log" 2>&1 ||
		{ cat "$dest/setup.log"; fail "meson setup of ${ex%%:*} failed"; }
	meson install -C "$dest/${ex%%:*}/build" --quiet >"$dest/build.log" 2>&1 ||
		{ cat "$dest/build.log"; fail "${ex%%:*} does not build or install"; }
	so=$plugindir/${ex#*:}.so
	[ -f "$so" ] || fail "${ex%%:*}: no $so after meson install"
	readelf -d "$so" | grep -q "NEEDED.*libxskf" && fail "${ex%%:*} links libxskf: its meson.build takes the compile flags only"
done
ok "count-udp (C) and count-l3-cxx (C++) built against the install, installed into $(realpath --relative-to="$dest/root" "$plugindir")"

# The natural meson line: `dependency('libxskf')`, libraries and all. The plugin then needs
# libxskf.so.0 (readelf: NEEDED), which must be the runner's own copy once loaded, never a
# second one (issue 32: "cannot allocate memory in static TLS block").
nat=$dest/natural
cp -r "$dest/count-udp" "$nat" && rm -rf "$nat/build"
sed -i "s/xskf.partial_dependency(compile_args: true, includes: true)/xskf/; s|install_dir: .*|install_dir: '$dest/natural-out')|" \
	"$nat/meson.build"
grep -q "dependencies: xskf,$" "$nat/meson.build" || fail "the natural variant's meson.build was not made"
# and a call into the library (xskf_app__verbose()), as a real plugin makes: else the linker's
# --as-needed drops the library
sed -i 's/^\t(void)ctx;$/\t(void)ctx;\n\tif (xskf_app__verbose() > 1)\n\t\treturn -EINVAL;/' "$nat/count_udp.c"
sed -i 's/^#include <string.h>$/#include <errno.h>\n#include <string.h>/' "$nat/count_udp.c"
grep -q "xskf_app__verbose" "$nat/count_udp.c" || fail "the natural variant's call was not added"
meson setup "$nat/build" "$nat" >"$dest/setup.log" 2>&1 && meson install -C "$nat/build" --quiet \
	>"$dest/build.log" 2>&1 || { cat "$dest/setup.log" "$dest/build.log"; fail "the natural build failed"; }
natso=$dest/natural-out/count_udp.so
readelf -d "$natso" | grep -q 'NEEDED.*\[libxskf\.so\.0\]' || fail "the natural build needs no libxskf.so.0"
ok "count_udp built with dependency('libxskf'): it needs libxskf.so.0"

# the bed from the installed xskf-testbed, run from outside the tree
export XSKF_TB="xe$$"
eval "$(cd / && "$bindir/xskf-testbed" up)" || fail "the installed xskf-testbed up failed"
at_exit tb_cleanup
[ -n "${TB_IF_DUT:-}" ] && dut ip link show "$TB_IF_DUT" >/dev/null || fail "xskf-testbed up: no dut interface"
(cd / && "$bindir/xskf-testbed" sink drop) || fail "xskf-testbed sink drop failed"
[ -n "$(xdp_attached)" ] || fail "xskf-testbed sink drop: no XDP program on $TB_IF_DUT"
(cd / && "$bindir/xskf-testbed" sink off) || fail "xskf-testbed sink off failed"
assert_no_xdp "xskf-testbed sink off"
ok "the installed xskf-testbed: the bed up, its sink program on and off"
redirected_since() { echo $(($(q0_xdp) - $1)); }
# run_named NAME PYCHECK: the installed xskf runs the plugin by name; 3000 frames; the check
run_named() {
	local r0 pid
	# the wait below must not read the last run's line before this run truncates the file
	rm -f "$dest/run.err"
	XSKF_PLUGIN_PATH=$plugindir ip netns exec "$TB_NS_DUT" "$xskf" run "$1" -i "$TB_IF_DUT" -q 0 \
		-c --cpus 1 --json --quiet >"$dest/run.json" 2>"$dest/run.err" &
	pid=$!
	wait_line "$dest/run.err" "XDP program attached"
	r0=$(q0_xdp)
	gen "$GEN" -i "$TB_IF_GEN" -n 3000 --cpus 0 --rate 50000 --resend --json >/dev/null || fail "generator"
	wait_for "3000 frames at the XDP program for $1" ge redirected_since "$r0" 3000
	kill -INT $pid
	wait $pid || { cat "$dest/run.err"; fail "the installed xskf exited non-zero with $1"; }
	$PY - "$dest/run.json" "$2" <<'EOPY' || fail "$1: counts"
import json, sys
d = json.load(open(sys.argv[1]))
q = d["queues"][0]
c = d["plugins"][0]["counters"]
kd = q["kernel"]["rx_dropped"] + q["kernel"]["rx_ring_full"]
print(d["plugins"][0]["name"], c, "received", q["rx_packets"], "kernel drops", kd)
sys.exit(0 if eval(sys.argv[2]) else 1)
EOPY
}
# by the names `xskf plugins` lists (the descriptors': count-udp in count_udp.so)
XSKF_PLUGIN_PATH=$plugindir "$xskf" plugins >"$dest/list" 2>&1
for n in count-udp:count_udp count-l3:count_l3; do
	grep -qx "${n%%:*} *$plugindir/${n#*:}.so" "$dest/list" || { cat "$dest/list"; fail "${n%%:*} not listed"; }
done
run_named count-udp 'c["udp"] == q["rx_packets"] and c["udp"] + kd == 3000 and c["other"] == 0'
ok "count-udp (C) by its listed name under the installed xskf: 3000 UDP frames, exactly"
run_named count-l3 'c["ipv4"] == q["rx_packets"] and c["ipv4"] + kd == 3000 and c["ipv6"] == 0 and c["other"] == 0'
ok "count-l3 (C++) by its listed name under the installed xskf: 3000 IPv4 frames, exactly"
run_named "$natso" 'c["udp"] == q["rx_packets"] and c["udp"] + kd == 3000 and c["other"] == 0'
ok "count_udp linked with libxskf.so.0 under the installed xskf: 3000 UDP frames, exactly"

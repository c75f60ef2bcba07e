#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The kernel lab: Debian's own kernels booted under QEMU (TCG: no KVM needed), xskf run inside
# on emulated NICs with real drivers, frames sent from the host side of their taps. Everything
# comes from Debian's mirror through apt: the guest kernels (linux-image-amd64 of bullseye,
# bookworm, trixie and trixie-backports), a bookworm root filesystem (debootstrap) with xskf's runtime
# libraries, busybox for the initramfs. The build folder is shared read-only with the guest
# over 9p; results (exit codes, --json, logs) come back over a second 9p folder, the host's
# messages to the guest (frames sent, done) go over a third, read-only to the guest; the host
# reads the guest's files as data only (lab/parse.sh). The igb NIC
# needs QEMU 8+ (bookworm has 7.2): trixie's QEMU 10 runs from a trixie root filesystem made
# once in the cache (lab/igb.sh).
#
#   lab/vm_lab.sh [--kernel 5.10|6.1|6.12|7]... [--all | --suite] [--nic virtio|igb]...
#                     [--build DIR] [--keep] [TEST]...
#     --kernel K   boot this kernel (repeatable; default 7): 5.10 (Debian 11, bullseye), 6.1
#                  (Debian 12), 6.12 (Debian 13), 7 (trixie-backports)
#     --all        every kernel (with no TEST: every test, the full list; zc: its long part too)
#     --suite      the test suite's run (meson's 'lab' suite, scripts/test.sh): every kernel,
#                  `load` on every kernel, `rxdrop zerocopy zc` on 7.x with virtio-net,
#                  `zerocopy linkreset faults` on 7.x with igb (`features`, `core`, `citizen`:
#                  --all; citizen's five took 6.5-11 min a boot here)
#     --nic N      boot with this NIC (repeatable; default: virtio on every kernel, and igb
#                  too on 7.x): virtio (virtio-net, 2 queue pairs, QEMU 7.2) or igb (2 queues,
#                  QEMU 10); each NIC is a boot of its own
#     --build DIR  xskf's build folder (default: build)
#     --keep       keep the run folder (default: kept only when a test failed)
#     TEST         tests to run (default: every test the kernel and NIC can run):
#                    load      the XDP program loads and attaches natively (without and with
#                              hints, with a steering rule) and in SKB mode (virtio)
#                    rxdrop    copy-mode xsk-rxdrop on 2 queues: every frame sent from the
#                              host side counted, exactly, reconciled; sent a phase per queue
#                              with the RSS indirection table pinned to it (ethtool -X), each
#                              queue exactly its phase's frames
#                    rxalone   the same attached alone (--attach alone; the guest has a bpffs,
#                              so the others go through libxdp's dispatcher): the control
#                              thread still reads the program's counters after it dropped its
#                              capabilities (5.10 refuses bpf() without CAP_BPF)
#                    zerocopy  the same in zero-copy (-z; kernel 7.x only: 6.12's virtio-net
#                              refuses it with EOPNOTSUPP, igb has it since 6.14)
#                    zc        the zero-copy list (kernel 7.x; lab/zc.sh), each in
#                              zero-copy and in copy mode: l2fwd (eth0 to eth1), txgen and
#                              tunnel (against a kernel VXLAN); with --all also macswap, jumbo,
#                              wakeup (need_wakeup on and off), busypoll (-B), napi (--napi),
#                              hints, txmeta (--tx-csum) and steer (host traffic kept); each
#                              can be named alone; on 5.10 (no zero-copy on its virtio-net)
#                              copy mode only, l2fwd, txgen and tunnel (--all too)
#                    linkreset (igb) igb resets its link at the attach: frames sent as soon as
#                              xsk-rxdrop is up all arrive, and xskf says it waited (zero-copy
#                              and copy mode)
#                    flowhash  (igb) UDP hashed by ports too (ethtool -N rx-flow-hash udp4 sdfn):
#                              frames from one source address in 16 flows, all counted, their
#                              split over the queues shown (it depends on igb's boot key)
#                    xdprefuse (igb) the driver refuses native XDP at MTU 9000: xskf says its
#                              reason in one line, exits 1, leaves nothing
#                    faults    (igb) link down and up under a running xsk-rxdrop, then a queue
#                              count change (ethtool -L): xskf says each in one line and counts
#                              every frame sent after it
#                    citizen   xsk-rxdrop beside xdp-filter (Debian's xdp-tools, the host's
#                              binaries) through libxdp's dispatcher, each started first;
#                              every frame either dropped by the filter or counted by xskf,
#                              each detached alone; two runs (queue 0, queue 1) sharing one
#                              component beside the filter; the dispatcher's cost per frame
#                              (bench-xdp-prog: TCG ratios) (kernel 7.x; lab/citizen.sh)
#                    core      the copy-mode core integration tests (tests/integration: the
#                              demo, rxdrop, l2fwd, steering, software hints, serving, the
#                              hostile clients) run in the guest on their own veth beds
#                              (lab/core.sh)
#                    features  two of core's: the kernel-feature lines and the verifier log
#                    doctor    (kernel 7.x) xskf doctor and xskfctl doctor on real drivers:
#                              each fault made on purpose named in one line, a healthy
#                              setup "no problem found" (lab/doctor.sh); igb:
#                              RSS table, ntuple rule, rx-flow-hash, MAC filter, IRQ CPU,
#                              SKB mode; virtio: unbound queue, foreign program, -B, a
#                              slow app starving the fill ring (copy mode and zero-copy),
#                              a UMEM too small for the fill ring
#                  (XSKF_LAB_CORE="NAME..." runs only those of core's list, e.g. "demo")
#                  (XSKF_LAB_DOCTOR="NAME..." only those of doctor's, e.g. "dr-rss dr-irq")
#
# The cache (XSKF_LAB_CACHE, default /var/cache/xskf-lab) keeps the apt lists, the kernels (by
# package version) and the root filesystem (rebuilt when the host's xskf runtime libraries
# change version: the guest runs the binaries built on this host). Exit: 0 all passed, 1 a
# test failed, 77 this machine cannot run the lab (one line says why), 2 bad usage.
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${XSKF_LAB_CACHE:-/var/cache/xskf-lab}
MIRROR=${XSKF_LAB_MIRROR:-http://deb.debian.org/debian}
BUILD=$SRC/build
KERNELS=()
TESTS=()
KEEP=0
NICS=()
LAB_ALL=0 # --all: also the long part of the zero-copy list (lab/zc.sh)
ALL_TESTS="load rxdrop rxalone zerocopy linkreset faults flowhash xdprefuse zc citizen core doctor"
SUITE=0
# suite_tests K NIC: the suite's tests on kernel K with NIC (under 15 minutes in all on a
# 2-CPU machine)
suite_tests() {
	case $1/$2 in
	7/virtio) echo load rxdrop zerocopy zc ;;
	7/igb) echo zerocopy linkreset faults ;;
	*) echo load ;;
	esac
}

usage() { sed -n '/^#   lab\/vm_lab.sh/,/^#$/p' "$0" | sed 's/^# \{0,1\}//'; }
skip() { echo "vm-lab: skipped: $*"; exit 77; }
die() { echo "vm-lab: $*" >&2; exit 1; }
log() { echo "vm-lab: $*"; }
# What an interrupted or failed run must not leave (cleanup() below, on every exit, Ctrl-C
# too): the temporary folders of a kernel or an initramfs being made, a root filesystem
# half made, and the proc mounted in the root filesystem while apt-get runs there.
LAB_TMPS=()
LAB_MOUNTS=()
lab_leftovers() {
	local m
	for m in "${LAB_MOUNTS[@]}"; do
		! mountpoint -q "$m" 2>/dev/null || umount -l "$m"
	done
	[ ${#LAB_TMPS[@]} = 0 ] || rm -rf -- "${LAB_TMPS[@]}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernel)
		case ${2:-} in
		5.10 | 6.1 | 6.12 | 7) KERNELS+=("$2") ;;
		*) echo "vm-lab: --kernel takes 5.10, 6.1, 6.12 or 7, not '${2:-}'" >&2; exit 2 ;;
		esac
		shift
		;;
	--all) KERNELS=(5.10 6.1 6.12 7) LAB_ALL=1 ;;
	--suite)
		# 5.10: `load` only (a boot and four loads: 2.2 min beside other work here), which guards
		# its refusal of the program (docs/kernels.md)
		KERNELS=(5.10 6.1 6.12 7)
		SUITE=1
		;;
	--nic)
		case ${2:-} in
		virtio | igb) NICS+=("$2") ;;
		*) echo "vm-lab: --nic takes virtio or igb, not '${2:-}'" >&2; exit 2 ;;
		esac
		shift
		;;
	--build)
		BUILD=$(cd "${2:-}" 2>/dev/null && pwd) || { echo "vm-lab: no build folder '${2:-}'" >&2; exit 2; }
		shift
		;;
	--keep) KEEP=1 ;;
	-h | --help) usage; exit 0 ;;
	load | rxdrop | rxalone | zerocopy | linkreset | faults | flowhash | xdprefuse | core | features | citizen | zc | doctor | l2fwd | \
		macswap | txgen | tunnel | jumbo | wakeup | busypoll | napi | hints | txmeta | steer)
		TESTS+=("$1") ;;
	*) echo "vm-lab: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(7)

# What this machine must offer, each refused in one line.
[ "$(id -u)" = 0 ] || skip "needs root (taps in a network namespace, debootstrap)"
[ "$(uname -m)" = x86_64 ] || skip "the guest kernels are Debian's amd64 ones; this machine is $(uname -m)"
for c in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static debootstrap:debootstrap \
	cpio:cpio xz:xz-utils zstd:zstd strings:binutils flock:util-linux file:file apt-get:apt dpkg-deb:dpkg; do
	command -v "${c%%:*}" >/dev/null || skip "no ${c%%:*} (apt-get install ${c#*:})"
done
file -L "$(command -v busybox)" 2>/dev/null | grep -q 'statically linked' ||
	skip "busybox is not the static one (apt-get install busybox-static)"
[ -x "$BUILD/apps/xsk-rxdrop" ] || skip "no xskf build in $BUILD (meson setup build && ninja -C build)"
[ -e /dev/net/tun ] || skip "no /dev/net/tun (the guest's NICs are taps)"

mkdir -p "$CACHE" || skip "cannot make the cache folder $CACHE"
exec 9>"$CACHE/.lock"
flock -w 1800 9 || die "the cache $CACHE stays locked by another vm-lab run"

# apt with its own lists in the cache: the host's sources and state are left alone.
APT_DIR=$CACHE/apt
apt_opts() {
	echo -o Dir::Etc="$APT_DIR/etc" -o Dir::Etc::SourceList="$APT_DIR/etc/sources.list" \
		-o Dir::Etc::SourceParts="$APT_DIR/etc/sources.list.d" \
		-o Dir::Etc::Preferences="$APT_DIR/etc/preferences" \
		-o Dir::Etc::PreferencesParts="$APT_DIR/etc/preferences.d" \
		-o Dir::State="$APT_DIR/state" -o Dir::State::status="$APT_DIR/state/status" \
		-o Dir::Cache="$APT_DIR/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root \
		-o Dir::Cache::pkgcache="$APT_DIR/cache/pkgcache.bin" \
		-o Dir::Cache::srcpkgcache="$APT_DIR/cache/srcpkgcache.bin"
}
# (the package caches named: without them, as on a host whose apt.conf.d turns them off,
# each apt-cache call parses every list again, 40-60 s on a loaded 2-CPU machine, about ten
# calls a run; with them 1 s)
lab_apt() { apt-get $(apt_opts) "$@"; }
lab_apt_cache() { apt-cache $(apt_opts) "$@"; }

apt_update() {
	local key=/usr/share/keyrings/debian-archive-keyring.gpg s
	mkdir -p "$APT_DIR"/etc/{sources.list.d,preferences.d} "$APT_DIR"/state/lists/partial \
		"$APT_DIR"/cache/archives/partial
	touch "$APT_DIR/state/status"
	local list=$APT_DIR/etc/sources.list fresh
	{
		for s in bullseye bookworm bookworm-updates trixie trixie-backports; do
			echo "deb [signed-by=$key] $MIRROR $s main"
		done
		echo "deb [signed-by=$key] ${MIRROR%/debian}/debian-security bookworm-security main"
	} >"$list.new"
	# once an hour at most: the lists say which kernel is current; at once when the sources
	# changed (a cache made before bullseye was added has no list of it)
	fresh=$(find "$APT_DIR/state/lists" -name '*Packages' -mmin -60 2>/dev/null | head -1)
	cmp -s "$list.new" "$list" || fresh=
	mv "$list.new" "$list"
	if [ -z "$fresh" ]; then
		# apt-get update exits 0 when it could not fetch a list ("W: Failed to fetch")
		if ! lab_apt -q update >"$CACHE/apt-update.log" 2>&1 ||
			grep -q '^\(E:\|W: Failed to fetch\|Err:\)' "$CACHE/apt-update.log"; then
			local why
			why=$(grep -m1 '^\(E:\|W: Failed\|Err:\)' "$CACHE/apt-update.log")
			ls -d "$CACHE"/kernel-* "$CACHE/rootfs/lab" >/dev/null 2>&1 ||
				skip "Debian's mirror $MIRROR is not reachable (apt-get update: $why)"
			log "apt-get update failed ($why): using the cached kernels and root filesystem"
			NO_MIRROR=1
		fi
	fi
}

# madison P: apt-cache madison's lines of package P, from one call for every package the lab
# looks up (MADISON, read once a run by madison_load): each apt-cache call reads the lists of
# all five suites, 30-60 s on a loaded machine
MADISON=
madison_load() {
	MADISON=$(lab_apt_cache madison linux-image-amd64 qemu-system-x86 $ROOT_PKGS 2>/dev/null)
}
madison() { awk -F' [|] ' -v p="$1" '{ n = $1; gsub(/ /, "", n) } n == p' <<<"$MADISON"; }

# suite_of K: the suite whose linux-image-amd64 is kernel K.
suite_of() {
	case $1 in
	5.10) echo bullseye ;;
	6.1) echo 'bookworm(-security|-updates)?' ;;
	6.12) echo trixie ;;
	7) echo trixie-backports ;;
	esac
}

# kernel_fetch K: $CACHE/kernel-K/{vmlinuz,modules/...,VERSION}, the suite's current
# linux-image-amd64, fetched again only when the mirror has another version.
kernel_fetch() {
	local k=$1 dir=$CACHE/kernel-$1 ver img deps p tmp
	ver=$(madison linux-image-amd64 |
		awk -F' [|] ' -v s="^($(suite_of "$k"))/" '{ split($3, a, " "); if (a[2] ~ s) { gsub(/ /, "", $2); print $2; exit } }')
	if [ -z "$ver" ]; then
		[ -s "$dir/VERSION" ] || skip "no linux-image-amd64 for kernel $k on the mirror"
		return 0
	fi
	[ "$(cat "$dir/VERSION" 2>/dev/null)" = "$ver" ] && return 0
	log "kernel $k: fetching linux-image-amd64 $ver"
	img=$(lab_apt_cache show "linux-image-amd64=$ver" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[^ ]*\) .*/\1/p' | head -1)
	[ -n "$img" ] || die "kernel $k: linux-image-amd64 $ver names no linux-image package"
	# 7.x splits the image into linux-binary-* and linux-modules-*
	deps=$(lab_apt_cache show "$img=$ver" | sed -n 's/^Depends: //p' | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-\(binary\|modules\)-[^ ]*\) .*/\1/p')
	tmp=$(mktemp -d "$CACHE/.kernel.XXXXXX")
	LAB_TMPS+=("$tmp")
	(cd "$tmp" && lab_apt -q download "$img=$ver" $(for p in $deps; do echo "$p=$ver"; done)) \
		>"$tmp/download.log" 2>&1 || die "kernel $k: apt-get download failed: $(tail -1 "$tmp/download.log")"
	mkdir "$tmp/x"
	for p in "$tmp"/*.deb; do dpkg-deb -x "$p" "$tmp/x" || die "kernel $k: dpkg-deb -x $p failed"; done
	local mods kver
	mods=$(find "$tmp/x" -maxdepth 4 -type d -path '*/lib/modules/*' | head -1)
	kver=${mods##*/}
	[ -n "$kver" ] || die "kernel $k: no modules in $img"
	mkdir -p "$tmp/k/lib/modules"
	mv "$mods" "$tmp/k/lib/modules/"
	if [ -e "$tmp/x/boot/vmlinuz-$kver" ]; then
		mv "$tmp/x/boot/vmlinuz-$kver" "$tmp/k/vmlinuz"
	else
		mv "$tmp/k/lib/modules/$kver/vmlinuz" "$tmp/k/vmlinuz"
	fi
	echo "$kver" >"$tmp/k/KVER"
	echo "$ver" >"$tmp/k/VERSION"
	rm -rf "$dir"
	mv "$tmp/k" "$dir"
	rm -rf "$tmp"
}

# The guest's root filesystem: bookworm (the host's release: the guest runs the binaries built
# here) with the runtime libraries of xskf's binaries, rebuilt when one of their versions
# differs from the host's.
ROOT_PKGS="libbpf1 libxdp1 liburcu8 libnuma1 libpcap0.8 libcap2 iproute2 ethtool procps"
# the versions of ROOT_PKGS in bookworm on the mirror (debootstrap takes them from there)
root_want() {
	local p
	for p in $ROOT_PKGS; do
		madison "$p" | awk -F' [|] ' -v p="$p" '$3 ~ / bookworm\/main/ { gsub(/ /, "", $2); print p, $2; exit }'
	done | sort
}
root_stamp() { dpkg-query --admindir="$1/var/lib/dpkg" -W -f '${Package} ${Version}\n' $ROOT_PKGS 2>/dev/null | sort; }
rootfs_make() {
	local root=$CACHE/rootfs want
	want=$(root_want)
	# the mirror is not reachable: keep it
	[ -n "$want" ] && [ -z "${NO_MIRROR:-}" ] || want=$(root_stamp "$root")
	if [ -d "$root/lab" ] && [ "$(root_stamp "$root")" = "$want" ]; then
		return 0
	fi
	log "root filesystem: debootstrap bookworm (about 3 minutes; the .debs are cached)"
	rm -rf "$root.tmp"
	LAB_TMPS+=("$root.tmp")
	mkdir -p "$CACHE/debs"
	debootstrap --variant=minbase --cache-dir="$CACHE/debs" --include="${ROOT_PKGS// /,}" \
		bookworm "$root.tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
		die "debootstrap failed: $(tail -1 "$CACHE/debootstrap.log") (log: $CACHE/debootstrap.log)"
	mkdir -p "$root.tmp/lab"
	rm -rf "$root"
	mv "$root.tmp" "$root"
}

# The initramfs of kernel K: static busybox, the modules to mount 9p and run the NICs, an init
# that mounts the root filesystem and the two shared folders and runs the run folder's
# guest.sh on the root filesystem.
GUEST_MODS="virtio_pci virtio_net igb 9pnet_virtio 9p veth"
initramfs_make() {
	local k=$1 dir=$CACHE/kernel-$1 kver ir m f order=
	kver=$(cat "$dir/KVER")
	ir=$dir/initramfs.cpio.gz
	[ -s "$ir" ] && [ "$ir" -nt "$dir/VERSION" ] && [ "$ir" -nt "$0" ] && return 0
	local t
	t=$(mktemp -d "$CACHE/.initramfs.XXXXXX")
	LAB_TMPS+=("$t" "$ir.tmp")
	mkdir -p "$t"/{bin,dev,proc,sys,newroot,mods}
	cp "$(command -v busybox)" "$t/bin/busybox"
	# each module after those it needs (the depends= of its .modinfo)
	local mdir=$dir/lib/modules/$kver
	add_mod() {
		local f dep
		case " $order " in *" $1 "*) return 0 ;; esac
		f=$(find "$mdir/kernel" -name "$1.ko*" -o -name "${1//_/-}.ko*" | head -1)
		[ -n "$f" ] || return 0 # built in
		case $f in
		*.xz) xz -dc "$f" ;;
		*.zst) zstd -qdc "$f" ;;
		*) cat "$f" ;;
		esac >"$t/mods/$1.ko" || die "kernel $k: cannot unpack module $f"
		for dep in $(strings -a "$t/mods/$1.ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
			add_mod "${dep//-/_}"
		done
		order="$order $1"
	}
	for m in $GUEST_MODS; do add_mod "$m"; done
	for m in $order; do echo "$m.ko $m" >>"$t/mods/list"; done
	cat >"$t/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
while read -r f name; do
	insmod /mods/$f || echo "initramfs: insmod $name failed"
done </mods/list
o=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o $o,ro root /newroot || { echo "initramfs: cannot mount the root filesystem"; poweroff -f; }
mount -t 9p -o $o,ro tree /newroot/srv || echo "initramfs: cannot mount the build tree"
mount -t 9p -o $o out /newroot/lab || echo "initramfs: cannot mount the run folder"
mount -t 9p -o $o,ro msg /newroot/lab/msg || echo "initramfs: cannot mount the host's messages"
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /bin/bash /lab/guest.sh
EOF
	chmod +x "$t/init"
	(cd "$t" && find . | cpio -o -H newc --quiet | gzip -1) >"$ir.tmp" || die "cannot make the initramfs"
	mv "$ir.tmp" "$ir"
	rm -rf "$t"
}

# --- the run --------------------------------------------------------------------------------
RUN=$(mktemp -d /tmp/xskf-lab.XXXXXX)
NS=xskflab$$
cleanup() {
	ip netns pids "$NS" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	lab_leftovers
	if [ $KEEP = 1 ] || [ "${FAILED:-0}" != 0 ]; then
		echo "vm-lab: run folder kept: $RUN"
	else
		rm -rf "$RUN"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# the strict reading of what the guest wrote, and the host's writes into its folder
source "$SRC/lab/parse.sh"

source "$SRC/lab/core.sh"
apt_update
madison_load
rootfs_make
wanted=" ${TESTS[*]:-$ALL_TESTS} "
[ $SUITE = 0 ] || wanted=" $(for k in "${KERNELS[@]}"; do suite_tests "$k" virtio; suite_tests "$k" igb; done) "
# (citizen: python3 reads the runs' counters)
case $wanted in *" core "* | *" features "* | *" citizen "*) core_rootfs ;; esac
for k in "${KERNELS[@]}"; do
	kernel_fetch "$k"
	initramfs_make "$k"
done

FAILED=0
# lab_kernel K NIC TESTS...: boot kernel K with NIC, the run folder RUN/K-NIC, run TESTS in it.
source "$SRC/lab/tests.sh"
source "$SRC/lab/igb.sh"
source "$SRC/lab/doctor.sh" # after lab/tests.sh: adds `doctor` to guest_tests

# the boots: "K NIC", igb's only where QEMU 10 could be made (else one line says why)
PLAN=()
for k in "${KERNELS[@]}"; do
	nics=("${NICS[@]}")
	[ ${#nics[@]} -gt 0 ] || { nics=(virtio); [ "$k" != 7 ] || nics+=(igb); }
	for n in "${nics[@]}"; do PLAN+=("$k $n"); done
done
case " ${PLAN[*]} " in
*" igb "*)
	if ! qemu10_make; then
		for i in "${!PLAN[@]}"; do [ "${PLAN[i]#* }" != igb ] || unset 'PLAN[i]'; done
		[ ${#PLAN[@]} -gt 0 ] || exit 77
	fi
	;;
esac
for p in "${PLAN[@]}"; do
	tests=("${TESTS[@]}")
	[ ${#tests[@]} -gt 0 ] || tests=($ALL_TESTS)
	[ $SUITE = 0 ] || tests=($(suite_tests ${p% *} ${p#* }))
	lab_kernel ${p% *} ${p#* } "${tests[@]}" || FAILED=1
done
[ $FAILED = 0 ] && log "all passed" || log "FAILED (logs in $RUN)"
exit $FAILED

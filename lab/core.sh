# SPDX-License-Identifier: BSD-2-Clause
# The kernel lab's `core` test (sourced by lab/vm_lab.sh): the copy-mode core integration
# tests of tests/integration, run unchanged inside the guest on their own veth beds, on the
# guest's kernel. The source tree is shared read-only with the guest over 9p (tag src), next to
# the build folder (tag tree); each test's output and exit code come back in the run folder.
#
# The list: the README's demo (its bed and generator included), xsk-rxdrop's exact counts in
# native and SKB mode, xsk-l2fwd (MAC swap and forwarding between two ports), steering (a drop
# rule; host traffic kept next to the app's), and the hints' software fallback (SKB mode, and
# --no-hints), and the features this kernel lacks, each named in one line with the kernel it
# needs (test_kernel_features.sh); serving other apps (test_serve.sh: a foreign libxdp client
# on a pinned or UDS-given XSKMAP, and unprivileged served runs) and the hostile-client suite
# (test_hostile.sh, issue 44: each attack as nobody in the pin group and as uid 0 without
# capabilities, refused or without effect). Each is one start of its script as meson runs it.

# the packages these tests run, added to the lab's root filesystem (scripts/deps.sh installs
# them on the host for the same tests): scapy, tcpdump and ping for the l2fwd checks, curl for
# steering's HTTP, bpftool for its map checks
CORE_PKGS="python3 python3-scapy tcpdump iputils-ping curl bpftool"

# NAME SCRIPT ARGS...: the tests, in the order they run (cheapest first: a refused program shows
# in the first one). A SCRIPT of tests/integration, or a test program of the build folder (the
# verifier log's test: a program this kernel's verifier refuses, and xskf's lines about it).
CORE_LIST="kernel-features test_kernel_features.sh
verifier-log tests/bpf/test_verifier_log tests/bpf/verifier_refused.bpf.o
demo test_demo.sh
rxdrop-native test_rxdrop.sh count native-copy 0
hints-skb test_hints_rx.sh skb
l2fwd-macswap test_l2fwd_macswap.sh
l2fwd-fwd test_l2fwd_fwd.sh
steer-drop test_steer.sh drop
steer-host test_steer.sh host
serve-pinned test_serve.sh pinned
serve-uds test_serve.sh uds
serve-unpriv-pinned test_serve.sh unpriv-pinned
serve-unpriv-uds test_serve.sh unpriv-uds
hostile-maps test_hostile.sh maps
hostile-xskmap-pinned test_hostile.sh xskmap-pinned
hostile-xskmap-uds test_hostile.sh xskmap-uds"

# core_rootfs: CORE_PKGS installed in the root filesystem ($CACHE/rootfs) where one is missing,
# with apt inside it (the cache's lock is held: no guest runs on it meanwhile). A rebuilt root
# filesystem (debootstrap) gets them again on its first core run.
core_rootfs() {
	local root=$CACHE/rootfs missing p
	for p in $CORE_PKGS; do
		dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing="${missing:-} $p"
	done
	mkdir -p "$root/src" || die "cannot make $root/src"
	[ -n "${missing:-}" ] || return 0
	[ -z "${NO_MIRROR:-}" ] || skip "the core test needs$missing in the root filesystem, and the mirror is not reachable"
	log "root filesystem: adding$missing (apt-get in the root filesystem)"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
	LAB_MOUNTS+=("$root/proc") # unmounted by lab/vm_lab.sh's cleanup if stopped before the line below
	{ chroot "$root" apt-get -q update &&
		chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q -y \
			--no-install-recommends install $missing; } >"$CACHE/core-pkgs.log" 2>&1
	local rc=$?
	umount "$root/proc"
	[ $rc = 0 ] || die "apt-get install$missing in the root filesystem failed: $(tail -1 "$CACHE/core-pkgs.log") (log: $CACHE/core-pkgs.log)"
	chroot "$root" apt-get -q clean
}

# The guest's side, sourced by guest.sh: run_core NAME SCRIPT ARGS... runs one test as meson
# does (its environment: the build and source folders), writes core-NAME.{out,rc,secs}.
guest_core_script() {
	cat <<'EOF'
mkdir -p /src
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro src /src 2>/lab/src.err ||
	echo "cannot mount the source tree over 9p" >>/lab/src.err
mount -t tmpfs shm /dev/shm 2>/dev/null || { mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm; }
# what udev would make: bash's process substitution (demo.sh's `2> >(tee ...)`) opens /dev/fd/N
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
run_core() {
	local name=$1 t0=$SECONDS
	shift
	# a test's waits are for states, each bounded for a loaded 2-CPU host (TCG is 5-10
	# times slower); the whole test only by a net for a hang (CORE_HANG_S), not by a time it
	# should take: the host's bound is the list's (10 minutes a test, shared), so a slow
	# test takes from the others' time instead of being killed at its own
	XSKF_SRC=/src XSKF_BUILD=$B XSKF_TEST_WAIT=150 XSKF_FOREIGN_OBJ=$B/tests/integration/foreign_pass.bpf.o \
		timeout -s KILL ${CORE_HANG_S:-1800} bash -c 'cd "$XSKF_BUILD" && case $1 in
			*.sh) exec bash "/src/tests/integration/$1" "${@:2}" ;;
			*) exec "./$1" "${@:2}" ;;
			esac' - "$@" </dev/null >/lab/core-$name.out 2>&1
	echo $? >/lab/core-$name.rc
	echo $((SECONDS - t0)) >/lab/core-$name.secs
	# what a killed test left: namespaces and their processes
	local ns
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		ip netns pids "$ns" | xargs -r kill -KILL 2>/dev/null
		ip netns del "$ns"
	done
}
EOF
}

# The `features` test: the first two of the list only (a minute or two), for the suite.
FEATURES_LIST="kernel-features verifier-log"

# core_lines [NAME...]: the guest's lines "core NAME SCRIPT ARGS...", for the tests NAME (default:
# XSKF_LAB_CORE's names, else the whole list).
core_lines() {
	local l
	[ $# -gt 0 ] || set -- ${XSKF_LAB_CORE:-}
	while read -r l; do
		[ $# = 0 ] || case " $* " in *" ${l%% *} "*) ;; *) continue ;; esac
		echo "core $l"
	done <<<"$CORE_LIST"
}

# check_core D NAME: one test's result: its exit code (77: skipped, with its reason), its time.
check_core() {
	local d=$1 t=$2 rc secs
	rc=$(cat "$d/core-$t.rc" 2>/dev/null)
	secs=$(cat "$d/core-$t.secs" 2>/dev/null)
	case $rc in
	0) echo "$(grep -c '^ok ' "$d/core-$t.out") checks passed in ${secs}s" ;;
	77) echo "skipped: $(grep -m1 '^SKIP: ' "$d/core-$t.out")"; return 0 ;;
	*)
		echo "exit ${rc:-? (not run)} after ${secs:-?}s: $(grep -v '^ *$' "$d/core-$t.out" 2>/dev/null |
			tail -6 | tr '\n' '|')"
		return 1
		;;
	esac
}

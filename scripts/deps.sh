#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The Debian 12 packages xskf builds, tests and benchmarks with, and the commands they bring.
#
#   scripts/deps.sh           install what the build and the test suite need (as root; no-op
#                             when all is there)
#   scripts/deps.sh bench     the same plus what the benchmarks run (dpdk-testpmd, valgrind, ...)
#   scripts/deps.sh --check [bench]
#                             install nothing: name every command that is missing and the
#                             package that brings it; exit 1 if one is (any user)
#
# Every command a test, a script or a benchmark runs is in CMDS or BENCH_CMDS below, with its
# package, and every such package is installed here: tests/unit/test_deps.sh checks both.
set -euo pipefail

# libraries and tools with no command of their own that the build needs; libclang-rt-14-dev
# is clang's libFuzzer and sanitizer runtimes, for the fuzz targets (scripts/fuzz.sh)
PKGS=(llvm libbpf-dev libxdp-dev liburcu-dev libnuma-dev libpcap-dev
	libclang-rt-14-dev python3-scapy)
# command:package, for the build and the test suite (iperf3, tshark and curl are the real
# clients the integration tests run through the apps: TCP, checksum checks, HTTP; strace counts
# the kernel BTF's loads at start-up, test_adversarial.sh; promtool checks `xskfctl metrics`,
# test_ops.sh); QEMU, debootstrap, busybox-static (the initramfs), cpio, xz, zstd (the guest
# kernels' modules), strings, file and flock are the kernel lab's (lab/vm_lab.sh, suite 'lab');
# xdp-filter and xdp-loader (xdp-tools) are the libxdp users xskf runs beside (test_citizen.sh,
# the lab's citizen test); podman builds the Containerfile's image and runs an xskf app in it,
# with runc as its OCI runtime (test_container.sh: crun 1.8 refuses a host with cgroups v1
# and v2 side by side, as this one)
CMDS=(cc:build-essential c++:build-essential readelf:binutils nm:binutils meson:meson ninja:ninja-build pkg-config:pkg-config clang:clang bpftool:bpftool
	ip:iproute2 ss:iproute2 ethtool:ethtool tcpdump:tcpdump ping:iputils-ping
	scdoc:scdoc numactl:numactl sysctl:procps taskset:util-linux setpriv:util-linux timeout:coreutils
	hugeadm:libhugetlbfs-bin mount:mount mountpoint:util-linux /usr/bin/python3:python3
	iperf3:iperf3 tshark:tshark capinfos:wireshark-common curl:curl systemd-analyze:systemd strace:strace promtool:prometheus
	qemu-system-x86_64:qemu-system-x86 debootstrap:debootstrap busybox:busybox-static cpio:cpio
	xz:xz-utils zstd:zstd strings:binutils file:file flock:util-linux dpkg-deb:dpkg
	xdp-filter:xdp-tools xdp-loader:xdp-tools podman:podman runc:runc)
# command:package, for the benchmarks only
BENCH_CMDS=(dpdk-testpmd:dpdk-dev bc:bc valgrind:valgrind stress-ng:stress-ng)

check=0
bench=0
for a in "$@"; do
	case "$a" in
	--check) check=1 ;;
	bench) bench=1 ;;
	*)
		echo "deps: unknown argument '$a' (expected: [--check] [bench])" >&2
		exit 2
		;;
	esac
done
cmds=("${CMDS[@]}")
sfx=
if [ $bench = 1 ]; then
	cmds+=("${BENCH_CMDS[@]}")
	sfx=" bench"
fi

if [ $check = 1 ]; then
	rc=0
	for c in "${cmds[@]}"; do
		if ! command -v "${c%%:*}" >/dev/null 2>&1; then
			echo "deps: missing command '${c%%:*}' (package ${c#*:}): run scripts/deps.sh$sfx as root"
			rc=1
		fi
	done
	# scapy must be importable by the python the tests use, not whichever is first on PATH
	if command -v /usr/bin/python3 >/dev/null 2>&1 &&
		! /usr/bin/python3 -c 'import scapy.all' >/dev/null 2>&1; then
		echo "deps: /usr/bin/python3 cannot import scapy (package python3-scapy): run scripts/deps.sh as root"
		rc=1
	fi
	exit $rc
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: installing packages needs root (run as root, or with sudo)" >&2
	exit 1
fi
pkgs=("${PKGS[@]}")
for c in "${cmds[@]}"; do
	pkgs+=("${c#*:}")
done
missing=()
for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian 12 packages xskf builds and tests with (no-op when all are there).
set -euo pipefail
pkgs=(build-essential meson ninja-build pkg-config clang llvm libbpf-dev libxdp-dev bpftool
	liburcu-dev libnuma-dev numactl libpcap-dev iproute2 ethtool tcpdump python3-scapy
	util-linux libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

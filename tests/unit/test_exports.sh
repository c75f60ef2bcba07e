#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# libxskf exports functions only (issue 34): a data symbol in the ABI ties every plugin to its
# size and layout, and a thread-local one to the library's TLS model. `nm -D --defined-only`
# lists what the shared library defines for others; every entry must be a function (T) or a
# version node (A).
set -euo pipefail
LIB=${1:?usage: test_exports.sh LIBXSKF.so}
data=$(nm -D --defined-only "$LIB" | awk '$2 != "T" && $2 != "A" { sub(/@.*/, "", $3); print $3 " (" $2 ")" }')
if [ -n "$data" ]; then
	echo "FAIL: libxskf exports data symbols (make them static, or reach them through a function):"
	echo "$data"
	exit 1
fi
echo "ok - libxskf exports functions only ($(nm -D --defined-only "$LIB" | grep -c ' T ') functions)"

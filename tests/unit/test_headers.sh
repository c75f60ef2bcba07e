#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The public headers stand alone and are clean C and C++ (-Wall -Wextra -Werror), and the apps
# use nothing but them: no app includes a framework-private header.
set -euo pipefail
S=${XSKF_SRC:?}
for h in "$S"/include/*.h; do
	echo "#include <$(basename "$h")>" | cc -x c -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$S/include" - ||
		{ echo "FAIL: $h as C"; exit 1; }
	echo "#include <$(basename "$h")>" | c++ -x c++ -Wall -Wextra -Werror -fsyntax-only -I"$S/include" - ||
		{ echo "FAIL: $h as C++"; exit 1; }
	echo "ok - $(basename "$h") compiles as C and C++"
done
# A plugin's descriptor (XSKF_PLUGIN()) in C++17 and C++11, -Wpedantic: the guide says they work
printf '%s\n' '#include <xskf_plugin.h>' \
	'static void burst(void *, struct xskf_pkt *, unsigned int) noexcept {}' \
	'static struct xskf_app make() noexcept { struct xskf_app a = {}; a.name = "x"; a.rx_burst = burst; return a; }' \
	'static const struct xskf_app app = make();' \
	'XSKF_PLUGIN(.name = "x", .app = &app);' >"${TMPDIR:-/tmp}/xskf-plugin17.$$.cc"
trap 'rm -f "${TMPDIR:-/tmp}/xskf-plugin17.$$.cc"' EXIT
for cxx in c++ clang++; do
	command -v $cxx >/dev/null || continue
	for std in c++17 c++11; do
		$cxx -std=$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$S/include" \
			"${TMPDIR:-/tmp}/xskf-plugin17.$$.cc" || { echo "FAIL: XSKF_PLUGIN() with $cxx -std=$std -Wpedantic"; exit 1; }
	done
	echo "ok - XSKF_PLUGIN() compiles with $cxx -std=c++17 and c++11, -Wpedantic -Werror"
done
# every private header, by its folder (core/, backend/, runner/) or its bare name: the list is
# the tree's, so that a new header is covered the day it is added
private=$(cd "$S/framework" && ls -- */*.h */*/*.h 2>/dev/null | sed 's|^\(.*\)/\(.*\)\.h$|\1/\2\|\2|' | paste -sd'|')
if grep -l -E "#include \"(${private//./\\.})\\.h\"" "$S"/apps/*.c "$S"/apps/*.h 2>/dev/null; then
	echo "FAIL: an app includes a private framework header"
	exit 1
fi
echo "ok - apps use the public API only"
# A plugin takes in only its part of the API (issue 45): the xskf headers <xskf_plugin.h>
# pulls in, counted in lines, at most 700 (it was 1414 when the header chain ended in the
# engine's and the runner's)
deps=$(echo '#include <xskf_plugin.h>' | cc -x c -M -I"$S/include" - | tr ' \\' '\n\n' | grep '/xskf[a-z_]*\.h$' | sort -u)
lines=$(cat $deps | wc -l)
[ "$lines" -le 700 ] || { echo "FAIL: <xskf_plugin.h> takes in $lines lines of xskf headers (at most 700): $(echo $deps | tr '\n' ' ')"; exit 1; }
for h in xskf_engine.h xskf_runner.h xskf_counters.h; do
	echo "$deps" | grep -q "/$h\$" && { echo "FAIL: <xskf_plugin.h> includes $h, the engine's life"; exit 1; }
done
echo "ok - <xskf_plugin.h> takes in $lines lines of xskf headers ($(echo "$deps" | xargs -n1 basename | tr '\n' ' ')), none of the engine's life"

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
# every private header, by its folder (core/, backend/, runner/) or its bare name: the list is
# the tree's, so that a new header is covered the day it is added
private=$(cd "$S/framework" && ls -- */*.h | sed 's|^\(.*\)/\(.*\)\.h$|\1/\2\|\2|' | paste -sd'|')
if grep -l -E "#include \"(${private//./\\.})\\.h\"" "$S"/apps/*.c "$S"/apps/*.h 2>/dev/null; then
	echo "FAIL: an app includes a private framework header"
	exit 1
fi
echo "ok - apps use the public API only"

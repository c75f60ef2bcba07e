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
if grep -l -E '#include "(internal|log|cli|prog|umem)\.h"' "$S"/apps/*.c "$S"/apps/*.h 2>/dev/null; then
	echo "FAIL: an app includes a private framework header"
	exit 1
fi
echo "ok - apps use the public API only"

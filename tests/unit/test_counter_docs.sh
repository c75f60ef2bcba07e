#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# docs/operations.md's counter table against XSKF_QUEUE_COUNTERS (include/xskf_counters.h):
# every counter has its row there (its stats document path and Prometheus family), and every
# row there is a counter. $1: counter_rows (prints the header's rows), $2: docs/operations.md.
set -euo pipefail
rows=$1 doc=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$rows" | cut -f1,2 | sort >"$TMP/header"
# the rows between the markers: | `PATH` | `FAMILY` | what |
sed -n '/^<!-- queue-counters:begin -->$/,/^<!-- queue-counters:end -->$/p' "$doc" |
	sed -n 's/^| `\([^`]*\)` | `\([^`]*\)` | .*|$/\1\t\2/p' | sort >"$TMP/doc"
[ -s "$TMP/doc" ] || { echo "not ok - no queue-counters table in $doc"; exit 1; }
rc=0
while IFS= read -r l; do
	echo "not ok - counter '${l//$'\t'/ }' of xskf_counters.h has no row in $doc's counter table"
	rc=1
done < <(comm -23 "$TMP/header" "$TMP/doc")
while IFS= read -r l; do
	echo "not ok - $doc's counter table has '${l//$'\t'/ }', a counter xskf_counters.h does not have"
	rc=1
done < <(comm -13 "$TMP/header" "$TMP/doc")
[ $rc = 0 ] && echo "ok - $(wc -l <"$TMP/doc") counters, each in xskf_counters.h and docs/operations.md"
exit $rc

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# docs/operations.md's counter table against XSKF_QUEUE_COUNTERS (include/xskf_counters.h), or
# against a family of util/counters.c: every counter has its row there (its stats document
# path and Prometheus family), and every row there is a counter. $1: counter_rows (prints the
# rows), $2: docs/operations.md, $3 (optional): the family (its table: FAMILY-counters).
set -euo pipefail
rows=$1 doc=$2 fam=${3:-}
src=xskf_counters.h table=queue-counters
[ -n "$fam" ] && src="util/counters.c ($fam)" table=$fam-counters
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$rows" ${fam:+"$fam"} | cut -f1,2 | sort >"$TMP/header"
[ -s "$TMP/header" ] || { echo "not ok - $src has no row"; exit 1; }
# the rows between the markers: | `PATH` | `FAMILY` | what |
sed -n "/^<!-- $table:begin -->\$/,/^<!-- $table:end -->\$/p" "$doc" |
	sed -n 's/^| `\([^`]*\)` | `\([^`]*\)` | .*|$/\1\t\2/p' | sort >"$TMP/doc"
[ -s "$TMP/doc" ] || { echo "not ok - no $table table in $doc"; exit 1; }
rc=0
while IFS= read -r l; do
	echo "not ok - counter '${l//$'\t'/ }' of $src has no row in $doc's $table table"
	rc=1
done < <(comm -23 "$TMP/header" "$TMP/doc")
while IFS= read -r l; do
	echo "not ok - $doc's $table table has '${l//$'\t'/ }', a counter $src does not have"
	rc=1
done < <(comm -13 "$TMP/header" "$TMP/doc")
[ $rc = 0 ] && echo "ok - $(wc -l <"$TMP/doc") counters, each in $src and docs/operations.md"
exit $rc

#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# docs/operations.md's counter table against XSKF_QUEUE_COUNTERS (include/xskf_counters.h), or
# against a family of util/counters.c: every counter has its row there (its stats document
# path and Prometheus family), and every row there is a counter. $1: counter_rows (prints the
# rows), $2: docs/operations.md, $3 (optional): the family (its table: FAMILY-counters), or
# `live`: every word a family's row puts in the live lines is in the live-line table.
set -euo pipefail
rows=$1 doc=$2 fam=${3:-}
if [ "$fam" = live ]; then
	words=$("$rows" live)
	[ -n "$words" ] || { echo "not ok - util/counters.c has no live word"; exit 1; }
	# the words of the table's first column: `wN busy`, `asleep`, `wakeups A/B`, ...
	cells=$(sed -n '/^<!-- live-line:begin -->$/,/^<!-- live-line:end -->$/p' "$doc" |
		sed -n 's/^| \([^|]*\) |.*/\1/p' | grep -o '`[^`]*`' | tr -d '`' | tr ' ' '\n' | sort -u)
	rc=0
	while IFS=$'\t' read -r f w; do
		grep -qxF -- "$w" <<<"$cells" ||
			{ echo "not ok - live word '$w' of util/counters.c ($f) is not in $doc's live-line table"; rc=1; }
	done <<<"$words"
	[ $rc = 0 ] && echo "ok - $(wc -l <<<"$words") live words of util/counters.c, each in $doc's live-line table"
	exit $rc
fi
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

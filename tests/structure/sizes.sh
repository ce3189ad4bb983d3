#!/usr/bin/env bash
# No fat files or functions: no .c file outside tests/ and sim/workloads/ over 650 lines, no
# function over 100 (from the line of its opening brace to that of its closing one; functions
# are written with both braces in column 1). Prints each one; exits 1 if there is one.
set -uo pipefail
cd "$(dirname "$0")/../.."
files=$(git ls-files '*.c' | grep -v -e '^tests/' -e '^sim/workloads/')
bad=0
while read -r n f; do
	[ "$f" = total ] && continue
	[ "$n" -le 650 ] || { echo "$f: $n lines (at most 650)"; bad=1; }
done < <(echo "$files" | xargs wc -l)
long=$(echo "$files" | xargs awk '
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { name = $0 }
	/^\{/ { start = FNR; fn = name }
	/^\}/ { if (start && FNR - start > 100) printf "%s:%d: %s: %d lines (at most 100)\n", FILENAME, start, fn, FNR - start; start = 0 }')
[ -z "$long" ] || { echo "$long"; bad=1; }
[ "$bad" = 0 ] && echo "sizes: $(echo "$files" | wc -l) files, none over 650 lines, no function over 100"
exit "$bad"

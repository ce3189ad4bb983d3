# With --icount, time is the instruction count: two boots count exactly the same.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 2 --icount
grep -a '^pmu:' "$LOG" > "$LOG.1"
boot_check --profile smp --cpus 2 --icount
grep -a '^pmu:' "$LOG" > "$LOG.2"
# Nothing to compare is a failure, not a match: the probe prints a header and 8 counter rows.
[ "$(grep -c '^pmu:  [1-8] ' "$LOG.1")" = 8 ] || fail "the first --icount boot printed no PMU probe table: $(cat "$LOG.1")"
diff "$LOG.1" "$LOG.2" || fail "PMU probe tables differ between two --icount boots"
# Under icount the probe loop's ISA 2.07 instruction count (PMC5) is exact and non-zero.
row=$(grep -a '^pmu:  5 ' "$LOG.1")
read -r _ _ _ _ inst5 _ _ <<<"$row"
[[ "$inst5" =~ ^[0-9]+$ && "$inst5" -gt 0 ]] || fail "PMC5 counted no instructions under icount: '$row'"
echo "PMC5 instructions under icount: $inst5 (identical in both runs)"
rm -f "$LOG.1" "$LOG.2"

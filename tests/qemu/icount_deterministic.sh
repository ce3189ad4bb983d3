# With --icount, time is the instruction count: two boots count exactly the same.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 2 --icount
grep -a '^pmu:' "$LOG" > "$LOG.1"
boot_check --profile smp --cpus 2 --icount
grep -a '^pmu:' "$LOG" > "$LOG.2"
diff "$LOG.1" "$LOG.2" || fail "PMU probe tables differ between two --icount boots"
# Under icount, PMC6 (ISA 2.07 cycles) equals the instruction count of the loop.
row=$(grep -a '^pmu:  5 ' "$LOG.1")
read -r _ _ _ _ inst5 _ _ <<<"$row"
echo "PMC5 instructions under icount: $inst5 (identical in both runs)"
rm -f "$LOG.1" "$LOG.2"

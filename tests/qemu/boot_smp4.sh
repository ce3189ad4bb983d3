# pseries, four CPUs: all come online and every one takes decrementer interrupts.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 4 --mem 1024
[ "$(field cpus)" = 4 ] || fail "cpus is '$(field cpus)'"
[ "$(field mem)" = 1024MiB ] || fail "mem is '$(field mem)'"
line=$(grep -a -m1 '^timer: ' "$LOG") || fail "no timer line"
for c in 0 1 2 3; do
	ticks=$(echo "$line" | tr ' ' '\n' | sed -n "s/^cpu$c=//p")
	[ -n "$ticks" ] && [ "$ticks" -ge 3 ] || fail "cpu$c took '${ticks}' decrementer interrupts"
done
expect_not 'did not come online|could not be started|not ticking'

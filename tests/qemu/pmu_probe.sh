# The boot-time PMU probe on both machines. Under QEMU 10 (what the set-up step installs) the
# ISA 2.07 encodings count the 40000-instruction loop on PMC1-5 and their overflow interrupts
# arrive; the 970-native selects count nothing; PMC7/8 never count. These are QEMU's facts,
# measured by the kernel, not assumed by it.
source "$(dirname "$0")/lib.bash"
for profile in smp g5; do
	boot_check --profile "$profile"
	expect '^pmu: probe pvr=0x[0-9a-f]{8} loop=40000 instructions'
	# Both machines are 970s, so the 970 backend is the native one; what counts is QEMU's.
	expect '^pmu: backends ppc970 \(native\) and isa207-arch \(architected\)$'
	[ "$(grep -a -c '^pmu:  [1-8] ' "$LOG")" = 8 ] || fail "$profile: want 8 counter rows"
	for pmc in 1 2 3 4 5; do
		row=$(grep -a "^pmu:  $pmc " "$LOG")
		read -r _ _ n970i n970c n207i _ irq <<<"$row"
		[ "$n970i" = 0 ] && [ "$n970c" = 0 ] || fail "$profile PMC$pmc: 970 selects counted ($row)"
		[ "$n207i" -ge 40000 ] && [ "$n207i" -le 40100 ] || fail "$profile PMC$pmc: 2.07 instructions $n207i"
		[ "$irq" = yes ] || fail "$profile PMC$pmc: overflow interrupt '$irq'"
	done
	for pmc in 7 8; do
		grep -a -qE "^pmu:  $pmc +0 +0 +0 +0  -$" "$LOG" || fail "$profile PMC$pmc should not count"
	done
	# The catalogue takes only what the probe saw: instructions and cycles through ISA 2.07
	# selects; instruction overflows sample on PMC1-5; nothing else of the 970 counts here.
	expect '^kov: event catalogue: [0-9]+ events \([0-9]+ hardware, 6 software\); 8 count here, 7 can sample here$'
	expect '^kov: counts here: PM_INST_CMPL \(ISA 2.07 selects, counters 0x1f, samples on 0x1f\)$'
	expect '^kov: counts here: PM_CYC \(ISA 2.07 selects, counters 0x3f, samples on 0x00\)$'
	[ "$(grep -a -c '^kov: counts here:' "$LOG")" = 2 ] || fail "$profile: only cycles and instructions count under QEMU"
	expect '^kov: PMU in use: isa207-arch$'
	echo "$profile: probe table and catalogue as expected"
done

# The kernel runs with translation on, through its own hashed page table on both machines, and
# every CPU resolves its own page-table misses.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 4
expect '^mmu: translation on; hashed page table [0-9]+ KiB \([0-9]+ groups\) via PAPR hypercalls; kernel linear map of 512 MiB in 4 KiB pages$'
line=$(grep -a '^mmu: cpu0' "$LOG") || fail "no per-CPU MMU line"
for c in 0 1 2 3; do
	misses=$(echo "$line" | sed -n "s/.*cpu$c slb_misses=[0-9]* hpt_misses=\([0-9]*\).*/\1/p")
	[ -n "$misses" ] && [ "$misses" -ge 1 ] || fail "cpu$c resolved no page-table misses: $line"
done
boot_check --profile g5
expect '^mmu: translation on; hashed page table 1024 KiB \(8192 groups\) owned by the kernel \(SDR1\);'
expect '^mmu: cpu0 slb_misses=[0-9]+ hpt_misses=[1-9][0-9]*$'

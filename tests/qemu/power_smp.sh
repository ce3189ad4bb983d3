# pseries through RTAS: the clock read at boot (get-time-of-day; QEMU starts it from the host's
# clock), power-off when the halt program asks (QEMU exits by itself) and a restart when reboot
# asks (the kernel boots again in the same QEMU run), on two CPUs.
source "$(dirname "$0")/lib.bash"

boot_until_off 60 --cpus 2 --workload halt
expect '^kov: power-off requested by pid [0-9]+ \(halt\)$'
line=$(grep -a -m1 -E '^rtc: [0-9-]{10} [0-9:]{8} UTC \(RTAS\)$' "$LOG") || fail "no rtc line"
when=$(date -u -d "$(sed -E 's/^rtc: (.*) UTC .*/\1/' <<<"$line") UTC" +%s)
[ $(($(date -u +%s) - when)) -le 600 ] || fail "the clock says $line, the host $(date -u '+%F %T')"
echo "$line"
expect '^platform: CPU start: exercised; RTAS start-cpu, 2 CPU\(s\) here'
expect '^platform: clock: exercised; RTAS'

boot_bg --cpus 2 --reboots --workload reboot --timeout 60
wait_for '^kov: reboot requested by pid [0-9]+ \(reboot\)' 30
wait_boots 2 30
[ "$(grep -a -c '^kov: ready ' "$LOG")" -ge 2 ] || fail "the second boot did not reach ready"
kill -- -"$SIM_PID" 2>/dev/null
wait "$SIM_PID" 2>/dev/null
expect_not 'PANIC'
echo "rebooted: $(grep -a -c '^KOV kernel ' "$LOG") boots in one QEMU run"

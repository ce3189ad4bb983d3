# pseries, one CPU: boots to the ready line with the right machine description.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 1
[ "$(field profile)" = smp ] || fail "profile is '$(field profile)'"
[ "$(field cpus)" = 1 ] || fail "cpus is '$(field cpus)'"
[ "$(field pvr)" = 0x00390202 ] || fail "pvr is '$(field pvr)', want the 970's 0x00390202"
[ "$(field mem)" = 512MiB ] || fail "mem is '$(field mem)'"
[ "$(grep -a -c '^kov: ready' "$LOG")" = 1 ] || fail "the ready line must appear exactly once"
expect '^KOV kernel .* on pseries'
expect 'timebase 512000000 Hz'

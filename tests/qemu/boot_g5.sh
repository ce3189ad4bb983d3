# mac99 / 970FX through OpenBIOS: the Open Firmware path boots to the ready line.
source "$(dirname "$0")/lib.bash"
boot_check --profile g5
[ "$(field profile)" = g5 ] || fail "profile is '$(field profile)'"
[ "$(field cpus)" = 1 ] || fail "cpus is '$(field cpus)'"
[ "$(field pvr)" = 0x003c0301 ] || fail "pvr is '$(field pvr)', want the 970FX's 0x003c0301"
[ "$(field mem)" = 512MiB ] || fail "mem is '$(field mem)'"
expect 'device tree from Open Firmware'
expect '^timer: hz=100 cpu0=[0-9]+$'

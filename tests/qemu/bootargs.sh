# The command line reaches the kernel on both machines; a bad value is refused, not fatal.
source "$(dirname "$0")/lib.bash"
boot_check --profile smp --cpus 2 --append "hz=1000"
expect '^kov: cmdline "hz=1000 cpus=(turns|parallel)"$'   # sim/run says how the CPUs run
expect '^smp: cpus (take turns|run in parallel)$'
expect '^timer: hz=1000 cpu0=[0-9]+ cpu1=[0-9]+$'
boot_check --profile g5 --append "hz=250"
expect '^timer: hz=250 cpu0='
boot_check --profile smp --append "hz=banana"
expect '^kov: bad boot argument hz \(want 1\.\.10000\), using 100$'
expect '^timer: hz=100 '
boot_check --profile smp --cpus 2 --append "cpus=sideways wakewdt=3"
expect '^kov: bad boot argument cpus \(want parallel or turns\)$'
expect '^kov: bad boot argument wakewdt \(want 0 or 20\.\.60000 ms\), using 5000$'
boot_until_off 30 --profile smp --cpus 2 --append "halt=1"
expect '^kov: halt requested$'

# The wake guard's watchdog reset, made to happen: one CPU ticking at 10 Hz cedes for up to
# 100 ms when idle, and a 20 ms watchdog (wakewdt=20) resets it in most cedes. The reset finds
# the CPU in H_CEDE, where its state is whole, and it must resume: the machine goes on (the DCI
# daemon answers), kovctl info counts the resets, and none is reported as an NMI. (The reset
# handler tells the watchdog's reset from an NMI by the deadline it armed; nmi_hang.sh checks
# that an NMI still gets its report.)
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
PORT=$(free_port)
boot_bg --cpus 1 --port "$PORT" --timeout 90 --append "hz=10 wakewdt=20"
wait_for '^dcid: listening' 60
wait_for '^wake: a cede lasted 20 ms: the watchdog reset cpu0, which resumes' 40
sleep 3
out=$($K --target 127.0.0.1:"$PORT" ping --count 5 | tail -1) || fail "no answer to ping after resets: $out"
info=$($K --target 127.0.0.1:"$PORT" info) || fail "kovctl info failed"
line=$(echo "$info" | grep '^wake-ups') || fail "no wake-ups line: $info"
resets=$(echo "$line" | sed -n 's/.* \([0-9]*\) watchdog resets.*/\1/p')
rescued=$(echo "$line" | sed -n 's/^wake-ups *\([0-9]*\) rescued.*/\1/p')
[ "${resets:-0}" -ge 10 ] || fail "only ${resets:-0} watchdog resets counted: $line"
# A reset that comes as the decrementer ends the cede finds the CPU at 0x900 having just
# left H_CEDE: resumed the same way and counted with the rescues (it cannot be told apart).
[ "${rescued:-x}" != x ] || fail "no rescue count: $line"
expect_not 'kov: PANIC'
echo "wake reset: $line"

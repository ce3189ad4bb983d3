# System calls are preemptible (interrupts on while the kernel runs them): on one CPU, a
# thread that reads a 150 KB file again and again (SYS_FILE_READ) shares the CPU with a thread
# that counts; some reads must see the count move (the counter ran in the middle of a system
# call, which only preemption allows), and the decrementer's samples of the reading thread
# must land in the kernel, most of them in the code of the read (the copy to user memory or
# the call itself), not on the user's `sc`. Then the same with 4 CPUs (ticks of 1 ms: hz=1000).
cd "$(dirname "$0")/../.."
ADDR2LINE=${CROSS:-powerpc64-linux-gnu-}addr2line

check_run() { # cpus hz tick_us
	out=$(timeout 180 sim/run --cpus "$1" --append "hz=$2" --run kmcheck insyscall 20000 "$3" 2>&1); rc=$?
	echo "$out" | grep -a '^kmcheck:'
	[ "$rc" = 0 ] || { echo "FAIL: kmcheck insyscall exited $rc"; echo "$out" | tail -n 30; exit 1; }
	echo "$out" | grep -a -q '^kmcheck: insyscall done, 0 failures' ||
		{ echo "FAIL: kmcheck insyscall on $1 CPU(s)"; exit 1; }
	pc=$(echo "$out" | sed -n 's/^kmcheck: insyscall .* top_kernel_pc=0x\([0-9a-f]*\) .*/\1/p')
	[ -n "$pc" ] || { echo "FAIL: no kernel sample pc"; exit 1; }
	fn=$("$ADDR2LINE" -f -e build/kov.elf "0x$pc" | head -n 1)
	echo "top kernel sample at 0x$pc: $fn"
	case "$fn" in
	uaccess_copy|uaccess_*|sys_file_read|syscall_dispatch|memcpy|initrd_find) ;;
	*) echo "FAIL: the reading thread's top kernel sample is in $fn, not in the read"; exit 1 ;;
	esac
}

check_run 1 1000 1000
check_run 4 1000 1000
exit 0

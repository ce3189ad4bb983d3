# The boot CD (make image, build/kov.iso) started the way a real Power Mac G5 starts it: QEMU's
# mac99 with no -kernel, so OpenBIOS itself boots from the CD (-boot d), finds the blessed
# CHRP boot script by its type (cd:,\\:tbxi), loads the 32-bit ELF from the HFS volume and
# enters it. Then the kernel must come up as with -kernel: the ready line, DHCP on the sungem,
# the DCI daemon answering through the forwarded port. Three boots: the image as built on
# mac99 (CUDA); an image with a command line in its boot script on mac99,via=pmu (PMU99); the
# image as a hard disk (what dd makes of a USB stick or disk: 512-byte sectors), to ready. The
# two CD boots print the platform's self-report for their power controller.
source "$(dirname "$0")/lib.bash"

KOVCTL=build/host/kovctl ISO=build/kov.iso
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
[ -s "$ISO" ] || fail "$ISO is not built (make all builds it: make image)"

boot_cd() { # ISO [sim/run options]: boot it, wait for ready and the DCI, ping, stop
	local iso=$1 t0 out; shift
	PORT=$(free_port)
	t0=$(date +%s%N)
	boot_bg --profile g5 --cdrom "$iso" --port "$PORT" --timeout 100 "$@"
	wait_for '^kov: ready' 60
	echo "ready $((($(date +%s%N) - t0) / 1000000)) ms after QEMU started ($*)"
	wait_for '^dcid: listening on 7242' 30
	out=$("$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 ping --count 3 2>&1) \
		|| fail "kovctl ping: $out"
	grep -qE 'count=3 ' <<<"$out" || fail "kovctl ping did not complete 3: $out"
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
	from_firmware cd
	expect '^net: 10\.0\.2\.15/24 gateway 10\.0\.2\.2 \(dhcp'
}

from_firmware() { # DEV: OpenBIOS booted DEV:,\\:tbxi itself and the kernel came up
	# Its first try started the kernel (without the bless it stops there: "No valid state
	# has been set by load or init-program"); QEMU loaded nothing.
	grep -a -A1 "^Trying $1:,\\\\\\\\:tbxi\\.\\.\\.\$" "$LOG" | grep -q '^>> switching to new context:$' \
		|| fail "OpenBIOS did not start what it found at $1:,\\\\:tbxi"
	expect_not 'Kernel already loaded'
	expect '^KOV kernel .* on mac99 \(PowerMac3,1\), device tree from Open Firmware$'
	[ "$(field profile)" = g5 ] || fail "profile is '$(field profile)'"
}

# The platform's self-report, as the real machine would print it booted from this CD.
self_report() { # CONTROLLER QEMU-MACHINE
	expect '^platform: mac99 \(PowerMac3,1\), emulated by QEMU$'
	expect "^platform: power-off: exercised; $1, under QEMU $2\$"
	expect "^platform: reboot: exercised; $1, under QEMU $2\$"
	expect '^platform: second CPU start: not exercised; QEMU mac99 has one CPU'
	expect '^platform: DART: not exercised; '
}

boot_cd "$ISO"
expect '^kov: cmdline ""$'
self_report CUDA mac99

# The command line reaches the kernel through the boot script (/chosen bootargs): a faster
# clock and a workload, as sim/run --append would give them.
dir=$(mktemp -d)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -rf "$LOG" "$dir"' EXIT
scripts/mkimage --append "hz=250 workload=cotree:forever" build/kov.bin "$dir/kov-of.elf" \
	"$dir/kov.iso" || fail "scripts/mkimage --append"
boot_cd "$dir/kov.iso" --pmu
expect '^kov: cmdline "hz=250 workload=cotree:forever"$'
expect '^timer: hz=250 '
expect '^kov: workload cotree started, pid [0-9]+$'
self_report PMU99 mac99,via=pmu

boot_check --profile g5 --disk "$ISO"
from_firmware hd

# sim/run refuses bad options with a clear message and exit status 2, without starting QEMU.
cd "$(dirname "$0")/../.."
check() { # expected-message args...
	local want=$1; shift
	local out rc
	out=$(sim/run "$@" 2>&1); rc=$?
	[ "$rc" = 2 ] || { echo "FAIL: sim/run $* exited $rc, want 2"; exit 1; }
	echo "$out" | grep -qF -- "$want" || { echo "FAIL: sim/run $*: '$out' lacks '$want'"; exit 1; }
}
check "unknown profile 'vax'" --profile vax
check "--cpus must be 1-8 for smp" --cpus 0
check "--cpus must be 1-8 for smp" --cpus 9
check "--cpus must be 1 for g5" --profile g5 --cpus 2
check "--mem must be 128-4096" --mem lots
check "--port must be 1-65535" --port 70000
check "--forward takes HOST:GUEST" --forward 8080
check "--forward takes HOST:GUEST" --forward 8080:0
check "--forward takes HOST:GUEST" --forward 80:80 --forward x:1
check "unknown option '--frobnicate'" --frobnicate
check "option --profile needs a value" --profile
check "--cdrom, --disk and --pmu are for the g5 profile" --cdrom build/kov.iso
check "one boot image: --cdrom or --disk" --profile g5 --cdrom build/kov.iso --disk build/kov.iso
check "no --append, --workload or --run" --profile g5 --cdrom build/kov.iso --append hz=250
check "no boot image 'nowhere.iso'" --profile g5 --cdrom nowhere.iso
sim/run --help | grep -q -- '--profile smp' || { echo "FAIL: --help"; exit 1; }
sim/run --help | grep -q -- '--forward HOST:GUEST' || { echo "FAIL: --help lacks --forward"; exit 1; }
# A reset ends the run (-no-reboot) unless --reboots asks QEMU to restart the target.
sim/run --dry-run 2>/dev/null | grep -q -- ' -no-reboot' || { echo "FAIL: no -no-reboot by default"; exit 1; }
! sim/run --dry-run --reboots 2>/dev/null | grep -q -- '-no-reboot' || { echo "FAIL: --reboots kept -no-reboot"; exit 1; }
sim/run --help | grep -q -- '--reboots' || { echo "FAIL: --help lacks --reboots"; exit 1; }
echo "all bad options refused"

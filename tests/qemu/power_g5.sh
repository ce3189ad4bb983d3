# The Power Mac's system controller, both kinds QEMU's mac99 has: PMU99 (mac99,via=pmu, the
# G5's) and CUDA (plain mac99). On each the kernel reads the real-time clock at boot (QEMU starts
# it from the host's clock, so the date must be today's), powers off when the halt program asks
# (QEMU exits by itself, well before the time limit) and restarts when reboot asks (the kernel
# boots a second time in the same QEMU run, through OpenBIOS). The platform self-report lists
# every path with its state.
source "$(dirname "$0")/lib.bash"

rtc_is_now() { # CONTROLLER: the boot's rtc line names it and is within 10 minutes of the host
	local line when now
	line=$(grep -a -m1 -E '^rtc: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} UTC \('"$1"'\)$' "$LOG") \
		|| fail "no rtc line naming $1"
	when=$(date -u -d "$(sed -E 's/^rtc: (.*) UTC .*/\1/' <<<"$line") UTC" +%s) || fail "bad date: $line"
	now=$(date -u +%s)
	[ $((now - when)) -le 600 ] && [ $((when - now)) -le 600 ] \
		|| fail "the $1 clock says $line, the host $(date -u '+%F %T')"
	echo "$line (host $(date -u '+%F %T'))"
}

halts() { # sim/run options: boots with the halt program; QEMU must exit by itself
	local t0 s
	t0=$(date +%s)
	boot_until_off 60 --profile g5 --workload halt "$@"
	s=$(($(date +%s) - t0))
	[ "$s" -lt 30 ] || fail "power-off took ${s}s"
	expect '^kov: power-off requested by pid [0-9]+ \(halt\)$'
	expect_not 'PANIC'
	echo "powered off, QEMU gone after ${s}s ($*)"
}

reboots() { # sim/run options: boots with the reboot program; the kernel must boot again
	boot_bg --profile g5 --reboots --workload reboot --timeout 60 "$@"
	wait_for '^kov: reboot requested by pid [0-9]+ \(reboot\)' 30
	wait_boots 2 30
	local boots
	boots=$(grep -a -c '^KOV kernel ' "$LOG")
	[ "$boots" -ge 2 ] || fail "the kernel did not boot again ($boots boot(s))"
	[ "$(grep -a -c '^kov: ready ' "$LOG")" -ge 2 ] || fail "the second boot did not reach ready"
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
	expect_not 'PANIC'
	echo "rebooted: $boots boots in one QEMU run ($*)"
}

# PMU99: the G5's controller.
halts --pmu
rtc_is_now PMU99
expect '^platform: mac99 \(PowerMac3,1\), emulated by QEMU$'
for path in power-off reboot clock; do
	expect "^platform: $path: exercised; PMU99, under QEMU mac99,via=pmu"
done
expect '^platform: console: exercised; ESCC channel A'
expect '^platform: second CPU start: not exercised; QEMU mac99 has one CPU'
expect '^platform: DART: not exercised; bypassed, memory limited to 2 GiB .*; 512 MiB used, 0 MiB above left out'
expect '^platform: nap in idle: cannot be checked here'
expect '^platform: PMU events: exercised; [1-9][0-9]* of [0-9]+ hardware events measured here by the boot probe'
reboots --pmu
rtc_is_now PMU99

# CUDA: plain mac99.
halts
rtc_is_now CUDA
expect '^platform: power-off: exercised; CUDA, under QEMU mac99$'
reboots

# kovctl info's platform report (PLATFORM_GET), then kovctl reboot and poweroff (POWER_OFF,
# REBOOT: the controller's, protocol 1.8) on the G5's PMU99: an observer is refused, the controller restarts the target (the daemon comes back on
# the second boot) and then powers it off (QEMU exits by itself).
KOVCTL=build/host/kovctl
PORT=$(free_port)
boot_bg --profile g5 --pmu --reboots --port "$PORT" --append dci.token=pw --timeout 100
wait_for '^dcid: listening on 7242' 60
# kovctl info carries the self-report (PLATFORM_GET, 1.8) and the clock read at boot.
out=$("$KOVCTL" --target "127.0.0.1:$PORT" info 2>&1) || fail "kovctl info: $out"
grep -qE '^platform   mac99, PMU99; clock at boot 20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:]{8} UTC; emulated by QEMU$' <<<"$out" \
	|| fail "kovctl info's platform line: $(grep -a '^platform' <<<"$out")"
grep -q '^path       power-off: exercised; PMU99, under QEMU mac99,via=pmu$' <<<"$out" \
	|| fail "kovctl info lacks the power-off path: $out"
grep -q '^path       second CPU start: not exercised; ' <<<"$out" || fail "kovctl info lacks the second CPU"
out=$("$KOVCTL" --target "127.0.0.1:$PORT" --json info 2>&1) || fail "kovctl --json info: $out"
python3 - "$out" "$(grep -a -c '^platform: ' "$LOG")" <<'PY' || fail "kovctl --json info's platform: $out"
import json, sys, time
p = json.loads(sys.argv[1])["platform"]
assert p["name"] == "mac99" and p["controller"] == "PMU99" and p["emulated"] is True, p
assert abs(p["rtc_boot"] - time.time()) < 600, p["rtc_boot"]
# The same paths as the boot's self-report (its first line names the machine).
assert len(p["paths"]) == int(sys.argv[2]) - 1, (len(p["paths"]), sys.argv[2])
states = {x["path"]: x["state"] for x in p["paths"]}
assert states["reboot"] == "exercised" and states["DART"] == "not exercised", states
PY
"$KOVCTL" --target "127.0.0.1:$PORT" reboot >/dev/null 2>&1
[ $? = 3 ] || fail "kovctl reboot without --token did not exit 3 (needs the controller)"
out=$("$KOVCTL" --target "127.0.0.1:$PORT" --token pw reboot 2>&1) || fail "kovctl reboot: $out"
[ "$out" = "127.0.0.1:$PORT: restarting" ] || fail "kovctl reboot said: $out"
wait_for '^dcid: reboot asked by the controller' 10
wait_boots 2 60
until [ "$(grep -a -c '^dcid: listening on 7242' "$LOG")" -ge 2 ]; do
	kill -0 "$SIM_PID" 2>/dev/null || fail "the target stopped before its daemon came back"
	sleep 0.2
done
out=$("$KOVCTL" --target "127.0.0.1:$PORT" --token pw --json poweroff 2>&1) \
	|| fail "kovctl poweroff: $out"
grep -q '"done": *"poweroff"' <<<"$out" || fail "kovctl --json poweroff said: $out"
for ((i = 0; i < 300; i++)); do
	kill -0 "$SIM_PID" 2>/dev/null || break
	sleep 0.1
done
! kill -0 "$SIM_PID" 2>/dev/null || fail "QEMU still runs 30 s after kovctl poweroff"
tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
expect '^kov: reboot requested by pid [0-9]+ \(dcid\)$'
expect '^kov: power-off requested by pid [0-9]+ \(dcid\)$'
expect_not 'PANIC'
echo "kovctl: reboot (2 boots) then poweroff, QEMU gone"

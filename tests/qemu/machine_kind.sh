# The serial and the parallel machine: sim/run --serial / --parallel / KOV_MACHINE choose QEMU's
# TCG thread mode (one host thread for all CPUs, or one per CPU), say which on stderr, and both
# boot 2 CPUs; QEMU's own threads show it ("ALL CPUs/TCG" or "CPU 0/TCG", "CPU 1/TCG").
# --icount is serial only: refused with --parallel, and it overrides KOV_MACHINE=parallel.
source "$(dirname "$0")/lib.bash"
ERR=$(mktemp)
cleanup() { rm -f "$LOG" "$ERR"; [ -z "${SIM_PID:-}" ] || kill -- -"$SIM_PID" 2>/dev/null; }
trap cleanup EXIT
cores=$(nproc)

dry() { # KOV_MACHINE-value(- for unset) sim/run-args...: the QEMU command line in $CMD, stderr in $ERR
	local env=$1; shift
	if [ "$env" = - ]; then CMD=$(env -u KOV_MACHINE sim/run --dry-run "$@" 2>"$ERR")
	else CMD=$(KOV_MACHINE=$env sim/run --dry-run "$@" 2>"$ERR"); fi
	DRY_RC=$?
}
want_mode() { # thread-mode kind(serial|parallel) what
	[ "$DRY_RC" = 0 ] || fail "$3: sim/run --dry-run exited $DRY_RC: $(cat "$ERR")"
	grep -qF -- "-accel tcg,thread=$1" <<<"$CMD" || fail "$3: no thread=$1 in: $CMD"
	grep -q "^sim/run: $2 machine (" "$ERR" || fail "$3: stderr does not say '$2 machine': $(cat "$ERR")"
}

# Refused combinations: a clear message, exit 2, nothing started.
dry - --parallel --icount
[ "$DRY_RC" = 2 ] || fail "--parallel --icount exited $DRY_RC, want 2"
grep -q -- '--parallel and --icount do not go together' "$ERR" || fail "unclear refusal: $(cat "$ERR")"
dry - --serial --parallel
[ "$DRY_RC" = 2 ] || fail "--serial --parallel exited $DRY_RC, want 2"
dry bogus --cpus 2
[ "$DRY_RC" = 2 ] && grep -q "KOV_MACHINE must be serial, parallel or auto (got 'bogus')" "$ERR" \
	|| fail "KOV_MACHINE=bogus: rc $DRY_RC: $(cat "$ERR")"

# Who decides: the flag, else KOV_MACHINE, else serial; --icount and g5 are serial whatever it says.
dry - --cpus 2;                      want_mode single serial "default"
dry parallel --cpus 2;               want_mode multi parallel "KOV_MACHINE=parallel"
dry parallel --cpus 2 --serial;      want_mode single serial "--serial over KOV_MACHINE=parallel"
dry serial --cpus 2 --parallel;      want_mode multi parallel "--parallel over KOV_MACHINE=serial"
dry parallel --cpus 2 --icount;      want_mode single serial "--icount with KOV_MACHINE=parallel"
grep -q -- '--icount needs one TCG thread, so not KOV_MACHINE=parallel' "$ERR" || fail "icount override unexplained: $(cat "$ERR")"
grep -qF -- '-icount shift=0' <<<"$CMD" || fail "--icount lost: $CMD"
dry auto --cpus "$cores";            want_mode multi parallel "KOV_MACHINE=auto, $cores CPUs on $cores cores"
if [ "$cores" -lt 8 ]; then
	dry auto --cpus $((cores + 1)); want_mode single serial "KOV_MACHINE=auto, $((cores + 1)) CPUs on $cores cores"
fi
dry parallel --profile g5
[ "$DRY_RC" = 0 ] && grep -q '^sim/run: serial machine (g5' "$ERR" || fail "g5 with KOV_MACHINE=parallel: $(cat "$ERR")"
grep -q -- '-accel' <<<"$CMD" && fail "g5 got an -accel option: $CMD"
echo "choices: flag over KOV_MACHINE over serial; --icount and g5 serial; auto by $cores host cores"

# Both machines boot 2 CPUs to the ready line (--check), and say which they were.
for kind in serial parallel; do
	sim/run --check --log "$LOG" --cpus 2 --"$kind" 2>"$ERR" || { cat "$ERR"; fail "--$kind --check did not reach ready"; }
	expect '^kov: ready profile=smp cpus=2 '
	grep -q "^sim/run: $kind machine (" "$ERR" || fail "--$kind: stderr says $(cat "$ERR")"
	echo "--$kind: $(field boot_us) us to ready; $(cat "$ERR")"
done
# KOV_MACHINE=parallel with --icount boots too (serial).
KOV_MACHINE=parallel sim/run --check --log "$LOG" --cpus 2 --icount 2>"$ERR" \
	|| { cat "$ERR"; fail "--icount under KOV_MACHINE=parallel did not reach ready"; }
grep -q '^sim/run: serial machine (--icount' "$ERR" || fail "--icount boot: $(cat "$ERR")"

# The QEMU that actually runs: its command line and its threads (named by debug-threads=on).
for kind in serial parallel; do
	boot_bg --cpus 2 --"$kind" --timeout 30
	trap cleanup EXIT   # boot_bg sets its own
	wait_for '^kov: ready' 20
	qemu=$(pgrep -g "$SIM_PID" qemu-system | head -n1)
	[ -n "$qemu" ] || fail "--$kind: no QEMU process in group $SIM_PID"
	cmdline=$(tr '\0' ' ' <"/proc/$qemu/cmdline")
	threads=$(cat /proc/"$qemu"/task/*/comm | grep TCG | sort | tr '\n' ',')
	kill -- -"$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null; SIM_PID=
	if [ "$kind" = serial ]; then
		[[ "$cmdline" == *"-accel tcg,thread=single"* ]] || fail "--serial ran: $cmdline"
		[ "$threads" = "ALL CPUs/TCG," ] || fail "--serial: QEMU's TCG threads are '$threads', want one for all CPUs"
	else
		[[ "$cmdline" == *"-accel tcg,thread=multi"* ]] || fail "--parallel ran: $cmdline"
		[ "$threads" = "CPU 0/TCG,CPU 1/TCG," ] || fail "--parallel: QEMU's TCG threads are '$threads', want one per CPU"
	fi
	echo "--$kind: QEMU ran with thread=$([ $kind = serial ] && echo single || echo multi), TCG threads: $threads"
done

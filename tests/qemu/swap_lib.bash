# Shared by the tests that drive hot swaps with kovctl (swap_remote.sh, optimize.sh), sourced
# after lib.bash: kovctl against the booted target on $PORT, and swapstress's Counter.
KOVCTL=build/asan/kovctl
[ -x "$KOVCTL" ] || KOVCTL=build/host/kovctl
OUT=$(mktemp)

# Runs kovctl; its stdout and stderr go to $OUT, its exit status to $RC. ctl: as controller.
k() { "$KOVCTL" --target "127.0.0.1:$PORT" --timeout 15 "$@" >"$OUT" 2>&1; RC=$?; }
ctl() { k --token s3cret "$@"; }
out_has() { grep -qE -- "$1" "$OUT" || { cat "$OUT"; fail "expected /$1/ from kovctl"; }; }

# Sets pid and coid to those of the Counter swapstress serves (it may be a DCounter by now).
swapstress_counter() {
	k scan --json
	read -r pid coid < <(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for p in d["processes"]:
    for o in p.get("objects", []):
        if o["class"] in ("Counter", "DCounter") and p["name"] == "swapstress":
            print(p["pid"], o["coid"]); raise SystemExit' "$OUT")
	[ -n "${coid:-}" ] || { cat "$OUT"; fail "no Counter of swapstress in the scan"; }
}

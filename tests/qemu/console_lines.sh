# Console output arrives one whole line at a time: linestorm's two processes print lines from
# four threads each, built from many printf calls with yields in between, while crashing
# children make the kernel print kill reports. Every line must be intact and all present.
source "$(dirname "$0")/lib.bash"
threads=4 lines=40 crashes=4
boot_until_off 100 --profile smp --cpus 2 --run linestorm "$threads" "$lines" "$crashes"
expect '^kov: exit status 0$'
python3 - "$LOG" "$threads" "$lines" "$crashes" <<'EOF' || fail "console lines were split or lost"
import re, sys
log, threads, lines, crashes = sys.argv[1], *map(int, sys.argv[2:])
text = open(log, "rb").read().decode("utf-8", "replace")
line_re = re.compile(r"linestorm: p(\d+) t(\d+) n(\d+)((?: w\d+)*) end(\d+)\.(\d+)\.(\d+)")
seen, bad = set(), []
for l in text.split("\n"):
    if re.search(r"linestorm: p\d", l):
        m = line_re.fullmatch(l)
        ok = m and m.group(1, 2, 3) == m.group(5, 6, 7)
        words = m.group(4).split() if m else []
        ok = ok and words == ["w%d" % i for i in range(3 + int(m.group(3)) % 7)]
        if not ok:
            bad.append(l)
        else:
            seen.add(m.group(1, 2, 3))
    elif ("linestorm:" in l and not l.startswith("linestorm:")) or ("kov:" in l and not l.startswith("kov:")) \
            or ("crash:" in l and not l.startswith("crash:")):
        bad.append(l)
kills = [l for l in text.split("\n") if re.fullmatch(r"kov: pid \d+ \(crash\) killed: .* \(pc 0x[0-9a-f]+\)", l)]
for l in bad[:10]:
    print("split:", repr(l))
print("%d whole lines of %d, %d split, %d kill reports whole" % (len(seen), 2 * threads * lines, len(bad), len(kills)))
sys.exit(0 if not bad and len(seen) == 2 * threads * lines and len(kills) == crashes else 1)
EOF
expect '^linestorm: parent pid [0-9]+: 4 threads x 40 lines$'
expect '^linestorm: child pid [0-9]+: 4 threads x 40 lines$'
exit 0

#!/usr/bin/env bash
# Loads kovctl export's callgrind, pprof and speedscope files of a chainbench recording into
# the real tools (callgrind_annotate, go tool pprof, speedscope's file-format schema) and
# checks what the tools say against the folded stacks: the same total, the same hottest
# function overall, chainbench's hottest function its ChainBench method (with or without its
# object) with the same self samples, chain_a..chain_c with the same inclusive samples. Usage: chains_tools.bash KOVCTL RECORDING DIR (run by tests/qemu/chains.sh).
set -u
KOVCTL=$1 REC=$2 DIR=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
schema="$top/third_party/npm/node_modules/speedscope/dist/release/file-format-schema.json"
say() { echo "chains_tools: $*" >&2; }
for f in folded callgrind pprof speedscope; do
	"$KOVCTL" export "$REC" --format "$f" --out "$DIR/$f" 2>/dev/null || { say "export $f failed"; exit 1; }
done
callgrind_annotate --auto=no "$DIR/callgrind" >"$DIR/callgrind.top" 2>&1 \
	|| { cat "$DIR/callgrind.top"; say "callgrind_annotate refused the file"; exit 1; }
callgrind_annotate --auto=no --inclusive=yes "$DIR/callgrind" >"$DIR/callgrind.inc" 2>&1 \
	|| { say "callgrind_annotate --inclusive refused the file"; exit 1; }
export GOCACHE="$DIR/gocache" PPROF_TMPDIR="$DIR" HOME="$DIR"
go tool pprof -top -sample_index=samples "$DIR/pprof" >"$DIR/pprof.top" 2>"$DIR/pprof.err" \
	|| { cat "$DIR/pprof.err"; say "go tool pprof refused the file"; exit 1; }
go tool pprof -top -cum -sample_index=samples "$DIR/pprof" >"$DIR/pprof.cum" 2>>"$DIR/pprof.err" \
	|| { cat "$DIR/pprof.err"; say "go tool pprof -cum refused the file"; exit 1; }
# Without speedscope's schema (npm could not install it) the speedscope file is still checked
# for its frames and weights, and the skipped schema check is said.
[ -f "$schema" ] || { say "speedscope's schema is missing (npm speedscope not installed): schema check skipped"; schema=""; }
python3 - "$DIR" "$schema" <<'PY'
import json, re, sys
import jsonschema

d, schema = sys.argv[1], sys.argv[2]
def fail(msg):
    sys.exit("chains_tools: " + msg)

# The truth: the folded stacks, self and inclusive samples per function name; chainbench's
# own hottest function must be its ChainBench method (with or without its object).
self_, incl, mine, total = {}, {}, {}, 0
for line in open(f"{d}/folded"):
    path, n = line.rstrip("\n").rsplit(" ", 1)
    f, n = path.split(";"), int(n)
    total += n
    self_[f[-1]] = self_.get(f[-1], 0) + n
    if f[0] == "chainbench":
        mine[f[-1]] = mine.get(f[-1], 0) + n
    for name in set(f[1:]):
        incl[name] = incl.get(name, 0) + n
top_all = max(self_, key=self_.get)
hot = max(mine, key=mine.get)
if not hot.endswith("spinner_spin_body"):
    fail(f"chainbench's hottest function is {hot}, not the ChainBench method")

# callgrind_annotate: "N (p%)  file:function", hottest first.
rows = [re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S+?):(.*)$", l) for l in open(f"{d}/callgrind.top")]
rows = [(int(m.group(1).replace(",", "")), m.group(2), m.group(3)) for m in rows if m]
tot = [r for r in rows if r[2].strip() == "" or "PROGRAM TOTALS" in r[1] + r[2]]
fns = [r for r in rows if r[1] != "PROGRAM TOTALS" and "TOTALS" not in r[2]]
text = open(f"{d}/callgrind.top").read()
m = re.search(r"([\d,]+) \([ \d.]+%\)\s+PROGRAM TOTALS", text)
if not m or int(m.group(1).replace(",", "")) != total:
    fail(f"callgrind_annotate's total is not the {total} samples exported")
if not fns or fns[0][2] != top_all or fns[0][0] != self_[top_all]:
    fail(f"callgrind_annotate's hottest is {fns[:1]}, not {top_all} with {self_[top_all]}")
ours = [r for r in fns if r[1] == "chainbench"]
if not ours or ours[0][2] != hot or ours[0][0] != mine[hot]:
    fail(f"callgrind_annotate's hottest of chainbench is {ours[:1]}, not {hot} with {mine[hot]}")
inc = {}
for l in open(f"{d}/callgrind.inc"):
    m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+chainbench:(\S+)$", l)
    if m:
        inc[m.group(2)] = int(m.group(1).replace(",", ""))
for name in ("chain_a", "chain_b", "chain_c"):
    if inc.get(name) != incl.get(name):
        fail(f"callgrind_annotate's inclusive {name} is {inc.get(name)}, not {incl.get(name)}")
print(f"callgrind_annotate: total {total}, hottest {fns[0][1]}:{top_all} {self_[top_all]}, "
      f"chainbench's {hot} {mine[hot]}, "
      f"inclusive chain_a {inc['chain_a']} chain_c {inc['chain_c']}")

# go tool pprof -top: "flat flat% sum% cum cum% name", hottest flat first.
def pprof_rows(path):
    out = []
    for l in open(path):
        m = re.match(r"\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.+)$", l)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), m.group(3).strip()))
    return out
top = pprof_rows(f"{d}/pprof.top")
if not top or top[0][2] != top_all or top[0][0] != self_[top_all]:
    fail(f"pprof -top's hottest is {top[:1]}, not {top_all} with {self_[top_all]}")
flat = {r[2]: r[0] for r in top}
if flat.get(hot) != self_[hot]:
    fail(f"pprof's flat samples of {hot} are {flat.get(hot)}, not {self_[hot]}")
cum = {r[2]: r[1] for r in pprof_rows(f"{d}/pprof.cum")}
if cum.get("chain_c") != incl["chain_c"]:
    fail(f"pprof's cumulative chain_c is {cum.get('chain_c')}, not {incl['chain_c']}")
m = re.search(r"of (\d+) total", open(f"{d}/pprof.top").read())
if not m or int(m.group(1)) != total:
    fail(f"pprof's total is not {total}")
print(f"go tool pprof: total {total}, hottest {top_all} {top[0][0]}, {hot} {flat[hot]}, "
      f"cum chain_c {cum['chain_c']}")

# speedscope: valid against its own schema, and the same hottest frame by weight.
doc = json.load(open(f"{d}/speedscope"))
try:
    if schema:
        jsonschema.validate(doc, json.load(open(schema)))
except jsonschema.ValidationError as e:
    fail(f"speedscope's schema refuses the file: {e.message}")
frames = doc["shared"]["frames"]
prof = doc["profiles"][0]
w = {}
for s, n in zip(prof["samples"], prof["weights"]):
    if any(i >= len(frames) for i in s):
        fail("a speedscope sample names a frame that is not there")
    w[s[-1]] = w.get(s[-1], 0) + n
best = max(w, key=w.get)
if frames[best]["name"] != top_all or w[best] != self_[top_all] or sum(prof["weights"]) != total:
    fail(f"speedscope's hottest frame is {frames[best]} with {w[best]}, not {top_all} with {self_[top_all]}")
ours = {frames[i]["name"]: n for i, n in w.items() if frames[i].get("file") == "chainbench"}
if max(ours, key=ours.get) != hot or ours[hot] != mine[hot]:
    fail(f"speedscope's hottest chainbench frame is not {hot} with {mine[hot]}")
print(f"speedscope: {'schema valid' if schema else 'schema NOT checked (npm speedscope missing)'}, {len(frames)} frames, hottest {top_all} {w[best]}, "
      f"chainbench's {hot} {ours[hot]}")
PY

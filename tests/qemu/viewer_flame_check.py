"""Checks kov-viewer's flame graph report (--screenshot's "viewer: flame ..." lines) against
chainbench's known call paths (sim/workloads/chainbench.c) and, for a replay, against kovctl
export's folded stacks of the same recording. Usage (tests/qemu/viewer_flame.sh):
  live REPORT | process REPORT FOLDED | at REPORT NAME | zoom REPORT PROCESS_REPORT |
  search REPORT | callers REPORT FOLDED
Prints what it found; exits 1 with the reason if wrong."""
import re
import sys

PAIR = re.compile(r'(\w+)=("([^"]*)"|\S+)')
METHOD = ["main", "chain_a", "chain_b", "chain_c", "ChainBench::spinner_spin_body"]
SYSCALL = ["chain_read", "file_read", "__syscall", "exception_dispatch_[k]", "syscall_dispatch_[k]"]


def fields(line):
    return {k: (q if v.startswith('"') else v) for k, v, q in PAIR.findall(line)}


def report(path):
    head, boxes, callers, hover, caller_head = None, [], [], None, None
    for line in open(path, errors="replace"):
        if line.startswith("viewer: flame: "):
            head = fields(line[len("viewer: flame: "):])
        elif line.startswith("viewer: flame box: "):
            boxes.append(fields(line[len("viewer: flame box: "):]))
        elif line.startswith("viewer: flame hover: "):
            hover = fields(line[len("viewer: flame hover: "):])
        elif line.startswith("viewer: callers: "):
            caller_head = fields(line[len("viewer: callers: "):])
        elif line.startswith("viewer: caller: "):
            callers.append(fields(line[len("viewer: caller: "):]))
    if head is None:
        sys.exit("no flame line in the report: the flame view was not open")
    return head, boxes, callers, hover, caller_head


def ends(path, tail):
    f = path.split(";")
    return f[-len(tail):] == tail


def has(path, part):
    f = path.split(";")
    return any(f[i:i + len(part)] == part for i in range(len(f)))


def box(boxes, name):
    """The widest box of that name."""
    named = [b for b in boxes if b["name"] == name]
    if not named:
        sys.exit(f"no box {name} drawn")
    return max(named, key=lambda b: float(b["w"]))


def known_paths(head, boxes):
    """chainbench's process graph: the method under main;chain_a;chain_b;chain_c (user
    frames), FILE_READ crossing into the kernel."""
    if head["scope"] != "process" or not head["root"].startswith("chainbench pid "):
        sys.exit(f"scope {head['scope']} {head['root']}: not chainbench's process")
    total = int(head["total"])
    if int(head["chained"]) < 50 or total < 50:
        sys.exit(f"only {head['chained']} chained samples, {total} in chainbench")
    method = [b for b in boxes if ends(b["path"], METHOD) and b["path"].startswith("chainbench;")]
    if len(method) != 1 or method[0]["kernel"] != "0":
        sys.exit("no user box main;chain_a;chain_b;chain_c;ChainBench::spinner_spin_body")
    m = method[0]
    if float(m["share"]) < 20 or float(m["parent_share"]) < 95:
        sys.exit(f"the method's box: {m['share']}% of chainbench, {m['parent_share']}% of chain_c")
    kern = [b for b in boxes if has(b["path"], SYSCALL) and b["kernel"] == "1"]
    if not kern or not any(ends(b["path"], SYSCALL) for b in kern):
        sys.exit("no kernel boxes under chain_read;file_read;__syscall (the system call)")
    users_below = [b for b in boxes if b["kernel"] == "0" and "_[k]" in b["path"]]
    if users_below:
        sys.exit("a user frame drawn under a kernel frame: " + users_below[0]["path"])
    print(f"flame: chainbench {total} samples, {len(boxes)} boxes; the method {m['share']}% "
          f"({m['samples']}) under chain_c; {len(kern)} kernel boxes in its system call")
    return m


def folded(path):
    stacks = []
    for line in open(path):
        p, n = line.rstrip("\n").rsplit(" ", 1)
        stacks.append((p, int(n)))
    return stacks


def check_process(rep, fold):
    head, boxes, _, _, _ = report(rep)
    known_paths(head, boxes)
    stacks = [(p, n) for p, n in folded(fold) if p.split(";")[0] == "chainbench"]
    total = sum(n for _, n in stacks)
    if int(head["total"]) != total:
        sys.exit(f"the graph's total {head['total']} is not the export's {total} chainbench samples")
    by_path = {}
    for b in boxes:
        by_path.setdefault(b["path"], []).append(int(b["samples"]))
    exact = 0
    for path, drawn in by_path.items():
        want = sum(n for p, n in stacks if p == path or p.startswith(path + ";"))
        # Two kernel objects of one class are two boxes of one name here (the viewer tells
        # objects apart), one frame in the export; a narrow one may not be reported.
        if len(drawn) == 1 and want != drawn[0] and not re.search(r"::[^;]*_\[k\]", path):
            sys.exit(f"{path}: drawn with {drawn[0]} samples, the export has {want}")
        if sum(drawn) > want:
            sys.exit(f"{path}: drawn with {sum(drawn)} samples, the export has only {want}")
        exact += len(drawn) == 1 and want == drawn[0]
    print(f"flame: {exact} of {len(by_path)} drawn paths have exactly the export's samples")


def main():
    mode, rep = sys.argv[1], sys.argv[2]
    if mode == "live":
        head, boxes, _, _, _ = report(rep)
        known_paths(head, boxes)
    elif mode == "process":
        check_process(rep, sys.argv[3])
    elif mode == "at":
        _, boxes, _, _, _ = report(rep)
        b = box(boxes, sys.argv[3])
        print(f"{float(b['x']) + float(b['w']) / 2:.1f},{float(b['y']) + float(b['h']) / 2:.1f}")
    elif mode == "zoom":
        head, boxes, _, hover, _ = report(rep)
        _, before, _, _, _ = report(sys.argv[3])
        if not head["zoom"].endswith("main;chain_a;chain_b;chain_c"):
            sys.exit(f"zoomed into {head['zoom']!r}, not chain_c")
        full = float(box(boxes, "main")["w"])   # above the zoomed box: full width
        for name in ("chain_c", "ChainBench::spinner_spin_body"):
            w = float(box(boxes, name)["w"])
            if abs(w - full) > 1.5:
                sys.exit(f"zoomed: {name} is {w} wide, the full width is {full}")
        if any(b["name"] == "chain_read" for b in boxes):
            sys.exit("zoomed into chain_c, chain_read is still drawn")
        if not hover or hover["name"] != "chain_b":
            sys.exit(f"the pointer on chain_b described {hover}")
        b = box(before, "chain_b")
        if hover["samples"] != b["samples"] or hover["share"] != b["share"]:
            sys.exit(f"hover {hover} disagrees with the box {b}")
        print(f"flame: zoomed into chain_c ({full:.0f} points wide); hover chain_b "
              f"{hover['samples']} samples, {hover['share']}% of all, {hover['parent_share']}% of chain_a")
    elif mode == "search":
        head, boxes, _, _, _ = report(rep)
        b = box(boxes, "chain_b")
        if head["search"] != "CHAIN_B" or b["match"] != "1" or box(boxes, "chain_a")["match"] != "0":
            sys.exit(f"search {head['search']!r}: chain_b match={b['match']}")
        if abs(float(head["matched_share"]) - float(b["share"])) > 0.011 or head["matched"] != b["samples"]:
            sys.exit(f"matched {head['matched']} ({head['matched_share']}%), chain_b has "
                     f"{b['samples']} ({b['share']}%)")
        print(f"flame: search CHAIN_B matched {head['matched_share']}% (chain_b's box)")
    elif mode == "callers":
        head, _, callers, _, ch = report(rep)
        if not ch or not ch["object"].startswith("ChainBench "):
            sys.exit(f"callers of {ch}")
        through = sum(n for p, n in folded(sys.argv[3])
                      if p.startswith("chainbench;") and "ChainBench::" in p)
        if int(ch["total"]) != through or not callers:
            sys.exit(f"callers: {ch['total']} samples through the object, the export has {through}")
        shares = sum(float(c["share"]) for c in callers)
        if callers[0]["name"] != "chain_c" or float(callers[0]["share"]) < 95 or abs(shares - 100) > 0.1:
            sys.exit(f"callers {callers}: chain_c must call it, the shares sum to {shares}")
        print(f"callers: chain_c {callers[0]['share']}% of {through} samples, {len(callers)} callers")
    else:
        sys.exit("unknown mode " + mode)


main()

#!/usr/bin/env python3
"""No cycles between folders: the include graph between the kernel's subsystem folders and the
project's top-level parts must be acyclic (docs/architecture.md, "Folders and the arrows between
them"). Prints the arrows and exits 1 naming each cycle found.
  tests/structure/layers.py [--dot]   (--dot: the graph in Graphviz's format, nothing checked)"""
import os, re, subprocess, sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
os.chdir(TOP)
# A unit is the deepest of these prefixes a file lies under; kernel/include/ and kernel/abi/ are
# interfaces, counted as units of their own so that arrows through them are seen too.
UNITS = ["kernel/arch", "kernel/mm", "kernel/mem", "kernel/co", "kernel/proc", "kernel/lock",
         "kernel/drivers", "kernel/net", "kernel/lib", "kernel/include", "kernel/abi", "kernel",
         "boot", "kov", "common/lib", "common/co", "common/syms", "common/monitor", "proto", "dci",
         "libc-instr", "gui/client", "gui/kovctl", "gui/viewer", "tools", "sim/workloads"]
SEARCH = [".", "gui", "libc-instr/include", "kernel", "boot"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

def unit(path):
    best = None
    for u in UNITS:
        if path == u or path.startswith(u + "/"):
            if best is None or len(u) > len(best):
                best = u
    return best

def resolve(f, inc):
    for d in [os.path.dirname(f)] + SEARCH:
        p = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(p):
            return p
    return None

files = subprocess.check_output(["git", "ls-files", "*.c", "*.h", "*.S"], text=True).split()
edges = {}
for f in files:
    src = unit(f)
    if src is None or not os.path.isfile(f):
        continue
    for inc in INCLUDE.findall(open(f, errors="replace").read()):
        t = resolve(f, inc)
        dst = unit(t) if t else None
        if dst and dst != src:
            edges.setdefault((src, dst), []).append(f"{f} -> {t}")

if "--dot" in sys.argv:
    print("digraph kov {")
    for (a, b) in sorted(edges):
        print(f'  "{a}" -> "{b}";')
    print("}")
    sys.exit(0)

# Tarjan's strongly connected components: any with more than one unit is a cycle.
graph = {}
for (a, b) in edges:
    graph.setdefault(a, set()).add(b)
    graph.setdefault(b, set())
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def connect(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(graph[v]):
        if w not in index:
            connect(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        sccs.append(comp)
sys.setrecursionlimit(10000)
for v in sorted(graph):
    if v not in index:
        connect(v)
cycles = [sorted(c) for c in sccs if len(c) > 1]
for (a, b) in sorted(edges):
    print(f"{a} -> {b}")
for c in cycles:
    print("CYCLE among " + ", ".join(c) + ":")
    for (a, b), why in sorted(edges.items()):
        if a in c and b in c:
            print(f"  {a} -> {b}  ({why[0]}" + (f" and {len(why) - 1} more" if len(why) > 1 else "") + ")")
print(f"layers: {len(edges)} arrows between {len(graph)} folders, {len(cycles)} cycles")
sys.exit(1 if cycles else 0)

"""Checks folded stacks (kovctl export --format folded) of chainbench against its known call
paths (sim/workloads/chainbench.c). Prints what it found; exits 1 with the reason if wrong."""
import sys

stacks = []
for line in open(sys.argv[1]):
    path, count = line.rstrip("\n").rsplit(" ", 1)
    stacks.append((path.split(";"), int(count)))
bench = [(f, n) for f, n in stacks if f[0] == "chainbench"]
total = sum(n for _, n in bench)
if total < 50:
    sys.exit(f"only {total} chainbench samples")


def at(frames, path):
    """Where path (outermost first) appears in frames, adjacent; -1 if nowhere."""
    for i in range(len(frames) - len(path) + 1):
        if frames[i:i + len(path)] == path:
            return i
    return -1


def fn(name):
    """A frame's function: without its object's class and the kernel mark."""
    name = name.split("::")[-1]
    return name[:-4] if name.endswith("_[k]") else name


def show(sel):
    return " | ".join(";".join(f) for f, _ in sel[:4])


# User samples in the method: main, chain_a, chain_b, chain_c, then the method (its object's
# class where the daemon knew the object), user frames only.
method = [(f, n) for f, n in bench if fn(f[-1]) == "spinner_spin_body"]
in_method = sum(n for _, n in method)
good = [(f, n) for f, n in method
        if at(f, ["main", "chain_a", "chain_b", "chain_c"]) >= 0 and f.index("chain_c") == len(f) - 2
        and not any(x.endswith("_[k]") for x in f)]
with_class = sum(n for f, n in good if f[-1] == "ChainBench::spinner_spin_body")
print(f"chainbench: {total} samples; {in_method} in the method, "
      f"{sum(n for _, n in good)} of them exactly main;chain_a;chain_b;chain_c;method, "
      f"{with_class} with the ChainBench object")
if in_method < total // 5:
    sys.exit("too few samples in the method")
if sum(n for _, n in good) < in_method * 0.95:
    sys.exit("method samples off the known path: " + show([m for m in method if m not in good]))
# The daemon maps a rep it has not seen within 250 ms (a rescan): at most the recording's
# first quarter second goes without the object.
if with_class < in_method * 0.75:
    sys.exit(f"only {with_class} of {in_method} method frames carry the ChainBench object")

# Page faults: user frames main;chain_a;chain_b;chain_touch, then (across the interrupt
# boundary) kernel frames from exception_dispatch down the fault path.
kern = [(f, n) for f, n in bench if f[-1].endswith("_[k]")]
in_kernel = sum(n for _, n in kern)
fault = [(f, n) for f, n in kern
         if at(f, ["main", "chain_a", "chain_b", "chain_touch", "exception_dispatch_[k]"]) >= 0]
deep = [(f, n) for f, n in fault
        if [fn(x) for x in f[f.index("exception_dispatch_[k]") + 1:][:3]] ==
        ["process_fault_body", "region_fault_body", "fcm_get_page_body"]]
objects = sum(n for f, n in deep if any("::" in x and x.endswith("_[k]") for x in f))
print(f"chainbench: {in_kernel} kernel samples, {sum(n for _, n in fault)} of them "
      f"main;chain_a;chain_b;chain_touch;exception_dispatch_[k];..., "
      f"{sum(n for _, n in deep)} through process_fault, region_fault, fcm_get_page "
      f"({objects} naming their kernel objects)")
if in_kernel < 20:
    sys.exit("too few kernel samples")
# System calls run with interrupts on, so samples also land inside chain_read's FILE_READ:
# user frames main;chain_a;chain_b;chain_read;file_read;__syscall, then (across the system-call
# boundary) exception_dispatch and syscall_dispatch in the kernel.
sysc = [(f, n) for f, n in kern
        if at(f, ["main", "chain_a", "chain_b", "chain_read", "file_read", "__syscall",
                  "exception_dispatch_[k]", "syscall_dispatch_[k]"]) >= 0]
print(f"chainbench: {sum(n for _, n in sysc)} kernel samples "
      f"main;chain_a;chain_b;chain_read;file_read;__syscall;exception_dispatch_[k];syscall_dispatch_[k];...")
if sum(n for _, n in sysc) < 20:
    sys.exit("no samples across the system-call boundary: " + show(kern))
if sum(n for _, n in fault) + sum(n for _, n in sysc) < in_kernel * 0.8:
    sys.exit("kernel samples off the page-fault and system-call paths: " +
             show([k for k in kern if k not in fault and k not in sysc]))
if sum(n for _, n in deep) < sum(n for _, n in fault) * 0.5 or not objects:
    sys.exit("the fault path's kernel frames are not the known ones: " + show(fault))
# No user frame under a kernel frame, anywhere.
for f, _ in stacks:
    k = [x.endswith("_[k]") for x in f[1:]]
    if any(k[i] and not k[i + 1] for i in range(len(k) - 1)):
        sys.exit("a user frame under a kernel frame: " + ";".join(f))

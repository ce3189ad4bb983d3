"""Kernel symbols of build/kov.elf, for naming static kernel locks. Read when a stage measures
(a later build moves them), and kept with its results."""
import os
import re
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
_KSYMS = None


def kernel_symbol(addr):
    """name+0xoff of a kernel address from build/kov.elf's symbols (static locks have one)."""
    global _KSYMS
    if _KSYMS is None:
        elf = os.path.join(TOP, "build", "kov.elf")
        out = subprocess.run(["powerpc64-linux-gnu-nm", "-n", elf], capture_output=True, text=True).stdout \
            if os.path.exists(elf) else ""
        _KSYMS = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"^([0-9a-f]{16}) [bBdDsS] (\S+)$", out, re.M)]
    best = None
    for a, name in _KSYMS:
        if a <= addr:
            best = (a, name)
        else:
            break
    return "%s+0x%x" % (best[1], addr - best[0]) if best and addr - best[0] < 0x10000 else None


def name_kernel_locks(top):
    """Adds to a kovctl top answer's kernel lock rows the symbol they have in this build ("" for
    a lock on the heap)."""
    for o in top.get("objects", []):
        if o.get("lock") and o.get("pid") == 0:
            o["symbol"] = kernel_symbol(int(o["lock"], 16)) or ""
    return top

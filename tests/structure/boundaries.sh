#!/usr/bin/env bash
# Every #include "..." crosses a folder boundary only through that boundary's interface
# (docs/architecture.md, "Folders and the arrows between them"). A new leak fails here.
# Prints each include that breaks a rule; exits 1 if there is one.
set -uo pipefail
cd "$(dirname "$0")/../.."

# Where FILE's include INC lands, as a path from the top: the including file's folder first,
# then the builds' include paths (-I. everywhere; -Igui on the host, -Ilibc-instr/include in
# user space, -Ikernel -Iboot in the kernel).
resolve() {
	local d
	for d in "${1%/*}" . gui libc-instr/include kernel boot; do
		[ -e "$d/$2" ] && { realpath -m --relative-to=. "$d/$2"; return; }
	done
	echo "$2"
}

# allowed FOLDER PREFIX...: files under FOLDER may include only files under the PREFIXes.
bad=0
allowed() {
	local folder=$1 f inc target p ok
	shift
	while IFS=: read -r f inc; do
		target=$(resolve "$f" "$inc")
		ok=0
		for p in "$folder" "$@"; do
			case "$target" in "$p"*) ok=1; break ;; esac
		done
		if [ "$ok" = 0 ]; then
			echo "$f includes $target: $folder may use only ${*:-itself}"
			bad=1
		fi
	done < <(grep -rsoE --include='*.[chS]' '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$folder" |
		sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)"/:\1/')
}

# The shared code depends on nothing but itself and the user/kernel ABI.
allowed common/ kernel/abi/
allowed proto/ common/ kernel/abi/
# The monitor sees the kernel only through kernel/include/, whose headers name no private ones.
allowed kov/ kernel/include/ kernel/abi/ common/
# (asm_offsets.h is generated from the kernel's per-CPU area: this_cpu.h reads it by offset.)
allowed kernel/include/ kernel/abi/ common/ asm_offsets.h
# Target user space: the C library and the daemon never reach into the kernel or the monitor.
allowed libc-instr/ common/ kernel/abi/
allowed dci/ proto/ common/ kernel/abi/ libc-instr/include/
allowed sim/workloads/ libc-instr/include/ kernel/abi/ common/
# Host programs speak the protocol and use the portable monitor through its registry.
allowed gui/ proto/ common/ kernel/abi/
allowed gui/client/ proto/ common/ kernel/abi/
allowed tools/ common/ kernel/abi/

# The kernel calls the monitor only through the hooks it owns (kernel/include/kov_hooks.h).
while IFS= read -r line; do
	echo "$line: the kernel reaches the monitor only through kernel/include/kov_hooks.h"; bad=1
done < <(grep -rnE --include='*.[chS]' '#[[:space:]]*include[[:space:]]+"(\.\./)*kov/' kernel boot)

# Host tools use the backend registry (common/monitor/pmu_backend.h), never a backend's tables.
while IFS= read -r line; do
	echo "$line: host tools choose PMU backends through the registry (common/monitor/pmu_backend.h)"; bad=1
done < <(grep -rnE --include='*.[ch]' '#[[:space:]]*include[[:space:]]+"[^"]*_pmu\.h"' gui tools)

[ "$bad" = 0 ] && echo "boundaries: every include goes through its boundary's interface"
exit "$bad"

/* Limits the kernel, its monitor, the user runtimes and the host tools must agree on. */
#ifndef KOV_LIMITS_H
#define KOV_LIMITS_H

/* CPUs the kernel can run: its per-CPU areas, the clustered objects' rep slots (CO_MAX_CPUS),
 * the scan's reps (SCAN_MAX_CPUS), the CPUs a thread may name (THREAD_CPU_MAX). */
#define KOV_MAX_CPUS 8

#endif

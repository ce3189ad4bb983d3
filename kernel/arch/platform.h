/* The machine the kernel runs on, chosen at boot from the device tree. Everything that differs
 * between the PAPR guest (QEMU pseries) and bare metal (Power Mac G5 / QEMU mac99) is here. */
#ifndef KOV_PLATFORM_H
#define KOV_PLATFORM_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "../lib/fdt.h"

#define MAX_MEM_REGIONS 8

struct mem_region { uint64_t base, size; };

struct machine_info {
	const char *profile;        /* "smp" (pseries) or "g5" (mac99 / Power Mac) */
	const char *model;          /* device tree model string */
	uint32_t pvr;
	uint64_t tb_freq;           /* timebase ticks per second */
	uint64_t mem_total;
	uint64_t mem_unused;        /* bytes above platform->dma_limit, left out of mem[] */
	struct mem_region mem[MAX_MEM_REGIONS];
	unsigned int mem_count;
	unsigned int cpu_count;     /* CPUs present in the device tree */
	uint32_t cpu_hw_id[8];      /* their interrupt server numbers, boot CPU first */
	const char *bootargs;       /* kernel command line, "" if none */
	const char *power_ctl;      /* what powers off, restarts and keeps the clock: "RTAS",
	                               "PMU99", "CUDA", or "none" */
};

struct platform {
	const char *name;
	const char *profile;        /* the sim/run profile this platform corresponds to */
	/* Returns true if this platform drives the machine described by the device tree. */
	bool (*probe)(const struct fdt *fdt);
	/* Prepares the console; called before anything is printed. */
	void (*console_init)(const struct fdt *fdt);
	void (*console_write)(const char *s, size_t n);
	/* Starts CPU hw_id at the physical address entry with r3 = arg; false if it cannot. */
	bool (*start_cpu)(uint32_t hw_id, uint64_t entry, uint64_t arg);
	/* Wakes CPU hw_id if it is waiting in idle (0: the CPU notices at its next tick). */
	void (*kick)(uint32_t hw_id);
	/* Restarts CPU hw_id if the machine left it halted with interrupts off (wake_guard.c;
	 * 0 where that cannot happen). Harmless to a CPU that runs. */
	void (*unhalt)(uint32_t hw_id);
	/* (Re)arms a hypervisor watchdog that resets every CPU when not armed again within ms
	 * (wake_guard.c); false if refused. 0 where the platform has none. */
	bool (*watchdog_start)(unsigned int ms);
	void (*watchdog_stop)(void);
	/* Prepares this CPU to take external interrupts and IPIs (0 if none). */
	void (*interrupts_init_cpu)(void);
	/* Handles an external interrupt (vector 0x500); 0 if the platform takes none. */
	void (*external_interrupt)(void);
	/* Unmasks device interrupt `source` and routes it to the boot CPU (kernel/arch/irq.h); 0 or
	 * false if the platform cannot deliver device interrupts. */
	bool (*irq_route)(uint32_t source);
	/* Ends this CPU's turn where the emulator runs the CPUs in turn on one host thread, so that
	 * the next CPU runs now (smp_yield_turn); 0 if the platform has no call for it. */
	void (*yield_turn)(void);
	/* Waits for the next interrupt with interrupts enabled (returns after it was handled). */
	void (*idle)(void);
	/* How the hashed page table is written: directly, or through the hypervisor's calls
	 * (kernel/mm/mmu.c picks the code for it). */
	enum platform_hpt { HPT_NATIVE, HPT_HYPERVISOR } hpt;
	/* Devices reach memory only below this physical address without an IOMMU the kernel
	 * does not drive (mac99: the G5's U3 DART), so memory above it is left unused, as Linux
	 * does with its IOMMU off; 0: no limit. */
	uint64_t dma_limit;
	/* Powers the machine off; QEMU exits. */
	void (*power_off)(void) __attribute__((noreturn));
	/* Restarts the machine through its firmware (QEMU resets and boots again); returns only if
	 * the request was not taken. */
	void (*reboot)(void);
	/* Reads the battery-backed clock: seconds since 1970-01-01 UTC; false if there is none or
	 * it did not answer. */
	bool (*rtc_read)(int64_t *unix_seconds);
};

extern const struct platform *platform;
extern struct machine_info machine;

/* Picks the platform for this device tree and fills `machine`; returns false if none fits. */
bool platform_init(const void *fdt_blob);

/* The device tree the kernel booted with (valid for the kernel's lifetime). */
extern struct fdt boot_fdt;

/* True if the string-list property `name` of `node` contains `want`. */
bool fdt_has_string(const struct fdt *f, int node, const char *name, const char *want);

/* Stops the machine for good (powers off where possible, else spins with interrupts off). */
void machine_halt(void) __attribute__((noreturn));

/* Restarts the machine; if the platform cannot, says so and halts. */
void machine_reboot(void) __attribute__((noreturn));

#endif

#include "wake_guard.h"
#include "percpu.h"
#include "platform.h"
#include "cpu.h"
#include "console.h"
#include "hcall.h"
#include "../lib/bootargs.h"

static struct {
	unsigned int ms;            /* timeout; 0 = no watchdog */
	bool per_cede;              /* armed around each cede (one CPU) instead of by the ticks */
	uint64_t pet_every;         /* ticks' pets: timebase ticks between them */
	uint64_t next_pet;          /* timebase of the next pet (claimed by compare-and-swap) */
	volatile uint64_t deadline; /* timebase by which the armed watchdog fires, 0 = not armed */
	volatile uint64_t expired;  /* the last deadline that passed before it was armed again */
	uint32_t said_rescue, said_reset, said_prod;
} wdt;

/* A CPU slow to take the reset of a watchdog that fired must still know it for the watchdog's
 * after the watchdog is armed again or stopped. */
static void note_expiry(uint64_t now)
{
	uint64_t old = __atomic_load_n(&wdt.deadline, __ATOMIC_ACQUIRE);
	if (old && (int64_t)(now - old) >= 0)
		__atomic_store_n(&wdt.expired, old, __ATOMIC_RELEASE);
}

static bool arm(uint64_t now)
{
	note_expiry(now);
	if (!platform->watchdog_start(wdt.ms))
		return false;
	/* QEMU times the watchdog in whole ms of its virtual clock, which the timebase follows:
	 * 2 ms early is certainly past its expiry. */
	__atomic_store_n(&wdt.deadline, now + (wdt.ms - 2) * (machine.tb_freq / 1000),
			 __ATOMIC_RELEASE);
	return true;
}

static void disarm(uint64_t now)
{
	note_expiry(now);
	platform->watchdog_stop();
	__atomic_store_n(&wdt.deadline, 0, __ATOMIC_RELEASE);
}

void wake_cede(void)
{
	struct percpu *cpu = this_cpu();
	cpu->cede_msr = mfmsr();
	/* A CPU alone: the watchdog runs only while it cedes, so its reset can find it nowhere
	 * else (where a CPU whose host thread merely ran late could be caught unrecoverable). */
	if (wdt.per_cede)
		arm(mftb());
	cpu->ceding = 1;
	hcall_cede(&cpu->cede_sp);   /* returns with interrupts off again (hcall.S) */
	wake_cede_ended();
}

void wake_cede_ended(void)
{
	struct percpu *cpu = this_cpu();
	if (!cpu->ceding)
		return;
	cpu->ceding = 0;
	if (wdt.per_cede)
		disarm(mftb());
}

static void pet(uint64_t now)
{
	uint64_t next = __atomic_load_n(&wdt.next_pet, __ATOMIC_RELAXED);
	if (!wdt.ms || wdt.per_cede || (int64_t)(now - next) < 0 ||
	    !__atomic_compare_exchange_n(&wdt.next_pet, &next, now + wdt.pet_every, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	arm(now);
}

void wake_guard_start(void)
{
	bool alone = cpus_online < 2;
	uint64_t dflt = alone ? WAKE_WATCHDOG_MS_ALONE : WAKE_WATCHDOG_MS_SMP, ms = dflt;
	int rc = bootarg_u64(machine.bootargs, "wakewdt", &ms);
	if (rc < 0 || (ms != 0 && (ms < 20 || ms > 60000))) {
		kprintf("kov: bad boot argument wakewdt (want 0 or 20..60000 ms), using %lu\n",
			(unsigned long)dflt);
		ms = dflt;
	}
	if (!ms || !platform->watchdog_start) {
		kprintf("wake: no hypervisor watchdog (%s)\n", ms ? "none on this platform" : "wakewdt=0");
		return;
	}
	wdt.ms = (unsigned int)ms;
	if (!arm(mftb())) {
		wdt.ms = 0;
		kprintf("wake: the hypervisor refused its watchdog (H_WATCHDOG); no reset backstop\n");
		return;
	}
	if (alone) {
		disarm(mftb());
		wdt.per_cede = true;
		kprintf("wake: hypervisor watchdog: a cede that has not ended after %u ms is reset\n",
			wdt.ms);
		return;
	}
	wdt.pet_every = ms * (machine.tb_freq / 1000) / 4;
	wdt.next_pet = mftb() + wdt.pet_every;
	kprintf("wake: hypervisor watchdog armed: every CPU is reset when none ticked for %u ms\n",
		wdt.ms);
}

/* H_PROD every ceded CPU whose tick is overdue by WAKE_PROD_PERIODS: halted at a vector by
 * QEMU's race, it runs again (H_PROD clears QEMU's halted state); merely late, it loses nothing
 * (its next cede returns at once). */
static void prod_sleepers(struct percpu *me, uint64_t now)
{
	if (!platform->unhalt)
		return;
	uint64_t prod_min = WAKE_PROD_MIN_US * (machine.tb_freq / 1000000);
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		struct percpu *o = &percpu_area[i];
		if (o == me || !o->online || !o->ceding || !o->dec_period)
			continue;
		uint64_t due = __atomic_load_n(&o->next_tick_tb, __ATOMIC_RELAXED);
		uint64_t grace = WAKE_PROD_PERIODS * o->dec_period;
		if (grace < prod_min)
			grace = prod_min;
		if ((int64_t)(now - due) < (int64_t)grace)
			continue;
		/* At most one prod a period, whoever notices first. */
		uint64_t after = __atomic_load_n(&o->prod_after, __ATOMIC_RELAXED);
		if ((int64_t)(now - after) < 0 ||
		    !__atomic_compare_exchange_n(&o->prod_after, &after, now + o->dec_period, false,
						 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue;
		platform->unhalt(o->hw_id);
		if (!me->wake_prods++ && !__atomic_exchange_n(&wdt.said_prod, 1, __ATOMIC_RELAXED))
			kprintf("wake: cpu%u found cpu%u ceded %lu us past its tick; prodded it\n",
				me->index, o->index,
				(unsigned long)((now - due) / (machine.tb_freq / 1000000)));
	}
}

void wake_guard_tick(const struct trap_frame *tf)
{
	struct percpu *cpu = this_cpu();
	uint64_t now = mftb();
	if (tf->nip == (uint64_t)hcall_cede_return && (int64_t)(now - cpu->next_tick_tb) > 0 &&
	    now - cpu->next_tick_tb > cpu->wake_late_max_tb)
		cpu->wake_late_max_tb = now - cpu->next_tick_tb;
	pet(now);
	prod_sleepers(cpu, now);
}

static bool is_vector_entry(uint64_t nip)
{
	return nip == 0x500 || nip == 0x900 || nip == 0xf00;
}

/* The exception entry and return code (boot/vectors.S, its first 16 KiB: at its physical
 * address before translation goes on, at its link address on the way back), where MSR[RI] is
 * off while SRR0/1 are live. */
static bool in_exception_code(uint64_t nip)
{
	extern char _start[];
	return nip < 0x4000 || nip - (uint64_t)_start < 0x4000;
}

bool wake_guard_reset(struct trap_frame *tf)
{
	struct percpu *cpu = this_cpu();
	uint64_t deadline = __atomic_load_n(&wdt.deadline, __ATOMIC_ACQUIRE);
	if (!deadline || (int64_t)(mftb() - deadline) < 0)
		deadline = __atomic_load_n(&wdt.expired, __ATOMIC_ACQUIRE);
	/* The watchdog fires once per arming: a second reset for the same deadline is an NMI. */
	if (!wdt.ms || !deadline || cpu->reset_deadline == deadline)
		return false;
	cpu->reset_deadline = deadline;
	cpu->wake_resets++;
	if (cpu->ceding && !(tf->msr & MSR_RI) && in_exception_code(tf->nip)) {
		/* Between H_CEDE's return and the interrupt handler's entry (proc/trap.c ends the
		 * cede there): an interrupt was taken at hcall_cede_return, which is the only place
		 * one can be. Its entry saved nothing yet that is not known: the state was the
		 * return from H_CEDE, MSR[EE] on, the stack pointer hcall_cede kept, the volatile
		 * registers dead. Halted at the vector itself, it is QEMU's race. Either way the
		 * CPU goes back to hcall_cede_return and the interrupt, still pending (the
		 * decrementer and external interrupts are level-triggered), is taken again; a
		 * performance-monitor interrupt, cleared on delivery, is handled now. */
		bool stuck = is_vector_entry(tf->nip);
		if (stuck) {
			cpu->wake_rescues++;
			if (!__atomic_exchange_n(&wdt.said_rescue, 1, __ATOMIC_RELAXED))
				kprintf("wake: cpu%u was halted at vector 0x%lx after H_CEDE (QEMU's race); "
					"resumed by the watchdog's reset\n", cpu->index, (unsigned long)tf->nip);
		}
		if (stuck && tf->nip == 0xf00)
			tf->vector = 0xf00;
		tf->nip = (uint64_t)hcall_cede_return;
		tf->msr = cpu->cede_msr | MSR_EE;
		tf->gpr[1] = cpu->cede_sp;
		return true;
	}
	if (!(tf->msr & MSR_RI)) {
		kprintf("wake: the watchdog's reset caught cpu%u where it cannot resume (MSR[RI] off)\n",
			cpu->index);
		return false;
	}
	if (!__atomic_exchange_n(&wdt.said_reset, 1, __ATOMIC_RELAXED))
		kprintf(wdt.per_cede ? "wake: a cede lasted %u ms: the watchdog reset cpu%u, which resumes\n" :
			"wake: no CPU ticked for %u ms: the watchdog reset every CPU; cpu%u resumes\n",
			wdt.ms, cpu->index);
	return true;
}

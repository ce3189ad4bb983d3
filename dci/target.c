/* What the daemon knows about the target, all of it from the KM's system calls. */
#include "dcid.h"
#include "common/syms/elf_syms.h"
#include "kernel/abi/syscall_nr.h"

#define SCAN_MAX 4096
#define PROCS_MAX 1024
#define PROGRAM_CACHE 16
#define PROGRAM_SYMS_BYTES (256 * 1024)

struct target target;

uint64_t timebase_now(void)
{
	uint64_t tb;
	__asm__ volatile("mfspr %0, 268" : "=r"(tb));
	return tb;
}

bool target_load(void)
{
	if (km_info(&target.info) != 0)
		return false;
	long n = km_catalogue(0, 0);
	if (n < 0)
		return false;
	target.events = malloc(((size_t)n + 1) * sizeof *target.events);
	if (!target.events || km_catalogue(target.events, (unsigned)n) != n)
		return false;
	target.n_events = (uint32_t)n;
	target.has_platform = platform_info(&target.platform) == 0;
	long size = km_ksyms(0, 0);
	if (size > 0 && (target.ksyms = malloc((size_t)size)) && km_ksyms(target.ksyms, (size_t)size) == size)
		target.ksyms_size = size;
	return true;
}

void target_refresh(void)
{
	struct km_info i;
	if (km_info(&i) == 0)
		target.info = i;
}

uint8_t target_cpus_run(void)
{
	/* The KM's values are the protocol's; one this daemon does not know is not guessed at. */
	switch (target.info.cpus_run) {
	case KM_CPUS_TAKE_TURNS: return PROTO_CPUS_TAKE_TURNS;
	case KM_CPUS_PARALLEL: return PROTO_CPUS_PARALLEL;
	default: return PROTO_CPUS_UNKNOWN;
	}
}

uint64_t coid_of(uint32_t pid, uint32_t index)
{
	/* COIDs are LTT entry addresses: the kernel's LTT segment or the process's own. */
	return (pid == 0 ? 0xD000000000000000ull : USER_LTT_BASE) + (uint64_t)index * 16;
}

/* The process list and the scan are two system calls: a process started between them owns
 * objects of the scan but is not in the list, and its objects would have no process. Such
 * processes are looked up in a second list; one gone by then is listed with the name the scan
 * recorded, as exited (it was waited for: no threads, no parent known). */
static void complete_processes(struct snapshot *s)
{
	uint32_t checked = 0;
	bool missing = false;
	for (uint32_t i = 0; i < s->n_objs && !missing; i++) {
		uint32_t pid = s->objs[i].pid;
		missing = pid && pid != checked && !snapshot_process(s, pid);
		checked = pid;
	}
	if (!missing)
		return;
	struct km_process *again = malloc(PROCS_MAX * sizeof *again);
	long n = again ? km_processes(again, PROCS_MAX) : 0;
	if (n > PROCS_MAX)
		n = PROCS_MAX;
	for (uint32_t i = 0; i < s->n_objs && s->n_procs < PROCS_MAX; i++) {
		const struct scan_record *r = &s->objs[i];
		if (!r->pid || snapshot_process(s, r->pid))
			continue;
		struct km_process *p = &s->procs[s->n_procs++];
		*p = (struct km_process){ .pid = r->pid, .state = KM_PROC_EXITED };
		memcpy(p->name, r->process_name, sizeof p->name);
		p->name[sizeof p->name - 1] = 0;
		for (long j = 0; j < n; j++)
			if (again[j].pid == r->pid)
				*p = again[j];
	}
	free(again);
}

bool snapshot_take(struct snapshot *s)
{
	*s = (struct snapshot){ 0 };
	s->procs = malloc(PROCS_MAX * sizeof *s->procs);
	s->objs = malloc(SCAN_MAX * sizeof *s->objs);
	if (!s->procs || !s->objs) {
		snapshot_free(s);
		return false;
	}
	long np = km_processes(s->procs, PROCS_MAX);
	long no = __syscall(SYS_KM_SCAN, (long)s->objs, SCAN_MAX, (long)&s->totals, 0, 0);
	if (np < 0 || no < 0) {
		snapshot_free(s);
		return false;
	}
	s->n_procs = np < PROCS_MAX ? (uint32_t)np : PROCS_MAX;
	s->n_objs = (uint32_t)no;
	s->timebase = timebase_now();
	complete_processes(s);
	return true;
}

void snapshot_free(struct snapshot *s)
{
	free(s->procs);
	free(s->objs);
	s->procs = 0;
	s->objs = 0;
}

const struct km_process *snapshot_process(const struct snapshot *s, uint32_t pid)
{
	for (uint32_t i = 0; i < s->n_procs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return 0;
}

/* ---- user programs' symbol tables ------------------------------------------------------- */

struct program {
	char name[32];
	void *table;              /* 0 with `why` set when the program has none */
	const char *why;
};
static struct program cache[PROGRAM_CACHE];
static unsigned cache_next;

static long read_program(void *ctx, uint64_t offset, void *buf, size_t len)
{
	return file_read(ctx, offset, buf, len);
}

static uint64_t program_size(const char *name)
{
	/* The initrd gives no sizes: find the end by probing doubling offsets, then halving. */
	char c;
	uint64_t lo = 0, hi = 4096;
	while (file_read(name, hi, &c, 1) == 1) {
		lo = hi;
		hi *= 2;
		if (hi > (1ull << 32))
			return 0;
	}
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (file_read(name, mid, &c, 1) == 1)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

const void *program_symbols(uint32_t pid, const char **image, const char **why)
{
	struct km_process procs[64];
	long n = km_processes(procs, 64);
	const char *name = 0;
	for (long i = 0; i < n && i < 64; i++)
		if (procs[i].pid == pid)
			name = procs[i].name;
	if (!name) {
		*why = "no such process";
		return 0;
	}
	for (unsigned i = 0; i < PROGRAM_CACHE; i++)
		if (cache[i].name[0] && strcmp(cache[i].name, name) == 0) {
			*image = cache[i].name;
			*why = cache[i].why;
			return cache[i].table;
		}
	struct program *p = &cache[cache_next++ % PROGRAM_CACHE];
	free(p->table);
	*p = (struct program){ 0 };
	size_t len = strlen(name) < sizeof p->name - 1 ? strlen(name) : sizeof p->name - 1;
	memcpy(p->name, name, len);
	p->name[len] = 0;
	uint64_t size = program_size(p->name);
	p->table = malloc(PROGRAM_SYMS_BYTES);
	long rc = size && p->table ? elf_syms_build(read_program, p->name, size, p->table,
						    PROGRAM_SYMS_BYTES) : -1;
	if (rc < 0) {
		free(p->table);
		p->table = 0;
		p->why = size ? elf_syms_strerror(rc) : "the program is not in the initial RAM disk";
	}
	*image = p->name;
	*why = p->why;
	return p->table;
}

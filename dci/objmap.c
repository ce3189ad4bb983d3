/* The object map: which object each rep is, from the last scan, so that samples, call-chain
 * frames and lock owners (which the KM gives as rep addresses) can name objects by COID and
 * generation on the wire. Rescanned when samples name reps the map does not know, at most
 * every RESCAN_NS (RESCAN_NEW_NS for reps the last rescan did not already miss). */
#include "monitor.h"

#define RESCAN_NS 1000000000ull       /* unknown reps trigger a rescan at most this often */
#define RESCAN_NEW_NS 250000000ull    /* ... and reps not missed by the last rescan this often */
#define MISSED_MAX 64

/* rep -> object, from the last scan: sorted by (pid, rep). Kernel reps are under pid 0. */
static struct rep_entry *reps;
static uint32_t n_reps;
static uint64_t last_scan_ns;
/* The last rep found: a batch's samples mostly fall in one object (a few instructions against
 * the search's hundred). Forgotten when the map is rebuilt. */
static const struct rep_entry *last_found;
/* Reps that samples named and the last rescan did not find (objects destroyed since, most
 * likely): they wait for RESCAN_NS. A rep not among them, an object made since the last scan,
 * triggers a rescan after RESCAN_NEW_NS: with the one rate of a second, a recording's first
 * second named no object for samples of an object the map did not have yet (chains.sh). */
struct missed_rep { uint32_t pid; uint64_t rep; };
static struct missed_rep missed[MISSED_MAX];
static uint32_t n_missed;

bool objmap_missed(uint32_t pid, uint64_t rep)
{
	for (uint32_t i = 0; i < n_missed; i++)
		if (missed[i].pid == pid && missed[i].rep == rep)
			return true;
	return false;
}


void objmap_note_missed(uint32_t pid, uint64_t rep)
{
	if (n_missed < MISSED_MAX && !objmap_missed(pid, rep))
		missed[n_missed++] = (struct missed_rep){ pid, rep };
}

static int rep_cmp(const struct rep_entry *a, uint32_t pid, uint64_t rep)
{
	if (a->pid != pid)
		return a->pid < pid ? -1 : 1;
	return a->rep < rep ? -1 : a->rep > rep;
}

static void sort_reps(void)
{
	for (uint32_t i = 1; i < n_reps; i++) {   /* insertion sort: scans come mostly ordered */
		struct rep_entry e = reps[i];
		uint32_t j = i;
		while (j > 0 && rep_cmp(&reps[j - 1], e.pid, e.rep) > 0) {
			reps[j] = reps[j - 1];
			j--;
		}
		reps[j] = e;
	}
}

/* Whether pid's reps in the current map are kept through the scan s: a live process whose
 * runtime did not answer in time (its scanner thread not scheduled within the timeout on a
 * loaded CPU) and so has no records in s. Dropping them left every sample of that process
 * without its object until the next rescan a second later, or for good when every rescan
 * missed it (chains.sh failed about one run in six). */
static bool keep_reps_of(const struct snapshot *s, uint32_t pid)
{
	if (!pid || !s->totals.processes_silent || !snapshot_process(s, pid))
		return false;
	for (uint32_t i = 0; i < s->n_objs; i++)
		if ((s->objs[i].flags & SCAN_USER) && s->objs[i].pid == pid)
			return false;
	return true;
}

static void rescan(void)
{
	struct snapshot s;
	last_scan_ns = clock_ns();
	n_missed = 0;
	if (!snapshot_take(&s))
		return;
	struct rep_entry *r = 0;
	uint32_t n = 0;
	for (int pass = 0; pass < 2; pass++) {   /* count, then fill (and room for the kept) */
		if (pass == 1 && !(r = malloc(((size_t)n + n_reps) * sizeof *r + 1))) {
			printf("dcid: no memory for the object map (%u reps)\n", (unsigned)n);
			snapshot_free(&s);
			return;
		}
		n = 0;
		for (uint32_t i = 0; i < s.n_objs; i++) {
			const struct scan_record *o = &s.objs[i];
			for (int cpu = 0; cpu < SCAN_MAX_CPUS; cpu++) {
				bool dup = false;
				for (int k = 0; k < cpu && !dup; k++)
					dup = o->reps[k] == o->reps[cpu];
				uint32_t space = o->flags & SCAN_USER ? o->pid : 0;
				if (o->reps[cpu] && !dup && pass == 1)
					r[n] = (struct rep_entry){ space, o->generation, o->reps[cpu],
								   coid_of(space, o->index),
								   (uint16_t)(o->flags & SCAN_PER_CPU ? cpu + 1 : 0) };
				n += o->reps[cpu] && !dup;
			}
		}
	}
	uint32_t kept = 0;
	bool keep = false;
	for (uint32_t i = 0; i < n_reps; i++) {   /* sorted by pid: one decision per process */
		if (i == 0 || reps[i].pid != reps[i - 1].pid)
			keep = keep_reps_of(&s, reps[i].pid);
		if (keep)
			r[n + kept++] = reps[i];
	}
	if (kept)
		printf("dcid: object map: kept %u reps of silent process(es), first pid %u\n",
		       (unsigned)kept, (unsigned)s.totals.silent_pid);
	n += kept;
	if (n != n_reps)
		printf("dcid: object map: %u reps of %u objects\n", (unsigned)n, (unsigned)s.n_objs);
	free(reps);
	last_found = 0;
	reps = r;
	n_reps = n;
	sort_reps();
	snapshot_free(&s);
}


const struct rep_entry *objmap_find(uint32_t pid, uint64_t rep)
{
	if (last_found && last_found->rep == rep && last_found->pid == pid)
		return last_found;
	uint32_t lo = 0, hi = n_reps;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = rep_cmp(&reps[mid], pid, rep);
		if (c == 0)
			return last_found = &reps[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

bool objmap_refresh(bool fresh)
{
	uint64_t since = clock_ns() - last_scan_ns;
	if (since < (fresh ? RESCAN_NEW_NS : RESCAN_NS))
		return false;
	rescan();
	return true;
}

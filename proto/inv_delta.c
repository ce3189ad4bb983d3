/* Invocation counts per report interval (inv_delta.h). */
#include "inv_delta.h"

#define ALL 0xFFFFFFFFu

static uint32_t space_of(const struct scan_record *o)
{
	return o->flags & SCAN_USER ? o->pid : 0;
}

static bool same_object(const struct inv_entry *e, uint32_t space, const struct scan_record *o)
{
	return e->space == space && e->index == o->index && e->gen == o->generation;
}

/* Whether pid's runtime answered scan s (a silent process's objects are missing from it). */
static bool answered(const struct inv_scan *s, uint32_t pid)
{
	for (uint32_t i = 0; i < s->n; i++)
		if ((s->objs[i].flags & SCAN_USER) && s->objs[i].pid == pid)
			return true;
	return false;
}

static bool covered(const struct inv_baseline *b, uint32_t space)
{
	if (!space)
		return b->kernel;
	for (uint32_t i = 0; i < b->n_spaces; i++)
		if (b->spaces[i] == space)
			return true;
	return false;
}

static bool fresh(const struct inv_baseline *b, uint32_t space, uint32_t index)
{
	if (b->fresh_all)
		return true;
	for (uint32_t i = 0; i < b->n_fresh; i++)
		if (b->fresh[i].space == space && (b->fresh[i].index == ALL || b->fresh[i].index == index))
			return true;
	return false;
}

static const struct inv_entry *baseline_of(const struct inv_baseline *b, uint32_t space,
					   const struct scan_record *o)
{
	for (uint32_t j = 0; j < b->n; j++)
		if (same_object(&b->e[j], space, o))
			return &b->e[j];
	return 0;
}

/* A new baseline from s into *out, old left as it is: the counted objects in s, and the
 * entries of old for processes alive but silent in s (their calls are reported when they
 * answer). The spaces it covers: the kernel's unless s was truncated, every process that
 * answered, and the silent ones old covered. False when out of memory. */
static bool build(const struct inv_baseline *old, const struct inv_scan *s, uint64_t tb,
		  const struct inv_mem *m, struct inv_baseline *out)
{
	struct inv_entry *e = m->alloc(((size_t)s->n + old->n) * sizeof *e + 1);
	uint32_t *spaces = m->alloc(((size_t)s->n + old->n_spaces) * sizeof *spaces + 1);
	if (!e || !spaces) {
		m->free(e);
		m->free(spaces);
		return false;
	}
	uint32_t n = 0, n_spaces = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct scan_record *o = &s->objs[i];
		if (o->flags & SCAN_COUNTED)
			e[n++] = (struct inv_entry){ space_of(o), o->index, o->generation, o->invocations };
		bool seen = !(o->flags & SCAN_USER);
		for (uint32_t k = n_spaces; k-- > 0 && !seen;)
			seen = spaces[k] == o->pid;
		if (!seen)
			spaces[n_spaces++] = o->pid;
	}
	for (uint32_t j = 0; j < old->n; j++) {
		uint32_t pid = old->e[j].space;
		if (pid && s->alive && s->alive(s->ctx, pid) && !answered(s, pid))
			e[n++] = old->e[j];
	}
	for (uint32_t k = 0; k < old->n_spaces; k++) {
		uint32_t pid = old->spaces[k];
		if (s->alive && s->alive(s->ctx, pid) && !answered(s, pid))
			spaces[n_spaces++] = pid;
	}
	*out = (struct inv_baseline){ .e = e, .n = n, .spaces = spaces, .n_spaces = n_spaces,
				      .kernel = !s->truncated, .based = true, .since = tb,
				      .skipped_reports = old->skipped_reports,
				      .skipped_objects = old->skipped_objects };
	return true;
}

/* b becomes next (b's arrays freed). */
static void replace(struct inv_baseline *b, struct inv_baseline *next, const struct inv_mem *m)
{
	m->free(b->e);
	m->free(b->spaces);
	*b = *next;
}

void inv_reset(struct inv_baseline *b, const struct inv_mem *m)
{
	struct inv_baseline none = { .skipped_reports = b->skipped_reports,
				     .skipped_objects = b->skipped_objects };
	replace(b, &none, m);
}

bool inv_start(struct inv_baseline *b, const struct inv_scan *s, uint64_t tb, const struct inv_mem *m)
{
	inv_reset(b, m);
	struct inv_baseline next;
	if (!build(b, s, tb, m, &next))
		return false;
	replace(b, &next, m);
	return true;
}

void inv_counting_on(struct inv_baseline *b, uint32_t space, uint32_t index)
{
	if (b->n_fresh < INV_FRESH_MAX) {
		b->fresh[b->n_fresh].space = space;
		b->fresh[b->n_fresh++].index = index;
	} else {
		b->fresh_all = true;
	}
}

void inv_forget(struct inv_baseline *b, uint32_t space, uint32_t index)
{
	uint32_t k = 0;
	for (uint32_t j = 0; j < b->n; j++)
		if (b->e[j].space != space || (index != ALL && b->e[j].index != index))
			b->e[k++] = b->e[j];
	b->n = k;
}

enum inv_outcome inv_report(struct inv_baseline *b, const struct inv_scan *s, uint64_t end,
			    uint64_t *start, const struct inv_mem *m,
			    void (*emit)(void *arg, const struct inv_entry *calls), void *arg)
{
	*start = b->since;
	/* The next baseline is made first: without memory for it nothing is reported, and the
	 * next report still differences against this one, spanning both intervals. */
	struct inv_baseline next;
	if (!build(b, s, end, m, &next))
		return INV_NO_MEMORY;
	if (!b->based) {
		/* Differencing against nothing would report totals since counting began. */
		next.skipped_reports++;
		replace(b, &next, m);
		return INV_BASELINE_ONLY;
	}
	for (uint32_t i = 0; i < s->n; i++) {
		const struct scan_record *o = &s->objs[i];
		if (!(o->flags & SCAN_COUNTED))
			continue;
		uint32_t space = space_of(o);
		const struct inv_entry *was = baseline_of(b, space, o);
		uint64_t from = 0;
		if (was && was->calls <= o->invocations) {
			from = was->calls;
		} else if (!was && !covered(b, space) && !fresh(b, space, o->index)) {
			/* Counted before the baseline but missing from it: its calls so far are not
			 * this interval's. Reported from the next interval on. */
			next.skipped_objects++;
			continue;
		}
		if (o->invocations == from)
			continue;
		struct inv_entry r = { space, o->index, o->generation, o->invocations - from };
		emit(arg, &r);
	}
	replace(b, &next, m);
	return INV_REPORTED;
}

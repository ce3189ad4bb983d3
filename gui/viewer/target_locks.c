/* Lock statistics in a target's model: every lock's LOCK_CONTENTION reports summed since
 * connected (the lock view, the selected object's locks, each object's measured wait), and
 * per report interval the spin pane's measured wait and, where PM_STCX cannot be counted,
 * the acquisition pane's software counts (client/metrics.h computes both). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"

static void take_interval(struct target *t, const struct kov_lock_interval *iv, uint64_t now)
{
	struct pane *spin = &t->pane[PANE_SPIN];
	unsigned cpus = t->have_desc ? t->desc.cpus : 0;
	double v = cpus ? kov_lock_wait_share(iv, PROTO_LOCK_SPIN, cpus) :
			  kov_lock_wait_ms_per_s(iv, PROTO_LOCK_SPIN);
	t->lock_intervals++;
	if (v >= 0 && spin->available)
		series_push(&spin->s, now, v);
	double pct;
	if (!t->stcx_counted && t->pane[PANE_LOCKACQ].available && kov_lock_first_try(iv, &pct))
		series_push(&t->pane[PANE_LOCKACQ].s, now, pct);
}

void target_take_locks(struct target *t, const struct proto_frame *f, uint64_t now)
{
	if (t->locks)
		kov_lock_table_add(t->locks, f);
	struct kov_lock_interval done;
	if (kov_lock_meter_add(&t->lock_meter, f, &done))
		take_interval(t, &done, now);
}

/* Heaviest wait first, then most contentions: the order of the lock view. */
static bool heavier(const struct proto_lock *a, const struct proto_lock *b)
{
	return a->wait_total != b->wait_total ? a->wait_total > b->wait_total :
	       a->contentions > b->contentions;
}

static bool belongs(const struct proto_lock *l, uint32_t space, uint64_t coid, uint32_t gen)
{
	return l->coid == coid && l->gen == gen && l->pid == space;
}

size_t target_locks_of(const struct target *t, bool match_all, uint32_t space, uint64_t coid,
		       uint32_t gen, const struct proto_lock **out, size_t max)
{
	size_t n = 0, kept = 0;
	for (size_t i = 0; t->locks && i < t->locks->n; i++) {
		const struct proto_lock *l = &t->locks->locks[i];
		if (!match_all && !belongs(l, space, coid, gen))
			continue;
		n++;
		/* Insertion into the `max` heaviest so far. */
		if (kept == max && (!max || !heavier(l, out[kept - 1])))
			continue;
		size_t j = kept < max ? kept++ : kept - 1;
		while (j > 0 && heavier(l, out[j - 1])) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = l;
	}
	return n;
}

uint64_t target_lock_wait(const struct target *t, uint32_t space, uint64_t coid, uint32_t gen,
			  uint16_t kind)
{
	uint64_t wait = 0;
	for (size_t i = 0; t->locks && i < t->locks->n; i++) {
		const struct proto_lock *l = &t->locks->locks[i];
		if (belongs(l, space, coid, gen) && (!kind || l->kind == kind))
			wait += l->wait_total;
	}
	return wait;
}

bool target_full_counting(const struct target *t, uint32_t pid, uint64_t coid)
{
	for (size_t i = 0; i < t->n_full; i++)
		if (t->full[i].pid == pid && t->full[i].coid == coid)
			return true;
	return false;
}

bool target_toggle_full_counting(struct target *t, uint32_t pid, uint64_t coid)
{
	bool on = !target_full_counting(t, pid, coid);
	if (on && t->n_full == sizeof t->full / sizeof t->full[0]) {
		snprintf(t->status, sizeof t->status, "full lock counting: the viewer keeps at most %zu",
			 t->n_full);
		return false;
	}
	if (!target_instrument(t, pid, coid, on, PROTO_INSTR_LOCKS_FULL))
		return false;
	if (on) {
		t->full[t->n_full].pid = pid;
		t->full[t->n_full++].coid = coid;
	} else {
		for (size_t i = 0; i < t->n_full; i++)
			if (t->full[i].pid == pid && t->full[i].coid == coid)
				t->full[i] = t->full[--t->n_full];
	}
	return true;
}

const char *target_lock_name(const struct target *t, uint64_t lock)
{
	for (size_t i = 0; i < t->n_locknames; i++)
		if (t->lockname_addr[i] == lock)
			return t->lockname[i][0] ? t->lockname[i] : NULL;
	return NULL;
}

static void take_lock_names(struct target *t, const struct kov_answer *a)
{
	for (size_t k = 0; k < a->count; k++) {
		struct proto_symbols_head h;
		struct proto_iter it;
		struct proto_symbol s;
		if (proto_decode_symbols(&a->frames[k].f, &h, &it) < 0)
			continue;
		while (proto_next_symbol(&it, &s))
			for (size_t i = t->lockname_asked; i < t->n_locknames; i++)
				if (t->lockname_addr[i] == s.addr && s.name.len)
					target_symbol_text(&s, t->lockname[i], sizeof t->lockname[i]);
	}
	t->lockname_asked = t->n_locknames;
}

bool target_name_locks(struct target *t)
{
	struct kov_answer a;
	if (t->lockname_req) {
		int rc = kov_client_take(t->c, t->lockname_req, &a);
		if (rc == 0)
			return true;
		if (rc == 1) {
			take_lock_names(t, &a);
			kov_answer_free(&a);
		} else if (rc != KOV_E_TARGET) {
			return false;
		}
		t->lockname_asked = t->n_locknames;   /* unanswered: shown by address */
		t->lockname_req = 0;
	}
	if (!t->locks)
		return true;
	uint8_t buf[1024];
	struct proto_builder b;
	struct proto_symbol_query q = { PROTO_PID_KERNEL };
	size_t first = t->n_locknames;
	for (size_t i = 0; i < t->locks->n && t->n_locknames < LOCK_NAMES; i++) {
		const struct proto_lock *l = &t->locks->locks[i];
		bool known = false;
		for (size_t k = 0; k < t->n_locknames && !known; k++)
			known = t->lockname_addr[k] == l->lock;
		if (l->pid || l->coid || known)
			continue;
		if (t->n_locknames == first)
			proto_begin_symbol_lookup(&b, buf, sizeof buf, 0, 0, &q);
		t->lockname_addr[t->n_locknames] = l->lock;
		t->lockname[t->n_locknames++][0] = 0;
		proto_add_address(&b, &l->lock);
	}
	if (t->n_locknames == first)
		return true;
	int len = proto_finish(&b);
	if (len <= 0 || kov_client_send(t->c, buf, (size_t)len, &t->lockname_req) != 0)
		t->lockname_asked = t->n_locknames;   /* shown by address */
	return true;
}

/* The optimizer's policy (optimizer.h). Two thresholds a factor back_pct apart and k
 * consecutive intervals on each side, then a cool-down, so that noise around either
 * threshold cannot make an object flap between its classes. */
#include <stdio.h>
#include <string.h>
#include "client/optimizer.h"

static const struct kov_opt_pair builtin[] = {
	{ "Counter", "DCounter" },
	{ "Warehouse", "WarehouseFine" },
	{ "PageViews", "PageViewsPerCPU" },
	{ "PM", "PMPerCPU" },
};

void kov_opt_defaults(struct kov_opt_params *p)
{
	memset(p, 0, sizeof *p);
	p->threshold = KOV_OPT_THRESHOLD;
	p->k = KOV_OPT_K;
	p->cooldown = KOV_OPT_COOLDOWN;
	p->back_pct = KOV_OPT_BACK_PCT;
	p->n_pairs = sizeof builtin / sizeof builtin[0];
	memcpy(p->pairs, builtin, sizeof builtin);
}

/* A class name of 1 to KOV_OPT_CLASS_MAX bytes from s[0..len) into out. */
static bool class_name(const char *s, size_t len, char *out)
{
	if (!len || len > KOV_OPT_CLASS_MAX || memchr(s, ' ', len) || memchr(s, '=', len))
		return false;
	memcpy(out, s, len);
	out[len] = 0;
	return true;
}

int kov_opt_parse_pairs(const char *s, struct kov_opt_params *p, char *err, size_t n)
{
	struct kov_opt_pair got[KOV_OPT_PAIRS_MAX];
	size_t k = 0;
	for (const char *at = s;; at++) {
		size_t len = strcspn(at, ",");
		const char *eq = memchr(at, '=', len);
		if (k == KOV_OPT_PAIRS_MAX) {
			snprintf(err, n, "--pairs: at most %d pairs", KOV_OPT_PAIRS_MAX);
			return -1;
		}
		if (!eq || !class_name(at, (size_t)(eq - at), got[k].coarse) ||
		    !class_name(eq + 1, len - (size_t)(eq - at) - 1, got[k].fine) ||
		    !strcmp(got[k].coarse, got[k].fine)) {
			snprintf(err, n, "--pairs: COARSE=DISTRIBUTED,... with two different class names "
				 "of 1 to %d bytes each, not '%.*s'", KOV_OPT_CLASS_MAX, (int)len, at);
			return -1;
		}
		/* A class in two pairs would make its peer ambiguous. */
		for (size_t i = 0; i < k; i++)
			if (!strcmp(got[i].coarse, got[k].coarse) || !strcmp(got[i].fine, got[k].fine) ||
			    !strcmp(got[i].coarse, got[k].fine) || !strcmp(got[i].fine, got[k].coarse)) {
				snprintf(err, n, "--pairs: a class may be in one pair only ('%.*s')", (int)len, at);
				return -1;
			}
		k++;
		at += len;
		if (!*at)
			break;
	}
	memcpy(p->pairs, got, k * sizeof got[0]);
	p->n_pairs = k;
	return 0;
}

const char *kov_opt_peer(const struct kov_opt_params *p, const char *cls, bool *to_fine)
{
	for (size_t i = 0; i < p->n_pairs; i++) {
		if (!strcmp(p->pairs[i].coarse, cls)) {
			*to_fine = true;
			return p->pairs[i].fine;
		}
		if (!strcmp(p->pairs[i].fine, cls)) {
			*to_fine = false;
			return p->pairs[i].coarse;
		}
	}
	return NULL;
}

void kov_opt_init(struct kov_optimizer *o, const struct kov_opt_params *p)
{
	memset(o, 0, sizeof *o);
	o->p = *p;
}

static void run_reset(struct kov_opt_object *ob)
{
	ob->run = ob->run_rates = 0;
	ob->run_wait = ob->run_rate = 0;
}

static struct kov_opt_object *object_of(struct kov_optimizer *o, const struct kov_opt_figures *f)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->obj[i].pid == f->pid && o->obj[i].coid == f->coid)
			return &o->obj[i];
	if (o->n == KOV_OPT_OBJECTS_MAX) {
		o->not_tracked++;
		return NULL;
	}
	struct kov_opt_object *ob = &o->obj[o->n++];
	memset(ob, 0, sizeof *ob);
	ob->pid = f->pid;
	ob->coid = f->coid;
	return ob;
}

static double back_limit(const struct kov_opt_params *p)
{
	return p->threshold * p->back_pct / 100;
}

/* The coarse class's wait at the rate now, scaled from the figures that made the swap; < 0
 * when it cannot be told. Linear in the rate on purpose: a lock's wait grows faster than
 * linearly with its arrival rate (queueing: zero at rate 0, convex), so below the rate of
 * the swap the line lies above the real curve and errs towards keeping the distributed form. */
static double predicted_wait(const struct kov_opt_object *ob, double rate)
{
	if (!ob->ours || ob->base_rate <= 0 || rate < 0)
		return -1;
	return ob->base_wait * rate / ob->base_rate;
}

/* Whether this interval counts towards the decision the object's class can lead to. */
static bool meets(const struct kov_optimizer *o, const struct kov_opt_object *ob, bool to_fine,
		  const struct kov_opt_figures *f)
{
	if (to_fine)
		return f->wait > o->p.threshold;
	double pred = predicted_wait(ob, f->rate);
	return f->wait < back_limit(&o->p) && pred >= 0 && pred < back_limit(&o->p);
}

static void decide(const struct kov_optimizer *o, const struct kov_opt_object *ob, const char *peer,
		   bool to_fine, struct kov_opt_decision *d)
{
	memset(d, 0, sizeof *d);
	d->action = to_fine ? KOV_OPT_SWAP : KOV_OPT_SWAP_BACK;
	d->pid = ob->pid;
	d->coid = ob->coid;
	snprintf(d->from, sizeof d->from, "%s", ob->cls);
	snprintf(d->to, sizeof d->to, "%s", peer);
	d->intervals = ob->run;
	d->wait = ob->run_wait / ob->run;
	d->rate = ob->run_rates == ob->run ? ob->run_rate / ob->run : -1;
	d->limit = to_fine ? o->p.threshold : back_limit(&o->p);
	d->base_wait = to_fine ? -1 : ob->base_wait;
	d->base_rate = to_fine ? -1 : ob->base_rate;
	d->predicted = to_fine ? -1 : predicted_wait(ob, d->rate);
}

/* One object's interval: true with *d filled when it leads to a decision. */
static bool judge(struct kov_optimizer *o, struct kov_opt_object *ob, const struct kov_opt_figures *f,
		  struct kov_opt_decision *d)
{
	if (strcmp(ob->cls, f->cls)) {
		/* Swapped by someone else (or first seen): what was measured was another class's. */
		snprintf(ob->cls, sizeof ob->cls, "%s", f->cls);
		run_reset(ob);
		ob->ours = false;
	}
	if (ob->cool) {
		ob->cool--;
		return false;
	}
	bool to_fine;
	const char *peer = kov_opt_peer(&o->p, ob->cls, &to_fine);
	if (!peer || f->wait < 0)   /* no value: neither for nor against */
		return false;
	if (!meets(o, ob, to_fine, f)) {
		run_reset(ob);
		return false;
	}
	ob->run++;
	ob->run_wait += f->wait;
	if (f->rate >= 0) {
		ob->run_rates++;
		ob->run_rate += f->rate;
	}
	if (ob->run < o->p.k)
		return false;
	decide(o, ob, peer, to_fine, d);
	return true;
}

size_t kov_opt_step(struct kov_optimizer *o, const struct kov_opt_figures *f, size_t n,
		    struct kov_opt_decision *out, size_t max)
{
	size_t got = 0;
	for (size_t i = 0; i < n; i++) {
		struct kov_opt_object *ob = object_of(o, &f[i]);
		struct kov_opt_decision d;
		if (ob && judge(o, ob, &f[i], &d) && got < max)
			out[got++] = d;
	}
	return got;
}

void kov_opt_done(struct kov_optimizer *o, const struct kov_opt_decision *d, bool swapped)
{
	for (size_t i = 0; i < o->n; i++) {
		struct kov_opt_object *ob = &o->obj[i];
		if (ob->pid != d->pid || ob->coid != d->coid)
			continue;
		run_reset(ob);
		ob->cool = o->p.cooldown;
		if (!swapped)
			return;
		snprintf(ob->cls, sizeof ob->cls, "%s", d->to);
		ob->ours = d->action == KOV_OPT_SWAP;
		ob->base_wait = d->wait;
		ob->base_rate = d->rate;
		return;
	}
}

/* PageViews: views per page, counted on every answered request. Two classes with one rep
 * layout and method, so either can be hot-swapped for the other (common/co/co_swap.h):
 *   PageViews        one rep for all CPUs: a table of pages under one spin lock (views=shared)
 *   PageViewsPerCPU  a rep per CPU, each with its own table and lock, made on the CPU's first
 *                    view; totals visit every rep (K42's multi-rep object; views=percpu)
 * Their state is one merged table. Pages beyond PAGES_MAX are counted under one "(other)" row. */
#include "httpd.h"
#include "common/co/co_swap.h"

#define PAGES_MAX 64
#define PATH_MAX 48

struct page { char path[PATH_MAX]; uint32_t len; uint64_t views; };

struct pageviews;
struct pageviews_ops { uint64_t (*hit)(struct pageviews *pv, const char *path, size_t len); };
struct pageviews {
	const struct pageviews_ops *ops;
	struct spinlock lock;
	unsigned n;
	uint64_t total;
	struct page pages[PAGES_MAX + 1];   /* [PAGES_MAX]: (other) */
};
static coid_t views_coid;

static struct page *page_of(struct pageviews *pv, const char *path, size_t len)
{
	if (len > PATH_MAX)
		len = PATH_MAX;
	for (unsigned i = 0; i < pv->n; i++)
		if (pv->pages[i].len == len && !memcmp(pv->pages[i].path, path, len))
			return &pv->pages[i];
	if (pv->n == PAGES_MAX)
		return &pv->pages[PAGES_MAX];
	struct page *p = &pv->pages[pv->n++];
	memcpy(p->path, path, len);
	p->len = (uint32_t)len;
	return p;
}

CO_METHOD(uint64_t, pageviews_hit_m, struct pageviews *pv, const char *path, size_t len)
{
	spin_lock(&pv->lock);
	struct page *p = page_of(pv, path, len);
	uint64_t v = ++p->views;
	pv->total++;
	spin_unlock(&pv->lock);
	return v;
}

static const struct pageviews_ops views_ops = { pageviews_hit_m };
static const struct co_class views_class = { "PageViews", &views_ops, 1, 0 };
static const struct co_class percpu_class = { "PageViewsPerCPU", &views_ops, 1, 0 };

static struct pageviews *new_rep(void)
{
	struct pageviews *pv = malloc(sizeof *pv);
	if (pv) {
		memset(pv, 0, sizeof *pv);
		pv->ops = &views_ops;
		spin_lock_owner(&pv->lock, pv);
	}
	return pv;
}

static void *make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	return new_rep();
}

static void free_rep(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

/* A root of cls whose first rep (the shared one, or CPU 0's) is `first`. */
static struct co_root *new_root(const struct co_class *cls, struct pageviews *first)
{
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return 0;
	memset(root, 0, sizeof *root);
	root->cls = cls;
	root->kind = cls == &percpu_class ? CO_PER_CPU_REPS : CO_SINGLE_REP;
	root->make_rep = cls == &percpu_class ? make_rep : wl_existing_rep;
	root->free = free_rep;
	root->reps[0] = first;
	return root;
}

/* The state: every rep's table merged into one rep's worth. */
static bool save(struct co_root *root, void *state)
{
	struct pageviews *all = state;
	for (unsigned r = 0; r < CO_MAX_CPUS; r++) {
		const struct pageviews *pv = root->reps[r];
		for (unsigned i = 0; pv && i <= PAGES_MAX; i++) {
			const struct page *from = &pv->pages[i];
			if (i < pv->n)
				page_of(all, from->path, from->len)->views += from->views;
			else if (i == PAGES_MAX)
				all->pages[PAGES_MAX].views += from->views;
		}
		all->total += pv ? pv->total : 0;
	}
	return true;
}

static struct co_root *load(const struct co_class *cls, const void *state)
{
	struct pageviews *pv = new_rep();
	if (!pv)
		return 0;
	const struct pageviews *all = state;
	memcpy(pv->pages, all->pages, sizeof pv->pages);
	pv->n = all->n;
	pv->total = all->total;
	struct co_root *root = new_root(cls, pv);
	if (!root)
		free(pv);
	return root;
}

static struct co_root *load_shared(const void *state)
{
	return load(&views_class, state);
}

static struct co_root *load_percpu(const void *state)
{
	return load(&percpu_class, state);
}

static const struct co_swappable swappables[] = {
	{ &views_class, "httpd-pageviews", sizeof(struct pageviews), save, load_shared },
	{ &percpu_class, "httpd-pageviews", sizeof(struct pageviews), save, load_percpu },
};

bool pageviews_init(void)
{
	co_register_class(&views_class);
	co_register_class(&percpu_class);
	co_register_swappable(&swappables[0]);
	co_register_swappable(&swappables[1]);
	struct pageviews *first = cfg.views_percpu ? 0 : new_rep();
	struct co_root *root = cfg.views_percpu || first ?
		new_root(cfg.views_percpu ? &percpu_class : &views_class, first) : 0;
	return root && (views_coid = co_create(root)) != 0;
}

uint64_t pageviews_hit(const char *path, size_t len)
{
	return CO_CALL(struct pageviews, views_coid, hit, path, len);
}

static void add_total(void *rep, unsigned int cpu, void *arg)
{
	(void)cpu;
	*(uint64_t *)arg += __atomic_load_n(&((struct pageviews *)rep)->total, __ATOMIC_RELAXED);
}

uint64_t pageviews_total(void)
{
	uint64_t total = 0;
	co_for_each_rep(views_coid, add_total, &total);
	return total;
}

/* PageViews: views per page, counted on every answered request. Two forms of one class:
 *   shared   one rep for all CPUs: a table of pages under one spin lock (views=shared)
 *   percpu   a rep per CPU, each with its own table and lock, made on the CPU's first view;
 *            totals visit every rep (K42's multi-rep object; views=percpu)
 * Pages beyond PAGES_MAX are counted under one "(other)" row. */
#include "httpd.h"

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

bool pageviews_init(void)
{
	co_register_class(&views_class);
	if (!cfg.views_percpu) {
		struct pageviews *pv = new_rep();
		return pv && (views_coid = wl_static_object(&views_class, pv)) != 0;
	}
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return false;
	memset(root, 0, sizeof *root);
	root->cls = &views_class;
	root->kind = CO_PER_CPU_REPS;
	root->make_rep = make_rep;
	root->free = wl_never_freed;
	return (views_coid = co_create(root)) != 0;
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

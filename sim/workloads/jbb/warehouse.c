/* Warehouse: the stock of every item and the year-to-date payments (jbb.h). A new order's
 * lines are taken from the stock as in TPC-C's new-order: the quantity goes down (and is
 * replenished below 10), the item's year-to-date and order counts go up, and the stock's data
 * text is searched for "ORIGINAL" (brand or generic). Two classes with one interface, so either
 * can be hot-swapped for the other (common/co/co_swap.h): "Warehouse" takes one spin lock for
 * everything (locks=coarse at start); "WarehouseFine" takes the lock of each line's item stripe
 * only and counts payments in a per-CPU DCounter (locks=fine). The stock and the figures live
 * in the warehouse's data, which a swap hands from the old rep to the new one. */
#include "jbb.h"
#include "common/co/co_swap.h"

struct stock {
	uint32_t qty, ytd, orders, remote;
	char data[52];                     /* 26 to 50 letters, sometimes with "ORIGINAL" */
	bool original;                     /* data holds "ORIGINAL" (brand=flag reads this) */
};

/* What a warehouse is, whichever class serves it. */
struct wh_data {
	int id;
	uint32_t tax;                      /* per mille */
	uint64_t ytd;                      /* coarse: the payments; fine: those before the swap */
	volatile uint64_t truth_wait, truth_waits;   /* the ground truth (atomic: several locks) */
	volatile uint64_t paid;            /* the payments made, counted by their callers */
	struct stock stock[ITEMS];
};

struct warehouse;
struct warehouse_ops {
	uint64_t (*take_stock)(struct warehouse *w, const uint16_t *item, const uint16_t *qty,
			       uint32_t *amount, int n);
	void (*pay)(struct warehouse *w, uint64_t amount);
	uint64_t (*ytd)(struct warehouse *w);
};
/* A rep: the locks of its class over the data. */
struct warehouse {
	const struct warehouse_ops *ops;
	struct wh_data *d;
	struct spinlock lock;              /* Warehouse: everything */
	struct spinlock stripe[STOCK_STRIPES];   /* WarehouseFine: stock[i] under stripe[i % STRIPES] */
	coid_t ytd_counter;                /* WarehouseFine: payments since it took over */
};

coid_t warehouse_coid[WAREHOUSES_MAX];
static uint64_t uncontended;      /* ticks of an acquisition that did not wait */
static struct wh_data *warehouses[WAREHOUSES_MAX];
uint32_t item_price[ITEMS];

static bool has_original(const char *s)
{
	for (; *s; s++)
		if (s[0] == 'O' && !memcmp(s, "ORIGINAL", 8))
			return true;
	return false;
}

/* spin_lock, and the wait it took added to the warehouse's truth if its first try failed: as
 * lockbench measures it (sim/workloads/lockbench.c), the contended path's SPIN_CONTENDED in
 * the word says so, and under full counting the look before the call. */
static void lock(struct wh_data *w, struct spinlock *l)
{
	bool waited = (l->word & SPIN_HOLDER) != 0;
	uint64_t t0 = wl_tb();
	spin_lock(l);
	uint64_t d = wl_tb() - t0;
	uint32_t word = l->word;   /* ours: only the monitor's full-counting switch writes it */
	if (!(word & SPIN_FULL))
		waited = (word & SPIN_CONTENDED) != 0;
	if (waited) {
		if (d > uncontended)
			__atomic_add_fetch(&w->truth_wait, d - uncontended, __ATOMIC_RELAXED);
		__atomic_add_fetch(&w->truth_waits, 1, __ATOMIC_RELAXED);
	}
}

void wh_truth_init(void)
{
	uncontended = wl_uncontended_ticks();
}

uint64_t wh_truth_wait(int w, uint64_t *waits)
{
	*waits = warehouses[w]->truth_waits;
	return warehouses[w]->truth_wait;
}

/* One order line against one stock entry (its lock is held). */
static uint32_t take_line(struct stock *s, uint16_t item, uint16_t qty)
{
	if (s->qty >= (uint32_t)qty + 10)
		s->qty -= qty;
	else
		s->qty = s->qty + 91 - qty;
	s->ytd += qty;
	s->orders++;
	uint32_t amount = qty * item_price[item];
	bool brand = cfg.brand_flag ? s->original : has_original(s->data);
	return brand ? amount : amount - amount / 20;   /* generic: 5% off */
}

CO_METHOD(uint64_t, warehouse_take_stock_m, struct warehouse *w, const uint16_t *item,
	  const uint16_t *qty, uint32_t *amount, int n)
{
	uint64_t total = 0;
	lock(w->d, &w->lock);
	for (int i = 0; i < n; i++)
		total += amount[i] = take_line(&w->d->stock[item[i]], item[i], qty[i]);
	spin_unlock(&w->lock);
	return total;
}

CO_METHOD(void, warehouse_pay_m, struct warehouse *w, uint64_t amount)
{
	lock(w->d, &w->lock);
	w->d->ytd += amount;
	spin_unlock(&w->lock);
}

CO_METHOD(uint64_t, warehouse_ytd_m, struct warehouse *w)
{
	return w->d->ytd;
}

CO_METHOD(uint64_t, warehouse_fine_take_stock_m, struct warehouse *w, const uint16_t *item,
	  const uint16_t *qty, uint32_t *amount, int n)
{
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		struct spinlock *l = &w->stripe[item[i] % STOCK_STRIPES];
		lock(w->d, l);
		total += amount[i] = take_line(&w->d->stock[item[i]], item[i], qty[i]);
		spin_unlock(l);
	}
	return total;
}

CO_METHOD(void, warehouse_fine_pay_m, struct warehouse *w, uint64_t amount)
{
	dcounter_add(w->ytd_counter, (long)amount);
}

CO_METHOD(uint64_t, warehouse_fine_ytd_m, struct warehouse *w)
{
	return w->d->ytd + (uint64_t)dcounter_total(w->ytd_counter);
}

static const struct warehouse_ops coarse_ops = { warehouse_take_stock_m, warehouse_pay_m, warehouse_ytd_m };
static const struct warehouse_ops fine_ops = { warehouse_fine_take_stock_m, warehouse_fine_pay_m,
					       warehouse_fine_ytd_m };
static const struct co_class coarse_class = { "Warehouse", &coarse_ops, 3, 0 };
static const struct co_class fine_class = { "WarehouseFine", &fine_ops, 3, 0 };

/* A rep of cls over d. Its locks are named as its own from the start, whoever meets them
 * first; when the process's lock table is full (a long run with many contended orders fills
 * it) they are not, and the monitor's stack walk names them at their first contention instead:
 * that is no reason for a swap to fail. */
static struct warehouse *new_rep(const struct co_class *cls, struct wh_data *d)
{
	struct warehouse *w = malloc(sizeof *w);
	if (!w)
		return 0;
	memset(w, 0, sizeof *w);
	w->ops = cls->ops;
	w->d = d;
	spin_lock_owner(&w->lock, w);
	for (int s = 0; s < STOCK_STRIPES; s++)
		spin_lock_owner(&w->stripe[s], w);
	if (cls == &fine_class && !(w->ytd_counter = dcounter_new())) {
		free(w);
		return 0;
	}
	return w;
}

/* The data goes on with the new class: only the rep (and a fine one's counter) is freed. */
static void free_rep(struct co_root *root, void *rep)
{
	struct warehouse *w = rep;
	if (w && w->ytd_counter)
		co_destroy(w->ytd_counter);
	free(rep ? rep : (void *)root);
}

/* The state both classes share: the data, with every payment folded into its ytd. */
struct wh_state { struct wh_data *d; };

static bool save(struct co_root *root, void *state)
{
	struct warehouse *w = root->reps[0];
	if (w->ytd_counter)
		w->d->ytd += (uint64_t)dcounter_total(w->ytd_counter);
	((struct wh_state *)state)->d = w->d;
	return true;
}

static struct co_root *make_root(const struct co_class *cls, struct wh_data *d)
{
	struct warehouse *w = new_rep(cls, d);
	struct co_root *root = w ? wl_single_root(cls, w, free_rep) : 0;
	if (w && !root)
		free_rep(0, w);
	return root;
}

static struct co_root *load_coarse(const void *state)
{
	return make_root(&coarse_class, ((const struct wh_state *)state)->d);
}

static struct co_root *load_fine(const void *state)
{
	return make_root(&fine_class, ((const struct wh_state *)state)->d);
}

static const struct co_swappable swappables[] = {
	{ &coarse_class, "jbb-warehouse", sizeof(struct wh_state), save, load_coarse },
	{ &fine_class, "jbb-warehouse", sizeof(struct wh_state), save, load_fine },
};

uint64_t wh_take_stock(int w, const uint16_t *item, const uint16_t *qty, uint32_t *amount, int n)
{
	return CO_CALL(struct warehouse, warehouse_coid[w], take_stock, item, qty, amount, n);
}

void wh_pay(int w, uint64_t amount)
{
	CO_CALL(struct warehouse, warehouse_coid[w], pay, amount);
	__atomic_add_fetch(&warehouses[w]->paid, amount, __ATOMIC_RELAXED);
}

uint64_t wh_paid(int w)
{
	return warehouses[w]->paid;
}

uint64_t wh_ytd(int w)
{
	return CO_CALL(struct warehouse, warehouse_coid[w], ytd);
}

uint32_t wh_tax(int w)
{
	return warehouses[w]->tax;
}

/* Random letters, with "ORIGINAL" somewhere in one entry of ten (as TPC-C populates them). */
static void stock_data(char *out, uint64_t *rng)
{
	int len = 26 + (int)(jbb_random(rng) % 25);
	for (int i = 0; i < len; i++)
		out[i] = (char)('a' + jbb_random(rng) % 26);
	out[len] = 0;
	if (jbb_random(rng) % 10 == 0)
		memcpy(out + jbb_random(rng) % (uint64_t)(len - 8), "ORIGINAL", 8);
}

bool warehouses_init(void)
{
	co_register_class(&coarse_class);
	co_register_class(&fine_class);
	co_register_swappable(&swappables[0]);
	co_register_swappable(&swappables[1]);
	uint64_t rng = 0x5DEECE66Dull;
	for (int i = 0; i < ITEMS; i++)
		item_price[i] = 100 + (uint32_t)(jbb_random(&rng) % 9901);   /* 1.00 to 100.00 */
	for (int wi = 0; wi < cfg.warehouses; wi++) {
		struct wh_data *d = malloc(sizeof *d);
		if (!d)
			return false;
		memset(d, 0, sizeof *d);
		d->id = wi;
		d->tax = (uint32_t)(jbb_random(&rng) % 201);                  /* 0 to 20.0% */
		for (int i = 0; i < ITEMS; i++) {
			d->stock[i].qty = 10 + (uint32_t)(jbb_random(&rng) % 91);
			stock_data(d->stock[i].data, &rng);
			d->stock[i].original = has_original(d->stock[i].data);
		}
		warehouses[wi] = d;
		struct co_root *root = make_root(cfg.fine ? &fine_class : &coarse_class, d);
		if (!root || !(warehouse_coid[wi] = co_create(root)))
			return false;
	}
	return true;
}

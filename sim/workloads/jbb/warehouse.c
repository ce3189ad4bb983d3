/* Warehouse: the stock of every item and the year-to-date payments (jbb.h). A new order's
 * lines are taken from the stock as in TPC-C's new-order: the quantity goes down (and is
 * replenished below 10), the item's year-to-date and order counts go up, and the stock's data
 * text is searched for "ORIGINAL" (brand or generic). With locks=coarse one spin lock covers
 * the warehouse; with locks=fine each line takes the lock of its item's stripe only, and the
 * payments go to a per-CPU counter. */
#include "jbb.h"

struct stock {
	uint32_t qty, ytd, orders, remote;
	char data[52];                     /* 26 to 50 letters, sometimes with "ORIGINAL" */
	bool original;                     /* data holds "ORIGINAL" (brand=flag reads this) */
};

struct warehouse;
struct warehouse_ops {
	uint64_t (*take_stock)(struct warehouse *w, const uint16_t *item, const uint16_t *qty,
			       uint32_t *amount, int n);
	void (*pay)(struct warehouse *w, uint64_t amount);
	uint64_t (*ytd)(struct warehouse *w);
};
struct warehouse {
	const struct warehouse_ops *ops;
	int id;
	uint32_t tax;                      /* per mille */
	struct spinlock lock;              /* coarse: everything below */
	uint64_t ytd;
	coid_t ytd_counter;                /* fine: a DCounter instead of ytd */
	struct spinlock stripe[STOCK_STRIPES];   /* fine: stock[i] under stripe[i % STRIPES] */
	volatile uint64_t truth_wait, truth_waits;   /* the ground truth (atomic: several locks) */
	struct stock stock[ITEMS];
};

coid_t warehouse_coid[WAREHOUSES_MAX];
static uint64_t uncontended;      /* ticks of an acquisition that did not wait */
static struct warehouse *warehouses[WAREHOUSES_MAX];
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
static void lock(struct warehouse *w, struct spinlock *l)
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
	if (!cfg.fine)
		lock(w, &w->lock);
	for (int i = 0; i < n; i++) {
		struct spinlock *l = &w->stripe[item[i] % STOCK_STRIPES];
		if (cfg.fine)
			lock(w, l);
		amount[i] = take_line(&w->stock[item[i]], item[i], qty[i]);
		if (cfg.fine)
			spin_unlock(l);
		total += amount[i];
	}
	if (!cfg.fine)
		spin_unlock(&w->lock);
	return total;
}

CO_METHOD(void, warehouse_pay_m, struct warehouse *w, uint64_t amount)
{
	if (cfg.fine) {
		dcounter_add(w->ytd_counter, (long)amount);
		return;
	}
	lock(w, &w->lock);
	w->ytd += amount;
	spin_unlock(&w->lock);
}

CO_METHOD(uint64_t, warehouse_ytd_m, struct warehouse *w)
{
	return cfg.fine ? (uint64_t)dcounter_total(w->ytd_counter) : w->ytd;
}

static const struct warehouse_ops warehouse_ops = { warehouse_take_stock_m, warehouse_pay_m, warehouse_ytd_m };
static const struct co_class warehouse_class = { "Warehouse", &warehouse_ops, 3, 0 };

uint64_t wh_take_stock(int w, const uint16_t *item, const uint16_t *qty, uint32_t *amount, int n)
{
	return CO_CALL(struct warehouse, warehouse_coid[w], take_stock, item, qty, amount, n);
}

void wh_pay(int w, uint64_t amount)
{
	CO_CALL(struct warehouse, warehouse_coid[w], pay, amount);
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
	co_register_class(&warehouse_class);
	uint64_t rng = 0x5DEECE66Dull;
	for (int i = 0; i < ITEMS; i++)
		item_price[i] = 100 + (uint32_t)(jbb_random(&rng) % 9901);   /* 1.00 to 100.00 */
	for (int wi = 0; wi < cfg.warehouses; wi++) {
		struct warehouse *w = malloc(sizeof *w);
		if (!w)
			return false;
		memset(w, 0, sizeof *w);
		w->ops = &warehouse_ops;
		w->id = wi;
		w->tax = (uint32_t)(jbb_random(&rng) % 201);                  /* 0 to 20.0% */
		for (int i = 0; i < ITEMS; i++) {
			w->stock[i].qty = 10 + (uint32_t)(jbb_random(&rng) % 91);
			stock_data(w->stock[i].data, &rng);
			w->stock[i].original = has_original(w->stock[i].data);
		}
		warehouses[wi] = w;
		if (!(warehouse_coid[wi] = wl_static_object(&warehouse_class, w)) ||
		    (cfg.fine && !(w->ytd_counter = dcounter_new())))
			return false;
		/* The locks belong to the warehouse from the start, whoever meets them first. */
		if (spin_lock_owner(&w->lock, w) != 0)
			return false;
		for (int s = 0; s < STOCK_STRIPES; s++)
			if (spin_lock_owner(&w->stripe[s], w) != 0)
				return false;
	}
	return true;
}

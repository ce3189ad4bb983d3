/* District, Customer and Order (jbb.h). Each has its own spin lock; a district hands out
 * order numbers and keeps its last ORDERS orders as Order objects reused round a ring. */
#include "jbb.h"

struct district;
struct district_ops {
	uint32_t (*next_order)(struct district *d);
	void (*pay)(struct district *d, uint64_t amount);
	coid_t (*order_of)(struct district *d, uint32_t id);
};
struct customer;
struct customer_ops {
	void (*pay)(struct customer *c, uint64_t amount);
	void (*ordered)(struct customer *c, uint32_t id);
	uint32_t (*last_order)(struct customer *c);
};
struct order;
struct order_ops {
	void (*fill)(struct order *o, uint32_t id, uint32_t cust, const struct order_line *l, int n,
		     uint32_t tax_permille);
	bool (*status)(struct order *o, uint32_t id, int *lines, uint64_t *total);
};

struct district {
	const struct district_ops *ops;
	struct spinlock lock;
	uint32_t next_id;
	uint64_t ytd;
	coid_t orders[ORDERS];            /* order id lives in orders[id % ORDERS] */
};

struct customer {
	const struct customer_ops *ops;
	struct spinlock lock;
	int64_t balance;                  /* cents, negative after payments */
	uint64_t ytd_payment;
	uint32_t payments, last_order;
	bool bad_credit;
	char history[256];                /* bad credit: the last payments, newest first */
};

struct order {
	const struct order_ops *ops;
	struct spinlock lock;
	uint32_t id, cust;
	int n;
	uint64_t total;
	struct order_line lines[LINES_MAX];
	char receipt[LINES_MAX * 48 + 64];
};

static coid_t district_coid[WAREHOUSES_MAX][DISTRICTS];
static coid_t customer_coid[WAREHOUSES_MAX][DISTRICTS][CUSTOMERS];

/* ---- District ---------------------------------------------------------------------------- */

CO_METHOD(uint32_t, district_next_order_m, struct district *d)
{
	spin_lock(&d->lock);
	uint32_t id = d->next_id++;
	spin_unlock(&d->lock);
	return id;
}

CO_METHOD(void, district_pay_m, struct district *d, uint64_t amount)
{
	spin_lock(&d->lock);
	d->ytd += amount;
	spin_unlock(&d->lock);
}

CO_METHOD(coid_t, district_order_of_m, struct district *d, uint32_t id)
{
	spin_lock(&d->lock);
	coid_t o = id && id < d->next_id && d->next_id - id <= ORDERS ? d->orders[id % ORDERS] : 0;
	spin_unlock(&d->lock);
	return o;
}

static const struct district_ops district_ops = { district_next_order_m, district_pay_m, district_order_of_m };
static const struct co_class district_class = { "District", &district_ops, 3, 0 };

/* ---- Customer ---------------------------------------------------------------------------- */

CO_METHOD(void, customer_pay_m, struct customer *c, uint64_t amount)
{
	spin_lock(&c->lock);
	c->balance -= (int64_t)amount;
	c->ytd_payment += amount;
	c->payments++;
	if (c->bad_credit) {   /* TPC-C: the payment goes in front of the customer's data */
		char entry[48];
		int n = snprintf(entry, sizeof entry, "%u:%lu.%02lu;", c->payments,
				 (unsigned long)(amount / 100), (unsigned long)(amount % 100));
		size_t keep = sizeof c->history - 1 - (size_t)n;
		memmove(c->history + n, c->history, keep);
		memcpy(c->history, entry, (size_t)n);
		c->history[sizeof c->history - 1] = 0;
	}
	spin_unlock(&c->lock);
}

CO_METHOD(void, customer_ordered_m, struct customer *c, uint32_t id)
{
	spin_lock(&c->lock);
	c->last_order = id;
	spin_unlock(&c->lock);
}

CO_METHOD(uint32_t, customer_last_order_m, struct customer *c)
{
	spin_lock(&c->lock);
	uint32_t id = c->last_order;
	spin_unlock(&c->lock);
	return id;
}

static const struct customer_ops customer_ops = { customer_pay_m, customer_ordered_m, customer_last_order_m };
static const struct co_class customer_class = { "Customer", &customer_ops, 3, 0 };

/* ---- Order ------------------------------------------------------------------------------- */

CO_METHOD(void, order_fill_m, struct order *o, uint32_t id, uint32_t cust, const struct order_line *l,
	  int n, uint32_t tax_permille)
{
	spin_lock(&o->lock);
	o->id = id, o->cust = cust, o->n = n;
	uint64_t total = 0;
	size_t at = 0;
	for (int i = 0; i < n; i++) {
		o->lines[i] = l[i];
		total += l[i].amount;
		at += (size_t)snprintf(o->receipt + at, sizeof o->receipt - at, "%3d item %4u x%2u %6u.%02u\n",
				       i + 1, l[i].item, l[i].qty, l[i].amount / 100, l[i].amount % 100);
	}
	total += total * tax_permille / 1000;
	o->total = total;
	snprintf(o->receipt + at, sizeof o->receipt - at, "order %u customer %u total %lu.%02lu\n", id,
		 cust, (unsigned long)(total / 100), (unsigned long)(total % 100));
	spin_unlock(&o->lock);
}

CO_METHOD(bool, order_status_m, struct order *o, uint32_t id, int *lines, uint64_t *total)
{
	spin_lock(&o->lock);
	bool same = o->id == id;
	if (same)
		*lines = o->n, *total = o->total;
	spin_unlock(&o->lock);
	return same;
}

static const struct order_ops order_ops = { order_fill_m, order_status_m };
static const struct co_class order_class = { "Order", &order_ops, 2, 0 };

/* ---- calls ------------------------------------------------------------------------------- */

uint32_t dist_next_order(int w, int d)
{
	return CO_CALL(struct district, district_coid[w][d], next_order);
}

void dist_pay(int w, int d, uint64_t amount)
{
	CO_CALL(struct district, district_coid[w][d], pay, amount);
}

coid_t dist_order_of(int w, int d, uint32_t id)
{
	return CO_CALL(struct district, district_coid[w][d], order_of, id);
}

void cust_pay(int w, int d, int c, uint64_t amount)
{
	CO_CALL(struct customer, customer_coid[w][d][c], pay, amount);
}

void cust_ordered(int w, int d, int c, uint32_t id)
{
	CO_CALL(struct customer, customer_coid[w][d][c], ordered, id);
}

uint32_t cust_last_order(int w, int d, int c)
{
	return CO_CALL(struct customer, customer_coid[w][d][c], last_order);
}

void order_fill(coid_t o, uint32_t id, uint32_t cust, const struct order_line *l, int n,
		uint32_t tax_permille)
{
	CO_CALL(struct order, o, fill, id, cust, l, n, tax_permille);
}

bool order_status(coid_t o, uint32_t id, int *lines, uint64_t *total)
{
	return CO_CALL(struct order, o, status, id, lines, total);
}

/* ---- set-up ------------------------------------------------------------------------------ */

bool objects_init(void)
{
	co_register_class(&district_class);
	co_register_class(&customer_class);
	co_register_class(&order_class);
	if (!warehouses_init())
		return false;
	uint64_t rng = 0x2545F4914F6CDD1Dull;
	for (int w = 0; w < cfg.warehouses; w++)
		for (int di = 0; di < DISTRICTS; di++) {
			struct district *d = malloc(sizeof *d);
			if (!d)
				return false;
			memset(d, 0, sizeof *d);
			d->ops = &district_ops;
			d->next_id = 1;
			for (int k = 0; k < ORDERS; k++) {
				struct order *o = malloc(sizeof *o);
				if (!o)
					return false;
				memset(o, 0, sizeof *o);
				o->ops = &order_ops;
				if (!(d->orders[k] = wl_static_object(&order_class, o)))
					return false;
			}
			if (!(district_coid[w][di] = wl_static_object(&district_class, d)))
				return false;
			for (int ci = 0; ci < CUSTOMERS; ci++) {
				struct customer *c = malloc(sizeof *c);
				if (!c)
					return false;
				memset(c, 0, sizeof *c);
				c->ops = &customer_ops;
				c->bad_credit = jbb_random(&rng) % 10 == 0;
				if (!(customer_coid[w][di][ci] = wl_static_object(&customer_class, c)))
					return false;
			}
		}
	return true;
}

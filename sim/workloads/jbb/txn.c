/* The three transactions and the terminals that run them (jbb.h). */
#include "jbb.h"
#include <socket.h>

uint64_t jbb_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The skew: cfg.hot percent to warehouse 0, the rest evenly over every warehouse. */
static int pick_warehouse(uint64_t *rng)
{
	if ((int)(jbb_random(rng) % 100) < cfg.hot)
		return 0;
	return (int)(jbb_random(rng) % (uint64_t)cfg.warehouses);
}

static void txn_new_order(uint64_t *rng, int w, int d, int c)
{
	int n = 5 + (int)(jbb_random(rng) % (LINES_MAX - 4));
	uint16_t item[LINES_MAX], qty[LINES_MAX];
	uint32_t amount[LINES_MAX];
	for (int i = 0; i < n; i++) {
		item[i] = (uint16_t)(jbb_random(rng) % ITEMS);
		qty[i] = (uint16_t)(1 + jbb_random(rng) % 10);
	}
	uint32_t id = dist_next_order(w, d);
	wh_take_stock(w, item, qty, amount, n);
	struct order_line lines[LINES_MAX];
	for (int i = 0; i < n; i++)
		lines[i] = (struct order_line){ item[i], qty[i], amount[i] };
	coid_t o = dist_order_of(w, d, id);
	if (o)
		order_fill(o, id, (uint32_t)c, lines, n, wh_tax(w));
	cust_ordered(w, d, c, id);
}

static void txn_payment(uint64_t *rng, int w, int d, int c)
{
	uint64_t amount = 100 + jbb_random(rng) % 500000;   /* 1.00 to 5000.99 */
	wh_pay(w, amount);
	dist_pay(w, d, amount);
	cust_pay(w, d, c, amount);
}

static void txn_order_status(int w, int d, int c)
{
	uint32_t id = cust_last_order(w, d, c);
	coid_t o = id ? dist_order_of(w, d, id) : 0;
	int lines;
	uint64_t total;
	if (o)
		order_status(o, id, &lines, &total);
}

/* transactions=N: each transaction first claims one of the N, so a run does exactly N however
 * the terminals are scheduled (terminal 0's report alone stopped them only every 64 of its own,
 * and the others ran on meanwhile: 21,051 for 20,000 on a loaded host). */
static volatile long claimed;

void terminal_run(void *arg)
{
	struct terminal *t = arg;
	for (uint64_t n = 1; !jbb_stop; n++) {
		if (cfg.transactions && __atomic_fetch_add(&claimed, 1, __ATOMIC_RELAXED) >= cfg.transactions)
			break;
		uint64_t r = jbb_random(&t->rng) % 100;
		int w = pick_warehouse(&t->rng);
		int d = (int)(jbb_random(&t->rng) % DISTRICTS), c = (int)(jbb_random(&t->rng) % CUSTOMERS);
		enum txn_kind k = r < 45 ? TXN_NEW_ORDER : r < 88 ? TXN_PAYMENT : TXN_ORDER_STATUS;
		if (k == TXN_NEW_ORDER)
			txn_new_order(&t->rng, w, d, c);
		else if (k == TXN_PAYMENT)
			txn_payment(&t->rng, w, d, c);
		else
			txn_order_status(w, d, c);
		t->done[k]++;
		if (t->id == 0 && n % 64 == 0)
			jbb_report();
		if (cfg.think) {   /* a terminal's user thinking: asleep, no CPU, no calls */
			struct pollfd none = { -1, 0, 0 };
			poll(&none, 1, cfg.think);
		}
	}
}

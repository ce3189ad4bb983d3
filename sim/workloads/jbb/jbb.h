/* jbb: a transaction workload in the style of SPECjbb2000 (and TPC-C's order entry), built
 * from user-level clustered objects so that KOV attributes its time and lock waits to them:
 *
 *   Warehouse  stock of ITEMS items, year-to-date payments; one spin lock (locks=coarse), or
 *              the stock striped over STOCK_STRIPES locks and the payments in a per-CPU
 *              counter (locks=fine); each order line's brand check searches the stock's data
 *              text for "ORIGINAL" (brand=scan), or reads the answer computed when the stock
 *              was populated, the text never changing (brand=flag)
 *   District   DISTRICTS per warehouse: next order number, payments, a ring of Order objects
 *   Customer   CUSTOMERS per district: balance, payments, last order
 *   Order      ORDERS per district, reused round the ring: lines, amounts, a printed receipt
 *
 * Terminal threads (one per CPU by default) run the mix new-order 45%, payment 43%,
 * order-status 12%. The skew: `hot` percent of the transactions go to warehouse 0, the rest
 * spread evenly over all warehouses. Throughput is printed every second and at the end.
 *
 * Every warehouse measures the truth of its lock waits, as lockbench does: the timebase
 * around each acquisition less an uncontended one's, summed; printed at the end, for KOV's
 * figures to be checked against.
 *
 * Usage: jbb [warehouses=4] [terminals=CPUs] [hot=50] [seconds=0] [locks=coarse|fine]
 *            [brand=scan|flag] [transactions=0] [delay=0] [phase=0 hot2=0]
 *   seconds       stop after that long (0: run until powered off)
 *   phase, hot2   a workload whose phases change: after `phase` seconds warehouse 0's share
 *                 becomes hot2 (the hot spot cools, or moves in)
 *   transactions  stop after that many (a fixed amount of work, for -icount comparisons)
 *   delay         wait that long before starting and after stopping (time for a monitor to
 *                 start collecting, and to name the objects afterwards) */
#ifndef KOV_JBB_H
#define KOV_JBB_H

#include "../workload.h"
#include <dcounter.h>

#define WAREHOUSES_MAX 16
#define DISTRICTS 10
#define CUSTOMERS 30
#define ORDERS 20
#define ITEMS 1000
#define LINES_MAX 15
#define STOCK_STRIPES 16
#define TERMINALS_MAX 16

struct jbb_config {
	int warehouses, terminals, seconds;
	volatile int hot;                  /* changes to hot2 after phase seconds (0: never) */
	int phase, hot2;
	volatile int think;                /* ms each terminal waits between transactions: 0, */
	int think2;                        /* then think2 from the phase on (demand falls) */
	long transactions;
	int delay;
	bool fine, brand_flag;
};
extern struct jbb_config cfg;

/* Item prices in cents (the catalogue is read-only: no object, no lock). */
extern uint32_t item_price[ITEMS];

struct order_line { uint16_t item, qty; uint32_t amount; };

/* ---- objects: each call is a method call on the object (CO_CALL) ---------------------- */

/* Warehouse w: takes qty[i] of item[i] for n lines, writes each line's amount, returns the
 * total; adds a payment; its year-to-date payments; its tax rate in per mille (read without a
 * lock: it never changes). */
uint64_t wh_take_stock(int w, const uint16_t *item, const uint16_t *qty, uint32_t *amount, int n);
void wh_pay(int w, uint64_t amount);
uint64_t wh_ytd(int w);
/* The payments to w as their callers counted them (the truth wh_ytd must equal at the end,
 * whatever classes served the warehouse meanwhile). */
uint64_t wh_paid(int w);
uint32_t wh_tax(int w);
/* The truth of warehouse w's lock waits: ticks waited beyond an uncontended acquisition, and
 * the acquisitions that waited. wh_truth_init() measures the uncontended cost. */
void wh_truth_init(void);
uint64_t wh_truth_wait(int w, uint64_t *waits);
/* District d of warehouse w: the next order number; a payment; the Order object holding
 * order `id` (0 once the ring has reused it). */
uint32_t dist_next_order(int w, int d);
void dist_pay(int w, int d, uint64_t amount);
coid_t dist_order_of(int w, int d, uint32_t id);
/* Customer c of district d of warehouse w: a payment, its last order (0 for none). */
void cust_pay(int w, int d, int c, uint64_t amount);
void cust_ordered(int w, int d, int c, uint32_t id);
uint32_t cust_last_order(int w, int d, int c);
/* An Order: records order `id` of customer `cust` and prints its receipt; reads its lines
 * and total back if it still is order `id` (false otherwise). */
void order_fill(coid_t o, uint32_t id, uint32_t cust, const struct order_line *l, int n,
		uint32_t tax_permille);
bool order_status(coid_t o, uint32_t id, int *lines, uint64_t *total);

/* The objects, made by objects_init(); the warehouses' COIDs (printed at start). */
extern coid_t warehouse_coid[WAREHOUSES_MAX];
bool objects_init(void);
bool warehouses_init(void);

/* ---- transactions ------------------------------------------------------------------------ */

enum txn_kind { TXN_NEW_ORDER, TXN_PAYMENT, TXN_ORDER_STATUS, TXN_KINDS };
struct terminal {
	int id;
	uint64_t rng;
	volatile uint64_t done[TXN_KINDS];
};
/* Runs transactions until jbb_stop; terminal 0 also calls jbb_report() every 64 of them. */
void terminal_run(void *arg);
extern volatile bool jbb_stop;
void jbb_report(void);

/* Helpers. */
uint64_t jbb_random(uint64_t *s);

#endif

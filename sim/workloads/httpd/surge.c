/* The SURGE file set (`surge=N`): N files /surge/0 .. /surge/N-1 made in memory at start-up,
 * with sizes from SURGE's file-size model (Barford and Crovella, SIGMETRICS 1998): a lognormal
 * body (mu 9.357, sigma 1.318, in bytes) with probability 0.93, otherwise a Pareto tail
 * (alpha 1.1, k 133,000 bytes). A fixed seed makes every boot's set the same, and /surge/index
 * lists it, a line "K SIZE" per file, so a load generator (sim/eval/surge.py) knows the sizes
 * without a second copy of the generator. The files go into the FileCache and are served like
 * the RAM disk's www/ files; /surge/K for K >= N is looked up there, not found, and is a 404.
 *
 * Sizes are capped at SURGE_CAP = 1 MiB: the Pareto tail (alpha 1.1) has no finite variance and
 * would now and then ask for gigabytes. Above 1 MiB lie about 0.7% of the files (0.07 of the
 * files are in the tail, and (133,000 / 1 MiB)^1.1 = 10% of those).
 *
 * Memory: every file is a prefix of one shared buffer of SURGE_CAP bytes, so the set costs 1 MiB
 * plus about 120 bytes a file whatever N is. Separate copies would not fit: a process's heap is
 * 64 MiB (kernel/proc/exec.c) and the mean file is about 52 KB, so 1,200 files would fill it.
 * Serving costs the same either way: an answer's bytes are copied into the socket. */
#include "httpd.h"

#define SURGE_CAP (1ul << 20)
#define SURGE_SEED 1998ull   /* the year of SURGE's paper; any fixed value would do */
/* The model's constants in Q32 fixed point (value x 2^32). */
#define Q 32
#define ONE (1ll << Q)
#define BODY_P ((93ll << Q) / 100)          /* 0.93 */
#define BODY_MU ((9357ll << Q) / 1000)      /* 9.357 */
#define BODY_SIGMA ((1318ll << Q) / 1000)   /* 1.318 */
#define TAIL_INV_ALPHA ((10ll << Q) / 11)   /* 1 / 1.1 */
#define TAIL_K 133000
#define LN2 2977044472ll                    /* ln 2 = 0.6931471805599453 */
#define INV_LN2 6196328019ll                /* 1 / ln 2 = 1.4426950408889634 */

/* ---- arithmetic. The target has no floating point (user code is built -msoft-float and
 * libgcc has no soft-float routines), so the sampling is in Q32 fixed point, in base 2: log2 of
 * an integer bit by bit (square, and each time the square passes 2 a one bit), 2^f by e^(f ln 2)
 * from its series in Q62. Both are good to about 1e-9, far below a byte of any size; products
 * go through 128 bits (__int128). */

static int64_t mul_q(int64_t a, int64_t b)   /* a b, both Q32 */
{
	return (int64_t)(((__int128)a * b) >> Q);
}

/* log2 x for an integer x >= 1, in Q32. */
static int64_t log2_q(uint64_t x)
{
	int e = 63 - __builtin_clzll(x);
	uint64_t m = e <= 62 ? x << (62 - e) : x >> 1;   /* x / 2^e in [1, 2), Q62 */
	int64_t r = (int64_t)e << Q;
	for (int bit = Q - 1; bit >= 0; bit--) {
		m = (uint64_t)(((unsigned __int128)m * m) >> 62);
		if (m >= 1ull << 63)
			m >>= 1, r |= 1ll << bit;
	}
	return r;
}

/* 2^y for y (Q32) below 30, in Q32 (0 below 2^-32). */
static uint64_t exp2_q(int64_t y)
{
	int64_t n = y >> Q;   /* floor: gcc shifts signed values arithmetically */
	uint64_t r = (uint64_t)mul_q(y & (ONE - 1), LN2) << 30, term = 1ull << 62, sum = term;
	for (int i = 1; i <= 24 && term; i++) {   /* e^r, r = frac(y) ln 2 in [0, ln 2), Q62 */
		term = (uint64_t)(((unsigned __int128)term * r) >> 62) / (uint64_t)i;
		sum += term;
	}
	return n < -Q ? 0 : n >= Q - 2 ? sum << (n - (Q - 2)) : sum >> ((Q - 2) - n);
}

/* splitmix64, and a uniform in (0, 1) from its top 32 bits: an integer in [1, 2^32 - 1], Q32. */
static int64_t uniform_q(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (int64_t)(z >> 32) | 1;
}

/* A standard normal variate in Q32 by Marsaglia's polar method: u, v uniform in (-1, 1) with
 * s = u^2 + v^2 in (0, 1), z = u sqrt(-2 ln s / s), the square root as 2^(log2(.) / 2). */
static int64_t normal_q(uint64_t *state)
{
	for (;;) {
		int64_t u = 2 * uniform_q(state) - ONE, v = 2 * uniform_q(state) - ONE;
		int64_t s = mul_q(u, u) + mul_q(v, v);
		if (s <= 0 || s >= ONE)
			continue;
		int64_t log2_s = log2_q((uint64_t)s) - ((int64_t)Q << Q);          /* < 0 */
		int64_t minus_2ln_s = -2 * mul_q(log2_s, LN2);                     /* > 0 */
		if (minus_2ln_s <= 0)
			continue;
		int64_t log2_t = log2_q((uint64_t)minus_2ln_s) - log2_s - ((int64_t)Q << Q);
		return mul_q(u, (int64_t)exp2_q(log2_t / 2));
	}
}

/* One file size in bytes: the lognormal body, e^(mu + sigma z) = 2^((mu + sigma z) / ln 2), or
 * the Pareto tail by its inverse CDF, k U^(-1/alpha) = 2^(log2 k - log2 U / alpha); at least 1
 * byte, at most SURGE_CAP. */
static size_t draw_size(uint64_t *state)
{
	int64_t y;
	if (uniform_q(state) < BODY_P) {
		y = mul_q(BODY_MU + mul_q(BODY_SIGMA, normal_q(state)), INV_LN2);
	} else {
		int64_t log2_u = log2_q((uint64_t)uniform_q(state)) - ((int64_t)Q << Q);   /* < 0 */
		y = log2_q(TAIL_K) - mul_q(log2_u, TAIL_INV_ALPHA);
	}
	if (y >= 20ll << Q)   /* SURGE_CAP = 2^20 */
		return SURGE_CAP;
	uint64_t bytes = (exp2_q(y) + (1ull << (Q - 1))) >> Q;
	return bytes < 1 ? 1 : (size_t)bytes;
}

/* ---- the set ----------------------------------------------------------------------------- */

static void sift_down(size_t *a, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		size_t t = a[i];
		a[i] = a[c], a[c] = t;
	}
}

/* Heapsort: the summary's median needs the sizes in order. */
static void sort_sizes(size_t *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end-- > 1;) {
		size_t t = a[0];
		a[0] = a[end], a[end] = t;
		sift_down(a, 0, end);
	}
}

bool surge_init(int n)
{
	static const char octet[] = "application/octet-stream", text[] = "text/plain; charset=utf-8";
	char *pattern = malloc(SURGE_CAP);
	size_t *sizes = malloc((size_t)n * sizeof *sizes), index_cap = (size_t)n * 16 + 1;
	char *index = malloc(index_cap);
	if (!pattern || !sizes || !index)
		return false;
	/* The content: 64-byte lines "surge ... \n" of letters, the same at every offset mod 64. */
	for (size_t i = 0; i < SURGE_CAP; i++)
		pattern[i] = i % 64 == 63 ? '\n' : (char)('a' + i % 64 % 26);
	uint64_t state = SURGE_SEED, total = 0;
	size_t used = 0;
	for (int k = 0; k < n; k++) {
		sizes[k] = draw_size(&state);
		total += sizes[k];
		char name[24];
		int len = snprintf(name, sizeof name, "surge/%d", k);
		if (!filecache_add(name, (size_t)len, pattern, sizes[k], octet))
			return false;
		used += (size_t)snprintf(index + used, index_cap - used, "%d %lu\n", k,
					 (unsigned long)sizes[k]);
	}
	if (!filecache_add("surge/index", 11, index, used, text))
		return false;
	sort_sizes(sizes, (size_t)n);
	size_t capped = 0;
	for (int k = n; k-- > 0 && sizes[k] == SURGE_CAP;)
		capped++;
	/* The median of an even count: the lower of the middle two. */
	printf("httpd: surge: %d files /surge/0 .. /surge/%d, %lu bytes, size min %lu median %lu "
	       "max %lu (%lu at the cap of %lu), seed %lu, listed in /surge/index\n", n, n - 1,
	       (unsigned long)total, (unsigned long)sizes[0], (unsigned long)sizes[(n - 1) / 2],
	       (unsigned long)sizes[n - 1], (unsigned long)capped, (unsigned long)SURGE_CAP,
	       (unsigned long)SURGE_SEED);
	free(sizes);
	return true;
}

/* The symbol cache: per process a sorted array of what the target said. Entries with a size
 * cover [start, start + size); the others (no size, or no symbol) only the exact address
 * that was asked about. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/client_priv.h"
#include "client/symcache.h"
#include "client/grow.h"

#define LOOKUP_BATCH 4096        /* addresses per SYMBOL_LOOKUP: 32 KiB, well inside a frame */

struct entry {
	uint32_t pid;
	uint64_t key;                /* start for a sized symbol, else the address asked */
	struct kov_symbol sym;
};

struct kov_symcache {
	struct entry *e;
	size_t n, cap;
};

struct kov_symcache *kov_symcache_new(void)
{
	return calloc(1, sizeof(struct kov_symcache));
}

void kov_symcache_free(struct kov_symcache *sc)
{
	if (sc)
		free(sc->e);
	free(sc);
}

static bool covers(const struct entry *e, uint32_t pid, uint64_t addr)
{
	if (e->pid != pid)
		return false;
	if (e->sym.size && e->sym.name[0])
		return addr >= e->sym.start && addr - e->sym.start < e->sym.size;
	return addr == e->key;
}

/* The number of entries ordered before (pid, addr). */
static size_t lower(const struct kov_symcache *sc, uint32_t pid, uint64_t addr)
{
	size_t lo = 0, hi = sc->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct entry *e = &sc->e[mid];
		if (e->pid < pid || (e->pid == pid && e->key < addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct entry *find(const struct kov_symcache *sc, uint32_t pid, uint64_t addr)
{
	size_t i = lower(sc, pid, addr);
	if (i < sc->n && covers(&sc->e[i], pid, addr))
		return &sc->e[i];           /* keyed exactly at addr */
	if (i > 0 && covers(&sc->e[i - 1], pid, addr))
		return &sc->e[i - 1];       /* a sized symbol starting below addr */
	return NULL;
}

static void insert(struct kov_symcache *sc, uint32_t pid, const struct kov_symbol *s)
{
	uint64_t key = s->size && s->name[0] ? s->start : s->addr;
	size_t i = lower(sc, pid, key);
	if (i < sc->n && sc->e[i].pid == pid && sc->e[i].key == key)
		return;
	if (!kov_grow((void **)&sc->e, &sc->cap, sc->n + 1, sizeof *sc->e))
		return;                     /* a cache may forget */
	memmove(&sc->e[i + 1], &sc->e[i], (sc->n - i) * sizeof *sc->e);
	sc->e[i] = (struct entry){ pid, key, *s };
	sc->n++;
}

/* Asks the target about addrs[0..n) (n <= LOOKUP_BATCH) and fills out in order. */
static int ask(struct kov_client *c, uint32_t pid, const uint64_t *addrs, size_t n,
               struct kov_symbol *out)
{
	size_t cap = PROTO_HEADER_SIZE + 8 + 8 * n;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return kov_fail(c, KOV_E_USAGE, "out of memory for symbols");
	struct proto_builder b;
	struct proto_symbol_query q = { pid };
	proto_begin_symbol_lookup(&b, buf, cap, 1, 0, &q);
	for (size_t i = 0; i < n; i++)
		proto_add_address(&b, &addrs[i]);
	int len = proto_finish(&b);
	struct kov_answer a;
	int err = len < 0 ? kov_fail(c, KOV_E_USAGE, "cannot encode SYMBOL_LOOKUP: %s",
	                             proto_strerror(len))
	                  : kov_client_call(c, buf, (size_t)len, &a);
	free(buf);
	if (err)
		return err;
	size_t got = 0;
	for (size_t i = 0; i < a.count && !err; i++) {
		struct proto_symbols_head h;
		struct proto_iter it;
		struct proto_symbol s;
		if (proto_decode_symbols(&a.frames[i].f, &h, &it) < 0) {
			err = kov_fail(c, KOV_E_PROTOCOL, "target answered SYMBOL_LOOKUP with %s",
			               proto_type_name(a.frames[i].f.type));
			break;
		}
		while (proto_next_symbol(&it, &s) && !err) {
			if (got == n || s.addr != addrs[got]) {
				err = kov_fail(c, KOV_E_PROTOCOL,
				               "SYMBOLS does not follow the addresses asked (record %zu)", got);
				break;
			}
			struct kov_symbol *o = &out[got++];
			o->addr = s.addr;
			o->start = s.start;
			o->size = s.size;
			proto_str_copy(o->name, sizeof o->name, s.name);
		}
	}
	if (!err && got != n)
		err = kov_fail(c, KOV_E_PROTOCOL, "SYMBOLS answered %zu of %zu addresses", got, n);
	kov_answer_free(&a);
	return err;
}

int kov_symcache_lookup(struct kov_client *c, struct kov_symcache *sc, uint32_t pid,
                        const uint64_t *addrs, size_t n, struct kov_symbol *out)
{
	uint64_t *miss = malloc((n ? n : 1) * sizeof *miss);
	size_t *where = malloc((n ? n : 1) * sizeof *where);
	struct kov_symbol *got = malloc(LOOKUP_BATCH * sizeof *got);
	int err = 0;
	if (!miss || !where || !got) {
		err = kov_fail(c, KOV_E_USAGE, "out of memory for symbols");
		goto out;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		const struct entry *e = find(sc, pid, addrs[i]);
		if (e) {
			out[i] = e->sym;
			out[i].addr = addrs[i];
		} else {
			miss[m] = addrs[i];
			where[m++] = i;
		}
	}
	for (size_t done = 0; done < m && !err; ) {
		size_t k = m - done < LOOKUP_BATCH ? m - done : LOOKUP_BATCH;
		err = ask(c, pid, miss + done, k, got);
		for (size_t j = 0; j < k && !err; j++) {
			out[where[done + j]] = got[j];
			insert(sc, pid, &got[j]);
		}
		done += k;
	}
out:
	free(miss);
	free(where);
	free(got);
	return err;
}

int kov_symbol_format(const struct kov_symbol *s, char *buf, size_t n)
{
	if (!s->name[0])
		return snprintf(buf, n, "?");
	if (s->addr == s->start)
		return snprintf(buf, n, "%s", s->name);
	return snprintf(buf, n, "%s+0x%llx", s->name, (unsigned long long)(s->addr - s->start));
}

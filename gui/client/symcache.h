/* Symbolizing target addresses through SYMBOL_LOOKUP, with a cache: a symbol whose size is
 * known answers every later address inside it without asking the target again. */
#ifndef KOV_CLIENT_SYMCACHE_H
#define KOV_CLIENT_SYMCACHE_H

#include "client/client.h"

struct kov_symbol {
	uint64_t addr;                   /* the address asked about */
	uint64_t start;                  /* of the symbol covering it; 0 when none */
	uint32_t size;                   /* 0: unknown (up to the next symbol) */
	char name[PROTO_SYMBOL_MAX + 1]; /* "" when no symbol covers addr */
};

struct kov_symcache;

struct kov_symcache *kov_symcache_new(void);
void kov_symcache_free(struct kov_symcache *sc);

/* Resolves n addresses of process pid (PROTO_PID_KERNEL: the kernel) into out[0..n), asking
 * the target, in as few SYMBOL_LOOKUP requests as fit, only for what the cache lacks. */
int kov_symcache_lookup(struct kov_client *c, struct kov_symcache *sc, uint32_t pid,
                        const uint64_t *addrs, size_t n, struct kov_symbol *out);

/* "kmalloc+0x45", "kmalloc" at its start, "?" when unknown; snprintf semantics. */
int kov_symbol_format(const struct kov_symbol *s, char *buf, size_t n);

#endif

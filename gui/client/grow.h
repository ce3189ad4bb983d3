/* Growth of the client library's arrays, one rule for all: capacity doubled, from 64. */
#ifndef KOV_CLIENT_GROW_H
#define KOV_CLIENT_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for need items of size bytes in *p (capacity *cap, doubled); false when memory
 * ran out (*p stays). */
bool kov_grow(void **p, size_t *cap, size_t need, size_t size);

#endif

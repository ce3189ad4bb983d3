/* Growth of the client library's arrays (gui/client/grow.h). */
#include <stdlib.h>
#include "client/grow.h"

bool kov_grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

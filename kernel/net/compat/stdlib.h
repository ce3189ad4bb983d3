/* <stdlib.h> for lwIP: atoi, which netif_find() uses to parse interface numbers. */
#ifndef KOV_COMPAT_STDLIB_H
#define KOV_COMPAT_STDLIB_H
static inline int atoi(const char *s)
{
	int n = 0;
	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	return n;
}
#endif

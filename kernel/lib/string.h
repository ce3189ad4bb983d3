/* The few C string functions the kernel uses; kernel/lib/string.c implements them.
 *
 * This header shadows <string.h> for anything built with -Ikernel/lib. A hosted build (unit
 * tests, host tools) therefore passes straight through to the C library's header, which
 * declares the same functions and many more. */
#if __STDC_HOSTED__
/* Unguarded on purpose: found first through the including file's directory, this header is
 * found once more through -Ikernel/lib before #include_next reaches the real one. */
#include_next <string.h>
#elif !defined(KOV_STRING_H)
#define KOV_STRING_H
#include <stddef.h>

/* GCC may emit calls to memcpy, memmove, memset and memcmp on its own, so all four exist. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
#endif

/* The few C string functions the kernel and the user C library use; string.c implements them.
 *
 * A hosted build (unit tests, host tools) passes straight through to the C library's header,
 * which declares the same functions and many more. */
#if __STDC_HOSTED__
/* Unguarded on purpose: #include_next may find this header once more on its way to the real
 * one, depending on which include path found it first. */
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

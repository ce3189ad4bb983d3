/* lwIP's compiler and platform glue for the KOV kernel (freestanding, big-endian ppc64). */
#ifndef KOV_LWIP_CC_H
#define KOV_LWIP_CC_H

#include <stdint.h>
#include <stddef.h>

#define BYTE_ORDER BIG_ENDIAN
#define LWIP_NO_INTTYPES_H 1
#define LWIP_NO_CTYPE_H 1
#define LWIP_NO_LIMITS_H 1           /* GCC's limits.h wants the C library's */
#define LWIP_NO_UNISTD_H 1
#define INT_MAX __INT_MAX__
typedef long ssize_t;
#define SSIZE_MAX __LONG_MAX__
#define X8_F "02x"
#define U16_F "u"
#define S16_F "d"
#define X16_F "x"
#define U32_F "u"
#define S32_F "d"
#define X32_F "x"
#define SZT_F "lu"

int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lwip_port_assert(const char *msg, const char *file, int line) __attribute__((noreturn));
#define LWIP_PLATFORM_DIAG(x) do { kprintf x; } while (0)
#define LWIP_PLATFORM_ASSERT(x) lwip_port_assert((x), __FILE__, __LINE__)

/* errno is per thread: socket calls from several processes run in the kernel at once. */
int *kov_net_errno(void);
#define errno (*kov_net_errno())

#endif

/* KOV's C library for user programs (libc-instr): system calls, console output, strings.
 * printf and friends use the same formatting code as the kernel (kernel/lib/format.c). */
#ifndef KOV_LIBC_H
#define KOV_LIBC_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

long __syscall(long nr, long a1, long a2, long a3, long a4, long a5);

void exit(int status) __attribute__((noreturn));
long write(int fd, const void *buf, size_t len);
int getpid(void);
int spawn(const char *program, const char *args);
int wait_pid(int pid, int *status);
void yield(void);
void *sbrk(long increment);
uint64_t clock_ns(void);
int getcpu(void);
long meminfo(int what);   /* MEMINFO_* from kernel/syscall_nr.h */

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int puts(const char *s);

size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

#endif

/* Kernel console output. Lines from different CPUs never interleave: each kprintf call, and
 * each block of user lines (console_write), is written under one lock. */
#ifndef KOV_CONSOLE_H
#define KOV_CONSOLE_H

#include <stdarg.h>
#include <stddef.h>

int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kvprintf(const char *fmt, va_list ap);
/* Writes s[0..n) as it is, under the console lock: user programs' output (SYS_WRITE), which
 * hands it over in whole lines so no other output lands inside one. */
void console_write(const char *s, size_t n);

/* For panic paths: stops honouring the console lock so a CPU that died holding it cannot
 * silence the report. */
void console_break_lock(void);

#endif

/* Kernel console output. Lines from different CPUs never interleave: each kprintf call is
 * written under one lock. */
#ifndef KOV_CONSOLE_H
#define KOV_CONSOLE_H

#include <stdarg.h>

int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kvprintf(const char *fmt, va_list ap);

/* For panic paths: stops honouring the console lock so a CPU that died holding it cannot
 * silence the report. */
void console_break_lock(void);

#endif

/* System-call wrappers and console output for user programs. */
#include "kov.h"
#include "cobj.h"
#include "../../kernel/syscall_nr.h"
#include "../../kernel/lib/format.h"

void exit(int status)
{
	__syscall(SYS_EXIT, status, 0, 0, 0, 0);
	for (;;)
		;
}

long write(int fd, const void *buf, size_t len)
{
	return __syscall(SYS_WRITE, fd, (long)buf, (long)len, 0, 0);
}

int getpid(void) { return (int)__syscall(SYS_GETPID, 0, 0, 0, 0, 0); }
int spawn(const char *program, const char *args)
{
	return (int)__syscall(SYS_SPAWN, (long)program, (long)args, 0, 0, 0);
}
int wait_pid(int pid, int *status) { return (int)__syscall(SYS_WAIT, pid, (long)status, 0, 0, 0); }
void yield(void)
{
	co_quiescent();
	__syscall(SYS_YIELD, 0, 0, 0, 0, 0);
}
void *sbrk(long increment) { return (void *)__syscall(SYS_SBRK, increment, 0, 0, 0, 0); }
uint64_t clock_ns(void) { return (uint64_t)__syscall(SYS_CLOCK, 0, 0, 0, 0, 0); }
int getcpu(void) { return (int)__syscall(SYS_GETCPU, 0, 0, 0, 0, 0); }
long meminfo(int what) { return __syscall(SYS_MEMINFO, what, 0, 0, 0, 0); }

/* printf collects output in a buffer and writes it in one system call per 256 bytes. */
struct out { char buf[256]; size_t len; };

static void flush(struct out *o)
{
	if (o->len)
		write(1, o->buf, o->len);
	o->len = 0;
}

static void sink(void *ctx, const char *s, size_t n)
{
	struct out *o = ctx;
	for (size_t i = 0; i < n; i++) {
		if (o->len == sizeof o->buf)
			flush(o);
		o->buf[o->len++] = s[i];
	}
}

int printf(const char *fmt, ...)
{
	struct out o = { .len = 0 };
	va_list ap;
	va_start(ap, fmt);
	int n = format_v(sink, &o, fmt, ap);
	va_end(ap);
	flush(&o);
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = format_buf_v(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	write(1, s, strlen(s));
	return (int)write(1, "\n", 1);
}

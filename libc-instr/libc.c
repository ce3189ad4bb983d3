/* System-call wrappers and console output for user programs. */
#include "kov.h"
#include "common/co/cobj.h"
#include "uthread.h"
#include "../kernel/abi/syscall_nr.h"
#include "common/lib/format.h"

static void stdout_flush_all(void);

void exit(int status)
{
	stdout_flush_all();
	__syscall(SYS_EXIT, status, 0, 0, 0, 0);
	for (;;)
		;
}

long write(int fd, const void *buf, size_t len)
{
	if (fd == 1 || fd == 2)
		stdout_flush();   /* what printf holds of this thread's line goes first */
	return __syscall(SYS_WRITE, fd, (long)buf, (long)len, 0, 0);
}

int getpid(void) { return (int)__syscall(SYS_GETPID, 0, 0, 0, 0, 0); }
int spawn(const char *program, const char *args)
{
	return (int)__syscall(SYS_SPAWN, (long)program, (long)args, 0, 0, 0);
}
int kill(int pid) { return (int)__syscall(SYS_KILL, pid, 0, 0, 0, 0); }
int power(int what)
{
	stdout_flush_all();
	return (int)__syscall(SYS_POWER, what, (long)POWER_MAGIC, 0, 0, 0);
}
int wait_pid(int pid, int *status)
{
	return (int)uthread_blocking_syscall(SYS_WAIT, pid, (long)status, 0, 0);
}
void yield(void)
{
	co_quiescent();
	__syscall(SYS_YIELD, 0, 0, 0, 0, 0);
}
void *sbrk(long increment) { return (void *)__syscall(SYS_SBRK, increment, 0, 0, 0, 0); }
uint64_t clock_ns(void) { return (uint64_t)__syscall(SYS_CLOCK, 0, 0, 0, 0, 0); }
int getcpu(void) { return (int)__syscall(SYS_GETCPU, 0, 0, 0, 0, 0); }
int sched_setaffinity(int tid, uint64_t mask)
{
	return (int)__syscall(SYS_SCHED_SETAFFINITY, tid, (long)mask, 0, 0, 0);
}
long sched_getaffinity(int tid) { return __syscall(SYS_SCHED_GETAFFINITY, tid, 0, 0, 0, 0); }
int sched_setclass(int tid, int klass)
{
	return (int)__syscall(SYS_SCHED_SETCLASS, tid, klass, 0, 0, 0);
}
long meminfo(int what) { return __syscall(SYS_MEMINFO, what, 0, 0, 0, 0); }

/* printf and puts keep each thread's output until its line is complete (or OUT_MAX bytes
 * wait), then write the whole lines in one system call, which the kernel puts on the console
 * under its lock: a line is never split by another thread's, process's or the kernel's
 * output, however many calls built it. One buffer per thread record, so threads need no lock. */
#define OUT_MAX 256
struct out { char buf[OUT_MAX]; size_t len; };
static struct out outs[UTHREAD_MAX];

static struct out *my_out(void)
{
	int i = thread_self_id();
	return &outs[i < 0 ? 0 : i];
}

/* Writes the complete lines (all of it with `all`, or when no line ends in a full buffer). */
static void emit(struct out *o, bool all)
{
	size_t cut = o->len;
	if (!all)
		while (cut > 0 && o->buf[cut - 1] != '\n')
			cut--;
	if (!cut && o->len == sizeof o->buf)
		cut = o->len;   /* a line longer than the buffer goes in pieces */
	if (!cut)
		return;
	__syscall(SYS_WRITE, 1, (long)o->buf, (long)cut, 0, 0);
	memmove(o->buf, o->buf + cut, o->len - cut);
	o->len -= cut;
}

static void sink(void *ctx, const char *s, size_t n)
{
	struct out *o = ctx;
	for (size_t i = 0; i < n; i++) {
		if (o->len == sizeof o->buf)
			emit(o, false);
		o->buf[o->len++] = s[i];
	}
}

void stdout_flush(void)
{
	emit(my_out(), true);
}

/* At exit: every thread's unfinished line (the others are about to be stopped). */
static void stdout_flush_all(void)
{
	for (int i = 0; i < UTHREAD_MAX; i++)
		emit(&outs[i], true);
}

int printf(const char *fmt, ...)
{
	struct out *o = my_out();
	va_list ap;
	va_start(ap, fmt);
	int n = format_v(sink, o, fmt, ap);
	va_end(ap);
	emit(o, false);
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
	struct out *o = my_out();
	size_t n = strlen(s);
	sink(o, s, n);
	sink(o, "\n", 1);
	emit(o, false);
	return (int)n + 1;
}

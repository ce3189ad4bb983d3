#include "console.h"
#include "platform.h"
#include "common/lib/spinlock.h"
#include "cpu.h"
#include "common/lib/format.h"

static struct spinlock console_lock;
static volatile int lock_broken;

/* Collects output in a line buffer so the platform sees few, larger writes. */
struct line_buf {
	char buf[128];
	size_t len;
};

static void flush(struct line_buf *lb)
{
	if (lb->len && platform)
		platform->console_write(lb->buf, lb->len);
	lb->len = 0;
}

static void sink(void *ctx, const char *s, size_t n)
{
	struct line_buf *lb = ctx;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			if (lb->len + 2 > sizeof lb->buf)
				flush(lb);
			lb->buf[lb->len++] = '\r';
			lb->buf[lb->len++] = '\n';
			flush(lb);
			continue;
		}
		if (lb->len == sizeof lb->buf)
			flush(lb);
		lb->buf[lb->len++] = s[i];
	}
}

int kvprintf(const char *fmt, va_list ap)
{
	struct line_buf lb = { .len = 0 };
	int irq = irq_save();
	bool locked = !lock_broken;
	if (locked)
		spin_lock(&console_lock);
	int n = format_v(sink, &lb, fmt, ap);
	flush(&lb);
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(irq);
	return n;
}

void console_write(const char *s, size_t n)
{
	int irq = irq_save();
	bool locked = !lock_broken;
	if (locked)
		spin_lock(&console_lock);
	if (platform)
		platform->console_write(s, n);
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(irq);
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}

void console_break_lock(void)
{
	lock_broken = 1;
}

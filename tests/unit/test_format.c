/* format: every conversion is checked against the host's snprintf where the C standard fixes
 * the output, and against literal expectations where KOV defines it (%p, NULL %s, unknown
 * conversions, an unfinished conversion). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "common/lib/format.h"

/* Formats with both and compares text and return value. */
static void same_impl(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void same_impl(const char *file, int line, const char *fmt, ...)
{
	char want[1024], got[1024];
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int wn = vsnprintf(want, sizeof want, fmt, ap);
	memset(got, 0x55, sizeof got);
	int gn = format_buf_v(got, sizeof got, fmt, aq);
	va_end(aq);
	va_end(ap);
	if (wn != gn || strcmp(want, got) != 0)
		fail_msg("%s:%d: format \"%s\": want [%s] (%d), got [%s] (%d)", file, line, fmt, want,
		         wn, got, gn);
}
#define SAME(...) same_impl(__FILE__, __LINE__, __VA_ARGS__)

/* The same for valid formats that GCC warns about (repeated or ignored flags). */
static void same_unchecked(const char *file, int line, const char *fmt, ...)
{
	char want[1024], got[1024];
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int wn = vsnprintf(want, sizeof want, fmt, ap);
	int gn = format_buf_v(got, sizeof got, fmt, aq);
	va_end(aq);
	va_end(ap);
	if (wn != gn || strcmp(want, got) != 0)
		fail_msg("%s:%d: format \"%s\": want [%s] (%d), got [%s] (%d)", file, line, fmt, want,
		         wn, got, gn);
}
#define SAME_UNCHECKED(...) same_unchecked(__FILE__, __LINE__, __VA_ARGS__)

/* Formats through a format that the compiler does not check (unknown conversions). */
static int raw(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = format_buf_v(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void plain_text_and_percent(void **state)
{
	(void)state;
	SAME("%s", "");
	SAME("hello, world");
	SAME("100%%");
	SAME("%%d%%");
	char buf[8];
	assert_int_equal(format_buf(buf, sizeof buf, "%s", ""), 0);
	assert_string_equal(buf, "");
}

static void signed_conversions(void **state)
{
	(void)state;
	SAME("%d %d %d", 0, 1, -1);
	SAME("%d %d", INT_MIN, INT_MAX);
	SAME("%i|%i", 12345, -678);
	SAME("%hhd %hhd %hhd", (signed char)-128, (signed char)127, (signed char)-1);
	SAME("%hd %hd", (short)SHRT_MIN, (short)SHRT_MAX);
	SAME("%ld %ld", LONG_MIN, LONG_MAX);
	SAME("%lld %lld", LLONG_MIN, LLONG_MAX);
	SAME("%zd %zd", (ptrdiff_t)-5, (ptrdiff_t)PTRDIFF_MAX);
	SAME("%td %td", (ptrdiff_t)PTRDIFF_MIN, (ptrdiff_t)77);
	SAME("%jd %jd", INTMAX_MIN, INTMAX_MAX);
	/* hh and h convert the promoted int back to the narrow type. */
	SAME("%hhd %hd", 200, 40000);
}

static void unsigned_conversions(void **state)
{
	(void)state;
	SAME("%u %u %u", 0u, 1u, UINT_MAX);
	SAME("%x %X %o", 0xdeadbeefu, 0xdeadbeefu, 0777u);
	SAME("%hhu %hhx %hho", (unsigned char)255, (unsigned char)0xab, (unsigned char)8);
	SAME("%hu %hx", (unsigned short)USHRT_MAX, (unsigned short)0x1234);
	SAME("%lu %lx %lo", ULONG_MAX, ULONG_MAX, ULONG_MAX);
	SAME("%llu %llX %llo", ULLONG_MAX, 0x0123456789abcdefULL, ULLONG_MAX);
	SAME("%zu %zx", SIZE_MAX, (size_t)4096);
	SAME("%tu %tx", (size_t)PTRDIFF_MAX, (size_t)0xfff);
	SAME("%ju %jx", UINTMAX_MAX, (uintmax_t)1 << 63);
	SAME("%hhu %hu", 0x1ff, 0x1ffff);   /* truncated to the narrow type */
}

static void flags(void **state)
{
	(void)state;
	/* Combinations GCC warns about are valid C: the ignored flag must be ignored. */
	SAME_UNCHECKED("[%-6d] [%06d] [%+d] [% d] [%+ d]", 42, 42, 42, 42, 42);
	SAME_UNCHECKED("[%-6d] [%06d] [%+d] [% d] [%+ d]", -42, -42, -42, -42, -42);
	SAME_UNCHECKED("[%+d] [% d] [%+u] [% x]", 0, 0, 5u, 5u);   /* + and space only affect signed */
	SAME_UNCHECKED("[%#x] [%#X] [%#o] [%#x] [%#o]", 255u, 255u, 8u, 0u, 0u);
	SAME_UNCHECKED("[%#010x] [%#-10x] [%#10X]", 0xbeefu, 0xbeefu, 0xbeefu);
	SAME_UNCHECKED("[%-06d] [%0-6d]", 7, 7);   /* '-' beats '0' */
	SAME_UNCHECKED("[%+05d] [% 05d] [%05d]", 7, 7, -7);
	SAME_UNCHECKED("[%--5d] [%++d] [%00d]", 1, 2, 3);   /* repeated flags */
}

static void width_and_precision(void **state)
{
	(void)state;
	SAME("[%5d] [%1d] [%0d] [%20d]", 123, 123, 123, INT_MIN);
	SAME("[%.3d] [%.3d] [%.0d] [%5.0d] [%.0x] [%.1d]", 7, -7, 0, 0, 0u, 0);
	SAME("[%-8.3d] [%8.3x] [%#.5x]", 7, 0xau, 0xau);
	SAME_UNCHECKED("[%08.3d] [%08.3x]", -7, 0xau);   /* '0' is ignored with a precision */
	SAME("[%#.0o] [%#.3o] [%#5.0x] [%#.1o]", 0u, 8u, 0u, 1u);
	SAME("[%.20llu] [%30.25lld]", ULLONG_MAX, LLONG_MIN);
	SAME("[%300d]", 1);
	SAME("[%-300x]", 0xabcu);
}

static void star_arguments(void **state)
{
	(void)state;
	SAME("[%*d] [%-*d] [%*d]", 5, 1, 5, 2, -5, 3);   /* negative width: left-justify */
	SAME("[%.*d] [%.*d] [%.*d]", 4, 9, 0, 0, -1, 0);  /* negative precision: none */
	SAME("[%*.*d] [%0*d]", 8, 4, -12, 6, -12);
	SAME("[%.*s] [%*.*s] [%-*s]", 3, "abcdef", 6, 2, "abcdef", 4, "ab");
	SAME("[%*s]", 0, "x");
}

static void chars_and_strings(void **state)
{
	(void)state;
	SAME("[%c%c%c]", 'a', 'B', '~');
	SAME("[%3c] [%-3c]", 'x', 'y');
	SAME("[%s] [%10s] [%-10s] [%.2s] [%.0s] [%5.1s] [%.10s]", "hi", "hi", "hi", "hello", "hello",
	     "hello", "hello");
	char buf[8];
	assert_int_equal(format_buf(buf, sizeof buf, "%c", 0), 1);   /* a NUL is a character */
	assert_int_equal(buf[0], 0);
}

static void null_string(void **state)
{
	(void)state;
	char buf[32];
	const char *volatile none = NULL;
	assert_int_equal(format_buf(buf, sizeof buf, "[%s]", none), 8);
	assert_string_equal(buf, "[(null)]");
	assert_int_equal(format_buf(buf, sizeof buf, "[%8s|%.3s]", none, none), 14);
	assert_string_equal(buf, "[  (null)|(nu]");
}

static void pointers(void **state)
{
	(void)state;
	char buf[64];
	assert_int_equal(format_buf(buf, sizeof buf, "%p", (void *)0x1234), 18);
	assert_string_equal(buf, "0x0000000000001234");
	assert_int_equal(format_buf(buf, sizeof buf, "%p", (void *)0), 18);
	assert_string_equal(buf, "0x0000000000000000");
	format_buf(buf, sizeof buf, "%p", (void *)UINTPTR_MAX);
	assert_string_equal(buf, "0xffffffffffffffff");
	assert_int_equal(format_buf(buf, sizeof buf, "[%20p]", (void *)0xabc), 22);
	assert_string_equal(buf, "[  0x0000000000000abc]");
	format_buf(buf, sizeof buf, "[%-20p]", (void *)0xabc);
	assert_string_equal(buf, "[0x0000000000000abc  ]");
}

static void unknown_and_unfinished(void **state)
{
	(void)state;
	char buf[64];
	assert_int_equal(raw(buf, sizeof buf, "%q"), 2);
	assert_string_equal(buf, "%q");
	assert_int_equal(raw(buf, sizeof buf, "a%-5qb%d", 7), 7);   /* the spec stays as written */
	assert_string_equal(buf, "a%-5qb7");
	assert_int_equal(raw(buf, sizeof buf, "%lq"), 3);
	assert_string_equal(buf, "%lq");
	assert_int_equal(raw(buf, sizeof buf, "abc%"), 4);
	assert_string_equal(buf, "abc%");
	assert_int_equal(raw(buf, sizeof buf, "x%-08.3l"), 8);
	assert_string_equal(buf, "x%-08.3l");
}

static void truncation(void **state)
{
	(void)state;
	char buf[8];
	memset(buf, 'Z', sizeof buf);
	assert_int_equal(format_buf(buf, 5, "hello %s", "world"), 11);
	assert_string_equal(buf, "hell");
	assert_int_equal(buf[5], 'Z');   /* nothing past size */
	memset(buf, 'Z', sizeof buf);
	assert_int_equal(format_buf(buf, 1, "%d", 12345), 5);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], 'Z');
	assert_int_equal(format_buf(NULL, 0, "%d-%s", -12, "ab"), 6);   /* size 0: only counts */
	assert_int_equal(format_buf(buf, sizeof buf, "%7d", 1), 7);
	assert_string_equal(buf, "      1");
	assert_int_equal(format_buf(buf, sizeof buf, "%8d", 1), 8);
	assert_string_equal(buf, "       ");
}

struct collect {
	char text[256];
	size_t len;
	int calls;
};

static void collect(void *ctx, const char *s, size_t n)
{
	struct collect *c = ctx;
	assert_true(n > 0);
	assert_true(c->len + n < sizeof c->text);
	memcpy(c->text + c->len, s, n);
	c->len += n;
	c->text[c->len] = 0;
	c->calls++;
}

static int to_sink(struct collect *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int to_sink(struct collect *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = format_v(collect, c, fmt, ap);
	va_end(ap);
	return n;
}

static void sink_receives_everything(void **state)
{
	(void)state;
	struct collect c = { .len = 0 };
	int n = to_sink(&c, "cpu %u: %-8s|%#06x|%100d", 3u, "ok", 0x2au, 5);
	assert_int_equal(n, 123);
	assert_int_equal(c.len, 123);
	assert_memory_equal(c.text, "cpu 3: ok      |0x002a|", 23);
	assert_string_equal(c.text + 118, "    5");
	/* Long padding goes out in a few chunks, not one call per character. */
	assert_true(c.calls < 20);
	struct collect e = { .len = 0 };
	assert_int_equal(to_sink(&e, "%s", ""), 0);
	assert_int_equal(e.calls, 0);
}

/* Every combination of flags, width and precision for the integer conversions, against the
 * host. The formats are built at run time, so only valid combinations are generated. */
static void integer_combinations(void **state)
{
	(void)state;
	static const char *const flag_sets[] = { "", "-", "0", "+", " ", "#", "-+", "0+", "0 ", "-#",
	                                         "0#", "+ ", "-0", "-0+#" };
	static const char *const widths[] = { "", "0", "1", "5", "12" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".3", ".10" };
	static const char convs[] = "diuxXo";
	static const long long values[] = { 0, 1, -1, 7, 42, -42, 255, 4096, INT_MAX, INT_MIN };
	int checked = 0;
	for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
		for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
			for (size_t p = 0; p < sizeof precs / sizeof *precs; p++)
				for (const char *c = convs; *c; c++) {
					bool is_signed = *c == 'd' || *c == 'i';
					if (is_signed && strchr(flag_sets[f], '#'))
						continue;   /* undefined by the standard */
					char fmt[32];
					snprintf(fmt, sizeof fmt, "[%%%s%s%s%c]", flag_sets[f], widths[w], precs[p],
					         *c);
					for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
						char want[64], got[64];
						int wn, gn;
						if (is_signed) {
							wn = snprintf(want, sizeof want, fmt, (int)values[v]);
							gn = raw(got, sizeof got, fmt, (int)values[v]);
						} else {
							wn = snprintf(want, sizeof want, fmt, (unsigned)values[v]);
							gn = raw(got, sizeof got, fmt, (unsigned)values[v]);
						}
						if (wn != gn || strcmp(want, got) != 0)
							fail_msg("format \"%s\" value %lld: want [%s] got [%s]", fmt,
							         values[v], want, got);
						checked++;
					}
				}
	assert_true(checked > 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_text_and_percent),
		cmocka_unit_test(signed_conversions),
		cmocka_unit_test(unsigned_conversions),
		cmocka_unit_test(flags),
		cmocka_unit_test(width_and_precision),
		cmocka_unit_test(star_arguments),
		cmocka_unit_test(chars_and_strings),
		cmocka_unit_test(null_string),
		cmocka_unit_test(pointers),
		cmocka_unit_test(unknown_and_unfinished),
		cmocka_unit_test(truncation),
		cmocka_unit_test(sink_receives_everything),
		cmocka_unit_test(integer_combinations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

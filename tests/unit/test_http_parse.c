/* httpd's request-head parser (sim/workloads/httpd/http_parse.c): complete heads with their
 * method, target, version, keep-alive and Content-Length; heads cut at every byte are
 * incomplete, never wrong; malformed heads get 400, long targets 414, long heads 431,
 * Transfer-Encoding 501 and HTTP/2 505, as early as the bytes allow. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../../sim/workloads/httpd/http_parse.c"

static int parse(const char *s, struct http_request *r)
{
	return http_parse(s, strlen(s), r);
}

static void complete_heads(void **state)
{
	(void)state;
	struct http_request r;
	const char *get = "GET /index.html?x=1 HTTP/1.1\r\nHost: kov\r\nUser-Agent: t\r\n\r\nNEXT";
	assert_int_equal(parse(get, &r), HTTP_PARSED);
	assert_int_equal(r.method, HTTP_GET);
	assert_int_equal(r.target_len, strlen("/index.html?x=1"));
	assert_memory_equal(r.target, "/index.html?x=1", r.target_len);
	assert_int_equal(r.minor, 1);
	assert_true(r.keep_alive);
	assert_true(r.has_host);
	assert_int_equal(r.content_length, -1);
	assert_int_equal(r.head_len, strlen(get) - 4);

	/* ApacheBench's keep-alive request: HTTP/1.0 with Connection: Keep-Alive. */
	assert_int_equal(parse("HEAD / HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: h\r\n\r\n", &r),
			 HTTP_PARSED);
	assert_int_equal(r.method, HTTP_HEAD);
	assert_int_equal(r.minor, 0);
	assert_true(r.keep_alive);
	assert_int_equal(parse("GET / HTTP/1.0\r\n\r\n", &r), HTTP_PARSED);
	assert_false(r.keep_alive);
	assert_false(r.has_host);
	assert_int_equal(parse("GET / HTTP/1.1\nHost: h\nConnection: foo, close\n\n", &r), HTTP_PARSED);
	assert_false(r.keep_alive);
	assert_int_equal(parse("\r\n\r\nPUT /kv/a HTTP/1.1\r\nhost:h\r\ncontent-length:  12 \r\n\r\n", &r),
			 HTTP_PARSED);
	assert_int_equal(r.method, HTTP_PUT);
	assert_int_equal(r.content_length, 12);
	/* HTTP/1.2 is answered as 1.1; absolute-form targets give their path. */
	assert_int_equal(parse("GET http://kov:80/a/b HTTP/1.2\r\nHost: kov\r\n\r\n", &r), HTTP_PARSED);
	assert_int_equal(r.minor, 1);
	assert_memory_equal(r.target, "/a/b", 4);
	assert_int_equal(r.target_len, 4);
	assert_int_equal(parse("GET http://kov HTTP/1.1\r\nHost: kov\r\n\r\n", &r), HTTP_PARSED);
	assert_int_equal(r.target_len, 1);
	assert_int_equal(parse("OPTIONS * HTTP/1.1\r\nHost: kov\r\n\r\n", &r), HTTP_PARSED);
	assert_int_equal(r.method, HTTP_OTHER);
	assert_int_equal(parse("BREW /pot HTTP/1.1\r\nHost: kov\r\n\r\n", &r), HTTP_PARSED);
	assert_false(http_method_is_standard(r.method_name, r.method_len));
	assert_true(http_method_is_standard("DELETE", 6));
	assert_int_equal(parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", &r),
			 HTTP_PARSED);
}

/* Every prefix of a valid head is incomplete, whatever byte it ends on. */
static void every_prefix_is_incomplete(void **state)
{
	(void)state;
	const char *heads[] = {
		"GET /a HTTP/1.1\r\nHost: kov\r\nAccept: */*\r\n\r\n",
		"\r\nHEAD /b?c HTTP/1.0\nConnection: keep-alive\n\n",
	};
	for (size_t h = 0; h < 2; h++) {
		struct http_request r;
		size_t n = strlen(heads[h]);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(http_parse(heads[h], i, &r), HTTP_INCOMPLETE);
		assert_int_equal(http_parse(heads[h], n, &r), HTTP_PARSED);
		assert_int_equal(r.head_len, n);
	}
}

static void malformed_heads(void **state)
{
	(void)state;
	struct http_request r;
	const char *bad[] = {
		"GET\r\n\r\n",                                   /* no target */
		"GET  / HTTP/1.1\r\nHost: h\r\n\r\n",            /* two spaces */
		"GET / HTTP/1.1 \r\nHost: h\r\n\r\n",            /* trailing space */
		"GET / http/1.1\r\nHost: h\r\n\r\n",
		"GET / HTTP/1\r\nHost: h\r\n\r\n",
		"GET /\r\n\r\n",                                 /* HTTP/0.9 */
		"GET index.html HTTP/1.1\r\nHost: h\r\n\r\n",     /* not origin-form */
		"GET * HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET / HTTP/1.1\r\n\r\n",                        /* HTTP/1.1 without Host */
		"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
		"GET / HTTP/1.1\r\nHost : h\r\n\r\n",            /* space before the colon */
		"GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n  folded\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n",
		"G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = parse(bad[i], &r);
		if (rc != 400)
			fail_msg("head %zu: %d, not 400: %s", i, rc, bad[i]);
	}
	/* Garbage is refused as soon as it arrives, not after a timeout. */
	assert_int_equal(http_parse("\x16\x03\x01\x02", 4, &r), 400);
	assert_int_equal(http_parse("GET /\x01", 6, &r), 400);
	assert_int_equal(http_parse("GET / XTTP", 10, &r), 400);
	assert_int_equal(parse("GET / HTTP/2.0\r\n\r\n", &r), 505);
	assert_int_equal(parse("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", &r), 501);
}

static void limits(void **state)
{
	(void)state;
	struct http_request r;
	static char buf[3 * HTTP_HEAD_MAX];
	/* A target one byte too long, complete or still arriving. */
	memcpy(buf, "GET /", 5);
	memset(buf + 5, 'a', HTTP_TARGET_MAX);
	assert_int_equal(http_parse(buf, 5 + HTTP_TARGET_MAX - 1, &r), HTTP_INCOMPLETE);
	assert_int_equal(http_parse(buf, 5 + HTTP_TARGET_MAX, &r), 414);
	size_t n = 4 + HTTP_TARGET_MAX;
	memcpy(buf + n, " HTTP/1.1\r\nHost: h\r\n\r\n", 22);
	assert_int_equal(http_parse(buf, n + 22, &r), HTTP_PARSED);
	assert_int_equal(r.target_len, HTTP_TARGET_MAX);
	/* A head whose fields go on past HTTP_HEAD_MAX, with or without its end. */
	n = (size_t)snprintf(buf, sizeof buf, "GET / HTTP/1.1\r\nHost: h\r\n");
	while (n < HTTP_HEAD_MAX + 100)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "X-Filler: %s\r\n", "0123456789abcdef");
	assert_int_equal(http_parse(buf, n, &r), 431);
	memcpy(buf + n, "\r\n", 2);
	assert_int_equal(http_parse(buf, n + 2, &r), 431);
	/* A method too long for any server. */
	memset(buf, 'M', 40);
	assert_int_equal(http_parse(buf, 40, &r), 501);
	/* Empty lines only: waits, up to the head limit. */
	memset(buf, '\n', HTTP_HEAD_MAX + 1);
	assert_int_equal(http_parse(buf, 100, &r), HTTP_INCOMPLETE);
	assert_int_equal(http_parse(buf, HTTP_HEAD_MAX + 1, &r), 431);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(complete_heads),
		cmocka_unit_test(every_prefix_is_incomplete),
		cmocka_unit_test(malformed_heads),
		cmocka_unit_test(limits),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}

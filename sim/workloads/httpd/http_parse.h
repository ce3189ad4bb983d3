/* HTTP/1.x request heads (RFC 9112), parsed in place from a connection's buffer. Portable C
 * with no library calls: httpd compiles it for the target, tests/unit/test_http_parse.c on
 * the host. */
#ifndef KOV_HTTP_PARSE_H
#define KOV_HTTP_PARSE_H

#include <stddef.h>
#include <stdbool.h>

#define HTTP_TARGET_MAX 2048     /* longer request targets: 414 */
#define HTTP_HEAD_MAX 8192       /* longer request heads (line and fields): 431 */

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_PUT, HTTP_OTHER };

struct http_request {
	enum http_method method;
	const char *method_name;          /* points into the buffer; method_len bytes */
	size_t method_len;
	const char *target;               /* origin-form ("/path?query"), target_len bytes */
	size_t target_len;
	int minor;                        /* HTTP/1.minor: 0 or 1 */
	bool keep_alive;                  /* the version's default, as the Connection field says */
	bool has_host;
	long content_length;              /* -1 without a Content-Length field */
	size_t head_len;                  /* bytes up to and including the empty line */
};

/* Results other than a status code. */
#define HTTP_INCOMPLETE 0                 /* the head has not ended yet: read more */
#define HTTP_PARSED 1                     /* *req describes a complete, valid head */

/* Parses the request head at the start of buf[0, len). Returns HTTP_PARSED, HTTP_INCOMPLETE,
 * or the status code of the error to answer: 400 (malformed: request line, version text,
 * field syntax, line folding, a bad or conflicting Content-Length, HTTP/1.1 without Host),
 * 414 (target over HTTP_TARGET_MAX), 431 (head over HTTP_HEAD_MAX), 501 (Transfer-Encoding:
 * request bodies other than Content-Length are not implemented), 505 (HTTP/2 and later).
 * Empty lines before the request line are skipped (counted in head_len). Lines may end in
 * CRLF or a bare LF. */
int http_parse(const char *buf, size_t len, struct http_request *req);

/* True for methods of RFC 9110 this server does not allow (405); other unknown tokens get
 * 501. */
bool http_method_is_standard(const char *name, size_t len);

#endif

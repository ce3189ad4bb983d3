/* The HTTP/1.x request head the metrics port reads, and the exposition format its Accept
 * header asks for. Portable (the daemon, the host unit tests and the fuzzer build it); reads
 * only the bytes it is given. */
#ifndef KOV_DCID_HTTP_H
#define KOV_DCID_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HEAD_MAX 2048          /* a longer head is refused with 431 */
#define HTTP_HEADERS_MAX 64         /* more header lines: 431 */

/* What the metrics port serves: Prometheus text 0.0.4 unless the client prefers OpenMetrics. */
enum http_format { HTTP_FORMAT_PROMETHEUS, HTTP_FORMAT_OPENMETRICS };

struct http_request {
	char method[8];              /* "GET"; longer methods are refused with 501 */
	char path[128];              /* the target up to '?'; longer: 414 */
	enum http_format format;     /* from the Accept headers */
	size_t head_len;             /* bytes of the head, its blank line included */
};

/* Parses the head at the start of buf[0, len). Returns 0 when it is not complete yet (read
 * more; a head that cannot complete within HTTP_HEAD_MAX gives -431 at once), head_len when it
 * is, or the negated HTTP status of a malformed head (-400, -414, -431, -501, -505). */
int http_parse_request(const char *buf, size_t len, struct http_request *out);

/* The format an Accept header's value asks for (several Accept headers count as one list) (RFC 9110 media ranges with q-values):
 * OpenMetrics when application/openmetrics-text (version 1.0.0 or 0.0.1, or none) has a
 * q-value above 0 and at least that of text/plain (version 0.0.4 or none), text/ * and * / *. */
enum http_format http_negotiate(const char *accept, size_t len);

#endif

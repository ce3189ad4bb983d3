/* libFuzzer target: the metrics port's HTTP request-head parser and Accept negotiation
 * (dci/http.c). A complete head is never longer than the input or than HTTP_HEAD_MAX,
 * refusals are HTTP statuses, and the fields it fills are NUL-terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dci/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);   /* no terminator: reads past it are caught */
	memcpy(copy, data, size);
	struct http_request r;
	int rc = http_parse_request(copy, size, &r);
	if (rc > 0 && ((size_t)rc > size || rc > HTTP_HEAD_MAX || (size_t)rc != r.head_len ||
		       !memchr(r.method, 0, sizeof r.method) || !memchr(r.path, 0, sizeof r.path)))
		abort();
	if (rc < 0 && rc != -400 && rc != -414 && rc != -431 && rc != -501 && rc != -505)
		abort();
	if (rc == 0 && size >= HTTP_HEAD_MAX)
		abort();   /* a head that cannot complete is refused at once */
	enum http_format fmt = http_negotiate(copy, size);
	if (fmt != HTTP_FORMAT_PROMETHEUS && fmt != HTTP_FORMAT_OPENMETRICS)
		abort();
	free(copy);
	return 0;
}

/* Answers: routing a parsed request to a file, the page-view counter, the key-value store or
 * the statistics, and writing the status line and fields. Every answer has a Content-Length;
 * there is no Date field because the machine has no clock of the time of day (RFC 9110 6.6.1:
 * a server without one must not send it). */
#include "httpd.h"

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 411: return "Length Required";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 505: return "HTTP Version Not Supported";
	case 507: return "Insufficient Storage";
	default: return "Internal Server Error";
	}
}

/* The status line and fields; returns their length (0 if they do not fit). */
static size_t head(char *out, size_t cap, int status, const char *type, size_t body_len, bool keep,
		   const char *extra)
{
	int n = snprintf(out, cap, "HTTP/1.1 %d %s\r\nServer: kov-httpd\r\nContent-Length: %lu\r\n"
			 "%s%s%s%sConnection: %s\r\n\r\n", status, reason(status),
			 (unsigned long)body_len, type ? "Content-Type: " : "", type ? type : "",
			 type ? "\r\n" : "", extra ? extra : "", keep ? "keep-alive" : "close");
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static bool send_all(int fd, const char *p, size_t len, int flags)
{
	while (len) {
		long n = send(fd, p, len, flags);
		if (n <= 0)
			return false;   /* reset, or the client did not read for cfg.timeout_s */
		p += n, len -= (size_t)n;
	}
	return true;
}

static void count(struct http_worker *w, int status)
{
	w->requests++;
	w->status[status / 100 < 6 ? status / 100 : 0]++;
}

/* A complete answer with a body; the body goes in the same send when it fits. */
static bool answer(struct http_worker *w, struct http_conn *c, int status, const char *type,
		   const char *body, size_t len, bool keep, bool head_only, const char *extra)
{
	count(w, status);
	size_t h = head(w->out, sizeof w->out, status, type, len, keep, extra);
	if (!h)
		return false;
	if (head_only)
		return send_all(c->fd, w->out, h, 0) && keep;
	if (h + len <= sizeof w->out) {
		memcpy(w->out + h, body, len);
		return send_all(c->fd, w->out, h + len, 0) && keep;
	}
	return send_all(c->fd, w->out, h, MSG_MORE) && send_all(c->fd, body, len, 0) && keep;
}

static size_t error_body(char *out, size_t cap, int status)
{
	int n = snprintf(out, cap, "<!DOCTYPE html>\n<html><head><title>%d %s</title></head>"
			 "<body><h1>%d %s</h1></body></html>\n", status, reason(status), status,
			 reason(status));
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static bool error(struct http_worker *w, struct http_conn *c, int status, bool keep, bool head_only,
		  const char *extra)
{
	char body[256];
	size_t n = error_body(body, sizeof body, status);
	return answer(w, c, status, "text/html; charset=utf-8", body, n, keep, head_only, extra);
}

bool respond_error_now(int fd, int status)
{
	char out[512], body[256];
	size_t n = error_body(body, sizeof body, status);
	size_t h = head(out, sizeof out, status, "text/html; charset=utf-8", n, false, 0);
	if (!h || h + n > sizeof out)
		return false;
	memcpy(out + h, body, n);
	return send(fd, out, h + n, MSG_DONTWAIT) == (long)(h + n);
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

/* GET /counter: counts the view and says how many there were. */
static bool counter(struct http_worker *w, struct http_conn *c, const char *path, size_t plen,
		    bool keep, bool head_only)
{
	uint64_t mine = pageviews_hit(path, plen);
	char body[128];
	int n = snprintf(body, sizeof body, "views of /counter: %lu\ntotal views: %lu\n",
			 (unsigned long)mine, (unsigned long)pageviews_total());
	return answer(w, c, 200, "text/plain; charset=utf-8", body, (size_t)n, keep, head_only, 0);
}

static bool stats(struct http_worker *w, struct http_conn *c, bool keep, bool head_only)
{
	uint64_t req = 0, st[6] = { 0 };
	for (int i = 0; i < cfg.workers; i++) {
		req += workers[i].requests;
		for (int k = 0; k < 6; k++)
			st[k] += workers[i].status[k];
	}
	char body[512];
	int n = snprintf(body, sizeof body,
			 "requests %lu\n2xx %lu\n4xx %lu\n5xx %lu\naccepted %lu\nconnections %d\n"
			 "page_views %lu\nkv_keys %lu\nworkers %d\n",
			 (unsigned long)req, (unsigned long)st[2], (unsigned long)st[4],
			 (unsigned long)st[5], (unsigned long)accepted_total, conns_live,
			 (unsigned long)pageviews_total(), kvstore_count(), cfg.workers);
	return answer(w, c, 200, "text/plain; charset=utf-8", body, (size_t)n, keep, head_only, 0);
}

/* /kv/KEY: GET or HEAD reads, PUT stores the request's body. */
static bool kv(struct http_worker *w, struct http_conn *c, const struct http_request *req,
	       const char *key, size_t klen, const char *body, bool keep)
{
	if (klen == 0 || klen > KV_KEY_MAX)
		return error(w, c, 404, keep, req->method == HTTP_HEAD, 0);
	if (req->method == HTTP_PUT) {
		if (req->content_length < 0)
			return error(w, c, 411, false, false, 0);
		int rc = kvstore_put(key, klen, body, (size_t)req->content_length);
		if (rc < 0)
			return error(w, c, 507, keep, false, 0);
		static const char created[] = "created\n", replaced[] = "replaced\n";
		return answer(w, c, rc ? 201 : 200, "text/plain; charset=utf-8", rc ? created : replaced,
			      rc ? sizeof created - 1 : sizeof replaced - 1, keep, false, 0);
	}
	char value[KV_VALUE_MAX];
	long n = kvstore_get(key, klen, value, sizeof value);
	if (n < 0)
		return error(w, c, 404, keep, req->method == HTTP_HEAD, 0);
	return answer(w, c, 200, "application/octet-stream", value, (size_t)n, keep,
		      req->method == HTTP_HEAD, 0);
}

bool respond(struct http_worker *w, struct http_conn *c, int rc, const struct http_request *req,
	     const char *body)
{
	if (rc != HTTP_PARSED) {   /* the connection closes after an unparsable request */
		error(w, c, rc, false, false, 0);
		return false;
	}
	bool keep = req->keep_alive, head_only = req->method == HTTP_HEAD;
	size_t plen = 0;
	while (plen < req->target_len && req->target[plen] != '?')
		plen++;
	const char *path = req->target;
	bool is_kv = starts(path, plen, "/kv/");
	if (req->method == HTTP_OTHER || (req->method == HTTP_PUT && !is_kv)) {
		if (req->method == HTTP_OTHER && !http_method_is_standard(req->method_name, req->method_len))
			return error(w, c, 501, keep, false, 0);
		return error(w, c, 405, keep, false,
			     is_kv ? "Allow: GET, HEAD, PUT\r\n" : "Allow: GET, HEAD\r\n");
	}
	if (is_kv) {
		pageviews_hit("/kv/", 4);
		return kv(w, c, req, path + 4, plen - 4, body, keep);
	}
	if (same(path, plen, "/counter"))
		return counter(w, c, path, plen, keep, head_only);
	if (same(path, plen, "/stats"))
		return stats(w, c, keep, head_only);
	const struct cached_file *f = same(path, plen, "/") ? filecache_get("index.html", 10)
							    : filecache_get(path + 1, plen - 1);
	if (!f)
		return error(w, c, 404, keep, head_only, 0);
	pageviews_hit(path, plen);
	return answer(w, c, 200, f->type, f->data, f->len, keep, head_only, 0);
}

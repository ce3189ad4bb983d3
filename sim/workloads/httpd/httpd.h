/* httpd: an HTTP/1.1 server for KOV, built from user-level clustered objects so that the
 * monitor has something to attribute its samples and lock waits to:
 *
 *   HttpListener  the listening socket and the poller thread that watches every idle
 *                 connection (poll), accepts, and enforces the timeouts
 *   WorkQueue     connections with bytes to read, handed from the poller to the workers
 *   HttpWorker    one per worker thread: takes connections off the queue and serves them
 *   HttpConn      one per connection slot (a fixed pool): buffer, parse, respond
 *   FileCache     the files of the initial RAM disk's www/, read once, served from memory,
 *                 and the SURGE file set made at start-up (surge.c)
 *   PageViews     views per page, counted on every answered request (GET /counter)
 *   KvStore       a small key-value store with a lock per bucket stripe (GET/PUT /kv/KEY)
 *
 * A connection is always owned by exactly one of: the poller (idle, or part of a request
 * read), the queue, a worker. Workers give it back through the listener's return list and
 * wake the poller with a datagram on a loopback UDP socket (poll watches it).
 *
 * Usage: httpd [port=80] [workers=4] [conns=128] [timeout=10] [keepalive=5] [seconds=0]
 *              [views=shared|percpu] [surge=0]
 *   timeout    seconds a client may take to send a request (408 after) and to take an
 *              answer (the send time limit); keepalive: seconds an idle connection is kept
 *   seconds    stop after that long and print the statistics (0: run until powered off)
 *   surge      make that many files /surge/0 .. /surge/N-1 of SURGE's file sizes (surge.c) and
 *              list them in /surge/index (0: none) */
#ifndef KOV_HTTPD_H
#define KOV_HTTPD_H

#include <kov.h>
#include <cobj.h>
#include <socket.h>
#include "../../../kernel/abi/syscall_nr.h"
#include "http_parse.h"
#include "../workload.h"

#define CONN_BUF (HTTP_HEAD_MAX + 4096)   /* a head and a PUT body */
#define BODY_MAX 4096                     /* larger request bodies: 413 */
#define CONNS_MAX 150                     /* the process has 160 socket fds */
#define WORKERS_MAX 32
#define OUT_BUF (16 * 1024)               /* an answer up to this size goes in one send */

struct httpd_config {
	int port, workers, conns, timeout_s, keepalive_s, seconds, surge;
	bool views_percpu;
};
extern struct httpd_config cfg;

/* ---- connections ------------------------------------------------------------------------ */

enum conn_state { CONN_FREE, CONN_POLLED, CONN_QUEUED, CONN_SERVING, CONN_LINGER };
/* What HttpConn.serve leaves to do with the connection. */
enum conn_next { CONN_WAIT, CONN_CLOSE, CONN_LINGER_CLOSE };

struct http_worker;
struct http_conn;
struct http_conn_ops {
	/* Reads what has arrived, answers every complete request. */
	enum conn_next (*serve)(struct http_conn *c, struct http_worker *w);
	/* The poller's timeout: a 408 for a request cut short, then closing. */
	void (*expire)(struct http_conn *c);
};
struct http_conn {
	const struct http_conn_ops *ops;
	int index, fd;
	volatile enum conn_state state;
	uint64_t deadline;                /* ns: the poller acts on it (idle, request, linger) */
	size_t len;                       /* bytes in buf */
	uint64_t requests;                /* answered on this connection */
	struct http_conn *next;           /* in the free list or the return list */
	char buf[CONN_BUF];
};
extern struct http_conn *conns;       /* cfg.conns slots */
extern coid_t *conn_coids;
bool conns_init(void);
/* A free slot for a new socket (0: none); a slot back to the free list (socket closed). */
struct http_conn *conn_alloc(int fd);
void conn_free(struct http_conn *c);
bool conn_slots_free(void);
extern volatile int conns_live;
/* Closes the socket and frees the slot. */
void conn_close(struct http_conn *c);
/* Ends the sending side after an answer that closes the connection: its input is drained by
 * the poller until the client closes or LINGER_NS pass (closing with input unread would
 * reset the connection and could destroy the answer on its way). */
#define LINGER_NS 2000000000ull
void conn_linger(struct http_conn *c);

/* ---- the listener (poller) and the queue ------------------------------------------------- */

bool listener_init(void);
/* The poller thread. */
void listener_thread(void *arg);
/* A worker gives a connection back to the poller (state CONN_POLLED or CONN_LINGER, deadline
 * set), waking it if it sleeps in poll. wake_fd: the worker's socket to the poller's. */
void listener_give_back(struct http_conn *c, int wake_fd);
/* A new connected UDP socket that wakes the poller (one per worker). */
int listener_wake_socket(void);
extern volatile uint64_t accepted_total, refused_total;

bool workqueue_init(void);
void workqueue_push(struct http_conn *c);
struct http_conn *workqueue_pop(void);

/* ---- workers ----------------------------------------------------------------------------- */

struct http_worker_ops { void (*run)(struct http_worker *w); };
struct http_worker {
	const struct http_worker_ops *ops;
	int id, wake_fd;
	uint64_t requests, status[6];     /* answered, and by class 1xx .. 5xx ([1] .. [5]) */
	char out[OUT_BUF];
};
extern struct http_worker *workers;
bool workers_start(void);

/* Answers one parsed request (rc: HTTP_PARSED or the parser's error status) on c; returns
 * whether the connection may stay open. body: the request body (content_length bytes). */
bool respond(struct http_worker *w, struct http_conn *c, int rc, const struct http_request *req,
	     const char *body);
/* Sends a complete error answer without waiting (the poller's 408): false if it did not fit. */
bool respond_error_now(int fd, int status);

/* ---- content ----------------------------------------------------------------------------- */

struct cached_file { const char *data; size_t len; const char *type; };
bool filecache_init(void);
/* The file www/NAME (name: the URL path without its leading '/'), 0 if there is none. */
const struct cached_file *filecache_get(const char *name, size_t len);
/* Adds a file made in memory as NAME, served as type; data must live as long as the program.
 * False if out of memory, or the name is too long or already there. */
bool filecache_add(const char *name, size_t len, const char *data, size_t data_len,
		   const char *type);
#define SURGE_FILES_MAX 100000
/* Makes the SURGE file set of n files (surge.c) and prints its summary; false if out of memory. */
bool surge_init(int n);

bool pageviews_init(void);
/* Counts a view of path; returns the page's views so far (this CPU's share with percpu). */
uint64_t pageviews_hit(const char *path, size_t len);
uint64_t pageviews_total(void);

bool kvstore_init(void);
#define KV_KEY_MAX 64
#define KV_VALUE_MAX BODY_MAX
/* Copies the value of key into out (at most cap bytes); its length, or -1 if there is none. */
long kvstore_get(const char *key, size_t klen, char *out, size_t cap);
/* Stores a value: 1 created, 0 replaced, -1 the store is full. */
int kvstore_put(const char *key, size_t klen, const char *val, size_t vlen);
unsigned long kvstore_count(void);

/* Small helpers. */
uint64_t now_ns(void);
bool same(const char *a, size_t n, const char *b);   /* a[0, n) equals the string b */

#endif

/* HttpWorker: one per worker thread, spread over the CPUs. A worker takes a readable
 * connection off the WorkQueue, lets it serve what has arrived, and gives it back to the
 * poller or closes it. */
#include "httpd.h"

struct http_worker *workers;
static coid_t worker_coids[WORKERS_MAX];

CO_METHOD(void, worker_run, struct http_worker *w)
{
	for (;;) {
		struct http_conn *c = workqueue_pop();
		c->state = CONN_SERVING;
		enum conn_next next = CO_CALL(struct http_conn, conn_coids[c->index], serve, w);
		switch (next) {
		case CONN_WAIT:
			c->state = CONN_POLLED;
			listener_give_back(c, w->wake_fd);
			break;
		case CONN_LINGER_CLOSE:
			conn_linger(c);
			listener_give_back(c, w->wake_fd);
			break;
		case CONN_CLOSE:
			conn_close(c);
			break;
		}
	}
}

static const struct http_worker_ops worker_ops = { worker_run };
static const struct co_class worker_class = { "HttpWorker", &worker_ops, 1, 0 };

static void worker_thread(void *arg)
{
	struct http_worker *w = arg;
	CO_CALL(struct http_worker, worker_coids[w->id], run);
}

bool workers_start(void)
{
	co_register_class(&worker_class);
	int cpus = (int)meminfo(MEMINFO_CPUS);
	workers = malloc((size_t)cfg.workers * sizeof *workers);
	if (!workers)
		return false;
	memset(workers, 0, (size_t)cfg.workers * sizeof *workers);
	for (int i = 0; i < cfg.workers; i++) {
		struct http_worker *w = &workers[i];
		w->ops = &worker_ops;
		w->id = i;
		w->wake_fd = listener_wake_socket();
		if (w->wake_fd < 0 || !(worker_coids[i] = wl_static_object(&worker_class, w))) {
			printf("httpd: cannot set up worker %d\n", i);
			return false;
		}
		if (thread_create(worker_thread, w, cpus > 0 ? i % cpus : -1) < 0) {
			printf("httpd: cannot start worker %d\n", i);
			return false;
		}
	}
	return true;
}

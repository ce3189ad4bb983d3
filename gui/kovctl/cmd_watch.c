/* kovctl watch: pushed frames as they arrive, until --seconds pass or Ctrl-C. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "kovctl/kovctl.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct watch {
	struct kovctl *k;
	uint64_t start;
	uint64_t frames;
};

static void on_push(void *arg, const struct proto_frame *f)
{
	struct watch *w = arg;
	char line[PROTO_TEXT_MAX + 256];
	double t = (double)(kov_now_ns() - w->start) / 1e9;
	unsigned size = PROTO_HEADER_SIZE + f->size;
	kovctl_summarize(f, line, sizeof line);
	w->frames++;
	if (w->k->o->json) {
		struct json *j = &w->k->j;
		json_begin_object(j);
		json_kv_double(j, "t", t);
		json_kv_str(j, "type", proto_type_name(f->type));
		json_kv_u64(j, "type_code", f->type);
		json_kv_u64(j, "size", size);
		json_kv_str(j, "summary", line);
		json_end_object(j);
		fflush(stdout);
	} else {
		printf("%10.3f  %-16s %6u B  %s\n", t, proto_type_name(f->type), size, line);
	}
}

int cmd_watch(struct kovctl *k)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;   /* no SA_RESTART: the wait returns, and we finish cleanly */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct watch w = { k, kov_now_ns(), 0 };
	uint64_t end = k->o->seconds > 0 ? w.start + (uint64_t)(k->o->seconds * 1e9) : 0;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "target", k->target);
		json_key(&k->j, "frames");
		json_begin_array(&k->j);
	} else {
		printf("watching %s for pushed frames%s\n", k->target,
		       end ? "" : " (Ctrl-C to stop)");
	}
	kov_client_on_push(k->c, on_push, &w);
	int rc = EXIT_OK;
	while (!stop) {
		uint64_t now = kov_now_ns();
		if (end && now >= end)
			break;
		int ms = end ? (int)((end - now + 999999) / 1000000) : 1000;
		int r = kov_client_pump(k->c, ms > 1000 ? 1000 : ms);
		if (r == KOV_E_INTERRUPTED)
			break;
		if (r < 0) {
			rc = EXIT_TARGET;
			break;
		}
	}
	double secs = (double)(kov_now_ns() - w.start) / 1e9;
	if (k->o->json) {
		json_end_array(&k->j);
		json_kv_u64(&k->j, "count", w.frames);
		json_kv_double(&k->j, "seconds", secs);
		if (rc)
			json_kv_str(&k->j, "error", kov_client_error(k->c));
		json_end_object(&k->j);
		json_end(&k->j);
	} else {
		printf("watch: frames=%llu seconds=%.3f\n", (unsigned long long)w.frames, secs);
	}
	return rc ? kovctl_client_error(k) : EXIT_OK;
}

/* The host client library (gui/client/) against a scripted server: a thread on a loopback
 * TCP port plays the DCI daemon with the real codec. Covers the handshake (catalogue split
 * over MORE frames, refusals, another major, a 1.5 server's SERVER_HELLO_EX and wake-up
 * counters, an older server never asked for them), answers spanning frames, pushed frames in
 * the middle of an answer, ERROR answers, pipelined requests, and every way the connection
 * can fail: refused, timed out, closed mid-answer, a malformed frame, a fatal ERROR. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "client/client.h"
#include "client/scan.h"
#include "client/symcache.h"
#include "common/lib/bytes.h"
#include "scan_fixture.h"

/* ---- the scripted server ----------------------------------------------------------------- */

struct srv;
typedef void (*script_fn)(struct srv *s, int fd);

struct srv {
	int lfd;
	char port[8];
	pthread_t th;
	bool joined;
	script_fn script;
	char fail[256];              /* the server's own check that failed; "" when all held */
	int requests;                /* requests of interest the script saw */
	struct proto_reader rd;
	uint8_t rbuf[PROTO_MAX_FRAME];
	uint8_t in[4096];
	size_t in_len, in_pos;
	uint8_t out[PROTO_MAX_FRAME];
	bool v1_5;                   /* the handshake as a 1.5 server: SERVER_HELLO_EX */
	struct proto_hello hello;    /* the HELLO received (strings copied below) */
	char hello_name[PROTO_NAME_MAX + 1], hello_token[PROTO_NAME_MAX + 1];
};

#define SRV_CHECK(s, cond) \
	do { if (!(cond) && !(s)->fail[0]) snprintf((s)->fail, sizeof (s)->fail, "%s:%d: %s", \
	                                              __FILE__, __LINE__, #cond); } while (0)

/* Reads the next frame from the client; false at end of stream. */
static bool srv_read(struct srv *s, int fd, struct proto_frame *f)
{
	for (;;) {
		const uint8_t *p = s->in + s->in_pos;
		size_t n = s->in_len - s->in_pos;
		int r = proto_reader_feed(&s->rd, &p, &n, f);
		s->in_pos = s->in_len - n;
		if (r == 1)
			return true;
		if (r < 0)
			return false;
		ssize_t got = read(fd, s->in, sizeof s->in);
		if (got <= 0)
			return false;
		s->in_len = (size_t)got;
		s->in_pos = 0;
	}
}

static void srv_send(struct srv *s, int fd, const void *buf, int len)
{
	SRV_CHECK(s, len > 0);
	if (len > 0)
		SRV_CHECK(s, write(fd, buf, (size_t)len) == len);
}

static const struct proto_event events[5] = {
	{ PROTO_SRC_HW, PROTO_EV_COUNTS_HERE | PROTO_EV_CAN_SAMPLE | PROTO_EV_SAMPLES_HERE, 0x1e,
	  PROTO_STR("PM_CYC"), PROTO_STR("processor cycles"), PROTO_STR("") },
	{ PROTO_SRC_HW, PROTO_EV_COUNTS_HERE | PROTO_EV_CAN_SAMPLE, 0x09, PROTO_STR("PM_INST_CMPL"),
	  PROTO_STR("instructions completed"), PROTO_STR("QEMU raises no PMU interrupt") },
	{ PROTO_SRC_HW, PROTO_EV_CAN_SAMPLE, 0x5a, PROTO_STR("PM_DTLB_MISS"),
	  PROTO_STR("data TLB misses"), PROTO_STR("QEMU does not count it") },
	{ PROTO_SRC_SW, PROTO_EV_COUNTS_HERE, 1, PROTO_STR("SW_SLB_MISS"),
	  PROTO_STR("SLB misses taken by the kernel"), PROTO_STR("software events do not sample") },
	{ PROTO_SRC_SW, PROTO_EV_COUNTS_HERE, 2, PROTO_STR("SW_PAGE_FAULT"),
	  PROTO_STR("page faults, \"quoted\""), PROTO_STR("software events do not sample") },
};

static struct proto_server_hello welcome(uint16_t role)
{
	return (struct proto_server_hello){
		.magic = PROTO_MAGIC, .major = PROTO_MAJOR, .minor = 3, .status = 0, .role = role,
		.client_id = 7, .reason = PROTO_STR("welcome"),
		.target = {
			.timebase_hz = 512000000, .timebase_now = 0x123456789, .memory = 512ull << 20,
			.pvr = 0x003C0300, .cpus = 4, .events = 5, .profile = PROTO_STR("smp"),
			.model = PROTO_STR("IBM pSeries (emulated by qemu)"),
			.pmu = PROTO_STR("ppc970"), .build_id = PROTO_STR("abc123-dirty"),
			.server = PROTO_STR("kov-dci 0.1"),
		},
	};
}

/* Reads HELLO and answers it: SERVER_HELLO (MORE), then the catalogue in frames of 2, 2, 1. */
static void srv_handshake(struct srv *s, int fd)
{
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	SRV_CHECK(s, f.type == PROTO_HELLO && f.req != 0);
	SRV_CHECK(s, proto_decode_hello(&f, &s->hello) == 0);
	proto_str_copy(s->hello_name, sizeof s->hello_name, s->hello.client);
	proto_str_copy(s->hello_token, sizeof s->hello_token, s->hello.token);
	struct proto_server_hello w = welcome(s->hello_token[0] ? PROTO_ROLE_CONTROLLER
	                                                        : PROTO_ROLE_OBSERVER);
	if (s->v1_5) {
		w.minor = 5;
		w.target.cpus_run = PROTO_CPUS_PARALLEL;
	}
	srv_send(s, fd, s->out, s->v1_5 ? proto_encode_server_hello_ex(s->out, sizeof s->out, f.req,
	                                                               PROTO_F_MORE, &w)
	                                : proto_encode_server_hello(s->out, sizeof s->out, f.req,
	                                                            PROTO_F_MORE, &w));
	for (uint16_t first = 0; first < 5; first += 2) {
		struct proto_builder b;
		struct proto_catalogue_head h = { 5, first };
		proto_begin_event_catalogue(&b, s->out, sizeof s->out, f.req,
		                            first + 2 < 5 ? PROTO_F_MORE : 0, &h);
		for (uint16_t i = first; i < first + 2 && i < 5; i++)
			SRV_CHECK(s, proto_add_event(&b, &events[i]) == 0);
		srv_send(s, fd, s->out, proto_finish(&b));
	}
}

static void srv_push_status(struct srv *s, int fd, uint32_t clients)
{
	struct proto_status st = { .timebase = 99, .clients = clients, .controller = 7 };
	srv_send(s, fd, s->out, proto_encode_status(s->out, sizeof s->out, 0, 0, &st));
}

static void *srv_main(void *arg)
{
	struct srv *s = arg;
	int fd = accept(s->lfd, NULL, NULL);
	SRV_CHECK(s, fd >= 0);
	if (fd >= 0) {
		s->script(s, fd);
		close(fd);
	}
	return NULL;
}

static struct srv *srv_start(script_fn script)
{
	struct srv *s = calloc(1, sizeof *s);
	assert_non_null(s);
	s->script = script;
	proto_reader_init(&s->rd, s->rbuf, sizeof s->rbuf);
	s->lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->lfd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(s->lfd, 4), 0);
	assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&a, &len), 0);
	snprintf(s->port, sizeof s->port, "%u", (unsigned)ntohs(a.sin_port));
	assert_int_equal(pthread_create(&s->th, NULL, srv_main, s), 0);
	return s;
}

static void srv_join(struct srv *s)
{
	if (!s->joined)
		pthread_join(s->th, NULL);
	s->joined = true;
}

/* Joins the server and fails the test if one of its own checks failed. */
static void srv_finish(struct srv *s)
{
	srv_join(s);
	close(s->lfd);
	if (s->fail[0])
		fail_msg("server: %s", s->fail);
	free(s);
}

static struct kov_client *client(const char *token, int timeout_ms)
{
	struct kov_client_options o = { .name = "test-client 1.0", .token = token,
	                                 .timeout_ms = timeout_ms };
	struct kov_client *c = kov_client_new(&o);
	assert_non_null(c);
	return c;
}

static struct kov_client *connected(struct srv *s)
{
	struct kov_client *c = client(NULL, 5000);
	int r = kov_client_connect(c, "127.0.0.1", s->port);
	if (r)
		fail_msg("connect: %d %s", r, kov_client_error(c));
	return c;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

/* ---- handshake ---------------------------------------------------------------------------- */

static void script_handshake_only(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, !srv_read(s, fd, &f));  /* the client closes */
}

static void test_handshake_accepted(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_handshake_only);
	struct kov_client *c = client("s3cret", 5000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), 0);
	const struct kov_target *t = kov_client_target(c);
	assert_int_equal(t->role, PROTO_ROLE_CONTROLLER);
	assert_int_equal(t->client_id, 7);
	assert_int_equal(t->minor, 3);
	assert_string_equal(t->reason, "welcome");
	assert_int_equal(t->cpus, 4);
	assert_int_equal(t->pvr, 0x003C0300);
	assert_string_equal(kov_pvr_name(t->pvr), "PowerPC 970FX");
	assert_true(t->memory == 512ull << 20);
	assert_true(t->timebase_hz == 512000000);
	assert_string_equal(t->profile, "smp");
	assert_string_equal(t->model, "IBM pSeries (emulated by qemu)");
	assert_string_equal(t->pmu, "ppc970");
	assert_string_equal(t->build_id, "abc123-dirty");
	assert_string_equal(t->server, "kov-dci 0.1");
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(c, &n);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		char buf[PROTO_TEXT_MAX + 1];
		proto_str_copy(buf, sizeof buf, events[i].name);
		assert_string_equal(ev[i].name, buf);
		proto_str_copy(buf, sizeof buf, events[i].description);
		assert_string_equal(ev[i].description, buf);
		proto_str_copy(buf, sizeof buf, events[i].why_not);
		assert_string_equal(ev[i].why_not, buf);
		assert_int_equal(ev[i].flags, events[i].flags);
		assert_int_equal(ev[i].source, events[i].source);
		assert_int_equal(ev[i].code, events[i].code);
	}
	kov_client_free(c);
	srv_finish(s);
}

/* A 1.5 server says how its CPUs ran and answers WAKEUPS_GET with the kernel's counters. */
static void script_machine(struct srv *s, int fd)
{
	s->v1_5 = true;
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f) && f.type == PROTO_WAKEUPS_GET && f.size == 0);
	struct proto_wakeups w = { 99, 0, 0, 7, 3250, 12 };
	srv_send(s, fd, s->out, proto_encode_wakeups(s->out, sizeof s->out, f.req, 0, &w));
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

static void test_machine_from_1_5_server(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_machine);
	struct kov_client *c = connected(s);
	const struct kov_target *t = kov_client_target(c);
	assert_int_equal(t->minor, 5);
	assert_int_equal(t->cpus_run, PROTO_CPUS_PARALLEL);
	assert_string_equal(kov_cpus_run(t), "parallel");
	assert_null(kov_serial_note(t));
	struct proto_wakeups w;
	assert_int_equal(kov_client_wakeups(c, &w), 0);
	assert_int_equal(w.prods, 7);
	assert_int_equal(w.late_max_us, 3250);
	assert_int_equal(w.ticks_pending, 12);
	assert_int_equal(w.rescues + w.resets, 0);
	kov_client_free(c);
	srv_finish(s);
}

/* An older server (1.3 here) is never sent WAKEUPS_GET: it would close on an unknown type. */
static void test_machine_from_older_server(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_handshake_only);
	struct kov_client *c = connected(s);
	const struct kov_target *t = kov_client_target(c);
	assert_false(kov_target_reports_machine(t));
	assert_null(kov_cpus_run(t));
	struct proto_wakeups w;
	assert_int_equal(kov_client_wakeups(c, &w), KOV_E_USAGE);
	assert_contains(kov_client_error(c), "came with 1.5");
	assert_true(kov_client_fd(c) >= 0);       /* still connected */
	kov_client_free(c);
	srv_finish(s);                            /* the server read nothing after HELLO */
}

static void test_hello_carries_name_and_token(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_handshake_only);
	struct kov_client *c = client("tok", 5000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), 0);
	kov_client_free(c);
	srv_join(s);
	assert_string_equal(s->hello_name, "test-client 1.0");
	assert_string_equal(s->hello_token, "tok");
	assert_int_equal(s->hello.major, PROTO_MAJOR);
	srv_finish(s);
}

static void script_refuse(struct srv *s, int fd)
{
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_server_hello r = { .magic = PROTO_MAGIC, .major = PROTO_MAJOR,
	                                .status = PROTO_E_DENIED,
	                                .reason = PROTO_STR("token does not match") };
	srv_send(s, fd, s->out, proto_encode_server_hello(s->out, sizeof s->out, f.req, 0, &r));
}

static void test_handshake_refused(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_refuse);
	struct kov_client *c = client("wrong", 5000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), KOV_E_REFUSED);
	assert_string_equal(kov_client_error(c),
	                    "target refused: wrong controller token: token does not match");
	assert_int_equal(kov_client_error_code(c), PROTO_E_DENIED);
	assert_int_equal(kov_client_fd(c), -1);
	kov_client_free(c);
	srv_finish(s);
}

/* A server of major 2 refusing us: only the frozen prefix up to the reason can be read. */
static void script_refuse_v2(struct srv *s, int fd)
{
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	static const char reason[] = "client speaks KOV protocol 1.0, this server 2.0: the major "
	                             "versions must match";
	uint8_t *p = s->out;
	uint32_t len = 8 + 16 + 2 + (uint32_t)strlen(reason);
	be32_store(p, len);
	be16_store(p + 4, PROTO_SERVER_HELLO);
	be16_store(p + 6, 0);
	be32_store(p + 8, f.req);
	be32_store(p + 12, PROTO_MAGIC);
	be16_store(p + 16, 2);
	be16_store(p + 18, 0);
	be16_store(p + 20, PROTO_E_VERSION);
	be16_store(p + 22, 0);
	be32_store(p + 24, 0);
	be16_store(p + 28, (uint16_t)strlen(reason));
	memcpy(p + 30, reason, strlen(reason));
	srv_send(s, fd, p, (int)(4 + len));
}

static void test_handshake_other_major(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_refuse_v2);
	struct kov_client *c = client(NULL, 5000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), KOV_E_REFUSED);
	assert_string_equal(kov_client_error(c),
	                    "target refused: incompatible protocol major version: client speaks KOV "
	                    "protocol 1.0, this server 2.0: the major versions must match");
	kov_client_free(c);
	srv_finish(s);
}

static void test_connection_refused(void **state)
{
	(void)state;
	/* A port that was just free: bind, read its number, close. */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	char port[8], want[96];
	snprintf(port, sizeof port, "%u", (unsigned)ntohs(a.sin_port));
	snprintf(want, sizeof want, "cannot connect to 127.0.0.1:%s: Connection refused", port);
	struct kov_client *c = client(NULL, 2000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", port), KOV_E_NET);
	assert_string_equal(kov_client_error(c), want);
	/* Everything after fails the same way, without a crash. */
	struct proto_status st;
	assert_true(kov_client_status(c, &st) < 0);
	kov_client_free(c);
}

static void script_silent(struct srv *s, int fd)
{
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));       /* HELLO, never answered */
	SRV_CHECK(s, !srv_read(s, fd, &f));      /* until the client gives up */
}

static void test_handshake_timeout(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_silent);
	struct kov_client *c = client(NULL, 200);
	uint64_t t0 = kov_now_ns();
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), KOV_E_TIMEOUT);
	uint64_t dt = kov_now_ns() - t0;
	assert_true(dt >= 190000000u && dt < 2000000000u);
	assert_contains(kov_client_error(c), "within 0.200 s");
	kov_client_free(c);
	srv_finish(s);
}

static void script_garbage(struct srv *s, int fd)
{
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	static const char http[] = "HTTP/1.1 400 Bad Request\r\n\r\n";
	srv_send(s, fd, http, (int)strlen(http));
}

static void test_not_a_kov_server(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_garbage);
	struct kov_client *c = client(NULL, 5000);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), KOV_E_PROTOCOL);
	assert_contains(kov_client_error(c), "bad length prefix");
	assert_contains(kov_client_error(c), "is it a KOV target?");
	kov_client_free(c);
	srv_finish(s);
}

/* ---- answers ------------------------------------------------------------------------------ */

static const struct proto_ref hat_children[] = { { 0x3000, 1 }, { 0x3100, 1 }, { 0x9999, 4 } };
static const struct proto_ref proc_children[] = { { 0x2000, 1 } };
static const uint64_t reps1[] = { 0xc000000000100000ull, 0, 0xc000000000200000ull, 0 };

/* A scan answer over three frames with a STATUS pushed between the first two. */
static void script_scan(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_scan_request rq;
	SRV_CHECK(s, f.type == PROTO_SCAN_REQUEST && proto_decode_scan_request(&f, &rq) == 0);
	SRV_CHECK(s, rq.pid == PROTO_PID_ALL && rq.what == 3);
	struct proto_builder b;
	struct proto_scan_head h = { 1000 };
	proto_begin_scan_processes(&b, s->out, sizeof s->out, f.req, PROTO_F_MORE, &h);
	struct proto_process p1 = { 1, 0, 2, PROTO_PS_RUNNING, PROTO_STR("init") };
	struct proto_process p0 = { 0, 0, 5, PROTO_PS_BLOCKED, PROTO_STR("kernel") };
	proto_add_process(&b, &p1);
	proto_add_process(&b, &p0);
	srv_send(s, fd, s->out, proto_finish(&b));
	srv_push_status(s, fd, 3);
	proto_begin_scan_objects(&b, s->out, sizeof s->out, f.req, PROTO_F_MORE, &h);
	struct proto_object hat = { 1, 1, 0x2000, 0xc000000000002000ull, PROTO_OBJ_SINGLE_REP,
	                            PROTO_STR("HAT"), { reps1, NULL, 1 },
	                            { hat_children, NULL, 3 } };
	struct proto_object proc = { 1, 1, 0x1000, 0xc000000000001000ull, PROTO_OBJ_PER_CPU,
	                             PROTO_STR("Process"), { reps1, NULL, 4 },
	                             { proc_children, NULL, 1 } };
	SRV_CHECK(s, proto_add_object(&b, &hat) == 0);
	SRV_CHECK(s, proto_add_object(&b, &proc) == 0);
	srv_send(s, fd, s->out, proto_finish(&b));
	proto_begin_scan_objects(&b, s->out, sizeof s->out, f.req, 0, &h);
	struct proto_object seg0 = { 1, 1, 0x3000, 0, PROTO_OBJ_SINGLE_REP, PROTO_STR("SegmentHAT"),
	                             { reps1, NULL, 1 }, { NULL, NULL, 0 } };
	struct proto_object seg1 = seg0;
	seg1.coid = 0x3100;
	struct proto_object kobj = { 0, 2, 0x1000, 0, PROTO_OBJ_DYING, PROTO_STR("Process"),
	                             { reps1, NULL, 1 }, { NULL, NULL, 0 } };
	struct proto_object orphan = { 9, 1, 0x5000, 0, 0, PROTO_STR("FCM"),
	                               { NULL, NULL, 0 }, { NULL, NULL, 0 } };
	proto_add_object(&b, &seg1);
	proto_add_object(&b, &seg0);
	proto_add_object(&b, &kobj);
	proto_add_object(&b, &orphan);
	srv_send(s, fd, s->out, proto_finish(&b));
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

static void test_scan_over_frames_with_push(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_scan);
	struct kov_client *c = connected(s);
	struct kov_scan sc;
	assert_int_equal(kov_scan_collect(c, PROTO_PID_ALL, &sc), 0);
	assert_true(sc.timebase == 1000);
	/* Processes by pid, with a placeholder for pid 9 whose record never came. */
	assert_int_equal(sc.n_procs, 3);
	assert_int_equal(sc.procs[0].pid, 0);
	assert_string_equal(sc.procs[0].name, "kernel");
	assert_int_equal(sc.procs[0].count, 1);
	assert_int_equal(sc.procs[1].pid, 1);
	assert_string_equal(sc.procs[1].name, "init");
	assert_int_equal(sc.procs[1].count, 4);
	assert_int_equal(sc.procs[2].pid, 9);
	assert_string_equal(sc.procs[2].name, "?");
	assert_int_equal(sc.n_objects, 6);
	/* Children resolved within the process; the missing one is marked. */
	size_t proc = kov_scan_find(&sc, 1, 0x1000, 1), hat = kov_scan_find(&sc, 1, 0x2000, 1);
	assert_true(proc != KOV_NOT_IN_SCAN && hat != KOV_NOT_IN_SCAN);
	assert_int_equal(kov_scan_find(&sc, 1, 0x1000, 2), KOV_NOT_IN_SCAN);
	assert_string_equal(sc.objects[proc].class_name, "Process");
	assert_int_equal(sc.objects[proc].n_reps, 4);
	assert_true(sc.objects[proc].reps[2] == 0xc000000000200000ull);
	assert_int_equal(sc.objects[proc].parents, 0);
	assert_int_equal(sc.objects[proc].child[0], hat);
	assert_int_equal(sc.objects[hat].parents, 1);
	assert_int_equal(sc.objects[hat].n_children, 3);
	assert_int_equal(sc.objects[hat].child[0], kov_scan_find(&sc, 1, 0x3000, 1));
	assert_int_equal(sc.objects[hat].child[1], kov_scan_find(&sc, 1, 0x3100, 1));
	assert_int_equal(sc.objects[hat].child[2], KOV_NOT_IN_SCAN);
	assert_int_equal(sc.objects[sc.objects[hat].child[1]].parents, 1);
	size_t k = kov_scan_find(&sc, 0, 0x1000, 2);
	assert_true(sc.objects[k].flags & PROTO_OBJ_DYING);
	kov_scan_free(&sc);
	/* The STATUS pushed in the middle of the answer waits in the queue. */
	struct kov_frame pushed;
	assert_int_equal(kov_client_next_push(c, &pushed), 1);
	assert_int_equal(pushed.f.type, PROTO_STATUS);
	struct proto_status st;
	assert_int_equal(proto_decode_status(&pushed.f, &st), 0);
	assert_int_equal(st.clients, 3);
	kov_frame_free(&pushed);
	assert_int_equal(kov_client_next_push(c, &pushed), 0);
	struct kov_client_stats stats = kov_client_stats(c);
	assert_int_equal(stats.pushed, 1);
	assert_int_equal(stats.frames_in, 4 + 4);  /* handshake 4, answer 3, push 1 */
	kov_client_free(c);
	srv_finish(s);
}

/* Pushed frames overflowing a queue of 4, before the answer to a PING: STATUS, then three
 * (droppable) SAMPLES, then STATUS, SAMPLES, STATUS. */
static void script_push_overflow(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_ping p;
	SRV_CHECK(s, proto_decode_ping(&f, &p) == 0);
	const char order[] = "SdddSdS";
	for (uint32_t i = 0; order[i]; i++) {
		if (order[i] == 'S') {
			srv_push_status(s, fd, i);
			continue;
		}
		struct proto_builder b;
		struct proto_samples_head h = { i };
		proto_begin_samples(&b, s->out, sizeof s->out, 0, 0, &h);
		srv_send(s, fd, s->out, proto_finish(&b));
	}
	struct proto_pong pong = { p.cookie, 1 };
	srv_send(s, fd, s->out, proto_encode_pong(s->out, sizeof s->out, f.req, 0, &pong));
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

/* A full push queue gives up its oldest data frame, never a frame later ones depend on (a
 * viewer slower than the stream lost the CHAINS its samples named, and drew them without
 * their stacks): the three STATUS stay, in order, with the newest SAMPLES; three dropped. */
static void test_push_overflow_keeps_events(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_push_overflow);
	struct kov_client_options o = { .name = "test-client 1.0", .timeout_ms = 5000,
	                                 .push_queue_max = 4 };
	struct kov_client *c = kov_client_new(&o);
	assert_non_null(c);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), 0);
	struct proto_pong pong;
	uint64_t rtt;
	assert_int_equal(kov_client_ping(c, 42, &pong, &rtt), 0);
	const uint16_t want[] = { PROTO_STATUS, PROTO_STATUS, PROTO_SAMPLES, PROTO_STATUS };
	const uint32_t status_of[] = { 0, 4, 0, 6 };
	struct kov_frame fr;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(kov_client_next_push(c, &fr), 1);
		assert_int_equal(fr.f.type, want[i]);
		struct proto_status st;
		if (want[i] == PROTO_STATUS) {
			assert_int_equal(proto_decode_status(&fr.f, &st), 0);
			assert_int_equal(st.clients, status_of[i]);
		}
		kov_frame_free(&fr);
	}
	assert_int_equal(kov_client_next_push(c, &fr), 0);
	assert_int_equal(kov_client_stats(c).push_overflow, 3);
	kov_client_free(c);
	srv_finish(s);
}

/* Three requests in flight; the answers interleave with pushed frames. */
static void script_pipeline(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	uint32_t reqs[3];
	uint64_t cookies[3];
	for (int i = 0; i < 3; i++) {
		SRV_CHECK(s, srv_read(s, fd, &f));
		struct proto_ping p;
		SRV_CHECK(s, proto_decode_ping(&f, &p) == 0);
		reqs[i] = f.req;
		cookies[i] = p.cookie;
	}
	SRV_CHECK(s, reqs[0] != reqs[1] && reqs[1] != reqs[2] && reqs[0] != reqs[2]);
	for (int i = 0; i < 3; i++) {
		srv_push_status(s, fd, (uint32_t)i);
		struct proto_pong pong = { cookies[i], 1000u + (uint64_t)i };
		srv_send(s, fd, s->out, proto_encode_pong(s->out, sizeof s->out, reqs[i], 0, &pong));
	}
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

struct pushes {
	int n;
	uint32_t clients[8];
};

static void count_push(void *arg, const struct proto_frame *f)
{
	struct pushes *p = arg;
	struct proto_status st;
	if (f->type == PROTO_STATUS && proto_decode_status(f, &st) == 0 && p->n < 8)
		p->clients[p->n++] = st.clients;
}

/* Frames pushed before the callback is installed (here: during a ping) reach it, in order,
 * when it is. */
static void test_on_push_gets_queued(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_push_overflow);
	struct kov_client *c = connected(s);
	struct proto_pong pong;
	uint64_t rtt;
	assert_int_equal(kov_client_ping(c, 42, &pong, &rtt), 0);
	struct pushes p = { 0 };
	kov_client_on_push(c, count_push, &p);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.clients[0], 0);
	assert_int_equal(p.clients[1], 4);
	assert_int_equal(p.clients[2], 6);
	struct kov_frame fr;
	assert_int_equal(kov_client_next_push(c, &fr), 0);
	kov_client_free(c);
	srv_finish(s);
}

/* The kernel's ProcessAnnex lists Processes that are listed under their own pids: links to
 * those listings, not "missing" children and not parents that hide a process's root. */
static void test_scan_kernel_children_across_processes(void **state)
{
	(void)state;
	const uint64_t K = KOV_KERNEL_COID_BASE;
	const struct proto_ref annex_kids[] = { { K + 0xd0, 0 }, { K + 0x500, 34 }, { K + 0x710, 7 } };
	const struct proto_ref proc_kids[] = { { K + 0x40, 0 } };
	const struct proto_process procs[] = {
		{ 0, 0, 0, PROTO_PS_RUNNING, PROTO_STR("kernel") },
		{ 1, 0, 1, PROTO_PS_RUNNING, PROTO_STR("dcid") },
		{ 5, 1, 1, PROTO_PS_RUNNING, PROTO_STR("pagestorm") },
	};
	const struct proto_object objs[] = {
		fx_obj(0, K + 0x10, 0, "ProcessAnnex", annex_kids, 3),
		fx_obj(1, K + 0xd0, 0, "Process", proc_kids, 1),
		fx_obj(1, K + 0x40, 0, "HAT", NULL, 0),
		fx_obj(5, K + 0x500, 34, "Process", NULL, 0),
		fx_obj(5, 0xD0000010ull, 34, "UserThing", NULL, 0),   /* a user COID: own space */
	};
	struct kov_scan sc;
	fx_scan(&sc, 1, procs, 3, objs, 5);
	size_t annex = kov_scan_find(&sc, 0, K + 0x10, 0), dcid = kov_scan_find(&sc, 1, K + 0xd0, 0);
	size_t storm = kov_scan_find(&sc, 5, K + 0x500, 34);
	assert_true(annex != KOV_NOT_IN_SCAN && dcid != KOV_NOT_IN_SCAN && storm != KOV_NOT_IN_SCAN);
	const struct kov_scan_object *a = &sc.objects[annex];
	/* Not in the annex's own listing, found in the others'; the third is truly absent. */
	assert_int_equal(a->child[0], KOV_NOT_IN_SCAN);
	assert_int_equal(kov_scan_find_child(&sc, a, 0), dcid);
	assert_int_equal(kov_scan_find_child(&sc, a, 1), storm);
	assert_int_equal(kov_scan_find_child(&sc, a, 2), KOV_NOT_IN_SCAN);
	assert_int_equal(kov_scan_find_child(&sc, a, 3), KOV_NOT_IN_SCAN);
	/* A Process stays the root of its own listing; its HAT resolves within the process. */
	assert_int_equal(sc.objects[dcid].parents, 0);
	assert_int_equal(sc.objects[dcid].child[0], kov_scan_find(&sc, 1, K + 0x40, 0));
	assert_int_equal(sc.objects[sc.objects[dcid].child[0]].parents, 1);
	/* Samples name kernel objects under pid 0; user COIDs only in their own space. */
	assert_int_equal(kov_scan_find_any(&sc, 0, K + 0x500, 34), storm);
	assert_int_equal(kov_scan_find_any(&sc, 0, K + 0x500, 33), KOV_NOT_IN_SCAN);
	assert_int_equal(kov_scan_find_any(&sc, 0, 0xD0000010ull, 34), KOV_NOT_IN_SCAN);
	assert_int_equal(kov_scan_find_any(&sc, 5, 0xD0000010ull, 34), kov_scan_find(&sc, 5, 0xD0000010ull, 34));
	kov_scan_free(&sc);
}

/* A lock inside a per-CPU object's rep belongs to the rep at or below it, wherever the reps lie
 * in memory; single-rep objects and addresses below every rep name none. */
static void test_scan_rep_cpu(void **state)
{
	(void)state;
	uint64_t reps[4] = { 0x10300000, 0, 0x10100000, 0x10200000 };
	struct kov_scan_object o = { .flags = PROTO_OBJ_PER_CPU, .n_reps = 4, .reps = reps };
	assert_int_equal(kov_scan_rep_cpu(&o, 0x10100020), 2);
	assert_int_equal(kov_scan_rep_cpu(&o, 0x10200000), 3);
	assert_int_equal(kov_scan_rep_cpu(&o, 0x10300040), 0);
	assert_int_equal(kov_scan_rep_cpu(&o, 0x100fffff), -1);
	o.flags = PROTO_OBJ_SINGLE_REP;
	assert_int_equal(kov_scan_rep_cpu(&o, 0x10100020), -1);
}

static void test_pipelined_answers_and_push_callback(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_pipeline);
	struct kov_client *c = connected(s);
	struct pushes pushes = { 0 };
	kov_client_on_push(c, count_push, &pushes);
	uint32_t req[3];
	for (int i = 0; i < 3; i++) {
		uint8_t buf[32];
		struct proto_ping p = { 0xAB00u + (uint64_t)i };
		int n = proto_encode_ping(buf, sizeof buf, 0x55, 0, &p);
		assert_int_equal(kov_client_send(c, buf, (size_t)n, &req[i]), 0);
	}
	/* Wait for the last first: the earlier answers are kept for later. */
	for (int k = 0; k < 3; k++) {
		int i = 2 - k;
		struct kov_answer a;
		assert_int_equal(kov_client_wait(c, req[i], &a), 0);
		assert_int_equal(a.count, 1);
		struct proto_pong pong;
		assert_int_equal(proto_decode_pong(&a.frames[0].f, &pong), 0);
		assert_true(pong.cookie == 0xAB00u + (uint64_t)i);
		assert_int_equal(a.frames[0].f.req, req[i]);
		kov_answer_free(&a);
	}
	assert_int_equal(pushes.n, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pushes.clients[i], i);
	struct kov_answer a;
	assert_int_equal(kov_client_take(c, req[0], &a), KOV_E_USAGE);   /* taken already */
	kov_client_free(c);
	srv_finish(s);
}

/* STATUS_GET answered with a non-fatal ERROR, then a PING answered normally. */
static void script_error_answer(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f) && f.type == PROTO_STATUS_GET);
	struct proto_error_msg e = { PROTO_E_UNAVAILABLE, PROTO_STATUS_GET, 0,
	                             PROTO_STR("no status on this target") };
	srv_send(s, fd, s->out, proto_encode_error(s->out, sizeof s->out, f.req, 0, &e));
	SRV_CHECK(s, srv_read(s, fd, &f) && f.type == PROTO_PING);
	struct proto_ping p;
	proto_decode_ping(&f, &p);
	struct proto_pong pong = { p.cookie, 5 };
	srv_send(s, fd, s->out, proto_encode_pong(s->out, sizeof s->out, f.req, 0, &pong));
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

static void test_error_answer(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_error_answer);
	struct kov_client *c = connected(s);
	struct proto_status st;
	assert_int_equal(kov_client_status(c, &st), KOV_E_TARGET);
	assert_int_equal(kov_client_error_code(c), PROTO_E_UNAVAILABLE);
	assert_string_equal(kov_client_error(c),
	                    "target error (not available on this target): no status on this target");
	/* Not fatal: the connection goes on. */
	struct proto_pong pong;
	uint64_t rtt = 0;
	assert_int_equal(kov_client_ping(c, 42, &pong, &rtt), 0);
	assert_true(pong.cookie == 42 && pong.timebase == 5);
	assert_true(rtt > 0);
	kov_client_free(c);
	srv_finish(s);
}

/* A symbol lookup answered with one record per address asked, over two frames. */
static void script_symbols(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	while (srv_read(s, fd, &f)) {
		struct proto_symbol_query q;
		struct proto_iter it;
		SRV_CHECK(s, proto_decode_symbol_lookup(&f, &q, &it) == 0 && q.pid == 0);
		s->requests++;
		uint32_t total = proto_iter_left(&it), sent = 0;
		struct proto_builder b;
		struct proto_symbols_head h = { 0, PROTO_STR("kernel") };
		proto_begin_symbols(&b, s->out, sizeof s->out, f.req, total > 1 ? PROTO_F_MORE : 0, &h);
		uint64_t addr;
		while (proto_next_address(&it, &addr)) {
			struct proto_symbol sym = { addr, 0, 0, PROTO_STR("") };
			if (addr >= 0x1000 && addr < 0x1100)
				sym = (struct proto_symbol){ addr, 0x1000, 0x100, PROTO_STR("kmalloc") };
			else if (addr >= 0x2000 && addr < 0x3000)
				sym = (struct proto_symbol){ addr, 0x2000, 0, PROTO_STR("kfree") };
			SRV_CHECK(s, proto_add_symbol(&b, &sym) == 0);
			if (++sent == 1 && total > 1) {   /* the first record alone in a frame */
				srv_send(s, fd, s->out, proto_finish(&b));
				proto_begin_symbols(&b, s->out, sizeof s->out, f.req, 0, &h);
			}
		}
		srv_send(s, fd, s->out, proto_finish(&b));
	}
}

static void test_symbols_and_cache(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_symbols);
	struct kov_client *c = connected(s);
	struct kov_symcache *sc = kov_symcache_new();
	uint64_t addrs[] = { 0x1045, 0x2010, 0x10, 0x1000 };
	struct kov_symbol out[4];
	char text[600];
	assert_int_equal(kov_symcache_lookup(c, sc, 0, addrs, 4, out), 0);
	kov_symbol_format(&out[0], text, sizeof text);
	assert_string_equal(text, "kmalloc+0x45");
	kov_symbol_format(&out[1], text, sizeof text);
	assert_string_equal(text, "kfree+0x10");
	kov_symbol_format(&out[2], text, sizeof text);
	assert_string_equal(text, "?");
	kov_symbol_format(&out[3], text, sizeof text);
	assert_string_equal(text, "kmalloc");
	/* Inside kmalloc's known size: answered from the cache; kfree has no size: asked. */
	uint64_t again[] = { 0x10ff, 0x1001 };
	assert_int_equal(kov_symcache_lookup(c, sc, 0, again, 2, out), 0);
	kov_symbol_format(&out[0], text, sizeof text);
	assert_string_equal(text, "kmalloc+0xff");
	uint64_t more[] = { 0x2010, 0x2020 };
	assert_int_equal(kov_symcache_lookup(c, sc, 0, more, 2, out), 0);
	kov_symbol_format(&out[1], text, sizeof text);
	assert_string_equal(text, "kfree+0x20");
	kov_symcache_free(sc);
	kov_client_free(c);
	srv_join(s);
	assert_int_equal(s->requests, 2);   /* the first lookup and the one for 0x2020 */
	srv_finish(s);
}

/* ---- failures ----------------------------------------------------------------------------- */

static void script_close_mid_answer(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_builder b;
	struct proto_scan_head h = { 1 };
	proto_begin_scan_processes(&b, s->out, sizeof s->out, f.req, PROTO_F_MORE, &h);
	struct proto_process p = { 1, 0, 1, PROTO_PS_RUNNING, PROTO_STR("init") };
	proto_add_process(&b, &p);
	srv_send(s, fd, s->out, proto_finish(&b));
}

static void test_closed_mid_answer(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_close_mid_answer);
	struct kov_client *c = connected(s);
	struct kov_scan sc;
	assert_int_equal(kov_scan_collect(c, PROTO_PID_ALL, &sc), KOV_E_CLOSED);
	assert_string_equal(kov_client_error(c),
	                    "target closed the connection in the middle of an answer");
	struct proto_status st;
	assert_int_equal(kov_client_status(c, &st), KOV_E_CLOSED);
	kov_client_free(c);
	srv_finish(s);
}

static void script_close_mid_frame(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_pong pong = { 1, 2 };
	int n = proto_encode_pong(s->out, sizeof s->out, f.req, 0, &pong);
	srv_send(s, fd, s->out, n - 3);
}

static void test_closed_mid_frame(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_close_mid_frame);
	struct kov_client *c = connected(s);
	struct proto_pong pong;
	uint64_t rtt;
	assert_int_equal(kov_client_ping(c, 1, &pong, &rtt), KOV_E_CLOSED);
	assert_string_equal(kov_client_error(c), "target closed the connection in the middle of a frame");
	kov_client_free(c);
	srv_finish(s);
}

/* Answers STATUS_GET with a STATUS one byte too long, then reads the client's fatal ERROR. */
static void script_malformed(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f) && f.type == PROTO_STATUS_GET);
	struct proto_status st = { 0 };
	int n = proto_encode_status(s->out, sizeof s->out, f.req, 0, &st);
	s->out[n] = 0;
	be32_store(s->out, be32_load(s->out) + 1);
	srv_send(s, fd, s->out, n + 1);
	struct proto_frame e;
	SRV_CHECK(s, srv_read(s, fd, &e));
	struct proto_error_msg m;
	SRV_CHECK(s, e.type == PROTO_ERROR && proto_decode_error(&e, &m) == 0);
	SRV_CHECK(s, m.code == PROTO_E_TRAILING && (m.flags & PROTO_ERRF_FATAL));
	SRV_CHECK(s, m.about == PROTO_STATUS && e.req == f.req);
	SRV_CHECK(s, !srv_read(s, fd, &e));
	s->requests = 1;
}

static void test_malformed_frame(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_malformed);
	struct kov_client *c = connected(s);
	struct proto_status st;
	assert_int_equal(kov_client_status(c, &st), KOV_E_PROTOCOL);
	assert_contains(kov_client_error(c), "malformed frame from the target: STATUS does not decode");
	assert_contains(kov_client_error(c), proto_strerror(PROTO_E_TRAILING));
	assert_int_equal(kov_client_error_code(c), PROTO_E_TRAILING);
	assert_int_equal(kov_client_fd(c), -1);
	kov_client_free(c);
	srv_join(s);
	assert_int_equal(s->requests, 1);  /* the server saw the client's fatal ERROR */
	srv_finish(s);
}

/* Wrong things in well-formed frames: an answer to a request never made; a mandatory
 * type nobody knows; a client-only type; MORE on a pushed frame. */
static int bad_kind;

static void script_rule_breaker(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_pong pong = { 0, 0 };
	uint16_t flags = 0;
	uint32_t req = f.req;
	int n;
	switch (bad_kind) {
	case 0:
		req = f.req + 100;
		n = proto_encode_pong(s->out, sizeof s->out, req, 0, &pong);
		break;
	case 1:
		n = proto_encode_empty(s->out, sizeof s->out, PROTO_OK, req, 0);
		be16_store(s->out + 4, 0x7777);
		break;
	case 2:
		n = proto_encode_empty(s->out, sizeof s->out, PROTO_STATUS_GET, req, 0);
		break;
	default:
		n = proto_encode_empty(s->out, sizeof s->out, PROTO_OK, 0, flags);
		be16_store(s->out + 6, PROTO_F_MORE);
		break;
	}
	srv_send(s, fd, s->out, n);
	while (srv_read(s, fd, &f))
		;
}

static void test_rule_breaking_frames(void **state)
{
	(void)state;
	static const char *const want[] = { "for no outstanding request", "not allowed here",
	                                    "STATUS_GET not allowed here", "OK not allowed here" };
	for (bad_kind = 0; bad_kind < 4; bad_kind++) {
		struct srv *s = srv_start(script_rule_breaker);
		struct kov_client *c = connected(s);
		struct proto_pong pong;
		uint64_t rtt;
		assert_int_equal(kov_client_ping(c, 0, &pong, &rtt), KOV_E_PROTOCOL);
		assert_contains(kov_client_error(c), want[bad_kind]);
		kov_client_free(c);
		srv_finish(s);
	}
}

/* An unknown type marked OPTIONAL is skipped; the answer after it still arrives. */
static void script_optional(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	int n = proto_encode_empty(s->out, sizeof s->out, PROTO_OK, 0, 0);
	be16_store(s->out + 4, 0x8123);
	be16_store(s->out + 6, PROTO_F_OPTIONAL);
	srv_send(s, fd, s->out, n);
	struct proto_ping p;
	proto_decode_ping(&f, &p);
	struct proto_pong pong = { p.cookie, 0 };
	srv_send(s, fd, s->out, proto_encode_pong(s->out, sizeof s->out, f.req, 0, &pong));
	SRV_CHECK(s, !srv_read(s, fd, &f));
}

static void test_optional_unknown_ignored(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_optional);
	struct kov_client *c = connected(s);
	struct proto_pong pong;
	uint64_t rtt;
	assert_int_equal(kov_client_ping(c, 77, &pong, &rtt), 0);
	assert_int_equal(kov_client_stats(c).ignored, 1);
	assert_int_equal(kov_client_stats(c).pushed, 0);
	kov_client_free(c);
	srv_finish(s);
}

/* The server gives up on us with a fatal ERROR pushed with request id 0. */
static void script_fatal_push(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	struct proto_error_msg e = { PROTO_E_UNEXPECTED, PROTO_PING, PROTO_ERRF_FATAL,
	                             PROTO_STR("go away") };
	srv_send(s, fd, s->out, proto_encode_error(s->out, sizeof s->out, 0, 0, &e));
}

static void test_fatal_error_pushed(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_fatal_push);
	struct kov_client *c = connected(s);
	struct proto_pong pong;
	uint64_t rtt;
	assert_int_equal(kov_client_ping(c, 1, &pong, &rtt), KOV_E_CLOSED);
	assert_string_equal(kov_client_error(c),
	                    "target closed the connection: message not allowed here or now: go away");
	kov_client_free(c);
	srv_finish(s);
}

static void script_slow_answer(struct srv *s, int fd)
{
	srv_handshake(s, fd);
	struct proto_frame f;
	SRV_CHECK(s, srv_read(s, fd, &f));
	SRV_CHECK(s, !srv_read(s, fd, &f));   /* never answers; the client gives up and closes */
}

static void test_answer_timeout(void **state)
{
	(void)state;
	struct srv *s = srv_start(script_slow_answer);
	struct kov_client *c = client(NULL, 150);
	assert_int_equal(kov_client_connect(c, "127.0.0.1", s->port), 0);
	struct proto_status st;
	assert_int_equal(kov_client_status(c, &st), KOV_E_TIMEOUT);
	assert_string_equal(kov_client_error(c), "no answer from the target within 0.150 s");
	kov_client_free(c);
	srv_finish(s);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(kov_pvr_name(0x00390202), "PowerPC 970");
	assert_string_equal(kov_pvr_name(0x003C0300), "PowerPC 970FX");
	assert_string_equal(kov_pvr_name(0x00440100), "PowerPC 970MP");
	assert_string_equal(kov_pvr_name(0x004B0200), "unknown");
	assert_string_equal(kov_role_name(PROTO_ROLE_CONTROLLER), "controller");
	assert_string_equal(kov_state_name(PROTO_PS_BLOCKED), "blocked");
	assert_string_equal(kov_state_name(99), "unknown");
	/* COIDs: one form for kernel and user objects, no padding (kovctl, viewer, /metrics). */
	char coid[KOV_COID_CHARS];
	assert_string_equal(kov_coid_str(0xd0000050ull, coid), "0xd0000050");
	assert_string_equal(kov_coid_str(0xD000000000000050ull, coid), "0xd000000000000050");
	assert_string_equal(kov_coid_str(UINT64_MAX, coid), "0xffffffffffffffff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handshake_accepted),
		cmocka_unit_test(test_hello_carries_name_and_token),
		cmocka_unit_test(test_machine_from_1_5_server),
		cmocka_unit_test(test_machine_from_older_server),
		cmocka_unit_test(test_handshake_refused),
		cmocka_unit_test(test_handshake_other_major),
		cmocka_unit_test(test_connection_refused),
		cmocka_unit_test(test_handshake_timeout),
		cmocka_unit_test(test_not_a_kov_server),
		cmocka_unit_test(test_scan_over_frames_with_push),
		cmocka_unit_test(test_push_overflow_keeps_events),
		cmocka_unit_test(test_on_push_gets_queued),
		cmocka_unit_test(test_scan_kernel_children_across_processes),
		cmocka_unit_test(test_scan_rep_cpu),
		cmocka_unit_test(test_pipelined_answers_and_push_callback),
		cmocka_unit_test(test_error_answer),
		cmocka_unit_test(test_symbols_and_cache),
		cmocka_unit_test(test_closed_mid_answer),
		cmocka_unit_test(test_closed_mid_frame),
		cmocka_unit_test(test_malformed_frame),
		cmocka_unit_test(test_rule_breaking_frames),
		cmocka_unit_test(test_optional_unknown_ignored),
		cmocka_unit_test(test_fatal_error_pushed),
		cmocka_unit_test(test_answer_timeout),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

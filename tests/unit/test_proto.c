/* The wire protocol codec (dci/): every message type round-trips with non-trivial contents
 * and re-encodes to the same bytes; the streaming reader gives the same frames however the
 * bytes are cut; and every kind of bad frame is refused: truncated at any length, oversized,
 * of unknown type, with counts or strings beyond the frame, inconsistent, of another magic or
 * major version, or sent by the wrong role. A deterministic fuzz loop mutates valid frames;
 * run under valgrind or -fsanitize=address it shows the decoders stay inside the frame. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/lib/bytes.h"
#include "proto/proto.h"
#include "proto/proto_throttle.h"
#include "proto/proto_swap.h"
#include "proto/proto_platform.h"

#define BUF 4096
#define REQ(type) (0x00A00000u + (type))

/* ---- canonical contents ---------------------------------------------------------------- */

static const struct proto_hello hello = {
	PROTO_MAGIC, PROTO_MAJOR, PROTO_MINOR, PROTO_STR("kovctl 0.1"), PROTO_STR("s3cret"),
};

static const struct proto_server_hello welcome = {
	.magic = PROTO_MAGIC,
	.major = PROTO_MAJOR,
	.minor = PROTO_MINOR,
	.status = 0,
	.role = PROTO_ROLE_CONTROLLER,
	.client_id = 7,
	.reason = PROTO_STR("token accepted: you are the controller"),
	.target = {
		.timebase_hz = 512000000,
		.timebase_now = 0x0000001234567890ull,
		.memory = 512ull << 20,
		.pvr = 0x00390202,
		.cpus = 4,
		.events = 5,
		.profile = PROTO_STR("smp"),
		.model = PROTO_STR("IBM pSeries (emulated by qemu)"),
		.pmu = PROTO_STR("isa207-arch"),
		.build_id = PROTO_STR("5551a82-dirty"),
		.server = PROTO_STR("kov-dci 0.1"),
	},
};

static const struct proto_server_hello refusal = {
	.magic = PROTO_MAGIC,
	.major = PROTO_MAJOR,
	.minor = PROTO_MINOR,
	.status = PROTO_E_DENIED,
	.role = PROTO_ROLE_NONE,
	.client_id = 0,
	.reason = PROTO_STR("wrong controller token"),
};

static const struct proto_error_msg error_msg = {
	PROTO_E_NOT_CONTROLLER, PROTO_START, 0, PROTO_STR("observers may not start monitoring"),
};

static const struct proto_ping ping = { 0x0123456789ABCDEFull };
static const struct proto_pong pong = { 0x0123456789ABCDEFull, 0xFEDCBA9876543210ull };
static const struct proto_claim claim = { PROTO_STR("s3cret") };
static const struct proto_status status = {
	0x1111111122222222ull, 3, 7, 42, PROTO_STREAM_SAMPLES | PROTO_STREAM_LOCKS, 2,
	0x0000000300000004ull, 0x0000000500000006ull, 0x0000000700000008ull,
};

static const struct proto_wakeups wakeups = {
	0x1111111122222222ull, 1, 2, 0x0000000300000004ull, 3250, 0x0000000500000006ull,
};

static const struct proto_dropped_head dropped_head = { 3, 70000, 1200 };
static const struct proto_drop drops[] = {
	{ PROTO_SAMPLES, 2, 1180 },
	{ PROTO_INTERVAL_COUNTS, 1, 20 },
};

static const struct proto_scan_request scan_request = {
	PROTO_PID_ALL, PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT,
};
static const struct proto_scan_head scan_head = { 0x00000000DEADBEEFull };
static const struct proto_process processes[] = {
	{ 0, 0, 5, PROTO_PS_RUNNING, PROTO_STR("kernel") },
	{ 1, 0, 1, PROTO_PS_BLOCKED, PROTO_STR("init") },
	{ 12, 1, 9, PROTO_PS_READY, PROTO_STR("httpd") },
};

static const uint64_t reps4[] = {
	0xC000000001230000ull, 0xC000000001230100ull, 0, 0xC000000001230300ull,
};
static const uint64_t reps1[] = { 0xC000000004560000ull };
static const struct proto_ref kids[] = {
	{ 0xD000000000000010ull, 1 }, { 0xD000000000000020ull, 2 }, { 0xD000000000000030ull, 3 },
};
static const struct proto_object objects[] = {
	{ 0, 4, 0xD000000000000000ull, 0xC000000000F00000ull, PROTO_OBJ_PER_CPU,
	  PROTO_STR("ProcessReplicated"), { reps4, NULL, 4 }, { kids, NULL, 3 } },
	{ 12, 1, 0x00000000D0000040ull, 0x0000000010002000ull, PROTO_OBJ_SINGLE_REP,
	  PROTO_STR("FCMComputation"), { reps1, NULL, 1 }, { NULL, NULL, 0 } },
	{ 12, 9, 0x00000000D0000050ull, 0x0000000010003000ull, PROTO_OBJ_DYING,
	  PROTO_STR("Region"), { NULL, NULL, 0 }, { kids + 2, NULL, 1 } },
};

static const struct proto_symbol_query symbol_query = { PROTO_PID_KERNEL };
static const uint64_t addresses[] = { 0xC000000000001010ull, 0xC000000000002000ull, 0x42 };
static const struct proto_symbol_query symtab_get = { 12 };
static const struct proto_symbols_head symbols_head = { PROTO_PID_KERNEL, PROTO_STR("kernel") };
static const struct proto_symbol symbols[] = {
	{ 0xC000000000001010ull, 0xC000000000001000ull, 0x80, PROTO_STR("kmain") },
	{ 0xC000000000002000ull, 0xC000000000002000ull, 0, PROTO_STR("co_handle_miss") },
	{ 0x42, 0, 0, PROTO_STR("") },
};

static const struct proto_catalogue_head catalogue_head = { 5, 2 };
static const struct proto_event events[] = {
	{ PROTO_SRC_HW, PROTO_EV_COUNTS_HERE | PROTO_EV_CAN_SAMPLE | PROTO_EV_SAMPLES_HERE, 0x1E,
	  PROTO_STR("PM_CYC"), PROTO_STR("Processor cycles"), PROTO_STR("") },
	{ PROTO_SRC_HW, PROTO_EV_CAN_SAMPLE, 0x10C7, PROTO_STR("PM_DTLB_MISS"),
	  PROTO_STR("Data TLB misses"), PROTO_STR("QEMU counts only instructions and cycles") },
	{ PROTO_SRC_SW, PROTO_EV_COUNTS_HERE, 0, PROTO_STR("SW_SLB_MISS"),
	  PROTO_STR("Segment lookaside buffer reloads"),
	  PROTO_STR("counted by the kernel; sampled through the instruction counter") },
};

static const struct proto_pmu_config config = {
	.config_id = 0,
	.unit = PROTO_UNIT_INSTRUCTIONS,
	.flags = PROTO_CFG_KERNEL | PROTO_CFG_USER | PROTO_CFG_CALLCHAIN,
	.slice = 10000000,
	.chain_depth = 8,
	.n_groups = 2,
	.groups = {
		{ PROTO_STR("ipc"), 60, 2,
		  { { PROTO_STR("PM_INST_CMPL"), 100000 }, { PROTO_STR("PM_CYC"), 0 } } },
		{ PROTO_STR("mmu"), 40, 3,
		  { { PROTO_STR("PM_DTLB_MISS"), 1000 }, { PROTO_STR("SW_SLB_MISS"), 10 },
		    { PROTO_STR("PM_CYC"), 0 } } },
	},
};

static const struct proto_start start = { PROTO_STREAM_ALL, 100000 };

static const struct proto_samples_head samples_head = { 3 };
static const struct proto_sample samples[] = {
	{ 1000, 0xC000000000001234ull, 0xD000000000000010ull, 1, 0, 0, 2, 0, PROTO_SMP_KERNEL, 3,
	  { 0xC000000000001100ull, 0xC000000000001200ull, 0xC000000000001300ull }, 0, 0 },
	{ 1001, 0x0000000010000400ull, 0x00000000D0000040ull, 1, 12, 13, 1, 1,
	  PROTO_SMP_USER | PROTO_SMP_UNCERTAIN, 0, { 0 }, 0, 0 },
	{ 1002, 0xC000000000005678ull, 0, 0, 0, 0, 3, 0,
	  PROTO_SMP_KERNEL | PROTO_SMP_NO_OBJECT | PROTO_SMP_TRUNCATED, 16,
	  { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 0, 0 },
};

static const struct proto_counts_head counts_head = { 3, 5000, 9000 };
static const struct proto_count counts[] = {
	{ 0, 0, 2, 123456, 4000, 2400 },
	{ 0, 1, 3, 77, 4000, 1600 },
	{ 1, 0, 2, 99999, 4000, 2400 },
	{ 3, 1, 0, 0x8000000000000001ull, 4000, 4000 },
};

static const struct proto_interval interval = { 5000, 9000 };
static const struct proto_lock locks[] = {
	{ .lock = 0xC000000000F00040ull, .coid = 0xD000000000000000ull, .gen = 4, .pid = 0,
	  .kind = PROTO_LOCK_SPIN, .acquisitions = 1000, .contentions = 37, .wait_total = 5000,
	  .wait_max = 400, .hold_total = 90000, .hold_max = 800, .qlen_samples = 37, .qlen_sum = 50,
	  .qlen_max = 4, .flags = PROTO_LOCK_FULL, .wait_min = 3, .holds = 1000, .bounces = 20,
	  .trylock_failures = 9, .other_sites = 2,
	  .site = { { 0xC000000000001230ull, 30 }, { 0xC000000000004560ull, 5 } } },
	{ .lock = 0x0000000010002040ull, .coid = 0x00000000D0000040ull, .gen = 1, .pid = 12,
	  .kind = PROTO_LOCK_SLEEP, .acquisitions = 10, .hold_total = 300, .hold_max = 100,
	  .holds = 10 },
};
static const struct proto_invocation invocations[] = {
	{ 0xD000000000000000ull, 4, 0, 123 },
	{ 0x00000000D0000040ull, 1, 12, 0xFFFFFFFFFFull },
	{ 0x00000000D0000050ull, 9, 12, 1 },
};
static const struct proto_lost losts[] = {
	{ 0, 1, 2, 12 },
	{ 3, 0, 4, 0x100000000ull },
};

/* ---- comparisons ----------------------------------------------------------------------- */

static bool same_str(struct proto_str a, struct proto_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}
#define assert_str(a, b) assert_true(same_str((a), (b)))

static void assert_target(const struct proto_target *a, const struct proto_target *b)
{
	assert_int_equal(a->timebase_hz, b->timebase_hz);
	assert_int_equal(a->timebase_now, b->timebase_now);
	assert_int_equal(a->memory, b->memory);
	assert_int_equal(a->pvr, b->pvr);
	assert_int_equal(a->cpus, b->cpus);
	assert_int_equal(a->events, b->events);
	assert_str(a->profile, b->profile);
	assert_str(a->model, b->model);
	assert_str(a->pmu, b->pmu);
	assert_str(a->build_id, b->build_id);
	assert_str(a->server, b->server);
}

static void assert_object(const struct proto_object *a, const struct proto_object *b)
{
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->gen, b->gen);
	assert_int_equal(a->coid, b->coid);
	assert_int_equal(a->root, b->root);
	assert_int_equal(a->flags, b->flags);
	assert_str(a->class_name, b->class_name);
	assert_int_equal(a->reps.count, b->reps.count);
	for (uint32_t i = 0; i < a->reps.count; i++)
		assert_int_equal(proto_u64_at(&a->reps, i), proto_u64_at(&b->reps, i));
	assert_int_equal(a->children.count, b->children.count);
	for (uint32_t i = 0; i < a->children.count; i++) {
		struct proto_ref x = proto_ref_at(&a->children, i), y = proto_ref_at(&b->children, i);
		assert_int_equal(x.coid, y.coid);
		assert_int_equal(x.gen, y.gen);
	}
}

static void assert_sample(const struct proto_sample *a, const struct proto_sample *b)
{
	assert_int_equal(a->timebase, b->timebase);
	assert_int_equal(a->pc, b->pc);
	assert_int_equal(a->coid, b->coid);
	assert_int_equal(a->gen, b->gen);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tid, b->tid);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->event, b->event);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->depth, b->depth);
	assert_memory_equal(a->chain, b->chain, a->depth * sizeof a->chain[0]);
}

static void assert_lock(const struct proto_lock *a, const struct proto_lock *b)
{
	assert_int_equal(a->lock, b->lock);
	assert_int_equal(a->coid, b->coid);
	assert_int_equal(a->gen, b->gen);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->acquisitions, b->acquisitions);
	assert_int_equal(a->contentions, b->contentions);
	assert_int_equal(a->wait_total, b->wait_total);
	assert_int_equal(a->wait_max, b->wait_max);
	assert_int_equal(a->hold_total, b->hold_total);
	assert_int_equal(a->hold_max, b->hold_max);
	assert_int_equal(a->qlen_samples, b->qlen_samples);
	assert_int_equal(a->qlen_sum, b->qlen_sum);
	assert_int_equal(a->qlen_max, b->qlen_max);
}

/* LOCK_CONTENTION carries the rest too. */
static void assert_lock_contention(const struct proto_lock *a, const struct proto_lock *b)
{
	assert_lock(a, b);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->wait_min, b->wait_min);
	assert_int_equal(a->holds, b->holds);
	assert_int_equal(a->bounces, b->bounces);
	assert_int_equal(a->trylock_failures, b->trylock_failures);
	assert_int_equal(a->other_sites, b->other_sites);
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		assert_int_equal(a->site[i].pc, b->site[i].pc);
		assert_int_equal(a->site[i].count, b->site[i].count);
	}
}

/* The decoded message encodes again to exactly the bytes it came from. */
static void assert_same_frame(const struct proto_frame *f, const uint8_t *again, int n)
{
	assert_int_equal(n, (int)(f->size + PROTO_HEADER_SIZE));
	assert_memory_equal(again, f->payload - PROTO_HEADER_SIZE, (size_t)n);
}

/* ---- one builder and one checker per message type -------------------------------------- */

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int build_hello(uint8_t *b, size_t cap)
{
	return proto_encode_hello(b, cap, REQ(PROTO_HELLO), 0, &hello);
}

static void check_hello(const struct proto_frame *f)
{
	struct proto_hello m;
	assert_int_equal(proto_decode_hello(f, &m), 0);
	assert_int_equal(m.magic, PROTO_MAGIC);
	assert_int_equal(m.major, PROTO_MAJOR);
	assert_int_equal(m.minor, PROTO_MINOR);
	assert_str(m.client, hello.client);
	assert_str(m.token, hello.token);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_hello(again, BUF, f->req, f->flags, &m));
}

static int build_welcome(uint8_t *b, size_t cap)
{
	return proto_encode_server_hello(b, cap, REQ(PROTO_HELLO), PROTO_F_MORE, &welcome);
}

static void check_welcome(const struct proto_frame *f)
{
	struct proto_server_hello m;
	assert_int_equal(proto_decode_server_hello(f, &m), 0);
	assert_int_equal(m.status, 0);
	assert_int_equal(m.role, PROTO_ROLE_CONTROLLER);
	assert_int_equal(m.client_id, 7);
	assert_str(m.reason, welcome.reason);
	assert_target(&m.target, &welcome.target);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_server_hello(again, BUF, f->req, f->flags, &m));
}

/* SERVER_HELLO_EX (1.5): the welcome and how the CPUs ran (test_proto_machine.c: its bytes). */
static int build_welcome_ex(uint8_t *b, size_t cap)
{
	struct proto_server_hello m = welcome;
	m.target.cpus_run = PROTO_CPUS_TAKE_TURNS;
	return proto_encode_server_hello_ex(b, cap, REQ(PROTO_HELLO), PROTO_F_MORE, &m);
}

static void check_welcome_ex(const struct proto_frame *f)
{
	struct proto_server_hello m;
	assert_int_equal(proto_decode_any_server_hello(f, &m), 0);
	assert_int_equal(m.role, PROTO_ROLE_CONTROLLER);
	assert_target(&m.target, &welcome.target);
	assert_int_equal(m.target.cpus_run, PROTO_CPUS_TAKE_TURNS);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_server_hello_ex(again, BUF, f->req, f->flags, &m));
	assert_int_equal(proto_decode_server_hello(f, &m), -PROTO_E_INVALID);
}

static int build_refusal(uint8_t *b, size_t cap)
{
	return proto_encode_server_hello(b, cap, REQ(PROTO_HELLO), 0, &refusal);
}

static void check_refusal(const struct proto_frame *f)
{
	struct proto_server_hello m;
	assert_int_equal(proto_decode_server_hello(f, &m), 0);
	assert_int_equal(m.status, PROTO_E_DENIED);
	assert_int_equal(m.role, PROTO_ROLE_NONE);
	assert_str(m.reason, refusal.reason);
	assert_int_equal(m.target.cpus, 0);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_server_hello(again, BUF, f->req, f->flags, &m));
}

static int build_error(uint8_t *b, size_t cap)
{
	return proto_encode_error(b, cap, REQ(PROTO_START), 0, &error_msg);
}

static void check_error(const struct proto_frame *f)
{
	struct proto_error_msg m;
	assert_int_equal(proto_decode_error(f, &m), 0);
	assert_int_equal(m.code, PROTO_E_NOT_CONTROLLER);
	assert_int_equal(m.about, PROTO_START);
	assert_int_equal(m.flags, 0);
	assert_str(m.text, error_msg.text);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_error(again, BUF, f->req, f->flags, &m));
}

static int build_ping(uint8_t *b, size_t cap)
{
	return proto_encode_ping(b, cap, REQ(PROTO_PING), 0, &ping);
}

static void check_ping(const struct proto_frame *f)
{
	struct proto_ping m;
	assert_int_equal(proto_decode_ping(f, &m), 0);
	assert_int_equal(m.cookie, ping.cookie);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_ping(again, BUF, f->req, f->flags, &m));
}

static int build_pong(uint8_t *b, size_t cap)
{
	return proto_encode_pong(b, cap, REQ(PROTO_PING), 0, &pong);
}

static void check_pong(const struct proto_frame *f)
{
	struct proto_pong m;
	assert_int_equal(proto_decode_pong(f, &m), 0);
	assert_int_equal(m.cookie, pong.cookie);
	assert_int_equal(m.timebase, pong.timebase);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_pong(again, BUF, f->req, f->flags, &m));
}

static int build_claim(uint8_t *b, size_t cap)
{
	return proto_encode_claim(b, cap, REQ(PROTO_CLAIM_CONTROL), 0, &claim);
}

static void check_claim(const struct proto_frame *f)
{
	struct proto_claim m;
	assert_int_equal(proto_decode_claim(f, &m), 0);
	assert_str(m.token, claim.token);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_claim(again, BUF, f->req, f->flags, &m));
}

static int build_status(uint8_t *b, size_t cap)
{
	return proto_encode_status(b, cap, 0, 0, &status);
}

static void check_status(const struct proto_frame *f)
{
	struct proto_status m;
	m.samples_discarded = 99;
	assert_int_equal(proto_decode_any_status(f, &m), 0);
	assert_int_equal(m.samples_discarded, 0);    /* STATUS does not carry it: 0, not kept */
	assert_int_equal(proto_decode_status(f, &m), 0);
	assert_int_equal(m.timebase, status.timebase);
	assert_int_equal(m.clients, status.clients);
	assert_int_equal(m.controller, status.controller);
	assert_int_equal(m.config_id, status.config_id);
	assert_int_equal(m.streams, status.streams);
	assert_int_equal(m.clients_cut_off, status.clients_cut_off);
	assert_int_equal(m.frames_dropped, status.frames_dropped);
	assert_int_equal(m.samples_lost, status.samples_lost);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_status(again, BUF, f->req, f->flags, &m));
	assert_int_equal(proto_decode_status_ex(f, &m), -PROTO_E_INVALID);
}

/* STATUS_EX (1.3): STATUS's fields in the same places, then samples_discarded. */
static int build_status_ex(uint8_t *b, size_t cap)
{
	return proto_encode_status_ex(b, cap, 0, 0, &status);
}

static void check_status_ex(const struct proto_frame *f)
{
	struct proto_status m;
	assert_int_equal(f->size, 44 + 8);
	assert_int_equal(proto_decode_any_status(f, &m), 0);
	assert_int_equal(m.timebase, status.timebase);
	assert_int_equal(m.clients, status.clients);
	assert_int_equal(m.streams, status.streams);
	assert_int_equal(m.samples_lost, status.samples_lost);
	assert_int_equal(m.samples_discarded, status.samples_discarded);
	assert_int_equal(be64_load(f->payload + 44), status.samples_discarded);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_status_ex(again, BUF, f->req, f->flags, &m));
	assert_int_equal(proto_decode_status(f, &m), -PROTO_E_INVALID);
	assert_int_equal(proto_type_info(PROTO_STATUS_EX)->minor, 3);
	assert_false(proto_droppable(PROTO_STATUS_EX));
}

/* WAKEUPS (1.5): six u64 (test_proto_machine.c: their bytes). */
static int build_wakeups(uint8_t *b, size_t cap)
{
	return proto_encode_wakeups(b, cap, REQ(PROTO_WAKEUPS_GET), 0, &wakeups);
}

static void check_wakeups(const struct proto_frame *f)
{
	struct proto_wakeups m;
	assert_int_equal(proto_decode_wakeups(f, &m), 0);
	assert_memory_equal(&m, &wakeups, sizeof m);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_wakeups(again, BUF, f->req, f->flags, &m));
}

#define EMPTY(name, msg)                                                                   \
	static int build_##name(uint8_t *b, size_t cap)                                    \
	{                                                                                  \
		return proto_encode_empty(b, cap, msg, REQ(msg), 0);                       \
	}                                                                                  \
	static void check_##name(const struct proto_frame *f)                             \
	{                                                                                  \
		assert_int_equal(f->type, msg);                                            \
		assert_int_equal(f->size, 0);                                              \
		assert_int_equal(proto_decode_empty(f), 0);                                \
	}
EMPTY(ok, PROTO_OK)
EMPTY(status_get, PROTO_STATUS_GET)
EMPTY(wakeups_get, PROTO_WAKEUPS_GET)
EMPTY(throttle_get, PROTO_THROTTLE_GET)
EMPTY(catalogue_get, PROTO_CATALOGUE_GET)
EMPTY(config_get, PROTO_CONFIG_GET)
EMPTY(stop, PROTO_STOP)
EMPTY(power_off, PROTO_POWER_OFF)
EMPTY(reboot, PROTO_REBOOT)
EMPTY(platform_get, PROTO_PLATFORM_GET)

/* PLATFORM (1.8): a G5 under QEMU with its clock, three paths of every kind but one. */
static const struct proto_platform_head platform_head = {
	1795919411, 1, 1, PROTO_STR("mac99"), PROTO_STR("PMU99") };
static const struct proto_platform_path platform_paths[] = {
	{ PROTO_PATH_EXERCISED, PROTO_STR("power-off"), PROTO_STR("PMU99, under QEMU mac99,via=pmu") },
	{ PROTO_PATH_UNEXERCISED, PROTO_STR("second CPU start"), PROTO_STR("") },
	{ PROTO_PATH_UNCHECKABLE, PROTO_STR("nap in idle"), PROTO_STR("QEMU's 970 ignores it") },
};

static int build_platform(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_platform(&bl, b, cap, 0, 0, &platform_head);
	for (size_t i = 0; !err && i < N(platform_paths); i++)
		err = proto_add_platform_path(&bl, &platform_paths[i]);
	return err ? err : proto_finish(&bl);
}

static void check_platform(const struct proto_frame *f)
{
	struct proto_platform_head h;
	struct proto_iter it;
	struct proto_platform_path p;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_platform(f, &h, &it), 0);
	assert_int_equal(h.rtc_boot, platform_head.rtc_boot);
	assert_int_equal(h.rtc_ok, 1);
	assert_int_equal(h.emulated, 1);
	assert_str(h.platform, platform_head.platform);
	assert_str(h.power_ctl, platform_head.power_ctl);
	assert_int_equal(proto_iter_left(&it), N(platform_paths));
	assert_int_equal(proto_begin_platform(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(platform_paths); i++) {
		assert_true(proto_next_platform_path(&it, &p));
		assert_int_equal(p.state, platform_paths[i].state);
		assert_str(p.name, platform_paths[i].name);
		assert_str(p.detail, platform_paths[i].detail);
		assert_int_equal(proto_add_platform_path(&bl, &p), 0);
	}
	assert_false(proto_next_platform_path(&it, &p));
	assert_same_frame(f, again, proto_finish(&bl));
}

/* What PLATFORM refuses: an unknown state, a clock reading without rtc_ok, flags above 1, a
 * path without a name, and more paths than any platform has. */
static void platform_refusals(void **state)
{
	(void)state;
	uint8_t b[BUF];
	struct proto_builder bl;
	struct proto_platform_head h = platform_head;
	h.rtc_ok = 0;
	assert_int_equal(proto_begin_platform(&bl, b, BUF, 0, 0, &h), -PROTO_E_INCONSISTENT);
	h = platform_head;
	h.emulated = 2;
	assert_int_equal(proto_begin_platform(&bl, b, BUF, 0, 0, &h), -PROTO_E_INCONSISTENT);
	assert_int_equal(proto_begin_platform(&bl, b, BUF, 0, 0, &platform_head), 0);
	struct proto_platform_path p = platform_paths[0];
	p.state = PROTO_PATH_STATES;
	assert_int_equal(proto_add_platform_path(&bl, &p), -PROTO_E_INCONSISTENT);
	p = platform_paths[0];
	p.name = PROTO_STR("");
	assert_int_equal(proto_add_platform_path(&bl, &p), -PROTO_E_STRING);
	/* 64 paths at most. */
	assert_int_equal(proto_begin_platform(&bl, b, BUF, 0, 0, &platform_head), 0);
	for (int i = 0; i < 64; i++)
		assert_int_equal(proto_add_platform_path(&bl, &platform_paths[1]), 0);
	assert_int_equal(proto_add_platform_path(&bl, &platform_paths[1]), -PROTO_E_COUNT);
	assert_string_equal(proto_path_state_name(PROTO_PATH_NEW), "new on this machine");
	assert_string_equal(proto_path_state_name(9), "unknown state");
}

static int build_dropped(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_dropped(&bl, b, cap, 0, 0, &dropped_head);
	for (size_t i = 0; !err && i < N(drops); i++)
		err = proto_add_drop(&bl, &drops[i]);
	return err ? err : proto_finish(&bl);
}

static void check_dropped(const struct proto_frame *f)
{
	struct proto_dropped_head h;
	struct proto_iter it;
	struct proto_drop d;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_dropped(f, &h, &it), 0);
	assert_int_equal(h.frames, dropped_head.frames);
	assert_int_equal(h.bytes, dropped_head.bytes);
	assert_int_equal(h.records, dropped_head.records);
	assert_int_equal(proto_iter_left(&it), N(drops));
	assert_int_equal(proto_begin_dropped(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(drops); i++) {
		assert_true(proto_next_drop(&it, &d));
		assert_int_equal(d.type, drops[i].type);
		assert_int_equal(d.frames, drops[i].frames);
		assert_int_equal(d.records, drops[i].records);
		assert_int_equal(proto_add_drop(&bl, &d), 0);
	}
	assert_false(proto_next_drop(&it, &d));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_scan_request(uint8_t *b, size_t cap)
{
	return proto_encode_scan_request(b, cap, REQ(PROTO_SCAN_REQUEST), 0, &scan_request);
}

static void check_scan_request(const struct proto_frame *f)
{
	struct proto_scan_request m;
	assert_int_equal(proto_decode_scan_request(f, &m), 0);
	assert_int_equal(m.pid, PROTO_PID_ALL);
	assert_int_equal(m.what, scan_request.what);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_scan_request(again, BUF, f->req, f->flags, &m));
}

static int build_processes(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_scan_processes(&bl, b, cap, REQ(PROTO_SCAN_REQUEST), PROTO_F_MORE,
	                                     &scan_head);
	for (size_t i = 0; !err && i < N(processes); i++)
		err = proto_add_process(&bl, &processes[i]);
	return err ? err : proto_finish(&bl);
}

static void check_processes(const struct proto_frame *f)
{
	struct proto_scan_head h;
	struct proto_iter it;
	struct proto_process p;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(f->flags, PROTO_F_MORE);
	assert_int_equal(proto_decode_scan_processes(f, &h, &it), 0);
	assert_int_equal(h.timebase, scan_head.timebase);
	assert_int_equal(proto_begin_scan_processes(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(processes); i++) {
		assert_true(proto_next_process(&it, &p));
		assert_int_equal(p.pid, processes[i].pid);
		assert_int_equal(p.ppid, processes[i].ppid);
		assert_int_equal(p.threads, processes[i].threads);
		assert_int_equal(p.state, processes[i].state);
		assert_str(p.name, processes[i].name);
		assert_int_equal(proto_add_process(&bl, &p), 0);
	}
	assert_false(proto_next_process(&it, &p));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_objects(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_scan_objects(&bl, b, cap, REQ(PROTO_SCAN_REQUEST), 0, &scan_head);
	for (size_t i = 0; !err && i < N(objects); i++)
		err = proto_add_object(&bl, &objects[i]);
	return err ? err : proto_finish(&bl);
}

static void check_objects(const struct proto_frame *f)
{
	struct proto_scan_head h;
	struct proto_iter it;
	struct proto_object o;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_scan_objects(f, &h, &it), 0);
	assert_int_equal(h.timebase, scan_head.timebase);
	assert_int_equal(proto_begin_scan_objects(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(objects); i++) {
		assert_true(proto_next_object(&it, &o));
		assert_null(o.reps.items);             /* decoded lists point into the frame */
		assert_object(&o, &objects[i]);
		assert_int_equal(proto_add_object(&bl, &o), 0);
	}
	assert_false(proto_next_object(&it, &o));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_symbol_lookup(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_symbol_lookup(&bl, b, cap, REQ(PROTO_SYMBOL_LOOKUP), 0, &symbol_query);
	for (size_t i = 0; !err && i < N(addresses); i++)
		err = proto_add_address(&bl, &addresses[i]);
	return err ? err : proto_finish(&bl);
}

static void check_symbol_lookup(const struct proto_frame *f)
{
	struct proto_symbol_query h;
	struct proto_iter it;
	uint64_t a;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_symbol_lookup(f, &h, &it), 0);
	assert_int_equal(h.pid, PROTO_PID_KERNEL);
	assert_int_equal(proto_begin_symbol_lookup(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(addresses); i++) {
		assert_true(proto_next_address(&it, &a));
		assert_int_equal(a, addresses[i]);
		assert_int_equal(proto_add_address(&bl, &a), 0);
	}
	assert_false(proto_next_address(&it, &a));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_symtab_get(uint8_t *b, size_t cap)
{
	return proto_encode_symbol_table_get(b, cap, REQ(PROTO_SYMBOL_TABLE_GET), 0, &symtab_get);
}

static void check_symtab_get(const struct proto_frame *f)
{
	struct proto_symbol_query m;
	assert_int_equal(proto_decode_symbol_table_get(f, &m), 0);
	assert_int_equal(m.pid, 12);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_symbol_table_get(again, BUF, f->req, f->flags, &m));
}

static int build_symbols(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_symbols(&bl, b, cap, REQ(PROTO_SYMBOL_LOOKUP), 0, &symbols_head);
	for (size_t i = 0; !err && i < N(symbols); i++)
		err = proto_add_symbol(&bl, &symbols[i]);
	return err ? err : proto_finish(&bl);
}

static void check_symbols(const struct proto_frame *f)
{
	struct proto_symbols_head h;
	struct proto_iter it;
	struct proto_symbol s;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_symbols(f, &h, &it), 0);
	assert_int_equal(h.pid, symbols_head.pid);
	assert_str(h.image, symbols_head.image);
	assert_int_equal(proto_begin_symbols(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(symbols); i++) {
		assert_true(proto_next_symbol(&it, &s));
		assert_int_equal(s.addr, symbols[i].addr);
		assert_int_equal(s.start, symbols[i].start);
		assert_int_equal(s.size, symbols[i].size);
		assert_str(s.name, symbols[i].name);
		assert_int_equal(proto_add_symbol(&bl, &s), 0);
	}
	assert_false(proto_next_symbol(&it, &s));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_catalogue(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_event_catalogue(&bl, b, cap, REQ(PROTO_HELLO), 0, &catalogue_head);
	for (size_t i = 0; !err && i < N(events); i++)
		err = proto_add_event(&bl, &events[i]);
	return err ? err : proto_finish(&bl);
}

static void check_catalogue(const struct proto_frame *f)
{
	struct proto_catalogue_head h;
	struct proto_iter it;
	struct proto_event e;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_event_catalogue(f, &h, &it), 0);
	assert_int_equal(h.total, 5);
	assert_int_equal(h.first, 2);
	assert_int_equal(proto_begin_event_catalogue(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(events); i++) {
		assert_true(proto_next_event(&it, &e));
		assert_int_equal(e.source, events[i].source);
		assert_int_equal(e.flags, events[i].flags);
		assert_int_equal(e.code, events[i].code);
		assert_str(e.name, events[i].name);
		assert_str(e.description, events[i].description);
		assert_str(e.why_not, events[i].why_not);
		assert_int_equal(proto_add_event(&bl, &e), 0);
	}
	assert_false(proto_next_event(&it, &e));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_config(uint8_t *b, size_t cap)
{
	return proto_encode_pmu_config(b, cap, REQ(PROTO_PMU_CONFIG), 0, &config);
}

static void check_config(const struct proto_frame *f)
{
	static struct proto_pmu_config m;
	assert_int_equal(proto_decode_pmu_config(f, &m), 0);
	assert_int_equal(m.config_id, config.config_id);
	assert_int_equal(m.unit, config.unit);
	assert_int_equal(m.flags, config.flags);
	assert_int_equal(m.slice, config.slice);
	assert_int_equal(m.chain_depth, config.chain_depth);
	assert_int_equal(m.n_groups, config.n_groups);
	for (unsigned g = 0; g < m.n_groups; g++) {
		assert_str(m.groups[g].name, config.groups[g].name);
		assert_int_equal(m.groups[g].share, config.groups[g].share);
		assert_int_equal(m.groups[g].n_events, config.groups[g].n_events);
		for (unsigned e = 0; e < m.groups[g].n_events; e++) {
			assert_str(m.groups[g].events[e].name, config.groups[g].events[e].name);
			assert_int_equal(m.groups[g].events[e].threshold,
			                 config.groups[g].events[e].threshold);
		}
	}
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_pmu_config(again, BUF, f->req, f->flags, &m));
}

static int build_start(uint8_t *b, size_t cap)
{
	return proto_encode_start(b, cap, REQ(PROTO_START), 0, &start);
}

static void check_start(const struct proto_frame *f)
{
	struct proto_start m;
	assert_int_equal(proto_decode_start(f, &m), 0);
	assert_int_equal(m.streams, start.streams);
	assert_int_equal(m.interval_us, start.interval_us);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_start(again, BUF, f->req, f->flags, &m));
}

/* SWAP and SWAPPED (1.6): their byte layouts and refusals are in test_proto_swap.c. */
static const struct proto_swap swap_req = { 9, 0x10000040, PROTO_STR("DCounter") };

static int build_swap(uint8_t *b, size_t cap)
{
	return proto_encode_swap(b, cap, REQ(PROTO_SWAP), 0, &swap_req);
}

static void check_swap(const struct proto_frame *f)
{
	struct proto_swap m;
	assert_int_equal(proto_decode_swap(f, &m), 0);
	assert_int_equal(m.pid, swap_req.pid);
	assert_true(m.coid == swap_req.coid);
	assert_int_equal(m.to.len, 8);
	assert_memory_equal(m.to.s, "DCounter", 8);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_swap(again, BUF, f->req, f->flags, &m));
}

static const struct proto_swapped swapped = { 9, 0x10000040, PROTO_SWAP_OK, 2, 123456789, 1000,
					       200, 30, 4000, 5, PROTO_STR("Counter"),
					       PROTO_STR("DCounter") };

static int build_swapped(uint8_t *b, size_t cap)
{
	return proto_encode_swapped(b, cap, 0, 0, &swapped);
}

static void check_swapped(const struct proto_frame *f)
{
	struct proto_swapped m;
	assert_int_equal(proto_decode_swapped(f, &m), 0);
	assert_int_equal(m.result, PROTO_SWAP_OK);
	assert_true(m.at_ns == swapped.at_ns && m.forward_ns == swapped.forward_ns &&
		    m.block_ns == swapped.block_ns && m.transfer_ns == swapped.transfer_ns &&
		    m.forwarded == swapped.forwarded && m.held == swapped.held && m.walks == 2);
	assert_int_equal(m.from.len, 7);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_swapped(again, BUF, f->req, f->flags, &m));
}

/* THROTTLE_SET and THROTTLE (1.7): a limit of 2.5%, and a change to x16 at 13.2%. */
static const struct proto_throttle_set throttle_set = { 250 };
static const struct proto_throttle throttle = { 3, 0x123456789ull, 16, 1320, 1000, 57 };

static int build_throttle_set(uint8_t *b, size_t cap)
{
	return proto_encode_throttle_set(b, cap, REQ(PROTO_THROTTLE_SET), 0, &throttle_set);
}

static void check_throttle_set(const struct proto_frame *f)
{
	struct proto_throttle_set m;
	assert_int_equal(proto_decode_throttle_set(f, &m), 0);
	assert_int_equal(m.limit_bp, 250);
	assert_int_equal(f->size, 4);
	/* Over 100% of the CPUs' time is refused. */
	uint8_t bad[BUF];
	struct proto_throttle_set over = { PROTO_THROTTLE_MAX_LIMIT_BP + 1 };
	assert_int_equal(proto_encode_throttle_set(bad, BUF, 1, 0, &over), -PROTO_E_INCONSISTENT);
}

static int build_throttle(uint8_t *b, size_t cap)
{
	return proto_encode_throttle(b, cap, 0, 0, &throttle);
}

static void check_throttle(const struct proto_frame *f)
{
	struct proto_throttle m;
	assert_int_equal(proto_decode_throttle(f, &m), 0);
	assert_true(m.seq == 3 && m.timebase == 0x123456789ull && m.factor == 16 &&
		    m.cost_bp == 1320 && m.limit_bp == 1000 && m.windows == 57);
	assert_int_equal(f->size, 36);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_throttle(again, BUF, f->req, f->flags, &m));
	/* A factor that is not a power of two is inconsistent. */
	m.factor = 12;
	assert_int_equal(proto_encode_throttle(again, BUF, 0, 0, &m), -PROTO_E_INCONSISTENT);
}

static const struct proto_instrument instrument = { 7, 0xD0000030, PROTO_INSTR_INVOCATIONS, 1 };

static int build_instrument(uint8_t *b, size_t cap)
{
	return proto_encode_instrument(b, cap, REQ(PROTO_INSTRUMENT), 0, &instrument);
}

static void check_instrument(const struct proto_frame *f)
{
	struct proto_instrument m;
	assert_int_equal(proto_decode_instrument(f, &m), 0);
	assert_int_equal(m.pid, instrument.pid);
	assert_int_equal(m.coid, instrument.coid);
	assert_int_equal(m.what, instrument.what);
	assert_int_equal(m.on, instrument.on);
	uint8_t again[BUF];
	assert_same_frame(f, again, proto_encode_instrument(again, BUF, f->req, f->flags, &m));
	/* Invocation counting, sleep-lock figures or full lock counting, on or off, for the kernel
	 * or one process; nothing else. */
	struct proto_instrument bad = instrument;
	bad.what = 4;
	assert_int_equal(proto_encode_instrument(again, BUF, 1, 0, &bad), -PROTO_E_INCONSISTENT);
	bad.what = 0;
	assert_int_equal(proto_encode_instrument(again, BUF, 1, 0, &bad), -PROTO_E_INCONSISTENT);
	bad.what = PROTO_INSTR_SLEEPLOCKS;
	assert_true(proto_encode_instrument(again, BUF, 1, 0, &bad) > 0);
	bad.what = PROTO_INSTR_LOCKS_FULL;
	assert_true(proto_encode_instrument(again, BUF, 1, 0, &bad) > 0);
	bad = instrument;
	bad.on = 2;
	assert_int_equal(proto_encode_instrument(again, BUF, 1, 0, &bad), -PROTO_E_INCONSISTENT);
	bad = instrument;
	bad.pid = PROTO_PID_ALL;
	assert_int_equal(proto_encode_instrument(again, BUF, 1, 0, &bad), -PROTO_E_INCONSISTENT);
	assert_true(proto_requires_controller(PROTO_INSTRUMENT));
	assert_int_equal(proto_type_info(PROTO_INSTRUMENT)->minor, 1);
}

static int build_samples(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_samples(&bl, b, cap, 0, 0, &samples_head);
	for (size_t i = 0; !err && i < N(samples); i++)
		err = proto_add_sample(&bl, &samples[i]);
	return err ? err : proto_finish(&bl);
}

static void check_samples(const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_samples(f, &h, &it), 0);
	assert_int_equal(h.config_id, samples_head.config_id);
	assert_int_equal(proto_begin_samples(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(samples); i++) {
		assert_true(proto_next_sample(&it, &s));
		assert_sample(&s, &samples[i]);
		assert_int_equal(proto_add_sample(&bl, &s), 0);
	}
	assert_false(proto_next_sample(&it, &s));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_counts(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_interval_counts(&bl, b, cap, 0, 0, &counts_head);
	for (size_t i = 0; !err && i < N(counts); i++)
		err = proto_add_count(&bl, &counts[i]);
	return err ? err : proto_finish(&bl);
}

static void check_counts(const struct proto_frame *f)
{
	struct proto_counts_head h;
	struct proto_iter it;
	struct proto_count c;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_interval_counts(f, &h, &it), 0);
	assert_int_equal(h.config_id, counts_head.config_id);
	assert_int_equal(h.start, counts_head.start);
	assert_int_equal(h.end, counts_head.end);
	assert_int_equal(proto_begin_interval_counts(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(counts); i++) {
		assert_true(proto_next_count(&it, &c));
		assert_int_equal(c.cpu, counts[i].cpu);
		assert_int_equal(c.group, counts[i].group);
		assert_int_equal(c.event, counts[i].event);
		assert_int_equal(c.raw, counts[i].raw);
		assert_int_equal(c.enabled, counts[i].enabled);
		assert_int_equal(c.running, counts[i].running);
		assert_int_equal(proto_add_count(&bl, &c), 0);
	}
	assert_false(proto_next_count(&it, &c));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_lock_contention(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_lock_contention(&bl, b, cap, 0, 0, &interval);
	for (size_t i = 0; !err && i < N(locks); i++)
		err = proto_add_lock_contention(&bl, &locks[i]);
	return err ? err : proto_finish(&bl);
}

static void check_lock_contention(const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_lock_contention(f, &h, &it), 0);
	assert_int_equal(h.start, interval.start);
	assert_int_equal(proto_begin_lock_contention(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(locks); i++) {
		assert_true(proto_next_lock_contention(&it, &l));
		assert_lock_contention(&l, &locks[i]);
		assert_int_equal(proto_add_lock_contention(&bl, &l), 0);
	}
	assert_false(proto_next_lock_contention(&it, &l));
	assert_same_frame(f, again, proto_finish(&bl));
}

/* Figures that contradict each other are refused on the way out (and so on the way in). */
static void test_lock_contention_inconsistent(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_builder b;
	struct proto_lock bad[] = { locks[0], locks[0], locks[0], locks[0], locks[0] };
	bad[0].wait_min = bad[0].wait_max + 1;
	bad[1].bounces = bad[1].contentions + 1;
	bad[2].site[0].count = bad[2].contentions;   /* with site[1] and other_sites: too many */
	bad[3].site[3].count = 1;                    /* a count without a call site */
	bad[4].flags = 0x80;
	for (size_t i = 0; i < N(bad); i++) {
		assert_int_equal(proto_begin_lock_contention(&b, buf, sizeof buf, 0, 0, &interval), 0);
		assert_int_equal(proto_add_lock_contention(&b, &bad[i]), -PROTO_E_INCONSISTENT);
	}
}

static int build_locks(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_lock_stats(&bl, b, cap, 0, 0, &interval);
	for (size_t i = 0; !err && i < N(locks); i++)
		err = proto_add_lock(&bl, &locks[i]);
	return err ? err : proto_finish(&bl);
}

static void check_locks(const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_lock_stats(f, &h, &it), 0);
	assert_int_equal(h.start, interval.start);
	assert_int_equal(h.end, interval.end);
	assert_int_equal(proto_begin_lock_stats(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(locks); i++) {
		assert_true(proto_next_lock(&it, &l));
		assert_lock(&l, &locks[i]);
		assert_int_equal(proto_add_lock(&bl, &l), 0);
	}
	assert_false(proto_next_lock(&it, &l));
	assert_same_frame(f, again, proto_finish(&bl));
}

static int build_invocations(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_invocations(&bl, b, cap, 0, 0, &interval);
	for (size_t i = 0; !err && i < N(invocations); i++)
		err = proto_add_invocation(&bl, &invocations[i]);
	return err ? err : proto_finish(&bl);
}

static void check_invocations(const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_invocation v;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_invocations(f, &h, &it), 0);
	assert_int_equal(h.start, interval.start);
	assert_int_equal(h.end, interval.end);
	assert_int_equal(proto_begin_invocations(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(invocations); i++) {
		assert_true(proto_next_invocation(&it, &v));
		assert_int_equal(v.coid, invocations[i].coid);
		assert_int_equal(v.gen, invocations[i].gen);
		assert_int_equal(v.pid, invocations[i].pid);
		assert_int_equal(v.count, invocations[i].count);
		assert_int_equal(proto_add_invocation(&bl, &v), 0);
	}
	assert_false(proto_next_invocation(&it, &v));
	assert_same_frame(f, again, proto_finish(&bl));
}

/* 1.4: a chain of a kernel method frame and a user frame, and samples naming it. */
static const struct proto_chain a_chain = {
	5, 12, 2, { { PROTO_FRAME_OBJECT, 0xC000000000001234ull, 0xD000000000000010ull, 1 },
		    { PROTO_FRAME_USER, 0x10000400ull, 0, 0 } } };

static int build_chains(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_chains(&bl, b, cap, 0, 0, &samples_head);
	err = err ? err : proto_add_chain(&bl, &a_chain);
	return err ? err : proto_finish(&bl);
}

static void check_chains(const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_chain c;
	assert_int_equal(proto_decode_chains(f, &h, &it), 0);
	assert_true(proto_next_chain(&it, &c));
	assert_int_equal(c.id, 5);
	assert_int_equal(c.depth, 2);
	assert_int_equal(c.frames[1].pc, 0x10000400ull);
	assert_false(proto_next_chain(&it, &c));
}

static int build_samples_chained(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	struct proto_sample s = samples[1];
	s.chain_id = 5;
	s.period = 1000;
	int err = proto_begin_samples_chained(&bl, b, cap, 0, 0, &samples_head);
	err = err ? err : proto_add_sample_chained(&bl, &s);
	return err ? err : proto_finish(&bl);
}

static void check_samples_chained(const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	assert_int_equal(proto_decode_samples_chained(f, &h, &it), 0);
	assert_true(proto_next_sample_chained(&it, &s));
	assert_int_equal(s.chain_id, 5);
	assert_int_equal(s.period, 1000);
	assert_int_equal(s.pc, samples[1].pc);
}

/* Three records against one another: a sample, the same thread later, and one that
 * changes everything but its period. */
static int build_samples_packed(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_samples_packed(&bl, b, cap, 0, 0, &samples_head);
	for (unsigned i = 0; !err && i < 3; i++) {
		struct proto_sample s = samples[i < 2 ? 1 : 0];
		s.depth = 0;
		s.timebase += i * 300;
		s.pc += i * 8;
		s.period = i < 2 ? 1000 + i : 1001;
		s.chain_id = i;
		err = proto_add_sample_packed(&bl, &s);
	}
	return err ? err : proto_finish(&bl);
}

static void check_samples_packed(const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	assert_int_equal(proto_decode_samples_packed(f, &h, &it), 0);
	assert_int_equal(proto_iter_left(&it), 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct proto_sample *w = &samples[i < 2 ? 1 : 0];
		assert_true(proto_next_sample_packed(&it, &s));
		assert_int_equal(s.timebase, w->timebase + i * 300);
		assert_int_equal(s.pc, w->pc + i * 8);
		assert_int_equal(s.coid, w->coid);
		assert_int_equal(s.gen, w->gen);
		assert_int_equal(s.tid, w->tid);
		assert_int_equal(s.flags, w->flags);
		assert_int_equal(s.period, i < 2 ? 1000 + i : 1001);
		assert_int_equal(s.chain_id, i);
	}
	assert_false(proto_next_sample_packed(&it, &s));
}

static int build_lost(uint8_t *b, size_t cap)
{
	struct proto_builder bl;
	int err = proto_begin_lost_samples(&bl, b, cap, 0, 0, &interval);
	for (size_t i = 0; !err && i < N(losts); i++)
		err = proto_add_lost(&bl, &losts[i]);
	return err ? err : proto_finish(&bl);
}

static void check_lost(const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lost l;
	struct proto_builder bl;
	uint8_t again[BUF];
	assert_int_equal(proto_decode_lost_samples(f, &h, &it), 0);
	assert_int_equal(h.start, interval.start);
	assert_int_equal(h.end, interval.end);
	assert_int_equal(proto_begin_lost_samples(&bl, again, BUF, f->req, f->flags, &h), 0);
	for (size_t i = 0; i < N(losts); i++) {
		assert_true(proto_next_lost(&it, &l));
		assert_int_equal(l.cpu, losts[i].cpu);
		assert_int_equal(l.pmc, losts[i].pmc);
		assert_int_equal(l.event, losts[i].event);
		assert_int_equal(l.lost, losts[i].lost);
		assert_int_equal(proto_add_lost(&bl, &l), 0);
	}
	assert_false(proto_next_lost(&it, &l));
	assert_same_frame(f, again, proto_finish(&bl));
}

struct kind {
	const char *name;
	uint16_t type;
	int (*build)(uint8_t *buf, size_t cap);
	void (*check)(const struct proto_frame *f);
};

static const struct kind kinds[] = {
	{ "hello", PROTO_HELLO, build_hello, check_hello },
	{ "welcome", PROTO_SERVER_HELLO, build_welcome, check_welcome },
	{ "refusal", PROTO_SERVER_HELLO, build_refusal, check_refusal },
	{ "welcome_ex", PROTO_SERVER_HELLO_EX, build_welcome_ex, check_welcome_ex },
	{ "error", PROTO_ERROR, build_error, check_error },
	{ "ok", PROTO_OK, build_ok, check_ok },
	{ "ping", PROTO_PING, build_ping, check_ping },
	{ "pong", PROTO_PONG, build_pong, check_pong },
	{ "claim", PROTO_CLAIM_CONTROL, build_claim, check_claim },
	{ "status_get", PROTO_STATUS_GET, build_status_get, check_status_get },
	{ "status", PROTO_STATUS, build_status, check_status },
	{ "status_ex", PROTO_STATUS_EX, build_status_ex, check_status_ex },
	{ "wakeups_get", PROTO_WAKEUPS_GET, build_wakeups_get, check_wakeups_get },
	{ "wakeups", PROTO_WAKEUPS, build_wakeups, check_wakeups },
	{ "dropped", PROTO_DROPPED, build_dropped, check_dropped },
	{ "scan_request", PROTO_SCAN_REQUEST, build_scan_request, check_scan_request },
	{ "processes", PROTO_SCAN_PROCESSES, build_processes, check_processes },
	{ "objects", PROTO_SCAN_OBJECTS, build_objects, check_objects },
	{ "symbol_lookup", PROTO_SYMBOL_LOOKUP, build_symbol_lookup, check_symbol_lookup },
	{ "symtab_get", PROTO_SYMBOL_TABLE_GET, build_symtab_get, check_symtab_get },
	{ "symbols", PROTO_SYMBOLS, build_symbols, check_symbols },
	{ "catalogue_get", PROTO_CATALOGUE_GET, build_catalogue_get, check_catalogue_get },
	{ "catalogue", PROTO_EVENT_CATALOGUE, build_catalogue, check_catalogue },
	{ "config", PROTO_PMU_CONFIG, build_config, check_config },
	{ "config_get", PROTO_CONFIG_GET, build_config_get, check_config_get },
	{ "start", PROTO_START, build_start, check_start },
	{ "instrument", PROTO_INSTRUMENT, build_instrument, check_instrument },
	{ "swap", PROTO_SWAP, build_swap, check_swap },
	{ "swapped", PROTO_SWAPPED, build_swapped, check_swapped },
	{ "throttle_get", PROTO_THROTTLE_GET, build_throttle_get, check_throttle_get },
	{ "throttle_set", PROTO_THROTTLE_SET, build_throttle_set, check_throttle_set },
	{ "throttle", PROTO_THROTTLE, build_throttle, check_throttle },
	{ "stop", PROTO_STOP, build_stop, check_stop },
	{ "power_off", PROTO_POWER_OFF, build_power_off, check_power_off },
	{ "reboot", PROTO_REBOOT, build_reboot, check_reboot },
	{ "platform_get", PROTO_PLATFORM_GET, build_platform_get, check_platform_get },
	{ "platform", PROTO_PLATFORM, build_platform, check_platform },
	{ "samples", PROTO_SAMPLES, build_samples, check_samples },
	{ "counts", PROTO_INTERVAL_COUNTS, build_counts, check_counts },
	{ "locks", PROTO_LOCK_STATS, build_locks, check_locks },
	{ "lock_contention", PROTO_LOCK_CONTENTION, build_lock_contention, check_lock_contention },
	{ "invocations", PROTO_INVOCATIONS, build_invocations, check_invocations },
	{ "lost", PROTO_LOST_SAMPLES, build_lost, check_lost },
	{ "chains", PROTO_CHAINS, build_chains, check_chains },
	{ "samples_chained", PROTO_SAMPLES_CHAINED, build_samples_chained, check_samples_chained },
	{ "samples_packed", PROTO_SAMPLES_PACKED, build_samples_packed, check_samples_packed },
};
#define KINDS N(kinds)

/* Builds kind k into buf and parses it back as a frame. */
static int make(size_t k, uint8_t *buf, struct proto_frame *f)
{
	int n = kinds[k].build(buf, BUF);
	if (n <= 0)
		fail_msg("%s: encode failed: %s", kinds[k].name, proto_strerror(n));
	assert_int_equal(proto_frame_parse(buf, (size_t)n, f), n);
	return n;
}

/* Sets the frame's length field to say it holds `payload` bytes. */
static void set_payload_size(uint8_t *buf, size_t payload)
{
	be32_store(buf, (uint32_t)(payload + PROTO_HEADER_SIZE - 4));
}

/* Deterministic, so a failure reproduces. */
static uint64_t rng_state;
static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* ---- tests ----------------------------------------------------------------------------- */

static void header_is_big_endian(void **state)
{
	(void)state;
	uint8_t buf[64];
	int n = proto_encode_ping(buf, sizeof buf, 0x01020304, PROTO_F_OPTIONAL, &ping);
	static const uint8_t want[] = {
		0x00, 0x00, 0x00, 0x10, 0x00, 0x05, 0x00, 0x01, 0x01, 0x02, 0x03, 0x04,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
	};
	assert_int_equal(n, sizeof want);
	assert_memory_equal(buf, want, sizeof want);

	n = proto_encode_claim(buf, sizeof buf, 9, 0, &claim);  /* strings: u16 length, bytes */
	static const uint8_t str[] = { 0x00, 0x06, 's', '3', 'c', 'r', 'e', 't' };
	assert_int_equal(n, PROTO_HEADER_SIZE + sizeof str);
	assert_memory_equal(buf + PROTO_HEADER_SIZE, str, sizeof str);
	proto_frame_set_flags(buf, PROTO_F_MORE);
	assert_int_equal(be16_load(buf + 6), PROTO_F_MORE);
}

static void every_type_round_trips(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	for (size_t k = 0; k < KINDS; k++) {
		make(k, buf, &f);
		assert_int_equal(f.type, kinds[k].type);
		assert_true(f.size > 0 || proto_decode_empty(&f) == 0);
		kinds[k].check(&f);
		if (proto_validate(&f) != 0)
			fail_msg("%s does not validate", kinds[k].name);
	}
	/* Every type the codec knows is in the table above. */
	unsigned known = 0;
	for (unsigned t = 0; t < 0x10000; t++) {
		if (!proto_type_info((uint16_t)t))
			continue;
		known++;
		bool found = false;
		for (size_t k = 0; k < KINDS; k++)
			found |= kinds[k].type == t;
		if (!found)
			fail_msg("type 0x%04x (%s) has no round trip", t, proto_type_name((uint16_t)t));
	}
	assert_int_equal(known, 45);
}

static void nested_lists_read_either_way(void **state)
{
	(void)state;
	const struct proto_u64_list l = { reps4, NULL, 4 };
	assert_int_equal(proto_u64_at(&l, 3), reps4[3]);
	assert_int_equal(proto_u64_at(&l, 4), 0);
	const struct proto_ref_list r = { kids, NULL, 3 };
	assert_int_equal(proto_ref_at(&r, 1).gen, 2);
	assert_int_equal(proto_ref_at(&r, 3).coid, 0);
	/* A listed count without elements cannot be encoded. */
	struct proto_object o = objects[0];
	o.reps.items = NULL;
	uint8_t buf[BUF];
	struct proto_builder b;
	assert_int_equal(proto_begin_scan_objects(&b, buf, sizeof buf, 1, 0, &scan_head), 0);
	assert_int_equal(proto_add_object(&b, &o), -PROTO_E_INVALID);
}

/* All kinds, back to back, as one byte stream. */
static size_t make_stream(uint8_t *stream, size_t cap, struct proto_frame *frames)
{
	size_t len = 0;
	for (size_t k = 0; k < KINDS; k++) {
		assert_true(cap - len >= BUF);
		make(k, stream + len, &frames[k]);
		len += frames[k].size + PROTO_HEADER_SIZE;
	}
	return len;
}

static void assert_same(const struct proto_frame *a, const struct proto_frame *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->req, b->req);
	assert_int_equal(a->size, b->size);
	assert_memory_equal(a->payload, b->payload, a->size);
}

/* Feeds the stream in chunks of the sizes chunk() gives; checks every frame comes out. */
static void feed_stream(const uint8_t *stream, size_t len, const struct proto_frame *want,
                        size_t (*chunk)(void))
{
	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_reader r;
	struct proto_frame f;
	proto_reader_init(&r, rbuf, sizeof rbuf);
	size_t got = 0, off = 0;
	while (off < len) {
		size_t n = chunk();
		if (n > len - off)
			n = len - off;
		const uint8_t *p = stream + off;
		size_t left = n;
		int rc;
		while ((rc = proto_reader_feed(&r, &p, &left, &f)) == 1) {
			assert_true(got < KINDS);
			assert_same(&f, &want[got]);
			kinds[got].check(&f);
			got++;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(left, 0);
		off += n;
	}
	assert_int_equal(got, KINDS);
	assert_int_equal(proto_reader_pending(&r), 0);
}

static size_t one_byte(void)
{
	return 1;
}

static size_t random_chunk(void)
{
	switch (rng() % 4) {
	case 0:
		return 1 + rng() % 4;
	case 1:
		return 1 + rng() % 64;
	case 2:
		return 1 + rng() % 512;
	default:
		return 1 + rng() % 8192;
	}
}

static void reader_byte_by_byte(void **state)
{
	(void)state;
	static uint8_t stream[KINDS * BUF];
	struct proto_frame frames[KINDS];
	size_t len = make_stream(stream, sizeof stream, frames);
	feed_stream(stream, len, frames, one_byte);
}

static void reader_random_chunks(void **state)
{
	(void)state;
	static uint8_t stream[KINDS * BUF];
	struct proto_frame frames[KINDS];
	size_t len = make_stream(stream, sizeof stream, frames);
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int trial = 0; trial < 300; trial++)
		feed_stream(stream, len, frames, random_chunk);
}

static void reader_refuses_oversized_prefix_at_once(void **state)
{
	(void)state;
	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_reader r;
	struct proto_frame f;
	/* One byte more than the limit: refused when the 4th byte arrives, payload unread. */
	uint8_t prefix[8];
	be32_store(prefix, PROTO_MAX_FRAME - 4 + 1);
	memset(prefix + 4, 0xAA, 4);
	proto_reader_init(&r, rbuf, sizeof rbuf);
	const uint8_t *p = prefix;
	size_t n = 3;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 0);
	n = 5;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), -PROTO_E_TOO_BIG);
	assert_int_equal(n, 4);              /* nothing after the prefix was taken */
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), -PROTO_E_TOO_BIG);  /* sticky */

	/* The largest frame the protocol allows is accepted. */
	static uint8_t big[PROTO_MAX_FRAME];
	memset(big, 0, sizeof big);
	be32_store(big, PROTO_MAX_FRAME - 4);
	be16_store(big + 4, PROTO_SAMPLES);
	proto_reader_init(&r, rbuf, sizeof rbuf);
	p = big;
	n = sizeof big;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 1);
	assert_int_equal(f.size, PROTO_MAX_PAYLOAD);
	assert_int_equal(proto_frame_parse(big, sizeof big, &f), PROTO_MAX_FRAME);

	/* A huge prefix, and one smaller than the header. */
	be32_store(prefix, 0xFFFFFFFFu);
	proto_reader_init(&r, rbuf, sizeof rbuf);
	p = prefix;
	n = sizeof prefix;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), -PROTO_E_TOO_BIG);
	assert_int_equal(proto_frame_parse(prefix, sizeof prefix, &f), -PROTO_E_TOO_BIG);
	be32_store(prefix, 7);
	proto_reader_init(&r, rbuf, sizeof rbuf);
	p = prefix;
	n = sizeof prefix;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), -PROTO_E_LENGTH);
	assert_int_equal(proto_frame_parse(prefix, sizeof prefix, &f), -PROTO_E_LENGTH);

	/* A reader with a small buffer refuses what does not fit it, at the prefix. */
	uint8_t small[40], frame[BUF];
	int len = build_symbols(frame, sizeof frame);
	assert_true(len > (int)sizeof small);
	proto_reader_init(&r, small, sizeof small);
	p = frame;
	n = (size_t)len;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), -PROTO_E_TOO_BIG);
	assert_int_equal(n, (size_t)len - 4);
}

static void reader_reports_cut_stream(void **state)
{
	(void)state;
	uint8_t rbuf[BUF], frame[BUF];
	struct proto_reader r;
	struct proto_frame f;
	int len = build_samples(frame, sizeof frame);
	proto_reader_init(&r, rbuf, sizeof rbuf);
	const uint8_t *p = frame;
	size_t n = (size_t)len - 1;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 0);
	assert_int_equal(proto_reader_pending(&r), (size_t)len - 1);
	n = 1;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 1);
	assert_int_equal(proto_reader_pending(&r), 0);
	assert_int_equal(proto_validate(&f), 0);
	n = 0;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 0);
}

/* The length prefix kept: every shorter buffer is an incomplete frame. */
static void truncated_frames_at_every_length(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	for (size_t k = 0; k < KINDS; k++) {
		int n = make(k, buf, &f);
		for (int cut = 0; cut < n; cut++) {
			uint8_t *copy = malloc(cut ? (size_t)cut : 1);
			memcpy(copy, buf, (size_t)cut);
			assert_int_equal(proto_frame_parse(copy, (size_t)cut, &f), -PROTO_E_TRUNCATED);
			free(copy);
		}
	}
}

/* The length prefix shortened with the cut: every shorter payload is refused by its decoder. */
static void truncated_payloads_at_every_length(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	unsigned tried = 0;
	for (size_t k = 0; k < KINDS; k++) {
		int n = make(k, buf, &f);
		for (size_t cut = 0; cut < f.size; cut++) {
			size_t len = PROTO_HEADER_SIZE + cut;
			uint8_t *copy = malloc(len);
			memcpy(copy, buf, len);
			set_payload_size(copy, cut);
			struct proto_frame g;
			assert_int_equal(proto_frame_parse(copy, len, &g), (int)len);
			int err = proto_validate(&g);
			if (err >= 0)
				fail_msg("%s cut to %zu of %u payload bytes was accepted", kinds[k].name,
				         cut, f.size);
			tried++;
			free(copy);
		}
		/* One byte more than the message is trailing garbage. */
		buf[n] = 0;
		set_payload_size(buf, f.size + 1);
		assert_int_equal(proto_frame_parse(buf, (size_t)n + 1, &f), n + 1);
		assert_int_equal(proto_validate(&f), -PROTO_E_TRAILING);
	}
	assert_true(tried > 1000);
}

/* Encoders never write beyond the caller's capacity and say when it is too small. */
static void encoders_respect_capacity(void **state)
{
	(void)state;
	uint8_t buf[BUF + 16];
	for (size_t k = 0; k < KINDS; k++) {
		int n = kinds[k].build(buf, BUF);
		assert_true(n > 0);
		for (int cap = 0; cap < n; cap++) {
			memset(buf, 0x5A, sizeof buf);
			int rc = kinds[k].build(buf, (size_t)cap);
			if (rc != -PROTO_E_NOSPACE)
				fail_msg("%s into %d of %d bytes: %d", kinds[k].name, cap, n, rc);
			for (size_t i = (size_t)cap; i < sizeof buf; i++)
				assert_int_equal(buf[i], 0x5A);
		}
		assert_int_equal(kinds[k].build(buf, (size_t)n), n);
	}
}

/* A producer fills frames until the builder says stop; each frame is complete and valid. */
static void builder_fills_frames_to_the_limit(void **state)
{
	(void)state;
	static uint8_t big[2 * PROTO_MAX_FRAME];
	struct proto_builder b;
	struct proto_frame f;
	struct proto_iter it;
	struct proto_samples_head h;
	struct proto_sample s = samples[2];          /* 44 + 16 * 8 = 172 bytes */
	assert_int_equal(proto_begin_samples(&b, big, sizeof big, 0, 0, &samples_head), 0);
	int rc;
	while ((rc = proto_add_sample(&b, &s)) == 0)
		s.timebase++;
	assert_int_equal(rc, -PROTO_E_TOO_BIG);   /* the protocol's limit, not the buffer's */
	uint32_t n = proto_builder_count(&b);
	int len = proto_finish(&b);
	assert_true(len <= (int)PROTO_MAX_FRAME && len + 172 > (int)PROTO_MAX_FRAME);
	assert_int_equal(proto_frame_parse(big, (size_t)len, &f), len);
	assert_int_equal(proto_decode_samples(&f, &h, &it), 0);
	assert_int_equal(proto_iter_left(&it), n);
	assert_int_equal(n, (PROTO_MAX_PAYLOAD - 8) / 172);

	/* A small buffer: the failed record leaves the frame as it was. */
	uint8_t small[200];
	assert_int_equal(proto_begin_samples(&b, small, sizeof small, 0, 0, &samples_head), 0);
	assert_int_equal(proto_add_sample(&b, &samples[0]), 0);
	assert_int_equal(proto_add_sample(&b, &samples[2]), -PROTO_E_NOSPACE);
	assert_int_equal(proto_add_sample(&b, &samples[1]), 0);
	len = proto_finish(&b);
	assert_int_equal(proto_frame_parse(small, (size_t)len, &f), len);
	assert_int_equal(proto_validate(&f), 0);
	assert_int_equal(proto_decode_samples(&f, &h, &it), 0);
	struct proto_sample got;
	assert_true(proto_next_sample(&it, &got));
	assert_sample(&got, &samples[0]);
	assert_true(proto_next_sample(&it, &got));
	assert_sample(&got, &samples[1]);
	assert_false(proto_next_sample(&it, &got));

	/* An object with more children than a frame holds is too big, even for a big buffer. */
	static struct proto_ref many[6000];
	struct proto_object o = objects[1];
	o.children.items = many;
	o.children.count = N(many);
	assert_int_equal(proto_begin_scan_objects(&b, big, sizeof big, 1, 0, &scan_head), 0);
	assert_int_equal(proto_add_object(&b, &o), -PROTO_E_TOO_BIG);
	o.children.count = 0xFFFFFFFFu;      /* stops early rather than walking 4 G entries */
	assert_int_equal(proto_add_object(&b, &o), -PROTO_E_TOO_BIG);
	assert_int_equal(proto_finish(&b), PROTO_HEADER_SIZE + 8 + 4);
}

static void builder_misuse(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_builder b;
	struct proto_frame f;
	/* Records of another message, and a begin that failed. */
	assert_int_equal(proto_begin_samples(&b, buf, sizeof buf, 0, 0, &samples_head), 0);
	assert_int_equal(proto_add_lock(&b, &locks[0]), -PROTO_E_INVALID);
	assert_int_equal(proto_begin_samples(&b, buf, 10, 0, 0, &samples_head), -PROTO_E_NOSPACE);
	assert_int_equal(proto_add_sample(&b, &samples[0]), -PROTO_E_NOSPACE);
	assert_int_equal(proto_finish(&b), -PROTO_E_NOSPACE);
	/* A decoder handed a frame of another type. */
	int n = build_samples(buf, sizeof buf);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	struct proto_interval h;
	struct proto_iter it;
	assert_int_equal(proto_decode_lock_stats(&f, &h, &it), -PROTO_E_INVALID);
	struct proto_ping pm;
	assert_int_equal(proto_decode_ping(&f, &pm), -PROTO_E_INVALID);
	assert_int_equal(proto_decode_empty(&f), -PROTO_E_INVALID);
	assert_int_equal(proto_encode_empty(buf, sizeof buf, PROTO_PING, 1, 0), -PROTO_E_INVALID);
	/* An iterator only reads its own records. */
	struct proto_samples_head sh;
	assert_int_equal(proto_decode_samples(&f, &sh, &it), 0);
	struct proto_lock l;
	assert_false(proto_next_lock(&it, &l));
	/* The catalogue cannot list more entries than its total. */
	struct proto_catalogue_head ch = { 3, 2 };
	assert_int_equal(proto_begin_event_catalogue(&b, buf, sizeof buf, 1, 0, &ch), 0);
	assert_int_equal(proto_add_event(&b, &events[0]), 0);
	assert_int_equal(proto_add_event(&b, &events[1]), -PROTO_E_INCONSISTENT);
	ch.first = 4;
	assert_int_equal(proto_begin_event_catalogue(&b, buf, sizeof buf, 1, 0, &ch),
	                 -PROTO_E_INCONSISTENT);
}

static void unknown_types(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	int n = build_ping(buf, sizeof buf);
	be16_store(buf + 4, 0x7777);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_null(proto_type_info(0x7777));
	assert_string_equal(proto_type_name(0x7777), "?");
	assert_int_equal(proto_validate(&f), -PROTO_E_UNKNOWN_TYPE);
	for (int side = 0; side < 2; side++)
		for (int role = PROTO_ROLE_NONE; role <= PROTO_ROLE_CONTROLLER; role++)
			assert_int_equal(proto_check_incoming(&f, side, role), -PROTO_E_UNKNOWN_TYPE);
	/* Marked optional, it is ignored in every state. */
	proto_frame_set_flags(buf, PROTO_F_OPTIONAL);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	for (int side = 0; side < 2; side++)
		for (int role = PROTO_ROLE_NONE; role <= PROTO_ROLE_CONTROLLER; role++)
			assert_int_equal(proto_check_incoming(&f, side, role), PROTO_IGNORE);
	/* A known type marked optional is still handled. */
	n = build_ping(buf, sizeof buf);
	proto_frame_set_flags(buf, PROTO_F_OPTIONAL);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER), 0);
	assert_int_equal(proto_validate(&f), 0);
}

/* Builds kind k, lets patch() change its bytes, and returns what validation says. */
static int patched(size_t k, void (*patch)(uint8_t *buf, struct proto_frame *f))
{
	static uint8_t buf[BUF];
	struct proto_frame f;
	make(k, buf, &f);
	patch(buf, &f);
	int n = proto_frame_parse(buf, BUF, &f);
	return n < 0 ? n : proto_validate(&f);
}

static size_t kind_of(const char *name)
{
	for (size_t k = 0; k < KINDS; k++)
		if (strcmp(kinds[k].name, name) == 0)
			return k;
	fail_msg("no kind %s", name);
	return 0;
}

#define P(buf) ((buf) + PROTO_HEADER_SIZE)

static void count_plus_one(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be32_store(P(b) + 4, be32_load(P(b) + 4) + 1);   /* SAMPLES: config u32, count u32 */
}
static void count_huge(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be32_store(P(b) + 4, 0xFFFFFFFFu);
}
static void first_reps_huge(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	/* SCAN_OBJECTS: timebase 8, count 4; object: 4+4+8+8+2, class "ProcessReplicated" */
	be16_store(P(b) + 12 + 26 + 2 + 17, 1000);
}
static void first_reps_over_limit(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be16_store(P(b) + 12 + 26 + 2 + 17, PROTO_MAX_CPUS + 1);
}
static void first_children_huge(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be32_store(P(b) + 12 + 26 + 2 + 17 + 2 + 4 * 8, 0x20000000u);
}
static void groups_17(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be16_store(P(b) + 18, 17);
}
static void group_events_17(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be16_store(P(b) + 20 + 2 + 3 + 2, 17);   /* first group: name "ipc", share, n_events */
}
static void sample_depth_17(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be16_store(P(b) + 8 + 42, 17);
}

static void counts_beyond_the_payload(void **state)
{
	(void)state;
	assert_int_equal(patched(kind_of("samples"), count_plus_one), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("samples"), count_huge), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("samples"), sample_depth_17), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("objects"), first_reps_huge), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("objects"), first_reps_over_limit), -PROTO_E_INCONSISTENT);
	assert_int_equal(patched(kind_of("objects"), first_children_huge), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("config"), groups_17), -PROTO_E_COUNT);
	assert_int_equal(patched(kind_of("config"), group_events_17), -PROTO_E_COUNT);
	/* Every list type with its count raised by one, and set to the maximum. */
	static const struct {
		const char *kind;
		size_t at;               /* payload offset of the count: the head's size */
	} lists[] = {
		{ "dropped", 24 }, { "processes", 8 }, { "objects", 8 }, { "symbol_lookup", 4 },
		{ "symbols", 4 + 2 + 6 }, { "catalogue", 4 }, { "samples", 4 }, { "counts", 20 },
		{ "locks", 16 }, { "invocations", 16 }, { "lost", 16 },
	};
	for (size_t i = 0; i < N(lists); i++) {
		uint8_t buf[BUF];
		struct proto_frame f;
		size_t k = kind_of(lists[i].kind);
		make(k, buf, &f);
		uint8_t *count = P(buf) + lists[i].at;
		uint32_t was = be32_load(count);
		assert_true(was >= 2 && was <= 4);
		be32_store(count, was + 1);
		int err = proto_validate(&f);
		if (err != -PROTO_E_COUNT)
			fail_msg("%s with count %u+1: %s", lists[i].kind, was, proto_strerror(err));
		be32_store(count, 0xFFFFFFFFu);
		assert_int_equal(proto_validate(&f), -PROTO_E_COUNT);
		be32_store(count, was - 1);      /* fewer records than bytes: trailing */
		assert_int_equal(proto_validate(&f), -PROTO_E_TRAILING);
	}
}

static void string_past_frame(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	be16_store(P(b), 200);                   /* CLAIM_CONTROL: the token's length */
}
static void string_with_nul(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	P(b)[8 + 2 + 3] = '\0';                  /* HELLO: inside "kovctl 0.1" */
}
static void empty_required_name(uint8_t *b, struct proto_frame *f)
{
	(void)f;
	/* SCAN_PROCESSES: the first name "kernel" becomes "" and its bytes trail behind. */
	be16_store(P(b) + 12 + 14, 0);
}

static void strings_checked(void **state)
{
	(void)state;
	assert_int_equal(patched(kind_of("claim"), string_past_frame), -PROTO_E_STRING);
	assert_int_equal(patched(kind_of("hello"), string_with_nul), -PROTO_E_STRING);
	assert_int_equal(patched(kind_of("processes"), empty_required_name), -PROTO_E_STRING);

	/* A string one byte over its field's limit, written by hand. */
	uint8_t buf[BUF];
	struct proto_frame f;
	size_t at = PROTO_HEADER_SIZE;
	be32_store(buf + at, PROTO_MAGIC);
	be16_store(buf + at + 4, PROTO_MAJOR);
	be16_store(buf + at + 6, PROTO_MINOR);
	be16_store(buf + at + 8, PROTO_NAME_MAX + 1);
	memset(buf + at + 10, 'x', PROTO_NAME_MAX + 1);
	be16_store(buf + at + 10 + PROTO_NAME_MAX + 1, 0);
	size_t payload = 10 + PROTO_NAME_MAX + 1 + 2;
	set_payload_size(buf, payload);
	be16_store(buf + 4, PROTO_HELLO);
	be16_store(buf + 6, 0);
	be32_store(buf + 8, 1);
	assert_int_equal(proto_frame_parse(buf, at + payload, &f), (int)(at + payload));
	struct proto_hello h;
	assert_int_equal(proto_decode_hello(&f, &h), -PROTO_E_STRING);

	/* The encoders refuse the same. */
	char longname[PROTO_NAME_MAX + 2];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	struct proto_hello bad = hello;
	bad.client = proto_cstr(longname);
	assert_int_equal(proto_encode_hello(buf, sizeof buf, 1, 0, &bad), -PROTO_E_STRING);
	bad.client.len = PROTO_NAME_MAX;
	assert_true(proto_encode_hello(buf, sizeof buf, 1, 0, &bad) > 0);
	bad.client = (struct proto_str){ "a\0b", 3 };
	assert_int_equal(proto_encode_hello(buf, sizeof buf, 1, 0, &bad), -PROTO_E_STRING);
	bad.client = (struct proto_str){ NULL, 3 };
	assert_int_equal(proto_encode_hello(buf, sizeof buf, 1, 0, &bad), -PROTO_E_STRING);
	struct proto_claim c = { PROTO_STR("") };
	assert_int_equal(proto_encode_claim(buf, sizeof buf, 1, 0, &c), -PROTO_E_STRING);
	struct proto_builder b;
	struct proto_process p = processes[0];
	p.name = PROTO_STR("");
	assert_int_equal(proto_begin_scan_processes(&b, buf, sizeof buf, 1, 0, &scan_head), 0);
	assert_int_equal(proto_add_process(&b, &p), -PROTO_E_STRING);
	struct proto_error_msg e = error_msg;
	char text[PROTO_TEXT_MAX + 2];
	memset(text, 't', sizeof text - 1);
	text[sizeof text - 1] = '\0';
	e.text = proto_cstr(text);
	assert_int_equal(proto_encode_error(buf, sizeof buf, 1, 0, &e), -PROTO_E_STRING);
}

static void str_helpers(void **state)
{
	(void)state;
	char out[4];
	struct proto_str s = proto_cstr("httpd");
	assert_int_equal(s.len, 5);
	assert_int_equal(proto_cstr(NULL).len, 0);
	assert_int_equal(proto_str_copy(out, sizeof out, s), 3);
	assert_string_equal(out, "htt");
	assert_int_equal(proto_str_copy(out, sizeof out, PROTO_STR("")), 0);
	assert_string_equal(out, "");
	assert_int_equal(proto_str_copy(out, 0, s), 0);
	assert_true(proto_str_eq(s, "httpd"));
	assert_false(proto_str_eq(s, "http"));
	assert_false(proto_str_eq(s, "httpd2"));
	assert_true(proto_str_eq(PROTO_STR(""), ""));
}

/* Decoders: frames whose fields contradict each other. */
#define PATCH16(name, off, val)                                                            \
	static void name(uint8_t *b, struct proto_frame *f)                                \
	{                                                                                  \
		(void)f;                                                                   \
		be16_store(P(b) + (off), (val));                                           \
	}
#define PATCH32(name, off, val)                                                            \
	static void name(uint8_t *b, struct proto_frame *f)                                \
	{                                                                                  \
		(void)f;                                                                   \
		be32_store(P(b) + (off), (val));                                           \
	}
#define PATCH64(name, off, val)                                                            \
	static void name(uint8_t *b, struct proto_frame *f)                                \
	{                                                                                  \
		(void)f;                                                                   \
		be64_store(P(b) + (off), (val));                                           \
	}
PATCH16(sample_kernel_and_user, 8 + 40, PROTO_SMP_KERNEL | PROTO_SMP_USER)
PATCH16(sample_neither_mode, 8 + 40, PROTO_SMP_TRUNCATED)
PATCH16(sample_object_but_no_object, 8 + 40, PROTO_SMP_KERNEL | PROTO_SMP_NO_OBJECT)
PATCH64(count_running_over_enabled, 24 + 6 + 16, 4001)
PATCH64(counts_start_after_end, 4, 9001)
PATCH64(lock_contended_more_than_acquired, 20 + 34, 1001)
PATCH64(lock_wait_max_over_total, 20 + 50, 5001)
PATCH16(config_shares_99, 20 + 2 + 3, 59)
PATCH16(config_share_0, 20 + 2 + 3, 0)
PATCH16(config_unit_4, 4, 4)
PATCH16(config_chain_without_depth, 16, 0)
PATCH16(config_unknown_flag, 6, 0x0103)
PATCH16(config_neither_mode, 6, PROTO_CFG_CALLCHAIN)
PATCH16(event_counts_without_sampling_but_no_reason, 8, PROTO_EV_COUNTS_HERE << 8)
PATCH16(event_source_3, 8, 0x0300 | PROTO_EV_COUNTS_HERE | PROTO_EV_CAN_SAMPLE |
        PROTO_EV_SAMPLES_HERE)
PATCH16(catalogue_total_too_small, 0, 4)
PATCH16(welcome_without_role, 10, PROTO_ROLE_NONE)
PATCH32(welcome_without_id, 12, 0)
PATCH16(refusal_with_role, 10, PROTO_ROLE_OBSERVER)
PATCH16(error_code_0, 0, 0)
PATCH16(scan_nothing, 4, 0)
PATCH16(scan_unknown_bit, 4, 0x0005)
PATCH32(start_unknown_stream, 0, 0x10)
PATCH32(start_interval_too_short, 4, 999)
PATCH16(object_single_and_per_cpu, 12 + 24, PROTO_OBJ_SINGLE_REP | PROTO_OBJ_PER_CPU)
PATCH16(lost_pmc_9, 20 + 2, 9)
PATCH64(symbol_before_its_start, 16, 0xC000000000000FFFull)
PATCH64(unknown_symbol_with_start, 16 + 2 * 22 + 5 + 14 + 8, 1)

static void inconsistent_frames(void **state)
{
	(void)state;
	static const struct {
		const char *kind;
		void (*patch)(uint8_t *, struct proto_frame *);
	} cases[] = {
		{ "samples", sample_kernel_and_user },
		{ "samples", sample_neither_mode },
		{ "samples", sample_object_but_no_object },
		{ "counts", count_running_over_enabled },
		{ "counts", counts_start_after_end },
		{ "locks", lock_contended_more_than_acquired },
		{ "locks", lock_wait_max_over_total },
		{ "config", config_shares_99 },
		{ "config", config_share_0 },
		{ "config", config_unit_4 },
		{ "config", config_chain_without_depth },
		{ "config", config_unknown_flag },
		{ "config", config_neither_mode },
		{ "catalogue", event_counts_without_sampling_but_no_reason },
		{ "catalogue", event_source_3 },
		{ "catalogue", catalogue_total_too_small },
		{ "welcome", welcome_without_role },
		{ "welcome", welcome_without_id },
		{ "refusal", refusal_with_role },
		{ "error", error_code_0 },
		{ "scan_request", scan_nothing },
		{ "scan_request", scan_unknown_bit },
		{ "start", start_unknown_stream },
		{ "start", start_interval_too_short },
		{ "objects", object_single_and_per_cpu },
		{ "lost", lost_pmc_9 },
		{ "symbols", symbol_before_its_start },
		{ "symbols", unknown_symbol_with_start },
	};
	for (size_t i = 0; i < N(cases); i++) {
		int err = patched(kind_of(cases[i].kind), cases[i].patch);
		if (err != -PROTO_E_INCONSISTENT)
			fail_msg("case %zu (%s): %s", i, cases[i].kind, proto_strerror(err));
	}
}

/* Encoders: the same contradictions never leave the sender. */
static void inconsistent_messages_not_encoded(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_builder b;

	struct proto_sample s = samples[0];
	s.flags |= PROTO_SMP_USER;
	assert_int_equal(proto_begin_samples(&b, buf, sizeof buf, 0, 0, &samples_head), 0);
	assert_int_equal(proto_add_sample(&b, &s), -PROTO_E_INCONSISTENT);
	s = samples[0];
	s.depth = PROTO_MAX_CHAIN + 1;
	assert_int_equal(proto_add_sample(&b, &s), -PROTO_E_COUNT);

	static struct proto_pmu_config c;
	c = config;
	c.groups[1].share = 41;
	assert_int_equal(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c), -PROTO_E_INCONSISTENT);
	c = config;
	c.groups[1].events[2].name = PROTO_STR("PM_DTLB_MISS");     /* twice in one group */
	assert_int_equal(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c), -PROTO_E_INCONSISTENT);
	c = config;
	c.groups[1].name = PROTO_STR("ipc");                        /* two groups, one name */
	assert_int_equal(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c), -PROTO_E_INCONSISTENT);
	c = config;
	c.groups[0].n_events = 0;
	assert_int_equal(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c), -PROTO_E_COUNT);
	c = config;
	c.slice = 0;
	assert_int_equal(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c), -PROTO_E_INCONSISTENT);
	c = config;
	c.n_groups = 0;                  /* clearing the configuration is fine */
	assert_true(proto_encode_pmu_config(buf, sizeof buf, 1, 0, &c) > 0);

	struct proto_server_hello sh = refusal;
	sh.reason = PROTO_STR("");       /* a refusal always says why */
	assert_int_equal(proto_encode_server_hello(buf, sizeof buf, 1, 0, &sh),
	                 -PROTO_E_INCONSISTENT);
	sh = welcome;
	sh.target.cpus = 0;
	assert_int_equal(proto_encode_server_hello(buf, sizeof buf, 1, 0, &sh),
	                 -PROTO_E_INCONSISTENT);

	struct proto_event e = events[1];
	e.why_not = PROTO_STR("");       /* does not count, and does not say why */
	struct proto_catalogue_head ch = { 5, 0 };
	assert_int_equal(proto_begin_event_catalogue(&b, buf, sizeof buf, 1, 0, &ch), 0);
	assert_int_equal(proto_add_event(&b, &e), -PROTO_E_INCONSISTENT);
	e = events[0];
	e.why_not = PROTO_STR("but it counts and samples");
	assert_int_equal(proto_add_event(&b, &e), -PROTO_E_INCONSISTENT);
	/* 1.3's basis and mode bits: only on what counts; assumed only for hardware. */
	e = events[1];
	e.flags |= PROTO_EV_ASSUMED;
	assert_int_equal(proto_add_event(&b, &e), -PROTO_E_INCONSISTENT);
	e.flags = (uint8_t)(events[1].flags | PROTO_EV_MODES_FILTERED);
	assert_int_equal(proto_add_event(&b, &e), -PROTO_E_INCONSISTENT);
	e = events[0];
	e.flags |= PROTO_EV_ASSUMED | PROTO_EV_MODES_FILTERED;
	assert_int_equal(proto_add_event(&b, &e), 0);
	e.source = PROTO_SRC_SW;
	assert_int_equal(proto_add_event(&b, &e), -PROTO_E_INCONSISTENT);

	struct proto_count cnt = counts[0];
	cnt.running = cnt.enabled + 1;
	struct proto_counts_head chd = counts_head;
	assert_int_equal(proto_begin_interval_counts(&b, buf, sizeof buf, 0, 0, &chd), 0);
	assert_int_equal(proto_add_count(&b, &cnt), -PROTO_E_INCONSISTENT);
	chd.start = chd.end + 1;
	assert_int_equal(proto_begin_interval_counts(&b, buf, sizeof buf, 0, 0, &chd),
	                 -PROTO_E_INCONSISTENT);

	struct proto_lock l = locks[0];
	l.qlen_samples = 0;
	assert_int_equal(proto_begin_lock_stats(&b, buf, sizeof buf, 0, 0, &interval), 0);
	assert_int_equal(proto_add_lock(&b, &l), -PROTO_E_INCONSISTENT);

	struct proto_symbol sym = symbols[0];
	sym.addr = sym.start + sym.size;  /* just past the symbol */
	assert_int_equal(proto_begin_symbols(&b, buf, sizeof buf, 1, 0, &symbols_head), 0);
	assert_int_equal(proto_add_symbol(&b, &sym), -PROTO_E_INCONSISTENT);

	struct proto_start st = { 0, 0 };
	assert_int_equal(proto_encode_start(buf, sizeof buf, 1, 0, &st), -PROTO_E_INCONSISTENT);
	struct proto_scan_request sr = { 1, 0 };
	assert_int_equal(proto_encode_scan_request(buf, sizeof buf, 1, 0, &sr),
	                 -PROTO_E_INCONSISTENT);
	struct proto_error_msg em = error_msg;
	em.code = 0;
	assert_int_equal(proto_encode_error(buf, sizeof buf, 1, 0, &em), -PROTO_E_INCONSISTENT);
	struct proto_object o = objects[0];
	o.flags |= PROTO_OBJ_SINGLE_REP;
	assert_int_equal(proto_begin_scan_objects(&b, buf, sizeof buf, 1, 0, &scan_head), 0);
	assert_int_equal(proto_add_object(&b, &o), -PROTO_E_INCONSISTENT);
	struct proto_lost lo = losts[0];
	lo.pmc = 9;
	assert_int_equal(proto_begin_lost_samples(&b, buf, sizeof buf, 0, 0, &interval), 0);
	assert_int_equal(proto_add_lost(&b, &lo), -PROTO_E_INCONSISTENT);
}

/* Encodes a HELLO-shaped frame by hand: any magic and version, then `tail`. */
static size_t raw_hello(uint8_t *buf, uint32_t magic, uint16_t major, uint16_t minor,
                        const void *tail, size_t tail_len)
{
	be16_store(buf + 4, PROTO_HELLO);
	be16_store(buf + 6, 0);
	be32_store(buf + 8, 1);
	be32_store(P(buf), magic);
	be16_store(P(buf) + 4, major);
	be16_store(P(buf) + 6, minor);
	memcpy(P(buf) + 8, tail, tail_len);
	set_payload_size(buf, 8 + tail_len);
	return PROTO_HEADER_SIZE + 8 + tail_len;
}

/* The server refuses with a readable reason; the client reads it back. */
static void refuse(const struct proto_hello *h, int err, char *reason, size_t n,
                   struct proto_server_hello *client_sees)
{
	uint8_t buf[BUF];
	struct proto_frame f;
	int len = proto_refusal_text(h, err, reason, n);
	assert_true(len > 0 && (size_t)len < n);
	struct proto_server_hello sh = {
		.magic = PROTO_MAGIC, .major = PROTO_MAJOR, .minor = PROTO_MINOR,
		.status = (uint16_t)-err, .role = PROTO_ROLE_NONE, .client_id = 0,
		.reason = proto_cstr(reason),
	};
	int fl = proto_encode_server_hello(buf, sizeof buf, 1, 0, &sh);
	assert_true(fl > 0);
	assert_int_equal(proto_frame_parse(buf, (size_t)fl, &f), fl);
	assert_int_equal(proto_decode_server_hello(&f, client_sees), 0);
	assert_int_equal(client_sees->status, -err);
	assert_int_equal(client_sees->role, PROTO_ROLE_NONE);
	assert_true(proto_str_eq(client_sees->reason, reason));
	assert_true(proto_error_fatal(err));
}

static void wrong_magic(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	struct proto_hello h;
	static const uint8_t tail[] = { 0, 2, 'h', 'i', 0, 0 };
	size_t n = raw_hello(buf, 0x4B4F5658u /* "KOVX" */, PROTO_MAJOR, PROTO_MINOR, tail,
	                     sizeof tail);
	assert_int_equal(proto_frame_parse(buf, n, &f), (int)n);
	assert_int_equal(proto_decode_hello(&f, &h), -PROTO_E_BAD_MAGIC);
	assert_int_equal(h.magic, 0x4B4F5658u);
	char reason[256];
	struct proto_server_hello seen;
	refuse(&h, -PROTO_E_BAD_MAGIC, reason, sizeof reason, &seen);
	assert_non_null(strstr(reason, "0x4b4f5658"));
	assert_int_equal(seen.status, PROTO_E_BAD_MAGIC);

	/* A server hello of another magic is not one. */
	int len = build_welcome(buf, sizeof buf);
	be32_store(P(buf), 0x12345678);
	assert_int_equal(proto_frame_parse(buf, (size_t)len, &f), len);
	struct proto_server_hello sh;
	assert_int_equal(proto_decode_server_hello(&f, &sh), -PROTO_E_BAD_MAGIC);

	/* Something that is not KOV at all is refused at its first four bytes. */
	static const char http[] = "GET / HTTP/1.1\r\nHost: kov\r\n\r\n";
	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_reader r;
	proto_reader_init(&r, rbuf, sizeof rbuf);
	const uint8_t *p = (const uint8_t *)http;
	size_t left = sizeof http - 1;
	assert_int_equal(proto_reader_feed(&r, &p, &left, &f), -PROTO_E_TOO_BIG);
	assert_int_equal(left, sizeof http - 1 - 4);
}

static void incompatible_major(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	struct proto_hello h;
	/* A 2.7 client: whatever follows its prefix is not read. */
	static const uint8_t tail[] = { 0xDE, 0xAD, 0xBE, 0xEF, 0xFF, 0xFF, 0x00 };
	size_t n = raw_hello(buf, PROTO_MAGIC, 2, 7, tail, sizeof tail);
	assert_int_equal(proto_frame_parse(buf, n, &f), (int)n);
	assert_int_equal(proto_decode_hello(&f, &h), -PROTO_E_VERSION);
	assert_int_equal(h.major, 2);
	assert_int_equal(h.minor, 7);
	assert_int_equal(h.client.len, 0);
	char reason[256];
	struct proto_server_hello seen;
	refuse(&h, -PROTO_E_VERSION, reason, sizeof reason, &seen);
	assert_non_null(strstr(reason, "2.7"));
	char ours[16];
	snprintf(ours, sizeof ours, "%d.%d", PROTO_MAJOR, PROTO_MINOR);
	assert_non_null(strstr(reason, ours));
	assert_non_null(strstr(reason, "major"));
	/* The same minor-version difference is fine: 1.9 decodes. */
	n = raw_hello(buf, PROTO_MAGIC, PROTO_MAJOR, 9, (const uint8_t[]){ 0, 0, 0, 0 }, 4);
	assert_int_equal(proto_frame_parse(buf, n, &f), (int)n);
	assert_int_equal(proto_decode_hello(&f, &h), 0);
	assert_int_equal(h.minor, 9);
	/* A HELLO cut inside its fixed prefix. */
	set_payload_size(buf, 6);
	assert_int_equal(proto_frame_parse(buf, PROTO_HEADER_SIZE + 6, &f), PROTO_HEADER_SIZE + 6);
	assert_int_equal(proto_decode_hello(&f, &h), -PROTO_E_TRUNCATED);
	/* Other decode errors have a reason too. */
	assert_true(proto_refusal_text(&h, -PROTO_E_STRING, reason, sizeof reason) > 0);
	assert_non_null(strstr(reason, "bad HELLO"));
}

/* A client of this version meets a server of another major: it still learns why. */
static void server_of_another_major(void **state)
{
	(void)state;
	uint8_t buf[BUF];
	struct proto_frame f;
	struct proto_server_hello sh;
	static const char why[] = "this server speaks KOV protocol 3.1 only";
	size_t at = PROTO_HEADER_SIZE;
	be16_store(buf + 4, PROTO_SERVER_HELLO);
	be16_store(buf + 6, 0);
	be32_store(buf + 8, 1);
	be32_store(buf + at, PROTO_MAGIC);
	be16_store(buf + at + 4, 3);
	be16_store(buf + at + 6, 1);
	be16_store(buf + at + 8, PROTO_E_VERSION);
	be16_store(buf + at + 10, PROTO_ROLE_NONE);
	be32_store(buf + at + 12, 0);
	be16_store(buf + at + 16, sizeof why - 1);
	memcpy(buf + at + 18, why, sizeof why - 1);
	memset(buf + at + 18 + sizeof why - 1, 0xEE, 9);        /* 3.x fields after the reason */
	size_t payload = 18 + sizeof why - 1 + 9;
	set_payload_size(buf, payload);
	assert_int_equal(proto_frame_parse(buf, at + payload, &f), (int)(at + payload));
	assert_int_equal(proto_decode_server_hello(&f, &sh), -PROTO_E_VERSION);
	assert_int_equal(sh.major, 3);
	assert_int_equal(sh.status, PROTO_E_VERSION);
	assert_true(proto_str_eq(sh.reason, why));
	assert_int_equal(sh.target.cpus, 0);
}

static void check_at(int want, uint16_t type, uint16_t flags, uint32_t req, enum proto_side side,
                     enum proto_role role)
{
	struct proto_frame f = { type, flags, req, NULL, 0 };
	int got = proto_check_incoming(&f, side, role);
	if (got != want)
		fail_msg("%s flags %x req %u at %s as role %d: %d, want %d", proto_type_name(type),
		         flags, req, side == PROTO_SIDE_SERVER ? "server" : "client", role, got, want);
}

static void roles_and_directions(void **state)
{
	(void)state;
	const enum proto_side S = PROTO_SIDE_SERVER, C = PROTO_SIDE_CLIENT;
	const enum proto_role NONE = PROTO_ROLE_NONE, OBS = PROTO_ROLE_OBSERVER,
	                      CTL = PROTO_ROLE_CONTROLLER;
	assert_true(proto_requires_controller(PROTO_PMU_CONFIG));
	assert_true(proto_requires_controller(PROTO_START));
	assert_true(proto_requires_controller(PROTO_STOP));
	static const uint16_t free_for_all[] = {
		PROTO_HELLO, PROTO_PING, PROTO_CLAIM_CONTROL, PROTO_STATUS_GET, PROTO_SCAN_REQUEST,
		PROTO_SYMBOL_LOOKUP, PROTO_SYMBOL_TABLE_GET, PROTO_CATALOGUE_GET, PROTO_CONFIG_GET,
		PROTO_ERROR, 0x7777,
	};
	for (size_t i = 0; i < N(free_for_all); i++) {
		assert_false(proto_requires_controller(free_for_all[i]));
		if (free_for_all[i] != PROTO_HELLO && free_for_all[i] != 0x7777)
			check_at(0, free_for_all[i], 0, 5, S, OBS);
	}

	/* An observer may not configure, start or stop; it is told so and stays connected. */
	check_at(-PROTO_E_NOT_CONTROLLER, PROTO_START, 0, 5, S, OBS);
	check_at(-PROTO_E_NOT_CONTROLLER, PROTO_STOP, 0, 5, S, OBS);
	check_at(-PROTO_E_NOT_CONTROLLER, PROTO_PMU_CONFIG, 0, 5, S, OBS);
	assert_false(proto_error_fatal(-PROTO_E_NOT_CONTROLLER));
	check_at(0, PROTO_START, 0, 5, S, CTL);
	check_at(0, PROTO_PMU_CONFIG, 0, 5, S, CTL);

	/* HELLO first and once; answers only from the server; requests carry an id. */
	check_at(0, PROTO_HELLO, 0, 1, S, NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SCAN_REQUEST, 0, 5, S, NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_HELLO, 0, 5, S, OBS);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SAMPLES, 0, 5, S, CTL);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SERVER_HELLO, 0, 5, S, NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_PING, 0, 0, S, OBS);
	check_at(-PROTO_E_UNEXPECTED, PROTO_PING, PROTO_F_MORE, 5, S, OBS);
	assert_true(proto_error_fatal(-PROTO_E_UNEXPECTED));

	/* The client's side. */
	check_at(0, PROTO_SERVER_HELLO, 0, 1, C, NONE);
	check_at(0, PROTO_ERROR, 0, 1, C, NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SAMPLES, 0, 0, C, NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SERVER_HELLO, 0, 1, C, OBS);
	check_at(0, PROTO_SAMPLES, 0, 0, C, OBS);
	check_at(0, PROTO_PMU_CONFIG, 0, 0, C, OBS);     /* pushed to everyone when it changes */
	check_at(0, PROTO_SCAN_OBJECTS, PROTO_F_MORE, 5, C, OBS);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SAMPLES, PROTO_F_MORE, 0, C, OBS);
	check_at(-PROTO_E_UNEXPECTED, PROTO_HELLO, 0, 1, C, OBS);
	check_at(-PROTO_E_UNEXPECTED, PROTO_START, 0, 1, C, CTL);

	/* Under backpressure only data may be dropped, never a report of loss. */
	assert_true(proto_droppable(PROTO_SAMPLES));
	assert_true(proto_droppable(PROTO_INTERVAL_COUNTS));
	assert_true(proto_droppable(PROTO_LOCK_STATS));
	assert_true(proto_droppable(PROTO_INVOCATIONS));
	assert_false(proto_droppable(PROTO_LOST_SAMPLES));
	assert_false(proto_droppable(PROTO_DROPPED));
	assert_false(proto_droppable(PROTO_STATUS));
	assert_false(proto_droppable(PROTO_SCAN_OBJECTS));
	assert_string_equal(proto_type_name(PROTO_LOCK_STATS), "LOCK_STATS");
}

static void error_texts(void **state)
{
	(void)state;
	for (int i = 1; i <= PROTO_E_MAX; i++) {
		const char *t = proto_strerror(-i);
		assert_non_null(t);
		assert_true(strlen(t) > 5);
		assert_ptr_equal(t, proto_strerror(i));
		for (int j = 1; j < i; j++)
			assert_string_not_equal(t, proto_strerror(j));
	}
	assert_string_equal(proto_strerror(0), "no error");
	assert_string_equal(proto_strerror(PROTO_E_MAX + 1), "unknown error");
	assert_string_equal(proto_strerror(-30000), "unknown error");
	assert_false(proto_error_fatal(0));
	assert_true(proto_error_fatal(PROTO_E_TRUNCATED));
	assert_true(proto_error_fatal(PROTO_E_DENIED));
	assert_true(proto_error_fatal(PROTO_E_OVERLOAD));
	assert_false(proto_error_fatal(PROTO_E_BUSY));
	assert_false(proto_error_fatal(PROTO_E_CONFIG));
	assert_false(proto_error_fatal(PROTO_E_NOT_FOUND));
	assert_true(proto_error_fatal(999));
}

/* ---- fuzz ------------------------------------------------------------------------------ */

#define FUZZ_ITERATIONS 200000

static void put_interesting(uint8_t *b, size_t len, size_t width)
{
	static const uint32_t values[] = { 0, 1, 2, 7, 8, 16, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF,
	                                   0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0xFFFFFFFF };
	if (len < width)
		return;
	size_t at = rng() % (len - width + 1);
	uint32_t v = values[rng() % N(values)];
	if (rng() % 4 == 0)
		v = (uint32_t)len - (uint32_t)at + rng() % 5 - 2;   /* near the bytes that are left */
	if (width == 2)
		be16_store(b + at, (uint16_t)v);
	else
		be32_store(b + at, v);
}

/* One to four mutations of a valid frame; usually the length prefix is then made to agree,
 * so that the payload decoders, not just the framing, see the damage. */
static size_t mutate(uint8_t *b, size_t len, size_t cap)
{
	int n = 1 + (int)(rng() % 4);
	for (int i = 0; i < n; i++) {
		switch (rng() % 9) {
		case 0:
			if (len)
				b[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
			break;
		case 1:
			if (len)
				b[rng() % len] = (uint8_t)rng();
			break;
		case 2:
			if (len > PROTO_HEADER_SIZE)
				b[PROTO_HEADER_SIZE + rng() % (len - PROTO_HEADER_SIZE)] =
					(uint8_t[]){ 0, 1, 0x7F, 0x80, 0xFF }[rng() % 5];
			break;
		case 3:
			put_interesting(b, len, 2);
			break;
		case 4:
			put_interesting(b, len, 4);
			break;
		case 5:
			if (len)
				len = rng() % len;
			break;
		case 6:
			if (len > PROTO_HEADER_SIZE) {
				size_t at = rng() % len;
				memmove(b + at, b + at + 1, len - at - 1);
				len--;
			}
			break;
		case 7:
			if (len < cap) {
				size_t at = rng() % (len + 1);
				memmove(b + at + 1, b + at, len - at);
				b[at] = (uint8_t)rng();
				len++;
			}
			break;
		default:
			if (len > PROTO_HEADER_SIZE)        /* a random type with a valid body */
				be16_store(b + 4, (uint16_t)kinds[rng() % KINDS].type);
			break;
		}
	}
	if (len >= 4 && rng() % 4 != 0)
		be32_store(b, (uint32_t)(len - 4));
	return len;
}

static void fuzz_decoders_stay_in_bounds(void **state)
{
	(void)state;
	static uint8_t corpus[KINDS][BUF];
	static size_t sizes[KINDS];
	static uint8_t work[BUF + 64];
	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_frame f;
	for (size_t k = 0; k < KINDS; k++)
		sizes[k] = (size_t)make(k, corpus[k], &f);

	rng_state = 0x2545F4914F6CDD1Dull;
	unsigned parsed = 0, valid = 0, rejected = 0;
	for (unsigned i = 0; i < FUZZ_ITERATIONS; i++) {
		size_t k = rng() % KINDS;
		memcpy(work, corpus[k], sizes[k]);
		size_t len = mutate(work, sizes[k], sizeof work);
		/* Exactly the mutant's size on the heap: a read past it is caught by the tools. */
		uint8_t *frame = malloc(len ? len : 1);
		memcpy(frame, work, len);
		int n = proto_frame_parse(frame, len, &f);
		if (n > 0) {
			parsed++;
			assert_true((size_t)n <= len);
			int err = proto_validate(&f);
			assert_true(err <= 0 && err >= -PROTO_E_MAX);
			assert_int_not_equal(err, -PROTO_E_INTERNAL);
			assert_int_equal(proto_validate(&f), err);
			if (err == 0)
				valid++;
			else
				rejected++;
			(void)proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
			(void)proto_check_incoming(&f, PROTO_SIDE_CLIENT, PROTO_ROLE_NONE);
		} else {
			assert_true(n == -PROTO_E_TRUNCATED || n == -PROTO_E_LENGTH ||
			            n == -PROTO_E_TOO_BIG);
		}
		if (i % 16 == 0) {                   /* the reader, in random pieces */
			struct proto_reader r;
			struct proto_frame g;
			proto_reader_init(&r, rbuf, 1 + rng() % sizeof rbuf);
			const uint8_t *p = frame;
			size_t left = len;
			while (left) {
				size_t piece = 1 + rng() % 64, give = piece < left ? piece : left;
				size_t before = give;
				int rc;
				while ((rc = proto_reader_feed(&r, &p, &give, &g)) == 1)
					(void)proto_validate(&g);
				left -= before - give;
				if (rc < 0)
					break;
			}
		}
		free(frame);
	}
	print_message("%u mutants: %u framed (%u valid, %u refused by the decoders)\n",
	              FUZZ_ITERATIONS, parsed, valid, rejected);
	/* The mutations reach the decoders, and some survive (flipped payload values). */
	assert_true(parsed > FUZZ_ITERATIONS / 2);
	assert_true(rejected > FUZZ_ITERATIONS / 4);
	assert_true(valid > FUZZ_ITERATIONS / 100);
}

/* ---- malformed frames, systematically --------------------------------------------------
 * Every kind's frame with every mutation of a fixed set: cut short at every length, trailing
 * bytes, each payload byte set to telling values, each u16 and u32 position set to boundary
 * values (counts at and past their limits, enum values past the known ones), a byte inserted
 * or deleted everywhere, and the payload under every other type. Each mutant is either valid
 * or refused with what is wrong with it: never INTERNAL, which says the codec failed. */

struct sweep {
	unsigned frames, valid;
	unsigned by_error[PROTO_E_MAX + 1];
};

static void sweep_one(struct sweep *sw, uint8_t *m, size_t n, uint16_t kind_type, size_t at)
{
	be32_store(m, (uint32_t)(n - 4));
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(m, n, &f), (int)n);
	int err = proto_validate(&f);
	sw->frames++;
	if (err == -PROTO_E_INTERNAL)
		fail_msg("type 0x%04x (a %s frame mutated at byte %zu): INTERNAL", f.type,
		         proto_type_name(kind_type), at);
	assert_true(err <= 0 && err > -PROTO_E_MAX);
	sw->by_error[-err]++;
	sw->valid += err == 0;
	int rule = proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
	assert_int_not_equal(rule, -PROTO_E_INTERNAL);
}

static void sweep_values(struct sweep *sw, const uint8_t *b, size_t n, uint16_t type, uint8_t *m)
{
	static const uint8_t bytes[] = { 0, 1, 2, 3, 4, 7, 8, 0x10, 0x11, 0x20, 0x21, 0x40, 0x7F,
	                                 0x80, 0xFE, 0xFF };
	static const uint32_t words[] = { 0, 1, 2, 16, 17, 32, 33, 64, 65, 100, 101, 1000, 0x7FFF,
	                                  0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0xFFFFFFFF };
	for (size_t i = PROTO_HEADER_SIZE; i < n; i++) {
		for (size_t v = 0; v < N(bytes); v++) {
			memcpy(m, b, n);
			m[i] = bytes[v];
			sweep_one(sw, m, n, type, i);
		}
		for (size_t v = 0; v < N(words); v++) {
			if (i + 2 <= n) {
				memcpy(m, b, n);
				be16_store(m + i, (uint16_t)words[v]);
				sweep_one(sw, m, n, type, i);
			}
			if (i + 4 <= n) {
				memcpy(m, b, n);
				be32_store(m + i, words[v]);
				sweep_one(sw, m, n, type, i);
			}
		}
	}
}

static void sweep_shapes(struct sweep *sw, const uint8_t *b, size_t n, uint16_t type, uint8_t *m)
{
	for (size_t k = PROTO_HEADER_SIZE; k < n; k++) {       /* cut short */
		memcpy(m, b, k);
		sweep_one(sw, m, k, type, k);
	}
	for (size_t t = 1; t <= 9; t++) {                        /* trailing bytes */
		memcpy(m, b, n);
		memset(m + n, t & 1 ? 0xA5 : 0, t);
		sweep_one(sw, m, n + t, type, n);
	}
	for (size_t i = PROTO_HEADER_SIZE; i < n; i++) {       /* a byte more, a byte less */
		memcpy(m, b, i);
		m[i] = 0;
		memcpy(m + i + 1, b + i, n - i);
		sweep_one(sw, m, n + 1, type, i);
		memcpy(m + i, b + i + 1, n - i - 1);
		sweep_one(sw, m, n - 1, type, i);
	}
	for (size_t k = 0; k < KINDS; k++) {                     /* another type's payload */
		memcpy(m, b, n);
		be16_store(m + 4, kinds[k].type);
		sweep_one(sw, m, n, type, 4);
	}
}

static void malformed_frames_are_never_internal(void **state)
{
	(void)state;
	static uint8_t b[BUF], m[BUF + 16];
	struct proto_frame f;
	struct sweep sw = { 0 };
	for (size_t k = 0; k < KINDS; k++) {
		size_t n = (size_t)make(k, b, &f);
		sweep_shapes(&sw, b, n, kinds[k].type, m);
		sweep_values(&sw, b, n, kinds[k].type, m);
	}
	print_message("%u mutants of %zu kinds' frames: %u valid, the rest refused thus, none INTERNAL\n",
	              sw.frames, (size_t)KINDS, sw.valid);
	for (int e = 1; e <= PROTO_E_MAX; e++)
		if (sw.by_error[e])
			print_message("  %7u  %s\n", sw.by_error[e], proto_strerror(e));
	/* The mutations reach every check: lengths, counts, strings, values, trailing bytes. */
	assert_true(sw.by_error[PROTO_E_TRUNCATED] && sw.by_error[PROTO_E_TRAILING] &&
	            sw.by_error[PROTO_E_COUNT] && sw.by_error[PROTO_E_STRING] &&
	            sw.by_error[PROTO_E_INCONSISTENT]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_is_big_endian),
		cmocka_unit_test(every_type_round_trips),
		cmocka_unit_test(nested_lists_read_either_way),
		cmocka_unit_test(reader_byte_by_byte),
		cmocka_unit_test(reader_random_chunks),
		cmocka_unit_test(reader_refuses_oversized_prefix_at_once),
		cmocka_unit_test(reader_reports_cut_stream),
		cmocka_unit_test(truncated_frames_at_every_length),
		cmocka_unit_test(truncated_payloads_at_every_length),
		cmocka_unit_test(encoders_respect_capacity),
		cmocka_unit_test(builder_fills_frames_to_the_limit),
		cmocka_unit_test(builder_misuse),
		cmocka_unit_test(unknown_types),
		cmocka_unit_test(counts_beyond_the_payload),
		cmocka_unit_test(strings_checked),
		cmocka_unit_test(str_helpers),
		cmocka_unit_test(inconsistent_frames),
		cmocka_unit_test(inconsistent_messages_not_encoded),
		cmocka_unit_test(wrong_magic),
		cmocka_unit_test(incompatible_major),
		cmocka_unit_test(server_of_another_major),
		cmocka_unit_test(roles_and_directions),
		cmocka_unit_test(error_texts),
		cmocka_unit_test(fuzz_decoders_stay_in_bounds),
		cmocka_unit_test(malformed_frames_are_never_internal),
		cmocka_unit_test(test_lock_contention_inconsistent),
		cmocka_unit_test(platform_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The flame graph's call tree, scopes, callers and search (gui/client/flame.c) and the live
 * stack table (gui/client/livestacks.c), on stacks whose counts are known: two processes of
 * one program, two objects of one class, kernel frames under user ones, 32-frame chains. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/flame.h"
#include "client/livestacks.h"

#define PID 5
#define PID2 6
#define OBJ_A 0xD0000010ull
#define OBJ_B 0xD0000020ull
#define KFN 0xC000000000010000ull

static uint8_t buf[PROTO_MAX_FRAME];

static struct proto_frame parsed(int len)
{
	struct proto_frame f;
	assert_true(len > 0);
	assert_int_equal(proto_frame_parse(buf, (size_t)len, &f), len);
	return f;
}

/* Functions main 0x1000, outer 0x1100, helper 0x1200, method 0x1300 of class Thing (objects
 * A and B) in both processes; the kernel's kfn. */
static void note_names(struct kov_profile_names *n)
{
	struct proto_builder b;
	struct proto_scan_head sh = { 1 };
	assert_int_equal(proto_begin_scan_processes(&b, buf, sizeof buf, 2, 0, &sh), 0);
	struct proto_process pr = { PID, 1, 1, PROTO_PS_RUNNING, PROTO_STR("prog") };
	assert_int_equal(proto_add_process(&b, &pr), 0);
	pr.pid = PID2;
	assert_int_equal(proto_add_process(&b, &pr), 0);
	struct proto_frame f = parsed(proto_finish(&b));
	assert_true(kov_profile_names_note(n, &f));
	assert_int_equal(proto_begin_scan_objects(&b, buf, sizeof buf, 2, 0, &sh), 0);
	uint64_t reps[1] = { 0x10008000 };
	struct proto_object o = { PID, 1, OBJ_A, OBJ_A, PROTO_OBJ_SINGLE_REP, PROTO_STR("Thing"),
				  { reps, NULL, 1 }, { NULL, NULL, 0 } };
	assert_int_equal(proto_add_object(&b, &o), 0);
	o.coid = o.root = OBJ_B;
	assert_int_equal(proto_add_object(&b, &o), 0);
	f = parsed(proto_finish(&b));
	assert_true(kov_profile_names_note(n, &f));
	static const struct proto_symbol user[] = {
		{ 0x1000, 0x1000, 0x100, PROTO_STR("main") },
		{ 0x1100, 0x1100, 0x100, PROTO_STR("outer") },
		{ 0x1200, 0x1200, 0x100, PROTO_STR("helper") },
		{ 0x1300, 0x1300, 0x100, PROTO_STR("method") },
	};
	for (uint32_t pid = PID; pid <= PID2; pid++) {
		struct proto_symbols_head h = { pid, PROTO_STR("prog") };
		assert_int_equal(proto_begin_symbols(&b, buf, sizeof buf, 1, 0, &h), 0);
		for (int i = 0; i < 4; i++)
			assert_int_equal(proto_add_symbol(&b, &user[i]), 0);
		f = parsed(proto_finish(&b));
		assert_true(kov_profile_names_note(n, &f));
	}
	struct proto_symbols_head kh = { 0, PROTO_STR("kernel") };
	struct proto_symbol kern = { KFN, KFN, 0x40, PROTO_STR("kfn") };
	assert_int_equal(proto_begin_symbols(&b, buf, sizeof buf, 1, 0, &kh), 0);
	assert_int_equal(proto_add_symbol(&b, &kern), 0);
	f = parsed(proto_finish(&b));
	assert_true(kov_profile_names_note(n, &f));
}

static struct proto_chain_frame user_fn(uint64_t pc)
{
	return (struct proto_chain_frame){ PROTO_FRAME_USER, pc, 0, 0 };
}

static struct proto_chain_frame method_of(uint64_t coid)
{
	return (struct proto_chain_frame){ PROTO_FRAME_USER | PROTO_FRAME_OBJECT, 0x1310, coid, 1 };
}

/* A raw stack from its frames, outermost first (as one reads a path). */
static struct kov_raw_stack path(uint32_t pid, int n, ...)
{
	struct kov_raw_stack r = { pid, pid, (uint16_t)n, { { 0 } } };
	va_list ap;
	va_start(ap, n);
	for (int i = n - 1; i >= 0; i--)
		r.frames[i] = va_arg(ap, struct proto_chain_frame);
	va_end(ap);
	return r;
}

/* The stacks, with samples:
 *  pid 5: main;outer;Thing::method(A)             40
 *         main;outer;helper;Thing::method(A)      20
 *         main;helper;Thing::method(B)            10
 *         main;outer;Thing::method(A);kfn_[k]      5
 *         main                                     3
 *  pid 6: main;outer;Thing::method(A in pid 6)    22   (another process's object A) */
static struct kov_profile_names *names;

static void build(struct kov_profile *p)
{
	memset(p, 0, sizeof *p);
	p->by_object = true;
	names = kov_profile_names_new();
	assert_non_null(names);
	note_names(names);
	struct kov_raw_stack r[] = {
		path(PID, 3, user_fn(0x1010), user_fn(0x1110), method_of(OBJ_A)),
		path(PID, 4, user_fn(0x1010), user_fn(0x1120), user_fn(0x1210), method_of(OBJ_A)),
		path(PID, 3, user_fn(0x1010), user_fn(0x1210), method_of(OBJ_B)),
		path(PID, 4, user_fn(0x1010), user_fn(0x1110), method_of(OBJ_A),
		     ((struct proto_chain_frame){ 0, KFN + 4, 0, 0 })),
		path(PID, 1, user_fn(0x1020)),
		path(PID2, 3, user_fn(0x1010), user_fn(0x1110), method_of(OBJ_A)),
	};
	static const uint64_t samples[] = { 40, 20, 10, 5, 3, 22 };
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
		assert_true(kov_profile_add(p, names, &r[i], samples[i], samples[i] * 1000) >= 0);
	assert_int_equal(p->samples, 100);
}

static void done(struct kov_profile *p)
{
	kov_profile_free(p);
	kov_profile_names_free(names);
}

/* Every node: total = self + its children's totals; children heaviest first. */
static void check_sums(const struct kov_flame *fl)
{
	uint64_t self = 0;
	for (size_t i = 0; i < fl->n; i++) {
		const struct kov_flame_node *n = &fl->nodes[i];
		uint64_t sum = n->self, last = UINT64_MAX;
		for (uint32_t c = n->child; c != KOV_FLAME_NONE; c = fl->nodes[c].sibling) {
			assert_int_equal(fl->nodes[c].parent, i);
			assert_int_equal(fl->nodes[c].depth, n->depth + 1);
			assert_true(fl->nodes[c].total <= last);
			last = fl->nodes[c].total;
			sum += fl->nodes[c].total;
		}
		assert_int_equal(sum, n->total);
		self += n->self;
	}
	assert_int_equal(self, fl->total);
}

/* Builds fl in scope f and checks its total, stacks and sums. */
static void expect_tree(struct kov_flame *fl, const struct kov_profile *p,
			const struct kov_flame_filter *f, uint64_t total, size_t stacks)
{
	assert_int_equal(kov_flame_build(fl, p, f), 0);
	assert_int_equal(fl->total, total);
	assert_int_equal(fl->stacks, stacks);
	check_sums(fl);
}

/* The node reached from the root along names (outermost first), or NONE. */
static uint32_t find(const struct kov_flame *fl, const struct kov_profile *p, int n, ...)
{
	uint32_t at = 0;
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n && at != KOV_FLAME_NONE; i++) {
		const char *want = va_arg(ap, const char *);
		uint32_t c = fl->nodes[at].child;
		while (c != KOV_FLAME_NONE && strcmp(p->names[fl->nodes[c].name], want))
			c = fl->nodes[c].sibling;
		at = c;
	}
	va_end(ap);
	return at;
}

static void test_whole_target(void **state)
{
	(void)state;
	struct kov_profile p;
	build(&p);
	struct kov_flame fl = { 0 };
	struct kov_flame_filter f = { KOV_FLAME_TARGET, 0, { 0 } };
	expect_tree(&fl, &p, &f, 100, 6);
	assert_int_equal(fl.nodes[0].name, KOV_FLAME_NONE);
	/* Two processes of one program: two roots, heaviest first. */
	uint32_t a = fl.nodes[0].child, b = fl.nodes[a].sibling;
	assert_string_equal(p.names[fl.nodes[a].name], "prog");
	assert_int_equal(fl.nodes[a].total, 78);
	assert_int_equal(p.objects[fl.nodes[a].name].space, PID);
	assert_int_equal(fl.nodes[b].total, 22);
	assert_int_equal(fl.nodes[b].sibling, KOV_FLAME_NONE);
	uint32_t m = find(&fl, &p, 4, "prog", "main", "outer", "Thing::method");
	assert_int_not_equal(m, KOV_FLAME_NONE);
	assert_int_equal(fl.nodes[m].total, 45);
	assert_int_equal(fl.nodes[m].self, 40);
	uint32_t k = find(&fl, &p, 5, "prog", "main", "outer", "Thing::method", "kfn_[k]");
	assert_int_equal(fl.nodes[k].total, 5);
	assert_true(kov_profile_kernel(&p, fl.nodes[k].name));
	uint32_t mn = find(&fl, &p, 2, "prog", "main");
	assert_int_equal(fl.nodes[mn].self, 3);
	assert_int_equal(fl.nodes[mn].total, 78);
	kov_flame_free(&fl);
	done(&p);
}

static void test_one_process(void **state)
{
	(void)state;
	struct kov_profile p;
	build(&p);
	struct kov_flame fl = { 0 };
	struct kov_flame_filter f = { KOV_FLAME_PROCESS, PID2, { 0 } };
	expect_tree(&fl, &p, &f, 22, 1);
	assert_string_equal(p.names[fl.nodes[0].name], "prog");   /* the root: the process */
	assert_int_equal(p.objects[fl.nodes[0].name].space, PID2);
	f.pid = PID;
	expect_tree(&fl, &p, &f, 78, 5);   /* the same tree built again */
	assert_string_equal(p.names[fl.nodes[fl.nodes[0].child].name], "main");
	f.pid = 99;   /* no such process: an empty tree */
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	assert_int_equal(fl.total, 0);
	assert_int_equal(fl.n, 1);
	kov_flame_free(&fl);
	/* A profile that does not tell objects apart has no scope but the whole target. */
	struct kov_profile flat = { 0 };
	struct kov_raw_stack r = path(PID, 1, user_fn(0x1010));
	assert_true(kov_profile_add(&flat, names, &r, 1, 0) >= 0);
	assert_null(flat.objects);
	assert_int_equal(kov_flame_build(&fl, &flat, &f), -1);
	kov_flame_free(&fl);
	kov_profile_free(&flat);
	done(&p);
}

static void test_one_object(void **state)
{
	(void)state;
	struct kov_profile p;
	build(&p);
	struct kov_flame fl = { 0 };
	/* Object A of pid 5: its stacks from its frame down; B's and pid 6's A are others. */
	struct kov_flame_filter f = { KOV_FLAME_OBJECT, 0, { PID, OBJ_A, 1 } };
	expect_tree(&fl, &p, &f, 65, 3);
	assert_int_equal(fl.nodes[0].name, KOV_FLAME_NONE);
	uint32_t m = fl.nodes[0].child;
	assert_int_equal(fl.nodes[m].sibling, KOV_FLAME_NONE);   /* one frame of it: merged */
	assert_string_equal(p.names[fl.nodes[m].name], "Thing::method");
	assert_true(kov_flame_is_object(&p, fl.nodes[m].name, &f.obj));
	assert_int_equal(fl.nodes[m].total, 65);
	assert_int_equal(fl.nodes[m].self, 60);
	assert_string_equal(p.names[fl.nodes[fl.nodes[m].child].name], "kfn_[k]");
	f.obj.coid = OBJ_B;
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	assert_int_equal(fl.total, 10);
	f.obj.gen = 2;   /* another generation: another object */
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	assert_int_equal(fl.total, 0);
	kov_flame_free(&fl);
	done(&p);
}

static void test_callers(void **state)
{
	(void)state;
	struct kov_profile p;
	build(&p);
	struct kov_flame_callers c;
	struct kov_profile_obj a = { PID, OBJ_A, 1 };
	assert_int_equal(kov_flame_callers(&c, &p, &a), 0);
	assert_int_equal(c.total, 65);
	assert_int_equal(c.n, 2);
	assert_string_equal(p.names[c.items[0].name], "outer");
	assert_int_equal(c.items[0].samples, 45);
	assert_string_equal(p.names[c.items[1].name], "helper");
	assert_int_equal(c.items[1].samples, 20);
	double sum = 0;
	for (size_t i = 0; i < c.n; i++)
		sum += c.items[i].share;
	assert_true(sum > 99.999 && sum < 100.001);
	assert_true(c.items[0].share > 69.2 && c.items[0].share < 69.3);
	kov_flame_callers_free(&c);
	struct kov_profile_obj none = { PID, 0xD0000990ull, 1 };
	assert_int_equal(kov_flame_callers(&c, &p, &none), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(c.total, 0);
	kov_flame_callers_free(&c);
	done(&p);
}

static void test_search(void **state)
{
	(void)state;
	struct kov_profile p;
	build(&p);
	struct kov_flame fl = { 0 };
	struct kov_flame_filter f = { KOV_FLAME_TARGET, 0, { 0 } };
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	bool *match = calloc(fl.n, sizeof *match);
	/* "METHOD" in any case: pid 5's A (45 + 20), B (10), pid 6's A (22). */
	assert_int_equal(kov_flame_search(&fl, &p, "METHOD", match), 97);
	size_t hits = 0;
	for (size_t i = 0; i < fl.n; i++)
		hits += match[i];
	assert_int_equal(hits, 4);
	/* "A" matches main (both processes'), and what is under it adds nothing: every sample once. */
	assert_int_equal(kov_flame_search(&fl, &p, "A", match), 100);
	/* helper (20 + 10) and a match inside it (method) adds nothing. */
	assert_int_equal(kov_flame_search(&fl, &p, "help", match), 30);
	assert_int_equal(kov_flame_search(&fl, &p, "kfn", match), 5);
	assert_int_equal(kov_flame_search(&fl, &p, "nothing like it", match), 0);
	assert_int_equal(kov_flame_search(&fl, &p, "", match), 0);
	for (size_t i = 0; i < fl.n; i++)
		assert_false(match[i]);
	free(match);
	kov_flame_free(&fl);
	done(&p);
}

static void test_empty(void **state)
{
	(void)state;
	struct kov_profile p = { .by_object = true };
	struct kov_flame fl = { 0 };
	struct kov_flame_filter f = { KOV_FLAME_TARGET, 0, { 0 } };
	for (int s = KOV_FLAME_TARGET; s <= KOV_FLAME_OBJECT; s++) {
		f.scope = (enum kov_flame_scope)s;
		assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
		assert_int_equal(fl.n, 1);
		assert_int_equal(fl.total, 0);
		assert_int_equal(fl.nodes[0].child, KOV_FLAME_NONE);
	}
	bool match[1];
	assert_int_equal(kov_flame_search(&fl, &p, "x", match), 0);
	struct kov_flame_callers c;
	struct kov_profile_obj a = { PID, OBJ_A, 1 };
	assert_int_equal(kov_flame_callers(&c, &p, &a), 0);
	assert_int_equal(c.n, 0);
	kov_flame_callers_free(&c);
	kov_flame_free(&fl);
}

/* 32-frame chains (the deepest a target sends): a 33-deep path under the root. */
static void test_deep(void **state)
{
	(void)state;
	struct kov_profile p = { .by_object = true };
	names = kov_profile_names_new();
	note_names(names);
	struct kov_raw_stack r = { PID, PID, PROTO_MAX_CHAIN_DEPTH, { { 0 } } };
	for (int i = 0; i < PROTO_MAX_CHAIN_DEPTH; i++)   /* innermost: the object's method */
		r.frames[i] = i == 0 ? method_of(OBJ_A) : user_fn(i % 2 ? 0x1110 : 0x1210);
	assert_true(kov_profile_add(&p, names, &r, 7, 0) >= 0);
	r.frames[5] = user_fn(0x1010);   /* another path from frame 5 up */
	assert_true(kov_profile_add(&p, names, &r, 3, 0) >= 0);
	struct kov_flame fl = { 0 };
	struct kov_flame_filter f = { KOV_FLAME_TARGET, 0, { 0 } };
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	check_sums(&fl);
	uint32_t deepest = 0;
	for (size_t i = 0; i < fl.n; i++)
		if (fl.nodes[i].depth > deepest)
			deepest = fl.nodes[i].depth;
	assert_int_equal(deepest, 1 + PROTO_MAX_CHAIN_DEPTH);   /* the process + 32 frames */
	/* Shared down to frame 5 from the outermost: 26 nodes, then two branches of 6. */
	assert_int_equal(fl.n, 1 + 1 + 26 + 2 * 6);
	struct kov_flame_callers c;
	struct kov_profile_obj a = { PID, OBJ_A, 1 };
	assert_int_equal(kov_flame_callers(&c, &p, &a), 0);
	assert_int_equal(c.total, 10);
	assert_int_equal(c.n, 1);
	assert_string_equal(p.names[c.items[0].name], "outer");
	kov_flame_callers_free(&c);
	f.scope = KOV_FLAME_OBJECT;
	f.obj = a;
	assert_int_equal(kov_flame_build(&fl, &p, &f), 0);
	assert_int_equal(fl.total, 10);
	assert_int_equal(fl.n, 2);
	kov_flame_free(&fl);
	done(&p);
}

static struct proto_frame samples_frame(const struct proto_sample *s, int n)
{
	struct proto_builder b;
	struct proto_samples_head h = { 1 };
	assert_int_equal(proto_begin_samples_chained(&b, buf, sizeof buf, 0, 0, &h), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(proto_add_sample_chained(&b, &s[i]), 0);
	return parsed(proto_finish(&b));
}

/* Samples before names: hex at first, named once the names come; counted incrementally;
 * stacks beyond the table's room counted, not lost. */
static void test_live(void **state)
{
	(void)state;
	struct kov_live_stacks l;
	assert_true(kov_live_init(&l, 3));
	struct proto_builder b;
	struct proto_samples_head h = { 1 };
	struct proto_chain c = { 7, PID, 2, { user_fn(0x1210), user_fn(0x1010) } };
	assert_int_equal(proto_begin_chains(&b, buf, sizeof buf, 0, 0, &h), 0);
	assert_int_equal(proto_add_chain(&b, &c), 0);
	struct proto_frame f = parsed(proto_finish(&b));
	kov_live_frame(&l, &f);
	struct proto_sample s[3] = {
		{ .pc = 0x1210, .pid = PID, .flags = PROTO_SMP_USER | PROTO_SMP_NO_OBJECT, .chain_id = 7 },
		{ .pc = 0x1210, .pid = PID, .flags = PROTO_SMP_USER | PROTO_SMP_NO_OBJECT, .chain_id = 7 },
		{ .pc = 0x1020, .pid = PID, .flags = PROTO_SMP_USER | PROTO_SMP_NO_OBJECT, .chain_id = 8 },
	};
	f = samples_frame(s, 3);
	kov_live_frame(&l, &f);
	assert_int_equal(l.samples, 3);
	assert_int_equal(l.chained, 2);
	assert_int_equal(l.unknown_chain, 1);   /* stands alone: its own pc */
	assert_int_equal(l.n_raw, 2);
	assert_int_equal(l.prof.samples, 3);
	assert_int_equal(l.prof.n_stacks, 2);
	bool hex = false;
	for (size_t i = 0; i < l.prof.n_names; i++)
		hex |= !strcmp(l.prof.names[i], "0x1010");
	assert_true(hex);
	uint64_t v = l.version;
	/* The names arrive: renamed, the counts kept. */
	struct kov_profile_names *n = l.names;
	note_names(n);
	kov_live_rename(&l);
	assert_true(l.version != v);
	assert_int_equal(l.prof.samples, 3);
	struct kov_flame fl = { 0 };
	struct kov_flame_filter ff = { KOV_FLAME_PROCESS, PID, { 0 } };
	assert_int_equal(kov_flame_build(&fl, &l.prof, &ff), 0);
	assert_string_equal(l.prof.names[fl.nodes[0].name], "prog");
	uint32_t m = fl.nodes[0].child;   /* main (2) before the lone sample's main (1): merged */
	assert_string_equal(l.prof.names[fl.nodes[m].name], "main");
	assert_int_equal(fl.nodes[m].total, 3);
	assert_int_equal(fl.nodes[m].self, 1);
	assert_string_equal(l.prof.names[fl.nodes[fl.nodes[m].child].name], "helper");
	/* Counted into the named stacks as they come, without naming again. */
	f = samples_frame(s, 2);
	kov_live_frame(&l, &f);
	assert_int_equal(l.prof.samples, 5);
	/* Room for three distinct stacks: the fourth and fifth are counted as not kept. */
	struct proto_sample more[3] = { s[2], s[2], s[2] };
	more[0].pc = 0x1104;
	more[1].pc = 0x1204;
	more[2].pc = 0x1304;
	f = samples_frame(more, 3);
	kov_live_frame(&l, &f);
	assert_int_equal(l.n_raw, 3);
	assert_int_equal(l.samples, 6);
	assert_int_equal(l.not_kept, 2);
	assert_true(l.not_kept_stacks >= 1 && l.not_kept_stacks <= 2);
	assert_int_equal(l.prof.samples, l.samples);
	kov_live_rename(&l);   /* names unchanged: nothing to do */
	assert_int_equal(l.prof.samples, 6);
	kov_flame_free(&fl);
	kov_live_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_target),
		cmocka_unit_test(test_one_process),
		cmocka_unit_test(test_one_object),
		cmocka_unit_test(test_callers),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_deep),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

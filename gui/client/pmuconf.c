/* PMU configuration files (gui/client/pmuconf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/pmuconf.h"

#define MAX_WORDS 8

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t n, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(err, n, "line %u: ", line);
	va_start(ap, fmt);
	if (k >= 0 && (size_t)k < n)
		vsnprintf(err + k, n - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

static bool number(const char *s, unsigned long long max, unsigned long long *v)
{
	if (!*s || *s == '-' || *s == '+')
		return false;
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/* Splits a line (comments dropped) into words; returns how many, or -1 if too many. */
static int words(char *line, char **w)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	int n = 0;
	for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
		if (n == MAX_WORDS)
			return -1;
		w[n++] = p;
	}
	return n;
}

/* A name the text format can carry as one word: no separator or comment character, and for
 * an event (the first word of its line) not a directive. */
static bool word_ok(struct proto_str s, bool event)
{
	for (uint16_t i = 0; i < s.len; i++)
		if (strchr(" \t\r\n#", s.s[i]) || !s.s[i])
			return false;
	return !event || !(proto_str_eq(s, "slice") || proto_str_eq(s, "count") ||
			   proto_str_eq(s, "chains") || proto_str_eq(s, "group"));
}

/* A configuration from JSON must be one the text format can write back (kovctl and the
 * viewer save configurations as text). */
static int writable(const struct proto_pmu_config *cfg, char *err, size_t n)
{
	for (uint16_t g = 0; g < cfg->n_groups; g++) {
		const struct proto_group *pg = &cfg->groups[g];
		if (!word_ok(pg->name, false)) {
			snprintf(err, n, "group name '%.*s': white space and '#' cannot be in a name",
				 (int)pg->name.len, pg->name.s);
			return -1;
		}
		for (uint16_t e = 0; e < pg->n_events; e++)
			if (!word_ok(pg->events[e].name, true)) {
				snprintf(err, n, "event name '%.*s' in group %.*s: not a catalogue name "
					 "(white space, '#', or a directive)", (int)pg->events[e].name.len,
					 pg->events[e].name.s, (int)pg->name.len, pg->name.s);
				return -1;
			}
	}
	return 0;
}

static struct proto_str keep(struct kov_pmuconf *c, unsigned *used, const char *s)
{
	char *slot = c->names[(*used)++];
	size_t len = strlen(s);
	memcpy(slot, s, len + 1);
	return (struct proto_str){ slot, (uint16_t)len };
}

/* The text format being read: where it is and what it has seen so far. */
struct text_parse {
	struct kov_pmuconf *out;
	struct proto_group *g;       /* the group event lines add to, NULL before the first */
	unsigned used, line, share_total;
	bool saw_count;
	char *err;
	size_t n;
};

/* slice LENGTH us | instructions | cycles */
static int slice_line(struct text_parse *p, char **w, int k)
{
	struct proto_pmu_config *cfg = &p->out->cfg;
	unsigned long long v;
	if (k != 3 || !number(w[1], UINT64_MAX, &v) || v == 0)
		return fail(p->err, p->n, p->line, "slice needs a length above 0 and a unit: "
			    "slice 10000 us | instructions | cycles");
	if (!strcmp(w[2], "us"))
		cfg->unit = PROTO_UNIT_MICROSECONDS;
	else if (!strcmp(w[2], "instructions"))
		cfg->unit = PROTO_UNIT_INSTRUCTIONS;
	else if (!strcmp(w[2], "cycles"))
		cfg->unit = PROTO_UNIT_CYCLES;
	else
		return fail(p->err, p->n, p->line, "unknown slice unit '%s' (us, instructions, cycles)", w[2]);
	cfg->slice = v;
	return 0;
}

/* count kernel | user | kernel user */
static int count_line(struct text_parse *p, char **w, int k)
{
	struct proto_pmu_config *cfg = &p->out->cfg;
	if (p->saw_count || k < 2 || k > 3)
		return fail(p->err, p->n, p->line, "count takes kernel, user or both, once");
	p->saw_count = true;
	cfg->flags &= PROTO_CFG_CALLCHAIN;
	for (int i = 1; i < k; i++) {
		if (!strcmp(w[i], "kernel"))
			cfg->flags |= PROTO_CFG_KERNEL;
		else if (!strcmp(w[i], "user"))
			cfg->flags |= PROTO_CFG_USER;
		else
			return fail(p->err, p->n, p->line, "count: '%s' is neither kernel nor user", w[i]);
	}
	return 0;
}

/* chains FRAMES */
static int chains_line(struct text_parse *p, char **w, int k)
{
	unsigned long long v;
	if (k != 2 || !number(w[1], PROTO_MAX_CHAIN_DEPTH, &v) || v == 0)
		return fail(p->err, p->n, p->line, "chains takes the frames each sample keeps, 1 "
			    "to %d: chains 16", PROTO_MAX_CHAIN_DEPTH);
	p->out->cfg.flags |= PROTO_CFG_CALLCHAIN;
	p->out->cfg.chain_depth = (uint16_t)v;
	return 0;
}

/* group NAME PERCENT */
static int group_line(struct text_parse *p, char **w, int k)
{
	struct proto_pmu_config *cfg = &p->out->cfg;
	unsigned long long v;
	if (k != 3)
		return fail(p->err, p->n, p->line, "group needs a name and a share: group NAME PERCENT");
	if (cfg->n_groups == PROTO_MAX_GROUPS)
		return fail(p->err, p->n, p->line, "more than %d groups", PROTO_MAX_GROUPS);
	if (strlen(w[1]) > 31)
		return fail(p->err, p->n, p->line, "group name '%s' is longer than 31 characters", w[1]);
	for (unsigned i = 0; i < cfg->n_groups; i++)
		if (!strcmp(cfg->groups[i].name.s, w[1]))
			return fail(p->err, p->n, p->line, "a second group named '%s'", w[1]);
	if (!number(w[2], 100, &v) || v == 0)
		return fail(p->err, p->n, p->line, "share '%s' is not a percentage from 1 to 100", w[2]);
	p->g = &cfg->groups[cfg->n_groups++];
	p->g->name = keep(p->out, &p->used, w[1]);
	p->g->share = (uint16_t)v;
	p->share_total += (unsigned)v;
	return 0;
}

/* EVENT [THRESHOLD], in the group above */
static int event_line(struct text_parse *p, char **w, int k)
{
	struct proto_group *g = p->g;
	unsigned long long v = 0;
	if (!g)
		return fail(p->err, p->n, p->line, "'%s' is not slice, count, chains or group; events "
			    "come after a group line", w[0]);
	if (k > 2)
		return fail(p->err, p->n, p->line, "an event line is: EVENT [THRESHOLD]");
	if (strlen(w[0]) > PROTO_NAME_MAX)
		return fail(p->err, p->n, p->line, "event name longer than %d characters", PROTO_NAME_MAX);
	if (g->n_events == PROTO_MAX_GROUP_EVENTS)
		return fail(p->err, p->n, p->line, "group %s has more than %d events", g->name.s,
			    PROTO_MAX_GROUP_EVENTS);
	for (unsigned i = 0; i < g->n_events; i++)
		if (!strcmp(g->events[i].name.s, w[0]))
			return fail(p->err, p->n, p->line, "%s is twice in group %s", w[0], g->name.s);
	if (k == 2 && !number(w[1], UINT64_MAX, &v))
		return fail(p->err, p->n, p->line, "threshold '%s' is not a number", w[1]);
	g->events[g->n_events].name = keep(p->out, &p->used, w[0]);
	g->events[g->n_events++].threshold = v;
	return 0;
}

/* One line of text[pos..end): its directive or event. */
static int text_line(struct text_parse *p, const char *text, size_t pos, size_t end)
{
	char buf[512], *w[MAX_WORDS];
	p->line++;
	if (end - pos >= sizeof buf)
		return fail(p->err, p->n, p->line, "longer than %zu characters", sizeof buf - 1);
	if (memchr(text + pos, 0, end - pos))
		return fail(p->err, p->n, p->line, "contains a NUL byte");
	memcpy(buf, text + pos, end - pos);
	buf[end - pos] = 0;
	int k = words(buf, w);
	if (k < 0)
		return fail(p->err, p->n, p->line, "too many words");
	if (k == 0)
		return 0;
	return !strcmp(w[0], "slice") ? slice_line(p, w, k) :
	       !strcmp(w[0], "count") ? count_line(p, w, k) :
	       !strcmp(w[0], "chains") ? chains_line(p, w, k) :
	       !strcmp(w[0], "group") ? group_line(p, w, k) : event_line(p, w, k);
}

/* What holds for the whole file: groups, each with events, whose shares make 100%. */
static int text_complete(const struct text_parse *p)
{
	const struct proto_pmu_config *cfg = &p->out->cfg;
	if (cfg->n_groups == 0)
		return fail(p->err, p->n, p->line, "no group: a configuration needs at least one");
	for (unsigned i = 0; i < cfg->n_groups; i++)
		if (cfg->groups[i].n_events == 0)
			return fail(p->err, p->n, p->line, "group %s has no events", cfg->groups[i].name.s);
	if (p->share_total != 100)
		return fail(p->err, p->n, p->line, "the shares add up to %u%%, not 100%%", p->share_total);
	return 0;
}

int kov_pmuconf_parse(const char *text, size_t len, struct kov_pmuconf *out, char *err, size_t n)
{
	size_t first = 0;
	while (first < len && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' ||
			       text[first] == '\n'))
		first++;
	if (first < len && text[first] == '{')
		return kov_pmuconf_parse_json(text, len, out, err, n) < 0 ? -1 : writable(&out->cfg, err, n);
	memset(out, 0, sizeof *out);
	out->cfg.unit = PROTO_UNIT_MICROSECONDS;
	out->cfg.slice = 10000;
	out->cfg.flags = PROTO_CFG_KERNEL | PROTO_CFG_USER;
	struct text_parse p = { .out = out, .err = err, .n = n };
	for (size_t pos = 0; pos < len;) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		if (text_line(&p, text, pos, end) < 0)
			return -1;
		pos = end + 1;
	}
	return text_complete(&p);
}

struct out { char *buf; size_t n, len; int err; };

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->buf + (o->len < o->n ? o->len : o->n), o->len < o->n ? o->n - o->len : 0,
			  fmt, ap);
	va_end(ap);
	if (k < 0)
		o->err = k;
	else
		o->len += (size_t)k;
}

int kov_pmuconf_format(const struct proto_pmu_config *cfg, char *buf, size_t n)
{
	static const char *const units[] = { "?", "cycles", "instructions", "us" };
	struct out o = { buf, n, 0, 0 };
	put(&o, "# KOV PMU configuration\nslice %llu %s\ncount%s%s\n", (unsigned long long)cfg->slice,
	    cfg->unit <= 3 ? units[cfg->unit] : "?", cfg->flags & PROTO_CFG_KERNEL ? " kernel" : "",
	    cfg->flags & PROTO_CFG_USER ? " user" : "");
	if (cfg->flags & PROTO_CFG_CALLCHAIN)
		put(&o, "chains %u\n", (unsigned)cfg->chain_depth);
	for (unsigned g = 0; g < cfg->n_groups; g++) {
		const struct proto_group *pg = &cfg->groups[g];
		put(&o, "group %.*s %u\n", (int)pg->name.len, pg->name.s, (unsigned)pg->share);
		for (unsigned e = 0; e < pg->n_events; e++) {
			if (pg->events[e].threshold)
				put(&o, "  %.*s %llu\n", (int)pg->events[e].name.len, pg->events[e].name.s,
				    (unsigned long long)pg->events[e].threshold);
			else
				put(&o, "  %.*s\n", (int)pg->events[e].name.len, pg->events[e].name.s);
		}
	}
	return o.err ? o.err : (int)o.len;
}

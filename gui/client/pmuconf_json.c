/* PMU configuration files in JSON (gui/client/pmuconf.h): the same contents as the text
 * format, read by a small schema-driven parser that reports the line of every mistake.
 *
 *   { "slice": { "length": 10000, "unit": "us" },
 *     "count": ["kernel", "user"],
 *     "groups": [ { "name": "spin", "share": 100,
 *                   "events": [ { "name": "PM_INST_CMPL", "threshold": 100003 }, "PM_CYC" ] } ] } */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "client/pmuconf.h"

struct js {
	const char *p, *end;
	unsigned line;
	char *err;
	size_t n;
	bool failed;
	struct kov_pmuconf *out;
	unsigned used;
};

__attribute__((format(printf, 2, 3)))
static bool bad(struct js *j, const char *fmt, ...)
{
	if (j->failed)
		return false;
	j->failed = true;
	va_list ap;
	int k = snprintf(j->err, j->n, "line %u: ", j->line);
	va_start(ap, fmt);
	if (k >= 0 && (size_t)k < j->n)
		vsnprintf(j->err + k, j->n - (size_t)k, fmt, ap);
	va_end(ap);
	return false;
}

static void space(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static bool take(struct js *j, char c)
{
	space(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static bool expect(struct js *j, char c)
{
	if (take(j, c))
		return true;
	return bad(j, "expected '%c'%s", c, j->p >= j->end ? " before the end" : "");
}

/* A string without escapes beyond \" and \\ (names and units need no more). */
static bool string(struct js *j, char *buf, size_t n)
{
	if (!expect(j, '"'))
		return false;
	size_t len = 0;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;
		if (c == '\n' || (unsigned char)c < 0x20)
			return bad(j, "a string runs to the end of the line");
		if (c == '\\') {
			if (j->p >= j->end || (*j->p != '"' && *j->p != '\\'))
				return bad(j, "only \\\" and \\\\ escapes are allowed");
			c = *j->p++;
		}
		if (len + 1 >= n)
			return bad(j, "a string longer than %zu characters", n - 1);
		buf[len++] = c;
	}
	buf[len] = 0;
	return expect(j, '"');
}

static bool number(struct js *j, uint64_t *v)
{
	space(j);
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return bad(j, "expected a whole number");
	*v = 0;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		unsigned d = (unsigned)(*j->p++ - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return bad(j, "a number too large");
		*v = *v * 10 + d;
	}
	if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
		return bad(j, "expected a whole number");
	return true;
}

/* Calls field() for each "key": value of an object. */
static bool object(struct js *j, bool (*field)(struct js *j, const char *key, void *arg), void *arg)
{
	if (!expect(j, '{'))
		return false;
	if (take(j, '}'))
		return true;
	do {
		char key[32];
		if (!string(j, key, sizeof key) || !expect(j, ':') || !field(j, key, arg))
			return false;
	} while (take(j, ','));
	return expect(j, '}');
}

static bool array(struct js *j, bool (*item)(struct js *j, void *arg), void *arg)
{
	if (!expect(j, '['))
		return false;
	if (take(j, ']'))
		return true;
	do {
		if (!item(j, arg))
			return false;
	} while (take(j, ','));
	return expect(j, ']');
}

static struct proto_str keep(struct js *j, const char *s)
{
	char *slot = j->out->names[j->used++];
	size_t len = strlen(s);
	memcpy(slot, s, len + 1);
	return (struct proto_str){ slot, (uint16_t)len };
}

static bool slice_field(struct js *j, const char *key, void *arg)
{
	struct proto_pmu_config *c = arg;
	if (!strcmp(key, "length"))
		return number(j, &c->slice) && (c->slice || bad(j, "the slice length must be above 0"));
	if (!strcmp(key, "unit")) {
		char u[16];
		if (!string(j, u, sizeof u))
			return false;
		if (!strcmp(u, "us"))
			c->unit = PROTO_UNIT_MICROSECONDS;
		else if (!strcmp(u, "instructions"))
			c->unit = PROTO_UNIT_INSTRUCTIONS;
		else if (!strcmp(u, "cycles"))
			c->unit = PROTO_UNIT_CYCLES;
		else
			return bad(j, "unknown slice unit '%s' (us, instructions, cycles)", u);
		return true;
	}
	return bad(j, "unknown slice field \"%s\" (length, unit)", key);
}

static bool count_item(struct js *j, void *arg)
{
	struct proto_pmu_config *c = arg;
	char w[16];
	if (!string(j, w, sizeof w))
		return false;
	if (!strcmp(w, "kernel"))
		c->flags |= PROTO_CFG_KERNEL;
	else if (!strcmp(w, "user"))
		c->flags |= PROTO_CFG_USER;
	else
		return bad(j, "count: '%s' is neither kernel nor user", w);
	return true;
}

struct event_parse { struct proto_group *g; char name[PROTO_NAME_MAX + 1]; uint64_t threshold; };

static bool event_field(struct js *j, const char *key, void *arg)
{
	struct event_parse *e = arg;
	if (!strcmp(key, "name"))
		return string(j, e->name, sizeof e->name);
	if (!strcmp(key, "threshold"))
		return number(j, &e->threshold);
	return bad(j, "unknown event field \"%s\" (name, threshold)", key);
}

static bool event_item(struct js *j, void *arg)
{
	struct proto_group *g = arg;
	struct event_parse e = { g, "", 0 };
	space(j);
	if (j->p < j->end && *j->p == '"') {
		if (!string(j, e.name, sizeof e.name))
			return false;
	} else if (!object(j, event_field, &e)) {
		return false;
	}
	if (!e.name[0])
		return bad(j, "an event without a name");
	if (g->n_events == PROTO_MAX_GROUP_EVENTS)
		return bad(j, "a group has more than %d events", PROTO_MAX_GROUP_EVENTS);
	for (unsigned i = 0; i < g->n_events; i++)
		if (!strcmp(g->events[i].name.s, e.name))
			return bad(j, "%s is twice in a group", e.name);
	g->events[g->n_events].name = keep(j, e.name);
	g->events[g->n_events++].threshold = e.threshold;
	return true;
}

struct group_parse { struct js *j; struct proto_group *g; bool named, shared; };

static bool group_field(struct js *j, const char *key, void *arg)
{
	struct group_parse *gp = arg;
	if (!strcmp(key, "name")) {
		char name[64];
		if (!string(j, name, sizeof name))
			return false;
		if (!name[0] || strlen(name) > 31)
			return bad(j, "a group name of 1 to 31 characters is needed");
		gp->g->name = keep(j, name);
		gp->named = true;
		return true;
	}
	if (!strcmp(key, "share")) {
		uint64_t v;
		if (!number(j, &v))
			return false;
		if (v < 1 || v > 100)
			return bad(j, "share %llu is not a percentage from 1 to 100", (unsigned long long)v);
		gp->g->share = (uint16_t)v;
		gp->shared = true;
		return true;
	}
	if (!strcmp(key, "events"))
		return array(j, event_item, gp->g);
	return bad(j, "unknown group field \"%s\" (name, share, events)", key);
}

static bool group_item(struct js *j, void *arg)
{
	struct proto_pmu_config *c = arg;
	if (c->n_groups == PROTO_MAX_GROUPS)
		return bad(j, "more than %d groups", PROTO_MAX_GROUPS);
	struct group_parse gp = { j, &c->groups[c->n_groups], false, false };
	unsigned line = j->line;
	if (!object(j, group_field, &gp))
		return false;
	if (!gp.named || !gp.shared || !gp.g->n_events) {
		j->line = line;
		return bad(j, "a group needs a name, a share and events");
	}
	for (unsigned i = 0; i < c->n_groups; i++)
		if (!strcmp(c->groups[i].name.s, gp.g->name.s)) {
			j->line = line;
			return bad(j, "a second group named '%s'", gp.g->name.s);
		}
	c->n_groups++;
	return true;
}

static bool top_field(struct js *j, const char *key, void *arg)
{
	struct proto_pmu_config *c = arg;
	if (!strcmp(key, "slice"))
		return object(j, slice_field, c);
	if (!strcmp(key, "count")) {
		c->flags = 0;
		return array(j, count_item, c);
	}
	if (!strcmp(key, "groups"))
		return array(j, group_item, c);
	return bad(j, "unknown field \"%s\" (slice, count, groups)", key);
}

int kov_pmuconf_parse_json(const char *text, size_t len, struct kov_pmuconf *out, char *err,
                           size_t n)
{
	memset(out, 0, sizeof *out);
	struct proto_pmu_config *c = &out->cfg;
	c->unit = PROTO_UNIT_MICROSECONDS;
	c->slice = 10000;
	c->flags = PROTO_CFG_KERNEL | PROTO_CFG_USER;
	struct js j = { text, text + len, 1, err, n, false, out, 0 };
	if (memchr(text, 0, len))
		return bad(&j, "contains a NUL byte"), -1;
	if (!object(&j, top_field, c))
		return -1;
	space(&j);
	if (j.p != j.end)
		return bad(&j, "text after the configuration"), -1;
	if (!c->n_groups)
		return bad(&j, "no group: a configuration needs at least one"), -1;
	if (!c->flags)
		return bad(&j, "count: kernel, user or both"), -1;
	unsigned total = 0;
	for (unsigned g = 0; g < c->n_groups; g++)
		total += c->groups[g].share;
	if (total != 100)
		return bad(&j, "the shares add up to %u%%, not 100%%", total), -1;
	return 0;
}

/* PMU configuration files in JSON (gui/client/pmuconf.h): the same contents as the text
 * format. jansson (Debian's libjansson) parses the text and reports a syntax error with its
 * line and column; the schema below is checked on the parsed document, and reports the line
 * of every mistake too.
 *
 *   { "slice": { "length": 10000, "unit": "us" },
 *     "count": ["kernel", "user"], "chains": 16,
 *     "groups": [ { "name": "spin", "share": 100,
 *                   "events": [ { "name": "PM_INST_CMPL", "threshold": 100003 }, "PM_CYC" ] } ] }
 *
 * jansson keeps no positions in the parsed document, so a scan of the same text lists the line
 * of every key and value in document order (the order jansson keeps object members in), and a
 * walk of the document pairs each member and element with its lines. */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/pmuconf.h"

/* ---- where things are ------------------------------------------------------------------ */

/* A member (key != NULL) or element (index) of a container, with the lines of its key and its
 * value. */
struct place {
	const json_t *in;
	const char *key;
	size_t index;
	unsigned key_line, line;
};

struct places {
	unsigned *keys, *values;     /* lines, in document order */
	size_t n_keys, n_values, k, v;
	struct place *at;
	size_t n;
};

static bool json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The lines of the keys and value starts of a text jansson accepted (so strings are closed and
 * hold no raw line break). With keys and values NULL it only counts them. */
static void scan(const char *p, const char *end, struct places *pl)
{
	unsigned line = 1;
	pl->n_keys = pl->n_values = 0;
	while (p < end) {
		char c = *p;
		if (c == '\n')
			line++;
		if (json_space(c) || c == ':' || c == ',' || c == '}' || c == ']') {
			p++;
			continue;
		}
		bool key = false;
		if (c == '"') {
			for (p++; p < end && *p != '"'; p += *p == '\\' ? 2 : 1)
				;
			const char *q = ++p;
			while (q < end && json_space(*q))
				q++;
			key = q < end && *q == ':';
		} else if (c == '{' || c == '[') {
			p++;
		} else {                 /* a number, true, false or null */
			while (p < end && !json_space(*p) && !strchr(",]}", *p))
				p++;
		}
		if (key && pl->keys)
			pl->keys[pl->n_keys] = line;
		else if (!key && pl->values)
			pl->values[pl->n_values] = line;
		key ? pl->n_keys++ : pl->n_values++;
	}
}

static unsigned next_line(unsigned *lines, size_t n, size_t *i)
{
	return *i < n ? lines[(*i)++] : 0;
}

/* Pairs the members and elements below v with their lines, in document order. */
static void index_places(struct places *pl, const json_t *v)
{
	const char *key;
	json_t *m;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, m) {
			unsigned kl = next_line(pl->keys, pl->n_keys, &pl->k);
			unsigned vl = next_line(pl->values, pl->n_values, &pl->v);
			pl->at[pl->n++] = (struct place){ v, key, 0, kl, vl };
			index_places(pl, m);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, m) {
			unsigned vl = next_line(pl->values, pl->n_values, &pl->v);
			pl->at[pl->n++] = (struct place){ v, NULL, i, vl, vl };
			index_places(pl, m);
		}
	}
}

static const struct place *place_of(const struct places *pl, const json_t *in, const char *key,
                                    size_t index)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct place *p = &pl->at[i];
		if (p->in == in && (key ? p->key && !strcmp(p->key, key) : !p->key && p->index == index))
			return p;
	}
	return NULL;
}

/* ---- the schema ------------------------------------------------------------------------ */

struct conf {
	struct kov_pmuconf *out;
	unsigned used;
	const struct places *pl;
	char *err;
	size_t n;
};

__attribute__((format(printf, 3, 4)))
static bool bad(struct conf *c, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(c->err, c->n, "line %u: ", line ? line : 1);
	va_start(ap, fmt);
	if (k >= 0 && (size_t)k < c->n)
		vsnprintf(c->err + k, c->n - (size_t)k, fmt, ap);
	va_end(ap);
	return false;
}

/* The line of a member's value (of its key with key_line) or of an element. */
static unsigned line_of(const struct conf *c, const json_t *in, const char *key, size_t index,
                        bool key_line)
{
	const struct place *p = place_of(c->pl, in, key, index);
	return p ? (key_line ? p->key_line : p->line) : 0;
}

/* A member or an element, and where it is. */
struct item {
	const json_t *v;
	unsigned line;
};

static struct item member(const struct conf *c, const json_t *obj, const char *key)
{
	return (struct item){ json_object_get(obj, key), line_of(c, obj, key, 0, false) };
}

static bool number(struct conf *c, struct item it, uint64_t *v)
{
	if (!json_is_integer(it.v) || json_integer_value(it.v) < 0)
		return bad(c, it.line, "expected a whole number");
	*v = (uint64_t)json_integer_value(it.v);
	return true;
}

/* A string of 1..max characters with no control characters (names, units). */
static bool text(struct conf *c, struct item it, size_t max, const char **s)
{
	if (!json_is_string(it.v))
		return bad(c, it.line, "expected a string");
	*s = json_string_value(it.v);
	size_t len = json_string_length(it.v);
	if (len > max)
		return bad(c, it.line, "a string longer than %zu characters", max);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)(*s)[i] < 0x20)
			return bad(c, it.line, "a string with a control character");
	return true;
}

static struct proto_str keep(struct conf *c, const char *s)
{
	char *slot = c->out->names[c->used++];
	size_t len = strlen(s);
	memcpy(slot, s, len + 1);
	return (struct proto_str){ slot, (uint16_t)len };
}

/* Each member of obj must be one of `known` (a NULL-terminated list); what names the object
 * in the message ("slice", "group", ...) and the list of allowed fields. */
static bool only(struct conf *c, const json_t *obj, const char *what, const char *const *known,
                 const char *allowed)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		bool ok = false;
		for (const char *const *k = known; *k && !ok; k++)
			ok = !strcmp(*k, key);
		if (!ok)
			return bad(c, line_of(c, obj, key, 0, true), "unknown %s%sfield \"%s\" (%s)", what,
			           *what ? " " : "", key, allowed);
	}
	return true;
}

static bool object(struct conf *c, struct item it)
{
	return json_is_object(it.v) || bad(c, it.line, "expected an object");
}

static bool array(struct conf *c, struct item it)
{
	return json_is_array(it.v) || bad(c, it.line, "expected an array");
}

/* Calls fn on each element of an array, with its line; stops at the first mistake. */
static bool each(struct conf *c, struct item it,
                 bool (*fn)(struct conf *c, struct item e, void *arg), void *arg)
{
	size_t i;
	json_t *e;
	if (!array(c, it))
		return false;
	json_array_foreach(it.v, i, e)
		if (!fn(c, (struct item){ e, line_of(c, it.v, NULL, i, false) }, arg))
			return false;
	return true;
}

static bool parse_slice(struct conf *c, struct item it, struct proto_pmu_config *cfg)
{
	static const char *const known[] = { "length", "unit", NULL };
	if (!object(c, it) || !only(c, it.v, "slice", known, "length, unit"))
		return false;
	struct item length = member(c, it.v, "length"), unit = member(c, it.v, "unit");
	if (length.v && (!number(c, length, &cfg->slice) ||
	                 (!cfg->slice && !bad(c, length.line, "the slice length must be above 0"))))
		return false;
	if (unit.v) {
		const char *u;
		if (!text(c, unit, 15, &u))
			return false;
		if (!strcmp(u, "us"))
			cfg->unit = PROTO_UNIT_MICROSECONDS;
		else if (!strcmp(u, "instructions"))
			cfg->unit = PROTO_UNIT_INSTRUCTIONS;
		else if (!strcmp(u, "cycles"))
			cfg->unit = PROTO_UNIT_CYCLES;
		else
			return bad(c, unit.line, "unknown slice unit '%s' (us, instructions, cycles)", u);
	}
	return true;
}

static bool count_item(struct conf *c, struct item w, void *arg)
{
	struct proto_pmu_config *cfg = arg;
	const char *s;
	if (!text(c, w, 15, &s))
		return false;
	if (!strcmp(s, "kernel"))
		cfg->flags |= PROTO_CFG_KERNEL;
	else if (!strcmp(s, "user"))
		cfg->flags |= PROTO_CFG_USER;
	else
		return bad(c, w.line, "count: '%s' is neither kernel nor user", s);
	return true;
}

/* An event: its name, or { "name": ..., "threshold": ... }. */
static bool parse_event(struct conf *c, struct item it, void *group)
{
	struct proto_group *g = group;
	static const char *const known[] = { "name", "threshold", NULL };
	const char *name = "";
	uint64_t threshold = 0;
	if (json_is_string(it.v)) {
		if (!text(c, it, PROTO_NAME_MAX, &name))
			return false;
	} else if (json_is_object(it.v)) {
		struct item n = member(c, it.v, "name"), t = member(c, it.v, "threshold");
		if (!only(c, it.v, "event", known, "name, threshold") ||
		    (n.v && !text(c, n, PROTO_NAME_MAX, &name)) || (t.v && !number(c, t, &threshold)))
			return false;
	} else {
		return bad(c, it.line, "an event is a name or an object with a name and a threshold");
	}
	if (!name[0])
		return bad(c, it.line, "an event without a name");
	if (g->n_events == PROTO_MAX_GROUP_EVENTS)
		return bad(c, it.line, "a group has more than %d events", PROTO_MAX_GROUP_EVENTS);
	for (unsigned i = 0; i < g->n_events; i++)
		if (!strcmp(g->events[i].name.s, name))
			return bad(c, it.line, "%s is twice in a group", name);
	g->events[g->n_events].name = keep(c, name);
	g->events[g->n_events++].threshold = threshold;
	return true;
}

static bool parse_group(struct conf *c, struct item it, void *config)
{
	struct proto_pmu_config *cfg = config;
	static const char *const known[] = { "name", "share", "events", NULL };
	if (!object(c, it) || !only(c, it.v, "group", known, "name, share, events"))
		return false;
	if (cfg->n_groups == PROTO_MAX_GROUPS)
		return bad(c, it.line, "more than %d groups", PROTO_MAX_GROUPS);
	struct proto_group *g = &cfg->groups[cfg->n_groups];
	struct item name = member(c, it.v, "name"), share = member(c, it.v, "share");
	struct item events = member(c, it.v, "events");
	const char *s;
	uint64_t v = 0;
	if (name.v) {
		if (!text(c, name, PROTO_NAME_MAX, &s))
			return false;
		if (!s[0] || strlen(s) > 31)
			return bad(c, name.line, "a group name of 1 to 31 characters is needed");
		g->name = keep(c, s);
	}
	if (share.v) {
		if (!number(c, share, &v))
			return false;
		if (v < 1 || v > 100)
			return bad(c, share.line, "share %llu is not a percentage from 1 to 100",
			           (unsigned long long)v);
		g->share = (uint16_t)v;
	}
	if (events.v && !each(c, events, parse_event, g))
		return false;
	if (!name.v || !share.v || !g->n_events)
		return bad(c, it.line, "a group needs a name, a share and events");
	for (unsigned i = 0; i < cfg->n_groups; i++)
		if (!strcmp(cfg->groups[i].name.s, g->name.s))
			return bad(c, it.line, "a second group named '%s'", g->name.s);
	cfg->n_groups++;
	return true;
}

static bool parse_config(struct conf *c, const json_t *root, struct proto_pmu_config *cfg)
{
	static const char *const known[] = { "slice", "count", "chains", "groups", NULL };
	struct item root_item = { root, c->pl->n_values ? c->pl->values[0] : 1 };
	if (!object(c, root_item) || !only(c, root, "", known, "slice, count, chains, groups"))
		return false;
	struct item slice = member(c, root, "slice"), count = member(c, root, "count");
	struct item chains = member(c, root, "chains");
	uint64_t depth = 0;
	if (chains.v && !number(c, chains, &depth))
		return false;
	if (chains.v && (depth < 1 || depth > PROTO_MAX_CHAIN_DEPTH))
		return bad(c, chains.line, "chains: the frames each sample keeps, 1 to %d",
			   PROTO_MAX_CHAIN_DEPTH);
	struct item groups = member(c, root, "groups");
	if (count.v)
		cfg->flags = 0;
	if ((slice.v && !parse_slice(c, slice, cfg)) || (count.v && !each(c, count, count_item, cfg)) ||
	    (groups.v && !each(c, groups, parse_group, cfg)))
		return false;
	if (!cfg->n_groups)
		return bad(c, groups.line, "no group: a configuration needs at least one");
	if (!cfg->flags)
		return bad(c, count.line, "count: kernel, user or both");
	if (depth) {
		cfg->flags |= PROTO_CFG_CALLCHAIN;
		cfg->chain_depth = (uint16_t)depth;
	}
	unsigned total = 0;
	for (unsigned g = 0; g < cfg->n_groups; g++)
		total += cfg->groups[g].share;
	if (total != 100)
		return bad(c, groups.line, "the shares add up to %u%%, not 100%%", total);
	return true;
}

/* ---- the file -------------------------------------------------------------------------- */

static unsigned line_at(const char *text, size_t pos)
{
	unsigned line = 1;
	for (size_t i = 0; i < pos; i++)
		line += text[i] == '\n';
	return line;
}

int kov_pmuconf_parse_json(const char *text, size_t len, struct kov_pmuconf *out, char *err,
                           size_t n)
{
	memset(out, 0, sizeof *out);
	struct proto_pmu_config *cfg = &out->cfg;
	cfg->unit = PROTO_UNIT_MICROSECONDS;
	cfg->slice = 10000;
	cfg->flags = PROTO_CFG_KERNEL | PROTO_CFG_USER;
	struct places pl = { 0 };
	struct conf c = { out, 0, &pl, err, n };
	const char *nul = memchr(text, 0, len);
	if (nul)
		return bad(&c, line_at(text, (size_t)(nul - text)), "contains a NUL byte"), -1;

	json_error_t e;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &e);
	if (!root) {
		snprintf(err, n, "line %d, column %d: %s", e.line, e.column, e.text);
		return -1;
	}
	size_t end = (size_t)e.position;    /* what jansson read */
	while (end < len && json_space(text[end]))
		end++;
	int rc = -1;
	if (end < len) {
		bad(&c, line_at(text, end), "text after the configuration");
		goto done;
	}
	scan(text, text + len, &pl);        /* count, then record */
	pl.keys = calloc(pl.n_keys + 1, sizeof *pl.keys);
	pl.values = calloc(pl.n_values + 1, sizeof *pl.values);
	pl.at = calloc(pl.n_keys + pl.n_values + 1, sizeof *pl.at);
	if (!pl.keys || !pl.values || !pl.at) {
		snprintf(err, n, "out of memory");
		goto done;
	}
	scan(text, text + len, &pl);
	pl.v = 1;                           /* the first value is the document itself */
	index_places(&pl, root);
	rc = parse_config(&c, root, cfg) ? 0 : -1;
done:
	free(pl.keys);
	free(pl.values);
	free(pl.at);
	json_decref(root);
	return rc;
}

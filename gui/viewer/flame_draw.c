/* Drawing the flame view (viewer.h, flame_view.c section): an icicle graph, root at the top,
 * each box a frame as wide as its samples, user frames in warm hues, kernel frames in blue,
 * methods of objects greener (user) or violet (kernel), a dark edge where a stack crosses
 * from user into kernel code; the zoomed box spans the width with its callers above it; the
 * search's matches in magenta; the pointer's box described; the callers panel beside it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/layout.h"
#include "client/grow.h"

#define ROW 18.0
#define MIN_W 0.35                    /* narrower boxes are not drawn (counted) */

struct ctx {
	cairo_t *cr;
	struct flame_ui *f;
	const struct kov_profile *p;
	double gx, gy, gw, gh;            /* the graph's area */
	size_t too_narrow, too_deep;      /* boxes not drawn, and why */
};

static bool kernel_node(const struct ctx *c, uint32_t i)
{
	uint32_t nm = c->f->tree.nodes[i].name;
	return nm != KOV_FLAME_NONE && kov_profile_kernel(c->p, nm);
}

/* A root or a process frame: no function of its own. */
static bool root_like(const struct ctx *c, uint32_t i)
{
	const struct kov_flame_node *n = &c->f->tree.nodes[i];
	return n->name == KOV_FLAME_NONE || (c->p->objects && c->p->objects[n->name].coid == 0 &&
					    (n->depth == 0 || (c->f->scope == KOV_FLAME_TARGET && n->depth == 1)));
}

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The box's colour: hue by kind, a shade by name so that neighbours differ. */
static void colour(const struct ctx *c, uint32_t i, double *r, double *g, double *b)
{
	const struct kov_flame_node *n = &c->f->tree.nodes[i];
	if (root_like(c, i)) {
		*r = 0.80, *g = 0.82, *b = 0.85;
		return;
	}
	const char *name = c->p->names[n->name];
	double v = (name_hash(name) % 1000) / 1000.0;
	bool method = strstr(name, "::") != NULL;
	if (kernel_node(c, i) && method)
		*r = 0.62 + 0.12 * v, *g = 0.56 + 0.08 * v, *b = 0.93;
	else if (kernel_node(c, i))
		*r = 0.42 + 0.18 * v, *g = 0.64 + 0.16 * v, *b = 0.95;
	else if (method)
		*r = 0.40 + 0.22 * v, *g = 0.78 + 0.08 * v, *b = 0.38 + 0.1 * v;
	else
		*r = 0.98, *g = 0.52 + 0.33 * v, *b = 0.22 + 0.14 * v;
}

/* A frame's label: kernel frames without the folded "_[k]" (their hue says it). */
static void label_of(const struct ctx *c, uint32_t i, char *buf, size_t n)
{
	const struct kov_flame_node *nd = &c->f->tree.nodes[i];
	if (nd->name == KOV_FLAME_NONE) {
		snprintf(buf, n, "%s", c->f->scope_name);
		return;
	}
	const char *name = c->p->names[nd->name];
	size_t len = strlen(name);
	bool k = kov_profile_kernel(c->p, nd->name);
	if (root_like(c, i) && c->p->objects[nd->name].space)
		snprintf(buf, n, "%s · pid %u", name, c->p->objects[nd->name].space);
	else
		snprintf(buf, n, "%.*s", (int)(k ? len - 4 : len), name);
}

static void add_box(struct flame_ui *f, uint32_t node, double x, double y, double w, double h)
{
	if (!kov_grow((void **)&f->boxes, &f->cap_boxes, f->n_boxes + 1, sizeof *f->boxes))
		return;
	f->boxes[f->n_boxes++] = (struct flame_box){ node, x, y, w, h };
}

static void draw_one(struct ctx *c, uint32_t i, double x, double w, bool above_zoom)
{
	const struct kov_flame_node *n = &c->f->tree.nodes[i];
	double y = c->gy + n->depth * ROW;
	double r, g, b;
	colour(c, i, &r, &g, &b);
	bool searching = c->f->search[0] && c->f->match_cap >= c->f->tree.n;
	if (searching && c->f->match[i])
		r = 0.88, g = 0.25, b = 0.75;
	else if (searching || above_zoom) {   /* faded: not what is looked at */
		r = 0.55 * r + 0.45 * 0.93, g = 0.55 * g + 0.45 * 0.93, b = 0.55 * b + 0.45 * 0.93;
	}
	cairo_t *cr = c->cr;
	cairo_rectangle(cr, x + 0.5, y + 0.5, w > 1.5 ? w - 1 : w, ROW - 1);
	cairo_set_source_rgb(cr, r, g, b);
	cairo_fill(cr);
	/* The user -> kernel boundary: a kernel frame called from a user frame. */
	if (kernel_node(c, i) && n->parent != KOV_FLAME_NONE && !kernel_node(c, n->parent) &&
	    !root_like(c, n->parent)) {
		draw_rgb(cr, 0x0B2A6F);
		cairo_rectangle(cr, x, y, w, 2.5);
		cairo_fill(cr);
	}
	if (i == c->f->hover_node) {
		draw_rgb(cr, 0x1F2328);
		cairo_set_line_width(cr, 1.5);
		cairo_rectangle(cr, x + 1, y + 1, w - 2 > 0 ? w - 2 : 0, ROW - 2);
		cairo_stroke(cr);
	}
	if (w > 28) {
		char label[400];
		label_of(c, i, label, sizeof label);
		draw_rgb(cr, searching && c->f->match[i] ? 0xFFFFFF : 0x1F2328);
		text_fit(cr, x + 4, y + 2, w - 8, FONT_SMALL, label);
	}
	add_box(c->f, i, x, y, w, ROW);
}

/* Node i and what it calls, in [x, x + w). */
static void draw_tree(struct ctx *c, uint32_t i, double x, double w)
{
	const struct kov_flame_node *n = &c->f->tree.nodes[i];
	if (w < MIN_W) {
		c->too_narrow++;
		return;
	}
	if (c->gy + (n->depth + 1) * ROW > c->gy + c->gh) {
		c->too_deep++;
		return;
	}
	draw_one(c, i, x, w, false);
	double cx = x;
	for (uint32_t k = n->child; k != KOV_FLAME_NONE; k = c->f->tree.nodes[k].sibling) {
		double cw = n->total ? w * (double)c->f->tree.nodes[k].total / (double)n->total : 0;
		draw_tree(c, k, cx, cw);
		cx += cw;
	}
}

static void hover(struct ctx *c, struct view *v)
{
	struct flame_ui *f = c->f;
	f->hover_node = KOV_FLAME_NONE;
	for (size_t k = 0; k < f->n_boxes; k++) {
		const struct flame_box *b = &f->boxes[k];
		if (v->mouse_x >= b->x && v->mouse_x < b->x + b->w && v->mouse_y >= b->y &&
		    v->mouse_y < b->y + b->h)
			f->hover_node = b->node;
	}
	if (f->hover_node == KOV_FLAME_NONE)
		return;
	const struct kov_flame_node *n = &f->tree.nodes[f->hover_node];
	char name[400], what[300], figures[900], parent[400] = "";
	label_of(c, f->hover_node, name, sizeof name);
	if (n->name == KOV_FLAME_NONE || root_like(c, f->hover_node)) {
		snprintf(what, sizeof what, "%s", n->depth ? "a process: every stack of it" :
			 "the root: every stack in this view");
	} else {
		const struct kov_profile_obj *o = &c->p->objects[n->name];
		bool k = kov_profile_kernel(c->p, n->name);
		char coid[KOV_COID_CHARS];
		if (o->coid) {
			const char *sep = strstr(name, "::");
			snprintf(what, sizeof what, "%s method of object %.*s %s (generation %u)",
				 k ? "kernel" : "user", sep ? (int)(sep - name) : 1, sep ? name : "?",
				 kov_coid_str(o->coid, coid), o->gen);
		} else {
			snprintf(what, sizeof what, "%s function, in %s", k ? "kernel" : "user",
				 c->p->files[n->name]);
		}
	}
	if (n->parent != KOV_FLAME_NONE) {
		char pl[400];
		label_of(c, n->parent, pl, sizeof pl);
		snprintf(parent, sizeof parent, " · %.1f%% of its caller %.200s",
			 kov_share(n->total, f->tree.nodes[n->parent].total), pl);
	}
	snprintf(figures, sizeof figures, "%llu samples · %.1f%% of all%s · %llu in itself",
		 (unsigned long long)n->total, kov_share(n->total, f->tree.total), parent,
		 (unsigned long long)n->self);
	cairo_t *cr = c->cr;
	double tw = fmax(text_width(cr, FONT_BOLD, name), fmax(text_width(cr, FONT_SMALL, what),
							 text_width(cr, FONT_SMALL, figures))) + 16;
	if (tw > c->gw)
		tw = c->gw;
	double tx = v->mouse_x + 12, ty = v->mouse_y + 16;
	if (tx + tw > c->gx + c->gw)
		tx = c->gx + c->gw - tw;
	if (ty + 54 > c->gy + c->gh)
		ty = v->mouse_y - 60;
	draw_box(cr, tx, ty, tw, 54, 0xFFFDE7, 0xB8BEC6);
	draw_rgb(cr, 0x1F2328);
	text_fit(cr, tx + 8, ty + 4, tw - 16, FONT_BOLD, name);
	draw_rgb(cr, 0x57606A);
	text_fit(cr, tx + 8, ty + 21, tw - 16, FONT_SMALL, what);
	draw_rgb(cr, 0x1F2328);
	text_fit(cr, tx + 8, ty + 36, tw - 16, FONT_SMALL, figures);
	v->hover_shown = true;
}

static void legend(cairo_t *cr, double x, double y, double w)
{
	static const struct { unsigned rgb; const char *what; } keys[] = {
		{ 0xFAA84A, "user function" }, { 0x7BD36A, "user object's method" },
		{ 0x7FB0F2, "kernel function" }, { 0xA999EE, "kernel object's method" },
		{ 0x0B2A6F, "user → kernel" }, { 0xE040BF, "search match" },
	};
	double lx = x;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		if (lx + 16 + text_width(cr, FONT_SMALL, keys[k].what) > x + w)
			break;   /* no room: the rest are left out rather than overlapping */
		draw_rgb(cr, keys[k].rgb);
		cairo_rectangle(cr, lx, y + (k == 4 ? 5 : 2), 12, k == 4 ? 3 : 10);
		cairo_fill(cr);
		draw_rgb(cr, 0x57606A);
		lx += 16 + text_draw(cr, lx + 16, y, FONT_SMALL, keys[k].what) + 14;
	}
}

static void callers_panel(cairo_t *cr, struct view *v, const struct kov_profile *p, double x,
			  double y, double w, double h)
{
	struct flame_ui *f = &v->flame;
	uint32_t pid;
	struct kov_profile_obj obj;
	char pn[160], on[160], line[400];
	int sel = view_selection(v, &pid, &obj, pn, sizeof pn, on, sizeof on);
	draw_box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	snprintf(line, sizeof line, "Callers of %s", sel & VIEW_SEL_OBJECT ? on : "the selected object");
	text_fit(cr, x + 8, y + 6, w - 16, FONT_BOLD, line);
	draw_rgb(cr, 0x57606A);
	if (!(sel & VIEW_SEL_OBJECT)) {
		text_wrap(cr, x + 8, y + 26, w - 16, FONT_SMALL, "select an object in the tree: its "
			  "callers are the frames just above its outermost frame in each stack");
		return;
	}
	snprintf(line, sizeof line, "who called into it: the frame above its outermost frame, in "
		 "each of the %llu samples through it", (unsigned long long)f->callers_of.total);
	double ly = y + 26 + text_wrap(cr, x + 8, y + 26, w - 16, FONT_SMALL, line) + 6;
	if (!f->callers_of.n) {
		text_wrap(cr, x + 8, ly, w - 16, FONT_SMALL, "no sampled call stack passes through it (yet)");
		return;
	}
	for (size_t i = 0; i < f->callers_of.n && ly + 32 < y + h; i++, ly += 34) {
		const struct kov_flame_caller *k = &f->callers_of.items[i];
		const char *name = p->names[k->name];
		bool kern = kov_profile_kernel(p, k->name);
		draw_box(cr, x + 8, ly + 16, w - 16, 12, 0xF3F4F6, 0xE1E4E8);
		draw_rgb(cr, kern ? 0x7FB0F2 : strstr(name, "::") ? 0x7BD36A : 0xFAA84A);
		cairo_rectangle(cr, x + 8.5, ly + 16.5, (w - 17) * k->share / 100, 11);
		cairo_fill(cr);
		snprintf(line, sizeof line, "%5.1f%%  %s%s  (%llu)", k->share, name,
			 kern ? "" : "", (unsigned long long)k->samples);
		draw_rgb(cr, 0x1F2328);
		text_fit(cr, x + 8, ly, w - 16, FONT_SMALL, line);
	}
}

/* What stands above the graph when it cannot be what the user wants: how to get chains. */
static void notes(struct flame_ui *f, const struct target *t)
{
	const struct kov_live_stacks *l = &t->stacks;
	size_t used = strlen(f->note);
	if (l->oom && used < sizeof f->note)
		used += (size_t)snprintf(f->note + used, sizeof f->note - used, "%sout of memory: later "
					 "samples are not counted", used ? "; " : "");
	if (!l->samples) {
		snprintf(f->note, sizeof f->note, "No samples yet: monitoring is not started, or its "
			 "events do not sample (C configures, --config FILE starts it).");
	} else if (!l->chained && t->have_desc && t->desc.minor < 4) {
		snprintf(f->note, sizeof f->note, "No call chains: this target speaks protocol %u.%u, and "
			 "chains came with 1.4. Each sample is shown as its process and the function it "
			 "was taken in.", t->desc.major, t->desc.minor);
	} else if (!l->chained) {
		snprintf(f->note, sizeof f->note, "No call chains: this target's samples carry none, so each "
			 "is shown as its process and the function it was taken in. Configure `chains N` "
			 "(1-32 frames) — a line `chains 16` in the PMU configuration file of kovctl "
			 "configure or the viewer's --config — and start monitoring again.");
	} else if (l->not_kept && used < sizeof f->note) {
		snprintf(f->note + used, sizeof f->note - used, "%s%llu samples in at least %llu more "
			 "stacks not shown: the first %zu distinct stacks are kept", used ? "; " : "",
			 (unsigned long long)l->not_kept, (unsigned long long)l->not_kept_stacks, l->max_raw);
	}
	used = strlen(f->note);
	if (l->unknown_chain && l->chained && used < sizeof f->note)
		snprintf(f->note + used, sizeof f->note - used, "%s%llu samples named a chain the target "
			 "never defined: shown as their process and function only", used ? "; " : "",
			 (unsigned long long)l->unknown_chain);
}

void flame_draw(cairo_t *cr, struct view *v, double x, double y, double w, double h, uint64_t now)
{
	struct flame_ui *f = &v->flame;
	struct target *t = &v->targets[v->current];
	flame_update(v, now);
	const struct kov_profile *p = &t->stacks.prof;
	static const char *scopes[] = { "whole target", "process", "object" };
	double gw_all = f->callers ? w * 0.64 : w;
	draw_box(cr, x, y, gw_all, h, 0xFFFFFF, 0xD6D9DE);
	char line[600];
	snprintf(line, sizeof line, "Flame graph (%s): %s", scopes[f->scope], f->scope_name);
	draw_rgb(cr, 0x1F2328);
	double tw = text_fit(cr, x + 8, y + 5, gw_all * 0.62, FONT_TITLE, line);
	snprintf(line, sizeof line, "%llu samples · %zu stacks · %llu with chains since connected",
		 (unsigned long long)f->tree.total, f->tree.stacks, (unsigned long long)t->stacks.chained);
	draw_rgb(cr, 0x57606A);
	text_fit(cr, x + 16 + tw, y + 7, gw_all - tw - 24, FONT_SMALL, line);
	text_fit(cr, x + 8, y + 24, gw_all - 16, FONT_SMALL, "G scope: target → process → object → "
		 "off · W callers · / search · click a box to zoom, its callers above or Esc to zoom out");
	double top = y + 42;
	if (f->typing || f->search[0]) {
		snprintf(line, sizeof line, "search: %s%s   %.1f%% of the samples match (%llu)", f->search,
			 f->typing ? "▏" : "", kov_share(f->matched, f->tree.total),
			 (unsigned long long)f->matched);
		draw_rgb(cr, 0xA0207F);
		text_fit(cr, x + 8, top, gw_all - 16, FONT_BOLD, line);
		top += 18;
	}
	notes(f, t);
	if (f->note[0]) {
		double nh = text_wrap(cr, -10000, 0, gw_all - 36, FONT_SMALL, f->note) + 10;
		draw_box(cr, x + 8, top, gw_all - 16, nh, 0xFFF4E5, 0xF0C36D);
		draw_rgb(cr, 0x8A4B08);
		text_wrap(cr, x + 18, top + 5, gw_all - 36, FONT_SMALL, f->note);
		top += nh + 6;
	}
	struct ctx c = { cr, f, p, x + 8, top, gw_all - 16, y + h - top - 24, 0, 0 };
	f->n_boxes = 0;
	if (f->tree.total) {
		/* Above the zoomed box: its callers, full width and faded, to click back to. */
		uint32_t z = f->zoom_node < f->tree.n ? f->zoom_node : 0;
		for (uint32_t a = f->tree.nodes[z].parent; a != KOV_FLAME_NONE; a = f->tree.nodes[a].parent)
			draw_one(&c, a, c.gx, c.gw, true);
		draw_tree(&c, z, c.gx, c.gw);
		hover(&c, v);
	} else if (!f->note[0]) {
		draw_rgb(cr, 0x57606A);
		text_wrap(cr, c.gx, top, c.gw, FONT_SMALL, f->scope == KOV_FLAME_TARGET ?
			  "no call stack yet" : "no call stack of the selection yet (G changes the scope; "
			  "select a process or an object in the tree)");
	}
	double room = gw_all - 16;
	if (c.too_deep || c.too_narrow) {
		snprintf(line, sizeof line, "%zu box%s too narrow to draw%s", c.too_narrow,
			 c.too_narrow == 1 ? "" : "es", c.too_deep ? "; deeper frames not shown (zoom)" : "");
		double lw = fmin(text_width(cr, FONT_SMALL, line), gw_all * 0.45);
		draw_rgb(cr, 0x8C959F);
		text_fit(cr, x + gw_all - 8 - lw, y + h - 18, lw, FONT_SMALL, line);
		room -= lw + 12;
	}
	legend(cr, x + 8, y + h - 18, room);
	if (f->callers)
		callers_panel(cr, v, p, x + gw_all + 8, y, w - gw_all - 8, h);
}

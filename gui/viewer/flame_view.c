/* The flame view's model and input (viewer.h, flame_view.c section): which scope and zoom it
 * shows, the call tree built again from the target's stacks when they changed (at most four
 * times a second, at once when the scope, the selection or the names changed), the search
 * and the callers, and the screenshot report. Drawing: flame_draw.c. */
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/grow.h"

#define REBUILD_NS 250000000ull       /* new samples show within a quarter second */
#define RENAME_NS 1000000000ull       /* names learnt since (symbols, scans) within a second */

int view_selection(const struct view *v, uint32_t *pid, struct kov_profile_obj *obj,
		   char *proc_name, size_t pn, char *obj_name, size_t on)
{
	const struct target *t = &v->targets[v->current];
	const struct tree *tr = &v->tree;
	*pid = 0;
	*obj = (struct kov_profile_obj){ 0 };
	proc_name[0] = obj_name[0] = 0;
	if (!t->have_scan || tr->selected >= tr->n)
		return 0;
	const struct row *r = &tr->rows[tr->selected];
	int have = 0;
	if (r->kind == ROW_OBJECT || r->kind == ROW_REP) {
		const struct kov_scan_object *o = &t->scan.objects[r->obj];
		char coid[KOV_COID_CHARS];
		*obj = (struct kov_profile_obj){ kov_object_space(o->pid, o->coid), o->coid, o->gen };
		snprintf(obj_name, on, "%s %s", o->class_name, kov_coid_str(o->coid, coid));
		*pid = o->pid;
		have = VIEW_SEL_OBJECT | VIEW_SEL_PROCESS;
	} else if (r->kind == ROW_PROCESS) {
		*pid = t->scan.procs[r->proc].pid;
		have = VIEW_SEL_PROCESS;
	}
	if (have & VIEW_SEL_PROCESS) {
		const char *name = *pid ? NULL : "kernel";
		for (size_t i = 0; !name && i < t->scan.n_procs; i++)
			if (t->scan.procs[i].pid == *pid)
				name = t->scan.procs[i].name;
		snprintf(proc_name, pn, "%s pid %u", name ? name : "process", *pid);
	}
	return have;
}

static void zoom_clear(struct flame_ui *f)
{
	for (size_t i = 0; i < f->n_zoom; i++)
		free(f->zoom[i].name);
	f->n_zoom = 0;
	f->zoom_node = 0;
}

void flame_free(struct flame_ui *f)
{
	zoom_clear(f);
	kov_flame_free(&f->tree);
	kov_flame_callers_free(&f->callers_of);
	free(f->match);
	free(f->boxes);
	memset(f, 0, sizeof *f);
}

static void set_scope(struct flame_ui *f, enum kov_flame_scope s)
{
	f->scope = s;
	f->built = false;
	zoom_clear(f);
}

void flame_cycle(struct view *v)
{
	struct flame_ui *f = &v->flame;
	if (!f->open) {
		f->open = true;
		set_scope(f, KOV_FLAME_TARGET);
	} else if (f->scope == KOV_FLAME_OBJECT) {
		f->open = f->typing = false;
	} else {
		set_scope(f, f->scope == KOV_FLAME_TARGET ? KOV_FLAME_PROCESS : KOV_FLAME_OBJECT);
	}
}

void flame_toggle_callers(struct view *v)
{
	struct flame_ui *f = &v->flame;
	if (!f->open) {
		f->open = f->callers = true;
		set_scope(f, KOV_FLAME_OBJECT);
		return;
	}
	f->callers = !f->callers;
	f->built = false;
}

void flame_escape(struct view *v)
{
	struct flame_ui *f = &v->flame;
	if (f->typing || f->search[0]) {
		f->typing = false;
		f->search[0] = 0;
		f->built = false;
	} else if (f->n_zoom) {
		zoom_clear(f);
	} else {
		f->open = false;
	}
}

void flame_type(struct view *v, const char *text)
{
	struct flame_ui *f = &v->flame;
	size_t n = strlen(f->search);
	if (n + strlen(text) < sizeof f->search)
		strcat(f->search, text);
	f->built = false;
}

void flame_backspace(struct view *v)
{
	struct flame_ui *f = &v->flame;
	size_t n = strlen(f->search);
	if (n)
		f->search[n - 1] = 0;
	f->built = false;
}

/* Zooms to node i: the path of frames to it, from below the root. */
static void zoom_to(struct flame_ui *f, const struct kov_profile *p, uint32_t i)
{
	zoom_clear(f);
	size_t depth = f->tree.nodes[i].depth;
	if (depth > FLAME_ZOOM_MAX)
		return;
	f->n_zoom = depth;
	for (uint32_t at = i; at && depth; at = f->tree.nodes[at].parent) {
		uint32_t name = f->tree.nodes[at].name;
		depth--;
		f->zoom[depth].name = strdup(p->names[name]);
		f->zoom[depth].obj = p->objects[name];
	}
	for (size_t k = 0; k < f->n_zoom; k++)
		if (!f->zoom[k].name) {   /* out of memory: not zoomed */
			zoom_clear(f);
			return;
		}
	f->zoom_node = i;
}

/* The zoomed path in the tree as built now: as deep as it is still there. */
static void resolve_zoom(struct flame_ui *f, const struct kov_profile *p)
{
	uint32_t at = 0;
	size_t k = 0;
	for (; k < f->n_zoom; k++) {
		uint32_t c = f->tree.nodes[at].child;
		for (; c != KOV_FLAME_NONE; c = f->tree.nodes[c].sibling) {
			uint32_t nm = f->tree.nodes[c].name;
			const struct kov_profile_obj *o = &p->objects[nm], *z = &f->zoom[k].obj;
			if (!strcmp(p->names[nm], f->zoom[k].name) && o->space == z->space &&
			    o->coid == z->coid && o->gen == z->gen)
				break;
		}
		if (c == KOV_FLAME_NONE)
			break;
		at = c;
	}
	while (f->n_zoom > k)
		free(f->zoom[--f->n_zoom].name);
	f->zoom_node = at;
}

bool flame_click(struct view *v, double x, double y)
{
	struct flame_ui *f = &v->flame;
	const struct kov_profile *p = &v->targets[v->current].stacks.prof;
	if (!f->open || !f->built)
		return false;
	for (size_t i = 0; i < f->n_boxes; i++) {
		const struct flame_box *b = &f->boxes[i];
		if (x < b->x || x >= b->x + b->w || y < b->y || y >= b->y + b->h)
			continue;
		if (b->node == 0)
			zoom_clear(f);
		else
			zoom_to(f, p, b->node);
		return true;
	}
	return false;
}

/* Builds the tree again when due; the search and the callers with it. */
void flame_update(struct view *v, uint64_t now)
{
	struct flame_ui *f = &v->flame;
	struct target *t = &v->targets[v->current];
	struct kov_live_stacks *l = &t->stacks;
	uint32_t pid;
	struct kov_profile_obj obj;
	char pn[160], on[160];
	int sel = view_selection(v, &pid, &obj, pn, sizeof pn, on, sizeof on);
	uint64_t version = l->version;
	if (now - f->renamed_ns >= RENAME_NS || !f->built) {
		kov_live_rename(l);
		f->renamed_ns = now;
	}
	bool renamed = l->version != version;   /* name indices changed: the tree is stale */
	bool moved = f->built_pid != pid || f->built_obj.coid != obj.coid ||
		     f->built_obj.space != obj.space || f->built_obj.gen != obj.gen ||
		     f->built_target != v->current;
	if (f->built && !renamed && !moved &&
	    (l->version == f->built_version || now - f->built_ns < REBUILD_NS))
		return;
	struct kov_flame_filter filter = { f->scope, pid, obj };
	f->note[0] = 0;
	if (f->scope == KOV_FLAME_TARGET)
		snprintf(f->scope_name, sizeof f->scope_name, "all samples of %.160s%s%s", t->host,
			 t->port[0] ? ":" : "", t->port);
	else if (f->scope == KOV_FLAME_PROCESS)
		snprintf(f->scope_name, sizeof f->scope_name, "%s", sel & VIEW_SEL_PROCESS ? pn : "no process selected");
	else
		snprintf(f->scope_name, sizeof f->scope_name, "%s", sel & VIEW_SEL_OBJECT ? on : "no object selected");
	bool empty_scope = (f->scope == KOV_FLAME_PROCESS && !(sel & VIEW_SEL_PROCESS)) ||
			   (f->scope == KOV_FLAME_OBJECT && !(sel & VIEW_SEL_OBJECT));
	if (empty_scope)
		filter.obj.coid = filter.pid = UINT32_MAX;   /* matches nothing */
	if (kov_flame_build(&f->tree, &l->prof, &filter) != 0)
		snprintf(f->note, sizeof f->note, "out of memory building the call tree");
	kov_grow((void **)&f->match, &f->match_cap, f->tree.n, sizeof *f->match);
	f->matched = f->match_cap >= f->tree.n ? kov_flame_search(&f->tree, &l->prof, f->search, f->match) : 0;
	kov_flame_callers_free(&f->callers_of);
	if (sel & VIEW_SEL_OBJECT)
		kov_flame_callers(&f->callers_of, &l->prof, &obj);
	resolve_zoom(f, &l->prof);
	f->built = true;
	f->built_version = l->version;
	f->built_ns = now;
	f->built_pid = pid;
	f->built_obj = obj;
	f->built_target = v->current;
}

/* A node's frames from the root (the whole target's and an object's root are none), ';'
 * between (the folded-stacks form). */
void flame_path(const struct flame_ui *f, const struct kov_profile *p, uint32_t i, char *buf, size_t n)
{
	uint32_t chain[FLAME_ZOOM_MAX + 2];
	size_t k = 0;
	for (uint32_t at = i; at != KOV_FLAME_NONE && k < sizeof chain / sizeof chain[0];
	     at = f->tree.nodes[at].parent)
		if (f->tree.nodes[at].name != KOV_FLAME_NONE)   /* a process's root is a frame */
			chain[k++] = at;
	size_t used = 0;
	buf[0] = 0;
	while (k-- > 0 && used < n)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ";" : "",
					 p->names[f->tree.nodes[chain[k]].name]);
}

void flame_report(const struct view *v, FILE *out)
{
	const struct flame_ui *f = &v->flame;
	const struct target *t = &v->targets[v->current];
	const struct kov_live_stacks *l = &t->stacks;
	const struct kov_profile *p = &l->prof;
	static const char *scopes[] = { "target", "process", "object" };
	char zoom[2048] = "", path[2048];
	if (f->zoom_node && f->zoom_node < f->tree.n)
		flame_path(f, p, f->zoom_node, zoom, sizeof zoom);
	fprintf(out, "viewer: flame: open=%d scope=%s root=\"%s\" total=%llu stacks=%zu boxes=%zu "
		"samples=%llu chained=%llu unknown_chain=%llu not_kept=%llu not_kept_stacks=%llu "
		"zoom=\"%s\" search=\"%s\" matched=%llu matched_share=%.2f note=\"%s\"\n", f->open,
		scopes[f->scope], f->scope_name, (unsigned long long)f->tree.total, f->tree.stacks,
		f->n_boxes, (unsigned long long)l->samples, (unsigned long long)l->chained,
		(unsigned long long)l->unknown_chain, (unsigned long long)l->not_kept,
		(unsigned long long)l->not_kept_stacks, zoom, f->search, (unsigned long long)f->matched,
		kov_share(f->matched, f->tree.total), f->note);
	size_t lines = 0;
	for (size_t i = 0; i < f->n_boxes && lines < 300; i++) {
		const struct flame_box *b = &f->boxes[i];
		const struct kov_flame_node *n = &f->tree.nodes[b->node];
		if (b->w < 2 || !b->node)
			continue;
		const struct kov_flame_node *up = &f->tree.nodes[n->parent];
		flame_path(f, p, b->node, path, sizeof path);
		fprintf(out, "viewer: flame box: depth=%u name=\"%s\" kernel=%d samples=%llu self=%llu "
			"share=%.2f parent_share=%.2f match=%d x=%.1f y=%.1f w=%.1f h=%.1f path=\"%s\"\n",
			n->depth, p->names[n->name], kov_profile_kernel(p, n->name),
			(unsigned long long)n->total, (unsigned long long)n->self,
			kov_share(n->total, f->tree.total), kov_share(n->total, up->total),
			f->match_cap >= f->tree.n && f->match[b->node], b->x, b->y, b->w, b->h, path);
		lines++;
	}
	if (f->hover_node != KOV_FLAME_NONE && f->hover_node && f->hover_node < f->tree.n) {
		const struct kov_flame_node *n = &f->tree.nodes[f->hover_node];
		fprintf(out, "viewer: flame hover: name=\"%s\" samples=%llu share=%.2f parent_share=%.2f\n",
			p->names[n->name], (unsigned long long)n->total, kov_share(n->total, f->tree.total),
			kov_share(n->total, f->tree.nodes[n->parent].total));
	}
	if (!f->callers)
		return;
	uint32_t pid;
	struct kov_profile_obj obj;
	char pn[160], on[160];
	view_selection(v, &pid, &obj, pn, sizeof pn, on, sizeof on);
	fprintf(out, "viewer: callers: object=\"%s\" total=%llu rows=%zu\n", on,
		(unsigned long long)f->callers_of.total, f->callers_of.n);
	for (size_t i = 0; i < f->callers_of.n; i++)
		fprintf(out, "viewer: caller: name=\"%s\" samples=%llu share=%.2f\n",
			p->names[f->callers_of.items[i].name],
			(unsigned long long)f->callers_of.items[i].samples, f->callers_of.items[i].share);
}

/* kov-viewer's input: keys (in the configuration utility, while typing a filter, a search or a
 * target, and in the main view), typed text, clicks, the pointer and the wheel. The keys are
 * listed in options.c's usage. */
#include <stdlib.h>
#include <string.h>
#include "viewer/app.h"
#include "viewer/layout.h"

bool input_text(struct view *v, const char *text)
{
	if (v->config.open && v->config.searching) {
		if (!v->config.search[0] && !strcmp(text, "/"))
			return true;   /* the key that started the search, as text */
		for (const char *c = text; *c; c++)
			config_key(&v->config, &v->targets[v->current], (unsigned char)*c);
		return true;
	}
	char *into = v->typing_filter ? v->tree.filter : v->typing_target ? v->new_target : NULL;
	size_t cap = v->typing_filter ? sizeof v->tree.filter : sizeof v->new_target;
	if (v->flame.typing)
		flame_type(v, text);
	else if (into && strlen(into) + strlen(text) < cap)
		strcat(into, text);
	return v->flame.typing || into;
}

void input_click(struct view *v, double x, double y)
{
	size_t r = view_row_at(v, x, y);
	if (r != (size_t)-1) {
		if (r == v->tree.selected && v->targets[v->current].have_scan)
			tree_toggle(&v->tree, &v->targets[v->current].scan, r);
		v->tree.selected = r;
	} else if (v->flame.open) {
		flame_click(v, x, y);
	}
}

/* The configuration utility's keys (config_key's letters). While its search is typed, the
 * text comes as text input; the arrows end the search and move. */
static void config_utility_key(struct view *v, SDL_Keycode k)
{
	struct target *t = &v->targets[v->current];
	if (v->config.searching) {
		int c = k == SDLK_RETURN || k == SDLK_UP || k == SDLK_DOWN ? '\r' : k == SDLK_ESCAPE ? 27 :
			k == SDLK_BACKSPACE ? 8 : 0;
		if (c)
			config_key(&v->config, t, c);
		if (k != SDLK_UP && k != SDLK_DOWN)
			return;
	}
	if (k == SDLK_SLASH)
		SDL_StartTextInput();
	int c = k == SDLK_UP ? 'u' : k == SDLK_DOWN ? 'd' : k == SDLK_LEFT ? 'l' :
		k == SDLK_RIGHT ? 'r' : k == SDLK_RETURN ? '\r' : k == SDLK_ESCAPE ? 27 :
		k == SDLK_SPACE ? ' ' : k == SDLK_t ? 't' : k == SDLK_g ? 'g' : k == SDLK_s ? 's' :
		k == SDLK_PLUS || k == SDLK_EQUALS || k == SDLK_KP_PLUS ? '+' :
		k == SDLK_MINUS || k == SDLK_KP_MINUS ? '-' : k == SDLK_COMMA ? '<' :
		k == SDLK_PERIOD ? '>' : k == SDLK_SLASH ? '/' : k == SDLK_h ? 'h' : k == SDLK_c ? 'c' : 0;
	if (c)
		config_key(&v->config, t, c);
}

/* The connect line (N): Enter connects to HOST:PORT, Esc cancels. */
static void connect_line_key(struct view *v, SDL_Keycode k)
{
	size_t n = strlen(v->new_target);
	if (k == SDLK_BACKSPACE && n) {
		v->new_target[n - 1] = 0;
	} else if (k == SDLK_ESCAPE || k == SDLK_RETURN) {
		v->typing_target = false;
		SDL_StopTextInput();
		const char *colon = strrchr(v->new_target, ':');
		long port = colon ? strtol(colon + 1, NULL, 10) : 0;
		if (k == SDLK_RETURN && colon && colon != v->new_target && port > 0 && port < 65536 &&
		    v->n_targets < MAX_TARGETS) {
			char host[256], p[8];
			snprintf(host, sizeof host, "%.*s", (int)(colon - v->new_target), v->new_target);
			snprintf(p, sizeof p, "%ld", port);
			target_init(&v->targets[v->n_targets], host, p, v->targets[0].token);
			v->current = v->n_targets++;
			v->tree.selected = v->tree.scroll = 0;
		}
		v->new_target[0] = 0;
	}
}

/* The flame graph's search (its text comes as text input) or the tree's filter being typed. */
static void typing_key(struct view *v, SDL_Keycode k)
{
	struct tree *tr = &v->tree;
	size_t n = strlen(tr->filter);
	if (v->flame.typing && k == SDLK_BACKSPACE) {
		flame_backspace(v);
	} else if (v->flame.typing && (k == SDLK_RETURN || k == SDLK_ESCAPE)) {
		SDL_StopTextInput();
		if (k == SDLK_ESCAPE)
			flame_escape(v);
		v->flame.typing = false;
	} else if (v->flame.typing) {
		return;
	} else if (k == SDLK_BACKSPACE && n) {
		tr->filter[n - 1] = 0;
	} else if (k == SDLK_RETURN || k == SDLK_ESCAPE) {
		v->typing_filter = false;
		SDL_StopTextInput();
		if (k == SDLK_ESCAPE)
			tr->filter[0] = 0;
	}
}

/* The selected row's object (NULL for a process row) and the pid to instrument it under (its
 * space, or the kernel's for kernel objects when by_space); false on the machine's row or
 * without a scan. */
static bool selected_row(const struct view *v, bool by_space, const struct kov_scan_object **ob,
			 uint32_t *pid)
{
	const struct target *t = &v->targets[v->current];
	const struct tree *tr = &v->tree;
	if (!t->have_scan || tr->selected >= tr->n || tr->rows[tr->selected].kind == ROW_MACHINE)
		return false;
	const struct row *r = &tr->rows[tr->selected];
	*ob = r->kind == ROW_OBJECT || r->kind == ROW_REP ? &t->scan.objects[r->obj] : NULL;
	*pid = !*ob ? t->scan.procs[r->proc].pid :
	       by_space ? kov_object_space((*ob)->pid, (*ob)->coid) : (*ob)->pid;
	return true;
}

/* I, K and F on the selected object (or process): invocation counting, sleep-lock figures and
 * full lock counting, each on or off. */
static void instrument_key(struct view *v, SDL_Keycode k)
{
	struct target *t = &v->targets[v->current];
	const struct kov_scan_object *ob;
	uint32_t pid;
	if (!selected_row(v, k != SDLK_k, &ob, &pid))
		return;
	if (k == SDLK_i) {
		uint64_t coid = ob ? ob->coid : 0;
		bool on = true;   /* I again on something counted turns it off */
		for (size_t c = 0; c < t->n_counted; c++)
			if (t->counted[c].pid == pid && t->counted[c].coid == coid) {
				on = false;
				t->counted[c] = t->counted[--t->n_counted];
				break;
			}
		target_instrument(t, pid, coid, on, PROTO_INSTR_INVOCATIONS);
	} else if (k == SDLK_k) {
		if (target_instrument(t, pid, ob && ob->coid < KOV_KERNEL_COID_BASE ? ob->coid : 0,
				      v->locks_paused, PROTO_INSTR_SLEEPLOCKS))
			v->locks_paused = !v->locks_paused;
	} else {
		target_toggle_full_counting(t, pid, ob ? ob->coid : 0);
	}
}

/* X on the selected object: a hot swap to its peer class. */
static void swap_key(struct view *v)
{
	const struct kov_scan_object *ob;
	uint32_t pid;
	if (selected_row(v, false, &ob, &pid) && ob)
		target_swap(&v->targets[v->current], kov_object_space(ob->pid, ob->coid), ob->coid,
			    ob->class_name);   /* a kernel object: pid 0 */
}

/* Moving in the tree, opening and closing its rows. */
static void tree_key(struct view *v, SDL_Keycode k)
{
	struct tree *tr = &v->tree;
	struct target *t = &v->targets[v->current];
	switch (k) {
	case SDLK_UP: if (tr->selected) tr->selected--; break;
	case SDLK_DOWN: if (tr->selected + 1 < tr->n) tr->selected++; break;
	case SDLK_PAGEUP: tr->selected = tr->selected > 20 ? tr->selected - 20 : 0; break;
	case SDLK_PAGEDOWN: tr->selected = tr->selected + 20 < tr->n ? tr->selected + 20 : tr->n - 1; break;
	default:   /* Return, Right, Left */
		if (t->have_scan && tr->selected < tr->n &&
		    (k == SDLK_RETURN || (k == SDLK_RIGHT) != tr->rows[tr->selected].expanded))
			tree_toggle(tr, &t->scan, tr->selected);
		break;
	}
}

/* The keys that change what the main view shows. */
static void view_key(struct view *v, SDL_Keycode k)
{
	struct tree *tr = &v->tree;
	switch (k) {
	case SDLK_SLASH:
		if (v->flame.open)
			v->flame.typing = true;
		else
			v->typing_filter = true;
		SDL_StartTextInput();
		break;
	case SDLK_ESCAPE:
		if (v->flame.open)
			flame_escape(v);
		else
			tr->filter[0] = 0;
		break;
	case SDLK_g: flame_cycle(v); break;
	case SDLK_w: flame_toggle_callers(v); break;
	case SDLK_l: v->show_locks = !v->show_locks; break;
	case SDLK_e: export_view(v, kov_now_ns()); break;
	case SDLK_m: v->sort_by_metric = !v->sort_by_metric; break;
	case SDLK_n:
		if (v->n_targets < MAX_TARGETS) {
			v->typing_target = true;
			SDL_StartTextInput();
		}
		break;
	case SDLK_LEFTBRACKET: v->pan_s += v->window_s / 4; break;                  /* back in time */
	case SDLK_RIGHTBRACKET: v->pan_s = v->pan_s > v->window_s / 4 ? v->pan_s - v->window_s / 4 : 0; break;
	case SDLK_END: v->pan_s = 0; break;
	case SDLK_c: if (v->targets[v->current].cat) config_open(&v->config, &v->targets[v->current]); break;
	case SDLK_x: swap_key(v); break;
	case SDLK_TAB: v->current = (v->current + 1) % v->n_targets; tr->selected = tr->scroll = 0; break;
	case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: if (v->window_s > 10) v->window_s /= 2; break;
	case SDLK_MINUS: case SDLK_KP_MINUS: if (v->window_s < 600) v->window_s *= 2; break;
	default: break;
	}
}

void input_key(struct view *v, SDL_Keycode k, SDL_Keymod mod, bool *quit)
{
	bool question = k == SDLK_QUESTION || (k == SDLK_SLASH && (mod & KMOD_SHIFT));
	if (v->help_open) {   /* any key closes the help; ? and Esc only close it */
		v->help_open = false;
		if (question || k == SDLK_ESCAPE)
			return;
	}
	if (question && !v->typing_target && !v->flame.typing && !v->typing_filter &&
	    !v->config.searching) {
		v->help_open = true;
		return;
	}
	if (v->config.open)
		config_utility_key(v, k);
	else if (v->typing_target)
		connect_line_key(v, k);
	else if (v->flame.typing || v->typing_filter)
		typing_key(v, k);
	else if (k == SDLK_q && (mod & KMOD_CTRL))
		*quit = true;
	else if (k == SDLK_UP || k == SDLK_DOWN || k == SDLK_PAGEUP || k == SDLK_PAGEDOWN ||
		 k == SDLK_RETURN || k == SDLK_RIGHT || k == SDLK_LEFT)
		tree_key(v, k);
	else if (k == SDLK_i || k == SDLK_k || k == SDLK_f)
		instrument_key(v, k);
	else
		view_key(v, k);
}

/* The wheel: over the tree it scrolls (selecting the top row), over the panes it zooms time. */
static void wheel(struct view *v, int dy)
{
	int mx, my;
	SDL_GetMouseState(&mx, &my);
	if (mx < tree_w(v)) {
		size_t s = v->tree.scroll;
		v->tree.scroll = dy > 0 ? (s > 3 ? s - 3 : 0) : s + 3;
		v->tree.selected = v->tree.scroll;
	} else if (dy > 0 && v->window_s > 10) {
		v->window_s /= 2;
	} else if (dy < 0 && v->window_s < 600) {
		v->window_s *= 2;
	}
}

void input_event(struct view *v, const SDL_Event *e, bool *quit)
{
	if (e->type == SDL_QUIT) {
		*quit = true;
	} else if (e->type == SDL_KEYDOWN) {
		input_key(v, e->key.keysym.sym, SDL_GetModState(), quit);
	} else if (e->type == SDL_TEXTINPUT) {
		input_text(v, e->text.text);
	} else if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
		input_click(v, e->button.x, e->button.y);
	} else if (e->type == SDL_MOUSEMOTION) {
		v->mouse_x = e->motion.x;
		v->mouse_y = e->motion.y;
	} else if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_LEAVE) {
		v->mouse_x = v->mouse_y = -1;
	} else if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
		v->resizes++;   /* the frame's surface follows (main.c's fit_surface) */
	} else if (e->type == SDL_MOUSEWHEEL) {
		wheel(v, e->wheel.y);
	}
}

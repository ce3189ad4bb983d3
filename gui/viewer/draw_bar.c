/* The target bar across the top: a tab per target (its connection's state), the current
 * target's description and losses, and a target's details when the pointer is on its tab. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "viewer/layout.h"

void draw_target_bar(cairo_t *cr, struct view *v, double w)
{
	draw_box(cr, 0, 0, w, BAR_H, 0xF3F4F6, 0xD6D9DE);
	double x = PAD;
	for (size_t i = 0; i < v->n_targets; i++) {
		const struct target *t = &v->targets[i];
		unsigned dot = t->state == CONN_UP ? 0x2E9E4F : t->state == CONN_REFUSED ? 0xC92A2A :
			       t->state == CONN_REPLAY ? 0x2F6FDE : 0xE8A317;
		char label[300];
		snprintf(label, sizeof label, "%.200s%s%.7s  %.20s", t->host, t->port[0] ? ":" : "",
			 t->port, conn_name(t->state));
		double tw = text_width(cr, FONT_BOLD, label) + 30;
		if (i == v->current)
			draw_box(cr, x - 4, 4, tw + 8, 20, 0xFFFFFF, 0xB8BEC6);
		v->tab_x[i] = x - 4;
		v->tab_w[i] = tw + 8;
		draw_rgb(cr, dot);
		cairo_arc(cr, x + 6, 14, 4.5, 0, 2 * M_PI);
		cairo_fill(cr);
		draw_rgb(cr, 0x1F2328);
		text_draw(cr, x + 16, 6, FONT_BOLD, label);
		x += tw + 14;
	}
	if (v->typing_target) {
		char prompt[360];
		snprintf(prompt, sizeof prompt, "connect to HOST:PORT: %s▏  (Enter connects, Esc cancels)",
			 v->new_target);
		draw_rgb(cr, 0x0B3D91);
		text_draw(cr, x + 10, 6, FONT_BOLD, prompt);
	} else if (v->n_targets < MAX_TARGETS) {
		draw_rgb(cr, 0x8C959F);
		text_draw(cr, x + 10, 8, FONT_SMALL, "N: connect another target");
	}
	const struct target *t = &v->targets[v->current];
	char line[700], losses[200];
	target_losses_short(t, losses, sizeof losses);
	if (t->state == CONN_UP) {
		const struct kov_target *d = kov_client_target(t->c);
		char cpus[48];
		target_cpus_text(d, cpus, sizeof cpus);
		snprintf(line, sizeof line, "%s · %s · %s · %s (pvr 0x%08x) · PMU %s · %s · "
			 "%llu samples · %llu intervals · config %u · %s", d->profile, d->model, cpus,
			 kov_pvr_name(d->pvr), d->pvr, d->pmu,
			 kov_role_name(d->role), (unsigned long long)t->samples_total,
			 (unsigned long long)t->intervals, (unsigned)t->st.config_id, losses);
	} else if (t->state == CONN_REPLAY) {
		snprintf(line, sizeof line, "%s · %llu samples · %llu intervals · %s", t->status,
			 (unsigned long long)t->samples_total, (unsigned long long)t->intervals, losses);
	} else {
		snprintf(line, sizeof line, "%s — retrying every 2 s", t->status);
	}
	draw_rgb(cr, 0x57606A);
	double lw = text_draw(cr, PAD, 26, FONT_SMALL, line);
	/* Counts and samples of a configuration asking for one mode that the counters ignore. */
	char modes[400];
	target_modes_warning(t, modes, sizeof modes);
	if (modes[0]) {
		draw_rgb(cr, 0xB35900);
		text_fit(cr, PAD + lw + 12, 26, w - lw - 2 * PAD - 12, FONT_SMALL, modes);
	}
}

/* A target's description when the pointer is on its tab. */
void draw_tab_tip(cairo_t *cr, struct view *v)
{
	for (size_t i = 0; i < v->n_targets; i++) {
		const struct target *t = &v->targets[i];
		if (v->mouse_y < 4 || v->mouse_y > 24 || v->mouse_x < v->tab_x[i] ||
		    v->mouse_x > v->tab_x[i] + v->tab_w[i])
			continue;
		char tip[2400];
		if (t->state == CONN_UP) {
			const struct kov_target *d = kov_client_target(t->c);
			char cpus[48];
			target_cpus_text(d, cpus, sizeof cpus);
			snprintf(tip, sizeof tip, "%s:%s\nprofile %s · %s\n%s · %s (pvr 0x%08x) · %llu MiB\n"
				 "PMU %s · %zu events · protocol %u.%u\nkernel %s · %s\nrole %s%s%s",
				 t->host, t->port, d->profile, d->model, cpus,
				 kov_pvr_name(d->pvr), d->pvr, (unsigned long long)(d->memory >> 20), d->pmu,
				 t->n_cat, d->major, d->minor, d->build_id, d->server, kov_role_name(d->role),
				 d->reason[0] ? ": " : "", d->reason);   /* sized for the longest fields */
		} else {
			snprintf(tip, sizeof tip, "%s%s%s\n%s: %s", t->host, t->port[0] ? ":" : "", t->port,
				 conn_name(t->state), t->status);
		}
		double w = 420, h = text_wrap(cr, -10000, 0, w - 16, FONT_SMALL, tip) + 12;
		draw_box(cr, v->tab_x[i], 28, w, h, 0xFFFDE7, 0xB8BEC6);
		draw_rgb(cr, 0x1F2328);
		text_wrap(cr, v->tab_x[i] + 8, 34, w - 16, FONT_SMALL, tip);
		v->hover_shown = true;
	}
}

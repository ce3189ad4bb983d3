/* What the PMU configuration utility's files share (config_ui.c: state and keys,
 * config_list.c: the catalogue as listed, config_explain.c: the planner's word on the group
 * and the cursor's event, config_draw.c: drawing). */
#ifndef KOV_VIEWER_CONFIG_H
#define KOV_VIEWER_CONFIG_H

#include "viewer/viewer.h"
#include "common/monitor/km_plan.h"

/* The planner's view of the target's catalogue (config_explain.c), rebuilt by config_open. */
struct catalogue *config_catalogue(void);
void config_catalogue_load(const struct target *t);
/* The configuration being built as the planner takes it (catalogue indices); counting_only
 * leaves out the events that do not count here (kept as plans for their own processor). */
void config_to_km(const struct proto_pmu_config *c, struct km_config *k, bool counting_only);
/* The group being edited, its placement and the cursor's event with it (ui->placed,
 * plan_why, verdict, whatif). */
void config_explain(struct config_ui *ui, const struct target *t);

/* Sections and rows from the catalogue, the search and the hidden sections; the cursor kept
 * on its event where it is still listed. */
void config_list_build(struct config_ui *ui, const struct target *t);
/* The event under the cursor, or NULL on a heading or an empty list. */
const struct kov_event *config_cursor_event(const struct config_ui *ui, const struct target *t);
/* The cursor moved by delta rows, within the list. */
void config_move(struct config_ui *ui, int delta);
/* A key while the search is typed: true when it was the search's. */
bool config_search_key(struct config_ui *ui, const struct target *t, int key);
/* 'h' or Space on a heading: the section under the cursor shown or hidden. */
void config_toggle_section(struct config_ui *ui, const struct target *t);

/* A slice length in words: "10 ms", "250 us", "100000 instructions". */
void config_slice_text(const struct proto_pmu_config *c, char *buf, size_t n);

#endif

/* The catalogue as the configuration utility lists it: events that count and sample here
 * first, then one section per reason an event does not (the reason said once, as the
 * section's heading: under QEMU one reason covers 35 of the 970's events), a section hidden
 * to its heading on request, and '/' narrowing the list to events whose name or description
 * holds the search. */
#include <string.h>
#include <strings.h>
#include "viewer/config.h"

static size_t section_of(struct config_ui *ui, const char *why)
{
	for (size_t s = 0; s < ui->n_sections; s++)
		if (!strcmp(ui->section_why[s], why))
			return s;
	if (ui->n_sections == CONFIG_SECTIONS)
		return CONFIG_SECTIONS - 1;   /* more reasons than sections: the last one takes them */
	ui->section_why[ui->n_sections] = why;
	ui->section_events[ui->n_sections] = 0;
	return ui->n_sections++;
}

static bool matches(const struct config_ui *ui, const struct kov_event *e)
{
	return !ui->search[0] || strcasestr(e->name, ui->search) ||
	       (e->description && strcasestr(e->description, ui->search));
}

void config_list_build(struct config_ui *ui, const struct target *t)
{
	const struct config_row *was = ui->cursor < ui->n_rows ? &ui->rows[ui->cursor] : NULL;
	struct config_row keep = was ? *was : (struct config_row){ true, 0, 0 };
	ui->n_sections = 0;
	section_of(ui, "");   /* section 0: counts and samples here */
	uint8_t sec[CONFIG_ROWS];
	for (size_t i = 0; i < t->n_cat && i < CONFIG_ROWS; i++) {
		sec[i] = (uint8_t)section_of(ui, t->cat[i].why_not ? t->cat[i].why_not : "");
		ui->section_events[sec[i]]++;
		ui->section_counts[sec[i]] = t->cat[i].flags & PROTO_EV_COUNTS_HERE;
	}
	ui->n_rows = 0;
	for (size_t s = 0; s < ui->n_sections; s++) {
		size_t heading = ui->n_rows, shown = 0;
		ui->rows[ui->n_rows++] = (struct config_row){ true, (uint8_t)s, 0 };
		for (size_t i = 0; i < t->n_cat && i < CONFIG_ROWS; i++) {
			if (sec[i] != s || !matches(ui, &t->cat[i]))
				continue;
			shown++;
			if (!ui->hidden[s] && ui->n_rows < CONFIG_ROWS)
				ui->rows[ui->n_rows++] = (struct config_row){ false, (uint8_t)s, (uint16_t)i };
		}
		if (!shown && ui->search[0])
			ui->n_rows = heading;   /* a search lists only the sections it found events in */
	}
	/* The cursor stays on what it was on, else on the first event listed. */
	size_t first_event = ui->n_rows;
	for (size_t r = ui->n_rows; r-- > 0;)
		if (!ui->rows[r].heading)
			first_event = r;
	ui->cursor = first_event < ui->n_rows ? first_event : 0;
	for (size_t r = 0; was && r < ui->n_rows; r++)
		if (ui->rows[r].heading == keep.heading && ui->rows[r].section == keep.section &&
		    (keep.heading || ui->rows[r].ev == keep.ev))
			ui->cursor = r;
}

const struct kov_event *config_cursor_event(const struct config_ui *ui, const struct target *t)
{
	if (ui->cursor >= ui->n_rows || ui->rows[ui->cursor].heading)
		return NULL;
	size_t i = ui->rows[ui->cursor].ev;
	return i < t->n_cat ? &t->cat[i] : NULL;
}

void config_move(struct config_ui *ui, int delta)
{
	if (delta < 0 && ui->cursor > 0)
		ui->cursor--;
	else if (delta > 0 && ui->cursor + 1 < ui->n_rows)
		ui->cursor++;
}

void config_toggle_section(struct config_ui *ui, const struct target *t)
{
	if (ui->cursor >= ui->n_rows)
		return;
	size_t s = ui->rows[ui->cursor].section;
	ui->hidden[s] = !ui->hidden[s];
	ui->cursor = 0;   /* on the heading, which stays */
	for (size_t r = 0; r < ui->n_rows; r++)
		if (ui->rows[r].heading && ui->rows[r].section == s)
			ui->cursor = r;
	config_list_build(ui, t);
	for (size_t r = 0; r < ui->n_rows; r++)
		if (ui->rows[r].heading && ui->rows[r].section == s)
			ui->cursor = r;
}

bool config_search_key(struct config_ui *ui, const struct target *t, int key)
{
	if (!ui->searching)
		return false;
	size_t n = strlen(ui->search);
	if (key == '\r') {
		ui->searching = false;
	} else if (key == 27) {
		ui->searching = false;
		ui->search[0] = 0;
	} else if (key == 8) {
		if (n)
			ui->search[n - 1] = 0;
	} else if (key >= ' ' && key < 127 && n + 1 < sizeof ui->search) {
		ui->search[n] = (char)key;
		ui->search[n + 1] = 0;
	} else {
		return true;   /* nothing else while typing */
	}
	config_list_build(ui, t);
	return true;
}

/* kov-viewer: the SDL2 + Cairo viewer of KOV targets. Shared types of its files:
 * target.c (connections and the data they push), series.c (metric time series), tree.c (the
 * object tree's rows), draw.c (the frame, its panes in draw_*.c, their layout in layout.h) and
 * text.c (Cairo and Pango drawing), flame_view.c (the flame graph and callers view), main.c
 * (window, input, the frame loop, screenshots). Nothing here waits on the network: every
 * socket is polled without blocking once per frame. */
#ifndef KOV_VIEWER_H
#define KOV_VIEWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <cairo.h>
#include "client/client.h"
#include "client/objname.h"
#include "client/scan.h"
#include "client/pmuconf.h"
#include "client/metrics.h"
#include "client/lockstat.h"
#include "client/losses.h"
#include "client/flame.h"
#include "client/livestacks.h"
#include "viewer/phase.h"
#include "kernel/abi/km_abi.h"

#define MAX_TARGETS 4
#define SERIES_CAP 36000              /* points per series: an hour of 100 ms intervals */

/* ---- series.c -------------------------------------------------------------------------- */
struct series {
	double *v;
	uint64_t *t;                      /* host time of each point, ns */
	size_t head, n;                   /* ring: the newest point is at head - 1 */
};
void series_init(struct series *s);
void series_free(struct series *s);
void series_push(struct series *s, uint64_t t, double v);
/* Points with t in [from, to): min/avg/max and how many; false when none. */
bool series_stats(const struct series *s, uint64_t from, uint64_t to, double *min, double *avg,
	double *max, size_t *count);
/* How many of the newest points are at or after `from`, up to the first older one. */
size_t series_since(const struct series *s, uint64_t from);
/* The i-th newest point (0 = newest); false past the oldest. */
bool series_at(const struct series *s, size_t i, uint64_t *t, double *v);

/* ---- target.c, target_conn.c, target_model.c ------------------------------------------ */
enum pane_kind { PANE_IPC, PANE_SPIN, PANE_MMU, PANE_BRANCH, PANE_LOCKACQ, PANES };

/* A metric over time; what each shows and where it comes from: docs/metrics.md. */
struct pane {
	const char *title, *unit;
	char subtitle[240];               /* what the figure is, beside the title */
	char no_data[200];                /* what to do while it has no point yet */
	bool available;                   /* the target can count what the pane shows */
	char why[300];                    /* otherwise, why not (or what to configure) */
	struct series s;
	struct series s2;                 /* a second opinion drawn dashed (PANE_SPIN: instruction
	                                     samples in the wait loop); unallocated elsewhere */
	cairo_surface_t *chart;           /* the chart as last drawn (draw.c) */
	uint64_t chart_key[7];            /* what it showed */
};

#define OBJ_HIST 256                  /* report intervals of history per object */
#define OBJ_PCS 24                    /* sampled PCs kept per object (the most frequent) */
#define IV_HIST 1024                  /* report intervals of sample totals kept */

struct obj_stat {                     /* samples per object since connected */
	uint32_t pid, gen;                /* pid: 0 for kernel objects */
	uint64_t coid;
	uint64_t samples, spin, last_ns;
	uint64_t rep_samples[16];         /* of them, on each CPU's rep of a per-CPU object */
	uint32_t iv_count;                /* samples in the current report interval */
	uint64_t calls;                   /* method calls counted (INVOCATIONS), since connected */
	struct { uint64_t iv; uint32_t n; } hist[OBJ_HIST];   /* intervals it had samples in */
	size_t hist_head, hist_n;
	struct { uint64_t pc; uint64_t n; } pcs[OBJ_PCS];
	size_t n_pcs;
	struct kov_objname name;          /* as the last scan listing it said: kept once it is gone */
};

enum conn_state { CONN_IDLE, CONN_UP, CONN_DOWN, CONN_REFUSED, CONN_REPLAY };

#define RESCAN_NS 5000000000ull      /* a live target's scan is asked for again this often */
#define RESCAN_UNNAMED_NS 1000000000ull   /* sooner when samples name objects no scan listed */

#define HOT_NAMES 64                  /* symbolized PCs of the selected object: hot spots and
                                         its locks' call sites */
#define LOCK_NAMES 64                 /* kernel locks of no object named by symbol */
#define SWAP_MARKS 32                 /* hot swaps kept for the time axis and the tree */
#define THROTTLE_MARKS 32             /* changes of the monitor's sampling periods kept */
#define MAX_LOCK_ROWS 32              /* locks the lock view lists, the heaviest waits */
#define FLAME_MAX_STACKS 20000        /* distinct call stacks kept for the flame graph */

struct spin_range { uint32_t space; uint64_t lo, hi; };

struct target {
	char host[256], port[8];
	const char *token;
	struct kov_client *c;
	enum conn_state state;
	char status[300];
	/* Why the target refused the lock stream ("lock statistics are not built into this
	 * image"), or "": the lock panes say it instead of waiting for data. */
	char locks_refused[200];
	uint64_t next_try_ns;
	struct kov_scan scan;
	bool have_scan;
	uint64_t scan_no;                 /* scans taken: the tree is built again from a new one */
	uint32_t scan_req;
	uint64_t next_scan_ns;
	uint32_t sym_req, sym_space;      /* an outstanding SYMBOL_TABLE_GET */
	uint32_t want_space;              /* a program whose table samples asked for, 0 none */
	uint32_t spaces_known[64];        /* spaces whose spin-lock code is known */
	size_t n_spaces_known;
	struct spin_range spin[128];
	size_t n_spin;
	struct pane pane[PANES];
	int ev_inst;                      /* PM_INST_CMPL's catalogue index, -1 when absent */
	struct kov_metric_set metrics;    /* the derived metrics' events (client/metrics.h) */
	bool cycles_emulated;             /* QEMU: IPC is instructions per virtual ns */
	bool stcx_counted;                /* lock acquisition success from PM_STCX_PASS/FAIL */
	struct kov_target desc;           /* the handshake's description (a replay's if recorded) */
	bool have_desc;
	/* samples of the current report interval */
	uint64_t iv_inst, iv_spin, iv_all;
	uint64_t iv_no;                   /* report intervals seen */
	uint64_t iv_total[IV_HIST];       /* samples in each of the last intervals, by iv_no */
	uint64_t iv_time[IV_HIST];        /* host time each ended */
	/* the selected object's hot spots and lock call sites: one SYMBOL_LOOKUP at a time */
	uint32_t hot_req;
	uint32_t hot_pid;                 /* the space they are in (0: kernel) */
	uint64_t hot_coid;
	uint64_t hot_pcs[HOT_NAMES];
	char hot_names[HOT_NAMES][96];
	size_t n_hot;
	struct obj_stat *objs;
	size_t n_objs, cap_objs;
	uint64_t calls_total;             /* INVOCATIONS counted since connected */
	struct { uint32_t pid; uint64_t coid; } counted[64];   /* what the viewer turned on */
	size_t n_counted;
	/* lock statistics (target_locks.c) */
	struct kov_lock_table *locks;     /* every lock's reports summed since connected */
	struct kov_lock_meter lock_meter; /* the report interval being summed */
	/* kernel locks of no object, named by symbol (a static lock has one): asked in batches */
	uint32_t lockname_req;
	uint64_t lockname_addr[LOCK_NAMES];
	char lockname[LOCK_NAMES][96];    /* "" while asked or when the lookup found none */
	size_t n_locknames, lockname_asked;
	uint64_t lock_intervals;
	struct { uint32_t pid; uint64_t coid; } full[64];   /* full lock counting turned on here */
	size_t n_full;
	/* Hot swaps seen (asked here, or another client's pushed SWAPPED), the newest last: the
	 * time axis and the tree mark them (target_swaps.c). */
	struct swap_mark {
		uint64_t at;              /* host time it was answered or arrived */
		uint32_t pid;
		uint64_t coid;
		bool swapped;             /* false: refused, the object left as it was */
		char to[32];
	} swaps[SWAP_MARKS];
	size_t n_swaps;
	/* The monitor's cost bound (pushed THROTTLE, protocol 1.7): each change of the factor its
	 * sampling periods are multiplied by, the newest last, marked on the time axis
	 * (target_throttle.c). */
	struct throttle_mark {
		uint64_t at;              /* host time it arrived */
		uint32_t factor, cost_bp, limit_bp;
	} throttles[THROTTLE_MARKS];
	size_t n_throttles;
	uint64_t samples_total, frames, intervals;
	struct kov_losses losses;         /* lost, dropped, discarded since connected (or in the
	                                     recording): the top contributors say so */
	struct kov_live_stacks stacks;    /* every sample's call stack, named by the symbol
	                                     tables, scans and chains the target sent */
	/* The configuration in effect as last seen (CONFIG_GET at connect, PMU_CONFIG pushed or
	 * answered): the modes it asks for, and its events whose counts include both anyway. */
	uint16_t cfg_modes;
	char modes_ignored[200];
	struct proto_status st;
	/* The event catalogue: the client's while connected, or the recording's. */
	const struct kov_event *cat;
	size_t n_cat;
	/* Recording (kovctl's format) of everything this target sends, when asked. */
	FILE *rec;
	uint64_t rec_start;
	bool recorded_scan;
	/* Replay: a recording's frames delivered at their recorded times. */
	struct kov_frame *rp_frames;
	uint64_t *rp_times;
	size_t rp_n, rp_next;
	uint64_t rp_start;
	struct kov_event *rp_cat;
};

void target_init(struct target *t, const char *host, const char *port, const char *token);
/* A target played back from a recording (kovctl record or --record); false with why. */
bool target_open_replay(struct target *t, const char *file, char *why, size_t n);
/* Starts writing everything the target sends to file (kovctl's recording format). */
bool target_record(struct target *t, const char *file);
/* One frame the target sent into the recording, when recording (replay.c). */
void target_record_frame(struct target *t, const struct proto_frame *f);
/* Connects (again) when due, reads what arrived without waiting, keeps scans fresh. */
void target_poll(struct target *t, uint64_t now_ns);
void target_free(struct target *t);
/* Turns invocation counting (PROTO_INSTR_INVOCATIONS), a process's sleep-lock figures
 * (PROTO_INSTR_SLEEPLOCKS) or full lock counting (PROTO_INSTR_LOCKS_FULL) on or off for one
 * object (coid) or a process (coid 0), and makes sure their stream runs: false with the
 * reason in t->status when the target refused. */
bool target_instrument(struct target *t, uint32_t pid, uint64_t coid, bool on, uint16_t what);
/* Starts monitoring with `streams`; where the target refuses the lock stream as unavailable (an
 * image built without lock statistics) it starts the others and keeps the reason in
 * t->locks_refused. Returns 0, or the client's error of the start that failed. */
int target_start(struct target *t, uint32_t streams);
/* Hot swaps (target_swaps.c): X on a selected object swaps it to its peer class (the
 * optimizer's pairs: client/optimizer.h), controller only; a SWAPPED frame, asked or pushed,
 * becomes a mark. The newest mark of an object, or NULL. */
bool target_swap(struct target *t, uint32_t pid, uint64_t coid, const char *cls);
void target_take_swapped(struct target *t, const struct proto_frame *f);
/* A pushed THROTTLE (target_throttle.c): marked on the time axis, said in the title. */
void target_take_throttle(struct target *t, const struct proto_frame *f);
const struct swap_mark *target_swap_mark(const struct target *t, uint32_t pid, uint64_t coid);
/* Asks for the symbols of object (space, coid, gen)'s hottest PCs and its locks' call sites
 * when they are not known yet. */
void target_want_symbols(struct target *t, uint32_t space, uint64_t coid, uint32_t gen);
/* A PC's symbol in space as the last lookup said ("name+0x1c"), or NULL. */
const char *target_symbol(const struct target *t, uint32_t space, uint64_t pc);
/* A looked-up symbol as the viewer shows it: "name+0xoff", or the address when it has none. */
void target_symbol_text(const struct proto_symbol *s, char *buf, size_t n);
const struct obj_stat *target_object(const struct target *t, uint32_t pid, uint64_t coid, uint32_t gen);
const char *conn_name(enum conn_state s);
/* From the catalogue: which panes this target can show (target.c). */
void judge_panes(struct target *t);
/* Installs a new scan and names the sampled objects from it (gone ones keep their names). */
void target_take_scan(struct target *t, struct kov_scan *s);
/* One pushed frame into the model (live or replayed). */
void target_take_frame(struct target *t, const struct proto_frame *f);
/* A PMU_CONFIG frame (the configuration applied): its modes and privilege filter. */
void target_take_config(struct target *t, const struct proto_frame *f);
/* "privilege filter not honoured here: kernel mode asked, PM_INST_CMPL, PM_CYC count both",
 * or "" when the configuration counts both modes or its events honour one. */
void target_modes_warning(const struct target *t, char *buf, size_t n);
/* The losses in a few words for the bar: "nothing lost" or "lost 144 · dropped 3 frames
 * (1480 samples) · discarded 40". */
void target_losses_short(const struct target *t, char *buf, size_t n);
/* "4 CPUs, parallel", "4 CPUs, taking turns", or "4 CPUs" from a target that does not say
 * (before protocol 1.5) or could not tell. */
void target_cpus_text(const struct kov_target *d, char *buf, size_t n);
/* The label for lock-wait figures measured on a serial machine (client.h's kov_serial_note),
 * or NULL. */
const char *target_serial_note(const struct target *t);
/* The window's title for target t: "KOV viewer — host:port · smp · 4 CPUs, parallel". */
void target_window_title(const struct target *t, char *buf, size_t n);

/* ---- target_locks.c: lock statistics in the model ------------------------------------- */
/* Asks (one SYMBOL_LOOKUP at a time) for the names of kernel locks of no object, and takes the
 * answer; false when the connection failed. */
bool target_name_locks(struct target *t);
/* A kernel lock's symbol ("pending_lock+0x0"), or NULL while unknown. */
const char *target_lock_name(const struct target *t, uint64_t lock);
/* A LOCK_CONTENTION (or 1.1 LOCK_STATS) frame: summed per lock; each completed report
 * interval adds the spin pane's measured wait and, without PM_STCX, the acquisition pane's
 * software counts. */
void target_take_locks(struct target *t, const struct proto_frame *f, uint64_t now);
/* The locks of object (space, coid, gen), or every lock (coid 0 and match_all), heaviest
 * wait first: at most max of them into out; returns how many there are in all. */
size_t target_locks_of(const struct target *t, bool match_all, uint32_t space, uint64_t coid,
		       uint32_t gen, const struct proto_lock **out, size_t max);
/* Measured wait, in timebase ticks, on object (space, coid, gen)'s locks of a kind (0: all). */
uint64_t target_lock_wait(const struct target *t, uint32_t space, uint64_t coid, uint32_t gen,
			  uint16_t kind);
/* F: full lock counting (every acquisition and hold) for a process (coid 0) or an object,
 * on when the viewer has not turned it on, else off. */
bool target_toggle_full_counting(struct target *t, uint32_t pid, uint64_t coid);
/* Whether the viewer turned full counting on for (pid, coid). */
bool target_full_counting(const struct target *t, uint32_t pid, uint64_t coid);

/* ---- tree.c ---------------------------------------------------------------------------- */
/* ROW_REP: one CPU's rep of a per-CPU object, under the object when it is open. */
enum row_kind { ROW_MACHINE, ROW_PROCESS, ROW_OBJECT, ROW_REP };
struct row {
	enum row_kind kind;
	int depth;
	size_t proc, obj;                 /* indices into the scan */
	bool has_children, expanded;
	int cpu;                          /* ROW_REP: the rep's CPU */
	uint32_t pid, gen;                /* what the row shows, for keeping the selection on it */
	uint64_t coid;                    /* when the next scan moves it (0 for machine, process) */
};
struct tree {
	struct row *rows;
	size_t n, cap;
	char filter[64];
	struct { uint32_t pid; uint64_t coid; } open[512];   /* nodes toggled from their default */
	size_t n_open;
	bool machine_closed;
	size_t selected, scroll;
	uint64_t built_key;               /* what the rows were last built from (tree_update) */
};
/* weight: per scan object, what to sort a process's objects by (heaviest first); NULL keeps
 * the scan's order. */
void tree_build(struct tree *tr, const struct kov_scan *s, const uint64_t *weight);
/* The same, only when something the rows come from changed: the scan (scan_no counts a
 * target's scans), the filter, the nodes opened or closed, or weight_epoch (a sort by samples
 * moves on as they arrive). With 10,000 objects a build is about a millisecond; most frames
 * need none. True when it built. */
bool tree_update(struct tree *tr, const struct kov_scan *s, uint64_t scan_no, const uint64_t *weight,
		 uint64_t weight_epoch);
void tree_toggle(struct tree *tr, const struct kov_scan *s, size_t row);
void tree_free(struct tree *tr);

/* ---- text.c ---------------------------------------------------------------------------- */
/* Draws text at (x, y) (top-left) with a font like "Sans 10"; returns its width. */
double text_draw(cairo_t *cr, double x, double y, const char *font, const char *s);
double text_width(cairo_t *cr, const char *font, const char *s);
/* One line cut to width with "…" where it is longer; returns the width drawn. */
double text_fit(cairo_t *cr, double x, double y, double width, const char *font, const char *s);
/* Word-wrapped within width; returns the height used. */
double text_wrap(cairo_t *cr, double x, double y, double width, const char *font, const char *s);

/* ---- config_ui.c, config_list.c, config_draw.c: the PMU configuration utility ------------ */
#define CONFIG_SECTIONS 16            /* distinct reasons an event does not count or sample */
#define CONFIG_ROWS (64 + CONFIG_SECTIONS)
struct config_row {                   /* a line of the catalogue as listed */
	bool heading;                     /* a section's heading: the reason, said once */
	uint8_t section;
	uint16_t ev;                      /* events: index in the target's catalogue */
};
struct config_placed {                /* an event of the group as the planner placed it */
	char name[PROTO_NAME_MAX + 1];
	uint8_t pmc;                      /* 0: a software event */
	bool added;                       /* added by the planner (instructions, cycles) */
	uint64_t threshold;
};
struct config_ui {
	bool open, sent;
	struct kov_pmuconf conf;          /* the configuration being built */
	size_t used;                      /* name slots of conf in use */
	unsigned group;                   /* the group being edited */
	size_t cursor;                    /* the row under the cursor */
	char msg[300];                    /* the last reason, refusal or hint */
	/* The catalogue as listed: a section per reason (section 0: counts and samples here),
	 * each headed by its reason once; hidden sections list their heading only. */
	const char *section_why[CONFIG_SECTIONS];   /* into the catalogue's why_not */
	size_t section_events[CONFIG_SECTIONS];
	bool section_counts[CONFIG_SECTIONS];   /* its events count here (sampling is what fails) */
	bool hidden[CONFIG_SECTIONS];
	size_t n_sections;
	struct config_row rows[CONFIG_ROWS];
	size_t n_rows;
	bool searching;                   /* '/': the search is being typed */
	char search[48];                  /* rows whose name or description holds it */
	/* The planner's view of the group being edited, and of the event under the cursor. */
	struct config_placed placed[KM_MAX_GROUP_EVENTS];
	unsigned n_placed;
	char plan_why[300];               /* why the group as it is cannot be planned, or "" */
	/* The group's hardware events on the catalogue's own processor's counters (a 970's),
	 * where they are not what counts here (QEMU): each one's counter, or why they do not fit
	 * together. Events that do not count here may stay in a group as a plan for that
	 * processor; the planner refuses to send it. */
	struct config_placed native[KM_MAX_GROUP_EVENTS];
	unsigned n_native;
	char native_why[300];
	const char *native_name;          /* "970" */
	char verdict[300];                /* the cursor's event with the group: the planner's word */
	char whatif[300];                 /* the same on the catalogue's own processor's counters */
};
void config_open(struct config_ui *ui, const struct target *t);
/* Keys: 'u'/'d' move, ' ' toggles the event (or the section under a heading), 'h' shows or
 * hides the section under the cursor, '/' searches (typed characters, 8 erases, '\r' ends,
 * 27 clears), 't' the event's threshold, 'g' adds a group, 'l'/'r' switch groups, '+'/'-'
 * move share to or from the next group, '<'/'>' halve or double the slice, 's' saves, '\r'
 * sends, 27 closes. True when the key was the dialog's. */
bool config_key(struct config_ui *ui, struct target *t, int key);
void config_draw(cairo_t *cr, const struct config_ui *ui, const struct target *t, double x,
		 double y, double w, double h);
/* The screenshot report's lines about the utility (the tests read them). */
void config_report(const struct config_ui *ui, const struct target *t, FILE *out);

/* ---- flame_view.c: the flame graph (G) and the selected object's callers (W) ------------ */
#define FLAME_ZOOM_MAX (PROTO_MAX_CHAIN_DEPTH + 2)
struct flame_box {                    /* a box as last drawn, in points */
	uint32_t node;
	double x, y, w, h;
};
struct flame_ui {
	bool open;
	enum kov_flame_scope scope;
	bool callers;                     /* the callers panel beside the graph */
	bool typing;                      /* the search is being typed */
	char search[64];
	/* the zoomed node as the path of frames to it from the root, so that it survives the
	 * tree being built again (new samples) and frames being named again */
	struct { char *name; struct kov_profile_obj obj; } zoom[FLAME_ZOOM_MAX];
	size_t n_zoom;
	struct kov_flame tree;
	bool built;
	uint64_t built_version, built_ns, renamed_ns;
	size_t built_target;              /* the target, process and object it was built for */
	uint32_t built_pid;
	struct kov_profile_obj built_obj;
	bool *match;                      /* per node: matches the search */
	size_t match_cap;
	uint64_t matched;                 /* samples under matching nodes */
	struct kov_flame_callers callers_of;
	struct flame_box *boxes;
	size_t n_boxes, cap_boxes;
	uint32_t zoom_node, hover_node;   /* KOV_FLAME_NONE: none */
	char scope_name[200];             /* what the root stands for */
	char note[400];                   /* what the view says instead of (or above) a graph */
};
struct view;
/* G: opens the flame view (the whole target), then the selected process, the selected
 * object, then closes it. */
void flame_cycle(struct view *v);
/* W: the callers panel of the selected object (opening the flame view on the object). */
void flame_toggle_callers(struct view *v);
/* Esc in the flame view: ends the search being typed, else clears the search, else zooms
 * out, else closes the view. */
void flame_escape(struct view *v);
/* A click at (x, y) points: zooms into the box there (a box above the zoomed one zooms out
 * to it); false when no box is there. */
bool flame_click(struct view *v, double x, double y);
/* Text typed into the search. */
void flame_type(struct view *v, const char *text);
void flame_backspace(struct view *v);
/* Draws the view in (x, y, w, h), the tree built again when due. */
void flame_draw(cairo_t *cr, struct view *v, double x, double y, double w, double h, uint64_t now);
/* What the last frame drew, for --screenshot's report. */
void flame_report(const struct view *v, FILE *out);
/* Builds the tree again when due (new samples, names, scope or selection). */
void flame_update(struct view *v, uint64_t now);
/* Node i's frames from the root (a process's root is one), ';' between (folded stacks). */
void flame_path(const struct flame_ui *f, const struct kov_profile *p, uint32_t i, char *buf,
		size_t n);
void flame_free(struct flame_ui *f);

/* ---- draw.c ---------------------------------------------------------------------------- */
struct view {
	struct target *targets;
	size_t n_targets, current;
	struct tree tree;
	double window_s;                  /* seconds of history shown in the panes */
	bool typing_filter;
	bool show_locks;                  /* the bottom-right panel: locks instead of the selection */
	bool sort_by_metric;              /* tree: objects by samples, heaviest first (M) */
	double pan_s;                     /* panes: how far back from now their right edge is */
	struct config_ui config;          /* the PMU configuration utility, when open */
	double mouse_x, mouse_y;          /* points; negative when outside the window */
	double tab_x[MAX_TARGETS], tab_w[MAX_TARGETS];   /* where the bar drew each target */
	bool typing_target;               /* the connect line (N) is open */
	bool locks_paused;                /* K last turned sleep-lock figures off */
	size_t drawn_locks, hidden_locks; /* lock view rows drawn, locks not shown */
	char drawn_lock_top[600];         /* its first row: "0x... LockObj 0xd0000080 pid 2 wait=N" */
	char new_target[300];
	bool hover_shown;                 /* the last frame drew a hover value */
	int width, height;                /* drawing size in pixels */
	double scale;                     /* pixels per point (HiDPI) */
	/* what the last frame drew, for --screenshot's report */
	size_t drawn_rows, drawn_series, drawn_points;
	size_t drawn_swaps;               /* swap marks drawn on the panes' time axes */
	size_t drawn_throttles;           /* throttle marks drawn there */
	char drawn_top[1024];             /* the top contributors' lines, " | " between */
	size_t charts_drawn;              /* charts redrawn (not painted from the cache), ever */
	size_t charts_this_frame;         /* ... in the frame being drawn */
	int pane_rotor;                   /* the pane whose chart may redraw first this frame */
	struct flame_ui flame;            /* the flame graph, when open: instead of the panes */
	cairo_surface_t *frame;           /* the last frame drawn, in pixels (E exports it) */
	struct phase_clock phases;        /* where the last frame's time went (viewer/phase.h) */
	bool help_open;                   /* the key-help overlay (?) */
	size_t resizes;                   /* the window's size changes seen */
};
/* The selected row's process and object (flame_view.c), each with a name ("chainbench pid 5",
 * "ChainBench 0xd0000050"): VIEW_SEL_PROCESS and VIEW_SEL_OBJECT say which there are. */
enum { VIEW_SEL_PROCESS = 1, VIEW_SEL_OBJECT = 2 };
int view_selection(const struct view *v, uint32_t *pid, struct kov_profile_obj *obj,
		   char *proc_name, size_t pn, char *obj_name, size_t on);
void draw_view(cairo_t *cr, struct view *v, uint64_t now_ns);
/* Cairo's source colour from 0xRRGGBB; a filled box with a one-point outline. */
void draw_rgb(cairo_t *cr, unsigned hex);
void draw_box(cairo_t *cr, double x, double y, double w, double h, unsigned fill, unsigned line);
/* Where draw_box puts that box in the device's pixels: px = x0, y0, x1, y1, and its line's
 * width in pixels. */
void draw_box_pixels(cairo_t *cr, double x, double y, double w, double h, double px[4], double *lw);
/* The tree row under (x, y) in points, or (size_t)-1. */
size_t view_row_at(const struct view *v, double x, double y);

/* ---- help.c: the key-help overlay (?) ------------------------------------------------- */
void help_draw(cairo_t *cr, const struct view *v);
size_t help_lines(void);

/* ---- bench.c --------------------------------------------------------------------------- */
/* Draws `frames` frames of a model with `objects` objects and history_s seconds of points in
 * every pane, offscreen; prints the frame times. */
int viewer_bench(int objects, int history_s, int frames, int w, int h);
/* Prints frame times ms[0..n) (median, p95, max) and the same per phase (ph[f] the phases of
 * frame f, wall-clock and CPU time), with the phases' mean in the slowest 5% of the frames,
 * and cpu_ms[0..n) (or nothing, NULL): the drawing thread's own CPU time per frame, with the
 * slowest 1% of the frames by it phase by phase (bench_report.c). */
void bench_report(const char *label, const double *ms, const double *cpu_ms,
		  const struct phase_clock *ph, int n);
/* The CPU time of a fixed piece of work, the same every call (bench_ref.c): what the host
 * makes of the same work from frame to frame. */
double bench_reference_ms(void);
/* Prints ref_ms[0..n), bench_reference_ms's times beside the frames', with the ratio of each
 * one's maximum to its median beside the other's (bench_report.c). */
void bench_reference_report(const char *label, const double *ref_ms, const double *cpu_ms, int n);

#endif

/* The monitor's side of the daemon: the KM's data turned into the wire protocol's frames and
 * pushed to the subscribers (subscribers.h), and the requests that steer it. Its parts:
 *   monitor.c      the state, and the drain done every turn of the daemon's loop
 *   objmap.c       which object each rep is (samples, chains and locks name reps)
 *   samples.c      SAMPLES, SAMPLES_CHAINED
 *   intervals.c    at each interval's end: INTERVAL_COUNTS, LOST_SAMPLES, lock figures
 *   invocations.c  at each interval's end: INVOCATIONS
 *   control.c      the requests PMU_CONFIG, CONFIG_GET, START, STOP, INSTRUMENT */
#ifndef KOV_DCID_MONITOR_H
#define KOV_DCID_MONITOR_H

#include "dcid.h"

#define DCID_PERIOD_EVENTS 64              /* catalogue events whose sample periods are kept */
struct monitor_state {
	uint32_t config_id;
	uint32_t streams;                 /* PROTO_STREAM_* running, 0 when stopped */
	uint32_t interval_us;
	bool backlog;                     /* the last turn left samples in the rings */
	uint64_t interval_tb;             /* start of the current report interval */
	uint64_t next_interval_ns;
	uint64_t samples_lost;            /* reported by the KM since the daemon started */
	uint64_t swaps, swaps_failed;     /* hot swaps asked for (swap.c) that succeeded, failed */
	uint64_t unresolved;              /* samples whose rep no scan knew */
	uint64_t chains_cut;              /* chains cut where the wire could not carry them */
	uint64_t samples_discarded;       /* drained while no client took the samples stream */
	uint64_t counts_late;             /* interval counts the KM could not hand over at once */
	uint64_t invocation_reports_skipped; /* intervals without INVOCATIONS: no baseline */
	uint64_t invocation_objects_skipped; /* objects counted before the baseline, missing from it:
	                                      * reported from their next interval */
	/* Per catalogue event, the samples drained since the daemon started and the periods they
	 * stood for (randomized around the threshold by the KM), shown on /metrics so the
	 * distribution can be checked; the wire protocol's samples do not carry them. */
	struct sample_periods { uint64_t samples, events; uint32_t min, max; } periods[DCID_PERIOD_EVENTS];
};
extern struct monitor_state monitor;

/* Pushes what the KM produced; call every loop. */
void monitor_poll(uint64_t now_ns);
/* The longest the loop may sleep in poll(): -1 while not monitoring. */
int monitor_wait_ms(void);

/* The frame being built for the subscribers. One for every part: the daemon is one thread, and
 * each frame is pushed before the next is begun. */
extern uint8_t monitor_out[PROTO_MAX_FRAME];

/* ---- the cost bound (throttle.c) --------------------------------------------------------- */
/* The KM's throttle as the daemon last saw it (km_abi.h: struct km_throttle_io). */
struct throttle_seen {
	uint64_t seq, windows;
	uint32_t factor, cost_bp, limit_bp;
};
extern struct throttle_seen throttle_seen;
/* The daemon's drain is measured from throttle_mark to throttle_poll, which charges its CPU
 * time to the monitor's cost bound and pushes the factor's changes. */
void throttle_mark(void);
void throttle_poll(void);

/* ---- the object map (objmap.c) ---------------------------------------------------------- */
/* One rep of an object. slot: the rep's CPU + 1 for a per-CPU object's rep, 0 for a single-rep
 * object's (PROTO_REP_*). */
struct rep_entry { uint32_t pid, gen; uint64_t rep, coid; uint16_t slot; };
/* The object of a rep in pid's space (0: the kernel's) as of the last scan; 0 if unknown. */
const struct rep_entry *objmap_find(uint32_t pid, uint64_t rep);
/* Whether samples named this rep before and the last rescan did not find it. */
bool objmap_missed(uint32_t pid, uint64_t rep);
/* Remembers a rep that samples named and the map did not know. */
void objmap_note_missed(uint32_t pid, uint64_t rep);
/* Rescans if the last scan is old enough for an unknown rep: one that was not missed before
 * (fresh) sooner than one that was. True if it rescanned. */
bool objmap_refresh(bool fresh);

/* ---- samples (samples.c) ---------------------------------------------------------------- */
/* Drains the KM's sample rings (a bounded number of batches) and pushes what it drained to the
 * clients taking the samples stream, or counts it discarded. */
void samples_drain(void);

/* ---- interval reports (intervals.c, invocations.c) ------------------------------------ */
/* INTERVAL_COUNTS of the interval the KM has just closed (if the counts stream runs). */
void counts_push(void);
/* LOST_SAMPLES for [start, end), if the rings lost samples in it. */
void lost_push(uint64_t start, uint64_t end);
/* What each lock of the kernel and of every process did in [start, end): LOCK_CONTENTION to
 * 1.2 clients, LOCK_STATS to older ones. */
void locks_push(uint64_t start, uint64_t end);
/* The locks' records at START: the first interval's figures are counted from them. */
void locks_baseline(void);
/* The invocation counts at START (timebase tb), so the first report holds only its interval. */
void invocations_begin(uint64_t tb);
/* INVOCATIONS of the interval ending at `end`. */
void invocations_push(uint64_t end);
/* Invocation counting was turned on or off for object `index` (0xFFFFFFFF: all) of pid. */
void invocations_instrumented(uint32_t pid, uint32_t index, bool on);

#endif

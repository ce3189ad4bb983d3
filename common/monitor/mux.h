/* Multiplexing arithmetic: more event groups than the PMU can count at once take turns on it,
 * each for a configured share of the time (thesis 2.1.2; Linux perf's rotation), and every
 * count is reported with the time its event was enabled and the time it actually ran, so the
 * reader can scale it and knows how much of it is extrapolated.
 *
 * Scheduling is earliest-deadline-first over Pfair windows: at each slice boundary, among the
 * groups that have not run ahead of their share, the one whose next slice falls due first
 * runs. With equal slices every group's slice count stays within one slice of
 * n * share / total at every point (a strict bound); with unequal slices its time stays within
 * about one longest slice of its entitled time. Deterministic: ties go to the lower index. */
#ifndef KOV_MUX_H
#define KOV_MUX_H

#include <stdbool.h>
#include <stdint.h>

#define MUX_MAX_GROUPS 16
#define MUX_NAME_MAX 32

struct mux_group {
	char name[MUX_NAME_MAX];
	uint32_t share;       /* weight; a percentage when the shares add up to 100 */
	uint64_t ran;         /* time on the PMU since the group set last changed */
	uint64_t slices;
};

struct mux {
	struct mux_group group[MUX_MAX_GROUPS];
	int n;
	int current;          /* group on the PMU, -1 before the first switch */
	bool started;
	uint64_t last;        /* time of the last switch */
	uint64_t last_len;    /* length of the last slice: the guess for the next one */
	uint64_t total;       /* sum of the groups' `ran` */
};

void mux_init(struct mux *m);
/* Adds a group; returns its index, or -1 (no room, share 0, empty or too long name, name
 * taken). Changing the group set restarts the fairness accounting. */
int mux_add(struct mux *m, const char *name, uint32_t share);
int mux_find(const struct mux *m, const char *name);

struct mux_switch {
	int ran;              /* group whose slice just ended, -1 on the first call */
	uint64_t length;      /* that slice's length (0 if time went backwards) */
	int next;             /* group to put on the PMU now, -1 if there are none */
};
/* Called at each slice boundary with the current time (any monotonic unit). */
struct mux_switch mux_switch(struct mux *m, uint64_t now);

/* Per-event accounting for one reporting interval. */
struct mux_count {
	uint64_t raw;         /* events counted while the event's group was on the PMU */
	uint64_t enabled;     /* time the event was enabled (in the rotation) */
	uint64_t running;     /* time it was counting */
};

/* One slice of `length` for an enabled event: `delta` events if its group was running. Sums
 * saturate at UINT64_MAX. */
void mux_count_slice(struct mux_count *c, uint64_t length, bool running, uint64_t delta);
void mux_count_reset(struct mux_count *c);

/* scaled = raw * enabled / running, exact (rounded down) without 128-bit types.
 *
 * Error estimate: the extrapolated part (scaled - raw) is a guess that the event kept the
 * rate it had while observed. Modelling events as a Poisson process of that rate, the
 * guess's error has variance lambda*u*(u + r)/r (rate-estimate noise plus the unobserved
 * count's own noise, u = enabled - running, r = running); with lambda = raw / r this is
 * raw * u * enabled / r^2, and `stddev` is its square root: 0 when nothing was extrapolated.
 * No model can see bursts that happen only while the group is off the PMU; that is why the
 * raw numbers stay available. */
struct mux_estimate {
	bool counted;         /* false when running == 0: "not counted", value meaningless */
	bool saturated;       /* a result did not fit in 64 bits and is UINT64_MAX */
	uint64_t value;       /* scaled count; raw itself when running >= enabled */
	uint64_t extrapolated;
	uint64_t stddev;
};
struct mux_estimate mux_estimate(const struct mux_count *c);

/* a * b / d rounded down; *overflow set (and UINT64_MAX returned) when it does not fit or
 * d == 0. overflow may be NULL. */
uint64_t mux_muldiv(uint64_t a, uint64_t b, uint64_t d, bool *overflow);

#endif

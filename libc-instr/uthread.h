/* The C library's registry of its process's threads, for clustered-object quiescence. r13 of
 * each thread points at its record (user code is built with r13 reserved). */
#ifndef KOV_UTHREAD_H
#define KOV_UTHREAD_H

#include <stdint.h>
#include <stdbool.h>

#define UTHREAD_MAX 65

struct uthread {
	volatile uint64_t quiescent;   /* quiescent points passed */
	volatile uint64_t calm;        /* ... of them explicit (not sleeps): outside every method */
	volatile int alive;
	volatile int parked;           /* asleep in the kernel: quiescent for as long as it lasts */
	volatile uint64_t park_sp;     /* while parked: the frame a hot swap's walk starts from */
	volatile uint64_t park_seq;    /* odd while parked (a walk checks it did not change) */
};

/* The calling thread passes a quiescent point. */
void uthread_quiescent(void);
/* Brackets a sleep in the kernel; sp is the sleeping function's own frame (it must call
 * something, so that its return address is saved above it). */
void uthread_park(const void *sp);
void uthread_unpark(void);
/* A system call that may sleep, bracketed by a park (its own frame is where walks start). */
long uthread_blocking_syscall(long nr, long a1, long a2, long a3, long a4);
/* Whether thread record i is out of every call to the object with these reps (common/co/
 * co_swap.h's co_runtime_outside, for this runtime). */
bool uthread_outside(unsigned i, const uint64_t calm_seen[UTHREAD_MAX], void *const *reps,
		     uint32_t *walked);
void uthread_calm_snapshot(uint64_t seen[UTHREAD_MAX]);
/* Copies every thread's count. */
void uthread_snapshot(uint64_t seen[UTHREAD_MAX]);
/* True if every live thread has passed a quiescent point since the snapshot. */
bool uthread_all_passed(const uint64_t seen[UTHREAD_MAX]);
/* Takes a free record for a new thread (0 if none) and releases one. */
struct uthread *uthread_alloc(void);
void uthread_release(struct uthread *t);
/* The calling thread's CPU now (a system call: threads migrate; the lock statistics' contended
 * paths only). */
int uthread_cpu(void);
/* Makes rec the calling thread's record. */
void uthread_set_self(struct uthread *rec);

#endif

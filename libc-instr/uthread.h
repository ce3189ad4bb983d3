/* The C library's registry of its process's threads, for clustered-object quiescence. r13 of
 * each thread points at its record (user code is built with r13 reserved). */
#ifndef KOV_UTHREAD_H
#define KOV_UTHREAD_H

#include <stdint.h>
#include <stdbool.h>

#define UTHREAD_MAX 65

struct uthread {
	volatile uint64_t quiescent;   /* quiescent points passed */
	volatile int alive;
	volatile int parked;           /* asleep in the kernel: quiescent for as long as it lasts */
};

/* The calling thread passes a quiescent point. */
void uthread_quiescent(void);
/* Brackets a sleep in the kernel. */
void uthread_park(void);
void uthread_unpark(void);
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

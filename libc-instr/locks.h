/* What the clustered-object runtime (cobj.c) asks of the lock code (locks.c) when the KM
 * switches full lock counting (INSTRUMENT, PROTO_INSTR_LOCKS_FULL). Private to libc-instr. */
#ifndef KOV_LIBC_LOCKS_H
#define KOV_LIBC_LOCKS_H

#include <stdbool.h>
#include <stdint.h>

/* Every acquisition and hold of the locks owned by `owner` (a rep; 0: by any object for which
 * live(rep) is true) counted (on) or only the contended ones again (off). Covers the locks the
 * process's table knows: contended once or named by spin_lock_owner / mutex_monitor. */
void __lock_full_counting(const void *owner, bool (*live)(uint64_t rep), bool on);

/* An object's rep is being freed (the runtime's co_runtime_rep_gone): the records of its
 * locks lose their owner and full counting, and are attributed again when next met. */
void __lock_owner_gone(const void *rep);

#endif

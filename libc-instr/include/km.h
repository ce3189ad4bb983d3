/* The KM's monitoring calls for the privileged monitoring daemon (kernel/include/kov_hooks.h in the kernel;
 * records in kernel/abi/km_abi.h). Each returns a count or 0, or a negative KOV_E* error. */
#ifndef KOV_LIBC_KM_H
#define KOV_LIBC_KM_H

#include <stddef.h>
#include "../../kernel/abi/km_abi.h"

/* Applies cfg (n_groups 0 clears): the new configuration's id, or -KOV_EINVAL with the
 * reason in why. */
long km_configure(const struct km_config *cfg, char *why, size_t why_size);
long km_config_get(struct km_config *out);
long km_control(int cmd);                     /* KM_CTL_START, KM_CTL_STOP */
long km_samples(struct km_sample *buf, unsigned int max);
/* The same with each sample's call chain: chains holds max * KM_MAX_CHAIN frames. */
long km_samples_chains(struct km_sample *buf, unsigned int max, struct km_frame *chains);
long km_counts(struct km_counts_head *head, struct km_count *buf, unsigned int max);
long km_lost(struct km_lost *buf, unsigned int max);
long km_state(struct km_state *out);
/* Invocation counting (what 1) or monitored sleep locks' figures (what 2) on object `index`
 * of pid's space (pid 0: the kernel, calls only; index ~0u: all its live objects). */
long km_instrument(unsigned int pid, unsigned int index, int on, int what);
/* Asks pid's runtime to hot-swap its object `index` to class cls (KM_CLASS_NAME bytes, NUL
 * inside); 0 and the runtime's answer, or -errno (kernel/abi/syscall_nr.h, SYS_KM_SWAP). */
long km_swap(unsigned int pid, unsigned int index, const char cls[KM_CLASS_NAME],
	     struct km_swap_answer *answer);
/* The monitor's cost bound: reports io->report_ticks of the caller's own work on samples,
 * sets the limit (io->set_limit), and fills in the state and the events after io->since. */
long km_throttle(struct km_throttle_io *io);
/* Every process's monitored locks (mutex_monitor): records written. */
long km_locks(struct km_lock_record *buf, unsigned int max);

#endif

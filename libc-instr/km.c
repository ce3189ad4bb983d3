/* System-call wrappers of the KM's monitoring interface (include/km.h). */
#include "kov.h"
#include "km.h"
#include "../kernel/abi/syscall_nr.h"

long km_configure(const struct km_config *cfg, char *why, size_t why_size)
{
	return __syscall(SYS_KM_CONFIGURE, (long)cfg, (long)why, (long)why_size, 0, 0);
}

long km_config_get(struct km_config *out)
{
	return __syscall(SYS_KM_CONFIG_GET, (long)out, 0, 0, 0, 0);
}

long km_control(int cmd)
{
	return __syscall(SYS_KM_CONTROL, cmd, 0, 0, 0, 0);
}

long km_samples(struct km_sample *buf, unsigned int max)
{
	return __syscall(SYS_KM_SAMPLES, (long)buf, max, 0, 0, 0);
}

long km_samples_chains(struct km_sample *buf, unsigned int max, struct km_frame *chains)
{
	return __syscall(SYS_KM_SAMPLES, (long)buf, max, (long)chains, 0, 0);
}

long km_counts(struct km_counts_head *head, struct km_count *buf, unsigned int max)
{
	return __syscall(SYS_KM_COUNTS, (long)head, (long)buf, max, 0, 0);
}

long km_lost(struct km_lost *buf, unsigned int max)
{
	return __syscall(SYS_KM_LOST, (long)buf, max, 0, 0, 0);
}

long km_state(struct km_state *out)
{
	return __syscall(SYS_KM_STATE, (long)out, 0, 0, 0, 0);
}

long km_locks(struct km_lock_record *buf, unsigned int max)
{
	return __syscall(SYS_KM_LOCKS, (long)buf, max, 0, 0, 0);
}

long km_instrument(unsigned int pid, unsigned int index, int on, int what)
{
	return __syscall(SYS_KM_INSTRUMENT, pid, index, on, what, 0);
}

long km_swap(unsigned int pid, unsigned int index, const char cls[KM_CLASS_NAME],
	     struct km_swap_answer *answer)
{
	return __syscall(SYS_KM_SWAP, pid, index, (long)cls, (long)answer, 0);
}

long km_throttle(struct km_throttle_io *io)
{
	return __syscall(SYS_KM_THROTTLE, (long)io, 0, 0, 0, 0);
}

/* The hand-off between the monitor and a process's clustered-object runtime: the monitor posts a
 * scan or instrument request (kernel/include/kov_services.h, svc_scan_request), the runtime's scanner
 * thread, waiting in SYS_CO_SCAN_WAIT, wakes, fetches the command (SYS_CO_COUNT_CMD), writes
 * its records into the area it registered (SYS_CO_SCANNER) and answers (SYS_CO_SCAN_DONE).
 * Requests and answers are sequence numbers, so a late answer is never taken for a newer
 * request's. */
#include "process.h"
#include "../abi/scan.h"
#include "../abi/syscall_nr.h"
#include "../mm/uaccess.h"
#include "kernel/include/kov_services.h"
#include <stddef.h>
#include "common/lib/string.h"

#define container_of_scan(key) \
	((const struct process *)((const char *)(key) - offsetof(struct process, scanner.requested)))

long process_co_scanner(uint64_t area, uint64_t cap)
{
	struct process *p = current_process();
	if (cap == 0 || cap > 4096 || !user_range_ok(area, cap * sizeof(struct scan_record)))
		return -KOV_EINVAL;
	p->scanner.cap = (uint32_t)cap;
	__atomic_store_n(&p->scanner.area, area, __ATOMIC_RELEASE);
	return 0;
}

static bool no_scan_requested(const struct process *p)
{
	return p->scanner.requested == p->scanner.done && !p->exiting;
}

static bool no_scan_requested_key(const void *key)
{
	return no_scan_requested(container_of_scan(key));
}

long process_co_scan_wait(void)
{
	struct process *p = current_process();
	while (no_scan_requested(p))
		thread_block_on((const void *)&p->scanner.requested, no_scan_requested_key);
	return p->exiting ? -KOV_ESRCH : (long)p->scanner.requested;
}

long process_co_scan_done(uint64_t count)
{
	struct process *p = current_process();
	p->scanner.count = count > p->scanner.cap ? p->scanner.cap : (uint32_t)count;
	__atomic_store_n(&p->scanner.done, p->scanner.requested, __ATOMIC_RELEASE);
	return 0;
}

long process_co_count_cmd(void)
{
	return (long)__atomic_exchange_n(&current_process()->scanner.cmd, 0, __ATOMIC_ACQ_REL);
}

long process_co_swap_cmd(uint64_t class_out, uint64_t answer_in)
{
	struct process *p = current_process();
	if (class_out && copy_to_user(class_out, p->scanner.swap_to, sizeof p->scanner.swap_to))
		return -KOV_EFAULT;
	if (answer_in && copy_from_user(&p->scanner.swap_answer, answer_in, sizeof p->scanner.swap_answer))
		return -KOV_EFAULT;
	return 0;
}

/* The monitor's side of the hand-off (kernel/include/kov_services.h). */
long svc_scan_request(struct process *p, uint64_t cmd)
{
	if (!__atomic_load_n(&p->scanner.area, __ATOMIC_ACQUIRE))
		return -KOV_ENODEV;
	if (cmd)
		__atomic_store_n(&p->scanner.cmd, cmd, __ATOMIC_RELEASE);
	uint32_t seq = __atomic_add_fetch(&p->scanner.requested, 1, __ATOMIC_ACQ_REL);
	thread_wake_all((const void *)&p->scanner.requested);
	return seq;
}

long svc_swap_request(struct process *p, uint32_t index, const char cls[KM_CLASS_NAME])
{
	memcpy(p->scanner.swap_to, cls, KM_CLASS_NAME);
	p->scanner.swap_to[KM_CLASS_NAME - 1] = 0;
	p->scanner.swap_answer = (struct km_swap_answer){ .result = KM_SWAP_NO_ANSWER };
	return svc_scan_request(p, 1ull << 62 | 1ull << 59 | index);
}

void svc_swap_answer(const struct process *p, struct km_swap_answer *out)
{
	*out = p->scanner.swap_answer;
}

bool svc_scan_answered(const struct process *p, uint32_t seq, uint32_t *count)
{
	if (__atomic_load_n(&p->scanner.done, __ATOMIC_ACQUIRE) != seq)
		return false;
	*count = p->scanner.count;
	return true;
}

uint64_t svc_scan_area(const struct process *p)
{
	return __atomic_load_n(&p->scanner.area, __ATOMIC_ACQUIRE);
}

/* The KM's information system calls for privileged programs (the DCI daemon): the target's
 * description, the event catalogue, live processes, the kernel symbol table and the program
 * files of the initial RAM disk (kernel/abi/km_abi.h). */
#include "kernel/abi/km_abi.h"
#include "kernel/abi/syscall_nr.h"
#include "kernel/include/kov_services.h"
#include "kernel/include/processor.h"
#include "common/lib/string.h"
#include "km_catalogue.h"

extern const char kov_build_id[];

#define CATALOGUE_OUT_MAX 256
#define PROCESSES_OUT_MAX 1024

static void copy_str(char *dst, size_t n, const char *src)
{
	size_t len = src ? strnlen(src, n - 1) : 0;
	memcpy(dst, src, len);
	dst[len] = 0;
}

static long km_info(uint64_t uout)
{
	struct km_info i;
	memset(&i, 0, sizeof i);
	svc_machine_describe(&i);
	i.timebase_now = mftb();
	i.uptime_ns = clock_ns();
	i.events = (uint16_t)catalogue_count(&km_catalogue);
	copy_str(i.pmu, sizeof i.pmu, km_pmu_name());
	copy_str(i.build_id, sizeof i.build_id, kov_build_id);
	return copy_to_user(uout, &i, sizeof i);
}

static long km_catalogue_out(uint64_t ubuf, uint64_t max)
{
	size_t n = catalogue_count(&km_catalogue);
	if (max > CATALOGUE_OUT_MAX)
		max = CATALOGUE_OUT_MAX;
	if (max && !user_range_ok(ubuf, max * sizeof(struct km_event_info)))
		return -KOV_EFAULT;
	for (size_t i = 0; i < n && i < max; i++) {
		const struct event_desc *d = catalogue_desc(&km_catalogue, i);
		const struct event_status *s = catalogue_status(&km_catalogue, i);
		struct km_event_info e;
		memset(&e, 0, sizeof e);
		e.code = d->code;
		e.source = d->source == EVSRC_SW;
		e.flags = (s->counts_here ? KM_EV_COUNTS_HERE : 0) |
			  (d->flags & EV_CAN_SAMPLE ? KM_EV_CAN_SAMPLE : 0) |
			  (s->samples_here ? KM_EV_SAMPLES_HERE : 0) |
			  (s->basis == BASIS_ASSUMED ? KM_EV_ASSUMED : 0) |
			  (s->modes_filtered ? KM_EV_MODES_FILTERED : 0);
		copy_str(e.name, sizeof e.name, d->name);
		copy_str(e.description, sizeof e.description, d->description);
		copy_str(e.why_not, sizeof e.why_not, s->why_not);
		long rc = copy_to_user(ubuf + i * sizeof e, &e, sizeof e);
		if (rc)
			return rc;
	}
	return (long)n;
}

static long km_processes(uint64_t ubuf, uint64_t max)
{
	if (max > PROCESSES_OUT_MAX)
		max = PROCESSES_OUT_MAX;
	if (max && !user_range_ok(ubuf, max * sizeof(struct km_process)))
		return -KOV_EFAULT;
	struct km_process *buf = kmalloc((max ? max : 1) * sizeof *buf);
	if (!buf)
		return -KOV_ENOMEM;
	uint32_t n = svc_process_list(buf, (uint32_t)max);
	long rc = copy_to_user(ubuf, buf, (n < max ? n : max) * sizeof *buf);
	kfree(buf);
	return rc ? rc : (long)n;
}

static long km_ksyms(uint64_t ubuf, uint64_t cap)
{
	size_t size;
	const void *t = svc_kernel_symbols(&size);
	if (!t)
		return -KOV_ENOENT;
	if (cap >= size) {
		long rc = copy_to_user(ubuf, t, size);
		if (rc)
			return rc;
	}
	return (long)size;
}

static long net_info_out(uint64_t uout)
{
	struct km_netinfo i;
	if (!svc_net_info(&i))
		return -KOV_ENODEV;
	return copy_to_user(uout, &i, sizeof i);
}

long km_info_syscall(uint64_t nr, const uint64_t *a)
{
	if (nr == SYS_NETINFO)
		return net_info_out(a[0]);
	if (!svc_current_privileged())
		return -KOV_EPERM;
	switch (nr) {
	case SYS_KM_INFO: return km_info(a[0]);
	case SYS_KM_CATALOGUE: return km_catalogue_out(a[0], a[1]);
	case SYS_KM_KSYMS: return km_ksyms(a[0], a[1]);
	case SYS_KM_PROCESSES: return km_processes(a[0], a[1]);
	default: return -KOV_ENOSYS;
	}
}

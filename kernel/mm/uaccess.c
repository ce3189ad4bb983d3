#include "uaccess.h"
#include "mmu.h"
#include "../abi/syscall_nr.h"
#include "../arch/percpu.h"

long uaccess_copy(void *dst, const void *src, uint64_t len);
long uaccess_strncpy(char *dst, const char *src, uint64_t max);
extern const char uaccess_code_start[], uaccess_code_end[], uaccess_failed[];

bool user_range_ok(uint64_t addr, uint64_t len)
{
	return addr >= USER_BASE && addr <= USER_END && len <= USER_END - addr;
}

bool user_array_ok(uint64_t addr, uint64_t count, uint64_t size)
{
	return size && count <= USER_END / size && user_range_ok(addr, count * size);
}

long copy_from_user(void *dst, uint64_t src, uint64_t len)
{
	return user_range_ok(src, len) ? uaccess_copy(dst, (const void *)src, len) : -KOV_EFAULT;
}

long copy_to_user(uint64_t dst, const void *src, uint64_t len)
{
	return user_range_ok(dst, len) ? uaccess_copy((void *)dst, src, len) : -KOV_EFAULT;
}

long string_from_user(char *dst, uint64_t src, uint64_t max)
{
	if (src < USER_BASE || src >= USER_END)
		return -KOV_EFAULT;
	if (max > USER_END - src)
		max = USER_END - src;
	return uaccess_strncpy(dst, (const char *)src, max);
}

bool uaccess_nofault_fixup(uint64_t pc, uint64_t *resume)
{
	return this_cpu()->uaccess_nofault && uaccess_fixup(pc, resume);
}

/* The loads of uaccess_load(): each one's address and where it resumes after a fault. */
struct uaccess_entry { uint64_t insn, fixup; };
extern const struct uaccess_entry __uaccess_table_start[], __uaccess_table_end[];

bool uaccess_fixup(uint64_t pc, uint64_t *resume)
{
	if (pc >= (uint64_t)uaccess_code_start && pc < (uint64_t)uaccess_code_end) {
		*resume = (uint64_t)uaccess_failed;
		return true;
	}
	for (const struct uaccess_entry *e = __uaccess_table_start; e < __uaccess_table_end; e++)
		if (e->insn == pc) {
			*resume = e->fixup;
			return true;
		}
	return false;
}

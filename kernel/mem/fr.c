/* File representatives: here every file is a program in the initial RAM disk. */
#include "vm.h"
#include "initrd.h"
#include "../mm/kmem.h"
#include "common/lib/string.h"

CO_METHOD(uint64_t, fr_read, struct fr *fr, uint64_t off, void *dst, uint64_t len)
{
	if (off >= fr->bytes)
		return 0;
	if (len > fr->bytes - off)
		len = fr->bytes - off;
	memcpy(dst, fr->data + off, len);
	return len;
}

CO_METHOD(uint64_t, fr_size, struct fr *fr)
{
	return fr->bytes;
}

static const struct fr_ops fr_ops = { fr_read, fr_size };
const struct co_class fr_class = { "FR", &fr_ops, 2, 0 };

coid_t fr_create(const char *name)
{
	uint32_t size;
	const uint8_t *data = initrd_find(name, &size);
	if (!data)
		return 0;
	struct fr *fr = kmalloc(sizeof *fr);
	if (!fr)
		return 0;
	fr->ops = &fr_ops;
	fr->data = data;
	fr->bytes = size;
	size_t n = strlen(name);
	memcpy(fr->name, name, n < sizeof fr->name - 1 ? n : sizeof fr->name - 1);
	coid_t c = co_new_single(&fr_class, fr);
	if (!c)
		kfree(fr);
	return c;
}

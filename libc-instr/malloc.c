/* A first-fit heap on sbrk behind one lock: blocks carry their size in a 16-byte header,
 * free blocks sit on an address-ordered list and merge with their neighbours. */
#include "kov.h"

struct block { size_t size; struct block *next; };   /* size includes the header */

#define HEADER 16
#define GROW (64 * 1024)

static struct spinlock heap_lock;
static struct block *free_list;

static void insert_free(struct block *b)
{
	struct block **p = &free_list;
	while (*p && *p < b)
		p = &(*p)->next;
	b->next = *p;
	*p = b;
	if (b->next && (char *)b + b->size == (char *)b->next) {
		b->size += b->next->size;
		b->next = b->next->next;
	}
	if (p != &free_list) {
		struct block *prev = (struct block *)((char *)p - offsetof(struct block, next));
		if ((char *)prev + prev->size == (char *)b) {
			prev->size += b->size;
			prev->next = b->next;
		}
	}
}

void *malloc(size_t size)
{
	if (size == 0 || size > (1ul << 30))
		return 0;
	size_t need = (size + HEADER + 15) & ~(size_t)15;
	spin_lock(&heap_lock);
	for (;;) {
		for (struct block **p = &free_list; *p; p = &(*p)->next) {
			struct block *b = *p;
			if (b->size < need)
				continue;
			if (b->size - need >= 64) {
				struct block *rest = (struct block *)((char *)b + need);
				rest->size = b->size - need;
				rest->next = b->next;
				*p = rest;
				b->size = need;
			} else {
				*p = b->next;
			}
			spin_unlock(&heap_lock);
			char *mem = (char *)b + HEADER;
			memset(mem, 0, b->size - HEADER);
			return mem;
		}
		size_t grow = need > GROW ? need : GROW;
		struct block *fresh = sbrk((long)grow);
		if ((long)fresh < 0) {
			spin_unlock(&heap_lock);
			return 0;
		}
		fresh->size = grow;
		insert_free(fresh);
	}
}

void free(void *p)
{
	if (!p)
		return;
	struct block *b = (struct block *)((char *)p - HEADER);
	spin_lock(&heap_lock);
	insert_free(b);
	spin_unlock(&heap_lock);
}

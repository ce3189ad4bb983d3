/* The kernel heap: power-of-two size classes carved from pages, and whole pages for large
 * blocks. Safe on every CPU and with interrupts on or off. Blocks are 16-byte aligned. */
#ifndef KOV_KMEM_H
#define KOV_KMEM_H

#include <stddef.h>
#include <stdint.h>

/* Zeroed memory, or 0 when memory is exhausted. */
void *kmalloc(size_t size);
void kfree(void *p);

/* Blocks currently handed out (for leak checks in tests). */
uint64_t kmem_live_blocks(void);
/* Leak hunting: remembers each allocation site's live blocks now; then prints every site whose
 * count differs from the mark (its symbol, now and then) and returns how many do. */
void kmem_sites_mark(void);
unsigned kmem_sites_report(void);
/* Pages the heap keeps although every block on them is free (reusable memory). */
uint64_t kmem_empty_pages(void);

#endif

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
/* Accounts: every block is charged to the account running on its CPU when it was allocated,
 * and uncharged from that same account when freed, by whoever frees it. A process has its own
 * (opened when it is made, closed when it is reaped: the scheduler makes it this CPU's account
 * while one of its threads runs); the kernel's, KMEM_KERNEL, takes boot, kernel threads and
 * interrupt handlers (which work for nobody in particular: kernel/proc/trap.c). A closed
 * account still charged with blocks is orphaned, those blocks having outlived their process:
 * it is not reopened before they are freed. With every account in use, open gives the
 * kernel's. */
#define KMEM_KERNEL 0
#define KMEM_ACCOUNTS 2048
unsigned kmem_account_open(void);
void kmem_account_close(unsigned account);
/* Makes `account` this CPU's, with interrupts off; returns the one it replaces. */
unsigned kmem_account_swap(unsigned account);
uint64_t kmem_account_blocks(unsigned account);
/* Blocks charged to no live process: the kernel's and orphaned accounts' (a leak shows here). */
uint64_t kmem_unowned_blocks(void);
/* Pages the heap keeps although every block on them is free (reusable memory). */
uint64_t kmem_empty_pages(void);
/* Pages the heap holds from the page allocator, empty ones included (the descriptors' not). */
uint64_t kmem_pages(void);

#endif

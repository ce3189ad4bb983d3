/* Physical page frames (4 KiB): a bitmap over all memory above what boot handed out. The page
 * manager object (PM) hands frames to file cache managers through this; the kernel heap takes
 * its pages here too. */
#ifndef KOV_PAGE_ALLOC_H
#define KOV_PAGE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

/* Takes over memory after early_alloc is done; reserves the device tree blob. */
void page_alloc_init(const void *fdt_blob, uint64_t fdt_size);

/* Allocates `count` physically contiguous pages; returns the kernel address of the first,
 * zeroed, or 0 if there is no such run. */
void *page_alloc(uint64_t count);
void page_free(void *first, uint64_t count);

uint64_t pages_free(void);
uint64_t pages_total(void);

/* A page changes hands in two steps: the free count here, then its owner's count (the heap's
 * pages, the page manager's frames), or the other way. A figure summed over those counts
 * (meminfo's pages elsewhere) read between the steps is off by the pages in between, for as long
 * as the mover is held up: by an interrupt, a switch, or its host thread losing the host CPU.
 * So a move between counts is bracketed, and a reader keeps a sum only when no move overlapped
 * its reading: page_moves_quiet(&stamp) false while a move is in flight, then
 * page_moves_since(stamp) true when one began or ended after the stamp. */
void page_move_begin(void);
void page_move_end(void);
bool page_moves_quiet(uint64_t *stamp);
bool page_moves_since(uint64_t stamp);

#endif

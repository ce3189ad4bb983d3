/* K42's memory objects, each a clustered object (thesis 2.4): a page fault in a process goes
 * Process -> Region -> FCM -> PM (a frame) -> HAT -> SegmentHAT (the page-table entry).
 *
 *   PM          page manager: hands physical frames to FCMs (one per system)
 *   FR          file representative: the bytes of a file (here: an initial RAM disk file)
 *   FCM         file cache manager: the frames holding a file's (or anonymous) pages
 *   Region      a range of a process's address space backed by an FCM at an offset
 *   HAT         hardware address translation of one address space (VSID context)
 *   SegmentHAT  one 256 MiB segment of a HAT: its VSID and the entries it inserted
 *
 * Reps are plain structs whose first member is the method table; calls go through CO_CALL. */
#ifndef KOV_VM_H
#define KOV_VM_H

#include <stdint.h>
#include <stdbool.h>
#include "common/co/cobj.h"
#include "common/lib/spinlock.h"
#include "../arch/percpu.h"
#include "../mm/mmu.h"

#define PROT_READ  1u
#define PROT_WRITE 2u
#define PROT_EXEC  4u

/* ---- PM ---- */
struct pm;
struct pm_ops {
	uint64_t (*alloc_frame)(struct pm *pm);         /* physical address of a zeroed frame, 0 if none */
	void (*free_frame)(struct pm *pm, uint64_t pa);
	uint64_t (*frames_out)(struct pm *pm);           /* frames handed out and not returned */
	uint64_t (*frames_cached)(struct pm *pm);        /* free frames kept by the PM, not the allocator */
};
#define PM_CACHE 64                 /* free frames a per-CPU rep keeps at most */
#define PM_BATCH 16                 /* frames a per-CPU rep takes from or gives back at once */
struct pm {
	const struct pm_ops *ops;
	struct spinlock lock;
	int64_t out;                    /* per-CPU reps: allocations less frees here (the sum is what is out) */
	uint64_t allocations;
	uint32_t cpu, cached;           /* per-CPU reps: its CPU, and free frames in cache[] */
	uint64_t refills, drains, steals;
	uint64_t cache[PM_CACHE];
};
extern coid_t the_pm;
/* The kind the boot argument pm= chose: "single" (one rep, one lock: the thesis's page
 * manager) or "percpu" (default: a rep per CPU with its own cache of free frames). */
extern const char *pm_kind;
void pm_init(void);

/* ---- FR ---- */
struct fr;
struct fr_ops {
	/* Copies up to len bytes at off into dst (a kernel address); returns bytes copied. */
	uint64_t (*read)(struct fr *fr, uint64_t off, void *dst, uint64_t len);
	uint64_t (*size)(struct fr *fr);
};
struct fr {
	const struct fr_ops *ops;
	const uint8_t *data;
	uint64_t bytes;
	char name[48];
};
coid_t fr_create(const char *name);   /* 0 if no such file */

/* ---- FCM ---- */
struct fcm_page { uint64_t index, pa; struct fcm_page *next; };
struct fcm;
struct fcm_ops {
	/* Physical address of the page at byte offset off (filled from the file or zeroed). */
	uint64_t (*get_page)(struct fcm *fcm, uint64_t off);
	/* Returns every frame to the PM (the object is being destroyed). */
	void (*release)(struct fcm *fcm);
	uint64_t (*resident)(struct fcm *fcm);
	/* The frame of the page at off if it is resident, else 0 (never allocates). */
	uint64_t (*peek_page)(struct fcm *fcm, uint64_t off);
};
#define FCM_BUCKETS 64
struct fcm {
	const struct fcm_ops *ops;
	struct spinlock lock;
	coid_t fr;              /* 0: anonymous memory */
	uint64_t file_off;      /* where the backed part starts in the file */
	uint64_t file_bytes;    /* how many bytes of the range come from the file */
	uint64_t pages;
	uint64_t ltt_base;      /* nonzero: fill new pages as local translation table entries */
	uint64_t ltt_ops;       /* ... whose default method table is at this user address */
	struct fcm_page *hash[FCM_BUCKETS];
};
coid_t fcm_create(coid_t fr, uint64_t file_off, uint64_t file_bytes);
/* An FCM for a per-CPU user LTT at ltt_base: new pages come filled with empty entries. */
coid_t fcm_create_ltt(uint64_t ltt_base, uint64_t default_ops);
/* Writes the empty-entry pattern for the entry at byte offset off into a page (kernel address
 * of the page, user address of the page). */
void ltt_fill_entry(void *page, uint64_t page_va, uint64_t off_in_page, uint64_t default_ops);

/* ---- HAT and SegmentHAT ---- */
struct seghat;
struct seghat_ops {
	bool (*map)(struct seghat *s, uint64_t ea, uint64_t pa, unsigned prot);
	void (*unmap_all)(struct seghat *s);
};
struct seg_entry { uint64_t ea; int64_t slot; };
struct seghat {
	const struct seghat_ops *ops;
	struct spinlock lock;
	uint64_t vsid, esid;
	struct seg_entry *entries;
	uint32_t count, cap;
};

#define HAT_SEGMENTS (USER_END >> SEGMENT_SHIFT)
/* SegmentHAT slots: the 16 user segments, then each CPU's user-LTT segment. */
#define HAT_SLOTS (HAT_SEGMENTS + MAX_CPUS)
struct hat;
struct hat_ops {
	bool (*map)(struct hat *h, uint64_t ea, uint64_t pa, unsigned prot);
	void (*unmap_all)(struct hat *h);
};
struct hat {
	const struct hat_ops *ops;
	struct spinlock lock;
	uint64_t ctx;           /* VSID context */
	coid_t segments[HAT_SLOTS];
};
coid_t hat_create(uint64_t ctx);

/* ---- Region ---- */
struct region;
struct region_ops {
	/* Resolves a fault at ea; returns 0 or -errno (protection). */
	long (*fault)(struct region *r, uint64_t ea, bool write, coid_t hat);
};
struct region {
	const struct region_ops *ops;
	uint64_t start, size;
	unsigned prot;
	coid_t fcm;
};
coid_t region_create(uint64_t start, uint64_t size, unsigned prot, coid_t fcm);

void vm_register_classes(void);

#endif

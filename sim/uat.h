/*
 * uat.h: agx-sim's UAT, the GPU's MMU (docs/device.md, libagx/hw/uat.hw).
 * Translates a context's virtual addresses through the page tables in
 * device memory, with a per-context TLB that only an explicit invalidation
 * empties: a page-table change the host does not invalidate is not seen,
 * as on hardware.
 *
 * Thread-safe: the GPU's worker threads translate for one context at
 * once while the firmware thread invalidates.  A TLB entry is one 64-bit
 * word (tag, page, permissions), read and written atomically, so a racing
 * reader sees the old translation or the new one, never half of each.
 */
#ifndef SIM_UAT_H
#define SIM_UAT_H

#include <stdbool.h>
#include <stdint.h>

struct sim_device;

#define SIM_UAT_CONTEXTS    64
#define SIM_UAT_PAGE_BITS   14
#define SIM_UAT_PAGE_SIZE   (1ull << SIM_UAT_PAGE_BITS)
#define SIM_UAT_TLB_ENTRIES 512 /* per context, direct-mapped */

/* What an access wants. */
enum sim_uat_access {
	SIM_UAT_READ = 1,
	SIM_UAT_WRITE = 2,
	SIM_UAT_EXEC = 4,
};

enum sim_uat_fault_kind {
	SIM_UAT_OK = 0,
	SIM_UAT_FAULT_UNMAPPED,	  /* no valid descriptor, or an address outside both halves */
	SIM_UAT_FAULT_PERMISSION, /* mapped, but not for this access */
	SIM_UAT_FAULT_BUS,	  /* a table or the context table is not in device memory */
};

struct sim_uat_fault {
	enum sim_uat_fault_kind kind;
	unsigned context;
	uint64_t va;
	unsigned access; /* enum sim_uat_access */
	unsigned level;	 /* where the walk stopped: 0 context table, 1..3 */
};

struct sim_uat {
	struct sim_device *dev;
	uint64_t context_table; /* device-physical, from UAT_TTBAT */
	/* entries packed by uat.c: valid, permissions, physical page, tag */
	uint64_t tlb[SIM_UAT_CONTEXTS][SIM_UAT_TLB_ENTRIES];
	uint64_t walks; /* page-table walks (TLB misses), counted atomically */
};

void sim_uat_init(struct sim_uat *uat, struct sim_device *dev, uint64_t context_table);

/*
 * Translates va in a context for an access by the GPU (firmware false) or
 * the firmware.  Returns true with *pa, or false with *fault filled.
 */
bool sim_uat_translate(struct sim_uat *uat, unsigned context, uint64_t va, unsigned access,
		       bool firmware, uint64_t *pa, struct sim_uat_fault *fault);

/*
 * An access to [va, va + size) through the UAT, page by page: a read into
 * buf or a write from it (access has SIM_UAT_WRITE), or an instruction
 * fetch (SIM_UAT_EXEC).  False on a fault, described in *fault; memory the
 * translation leads nowhere is a bus error (level 3).
 */
bool sim_uat_access(struct sim_uat *uat, unsigned context, bool firmware, uint64_t va, void *buf,
		    uint64_t size, unsigned access, struct sim_uat_fault *fault);

/* TLB invalidation: the pages of [va, va + size) in a context, or all of it. */
void sim_uat_invalidate(struct sim_uat *uat, unsigned context, uint64_t va, uint64_t size);
void sim_uat_invalidate_context(struct sim_uat *uat, unsigned context);

const char *sim_uat_fault_name(enum sim_uat_fault_kind kind);

#endif

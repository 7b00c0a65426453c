/*
 * pagetable.h: a host-side writer of UAT page tables (libagx/hw/uat.hw)
 * into memory the host shares with the device, for tests and benchmarks.
 * agx-memmgr owns the real page tables.
 */
#ifndef SIM_HOST_PAGETABLE_H
#define SIM_HOST_PAGETABLE_H

#include <stdbool.h>
#include <stdint.h>

struct sim_pagetable {
	uint8_t *ram; /* the host's view of [ram_paddr, ram_paddr + ram_size) */
	uint64_t ram_paddr, ram_size;
	uint64_t next;		/* the next free 16 KiB page */
	uint64_t context_table; /* device-physical: what UAT_TTBAT holds */
};

/* Takes RAM for tables, the context table first; -ENOMEM when it is too small. */
int sim_pagetable_init(struct sim_pagetable *pt, uint8_t *ram, uint64_t ram_paddr,
		       uint64_t ram_size);
/*
 * Maps the 16 KiB page at va to pa in a context, making tables as needed.
 * ap, uxn, pxn as in uat.hw.  -EINVAL for an unaligned or non-canonical
 * address, -ENOMEM when out of table memory.
 */
int sim_pagetable_map(struct sim_pagetable *pt, unsigned context, uint64_t va, uint64_t pa,
		      unsigned ap, bool uxn, bool pxn);
/* Clears the page's descriptor (the TLB is the device's business). */
int sim_pagetable_unmap(struct sim_pagetable *pt, unsigned context, uint64_t va);

#endif

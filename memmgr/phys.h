/*
 * phys.h: agx-memmgr's allocator of device-physical address space.  The
 * device's memory is an address range [base, end) of 16 KiB pages; every
 * page handed out is lent to the device with DMA_MAP by its owner.  Free
 * space is a sorted list of extents, coalesced on free.
 */
#ifndef MEMMGR_PHYS_H
#define MEMMGR_PHYS_H

#include <stdint.h>

#define MEMMGR_PAGE 0x4000ull /* the UAT granule */

struct phys_extent {
	uint64_t paddr, size;
};

struct phys {
	struct phys_extent *free; /* sorted by address, none adjacent */
	unsigned num_free, cap;
	uint64_t total, used;
};

/* All of [base, end) free; both page-aligned. */
int phys_init(struct phys *p, uint64_t base, uint64_t end);
void phys_fini(struct phys *p);

/*
 * size bytes (a multiple of the page) in at most max extents, the fewest
 * that first fit finds: *count extents written to out.  -ENOMEM, with
 * nothing taken, when the free space (or its pieces) will not do.
 */
int phys_alloc(struct phys *p, uint64_t size, struct phys_extent *out, unsigned max,
	       unsigned *count);
/* Gives an extent back; -EINVAL if any of it is already free or outside. */
int phys_free(struct phys *p, struct phys_extent e);

#endif

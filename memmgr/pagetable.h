/*
 * pagetable.h: agx-memmgr's UAT page tables (libagx/hw/uat.hw,
 * docs/device.md "The UAT").  Table pages come from a pool of memfd
 * chunks that memmgr maps for itself and lends to the device; an address
 * space is an L1 table and the L2/L3 tables under it, made as mappings
 * need them and kept until the space is destroyed.
 */
#ifndef MEMMGR_PAGETABLE_H
#define MEMMGR_PAGETABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "phys.h"

#define PT_CHUNK_PAGES 64 /* table pages per memfd chunk: 1 MiB */

struct pt_chunk {
	int fd;
	uint8_t *map;
	uint64_t paddr;
};

struct pt_pool {
	struct memmgr_device *dev;
	struct phys *phys;
	struct pt_chunk *chunks;
	unsigned num_chunks;
	uint64_t *free; /* free table pages, by device-physical address */
	unsigned num_free, cap_free;
	uint64_t pages_used;
};

void pt_pool_init(struct pt_pool *pool, struct memmgr_device *dev, struct phys *phys);
/* Gives every chunk back to the device and the allocator. */
void pt_pool_fini(struct pt_pool *pool);
/* A zeroed table page; -ENOMEM when neither the pool nor device memory has one. */
int pt_page_alloc(struct pt_pool *pool, uint64_t *paddr);
void pt_page_free(struct pt_pool *pool, uint64_t paddr);
/* memmgr's view of a table page's bytes. */
uint8_t *pt_page_host(const struct pt_pool *pool, uint64_t paddr);

/* One half of a VM's address space: its L1 table and what hangs below. */
struct pt_space {
	struct pt_pool *pool;
	uint64_t l1;	 /* device-physical address of the L1 table */
	unsigned tables; /* table pages in use, the L1 included */
};

int pt_space_init(struct pt_space *s, struct pt_pool *pool);
void pt_space_fini(struct pt_space *s);

/* GPU access of a mapping, turned into AP/UXN/PXN by pt_page_template. */
enum pt_access {
	PT_READ = 1,
	PT_WRITE = 2,
	PT_EXECUTE = 4,
	PT_FIRMWARE = 8, /* firmware (EL1) read-write and no GPU access: the kernel VM */
};

/*
 * The L3 descriptor for an access and memory attribute, without its
 * page; -EINVAL for an access the UAT cannot give the GPU (write without
 * read, write with execute, nothing at all).
 */
int pt_page_template(unsigned access, unsigned attr, uint64_t *desc);

/*
 * Maps npages pages from pa at va (both page-aligned, the run inside one
 * half of the space) with descriptor template desc.  On -ENOMEM (no table
 * page) the pages mapped so far stay mapped: the caller unmaps the run.
 */
int pt_map(struct pt_space *s, uint64_t va, uint64_t pa, uint64_t npages, uint64_t desc);
/* Clears the descriptors of npages pages from va; tables stay. */
void pt_unmap(struct pt_space *s, uint64_t va, uint64_t npages);

#endif

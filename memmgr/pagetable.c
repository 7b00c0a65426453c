/*
 * pagetable.c: the UAT page tables of pagetable.h.  A virtual address
 * indexes L1 with bits 38..36, L2 with 35..25 and L3 with 24..14
 * (libagx/hw/uat.hw); the half (bit 39) is the caller's: it picks TTBR0 or
 * TTBR1 in the context table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agx_uat.h"
#include "agxipc/log.h"
#include "pagetable.h"

#define ENTRIES_L1 8
#define ENTRIES	   2048
#define CHUNK_SIZE (PT_CHUNK_PAGES * MEMMGR_PAGE)

void pt_pool_init(struct pt_pool *pool, struct memmgr_device *dev, struct phys *phys)
{
	memset(pool, 0, sizeof(*pool));
	pool->dev = dev;
	pool->phys = phys;
}

void pt_pool_fini(struct pt_pool *pool)
{
	for (unsigned i = 0; i < pool->num_chunks; i++) {
		struct pt_chunk *c = &pool->chunks[i];

		memmgr_dma_unmap(pool->dev, c->paddr, CHUNK_SIZE);
		phys_free(pool->phys, (struct phys_extent){ c->paddr, CHUNK_SIZE });
		munmap(c->map, CHUNK_SIZE);
		close(c->fd);
	}
	free(pool->chunks);
	free(pool->free);
	memset(pool, 0, sizeof(*pool));
}

/* A new chunk: a memfd, a contiguous extent, lent to the device, its pages free. */
static int grow(struct pt_pool *pool)
{
	struct pt_chunk c = { .fd = -1, .map = MAP_FAILED };
	struct phys_extent e;
	struct pt_chunk *chunks;
	unsigned count;
	int ret;

	chunks = realloc(pool->chunks, (pool->num_chunks + 1) * sizeof(*chunks));
	if (!chunks)
		return -ENOMEM;
	pool->chunks = chunks;
	/* the stack holds every page of every chunk, for when all are free */
	if ((pool->num_chunks + 1) * PT_CHUNK_PAGES > pool->cap_free) {
		unsigned cap = (pool->num_chunks + 1) * PT_CHUNK_PAGES;
		uint64_t *grown = realloc(pool->free, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		pool->free = grown;
		pool->cap_free = cap;
	}
	ret = phys_alloc(pool->phys, CHUNK_SIZE, &e, 1, &count);
	if (ret < 0)
		return ret;
	c.paddr = e.paddr;
	c.fd = memfd_create("agx-page-tables", MFD_CLOEXEC);
	if (c.fd < 0 || ftruncate(c.fd, CHUNK_SIZE) < 0) {
		ret = -errno;
		goto fail;
	}
	c.map = mmap(NULL, CHUNK_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	if (c.map == MAP_FAILED) {
		ret = -errno;
		goto fail;
	}
	ret = memmgr_dma_map(pool->dev, c.paddr, CHUNK_SIZE, c.fd, 0, true);
	if (ret < 0)
		goto fail;
	pool->chunks[pool->num_chunks++] = c;
	/* the lowest page ends up on top of the stack */
	for (unsigned i = PT_CHUNK_PAGES; i-- > 0;)
		pool->free[pool->num_free++] = c.paddr + i * MEMMGR_PAGE;
	return 0;
fail:
	if (c.map != MAP_FAILED)
		munmap(c.map, CHUNK_SIZE);
	if (c.fd >= 0)
		close(c.fd);
	phys_free(pool->phys, e);
	return ret < 0 ? ret : -ENOMEM;
}

uint8_t *pt_page_host(const struct pt_pool *pool, uint64_t paddr)
{
	for (unsigned i = 0; i < pool->num_chunks; i++) {
		const struct pt_chunk *c = &pool->chunks[i];

		if (paddr >= c->paddr && paddr - c->paddr < CHUNK_SIZE)
			return c->map + (paddr - c->paddr);
	}
	return NULL;
}

int pt_page_alloc(struct pt_pool *pool, uint64_t *paddr)
{
	int ret;

	if (!pool->num_free) {
		ret = grow(pool);
		if (ret < 0)
			return ret;
	}
	*paddr = pool->free[--pool->num_free];
	memset(pt_page_host(pool, *paddr), 0, MEMMGR_PAGE);
	pool->pages_used++;
	return 0;
}

void pt_page_free(struct pt_pool *pool, uint64_t paddr)
{
	/* the stack has room for every page of every chunk */
	pool->free[pool->num_free++] = paddr;
	pool->pages_used--;
}

int pt_space_init(struct pt_space *s, struct pt_pool *pool)
{
	memset(s, 0, sizeof(*s));
	s->pool = pool;
	if (pt_page_alloc(pool, &s->l1) < 0)
		return -ENOMEM;
	s->tables = 1;
	return 0;
}

/* The next table's address in a valid table entry, or 0. */
static uint64_t next_table(const uint8_t *entry)
{
	struct agx_uat_table t;

	return agx_uat_table_unpack(entry, &t) && t.valid ? t.address : 0;
}

void pt_space_fini(struct pt_space *s)
{
	uint8_t *l1 = pt_page_host(s->pool, s->l1);

	for (unsigned i = 0; i < ENTRIES_L1; i++) {
		uint64_t l2 = next_table(l1 + 8 * i);
		uint8_t *l2_host;

		if (!l2)
			continue;
		l2_host = pt_page_host(s->pool, l2);
		for (unsigned j = 0; j < ENTRIES; j++) {
			uint64_t l3 = next_table(l2_host + 8 * j);

			if (l3)
				pt_page_free(s->pool, l3);
		}
		pt_page_free(s->pool, l2);
	}
	pt_page_free(s->pool, s->l1);
	memset(s, 0, sizeof(*s));
}

/* The table an entry points at, made if it is not there yet; 0 when out of pages. */
static uint64_t descend(struct pt_space *s, uint8_t *entry)
{
	struct agx_uat_table t = { .valid = true };
	uint64_t table = next_table(entry);

	if (table)
		return table;
	if (pt_page_alloc(s->pool, &table) < 0)
		return 0;
	s->tables++;
	t.address = table;
	agx_uat_table_pack(entry, &t);
	return table;
}

int pt_page_template(unsigned access, unsigned attr, uint64_t *desc)
{
	struct agx_uat_page p = { .valid = true, .attr = attr, .af = true, .ng = true, .os = true };
	uint8_t raw[8];

	/*
	 * By AP, the GPU (EL0) gets X, RW, X, RX with UXN clear and -, RW, -,
	 * R with it set; the firmware (EL1) RW, RW, RX, RX with PXN clear
	 * (docs/device.md).  User pages keep the firmware out (PXN, and AP
	 * 1 and 3 only give it what the GPU has).
	 */
	switch (access) {
	case PT_READ:
		p.ap = 3, p.uxn = true, p.pxn = true;
		break;
	case PT_READ | PT_WRITE:
		p.ap = 1, p.uxn = true, p.pxn = true;
		break;
	case PT_READ | PT_EXECUTE:
		p.ap = 3, p.pxn = true;
		break;
	case PT_EXECUTE:
		p.ap = 2, p.pxn = true;
		break;
	case PT_FIRMWARE:
		p.ap = 0, p.uxn = true, p.pxn = true;
		break;
	default:
		return -EINVAL;
	}
	agx_uat_page_pack(raw, &p);
	memcpy(desc, raw, 8);
	return 0;
}

int pt_map(struct pt_space *s, uint64_t va, uint64_t pa, uint64_t npages, uint64_t desc)
{
	uint8_t *l1 = pt_page_host(s->pool, s->l1);

	while (npages) {
		struct agx_uat_va at;
		uint64_t l2, l3;
		unsigned first, n;
		uint64_t *entries;

		agx_uat_va_unpack_u64(va, &at);
		l2 = descend(s, l1 + 8 * at.l1);
		if (!l2)
			return -ENOMEM;
		l3 = descend(s, pt_page_host(s->pool, l2) + 8 * at.l2);
		if (!l3)
			return -ENOMEM;
		/* the run's part in this L3 table; the page address is the descriptor's 47..14 */
		first = (unsigned)at.l3;
		n = ENTRIES - first < npages ? ENTRIES - first : (unsigned)npages;
		entries = (uint64_t *)pt_page_host(s->pool, l3) + first;
		for (unsigned i = 0; i < n; i++)
			entries[i] = desc | (pa + i * MEMMGR_PAGE);
		va += n * MEMMGR_PAGE;
		pa += n * MEMMGR_PAGE;
		npages -= n;
	}
	return 0;
}

void pt_unmap(struct pt_space *s, uint64_t va, uint64_t npages)
{
	uint8_t *l1 = pt_page_host(s->pool, s->l1);

	while (npages) {
		struct agx_uat_va at;
		uint64_t l2, l3 = 0;
		unsigned first, n;

		agx_uat_va_unpack_u64(va, &at);
		l2 = next_table(l1 + 8 * at.l1);
		first = (unsigned)at.l3;
		n = ENTRIES - first < npages ? ENTRIES - first : (unsigned)npages;
		if (l2)
			l3 = next_table(pt_page_host(s->pool, l2) + 8 * at.l2);
		if (l3)
			memset((uint64_t *)pt_page_host(s->pool, l3) + first, 0, 8ull * n);
		va += n * MEMMGR_PAGE;
		npages -= n;
	}
}

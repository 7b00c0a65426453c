/*
 * pagetable.c: the UAT page-table writer of pagetable.h.
 */
#include <errno.h>
#include <string.h>

#include "agx_uat.h"
#include "pagetable.h"

#define PAGE 0x4000ull

static uint8_t *host(struct sim_pagetable *pt, uint64_t paddr)
{
	return pt->ram + (paddr - pt->ram_paddr);
}

static int alloc_table(struct sim_pagetable *pt, uint64_t *paddr)
{
	if (pt->next + PAGE > pt->ram_paddr + pt->ram_size)
		return -ENOMEM;
	*paddr = pt->next;
	memset(host(pt, pt->next), 0, PAGE);
	pt->next += PAGE;
	return 0;
}

int sim_pagetable_init(struct sim_pagetable *pt, uint8_t *ram, uint64_t ram_paddr,
		       uint64_t ram_size)
{
	*pt = (struct sim_pagetable){ .ram = ram, .ram_paddr = ram_paddr, .ram_size = ram_size };
	pt->next = (ram_paddr + PAGE - 1) & ~(PAGE - 1);
	return alloc_table(pt, &pt->context_table);
}

/* The entry for va at one level, making the table below it if asked. */
static int descend(struct sim_pagetable *pt, uint64_t table, uint64_t index, bool make,
		   uint64_t *next)
{
	uint8_t *raw = host(pt, table + index * 8);
	struct agx_uat_table t = { .valid = true };
	int ret;

	if (agx_uat_table_unpack(raw, &t) && t.valid) {
		*next = t.address;
		return 0;
	}
	if (!make)
		return -ENOENT;
	ret = alloc_table(pt, next);
	if (ret < 0)
		return ret;
	t = (struct agx_uat_table){ .valid = true, .address = *next };
	agx_uat_table_pack(raw, &t);
	return 0;
}

/* The L3 descriptor's device-physical address for va. */
static int leaf(struct sim_pagetable *pt, unsigned context, uint64_t va, bool make, uint64_t *out)
{
	struct agx_uat_va split;
	uint8_t *raw;
	struct agx_uat_ttbr ttbr = { 0 };
	uint64_t table;
	int ret;

	agx_uat_va_unpack_u64(va, &split);
	if (context >= 64 || split.offset || split.upper != (split.high ? 0xffffff : 0))
		return -EINVAL;
	raw = host(pt, pt->context_table + context * 16ull + split.high * 8ull);
	if (!agx_uat_ttbr_unpack(raw, &ttbr) || !ttbr.valid) {
		if (!make)
			return -ENOENT;
		ret = alloc_table(pt, &table);
		if (ret < 0)
			return ret;
		ttbr = (struct agx_uat_ttbr){ .valid = true, .baddr = table, .asid = context };
		agx_uat_ttbr_pack(raw, &ttbr);
	}
	table = ttbr.baddr;
	ret = descend(pt, table, split.l1, make, &table);
	if (ret == 0)
		ret = descend(pt, table, split.l2, make, &table);
	*out = table + split.l3 * 8;
	return ret;
}

int sim_pagetable_map(struct sim_pagetable *pt, unsigned context, uint64_t va, uint64_t pa,
		      unsigned ap, bool uxn, bool pxn)
{
	struct agx_uat_page page = { .valid = true,
				     .ap = ap,
				     .af = true,
				     .address = pa,
				     .uxn = uxn,
				     .pxn = pxn,
				     .os = true,
				     .ng = true };
	uint64_t at;
	int ret;

	if (pa % PAGE || ap > 3 || !agx_uat_page_fits(&page))
		return -EINVAL;
	ret = leaf(pt, context, va, true, &at);
	if (ret < 0)
		return ret;
	agx_uat_page_pack(host(pt, at), &page);
	return 0;
}

int sim_pagetable_unmap(struct sim_pagetable *pt, unsigned context, uint64_t va)
{
	uint64_t at;
	int ret = leaf(pt, context, va, false, &at);

	if (ret < 0)
		return ret;
	memset(host(pt, at), 0, 8);
	return 0;
}

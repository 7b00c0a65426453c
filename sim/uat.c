/*
 * uat.c: the UAT walk and TLB of uat.h.
 */
#include <string.h>

#include "agx_uat.h"
#include "device.h"
#include "uat.h"

#define VA_HALF_BIT 39
#define L1_SHIFT    36
#define L2_SHIFT    25
#define L3_SHIFT    14
#define L1_ENTRIES  8
#define LX_ENTRIES  2048

enum { R = SIM_UAT_READ, W = SIM_UAT_WRITE, X = SIM_UAT_EXEC };

/*
 * What a page allows, by [uxn][ap] for the GPU (EL0) and [pxn][ap] for the
 * firmware (EL1): ARMv8 stage-1 permissions as m1n1's uat.py tabulates them
 * (proxyclient/m1n1/hw/uat.py, Page_PTE.access).
 */
static const uint8_t gpu_access[2][4] = { { X, R | W, X, R | X }, { 0, R | W, 0, R } };
static const uint8_t fw_access[2][4] = { { R | W, R | W, R | X, R | X }, { R | W, R | W, R, R } };

void sim_uat_init(struct sim_uat *uat, struct sim_device *dev, uint64_t context_table)
{
	memset(uat, 0, sizeof(*uat));
	uat->dev = dev;
	uat->context_table = context_table;
}

const char *sim_uat_fault_name(enum sim_uat_fault_kind kind)
{
	switch (kind) {
	case SIM_UAT_OK:
		return "none";
	case SIM_UAT_FAULT_UNMAPPED:
		return "unmapped";
	case SIM_UAT_FAULT_PERMISSION:
		return "permission";
	case SIM_UAT_FAULT_BUS:
		return "bus error";
	}
	return "?";
}

static bool fault(struct sim_uat_fault *f, enum sim_uat_fault_kind kind, unsigned context,
		  uint64_t va, unsigned access, unsigned level)
{
	*f = (struct sim_uat_fault){ kind, context, va, access, level };
	return false;
}

/* Reads one descriptor; false is a bus error. */
static bool read_desc(struct sim_uat *uat, uint64_t paddr, uint8_t out[8])
{
	return sim_device_read(uat->dev, paddr, out, 8);
}

/* The page-table walk: fills a TLB entry, or says why not. */
static bool walk(struct sim_uat *uat, unsigned context, uint64_t va, unsigned access,
		 struct sim_uat_tlb_entry *e, struct sim_uat_fault *f)
{
	unsigned half = (unsigned)(va >> VA_HALF_BIT) & 1;
	uint64_t top = va >> (VA_HALF_BIT + 1);
	uint8_t raw[8];
	struct agx_uat_ttbr ttbr;
	struct agx_uat_table table;
	struct agx_uat_page page;
	uint64_t next;

	uat->walks++;
	/* the low half is zero-extended, the high half one-extended */
	if (top != (half ? (~0ull >> (VA_HALF_BIT + 1)) : 0))
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 0);
	if (!read_desc(uat, uat->context_table + context * 16ull + half * 8ull, raw))
		return fault(f, SIM_UAT_FAULT_BUS, context, va, access, 0);
	if (!agx_uat_ttbr_unpack(raw, &ttbr) || !ttbr.valid)
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 0);
	next = ttbr.baddr << 1;

	static const struct {
		unsigned shift, entries;
	} level[2] = { { L1_SHIFT, L1_ENTRIES }, { L2_SHIFT, LX_ENTRIES } };
	for (unsigned l = 0; l < 2; l++) {
		uint64_t index = (va >> level[l].shift) & (level[l].entries - 1);

		if (!read_desc(uat, next + index * 8, raw))
			return fault(f, SIM_UAT_FAULT_BUS, context, va, access, l + 1);
		if (!(raw[0] & 1) || !agx_uat_table_unpack(raw, &table))
			return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, l + 1);
		next = table.address << L3_SHIFT;
	}
	if (!read_desc(uat, next + ((va >> L3_SHIFT) & (LX_ENTRIES - 1)) * 8, raw))
		return fault(f, SIM_UAT_FAULT_BUS, context, va, access, 3);
	if (!(raw[0] & 1) || !agx_uat_page_unpack(raw, &page) || !page.af)
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 3);
	e->tag = (va >> SIM_UAT_PAGE_BITS) + 1;
	e->page = page.address << SIM_UAT_PAGE_BITS;
	e->gpu = gpu_access[page.uxn][page.ap];
	e->fw = fw_access[page.pxn][page.ap];
	return true;
}

bool sim_uat_translate(struct sim_uat *uat, unsigned context, uint64_t va, unsigned access,
		       bool firmware, uint64_t *pa, struct sim_uat_fault *f)
{
	uint64_t vpn = va >> SIM_UAT_PAGE_BITS;
	struct sim_uat_tlb_entry *e;

	if (context >= SIM_UAT_CONTEXTS)
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 0);
	e = &uat->tlb[context][vpn % SIM_UAT_TLB_ENTRIES];
	if (e->tag == vpn + 1) {
		uat->hits++;
	} else {
		struct sim_uat_tlb_entry fresh;

		/* only valid translations are cached, as on ARM */
		if (!walk(uat, context, va, access, &fresh, f))
			return false;
		*e = fresh;
	}
	if ((access & (firmware ? e->fw : e->gpu)) != access)
		return fault(f, SIM_UAT_FAULT_PERMISSION, context, va, access, 3);
	*pa = e->page | (va & (SIM_UAT_PAGE_SIZE - 1));
	return true;
}

void sim_uat_invalidate(struct sim_uat *uat, unsigned context, uint64_t va, uint64_t size)
{
	uint64_t first = va >> SIM_UAT_PAGE_BITS;
	uint64_t last = (va + size - 1) >> SIM_UAT_PAGE_BITS;

	if (context >= SIM_UAT_CONTEXTS || !size)
		return;
	if (last - first >= SIM_UAT_TLB_ENTRIES) {
		sim_uat_invalidate_context(uat, context);
		return;
	}
	for (uint64_t vpn = first; vpn <= last; vpn++) {
		struct sim_uat_tlb_entry *e = &uat->tlb[context][vpn % SIM_UAT_TLB_ENTRIES];

		if (e->tag == vpn + 1)
			e->tag = 0;
	}
}

void sim_uat_invalidate_context(struct sim_uat *uat, unsigned context)
{
	if (context < SIM_UAT_CONTEXTS)
		memset(uat->tlb[context], 0, sizeof(uat->tlb[context]));
}

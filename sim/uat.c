/*
 * uat.c: the UAT walk and TLB of uat.h.
 */
#include <string.h>

#include "agx_uat.h"
#include "device.h"
#include "uat.h"

#define VA_HALF_BIT 39

enum { R = SIM_UAT_READ, W = SIM_UAT_WRITE, X = SIM_UAT_EXEC };

/*
 * A TLB entry in one word: bit 0 valid, 1..3 the GPU's access, 4..6 the
 * firmware's, 7..40 the physical page (34 bits, as in a descriptor),
 * 41..57 the tag: the virtual page number (bits 39..14 of the address)
 * above the 9 bits that chose the entry.
 */
#define TLB_VALID      1ull
#define TLB_GPU_SHIFT  1
#define TLB_FW_SHIFT   4
#define TLB_PAGE_SHIFT 7
#define TLB_PAGE_MASK  ((1ull << 34) - 1)
#define TLB_TAG_SHIFT  41
#define TLB_INDEX_BITS 9
#define VPN_MASK       ((1ull << (VA_HALF_BIT + 1 - SIM_UAT_PAGE_BITS)) - 1)

_Static_assert(SIM_UAT_TLB_ENTRIES == 1u << TLB_INDEX_BITS, "TLB index width");

static uint64_t tlb_tag(uint64_t vpn)
{
	return (vpn & VPN_MASK) >> TLB_INDEX_BITS;
}

static uint64_t *tlb_slot(struct sim_uat *uat, unsigned context, uint64_t vpn)
{
	return &uat->tlb[context][vpn % SIM_UAT_TLB_ENTRIES];
}

static bool tlb_matches(uint64_t e, uint64_t vpn)
{
	return (e & TLB_VALID) && e >> TLB_TAG_SHIFT == tlb_tag(vpn);
}

/* The virtual address is canonical: bits above 39 copy bit 39. */
static bool canonical(uint64_t va)
{
	uint64_t top = va >> VA_HALF_BIT;

	return top == 0 || top == ~0ull >> VA_HALF_BIT;
}

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
static bool walk(struct sim_uat *uat, unsigned context, uint64_t va, unsigned access, uint64_t *e,
		 struct sim_uat_fault *f)
{
	struct agx_uat_va at;
	uint8_t raw[8];
	struct agx_uat_ttbr ttbr;
	struct agx_uat_table table;
	struct agx_uat_page page;
	uint64_t next;

	__atomic_fetch_add(&uat->walks, 1, __ATOMIC_RELAXED);
	agx_uat_va_unpack_u64(va, &at);
	if (!read_desc(uat, uat->context_table + context * 16ull + at.high * 8ull, raw))
		return fault(f, SIM_UAT_FAULT_BUS, context, va, access, 0);
	if (!agx_uat_ttbr_unpack(raw, &ttbr) || !ttbr.valid)
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 0);
	next = ttbr.baddr;

	const uint64_t index[2] = { at.l1, at.l2 };

	for (unsigned l = 0; l < 2; l++) {

		if (!read_desc(uat, next + index[l] * 8, raw))
			return fault(f, SIM_UAT_FAULT_BUS, context, va, access, l + 1);
		if (!(raw[0] & 1) || !agx_uat_table_unpack(raw, &table))
			return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, l + 1);
		next = table.address;
	}
	if (!read_desc(uat, next + at.l3 * 8, raw))
		return fault(f, SIM_UAT_FAULT_BUS, context, va, access, 3);
	if (!(raw[0] & 1) || !agx_uat_page_unpack(raw, &page) || !page.af)
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 3);
	*e = TLB_VALID | (uint64_t)gpu_access[page.uxn][page.ap] << TLB_GPU_SHIFT |
	     (uint64_t)fw_access[page.pxn][page.ap] << TLB_FW_SHIFT |
	     (page.address >> SIM_UAT_PAGE_BITS & TLB_PAGE_MASK) << TLB_PAGE_SHIFT |
	     tlb_tag(va >> SIM_UAT_PAGE_BITS) << TLB_TAG_SHIFT;
	return true;
}

bool sim_uat_translate(struct sim_uat *uat, unsigned context, uint64_t va, unsigned access,
		       bool firmware, uint64_t *pa, struct sim_uat_fault *f)
{
	uint64_t vpn = va >> SIM_UAT_PAGE_BITS, e, *slot;
	unsigned allowed;

	/* the low half is zero-extended, the high half one-extended */
	if (context >= SIM_UAT_CONTEXTS || !canonical(va))
		return fault(f, SIM_UAT_FAULT_UNMAPPED, context, va, access, 0);
	slot = tlb_slot(uat, context, vpn);
	e = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (!tlb_matches(e, vpn)) {
		/* only valid translations are cached, as on ARM */
		if (!walk(uat, context, va, access, &e, f))
			return false;
		__atomic_store_n(slot, e, __ATOMIC_RELAXED);
	}
	allowed = (unsigned)(e >> (firmware ? TLB_FW_SHIFT : TLB_GPU_SHIFT)) & 7;
	if ((access & allowed) != access)
		return fault(f, SIM_UAT_FAULT_PERMISSION, context, va, access, 3);
	*pa = ((e >> TLB_PAGE_SHIFT) & TLB_PAGE_MASK) << SIM_UAT_PAGE_BITS |
	      (va & (SIM_UAT_PAGE_SIZE - 1));
	return true;
}

bool sim_uat_access(struct sim_uat *uat, unsigned context, bool firmware, uint64_t va, void *buf,
		    uint64_t size, unsigned access, struct sim_uat_fault *f)
{
	uint8_t *p = buf;

	while (size) {
		uint64_t chunk = SIM_UAT_PAGE_SIZE - (va & (SIM_UAT_PAGE_SIZE - 1));
		uint64_t pa;
		bool ok;

		if (chunk > size)
			chunk = size;
		if (!sim_uat_translate(uat, context, va, access, firmware, &pa, f))
			return false;
		ok = access & SIM_UAT_WRITE ? sim_device_write(uat->dev, pa, p, chunk)
					    : sim_device_read(uat->dev, pa, p, chunk);
		if (!ok)
			return fault(f, SIM_UAT_FAULT_BUS, context, va, access, 3);
		va += chunk;
		p += chunk;
		size -= chunk;
	}
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
		uint64_t *slot = tlb_slot(uat, context, vpn);
		uint64_t e = __atomic_load_n(slot, __ATOMIC_RELAXED);

		/* a walk racing with this may put the entry back: as on hardware,
		 * the host invalidates after the page tables changed, not before */
		if (tlb_matches(e, vpn))
			__atomic_compare_exchange_n(slot, &e, 0, false, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
	}
}

void sim_uat_invalidate_context(struct sim_uat *uat, unsigned context)
{
	if (context >= SIM_UAT_CONTEXTS)
		return;
	for (unsigned i = 0; i < SIM_UAT_TLB_ENTRIES; i++)
		__atomic_store_n(&uat->tlb[context][i], 0, __ATOMIC_RELAXED);
}

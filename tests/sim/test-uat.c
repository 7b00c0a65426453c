/*
 * test-uat: the UAT walk and TLB against what was mapped.  Page tables are
 * written by the host-side writer (sim/host/pagetable.c) into memory the
 * device has DMA-mapped; the expected result of every lookup comes from the
 * test's own list of mappings and its own reading of the permission table,
 * not from a second walker.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "host/pagetable.h"
#include "uat.h"

#define RAM_PADDR 0x40000000ull
#define RAM_SIZE  (64ull << 20)
#define HIGH	  0xffffff8000000000ull
#define PAGE	  SIM_UAT_PAGE_SIZE

struct fixture {
	struct sim_device *dev;
	uint8_t *ram;
	struct sim_pagetable pt;
	struct sim_uat uat;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd = memfd_create("test-uat", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, RAM_SIZE), 0);
	f->ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(f->ram != MAP_FAILED);
	f->dev = sim_device_create(1ull << 36, 1);
	assert_non_null(f->dev);
	assert_int_equal(sim_device_dma_map(f->dev, RAM_PADDR, RAM_SIZE, fd, 0, true, 1), 0);
	close(fd);
	assert_int_equal(sim_pagetable_init(&f->pt, f->ram, RAM_PADDR, RAM_SIZE), 0);
	sim_uat_init(&f->uat, f->dev, f->pt.context_table);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sim_device_destroy(f->dev);
	munmap(f->ram, RAM_SIZE);
	free(f);
	return 0;
}

/*
 * The permission table as m1n1's uat.py writes it, by [uxn or pxn][ap]:
 * the GPU runs as EL0, the firmware as EL1.
 */
static const char *const el0[2][4] = { { "Xo", "RW", "Xo", "RX" }, { "None", "RW", "None", "Ro" } };
static const char *const el1[2][4] = { { "RW", "RW", "RX", "RX" }, { "RW", "RW", "Ro", "Ro" } };

static bool allowed(const char *rights, unsigned access)
{
	bool r = strchr(rights, 'R') != NULL;
	bool w = strchr(rights, 'W') != NULL;
	bool x = strchr(rights, 'X') != NULL;

	return (!(access & SIM_UAT_READ) || r) && (!(access & SIM_UAT_WRITE) || w) &&
	       (!(access & SIM_UAT_EXEC) || x);
}

struct mapping {
	unsigned context;
	uint64_t va, pa;
	unsigned ap;
	bool uxn, pxn;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible, so a failure can be replayed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void check(struct fixture *f, const struct mapping *m, uint64_t offset, unsigned access,
		  bool firmware)
{
	const char *rights = firmware ? el1[m->pxn][m->ap] : el0[m->uxn][m->ap];
	struct sim_uat_fault fault;
	uint64_t pa = 0;
	bool ok =
	    sim_uat_translate(&f->uat, m->context, m->va + offset, access, firmware, &pa, &fault);

	if (allowed(rights, access)) {
		if (!ok)
			fail_msg("ctx %u va 0x%llx access %u: %s fault, expected 0x%llx",
				 m->context, (unsigned long long)(m->va + offset), access,
				 sim_uat_fault_name(fault.kind),
				 (unsigned long long)(m->pa + offset));
		assert_int_equal(pa, m->pa + offset);
	} else {
		assert_false(ok);
		assert_int_equal(fault.kind, SIM_UAT_FAULT_PERMISSION);
		assert_int_equal(fault.va, m->va + offset);
		assert_int_equal(fault.context, m->context);
		assert_int_equal(fault.access, access);
	}
}

/* 10,000 random mappings in three contexts, both halves; every lookup checked. */
static void test_random_mappings(void **state)
{
	struct fixture *f = *state;
	enum { N = 10000 };
	static struct mapping maps[N];
	static const unsigned accesses[] = { SIM_UAT_READ, SIM_UAT_WRITE, SIM_UAT_EXEC,
					     SIM_UAT_READ | SIM_UAT_WRITE };

	for (unsigned i = 0; i < N; i++) {
		struct mapping *m = &maps[i];
		/* distinct pages: i times an odd step, modulo a power of two */
		uint64_t page = ((uint64_t)i * 0x9e37u + 17) % (1u << 20);

		m->context = 1 + (unsigned)(rnd() % 3);
		m->va = (rnd() & 1 ? HIGH : 0x100000000ull) + page * PAGE;
		m->pa = (rnd() % (1ull << 22)) * PAGE;
		m->ap = (unsigned)(rnd() % 4);
		m->uxn = rnd() & 1;
		m->pxn = rnd() & 1;
		assert_int_equal(
		    sim_pagetable_map(&f->pt, m->context, m->va, m->pa, m->ap, m->uxn, m->pxn), 0);
	}
	/* pages were chosen distinct per (half, page); the context is extra */
	for (int pass = 0; pass < 2; pass++) /* cold, then (partly) warm TLB */
		for (unsigned i = 0; i < N; i++)
			check(f, &maps[i], rnd() % PAGE, accesses[rnd() % 4], rnd() & 1);
	assert_true(f->uat.walks < 2 * N); /* the second pass hit the TLB */

	/* what was not mapped: other contexts, the pages in between, outside both halves */
	for (unsigned i = 0; i < N; i++) {
		const struct mapping *m = &maps[i];
		struct sim_uat_fault fault;
		uint64_t pa;
		unsigned other = 4 + (unsigned)(rnd() % 60);

		assert_false(
		    sim_uat_translate(&f->uat, other, m->va, SIM_UAT_READ, false, &pa, &fault));
		assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
		assert_int_equal(fault.level, 0);
	}
	for (unsigned i = 0; i < 1000; i++) {
		struct sim_uat_fault fault;
		uint64_t pa, va = 0x100000000ull + ((1ull << 20) + rnd() % (1u << 20)) * PAGE;

		assert_false(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
		assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
	}
}

/* The TLB keeps what it has until invalidated, as hardware does. */
static void test_tlb_invalidation(void **state)
{
	struct fixture *f = *state;
	struct sim_uat_fault fault;
	uint64_t va = 0x200000000ull, pa;

	assert_int_equal(sim_pagetable_map(&f->pt, 1, va, 0x1000000, 1, true, true), 0);
	assert_true(sim_uat_translate(&f->uat, 1, va + 8, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(pa, 0x1000008);

	/* remapped without invalidation: the old translation still answers */
	assert_int_equal(sim_pagetable_map(&f->pt, 1, va, 0x2000000, 1, true, true), 0);
	assert_true(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(pa, 0x1000000);
	/* another context's invalidation changes nothing here */
	sim_uat_invalidate(&f->uat, 2, va, PAGE);
	assert_true(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(pa, 0x1000000);
	sim_uat_invalidate(&f->uat, 1, va, PAGE);
	assert_true(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(pa, 0x2000000);

	/* unmapped without invalidation: still there; after a whole-context one: gone */
	assert_int_equal(sim_pagetable_unmap(&f->pt, 1, va), 0);
	assert_true(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	sim_uat_invalidate_context(&f->uat, 1);
	assert_false(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
	assert_int_equal(fault.level, 3);

	/* a newly mapped page needs no invalidation: faults are not cached */
	assert_int_equal(sim_pagetable_map(&f->pt, 1, va, 0x3000000, 1, true, true), 0);
	assert_true(sim_uat_translate(&f->uat, 1, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(pa, 0x3000000);
}

/* Every fault kind, with where the walk stopped. */
static void test_faults(void **state)
{
	struct fixture *f = *state;
	struct sim_uat_fault fault;
	uint64_t pa, va = 0x300000000ull;

	assert_int_equal(sim_pagetable_map(&f->pt, 5, va, 0x4000, 3, true, true),
			 0); /* read-only */
	assert_false(sim_uat_translate(&f->uat, 5, va, SIM_UAT_WRITE, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_PERMISSION);
	assert_false(sim_uat_translate(&f->uat, 5, va, SIM_UAT_WRITE, true, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_PERMISSION);
	assert_true(sim_uat_translate(&f->uat, 5, va, SIM_UAT_READ, false, &pa, &fault));

	/* non-canonical addresses, a context that does not exist */
	assert_false(sim_uat_translate(&f->uat, 5, 1ull << 40, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
	assert_false(
	    sim_uat_translate(&f->uat, 5, HIGH ^ (1ull << 50), SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
	assert_false(sim_uat_translate(&f->uat, 64, va, SIM_UAT_READ, false, &pa, &fault));

	/* a table that points outside device memory: a bus error at that level */
	uint64_t l3 = f->pt.next - PAGE; /* the last table made: the L3 of va */
	uint64_t l2 = l3 - PAGE;
	uint64_t *l2_entry = (uint64_t *)(f->ram + (l2 - RAM_PADDR)) + ((va >> 25) & 2047);

	assert_int_equal(*l2_entry >> 14 << 14 & ((1ull << 48) - 1), l3);
	*l2_entry = (*l2_entry & 0x3fff) | (0x800000000ull); /* 32 GiB: nothing there */
	sim_uat_invalidate_context(&f->uat, 5);
	assert_false(sim_uat_translate(&f->uat, 5, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_BUS);
	assert_int_equal(fault.level, 3);

	/* reserved bits set in a descriptor: not a valid translation */
	*l2_entry = (l3 & ~0x3fffull) | 3 | (1ull << 60);
	assert_false(sim_uat_translate(&f->uat, 5, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_UNMAPPED);
	assert_int_equal(fault.level, 2);

	/* the context table itself outside device memory */
	sim_uat_init(&f->uat, f->dev, 0x1000000000ull);
	assert_false(sim_uat_translate(&f->uat, 5, va, SIM_UAT_READ, false, &pa, &fault));
	assert_int_equal(fault.kind, SIM_UAT_FAULT_BUS);
	assert_int_equal(fault.level, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_random_mappings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tlb_invalidation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

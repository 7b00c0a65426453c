/*
 * test-core: agx-memmgr's state driven in-process over a stand-in device
 * (fakedev.c).  Page tables are read back by a walker written here from
 * docs/device.md's description of the UAT -- not memmgr's code -- and
 * compared with a reference model after randomized bind/unbind sequences.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakedev.h"
#include "memmgr.h"

#define PAGE	 0x4000ull
#define MEM_SIZE (256ull << 20)
#define R	 1
#define W	 2
#define X	 4

/* --- the walker: docs/device.md, "The UAT" ------------------------------------------- */

struct walk {
	bool valid;
	uint64_t pa;
	unsigned gpu; /* R, W, X the GPU gets */
};

static uint64_t read64(const struct fakedev *f, uint64_t paddr)
{
	uint64_t v = 0;

	assert_true(fakedev_read(f, paddr, &v, 8));
	return v;
}

static struct walk walk(const struct fakedev *f, uint64_t context_table, unsigned slot, uint64_t va)
{
	/* GPU (EL0) rights by AP with UXN clear, then set */
	static const unsigned gpu[2][4] = { { X, R | W, X, R | X }, { 0, R | W, 0, R } };
	struct walk w = { 0 };
	unsigned half = (va >> 39) & 1;
	uint64_t e = read64(f, context_table + 16 * slot + 8 * half), table;
	uint64_t index[3] = { (va >> 36) & 7, (va >> 25) & 2047, (va >> 14) & 2047 };

	if (!(e & 1))
		return w;
	table = e & 0xfffffffffffeull; /* bits 47..1: the address >> 1, shifted back */
	for (unsigned level = 0; level < 2; level++) {
		e = read64(f, table + 8 * index[level]);
		if ((e & 3) != 3)
			return w;
		table = e & 0xffffffffc000ull;
	}
	e = read64(f, table + 8 * index[2]);
	if ((e & 3) != 3 || !(e & (1ull << 10)))
		return w;
	w.valid = true;
	w.pa = e & 0xffffffffc000ull;
	w.gpu = gpu[(e >> 54) & 1][(e >> 6) & 3];
	return w;
}

/* --- helpers ------------------------------------------------------------------------- */

struct env {
	struct fakedev f;
	struct memmgr *m;
	struct memmgr_client *c;
	char why[MEMMGR_WHY];
};

/* A memmgr on a fake device; quota 0: the whole device (memmgr's own default is three quarters). */
static struct env *env_new(uint64_t quota)
{
	struct env *e = calloc(1, sizeof(*e));
	struct memmgr_config config = { .client_quota = quota ? quota : MEM_SIZE };

	fakedev_init(&e->f, MEM_SIZE);
	e->m = memmgr_create(&e->f.dev, &fakedev_tlb_ops, &e->f, &config);
	assert_non_null(e->m);
	e->c = memmgr_client_new(e->m, 1000, 1000, false);
	return e;
}

static void env_free(struct env *e)
{
	if (e->c)
		memmgr_client_gone(e->c);
	memmgr_destroy(e->m);
	assert_int_equal(e->f.num_maps, 0); /* everything given back to the device */
	assert_int_equal(e->f.bad, 0);
	fakedev_fini(&e->f);
	free(e);
}

static uint32_t bo(struct env *e, uint64_t size, int *fd)
{
	uint32_t h;
	uint64_t got;
	int local;

	assert_int_equal(memmgr_bo_create(e->c, size, 0, 0, &h, &got, fd ? fd : &local, e->why), 0);
	assert_true(got >= size && got % PAGE == 0);
	return h;
}

static void done_count(void *cookie, int status)
{
	(*(unsigned *)cookie)++;
	assert_int_equal(status, 0);
}

static unsigned slot_of(struct env *e, uint32_t vm, uint64_t seqno)
{
	unsigned slot, done = 0;
	uint64_t ttbr;

	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm, seqno, &slot, &ttbr, e->why, done_count, &done), 0);
	fakedev_tlb_answer(&e->f);
	assert_int_equal(done, 1);
	return slot;
}

/* --- the randomized test -------------------------------------------------------------- */

#define VMS	   3
#define BOS	   24
#define WINDOW	   (0x100000000ull)
#define WINDOW_PGS 4096 /* chosen addresses fall in 64 MiB */
#define OPS	   10000

struct model_bo {
	uint32_t handle; /* 0: closed */
	uint32_t serial;
	uint64_t pages;
	int fd;
};

struct model_map {
	uint64_t va, pages, bo_page;
	uint32_t serial;
	unsigned access;
};

struct model {
	struct model_map maps[VMS][512];
	unsigned num[VMS];
};

static uint64_t rnd(uint64_t n)
{
	return ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % n;
}

/* The model's mapping of a page, or NULL. */
static const struct model_map *model_at(const struct model *md, unsigned v, uint64_t va)
{
	for (unsigned i = 0; i < md->num[v]; i++)
		if (va >= md->maps[v][i].va && va < md->maps[v][i].va + md->maps[v][i].pages * PAGE)
			return &md->maps[v][i];
	return NULL;
}

static void model_unmap(struct model *md, unsigned v, uint64_t va, uint64_t pages)
{
	uint64_t end = va + pages * PAGE;

	for (unsigned i = 0; i < md->num[v];) {
		struct model_map m = md->maps[v][i];
		uint64_t m_end = m.va + m.pages * PAGE;

		if (m_end <= va || m.va >= end) {
			i++;
			continue;
		}
		md->maps[v][i] = md->maps[v][--md->num[v]];
		if (m.va < va) {
			struct model_map left = m;

			left.pages = (va - m.va) / PAGE;
			md->maps[v][md->num[v]++] = left;
		}
		if (m_end > end) {
			struct model_map right = m;

			right.va = end;
			right.pages = (m_end - end) / PAGE;
			right.bo_page = m.bo_page + (end - m.va) / PAGE;
			md->maps[v][md->num[v]++] = right;
		}
	}
}

/* Each BO page starts with its BO's serial and its index. */
static uint64_t tag(uint32_t serial, uint64_t page)
{
	return (uint64_t)serial << 32 | page;
}

static void check_page(struct env *e, const struct model *md, const unsigned slots[VMS], unsigned v,
		       uint64_t va)
{
	const struct model_map *m = model_at(md, v, va);
	struct walk w = walk(&e->f, memmgr_context_table(e->m), slots[v], va);

	if (!m) {
		if (w.valid)
			fail_msg("VM %u: %#llx is mapped, the model says not", v,
				 (unsigned long long)va);
		return;
	}
	if (!w.valid)
		fail_msg("VM %u: %#llx is not mapped", v, (unsigned long long)va);
	assert_int_equal(w.gpu, m->access);
	assert_int_equal(read64(&e->f, w.pa), tag(m->serial, m->bo_page + (va - m->va) / PAGE));
}

static void check_all(struct env *e, const struct model *md, const unsigned slots[VMS])
{
	for (unsigned v = 0; v < VMS; v++) {
		for (unsigned i = 0; i < md->num[v]; i++)
			for (uint64_t p = 0; p < md->maps[v][i].pages; p++)
				check_page(e, md, slots, v, md->maps[v][i].va + p * PAGE);
		/* and the window page by page: what the model lacks is unmapped */
		for (uint64_t p = 0; p < WINDOW_PGS; p += 7)
			check_page(e, md, slots, v, WINDOW + p * PAGE);
	}
}

static void test_random_binds(void **state)
{
	static const unsigned accesses[] = { R, R | W, R | X, X };
	struct env *e = env_new(0);
	static struct model md;
	struct model_bo bos[BOS] = { { 0 } };
	uint32_t vms[VMS], serial = 0;
	unsigned slots[VMS];

	(void)state;
	memset(&md, 0, sizeof(md));
	srand(1234);
	for (unsigned v = 0; v < VMS; v++) {
		assert_int_equal(memmgr_vm_create(e->c, &vms[v], e->why), 0);
		slots[v] = slot_of(e, vms[v], 0);
	}
	for (unsigned op = 0; op < OPS; op++) {
		unsigned kind = (unsigned)rnd(100), v = (unsigned)rnd(VMS);
		struct model_bo *b = &bos[rnd(BOS)];

		if (kind < 10 || !b->handle) {
			/* a new BO in this place (the old handle closed first) */
			uint64_t got;

			if (b->handle)
				assert_int_equal(memmgr_bo_close(e->c, b->handle, e->why), 0);
			b->pages = 1 + rnd(64);
			b->serial = ++serial;
			assert_int_equal(memmgr_bo_create(e->c, b->pages * PAGE, 0, 0, &b->handle,
							  &got, &b->fd, e->why),
					 0);
			for (uint64_t p = 0; p < b->pages; p++) {
				uint64_t t = tag(b->serial, p);

				assert_int_equal(pwrite(b->fd, &t, 8, (off_t)(p * PAGE)), 8);
			}
		} else if (kind < 55) {
			uint64_t first = rnd(b->pages), pages = 1 + rnd(b->pages - first), va = 0;
			bool allocate = rnd(2);
			unsigned access = accesses[rnd(4)];
			uint64_t want = allocate ? 0 : WINDOW + rnd(WINDOW_PGS - pages) * PAGE;
			bool overlap = false;
			int ret;

			for (uint64_t p = 0; !allocate && p < pages; p++)
				overlap |= model_at(&md, v, want + p * PAGE) != NULL;
			if (rnd(50) == 0)
				access = W; /* the UAT has no write-only GPU page */
			ret = memmgr_vm_bind(e->c, vms[v], b->handle, first * PAGE, pages * PAGE,
					     want, access, allocate, &va, e->why);
			if (access == W) {
				assert_int_equal(ret, -EINVAL);
				continue;
			}
			if (overlap) {
				assert_int_equal(ret, -EBUSY);
				continue;
			}
			assert_int_equal(ret, 0);
			if (!allocate)
				assert_int_equal(va, want);
			else /* a guard page either side */
				for (uint64_t p = 0; p < pages + 2; p++)
					assert_null(model_at(&md, v, va - PAGE + p * PAGE));
			md.maps[v][md.num[v]++] =
			    (struct model_map){ va, pages, first, b->serial, access };
			for (uint64_t p = 0; p < pages; p++)
				check_page(e, &md, slots, v, va + p * PAGE);
		} else if (kind < 90) {
			/* a range of the window, or around one of the VM's mappings */
			uint64_t va = WINDOW + rnd(WINDOW_PGS - 64) * PAGE, pages = 1 + rnd(64);
			bool any = false;
			unsigned done = 0;
			int ret;

			if (md.num[v] && rnd(2)) {
				const struct model_map *m = &md.maps[v][rnd(md.num[v])];

				va = m->va + rnd(m->pages) * PAGE;
				if (rnd(2) && va > PAGE)
					va -= PAGE;
			}
			for (uint64_t p = 0; p < pages; p++)
				any |= model_at(&md, v, va + p * PAGE) != NULL;
			ret = memmgr_vm_unbind(e->c, vms[v], va, pages * PAGE, e->why, done_count,
					       &done);
			if (!any) {
				assert_int_equal(ret, -ENOENT);
				continue;
			}
			assert_int_equal(ret, 0);
			assert_int_equal(done, 1); /* the TLB answered at once */
			model_unmap(&md, v, va, pages);
			for (uint64_t p = 0; p < pages + 2; p++)
				check_page(e, &md, slots, v, va - PAGE + p * PAGE);
		} else if (kind < 95) {
			/* closing a handle leaves its mappings working */
			assert_int_equal(memmgr_bo_close(e->c, b->handle, e->why), 0);
			b->handle = 0;
		}
		if (op % 1000 == 999)
			check_all(e, &md, slots);
	}
	check_all(e, &md, slots);
	env_free(e);
}

/* --- the rules ------------------------------------------------------------------------ */

static void test_bad_requests(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_client *other = memmgr_client_new(e->m, 2000, 2000, false);
	uint32_t vm, other_vm, h = bo(e, 4 * PAGE, NULL), h2;
	uint64_t va, size, pa;
	uint8_t token[MEMMGR_TOKEN_BYTES];
	unsigned done = 0;
	int fd;

	(void)state;
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	assert_int_equal(memmgr_vm_create(other, &other_vm, e->why), 0);
	/* sizes */
	assert_int_equal(memmgr_bo_create(e->c, 0, 0, 0, &h2, &size, &fd, e->why), -EINVAL);
	assert_int_equal(memmgr_bo_create(e->c, 1ull << 40, 0, 0, &h2, &size, &fd, e->why),
			 -EINVAL);
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 3, 0, &h2, &size, &fd, e->why), -EINVAL);
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 64, 0, &h2, &size, &fd, e->why), -EINVAL);
	/* a VM-private BO needs a VM of one's own */
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 4, other_vm, &h2, &size, &fd, e->why),
			 -ENOENT);
	/* handles: stale, foreign, double close */
	assert_int_equal(memmgr_vm_bind(other, other_vm, h, 0, PAGE, 0, R, true, &va, e->why),
			 h == 1 ? -ENOENT : -ENOENT);
	assert_int_equal(memmgr_vm_bind(e->c, other_vm, h, 0, PAGE, 0, R, true, &va, e->why),
			 -ENOENT);
	assert_int_equal(memmgr_bo_close(e->c, 99, e->why), -ENOENT);
	h2 = bo(e, PAGE, NULL);
	assert_int_equal(memmgr_bo_close(e->c, h2, e->why), 0);
	assert_int_equal(memmgr_bo_close(e->c, h2, e->why), -ENOENT);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h2, 0, PAGE, 0, R, true, &va, e->why), -ENOENT);
	/* ranges: misaligned, past the BO, wrapping, outside the half, the null page */
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0x100001000ull, R, false, &va, e->why), -EINVAL);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 100, PAGE, 0x100000000ull, R, false, &va, e->why), -EINVAL);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, PAGE, 4 * PAGE, 0x100000000ull, R, false, &va, e->why),
	    -EINVAL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, ~0ull - PAGE + 1, 2 * PAGE, 0x100000000ull, R,
					false, &va, e->why),
			 -EINVAL);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, 2 * PAGE, ~0ull - PAGE + 1, R, false, &va, e->why),
	    -EINVAL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 1ull << 39, R, false, &va, e->why),
			 -EINVAL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0, R, false, &va, e->why), -EINVAL);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0x100000000ull, 8, false, &va, e->why), -EINVAL);
	/* overlap */
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, 2 * PAGE, 0x100000000ull, R, false, &va, e->why), 0);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0x100004000ull, R, false, &va, e->why), -EBUSY);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0x0fffc000ull + 0xf0000000ull, R | W,
					false, &va, e->why),
			 0); /* adjacent below: allowed */
	/* unbinding nothing, another's VM */
	assert_int_equal(
	    memmgr_vm_unbind(e->c, vm, 0x200000000ull, PAGE, e->why, done_count, &done), -ENOENT);
	assert_int_equal(
	    memmgr_vm_unbind(e->c, other_vm, 0x100000000ull, PAGE, e->why, done_count, &done),
	    -ENOENT);
	/* export: a token imports; a wrong one does not; private BOs do not export */
	assert_int_equal(memmgr_bo_export(e->c, h, token, e->why), 0);
	assert_int_equal(memmgr_bo_import(other, token, 31, &h2, &size, &fd, e->why), -EINVAL);
	token[0] ^= 1;
	assert_int_equal(memmgr_bo_import(other, token, sizeof(token), &h2, &size, &fd, e->why),
			 -ENOENT);
	token[0] ^= 1;
	assert_int_equal(memmgr_bo_import(other, token, sizeof(token), &h2, &size, &fd, e->why), 0);
	assert_int_equal(size, 4 * PAGE);
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 4, vm, &h2, &size, &fd, e->why), 0);
	assert_int_equal(memmgr_bo_export(e->c, h2, token, e->why), -EPERM);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h2, 0, PAGE, 0, R, true, &va, e->why), 0);
	{
		uint32_t vm2;

		assert_int_equal(memmgr_vm_create(e->c, &vm2, e->why), 0);
		assert_int_equal(memmgr_vm_bind(e->c, vm2, h2, 0, PAGE, 0, R, true, &va, e->why),
				 -EPERM);
	}
	/* privileged requests from a client */
	assert_int_equal(memmgr_kernel_alloc(e->c, PAGE, 0, &h2, &va, &pa, &size, &fd, e->why,
					     done_count, &done),
			 -EPERM);
	assert_int_equal(done, 0);
	memmgr_client_gone(other);
	env_free(e);
}

static void test_quota_and_exhaustion(void **state)
{
	struct env *e = env_new(1 << 20);
	uint32_t h[64];
	uint64_t size;
	int fd;

	(void)state;
	/* the quota: 1 MiB, 64 pages */
	for (unsigned i = 0; i < 64; i++)
		h[i] = bo(e, PAGE, NULL);
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 0, 0, &h[0], &size, &fd, e->why), -EDQUOT);
	assert_non_null(strstr(e->why, "quota"));
	assert_int_equal(memmgr_bo_close(e->c, h[5], e->why), 0);
	h[5] = bo(e, PAGE, NULL);
	env_free(e);

	/*
	 * the quota is the process's: a second connection of pid 1000 shares
	 * it, one of pid 2000 has its own; what a gone client held goes back
	 */
	e = env_new(1 << 20);
	{
		struct memmgr_client *same = memmgr_client_new(e->m, 1000, 1000, false);
		struct memmgr_client *other = memmgr_client_new(e->m, 2000, 2000, false);
		struct memmgr_usage u;
		uint32_t h2;

		for (unsigned i = 0; i < 32; i++)
			h[i] = bo(e, PAGE, NULL);
		for (unsigned i = 0; i < 32; i++)
			assert_int_equal(
			    memmgr_bo_create(same, PAGE, 0, 0, &h2, &size, &fd, e->why), 0);
		assert_int_equal(memmgr_bo_create(same, PAGE, 0, 0, &h2, &size, &fd, e->why),
				 -EDQUOT);
		assert_non_null(strstr(e->why, "process"));
		assert_int_equal(memmgr_bo_create(e->c, PAGE, 0, 0, &h2, &size, &fd, e->why),
				 -EDQUOT);
		memmgr_query(same, &u);
		assert_int_equal(u.used, 64 * PAGE);
		for (unsigned i = 0; i < 64; i++)
			assert_int_equal(
			    memmgr_bo_create(other, PAGE, 0, 0, &h2, &size, &fd, e->why), 0);
		memmgr_client_gone(same);
		assert_int_equal(memmgr_bo_create(e->c, PAGE, 0, 0, &h2, &size, &fd, e->why), 0);
		memmgr_query(e->c, &u);
		assert_int_equal(u.used, 33 * PAGE);
		memmgr_client_gone(other);
	}
	env_free(e);

	/* by default a process may hold three quarters of the device */
	{
		struct memmgr_config config = { 0 };
		struct fakedev f;
		struct memmgr *m;
		struct memmgr_client *c;
		struct memmgr_usage u;

		fakedev_init(&f, MEM_SIZE);
		m = memmgr_create(&f.dev, &fakedev_tlb_ops, &f, &config);
		assert_non_null(m);
		c = memmgr_client_new(m, 1000, 1000, false);
		memmgr_query(c, &u);
		assert_int_equal(u.quota, MEM_SIZE / 4 * 3);
		memmgr_client_gone(c);
		memmgr_destroy(m);
		fakedev_fini(&f);
	}

	/* device memory: another client cannot have what is not there */
	e = env_new(0);
	{
		struct memmgr_stats s;
		uint32_t big;

		memmgr_stats(e->m, &s);
		big = bo(e, (s.phys_total - s.phys_used) / 2, NULL);
		assert_int_equal(memmgr_bo_create(e->c, s.phys_total / 2 + PAGE, 0, 0, &h[0], &size,
						  &fd, e->why),
				 -ENOMEM);
		/* nothing half done: the same request fits after a close */
		memmgr_stats(e->m, &s);
		assert_int_equal(memmgr_bo_close(e->c, big, e->why), 0);
		assert_int_equal(memmgr_bo_create(e->c, s.phys_total / 2 + PAGE, 0, 0, &h[0], &size,
						  &fd, e->why),
				 0);
	}
	env_free(e);
}

/* Fragmented memory still serves a BO, in pieces, each lent to the device. */
static void test_fragments(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_stats s;
	uint32_t small[64], big, vm;
	uint64_t va;
	unsigned slot;
	int fd;

	(void)state;
	memmgr_stats(e->m, &s);
	/* fill memory with 4 MiB BOs, free every other one */
	for (unsigned i = 0; i < 64 && s.phys_total - s.phys_used >= (4 << 20); i++) {
		small[i] = bo(e, 4 << 20, NULL);
		memmgr_stats(e->m, &s);
	}
	for (unsigned i = 0; i < 64; i += 2)
		assert_int_equal(memmgr_bo_close(e->c, small[i], e->why), 0);
	big = bo(e, 12 << 20, &fd);
	for (uint64_t p = 0; p < (12 << 20) / PAGE; p++) {
		uint64_t t = tag(7, p);

		assert_int_equal(pwrite(fd, &t, 8, (off_t)(p * PAGE)), 8);
	}
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	assert_int_equal(memmgr_vm_bind(e->c, vm, big, 0, 12 << 20, 0, R, true, &va, e->why), 0);
	slot = slot_of(e, vm, 0);
	for (uint64_t p = 0; p < (12 << 20) / PAGE; p++) {
		struct walk w = walk(&e->f, memmgr_context_table(e->m), slot, va + p * PAGE);

		assert_true(w.valid);
		assert_int_equal(read64(&e->f, w.pa), tag(7, p));
	}
	env_free(e);
}

/* Memory unmapped under running jobs waits for them, and for the TLB. */
static void test_deferred_release(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_stats before, s;
	uint32_t vm, h;
	uint64_t va, ttbr;
	unsigned slot, done = 0, maps;

	(void)state;
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	memmgr_stats(e->m, &before);
	h = bo(e, 8 * PAGE, NULL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, 8 * PAGE, 0, R | W, true, &va, e->why), 0);
	maps = e->f.num_maps;
	/* jobs 1..3 submitted; 1 done */
	e->f.hold_tlb = true;
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm, 3, &slot, &ttbr, e->why, done_count, &done), 0);
	assert_int_equal(done, 0); /* waits for the slot's invalidation */
	fakedev_tlb_answer(&e->f);
	assert_int_equal(done, 1);
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm, 1, e->why), 0);
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm, 9, e->why), -EINVAL);
	assert_int_equal(memmgr_jobs_completed(e->m, 1001, vm, 1, e->why), -ENOENT);

	/* unbind and close: the descriptors go at once, the pages do not */
	done = 0;
	assert_int_equal(memmgr_vm_unbind(e->c, vm, va, 8 * PAGE, e->why, done_count, &done), 0);
	assert_int_equal(memmgr_bo_close(e->c, h, e->why), 0);
	assert_false(walk(&e->f, memmgr_context_table(e->m), slot, va).valid);
	assert_int_equal(done, 0);
	assert_int_equal(e->f.num_tlb, 1);
	assert_int_equal(e->f.tlb[0].slot, slot);
	assert_int_equal(e->f.tlb[0].va, va);
	assert_int_equal(e->f.tlb[0].size, 8 * PAGE);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.pending_releases, 1);
	assert_int_equal(s.phys_used, before.phys_used + 8 * PAGE);
	/* jobs done before the TLB answered: still held */
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm, 3, e->why), 0);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.phys_used, before.phys_used + 8 * PAGE);
	assert_int_equal(e->f.num_maps, maps);
	fakedev_tlb_answer(&e->f);
	assert_int_equal(done, 1);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.pending_releases, 0);
	assert_int_equal(s.phys_used, before.phys_used);
	assert_int_equal(e->f.num_maps, maps - 1); /* DMA-unmapped */

	/* the other order: TLB first, then the jobs */
	h = bo(e, PAGE, NULL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0, R, true, &va, e->why), 0);
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm, 4, &slot, &ttbr, e->why, done_count, &done), 0);
	assert_int_equal(done, 2); /* it kept its slot: nothing to wait for */
	assert_int_equal(memmgr_bo_close(e->c, h, e->why), 0);
	assert_int_equal(memmgr_vm_unbind(e->c, vm, va, PAGE, e->why, done_count, &done), 0);
	fakedev_tlb_answer(&e->f);
	assert_int_equal(done, 3);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.phys_used, before.phys_used + PAGE);
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm, 4, e->why), 0);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.phys_used, before.phys_used);

	/* a destroyed VM keeps its tables until its jobs are done */
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm, 5, &slot, &ttbr, e->why, done_count, &done), 0);
	assert_int_equal(memmgr_vm_destroy(e->c, vm, e->why, done_count, &done), 0);
	fakedev_tlb_answer(&e->f);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.vms, 2); /* the kernel VM and the destroyed one */
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm, 5, e->why), 0);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.vms, 1);
	assert_int_equal(s.table_pages, before.table_pages - 1); /* its L1 too */

	/* a VM destroyed while an earlier unbind still waits: it goes when both are done */
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	h = bo(e, PAGE, NULL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0, R, true, &va, e->why), 0);
	slot_of(e, vm, 0);
	assert_int_equal(memmgr_vm_unbind(e->c, vm, va, PAGE, e->why, done_count, &done), 0);
	assert_int_equal(memmgr_vm_destroy(e->c, vm, e->why, done_count, &done), 0);
	assert_int_equal(e->f.num_tlb, 2);
	fakedev_tlb_answer_newest(&e->f); /* the destroy's, first */
	memmgr_stats(e->m, &s);
	assert_int_equal(s.vms, 2);
	fakedev_tlb_answer(&e->f);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.vms, 1);
	assert_int_equal(s.pending_releases, 0);
	e->f.hold_tlb = false;
	env_free(e);
}

/* 63 user slots: the least recently used idle VM gives its slot up; busy ones do not. */
static void test_slots(void **state)
{
	struct env *e = env_new(0);
	uint32_t vm[70];
	unsigned slot[70], done = 0, s;
	uint64_t ttbr;

	(void)state;
	for (unsigned i = 0; i < 70; i++)
		assert_int_equal(memmgr_vm_create(e->c, &vm[i], e->why), 0);
	for (unsigned i = 0; i < 63; i++) {
		slot[i] = slot_of(e, vm[i], 1);
		assert_true(slot[i] >= 1 && slot[i] < 64);
	}
	/* all busy (job 1 of each in flight) */
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm[63], 1, &s, &ttbr, e->why, done_count, &done),
	    -EBUSY);
	/* VMs 5 and 9 finish; 9 was used later, so 5 goes first */
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm[5], 1, e->why), 0);
	slot_of(e, vm[9], 1);
	assert_int_equal(memmgr_jobs_completed(e->m, 1000, vm[9], 1, e->why), 0);
	assert_int_equal(slot_of(e, vm[63], 1), slot[5]);
	assert_int_equal(slot_of(e, vm[64], 1), slot[9]);
	/* the context table says so: the slot's TTBR0 is VM 64's L1 */
	{
		uint64_t t = read64(&e->f, memmgr_context_table(e->m) + 16 * slot[9]);

		assert_int_equal(t & 0xfffffffffffeull, memmgr_vm_l1(e->m, vm[64]));
		assert_int_equal(t >> 48, slot[9]);
	}
	/* VM 5 comes back: it needs a slot again, and none is idle */
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm[5], 2, &s, &ttbr, e->why, done_count, &done),
	    -EBUSY);
	/* a foreign pid cannot bind */
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1001, vm[0], 2, &s, &ttbr, e->why, done_count, &done),
	    -ENOENT);
	env_free(e);
}

/*
 * DMA requests are not waited for one by one; a submission (slot bind) and
 * firmware memory wait until the device has caught up.
 */
static void test_device_fence(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_client *fw = memmgr_client_new(e->m, 3000, 0, true);
	uint32_t vm, h;
	uint64_t va, ttbr, size, pa;
	unsigned slot, done = 0;
	int fd;

	(void)state;
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	slot_of(e, vm, 1);
	e->f.hold_fence = true;
	h = bo(e, PAGE, NULL);
	assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0, R, true, &va, e->why), 0);
	/* the VM keeps its slot, and still the submission waits for the device */
	assert_int_equal(
	    memmgr_vm_slot_bind(e->m, 1000, vm, 2, &slot, &ttbr, e->why, done_count, &done), 0);
	assert_int_equal(done, 0);
	assert_int_equal(
	    memmgr_kernel_alloc(fw, PAGE, 0, &h, &va, &pa, &size, &fd, e->why, done_count, &done),
	    0);
	assert_int_equal(done, 0);
	fakedev_fence_answer(&e->f);
	assert_int_equal(done, 2);
	e->f.hold_fence = false;
	memmgr_client_gone(fw);
	env_free(e);
}

/* The kernel VM: firmware-only pages in the high half, through slot 0. */
static void test_kernel_and_faults(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_client *fw = memmgr_client_new(e->m, 3000, 0, true);
	struct memmgr_fault f;
	uint32_t h, vm, b;
	uint64_t va, va2, kva, size, e1, pa;
	unsigned slot, done = 0;
	int fd;

	(void)state;
	assert_int_equal(memmgr_kernel_alloc(fw, 3 * PAGE, 0, &h, &kva, &pa, &size, &fd, e->why,
					     done_count, &done),
			 0);
	assert_true(kva >= MEMMGR_KERNEL_VA_START);
	assert_int_equal(done, 1);			    /* the device has it */
	e1 = read64(&e->f, memmgr_context_table(e->m) + 8); /* slot 0's TTBR1 */
	assert_true(e1 & 1);
	{
		/* firmware read-write (AP 0, PXN): the GPU gets nothing */
		struct walk w = walk(&e->f, memmgr_context_table(e->m), 0, kva + PAGE);

		assert_true(w.valid);
		assert_int_equal(w.gpu, 0);
	}
	assert_int_equal(memmgr_fault_decode(e->m, 0, kva + PAGE + 8, &f, e->why), 0);
	assert_int_equal(f.client_pid, 0);
	assert_int_equal(f.bo_offset, PAGE + 8);

	/* a client's fault: its pid, VM, BO handle and offset */
	b = bo(e, 2 * PAGE, NULL);
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	assert_int_equal(memmgr_vm_bind(e->c, vm, b, PAGE, PAGE, 0, R, true, &va, e->why), 0);
	slot = slot_of(e, vm, 0);
	assert_int_equal(memmgr_fault_decode(e->m, slot, va + 100, &f, e->why), 0);
	assert_int_equal(f.client_pid, 1000);
	assert_int_equal(f.vm, vm);
	assert_int_equal(f.bo, b);
	assert_int_equal(f.bo_offset, PAGE + 100);
	/* an address nothing maps: the VM, no BO */
	assert_int_equal(memmgr_fault_decode(e->m, slot, va + 5 * PAGE, &f, e->why), 0);
	assert_int_equal(f.vm, vm);
	assert_int_equal(f.bo, 0);
	/* ranges checked for the firmware channel: mapped, whole, with the access */
	assert_int_equal(memmgr_vm_check(e->m, slot, va + 16, 100, R, e->why), 0);
	assert_int_equal(memmgr_vm_check(e->m, slot, va, PAGE + 1, R, e->why), -ENOENT);
	assert_int_equal(memmgr_vm_check(e->m, slot, va - 1, 2, R, e->why), -ENOENT);
	assert_int_equal(memmgr_vm_check(e->m, slot, va, 8, R | W, e->why), -EPERM);
	assert_int_equal(memmgr_vm_check(e->m, slot, va, 0, R, e->why), -EINVAL);
	assert_int_equal(memmgr_vm_check(e->m, 0, kva, 8, R, e->why), -ENOENT);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, b, 0, PAGE, va + PAGE, R | W, false, &va2, e->why), 0);
	assert_int_equal(memmgr_vm_check(e->m, slot, va + 8, PAGE, R, e->why), 0); /* across two */
	assert_int_equal(memmgr_vm_check(e->m, slot, va + 8, PAGE, R | W, e->why), -EPERM);
	assert_int_equal(memmgr_fault_decode(e->m, 40, 0x4000, &f, e->why), -ENOENT);
	assert_int_equal(memmgr_fault_decode(e->m, 64, 0x4000, &f, e->why), -EINVAL);

	/* freeing it: descriptors gone, slot 0 invalidated */
	assert_int_equal(memmgr_kernel_free(fw, h, e->why, done_count, &done), 0);
	assert_int_equal(done, 2);
	assert_false(walk(&e->f, memmgr_context_table(e->m), 0, kva).valid);
	assert_int_equal(memmgr_kernel_free(fw, h, e->why, done_count, &done), -ENOENT);
	/* contiguous: one device-physical range, said */
	assert_int_equal(memmgr_kernel_alloc(fw, 4 * PAGE, MEMMGR_BO_CONTIGUOUS, &h, &kva, &pa,
					     &size, &fd, e->why, done_count, &done),
			 0);
	assert_true(pa != 0 && pa % PAGE == 0);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(walk(&e->f, memmgr_context_table(e->m), 0, kva + i * PAGE).pa,
				 pa + i * PAGE);
	/* clients cannot ask for it */
	assert_int_equal(
	    memmgr_bo_create(e->c, PAGE, MEMMGR_BO_CONTIGUOUS, 0, &b, &size, &fd, e->why), -EINVAL);
	/* a kernel handle is not a BO handle */
	assert_int_equal(
	    memmgr_kernel_alloc(fw, PAGE, 0, &h, &kva, &pa, &size, &fd, e->why, done_count, &done),
	    0);
	assert_int_equal(memmgr_bo_close(fw, h, e->why), -ENOENT);
	memmgr_client_gone(fw); /* and its allocations go with it */
	env_free(e);
}

/* A client that goes away leaves nothing behind. */
static void test_client_gone(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_client *other = memmgr_client_new(e->m, 2000, 2000, false);
	struct memmgr_stats before, s;
	uint32_t vm, h, imported;
	uint64_t va, size;
	uint8_t token[MEMMGR_TOKEN_BYTES];
	unsigned maps = e->f.num_maps;
	int fd;

	(void)state;
	memmgr_stats(e->m, &before);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
		h = bo(e, (i + 1) * PAGE, NULL);
		assert_int_equal(memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0, R, true, &va, e->why), 0);
		slot_of(e, vm, 0);
	}
	/* one BO shared: it outlives its creator, and stops counting against it */
	assert_int_equal(memmgr_bo_export(e->c, h, token, e->why), 0);
	assert_int_equal(
	    memmgr_bo_import(other, token, sizeof(token), &imported, &size, &fd, e->why), 0);
	memmgr_client_gone(e->c);
	e->c = NULL;
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, 1);
	assert_int_equal(s.vms, 1);
	assert_int_equal(s.pending_releases, 0);
	assert_int_equal(s.table_pages, before.table_pages);
	assert_int_equal(e->f.num_maps, maps + 1);
	memmgr_client_gone(other);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, 0);
	assert_int_equal(s.phys_used, before.phys_used);
	assert_int_equal(e->f.num_maps, maps);
	env_free(e);
}

/*
 * BO_IMPORT_FD: a client's memfd becomes a BO over the same pages (grown
 * to whole pages and sealed against resizing), the device reads what the
 * client wrote; an fd that is one of memmgr's BOs' memfds names that BO;
 * what cannot be a BO (no memfd, not writable, write-sealed, unsealable,
 * empty, a partial page that cannot grow, a VM-private BO's) is refused.
 */
static void test_import_fd(void **state)
{
	struct env *e = env_new(0);
	struct memmgr_client *other = memmgr_client_new(e->m, 1001, 1001, false);
	static const char text[] = "pixels from the CPU";
	struct memmgr_stats s, before;
	struct stat st, bst;
	uint32_t h, h2, vm, own, priv;
	uint64_t size, va;
	char got[sizeof(text)], path[64];
	int mfd, fd, fd2, own_fd, bad, pipes[2];

	(void)state;
	mfd = memfd_create("client", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_true(mfd >= 0);
	assert_int_equal(ftruncate(mfd, 5000), 0);
	assert_int_equal(pwrite(mfd, text, sizeof(text), 100), (ssize_t)sizeof(text));
	memmgr_stats(e->m, &before);
	assert_int_equal(memmgr_bo_import_fd(e->c, dup(mfd), &h, &size, &fd, e->why), 0);
	assert_int_equal(size, PAGE);
	assert_int_equal(fstat(mfd, &st), 0);
	assert_int_equal(st.st_size, PAGE); /* grown to a page, the rest zero */
	assert_int_equal(fcntl(mfd, F_GET_SEALS) & (F_SEAL_SHRINK | F_SEAL_GROW),
			 F_SEAL_SHRINK | F_SEAL_GROW);
	assert_int_equal(fstat(fd, &bst), 0);
	assert_int_equal(bst.st_ino, st.st_ino);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, before.bos + 1);
	/* the device sees the client's bytes where the GPU address leads */
	assert_int_equal(memmgr_vm_create(e->c, &vm, e->why), 0);
	assert_int_equal(
	    memmgr_vm_bind(e->c, vm, h, 0, PAGE, 0x100000000ull, R | W, false, &va, e->why), 0);
	{
		struct walk w =
		    walk(&e->f, memmgr_context_table(e->m), slot_of(e, vm, 1), 0x100000000ull);

		assert_true(w.valid);
		assert_true(fakedev_read(&e->f, w.pa + 100, got, sizeof(got)));
		assert_memory_equal(got, text, sizeof(text));
	}
	/* the same memfd again, from another client: the same BO */
	assert_int_equal(memmgr_bo_import_fd(other, dup(mfd), &h2, &size, &fd2, e->why), 0);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, before.bos + 1);
	assert_int_equal(fd2, fd);
	/* a BO of memmgr's by its memfd: that BO; a VM-private one's: refused */
	own = bo(e, 2 * PAGE, &own_fd);
	assert_int_equal(memmgr_bo_import_fd(other, dup(own_fd), &h2, &size, &fd2, e->why), 0);
	assert_int_equal(size, 2 * PAGE);
	assert_int_equal(fd2, own_fd);
	assert_int_equal(memmgr_bo_create(e->c, PAGE, 4, vm, &priv, &size, &fd2, e->why), 0);
	assert_int_equal(memmgr_bo_import_fd(other, dup(fd2), &h2, &size, &fd, e->why), -EPERM);
	(void)own;

	/* no fd; not memfds */
	assert_int_equal(memmgr_bo_import_fd(other, -1, &h2, &size, &fd, e->why), -EINVAL);
	assert_int_equal(pipe(pipes), 0);
	assert_int_equal(memmgr_bo_import_fd(other, pipes[0], &h2, &size, &fd, e->why), -EINVAL);
	close(pipes[1]);
	bad = open("/dev/null", O_RDWR | O_CLOEXEC);
	assert_int_equal(memmgr_bo_import_fd(other, bad, &h2, &size, &fd, e->why), -EINVAL);
	/* read-only */
	bad = memfd_create("ro", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_int_equal(ftruncate(bad, PAGE), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", bad);
	fd2 = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd2 >= 0);
	assert_int_equal(memmgr_bo_import_fd(other, fd2, &h2, &size, &fd, e->why), -EACCES);
	/* sealed against writes */
	assert_int_equal(fcntl(bad, F_ADD_SEALS, F_SEAL_WRITE), 0);
	assert_int_equal(memmgr_bo_import_fd(other, bad, &h2, &size, &fd, e->why), -EACCES);
	assert_non_null(strstr(e->why, "writes"));
	/* cannot be sealed (made without MFD_ALLOW_SEALING) */
	bad = memfd_create("unsealable", MFD_CLOEXEC);
	assert_int_equal(ftruncate(bad, PAGE), 0);
	assert_int_equal(memmgr_bo_import_fd(other, bad, &h2, &size, &fd, e->why), -EACCES);
	/* empty; a partial page sealed against growing */
	bad = memfd_create("empty", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_int_equal(memmgr_bo_import_fd(other, bad, &h2, &size, &fd, e->why), -EINVAL);
	bad = memfd_create("partial", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_int_equal(ftruncate(bad, 100), 0);
	assert_int_equal(fcntl(bad, F_ADD_SEALS, F_SEAL_GROW), 0);
	assert_int_equal(memmgr_bo_import_fd(other, bad, &h2, &size, &fd, e->why), -EINVAL);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, before.bos + 3);

	/* the importer's handles go with it; the BO lives on in the first client's */
	memmgr_client_gone(other);
	memmgr_stats(e->m, &s);
	assert_int_equal(s.bos, before.bos + 3);
	assert_int_equal(memmgr_bo_close(e->c, h, e->why), 0);
	close(mfd);
	env_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_binds),
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_quota_and_exhaustion),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_deferred_release),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_device_fence),
		cmocka_unit_test(test_kernel_and_faults),
		cmocka_unit_test(test_client_gone),
		cmocka_unit_test(test_import_fd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

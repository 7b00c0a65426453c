/*
 * fakedev.c: the stand-in device of fakedev.h.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fakedev.h"

static int dma_map(void *ctx, uint64_t paddr, uint64_t size, int fd, uint64_t offset, bool writable)
{
	struct fakedev *f = ctx;

	if (!size || paddr % MEMMGR_PAGE || size % MEMMGR_PAGE || offset % MEMMGR_PAGE ||
	    paddr + size > f->dev.memory_size || f->num_maps == FAKEDEV_MAX_MAPS) {
		f->bad++;
		return -EINVAL;
	}
	for (unsigned i = 0; i < f->num_maps; i++)
		if (paddr < f->maps[i].paddr + f->maps[i].size && f->maps[i].paddr < paddr + size) {
			f->bad++;
			return -EBUSY;
		}
	f->maps[f->num_maps++] = (struct fakedev_map){ paddr, size, offset, dup(fd) };
	return 0;
}

static int dma_unmap(void *ctx, uint64_t paddr, uint64_t size)
{
	struct fakedev *f = ctx;

	for (unsigned i = 0; i < f->num_maps; i++)
		if (f->maps[i].paddr == paddr && f->maps[i].size == size) {
			close(f->maps[i].fd);
			f->maps[i] = f->maps[--f->num_maps];
			return 0;
		}
	f->bad++;
	return -EINVAL;
}

static int fence(void *ctx, memmgr_device_done_fn done, void *cookie)
{
	struct fakedev *f = ctx;

	if (!f->hold_fence) {
		done(cookie, 0);
		return 0;
	}
	if (f->num_fences == 16)
		return -EBUSY;
	f->fence_done[f->num_fences] = done;
	f->fence_cookie[f->num_fences++] = cookie;
	return 0;
}

static const struct memmgr_device_ops ops = { .dma_map = dma_map,
					      .dma_unmap = dma_unmap,
					      .fence = fence };

static int invalidate(void *ctx, unsigned slot, uint64_t va, uint64_t size,
		      void (*done)(void *cookie, int status), void *cookie)
{
	struct fakedev *f = ctx;

	f->tlb_total++;
	if (!f->hold_tlb) {
		done(cookie, 0);
		return 0;
	}
	if (f->num_tlb == FAKEDEV_MAX_TLB)
		return -EBUSY;
	f->tlb[f->num_tlb++] = (struct fakedev_tlb){ slot, va, size, done, cookie };
	return 0;
}

const struct memmgr_tlb_ops fakedev_tlb_ops = { .invalidate = invalidate };

void fakedev_init(struct fakedev *f, uint64_t memory_size)
{
	memset(f, 0, sizeof(*f));
	f->dev.ops = &ops;
	f->dev.ctx = f;
	f->dev.memory_size = memory_size;
}

void fakedev_fini(struct fakedev *f)
{
	for (unsigned i = 0; i < f->num_maps; i++)
		close(f->maps[i].fd);
	f->num_maps = 0;
}

bool fakedev_read(const struct fakedev *f, uint64_t paddr, void *buf, uint64_t len)
{
	for (unsigned i = 0; i < f->num_maps; i++) {
		const struct fakedev_map *m = &f->maps[i];

		if (paddr >= m->paddr && paddr + len <= m->paddr + m->size)
			return pread(m->fd, buf, len, (off_t)(m->offset + paddr - m->paddr)) ==
			       (ssize_t)len;
	}
	return false;
}

void fakedev_fence_answer(struct fakedev *f)
{
	for (unsigned i = 0; i < f->num_fences; i++)
		f->fence_done[i](f->fence_cookie[i], 0);
	f->num_fences = 0;
}

void fakedev_tlb_answer_newest(struct fakedev *f)
{
	struct fakedev_tlb t = f->tlb[--f->num_tlb];

	t.done(t.cookie, 0);
}

void fakedev_tlb_answer(struct fakedev *f)
{
	/* an answer may queue more: take them one at a time */
	while (f->num_tlb) {
		struct fakedev_tlb t = f->tlb[0];

		memmove(&f->tlb[0], &f->tlb[1], --f->num_tlb * sizeof(t));
		t.done(t.cookie, 0);
	}
}

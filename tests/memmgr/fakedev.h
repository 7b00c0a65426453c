/*
 * fakedev.h: a stand-in for agx-sim and agx-fwchan under agx-memmgr's
 * state, for tests that drive memmgr.h in-process: DMA mappings kept in a
 * list (and checked: aligned, inside memory, not overlapping, unmapped
 * exactly as mapped), device-physical memory read back through them, TLB
 * invalidations queued until the test answers them.
 */
#ifndef TESTS_MEMMGR_FAKEDEV_H
#define TESTS_MEMMGR_FAKEDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "memmgr.h"

#define FAKEDEV_MAX_MAPS 4096
#define FAKEDEV_MAX_TLB	 256

struct fakedev_map {
	uint64_t paddr, size, offset;
	int fd; /* a duplicate: the device's own reference */
};

struct fakedev_tlb {
	unsigned slot;
	uint64_t va, size;
	void (*done)(void *cookie, int status);
	void *cookie;
};

struct fakedev {
	struct memmgr_device dev;
	struct fakedev_map maps[FAKEDEV_MAX_MAPS];
	unsigned num_maps;
	unsigned bad;	 /* requests the device would have refused */
	bool hold_tlb;	 /* queue invalidations instead of answering at once */
	bool hold_fence; /* queue fences: the device has not caught up */
	memmgr_device_done_fn fence_done[16];
	void *fence_cookie[16];
	unsigned num_fences;
	struct fakedev_tlb tlb[FAKEDEV_MAX_TLB];
	unsigned num_tlb, tlb_total;
};

extern const struct memmgr_tlb_ops fakedev_tlb_ops;

void fakedev_init(struct fakedev *f, uint64_t memory_size);
void fakedev_fini(struct fakedev *f);
/* Reads device-physical memory as the device would; false where nothing is mapped. */
bool fakedev_read(const struct fakedev *f, uint64_t paddr, void *buf, uint64_t len);
/* Answers the queued invalidations, oldest first. */
void fakedev_tlb_answer(struct fakedev *f);
/* Answers only the newest queued invalidation (answers may come in any order). */
void fakedev_tlb_answer_newest(struct fakedev *f);
/* The device catches up: the queued fences signal. */
void fakedev_fence_answer(struct fakedev *f);

#endif

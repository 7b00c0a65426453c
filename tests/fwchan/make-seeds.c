/*
 * make-seeds: seed sessions for fwchan's fuzz-requests, written into DIR:
 * the scheduler's (a context, submissions good and bad, its destruction)
 * and memmgr's (invalidations, a flush).  The first context of a fresh
 * fwchan is 1; the fuzz target's VM window starts at 0x100000000.
 *
 *   make-seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agxipc/ipc.h"
#include "harness.h"

int main(int argc, char **argv)
{
	static struct seed_session seed;
	Agx__Fwchan__ContextCreate cc = AGX__FWCHAN__CONTEXT_CREATE__INIT;
	Agx__Fwchan__ContextDestroy cd = AGX__FWCHAN__CONTEXT_DESTROY__INIT;
	Agx__Fwchan__Submit s = AGX__FWCHAN__SUBMIT__INIT;
	Agx__Fwchan__TlbInvalidate t = AGX__FWCHAN__TLB_INVALIDATE__INIT;
	Agx__Fwchan__CacheFlush fl = AGX__FWCHAN__CACHE_FLUSH__INIT;
	Agx__Fwchan__WorkItem items[3], *list[3];
	Agx__Work__Compute body[3];

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	seed_start(&seed, 1);
	cc.context_slot = 1;
	cc.priority = AGX__WORK__PRIORITY__PRIORITY_NORMAL;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_CONTEXT_CREATE, &cc.base);
	for (unsigned i = 0; i < 3; i++) {
		agx__fwchan__work_item__init(&items[i]);
		agx__work__compute__init(&body[i]);
		body[i].encoder = 0x100000000ull + 0x100 * i;
		body[i].encoder_end = body[i].encoder + 0x40;
		body[i].usc_base = 0x100010000ull;
		items[i].kind = AGX__FWCHAN__WORK_KIND__WORK_COMPUTE;
		items[i].job_id = 1 + i;
		items[i].work_case = AGX__FWCHAN__WORK_ITEM__WORK_COMPUTE;
		items[i].compute = &body[i];
		list[i] = &items[i];
	}
	s.context = 1;
	s.context_slot = 1;
	s.items = list;
	s.n_items = 3;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base);
	s.context_slot = 2; /* moved while busy: refused */
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base);
	body[0].encoder = 0x300000000ull; /* outside the VM */
	body[0].encoder_end = 0x300000040ull;
	s.context_slot = 1;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base);
	{
		Agx__Work__Render r = AGX__WORK__RENDER__INIT;

		r.encoder = 0x100000000ull;
		r.encoder_end = 0x100000100ull;
		r.usc_base = 0x100010000ull;
		r.tvb = 0x100100000ull;
		r.tvb_size = 0x10000;
		r.width = r.height = 64;
		r.samples = 1;
		r.utile_width = r.utile_height = 32;
		r.sample_size = 4;
		r.zls_control = 1u << 15 | 1u << 19; /* z load and store */
		r.depth_buffer = 0x100200000ull;
		r.scissor_array = 0x100300000ull;
		r.scissor_count = 1;
		agx__fwchan__work_item__init(&items[0]);
		items[0].kind = AGX__FWCHAN__WORK_KIND__WORK_RENDER;
		items[0].job_id = 9;
		items[0].work_case = AGX__FWCHAN__WORK_ITEM__WORK_RENDER;
		items[0].render = &r;
		s.n_items = 1;
		seed_add(&seed, AGX_IPC_MSG_FWCHAN_SUBMIT, &s.base);
	}
	cd.context = 1;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_CONTEXT_DESTROY, &cd.base);
	seed_save(&seed, argv[1], "scheduler");

	seed_start(&seed, 1);
	t.context_slot = 3;
	t.va = 0x100000000ull;
	t.size = 0x8000;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base);
	t.size = 0;
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_TLB_INVALIDATE, &t.base);
	seed_add(&seed, AGX_IPC_MSG_FWCHAN_CACHE_FLUSH, &fl.base);
	seed_save(&seed, argv[1], "memmgr");
	return 0;
}

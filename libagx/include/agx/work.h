/*
 * work.h: the rules a GPU work descriptor (work.proto's Compute and
 * Render) keeps on its own, before any address is looked up: alignment,
 * sizes, tile shapes, known bits.  agx-scheduler refuses a submission that
 * breaks them; agx-fwchan checks them again, with the memory each
 * descriptor names, before it builds a firmware item (docs/fwchan.md).
 */
#ifndef AGX_WORK_H
#define AGX_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "agxipc/messages.h"

/* A range a descriptor names, with the access the GPU needs (memmgr's BindFlags; 0: mapped). */
struct agx_work_range {
	uint64_t va, size;
	unsigned access;
};

#define AGX_WORK_READ	    1
#define AGX_WORK_WRITE	    2
#define AGX_WORK_MAX_RANGES 8
#define AGX_WORK_MAX_STREAM (16u << 20) /* a stream's bytes up to its first link */

/*
 * 0 with the ranges the descriptor names in r (up to AGX_WORK_MAX_RANGES)
 * and their number in *count, or -EINVAL with a sentence in why.
 */
int agx_work_compute_ranges(const Agx__Work__Compute *c, struct agx_work_range *r, unsigned *count,
			    char *why, size_t why_size);
int agx_work_render_ranges(const Agx__Work__Render *r, struct agx_work_range *out, unsigned *count,
			   char *why, size_t why_size);

#endif

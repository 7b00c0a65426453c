/*
 * cmdbuf.h: building compute work for the GPU: the CDM stream of launches
 * and barriers, and, for each launch, its pipeline (the USC state words)
 * and a copy of its uniform registers, all in one piece of memory the
 * caller owns, mapped in the process and bound in the GPU VM.  The words
 * come from the generated hardware description (libagx/hw/cmdbuf.hw;
 * docs/control-streams.md); a finished stream is what agx_sched_submit()
 * takes.
 *
 * The stream grows from the start of the memory, the pipelines and
 * uniforms from its end.  A builder is used by one thread at a time.
 */
#ifndef AGX_CMDBUF_H
#define AGX_CMDBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/sched.h"

/* The uniform registers of a launch: u0..u255, 32 bits each. */
#define AGX_CMDBUF_MAX_UNIFORMS 256

struct agx_cmdbuf {
	uint8_t *map;	   /* the memory, in this process */
	uint64_t va;	   /* ... and in the GPU VM */
	size_t size;	   /* bytes */
	uint64_t usc_base; /* pipelines and code are 32-bit offsets from it */
	size_t head, tail; /* the stream's end; where the data (from the end) starts */
	int error;	   /* the first failure; every later call returns it */
};

/*
 * One launch of a compute shader: its code (at code_va, within 4 GiB
 * above usc_base), what the compiler says it needs, the values of its
 * uniform registers, and the grid.
 */
struct agx_dispatch {
	uint64_t code_va;
	unsigned num_registers; /* 32-bit registers the code uses (reflection) */
	unsigned shared_size;	/* bytes of threadgroup memory per threadgroup */
	unsigned scratch_size;	/* bytes of stack per thread (spills) */
	uint32_t uniforms[AGX_CMDBUF_MAX_UNIFORMS];
	unsigned num_uniforms;	  /* registers loaded, from u0 */
	unsigned threadgroups[3]; /* the grid, in threadgroups */
	unsigned local_size[3];	  /* threads per threadgroup */
};

/*
 * Starts a builder over size bytes at map (CPU) and va (GPU): both 64-byte
 * aligned, the range within 4 GiB above usc_base.  -EINVAL when not.
 */
int agx_cmdbuf_init(struct agx_cmdbuf *cb, void *map, uint64_t va, size_t size, uint64_t usc_base);

/* A 64-bit address in uniform registers u[index], u[index + 1], low word first. */
void agx_dispatch_set_address(struct agx_dispatch *d, unsigned index, uint64_t address);

/*
 * Appends a launch: -ENOSPC when the memory is full, -EINVAL for a
 * dispatch the hardware cannot do (no threads, more than 1024 in a
 * threadgroup, a grid over 2^32 threads a side, code out of reach,
 * more threadgroup memory than 64 KiB, stack the device does not give).
 */
int agx_cmdbuf_dispatch(struct agx_cmdbuf *cb, const struct agx_dispatch *d);

/*
 * Appends a barrier: the launches after it see the memory the ones before
 * wrote; with usc_cache_inval the GPU also fetches shader code afresh
 * (code rewritten at an address that ran already).
 */
int agx_cmdbuf_barrier(struct agx_cmdbuf *cb, bool usc_cache_inval);

/* Ends the stream and says where it is, for agx_sched_submit(). */
int agx_cmdbuf_finish(struct agx_cmdbuf *cb, struct agx_sched_compute *out);

#endif

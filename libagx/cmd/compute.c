/*
 * compute.c: the compute command builder of agx/cmdbuf.h.  The words are
 * agx/cmd.h's; what is here is the layout of a command buffer and the
 * limits a launch keeps.
 */
#include <errno.h>
#include <string.h>

#include "agx/cmd.h"
#include "agx/cmdbuf.h"
#include "agx_cmdbuf.h"

#define PIPELINE_ALIGN AGX_PIPELINE_ALIGN
/* Threads a threadgroup may have, bytes of threadgroup memory it may use. */
#define MAX_THREADS 1024
#define MAX_SHARED  (64u << 10)
/*
 * Bytes of stack each thread has for spills: what agx-sim gives
 * (SIM_GPU_STACK_BYTES, docs/isa.md "Stack"); the hardware's scratch
 * allocation is not public.
 */
#define MAX_SCRATCH  1024
#define MAX_PIPELINE AGX_PIPELINE_MAX_LENGTH
#define LAUNCH_LENGTH                                                                              \
	(AGX_CMD_CDM_LAUNCH_WORD0_LENGTH + AGX_CMD_CDM_LAUNCH_WORD1_LENGTH +                       \
	 AGX_CMD_CDM_GLOBAL_SIZE_LENGTH + AGX_CMD_CDM_LOCAL_SIZE_LENGTH)

static int fail(struct agx_cmdbuf *cb, int error)
{
	if (!cb->error)
		cb->error = error;
	return cb->error;
}

static bool in_usc_range(const struct agx_cmdbuf *cb, uint64_t va, uint64_t size)
{
	return va >= cb->usc_base && va - cb->usc_base <= UINT32_MAX &&
	       size <= UINT32_MAX - (va - cb->usc_base);
}

int agx_cmdbuf_init(struct agx_cmdbuf *cb, void *map, uint64_t va, size_t size, uint64_t usc_base)
{
	memset(cb, 0, sizeof(*cb));
	cb->map = map;
	cb->va = va;
	cb->size = size;
	cb->usc_base = usc_base;
	cb->tail = size;
	if (!map || (uintptr_t)map % PIPELINE_ALIGN || va % PIPELINE_ALIGN ||
	    size % PIPELINE_ALIGN || size < PIPELINE_ALIGN || !in_usc_range(cb, va, size))
		return fail(cb, -EINVAL);
	return 0;
}

void agx_dispatch_set_address(struct agx_dispatch *d, unsigned index, uint64_t address)
{
	if (index + 1 >= AGX_CMDBUF_MAX_UNIFORMS)
		return;
	d->uniforms[index] = (uint32_t)address;
	d->uniforms[index + 1] = (uint32_t)(address >> 32);
	if (d->num_uniforms < index + 2)
		d->num_uniforms = index + 2;
}

/* Room for size bytes of data below the tail, aligned: their offset in the buffer. */
static int take_data(struct agx_cmdbuf *cb, size_t size, size_t align, size_t *offset)
{
	size_t start;

	if (size > cb->tail)
		return fail(cb, -ENOSPC);
	start = (cb->tail - size) / align * align;
	/* the stream keeps room for its terminate word */
	if (start < cb->head + AGX_CMD_CDM_STREAM_TERMINATE_LENGTH)
		return fail(cb, -ENOSPC);
	cb->tail = start;
	*offset = start;
	return 0;
}

static bool stream_room(const struct agx_cmdbuf *cb, size_t bytes)
{
	return cb->head + bytes + AGX_CMD_CDM_STREAM_TERMINATE_LENGTH <= cb->tail;
}

static int check_dispatch(const struct agx_cmdbuf *cb, const struct agx_dispatch *d)
{
	uint64_t threads = (uint64_t)d->local_size[0] * d->local_size[1] * d->local_size[2];

	if (threads < 1 || threads > MAX_THREADS)
		return -EINVAL;
	for (unsigned i = 0; i < 3; i++)
		if (!d->threadgroups[i] ||
		    (uint64_t)d->threadgroups[i] * d->local_size[i] > UINT32_MAX)
			return -EINVAL;
	if (d->shared_size > MAX_SHARED || d->scratch_size > MAX_SCRATCH ||
	    d->num_uniforms > AGX_CMDBUF_MAX_UNIFORMS || d->num_registers > 128)
		return -EINVAL;
	if (!in_usc_range(cb, d->code_va, 0))
		return -EINVAL;
	return 0;
}

int agx_cmdbuf_dispatch(struct agx_cmdbuf *cb, const struct agx_dispatch *d)
{
	size_t uniforms = 0, pipeline = 0;
	int ret;

	if (cb->error)
		return cb->error;
	ret = check_dispatch(cb, d);
	if (ret)
		return ret; /* the dispatch is wrong, not the buffer: it stays usable */
	if (!stream_room(cb, LAUNCH_LENGTH))
		return fail(cb, -ENOSPC);
	if (d->num_uniforms && take_data(cb, 4 * (size_t)d->num_uniforms, 4, &uniforms) < 0)
		return cb->error;
	if (take_data(cb, MAX_PIPELINE, PIPELINE_ALIGN, &pipeline) < 0)
		return cb->error;
	if (!stream_room(cb, LAUNCH_LENGTH))
		return fail(cb, -ENOSPC);

	memcpy(cb->map + uniforms, d->uniforms, 4 * (size_t)d->num_uniforms);

	struct agx_pipeline pipe = { .code = (uint32_t)(d->code_va - cb->usc_base),
				     .num_registers = d->num_registers,
				     .uniforms = cb->va + uniforms,
				     .uniform_halves = 2 * d->num_uniforms,
				     .shared_size = d->shared_size };
	/* the global size counts threads, not threadgroups */
	const uint32_t global[3] = { d->threadgroups[0] * d->local_size[0],
				     d->threadgroups[1] * d->local_size[1],
				     d->threadgroups[2] * d->local_size[2] };
	const uint32_t local[3] = { d->local_size[0], d->local_size[1], d->local_size[2] };

	agx_pipeline_pack(cb->map + pipeline, &pipe);
	agx_cdm_launch(cb->map + cb->head, (uint32_t)(cb->va + pipeline - cb->usc_base),
		       pipe.uniform_halves, global, local);
	cb->head += LAUNCH_LENGTH;
	return 0;
}

int agx_cmdbuf_barrier(struct agx_cmdbuf *cb, bool usc_cache_inval)
{
	if (cb->error)
		return cb->error;
	if (!stream_room(cb, AGX_CMD_CDM_BARRIER_LENGTH))
		return fail(cb, -ENOSPC);
	cb->head += agx_cdm_barrier(cb->map + cb->head, usc_cache_inval);
	return 0;
}

int agx_cmdbuf_finish(struct agx_cmdbuf *cb, struct agx_sched_compute *out)
{
	if (cb->error)
		return cb->error;
	/* every other call kept room for this word */
	cb->head += agx_cdm_terminate(cb->map + cb->head);
	out->encoder = cb->va;
	out->encoder_end = cb->va + cb->head;
	out->usc_base = cb->usc_base;
	return 0;
}

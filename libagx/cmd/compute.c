/*
 * compute.c: the compute command builder of agx/cmdbuf.h.  Every word is
 * packed by the generated code of libagx/hw/cmdbuf.hw; what is here is the
 * layout of a command buffer and the limits a launch keeps.
 */
#include <errno.h>
#include <string.h>

#include "agx/cmdbuf.h"
#include "agx_cmdbuf.h"

/* Pipelines start on 64 bytes (launch word 1 keeps bits 31..6 of the offset). */
#define PIPELINE_ALIGN 64
/* Threads a threadgroup may have, bytes of threadgroup memory it may use. */
#define MAX_THREADS 1024
#define MAX_SHARED  (64u << 10)
/*
 * Bytes of stack each thread has for spills: what agx-sim gives
 * (SIM_GPU_STACK_BYTES, docs/isa.md "Stack"); the hardware's scratch
 * allocation is not public.
 */
#define MAX_SCRATCH 1024
/* A uniform word loads at most 64 halves. */
#define HALVES_PER_WORD 64
/* The longest pipeline: uniform words for 512 halves, shared, shader, registers, end. */
#define MAX_PIPELINE                                                                               \
	(512 / HALVES_PER_WORD * AGX_CMD_USC_UNIFORM_LENGTH + AGX_CMD_USC_SHARED_LENGTH +          \
	 AGX_CMD_USC_SHADER_LENGTH + AGX_CMD_USC_REGISTERS_LENGTH +                                \
	 AGX_CMD_USC_NO_PRESHADER_LENGTH)
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

/* The USC state words at out: uniform loads, shared memory, shader, registers, the end. */
static size_t pack_pipeline(uint8_t *out, const struct agx_dispatch *d, uint64_t uniforms_va,
			    uint32_t code)
{
	unsigned halves = 2 * d->num_uniforms;
	size_t n = 0;

	for (unsigned start = 0; start < halves; start += HALVES_PER_WORD) {
		unsigned count =
		    halves - start < HALVES_PER_WORD ? halves - start : HALVES_PER_WORD;
		uint64_t buffer = uniforms_va + 2 * start;

		/* halves from 256 on take the high form of the word */
		if (start < 256) {
			struct agx_cmd_usc_uniform u = { .start_halfs = start,
							 .size_halfs = count,
							 .buffer = buffer };

			agx_cmd_usc_uniform_pack(out + n, &u);
			n += AGX_CMD_USC_UNIFORM_LENGTH;
		} else {
			struct agx_cmd_usc_uniform_high u = { .start_halfs = start - 256,
							      .size_halfs = count,
							      .buffer = buffer };

			agx_cmd_usc_uniform_high_pack(out + n, &u);
			n += AGX_CMD_USC_UNIFORM_HIGH_LENGTH;
		}
	}

	struct agx_cmd_usc_shared s = {
		.uses_shared_memory = d->shared_size != 0,
		.layout = AGX_CMD_SHARED_LAYOUT_VERTEX_COMPUTE,
		.bytes_per_threadgroup = d->shared_size,
	};
	/* unk2 is 3 and unk4 1 in every stream of the public record (Mesa's cmdbuf.xml) */
	struct agx_cmd_usc_shader sh = { AGX_CMD_USC_SHADER_DEFAULTS, .code = code };
	/* counted in 16-bit halves */
	struct agx_cmd_usc_registers r = { AGX_CMD_USC_REGISTERS_DEFAULTS };
	struct agx_cmd_usc_no_preshader end = { 0 };

	r.register_count = 2 * d->num_registers;
	agx_cmd_usc_shared_pack(out + n, &s);
	n += AGX_CMD_USC_SHARED_LENGTH;
	agx_cmd_usc_shader_pack(out + n, &sh);
	n += AGX_CMD_USC_SHADER_LENGTH;
	agx_cmd_usc_registers_pack(out + n, &r);
	n += AGX_CMD_USC_REGISTERS_LENGTH;
	agx_cmd_usc_no_preshader_pack(out + n, &end);
	return n + AGX_CMD_USC_NO_PRESHADER_LENGTH;
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
	pack_pipeline(cb->map + pipeline, d, cb->va + uniforms,
		      (uint32_t)(d->code_va - cb->usc_base));

	struct agx_cmd_cdm_launch_word0 w0 = {
		.mode = AGX_CMD_CDM_MODE_DIRECT,
		.uniform_register_count = 2 * d->num_uniforms, /* in 16-bit halves */
	};
	struct agx_cmd_cdm_launch_word1 w1 = {
		.pipeline = (uint32_t)(cb->va + pipeline - cb->usc_base),
	};
	/* the global size counts threads, not threadgroups */
	struct agx_cmd_cdm_global_size g = { .x = d->threadgroups[0] * d->local_size[0],
					     .y = d->threadgroups[1] * d->local_size[1],
					     .z = d->threadgroups[2] * d->local_size[2] };
	struct agx_cmd_cdm_local_size l = { .x = d->local_size[0],
					    .y = d->local_size[1],
					    .z = d->local_size[2] };
	uint8_t *out = cb->map + cb->head;

	agx_cmd_cdm_launch_word0_pack(out, &w0);
	out += AGX_CMD_CDM_LAUNCH_WORD0_LENGTH;
	agx_cmd_cdm_launch_word1_pack(out, &w1);
	out += AGX_CMD_CDM_LAUNCH_WORD1_LENGTH;
	agx_cmd_cdm_global_size_pack(out, &g);
	out += AGX_CMD_CDM_GLOBAL_SIZE_LENGTH;
	agx_cmd_cdm_local_size_pack(out, &l);
	cb->head += LAUNCH_LENGTH;
	return 0;
}

int agx_cmdbuf_barrier(struct agx_cmdbuf *cb, bool usc_cache_inval)
{
	struct agx_cmd_cdm_barrier b = { .usc_cache_inval = usc_cache_inval };

	if (cb->error)
		return cb->error;
	if (!stream_room(cb, AGX_CMD_CDM_BARRIER_LENGTH))
		return fail(cb, -ENOSPC);
	agx_cmd_cdm_barrier_pack(cb->map + cb->head, &b);
	cb->head += AGX_CMD_CDM_BARRIER_LENGTH;
	return 0;
}

int agx_cmdbuf_finish(struct agx_cmdbuf *cb, struct agx_sched_compute *out)
{
	struct agx_cmd_cdm_stream_terminate t = { 0 };

	if (cb->error)
		return cb->error;
	/* every other call kept room for this word */
	agx_cmd_cdm_stream_terminate_pack(cb->map + cb->head, &t);
	cb->head += AGX_CMD_CDM_STREAM_TERMINATE_LENGTH;
	out->encoder = cb->va;
	out->encoder_end = cb->va + cb->head;
	out->usc_base = cb->usc_base;
	return 0;
}

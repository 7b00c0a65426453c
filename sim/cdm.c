/*
 * cdm.c: the compute data master of cdm.h.  Every word comes from memory
 * the client wrote: each read is bounded, each field checked, and a word
 * the CDM does not understand ends the stream as malformed, never guessed.
 */
#include <stdio.h>
#include <string.h>

#include "agx_cmdbuf.h"
#include "cdm.h"
#include "device.h"
#include "uat.h"

#define MAX_COMMANDS 65536 /* per stream */
#define BLOCK(word0) ((word0) >> 29)

void sim_cdm_init(struct sim_cdm *cdm, struct sim_device *dev, unsigned context, uint64_t encoder,
		  uint64_t encoder_end, uint64_t usc_base)
{
	sim_stream_init(&cdm->s, dev, context, "CDM", encoder, encoder_end, usc_base);
}

/* The sizes of a launch: direct from the stream, or from an indirect buffer. */
static enum sim_cdm_status status(enum sim_read st)
{
	return st == SIM_READ_FAULT ? SIM_CDM_FAULT : SIM_CDM_MALFORMED;
}

static enum sim_read read_sizes(struct sim_stream *s, enum agx_cmd_cdm_mode mode,
				struct sim_gpu_job *job)
{
	uint8_t raw[AGX_CMD_CDM_GLOBAL_SIZE_LENGTH];
	struct agx_cmd_cdm_global_size global = { 0 };
	struct agx_cmd_cdm_local_size local = { 0 };
	struct agx_cmd_cdm_indirect ind;
	uint32_t sizes[6];
	uint64_t threads;

	enum sim_read st;

	if (mode == AGX_CMD_CDM_MODE_DIRECT) {
		if ((st = sim_stream_take(s, raw, sizeof(raw))))
			return st;
		agx_cmd_cdm_global_size_unpack(raw, &global);
		sizes[0] = (uint32_t)global.x;
		sizes[1] = (uint32_t)global.y;
		sizes[2] = (uint32_t)global.z;
	} else {
		if ((st = sim_stream_take(s, raw, AGX_CMD_CDM_INDIRECT_LENGTH)))
			return st;
		if (!agx_cmd_cdm_indirect_unpack(raw, &ind))
			return sim_stream_malformed(s, "CDM indirect word has reserved bits set");
		if (!sim_stream_read(s, ind.address, sizes,
				     mode == AGX_CMD_CDM_MODE_INDIRECT_LOCAL ? 24 : 12))
			return SIM_READ_FAULT;
	}
	if (mode != AGX_CMD_CDM_MODE_INDIRECT_LOCAL) {
		if ((st = sim_stream_take(s, raw, AGX_CMD_CDM_LOCAL_SIZE_LENGTH)))
			return st;
		agx_cmd_cdm_local_size_unpack(raw, &local);
		sizes[3] = (uint32_t)local.x;
		sizes[4] = (uint32_t)local.y;
		sizes[5] = (uint32_t)local.z;
	}
	threads = (uint64_t)sizes[3] * sizes[4] * sizes[5];
	if (threads < 1 || threads > SIM_GPU_MAX_THREADS)
		return sim_stream_malformed(s, "threadgroup of %llu threads (1..%u)",
					    (unsigned long long)threads, SIM_GPU_MAX_THREADS);
	for (unsigned d = 0; d < 3; d++) {
		job->global[d] = sizes[d];
		job->group[d] = sizes[3 + d];
		job->grid[d] = (uint32_t)(((uint64_t)sizes[d] + sizes[3 + d] - 1) / sizes[3 + d]);
	}
	return SIM_READ_OK;
}

static enum sim_read launch(struct sim_stream *s, const uint8_t word0[4], struct sim_gpu_job *job)
{
	struct agx_cmd_cdm_launch_word0 w0;
	struct agx_cmd_cdm_launch_word1 w1 = { 0 };
	uint8_t raw[4];
	enum sim_read st;

	if (!agx_cmd_cdm_launch_word0_unpack(word0, &w0) || w0.mode > 2)
		return sim_stream_malformed(s, "CDM launch at 0x%llx: reserved bits or mode",
					    (unsigned long long)s->at - 4);
	if ((st = sim_stream_take(s, raw, sizeof(raw))))
		return st;
	agx_cmd_cdm_launch_word1_unpack(raw, &w1);
	if ((st = read_sizes(s, (enum agx_cmd_cdm_mode)w0.mode, job)))
		return st;
	return sim_pipeline_read(
	    s, w1.pipeline, w0.sampler_state_register_count >= AGX_CMD_SAMPLER_STATES_EXTENDED8,
	    job->pipe);
}

enum sim_cdm_status sim_cdm_next(struct sim_cdm *cdm, struct usc_cache *programs,
				 struct sim_gpu_job *job, struct sim_uat_fault *fault, char *why,
				 size_t why_size)
{
	struct sim_stream *s = &cdm->s;

	sim_stream_begin(s, programs, fault, why, why_size);
	while (s->commands++ < MAX_COMMANDS) {
		uint8_t raw[8];
		struct agx_cmd_cdm_stream_link link;
		struct agx_cmd_cdm_stream_terminate term;
		struct agx_cmd_cdm_barrier barrier;
		uint32_t word0;
		enum sim_read st = sim_stream_take(s, raw, 4);

		if (st)
			return status(st);
		memcpy(&word0, raw, 4);
		job->context = s->context;
		switch (BLOCK(word0)) {
		case AGX_CMD_CDM_BLOCK_LAUNCH:
			st = launch(s, raw, job);
			return st ? status(st) : SIM_CDM_LAUNCH;
		case AGX_CMD_CDM_BLOCK_STREAM_LINK:
			if ((st = sim_stream_take(s, raw + 4, 4)))
				return status(st);
			if (!agx_cmd_cdm_stream_link_unpack(raw, &link))
				return status(
				    sim_stream_malformed(s, "CDM link has reserved bits set"));
			sim_stream_jump(s, link.target);
			break;
		case AGX_CMD_CDM_BLOCK_STREAM_TERMINATE:
			if ((st = sim_stream_take(s, raw + 4, 4)))
				return status(st);
			if (!agx_cmd_cdm_stream_terminate_unpack(raw, &term))
				return status(
				    sim_stream_malformed(s, "CDM terminate has reserved bits set"));
			return SIM_CDM_END;
		case AGX_CMD_CDM_BLOCK_BARRIER:
			if (!agx_cmd_cdm_barrier_unpack(raw, &barrier))
				return status(
				    sim_stream_malformed(s, "CDM barrier has reserved bits set"));
			/* launches run one after another here: only the shader cache matters */
			if (barrier.usc_cache_inval)
				usc_cache_invalidate(programs, 0, ~0ull);
			break;
		default:
			return status(sim_stream_malformed(s, "unknown CDM block %u at 0x%llx",
							   BLOCK(word0),
							   (unsigned long long)s->at - 4));
		}
	}
	return status(sim_stream_malformed(s, "CDM stream of more than %u commands", MAX_COMMANDS));
}

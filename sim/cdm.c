/*
 * cdm.c: the compute data master of cdm.h.  Every word comes from memory
 * the client wrote: each read is bounded, each field checked, and a word
 * the CDM does not understand ends the stream as malformed, never guessed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agx_cmdbuf.h"
#include "cdm.h"
#include "device.h"
#include "uat.h"

#define MAX_COMMANDS   65536 /* per stream */
#define MAX_USC_WORDS  64    /* per pipeline */
#define MAX_PROGRAM    65536 /* bytes of code fetched for one shader */
#define UNIFORM_HALVES 512   /* u0..u255, in 16-bit halves */
#define BLOCK(word0)   ((word0) >> 29)

void sim_cdm_init(struct sim_cdm *cdm, struct sim_device *dev, unsigned context, uint64_t encoder,
		  uint64_t encoder_end, uint64_t usc_base)
{
	*cdm = (struct sim_cdm){ .dev = dev,
				 .context = context,
				 .at = encoder,
				 .end = encoder_end,
				 .usc_base = usc_base };
}

static enum sim_cdm_status __attribute__((format(printf, 3, 4)))
malformed(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return SIM_CDM_MALFORMED;
}

static bool read_va(struct sim_cdm *cdm, uint64_t va, void *buf, uint64_t size,
		    struct sim_uat_fault *fault)
{
	return sim_uat_access(cdm->dev->uat, cdm->context, false, va, buf, size, SIM_UAT_READ,
			      fault);
}

/* The next size bytes of the stream; false with a fault, or with why set. */
static bool take(struct sim_cdm *cdm, void *buf, unsigned size, struct sim_uat_fault *fault,
		 char *why, size_t why_size)
{
	if (!cdm->linked && (cdm->at + size > cdm->end || cdm->at + size < cdm->at)) {
		snprintf(why, why_size, "CDM stream runs past its end at 0x%llx",
			 (unsigned long long)cdm->at);
		return false;
	}
	if (!read_va(cdm, cdm->at, buf, size, fault))
		return false;
	cdm->at += size;
	return true;
}

/* What a read that failed was: a fault, or the stream's end (why set). */
static enum sim_cdm_status failed(const char *why)
{
	return why[0] ? SIM_CDM_MALFORMED : SIM_CDM_FAULT;
}

struct fetch_ctx {
	struct sim_cdm *cdm;
};

static bool fetch_code(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	struct sim_cdm *cdm = ((struct fetch_ctx *)ctx)->cdm;
	struct sim_uat_fault fault;

	return sim_uat_access(cdm->dev->uat, cdm->context, false, addr, dst, size, SIM_UAT_EXEC,
			      &fault);
}

/* Preloads uniform halves [start, start + count) from memory at buffer. */
static enum sim_cdm_status load_uniforms(struct sim_cdm *cdm, struct sim_gpu_job *job,
					 unsigned start, unsigned count, uint64_t buffer,
					 struct sim_uat_fault *fault, char *why, size_t why_size)
{
	if (start + count > UNIFORM_HALVES)
		return malformed(why, why_size, "uniforms %u+%u are past u255", start / 2,
				 count / 2);
	if (!read_va(cdm, buffer, (uint8_t *)job->uniforms + start * 2, count * 2ull, fault))
		return SIM_CDM_FAULT;
	return SIM_CDM_LAUNCH;
}

/*
 * The USC state words at a pipeline: uniforms, threadgroup memory, the
 * shader, up to the word that ends them.
 */
static enum sim_cdm_status read_pipeline(struct sim_cdm *cdm, uint64_t va,
					 struct usc_cache *programs, bool extended_samplers,
					 struct sim_gpu_job *job, struct sim_uat_fault *fault,
					 char *why, size_t why_size)
{
	bool shader = false;

	for (unsigned n = 0; n < MAX_USC_WORDS; n++) {
		uint8_t raw[8] = { 0 };
		struct agx_cmd_usc_uniform u;
		struct agx_cmd_usc_uniform_high uh;
		struct agx_cmd_usc_shared shared;
		struct agx_cmd_usc_shader sh;
		struct agx_cmd_usc_registers regs;
		struct agx_cmd_usc_texture tex;
		struct agx_cmd_usc_sampler samp;
		struct agx_cmd_usc_no_preshader end;
		struct agx_cmd_usc_preshader pre;
		unsigned length;
		enum sim_cdm_status st;

		if (!read_va(cdm, va, raw, 2, fault))
			return SIM_CDM_FAULT;
		switch (raw[0]) {
		case AGX_CMD_USC_CONTROL_UNIFORM:
		case AGX_CMD_USC_CONTROL_UNIFORM_HIGH:
		case AGX_CMD_USC_CONTROL_TEXTURE:
		case AGX_CMD_USC_CONTROL_SAMPLER:
		case AGX_CMD_USC_CONTROL_PRESHADER:
			length = 8;
			break;
		case AGX_CMD_USC_CONTROL_SHADER:
			length = AGX_CMD_USC_SHADER_LENGTH;
			break;
		case AGX_CMD_USC_CONTROL_SHARED:
		case AGX_CMD_USC_CONTROL_REGISTERS:
			length = 4;
			break;
		case AGX_CMD_USC_CONTROL_NO_PRESHADER:
			length = AGX_CMD_USC_NO_PRESHADER_LENGTH;
			break;
		default:
			return malformed(why, why_size, "unknown USC state word 0x%02x at 0x%llx",
					 raw[0], (unsigned long long)va);
		}
		if (!read_va(cdm, va, raw, length, fault))
			return SIM_CDM_FAULT;
		switch (raw[0]) {
		case AGX_CMD_USC_CONTROL_UNIFORM:
			if (!agx_cmd_usc_uniform_unpack(raw, &u))
				goto bad;
			st = load_uniforms(cdm, job, (unsigned)u.start_halfs,
					   u.size_halfs ? (unsigned)u.size_halfs : 64,
					   u.buffer << 2, fault, why, why_size);
			if (st != SIM_CDM_LAUNCH)
				return st;
			break;
		case AGX_CMD_USC_CONTROL_UNIFORM_HIGH:
			if (!agx_cmd_usc_uniform_high_unpack(raw, &uh))
				goto bad;
			st = load_uniforms(cdm, job, 256 + (unsigned)uh.start_halfs,
					   uh.size_halfs ? (unsigned)uh.size_halfs : 64,
					   uh.buffer << 2, fault, why, why_size);
			if (st != SIM_CDM_LAUNCH)
				return st;
			break;
		case AGX_CMD_USC_CONTROL_SHARED:
			if (!agx_cmd_usc_shared_unpack(raw, &shared))
				goto bad;
			job->shared_size = !shared.uses_shared_memory ? 0
					   : shared.bytes_per_threadgroup
					       ? (uint32_t)shared.bytes_per_threadgroup * 256
					       : 65536;
			break;
		case AGX_CMD_USC_CONTROL_SHADER: {
			struct fetch_ctx fc = { cdm };

			if (!agx_cmd_usc_shader_unpack(raw, &sh))
				goto bad;
			job->program_va = cdm->usc_base + sh.code;
			job->program = usc_cache_get(programs, job->program_va, fetch_code, &fc);
			if (!job->program) {
				/* not even its first bytes: the fault that stopped the fetch */
				uint8_t first[2];

				if (!sim_uat_access(cdm->dev->uat, cdm->context, false,
						    job->program_va, first, 2, SIM_UAT_EXEC, fault))
					return SIM_CDM_FAULT;
				return malformed(why, why_size,
						 "shader at 0x%llx cannot be decoded",
						 (unsigned long long)job->program_va);
			}
			shader = true;
			break;
		}
		case AGX_CMD_USC_CONTROL_REGISTERS:
			if (!agx_cmd_usc_registers_unpack(raw, &regs))
				goto bad;
			break;
		case AGX_CMD_USC_CONTROL_TEXTURE:
			if (!agx_cmd_usc_texture_unpack(raw, &tex))
				goto bad;
			if (tex.start + tex.count > SIM_GPU_MAX_TEXTURES)
				return malformed(why, why_size, "texture state ts%u+%u past ts%u",
						 (unsigned)tex.start, (unsigned)tex.count,
						 SIM_GPU_MAX_TEXTURES - 1);
			if (!read_va(cdm, tex.buffer << 3, job->textures[tex.start],
				     tex.count * 24ull, fault))
				return SIM_CDM_FAULT;
			if (tex.start + tex.count > job->num_textures)
				job->num_textures = (unsigned)(tex.start + tex.count);
			break;
		case AGX_CMD_USC_CONTROL_SAMPLER: {
			/* extended sampler states carry a 16-byte custom border each */
			unsigned stride = extended_samplers ? 24 : 8;

			if (!agx_cmd_usc_sampler_unpack(raw, &samp))
				goto bad;
			if (samp.start + samp.count > SIM_GPU_MAX_SAMPLERS)
				return malformed(why, why_size, "sampler state ss%u+%u past ss%u",
						 (unsigned)samp.start, (unsigned)samp.count,
						 SIM_GPU_MAX_SAMPLERS - 1);
			for (unsigned i = 0; i < samp.count; i++)
				if (!read_va(cdm, (samp.buffer << 3) + i * stride,
					     job->samplers[samp.start + i], stride, fault))
					return SIM_CDM_FAULT;
			if (samp.start + samp.count > job->num_samplers)
				job->num_samplers = (unsigned)(samp.start + samp.count);
			break;
		}
		case AGX_CMD_USC_CONTROL_PRESHADER: {
			struct fetch_ctx fc = { cdm };

			if (!agx_cmd_usc_preshader_unpack(raw, &pre))
				goto bad;
			if (!shader)
				return malformed(why, why_size, "pipeline at 0x%llx has no shader",
						 (unsigned long long)va);
			job->preshader_va = cdm->usc_base + pre.code;
			job->preshader =
			    usc_cache_get(programs, job->preshader_va, fetch_code, &fc);
			if (!job->preshader) {
				uint8_t first[2];

				if (!sim_uat_access(cdm->dev->uat, cdm->context, false,
						    job->preshader_va, first, 2, SIM_UAT_EXEC,
						    fault))
					return SIM_CDM_FAULT;
				return malformed(why, why_size,
						 "preshader at 0x%llx cannot be decoded",
						 (unsigned long long)job->preshader_va);
			}
			return SIM_CDM_LAUNCH;
		}
		case AGX_CMD_USC_CONTROL_NO_PRESHADER:
			if (!agx_cmd_usc_no_preshader_unpack(raw, &end))
				goto bad;
			if (!shader)
				return malformed(why, why_size, "pipeline at 0x%llx has no shader",
						 (unsigned long long)va);
			return SIM_CDM_LAUNCH;
		}
		va += length;
		continue;
	bad:
		return malformed(why, why_size,
				 "USC state word 0x%02x at 0x%llx has reserved bits set", raw[0],
				 (unsigned long long)va);
	}
	return malformed(why, why_size, "pipeline has more than %u words", MAX_USC_WORDS);
}

/* The sizes of a launch: direct from the stream, or from an indirect buffer. */
static enum sim_cdm_status read_sizes(struct sim_cdm *cdm, enum agx_cmd_cdm_mode mode,
				      struct sim_gpu_job *job, struct sim_uat_fault *fault,
				      char *why, size_t why_size)
{
	uint8_t raw[AGX_CMD_CDM_GLOBAL_SIZE_LENGTH];
	struct agx_cmd_cdm_global_size global = { 0 };
	struct agx_cmd_cdm_local_size local = { 0 };
	struct agx_cmd_cdm_indirect ind;
	uint32_t sizes[6];
	uint64_t threads;

	why[0] = '\0';
	if (mode == AGX_CMD_CDM_MODE_DIRECT) {
		if (!take(cdm, raw, sizeof(raw), fault, why, why_size))
			return failed(why);
		agx_cmd_cdm_global_size_unpack(raw, &global);
		sizes[0] = (uint32_t)global.x;
		sizes[1] = (uint32_t)global.y;
		sizes[2] = (uint32_t)global.z;
	} else {
		if (!take(cdm, raw, AGX_CMD_CDM_INDIRECT_LENGTH, fault, why, why_size))
			return failed(why);
		if (!agx_cmd_cdm_indirect_unpack(raw, &ind))
			return malformed(why, why_size, "CDM indirect word has reserved bits set");
		if (!read_va(cdm, ind.address_hi << 32 | ind.address_lo << 2, sizes,
			     mode == AGX_CMD_CDM_MODE_INDIRECT_LOCAL ? 24 : 12, fault))
			return SIM_CDM_FAULT;
	}
	if (mode != AGX_CMD_CDM_MODE_INDIRECT_LOCAL) {
		if (!take(cdm, raw, AGX_CMD_CDM_LOCAL_SIZE_LENGTH, fault, why, why_size))
			return failed(why);
		agx_cmd_cdm_local_size_unpack(raw, &local);
		sizes[3] = (uint32_t)local.x;
		sizes[4] = (uint32_t)local.y;
		sizes[5] = (uint32_t)local.z;
	}
	threads = (uint64_t)sizes[3] * sizes[4] * sizes[5];
	if (threads < 1 || threads > SIM_GPU_MAX_THREADS)
		return malformed(why, why_size, "threadgroup of %llu threads (1..%u)",
				 (unsigned long long)threads, SIM_GPU_MAX_THREADS);
	for (unsigned d = 0; d < 3; d++) {
		job->global[d] = sizes[d];
		job->group[d] = sizes[3 + d];
		job->grid[d] = (uint32_t)(((uint64_t)sizes[d] + sizes[3 + d] - 1) / sizes[3 + d]);
	}
	return SIM_CDM_LAUNCH;
}

static enum sim_cdm_status launch(struct sim_cdm *cdm, const uint8_t word0[4],
				  struct usc_cache *programs, struct sim_gpu_job *job,
				  struct sim_uat_fault *fault, char *why, size_t why_size)
{
	struct agx_cmd_cdm_launch_word0 w0;
	struct agx_cmd_cdm_launch_word1 w1 = { 0 };
	uint8_t raw[4];
	enum sim_cdm_status st;

	why[0] = '\0';
	if (!agx_cmd_cdm_launch_word0_unpack(word0, &w0) || w0.mode > 2)
		return malformed(why, why_size, "CDM launch at 0x%llx: reserved bits or mode",
				 (unsigned long long)cdm->at - 4);
	if (!take(cdm, raw, sizeof(raw), fault, why, why_size))
		return failed(why);
	agx_cmd_cdm_launch_word1_unpack(raw, &w1);
	st = read_sizes(cdm, (enum agx_cmd_cdm_mode)w0.mode, job, fault, why, why_size);
	if (st != SIM_CDM_LAUNCH)
		return st;
	memset(job->uniforms, 0, sizeof(job->uniforms));
	job->shared_size = 0;
	job->program = NULL;
	job->preshader = NULL;
	job->num_textures = job->num_samplers = 0;
	memset(job->samplers, 0, sizeof(job->samplers));
	return read_pipeline(cdm, cdm->usc_base + (w1.pipeline << 6), programs,
			     w0.sampler_state_register_count >= AGX_CMD_SAMPLER_STATES_EXTENDED8,
			     job, fault, why, why_size);
}

enum sim_cdm_status sim_cdm_next(struct sim_cdm *cdm, struct usc_cache *programs,
				 struct sim_gpu_job *job, struct sim_uat_fault *fault, char *why,
				 size_t why_size)
{
	while (cdm->commands++ < MAX_COMMANDS) {
		uint8_t raw[8];
		struct agx_cmd_cdm_stream_link link;
		struct agx_cmd_cdm_stream_terminate term;
		struct agx_cmd_cdm_barrier barrier;
		uint32_t word0;

		why[0] = '\0';
		if (!take(cdm, raw, 4, fault, why, why_size))
			return failed(why);
		memcpy(&word0, raw, 4);
		job->context = cdm->context;
		switch (BLOCK(word0)) {
		case AGX_CMD_CDM_BLOCK_LAUNCH:
			return launch(cdm, raw, programs, job, fault, why, why_size);
		case AGX_CMD_CDM_BLOCK_STREAM_LINK:
			if (!take(cdm, raw + 4, 4, fault, why, why_size))
				return failed(why);
			if (!agx_cmd_cdm_stream_link_unpack(raw, &link))
				return malformed(why, why_size, "CDM link has reserved bits set");
			cdm->at = link.target_hi << 32 | link.target_lo;
			cdm->linked = true;
			break;
		case AGX_CMD_CDM_BLOCK_STREAM_TERMINATE:
			if (!take(cdm, raw + 4, 4, fault, why, why_size))
				return failed(why);
			if (!agx_cmd_cdm_stream_terminate_unpack(raw, &term))
				return malformed(why, why_size,
						 "CDM terminate has reserved bits set");
			return SIM_CDM_END;
		case AGX_CMD_CDM_BLOCK_BARRIER:
			if (!agx_cmd_cdm_barrier_unpack(raw, &barrier))
				return malformed(why, why_size,
						 "CDM barrier has reserved bits set");
			/* launches run one after another here: only the shader cache matters */
			if (barrier.usc_cache_inval)
				usc_cache_invalidate(programs, 0, ~0ull);
			break;
		default:
			return malformed(why, why_size, "unknown CDM block %u at 0x%llx",
					 BLOCK(word0), (unsigned long long)cdm->at - 4);
		}
	}
	return malformed(why, why_size, "CDM stream of more than %u commands", MAX_COMMANDS);
}

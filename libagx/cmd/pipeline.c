/*
 * pipeline.c: the CDM words of a launch and the USC state words of a
 * pipeline (agx/cmd.h), shared by the compute builder and render passes.
 */
#include "agx/cmd.h"
#include "agx_cmdbuf.h"

/* A uniform word loads at most 64 halves. */
#define HALVES_PER_WORD 64

size_t agx_cdm_launch(uint8_t *out, uint32_t pipeline, unsigned uniform_halves,
		      const uint32_t global[3], const uint32_t local[3])
{
	struct agx_cmd_cdm_launch_word0 w0 = { .mode = AGX_CMD_CDM_MODE_DIRECT,
					       .uniform_register_count = uniform_halves };
	struct agx_cmd_cdm_launch_word1 w1 = { .pipeline = pipeline };
	struct agx_cmd_cdm_global_size g = { .x = global[0], .y = global[1], .z = global[2] };
	struct agx_cmd_cdm_local_size l = { .x = local[0], .y = local[1], .z = local[2] };
	size_t n = 0;

	agx_cmd_cdm_launch_word0_pack(out, &w0);
	n += AGX_CMD_CDM_LAUNCH_WORD0_LENGTH;
	agx_cmd_cdm_launch_word1_pack(out + n, &w1);
	n += AGX_CMD_CDM_LAUNCH_WORD1_LENGTH;
	agx_cmd_cdm_global_size_pack(out + n, &g);
	n += AGX_CMD_CDM_GLOBAL_SIZE_LENGTH;
	agx_cmd_cdm_local_size_pack(out + n, &l);
	return n + AGX_CMD_CDM_LOCAL_SIZE_LENGTH;
}

size_t agx_cdm_barrier(uint8_t *out, bool usc_cache_inval)
{
	struct agx_cmd_cdm_barrier b = { .usc_cache_inval = usc_cache_inval };

	agx_cmd_cdm_barrier_pack(out, &b);
	return AGX_CMD_CDM_BARRIER_LENGTH;
}

size_t agx_cdm_link(uint8_t *out, uint64_t target)
{
	struct agx_cmd_cdm_stream_link l = { .target = target };

	agx_cmd_cdm_stream_link_pack(out, &l);
	return AGX_CMD_CDM_STREAM_LINK_LENGTH;
}

size_t agx_cdm_terminate(uint8_t *out)
{
	struct agx_cmd_cdm_stream_terminate t = { 0 };

	agx_cmd_cdm_stream_terminate_pack(out, &t);
	return AGX_CMD_CDM_STREAM_TERMINATE_LENGTH;
}

size_t agx_pipeline_pack_uniforms(uint8_t *out, const struct agx_pipeline *p)
{
	size_t n = 0;

	for (unsigned start = 0; start < p->uniform_halves; start += HALVES_PER_WORD) {
		unsigned left = p->uniform_halves - start;
		unsigned count = left < HALVES_PER_WORD ? left : HALVES_PER_WORD;
		uint64_t buffer = p->uniforms + 2 * start;

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
	return n;
}

size_t agx_pipeline_pack(uint8_t *out, const struct agx_pipeline *p)
{
	size_t n = agx_pipeline_pack_uniforms(out, p);

	struct agx_cmd_usc_shared s = { .uses_shared_memory = p->shared_size != 0,
					.layout = AGX_CMD_SHARED_LAYOUT_VERTEX_COMPUTE,
					.bytes_per_threadgroup = p->shared_size };

	agx_cmd_usc_shared_pack(out + n, &s);
	n += AGX_CMD_USC_SHARED_LENGTH;
	if (p->num_textures) {
		struct agx_cmd_usc_texture t = { .count = p->num_textures, .buffer = p->textures };

		agx_cmd_usc_texture_pack(out + n, &t);
		n += AGX_CMD_USC_TEXTURE_LENGTH;
	}
	if (p->num_samplers) {
		struct agx_cmd_usc_sampler t = { .count = p->num_samplers, .buffer = p->samplers };

		agx_cmd_usc_sampler_pack(out + n, &t);
		n += AGX_CMD_USC_SAMPLER_LENGTH;
	}

	/* unk2 is 3 and unk4 1 in every stream of the public record (Mesa's cmdbuf.xml) */
	struct agx_cmd_usc_shader sh = { AGX_CMD_USC_SHADER_DEFAULTS, .code = p->code };
	struct agx_cmd_usc_registers r = { AGX_CMD_USC_REGISTERS_DEFAULTS };

	/* counted in 16-bit halves */
	if (p->num_registers)
		r.register_count = 2 * p->num_registers;
	agx_cmd_usc_shader_pack(out + n, &sh);
	n += AGX_CMD_USC_SHADER_LENGTH;
	agx_cmd_usc_registers_pack(out + n, &r);
	n += AGX_CMD_USC_REGISTERS_LENGTH;
	if (p->preshader) {
		struct agx_cmd_usc_preshader pre = { AGX_CMD_USC_PRESHADER_DEFAULTS,
						     .code = p->preshader_code };

		agx_cmd_usc_preshader_pack(out + n, &pre);
		return n + AGX_CMD_USC_PRESHADER_LENGTH;
	}

	struct agx_cmd_usc_no_preshader end = { 0 };

	agx_cmd_usc_no_preshader_pack(out + n, &end);
	return n + AGX_CMD_USC_NO_PRESHADER_LENGTH;
}

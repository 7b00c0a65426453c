/*
 * cmdbuf.c: the control-stream words of cmdbuf.h.
 */
#include "host/cmdbuf.h"
#include "agx_cmdbuf.h"

size_t sim_cmd_launch(uint8_t *out, uint32_t pipeline, const uint32_t global[3],
		      const uint32_t local[3])
{
	struct agx_cmd_cdm_launch_word0 w0 = { .mode = AGX_CMD_CDM_MODE_DIRECT };
	struct agx_cmd_cdm_launch_word1 w1 = { .pipeline = pipeline >> 6 };
	struct agx_cmd_cdm_global_size g = { .x = global[0], .y = global[1], .z = global[2] };
	struct agx_cmd_cdm_local_size l = { .x = local[0], .y = local[1], .z = local[2] };

	agx_cmd_cdm_launch_word0_pack(out, &w0);
	agx_cmd_cdm_launch_word1_pack(out + 4, &w1);
	agx_cmd_cdm_global_size_pack(out + 8, &g);
	agx_cmd_cdm_local_size_pack(out + 8 + AGX_CMD_CDM_GLOBAL_SIZE_LENGTH, &l);
	return 8 + AGX_CMD_CDM_GLOBAL_SIZE_LENGTH + AGX_CMD_CDM_LOCAL_SIZE_LENGTH;
}

size_t sim_cmd_barrier(uint8_t *out, bool usc_cache_inval)
{
	struct agx_cmd_cdm_barrier b = { .usc_cache_inval = usc_cache_inval };

	agx_cmd_cdm_barrier_pack(out, &b);
	return AGX_CMD_CDM_BARRIER_LENGTH;
}

size_t sim_cmd_link(uint8_t *out, uint64_t target)
{
	struct agx_cmd_cdm_stream_link l = { .target_hi = target >> 32,
					     .target_lo = target & 0xffffffffu };

	agx_cmd_cdm_stream_link_pack(out, &l);
	return AGX_CMD_CDM_STREAM_LINK_LENGTH;
}

size_t sim_cmd_terminate(uint8_t *out)
{
	struct agx_cmd_cdm_stream_terminate t = { 0 };

	agx_cmd_cdm_stream_terminate_pack(out, &t);
	return AGX_CMD_CDM_STREAM_TERMINATE_LENGTH;
}

size_t sim_cmd_pipeline(uint8_t *out, uint64_t uniforms, unsigned halves, uint32_t shared_bytes,
			const struct sim_cmd_bindings *bind, uint32_t code,
			const uint32_t *preshader)
{
	struct agx_cmd_usc_uniform u = { .start_halfs = 0,
					 .size_halfs = halves & 63,
					 .buffer = uniforms >> 2 };
	struct agx_cmd_usc_shared s = { .uses_shared_memory = shared_bytes != 0,
					.layout = AGX_CMD_SHARED_LAYOUT_VERTEX_COMPUTE,
					.bytes_per_threadgroup = (shared_bytes / 256) & 0xff };
	struct agx_cmd_usc_shader sh = { .unk2 = 3, .code = code };
	struct agx_cmd_usc_registers r = { .register_count = 0, .unk4 = 1 };
	struct agx_cmd_usc_no_preshader end = { 0 };
	size_t n = 0;

	if (halves) {
		agx_cmd_usc_uniform_pack(out + n, &u);
		n += AGX_CMD_USC_UNIFORM_LENGTH;
	}
	agx_cmd_usc_shared_pack(out + n, &s);
	n += AGX_CMD_USC_SHARED_LENGTH;
	if (bind && bind->num_textures) {
		struct agx_cmd_usc_texture t = { .count = bind->num_textures,
						 .buffer = bind->textures >> 3 };

		agx_cmd_usc_texture_pack(out + n, &t);
		n += AGX_CMD_USC_TEXTURE_LENGTH;
	}
	if (bind && bind->num_samplers) {
		struct agx_cmd_usc_sampler sm = { .count = bind->num_samplers,
						  .buffer = bind->samplers >> 3 };

		agx_cmd_usc_sampler_pack(out + n, &sm);
		n += AGX_CMD_USC_SAMPLER_LENGTH;
	}
	agx_cmd_usc_shader_pack(out + n, &sh);
	n += AGX_CMD_USC_SHADER_LENGTH;
	agx_cmd_usc_registers_pack(out + n, &r);
	n += AGX_CMD_USC_REGISTERS_LENGTH;
	if (preshader) {
		struct agx_cmd_usc_preshader pre = { .unk = 0xc08000, .code = *preshader };

		agx_cmd_usc_preshader_pack(out + n, &pre);
		return n + AGX_CMD_USC_PRESHADER_LENGTH;
	}
	agx_cmd_usc_no_preshader_pack(out + n, &end);
	return n + AGX_CMD_USC_NO_PRESHADER_LENGTH;
}

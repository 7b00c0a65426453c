/*
 * cmdbuf.c: the control-stream words of cmdbuf.h.
 */
#include "host/cmdbuf.h"
#include "agx_cmdbuf.h"

size_t sim_cmd_launch(uint8_t *out, uint32_t pipeline, const uint32_t global[3],
		      const uint32_t local[3])
{
	struct agx_cmd_cdm_launch_word0 w0 = { .mode = AGX_CMD_CDM_MODE_DIRECT };
	struct agx_cmd_cdm_launch_word1 w1 = { .pipeline = pipeline };
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
	struct agx_cmd_cdm_stream_link l = { .target = target };

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
					 .size_halfs = halves,
					 .buffer = uniforms };
	struct agx_cmd_usc_shared s = { .uses_shared_memory = shared_bytes != 0,
					.layout = AGX_CMD_SHARED_LAYOUT_VERTEX_COMPUTE,
					.bytes_per_threadgroup = shared_bytes };
	struct agx_cmd_usc_shader sh = { AGX_CMD_USC_SHADER_DEFAULTS, .code = code };
	struct agx_cmd_usc_registers r = { AGX_CMD_USC_REGISTERS_DEFAULTS };
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
						 .buffer = bind->textures };

		agx_cmd_usc_texture_pack(out + n, &t);
		n += AGX_CMD_USC_TEXTURE_LENGTH;
	}
	if (bind && bind->num_samplers) {
		struct agx_cmd_usc_sampler sm = { .count = bind->num_samplers,
						  .buffer = bind->samplers };

		agx_cmd_usc_sampler_pack(out + n, &sm);
		n += AGX_CMD_USC_SAMPLER_LENGTH;
	}
	agx_cmd_usc_shader_pack(out + n, &sh);
	n += AGX_CMD_USC_SHADER_LENGTH;
	agx_cmd_usc_registers_pack(out + n, &r);
	n += AGX_CMD_USC_REGISTERS_LENGTH;
	if (preshader) {
		struct agx_cmd_usc_preshader pre = { AGX_CMD_USC_PRESHADER_DEFAULTS,
						     .code = *preshader };

		agx_cmd_usc_preshader_pack(out + n, &pre);
		return n + AGX_CMD_USC_PRESHADER_LENGTH;
	}
	agx_cmd_usc_no_preshader_pack(out + n, &end);
	return n + AGX_CMD_USC_NO_PRESHADER_LENGTH;
}

/* --- graphics ------------------------------------------------------------------------ */

size_t sim_cmd_vdm_vertex(uint8_t *out, uint32_t pipeline, unsigned outputs)
{
	struct agx_cmd_vdm_state h = { .vertex_shader_word_0_present = true,
				       .vertex_shader_word_1_present = true,
				       .vertex_outputs_present = true };
	struct agx_cmd_vdm_vertex_shader_word_0 w0 = { 0 };
	struct agx_cmd_vdm_vertex_shader_word_1 w1 = { .pipeline = pipeline };
	struct agx_cmd_vdm_vertex_outputs o = { .output_count_1 = outputs,
						.output_count_2 = outputs };

	agx_cmd_vdm_state_pack(out, &h);
	agx_cmd_vdm_vertex_shader_word_0_pack(out + 4, &w0);
	agx_cmd_vdm_vertex_shader_word_1_pack(out + 8, &w1);
	agx_cmd_vdm_vertex_outputs_pack(out + 12, &o);
	return 16;
}

size_t sim_cmd_vdm_restart(uint8_t *out, uint32_t index)
{
	struct agx_cmd_vdm_state h = { .restart_index_present = true };
	struct agx_cmd_vdm_restart_index r = { .value = index };

	agx_cmd_vdm_state_pack(out, &h);
	agx_cmd_vdm_restart_index_pack(out + 4, &r);
	return 8;
}

size_t sim_cmd_vdm_ppp(uint8_t *out, uint64_t va, size_t size)
{
	struct agx_cmd_vdm_ppp_state p = { .pointer = va, .size = size };

	agx_cmd_vdm_ppp_state_pack(out, &p);
	return AGX_CMD_VDM_PPP_STATE_LENGTH;
}

size_t sim_cmd_vdm_draw(uint8_t *out, unsigned primitive, uint32_t count, uint32_t instances,
			uint32_t start, unsigned index_size, uint64_t indices, uint32_t index_bytes,
			bool restart)
{
	struct agx_cmd_vdm_index_list h = { .primitive = primitive,
					    .restart_enable = restart,
					    .index_size = index_size == 4 ? 2 : index_size == 2,
					    .index_buffer_present = index_size != 0,
					    .index_buffer_size_present = index_size != 0,
					    .index_buffer = indices,
					    .index_count_present = true,
					    .instance_count_present = true,
					    .start_present = true };
	struct agx_cmd_vdm_u32 v;
	struct agx_cmd_vdm_index_buffer_size sz = { .size = index_bytes };
	struct agx_cmd_vdm_index_buffer_lo lo = { .index_buffer = indices };
	size_t n = 4;

	agx_cmd_vdm_index_list_pack(out, &h);
	if (index_size) {
		agx_cmd_vdm_index_buffer_lo_pack(out + n, &lo);
		n += 4;
	}
	v.value = count;
	agx_cmd_vdm_u32_pack(out + n, &v);
	v.value = instances;
	agx_cmd_vdm_u32_pack(out + n + 4, &v);
	v.value = start;
	agx_cmd_vdm_u32_pack(out + n + 8, &v);
	n += 12;
	if (index_size) {
		agx_cmd_vdm_index_buffer_size_pack(out + n, &sz);
		n += 4;
	}
	return n;
}

size_t sim_cmd_vdm_terminate(uint8_t *out)
{
	struct agx_cmd_vdm_stream_terminate t = { 0 };

	agx_cmd_vdm_stream_terminate_pack(out, &t);
	return AGX_CMD_VDM_STREAM_TERMINATE_LENGTH;
}

size_t sim_cmd_ppp(uint8_t *out, const struct sim_cmd_ppp *p)
{
	struct agx_cmd_ppp_header h = { AGX_CMD_PPP_HEADER_DEFAULTS,
					.fragment_control = true,
					.fragment_front_face = true,
					.fragment_front_stencil = p->stencil,
					.fragment_back_face = true,
					.fragment_back_stencil = p->stencil,
					.depth_bias_scissor = p->scissor || p->depth_bias,
					.viewport = true,
					.output_select = true,
					.varying_counts_32 = true,
					.cull = true,
					.fragment_shader = p->fs_pipeline != 0,
					.occlusion_query = p->visibility != 0,
					.output_size = true };
	struct agx_cmd_ppp_fragment_control fc = { .unk1 = true,
						   .visibility_mode = p->visibility,
						   .scissor_enable = p->scissor,
						   .depth_bias_enable = p->depth_bias,
						   .stencil_test_enable = p->stencil };
	struct agx_cmd_ppp_fragment_face face = {
		.stencil_reference = p->stencil_ref,
		/* 4.4 fixed point, 1/16 taken off */
		.line_width = p->line_width ? (unsigned)(p->line_width * 16 + 0.5f) - 1 : 0xf,
		.disable_depth_write = !p->depth_write,
		.depth_function = p->depth_func ? p->depth_func : AGX_CMD_ZS_FUNC_ALWAYS
	};
	struct agx_cmd_ppp_fragment_stencil stencil = { .write_mask = p->stencil_write_mask,
							.read_mask = p->stencil_read_mask,
							.depth_pass = p->depth_pass,
							.depth_fail = p->depth_fail,
							.stencil_fail = p->stencil_fail,
							.compare = p->stencil_compare };
	struct agx_cmd_ppp_depth_bias_scissor dbs = { .scissor = p->scissor_index,
						      .depth_bias = p->bias_index };
	struct agx_cmd_ppp_occlusion_query query = { .index = p->query };
	struct agx_cmd_ppp_viewport_control vc = { 0 };
	struct agx_cmd_ppp_viewport vp = { p->translate[0], p->scale[0],     p->translate[1],
					   p->scale[1],	    p->translate[2], p->scale[2] };
	struct agx_cmd_ppp_output_select os = { .varyings = p->cf_count != 0,
						.point_size = p->point_size };
	struct agx_cmd_ppp_varying_counts vc32 = { .smooth = p->varying_words };
	struct agx_cmd_ppp_cull cull = { .cull_front = p->cull_front,
					 .cull_back = p->cull_back,
					 .front_face_ccw = p->front_ccw,
					 .depth_clip = true,
					 .flat_shading_vertex = p->provoking + 1 };
	struct agx_cmd_ppp_fragment_shader_word_0 f0 = { .cf_binding_count = p->cf_count };
	struct agx_cmd_ppp_fragment_shader_word_1 f1 = { .pipeline = p->fs_pipeline };
	struct agx_cmd_ppp_fragment_shader_word_2 f2 = { .cf_bindings = p->cf };
	struct agx_cmd_ppp_fragment_shader_word_3 f3 = { 0 };
	struct agx_cmd_ppp_output_size size = { .count = p->outputs };
	size_t n = 4;

	agx_cmd_ppp_header_pack(out, &h);
	agx_cmd_ppp_fragment_control_pack(out + n, &fc);
	n += 4;
	/* front face, its stencil, back face, its stencil */
	for (unsigned i = 0; i < 2; i++) {
		agx_cmd_ppp_fragment_face_pack(out + n, &face);
		n += 4;
		if (p->stencil) {
			agx_cmd_ppp_fragment_stencil_pack(out + n, &stencil);
			n += 4;
		}
	}
	if (p->scissor || p->depth_bias) {
		agx_cmd_ppp_depth_bias_scissor_pack(out + n, &dbs);
		n += 4;
	}
	agx_cmd_ppp_viewport_control_pack(out + n, &vc);
	agx_cmd_ppp_viewport_pack(out + n + 4, &vp);
	n += 4 + AGX_CMD_PPP_VIEWPORT_LENGTH;
	agx_cmd_ppp_output_select_pack(out + n, &os);
	agx_cmd_ppp_varying_counts_pack(out + n + 4, &vc32);
	n += 8;
	agx_cmd_ppp_cull_pack(out + n, &cull);
	n += 4;
	if (p->fs_pipeline) {
		agx_cmd_ppp_fragment_shader_word_0_pack(out + n, &f0);
		agx_cmd_ppp_fragment_shader_word_1_pack(out + n + 4, &f1);
		agx_cmd_ppp_fragment_shader_word_2_pack(out + n + 8, &f2);
		agx_cmd_ppp_fragment_shader_word_3_pack(out + n + 12, &f3);
		n += 16;
	}
	if (p->visibility) {
		agx_cmd_ppp_occlusion_query_pack(out + n, &query);
		n += 4;
	}
	agx_cmd_ppp_output_size_pack(out + n, &size);
	return n + 4;
}

size_t sim_cmd_cf_bindings(uint8_t *out, const struct sim_cmd_cf *b, unsigned count, unsigned slots,
			   unsigned registers)
{
	struct agx_cmd_cf_binding_header h = { .slots_32 = slots,
					       .coefficient_registers = registers };

	agx_cmd_cf_binding_header_pack(out, &h);
	for (unsigned i = 0; i < count; i++) {
		struct agx_cmd_cf_binding c = { .components = b[i].components,
						.shade_model = b[i].shade_model,
						.source = b[i].source,
						.base_slot = b[i].slot,
						.base_coefficient_register = b[i].reg };

		agx_cmd_cf_binding_pack(out + 4 + 4 * i, &c);
	}
	return 4 + 4 * (size_t)count;
}

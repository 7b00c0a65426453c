/*
 * vdm.c: the VDM words of draws, the PPP state block a draw takes and a
 * fragment shader's coefficient bindings (agx/cmd.h).
 */
#include "agx/cmd.h"
#include "agx_cmdbuf.h"

size_t agx_vdm_vertex(uint8_t *out, uint32_t pipeline, unsigned outputs)
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
	return AGX_VDM_VERTEX_LENGTH;
}

size_t agx_vdm_restart(uint8_t *out, uint32_t index)
{
	struct agx_cmd_vdm_state h = { .restart_index_present = true };
	struct agx_cmd_vdm_restart_index r = { .value = index };

	agx_cmd_vdm_state_pack(out, &h);
	agx_cmd_vdm_restart_index_pack(out + 4, &r);
	return AGX_VDM_RESTART_LENGTH;
}

size_t agx_vdm_ppp(uint8_t *out, uint64_t va, size_t size)
{
	struct agx_cmd_vdm_ppp_state p = { .pointer = va, .size = size };

	agx_cmd_vdm_ppp_state_pack(out, &p);
	return AGX_CMD_VDM_PPP_STATE_LENGTH;
}

size_t agx_vdm_draw(uint8_t *out, const struct agx_vdm_draw *d)
{
	bool indexed = d->index_size != 0;
	struct agx_cmd_vdm_index_list h = {
		.primitive = d->primitive,
		.restart_enable = d->restart,
		.index_size = d->index_size == 4   ? AGX_CMD_INDEX_SIZE_U32
			      : d->index_size == 2 ? AGX_CMD_INDEX_SIZE_U16
						   : AGX_CMD_INDEX_SIZE_U8,
		.index_buffer_present = indexed,
		.index_buffer_size_present = indexed,
		.index_buffer = indexed ? d->indices : 0,
		.index_count_present = true,
		.instance_count_present = true,
		.start_present = true,
	};
	size_t n = 4;

	agx_cmd_vdm_index_list_pack(out, &h);
	if (indexed) {
		struct agx_cmd_vdm_index_buffer_lo lo = { .index_buffer = d->indices };

		agx_cmd_vdm_index_buffer_lo_pack(out + n, &lo);
		n += 4;
	}

	/* count, instances, start, in that order */
	const uint32_t words[3] = { d->count, d->instances, d->start };

	for (unsigned i = 0; i < 3; i++) {
		struct agx_cmd_vdm_u32 v = { .value = words[i] };

		agx_cmd_vdm_u32_pack(out + n, &v);
		n += 4;
	}
	if (indexed) {
		struct agx_cmd_vdm_index_buffer_size sz = { .size = d->index_bytes };

		agx_cmd_vdm_index_buffer_size_pack(out + n, &sz);
		n += 4;
	}
	return n;
}

size_t agx_vdm_barrier(uint8_t *out, bool usc_cache_inval)
{
	struct agx_cmd_vdm_barrier b = { .usc_cache_inval = usc_cache_inval };

	agx_cmd_vdm_barrier_pack(out, &b);
	return AGX_VDM_BARRIER_LENGTH;
}

size_t agx_vdm_link(uint8_t *out, uint64_t target, bool with_return)
{
	struct agx_cmd_vdm_stream_link l = { .target = target, .with_return = with_return };

	agx_cmd_vdm_stream_link_pack(out, &l);
	return AGX_VDM_LINK_LENGTH;
}

size_t agx_vdm_terminate(uint8_t *out)
{
	struct agx_cmd_vdm_stream_terminate t = { 0 };

	agx_cmd_vdm_stream_terminate_pack(out, &t);
	return AGX_VDM_TERMINATE_LENGTH;
}

/* A face's words: the depth test and writes, the stencil reference, the line width. */
static void pack_face(uint8_t *out, const struct agx_ppp_state *p, uint8_t ref)
{
	struct agx_cmd_ppp_fragment_face face = {
		.stencil_reference = ref,
		/* 4.4 fixed point, 1/16 taken off */
		.line_width = p->line_width > 0 ? (unsigned)(p->line_width * 16 + 0.5f) - 1 : 0xf,
		.disable_depth_write = !p->depth_write,
		.depth_function = p->depth_func,
	};

	agx_cmd_ppp_fragment_face_pack(out, &face);
}

static void pack_stencil(uint8_t *out, const struct agx_ppp_stencil *s)
{
	struct agx_cmd_ppp_fragment_stencil w = { .write_mask = s->write_mask,
						  .read_mask = s->read_mask,
						  .depth_pass = s->depth_pass,
						  .depth_fail = s->depth_fail,
						  .stencil_fail = s->stencil_fail,
						  .compare = s->compare };

	agx_cmd_ppp_fragment_stencil_pack(out, &w);
}

size_t agx_ppp_pack(uint8_t *out, const struct agx_ppp_state *p)
{
	bool fs = p->fs_pipeline != 0, dbs = p->scissor || p->depth_bias;
	struct agx_cmd_ppp_header h = { AGX_CMD_PPP_HEADER_DEFAULTS,
					.fragment_control = true,
					.fragment_front_face = true,
					.fragment_front_face_2 = p->point_sprite_uv10,
					.fragment_front_stencil = p->stencil,
					.fragment_back_face = true,
					.fragment_back_stencil = p->stencil,
					.depth_bias_scissor = dbs,
					.viewport = true,
					.output_select = true,
					.varying_counts_32 = true,
					.cull = true,
					.fragment_shader = fs,
					.occlusion_query = p->visibility != 0,
					.output_size = true };
	struct agx_cmd_ppp_fragment_control fc = { .unk1 = true,
						   .visibility_mode = p->visibility,
						   .scissor_enable = p->scissor,
						   .depth_bias_enable = p->depth_bias,
						   .stencil_test_enable = p->stencil,
						   .two_sided_stencil = p->stencil };
	size_t n = 0;

	agx_cmd_ppp_header_pack(out, &h);
	n += AGX_CMD_PPP_HEADER_LENGTH;
	agx_cmd_ppp_fragment_control_pack(out + n, &fc);
	n += AGX_CMD_PPP_FRAGMENT_CONTROL_LENGTH;
	pack_face(out + n, p, p->front.ref);
	n += AGX_CMD_PPP_FRAGMENT_FACE_LENGTH;
	if (p->point_sprite_uv10) {
		/* the second face word: both depth functions must pass, so always */
		struct agx_cmd_ppp_fragment_face_2 f2 = {
			.depth_function = AGX_CMD_ZS_FUNC_ALWAYS,
			.disable_depth_write = true,
			.object_type = AGX_CMD_OBJECT_TYPE_POINT_SPRITE_UV10,
		};

		agx_cmd_ppp_fragment_face_2_pack(out + n, &f2);
		n += AGX_CMD_PPP_FRAGMENT_FACE_2_LENGTH;
	}
	if (p->stencil) {
		pack_stencil(out + n, &p->front);
		n += AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH;
	}
	pack_face(out + n, p, p->back.ref);
	n += AGX_CMD_PPP_FRAGMENT_FACE_LENGTH;
	if (p->stencil) {
		pack_stencil(out + n, &p->back);
		n += AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH;
	}
	if (dbs) {
		struct agx_cmd_ppp_depth_bias_scissor w = { .scissor = p->scissor_index,
							    .depth_bias = p->bias_index };

		agx_cmd_ppp_depth_bias_scissor_pack(out + n, &w);
		n += AGX_CMD_PPP_DEPTH_BIAS_SCISSOR_LENGTH;
	}

	struct agx_cmd_ppp_viewport_control vc = { 0 };
	struct agx_cmd_ppp_viewport vp = { .translate_x = p->translate[0],
					   .scale_x = p->scale[0],
					   .translate_y = p->translate[1],
					   .scale_y = p->scale[1],
					   .translate_z = p->translate[2],
					   .scale_z = p->scale[2] };

	agx_cmd_ppp_viewport_control_pack(out + n, &vc);
	n += AGX_CMD_PPP_VIEWPORT_CONTROL_LENGTH;
	agx_cmd_ppp_viewport_pack(out + n, &vp);
	n += AGX_CMD_PPP_VIEWPORT_LENGTH;

	struct agx_cmd_ppp_output_select os = { .clip_distances = p->clip_distances,
						.varyings = p->cf_count != 0,
						.point_size = p->point_size,
						.frag_coord_z = p->frag_coord_z };
	struct agx_cmd_ppp_varying_counts vc32 = { .smooth = p->varying_words };
	struct agx_cmd_ppp_cull cull = { .cull_front = p->cull_front,
					 .cull_back = p->cull_back,
					 .front_face_ccw = p->front_ccw,
					 .depth_clip = p->depth_clip,
					 .rasterizer_discard = p->rasterizer_discard,
					 .flat_shading_vertex =
					     AGX_CMD_PPP_VERTEX_V0 + p->provoking };

	agx_cmd_ppp_output_select_pack(out + n, &os);
	n += AGX_CMD_PPP_OUTPUT_SELECT_LENGTH;
	agx_cmd_ppp_varying_counts_pack(out + n, &vc32);
	n += AGX_CMD_PPP_VARYING_COUNTS_LENGTH;
	agx_cmd_ppp_cull_pack(out + n, &cull);
	n += AGX_CMD_PPP_CULL_LENGTH;
	if (fs) {
		struct agx_cmd_ppp_fragment_shader_word_0 f0 = {
			.cf_binding_count = p->cf_count,
			.texture_state_register_count = p->fs_textures,
		};
		struct agx_cmd_ppp_fragment_shader_word_1 f1 = { .pipeline = p->fs_pipeline };
		struct agx_cmd_ppp_fragment_shader_word_2 f2 = { .cf_bindings = p->cf };
		struct agx_cmd_ppp_fragment_shader_word_3 f3 = { 0 };

		agx_cmd_ppp_fragment_shader_word_0_pack(out + n, &f0);
		agx_cmd_ppp_fragment_shader_word_1_pack(out + n + 4, &f1);
		agx_cmd_ppp_fragment_shader_word_2_pack(out + n + 8, &f2);
		agx_cmd_ppp_fragment_shader_word_3_pack(out + n + 12, &f3);
		n += 16;
	}
	if (p->visibility) {
		struct agx_cmd_ppp_occlusion_query q = { .index = p->query };

		agx_cmd_ppp_occlusion_query_pack(out + n, &q);
		n += AGX_CMD_PPP_OCCLUSION_QUERY_LENGTH;
	}

	struct agx_cmd_ppp_output_size size = { .count = p->outputs };

	agx_cmd_ppp_output_size_pack(out + n, &size);
	return n + AGX_CMD_PPP_OUTPUT_SIZE_LENGTH;
}

size_t agx_cf_bindings(uint8_t *out, const struct agx_cf_binding *b, unsigned count, unsigned slots,
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

		agx_cmd_cf_binding_pack(out + AGX_CMD_CF_BINDING_HEADER_LENGTH + 4 * i, &c);
	}
	return AGX_CMD_CF_BINDING_HEADER_LENGTH + 4 * (size_t)count;
}

/*
 * vdm.c: the VDM words of draws, the PPP state block a draw takes and a
 * fragment shader's coefficient bindings (agx/cmd.h).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

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

/* The groups of the PPP state whose words a block carries (agx_ppp_pack_changed). */
static bool control_differs(const struct agx_ppp_state *p, const struct agx_ppp_state *q)
{
	return p->visibility != q->visibility || p->scissor != q->scissor ||
	       p->depth_bias != q->depth_bias || p->stencil != q->stencil;
}

static bool faces_differ(const struct agx_ppp_state *p, const struct agx_ppp_state *q)
{
	return p->depth_func != q->depth_func || p->depth_write != q->depth_write ||
	       memcmp(&p->line_width, &q->line_width, sizeof(p->line_width)) ||
	       p->front.ref != q->front.ref || p->back.ref != q->back.ref;
}

static bool stencil_differs(const struct agx_ppp_stencil *a, const struct agx_ppp_stencil *b)
{
	return a->write_mask != b->write_mask || a->read_mask != b->read_mask ||
	       a->depth_pass != b->depth_pass || a->depth_fail != b->depth_fail ||
	       a->stencil_fail != b->stencil_fail || a->compare != b->compare;
}

static bool output_select_differs(const struct agx_ppp_state *p, const struct agx_ppp_state *q)
{
	return p->clip_distances != q->clip_distances || (p->cf_count != 0) != (q->cf_count != 0) ||
	       p->point_size != q->point_size || p->frag_coord_z != q->frag_coord_z;
}

static bool cull_differs(const struct agx_ppp_state *p, const struct agx_ppp_state *q)
{
	return p->cull_front != q->cull_front || p->cull_back != q->cull_back ||
	       p->front_ccw != q->front_ccw || p->depth_clip != q->depth_clip ||
	       p->rasterizer_discard != q->rasterizer_discard || p->provoking != q->provoking;
}

/*
 * Whether p is q but for the fragment shader's words (a draw's new
 * uniforms make a new pipeline, and most draws change nothing else):
 * their bytes before and after the shader's fields.  Padding that
 * differs only sends the long way.
 */
#define SHADER_FROM offsetof(struct agx_ppp_state, fs_pipeline)
#define SHADER_TO   (offsetof(struct agx_ppp_state, fs_textures) + sizeof(unsigned))
_Static_assert(offsetof(struct agx_ppp_state, cf) > SHADER_FROM &&
		   offsetof(struct agx_ppp_state, cf_count) > SHADER_FROM &&
		   offsetof(struct agx_ppp_state, cf_count) < SHADER_TO,
	       "the fragment shader's fields of agx_ppp_state are side by side");

static bool only_shader_differs(const struct agx_ppp_state *p, const struct agx_ppp_state *q)
{
	const uint8_t *a = (const uint8_t *)p, *b = (const uint8_t *)q;

	return !memcmp(a, b, SHADER_FROM) &&
	       !memcmp(a + SHADER_TO, b + SHADER_TO, sizeof(*p) - SHADER_TO);
}

/*
 * The header and fragment shader words of a block that changes only those.
 * That header is always the same word: packed once (0 until then; any
 * thread may pack it, all pack the same).
 */
static _Atomic uint32_t shader_header;

size_t agx_ppp_pack_shader(uint8_t *out, uint32_t fs_pipeline, uint32_t cf, unsigned cf_count,
			   unsigned fs_textures)
{
	uint32_t word = atomic_load_explicit(&shader_header, memory_order_relaxed);
	struct agx_cmd_ppp_fragment_shader_word_0 f0 = {
		.cf_binding_count = cf_count,
		.texture_state_register_count = fs_textures,
	};
	struct agx_cmd_ppp_fragment_shader_word_1 f1 = { .pipeline = fs_pipeline };
	struct agx_cmd_ppp_fragment_shader_word_2 f2 = { .cf_bindings = cf };
	struct agx_cmd_ppp_fragment_shader_word_3 f3 = { 0 };

	if (!word) {
		struct agx_cmd_ppp_header h = { AGX_CMD_PPP_HEADER_DEFAULTS,
						.fragment_shader = true };

		agx_cmd_ppp_header_pack(out, &h);
		memcpy(&word, out, sizeof(word));
		atomic_store_explicit(&shader_header, word, memory_order_relaxed);
	}
	memcpy(out, &word, sizeof(word));
	agx_cmd_ppp_fragment_shader_word_0_pack(out + 4, &f0);
	agx_cmd_ppp_fragment_shader_word_1_pack(out + 8, &f1);
	agx_cmd_ppp_fragment_shader_word_2_pack(out + 12, &f2);
	agx_cmd_ppp_fragment_shader_word_3_pack(out + 16, &f3);
	return AGX_CMD_PPP_HEADER_LENGTH + 16;
}

size_t agx_ppp_pack_changed(uint8_t *out, const struct agx_ppp_state *p,
			    const struct agx_ppp_state *prev)
{
	const struct agx_ppp_state *q = prev;

	/* output_select's varyings bit follows cf_count being 0 */
	if (q && p->fs_pipeline && (p->cf_count != 0) == (q->cf_count != 0) &&
	    only_shader_differs(p, q)) {
		if (q->fs_pipeline == p->fs_pipeline && q->cf == p->cf &&
		    q->cf_count == p->cf_count && q->fs_textures == p->fs_textures)
			return 0;
		return agx_ppp_pack_shader(out, p->fs_pipeline, p->cf, p->cf_count, p->fs_textures);
	}

	bool fs = p->fs_pipeline != 0, dbs = p->scissor || p->depth_bias;
	bool q_dbs = q && (q->scissor || q->depth_bias);
	/*
	 * A group is sent when it differs from what the previous block left;
	 * the words that are sent only while a feature is on (stencil, the
	 * scissor and bias indices, the fragment shader, the query) also when
	 * the previous state had it off, as their words may be older.
	 */
	bool control = !q || control_differs(p, q);
	bool faces = !q || faces_differ(p, q);
	bool face_2 = p->point_sprite_uv10 && (!q || !q->point_sprite_uv10);
	bool stencil = p->stencil && (!q || !q->stencil || stencil_differs(&p->front, &q->front) ||
				      stencil_differs(&p->back, &q->back));
	bool indices = dbs && (!q_dbs || p->scissor_index != q->scissor_index ||
			       p->bias_index != q->bias_index);
	bool viewport = !q || memcmp(p->translate, q->translate, sizeof(p->translate)) ||
			memcmp(p->scale, q->scale, sizeof(p->scale));
	bool select = !q || output_select_differs(p, q);
	bool counts = !q || p->varying_words != q->varying_words;
	bool cull = !q || cull_differs(p, q);
	bool shader = fs && (!q || q->fs_pipeline != p->fs_pipeline || q->cf != p->cf ||
			     q->cf_count != p->cf_count || q->fs_textures != p->fs_textures);
	bool query = p->visibility && (!q || !q->visibility || q->query != p->query);
	bool size = !q || p->outputs != q->outputs;
	struct agx_cmd_ppp_header h = { AGX_CMD_PPP_HEADER_DEFAULTS,
					.fragment_control = control,
					.fragment_front_face = faces,
					.fragment_front_face_2 = face_2,
					.fragment_front_stencil = stencil,
					.fragment_back_face = faces,
					.fragment_back_stencil = stencil,
					.depth_bias_scissor = indices,
					.viewport = viewport,
					.output_select = select,
					.varying_counts_32 = counts,
					.cull = cull,
					.fragment_shader = shader,
					.occlusion_query = query,
					.output_size = size };
	size_t n = 0;

	if (!(control || faces || face_2 || stencil || indices || viewport || select || counts ||
	      cull || shader || query || size))
		return 0;
	agx_cmd_ppp_header_pack(out, &h);
	n += AGX_CMD_PPP_HEADER_LENGTH;
	if (control) {
		struct agx_cmd_ppp_fragment_control fc = { .unk1 = true,
							   .visibility_mode = p->visibility,
							   .scissor_enable = p->scissor,
							   .depth_bias_enable = p->depth_bias,
							   .stencil_test_enable = p->stencil,
							   .two_sided_stencil = p->stencil };

		agx_cmd_ppp_fragment_control_pack(out + n, &fc);
		n += AGX_CMD_PPP_FRAGMENT_CONTROL_LENGTH;
	}
	if (faces) {
		pack_face(out + n, p, p->front.ref);
		n += AGX_CMD_PPP_FRAGMENT_FACE_LENGTH;
	}
	if (face_2) {
		/* the second face word: both depth functions must pass, so always */
		struct agx_cmd_ppp_fragment_face_2 f2 = {
			.depth_function = AGX_CMD_ZS_FUNC_ALWAYS,
			.disable_depth_write = true,
			.object_type = AGX_CMD_OBJECT_TYPE_POINT_SPRITE_UV10,
		};

		agx_cmd_ppp_fragment_face_2_pack(out + n, &f2);
		n += AGX_CMD_PPP_FRAGMENT_FACE_2_LENGTH;
	}
	if (stencil) {
		pack_stencil(out + n, &p->front);
		n += AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH;
	}
	if (faces) {
		pack_face(out + n, p, p->back.ref);
		n += AGX_CMD_PPP_FRAGMENT_FACE_LENGTH;
	}
	if (stencil) {
		pack_stencil(out + n, &p->back);
		n += AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH;
	}
	if (indices) {
		struct agx_cmd_ppp_depth_bias_scissor w = { .scissor = p->scissor_index,
							    .depth_bias = p->bias_index };

		agx_cmd_ppp_depth_bias_scissor_pack(out + n, &w);
		n += AGX_CMD_PPP_DEPTH_BIAS_SCISSOR_LENGTH;
	}
	if (viewport) {
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
	}
	if (select) {
		struct agx_cmd_ppp_output_select os = { .clip_distances = p->clip_distances,
							.varyings = p->cf_count != 0,
							.point_size = p->point_size,
							.frag_coord_z = p->frag_coord_z };

		agx_cmd_ppp_output_select_pack(out + n, &os);
		n += AGX_CMD_PPP_OUTPUT_SELECT_LENGTH;
	}
	if (counts) {
		struct agx_cmd_ppp_varying_counts vc32 = { .smooth = p->varying_words };

		agx_cmd_ppp_varying_counts_pack(out + n, &vc32);
		n += AGX_CMD_PPP_VARYING_COUNTS_LENGTH;
	}
	if (cull) {
		struct agx_cmd_ppp_cull c = { .cull_front = p->cull_front,
					      .cull_back = p->cull_back,
					      .front_face_ccw = p->front_ccw,
					      .depth_clip = p->depth_clip,
					      .rasterizer_discard = p->rasterizer_discard,
					      .flat_shading_vertex =
						  AGX_CMD_PPP_VERTEX_V0 + p->provoking };

		agx_cmd_ppp_cull_pack(out + n, &c);
		n += AGX_CMD_PPP_CULL_LENGTH;
	}
	if (shader) {
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
	if (query) {
		struct agx_cmd_ppp_occlusion_query oq = { .index = p->query };

		agx_cmd_ppp_occlusion_query_pack(out + n, &oq);
		n += AGX_CMD_PPP_OCCLUSION_QUERY_LENGTH;
	}
	if (size) {
		struct agx_cmd_ppp_output_size os = { .count = p->outputs };

		agx_cmd_ppp_output_size_pack(out + n, &os);
		n += AGX_CMD_PPP_OUTPUT_SIZE_LENGTH;
	}
	return n;
}

size_t agx_ppp_pack(uint8_t *out, const struct agx_ppp_state *p)
{
	return agx_ppp_pack_changed(out, p, NULL);
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

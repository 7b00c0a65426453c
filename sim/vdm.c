/*
 * vdm.c: the vertex data master of vdm.h.  Like the CDM, every word is
 * bounded and checked; a word or a combination the VDM does not take is
 * refused as malformed, saying which, never guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_cmdbuf.h"
#include "device.h"
#include "vdm.h"

#define MAX_COMMANDS 65536 /* per stream */
#define BLOCK(word0) ((word0) >> 29)

void sim_vdm_init(struct sim_vdm *vdm, struct sim_device *dev, unsigned context, uint64_t encoder,
		  uint64_t encoder_end, uint64_t usc_base, const struct sim_vdm_limits *limits)
{
	struct sim_draw_state *states = vdm->states;

	memset(vdm, 0, sizeof(*vdm));
	vdm->states = states;
	vdm->limits = *limits;
	sim_stream_init(&vdm->s, dev, context, "VDM", encoder, encoder_end, usc_base);
	/* power-on PPP state: nothing culled, depth clipped, a unit viewport */
	vdm->ppp.depth_clip = true;
	vdm->ppp.scale[0] = vdm->ppp.scale[1] = vdm->ppp.scale[2] = 1.0f;
	vdm->ppp.slots = 4;
	vdm->ppp.line_width = 1;
	for (unsigned i = 0; i < 2; i++) {
		struct sim_zs_face *f = &vdm->ppp.face[i];

		f->depth_func = f->depth_func_2 = AGX_CMD_ZS_FUNC_ALWAYS;
		f->stencil = (struct agx_cmd_ppp_fragment_stencil){
			.write_mask = 0xff, .read_mask = 0xff, .compare = AGX_CMD_ZS_FUNC_ALWAYS
		};
	}
	vdm->ppp_dirty = true;
}

void sim_vdm_finish(struct sim_vdm *vdm)
{
	free(vdm->states);
	vdm->states = NULL;
	vdm->num_states = 0;
}

static enum sim_vdm_status status(enum sim_read st)
{
	return st == SIM_READ_FAULT ? SIM_VDM_FAULT : SIM_VDM_MALFORMED;
}

/* --- PPP state ------------------------------------------------------------------------ */

/* The PPP block being read: bounded by its size in words. */
struct ppp_block {
	struct sim_stream *s;
	uint64_t at, end;
};

static enum sim_read ppp_take(struct ppp_block *b, void *buf, unsigned size)
{
	if (b->at + size > b->end)
		return sim_stream_malformed(b->s, "PPP state block shorter than its header says");
	if (!sim_stream_read(b->s, b->at, buf, size))
		return SIM_READ_FAULT;
	b->at += size;
	return SIM_READ_OK;
}

/* A word the header says is present, read and unpacked (reserved bits refused). */
#define PPP_WORD(b, name, out)                                                                     \
	do {                                                                                       \
		uint8_t raw_[AGX_CMD_##name##_LENGTH];                                             \
		enum sim_read st_ = ppp_take(b, raw_, sizeof(raw_));                               \
		if (st_)                                                                           \
			return st_;                                                                \
		if (!agx_cmd_##out##_unpack(raw_, &(w.out)))                                       \
			return sim_stream_malformed((b)->s, "PPP %s has reserved bits set", #out); \
	} while (0)

/* Parts of the PPP state agx-sim does not model, refused while they ask for anything. */
static enum sim_read unsupported(struct sim_stream *s, const char *what)
{
	return sim_stream_malformed(s, "PPP %s is not simulated yet", what);
}

static enum sim_read ppp_scissor(struct sim_vdm *vdm, unsigned index)
{
	struct sim_draw_state *d = &vdm->ppp;
	struct agx_cmd_scissor sc;
	uint8_t raw[AGX_CMD_SCISSOR_LENGTH];

	/* only scissoring needs one */
	d->scissor_entry = index < vdm->limits.scissor_count;
	if (!d->scissor_entry)
		return SIM_READ_OK;
	if (!sim_stream_read(&vdm->s, vdm->limits.scissor_array + index * 16ull, raw, sizeof(raw)))
		return SIM_READ_FAULT;
	if (!agx_cmd_scissor_unpack(raw, &sc))
		return sim_stream_malformed(&vdm->s, "scissor has reserved bits set");
	d->scissor_min[0] = (uint32_t)sc.min_x;
	d->scissor_min[1] = (uint32_t)sc.min_y;
	d->scissor_max[0] = (uint32_t)sc.max_x;
	d->scissor_max[1] = (uint32_t)sc.max_y;
	return SIM_READ_OK;
}

/* The depth-bias entry the depth bias/scissor word names. */
static enum sim_read ppp_depth_bias(struct sim_vdm *vdm, unsigned index)
{
	struct agx_cmd_depth_bias db = { 0 };
	uint8_t raw[AGX_CMD_DEPTH_BIAS_LENGTH];

	/* only an enabled depth bias needs one */
	vdm->ppp.bias_entry = index < vdm->limits.depth_bias_count;
	if (!vdm->ppp.bias_entry)
		return SIM_READ_OK;
	if (!sim_stream_read(&vdm->s, vdm->limits.depth_bias_array + index * 12ull, raw,
			     sizeof(raw)))
		return SIM_READ_FAULT;
	agx_cmd_depth_bias_unpack(raw, &db);
	vdm->ppp.bias[0] = db.depth_bias;
	vdm->ppp.bias[1] = db.slope_scale;
	vdm->ppp.bias[2] = db.clamp;
	return SIM_READ_OK;
}

static enum sim_read ppp_update(struct sim_vdm *vdm, uint64_t va, unsigned bytes)
{
	struct ppp_block b = { &vdm->s, va, va + bytes };
	struct sim_draw_state *d = &vdm->ppp;
	struct agx_cmd_ppp_header h;
	uint8_t raw[4];
	union {
		struct agx_cmd_ppp_fragment_control ppp_fragment_control;
		struct agx_cmd_ppp_fragment_face ppp_fragment_face;
		struct agx_cmd_ppp_fragment_face_2 ppp_fragment_face_2;
		struct agx_cmd_ppp_fragment_stencil ppp_fragment_stencil;
		struct agx_cmd_ppp_depth_bias_scissor ppp_depth_bias_scissor;
		struct agx_cmd_ppp_region_clip ppp_region_clip;
		struct agx_cmd_ppp_viewport_control ppp_viewport_control;
		struct agx_cmd_ppp_viewport ppp_viewport;
		struct agx_cmd_ppp_w_clamp ppp_w_clamp;
		struct agx_cmd_ppp_output_select ppp_output_select;
		struct agx_cmd_ppp_varying_counts ppp_varying_counts;
		struct agx_cmd_ppp_cull ppp_cull;
		struct agx_cmd_ppp_cull_2 ppp_cull_2;
		struct agx_cmd_ppp_occlusion_query ppp_occlusion_query;
		struct agx_cmd_ppp_occlusion_query_2 ppp_occlusion_query_2;
		struct agx_cmd_ppp_output_unknown ppp_output_unknown;
		struct agx_cmd_ppp_output_size ppp_output_size;
		struct agx_cmd_ppp_varying_word_2 ppp_varying_word_2;
		struct agx_cmd_ppp_fragment_shader_word_3 ppp_fragment_shader_word_3;
	} w;
	enum sim_read st;

	if ((st = ppp_take(&b, raw, 4)))
		return st;
	if (!agx_cmd_ppp_header_unpack(raw, &h))
		return sim_stream_malformed(&vdm->s, "PPP header has reserved bits set");
	vdm->ppp_dirty = true;
	if (h.fragment_control) {
		PPP_WORD(&b, PPP_FRAGMENT_CONTROL, ppp_fragment_control);
		if (w.ppp_fragment_control.visibility_mode &&
		    w.ppp_fragment_control.visibility_mode != AGX_CMD_VISIBILITY_MODE_COUNTING &&
		    w.ppp_fragment_control.visibility_mode != AGX_CMD_VISIBILITY_MODE_BOOLEAN)
			return sim_stream_malformed(
			    &vdm->s, "PPP visibility mode %u",
			    (unsigned)w.ppp_fragment_control.visibility_mode);
		d->visibility = (unsigned)w.ppp_fragment_control.visibility_mode;
		d->depth_bias = w.ppp_fragment_control.depth_bias_enable;
		d->scissor = w.ppp_fragment_control.scissor_enable;
		d->stencil_test = w.ppp_fragment_control.stencil_test_enable;
		d->two_sided = w.ppp_fragment_control.two_sided_stencil;
	}
	if (h.fragment_control_2)
		PPP_WORD(&b, PPP_FRAGMENT_CONTROL, ppp_fragment_control);
	/* the front face's words, then the back's */
	for (unsigned i = 0; i < 2; i++) {
		struct sim_zs_face *face = &d->face[i];

		if (i ? h.fragment_back_face : h.fragment_front_face) {
			PPP_WORD(&b, PPP_FRAGMENT_FACE, ppp_fragment_face);
			if (w.ppp_fragment_face.polygon_mode)
				return unsupported(&vdm->s, "polygon modes");
			face->depth_func = (unsigned)w.ppp_fragment_face.depth_function;
			face->depth_write = !w.ppp_fragment_face.disable_depth_write;
			face->reference = (uint8_t)w.ppp_fragment_face.stencil_reference;
			/* 4.4 fixed point with 1/16 taken off (Mesa cmdbuf.xml) */
			if (!i)
				d->line_width = (float)(w.ppp_fragment_face.line_width + 1) / 16;
		}
		if (i ? h.fragment_back_face_2 : h.fragment_front_face_2) {
			PPP_WORD(&b, PPP_FRAGMENT_FACE_2, ppp_fragment_face_2);
			if (!agx_cmd_object_type_name(w.ppp_fragment_face_2.object_type))
				return unsupported(&vdm->s, "an unknown object type");
			face->depth_func_2 = (unsigned)w.ppp_fragment_face_2.depth_function;
			if (!i)
				d->point_origin_lower = w.ppp_fragment_face_2.object_type ==
							AGX_CMD_OBJECT_TYPE_POINT_SPRITE_UV10;
			face->depth_write_2 = !w.ppp_fragment_face_2.disable_depth_write;
		}
		if (i ? h.fragment_back_stencil : h.fragment_front_stencil) {
			PPP_WORD(&b, PPP_FRAGMENT_STENCIL, ppp_fragment_stencil);
			face->stencil = w.ppp_fragment_stencil;
		}
	}
	if (h.depth_bias_scissor) {
		PPP_WORD(&b, PPP_DEPTH_BIAS_SCISSOR, ppp_depth_bias_scissor);
		if ((st = ppp_scissor(vdm, (unsigned)w.ppp_depth_bias_scissor.scissor)) ||
		    (st = ppp_depth_bias(vdm, (unsigned)w.ppp_depth_bias_scissor.depth_bias)))
			return st;
	}
	if (h.region_clip)
		for (unsigned i = 0; i < h.viewport_count; i++) {
			PPP_WORD(&b, PPP_REGION_CLIP, ppp_region_clip);
			if (w.ppp_region_clip.enable)
				return unsupported(&vdm->s, "region clipping");
		}
	if (h.viewport) {
		if (h.viewport_count > 1)
			return unsupported(&vdm->s, "more than one viewport");
		PPP_WORD(&b, PPP_VIEWPORT_CONTROL, ppp_viewport_control);
		PPP_WORD(&b, PPP_VIEWPORT, ppp_viewport);
		d->translate[0] = w.ppp_viewport.translate_x;
		d->scale[0] = w.ppp_viewport.scale_x;
		d->translate[1] = w.ppp_viewport.translate_y;
		d->scale[1] = w.ppp_viewport.scale_y;
		d->translate[2] = w.ppp_viewport.translate_z;
		d->scale[2] = w.ppp_viewport.scale_z;
	}
	if (h.w_clamp)
		PPP_WORD(&b, PPP_W_CLAMP, ppp_w_clamp);
	if (h.output_select) {
		PPP_WORD(&b, PPP_OUTPUT_SELECT, ppp_output_select);
		if (w.ppp_output_select.viewport_target || w.ppp_output_select.render_target ||
		    w.ppp_output_select.barycentric_coordinates)
			return unsupported(&vdm->s, "layers or barycentrics");
		if (w.ppp_output_select.clip_distances >> SIM_VDM_MAX_CLIP_DISTANCES)
			return unsupported(&vdm->s, "clip distances past plane 7");
		d->clip_distances = (unsigned)w.ppp_output_select.clip_distances;
		d->frag_z = w.ppp_output_select.frag_coord_z;
		/* the size follows the position and the varyings (Mesa agx_uvs.h) */
		d->point_size_slot = w.ppp_output_select.point_size ? 4 + d->varying_words : 0;
	}
	if (h.varying_counts_32) {
		PPP_WORD(&b, PPP_VARYING_COUNTS, ppp_varying_counts);
		d->varying_words =
		    (unsigned)(w.ppp_varying_counts.smooth + w.ppp_varying_counts.flat +
			       w.ppp_varying_counts.linear);
		if (d->point_size_slot)
			d->point_size_slot = 4 + d->varying_words;
	}
	if (h.varying_counts_16) {
		PPP_WORD(&b, PPP_VARYING_COUNTS, ppp_varying_counts);
		if (w.ppp_varying_counts.smooth || w.ppp_varying_counts.flat ||
		    w.ppp_varying_counts.linear)
			return unsupported(&vdm->s, "16-bit varyings");
	}
	if (h.cull) {
		PPP_WORD(&b, PPP_CULL, ppp_cull);
		if (w.ppp_cull.depth_clamp || w.ppp_cull.primitive_msaa)
			return unsupported(&vdm->s, "depth clamping or primitive MSAA");
		d->cull_front = w.ppp_cull.cull_front;
		d->cull_back = w.ppp_cull.cull_back;
		d->front_ccw = w.ppp_cull.front_face_ccw;
		d->depth_clip = w.ppp_cull.depth_clip;
		d->discard = w.ppp_cull.rasterizer_discard;
		/* the field is the vertex + 1; 0 (never set) counts as the first */
		d->provoking = w.ppp_cull.flat_shading_vertex
				   ? (unsigned)w.ppp_cull.flat_shading_vertex - 1
				   : 0;
	}
	if (h.cull_2)
		PPP_WORD(&b, PPP_CULL_2, ppp_cull_2);
	if (h.fragment_shader) {
		uint8_t fs[16];

		if ((st = ppp_take(&b, fs, 16)))
			return st;
		if (!agx_cmd_ppp_fragment_shader_word_0_unpack(fs, &vdm->fs0) ||
		    !agx_cmd_ppp_fragment_shader_word_1_unpack(fs + 4, &vdm->fs1) ||
		    !agx_cmd_ppp_fragment_shader_word_2_unpack(fs + 8, &vdm->fs2) ||
		    !agx_cmd_ppp_fragment_shader_word_3_unpack(fs + 12,
							       &w.ppp_fragment_shader_word_3))
			return sim_stream_malformed(&vdm->s,
						    "PPP fragment shader has reserved bits set");
		d->has_fs = true;
	}
	if (h.occlusion_query) {
		PPP_WORD(&b, PPP_OCCLUSION_QUERY, ppp_occlusion_query);
		d->query = (unsigned)w.ppp_occlusion_query.index;
	}
	if (h.occlusion_query_2)
		PPP_WORD(&b, PPP_OCCLUSION_QUERY_2, ppp_occlusion_query_2);
	if (h.output_unknown)
		PPP_WORD(&b, PPP_OUTPUT_UNKNOWN, ppp_output_unknown);
	if (h.output_size) {
		PPP_WORD(&b, PPP_OUTPUT_SIZE, ppp_output_size);
		if (w.ppp_output_size.count < 4 || w.ppp_output_size.count > 255)
			return sim_stream_malformed(&vdm->s, "PPP output size %u (4..255)",
						    (unsigned)w.ppp_output_size.count);
		d->slots = (unsigned)w.ppp_output_size.count;
	}
	if (h.varying_word_2)
		PPP_WORD(&b, PPP_VARYING_WORD_2, ppp_varying_word_2);
	if (b.at != b.end)
		return sim_stream_malformed(&vdm->s, "PPP state block longer than its header says");
	return SIM_READ_OK;
}

/* The fragment shader's pipeline and coefficient bindings, into a new state. */
static enum sim_read snapshot(struct sim_vdm *vdm)
{
	struct sim_stream *s = &vdm->s;
	struct sim_draw_state *d;
	enum sim_read st;

	if (vdm->num_states == SIM_VDM_MAX_STATES)
		return sim_stream_malformed(s, "more than %u fragment states in one render",
					    SIM_VDM_MAX_STATES);
	if (!(vdm->num_states & (vdm->num_states - 1))) { /* grows at powers of two */
		unsigned n = vdm->num_states ? vdm->num_states * 2 : 4;
		struct sim_draw_state *more = realloc(vdm->states, n * sizeof(*more));

		if (!more)
			return sim_stream_malformed(s, "out of memory for fragment states");
		vdm->states = more;
	}
	d = &vdm->states[vdm->num_states];
	*d = vdm->ppp;
	memset(&d->fs, 0, sizeof(d->fs));
	d->num_cf = d->num_cf_regs = 0;
	if (d->has_fs) {
		uint8_t raw[4];
		struct agx_cmd_cf_binding_header hdr;
		uint64_t at = s->usc_base + vdm->fs2.cf_bindings;

		st = sim_pipeline_read(s, vdm->fs1.pipeline,
				       vdm->fs0.sampler_state_register_count >=
					   AGX_CMD_SAMPLER_STATES_EXTENDED8,
				       &d->fs);
		if (st)
			return st;
		if (d->fs.preshader)
			return sim_stream_malformed(s, "fragment preshaders are not simulated yet");
		d->num_cf = (unsigned)vdm->fs0.cf_binding_count;
		if (d->num_cf > SIM_VDM_MAX_CF)
			return sim_stream_malformed(s, "%u coefficient bindings (at most %u)",
						    d->num_cf, SIM_VDM_MAX_CF);
		if (d->num_cf) {
			if (!sim_stream_read(s, at, raw, 4))
				return SIM_READ_FAULT;
			if (!agx_cmd_cf_binding_header_unpack(raw, &hdr))
				return sim_stream_malformed(
				    s, "CF binding header has reserved bits set");
			d->num_cf_regs = (unsigned)hdr.coefficient_registers;
		}
		for (unsigned i = 0; i < d->num_cf; i++) {
			struct agx_cmd_cf_binding *c = &d->cf[i];

			if (!sim_stream_read(s, at + 4 + i * 4ull, raw, 4))
				return SIM_READ_FAULT;
			if (!agx_cmd_cf_binding_unpack(raw, c) ||
			    !agx_cmd_shade_model_name(c->shade_model))
				return sim_stream_malformed(s, "CF binding %u is malformed", i);
			if (c->source != AGX_CMD_CF_SOURCE_VARYING &&
			    c->source != AGX_CMD_CF_SOURCE_FRAGCOORD_Z &&
			    c->source != AGX_CMD_CF_SOURCE_POINT_COORD)
				return sim_stream_malformed(s,
							    "CF binding %u: source %s is not "
							    "simulated yet",
							    i,
							    agx_cmd_cf_source_name(c->source)
								? agx_cmd_cf_source_name(c->source)
								: "unknown");
			if (c->base_coefficient_register + c->components > d->num_cf_regs)
				return sim_stream_malformed(s,
							    "CF binding %u past the %u coefficient "
							    "registers",
							    i, d->num_cf_regs);
		}
	}
	if (d->depth_bias && !d->bias_entry)
		return sim_stream_malformed(s, "depth bias without a depth bias entry");
	if (d->scissor && !d->scissor_entry)
		return sim_stream_malformed(s, "scissoring without a scissor entry");
	if (d->visibility && d->query >= vdm->limits.visibility_count)
		return sim_stream_malformed(s, "occlusion query %u of %u", d->query,
					    vdm->limits.visibility_count);
	vdm->num_states++;
	vdm->ppp_dirty = false;
	return SIM_READ_OK;
}

/* --- VDM words ------------------------------------------------------------------------ */

static enum sim_read vdm_state(struct sim_vdm *vdm, const uint8_t word0[4])
{
	struct sim_stream *s = &vdm->s;
	struct agx_cmd_vdm_state h;
	struct agx_cmd_vdm_vertex_shader_word_0 w0 = { 0 };
	struct agx_cmd_vdm_vertex_shader_word_1 w1;
	struct agx_cmd_vdm_vertex_outputs out;
	struct agx_cmd_vdm_vertex_unknown unk;
	struct agx_cmd_vdm_restart_index ri = { 0 };
	uint8_t raw[4];
	unsigned length = 4;
	enum sim_read st;

	if (!agx_cmd_vdm_state_unpack(word0, &h))
		return sim_stream_malformed(s, "VDM state has reserved bits set");
	if (h.tessellation_present || h.tessellation_scale_present)
		return sim_stream_malformed(s, "tessellation is not simulated");
	if (h.restart_index_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		agx_cmd_vdm_restart_index_unpack(raw, &ri);
		vdm->restart_index = (uint32_t)ri.value;
		length += 4;
	}
	if (h.vertex_shader_word_0_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		if (!agx_cmd_vdm_vertex_shader_word_0_unpack(raw, &w0))
			return sim_stream_malformed(s,
						    "vertex shader word 0 has reserved bits set");
		length += 4;
	}
	if (h.vertex_shader_word_1_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		if (!agx_cmd_vdm_vertex_shader_word_1_unpack(raw, &w1))
			return sim_stream_malformed(s,
						    "vertex shader word 1 has reserved bits set");
		length += 4;
		st = sim_pipeline_read(
		    s, w1.pipeline,
		    w0.sampler_state_register_count >= AGX_CMD_SAMPLER_STATES_EXTENDED8, &vdm->vs);
		if (st)
			return st;
		if (vdm->vs.preshader)
			return sim_stream_malformed(s, "vertex preshaders are not simulated yet");
		vdm->have_vs = true;
	}
	if (h.vertex_outputs_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		if (!agx_cmd_vdm_vertex_outputs_unpack(raw, &out))
			return sim_stream_malformed(s, "vertex outputs have reserved bits set");
		vdm->vs_slots = (unsigned)out.output_count_1;
		length += 4;
	}
	if (h.vertex_unknown_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		if (!agx_cmd_vdm_vertex_unknown_unpack(raw, &unk))
			return sim_stream_malformed(s, "VDM vertex word has reserved bits set");
		if (unk.generate_primitive_id)
			return sim_stream_malformed(s, "primitive IDs are not simulated yet");
		length += 4;
	}
	/* the block is padded to 8 bytes (Mesa decode.c) */
	if (length % 8 && (st = sim_stream_take(s, raw, 4)))
		return st;
	return SIM_READ_OK;
}

static enum sim_read index_list(struct sim_vdm *vdm, const uint8_t word0[4],
				struct sim_vdm_draw *draw)
{
	struct sim_stream *s = &vdm->s;
	struct agx_cmd_vdm_index_list h;
	struct agx_cmd_vdm_u32 v = { 0 };
	struct agx_cmd_vdm_index_buffer_lo lo = { 0 };
	struct agx_cmd_vdm_index_buffer_size size = { 0 };
	uint8_t raw[4];
	enum sim_read st;

	if (!agx_cmd_vdm_index_list_unpack(word0, &h))
		return sim_stream_malformed(s, "index list has reserved bits set");
	if (h.unk1_present || h.unk2_present || h.indirect_buffer_present)
		return sim_stream_malformed(s, "indirect draws are not simulated yet");
	if (!h.index_count_present || !h.instance_count_present)
		return sim_stream_malformed(s, "index list without a count or instances");
	*draw = (struct sim_vdm_draw){ .primitive = h.primitive,
				       .restart = h.restart_enable,
				       .restart_index = vdm->restart_index,
				       .instances = 1 };
	if (h.index_buffer_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		agx_cmd_vdm_index_buffer_lo_unpack(raw, &lo);
		draw->index_buffer = h.index_buffer | lo.index_buffer;
		if (h.index_size > AGX_CMD_INDEX_SIZE_U32)
			return sim_stream_malformed(s, "index size %u", (unsigned)h.index_size);
		draw->index_size = 1u << h.index_size;
	}
	if ((st = sim_stream_take(s, raw, 4)))
		return st;
	agx_cmd_vdm_u32_unpack(raw, &v);
	draw->count = (uint32_t)v.value;
	if ((st = sim_stream_take(s, raw, 4)))
		return st;
	agx_cmd_vdm_u32_unpack(raw, &v);
	draw->instances = (uint32_t)v.value;
	if (h.start_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		agx_cmd_vdm_u32_unpack(raw, &v);
		draw->start = (uint32_t)v.value;
	}
	if (h.index_buffer_size_present) {
		if ((st = sim_stream_take(s, raw, 4)))
			return st;
		agx_cmd_vdm_index_buffer_size_unpack(raw, &size);
		draw->index_buffer_size = size.size;
	}
	if (draw->index_size && !h.index_buffer_size_present)
		return sim_stream_malformed(s, "indexed draw without its buffer's size");
	if (!draw->index_size && h.index_buffer_size_present)
		return sim_stream_malformed(s, "index buffer size without a buffer");
	if (draw->index_size && (uint64_t)draw->count * draw->index_size > draw->index_buffer_size)
		return sim_stream_malformed(s, "%u indices past the %llu-byte index buffer",
					    draw->count,
					    (unsigned long long)draw->index_buffer_size);
	if (h.primitive == AGX_CMD_PRIMITIVE_QUADS || h.primitive == AGX_CMD_PRIMITIVE_QUAD_STRIP ||
	    !agx_cmd_primitive_name(h.primitive))
		return sim_stream_malformed(s, "primitive %s is not simulated yet",
					    agx_cmd_primitive_name(h.primitive)
						? agx_cmd_primitive_name(h.primitive)
						: "unknown");
	if (!vdm->have_vs)
		return sim_stream_malformed(s, "draw without a vertex shader");
	if (vdm->vs_slots < 4 || vdm->vs_slots != vdm->ppp.slots)
		return sim_stream_malformed(s,
					    "vertex outputs (%u words) and PPP output size "
					    "(%u) disagree",
					    vdm->vs_slots, vdm->ppp.slots);
	if (vdm->ppp_dirty && (st = snapshot(vdm)))
		return st;
	draw->vs = &vdm->vs;
	draw->vs_slots = vdm->vs_slots;
	draw->state = vdm->num_states - 1;
	return SIM_READ_OK;
}

enum sim_vdm_status sim_vdm_next(struct sim_vdm *vdm, struct usc_cache *programs,
				 struct sim_vdm_draw *draw, struct sim_uat_fault *fault, char *why,
				 size_t why_size)
{
	struct sim_stream *s = &vdm->s;

	sim_stream_begin(s, programs, fault, why, why_size);
	while (s->commands++ < MAX_COMMANDS) {
		uint8_t raw[8];
		struct agx_cmd_vdm_ppp_state ppp;
		struct agx_cmd_vdm_barrier barrier;
		struct agx_cmd_vdm_stream_link link;
		struct agx_cmd_vdm_stream_terminate term;
		uint32_t word0;
		uint64_t at = s->at;
		enum sim_read st = sim_stream_take(s, raw, 4);

		if (st)
			return status(st);
		memcpy(&word0, raw, 4);
		switch (BLOCK(word0)) {
		case AGX_CMD_VDM_BLOCK_PPP_STATE_UPDATE:
			if ((st = sim_stream_take(s, raw + 4, 4)))
				return status(st);
			if (!agx_cmd_vdm_ppp_state_unpack(raw, &ppp))
				return status(sim_stream_malformed(
				    s, "PPP state word has reserved bits set"));
			if ((st = ppp_update(vdm, ppp.pointer, (unsigned)ppp.size)))
				return status(st);
			break;
		case AGX_CMD_VDM_BLOCK_BARRIER:
			if (!agx_cmd_vdm_barrier_unpack(raw, &barrier))
				return status(
				    sim_stream_malformed(s, "VDM barrier has reserved bits set"));
			if (barrier.usc_cache_inval)
				usc_cache_invalidate(programs, 0, ~0ull);
			if (barrier.returns) {
				if (!vdm->return_to)
					return status(sim_stream_malformed(
					    s, "VDM return at 0x%llx without a call",
					    (unsigned long long)at));
				sim_stream_jump(s, vdm->return_to);
				vdm->return_to = 0;
			}
			break;
		case AGX_CMD_VDM_BLOCK_VDM_STATE_UPDATE:
			if ((st = vdm_state(vdm, raw)))
				return status(st);
			break;
		case AGX_CMD_VDM_BLOCK_INDEX_LIST:
			if ((st = index_list(vdm, raw, draw)))
				return status(st);
			return SIM_VDM_DRAW;
		case AGX_CMD_VDM_BLOCK_STREAM_LINK:
			if ((st = sim_stream_take(s, raw + 4, 4)))
				return status(st);
			if (!agx_cmd_vdm_stream_link_unpack(raw, &link))
				return status(
				    sim_stream_malformed(s, "VDM link has reserved bits set"));
			if (link.with_return) {
				if (vdm->return_to)
					return status(
					    sim_stream_malformed(s, "VDM call inside a call"));
				vdm->return_to = s->at;
			}
			sim_stream_jump(s, link.target);
			break;
		case AGX_CMD_VDM_BLOCK_STREAM_TERMINATE:
			if ((st = sim_stream_take(s, raw + 4, 4)))
				return status(st);
			if (!agx_cmd_vdm_stream_terminate_unpack(raw, &term))
				return status(
				    sim_stream_malformed(s, "VDM terminate has reserved bits set"));
			return SIM_VDM_END;
		default:
			return status(
			    sim_stream_malformed(s, "%s VDM block %u at 0x%llx",
						 BLOCK(word0) == 5 ? "tessellation" : "unknown",
						 BLOCK(word0), (unsigned long long)at));
		}
	}
	return status(sim_stream_malformed(s, "VDM stream of more than %u commands", MAX_COMMANDS));
}

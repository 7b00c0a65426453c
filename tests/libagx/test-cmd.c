/*
 * test-cmd: agx/cmd.h's words.  Each writer's words unpacked field by
 * field; every texture and PBE descriptor of every format and layout kind
 * read back by the simulated texture unit (sim/usc/texture.c), which must
 * see the same image the driver described; refusals of what the hardware
 * cannot take.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/cmd.h"
#include "agx/layout.h"
#include "agx/render.h"
#include "agx_cmdbuf.h"
#include "layout.h"
#include "texture.h"

static void test_pipeline(void **state)
{
	uint8_t out[AGX_PIPELINE_MAX_LENGTH];
	struct agx_pipeline p = { .code = 0x1240,
				  .num_registers = 20,
				  .uniforms = 0x1000000100ull,
				  .uniform_halves = 300,
				  .textures = 0x2000,
				  .num_textures = 3,
				  .samplers = 0x3000,
				  .num_samplers = 2 };
	size_t n = agx_pipeline_pack(out, &p), at = 0;
	struct agx_cmd_usc_uniform u;
	struct agx_cmd_usc_uniform_high uh;
	struct agx_cmd_usc_shared sh;
	struct agx_cmd_usc_texture t;
	struct agx_cmd_usc_sampler s;
	struct agx_cmd_usc_shader code;
	struct agx_cmd_usc_registers r;
	struct agx_cmd_usc_no_preshader end;

	(void)state;
	/* 300 halves: four words of 64 below 256, then 44 in the high form */
	for (unsigned i = 0; i < 4; i++, at += AGX_CMD_USC_UNIFORM_LENGTH) {
		assert_true(agx_cmd_usc_uniform_unpack(out + at, &u));
		assert_int_equal(u.start_halfs, 64 * i);
		assert_int_equal(u.size_halfs, 64);
		assert_int_equal(u.buffer, p.uniforms + 128 * i);
	}
	assert_true(agx_cmd_usc_uniform_high_unpack(out + at, &uh));
	assert_int_equal(uh.start_halfs, 0);
	assert_int_equal(uh.size_halfs, 44);
	assert_int_equal(uh.buffer, p.uniforms + 512);
	at += AGX_CMD_USC_UNIFORM_HIGH_LENGTH;
	assert_true(agx_cmd_usc_shared_unpack(out + at, &sh));
	assert_false(sh.uses_shared_memory);
	at += AGX_CMD_USC_SHARED_LENGTH;
	assert_true(agx_cmd_usc_texture_unpack(out + at, &t));
	assert_int_equal(t.count, 3);
	assert_int_equal(t.buffer, 0x2000);
	at += AGX_CMD_USC_TEXTURE_LENGTH;
	assert_true(agx_cmd_usc_sampler_unpack(out + at, &s));
	assert_int_equal(s.count, 2);
	assert_int_equal(s.buffer, 0x3000);
	at += AGX_CMD_USC_SAMPLER_LENGTH;
	assert_true(agx_cmd_usc_shader_unpack(out + at, &code));
	assert_int_equal(code.code, 0x1240);
	at += AGX_CMD_USC_SHADER_LENGTH;
	assert_true(agx_cmd_usc_registers_unpack(out + at, &r));
	assert_int_equal(r.register_count, 40);
	at += AGX_CMD_USC_REGISTERS_LENGTH;
	assert_true(agx_cmd_usc_no_preshader_unpack(out + at, &end));
	assert_int_equal(n, at + AGX_CMD_USC_NO_PRESHADER_LENGTH);
	assert_true(n <= AGX_PIPELINE_MAX_LENGTH);
}

static void test_vdm_draw(void **state)
{
	uint8_t out[AGX_VDM_DRAW_MAX_LENGTH];
	struct agx_vdm_draw d = { .primitive = AGX_CMD_PRIMITIVE_TRIANGLE_STRIP,
				  .count = 7,
				  .instances = 3,
				  .start = 5,
				  .index_size = 2,
				  .indices = 0xab12345678ull,
				  .index_bytes = 16,
				  .restart = true };
	struct agx_cmd_vdm_index_list h;
	struct agx_cmd_vdm_index_buffer_lo lo;
	struct agx_cmd_vdm_u32 v;
	struct agx_cmd_vdm_index_buffer_size sz;
	size_t n = agx_vdm_draw(out, &d);

	(void)state;
	assert_int_equal(n, 24);
	assert_true(agx_cmd_vdm_index_list_unpack(out, &h));
	assert_int_equal(h.primitive, AGX_CMD_PRIMITIVE_TRIANGLE_STRIP);
	assert_true(h.restart_enable);
	assert_int_equal(h.index_size, AGX_CMD_INDEX_SIZE_U16);
	assert_true(agx_cmd_vdm_index_buffer_lo_unpack(out + 4, &lo));
	assert_int_equal(h.index_buffer | lo.index_buffer, d.indices);
	assert_true(agx_cmd_vdm_u32_unpack(out + 8, &v));
	assert_int_equal(v.value, 7);
	assert_true(agx_cmd_vdm_u32_unpack(out + 12, &v));
	assert_int_equal(v.value, 3);
	assert_true(agx_cmd_vdm_u32_unpack(out + 16, &v));
	assert_int_equal(v.value, 5);
	assert_true(agx_cmd_vdm_index_buffer_size_unpack(out + 20, &sz));
	assert_int_equal(sz.size, 16);

	/* not indexed: no buffer words */
	d.index_size = 0;
	assert_int_equal(agx_vdm_draw(out, &d), 16);
	assert_true(agx_cmd_vdm_index_list_unpack(out, &h));
	assert_false(h.index_buffer_present);
	assert_int_equal(h.index_buffer, 0);
}

/* The PPP block: a header and then exactly the words it says, in its order. */
static void test_ppp(void **state)
{
	uint8_t out[AGX_PPP_MAX_LENGTH];
	struct agx_ppp_state p = {
		.translate = { 32, 16, 0.5f },
		.scale = { 32, -16, 0.5f },
		.cull_back = true,
		.front_ccw = true,
		.provoking = 2,
		.depth_clip = true,
		.outputs = 12,
		.fs_pipeline = 0x440,
		.cf = 0x80,
		.cf_count = 3,
		.stencil = true,
		.front = { .ref = 3,
			   .read_mask = 0xf0,
			   .write_mask = 0x0f,
			   .compare = AGX_CMD_ZS_FUNC_EQUAL,
			   .depth_pass = AGX_CMD_STENCIL_OP_INCR_WRAP },
		.back = { .ref = 9,
			  .read_mask = 0xff,
			  .write_mask = 0xff,
			  .compare = AGX_CMD_ZS_FUNC_ALWAYS,
			  .stencil_fail = AGX_CMD_STENCIL_OP_ZERO },
		.depth_func = AGX_CMD_ZS_FUNC_LESS,
		.depth_write = true,
		.line_width = 2.5f,
		.varying_words = 8,
		.visibility = AGX_CMD_VISIBILITY_MODE_COUNTING,
		.query = 17,
	};
	size_t n = agx_ppp_pack(out, &p), at = 4;
	struct agx_cmd_ppp_header h;
	struct agx_cmd_ppp_fragment_control fc;
	struct agx_cmd_ppp_fragment_face face;
	struct agx_cmd_ppp_fragment_stencil st;
	struct agx_cmd_ppp_viewport vp;
	struct agx_cmd_ppp_cull cull;
	struct agx_cmd_ppp_fragment_shader_word_1 f1;
	struct agx_cmd_ppp_fragment_shader_word_2 f2;
	struct agx_cmd_ppp_occlusion_query q;
	struct agx_cmd_ppp_output_size size;

	(void)state;
	assert_true(n <= AGX_PPP_MAX_LENGTH);
	assert_true(agx_cmd_ppp_header_unpack(out, &h));
	assert_int_equal(h.viewport_count, 1);
	assert_true(h.fragment_front_stencil && h.fragment_back_stencil && h.fragment_shader);
	assert_false(h.depth_bias_scissor);
	assert_true(agx_cmd_ppp_fragment_control_unpack(out + at, &fc));
	assert_true(fc.stencil_test_enable && fc.two_sided_stencil);
	assert_int_equal(fc.visibility_mode, AGX_CMD_VISIBILITY_MODE_COUNTING);
	at += 4;
	assert_true(agx_cmd_ppp_fragment_face_unpack(out + at, &face));
	assert_int_equal(face.stencil_reference, 3);
	assert_int_equal(face.line_width, 39); /* 2.5 in 4.4 fixed point, less 1/16 */
	assert_int_equal(face.depth_function, AGX_CMD_ZS_FUNC_LESS);
	assert_false(face.disable_depth_write);
	at += 4;
	assert_true(agx_cmd_ppp_fragment_stencil_unpack(out + at, &st));
	assert_int_equal(st.read_mask, 0xf0);
	assert_int_equal(st.write_mask, 0x0f);
	assert_int_equal(st.depth_pass, AGX_CMD_STENCIL_OP_INCR_WRAP);
	at += 4;
	assert_true(agx_cmd_ppp_fragment_face_unpack(out + at, &face));
	assert_int_equal(face.stencil_reference, 9);
	at += 4;
	assert_true(agx_cmd_ppp_fragment_stencil_unpack(out + at, &st));
	assert_int_equal(st.stencil_fail, AGX_CMD_STENCIL_OP_ZERO);
	at += 4 + AGX_CMD_PPP_VIEWPORT_CONTROL_LENGTH;
	assert_true(agx_cmd_ppp_viewport_unpack(out + at, &vp));
	assert_true(vp.scale_y == -16 && vp.translate_x == 32 && vp.scale_z == 0.5f);
	at += AGX_CMD_PPP_VIEWPORT_LENGTH + 8;
	assert_true(agx_cmd_ppp_cull_unpack(out + at, &cull));
	assert_true(cull.cull_back && !cull.cull_front && cull.front_face_ccw && cull.depth_clip);
	assert_int_equal(cull.flat_shading_vertex, AGX_CMD_PPP_VERTEX_V2);
	at += 4;
	assert_true(agx_cmd_ppp_fragment_shader_word_1_unpack(out + at + 4, &f1));
	assert_int_equal(f1.pipeline, 0x440);
	assert_true(agx_cmd_ppp_fragment_shader_word_2_unpack(out + at + 8, &f2));
	assert_int_equal(f2.cf_bindings, 0x80);
	at += 16;
	assert_true(agx_cmd_ppp_occlusion_query_unpack(out + at, &q));
	assert_int_equal(q.index, 17);
	at += 4;
	assert_true(agx_cmd_ppp_output_size_unpack(out + at, &size));
	assert_int_equal(size.count, 12);
	assert_int_equal(n, at + 4);
}

/*
 * A block after another says only what changed: nothing for the same
 * state, the fragment shader's words alone for a new pipeline, and the
 * stencil words again when the test comes back on, as the words the PPP
 * kept may be older than the state that turned it off.
 */
static void test_ppp_changed(void **state)
{
	uint8_t out[AGX_PPP_MAX_LENGTH];
	struct agx_ppp_state p = { .translate = { 8, 8, 0 },
				   .scale = { 8, 8, 1 },
				   .depth_clip = true,
				   .outputs = 8,
				   .fs_pipeline = 0x100,
				   .cf = 0x40,
				   .cf_count = 1,
				   .depth_func = AGX_CMD_ZS_FUNC_ALWAYS,
				   .line_width = 1,
				   .stencil = true,
				   .front = { .ref = 1, .compare = AGX_CMD_ZS_FUNC_EQUAL },
				   .back = { .ref = 1, .compare = AGX_CMD_ZS_FUNC_EQUAL } };
	struct agx_ppp_state q = p, off = p;
	struct agx_cmd_ppp_header h;
	struct agx_cmd_ppp_fragment_shader_word_1 f1;
	struct agx_cmd_ppp_fragment_stencil st;
	size_t n;

	(void)state;
	assert_int_equal(agx_ppp_pack_changed(out, &p, NULL), agx_ppp_pack(out, &p));
	assert_int_equal(agx_ppp_pack_changed(out, &p, &q), 0);

	q.fs_pipeline = 0x200;
	n = agx_ppp_pack_changed(out, &q, &p);
	assert_int_equal(n, AGX_CMD_PPP_HEADER_LENGTH + 16);
	assert_true(agx_cmd_ppp_header_unpack(out, &h));
	assert_true(h.fragment_shader);
	assert_false(h.fragment_control || h.fragment_front_face || h.fragment_back_face ||
		     h.fragment_front_stencil || h.viewport || h.cull || h.output_select ||
		     h.varying_counts_32 || h.output_size || h.depth_bias_scissor);
	assert_true(agx_cmd_ppp_fragment_shader_word_1_unpack(out + 8, &f1));
	assert_int_equal(f1.pipeline, 0x200);

	/* stencil off: the control word alone; on again with other words: all of them */
	off.stencil = false;
	n = agx_ppp_pack_changed(out, &off, &p);
	assert_int_equal(n, AGX_CMD_PPP_HEADER_LENGTH + AGX_CMD_PPP_FRAGMENT_CONTROL_LENGTH);
	q = p;
	q.front.compare = q.back.compare = AGX_CMD_ZS_FUNC_LESS;
	n = agx_ppp_pack_changed(out, &q, &off);
	assert_true(agx_cmd_ppp_header_unpack(out, &h));
	assert_true(h.fragment_control && h.fragment_front_stencil && h.fragment_back_stencil);
	assert_false(h.fragment_front_face || h.viewport || h.fragment_shader);
	assert_int_equal(n, AGX_CMD_PPP_HEADER_LENGTH + AGX_CMD_PPP_FRAGMENT_CONTROL_LENGTH +
				2 * AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH);
	assert_true(agx_cmd_ppp_fragment_stencil_unpack(out + 8, &st));
	assert_int_equal(st.compare, AGX_CMD_ZS_FUNC_LESS);
	/* the same stencil state, on after off: its words again */
	n = agx_ppp_pack_changed(out, &p, &off);
	assert_int_equal(n, AGX_CMD_PPP_HEADER_LENGTH + AGX_CMD_PPP_FRAGMENT_CONTROL_LENGTH +
				2 * AGX_CMD_PPP_FRAGMENT_STENCIL_LENGTH);
}

/* What a view of the descriptor shows must be the image described. */
static void check_view(const struct usc_texture_view *v, const struct agx_layout *l,
		       const struct agx_format_info *fi)
{
	assert_int_equal(v->l.width, l->width);
	assert_int_equal(v->l.height, l->height);
	assert_int_equal(v->l.twiddled, l->twiddled);
	assert_int_equal(v->t.channels, fi->hw_channels);
	assert_int_equal(v->t.type, fi->hw_type);
	for (unsigned lv = 0; lv < l->levels; lv++)
		assert_int_equal(v->l.level[lv].offset, l->level_offset[lv]);
	if (l->twiddled)
		assert_int_equal(v->l.layer_stride, l->layer_stride);
	else
		assert_int_equal(v->l.stride, l->stride);
}

/*
 * The device's texel addressing (sim/usc/layout.c) and the driver's
 * (libagx/layout), written apart, agree over sizes around every tile and
 * power-of-two boundary, every element size, compressed blocks, full mip
 * chains and layers: level offsets, layer strides and the address of
 * every element of the small levels (sampled on the large ones).
 */
static void test_layouts_agree(void **state)
{
	static const unsigned sizes[] = {
		1,  2,	3,  5,	 7,   15,  16,	17,  31,  32,  33,  63,
		64, 65, 96, 127, 128, 129, 200, 255, 256, 257, 513, 1000
	};
	/* texels, ETC2/EAC's 4x4 and ASTC's sizes, square or not, up to 12x12 */
	static const unsigned blocks[][2] = { { 1, 1 }, { 4, 4 },   { 5, 4 },	{ 6, 5 },
					      { 8, 6 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };
	unsigned compared = 0;

	(void)state;
	for (unsigned b = 0; b < 5; b++)
		for (unsigned k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++)
			for (unsigned wi = 0; wi < sizeof(sizes) / sizeof(sizes[0]); wi++)
				for (unsigned hi = 0; hi < sizeof(sizes) / sizeof(sizes[0]); hi++) {
					unsigned w = sizes[wi], h = sizes[hi], full = 1;
					unsigned blk = blocks[k][0], blk_h = blocks[k][1];
					struct agx_layout d = { .twiddled = true,
								.bytes_per_texel = 1u << b,
								.block_w = blk,
								.block_h = blk_h,
								.width = w,
								.height = h };
					struct usc_layout v;

					/* ETC2 and EAC blocks are 8 or 16 bytes, ASTC's 16 */
					if ((blk > 1 && b < 3) ||
					    ((blk != blk_h || blk > 4) && b != 4))
						continue;
					while ((w > h ? w : h) >> full)
						full++;
					d.levels = full;
					d.page_aligned_layers = (wi + hi) % 2;
					assert_true(agx_layout_init(&d));
					v = (struct usc_layout){ .twiddled = true,
								 .bytes_per_texel =
								     d.bytes_per_texel,
								 .block_w = blk,
								 .block_h = blk_h,
								 .width = w,
								 .height = h,
								 .levels = full,
								 .page_aligned_layers =
								     d.page_aligned_layers };
					assert_true(usc_layout_init(&v));
					assert_int_equal(v.layer_stride, d.layer_stride);
					for (unsigned lv = 0; lv < full; lv++) {
						unsigned ew = (agx_layout_minify(w, lv) + blk - 1) /
							      blk,
							 eh = (agx_layout_minify(h, lv) + blk_h -
							       1) /
							      blk_h,
							 step = ew * eh > 4096 ? 7 : 1;

						assert_int_equal(v.level[lv].offset,
								 d.level_offset[lv]);
						for (unsigned y = 0; y < eh; y += step)
							for (unsigned x = 0; x < ew; x += step) {
								uint64_t a = agx_layout_texel(
									     &d, lv, 1, x, y),
									 e = usc_layout_element(
									     &v, lv, 1, x, y);

								if (a != e)
									fail_msg(
									    "%ux%u, %u bytes, "
									    "blocks of %ux%u, "
									    "level %u (%u, %u): "
									    "the "
									    "driver's 0x%llx, the "
									    "device's 0x%llx",
									    w, h, 1u << b, blk,
									    blk_h, lv, x, y,
									    (unsigned long long)a,
									    (unsigned long long)e);
								compared++;
							}
					}
				}
	print_message("# %u element addresses compared\n", compared);
}

/* Every format the texture unit reads, twiddled with mips and layers, and linear. */
static void test_texture_descriptors(void **state)
{
	unsigned checked = 0;

	(void)state;
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *fi = agx_format_info((enum agx_format)f);
		struct agx_layout tw = { .twiddled = true,
					 .bytes_per_texel = fi->bytes,
					 .block_w = fi->block_w,
					 .block_h = fi->block_h,
					 .width = 24,
					 .height = 20,
					 .levels = 5 };
		struct agx_layout lin = { .bytes_per_texel = fi->bytes,
					  .block_w = fi->block_w,
					  .block_h = fi->block_h,
					  .width = 13,
					  .height = 4,
					  .levels = 1,
					  .stride = (13 * fi->bytes + 15) / 16 * 16 };
		struct agx_image arr = { .format = (enum agx_format)f,
					 .dim = AGX_IMAGE_2D_ARRAY,
					 .layout = &tw,
					 .address = 0x4000000,
					 .depth = 3 };
		struct agx_image flat = { .format = (enum agx_format)f,
					  .dim = AGX_IMAGE_2D,
					  .layout = &lin,
					  .address = 0x5000010,
					  .depth = 1 };
		uint8_t desc[AGX_TEXTURE_LENGTH];
		struct usc_texture_view v;
		char why[128];

		if (!fi->texture)
			continue;
		assert_true(agx_layout_init(&tw));
		assert_true(agx_texture_descriptor(desc, &arr, 0, 4, NULL));
		assert_int_equal(usc_texture_view_init(&v, desc, AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY,
						       why, sizeof(why)),
				 USC_TEXEL_OK);
		check_view(&v, &tw, fi);
		assert_int_equal(v.layers, 3);
		/* a view of some of the levels of a whole chain */
		assert_true(agx_texture_descriptor(desc, &arr, 1, 2, NULL));
		assert_int_equal(usc_texture_view_init(&v, desc, AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY,
						       why, sizeof(why)),
				 USC_TEXEL_OK);
		check_view(&v, &tw, fi);
		if (fi->block_w == 1) {
			assert_true(agx_layout_init(&lin));
			assert_true(agx_texture_descriptor(desc, &flat, 0, 0, NULL));
			assert_int_equal(usc_texture_view_init(&v, desc, AGX_CMD_TEXTURE_DIM_TEX_2D,
							       why, sizeof(why)),
					 USC_TEXEL_OK);
			check_view(&v, &lin, fi);
		}
		checked++;
	}
	assert_true(checked > 50);
}

/* A PBE descriptor writes one level of one layer: the view is that layer, as 2D. */
static void test_pbe_descriptors(void **state)
{
	unsigned checked = 0;

	(void)state;
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *fi = agx_format_info((enum agx_format)f);
		struct agx_layout tw = { .twiddled = true,
					 .bytes_per_texel = fi->bytes,
					 .block_w = 1,
					 .block_h = 1,
					 .width = 40,
					 .height = 33,
					 .levels = 3 };
		struct agx_image cube = { .format = (enum agx_format)f,
					  .dim = AGX_IMAGE_CUBE,
					  .layout = &tw,
					  .address = 0x4000000,
					  .depth = 1 };
		uint8_t desc[AGX_PBE_LENGTH];
		struct usc_texture_view v;
		unsigned level;
		char why[128];

		if (!fi->pbe)
			continue;
		assert_true(agx_layout_init(&tw));
		assert_true(agx_pbe_descriptor(desc, &cube, 2, 5));
		assert_int_equal(usc_pbe_view_init(&v, desc, AGX_CMD_TEXTURE_DIM_TEX_2D, &level,
						   why, sizeof(why)),
				 USC_TEXEL_OK);
		assert_int_equal(level, 2);
		assert_int_equal(v.t.address, cube.address + 5 * tw.layer_stride);
		check_view(&v, &tw, fi);
		/* past the cube's six faces, or its levels */
		assert_false(agx_pbe_descriptor(desc, &cube, 0, 6));
		assert_false(agx_pbe_descriptor(desc, &cube, 3, 0));
		checked++;
	}
	assert_true(checked > 30);
}

static void test_descriptor_refusals(void **state)
{
	struct agx_layout lin = {
		.bytes_per_texel = 4, .width = 8, .height = 8, .levels = 1, .stride = 40
	};
	struct agx_layout tw = {
		.twiddled = true, .bytes_per_texel = 4, .width = 16, .height = 16, .levels = 3
	};
	struct agx_image img = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
				 .dim = AGX_IMAGE_2D,
				 .layout = &lin,
				 .address = 0x10000,
				 .depth = 1 };
	uint8_t desc[AGX_TEXTURE_LENGTH];

	(void)state;
	assert_true(agx_layout_init(&lin));
	assert_true(agx_layout_init(&tw));
	/* a linear stride not a multiple of 16 */
	assert_false(agx_texture_descriptor(desc, &img, 0, 0, NULL));
	assert_false(agx_pbe_descriptor(desc, &img, 0, 0));
	lin.stride = 48;
	assert_true(agx_texture_descriptor(desc, &img, 0, 0, NULL));
	/* an address not on 16 bytes */
	img.address = 0x10008;
	assert_false(agx_texture_descriptor(desc, &img, 0, 0, NULL));
	img.address = 0x10000;
	/*
	 * A view of fewer levels than a chain that is not whole (16x16 has
	 * 5): one layer's levels are where the view's chain has them; two
	 * layers are a whole layout's stride apart, which no view describes.
	 */
	img.layout = &tw;
	assert_true(agx_texture_descriptor(desc, &img, 0, 2, NULL));
	assert_true(agx_texture_descriptor(desc, &img, 0, 1, NULL));
	assert_true(agx_texture_descriptor(desc, &img, 1, 1, NULL));
	assert_false(agx_texture_descriptor(desc, &img, 0, 3, NULL));
	img.dim = AGX_IMAGE_2D_ARRAY;
	img.depth = 2;
	assert_true(agx_texture_descriptor(desc, &img, 0, 2, NULL));
	assert_false(agx_texture_descriptor(desc, &img, 0, 1, NULL));
	img.dim = AGX_IMAGE_2D;
	img.depth = 1;
	/* the PBE writes no block-compressed format; the texture unit reads no Z24S8 */
	img.format = AGX_FORMAT_ETC2_RGB8;
	assert_false(agx_pbe_descriptor(desc, &img, 0, 0));
	img.format = AGX_FORMAT_NONE;
	assert_false(agx_texture_descriptor(desc, &img, 0, 2, NULL));
}

static void test_sampler(void **state)
{
	uint8_t out[AGX_SAMPLER_LENGTH];
	struct agx_sampler s = { .mag = AGX_FILTER_LINEAR,
				 .min = AGX_FILTER_NEAREST,
				 .mip = AGX_MIP_LINEAR,
				 .wrap = { AGX_WRAP_REPEAT, AGX_WRAP_MIRRORED_REPEAT,
					   AGX_WRAP_CLAMP_TO_EDGE },
				 .min_lod = -1000,
				 .max_lod = 1000 };
	struct agx_cmd_sampler d;

	(void)state;
	agx_sampler_descriptor(out, &s);
	assert_true(agx_cmd_sampler_unpack(out, &d));
	assert_int_equal(d.magnify, AGX_CMD_FILTER_LINEAR);
	assert_int_equal(d.minify, AGX_CMD_FILTER_NEAREST);
	assert_int_equal(d.mip_filter, AGX_CMD_MIP_FILTER_LINEAR);
	assert_int_equal(d.wrap_t, AGX_CMD_WRAP_MIRRORED_REPEAT);
	assert_int_equal(d.min_lod, 0); /* clamped to what 4.6 fixed point holds */
	assert_int_equal(d.max_lod, 1023);
	assert_int_equal(d.max_anisotropy, 1);
	s.min_lod = 1.5f;
	s.max_lod = 2.25f;
	agx_sampler_descriptor(out, &s);
	assert_true(agx_cmd_sampler_unpack(out, &d));
	assert_int_equal(d.min_lod, 96);
	assert_int_equal(d.max_lod, 144);
}

/* ---- a caller's state key (agx_render_draw.state_key) ---------------------------------- */

#define KEY_USC_BASE  0x1000000000ull
#define KEY_PASS_VA   (KEY_USC_BASE + 0x100000)
#define KEY_PASS_SIZE (512u << 10)

/* A pass over a 64x64 RGBA8 target in memory no GPU reads: the builder's words only. */
static void key_pass_begin(struct agx_render *r, uint8_t *map, struct agx_layout *layout)
{
	struct agx_render_pass pass = {
		.width = 64,
		.height = 64,
		.num_colour = 1,
		.tvb = 0x40000000,
		.tvb_size = 1u << 20,
	};

	*layout = (struct agx_layout){
		.bytes_per_texel = 4, .width = 64, .height = 64, .levels = 1, .stride = 256
	};
	assert_true(agx_layout_init(layout));
	pass.colour[0] = (struct agx_render_target){
		.surface = { .image = { .format = AGX_FORMAT_R8G8B8A8_UNORM,
					.dim = AGX_IMAGE_2D,
					.layout = layout,
					.address = 0x80000000,
					.depth = 1 } },
		.load = AGX_LOAD_RELOAD,
		.store = AGX_STORE_STORE,
	};
	memset(map, 0, KEY_PASS_SIZE);
	assert_int_equal(agx_render_begin(r, map, KEY_PASS_VA, KEY_PASS_SIZE, KEY_USC_BASE, &pass),
			 0);
}

/*
 * The draws of key_draws: one, its fragment uniform changed, nothing
 * changed, the culling changed, the uniform again, the scissor changed,
 * the fragment shader's textures changed.  keys[i] the i-th draw's key.
 */
#define KEY_DRAWS 7

static void key_draws(struct agx_render *r, const uint64_t keys[KEY_DRAWS])
{
	static const struct agx_cf_binding cf[2] = {
		{ 1, AGX_CMD_SHADE_MODEL_LINEAR, AGX_CMD_CF_SOURCE_VARYING, 0, 0 },
		{ 4, AGX_CMD_SHADE_MODEL_PERSPECTIVE, AGX_CMD_CF_SOURCE_VARYING, 1, 1 },
	};
	uint32_t vu[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, fu[4] = { 0x3f800000, 0, 0, 0x3f800000 };
	struct agx_render_draw d = {
		.vs = { .code_va = KEY_USC_BASE + 0x1000,
			.num_registers = 8,
			.uniforms = vu,
			.num_uniforms = 8 },
		.fs = { .code_va = KEY_USC_BASE + 0x2000,
			.num_registers = 8,
			.uniforms = fu,
			.num_uniforms = 4 },
		.vs_outputs = 8,
		.cf = cf,
		.num_cf = 2,
		.cf_registers = 5,
		.state = { .translate = { 32, 32, 0 },
			   .scale = { 32, 32, 1 },
			   .provoking = 2,
			   .depth_clip = true,
			   .depth_func = AGX_CMD_ZS_FUNC_ALWAYS,
			   .line_width = 1,
			   .varying_words = 4,
			   .scissor = true },
		.scissor = { 0, 0, 32, 32 },
		.draw = { .primitive = AGX_CMD_PRIMITIVE_TRIANGLES, .count = 3, .instances = 1 },
	};

	for (unsigned i = 0; i < KEY_DRAWS; i++) {
		switch (i) {
		case 1:
		case 4:
			fu[1] += 0x100;
			break;
		case 3:
			d.state.cull_back = true;
			break;
		case 5:
			d.scissor[2] = 48;
			break;
		case 6:
			d.fs.textures = d.fs.samplers = KEY_USC_BASE + 0x3000;
			d.fs.num_textures = d.fs.num_samplers = 1;
			break;
		}
		d.state_key = keys[i];
		assert_int_equal(agx_render_draw(r, &d), 0);
	}
}

/* Whether two passes hold the same words: the stream at the head, the data at the tail. */
static bool same_pass(const struct agx_render *a, const struct agx_render *b)
{
	return a->head == b->head && a->tail == b->tail && !memcmp(a->map, b->map, a->head) &&
	       !memcmp(a->map + a->tail, b->map + b->tail, KEY_PASS_SIZE - a->tail);
}

/*
 * Draws whose caller names their state with a key take the path that
 * compares only the fields the builder fills: the same words as draws
 * compared group by group.  A key reused for changed state is trusted
 * (other words): the builder does not compare what the key covers.
 */
static void test_render_state_key(void **state)
{
	static const uint64_t none[KEY_DRAWS] = { 0 };
	static const uint64_t keys[KEY_DRAWS] = { 5, 5, 5, 6, 6, 7, 7 };
	static const uint64_t lie[KEY_DRAWS] = { 5, 5, 5, 5, 5, 7, 7 };
	static struct agx_render r[3];
	uint8_t *map[3];
	struct agx_layout layout[3];

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		map[i] = aligned_alloc(64, KEY_PASS_SIZE);
		assert_non_null(map[i]);
		key_pass_begin(&r[i], map[i], &layout[i]);
	}
	key_draws(&r[0], none);
	key_draws(&r[1], keys);
	key_draws(&r[2], lie);
	assert_true(same_pass(&r[0], &r[1]));
	assert_false(same_pass(&r[0], &r[2]));
	for (unsigned i = 0; i < 3; i++)
		free(map[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline),
		cmocka_unit_test(test_vdm_draw),
		cmocka_unit_test(test_ppp),
		cmocka_unit_test(test_ppp_changed),
		cmocka_unit_test(test_render_state_key),
		cmocka_unit_test(test_texture_descriptors),
		cmocka_unit_test(test_layouts_agree),
		cmocka_unit_test(test_pbe_descriptors),
		cmocka_unit_test(test_descriptor_refusals),
		cmocka_unit_test(test_sampler),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

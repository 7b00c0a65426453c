/*
 * scene.c: the textbook render of scene.h.
 */
#include <stdio.h>
#include <string.h>

#include "agx/isa.h"
#include "agx_cmdbuf.h"
#include "agx/cmd.h"
#include "host/scene.h"

/*
 * Vertex data: 8 words a vertex at u0_u1 -- clip x, y, z, w, then r, g, b,
 * a; the sized shader writes u2, the point size, as a ninth output word.
 */
#define FETCH                                                                                      \
	"mov_imm r8, 8\n"                                                                          \
	"imadd r7, r5, r8, 0\n"                                                                    \
	"device_load 0, i32, xyzw, r0_r1_r2_r3, u0_u1, r7, unsigned\n"                             \
	"iadd r7, r7, 4\n"                                                                         \
	"device_load 0, i32, xyzw, r9_r10_r11_r12, u0_u1, r7, unsigned\n"                          \
	"wait 0\n"                                                                                 \
	"st_var 0, r0, 0\n"                                                                        \
	"st_var 0, r1, 1\n"                                                                        \
	"st_var 0, r2, 2\n"                                                                        \
	"st_var 0, r3, 3\n"                                                                        \
	"st_var 0, r9, 4\n"                                                                        \
	"st_var 0, r10, 5\n"                                                                       \
	"st_var 0, r11, 6\n"
static const char vertex_shader[] = FETCH "st_var 1, r12, 7\n"
					  "stop";
static const char sized_vertex_shader[] = FETCH "st_var 0, r12, 7\n"
						"iadd r13, u2, 0\n"
						"st_var 1, r13, 8\n"
						"stop";
#undef FETCH

/*
 * The colour, perspective-correct (cf1..cf4 over cf0, the W binding), into
 * the tile, after the earlier fragments of the pixel (wait_pix 0xc before a
 * tile store, as Mesa's compiler waits).
 */
static const char colour_shader[] =
    "iter r0_r1_r2_r3, perspective, cf1, cf0, 0, forward, pixel, no_centroid, 0\n"
    "wait_pix 12, 0\n"
    "st_tile r0_r1_r2_r3, u8norm, 0, xyzw, 0, 255, 0\n"
    "stop";

/* Flat shading: the colour's C coefficients (ldcf), into the tile. */
static const char flat_shader[] = "ldcf r4_r5_r6, cf1\n"
				  "iadd r0, r6, 0\n"
				  "ldcf r4_r5_r6, cf2\n"
				  "iadd r1, r6, 0\n"
				  "ldcf r4_r5_r6, cf3\n"
				  "iadd r2, r6, 0\n"
				  "ldcf r4_r5_r6, cf4\n"
				  "iadd r3, r6, 0\n"
				  "wait_pix 12, 0\n"
				  "st_tile r0_r1_r2_r3, u8norm, 0, xyzw, 0, 255, 0\n"
				  "stop";

static const char clear_program[] = "mov_imm r0, 0x3e800000\n"
				    "mov_imm r1, 0x3f000000\n"
				    "mov_imm r2, 0x3f400000\n"
				    "mov_imm r3, 0x3f800000\n"
				    "st_tile r0_r1_r2_r3, u8norm, 0, xyzw, 0, 255, 0\n"
				    "stop";

/* The partial renders' reload: the image's texel at the pixel, into the tile. */
static const char reload_program[] =
    "get_sr r0, sr80\n"
    "get_sr r1, sr81\n"
    "texture_load r4_r5_r6_r7, ts0, ss0, tex_2d, r0_r1, auto_lod, 0, xyzw, 0, 0, 0, 0, 12, 0\n"
    "wait 0\n"
    "st_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, 255, 0\n"
    "stop";

static const char store_program[] = "mov_imm r0, 0\n"
				    "imgwblk r0l, ts0, r0, 0, 0, tex_2d, u8norm, 0\n"
				    "stop";

uint64_t sim_arena_put(struct sim_arena *a, const void *bytes, size_t size, unsigned align)
{
	uint32_t at = (a->used + align - 1) & ~(align - 1);

	if (at > a->size || size > a->size - at)
		return 0;
	memcpy(a->host + at, bytes, size);
	a->used = at + (uint32_t)size;
	return a->va + at;
}

/* Code offset from usc_base; ~0u when it does not fit. */
static uint32_t put_code(struct sim_scene *s, const void *bytes, size_t size, unsigned align)
{
	uint64_t va = sim_arena_put(&s->code, bytes, size, align);

	return va ? (uint32_t)(va - s->code.va) : ~0u;
}

static uint32_t program(struct sim_scene *s, const char *text, char *err, size_t err_size)
{
	uint8_t buf[512];
	char why[256];
	int size = agx_isa_assemble(text, buf, sizeof(buf), why, sizeof(why));

	if (size < 0) {
		snprintf(err, err_size, "%s", why);
		return ~0u;
	}
	return put_code(s, buf, (size_t)size, 64);
}

static uint32_t pipeline(struct sim_scene *s, uint32_t code, uint64_t uniforms, unsigned halves,
			 const struct agx_pipeline *bind)
{
	struct agx_pipeline p = { .code = code, .uniforms = uniforms, .uniform_halves = halves };
	uint8_t words[AGX_PIPELINE_MAX_LENGTH];

	if (code == ~0u)
		return ~0u;
	if (bind) {
		p.textures = bind->textures, p.num_textures = bind->num_textures;
		p.samplers = bind->samplers, p.num_samplers = bind->num_samplers;
	}
	return put_code(s, words, agx_pipeline_pack(words, &p), AGX_PIPELINE_ALIGN);
}

uint32_t sim_scene_pipeline(struct sim_scene *s, const char *text, uint64_t uniforms,
			    unsigned halves, char *err, size_t err_size)
{
	return pipeline(s, program(s, text, err, err_size), uniforms, halves, NULL);
}

bool sim_scene_init(struct sim_scene *s, struct sim_arena code, struct sim_arena data, char *err,
		    size_t err_size)
{
	memset(s, 0, sizeof(*s));
	s->code = code;
	s->data = data;
	snprintf(err, err_size, "the code arena is full");
	s->clear = pipeline(s, program(s, clear_program, err, err_size), 0, 0, NULL);
	s->colour = pipeline(s, program(s, colour_shader, err, err_size), 0, 0, NULL);
	s->flat = pipeline(s, program(s, flat_shader, err, err_size), 0, 0, NULL);
	s->store_code = program(s, store_program, err, err_size);
	s->vs_code = program(s, vertex_shader, err, err_size);
	s->vs_sized_code = program(s, sized_vertex_shader, err, err_size);
	s->reload_code = program(s, reload_program, err, err_size);
	return s->clear != ~0u && s->colour != ~0u && s->flat != ~0u && s->store_code != ~0u &&
	       s->vs_code != ~0u && s->vs_sized_code != ~0u && s->reload_code != ~0u;
}

/* One draw's words: its vertex shader, PPP state and index list. */
static size_t draw_words(struct sim_scene *s, const struct sim_scene_target *t,
			 const struct sim_scene_draw *d, uint8_t *out)
{
	struct agx_cf_binding cf[3] = {
		{ 1, AGX_CMD_SHADE_MODEL_LINEAR, 0, 0, 0 },
		{ 4, d->flat ? AGX_CMD_SHADE_MODEL_FLAT_VERTEX_2 : AGX_CMD_SHADE_MODEL_PERSPECTIVE,
		  0, 1, 1 },
		{ 2, AGX_CMD_SHADE_MODEL_LINEAR, AGX_CMD_CF_SOURCE_POINT_COORD, 0, 5 },
	};
	struct agx_ppp_stencil stencil = { .ref = d->stencil_ref,
					   .read_mask = 0xff,
					   .write_mask = 0xff,
					   .compare = d->stencil_compare,
					   .stencil_fail = d->stencil_fail,
					   .depth_fail = d->depth_fail,
					   .depth_pass = d->depth_pass };
	struct agx_ppp_state ppp = { .translate = { t->width / 2.0f, t->height / 2.0f, 0 },
				     .scale = { t->width / 2.0f, -(float)t->height / 2.0f, 1 },
				     .cull_back = d->cull_back,
				     .front_ccw = d->front_ccw,
				     .provoking = 2,
				     .outputs = d->point_size ? 9 : 8,
				     .line_width = d->line_width,
				     .varying_words = 4,
				     .point_size = d->point_size != 0,
				     .depth_bias = d->depth_bias,
				     .bias_index = d->bias_index,
				     .visibility = d->visibility,
				     .query = d->query,
				     .fs_pipeline = d->fs     ? d->fs
						    : d->flat ? s->flat
							      : s->colour,
				     .cf_count = 2,
				     .depth_clip = true,
				     .depth_func =
					 d->depth_func ? d->depth_func : AGX_CMD_ZS_FUNC_ALWAYS,
				     .depth_write = d->depth_write,
				     .stencil = d->stencil,
				     .front = stencil,
				     .back = stencil };
	uint8_t words[AGX_PPP_MAX_LENGTH];
	uint64_t vertices = d->vertex_buffer
				? d->vertex_buffer
				: sim_arena_put(&s->data, d->vertices, d->num_vertices * 32ull, 16);
	uint32_t uniforms[3] = { (uint32_t)vertices, (uint32_t)(vertices >> 32) };
	uint64_t uva, indices = 0, pva;
	uint32_t vs;

	memcpy(&uniforms[2], &d->point_size, 4);
	uva = sim_arena_put(&s->data, uniforms, sizeof(uniforms), 16);
	vs = pipeline(s, d->point_size ? s->vs_sized_code : s->vs_code, uva, 6, NULL);
	size_t n = 0, ppp_size;

	ppp.cf_count = d->point_coord ? 3 : 2;
	ppp.cf = put_code(s, words,
			  agx_cf_bindings(words, cf, ppp.cf_count, 5, d->point_coord ? 7 : 5), 4);
	ppp_size = agx_ppp_pack(words, &ppp);
	pva = sim_arena_put(&s->data, words, ppp_size, 16);
	if (d->indices)
		indices = sim_arena_put(&s->data, d->indices, d->count * 2ull, 16);
	if (!vertices || !uva || vs == ~0u || ppp.cf == ~0u || !pva || (d->indices && !indices))
		return 0;
	n += agx_vdm_vertex(out + n, vs, d->point_size ? 9 : 8);
	if (d->restart)
		n += agx_vdm_restart(out + n, 0xffff);
	n += agx_vdm_ppp(out + n, pva, ppp_size);
	n += agx_vdm_draw(out + n,
			  &(struct agx_vdm_draw){ .primitive = d->primitive,
						  .count = d->count,
						  .instances = d->instances ? d->instances : 1,
						  .index_size = d->indices ? 2 : 0,
						  .indices = indices,
						  .index_bytes = (d->count * 2 + 3) & ~3u,
						  .restart = d->restart });
	return n;
}

bool sim_scene_render(struct sim_scene *s, const struct sim_scene_target *t,
		      const struct sim_scene_draw *draws, unsigned num_draws,
		      struct agx_fw_work_render *r)
{
	uint8_t pbe_raw[AGX_CMD_PBE_LENGTH], stream[4096];
	struct agx_cmd_pbe pbe = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				   .layout = AGX_CMD_LAYOUT_LINEAR,
				   .channels = AGX_CMD_CHANNELS_R8G8B8A8,
				   .type = AGX_CMD_TEXTURE_TYPE_UNORM,
				   .swizzle_r = AGX_CMD_CHANNEL_R,
				   .swizzle_g = AGX_CMD_CHANNEL_G,
				   .swizzle_b = AGX_CMD_CHANNEL_B,
				   .swizzle_a = AGX_CMD_CHANNEL_A,
				   .width = t->width,
				   .height = t->height,
				   .buffer = t->va,
				   .stride = t->stride };
	struct agx_pipeline bind = { .num_textures = 1 };
	struct agx_cmd_zls_control zls = { .z_load_enable = t->z_load,
					   .z_store_enable = t->z_store,
					   .s_load_enable = t->s_load,
					   .s_store_enable = t->s_store,
					   .z_format = t->z16 ? AGX_CMD_ZLS_FORMAT_Z16
							      : AGX_CMD_ZLS_FORMAT_Z32F };
	uint8_t zls_raw[AGX_CMD_ZLS_CONTROL_LENGTH];
	uint32_t clear;
	size_t n = 0;

	if (!agx_cmd_pbe_fits(&pbe))
		return false;
	agx_cmd_pbe_pack(pbe_raw, &pbe);
	agx_cmd_zls_control_pack(zls_raw, &zls);
	memcpy(&clear, &t->depth_clear, 4);
	if (t->z16)
		clear = (uint32_t)(t->depth_clear * 65535.0f + 0.5f);
	for (unsigned i = 0; i < num_draws; i++) {
		size_t m;

		if (n + 64 > sizeof(stream) || !(m = draw_words(s, t, &draws[i], stream + n)))
			return false;
		n += m;
	}
	n += agx_vdm_terminate(stream + n);
	bind.textures = sim_arena_put(&s->data, pbe_raw, sizeof(pbe_raw), 16);
	*r = (struct agx_fw_work_render){ .usc_base = s->code.va,
					  .tvb = t->tvb,
					  .tvb_size = t->tvb_size,
					  .width = t->width,
					  .height = t->height,
					  .samples = 1,
					  .utile_width = t->tile_w,
					  .utile_height = t->tile_h,
					  .sample_size = 4,
					  .load_pipeline = s->clear,
					  .depth_buffer = t->depth,
					  .stencil_buffer = t->stencil,
					  .depth_clear = clear,
					  .stencil_clear = t->stencil_clear,
					  .depth_bias_array = t->depth_bias,
					  .depth_bias_count = t->depth_bias_count,
					  .visibility_result_buffer = t->visibility,
					  .visibility_count = t->visibility_count,
					  .store_pipeline =
					      pipeline(s, s->store_code, 0, 0, &bind) };
	memcpy(&r->zls_control, zls_raw, sizeof(zls_raw));
	if (t->partial) {
		/* the image as a texture, and a sampler for loads */
		struct agx_cmd_texture tex = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
					       .layout = AGX_CMD_LAYOUT_LINEAR,
					       .channels = AGX_CMD_CHANNELS_R8G8B8A8,
					       .type = AGX_CMD_TEXTURE_TYPE_UNORM,
					       .swizzle_r = AGX_CMD_CHANNEL_R,
					       .swizzle_g = AGX_CMD_CHANNEL_G,
					       .swizzle_b = AGX_CMD_CHANNEL_B,
					       .swizzle_a = AGX_CMD_CHANNEL_A,
					       .width = t->width,
					       .height = t->height,
					       .address = t->va,
					       .stride = t->stride };
		struct agx_cmd_sampler sampler = { AGX_CMD_SAMPLER_DEFAULTS };
		uint8_t raw[24] = { 0 };
		struct agx_pipeline reload = { .num_textures = 1, .num_samplers = 1 };

		if (!agx_cmd_texture_fits(&tex))
			return false;
		agx_cmd_texture_pack(raw, &tex);
		reload.textures = sim_arena_put(&s->data, raw, sizeof(raw), 16);
		agx_cmd_sampler_pack(raw, &sampler);
		reload.samplers = sim_arena_put(&s->data, raw, 8, 16);
		r->partial_store_pipeline = r->store_pipeline;
		r->partial_reload_pipeline = pipeline(s, s->reload_code, 0, 0, &reload);
		if (!reload.textures || !reload.samplers || r->partial_reload_pipeline == ~0u)
			return false;
	}
	r->encoder = sim_arena_put(&s->data, stream, n, 16);
	r->encoder_end = r->encoder + n;
	return bind.textures && r->store_pipeline != ~0u && r->encoder;
}

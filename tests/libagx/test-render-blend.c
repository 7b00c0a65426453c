/*
 * test-render-blend: blending and colour masks as the compiler does them
 * in the fragment shader (agx_lower_blend.c), through the real stack,
 * against a CPU model of GLES 3.0 section 4.1.7.
 *
 * For every colour-renderable format the PBE writes, a target of random
 * contents is reloaded and 64 draws each cover an 8x4 block of it, each
 * with its own blend state (equations, factors, a blend constant, a
 * colour mask) drawn from a fixed-seed generator, and its own source
 * colour, fixed-point sources past the format's range included.  Every
 * pixel is compared with the model's result, rounded to the format the
 * way agx/format.h packs it, within the format's precision: a code of a
 * normalized channel (and one of the 8-bit tile format for channels
 * narrower than 8 bits, which the tilebuffer keeps in bytes), an ulp of a
 * float one; components the mask keeps must be exactly as they were.
 * Integer targets are never blended; their masks are checked exactly.
 * The float shader also writes EXT_blend_func_extended's second source
 * (index 1), which the SRC1 factors read.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agx/format.h"
#include "render-rig.h"
#include "sanitized.h"

#define W      64
#define H      32
#define BW     8 /* a draw's block */
#define BH     4
#define BLOCKS ((W / BW) * (H / BH))

static const char vs_src[] = "#version 300 es\n"
			     "layout(location = 0) in vec2 pos;\n"
			     "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_float[] = "#version 300 es\n"
			       "#extension GL_EXT_blend_func_extended : require\n"
			       "precision highp float;\n"
			       "uniform vec4 colour;\n"
			       "uniform vec4 colour1;\n"
			       "layout(location = 0) out vec4 o;\n"
			       "layout(location = 0, index = 1) out vec4 o1;\n"
			       "void main() { o = colour; o1 = colour1; }\n";
static const char fs_uint[] = "#version 300 es\n"
			      "uniform highp uvec4 colour;\n"
			      "layout(location = 0) out highp uvec4 o;\n"
			      "void main() { o = colour; }\n";
static const char fs_sint[] = "#version 300 es\n"
			      "uniform highp ivec4 colour;\n"
			      "layout(location = 0) out highp ivec4 o;\n"
			      "void main() { o = colour; }\n";

static const enum agx_format formats[] = {
	AGX_FORMAT_R8_UNORM,	       AGX_FORMAT_R8G8_UNORM,	     AGX_FORMAT_R8G8B8A8_UNORM,
	AGX_FORMAT_R8G8B8A8_SRGB,      AGX_FORMAT_R5G6B5_UNORM,	     AGX_FORMAT_R4G4B4A4_UNORM,
	AGX_FORMAT_R5G5B5A1_UNORM,     AGX_FORMAT_R10G10B10A2_UNORM, AGX_FORMAT_R16G16B16A16_UNORM,
	AGX_FORMAT_R8G8B8A8_SNORM,     AGX_FORMAT_R16_FLOAT,	     AGX_FORMAT_R16G16_FLOAT,
	AGX_FORMAT_R16G16B16A16_FLOAT, AGX_FORMAT_R32_FLOAT,	     AGX_FORMAT_R32G32_FLOAT,
	AGX_FORMAT_R32G32B32A32_FLOAT, AGX_FORMAT_R11G11B10_FLOAT,   AGX_FORMAT_R8_UINT,
	AGX_FORMAT_R8G8B8A8_SINT,      AGX_FORMAT_R16G16_UINT,	     AGX_FORMAT_R10G10B10A2_UINT,
	AGX_FORMAT_R32G32B32A32_SINT,
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)((rng >> 16) % n);
}

static float rndf(float lo, float hi)
{
	return lo + (hi - lo) * (float)rnd(1u << 20) / (float)(1u << 20);
}

struct draw_case {
	struct agx_blend_rt blend;
	unsigned keep;
	float src[4], src1[4], constant[4];
	uint32_t isrc[4];
};

enum kind { UNORM, SNORM, FLOAT, INTEGER };

/* agx_blend_factor's values, ZERO .. ONE_MINUS_SRC1_ALPHA */
#define NUM_FACTORS (AGX_BLEND_ONE_MINUS_SRC1_ALPHA + 1)

static enum kind kind_of(const struct agx_format_info *fi)
{
	if (fi->kind != AGX_FORMAT_KIND_FLOAT)
		return INTEGER;
	if (fi->hw_type == AGX_CMD_TEXTURE_TYPE_FLOAT)
		return FLOAT;
	return fi->hw_type == AGX_CMD_TEXTURE_TYPE_SNORM ? SNORM : UNORM;
}

static void make_case(struct draw_case *c, enum kind k)
{
	static const enum agx_blend_op ops[] = { AGX_BLEND_ADD,	     AGX_BLEND_ADD,
						 AGX_BLEND_SUBTRACT, AGX_BLEND_REVERSE_SUBTRACT,
						 AGX_BLEND_MIN,	     AGX_BLEND_MAX };
	/* fixed point: sources past the range, which blending clamps first */
	float lo = k == FLOAT	? -0.5f
		   : k == SNORM ? -1.25f
				: -0.25f,
	      hi = k == FLOAT ? 2.0f : 1.25f;

	memset(c, 0, sizeof(*c));
	c->blend = (struct agx_blend_rt){
		.enable = rnd(8) != 0,
		.rgb_op = ops[rnd(6)],
		.alpha_op = ops[rnd(6)],
		.rgb_src = (enum agx_blend_factor)rnd(NUM_FACTORS),
		.rgb_dst = (enum agx_blend_factor)rnd(NUM_FACTORS),
		.alpha_src = (enum agx_blend_factor)rnd(NUM_FACTORS),
		.alpha_dst = (enum agx_blend_factor)rnd(NUM_FACTORS),
	};
	if (rnd(4) == 0)
		c->keep = 1 + rnd(15);
	for (unsigned i = 0; i < 4; i++) {
		c->src[i] = rndf(lo, hi);
		c->src1[i] = rndf(lo, hi);
		c->constant[i] = rndf(0, 1); /* glBlendColor clamps it (ES 3.0) */
		c->isrc[i] = (uint32_t)rnd(1u << 16) * 65599u;
	}
}

static double clampd(double v, enum kind k)
{
	double lo = k == SNORM ? -1 : 0;

	if (k != UNORM && k != SNORM)
		return v;
	return v < lo ? lo : v > 1 ? 1 : v;
}

static double factor(enum agx_blend_factor f, unsigned c, const double *s, const double *s1,
		     const double *d, const double *k)
{
	switch (f) {
	case AGX_BLEND_ZERO:
		return 0;
	case AGX_BLEND_ONE:
		return 1;
	case AGX_BLEND_SRC_COLOR:
		return s[c];
	case AGX_BLEND_ONE_MINUS_SRC_COLOR:
		return 1 - s[c];
	case AGX_BLEND_DST_COLOR:
		return d[c];
	case AGX_BLEND_ONE_MINUS_DST_COLOR:
		return 1 - d[c];
	case AGX_BLEND_SRC_ALPHA:
		return s[3];
	case AGX_BLEND_ONE_MINUS_SRC_ALPHA:
		return 1 - s[3];
	case AGX_BLEND_DST_ALPHA:
		return d[3];
	case AGX_BLEND_ONE_MINUS_DST_ALPHA:
		return 1 - d[3];
	case AGX_BLEND_CONSTANT_COLOR:
		return k[c];
	case AGX_BLEND_ONE_MINUS_CONSTANT_COLOR:
		return 1 - k[c];
	case AGX_BLEND_CONSTANT_ALPHA:
		return k[3];
	case AGX_BLEND_ONE_MINUS_CONSTANT_ALPHA:
		return 1 - k[3];
	case AGX_BLEND_SRC_ALPHA_SATURATE:
		return c == 3 ? 1 : fmin(s[3], 1 - d[3]);
	case AGX_BLEND_SRC1_COLOR:
		return s1[c];
	case AGX_BLEND_ONE_MINUS_SRC1_COLOR:
		return 1 - s1[c];
	case AGX_BLEND_SRC1_ALPHA:
		return s1[3];
	case AGX_BLEND_ONE_MINUS_SRC1_ALPHA:
		return 1 - s1[3];
	}
	return 0;
}

/* GLES 3.0 section 4.1.7 for one pixel: dst as the target holds it, out before rounding. */
static void model(const struct draw_case *c, enum kind k, const float dst[4], float out[4])
{
	double s[4], s1[4], d[4], kc[4];

	for (unsigned i = 0; i < 4; i++) {
		s[i] = clampd(c->src[i], k);
		s1[i] = clampd(c->src1[i], k);
		d[i] = dst[i];
		kc[i] = clampd(c->constant[i], k);
	}
	for (unsigned i = 0; i < 4; i++) {
		enum agx_blend_op op = i == 3 ? c->blend.alpha_op : c->blend.rgb_op;
		double sf = clampd(
			   factor(i == 3 ? c->blend.alpha_src : c->blend.rgb_src, i, s, s1, d, kc),
			   k),
		       df = clampd(
			   factor(i == 3 ? c->blend.alpha_dst : c->blend.rgb_dst, i, s, s1, d, kc),
			   k),
		       r;

		if (!c->blend.enable)
			r = c->src[i];
		else if (op == AGX_BLEND_MIN)
			r = fmin(s[i], d[i]);
		else if (op == AGX_BLEND_MAX)
			r = fmax(s[i], d[i]);
		else if (op == AGX_BLEND_SUBTRACT)
			r = s[i] * sf - d[i] * df;
		else if (op == AGX_BLEND_REVERSE_SUBTRACT)
			r = d[i] * df - s[i] * sf;
		else
			r = s[i] * sf + d[i] * df;
		out[i] = (float)r;
	}
}

static double srgb_encode(double l)
{
	l = l < 0 ? 0 : l > 1 ? 1 : l;
	return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

/* How far a channel of the format may be from the model (section 2.1.6's precision). */
static double tolerance(const struct agx_format_info *fi, unsigned ch, double want)
{
	unsigned b = fi->bits[ch];

	switch (kind_of(fi)) {
	case UNORM:
		/* channels under 8 bits pass through the tilebuffer's bytes on the way */
		return 1.0 / ((1u << b) - 1) + (b < 8 ? 2.0 / 255 : 0) + 1e-6;
	case SNORM:
		return 1.0 / ((1u << (b - 1)) - 1) + 1e-6;
	case FLOAT:
		/* an ulp of the mantissa (10 for halves, 6 and 5 for 11/10-bit floats) */
		return fabs(want) * (b == 32 ? 1e-5 : b == 16 ? 1.0 / 1024 : 1.0 / 32) + 1e-6;
	case INTEGER:
		break;
	}
	return 0;
}

static void check_pixel(const struct agx_format_info *fi, enum agx_format format,
			const struct draw_case *c, const uint8_t *before, const uint8_t *got,
			unsigned x, unsigned y, double *worst)
{
	enum kind k = kind_of(fi);
	uint8_t packed[16];
	float dst[4], out[4], want[4], have[4];

	if (k == INTEGER) {
		uint32_t b[4], g[4], wanted[4], src[4];

		if (fi->kind == AGX_FORMAT_KIND_UINT) {
			assert_true(agx_format_unpack_uint(format, before, b));
			assert_true(agx_format_pack_uint(format, c->isrc, packed));
			assert_true(agx_format_unpack_uint(format, packed, src));
			assert_true(agx_format_unpack_uint(format, got, g));
		} else {
			assert_true(agx_format_unpack_sint(format, before, (int32_t *)b));
			assert_true(agx_format_pack_sint(format, (const int32_t *)c->isrc, packed));
			assert_true(agx_format_unpack_sint(format, packed, (int32_t *)src));
			assert_true(agx_format_unpack_sint(format, got, (int32_t *)g));
		}
		for (unsigned i = 0; i < 4; i++) {
			wanted[i] = (c->keep >> i) & 1 ? b[i] : src[i];
			if (fi->read[i] < AGX_FORMAT_SWIZZLE_0 && g[i] != wanted[i])
				fail_msg("%s (%u, %u) component %u: 0x%x, not 0x%x (keep %x)",
					 fi->name, x, y, i, g[i], wanted[i], c->keep);
		}
		return;
	}

	assert_true(agx_format_unpack_float(format, before, dst));
	model(c, k, dst, out);
	/* the model's result as the format keeps it */
	assert_true(agx_format_pack_float(format, out, packed));
	assert_true(agx_format_unpack_float(format, packed, want));
	assert_true(agx_format_unpack_float(format, got, have));
	for (unsigned i = 0; i < 4; i++) {
		unsigned ch = fi->read[i];
		double g = have[i], w = want[i], tol;

		if (ch >= AGX_FORMAT_SWIZZLE_0)
			continue;
		if ((c->keep >> i) & 1) {
			if (have[i] != dst[i])
				fail_msg("%s (%u, %u) component %u is kept: %.9g, not %.9g",
					 fi->name, x, y, i, have[i], dst[i]);
			continue;
		}
		tol = tolerance(fi, ch, w);
		if (fi->srgb && i < 3) {
			g = srgb_encode(g), w = srgb_encode(w);
			tol = 1.0 / 255 + 1e-6;
		}
		if (!(fabs(g - w) <= tol))
			fail_msg("%s (%u, %u) component %u: %.9g, not %.9g (within %.3g): blend "
				 "%d op %d/%d factors %d %d %d %d, src %g %g %g %g, dst %g %g %g "
				 "%g, constant %g %g %g %g",
				 fi->name, x, y, i, g, w, tol, c->blend.enable, c->blend.rgb_op,
				 c->blend.alpha_op, c->blend.rgb_src, c->blend.rgb_dst,
				 c->blend.alpha_src, c->blend.alpha_dst, c->src[0], c->src[1],
				 c->src[2], c->src[3], dst[0], dst[1], dst[2], dst[3],
				 c->constant[0], c->constant[1], c->constant[2], c->constant[3]);
		if (tol > 0 && fabs(g - w) / tol > *worst)
			*worst = fabs(g - w) / tol;
	}
}

/* Random contents every channel of the format can hold, for the target to start with. */
static void fill_random(const struct agx_format_info *fi, enum agx_format format, uint8_t *texel)
{
	enum kind k = kind_of(fi);
	float v[4];

	if (k == INTEGER) {
		for (unsigned i = 0; i < fi->bytes; i++)
			texel[i] = (uint8_t)rnd(256);
		return;
	}
	for (unsigned i = 0; i < 4; i++)
		v[i] = k == SNORM ? rndf(-1, 1) : k == FLOAT ? rndf(0, 2) : rndf(0, 1);
	assert_true(agx_format_pack_float(format, v, texel));
}

static void blend_format(struct rig *r, enum agx_format format, double *worst)
{
	const struct agx_format_info *fi = agx_format_info(format);
	enum kind k = kind_of(fi);
	const char *fs_src = k != INTEGER			? fs_float
			     : fi->kind == AGX_FORMAT_KIND_UINT ? fs_uint
								: fs_sint;
	static struct draw_case cases[BLOCKS];
	static uint8_t before[W * H * 16];
	static uint32_t vu[64], fu[64];
	struct agx_render_pass pass = { .width = W, .height = H, .num_colour = 1 };
	struct agx_cf_binding cf[AGX_RENDER_MAX_CF];
	struct agx_compile_options fo = { 0 };
	struct shader vs, fs[BLOCKS];
	struct agx_render rp;
	struct image img;

	r->code_used = r->data_used = 0;
	rig_image_init(r, &img, format, W, H, true, 1, 0);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			uint8_t *t = (uint8_t *)rig_texel(&img, 0, x, y);

			fill_random(fi, format, t);
			memcpy(&before[(y * W + x) * 16], t, fi->bytes);
		}
	pass.colour[0] = rig_target(&img, 0, AGX_LOAD_RELOAD, AGX_STORE_STORE);
	rig_begin(r, &rp, &pass);
	agx_tilebuffer_compile_options(&rp.tib, &fo);
	rig_compile(r, AGX_SHADER_VERTEX, vs_src, NULL, &vs);
	for (unsigned i = 0; i < BLOCKS; i++) {
		unsigned bx = i % (W / BW), by = i / (W / BW);
		float x0 = (float)(bx * BW) / W * 2 - 1, x1 = (float)((bx + 1) * BW) / W * 2 - 1;
		float y0 = (float)(by * BH) / H * 2 - 1, y1 = (float)((by + 1) * BH) / H * 2 - 1;
		const float v[6][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 },
					{ x0, y0 }, { x1, y1 }, { x0, y1 } };
		uint64_t attribs[1] = { rig_data(r, v, sizeof(v)) };
		unsigned strides[1] = { 8 };
		struct agx_render_draw d;
		int bc;

		make_case(&cases[i], k);
		/* integers past a channel's range are undefined in GL: each in its own */
		for (unsigned c = 0; c < 4 && k == INTEGER; c++) {
			unsigned b =
			    fi->read[c] < AGX_FORMAT_SWIZZLE_0 ? fi->bits[fi->read[c]] : 32;
			uint32_t iv = cases[i].isrc[c];

			if (b < 32 && fi->kind == AGX_FORMAT_KIND_UINT)
				iv &= (1u << b) - 1;
			else if (b < 32)
				iv = (uint32_t)((int32_t)(iv << (32 - b)) >> (32 - b));
			cases[i].isrc[c] = iv;
		}
		fo.rt[0].blend = cases[i].blend;
		fo.rt[0].keep = cases[i].keep;
		rig_compile(r, AGX_SHADER_FRAGMENT, fs_src, &fo, &fs[i]);
		rig_draw_init(&d, &vs, &fs[i], rig_vertex_stage(&vs, vu, attribs, strides), W, H,
			      cf);
		rig_fs_colour(&d, &fs[i], fu,
			      k == INTEGER ? (const float *)cases[i].isrc : cases[i].src);
		for (unsigned u = 0; u < fs[i].bin.info.num_vars; u++)
			if (!strcmp(fs[i].bin.info.vars[u].name, "colour1"))
				memcpy(&fu[fs[i].bin.info.vars[u].uniform], cases[i].src1, 16);
		bc = fs[i].bin.info.blend_constant_uniform;
		if (bc >= 0)
			memcpy(&fu[bc], cases[i].constant, 16);
		d.draw = (struct agx_vdm_draw){ .primitive = AGX_CMD_PRIMITIVE_TRIANGLES,
						.count = 6,
						.instances = 1 };
		assert_int_equal(agx_render_draw(&rp, &d), 0);
	}
	assert_int_equal(rig_run(r, &rp), 0);

	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			check_pixel(fi, format, &cases[(y / BH) * (W / BW) + x / BW],
				    &before[(y * W + x) * 16], rig_texel(&img, 0, x, y), x, y,
				    worst);
	agx_shader_binary_finish(&vs.bin);
	for (unsigned i = 0; i < BLOCKS; i++)
		agx_shader_binary_finish(&fs[i].bin);
	agx_device_bo_close(r->dev, &img.bo);
}

static void test_blend_formats(void **state)
{
	struct rig r;

	rig_init(&r, *state);
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		double worst = 0;

		blend_format(&r, formats[i], &worst);
		print_message("# %s: %u blend states, the largest difference %.2f of the "
			      "tolerance\n",
			      agx_format_info(formats[i])->name, BLOCKS, worst);
	}
	rig_fini(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blend_formats),
	};

	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}

/*
 * test-tex-model: the texture model (tex-model.h) on values worked by hand
 * from GLES 3.0 section 3.8 -- a descriptor and texels where the layout
 * puts them, a bilinear centre, the wrap modes at texel -1, cube faces,
 * mipmap selection, lambda from gradients and its bounds, the switch-over
 * point c, depth comparisons, array layers, texelFetch and textureSize --
 * and then against the simulator's texture unit (sim/usc/texture.h) on
 * random lookups: every unambiguous answer must hold what it returns.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agx_cmdbuf.h"
#include "tex-model.h"
#include "texture.h"

#define ADDRESS 0x4000000000ull

static void init(struct tex_texture *t, enum tex_format f, enum tex_target target, unsigned w,
		 unsigned h, unsigned d, unsigned levels)
{
	struct tex_desc desc = { f, target, w, h, d, levels, false };

	assert_int_equal(tex_texture_init(t, &desc, ADDRESS, 7), 0);
}

/* Texel (x, y) of a layer and level set to (v, v + 1, v + 2, v + 3) in the model. */
static void set(struct tex_texture *t, unsigned level, unsigned layer, unsigned x, unsigned y,
		double v)
{
	double *p = (double *)tex_texel(t, level, layer, x, y);

	for (int c = 0; c < 4; c++)
		p[c] = v + c;
}

static const struct tex_sampler nearest = { .wrap_s = TEX_REPEAT, .wrap_t = TEX_REPEAT };
static const struct tex_sampler linear = { .mag = TEX_LINEAR, .min = TEX_LINEAR };

static void sample2d(const struct tex_texture *t, const struct tex_sampler *s, double u, double v,
		     double lod, struct tex_answer *a, enum tex_status want)
{
	struct tex_query q = { .kind = TEX_SAMPLE, .coord = { u, v }, .lod = lod };
	char why[256];
	enum tex_status got = tex_model_query(t, s, &q, a, why, sizeof(why));

	if (got != want)
		print_message("# (%g, %g) lod %g: %s\n", u, v, lod, why);
	assert_int_equal(got, want);
}

/* A query's status, said when it is not the one expected. */
static void expect(const struct tex_texture *t, const struct tex_sampler *s,
		   const struct tex_query *q, struct tex_answer *a, enum tex_status want)
{
	char why[256];
	enum tex_status got = tex_model_query(t, s, q, a, why, sizeof(why));

	if (got != want)
		print_message("# %s\n", why);
	assert_int_equal(got, want);
}

/* The descriptor's fields, and the texel bytes where agx/layout.h puts them. */
static void test_descriptor(void **state)
{
	struct tex_texture t;
	struct tex_desc linear_desc = { TEX_RGBA8, TEX_2D, 5, 3, 1, 1, true };
	struct agx_cmd_texture d;

	(void)state;
	assert_int_equal(tex_texture_init(&t, &linear_desc, ADDRESS + 0x100, 1), 0);
	assert_true(agx_cmd_texture_unpack(t.descriptor, &d));
	assert_int_equal(d.dimension, AGX_CMD_TEXTURE_DIM_TEX_2D);
	assert_int_equal(d.layout, AGX_CMD_LAYOUT_LINEAR);
	assert_int_equal(d.channels, AGX_CMD_CHANNELS_R8G8B8A8);
	assert_int_equal(d.type, AGX_CMD_TEXTURE_TYPE_UNORM);
	assert_int_equal(d.width, 5);
	assert_int_equal(d.height, 3);
	assert_int_equal(d.address, ADDRESS + 0x100);
	assert_int_equal(d.stride, 32); /* 20 bytes a row, rounded up to 32 */
	/* texel (3, 2): row 2 at 64 bytes, byte 12 of it; k / 255 */
	for (int c = 0; c < 4; c++)
		assert_true(fabs(tex_texel(&t, 0, 0, 3, 2)[c] - t.data[64 + 12 + c] / 255.0) <
			    1e-12);
	tex_texture_finish(&t);

	/* a 2D array of three 4x4 R32UI layers, two levels: twiddled, the chain's levels */
	struct tex_desc arr = { TEX_R32UI, TEX_2D_ARRAY, 4, 4, 3, 2, false };
	uint32_t raw;
	assert_int_equal(tex_texture_init(&t, &arr, ADDRESS, 2), 0);
	assert_true(agx_cmd_texture_unpack(t.descriptor, &d));
	assert_int_equal(d.layout, AGX_CMD_LAYOUT_TWIDDLED);
	assert_int_equal(d.depth, 3);
	assert_int_equal(d.last_level, 1);
	assert_true(d.unk_mipmapped);
	assert_int_equal(t.layout.levels, 3);
	memcpy(&raw, t.data + agx_layout_texel(&t.layout, 1, 2, 1, 0), 4);
	assert_int_equal(raw, (uint32_t)tex_texel(&t, 1, 2, 1, 0)[0]);
	assert_true(tex_texel(&t, 1, 2, 1, 0)[3] == 1); /* R32UI reads (r, 0, 0, 1) */
	tex_texture_finish(&t);

	/* a cube must be square; linear textures have one level */
	struct tex_desc bad = { TEX_RGBA8, TEX_CUBE, 4, 2, 1, 1, false };
	assert_int_equal(tex_texture_init(&t, &bad, ADDRESS, 0), -EINVAL);
	tex_texture_finish(&t);
	bad = (struct tex_desc){ TEX_RGBA8, TEX_2D, 4, 4, 1, 2, true };
	assert_int_equal(tex_texture_init(&t, &bad, ADDRESS, 0), -EINVAL);
	tex_texture_finish(&t);
}

/* A 2x2 texture's centre, bilinear: alpha = beta = 0.5, the four texels' mean (eq. 3.24). */
static void test_bilinear_centre(void **state)
{
	struct tex_texture t;
	struct tex_answer a;

	(void)state;
	init(&t, TEX_RGBA8, TEX_2D, 2, 2, 1, 1);
	set(&t, 0, 0, 0, 0, 0.0);
	set(&t, 0, 0, 1, 0, 0.2);
	set(&t, 0, 0, 0, 1, 0.4);
	set(&t, 0, 0, 1, 1, 0.8);
	sample2d(&t, &linear, 0.5, 0.5, 0, &a, TEX_OK);
	assert_true(fabs(a.point[0] - 0.35) < 1e-12);
	assert_true(fabs(a.point[3] - 3.35) < 1e-12);
	/* two axes of 2^-8 weight error over the taps' range 0.8, and 1e-5 of the largest */
	assert_true(fabs(a.tol[0] - (2 * (0x1p-8 + 2 * 0x1p-21) * 0.8 + 1e-5 * 0.8)) < 1e-9);
	/* a quarter in from the corner, u = 0.5 - 0.5: alpha 0 in x, 0.5 in y, clamped in x */
	struct tex_sampler clamp = linear;
	clamp.wrap_s = clamp.wrap_t = TEX_CLAMP_TO_EDGE;
	sample2d(&t, &clamp, 0.25, 0.5, 0, &a, TEX_OK);
	assert_true(fabs(a.point[0] - 0.2) < 1e-12); /* (0 + 0.4) / 2 */
	/* with repeat, u' = -0.25: texels 1 and 0, alpha 0.75 */
	sample2d(&t, &linear, 0.125, 0.25, 0, &a, TEX_OK);
	/* x: 0.75 * t0 + 0.25 * t1 ... u' = 0.25 - 0.5 = -0.25, i0 = -1 -> 1, alpha = 0.75 */
	/* rows y: v' = 0.5 - 0.5 = 0: row 0 only */
	assert_true(fabs(a.point[0] - (0.25 * 0.2 + 0.75 * 0.0)) < 1e-12);
	tex_texture_finish(&t);
}

/* Table 3.20 at i = -1 and -2 of a 4-texel axis: repeat 3, 2; mirrored 0, 1; clamp 0, 0. */
static void test_wrap(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	static const struct {
		enum tex_wrap w;
		unsigned at_minus1, at_minus2, at_4, at_9;
	} cases[] = {
		{ TEX_REPEAT, 3, 2, 0, 1 },
		{ TEX_MIRRORED_REPEAT, 0, 1, 3, 1 },
		{ TEX_CLAMP_TO_EDGE, 0, 0, 3, 3 },
	};

	(void)state;
	init(&t, TEX_R32F, TEX_2D, 4, 1, 1, 1);
	for (unsigned x = 0; x < 4; x++)
		set(&t, 0, 0, x, 0, 10.0 * x);
	for (unsigned i = 0; i < 3; i++) {
		struct tex_sampler s = { .wrap_s = cases[i].w, .wrap_t = TEX_REPEAT };

		sample2d(&t, &s, -0.5 / 4, 0.5, 0, &a, TEX_OK);
		assert_true(a.point[0] == 10.0 * cases[i].at_minus1);
		sample2d(&t, &s, -1.5 / 4, 0.5, 0, &a, TEX_OK);
		assert_true(a.point[0] == 10.0 * cases[i].at_minus2);
		sample2d(&t, &s, 4.5 / 4, 0.5, 0, &a, TEX_OK);
		assert_true(a.point[0] == 10.0 * cases[i].at_4);
		sample2d(&t, &s, 9.5 / 4, 0.5, 0, &a, TEX_OK);
		assert_true(a.point[0] == 10.0 * cases[i].at_9);
		/* on the edge between texels -1 and 0: ambiguous where they differ */
		sample2d(&t, &s, 0.0, 0.5, 0, &a,
			 cases[i].w == TEX_REPEAT ? TEX_AMBIGUOUS : TEX_OK);
	}
	tex_texture_finish(&t);
}

/* Table 3.21: a direction's face, sc, tc and ma, then nearest on a 4x4 face. */
static void test_cube_faces(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = nearest;
	static const struct {
		double d[3];
		unsigned face, x, y;
	} cases[] = {
		/* +X: sc = -rz = 0.3, tc = -ry = -0.2: s = 0.65, t = 0.4 -> (2, 1) */
		{ { 1, 0.2, -0.3 }, 0, 2, 1 },
		/* -X: sc = rz = 0.1, tc = -ry = 0.6: s = 0.55, t = 0.8 -> (2, 3) */
		{ { -1, -0.6, 0.1 }, 1, 2, 3 },
		/* +Y: sc = rx = 0.3, tc = rz = 0.7 (ma 1): s = 0.65, t = 0.85 -> (2, 3) */
		{ { 0.3, 1, 0.7 }, 2, 2, 3 },
		/* -Y: sc = rx = -0.8, tc = -rz = -0.4: s = 0.1, t = 0.3 -> (0, 1) */
		{ { -0.8, -1, 0.4 }, 3, 0, 1 },
		/* +Z: sc = rx = 0.1, tc = -ry = -0.1: s = 0.55, t = 0.45 -> (2, 1) */
		{ { 0.1, 0.1, 1 }, 4, 2, 1 },
		/* -Z: sc = -rx = 0.45, tc = -ry = -0.3: s = 0.725, t = 0.35 -> (2, 1) */
		{ { -0.45, 0.3, -1 }, 5, 2, 1 },
		/* scaled: the same face and texel as +X's */
		{ { 3.5, 0.7, -1.05 }, 0, 2, 1 },
	};

	(void)state;
	init(&t, TEX_R32F, TEX_CUBE, 4, 4, 1, 1);
	for (unsigned f = 0; f < 6; f++)
		for (unsigned y = 0; y < 4; y++)
			for (unsigned x = 0; x < 4; x++)
				set(&t, 0, f, x, y, 100.0 * f + 10 * y + x);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tex_query q = { .kind = TEX_SAMPLE,
				       .coord = { cases[i].d[0], cases[i].d[1], cases[i].d[2] } };

		expect(&t, &s, &q, &a, TEX_OK);
		assert_true(a.point[0] == 100.0 * cases[i].face + 10 * cases[i].y + cases[i].x);
	}
	/* |rx| = |rz|: two faces could be the major axis */
	struct tex_query tie = { .kind = TEX_SAMPLE, .coord = { 0.7, 0.1, -0.7 } };
	expect(&t, &s, &tie, &a, TEX_AMBIGUOUS);
	tex_texture_finish(&t);
}

/*
 * 3.8.10.4 on an 8x8 chain of four levels: nearest picks level
 * ceil(lambda + 0.5) - 1 (1.2 -> 1, 1.6 -> 2, 1.5 ambiguous, 9 -> the last);
 * linear blends floor(lambda) and the next by the fraction.
 */
static void test_mip_selection(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = { .mip = TEX_MIP_NEAREST };

	(void)state;
	init(&t, TEX_R16F, TEX_2D, 8, 8, 1, 4);
	for (unsigned l = 0; l < 4; l++)
		for (unsigned y = 0; y < (8u >> l); y++)
			for (unsigned x = 0; x < (8u >> l); x++)
				set(&t, l, 0, x, y, 1000.0 * l + 10 * y + x);
	sample2d(&t, &s, 0.3, 0.3, 1.2, &a, TEX_OK);
	assert_true(a.point[0] == 1000.0 + 11); /* 4x4: (1.2, 1.2) */
	sample2d(&t, &s, 0.3, 0.3, 1.6, &a, TEX_OK);
	assert_true(a.point[0] == 2000.0); /* 2x2: (0.6, 0.6) */
	sample2d(&t, &s, 0.3, 0.3, 1.5, &a, TEX_AMBIGUOUS);
	sample2d(&t, &s, 0.3, 0.3, 9, &a, TEX_OK);
	assert_true(a.point[0] == 3000.0);
	sample2d(&t, &s, 0.3, 0.3, -2, &a, TEX_OK);
	assert_true(a.point[0] == 22.0); /* magnified: level 0's (2, 2) */
	/* the sampler's clamp: max_lod 1 keeps 1.6 on level 1 */
	s.max_lod = 1;
	sample2d(&t, &s, 0.3, 0.3, 1.6, &a, TEX_OK);
	assert_true(a.point[0] == 1011.0);

	/* linear between levels: 1.25 is 0.75 of level 1 and 0.25 of level 2 */
	s = (struct tex_sampler){ .mip = TEX_MIP_LINEAR };
	sample2d(&t, &s, 0.3, 0.3, 1.25, &a, TEX_OK);
	assert_true(fabs(a.point[0] - (0.75 * 1011 + 0.25 * 2000)) < 1e-9);
	/* the answer covers lambda +- 2^-6 and the blend weight's error */
	assert_true(a.lo[0] < a.point[0] && a.hi[0] > a.point[0]);
	assert_true(fabs(a.hi[0] - a.lo[0] - 2 * 0x1p-6 * (2000 - 1011)) < 1e-6);
	assert_true(a.tol[0] > 0x1p-8 * (2000 - 1011) + 1e-5 * 1011 &&
		    a.tol[0] < 0x1p-8 * (2000 - 1011) + 1e-5 * 2000);
	tex_texture_finish(&t);
}

/*
 * rho from gradients (eq. 3.21) on a 16x16 chain: dPdx = (2/16, 0) alone is
 * rho 2, lambda 1; dPdx = (1/16, 1/16) is rho sqrt 2 ideally, and f may be
 * anywhere in [max(m_u, m_v), m_u + m_v] = [1, 2]: lambda [0, 1].
 */
static void test_gradients(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = { .mag = TEX_LINEAR, .min = TEX_NEAREST, .mip = TEX_MIP_LINEAR };
	struct tex_query q = {
		.kind = TEX_SAMPLE, .coord = { 0.3, 0.7 }, .grad = true, .dpdx = { 2.0 / 16, 0 }
	};

	(void)state;
	init(&t, TEX_RGBA16F, TEX_2D, 16, 16, 1, 5);
	expect(&t, &s, &q, &a, TEX_OK);
	/* lambda 1: level 1 alone (8x8 at (2.4, 5.6)) */
	assert_true(a.point[0] == tex_texel(&t, 1, 0, 2, 5)[0]);
	/* the same from dPdy */
	q.dpdx[0] = 0, q.dpdy[1] = 2.0 / 16;
	expect(&t, &s, &q, &a, TEX_OK);
	assert_true(a.point[0] == tex_texel(&t, 1, 0, 2, 5)[0]);
	/* diagonal: lambda in [0, 1] crosses c = 0, where LINEAR magnification meets NEAREST */
	q.dpdy[1] = 0, q.dpdx[0] = q.dpdx[1] = 1.0 / 16;
	expect(&t, &s, &q, &a, TEX_AMBIGUOUS);
	/* at lambda [2, 3] with NEAREST_MIPMAP_LINEAR there is no jump: the blend's range */
	q.dpdx[0] = q.dpdx[1] = 4.0 / 16;
	expect(&t, &s, &q, &a, TEX_OK);
	double l2 = tex_texel(&t, 2, 0, 1, 2)[0], l3 = tex_texel(&t, 3, 0, 0, 1)[0];
	/* the ideal lambda 2.5 halfway; the bounds from level 2 to level 3 */
	assert_true(fabs(a.point[0] - (l2 + l3) / 2) < 1e-12);
	assert_true(fabs(a.lo[0] - fmin(l2, l3)) < 0.02 * fabs(l2 - l3) + 1e-12);
	assert_true(fabs(a.hi[0] - fmax(l2, l3)) < 0.02 * fabs(l2 - l3) + 1e-12);
	tex_texture_finish(&t);
}

/*
 * 3.8.11: c is 0.5 for LINEAR magnification with NEAREST_MIPMAP_NEAREST, so
 * lambda 0.25 still magnifies (bilinear at level 0); with LINEAR_MIPMAP_*
 * c is 0 and the same lambda minifies.
 */
static void test_switch_over(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = { .mag = TEX_LINEAR, .min = TEX_NEAREST, .mip = TEX_MIP_NEAREST };

	(void)state;
	init(&t, TEX_R32F, TEX_2D, 2, 2, 1, 2);
	set(&t, 0, 0, 0, 0, 0);
	set(&t, 0, 0, 1, 0, 8);
	set(&t, 0, 0, 0, 1, 16);
	set(&t, 0, 0, 1, 1, 24);
	/* R32F is not filterable: LINEAR is refused */
	sample2d(&t, &s, 0.5, 0.5, 0.25, &a, TEX_UNDEFINED);
	tex_texture_finish(&t);
	init(&t, TEX_R16F, TEX_2D, 2, 2, 1, 2);
	set(&t, 0, 0, 0, 0, 0);
	set(&t, 0, 0, 1, 0, 8);
	set(&t, 0, 0, 0, 1, 16);
	set(&t, 0, 0, 1, 1, 24);
	sample2d(&t, &s, 0.5, 0.5, 0.25, &a, TEX_OK);
	assert_true(a.point[0] == 12); /* bilinear centre */
	sample2d(&t, &s, 0.5, 0.5, 0.5, &a, TEX_AMBIGUOUS);
	s.min = TEX_LINEAR;
	sample2d(&t, &s, 0.5, 0.5, 0.25, &a, TEX_OK);
	assert_true(a.point[0] == 12); /* minified at level 0, bilinear too */
	s.min = TEX_NEAREST;
	s.mag = TEX_NEAREST;
	sample2d(&t, &s, 0.3, 0.7, 0.25, &a, TEX_OK);
	assert_true(a.point[0] == 16); /* nearest either way: (0, 1) */
	tex_texture_finish(&t);
}

/* 3.8.16: LEQUAL passes when D_ref <= D_t; a fixed-point format clamps D_ref to [0, 1]. */
static void test_depth_compare(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = { .compare = true, .func = TEX_LEQUAL };
	struct tex_query q = { .kind = TEX_SAMPLE, .coord = { 0.2, 0.2 }, .compare = true };

	(void)state;
	init(&t, TEX_DEPTH16, TEX_2D, 2, 2, 1, 1);
	((double *)tex_texel(&t, 0, 0, 0, 0))[0] = 0.5;
	((double *)tex_texel(&t, 0, 0, 1, 0))[0] = 1.0;
	((double *)tex_texel(&t, 0, 0, 0, 1))[0] = 0.25;
	((double *)tex_texel(&t, 0, 0, 1, 1))[0] = 0.75;
	q.reference = 0.3;
	expect(&t, &s, &q, &a, TEX_OK);
	assert_true(a.point[0] == 1 && a.lo[0] == 1 && a.hi[0] == 1);
	s.func = TEX_GREATER;
	expect(&t, &s, &q, &a, TEX_OK);
	assert_true(a.point[0] == 0);
	/* 1.5 clamps to 1, onto the 1.0 at (1, 0): equal within the margin, ambiguous */
	s.func = TEX_LEQUAL;
	q.reference = 1.5;
	q.coord[0] = 0.7;
	expect(&t, &s, &q, &a, TEX_AMBIGUOUS);
	q.reference = 0.9; /* and 0.9 does not pass there */
	s.func = TEX_GREATER;
	expect(&t, &s, &q, &a, TEX_OK);
	assert_true(a.point[0] == 0);
	/* bilinear at the centre with 0.6: two of four pass, anything in [0, 1] */
	s.mag = s.min = TEX_LINEAR;
	q.coord[0] = q.coord[1] = 0.5;
	q.reference = 0.6;
	expect(&t, &s, &q, &a, TEX_OK);
	assert_true(a.mixed && a.lo[0] == 0 && a.hi[0] == 1 && a.point[0] == 0.5);
	/* a reference on a texel's depth is ambiguous */
	q.reference = 0.25;
	expect(&t, &s, &q, &a, TEX_AMBIGUOUS);
	/* LINEAR without comparison makes a depth texture incomplete */
	s.compare = q.compare = false;
	expect(&t, &s, &q, &a, TEX_UNDEFINED);
	tex_texture_finish(&t);
}

/* textureSize: 3D slices minify, array layers do not; texelFetch by level and offset. */
static void test_size_fetch(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_query q = { .kind = TEX_SIZE, .level = 1 };

	(void)state;
	init(&t, TEX_RGBA8UI, TEX_3D, 8, 4, 2, 3);
	expect(&t, NULL, &q, &a, TEX_OK);
	assert_true(a.integer && a.ivalue[0] == 4 && a.ivalue[1] == 2 && a.ivalue[2] == 1);
	q.level = 3;
	expect(&t, NULL, &q, &a, TEX_UNDEFINED);
	q = (struct tex_query){
		.kind = TEX_FETCH, .icoord = { 2, 1, 0 }, .level = 1, .offset = { 1, -1, 0 }
	};
	expect(&t, NULL, &q, &a, TEX_OK);
	assert_int_equal(a.ivalue[1], (uint32_t)tex_texel(&t, 1, 0, 3, 0)[1]);
	q.icoord[0] = 3; /* 3 + 1 is outside level 1's 4 texels */
	expect(&t, NULL, &q, &a, TEX_UNDEFINED);
	tex_texture_finish(&t);

	init(&t, TEX_RGBA8I, TEX_2D_ARRAY, 8, 8, 5, 2);
	q = (struct tex_query){ .kind = TEX_SIZE, .level = 1 };
	expect(&t, NULL, &q, &a, TEX_OK);
	assert_true(a.ivalue[0] == 4 && a.ivalue[1] == 4 && a.ivalue[2] == 5);
	/* a signed texel's components come back sign-extended */
	q = (struct tex_query){ .kind = TEX_FETCH, .icoord = { 1, 2, 4 }, .level = 0 };
	expect(&t, NULL, &q, &a, TEX_OK);
	assert_int_equal((int32_t)a.ivalue[2], (int32_t)tex_texel(&t, 0, 4, 1, 2)[2]);
	tex_texture_finish(&t);
}

/* The layer of a 2D array: clamp(floor(r + 0.5), 0, d - 1). */
static void test_array_layer(void **state)
{
	struct tex_texture t;
	struct tex_answer a;
	struct tex_sampler s = nearest;
	static const struct {
		double r;
		int layer; /* -1: ambiguous */
	} cases[] = { { 1.45, 1 }, { 1.55, 2 }, { 1.5, -1 }, { 1.48, -1 },
		      { -3, 0 },   { 10, 3 },	{ 2.7, 3 } };

	(void)state;
	init(&t, TEX_R32F, TEX_2D_ARRAY, 2, 2, 4, 1);
	for (unsigned l = 0; l < 4; l++)
		set(&t, 0, l, 1, 0, 100.0 * l);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tex_query q = { .kind = TEX_SAMPLE,
				       .coord = { 0.7, 0.3 },
				       .layer = cases[i].r };

		if (cases[i].layer < 0) {
			expect(&t, &s, &q, &a, TEX_AMBIGUOUS);
			continue;
		}
		expect(&t, &s, &q, &a, TEX_OK);
		assert_true(a.point[0] == 100.0 * cases[i].layer);
	}
	tex_texture_finish(&t);
}

/* ---- against the simulator's texture unit ------------------------------------------------ */

struct flat {
	const struct tex_texture *t;
};

static bool flat_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	const struct tex_texture *t = ((struct flat *)ctx)->t;

	if (addr < t->address || addr + size > t->address + t->size)
		return false;
	memcpy(dst, t->data + (addr - t->address), size);
	return true;
}

static uint64_t rng_state;

static double rnd(double lo, double hi)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
}

struct config {
	struct tex_desc desc;
	struct tex_sampler s;
	bool grad, offsets;
};

/* The simulator's result for q (its own arithmetic), as usc_texture_sample gives it. */
static bool sim_sample(const struct tex_texture *t, const struct tex_sampler *s,
		       const struct tex_query *q, uint32_t out[4], char *why, unsigned whysize)
{
	static const unsigned dims[] = { AGX_CMD_TEXTURE_DIM_TEX_2D, AGX_CMD_TEXTURE_DIM_TEX_3D,
					 AGX_CMD_TEXTURE_DIM_TEX_CUBE,
					 AGX_CMD_TEXTURE_DIM_TEX_2D_ARRAY };
	struct usc_texture_view v;
	struct flat f = { t };
	struct usc_memory mem = { .read = flat_read, .ctx = &f };
	uint8_t sampler[24];
	float grad[6];
	struct usc_sample a = { .lod = q->lod,
				.compare = q->compare,
				.reference = (float)q->reference };
	uint64_t fault = 0;

	assert_true(tex_sampler_pack(s, sampler));
	if (usc_texture_view_init(&v, t->descriptor, dims[t->desc.target], why, whysize) !=
	    USC_TEXEL_OK)
		return false;
	for (int k = 0; k < 3; k++) {
		a.s[k] = (float)q->coord[k];
		a.offset[k] = q->offset[k];
		grad[2 * k] = (float)q->dpdx[k];
		grad[2 * k + 1] = (float)q->dpdy[k];
	}
	/* the layer as the IR gives it: rounded, at least 0 */
	a.layer = (uint32_t)fmax(floor(q->layer + 0.5), 0);
	if (q->grad) {
		a.grad = grad;
		a.lod = 0;
	}
	return usc_texture_sample(&v, &mem, sampler, &a, out, &fault, why, whysize) == USC_TEXEL_OK;
}

/* One configuration: random lookups until `want` of them are unambiguous; returns the wrong. */
static unsigned cross_check(const struct config *cfg, unsigned want, const char *label)
{
	struct tex_texture t;
	unsigned ok = 0, wrong = 0, tries = 0;
	char why[256];

	assert_int_equal(tex_texture_init(&t, &cfg->desc, ADDRESS, want), 0);
	while (ok < want && tries++ < 50 * want) {
		struct tex_query q = { .kind = TEX_SAMPLE, .compare = cfg->s.compare };
		struct tex_answer a;
		uint32_t got[4];
		bool cube = cfg->desc.target == TEX_CUBE;

		for (int k = 0; k < 3; k++) {
			q.coord[k] = cube ? rnd(-1, 1) : rnd(-1.5, 2.5);
			if (cfg->grad) {
				/* mostly along one axis, so that f's bounds stay near rho */
				double g = exp2(rnd(-1, cfg->desc.levels + 0.5)) / cfg->desc.width;

				q.dpdx[k] = k == 0 ? g : rnd(-g, g) / 16;
				q.dpdy[k] = k == 1 ? g * rnd(0.2, 1) : rnd(-g, g) / 16;
			}
			if (cfg->offsets && !cube)
				q.offset[k] = (int)floor(rnd(-8, 8));
		}
		if (cube) {
			/* a face's major axis, at +-1 */
			int major = (int)floor(rnd(0, 3));

			q.coord[major] = rnd(0, 1) < 0.5 ? -1 : 1;
		}
		q.grad = cfg->grad;
		q.lod = rnd(-1, cfg->desc.levels + 0.5);
		q.layer = rnd(-1, cfg->desc.depth + 1);
		q.reference = rnd(-0.1, 1.1);
		if (tex_model_query(&t, &cfg->s, &q, &a, why, sizeof(why)) != TEX_OK)
			continue;
		ok++;
		if (!sim_sample(&t, &cfg->s, &q, got, why, sizeof(why))) {
			print_message("# %s: the simulator refused: %s\n", label, why);
			wrong++;
			continue;
		}
		/* a comparison's result is component 0 alone (GLSL's float) */
		for (int c = 0; c < (q.compare ? 1 : 4); c++) {
			float g;
			bool good;

			memcpy(&g, &got[c], 4);
			good = a.integer ? got[c] == a.ivalue[c]
					 : g >= a.lo[c] - a.tol[c] && g <= a.hi[c] + a.tol[c];
			if (!good && wrong++ < 4)
				print_message(
				    "# %s: (%g, %g, %g) layer %g lod %g grad (%g, %g, %g) "
				    "(%g, %g, %g) offset (%d, %d, %d) ref %g: component %d: "
				    "expected [%.9g, %.9g] +- %.3g, the simulator %.9g (%u)\n",
				    label, q.coord[0], q.coord[1], q.coord[2], q.layer, q.lod,
				    q.dpdx[0], q.dpdx[1], q.dpdx[2], q.dpdy[0], q.dpdy[1],
				    q.dpdy[2], q.offset[0], q.offset[1], q.offset[2], q.reference,
				    c, a.lo[c], a.hi[c], a.tol[c], g, got[c]);
			if (!good)
				break;
		}
	}
	tex_texture_finish(&t);
	if (ok < want)
		print_message("# %s: only %u unambiguous lookups of %u\n", label, ok, want);
	return wrong + (ok < want);
}

static void test_against_simulator(void **state)
{
	const struct tex_sampler rep = { .wrap_s = TEX_REPEAT,
					 .wrap_t = TEX_REPEAT,
					 .wrap_r = TEX_REPEAT };
	struct tex_sampler lin = rep, mir = rep, clamp = rep, mipn = rep, mipl = rep, shadow = rep;
	unsigned wrong = 0;

	(void)state;
	lin.mag = lin.min = TEX_LINEAR;
	mir.wrap_s = mir.wrap_t = mir.wrap_r = TEX_MIRRORED_REPEAT;
	clamp.wrap_s = clamp.wrap_t = clamp.wrap_r = TEX_CLAMP_TO_EDGE;
	mipn.mip = TEX_MIP_NEAREST;
	mipl.mag = mipl.min = TEX_LINEAR;
	mipl.mip = TEX_MIP_LINEAR;
	shadow.compare = true;
	shadow.func = TEX_LEQUAL;
	struct tex_sampler half = rep;
	half.mag = TEX_LINEAR;
	half.mip = TEX_MIP_NEAREST;
	struct tex_sampler lin_mir = lin, lin_clamp = lin, shadow_lin = shadow, mipl_clamp = mipl;
	lin_mir.wrap_s = lin_mir.wrap_t = lin_mir.wrap_r = TEX_MIRRORED_REPEAT;
	lin_clamp.wrap_s = lin_clamp.wrap_t = lin_clamp.wrap_r = TEX_CLAMP_TO_EDGE;
	shadow_lin.mag = shadow_lin.min = TEX_LINEAR;
	shadow_lin.func = TEX_GREATER;
	mipl_clamp.wrap_s = mipl_clamp.wrap_t = TEX_CLAMP_TO_EDGE;
	mipl_clamp.min_lod = 0.5;
	mipl_clamp.max_lod = 2.25;
	const struct config cfgs[] = {
		{ { TEX_RGBA8, TEX_2D, 8, 8, 1, 1, true }, rep, false, false },
		{ { TEX_RGBA8, TEX_2D, 7, 5, 1, 1, false }, lin, false, true },
		{ { TEX_RGBA16F, TEX_2D, 6, 9, 1, 1, false }, lin_mir, false, false },
		{ { TEX_RG8, TEX_2D, 5, 3, 1, 1, true }, lin_clamp, false, true },
		{ { TEX_R32F, TEX_2D, 13, 6, 1, 1, false }, mir, false, true },
		{ { TEX_RGBA32F, TEX_2D, 16, 16, 1, 5, false }, mipn, false, false },
		{ { TEX_RGBA8, TEX_2D, 16, 16, 1, 5, false }, mipl, false, false },
		{ { TEX_RGBA8, TEX_2D, 32, 16, 1, 6, false }, mipl, true, false },
		{ { TEX_RGBA8, TEX_2D, 8, 8, 1, 4, false }, half, false, false },
		{ { TEX_R16F, TEX_2D, 16, 16, 1, 5, false }, mipl_clamp, true, true },
		{ { TEX_RGBA8UI, TEX_2D, 9, 7, 1, 1, false }, clamp, false, true },
		{ { TEX_R32I, TEX_2D, 16, 8, 1, 5, false }, mipn, true, false },
		{ { TEX_RGBA8, TEX_3D, 4, 8, 6, 1, false }, lin, false, true },
		{ { TEX_R32F, TEX_3D, 8, 8, 8, 4, false }, mipn, true, false },
		{ { TEX_RGBA16F, TEX_3D, 8, 4, 8, 4, false }, mipl, false, false },
		{ { TEX_RGBA8, TEX_CUBE, 8, 8, 1, 1, false }, rep, false, false },
		{ { TEX_RGBA8, TEX_CUBE, 8, 8, 1, 1, false }, lin, false, false },
		{ { TEX_RGBA16F, TEX_CUBE, 16, 16, 1, 5, false }, mipl, true, false },
		{ { TEX_RGBA8, TEX_2D_ARRAY, 8, 4, 5, 1, false }, lin, false, true },
		{ { TEX_RGBA16I, TEX_2D_ARRAY, 8, 8, 3, 4, false }, mipn, false, false },
		{ { TEX_DEPTH32F, TEX_2D, 8, 8, 1, 1, false }, shadow, false, true },
		{ { TEX_DEPTH16, TEX_2D, 8, 8, 1, 1, false }, shadow_lin, false, false },
		{ { TEX_DEPTH16, TEX_CUBE, 8, 8, 1, 1, false }, shadow, false, false },
		{ { TEX_DEPTH32F, TEX_2D_ARRAY, 8, 8, 4, 1, false }, shadow, false, false },
	};

	for (unsigned i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		char label[64];

		snprintf(label, sizeof(label), "configuration %u (%s)", i,
			 tex_format_name(cfgs[i].desc.format));
		rng_state = i * 7919;
		wrong += cross_check(&cfgs[i], 400, label);
	}
	assert_int_equal(wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_bilinear_centre),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_cube_faces),
		cmocka_unit_test(test_mip_selection),
		cmocka_unit_test(test_gradients),
		cmocka_unit_test(test_switch_over),
		cmocka_unit_test(test_depth_compare),
		cmocka_unit_test(test_size_fetch),
		cmocka_unit_test(test_array_layer),
		cmocka_unit_test(test_against_simulator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

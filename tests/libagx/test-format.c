/*
 * test-format: the texel format table (agx/format.h) -- exact bits of known
 * values packed into every format, worked out by hand from the rules of
 * OpenGL ES 3.0 sections 2.1.1-2.1.6 and 3.8.3.2; unpacking them back; the
 * table's own consistency; write masks.
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

enum kind { F, U, I };

struct vector {
	enum agx_format format;
	enum kind kind;
	double in[4];	  /* floats, or integers for U and I */
	uint8_t want[16]; /* the texel's bytes */
};

#define V(f, k, ...) AGX_FORMAT_##f, k, __VA_ARGS__

static const struct vector vectors[] = {
	/* 8-bit: 0.5 * 255 = 127.5 ties to even, 0.2 * 255 = 51.000001 */
	{ V(R8_UNORM, F, { 0.5 }, { 0x80 }) },
	{ V(R8_UNORM, F, { 0.2 }, { 0x33 }) },
	{ V(R8_UNORM, F, { 1.5 }, { 0xff }) },
	{ V(R8_UNORM, F, { -1 }, { 0x00 }) },
	{ V(R8_UNORM, F, { NAN }, { 0x00 }) },
	{ V(R8_SNORM, F, { -1 }, { 0x81 }) },
	{ V(R8_SNORM, F, { 0.5 }, { 0x40 }) },	/* 63.5: even */
	{ V(R8_SNORM, F, { -0.5 }, { 0xc0 }) }, /* -63.5: even, -64 */
	{ V(R8_SNORM, F, { 2 }, { 0x7f }) },
	{ V(R8_UINT, U, { 300 }, { 0xff }) },
	{ V(R8_UINT, U, { 7 }, { 0x07 }) },
	{ V(R8_SINT, I, { -200 }, { 0x80 }) },
	{ V(R8_SINT, I, { -5 }, { 0xfb }) },
	{ V(R8_SINT, I, { 1000 }, { 0x7f }) },
	/* sRGB: 1.055 * 0.5^(1/2.4) - 0.055 = 0.735357; * 255 = 187.52 */
	{ V(R8_SRGB, F, { 0.5 }, { 0xbc }) },
	{ V(R8_SRGB, F, { 0.001 }, { 0x03 }) }, /* linear part: 12.92e-3 * 255 = 3.29 */
	{ V(A8_UNORM, F, { 0.1, 0.2, 0.3, 1 }, { 0xff }) },
	{ V(L8_UNORM, F, { 0.2, 1, 1, 1 }, { 0x33 }) },
	/* 16-bit */
	{ V(R16_UNORM, F, { 0.5 }, { 0x00, 0x80 }) },
	{ V(R16_SNORM, F, { -1 }, { 0x01, 0x80 }) },
	{ V(R16_UINT, U, { 70000 }, { 0xff, 0xff }) },
	{ V(R16_SINT, I, { -40000 }, { 0x00, 0x80 }) },
	{ V(R16_FLOAT, F, { 1 }, { 0x00, 0x3c }) },
	{ V(R16_FLOAT, F, { -2 }, { 0x00, 0xc0 }) },
	{ V(R16_FLOAT, F, { 65504 }, { 0xff, 0x7b }) },
	{ V(R16_FLOAT, F, { 65520 }, { 0x00, 0x7c }) }, /* halfway to 2^16: even, infinity */
	{ V(R16_FLOAT, F, { 1e-7 }, { 0x02, 0x00 }) },	/* denormal: 1.68 units of 2^-24 */
	{ V(R16_FLOAT, F, { 1.0 / 3 }, { 0x55, 0x35 }) },
	{ V(R16_FLOAT, F, { INFINITY }, { 0x00, 0x7c }) },
	{ V(R16_FLOAT, F, { NAN }, { 0x00, 0x7e }) },
	{ V(R8G8_UNORM, F, { 1, 0 }, { 0xff, 0x00 }) },
	{ V(R8G8_SNORM, F, { -1, 1 }, { 0x81, 0x7f }) },
	{ V(R8G8_UINT, U, { 1, 2 }, { 0x01, 0x02 }) },
	{ V(R8G8_SINT, I, { -1, -128 }, { 0xff, 0x80 }) },
	{ V(R8G8_SRGB, F, { 0.5, 1 }, { 0xbc, 0xff }) },
	{ V(L8A8_UNORM, F, { 0.2, 0, 0, 1 }, { 0x33, 0xff }) },
	{ V(R5G6B5_UNORM, F, { 1, 0, 0 }, { 0x1f, 0x00 }) },
	{ V(R5G6B5_UNORM, F, { 0, 1, 0 }, { 0xe0, 0x07 }) },
	{ V(B5G6R5_UNORM, F, { 1, 0, 0 }, { 0x00, 0xf8 }) },
	{ V(B5G6R5_UNORM, F, { 0, 0, 1 }, { 0x1f, 0x00 }) },
	{ V(B5G6R5_UNORM, F, { 0.5, 0.5, 0.5 }, { 0x10, 0x84 }) }, /* 16, 32 (31.5), 16 */
	{ V(R4G4B4A4_UNORM, F, { 1, 0, 0, 0.5 }, { 0x0f, 0x80 }) },
	{ V(A4B4G4R4_UNORM, F, { 1, 0, 0, 0.5 }, { 0x08, 0xf0 }) },
	{ V(R5G5B5A1_UNORM, F, { 0, 0, 0, 0.5 }, { 0x00, 0x00 }) }, /* 0.5 into one bit: even */
	{ V(R5G5B5A1_UNORM, F, { 0, 0, 0, 0.75 }, { 0x00, 0x80 }) },
	{ V(R5G5B5A1_UNORM, F, { 1, 1, 1, 1 }, { 0xff, 0xff }) },
	{ V(R5G5B5A1_UNORM, F, { 0, 1, 0, 0 }, { 0xe0, 0x03 }) },
	/* 32-bit */
	{ V(R32_UINT, U, { 0xdeadbeef }, { 0xef, 0xbe, 0xad, 0xde }) },
	{ V(R32_SINT, I, { -2 }, { 0xfe, 0xff, 0xff, 0xff }) },
	{ V(R32_FLOAT, F, { 1.5 }, { 0x00, 0x00, 0xc0, 0x3f }) },
	{ V(R16G16_UNORM, F, { 1, 0 }, { 0xff, 0xff, 0x00, 0x00 }) },
	{ V(R16G16_SNORM, F, { 0, -1 }, { 0x00, 0x00, 0x01, 0x80 }) },
	{ V(R16G16_UINT, U, { 1, 65535 }, { 0x01, 0x00, 0xff, 0xff }) },
	{ V(R16G16_SINT, I, { -1, 32767 }, { 0xff, 0xff, 0xff, 0x7f }) },
	{ V(R16G16_FLOAT, F, { 1, -0.0 }, { 0x00, 0x3c, 0x00, 0x80 }) },
	/* 11-bit 1.0 = 15 << 6, 2.0 = 16 << 6; 10-bit 0.5 = 14 << 5 */
	{ V(R11G11B10_FLOAT, F, { 1, 2, 0.5 }, { 0xc0, 0x03, 0x20, 0x70 }) },
	/* negative: 0; too large: the largest finite (0x7bf, 0x3df); +inf: infinity (0x3e0) */
	{ V(R11G11B10_FLOAT, F, { -1, 1e9, INFINITY }, { 0x00, 0xf8, 0x3d, 0xf8 }) },
	{ V(R10G10B10A2_UNORM, F, { 1, 0, 0.5, 1.0 / 3 }, { 0xff, 0x03, 0x00, 0x60 }) },
	{ V(R10G10B10A2_UINT, U, { 1023, 5, 2000, 3 }, { 0xff, 0x17, 0xf0, 0xff }) },
	/* shared exponent 16: r 256, g 128, b 0 (equations 3.2-3.4) */
	{ V(R9G9B9E5_FLOAT, F, { 1, 0.5, 0 }, { 0x00, 0x01, 0x01, 0x80 }) },
	{ V(R9G9B9E5_FLOAT, F, { 0, 0, 0 }, { 0x00, 0x00, 0x00, 0x00 }) },
	{ V(R8G8B8A8_UNORM, F, { 1, 0.5, 0, 0.2 }, { 0xff, 0x80, 0x00, 0x33 }) },
	{ V(R8G8B8A8_SNORM, F, { 1, -1, 0, 0.5 }, { 0x7f, 0x81, 0x00, 0x40 }) },
	{ V(R8G8B8A8_UINT, U, { 1, 2, 3, 256 }, { 0x01, 0x02, 0x03, 0xff }) },
	{ V(R8G8B8A8_SINT, I, { -1, 2, -3, 4 }, { 0xff, 0x02, 0xfd, 0x04 }) },
	{ V(R8G8B8A8_SRGB, F, { 0.5, 0.5, 0.5, 0.5 }, { 0xbc, 0xbc, 0xbc, 0x80 }) },
	{ V(B8G8R8A8_UNORM, F, { 1, 0.5, 0, 0.2 }, { 0x00, 0x80, 0xff, 0x33 }) },
	{ V(R8G8B8X8_UNORM, F, { 1, 0, 0, 0 }, { 0xff, 0x00, 0x00, 0xff }) },
	{ V(R8G8B8X8_SNORM, F, { 1, 0, 0, 0 }, { 0x7f, 0x00, 0x00, 0x7f }) },
	{ V(R8G8B8X8_UINT, U, { 1, 2, 3, 9 }, { 0x01, 0x02, 0x03, 0x01 }) },
	{ V(R8G8B8X8_SINT, I, { 1, 2, 3, 9 }, { 0x01, 0x02, 0x03, 0x01 }) },
	{ V(R8G8B8X8_SRGB, F, { 0.5, 0, 1, 0 }, { 0xbc, 0x00, 0xff, 0xff }) },
	{ V(B8G8R8X8_UNORM, F, { 1, 0.5, 0, 0 }, { 0x00, 0x80, 0xff, 0xff }) },
	/* 64-bit */
	{ V(R32G32_UINT, U, { 1, 0xffffffff }, { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff }) },
	{ V(R32G32_SINT, I, { -1, 1 }, { 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0 }) },
	{ V(R32G32_FLOAT, F, { 1, 2 }, { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40 }) },
	{ V(R16G16B16A16_UNORM, F, { 1, 0, 0, 1 }, { 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff }) },
	{ V(R16G16B16A16_SNORM, F, { -1, 0, 0, 1 }, { 0x01, 0x80, 0, 0, 0, 0, 0xff, 0x7f }) },
	{ V(R16G16B16A16_UINT, U, { 1, 2, 3, 4 }, { 1, 0, 2, 0, 3, 0, 4, 0 }) },
	{ V(R16G16B16A16_SINT, I, { -1, 2, -3, 4 }, { 0xff, 0xff, 2, 0, 0xfd, 0xff, 4, 0 }) },
	{ V(R16G16B16A16_FLOAT, F, { 1, 2, 0.5, -1 }, { 0, 0x3c, 0, 0x40, 0, 0x38, 0, 0xbc }) },
	{ V(R16G16B16X16_UINT, U, { 1, 2, 3, 9 }, { 1, 0, 2, 0, 3, 0, 1, 0 }) },
	{ V(R16G16B16X16_SINT, I, { -1, 2, 3, 9 }, { 0xff, 0xff, 2, 0, 3, 0, 1, 0 }) },
	{ V(R16G16B16X16_FLOAT, F, { 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0x3c }) },
	/* 128-bit */
	{ V(R32G32B32A32_UINT, U, { 1, 2, 3, 4 }, { 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4 }) },
	{ V(R32G32B32A32_SINT, I, { -1, 0, 0, -2 },
	    { 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff }) },
	{ V(R32G32B32A32_FLOAT, F, { 1, 0, 0, -2 },
	    { 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0 }) },
	{ V(R32G32B32X32_UINT, U, { 5, 6, 7, 8 }, { 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 1 }) },
	{ V(R32G32B32X32_SINT, I, { 5, 6, 7, 8 }, { 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 1 }) },
	{ V(R32G32B32X32_FLOAT, F, { 0, 0, 0, 0 },
	    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f }) },
};

static void pack(const struct vector *v, uint8_t texel[16])
{
	float f[4];
	uint32_t u[4];
	int32_t s[4];

	/* each vector's inputs as its kind takes them (a float one's may be NaN or infinite) */
	for (unsigned c = 0; c < 4; c++) {
		f[c] = (float)v->in[c];
		/* through int64_t: a negative input wraps, as it would as a uint */
		u[c] = v->kind == U ? (uint32_t)(int64_t)v->in[c] : 0;
		s[c] = v->kind == I ? (int32_t)v->in[c] : 0;
	}
	memset(texel, 0xcc, 16);
	if (v->kind == F)
		assert_true(agx_format_pack_float(v->format, f, texel));
	else if (v->kind == U)
		assert_true(agx_format_pack_uint(v->format, u, texel));
	else
		assert_true(agx_format_pack_sint(v->format, s, texel));
}

/* Every vector packs to its bytes exactly, and nothing past the texel is written. */
static void test_pack_vectors(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const struct agx_format_info *info = agx_format_info(vectors[i].format);
		uint8_t texel[16];

		assert_non_null(info);
		pack(&vectors[i], texel);
		for (unsigned b = 0; b < 16; b++) {
			uint8_t want = b < info->bytes ? vectors[i].want[b] : 0xcc;

			if (texel[b] != want)
				fail_msg("%s vector %u: byte %u is 0x%02x, not 0x%02x", info->name,
					 i, b, texel[b], want);
		}
	}
}

/* Every colour format of the table has a vector. */
static void test_every_format_has_a_vector(void **state)
{
	(void)state;
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *info = agx_format_info((enum agx_format)f);
		bool found = false;

		assert_non_null(info);
		if (info->kind > AGX_FORMAT_KIND_SINT)
			continue;
		for (unsigned i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
			found |= vectors[i].format == (enum agx_format)f;
		if (!found)
			fail_msg("no vector for %s", info->name);
	}
}

static void assert_rgba(const float got[4], float r, float g, float b, float a)
{
	const float want[4] = { r, g, b, a };

	for (unsigned c = 0; c < 4; c++)
		if (!(got[c] == want[c] || (isnan(got[c]) && isnan(want[c]))))
			fail_msg("component %u is %.9g, not %.9g", c, got[c], want[c]);
}

/* Texels read back as the texture unit returns them: swizzled, with 0, 0, 0, 1 filled in. */
static void test_unpack(void **state)
{
	float f[4];
	uint32_t u[4];
	int32_t s[4];

	(void)state;
	assert_true(agx_format_unpack_float(AGX_FORMAT_R8_UNORM, (uint8_t[]){ 0x80 }, f));
	assert_rgba(f, (float)(128 / 255.0), 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R8_SNORM, (uint8_t[]){ 0x80 }, f));
	assert_rgba(f, -1, 0, 0, 1); /* -128 / 127 clamps (section 2.1.6) */
	assert_true(agx_format_unpack_float(AGX_FORMAT_A8_UNORM, (uint8_t[]){ 0xff }, f));
	assert_rgba(f, 0, 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_L8_UNORM, (uint8_t[]){ 0x33 }, f));
	assert_rgba(f, 0.2f, 0.2f, 0.2f, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_L8A8_UNORM, (uint8_t[]){ 0x33, 0 }, f));
	assert_rgba(f, 0.2f, 0.2f, 0.2f, 0);
	assert_true(agx_format_unpack_float(AGX_FORMAT_B5G6R5_UNORM, (uint8_t[]){ 0x00, 0xf8 }, f));
	assert_rgba(f, 1, 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R5G6B5_UNORM, (uint8_t[]){ 0xe0, 0x07 }, f));
	assert_rgba(f, 0, 1, 0, 1);
	assert_true(
	    agx_format_unpack_float(AGX_FORMAT_A4B4G4R4_UNORM, (uint8_t[]){ 0x0f, 0x00 }, f));
	assert_rgba(f, 0, 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R16_FLOAT, (uint8_t[]){ 0x00, 0x7c }, f));
	assert_rgba(f, INFINITY, 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R16_FLOAT, (uint8_t[]){ 0x01, 0x80 }, f));
	assert_rgba(f, -0x1p-24f, 0, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R11G11B10_FLOAT,
					    (uint8_t[]){ 0xc0, 0x03, 0x20, 0x70 }, f));
	assert_rgba(f, 1, 2, 0.5f, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R9G9B9E5_FLOAT,
					    (uint8_t[]){ 0x00, 0x01, 0x01, 0x80 }, f));
	assert_rgba(f, 1, 0.5f, 0, 1);
	assert_true(agx_format_unpack_float(AGX_FORMAT_R8G8B8A8_SRGB,
					    (uint8_t[]){ 0xff, 0, 0x80, 0x80 }, f));
	assert_float_equal(f[0], 1, 1e-6);
	assert_float_equal(f[2], 0.2158605, 1e-6); /* ((128/255 + 0.055) / 1.055)^2.4 */
	assert_float_equal(f[3], 128 / 255.0, 1e-7);
	assert_true(
	    agx_format_unpack_float(AGX_FORMAT_R8G8B8X8_UNORM, (uint8_t[]){ 0xff, 0, 0, 0x00 }, f));
	assert_rgba(f, 1, 0, 0, 1);
	assert_true(agx_format_unpack_uint(AGX_FORMAT_R10G10B10A2_UINT,
					   (uint8_t[]){ 0xff, 0x17, 0xf0, 0xff }, u));
	assert_int_equal(u[0], 1023);
	assert_int_equal(u[1], 5);
	assert_int_equal(u[2], 1023);
	assert_int_equal(u[3], 3);
	assert_true(agx_format_unpack_uint(AGX_FORMAT_R8G8_UINT, (uint8_t[]){ 7, 9 }, u));
	assert_int_equal(u[2], 0);
	assert_int_equal(u[3], 1);
	assert_true(agx_format_unpack_sint(AGX_FORMAT_R8G8B8A8_SINT,
					   (uint8_t[]){ 0xfb, 0x80, 0x7f, 0 }, s));
	assert_int_equal(s[0], -5);
	assert_int_equal(s[1], -128);
	assert_int_equal(s[2], 127);
	assert_true(
	    agx_format_unpack_sint(AGX_FORMAT_R32_SINT, (uint8_t[]){ 0xfe, 0xff, 0xff, 0xff }, s));
	assert_int_equal(s[0], -2);
	assert_int_equal(s[3], 1);
}

/* The kind decides which functions take a format. */
static void test_kinds(void **state)
{
	uint8_t texel[16];
	float f[4] = { 0 };
	uint32_t u[4] = { 0 };
	int32_t s[4] = { 0 };

	(void)state;
	assert_false(agx_format_pack_float(AGX_FORMAT_R8_UINT, f, texel));
	assert_false(agx_format_pack_uint(AGX_FORMAT_R8_SINT, u, texel));
	assert_false(agx_format_pack_sint(AGX_FORMAT_R8_UNORM, s, texel));
	assert_false(agx_format_pack_float(AGX_FORMAT_Z32_FLOAT, f, texel));
	assert_false(agx_format_pack_float(AGX_FORMAT_ETC2_RGB8, f, texel));
	assert_false(agx_format_pack_float(AGX_FORMAT_NONE, f, texel));
	assert_false(agx_format_pack_float(AGX_FORMAT_COUNT, f, texel));
	assert_false(agx_format_unpack_uint(AGX_FORMAT_R8_UNORM, texel, u));
	assert_false(agx_format_pack_depth(AGX_FORMAT_S8_UINT, 0, texel));
	assert_false(agx_format_pack_stencil(AGX_FORMAT_Z16_UNORM, 0, texel));
	assert_false(agx_format_pack_depth(AGX_FORMAT_R32_FLOAT, 0, texel));
	assert_null(agx_format_info(AGX_FORMAT_NONE));
	assert_null(agx_format_info((enum agx_format) - 1));
}

static void test_depth_stencil(void **state)
{
	uint8_t t[4] = { 0 };
	float d;
	uint32_t s;

	(void)state;
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z16_UNORM, 0.5f, t));
	assert_memory_equal(t, ((uint8_t[]){ 0x00, 0x80 }), 2);
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z16_UNORM, 2.0f, t));
	assert_memory_equal(t, ((uint8_t[]){ 0xff, 0xff }), 2);
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z32_FLOAT, 0.25f, t));
	assert_memory_equal(t, ((uint8_t[]){ 0, 0, 0x80, 0x3e }), 4);
	assert_true(agx_format_unpack_depth(AGX_FORMAT_Z32_FLOAT, t, &d));
	assert_true(d == 0.25f);
	assert_true(agx_format_pack_stencil(AGX_FORMAT_S8_UINT, 0x1ab, t));
	assert_int_equal(t[0], 0xab);
	assert_true(agx_format_unpack_stencil(AGX_FORMAT_S8_UINT, t, &s));
	assert_int_equal(s, 0xab);

	/* Z24S8: each part leaves the other alone */
	memset(t, 0, 4);
	assert_true(agx_format_pack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, 0x5a, t));
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, 1.0f, t));
	assert_memory_equal(t, ((uint8_t[]){ 0xff, 0xff, 0xff, 0x5a }), 4);
	assert_true(agx_format_pack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, 0x33, t));
	assert_memory_equal(t, ((uint8_t[]){ 0xff, 0xff, 0xff, 0x33 }), 4);
	/* 0.5 * (2^24 - 1) = 8388607.5: even, 2^23 */
	assert_true(agx_format_pack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, 0.5f, t));
	assert_memory_equal(t, ((uint8_t[]){ 0x00, 0x00, 0x80, 0x33 }), 4);
	assert_true(agx_format_unpack_depth(AGX_FORMAT_Z24_UNORM_S8_UINT, t, &d));
	assert_float_equal(d, 0.5, 1e-7);
	assert_true(agx_format_unpack_stencil(AGX_FORMAT_Z24_UNORM_S8_UINT, t, &s));
	assert_int_equal(s, 0x33);
}

static void test_masks(void **state)
{
	uint8_t m[16], zero[16] = { 0 };

	(void)state;
	assert_true(agx_format_color_mask(AGX_FORMAT_R8G8B8A8_UNORM, 0x5, m));
	assert_memory_equal(m, ((uint8_t[]){ 0xff, 0, 0xff, 0 }), 4);
	assert_memory_equal(m + 4, zero, 12);
	assert_true(agx_format_color_mask(AGX_FORMAT_B5G6R5_UNORM, 0x1, m));
	assert_memory_equal(m, ((uint8_t[]){ 0x00, 0xf8 }), 2);
	assert_true(agx_format_color_mask(AGX_FORMAT_R5G5B5A1_UNORM, 0x8, m));
	assert_memory_equal(m, ((uint8_t[]){ 0x00, 0x80 }), 2);
	assert_true(agx_format_color_mask(AGX_FORMAT_R10G10B10A2_UINT, 0x2, m));
	assert_memory_equal(m, ((uint8_t[]){ 0x00, 0xfc, 0x0f, 0x00 }), 4);
	assert_true(agx_format_color_mask(AGX_FORMAT_R11G11B10_FLOAT, 0x4, m));
	assert_memory_equal(m, ((uint8_t[]){ 0, 0, 0xc0, 0xff }), 4);
	/* a padding channel is written with any component; alone, alpha writes nothing else */
	assert_true(agx_format_color_mask(AGX_FORMAT_R8G8B8X8_UNORM, 0x1, m));
	assert_memory_equal(m, ((uint8_t[]){ 0xff, 0, 0, 0xff }), 4);
	assert_true(agx_format_color_mask(AGX_FORMAT_R8_UNORM, 0xe, m));
	assert_memory_equal(m, zero, 16);
	assert_true(agx_format_color_mask(AGX_FORMAT_R32G32B32A32_FLOAT, 0x8, m));
	assert_memory_equal(m, zero, 12);
	assert_memory_equal(m + 12, ((uint8_t[]){ 0xff, 0xff, 0xff, 0xff }), 4);
	/* the shared exponent: all of RGB or none */
	assert_false(agx_format_color_mask(AGX_FORMAT_R9G9B9E5_FLOAT, 0x1, m));
	assert_true(agx_format_color_mask(AGX_FORMAT_R9G9B9E5_FLOAT, 0xf, m));
	assert_memory_equal(m, ((uint8_t[]){ 0xff, 0xff, 0xff, 0xff }), 4);
	assert_false(agx_format_color_mask(AGX_FORMAT_Z16_UNORM, 0xf, m));

	assert_true(agx_format_zs_mask(AGX_FORMAT_Z24_UNORM_S8_UINT, true, 0, m));
	assert_memory_equal(m, ((uint8_t[]){ 0xff, 0xff, 0xff, 0x00 }), 4);
	assert_true(agx_format_zs_mask(AGX_FORMAT_Z24_UNORM_S8_UINT, false, 0x10f, m));
	assert_memory_equal(m, ((uint8_t[]){ 0, 0, 0, 0x0f }), 4);
	assert_true(agx_format_zs_mask(AGX_FORMAT_Z32_FLOAT, true, 0xff, m));
	assert_memory_equal(m, ((uint8_t[]){ 0xff, 0xff, 0xff, 0xff }), 4);
	assert_true(agx_format_zs_mask(AGX_FORMAT_S8_UINT, true, 0x81, m));
	assert_int_equal(m[0], 0x81);
	assert_false(agx_format_zs_mask(AGX_FORMAT_R8_UNORM, true, 0xff, m));
}

/*
 * The table agrees with itself: widths add up to the texel, names look
 * up their format, swizzles point at stored channels (a compressed
 * format's at its decoded components), and pack after unpack of a packed
 * value gives the same bits.
 */
static void test_table(void **state)
{
	(void)state;
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *info = agx_format_info((enum agx_format)f);
		unsigned sum = 0;

		assert_non_null(info);
		assert_int_equal(agx_format_from_name(info->name), f);
		if (info->kind == AGX_FORMAT_KIND_COMPRESSED) {
			unsigned w = 4, h = 4;

			/* ASTC names say their block, 16 bytes each; ETC2 and EAC are 4x4 */
			if (sscanf(info->name, "ASTC_%uX%u", &w, &h) == 2)
				assert_int_equal(info->bytes, 16);
			if (info->block_w != w || info->block_h != h)
				fail_msg("%s: %ux%u blocks", info->name, info->block_w,
					 info->block_h);
			/* a block decodes to R, G, B, A in order; GL's missing ones are 0, 0, 1 */
			for (unsigned c = 0; c < 4; c++)
				if (info->read[c] != (c < info->components ? c
						      : c == 3		   ? AGX_FORMAT_SWIZZLE_1
									   : AGX_FORMAT_SWIZZLE_0))
					fail_msg("%s: component %u reads %u", info->name, c,
						 info->read[c]);
			continue;
		}
		assert_int_equal(info->block_w, 1);
		assert_int_equal(info->block_h, 1);
		for (unsigned i = 0; i < info->channels; i++)
			sum += info->bits[i];
		if (f == AGX_FORMAT_R9G9B9E5_FLOAT)
			sum += 5; /* the exponent */
		if (sum != 8 * info->bytes)
			fail_msg("%s: widths add up to %u bits", info->name, sum);
		for (unsigned c = 0; c < 4; c++)
			assert_true(info->read[c] < info->channels ||
				    info->read[c] == AGX_FORMAT_SWIZZLE_0 ||
				    info->read[c] == AGX_FORMAT_SWIZZLE_1);
		if (info->kind <= AGX_FORMAT_KIND_SINT) {
			const float vf[4] = { 0.3f, 0.7f, 0.1f, 0.9f };
			const uint32_t vu[4] = { 3, 7, 1, 9 };
			const int32_t vs[4] = { -3, 7, -1, 9 };
			uint8_t a[16], b[16];
			float rf[4];
			uint32_t ru[4];
			int32_t rs[4];

			memset(a, 0, 16);
			memset(b, 0, 16);
			if (info->kind == AGX_FORMAT_KIND_FLOAT) {
				assert_true(agx_format_pack_float(f, vf, a));
				assert_true(agx_format_unpack_float(f, a, rf));
				assert_true(agx_format_pack_float(f, rf, b));
			} else if (info->kind == AGX_FORMAT_KIND_UINT) {
				assert_true(agx_format_pack_uint(f, vu, a));
				assert_true(agx_format_unpack_uint(f, a, ru));
				assert_true(agx_format_pack_uint(f, ru, b));
			} else {
				assert_true(agx_format_pack_sint(f, vs, a));
				assert_true(agx_format_unpack_sint(f, a, rs));
				assert_true(agx_format_pack_sint(f, rs, b));
			}
			if (memcmp(a, b, 16))
				fail_msg("%s: pack(unpack(t)) != t", info->name);
		}
	}
	assert_int_equal(agx_format_from_name("NOT_A_FORMAT"), AGX_FORMAT_NONE);
	/* every sRGB format has its linear twin; the others are their own */
	for (unsigned f = 1; f < AGX_FORMAT_COUNT; f++) {
		const struct agx_format_info *info = agx_format_info((enum agx_format)f);
		enum agx_format l = agx_format_linear((enum agx_format)f);

		if (info->srgb)
			assert_false(agx_format_info(l)->srgb);
		else
			assert_int_equal(l, f);
	}
	assert_int_equal(agx_format_linear(AGX_FORMAT_R8G8B8A8_SRGB), AGX_FORMAT_R8G8B8A8_UNORM);
	assert_int_equal(agx_format_linear(AGX_FORMAT_R8G8B8X8_SRGB), AGX_FORMAT_R8G8B8X8_UNORM);
	assert_int_equal(agx_format_linear(AGX_FORMAT_ETC2_SRGB8), AGX_FORMAT_ETC2_RGB8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_vectors),
		cmocka_unit_test(test_every_format_has_a_vector),
		cmocka_unit_test(test_unpack),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_depth_stencil),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

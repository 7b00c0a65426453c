/*
 * test-texture-upload: where texture uploads put their texels -- a GL
 * context of libgles_core made directly over the real stack (no glvnd),
 * so that the images' BOs can be read: twiddled textures (Morton order
 * inside a tile, worked out here independently of agx/layout.c), the
 * unpack pixel store state, format conversions into the hardware texels,
 * compressed blocks, pixel unpack buffers, immutable storage and
 * glGenerateMipmap, 24-bit depth as Z32F with a separate S8 stencil; the
 * layouts of renderbuffers (colour linear, depth and stencil twiddled);
 * and the one context version the GL side makes (3.0).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "context.h"
#include "gl_functions.h"
#include "objects.h"
#include "stack.h"

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	struct agx_device *dev;
	struct gles_context *ctx;
};

/* Morton order: x's bits in the even positions, y's in the odd ones (square tiles). */
static unsigned morton(unsigned x, unsigned y)
{
	unsigned out = 0;

	for (unsigned i = 0; i < 8; i++)
		out |= ((x >> i) & 1) << (2 * i) | ((y >> i) & 1) << (2 * i + 1);
	return out;
}

static struct gles_texture_level *level_of(struct gles_context *ctx, GLenum target, GLint level)
{
	unsigned slot = target == GL_TEXTURE_2D ? 0 : target == GL_TEXTURE_3D ? 1 : 2;

	return gles_texture_level(ctx->objects->textures[0][slot], target, level);
}

/* The texel bytes of (x, y) of a level of the 2D texture bound to unit 0. */
static const uint8_t *texel(struct gles_context *ctx, GLint level, unsigned x, unsigned y)
{
	struct gles_texture_level *l = level_of(ctx, GL_TEXTURE_2D, level);

	assert_non_null(l->image);
	assert_true(l->image->layout.twiddled);
	return gles_image_texel(l->image, l->image_level, l->image_layer, x, y);
}

static uint32_t word(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
	return w;
}

static uint16_t half(const uint8_t *p)
{
	uint16_t h;

	memcpy(&h, p, 2);
	return h;
}

static void test_twiddled_rgba8(void **state)
{
	struct fixture *f = *state;
	uint8_t pixels[4 * 4 * 4];
	GLuint tex;
	struct gles_texture_level *l;

	for (unsigned i = 0; i < 16; i++)
		pixels[4 * i] = (uint8_t)(i % 4), pixels[4 * i + 1] = (uint8_t)(i / 4),
			   pixels[4 * i + 2] = 0x80, pixels[4 * i + 3] = (uint8_t)i;
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D, 0);
	assert_int_equal(l->image->format, AGX_FORMAT_R8G8B8A8_UNORM);
	/* a 4x4 level is one 4x4 Morton tile: (3, 2) is element 13 */
	assert_ptr_equal(texel(f->ctx, 0, 3, 2), (uint8_t *)l->image->bo.map + 13 * 4);
	for (unsigned y = 0; y < 4; y++) {
		for (unsigned x = 0; x < 4; x++) {
			const uint8_t *t = (uint8_t *)l->image->bo.map + morton(x, y) * 4;

			assert_int_equal(t[0], x);
			assert_int_equal(t[1], y);
			assert_int_equal(t[2], 0x80);
			assert_int_equal(t[3], 4 * y + x);
		}
	}
	/* a sub-image lands in the same places */
	gles_TexSubImage2D(GL_TEXTURE_2D, 0, 2, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE,
			   (const uint8_t[]){ 9, 8, 7, 6 });
	assert_int_equal(word((uint8_t *)l->image->bo.map + morton(2, 1) * 4), 0x06070809u);
	gles_DeleteTextures(1, &tex);
}

static void test_unpack_state(void **state)
{
	struct fixture *f = *state;
	uint8_t client[8 * 4 * 3];
	GLuint tex;

	for (unsigned i = 0; i < sizeof(client); i++)
		client[i] = (uint8_t)i;
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	/* RGB bytes, rows of 3 pixels (9 bytes) padded to the alignment of 4: 12 */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 3, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, client);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	assert_int_equal(level_of(f->ctx, GL_TEXTURE_2D, 0)->image->format,
			 AGX_FORMAT_R8G8B8X8_UNORM);
	/* (2, 1): bytes 12 + 6 .. 8, with the padding channel one */
	assert_memory_equal(texel(f->ctx, 0, 2, 1), ((const uint8_t[]){ 18, 19, 20, 0xff }), 4);
	assert_memory_equal(texel(f->ctx, 0, 0, 0), ((const uint8_t[]){ 0, 1, 2, 0xff }), 4);
	/* alignment 1: rows of 9 */
	gles_PixelStorei(GL_UNPACK_ALIGNMENT, 1);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 3, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, client);
	assert_memory_equal(texel(f->ctx, 0, 0, 1), ((const uint8_t[]){ 9, 10, 11, 0xff }), 4);
	/* a 2x2 window of an 8-pixel-wide image, skipping 3 pixels and 1 row */
	gles_PixelStorei(GL_UNPACK_ALIGNMENT, 4);
	gles_PixelStorei(GL_UNPACK_ROW_LENGTH, 8);
	gles_PixelStorei(GL_UNPACK_SKIP_PIXELS, 3);
	gles_PixelStorei(GL_UNPACK_SKIP_ROWS, 1);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_R8, 2, 2, 0, GL_RED, GL_UNSIGNED_BYTE, client);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	assert_int_equal(*texel(f->ctx, 0, 0, 0), 8 + 3);
	assert_int_equal(*texel(f->ctx, 0, 1, 0), 8 + 4);
	assert_int_equal(*texel(f->ctx, 0, 1, 1), 16 + 4);
	gles_PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
	gles_PixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
	gles_PixelStorei(GL_UNPACK_SKIP_ROWS, 0);
	gles_DeleteTextures(1, &tex);
}

static void test_conversions(void **state)
{
	struct fixture *f = *state;
	const float one[4] = { 1.0f, -2.0f, 0.5f, 65504.0f };
	GLuint tex;

	(void)f;
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	/* RGB5_A1 from bytes: R in bits 4..0 of the hardware texel, A in bit 15 */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGB5_A1, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			(const uint8_t[]){ 255, 0, 255, 255 });
	assert_int_equal(half(texel(f->ctx, 0, 0, 0)), 0x1f | 0x1f << 10 | 1 << 15);
	/* GL's 5_6_5 is the B5G6R5 texel bit for bit */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGB565, 1, 1, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5,
			(const uint16_t[]){ 0xf81f });
	assert_int_equal(half(texel(f->ctx, 0, 0, 0)), 0xf81f);
	/* ... and 4_4_4_4 from bytes: red in the top nibble */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA4, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			(const uint8_t[]){ 255, 0, 0, 0x88 });
	assert_int_equal(half(texel(f->ctx, 0, 0, 0)), 0xf008);
	/* floats to halves */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, 1, 1, 0, GL_RGBA, GL_FLOAT, one);
	assert_int_equal(half(texel(f->ctx, 0, 0, 0)), 0x3c00);
	assert_int_equal(half(texel(f->ctx, 0, 0, 0) + 2), 0xc000);
	assert_int_equal(half(texel(f->ctx, 0, 0, 0) + 6), 0x7bff);
	/* DEPTH_COMPONENT16 from 32-bit depth: rounded to 16 bits */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT16, 1, 1, 0, GL_DEPTH_COMPONENT,
			GL_UNSIGNED_INT, (const uint32_t[]){ 0x80000000u });
	assert_int_equal(half(texel(f->ctx, 0, 0, 0)), 0x8000);
	/* float depth is clamped to [0, 1] */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 1, 1, 0, GL_DEPTH_COMPONENT,
			GL_FLOAT, (const float[]){ 2.0f });
	assert_int_equal(word(texel(f->ctx, 0, 0, 0)), 0x3f800000u);
	/* DEPTH32F_STENCIL8: two images */
	{
		const uint32_t ds[2] = { 0x3f000000u, 0x5a };
		struct gles_texture_level *l;

		gles_TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH32F_STENCIL8, 1, 1, 0, GL_DEPTH_STENCIL,
				GL_FLOAT_32_UNSIGNED_INT_24_8_REV, ds);
		l = level_of(f->ctx, GL_TEXTURE_2D, 0);
		assert_non_null(l->stencil);
		assert_int_equal(l->stencil->format, AGX_FORMAT_S8_UINT);
		assert_int_equal(word(texel(f->ctx, 0, 0, 0)), 0x3f000000u);
		assert_int_equal(*(uint8_t *)l->stencil->bo.map, 0x5a);
	}
	/* integers stay integers; signed bytes sign-extend */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8I, 1, 1, 0, GL_RGBA_INTEGER, GL_BYTE,
			(const int8_t[]){ -1, 2, -128, 127 });
	assert_memory_equal(texel(f->ctx, 0, 0, 0), ((const uint8_t[]){ 0xff, 2, 0x80, 0x7f }), 4);
	/* a format/type pair table 3.2 does not list changes nothing */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16I, 1, 1, 0, GL_RGBA_INTEGER, GL_BYTE,
			(const int8_t[]){ -1, 2, -128, 127 });
	assert_int_equal(gles_GetError(), GL_INVALID_OPERATION);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16I, 1, 1, 0, GL_RGBA_INTEGER, GL_SHORT,
			(const int16_t[]){ -300, 2, 3, 4 });
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	{
		int16_t v[4];

		memcpy(v, texel(f->ctx, 0, 0, 0), 8);
		assert_int_equal(v[0], -300);
	}
	/* sRGB texels are stored as given */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			(const uint8_t[]){ 1, 2, 3, 4 });
	assert_memory_equal(texel(f->ctx, 0, 0, 0), ((const uint8_t[]){ 1, 2, 3, 4 }), 4);
	/* luminance-alpha: L in the first byte, A in the second */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE_ALPHA, 1, 1, 0, GL_LUMINANCE_ALPHA,
			GL_UNSIGNED_BYTE, (const uint8_t[]){ 0x11, 0x22 });
	assert_memory_equal(texel(f->ctx, 0, 0, 0), ((const uint8_t[]){ 0x11, 0x22 }), 2);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_ALPHA, 1, 1, 0, GL_ALPHA, GL_UNSIGNED_BYTE,
			(const uint8_t[]){ 0x33 });
	assert_int_equal(*texel(f->ctx, 0, 0, 0), 0x33);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	gles_DeleteTextures(1, &tex);
}

/* Whether a Z32F texel holds exactly the float want. */
static bool same_float(const uint8_t *texel, float want)
{
	return !memcmp(texel, &want, 4);
}

/* The float a 24-bit fixed-point depth k is (equation 2.1: k / (2^24 - 1)). */
static float depth24(uint32_t k)
{
	return (float)(k / 16777215.0);
}

/*
 * 24-bit depth is stored as the depth/stencil unit renders it: a Z32F
 * image holding the 24-bit value (equation 2.1: k / (2^24 - 1)), and
 * DEPTH24_STENCIL8's stencil an S8 image of its own, both twiddled.
 */
static void test_depth24(void **state)
{
	struct fixture *f = *state;
	uint32_t pixels[4 * 4];
	struct gles_texture_level *l;
	GLuint tex;

	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	/* DEPTH_COMPONENT24 from 32-bit depth: first rounded to 24 bits (0x123456.47: 0x123456) */
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 2, 1, 0, GL_DEPTH_COMPONENT,
			GL_UNSIGNED_INT, (const uint32_t[]){ 0x12345678u, 0xffffffffu });
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D, 0);
	assert_int_equal(l->image->format, AGX_FORMAT_Z32_FLOAT);
	assert_null(l->stencil);
	assert_true(same_float(texel(f->ctx, 0, 0, 0), depth24(0x123456)));
	assert_true(same_float(texel(f->ctx, 0, 1, 0), 1.0f));

	/* DEPTH24_STENCIL8 from UNSIGNED_INT_24_8: depth in bits 31..8, stencil in 7..0 */
	for (unsigned i = 0; i < 16; i++)
		pixels[i] = (0x100000u * i + 0x321u * i) << 8 | (0xa0 + i);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 4, 4, 0, GL_DEPTH_STENCIL,
			GL_UNSIGNED_INT_24_8, pixels);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D, 0);
	assert_int_equal(l->image->format, AGX_FORMAT_Z32_FLOAT);
	assert_non_null(l->stencil);
	assert_int_equal(l->stencil->format, AGX_FORMAT_S8_UINT);
	assert_true(l->stencil->layout.twiddled);
	assert_int_not_equal(l->stencil->bo.handle, l->image->bo.handle);
	/* a 4x4 level is one 4x4 Morton tile, in either image */
	for (unsigned y = 0; y < 4; y++) {
		for (unsigned x = 0; x < 4; x++) {
			unsigned i = 4 * y + x, m = morton(x, y);

			if (!same_float((uint8_t *)l->image->bo.map + 4 * m,
					depth24(0x100000u * i + 0x321u * i)))
				fail_msg("depth of (%u, %u)", x, y);
			assert_int_equal(((uint8_t *)l->stencil->bo.map)[m], 0xa0 + i);
		}
	}
	/* a sub-image writes both images */
	gles_TexSubImage2D(GL_TEXTURE_2D, 0, 1, 2, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8,
			   (const uint32_t[]){ 0xffffff00u | 0x5a });
	assert_true(same_float((uint8_t *)l->image->bo.map + 4 * morton(1, 2), 1.0f));
	assert_int_equal(((uint8_t *)l->stencil->bo.map)[morton(1, 2)], 0x5a);

	/* immutable storage: a stencil image of all levels beside the depth's */
	gles_DeleteTextures(1, &tex);
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_TexStorage2D(GL_TEXTURE_2D, 2, GL_DEPTH24_STENCIL8, 4, 4);
	gles_TexSubImage2D(GL_TEXTURE_2D, 1, 1, 1, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8,
			   (const uint32_t[]){ 0x00000100u | 0x77 });
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D, 1);
	assert_int_equal(l->stencil->levels, 2);
	/* level 1 (2x2) after level 0's 16 texels at the next 128 bytes; Morton (1, 1) = 3 */
	assert_true(same_float((uint8_t *)l->image->bo.map + 128 + 4 * 3, depth24(1)));
	assert_int_equal(((uint8_t *)l->stencil->bo.map)[128 + 3], 0x77);
	gles_DeleteTextures(1, &tex);
}

static void test_compressed_and_pbo(void **state)
{
	struct fixture *f = *state;
	uint8_t blocks[4 * 8];
	GLuint tex, pbo;
	struct gles_texture_level *l;

	for (unsigned i = 0; i < sizeof(blocks); i++)
		blocks[i] = (uint8_t)(i / 8 + 1); /* block b is 8 bytes of b + 1 */
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_CompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, blocks);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D, 0);
	assert_int_equal(l->image->layout.block_w, 4);
	/* 2x2 blocks in Morton order: block (0, 1) -- the third given -- is element 2 */
	for (unsigned b = 0; b < 4; b++) {
		unsigned x = b % 2, y = b / 2;
		const uint8_t *p = (uint8_t *)l->image->bo.map + morton(x, y) * 8;

		assert_int_equal(p[0], b + 1);
		assert_int_equal(p[7], b + 1);
	}
	gles_CompressedTexSubImage2D(
	    GL_TEXTURE_2D, 0, 4, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8,
	    (const uint8_t[8]){ 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77 });
	assert_int_equal(((uint8_t *)l->image->bo.map)[morton(1, 0) * 8], 0x77);

	/* from a pixel unpack buffer, at an offset */
	gles_GenBuffers(1, &pbo);
	gles_BindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
	gles_BufferData(GL_PIXEL_UNPACK_BUFFER, 32, NULL, GL_STREAM_DRAW);
	gles_BufferSubData(GL_PIXEL_UNPACK_BUFFER, 16, 8,
			   (const uint8_t[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, (void *)16);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	assert_int_equal(word(texel(f->ctx, 0, 1, 0)), 0x08070605u);
	gles_BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
	gles_DeleteBuffers(1, &pbo);
	gles_DeleteTextures(1, &tex);
}

static void test_storage_and_mipmaps(void **state)
{
	struct fixture *f = *state;
	GLuint tex;
	struct gles_texture_level *l0, *l1;
	uint8_t pixels[2 * 2 * 4] = {
		0, 0, 0, 0, 100, 10, 0, 255, 200, 20, 0, 255, 100, 10, 3, 255
	};

	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_TexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 2, 2);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l0 = level_of(f->ctx, GL_TEXTURE_2D, 0);
	l1 = level_of(f->ctx, GL_TEXTURE_2D, 1);
	/* one image holds both levels */
	assert_ptr_equal(l0->image, l1->image);
	assert_int_equal(l1->image_level, 1);
	assert_int_equal(l1->width, 1);
	gles_TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
	gles_GenerateMipmap(GL_TEXTURE_2D);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	/* RGBA8's levels are GPU work (draws): their texels are there once it has run */
	gles_Finish();
	/* level 1 is the mean of the four, rounded: (100 + 200 + 100) / 4 = 100, ... */
	assert_ptr_equal(texel(f->ctx, 1, 0, 0),
			 (uint8_t *)l1->image->bo.map + l1->image->layout.level_offset[1]);
	assert_memory_equal(texel(f->ctx, 1, 0, 0), ((const uint8_t[]){ 100, 10, 1, 191 }), 4);
	gles_DeleteTextures(1, &tex);

	/* a mutable texture's chain: glGenerateMipmap makes levels 1 and 2 */
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_R8, 4, 3, 0, GL_RED, GL_UNSIGNED_BYTE,
			(const uint8_t[12]){ 4, 4, 8, 8, 4, 4, 8, 8, 0, 0, 0, 0 });
	gles_GenerateMipmap(GL_TEXTURE_2D);
	gles_Finish();
	l1 = level_of(f->ctx, GL_TEXTURE_2D, 1);
	assert_int_equal(l1->width, 2);
	assert_int_equal(l1->height, 1);
	/* drawn: the bilinear sample at each texel's centre (row 1, the middle of three) */
	assert_int_equal(*texel(f->ctx, 1, 0, 0), 4);
	assert_int_equal(*texel(f->ctx, 1, 1, 0), 8);
	assert_int_equal(level_of(f->ctx, GL_TEXTURE_2D, 2)->width, 1);
	assert_int_equal(*texel(f->ctx, 2, 0, 0), 6);
	gles_DeleteTextures(1, &tex);

	/*
	 * LUMINANCE_ALPHA is no colour-renderable format: its chain is the box
	 * filter on the CPU, done when the call returns (no glFinish), the
	 * 2x2 texels under each one averaged (those past an odd edge left out).
	 */
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D, tex);
	gles_PixelStorei(GL_UNPACK_ALIGNMENT, 1);
	gles_TexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE_ALPHA, 3, 2, 0, GL_LUMINANCE_ALPHA,
			GL_UNSIGNED_BYTE,
			(const uint8_t[12]){ 10, 200, 20, 100, 90, 0, 30, 0, 40, 100, 255, 7 });
	gles_PixelStorei(GL_UNPACK_ALIGNMENT, 4);
	gles_GenerateMipmap(GL_TEXTURE_2D);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l1 = level_of(f->ctx, GL_TEXTURE_2D, 1);
	assert_int_equal(l1->width, 1);
	assert_int_equal(l1->height, 1);
	/* (10 + 20 + 30 + 40) / 4 = 25, (200 + 100 + 0 + 100) / 4 = 100: L8A8's bytes */
	assert_memory_equal(texel(f->ctx, 1, 0, 0), ((const uint8_t[]){ 25, 100 }), 2);
	gles_DeleteTextures(1, &tex);
}

static void test_3d_layers_and_renderbuffers(void **state)
{
	struct fixture *f = *state;
	uint8_t pixels[4 * 2 * 3]; /* rows of 2 bytes padded to 4 (UNPACK_ALIGNMENT) */
	GLuint tex, rb;
	struct gles_texture_level *l;
	const struct gles_image *img, *stencil;

	for (unsigned i = 0; i < sizeof(pixels); i++)
		pixels[i] = (uint8_t)i;
	gles_GenTextures(1, &tex);
	gles_BindTexture(GL_TEXTURE_2D_ARRAY, tex);
	gles_TexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_R8, 2, 2, 3, 0, GL_RED, GL_UNSIGNED_BYTE,
			pixels);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	l = level_of(f->ctx, GL_TEXTURE_2D_ARRAY, 0);
	/* layer z, texel (1, 1): byte 8z + 4 + 1 of the client's, a layer stride apart */
	for (unsigned z = 0; z < 3; z++)
		assert_int_equal(*((uint8_t *)l->image->bo.map + z * l->image->layout.layer_stride +
				   morton(1, 1)),
				 8 * z + 5);
	gles_DeleteTextures(1, &tex);

	/* renderbuffers are linear: rows 16-byte aligned */
	gles_GenRenderbuffers(1, &rb);
	gles_BindRenderbuffer(GL_RENDERBUFFER, rb);
	gles_RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 5, 3);
	img = &f->ctx->objects->renderbuffer->image;
	assert_false(img->layout.twiddled);
	assert_int_equal(img->layout.stride, 32);
	assert_ptr_equal(gles_image_texel(img, 0, 0, 2, 1), (uint8_t *)img->bo.map + 32 + 8);
	/* four samples: one twiddled level of the 10x6 sample grid, sample 3 at (2x+1, 2y+1) */
	gles_RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 5, 3);
	assert_int_equal(img->samples, 4);
	assert_int_equal(img->layers, 1);
	assert_true(img->layout.twiddled);
	assert_int_equal(img->layout.width, 10);
	assert_int_equal(img->layout.height, 6);
	assert_ptr_equal(gles_image_sample(img, 2, 1, 3), gles_image_texel(img, 0, 0, 5, 3));
	/* two: 1x2 samples a pixel */
	gles_RenderbufferStorageMultisample(GL_RENDERBUFFER, 2, GL_RGBA8, 5, 3);
	assert_int_equal(img->samples, 2);
	assert_int_equal(img->layout.width, 5);
	assert_int_equal(img->layout.height, 6);
	assert_ptr_equal(gles_image_sample(img, 2, 1, 1), gles_image_texel(img, 0, 0, 2, 3));
	/* depth and stencil renderbuffers are twiddled, as the ZLS renders them: a 4x4 tile */
	gles_RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 4, 4);
	assert_int_equal(img->format, AGX_FORMAT_Z32_FLOAT);
	assert_true(img->layout.twiddled);
	assert_ptr_equal(gles_image_texel(img, 0, 0, 3, 2),
			 (uint8_t *)img->bo.map + morton(3, 2) * 4);
	stencil = &f->ctx->objects->renderbuffer->stencil;
	assert_int_equal(stencil->format, AGX_FORMAT_S8_UINT);
	assert_true(stencil->layout.twiddled);
	assert_ptr_equal(gles_image_texel(stencil, 0, 0, 3, 2),
			 (uint8_t *)stencil->bo.map + morton(3, 2));
	gles_RenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, 4, 4);
	assert_int_equal(img->format, AGX_FORMAT_S8_UINT);
	assert_true(img->layout.twiddled);
	gles_RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 4, 4);
	assert_int_equal(img->format, AGX_FORMAT_Z16_UNORM);
	assert_true(img->layout.twiddled);
	/* with samples: the twiddled 8x8 sample grid, as the ZLS keeps it */
	gles_RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH_COMPONENT24, 4, 4);
	assert_true(img->layout.twiddled);
	assert_int_equal(img->layers, 1);
	assert_int_equal(img->layout.width, 8);
	assert_int_equal(img->layout.height, 8);
	gles_DeleteRenderbuffers(1, &rb);
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
}

/*
 * The GL side makes ES 3.0 contexts only: EGL answers ES 2.0 requests with
 * them (gles/egl_context.c), and no ES 2.0 mode is left to ask for.
 */
static void test_context_versions(void **state)
{
	struct fixture *f = *state;
	static const unsigned versions[][2] = { { 2, 0 }, { 3, 1 }, { 1, 0 }, { 4, 0 } };

	for (unsigned i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		struct gles_context_params params = { .major = versions[i][0],
						      .minor = versions[i][1],
						      .dev = f->dev };
		struct gles_context *ctx = (struct gles_context *)&params;

		assert_int_equal(gles_context_create(&params, &ctx), -EINVAL);
		assert_null(ctx);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gles_context_params params = { .major = 3 };

	test_stack_start(&f->stack, &options);
	setenv("AGX_MEMMGR_SOCKET", f->stack.memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", f->stack.sched, 1);
	if (agx_device_open(NULL, &f->dev) < 0)
		return -1;
	params.dev = f->dev;
	if (gles_context_create(&params, &f->ctx) < 0)
		return -1;
	gles_context_make_current(f->ctx, NULL, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	bool clean;

	gles_context_make_current(NULL, NULL, NULL);
	gles_context_destroy(f->ctx);
	agx_device_close(f->dev);
	clean = test_stack_stop(&f->stack);
	free(f);
	return clean ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twiddled_rgba8),
		cmocka_unit_test(test_unpack_state),
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_depth24),
		cmocka_unit_test(test_compressed_and_pbo),
		cmocka_unit_test(test_storage_and_mipmaps),
		cmocka_unit_test(test_3d_layers_and_renderbuffers),
		cmocka_unit_test(test_context_versions),
	};

	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

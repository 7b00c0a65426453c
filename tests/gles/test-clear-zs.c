/*
 * test-clear-zs: depth and stencil clears, which OpenGL ES 3.0 cannot read
 * back (glReadPixels takes no depth or stencil format), checked in the
 * images themselves.  The test links the GL side directly (gles_core):
 * a context over the real stack's device, current on a drawable whose
 * BOs the test made, or on framebuffer objects whose images it finds
 * through objects.h; after glFinish every texel is compared with what the
 * clears, their scissor and the depth and stencil write masks say --
 * texel by texel, at the places of the twiddled layout the ZLS renders
 * (worked out here, not by agx/layout.c), in the storage the ZLS takes: a
 * Z16 or Z32F depth image, and the stencil an S8 image of its own.  And
 * the driver's own rounding, where llvmpipe (test-clear) rounds otherwise.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/device.h"
#include "agx/format.h"
#include "agx/layout.h"
#include "context.h"
#include "gl_functions.h"
#include "image.h"
#include "objects.h"
#include "stack.h"

#define W 21
#define H 9

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	struct agx_device *dev;
	struct gles_drawable drawable;
	struct gles_context *ctx;
};

/* What a depth/stencil texel should hold: the depth and stencil clears' result. */
struct expect {
	float depth[H][W];
	uint32_t stencil[H][W];
};

static void expect_fill(struct expect *e, float d, uint32_t s)
{
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			e->depth[y][x] = d, e->stencil[y][x] = s;
}

/* The clear of a rectangle, under the stencil write mask (depth: all bits or none). */
static void expect_rect(struct expect *e, int x0, int y0, int w, int h, bool depth, float d,
			bool stencil, uint32_t s, uint32_t smask)
{
	for (int y = y0 < 0 ? 0 : y0; y < y0 + h && y < H; y++)
		for (int x = x0 < 0 ? 0 : x0; x < x0 + w && x < W; x++) {
			if (depth)
				e->depth[y][x] = d;
			if (stencil)
				e->stencil[y][x] = (e->stencil[y][x] & ~smask) | (s & smask);
		}
}

/* Morton order: x's bits in the even positions, y's in the odd ones. */
static unsigned morton(unsigned x, unsigned y)
{
	unsigned out = 0;

	for (unsigned i = 0; i < 8; i++)
		out |= ((x >> i) & 1) << (2 * i) | ((y >> i) & 1) << (2 * i + 1);
	return out;
}

/*
 * The byte offset of texel (x, y) in a twiddled W x H image of one level:
 * smaller than the largest tile (16 KiB: 64x64 4-byte texels, 128x128
 * bytes), the level is laid out in square tiles of the power of two at
 * least min(W, H) -- 16 texels -- a row of them, Morton order inside each
 * tile (Mesa's ail).
 */
#define TILE 16

static uint64_t twiddled_offset(unsigned x, unsigned y, unsigned bytes)
{
	unsigned per_row = (W + TILE - 1) / TILE;

	return ((uint64_t)(y / TILE * per_row + x / TILE) * TILE * TILE +
		morton(x % TILE, y % TILE)) *
	       bytes;
}

/*
 * The texel a depth d should be: Z16 the unorm rounded to nearest, ties to
 * even (agx/format.h); Z32F the float itself (24-bit depth is stored so
 * too, and a clear stores its value as it is).
 */
static unsigned depth_texel(enum agx_format format, float d, uint8_t out[4])
{
	if (format == AGX_FORMAT_Z16_UNORM) {
		double v = d * 65535.0;
		uint16_t z = (uint16_t)v;

		if (v - z > 0.5 || (v - z == 0.5 && (z & 1)))
			z++;
		memcpy(out, &z, 2);
		return 2;
	}
	memcpy(out, &d, 4);
	return 4;
}

/* A target the ZLS can render: level 0 of a twiddled W x H image of format. */
static void check_target(const struct gles_image_target *t, enum agx_format format)
{
	if (t->image->format != format)
		fail_msg("a %s image, not %s", agx_format_info(t->image->format)->name,
			 agx_format_info(format)->name);
	assert_true(t->image->layout.twiddled);
	assert_int_equal(t->image->width, W);
	assert_int_equal(t->image->height, H);
	assert_int_equal(t->level, 0);
	assert_int_equal(t->layer, 0);
}

/*
 * Each texel of the depth target (of depth_format; NONE: none) and of the
 * stencil target (an S8 image of its own) against e.
 */
static void check(struct gles_context *ctx, const struct expect *e, enum agx_format depth_format,
		  bool has_stencil)
{
	struct gles_image_target dt, st;

	gles_Finish();
	assert_int_equal(gles_GetError(), GL_NO_ERROR);
	if (depth_format != AGX_FORMAT_NONE) {
		assert_true(gles_framebuffer_depth_target(ctx, false, &dt));
		check_target(&dt, depth_format);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				uint8_t want[4];
				unsigned n = depth_texel(depth_format, e->depth[y][x], want);
				const uint8_t *got =
				    (const uint8_t *)dt.image->bo.map + twiddled_offset(x, y, n);

				if (memcmp(got, want, n))
					fail_msg("%s depth at (%u, %u): not the texel of %.9g",
						 agx_format_info(depth_format)->name, x, y,
						 e->depth[y][x]);
			}
	}
	if (has_stencil) {
		assert_true(gles_framebuffer_stencil_target(ctx, false, &st));
		check_target(&st, AGX_FORMAT_S8_UINT);
		if (depth_format != AGX_FORMAT_NONE)
			assert_int_not_equal(st.image->bo.handle, dt.image->bo.handle);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++) {
				uint8_t got =
				    ((const uint8_t *)st.image->bo.map)[twiddled_offset(x, y, 1)];

				if (got != (e->stencil[y][x] & 0xff))
					fail_msg("stencil at (%u, %u): 0x%x, not 0x%x", x, y, got,
						 e->stencil[y][x] & 0xff);
			}
	}
}

/* The same sequence of clears on whatever depth and stencil buffers are bound. */
static void clears(struct gles_context *ctx, enum agx_format depth_format, bool has_stencil)
{
	static struct expect e;
	const GLfloat quarter = 0.25f;
	const GLint seven = 7;

	gles_Disable(GL_SCISSOR_TEST);
	gles_DepthMask(GL_TRUE);
	gles_StencilMask(0xffffffff);

	/* both, whole */
	gles_ClearDepthf(0.5f);
	gles_ClearStencil(0x15a); /* the stencil bits keep 0x5a */
	gles_Clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	expect_fill(&e, 0.5f, 0x5a);
	check(ctx, &e, depth_format, has_stencil);

	/* depth masked off, the stencil written through a mask of 0x0f */
	gles_DepthMask(GL_FALSE);
	gles_StencilMask(0x0f);
	gles_ClearDepthf(1.0f);
	gles_ClearStencil(0xff);
	gles_Clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	expect_rect(&e, 0, 0, W, H, false, 0, true, 0xff, 0x0f);
	check(ctx, &e, depth_format, has_stencil);

	/* glClearBufferfi inside a scissor box hanging over the edge; depth clamped to 1 */
	gles_DepthMask(GL_TRUE);
	gles_Enable(GL_SCISSOR_TEST);
	gles_Scissor(-2, 3, 9, 100);
	gles_ClearBufferfi(GL_DEPTH_STENCIL, 0, 7.5f, 3);
	expect_rect(&e, -2, 3, 9, 100, true, 1.0f, true, 3, 0x0f);
	check(ctx, &e, depth_format, has_stencil);

	/* depth alone, stencil alone, and only the buffer asked for changes */
	gles_Scissor(10, 0, 6, 4);
	gles_StencilMask(0xff);
	gles_ClearBufferfv(GL_DEPTH, 0, &quarter);
	expect_rect(&e, 10, 0, 6, 4, true, 0.25f, false, 0, 0);
	check(ctx, &e, depth_format, has_stencil);
	gles_Scissor(12, 2, 100, 100);
	gles_ClearBufferiv(GL_STENCIL, 0, &seven);
	expect_rect(&e, 12, 2, 100, 100, false, 0, true, 7, 0xff);
	check(ctx, &e, depth_format, has_stencil);
	/* glClear of depth only, with a depth below 0 (clamped by glClearDepthf) */
	gles_Disable(GL_SCISSOR_TEST);
	gles_ClearDepthf(-3.0f);
	gles_Clear(GL_DEPTH_BUFFER_BIT);
	expect_rect(&e, 0, 0, W, H, true, 0.0f, false, 0, 0);
	check(ctx, &e, depth_format, has_stencil);
}

static void test_default_framebuffer(void **state)
{
	struct fixture *f = *state;

	/* the configs' D24S8: Z32F depth, S8 stencil */
	clears(f->ctx, AGX_FORMAT_Z32_FLOAT, true);
}

/*
 * Framebuffer objects with each depth and stencil format, renderbuffers
 * and textures, and the depth texels each must have (24-bit depth as Z32F).
 */
static void test_fbo(void **state)
{
	static const struct {
		GLenum format;
		enum agx_format depth;
		bool stencil, texture;
	} cases[] = {
		{ GL_DEPTH_COMPONENT16, AGX_FORMAT_Z16_UNORM, false, false },
		{ GL_DEPTH_COMPONENT24, AGX_FORMAT_Z32_FLOAT, false, false },
		{ GL_DEPTH_COMPONENT32F, AGX_FORMAT_Z32_FLOAT, false, false },
		{ GL_DEPTH24_STENCIL8, AGX_FORMAT_Z32_FLOAT, true, false },
		{ GL_DEPTH32F_STENCIL8, AGX_FORMAT_Z32_FLOAT, true, false },
		{ GL_STENCIL_INDEX8, AGX_FORMAT_NONE, true, false },
		{ GL_DEPTH_COMPONENT16, AGX_FORMAT_Z16_UNORM, false, true },
		{ GL_DEPTH_COMPONENT24, AGX_FORMAT_Z32_FLOAT, false, true },
		{ GL_DEPTH24_STENCIL8, AGX_FORMAT_Z32_FLOAT, true, true },
		{ GL_DEPTH32F_STENCIL8, AGX_FORMAT_Z32_FLOAT, true, true },
	};
	struct fixture *f = *state;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		GLuint fbo, obj;
		bool depth = cases[i].depth != AGX_FORMAT_NONE;
		GLenum point = depth && cases[i].stencil ? GL_DEPTH_STENCIL_ATTACHMENT
			       : depth			 ? GL_DEPTH_ATTACHMENT
							 : GL_STENCIL_ATTACHMENT;

		gles_GenFramebuffers(1, &fbo);
		gles_BindFramebuffer(GL_FRAMEBUFFER, fbo);
		if (cases[i].texture) {
			gles_GenTextures(1, &obj);
			gles_BindTexture(GL_TEXTURE_2D, obj);
			gles_TexStorage2D(GL_TEXTURE_2D, 1, cases[i].format, W, H);
			gles_FramebufferTexture2D(GL_FRAMEBUFFER, point, GL_TEXTURE_2D, obj, 0);
		} else {
			gles_GenRenderbuffers(1, &obj);
			gles_BindRenderbuffer(GL_RENDERBUFFER, obj);
			gles_RenderbufferStorage(GL_RENDERBUFFER, cases[i].format, W, H);
			gles_FramebufferRenderbuffer(GL_FRAMEBUFFER, point, GL_RENDERBUFFER, obj);
		}
		assert_int_equal(gles_GetError(), GL_NO_ERROR);
		if (gles_CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
			fail_msg("case %u: the framebuffer is not complete (0x%x)", i,
				 gles_CheckFramebufferStatus(GL_FRAMEBUFFER));
		clears(f->ctx, cases[i].depth, cases[i].stencil);
		gles_BindFramebuffer(GL_FRAMEBUFFER, 0);
		gles_DeleteFramebuffers(1, &fbo);
		if (cases[i].texture)
			gles_DeleteTextures(1, &obj);
		else
			gles_DeleteRenderbuffers(1, &obj);
	}
}

/* Colour clears round to nearest (section 2.1.6), ties to even, where llvmpipe does not. */
static void test_rounding(void **state)
{
	static const struct {
		GLenum format;
		GLfloat color[4];
		bool masked; /* a scissored clear of G and A only, over a clear to 0 */
		uint8_t want[4];
	} cases[] = {
		/* 0.9f * 255 = 229.49999: 229 (llvmpipe's float_to_ubyte: 230) */
		{ GL_RGBA8, { 0.9f, 0.5f, 0.25f, 1.0f }, false, { 229, 128, 64, 255 } },
		/* a scissored clear: still rounded (llvmpipe draws it, truncating: 63) */
		{ GL_RGBA8, { 1.0f, 0.25f, 1.0f, 0.75f }, true, { 0, 64, 0, 191 } },
		/* 0.1 * 31 = 3.1: 3, read back as 3 * 255 / 31 = 24.68: 25 (llvmpipe: 24) */
		{ GL_RGB565, { 0.1f, 0.0f, 1.0f, 1.0f }, false, { 25, 0, 255, 255 } },
		/* 0.5 into 1 bit is a tie: even, 0 */
		{ GL_RGB5_A1, { 0.0f, 0.0f, 0.0f, 0.5f }, false, { 0, 0, 0, 0 } },
		/* sRGB: 0.5 encodes to 0.7353569 * 255 = 187.52: 188; read as stored */
		{ GL_SRGB8_ALPHA8, { 0.5f, 0.0f, 1.0f, 0.5f }, false, { 188, 0, 255, 128 } },
	};
	struct fixture *f = *state;

	(void)f;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		GLuint fbo, rb;
		uint8_t px[4];

		gles_GenFramebuffers(1, &fbo);
		gles_BindFramebuffer(GL_FRAMEBUFFER, fbo);
		gles_GenRenderbuffers(1, &rb);
		gles_BindRenderbuffer(GL_RENDERBUFFER, rb);
		gles_RenderbufferStorage(GL_RENDERBUFFER, cases[i].format, W, H);
		gles_FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
					     rb);
		if (cases[i].masked) {
			gles_ClearColor(0, 0, 0, 0);
			gles_Clear(GL_COLOR_BUFFER_BIT);
			gles_Enable(GL_SCISSOR_TEST);
			gles_Scissor(1, 1, 2, 2);
			gles_ColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
		}
		gles_ClearColor(cases[i].color[0], cases[i].color[1], cases[i].color[2],
				cases[i].color[3]);
		gles_Clear(GL_COLOR_BUFFER_BIT);
		gles_ReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
		assert_int_equal(gles_GetError(), GL_NO_ERROR);
		if (memcmp(px, cases[i].want, 4))
			fail_msg("case %u: read %u %u %u %u, not %u %u %u %u", i, px[0], px[1],
				 px[2], px[3], cases[i].want[0], cases[i].want[1], cases[i].want[2],
				 cases[i].want[3]);
		gles_Disable(GL_SCISSOR_TEST);
		gles_ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		gles_BindFramebuffer(GL_FRAMEBUFFER, 0);
		gles_DeleteFramebuffers(1, &fbo);
		gles_DeleteRenderbuffers(1, &rb);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct agx_device_config config = { 0 };
	struct gles_context_params p = { .major = 3, .minor = 0 };
	struct gles_drawable *d = &f->drawable;

	test_stack_start(&f->stack, &options);
	config.memmgr_socket = f->stack.memmgr;
	config.scheduler_socket = f->stack.sched;
	config.name = "test-clear-zs";
	if (agx_device_open(&config, &f->dev) < 0)
		return -1;
	/*
	 * The drawable a pbuffer with RGBA8888 and D24S8 would be
	 * (egl_surface.c): linear colour rows 16-byte aligned, twiddled Z32F
	 * depth and S8 stencil.
	 */
	*d = (struct gles_drawable){ .width = W,
				     .height = H,
				     .red_bits = 8,
				     .green_bits = 8,
				     .blue_bits = 8,
				     .alpha_bits = 8,
				     .depth_bits = 24,
				     .stencil_bits = 8 };
	d->color = (struct gles_buffer){ .format = GLES_FORMAT_RGBA8_UNORM,
					 .layout = { .bytes_per_texel = 4, .stride = 96 } };
	d->depth = (struct gles_buffer){ .format = GLES_FORMAT_Z32_FLOAT,
					 .layout = { .twiddled = true, .bytes_per_texel = 4 } };
	d->stencil = (struct gles_buffer){ .format = GLES_FORMAT_S8_UINT,
					   .layout = { .twiddled = true, .bytes_per_texel = 1 } };
	for (unsigned i = 0; i < 3; i++) {
		struct gles_buffer *b = i == 0 ? &d->color : i == 1 ? &d->depth : &d->stencil;

		b->layout.width = W, b->layout.height = H, b->layout.levels = 1;
		if (!agx_layout_init(&b->layout) ||
		    agx_device_bo_create(f->dev, b->layout.layer_stride, 0, &b->bo) < 0)
			return -1;
	}
	p.dev = f->dev;
	p.renderer = "test";
	if (gles_context_create(&p, &f->ctx) < 0)
		return -1;
	gles_context_make_current(f->ctx, d, d);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	bool clean;

	if (!f)
		return -1;
	gles_context_make_current(NULL, NULL, NULL);
	gles_context_destroy(f->ctx);
	agx_device_bo_close(f->dev, &f->drawable.color.bo);
	agx_device_bo_close(f->dev, &f->drawable.depth.bo);
	agx_device_bo_close(f->dev, &f->drawable.stencil.bo);
	agx_device_close(f->dev);
	clean = test_stack_stop(&f->stack);
	free(f);
	return clean ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_framebuffer),
		cmocka_unit_test(test_fbo),
		cmocka_unit_test(test_rounding),
	};

	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

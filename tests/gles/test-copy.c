/*
 * test-copy: glCopyTexImage2D, glCopyTexSubImage2D/3D and glBlitFramebuffer
 * through glvnd, compared with Mesa's llvmpipe (llvmpipe.h).  One workload
 * -- copies from the default framebuffer and from framebuffer objects, into
 * mip levels, a cube face, array layers and 3D slices, into other formats
 * (RGB8, LUMINANCE, ALPHA, LUMINANCE_ALPHA, integers), from rectangles
 * partly outside the read framebuffer; blits of colour with NEAREST and LINEAR
 * scaling, mirrored, scissored, clipped, into two draw buffers, of depth
 * and of stencil (seen through draws that test them), a multisample
 * resolve; and every error of the four functions -- records its pixels and
 * glGetError after each call on both vendors.
 *
 * Only what the spec defines is read back: pixels copied from outside the
 * read framebuffer are left out.  LINEAR blits and what draws show compare
 * within a few steps (the two filter with other weights' precision); the
 * rest must be the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "llvmpipe.h"
#include "stack.h"

#define W 32
#define H 32

/* ---- the workload ------------------------------------------------------------------- */

static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };

static const char vs_quad[] = "#version 300 es\n"
			      "layout(location = 0) in vec2 pos;\n"
			      "uniform float z;\n"
			      "void main() { gl_Position = vec4(pos, z, 1); }\n";
/* texelFetch: what the texture holds, without filtering */
static const char fs_fetch[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "uniform highp sampler2D t;\n"
			       "out vec4 o;\n"
			       "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n";
static const char fs_colour[] = "#version 300 es\n"
				"precision highp float;\n"
				"uniform vec4 c;\n"
				"out vec4 o;\n"
				"void main() { o = c; }\n";

static GLuint prog_fetch, prog_colour, main_fb;

static void draw_quad(void)
{
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* The read framebuffer's w x h at (x, y) as RGBA8, with a tolerance (0: exact). */
static void read_rect(const char *name, int x, int y, int w, int h, unsigned tolerance)
{
	uint8_t px[W * H * 4];
	char n[200];

	memset(px, 0xcd, sizeof(px));
	glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	if (tolerance)
		snprintf(n, sizeof(n), "~%u.%u.%u.%u~%s", tolerance, tolerance, tolerance,
			 tolerance, name);
	else
		snprintf(n, sizeof(n), "%s", name);
	llvmpipe_record(n, px, (size_t)w * h * 4);
	llvmpipe_record_error(name);
}

/* A w x h pattern of RGBA8 texels, different in every texel and channel. */
static void pattern(uint8_t *px, int w, int h, unsigned seed)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *p = px + 4 * (y * w + x);

			p[0] = (uint8_t)(x * 8 + seed);
			p[1] = (uint8_t)(y * 8 + 3 * seed);
			p[2] = (uint8_t)((x ^ y) * 16 + 5);
			p[3] = (uint8_t)(255 - x * 4 - y);
		}
}

/* A new 2D texture of internalformat holding the pattern (format/type for its upload). */
static GLuint pattern_texture(GLenum internalformat, GLenum format, GLenum type, int w, int h,
			      unsigned seed)
{
	uint8_t px[W * H * 4];
	GLuint t;

	pattern(px, w, h, seed);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, (GLint)internalformat, w, h, 0, format, type, px);
	return t;
}

/* A framebuffer object reading and drawing colour attachment 0, texture t's level 0. */
static GLuint texture_fb(GLuint t)
{
	GLuint fb;

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
	return fb;
}

/* A new framebuffer object of one W x H colour renderbuffer (samples 0: single-sampled). */
static GLuint renderbuffer_fb(GLenum format, GLsizei samples, GLuint *rb)
{
	GLuint fb;

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, rb);
	glBindRenderbuffer(GL_RENDERBUFFER, *rb);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *rb);
	return fb;
}

/* Shows texture t's level 0 in the main framebuffer (texelFetch) and records w x h of it. */
static void show_texture(const char *name, GLuint t, int x, int y, int w, int h, unsigned tolerance)
{
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glClearColor(0, 0, 0, 0);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog_fetch);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glUniform1i(glGetUniformLocation(prog_fetch, "t"), 0);
	draw_quad();
	read_rect(name, x, y, w, h, tolerance);
}

/*
 * Fills the default framebuffer with scissored clears: four coloured
 * quadrants.  llvmpipe's scissored clears truncate (docs/gles.md), so what
 * is read from here compares within a step.
 */
static void fill_default(void)
{
	static const float c[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 1, 0, 0.5f }, { 0, 0, 1, 0.25f }, { 1, 1, 0, 0 }
	};

	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glEnable(GL_SCISSOR_TEST);
	for (int q = 0; q < 4; q++) {
		glScissor((q & 1) * W / 2, (q >> 1) * H / 2, W / 2, H / 2);
		glClearColor(c[q][0], c[q][1], c[q][2], c[q][3]);
		glClear(GL_COLOR_BUFFER_BIT);
	}
	glDisable(GL_SCISSOR_TEST);
}

static void copies(void)
{
	uint8_t zeros[W * H * 4] = { 0 };
	GLuint t, src, fb;

	/* from the default framebuffer */
	fill_default();
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 6, 24, 20, 0);
	llvmpipe_record_error("copy_default");
	show_texture("copy_default", t, 0, 0, 24, 20, 1);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glBindTexture(GL_TEXTURE_2D, t);
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, W, H, 0);
	show_texture("copy_default_unsized", t, 0, 0, W, H, 1);

	/* from a framebuffer object, into other formats */
	src = pattern_texture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, W, H, 1);
	fb = texture_fb(src);
	{
		static const struct {
			GLenum format;
			const char *name;
		} dst[] = {
			{ GL_RGBA8, "copy_rgba8" }, { GL_RGB8, "copy_rgb8" },
			{ GL_RGB, "copy_rgb" },	    { GL_LUMINANCE, "copy_luminance" },
			{ GL_ALPHA, "copy_alpha" }, { GL_LUMINANCE_ALPHA, "copy_la" },
			{ GL_R8, "copy_r8" },	    { GL_RG8, "copy_rg8" },
		};

		for (unsigned i = 0; i < sizeof(dst) / sizeof(dst[0]); i++) {
			glBindFramebuffer(GL_FRAMEBUFFER, fb);
			glBindTexture(GL_TEXTURE_2D, t);
			glCopyTexImage2D(GL_TEXTURE_2D, 0, dst[i].format, 2, 3, 16, 12, 0);
			llvmpipe_record_error(dst[i].name);
			show_texture(dst[i].name, t, 0, 0, 16, 12, 0);
		}
	}

	/* into a sub-rectangle of a mip level */
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, zeros);
	glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W / 2, H / 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, zeros);
	/* mipmap complete, or level 1 is no complete attachment (section 4.4.4.1) */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 1, 3, 2, 5, 7, 10, 9);
	llvmpipe_record_error("copy_sub_level");
	{
		GLuint lfb;

		glGenFramebuffers(1, &lfb);
		glBindFramebuffer(GL_FRAMEBUFFER, lfb);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 1);
		read_rect("copy_sub_level", 0, 0, W / 2, H / 2, 0);
		glDeleteFramebuffers(1, &lfb);
	}

	/* partly outside the read framebuffer: only the part inside is defined */
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, zeros);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, -6, 20, 16, 16);
	llvmpipe_record_error("copy_outside");
	show_texture("copy_outside", t, 6, 0, 10, 12, 0);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glBindTexture(GL_TEXTURE_2D, t);
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 24, -4, 16, 16, 0);
	llvmpipe_record_error("copy_image_outside");
	show_texture("copy_image_outside", t, 0, 4, 8, 12, 0);

	/* into a 2D array layer and a 3D slice */
	{
		static const GLenum targets[] = { GL_TEXTURE_2D_ARRAY, GL_TEXTURE_3D };
		static const char *const names[] = { "copy_array_layer", "copy_3d_slice" };

		for (unsigned i = 0; i < 2; i++) {
			GLuint a, afb;

			glGenTextures(1, &a);
			glBindTexture(targets[i], a);
			glTexImage3D(targets[i], 0, GL_RGBA8, 16, 16, 3, 0, GL_RGBA,
				     GL_UNSIGNED_BYTE, zeros);
			glBindFramebuffer(GL_FRAMEBUFFER, fb);
			glCopyTexSubImage3D(targets[i], 0, 2, 1, 2, 4, 5, 12, 13);
			llvmpipe_record_error(names[i]);
			glGenFramebuffers(1, &afb);
			glBindFramebuffer(GL_FRAMEBUFFER, afb);
			for (int layer = 1; layer < 3; layer++) {
				char n[64];

				snprintf(n, sizeof(n), "%s_%d", names[i], layer);
				glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, a,
							  0, layer);
				read_rect(n, 0, 0, 16, 16, 0);
			}
			glDeleteFramebuffers(1, &afb);
			glDeleteTextures(1, &a);
		}
	}

	/* into a cube map face */
	{
		GLuint cube, cfb;

		glGenTextures(1, &cube);
		glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glCopyTexImage2D(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, GL_RGBA8, 7, 3, 16, 16, 0);
		llvmpipe_record_error("copy_cube_face");
		glGenFramebuffers(1, &cfb);
		glBindFramebuffer(GL_FRAMEBUFFER, cfb);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				       GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, cube, 0);
		read_rect("copy_cube_face", 0, 0, 16, 16, 0);
		glDeleteFramebuffers(1, &cfb);
		glDeleteTextures(1, &cube);
	}

	/* integers: RGBA8UI into R8UI, read as integers */
	{
		GLuint ui = pattern_texture(GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, W, H, 2);
		GLuint ufb = texture_fb(ui), u2, u2fb;
		uint32_t px[16 * 16 * 4];

		glGenTextures(1, &u2);
		glBindTexture(GL_TEXTURE_2D, u2);
		glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, 1, 1, 16, 16, 0);
		llvmpipe_record_error("copy_r8ui");
		u2fb = texture_fb(u2);
		memset(px, 0, sizeof(px));
		glReadPixels(0, 0, 16, 16, GL_RGBA_INTEGER, GL_UNSIGNED_INT, px);
		llvmpipe_record("copy_r8ui", px, sizeof(px));
		glDeleteFramebuffers(1, &u2fb);
		glDeleteFramebuffers(1, &ufb);
		glDeleteTextures(1, &u2);
		glDeleteTextures(1, &ui);
	}
	glDeleteFramebuffers(1, &fb);
	glDeleteTextures(1, &src);
	glDeleteTextures(1, &t);
}

/* Every error of the copies; each call has one fault. */
static void copy_errors(void)
{
	static const struct {
		GLenum src, dst;
		const char *name;
	} formats[] = {
		{ GL_RGBA8, GL_RGB565, "e_rgba8_rgb565" },
		{ GL_RGBA8, GL_RGBA4, "e_rgba8_rgba4" },
		{ GL_RGBA8, GL_RGBA16F, "e_rgba8_rgba16f" },
		{ GL_RGBA8, GL_RGBA8_SNORM, "e_snorm" },
		{ GL_RGBA8, GL_SRGB8_ALPHA8, "e_to_srgb" },
		{ GL_SRGB8_ALPHA8, GL_RGBA8, "e_from_srgb" },
		{ GL_SRGB8_ALPHA8, GL_SRGB8, "e_srgb_srgb8" },
		{ GL_SRGB8_ALPHA8, GL_RGBA, "e_srgb_rgba" },
		{ GL_RGBA8UI, GL_R8UI, "e_ui_r8ui" },
		{ GL_RGBA8UI, GL_R16UI, "e_ui_r16ui" },
		{ GL_RGBA8UI, GL_RGBA8I, "e_ui_i" },
		{ GL_RGBA8UI, GL_RGBA8, "e_ui_unorm" },
		{ GL_RGBA8, GL_RGBA8UI, "e_unorm_ui" },
		{ GL_RGB565, GL_RGBA8, "e_565_rgba8" },
		{ GL_RGB565, GL_ALPHA, "e_565_alpha" },
		{ GL_RGB565, GL_LUMINANCE, "e_565_l" },
		{ GL_RG8, GL_RGB8, "e_rg8_rgb8" },
		{ GL_RG8, GL_LUMINANCE_ALPHA, "e_rg8_la" },
		{ GL_RGBA8, GL_DEPTH_COMPONENT16, "e_d16" },
		{ GL_RGBA8, GL_DEPTH24_STENCIL8, "e_d24s8" },
		{ GL_RGBA8, GL_COMPRESSED_RGB8_ETC2, "e_etc2" },
		{ GL_RGBA8, 0x1234, "e_bogus" },
		{ GL_RGBA8, GL_RGB9_E5, "e_rgb9e5" },
		{ GL_RGB10_A2, GL_RGBA8, "e_rgb10a2_rgba8" },
		{ GL_RGBA8, GL_RGB10_A2, "e_rgba8_rgb10a2" },
		{ GL_RGBA4, GL_RGBA, "e_rgba4_rgba" },
		{ GL_R32I, GL_R32I, "e_r32i" },
		{ GL_R32I, GL_R16I, "e_r32i_r16i" },
		{ GL_RGBA8, GL_SRGB8, "e_rgba8_srgb8" },
	};
	GLuint t, fb, rb;

	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		glRenderbufferStorage(GL_RENDERBUFFER, formats[i].src, 8, 8);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
					  rb);
		glCopyTexImage2D(GL_TEXTURE_2D, 0, formats[i].dst, 0, 0, 4, 4, 0);
		llvmpipe_record_error(formats[i].name);
	}
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
	glCopyTexImage2D(GL_TEXTURE_3D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_3d_target");
	glCopyTexImage2D(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_cube_target");
	glCopyTexImage2D(GL_TEXTURE_2D, -1, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_level");
	glCopyTexImage2D(GL_TEXTURE_2D, 20, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_level_20");
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 1);
	llvmpipe_record_error("e_border");
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, -1, 4, 0);
	llvmpipe_record_error("e_width");
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 100000, 4, 0);
	llvmpipe_record_error("e_huge");
	glCopyTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 0, 0, 4, 2, 0);
	llvmpipe_record_error("e_cube_square");
	glCopyTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 0, 0, 4, 4);
	llvmpipe_record_error("e_sub_no_level");
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_ok");
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 2, 2, 0, 0, 4, 4);
	llvmpipe_record_error("e_sub_outside");
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, -1, 0, 0, 0, 2, 2);
	llvmpipe_record_error("e_sub_negative");
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, -1, 2);
	llvmpipe_record_error("e_sub_width");
	glCopyTexSubImage3D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 0, 2, 2);
	llvmpipe_record_error("e_sub3d_target");
	glCopyTexSubImage2D(GL_TEXTURE_3D, 0, 0, 0, 0, 0, 2, 2);
	llvmpipe_record_error("e_sub2d_target");
	glReadBuffer(GL_NONE);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
	llvmpipe_record_error("e_read_none");
	glReadBuffer(GL_COLOR_ATTACHMENT0);
	{
		GLuint immutable;

		glGenTextures(1, &immutable);
		glBindTexture(GL_TEXTURE_2D, immutable);
		glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
		glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
		llvmpipe_record_error("e_immutable");
		glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
		llvmpipe_record_error("e_immutable_sub");
		glDeleteTextures(1, &immutable);
		glBindTexture(GL_TEXTURE_2D, t);
	}
	{
		GLuint empty;

		glGenFramebuffers(1, &empty);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, empty);
		glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
		llvmpipe_record_error("e_incomplete");
		glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 1);
		llvmpipe_record_error("e_incomplete_border");
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glDeleteFramebuffers(1, &empty);
	}
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 8, 8);
	glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
	llvmpipe_record_error("e_multisampled");
	glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
	llvmpipe_record_error("e_multisampled_image");
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &t);
}

/* A W x H RGBA8 texture attached to a new framebuffer object, with seed's pattern. */
static GLuint pattern_fb(unsigned seed, GLuint *tex, int w, int h)
{
	*tex = pattern_texture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, w, h, seed);
	return texture_fb(*tex);
}

static void blit_colour(void)
{
	static const struct {
		GLint src[4], dst[4];
		GLenum filter;
		unsigned tolerance;
		const char *name;
	} cases[] = {
		{ { 0, 0, 32, 32 }, { 0, 0, 32, 32 }, GL_NEAREST, 0, "blit_same" },
		{ { 4, 2, 20, 18 }, { 10, 12, 26, 28 }, GL_NEAREST, 0, "blit_moved" },
		{ { 0, 0, 12, 12 }, { 0, 0, 32, 32 }, GL_NEAREST, 0, "blit_up_nearest" },
		{ { 0, 0, 24, 24 }, { 0, 0, 16, 16 }, GL_NEAREST, 0, "blit_down_nearest" },
		{ { 0, 0, 32, 32 }, { 32, 0, 0, 32 }, GL_NEAREST, 0, "blit_flip_x" },
		{ { 0, 32, 32, 0 }, { 0, 0, 32, 32 }, GL_NEAREST, 0, "blit_flip_src_y" },
		{ { 32, 32, 0, 0 }, { 32, 32, 0, 0 }, GL_NEAREST, 0, "blit_flip_both" },
		{ { 0, 0, 32, 32 }, { 0, 0, 24, 40 }, GL_LINEAR, 3, "blit_linear" },
		{ { 0, 0, 32, 32 }, { 4, 4, 20, 20 }, GL_LINEAR, 3, "blit_linear_down" },
		{ { 0, 0, 32, 32 }, { -8, -8, 24, 24 }, GL_NEAREST, 0, "blit_dst_clipped" },
	};
	GLuint tex, fb = pattern_fb(3, &tex, W, H);

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
		glClearColor(0, 0, 0, 0);
		glClear(GL_COLOR_BUFFER_BIT);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
		glBlitFramebuffer(cases[i].src[0], cases[i].src[1], cases[i].src[2],
				  cases[i].src[3], cases[i].dst[0], cases[i].dst[1],
				  cases[i].dst[2], cases[i].dst[3], GL_COLOR_BUFFER_BIT,
				  cases[i].filter);
		llvmpipe_record_error(cases[i].name);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
		read_rect(cases[i].name, 0, 0, W, H, cases[i].tolerance);
	}

	/* the scissor box applies to blits */
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glClear(GL_COLOR_BUFFER_BIT);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glEnable(GL_SCISSOR_TEST);
	glScissor(5, 7, 13, 11);
	glBlitFramebuffer(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glDisable(GL_SCISSOR_TEST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
	read_rect("blit_scissor", 0, 0, W, H, 0);

	/* a source partly outside the read framebuffer: only compare the defined part */
	glClear(GL_COLOR_BUFFER_BIT);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBlitFramebuffer(16, 16, 48, 48, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	llvmpipe_record_error("blit_src_outside");
	glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
	read_rect("blit_src_outside", 0, 0, 16, 16, 0);

	/* from the default framebuffer, and into it */
	fill_default();
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
	glBlitFramebuffer(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
	read_rect("blit_from_default", 0, 0, W, H, 1);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
	glBlitFramebuffer(0, 0, 16, 16, 8, 8, 24, 24, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
	read_rect("blit_to_default", 0, 0, W, H, 1);

	/* within one image, overlapping: undefined, but it must not crash */
	/* into both draw buffers of a framebuffer */
	{
		static const GLenum bufs[] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
		GLuint two, rbs[2];

		glGenFramebuffers(1, &two);
		glBindFramebuffer(GL_FRAMEBUFFER, two);
		glGenRenderbuffers(2, rbs);
		for (int i = 0; i < 2; i++) {
			glBindRenderbuffer(GL_RENDERBUFFER, rbs[i]);
			glRenderbufferStorage(GL_RENDERBUFFER, i ? GL_RGB565 : GL_RGBA8, W, H);
			glFramebufferRenderbuffer(GL_FRAMEBUFFER, bufs[i], GL_RENDERBUFFER, rbs[i]);
		}
		glDrawBuffers(2, bufs);
		/* llvmpipe's draw into RGB565 truncates, ours rounds: a 5-bit step apart */
		glClear(GL_COLOR_BUFFER_BIT);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
		glBlitFramebuffer(0, 0, 16, 16, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		llvmpipe_record_error("blit_mrt");
		glBindFramebuffer(GL_READ_FRAMEBUFFER, two);
		glReadBuffer(GL_COLOR_ATTACHMENT0);
		read_rect("blit_mrt_0", 0, 0, W, H, 0);
		glReadBuffer(GL_COLOR_ATTACHMENT1);
		read_rect("blit_mrt_1", 0, 0, W, H, 9);
		glDeleteFramebuffers(1, &two);
		glDeleteRenderbuffers(2, rbs);
	}

	/* a multisampled renderbuffer resolved */
	{
		GLuint msrb, ms = renderbuffer_fb(GL_RGBA8, 4, &msrb);

		glClearColor(0.25f, 0.5f, 0.75f, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
		glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		llvmpipe_record_error("blit_resolve");
		glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
		read_rect("blit_resolve", 0, 0, W, H, 1);
		glDeleteFramebuffers(1, &ms);
		glDeleteRenderbuffers(1, &msrb);
	}
	glDeleteFramebuffers(1, &fb);
	glDeleteTextures(1, &tex);
}

/* A framebuffer object of an RGBA8 colour and a depth/stencil renderbuffer of format. */
static GLuint zs_fb(GLenum format, GLuint rbs[2])
{
	GLuint fb = renderbuffer_fb(GL_RGBA8, 0, &rbs[0]);

	glGenRenderbuffers(1, &rbs[1]);
	glBindRenderbuffer(GL_RENDERBUFFER, rbs[1]);
	glRenderbufferStorage(GL_RENDERBUFFER, format, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
				  rbs[1]);
	return fb;
}

/*
 * Depth and stencil blits: the source gets scissored clears of several
 * depths and stencil values, is blitted (moved, scaled, mirrored), and
 * draws into the destination show what arrived: a quad at depth 0.5
 * with GL_LESS, and one with the stencil test EQUAL 1.
 */
static void blit_depth_stencil(GLenum format, const char *tag)
{
	GLuint a[2], b[2], fa = zs_fb(format, a), fb = zs_fb(format, b);
	char n[64];

	glBindFramebuffer(GL_FRAMEBUFFER, fa);
	glClearDepthf(0.25f);
	glClearStencil(0);
	glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(4, 4, 12, 20);
	glClearDepthf(0.9f);
	glClearStencil(1);
	glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glScissor(20, 10, 8, 8);
	glClearDepthf(0.75f);
	glClearStencil(3);
	glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);

	for (int k = 0; k < 2; k++) {
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glClearColor(0, 0, 0, 1);
		glClearDepthf(0);
		glClearStencil(0);
		glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, fa);
		if (k == 0)
			glBlitFramebuffer(0, 0, W, H, 0, 0, W, H,
					  GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT, GL_NEAREST);
		else
			glBlitFramebuffer(0, 0, 24, 24, 32, 0, 0, 32,
					  GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT, GL_NEAREST);
		snprintf(n, sizeof(n), "blit_%s_%d", tag, k);
		llvmpipe_record_error(n);
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glUseProgram(prog_colour);
		glEnable(GL_DEPTH_TEST);
		glDepthFunc(GL_LESS);
		glDepthMask(GL_FALSE);
		glUniform1f(glGetUniformLocation(prog_colour, "z"), 0.0f);
		glUniform4f(glGetUniformLocation(prog_colour, "c"), 1, 0, 0, 1);
		draw_quad();
		glDisable(GL_DEPTH_TEST);
		glEnable(GL_STENCIL_TEST);
		glStencilFunc(GL_EQUAL, 1, 0xff);
		glUniform4f(glGetUniformLocation(prog_colour, "c"), 0, 1, 0, 1);
		glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_FALSE);
		draw_quad();
		glStencilFunc(GL_EQUAL, 3, 0xff);
		glUniform4f(glGetUniformLocation(prog_colour, "c"), 0, 0, 1, 1);
		glColorMask(GL_FALSE, GL_FALSE, GL_TRUE, GL_FALSE);
		draw_quad();
		glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		glDisable(GL_STENCIL_TEST);
		glDepthMask(GL_TRUE);
		read_rect(n, 0, 0, W, H, 0);
	}
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fa);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, a);
	glDeleteRenderbuffers(2, b);
}

/* A blit of the 4x4 corner, and the error it gives. */
static void blit_4x4(const char *name, GLbitfield mask, GLenum filter)
{
	glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, mask, filter);
	llvmpipe_record_error(name);
}

/* Every error of glBlitFramebuffer; each call has one fault. */
static void blit_errors(void)
{
	GLuint tex, fb = pattern_fb(4, &tex, W, H), other, rbs[2], za[2], zb[2], zfa, zfb;

	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
	blit_4x4("eb_mask", 0x8000, GL_NEAREST);
	blit_4x4("eb_filter", GL_COLOR_BUFFER_BIT, GL_LINEAR_MIPMAP_LINEAR);
	blit_4x4("eb_linear_depth", GL_DEPTH_BUFFER_BIT, GL_LINEAR);
	blit_4x4("eb_linear_stencil", GL_STENCIL_BUFFER_BIT, GL_LINEAR);
	blit_4x4("eb_no_mask", 0, GL_NEAREST);
	blit_4x4("eb_no_depth", GL_DEPTH_BUFFER_BIT, GL_NEAREST);
	/* one image read and drawn: Mesa refuses it, overlapping or not (ES leaves it undefined) */
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glBlitFramebuffer(0, 0, 8, 8, 16, 16, 24, 24, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	llvmpipe_record_error("eb_same_image");
	glBlitFramebuffer(0, 0, 20, 20, 4, 4, 24, 24, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	llvmpipe_record_error("eb_same_image_overlap");
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
	blit_4x4("eb_mask_and_linear_depth", 0x8000 | GL_DEPTH_BUFFER_BIT, GL_LINEAR);
	blit_4x4("eb_mask_and_filter", 0x8000, 0x1234);

	/* incomplete framebuffers */
	glGenFramebuffers(1, &other);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, other);
	blit_4x4("eb_read_incomplete", GL_COLOR_BUFFER_BIT, GL_NEAREST);
	blit_4x4("eb_incomplete_and_mask", 0x8000, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, other);
	blit_4x4("eb_draw_incomplete", GL_COLOR_BUFFER_BIT, GL_NEAREST);

	/* value classes */
	glBindFramebuffer(GL_FRAMEBUFFER, other);
	glGenRenderbuffers(2, rbs);
	glBindRenderbuffer(GL_RENDERBUFFER, rbs[0]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8UI, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbs[0]);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	blit_4x4("eb_unorm_to_uint", GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, other);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
	blit_4x4("eb_uint_to_unorm", GL_COLOR_BUFFER_BIT, GL_NEAREST);
	blit_4x4("eb_uint_linear", GL_COLOR_BUFFER_BIT, GL_LINEAR);
	{
		GLuint i8;

		glGenFramebuffers(1, &i8);
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, i8);
		glBindRenderbuffer(GL_RENDERBUFFER, rbs[1]);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8I, W, H);
		glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					  GL_RENDERBUFFER, rbs[1]);
		blit_4x4("eb_uint_to_int", GL_COLOR_BUFFER_BIT, GL_NEAREST);
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
		glDeleteFramebuffers(1, &i8);
	}

	/* depth and stencil formats must match */
	zfa = zs_fb(GL_DEPTH24_STENCIL8, za);
	zfb = zs_fb(GL_DEPTH32F_STENCIL8, zb);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, zfa);
	blit_4x4("eb_depth_formats", GL_DEPTH_BUFFER_BIT, GL_NEAREST);
	blit_4x4("eb_stencil_formats", GL_STENCIL_BUFFER_BIT, GL_NEAREST);
	blit_4x4("eb_colour_with_zs", GL_COLOR_BUFFER_BIT, GL_NEAREST);

	/* multisampling: no multisampled destination; a resolve copies the same rectangle */
	{
		GLuint msrb, ms = renderbuffer_fb(GL_RGBA8, 4, &msrb);

		glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
		blit_4x4("eb_ms_draw", GL_COLOR_BUFFER_BIT, GL_NEAREST);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, ms);
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, main_fb);
		glBlitFramebuffer(0, 0, 4, 4, 1, 0, 5, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		llvmpipe_record_error("eb_ms_moved");
		glBlitFramebuffer(0, 0, 4, 4, 0, 0, 8, 8, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		llvmpipe_record_error("eb_ms_scaled");
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, other);
		glBindRenderbuffer(GL_RENDERBUFFER, rbs[0]);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, W, H);
		blit_4x4("eb_ms_format", GL_COLOR_BUFFER_BIT, GL_NEAREST);
		blit_4x4("eb_ms_format_linear", GL_COLOR_BUFFER_BIT, GL_LINEAR);
		glDeleteFramebuffers(1, &ms);
		glDeleteRenderbuffers(1, &msrb);
	}
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &zfa);
	glDeleteFramebuffers(1, &zfb);
	glDeleteRenderbuffers(2, za);
	glDeleteRenderbuffers(2, zb);
	glDeleteFramebuffers(1, &other);
	glDeleteRenderbuffers(2, rbs);
	glDeleteFramebuffers(1, &fb);
	glDeleteTextures(1, &tex);
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLContext ctx;
	EGLSurface surf;
	GLuint rb;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API) ||
	    !llvmpipe_make_current(dpy, 8, 8, 8, 8, 3, W, H, &surf, &ctx)) {
		fprintf(stderr, "workload: no context (0x%x)\n", eglGetError());
		return 1;
	}
	prog_fetch = llvmpipe_program(vs_quad, fs_fetch, NULL);
	prog_colour = llvmpipe_program(vs_quad, fs_colour, NULL);
	main_fb = renderbuffer_fb(GL_RGBA8, 0, &rb);
	glViewport(0, 0, W, H);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "workload: the framebuffer is not complete\n");
		return 1;
	}
	copies();
	copy_errors();
	blit_colour();
	blit_depth_stencil(GL_DEPTH24_STENCIL8, "d24s8");
	blit_depth_stencil(GL_DEPTH32F_STENCIL8, "d32fs8");
	blit_errors();
	llvmpipe_release(dpy, surf, ctx);
	return 0;
}

/* ---- the tests ------------------------------------------------------------------------- */

static void test_llvmpipe(void **state)
{
	llvmpipe_compare(*state, 150);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llvmpipe),
	};

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}

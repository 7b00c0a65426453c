/*
 * test-mipmap: glGenerateMipmap through glvnd.
 *
 * Compared with Mesa's llvmpipe (llvmpipe.h): one workload generates the
 * chains of 2D textures of power-of-two and other sizes, cube maps, 2D
 * arrays and 3D textures, mutable and immutable, in RGBA8, RGB565,
 * RGBA16F and SRGB8_ALPHA8, and RGBA4, RGB5_A1, RG8 and R11F_G11F_B10F
 * (formats the driver draws the levels of) and LUMINANCE_ALPHA (which it
 * filters on the CPU), and records every level of every face and layer as
 * glReadPixels reads it from a framebuffer the level is attached to
 * (LUMINANCE_ALPHA, which no framebuffer takes, through a draw that
 * texelFetches it).  It also checks that what follows the call sees its
 * levels without a glFinish -- a draw sampling them, an upload into a
 * level, the chain generated again after an upload of its base --, that
 * the application's state (framebuffer, viewport, scissor, blending,
 * colour mask, sampler object, bindings, the texture's own parameters)
 * is what it was and does not change the levels, and the errors.
 *
 * Levels compare with llvmpipe within a step a level: where a level
 * halves the one above, any reasonable filter gives the mean of the 2x2
 * texels under each texel, but llvmpipe rounds each level upwards (by up
 * to three quarters of a step, measured), ours to nearest, and the
 * difference adds up down the chain (RGB565: in its 5- and 6-bit steps,
 * which glReadPixels widens each vendor its own way, docs/gles.md).
 * Where a size is odd, section 3.8.10 names no filter; llvmpipe's
 * (u_gen_mipmap: a LINEAR blit) samples at the texels' centres as the
 * driver's draws do, so those compare too -- but for the filters that are
 * not that: the CPU's box filter of an odd size (LUMINANCE_ALPHA), and a
 * 3D level under one of odd depth (the driver averages two slices,
 * llvmpipe samples one at the centre's r), which are shown, not compared.
 * On our vendor alone, every level is then checked against the filter the
 * driver means to apply, worked out here from the level above as read
 * back: the bilinear sample at the centre of each texel (3D: the mean of
 * two slices so sampled), in linear space for sRGB, rounded to nearest.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* ---- textures and their levels -------------------------------------------------------- */

/* A format of the tests: its upload's format/type, and its channels' steps (0: none). */
struct mip_format {
	GLenum internalformat, format, type;
	unsigned components;
	bool srgb, is_float;
	float steps[4];
};

static const struct mip_format formats[] = {
	{ GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, false, false, { 255, 255, 255, 255 } },
	{ GL_RGB565, GL_RGB, GL_UNSIGNED_BYTE, 3, false, false, { 31, 63, 31, 0 } },
	{ GL_RGBA16F, GL_RGBA, GL_FLOAT, 4, false, true, { 1024, 1024, 1024, 1024 } },
	{ GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, true, false, { 255, 255, 255, 255 } },
	{ GL_RGBA4, GL_RGBA, GL_UNSIGNED_BYTE, 4, false, false, { 15, 15, 15, 15 } },
	{ GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_BYTE, 4, false, false, { 31, 31, 31, 1 } },
	{ GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, false, false, { 255, 255, 0, 0 } },
	/* 6 and 5 bits of mantissa: a step is two of the largest values' units */
	{ GL_R11F_G11F_B10F, GL_RGB, GL_FLOAT, 3, false, true, { 64, 64, 32, 0 } },
	{ GL_LUMINANCE_ALPHA, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2, false, false, { 0 } },
};

static const struct mip_format *format_of(GLenum internalformat)
{
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].internalformat == internalformat)
			return &formats[i];
	return &formats[0];
}

/* A texture the tests generate the chain of. */
struct mip_case {
	const char *name;
	GLenum target, internalformat;
	int w, h, d; /* d: layers, or 3D slices */
	unsigned seed;
	bool storage; /* glTexStorage's immutable levels, else glTexImage's */
};

/* Byte c of texel (x, y, z) of level 0: every texel and channel different, no smooth ramps. */
static uint8_t pattern(int x, int y, int z, unsigned c, unsigned seed)
{
	unsigned v = (unsigned)(x * 37 + y * 91 + z * 53 + (int)c * 71) + seed * 29;

	v ^= (unsigned)(x * y) * 13u + (v >> 3);
	return (uint8_t)(c == 3 ? 128 + (v & 127) : v);
}

static bool is_cube(const struct mip_case *m)
{
	return m->target == GL_TEXTURE_CUBE_MAP;
}

/* Faces (cube) and layers or slices of level 0. */
static int faces_of(const struct mip_case *m)
{
	return is_cube(m) ? 6 : 1;
}

static int layers_of(const struct mip_case *m, int level)
{
	if (m->target == GL_TEXTURE_3D)
		return m->d >> level ? m->d >> level : 1;
	return m->target == GL_TEXTURE_2D_ARRAY ? m->d : 1;
}

static int size_at(int size, int level)
{
	return size >> level ? size >> level : 1;
}

static int levels_of(const struct mip_case *m)
{
	int biggest = m->w > m->h ? m->w : m->h, n = 1;

	if (m->target == GL_TEXTURE_3D && m->d > biggest)
		biggest = m->d;
	while (biggest >>= 1)
		n++;
	return n;
}

/* The face target of face f (the texture's target when it has no faces). */
static GLenum face_target(const struct mip_case *m, int f)
{
	return is_cube(m) ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f : m->target;
}

/* Level 0 of every face and layer: the pattern, as bytes or floats of the format's channels. */
static void upload_level0(const struct mip_case *m)
{
	const struct mip_format *f = format_of(m->internalformat);
	int layers = m->target == GL_TEXTURE_2D || is_cube(m) ? 1 : m->d;
	size_t texels = (size_t)m->w * m->h * layers;
	uint8_t *px = malloc(texels * 4);
	float *fl = malloc(texels * 16);
	const void *data = f->is_float ? (const void *)fl : px;

	for (int face = 0; face < faces_of(m); face++) {
		GLenum target = face_target(m, face);
		size_t n = 0;

		for (int z = 0; z < layers; z++)
			for (int y = 0; y < m->h; y++)
				for (int x = 0; x < m->w; x++)
					for (unsigned c = 0; c < f->components; c++, n++) {
						px[n] = pattern(x, y, z + face, c, m->seed);
						fl[n] = px[n] / 255.0f;
					}
		if (m->storage && (m->target == GL_TEXTURE_2D || is_cube(m)))
			glTexSubImage2D(target, 0, 0, 0, m->w, m->h, f->format, f->type, data);
		else if (m->storage)
			glTexSubImage3D(target, 0, 0, 0, 0, m->w, m->h, m->d, f->format, f->type,
					data);
		else if (m->target == GL_TEXTURE_2D || is_cube(m))
			glTexImage2D(target, 0, (GLint)m->internalformat, m->w, m->h, 0, f->format,
				     f->type, data);
		else
			glTexImage3D(target, 0, (GLint)m->internalformat, m->w, m->h, m->d, 0,
				     f->format, f->type, data);
	}
	free(px);
	free(fl);
}

static GLuint make_texture(const struct mip_case *m)
{
	GLuint t;

	glGenTextures(1, &t);
	glBindTexture(m->target, t);
	if (m->storage && (m->target == GL_TEXTURE_2D || is_cube(m)))
		glTexStorage2D(m->target, levels_of(m), m->internalformat, m->w, m->h);
	else if (m->storage)
		glTexStorage3D(m->target, levels_of(m), m->internalformat, m->w, m->h, m->d);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	upload_level0(m);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
	return t;
}

static GLuint read_fb;

/*
 * Level `level` of face f, layer z of texture t as RGBA floats in [0, 1]
 * (out: w * h * 4), read by glReadPixels from a framebuffer it is attached
 * to: RGBA/UNSIGNED_BYTE, or RGBA/FLOAT for float formats.  bytes (when not
 * NULL) gets the RGBA/UNSIGNED_BYTE bytes.  False when it cannot be read.
 */
static bool read_level(const struct mip_case *m, GLuint t, int f, int level, int z, float *out,
		       uint8_t *bytes)
{
	int w = size_at(m->w, level), h = size_at(m->h, level);
	GLint draw_fb;
	bool ok;

	glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
	if (!read_fb)
		glGenFramebuffers(1, &read_fb);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fb);
	if (m->target == GL_TEXTURE_2D || is_cube(m))
		glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, face_target(m, f),
				       t, level);
	else
		glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t, level, z);
	ok = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	if (ok && format_of(m->internalformat)->is_float) {
		glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, out);
		for (int i = 0; bytes && i < w * h * 4; i++) {
			float v = out[i] < 0 ? 0 : out[i] > 1 ? 1 : out[i];

			bytes[i] = (uint8_t)lrintf(v * 255);
		}
	} else if (ok) {
		uint8_t *px = malloc((size_t)w * h * 4);

		glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
		for (int i = 0; i < w * h * 4; i++)
			out[i] = px[i] / 255.0f;
		if (bytes)
			memcpy(bytes, px, (size_t)w * h * 4);
		free(px);
	}
	glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)draw_fb);
	return ok;
}

/* Whether each dimension of level `level` is half of the one above's (or 1 of 1); level 0 is. */
static bool halves(const struct mip_case *m, int level)
{
	int sizes[3] = { m->w, m->h, m->target == GL_TEXTURE_3D ? m->d : 1 };

	for (unsigned i = 0; level && i < 3; i++) {
		int above = size_at(sizes[i], level - 1), here = size_at(sizes[i], level);

		if (above != 2 * here && above != 1)
			return false;
	}
	return true;
}

/* ---- the workload ------------------------------------------------------------------- */

static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };

static const char vs_quad[] =
    "#version 300 es\n"
    "layout(location = 0) in vec2 pos;\n"
    "out vec2 uv;\n"
    "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0, 1); }\n";
static const char fs_fetch[] =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform highp sampler2D t;\n"
    "uniform int level;\n"
    "out vec4 o;\n"
    "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), level); }\n";
static const char fs_lod[] = "#version 300 es\n"
			     "precision highp float;\n"
			     "uniform highp sampler2D t;\n"
			     "uniform float lod;\n"
			     "in vec2 uv;\n"
			     "out vec4 o;\n"
			     "void main() { o = textureLod(t, uv, lod); }\n";

static GLuint prog_fetch, prog_lod, main_fb;

static void draw_quad(void)
{
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/*
 * A level's record name, with its tolerance (docs above): a step of
 * rounding a level, as llvmpipe's drift upwards adds up (RGB565: 5- or
 * 6-bit steps); or shown, not compared, where the filters are not the
 * same (the CPU's box filter of an odd size, a 3D level of an odd depth).
 */
static void record_name(char *n, size_t size, const struct mip_case *m, int level, int f, int z,
			const char *tag)
{
	unsigned steps = level > 1 ? (unsigned)level : 1;
	const struct mip_format *fmt = format_of(m->internalformat);
	/* in 8-bit steps: one of the format's (5 bits: 8.2, 4 bits: 17) and one of rounding */
	unsigned unit =
	    !fmt->steps[0] || fmt->steps[0] >= 255 ? 1 : (unsigned)(255 / fmt->steps[0]) + 1;
	unsigned tol = unit * steps;
	bool odd_depth = false;

	/* a 3D level under one of odd depth, or under a level that was */
	for (int k = 1; m->target == GL_TEXTURE_3D && k <= level; k++)
		odd_depth |=
		    size_at(m->d, k - 1) != 2 * size_at(m->d, k) && size_at(m->d, k - 1) != 1;
	if ((m->internalformat == GL_LUMINANCE_ALPHA && !halves(m, level)) || odd_depth)
		snprintf(n, size, "#%s%s.f%d.z%d.l%d", m->name, tag, f, z, level);
	else
		snprintf(n, size, "~%u.%u.%u.%u~%s%s.f%d.z%d.l%d", tol, tol, tol, tol, m->name, tag,
			 f, z, level);
}

/* Every level, face and layer of t as records. */
static void record_chain(const struct mip_case *m, GLuint t, const char *tag)
{
	float *fl = malloc((size_t)m->w * m->h * 16);
	uint8_t *px = malloc((size_t)m->w * m->h * 4);
	char n[200];

	for (int level = 0; level < levels_of(m); level++)
		for (int f = 0; f < faces_of(m); f++)
			for (int z = 0; z < layers_of(m, level); z++) {
				int w = size_at(m->w, level), h = size_at(m->h, level);

				record_name(n, sizeof(n), m, level, f, z, tag);
				if (read_level(m, t, f, level, z, fl, px))
					llvmpipe_record(n, px, (size_t)w * h * 4);
			}
	snprintf(n, sizeof(n), "%s%s", m->name, tag);
	llvmpipe_record_error(n);
	free(fl);
	free(px);
}

/* The 2D texture t's level shown by texelFetch in the main framebuffer, recorded. */
static void record_fetched(const struct mip_case *m, GLuint t, int level)
{
	int w = size_at(m->w, level), h = size_at(m->h, level);
	uint8_t px[W * H * 4];
	char n[200];

	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glViewport(0, 0, W, H);
	glUseProgram(prog_fetch);
	glBindTexture(GL_TEXTURE_2D, t);
	glUniform1i(glGetUniformLocation(prog_fetch, "level"), level);
	draw_quad();
	glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	record_name(n, sizeof(n), m, level, 0, 0, ".fetched");
	llvmpipe_record(n, px, (size_t)w * h * 4);
}

static const struct mip_case cases[] = {
	{ "rgba8.16x16", GL_TEXTURE_2D, GL_RGBA8, 16, 16, 1, 1, false },
	{ "rgba8.32x8", GL_TEXTURE_2D, GL_RGBA8, 32, 8, 1, 2, false },
	{ "rgba8.13x7", GL_TEXTURE_2D, GL_RGBA8, 13, 7, 1, 3, false },
	{ "rgba8.1x9", GL_TEXTURE_2D, GL_RGBA8, 1, 9, 1, 4, false },
	{ "rgb565.16x8", GL_TEXTURE_2D, GL_RGB565, 16, 8, 1, 5, false },
	{ "rgb565.10x6", GL_TEXTURE_2D, GL_RGB565, 10, 6, 1, 6, false },
	{ "rgba16f.16x16", GL_TEXTURE_2D, GL_RGBA16F, 16, 16, 1, 7, false },
	{ "rgba16f.11x5", GL_TEXTURE_2D, GL_RGBA16F, 11, 5, 1, 8, false },
	{ "srgb8a8.16x16", GL_TEXTURE_2D, GL_SRGB8_ALPHA8, 16, 16, 1, 9, false },
	{ "srgb8a8.9x9", GL_TEXTURE_2D, GL_SRGB8_ALPHA8, 9, 9, 1, 10, false },
	{ "cube.rgba8.8", GL_TEXTURE_CUBE_MAP, GL_RGBA8, 8, 8, 1, 11, false },
	{ "cube.srgb8a8.12", GL_TEXTURE_CUBE_MAP, GL_SRGB8_ALPHA8, 12, 12, 1, 12, false },
	{ "cube.rgba16f.4", GL_TEXTURE_CUBE_MAP, GL_RGBA16F, 4, 4, 1, 13, false },
	{ "array.rgba8.8x4x3", GL_TEXTURE_2D_ARRAY, GL_RGBA8, 8, 4, 3, 14, false },
	{ "array.rgb565.10x6x2", GL_TEXTURE_2D_ARRAY, GL_RGB565, 10, 6, 2, 15, false },
	{ "array.srgb8a8.8x8x2", GL_TEXTURE_2D_ARRAY, GL_SRGB8_ALPHA8, 8, 8, 2, 16, false },
	{ "3d.rgba8.8x4x4", GL_TEXTURE_3D, GL_RGBA8, 8, 4, 4, 17, false },
	{ "3d.rgba8.6x6x3", GL_TEXTURE_3D, GL_RGBA8, 6, 6, 3, 18, false },
	{ "rgba4.16x16", GL_TEXTURE_2D, GL_RGBA4, 16, 16, 1, 25, false },
	{ "rgb5a1.12x8", GL_TEXTURE_2D, GL_RGB5_A1, 12, 8, 1, 26, false },
	{ "rg8.8x16", GL_TEXTURE_2D, GL_RG8, 8, 16, 1, 27, false },
	{ "r11g11b10f.16x8", GL_TEXTURE_2D, GL_R11F_G11F_B10F, 16, 8, 1, 28, false },
	/* immutable storage: the levels are one image, drawn into at their levels */
	{ "storage.rgba8.16x8", GL_TEXTURE_2D, GL_RGBA8, 16, 8, 1, 29, true },
	{ "storage.srgb8a8.10x10", GL_TEXTURE_2D, GL_SRGB8_ALPHA8, 10, 10, 1, 30, true },
	{ "storage.cube.rgba8.8", GL_TEXTURE_CUBE_MAP, GL_RGBA8, 8, 8, 1, 31, true },
	{ "storage.array.rgba16f.8x8x3", GL_TEXTURE_2D_ARRAY, GL_RGBA16F, 8, 8, 3, 32, true },
	{ "storage.3d.rgba8.8x8x4", GL_TEXTURE_3D, GL_RGBA8, 8, 8, 4, 33, true },
};

static void generate_all(void)
{
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		GLuint t = make_texture(&cases[i]);

		glGenerateMipmap(cases[i].target);
		record_chain(&cases[i], t, "");
		glDeleteTextures(1, &t);
	}
}

/* The CPU path: LUMINANCE_ALPHA, which no framebuffer takes, seen through texelFetch. */
static void luminance_alpha(void)
{
	static const struct mip_case las[] = {
		{ "la.16x8", GL_TEXTURE_2D, GL_LUMINANCE_ALPHA, 16, 8, 1, 19, false },
		{ "la.7x5", GL_TEXTURE_2D, GL_LUMINANCE_ALPHA, 7, 5, 1, 20, false },
	};

	for (unsigned i = 0; i < 2; i++) {
		GLuint t = make_texture(&las[i]);

		glGenerateMipmap(GL_TEXTURE_2D);
		llvmpipe_record_error(las[i].name);
		for (int level = 0; level < levels_of(&las[i]); level++)
			record_fetched(&las[i], t, level);
		glDeleteTextures(1, &t);
	}
}

/*
 * What comes after the call sees its levels, with no glFinish between: a
 * draw sampling them (after one that left the main framebuffer's pass
 * open), an upload into a level, and the chain generated again after an
 * upload into the base level (its levels kept, drawn again); and a
 * texture deleted right after the call, whose images must outlive the
 * draws (the records after it would differ if the context were lost).
 */
static void ordering(void)
{
	const struct mip_case m = { "order.16x16", GL_TEXTURE_2D, GL_RGBA8, 16, 16, 1, 21, false };
	const struct mip_case m2 = {
		"order2.16x16", GL_TEXTURE_2D, GL_RGBA8, 16, 16, 1, 22, false
	};
	uint8_t px[W * H * 4], sub[4 * 4 * 4];
	GLuint t = make_texture(&m);
	GLuint t2 = make_texture(&m2);

	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glViewport(0, 0, W, H);
	glClearColor(0.25f, 0.5f, 0.75f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	/* a draw into the main framebuffer: its pass is open when the levels are drawn */
	glUseProgram(prog_fetch);
	glUniform1i(glGetUniformLocation(prog_fetch, "level"), 0);
	glBindTexture(GL_TEXTURE_2D, t2);
	draw_quad();
	glBindTexture(GL_TEXTURE_2D, t);
	glGenerateMipmap(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glUseProgram(prog_lod);
	for (int lod = 0; lod < 5; lod++) {
		char n[64];

		glUniform1f(glGetUniformLocation(prog_lod, "lod"), (float)lod);
		draw_quad();
		glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
		/* level lod's tolerance (record_name) */
		snprintf(n, sizeof(n), "~%d.%d.%d.%d~order.sampled.lod%d", lod ? lod : 1,
			 lod ? lod : 1, lod ? lod : 1, lod ? lod : 1, lod);
		llvmpipe_record(n, px, sizeof(px));
	}
	/* an upload into level 1 right after the call: the rest of level 1 is the call's */
	glGenerateMipmap(GL_TEXTURE_2D);
	for (int i = 0; i < 4 * 4 * 4; i++)
		sub[i] = (uint8_t)(i * 7);
	glTexSubImage2D(GL_TEXTURE_2D, 1, 2, 3, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, sub);
	record_chain(&m, t, ".sub");
	/* the base level uploaded again (another pattern), the chain again into the same levels */
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	upload_level0(&m2);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
	glGenerateMipmap(GL_TEXTURE_2D);
	record_chain(&m2, t, ".again");
	glDeleteTextures(1, &t);
	glDeleteTextures(1, &t2);
	/* deleted while its levels' draws may not have run: their images outlive them */
	t = make_texture(
	    &(struct mip_case){ "order.deleted", GL_TEXTURE_2D, GL_RGBA8, 32, 32, 1, 36, false });
	glGenerateMipmap(GL_TEXTURE_2D);
	glDeleteTextures(1, &t);
	llvmpipe_record_error("order.deleted");
}

/*
 * Level 0 rendered by the application (its pass still open), then the
 * chain: the draws of the levels come after that pass has stored it.
 */
static void render_to_texture(void)
{
	const struct mip_case src = { "rtt.src", GL_TEXTURE_2D, GL_RGBA8, 16, 16, 1, 34, false };
	const struct mip_case m = { "rtt.16x16", GL_TEXTURE_2D, GL_RGBA8, 16, 16, 1, 35, false };
	GLuint s = make_texture(&src), t = make_texture(&m), fb;

	glBindTexture(GL_TEXTURE_2D, s);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
	glViewport(0, 0, 16, 16);
	glUseProgram(prog_fetch);
	glUniform1i(glGetUniformLocation(prog_fetch, "level"), 0);
	/* the other texture's texels over the left half only: the rest keeps t's own */
	glEnable(GL_SCISSOR_TEST);
	glScissor(0, 0, 8, 16);
	draw_quad();
	glDisable(GL_SCISSOR_TEST);
	glBindTexture(GL_TEXTURE_2D, t);
	glGenerateMipmap(GL_TEXTURE_2D);
	record_chain(&m, t, "");
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteTextures(1, &s);
	glDeleteTextures(1, &t);
}

/* glGet's integers of pname, as a record. */
static void record_ints(const char *name, GLenum pname, int n)
{
	GLint v[4] = { 0 };

	glGetIntegerv(pname, v);
	llvmpipe_record(name, v, (size_t)n * sizeof(GLint));
}

/* Whether the binding pname is the object named (names are each vendor's own), as a record. */
static void record_bound(const char *name, GLenum pname, GLuint object)
{
	GLint v = 0;
	uint8_t same;

	glGetIntegerv(pname, &v);
	same = (GLuint)v == object;
	llvmpipe_record(name, &same, 1);
}

/*
 * The application's state before the call is its state after, and none
 * of it reaches the levels: a framebuffer, viewport, scissor, blending,
 * colour mask, depth test, a sampler object of NEAREST on unit 0, another
 * active unit, the texture's own filters and levels.
 */
static void state_kept(void)
{
	const struct mip_case m = { "state.16x12", GL_TEXTURE_2D, GL_RGBA8, 16, 12, 1, 24, false };
	GLuint t, sampler, other;
	GLint params[4];

	glGenTextures(1, &other);
	glActiveTexture(GL_TEXTURE0);
	t = make_texture(&m);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 7);
	glGenSamplers(1, &sampler);
	glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_REPEAT);
	glBindSampler(0, sampler);
	glActiveTexture(GL_TEXTURE2);
	glBindTexture(GL_TEXTURE_2D, other);
	glActiveTexture(GL_TEXTURE0);
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glViewport(3, 4, 20, 10);
	glEnable(GL_SCISSOR_TEST);
	glScissor(1, 2, 3, 4);
	glEnable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE);
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_NEVER);
	glUseProgram(prog_lod);

	glGenerateMipmap(GL_TEXTURE_2D);
	llvmpipe_record_error("state.generate");

	record_bound("state.draw_fb", GL_DRAW_FRAMEBUFFER_BINDING, main_fb);
	record_bound("state.read_fb", GL_READ_FRAMEBUFFER_BINDING, main_fb);
	record_ints("state.viewport", GL_VIEWPORT, 4);
	record_ints("state.scissor_box", GL_SCISSOR_BOX, 4);
	record_ints("state.scissor", GL_SCISSOR_TEST, 1);
	record_ints("state.blend", GL_BLEND, 1);
	record_ints("state.blend_src", GL_BLEND_SRC_RGB, 1);
	record_ints("state.colour_mask", GL_COLOR_WRITEMASK, 4);
	record_ints("state.depth_test", GL_DEPTH_TEST, 1);
	record_ints("state.depth_func", GL_DEPTH_FUNC, 1);
	record_bound("state.sampler", GL_SAMPLER_BINDING, sampler);
	record_ints("state.active", GL_ACTIVE_TEXTURE, 1);
	record_bound("state.texture0", GL_TEXTURE_BINDING_2D, t);
	record_bound("state.program", GL_CURRENT_PROGRAM, prog_lod);
	glActiveTexture(GL_TEXTURE2);
	record_bound("state.texture2", GL_TEXTURE_BINDING_2D, other);
	glActiveTexture(GL_TEXTURE0);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &params[0]);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, &params[1]);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, &params[2]);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &params[3]);
	llvmpipe_record("state.texture_params", params, sizeof(params));
	llvmpipe_record_error("state.queries");

	glDisable(GL_SCISSOR_TEST);
	glDisable(GL_BLEND);
	glDisable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glBindSampler(0, 0);
	record_chain(&m, t, "");
	glDeleteSamplers(1, &sampler);
	glDeleteTextures(1, &t);
	glDeleteTextures(1, &other);
}

/* Section 3.8.10's errors: integer and depth formats, no base level, a target that is none. */
static void errors(void)
{
	GLuint t;

	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glGenerateMipmap(GL_TEXTURE_2D);
	llvmpipe_record_error("error.no_level");
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, 4, 4, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE,
		     NULL);
	glGenerateMipmap(GL_TEXTURE_2D);
	llvmpipe_record_error("error.rgba8ui");
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT16, 4, 4, 0, GL_DEPTH_COMPONENT,
		     GL_UNSIGNED_SHORT, NULL);
	glGenerateMipmap(GL_TEXTURE_2D);
	llvmpipe_record_error("error.depth16");
	/* GL_TEXTURE_RECTANGLE: desktop GL's, no target here */
	glGenerateMipmap(0x84F5);
	llvmpipe_record_error("error.target");
	glDeleteTextures(1, &t);
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
	prog_lod = llvmpipe_program(vs_quad, fs_lod, NULL);
	glGenFramebuffers(1, &main_fb);
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "workload: the framebuffer is not complete\n");
		return 1;
	}
	generate_all();
	luminance_alpha();
	ordering();
	render_to_texture();
	state_kept();
	errors();
	llvmpipe_release(dpy, surf, ctx);
	return 0;
}

/* ---- our vendor alone: every level against the filter the driver applies ------------------ */

static float srgb_to_linear(float c)
{
	return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
	return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1 / 2.4f) - 0.055f;
}

/* Texel (x, y) of a w x h level's channel c, clamped to its edge (CLAMP_TO_EDGE). */
static float at(const float *l, int w, int h, int x, int y, unsigned c)
{
	x = x < 0 ? 0 : x >= w ? w - 1 : x;
	y = y < 0 ? 0 : y >= h ? h - 1 : y;
	return l[4 * (y * w + x) + c];
}

/* The bilinear sample of the level above (sw x sh) at the centre of texel (x, y) of a dw x dh one.
 */
static float bilinear(const float *l, int sw, int sh, int dw, int dh, int x, int y, unsigned c)
{
	float u = (x + 0.5f) * sw / dw - 0.5f, v = (y + 0.5f) * sh / dh - 0.5f;
	int x0 = (int)floorf(u), y0 = (int)floorf(v);
	float a = u - x0, b = v - y0;

	return (1 - a) * (1 - b) * at(l, sw, sh, x0, y0, c) +
	       a * (1 - b) * at(l, sw, sh, x0 + 1, y0, c) +
	       (1 - a) * b * at(l, sw, sh, x0, y0 + 1, c) +
	       a * b * at(l, sw, sh, x0 + 1, y0 + 1, c);
}

/*
 * The largest difference, in steps of the format's channels, between each
 * level as read back and the filter applied to the level above as read
 * back, over every level, face and layer of the case.
 */
static double worst_step(const struct mip_case *m, GLuint t)
{
	size_t n = (size_t)m->w * m->h * 4;
	const struct mip_format *fmt = format_of(m->internalformat);
	bool srgb = fmt->srgb;
	double worst = 0;
	const float *steps = fmt->steps;

	for (int f = 0; f < faces_of(m); f++) {
		for (int level = 1; level < levels_of(m); level++) {
			int sw = size_at(m->w, level - 1), sh = size_at(m->h, level - 1);
			int dw = size_at(m->w, level), dh = size_at(m->h, level);
			int sd = layers_of(m, level - 1);

			for (int z = 0; z < layers_of(m, level); z++) {
				float *above[2], *here = malloc(n * 4);
				int s[2] = { z, z };

				if (m->target == GL_TEXTURE_3D) {
					s[0] = 2 * z < sd ? 2 * z : sd - 1;
					s[1] = 2 * z + 1 < sd ? 2 * z + 1 : sd - 1;
				}
				for (unsigned k = 0; k < 2; k++) {
					above[k] = malloc(n * 4);
					assert_true(
					    read_level(m, t, f, level - 1, s[k], above[k], NULL));
					for (size_t i = 0; srgb && i < (size_t)sw * sh * 4; i++)
						if (i % 4 != 3)
							above[k][i] = srgb_to_linear(above[k][i]);
				}
				assert_true(read_level(m, t, f, level, z, here, NULL));
				for (int y = 0; y < dh; y++)
					for (int x = 0; x < dw; x++)
						for (unsigned c = 0; c < 4; c++) {
							float want = (bilinear(above[0], sw, sh, dw,
									       dh, x, y, c) +
								      bilinear(above[1], sw, sh, dw,
									       dh, x, y, c)) /
								     2;
							float got = here[4 * (y * dw + x) + c];
							double d;

							if (!steps[c])
								continue;

							if (srgb && c != 3)
								want = linear_to_srgb(want);
							d = fabs((double)got - want) * steps[c];
							if (d > worst) {
								worst = d;
								if (d > 0.75)
									print_message(
									    "# %s face %d level %d "
									    "layer %d "
									    "(%d, %d).%u: %f, want "
									    "%f\n",
									    m->name, f, level, z, x,
									    y, c, got, want);
							}
						}
				free(above[0]);
				free(above[1]);
				free(here);
			}
		}
	}
	return worst;
}

static void test_reference(void **state)
{
	struct test_stack *s = *state;
	const EGLint attribs[] = { EGL_CONFIG_ID, 1, EGL_NONE };
	const EGLint es3[] = { EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE };
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLint n;

	setenv("AGX_MEMMGR_SOCKET", s->memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", s->sched, 1);
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n) && n == 1);
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, es3);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		GLuint t = make_texture(&cases[i]);
		double worst;

		glGenerateMipmap(cases[i].target);
		assert_int_equal(glGetError(), GL_NO_ERROR);
		worst = worst_step(&cases[i], t);
		print_message("# %s: within %.3f of a step of the filter\n", cases[i].name, worst);
		/*
		 * rounded to the nearest step: half a step, and what glReadPixels'
		 * widening of RGB565's channels and the filter's arithmetic add
		 */
		assert_true(worst <= 0.75);
		glDeleteTextures(1, &t);
	}
	glDeleteFramebuffers(1, &read_fb);
	read_fb = 0;
	assert_int_equal(glGetError(), GL_NO_ERROR);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
}

/* ---- the tests ------------------------------------------------------------------------- */

static void test_llvmpipe(void **state)
{
	llvmpipe_compare(*state, 200);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llvmpipe),
		cmocka_unit_test(test_reference),
	};

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	return test_stack_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}

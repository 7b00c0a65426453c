/*
 * test-draw: draws through glvnd compared with Mesa's llvmpipe (llvmpipe.h).
 * One workload -- every primitive mode; client arrays and buffers of
 * several vertex formats; indices of every type from client memory and
 * from buffers; primitive restart; instancing with divisors; constant
 * attributes; default-block uniforms and uniform blocks; GLSL ES 1.00
 * varyings declared in other orders in the two stages; struct varyings,
 * drawn and captured by transform feedback member by member; textures with
 * their filters, wraps, swizzles, mipmaps and incompleteness; ETC2 and
 * EAC textures, 2D and arrays; blending, colour masks, depth, stencil,
 * scissor, culling, viewports, polygon offset; several draw buffers --
 * renders each case into a framebuffer object and records its pixels, on
 * both vendors.  Edges of primitives and interpolated values may differ in
 * the last bit (the two rasterizers round differently within the spec's
 * rules), so pixels compare with a tolerance of a few steps; everything
 * else must be the same.
 *
 * On our vendor alone: the draw calls' errors.
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

/* EXT_texture_compression_s3tc, _s3tc_srgb and _rgtc (GLES2/gl2ext.h goes with gl2.h) */
#define GL_TEXTURE_SRGB_DECODE_EXT		 0x8A48 /* EXT_texture_sRGB_decode */
#define GL_DECODE_EXT				 0x8A49
#define GL_SKIP_DECODE_EXT			 0x8A4A
#define GL_BGRA_EXT				 0x80E1 /* EXT_texture_format_BGRA8888 */
#define GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT	 0x8365 /* EXT_read_format_bgra */
#define GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT	 0x8366
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT		 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT1_EXT	 0x83F1
#define GL_COMPRESSED_RGBA_S3TC_DXT3_EXT	 0x83F2
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT	 0x83F3
#define GL_COMPRESSED_SRGB_S3TC_DXT1_EXT	 0x8C4C
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT	 0x8C4D
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT	 0x8C4E
#define GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT	 0x8C4F
#define GL_COMPRESSED_RED_RGTC1_EXT		 0x8DBB
#define GL_COMPRESSED_SIGNED_RED_RGTC1_EXT	 0x8DBC
#define GL_COMPRESSED_RED_GREEN_RGTC2_EXT	 0x8DBD
#define GL_COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT 0x8DBE

#define W 32
#define H 32

/* ---- the workload ------------------------------------------------------------------- */

/*
 * The read buffer's pixels, each channel within tolerance; or, for lines,
 * shown but not compared: GLES 3.0.6 section 3.5.2 lets a line's
 * fragments deviate from the diamond-exit rule by a pixel at its ends,
 * and agx-sim's and llvmpipe's differ there.
 */
#define LINES (~0u)

static void read_back(const char *name, unsigned tolerance)
{
	uint8_t px[W * H * 4];
	char n[200];

	memset(px, 0xcd, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	if (tolerance == LINES)
		snprintf(n, sizeof(n), "#%s", name);
	else
		snprintf(n, sizeof(n), "~%u.%u.%u.%u~%s", tolerance, tolerance, tolerance,
			 tolerance, name);
	llvmpipe_record(n, px, sizeof(px));
	llvmpipe_record_error(name);
}

static void clear(void)
{
	glClearColor(0.1f, 0.2f, 0.3f, 0.4f);
	glClearDepthf(1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

static const char *const pos_col[] = { "pos", "col", NULL };

static const char vs_colour[] = "attribute vec4 pos;\n"
				"attribute vec4 col;\n"
				"varying vec4 v;\n"
				"void main() { gl_Position = pos; v = col; gl_PointSize = 4.0; }\n";
static const char fs_colour[] = "precision mediump float;\n"
				"varying vec4 v;\n"
				"void main() { gl_FragColor = v; }\n";

/* Six vertices of a small fan / strip / list, with colours */
static const float shape[][4] = {
	{ -0.8f, -0.8f, 0, 1 }, { 0.7f, -0.9f, 0, 1 }, { 0.9f, 0.6f, 0, 1 },
	{ -0.2f, 0.9f, 0, 1 },	{ -0.9f, 0.3f, 0, 1 }, { 0.1f, -0.2f, 0, 1 },
};
static const float colours[][4] = {
	{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 },
	{ 1, 1, 0, 1 }, { 0, 1, 1, 1 }, { 1, 0, 1, 1 },
};

static void primitives(void)
{
	static const struct {
		GLenum mode;
		const char *name;
		unsigned tolerance;
	} modes[] = {
		{ GL_POINTS, "points", 3 },
		{ GL_LINES, "lines", LINES },
		{ GL_LINE_STRIP, "line_strip", LINES },
		{ GL_LINE_LOOP, "line_loop", LINES },
		{ GL_TRIANGLES, "triangles", 3 },
		{ GL_TRIANGLE_STRIP, "triangle_strip", 3 },
		{ GL_TRIANGLE_FAN, "triangle_fan", 3 },
	};

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char name[64];

		clear();
		glDrawArrays(modes[i].mode, 0, 6);
		snprintf(name, sizeof(name), "draw_arrays_%s", modes[i].name);
		read_back(name, modes[i].tolerance);
		/* and from the second vertex on */
		clear();
		glDrawArrays(modes[i].mode, 1, 5);
		snprintf(name, sizeof(name), "draw_arrays_first1_%s", modes[i].name);
		read_back(name, modes[i].tolerance);
	}
}

static void indexed(void)
{
	static const uint8_t i8[] = { 0, 1, 2, 2, 3, 4, 5, 0, 3 };
	static const uint16_t i16[] = { 5, 4, 3, 0, 1, 2, 1, 3, 5 };
	static const uint32_t i32[] = { 0, 2, 4, 1, 3, 5, 0, 5, 2 };
	static const uint16_t restart[] = { 0, 1, 2, 3, 0xffff, 4, 5, 0, 1 };
	GLuint buf[3];

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
	clear();
	glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_BYTE, i8);
	read_back("elements_client_ubyte", 3);
	clear();
	glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_SHORT, i16);
	read_back("elements_client_ushort", 3);
	clear();
	glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_INT, i32);
	read_back("elements_client_uint", 3);
	clear();
	glDrawRangeElements(GL_TRIANGLE_STRIP, 0, 5, 6, GL_UNSIGNED_SHORT, i16);
	read_back("range_elements_strip", 3);

	/* from buffers: vertices and indices, at offsets */
	glGenBuffers(3, buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
	glBufferData(GL_ARRAY_BUFFER, sizeof(shape) + sizeof(colours), NULL, GL_STATIC_DRAW);
	glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(shape), shape);
	glBufferSubData(GL_ARRAY_BUFFER, sizeof(shape), sizeof(colours), colours);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, (void *)0);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, (void *)sizeof(shape));
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[1]);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(i16) + 2, NULL, GL_STATIC_DRAW);
	glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 2, sizeof(i16), i16);
	clear();
	glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_SHORT, (void *)2);
	read_back("elements_buffer_ushort_offset", 3);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[2]);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(restart), restart, GL_STATIC_DRAW);
	glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	clear();
	glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, 0);
	read_back("restart_on", 3);
	glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glDeleteBuffers(3, buf);
}

static void vertex_formats(void)
{
	static const int8_t pos_b[][2] = { { -100, -100 }, { 100, -110 }, { 0, 120 } };
	static const uint16_t col_us[][4] = { { 65535, 0, 0, 65535 },
					      { 0, 32768, 0, 65535 },
					      { 0, 0, 65535, 65535 } };
	static const int16_t pos_s[][3] = { { -20000, -30000, 0 },
					    { 30000, 0, 0 },
					    { -30000, 30000, 0 } };
	static const uint8_t col_ub[][4] = { { 255, 128, 0, 255 },
					     { 0, 255, 128, 255 },
					     { 128, 0, 255, 255 } };

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	clear();
	glVertexAttribPointer(0, 2, GL_BYTE, GL_TRUE, 0, pos_b);
	glVertexAttribPointer(1, 4, GL_UNSIGNED_SHORT, GL_TRUE, 0, col_us);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	read_back("format_byte_norm_ushort_norm", 3);
	clear();
	glVertexAttribPointer(0, 3, GL_SHORT, GL_TRUE, 0, pos_s);
	glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col_ub);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	read_back("format_short_norm_ubyte_norm", 3);
	/* half floats: core's HALF_FLOAT and OES_vertex_half_float's own token */
	{
		/* -0.75, -0.5, 0.75, 0.5, 1, 0 as binary16 */
		static const uint16_t pos_h[][2] = { { 0xba00, 0xb800 },
						     { 0x3a00, 0xb800 },
						     { 0x0000, 0x3a00 } };
		static const uint16_t col_h[][4] = { { 0x3c00, 0x3800, 0x0000, 0x3c00 },
						     { 0x0000, 0x3c00, 0x3800, 0x3c00 },
						     { 0x3800, 0x0000, 0x3c00, 0x3c00 } };

		clear();
		glVertexAttribPointer(0, 2, 0x8d61 /* GL_HALF_FLOAT_OES */, GL_FALSE, 0, pos_h);
		glVertexAttribPointer(1, 4, GL_HALF_FLOAT, GL_FALSE, 0, col_h);
		glDrawArrays(GL_TRIANGLES, 0, 3);
		read_back("format_half_oes_half", 3);
	}
	/* a constant colour: the array disabled, glVertexAttrib4f's value */
	clear();
	glDisableVertexAttribArray(1);
	glVertexAttrib4f(1, 0.25f, 0.5f, 0.75f, 1);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	read_back("constant_attribute", 1);
	/* interleaved in one client array, with a stride */
	{
		static const float inter[][6] = { { -1, -1, 1, 0, 0, 1 },
						  { 1, -1, 0, 1, 0, 1 },
						  { -1, 1, 0, 0, 1, 1 },
						  { 1, 1, 1, 1, 1, 1 } };

		glEnableVertexAttribArray(1);
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 24, &inter[0][0]);
		glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 24, &inter[0][2]);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		read_back("interleaved_stride", 3);
	}
	/*
	 * glBindAttribLocation in the other order than the declarations:
	 * the shader reads "pos" at 1 and "col" at 0, as the link says
	 */
	{
		static const char *const col_pos[] = { "col", "pos", NULL };
		GLuint p = llvmpipe_program(vs_colour, fs_colour, col_pos);

		if (glGetAttribLocation(p, "pos") != 1 || glGetAttribLocation(p, "col") != 0)
			fprintf(stderr, "vertex_formats: the bound locations are not reported\n");
		glVertexAttribPointer(1, 2, GL_BYTE, GL_TRUE, 0, pos_b);
		glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col_ub);
		clear();
		glDrawArrays(GL_TRIANGLES, 0, 3);
		read_back("bound_attrib_locations", 3);
	}
}

static void instancing(void)
{
	static const char vs[] =
	    "#version 300 es\n"
	    "layout(location = 0) in vec2 pos;\n"
	    "layout(location = 1) in vec2 offset;\n"
	    "layout(location = 2) in vec4 col;\n"
	    "out vec4 v;\n"
	    "void main() {\n"
	    "  gl_Position = vec4(pos * 0.2 + offset + float(gl_InstanceID) * 0.01, 0, 1);\n"
	    "  v = col;\n"
	    "}\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "out vec4 o;\n"
				 "void main() { o = v; }\n";
	static const float tri[] = { -1, -1, 1, -1, 0, 1 };
	static const float offsets[] = { -0.6f, -0.6f, 0.6f, -0.6f, -0.6f, 0.6f, 0.6f, 0.6f };
	static const float cols[] = { 1, 0, 0, 1, 0, 1, 0, 1 };
	static const uint8_t idx[] = { 0, 1, 2 };

	llvmpipe_program(vs, fs, NULL);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glEnableVertexAttribArray(2);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, offsets);
	glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 0, cols);
	glVertexAttribDivisor(1, 1);
	glVertexAttribDivisor(2, 2);
	clear();
	glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 4);
	read_back("instanced_arrays", 3);
	clear();
	glDrawElementsInstanced(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, idx, 3);
	read_back("instanced_elements", 3);
	glVertexAttribDivisor(1, 0);
	glVertexAttribDivisor(2, 0);
	glDisableVertexAttribArray(2);
}

static void uniforms(void)
{
	static const char vs[] =
	    "#version 300 es\n"
	    "layout(location = 0) in vec2 pos;\n"
	    "uniform mat2 rot;\n"
	    "uniform vec2 shift[2];\n"
	    "layout(std140) uniform Colours { vec4 a; vec4 b[2]; float k; } c;\n"
	    "out vec4 v;\n"
	    "void main() {\n"
	    "  gl_Position = vec4(rot * pos + shift[0] + shift[1], 0, 1);\n"
	    "  v = c.a + c.b[1] * c.k;\n"
	    "}\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "uniform vec4 tint;\n"
				 "uniform int mode;\n"
				 "out vec4 o;\n"
				 "void main() { o = mode == 1 ? v * tint : v.bgra; }\n";
	static const float tri[] = { -0.7f, -0.7f, 0.7f, -0.7f, 0, 0.8f };
	static const float block[] = {
		0.1f, 0.2f, 0.3f, 0.5f, 9, 9, 9, 9, 0.4f, 0.3f, 0.2f, 0.1f, 2
	};
	const float c = cosf(0.5f), s = sinf(0.5f);
	const float rot[] = { c, s, -s, c };
	GLuint p = llvmpipe_program(vs, fs, NULL), ubo;

	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
	glUniformMatrix2fv(glGetUniformLocation(p, "rot"), 1, GL_FALSE, rot);
	glUniform2f(glGetUniformLocation(p, "shift[0]"), 0.1f, 0);
	glUniform2f(glGetUniformLocation(p, "shift[1]"), 0, -0.1f);
	glUniform4f(glGetUniformLocation(p, "tint"), 1, 0.5f, 2, 1);
	glUniform1i(glGetUniformLocation(p, "mode"), 1);
	glGenBuffers(1, &ubo);
	glBindBuffer(GL_UNIFORM_BUFFER, ubo);
	glBufferData(GL_UNIFORM_BUFFER, sizeof(block), block, GL_STATIC_DRAW);
	glUniformBlockBinding(p, glGetUniformBlockIndex(p, "Colours"), 3);
	glBindBufferBase(GL_UNIFORM_BUFFER, 3, ubo);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, 3);
	read_back("uniforms_and_block", 3);
	/* a uniform changed between draws of one pass */
	clear();
	glDrawArrays(GL_TRIANGLES, 0, 3);
	glUniform1i(glGetUniformLocation(p, "mode"), 0);
	glUniform2f(glGetUniformLocation(p, "shift[0]"), -0.3f, 0.2f);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	read_back("uniforms_between_draws", 3);
	glDeleteBuffers(1, &ubo);
}

static void varyings(void)
{
	/* declared in other orders, flat and smooth: GL matches them by name */
	static const char vs[] =
	    "#version 300 es\n"
	    "layout(location = 0) in vec2 pos;\n"
	    "out vec2 b;\n"
	    "flat out vec3 f;\n"
	    "out float a;\n"
	    "void main() {\n"
	    "  gl_Position = vec4(pos, 0, 1);\n"
	    "  a = pos.x * 0.5 + 0.5; b = pos * 0.5 + 0.5; f = vec3(pos.yx * 0.5 + 0.5, 0.25);\n"
	    "}\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in float a;\n"
				 "flat in vec3 f;\n"
				 "in vec2 b;\n"
				 "out vec4 o;\n"
				 "void main() { o = vec4(a, b.y, f.x + f.z, 1); }\n";
	llvmpipe_program(vs, fs, NULL);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("varyings_matched_by_name", 3);
}

/* A 4x4 RGBA8 texture of distinct texels, with mipmaps from glGenerateMipmap. */
static GLuint checker(void)
{
	uint8_t px[4 * 4 * 4];
	GLuint t;

	for (unsigned i = 0; i < 16; i++) {
		px[4 * i] = (uint8_t)(i * 16);
		px[4 * i + 1] = (uint8_t)(255 - i * 16);
		px[4 * i + 2] = (i & 1) ? 255 : 0;
		px[4 * i + 3] = 255;
	}
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	return t;
}

static void textures(void)
{
	static const char vs[] =
	    "attribute vec2 pos;\n"
	    "varying vec2 uv;\n"
	    "void main() { gl_Position = vec4(pos, 0, 1); uv = pos * 1.5 + 0.5; }\n";
	static const char fs[] = "precision mediump float;\n"
				 "varying vec2 uv;\n"
				 "uniform sampler2D s;\n"
				 "void main() { gl_FragColor = texture2D(s, uv); }\n";
	static const char *const names[] = { "pos", NULL };
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint p = llvmpipe_program(vs, fs, names), t;

	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 2);
	glActiveTexture(GL_TEXTURE2);
	/* incomplete: no mipmaps with the default minifying filter */
	t = checker();
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("texture_incomplete", 0);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("texture_nearest_repeat", 0);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("texture_nearest_clamp_mirror", 0);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("texture_linear", 4);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_BLUE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, GL_ZERO);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("texture_swizzle", 4);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_RED);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, GL_ALPHA);
	/* mipmaps: a minified quad samples the smaller levels */
	glGenerateMipmap(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	{
		static const float small[] = { -1, -1, -0.9f, -1, -1, -0.9f, -0.9f, -0.9f };

		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, small);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		read_back("texture_mipmap_nearest", 4);
	}
	glDeleteTextures(1, &t);
	/*
	 * Immutable storage of a partial chain (16x16, 3 of its 5 levels),
	 * sampled without mipmaps and then with a max level below the chain's:
	 * views of fewer levels than the image has.
	 */
	{
		static const float full[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
		uint8_t px[16 * 16 * 4];

		for (unsigned i = 0; i < 16 * 16; i++) {
			px[4 * i] = (uint8_t)(i * 7);
			px[4 * i + 1] = (uint8_t)(i / 16 * 16);
			px[4 * i + 2] = (uint8_t)(i % 16 * 16);
			px[4 * i + 3] = 255;
		}
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, full);
		glGenTextures(1, &t);
		glBindTexture(GL_TEXTURE_2D, t);
		glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, 16, 16);
		glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		read_back("texture_partial_chain_level0", 0);
		glGenerateMipmap(GL_TEXTURE_2D);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		read_back("texture_partial_chain_max1", 4);
		glDeleteTextures(1, &t);
	}
	glActiveTexture(GL_TEXTURE0);
}

/* A full-window quad's texture coordinates, and a fragment shader that samples s there. */
static const char vs_uv[] =
    "#version 300 es\n"
    "layout(location = 0) in vec2 pos;\n"
    "out vec2 uv;\n"
    "void main() { gl_Position = vec4(pos, 0, 1); uv = pos * 0.5 + 0.5; }\n";
static const char fs_sample[] = "#version 300 es\n"
				"precision highp float;\n"
				"in vec2 uv;\n"
				"uniform sampler2D s;\n"
				"out vec4 o;\n"
				"void main() { o = texture(s, uv); }\n";

/*
 * 8-byte units of pseudo-random bytes, each steered into one ETC2 mode
 * (the Khronos Data Format Specification's "ETC2 compressed texture image
 * formats": the differential bit is bit 33, and a red, green or blue base
 * plus its delta leaving 0..31 picks T, H or planar) and some with an EAC
 * multiplier of 0, which R11 and RG11 read as an eighth.
 */
static void etc_blocks(uint8_t *out, unsigned units)
{
	uint32_t x = 0x2545f491u;

	for (unsigned i = 0; i < 8 * units; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		out[i] = (uint8_t)(x >> 24);
	}
	for (unsigned k = 0; k < units; k++) {
		uint8_t *u = out + 8 * k;
		uint8_t fine = 0x80; /* a base of 16: any delta stays inside */

		if (k % 3 == 2)
			u[1] &= 0x0f;
		if (k % 5 == 0) {
			u[3] &= (uint8_t)~2; /* individual */
			continue;
		}
		u[3] |= 2;
		u[0] = (uint8_t)(fine | (u[0] & 7));
		u[1] = (uint8_t)(fine | (u[1] & 7));
		u[2] = (uint8_t)(fine | (u[2] & 7));
		if (k % 5 == 2)
			u[0] = (uint8_t)(0xf9 | (u[0] & 2)); /* T: 31 + 1 or 3 */
		else if (k % 5 == 3)
			u[1] = (uint8_t)(0xf9 | (u[1] & 2)); /* H */
		else if (k % 5 == 4)
			u[2] = (uint8_t)(0xf9 | (u[2] & 2)); /* planar */
	}
}

/*
 * Compressed textures (GLES 3.0.6 section 3.8.6, appendix C), every
 * ETC2/EAC format, 16x16 texels sampled one by one: etc_blocks' units,
 * so every mode of every format somewhere.  Snorm results are mapped to
 * [0, 1] to keep their signs.  Then a 2D array of RGBA8 blocks, two
 * layers from glCompressedTexImage3D and one block of the second
 * replaced by glCompressedTexSubImage3D.
 */
static void compressed_textures(void)
{
	/*
	 * S3TC and RGTC leave the precision of the values between the
	 * endpoints open, and llvmpipe's decoder rounds them otherwise than
	 * ours (sim/usc/bc.c): RGTC's by up to two steps of 8 bits, S3TC's
	 * by one, three once sRGB's curve has widened it.
	 */
	static const struct {
		GLenum format;
		unsigned bytes; /* a 4x4 block */
		bool snorm;
		const char *name;
		unsigned tolerance;
	} formats[] = {
		{ GL_COMPRESSED_R11_EAC, 8, false, "r11", 1 },
		{ GL_COMPRESSED_SIGNED_R11_EAC, 8, true, "signed_r11", 1 },
		{ GL_COMPRESSED_RG11_EAC, 16, false, "rg11", 1 },
		{ GL_COMPRESSED_SIGNED_RG11_EAC, 16, true, "signed_rg11", 1 },
		{ GL_COMPRESSED_RGB8_ETC2, 8, false, "rgb8", 1 },
		{ GL_COMPRESSED_SRGB8_ETC2, 8, false, "srgb8", 1 },
		{ GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, false, "rgb8a1", 1 },
		{ GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, false, "srgb8a1", 1 },
		{ GL_COMPRESSED_RGBA8_ETC2_EAC, 16, false, "rgba8", 1 },
		{ GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, 16, false, "srgb8_alpha8", 1 },
		/* S3TC and RGTC: any bytes are a block, the pseudo-random ones too */
		{ GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 8, false, "dxt1_rgb", 1 },
		{ GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, false, "dxt1_rgba", 1 },
		{ GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, 16, false, "dxt3", 1 },
		{ GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 16, false, "dxt5", 1 },
		{ GL_COMPRESSED_SRGB_S3TC_DXT1_EXT, 8, false, "dxt1_srgb", 3 },
		{ GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT, 8, false, "dxt1_srgb_alpha", 3 },
		{ GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT, 16, false, "dxt3_srgb", 3 },
		{ GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT, 16, false, "dxt5_srgb", 3 },
		{ GL_COMPRESSED_RED_RGTC1_EXT, 8, false, "rgtc1", 2 },
		{ GL_COMPRESSED_SIGNED_RED_RGTC1_EXT, 8, true, "signed_rgtc1", 2 },
		{ GL_COMPRESSED_RED_GREEN_RGTC2_EXT, 16, false, "rgtc2", 2 },
		{ GL_COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT, 16, true, "signed_rgtc2", 2 },
	};
	static const char fs[] = "#version 300 es\n"
				 "precision highp float;\n"
				 "in vec2 uv;\n"
				 "uniform sampler2D s;\n"
				 "uniform float k;\n"
				 "out vec4 o;\n"
				 "void main() { o = texture(s, uv) * k + (1.0 - k); }\n";
	static const char fs_array[] = "#version 300 es\n"
				       "precision highp float;\n"
				       "in vec2 uv;\n"
				       "uniform highp sampler2DArray s;\n"
				       "out vec4 o;\n"
				       "void main() { o = texture(s, vec3(uv, 1)); }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	uint8_t blocks[2 * 16 * 16]; /* two layers of 4x4 blocks of 16 bytes */
	GLuint p = llvmpipe_program(vs_uv, fs, NULL), t;
	char name[64];

	etc_blocks(blocks, sizeof(blocks) / 8);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		glUniform1f(glGetUniformLocation(p, "k"), formats[i].snorm ? 0.5f : 1.0f);
		glGenTextures(1, &t);
		glBindTexture(GL_TEXTURE_2D, t);
		glCompressedTexImage2D(GL_TEXTURE_2D, 0, formats[i].format, 16, 16, 0,
				       (GLsizei)(16 * formats[i].bytes), blocks);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		snprintf(name, sizeof(name), "compressed_%s", formats[i].name);
		/* 11-bit and sRGB values meet 8 bits rounded, perhaps differently */
		read_back(name, formats[i].tolerance);
		glDeleteTextures(1, &t);
	}

	p = llvmpipe_program(vs_uv, fs_array, NULL);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D_ARRAY, t);
	glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 16, 16, 2, 0,
			       sizeof(blocks), blocks);
	glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 8, 4, 1, 4, 4, 1,
				  GL_COMPRESSED_RGBA8_ETC2_EAC, 16, blocks);
	glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("compressed_array_rgba8", 1);
	glDeleteTextures(1, &t);
}

/*
 * glTexImage2D and glTexSubImage2D into formats the GL compresses itself
 * (S3TC, RGTC): 16x16 texels in 4x4 blocks of one colour each, whose
 * values every block format holds exactly (RGB565's values, 8-bit alpha
 * and red), so any encoder's blocks decode to the image; then one block
 * replaced, of signed bytes for the signed format.
 */
static void compressed_by_the_gl(void)
{
	static const struct {
		GLenum internalformat, format, type;
		const char *name;
	} cases[] = {
		{ GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_RGBA, GL_UNSIGNED_BYTE, "dxt1_rgb" },
		{ GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GL_RGBA, GL_UNSIGNED_BYTE, "dxt3" },
		{ GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, GL_RGBA, GL_FLOAT, "dxt5" },
		{ GL_COMPRESSED_RED_RGTC1_EXT, GL_RED, GL_UNSIGNED_BYTE, "rgtc1" },
		{ GL_COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT, GL_RG, GL_BYTE, "signed_rgtc2" },
	};
	static const char fs[] = "#version 300 es\n"
				 "precision highp float;\n"
				 "in vec2 uv;\n"
				 "uniform sampler2D s;\n"
				 "out vec4 o;\n"
				 "void main() { o = texture(s, uv) * 0.5 + 0.5; }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	uint8_t ub[16 * 16 * 4];
	int8_t sb[16 * 16 * 4];
	float fl[16 * 16 * 4];
	GLuint p = llvmpipe_program(vs_uv, fs, NULL), t;
	char name[64];

	for (unsigned i = 0; i < 16 * 16; i++) {
		unsigned block = (i / 16 / 4) * 4 + (i % 16) / 4;
		/* 5- and 6-bit values, their bits repeated: exact in RGB565 */
		unsigned r = (block * 7) & 31, g = (block * 13 + 5) & 63, b = (block * 3 + 9) & 31;
		uint8_t v[4] = { (uint8_t)(r << 3 | r >> 2), (uint8_t)(g << 2 | g >> 4),
				 (uint8_t)(b << 3 | b >> 2), (uint8_t)(block * 17) };

		for (unsigned c = 0; c < 4; c++) {
			ub[4 * i + c] = v[c];
			fl[4 * i + c] = v[c] / 255.0f;
			sb[4 * i + c] = (int8_t)(v[c] / 2 - 60);
		}
	}
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const void *px = cases[i].type == GL_FLOAT  ? (const void *)fl
				 : cases[i].type == GL_BYTE ? (const void *)sb
							    : (const void *)ub;
		unsigned n = cases[i].format == GL_RGBA ? 4 : cases[i].format == GL_RG ? 2 : 1;
		uint8_t one[16 * 4 * sizeof(float)]; /* a block of the widest pixels */

		/* the client's rows of n components: pack the image so */
		glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
		glGenTextures(1, &t);
		glBindTexture(GL_TEXTURE_2D, t);
		{
			size_t size = cases[i].type == GL_FLOAT ? 4 : 1;
			uint8_t *packed = malloc(16 * 16 * n * size);

			assert_non_null(packed);
			for (unsigned k = 0; k < 16 * 16; k++)
				memcpy(packed + k * n * size, (const uint8_t *)px + k * 4 * size,
				       n * size);
			glTexImage2D(GL_TEXTURE_2D, 0, (GLint)cases[i].internalformat, 16, 16, 0,
				     cases[i].format, cases[i].type, packed);
			/* the block at (8, 4) becomes the one at (0, 0) */
			for (unsigned k = 0; k < 16; k++)
				memcpy(one + k * n * size,
				       packed + ((k / 4) * 16 + k % 4) * n * size, n * size);
			glTexSubImage2D(GL_TEXTURE_2D, 0, 8, 4, 4, 4, cases[i].format,
					cases[i].type, one);
			free(packed);
		}
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		clear();
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		snprintf(name, sizeof(name), "compressed_by_gl_%s", cases[i].name);
		read_back(name, 1);
		glDeleteTextures(1, &t);
	}
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

/* n bits of v into a 16-byte ASTC block from bit at (bit 0 of byte 0 first). */
static void astc_put(uint8_t *b, unsigned at, unsigned n, unsigned v)
{
	for (unsigned i = 0; i < n; i++, at++)
		b[at / 8] = (uint8_t)((b[at / 8] & ~(1u << (at % 8))) | ((v >> i) & 1) << (at % 8));
}

/*
 * 16-byte units of pseudo-random bytes steered into ASTC blocks (the
 * Khronos Data Format Specification's ASTC chapter): block modes of
 * several grids (4x4, 3x3, 6x6; 1 to 5-bit, trit and quint weights; dual
 * planes) over random weights and endpoints, one to four partitions with
 * one LDR endpoint mode or two of different classes, and void-extent
 * blocks.  Grids larger than a small block size and endpoints that do
 * not fit are illegal there: both decoders must give the error colour.
 */
static void astc_blocks(uint8_t *out, unsigned units)
{
	/* block mode, its weight bits */
	static const struct {
		uint16_t mode, bits;
	} modes[] = {
		{ 0x042, 32 }, /* 4x4, 0..3 */
		{ 0x442, 64 }, /* 4x4, 0..3, two planes */
		{ 0x051, 26 }, /* 4x4, 0..2 (trits) */
		{ 0x052, 38 }, /* 4x4, 0..4 (quints) */
		{ 0x1af, 24 }, /* 3x3, 0..5 (trit and a bit) */
		{ 0x3af, 42 }, /* 3x3, 0..23 */
		{ 0x5af, 47 }, /* 3x3, 0..5, two planes */
		{ 0x104, 36 }, /* 6x6, 0..1 */
	};
	static const uint8_t ldr[10] = { 0, 1, 4, 5, 6, 8, 9, 10, 12, 13 };
	uint32_t x = 0x9e3779b9u;

	for (unsigned i = 0; i < 16 * units; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		out[i] = (uint8_t)(x >> 24);
	}
	for (unsigned k = 0; k < units; k++) {
		uint8_t *b = out + 16 * k;
		unsigned m = k % 8, parts = (k / 8) % 4 + 1;

		if (k % 11 == 5) {
			/* void extent: LDR, reserved bits set, no extent */
			astc_put(b, 0, 12, 0xdfc);
			for (unsigned e = 0; e < 4; e++)
				astc_put(b, 12 + 13 * e, 13, 0x1fff);
			continue;
		}
		astc_put(b, 0, 11, modes[m].mode);
		astc_put(b, 11, 2, parts - 1);
		if (parts == 1) {
			astc_put(b, 13, 4, ldr[k % 10]);
		} else if (k % 3 == 0) {
			/*
			 * Base class 0: partition 0 CEM 1 (class 0, mode 1), the
			 * others CEM 6 (class 1, mode 2).  The class bits, then
			 * two mode bits each: the first four in bits 25-28, the
			 * rest just under the weights.
			 */
			unsigned more = ((1u << parts) - 2) | 1u << parts, extra = 3 * parts - 4;

			for (unsigned q = 1; q < parts; q++)
				more |= 2u << (parts + 2 * q);
			astc_put(b, 23, 2, 1);
			for (unsigned bit = 0; bit < 3 * parts; bit++)
				astc_put(b,
					 bit < 4 ? 25 + bit : 128 - modes[m].bits - extra + bit - 4,
					 1, (more >> bit) & 1);
		} else {
			astc_put(b, 23, 2, 0);
			astc_put(b, 25, 4, ldr[k % 10]);
		}
	}
}

/*
 * ASTC (KHR_texture_compression_astc_ldr), every block size, linear and
 * sRGB: a 32x32 texture of astc_blocks' units sampled one texel a pixel,
 * then a 3D texture (astc_sliced_3d) of two slices, the second read.
 */
static void astc_textures(void)
{
	static const unsigned sizes[14][2] = { { 4, 4 },   { 5, 4 },  { 5, 5 },	 { 6, 5 },
					       { 6, 6 },   { 8, 5 },  { 8, 6 },	 { 8, 8 },
					       { 10, 5 },  { 10, 6 }, { 10, 8 }, { 10, 10 },
					       { 12, 10 }, { 12, 12 } };
	static const char fs_3d[] = "#version 300 es\n"
				    "precision highp float;\n"
				    "in vec2 uv;\n"
				    "uniform highp sampler3D s;\n"
				    "out vec4 o;\n"
				    "void main() { o = texture(s, vec3(uv, 0.75)); }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	static uint8_t blocks[2 * 64 * 16]; /* two slices of 8x8 4x4-texel blocks */
	GLuint p = llvmpipe_program(vs_uv, fs_sample, NULL), t;
	char name[64];

	astc_blocks(blocks, sizeof(blocks) / 16);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	for (unsigned srgb = 0; srgb < 2; srgb++)
		for (unsigned i = 0; i < 14; i++) {
			unsigned bw = sizes[i][0], bh = sizes[i][1];
			GLsizei size = (GLsizei)(((W + bw - 1) / bw) * ((H + bh - 1) / bh) * 16);

			glGenTextures(1, &t);
			glBindTexture(GL_TEXTURE_2D, t);
			glCompressedTexImage2D(GL_TEXTURE_2D, 0,
					       (srgb ? 0x93d0 : 0x93b0) +
						   i, /* ..._ASTC_4x4_KHR on */
					       W, H, 0, size, blocks + 16 * i);
			glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
			glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
			clear();
			glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
			snprintf(name, sizeof(name), "astc_%s%ux%u", srgb ? "srgb_" : "", bw, bh);
			/* UNORM16 and 8-bit decodes meet 8 bits rounded, perhaps differently */
			read_back(name, 1);
			glDeleteTextures(1, &t);
		}

	p = llvmpipe_program(vs_uv, fs_3d, NULL);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_3D, t);
	glCompressedTexImage3D(GL_TEXTURE_3D, 0, 0x93b1 /* RGBA_ASTC_5x4 */, W, H, 2, 0,
			       2 * 7 * 8 * 16, blocks);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("astc_3d_5x4", 1);
	glDeleteTextures(1, &t);
}

/* The fixed-function state, one case each, on one shape. */
static void fixed_function(void)
{
	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);

	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glVertexAttrib4f(1, 1, 0.5f, 0, 0.5f);
	glDisableVertexAttribArray(1);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("blend_alpha", 2);
	glBlendEquationSeparate(GL_FUNC_REVERSE_SUBTRACT, GL_MAX);
	glBlendFuncSeparate(GL_CONSTANT_COLOR, GL_ONE, GL_ONE, GL_ONE);
	glBlendColor(0.5f, 0.25f, 1, 1);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("blend_constant_reverse_max", 2);
	glDisable(GL_BLEND);
	glBlendEquation(GL_FUNC_ADD);
	glBlendFunc(GL_ONE, GL_ZERO);
	glEnableVertexAttribArray(1);

	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	clear();
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	read_back("colour_mask", 3);

	glEnable(GL_SCISSOR_TEST);
	glScissor(5, 7, 17, 11);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glDisable(GL_SCISSOR_TEST);
	read_back("scissor", 3);

	glViewport(4, 2, 20, 25);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glViewport(0, 0, W, H);
	read_back("viewport", 3);

	/* the fan is counter-clockwise: culling back faces keeps it, front faces drops it */
	glEnable(GL_CULL_FACE);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("cull_back", 3);
	glCullFace(GL_FRONT);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("cull_front", 3);
	glFrontFace(GL_CW);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("cull_front_cw", 3);
	glFrontFace(GL_CCW);
	glCullFace(GL_BACK);
	glDisable(GL_CULL_FACE);
}

/* The uniform at that puts state_between_draws' quad into cell k of the 4x4 grid. */
static void at_cell(GLint at, unsigned k)
{
	glUniform2f(at, (float)(k % 4) * 0.5f, (float)(k / 4) * 0.5f);
}

static void quad(void)
{
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/*
 * One piece of state changed at a time between draws of one pass, each
 * draw into a cell of its own (a 4x4 grid of 8x8 pixels): what the driver
 * keeps from draw to draw (variants, pipelines, PPP words) must follow
 * every change.  A draw repeated with nothing changed blends onto itself.
 */
static void state_between_draws(GLuint fb)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "layout(location = 1) in vec4 col;\n"
				 "uniform vec2 at;\n"
				 "out vec4 v;\n"
				 "out vec2 uv;\n"
				 "void main() {\n"
				 "  gl_Position = vec4(pos + at, 0, 1);\n"
				 "  gl_PointSize = 4.0;\n"
				 "  v = col;\n"
				 "  uv = (pos + 1.0) * 2.0;\n"
				 "}\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "in vec2 uv;\n"
				 "uniform vec4 tint;\n"
				 "out vec4 o;\n"
				 "void main() { o = v * tint; }\n";
	static const char fs_tex[] = "#version 300 es\n"
				     "precision mediump float;\n"
				     "in vec4 v;\n"
				     "in vec2 uv;\n"
				     "uniform sampler2D tex;\n"
				     "out vec4 o;\n"
				     "void main() { o = texture(tex, uv) * 0.75 + v * 0.25; }\n";
	/* a quad at the lower left cell as a strip, then the cell's centre for points */
	static const float pos[] = { -1, -1, -0.5f, -1, -1, -0.5f, -0.5f, -0.5f, -0.75f, -0.75f };
	static const float col[] = { 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1,
				     /* the same, in other colours, from element 5 */
				     0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0.5f, 0.5f, 0.5f, 1, 0, 0,
				     0, 1 };
	static const uint8_t col8[] = { 255, 128, 0,  255, 0,  255, 128, 255, 128, 0,
					255, 255, 64, 64,  64, 255, 255, 255, 255, 255 };
	static const uint8_t texels[2][16] = {
		{ 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255 },
		{ 0, 255, 255, 255, 255, 0, 255, 255, 128, 128, 128, 255, 0, 0, 0, 255 },
	};
	GLuint p = llvmpipe_program(vs, fs, NULL), pt, tex[2], fb2, rb2;
	GLint at = glGetUniformLocation(p, "at"), tint = glGetUniformLocation(p, "tint");
	unsigned cell = 0;

	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	glUniform4f(tint, 1, 1, 1, 1);
	clear();
	at_cell(at, cell++);
	quad();
	/* a fragment uniform only */
	glUniform4f(tint, 0.5f, 1, 0.25f, 1);
	at_cell(at, cell++);
	quad();
	/* blending on, and the same draw twice: the second adds onto the first */
	glEnable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE);
	glUniform4f(tint, 0.25f, 0.25f, 0.25f, 1);
	at_cell(at, cell++);
	quad();
	quad();
	/* the blend function only */
	glBlendFunc(GL_ONE_MINUS_DST_COLOR, GL_SRC_COLOR);
	at_cell(at, cell++);
	quad();
	/* the blend equation only */
	glBlendEquation(GL_FUNC_REVERSE_SUBTRACT);
	at_cell(at, cell++);
	quad();
	glBlendEquation(GL_FUNC_ADD);
	glDisable(GL_BLEND);
	glUniform4f(tint, 1, 1, 1, 1);
	/* the colour mask only, then back */
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
	at_cell(at, cell++);
	quad();
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	/* the colour array's pointer only: other elements of the same format */
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col + 20);
	at_cell(at, cell++);
	quad();
	/* the array's format: normalized bytes */
	glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col8);
	at_cell(at, cell++);
	quad();
	/* the array off: a constant attribute, then its value only */
	glDisableVertexAttribArray(1);
	glVertexAttrib4f(1, 0.25f, 0.75f, 0.5f, 1);
	at_cell(at, cell++);
	quad();
	glVertexAttrib4f(1, 0.75f, 0.25f, 1, 1);
	at_cell(at, cell++);
	quad();
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	/* the viewport only: a cell to the right of where the uniform puts it */
	glViewport(8, 0, W, H);
	glUniform2f(at, (float)(cell % 4 - 1) * 0.5f, (float)(cell / 4) * 0.5f);
	quad();
	cell++;
	glViewport(0, 0, W, H);
	/* the scissor: half the cell */
	glEnable(GL_SCISSOR_TEST);
	glScissor((GLint)(cell % 4) * 8, (GLint)(cell / 4) * 8, 4, 8);
	at_cell(at, cell++);
	quad();
	glDisable(GL_SCISSOR_TEST);
	/* culling: the strip faces front; then the front face flipped culls it */
	glEnable(GL_CULL_FACE);
	at_cell(at, cell++);
	quad();
	glFrontFace(GL_CW);
	at_cell(at, cell++);
	quad();
	glFrontFace(GL_CCW);
	glDisable(GL_CULL_FACE);
	/* a point, then triangles again */
	at_cell(at, cell++);
	glDrawArrays(GL_POINTS, 4, 1);
	at_cell(at, cell++);
	quad();
	read_back("state_between_draws", 3);

	/* textures: a program switch, then the texture binding only, and back */
	glGenTextures(2, tex);
	for (unsigned i = 0; i < 2; i++) {
		glBindTexture(GL_TEXTURE_2D, tex[i]);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			     texels[i]);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	}
	clear();
	cell = 0;
	at_cell(at, cell++);
	quad();
	pt = llvmpipe_program(vs, fs_tex, NULL);
	at = glGetUniformLocation(pt, "at");
	glUniform1i(glGetUniformLocation(pt, "tex"), 0);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	at_cell(at, cell++);
	quad();
	glBindTexture(GL_TEXTURE_2D, tex[1]);
	at_cell(at, cell++);
	quad();
	glBindTexture(GL_TEXTURE_2D, tex[0]);
	at_cell(at, cell++);
	quad();
	/* the texture's filter only */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	at_cell(at, cell++);
	quad();
	/* another framebuffer between draws, and back */
	glGenFramebuffers(1, &fb2);
	glGenRenderbuffers(1, &rb2);
	glBindRenderbuffer(GL_RENDERBUFFER, rb2);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glBindFramebuffer(GL_FRAMEBUFFER, fb2);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb2);
	glClear(GL_COLOR_BUFFER_BIT);
	at_cell(at, cell);
	quad();
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	at_cell(at, cell++);
	quad();
	/* back to the first program: its variants and uniforms again */
	glUseProgram(p);
	at = glGetUniformLocation(p, "at");
	at_cell(at, cell++);
	quad();
	read_back("state_between_draws_textures", 3);
	glBindFramebuffer(GL_FRAMEBUFFER, fb2);
	read_back("state_between_draws_other_fb", 3);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glDeleteFramebuffers(1, &fb2);
	glDeleteRenderbuffers(1, &rb2);
	glBindTexture(GL_TEXTURE_2D, 0);
	glDeleteTextures(2, tex);
}

/* A framebuffer of a colour renderbuffer and, unless ds_format is 0, a depth/stencil one. */
static GLuint fixed_state_fb(GLuint rb[2], GLenum ds_format)
{
	GLuint fb;

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(ds_format ? 2 : 1, rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	if (ds_format) {
		glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
		glRenderbufferStorage(GL_RENDERBUFFER, ds_format, W, H);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER,
					  ds_format == GL_DEPTH_COMPONENT16
					      ? GL_DEPTH_ATTACHMENT
					      : GL_DEPTH_STENCIL_ATTACHMENT,
					  GL_RENDERBUFFER, rb[1]);
	}
	return fb;
}

/*
 * The fixed-function groups a draw keeps from the last one (the viewport
 * and depth range, the scissor, depth and stencil, culling and polygon
 * offset: draw.c's GLES_DIRTY_* groups) changed one setter at a time
 * between draws of one pass, each change where it shows: a draw that the
 * new state must let through, or stop, over the last one in the same
 * cell.  Then the changes that come from elsewhere: another framebuffer
 * (one without depth and stencil buffers, whose tests then pass), another
 * program, another vertex array, another context made current and back,
 * and the renderbuffer deleted and made again under its name without
 * stencil.  Lines are not compared (read_back), so the line width is left
 * out.
 */
static void fixed_state_between_draws(EGLDisplay dpy, EGLSurface surf, EGLContext ctx,
				      GLuint colour_fb)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "layout(location = 1) in vec4 col;\n"
				 "uniform vec2 at;\n"
				 "out vec4 v;\n"
				 "void main() { gl_Position = vec4(pos + at, 0, 1); v = col; }\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "uniform vec4 tint;\n"
				 "out vec4 o;\n"
				 "void main() { o = v * tint; }\n";
	static const char fs_flat[] = "#version 300 es\n"
				      "precision mediump float;\n"
				      "in vec4 v;\n"
				      "uniform vec4 tint;\n"
				      "out vec4 o;\n"
				      "void main() { o = tint.bgra; }\n";
	static const float pos[] = { -1, -1, -0.5f, -1, -1, -0.5f, -0.5f, -0.5f };
	static const float col[] = { 1, 1, 1, 1, 1, 0.5f, 1, 1, 0.5f, 1, 1, 1, 1, 1, 0.5f, 1 };
	static const float other[] = { 0.5f, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1 };
	static const GLushort restart_only[] = { 0xffff, 0xffff, 0xffff, 0xffff };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	GLuint p = llvmpipe_program(vs, fs, NULL), p2, fb, rb[2], vao, vbo;
	GLint at = glGetUniformLocation(p, "at"), tint = glGetUniformLocation(p, "tint");
	EGLint config_id = 0, n = 0;
	EGLConfig config;
	EGLContext other_ctx = EGL_NO_CONTEXT;
	unsigned cell = 0;

#define TINT(r, g, b) glUniform4f(tint, r, g, b, 1)
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	fb = fixed_state_fb(rb, GL_DEPTH24_STENCIL8);
	glViewport(0, 0, W, H);
	clear();

	/* the depth function: LESS passes, then GREATER fails, then LEQUAL passes */
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	at_cell(at, cell++);
	TINT(1, 0, 0);
	quad();
	glDepthFunc(GL_GREATER);
	TINT(0, 1, 0);
	quad();
	at_cell(at, cell++);
	TINT(0, 0, 1);
	quad(); /* a fresh cell: GREATER than the cleared 1 fails here too */
	glDepthFunc(GL_LEQUAL);
	at_cell(at, cell - 2);
	TINT(1, 1, 0);
	quad();
	/* the depth mask: no write, so EQUAL to the cleared depth then fails */
	glDepthFunc(GL_LESS);
	glDepthMask(GL_FALSE);
	at_cell(at, cell++);
	TINT(1, 0, 1);
	quad();
	glDepthMask(GL_TRUE);
	glDepthFunc(GL_EQUAL);
	TINT(0, 1, 1);
	quad();
	/* the depth range: far writes 0.75, then near's 0.25 passes LESS */
	glDepthFunc(GL_LESS);
	glDepthRangef(0.75f, 0.75f);
	at_cell(at, cell++);
	TINT(1, 0.5f, 0);
	quad();
	glDepthRangef(0.25f, 0.25f);
	TINT(0, 0.5f, 1);
	quad();
	glDepthRangef(0, 1);
	/* polygon offset: on and away, then towards the viewer passes LESS */
	glEnable(GL_POLYGON_OFFSET_FILL);
	glPolygonOffset(0, 1000);
	at_cell(at, cell++);
	TINT(0.5f, 1, 0);
	quad();
	glPolygonOffset(0, -1000);
	TINT(0.5f, 0, 1);
	quad();
	/* and off: at 0.5 the draw is behind the last one's offset depth */
	glDisable(GL_POLYGON_OFFSET_FILL);
	TINT(1, 1, 1);
	quad();
	glPolygonOffset(0, 0);
	/* the depth test off: whatever the function */
	glDepthFunc(GL_NEVER);
	glDisable(GL_DEPTH_TEST);
	at_cell(at, cell++);
	TINT(0.25f, 1, 0.5f);
	quad();
	glDepthFunc(GL_LESS);

	/* the stencil function: ALWAYS writes 1, EQUAL 2 fails, EQUAL 1 passes */
	glEnable(GL_STENCIL_TEST);
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	glStencilFunc(GL_ALWAYS, 1, 0xff);
	at_cell(at, cell++);
	TINT(1, 0, 0);
	quad();
	glStencilFunc(GL_EQUAL, 2, 0xff);
	TINT(0, 1, 0);
	quad();
	at_cell(at, cell++);
	TINT(0, 0, 1);
	quad(); /* fails on the cleared 0 too */
	glStencilFunc(GL_EQUAL, 1, 0xff);
	at_cell(at, cell - 2);
	TINT(1, 1, 0);
	quad();
	/* the stencil operation: REPLACE writes 3, INCR makes it 4, EQUAL 4 passes */
	glStencilFunc(GL_ALWAYS, 3, 0xff);
	at_cell(at, cell++);
	TINT(1, 0, 1);
	quad();
	glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
	TINT(0, 1, 1);
	quad();
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	glStencilFunc(GL_EQUAL, 4, 0xff);
	TINT(1, 0.5f, 0);
	quad();
	/* the stencil write mask: nothing written, so EQUAL 0 still passes */
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	glStencilFunc(GL_ALWAYS, 5, 0xff);
	glStencilMask(0);
	at_cell(at, cell++);
	TINT(0, 0.5f, 1);
	quad();
	glStencilMask(0xff);
	glStencilFunc(GL_EQUAL, 0, 0xff);
	TINT(0.5f, 1, 0);
	quad();
	/* the back face's function: the quad turned back-facing meets NEVER, then ALWAYS */
	glStencilFuncSeparate(GL_FRONT, GL_ALWAYS, 0, 0xff);
	glStencilFuncSeparate(GL_BACK, GL_NEVER, 0, 0xff);
	at_cell(at, cell++);
	TINT(0.5f, 0, 1);
	quad();
	glFrontFace(GL_CW);
	TINT(1, 1, 1);
	quad();
	at_cell(at, cell++);
	glStencilFuncSeparate(GL_BACK, GL_ALWAYS, 0, 0xff);
	TINT(0.25f, 0.5f, 1);
	quad();
	glFrontFace(GL_CCW);
	/* the stencil test off: whatever the function */
	glStencilFunc(GL_NEVER, 0, 0xff);
	glDisable(GL_STENCIL_TEST);
	at_cell(at, cell++);
	TINT(1, 0.25f, 0.5f);
	quad();
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	read_back("fixed_state_between_draws_zs", 3);

	clear();
	cell = 0;
	/* the cull face only: BACK keeps the front-facing quad, FRONT drops it */
	glEnable(GL_CULL_FACE);
	at_cell(at, cell++);
	TINT(0, 1, 0.5f);
	quad();
	glCullFace(GL_FRONT);
	TINT(1, 0, 0);
	quad();
	glCullFace(GL_FRONT_AND_BACK);
	at_cell(at, cell++);
	quad();
	/* a change, a draw that draws nothing (restart indices only), then one that has the change
	 */
	glCullFace(GL_BACK);
	at_cell(at, cell++);
	TINT(1, 0.75f, 0.25f);
	quad();
	glCullFace(GL_FRONT);
	glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, restart_only);
	glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	TINT(0, 0, 1);
	quad(); /* culled: the first colour stays */
	glCullFace(GL_BACK);
	glDisable(GL_CULL_FACE);
	/* the scissor box only, the test on: the left half, then the right, then nothing */
	glEnable(GL_SCISSOR_TEST);
	glScissor((GLint)(cell % 4) * 8, (GLint)(cell / 4) * 8, 4, 8);
	at_cell(at, cell);
	TINT(0.5f, 0.5f, 1);
	quad();
	glScissor((GLint)(cell % 4) * 8 + 4, (GLint)(cell / 4) * 8, 4, 8);
	TINT(1, 0.5f, 0.5f);
	quad();
	glScissor(0, 0, 0, 0);
	TINT(0, 0, 0);
	quad();
	cell++;
	/* a scissor that leaves nothing, then one that leaves the cell's lower half */
	glScissor((GLint)(cell % 4) * 8, (GLint)(cell / 4) * 8, 8, 4);
	at_cell(at, cell++);
	TINT(0.5f, 1, 1);
	quad();
	glDisable(GL_SCISSOR_TEST);
	/* the viewport's origin only: the last cell, drawn from a cell to its left */
	glViewport(8, 0, W, H);
	glUniform2f(at, ((float)(cell % 4) - 1) * 0.5f, (float)(cell / 4) * 0.5f);
	TINT(1, 1, 0.5f);
	quad();
	glViewport(0, 0, W, H);
	read_back("fixed_state_between_draws_raster", 3);

	/*
	 * Another framebuffer, with no depth or stencil buffer: the tests
	 * pass there, and stop the draw again back here.
	 */
	clear();
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_NEVER);
	glEnable(GL_STENCIL_TEST);
	glStencilFunc(GL_NEVER, 0, 0xff);
	cell = 0;
	at_cell(at, cell++);
	TINT(1, 0, 0);
	quad(); /* stopped */
	glBindFramebuffer(GL_FRAMEBUFFER, colour_fb);
	clear();
	TINT(0, 1, 0);
	quad(); /* passes: no depth, no stencil */
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	at_cell(at, cell++);
	TINT(0, 0, 1);
	quad(); /* stopped again */
	glDepthFunc(GL_ALWAYS);
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	/* another program, the state the same: the depth test still on */
	p2 = llvmpipe_program(vs, fs_flat, NULL);
	at = glGetUniformLocation(p2, "at");
	tint = glGetUniformLocation(p2, "tint");
	glDepthFunc(GL_LESS);
	at_cell(at, cell);
	TINT(1, 0.5f, 0);
	quad();
	glUseProgram(p);
	at = glGetUniformLocation(p, "at");
	tint = glGetUniformLocation(p, "tint");
	glDepthFunc(GL_GREATER);
	TINT(0, 1, 1);
	quad(); /* fails over the other program's draw */
	cell++;
	/* another vertex array (of a buffer's arrays: other colours), and back */
	glGenVertexArrays(1, &vao);
	glGenBuffers(1, &vbo);
	glBindVertexArray(vao);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(pos) + sizeof(other), NULL, GL_STATIC_DRAW);
	glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(pos), pos);
	glBufferSubData(GL_ARRAY_BUFFER, sizeof(pos), sizeof(other), other);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, (const void *)sizeof(pos));
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glDepthFunc(GL_ALWAYS);
	at_cell(at, cell++);
	TINT(1, 1, 1);
	quad();
	glBindVertexArray(0);
	at_cell(at, cell++);
	quad();

	/*
	 * Another context made current, with state of its own changed and a
	 * draw, then this one again: its state is its own, as it was.
	 */
	glEnable(GL_SCISSOR_TEST);
	glScissor((GLint)(cell % 4) * 8, (GLint)(cell / 4) * 8, 4, 4);
	at_cell(at, cell);
	TINT(1, 0, 0.5f);
	quad();
	if (eglQueryContext(dpy, ctx, EGL_CONFIG_ID, &config_id)) {
		const EGLint want[] = { EGL_CONFIG_ID, config_id, EGL_NONE };

		if (eglChooseConfig(dpy, want, &config, 1, &n) && n)
			other_ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca);
	}
	if (other_ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, other_ctx)) {
		fprintf(stderr, "workload: no second context (0x%x)\n", eglGetError());
		exit(1);
	}
	{
		GLuint q = llvmpipe_program(vs, fs, NULL);

		glEnableVertexAttribArray(0);
		glEnableVertexAttribArray(1);
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
		glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, other);
		glUniform4f(glGetUniformLocation(q, "tint"), 1, 1, 1, 1);
		glViewport(0, 0, 1, 1);
		glDisable(GL_SCISSOR_TEST);
		glEnable(GL_CULL_FACE);
		glCullFace(GL_FRONT_AND_BACK);
		glClear(GL_COLOR_BUFFER_BIT);
		quad();
		glFinish();
	}
	if (!eglMakeCurrent(dpy, surf, surf, ctx)) {
		fprintf(stderr, "workload: the first context again (0x%x)\n", eglGetError());
		exit(1);
	}
	eglDestroyContext(dpy, other_ctx);
	TINT(0, 1, 0.5f);
	at_cell(at, cell + 1);
	quad(); /* the scissor still this context's: nothing in the next cell */
	glScissor((GLint)(cell % 4) * 8 + 4, (GLint)(cell / 4) * 8, 4, 4);
	at_cell(at, cell++);
	quad();
	glDisable(GL_SCISSOR_TEST);
	cell++;

	/*
	 * The depth/stencil renderbuffer deleted and made again under its
	 * name as depth only: the stencil test (on, NEVER) then passes.
	 */
	glStencilFunc(GL_NEVER, 0, 0xff);
	at_cell(at, cell++);
	TINT(0.5f, 0.5f, 1);
	quad(); /* stopped */
	glDeleteRenderbuffers(1, &rb[1]);
	{
		GLuint again;

		glGenRenderbuffers(1, &again);
		glBindRenderbuffer(GL_RENDERBUFFER, again);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
					  again);
		rb[1] = again;
	}
	glClear(GL_DEPTH_BUFFER_BIT);
	at_cell(at, cell++);
	TINT(1, 0.5f, 1);
	quad(); /* passes: no stencil buffer */
	glDisable(GL_STENCIL_TEST);
	glDisable(GL_DEPTH_TEST);
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	glDepthFunc(GL_LESS);
	read_back("fixed_state_between_draws_elsewhere", 3);
	glBindFramebuffer(GL_FRAMEBUFFER, colour_fb);
	read_back("fixed_state_between_draws_colour_fb", 3);
	glDeleteRenderbuffers(2, rb);
	glDeleteFramebuffers(1, &fb);
	glDeleteVertexArrays(1, &vao);
	glDeleteBuffers(1, &vbo);
#undef TINT
}

/* Depth and stencil, with a depth/stencil renderbuffer of format attached for them. */
static void depth_stencil(GLenum format, const char *tag)
{
	static const float near_quad[][4] = { { -0.5f, -0.5f, -0.5f, 1 },
					      { 0.9f, -0.5f, -0.5f, 1 },
					      { -0.5f, 0.9f, 0.5f, 1 },
					      { 0.9f, 0.9f, 0.5f, 1 } };
	static const float far_quad[][4] = { { -0.9f, -0.9f, 0.2f, 1 },
					     { 0.5f, -0.9f, 0.2f, 1 },
					     { -0.9f, 0.5f, 0.2f, 1 },
					     { 0.5f, 0.5f, 0.2f, 1 } };

	GLuint rb;
	char name[80];

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, format, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glDisableVertexAttribArray(1);
	glEnable(GL_DEPTH_TEST);
	clear();
	glVertexAttrib4f(1, 1, 0, 0, 1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, near_quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glVertexAttrib4f(1, 0, 1, 0, 1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, far_quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	snprintf(name, sizeof(name), "%s_depth_less", tag);
	read_back(name, 3);
	/*
	 * A shader that may discard is tested late, where it says: the far
	 * quad, discarding a column, again behind the near one (writing
	 * nothing where it fails the test).
	 */
	{
		static const char fs_discard[] =
		    "precision mediump float;\n"
		    "varying vec4 v;\n"
		    "void main() {\n"
		    "  if (gl_FragCoord.x > 10.0 && gl_FragCoord.x < 12.0) discard;\n"
		    "  gl_FragColor = v.bgra;\n"
		    "}\n";

		llvmpipe_program(vs_colour, fs_discard, pos_col);
		glVertexAttrib4f(1, 0.5f, 1, 0, 1);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		snprintf(name, sizeof(name), "%s_depth_discard", tag);
		read_back(name, 3);
		/* and one that writes its depth: tested with it, before its colour lands */
		static const char fs_depth[] = "#version 300 es\n"
					       "precision mediump float;\n"
					       "in vec4 v;\n"
					       "out vec4 o;\n"
					       "void main() {\n"
					       "  o = v.gbra;\n"
					       "  gl_FragDepth = gl_FragCoord.z;\n"
					       "}\n";
		static const char vs_depth[] = "#version 300 es\n"
					       "layout(location = 0) in vec4 pos;\n"
					       "layout(location = 1) in vec4 col;\n"
					       "out vec4 v;\n"
					       "void main() { gl_Position = pos; v = col; }\n";

		llvmpipe_program(vs_depth, fs_depth, NULL);
		glVertexAttrib4f(1, 0.5f, 0.2f, 1, 1);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		snprintf(name, sizeof(name), "%s_depth_frag_depth", tag);
		read_back(name, 3);
		llvmpipe_program(vs_colour, fs_colour, pos_col);
	}
	/*
	 * NV_read_depth: the depth buffer itself, in each type (the ones a
	 * format does not take are errors), compared in steps of 1/256
	 */
	{
		static const GLenum types[] = { GL_FLOAT, GL_UNSIGNED_INT_24_8, GL_UNSIGNED_INT,
						GL_UNSIGNED_SHORT };
		uint32_t z[W * H];
		uint8_t q[W * H];

		for (unsigned k = 0; k < 4; k++) {
			memset(z, 0, sizeof(z));
			glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, types[k], z);
			for (unsigned i = 0; i < W * H; i++) {
				float f;

				memcpy(&f, &z[i], 4);
				q[i] = types[k] == GL_FLOAT ? (uint8_t)(f * 255.0f + 0.5f)
				       : types[k] == GL_UNSIGNED_SHORT
					   ? (uint8_t)(((const uint16_t *)z)[i] >> 8)
					   : (uint8_t)(z[i] >> 24);
			}
			snprintf(name, sizeof(name), "~1.1.1.1~%s_depth_read_%x", tag, types[k]);
			llvmpipe_record(name, q, sizeof(q));
			llvmpipe_record_error(name + 9);
		}
	}
	glDepthFunc(GL_GREATER);
	glClearDepthf(0);
	glClear(GL_DEPTH_BUFFER_BIT);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glDepthFunc(GL_LESS);
	glDisable(GL_DEPTH_TEST);
	snprintf(name, sizeof(name), "%s_depth_greater_after_clear", tag);
	read_back(name, 3);

	glEnable(GL_STENCIL_TEST);
	clear();
	glStencilFunc(GL_ALWAYS, 3, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, near_quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glStencilFunc(GL_EQUAL, 3, 0xff);
	glVertexAttrib4f(1, 0, 0, 1, 1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, far_quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glDisable(GL_STENCIL_TEST);
	glStencilFunc(GL_ALWAYS, 0, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	snprintf(name, sizeof(name), "%s_stencil_equal", tag);
	read_back(name, 3);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 0);
	glDeleteRenderbuffers(1, &rb);
}

/*
 * More draws than one render pass holds: the driver goes on in further
 * passes over the same targets, each reloading what the last stored.
 */
/*
 * A colour array in a buffer with no data store: what the draw reads is
 * undefined (zeros, on both), but it must not lose the context -- the
 * draw after it still draws.
 */
static void storeless_buffer(void)
{
	GLuint b;

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glGenBuffers(1, &b);
	glBindBuffer(GL_ARRAY_BUFFER, b);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, 3);
	glFinish();
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
	glDrawArrays(GL_TRIANGLES, 3, 3);
	read_back("storeless_buffer_then_draw", 3);
	glDeleteBuffers(1, &b);
}

static void many_draws(void)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "uniform vec2 at;\n"
				 "void main() { gl_Position = vec4(pos * 0.04 + at, 0, 1); }\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "uniform vec4 colour;\n"
				 "out vec4 o;\n"
				 "void main() { o = colour; }\n";
	static const float tri[] = { -1, -1, 1, -1, 0, 1 };
	GLuint p = llvmpipe_program(vs, fs, NULL);
	GLint at = glGetUniformLocation(p, "at"), colour = glGetUniformLocation(p, "colour");

	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
	clear();
	for (unsigned i = 0; i < 6000; i++) {
		glUniform2f(at, (float)(i % 40) / 20 - 0.975f, (float)(i / 40 % 40) / 20 - 0.975f);
		glUniform4f(colour, (float)(i % 7) / 6, (float)(i % 11) / 10, (float)(i % 13) / 12,
			    1);
		glDrawArrays(GL_TRIANGLES, 0, 3);
	}
	read_back("many_draws", 3);
}

/* A W x H renderbuffer of format as colour attachment 0 of the bound framebuffer. */
static GLuint colour_target(GLenum format)
{
	GLuint rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, format, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	return rb;
}

/* The shape's positions and colours as attributes 0 and 1. */
static void shape_arrays(void)
{
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
}

/*
 * Colour targets whose stored channels are not the shader's in order
 * (RGB565: red in the top bits; RGB8: a padding channel): the PBE's
 * swizzle puts them in place.
 */
static void target_formats(void)
{
	static const struct {
		GLenum format;
		const char *name;
	} formats[] = { { GL_RGB565, "rgb565" },
			{ GL_RGB8, "rgb8" },
			{ GL_RGBA4, "rgba4" },
			{ GL_RGB10_A2, "rgb10_a2" } };

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	shape_arrays();
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		GLuint rb = colour_target(formats[i].format);
		char name[64];

		clear();
		glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
		snprintf(name, sizeof(name), "target_%s", formats[i].name);
		/* a step of the format's fewest bits: the two round to them differently */
		read_back(name, 18);
		glDeleteRenderbuffers(1, &rb);
	}
}

/*
 * EXT_color_buffer_float's targets: a clear outside [0, 1] and a colour
 * blended onto it (ONE, ONE; EXT_float_blend for the 32-bit ones), read
 * back as floats.  The values are exact in every format (R11F_G11F_B10F
 * has no sign: its negatives become 0), so both sides agree bit for bit;
 * then a smooth ramp, which they may round apart in the last place.
 */
static void float_targets(void)
{
	static const struct {
		GLenum format;
		const char *name;
	} formats[] = { { GL_R16F, "r16f" },
			{ GL_RG16F, "rg16f" },
			{ GL_RGBA16F, "rgba16f" },
			{ GL_R32F, "r32f" },
			{ GL_RG32F, "rg32f" },
			{ GL_RGBA32F, "rgba32f" },
			{ GL_R11F_G11F_B10F, "r11f_g11f_b10f" } };
	static const char fs[] = "#version 300 es\n"
				 "precision highp float;\n"
				 "uniform vec4 colour;\n"
				 "in vec4 v;\n"
				 "out vec4 o;\n"
				 "void main() { o = colour + v * 8.0; }\n";
	static const char vs[] = "#version 300 es\n"
				 "in vec4 pos;\n"
				 "in vec4 col;\n"
				 "out vec4 v;\n"
				 "void main() { gl_Position = pos; v = col; }\n";
	static const GLfloat clear_value[4] = { -1.5f, 2.25f, 0.5f, 3.0f };
	GLuint p = llvmpipe_program(vs, fs, pos_col);
	GLint colour = glGetUniformLocation(p, "colour");
	float px[W * H * 4];

	shape_arrays();
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		GLuint rb = colour_target(formats[i].format);
		char name[64];

		glClearBufferfv(GL_COLOR, 0, clear_value);
		glEnable(GL_BLEND);
		glBlendFunc(GL_ONE, GL_ONE);
		glUniform4f(colour, 1.25f, -0.75f, 4.0f, 0.5f);
		glVertexAttrib4f(1, 0, 0, 0, 0);
		glDisableVertexAttribArray(1);
		glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
		glDisable(GL_BLEND);
		memset(px, 0, sizeof(px));
		glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, px);
		snprintf(name, sizeof(name), "float_target_%s", formats[i].name);
		llvmpipe_record(name, px, sizeof(px));
		llvmpipe_record_error(name);

		/* the ramp: 8x the colours past 1, as bytes of a quarter step */
		glEnableVertexAttribArray(1);
		glUniform4f(colour, 0, 0, 0, 0);
		glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
		glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, px);
		{
			uint8_t q[W * H * 4];

			for (unsigned k = 0; k < W * H * 4; k++) {
				float v = px[k] * 24.0f;

				q[k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5f);
			}
			/*
			 * a step of R11F_G11F_B10F's 6-bit mantissa near 8 is 3 here:
			 * llvmpipe rounds into it otherwise than rg11b10f's nearest
			 */
			snprintf(name, sizeof(name), "~%s~float_ramp_%s",
				 formats[i].format == GL_R11F_G11F_B10F ? "3.3.3.3" : "2.2.2.2",
				 formats[i].name);
			llvmpipe_record(name, q, sizeof(q));
		}
		glDeleteRenderbuffers(1, &rb);
	}
}

/*
 * EXT_texture_format_BGRA8888: a BGRA_EXT texture from bytes in blue,
 * green, red, alpha order, a sub-image into it, sampled; then a
 * BGRA_EXT texture as the colour target, read back as RGBA.
 */
static void bgra_textures(GLuint main_fb)
{
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	uint8_t px[8 * 8 * 4], sub[4 * 2 * 4];
	GLuint p = llvmpipe_program(vs_uv, fs_sample, NULL), t, target, fb, rb;

	for (unsigned i = 0; i < sizeof(px); i++)
		px[i] = (uint8_t)(i * 37 + 11);
	for (unsigned i = 0; i < sizeof(sub); i++)
		sub[i] = (uint8_t)(i * 91 + 3);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, 8, 8, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, px);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 3, 5, 4, 2, GL_BGRA_EXT, GL_UNSIGNED_BYTE, sub);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("bgra_texture", 0);

	/* the same texture drawn into a BGRA_EXT target */
	glGenTextures(1, &target);
	glBindTexture(GL_TEXTURE_2D, target);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, W, H, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, NULL);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
	glBindTexture(GL_TEXTURE_2D, t);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("bgra_target", 0);
	/* EXT_read_format_bgra: the same pixels as BGRA, and in its two packed types */
	{
		static const GLenum types[] = { GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT,
						GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT };
		static uint8_t px_read[W * H * 4];
		char name[40];

		for (unsigned k = 0; k < 3; k++) {
			memset(px_read, 0xcd, sizeof(px_read));
			glReadPixels(0, 0, W, H, GL_BGRA_EXT, types[k], px_read);
			snprintf(name, sizeof(name), "bgra_read_%u", k);
			llvmpipe_record(name, px_read, (size_t)W * H * (k ? 2 : 4));
			llvmpipe_record_error(name);
		}
		/* the packed types go with BGRA alone */
		glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT, px_read);
		llvmpipe_record_error("rgba_rev_type");
	}
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &target);
	glDeleteTextures(1, &t);
}

/*
 * EXT_texture_sRGB_decode: an SRGB8_ALPHA8 texture sampled decoded (the
 * default), with the texture's SKIP_DECODE_EXT, with a sampler object's
 * overriding the texture's, and through texelFetch; a linear texture
 * with SKIP_DECODE_EXT (nothing to skip); the parameter read back, and
 * a value the parameter does not take.
 */
static void srgb_decode(GLuint main_fb)
{
	static const char fs_fetch[] = "#version 300 es\n"
				       "precision highp float;\n"
				       "in vec2 uv;\n"
				       "uniform sampler2D s;\n"
				       "out vec4 o;\n"
				       "void main() { o = texelFetch(s, ivec2(uv * 8.0), 0); }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	uint8_t px[8 * 8 * 4];
	GLuint p = llvmpipe_program(vs_uv, fs_sample, NULL), fetch, t[2], smp;
	GLint v = 0;

	for (unsigned i = 0; i < sizeof(px); i++)
		px[i] = (uint8_t)(i * 53 + 7);
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	glActiveTexture(GL_TEXTURE0);
	glGenTextures(2, t);
	for (unsigned k = 0; k < 2; k++) {
		glBindTexture(GL_TEXTURE_2D, t[k]);
		glTexImage2D(GL_TEXTURE_2D, 0, k ? GL_RGBA8 : GL_SRGB8_ALPHA8, 8, 8, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, px);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	}
	glBindTexture(GL_TEXTURE_2D, t[0]);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, &v);
	llvmpipe_record("srgb_decode_initial", &v, sizeof(v));
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("srgb_decoded", 1);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
	glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, &v);
	llvmpipe_record("srgb_decode_set", &v, sizeof(v));
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("srgb_skip_decode", 0);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_LINEAR);
	llvmpipe_record_error("srgb_decode_bad_value");
	/* a sampler object's parameter, not the texture's, while it is bound */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_DECODE_EXT);
	glGenSamplers(1, &smp);
	glSamplerParameteri(smp, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glSamplerParameteri(smp, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glSamplerParameteri(smp, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
	glGetSamplerParameteriv(smp, GL_TEXTURE_SRGB_DECODE_EXT, &v);
	llvmpipe_record("srgb_decode_sampler", &v, sizeof(v));
	glBindSampler(0, smp);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("srgb_sampler_skip_decode", 0);
	glBindSampler(0, 0);
	glDeleteSamplers(1, &smp);
	/*
	 * texelFetch: revision 0.91 of the extension decodes whatever the
	 * parameter (llvmpipe does); this driver's one descriptor per sampler
	 * skips the decode for both (docs/gles.md): printed, not compared
	 */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
	fetch = llvmpipe_program(vs_uv, fs_fetch, NULL);
	glUniform1i(glGetUniformLocation(fetch, "s"), 0);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("srgb_fetch_skip_decode", LINES);
	/* a linear texture: nothing to skip */
	glBindTexture(GL_TEXTURE_2D, t[1]);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT);
	glUseProgram(p);
	clear();
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	read_back("srgb_skip_decode_linear", 0);
	llvmpipe_record_error("srgb_decode_done");
	glDeleteTextures(2, t);
	glDeleteProgram(fetch);
	glDeleteProgram(p);
}

/*
 * EXT_base_instance: instanced arrays (a buffer's and the client's) read
 * from element baseinstance on, gl_InstanceID still from 0; and an
 * indexed draw with a base vertex too.
 */
static void base_instance(void)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "layout(location = 1) in vec4 col;\n"
				 "layout(location = 2) in float shift;\n"
				 "out vec4 v;\n"
				 "void main() {\n"
				 "  gl_Position = vec4(pos.x * 0.2 + shift, pos.y * 0.2 + "
				 "float(gl_InstanceID) * 0.4 - 0.8, 0, 1);\n"
				 "  v = col;\n"
				 "}\n";
	static const char fs[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "out vec4 o;\n"
				 "void main() { o = v; }\n";
	/* four quad corners, twice: the base vertex skips the first four */
	static const float quad[] = { 9, 9, 9, 9, 9, 9, 9, 9, -1, -1, 1, -1, -1, 1, 1, 1 };
	static const float cols[6][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 },
					  { 1, 1, 0, 1 }, { 0, 1, 1, 1 }, { 1, 0, 1, 1 } };
	static const float shifts[] = { -0.75f, -0.25f, 0.25f, 0.75f, 0.5f, -0.5f };
	static const GLubyte idx[] = { 0, 1, 2, 2, 1, 3 };
	void(GL_APIENTRY * arrays)(GLenum, GLint, GLsizei, GLsizei, GLuint);
	void(GL_APIENTRY * elements)(GLenum, GLsizei, GLenum, const void *, GLsizei, GLint, GLuint);
	GLuint buf;

	*(void **)&arrays = (void *)eglGetProcAddress("glDrawArraysInstancedBaseInstanceEXT");
	*(void **)&elements =
	    (void *)eglGetProcAddress("glDrawElementsInstancedBaseVertexBaseInstanceEXT");
	if (!arrays || !elements)
		return;
	llvmpipe_program(vs, fs, NULL);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBufferData(GL_ARRAY_BUFFER, sizeof(cols), cols, GL_STATIC_DRAW);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glVertexAttribDivisor(1, 1);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glEnableVertexAttribArray(2);
	glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, 0, shifts); /* client memory */
	glVertexAttribDivisor(2, 1);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad + 8);
	clear();
	arrays(GL_TRIANGLE_STRIP, 0, 4, 3, 2);
	read_back("base_instance_arrays", 1);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	clear();
	elements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, idx, 4, 4, 1);
	read_back("base_instance_elements", 1);
	glVertexAttribDivisor(1, 0);
	glVertexAttribDivisor(2, 0);
	glDisableVertexAttribArray(1);
	glDisableVertexAttribArray(2);
	glDeleteBuffers(1, &buf);
}

/* ANY_SAMPLES_PASSED(_CONSERVATIVE) over draws whose samples pass, and ones whose do not. */
static void queries(void)
{
	static const struct {
		GLenum target;
		bool cull, scissor_empty;
		const char *name;
	} cases[] = {
		{ GL_ANY_SAMPLES_PASSED, false, false, "query_visible" },
		{ GL_ANY_SAMPLES_PASSED, true, false, "query_culled" },
		{ GL_ANY_SAMPLES_PASSED_CONSERVATIVE, false, false, "query_conservative_visible" },
		{ GL_ANY_SAMPLES_PASSED, false, true, "query_scissored_out" },
	};
	GLuint q[4];

	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
	glGenQueries(4, q);
	clear();
	for (unsigned i = 0; i < 4; i++) {
		glBeginQuery(cases[i].target, q[i]);
		if (cases[i].cull) {
			glEnable(GL_CULL_FACE);
			glCullFace(GL_FRONT_AND_BACK);
		}
		if (cases[i].scissor_empty) {
			glEnable(GL_SCISSOR_TEST);
			glScissor(0, 0, 0, 0);
		}
		glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
		glDisable(GL_CULL_FACE);
		glDisable(GL_SCISSOR_TEST);
		glCullFace(GL_BACK);
		glEndQuery(cases[i].target);
	}
	for (unsigned i = 0; i < 4; i++) {
		GLuint result = 0xcdcd;

		glGetQueryObjectuiv(q[i], GL_QUERY_RESULT, &result);
		llvmpipe_record(cases[i].name, &result, sizeof(result));
	}
	llvmpipe_record_error("queries");
	glDeleteQueries(4, q);
}

/*
 * An error ES 3.0 requires where llvmpipe, an ES 3.2 implementation, has
 * 3.2's rules: checked on an ES 3.0 context (ours), shown when it differs.
 */
static void es30_error(const char *name, GLenum want)
{
	GLenum err = glGetError();
	const char *version = (const char *)glGetString(GL_VERSION);
	char n[200];

	if (version && !strncmp(version, "OpenGL ES 3.0", 13) && err != want) {
		fprintf(stderr, "workload: %s: error 0x%x, not 0x%x\n", name, err, want);
		exit(1);
	}
	snprintf(n, sizeof(n), "#%s:error", name);
	llvmpipe_record(n, &err, sizeof(err));
}

/* A buffer's first bytes, as the GPU left them. */
static void record_buffer(const char *name, GLuint buffer, size_t bytes)
{
	const void *map;

	glBindBuffer(GL_COPY_READ_BUFFER, buffer);
	map = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
	if (map)
		llvmpipe_record(name, map, bytes);
	glUnmapBuffer(GL_COPY_READ_BUFFER);
	glBindBuffer(GL_COPY_READ_BUFFER, 0);
	llvmpipe_record_error(name);
}

/*
 * Transform feedback (GLES 3.0.6 section 2.15): interleaved and separate
 * captures of built-in, float, integer and array varyings, instanced, with
 * ranges at offsets, paused, with the rasterizer discarding, the
 * primitives-written query, the draws ES 3.0 refuses while capturing
 * (other modes, indices, past the end), and the captured vertices drawn
 * again from the buffer.
 * The values are exact in binary, so the bytes must be the same.
 */
static void transform_feedback(void)
{
	static const char vs[] =
	    "#version 300 es\n"
	    "in vec4 pos;\n"
	    "out vec3 a;\n"
	    "flat out ivec2 n;\n"
	    "flat out uint k[3];\n"
	    "void main() {\n"
	    "  gl_Position = vec4(pos.xy * 0.5, pos.z, 1.0 + float(gl_InstanceID));\n"
	    "  a = vec3(pos.x, float(gl_VertexID), 0.25) * 2.0;\n"
	    "  n = ivec2(gl_VertexID * 3, -gl_InstanceID);\n"
	    "  k[0] = 7u; k[1] = uint(gl_VertexID) + 100u; k[2] = 9u;\n"
	    "}\n";
	static const char fs[] =
	    "#version 300 es\n"
	    "precision mediump float;\n"
	    "in vec3 a;\n"
	    "out vec4 c;\n"
	    "void main() { c = vec4(a.x * 0.25 + 0.5, a.y * 0.05, a.z, 1.0); }\n";
	static const char vs_replay[] = "#version 300 es\n"
					"in vec4 pos;\n"
					"in vec3 a;\n"
					"out vec3 v;\n"
					"void main() { gl_Position = pos; v = a; }\n";
	static const char fs_replay[] =
	    "#version 300 es\n"
	    "precision mediump float;\n"
	    "in vec3 v;\n"
	    "out vec4 c;\n"
	    "void main() { c = vec4(v.x * 0.25 + 0.5, v.y * 0.05, v.z, 1.0); }\n";
	static const char *const interleaved[] = { "gl_Position", "a", "n", NULL };
	static const char *const separate[] = { "k[1]", "a", "k", NULL };
	static const char *const in_pos[] = { "pos", NULL };
	static const char *const in_replay[] = { "pos", "a", NULL };
	const size_t record = (4 + 3 + 2) * 4, bytes = 64 * record;
	GLuint buf[4], q, xfb[2];
	GLuint written = 0xcdcd;

	glGenBuffers(4, buf);
	glGenQueries(1, &q);
	glGenTransformFeedbacks(2, xfb);
	for (unsigned i = 0; i < 4; i++) {
		glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf[i]);
		glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_COPY);
	}
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	clear();

	/* interleaved: 7 vertices of triangles are 2 whole ones, twice; drawn as well */
	llvmpipe_program_xfb(vs, fs, in_pos, interleaved, GL_INTERLEAVED_ATTRIBS);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb[0]);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[0]);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArraysInstanced(GL_TRIANGLES, 0, 5, 2);
	llvmpipe_record_error("xfb_instanced");
	/* paused: drawn, not captured; then resumed where it stopped */
	glPauseTransformFeedback();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glResumeTransformFeedback();
	glDrawArrays(GL_TRIANGLES, 3, 3);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	glGetQueryObjectuiv(q, GL_QUERY_RESULT, &written);
	llvmpipe_record("xfb_primitives_written", &written, sizeof(written));
	record_buffer("xfb_interleaved", buf[0], 7 * record);
	read_back("xfb_interleaved_drawn", 2);

	/* what ES 3.0 refuses while capturing: another mode, indices (into a buffer not compared)
	 */
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb[1]);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[3]);
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 3);
	es30_error("xfb_other_mode", GL_INVALID_OPERATION);
	glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, (const GLubyte[]){ 0, 1, 2 });
	es30_error("xfb_indexed", GL_INVALID_OPERATION);
	/* past the end of the buffer (ES 3.2 records what fits instead) */
	glDrawArraysInstanced(GL_TRIANGLES, 0, 6, 20);
	es30_error("xfb_overflow", GL_INVALID_OPERATION);
	glEndTransformFeedback();

	/* separate, into ranges at offsets, points with the rasterizer discarding */
	clear();
	llvmpipe_program_xfb(vs, fs, in_pos, separate, GL_SEPARATE_ATTRIBS);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb[1]);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[1], 16, 64);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buf[1], 256, 256);
	glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 2, buf[2], 4, 512);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 1, 5);
	glEndTransformFeedback();
	glDisable(GL_RASTERIZER_DISCARD);
	llvmpipe_record_error("xfb_separate");
	record_buffer("xfb_separate_1", buf[1], 512);
	record_buffer("xfb_separate_2", buf[2], 128);
	read_back("xfb_discarded", 1);

	/* the first capture's triangles drawn again from its buffer */
	clear();
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	llvmpipe_program(vs_replay, fs_replay, in_replay);
	glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, (GLsizei)record, (const void *)0);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, (GLsizei)record, (const void *)16);
	glEnableVertexAttribArray(1);
	glDrawArrays(GL_TRIANGLES, 0, 6);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glDisableVertexAttribArray(1);
	read_back("xfb_replayed", 2);

	glDeleteTransformFeedbacks(2, xfb);
	glDeleteQueries(1, &q);
	glDeleteBuffers(4, buf);
}

/*
 * Struct varyings (GLSL ES 3.00 sections 4.3.4, 4.3.6): a smooth struct and
 * a flat one of vectors, matrices and integers, declared in other orders
 * in the two stages, drawn; their members captured by transform feedback
 * as ES 3.0 names them ("l.m", section 2.15.1) with what
 * glGetTransformFeedbackVarying says of each; a whole struct ("l") is no
 * name to capture, and the link fails.  The captured values are exact in
 * binary, so the bytes must be the same.
 */
static void struct_varyings(void)
{
	static const char vs[] = "#version 300 es\n"
				 "in vec4 pos;\n"
				 "struct L { vec3 c; mat2 m; float w; };\n"
				 "struct F { ivec2 i; uvec3 u; mat3 r; };\n"
				 "out L l;\n"
				 "flat out F f;\n"
				 "void main() {\n"
				 "  gl_Position = pos;\n"
				 "  l.c = pos.xyz * 0.5 + 0.5;\n"
				 "  l.m = mat2(pos.x, pos.y, 0.25, 0.75);\n"
				 "  l.w = pos.x * pos.y;\n"
				 "  f.i = ivec2(gl_VertexID, -3 * gl_VertexID);\n"
				 "  f.u = uvec3(7u, uint(gl_VertexID) + 1u, 9u);\n"
				 "  f.r = mat3(float(gl_VertexID) * 0.125);\n"
				 "}\n";
	static const char fs[] =
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "struct F { ivec2 i; uvec3 u; mat3 r; };\n"
	    "struct L { vec3 c; mat2 m; float w; };\n"
	    "flat in F f;\n"
	    "in L l;\n"
	    "out vec4 o;\n"
	    "void main() {\n"
	    "  o = vec4(l.c.x + l.m[1].x * 0.5, l.m[0].y * 0.5 + 0.5,\n"
	    "           float(f.i.x + f.i.y) * -0.05 + float(f.u.y) * 0.05 + f.r[1].y,\n"
	    "           l.w + f.r[2].z + float(f.u.z - f.u.x) * 0.1);\n"
	    "}\n";
	static const char *const in_pos[] = { "pos", NULL };
	static const char *const captured[] = { "l.m", "f.i", "l.w", "f.r", "f.u", NULL };
	static const char *const whole[] = { "l" };
	const size_t record = (4 + 2 + 1 + 9 + 3) * 4;
	GLuint p, buf;
	GLint linked = -1;

	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	llvmpipe_program(vs, fs, in_pos);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("struct_varyings", 3);

	p = llvmpipe_program_xfb(vs, fs, in_pos, captured, GL_INTERLEAVED_ATTRIBS);
	for (GLuint i = 0; i < 5; i++) {
		char name[16] = "";
		GLsizei length = -1, size = -1;
		GLenum type = 0;

		glGetTransformFeedbackVarying(p, i, sizeof(name), &length, &size, &type, name);
		llvmpipe_record(captured[i], name, sizeof(name));
		snprintf(name, sizeof(name), "%s:size", captured[i]);
		llvmpipe_record(name, &size, sizeof(size));
		snprintf(name, sizeof(name), "%s:type", captured[i]);
		llvmpipe_record(name, &type, sizeof(type));
	}
	glGenBuffers(1, &buf);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)(6 * record), NULL, GL_STREAM_COPY);
	clear();
	glBeginTransformFeedback(GL_TRIANGLES);
	glDrawArrays(GL_TRIANGLES, 0, 6);
	glEndTransformFeedback();
	llvmpipe_record_error("struct_xfb");
	record_buffer("struct_xfb_interleaved", buf, 6 * record);
	read_back("struct_xfb_drawn", 3);

	glUseProgram(0);
	glTransformFeedbackVaryings(p, 1, whole, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &linked);
	llvmpipe_record("struct_xfb_whole_struct_links", &linked, sizeof(linked));
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
	glDeleteBuffers(1, &buf);
	glDeleteProgram(p);
}

/* A framebuffer of an RGBA8 and a DEPTH_COMPONENT16 renderbuffer (rb), bound. */
static GLuint colour_depth_fb(GLuint rb[2])
{
	GLuint fb;

	glGenFramebuffers(1, &fb);
	glGenRenderbuffers(2, rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
	return fb;
}

/*
 * GLSL ES 1.00 with the ES 2.0 extensions ES 3.0 has in core: derivatives
 * (OES_standard_derivatives) and gl_FragDepthEXT (EXT_frag_depth), the
 * depth then tested by a second draw.
 */
static void es2_extensions(GLuint main_fb)
{
	static const char vs[] = "attribute vec4 pos;\n"
				 "varying vec2 v;\n"
				 "void main() { gl_Position = pos; v = pos.xy * pos.xy * 4.0; }\n";
	static const char fs[] = "#extension GL_OES_standard_derivatives : require\n"
				 "#extension GL_EXT_frag_depth : require\n"
				 "precision highp float;\n"
				 "varying vec2 v;\n"
				 "void main() {\n"
				 "  gl_FragColor = vec4(abs(dFdx(v.x)), abs(dFdy(v.y)),\n"
				 "                      fwidth(v.x + v.y), 1.0) * 4.0;\n"
				 "  gl_FragDepthEXT = clamp(v.x * 0.25, 0.0, 1.0);\n"
				 "}\n";
	GLuint fb, rb[2];

	fb = colour_depth_fb(rb);
	glEnable(GL_DEPTH_TEST);
	clear();
	llvmpipe_program(vs, fs, pos_col);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	/* a convex quad: where triangles overlap, depth ties would decide */
	glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
	read_back("es2_derivatives", 2);
	/* a flat quad at depth 0.5 (window) is hidden where the fan wrote less */
	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glDisableVertexAttribArray(1);
	glVertexAttrib4f(1, 1, 1, 1, 1);
	{
		static const float quad[][4] = {
			{ -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { 1, 1, 0, 1 }, { -1, 1, 0, 1 }
		};

		glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, quad);
		glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
	}
	read_back("es2_frag_depth", 2);
	glDisable(GL_DEPTH_TEST);
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, rb);
}

/*
 * glInvalidateFramebuffer: what is drawn or cleared after an invalidation
 * is kept (ours skips the stores of what stays invalidated at the pass's
 * end: depth here, which the draw after it tests again to show it is
 * still there within the pass), and the rest is as it was.
 */
static void invalidation(GLuint main_fb)
{
	static const float quad[][4] = { { -0.5f, -0.5f, 0.5f, 1 },
					 { 0.5f, -0.5f, 0.5f, 1 },
					 { 0.5f, 0.5f, 0.5f, 1 },
					 { -0.5f, 0.5f, 0.5f, 1 } };
	const GLenum colour = GL_COLOR_ATTACHMENT0, depth = GL_DEPTH_ATTACHMENT;
	GLuint fb, rb[2];

	fb = colour_depth_fb(rb);
	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);

	/* colour drawn, then invalidated and drawn again: the second draw is what is kept */
	glEnable(GL_DEPTH_TEST);
	clear();
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
	glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, &colour);
	glDisable(GL_DEPTH_TEST);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
	read_back("invalidate_colour_redrawn", 2);

	/* depth invalidated at the end: the colour is stored all the same */
	glEnable(GL_DEPTH_TEST);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
	glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, &depth);
	read_back("invalidate_depth_colour_kept", 2);

	/* invalidated, then cleared: the clear is kept */
	glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, &colour);
	glClearColor(0.75f, 0.5f, 0.25f, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	read_back("invalidate_cleared", 1);
	llvmpipe_record_error("invalidation");

	/* EXT_discard_framebuffer: the same as glInvalidateFramebuffer, its narrower arguments */
	{
		void (*discard)(GLenum, GLsizei, const GLenum *) = (void (*)(
		    GLenum, GLsizei, const GLenum *))eglGetProcAddress("glDiscardFramebufferEXT");
		const GLenum other = GL_COLOR_ATTACHMENT1, colour_ext = 0x1800 /* GL_COLOR_EXT */;

		clear();
		glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
		discard(GL_FRAMEBUFFER, 1, &depth);
		read_back("discard_depth_colour_kept", 2);
		discard(GL_DRAW_FRAMEBUFFER, 1, &depth);
		llvmpipe_record_error("discard_draw_framebuffer");
		discard(GL_FRAMEBUFFER, 1, &other);
		llvmpipe_record_error("discard_colour_attachment1");
		discard(GL_FRAMEBUFFER, 1, &colour_ext);
		llvmpipe_record_error("discard_colour_ext_of_an_fbo");
		discard(GL_FRAMEBUFFER, -1, &depth);
		llvmpipe_record_error("discard_negative_count");
	}
	glDisable(GL_DEPTH_TEST);

	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, rb);
}

/*
 * A shadow map as glmark2's shadow scene makes one: a framebuffer with a
 * depth texture and no colour attachment, drawn into by a shader that
 * writes gl_FragColor all the same (with the colour mask on and off),
 * then sampled as a texture in the main framebuffer.
 */
static void shadow_map(GLuint main_fb)
{
	/*
	 * red only: ES 3.0 gives a depth texture's texel as (D, 0, 0, 1), and
	 * Mesa in ES as OES_depth_texture's luminance, (D, D, D, 1)
	 */
	static const char fs_depth[] = "#version 300 es\n"
				       "precision highp float;\n"
				       "in vec2 uv;\n"
				       "uniform sampler2D s;\n"
				       "out vec4 o;\n"
				       "void main() { o = vec4(texture(s, uv).r, 0, 0, 1); }\n";
	static const float tri[][4] = { { -1, -1, -0.5f, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0.5f, 1 } };
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint fb, tex;

	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, W, H, 0, GL_DEPTH_COMPONENT,
		     GL_UNSIGNED_INT, NULL);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
	{
		GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);

		llvmpipe_record("shadow_map_complete", &status, sizeof(status));
	}
	for (unsigned masked = 0; masked < 2; masked++) {
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glColorMask(!masked, !masked, !masked, !masked);
		glEnable(GL_DEPTH_TEST);
		glClear(GL_DEPTH_BUFFER_BIT);
		llvmpipe_program(vs_colour, fs_colour, pos_col);
		glEnableVertexAttribArray(0);
		glDisableVertexAttribArray(1);
		glVertexAttrib4f(1, 1, 0, 0, 1);
		glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, tri);
		glDrawArrays(GL_TRIANGLES, 0, 3);
		glDisable(GL_DEPTH_TEST);
		glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);

		glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
		llvmpipe_program(vs_uv, fs_depth, NULL); /* s: unit 0, where tex is */
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		read_back(masked ? "shadow_map_masked" : "shadow_map", 2);
	}
	glDeleteFramebuffers(1, &fb);
	glDeleteTextures(1, &tex);
}

/* Points of several sizes, coloured by gl_PointCoord. */
static void point_sprites(void)
{
	static const char vs[] = "attribute vec4 pos;\n"
				 "uniform float size;\n"
				 "void main() { gl_Position = pos; gl_PointSize = size; }\n";
	static const char fs[] = "precision mediump float;\n"
				 "void main() { gl_FragColor = vec4(gl_PointCoord, 0.5, 1); }\n";
	static const char *const names[] = { "pos", NULL };
	GLuint p = llvmpipe_program(vs, fs, names);

	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glUniform1f(glGetUniformLocation(p, "size"), 8);
	clear();
	glDrawArrays(GL_POINTS, 0, 6);
	read_back("point_coord_8", 3);
	glUniform1f(glGetUniformLocation(p, "size"), 3);
	clear();
	glDrawArrays(GL_POINTS, 0, 6);
	read_back("point_coord_3", 3);
}

/*
 * INTEL_blackhole_render: with the capability on, a draw, a clear, a
 * glClearBuffer and a blit leave the target as it was.  llvmpipe does not
 * have the extension in ES, so there the workload makes none of those
 * calls: the two records agree when the black hole swallowed them all.
 */
static void blackhole(GLuint main_fb)
{
	const GLfloat green[] = { 0, 1, 0, 1 };
	bool has = strstr((const char *)glGetString(GL_EXTENSIONS), "GL_INTEL_blackhole_render");
	GLuint fb, rb[2];

	fb = colour_depth_fb(rb);
	llvmpipe_program(vs_colour, fs_colour, pos_col);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colours);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, 3);
	if (has) {
		glEnable(0x83FC /* GL_BLACKHOLE_RENDER_INTEL */);
		glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
		glClear(GL_COLOR_BUFFER_BIT);
		glClearBufferfv(GL_COLOR, 0, green);
		/* the main framebuffer's contents, stretched over this one */
		glBindFramebuffer(GL_READ_FRAMEBUFFER, main_fb);
		glBlitFramebuffer(0, 0, W, H, 0, 0, W / 2, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
		if (!glIsEnabled(0x83FC))
			fprintf(stderr, "blackhole: glIsEnabled says it is off\n");
		glDisable(0x83FC);
	}
	read_back("blackhole_render", 2);
	/* and off again, the next draw is drawn */
	glDrawArrays(GL_TRIANGLE_FAN, 3, 3);
	read_back("blackhole_render_off", 2);
	glBindFramebuffer(GL_FRAMEBUFFER, main_fb);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, rb);
}

/*
 * EXT_blend_func_extended: a second source colour for the blend factors,
 * from a 3.00 output of index 1, from glBindFragDataLocationIndexedEXT,
 * and from a 1.00 shader's gl_SecondaryFragColorEXT; the queries and the
 * errors of the API.
 */
static void dual_source(void)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec4 pos;\n"
				 "out vec2 uv;\n"
				 "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
	static const char fs_explicit[] =
	    "#version 300 es\n"
	    "#extension GL_EXT_blend_func_extended : require\n"
	    "precision mediump float;\n"
	    "in vec2 uv;\n"
	    "layout(location = 0) out vec4 a;\n"
	    "layout(location = 0, index = 1) out vec4 b;\n"
	    "void main() { a = vec4(uv, 0.5, 0.75); b = vec4(1.0 - uv.y, 0.25, uv.x, 0.5); }\n";
	static const char fs_bound[] =
	    "#version 300 es\n"
	    "#extension GL_EXT_blend_func_extended : require\n"
	    "precision mediump float;\n"
	    "in vec2 uv;\n"
	    "out vec4 first;\n"
	    "out vec4 second;\n"
	    "void main() { first = vec4(0.9, uv, 1.0); second = vec4(uv.yx, 0.6, 0.2); }\n";
	static const char vs100[] = "attribute vec4 pos;\n"
				    "varying vec2 uv;\n"
				    "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
	static const char fs100[] =
	    "#extension GL_EXT_blend_func_extended : require\n"
	    "precision mediump float;\n"
	    "varying vec2 uv;\n"
	    "void main() { gl_FragColor = vec4(uv, 1.0, 1.0);\n"
	    "  gl_SecondaryFragColorEXT = vec4(0.5, uv.x, 1.0 - uv.x, uv.y); }\n";
	static const char *const pos[] = { "pos", NULL };
	void (*bind)(GLuint, GLuint, GLuint, const char *) =
	    (void (*)(GLuint, GLuint, GLuint, const char *))eglGetProcAddress(
		"glBindFragDataLocationIndexedEXT");
	GLint (*get_index)(GLuint, const char *) =
	    (GLint(*)(GLuint, const char *))eglGetProcAddress("glGetFragDataIndexEXT");
	GLint values[5];
	GLuint p;

	if (!bind || !get_index) {
		fprintf(stderr, "dual_source: no EXT_blend_func_extended functions\n");
		return;
	}
	glEnableVertexAttribArray(0);
	glDisableVertexAttribArray(1);
	glEnable(GL_BLEND);

	p = llvmpipe_program(vs, fs_explicit, NULL);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	clear();
	glBlendFuncSeparate(0x88F9 /* GL_SRC1_COLOR_EXT */, 0x88FB /* ONE_MINUS_SRC1_ALPHA */,
			    GL_ONE, 0x8589 /* GL_SRC1_ALPHA_EXT */);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("dual_source_explicit", 3);
	values[0] = get_index(p, "a");
	values[1] = get_index(p, "b");
	values[2] = glGetFragDataLocation(p, "b");
	values[3] = get_index(p, "nothing");
	glGetIntegerv(0x88FC /* GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT */, &values[4]);
	llvmpipe_record("dual_source_queries", values, sizeof(values));

	/* the bindings place the outputs at the next link */
	p = llvmpipe_program(vs, fs_bound, NULL);
	bind(p, 0, 1, "first");
	bind(p, 0, 0, "second");
	glLinkProgram(p);
	glUseProgram(p);
	clear();
	glBlendFunc(0x88FA /* GL_ONE_MINUS_SRC1_COLOR_EXT */, 0x88F9 /* GL_SRC1_COLOR_EXT */);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("dual_source_bound", 3);
	values[0] = get_index(p, "first");
	values[1] = get_index(p, "second");
	llvmpipe_record("dual_source_bound_queries", values, 2 * sizeof(values[0]));
	llvmpipe_record_error("dual_source_bound");
	/* a dual-source location past the one buffer, an index past 1, a built-in's name */
	bind(p, 1, 1, "first");
	llvmpipe_record_error("dual_source_bind_location_1");
	bind(p, 0, 2, "first");
	llvmpipe_record_error("dual_source_bind_index_2");
	bind(p, 0, 1, "gl_FragColor");
	llvmpipe_record_error("dual_source_bind_gl_name");
	bind(p, 8, 0, "first");
	llvmpipe_record_error("dual_source_bind_location_8");

	llvmpipe_program(vs100, fs100, pos);
	clear();
	glBlendFunc(0x8589 /* GL_SRC1_ALPHA_EXT */, GL_SRC_ALPHA_SATURATE);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("dual_source_100", 3);
	glBlendFunc(GL_ONE, GL_ZERO);
	glDisable(GL_BLEND);
	llvmpipe_record_error("dual_source");
}

/* Two draw buffers, each output to its own. */
static void draw_buffers(GLuint fb)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec4 pos;\n"
				 "out vec2 uv;\n"
				 "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
	static const char fs[] =
	    "#version 300 es\n"
	    "precision mediump float;\n"
	    "in vec2 uv;\n"
	    "layout(location = 0) out vec4 a;\n"
	    "layout(location = 1) out vec4 b;\n"
	    "void main() { a = vec4(uv, 0, 1); b = vec4(1.0 - uv.x, 0.5, uv.y, 1); }\n";
	static const GLenum bufs[] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
	GLuint rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, rb);
	glDrawBuffers(2, bufs);
	llvmpipe_program(vs, fs, NULL);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	clear();
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glReadBuffer(GL_COLOR_ATTACHMENT0);
	read_back("mrt_0", 3);
	glReadBuffer(GL_COLOR_ATTACHMENT1);
	read_back("mrt_1", 3);

	/* EXT_draw_buffers: a GLSL ES 1.00 shader's gl_FragData[1], glDrawBuffersEXT */
	{
		static const char vs100[] =
		    "attribute vec4 pos;\n"
		    "varying vec2 uv;\n"
		    "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
		static const char fs100[] = "#extension GL_EXT_draw_buffers : require\n"
					    "precision mediump float;\n"
					    "varying vec2 uv;\n"
					    "void main() {\n"
					    "  gl_FragData[0] = vec4(uv.y, uv.x, 0.25, 1);\n"
					    "  gl_FragData[1] = vec4(0.75, uv, 1);\n"
					    "}\n";
		void(GL_APIENTRY * draw_buffers_ext)(GLsizei, const GLenum *);
		static const char *const pos[] = { "pos", NULL };

		*(void **)&draw_buffers_ext = (void *)eglGetProcAddress("glDrawBuffersEXT");
		if (draw_buffers_ext) {
			llvmpipe_program(vs100, fs100, pos);
			draw_buffers_ext(2, bufs);
			clear();
			glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
			glReadBuffer(GL_COLOR_ATTACHMENT0);
			read_back("mrt_es2_0", 3);
			glReadBuffer(GL_COLOR_ATTACHMENT1);
			read_back("mrt_es2_1", 3);
		}
	}
	glReadBuffer(GL_COLOR_ATTACHMENT0);
	glDrawBuffers(1, bufs);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, 0);
	glDeleteRenderbuffers(1, &rb);
	(void)fb;
}

/*
 * EXT_shader_framebuffer_fetch: a 3.00 inout output and 1.00's
 * gl_LastFragData read what the earlier draws left, two draws on a clear;
 * an inout output the shader only writes in part keeps the rest.
 */
static void framebuffer_fetch(void)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec4 pos;\n"
				 "out vec2 uv;\n"
				 "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
	static const char fs[] = "#version 300 es\n"
				 "#extension GL_EXT_shader_framebuffer_fetch : require\n"
				 "precision mediump float;\n"
				 "in vec2 uv;\n"
				 "inout vec4 colour;\n"
				 "void main() {\n"
				 "  if (uv.x > 0.5) colour.g = 1.0 - colour.g;\n"
				 "  colour.r += uv.y * 0.25;\n"
				 "}\n";
	static const char vs100[] = "attribute vec4 pos;\n"
				    "varying vec2 uv;\n"
				    "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n";
	static const char fs100[] =
	    "#extension GL_EXT_shader_framebuffer_fetch : require\n"
	    "precision mediump float;\n"
	    "varying vec2 uv;\n"
	    "void main() {\n"
	    "  gl_FragColor = gl_LastFragData[0].bgra * vec4(uv, 0.75, 1.0);\n"
	    "}\n";
	static const char *const pos[] = { "pos", NULL };

	glEnableVertexAttribArray(0);
	glDisableVertexAttribArray(1);
	llvmpipe_program(vs, fs, NULL);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, shape);
	glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("fetch_inout", 3);
	llvmpipe_program(vs100, fs100, pos);
	glDrawArrays(GL_TRIANGLE_FAN, 0, 6);
	read_back("fetch_last_frag_data", 3);
	glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
	llvmpipe_record_error("framebuffer_fetch");
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLContext ctx;
	EGLSurface surf;
	GLuint fb, rb;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "workload: no EGL display (0x%x)\n", eglGetError());
		return 1;
	}
	/* a pbuffer's config and context; the draws go to framebuffer objects */
	{
		const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
					   EGL_OPENGL_ES3_BIT, EGL_NONE };
		const EGLint pb[] = { EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE };
		EGLConfig config;
		EGLint n = 0;

		if (!eglChooseConfig(dpy, attribs, &config, 1, &n) || !n ||
		    (surf = eglCreatePbufferSurface(dpy, config, pb)) == EGL_NO_SURFACE ||
		    (ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca)) == EGL_NO_CONTEXT ||
		    !eglMakeCurrent(dpy, surf, surf, ctx)) {
			fprintf(stderr, "workload: no context (0x%x)\n", eglGetError());
			return 1;
		}
	}
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glViewport(0, 0, W, H);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "workload: the framebuffer is not complete\n");
		return 1;
	}
	primitives();
	indexed();
	vertex_formats();
	instancing();
	uniforms();
	varyings();
	textures();
	compressed_textures();
	compressed_by_the_gl();
	astc_textures();
	fixed_function();
	state_between_draws(fb);
	fixed_state_between_draws(dpy, surf, ctx, fb);
	depth_stencil(GL_DEPTH24_STENCIL8, "d24s8");
	depth_stencil(GL_DEPTH32F_STENCIL8, "d32fs8");
	many_draws();
	storeless_buffer();
	queries();
	transform_feedback();
	struct_varyings();
	es2_extensions(fb);
	invalidation(fb);
	shadow_map(fb);
	point_sprites();
	blackhole(fb);
	dual_source();
	draw_buffers(fb);
	framebuffer_fetch();
	target_formats();
	float_targets();
	/* those two attached targets of their own to fb, and deleted them: fb's again */
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	bgra_textures(fb);
	base_instance();
	srgb_decode(fb);
	llvmpipe_release(dpy, surf, ctx);
	return 0;
}

int main(int argc, char **argv)
{
	return llvmpipe_main(argc, argv, workload, 60);
}

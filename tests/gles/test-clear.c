/*
 * test-clear: glClear, glClearBuffer* and glReadPixels through glvnd,
 * compared with Mesa's llvmpipe.  One workload -- framebuffer objects
 * with a renderbuffer and with a texture of every colour-renderable
 * internal format of OpenGL ES 3.0 (table 3.13; the float formats need
 * EXT_color_buffer_float, which this driver does not have), the default
 * framebuffer of RGBA8888 and RGB565 pbuffers, cleared with several colours,
 * with a scissor and a colour mask, read back with glReadPixels in the
 * spec's format/type and the implementation's, with pack parameters,
 * partly outside the framebuffer and into a pixel pack buffer, the errors
 * of each call, and what an ES 2.0 request gets (ES 3: the version
 * strings, glClearBufferfv) -- runs twice in child processes: once on our
 * vendor over the real stack, once on Mesa's (EGL_PLATFORM=surfaceless,
 * LIBGL_ALWAYS_SOFTWARE=1: llvmpipe).  Every record of the two runs must be
 * byte for byte the same; records whose content GL leaves to the
 * implementation (the implementation read format, out-of-range integer
 * clears) are printed when they differ, not failed.
 *
 * The same process also checks, on our vendor alone, what llvmpipe cannot
 * show the same way: an ES 2.0 request's exact version (3.0; llvmpipe's is
 * 3.2), a context without surfaces, and the errors' exact codes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "llvmpipe.h"
#include "sanitized.h"
#include "stack.h"

#define W 13
#define H 7

static struct test_stack_options options;

/* ---- the workload: GL calls and what they gave, one record a line --------------------- */

enum kind { NORM, SINT, UINT };

struct format {
	GLenum internal;
	const char *name;
	enum kind kind;
	unsigned bits;	   /* of the widest channel: integer values past it are out of range */
	uint8_t widths[4]; /* normalized formats: each channel's bits (0: none) */
	bool srgb;
};

/* OpenGL ES 3.0 table 3.13's colour-renderable formats, without the float ones */
static const struct format formats[] = {
	{ GL_R8, "R8", NORM, 8, { 8 }, false },
	{ GL_RG8, "RG8", NORM, 8, { 8, 8 }, false },
	{ GL_RGB8, "RGB8", NORM, 8, { 8, 8, 8 }, false },
	{ GL_RGB565, "RGB565", NORM, 6, { 5, 6, 5 }, false },
	{ GL_RGBA4, "RGBA4", NORM, 4, { 4, 4, 4, 4 }, false },
	{ GL_RGB5_A1, "RGB5_A1", NORM, 5, { 5, 5, 5, 1 }, false },
	{ GL_RGBA8, "RGBA8", NORM, 8, { 8, 8, 8, 8 }, false },
	{ GL_SRGB8_ALPHA8, "SRGB8_ALPHA8", NORM, 8, { 8, 8, 8, 8 }, true },
	{ GL_RGB10_A2, "RGB10_A2", NORM, 10, { 10, 10, 10, 2 }, false },
	{ GL_RGB10_A2UI, "RGB10_A2UI", UINT, 2, { 0 }, false },
	{ GL_R8I, "R8I", SINT, 8, { 0 }, false },
	{ GL_R8UI, "R8UI", UINT, 8, { 0 }, false },
	{ GL_R16I, "R16I", SINT, 16, { 0 }, false },
	{ GL_R16UI, "R16UI", UINT, 16, { 0 }, false },
	{ GL_R32I, "R32I", SINT, 32, { 0 }, false },
	{ GL_R32UI, "R32UI", UINT, 32, { 0 }, false },
	{ GL_RG8I, "RG8I", SINT, 8, { 0 }, false },
	{ GL_RG8UI, "RG8UI", UINT, 8, { 0 }, false },
	{ GL_RG16I, "RG16I", SINT, 16, { 0 }, false },
	{ GL_RG16UI, "RG16UI", UINT, 16, { 0 }, false },
	{ GL_RG32I, "RG32I", SINT, 32, { 0 }, false },
	{ GL_RG32UI, "RG32UI", UINT, 32, { 0 }, false },
	{ GL_RGBA8I, "RGBA8I", SINT, 8, { 0 }, false },
	{ GL_RGBA8UI, "RGBA8UI", UINT, 8, { 0 }, false },
	{ GL_RGBA16I, "RGBA16I", SINT, 16, { 0 }, false },
	{ GL_RGBA16UI, "RGBA16UI", UINT, 16, { 0 }, false },
	{ GL_RGBA32I, "RGBA32I", SINT, 32, { 0 }, false },
	{ GL_RGBA32UI, "RGBA32UI", UINT, 32, { 0 }, false },
};

static const struct format default_rgba8888 = { GL_RGBA8, "default_rgba8888", NORM,
						8,	  { 8, 8, 8, 8 },     false };
static const struct format default_rgb565 = { GL_RGB565, "default_rgb565", NORM,
					      6,	 { 5, 6, 5 },	   false };

/*
 * Where llvmpipe and the spec part, and so which records can be compared
 * exactly.  GLES 3.0.6 section 2.1.6 converts a float c to b bits as
 * round(c * (2^b - 1)), and a b-bit value v back as v / (2^b - 1) (then to
 * 8 bits by rounding again, section 4.3.2).  llvmpipe (Mesa 22.3) differs
 * in three places, each a unit of the last place at most:
 * - a full clear of an 8-bit channel goes through util_format's
 *   float_to_ubyte, which rounds c * 255/256 to single precision before
 *   adding 2^15: c within 2^-24 below a half rounds up (0.9f: 229.49999
 *   becomes 230, not 229);
 * - a scissored or masked clear is a draw, whose conversion to unorm
 *   truncates (0.25 into 8 bits: 63.75 becomes 63, not 64);
 * - glReadPixels widens 4-, 5- and 6-bit channels to 8 by repeating their
 *   bits (5-bit 3: 24, where 3 * 255 / 31 = 24.68 rounds to 25) and
 *   narrows 10-bit ones by dropping bits;
 * and it encodes sRGB with its own approximation.  A colour is "exact" for
 * a format when none of these can matter: every channel's c * (2^b - 1)
 * has a fraction under 0.4 (or is whole), and the value read back widens
 * or narrows to 8 bits the same both ways.  Records of other colours are
 * compared with a tolerance of 1 in each byte of an RGBA/UNSIGNED_BYTE
 * read (name prefix '~'), or shown without failing (prefix '#').
 */
static unsigned widen(unsigned v, unsigned b)
{
	unsigned r = 0;
	int s = 8;

	while (s > 0) {
		r |= s >= (int)b ? v << (s - (int)b) : v >> ((int)b - s);
		s -= (int)b;
	}
	return r & 0xff;
}

static bool exact_channel(float c, unsigned b)
{
	double m = (double)((1u << b) - 1), x, fr;
	unsigned v;

	c = c < 0 ? 0 : c > 1 ? 1 : c;
	x = (double)c * m;
	fr = x - floor(x);
	if (fr >= 0.4 && fr < 0.9999)
		return false;
	v = (unsigned)floor(x + 1e-4);
	if (b < 8 && widen(v, b) != (unsigned)floor(v * 255.0 / m + 0.5))
		return false;
	if (b > 8 && (v >> (b - 8)) != (unsigned)floor(v * 255.0 / m + 0.5))
		return false;
	return true;
}

static bool exact_color(const struct format *f, const GLfloat *c)
{
	if (f->srgb)
		return false;
	for (unsigned i = 0; i < 4; i++)
		if (f->widths[i] && !exact_channel(c[i], f->widths[i]))
			return false;
	return true;
}

static const GLfloat colors[][4] = {
	{ 0.2f, 0.4f, 0.6f, 0.8f },
	{ 1.0f, 0.5f, 0.25f, 0.0f },
	{ 0.1f, 0.9f, 0.333f, 0.666f },
	{ 0.5f, 0.5f, 0.5f, 0.5f },  /* ties into 1, 4, 5 bits ... */
	{ -1.0f, 2.0f, 0.0f, 1.5f }, /* clamped */
	{ 0.0123f, 0.987f, 0.7071f, 0.0039f },
};

/* integer clear values, and the bits they need (unsigned: the largest, signed: with sign) */
static const struct {
	GLint v[4];
	unsigned bits;
} int_values[] = {
	{ { 1, 2, 3, 1 }, 2 },
	{ { -7, 33, -100, 120 }, 8 },
	{ { 1000, -2000, 30000, -32768 }, 16 },
	{ { 100000, -7, 2147483647, -2147483647 - 1 }, 32 },
};

static const GLuint uint_values[][4] = {
	{ 1, 2, 3, 0 },
	{ 200, 17, 255, 3 },
	{ 60000, 1, 65535, 2 },
	{ 4000000000u, 70000, 5, 1 },
};
static const unsigned uint_bits[] = { 2, 8, 16, 32 };

static unsigned pixel_bytes(GLenum format, GLenum type)
{
	unsigned n = format == GL_RED || format == GL_RED_INTEGER   ? 1
		     : format == GL_RG || format == GL_RG_INTEGER   ? 2
		     : format == GL_RGB || format == GL_RGB_INTEGER ? 3
								    : 4;

	switch (type) {
	case GL_UNSIGNED_BYTE:
	case GL_BYTE:
		return n;
	case GL_UNSIGNED_SHORT:
	case GL_SHORT:
	case GL_HALF_FLOAT:
		return 2 * n;
	case GL_UNSIGNED_SHORT_5_6_5:
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1:
		return 2;
	case GL_UNSIGNED_INT_2_10_10_10_REV:
	case GL_UNSIGNED_INT_10F_11F_11F_REV:
		return 4;
	default:
		return 4 * n;
	}
}

/* The whole w x h framebuffer read as format/type, pack alignment 1: its pixels, row by row. */
static void read_all(const char *name, unsigned w, unsigned h, GLenum format, GLenum type)
{
	unsigned bpp = pixel_bytes(format, type);
	size_t n = (size_t)w * h * bpp;
	uint8_t *buf = malloc(n);

	memset(buf, 0xab, n);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, format, type, buf);
	glPixelStorei(GL_PACK_ALIGNMENT, 4);
	llvmpipe_record(name, buf, n);
	llvmpipe_record_error(name);
	free(buf);
}

/*
 * The spec's read of the buffer, and the implementation's pair (named by
 * its enums): compared exactly when the colours were exact for the format,
 * else with a tolerance of 1 (the RGBA/UNSIGNED_BYTE read) or shown.
 */
static void read_both(const char *tag, const struct format *f, unsigned w, unsigned h, bool exact)
{
	GLint format = 0, type = 0;
	char name[200], prefix[32] = "";

	/* the tolerance of an inexact read: a unit of each channel, in 8 bits, and 1 more */
	if (!exact) {
		unsigned tol[4];

		for (unsigned c = 0; c < 4; c++) {
			unsigned b = f->widths[c], m = b ? (1u << b) - 1 : 0;

			tol[c] = !b ? 0 : b >= 8 ? 1 : (255 + m - 1) / m + 1;
		}
		snprintf(prefix, sizeof(prefix), "~%u.%u.%u.%u~", tol[0], tol[1], tol[2], tol[3]);
	}
	snprintf(name, sizeof(name), "%s%s:read", prefix, tag);
	read_all(name, w, h, f->kind == NORM ? GL_RGBA : GL_RGBA_INTEGER,
		 f->kind == NORM   ? GL_UNSIGNED_BYTE
		 : f->kind == SINT ? GL_INT
				   : GL_UNSIGNED_INT);
	glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
	glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
	snprintf(name, sizeof(name), "#%s:read_pair", tag);
	llvmpipe_record(name, (GLint[]){ format, type }, 8);
	snprintf(name, sizeof(name), "%s%s:read_%04x_%04x", exact ? "" : "#", tag, (unsigned)format,
		 (unsigned)type);
	read_all(name, w, h, (GLenum)format, (GLenum)type);
}

static void reset_masks(void)
{
	glDisable(GL_SCISSOR_TEST);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

/* Clears of a normalized buffer: each colour, then with a scissor and masks. */
static void clears_norm(const char *tag, const struct format *f, unsigned w, unsigned h)
{
	const GLfloat *base = colors[0];
	char name[160];
	bool exact;

	reset_masks();
	for (unsigned c = 0; c < sizeof(colors) / sizeof(colors[0]); c++) {
		glClearColor(colors[c][0], colors[c][1], colors[c][2], colors[c][3]);
		glClear(GL_COLOR_BUFFER_BIT);
		snprintf(name, sizeof(name), "%s:clear%u", tag, c);
		llvmpipe_record_error(name);
		read_both(name, f, w, h, exact_color(f, colors[c]));
	}
	/* a scissored, masked glClear over a whole one */
	glClearColor(base[0], base[1], base[2], base[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(2, 1, 5, 4);
	glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	glClearColor(colors[1][0], colors[1][1], colors[1][2], colors[1][3]);
	glClear(GL_COLOR_BUFFER_BIT);
	snprintf(name, sizeof(name), "%s:scissor_mask", tag);
	llvmpipe_record_error(name);
	exact = exact_color(f, base) && exact_color(f, colors[1]);
	read_both(name, f, w, h, exact);
	/* glClearBufferfv: the mask applies, the scissor too, partly outside the buffer */
	glScissor(-3, 4, 9, 100);
	glColorMask(GL_FALSE, GL_TRUE, GL_TRUE, GL_TRUE);
	glClearBufferfv(GL_COLOR, 0, colors[2]);
	snprintf(name, sizeof(name), "%s:clearbufferfv", tag);
	llvmpipe_record_error(name);
	exact &= exact_color(f, colors[2]);
	read_both(name, f, w, h, exact);
	/* a scissor box outside: nothing */
	glScissor(100, 100, 4, 4);
	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glClearBufferfv(GL_COLOR, 0, colors[3]);
	snprintf(name, sizeof(name), "%s:outside", tag);
	read_both(name, f, w, h, exact);
	reset_masks();
}

static void clears_int(const char *tag, const struct format *f, unsigned w, unsigned h)
{
	char name[160];

	reset_masks();
	for (unsigned v = 0; v < 4; v++) {
		bool fits = f->kind == SINT ? int_values[v].bits <= f->bits
					    : uint_bits[v] <= f->bits ||
						  (f->internal == GL_RGB10_A2UI && v <= 1);

		if (f->kind == SINT)
			glClearBufferiv(GL_COLOR, 0, int_values[v].v);
		else
			glClearBufferuiv(GL_COLOR, 0, uint_values[v]);
		/* values past the format's range are undefined (section 4.2.3): shown, not compared
		 */
		snprintf(name, sizeof(name), "%s%s:clear%u", fits ? "" : "#", tag, v);
		llvmpipe_record_error(name);
		read_both(name, f, w, h, true);
	}
	glEnable(GL_SCISSOR_TEST);
	glScissor(3, 2, 6, 3);
	glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
	if (f->kind == SINT)
		glClearBufferiv(GL_COLOR, 0, int_values[0].v);
	else
		glClearBufferuiv(GL_COLOR, 0, uint_values[0]);
	snprintf(name, sizeof(name), "%s:scissor_mask", tag);
	llvmpipe_record_error(name);
	read_both(name, f, w, h, true);
	reset_masks();
}

static void fbo_format(const struct format *f, bool texture)
{
	GLuint fbo, obj;
	char tag[96];
	GLenum status;

	snprintf(tag, sizeof(tag), "fbo_%s_%s", texture ? "tex" : "rb", f->name);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	if (texture) {
		glGenTextures(1, &obj);
		glBindTexture(GL_TEXTURE_2D, obj);
		glTexStorage2D(GL_TEXTURE_2D, 1, f->internal, W, H);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, obj, 0);
	} else {
		glGenRenderbuffers(1, &obj);
		glBindRenderbuffer(GL_RENDERBUFFER, obj);
		glRenderbufferStorage(GL_RENDERBUFFER, f->internal, W, H);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
					  obj);
	}
	llvmpipe_record_error(tag);
	status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	{
		char name[120];

		snprintf(name, sizeof(name), "%s:status", tag);
		llvmpipe_record(name, &status, sizeof(status));
	}
	if (status == GL_FRAMEBUFFER_COMPLETE) {
		if (f->kind == NORM)
			clears_norm(tag, f, W, H);
		else
			clears_int(tag, f, W, H);
		/* glClear of an integer buffer is undefined (section 4.2.3): not compared */
	}
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
	if (texture)
		glDeleteTextures(1, &obj);
	else
		glDeleteRenderbuffers(1, &obj);
}

/* glReadPixels' addressing: partly outside, pack parameters, a pixel pack buffer. */
static void reads(const char *tag, unsigned w, unsigned h)
{
	uint8_t buf[4096];
	char name[160];
	GLuint pbo;

	/* colours exact in 8 bits and in 5 and 6 (the note above exact_channel) */
	glClearColor(1.0f / 3, 1.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(1, 1, 3, 2);
	glClearColor(0.0f, 1.0f / 3, 1.0f, 0.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);

	/* a rectangle hanging over every edge: the pixels outside stay as they were */
	memset(buf, 0xab, sizeof(buf));
	glReadPixels(-2, -1, (GLsizei)w + 4, (GLsizei)h + 3, GL_RGBA, GL_UNSIGNED_BYTE, buf);
	snprintf(name, sizeof(name), "%s:read_over_edges", tag);
	llvmpipe_record(name, buf, (w + 4) * (h + 3) * 4);
	llvmpipe_record_error(name);

	/* row length, skips, an alignment of 8 */
	memset(buf, 0xab, sizeof(buf));
	glPixelStorei(GL_PACK_ROW_LENGTH, 7);
	glPixelStorei(GL_PACK_SKIP_PIXELS, 2);
	glPixelStorei(GL_PACK_SKIP_ROWS, 3);
	glPixelStorei(GL_PACK_ALIGNMENT, 8);
	glReadPixels(1, 2, 3, 4, GL_RGBA, GL_UNSIGNED_BYTE, buf);
	snprintf(name, sizeof(name), "%s:pack", tag);
	llvmpipe_record(name, buf, 8 * 28 + 4 * 28);
	llvmpipe_record_error(name);
	glPixelStorei(GL_PACK_ROW_LENGTH, 0);
	glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
	glPixelStorei(GL_PACK_SKIP_ROWS, 0);
	glPixelStorei(GL_PACK_ALIGNMENT, 4);

	/* into a pixel pack buffer, at an offset */
	glGenBuffers(1, &pbo);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
	memset(buf, 0xcd, 512);
	glBufferData(GL_PIXEL_PACK_BUFFER, 512, buf, GL_STREAM_READ);
	glReadPixels(0, 0, 4, 3, GL_RGBA, GL_UNSIGNED_BYTE, (void *)(uintptr_t)16);
	snprintf(name, sizeof(name), "%s:pbo", tag);
	llvmpipe_record_error(name);
	{
		const void *p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 512, GL_MAP_READ_BIT);

		if (p)
			llvmpipe_record(name, p, 512);
		glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
	}
	/* errors: past the end, misaligned for the type, while mapped */
	glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	/*
	 * The whole 16x16 rectangle does not fit the buffer: section 4.3.2's
	 * INVALID_OPERATION (packing "according to the pixel pack storage
	 * state"); llvmpipe checks only the part inside the framebuffer.
	 */
	snprintf(name, sizeof(name), "#%s:pbo_past_end", tag);
	llvmpipe_record_error(name);
	glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, (void *)(uintptr_t)2);
	snprintf(name, sizeof(name), "%s:pbo_misaligned_or_format", tag);
	llvmpipe_record_error(name);
	glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 4, GL_MAP_READ_BIT);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	snprintf(name, sizeof(name), "%s:pbo_mapped", tag);
	llvmpipe_record_error(name);
	glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
	glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
	glDeleteBuffers(1, &pbo);
}

/* The errors of section 4.2.3 and 4.3.2, one at a time. */
static void errors(void)
{
	uint8_t px[64];
	GLuint fbo;
	GLint iv[4] = { 0 };
	GLfloat fv[4] = { 0 };

	glClear(0x100);
	llvmpipe_record_error("err:clear_bits");
	glClearBufferiv(GL_DEPTH, 0, iv);
	llvmpipe_record_error("err:clearbufferiv_depth");
	glClearBufferiv(GL_COLOR, GL_MAX_DRAW_BUFFERS, iv);
	llvmpipe_record_error("err:clearbufferiv_drawbuffer");
	glClearBufferiv(GL_STENCIL, 1, iv);
	llvmpipe_record_error("err:clearbufferiv_stencil_1");
	glClearBufferuiv(GL_STENCIL, 0, (GLuint *)iv);
	llvmpipe_record_error("err:clearbufferuiv_stencil");
	glClearBufferuiv(GL_COLOR, -1, (GLuint *)iv);
	llvmpipe_record_error("err:clearbufferuiv_negative");
	glClearBufferfv(GL_STENCIL, 0, fv);
	llvmpipe_record_error("err:clearbufferfv_stencil");
	glClearBufferfv(GL_DEPTH, 1, fv);
	llvmpipe_record_error("err:clearbufferfv_depth_1");
	glClearBufferfv(GL_COLOR, 8, fv);
	llvmpipe_record_error("err:clearbufferfv_8");
	glClearBufferfi(GL_DEPTH, 0, 1.0f, 0);
	llvmpipe_record_error("err:clearbufferfi_depth");
	glClearBufferfi(GL_DEPTH_STENCIL, 1, 1.0f, 0);
	llvmpipe_record_error("err:clearbufferfi_1");
	glClearBufferfi(GL_DEPTH_STENCIL, 0, 1.0f, 0); /* no depth or stencil buffer: nothing */
	llvmpipe_record_error("err:clearbufferfi_none");
	glReadPixels(0, 0, -1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	llvmpipe_record_error("err:read_negative");
	/*
	 * A format or type that is no format or type enum at all: INVALID_ENUM
	 * ("not an accepted value"); llvmpipe gives INVALID_OPERATION, as for
	 * a combination it does not take.
	 */
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT + 100, px);
	llvmpipe_record_error("#err:read_type_enum");
	glReadPixels(0, 0, 1, 1, GL_RGBA8, GL_UNSIGNED_BYTE, px);
	llvmpipe_record_error("#err:read_format_enum");
	glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_INT, px);
	llvmpipe_record_error("err:read_integer_of_norm");
	glReadPixels(0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, px);
	llvmpipe_record_error("err:read_depth");
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, px);
	llvmpipe_record_error("err:read_float_of_norm");
	glReadPixels(0, 0, 1, 1, GL_LUMINANCE, GL_UNSIGNED_BYTE, px);
	llvmpipe_record_error("err:read_luminance");

	/* an incomplete framebuffer: no attachment */
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glClear(GL_COLOR_BUFFER_BIT);
	llvmpipe_record_error("err:clear_incomplete");
	glClearBufferfv(GL_COLOR, 0, fv);
	llvmpipe_record_error("err:clearbuffer_incomplete");
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	llvmpipe_record_error("err:read_incomplete");
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);

	/*
	 * (The read buffer NONE on the default framebuffer crashes Mesa 22.3's
	 * swrast in glReadPixels: test_es2_request_and_surfaceless checks it on
	 * ours.)
	 * A clear with the draw buffer NONE: nothing, no error */
	glDrawBuffers(1, (GLenum[]){ GL_NONE });
	glClearColor(1, 1, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	llvmpipe_record_error("err:clear_draw_none");
	glDrawBuffers(1, (GLenum[]){ GL_BACK });
}

/*
 * A pbuffer of the config with exactly these sizes, current with a context
 * asked for as ES major.0 (2 or 3).
 */
/* The first n bytes of a GL string (zeros past its end, or for none). */
static void record_prefix(const char *name, const GLubyte *str, size_t n)
{
	char buf[32] = { 0 };

	if (str)
		strncpy(buf, (const char *)str, n < sizeof(buf) ? n : sizeof(buf));
	llvmpipe_record(name, buf, n < sizeof(buf) ? n : sizeof(buf));
}

/*
 * A context asked for as ES 2.0, current on the RGBA8888 pbuffer.  EGL 1.5
 * section 3.7.1.1 lets it be of any version backward compatible with 2.0:
 * both answer with ES 3 (llvmpipe 3.2, ours 3.0), so it has ES 3.0's
 * GL_MAJOR_VERSION and glClearBufferfv; eglQueryContext gives the version
 * asked for (section 3.7.4).
 */
static void es2_request(EGLDisplay dpy, EGLContext ctx)
{
	const GLfloat magenta[4] = { 1.0f, 0.0f, 1.0f, 0.0f };
	EGLint client = 0;
	GLint major = 0, minor = 0;

	eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &client);
	llvmpipe_record("es2:client_version", &client, sizeof(client));
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	llvmpipe_record("es2:major_version", &major, sizeof(major));
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	llvmpipe_record("#es2:minor_version", &minor, sizeof(minor));
	record_prefix("es2:version", glGetString(GL_VERSION), strlen("OpenGL ES 3."));
	record_prefix("es2:glsl_version", glGetString(GL_SHADING_LANGUAGE_VERSION),
		      strlen("OpenGL ES GLSL ES 3."));
	llvmpipe_record_error("es2:queries");
	glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	llvmpipe_record_error("es2:clear");
	glClearBufferfv(GL_COLOR, 0, magenta);
	llvmpipe_record_error("es2:clearbufferfv");
	read_all("es2:clearbufferfv:read", W, H, GL_RGBA, GL_UNSIGNED_BYTE);
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLSurface surf;
	EGLContext ctx;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "workload: no EGL display (0x%x)\n", eglGetError());
		return 1;
	}
	/* the default framebuffers first */
	if (!llvmpipe_make_current(dpy, 8, 8, 8, 8, 3, W, H, &surf, &ctx)) {
		fprintf(stderr, "workload: no RGBA8888 pbuffer (0x%x)\n", eglGetError());
		return 1;
	}
	clears_norm("default_rgba8888", &default_rgba8888, W, H);
	reads("default_rgba8888", W, H);
	errors();
	for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		fbo_format(&formats[i], false);
		fbo_format(&formats[i], true);
	}
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglDestroySurface(dpy, surf);
	if (!llvmpipe_make_current(dpy, 8, 8, 8, 8, 2, W, H, &surf, &ctx)) {
		fprintf(stderr, "workload: no ES 2.0 context (0x%x)\n", eglGetError());
		return 1;
	}
	es2_request(dpy, ctx);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglDestroySurface(dpy, surf);
	if (llvmpipe_make_current(dpy, 5, 6, 5, 0, 3, W, H, &surf, &ctx)) {
		clears_norm("default_rgb565", &default_rgb565, W, H);
		reads("default_rgb565", W, H);
		eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglDestroyContext(dpy, ctx);
		eglDestroySurface(dpy, surf);
	} else {
		printf("#no_rgb565_pbuffer -\n");
	}
	eglTerminate(dpy);
	return 0;
}

/* ---- the comparison -------------------------------------------------------------------- */

static void test_llvmpipe(void **state)
{
	llvmpipe_compare(*state, 1000);
}

/* ---- our vendor alone: what the spec fixes that llvmpipe's dispatch does not show ------------ */

/*
 * Clears bigger than one job of the simulated GPU holds (gles/submit.c's
 * JOB_WORDS): one clear over two million words, and several recorded
 * before a flush, each split across jobs; the last one's colour, and a
 * scissored one's, read back.  (Smaller in the sanitizer build, where
 * agx-sim runs some twenty times slower: there only the batching splits.)
 */
static void test_large_clears(void **state)
{
	struct test_stack *s = *state;
	const unsigned w = SANITIZED ? 1024 : 2048, h = SANITIZED ? 512 : 1024;
	const EGLint attribs[] = { EGL_CONFIG_ID, 1, EGL_NONE };
	const EGLint es3[] = { EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE };
	static const float colours[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 }
	};
	const unsigned at[4][2] = { { 0, 0 }, { w - 1, 0 }, { 0, h - 1 }, { w - 1, h - 1 } };
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLint n;
	GLuint fbo, rb;
	uint8_t px[4];

	setenv("AGX_MEMMGR_SOCKET", s->memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", s->sched, 1);
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n) && n == 1);
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, es3);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	glGenFramebuffers(1, &fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	for (unsigned k = 0; k < 4; k++) {
		glClearColor(colours[k][0], colours[k][1], colours[k][2], colours[k][3]);
		glClear(GL_COLOR_BUFFER_BIT);
	}
	/* and a scissored one in the middle */
	glEnable(GL_SCISSOR_TEST);
	glScissor((GLint)w / 2, (GLint)h / 2, 1, 1);
	glClearColor(0, 1, 1, 0);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	for (unsigned k = 0; k < 4; k++) {
		glReadPixels((GLint)at[k][0], (GLint)at[k][1], 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
		assert_memory_equal(px, ((uint8_t[]){ 0xff, 0xff, 0, 0xff }), 4);
	}
	glReadPixels((GLint)w / 2, (GLint)h / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_memory_equal(px, ((uint8_t[]){ 0, 0xff, 0xff, 0 }), 4);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
}

static void test_es2_request_and_surfaceless(void **state)
{
	struct test_stack *s = *state;
	EGLDisplay dpy;
	EGLConfig config;
	EGLint n;
	/* RGBA8888 (with no sizes asked for, eglChooseConfig puts RGB565 first) */
	const EGLint attribs[] = { EGL_SURFACE_TYPE,
				   EGL_PBUFFER_BIT,
				   EGL_RENDERABLE_TYPE,
				   EGL_OPENGL_ES2_BIT,
				   EGL_RED_SIZE,
				   8,
				   EGL_ALPHA_SIZE,
				   8,
				   EGL_NONE };
	const EGLint es2[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	const EGLint es3[] = { EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE };
	const EGLint pb[] = { EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_NONE };
	GLfloat fv[4] = { 1, 1, 1, 1 };
	const GLfloat red[4] = { 1, 0, 0, 1 };
	uint8_t px[16];
	GLint major = 0, minor = -1;
	EGLContext ctx;
	EGLSurface surf;

	setenv("AGX_MEMMGR_SOCKET", s->memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", s->sched, 1);
	dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	assert_true(eglInitialize(dpy, NULL, NULL));
	assert_true(eglChooseConfig(dpy, attribs, &config, 1, &n) && n == 1);

	/*
	 * An ES 2.0 request: an ES 3.0 context (EGL 1.5 section 3.7.1.1), so
	 * glClearBuffer* is there, next to glClear; and GL_RGBA_INTEGER is a
	 * format, only not one of a normalized buffer (INVALID_OPERATION)
	 */
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, es2);
	surf = eglCreatePbufferSurface(dpy, config, pb);
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	assert_int_equal(major, 3);
	assert_int_equal(minor, 0);
	assert_memory_equal(glGetString(GL_VERSION), "OpenGL ES 3.0 ", strlen("OpenGL ES 3.0 "));
	glClearColor(0, 0, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_memory_equal(px, ((uint8_t[]){ 0, 0, 0xff, 0xff }), 4);
	glClearBufferfv(GL_COLOR, 0, red);
	glClearBufferfi(GL_DEPTH_STENCIL, 0, 1, 0);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	assert_memory_equal(px, ((uint8_t[]){ 0xff, 0, 0, 0xff }), 4);
	glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_INVALID_OPERATION);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	eglDestroyContext(dpy, ctx);

	/* without surfaces the default framebuffer is incomplete (GL_FRAMEBUFFER_UNDEFINED) */
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, es3);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	glClear(GL_COLOR_BUFFER_BIT);
	assert_int_equal(glGetError(), GL_INVALID_FRAMEBUFFER_OPERATION);
	glClearBufferfv(GL_COLOR, 0, fv);
	assert_int_equal(glGetError(), GL_INVALID_FRAMEBUFFER_OPERATION);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_INVALID_FRAMEBUFFER_OPERATION);
	/* ... and the same surface, made current again, keeps what was cleared into it */
	assert_true(eglMakeCurrent(dpy, surf, surf, ctx));
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_memory_equal(px, ((uint8_t[]){ 0xff, 0, 0, 0xff }), 4);
	/* rasterizer discard discards clears */
	glEnable(GL_RASTERIZER_DISCARD);
	glClearColor(0, 1, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_RASTERIZER_DISCARD);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	assert_memory_equal(px, ((uint8_t[]){ 0xff, 0, 0, 0xff }), 4);
	/* a clear is flushed by glFlush and done at glFinish; many clears in a row */
	for (unsigned i = 0; i < 300; i++) {
		glClearColor((float)(i % 256) / 255.0f, 0, 0, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		if (i % 100 == 0)
			glFlush();
	}
	glFinish();
	glReadPixels(2, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_memory_equal(px, ((uint8_t[]){ 299 % 256, 0, 0, 0xff }), 4);
	/* the read buffer NONE: nothing to read (section 4.3.2) */
	glReadBuffer(GL_NONE);
	glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError(), GL_INVALID_OPERATION);
	glReadBuffer(GL_BACK);
	assert_int_equal(glGetError(), GL_NO_ERROR);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	eglDestroyContext(dpy, ctx);
	eglDestroySurface(dpy, surf);
	eglTerminate(dpy);
}

static int setup(void **state)
{
	struct test_stack *s = calloc(1, sizeof(*s));

	test_stack_start(s, &options);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct test_stack *s = *state;
	bool clean = test_stack_stop(s);

	free(s);
	return clean ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llvmpipe),
		cmocka_unit_test(test_es2_request_and_surfaceless),
		cmocka_unit_test(test_large_clears),
	};

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

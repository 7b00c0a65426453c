/*
 * test-state: the GL state vector through glvnd's libEGL and libGLESv2 on
 * the real stack -- each setter's effect seen through glGetBooleanv,
 * glGetIntegerv, glGetInteger64v and glGetFloatv (GLES 3.0.6 section 6.1.2's
 * conversions), the initial values, the setters' errors, glIsEnabled, the
 * implementation-dependent values, query objects, transform feedback
 * objects and their begin/end states, and that an ES 2.0 request gets all
 * of it (an ES 3.0 context).
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
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

#include "egl-stack.h"

#ifndef GL_POLYGON_OFFSET_CLAMP_EXT
#define GL_POLYGON_OFFSET_CLAMP_EXT 0x8E1B /* EXT_polygon_offset_clamp */
#endif

static struct test_stack_options options;

static EGLDisplay dpy;
static EGLConfig config;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

static EGLContext context(EGLint major, EGLContext share)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0,
				   EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, share, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	return ctx;
}

static EGLSurface pbuffer(EGLint w, EGLint h)
{
	const EGLint attribs[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
	EGLSurface surf = eglCreatePbufferSurface(dpy, config, attribs);

	assert_ptr_not_equal(surf, EGL_NO_SURFACE);
	return surf;
}

/* A new context asked for as ES major.0 on a new w x h pbuffer, current. */
struct bound {
	EGLContext ctx;
	EGLSurface surf;
};

static struct bound bind_new(EGLint major, EGLint w, EGLint h)
{
	struct bound b = { context(major, EGL_NO_CONTEXT), pbuffer(w, h) };

	assert_true(eglMakeCurrent(dpy, b.surf, b.surf, b.ctx));
	assert_gl_error(GL_NO_ERROR);
	return b;
}

static void unbind(struct bound b)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, b.ctx));
	assert_true(eglDestroySurface(dpy, b.surf));
}

/* ---- one value, through every glGet ------------------------------------------------------ */

/* pname through the four queries. */
static void get_all(GLenum pname, GLint *i, GLint64 *i64, GLfloat *f, GLboolean *b)
{
	glGetIntegerv(pname, i);
	glGetInteger64v(pname, i64);
	glGetFloatv(pname, f);
	glGetBooleanv(pname, b);
	assert_gl_error(GL_NO_ERROR);
}

/* An integer (or enum) state of n values: the same through all four queries. */
static void check_ints(GLenum pname, unsigned n, const GLint *expect)
{
	GLint i[16];
	GLint64 i64[16];
	GLfloat f[16];
	GLboolean b[16];

	get_all(pname, i, i64, f, b);
	for (unsigned k = 0; k < n; k++) {
		assert_int_equal(i[k], expect[k]);
		assert_int_equal(i64[k], expect[k]);
		assert_float_equal(f[k], (GLfloat)expect[k], 0.0f);
		assert_int_equal(b[k], expect[k] ? GL_TRUE : GL_FALSE);
	}
}

static void check_int(GLenum pname, GLint expect)
{
	check_ints(pname, 1, &expect);
}

/* A boolean state: 1/0, 1.0/0.0, TRUE/FALSE. */
/* glGetIntegeri_v of binding point index. */
static void check_ints_indexed(GLenum pname, GLuint index, GLint expect)
{
	GLint v = -12345;

	glGetIntegeri_v(pname, index, &v);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(v, expect);
}

static void check_bools(GLenum pname, unsigned n, const bool *expect)
{
	GLint i[4];
	GLint64 i64[4];
	GLfloat f[4];
	GLboolean b[4];

	get_all(pname, i, i64, f, b);
	for (unsigned k = 0; k < n; k++) {
		assert_int_equal(i[k], expect[k] ? 1 : 0);
		assert_int_equal(i64[k], expect[k] ? 1 : 0);
		assert_float_equal(f[k], expect[k] ? 1.0f : 0.0f, 0.0f);
		assert_int_equal(b[k], expect[k] ? GL_TRUE : GL_FALSE);
	}
}

/* A capability: its glGet and glIsEnabled agree. */
static void check_enabled(GLenum cap, bool expect)
{
	check_bools(cap, 1, &expect);
	assert_int_equal(glIsEnabled(cap), expect ? GL_TRUE : GL_FALSE);
	assert_gl_error(GL_NO_ERROR);
}

/* A float state that is not a colour or depth: integers round to the nearest. */
static void check_floats(GLenum pname, unsigned n, const GLfloat *expect)
{
	GLint i[4];
	GLint64 i64[4];
	GLfloat f[4];
	GLboolean b[4];

	get_all(pname, i, i64, f, b);
	for (unsigned k = 0; k < n; k++) {
		assert_float_equal(f[k], expect[k], 0.0f);
		assert_int_equal(i[k], (GLint)lround(expect[k]));
		assert_int_equal(i64[k], (GLint64)lround(expect[k]));
		assert_int_equal(b[k], expect[k] != 0.0f ? GL_TRUE : GL_FALSE);
	}
}

static void check_float(GLenum pname, GLfloat expect)
{
	check_floats(pname, 1, &expect);
}

/* A colour or depth value: integers by the normalized conversion (section 6.1.2). */
static void check_normalized(GLenum pname, unsigned n, const GLfloat *expect)
{
	GLint i[4];
	GLint64 i64[4];
	GLfloat f[4];
	GLboolean b[4];

	get_all(pname, i, i64, f, b);
	for (unsigned k = 0; k < n; k++) {
		double c = expect[k] > 1 ? 1 : expect[k] < -1 ? -1 : expect[k];

		assert_float_equal(f[k], expect[k], 0.0f);
		assert_int_equal(i[k], (GLint)llround(c * 2147483647.0));
		if (c >= 1 || c <= -1)
			assert_true(i64[k] == (c > 0 ? INT64_MAX : -INT64_MAX));
		else
			assert_true(i64[k] == (GLint64)llround(c * 9223372036854775807.0));
		assert_int_equal(b[k], expect[k] != 0.0f ? GL_TRUE : GL_FALSE);
	}
}

/* ---- initial values ---------------------------------------------------------------------- */

static void check_initial_state(GLint w, GLint h)
{
	const bool all4[4] = { true, true, true, true };
	const GLint box[4] = { 0, 0, w, h };
	const GLfloat zero4[4] = { 0, 0, 0, 0 }, range[2] = { 0.0f, 1.0f }, one = 1.0f;

	check_enabled(GL_BLEND, false);
	check_enabled(GL_CULL_FACE, false);
	check_enabled(GL_DEPTH_TEST, false);
	check_enabled(GL_DITHER, true);
	check_enabled(GL_POLYGON_OFFSET_FILL, false);
	check_enabled(GL_SAMPLE_ALPHA_TO_COVERAGE, false);
	check_enabled(GL_SAMPLE_COVERAGE, false);
	check_enabled(GL_SCISSOR_TEST, false);
	check_enabled(GL_STENCIL_TEST, false);
	check_normalized(GL_BLEND_COLOR, 4, zero4);
	check_int(GL_BLEND_EQUATION_RGB, GL_FUNC_ADD);
	check_int(GL_BLEND_EQUATION_ALPHA, GL_FUNC_ADD);
	check_int(GL_BLEND_SRC_RGB, GL_ONE);
	check_int(GL_BLEND_SRC_ALPHA, GL_ONE);
	check_int(GL_BLEND_DST_RGB, GL_ZERO);
	check_int(GL_BLEND_DST_ALPHA, GL_ZERO);
	check_bools(GL_COLOR_WRITEMASK, 4, all4);
	check_int(GL_DEPTH_FUNC, GL_LESS);
	check_bools(GL_DEPTH_WRITEMASK, 1, all4);
	check_normalized(GL_DEPTH_RANGE, 2, range);
	check_int(GL_STENCIL_FUNC, GL_ALWAYS);
	check_int(GL_STENCIL_BACK_FUNC, GL_ALWAYS);
	check_int(GL_STENCIL_REF, 0);
	check_int(GL_STENCIL_BACK_REF, 0);
	check_int(GL_STENCIL_FAIL, GL_KEEP);
	check_int(GL_STENCIL_PASS_DEPTH_FAIL, GL_KEEP);
	check_int(GL_STENCIL_PASS_DEPTH_PASS, GL_KEEP);
	check_int(GL_STENCIL_BACK_FAIL, GL_KEEP);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_KEEP);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_KEEP);
	check_normalized(GL_COLOR_CLEAR_VALUE, 4, zero4);
	check_normalized(GL_DEPTH_CLEAR_VALUE, 1, &one);
	check_int(GL_STENCIL_CLEAR_VALUE, 0);
	check_ints(GL_VIEWPORT, 4, box);
	check_ints(GL_SCISSOR_BOX, 4, box);
	check_float(GL_POLYGON_OFFSET_FACTOR, 0.0f);
	check_float(GL_POLYGON_OFFSET_UNITS, 0.0f);
	check_float(GL_LINE_WIDTH, 1.0f);
	check_float(GL_SAMPLE_COVERAGE_VALUE, 1.0f);
	check_bools(GL_SAMPLE_COVERAGE_INVERT, 1, (const bool[]){ false });
	check_int(GL_CULL_FACE_MODE, GL_BACK);
	check_int(GL_FRONT_FACE, GL_CCW);
	check_int(GL_GENERATE_MIPMAP_HINT, GL_DONT_CARE);
	check_int(GL_PACK_ALIGNMENT, 4);
	check_int(GL_UNPACK_ALIGNMENT, 4);
	check_int(GL_ACTIVE_TEXTURE, GL_TEXTURE0);
}

/* The stencil masks start as all ones: GLint -1, the unsigned value elsewhere (get.h). */
static void check_all_ones(GLenum pname)
{
	GLint i = 0;
	GLint64 i64 = 0;
	GLfloat f = 0;
	GLboolean b = GL_FALSE;

	glGetIntegerv(pname, &i);
	glGetInteger64v(pname, &i64);
	glGetFloatv(pname, &f);
	glGetBooleanv(pname, &b);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(i, -1);
	assert_true(i64 == 0xffffffffll);
	assert_float_equal(f, 4294967295.0f, 0.0f);
	assert_int_equal(b, GL_TRUE);
}

/* An ES 3.0 context's, and an ES 2.0 request's: the same ES 3.0 context (test_es2_request). */
static void test_initial_values(void **state)
{
	(void)state;
	for (EGLint major = 3; major >= 2; major--) {
		struct bound b = bind_new(major, 32, 16);

		check_initial_state(32, 16);
		check_all_ones(GL_STENCIL_VALUE_MASK);
		check_all_ones(GL_STENCIL_WRITEMASK);
		check_all_ones(GL_STENCIL_BACK_VALUE_MASK);
		check_all_ones(GL_STENCIL_BACK_WRITEMASK);
		/* ES 3.0's own */
		check_enabled(GL_PRIMITIVE_RESTART_FIXED_INDEX, false);
		check_enabled(GL_RASTERIZER_DISCARD, false);
		check_enabled(0x83FC /* GL_BLACKHOLE_RENDER_INTEL */, false);
		check_int(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_DONT_CARE);
		check_int(GL_PACK_ROW_LENGTH, 0);
		check_int(GL_PACK_SKIP_ROWS, 0);
		check_int(GL_PACK_SKIP_PIXELS, 0);
		check_int(GL_UNPACK_ROW_LENGTH, 0);
		check_int(GL_UNPACK_IMAGE_HEIGHT, 0);
		check_int(GL_UNPACK_SKIP_ROWS, 0);
		check_int(GL_UNPACK_SKIP_PIXELS, 0);
		check_int(GL_UNPACK_SKIP_IMAGES, 0);
		check_int(GL_MAJOR_VERSION, 3);
		check_int(GL_MINOR_VERSION, 0);
		check_int(GL_NUM_EXTENSIONS, 40); /* test-egl checks the names */
		check_int(GL_POLYGON_OFFSET_CLAMP_EXT, 0);
		/* EXT_shader_framebuffer_fetch: discard kills every sample of a fragment */
		check_bools(0x8A52 /* GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT */, 1,
			    (const bool[]){ false });
		check_int(GL_TRANSFORM_FEEDBACK_BINDING, 0);
		check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ false });
		check_bools(GL_TRANSFORM_FEEDBACK_PAUSED, 1, (const bool[]){ false });
		unbind(b);
	}
}

/*
 * The viewport and scissor take the size of the first surface the context
 * is bound to (section 2.12.1), and only of the first.
 */
static void test_viewport_first_surface(void **state)
{
	EGLContext ctx = context(3, EGL_NO_CONTEXT);
	EGLSurface big = pbuffer(40, 24), small = pbuffer(8, 4);
	const GLint none[4] = { 0, 0, 0, 0 }, first[4] = { 0, 0, 40, 24 };

	(void)state;
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	check_ints(GL_VIEWPORT, 4, none);
	check_ints(GL_SCISSOR_BOX, 4, none);
	assert_true(eglMakeCurrent(dpy, big, big, ctx));
	check_ints(GL_VIEWPORT, 4, first);
	check_ints(GL_SCISSOR_BOX, 4, first);
	assert_true(eglMakeCurrent(dpy, small, small, ctx));
	check_ints(GL_VIEWPORT, 4, first);
	check_ints(GL_SCISSOR_BOX, 4, first);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, ctx));
	assert_true(eglDestroySurface(dpy, big));
	assert_true(eglDestroySurface(dpy, small));
}

/* ---- setters ----------------------------------------------------------------------------- */

static void test_enables(void **state)
{
	static const GLenum caps[] = {
		GL_BLEND,
		GL_CULL_FACE,
		GL_DEPTH_TEST,
		GL_DITHER,
		GL_POLYGON_OFFSET_FILL,
		GL_SAMPLE_ALPHA_TO_COVERAGE,
		GL_SAMPLE_COVERAGE,
		GL_SCISSOR_TEST,
		GL_STENCIL_TEST,
		GL_PRIMITIVE_RESTART_FIXED_INDEX,
		GL_RASTERIZER_DISCARD,
		0x83FC, /* GL_BLACKHOLE_RENDER_INTEL */
	};
	struct bound b = bind_new(3, 8, 8);

	(void)state;
	for (unsigned k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
		glEnable(caps[k]);
		check_enabled(caps[k], true);
		glDisable(caps[k]);
		check_enabled(caps[k], false);
		glEnable(caps[k]);
		glEnable(caps[k]);
		check_enabled(caps[k], true);
	}
	/* none of them changed another */
	for (unsigned k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
		check_enabled(caps[k], true);
	/* not capabilities of ES: GL_TEXTURE_2D, desktop GL's GL_LINE_SMOOTH, a bad name */
	glEnable(GL_TEXTURE_2D);
	assert_gl_error(GL_INVALID_ENUM);
	glDisable(0x0B20 /* GL_LINE_SMOOTH */);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(glIsEnabled(0x1234), GL_FALSE);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(glIsEnabled(GL_TEXTURE_2D), GL_FALSE);
	assert_gl_error(GL_INVALID_ENUM);
	unbind(b);
}

static void test_blend(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	const GLfloat color[4] = { 0.25f, -0.5f, 2.0f, 1.0f };

	(void)state;
	/* ES 3.0 keeps the constant colour as given; integers convert it clamped */
	glBlendColor(0.25f, -0.5f, 2.0f, 1.0f);
	check_normalized(GL_BLEND_COLOR, 4, color);
	glBlendEquation(GL_FUNC_SUBTRACT);
	check_int(GL_BLEND_EQUATION_RGB, GL_FUNC_SUBTRACT);
	check_int(GL_BLEND_EQUATION_ALPHA, GL_FUNC_SUBTRACT);
	glBlendEquationSeparate(GL_MIN, GL_MAX);
	check_int(GL_BLEND_EQUATION_RGB, GL_MIN);
	check_int(GL_BLEND_EQUATION_ALPHA, GL_MAX);
	glBlendEquationSeparate(GL_FUNC_REVERSE_SUBTRACT, GL_FUNC_ADD);
	check_int(GL_BLEND_EQUATION_RGB, GL_FUNC_REVERSE_SUBTRACT);
	check_int(GL_BLEND_EQUATION_ALPHA, GL_FUNC_ADD);
	/* a bad mode changes neither */
	glBlendEquationSeparate(GL_FUNC_ADD, GL_ONE);
	assert_gl_error(GL_INVALID_ENUM);
	glBlendEquation(0x1234);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_BLEND_EQUATION_RGB, GL_FUNC_REVERSE_SUBTRACT);
	check_int(GL_BLEND_EQUATION_ALPHA, GL_FUNC_ADD);

	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	check_int(GL_BLEND_SRC_RGB, GL_SRC_ALPHA);
	check_int(GL_BLEND_SRC_ALPHA, GL_SRC_ALPHA);
	check_int(GL_BLEND_DST_RGB, GL_ONE_MINUS_SRC_ALPHA);
	check_int(GL_BLEND_DST_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glBlendFuncSeparate(GL_CONSTANT_COLOR, GL_DST_COLOR, GL_SRC_ALPHA_SATURATE,
			    GL_SRC_ALPHA_SATURATE);
	assert_gl_error(GL_NO_ERROR);
	check_int(GL_BLEND_SRC_RGB, GL_CONSTANT_COLOR);
	check_int(GL_BLEND_DST_RGB, GL_DST_COLOR);
	check_int(GL_BLEND_SRC_ALPHA, GL_SRC_ALPHA_SATURATE);
	check_int(GL_BLEND_DST_ALPHA, GL_SRC_ALPHA_SATURATE);
	glBlendFunc(GL_FUNC_ADD, GL_ONE);
	assert_gl_error(GL_INVALID_ENUM);
	glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ONE, GL_BLEND);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_BLEND_SRC_RGB, GL_CONSTANT_COLOR);
	check_int(GL_BLEND_DST_ALPHA, GL_SRC_ALPHA_SATURATE);
	unbind(b);
}

static void test_masks_depth_stencil(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	const bool mask[4] = { true, false, true, false };
	const GLfloat range[2] = { 0.25f, 1.0f }, reversed[2] = { 1.0f, 0.0f };
	GLint value;

	(void)state;
	glColorMask(GL_TRUE, GL_FALSE, 7, GL_FALSE); /* any non-zero is TRUE */
	check_bools(GL_COLOR_WRITEMASK, 4, mask);
	glDepthMask(GL_FALSE);
	check_bools(GL_DEPTH_WRITEMASK, 1, (const bool[]){ false });
	glDepthFunc(GL_GEQUAL);
	check_int(GL_DEPTH_FUNC, GL_GEQUAL);
	glDepthFunc(GL_KEEP);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_DEPTH_FUNC, GL_GEQUAL);
	/* section 2.12.1: clamped to [0, 1], and near may exceed far */
	glDepthRangef(0.25f, 3.0f);
	check_normalized(GL_DEPTH_RANGE, 2, range);
	glDepthRangef(2.0f, -1.0f);
	check_normalized(GL_DEPTH_RANGE, 2, reversed);

	glStencilFunc(GL_EQUAL, 5, 0xf0);
	check_int(GL_STENCIL_FUNC, GL_EQUAL);
	check_int(GL_STENCIL_BACK_FUNC, GL_EQUAL);
	check_int(GL_STENCIL_REF, 5);
	check_int(GL_STENCIL_BACK_REF, 5);
	check_int(GL_STENCIL_VALUE_MASK, 0xf0);
	check_int(GL_STENCIL_BACK_VALUE_MASK, 0xf0);
	glStencilFuncSeparate(GL_BACK, GL_NEVER, 9, 0x0f);
	check_int(GL_STENCIL_FUNC, GL_EQUAL);
	check_int(GL_STENCIL_BACK_FUNC, GL_NEVER);
	check_int(GL_STENCIL_REF, 5);
	check_int(GL_STENCIL_BACK_REF, 9);
	check_int(GL_STENCIL_BACK_VALUE_MASK, 0x0f);
	glStencilFuncSeparate(GL_FRONT_AND_BACK + 1, GL_NEVER, 0, 0);
	assert_gl_error(GL_INVALID_ENUM);
	glStencilFunc(GL_INCR, 0, 0);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_STENCIL_FUNC, GL_EQUAL);

	glStencilMask(0x3c);
	check_int(GL_STENCIL_WRITEMASK, 0x3c);
	check_int(GL_STENCIL_BACK_WRITEMASK, 0x3c);
	glStencilMaskSeparate(GL_FRONT, 0x81);
	check_int(GL_STENCIL_WRITEMASK, 0x81);
	check_int(GL_STENCIL_BACK_WRITEMASK, 0x3c);
	glStencilMaskSeparate(GL_LESS, 1);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_STENCIL_WRITEMASK, 0x81);

	glStencilOp(GL_ZERO, GL_INCR_WRAP, GL_INVERT);
	check_int(GL_STENCIL_FAIL, GL_ZERO);
	check_int(GL_STENCIL_PASS_DEPTH_FAIL, GL_INCR_WRAP);
	check_int(GL_STENCIL_PASS_DEPTH_PASS, GL_INVERT);
	check_int(GL_STENCIL_BACK_FAIL, GL_ZERO);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_INCR_WRAP);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_INVERT);
	glStencilOpSeparate(GL_BACK, GL_REPLACE, GL_DECR, GL_DECR_WRAP);
	check_int(GL_STENCIL_FAIL, GL_ZERO);
	check_int(GL_STENCIL_BACK_FAIL, GL_REPLACE);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_DECR);
	check_int(GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_DECR_WRAP);
	glStencilOp(GL_KEEP, GL_KEEP, GL_NEVER);
	assert_gl_error(GL_INVALID_ENUM);
	glStencilOpSeparate(GL_FRONT, GL_INCR, GL_INCR, GL_ALWAYS);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_STENCIL_PASS_DEPTH_PASS, GL_INVERT);
	/* the value and write masks are 32-bit, all of it kept */
	glStencilFunc(GL_LESS, -3, 0x80000001u);
	glGetIntegerv(GL_STENCIL_VALUE_MASK, &value);
	assert_int_equal((GLuint)value, 0x80000001u);
	check_int(GL_STENCIL_REF, -3);
	unbind(b);
}

static void test_clear_values(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	const GLfloat color[4] = { 0.5f, -1.0f, 1.0f, 0.1f };
	const GLfloat outside[4] = { 1.5f, -7.0f, 0.0f, 0.75f };
	const GLfloat depth = 0.5f, clamped = 1.0f, low = 0.0f;

	(void)state;
	glClearColor(0.5f, -1.0f, 1.0f, 0.1f);
	check_normalized(GL_COLOR_CLEAR_VALUE, 4, color);
	/* stored as given (a clear clamps it to a normalized buffer's range) */
	glClearColor(1.5f, -7.0f, 0.0f, 0.75f);
	check_normalized(GL_COLOR_CLEAR_VALUE, 4, outside);
	glClearDepthf(0.5f);
	check_normalized(GL_DEPTH_CLEAR_VALUE, 1, &depth);
	glClearDepthf(4.0f);
	check_normalized(GL_DEPTH_CLEAR_VALUE, 1, &clamped);
	glClearDepthf(-4.0f);
	check_normalized(GL_DEPTH_CLEAR_VALUE, 1, &low);
	glClearStencil(0x1ff);
	check_int(GL_STENCIL_CLEAR_VALUE, 0x1ff);
	unbind(b);
}

static void test_viewport_scissor(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	const GLint vp[4] = { -3, 4, 100, 50 }, sc[4] = { 7, -2, 0, 9 };
	GLint dims[2], big[4];

	(void)state;
	glViewport(-3, 4, 100, 50);
	check_ints(GL_VIEWPORT, 4, vp);
	glViewport(0, 0, -1, 5);
	assert_gl_error(GL_INVALID_VALUE);
	glViewport(0, 0, 5, -1);
	assert_gl_error(GL_INVALID_VALUE);
	check_ints(GL_VIEWPORT, 4, vp);
	/* section 2.12.1: width and height clamp to MAX_VIEWPORT_DIMS */
	glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
	glViewport(1, 2, INT_MAX, INT_MAX);
	glGetIntegerv(GL_VIEWPORT, big);
	assert_int_equal(big[0], 1);
	assert_int_equal(big[1], 2);
	assert_int_equal(big[2], dims[0]);
	assert_int_equal(big[3], dims[1]);

	glScissor(7, -2, 0, 9);
	check_ints(GL_SCISSOR_BOX, 4, sc);
	glScissor(0, 0, -5, 1);
	assert_gl_error(GL_INVALID_VALUE);
	check_ints(GL_SCISSOR_BOX, 4, sc);
	unbind(b);
}

static void test_rasterization(void **state)
{
	struct bound b = bind_new(3, 8, 8);

	(void)state;
	{
		/* EXT_polygon_offset_clamp: glPolygonOffset is the clamp of 0 */
		void (*clamp)(GLfloat, GLfloat, GLfloat) = (void (*)(
		    GLfloat, GLfloat, GLfloat))eglGetProcAddress("glPolygonOffsetClampEXT");

		assert_non_null(clamp);
		clamp(1.5f, 2.0f, -0.125f);
		check_float(GL_POLYGON_OFFSET_FACTOR, 1.5f);
		check_float(GL_POLYGON_OFFSET_UNITS, 2.0f);
		check_float(GL_POLYGON_OFFSET_CLAMP_EXT, -0.125f);
	}
	{
		/* EXT_shader_framebuffer_fetch_non_coherent's barrier: served, no error */
		void (*barrier)(void) =
		    (void (*)(void))eglGetProcAddress("glFramebufferFetchBarrierEXT");

		assert_non_null(barrier);
		barrier();
		assert_gl_error(GL_NO_ERROR);
	}
	glPolygonOffset(2.5f, -1.25f);
	check_float(GL_POLYGON_OFFSET_FACTOR, 2.5f);
	check_float(GL_POLYGON_OFFSET_UNITS, -1.25f);
	check_float(GL_POLYGON_OFFSET_CLAMP_EXT, 0.0f);
	glLineWidth(3.4f);
	check_float(GL_LINE_WIDTH, 3.4f);
	/* kept as given past the range; the rasterizer clamps */
	glLineWidth(100.0f);
	check_float(GL_LINE_WIDTH, 100.0f);
	glLineWidth(0.0f);
	assert_gl_error(GL_INVALID_VALUE);
	glLineWidth(-1.0f);
	assert_gl_error(GL_INVALID_VALUE);
	glLineWidth(NAN);
	assert_gl_error(GL_INVALID_VALUE);
	check_float(GL_LINE_WIDTH, 100.0f);
	glSampleCoverage(0.25f, GL_TRUE);
	check_float(GL_SAMPLE_COVERAGE_VALUE, 0.25f);
	check_bools(GL_SAMPLE_COVERAGE_INVERT, 1, (const bool[]){ true });
	glSampleCoverage(7.0f, GL_FALSE);
	check_float(GL_SAMPLE_COVERAGE_VALUE, 1.0f);
	check_bools(GL_SAMPLE_COVERAGE_INVERT, 1, (const bool[]){ false });
	glCullFace(GL_FRONT_AND_BACK);
	check_int(GL_CULL_FACE_MODE, GL_FRONT_AND_BACK);
	glCullFace(GL_CW);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_CULL_FACE_MODE, GL_FRONT_AND_BACK);
	glFrontFace(GL_CW);
	check_int(GL_FRONT_FACE, GL_CW);
	glFrontFace(GL_FRONT);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_FRONT_FACE, GL_CW);
	unbind(b);
}

static void test_hints_pixel_store_units(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	static const GLenum store[] = {
		GL_PACK_ROW_LENGTH,    GL_PACK_SKIP_ROWS,      GL_PACK_SKIP_PIXELS,
		GL_UNPACK_ROW_LENGTH,  GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_ROWS,
		GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_IMAGES,
	};
	GLint units;

	(void)state;
	glHint(GL_GENERATE_MIPMAP_HINT, GL_NICEST);
	check_int(GL_GENERATE_MIPMAP_HINT, GL_NICEST);
	glHint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_FASTEST);
	check_int(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_FASTEST);
	glHint(GL_GENERATE_MIPMAP_HINT, GL_FRONT);
	assert_gl_error(GL_INVALID_ENUM);
	glHint(GL_LINE_WIDTH, GL_NICEST);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_GENERATE_MIPMAP_HINT, GL_NICEST);

	for (GLint a = 1; a <= 8; a *= 2) {
		glPixelStorei(GL_PACK_ALIGNMENT, a);
		glPixelStorei(GL_UNPACK_ALIGNMENT, a);
		check_int(GL_PACK_ALIGNMENT, a);
		check_int(GL_UNPACK_ALIGNMENT, a);
	}
	glPixelStorei(GL_UNPACK_ALIGNMENT, 3);
	assert_gl_error(GL_INVALID_VALUE);
	glPixelStorei(GL_PACK_ALIGNMENT, 0);
	assert_gl_error(GL_INVALID_VALUE);
	check_int(GL_PACK_ALIGNMENT, 8);
	check_int(GL_UNPACK_ALIGNMENT, 8);
	for (unsigned k = 0; k < sizeof(store) / sizeof(store[0]); k++) {
		glPixelStorei(store[k], (GLint)(10 + k));
		glPixelStorei(store[k], -1);
		assert_gl_error(GL_INVALID_VALUE);
	}
	for (unsigned k = 0; k < sizeof(store) / sizeof(store[0]); k++)
		check_int(store[k], (GLint)(10 + k));
	glPixelStorei(GL_TEXTURE_2D, 1);
	assert_gl_error(GL_INVALID_ENUM);

	glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
	glActiveTexture(GL_TEXTURE0 + (GLenum)units - 1);
	check_int(GL_ACTIVE_TEXTURE, GL_TEXTURE0 + units - 1);
	glActiveTexture(GL_TEXTURE0 + (GLenum)units);
	assert_gl_error(GL_INVALID_ENUM);
	glActiveTexture(GL_TEXTURE0 - 1);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_ACTIVE_TEXTURE, GL_TEXTURE0 + units - 1);
	glActiveTexture(GL_TEXTURE3);
	check_int(GL_ACTIVE_TEXTURE, GL_TEXTURE3);
	unbind(b);
}

/* The current values have no query of this module's (glGetVertexAttrib): the errors. */
static void test_vertex_attrib_errors(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	const GLfloat f[4] = { 1, 2, 3, 4 };
	const GLint i[4] = { 1, 2, 3, 4 };
	GLint max;

	(void)state;
	glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &max);
	glVertexAttrib1f((GLuint)max - 1, 1.0f);
	glVertexAttrib2f(0, 1.0f, 2.0f);
	glVertexAttrib3f(1, 1.0f, 2.0f, 3.0f);
	glVertexAttrib4f(2, 1.0f, 2.0f, 3.0f, 4.0f);
	glVertexAttrib1fv(3, f);
	glVertexAttrib2fv(3, f);
	glVertexAttrib3fv(3, f);
	glVertexAttrib4fv(3, f);
	glVertexAttribI4i(4, -1, 2, -3, 4);
	glVertexAttribI4iv(4, i);
	glVertexAttribI4ui(5, 1, 2, 3, 4);
	glVertexAttribI4uiv(5, (const GLuint *)i);
	assert_gl_error(GL_NO_ERROR);
	glVertexAttrib1f((GLuint)max, 1.0f);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttrib4fv((GLuint)max, f);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribI4i((GLuint)max, 0, 0, 0, 0);
	assert_gl_error(GL_INVALID_VALUE);
	glVertexAttribI4uiv(~0u, (const GLuint *)i);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

/* ---- conversions ------------------------------------------------------------------------- */

static void test_conversions(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	GLint i[4];
	GLint64 i64[4];
	GLboolean bo[4];
	GLfloat f;

	(void)state;
	/* floats round to the nearest integer, halves away from zero */
	glLineWidth(2.5f);
	glGetIntegerv(GL_LINE_WIDTH, i);
	assert_int_equal(i[0], 3);
	glLineWidth(2.49f);
	glGetIntegerv(GL_LINE_WIDTH, i);
	assert_int_equal(i[0], 2);
	glPolygonOffset(-2.5f, 0.4f);
	glGetIntegerv(GL_POLYGON_OFFSET_FACTOR, i);
	glGetIntegerv(GL_POLYGON_OFFSET_UNITS, i + 1);
	assert_int_equal(i[0], -3);
	assert_int_equal(i[1], 0);
	/* and a float that is not zero is TRUE, however small */
	glGetBooleanv(GL_POLYGON_OFFSET_UNITS, bo);
	assert_int_equal(bo[0], GL_TRUE);
	/* past GLint: the nearest representable value */
	glPolygonOffset(1e20f, -1e20f);
	glGetIntegerv(GL_POLYGON_OFFSET_FACTOR, i);
	glGetIntegerv(GL_POLYGON_OFFSET_UNITS, i + 1);
	assert_int_equal(i[0], INT_MAX);
	assert_int_equal(i[1], INT_MIN);
	glGetInteger64v(GL_POLYGON_OFFSET_FACTOR, i64);
	/* 1e20 is past INT64_MAX too */
	assert_true(i64[0] == INT64_MAX);
	glPolygonOffset(1e30f, 0);
	glGetInteger64v(GL_POLYGON_OFFSET_FACTOR, i64);
	assert_true(i64[0] == INT64_MAX);

	/* colours: 1.0 the largest integer, -1.0 its negation, 0.5 about half */
	glClearColor(1.0f, -1.0f, 0.5f, 0.0f);
	glGetIntegerv(GL_COLOR_CLEAR_VALUE, i);
	assert_int_equal(i[0], INT_MAX);
	assert_int_equal(i[1], -INT_MAX);
	assert_int_equal(i[2], 1073741824);
	assert_int_equal(i[3], 0);
	glGetInteger64v(GL_COLOR_CLEAR_VALUE, i64);
	assert_true(i64[0] == INT64_MAX);
	assert_true(i64[1] == -INT64_MAX);
	assert_true(i64[2] == 4611686018427387904ll);
	glGetBooleanv(GL_COLOR_CLEAR_VALUE, bo);
	assert_int_equal(bo[0], GL_TRUE);
	assert_int_equal(bo[3], GL_FALSE);

	/* enums are integers to every query */
	glGetFloatv(GL_DEPTH_FUNC, &f);
	assert_float_equal(f, (GLfloat)GL_LESS, 0.0f);
	glGetBooleanv(GL_DEPTH_FUNC, bo);
	assert_int_equal(bo[0], GL_TRUE);

	/* int64 limits clamp for glGetIntegerv */
	glGetInteger64v(GL_MAX_ELEMENT_INDEX, i64);
	glGetIntegerv(GL_MAX_ELEMENT_INDEX, i);
	assert_true(i64[0] >= (1 << 24) - 1);
	assert_int_equal(i[0], i64[0] > INT_MAX ? INT_MAX : (GLint)i64[0]);
	glGetInteger64v(GL_MAX_SERVER_WAIT_TIMEOUT, i64);
	glGetIntegerv(GL_MAX_SERVER_WAIT_TIMEOUT, i);
	assert_true(i64[0] >= 0);
	assert_int_equal(i[0], i64[0] > INT_MAX ? INT_MAX : (GLint)i64[0]);
	assert_gl_error(GL_NO_ERROR);

	/* a NULL pointer is not written, and no crash */
	glGetIntegerv(GL_VIEWPORT, NULL);
	glGetFloatv(GL_VIEWPORT, NULL);
	glGetBooleanv(GL_VIEWPORT, NULL);
	glGetInteger64v(GL_VIEWPORT, NULL);
	assert_gl_error(GL_NO_ERROR);
	unbind(b);
}

static void test_bad_queries(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	GLint i = 77;
	GLint64 i64 = 77;
	GLfloat f = 77.0f;
	GLboolean bo = 77;

	(void)state;
	glGetIntegerv(0x1234, &i);
	assert_gl_error(GL_INVALID_ENUM);
	glGetInteger64v(GL_TEXTURE_2D, &i64);
	assert_gl_error(GL_INVALID_ENUM);
	glGetFloatv(GL_NONE, &f);
	assert_gl_error(GL_INVALID_ENUM);
	glGetBooleanv(GL_RGBA, &bo);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(i, 77);
	assert_true(i64 == 77);
	assert_float_equal(f, 77.0f, 0.0f);
	assert_int_equal(bo, 77);
	/* a pname without an indexed form, and one without a plain form */
	glGetIntegeri_v(GL_VIEWPORT, 0, &i);
	assert_gl_error(GL_INVALID_ENUM);
	glGetInteger64i_v(GL_DEPTH_FUNC, 0, &i64);
	assert_gl_error(GL_INVALID_ENUM);
	assert_int_equal(i, 77);
	/* only the first error stays (section 2.5) */
	glGetIntegerv(0x1234, &i);
	glLineWidth(-1.0f);
	assert_gl_error(GL_INVALID_ENUM);
	assert_gl_error(GL_NO_ERROR);
	unbind(b);
}

/* ---- limits ------------------------------------------------------------------------------ */

static GLint64 get64(GLenum pname)
{
	GLint64 v = -1;

	glGetInteger64v(pname, &v);
	assert_gl_error(GL_NO_ERROR);
	return v;
}

static void test_limits(void **state)
{
	/* the ES 3.0.6 minimums (tables 6.28-6.35) */
	static const struct {
		GLenum pname;
		GLint64 min;
	} mins[] = {
		{ GL_MAX_ELEMENT_INDEX, (1 << 24) - 1 },
		{ GL_SUBPIXEL_BITS, 4 },
		{ GL_MAX_3D_TEXTURE_SIZE, 256 },
		{ GL_MAX_TEXTURE_SIZE, 2048 },
		{ GL_MAX_ARRAY_TEXTURE_LAYERS, 256 },
		{ GL_MAX_TEXTURE_LOD_BIAS, 2 },
		{ GL_MAX_CUBE_MAP_TEXTURE_SIZE, 2048 },
		{ GL_MAX_RENDERBUFFER_SIZE, 2048 },
		{ GL_MAX_DRAW_BUFFERS, 4 },
		{ GL_MAX_COLOR_ATTACHMENTS, 4 },
		{ GL_MAX_SERVER_WAIT_TIMEOUT, 0 },
		{ GL_MAX_VERTEX_ATTRIBS, 16 },
		{ GL_MAX_VERTEX_UNIFORM_COMPONENTS, 1024 },
		{ GL_MAX_VERTEX_UNIFORM_VECTORS, 256 },
		{ GL_MAX_VERTEX_UNIFORM_BLOCKS, 12 },
		{ GL_MAX_VERTEX_OUTPUT_COMPONENTS, 64 },
		{ GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, 16 },
		{ GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, 896 },
		{ GL_MAX_FRAGMENT_UNIFORM_VECTORS, 224 },
		{ GL_MAX_FRAGMENT_UNIFORM_BLOCKS, 12 },
		{ GL_MAX_FRAGMENT_INPUT_COMPONENTS, 60 },
		{ GL_MAX_TEXTURE_IMAGE_UNITS, 16 },
		{ GL_MAX_PROGRAM_TEXEL_OFFSET, 7 },
		{ GL_MAX_UNIFORM_BUFFER_BINDINGS, 24 },
		{ GL_MAX_UNIFORM_BLOCK_SIZE, 16384 },
		{ GL_MAX_COMBINED_UNIFORM_BLOCKS, 24 },
		{ GL_MAX_VARYING_COMPONENTS, 60 },
		{ GL_MAX_VARYING_VECTORS, 15 },
		{ GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 32 },
		{ GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, 64 },
		{ GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, 4 },
		{ GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, 4 },
		{ GL_MAX_SAMPLES, 4 },
	};
	struct bound b = bind_new(3, 8, 8);
	GLfloat range[2];
	GLint dims[2], align;

	(void)state;
	for (unsigned k = 0; k < sizeof(mins) / sizeof(mins[0]); k++)
		assert_true(get64(mins[k].pname) >= mins[k].min);
	assert_true(get64(GL_MIN_PROGRAM_TEXEL_OFFSET) <= -8);
	/* table 6.33: the combined uniform components hold every block and the default one */
	assert_true(get64(GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS) >=
		    get64(GL_MAX_VERTEX_UNIFORM_BLOCKS) * get64(GL_MAX_UNIFORM_BLOCK_SIZE) / 4 +
			get64(GL_MAX_VERTEX_UNIFORM_COMPONENTS));
	assert_true(get64(GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS) >=
		    get64(GL_MAX_FRAGMENT_UNIFORM_BLOCKS) * get64(GL_MAX_UNIFORM_BLOCK_SIZE) / 4 +
			get64(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS));
	/* the vector counts are the components' quarters */
	assert_true(get64(GL_MAX_VERTEX_UNIFORM_VECTORS) * 4 ==
		    get64(GL_MAX_VERTEX_UNIFORM_COMPONENTS));
	assert_true(get64(GL_MAX_FRAGMENT_UNIFORM_VECTORS) * 4 ==
		    get64(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS));
	assert_true(get64(GL_MAX_VARYING_VECTORS) * 4 == get64(GL_MAX_VARYING_COMPONENTS));
	/* a maximum of at most 256, a power of two */
	glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
	assert_true(align >= 1 && align <= 256 && (align & (align - 1)) == 0);
	/* the viewport can be as large as the largest surface (16384x16384 pbuffers) */
	glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
	assert_true(dims[0] >= 16384 && dims[1] >= 16384);
	glGetFloatv(GL_ALIASED_POINT_SIZE_RANGE, range);
	assert_true(range[0] <= 1.0f && range[1] >= 1.0f);
	glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
	assert_true(range[0] <= 1.0f && range[1] >= 1.0f);
	assert_gl_error(GL_NO_ERROR);
	unbind(b);
}

/* ---- ES 2.0 requests ---------------------------------------------------------------------- */

/*
 * An ES 2.0 request gets an ES 3.0 context (EGL 1.5 section 3.7.1.1: any
 * version backward compatible with the one asked for; docs/gles.md): ES
 * 3.0's limits, state, blending and functions are all there.
 */
static void test_es2_request(void **state)
{
	static const GLenum es3_pnames[] = {
		GL_MAX_3D_TEXTURE_SIZE,
		GL_MAX_ARRAY_TEXTURE_LAYERS,
		GL_MAX_DRAW_BUFFERS,
		GL_MAX_COLOR_ATTACHMENTS,
		GL_MAX_SAMPLES,
		GL_MAX_ELEMENT_INDEX,
		GL_MAX_UNIFORM_BLOCK_SIZE,
		GL_MAX_VARYING_COMPONENTS,
		GL_MAX_TEXTURE_LOD_BIAS,
		GL_MIN_PROGRAM_TEXEL_OFFSET,
	};
	struct bound b = bind_new(2, 12, 10);
	GLint value = 77;
	GLint64 v64[4] = { 77, 77, 77, 77 };
	GLuint ids[2] = { 0, 0 };

	(void)state;
	for (unsigned k = 0; k < sizeof(es3_pnames) / sizeof(es3_pnames[0]); k++) {
		value = 77;
		glGetIntegerv(es3_pnames[k], &value);
		assert_gl_error(GL_NO_ERROR);
		assert_int_not_equal(value, 77);
	}
	glEnable(GL_RASTERIZER_DISCARD);
	check_enabled(GL_RASTERIZER_DISCARD, true);
	glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
	check_enabled(GL_PRIMITIVE_RESTART_FIXED_INDEX, true);
	glPixelStorei(GL_UNPACK_ROW_LENGTH, 4);
	check_int(GL_UNPACK_ROW_LENGTH, 4);
	glHint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_NICEST);
	check_int(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_NICEST);
	/* ES 3.0's blending: MIN/MAX, SRC_ALPHA_SATURATE as a destination factor too */
	glBlendEquation(GL_MIN);
	check_int(GL_BLEND_EQUATION_RGB, GL_MIN);
	glBlendFunc(GL_ONE, GL_SRC_ALPHA_SATURATE);
	check_int(GL_BLEND_DST_RGB, GL_SRC_ALPHA_SATURATE);
	/* ES 3.0's functions */
	glGetInteger64v(GL_VIEWPORT, v64);
	assert_true(v64[0] == 0 && v64[1] == 0 && v64[2] == 12 && v64[3] == 10);
	glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, 0, &value);
	assert_int_equal(value, 0);
	glVertexAttribI4i(0, 1, 2, 3, 4);
	glGenQueries(1, &ids[0]);
	glGenTransformFeedbacks(1, &ids[1]);
	assert_gl_error(GL_NO_ERROR);
	assert_true(ids[0] && ids[1]);
	glDeleteQueries(1, &ids[0]);
	glDeleteTransformFeedbacks(1, &ids[1]);
	assert_gl_error(GL_NO_ERROR);
	unbind(b);
}

/* Each context its own state, shared objects or not. */
static void test_per_context(void **state)
{
	EGLContext a = context(3, EGL_NO_CONTEXT), c = context(3, a);
	EGLSurface surf = pbuffer(8, 8);
	const GLfloat red[4] = { 1, 0, 0, 1 }, zero4[4] = { 0, 0, 0, 0 };

	(void)state;
	assert_true(eglMakeCurrent(dpy, surf, surf, a));
	glClearColor(1, 0, 0, 1);
	glEnable(GL_BLEND);
	assert_true(eglMakeCurrent(dpy, surf, surf, c));
	check_normalized(GL_COLOR_CLEAR_VALUE, 4, zero4);
	check_enabled(GL_BLEND, false);
	assert_true(eglMakeCurrent(dpy, surf, surf, a));
	check_normalized(GL_COLOR_CLEAR_VALUE, 4, red);
	check_enabled(GL_BLEND, true);
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, a));
	assert_true(eglDestroyContext(dpy, c));
	assert_true(eglDestroySurface(dpy, surf));
}

/* ---- queries ----------------------------------------------------------------------------- */

static void test_queries(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	GLuint ids[3] = { 0 }, value = 77, other;
	GLint current = -1;

	(void)state;
	glGenQueries(3, ids);
	assert_gl_error(GL_NO_ERROR);
	assert_true(ids[0] && ids[1] && ids[2] && ids[0] != ids[1] && ids[1] != ids[2]);
	/* a name is an object once glBeginQuery made it */
	assert_int_equal(glIsQuery(ids[0]), GL_FALSE);
	glGenQueries(-1, ids);
	assert_gl_error(GL_INVALID_VALUE);

	glBeginQuery(GL_ANY_SAMPLES_PASSED, ids[0]);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glIsQuery(ids[0]), GL_TRUE);
	glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
	assert_int_equal(current, (GLint)ids[0]);
	glGetQueryiv(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, GL_CURRENT_QUERY, &current);
	assert_int_equal(current, 0);
	/* one samples-passed query at a time, of either target */
	glBeginQuery(GL_ANY_SAMPLES_PASSED, ids[1]);
	assert_gl_error(GL_INVALID_OPERATION);
	glBeginQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, ids[1]);
	assert_gl_error(GL_INVALID_OPERATION);
	/* an active query has no result to read */
	glGetQueryObjectuiv(ids[0], GL_QUERY_RESULT, &value);
	assert_gl_error(GL_INVALID_OPERATION);
	/* the same query on two targets */
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, ids[0]);
	assert_gl_error(GL_INVALID_OPERATION);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, ids[1]);
	assert_gl_error(GL_NO_ERROR);
	glEndQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE);
	assert_gl_error(GL_INVALID_OPERATION);
	glEndQuery(GL_ANY_SAMPLES_PASSED);
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	assert_gl_error(GL_NO_ERROR);
	glEndQuery(GL_ANY_SAMPLES_PASSED);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
	assert_int_equal(current, 0);

	/* no draw ran between begin and end: nothing passed, nothing was written */
	glGetQueryObjectuiv(ids[0], GL_QUERY_RESULT, &value);
	assert_int_equal(value, 0);
	glGetQueryObjectuiv(ids[0], GL_QUERY_RESULT_AVAILABLE, &value);
	assert_int_equal(value, GL_TRUE);
	value = 77;
	glGetQueryObjectuiv(ids[1], GL_QUERY_RESULT_AVAILABLE, &value);
	assert_int_equal(value, GL_TRUE);
	glGetQueryObjectuiv(ids[1], GL_QUERY_RESULT, &value);
	assert_int_equal(value, 0);
	assert_gl_error(GL_NO_ERROR);

	/* a query keeps its target */
	glBeginQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, ids[0]);
	assert_gl_error(GL_INVALID_OPERATION);
	/* the errors of each function */
	glBeginQuery(0x88BF /* GL_TIME_ELAPSED */, ids[2]);
	assert_gl_error(GL_INVALID_ENUM);
	glBeginQuery(GL_ANY_SAMPLES_PASSED, 0);
	assert_gl_error(GL_INVALID_OPERATION);
	glBeginQuery(GL_ANY_SAMPLES_PASSED, 0x7777);
	assert_gl_error(GL_INVALID_OPERATION);
	glEndQuery(0x8914 /* GL_SAMPLES_PASSED */);
	assert_gl_error(GL_INVALID_ENUM);
	glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_QUERY_RESULT, &current);
	assert_gl_error(GL_INVALID_ENUM);
	glGetQueryiv(GL_TEXTURE_2D, GL_CURRENT_QUERY, &current);
	assert_gl_error(GL_INVALID_ENUM);
	glGetQueryObjectuiv(ids[0], GL_CURRENT_QUERY, &value);
	assert_gl_error(GL_INVALID_ENUM);
	glGetQueryObjectuiv(ids[2], GL_QUERY_RESULT, &value); /* a name, no object */
	assert_gl_error(GL_INVALID_OPERATION);
	glGetQueryObjectuiv(0, GL_QUERY_RESULT, &value);
	assert_gl_error(GL_INVALID_OPERATION);

	/* deleting an active query ends it; unused names and 0 are ignored */
	glBeginQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, ids[2]);
	other = 0x7777;
	glDeleteQueries(1, &other);
	glDeleteQueries(3, ids);
	assert_gl_error(GL_NO_ERROR);
	glGetQueryiv(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, GL_CURRENT_QUERY, &current);
	assert_int_equal(current, 0);
	assert_int_equal(glIsQuery(ids[0]), GL_FALSE);
	assert_int_equal(glIsQuery(ids[2]), GL_FALSE);
	glBeginQuery(GL_ANY_SAMPLES_PASSED, ids[0]);
	assert_gl_error(GL_INVALID_OPERATION);
	glDeleteQueries(-1, ids);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

static void test_transform_feedback_objects(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	GLuint ids[2] = { 0 }, bogus = 0x7777;

	(void)state;
	glGenTransformFeedbacks(2, ids);
	assert_gl_error(GL_NO_ERROR);
	assert_true(ids[0] && ids[1] && ids[0] != ids[1]);
	/* an object once bound */
	assert_int_equal(glIsTransformFeedback(ids[0]), GL_FALSE);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glIsTransformFeedback(ids[0]), GL_TRUE);
	check_int(GL_TRANSFORM_FEEDBACK_BINDING, (GLint)ids[0]);
	check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ false });
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, bogus);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindTransformFeedback(GL_ARRAY_BUFFER, ids[1]);
	assert_gl_error(GL_INVALID_ENUM);
	check_int(GL_TRANSFORM_FEEDBACK_BINDING, (GLint)ids[0]);
	glGenTransformFeedbacks(-1, ids);
	assert_gl_error(GL_INVALID_VALUE);
	/* deleting the bound object binds the default one */
	glDeleteTransformFeedbacks(1, &ids[0]);
	assert_gl_error(GL_NO_ERROR);
	check_int(GL_TRANSFORM_FEEDBACK_BINDING, 0);
	assert_int_equal(glIsTransformFeedback(ids[0]), GL_FALSE);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	check_int(GL_TRANSFORM_FEEDBACK_BINDING, 0);
	assert_int_equal(glIsTransformFeedback(0), GL_FALSE);
	glDeleteTransformFeedbacks(2, (const GLuint[]){ ids[1], bogus });
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glIsTransformFeedback(ids[1]), GL_FALSE);
	glDeleteTransformFeedbacks(-2, ids);
	assert_gl_error(GL_INVALID_VALUE);
	unbind(b);
}

/* A linked ES 3.00 program capturing two varyings in mode, current. */
static GLuint capturing_program(GLenum mode)
{
	static const char *vs =
	    "#version 300 es\n"
	    "out vec4 a;\n"
	    "out float b;\n"
	    "void main() { a = vec4(1.0); b = 2.0; gl_Position = vec4(0.0); }\n";
	static const char *fs = "#version 300 es\n"
				"precision mediump float;\n"
				"in vec4 a;\n"
				"in float b;\n"
				"out vec4 c;\n"
				"void main() { c = a * b; }\n";
	static const char *varyings[] = { "a", "b" };
	GLuint prog = glCreateProgram(), v = glCreateShader(GL_VERTEX_SHADER),
	       f = glCreateShader(GL_FRAGMENT_SHADER);
	GLint linked = 0;

	glShaderSource(v, 1, &vs, NULL);
	glShaderSource(f, 1, &fs, NULL);
	glCompileShader(v);
	glCompileShader(f);
	glAttachShader(prog, v);
	glAttachShader(prog, f);
	glTransformFeedbackVaryings(prog, 2, varyings, mode);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	assert_int_equal(linked, GL_TRUE);
	glUseProgram(prog);
	assert_gl_error(GL_NO_ERROR);
	return prog;
}

static void test_transform_feedback_begin_end(void **state)
{
	struct bound b = bind_new(3, 8, 8);
	GLuint buf[2], id;

	(void)state;
	/* nothing to capture: no program */
	glBeginTransformFeedback(GL_POINTS);
	assert_gl_error(GL_INVALID_OPERATION);
	capturing_program(GL_SEPARATE_ATTRIBS);
	glGenBuffers(2, buf);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf[0]);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64, NULL, GL_STATIC_DRAW);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf[1]);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 64, NULL, GL_STATIC_DRAW);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[0]);
	assert_gl_error(GL_NO_ERROR);
	/* two separate varyings need binding points 0 and 1 */
	glBeginTransformFeedback(GL_TRIANGLES);
	assert_gl_error(GL_INVALID_OPERATION);
	check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ false });
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buf[1]);
	glBeginTransformFeedback(GL_TRIANGLE_STRIP);
	assert_gl_error(GL_INVALID_ENUM);
	glPauseTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);
	glResumeTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);
	glEndTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);

	glBeginTransformFeedback(GL_TRIANGLES);
	assert_gl_error(GL_NO_ERROR);
	check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ true });
	check_bools(GL_TRANSFORM_FEEDBACK_PAUSED, 1, (const bool[]){ false });
	glBeginTransformFeedback(GL_TRIANGLES);
	assert_gl_error(GL_INVALID_OPERATION);
	glResumeTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);
	/* active and not paused: no other object may be bound, the active one not deleted */
	glGenTransformFeedbacks(1, &id);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, id);
	assert_gl_error(GL_INVALID_OPERATION);
	glPauseTransformFeedback();
	assert_gl_error(GL_NO_ERROR);
	check_bools(GL_TRANSFORM_FEEDBACK_PAUSED, 1, (const bool[]){ true });
	glPauseTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);
	/* paused: another object may be bound, and it is not active */
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, id);
	assert_gl_error(GL_NO_ERROR);
	check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ false });
	glEndTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	glResumeTransformFeedback();
	assert_gl_error(GL_NO_ERROR);
	check_bools(GL_TRANSFORM_FEEDBACK_PAUSED, 1, (const bool[]){ false });
	glEndTransformFeedback();
	assert_gl_error(GL_NO_ERROR);
	check_bools(GL_TRANSFORM_FEEDBACK_ACTIVE, 1, (const bool[]){ false });
	glEndTransformFeedback();
	assert_gl_error(GL_INVALID_OPERATION);

	/* the buffer bindings are the object's (table 6.24): the new one has none */
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, id);
	check_ints_indexed(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, 0);
	glBeginTransformFeedback(GL_POINTS);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf[1]);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buf[0]);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	check_ints_indexed(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, (GLint)buf[0]);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, id);
	check_ints_indexed(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, (GLint)buf[1]);

	/* an active object (paused) cannot be deleted */
	glBeginTransformFeedback(GL_POINTS);
	glPauseTransformFeedback();
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	assert_gl_error(GL_NO_ERROR);
	glDeleteTransformFeedbacks(1, &id);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_int_equal(glIsTransformFeedback(id), GL_TRUE);
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, id);
	glEndTransformFeedback();
	glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
	glDeleteTransformFeedbacks(1, &id);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(glIsTransformFeedback(id), GL_FALSE);

	/* interleaved: binding point 0 alone; a query of the primitives counts no draw */
	capturing_program(GL_INTERLEAVED_ATTRIBS);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, 0);
	glGenQueries(1, &id);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, id);
	glBeginTransformFeedback(GL_LINES);
	assert_gl_error(GL_NO_ERROR);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	{
		GLuint written = 77;

		glGetQueryObjectuiv(id, GL_QUERY_RESULT, &written);
		assert_int_equal(written, 0);
	}
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
	glBeginTransformFeedback(GL_LINES);
	assert_gl_error(GL_INVALID_OPERATION);
	unbind(b);
}

/* ---- the suite --------------------------------------------------------------------------- */

static struct egl_stack fixture;

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 2) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_initial_values),
		cmocka_unit_test(test_viewport_first_surface),
		cmocka_unit_test(test_enables),
		cmocka_unit_test(test_blend),
		cmocka_unit_test(test_masks_depth_stencil),
		cmocka_unit_test(test_clear_values),
		cmocka_unit_test(test_viewport_scissor),
		cmocka_unit_test(test_rasterization),
		cmocka_unit_test(test_hints_pixel_store_units),
		cmocka_unit_test(test_vertex_attrib_errors),
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_bad_queries),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_es2_request),
		cmocka_unit_test(test_per_context),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_transform_feedback_objects),
		cmocka_unit_test(test_transform_feedback_begin_end),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

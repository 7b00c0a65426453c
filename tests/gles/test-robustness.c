/*
 * test-robustness: GL_EXT_robustness and GL_KHR_robustness through glvnd
 * over the real stack --
 * the context's robustness state as EGL made it, glReadnPixelsEXT's and
 * glGetnUniform*EXT's bounds, and glGetGraphicsResetStatusEXT after a
 * context's shader faults on the GPU: the faulting context is told it was
 * guilty (when it asked to be told), a context that did nothing wrong is
 * told nothing and keeps drawing correctly, and one made without reset
 * notification is never told; then KHR_robustness's names of the same
 * functions, glGetnUniformuivKHR, and its lost context: after the reset
 * is reported every command records GL_CONTEXT_LOST and does nothing,
 * but the three that report completion, glGetError and the status.
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

#include "egl-stack.h"

#define GUILTY_CONTEXT_RESET	    0x8253
#define CONTEXT_ROBUST_ACCESS	    0x90F3
#define RESET_NOTIFICATION_STRATEGY 0x8256
#define LOSE_CONTEXT_ON_RESET	    0x8252
#define NO_RESET_NOTIFICATION	    0x8261
#define CONTEXT_LOST		    0x0507
#define SIZE			    16

typedef GLenum (*get_status_fn)(void);
typedef void (*readn_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, GLsizei, void *);
typedef void (*getn_fn)(GLuint, GLint, GLsizei, GLfloat *);
typedef void (*getnu_fn)(GLuint, GLint, GLsizei, GLuint *);

static struct test_stack_options options;
static struct egl_stack fixture;
static EGLDisplay dpy;
static EGLConfig config;
static get_status_fn get_status;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

static EGLContext context(bool lose_on_reset)
{
	const EGLint attribs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
		lose_on_reset ? EGL_LOSE_CONTEXT_ON_RESET : EGL_NO_RESET_NOTIFICATION, EGL_NONE
	};
	EGLContext c = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);

	assert_ptr_not_equal(c, EGL_NO_CONTEXT);
	return c;
}

static void make_current(EGLContext c)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c));
}

static void release(EGLContext c)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(dpy, c));
}

/* A SIZE x SIZE RGBA8 framebuffer, bound. */
static GLuint target(void)
{
	GLuint fb, rb;

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, SIZE, SIZE);
	return fb;
}

static GLuint shader(GLenum stage, const char *source)
{
	GLuint s = glCreateShader(stage);
	GLint ok = 0;

	glShaderSource(s, 1, &source, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[2048] = "";

		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fail_msg("shader refused: %s", log);
	}
	return s;
}

static const char vs[] = "#version 300 es\n"
			 "layout(location = 0) in vec2 pos;\n"
			 "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
/* a uniform block read at index i: far past the block's buffer, an address nothing maps */
static const char fs_block[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "layout(std140) uniform B { vec4 v[4]; };\n"
			       "uniform int i;\n"
			       "uniform vec4 tint;\n"
			       "out vec4 o;\n"
			       "void main() { o = v[i] + tint; }\n";

static GLuint program(void)
{
	GLuint p = glCreateProgram(), v = shader(GL_VERTEX_SHADER, vs),
	       f = shader(GL_FRAGMENT_SHADER, fs_block);
	GLint ok = 0;

	glAttachShader(p, v);
	glAttachShader(p, f);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	assert_true(ok);
	glDeleteShader(v);
	glDeleteShader(f);
	glUseProgram(p);
	return p;
}

/*
 * Draws a full-target quad of v[index] + tint, the block's buffer holding
 * four vec4s of 0.25 * k; waits for it.
 */
static void draw(GLuint p, GLint index, const float tint[4])
{
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	float data[16];
	GLuint buf;

	for (unsigned k = 0; k < 16; k++)
		data[k] = 0.25f * (float)(k / 4);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_UNIFORM_BUFFER, buf);
	glBufferData(GL_UNIFORM_BUFFER, sizeof(data), data, GL_STATIC_DRAW);
	glBindBufferBase(GL_UNIFORM_BUFFER, 0, buf);
	glUniformBlockBinding(p, glGetUniformBlockIndex(p, "B"), 0);
	glUniform1i(glGetUniformLocation(p, "i"), index);
	glUniform4fv(glGetUniformLocation(p, "tint"), 1, tint);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glFinish();
	glDeleteBuffers(1, &buf);
}

/* Whether every pixel of the bound target is rgba (within 1). */
static bool all_pixels(const uint8_t rgba[4])
{
	uint8_t px[SIZE * SIZE * 4];

	memset(px, 0xcd, sizeof(px));
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	for (unsigned i = 0; i < SIZE * SIZE * 4; i++)
		if (abs((int)px[i] - (int)rgba[i % 4]) > 1)
			return false;
	return true;
}

/* The robustness state EGL made each context with, and the extension's presence. */
static void test_state(void **state)
{
	EGLContext lose = context(true), none = context(false);
	EGLContext robust = eglCreateContext(dpy, config, EGL_NO_CONTEXT,
					     (const EGLint[]){ EGL_CONTEXT_MAJOR_VERSION, 3,
							       EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
							       EGL_TRUE, EGL_NONE });
	GLint v = -1;
	GLboolean b = GL_FALSE;

	(void)state;
	assert_ptr_not_equal(robust, EGL_NO_CONTEXT);
	make_current(lose);
	assert_non_null(strstr((const char *)glGetString(GL_EXTENSIONS), "GL_EXT_robustness"));
	glGetIntegerv(RESET_NOTIFICATION_STRATEGY, &v);
	assert_int_equal(v, LOSE_CONTEXT_ON_RESET);
	glGetBooleanv(CONTEXT_ROBUST_ACCESS, &b);
	assert_int_equal(b, GL_FALSE);
	assert_int_equal(get_status(), GL_NO_ERROR);
	make_current(none);
	glGetIntegerv(RESET_NOTIFICATION_STRATEGY, &v);
	assert_int_equal(v, NO_RESET_NOTIFICATION);
	make_current(robust);
	glGetBooleanv(CONTEXT_ROBUST_ACCESS, &b);
	assert_int_equal(b, GL_TRUE);
	glGetIntegerv(RESET_NOTIFICATION_STRATEGY, &v);
	assert_int_equal(v, NO_RESET_NOTIFICATION); /* EGL's default */
	assert_gl_error(GL_NO_ERROR);
	release(robust);
	eglDestroyContext(dpy, lose);
	eglDestroyContext(dpy, none);
}

/* glReadnPixelsEXT and glGetnUniformfvEXT: what they write must fit bufSize. */
static void test_bounded_reads(void **state)
{
	readn_fn readn = (readn_fn)eglGetProcAddress("glReadnPixelsEXT");
	getn_fn getn = (getn_fn)eglGetProcAddress("glGetnUniformfvEXT");
	EGLContext c = context(true);
	const float tint[4] = { 0.5f, 0.25f, 0.75f, 1.0f };
	uint8_t px[SIZE * SIZE * 4 + 1];
	GLfloat got[5];
	GLuint p;

	(void)state;
	assert_non_null(readn);
	assert_non_null(getn);
	make_current(c);
	target();
	p = program();
	draw(p, 0, tint);
	memset(px, 0xcd, sizeof(px));
	readn(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, SIZE * SIZE * 4 - 1, px);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_int_equal(px[0], 0xcd);
	readn(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, -1, px);
	assert_gl_error(GL_INVALID_VALUE);
	readn(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, SIZE * SIZE * 4, px);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(px[0], 128);
	assert_int_equal(px[1], 64);
	assert_int_equal(px[2], 191);
	assert_int_equal(px[SIZE * SIZE * 4], 0xcd); /* nothing past bufSize */
	memset(got, 0, sizeof(got));
	getn(p, glGetUniformLocation(p, "tint"), 15, got);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_true(got[0] == 0.0f);
	getn(p, glGetUniformLocation(p, "tint"), 16, got);
	assert_gl_error(GL_NO_ERROR);
	assert_true(got[0] == 0.5f && got[3] == 1.0f && got[4] == 0.0f);
	getn(p, glGetUniformLocation(p, "tint"), -4, got);
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteProgram(p);
	release(c);
}

/*
 * A context whose shader faults is guilty; one that did nothing wrong is
 * not told anything and its draws are right before and after; one made
 * without notification faults the same and is never told.
 */
static void test_reset_status(void **state)
{
	EGLContext guilty = context(true), innocent = context(true), untold = context(false);
	const float red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 0 };
	const uint8_t want_red[4] = { 255, 64, 64, 255 }, want_blue[4] = { 64, 64, 255, 64 };
	GLuint pg, pi, pu;

	(void)state;
	make_current(innocent);
	target();
	pi = program();
	draw(pi, 1, red);
	assert_true(all_pixels(want_red));
	make_current(guilty);
	target();
	pg = program();
	assert_int_equal(get_status(), GL_NO_ERROR);
	draw(pg, 1 << 24, red); /* 256 MiB past the block: the GPU faults */
	assert_int_equal(get_status(), GUILTY_CONTEXT_RESET);
	assert_int_equal(get_status(), GUILTY_CONTEXT_RESET); /* the context stays lost */
	make_current(untold);
	target();
	pu = program();
	draw(pu, 1 << 24, red);
	assert_int_equal(get_status(), GL_NO_ERROR);
	/* the innocent one: nothing to report, and it draws on */
	make_current(innocent);
	assert_int_equal(get_status(), GL_NO_ERROR);
	assert_true(all_pixels(want_red));
	draw(pi, 1, blue);
	assert_true(all_pixels(want_blue));
	assert_int_equal(get_status(), GL_NO_ERROR);
	assert_gl_error(GL_NO_ERROR);
	glDeleteProgram(pi);
	release(innocent);
	make_current(guilty);
	glDeleteProgram(pg);
	release(guilty);
	make_current(untold);
	glDeleteProgram(pu);
	release(untold);
}

/* KHR_robustness: its names of EXT_robustness's functions, and glGetnUniformuivKHR. */
static void test_khr_functions(void **state)
{
	readn_fn readn = (readn_fn)eglGetProcAddress("glReadnPixelsKHR");
	getn_fn getn = (getn_fn)eglGetProcAddress("glGetnUniformfvKHR");
	getnu_fn getnu = (getnu_fn)eglGetProcAddress("glGetnUniformuivKHR");
	get_status_fn status = (get_status_fn)eglGetProcAddress("glGetGraphicsResetStatusKHR");
	EGLContext c = context(true);
	const float tint[4] = { 0.5f, 0.25f, 0.75f, 1.0f };
	uint8_t px[SIZE * SIZE * 4];
	GLfloat got[4];
	GLuint u[2] = { 7, 7 }, p;

	(void)state;
	assert_non_null(readn);
	assert_non_null(getn);
	assert_non_null(getnu);
	assert_non_null(status);
	make_current(c);
	assert_non_null(strstr((const char *)glGetString(GL_EXTENSIONS), "GL_KHR_robustness"));
	assert_int_equal(status(), GL_NO_ERROR);
	target();
	p = program();
	draw(p, 0, tint);
	readn(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, sizeof(px) - 1, px);
	assert_gl_error(GL_INVALID_OPERATION);
	readn(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, sizeof(px), px);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(px[0], 128);
	getn(p, glGetUniformLocation(p, "tint"), sizeof(got), got);
	assert_gl_error(GL_NO_ERROR);
	assert_true(got[1] == 0.25f);
	/* the int uniform i (0 here) as an unsigned one: room for one value, or not */
	getnu(p, glGetUniformLocation(p, "i"), sizeof(GLuint) - 1, u);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_int_equal(u[0], 7);
	getnu(p, glGetUniformLocation(p, "i"), sizeof(GLuint), u);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(u[0], 0);
	assert_int_equal(u[1], 7);
	getnu(p, glGetUniformLocation(p, "i"), -1, u);
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteProgram(p);
	release(c);
}

/*
 * KHR_robustness section 2.6.3 (ES): once a LOSE_CONTEXT_ON_RESET context
 * knows it was reset, its commands record CONTEXT_LOST and have no effect
 * (nothing written through their pointers); glGetError and the status
 * work; glGetSynciv's SYNC_STATUS is SIGNALED, glClientWaitSync returns
 * CONDITION_SATISFIED and QUERY_RESULT_AVAILABLE is TRUE, each with the
 * error.  A context of another share group goes on as before.
 */
static void test_context_lost(void **state)
{
	get_status_fn status = (get_status_fn)eglGetProcAddress("glGetGraphicsResetStatusKHR");
	EGLContext lost = context(true), other = context(true);
	const float red[4] = { 1, 0, 0, 1 };
	GLint viewport[4] = { -1, -1, -1, -1 }, v = -1;
	GLuint p, q, avail = 0;
	GLsync sync;

	(void)state;
	make_current(lost);
	target();
	p = program();
	glGenQueries(1, &q);
	sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	assert_non_null(sync);
	draw(p, 1 << 24, red); /* the GPU faults */
	while (glGetError() != GL_NO_ERROR)
		;
	/* not lost before it is told */
	glViewport(0, 0, 4, 4);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(status(), GUILTY_CONTEXT_RESET);
	assert_gl_error(GL_NO_ERROR);
	glClear(GL_COLOR_BUFFER_BIT);
	assert_gl_error(CONTEXT_LOST);
	glGetIntegerv(GL_VIEWPORT, viewport);
	assert_gl_error(CONTEXT_LOST);
	assert_int_equal(viewport[0], -1); /* untouched */
	assert_null(glGetString(GL_VENDOR));
	assert_gl_error(CONTEXT_LOST);
	assert_null(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
	assert_gl_error(CONTEXT_LOST);
	glGetSynciv(sync, GL_SYNC_STATUS, 1, NULL, &v);
	assert_int_equal(v, GL_SIGNALED);
	assert_gl_error(CONTEXT_LOST);
	assert_int_equal(glClientWaitSync(sync, 0, 1000000000ull), GL_CONDITION_SATISFIED);
	assert_gl_error(CONTEXT_LOST);
	glGetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &avail);
	assert_int_equal(avail, GL_TRUE);
	assert_gl_error(CONTEXT_LOST);
	/* only the first error waits for glGetError */
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_BLEND);
	assert_gl_error(CONTEXT_LOST);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(status(), GUILTY_CONTEXT_RESET);
	/* another share group's context is not lost */
	make_current(other);
	target();
	glClear(GL_COLOR_BUFFER_BIT);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(status(), GL_NO_ERROR);
	release(other);
	release(lost);
}

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 1) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	get_status = (get_status_fn)eglGetProcAddress("glGetGraphicsResetStatusEXT");
	return get_status ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),	     cmocka_unit_test(test_bounded_reads),
		cmocka_unit_test(test_reset_status), cmocka_unit_test(test_khr_functions),
		cmocka_unit_test(test_context_lost),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

/*
 * test-contexts: a thousand GL contexts in one process, as applications
 * make them (Mesa's drivers allow contexts until memory runs out): each
 * draws into a framebuffer of its own -- a clear of its own colour and a
 * triangle of another -- and reads it back; then, with all of them alive,
 * each is made current again and its pixels are still its own.  Each
 * context that draws takes a scheduler queue, a VM and its slots'
 * memory, which start small (gles/submit.c).
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
#include <GLES3/gl3.h>

#include "egl-stack.h"

#define CONTEXTS 1000
#define SIZE	 8

static struct test_stack_options options;
static struct egl_stack fixture;

static const char vs[] = "#version 300 es\n"
			 "layout(location = 0) in vec2 pos;\n"
			 "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs[] = "#version 300 es\n"
			 "precision mediump float;\n"
			 "uniform vec4 colour;\n"
			 "out vec4 o;\n"
			 "void main() { o = colour; }\n";

/* Context i's clear colour and triangle colour, as bytes: distinct for every i. */
static void colours(unsigned i, uint8_t clear[4], uint8_t tri[4])
{
	clear[0] = (uint8_t)(i & 0xff);
	clear[1] = (uint8_t)(i >> 8);
	clear[2] = 17;
	clear[3] = 255;
	tri[0] = (uint8_t)(255 - (i & 0xff));
	tri[1] = 200;
	tri[2] = (uint8_t)(i >> 8);
	tri[3] = 255;
}

static GLuint program(void)
{
	GLuint p = glCreateProgram();
	const char *src[2] = { vs, fs };
	GLint ok = 0;

	for (int k = 0; k < 2; k++) {
		GLuint s = glCreateShader(k ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);

		glShaderSource(s, 1, &src[k], NULL);
		glCompileShader(s);
		glAttachShader(p, s);
		glDeleteShader(s);
	}
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	assert_true(ok);
	return p;
}

/* The corner (the clear) and the centre (the triangle) of the bound framebuffer. */
static void check_pixels(unsigned i)
{
	uint8_t clear[4], tri[4], px[SIZE * SIZE * 4];

	colours(i, clear, tri);
	memset(px, 0, sizeof(px));
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	GLenum err = glGetError();

	if (err != GL_NO_ERROR)
		fail_msg("context %u: error 0x%x", i, err);
	if (memcmp(px, clear, 4) || memcmp(px + ((SIZE / 2) * SIZE + SIZE / 2) * 4, tri, 4))
		fail_msg("context %u: corner %02x%02x%02x%02x, centre %02x%02x%02x%02x", i, px[0],
			 px[1], px[2], px[3], px[((SIZE / 2) * SIZE + SIZE / 2) * 4],
			 px[((SIZE / 2) * SIZE + SIZE / 2) * 4 + 1],
			 px[((SIZE / 2) * SIZE + SIZE / 2) * 4 + 2],
			 px[((SIZE / 2) * SIZE + SIZE / 2) * 4 + 3]);
}

static void test_thousand_contexts(void **state)
{
	static EGLContext ctx[CONTEXTS];
	static const float tri[] = { -0.5f, -0.5f, 0.5f, -0.5f, 0.0f, 0.6f };
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLDisplay dpy = fixture.dpy;

	(void)state;
	for (unsigned i = 0; i < CONTEXTS; i++) {
		uint8_t clear[4], colour[4];
		GLuint fb, rb, p;

		ctx[i] = eglCreateContext(dpy, fixture.config, EGL_NO_CONTEXT, attribs);
		if (ctx[i] == EGL_NO_CONTEXT)
			fail_msg("context %u: 0x%x", i, eglGetError());
		assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx[i]));
		glGenFramebuffers(1, &fb);
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		glGenRenderbuffers(1, &rb);
		glBindRenderbuffer(GL_RENDERBUFFER, rb);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
					  rb);
		glViewport(0, 0, SIZE, SIZE);
		colours(i, clear, colour);
		glClearColor(clear[0] / 255.0f, clear[1] / 255.0f, clear[2] / 255.0f, 1.0f);
		glClear(GL_COLOR_BUFFER_BIT);
		p = program();
		glUseProgram(p);
		glUniform4f(glGetUniformLocation(p, "colour"), colour[0] / 255.0f,
			    colour[1] / 255.0f, colour[2] / 255.0f, 1.0f);
		glEnableVertexAttribArray(0);
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
		glDrawArrays(GL_TRIANGLES, 0, 3);
		check_pixels(i);
	}
	/* all of them alive: each one's framebuffer is still its own */
	for (unsigned i = 0; i < CONTEXTS; i++) {
		assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx[i]));
		check_pixels(i);
	}
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	for (unsigned i = 0; i < CONTEXTS; i++)
		assert_true(eglDestroyContext(dpy, ctx[i]));
}

static int setup(void **state)
{
	(void)state;
	return egl_stack_setup(&fixture, &options, 1) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thousand_contexts),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

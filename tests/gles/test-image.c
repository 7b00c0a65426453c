/*
 * test-image: EGLImages of GL textures (gles/egl_image.c) through glvnd
 * over the real stack, as an application reaches them: EGL_KHR_image_base
 * and EGL_KHR_gl_texture_2D_image's eglCreateImageKHR/eglDestroyImageKHR
 * and GL_OES_EGL_image's glEGLImageTargetTexture2DOES and
 * glEGLImageTargetRenderbufferStorageOES from eglGetProcAddress, and EGL
 * 1.5's eglCreateImage.  A texture level shared with a texture of another
 * context is drawn from (texelFetch, so the pixels compare exactly) and
 * rendered to, each side seeing the other's texels; a level past 0 of an
 * immutable texture; a renderbuffer target; the storage outliving the
 * image and its source; a target respecified, no longer shared; a
 * renderbuffer as the source (EGL_KHR_gl_renderbuffer_image); every error
 * the specs give for the targets implemented.
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
/* after gl3.h, which defines what it needs */
#include <GLES2/gl2ext.h> /* OES_EGL_image */

#include "egl-stack.h"

#define N 16 /* the source texture's level 0 is N x N */

#define assert_gl_error(expected)  assert_int_equal(glGetError(), (expected))
#define assert_egl_error(expected) assert_int_equal(eglGetError(), (expected))

static struct test_stack_options options;
static EGLDisplay dpy;
static EGLConfig config;

static PFNEGLCREATEIMAGEKHRPROC create_image;
static PFNEGLDESTROYIMAGEKHRPROC destroy_image;
static PFNGLEGLIMAGETARGETTEXTURE2DOESPROC target_texture;
static PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC target_renderbuffer;

/* Whether the space-separated list names ext. */
static bool lists(const char *list, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = list; p && (p = strstr(p, ext)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static EGLContext context(EGLContext share)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, share, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	return ctx;
}

static void make_current(EGLContext ctx)
{
	assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
}

/* A w x h pattern of RGBA8 texels, different for each seed. */
static void pattern(uint8_t *px, unsigned w, unsigned h, unsigned seed)
{
	for (unsigned i = 0; i < w * h; i++) {
		px[4 * i] = (uint8_t)(i * 7 + seed);
		px[4 * i + 1] = (uint8_t)(i * 13 + 3 * seed);
		px[4 * i + 2] = (uint8_t)(255 - i - seed);
		px[4 * i + 3] = (uint8_t)(seed * 29 + i);
	}
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	assert_true(ok);
	return s;
}

/* A program that copies texture unit 0's level 0 to the framebuffer, texel for pixel. */
static GLuint copy_program(void)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "void main() { gl_Position = vec4(pos, 0, 1); }\n";
	static const char fs[] = "#version 300 es\n"
				 "precision highp float;\n"
				 "uniform highp sampler2D s;\n"
				 "out vec4 o;\n"
				 "void main() { o = texelFetch(s, ivec2(gl_FragCoord.xy), 0); }\n";
	GLuint p = glCreateProgram();
	GLint ok = 0;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	assert_true(ok);
	return p;
}

/*
 * Draws texture tex (bound to unit 0's 2D target) into a new w x h RGBA8
 * renderbuffer and reads the pixels back into px.
 */
static void draw_texture(GLuint tex, unsigned w, unsigned h, uint8_t *px)
{
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint p = copy_program(), fbo, rb;

	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, (GLsizei)w, (GLsizei)h);
	glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(p);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, tex);
	glUniform1i(glGetUniformLocation(p, "s"), 0);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	memset(px, 0xcd, (size_t)w * h * 4);
	glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_gl_error(GL_NO_ERROR);
	glDisableVertexAttribArray(0);
	glUseProgram(0);
	glDeleteProgram(p);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
}

/* The pixels of level `level` of texture tex (2D), read through a framebuffer. */
static void read_texture(GLuint tex, GLint level, unsigned w, unsigned h, uint8_t *px)
{
	GLuint fbo;

	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, level);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	memset(px, 0xcd, (size_t)w * h * 4);
	glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_gl_error(GL_NO_ERROR);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
}

/* Clears level 0 of texture tex (2D) to the colour (r, g, b, a) / 255. */
static void clear_texture(GLuint tex, unsigned r, unsigned g, unsigned b, unsigned a)
{
	GLuint fbo;

	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glClearColor(r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	assert_gl_error(GL_NO_ERROR);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
}

static bool all(const uint8_t *px, unsigned n, unsigned r, unsigned g, unsigned b, unsigned a)
{
	for (unsigned i = 0; i < n; i++)
		if (px[4 * i] != r || px[4 * i + 1] != g || px[4 * i + 2] != b ||
		    px[4 * i + 3] != a)
			return false;
	return true;
}

/* An N x N RGBA8 texture of pattern(seed), one level, nearest filters (complete). */
static GLuint texture(unsigned seed)
{
	uint8_t px[N * N * 4];
	GLuint t;

	pattern(px, N, N, seed);
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, N, N, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	assert_gl_error(GL_NO_ERROR);
	return t;
}

static EGLImageKHR image_of(EGLContext ctx, GLuint tex, const EGLint *attribs)
{
	return create_image(dpy, ctx, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex,
			    attribs);
}

/* ---- the extensions and their entry points ------------------------------------------ */

static void test_extensions(void **state)
{
	EGLContext ctx = context(EGL_NO_CONTEXT);

	(void)state;
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_image_base"));
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_gl_texture_2D_image"));
	assert_true(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_gl_renderbuffer_image"));
	/* what is not implemented is not listed */
	assert_false(
	    lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_gl_texture_cubemap_image"));
	assert_false(lists(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_image_pixmap"));
	make_current(ctx);
	assert_true(lists((const char *)glGetString(GL_EXTENSIONS), "GL_OES_EGL_image"));
	assert_false(lists((const char *)glGetString(GL_EXTENSIONS), "GL_OES_EGL_image_external"));
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, ctx));
}

/* ---- sharing a level ---------------------------------------------------------------- */

/*
 * Level 0 of a texture of context a is the storage of a texture of
 * context b (another share group: EGLImages are the display's), and of a
 * renderbuffer of b: a draw in b samples a's texels, a's uploads show in
 * b's draws, and b's rendering into its texture or renderbuffer shows in
 * a's texture.
 */
static void test_share_level(void **state)
{
	EGLContext a = context(EGL_NO_CONTEXT), b = context(EGL_NO_CONTEXT);
	uint8_t want[N * N * 4], got[N * N * 4], sub[4 * 4 * 4];
	EGLImageKHR img;
	GLuint src, dst, rb, fbo;
	GLint v = 0;

	(void)state;
	make_current(a);
	src = texture(1);
	img = image_of(a, src, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_SUCCESS);
	glFinish();

	/* b draws from its own texture, whose level 0 is a's */
	make_current(b);
	glGenTextures(1, &dst);
	glBindTexture(GL_TEXTURE_2D, dst);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	draw_texture(dst, N, N, got);
	pattern(want, N, N, 1);
	assert_memory_equal(got, want, sizeof(want));
	glFinish();

	/* a uploads into part of the level: b's next draw samples it */
	make_current(a);
	pattern(sub, 4, 4, 9);
	glBindTexture(GL_TEXTURE_2D, src);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, sub);
	glFinish();
	assert_gl_error(GL_NO_ERROR);
	for (unsigned y = 0; y < 4; y++)
		memcpy(want + ((8 + y) * N + 4) * 4, sub + y * 4 * 4, 4 * 4);
	make_current(b);
	draw_texture(dst, N, N, got);
	assert_memory_equal(got, want, sizeof(want));

	/* b renders into its texture: a's reads see it */
	clear_texture(dst, 10, 20, 30, 40);
	make_current(a);
	read_texture(src, 0, N, N, got);
	assert_true(all(got, N * N, 10, 20, 30, 40));

	/* a renderbuffer of b on the same storage */
	make_current(b);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &v);
	assert_int_equal(v, N);
	glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &v);
	assert_int_equal(v, N);
	glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &v);
	assert_int_equal(v, GL_RGBA8);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, got);
	assert_true(all(got, N * N, 10, 20, 30, 40));
	glClearColor(200 / 255.0f, 100 / 255.0f, 50 / 255.0f, 25 / 255.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	assert_gl_error(GL_NO_ERROR);
	make_current(a);
	read_texture(src, 0, N, N, got);
	assert_true(all(got, N * N, 200, 100, 50, 25));
	make_current(b);
	draw_texture(dst, N, N, got);
	assert_true(all(got, N * N, 200, 100, 50, 25));

	/*
	 * The image and the source texture go; the storage lives on in the
	 * targets.  New storage for the renderbuffer ends its share.
	 */
	assert_true(destroy_image(dpy, img));
	assert_egl_error(EGL_SUCCESS);
	make_current(a);
	glDeleteTextures(1, &src);
	glFinish();
	make_current(b);
	draw_texture(dst, N, N, got);
	assert_true(all(got, N * N, 200, 100, 50, 25));
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	glClearColor(0, 0, 0, 0);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	draw_texture(dst, N, N, got);
	assert_true(all(got, N * N, 200, 100, 50, 25));
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &dst);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, a));
	assert_true(eglDestroyContext(dpy, b));
}

/*
 * A level past 0 (EGL_GL_TEXTURE_LEVEL) of an immutable texture, targeted
 * in a context of the same share group; EGL 1.5's eglCreateImage and
 * eglDestroyImage on the same objects.  A target respecified by
 * glTexImage2D is not the image's any more (GL_OES_EGL_image).
 */
static void test_level_and_respecify(void **state)
{
	EGLContext a = context(EGL_NO_CONTEXT), b = context(a);
	uint8_t want[(N / 2) * (N / 2) * 4], got[N * N * 4];
	EGLImage img;
	GLuint src, dst;

	(void)state;
	make_current(a);
	glGenTextures(1, &src);
	glBindTexture(GL_TEXTURE_2D, src);
	/* the whole chain: the texture unit reads a level alone from no partial one */
	glTexStorage2D(GL_TEXTURE_2D, 5, GL_RGBA8, N, N);
	pattern(want, N / 2, N / 2, 5);
	glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, N / 2, N / 2, GL_RGBA, GL_UNSIGNED_BYTE, want);
	assert_gl_error(GL_NO_ERROR);
	img = eglCreateImage(dpy, a, EGL_GL_TEXTURE_2D, (EGLClientBuffer)(uintptr_t)src,
			     (const EGLAttrib[]){ EGL_GL_TEXTURE_LEVEL, 1, EGL_IMAGE_PRESERVED,
						  EGL_TRUE, EGL_NONE });
	assert_ptr_not_equal(img, EGL_NO_IMAGE);
	assert_egl_error(EGL_SUCCESS);
	glFinish();

	make_current(b);
	glGenTextures(1, &dst);
	glBindTexture(GL_TEXTURE_2D, dst);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	draw_texture(dst, N / 2, N / 2, got);
	assert_memory_equal(got, want, sizeof(want));
	/* the level is the image's, and so is the target's level 0 now */
	assert_ptr_equal(
	    image_of(a, src, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE }),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	assert_ptr_equal(image_of(b, dst, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	/* another level is another resource */
	{
		EGLImageKHR other =
		    image_of(a, src, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 2, EGL_NONE });

		assert_ptr_not_equal(other, EGL_NO_IMAGE_KHR);
		assert_true(destroy_image(dpy, other));
	}

	/* respecified: b's texture has storage of its own, a's level keeps its texels */
	glBindTexture(GL_TEXTURE_2D, dst);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, N / 2, N / 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	clear_texture(dst, 1, 2, 3, 4);
	make_current(a);
	read_texture(src, 1, N / 2, N / 2, got);
	assert_memory_equal(got, want, sizeof(want));
	assert_true(eglDestroyImage(dpy, img));
	assert_egl_error(EGL_SUCCESS);
	assert_false(eglDestroyImage(dpy, img));
	assert_egl_error(EGL_BAD_PARAMETER);
	glDeleteTextures(1, &src);
	make_current(b);
	glDeleteTextures(1, &dst);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, b));
	assert_true(eglDestroyContext(dpy, a));
}

/* ---- renderbuffers (EGL_KHR_gl_renderbuffer_image) ---------------------------------- */

static EGLImageKHR image_of_renderbuffer(EGLContext ctx, GLuint rb, const EGLint *attribs)
{
	return create_image(dpy, ctx, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)rb,
			    attribs);
}

/* A framebuffer with renderbuffer rb as its colour attachment, bound. */
static GLuint renderbuffer_fbo(GLuint rb)
{
	GLuint fbo;

	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	return fbo;
}

/*
 * A renderbuffer of context a, rendered to, is the image's source: a
 * texture of context b (another share group) samples what a rendered, a
 * draws into the renderbuffer after b rendered into its texture and sees
 * b's pixels, and the storage outlives the renderbuffer's deletion and
 * the image.  A renderbuffer named in a context sharing a's objects is
 * one of a's; a depth/stencil renderbuffer's image (two images: Z32F and
 * S8) is a depth/stencil attachment in b.
 */
static void test_renderbuffer_source(void **state)
{
	EGLContext a = context(EGL_NO_CONTEXT), b = context(EGL_NO_CONTEXT), c = context(a);
	uint8_t got[N * N * 4];
	EGLImageKHR img, ds_img;
	GLuint rb, fbo, dst, ds, ds_dst, b_fbo, colour;

	(void)state;
	make_current(a);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, N, N);
	fbo = renderbuffer_fbo(rb);
	glClearColor(10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glFinish();
	/* made from the context sharing a's objects, not current */
	img = image_of_renderbuffer(c, rb, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_SUCCESS);
	/* the renderbuffer is a sibling now */
	assert_ptr_equal(image_of_renderbuffer(a, rb, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	/* the renderbuffer keeps its size and format, and stays complete */
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, got);
	assert_true(all(got, N * N, 10, 20, 30, 40));

	/* b samples the renderbuffer's pixels */
	make_current(b);
	glGenTextures(1, &dst);
	glBindTexture(GL_TEXTURE_2D, dst);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	draw_texture(dst, N, N, got);
	assert_true(all(got, N * N, 10, 20, 30, 40));
	/* b renders into its texture: a reads it from the renderbuffer */
	clear_texture(dst, 90, 80, 70, 60);
	make_current(a);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, got);
	assert_true(all(got, N * N, 90, 80, 70, 60));
	/* and a's rendering into the renderbuffer shows in b's draws */
	glEnable(GL_SCISSOR_TEST);
	glScissor(0, 0, N / 2, N);
	glClearColor(1 / 255.0f, 2 / 255.0f, 3 / 255.0f, 4 / 255.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	glFinish();
	make_current(b);
	draw_texture(dst, N, N, got);
	for (unsigned y = 0; y < N; y++)
		for (unsigned x = 0; x < N; x++) {
			const uint8_t *p = got + (y * N + x) * 4;

			if (x < N / 2)
				assert_true(p[0] == 1 && p[1] == 2 && p[2] == 3 && p[3] == 4);
			else
				assert_true(p[0] == 90 && p[1] == 80 && p[2] == 70 && p[3] == 60);
		}

	/* the renderbuffer and the image go: the texture keeps the storage */
	make_current(a);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
	glDeleteRenderbuffers(1, &rb);
	glFinish();
	assert_true(destroy_image(dpy, img));
	make_current(b);
	draw_texture(dst, N, N, got);
	assert_int_equal(got[0], 1);
	assert_int_equal(got[(N - 1) * 4], 90);

	/* depth and stencil: both images go with it */
	make_current(a);
	glGenRenderbuffers(1, &ds);
	glBindRenderbuffer(GL_RENDERBUFFER, ds);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, N, N);
	ds_img = image_of_renderbuffer(a, ds, NULL);
	assert_ptr_not_equal(ds_img, EGL_NO_IMAGE_KHR);
	glDeleteRenderbuffers(1, &ds);
	make_current(b);
	glGenRenderbuffers(1, &ds_dst);
	glBindRenderbuffer(GL_RENDERBUFFER, ds_dst);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)ds_img);
	assert_gl_error(GL_NO_ERROR);
	glGenRenderbuffers(1, &colour);
	glBindRenderbuffer(GL_RENDERBUFFER, colour);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, N, N);
	b_fbo = renderbuffer_fbo(colour);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
				  ds_dst);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glClearDepthf(0.5f);
	glClearStencil(7);
	glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glFinish();
	assert_gl_error(GL_NO_ERROR);
	/* a target is a sibling too */
	assert_ptr_equal(image_of_renderbuffer(b, ds_dst, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	assert_true(destroy_image(dpy, ds_img));
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &b_fbo);
	glDeleteRenderbuffers(1, &colour);
	glDeleteRenderbuffers(1, &ds_dst);
	glDeleteTextures(1, &dst);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, a));
	assert_true(eglDestroyContext(dpy, b));
	assert_true(eglDestroyContext(dpy, c));
}

/* EGL_KHR_gl_renderbuffer_image's errors. */
static void test_renderbuffer_errors(void **state)
{
	EGLContext ctx = context(EGL_NO_CONTEXT);
	GLuint rb, unbound, empty, ms;
	EGLImageKHR img;
	int dummy;

	(void)state;
	make_current(ctx);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	glGenRenderbuffers(1, &unbound);
	glGenRenderbuffers(1, &empty);
	glBindRenderbuffer(GL_RENDERBUFFER, empty);
	glGenRenderbuffers(1, &ms);
	glBindRenderbuffer(GL_RENDERBUFFER, ms);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 4, 4);
	assert_gl_error(GL_NO_ERROR);

	/* no context, none of dpy's */
	assert_ptr_equal(image_of_renderbuffer(EGL_NO_CONTEXT, rb, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_ptr_equal(image_of_renderbuffer((EGLContext)&dummy, rb, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_CONTEXT);
	/*
	 * Not a renderbuffer (0, no object, a name never bound), a
	 * multisampled one, one without storage: EGL_BAD_PARAMETER.
	 */
	const GLuint bad[] = { 0, 4242, unbound, ms, empty };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_ptr_equal(image_of_renderbuffer(ctx, bad[i], NULL), EGL_NO_IMAGE_KHR);
		assert_egl_error(EGL_BAD_PARAMETER);
	}
	/* an attribute of none of the targets; the texture level means nothing here */
	assert_ptr_equal(image_of_renderbuffer(ctx, rb, (const EGLint[]){ EGL_WIDTH, 4, EGL_NONE }),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	img =
	    image_of_renderbuffer(ctx, rb,
				  (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 3,
						    EGL_IMAGE_PRESERVED_KHR, EGL_TRUE, EGL_NONE });
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_SUCCESS);
	assert_ptr_equal(image_of_renderbuffer(ctx, rb, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	/* new storage ends the share: the renderbuffer can be a source again */
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
	assert_true(destroy_image(dpy, img));
	img = image_of_renderbuffer(ctx, rb, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_true(destroy_image(dpy, img));

	glDeleteRenderbuffers(1, &rb);
	glDeleteRenderbuffers(1, &unbound);
	glDeleteRenderbuffers(1, &empty);
	glDeleteRenderbuffers(1, &ms);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, ctx));
}

/* ---- errors --------------------------------------------------------------------------- */

/* EGL 1.5 section 3.9.1's and EGL_KHR_image_base's errors for the 2D texture target. */
static void test_create_errors(void **state)
{
	EGLContext ctx = context(EGL_NO_CONTEXT);
	EGLDisplay def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	uint8_t px[N * N * 4] = { 0 };
	GLuint tex, cube, unbound, mips, level1;
	EGLImageKHR img;
	EGLint dummy;

	(void)state;
	make_current(ctx);
	tex = texture(3);
	glGenTextures(1, &cube);
	glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
	glGenTextures(1, &unbound);
	/* levels 0 and 1 of sizes that make no mip chain: incomplete */
	glGenTextures(1, &mips);
	glBindTexture(GL_TEXTURE_2D, mips);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, N, N, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 3, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	/* only level 1 */
	glGenTextures(1, &level1);
	glBindTexture(GL_TEXTURE_2D, level1);
	glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, N, N, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_gl_error(GL_NO_ERROR);

	/* displays: none (the dispatch stub finds no vendor), and ours not initialized */
	assert_ptr_equal(create_image((EGLDisplay)&dummy, ctx, EGL_GL_TEXTURE_2D_KHR,
				      (EGLClientBuffer)(uintptr_t)tex, NULL),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_DISPLAY);
	assert_ptr_equal(
	    create_image(def, ctx, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex, NULL),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_NOT_INITIALIZED);
	assert_false(destroy_image((EGLDisplay)&dummy, (EGLImageKHR)&dummy));
	assert_egl_error(EGL_BAD_DISPLAY);

	/* targets not implemented */
	static const EGLenum others[] = { EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR,
					  EGL_GL_TEXTURE_3D_KHR, EGL_NATIVE_PIXMAP_KHR, 0x1234 };
	for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		assert_ptr_equal(
		    create_image(dpy, ctx, others[i], (EGLClientBuffer)(uintptr_t)tex, NULL),
		    EGL_NO_IMAGE_KHR);
		assert_egl_error(EGL_BAD_PARAMETER);
	}
	/* no context, or none of dpy's */
	assert_ptr_equal(image_of(EGL_NO_CONTEXT, tex, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_CONTEXT);
	assert_ptr_equal(image_of((EGLContext)&dummy, tex, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_CONTEXT);
	/* attributes: unknown ones, and EGL_IMAGE_PRESERVED takes a boolean */
	assert_ptr_equal(image_of(ctx, tex, (const EGLint[]){ EGL_WIDTH, 4, EGL_NONE }),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    image_of(ctx, tex, (const EGLint[]){ EGL_IMAGE_PRESERVED_KHR, 5, EGL_NONE }),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	/* buffer: the default texture, no texture, another target's, never bound */
	assert_ptr_equal(image_of(ctx, 0, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(image_of(ctx, 4242, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(image_of(ctx, cube, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(image_of(ctx, unbound, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	/*
	 * Levels: past 0 of an incomplete texture; 0 of an incomplete one
	 * with other levels given, or without level 0: EGL_BAD_PARAMETER.  A
	 * level the texture does not have: EGL_BAD_MATCH.
	 */
	assert_ptr_equal(
	    image_of(ctx, tex, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE }),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(image_of(ctx, mips, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(image_of(ctx, level1, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	glBindTexture(GL_TEXTURE_2D, mips);
	glGenerateMipmap(GL_TEXTURE_2D); /* complete now: levels 0 to 4 */
	assert_gl_error(GL_NO_ERROR);
	assert_ptr_equal(
	    image_of(ctx, mips, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 5, EGL_NONE }),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_MATCH);
	assert_ptr_equal(
	    image_of(ctx, mips, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, -1, EGL_NONE }),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_MATCH);
	img = image_of(ctx, mips, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 4, EGL_NONE });
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_SUCCESS);
	assert_true(destroy_image(dpy, img));
	/* level 0 of a complete one, EGL_IMAGE_PRESERVED false, from a context not current */
	make_current(EGL_NO_CONTEXT);
	img = image_of(ctx, tex, (const EGLint[]){ EGL_IMAGE_PRESERVED_KHR, EGL_FALSE, EGL_NONE });
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	/* a sibling already */
	assert_ptr_equal(image_of(ctx, tex, NULL), EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_ACCESS);
	/* an image of another display is none of dpy's */
	assert_true(eglInitialize(def, NULL, NULL));
	assert_false(destroy_image(def, img));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_true(eglTerminate(def));
	assert_true(destroy_image(dpy, img));
	assert_false(destroy_image(dpy, img));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(destroy_image(dpy, EGL_NO_IMAGE_KHR));
	assert_egl_error(EGL_BAD_PARAMETER);

	make_current(ctx);
	glDeleteTextures(1, &tex);
	glDeleteTextures(1, &cube);
	glDeleteTextures(1, &unbound);
	glDeleteTextures(1, &mips);
	glDeleteTextures(1, &level1);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, ctx));
}

/* GL_OES_EGL_image's errors. */
static void test_target_errors(void **state)
{
	EGLContext ctx = context(EGL_NO_CONTEXT);
	GLuint src, dst, immutable, rb;
	EGLImageKHR img, gone;
	int dummy;

	(void)state;
	make_current(ctx);
	src = texture(4);
	img = image_of(ctx, src, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	glBindTexture(GL_TEXTURE_2D, 0);
	gone = image_of(ctx, texture(6), NULL);
	assert_ptr_not_equal(gone, EGL_NO_IMAGE_KHR);
	assert_true(destroy_image(dpy, gone));

	glGenTextures(1, &dst);
	glBindTexture(GL_TEXTURE_2D, dst);
	/* the target: TEXTURE_2D only */
	target_texture(GL_TEXTURE_CUBE_MAP, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_ENUM);
	target_texture(GL_TEXTURE_3D, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_ENUM);
	/* no image, one destroyed */
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)&dummy);
	assert_gl_error(GL_INVALID_VALUE);
	target_texture(GL_TEXTURE_2D, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)gone);
	assert_gl_error(GL_INVALID_VALUE);
	/* an immutable texture cannot be respecified */
	glGenTextures(1, &immutable);
	glBindTexture(GL_TEXTURE_2D, immutable);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_OPERATION);
	/*
	 * Level 1 of a partial chain (3 of 5 levels): one layer's level is
	 * where its own chain puts it, so a texture can sample it alone, and
	 * a renderbuffer can render to it.
	 */
	{
		EGLImageKHR partial;
		GLuint t, r;

		glGenTextures(1, &t);
		glBindTexture(GL_TEXTURE_2D, t);
		glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, N, N);
		partial =
		    image_of(ctx, t, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE });
		assert_ptr_not_equal(partial, EGL_NO_IMAGE_KHR);
		glBindTexture(GL_TEXTURE_2D, dst);
		target_texture(GL_TEXTURE_2D, (GLeglImageOES)partial);
		assert_gl_error(GL_NO_ERROR);
		glGenRenderbuffers(1, &r);
		glBindRenderbuffer(GL_RENDERBUFFER, r);
		target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)partial);
		assert_gl_error(GL_NO_ERROR);
		glBindRenderbuffer(GL_RENDERBUFFER, 0);
		assert_true(destroy_image(dpy, partial));
		glDeleteRenderbuffers(1, &r);
		glDeleteTextures(1, &t);
	}

	/* renderbuffers: the target, the image, a bound renderbuffer */
	glGenRenderbuffers(1, &rb);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_OPERATION);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	target_renderbuffer(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_ENUM);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)&dummy);
	assert_gl_error(GL_INVALID_VALUE);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)gone);
	assert_gl_error(GL_INVALID_VALUE);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glBindTexture(GL_TEXTURE_2D, dst);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);

	assert_true(destroy_image(dpy, img));
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &src);
	glDeleteTextures(1, &dst);
	glDeleteTextures(1, &immutable);
	make_current(EGL_NO_CONTEXT);
	assert_true(eglDestroyContext(dpy, ctx));
}

/* ---- setup ---------------------------------------------------------------------------------- */

static struct egl_stack fixture;

static int setup(void **state)
{
	(void)state;
	if (egl_stack_setup(&fixture, &options, 1) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	create_image = (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
	destroy_image = (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
	target_texture =
	    (PFNGLEGLIMAGETARGETTEXTURE2DOESPROC)eglGetProcAddress("glEGLImageTargetTexture2DOES");
	target_renderbuffer = (PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC)eglGetProcAddress(
	    "glEGLImageTargetRenderbufferStorageOES");
	if (!create_image || !destroy_image || !target_texture || !target_renderbuffer) {
		fprintf(stderr, "an entry point is missing from eglGetProcAddress\n");
		egl_stack_teardown(&fixture);
		return -1;
	}
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
		cmocka_unit_test(test_extensions),
		cmocka_unit_test(test_share_level),
		cmocka_unit_test(test_level_and_respecify),
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_target_errors),
		cmocka_unit_test(test_renderbuffer_source),
		cmocka_unit_test(test_renderbuffer_errors),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

/*
 * test-dma-buf: EGLImages and dma-bufs (gles/egl_image.c) through glvnd
 * over the real stack: EGL_EXT_image_dma_buf_import of memfds filled from
 * the CPU in each DRM format we take, at an offset and with a pitch of
 * their own, sampled (texelFetch, so the pixels compare exactly) and
 * rendered to, each side seeing the other's writes;
 * EGL_EXT_image_dma_buf_import_modifiers' queries and linear modifier;
 * EGL_MESA_image_dma_buf_export of a rendered texture and of a
 * renderbuffer, read by another process from the fd alone and imported
 * into a second EGLDisplay (its own connection to the stack) that samples
 * and renders to it; and every error the extensions give.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
/* after gl3.h, which defines what it needs */
#include <GLES2/gl2ext.h> /* OES_EGL_image */

#include <drm_fourcc.h>

#include "egl-stack.h"

#define W 8 /* imported images are W x H */
#define H 4
#define N 16 /* exported textures are N x N */

#define assert_gl_error(expected)  assert_int_equal(glGetError(), (expected))
#define assert_egl_error(expected) assert_int_equal(eglGetError(), (expected))

static struct test_stack_options options;
static EGLDisplay dpy;
static EGLConfig config;

static PFNEGLCREATEIMAGEKHRPROC create_image;
static PFNEGLDESTROYIMAGEKHRPROC destroy_image;
static PFNGLEGLIMAGETARGETTEXTURE2DOESPROC target_texture;
static PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC target_renderbuffer;
static PFNEGLQUERYDMABUFFORMATSEXTPROC query_formats;
static PFNEGLQUERYDMABUFMODIFIERSEXTPROC query_modifiers;
static PFNEGLEXPORTDMABUFIMAGEQUERYMESAPROC export_query;
static PFNEGLEXPORTDMABUFIMAGEMESAPROC export_image;

static bool lists(const char *list, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = list; p && (p = strstr(p, ext)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static EGLContext context_of(EGLDisplay d, EGLConfig c)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLContext ctx = eglCreateContext(d, c, EGL_NO_CONTEXT, attribs);

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_true(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	return ctx;
}

static void release(EGLDisplay d, EGLContext ctx)
{
	assert_true(eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_true(eglDestroyContext(d, ctx));
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

/* Draws texture tex's level 0 texel for pixel into a new w x h RGBA8 renderbuffer; reads it. */
static void draw_texture(GLuint tex, unsigned w, unsigned h, uint8_t *px)
{
	static const char vs[] = "#version 300 es\n"
				 "layout(location = 0) in vec2 pos;\n"
				 "void main() { gl_Position = vec4(pos, 0, 1); }\n";
	static const char fs[] = "#version 300 es\n"
				 "precision highp float;\n"
				 "uniform highp sampler2D s;\n"
				 "out vec4 o;\n"
				 "void main() { o = texelFetch(s, ivec2(gl_FragCoord.xy), 0); }\n";
	static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint p = glCreateProgram(), fbo, rb;
	GLint ok = 0;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	assert_true(ok);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, (GLsizei)w, (GLsizei)h);
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

/* Clears level 0 of texture tex to (r, g, b, a) / 255 and waits for it. */
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

/* A 2D texture whose level 0 is the image's, nearest filters. */
static GLuint texture_of(EGLImageKHR img)
{
	GLuint t;

	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	target_texture(GL_TEXTURE_2D, (GLeglImageOES)img);
	assert_gl_error(GL_NO_ERROR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	return t;
}

/* ---- the formats, as bytes in memory and as the RGBA8 a draw of them gives ----------- */

struct format {
	uint32_t fourcc;
	unsigned bytes;
	bool alpha;
};

static const struct format formats[] = {
	{ DRM_FORMAT_ARGB8888, 4, true }, { DRM_FORMAT_XRGB8888, 4, false },
	{ DRM_FORMAT_ABGR8888, 4, true }, { DRM_FORMAT_XBGR8888, 4, false },
	{ DRM_FORMAT_RGB565, 2, false },
};

#define NUM_FORMATS (sizeof(formats) / sizeof(formats[0]))

/* The 8-bit value a draw writes of an n-bit unorm channel v: round(v * 255 / max). */
static uint8_t widen(unsigned v, unsigned bits)
{
	unsigned max = (1u << bits) - 1;

	return (uint8_t)((v * 255 * 2 + max) / (2 * max));
}

/*
 * Texel (x, y) of a test image, seed s: its bytes in format f (drm_fourcc.h's
 * little-endian words) and the RGBA8 a texelFetch of it draws.
 */
static void texel(const struct format *f, unsigned x, unsigned y, unsigned s, uint8_t *bytes,
		  uint8_t rgba[4])
{
	unsigned r = (x * 37 + y * 11 + s) & 0xff, g = (x * 5 + y * 71 + 3 * s) & 0xff;
	unsigned b = (255 - x * 13 - y * 3 - s) & 0xff, a = (x * 29 + y * 17 + 7 * s) & 0xff;
	uint32_t word;
	uint16_t half;

	switch (f->fourcc) {
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XRGB8888:
		word = (uint32_t)a << 24 | r << 16 | g << 8 | b;
		memcpy(bytes, &word, 4);
		break;
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XBGR8888:
		word = (uint32_t)a << 24 | b << 16 | g << 8 | r;
		memcpy(bytes, &word, 4);
		break;
	default: /* RGB565: red in bits 15..11 */
		r >>= 3, g >>= 2, b >>= 3;
		half = (uint16_t)(r << 11 | g << 5 | b);
		memcpy(bytes, &half, 2);
		rgba[0] = widen(r, 5), rgba[1] = widen(g, 6), rgba[2] = widen(b, 5), rgba[3] = 255;
		return;
	}
	rgba[0] = (uint8_t)r, rgba[1] = (uint8_t)g, rgba[2] = (uint8_t)b;
	rgba[3] = f->alpha ? (uint8_t)a : 255;
}

/*
 * A memfd (sealable, as memmgr takes it) holding a W x H image of f at
 * offset, rows pitch bytes apart, the bytes between and around them 0xee;
 * want: the RGBA8 pixels a draw of it gives.  Its size is no whole page:
 * memmgr grows it.
 */
static int memfd_image(const struct format *f, unsigned offset, unsigned pitch, unsigned seed,
		       uint8_t *want)
{
	size_t size = offset + (size_t)pitch * H + 40;
	uint8_t *buf = malloc(size);
	int fd = memfd_create("pixels", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	assert_non_null(buf);
	assert_true(fd >= 0);
	memset(buf, 0xee, size);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			texel(f, x, y, seed, buf + offset + y * pitch + x * f->bytes,
			      want + (y * W + x) * 4);
	assert_int_equal(write(fd, buf, size), (ssize_t)size);
	free(buf);
	return fd;
}

static EGLImageKHR import(int fd, uint32_t fourcc, unsigned w, unsigned h, EGLint offset,
			  EGLint pitch)
{
	const EGLint attribs[] = { EGL_WIDTH,
				   (EGLint)w,
				   EGL_HEIGHT,
				   (EGLint)h,
				   EGL_LINUX_DRM_FOURCC_EXT,
				   (EGLint)fourcc,
				   EGL_DMA_BUF_PLANE0_FD_EXT,
				   fd,
				   EGL_DMA_BUF_PLANE0_OFFSET_EXT,
				   offset,
				   EGL_DMA_BUF_PLANE0_PITCH_EXT,
				   pitch,
				   EGL_NONE };

	return create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs);
}

/* ---- the extensions and the queries ------------------------------------------------- */

static void test_queries(void **state)
{
	const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
	EGLint list[8], n = 0, dummy;
	EGLuint64KHR mods[2] = { 0 };
	EGLBoolean external[2] = { EGL_TRUE, EGL_TRUE };

	(void)state;
	assert_true(lists(exts, "EGL_EXT_image_dma_buf_import"));
	assert_true(lists(exts, "EGL_EXT_image_dma_buf_import_modifiers"));
	assert_true(lists(exts, "EGL_MESA_image_dma_buf_export"));
	/* the count, then the list, then part of it */
	assert_true(query_formats(dpy, 0, NULL, &n));
	assert_int_equal(n, NUM_FORMATS);
	assert_true(query_formats(dpy, 8, list, &n));
	assert_int_equal(n, NUM_FORMATS);
	for (unsigned i = 0; i < NUM_FORMATS; i++)
		assert_int_equal(list[i], (EGLint)formats[i].fourcc);
	assert_true(query_formats(dpy, 2, list, &n));
	assert_int_equal(n, 2);
	assert_false(query_formats(dpy, -1, list, &n));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(query_formats(dpy, 1, NULL, &n));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(query_formats((EGLDisplay)&dummy, 0, NULL, &n));
	assert_egl_error(EGL_BAD_DISPLAY);
	/* one modifier each: linear, not for external textures only */
	for (unsigned i = 0; i < NUM_FORMATS; i++) {
		n = 0;
		assert_true(query_modifiers(dpy, (EGLint)formats[i].fourcc, 0, NULL, NULL, &n));
		assert_int_equal(n, 1);
		assert_true(query_modifiers(dpy, (EGLint)formats[i].fourcc, 2, mods, external, &n));
		assert_int_equal(n, 1);
		assert_true(mods[0] == DRM_FORMAT_MOD_LINEAR);
		assert_int_equal(external[0], EGL_FALSE);
	}
	assert_false(query_modifiers(dpy, (EGLint)DRM_FORMAT_NV12, 2, mods, NULL, &n));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(query_modifiers(dpy, (EGLint)DRM_FORMAT_ARGB8888, -1, mods, NULL, &n));
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_false(query_modifiers(dpy, (EGLint)DRM_FORMAT_ARGB8888, 1, NULL, NULL, &n));
	assert_egl_error(EGL_BAD_PARAMETER);
}

/* ---- import --------------------------------------------------------------------------- */

/*
 * Each format from a memfd the CPU filled, at an offset, with rows apart
 * by more than the width: a draw samples the pixels.  Then, for ARGB8888,
 * what the CPU writes into the memfd shows in the next draw, and what the
 * GPU renders into the image shows in the memfd, in the format's byte
 * order, between the padding it leaves alone.
 */
static void test_import_cpu(void **state)
{
	EGLContext ctx = context_of(dpy, config);
	uint8_t want[W * H * 4], got[W * H * 4];

	(void)state;
	for (unsigned i = 0; i < NUM_FORMATS; i++) {
		const struct format *f = &formats[i];
		unsigned pitch = (W * f->bytes + 15) / 16 * 16 + 16, offset = 64;
		int fd = memfd_image(f, offset, pitch, i, want);
		EGLImageKHR img = import(fd, f->fourcc, W, H, (EGLint)offset, (EGLint)pitch);
		GLuint tex;

		assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
		assert_egl_error(EGL_SUCCESS);
		/* the application keeps its fd; the image has its own */
		tex = texture_of(img);
		draw_texture(tex, W, H, got);
		assert_memory_equal(got, want, sizeof(want));
		glDeleteTextures(1, &tex);
		assert_true(destroy_image(dpy, img));
		close(fd);
	}

	/* both ways, through EGL 1.5's eglCreateImage with the linear modifier */
	{
		const struct format *f = &formats[0];
		unsigned pitch = 48, offset = 32;
		int fd = memfd_image(f, offset, pitch, 9, want);
		const EGLAttrib attribs[] = { EGL_WIDTH,
					      W,
					      EGL_HEIGHT,
					      H,
					      EGL_LINUX_DRM_FOURCC_EXT,
					      DRM_FORMAT_ARGB8888,
					      EGL_DMA_BUF_PLANE0_FD_EXT,
					      fd,
					      EGL_DMA_BUF_PLANE0_OFFSET_EXT,
					      offset,
					      EGL_DMA_BUF_PLANE0_PITCH_EXT,
					      pitch,
					      EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT,
					      (EGLAttrib)(DRM_FORMAT_MOD_LINEAR & 0xffffffff),
					      EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT,
					      (EGLAttrib)(DRM_FORMAT_MOD_LINEAR >> 32),
					      EGL_IMAGE_PRESERVED,
					      EGL_TRUE,
					      EGL_NONE };
		EGLImage img =
		    eglCreateImage(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs);
		uint8_t row[48], bytes[4];
		GLuint tex;

		assert_ptr_not_equal(img, EGL_NO_IMAGE);
		close(fd); /* the image holds the memory, not the application's fd */
		tex = texture_of(img);
		draw_texture(tex, W, H, got);
		assert_memory_equal(got, want, sizeof(want));
		/* the GPU renders: the memfd's bytes change where the image is, only there */
		clear_texture(tex, 10, 20, 30, 40);
		{
			int out = -1, stride = 0, off = 0, fourcc = 0;
			uint8_t *map;

			/* an import exports as itself: the same memory, pitch and offset */
			assert_true(export_query(dpy, img, &fourcc, NULL, NULL));
			assert_int_equal(fourcc, DRM_FORMAT_ARGB8888);
			assert_true(export_image(dpy, img, &out, &stride, &off));
			assert_int_equal(stride, 48);
			assert_int_equal(off, 32);
			map = mmap(NULL, offset + pitch * H, PROT_READ | PROT_WRITE, MAP_SHARED,
				   out, 0);
			assert_ptr_not_equal(map, MAP_FAILED);
			for (unsigned y = 0; y < H; y++) {
				memcpy(row, map + offset + y * pitch, pitch);
				for (unsigned x = 0; x < W; x++)
					assert_memory_equal(
					    row + 4 * x, ((const uint8_t[]){ 30, 20, 10, 40 }), 4);
				for (unsigned x = W * 4; x < pitch; x++)
					assert_int_equal(row[x], 0xee);
			}
			assert_int_equal(map[offset - 1], 0xee);
			/* the CPU writes texel (3, 2): the next draw samples it */
			texel(f, 0, 0, 77, bytes, want);
			memcpy(map + offset + 2 * pitch + 3 * 4, bytes, 4);
			munmap(map, offset + pitch * H);
			close(out);
		}
		draw_texture(tex, W, H, got);
		for (unsigned p = 0; p < W * H; p++) {
			const uint8_t *px = got + 4 * p;

			if (p == 2 * W + 3)
				assert_memory_equal(px, want, 4);
			else
				assert_true(px[0] == 10 && px[1] == 20 && px[2] == 30 &&
					    px[3] == 40);
		}
		glDeleteTextures(1, &tex);
		assert_true(eglDestroyImage(dpy, img));
	}
	release(dpy, ctx);
}

/* ---- export --------------------------------------------------------------------------- */

/* In a child process: whether the fd's rows (stride apart from offset) hold want, RGBA8. */
static bool child_reads(int fd, unsigned stride, unsigned offset, const uint8_t *want)
{
	size_t size = offset + (size_t)stride * N;
	const uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	bool same = map != MAP_FAILED;

	for (unsigned y = 0; same && y < N; y++)
		same = !memcmp(map + offset + y * stride, want + y * N * 4, N * 4);
	return same;
}

/*
 * A texture of one level that a draw rendered to is exported (linear
 * ABGR8888: it became linear when it became the image's); another
 * process reads its pixels from the fd alone; a second EGLDisplay, with
 * its own connection to memmgr, imports the fd, samples the pixels and
 * renders into them, which the first display's texture then shows.  A
 * colour renderbuffer's image exports as well; a mip level, a depth
 * image, another display's image do not.
 */
static void test_export(void **state)
{
	EGLContext ctx = context_of(dpy, config);
	EGLDisplay def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	uint8_t want[N * N * 4], got[N * N * 4];
	EGLuint64KHR modifier = 1;
	EGLImageKHR img, other;
	int fourcc = 0, planes = 0, fd = -1, status;
	EGLint stride = 0, offset = -1;
	GLuint src, fbo, rb;
	pid_t pid;

	(void)state;
	/* a texture rendered to: a clear, then a quarter cleared again */
	glGenTextures(1, &src);
	glBindTexture(GL_TEXTURE_2D, src);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, N, N, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, src, 0);
	glClearColor(1, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(0, 0, N / 2, N / 2);
	glClearColor(0, 1, 0, 0.5f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, want);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(want[0], 0);
	assert_int_equal(want[1], 255);
	assert_int_equal(want[(N * N - 1) * 4], 255);

	img = create_image(dpy, ctx, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)src, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	glFinish();
	assert_true(export_query(dpy, img, &fourcc, &planes, &modifier));
	assert_egl_error(EGL_SUCCESS);
	assert_int_equal(fourcc, DRM_FORMAT_ABGR8888);
	assert_int_equal(planes, 1);
	assert_true(modifier == DRM_FORMAT_MOD_LINEAR);
	assert_true(export_query(dpy, img, NULL, NULL, NULL));
	assert_true(export_image(dpy, img, &fd, &stride, &offset));
	assert_true(fd >= 0);
	assert_true(stride >= N * 4 && stride % 16 == 0);
	assert_int_equal(offset, 0);
	/* the texture still renders and samples as before */
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, got);
	assert_memory_equal(got, want, sizeof(want));

	/* another process, the fd alone */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_reads(fd, (unsigned)stride, (unsigned)offset, want) ? 0 : 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* a second display imports it, samples it, renders into it */
	{
		const EGLint attribs[] = { EGL_CONFIG_ID, 1, EGL_NONE };
		EGLConfig def_config;
		EGLContext def_ctx;
		EGLImageKHR imported;
		EGLint n = 0;
		GLuint tex;

		assert_true(eglInitialize(def, NULL, NULL));
		assert_true(eglChooseConfig(def, attribs, &def_config, 1, &n) && n == 1);
		def_ctx = context_of(def, def_config);
		imported = create_image(
		    def, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL,
		    (const EGLint[]){ EGL_WIDTH, N, EGL_HEIGHT, N, EGL_LINUX_DRM_FOURCC_EXT, fourcc,
				      EGL_DMA_BUF_PLANE0_FD_EXT, fd, EGL_DMA_BUF_PLANE0_OFFSET_EXT,
				      offset, EGL_DMA_BUF_PLANE0_PITCH_EXT, stride, EGL_NONE });
		assert_ptr_not_equal(imported, EGL_NO_IMAGE_KHR);
		/* an image of def is none of dpy's */
		assert_false(export_query(dpy, imported, &fourcc, NULL, NULL));
		assert_egl_error(EGL_BAD_PARAMETER);
		tex = texture_of(imported);
		draw_texture(tex, N, N, got);
		assert_memory_equal(got, want, sizeof(want));
		clear_texture(tex, 1, 2, 3, 4);
		glDeleteTextures(1, &tex);
		assert_true(destroy_image(def, imported));
		release(def, def_ctx);
		assert_true(eglTerminate(def));
		assert_true(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	}
	close(fd);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glReadPixels(0, 0, N, N, GL_RGBA, GL_UNSIGNED_BYTE, got);
	for (unsigned i = 0; i < N * N; i++)
		assert_memory_equal(got + 4 * i, ((const uint8_t[]){ 1, 2, 3, 4 }), 4);
	assert_true(destroy_image(dpy, img));

	/* a colour renderbuffer: linear, RGB565 */
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, W, H);
	img = create_image(dpy, ctx, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)rb, NULL);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_true(export_query(dpy, img, &fourcc, &planes, &modifier));
	assert_int_equal(fourcc, DRM_FORMAT_RGB565);
	assert_true(export_image(dpy, img, &fd, NULL, NULL));
	close(fd);
	assert_true(destroy_image(dpy, img));
	glDeleteRenderbuffers(1, &rb);

	/* not exportable: a level of a mip chain (twiddled), a depth image */
	glGenTextures(1, &src);
	glBindTexture(GL_TEXTURE_2D, src);
	glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, N, N);
	img = create_image(dpy, ctx, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)src,
			   (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE });
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_false(export_query(dpy, img, &fourcc, &planes, &modifier));
	assert_egl_error(EGL_BAD_MATCH);
	fd = -1;
	assert_false(export_image(dpy, img, &fd, &stride, &offset));
	assert_egl_error(EGL_BAD_MATCH);
	assert_int_equal(fd, -1);
	assert_true(destroy_image(dpy, img));
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
	other =
	    create_image(dpy, ctx, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)rb, NULL);
	assert_ptr_not_equal(other, EGL_NO_IMAGE_KHR);
	assert_false(export_query(dpy, other, &fourcc, &planes, &modifier));
	assert_egl_error(EGL_BAD_MATCH);
	assert_true(destroy_image(dpy, other));
	assert_false(export_query(dpy, other, &fourcc, &planes, &modifier));
	assert_egl_error(EGL_BAD_PARAMETER);
	glDeleteRenderbuffers(1, &rb);
	glDeleteTextures(1, &src);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fbo);
	release(dpy, ctx);
}

/* ---- errors --------------------------------------------------------------------------- */

/* attribs with the value of attribute name replaced (or, value -1 and drop, left out). */
static void with(EGLint *out, const EGLint *attribs, EGLint name, EGLint value, bool drop)
{
	unsigned n = 0;

	for (unsigned i = 0; attribs[i] != EGL_NONE; i += 2) {
		if (attribs[i] == name && drop)
			continue;
		out[n++] = attribs[i];
		out[n++] = attribs[i] == name ? value : attribs[i + 1];
	}
	out[n] = EGL_NONE;
}

static void expect_error(const EGLint *attribs, EGLint error)
{
	assert_ptr_equal(create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, attribs),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(error);
}

/* EGL_EXT_image_dma_buf_import's and _modifiers' errors, in their order, and a GL one. */
static void test_import_errors(void **state)
{
	EGLContext ctx = context_of(dpy, config);
	uint8_t want[W * H * 4];
	int fd = memfd_image(&formats[0], 0, 32, 0, want), pipes[2], unsealable, devnull;
	const EGLint good[] = { EGL_WIDTH,
				W,
				EGL_HEIGHT,
				H,
				EGL_LINUX_DRM_FOURCC_EXT,
				DRM_FORMAT_ARGB8888,
				EGL_DMA_BUF_PLANE0_FD_EXT,
				fd,
				EGL_DMA_BUF_PLANE0_OFFSET_EXT,
				0,
				EGL_DMA_BUF_PLANE0_PITCH_EXT,
				32,
				EGL_NONE };
	static const EGLint required[] = { EGL_WIDTH,
					   EGL_HEIGHT,
					   EGL_LINUX_DRM_FOURCC_EXT,
					   EGL_DMA_BUF_PLANE0_FD_EXT,
					   EGL_DMA_BUF_PLANE0_OFFSET_EXT,
					   EGL_DMA_BUF_PLANE0_PITCH_EXT };
	EGLint a[40];
	EGLImageKHR img;
	GLuint rb;

	(void)state;
	img = create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, good);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	/* a BGRA image is no renderbuffer format (EXT_texture_format_BGRA8888) */
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	target_renderbuffer(GL_RENDERBUFFER, (GLeglImageOES)img);
	assert_gl_error(GL_INVALID_OPERATION);
	glDeleteRenderbuffers(1, &rb);
	assert_true(destroy_image(dpy, img));

	/* a context, a buffer: EGL_BAD_PARAMETER */
	assert_ptr_equal(create_image(dpy, ctx, EGL_LINUX_DMA_BUF_EXT, NULL, good),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	assert_ptr_equal(
	    create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, (EGLClientBuffer)&fd, good),
	    EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_PARAMETER);
	/* incomplete: each required attribute left out */
	for (unsigned i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		with(a, good, required[i], 0, true);
		expect_error(a, EGL_BAD_PARAMETER);
	}
	/* a format not supported: EGL_BAD_MATCH */
	with(a, good, EGL_LINUX_DRM_FOURCC_EXT, DRM_FORMAT_NV12, false);
	expect_error(a, EGL_BAD_MATCH);
	with(a, good, EGL_LINUX_DRM_FOURCC_EXT, 0, false);
	expect_error(a, EGL_BAD_MATCH);
	/* a single-plane format with a second plane: EGL_BAD_ATTRIBUTE */
	with(a, good, EGL_NONE, 0, false);
	memcpy(a + 12, (const EGLint[]){ EGL_DMA_BUF_PLANE1_FD_EXT, fd, EGL_NONE },
	       3 * sizeof(EGLint));
	expect_error(a, EGL_BAD_ATTRIBUTE);
	/* hints of values none of the listed */
	static const EGLint hints[][2] = {
		{ EGL_YUV_COLOR_SPACE_HINT_EXT, EGL_YUV_FULL_RANGE_EXT },
		{ EGL_SAMPLE_RANGE_HINT_EXT, EGL_ITU_REC709_EXT },
		{ EGL_YUV_CHROMA_HORIZONTAL_SITING_HINT_EXT, 7 },
		{ EGL_YUV_CHROMA_VERTICAL_SITING_HINT_EXT, EGL_ITU_REC601_EXT },
	};
	for (unsigned i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		with(a, good, EGL_NONE, 0, false);
		memcpy(a + 12, (const EGLint[]){ hints[i][0], hints[i][1], EGL_NONE },
		       3 * sizeof(EGLint));
		expect_error(a, EGL_BAD_ATTRIBUTE);
	}
	/* a valid hint is taken (and means nothing to RGB) */
	with(a, good, EGL_NONE, 0, false);
	memcpy(a + 12,
	       (const EGLint[]){ EGL_YUV_COLOR_SPACE_HINT_EXT, EGL_ITU_REC709_EXT, EGL_NONE },
	       3 * sizeof(EGLint));
	img = create_image(dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, a);
	assert_ptr_not_equal(img, EGL_NO_IMAGE_KHR);
	assert_true(destroy_image(dpy, img));
	/* an attribute of no dma-buf image */
	with(a, good, EGL_NONE, 0, false);
	memcpy(a + 12, (const EGLint[]){ EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_NONE },
	       3 * sizeof(EGLint));
	expect_error(a, EGL_BAD_PARAMETER);
	/* modifiers: half of one (EGL_BAD_PARAMETER), one not linear (EGL_BAD_MATCH) */
	with(a, good, EGL_NONE, 0, false);
	memcpy(a + 12, (const EGLint[]){ EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, 0, EGL_NONE },
	       3 * sizeof(EGLint));
	expect_error(a, EGL_BAD_PARAMETER);
	with(a, good, EGL_NONE, 0, false);
	memcpy(a + 12,
	       (const EGLint[]){ EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, 1,
				 EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT, 0x01000000, EGL_NONE },
	       5 * sizeof(EGLint));
	expect_error(a, EGL_BAD_MATCH);
	/* sizes: none, too large */
	with(a, good, EGL_WIDTH, 0, false);
	expect_error(a, EGL_BAD_PARAMETER);
	with(a, good, EGL_HEIGHT, 100000, false);
	expect_error(a, EGL_BAD_PARAMETER);
	/* pitch and offset EGL cannot take: EGL_BAD_ACCESS */
	with(a, good, EGL_DMA_BUF_PLANE0_PITCH_EXT, 16, false); /* under a row */
	expect_error(a, EGL_BAD_ACCESS);
	with(a, good, EGL_DMA_BUF_PLANE0_PITCH_EXT, 40, false); /* not 16-byte aligned */
	expect_error(a, EGL_BAD_ACCESS);
	with(a, good, EGL_DMA_BUF_PLANE0_OFFSET_EXT, 8, false);
	expect_error(a, EGL_BAD_ACCESS);
	with(a, good, EGL_DMA_BUF_PLANE0_OFFSET_EXT, -16, false);
	expect_error(a, EGL_BAD_ACCESS);
	/* past the buffer's end (one 16 KiB page) */
	with(a, good, EGL_DMA_BUF_PLANE0_OFFSET_EXT, 16384 - 3 * 32 - 16, false);
	expect_error(a, EGL_BAD_ACCESS);
	with(a, good, EGL_DMA_BUF_PLANE0_PITCH_EXT, 8192, false);
	expect_error(a, EGL_BAD_ACCESS);
	/* fds memmgr cannot take: none, a pipe, /dev/null, a memfd it cannot seal */
	with(a, good, EGL_DMA_BUF_PLANE0_FD_EXT, -1, false);
	expect_error(a, EGL_BAD_PARAMETER);
	assert_int_equal(pipe(pipes), 0);
	with(a, good, EGL_DMA_BUF_PLANE0_FD_EXT, pipes[0], false);
	expect_error(a, EGL_BAD_PARAMETER);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	with(a, good, EGL_DMA_BUF_PLANE0_FD_EXT, devnull, false);
	expect_error(a, EGL_BAD_PARAMETER);
	unsealable = memfd_create("unsealable", MFD_CLOEXEC);
	assert_int_equal(ftruncate(unsealable, 16384), 0);
	with(a, good, EGL_DMA_BUF_PLANE0_FD_EXT, unsealable, false);
	expect_error(a, EGL_BAD_PARAMETER);
	/* the application's fds are its own still */
	assert_true(fcntl(pipes[0], F_GETFD) >= 0 && fcntl(devnull, F_GETFD) >= 0 &&
		    fcntl(unsealable, F_GETFD) >= 0 && fcntl(fd, F_GETFD) >= 0);
	close(pipes[0]);
	close(pipes[1]);
	close(devnull);
	close(unsealable);
	close(fd);
	/* another target: a texture level with no context */
	assert_ptr_equal(create_image(dpy, EGL_NO_CONTEXT, EGL_GL_TEXTURE_2D_KHR,
				      (EGLClientBuffer)(uintptr_t)1, NULL),
			 EGL_NO_IMAGE_KHR);
	assert_egl_error(EGL_BAD_CONTEXT);
	release(dpy, ctx);
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
	query_formats =
	    (PFNEGLQUERYDMABUFFORMATSEXTPROC)eglGetProcAddress("eglQueryDmaBufFormatsEXT");
	query_modifiers =
	    (PFNEGLQUERYDMABUFMODIFIERSEXTPROC)eglGetProcAddress("eglQueryDmaBufModifiersEXT");
	export_query = (PFNEGLEXPORTDMABUFIMAGEQUERYMESAPROC)eglGetProcAddress(
	    "eglExportDMABUFImageQueryMESA");
	export_image =
	    (PFNEGLEXPORTDMABUFIMAGEMESAPROC)eglGetProcAddress("eglExportDMABUFImageMESA");
	if (!create_image || !destroy_image || !target_texture || !target_renderbuffer ||
	    !query_formats || !query_modifiers || !export_query || !export_image) {
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
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_import_cpu),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_import_errors),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

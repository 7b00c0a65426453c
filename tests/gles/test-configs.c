/*
 * test-configs: each EGL config's pbuffer renders, compared with Mesa's
 * llvmpipe (llvmpipe.h) drawing into its config of the same colour,
 * depth and stencil sizes and component type: a depth-tested pair of
 * triangles through the colour, depth and stencil buffers the config
 * gives, then read back (RGBA/UNSIGNED_BYTE, or RGBA/FLOAT for a
 * floating-point config, converted to bytes).  The 4x configs likewise,
 * resolved by glBlitFramebuffer into a single-sampled renderbuffer and
 * read from there: against llvmpipe's 4x configs within a sample at the
 * edges, and exactly against llvmpipe's 4x renderbuffers (workload()
 * says why); each must have antialiased edges.  A config llvmpipe does not offer is shown, not
 * compared; every one must be ours.
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
#define H 24

#define names llvmpipe_pos_col

#define vs llvmpipe_vs_pos_col
#define fs llvmpipe_fs_col

/* Two triangles through each other: z from -0.6 to 0.6 and back. */
static const float pos[][4] = {
	{ -0.9f, -0.8f, -0.6f, 1 }, { 0.8f, -0.6f, 0.6f, 1 }, { -0.3f, 0.9f, 0.0f, 1 },
	{ -0.8f, 0.5f, 0.6f, 1 },   { 0.9f, 0.8f, -0.6f, 1 }, { 0.2f, -0.9f, 0.0f, 1 },
};
static const float col[][4] = {
	{ 1, 0, 0, 1 }, { 1, 0.5f, 0, 0.5f }, { 1, 0, 0.5f, 0.25f },
	{ 0, 0, 1, 1 }, { 0, 0.5f, 1, 0.5f }, { 0.5f, 0, 1, 0.75f },
};

struct want {
	EGLint r, g, b, a, depth, stencil;
	bool is_float;
	EGLint samples;
};

/* The first pbuffer config of dpy with exactly these sizes and type, current with a context. */
static bool make_current(EGLDisplay dpy, const struct want *w, EGLSurface *surf, EGLContext *ctx)
{
	const EGLint attribs[] = { EGL_SURFACE_TYPE,
				   EGL_PBUFFER_BIT,
				   EGL_RENDERABLE_TYPE,
				   EGL_OPENGL_ES3_BIT,
				   EGL_COLOR_COMPONENT_TYPE_EXT,
				   w->is_float ? EGL_COLOR_COMPONENT_TYPE_FLOAT_EXT
					       : EGL_COLOR_COMPONENT_TYPE_FIXED_EXT,
				   EGL_NONE };
	const EGLint pb[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLConfig configs[256];
	EGLint n = 0;

	if (!eglChooseConfig(dpy, attribs, configs, 256, &n))
		return false;
	for (EGLint i = 0; i < n; i++) {
		static const EGLint sizes[] = { EGL_RED_SIZE,	EGL_GREEN_SIZE, EGL_BLUE_SIZE,
						EGL_ALPHA_SIZE, EGL_DEPTH_SIZE, EGL_STENCIL_SIZE,
						EGL_SAMPLES };
		const EGLint have[] = { w->r, w->g, w->b, w->a, w->depth, w->stencil, w->samples };
		bool same = true;

		for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			EGLint v = -1;

			eglGetConfigAttrib(dpy, configs[i], sizes[k], &v);
			same &= v == have[k];
		}
		if (!same)
			continue;
		*surf = eglCreatePbufferSurface(dpy, configs[i], pb);
		*ctx = eglCreateContext(dpy, configs[i], EGL_NO_CONTEXT, ca);
		return *surf != EGL_NO_SURFACE && *ctx != EGL_NO_CONTEXT &&
		       eglMakeCurrent(dpy, *surf, *surf, *ctx);
	}
	return false;
}

/* The scene. */
static void draw(const struct want *w)
{
	llvmpipe_program(vs, fs, names);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	glViewport(0, 0, W, H);
	glClearColor(0.2f, 0.4f, 0.6f, 0.8f);
	glClearDepthf(1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	if (w->stencil) {
		/* the second triangle only where the first is not */
		glEnable(GL_STENCIL_TEST);
		glStencilFunc(GL_ALWAYS, 1, 0xff);
		glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	}
	glDrawArrays(GL_TRIANGLES, 0, 3);
	if (w->stencil)
		glStencilFunc(GL_NOTEQUAL, 1, 0xff);
	glDrawArrays(GL_TRIANGLES, 3, 3);
	glDisable(GL_STENCIL_TEST);
	glDisable(GL_DEPTH_TEST);
}

/* The colour of the framebuffer bound for reading, as bytes. */
static void read_bytes(const struct want *w, uint8_t px[W * H * 4])
{
	memset(px, 0xcd, W * H * 4);
	if (w->is_float) {
		static float f[W * H * 4];

		glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, f);
		for (unsigned i = 0; i < W * H * 4; i++)
			px[i] = (uint8_t)(f[i] <= 0 ? 0 : f[i] >= 1 ? 255 : f[i] * 255.0f + 0.5f);
	} else {
		glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	}
}

/*
 * Pixels a resolve blends at the first triangle's edges: its red is 1
 * everywhere, the clear's 0.2 and the second triangle's at most 0.5, so
 * a single-sampled scene has no red between 0.56 and 0.94 -- where a 4x
 * resolve puts a pixel that is half or three quarters covered.
 */
static unsigned blended_edge_pixels(const uint8_t px[W * H * 4])
{
	unsigned n = 0;

	for (unsigned i = 0; i < W * H; i++)
		n += px[i * 4] >= 0x90 && px[i * 4] <= 0xf0 ? 1 : 0;
	return n;
}

/* The GL sized format of the config's colour buffer, which a resolving blit must match. */
static GLenum color_format(const struct want *w)
{
	if (w->is_float)
		return GL_RGBA16F;
	if (w->r == 5)
		return GL_RGB565;
	if (w->r == 10)
		return GL_RGB10_A2;
	return w->a ? GL_RGBA8 : GL_RGB8;
}

/*
 * The scene in 4x renderbuffers of w's colour, depth and stencil formats,
 * resolved by glBlitFramebuffer and read (llvmpipe's reference for the 4x
 * configs: see workload()).
 */
static void fbo_scene(const struct want *w, uint8_t px[W * H * 4])
{
	GLenum zs = w->stencil	     ? GL_DEPTH24_STENCIL8
		    : w->depth == 16 ? GL_DEPTH_COMPONENT16
		    : w->depth == 24 ? GL_DEPTH_COMPONENT24
				     : GL_DEPTH_COMPONENT32F;
	GLuint fb[2], rb[3];

	glGenFramebuffers(2, fb);
	glGenRenderbuffers(3, rb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb[0]);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, color_format(w), W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	if (w->depth) {
		glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
		glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, zs, W, H);
		glFramebufferRenderbuffer(
		    GL_FRAMEBUFFER, w->stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
		    GL_RENDERBUFFER, rb[1]);
	}
	draw(w);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[2]);
	glRenderbufferStorage(GL_RENDERBUFFER, color_format(w), W, H);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb[1]);
	glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
				  rb[2]);
	glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb[1]);
	read_bytes(w, px);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(2, fb);
	glDeleteRenderbuffers(3, rb);
}

/*
 * A multisampled config's scene resolved by glBlitFramebuffer into a
 * single-sampled renderbuffer of its format (ES 3.0 section 4.3.3's
 * resolve), and read from there: llvmpipe (Mesa 22.3) reads one sample
 * of a multisampled pbuffer, not its resolve.  On our vendor (ours),
 * glReadPixels of the default framebuffer must give the same bytes.
 */
static void resolve_and_read(const struct want *w, bool ours, uint8_t px[W * H * 4])
{
	static uint8_t direct[W * H * 4];
	GLuint fb, rb;

	read_bytes(w, direct);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, color_format(w), W, H);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
	read_bytes(w, px);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(1, &rb);
	if (ours && memcmp(direct, px, sizeof(direct)))
		llvmpipe_fail("glReadPixels of a 4x pbuffer is not its resolve");
}

static int workload(void)
{
	static const struct want configs[] = {
		{ 8, 8, 8, 8, 0, 0, false, 0 },
		{ 8, 8, 8, 8, 24, 8, false, 0 },
		{ 8, 8, 8, 8, 16, 0, false, 0 },
		{ 8, 8, 8, 8, 24, 0, false, 0 },
		{ 8, 8, 8, 8, 32, 0, false, 0 },
		{ 5, 6, 5, 0, 0, 0, false, 0 },
		{ 5, 6, 5, 0, 24, 8, false, 0 },
		{ 5, 6, 5, 0, 16, 0, false, 0 },
		{ 8, 8, 8, 0, 0, 0, false, 0 },
		{ 8, 8, 8, 0, 24, 8, false, 0 },
		{ 8, 8, 8, 0, 16, 0, false, 0 },
		{ 8, 8, 8, 0, 32, 0, false, 0 },
		{ 10, 10, 10, 2, 0, 0, false, 0 },
		{ 10, 10, 10, 2, 24, 8, false, 0 },
		{ 10, 10, 10, 2, 16, 0, false, 0 },
		{ 16, 16, 16, 16, 0, 0, true, 0 },
		{ 16, 16, 16, 16, 24, 8, true, 0 },
		{ 16, 16, 16, 16, 16, 0, true, 0 },
		{ 16, 16, 16, 16, 32, 0, true, 0 },
		/* the 4x ones */
		{ 8, 8, 8, 8, 0, 0, false, 4 },
		{ 8, 8, 8, 8, 24, 8, false, 4 },
		{ 8, 8, 8, 8, 16, 0, false, 4 },
		{ 8, 8, 8, 8, 32, 0, false, 4 },
		{ 5, 6, 5, 0, 0, 0, false, 4 },
		{ 5, 6, 5, 0, 24, 8, false, 4 },
		{ 8, 8, 8, 0, 0, 0, false, 4 },
		{ 8, 8, 8, 0, 24, 8, false, 4 },
		{ 10, 10, 10, 2, 0, 0, false, 4 },
		{ 10, 10, 10, 2, 24, 8, false, 4 },
		{ 16, 16, 16, 16, 0, 0, true, 4 },
		{ 16, 16, 16, 16, 24, 8, true, 4 },
	};
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);

	bool ours;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "workload: no EGL display (0x%x)\n", eglGetError());
		return 1;
	}
	ours = !strcmp(eglQueryString(dpy, EGL_VENDOR), "AGX driver stack");
	for (unsigned i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		const struct want *w = &configs[i];
		static uint8_t px[W * H * 4];
		EGLSurface surf;
		EGLContext ctx;
		char name[96];

		snprintf(name, sizeof(name), "%s%d%d%d%d_d%d_s%d%s", w->is_float ? "f" : "", w->r,
			 w->g, w->b, w->a, w->depth, w->stencil, w->samples ? "_ms4" : "");
		if (!make_current(dpy, w, &surf, &ctx)) {
			/*
			 * llvmpipe's configs are its own: the records of one it lacks
			 * are ours only (shown); ours lacking one leaves fewer records
			 * than the comparison wants
			 */
			fprintf(stderr, "workload: no config %s\n", name);
			continue;
		}
		draw(w);
		if (w->samples) {
			static uint8_t ref[W * H * 4];
			char n[128];

			resolve_and_read(w, ours, px);
			/*
			 * Against llvmpipe's 4x pbuffer, within one sample of an
			 * edge (a quarter of a full step, 64 of 255) and the
			 * format's step beyond it (5:6:5, a 2-bit alpha): Mesa
			 * draws a window-system buffer upside down, so its
			 * sample positions there are the standard ones mirrored
			 * in y -- an edge pixel may cover one sample more or less
			 */
			snprintf(n, sizeof(n), "~%u.%u.%u.%u~%s:pbuffer", w->r == 5 ? 72 : 64,
				 w->r == 5 ? 72 : 64, w->r == 5 ? 72 : 64, w->a == 2 ? 149 : 64,
				 name);
			llvmpipe_record(n, px, sizeof(px));
			/*
			 * Exactly (below): ours against llvmpipe's 4x
			 * renderbuffers of the config's formats, where its
			 * positions are the standard ones ours are everywhere
			 */
			if (!ours) {
				fbo_scene(w, ref);
				memcpy(px, ref, sizeof(ref));
			}
		} else {
			read_bytes(w, px);
		}
		{
			/*
			 * Within a step of the buffer's (GLES 3.0.6 section 2.1.6 lets
			 * a conversion round either way): 2 of 255 for 8 and more
			 * bits; 9 for 5:6:5 and 85 for a 2-bit alpha, where the two
			 * round a colour that lies halfway otherwise; 17 for a 4x
			 * 5:6:5 resolve, which rounds the samples and their
			 * average, each either way
			 */
			unsigned rgb = w->r == 5 ? (w->samples ? 17 : 9) : 2,
				 alpha = w->a == 2 ? 85 : 2;
			char n[128];

			snprintf(n, sizeof(n), "~%u.%u.%u.%u~%s", rgb, rgb, rgb, alpha, name);
			llvmpipe_record(n, px, sizeof(px));
		}
		if (w->samples) {
			/* both vendors antialias: blended pixels at the edges */
			uint8_t aa = blended_edge_pixels(px) >= 4;
			char n[128];

			snprintf(n, sizeof(n), "%s:antialiased", name);
			llvmpipe_record(n, &aa, 1);
		}
		llvmpipe_record_error(name);
		eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglDestroyContext(dpy, ctx);
		eglDestroySurface(dpy, surf);
	}
	eglTerminate(dpy);
	return 0;
}

int main(int argc, char **argv)
{
	/* two records of each of the 19 configs, four of the 12 4x ones: all of them ours */
	return llvmpipe_main(argc, argv, workload, 38 + 48);
}

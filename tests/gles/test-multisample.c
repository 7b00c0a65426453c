/*
 * test-multisample: drawing into multisampled renderbuffers, resolved by
 * glBlitFramebuffer, compared with Mesa's llvmpipe (llvmpipe.h), whose 4x
 * sample positions are the standard ones agx-sim takes too.  Edges,
 * depth-tested intersections and blending at edges differ sample by
 * sample; a driver that shaded one sample, or blended every covered
 * sample with the first one's colour, is off by a quarter of the colours'
 * difference there.
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

#define W 64
#define H 48

#define names llvmpipe_pos_col

#define vs llvmpipe_vs_pos_col
#define fs llvmpipe_fs_col

/* Two triangles that cut through each other (z from -0.6 to 0.6 and back), and a thin sliver. */
static const float pos[][4] = {
	{ -0.9f, -0.8f, -0.6f, 1 }, { 0.8f, -0.6f, 0.6f, 1 },  { -0.3f, 0.9f, 0.0f, 1 },
	{ -0.8f, 0.5f, 0.6f, 1 },   { 0.9f, 0.8f, -0.6f, 1 },  { 0.2f, -0.9f, 0.0f, 1 },
	{ -0.95f, 0.0f, 0.0f, 1 },  { 0.95f, 0.07f, 0.0f, 1 }, { 0.95f, 0.12f, 0.0f, 1 },
};
static const float col[][4] = {
	{ 1, 0, 0, 0.6f }, { 1, 0.5f, 0, 0.6f }, { 1, 0, 0.5f, 0.6f },
	{ 0, 0, 1, 0.5f }, { 0, 0.5f, 1, 0.5f }, { 0.5f, 0, 1, 0.5f },
	{ 1, 1, 1, 1 },	   { 1, 1, 1, 1 },	 { 1, 1, 1, 1 },
};

/* A framebuffer of a colour renderbuffer of samples (0: single-sampled) and a depth/stencil one. */
static GLuint framebuffer(GLenum format, GLsizei samples, bool depth, GLuint rb[2])
{
	GLuint fb;

	glGenFramebuffers(1, &fb);
	glGenRenderbuffers(2, rb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	if (depth) {
		glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
		glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, W,
						 H);
		glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
					  GL_RENDERBUFFER, rb[1]);
	}
	return fb;
}

static void finish_framebuffer(GLuint fb, GLuint rb[2])
{
	glDeleteFramebuffers(1, &fb);
	glDeleteRenderbuffers(2, rb);
}

/* ms resolved into resolve, then its pixels recorded within tolerance. */
static void resolve_and_read(const char *name, GLuint ms, GLuint resolve, unsigned tolerance)
{
	uint8_t px[W * H * 4];
	char n[200];

	glBindFramebuffer(GL_READ_FRAMEBUFFER, ms);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve);
	glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	llvmpipe_record_error(name);
	glBindFramebuffer(GL_FRAMEBUFFER, resolve);
	memset(px, 0xcd, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	snprintf(n, sizeof(n), "~%u.%u.%u.%u~%s", tolerance, tolerance, tolerance, tolerance, name);
	llvmpipe_record(n, px, sizeof(px));
}

static void clear(void)
{
	glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
	glClearDepthf(1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

static void draw(unsigned first, unsigned count)
{
	glDrawArrays(GL_TRIANGLES, (GLint)first, (GLsizei)count);
}

enum variant {
	DEPTH,	   /* depth-tested intersection */
	BLEND,	   /* blended, overlapping at the edges */
	RELOAD,	   /* the pass ends between the draws: the second reloads the samples */
	SCISSORED, /* a scissored clear (a draw into the pass) over the draws */
	STENCIL,   /* the sliver writes stencil, the triangles draw where it is not */
	NO_DEPTH,  /* no depth attachment at all */
	ALPHA,	   /* alpha to coverage: 3 of 4 samples for alpha 0.6, 2 for 0.3 */
	COVERAGE,  /* glSampleCoverage: the first 2 samples, then the others (inverted) */
	DISCARD,   /* a shader that discards a column, depth-tested behind another draw */
	CENTROID,  /* centroid inputs of a colour that changes fast across a pixel */
	VARIANTS,
};

static const char *const variant_names[VARIANTS] = {
	"depth",
	"blend",
	"reload",
	"scissored_clear",
	"stencil",
	"no_depth",
	"alpha_to_coverage",
	"sample_coverage",
	"discard",
	"centroid",
};

/* A colour of steep stripes: interpolated at the centre or a sample, edge pixels differ */
static const char vs_centroid[] = "#version 300 es\n"
				  "in vec4 pos;\n"
				  "centroid out vec4 v;\n"
				  "void main() {\n"
				  "  gl_Position = pos;\n"
				  "  v = vec4(pos.x * 40.0, pos.y * 40.0, 0.5, 1.0);\n"
				  "}\n";
static const char fs_centroid[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "centroid in vec4 v;\n"
				  "out vec4 o;\n"
				  "void main() { o = vec4(fract(v.xy), v.zw); }\n";

static const char fs_discard[] = "#version 300 es\n"
				 "precision mediump float;\n"
				 "in vec4 v;\n"
				 "out vec4 o;\n"
				 "void main() {\n"
				 "  if (gl_FragCoord.x > 30.0 && gl_FragCoord.x < 34.0) discard;\n"
				 "  o = v.bgra;\n"
				 "}\n";

static void scene(enum variant v)
{
	uint8_t px[4];

	clear();
	switch (v) {
	case DEPTH:
		glEnable(GL_DEPTH_TEST);
		draw(0, 9);
		break;
	case BLEND:
		glEnable(GL_BLEND);
		glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
		draw(0, 9);
		break;
	case RELOAD:
		glEnable(GL_DEPTH_TEST);
		draw(0, 3);
		/* a read of another framebuffer ends the pass; the next draw reloads */
		glFinish();
		glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
		glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
		glEnable(GL_BLEND);
		draw(3, 6);
		break;
	case SCISSORED:
		glEnable(GL_DEPTH_TEST);
		draw(0, 9);
		glEnable(GL_SCISSOR_TEST);
		glScissor(10, 7, 23, 19);
		glClearColor(0.9f, 0.8f, 0.1f, 1.0f);
		glClearDepthf(0.5f);
		glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		glDisable(GL_SCISSOR_TEST);
		draw(0, 3);
		break;
	case STENCIL:
		glEnable(GL_STENCIL_TEST);
		glStencilFunc(GL_ALWAYS, 1, 0xff);
		glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
		draw(6, 3);
		glStencilFunc(GL_NOTEQUAL, 1, 0xff);
		glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
		draw(0, 6);
		break;
	case ALPHA:
		/* a constant colour each: alpha far from the thresholds s / 4 */
		glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
		glDisableVertexAttribArray(1);
		glVertexAttrib4f(1, 1, 0.5f, 0, 0.6f);
		draw(0, 3);
		glVertexAttrib4f(1, 0, 0.5f, 1, 0.3f);
		draw(3, 3);
		glEnableVertexAttribArray(1);
		glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
		break;
	case COVERAGE:
		glEnable(GL_SAMPLE_COVERAGE);
		glSampleCoverage(0.5f, GL_FALSE);
		draw(0, 3);
		glSampleCoverage(0.5f, GL_TRUE);
		draw(3, 3);
		glSampleCoverage(1.0f, GL_FALSE);
		glDisable(GL_SAMPLE_COVERAGE);
		draw(6, 3);
		break;
	case DISCARD:
		glEnable(GL_DEPTH_TEST);
		draw(3, 3);
		llvmpipe_program(vs, fs_discard, names);
		draw(0, 3);
		llvmpipe_program(vs, fs, names);
		break;
	case CENTROID:
		llvmpipe_program(vs_centroid, fs_centroid, names);
		draw(0, 6);
		llvmpipe_program(vs, fs, names);
		break;
	case NO_DEPTH:
	case VARIANTS:
		draw(0, 9);
		break;
	}
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_BLEND);
	glDisable(GL_STENCIL_TEST);
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLSurface surf;
	EGLContext ctx;
	GLuint resolve, rrb[2];
	GLint samples = 0;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !llvmpipe_make_current(dpy, 8, 8, 8, 8, 3, W, H, &surf, &ctx)) {
		fprintf(stderr, "workload: no context (0x%x)\n", eglGetError());
		return 1;
	}
	llvmpipe_program(vs, fs, names);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
	glViewport(0, 0, W, H);
	resolve = framebuffer(GL_RGBA8, 0, false, rrb);

	for (unsigned v = 0; v < VARIANTS; v++) {
		GLuint rb[2], fb = framebuffer(GL_RGBA8, 4, v != NO_DEPTH, rb);
		char name[64];

		snprintf(name, sizeof(name), "ms4_%s", variant_names[v]);
		if (v == 0) {
			glGetIntegerv(GL_SAMPLES, &samples);
			llvmpipe_record("samples_of_4x", &samples, sizeof(samples));
			llvmpipe_record_error("complete");
		}
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		scene((enum variant)v);
		/* colours are interpolated alike to within 2; coverage is the same */
		resolve_and_read(name, fb, resolve, 3);
		finish_framebuffer(fb, rb);
	}
	/*
	 * A resolve into a texture of unsized GL_RGBA and GL_UNSIGNED_BYTE,
	 * whose effective format is RGBA8's (ES 3.0 table 3.12), as piglit's
	 * varying-struct-centroid does: the formats are identical, so it blits
	 */
	{
		GLuint rb[2], fb = framebuffer(GL_RGBA8, 4, true, rb), tex, tfb;

		glGenTextures(1, &tex);
		glBindTexture(GL_TEXTURE_2D, tex);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
		glGenFramebuffers(1, &tfb);
		glBindFramebuffer(GL_FRAMEBUFFER, tfb);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
		glBindFramebuffer(GL_FRAMEBUFFER, fb);
		scene(DEPTH);
		resolve_and_read("ms4_resolve_into_unsized_rgba", fb, tfb, 3);
		glDeleteFramebuffers(1, &tfb);
		glDeleteTextures(1, &tex);
		finish_framebuffer(fb, rb);
	}
	finish_framebuffer(resolve, rrb);
	llvmpipe_release(dpy, surf, ctx);
	return 0;
}

int main(int argc, char **argv)
{
	return llvmpipe_main(argc, argv, workload, 2 * VARIANTS + 2);
}

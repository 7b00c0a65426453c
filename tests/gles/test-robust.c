/*
 * test-robust: robust buffer access (EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
 * GL_KHR_robustness's robust access) through glvnd over the real stack,
 * compared with Mesa's llvmpipe running the same calls.  In a robust
 * context, draws read past what their buffers hold: a glDrawArrays range
 * past the end of a vertex array, indices past it (some far past, where a
 * read would reach unmapped memory), an element that only partly fits,
 * an array at an offset, instanced arrays past their end (divisors 1 and
 * 2), uniform block reads past the range bound (in either stage, and a
 * range its buffer was shrunk under), and texelFetch outside the level.
 * What lies outside reads as zeros -- (0, 0, 0, 1) where the format lacks
 * components -- and the context carries on: no error, the images right.
 *
 * Then a context that is not robust makes the same far reads: it may
 * fault and lose itself, which is left to the implementation, but
 * another context of the process, innocent, draws the same before and
 * after and its images are checked.
 *
 * Each draw is of points, one per 4 x 4 cell of an 8 x 8 grid: the cell
 * is the vertex id (or the instance id) modulo 64, so that a vertex whose
 * data is out of range still lands in its own cell, showing what it read.
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

#define W 32
#define H 32

/* a cell of the grid from a vertex's number: gl_Position, and a point that covers the cell */
#define CELL_FROM(x)                                                                               \
	"  int i = (" x ") & 63;\n"                                                                \
	"  gl_Position = vec4(-1.0 + 0.25 * (float(i % 8) + 0.5),\n"                               \
	"                     -1.0 + 0.25 * (float(i / 8) + 0.5), 0.0, 1.0);\n"                    \
	"  gl_PointSize = 4.0;\n"

static const char vs_vertex[] = "#version 300 es\n"
				"in vec4 col;\n"
				"out vec4 v;\n"
				"void main() {\n" CELL_FROM("gl_VertexID") "  v = col;\n"
									   "}\n";
static const char vs_instance[] = "#version 300 es\n"
				  "in vec4 col;\n"
				  "out vec4 v;\n"
				  "void main() {\n" CELL_FROM("gl_InstanceID") "  v = col;\n"
									       "}\n";
/* an integer array (glVertexAttribIPointer), shown as a colour */
static const char vs_integer[] =
    "#version 300 es\n"
    "in uvec4 col;\n"
    "out vec4 v;\n"
    "void main() {\n" CELL_FROM("gl_VertexID") "  v = vec4(col) / 255.0;\n"
					       "}\n";
static const char fs_col[] = "#version 300 es\n"
			     "precision mediump float;\n"
			     "in vec4 v;\n"
			     "out vec4 o;\n"
			     "void main() { o = v; }\n";
/* a uniform block read in the fragment shader, at the cell's index */
static const char vs_cell[] = "#version 300 es\n"
			      "flat out int cell;\n"
			      "void main() {\n" CELL_FROM("gl_VertexID") "  cell = i;\n"
									 "}\n";
static const char fs_ubo[] = "#version 300 es\n"
			     "precision highp float;\n"
			     "precision highp int;\n"
			     "layout(std140) uniform U { vec4 c[64]; };\n"
			     "flat in int cell;\n"
			     "out vec4 o;\n"
			     "void main() { o = c[cell]; }\n";
/* the same in the vertex shader */
static const char vs_ubo[] = "#version 300 es\n"
			     "layout(std140) uniform U { vec4 c[64]; };\n"
			     "out vec4 v;\n"
			     "void main() {\n" CELL_FROM("gl_VertexID") "  v = c[i];\n"
									"}\n";
/* texelFetch of a 4 x 4 texture at the cell's coordinates in the grid: outside past 3 */
static const char fs_fetch[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "precision highp int;\n"
			       "uniform highp sampler2D t;\n"
			       "flat in int cell;\n"
			       "out vec4 o;\n"
			       "void main() { o = texelFetch(t, ivec2(cell % 8, cell / 8), 0); }\n";
static const char *const names[] = { "col", NULL };

/* The first config of exactly RGBA8 for ES 3 pbuffers (as llvmpipe_make_current picks). */
static EGLConfig rgba8_config(EGLDisplay dpy)
{
	EGLConfig config = llvmpipe_config(dpy, EGL_PBUFFER_BIT, 3, 8, 8, 8, 8);

	if (!config)
		llvmpipe_fail("no RGBA8 config (0x%x)", eglGetError());
	return config;
}

struct surface_context {
	EGLSurface surf;
	EGLContext ctx;
};

/*
 * An ES 3.0 context, robust or not, with a pbuffer of its own.  Mesa takes
 * EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT on a display that lists
 * EGL_EXT_create_context_robustness (as llvmpipe's surfaceless one does)
 * and then reports GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT; checked below.
 */
static struct surface_context context_new(EGLDisplay dpy, EGLConfig config, bool robust)
{
	const EGLint pb[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION,
			      3,
			      EGL_CONTEXT_MINOR_VERSION,
			      0,
			      EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
			      robust ? EGL_TRUE : EGL_FALSE,
			      EGL_NONE };
	struct surface_context sc;

	sc.surf = eglCreatePbufferSurface(dpy, config, pb);
	sc.ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca);
	if (sc.surf == EGL_NO_SURFACE || sc.ctx == EGL_NO_CONTEXT)
		llvmpipe_fail("no %s context (0x%x)", robust ? "robust" : "plain", eglGetError());
	return sc;
}

static void make_current(EGLDisplay dpy, const struct surface_context *sc)
{
	if (!eglMakeCurrent(dpy, sc->surf, sc->surf, sc->ctx))
		llvmpipe_fail("eglMakeCurrent: 0x%x", eglGetError());
	glViewport(0, 0, W, H);
}

static void clear(void)
{
	glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
}

/* The image, within 1 of llvmpipe's a channel (normalization's rounding), and the error. */
static void read_back(const char *name)
{
	uint8_t px[W * H * 4];
	char n[200];

	memset(px, 0xcd, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	snprintf(n, sizeof(n), "~1.1.1.1~%s", name);
	llvmpipe_record(n, px, sizeof(px));
	llvmpipe_record_error(name);
}

/* A colour a vertex array element: none is black, and alpha is 1, unlike what is out of range. */
static void element_colour(unsigned i, uint8_t c[4])
{
	c[0] = (uint8_t)(40 + 6 * i);
	c[1] = (uint8_t)(250 - 5 * i);
	c[2] = (uint8_t)((i * 37) & 0xff);
	c[3] = 255;
}

static GLuint buffer_of(GLenum target, const void *data, GLsizeiptr size)
{
	GLuint b;

	glGenBuffers(1, &b);
	glBindBuffer(target, b);
	glBufferData(target, size, data, GL_STATIC_DRAW);
	return b;
}

/* 32 RGBA8 colours, 128 bytes */
static GLuint colours_buffer(void)
{
	uint8_t cols[32][4];

	for (unsigned i = 0; i < 32; i++)
		element_colour(i, cols[i]);
	return buffer_of(GL_ARRAY_BUFFER, cols, sizeof(cols));
}

/* indices past the 32 elements, some far past: 60000 * 4 bytes is well beyond the buffer's page */
static const uint16_t far_indices[] = { 1, 6, 30, 31, 33, 45, 62, 60000, 65535 };

static void vertex_arrays(GLuint cols)
{
	GLuint vao, prog, iprog, instprog, elements, partial;

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnableVertexAttribArray(0);
	prog = llvmpipe_program(vs_vertex, fs_col, names);

	/* a range past the end: vertices 24..39 of 32 */
	glBindBuffer(GL_ARRAY_BUFFER, cols);
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, NULL);
	clear();
	glDrawArrays(GL_POINTS, 24, 16);
	read_back("draw_arrays_past_end");

	/* indices past the end, from an element buffer */
	elements = buffer_of(GL_ELEMENT_ARRAY_BUFFER, far_indices, sizeof(far_indices));
	clear();
	glDrawElements(GL_POINTS, sizeof(far_indices) / sizeof(far_indices[0]), GL_UNSIGNED_SHORT,
		       NULL);
	read_back("draw_elements_past_end");
	/* and through glDrawRangeElements, whose range (a promise) leaves them out */
	clear();
	glDrawRangeElements(GL_POINTS, 0, 31, sizeof(far_indices) / sizeof(far_indices[0]),
			    GL_UNSIGNED_SHORT, NULL);
	read_back("draw_range_elements_past_end");

	/* the array from an offset: 12 of the 32 elements are after element 20 */
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0,
			      (const void *)(uintptr_t)(20 * 4));
	clear();
	glDrawArrays(GL_POINTS, 0, 16);
	read_back("array_at_offset_past_end");

	/*
	 * vec3 floats in 100 bytes: eight whole elements, the ninth's last
	 * word outside; a vec3 reads as (0, 0, 0, 1) outside
	 */
	{
		float f[25];

		for (unsigned i = 0; i < 25; i++)
			f[i] = (float)((i * 7) % 10) / 10.0f;
		partial = buffer_of(GL_ARRAY_BUFFER, f, sizeof(f));
	}
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 12, NULL);
	clear();
	glDrawArrays(GL_POINTS, 0, 16);
	read_back("element_partly_outside");

	/* an integer array past its end */
	iprog = llvmpipe_program(vs_integer, fs_col, names);
	glBindBuffer(GL_ARRAY_BUFFER, cols);
	glVertexAttribIPointer(0, 4, GL_UNSIGNED_BYTE, 0, NULL);
	clear();
	glDrawArrays(GL_POINTS, 20, 20);
	read_back("integer_array_past_end");

	/* instanced arrays: 10 elements for 16 instances at divisor 1, 5 at divisor 2 */
	instprog = llvmpipe_program(vs_instance, fs_col, names);
	glBindBuffer(GL_ARRAY_BUFFER, cols);
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0,
			      (const void *)(uintptr_t)(22 * 4));
	glVertexAttribDivisor(0, 1);
	clear();
	glDrawArraysInstanced(GL_POINTS, 0, 1, 16);
	read_back("instanced_past_end");
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0,
			      (const void *)(uintptr_t)(27 * 4));
	glVertexAttribDivisor(0, 2);
	clear();
	glDrawArraysInstanced(GL_POINTS, 0, 1, 16);
	read_back("instanced_divisor_2_past_end");
	glVertexAttribDivisor(0, 0);

	glUseProgram(0);
	glDeleteProgram(prog);
	glDeleteProgram(iprog);
	glDeleteProgram(instprog);
	glDeleteBuffers(1, &elements);
	glDeleteBuffers(1, &partial);
	glBindVertexArray(0);
	glDeleteVertexArrays(1, &vao);
}

/* 64 vec4s, the i-th a colour of i */
static GLuint ubo_buffer(void)
{
	float c[64][4];

	for (unsigned i = 0; i < 64; i++) {
		uint8_t b[4];

		element_colour(i % 32, b);
		for (unsigned k = 0; k < 4; k++)
			c[i][k] = (float)b[k] / 255.0f;
	}
	return buffer_of(GL_UNIFORM_BUFFER, c, sizeof(c));
}

static void uniform_blocks(void)
{
	GLuint ubo = ubo_buffer(), vao, fprog, vprog;

	/* points with no attributes */
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	fprog = llvmpipe_program(vs_cell, fs_ubo, NULL);
	glUniformBlockBinding(fprog, glGetUniformBlockIndex(fprog, "U"), 2);
	vprog = llvmpipe_program(vs_ubo, fs_col, NULL);
	glUniformBlockBinding(vprog, glGetUniformBlockIndex(vprog, "U"), 2);

	/* 16 of the block's 64 vec4s bound, from the buffer's 16th */
	glBindBufferRange(GL_UNIFORM_BUFFER, 2, ubo, 256, 256);
	glUseProgram(fprog);
	clear();
	glDrawArrays(GL_POINTS, 0, 32);
	read_back("fragment_ubo_past_range");
	glUseProgram(vprog);
	clear();
	glDrawArrays(GL_POINTS, 0, 32);
	read_back("vertex_ubo_past_range");

	/* the buffer shrunk under the range: 8 vec4s of it are left from 256 */
	glBindBufferRange(GL_UNIFORM_BUFFER, 2, ubo, 256, 512);
	{
		float c[24][4];

		for (unsigned i = 0; i < 24; i++)
			for (unsigned k = 0; k < 4; k++)
				c[i][k] = k == 3 ? 1.0f : (float)((i * 3 + k) % 8) / 8.0f;
		glBindBuffer(GL_UNIFORM_BUFFER, ubo);
		glBufferData(GL_UNIFORM_BUFFER, sizeof(c), c, GL_STATIC_DRAW);
	}
	glUseProgram(fprog);
	clear();
	glDrawArrays(GL_POINTS, 0, 32);
	read_back("fragment_ubo_buffer_shrunk");

	glUseProgram(0);
	glDeleteProgram(fprog);
	glDeleteProgram(vprog);
	glDeleteBuffers(1, &ubo);
	glBindVertexArray(0);
	glDeleteVertexArrays(1, &vao);
}

static void texel_fetch(void)
{
	uint8_t texels[16][4];
	GLuint tex, vao, prog;

	for (unsigned i = 0; i < 16; i++)
		element_colour(2 * i, texels[i]);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	prog = llvmpipe_program(vs_cell, fs_fetch, NULL);
	clear();
	glDrawArrays(GL_POINTS, 0, 64);
	read_back("texel_fetch_outside");
	glUseProgram(0);
	glDeleteProgram(prog);
	glBindVertexArray(0);
	glDeleteVertexArrays(1, &vao);
	glDeleteTextures(1, &tex);
}

/* Draws in range, in a context of their own: what the innocent context checks. */
static void innocent_draw(const char *name)
{
	GLuint cols = colours_buffer(), vao, prog;

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, NULL);
	prog = llvmpipe_program(vs_vertex, fs_col, names);
	clear();
	glDrawArrays(GL_POINTS, 0, 32);
	read_back(name);
	glUseProgram(0);
	glDeleteProgram(prog);
	glDeleteBuffers(1, &cols);
	glBindVertexArray(0);
	glDeleteVertexArrays(1, &vao);
}

/*
 * The far reads in a context that is not robust: whatever they give, or a
 * fault that loses the context, is the implementation's; printed only.
 */
static void guilty_draws(void)
{
	static const uint32_t huge[] = { 0, 1, 0x7fffffffu, 0xfffffff0u };
	GLuint cols = colours_buffer(), vao, elements, prog;
	uint8_t px[W * H * 4];

	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, NULL);
	prog = llvmpipe_program(vs_vertex, fs_col, names);
	elements = buffer_of(GL_ELEMENT_ARRAY_BUFFER, huge, sizeof(huge));
	clear();
	glDrawElements(GL_POINTS, 4, GL_UNSIGNED_INT, NULL);
	glFinish();
	memset(px, 0, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	llvmpipe_record("#not_robust_far_indices", px, sizeof(px));
	llvmpipe_record_error("#not_robust_far_indices");
	glUseProgram(0);
	glDeleteProgram(prog);
	glDeleteBuffers(1, &elements);
	glDeleteBuffers(1, &cols);
	glBindVertexArray(0);
	glDeleteVertexArrays(1, &vao);
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	struct surface_context robust, innocent, guilty;
	EGLConfig config;
	GLint flags = -1;
	GLuint cols;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "workload: no display (0x%x)\n", eglGetError());
		return 1;
	}
	config = rgba8_config(dpy);
	robust = context_new(dpy, config, true);
	innocent = context_new(dpy, config, false);
	guilty = context_new(dpy, config, false);

	make_current(dpy, &robust);
	/*
	 * GL_CONTEXT_FLAGS is ES 3.2's (and KHR_debug's): Mesa answers it with
	 * its robust-access bit, which shows the context is robust there; ours
	 * has no such query yet.  Printed, its error cleared.
	 */
	glGetIntegerv(0x821e /* GL_CONTEXT_FLAGS */, &flags);
	llvmpipe_record("#robust_context_flags", &flags, sizeof(flags));
	glGetError();
	cols = colours_buffer();
	vertex_arrays(cols);
	uniform_blocks();
	texel_fetch();
	glDeleteBuffers(1, &cols);
	/* after all that the context is not lost: it still draws, and right */
	innocent_draw("robust_context_still_draws");

	make_current(dpy, &innocent);
	innocent_draw("innocent_before");
	make_current(dpy, &guilty);
	guilty_draws();
	make_current(dpy, &innocent);
	innocent_draw("innocent_after");

	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, guilty.ctx);
	eglDestroySurface(dpy, guilty.surf);
	eglDestroyContext(dpy, innocent.ctx);
	eglDestroySurface(dpy, innocent.surf);
	llvmpipe_release(dpy, robust.surf, robust.ctx);
	return 0;
}

int main(int argc, char **argv)
{
	return llvmpipe_main(argc, argv, workload, 33);
}

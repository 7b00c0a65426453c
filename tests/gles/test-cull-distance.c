/*
 * test-cull-distance: GL_EXT_clip_cull_distance through glvnd over the
 * real stack, compared with Mesa's llvmpipe (llvmpipe.h) running the same
 * calls: its limits, its shading language (the macro, implicitly sized
 * and redeclared arrays, the compile errors the extension defines), and
 * draws culled by it -- a grid of triangles whose cull distances are
 * negative at some, all or none of their vertices, lines and points, two
 * cull distances beside an enabled clip distance, and a fragment shader
 * reading both arrays.  A primitive is discarded only when one of its
 * cull distances is negative at every vertex; one with a negative vertex
 * and a positive one is drawn whole, not clipped.
 */
#include <math.h>
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

#define W 64
#define H 64
#define N 8 /* the grid's cells a side */

#define MAX_CLIP_DISTANCES		     0x0D32 /* GL_MAX_CLIP_DISTANCES_EXT */
#define MAX_CULL_DISTANCES		     0x82F9 /* GL_MAX_CULL_DISTANCES_EXT */
#define MAX_COMBINED_CLIP_AND_CULL_DISTANCES 0x82FA
#define CLIP_DISTANCE0			     0x3000 /* GL_CLIP_DISTANCE0_EXT */

/* pos (0) in clip space, d (1): the cull distances of the vertex */
static const char vs_one[] = "#version 300 es\n"
			     "#extension GL_EXT_clip_cull_distance : require\n"
			     "in vec4 pos;\n"
			     "in vec4 d;\n"
			     "out vec4 v_col;\n"
			     "void main() {\n"
			     "  gl_Position = pos;\n"
			     "  gl_PointSize = 3.0;\n"
			     "  gl_CullDistance[0] = d.x;\n"
			     "  v_col = vec4(0.5 + 0.5 * pos.xy, d.x > 0.0 ? 1.0 : 0.25, 1.0);\n"
			     "}\n";
/* two cull distances and a clip distance, a redeclared array indexed in a loop */
static const char vs_two[] = "#version 300 es\n"
			     "#extension GL_EXT_clip_cull_distance : enable\n"
			     "in vec4 pos;\n"
			     "in vec4 d;\n"
			     "out vec4 v_col;\n"
			     "out highp float gl_CullDistance[2];\n"
			     "void main() {\n"
			     "  gl_Position = pos;\n"
			     "  for (int i = 0; i < 2; i++)\n"
			     "    gl_CullDistance[i] = d[i];\n"
			     "  gl_ClipDistance[0] = 0.3 - pos.y;\n"
			     "  v_col = vec4(0.5 + 0.5 * pos.xy, 0.5, 1.0);\n"
			     "}\n";
static const char vs_two_noclip[] = "#version 300 es\n"
				    "#extension GL_EXT_clip_cull_distance : enable\n"
				    "in vec4 pos;\n"
				    "in vec4 d;\n"
				    "out vec4 v_col;\n"
				    "void main() {\n"
				    "  gl_Position = pos;\n"
				    "  gl_CullDistance[0] = d[0];\n"
				    "  gl_CullDistance[1] = d[1];\n"
				    "  v_col = vec4(0.5 + 0.5 * pos.xy, 0.5, 1.0);\n"
				    "}\n";
static const char fs_col[] = "#version 300 es\n"
			     "precision mediump float;\n"
			     "in vec4 v_col;\n"
			     "out vec4 o;\n"
			     "void main() { o = v_col; }\n";
/* the distances as the fragment shader reads them, interpolated */
static const char vs_read[] = "#version 300 es\n"
			      "#extension GL_EXT_clip_cull_distance : require\n"
			      "in vec4 pos;\n"
			      "in vec4 d;\n"
			      "void main() {\n"
			      "  gl_Position = pos;\n"
			      "  gl_ClipDistance[0] = 0.5 + 0.5 * pos.x;\n"
			      "  gl_CullDistance[0] = 0.5 + 0.5 * pos.y;\n"
			      "}\n";
static const char fs_read[] = "#version 300 es\n"
			      "#extension GL_EXT_clip_cull_distance : require\n"
			      "precision mediump float;\n"
			      "out vec4 o;\n"
			      "void main() {\n"
			      "  o = vec4(gl_ClipDistance[0], gl_CullDistance[0],\n"
			      "           float(gl_MaxCombinedClipAndCullDistances) / 8.0, 1.0);\n"
			      "}\n";
static const char *const names[] = { "pos", "d", NULL };

/* Whether the workload runs on this driver (not on llvmpipe). */
static bool ours(void)
{
	const char *v = (const char *)glGetString(GL_VENDOR);

	return v && !strcmp(v, "AGX driver stack");
}

static void read_pixels(uint8_t *px)
{
	memset(px, 0xcd, W * H * 4);
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

/* The shaders the compile records are of; 1 where llvmpipe and this driver must agree. */
static const struct {
	const char *name;
	GLenum stage;
	const char *source;
} compiles[] = {
	{ "macro_300", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#if !defined(GL_EXT_clip_cull_distance) || GL_EXT_clip_cull_distance != 1\n"
	  "#error no macro\n"
	  "#endif\n"
	  "void main() { gl_Position = vec4(0.0); }\n" },
	{ "constants", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "void main() { gl_Position = vec4(float(gl_MaxClipDistances + gl_MaxCullDistances +\n"
	  "                                       gl_MaxCombinedClipAndCullDistances)); }\n" },
	{ "const_index", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "#define K 2\n"
	  "const int j = 3;\n"
	  "void main() { gl_Position = vec4(0.0); gl_CullDistance[K] = 1.0;\n"
	  "  gl_CullDistance[j] = 1.0; }\n" },
	{ "combined_8", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "void main() { gl_Position = vec4(0.0); gl_ClipDistance[3] = 1.0;\n"
	  "  gl_CullDistance[3] = 1.0; }\n" },
	{ "combined_9", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "void main() { gl_Position = vec4(0.0); gl_ClipDistance[4] = 1.0;\n"
	  "  gl_CullDistance[3] = 1.0; }\n" },
	{ "redeclared_combined_9", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "out highp float gl_ClipDistance[6];\n"
	  "out highp float gl_CullDistance[3];\n"
	  "void main() { gl_Position = vec4(0.0); gl_ClipDistance[0] = 1.0; }\n" },
	{ "index_past_max", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "#extension GL_EXT_clip_cull_distance : enable\n"
	  "void main() { gl_Position = vec4(0.0); gl_CullDistance[8] = 1.0; }\n" },
	{ "not_enabled", GL_VERTEX_SHADER,
	  "#version 300 es\n"
	  "void main() { gl_Position = vec4(0.0); gl_CullDistance[0] = 1.0; }\n" },
	{ "fragment_read", GL_FRAGMENT_SHADER, fs_read },
};

/*
 * The grid: N x N cells of two triangles each, a vertex's cull distance
 * a function of where it is, so that cells are kept whole, culled, or
 * kept with some of their vertices negative.
 */
static float grid_pos[N * N * 6][4], grid_d[N * N * 6][4];
/* a short line inside each cell, away from its edges */
static float line_pos[N * N * 2][4], line_d[N * N * 2][4];

static float distance0(float x, float y)
{
	return sinf(4.0f * x + 2.5f * y);
}

static float distance1(float x, float y)
{
	return cosf(3.0f * x - 1.5f * y) + 0.3f;
}

static void make_lines(void)
{
	for (unsigned c = 0; c < N * N; c++) {
		float cx = -0.95f + 1.9f * ((float)(c % N) + 0.5f) / N;
		float cy = -0.95f + 1.9f * ((float)(c / N) + 0.5f) / N;

		for (unsigned e = 0; e < 2; e++) {
			float *p = line_pos[2 * c + e], *d = line_d[2 * c + e];

			p[0] = cx + (e ? 0.07f : -0.07f);
			p[1] = cy + (e ? 0.03f : -0.03f);
			p[2] = 0;
			p[3] = 1;
			/* one end's distance 0.5 cells away: some lines have one negative end */
			d[0] = distance0(p[0] + (e ? 0.1f : -0.1f), p[1]);
			d[1] = distance1(p[0], p[1]);
			d[2] = d[3] = 0;
		}
	}
}

/* Which cells have a lit pixel (W x H pixels of N x N cells): culling is per primitive. */
static void record_cells(const char *name)
{
	uint8_t px[W * H * 4], lit[N * N] = { 0 };

	read_pixels(px);
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			lit[(y * N / H) * N + x * N / W] |= px[(y * W + x) * 4] != 0x1a;
	llvmpipe_record(name, lit, sizeof(lit));
	llvmpipe_record_error(name);
}

static void make_grid(void)
{
	unsigned v = 0;

	for (unsigned y = 0; y < N; y++)
		for (unsigned x = 0; x < N; x++) {
			static const unsigned corner[6][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 },
							       { 1, 0 }, { 1, 1 }, { 0, 1 } };

			for (unsigned c = 0; c < 6; c++, v++) {
				float px = -0.95f + 1.9f * (float)(x + corner[c][0]) / N;
				float py = -0.95f + 1.9f * (float)(y + corner[c][1]) / N;

				grid_pos[v][0] = px;
				grid_pos[v][1] = py;
				grid_pos[v][2] = 0;
				grid_pos[v][3] = 1;
				/* bands across the grid: negative, positive, mixed */
				grid_d[v][0] = distance0(px, py);
				grid_d[v][1] = distance1(px, py);
				grid_d[v][2] = grid_d[v][3] = 0;
			}
		}
}

static void read_back(const char *name)
{
	uint8_t px[W * H * 4];
	char n[200];

	read_pixels(px);
	snprintf(n, sizeof(n), "~2.2.2.2~%s", name);
	llvmpipe_record(n, px, sizeof(px));
	llvmpipe_record_error(name);
}

static void clear(void)
{
	glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
}

static void limits(void)
{
	static const GLenum which[] = { MAX_CLIP_DISTANCES, MAX_CULL_DISTANCES,
					MAX_COMBINED_CLIP_AND_CULL_DISTANCES };
	GLint n = 0, found = 0;

	for (unsigned i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		GLint v = -1;
		char name[64];

		glGetIntegerv(which[i], &v);
		/*
		 * Mesa 22.3 answers the two cull limits with INVALID_ENUM in
		 * ES contexts, though it lists the extension: ours are checked
		 * here, printed beside Mesa's
		 */
		snprintf(name, sizeof(name), "%slimit_0x%x", i ? "#" : "", which[i]);
		llvmpipe_record(name, &v, sizeof(v));
		if (ours() && v != 8)
			llvmpipe_fail("limit 0x%x is %d, not 8", which[i], v);
		glGetError();
	}
	glGetIntegerv(GL_NUM_EXTENSIONS, &n);
	for (GLint i = 0; i < n; i++)
		found |= !strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i),
				 "GL_EXT_clip_cull_distance");
	llvmpipe_record("extension_listed", &found, sizeof(found));
}

static void compile_records(void)
{
	for (unsigned i = 0; i < sizeof(compiles) / sizeof(compiles[0]); i++) {
		GLuint s = glCreateShader(compiles[i].stage);
		GLint ok = -1;
		char name[64];

		glShaderSource(s, 1, &compiles[i].source, NULL);
		glCompileShader(s);
		glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
		snprintf(name, sizeof(name), "compiles_%s", compiles[i].name);
		llvmpipe_record(name, &ok, sizeof(ok));
		glDeleteShader(s);
	}
}

static int workload(void)
{
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLSurface surf;
	EGLContext ctx;
	GLuint one, two, read;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !llvmpipe_make_current(dpy, 8, 8, 8, 8, 3, W, H, &surf, &ctx)) {
		fprintf(stderr, "workload: no context (0x%x)\n", eglGetError());
		return 1;
	}
	limits();
	compile_records();
	make_grid();
	make_lines();
	glViewport(0, 0, W, H);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, grid_pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, grid_d);

	one = llvmpipe_program(vs_one, fs_col, names);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
	read_back("triangles_one_distance");
	/* the cells' corners as points */
	clear();
	glDrawArrays(GL_POINTS, 0, N * N * 6);
	read_back("points_one_distance");
	/*
	 * lines, one a cell: their pixels differ from llvmpipe's at the ends
	 * (line rasterization, not culling), so which cells show one is compared
	 */
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, line_pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, line_d);
	clear();
	glDrawArrays(GL_LINES, 0, N * N * 2);
	record_cells("lines_one_distance_cells");
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, grid_pos);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, grid_d);

	two = llvmpipe_program(vs_two, fs_col, names);
	glEnable(CLIP_DISTANCE0);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
	read_back("two_distances_clip_enabled");
	glDisable(CLIP_DISTANCE0);
	/*
	 * A disabled plane clips nothing (GLES 3.2 section 12.4.2, which the
	 * extension adds): the image is that of the shader without the clip
	 * distance.  Mesa 22.3 clips by it all the same: checked on ours, the
	 * result printed beside Mesa's.
	 */
	{
		static uint8_t with[W * H * 4], without[W * H * 4];
		GLuint noclip = llvmpipe_program(vs_two_noclip, fs_col, names);
		int same;

		clear();
		glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
		read_pixels(without);
		glUseProgram(two);
		clear();
		glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
		read_pixels(with);
		same = !memcmp(with, without, sizeof(with));
		llvmpipe_record("#disabled_clip_distance_clips_nothing", &same, sizeof(same));
		if (ours() && !same)
			llvmpipe_fail("a disabled clip distance clipped");
		glDeleteProgram(noclip);
	}

	/* the same program again after another: its fragment shader's kill follows it */
	glUseProgram(one);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
	read_back("triangles_one_distance_again");

	read = llvmpipe_program(vs_read, fs_read, names);
	clear();
	glDrawArrays(GL_TRIANGLES, 0, N * N * 6);
	read_back("fragment_reads_distances");

	glUseProgram(0);
	glDeleteProgram(one);
	glDeleteProgram(two);
	glDeleteProgram(read);
	llvmpipe_release(dpy, surf, ctx);
	return 0;
}

int main(int argc, char **argv)
{
	return llvmpipe_main(argc, argv, workload, 26);
}

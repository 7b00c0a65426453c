/*
 * test-clip-distance: GL_APPLE_clip_distance through glvnd over the real
 * stack -- its state (GL_MAX_CLIP_DISTANCES_APPLE, the eight
 * CLIP_DISTANCEi_APPLE capabilities and their errors), its shading
 * language (the #extension line, the macro, gl_ClipDistance and
 * gl_MaxClipDistances in GLSL ES 1.00 and 3.00, and what stays refused),
 * and draws clipped by it: triangles, lines and points, one plane and two,
 * varyings interpolated at the new edges, with a point size written
 * before the distances.  The expected images follow from the planes
 * (GLES 3.0 section 2.17 with the extension's distances): each plane
 * keeps the pixels whose centre has a distance >= 0, the distances being
 * linear in x and y here.
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

#define MAX_CLIP_DISTANCES 0x0D32 /* GL_MAX_CLIP_DISTANCES_APPLE */
#define CLIP_DISTANCE0	   0x3000 /* GL_CLIP_DISTANCE0_APPLE .. 7 */
#define SIZE		   64

static struct test_stack_options options;
static EGLDisplay dpy;
static EGLConfig config;
static EGLContext ctx;

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

/* A shader of this source, compiled; *ok whether it did, log its log (size bytes). */
static GLuint compile(GLenum stage, const char *source, bool *ok, char *log, size_t size)
{
	GLuint s = glCreateShader(stage);
	GLint status = 0;

	glShaderSource(s, 1, &source, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &status);
	log[0] = '\0';
	if (!status)
		glGetShaderInfoLog(s, (GLsizei)size, NULL, log);
	*ok = status;
	return s;
}

/* Whether a shader of this source compiles. */
static bool compiles(GLenum stage, const char *source)
{
	char log[1024];
	bool ok;

	glDeleteShader(compile(stage, source, &ok, log, sizeof(log)));
	/* a TAP comment per line of the log: a bare line would break the TAP stream */
	for (char *line = log, *end; !ok && *line; line = end + (*end != '\0')) {
		end = line + strcspn(line, "\n");
		printf("# refused: %.*s\n", (int)(end - line), line);
	}
	return ok;
}

static GLuint shader(GLenum stage, const char *source)
{
	char log[2048];
	bool ok;
	GLuint s = compile(stage, source, &ok, log, sizeof(log));

	if (!ok)
		fail_msg("shader refused: %s", log);
	return s;
}

static GLuint program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram(), v = shader(GL_VERTEX_SHADER, vs),
	       f = shader(GL_FRAGMENT_SHADER, fs);
	GLint ok = 0;

	glAttachShader(p, v);
	glAttachShader(p, f);
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[2048] = "";

		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fail_msg("link failed: %s", log);
	}
	glDeleteShader(v);
	glDeleteShader(f);
	return p;
}

/* ---- state ---------------------------------------------------------------------------------- */

static void test_state(void **state)
{
	const char *ext = (const char *)glGetString(GL_EXTENSIONS);
	GLint max = 0;
	GLboolean b = GL_TRUE;

	(void)state;
	assert_non_null(ext);
	assert_non_null(strstr(ext, "GL_APPLE_clip_distance"));
	glGetIntegerv(MAX_CLIP_DISTANCES, &max);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(max, 8);
	for (GLenum i = 0; i < 8; i++) {
		assert_false(glIsEnabled(CLIP_DISTANCE0 + i));
		glEnable(CLIP_DISTANCE0 + i);
		assert_true(glIsEnabled(CLIP_DISTANCE0 + i));
		glGetBooleanv(CLIP_DISTANCE0 + i, &b);
		assert_int_equal(b, GL_TRUE);
		glDisable(CLIP_DISTANCE0 + i);
		glGetBooleanv(CLIP_DISTANCE0 + i, &b);
		assert_int_equal(b, GL_FALSE);
		assert_gl_error(GL_NO_ERROR);
	}
	/* a ninth plane is no capability */
	glEnable(CLIP_DISTANCE0 + 8);
	assert_gl_error(GL_INVALID_ENUM);
	assert_false(glIsEnabled(CLIP_DISTANCE0 + 8));
	assert_gl_error(GL_INVALID_ENUM);
}

/* ---- the shading language ------------------------------------------------------------------- */

static void test_compile(void **state)
{
	(void)state;
	/* 3.00 and 1.00 vertex shaders that enable it */
	assert_true(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
					       "#extension GL_APPLE_clip_distance : require\n"
					       "in vec4 pos;\n"
					       "void main() {\n"
					       "  gl_Position = pos;\n"
					       "  gl_ClipDistance[0] = pos.x;\n"
					       "  gl_ClipDistance[gl_MaxClipDistances - 1] = 1.0;\n"
					       "}\n"));
	assert_true(compiles(GL_VERTEX_SHADER, "#extension GL_APPLE_clip_distance : enable\n"
					       "attribute vec4 pos;\n"
					       "void main() {\n"
					       "  gl_Position = pos;\n"
					       "  gl_ClipDistance[1] = pos.y;\n"
					       "}\n"));
	/* the macro, in both stages, and gl_MaxClipDistances's value */
	assert_true(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
					       "#ifndef GL_APPLE_clip_distance\n"
					       "#error no macro\n"
					       "#endif\n"
					       "#extension GL_APPLE_clip_distance : require\n"
					       "int a[gl_MaxClipDistances == 8 ? 1 : -1];\n"
					       "void main() { gl_Position = vec4(a[0]); }\n"));
	assert_true(compiles(GL_FRAGMENT_SHADER, "#version 300 es\n"
						 "#if GL_APPLE_clip_distance != 1\n"
						 "#error no macro\n"
						 "#endif\n"
						 "#extension GL_APPLE_clip_distance : enable\n"
						 "precision mediump float;\n"
						 "out vec4 c;\n"
						 "void main() { c = vec4(1.0); }\n"));
	/* a shader that redeclares it with a size of its own */
	assert_true(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
					       "#extension GL_APPLE_clip_distance : require\n"
					       "out highp float gl_ClipDistance[2];\n"
					       "void main() {\n"
					       "  gl_Position = vec4(0.0);\n"
					       "  gl_ClipDistance[1] = 1.0;\n"
					       "}\n"));
	/* refused: without the extension, once disabled, in a fragment shader */
	assert_false(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
						"void main() {\n"
						"  gl_Position = vec4(0.0);\n"
						"  gl_ClipDistance[0] = 1.0;\n"
						"}\n"));
	assert_false(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
						"#extension GL_APPLE_clip_distance : disable\n"
						"void main() {\n"
						"  gl_Position = vec4(0.0);\n"
						"  gl_ClipDistance[0] = 1.0;\n"
						"}\n"));
	assert_false(compiles(GL_FRAGMENT_SHADER,
			      "#version 300 es\n"
			      "#extension GL_APPLE_clip_distance : require\n"
			      "precision mediump float;\n"
			      "out vec4 c;\n"
			      "void main() { c = vec4(gl_ClipDistance[0]); }\n"));
	/* an index past gl_MaxClipDistances */
	assert_false(compiles(GL_VERTEX_SHADER, "#version 300 es\n"
						"#extension GL_APPLE_clip_distance : require\n"
						"void main() {\n"
						"  gl_Position = vec4(0.0);\n"
						"  gl_ClipDistance[8] = 1.0;\n"
						"}\n"));
	/* errors keep their lines: the extension's line is the declaration's */
	{
		const char *src = "#version 300 es\n"
				  "#extension GL_APPLE_clip_distance : require\n"
				  "void main() {\n"
				  "  gl_Position = vec4(0.0);\n"
				  "  undeclared = 1.0;\n"
				  "}\n";
		GLuint s = glCreateShader(GL_VERTEX_SHADER);
		char log[1024] = "";

		glShaderSource(s, 1, &src, NULL);
		glCompileShader(s);
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		assert_non_null(strstr(log, "0:5:"));
		glDeleteShader(s);
	}
	assert_gl_error(GL_NO_ERROR);
}

/* ---- draws ---------------------------------------------------------------------------------- */

static const char *vs300 = "#version 300 es\n"
			   "#extension GL_APPLE_clip_distance : require\n"
			   "in vec4 pos;\n"
			   "out vec4 colour;\n"
			   "void main() {\n"
			   "  gl_Position = pos;\n"
			   "  gl_PointSize = 4.0;\n"
			   "  colour = vec4(pos.xy * 0.5 + 0.5, 0.25, 1.0);\n"
			   "  gl_ClipDistance[0] = pos.x;\n"
			   "  gl_ClipDistance[1] = pos.y - 0.5;\n"
			   "}\n";
static const char *fs300 = "#version 300 es\n"
			   "precision mediump float;\n"
			   "in vec4 colour;\n"
			   "out vec4 c;\n"
			   "void main() { c = colour; }\n";
static const char *vs100 = "#extension GL_APPLE_clip_distance : require\n"
			   "attribute vec4 pos;\n"
			   "varying vec4 colour;\n"
			   "void main() {\n"
			   "  gl_Position = pos;\n"
			   "  colour = vec4(pos.xy * 0.5 + 0.5, 0.25, 1.0);\n"
			   "  gl_ClipDistance[0] = pos.x;\n"
			   "  gl_ClipDistance[1] = pos.y - 0.5;\n"
			   "}\n";
static const char *fs100 = "precision mediump float;\n"
			   "varying vec4 colour;\n"
			   "void main() { gl_FragColor = colour; }\n";

struct target {
	GLuint fbo, rb;
};

static void target_begin(struct target *t)
{
	glGenRenderbuffers(1, &t->rb);
	glBindRenderbuffer(GL_RENDERBUFFER, t->rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
	glGenFramebuffers(1, &t->fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t->rb);
	assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, SIZE, SIZE);
}

static void target_end(struct target *t)
{
	glDeleteFramebuffers(1, &t->fbo);
	glDeleteRenderbuffers(1, &t->rb);
}

/* Draws count vertices of mode from xy pairs with the program, planes enabled by bit, and reads the
 * image. */
static void draw(GLuint prog, GLenum mode, const float *xy, unsigned count, unsigned planes,
		 uint8_t out[SIZE][SIZE][4])
{
	GLuint vbo;

	glClearColor(0, 0, 0, 0);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog);
	for (unsigned i = 0; i < 8; i++) {
		if (planes >> i & 1)
			glEnable(CLIP_DISTANCE0 + i);
		else
			glDisable(CLIP_DISTANCE0 + i);
	}
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, count * 2 * sizeof(float), xy, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	glEnableVertexAttribArray(0);
	glDrawArrays(mode, 0, (GLsizei)count);
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, out);
	glDisableVertexAttribArray(0);
	glDeleteBuffers(1, &vbo);
	assert_gl_error(GL_NO_ERROR);
}

static const float quad[] = { -1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1 };

/* The pixel centre's NDC coordinate of column or row i. */
static float ndc(unsigned i)
{
	return (i + 0.5f) * 2.0f / SIZE - 1.0f;
}

/*
 * The quad under the planes: a pixel is drawn when its centre is inside
 * every enabled plane (distance 0: x; distance 1: y - 0.5), and then has
 * the colour the unclipped quad has there -- the new vertices' varyings
 * are interpolated as the old ones, not made up.
 */
static void check_quad(uint8_t img[SIZE][SIZE][4], uint8_t full[SIZE][SIZE][4], unsigned planes)
{
	unsigned drawn = 0;

	for (unsigned y = 0; y < SIZE; y++)
		for (unsigned x = 0; x < SIZE; x++) {
			bool in =
			    (!(planes & 1) || ndc(x) >= 0) && (!(planes & 2) || ndc(y) - 0.5f >= 0);

			if (in) {
				for (unsigned c = 0; c < 4; c++)
					if (abs(img[y][x][c] - full[y][x][c]) > 1)
						fail_msg(
						    "pixel %u,%u component %u: %u, unclipped %u", x,
						    y, c, img[y][x][c], full[y][x][c]);
				drawn++;
			} else if (img[y][x][3]) {
				fail_msg("pixel %u,%u drawn outside the planes %#x", x, y, planes);
			}
		}
	assert_true(drawn > 0);
}

static void quads(GLuint prog)
{
	static uint8_t full[SIZE][SIZE][4], img[SIZE][SIZE][4];

	draw(prog, GL_TRIANGLES, quad, 6, 0, full);
	/* nothing clipped: the colour ramp everywhere */
	for (unsigned y = 0; y < SIZE; y++)
		for (unsigned x = 0; x < SIZE; x++) {
			assert_int_equal(full[y][x][3], 255);
			assert_true(
			    abs(full[y][x][0] - (int)((ndc(x) * 0.5f + 0.5f) * 255 + 0.5f)) <= 1);
		}
	draw(prog, GL_TRIANGLES, quad, 6, 1, img);
	check_quad(img, full, 1);
	draw(prog, GL_TRIANGLES, quad, 6, 2, img);
	check_quad(img, full, 2);
	draw(prog, GL_TRIANGLES, quad, 6, 3, img);
	check_quad(img, full, 3);
}

static void test_triangles_300(void **state)
{
	struct target t;
	GLuint prog;

	(void)state;
	target_begin(&t);
	prog = program(vs300, fs300);
	quads(prog);
	glDeleteProgram(prog);
	target_end(&t);
}

static void test_triangles_100(void **state)
{
	struct target t;
	GLuint prog;

	(void)state;
	target_begin(&t);
	prog = program(vs100, fs100);
	quads(prog);
	glDeleteProgram(prog);
	target_end(&t);
}

/* The drawn pixels of img left and right of its middle column. */
static void count_halves(uint8_t img[SIZE][SIZE][4], unsigned *left, unsigned *right)
{
	*left = *right = 0;
	for (unsigned y = 0; y < SIZE; y++)
		for (unsigned x = 0; x < SIZE; x++) {
			*left += x < SIZE / 2 && img[y][x][3];
			*right += x >= SIZE / 2 && img[y][x][3];
		}
}

/* A line across the middle row, and points: plane 0 keeps x >= 0. */
static void test_lines_points(void **state)
{
	static uint8_t img[SIZE][SIZE][4];
	const float line[] = { -1, ndc(SIZE / 2), 1, ndc(SIZE / 2) };
	const float points[] = { -0.5f, 0, 0.5f, 0 };
	struct target t;
	unsigned row = SIZE / 2, left, right;
	GLuint prog;

	(void)state;
	target_begin(&t);
	prog = program(vs300, fs300);
	draw(prog, GL_LINES, line, 2, 0, img);
	for (unsigned x = 0; x < SIZE; x++)
		assert_int_equal(img[row][x][3], 255);
	draw(prog, GL_LINES, line, 2, 1, img);
	for (unsigned x = 0; x < SIZE; x++)
		assert_int_equal(img[row][x][3], ndc(x) >= 0 ? 255 : 0);

	/* points of size 4 (written before the distances): the one left of x = 0 goes */
	draw(prog, GL_POINTS, points, 2, 0, img);
	count_halves(img, &left, &right);
	assert_int_equal(left, 16);
	assert_int_equal(right, 16);
	draw(prog, GL_POINTS, points, 2, 1, img);
	count_halves(img, &left, &right);
	assert_int_equal(left, 0);
	assert_int_equal(right, 16);
	glDeleteProgram(prog);
	target_end(&t);
}

/* ---- setup ---------------------------------------------------------------------------------- */

static struct egl_stack fixture;

static int setup(void **state)
{
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };

	(void)state;
	if (egl_stack_setup(&fixture, &options, 1) < 0)
		return -1;
	dpy = fixture.dpy;
	config = fixture.config;
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	return egl_stack_teardown(&fixture) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),	      cmocka_unit_test(test_compile),
		cmocka_unit_test(test_triangles_300), cmocka_unit_test(test_triangles_100),
		cmocka_unit_test(test_lines_points),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

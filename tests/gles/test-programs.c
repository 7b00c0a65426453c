/*
 * test-programs: shaders and programs (GLES 3.0.6 sections 2.11, 2.12,
 * 6.1.12) through glvnd's libEGL and libGLESv2 over the real stack:
 * shader objects and compile logs, each link rule, the introspection of
 * a program's attributes, uniforms (every type, arrays, structs), uniform
 * blocks and fragment outputs, glUniform* and glGetUniform* round trips
 * and their errors, transform feedback varyings, program binaries,
 * deferred deletes, sharing between contexts, and ES 3.0's shaders and
 * functions on an ES 2.0 request (an ES 3.0 context).
 */
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

#include "stack.h"

static struct test_stack_options options;

struct fixture {
	struct test_stack stack;
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext es3, shared, other;
	EGLContext es2_request; /* asked for as ES 2.0: an ES 3.0 context all the same */
};

#define assert_gl_error(expected) assert_int_equal(glGetError(), (expected))

static void make_current(struct fixture *f, EGLContext ctx)
{
	assert_true(eglMakeCurrent(f->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_gl_error(GL_NO_ERROR);
}

/* A shader of source, compiled; its compile status must be ok. */
static GLuint shader(GLenum type, const char *source, bool ok)
{
	GLuint s = glCreateShader(type);
	GLint status = -1, len = -1;
	char log[4096] = "";

	assert_int_not_equal(s, 0);
	glShaderSource(s, 1, &source, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &status);
	glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
	glGetShaderInfoLog(s, sizeof(log), NULL, log);
	if (status != ok)
		fprintf(stderr, "# compile of\n%s\n# said %d: %s\n", source, status, log);
	assert_int_equal(status, ok);
	assert_int_equal(len, log[0] ? (GLint)strlen(log) + 1 : 0);
	assert_gl_error(GL_NO_ERROR);
	return s;
}

/* A program of the two shaders' sources; *log gets its info log */
static GLuint program_log(const char *vs, const char *fs, bool ok, char *log, size_t size)
{
	GLuint p = glCreateProgram();
	GLint status = -1;

	if (vs) {
		GLuint s = shader(GL_VERTEX_SHADER, vs, true);

		glAttachShader(p, s);
		glDeleteShader(s);
	}
	if (fs) {
		GLuint s = shader(GL_FRAGMENT_SHADER, fs, true);

		glAttachShader(p, s);
		glDeleteShader(s);
	}
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &status);
	log[0] = '\0';
	glGetProgramInfoLog(p, (GLsizei)size, NULL, log);
	if (status != ok)
		fprintf(stderr, "# link said %d: %s\n", status, log);
	assert_int_equal(status, ok);
	assert_gl_error(GL_NO_ERROR);
	return p;
}

static GLuint program(const char *vs, const char *fs)
{
	char log[4096];

	return program_log(vs, fs, true, log, sizeof(log));
}

/* A program that must fail to link, with want in its log. */
static void link_fails(const char *vs, const char *fs, const char *want)
{
	char log[4096];
	GLuint p = program_log(vs, fs, false, log, sizeof(log));

	if (!strstr(log, want))
		fprintf(stderr, "# wanted \"%s\" in the log: %s\n", want, log);
	assert_non_null(strstr(log, want));
	glDeleteProgram(p);
	assert_gl_error(GL_NO_ERROR);
}

static const char vs100[] = "attribute vec4 p;\n"
			    "void main() { gl_Position = p; }\n";
static const char fs100[] = "precision mediump float;\n"
			    "void main() { gl_FragColor = vec4(1.0); }\n";
static const char vs300[] = "#version 300 es\n"
			    "in vec4 p;\n"
			    "void main() { gl_Position = p; }\n";
static const char fs300[] = "#version 300 es\n"
			    "precision mediump float;\n"
			    "out vec4 c;\n"
			    "void main() { c = vec4(1.0); }\n";

/* ---- shader objects ------------------------------------------------------------------ */

static void test_shader_objects(void **state)
{
	struct fixture *f = *state;
	const char *parts[] = { "void main()", " { gl_Position = vec4(0.0); } // tail", "xyz" };
	const GLint lengths[] = { -1, 30, 0 };
	GLint value, range[2], precision;
	char buf[64];
	GLsizei len = -1;
	GLuint s, p, bin = 0;

	make_current(f, f->es3);
	assert_int_equal(glCreateShader(0x91B9 /* GL_COMPUTE_SHADER */), 0);
	assert_gl_error(GL_INVALID_ENUM);
	s = glCreateShader(GL_VERTEX_SHADER);
	p = glCreateProgram();
	assert_true(glIsShader(s));
	assert_false(glIsShader(p));
	assert_false(glIsProgram(s));
	assert_false(glIsShader(0));
	glGetShaderiv(s, GL_SHADER_TYPE, &value);
	assert_int_equal(value, GL_VERTEX_SHADER);
	glGetShaderiv(s, GL_COMPILE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetShaderiv(s, GL_DELETE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetShaderiv(s, GL_SHADER_SOURCE_LENGTH, &value);
	assert_int_equal(value, 0);
	glGetShaderiv(s, GL_INFO_LOG_LENGTH, &value);
	assert_int_equal(value, 0);
	assert_gl_error(GL_NO_ERROR);

	/* section 2.11.1: lengths, -1 for NUL-terminated, 0 for nothing of the string */
	glShaderSource(s, 3, parts, lengths);
	glGetShaderiv(s, GL_SHADER_SOURCE_LENGTH, &value);
	assert_int_equal(value, 11 + 30 + 1);
	glGetShaderSource(s, sizeof(buf), &len, buf);
	assert_int_equal(len, 41);
	assert_string_equal(buf, "void main() { gl_Position = vec4(0.0); } ");
	glGetShaderSource(s, 5, &len, buf);
	assert_int_equal(len, 4);
	assert_string_equal(buf, "void");
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	assert_gl_error(GL_NO_ERROR);

	/* the errors of section 2.11.1 and 6.1.12 */
	glShaderSource(s, -1, parts, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glShaderSource(p, 1, parts, NULL);
	assert_gl_error(GL_INVALID_OPERATION);
	glShaderSource(12345, 1, parts, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glCompileShader(p);
	assert_gl_error(GL_INVALID_OPERATION);
	glCompileShader(0);
	assert_gl_error(GL_INVALID_VALUE);
	glGetShaderiv(s, GL_LINK_STATUS, &value);
	assert_gl_error(GL_INVALID_ENUM);
	glGetShaderiv(p, GL_SHADER_TYPE, &value);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetShaderInfoLog(s, -1, NULL, buf);
	assert_gl_error(GL_INVALID_VALUE);
	glGetShaderSource(s, -1, NULL, buf);
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteShader(0);
	assert_gl_error(GL_NO_ERROR);
	glDeleteShader(p);
	assert_gl_error(GL_INVALID_OPERATION);
	glDeleteShader(54321);
	assert_gl_error(GL_INVALID_VALUE);

	/* section 2.11.2: no binary formats */
	glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &value);
	assert_int_equal(value, 0);
	value = -7;
	glGetIntegerv(GL_SHADER_BINARY_FORMATS, &value);
	assert_int_equal(value, -7);
	assert_gl_error(GL_NO_ERROR);
	glShaderBinary(1, &s, 0, &bin, 4);
	assert_gl_error(GL_INVALID_ENUM);
	glShaderBinary(-1, &s, 0, &bin, 4);
	assert_gl_error(GL_INVALID_VALUE);
	glShaderBinary(1, &p, 0, &bin, 4);
	assert_gl_error(GL_INVALID_OPERATION);
	glReleaseShaderCompiler();
	assert_gl_error(GL_NO_ERROR);
	glGetIntegerv(GL_SHADER_COMPILER, &value);
	assert_int_equal(value, GL_TRUE);

	/* both stages compute in binary32 and 32-bit integers */
	glGetShaderPrecisionFormat(GL_FRAGMENT_SHADER, GL_MEDIUM_FLOAT, range, &precision);
	assert_int_equal(range[0], 127);
	assert_int_equal(range[1], 127);
	assert_int_equal(precision, 23);
	glGetShaderPrecisionFormat(GL_VERTEX_SHADER, GL_LOW_INT, range, &precision);
	assert_int_equal(range[0], 31);
	assert_int_equal(range[1], 30);
	assert_int_equal(precision, 0);
	glGetShaderPrecisionFormat(0x91B9 /* GL_COMPUTE_SHADER */, GL_LOW_INT, range, &precision);
	assert_gl_error(GL_INVALID_ENUM);
	glGetShaderPrecisionFormat(GL_VERTEX_SHADER, GL_FLOAT, range, &precision);
	assert_gl_error(GL_INVALID_ENUM);

	glDeleteShader(s);
	glDeleteProgram(p);
	assert_false(glIsShader(s));
	assert_false(glIsProgram(p));
	assert_gl_error(GL_NO_ERROR);
}

static void test_compile(void **state)
{
	struct fixture *f = *state;
	static const char bad[] = "#version 300 es\n"
				  "in vec4 p;\n"
				  "void main() { gl_Position = q; }\n";
	static const char no_source_log[] = "ERROR: no source";
	char log[256], small[8];
	GLsizei len;
	GLint value;
	GLuint s;

	make_current(f, f->es3);
	glDeleteShader(shader(GL_VERTEX_SHADER, vs100, true));
	glDeleteShader(shader(GL_VERTEX_SHADER, vs300, true));
	glDeleteShader(shader(GL_FRAGMENT_SHADER, fs100, true));
	glDeleteShader(shader(GL_FRAGMENT_SHADER, fs300, true));
	/* a 1.00 built-in in a 3.00 shader, a 3.00 keyword in 1.00 */
	glDeleteShader(shader(GL_FRAGMENT_SHADER,
			      "#version 300 es\nprecision mediump float;\n"
			      "void main() { gl_FragColor = vec4(1.0); }\n",
			      false));
	glDeleteShader(
	    shader(GL_VERTEX_SHADER, "in vec4 p;\nvoid main() { gl_Position = p; }\n", false));
	/* a version ES 3.0 does not have */
	glDeleteShader(shader(GL_VERTEX_SHADER, "#version 310 es\nvoid main() {}\n", false));

	s = shader(GL_VERTEX_SHADER, bad, false);
	glGetShaderInfoLog(s, sizeof(log), &len, log);
	assert_int_equal(len, (GLsizei)strlen(log));
	assert_non_null(strstr(log, "ERROR: 0:3:"));
	assert_non_null(strstr(log, "'q'"));
	glGetShaderInfoLog(s, sizeof(small), &len, small);
	assert_int_equal(len, 7);
	assert_memory_equal(small, log, 7);
	assert_int_equal(small[7], '\0');
	/* a fixed source compiles, and the log is gone */
	glShaderSource(s, 1, (const char *const[]){ vs300 }, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glDeleteShader(s);

	/* compiling without a source fails */
	s = glCreateShader(GL_FRAGMENT_SHADER);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetShaderInfoLog(s, sizeof(log), NULL, log);
	assert_memory_equal(log, no_source_log, strlen(no_source_log));
	/* KHR_parallel_shader_compile: a compile, failed or not, is complete when it returns */
	glGetShaderiv(s, 0x91B1 /* GL_COMPLETION_STATUS_KHR */, &value);
	assert_int_equal(value, GL_TRUE);
	glDeleteShader(s);
	{
		void (*threads)(GLuint) =
		    (void (*)(GLuint))eglGetProcAddress("glMaxShaderCompilerThreadsKHR");
		GLuint p = glCreateProgram();

		glGetProgramiv(p, 0x91B1 /* GL_COMPLETION_STATUS_KHR */, &value);
		assert_int_equal(value, GL_TRUE);
		glDeleteProgram(p);
		assert_non_null(threads);
		glGetIntegerv(0x91B0 /* GL_MAX_SHADER_COMPILER_THREADS_KHR */, &value);
		assert_int_equal(value, -1); /* 0xffffffff: the implementation's choice */
		threads(3);
		glGetIntegerv(0x91B0, &value);
		assert_int_equal(value, 3);
		/* a context's own state */
		make_current(f, f->es2_request);
		glGetIntegerv(0x91B0, &value);
		assert_int_equal(value, -1);
		make_current(f, f->es3);
		threads(0xffffffffu);
		assert_gl_error(GL_NO_ERROR);
	}

	/* an ES 2.0 request is an ES 3.0 context: GLSL ES 1.00 and 3.00 */
	make_current(f, f->es2_request);
	glDeleteShader(shader(GL_VERTEX_SHADER, vs100, true));
	glDeleteShader(shader(GL_VERTEX_SHADER, vs300, true));
	assert_gl_error(GL_NO_ERROR);
}

/* ---- program objects ----------------------------------------------------------------- */

static void test_program_objects(void **state)
{
	struct fixture *f = *state;
	GLuint vs, vs2, fs, p, p2, shaders[4] = { 0 };
	GLsizei count = -1;
	GLint value;
	char log[256];

	make_current(f, f->es3);
	vs = shader(GL_VERTEX_SHADER, vs300, true);
	vs2 = shader(GL_VERTEX_SHADER, vs300, true);
	fs = shader(GL_FRAGMENT_SHADER, fs300, true);
	p = glCreateProgram();
	p2 = glCreateProgram();
	assert_true(glIsProgram(p));

	/* section 2.11.3: one shader of each type (piglit's multiple-shader-objects) */
	glAttachShader(p, vs);
	assert_gl_error(GL_NO_ERROR);
	glAttachShader(p, vs);
	assert_gl_error(GL_INVALID_OPERATION);
	glAttachShader(p, vs2);
	assert_gl_error(GL_INVALID_OPERATION);
	glAttachShader(p, p2);
	assert_gl_error(GL_INVALID_OPERATION);
	glAttachShader(vs, fs);
	assert_gl_error(GL_INVALID_OPERATION);
	glAttachShader(p, 999);
	assert_gl_error(GL_INVALID_VALUE);
	glDetachShader(p, fs);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetProgramiv(p, GL_ATTACHED_SHADERS, &value);
	assert_int_equal(value, 1);
	glAttachShader(p, fs);
	glGetProgramiv(p, GL_ATTACHED_SHADERS, &value);
	assert_int_equal(value, 2);
	glGetAttachedShaders(p, 4, &count, shaders);
	assert_int_equal(count, 2);
	assert_true((shaders[0] == vs && shaders[1] == fs) ||
		    (shaders[0] == fs && shaders[1] == vs));
	glGetAttachedShaders(p, 1, &count, shaders);
	assert_int_equal(count, 1);
	glGetAttachedShaders(p, -1, &count, shaders);
	assert_gl_error(GL_INVALID_VALUE);

	/* before a link: nothing active, not usable */
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramiv(p, GL_ACTIVE_UNIFORMS, &value);
	assert_int_equal(value, 0);
	glUseProgram(p);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_int_equal(glGetUniformLocation(p, "x"), -1);
	assert_gl_error(GL_INVALID_OPERATION);
	assert_int_equal(glGetAttribLocation(p, "p"), -1);
	assert_gl_error(GL_INVALID_OPERATION);

	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glGetProgramiv(p, GL_INFO_LOG_LENGTH, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_VALIDATE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glValidateProgram(p);
	glGetProgramiv(p, GL_VALIDATE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glUseProgram(p);
	assert_gl_error(GL_NO_ERROR);
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, (GLint)p);

	/* every pname of glGetProgramiv */
	glGetProgramiv(p, GL_DELETE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramiv(p, GL_ACTIVE_ATTRIBUTES, &value);
	assert_int_equal(value, 1);
	glGetProgramiv(p, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &value);
	assert_int_equal(value, 2);
	glGetProgramiv(p, GL_ACTIVE_UNIFORMS, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_MAX_LENGTH, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_BLOCKS, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &value);
	assert_int_equal(value, GL_INTERLEAVED_ATTRIBS);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_VARYINGS, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, &value);
	assert_int_equal(value, 0);
	glGetProgramiv(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramiv(p, GL_PROGRAM_BINARY_LENGTH, &value);
	assert_int_equal(value, 0);
	assert_gl_error(GL_NO_ERROR);
	glGetProgramiv(p, GL_COMPILE_STATUS, &value);
	assert_gl_error(GL_INVALID_ENUM);
	glGetProgramiv(vs, GL_LINK_STATUS, &value);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetProgramInfoLog(p, -1, NULL, log);
	assert_gl_error(GL_INVALID_VALUE);

	/* section 2.11.4: no program binary formats */
	glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &value);
	assert_int_equal(value, 0);
	glGetProgramBinary(p, sizeof(log), &count, (GLenum *)&value, log);
	assert_gl_error(GL_NO_ERROR);
	assert_int_equal(count, 0);
	glGetProgramBinary(p2, sizeof(log), &count, (GLenum *)&value, log);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetProgramBinary(p, -1, &count, (GLenum *)&value, log);
	assert_gl_error(GL_INVALID_VALUE);
	glProgramBinary(p2, 0x1234, log, 16);
	assert_gl_error(GL_INVALID_ENUM);
	glProgramBinary(p2, 0x1234, log, -1);
	assert_gl_error(GL_INVALID_VALUE);
	glProgramParameteri(p2, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
	glGetProgramiv(p2, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, &value);
	assert_int_equal(value, GL_TRUE);
	glProgramParameteri(p2, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 2);
	assert_gl_error(GL_INVALID_VALUE);
	glProgramParameteri(p2, GL_LINK_STATUS, GL_TRUE);
	assert_gl_error(GL_INVALID_ENUM);

	/* a failed relink of the current program: not linked, yet still current (section 2.11.3) */
	glDetachShader(p, fs);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "no fragment shader"));
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, (GLint)p);
	glUniform1f(0, 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glValidateProgram(p);
	glGetProgramiv(p, GL_VALIDATE_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glUseProgram(0);
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, 0);
	glUseProgram(vs);
	assert_gl_error(GL_INVALID_OPERATION);
	glUseProgram(777);
	assert_gl_error(GL_INVALID_VALUE);

	glDeleteShader(vs);
	glDeleteShader(vs2);
	glDeleteShader(fs);
	glDeleteProgram(p);
	glDeleteProgram(p2);
	glDeleteProgram(0);
	assert_gl_error(GL_NO_ERROR);
	glDeleteProgram(vs2);
	assert_gl_error(GL_INVALID_VALUE);
}

/* ---- link rules ---------------------------------------------------------------------- */

static void test_link_errors(void **state)
{
	struct fixture *f = *state;
	GLuint vs, bad, p;
	GLint value;
	char log[1024];

	make_current(f, f->es3);
	/* section 2.11.3: both stages (piglit's link-no-vsfs), each compiled */
	link_fails(vs100, NULL, "no fragment shader");
	link_fails(NULL, fs100, "no vertex shader");
	p = glCreateProgram();
	vs = shader(GL_VERTEX_SHADER, vs100, true);
	bad = shader(GL_FRAGMENT_SHADER, "void main() { x = 1; }", false);
	glAttachShader(p, vs);
	glAttachShader(p, bad);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "fragment shader is not compiled"));
	glDeleteProgram(p);
	glDeleteShader(vs);
	glDeleteShader(bad);

	/* GLSL ES 3.00 section 1.5: one version */
	link_fails(vs100, fs300, "GLSL ES 1.00 vertex shader and a GLSL ES 3.00");
	/* a shader without main() compiles; no program can be made of it */
	link_fails("attribute vec4 p; void f() { gl_Position = p; }", fs100, "vertex shader");

	/* varyings: by name, of one type; 3.00 also the interpolation */
	link_fails(vs100,
		   "precision mediump float; varying vec2 t;\n"
		   "void main() { gl_FragColor = vec4(t, 0.0, 1.0); }",
		   "fragment input t is not written");
	glDeleteProgram(program(vs100, "precision mediump float; varying vec2 t;\n"
				       "void main() { gl_FragColor = vec4(1.0); }"));
	link_fails("attribute vec4 p; varying vec3 t; void main() { t = p.xyz; gl_Position = p; }",
		   "precision mediump float; varying vec2 t;\n"
		   "void main() { gl_FragColor = vec4(t, 0.0, 1.0); }",
		   "varying t has different types");
	link_fails("#version 300 es\nin vec4 p; out vec4 t[2];\n"
		   "void main() { t[0] = p; t[1] = p; gl_Position = p; }",
		   "#version 300 es\nprecision mediump float; in vec4 t[3]; out vec4 c;\n"
		   "void main() { c = t[0]; }",
		   "varying t has different types");
	link_fails("#version 300 es\nin vec4 p; flat out ivec2 t;\n"
		   "void main() { t = ivec2(p.xy); gl_Position = p; }",
		   "#version 300 es\nprecision mediump float; smooth in vec2 t; out vec4 c;\n"
		   "void main() { c = vec4(t, 0.0, 1.0); }",
		   "varying t has different types");
	link_fails("#version 300 es\nin vec4 p; centroid out vec2 t;\n"
		   "void main() { t = p.xy; gl_Position = p; }",
		   "#version 300 es\nprecision mediump float; in vec2 t; out vec4 c;\n"
		   "void main() { c = vec4(t, 0.0, 1.0); }",
		   "different interpolation qualifiers");
	/* precision of varyings need not match */
	glDeleteProgram(program("attribute vec4 p; varying highp vec2 t;\n"
				"void main() { t = p.xy; gl_Position = p; }",
				"precision mediump float; varying lowp vec2 t;\n"
				"void main() { gl_FragColor = vec4(t, 0.0, 1.0); }"));

	/* GLSL ES 1.00 section 4.6.4: invariance across the stages */
	link_fails("void main() { gl_Position = vec4(0.0); }",
		   "invariant gl_FragCoord; /* a comment */\n"
		   "void main() { gl_FragColor = vec4(gl_FragCoord.x); }",
		   "gl_FragCoord is invariant and gl_Position is not");
	glDeleteProgram(program("invariant gl_Position; void main() { gl_Position = vec4(0.0); }",
				"invariant gl_FragCoord;\n"
				"void main() { gl_FragColor = vec4(gl_FragCoord.x); }"));
	link_fails("void main() { gl_PointSize = 1.0; gl_Position = vec4(0.0); }",
		   "invariant gl_PointCoord;\n"
		   "void main() { gl_FragColor = vec4(gl_PointCoord.x); }",
		   "gl_PointCoord is invariant and gl_PointSize is not");
	link_fails(
	    "invariant varying vec2 t; void main() { t = vec2(1.0); gl_Position = vec4(0.0); }",
	    "precision mediump float; varying vec2 t;\n"
	    "void main() { gl_FragColor = vec4(t, 0.0, 1.0); }",
	    "varying t is invariant in one stage and not the other");
	link_fails("varying vec2 t; void main() { t = vec2(1.0); gl_Position = vec4(0.0); }",
		   "precision mediump float; // invariant varying vec2 t;\n"
		   "varying vec2 t; invariant t;\n"
		   "void main() { gl_FragColor = vec4(t, 0.0, 1.0); }",
		   "varying t is invariant in one stage and not the other");
	glDeleteProgram(program("varying vec2 t; invariant t;\n"
				"void main() { t = vec2(1.0); gl_Position = vec4(0.0); }",
				"precision mediump float; invariant varying vec2 t;\n"
				"void main() { gl_FragColor = vec4(t, 0.0, 1.0); }"));

	/* uniforms of one name: one type, one precision */
	link_fails("attribute vec4 p; uniform vec4 u; void main() { gl_Position = p + u; }",
		   "precision mediump float; uniform vec3 u;\n"
		   "void main() { gl_FragColor = vec4(u, 1.0); }",
		   "uniform u is declared with different types");
	link_fails("attribute vec4 p; struct S { float a; }; uniform S u;\n"
		   "void main() { gl_Position = p + u.a; }",
		   "precision mediump float; struct S { float b; }; uniform S u;\n"
		   "void main() { gl_FragColor = vec4(u.b); }",
		   "uniform u is declared with different types");
	link_fails("attribute vec4 p; uniform float u; void main() { gl_Position = p * u; }",
		   "precision mediump float; uniform float u;\n"
		   "void main() { gl_FragColor = vec4(u); }",
		   "uniform u is declared with different precisions");
	glDeleteProgram(program("attribute vec4 p; uniform mediump float u;\n"
				"void main() { gl_Position = p * u; }",
				"precision mediump float; uniform float u;\n"
				"void main() { gl_FragColor = vec4(u); }"));
	link_fails(
	    "#version 300 es\nin vec4 p; uniform B { vec4 a; float b; };\n"
	    "void main() { gl_Position = p + a; }",
	    "#version 300 es\nprecision mediump float; uniform B { vec4 a; int b; }; out vec4 c;\n"
	    "void main() { c = a; }",
	    "uniform block B is declared with different types");
	link_fails(
	    "#version 300 es\nin vec4 p; uniform B { mat2 a; };\n"
	    "void main() { gl_Position = p + a[0].xxxx; }",
	    "#version 300 es\nprecision mediump float; layout(row_major) uniform B { mat2 a; };\n"
	    "out vec4 c; void main() { c = a[1].xxxx; }",
	    "uniform block B is declared with different types");
	/* the limits: uniform vectors, samplers */
	link_fails("#version 300 es\nin vec4 p; uniform vec4 a[257]; uniform int i;\n"
		   "void main() { gl_Position = p + a[i]; }",
		   fs300, "more than 256");
	link_fails("#version 300 es\nin vec4 p; uniform sampler2D s[17];\n"
		   "void main() { gl_Position = p + texture(s[16], p.xy); }",
		   fs300, "vertex shader");

	/*
	 * GLSL ES 3.00 section 4.3.8.2: several outputs, each with a location
	 * (the GL link's rule: the front end's placeholders are not locations)
	 */
	link_fails(vs300,
		   "#version 300 es\nprecision mediump float; out vec4 c; out vec4 d;\n"
		   "void main() { c = vec4(1.0); d = c; }",
		   "has no location, and there are several");
	link_fails(vs300,
		   "#version 300 es\nprecision mediump float; out vec4 c;\n"
		   "layout(location = 1) out vec4 d;\n"
		   "void main() { c = vec4(1.0); d = c; }",
		   "fragment output c has no location");
	/* overlapping locations are the compiler's error, an array past the last buffer the link's
	 */
	glDeleteShader(
	    shader(GL_FRAGMENT_SHADER,
		   "#version 300 es\nprecision mediump float;\n"
		   "layout(location = 1) out vec4 c[2]; layout(location = 2) out vec4 d;\n"
		   "void main() { c[0] = vec4(1.0); c[1] = c[0]; d = c[0]; }",
		   false));
	link_fails(vs300,
		   "#version 300 es\nprecision mediump float;\n"
		   "layout(location = 7) out vec4 c[2];\n"
		   "void main() { c[0] = vec4(1.0); c[1] = c[0]; }",
		   "past the 8 draw buffers");

	/* section 2.11.5: aliasing is for 1.00 only; locations must fit */
	p = glCreateProgram();
	vs = shader(GL_VERTEX_SHADER,
		    "#version 300 es\nin vec4 a; layout(location = 3) in vec4 b;\n"
		    "void main() { gl_Position = a + b; }",
		    true);
	bad = shader(GL_FRAGMENT_SHADER, fs300, true);
	glAttachShader(p, vs);
	glAttachShader(p, bad);
	glBindAttribLocation(p, 3, "a");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "alias at location 3"));
	glBindAttribLocation(p, 15, "a");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	assert_int_equal(glGetAttribLocation(p, "a"), 15);
	assert_int_equal(glGetAttribLocation(p, "b"), 3);
	glDeleteProgram(p);
	glDeleteShader(vs);
	glDeleteShader(bad);

	p = glCreateProgram();
	vs = shader(GL_VERTEX_SHADER,
		    "attribute vec4 a; attribute mat4 m;\n"
		    "void main() { gl_Position = m * a; }",
		    true);
	bad = shader(GL_FRAGMENT_SHADER, fs100, true);
	glAttachShader(p, vs);
	glAttachShader(p, bad);
	glBindAttribLocation(p, 14, "m");
	glLinkProgram(p);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "needs 4 locations"));
	glBindAttribLocation(p, 2, "m");
	glBindAttribLocation(p, 3, "a");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	assert_int_equal(glGetAttribLocation(p, "a"), 3);
	assert_int_equal(glGetAttribLocation(p, "m"), 2);
	glBindAttribLocation(p, 16, "a");
	assert_gl_error(GL_INVALID_VALUE);
	glBindAttribLocation(p, 1, "gl_Vertex");
	assert_gl_error(GL_INVALID_OPERATION);
	glDeleteProgram(p);
	glDeleteShader(vs);
	glDeleteShader(bad);
	assert_gl_error(GL_NO_ERROR);
}

/* ---- introspection --------------------------------------------------------------------- */

static const char intro_vs[] =
    "#version 300 es\n"
    "layout(location = 5) in vec4 pos;\n"
    "in ivec2 iattr;\n"
    "in mat3 mattr;\n"
    "struct S { float f; vec3 v[2]; mat2 m; };\n"
    "uniform S s[2];\n"
    "uniform float fa[3];\n"
    "uniform vec2 v2; uniform vec3 v3; uniform vec4 v4;\n"
    "uniform int i1; uniform ivec2 i2; uniform ivec3 i3; uniform ivec4 i4;\n"
    "uniform uint u1; uniform uvec2 u2; uniform uvec3 u3; uniform uvec4 u4;\n"
    "uniform mat2 m2; uniform mat3 m3; uniform mat4 m4;\n"
    "uniform mat2x3 m23; uniform mat2x4 m24; uniform mat3x2 m32;\n"
    "uniform mat3x4 m34; uniform mat4x2 m42; uniform mat4x3 m43;\n"
    "uniform sampler2D vtex;\n"
    "uniform Block { vec4 x; mat3 y; float z[2]; } inst;\n"
    "layout(row_major) uniform Anon { mat2x3 r; vec2 after; };\n"
    "out vec4 var;\n"
    "void main() {\n"
    "  float sum = s[1].f + s[0].v[1].y + s[1].m[1][0] + fa[2] + v2.x + v3.y + v4.z;\n"
    "  sum += float(i1 + i2.x + i3.y + i4.z) + float(u1 + u2.x + u3.y + u4.z);\n"
    "  sum += m2[0][0] + m3[1][1] + m4[2][2] + m23[1][2] + m24[1][3] + m32[2][1];\n"
    "  sum += m34[2][3] + m42[3][1] + m43[3][2] + inst.x.x + inst.y[1][1] + inst.z[1];\n"
    "  sum += r[1][2] + after.y + float(iattr.x) + mattr[2][2];\n"
    "  var = vec4(sum) + texture(vtex, pos.xy);\n"
    "  gl_Position = pos;\n"
    "}\n";
static const char intro_fs[] = "#version 300 es\n"
			       "precision mediump float;\n"
			       "uniform mediump isampler3D itex;\n"
			       "uniform samplerCube ctex[2];\n"
			       "uniform highp float fa[3];\n"
			       "uniform float fonly;\n"
			       "uniform Block { vec4 x; mat3 y; float z[2]; } other_instance;\n"
			       "in vec4 var;\n"
			       "layout(location = 0) out vec4 color;\n"
			       "layout(location = 1) out ivec4 ints[2];\n"
			       "void main() {\n"
			       "  color = var * fa[1] * fonly + other_instance.x\n"
			       "     + texture(ctex[1], var.xyz) + vec4(texture(itex, var.xyz));\n"
			       "  ints[0] = ivec4(1); ints[1] = ivec4(2);\n"
			       "}\n";

struct expected_uniform {
	const char *name;
	GLenum type;
	GLint size;
	GLint block, offset, array_stride, matrix_stride, row_major;
};

/* std140 (section 2.12.6.4) of the blocks; the default block: -1 */
static const struct expected_uniform expected_uniforms[] = {
	{ "s[0].f", GL_FLOAT, 1, -1, -1, -1, -1, 0 },
	{ "s[0].v[0]", GL_FLOAT_VEC3, 2, -1, -1, -1, -1, 0 },
	{ "s[0].m", GL_FLOAT_MAT2, 1, -1, -1, -1, -1, 0 },
	{ "s[1].f", GL_FLOAT, 1, -1, -1, -1, -1, 0 },
	{ "s[1].v[0]", GL_FLOAT_VEC3, 2, -1, -1, -1, -1, 0 },
	{ "s[1].m", GL_FLOAT_MAT2, 1, -1, -1, -1, -1, 0 },
	{ "fa[0]", GL_FLOAT, 3, -1, -1, -1, -1, 0 },
	{ "v2", GL_FLOAT_VEC2, 1, -1, -1, -1, -1, 0 },
	{ "v3", GL_FLOAT_VEC3, 1, -1, -1, -1, -1, 0 },
	{ "v4", GL_FLOAT_VEC4, 1, -1, -1, -1, -1, 0 },
	{ "i1", GL_INT, 1, -1, -1, -1, -1, 0 },
	{ "i2", GL_INT_VEC2, 1, -1, -1, -1, -1, 0 },
	{ "i3", GL_INT_VEC3, 1, -1, -1, -1, -1, 0 },
	{ "i4", GL_INT_VEC4, 1, -1, -1, -1, -1, 0 },
	{ "u1", GL_UNSIGNED_INT, 1, -1, -1, -1, -1, 0 },
	{ "u2", GL_UNSIGNED_INT_VEC2, 1, -1, -1, -1, -1, 0 },
	{ "u3", GL_UNSIGNED_INT_VEC3, 1, -1, -1, -1, -1, 0 },
	{ "u4", GL_UNSIGNED_INT_VEC4, 1, -1, -1, -1, -1, 0 },
	{ "m2", GL_FLOAT_MAT2, 1, -1, -1, -1, -1, 0 },
	{ "m3", GL_FLOAT_MAT3, 1, -1, -1, -1, -1, 0 },
	{ "m4", GL_FLOAT_MAT4, 1, -1, -1, -1, -1, 0 },
	{ "m23", GL_FLOAT_MAT2x3, 1, -1, -1, -1, -1, 0 },
	{ "m24", GL_FLOAT_MAT2x4, 1, -1, -1, -1, -1, 0 },
	{ "m32", GL_FLOAT_MAT3x2, 1, -1, -1, -1, -1, 0 },
	{ "m34", GL_FLOAT_MAT3x4, 1, -1, -1, -1, -1, 0 },
	{ "m42", GL_FLOAT_MAT4x2, 1, -1, -1, -1, -1, 0 },
	{ "m43", GL_FLOAT_MAT4x3, 1, -1, -1, -1, -1, 0 },
	{ "vtex", GL_SAMPLER_2D, 1, -1, -1, -1, -1, 0 },
	{ "itex", GL_INT_SAMPLER_3D, 1, -1, -1, -1, -1, 0 },
	{ "ctex[0]", GL_SAMPLER_CUBE, 2, -1, -1, -1, -1, 0 },
	{ "fonly", GL_FLOAT, 1, -1, -1, -1, -1, 0 },
	{ "Block.x", GL_FLOAT_VEC4, 1, 0, 0, 0, 0, 0 },
	{ "Block.y", GL_FLOAT_MAT3, 1, 0, 16, 0, 16, 0 },
	{ "Block.z[0]", GL_FLOAT, 2, 0, 64, 16, 0, 0 },
	{ "r", GL_FLOAT_MAT2x3, 1, 1, 0, 0, 16, 1 },
	{ "after", GL_FLOAT_VEC2, 1, 1, 48, 0, 0, 0 },
};

#define N_EXPECTED (sizeof(expected_uniforms) / sizeof(expected_uniforms[0]))

static void test_introspection(void **state)
{
	struct fixture *f = *state;
	const GLenum pnames[] = { GL_UNIFORM_TYPE,	    GL_UNIFORM_SIZE,
				  GL_UNIFORM_NAME_LENGTH,   GL_UNIFORM_BLOCK_INDEX,
				  GL_UNIFORM_OFFSET,	    GL_UNIFORM_ARRAY_STRIDE,
				  GL_UNIFORM_MATRIX_STRIDE, GL_UNIFORM_IS_ROW_MAJOR };
	bool seen[N_EXPECTED] = { false };
	GLint value, size, n, indices[8], params[N_EXPECTED];
	GLuint uindex[N_EXPECTED], p;
	GLenum type;
	GLsizei len;
	char name[64];
	const char *names[N_EXPECTED];

	make_current(f, f->es3);
	p = program(intro_vs, intro_fs);

	/* uniforms: each listed once, with its type and size */
	glGetProgramiv(p, GL_ACTIVE_UNIFORMS, &n);
	assert_int_equal(n, (GLint)N_EXPECTED);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_MAX_LENGTH, &value);
	assert_int_equal(value, (GLint)sizeof("Block.z[0]"));
	for (GLint i = 0; i < n; i++) {
		size_t k;

		glGetActiveUniform(p, (GLuint)i, sizeof(name), &len, &size, &type, name);
		assert_int_equal(len, (GLsizei)strlen(name));
		for (k = 0; k < N_EXPECTED && strcmp(expected_uniforms[k].name, name); k++)
			;
		if (k == N_EXPECTED)
			fprintf(stderr, "# unexpected uniform %s\n", name);
		assert_true(k < N_EXPECTED);
		assert_false(seen[k]);
		seen[k] = true;
		assert_int_equal(type, expected_uniforms[k].type);
		assert_int_equal(size, expected_uniforms[k].size);
	}
	glGetActiveUniform(p, (GLuint)n, sizeof(name), &len, &size, &type, name);
	assert_gl_error(GL_INVALID_VALUE);
	glGetActiveUniform(p, 0, -1, &len, &size, &type, name);
	assert_gl_error(GL_INVALID_VALUE);

	/* glGetUniformIndices, then each property of each (section 2.12.6) */
	for (size_t k = 0; k < N_EXPECTED; k++)
		names[k] = expected_uniforms[k].name;
	glGetUniformIndices(p, N_EXPECTED, names, uindex);
	for (size_t k = 0; k < N_EXPECTED; k++)
		assert_int_not_equal(uindex[k], GL_INVALID_INDEX);
	for (size_t q = 0; q < sizeof(pnames) / sizeof(pnames[0]); q++) {
		glGetActiveUniformsiv(p, N_EXPECTED, uindex, pnames[q], params);
		assert_gl_error(GL_NO_ERROR);
		for (size_t k = 0; k < N_EXPECTED; k++) {
			const struct expected_uniform *e = &expected_uniforms[k];
			GLint want[] = { (GLint)e->type,   e->size,	(GLint)strlen(e->name) + 1,
					 e->block,	   e->offset,	e->array_stride,
					 e->matrix_stride, e->row_major };

			if (params[k] != want[q])
				fprintf(stderr, "# %s: pname %#x is %d, not %d\n", e->name,
					pnames[q], params[k], want[q]);
			assert_int_equal(params[k], want[q]);
		}
	}
	names[0] = "fa";
	names[1] = "nothing";
	names[2] = "fa[1]";
	names[3] = "Block";
	glGetUniformIndices(p, 4, names, uindex);
	assert_int_not_equal(uindex[0], GL_INVALID_INDEX);
	assert_int_equal(uindex[1], GL_INVALID_INDEX);
	assert_int_equal(uindex[2], GL_INVALID_INDEX);
	assert_int_equal(uindex[3], GL_INVALID_INDEX);
	glGetUniformIndices(p, -1, names, uindex);
	assert_gl_error(GL_INVALID_VALUE);
	uindex[0] = (GLuint)n;
	glGetActiveUniformsiv(p, 1, uindex, GL_UNIFORM_TYPE, params);
	assert_gl_error(GL_INVALID_VALUE);
	uindex[0] = 0;
	glGetActiveUniformsiv(p, 1, uindex, GL_UNIFORM_BLOCK_BINDING, params);
	assert_gl_error(GL_INVALID_ENUM);

	/* locations: array elements, struct members; none for block members */
	assert_int_not_equal(glGetUniformLocation(p, "fa"), -1);
	assert_int_equal(glGetUniformLocation(p, "fa[0]"), glGetUniformLocation(p, "fa"));
	assert_int_equal(glGetUniformLocation(p, "fa[2]"), glGetUniformLocation(p, "fa") + 2);
	assert_int_equal(glGetUniformLocation(p, "fa[3]"), -1);
	assert_int_equal(glGetUniformLocation(p, "fa[01]"), -1);
	assert_int_equal(glGetUniformLocation(p, "fa[]"), -1);
	assert_int_not_equal(glGetUniformLocation(p, "s[1].f"), -1);
	assert_int_equal(glGetUniformLocation(p, "s[1].v[1]"),
			 glGetUniformLocation(p, "s[1].v") + 1);
	assert_int_equal(glGetUniformLocation(p, "s[1]"), -1);
	assert_int_equal(glGetUniformLocation(p, "s"), -1);
	assert_int_equal(glGetUniformLocation(p, "Block.x"), -1);
	assert_int_equal(glGetUniformLocation(p, "inst.x"), -1);
	assert_int_equal(glGetUniformLocation(p, "gl_DepthRange.near"), -1);
	assert_int_not_equal(glGetUniformLocation(p, "ctex[1]"), -1);
	assert_int_not_equal(glGetUniformLocation(p, "fonly"), -1);
	assert_gl_error(GL_NO_ERROR);

	/* blocks */
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_BLOCKS, &n);
	assert_int_equal(n, 2);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, &value);
	assert_int_equal(value, (GLint)sizeof("Block"));
	assert_int_equal(glGetUniformBlockIndex(p, "Block"), 0);
	assert_int_equal(glGetUniformBlockIndex(p, "Anon"), 1);
	assert_int_equal(glGetUniformBlockIndex(p, "inst"), GL_INVALID_INDEX);
	glGetActiveUniformBlockName(p, 1, sizeof(name), &len, name);
	assert_string_equal(name, "Anon");
	assert_int_equal(len, 4);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_DATA_SIZE, &value);
	assert_int_equal(value, 96);
	glGetActiveUniformBlockiv(p, 1, GL_UNIFORM_BLOCK_DATA_SIZE, &value);
	assert_int_equal(value, 64);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_NAME_LENGTH, &value);
	assert_int_equal(value, 6);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &value);
	assert_int_equal(value, 3);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, indices);
	for (int i = 0; i < 3; i++) {
		glGetActiveUniformsiv(p, 1, (const GLuint *)&indices[i], GL_UNIFORM_BLOCK_INDEX,
				      &value);
		assert_int_equal(value, 0);
	}
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER, &value);
	assert_int_equal(value, GL_TRUE);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER, &value);
	assert_int_equal(value, GL_TRUE);
	glGetActiveUniformBlockiv(p, 1, GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER, &value);
	assert_int_equal(value, GL_FALSE);
	glGetActiveUniformBlockiv(p, 1, GL_UNIFORM_BLOCK_BINDING, &value);
	assert_int_equal(value, 0);
	glUniformBlockBinding(p, 1, 7);
	glGetActiveUniformBlockiv(p, 1, GL_UNIFORM_BLOCK_BINDING, &value);
	assert_int_equal(value, 7);
	glGetIntegerv(GL_MAX_UNIFORM_BUFFER_BINDINGS, &value);
	glUniformBlockBinding(p, 1, (GLuint)value);
	assert_gl_error(GL_INVALID_VALUE);
	glUniformBlockBinding(p, 2, 0);
	assert_gl_error(GL_INVALID_VALUE);
	glGetActiveUniformBlockiv(p, 2, GL_UNIFORM_BLOCK_BINDING, &value);
	assert_gl_error(GL_INVALID_VALUE);
	glGetActiveUniformBlockiv(p, 0, GL_UNIFORM_TYPE, &value);
	assert_gl_error(GL_INVALID_ENUM);

	/* attributes: a layout location, the others the linker's, none overlapping */
	glGetProgramiv(p, GL_ACTIVE_ATTRIBUTES, &n);
	assert_int_equal(n, 3);
	glGetProgramiv(p, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &value);
	assert_int_equal(value, (GLint)sizeof("iattr"));
	for (GLint i = 0; i < n; i++) {
		glGetActiveAttrib(p, (GLuint)i, sizeof(name), &len, &size, &type, name);
		assert_int_equal(size, 1);
		if (!strcmp(name, "pos"))
			assert_int_equal(type, GL_FLOAT_VEC4);
		else if (!strcmp(name, "iattr"))
			assert_int_equal(type, GL_INT_VEC2);
		else
			assert_int_equal(type, GL_FLOAT_MAT3);
	}
	glGetActiveAttrib(p, (GLuint)n, sizeof(name), &len, &size, &type, name);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(glGetAttribLocation(p, "pos"), 5);
	value = glGetAttribLocation(p, "mattr");
	assert_true(value >= 0 && value + 3 <= 16 && (value + 3 <= 5 || value > 5));
	n = glGetAttribLocation(p, "iattr");
	assert_true(n >= 0 && n != 5 && (n < value || n >= value + 3));
	assert_int_equal(glGetAttribLocation(p, "gl_VertexID"), -1);
	assert_int_equal(glGetAttribLocation(p, "nothing"), -1);

	/* fragment outputs (ES 3.0) */
	assert_int_equal(glGetFragDataLocation(p, "color"), 0);
	assert_int_equal(glGetFragDataLocation(p, "ints"), 1);
	assert_int_equal(glGetFragDataLocation(p, "ints[1]"), 2);
	assert_int_equal(glGetFragDataLocation(p, "ints[2]"), -1);
	assert_int_equal(glGetFragDataLocation(p, "var"), -1);
	assert_gl_error(GL_NO_ERROR);
	glDeleteProgram(p);

	/* booleans in a block: uint in memory, bool to GL (section 2.12.6) */
	p = program("#version 300 es\nin vec4 p; struct T { bool t; float f; };\n"
		    "uniform BB { bool b; bvec3 bv[2]; T s; uint u; } bb;\n"
		    "void main() { gl_Position = p * float(bb.b) + float(bb.bv[1].x)\n"
		    "  + float(bb.s.t) + bb.s.f + float(bb.u); }",
		    fs300);
	{
		static const char *const bnames[] = { "BB.b", "BB.bv[0]", "BB.s.t", "BB.s.f",
						      "BB.u" };
		static const GLint btypes[] = { GL_BOOL, GL_BOOL_VEC3, GL_BOOL, GL_FLOAT,
						GL_UNSIGNED_INT };
		GLuint bindex[5];

		glGetUniformIndices(p, 5, bnames, bindex);
		glGetActiveUniformsiv(p, 5, bindex, GL_UNIFORM_TYPE, params);
		assert_gl_error(GL_NO_ERROR);
		for (int i = 0; i < 5; i++)
			assert_int_equal(params[i], btypes[i]);
		glGetActiveUniformsiv(p, 5, bindex, GL_UNIFORM_OFFSET, params);
		assert_int_equal(params[0], 0);
		assert_int_equal(params[1], 16);
		assert_int_equal(params[2], 48);
		assert_int_equal(params[3], 52);
		assert_int_equal(params[4], 64);
	}
	glDeleteProgram(p);

	/* a 1.00 program's uniforms, on an ES 2.0 request: ES 3.0's queries too */
	make_current(f, f->es2_request);
	p = program("attribute vec4 p; uniform mat4 mvp; uniform vec4 c[4];\n"
		    "void main() { gl_Position = mvp * p + c[3]; }",
		    "precision mediump float; uniform sampler2D t;\n"
		    "void main() { gl_FragColor = texture2D(t, vec2(0.5)); }");
	glGetProgramiv(p, GL_ACTIVE_UNIFORMS, &n);
	assert_int_equal(n, 3);
	assert_int_not_equal(glGetUniformLocation(p, "c[3]"), -1);
	assert_int_equal(glGetAttribLocation(p, "p"), 0);
	glGetProgramiv(p, GL_ACTIVE_UNIFORM_BLOCKS, &n);
	assert_int_equal(n, 0);
	assert_int_equal(glGetUniformBlockIndex(p, "B"), GL_INVALID_INDEX);
	assert_int_equal(glGetFragDataLocation(p, "gl_FragColor"), -1);
	assert_gl_error(GL_NO_ERROR);
	glDeleteProgram(p);
	assert_gl_error(GL_NO_ERROR);
}

/* ---- uniform values -------------------------------------------------------------------- */

static void test_uniform_values(void **state)
{
	struct fixture *f = *state;
	const GLfloat m23[6] = { 1, 2, 3, 4, 5, 6 }, m3[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	const GLfloat fa[4] = { 0.5f, 1.5f, 2.5f, 3.5f };
	GLfloat fv[16];
	GLint iv[16];
	GLuint uv[16];
	GLuint p, other;
	GLint loc;

	make_current(f, f->es3);
	p = program(intro_vs, intro_fs);
	other = program(vs300, fs300);

	/* no current program */
	glUniform1f(glGetUniformLocation(p, "v2"), 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glUseProgram(p);

	/* initial values are zero */
	glGetUniformfv(p, glGetUniformLocation(p, "v4"), fv);
	for (int i = 0; i < 4; i++)
		assert_true(fv[i] == 0.0f);

	glUniform2f(glGetUniformLocation(p, "v2"), 1.25f, -2.5f);
	glGetUniformfv(p, glGetUniformLocation(p, "v2"), fv);
	assert_true(fv[0] == 1.25f && fv[1] == -2.5f);
	glUniform3i(glGetUniformLocation(p, "i3"), -1, 2, -3);
	glGetUniformiv(p, glGetUniformLocation(p, "i3"), iv);
	assert_true(iv[0] == -1 && iv[1] == 2 && iv[2] == -3);
	glGetUniformfv(p, glGetUniformLocation(p, "i3"), fv);
	assert_true(fv[0] == -1.0f && fv[2] == -3.0f);
	glUniform4ui(glGetUniformLocation(p, "u4"), 1, 0xffffffffu, 3, 4);
	glGetUniformuiv(p, glGetUniformLocation(p, "u4"), uv);
	assert_true(uv[0] == 1 && uv[1] == 0xffffffffu && uv[3] == 4);
	glUniform1ui(glGetUniformLocation(p, "u1"), 7);
	glGetUniformiv(p, glGetUniformLocation(p, "u1"), iv);
	assert_int_equal(iv[0], 7);
	/* a float read as an integer rounds (section 6.1.2) */
	glUniform4f(glGetUniformLocation(p, "v4"), 1.4f, 1.6f, -2.6f, 3.0f);
	glGetUniformiv(p, glGetUniformLocation(p, "v4"), iv);
	assert_true(iv[0] == 1 && iv[1] == 2 && iv[2] == -3 && iv[3] == 3);

	/* matrices: column-major, or transposed (ES 3.0) */
	glUniformMatrix2x3fv(glGetUniformLocation(p, "m23"), 1, GL_FALSE, m23);
	glGetUniformfv(p, glGetUniformLocation(p, "m23"), fv);
	assert_memory_equal(fv, m23, sizeof(m23));
	glUniformMatrix2x3fv(glGetUniformLocation(p, "m23"), 1, GL_TRUE, m23);
	glGetUniformfv(p, glGetUniformLocation(p, "m23"), fv);
	/* rows (1 2) (3 4) (5 6) of a 2-column, 3-row matrix: columns (1 3 5) (2 4 6) */
	assert_true(fv[0] == 1 && fv[1] == 3 && fv[2] == 5 && fv[3] == 2 && fv[4] == 4 &&
		    fv[5] == 6);
	glUniformMatrix3fv(glGetUniformLocation(p, "m3"), 1, GL_FALSE, m3);
	glGetUniformfv(p, glGetUniformLocation(p, "m3"), fv);
	assert_memory_equal(fv, m3, sizeof(m3));
	glUniformMatrix2fv(glGetUniformLocation(p, "m3"), 1, GL_FALSE, m3);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform4fv(glGetUniformLocation(p, "m2"), 1, m3);
	assert_gl_error(GL_INVALID_OPERATION);

	/* arrays: from an element on, past the end ignored; uniforms of both stages */
	loc = glGetUniformLocation(p, "fa[1]");
	glUniform1fv(loc, 4, fa);
	assert_gl_error(GL_NO_ERROR);
	glGetUniformfv(p, glGetUniformLocation(p, "fa"), fv);
	assert_true(fv[0] == 0.0f);
	glGetUniformfv(p, loc, fv);
	assert_true(fv[0] == 0.5f);
	glGetUniformfv(p, loc + 1, fv);
	assert_true(fv[0] == 1.5f);
	glUniform1f(glGetUniformLocation(p, "fonly"), 4.0f);
	glGetUniformfv(p, glGetUniformLocation(p, "fonly"), fv);
	assert_true(fv[0] == 4.0f);
	glUniform3f(glGetUniformLocation(p, "s[1].v[1]"), 7.0f, 8.0f, 9.0f);
	glGetUniformfv(p, glGetUniformLocation(p, "s[1].v[1]"), fv);
	assert_true(fv[0] == 7.0f && fv[1] == 8.0f && fv[2] == 9.0f);
	glGetUniformfv(p, glGetUniformLocation(p, "s[1].v[0]"), fv);
	assert_true(fv[0] == 0.0f);
	glUniform1f(glGetUniformLocation(p, "s[0].f"), 2.0f);
	glGetUniformfv(p, glGetUniformLocation(p, "s[1].f"), fv);
	assert_true(fv[0] == 0.0f);
	glGetUniformfv(p, glGetUniformLocation(p, "s[0].f"), fv);
	assert_true(fv[0] == 2.0f);

	/* samplers: their units, 0..MAX_COMBINED_TEXTURE_IMAGE_UNITS-1 */
	glUniform1i(glGetUniformLocation(p, "vtex"), 3);
	glGetUniformiv(p, glGetUniformLocation(p, "vtex"), iv);
	assert_int_equal(iv[0], 3);
	glUniform1iv(glGetUniformLocation(p, "ctex"), 2, (const GLint[]){ 5, 31 });
	glGetUniformiv(p, glGetUniformLocation(p, "ctex[1]"), iv);
	assert_int_equal(iv[0], 31);
	glUniform1i(glGetUniformLocation(p, "itex"), 32);
	assert_gl_error(GL_INVALID_VALUE);
	glUniform1i(glGetUniformLocation(p, "itex"), -1);
	assert_gl_error(GL_INVALID_VALUE);
	glUniform1f(glGetUniformLocation(p, "itex"), 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform2i(glGetUniformLocation(p, "itex"), 1, 2);
	assert_gl_error(GL_INVALID_OPERATION);
	/* validation: samplers of two types on one unit */
	glValidateProgram(p);
	glGetProgramiv(p, GL_VALIDATE_STATUS, &loc);
	assert_int_equal(loc, GL_TRUE);
	glUniform1i(glGetUniformLocation(p, "itex"), 3);
	glValidateProgram(p);
	glGetProgramiv(p, GL_VALIDATE_STATUS, &loc);
	assert_int_equal(loc, GL_FALSE);
	glUniform1i(glGetUniformLocation(p, "itex"), 4);

	/* section 2.12.6's errors */
	glUniform1i(glGetUniformLocation(p, "v2"), 1);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform1f(glGetUniformLocation(p, "i1"), 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform1ui(glGetUniformLocation(p, "i1"), 1);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform1i(glGetUniformLocation(p, "u1"), 1);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform3f(glGetUniformLocation(p, "v2"), 1, 2, 3);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform2fv(glGetUniformLocation(p, "v2"), 2, fa);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform2fv(glGetUniformLocation(p, "v2"), -1, fa);
	assert_gl_error(GL_INVALID_VALUE);
	glUniform1f(-1, 1.0f);
	assert_gl_error(GL_NO_ERROR);
	glUniform1f(100000, 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glUniform1f(-2, 1.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetUniformfv(p, -1, fv);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetUniformfv(p, 100000, fv);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetUniformfv(other + 1000, 0, fv);
	assert_gl_error(GL_INVALID_VALUE);
	/* the value is the current program's, read back from any program */
	glUseProgram(other);
	glUniform2f(0, 1.0f, 2.0f);
	assert_gl_error(GL_INVALID_OPERATION);
	glGetUniformfv(p, glGetUniformLocation(p, "v2"), fv);
	assert_true(fv[0] == 1.25f && fv[1] == -2.5f);
	glUseProgram(0);
	glDeleteProgram(p);
	glDeleteProgram(other);

	/*
	 * an ES 2.0 request is an ES 3.0 context: transpose, for a 1.00
	 * program's matrix too, and the unsigned and non-square functions
	 */
	make_current(f, f->es2_request);
	p = program("attribute vec4 p; uniform mat2 m;\n"
		    "void main() { gl_Position = p * m[0][0]; }",
		    fs100);
	glUseProgram(p);
	loc = glGetUniformLocation(p, "m");
	glUniformMatrix2fv(loc, 1, GL_TRUE, m3);
	assert_gl_error(GL_NO_ERROR);
	glGetUniformfv(p, loc, fv);
	assert_true(fv[0] == 1 && fv[1] == 3 && fv[2] == 2 && fv[3] == 4);
	glUseProgram(0);
	glDeleteProgram(p);
	p = program("#version 300 es\nin vec4 p; uniform uint u; uniform mat2x3 m;\n"
		    "void main() { gl_Position = p * float(u) * m[1][2]; }",
		    fs300);
	glUseProgram(p);
	glUniform1ui(glGetUniformLocation(p, "u"), 7);
	glUniformMatrix2x3fv(glGetUniformLocation(p, "m"), 1, GL_FALSE, m23);
	assert_gl_error(GL_NO_ERROR);
	glGetUniformuiv(p, glGetUniformLocation(p, "u"), uv);
	assert_int_equal(uv[0], 7);
	glGetUniformfv(p, glGetUniformLocation(p, "m"), fv);
	assert_memory_equal(fv, m23, sizeof(m23));
	glUseProgram(0);
	glDeleteProgram(p);
	assert_gl_error(GL_NO_ERROR);
}

/* ---- transform feedback varyings ------------------------------------------------------ */

static void test_xfb_varyings(void **state)
{
	struct fixture *f = *state;
	static const char vs[] = "#version 300 es\n"
				 "in vec4 p; out vec3 a; out vec2 b[3]; flat out mat4 m;\n"
				 "void main() { a = p.xyz; b[0] = p.xy; b[1] = p.zw; b[2] = p.xx;\n"
				 "  m = mat4(1.0); gl_Position = p; }\n";
	const char *names[] = { "a", "b[1]", "gl_Position", "b" };
	GLuint p, s;
	GLint value;
	GLsizei len, size;
	GLenum type;
	char name[32], log[512];

	make_current(f, f->es3);
	p = glCreateProgram();
	s = shader(GL_VERTEX_SHADER, vs, true);
	glAttachShader(p, s);
	glDeleteShader(s);
	s = shader(GL_FRAGMENT_SHADER, fs300, true);
	glAttachShader(p, s);
	glDeleteShader(s);

	glTransformFeedbackVaryings(p, 4, names, GL_INTERLEAVED_ATTRIBS);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_VARYINGS, &value);
	assert_int_equal(value, 0); /* until the link */
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_VARYINGS, &value);
	assert_int_equal(value, 4);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, &value);
	assert_int_equal(value, (GLint)sizeof("gl_Position"));
	glGetTransformFeedbackVarying(p, 0, sizeof(name), &len, &size, &type, name);
	assert_string_equal(name, "a");
	assert_int_equal(type, GL_FLOAT_VEC3);
	assert_int_equal(size, 1);
	glGetTransformFeedbackVarying(p, 1, sizeof(name), &len, &size, &type, name);
	assert_string_equal(name, "b[1]");
	assert_int_equal(type, GL_FLOAT_VEC2);
	assert_int_equal(size, 1);
	glGetTransformFeedbackVarying(p, 2, sizeof(name), &len, &size, &type, name);
	assert_int_equal(type, GL_FLOAT_VEC4);
	glGetTransformFeedbackVarying(p, 3, sizeof(name), &len, &size, &type, name);
	assert_int_equal(size, 3);
	assert_int_equal(len, 1);
	glGetTransformFeedbackVarying(p, 4, sizeof(name), &len, &size, &type, name);
	assert_gl_error(GL_INVALID_VALUE);

	/* the link errors of section 2.15.1 */
	names[1] = "nothing";
	glTransformFeedbackVaryings(p, 2, names, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(p);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "nothing is no output"));
	names[1] = "a";
	glTransformFeedbackVaryings(p, 2, names, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(p);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "named twice"));
	names[1] = "m";
	glTransformFeedbackVaryings(p, 2, names, GL_SEPARATE_ATTRIBS);
	glLinkProgram(p);
	glGetProgramInfoLog(p, sizeof(log), NULL, log);
	assert_non_null(strstr(log, "16 components"));
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_FALSE);
	glTransformFeedbackVaryings(p, 2, names, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glGetProgramiv(p, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &value);
	assert_int_equal(value, GL_INTERLEAVED_ATTRIBS);

	/* the call's own errors */
	glTransformFeedbackVaryings(p, 1, names, GL_RGBA);
	assert_gl_error(GL_INVALID_ENUM);
	glTransformFeedbackVaryings(p, -1, names, GL_INTERLEAVED_ATTRIBS);
	assert_gl_error(GL_INVALID_VALUE);
	glTransformFeedbackVaryings(p, 5, (const char *const[]){ "a", "a", "a", "a", "a" },
				    GL_SEPARATE_ATTRIBS);
	assert_gl_error(GL_INVALID_VALUE);
	glDeleteProgram(p);
	assert_gl_error(GL_NO_ERROR);
}

/* ---- deletion and sharing ------------------------------------------------------------- */

static void test_deferred_delete(void **state)
{
	struct fixture *f = *state;
	GLuint vs, fs, p;
	GLint value;

	make_current(f, f->es3);
	vs = shader(GL_VERTEX_SHADER, vs300, true);
	fs = shader(GL_FRAGMENT_SHADER, fs300, true);
	p = glCreateProgram();
	glAttachShader(p, vs);
	glAttachShader(p, fs);
	glLinkProgram(p);

	/* section 2.11.1: an attached shader stays until detached */
	glDeleteShader(vs);
	assert_true(glIsShader(vs));
	glGetShaderiv(vs, GL_DELETE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glDetachShader(p, vs);
	assert_false(glIsShader(vs));
	glGetShaderiv(vs, GL_DELETE_STATUS, &value);
	assert_gl_error(GL_INVALID_VALUE);

	/* section 2.11.3: a current program stays until no context uses it */
	glUseProgram(p);
	glDeleteShader(fs);
	glDeleteProgram(p);
	assert_true(glIsProgram(p));
	assert_true(glIsShader(fs));
	glGetProgramiv(p, GL_DELETE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, (GLint)p);
	/* still linked and usable: its uniforms can be queried */
	glGetProgramiv(p, GL_LINK_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glUseProgram(0);
	assert_false(glIsProgram(p));
	assert_false(glIsShader(fs)); /* it went with the program it was attached to */
	assert_gl_error(GL_NO_ERROR);
}

static void test_sharing(void **state)
{
	struct fixture *f = *state;
	GLuint vs, p;
	GLint value;

	make_current(f, f->es3);
	vs = shader(GL_VERTEX_SHADER, vs300, true);
	p = program(vs300, fs300);
	glUseProgram(p);

	/* the share list's context sees both; another group does not */
	make_current(f, f->shared);
	assert_true(glIsShader(vs));
	assert_true(glIsProgram(p));
	glGetShaderiv(vs, GL_COMPILE_STATUS, &value);
	assert_int_equal(value, GL_TRUE);
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, 0); /* the current program is per context */
	glUseProgram(p);
	make_current(f, f->other);
	assert_false(glIsShader(vs));
	assert_false(glIsProgram(p));
	glGetShaderiv(vs, GL_COMPILE_STATUS, &value);
	assert_gl_error(GL_INVALID_VALUE);

	/* deleted in one context while current in two: gone when both let it go */
	make_current(f, f->shared);
	glDeleteProgram(p);
	glDeleteShader(vs);
	assert_false(glIsShader(vs));
	assert_true(glIsProgram(p));
	glUseProgram(0);
	assert_true(glIsProgram(p));
	make_current(f, f->es3);
	assert_true(glIsProgram(p));
	glGetIntegerv(GL_CURRENT_PROGRAM, &value);
	assert_int_equal(value, (GLint)p);
	glUseProgram(0);
	assert_false(glIsProgram(p));
	assert_gl_error(GL_NO_ERROR);
}

/* A context destroyed with a deleted program current frees it. */
static void test_destroy_with_current(void **state)
{
	struct fixture *f = *state;
	const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLContext ctx = eglCreateContext(f->dpy, f->config, f->es3, attribs);
	GLuint p;

	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	make_current(f, ctx);
	p = program(vs300, fs300);
	glUseProgram(p);
	glDeleteProgram(p);
	make_current(f, f->es3);
	assert_true(glIsProgram(p));
	assert_true(eglDestroyContext(f->dpy, ctx));
	assert_false(glIsProgram(p));
}

/* NULL pointers and odd names: errors where the spec has them, never a crash. */
static void test_bad_arguments(void **state)
{
	struct fixture *f = *state;
	const char *null_string = NULL;
	char *long_name = malloc(100001);
	GLuint p, s, index = 0;

	make_current(f, f->es3);
	p = program("#version 300 es\nin vec4 p; uniform vec4 u[2];\n"
		    "void main() { gl_Position = p + u[1]; }",
		    fs300);
	s = glCreateShader(GL_VERTEX_SHADER);
	glShaderSource(s, 1, NULL, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glShaderSource(s, 1, &null_string, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glShaderSource(s, 0, NULL, NULL);
	assert_gl_error(GL_NO_ERROR);
	glCompileShader(s);
	glGetShaderiv(s, GL_SHADER_SOURCE_LENGTH, NULL);
	glGetShaderInfoLog(s, 10, NULL, NULL);
	glGetShaderSource(s, 10, NULL, NULL);
	assert_gl_error(GL_NO_ERROR);
	glBindAttribLocation(p, 0, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	assert_int_equal(glGetUniformLocation(p, NULL), -1);
	assert_int_equal(glGetAttribLocation(p, NULL), -1);
	assert_int_equal(glGetFragDataLocation(p, NULL), -1);
	assert_int_equal(glGetUniformBlockIndex(p, NULL), GL_INVALID_INDEX);
	memset(long_name, 'a', 100000);
	long_name[100000] = '\0';
	assert_int_equal(glGetUniformLocation(p, long_name), -1);
	long_name[99998] = '[';
	long_name[99999] = ']';
	assert_int_equal(glGetUniformLocation(p, long_name), -1);
	memcpy(long_name + 99990, "u[999999]", 10);
	assert_int_equal(glGetUniformLocation(p, long_name + 99990), -1);
	memcpy(long_name + 99980, "u[99999999999999999]", 21);
	assert_int_equal(glGetUniformLocation(p, long_name + 99980), -1);
	glGetActiveUniform(p, 0, 10, NULL, NULL, NULL, NULL);
	glGetActiveAttrib(p, 0, 10, NULL, NULL, NULL, NULL);
	glGetUniformIndices(p, 1, NULL, NULL);
	glGetAttachedShaders(p, 2, NULL, NULL);
	glGetProgramiv(p, GL_LINK_STATUS, NULL);
	assert_gl_error(GL_NO_ERROR);
	glGetActiveUniformsiv(p, 1, NULL, GL_UNIFORM_TYPE, NULL);
	assert_gl_error(GL_INVALID_VALUE);
	glGetActiveUniformsiv(p, 1, &index, GL_UNIFORM_TYPE, NULL);
	assert_gl_error(GL_NO_ERROR);
	glTransformFeedbackVaryings(p, 1, NULL, GL_INTERLEAVED_ATTRIBS);
	assert_gl_error(GL_INVALID_VALUE);
	glTransformFeedbackVaryings(p, 1, &null_string, GL_INTERLEAVED_ATTRIBS);
	assert_gl_error(GL_INVALID_VALUE);
	glUseProgram(p);
	glUniform4fv(glGetUniformLocation(p, "u"), 2, NULL);
	glGetUniformfv(p, glGetUniformLocation(p, "u"), NULL);
	assert_gl_error(GL_NO_ERROR);
	glUseProgram(0);
	glDeleteShader(s);
	glDeleteProgram(p);
	free(long_name);
	assert_gl_error(GL_NO_ERROR);
}

/* ---- fixture ---------------------------------------------------------------------------- */

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const EGLint config_attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
					  EGL_OPENGL_ES3_BIT, EGL_NONE };
	const EGLint es3[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	const EGLint es2[] = { EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE };
	EGLint n;

	test_stack_start(&f->stack, &options);
	setenv("AGX_MEMMGR_SOCKET", f->stack.memmgr, 1);
	setenv("AGX_SCHEDULER_SOCKET", f->stack.sched, 1);
	f->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (!eglInitialize(f->dpy, NULL, NULL) ||
	    !eglChooseConfig(f->dpy, config_attribs, &f->config, 1, &n) || n != 1)
		return -1;
	f->es3 = eglCreateContext(f->dpy, f->config, EGL_NO_CONTEXT, es3);
	f->es2_request = eglCreateContext(f->dpy, f->config, EGL_NO_CONTEXT, es2);
	f->shared = eglCreateContext(f->dpy, f->config, f->es3, es3);
	f->other = eglCreateContext(f->dpy, f->config, EGL_NO_CONTEXT, es3);
	if (!f->es3 || !f->es2_request || !f->shared || !f->other)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	bool clean;

	eglMakeCurrent(f->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(f->dpy);
	eglReleaseThread();
	clean = test_stack_stop(&f->stack);
	free(f);
	assert_true(clean);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shader_objects),	cmocka_unit_test(test_compile),
		cmocka_unit_test(test_program_objects), cmocka_unit_test(test_link_errors),
		cmocka_unit_test(test_introspection),	cmocka_unit_test(test_uniform_values),
		cmocka_unit_test(test_xfb_varyings),	cmocka_unit_test(test_deferred_delete),
		cmocka_unit_test(test_sharing),		cmocka_unit_test(test_destroy_with_current),
		cmocka_unit_test(test_bad_arguments),
	};

	if (!getenv("__EGL_VENDOR_LIBRARY_FILENAMES")) {
		fprintf(stderr, "%s: __EGL_VENDOR_LIBRARY_FILENAMES names no vendor file\n",
			argv[0]);
		return 2;
	}
	return test_stack_run(argc, argv, &options, tests, sizeof(tests) / sizeof(tests[0]), setup,
			      teardown);
}

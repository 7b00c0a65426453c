/*
 * agx-demo [--out DIR] [--size WxH] [--frames N] (`./agx demo`): the main
 * job, a GLES 3.0 application as any would be -- glvnd's libEGL and
 * libGLESv2, our EGL vendor, nothing of the stack's own API.  It renders
 * an animated scene of N frames: a texture drawn in a pass of its own
 * (an FBO) then sampled, a checkered ground with a mipmapped texture, 25
 * instanced cubes (per-instance attributes, indexed), lit per pixel in
 * GLSL ES 3.00, depth-tested, and a translucent pane blended over them.
 * Each frame is read back and written as DIR/frame-NNN.png; the program
 * prints what each frame took, the scheduler's metrics, and how its last
 * frame compares with the same program on Mesa's llvmpipe (the largest
 * channel difference and the pixels off by more than a few steps).
 *
 * `./agx demo` starts the stack (agx-stack run), which points glvnd at
 * this build's vendor.  The comparison runs this program again with
 * --reference and Mesa's vendor file.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "demo-common.h"

#define MESA_VENDOR "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
#define GRID	    5 /* cubes a side */
#define PLASMA	    128
/* Pixels may differ by rasterization and filtering rounding; more than this counts. */
#define TOLERANCE 8

/* ---- shaders ------------------------------------------------------------------------ */

static const char lit_vs[] =
    "#version 300 es\n"
    "layout(location = 0) in vec3 pos;\n"
    "layout(location = 1) in vec3 nrm;\n"
    "layout(location = 2) in vec2 uv;\n"
    "layout(location = 3) in vec4 inst; /* offset, and a phase: per instance */\n"
    "uniform mat4 view_proj;\n"
    "uniform float angle;\n"
    "uniform float scale;\n"
    "out vec3 v_nrm;\n"
    "out vec3 v_pos;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "	float a = angle + inst.w;\n"
    "	mat3 r = mat3(cos(a), 0.0, -sin(a), 0.0, 1.0, 0.0, sin(a), 0.0, cos(a));\n"
    "	vec3 p = r * (pos * scale) + inst.xyz;\n"
    "	v_nrm = r * nrm;\n"
    "	v_pos = p;\n"
    "	v_uv = uv;\n"
    "	gl_Position = view_proj * vec4(p, 1.0);\n"
    "}\n";

static const char lit_fs[] =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec3 v_nrm;\n"
    "in vec3 v_pos;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D tex;\n"
    "uniform vec3 light;\n"
    "uniform vec3 eye;\n"
    "uniform vec4 tint;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "	vec3 n = normalize(v_nrm);\n"
    "	vec3 l = normalize(light - v_pos);\n"
    "	vec3 h = normalize(l + normalize(eye - v_pos));\n"
    "	vec3 base = texture(tex, v_uv).rgb * tint.rgb;\n"
    "	float diffuse = max(dot(n, l), 0.0);\n"
    "	float specular = pow(max(dot(n, h), 0.0), 32.0);\n"
    "	colour = vec4(base * (0.2 + 0.8 * diffuse) + 0.35 * specular, tint.a);\n"
    "}\n";

/* The FBO pass: a triangle over the target from gl_VertexID, an animated plasma. */
static const char plasma_vs[] =
    "#version 300 es\n"
    "out vec2 p;\n"
    "void main() {\n"
    "	vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 4.0 - 1.0;\n"
    "	p = c * 0.5 + 0.5;\n"
    "	gl_Position = vec4(c, 0.0, 1.0);\n"
    "}\n";

static const char plasma_fs[] =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 p;\n"
    "uniform float t;\n"
    "out vec4 colour;\n"
    "void main() {\n"
    "	float v = sin(p.x * 10.0 + t) + sin(p.y * 12.0 - t * 1.3) + sin((p.x + p.y) * 8.0 + t);\n"
    "	colour = vec4(0.5 + 0.5 * sin(v), 0.5 + 0.5 * sin(v + 2.1), 0.5 + 0.5 * sin(v + 4.2), "
    "1.0);\n"
    "}\n";

/* ---- geometry and matrices -------------------------------------------------------------- */

struct vertex {
	float pos[3], nrm[3], uv[2];
};

/* A unit cube's 24 vertices (4 a face, its normal) and 36 indices. */
static void cube(struct vertex v[24], uint16_t idx[36])
{
	static const float n[6][3] = { { 1, 0, 0 },  { -1, 0, 0 }, { 0, 1, 0 },
				       { 0, -1, 0 }, { 0, 0, 1 },  { 0, 0, -1 } };

	for (unsigned f = 0; f < 6; f++) {
		/* two axes across the face, chosen so that the corners wind counter-clockwise */
		float u[3] = { n[f][1] + n[f][2], n[f][0], 0 }, w[3];

		if (n[f][1] != 0)
			u[0] = 1, u[1] = 0, u[2] = 0;
		w[0] = n[f][1] * u[2] - n[f][2] * u[1];
		w[1] = n[f][2] * u[0] - n[f][0] * u[2];
		w[2] = n[f][0] * u[1] - n[f][1] * u[0];
		for (unsigned c = 0; c < 4; c++) {
			float su = (c == 1 || c == 2) ? 1.0f : -1.0f, sw = c >= 2 ? 1.0f : -1.0f;
			struct vertex *x = &v[f * 4 + c];

			for (unsigned k = 0; k < 3; k++) {
				x->pos[k] = 0.5f * (n[f][k] + su * u[k] + sw * w[k]);
				x->nrm[k] = n[f][k];
			}
			x->uv[0] = su > 0 ? 1.0f : 0.0f;
			x->uv[1] = sw > 0 ? 1.0f : 0.0f;
		}
		idx[f * 6 + 0] = (uint16_t)(f * 4 + 0);
		idx[f * 6 + 1] = (uint16_t)(f * 4 + 1);
		idx[f * 6 + 2] = (uint16_t)(f * 4 + 2);
		idx[f * 6 + 3] = (uint16_t)(f * 4 + 0);
		idx[f * 6 + 4] = (uint16_t)(f * 4 + 2);
		idx[f * 6 + 5] = (uint16_t)(f * 4 + 3);
	}
}

/* Column-major 4x4 matrices, as GL takes them. */
static void mat_mul(float out[16], const float a[16], const float b[16])
{
	float r[16];

	for (unsigned c = 0; c < 4; c++)
		for (unsigned row = 0; row < 4; row++) {
			r[c * 4 + row] = 0;
			for (unsigned k = 0; k < 4; k++)
				r[c * 4 + row] += a[k * 4 + row] * b[c * 4 + k];
		}
	memcpy(out, r, sizeof(r));
}

static void perspective(float m[16], float fovy, float aspect, float near, float far)
{
	float f = 1.0f / tanf(fovy / 2);

	memset(m, 0, 16 * sizeof(float));
	m[0] = f / aspect;
	m[5] = f;
	m[10] = (far + near) / (near - far);
	m[11] = -1;
	m[14] = 2 * far * near / (near - far);
}

static void look_at(float m[16], const float eye[3], const float at[3])
{
	float f[3], s[3], u[3], len;

	for (unsigned k = 0; k < 3; k++)
		f[k] = at[k] - eye[k];
	len = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
	for (unsigned k = 0; k < 3; k++)
		f[k] /= len;
	/* s = f x up (up = +y), u = s x f */
	s[0] = -f[2], s[1] = 0, s[2] = f[0];
	len = sqrtf(s[0] * s[0] + s[2] * s[2]);
	s[0] /= len, s[2] /= len;
	u[0] = s[1] * f[2] - s[2] * f[1];
	u[1] = s[2] * f[0] - s[0] * f[2];
	u[2] = s[0] * f[1] - s[1] * f[0];
	memset(m, 0, 16 * sizeof(float));
	for (unsigned k = 0; k < 3; k++) {
		m[k * 4 + 0] = s[k];
		m[k * 4 + 1] = u[k];
		m[k * 4 + 2] = -f[k];
	}
	m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
	m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
	m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
	m[15] = 1;
}

/* ---- GL ------------------------------------------------------------------------------- */

static GLuint shader(GLenum stage, const char *src)
{
	GLuint s = glCreateShader(stage);
	GLint ok = 0;
	char log[1024];

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fprintf(stderr, "agx-demo: a shader does not compile: %s\n", log);
		exit(1);
	}
	return s;
}

static GLuint program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram();
	GLint ok = 0;
	char log[1024];

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "agx-demo: a program does not link: %s\n", log);
		exit(1);
	}
	return p;
}

/* A surfaceless ES 3.0 context of the vendor glvnd picks, current; false when there is none. */
static bool context(void)
{
	static const EGLint config_attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
						 EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
						 EGL_NONE };
	static const EGLint context_attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLConfig config;
	EGLContext ctx;
	EGLint n = 0;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API) ||
	    !eglChooseConfig(dpy, config_attribs, &config, 1, &n) || !n)
		return false;
	ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
	return ctx != EGL_NO_CONTEXT && eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx);
}

struct scene {
	unsigned width, height;
	GLuint fbo, colour, depth;
	GLuint plasma_fbo, plasma_tex, checker_tex;
	GLuint lit, plasma;
	GLuint cube_vbo, cube_ibo, inst_vbo, ground_vbo;
};

static void attrib_layout(void)
{
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glEnableVertexAttribArray(2);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
			      (void *)offsetof(struct vertex, pos));
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
			      (void *)offsetof(struct vertex, nrm));
	glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
			      (void *)offsetof(struct vertex, uv));
}

static void setup(struct scene *s)
{
	static const struct vertex ground[4] = {
		{ { -6, 0, -6 }, { 0, 1, 0 }, { 0, 0 } },
		{ { -6, 0, 6 }, { 0, 1, 0 }, { 0, 6 } },
		{ { 6, 0, -6 }, { 0, 1, 0 }, { 6, 0 } },
		{ { 6, 0, 6 }, { 0, 1, 0 }, { 6, 6 } },
	};
	uint32_t checker[64 * 64];
	float inst[GRID * GRID][4];
	struct vertex v[24];
	uint16_t idx[36];

	/* the frame's own framebuffer: RGBA8 and a depth buffer */
	glGenFramebuffers(1, &s->fbo);
	glGenRenderbuffers(1, &s->colour);
	glGenRenderbuffers(1, &s->depth);
	glBindRenderbuffer(GL_RENDERBUFFER, s->colour);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)s->width, (GLsizei)s->height);
	glBindRenderbuffer(GL_RENDERBUFFER, s->depth);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, (GLsizei)s->width,
			      (GLsizei)s->height);
	glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, s->colour);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, s->depth);

	/* the plasma's texture, drawn into every frame */
	glGenTextures(1, &s->plasma_tex);
	glBindTexture(GL_TEXTURE_2D, s->plasma_tex);
	glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, PLASMA, PLASMA);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glGenFramebuffers(1, &s->plasma_fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, s->plasma_fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->plasma_tex,
			       0);

	/* a checkerboard with its mipmaps, repeated over the ground */
	for (unsigned y = 0; y < 64; y++)
		for (unsigned x = 0; x < 64; x++)
			checker[y * 64 + x] = ((x / 8 + y / 8) & 1) ? 0xffe0e0e0u : 0xff404858u;
	glGenTextures(1, &s->checker_tex);
	glBindTexture(GL_TEXTURE_2D, s->checker_tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, checker);
	glGenerateMipmap(GL_TEXTURE_2D);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);

	cube(v, idx);
	glGenBuffers(1, &s->cube_vbo);
	glBindBuffer(GL_ARRAY_BUFFER, s->cube_vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(v), v, GL_STATIC_DRAW);
	glGenBuffers(1, &s->cube_ibo);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->cube_ibo);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(idx), idx, GL_STATIC_DRAW);
	for (unsigned i = 0; i < GRID * GRID; i++) {
		inst[i][0] = ((float)(i % GRID) - (GRID - 1) / 2.0f) * 1.6f;
		inst[i][1] = 0.6f + 0.25f * (float)((i * 7) % 3);
		inst[i][2] = ((float)(i / GRID) - (GRID - 1) / 2.0f) * 1.6f;
		inst[i][3] = (float)i * 0.7f;
	}
	glGenBuffers(1, &s->inst_vbo);
	glBindBuffer(GL_ARRAY_BUFFER, s->inst_vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(inst), inst, GL_STATIC_DRAW);
	glGenBuffers(1, &s->ground_vbo);
	glBindBuffer(GL_ARRAY_BUFFER, s->ground_vbo);
	glBufferData(GL_ARRAY_BUFFER, sizeof(ground), ground, GL_STATIC_DRAW);

	s->lit = program(lit_vs, lit_fs);
	s->plasma = program(plasma_vs, plasma_fs);
}

/* The checkered quad at height y, scaled, tinted: the lit program's constant instance. */
static void checkered_quad(const struct scene *s, float y, float scale, const float tint[4])
{
	glBindTexture(GL_TEXTURE_2D, s->checker_tex);
	glBindBuffer(GL_ARRAY_BUFFER, s->ground_vbo);
	attrib_layout();
	glDisableVertexAttribArray(3);
	glVertexAttrib4f(3, 0, y, 0, 0);
	glUniform1f(glGetUniformLocation(s->lit, "angle"), 0);
	glUniform1f(glGetUniformLocation(s->lit, "scale"), scale);
	glUniform4fv(glGetUniformLocation(s->lit, "tint"), 1, tint);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* Frame n of the animation, into the scene's framebuffer. */
static void draw_frame(struct scene *s, unsigned n)
{
	const float t = (float)n * 0.25f;
	const float eye[3] = { 9.0f * sinf(t * 0.3f), 5.0f, 9.0f * cosf(t * 0.3f) };
	const float at[3] = { 0, 0.5f, 0 }, light[3] = { 4, 8, 3 };
	float proj[16], view[16], view_proj[16];
	GLuint p = s->lit;

	/* the FBO pass: the plasma, then its texture is sampled by the cubes */
	glBindFramebuffer(GL_FRAMEBUFFER, s->plasma_fbo);
	glViewport(0, 0, PLASMA, PLASMA);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_BLEND);
	glUseProgram(s->plasma);
	glUniform1f(glGetUniformLocation(s->plasma, "t"), t);
	glDrawArrays(GL_TRIANGLES, 0, 3);

	glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
	glViewport(0, 0, (GLsizei)s->width, (GLsizei)s->height);
	glClearColor(0.08f, 0.1f, 0.16f, 1);
	glClearDepthf(1);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glEnable(GL_CULL_FACE);
	perspective(proj, 0.9f, (float)s->width / (float)s->height, 0.5f, 40.0f);
	look_at(view, eye, at);
	mat_mul(view_proj, proj, view);
	glUseProgram(p);
	glUniformMatrix4fv(glGetUniformLocation(p, "view_proj"), 1, GL_FALSE, view_proj);
	glUniform3fv(glGetUniformLocation(p, "light"), 1, light);
	glUniform3fv(glGetUniformLocation(p, "eye"), 1, eye);
	glUniform1i(glGetUniformLocation(p, "tex"), 0);
	glActiveTexture(GL_TEXTURE0);

	/* the ground: one quad, no instance array (a constant attribute) */
	checkered_quad(s, 0, 1, (const float[4]){ 1, 1, 1, 1 });

	/* the cubes: instanced, indexed, textured with this frame's plasma */
	glBindTexture(GL_TEXTURE_2D, s->plasma_tex);
	glBindBuffer(GL_ARRAY_BUFFER, s->cube_vbo);
	attrib_layout();
	glBindBuffer(GL_ARRAY_BUFFER, s->inst_vbo);
	glEnableVertexAttribArray(3);
	glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glVertexAttribDivisor(3, 1);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s->cube_ibo);
	glUniform1f(glGetUniformLocation(p, "angle"), t);
	glUniform1f(glGetUniformLocation(p, "scale"), 0.8f);
	glDrawElementsInstanced(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, NULL, GRID * GRID);
	glVertexAttribDivisor(3, 0);

	/* a translucent pane over them: blended, tested but not written to depth */
	glDisable(GL_CULL_FACE);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glDepthMask(GL_FALSE);
	checkered_quad(s, 2.2f, 0.45f, (const float[4]){ 0.5f, 0.8f, 1.0f, 0.35f });
	glDepthMask(GL_TRUE);
	glDisable(GL_BLEND);
}

/* The frame's pixels, top row first (as a PNG has them). */
static void read_frame(const struct scene *s, uint32_t *pixels)
{
	glBindFramebuffer(GL_READ_FRAMEBUFFER, s->fbo);
	glReadPixels(0, 0, (GLsizei)s->width, (GLsizei)s->height, GL_RGBA, GL_UNSIGNED_BYTE,
		     pixels);
	/* GL's row 0 is the bottom one */
	for (unsigned y = 0; y < s->height / 2; y++)
		for (unsigned x = 0; x < s->width; x++) {
			uint32_t *a = &pixels[y * s->width + x];
			uint32_t *b = &pixels[(s->height - 1 - y) * s->width + x];
			uint32_t c = *a;

			*a = *b;
			*b = c;
		}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* --reference N: frame N on whatever vendor glvnd loads, raw RGBA on stdout. */
static int reference(struct scene *s, unsigned frame)
{
	size_t bytes = (size_t)s->width * s->height * 4;
	uint32_t *pixels = malloc(bytes);

	if (!pixels || !context())
		return 1;
	setup(s);
	draw_frame(s, frame);
	read_frame(s, pixels);
	if (fwrite(pixels, 1, bytes, stdout) != bytes)
		return 1;
	free(pixels);
	return 0;
}

/*
 * The last frame again on llvmpipe, compared with ours: prints the largest
 * channel difference and how many pixels differ by more than TOLERANCE;
 * writes the reference as DIR/llvmpipe.png.  False when it could not run.
 */
static bool compare_llvmpipe(const struct scene *s, unsigned frame, const uint32_t *ours,
			     const char *dir)
{
	size_t bytes = (size_t)s->width * s->height * 4, got = 0;
	uint32_t *ref = malloc(bytes);
	unsigned largest = 0, off = 0;
	char arg_frame[16], arg_size[32], path[4096];
	int fds[2], status;
	pid_t pid;

	if (!ref || access(MESA_VENDOR, R_OK) != 0 || pipe(fds) < 0) {
		free(ref);
		return false;
	}
	snprintf(arg_frame, sizeof(arg_frame), "%u", frame);
	snprintf(arg_size, sizeof(arg_size), "%ux%u", s->width, s->height);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		setenv("__EGL_VENDOR_LIBRARY_FILENAMES", MESA_VENDOR, 1);
		setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
		execl("/proc/self/exe", "agx-demo", "--reference", arg_frame, "--size", arg_size,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && got < bytes) {
		ssize_t n = read(fds[0], (uint8_t *)ref + got, bytes - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || got != bytes) {
		free(ref);
		return false;
	}
	for (size_t i = 0; i < (size_t)s->width * s->height; i++) {
		unsigned worst = 0;

		for (unsigned c = 0; c < 4; c++) {
			int a = (int)(ours[i] >> (8 * c) & 0xff),
			    b = (int)(ref[i] >> (8 * c) & 0xff);
			unsigned d = (unsigned)abs(a - b);

			worst = d > worst ? d : worst;
		}
		largest = worst > largest ? worst : largest;
		off += worst > TOLERANCE;
	}
	snprintf(path, sizeof(path), "%s/llvmpipe.png", dir);
	write_png(path, ref, s->width, s->height);
	printf("\nthe last frame on llvmpipe (%s): largest channel difference %u of 255; "
	       "%u of %u pixels differ by more than %u\n",
	       path, largest, off, s->width * s->height, TOLERANCE);
	printf("demo.llvmpipe_max_diff %u\ndemo.llvmpipe_pixels_off %u\n", largest, off);
	free(ref);
	return true;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "frames", required_argument, NULL, 'f' },
		{ "reference", required_argument, NULL, 'r' },
		{ 0 },
	};
	struct scene s = { .width = 640, .height = 360 };
	const char *dir = "out";
	unsigned frames = 8;
	int ref = -1, opt;
	uint32_t *pixels;
	double total = 0;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 's':
			if (sscanf(optarg, "%ux%u", &s.width, &s.height) != 2 || !s.width ||
			    !s.height || s.width > 4096 || s.height > 4096)
				goto usage;
			break;
		case 'f':
			frames = (unsigned)strtoul(optarg, NULL, 0);
			if (!frames || frames > 1000)
				goto usage;
			break;
		case 'r':
			ref = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (ref >= 0)
		return reference(&s, (unsigned)ref);
	if (!context()) {
		fprintf(stderr, "agx-demo: no OpenGL ES 3.0 context (0x%x)\n", eglGetError());
		return 1;
	}
	printf("agx-demo: %s, %s\n", (const char *)glGetString(GL_RENDERER),
	       (const char *)glGetString(GL_VERSION));
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "agx-demo: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	pixels = malloc((size_t)s.width * s.height * 4);
	if (!pixels)
		return 1;
	setup(&s);
	for (unsigned n = 0; n < frames; n++) {
		char path[4096];
		double start = now_ms(), took;

		draw_frame(&s, n);
		read_frame(&s, pixels);
		took = now_ms() - start;
		total += took;
		snprintf(path, sizeof(path), "%s/frame-%03u.png", dir, n);
		if (write_png(path, pixels, s.width, s.height) < 0) {
			fprintf(stderr, "agx-demo: %s: cannot write it\n", path);
			return 1;
		}
		printf("frame %u: %.1f ms (%s)\n", n, took, path);
	}
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "agx-demo: the GL reported an error\n");
		return 1;
	}
	printf("%u frames of %ux%u in %.1f ms: %.1f ms a frame\n", frames, s.width, s.height, total,
	       total / frames);
	print_metrics();
	if (!compare_llvmpipe(&s, frames - 1, pixels, dir))
		printf("\n(no comparison with llvmpipe: Mesa's EGL vendor, %s, did not run)\n",
		       MESA_VENDOR);
	free(pixels);
	return 0;

usage:
	fprintf(stderr, "usage: agx-demo [--out DIR] [--size WxH] [--frames N]\n");
	return 2;
}

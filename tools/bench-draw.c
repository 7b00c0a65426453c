/*
 * bench-draw: `./agx bench draw`.  The CPU cost of a GLES draw call with a
 * state change before it, on this stack and on Mesa's llvmpipe in the
 * same run: a workload (this program with --workload, run once with each
 * EGL vendor) draws DRAWS small triangles into a 256x256 pbuffer, each
 * after a glUniform4f that changes its colour, and times the calls alone
 * (the glFinish after the loop, which waits for the GPU or llvmpipe's
 * rasterizer threads, is not counted): the CPU time of the calling
 * thread (CLOCK_THREAD_CPUTIME_ID: what a draw costs the application's
 * CPU), and the wall time (CLOCK_MONOTONIC), which also holds the waits
 * of a draw that finds the GPU behind -- agx-sim, or llvmpipe's
 * rasterizer, still busy with earlier passes.  The best of ROUNDS rounds
 * each.  Prints
 *   draw.ns_per_draw N ns             (CPU)
 *   draw.wall_ns_per_draw N ns
 *   draw.llvmpipe_ns_per_draw N ns    (CPU)
 *   draw.llvmpipe_wall_ns_per_draw N ns
 * (the llvmpipe lines only when Mesa's EGL vendor is installed).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include "bench.h"

#define DRAWS	    20000
#define ROUNDS	    5
#define MESA_VENDOR "/usr/share/glvnd/egl_vendor.d/50_mesa.json"

static const char vs[] = "#version 300 es\n"
			 "layout(location = 0) in vec2 pos;\n"
			 "uniform vec2 at;\n"
			 "void main() { gl_Position = vec4(pos * 0.05 + at, 0.5, 1.0); }\n";
static const char fs[] = "#version 300 es\n"
			 "precision mediump float;\n"
			 "uniform vec4 colour;\n"
			 "out vec4 o;\n"
			 "void main() { o = colour; }\n";

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	return s;
}

/* The calling thread's CPU time, in microseconds. */
static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The workload: the best round's CPU and wall ns a draw on stdout. */
static int workload(void)
{
	static const float tri[] = { -1, -1, 1, -1, 0, 1 };
	const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
				   EGL_OPENGL_ES3_BIT, EGL_NONE };
	const EGLint pb[] = { EGL_WIDTH, 256, EGL_HEIGHT, 256, EGL_NONE };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
	EGLDisplay dpy =
	    eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLConfig config;
	EGLSurface surf;
	EGLContext ctx;
	EGLint n = 0;
	GLuint prog, buf;
	GLint colour, at;
	double best = 1e30, best_cpu = 1e30;

	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API) || !eglChooseConfig(dpy, attribs, &config, 1, &n) ||
	    !n || (surf = eglCreatePbufferSurface(dpy, config, pb)) == EGL_NO_SURFACE ||
	    (ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca)) == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(dpy, surf, surf, ctx)) {
		fprintf(stderr, "agx-bench-draw: no GLES 3.0 context (0x%x)\n", eglGetError());
		return 1;
	}
	prog = glCreateProgram();
	glAttachShader(prog, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs));
	glLinkProgram(prog);
	glUseProgram(prog);
	colour = glGetUniformLocation(prog, "colour");
	at = glGetUniformLocation(prog, "at");
	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
	glUniform2f(at, 0, 0);
	/* the first draw compiles the variants: not timed */
	glDrawArrays(GL_TRIANGLES, 0, 3);
	glFinish();
	for (unsigned r = 0; r < ROUNDS; r++) {
		double t0 = bench_now_us(), c0 = cpu_us(), t, c;

		for (unsigned i = 0; i < DRAWS; i++) {
			glUniform4f(colour, (float)(i & 255) / 255, 0.5f, 0.25f, 1);
			glDrawArrays(GL_TRIANGLES, 0, 3);
		}
		c = cpu_us() - c0;
		t = bench_now_us() - t0;
		glFinish();
		best = t < best ? t : best;
		best_cpu = c < best_cpu ? c : best_cpu;
	}
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "agx-bench-draw: a GL error\n");
		return 1;
	}
	printf("%.1f %.1f\n", best_cpu * 1000 / DRAWS, best * 1000 / DRAWS);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(dpy);
	return 0;
}

/* Runs the workload with env added: its CPU and wall ns a draw; false when it failed. */
static bool run(char *const env[], double *cpu, double *wall)
{
	int fds[2];
	char out[64] = "";
	pid_t pid;
	ssize_t r;
	int status;

	if (pipe(fds) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		for (unsigned i = 0; env[i]; i++)
			putenv(env[i]);
		execl("/proc/self/exe", "agx-bench-draw", "--workload", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	r = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (r <= 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return false;
	return sscanf(out, "%lf %lf", cpu, wall) == 2;
}

int main(int argc, char **argv)
{
	struct bench_stack st;
	char memmgr[160], sched[160], vendor[PATH_MAX + 64], json[PATH_MAX + 32];
	char *mesa_env[] = { "__EGL_VENDOR_LIBRARY_FILENAMES=" MESA_VENDOR,
			     "EGL_PLATFORM=surfaceless", "LIBGL_ALWAYS_SOFTWARE=1",
			     "GALLIUM_DRIVER=llvmpipe", NULL };
	double cpu, wall;
	bool ok;

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	if (bench_stack_start(&st, 4) < 0)
		return 1;
	bench_sibling(json, sizeof(json), "gles/50_agx-uninstalled.json");
	snprintf(vendor, sizeof(vendor), "__EGL_VENDOR_LIBRARY_FILENAMES=%s", json);
	snprintf(memmgr, sizeof(memmgr), "AGX_MEMMGR_SOCKET=%s", st.sock[BENCH_MEMMGR]);
	snprintf(sched, sizeof(sched), "AGX_SCHEDULER_SOCKET=%s", st.sock[BENCH_SCHEDULER]);
	ok = run((char *[]){ vendor, memmgr, sched, NULL }, &cpu, &wall);
	bench_stack_stop(&st);
	if (!ok) {
		fprintf(stderr, "agx-bench-draw: the workload failed on this stack\n");
		return 1;
	}
	printf("draw.ns_per_draw %.0f ns\n", cpu);
	printf("draw.wall_ns_per_draw %.0f ns\n", wall);
	if (access(MESA_VENDOR, R_OK) == 0 && run(mesa_env, &cpu, &wall)) {
		printf("draw.llvmpipe_ns_per_draw %.0f ns\n", cpu);
		printf("draw.llvmpipe_wall_ns_per_draw %.0f ns\n", wall);
	}
	return 0;
}

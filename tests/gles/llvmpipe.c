/*
 * llvmpipe.c: the comparison with Mesa's llvmpipe (llvmpipe.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <GLES3/gl3.h>

#include "llvmpipe.h"
#include "sanitized.h"

void llvmpipe_record(const char *name, const void *bytes, size_t n)
{
	printf("%s ", name);
	for (size_t i = 0; i < n; i++)
		printf("%02x", ((const uint8_t *)bytes)[i]);
	printf("\n");
}

void llvmpipe_record_error(const char *name)
{
	GLenum err = glGetError();
	char n[160];

	snprintf(n, sizeof(n), "%s:error", name);
	llvmpipe_record(n, &err, sizeof(err));
}

struct run {
	char *text;
	char **lines;
	size_t n;
};

/* Runs this program's workload in a child with env (NAME=VALUE strings) added. */
static bool run_workload(const char *const *env, struct run *out)
{
	int fds[2];
	pid_t pid;
	size_t size = 0, cap = 1 << 20;
	int status;

	memset(out, 0, sizeof(*out));
	if (pipe(fds) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		for (unsigned i = 0; env[i]; i++)
			putenv((char *)env[i]);
		execl("/proc/self/exe", "workload", "--workload", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	out->text = malloc(cap);
	for (;;) {
		ssize_t r;

		if (size + 65536 > cap)
			out->text = realloc(out->text, cap *= 2);
		r = read(fds[0], out->text + size, cap - size - 1);
		if (r <= 0)
			break;
		size += (size_t)r;
	}
	close(fds[0]);
	out->text[size] = 0;
	waitpid(pid, &status, 0);
	if (getenv("AGX_TEST_LLVMPIPE_DUMP")) {
		static unsigned runs;
		char path[4200];
		FILE *f;

		snprintf(path, sizeof(path), "%s-%u", getenv("AGX_TEST_LLVMPIPE_DUMP"), runs++);
		if ((f = fopen(path, "w"))) {
			fputs(out->text, f);
			fclose(f);
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out->text);
		out->text = NULL;
		return false;
	}
	for (char *p = out->text; *p; p++)
		out->n += *p == '\n';
	out->lines = calloc(out->n + 1, sizeof(char *));
	out->n = 0;
	for (char *line = strtok(out->text, "\n"); line; line = strtok(NULL, "\n"))
		out->lines[out->n++] = line;
	return true;
}

static const char *find(const struct run *r, const char *name, size_t len)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strncmp(r->lines[i], name, len) && r->lines[i][len] == ' ')
			return r->lines[i] + len + 1;
	return NULL;
}

/*
 * Two RGBA/UNSIGNED_BYTE records whose bytes differ at most by the
 * tolerance the name starts with ("~R.G.B.A~"), channel by channel.
 */
static bool within(const char *name, const char *a, const char *b)
{
	unsigned tol[4], n = 0;

	if (strlen(a) != strlen(b) ||
	    sscanf(name, "~%u.%u.%u.%u~", &tol[0], &tol[1], &tol[2], &tol[3]) != 4)
		return false;
	for (; a[0] && a[1]; a += 2, b += 2, n++) {
		unsigned x, y;

		if (sscanf(a, "%2x", &x) != 1 || sscanf(b, "%2x", &y) != 1 ||
		    (x > y ? x - y : y - x) > tol[n % 4])
			return false;
	}
	return true;
}

static void free_run(struct run *r)
{
	free(r->text);
	free(r->lines);
}

/* Records are long: the first bytes of each, as TAP diagnostics ("# " lines). */
static void show(const char *what, const char *name, size_t len, const char *ours, const char *mesa)
{
	print_message("# %s: %.*s\n#   ours  %.160s%s\n#   mesa  %.160s%s\n", what, (int)len, name,
		      ours, strlen(ours) > 160 ? "..." : "", mesa, strlen(mesa) > 160 ? "..." : "");
}

void llvmpipe_compare(const struct test_stack *s, size_t min_records)
{
	char memmgr[160], sched[160];
	const char *ours_env[] = { memmgr, sched, NULL };
	const char *mesa_env[] = { "__EGL_VENDOR_LIBRARY_FILENAMES=" MESA_VENDOR,
				   "EGL_PLATFORM=surfaceless", "LIBGL_ALWAYS_SOFTWARE=1",
				   "GALLIUM_DRIVER=llvmpipe",
				   /* Mesa's own leaks are not this test's to find */
				   SANITIZED ? "ASAN_OPTIONS=detect_leaks=0" : NULL, NULL };
	struct run ours, mesa;
	unsigned compared = 0, differ = 0, shown = 0;

	if (access(MESA_VENDOR, R_OK) != 0) {
		print_message("# no Mesa EGL vendor (%s): nothing to compare with\n", MESA_VENDOR);
		skip();
	}
	snprintf(memmgr, sizeof(memmgr), "AGX_MEMMGR_SOCKET=%s", s->memmgr);
	snprintf(sched, sizeof(sched), "AGX_SCHEDULER_SOCKET=%s", s->sched);
	assert_true(run_workload(ours_env, &ours));
	assert_true(run_workload(mesa_env, &mesa));
	assert_true(ours.n >= min_records);
	for (size_t i = 0; i < ours.n; i++) {
		const char *line = ours.lines[i], *space = strchr(line, ' ');
		size_t len = space ? (size_t)(space - line) : strlen(line);
		const char *theirs = find(&mesa, line, len);

		if (!space)
			continue;
		if (!theirs) {
			if (line[0] != '#')
				print_message("# only ours: %.*s\n", (int)len, line);
			continue;
		}
		if (!strcmp(space + 1, theirs) ||
		    (line[0] == '~' && within(line, space + 1, theirs))) {
			compared++;
			continue;
		}
		if (line[0] == '#') {
			show("differs (the spec allows it)", line, len, space + 1, theirs);
			continue;
		}
		differ++;
		if (shown++ < 40)
			show("DIFFERS", line, len, space + 1, theirs);
	}
	for (size_t i = 0; i < mesa.n; i++) {
		const char *space = strchr(mesa.lines[i], ' ');
		size_t len = space ? (size_t)(space - mesa.lines[i]) : strlen(mesa.lines[i]);

		if (mesa.lines[i][0] != '#' && !find(&ours, mesa.lines[i], len))
			print_message("# only Mesa's: %.*s\n", (int)len, mesa.lines[i]);
	}
	print_message("# %u records the same, %u different\n", compared, differ);
	free_run(&ours);
	free_run(&mesa);
	assert_int_equal(differ, 0);
}

void llvmpipe_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "workload: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

EGLConfig llvmpipe_config(EGLDisplay dpy, EGLint surface_type, EGLint major, EGLint r, EGLint g,
			  EGLint b, EGLint a)
{
	const EGLint attribs[] = { EGL_SURFACE_TYPE,
				   surface_type,
				   EGL_RENDERABLE_TYPE,
				   major == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES3_BIT,
				   EGL_RED_SIZE,
				   r,
				   EGL_GREEN_SIZE,
				   g,
				   EGL_BLUE_SIZE,
				   b,
				   EGL_ALPHA_SIZE,
				   a,
				   EGL_NONE };
	EGLConfig configs[64];
	EGLint n = 0;

	if (!eglChooseConfig(dpy, attribs, configs, 64, &n))
		return NULL;
	for (EGLint i = 0; i < n; i++) {
		EGLint v[4];

		eglGetConfigAttrib(dpy, configs[i], EGL_RED_SIZE, &v[0]);
		eglGetConfigAttrib(dpy, configs[i], EGL_GREEN_SIZE, &v[1]);
		eglGetConfigAttrib(dpy, configs[i], EGL_BLUE_SIZE, &v[2]);
		eglGetConfigAttrib(dpy, configs[i], EGL_ALPHA_SIZE, &v[3]);
		if (v[0] == r && v[1] == g && v[2] == b && v[3] == a)
			return configs[i];
	}
	return NULL;
}

bool llvmpipe_make_current(EGLDisplay dpy, EGLint r, EGLint g, EGLint b, EGLint a, EGLint major,
			   EGLint w, EGLint h, EGLSurface *surf_out, EGLContext *ctx_out)
{
	const EGLint pb[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
	const EGLint ca[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, 0,
			      EGL_NONE };
	EGLConfig config = llvmpipe_config(dpy, EGL_PBUFFER_BIT, major, r, g, b, a);

	if (!config)
		return false;
	*surf_out = eglCreatePbufferSurface(dpy, config, pb);
	*ctx_out = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ca);
	return *surf_out != EGL_NO_SURFACE && *ctx_out != EGL_NO_CONTEXT &&
	       eglMakeCurrent(dpy, *surf_out, *surf_out, *ctx_out);
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[2048];

		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fprintf(stderr, "workload: a shader does not compile: %s\n%s\n", log, src);
		exit(1);
	}
	return s;
}

GLuint llvmpipe_program_xfb(const char *vs, const char *fs, const char *const *names,
			    const char *const *xfb, GLenum xfb_mode)
{
	GLuint p = glCreateProgram();
	GLint ok = 0;
	GLsizei n = 0;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	for (unsigned i = 0; names && names[i]; i++)
		glBindAttribLocation(p, i, names[i]);
	while (xfb && xfb[n])
		n++;
	if (n)
		glTransformFeedbackVaryings(p, n, (const GLchar *const *)xfb, xfb_mode);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[2048];

		glGetProgramInfoLog(p, sizeof(log), NULL, log);
		fprintf(stderr, "workload: a program does not link: %s\n", log);
		exit(1);
	}
	glUseProgram(p);
	return p;
}

GLuint llvmpipe_program(const char *vs, const char *fs, const char *const *names)
{
	return llvmpipe_program_xfb(vs, fs, names, NULL, 0);
}

void llvmpipe_release(EGLDisplay dpy, EGLSurface surf, EGLContext ctx)
{
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglDestroySurface(dpy, surf);
	eglTerminate(dpy);
}

/* ---- a test program of one comparison --------------------------------------------------- */

static struct test_stack_options main_options;
static size_t main_min_records;

static void test_llvmpipe(void **state)
{
	llvmpipe_compare(*state, main_min_records);
}

static int setup(void **state)
{
	struct test_stack *s = calloc(1, sizeof(*s));

	test_stack_start(s, &main_options);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct test_stack *s = *state;
	bool clean = test_stack_stop(s);

	free(s);
	return clean ? 0 : -1;
}

int llvmpipe_main(int argc, char **argv, int (*workload)(void), size_t min_records)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llvmpipe),
	};

	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload();
	main_min_records = min_records;
	return test_stack_run(argc, argv, &main_options, tests, sizeof(tests) / sizeof(tests[0]),
			      setup, teardown);
}

const char llvmpipe_vs_pos_col[] = "#version 300 es\n"
				   "in vec4 pos;\n"
				   "in vec4 col;\n"
				   "out vec4 v;\n"
				   "void main() { gl_Position = pos; v = col; }\n";
const char llvmpipe_fs_col[] = "#version 300 es\n"
			       "precision highp float;\n"
			       "in vec4 v;\n"
			       "out vec4 o;\n"
			       "void main() { o = v; }\n";
const char *const llvmpipe_pos_col[] = { "pos", "col", NULL };

/*
 * bench-glmark2: `./agx bench glmark2 [SECONDS]`.  Debian's glmark2-es2
 * (glmark2-es2-x11), unmodified, on an X server of its own (Xvfb), at
 * 800x600: every scene of its default list, each for SECONDS (default 2),
 * once on this stack and once on Mesa's llvmpipe in the same run.  Prints
 * per scene
 *   glmark2.SCENE.fps N fps
 *   glmark2.SCENE.llvmpipe_fps N fps
 *   glmark2.SCENE.ratio R
 * (SCENE: glmark2's scene name and options, made one word), then
 *   glmark2.geomean_ratio R
 * the geometric mean of the ratios (ours over llvmpipe's).  A scene that
 * fails on one side prints its fps as 0 and is left out of the mean.
 */
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>

#include "bench.h"

#define MESA_VENDOR "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
#define GLMARK2	    "/usr/bin/glmark2-es2"
#define MAX_SCENES  64

struct scene {
	char name[160];
	double fps[2]; /* ours, llvmpipe's; 0: it did not run */
};

/* Xvfb on a display it picks (-displayfd); its pid, the display in *display. */
static pid_t xvfb_start(char *display, size_t size)
{
	char fd_arg[16], buf[16] = "";
	int fds[2];
	ssize_t n;
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	snprintf(fd_arg, sizeof(fd_arg), "%d", fds[1]);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		close(fds[0]);
		dup2(null, 1);
		dup2(null, 2);
		execlp("Xvfb", "Xvfb", "-displayfd", fd_arg, "-nolisten", "tcp", "-screen", "0",
		       "1024x768x24", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	n = pid > 0 ? read(fds[0], buf, sizeof(buf) - 1) : -1;
	close(fds[0]);
	if (n <= 0) {
		bench_stop(pid);
		return -1;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(display, size, ":%s", buf);
	return pid;
}

/*
 * "[build] duration=2.0:use-vbo=false: FPS: ..." as one word,
 * "build.use-vbo_false": the options but the duration, '.'-separated.
 */
static void scene_name(const char *line, char *out, size_t size)
{
	const char *end = strstr(line, ": FPS: ");
	size_t n = 0;

	out[0] = '\0';
	if (!end)
		return;
	for (const char *p = line; p < end && n + 1 < size;) {
		size_t len = strcspn(p, ":]");

		if (p + len > end)
			len = (size_t)(end - p);
		if (*p == '[') {
			p++;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		if (len && strncmp(p, "duration=", 9) && strncmp(p, "<default>", 9)) {
			if (n && n + 1 < size)
				out[n++] = '.';
			for (size_t k = 0; k < len && n + 1 < size; k++) {
				char c = p[k];

				out[n++] = c == '=' || c == ',' || c == ';' ? '_' : c;
			}
		}
		p += len + (p + len < end);
	}
	out[n] = '\0';
}

/*
 * glmark2-es2 over every default scene, with env added: each scene's fps
 * into side (0 ours, 1 llvmpipe's) of the scenes, found or added by name.
 * False when it did not run.
 */
static bool run(char *const env[], unsigned seconds, struct scene *scenes, unsigned *count,
		unsigned side)
{
	char duration[32], line[512];
	int fds[2], status;
	FILE *in;
	pid_t pid;

	snprintf(duration, sizeof(duration), ":duration=%u", seconds);
	if (pipe(fds) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		for (unsigned i = 0; env[i]; i++)
			putenv(env[i]);
		/* the default scenes, each for the duration given (glmark2's ':option' form) */
		execl(GLMARK2, "glmark2-es2", "--size", "800x600", "-b", duration, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		char name[160];
		const char *fps = strstr(line, " FPS: ");
		unsigned i;

		if (line[0] != '[' || !fps)
			continue;
		scene_name(line, name, sizeof(name));
		for (i = 0; i < *count && strcmp(scenes[i].name, name); i++)
			;
		if (i == *count) {
			if (*count == MAX_SCENES)
				continue;
			snprintf(scenes[i].name, sizeof(scenes[i].name), "%s", name);
			(*count)++;
		}
		scenes[i].fps[side] = strtod(fps + 6, NULL);
	}
	if (in)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid)
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "agx-bench-glmark2: glmark2-es2 ended with status 0x%x\n", status);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	static struct scene scenes[MAX_SCENES];
	char display[32], display_env[48], vendor[PATH_MAX + 64], json[PATH_MAX + 32];
	char memmgr[160], sched[160];
	char *mesa_env[] = { display_env, "__EGL_VENDOR_LIBRARY_FILENAMES=" MESA_VENDOR,
			     "LIBGL_ALWAYS_SOFTWARE=1", "GALLIUM_DRIVER=llvmpipe", NULL };
	unsigned seconds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2, count = 0, n = 0;
	struct bench_stack st;
	double log_sum = 0;
	pid_t xvfb;
	bool ours;

	if (!seconds || seconds > 600) {
		fprintf(stderr, "usage: agx-bench-glmark2 [SECONDS a scene, 1..600]\n");
		return 2;
	}
	if (access(GLMARK2, X_OK) != 0) {
		fprintf(stderr, "agx-bench-glmark2: no %s (Debian's glmark2-es2-x11)\n", GLMARK2);
		return 1;
	}
	if ((xvfb = xvfb_start(display, sizeof(display))) < 0) {
		fprintf(stderr, "agx-bench-glmark2: no Xvfb (Debian's xvfb)\n");
		return 1;
	}
	snprintf(display_env, sizeof(display_env), "DISPLAY=%s", display);
	if (bench_stack_start(&st, 4) < 0) {
		bench_stop(xvfb);
		return 1;
	}
	bench_sibling(json, sizeof(json), "gles/50_agx-uninstalled.json");
	snprintf(vendor, sizeof(vendor), "__EGL_VENDOR_LIBRARY_FILENAMES=%s", json);
	snprintf(memmgr, sizeof(memmgr), "AGX_MEMMGR_SOCKET=%s", st.sock[BENCH_MEMMGR]);
	snprintf(sched, sizeof(sched), "AGX_SCHEDULER_SOCKET=%s", st.sock[BENCH_SCHEDULER]);
	ours =
	    run((char *[]){ display_env, vendor, memmgr, sched, NULL }, seconds, scenes, &count, 0);
	bench_stack_stop(&st);
	if (!ours)
		fprintf(stderr, "agx-bench-glmark2: glmark2-es2 did not finish on this stack\n");
	if (access(MESA_VENDOR, R_OK) != 0 || !run(mesa_env, seconds, scenes, &count, 1))
		fprintf(stderr, "agx-bench-glmark2: glmark2-es2 did not finish on llvmpipe\n");
	bench_stop(xvfb);
	for (unsigned i = 0; i < count; i++) {
		const struct scene *s = &scenes[i];

		printf("glmark2.%s.fps %.0f fps\n", s->name, s->fps[0]);
		printf("glmark2.%s.llvmpipe_fps %.0f fps\n", s->name, s->fps[1]);
		if (s->fps[0] > 0 && s->fps[1] > 0) {
			printf("glmark2.%s.ratio %.3f\n", s->name, s->fps[0] / s->fps[1]);
			log_sum += log(s->fps[0] / s->fps[1]);
			n++;
		}
	}
	if (n)
		printf("glmark2.geomean_ratio %.3f (of %u scenes)\n", exp(log_sum / n), n);
	return ours && n ? 0 : 1;
}

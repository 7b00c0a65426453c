/*
 * agx-bench-compiler [DIR...]: how fast the shader compiler is, over a
 * corpus of real shaders: piglit's GLSL ES parser tests that are meant to
 * compile (`expect_result: pass`), vertex and fragment, from Debian's
 * piglit package (everywhere in its tree, as test libagx-piglit-parser
 * finds them) unless directories are given.  glslang's process-wide
 * set-up is done once before the clock starts; each shader is then
 * compiled three times and counts with the median of the three.
 *
 * Prints compiler.compile_p50_ms, compiler.compile_p99_ms, the mean
 * instructions and registers of what compiled, and how many shaders the
 * compiler refused (compiler.unsupported: valid GLSL ES it cannot compile
 * yet, with the most common reasons).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "bench.h"

#define PIGLIT_TESTS "/usr/lib/x86_64-linux-gnu/piglit"
#define RUNS	     3
#define REASONS	     8

struct shader {
	char *path;
	enum agx_shader_stage stage;
};

struct corpus {
	struct shader *shaders;
	size_t count, capacity;
};

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		text = malloc((size_t)size + 1);
		if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
			free(text);
			text = NULL;
		}
		if (text) {
			text[size] = '\0';
			*len = (size_t)size;
		}
	}
	fclose(f);
	return text;
}

/*
 * A parser test that should compile as a shader of GLSL ES 1.00 or 3.00
 * with no extension: what its [config] comment block says.  (Those
 * without main() compile but make no program: the compiler refuses them
 * as invalid, and they are counted apart.)
 */
static bool wanted(const char *text)
{
	const char *config = strstr(text, "[config]");
	const char *end = config ? strstr(config, "[end config]") : NULL;
	bool pass = false, es = false, other = false;

	if (!end)
		return false;
	for (const char *line = config; line && line < end; line = strchr(line + 1, '\n')) {
		const char *p = line + strspn(line, "\n/*! \t");

		if (!strncmp(p, "expect_result:", 14))
			pass = strstr(p, "pass") && strstr(p, "pass") < strchr(p, '\n');
		else if (!strncmp(p, "glsl_version:", 13)) {
			const char *v = p + 13 + strspn(p + 13, " \t");

			es = !strncmp(v, "1.00", 4) || !strncmp(v, "3.00", 4);
		} else if (!strncmp(p, "require_extensions:", 19)) {
			other = true;
		}
	}
	return pass && es && !other;
}

static void add_dir(struct corpus *c, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name), len = 0;
		enum agx_shader_stage stage;
		char *path, *text;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (e->d_type == DT_DIR) {
			add_dir(c, path);
			free(path);
			continue;
		}
		if (n > 5 && !strcmp(e->d_name + n - 5, ".vert"))
			stage = AGX_SHADER_VERTEX;
		else if (n > 5 && !strcmp(e->d_name + n - 5, ".frag"))
			stage = AGX_SHADER_FRAGMENT;
		else {
			free(path);
			continue;
		}
		text = read_file(path, &len);
		if (text && wanted(text)) {
			if (c->count == c->capacity) {
				c->capacity = c->capacity ? 2 * c->capacity : 256;
				c->shaders = realloc(c->shaders, c->capacity * sizeof(*c->shaders));
				if (!c->shaders)
					abort();
			}
			c->shaders[c->count++] = (struct shader){ path, stage };
			path = NULL;
		}
		free(text);
		free(path);
	}
	closedir(d);
}

struct reason {
	char text[96];
	unsigned count;
};

/* The log's first line, the part that names what is missing. */
static void count_reason(struct reason *reasons, const char *log)
{
	char first[96];
	size_t n = log ? strcspn(log, "\n") : 0;

	snprintf(first, sizeof(first), "%.*s", (int)(n < sizeof(first) - 1 ? n : sizeof(first) - 1),
		 log ? log : "(no log)");
	for (unsigned i = 0; i < REASONS; i++) {
		if (!reasons[i].count) {
			snprintf(reasons[i].text, sizeof(reasons[i].text), "%s", first);
			reasons[i].count = 1;
			return;
		}
		if (!strcmp(reasons[i].text, first)) {
			reasons[i].count++;
			return;
		}
	}
}

int main(int argc, char **argv)
{
	struct corpus c = { 0 };
	struct reason reasons[REASONS] = { 0 };
	double *samples, instructions = 0, registers = 0;
	size_t compiled = 0, refused = 0, invalid = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			add_dir(&c, argv[i]);
	} else {
		/* every GLSL ES 1.00 and 3.00 parser test, as the piglit-parser test takes them */
		add_dir(&c, PIGLIT_TESTS "/tests");
		add_dir(&c, PIGLIT_TESTS "/generated_tests");
	}
	if (!c.count) {
		fprintf(stderr,
			"agx-bench-compiler: no shaders found (is Debian's piglit installed? "
			"its tests are under " PIGLIT_TESTS ")\n");
		return 1;
	}
	samples = calloc(c.count, sizeof(*samples));
	if (!samples)
		return 1;

	/* glslang's process-wide tables are built by the first compile */
	{
		static const char warm[] =
		    "#version 300 es\nvoid main() { gl_Position = vec4(0); }\n";
		struct agx_shader_binary b;

		agx_compile_glsl(AGX_SHADER_VERTEX, warm, sizeof(warm) - 1, NULL, &b);
		agx_shader_binary_finish(&b);
	}

	for (size_t i = 0; i < c.count; i++) {
		size_t len = 0;
		char *text = read_file(c.shaders[i].path, &len);
		double t[RUNS];
		int ret = 0;

		for (unsigned r = 0; r < RUNS && text; r++) {
			struct agx_shader_binary b;
			double t0 = bench_now_us();

			ret = agx_compile_glsl(c.shaders[i].stage, text, len, NULL, &b);
			t[r] = (bench_now_us() - t0) / 1000.0;
			if (r == 0) {
				if (ret == 0) {
					compiled++;
					instructions += b.info.num_instructions;
					registers += b.info.num_registers;
				} else if (ret == -ENOTSUP) {
					refused++;
					count_reason(reasons, b.log);
				} else {
					invalid++;
				}
			}
			agx_shader_binary_finish(&b);
		}
		bench_sort(t, RUNS);
		samples[i] = t[RUNS / 2];
		free(text);
		free(c.shaders[i].path);
	}
	bench_sort(samples, c.count);

	printf("compiler.shaders %zu\n", c.count);
	printf("compiler.compile_p50_ms %.3f\n", samples[c.count / 2]);
	printf("compiler.compile_p99_ms %.3f\n", samples[c.count * 99 / 100]);
	printf("compiler.compiled %zu\n", compiled);
	printf("compiler.unsupported %zu\n", refused);
	if (invalid)
		printf("compiler.refused_as_invalid %zu\n", invalid);
	if (compiled) {
		printf("compiler.mean_instructions %.1f\n", instructions / (double)compiled);
		printf("compiler.mean_registers %.1f\n", registers / (double)compiled);
	}
	for (unsigned i = 0; i < REASONS && reasons[i].count; i++)
		fprintf(stderr, "unsupported: %u x %s\n", reasons[i].count, reasons[i].text);
	free(samples);
	free(c.shaders);
	return 0;
}

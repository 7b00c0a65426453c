/*
 * agxc: the shader compiler's front end from the command line (agx/glsl.h).
 *
 *   agxc [--stage vert|frag|comp] FILE               check; print glslang's messages
 *   agxc --check [--link] [--expect pass|fail] FILE  as piglit's glslparsertest
 *   agxc --lowered [-o OUT] FILE                     the 3.10 source SPIR-V is made of
 *   agxc --spirv -o OUT.spv FILE                     the SPIR-V
 *
 * The stage comes from --stage or FILE's extension (.vert, .frag, .comp);
 * FILE "-" is standard input.  Machine code, disassembly and the IR come
 * with the back end.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/glsl.h"

enum mode { MODE_MESSAGES, MODE_CHECK, MODE_LOWERED, MODE_SPIRV };

static void usage(FILE *f)
{
	fprintf(
	    f, "usage: agxc [--stage vert|frag|comp] [MODE] [-o OUT] FILE\n"
	       "\n"
	       "Checks a GLSL ES shader as OpenGL ES 3.0 compiles it: vertex and fragment\n"
	       "shaders of #version 100 (also without #version) or 300 es, compute shaders\n"
	       "of 310 es.  FILE - reads standard input; the stage comes from --stage or\n"
	       "the extension (.vert, .frag, .comp).\n"
	       "\n"
	       "modes:\n"
	       "  (none)            print glslang's messages; exit 0 if the shader is valid\n"
	       "  --check           exit 0 if it compiles, 1 and the log if not\n"
	       "  --check --expect pass|fail\n"
	       "                    report as piglit's glslparsertest: the compile result,\n"
	       "                    then PIGLIT: {\"result\": \"pass\"|\"fail\" }; exit 0 on pass\n"
	       "  --check --link    a shader that compiles must link as well (main(), and\n"
	       "                    glslang's checks of a program of that one stage), as\n"
	       "                    glslparsertest --check-link does\n"
	       "  --lowered         print the equivalent 3.10 source SPIR-V is made from\n"
	       "  --spirv -o OUT    write the SPIR-V (OpenGL semantics) to OUT (- for stdout)\n"
	       "\n"
	       "Machine code, disassembly and the IR arrive with the compiler's back end.\n");
}

static bool stage_from_name(const char *s, enum agx_glsl_stage *stage)
{
	if (!strcmp(s, "vert") || !strcmp(s, "vertex"))
		*stage = AGX_GLSL_VERTEX;
	else if (!strcmp(s, "frag") || !strcmp(s, "fragment"))
		*stage = AGX_GLSL_FRAGMENT;
	else if (!strcmp(s, "comp") || !strcmp(s, "compute"))
		*stage = AGX_GLSL_COMPUTE;
	else
		return false;
	return true;
}

static bool stage_from_path(const char *path, enum agx_glsl_stage *stage)
{
	const char *dot = strrchr(path, '.');

	return dot && !strchr(dot, '/') && stage_from_name(dot + 1, stage);
}

/* The whole of a file or of standard input; NULL with errno on failure. */
static char *read_all(const char *path, size_t *length)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, n = 0;
	char *buf = NULL;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *v = realloc(buf, cap ? cap * 2 : 65536);

			if (!v) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = v;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
				errno = EIO;
			}
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	*length = n;
	return buf;
}

static FILE *open_output(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return stdout;
	return fopen(path, "wb");
}

static bool close_output(FILE *f)
{
	if (f == stdout)
		return fflush(f) == 0;
	return fclose(f) == 0;
}

/*
 * glslparsertest's report: the compile (and link) line, then the PIGLIT
 * result line.  failed is NULL, "compile" or "link".
 */
static int report_glslparsertest(const char *path, enum agx_glsl_stage stage, const char *failed,
				 bool link, bool expect_pass, const char *log)
{
	bool pass = !failed == expect_pass;
	FILE *out = pass ? stdout : stderr;

	if (failed)
		fprintf(out, "Failed to %s", failed);
	else
		fprintf(out, "Successfully %s", link ? "compiled and linked" : "compiled");
	fprintf(out, " %s shader %s: %s\n", agx_glsl_stage_name(stage), path,
		*log ? log : "(no compiler output)");
	fflush(out);
	printf("PIGLIT: {\"result\": \"%s\" }\n", pass ? "pass" : "fail");
	return pass ? 0 : 1;
}

/*
 * --check: 0 valid, 1 not or unknown (out of memory).  With link, a valid
 * shader must also link: agx_glsl_to_spirv's link step (glslparsertest
 * links it with a dummy shader of the other stage; checks between stages
 * are the GL layer's).  -ENOTSUP there is a valid shader SPIR-V cannot be
 * made of yet, not a link error.
 */
static int check(const char *path, enum agx_glsl_stage stage, const char *source, size_t length,
		 bool link, const char *expect)
{
	struct agx_glsl_result result = { 0 };
	struct agx_glsl_log log;
	const char *failed = NULL, *text;
	int ret, status;

	ret = agx_glsl_check(stage, source, length, &log);
	text = log.text;
	if (ret == -EINVAL) {
		failed = "compile";
	} else if (!ret && link) {
		/* the log of a link that failed; otherwise the compile's */
		ret = agx_glsl_to_spirv(stage, source, length, &result);
		if (ret == -EINVAL) {
			failed = "link";
			text = result.log.text;
		} else if (ret == -ENOTSUP) {
			ret = 0;
		}
	}
	if (ret && ret != -EINVAL) {
		fprintf(stderr, "agxc: %s: %s\n", path, strerror(-ret));
		status = 1;
	} else if (expect) {
		status =
		    report_glslparsertest(path, stage, failed, link, !strcmp(expect, "pass"), text);
	} else {
		fputs(text, stderr);
		status = failed ? 1 : 0;
	}
	agx_glsl_result_finish(&result);
	agx_glsl_log_finish(&log);
	return status;
}

static int write_spirv(const char *out_path, const struct agx_glsl_result *r)
{
	FILE *f = open_output(out_path);
	bool ok = f != NULL;

	for (size_t i = 0; ok && i < r->spirv_words; i++) {
		uint32_t w = r->spirv[i];
		unsigned char b[4] = { w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, w >> 24 };

		ok = fwrite(b, 1, 4, f) == 4;
	}
	if (f && !close_output(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, "agxc: %s: %s\n", out_path, strerror(errno));
		return 1;
	}
	return 0;
}

static int write_text(const char *out_path, const char *text, size_t length)
{
	FILE *f = open_output(out_path);
	bool ok = f && fwrite(text, 1, length, f) == length;

	if (f && !close_output(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, "agxc: %s: %s\n", out_path ? out_path : "-", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "stage", required_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'c' },
		{ "link", no_argument, NULL, 'k' },
		{ "expect", required_argument, NULL, 'e' },
		{ "lowered", no_argument, NULL, 'l' },
		{ "spirv", no_argument, NULL, 'v' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum mode mode = MODE_MESSAGES;
	enum agx_glsl_stage stage;
	const char *out_path = NULL, *expect = NULL, *path;
	bool have_stage = false, have_mode = false, link = false;
	struct agx_glsl_result result;
	size_t length;
	char *source;
	int opt, ret, status;

	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (!stage_from_name(optarg, &stage)) {
				fprintf(stderr, "agxc: --stage takes vert, frag or comp\n");
				return 2;
			}
			have_stage = true;
			break;
		case 'c':
		case 'l':
		case 'v':
			if (have_mode) {
				fprintf(stderr, "agxc: one of --check, --lowered, --spirv\n");
				return 2;
			}
			have_mode = true;
			mode = opt == 'c' ? MODE_CHECK : opt == 'l' ? MODE_LOWERED : MODE_SPIRV;
			break;
		case 'e':
			expect = optarg;
			break;
		case 'k':
			link = true;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if (expect && (mode != MODE_CHECK || (strcmp(expect, "pass") && strcmp(expect, "fail")))) {
		fprintf(stderr, "agxc: --expect pass|fail goes with --check\n");
		return 2;
	}
	if (link && mode != MODE_CHECK) {
		fprintf(stderr, "agxc: --link goes with --check\n");
		return 2;
	}
	if (mode == MODE_SPIRV && !out_path) {
		fprintf(stderr, "agxc: --spirv needs -o OUT.spv (- for standard output)\n");
		return 2;
	}
	if (out_path && mode != MODE_SPIRV && mode != MODE_LOWERED) {
		fprintf(stderr, "agxc: -o goes with --spirv or --lowered\n");
		return 2;
	}
	if (!have_stage && !stage_from_path(path, &stage)) {
		fprintf(stderr,
			"agxc: %s: no stage: name it .vert, .frag or .comp, or give --stage\n",
			path);
		return 2;
	}
	source = read_all(path, &length);
	if (!source) {
		fprintf(stderr, "agxc: %s: %s\n", path, strerror(errno));
		return 1;
	}

	if (mode == MODE_MESSAGES || mode == MODE_CHECK) {
		status = check(path, stage, source, length, link, expect);
		free(source);
		return status;
	}

	/* the lowered source shows even when glslang makes no SPIR-V of it */
	ret = agx_glsl_to_spirv(stage, source, length, &result);
	fputs(result.log.text, stderr);
	if (ret && ret != -EINVAL && ret != -ENOTSUP)
		fprintf(stderr, "agxc: %s: %s\n", path, strerror(-ret));
	if (mode == MODE_LOWERED && result.lowered)
		status = write_text(out_path, result.lowered, strlen(result.lowered)) || ret;
	else if (ret)
		status = 1;
	else if (mode == MODE_SPIRV)
		status = write_spirv(out_path, &result);
	else
		status = write_text(out_path, source, length); /* compute: not lowered */
	agx_glsl_result_finish(&result);
	free(source);
	return status;
}

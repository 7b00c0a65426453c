/*
 * agxc: the shader compiler from the command line (agx/compiler.h, agx/glsl.h).
 *
 *   agxc [--stage vert|frag|comp] FILE               check; print glslang's messages
 *   agxc --check [--link] [--expect pass|fail] FILE  as piglit's glslparsertest
 *   agxc --lowered [-o OUT] FILE                     the 3.10 source SPIR-V is made of
 *   agxc --spirv -o OUT.spv FILE                     the SPIR-V
 *   agxc [-o OUT.bin] [--disasm] [--ir] [--reflect] [--max-registers N] FILE
 *                                                    compile: machine code, its listing,
 *                                                    the IR after each pass, reflection
 *
 * The stage comes from --stage or FILE's extension (.vert, .frag, .comp;
 * NAME.comp.spv for SPIR-V: a FILE ending in .spv is SPIR-V, compiled as
 * it is); FILE "-" is standard input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "agx/glsl.h"
#include "agx/isa.h"

enum mode { MODE_MESSAGES, MODE_CHECK, MODE_LOWERED, MODE_SPIRV, MODE_COMPILE };

/* What compiling prints (MODE_COMPILE). */
enum { SHOW_DISASM = 1, SHOW_IR = 2, SHOW_REFLECT = 4 };

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
	       "compiling to G13 machine code (FILE is GLSL ES, or SPIR-V if it ends in .spv;\n"
	       "any of these asks for it):\n"
	       "  -o OUT            write the machine code to OUT, raw, run from offset 0\n"
	       "  --disasm          print its listing\n"
	       "  --ir              print the IR after translation and after each pass\n"
	       "  --reflect         print what a driver needs to run it, as JSON\n"
	       "  --max-registers N use at most N 32-bit registers, spilling the rest\n"
	       "  --robust          robust buffer access: attribute and uniform block reads\n"
	       "                    bounded by what their buffers hold\n");
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

/* SPIR-V is named NAME.STAGE.spv. */
static bool is_spirv(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcmp(path + n - 4, ".spv");
}

static bool stage_from_path(const char *path, enum agx_glsl_stage *stage)
{
	if (is_spirv(path)) {
		char name[16];
		const char *end = path + strlen(path) - 4, *dot = end;

		while (dot > path && dot[-1] != '.' && dot[-1] != '/')
			dot--;
		if (dot == path || dot[-1] != '.' || (size_t)(end - dot) >= sizeof(name))
			return false;
		memcpy(name, dot, (size_t)(end - dot));
		name[end - dot] = '\0';
		return stage_from_name(name, stage);
	}

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

static enum agx_shader_stage shader_stage(enum agx_glsl_stage stage)
{
	return stage == AGX_GLSL_VERTEX	    ? AGX_SHADER_VERTEX
	       : stage == AGX_GLSL_FRAGMENT ? AGX_SHADER_FRAGMENT
					    : AGX_SHADER_COMPUTE;
}

/* Compiles GLSL ES, or SPIR-V (little-endian words) when path says so, and shows the result. */
static int compile(const char *path, enum agx_glsl_stage stage, const char *source, size_t length,
		   const struct agx_compile_options *options, const char *out_path, unsigned show)
{
	struct agx_shader_binary b;
	int ret, status = 0;

	if (is_spirv(path)) {
		size_t count = length / 4;
		uint32_t *words = malloc(count ? count * 4 : 4);

		if (!words) {
			fprintf(stderr, "agxc: out of memory\n");
			return 1;
		}
		if (length % 4) {
			fprintf(stderr, "agxc: %s: %zu bytes: SPIR-V is whole 32-bit words\n", path,
				length);
			free(words);
			return 1;
		}
		for (size_t i = 0; i < count; i++) {
			const unsigned char *p = (const unsigned char *)source + 4 * i;

			words[i] = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
		}
		ret = agx_compile_spirv(shader_stage(stage), words, count, options, &b);
		free(words);
	} else {
		ret = agx_compile_glsl(shader_stage(stage), source, length, options, &b);
	}
	if (ret < 0) {
		fprintf(stderr, "agxc: %s: %s\n", path, b.log ? b.log : strerror(-ret));
		agx_shader_binary_finish(&b);
		return 1;
	}
	if (show & SHOW_DISASM && agx_isa_disassemble(b.code, b.size, stdout) < 0)
		status = 1;
	if (show & SHOW_REFLECT) {
		char *json = agx_shader_info_to_json(&b.info);

		if (!json || printf("%s\n", json) < 0)
			status = 1;
		free(json);
	}
	if (out_path)
		status |= write_text(out_path, (const char *)b.code, b.size);
	agx_shader_binary_finish(&b);
	return status;
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
		{ "disasm", no_argument, NULL, 'd' },
		{ "ir", no_argument, NULL, 'i' },
		{ "reflect", no_argument, NULL, 'r' },
		{ "max-registers", required_argument, NULL, 'm' },
		{ "robust", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum mode mode = MODE_MESSAGES;
	enum agx_glsl_stage stage;
	const char *out_path = NULL, *expect = NULL, *path;
	bool have_stage = false, have_mode = false, link = false, robust = false;
	unsigned show = 0, max_registers = 0;
	char *end;
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
		case 'd':
			show |= SHOW_DISASM;
			break;
		case 'i':
			show |= SHOW_IR;
			break;
		case 'r':
			show |= SHOW_REFLECT;
			break;
		case 'm':
			max_registers = (unsigned)strtoul(optarg, &end, 0);
			if (*end || max_registers < 4 || max_registers > 128) {
				fprintf(stderr, "agxc: --max-registers takes 4 to 128\n");
				return 2;
			}
			break;
		case 'b':
			robust = true;
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
	/* -o, a listing, the IR, reflection, a budget or --robust without another mode: compile */
	if (!have_mode && (show || max_registers || robust || out_path))
		mode = MODE_COMPILE;
	if (mode != MODE_COMPILE && (show || max_registers || robust)) {
		fprintf(stderr, "agxc: --disasm, --ir, --reflect, --max-registers and --robust "
				"compile; they go with no other mode\n");
		return 2;
	}
	if (mode == MODE_COMPILE && out_path && !strcmp(out_path, "-") && show) {
		fprintf(stderr, "agxc: -o - and a listing, the IR or reflection would share "
				"standard output\n");
		return 2;
	}
	if (mode != MODE_COMPILE && is_spirv(path)) {
		fprintf(stderr,
			"agxc: %s is SPIR-V: it can only be compiled (-o, --disasm, "
			"--ir, --reflect)\n",
			path);
		return 2;
	}
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
	if (out_path && mode != MODE_SPIRV && mode != MODE_LOWERED && mode != MODE_COMPILE) {
		fprintf(stderr, "agxc: -o goes with --spirv, --lowered or compiling\n");
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
	if (mode == MODE_COMPILE) {
		struct agx_compile_options opts = { .max_registers = max_registers,
						    .ir_dump = show & SHOW_IR ? stdout : NULL,
						    .robust_access = robust };

		status = compile(path, stage, source, length, &opts, out_path, show);
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

/*
 * fuzz-glsl: the front end on arbitrary shader text.  The first byte picks
 * the stage, the rest is the source.  The lowering runs on the bytes as
 * they are (as 1.00 and as 3.00), and rule 22's rewrite, which must keep
 * every newline; then the whole path: agx_glsl_check and
 * agx_glsl_to_spirv, which must agree on what is invalid, and whose SPIR-V
 * must start right.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agx/glsl.h"
#include "glsl/lower.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lower(enum agx_glsl_stage stage, int version, const char *text, size_t length)
{
	struct agx_glsl_lowered l;
	int ret = agx_glsl_lower(stage, version, text, length, NULL, &l);

	/* the text goes through as it is, NULs and all */
	if (ret == 0 && (strncmp(l.source, "#version 310 es\n", 16) || l.source[l.length] ||
			 (!memchr(text, 0, length) && strlen(l.source) != l.length)))
		abort();
	if (ret == -EINVAL && !l.error)
		abort();
	for (unsigned i = 0; i < l.num_renames; i++) {
		for (unsigned k = 0; k < i; k++) {
			if (!strcmp(l.renames[i].lowered, l.renames[k].lowered) ||
			    !strcmp(l.renames[i].original, l.renames[k].original))
				abort();
		}
	}
	agx_glsl_lowered_finish(&l);
}

static size_t newlines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Rule 22 on the text up to its first NUL: every line keeps its number. */
static void sequences(const char *text, size_t length)
{
	char *code = strndup(text, length);
	size_t before;
	int ret;

	if (!code)
		return;
	before = newlines(code);
	ret = agx_glsl_constant_sequences(100, &code);
	if (ret < 0 && ret != -ENOMEM)
		abort();
	if (ret >= 0 && newlines(code) != before)
		abort();
	free(code);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum agx_glsl_stage stage;
	struct agx_glsl_result r;
	struct agx_glsl_log log;
	char *text;
	int checked, made;

	if (!size)
		return 0;
	stage = (enum agx_glsl_stage)(data[0] % 3);
	/* an exact-size copy, so that a read past the end is caught */
	text = malloc(size - 1 ? size - 1 : 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);

	if (stage != AGX_GLSL_COMPUTE) {
		lower(stage, 100, text, size - 1);
		lower(stage, 300, text, size - 1);
		sequences(text, size - 1);
	}

	checked = agx_glsl_check(stage, text, size - 1, &log);
	if (!log.text)
		abort();
	made = agx_glsl_to_spirv(stage, text, size - 1, &r);
	if (!r.log.text || r.log.version != log.version)
		abort();
	if (checked == -EINVAL && made != -EINVAL)
		abort();
	if (made == 0 && (checked || r.spirv_words < 5 || r.spirv[0] != 0x07230203))
		abort();
	if (made == 0 && stage != AGX_GLSL_COMPUTE && !r.lowered)
		abort();
	agx_glsl_result_finish(&r);
	agx_glsl_log_finish(&log);
	free(text);
	return 0;
}

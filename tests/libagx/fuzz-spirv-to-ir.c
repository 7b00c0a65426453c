/*
 * fuzz-spirv-to-ir: the SPIR-V translator (agx_spirv_to_ir) on untrusted
 * words, as each of the three stages: it translates or refuses, a refusal
 * is -EINVAL or -ENOTSUP with a log, and what it translates passes the
 * IR validator.  Seeds: make-spirv-to-ir-seeds (glslang's SPIR-V of a few
 * shaders of each stage).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum agx_ir_stage stages[] = { AGX_IR_STAGE_COMPUTE, AGX_IR_STAGE_VERTEX,
						    AGX_IR_STAGE_FRAGMENT };
	size_t count = size / 4;
	uint32_t *words = malloc(count ? count * 4 : 4);

	if (!words)
		return 0;
	memcpy(words, data, count * 4);
	for (unsigned i = 0; i < 3; i++) {
		struct agx_ir_shader *s = NULL;
		char *log = NULL, *errors = NULL;
		int ret = agx_spirv_to_ir(words, count, stages[i], &s, &log);

		if (ret != 0 && ret != -EINVAL && ret != -ENOTSUP && ret != -ENOMEM)
			abort();
		if (ret != 0 && (!log || s))
			abort();
		if (ret == 0 && (log || !s || !agx_ir_validate(s, &errors))) {
			fprintf(stderr, "translated to invalid IR:\n%s\n", errors ? errors : "");
			abort();
		}
		free(errors);
		free(log);
		agx_ir_shader_destroy(s);
	}
	free(words);
	return 0;
}

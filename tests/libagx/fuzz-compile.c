/*
 * fuzz-compile: the whole compiler (agx/compiler.h) on untrusted SPIR-V:
 * translation, the optimizations, lowering, selection, allocation and
 * encoding either make a binary or refuse with a log -- never a crash, a
 * hang or a leak.  The first byte picks the stage, the rest are the words
 * (make-compile-seeds writes real shaders' SPIR-V in this form).
 */
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agx_compile_options options = { 0 };
	struct agx_shader_binary binary;
	enum agx_shader_stage stage;
	size_t count;
	uint32_t *words;
	int ret;

	if (size < 1)
		return 0;
	stage = (enum agx_shader_stage)(data[0] % 3);
	/* the second bit of the stage byte asks for a small register budget: spilling */
	options.max_registers = data[0] & 4 ? 8 : 0;
	count = (size - 1) / 4;
	words = malloc(count ? count * 4 : 4);
	if (!words)
		return 0;
	memcpy(words, data + 1, count * 4);
	ret = agx_compile_spirv(stage, words, count, &options, &binary);
	/* a refusal says why; a binary has code */
	if ((ret < 0 && !binary.log) || (ret == 0 && (!binary.code || !binary.size)))
		abort();
	agx_shader_binary_finish(&binary);
	free(words);
	return 0;
}

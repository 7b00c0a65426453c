/*
 * fuzz-spirv: the SPIR-V reader (agx/spirv.h) on untrusted words: it
 * refuses or indexes, and whatever it indexed can be walked -- every
 * definition, operand, string, name and decoration -- without reading
 * past the module.
 */
#include <stdlib.h>
#include <string.h>

#include "agx/spirv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t count = size / 4;
	uint32_t *words = malloc(count ? count * 4 : 4);
	struct agx_spirv_module m;
	char why[128];
	volatile uint32_t sink = 0;

	if (!words)
		return 0;
	memcpy(words, data, count * 4);
	if (agx_spirv_parse(words, count, &m, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < m.num_insts; i++) {
			const struct agx_spirv_inst *in = &m.insts[i];
			unsigned next;

			for (unsigned o = 0; o <= agx_spirv_num_operands(in); o++)
				sink += agx_spirv_operand(in, o);
			if (agx_spirv_string(in, 0, &next))
				sink += next;
			if (in->result) {
				sink += agx_spirv_def(&m, in->result) == in;
				sink += agx_spirv_name(&m, in->result) != NULL;
				sink += agx_spirv_decorated(&m, in->result, -1,
							    SpvDecorationBinding, NULL);
			}
		}
		if (m.entry_point)
			sink += agx_spirv_string(m.entry_point, 2, NULL) != NULL;
		agx_spirv_module_finish(&m);
	}
	(void)sink;
	free(words);
	return 0;
}

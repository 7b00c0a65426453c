/*
 * fuzz-isa-asm: the G13 assembler on arbitrary text, one instruction per
 * line.  It must reject what it cannot read with a message and never crash;
 * what it accepts must encode, decode and print back to text that
 * assembles to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *save = NULL;

	memcpy(text, data, size);
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct agx_isa_instr in, decoded, again;
		uint8_t bytes[AGX_ISA_MAX_BYTES], bytes2[AGX_ISA_MAX_BYTES];
		char err[256], printed[AGX_ISA_MAX_TEXT];
		unsigned n;

		err[0] = '\0';
		if (agx_isa_parse(line, 0x100, &in, err, sizeof(err)) < 0) {
			if (!err[0])
				abort(); /* a rejection always says why */
			continue;
		}
		n = agx_isa_encode(&in, bytes);
		if (!n || agx_isa_decode(bytes, n, &decoded) != n)
			abort();
		agx_isa_print(&decoded, 0x100, printed, sizeof(printed));
		if (agx_isa_parse(printed, 0x100, &again, err, sizeof(err)) < 0)
			abort();
		again.size = n;
		if (agx_isa_encode(&again, bytes2) != n || memcmp(bytes, bytes2, n))
			abort();
	}
	free(text);
	return 0;
}

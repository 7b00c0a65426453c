/*
 * fuzz-isa-decode: the G13 decoder on arbitrary bytes.  Whatever the input,
 * decoding stays inside the buffer and always advances, and everything it
 * accepts prints, reassembles and re-encodes to the very same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so that a read past the end is caught */
	uint8_t *code = malloc(size ? size : 1);
	size_t pc = 0;

	memcpy(code, data, size);
	while (pc < size) {
		struct agx_isa_instr in, again;
		uint8_t bytes[AGX_ISA_MAX_BYTES];
		char text[AGX_ISA_MAX_TEXT], err[256];
		unsigned n = agx_isa_decode(code + pc, size - pc, &in);

		if (!n) {
			pc += 2;
			continue;
		}
		if (n > size - pc || agx_isa_encode(&in, bytes) != n || memcmp(bytes, code + pc, n))
			abort();
		agx_isa_print(&in, (int64_t)pc, text, sizeof(text));
		if (agx_isa_parse(text, (int64_t)pc, &again, err, sizeof(err)) < 0)
			abort();
		again.size = n;
		if (agx_isa_encode(&again, bytes) != n || memcmp(bytes, code + pc, n))
			abort();
		pc += n;
	}
	free(code);
	return 0;
}

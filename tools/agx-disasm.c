/*
 * agx-disasm FILE: raw G13 machine code -> one instruction per line,
 * "OFFSET: HEXBYTES  mnemonic operands".  Bytes it does not know print as
 * "unknown" (two at a time, the smallest instruction), so it always moves
 * forward and always reaches the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

static int disassemble(const uint8_t *code, size_t len, FILE *out)
{
	size_t pc = 0;

	while (pc < len) {
		struct agx_isa_instr in;
		char text[AGX_ISA_MAX_TEXT], hex[AGX_ISA_MAX_BYTES * 2 + 1];
		unsigned size = agx_isa_decode(code + pc, len - pc, &in);

		if (size) {
			agx_isa_print(&in, (int64_t)pc, text, sizeof(text));
		} else {
			size = len - pc >= 2 ? 2 : 1;
			snprintf(text, sizeof(text), "unknown");
		}
		for (unsigned i = 0; i < size; i++)
			sprintf(hex + 2 * i, "%02x", code[pc + i]);
		fprintf(out, "%6zx: %-24s %s\n", pc, hex, text);
		pc += size;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t *code = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE   (FILE - reads standard input)\n", argv[0]);
		return 2;
	}
	f = strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
	if (!f) {
		fprintf(stderr, "agx-disasm: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			code = realloc(code, cap);
			if (!code) {
				fprintf(stderr, "agx-disasm: out of memory\n");
				return 1;
			}
		}
		n = fread(code + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "agx-disasm: %s: read error\n", argv[1]);
		return 1;
	}
	if (f != stdin)
		fclose(f);
	disassemble(code, len, stdout);
	free(code);
	return 0;
}

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
	agx_isa_disassemble(code, len, stdout);
	free(code);
	return 0;
}

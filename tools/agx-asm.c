/*
 * agx-asm: G13 assembly (the disassembler's own syntax) on standard input
 * -> raw little-endian machine code on standard output.  One instruction
 * per line; '#' and ';' start comments; an "OFFSET: HEXBYTES" prefix as
 * agx-disasm prints it is skipped, so its output assembles back.
 * Errors name the line and exit non-zero; nothing is written then.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

/* Skips "   1a: 0a0040c0   " so that disassembly reads back. */
static char *skip_listing_prefix(char *s)
{
	char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	if (isxdigit((unsigned char)*p)) {
		char *q = p;

		while (isxdigit((unsigned char)*q))
			q++;
		if (*q == ':') {
			q++;
			while (isspace((unsigned char)*q))
				q++;
			while (isxdigit((unsigned char)*q))
				q++;
			return q;
		}
	}
	return s;
}

int main(int argc, char **argv)
{
	char line[1024];
	uint8_t *code = NULL;
	size_t len = 0, cap = 0;
	unsigned lineno = 0;
	int errors = 0;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: agx-asm < program.s > program.bin\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		struct agx_isa_instr in;
		char err[256], *s;
		uint8_t bytes[AGX_ISA_MAX_BYTES];
		unsigned size;

		lineno++;
		s = line + strcspn(line, "#;\n");
		*s = '\0';
		s = skip_listing_prefix(line);
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (agx_isa_parse(s, (int64_t)len, &in, err, sizeof(err)) < 0) {
			fprintf(stderr, "agx-asm: line %u: %s\n", lineno, err);
			errors++;
			continue;
		}
		size = agx_isa_encode(&in, bytes);
		if (!size) {
			fprintf(stderr, "agx-asm: line %u: cannot encode\n", lineno);
			errors++;
			continue;
		}
		if (len + size > cap) {
			cap = cap ? cap * 2 : 4096;
			code = realloc(code, cap);
			if (!code)
				return 1;
		}
		memcpy(code + len, bytes, size);
		len += size;
	}
	if (errors)
		return 1;
	if (len && fwrite(code, 1, len, stdout) != len)
		return 1;
	free(code);
	return 0;
}

/*
 * bench-asm.h: the benchmarks' programs: a few lines repeated, then a
 * tail, assembled with libagx (agx_isa_assemble).
 */
#ifndef TOOLS_BENCH_ASM_H
#define TOOLS_BENCH_ASM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

/* lines[0..n) repeated until count instructions, then tail; exits on an error. */
static inline size_t bench_assemble(const char *const *lines, unsigned n, unsigned count,
				    const char *tail, uint8_t *code, size_t cap)
{
	size_t size = strlen(tail) + 2;
	char *text, err[512];
	long len;

	for (unsigned i = 0; i < count; i++)
		size += strlen(lines[i % n]) + 1;
	text = malloc(size);
	if (!text)
		exit(1);
	text[0] = '\0';
	for (unsigned i = 0; i < count; i++) {
		strcat(text, lines[i % n]);
		strcat(text, "\n");
	}
	strcat(text, tail);
	len = agx_isa_assemble(text, code, cap, err, sizeof(err));
	free(text);
	if (len < 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	return (size_t)len;
}

#endif

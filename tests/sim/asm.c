/*
 * asm.c: the tests' assembler with labels (asm.h), on libagx's parser and encoder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agx/isa.h"
#include "asm.h"

size_t test_assemble(const char *text, uint8_t *code, size_t cap)
{
	char err[512];
	long len = agx_isa_assemble(text, code, cap, err, sizeof(err));

	if (len < 0)
		fail_msg("cannot assemble: %s", err);
	return (size_t)len;
}

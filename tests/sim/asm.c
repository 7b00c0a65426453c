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

/*
 * Assembles lines separated by '\n'.  "name:" defines a label; "@name" in
 * an instruction stands for that label's offset.  Two passes, so that
 * labels may come after their use (a branch's size does not depend on it).
 */
size_t test_assemble(const char *text, uint8_t *code, size_t cap)
{
	char labels[8][16], line[256], expanded[256];
	size_t offsets[8] = { 0 }, len = 0;
	unsigned nlabels = 0;

	for (int pass = 0; pass < 2; pass++) {
		const char *p = text;

		len = 0;
		while (*p) {
			size_t n = strcspn(p, "\n");
			struct agx_isa_instr in;
			char err[256], *at;

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			p += n + (p[n] == '\n');
			if (!line[0])
				continue;
			if (line[strlen(line) - 1] == ':') {
				line[strlen(line) - 1] = '\0';
				if (pass == 0) {
					snprintf(labels[nlabels], sizeof(labels[0]), "%s", line);
					nlabels++;
				}
				for (unsigned i = 0; i < nlabels; i++)
					if (!strcmp(labels[i], line))
						offsets[i] = len;
				continue;
			}
			snprintf(expanded, sizeof(expanded), "%s", line);
			if ((at = strchr(line, '@'))) {
				size_t target = len; /* unknown in the first pass */

				for (unsigned i = 0; i < nlabels; i++)
					if (!strcmp(at + 1, labels[i]))
						target = offsets[i];
				snprintf(expanded, sizeof(expanded), "%.*s%zu", (int)(at - line),
					 line, target);
			}
			if (agx_isa_parse(expanded, (int64_t)len, &in, err, sizeof(err)) < 0)
				fail_msg("cannot assemble '%s': %s", expanded, err);
			len += agx_isa_encode(&in, code + len);
			assert_true(len < cap);
		}
	}
	return len;
}

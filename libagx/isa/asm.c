/*
 * asm.c: assembling a whole program from text (agx/isa.h), for tools,
 * tests and benchmarks that write G13 code by hand: labels, then one
 * instruction a line through the table's parser and encoder.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agx/isa.h"

#define MAX_LABELS 64
#define MAX_LINE   256

struct label {
	char name[32];
	size_t offset;
};

static long fail(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static long fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (err && size)
		vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* "@name" in line replaced by the label's offset (or `here` before it is known). */
static bool expand(const char *line, const struct label *labels, unsigned count, size_t here,
		   bool final, char *out, size_t size)
{
	const char *at = strchr(line, '@');
	size_t target = here;
	bool found = false;

	if (!at) {
		snprintf(out, size, "%s", line);
		return true;
	}
	for (unsigned i = 0; i < count; i++)
		if (!strcmp(at + 1, labels[i].name)) {
			target = labels[i].offset;
			found = true;
		}
	snprintf(out, size, "%.*s%zu", (int)(at - line), line, target);
	return found || !final;
}

long agx_isa_assemble(const char *text, uint8_t *code, size_t cap, char *err, size_t errsize)
{
	struct label labels[MAX_LABELS];
	unsigned count = 0;
	size_t len = 0;

	/* two passes, so that a label may follow its use (no branch's size depends on it) */
	for (int pass = 0; pass < 2; pass++) {
		const char *p = text;
		unsigned lineno = 0;

		len = 0;
		while (*p) {
			size_t n = strcspn(p, "\n");
			char line[MAX_LINE], expanded[MAX_LINE];
			struct agx_isa_instr in;
			uint8_t bytes[AGX_ISA_MAX_BYTES];
			unsigned size;

			lineno++;
			if (n >= sizeof(line))
				return fail(err, errsize, "line %u: too long", lineno);
			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			p += n + (p[n] == '\n');
			if (!line[0])
				continue;
			if (line[n - 1] == ':') {
				line[n - 1] = '\0';
				if (pass == 0) {
					if (count == MAX_LABELS || n - 1 >= sizeof(labels[0].name))
						return fail(err, errsize,
							    "line %u: too many labels or too long",
							    lineno);
					memcpy(labels[count].name, line, n); /* n - 1 < 32: fits */
					count++;
				}
				for (unsigned i = 0; i < count; i++)
					if (!strcmp(labels[i].name, line))
						labels[i].offset = len;
				continue;
			}
			if (!expand(line, labels, count, len, pass == 1, expanded,
				    sizeof(expanded)))
				return fail(err, errsize, "line %u: no label '%s'", lineno,
					    strchr(line, '@') + 1);
			if (agx_isa_parse(expanded, (int64_t)len, &in, err, errsize) < 0) {
				char why[256];

				snprintf(why, sizeof(why), "%s", err ? err : "");
				return fail(err, errsize, "line %u: %s: %s", lineno, expanded, why);
			}
			size = agx_isa_encode(&in, bytes);
			if (!size)
				return fail(err, errsize, "line %u: cannot encode '%s'", lineno,
					    expanded);
			if (len + size > cap)
				return fail(err, errsize, "line %u: more than %zu bytes", lineno,
					    cap);
			memcpy(code + len, bytes, size);
			len += size;
		}
	}
	return (long)len;
}

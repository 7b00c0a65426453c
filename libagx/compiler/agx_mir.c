/*
 * agx_mir.c: the machine IR's containers, its printer (the assembler's
 * syntax, docs/isa.md "Text syntax") and the 8-bit float immediates.
 * Growing an array aborts when memory runs out, as the IR's arena does:
 * a compile has no useful way on from there.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"
#include "agx_mir.h"

static void *grow(void *array, unsigned *cap, unsigned need, size_t elem)
{
	unsigned n = *cap ? *cap : 64;

	if (need <= *cap)
		return array;
	while (n < need)
		n *= 2;
	array = realloc(array, (size_t)n * elem);
	if (!array) {
		fprintf(stderr, "agx compiler: out of memory\n");
		abort();
	}
	*cap = n;
	return array;
}

unsigned mir_vreg_new(struct mir_program *p, unsigned bits)
{
	p->vregs = grow(p->vregs, &p->cap_vregs, p->num_vregs + 1, sizeof(*p->vregs));
	p->vregs[p->num_vregs] = (struct mir_vreg){ .halves = (uint8_t)(bits / 16) };
	return p->num_vregs++;
}

unsigned mir_append(struct mir_program *p, const struct mir_instr *in)
{
	p->instrs = grow(p->instrs, &p->cap_instrs, p->num_instrs + 1, sizeof(*p->instrs));
	p->instrs[p->num_instrs] = *in;
	return p->num_instrs++;
}

void mir_program_finish(struct mir_program *p)
{
	free(p->instrs);
	free(p->vregs);
	free(p->loops);
	free(p->log);
	memset(p, 0, sizeof(*p));
}

int mir_fail(struct mir_program *p, int err, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (p->log)
		return err;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->log = strdup(buf);
	return err;
}

int mir_float_imm(double f)
{
	for (unsigned n = 0; n < 256; n++) {
		double x = agx_isa_float_imm(n);

		if (x == f && !signbit(x) == !signbit(f))
			return (int)n;
	}
	return -1;
}

/*
 * The printer appends by hand: it runs once or twice per instruction of
 * every compile, and printf's machinery was most of the encoder's time.
 */
struct out {
	char *buf;
	unsigned size, len;
};

static void put_str(struct out *o, const char *s)
{
	while (*s && o->len + 1 < o->size)
		o->buf[o->len++] = *s++;
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

static void put_char(struct out *o, char c)
{
	char s[2] = { c, '\0' };

	put_str(o, s);
}

static void put_uint(struct out *o, uint64_t v)
{
	char tmp[24];
	unsigned n = sizeof(tmp) - 1;

	tmp[n] = '\0';
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_str(o, tmp + n);
}

static void put_int(struct out *o, int64_t v)
{
	if (v < 0) {
		put_char(o, '-');
		put_uint(o, (uint64_t)-v);
	} else {
		put_uint(o, (uint64_t)v);
	}
}

/* One register of a file: 16-bit halves by their half index, 32-bit by number. */
static void put_one(struct out *o, char file, unsigned bits, unsigned half)
{
	put_char(o, file);
	put_uint(o, half / 2);
	if (bits == 16)
		put_char(o, half & 1 ? 'h' : 'l');
}

static void put_regs(struct out *o, char file, unsigned bits, unsigned half, unsigned count)
{
	if (bits == 64) {
		put_one(o, file, 32, half);
		put_char(o, '_');
		put_one(o, file, 32, half + 2);
		return;
	}
	for (unsigned i = 0; i < count; i++) {
		if (i)
			put_char(o, '_');
		put_one(o, file, bits, half + i * (bits / 16));
	}
}

int mir_print(const struct mir_instr *in, char *buf, unsigned size, const int64_t *label_pc,
	      int64_t pc)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	if (in->op == MIR_OP_LABEL) {
		put_char(&o, 'L');
		put_uint(&o, in->opd[0].value);
		put_char(&o, ':');
		return (int)o.len;
	}
	put_str(&o, in->op == MIR_OP_PCOPY ? "pcopy" : in->mnem);
	for (unsigned i = 0; i < in->num_opds; i++) {
		const struct mir_opd *d = &in->opd[i];

		put_str(&o, i ? ", " : " ");
		switch (d->kind) {
		case MIR_VREG:
			put_str(&o, "%v");
			put_uint(&o, d->value);
			if (d->offset) {
				put_char(&o, '+');
				put_uint(&o, d->offset);
			}
			put_char(&o, ':');
			put_uint(&o, d->bits);
			if (d->count > 1) {
				put_char(&o, 'x');
				put_uint(&o, d->count);
			}
			break;
		case MIR_PREG:
			if (d->flags & MIR_CMPOFF) {
				put_one(&o, 'r', 32, d->value);
				put_char(&o, '_');
				put_one(&o, 'r', 16, d->value + 2);
				break;
			}
			put_regs(&o, 'r', d->bits, d->value, d->count);
			break;
		case MIR_UNIFORM:
			put_regs(&o, 'u', d->bits, d->value * 2 + d->offset, d->count);
			break;
		case MIR_IMM:
			if (d->flags & MIR_SIGN)
				put_int(&o, (int32_t)d->value);
			else
				put_uint(&o, d->value);
			break;
		case MIR_FIMM: {
			char tmp[32];

			/* exact: the immediates have at most five significant bits; "-0" for -0.0
			 */
			snprintf(tmp, sizeof(tmp), "%.10g", agx_isa_float_imm(d->value));
			put_str(&o, tmp);
			break;
		}
		case MIR_TEXT:
			put_str(&o, d->text);
			break;
		case MIR_LABEL:
			if (label_pc) {
				int64_t off = label_pc[d->value] - pc;

				put_str(&o, off < 0 ? "pc-" : "pc+");
				put_uint(&o, (uint64_t)(off < 0 ? -off : off));
			} else {
				put_char(&o, 'L');
				put_uint(&o, d->value);
			}
			break;
		default:
			put_char(&o, '?');
			break;
		}
		if (d->flags & MIR_ABS)
			put_str(&o, ".abs");
		if (d->flags & MIR_NEG)
			put_str(&o, ".neg");
		if (d->flags & MIR_SX)
			put_str(&o, ".sx");
	}
	return (int)o.len;
}

/* ---- graphics I/O placement ----------------------------------------------- */

/* Locations one element takes: a matrix one per column (GLSL ES 3.00 section 4.3.8.1). */
static unsigned element_locations(const struct agx_ir_var *var)
{
	const char *t = var->glsl_type;

	if (t && !strncmp(t, "mat", 3) && t[3] >= '2' && t[3] <= '4')
		return (unsigned)(t[3] - '0');
	return 1;
}

bool agx_memformat_packed(enum agx_isa_memformat f)
{
	return f == AGX_ISA_MEMFORMAT_RGB10A2 || f >= AGX_ISA_MEMFORMAT_RG11B10F;
}

unsigned agx_io_locations(const struct agx_ir_var *var)
{
	return element_locations(var) * (var->array_size ? var->array_size : 1);
}

unsigned agx_io_words(const struct agx_ir_var *var)
{
	return var->components * (var->array_size ? var->array_size : 1);
}

const struct agx_ir_var *agx_io_var(const struct agx_ir_shader *shader, enum agx_ir_var_kind kind,
				    unsigned location)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *v = &shader->vars[i];
		unsigned n = agx_io_locations(v);

		if (v->kind == kind && location >= v->location && location - v->location < n)
			return v;
	}
	return NULL;
}

unsigned agx_io_word(const struct agx_ir_var *var, unsigned location, unsigned component)
{
	unsigned per = var->components / element_locations(var);

	return (location - var->location) * (per ? per : 1) + component;
}

int agx_io_frag_z_cf(struct agx_ir_shader *shader)
{
	if (shader->stage != AGX_IR_STAGE_FRAGMENT)
		return -1;
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				if (in->op == AGX_IR_OP_load_frag_coord && in->imm[0] == 2)
					return 1;
			}
		}
	}
	return -1;
}

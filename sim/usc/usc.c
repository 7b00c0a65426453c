/*
 * usc.c: the USC core of agx-sim.  A program is decoded once into micro-ops
 * whose operands are already resolved to register rows, uniforms or
 * immediates; running it executes each micro-op on all 32 lanes at once,
 * in loops over lane arrays that the compiler vectorizes, with the
 * execution mask applied when results are written.
 *
 * Semantics are applegpu's (instruction pseudocode and its fma.py model of
 * the float unit: fused, single rounding, float32 denormals flushed on input
 * and output, half-precision denormals kept, one canonical NaN).  What the
 * public record leaves open is modeled as docs/isa.md describes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"
#include "formats.h"
#include "fp16.h"
#include "texture.h"
#include "usc.h"

#define L USC_LANES

/* Hot helpers: inlined into usc_run, so that its per-target builds cover them. */
#define HOT static inline __attribute__((always_inline))

enum src_kind { SRC_NONE, SRC_IMM, SRC_R16, SRC_R32, SRC_R64, SRC_U16, SRC_U32, SRC_U64 };

struct src {
	uint8_t kind;
	bool abs, neg, sx, fimm;
	uint16_t index; /* r16/u16: 16-bit index; otherwise the first 32-bit register */
	uint64_t imm;
	float fval; /* fimm */
};

struct dst {
	uint8_t bits; /* 0: none */
	uint16_t index;
};

struct uop {
	const struct agx_isa_desc *desc; /* NULL: bytes we cannot decode */
	const char *opt_name;		 /* a set field whose effect is not public */
	uint32_t opt_value;
	enum agx_op op;
	uint32_t offset;
	uint8_t size;
	bool sat, alt;
	struct dst d;
	struct src a, b, c, x, y;
	uint32_t cc, n, shift, m, tt, sr, mode, round;
	bool scope, prefix; /* simd_op: SIMD group (else quad), prefix (else reduce) */
	int32_t target;	    /* micro-op index of a branch target, -1 if none */
	/* memory */
	uint32_t format, memmask, g;
	struct dst tuple; /* first register, its size; count from memmask */
	struct src base, index;
	bool index_unsigned;
	/* texture: state (kind 0 tsN, 1 r16), coordinates and LOD register halves */
	uint8_t tex_kind, samp_kind;
	bool tex_compare, tex_offset; /* a compare value, texel offsets: from half cmpoff on */
	uint16_t cmpoff;
	bool lod_imm; /* image_write: the level is an immediate */
	uint16_t tex, samp, coords, lod_reg;
	/* varyings: coefficient registers, perspective division */
	uint16_t cf, cf_persp;
	bool persp, explicit_coords, centroid, sample;
	uint32_t sample_index; /* iter's q0 */
};

struct usc_program {
	struct uop *uops;
	unsigned count;
	size_t code_size;
	unsigned registers;  /* 32-bit GPRs any instruction may name: r0 .. r(registers - 1) */
	bool tests_coverage; /* has sample_mask or zs_emit */
};

/* --- decoding ------------------------------------------------------------------- */

static inline uint64_t sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* The micro-op at a byte offset, or -1 if no instruction starts there; the end is `count`. */
static int uop_at(const struct usc_program *p, uint32_t offset)
{
	unsigned lo = 0, hi = p->count;

	if (offset == p->code_size)
		return (int)p->count;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (p->uops[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->count && p->uops[lo].offset == offset ? (int)lo : -1;
}

static struct src src_from(const struct agx_isa_value *v)
{
	struct src s = { 0 };

	s.abs = v->abs;
	s.neg = v->neg;
	s.sx = v->sx;
	switch (v->type) {
	case AGX_VALUE_REG:
	case AGX_VALUE_UNIFORM: {
		bool u = v->type == AGX_VALUE_UNIFORM;

		s.kind = v->bits == 16	 ? (u ? SRC_U16 : SRC_R16)
			 : v->bits == 32 ? (u ? SRC_U32 : SRC_R32)
					 : (u ? SRC_U64 : SRC_R64);
		s.index = (uint16_t)v->index;
		break;
	}
	case AGX_VALUE_IMM:
		s.kind = SRC_IMM;
		s.imm = (uint64_t)v->imm;
		break;
	case AGX_VALUE_FLOAT_IMM:
		s.kind = SRC_IMM;
		s.fimm = true;
		s.fval = (float)agx_isa_float_imm((unsigned)v->imm);
		break;
	default:
		break;
	}
	return s;
}

/*
 * The 32-bit registers an instruction's operands may reach, counted
 * generously: tuples whole, 64-bit pairs, and a margin for the texture
 * unit's operands whose size depends on other fields.
 */
static unsigned registers_named(const struct agx_isa_instr *in)
{
	unsigned top = 0;

	for (unsigned i = 0; i < in->desc->num_operands; i++) {
		struct agx_isa_value v;
		unsigned count, end;

		if (!agx_isa_operand_value(in, i, 0, &v) || v.type != AGX_VALUE_REG)
			continue;
		count = v.count ? v.count : 1;
		end = v.bits == 16   ? (v.index + count + 1) / 2
		      : v.bits == 64 ? 2 * (v.index + count)
				     : v.index + count;
		if (end > top)
			top = end;
	}
	return top + 8;
}

static void fill_uop(struct uop *u, const struct agx_isa_instr *in)
{
	const struct agx_isa_desc *d = in->desc;

	u->desc = d;
	u->op = d->op;
	u->size = (uint8_t)in->size;
	u->sat = in->sat;
	u->alt = in->alt;
	u->target = -1;
	for (unsigned i = 0; i < d->num_operands; i++) {
		const struct agx_isa_operand_desc *o = &d->operands[i];
		const struct agx_isa_fields *f = &in->operands[i];
		const char *name = o->name;
		struct agx_isa_value v;

		agx_isa_operand_value(in, i, 0, &v);
		switch (o->kind) {
		case AGX_KIND_DST:
		case AGX_KIND_DST64:
		case AGX_KIND_DST16:
		case AGX_KIND_DST32:
		case AGX_KIND_PDST: /* the first of the pair */
			u->d.bits = (uint8_t)v.bits;
			u->d.index = (uint16_t)v.index;
			break;
		case AGX_KIND_R0L:
			break;
		case AGX_KIND_OPT:
			/*
			 * device_load's coherency only tunes caches, and agx-sim's
			 * memory has none; any other such field stops the run.
			 */
			if (f->value && !u->opt_name &&
			    !(d->op == AGX_OP_DEVICE_LOAD && !strcmp(name, "c"))) {
				u->opt_name = name;
				u->opt_value = f->value;
			}
			break;
		case AGX_KIND_ICOND:
		case AGX_KIND_FCOND:
			u->cc = f->value | f->type << 3;
			break;
		case AGX_KIND_SHIFT:
			u->shift = f->value;
			break;
		case AGX_KIND_MASK:
			u->m = f->value;
			break;
		case AGX_KIND_TT:
			u->tt = f->value;
			break;
		case AGX_KIND_SR:
			u->sr = f->value;
			break;
		case AGX_KIND_BRANCH: {
			/* resolved to a micro-op index once all are decoded; signed, any width */
			unsigned w = 0;

			for (unsigned k = 0; k < o->value.count; k++)
				w += o->value.part[k].width;
			u->n = w < 32 ? (uint32_t)sext(f->value, w) : f->value;
			break;
		}
		case AGX_KIND_MEMREG:
		case AGX_KIND_TGREG:
		case AGX_KIND_ATOMSRC:
			u->tuple.bits = (uint8_t)v.bits;
			u->tuple.index = (uint16_t)v.index;
			break;
		case AGX_KIND_GPR32: /* ret's register, st_var's value, imgwblk's coordinates */
			u->d.bits = 32;
			u->d.index = (uint16_t)v.index;
			break;
		case AGX_KIND_GPR16: /* imgwblk's tilebuffer offset */
			u->a = src_from(&v);
			break;
		case AGX_KIND_VARREG:
		case AGX_KIND_VARTRIPLE:
			u->tuple.bits = (uint8_t)v.bits;
			u->tuple.index = (uint16_t)v.index;
			u->n = v.count;
			break;
		case AGX_KIND_CF:
			u->cf = (uint16_t)f->value;
			break;
		case AGX_KIND_ZSREG: /* zs_emit: its 16-bit half and what it holds */
			u->tuple.bits = 16;
			u->tuple.index = (uint16_t)f->value;
			u->mode = f->type;
			break;
		case AGX_KIND_CFPERSP:
			u->cf_persp = (uint16_t)f->value;
			break;
		case AGX_KIND_SAMPLEMASK: /* tile access: the samples */
			u->b = src_from(&v);
			break;
		case AGX_KIND_TEXTURE:
			u->tex_kind = (uint8_t)f->type;
			u->tex = (uint16_t)f->value;
			break;
		case AGX_KIND_SAMPLER:
			u->samp_kind = (uint8_t)f->type;
			u->samp = (uint16_t)f->value;
			break;
		case AGX_KIND_COORDS:
			u->coords = (uint16_t)f->value;
			break;
		case AGX_KIND_LOD:
			u->lod_reg = (uint16_t)f->value;
			break;
		case AGX_KIND_IMMR16:
			if (!strcmp(name, "D")) { /* image_write's and imgwblk's level */
				u->lod_reg = (uint16_t)f->value;
				u->lod_imm = f->type != 0;
			} else if (!strcmp(name, "live")) { /* sample_mask */
				u->b = src_from(&v);
			} else { /* sample_mask's target, zs_emit's mask, st_var's slot */
				u->a = src_from(&v);
			}
			break;
		case AGX_KIND_CMPOFF: /* the compare value and/or packed offsets, from this half */
			u->cmpoff = (uint16_t)f->value;
			u->tex_offset = f->type != 0;
			break;
		case AGX_KIND_ATOMDST: /* "_": nothing is written */
			u->d.bits = v.type == AGX_VALUE_REG ? (uint8_t)v.bits : 0;
			u->d.index = (uint16_t)v.index;
			break;
		case AGX_KIND_MEMBASE:
		case AGX_KIND_TGBASE:
			u->base = src_from(&v);
			break;
		case AGX_KIND_MEMINDEX:
		case AGX_KIND_TGINDEX:
			u->index = src_from(&v);
			break;
		case AGX_KIND_ENUM:
		case AGX_KIND_IMM:
		case AGX_KIND_SIMM:
			if (!strcmp(name, "mode") && o->kind == AGX_KIND_ENUM && o->enumeration &&
			    !strcmp(o->enumeration->name, "reduction"))
				u->prefix = f->value;
			else if (!strcmp(name, "scope"))
				u->scope = f->value;
			else if (!strcmp(name, "op") && d->op == AGX_OP_SIMD_OP)
				u->mode = f->value;
			else if (!strcmp(name, "mode"))
				u->mode = f->value;
			else if (!strcmp(name, "round"))
				u->round = f->value;
			else if (!strcmp(name, "F"))
				u->format = f->value;
			else if (!strcmp(name, "mask"))
				u->memmask = f->value;
			else if (!strcmp(name, "Ou"))
				u->index_unsigned = f->value;
			else if (!strcmp(name, "g"))
				u->g = f->value;
			else if (!strcmp(name, "n"))
				u->n = f->value;
			else if (!strcmp(name, "imm16") || !strcmp(name, "imm32"))
				u->a = src_from(&v);
			else if (!strcmp(name, "O")) /* uniform_store's uniform half */
				u->index = src_from(&v);
			else if (!strcmp(name, "op")) /* atomics */
				u->mode = f->value;
			else if (!strcmp(name, "lod")) /* texture LOD mode */
				u->mode = f->value;
			else if (!strcmp(name, "compare"))
				u->tex_compare = f->value != 0;
			else if (!strcmp(name, "P"))
				u->persp = f->value;
			else if (!strcmp(name, "centroid"))
				u->centroid = f->value;
			else if (!strcmp(name, "sample"))
				u->sample = f->value;
			else if (!strcmp(name, "q0"))
				u->sample_index = f->value;
			else if (!strcmp(name, "explicit_coords"))
				u->explicit_coords = f->value;
			else if (!strcmp(name, "C")) /* tile coordinates: 0 is the pixel's own */
				u->coords = (uint16_t)f->value;
			else if (!strcmp(name, "last"))
				u->g = f->value;
			break;
		default: /* sources */
			if (!strcmp(name, "A") || !strcmp(name, "src"))
				u->a = src_from(&v);
			else if (!strcmp(name, "B"))
				u->b = src_from(&v);
			else if (!strcmp(name, "C"))
				u->c = src_from(&v);
			else if (!strcmp(name, "X"))
				u->x = src_from(&v);
			else if (!strcmp(name, "Y"))
				u->y = src_from(&v);
			break;
		}
	}
}

struct usc_program *usc_program_create(const uint8_t *code, size_t size)
{
	struct usc_program *p = calloc(1, sizeof(*p));
	int32_t *at = calloc(size / 2 + 1, sizeof(*at)); /* offset/2 -> micro-op */
	size_t pc = 0;

	if (!p || !at)
		goto fail;
	p->uops = calloc(size / 2 + 1, sizeof(*p->uops));
	if (!p->uops)
		goto fail;
	p->code_size = size;
	for (size_t i = 0; i <= size / 2; i++)
		at[i] = -1;
	while (pc < size) {
		struct uop *u = &p->uops[p->count];
		struct agx_isa_instr in;
		unsigned n = agx_isa_decode(code + pc, size - pc, &in);

		u->offset = (uint32_t)pc;
		if (n) {
			unsigned regs = registers_named(&in);

			fill_uop(u, &in);
			if (regs > p->registers)
				p->registers = regs;
			p->tests_coverage |= u->op == AGX_OP_SAMPLE_MASK || u->op == AGX_OP_ZS_EMIT;
		} else
			n = size - pc >= 2 ? 2 : 1;
		u->size = (uint8_t)n;
		at[pc / 2] = (int32_t)p->count++;
		pc += n;
	}
	for (unsigned i = 0; i < p->count; i++) {
		struct uop *u = &p->uops[i];

		if (u->desc && u->desc->cls == AGX_CLASS_BRANCH) {
			int64_t t = (int64_t)u->offset + (int32_t)u->n;

			if (t >= 0 && (size_t)t < size && !(t & 1))
				u->target = at[t / 2];
			else if ((size_t)t == size)
				u->target = (int32_t)p->count; /* to the end: done */
		}
	}
	free(at);
	return p;

fail:
	free(at);
	usc_program_destroy(p);
	return NULL;
}

size_t usc_program_extent(struct usc_extent *e, const uint8_t *code, size_t size)
{
	while (e->pc < size) {
		struct agx_isa_instr in;
		struct uop u = { 0 };
		unsigned n = agx_isa_decode(code + e->pc, size - e->pc, &in);

		if (!n) {
			if (size - e->pc < AGX_ISA_MAX_BYTES)
				return 0; /* perhaps cut short: wait for more */
			e->pc += 2;	  /* no instruction we know: as usc_program_create steps */
			continue;
		}
		fill_uop(&u, &in);
		if (u.desc && u.desc->cls == AGX_CLASS_BRANCH) {
			int64_t t = (int64_t)e->pc + (int32_t)u.n;

			if (t > 0 && (size_t)t > e->furthest)
				e->furthest = (size_t)t;
		}
		e->pc += n;
		if (u.op == AGX_OP_STOP && e->pc > e->furthest)
			return e->pc;
	}
	return 0;
}

void usc_program_destroy(struct usc_program *p)
{
	if (!p)
		return;
	free(p->uops);
	free(p);
}

bool usc_program_tests_coverage(const struct usc_program *program)
{
	return program->tests_coverage;
}

void usc_state_reset(struct usc_state *s, unsigned lanes, const struct usc_program *program)
{
	/* r0 (the execution-mask counter) and r1 (the link register) are always reached */
	unsigned regs = program->registers < 2 ? 2 : program->registers;

	if (regs > USC_NUM_GPRS)
		regs = USC_NUM_GPRS;
	memset(s->r, 0, regs * sizeof(s->r[0]));
	memset((uint8_t *)s + sizeof(s->r), 0, sizeof(*s) - sizeof(s->r));
	s->present = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
	s->exec = s->present;
	for (int i = 0; i < 3; i++)
		s->dispatch.threads_per_threadgroup[i] = 1;
	s->dispatch.threads_per_threadgroup[0] = 32;
}

void usc_state_init(struct usc_state *s, unsigned lanes)
{
	memset(s, 0, sizeof(*s));
	s->present = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
	s->exec = s->present;
	for (int i = 0; i < 3; i++)
		s->dispatch.threads_per_threadgroup[i] = 1;
	s->dispatch.threads_per_threadgroup[0] = 32;
}

/* --- operands ------------------------------------------------------------------- */

HOT uint32_t reg16(const struct usc_state *s, unsigned idx, unsigned l)
{
	return (s->r[idx >> 1][l] >> ((idx & 1) * 16)) & 0xffff;
}

static inline uint32_t ureg16(const struct usc_state *s, unsigned idx)
{
	return (s->u[idx >> 1] >> ((idx & 1) * 16)) & 0xffff;
}

static unsigned src_bits(const struct src *src)
{
	switch (src->kind) {
	case SRC_R32:
	case SRC_U32:
		return 32;
	case SRC_R64:
	case SRC_U64:
		return 64;
	default:
		return 16;
	}
}

/* Integer lanes, zero- or (sx) sign-extended to 64 bits. */
static void read_int(const struct usc_state *s, const struct src *src, uint64_t out[L])
{
	uint64_t v = 0;

	switch (src->kind) {
	case SRC_R16:
		for (unsigned l = 0; l < L; l++)
			out[l] = reg16(s, src->index, l);
		break;
	case SRC_R32:
		for (unsigned l = 0; l < L; l++)
			out[l] = s->r[src->index][l];
		break;
	case SRC_R64:
		for (unsigned l = 0; l < L; l++)
			out[l] = s->r[src->index][l] | (uint64_t)s->r[src->index + 1][l] << 32;
		break;
	default:
		if (src->kind == SRC_IMM)
			v = src->imm;
		else if (src->kind == SRC_U16)
			v = ureg16(s, src->index);
		else if (src->kind == SRC_U32)
			v = s->u[src->index];
		else if (src->kind == SRC_U64)
			v = s->u[src->index] | (uint64_t)s->u[src->index + 1] << 32;
		for (unsigned l = 0; l < L; l++)
			out[l] = v;
		break;
	}
	if (src->sx) {
		unsigned bits = src_bits(src);

		for (unsigned l = 0; l < L; l++)
			out[l] = sext(out[l], bits);
	}
}

static inline float f32_from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* 32 lanes of 32 bits, seen as integers or as floats. */
union lanes {
	uint32_t u[L];
	float f[L];
};

/* Float lanes: halves widened exactly, float32 denormals flushed, then abs/neg. */
HOT void read_float_lanes(const struct usc_state *s, const struct src *src, union lanes *out)
{
	uint32_t sign = src->neg ? 0x80000000u : 0, keep = src->abs ? 0x7fffffffu : ~0u;

	if (src->fimm) {
		uint32_t u = f32_bits(src->fval);

		for (unsigned l = 0; l < L; l++)
			out->u[l] = u;
	} else if (src->kind == SRC_R32 || src->kind == SRC_U32) {
		const uint32_t *row = src->kind == SRC_R32 ? s->r[src->index] : NULL;
		uint32_t uni = src->kind == SRC_U32 ? s->u[src->index] : 0;

		for (unsigned l = 0; l < L; l++) {
			uint32_t u = row ? row[l] : uni;

			/* a denormal reads as zero of its sign */
			out->u[l] = (u & 0x7f800000u) ? u : u & 0x80000000u;
		}
	} else {
		for (unsigned l = 0; l < L; l++)
			out->f[l] =
			    fp16_to_float((uint16_t)(src->kind == SRC_R16 ? reg16(s, src->index, l)
						     : src->kind == SRC_U16 ? ureg16(s, src->index)
									    : src->imm));
	}
	if (sign || keep != ~0u)
		for (unsigned l = 0; l < L; l++)
			out->u[l] = (out->u[l] & keep) ^ sign;
}

static void read_float(const struct usc_state *s, const struct src *src, float out[L])
{
	union lanes v;

	read_float_lanes(s, src, &v);
	memcpy(out, v.f, sizeof(v.f));
}

/* Writes the low d->bits of each executing lane. */
static void write_int(struct usc_state *s, const struct dst *d, const uint64_t v[L])
{
	uint32_t exec = s->exec;

	if (d->bits == 16) {
		uint32_t *row = s->r[d->index >> 1];
		unsigned sh = (d->index & 1) * 16;

		for (unsigned l = 0; l < L; l++) {
			uint32_t m = -(uint32_t)((exec >> l) & 1) & (0xffffu << sh);

			row[l] = (row[l] & ~m) | (((uint32_t)v[l] << sh) & m);
		}
		return;
	}
	for (unsigned l = 0; l < L; l++) {
		uint32_t m = -(uint32_t)((exec >> l) & 1);

		s->r[d->index][l] = (s->r[d->index][l] & ~m) | ((uint32_t)v[l] & m);
		if (d->bits == 64)
			s->r[d->index + 1][l] =
			    (s->r[d->index + 1][l] & ~m) | ((uint32_t)(v[l] >> 32) & m);
	}
}

/* The float32 result as the hardware writes it: saturate, canonical NaN, flush. */
static inline uint32_t finish_f32(float r, bool sat)
{
	uint32_t u;

	if (sat)
		r = r > 1.0f ? 1.0f : r > 0.0f ? r : 0.0f; /* NaN and -0 become +0 */
	u = f32_bits(r);
	if ((u & 0x7fffffff) > 0x7f800000)
		return FP32_CANONICAL_NAN;
	if (!(u & 0x7f800000))
		u &= 0x80000000; /* denormal out: zero */
	return u;
}

static inline uint16_t finish_f16(double r, bool sat)
{
	if (sat)
		r = r > 1.0 ? 1.0 : r > 0.0 ? r : 0.0;
	return fp16_from_double(r);
}

/* A float result per lane, exact (double) for half destinations. */
static void write_float(struct usc_state *s, const struct uop *u, const float r32[L],
			const double exact[L])
{
	uint64_t v[L];

	if (u->d.bits == 16) {
		for (unsigned l = 0; l < L; l++)
			v[l] = finish_f16(exact ? exact[l] : (double)r32[l], u->sat);
	} else {
		for (unsigned l = 0; l < L; l++)
			v[l] = finish_f32(r32[l], u->sat);
	}
	write_int(s, &u->d, v);
}

/* --- the float unit --------------------------------------------------------------- */

/* x86-64 without FMA in its baseline gets an FMA clone; elsewhere fma is there or not */
#if defined(__x86_64__)
#define USC_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define USC_FMA_CLONES
#endif

USC_FMA_CLONES static void fma_lanes(float *restrict r, const float *restrict a,
				     const float *restrict b, const float *restrict c)
{
	for (unsigned l = 0; l < L; l++)
		r[l] = __builtin_fmaf(a[l], b[l], c[l]);
}

/*
 * Writes float32 lanes as the hardware does, where the lanes execute:
 * saturated if asked (NaN and -0 to +0), one canonical NaN, denormals
 * flushed to zero.  One pass, fused with the masked store.
 */
HOT void write_lanes32(uint32_t *row, union lanes *r, bool sat, uint32_t exec)
{
	if (sat)
		for (unsigned l = 0; l < L; l++)
			r->f[l] = r->f[l] > 1.0f ? 1.0f : r->f[l] > 0.0f ? r->f[l] : 0.0f;
	for (unsigned l = 0; l < L; l++) {
		uint32_t u = r->u[l], m = -(uint32_t)((exec >> l) & 1);

		u = (u & 0x7f800000u) ? u : u & 0x80000000u;
		u = (u & 0x7fffffffu) > 0x7f800000u ? FP32_CANONICAL_NAN : u;
		row[l] = (row[l] & ~m) | (u & m);
	}
}

/* applegpu fma.py: fadd is fma(a, 1, b), fmul is fma(a, b, +0), fmadd fma(a, b, c). */
HOT void exec_falu(struct usc_state *s, const struct uop *u)
{
	union lanes a, b, c, r;
	double exact[L];
	bool half = u->d.bits == 16;

	read_float_lanes(s, &u->a, &a);
	read_float_lanes(s, &u->b, &b);
	switch (u->op) {
	case AGX_OP_FADD:
	case AGX_OP_FADD16:
		for (unsigned l = 0; l < L; l++)
			r.f[l] = a.f[l] + b.f[l];
		if (half)
			for (unsigned l = 0; l < L; l++)
				exact[l] = fp16_exact_add(a.f[l], b.f[l]);
		break;
	case AGX_OP_FMUL:
	case AGX_OP_FMUL16:
		/* an exact zero product plus +0 is +0; an underflowed one keeps its sign */
		for (unsigned l = 0; l < L; l++)
			r.f[l] = (a.f[l] == 0.0f || b.f[l] == 0.0f) ? a.f[l] * b.f[l] + 0.0f
								    : a.f[l] * b.f[l];
		if (half)
			for (unsigned l = 0; l < L; l++)
				exact[l] = fp16_exact_fma(a.f[l], b.f[l], 0.0);
		break;
	default: /* fmadd, fmadd16 */
		read_float_lanes(s, &u->c, &c);
		fma_lanes(r.f, a.f, b.f, c.f);
		if (half)
			for (unsigned l = 0; l < L; l++)
				exact[l] = fp16_exact_fma(a.f[l], b.f[l], c.f[l]);
		break;
	}
	if (half) {
		write_float(s, u, r.f, exact);
		return;
	}
	write_lanes32(s->r[u->d.index], &r, u->sat, s->exec);
}

/*
 * sin_pt_1 and sin_pt_2: applegpu documents that sin_pt_1 takes an angle
 * in quarter turns, in [0, 4), and that the product of its result and of
 * sin_pt_2 of that result is the sine.  How the work is split between the
 * two is not public; ours: sin_pt_1 folds the angle into [-1, 1] (the same
 * sine), sin_pt_2(t) = sin(t * pi/2) / t.
 */
static double sin_pt_1(double x)
{
	if (x > 1.0 && x <= 3.0)
		return 2.0 - x;
	if (x > 3.0)
		return x - 4.0;
	return x;
}

static double sin_pt_2(double t)
{
	return t == 0.0 ? M_PI_2 : sin(t * M_PI_2) / t;
}

/* sqrt(x) is x * rsqrt_special(x): zero and infinity must come out right. */
static double rsqrt_special(double x)
{
	if (x == 0.0 || isinf(x))
		return x == 0.0 ? 0.0 : INFINITY;
	return 1.0 / sqrt(x);
}

static void exec_funary(struct usc_state *s, const struct uop *u)
{
	float a[L], r[L];
	double exact[L];

	read_float(s, &u->a, a);
	for (unsigned l = 0; l < L; l++) {
		double x = a[l], y;

		switch (u->op) {
		case AGX_OP_FLOOR:
			y = floor(x);
			break;
		case AGX_OP_CEIL:
			y = ceil(x);
			break;
		case AGX_OP_TRUNC:
			y = trunc(x);
			break;
		case AGX_OP_RINT:
			y = nearbyint(x);
			break;
		case AGX_OP_RCP:
			y = 1.0 / x;
			break;
		case AGX_OP_RSQRT:
			y = 1.0 / sqrt(x);
			break;
		case AGX_OP_RSQRT_SPECIAL:
			y = rsqrt_special(x);
			break;
		case AGX_OP_LOG2:
			y = log2(x);
			break;
		case AGX_OP_EXP2:
			y = exp2(x);
			break;
		case AGX_OP_SIN_PT_1:
			y = sin_pt_1(x);
			break;
		case AGX_OP_SIN_PT_2:
			y = sin_pt_2(x);
			break;
		case AGX_OP_DFDX:
			y = (double)a[l | 1] - a[l & ~1u];
			break;
		default: /* dfdy */
			y = (double)a[l | 2] - a[l & ~2u];
			break;
		}
		exact[l] = y;
		r[l] = (float)y;
	}
	write_float(s, u, r, exact);
}

/* --- integer unit ----------------------------------------------------------------- */

static uint64_t clamp_to(__int128 v, unsigned bits, bool is_signed)
{
	__int128 lo = is_signed ? -((__int128)1 << (bits - 1)) : 0;
	__int128 hi = is_signed ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;

	return (uint64_t)(v < lo ? lo : v > hi ? hi : v);
}

/*
 * iadd/isub and imadd/imsub (applegpu): the addend is negated, then shifted
 * (a shift of 5 or more gives 0).  Saturation applies only without a shift
 * and with 32-bit operands; it is signed when any source is sign-extended.
 */
static void exec_iadd(struct usc_state *s, const struct uop *u, bool multiply)
{
	uint64_t a[L], b[L], c[L], r[L];
	const struct src *addend = multiply ? &u->c : &u->b;
	bool sat = u->sat && u->shift == 0 && u->d.bits <= 32 && src_bits(addend) <= 32 &&
		   (multiply || src_bits(&u->a) <= 32);
	bool is_signed = u->a.sx || u->b.sx || (multiply && u->c.sx);

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	if (multiply)
		read_int(s, &u->c, c);
	for (unsigned l = 0; l < L; l++) {
		uint64_t add = multiply ? c[l] : b[l];

		if (sat) {
			/* 32-bit operands: exact as 64-bit integers, either extension */
			__int128 v = multiply ? (__int128)(int64_t)a[l] * (int64_t)b[l]
					      : (__int128)(int64_t)a[l];

			v += u->alt ? -(__int128)(int64_t)add : (__int128)(int64_t)add;
			r[l] = clamp_to(v, u->d.bits, is_signed);
			continue;
		}
		if (u->alt)
			add = -add;
		add = u->shift < 5 ? add << u->shift : 0;
		r[l] = (multiply ? a[l] * b[l] : a[l]) + add;
	}
	write_int(s, &u->d, r);
}

static void exec_bitfield(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], b[L], c[L], r[L];

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	if (u->op != AGX_OP_ASR && u->op != AGX_OP_ASRH)
		read_int(s, &u->c, c);
	for (unsigned l = 0; l < L; l++) {
		uint64_t mask = u->m ? (1ull << u->m) - 1 : 0xffffffffull;
		unsigned sh = (unsigned)(c[l] & 0x7f);
		uint64_t sm;

		switch (u->op) {
		case AGX_OP_BFI:
			r[l] = (a[l] & ~(sh < 64 ? mask << sh : 0)) |
			       (sh < 64 ? (b[l] & mask) << sh : 0);
			break;
		case AGX_OP_BFEIL:
			r[l] = (a[l] & ~mask) | ((sh < 64 ? b[l] >> sh : 0) & mask);
			break;
		case AGX_OP_EXTR: {
			uint64_t pair = (b[l] << 32) | (a[l] & 0xffffffffull);

			r[l] = (sh < 64 ? pair >> sh : 0) & mask;
			break;
		}
		case AGX_OP_SHLHI: {
			/* ((b << sh) >> 32) & (mask << max(sh - 32, 0)), insert into a */
			uint64_t shifted =
			    sh >= 32 ? (sh - 32 < 64 ? b[l] << (sh - 32) : 0) : b[l] >> (32 - sh);

			sm = sh > 32 ? (sh - 32 < 64 ? mask << (sh - 32) : 0) : mask;
			r[l] = (shifted & sm) | (a[l] & ~sm);
			break;
		}
		case AGX_OP_SHRHI: {
			uint64_t hi = b[l] << 32;

			sm = (mask << 32) >> (sh < 32 ? sh : 32);
			r[l] = ((sh < 64 ? hi >> sh : 0) & sm) | (a[l] & ~sm);
			break;
		}
		case AGX_OP_ASR: {
			unsigned bsh = (unsigned)(b[l] & 0x7f);
			int64_t v = (int64_t)sext(a[l], src_bits(&u->a));

			r[l] = (uint64_t)(v >> (bsh < 63 ? bsh : 63));
			break;
		}
		default: { /* asrh: (sign_extend(a) << 32) >> b */
			unsigned bsh = (unsigned)(b[l] & 0x7f);
			int64_t v = (int64_t)(sext(a[l], src_bits(&u->a)) << 32);

			r[l] = (uint64_t)(v >> (bsh < 63 ? bsh : 63));
			break;
		}
		}
	}
	write_int(s, &u->d, r);
}

static void exec_bitop(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], b[L], r[L];

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	for (unsigned l = 0; l < L; l++) {
		/* applegpu: truth tables 0011 and 1100 give a */
		if (u->tt == 0xc || u->tt == 0x3) {
			r[l] = a[l];
			continue;
		}
		r[l] = ((u->tt & 1) ? ~a[l] & ~b[l] : 0) | ((u->tt & 2) ? a[l] & ~b[l] : 0) |
		       ((u->tt & 4) ? ~a[l] & b[l] : 0) | ((u->tt & 8) ? a[l] & b[l] : 0);
	}
	write_int(s, &u->d, r);
}

static void exec_iunary(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], r[L];

	read_int(s, &u->a, a);
	for (unsigned l = 0; l < L; l++) {
		uint32_t x = (uint32_t)a[l];

		if (u->op == AGX_OP_BITREV) {
			uint32_t y = 0;

			for (unsigned i = 0; i < 32; i++)
				y |= ((x >> i) & 1u) << (31 - i);
			r[l] = y;
		} else if (u->op == AGX_OP_POPCOUNT) {
			r[l] = (uint64_t)__builtin_popcount(x);
		} else { /* ffs: the highest set bit, -1 for none */
			r[l] = x ? (uint64_t)(31 - __builtin_clz(x)) : ~0ull;
		}
	}
	write_int(s, &u->d, r);
}

/* --- conversions ------------------------------------------------------------------ */

static float to_f32_rounded(double d, bool rtz)
{
	float f = (float)d;

	if (rtz && fabs((double)f) > fabs(d))
		f = nextafterf(f, 0.0f);
	return f;
}

static uint16_t to_f16_rounded(double d, bool rtz)
{
	uint16_t h = fp16_from_double(d);

	if (rtz && fabs((double)fp16_to_float(h)) > fabs(d))
		h = (uint16_t)(h - 1); /* one step toward zero: same sign, smaller magnitude */
	return h;
}

static void exec_convert(struct usc_state *s, const struct uop *u)
{
	uint64_t raw[L], r[L];
	float f[L];
	bool rtz = u->round == 0;

	if (u->mode == 4 || u->mode == 5 || u->mode == 8 || u->mode == 9) {
		/* float to integer: rounded, saturated; NaN gives 0 */
		unsigned bits = u->mode <= 5 ? 16 : 32;
		bool sgn = u->mode & 1;
		double lo = sgn ? -ldexp(1.0, (int)bits - 1) : 0.0;
		double hi = sgn ? ldexp(1.0, (int)bits - 1) - 1 : ldexp(1.0, (int)bits) - 1;

		read_float(s, &u->a, f);
		for (unsigned l = 0; l < L; l++) {
			double x = rtz ? trunc((double)f[l]) : nearbyint((double)f[l]);

			x = isnan(x) ? 0.0 : x < lo ? lo : x > hi ? hi : x;
			r[l] = sgn ? (uint64_t)(int64_t)x : (uint64_t)x;
		}
		write_int(s, &u->d, r);
		return;
	}
	read_int(s, &u->a, raw);
	for (unsigned l = 0; l < L; l++) {
		double x;

		switch (u->mode) {
		case 0:
			x = (double)(uint8_t)raw[l];
			break;
		case 1:
			x = (double)(int8_t)raw[l];
			break;
		case 6:
			x = (double)(uint16_t)raw[l];
			break;
		case 7:
			x = (double)(int16_t)raw[l];
			break;
		case 10:
			x = (double)(uint32_t)raw[l];
			break;
		default:
			x = (double)(int32_t)raw[l];
			break;
		}
		r[l] = u->d.bits == 16 ? to_f16_rounded(x, rtz) : f32_bits(to_f32_rounded(x, rtz));
	}
	write_int(s, &u->d, r);
}

/* --- comparisons and selects ---------------------------------------------------------- */

static void icompare(const struct usc_state *s, const struct uop *u, bool out[L])
{
	uint64_t a[L], b[L];
	unsigned cond = u->cc & 3;
	bool sgn = u->cc & 4, neg = u->cc & 8;

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	for (unsigned l = 0; l < L; l++) {
		uint64_t x = a[l], y = b[l];
		bool t;

		if (sgn) {
			x = sext(x, src_bits(&u->a));
			y = sext(y, src_bits(&u->b));
		}
		if (cond == 0)
			t = x == y;
		else if (cond == 1)
			t = sgn ? (int64_t)x < (int64_t)y : x < y;
		else
			t = sgn ? (int64_t)x > (int64_t)y : x > y;
		out[l] = t != neg;
	}
}

static void fcompare(const struct usc_state *s, const struct uop *u, bool out[L])
{
	float a[L], b[L];
	bool neg = u->cc & 8;

	read_float(s, &u->a, a);
	read_float(s, &u->b, b);
	for (unsigned l = 0; l < L; l++) {
		bool t;

		switch (u->cc & 7) {
		case 0:
			t = a[l] == b[l];
			break;
		case 1:
			t = a[l] < b[l];
			break;
		case 2:
			t = a[l] > b[l];
			break;
		case 3:
			t = a[l] < b[l] || isnan(b[l]);
			break; /* ltn: a NaN loses */
		case 5:
			t = a[l] >= b[l];
			break;
		case 6:
			t = a[l] <= b[l];
			break;
		case 7:
			t = a[l] > b[l] || isnan(b[l]);
			break; /* gtn */
		default:
			t = false;
			break;
		}
		out[l] = t != neg;
	}
}

static void compare(const struct usc_state *s, const struct uop *u, bool out[L])
{
	switch (u->op) {
	case AGX_OP_FCMPSEL:
	case AGX_OP_IF_FCMP:
	case AGX_OP_ELSE_FCMP:
	case AGX_OP_WHILE_FCMP:
	case AGX_OP_FCMP_BALLOT:
	case AGX_OP_FCMP_QUAD_BALLOT:
		fcompare(s, u, out);
		break;
	default:
		icompare(s, u, out);
		break;
	}
}

static void exec_select(struct usc_state *s, const struct uop *u)
{
	uint64_t x[L], y[L], r[L];
	bool t[L];

	compare(s, u, t);
	read_int(s, &u->x, x);
	read_int(s, &u->y, y);
	for (unsigned l = 0; l < L; l++)
		r[l] = t[l] ? x[l] : y[l];
	write_int(s, &u->d, r);
}

/* --- execution mask ------------------------------------------------------------------ */

static void update_exec(struct usc_state *s)
{
	uint32_t e = 0;

	for (unsigned l = 0; l < L; l++)
		e |= (uint32_t)((s->r[0][l] & 0xffff) == 0) << l;
	s->exec = e & s->present;
}

/* applegpu's pseudocode: r0l counts the levels a lane is disabled for. */
static void exec_mask_op(struct usc_state *s, const struct uop *u)
{
	bool t[L] = { false };

	if (u->op != AGX_OP_POP_EXEC)
		compare(s, u, t);
	for (unsigned l = 0; l < L; l++) {
		uint32_t v = s->r[0][l] & 0xffff;

		switch (u->op) {
		case AGX_OP_POP_EXEC:
			v = v > u->n ? v - u->n : 0;
			break;
		case AGX_OP_IF_ICMP:
		case AGX_OP_IF_FCMP:
			if (v)
				v += u->n;
			else if (!t[l])
				v = 1;
			break;
		case AGX_OP_ELSE_ICMP:
		case AGX_OP_ELSE_FCMP:
			if (v == 0)
				v = u->n;
			else if (v == 1)
				v = t[l] ? 0 : 1;
			break;
		default: /* while */
			if (v < u->n)
				v = t[l] ? 0 : u->n;
			break;
		}
		s->r[0][l] = (s->r[0][l] & 0xffff0000u) | (v & 0xffff);
	}
	update_exec(s);
}

/* --- SIMD group operations -------------------------------------------------------------- */

static void exec_ballot(struct usc_state *s, const struct uop *u)
{
	uint64_t r[L];
	uint32_t ballot = 0;
	bool t[L];

	compare(s, u, t);
	for (unsigned l = 0; l < L; l++)
		if ((s->exec >> l) & 1 && t[l])
			ballot |= 1u << l;
	for (unsigned l = 0; l < L; l++)
		r[l] = (u->op == AGX_OP_ICMP_BALLOT || u->op == AGX_OP_FCMP_BALLOT)
			   ? ballot
			   : ballot >> (l & ~3u); /* the quad's bits first; "& 15" selects them */
	write_int(s, &u->d, r);
}

/*
 * The quad forms beyond quad_shuffle: applegpu gives them no exec, so each
 * lane reads as Metal's quad_shuffle_up/_down/_rotate_up/_xor define (lanes
 * within the quad; past its edge a lane keeps its own value).
 */
static uint64_t quad_shuffle(enum agx_op op, const uint64_t a[L], unsigned l, uint64_t idx)
{
	unsigned q = l & 3, base = l & ~3u;

	switch (op) {
	case AGX_OP_QUAD_SHUFFLE_UP:
		return idx <= q ? a[base | (q - (unsigned)idx)] : a[l];
	case AGX_OP_QUAD_SHUFFLE_DOWN:
		return q + idx < 4 ? a[base | (q + (unsigned)idx)] : a[l];
	case AGX_OP_QUAD_SHUFFLE_ROTATE_UP:
		return a[base | ((q - (unsigned)idx) & 3)];
	default: /* quad_shuffle_xor */
		return a[base | ((l ^ idx) & 3)];
	}
}

/* applegpu's exec for simd_shuffle*: lanes of a quad combine their indices. */
static void exec_shuffle(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], b[L], r[L];
	uint64_t quad[L / 4][4];

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	for (unsigned q = 0; q < L / 4; q++) {
		unsigned k = 0;

		for (unsigned i = 0; i < 4; i++)
			k |= (unsigned)(b[q * 4 + i] & 3);
		for (unsigned i = 0; i < 4; i++) {
			unsigned from;

			switch (u->op) {
			case AGX_OP_SIMD_SHUFFLE:
				from = k;
				break;
			case AGX_OP_SIMD_SHUFFLE_DOWN:
				from = (i + k) & 3;
				break;
			case AGX_OP_SIMD_SHUFFLE_UP:
			case AGX_OP_SIMD_SHUFFLE_ROTATE_UP:
				from = (i - k) & 3;
				break;
			default:
				from = (i ^ k) & 3;
				break;
			}
			quad[q][i] = a[q * 4 + from];
		}
	}
	for (unsigned l = 0; l < L; l++) {
		uint64_t idx = b[l];

		switch (u->op) {
		case AGX_OP_SIMD_SHUFFLE:
			r[l] = idx < L ? quad[idx >> 2][0] : a[l];
			break;
		case AGX_OP_SIMD_SHUFFLE_DOWN:
			r[l] = idx + l < L ? quad[(idx + l) >> 2][l & 3] : a[l];
			break;
		case AGX_OP_SIMD_SHUFFLE_UP:
			r[l] = idx <= l ? quad[(l - idx) >> 2][l & 3] : a[l];
			break;
		case AGX_OP_SIMD_SHUFFLE_XOR:
			r[l] = (l ^ idx) < L ? quad[((l ^ idx) & 31) >> 2][l & 3] : a[l];
			break;
		case AGX_OP_SIMD_SHUFFLE_ROTATE_UP:
			r[l] = quad[((l - idx) & 31) >> 2][l & 3];
			break;
		case AGX_OP_QUAD_SHUFFLE:
			r[l] = a[(l & ~3u) | (idx & 3)];
			break;
		default:
			r[l] = quad_shuffle(u->op, a, l, idx);
			break;
		}
	}
	write_int(s, &u->d, r);
}

/* Bits of x to the even positions, of y to the odd (Mesa nir_interleave_agx). */
static uint32_t interleave16(uint32_t x, uint32_t y)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < 16; i++)
		r |= ((x >> i) & 1) << (2 * i) | ((y >> i) & 1) << (2 * i + 1);
	return r;
}

static void exec_intl(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], b[L], r[L];

	read_int(s, &u->a, a);
	read_int(s, &u->b, b);
	for (unsigned l = 0; l < L; l++)
		r[l] = interleave16((uint32_t)a[l] & 0xffff, (uint32_t)b[l] & 0xffff);
	write_int(s, &u->d, r);
}

/*
 * Element e (0 or 1) of lane l in the 8x8 simdgroup_matrix: four 4x4
 * quadrants of eight lanes, each lane two neighbours in a row (Metal's
 * layout as metal-flash-attention's morton_order gives it, after Apple
 * patent US11256518B2).
 */
static void matrix_position(unsigned l, unsigned e, unsigned *row, unsigned *col)
{
	*row = (l >> 4) * 4 + ((l >> 1) & 3);
	*col = ((l >> 3) & 1) * 4 + (l & 1) * 2 + e;
}

/* A whole matrix from a pair operand, every lane's elements (as shuffles read them). */
static void read_matrix(const struct usc_state *s, const struct src *x, double m[8][8])
{
	for (unsigned e = 0; e < 2; e++) {
		struct src el = *x;
		union lanes v;

		el.index += e; /* the next half, or the next 32-bit register */
		read_float_lanes(s, &el, &v);
		for (unsigned l = 0; l < L; l++) {
			unsigned row, col;

			matrix_position(l, e, &row, &col);
			m[row][col] = v.f[l];
		}
	}
}

/*
 * D = A x B + C over the SIMD group.  How the matrix unit rounds is not
 * public: each element is computed in double (the products exactly) and
 * rounded once, to f32 (denormals flushed) or f16 as the opcode says.
 */
static bool exec_matrix(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	bool wide = u->op == AGX_OP_SIMD_MATRIX_FMADD32;
	double a[8][8], b[8][8], c[8][8];

	if (u->d.bits != (wide ? 32 : 16)) {
		res->status = USC_BAD_INSTR;
		snprintf(res->message, sizeof(res->message),
			 "%s into %u-bit registers is not simulated", u->desc->name, u->d.bits);
		return false;
	}
	read_matrix(s, &u->a, a);
	read_matrix(s, &u->b, b);
	read_matrix(s, &u->c, c);
	for (unsigned e = 0; e < 2; e++) {
		struct dst d = u->d;
		uint64_t r[L];

		d.index += e;
		for (unsigned l = 0; l < L; l++) {
			unsigned row, col;
			double sum;

			matrix_position(l, e, &row, &col);
			sum = c[row][col];
			for (unsigned k = 0; k < 8; k++)
				sum += a[row][k] * b[k][col];
			r[l] = wide ? finish_f32((float)sum, false) : fp16_from_double(sum);
		}
		write_int(s, &d, r);
	}
	return true;
}

/* One step of a simd_op: a op b on values of the destination's size. */
static uint64_t simd_combine(unsigned op, uint64_t a, uint64_t b, unsigned bits)
{
	int64_t sa = (int64_t)sext(a, bits), sb = (int64_t)sext(b, bits);

	switch (op) {
	case 0:
		return a & b;
	case 1:
		return a | b;
	case 2:
		return a ^ b;
	case 8:
		return a + b;
	case 10:
		return (uint64_t)(sa < sb ? sa : sb);
	case 11:
		return (uint64_t)(sa > sb ? sa : sb);
	case 14:
		return a < b ? a : b;
	case 15:
		return a > b ? a : b;
	default: { /* float: single rounding per step, as the ALU does */
		double x = bits == 16 ? fp16_to_float((uint16_t)a) : f32_from_bits((uint32_t)a);
		double y = bits == 16 ? fp16_to_float((uint16_t)b) : f32_from_bits((uint32_t)b);
		double r = op == 16 ? x + y : op == 17 ? x * y : op == 18 ? fmin(x, y) : fmax(x, y);

		if (bits == 16)
			return fp16_from_double(r);
		return finish_f32((float)r, false);
	}
	}
}

static uint64_t simd_identity(unsigned op, unsigned bits)
{
	uint64_t ones = bits >= 64 ? ~0ull : (1ull << bits) - 1;

	switch (op) {
	case 0:
	case 14:
		return ones;
	case 10:
		return ones >> 1; /* the largest signed value */
	case 11:
		return (ones >> 1) + 1;
	case 16:
		return bits == 16 ? 0x8000 : 0x80000000u; /* -0: x + -0 == x */
	case 17:
		return bits == 16 ? 0x3c00 : 0x3f800000u;
	case 18:
		return bits == 16 ? 0x7c00 : 0x7f800000u;
	case 19:
		return bits == 16 ? 0xfc00 : 0xff800000u;
	default:
		return 0;
	}
}

/*
 * simd_op: a reduction over the executing lanes of the quad or the SIMD
 * group, or an exclusive prefix over the executing lanes below.  Which
 * prefix (exclusive or inclusive) the hardware computes is not public;
 * ours is exclusive, Metal's simd_prefix_exclusive_* form.
 */
static void exec_simd_op(struct usc_state *s, const struct uop *u)
{
	uint64_t a[L], r[L];
	unsigned bits = u->d.bits;
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;

	read_int(s, &u->a, a);
	for (unsigned l = 0; l < L; l++) {
		unsigned first = u->scope ? 0 : l & ~3u, last = u->scope ? L : (l & ~3u) + 4;
		uint64_t acc = simd_identity(u->mode, bits);

		for (unsigned k = first; k < last; k++) {
			if (!((s->exec >> k) & 1) || (u->prefix && k >= l))
				continue;
			acc = simd_combine(u->mode, acc, a[k] & mask, bits);
		}
		r[l] = acc;
	}
	write_int(s, &u->d, r);
}

static bool special_register(const struct usc_state *s, unsigned sr, uint64_t r[L])
{
	const struct usc_dispatch *d = &s->dispatch;

	for (unsigned l = 0; l < L; l++) {
		uint32_t linear = d->simdgroup_index * L + l;
		uint32_t tx = d->threads_per_threadgroup[0] ? d->threads_per_threadgroup[0] : 1;
		uint32_t ty = d->threads_per_threadgroup[1] ? d->threads_per_threadgroup[1] : 1;
		uint32_t pos[3] = { linear % tx, (linear / tx) % ty, linear / (tx * ty) };
		uint32_t below = s->exec & ((1u << l) - 1);

		switch (sr) {
		case 0:
		case 1:
		case 2:
			r[l] = d->threadgroup_position[sr];
			break;
		case 4:
		case 5:
		case 6:
			r[l] = d->threads_per_threadgroup[sr - 4];
			break;
		case 8:
		case 9:
		case 10:
			r[l] = d->threads_per_threadgroup[sr - 8];
			break;
		case 48:
		case 49:
		case 50:
			r[l] = pos[sr - 48];
			break;
		case 51:
			r[l] = linear;
			break;
		case 52:
			r[l] = l;
			break;
		case 53:
			r[l] = d->simdgroup_index;
			break;
		case 56:
			r[l] = (uint64_t)__builtin_popcount(below & (0xfu << (l & ~3u)));
			break;
		case 58:
			r[l] = (uint64_t)__builtin_popcount(below);
			break;
		case 62:
			/* compute work has no facing */
			r[l] = s->fragment ? s->fragment->backfacing : 0;
			break;
		case 63:
			r[l] = (s->exec >> l) & 1;
			break;
		case 80:
		case 81:
			if (s->fragment) { /* the pixel, in the framebuffer */
				r[l] = sr == 80 ? s->fragment->x0 + s->fragment->px[l]
						: s->fragment->y0 + s->fragment->py[l];
				break;
			}
			/* fall through */
		case 82:
			r[l] =
			    d->threadgroup_position[sr - 80] * d->threads_per_threadgroup[sr - 80] +
			    pos[sr - 80];
			break;
		default:
			return false;
		}
	}
	return true;
}

/* --- memory -------------------------------------------------------------------------- */

static unsigned format_size(unsigned f)
{
	switch (f) {
	case 1:
	case 3:
	case 6:
	case 7:
		return 2; /* i16, f16, u16norm, s16norm */
	case 2:
		return 4; /* i32 */
	default:
		return 1;
	}
}

/*
 * Component n of a bit-packed 32-bit word (applegpu's device_load exec):
 * rgb10a2, rg11b10f or rgb9e5.  Returns false for the component that does
 * not exist (the fourth of rg11b10f and rgb9e5).
 */
static bool packed_component(unsigned f, uint32_t word, unsigned n, double *out)
{
	switch (f) {
	case 8:
		*out = n < 3 ? ((word >> (10 * n)) & 1023) / 1023.0 : (word >> 30) / 3.0;
		return true;
	case 12:
		if (n == 3)
			return false;
		*out =
		    n < 2 ? usc_small_float(word >> (11 * n), 6) : usc_small_float(word >> 22, 5);
		return true;
	default: /* 13: rgb9e5, a shared exponent */
		if (n == 3)
			return false;
		*out = ldexp((word >> (9 * n)) & 0x1ff, (int)(word >> 27) - 15 - 9);
		return true;
	}
}

/* The 32-bit word of a packed format from its components (floats). */
static uint32_t pack_word(unsigned f, const double c[4])
{
	switch (f) {
	case 8: {
		uint32_t w = 0;

		for (int i = 0; i < 3; i++)
			w |= (uint32_t)nearbyint(fmin(fmax(c[i], 0.0), 1.0) * 1023.0) << (10 * i);
		return w | (uint32_t)nearbyint(fmin(fmax(c[3], 0.0), 1.0) * 3.0) << 30;
	}
	case 12:
	case 14:
		return usc_to_small_float(c[0], 6, f == 14) |
		       usc_to_small_float(c[1], 6, f == 14) << 11 |
		       usc_to_small_float(c[2], 5, f == 14) << 22;
	default: /* 13, 15 */
		return usc_to_rgb9e5(c, f == 15);
	}
}

static uint64_t float_bits_for(double x, unsigned reg_bits)
{
	return reg_bits == 16 ? fp16_from_double(x) : f32_bits((float)x);
}

/* A loaded item as register bits: raw, or a normalized value as float. */
static uint64_t load_value(unsigned f, uint32_t raw, unsigned reg_bits, unsigned component)
{
	double x;

	switch (f) {
	case 10:
		/* srgba8: sRGB for colour, linear alpha, by component */
		x = component < 3 ? usc_srgb_to_linear(raw / 255.0) : raw / 255.0;
		break;
	case 4:
		x = raw / 255.0;
		break;
	case 5:
		x = fmax((int8_t)raw, -127) / 127.0;
		break;
	case 6:
		x = raw / 65535.0;
		break;
	case 7:
		x = fmax((int16_t)raw, -32767) / 32767.0;
		break;
	default:
		return raw;
	}
	return reg_bits == 16 ? fp16_from_double(x) : f32_bits((float)x);
}

/*
 * x clamped to [lo, hi], scaled and rounded to nearest, ties to even: what
 * nearbyint() gives in the default rounding mode, without the call (adding
 * and taking away 1.5 * 2^52 rounds any |v| < 2^51 that way).
 */
static inline int64_t norm_round(double x, double lo, double hi, double scale)
{
	x = x < lo ? lo : x > hi ? hi : x;
	return (int64_t)((x * scale + 6755399441055744.0) - 6755399441055744.0);
}

/*
 * A register value stored as an item of format f (normalized: rounded to
 * nearest); component says which, for srgba8's linear alpha.
 */
static uint32_t store_value(unsigned f, uint32_t reg, unsigned reg_bits, unsigned component)
{
	double x;

	if (f < 4)
		return reg; /* raw items */
	x = reg_bits == 16 ? fp16_to_float((uint16_t)reg) : f32_from_bits(reg);
	if (isnan(x))
		x = 0;
	switch (f) {
	case 10:
		x = fmin(fmax(x, 0.0), 1.0);
		return (uint32_t)norm_round(component < 3 ? usc_linear_to_srgb(x) : x, 0, 1, 255);
	case 4:
		return (uint32_t)norm_round(x, 0, 1, 255);
	case 5:
		return (uint32_t)(uint8_t)(int8_t)norm_round(x, -1, 1, 127);
	case 6:
		return (uint32_t)norm_round(x, 0, 1, 65535);
	default: /* 7 */
		return (uint32_t)(uint16_t)(int16_t)norm_round(x, -1, 1, 32767);
	}
}

/* Item copies of the sizes formats have, so that the compiler inlines them. */
static inline uint32_t item_read(const uint8_t *p, unsigned size)
{
	uint32_t v = 0;

	if (size == 4)
		memcpy(&v, p, 4);
	else if (size == 2)
		memcpy(&v, p, 2);
	else
		v = *p;
	return v;
}

static inline void item_write(uint8_t *p, uint32_t v, unsigned size)
{
	if (size == 4)
		memcpy(p, &v, 4);
	else if (size == 2)
		memcpy(p, &v, 2);
	else
		*p = (uint8_t)v;
}

static uint32_t tuple_get(const struct usc_state *s, const struct dst *t, unsigned k, unsigned l)
{
	return t->bits == 16 ? reg16(s, t->index + k, l) : s->r[t->index + k][l];
}

static void tuple_set(struct usc_state *s, const struct dst *t, unsigned k, unsigned l, uint64_t v)
{
	if (t->bits == 16) {
		unsigned idx = t->index + k, sh = (idx & 1) * 16;

		s->r[idx >> 1][l] = (s->r[idx >> 1][l] & ~(0xffffu << sh)) | ((uint32_t)v & 0xffff)
										 << sh;
	} else {
		s->r[t->index + k][l] = (uint32_t)v;
	}
}

/*
 * Bit-packed loads (applegpu): one aligned 32-bit word at base + offset * 4,
 * the shift and the mask ignored, unpacked to 4 (rgb10a2) or 3 registers.
 */
static bool load_packed(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	uint64_t base[L], index[L];

	read_int(s, &u->base, base);
	read_int(s, &u->index, index);
	for (unsigned l = 0; l < L; l++) {
		int64_t off;
		uint64_t at;
		uint32_t word;

		if (!((s->exec >> l) & 1))
			continue;
		if (u->op == AGX_OP_THREADGROUP_LOAD) {
			off = (int64_t)(uint16_t)base[l] + (u->index.kind == SRC_IMM
								? (int16_t)index[l]
								: (int64_t)(uint16_t)index[l]);
			at = (uint64_t)off * 4;
		} else {
			off = u->index.kind == SRC_IMM ? (int16_t)index[l]
			      : u->index_unsigned      ? (int64_t)(uint32_t)index[l]
						       : (int64_t)(int32_t)index[l];
			at = (base[l] & ~3ull) + (uint64_t)off * 4;
		}
		if (u->op == AGX_OP_THREADGROUP_LOAD
			? at + 4 > s->threadgroup_memory_size
			: !(s->memory.read && s->memory.read(s->memory.ctx, at, &word, 4))) {
			res->status = USC_FAULT;
			res->fault_address = at;
			snprintf(res->message, sizeof(res->message), "fault at 0x%llx (lane %u)",
				 (unsigned long long)at, l);
			return false;
		}
		if (u->op == AGX_OP_THREADGROUP_LOAD)
			memcpy(&word, s->threadgroup_memory + at, 4);
		for (unsigned n = 0; n < 4; n++) {
			double x;

			if (packed_component(u->format, word, n, &x))
				tuple_set(s, &u->tuple, n, l, float_bits_for(x, u->tuple.bits));
		}
	}
	return true;
}

/*
 * Bit-packed stores, the other way: all the format's components (x, y, z
 * and, for rgb10a2, w) from the register tuple, packed into one aligned
 * word at base + offset * 4.
 */
static bool store_packed(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	unsigned need = u->format == 8 ? 0xf : 0x7;
	uint64_t base[L], index[L];

	if (u->memmask != need) {
		snprintf(res->message, sizeof(res->message),
			 "packed store of part of a format (mask 0x%x) is not simulated",
			 u->memmask);
		res->status = USC_BAD_INSTR;
		return false;
	}
	read_int(s, &u->base, base);
	read_int(s, &u->index, index);
	for (unsigned l = 0; l < L; l++) {
		double c[4] = { 0 };
		uint32_t word;
		int64_t off;
		uint64_t at;
		bool ok;

		if (!((s->exec >> l) & 1))
			continue;
		for (unsigned n = 0; n < (u->format == 8 ? 4u : 3u); n++) {
			uint32_t reg = tuple_get(s, &u->tuple, n, l);

			c[n] =
			    u->tuple.bits == 16 ? fp16_to_float((uint16_t)reg) : f32_from_bits(reg);
		}
		word = pack_word(u->format, c);
		if (u->op == AGX_OP_THREADGROUP_STORE) {
			off = (int64_t)(uint16_t)base[l] + (u->index.kind == SRC_IMM
								? (int16_t)index[l]
								: (int64_t)(uint16_t)index[l]);
			at = (uint64_t)off * 4;
			if ((ok = at + 4 <= s->threadgroup_memory_size))
				memcpy(s->threadgroup_memory + at, &word, 4);
		} else {
			off = u->index.kind == SRC_IMM ? (int16_t)index[l]
			      : u->index_unsigned      ? (int64_t)(uint32_t)index[l]
						       : (int64_t)(int32_t)index[l];
			at = (base[l] & ~3ull) + (uint64_t)off * 4;
			ok = s->memory.write && s->memory.write(s->memory.ctx, at, &word, 4);
		}
		if (!ok) {
			res->status = USC_FAULT;
			res->fault_address = at;
			res->fault_write = true;
			snprintf(res->message, sizeof(res->message), "fault at 0x%llx (lane %u)",
				 (unsigned long long)at, l);
			return false;
		}
	}
	return true;
}

/*
 * uniform_store: register halves of one thread -- the first that executes,
 * as in a preamble, where every thread holds the same values -- into the
 * uniform file from half O, component i into half O + i.
 */
static void exec_uniform_store(struct usc_state *s, const struct uop *u)
{
	uint16_t *halves = (uint16_t *)s->u;
	unsigned k = 0, l;

	if (!s->exec)
		return;
	l = (unsigned)__builtin_ctz(s->exec);
	for (unsigned i = 0; i < 4; i++) {
		unsigned h = (unsigned)u->index.imm + i;

		if (!((u->memmask >> i) & 1))
			continue;
		if (h < 2 * (USC_NUM_UNIFORMS - 1))
			halves[h] = (uint16_t)tuple_get(s, &u->tuple, k, l);
		k++;
	}
}

/* An atomic's new value for op (g13.isa atomic_op) from old, operand v and compare value. */
static uint32_t atomic_apply(unsigned op, uint32_t old, uint32_t v, uint32_t cmp)
{
	switch (op) {
	case 0:
		return old + v;
	case 1:
		return old - v;
	case 2:
		return v;
	case 3:
		return old == cmp ? v : old;
	case 4:
		return old < v ? old : v;
	case 5:
		return (int32_t)old < (int32_t)v ? old : v;
	case 6:
		return old > v ? old : v;
	case 7:
		return (int32_t)old > (int32_t)v ? old : v;
	case 8:
		return old & v;
	case 9:
		return old | v;
	default:
		return old ^ v;
	}
}

/*
 * atomic / threadgroup_atomic, lane by lane in lane order.  Device memory
 * may be shared with other GPU cores at the same time, so where the device
 * gives a host pointer the update is one atomic compare-and-swap loop.
 */
static bool exec_atomic(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	bool device = u->op == AGX_OP_ATOMIC;
	uint64_t base[L], index[L], old[L] = { 0 };

	if (u->mode > 10) {
		snprintf(res->message, sizeof(res->message), "atomic op %u is not known", u->mode);
		res->status = USC_BAD_INSTR;
		return false;
	}
	read_int(s, &u->base, base);
	read_int(s, &u->index, index);
	for (unsigned l = 0; l < L; l++) {
		uint32_t v = tuple_get(s, &u->tuple, 0, l);
		uint32_t cmp = u->mode == 3 ? tuple_get(s, &u->tuple, 1, l) : 0;
		uint64_t at;
		uint32_t *host = NULL, word;
		bool ok;

		if (!((s->exec >> l) & 1))
			continue;
		if (device) {
			int64_t off = u->index.kind == SRC_IMM ? (int16_t)index[l]
				      : u->index_unsigned      ? (int64_t)(uint32_t)index[l]
							       : (int64_t)(int32_t)index[l];

			at = (base[l] & ~3ull) + (uint64_t)(off * 4);
			if (s->memory.translate)
				host = s->memory.translate(s->memory.ctx, at, 4, true);
		} else {
			/* a byte address, plus an index in items */
			int64_t off = u->index.kind == SRC_IMM ? (int16_t)index[l]
							       : (int64_t)(uint16_t)index[l];

			at = (uint64_t)((int64_t)(uint16_t)base[l] + off * 4);
			if (at + 4 <= s->threadgroup_memory_size && !(at & 3))
				host = (uint32_t *)(s->threadgroup_memory + at);
		}
		if (host) {
			word = __atomic_load_n(host, __ATOMIC_RELAXED);
			while (!__atomic_compare_exchange_n(
			    host, &word, atomic_apply(u->mode, word, v, cmp), false,
			    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				;
			ok = true;
		} else {
			ok = device && s->memory.read && s->memory.write &&
			     s->memory.read(s->memory.ctx, at, &word, 4);
			if (ok) {
				uint32_t next = atomic_apply(u->mode, word, v, cmp);

				ok = s->memory.write(s->memory.ctx, at, &next, 4);
			}
		}
		if (!ok) {
			res->status = USC_FAULT;
			res->fault_address = at;
			res->fault_write = true;
			snprintf(res->message, sizeof(res->message),
				 "%s atomic fault at 0x%llx (lane %u)",
				 device ? "device" : "threadgroup", (unsigned long long)at, l);
			return false;
		}
		old[l] = word;
	}
	if (u->d.bits)
		write_int(s, &u->d, old);
	return true;
}

/* A texture unit result that ends the run: a descriptor it does not take, or a fault. */
static bool texel_failed(enum usc_texel_status st, uint64_t fault, unsigned l, bool write,
			 struct usc_result *res)
{
	if (st == USC_TEXEL_BAD) {
		res->status = USC_BAD_INSTR;
		return true;
	}
	if (st != USC_TEXEL_FAULT)
		return false;
	res->status = USC_FAULT;
	res->fault_address = fault;
	res->fault_write = write;
	snprintf(res->message, sizeof(res->message), "texture %s fault at 0x%llx (lane %u)",
		 write ? "write" : "read", (unsigned long long)fault, l);
	return true;
}

/* A texture instruction in a form the texture unit does not take yet; says which. */
static bool texture_unsupported(const struct uop *u, const char *what, struct usc_result *res)
{
	snprintf(res->message, sizeof(res->message), "%s with %s is not simulated", u->desc->name,
		 what);
	res->status = USC_BAD_INSTR;
	return false;
}

/*
 * The lane's texture, as a view decoded again only when the lane names
 * another texture than the one before, and its sampler: checked against
 * what is bound.
 */
static bool lane_texture(const struct usc_state *s, const struct uop *u, unsigned l, bool sampler,
			 struct usc_texture_view *view, unsigned *have, unsigned *sm,
			 struct usc_result *res)
{
	unsigned t = u->tex_kind ? reg16(s, u->tex, l) : u->tex;

	*sm = sampler ? (u->samp_kind ? reg16(s, u->samp, l) : u->samp) : 0;
	if (t >= s->num_textures || (sampler && *sm >= s->num_samplers)) {
		snprintf(res->message, sizeof(res->message),
			 "texture ts%u or sampler ss%u is not bound (lane %u)", t, *sm, l);
		res->status = USC_BAD_INSTR;
		return false;
	}
	if (t != *have) {
		if (usc_texture_view_init(view, s->textures + t * USC_TEXTURE_STATE, u->n,
					  res->message, sizeof(res->message)) != USC_TEXEL_OK) {
			res->status = USC_BAD_INSTR;
			return false;
		}
		*have = t;
	}
	return true;
}

/* A texel's components, those in the mask, packed from R (16-bit registers take halves). */
static void texel_write_back(struct usc_state *s, const struct uop *u, unsigned l,
			     const uint32_t v[4], bool integer)
{
	unsigned k = 0;

	for (unsigned i = 0; i < 4; i++)
		if ((u->memmask >> i) & 1)
			tuple_set(s, &u->tuple, k++, l,
				  u->tuple.bits == 32 ? v[i]
				  : integer	      ? v[i] & 0xffff
						      : fp16_from_double(f32_from_bits(v[i])));
}

/*
 * Every executing lane's texel, written once all lanes have read their
 * operands: R may overlap the coordinates, which the quad's other lanes
 * read for the LOD.
 */
static void write_back_all(struct usc_state *s, const struct uop *u, uint32_t texel[L][4],
			   const bool *integer)
{
	for (unsigned l = 0; l < L; l++)
		if ((s->exec >> l) & 1)
			texel_write_back(s, u, l, texel[l], integer[l]);
}

/* Coordinate registers a texture dimension takes, and whether an array layer follows them. */
static unsigned texture_coords(unsigned dim, bool *array)
{
	*array = dim == 1 || dim == 3 || dim == 7;
	return dim <= 1 ? 1 : dim == 5 || dim == 6 || dim == 7 ? 3 : 2;
}

/* A lane's compare value and texel offsets (4-bit fields, x in bits 0..3; Mesa). */
static void compare_offset(const struct usc_state *s, const struct uop *u, unsigned l,
			   struct usc_sample *a)
{
	unsigned half = u->cmpoff;

	if (u->tex_compare) {
		a->compare = true;
		a->reference = f32_from_bits(s->r[half >> 1][l]);
		half += 2;
	}
	if (u->tex_offset) {
		uint32_t packed = reg16(s, half, l);

		for (unsigned k = 0; k < 3; k++)
			a->offset[k] =
			    (int)((packed >> (4 * k)) & 0xf) - ((packed >> (4 * k + 3)) & 1) * 16;
	}
}

/*
 * texture_load: per lane, the texel at integer coordinates (32-bit
 * registers; an array's layer in the low half of the next) plus its texel
 * offsets, of the level the LOD register names; the masked components,
 * packed from R.  Outside the texture, the sampler's border (Mesa binds
 * clamp-to-border, transparent black, for loads).
 */
static bool exec_texture_load(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	bool array;
	unsigned dim = u->n, first = u->coords >> 1, count = texture_coords(dim, &array),
		 have = ~0u;
	struct usc_texture_view view;
	uint32_t texel[L][4];
	bool integer[L];

	if (u->tex_kind > 1 || u->samp_kind > 1 || u->tex_compare || (u->coords & 1) ||
	    (u->mode != 0 && u->mode != 6) || dim == 6 || dim == 7)
		return texture_unsupported(u, "bindless state, compare, cubes or this LOD mode",
					   res);
	for (unsigned l = 0; l < L; l++) {
		struct usc_sample a = { 0 };
		int32_t x, y;
		uint32_t layer, v[4];
		int32_t level = u->mode == 6 ? (int16_t)reg16(s, u->lod_reg, l) : 0;
		uint64_t fault = 0;
		enum usc_texel_status st;
		unsigned sm;

		if (!((s->exec >> l) & 1))
			continue;
		compare_offset(s, u, l, &a);
		x = (int32_t)s->r[first][l] + a.offset[0];
		y = count > 1 ? (int32_t)s->r[first + 1][l] + a.offset[1] : 0;
		/* a 3D texture's slice is its third coordinate */
		layer = count > 2 ? (uint32_t)((int32_t)s->r[first + 2][l] + a.offset[2])
			: array	  ? s->r[first + count][l] & 0xffff
				  : 0;
		if (!lane_texture(s, u, l, true, &view, &have, &sm, res))
			return false;
		st = usc_texel_fetch(&view, &s->memory, x, y, layer, level, v, &fault, res->message,
				     sizeof(res->message));
		if (texel_failed(st, fault, l, false, res))
			return false;
		if (st == USC_TEXEL_BORDER)
			usc_sampler_border(s->samplers + sm * USC_SAMPLER_STATE, view.integer, v);
		memcpy(texel[l], v, sizeof(v));
		integer[l] = view.integer;
	}
	write_back_all(s, u, texel, integer);
	return true;
}

/*
 * texture_sample: float coordinates (one 32-bit register each; a cube's
 * direction; an array's layer, an integer, in the low half of the next);
 * the LOD from the quad's derivatives (auto_lod, plus an f16 bias with
 * auto_lod_bias), given gradients (lod_grad: d/dx and d/dy of each
 * coordinate) or an f16 register (lod_min); a compare value and texel
 * offsets when the instruction has them.
 */
static bool exec_texture_sample(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	bool array;
	unsigned dim = u->n, first = u->coords >> 1, count = texture_coords(dim, &array),
		 have = ~0u;
	struct usc_texture_view view;
	uint32_t texel[L][4];
	bool integer[L];

	if (u->tex_kind > 1 || u->samp_kind > 1 || (u->coords & 1) ||
	    (u->mode != 0 && u->mode != 4 && u->mode != 5 && u->mode != 6) ||
	    (u->mode == 4 && (u->lod_reg & 1)))
		return texture_unsupported(u, "bindless state or this LOD mode", res);
	for (unsigned l = 0; l < L; l++) {
		struct usc_sample a = { .grad = NULL };
		uint32_t v[4];
		float grad[6] = { 0 };
		uint64_t fault = 0;
		enum usc_texel_status st;
		unsigned sm;

		if (!((s->exec >> l) & 1))
			continue;
		for (unsigned c = 0; c < count; c++)
			a.s[c] = f32_from_bits(s->r[first + c][l]);
		if (count < 2)
			a.s[1] = 0.5f;
		a.layer = array ? s->r[first + count][l] & 0xffff : 0;
		a.lod = u->mode == 5 || u->mode == 6
			    ? fp16_to_float((uint16_t)reg16(s, u->lod_reg, l))
			    : 0;
		compare_offset(s, u, l, &a);
		if (!lane_texture(s, u, l, true, &view, &have, &sm, res))
			return false;
		if (u->mode == 4) {
			/* lod_grad: f32 d/dx, d/dy of each coordinate (Mesa agx_emit_tex) */
			for (unsigned k = 0; k < 2 * count; k++)
				grad[k] = f32_from_bits(s->r[(u->lod_reg >> 1) + k][l]);
		} else {
			/* the quad: lanes l^1 across, l^2 down (as dfdx and dfdy) */
			for (unsigned c = 0; c < count; c++) {
				const uint32_t *r = s->r[first + c];

				grad[2 * c] = f32_from_bits(r[l | 1]) - f32_from_bits(r[l & ~1u]);
				grad[2 * c + 1] =
				    f32_from_bits(r[l | 2]) - f32_from_bits(r[l & ~2u]);
			}
		}
		a.grad = u->mode == 6 ? NULL : grad;
		st = usc_texture_sample(&view, &s->memory, s->samplers + sm * USC_SAMPLER_STATE, &a,
					v, &fault, res->message, sizeof(res->message));
		if (texel_failed(st, fault, l, false, res))
			return false;
		memcpy(texel[l], v, sizeof(v));
		integer[l] = view.integer && !a.compare;
	}
	write_back_all(s, u, texel, integer);
	return true;
}

/* image_write: the four components of R to the texel at integer coordinates. */
static bool exec_image_write(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	unsigned dim = u->n, first = u->coords >> 1, count = dim <= 1 ? 1 : 2, have = ~0u;
	bool array = dim == 1 || dim == 3;
	struct usc_texture_view view;

	if (u->tex_kind > 1 || (u->coords & 1))
		return texture_unsupported(u, "bindless state", res);
	if (dim > 7) /* AGX2.xml's dimension 8, from bit 55 */
		return texture_unsupported(u, "a multisampled array", res);
	for (unsigned l = 0; l < L; l++) {
		int32_t x = (int32_t)s->r[first][l],
			y = count > 1 ? (int32_t)s->r[first + 1][l] : 0;
		uint32_t layer = array ? s->r[first + count][l] & 0xffff : 0, v[4];
		int32_t level = u->lod_imm ? u->lod_reg : (int16_t)reg16(s, u->lod_reg, l);
		uint64_t fault = 0;
		enum usc_texel_status st;
		unsigned sm;

		/* a fragment's killed lanes (discarded, failed, helpers) write nothing */
		if (!((s->exec >> l) & 1) || (s->fragment && ((s->fragment->killed >> l) & 1)))
			continue;
		if (!lane_texture(s, u, l, false, &view, &have, &sm, res))
			return false;
		for (unsigned k = 0; k < 4; k++)
			v[k] = tuple_get(s, &u->tuple, k, l);
		st = usc_texel_store(&view, &s->memory, x, y, layer, level, v, u->tuple.bits == 16,
				     &fault, res->message, sizeof(res->message));
		if (texel_failed(st, fault, l, true, res))
			return false;
	}
	return true;
}

/* --- graphics: vertex outputs, varyings, the tile ---------------------------------- */

static bool graphics_only(const struct uop *u, const char *stage, struct usc_result *res)
{
	snprintf(res->message, sizeof(res->message), "%s outside a %s shader", u->desc->name,
		 stage);
	res->status = USC_BAD_INSTR;
	return false;
}

/* st_var: one 32-bit value to an output slot of each lane's vertex. */
static bool exec_st_var(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	struct usc_vertex_io *vx = s->vertex;
	uint64_t slot[L];

	if (!vx)
		return graphics_only(u, "vertex", res);
	read_int(s, &u->a, slot);
	for (unsigned l = 0; l < L; l++) {
		if (!((s->exec >> l) & 1))
			continue;
		if (slot[l] >= vx->slots) {
			snprintf(res->message, sizeof(res->message),
				 "st_var to slot %llu of a vertex with %u (lane %u)",
				 (unsigned long long)slot[l], vx->slots, l);
			res->status = USC_BAD_INSTR;
			return false;
		}
		vx->outputs[l * vx->slots + slot[l]] = s->r[u->d.index][l];
	}
	return true;
}

/* A lane's position for the coefficients: from its 32x32 block's corner, at the pixel centre. */
/* Where lane l interpolates: its pixel's centre, or its centroid (iter's centroid bit). */
static void lane_position(const struct usc_fragment_io *f, unsigned l, bool centroid, float *x,
			  float *y)
{
	*x = (float)((f->x0 + f->px[l]) & 31) + (centroid ? f->centroid[l][0] / 16.0f : 0.5f);
	*y = (float)((f->y0 + f->py[l]) & 31) + (centroid ? f->centroid[l][1] / 16.0f : 0.5f);
}

static bool cf_bound(const struct usc_fragment_io *f, unsigned cf, struct usc_result *res)
{
	if (cf < f->num_cf)
		return true;
	snprintf(res->message, sizeof(res->message), "coefficient register cf%u of %u set up", cf,
		 f->num_cf);
	res->status = USC_BAD_INSTR;
	return false;
}

/*
 * iter: each component's plane A * x + B * y + C at the lane's pixel
 * centre; with perspective, divided by the plane of cfJ (1/w's, so the
 * result is perspective-correct).  ldcf: the raw A, B, C.
 */
static bool exec_varying(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	const struct usc_fragment_io *f = s->fragment;
	bool ldcf = u->op == AGX_OP_LDCF;
	unsigned count = ldcf ? u->n / 3 : u->n;

	if (!f)
		return graphics_only(u, "fragment", res);
	/* one sample per pixel: sample 0 is the centre, another is not simulated */
	if (!ldcf && (u->sample_index || (u->sample && u->centroid))) {
		snprintf(res->message, sizeof(res->message),
			 "iter at 0x%x with a sample index (q0 %u%s) is not simulated", u->offset,
			 u->sample_index, u->sample && u->centroid ? ", a register" : "");
		res->status = USC_BAD_INSTR;
		return false;
	}
	for (unsigned k = 0; k < count; k++)
		if (!cf_bound(f, u->cf + k, res))
			return false;
	if (!ldcf && u->persp && !cf_bound(f, u->cf_persp, res))
		return false;
	for (unsigned l = 0; l < L; l++) {
		float x, y;

		if (!((s->exec >> l) & 1))
			continue;
		lane_position(f, l, u->centroid, &x, &y);
		for (unsigned k = 0; k < count; k++) {
			const float *c = f->cf[u->cf + k];

			if (ldcf) {
				for (unsigned i = 0; i < 3; i++)
					tuple_set(s, &u->tuple, 3 * k + i, l,
						  float_bits_for(c[i], u->tuple.bits));
				continue;
			}
			double v = (double)c[0] * x + (double)c[1] * y + c[2];

			if (u->persp) {
				const float *w = f->cf[u->cf_persp];

				v /= (double)w[0] * x + (double)w[1] * y + w[2];
			}
			tuple_set(s, &u->tuple, k, l, float_bits_for(v, u->tuple.bits));
		}
	}
	return true;
}

/* --- pixel order (usc.h, struct usc_pixel_order) ---------------------------------------- */

/*
 * The fence bits a use needs: those Mesa's compiler waits on before it
 * (agx_compile.c: 0x1 before a late depth/stencil test, 0x8 before
 * ld_tile, 0xc before st_tile).  What each bit orders on the hardware is
 * not public.
 */
#define FENCES_ZS	  0x1u
#define FENCES_TILE_READ  0x8u
#define FENCES_TILE_WRITE 0xcu

/* Of lanes, those that waited on every fence of bits (waited), and not signalled one since. */
static uint32_t fenced(const struct usc_pixel_order *o, uint32_t lanes, unsigned bits, bool waited)
{
	for (unsigned b = 0; b < USC_PIXEL_FENCES; b++)
		if ((bits >> b) & 1)
			lanes &= o->waited[b] & (waited ? ~0u : ~o->signalled[b]);
	return lanes;
}

/*
 * lanes use resource r, which needs the fence bits: a lane whose pixel an
 * earlier fragment used it on must have waited on them and not signalled
 * one since, or on the hardware it might get there first.  False, with
 * USC_ORDER, when one has not.
 */
static bool pixel_use(struct usc_state *s, const struct uop *u, uint32_t lanes,
		      enum usc_pixel_resource r, unsigned bits, struct usc_result *res)
{
	static const char *const what[USC_PIXEL_RESOURCES] = { "tilebuffer", "depth and stencil" };
	struct usc_fragment_io *f = s->fragment;
	struct usc_pixel_order *o = f->order;
	uint32_t bad;
	unsigned l;

	if (!o || !lanes)
		return true;
	o->used[r] |= lanes;
	bad = lanes & o->earlier[r] & ~fenced(o, lanes, bits, false);
	if (!bad)
		return true;
	l = (unsigned)__builtin_ctz(bad);
	snprintf(res->message, sizeof(res->message),
		 "%s %s 0x%x at pixel (%u, %u): an earlier fragment may still use its %s",
		 u->desc->name,
		 fenced(o, bad, bits, true) >> l & 1 ? "after signal_pix" : "without wait_pix",
		 bits, f->x0 + f->px[l], f->y0 + f->py[l], what[r]);
	res->status = USC_ORDER;
	return false;
}

/*
 * wait_pix / signal_pix: the executing lanes wait on, or release, the
 * fences of the mask.  Every earlier fragment has ended by the time one
 * runs here, so a wait goes on at once; the fences only record what the
 * lane is allowed to use (pixel_use).
 */
static bool exec_pixel_fence(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	struct usc_pixel_order *o;

	if (!s->fragment)
		return graphics_only(u, "fragment", res);
	o = s->fragment->order;
	for (unsigned b = 0; o && b < USC_PIXEL_FENCES; b++)
		if ((u->memmask >> b) & 1) {
			if (u->op == AGX_OP_WAIT_PIX)
				o->waited[b] |= s->exec;
			else
				o->signalled[b] |= s->exec;
		}
	return true;
}

/* Lanes sent to the depth/stencil test: those that fail are killed, the others tested. */
static void test_lanes(struct usc_fragment_io *f, uint32_t lanes, const float *depth,
		       const uint32_t *stencil)
{
	uint32_t passed = lanes && f->zs_test ? f->zs_test(f, lanes, depth, stencil) : lanes;

	f->killed |= lanes & ~passed;
	f->tested |= lanes & passed;
}

/*
 * sample_mask: the samples of target killed where live does not name them,
 * and the rest tested; a lane with no sample left is killed.  A killed or
 * tested lane stays so (Mesa agx_nir_lower_sample_mask.c).
 */
static bool exec_sample_mask(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	struct usc_fragment_io *f = s->fragment;
	uint64_t target[L], live[L];
	uint32_t test = 0;

	if (!f)
		return graphics_only(u, "fragment", res);
	read_int(s, &u->a, target);
	read_int(s, &u->b, live);
	for (unsigned l = 0; l < L; l++) {
		uint32_t bit = 1u << l;
		uint8_t t = (uint8_t)target[l] & f->cover[l];

		if (!((s->exec >> l) & 1) || !t || ((f->killed | f->tested) & bit))
			continue;
		f->cover[l] &= (uint8_t) ~(t & ~live[l]);
		if (!f->cover[l])
			f->killed |= bit;
		else if (t & live[l])
			test |= bit;
	}
	/* killing alone needs no order: only the lanes it tests */
	if (!pixel_use(s, u, test, USC_PIXEL_ZS, FENCES_ZS, res))
		return false;
	test_lanes(f, test, NULL, NULL);
	return true;
}

/* zs_emit: the shader's depth and/or stencil, tested now for the lanes of the mask. */
static bool exec_zs_emit(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	struct usc_fragment_io *f = s->fragment;
	uint64_t mask[L];
	float depth[L];
	uint32_t stencil[L], test = 0;
	unsigned half = u->tuple.index;

	if (!f)
		return graphics_only(u, "fragment", res);
	read_int(s, &u->a, mask);
	for (unsigned l = 0; l < L; l++) {
		if (!((s->exec >> l) & 1) || !(mask[l] & f->cover[l]) ||
		    (((f->killed | f->tested) >> l) & 1))
			continue;
		test |= 1u << l;
		/* 1: a depth in r(half / 2); 2: a stencil in the half; 3: both, stencil after */
		depth[l] = u->mode & 1 ? f32_from_bits(s->r[half >> 1][l]) : 0;
		stencil[l] = u->mode == 2   ? reg16(s, half, l)
			     : u->mode == 3 ? reg16(s, half + 2, l)
					    : 0;
	}
	if (!pixel_use(s, u, test, USC_PIXEL_ZS, FENCES_ZS, res))
		return false;
	test_lanes(f, test, u->mode & 1 ? depth : NULL, u->mode & 2 ? stencil : NULL);
	return true;
}

static bool packed_format(unsigned f)
{
	return f == 8 || (f >= 12 && f <= 15);
}

static bool tile_fault(struct usc_result *res, const char *what, unsigned at, unsigned size)
{
	snprintf(res->message, sizeof(res->message),
		 "%s at byte %u of a pixel's %u tilebuffer bytes", what, at, size);
	res->status = USC_BAD_INSTR;
	return false;
}

/* One lane's st_tile / ld_tile of one sample's items at pixel. */
static void tile_item(struct usc_state *s, const struct uop *u, unsigned l, uint8_t *pixel,
		      bool store, bool packed, unsigned size)
{
	if (packed) {
		double c[4] = { 0 };
		uint32_t word;

		if (store) {
			for (unsigned n = 0; n < (u->format == 8 ? 4u : 3u); n++) {
				uint32_t reg = tuple_get(s, &u->tuple, n, l);

				c[n] = u->tuple.bits == 16 ? fp16_to_float((uint16_t)reg)
							   : f32_from_bits(reg);
			}
			word = pack_word(u->format, c);
			memcpy(pixel, &word, 4);
			return;
		}
		memcpy(&word, pixel, 4);
		for (unsigned n = 0; n < 4; n++)
			if (packed_component(u->format, word, n, &c[n]))
				tuple_set(s, &u->tuple, n, l, float_bits_for(c[n], u->tuple.bits));
		return;
	}
	for (unsigned i = 0, k = 0; i < 4; i++) {
		if (!((u->memmask >> i) & 1))
			continue;
		if (store)
			item_write(
			    pixel + i * size,
			    store_value(u->format, tuple_get(s, &u->tuple, k, l), u->tuple.bits, i),
			    size);
		else
			tuple_set(s, &u->tuple, k, l,
				  load_value(u->format, item_read(pixel + i * size, size),
					     u->tuple.bits, i));
		k++;
	}
}

/* ld_tile / st_tile: the lane's own pixel, items of format F at byte offset O. */
static bool exec_tile(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	struct usc_fragment_io *f = s->fragment;
	bool store = u->op == AGX_OP_ST_TILE, packed = packed_format(u->format);
	unsigned size = packed ? 4 : format_size(u->format), offset = (unsigned)u->index.imm;
	unsigned extent = packed ? 4 : size * (32 - (unsigned)__builtin_clz(u->memmask | 1));
	uint64_t samples[L];
	unsigned want[L];
	uint32_t lanes = 0;

	if (!f)
		return graphics_only(u, "fragment", res);
	if (u->coords)
		return texture_unsupported(u, "explicit tile coordinates", res);
	if (u->format == 9 || u->format == 11 || (packed && !store && u->format > 13))
		return texture_unsupported(u, "this format", res);
	if (offset + extent > f->sample_size)
		return tile_fault(res, store ? "st_tile" : "ld_tile", offset + extent,
				  f->sample_size);
	read_int(s, &u->b, samples);
	for (unsigned l = 0; l < L; l++) {
		/* a store writes the lane's live samples of the mask; a load reads its lowest */
		want[l] =
		    (unsigned)samples[l] & ((1u << f->samples) - 1) & (store ? f->cover[l] : 0xffu);
		if (!((s->exec >> l) & 1) || (store && ((f->killed >> l) & 1)))
			want[l] = 0;
		if (!store)
			want[l] &= -want[l];
		lanes |= (uint32_t)(want[l] != 0) << l;
	}
	if (!pixel_use(s, u, lanes, USC_PIXEL_COLOUR, store ? FENCES_TILE_WRITE : FENCES_TILE_READ,
		       res))
		return false;
	for (unsigned l = 0; l < L; l++) {
		uint8_t *first =
		    f->tile +
		    ((size_t)f->py[l] * f->width + f->px[l]) * f->samples * f->sample_size + offset;

		for (unsigned k = 0; k < f->samples; k++)
			if ((want[l] >> k) & 1)
				tile_item(s, u, l, first + k * f->sample_size, store, packed, size);
	}
	return true;
}

/*
 * imgwblk: the whole tile, each pixel's items of format F at the byte
 * offset in R, written through the PBE descriptor in ts T to its image at
 * the tile's place.  It acts once for the SIMD group, with the first
 * executing lane's operands.
 */
static bool exec_block_store(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	const struct usc_fragment_io *f = s->fragment;
	struct usc_texture_view view;
	uint64_t offsets[L];
	unsigned level, offset, l0, sw[4], sx, sy;
	bool packed = packed_format(u->format), raw;
	unsigned size = packed ? 4 : format_size(u->format);
	struct agx_cmd_pbe pbe = { 0 };

	if (!f)
		return graphics_only(u, "end-of-tile", res);
	if (!s->exec)
		return true;
	if (u->explicit_coords || u->tex_kind || !u->lod_imm || u->lod_reg)
		return texture_unsupported(u, "explicit coordinates, bindless state or a level",
					   res);
	if (u->tex >= s->num_textures) {
		snprintf(res->message, sizeof(res->message), "PBE state ts%u is not bound", u->tex);
		res->status = USC_BAD_INSTR;
		return false;
	}
	if (usc_pbe_view_init(&view, s->textures + u->tex * USC_TEXTURE_STATE, u->n, &level,
			      res->message, sizeof(res->message)) != USC_TEXEL_OK) {
		res->status = USC_BAD_INSTR;
		return false;
	}
	agx_cmd_pbe_unpack(s->textures + u->tex * USC_TEXTURE_STATE, &pbe);
	sw[0] = (unsigned)pbe.swizzle_r;
	sw[1] = (unsigned)pbe.swizzle_g;
	sw[2] = (unsigned)pbe.swizzle_b;
	sw[3] = (unsigned)pbe.swizzle_a;
	read_int(s, &u->a, offsets);
	l0 = (unsigned)__builtin_ctz(s->exec);
	offset = (unsigned)offsets[l0] & 0xffff;
	if (offset + (packed ? 4 : size * view.ch.count) > f->sample_size)
		return tile_fault(res, "imgwblk", offset + size * view.ch.count, f->sample_size);
	/* u8norm items into 8-bit unorm channels in their order are the same bytes */
	raw = u->format == 4 && view.t.type == AGX_CMD_TEXTURE_TYPE_UNORM && !view.t.srgb &&
	      view.ch.bytes == view.ch.count;
	for (unsigned c = 0; c < view.ch.count; c++)
		raw &= view.ch.bits[c] == 8 && sw[c] == c;
	if (view.samples != f->samples) {
		snprintf(res->message, sizeof(res->message),
			 "PBE image of %u samples for a tile of %u", view.samples, f->samples);
		res->status = USC_BAD_INSTR;
		return false;
	}
	usc_sample_grid(f->samples, &sx, &sy);
	/* a row of the image's sample grid at a time (usc_sample_grid()) */
	for (unsigned y = 0; y < f->height * sy; y++) {
		uint8_t row[64 * 16];
		uint64_t fault = 0;
		enum usc_texel_status st;

		for (unsigned e = 0; e < f->width * sx; e++) {
			unsigned k = (y % sy) * sx + e % sx;
			const uint8_t *pixel =
			    f->tile +
			    (((size_t)(y / sy) * f->width + e / sx) * f->samples + k) *
				f->sample_size +
			    offset;
			uint32_t in[4] = { 0 }, out[4];

			if (raw) {
				memcpy(row + e * view.ch.bytes, pixel, view.ch.bytes);
				continue;
			}
			if (packed) {
				uint32_t word;

				memcpy(&word, pixel, 4);
				for (unsigned n = 0; n < 4; n++) {
					double c;

					if (packed_component(u->format, word, n, &c))
						in[n] = f32_bits((float)c);
				}
			} else {
				for (unsigned n = 0; n < view.ch.count; n++)
					in[n] = (uint32_t)load_value(
					    u->format, item_read(pixel + n * size, size), 32, n);
			}
			for (unsigned c = 0; c < 4; c++)
				out[c] = in[sw[c]];
			if (usc_texel_encode(&view, out, false, row + e * view.ch.bytes,
					     res->message, sizeof(res->message)) != USC_TEXEL_OK) {
				res->status = USC_BAD_INSTR;
				return false;
			}
		}
		st = usc_texel_write(&view, &s->memory, (int32_t)(f->x0 * sx),
				     (int32_t)(f->y0 * sy + y), 0, (int32_t)level, f->width * sx,
				     row, &fault);
		if (texel_failed(st, fault, l0, true, res))
			return false;
	}
	return true;
}

enum space { DEVICE, THREADGROUP, STACK };

/* One lane's stack access: items at byte offset `bytes` of its stack. */
static bool exec_stack(struct usc_state *s, const struct uop *u, unsigned l, int64_t bytes,
		       unsigned size, bool store, struct usc_result *res)
{
	uint8_t *lane = s->stack ? s->stack + (size_t)l * s->stack_size : NULL;
	unsigned k = 0;

	for (unsigned i = 0; i < 4; i++) {
		int64_t at = bytes + (int64_t)i * size;

		if (!((u->memmask >> i) & 1))
			continue;
		if (!lane || at < 0 || (uint64_t)at + size > s->stack_size) {
			res->status = USC_FAULT;
			res->fault_address = (uint64_t)at;
			res->fault_write = store;
			snprintf(res->message, sizeof(res->message),
				 "stack access at %lld outside the lane's %zu bytes (lane %u)",
				 (long long)at, s->stack_size, l);
			return false;
		}
		if (store)
			item_write(
			    lane + at,
			    store_value(u->format, tuple_get(s, &u->tuple, k, l), u->tuple.bits, i),
			    size);
		else
			tuple_set(
			    s, &u->tuple, k, l,
			    load_value(u->format, item_read(lane + at, size), u->tuple.bits, i));
		k++;
	}
	return true;
}

static bool exec_memory(struct usc_state *s, const struct uop *u, struct usc_result *res)
{
	enum space space = u->op == AGX_OP_DEVICE_LOAD || u->op == AGX_OP_DEVICE_STORE ? DEVICE
			   : u->op == AGX_OP_STACK_LOAD || u->op == AGX_OP_STACK_STORE
			       ? STACK
			       : THREADGROUP;
	bool device = space == DEVICE;
	bool store = u->op == AGX_OP_DEVICE_STORE || u->op == AGX_OP_THREADGROUP_STORE ||
		     u->op == AGX_OP_STACK_STORE;
	unsigned size = format_size(u->format), shift = u->shift == 3 ? 2 : u->shift;
	uint64_t base[L], index[L];

	if (u->format == 9 || u->format == 11 || (!store && u->format > 13) ||
	    (space == STACK && u->format >= 8)) {
		snprintf(res->message, sizeof(res->message),
			 "memory format %u %s is not simulated yet", u->format,
			 store ? "stores" : "loads");
		res->status = USC_BAD_INSTR;
		return false;
	}
	if (store && u->format >= 8 && u->format != 10)
		return store_packed(s, u, res);
	if (u->format == 8 || u->format == 12 || u->format == 13)
		return load_packed(s, u, res);
	if (u->format == 2 && u->tuple.bits == 16) {
		snprintf(res->message, sizeof(res->message), "i32 to 16-bit registers is illegal");
		res->status = USC_BAD_INSTR;
		return false;
	}
	read_int(s, &u->base, base);
	read_int(s, &u->index, index);
	for (unsigned l = 0; l < L; l++) {
		int64_t off;
		uint64_t addr;
		unsigned k = 0;

		if (!((s->exec >> l) & 1))
			continue;
		if (device) {
			/* applegpu: offset scaled by the item size and the extra shift */
			off = u->index.kind == SRC_IMM ? (int16_t)index[l]
			      : u->index_unsigned      ? (int64_t)(uint32_t)index[l]
						       : (int64_t)(int32_t)index[l];
			off <<= shift;
			addr = base[l] & ~(uint64_t)(size - 1);
		} else if (space == STACK) {
			/* the lane's own stack, a byte offset (Mesa agx_spill.c) */
			int64_t bytes = u->index.kind == SRC_IMM ? (int16_t)index[l]
					: u->index_unsigned	 ? (int64_t)(uint32_t)index[l]
								 : (int64_t)(int32_t)index[l];

			if (!exec_stack(s, u, l, bytes, size, store, res))
				return false;
			continue;
		} else {
			/* threadgroup memory: base and offset count items */
			off = (int64_t)(uint16_t)base[l] + (u->index.kind == SRC_IMM
								? (int16_t)index[l]
								: (int64_t)(uint16_t)index[l]);
			addr = 0;
		}
		/* the four items' span, straight in host memory where the device allows */
		uint8_t *host =
		    device && s->memory.translate
			? s->memory.translate(s->memory.ctx, addr + (uint64_t)off * size, 4 * size,
					      store)
			: NULL;

		for (unsigned i = 0; i < 4; i++) {
			uint64_t at = addr + (uint64_t)(off + i) * size;
			uint32_t item = 0;
			bool ok;

			if (!((u->memmask >> i) & 1))
				continue;
			if (host) {
				ok = true;
				if (store) {
					item = store_value(u->format, tuple_get(s, &u->tuple, k, l),
							   u->tuple.bits, i);
					item_write(host + i * size, item, size);
				} else {
					item = item_read(host + i * size, size);
					tuple_set(s, &u->tuple, k, l,
						  load_value(u->format, item, u->tuple.bits, i));
				}
			} else if (store) {
				item = store_value(u->format, tuple_get(s, &u->tuple, k, l),
						   u->tuple.bits, i);
				if (device)
					ok = s->memory.write &&
					     s->memory.write(s->memory.ctx, at, &item, size);
				else if ((ok = at + size <= s->threadgroup_memory_size))
					memcpy(s->threadgroup_memory + at, &item, size);
			} else {
				if (device)
					ok = s->memory.read &&
					     s->memory.read(s->memory.ctx, at, &item, size);
				else if ((ok = at + size <= s->threadgroup_memory_size))
					memcpy(&item, s->threadgroup_memory + at, size);
				if (ok)
					tuple_set(s, &u->tuple, k, l,
						  load_value(u->format, item, u->tuple.bits, i));
			}
			if (!ok) {
				res->status = USC_FAULT;
				res->fault_address = at;
				res->fault_write = store;
				snprintf(res->message, sizeof(res->message),
					 "%s fault at 0x%llx (lane %u)",
					 device ? "device" : "threadgroup", (unsigned long long)at,
					 l);
				return false;
			}
			k++;
		}
	}
	return true;
}

/* --- calls ----------------------------------------------------------------------- */

/*
 * call rN: as call, the address of the next instruction into r1 of the
 * executing lanes, then to the address rN holds.  applegpu
 * (CallRegInstructionDesc) has Apple's compiler loop around it, as if the
 * hardware took the lanes of one target at a time; how it picks them is
 * not public, so lanes that disagree stop the run.  Without an executing
 * lane there is no target and nothing happens, as for ret.
 */
static bool exec_call_register(const struct usc_program *p, struct usc_state *s,
			       const struct uop *u, struct usc_result *res, unsigned *next)
{
	uint32_t to;
	int target;

	if (!s->exec)
		return true;
	to = s->r[u->d.index][__builtin_ctz(s->exec)];
	for (unsigned l = 0; l < L; l++) {
		if (((s->exec >> l) & 1) && s->r[u->d.index][l] != to) {
			res->status = USC_BAD_INSTR;
			snprintf(res->message, sizeof(res->message),
				 "call at 0x%x: lanes call different addresses (0x%x, 0x%x); "
				 "how the hardware splits them is not public",
				 u->offset, to, s->r[u->d.index][l]);
			return false;
		}
	}
	target = uop_at(p, to);
	if (target < 0) {
		res->status = USC_BAD_BRANCH;
		snprintf(res->message, sizeof(res->message),
			 "call at 0x%x to 0x%x, not an instruction", u->offset, to);
		return false;
	}
	/* the target was read first: "call r1" goes where r1 said */
	for (unsigned l = 0; l < L; l++)
		if ((s->exec >> l) & 1)
			s->r[1][l] = u->offset + u->size;
	*next = (unsigned)target;
	return true;
}

/* --- the loop ------------------------------------------------------------------------ */

/*
 * Built twice, for x86-64-v3 (AVX2, FMA) and for the baseline, and chosen
 * when the program loads: the lane loops inlined here are where the time
 * goes.  (clang builds, used for sanitizers and fuzzing, take one build.)
 */
#if defined(__x86_64__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
struct usc_result
usc_run(const struct usc_program *p, struct usc_state *s, uint64_t max)
{
	struct usc_result res = { .status = USC_DONE };
	unsigned i = s->resume;

	s->resume = 0;
	update_exec(s);
	while (i < p->count) {
		const struct uop *u = &p->uops[i];
		unsigned next = i + 1;

		res.pc = u->offset;
		if (res.instructions >= max) {
			res.status = USC_LIMIT;
			s->resume = i;
			return res;
		}
		res.instructions++;
		if (!u->desc) {
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message), "unknown instruction at 0x%x",
				 u->offset);
			return res;
		}
		if (u->opt_name) {
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x with %s=0x%x: not simulated (what the field does is "
				 "not public)",
				 u->desc->name, u->offset, u->opt_name, u->opt_value);
			return res;
		}
		switch (u->op) {
		case AGX_OP_MOV_IMM:
		case AGX_OP_MOV_IMM_1: {
			uint64_t v[L];

			read_int(s, &u->a, v);
			write_int(s, &u->d, v);
			break;
		}
		case AGX_OP_GET_SR: {
			uint64_t v[L];

			if (!special_register(s, u->sr, v)) {
				res.status = USC_BAD_INSTR;
				snprintf(res.message, sizeof(res.message),
					 "special register sr%u is not simulated", u->sr);
				return res;
			}
			write_int(s, &u->d, v);
			break;
		}
		case AGX_OP_IADD:
			exec_iadd(s, u, false);
			break;
		case AGX_OP_IMADD:
			exec_iadd(s, u, true);
			break;
		case AGX_OP_BFI:
		case AGX_OP_BFEIL:
		case AGX_OP_EXTR:
		case AGX_OP_SHLHI:
		case AGX_OP_SHRHI:
		case AGX_OP_ASR:
		case AGX_OP_ASRH:
			exec_bitfield(s, u);
			break;
		case AGX_OP_BITOP:
			exec_bitop(s, u);
			break;
		case AGX_OP_BITREV:
		case AGX_OP_POPCOUNT:
		case AGX_OP_FFS:
			exec_iunary(s, u);
			break;
		case AGX_OP_CONVERT:
			exec_convert(s, u);
			break;
		case AGX_OP_FMADD:
		case AGX_OP_FMADD16:
		case AGX_OP_FADD:
		case AGX_OP_FADD16:
		case AGX_OP_FMUL:
		case AGX_OP_FMUL16:
			exec_falu(s, u);
			break;
		case AGX_OP_ICMPSEL:
		case AGX_OP_FCMPSEL:
			exec_select(s, u);
			break;
		case AGX_OP_POP_EXEC:
		case AGX_OP_IF_ICMP:
		case AGX_OP_ELSE_ICMP:
		case AGX_OP_WHILE_ICMP:
		case AGX_OP_IF_FCMP:
		case AGX_OP_ELSE_FCMP:
		case AGX_OP_WHILE_FCMP:
			exec_mask_op(s, u);
			break;
		case AGX_OP_STOP:
			return res;
		case AGX_OP_TRAP:
			res.status = USC_TRAP;
			snprintf(res.message, sizeof(res.message), "trap at 0x%x", u->offset);
			return res;
		case AGX_OP_JMP_EXEC_ANY:
		case AGX_OP_JMP_EXEC_NONE:
			if ((u->op == AGX_OP_JMP_EXEC_ANY) == (s->exec != 0)) {
				if (u->target < 0) {
					res.status = USC_BAD_BRANCH;
					snprintf(res.message, sizeof(res.message),
						 "branch at 0x%x leaves the program", u->offset);
					return res;
				}
				next = (unsigned)u->target;
			}
			break;
		case AGX_OP_CALL:
			/* applegpu: r1 holds the return address (the next instruction) */
			if (u->target < 0) {
				res.status = USC_BAD_BRANCH;
				snprintf(res.message, sizeof(res.message),
					 "call at 0x%x leaves the program", u->offset);
				return res;
			}
			for (unsigned l = 0; l < L; l++)
				if ((s->exec >> l) & 1)
					s->r[1][l] = u->offset + u->size;
			next = (unsigned)u->target;
			break;
		case AGX_OP_RET: {
			/* to the address in the register, as the first executing lane has it */
			uint32_t to = s->exec ? s->r[u->d.index][__builtin_ctz(s->exec)] : 0;
			int target = s->exec ? uop_at(p, to) : -1;

			if (!s->exec)
				break;
			if (target < 0) {
				res.status = USC_BAD_BRANCH;
				snprintf(res.message, sizeof(res.message),
					 "ret at 0x%x to 0x%x, not an instruction", u->offset, to);
				return res;
			}
			next = (unsigned)target;
			break;
		}
		case AGX_OP_CALL_1:
			if (!exec_call_register(p, s, u, &res, &next))
				return res;
			break;
		case AGX_OP_JMP_INCOMPLETE:
			/* applegpu and AGX2.xml name it and its offset, nothing more */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "jmp_incomplete at 0x%x: not simulated (when it jumps is not "
				 "public)",
				 u->offset);
			return res;
		case AGX_OP_WAIT: /* loads complete at issue here */
			break;
		case AGX_OP_MEMORY_BARRIER:
		case AGX_OP_MEMORY_BARRIER_2:
		case AGX_OP_MEMORY_BARRIER_3:
		case AGX_OP_DEVICE_BARRIER_1:
		case AGX_OP_DEVICE_BARRIER_2:
		case AGX_OP_IMAGE_BARRIER_1:
		case AGX_OP_IMAGE_BARRIER_2:
		case AGX_OP_IMAGE_BARRIER_3:
		case AGX_OP_IMAGE_BARRIER_4:
		case AGX_OP_FLUSH_MEMORY_TO_TEXTURE:
		case AGX_OP_UNKNOWN_BARRIER_1:
		case AGX_OP_UNKNOWN_BARRIER_2:
			/*
			 * Every access reaches memory when it is issued, in program
			 * order, with no cache in between (textures read the same
			 * memory): all that is left to order is the host's reordering
			 * against the other cores' threads.
			 */
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			break;
		case AGX_OP_DOORBELL:
		case AGX_OP_JMP_IF_SKIPPING_DOORBELL:
			/* nothing public says who hears it or when it is skipped */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: doorbells are not simulated (their receiver is "
				 "not public)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_ASYNC_LOAD:
		case AGX_OP_ASYNC_STORE:
			/* applegpu leaves what A's registers hold open */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: async copies are not simulated (their operands' "
				 "layout is not public)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_STACK_ADJUST:
		case AGX_OP_STACK_ADJUST_1:
		case AGX_OP_STACK_GET_PTR:
		case AGX_OP_STACK_MAP:
		case AGX_OP_STACK_UNMAP:
			/*
			 * What the stack pointer counts in, what stack_get_ptr
			 * returns and what mapping does are not public, and our
			 * stack_load/store address each lane's stack from its start.
			 */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (its effect on the stack is not "
				 "public)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_SIMD_SHUFFLE_ROTATE:
		case AGX_OP_SIMD_SHUFFLE_ROTATE_XOR:
		case AGX_OP_SIMD_SHUFFLE_ROTATE_DOWN:
		case AGX_OP_QUAD_SHUFFLE_ROTATE:
		case AGX_OP_QUAD_SHUFFLE_ROTATE_XOR:
		case AGX_OP_QUAD_SHUFFLE_ROTATE_DOWN:
			/* AGX2.xml allows the rotate bit here; nobody says what it does */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (the rotating form of this "
				 "shuffle has no public semantics)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_AFTER_SAMPLING1:
		case AGX_OP_AFTER_SAMPLING2:
		case AGX_OP_UNK30C0:
		case AGX_OP_UNK40C0:
		case AGX_OP_UNKC0000000:
		case AGX_OP_UNK51:
		case AGX_OP_UNKE800:
		case AGX_OP_UNK0C00:
		case AGX_OP_UNKB1:
		case AGX_OP_UNK75:
			/* applegpu.py lists these as TODO.* encodings, nothing more */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (a placeholder: applegpu knows its "
				 "encoding, not what it does)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_SR_THING:
		case AGX_OP_POP_EXEC2:
		case AGX_OP_UNKF59:
			/* a known instruction's layout with a bit nobody has explained */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (what its extra bits change is not "
				 "public)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_UNIFORM_STORE_UNK:
			/* Mesa agx_pack.c: only the 16-bit uniform_store works */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (only uniform_store's 16-bit form "
				 "has a known effect)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_TEX_STATE_STORE:
		case AGX_OP_SAMPLER_STATE_STORE:
			/* AGX2.xml gives the fields, not what the index counts or reads */
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message),
				 "%s at 0x%x: not simulated (the unit of its index and the "
				 "state it reads are not public)",
				 u->desc->name, u->offset);
			return res;
		case AGX_OP_THREADGROUP_BARRIER:
			if (s->yield_at_barrier) {
				res.status = USC_BARRIER;
				s->resume = next;
				return res;
			}
			break; /* the only SIMD group of its threadgroup */
		case AGX_OP_ICMP_BALLOT:
		case AGX_OP_ICMP_QUAD_BALLOT:
		case AGX_OP_FCMP_BALLOT:
		case AGX_OP_FCMP_QUAD_BALLOT:
			exec_ballot(s, u);
			break;
		case AGX_OP_SIMD_SHUFFLE:
		case AGX_OP_SIMD_SHUFFLE_XOR:
		case AGX_OP_SIMD_SHUFFLE_UP:
		case AGX_OP_SIMD_SHUFFLE_DOWN:
		case AGX_OP_QUAD_SHUFFLE:
		case AGX_OP_QUAD_SHUFFLE_XOR:
		case AGX_OP_QUAD_SHUFFLE_UP:
		case AGX_OP_QUAD_SHUFFLE_DOWN:
		case AGX_OP_QUAD_SHUFFLE_ROTATE_UP:
		case AGX_OP_SIMD_SHUFFLE_ROTATE_UP:
			exec_shuffle(s, u);
			break;
		case AGX_OP_INTL:
			exec_intl(s, u);
			break;
		case AGX_OP_SIMD_MATRIX_FMADD16:
		case AGX_OP_SIMD_MATRIX_FMADD32:
			if (!exec_matrix(s, u, &res))
				return res;
			break;
		case AGX_OP_SIMD_OP:
			exec_simd_op(s, u);
			break;
		case AGX_OP_DEVICE_LOAD:
		case AGX_OP_DEVICE_STORE:
		case AGX_OP_THREADGROUP_LOAD:
		case AGX_OP_THREADGROUP_STORE:
		case AGX_OP_STACK_LOAD:
		case AGX_OP_STACK_STORE:
			if (!exec_memory(s, u, &res))
				return res;
			break;
		case AGX_OP_UNIFORM_STORE:
			exec_uniform_store(s, u);
			break;
		case AGX_OP_TEXTURE_LOAD:
			if (!exec_texture_load(s, u, &res))
				return res;
			break;
		case AGX_OP_TEXTURE_SAMPLE:
			if (!exec_texture_sample(s, u, &res))
				return res;
			break;
		case AGX_OP_IMAGE_WRITE:
			if (!exec_image_write(s, u, &res))
				return res;
			break;
		case AGX_OP_ATOMIC:
		case AGX_OP_THREADGROUP_ATOMIC:
			if (!exec_atomic(s, u, &res))
				return res;
			break;
		case AGX_OP_ST_VAR:
			if (!exec_st_var(s, u, &res))
				return res;
			break;
		case AGX_OP_NO_VAR:
			if (!s->vertex && !graphics_only(u, "vertex", &res))
				return res;
			break;
		case AGX_OP_ITER:
		case AGX_OP_LDCF:
			if (!exec_varying(s, u, &res))
				return res;
			break;
		case AGX_OP_SAMPLE_MASK:
			if (!exec_sample_mask(s, u, &res))
				return res;
			break;
		case AGX_OP_ZS_EMIT:
			if (!exec_zs_emit(s, u, &res))
				return res;
			break;
		case AGX_OP_ST_TILE:
		case AGX_OP_LD_TILE:
			if (!exec_tile(s, u, &res))
				return res;
			break;
		case AGX_OP_IMGWBLK:
			if (!exec_block_store(s, u, &res))
				return res;
			break;
		case AGX_OP_WAIT_PIX:
		case AGX_OP_SIGNAL_PIX:
			if (!exec_pixel_fence(s, u, &res))
				return res;
			break;
		default:
			if (u->desc->cls == AGX_CLASS_FUNARY) {
				exec_funary(s, u);
				break;
			}
			res.status = USC_BAD_INSTR;
			snprintf(res.message, sizeof(res.message), "%s is not simulated",
				 u->desc->name);
			return res;
		}
		i = next;
	}
	return res;
}

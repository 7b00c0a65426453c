/*
 * isa.c: the encoder, decoder, disassembler and assembler of the G13
 * instruction set, all driven by the generated table (g13.isa).  Bit
 * positions live only in the table; this file knows what each operand kind
 * means (applegpu's operand descriptions: ALUSrc, ALUDst, FloatSrc, ...).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"

/* --- 128-bit words ---------------------------------------------------------- */

static uint64_t word_field(const struct agx_isa_word *w, unsigned start, unsigned width)
{
	uint64_t v;

	if (start >= 64)
		v = w->hi >> (start - 64);
	else if (start + width <= 64)
		v = w->lo >> start;
	else
		v = (w->lo >> start) | (w->hi << (64 - start));
	return width >= 64 ? v : v & ((1ull << width) - 1);
}

static void word_set(struct agx_isa_word *w, unsigned start, unsigned width, uint64_t value)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned bit = start + i;
		uint64_t *half = bit >= 64 ? &w->hi : &w->lo;
		uint64_t m = 1ull << (bit & 63);

		*half = (value >> i) & 1 ? *half | m : *half & ~m;
	}
}

static void word_from_bytes(struct agx_isa_word *w, const uint8_t *bytes, unsigned size)
{
	w->lo = w->hi = 0;
	for (unsigned i = 0; i < size; i++) {
		if (i < 8)
			w->lo |= (uint64_t)bytes[i] << (8 * i);
		else
			w->hi |= (uint64_t)bytes[i] << (8 * (i - 8));
	}
}

static void word_to_bytes(const struct agx_isa_word *w, uint8_t *bytes, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		bytes[i] = (uint8_t)(i < 8 ? w->lo >> (8 * i) : w->hi >> (8 * (i - 8)));
}

/* Bits of w at or above byte `size`. */
static bool word_has_bits_from(const struct agx_isa_word *w, unsigned size)
{
	unsigned bit = size * 8;

	if (bit >= 128)
		return false;
	if (bit >= 64)
		return (w->hi >> (bit - 64)) != 0;
	return (w->lo >> bit) != 0 || w->hi != 0;
}

static void word_truncate(struct agx_isa_word *w, unsigned size)
{
	unsigned bit = size * 8;

	if (bit >= 128)
		return;
	if (bit >= 64) {
		w->hi &= bit == 64 ? 0 : ~0ull >> (128 - bit);
	} else {
		w->hi = 0;
		w->lo &= ~0ull >> (64 - bit);
	}
}

uint32_t agx_isa_bits_get(const struct agx_isa_word *w, const struct agx_isa_bits *f)
{
	uint32_t v = 0;
	unsigned shift = 0;

	for (unsigned i = 0; i < f->count; i++) {
		v |= (uint32_t)word_field(w, f->part[i].start, f->part[i].width) << shift;
		shift += f->part[i].width;
	}
	return v;
}

static void bits_set(struct agx_isa_word *w, const struct agx_isa_bits *f, uint32_t v)
{
	unsigned shift = 0;

	for (unsigned i = 0; i < f->count; i++) {
		word_set(w, f->part[i].start, f->part[i].width, v >> shift);
		shift += f->part[i].width;
	}
}

static unsigned bits_width(const struct agx_isa_bits *f)
{
	unsigned n = 0;

	for (unsigned i = 0; i < f->count; i++)
		n += f->part[i].width;
	return n;
}

static bool fits(const struct agx_isa_bits *f, uint32_t v)
{
	unsigned w = bits_width(f);

	return w >= 32 || (v >> w) == 0;
}

/* --- operand meaning ------------------------------------------------------- */

static const char *const icond_names[16] = {
	[0] = "ueq",  [1] = "ult",  [2] = "ugt",   [4] = "seq",	  [5] = "slt",	 [6] = "sgt",
	[8] = "nueq", [9] = "ugte", [10] = "ulte", [12] = "nseq", [13] = "sgte", [14] = "slte",
};

static const char *const fcond_names[16] = {
	[0] = "eq",    [1] = "lt",    [2] = "gt",    [3] = "ltn",   [5] = "gte",
	[6] = "lte",   [7] = "gtn",   [8] = "neq",   [9] = "nlt",   [10] = "ngt",
	[11] = "nltn", [13] = "ngte", [14] = "nlte", [15] = "ngtn",
};

/* Special register names, as applegpu prints them. */
static const char *sr_name(unsigned n)
{
	switch (n) {
	case 0:
		return "threadgroup_position_in_grid.x";
	case 1:
		return "threadgroup_position_in_grid.y";
	case 2:
		return "threadgroup_position_in_grid.z";
	case 4:
		return "threads_per_threadgroup.x";
	case 5:
		return "threads_per_threadgroup.y";
	case 6:
		return "threads_per_threadgroup.z";
	case 8:
		return "dispatch_threads_per_threadgroup.x";
	case 9:
		return "dispatch_threads_per_threadgroup.y";
	case 10:
		return "dispatch_threads_per_threadgroup.z";
	case 48:
		return "thread_position_in_threadgroup.x";
	case 49:
		return "thread_position_in_threadgroup.y";
	case 50:
		return "thread_position_in_threadgroup.z";
	case 51:
		return "thread_index_in_threadgroup";
	case 52:
		return "thread_index_in_simdgroup";
	case 53:
		return "simdgroup_index_in_threadgroup";
	case 56:
		return "active_thread_index_in_quadgroup";
	case 58:
		return "active_thread_index_in_simdgroup";
	case 62:
		return "backfacing";
	case 63:
		return "is_active_thread";
	case 80:
		return "thread_position_in_grid.x";
	case 81:
		return "thread_position_in_grid.y";
	case 82:
		return "thread_position_in_grid.z";
	default:
		return NULL;
	}
}

double agx_isa_float_imm(unsigned bits)
{
	double sign = bits & 0x80 ? -1.0 : 1.0;
	unsigned e = (bits >> 4) & 7, f = bits & 15;

	if (e == 0)
		return sign * f / 64.0;
	return sign * (16 + f) * ldexp(1.0, (int)e - 7);
}

/* The first operand of this kind (and, when name is given, this name). */
static int operand_index(const struct agx_isa_desc *d, enum agx_isa_kind kind, const char *name)
{
	for (unsigned i = 0; i < d->num_operands; i++)
		if (d->operands[i].kind == kind && (!name || !strcmp(d->operands[i].name, name)))
			return (int)i;
	return -1;
}

/* The destination's size, which compare-select results follow. */
static unsigned dest_bits(const struct agx_isa_instr *in)
{
	int i = operand_index(in->desc, AGX_KIND_DST, NULL);

	return i >= 0 && (in->operands[i].type & 2) ? 32 : 16;
}

/* Register count of a memory tuple: one per bit of the mask operand. */
static unsigned tuple_count(const struct agx_isa_instr *in)
{
	int i = operand_index(in->desc, AGX_KIND_ENUM, "mask");

	/* no mask: a whole four (image_write's texel) */
	return i >= 0 ? (unsigned)__builtin_popcount(in->operands[i].value) : 4;
}

/* The widest register an ALU source kind may name. */
static unsigned src_max_bits(enum agx_isa_kind kind)
{
	switch (kind) {
	case AGX_KIND_SRC16:
	case AGX_KIND_FSRC16:
		return 16;
	case AGX_KIND_SRC64:
	case AGX_KIND_ADDSRC:
		return 64;
	default:
		return 32;
	}
}

/*
 * Coordinates per texture type (applegpu TEX_SIZES): how many, and whether
 * an array layer follows, in which case they are 16-bit halves, two per
 * coordinate and one for the layer.
 */
static void tex_size(unsigned type, unsigned *count, bool *layer)
{
	static const uint8_t sizes[8][2] = { { 1, 0 }, { 1, 1 }, { 2, 0 }, { 2, 1 },
					     { 2, 1 }, { 3, 0 }, { 3, 0 }, { 3, 1 } };

	*count = sizes[type & 7][0];
	*layer = sizes[type & 7][1];
}

/* The type value that makes an 8-bit-immediate-or-r16 operand an immediate. */
static unsigned imm_type(enum agx_isa_kind kind)
{
	return kind == AGX_KIND_IMMR16; /* a tile sample mask (SAMPLEMASK) says so with 0 */
}

/* The atomic op whose operand is a pair (g13.isa enum atomic_op). */
#define ATOMIC_CMPXCHG 3

static uint32_t named_field(const struct agx_isa_instr *in, const char *name)
{
	for (unsigned i = 0; i < in->desc->num_operands; i++)
		if (!strcmp(in->desc->operands[i].name, name))
			return in->operands[i].value;
	return 0;
}

static uint32_t named_type(const struct agx_isa_instr *in, const char *name)
{
	for (unsigned i = 0; i < in->desc->num_operands; i++)
		if (!strcmp(in->desc->operands[i].name, name))
			return in->operands[i].type;
	return 0;
}

static bool reg_hint(struct agx_isa_value *v, unsigned hint)
{
	v->cache = hint == 2;
	v->discard = hint == 3;
	return hint != 0;
}

/* ALUSrc: 8-bit immediate, uniform, or register with a hint. */
static bool alu_src(struct agx_isa_value *v, uint32_t value, uint32_t t, unsigned type_bits,
		    unsigned max_bits)
{
	if (t == 0) {
		v->type = AGX_VALUE_IMM;
		v->imm = value;
		return true;
	}
	if (type_bits == 3) {
		/* fsrc16: 1..3 register, 4/5 uniform (bit 0 extends the index) */
		if (t & 4) {
			if (t & 2)
				return false;
			v->type = AGX_VALUE_UNIFORM;
			v->bits = 16;
			v->index = value | (t & 1) << 8;
			return true;
		}
		v->type = AGX_VALUE_REG;
		v->bits = 16;
		v->index = value;
		return reg_hint(v, t & 3);
	}
	if ((t & 0xc) == 0x4) {
		unsigned idx = value | (t & 1) << 8;

		v->type = AGX_VALUE_UNIFORM;
		v->bits = (t & 2) ? 32 : 16;
		if (v->bits > max_bits || (v->bits == 32 && (idx & 1)))
			return false;
		v->index = v->bits == 32 ? idx >> 1 : idx;
		return true;
	}
	if ((t & 3) == 0)
		return false;
	reg_hint(v, t & 3);
	v->type = AGX_VALUE_REG;
	switch (t >> 2) {
	case 0:
		v->bits = 16;
		v->index = value;
		return true;
	case 2:
	case 3:
		v->bits = (t >> 2) == 3 ? 64 : 32;
		v->index = value >> 1;
		if (v->bits > max_bits && max_bits == 32) {
			/* applegpu ALUSrcDesc.decode: 0b11 on a 32-bit source is a 32-bit
			 * register (hwtest.py's imadd and iunary cases run it on an M1) */
			v->bits = 32;
			v->wide = true;
		}
		return !(value & 1) && v->bits <= max_bits;
	default:
		return false;
	}
}

bool agx_isa_operand_value(const struct agx_isa_instr *in, unsigned i, int64_t pc,
			   struct agx_isa_value *v)
{
	const struct agx_isa_operand_desc *o = &in->desc->operands[i];
	const struct agx_isa_fields *f = &in->operands[i];
	unsigned type_bits = bits_width(&o->type);

	memset(v, 0, sizeof(*v));
	v->count = 1;
	switch (o->kind) {
	case AGX_KIND_DST:
	case AGX_KIND_DST64:
		v->type = AGX_VALUE_REG;
		v->cache = f->type & 1;
		if (f->type & 2) {
			v->bits = (o->kind == AGX_KIND_DST64 && (f->value & 1)) ? 64 : 32;
			v->index = f->value >> 1;
			/* the low bit of a 32-bit destination is ignored (hwtest.py's
			 * iadd and iunary cases with D = 13 write r6 on an M1) */
			v->odd = v->bits == 32 && (f->value & 1);
			return true;
		}
		v->bits = 16;
		v->index = f->value;
		return true;
	case AGX_KIND_DST16:
	case AGX_KIND_DST32:
		v->type = AGX_VALUE_REG;
		v->cache = f->type & 1;
		/* a 16-bit float destination ignores its size bit (applegpu
		 * FloatDst16Desc; hwtest.py's fmadd16 cases with Dt = 2) */
		v->wide = (f->type & 2) != 0;
		v->bits = o->kind == AGX_KIND_DST16 ? 16 : 32;
		v->index = v->bits == 32 ? f->value >> 1 : f->value;
		return v->bits == 16 || !(f->value & 1);
	case AGX_KIND_SRC:
	case AGX_KIND_SRC64:
	case AGX_KIND_SRC16:
	case AGX_KIND_ADDSRC:
	case AGX_KIND_MULSRC: {
		unsigned max = src_max_bits(o->kind);

		if (!alu_src(v, f->value, f->type, type_bits, max))
			return false;
		if (o->sx.count && f->sx) {
			if (v->type == AGX_VALUE_IMM)
				return false; /* immediates are never sign-extended */
			v->sx = true;
		}
		return true;
	}
	case AGX_KIND_FSRC:
	case AGX_KIND_FSRC16:
		if (!alu_src(v, f->value, f->type, type_bits, src_max_bits(o->kind)))
			return false;
		if (v->type == AGX_VALUE_IMM) {
			v->type = AGX_VALUE_FLOAT_IMM;
			v->imm = f->value;
		}
		v->abs = f->mod & 1;
		v->neg = f->mod & 2;
		return true;
	case AGX_KIND_CMPSEL: {
		unsigned bits = dest_bits(in);

		if (f->type == 4) {
			v->type = AGX_VALUE_IMM;
			v->imm = f->value;
			return true;
		}
		if (f->type == 6 || f->type == 7) {
			unsigned idx = f->value | (f->type & 1) << 8;

			v->type = AGX_VALUE_UNIFORM;
			v->bits = bits;
			v->index = bits == 32 ? idx >> 1 : idx;
			return bits == 16 || !(idx & 1);
		}
		if (f->type < 1 || f->type > 3)
			return false;
		reg_hint(v, f->type);
		v->type = AGX_VALUE_REG;
		v->bits = bits;
		v->index = bits == 32 ? f->value >> 1 : f->value;
		return bits == 16 || !(f->value & 1);
	}
	case AGX_KIND_ICOND:
	case AGX_KIND_FCOND: {
		unsigned code = f->value | f->type << 3;

		v->type = AGX_VALUE_TEXT;
		v->text = (o->kind == AGX_KIND_ICOND ? icond_names : fcond_names)[code];
		return v->text != NULL;
	}
	case AGX_KIND_R0L:
		v->type = AGX_VALUE_REG;
		v->bits = 16;
		v->cache = f->type & 1;
		return true;
	case AGX_KIND_IMM:
		v->type = AGX_VALUE_IMM;
		v->imm = f->value;
		return true;
	case AGX_KIND_SIMM:
	case AGX_KIND_BRANCH: {
		unsigned w = bits_width(&o->value);
		int64_t s = (int64_t)f->value;

		if (w < 64 && (s >> (w - 1)) & 1)
			s -= (int64_t)1 << w;
		if (o->kind == AGX_KIND_BRANCH) {
			v->type = AGX_VALUE_TEXT;
			if (pc >= 0 && pc + s >= 0)
				snprintf(v->textbuf, sizeof(v->textbuf), "0x%llX",
					 (unsigned long long)(pc + s));
			else
				snprintf(v->textbuf, sizeof(v->textbuf), "pc%c%lld",
					 s < 0 ? '-' : '+', (long long)(s < 0 ? -s : s));
			v->text = v->textbuf;
		} else {
			v->type = AGX_VALUE_IMM;
			v->imm = s;
		}
		return true;
	}
	case AGX_KIND_SHIFT:
		v->type = AGX_VALUE_TEXT;
		if (f->value)
			snprintf(v->textbuf, sizeof(v->textbuf), "lsl %u", f->value);
		v->text = v->textbuf;
		return true;
	case AGX_KIND_MASK:
		v->type = AGX_VALUE_TEXT;
		if (f->value)
			snprintf(v->textbuf, sizeof(v->textbuf), "mask 0x%llX",
				 (unsigned long long)((1ull << f->value) - 1));
		v->text = v->textbuf;
		return f->value <= 32;
	case AGX_KIND_TT:
		v->type = AGX_VALUE_TEXT;
		for (unsigned b = 0; b < 4; b++)
			v->textbuf[b] = (char)('0' + ((f->value >> b) & 1));
		v->text = v->textbuf;
		return true;
	case AGX_KIND_SR: {
		const char *name = sr_name(f->value);

		v->type = AGX_VALUE_TEXT;
		if (name)
			snprintf(v->textbuf, sizeof(v->textbuf), "sr%u (%s)", f->value, name);
		else
			snprintf(v->textbuf, sizeof(v->textbuf), "sr%u", f->value);
		v->text = v->textbuf;
		return true;
	}
	case AGX_KIND_MEMREG:
	case AGX_KIND_TGREG:
		v->type = AGX_VALUE_REG;
		v->count = tuple_count(in);
		v->bits = f->type ? 32 : 16;
		v->index = f->type ? f->value >> 1 : f->value;
		return v->count > 0 && !(f->type && (f->value & 1));
	case AGX_KIND_MEMBASE:
		v->type = f->type ? AGX_VALUE_UNIFORM : AGX_VALUE_REG;
		v->bits = 64;
		v->index = f->value >> 1;
		return !(f->value & 1);
	case AGX_KIND_MEMINDEX:
		if (f->type) {
			v->type = AGX_VALUE_IMM;
			v->imm = (int16_t)f->value;
			return true;
		}
		v->type = AGX_VALUE_REG;
		v->bits = 32;
		v->index = f->value >> 1;
		return !(f->value & 1) && f->value < 0x100;
	case AGX_KIND_TGBASE:
		if (f->type == 2) {
			v->type = AGX_VALUE_IMM;
			return f->value == 0;
		}
		v->type = f->type ? AGX_VALUE_UNIFORM : AGX_VALUE_REG;
		v->bits = 16;
		v->index = f->value | (f->type ? (f->type >> 1) << 8 : 0);
		return true;
	case AGX_KIND_TGINDEX:
		if (f->type) {
			v->type = AGX_VALUE_IMM;
			v->imm = (int16_t)f->value;
			return true;
		}
		v->type = AGX_VALUE_REG;
		v->bits = 16;
		v->index = f->value;
		return f->value < 0x100;
	case AGX_KIND_VARREG:
	case AGX_KIND_VARTRIPLE:
		/* applegpu: a count of 0 means 4; ldcf loads three per count */
		v->type = AGX_VALUE_REG;
		v->count = (f->count ? f->count : 4) * (o->kind == AGX_KIND_VARTRIPLE ? 3 : 1);
		v->bits = f->type ? 32 : 16;
		v->index = f->type ? f->value >> 1 : f->value;
		return !(f->type && (f->value & 1));
	case AGX_KIND_CF:
	case AGX_KIND_CFPERSP: {
		int p = operand_index(in->desc, AGX_KIND_ENUM, "P");
		bool shown = o->kind == AGX_KIND_CF || (p >= 0 && in->operands[p].value);

		v->type = AGX_VALUE_TEXT;
		if (shown)
			snprintf(v->textbuf, sizeof(v->textbuf), "cf%u", f->value);
		v->text = v->textbuf;
		/* without perspective the field is unused and must be zero */
		return shown || f->value == 0;
	}
	case AGX_KIND_TEXTURE:
		switch (f->type) {
		case 0:
			v->type = AGX_VALUE_TEXT;
			snprintf(v->textbuf, sizeof(v->textbuf), "ts%u", f->value);
			v->text = v->textbuf;
			return true;
		case 1:
			v->type = AGX_VALUE_REG;
			v->bits = 16;
			v->index = f->value;
			return true;
		case 2:
			/* 0, or an r16 that type 1 spells already: only 0 is ours */
			v->type = AGX_VALUE_IMM;
			return f->value == 0;
		default:
			v->type = AGX_VALUE_REG;
			v->bits = 32;
			v->index = f->value >> 1;
			return !(f->value & 1);
		}
	case AGX_KIND_SAMPLER:
		if (f->type) {
			v->type = AGX_VALUE_REG;
			v->bits = 16;
			v->index = f->value;
		} else {
			v->type = AGX_VALUE_TEXT;
			snprintf(v->textbuf, sizeof(v->textbuf), "ss%u", f->value);
			v->text = v->textbuf;
		}
		return true;
	case AGX_KIND_TEXUREG:
		/* only a texture named by a register has a uniform base */
		if (!(named_type(in, "T") & 1)) {
			v->type = AGX_VALUE_TEXT;
			v->text = v->textbuf;
			return f->value == 0;
		}
		v->type = AGX_VALUE_UNIFORM;
		v->bits = 64;
		v->index = f->value * 2;
		return true;
	case AGX_KIND_UPAIR:
		/* the field counts pairs (Mesa cases.txt: 4 is "du8") */
		v->type = AGX_VALUE_UNIFORM;
		v->bits = 64;
		v->index = f->value * 2;
		return true;
	case AGX_KIND_COORDS: {
		unsigned count;
		bool layer;

		tex_size(named_field(in, "n"), &count, &layer);
		v->type = AGX_VALUE_REG;
		v->discard = f->type;
		if (layer) {
			v->bits = 16;
			v->count = count * 2 + 1;
			v->index = f->value;
			return true;
		}
		v->bits = 32;
		v->count = count;
		v->index = f->value >> 1;
		return !(f->value & 1);
	}
	case AGX_KIND_LOD: {
		unsigned mode = named_field(in, "lod"), count;
		bool layer;

		switch (mode) {
		case 0:
			v->type = AGX_VALUE_IMM;
			return f->value == 0;
		case 1:
		case 2:
		case 5:
		case 6:
			v->type = mode < 4 ? AGX_VALUE_UNIFORM : AGX_VALUE_REG;
			v->bits = 16;
			v->index = f->value;
			return true;
		case 9:
		case 13:
			/* bias and minimum: a pair of halves (Mesa's cases.txt) */
			v->type = mode == 9 ? AGX_VALUE_UNIFORM : AGX_VALUE_REG;
			v->bits = 16;
			v->count = 2;
			v->index = f->value;
			return true;
		case 4:
		case 12:
			/* gradients: two per coordinate, and a minimum with 12 */
			tex_size(named_field(in, "n"), &count, &layer);
			v->type = AGX_VALUE_REG;
			v->bits = 32;
			v->count = count * 2 + (mode == 12);
			v->index = f->value >> 1;
			return !(f->value & 1);
		default:
			return false;
		}
	}
	case AGX_KIND_CMPOFF: {
		bool compare = named_field(in, "compare"), offset = f->type;
		int n = 0;

		v->type = AGX_VALUE_TEXT;
		v->text = v->textbuf;
		if (compare)
			n += snprintf(v->textbuf, sizeof(v->textbuf), "r%u", f->value >> 1);
		if (offset)
			snprintf(v->textbuf + n, sizeof(v->textbuf) - (size_t)n, "%sr%u%c",
				 compare ? "_" : "", (f->value + (compare ? 2 : 0)) >> 1,
				 ((f->value + (compare ? 2 : 0)) & 1) ? 'h' : 'l');
		if (compare && (f->value & 1))
			return false;
		return compare || offset || f->value == 0;
	}
	case AGX_KIND_ATOMDST:
		if (!f->type) {
			v->type = AGX_VALUE_TEXT;
			v->text = "_";
			return f->value == 0;
		}
		/* returning: every type bit set (the return flag, and the 32-bit flag if any) */
		v->type = AGX_VALUE_REG;
		v->bits = 32;
		v->index = f->value >> 1;
		return f->type == (1u << type_bits) - 1 && !(f->value & 1);
	case AGX_KIND_ATOMSRC:
		v->type = AGX_VALUE_REG;
		v->bits = 32;
		v->index = f->value >> 1;
		v->count = named_field(in, "op") == ATOMIC_CMPXCHG ? 2 : 1;
		return !(f->value & 1);
	case AGX_KIND_GPR32:
	case AGX_KIND_GPR16:
		v->type = AGX_VALUE_REG;
		v->bits = o->kind == AGX_KIND_GPR32 ? 32 : 16;
		v->index = f->value;
		return true;
	case AGX_KIND_ZSREG:
		v->type = AGX_VALUE_REG;
		switch (f->type) {
		case 1: /* depth: a float */
			v->bits = 32;
			v->index = f->value >> 1;
			return !(f->value & 1);
		case 2: /* stencil */
			v->bits = 16;
			v->index = f->value;
			return true;
		case 3: /* depth, then stencil in the next half */
			v->bits = 16;
			v->index = f->value;
			v->count = 3;
			return !(f->value & 1);
		default:
			return false;
		}
	case AGX_KIND_SAMPLEMASK:
	case AGX_KIND_IMMR16:
		/* an 8-bit immediate or an r16; which type value means the immediate differs */
		if (f->type > 1)
			return false;
		v->type = f->type == imm_type(o->kind) ? AGX_VALUE_IMM : AGX_VALUE_REG;
		v->bits = 16;
		v->index = f->value;
		v->imm = f->value;
		return true;
	case AGX_KIND_PDST:
		/* applegpu PairedALUDstDesc: the first of two halves or of two r32 */
		v->type = AGX_VALUE_REG;
		v->cache = f->type & 1;
		v->count = 2;
		v->bits = (f->type & 2) ? 32 : 16;
		v->index = v->bits == 32 ? f->value >> 1 : f->value;
		return v->bits == 16 || !(f->value & 1);
	case AGX_KIND_PFSRC:
		/* applegpu PairedFloatSrcDesc; a pair of uniforms or immediates is not known */
		if (!alu_src(v, f->value, f->type, type_bits, 32) || v->type != AGX_VALUE_REG ||
		    v->wide)
			return false;
		v->count = 2;
		v->abs = f->mod & 1;
		v->neg = f->mod & 2;
		return true;
	case AGX_KIND_ASYNCTUPLE:
		/* applegpu AsyncMemoryBaseDesc: the field is the first 32-bit register itself */
		v->type = f->type ? AGX_VALUE_UNIFORM : AGX_VALUE_REG;
		v->bits = 32;
		v->index = f->value;
		v->count = named_field(in, "F") ? 5 : 3;
		return true;
	case AGX_KIND_OPT:
	case AGX_KIND_IGNORED:
		v->type = AGX_VALUE_TEXT;
		if (f->value)
			snprintf(v->textbuf, sizeof(v->textbuf), "%s=0x%x", o->name, f->value);
		v->text = v->textbuf;
		return true;
	case AGX_KIND_ENUM:
		v->type = AGX_VALUE_TEXT;
		for (unsigned k = 0; k < o->enumeration->count; k++)
			if (o->enumeration->items[k].value == f->value)
				v->text = o->enumeration->items[k].name;
		return v->text != NULL;
	}
	return false;
}

/* --- text ---------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	/* a NULL buffer only measures */
	n = vsnprintf(o->buf && o->len < o->size ? o->buf + o->len : NULL,
		      o->buf && o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void put_reg(struct out *o, char file, unsigned bits, unsigned index)
{
	if (bits == 16)
		put(o, "%c%u%c", file, index >> 1, index & 1 ? 'h' : 'l');
	else if (bits == 32)
		put(o, "%c%u", file, index);
	else
		put(o, "%c%u_%c%u", file, index, file, index + 1);
}

/* The shortest decimal that reads back as the same double (Python's repr). */
static void put_double(struct out *o, double d)
{
	char tmp[40];

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	if (!strpbrk(tmp, ".eninf"))
		strcat(tmp, ".0");
	put(o, "%s", tmp);
}

static void put_flags(struct out *o, const struct agx_isa_value *v)
{
	if (v->cache)
		put(o, ".cache");
	if (v->discard)
		put(o, ".discard");
	if (v->abs)
		put(o, ".abs");
	if (v->neg)
		put(o, ".neg");
	if (v->sx)
		put(o, ".sx");
	if (v->odd)
		put(o, ".odd");
	if (v->wide)
		put(o, ".wide");
}

static void put_val(struct out *o, const struct agx_isa_value *v)
{
	switch (v->type) {
	case AGX_VALUE_REG:
	case AGX_VALUE_UNIFORM:
		for (unsigned k = 0; k < v->count; k++) {
			if (k)
				put(o, "_");
			if (v->bits == 16 && v->count > 1)
				put_reg(o, v->type == AGX_VALUE_REG ? 'r' : 'u', 16, v->index + k);
			else
				put_reg(o, v->type == AGX_VALUE_REG ? 'r' : 'u', v->bits,
					v->index + k * (v->bits == 64 ? 2 : 1));
		}
		break;
	case AGX_VALUE_IMM:
		put(o, "%lld", (long long)v->imm);
		break;
	case AGX_VALUE_FLOAT_IMM:
		put_double(o, agx_isa_float_imm((unsigned)v->imm));
		break;
	case AGX_VALUE_TEXT:
		put(o, "%s", v->text);
		break;
	case AGX_VALUE_NONE:
		break;
	}
	put_flags(o, v);
}

static bool is_float_zero(const struct agx_isa_value *v)
{
	return v->type == AGX_VALUE_FLOAT_IMM && v->imm == 0 && !v->abs && !v->neg;
}

int agx_isa_print(const struct agx_isa_instr *in, int64_t pc, char *buf, size_t size)
{
	const struct agx_isa_desc *d = in->desc;
	struct agx_isa_value vals[AGX_ISA_MAX_OPERANDS];
	struct out o = { buf, size, 0 };
	unsigned first = 0, last = d->num_operands;
	const char *name = in->alt ? d->alt_name : d->name;
	bool sep = false;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < d->num_operands; i++)
		agx_isa_operand_value(in, i, pc, &vals[i]);

	if (d->alias == AGX_ALIAS_BITOP) {
		static const struct {
			const char *tt, *name;
			bool unary;
		} aliases[] = {
			{ "0001", "and", false }, { "0111", "or", false },
			{ "0110", "xor", false }, { "1110", "nand", false },
			{ "1000", "nor", false }, { "1010", "not", true },
			{ "0101", "mov", true },
		};

		for (unsigned k = 0; k < sizeof(aliases) / sizeof(aliases[0]); k++) {
			if (strcmp(vals[0].text, aliases[k].tt))
				continue;
			if (aliases[k].unary &&
			    !(vals[3].type == AGX_VALUE_IMM && vals[3].imm == 0))
				continue;
			if (vals[4].text && vals[4].text[0])
				break; /* ignored bits set: only the full form names them */
			name = aliases[k].name;
			first = 1;
			last = aliases[k].unary ? 3 : 4;
			break;
		}
		if (first == 0 && (!strcmp(vals[0].text, "0011") || !strcmp(vals[0].text, "1100")))
			name = "bitop_mov_a";
	} else if (d->alias != AGX_ALIAS_NONE && !strcmp(vals[1].text, "eq") &&
		   is_float_zero(&vals[2]) && is_float_zero(&vals[3])) {
		/* D, cc, A, B, n: unconditional forms */
		if (d->alias == AGX_ALIAS_ELSE_EXEC) {
			name = "else_exec";
		} else if (vals[4].imm == 0) {
			name = "update_exec";
			last = 1;
		} else {
			name = "push_exec";
		}
		if (last != 1) {
			put(&o, "%s ", name);
			put_val(&o, &vals[0]);
			put(&o, ", ");
			put_val(&o, &vals[4]);
			return (int)o.len;
		}
	}

	put(&o, "%s%s", name, in->sat ? ".sat" : "");
	for (unsigned i = first; i < last; i++) {
		struct out probe = { NULL, 0, 0 };

		put_val(&probe, &vals[i]);
		if (!probe.len)
			continue; /* an omitted default: "lsl 0", "mask" of 32 */
		put(&o, sep ? ", " : " ");
		put_val(&o, &vals[i]);
		sep = true;
	}
	return (int)o.len;
}

/* --- decoding --------------------------------------------------------------------- */

static bool decode_with(const struct agx_isa_desc *d, const uint8_t *bytes, size_t len,
			struct agx_isa_instr *in)
{
	struct agx_isa_word w, masked, extra;
	unsigned size = d->size_short;

	if (len < 2 || (len < d->size_short && d->size_short == d->size_long))
		return false;
	if (d->size_short != d->size_long) {
		if (len * 8 <= d->length_bit)
			return false;
		if ((bytes[d->length_bit / 8] >> (d->length_bit % 8)) & 1)
			size = d->size_long;
	}
	if (len < size)
		return false;
	word_from_bytes(&w, bytes, size);
	masked.lo = w.lo & d->mask.lo;
	masked.hi = w.hi & d->mask.hi;
	if (masked.lo != d->bits.lo || masked.hi != d->bits.hi)
		return false;
	/* Bits nobody described must be zero: an unknown encoding stays unknown. */
	extra.lo = w.lo & ~d->covered.lo;
	extra.hi = w.hi & ~d->covered.hi;
	if (extra.lo || extra.hi)
		return false;

	memset(in, 0, sizeof(*in));
	in->desc = d;
	in->size = size;
	in->alt = d->alt_bit >= 0 && word_field(&w, (unsigned)d->alt_bit, 1);
	in->sat = d->sat_bit >= 0 && word_field(&w, (unsigned)d->sat_bit, 1);
	for (unsigned i = 0; i < d->num_operands; i++) {
		const struct agx_isa_operand_desc *o = &d->operands[i];

		in->operands[i].value = agx_isa_bits_get(&w, &o->value);
		in->operands[i].type = agx_isa_bits_get(&w, &o->type);
		in->operands[i].mod = agx_isa_bits_get(&w, &o->mod);
		in->operands[i].sx = agx_isa_bits_get(&w, &o->sx);
		in->operands[i].count = agx_isa_bits_get(&w, &o->count);
	}
	for (unsigned i = 0; i < d->num_operands; i++) {
		struct agx_isa_value v;

		if (!agx_isa_operand_value(in, i, 0, &v))
			return false;
	}
	return true;
}

/*
 * The table entries an instruction's first byte allows, in table order (so
 * the first match is still the table's first): the decoder tries a handful
 * instead of every entry.  Built once, on first use.
 */
static struct {
	uint16_t start[257];
	uint16_t ops[256 * AGX_NUM_OPS];
} by_first_byte;
static pthread_once_t by_first_byte_once = PTHREAD_ONCE_INIT;

static void index_first_bytes(void)
{
	unsigned n = 0;

	for (unsigned b = 0; b < 256; b++) {
		by_first_byte.start[b] = (uint16_t)n;
		for (unsigned op = 0; op < AGX_NUM_OPS; op++) {
			const struct agx_isa_desc *d = &agx_isa_table[op];

			if ((b & (uint8_t)d->mask.lo) == (uint8_t)d->bits.lo)
				by_first_byte.ops[n++] = (uint16_t)op;
		}
	}
	by_first_byte.start[256] = (uint16_t)n;
}

unsigned agx_isa_decode(const uint8_t *bytes, size_t len, struct agx_isa_instr *in)
{
	pthread_once(&by_first_byte_once, index_first_bytes);
	if (len) {
		for (unsigned i = by_first_byte.start[bytes[0]];
		     i < by_first_byte.start[bytes[0] + 1]; i++)
			if (decode_with(&agx_isa_table[by_first_byte.ops[i]], bytes, len, in))
				return in->size;
	}
	memset(in, 0, sizeof(*in));
	return 0;
}

/* --- encoding --------------------------------------------------------------------- */

unsigned agx_isa_encode(const struct agx_isa_instr *in, uint8_t *bytes)
{
	const struct agx_isa_desc *d = in->desc;
	struct agx_isa_word w = d->bits;
	unsigned size = d->size_short;

	for (unsigned i = 0; i < d->num_operands; i++) {
		const struct agx_isa_operand_desc *o = &d->operands[i];
		const struct agx_isa_fields *f = &in->operands[i];

		if (!fits(&o->value, f->value) || !fits(&o->type, f->type) ||
		    !fits(&o->mod, f->mod) || !fits(&o->sx, f->sx) || !fits(&o->count, f->count))
			return 0;
		bits_set(&w, &o->value, f->value);
		bits_set(&w, &o->type, f->type);
		bits_set(&w, &o->mod, f->mod);
		bits_set(&w, &o->sx, f->sx);
		bits_set(&w, &o->count, f->count);
	}
	if (in->alt) {
		if (d->alt_bit < 0)
			return 0;
		word_set(&w, (unsigned)d->alt_bit, 1, 1);
	}
	if (in->sat) {
		if (d->sat_bit < 0)
			return 0;
		word_set(&w, (unsigned)d->sat_bit, 1, 1);
	}
	/*
	 * The short form when the upper bytes are zero, unless the instruction
	 * was decoded from (or asked for) the long form: compilers emit both.
	 */
	if (d->size_short != d->size_long &&
	    (in->size == d->size_long || word_has_bits_from(&w, d->size_short))) {
		size = d->size_long;
		word_set(&w, d->length_bit, 1, 1);
	}
	word_truncate(&w, size);
	word_to_bytes(&w, bytes, size);
	return size;
}

/* --- assembling ------------------------------------------------------------------- */

struct parser {
	char *err;
	size_t errsize;
	unsigned tuple_len[AGX_ISA_MAX_OPERANDS];
	unsigned progress; /* operands read before the last error */
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errsize, fmt, ap);
	va_end(ap);
	return -1;
}

static bool parse_integer(const char *s, int64_t *out)
{
	char *end;
	bool neg = false;
	int base = 10;
	unsigned long long v;

	if (*s == '-') {
		neg = true;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
	}
	if (!isalnum((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end || errno)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* Splits "name.flag.flag" into a value and its flags. */
static bool take_flags(char *s, struct agx_isa_value *v)
{
	char *dot;

	while ((dot = strrchr(s, '.'))) {
		const char *f = dot + 1;

		if (!strcmp(f, "cache"))
			v->cache = true;
		else if (!strcmp(f, "discard"))
			v->discard = true;
		else if (!strcmp(f, "abs"))
			v->abs = true;
		else if (!strcmp(f, "neg"))
			v->neg = true;
		else if (!strcmp(f, "sx"))
			v->sx = true;
		else if (!strcmp(f, "odd"))
			v->odd = true;
		else if (!strcmp(f, "wide"))
			v->wide = true;
		else
			return true; /* a decimal point, not a flag */
		*dot = '\0';
	}
	return true;
}

/* One register: r5, r5l, r5h, r4_r5 (64-bit), u3, u3l, u3h, u3_u4. */
static bool parse_reg(const char *s, struct agx_isa_value *v)
{
	char file = s[0];
	char *end;
	unsigned long n, m;

	if ((file != 'r' && file != 'u') || !isdigit((unsigned char)s[1]))
		return false;
	n = strtoul(s + 1, &end, 10);
	v->type = file == 'r' ? AGX_VALUE_REG : AGX_VALUE_UNIFORM;
	if (*end == 'l' || *end == 'h') {
		v->bits = 16;
		v->index = (unsigned)(n * 2 + (*end == 'h'));
		return end[1] == '\0';
	}
	v->bits = 32;
	v->index = (unsigned)n;
	if (*end == '\0')
		return true;
	if (end[0] != '_' || end[1] != file)
		return false;
	m = strtoul(end + 2, &end, 10);
	v->bits = 64;
	return *end == '\0' && m == n + 1;
}

/* A tuple r4_r5_r6, r0l_r0h_r1l or u6l_u6h: consecutive registers of one size and file. */
static bool parse_tuple(const char *s, struct agx_isa_value *v)
{
	char copy[128], *save = NULL, *tok;
	struct agx_isa_value r;

	snprintf(copy, sizeof(copy), "%s", s);
	memset(v, 0, sizeof(*v));
	for (tok = strtok_r(copy, "_", &save); tok; tok = strtok_r(NULL, "_", &save)) {
		memset(&r, 0, sizeof(r));
		if (!parse_reg(tok, &r) || r.bits == 64)
			return false;
		if (v->count == 0) {
			*v = r;
		} else if (r.type != v->type || r.bits != v->bits ||
			   r.index != v->index + v->count) {
			return false;
		}
		v->count++;
	}
	return v->count > 0;
}

static bool parse_float_imm(const char *s, unsigned *out)
{
	char *end;
	double d = strtod(s, &end);

	if (*end || end == s)
		return false;
	for (unsigned n = 0; n < 256; n++) {
		double x = agx_isa_float_imm(n);

		if (x == d && signbit(x) == signbit(d)) {
			*out = n;
			return true;
		}
	}
	return false;
}

static bool enum_lookup(const struct agx_isa_enum *e, const char *s, uint32_t *out)
{
	int64_t n;

	for (unsigned k = 0; k < e->count; k++) {
		if (!strcmp(e->items[k].name, s)) {
			*out = e->items[k].value;
			return true;
		}
	}
	if (parse_integer(s, &n) && n >= 0) {
		*out = (uint32_t)n;
		return true;
	}
	return false;
}

static uint32_t hint_bits(const struct agx_isa_value *v)
{
	return v->discard ? 3 : v->cache ? 2 : 1;
}

/* The ALU source fields for a register, uniform or immediate. */
static bool encode_src(const struct agx_isa_value *v, unsigned type_bits, unsigned max_bits,
		       struct agx_isa_fields *f)
{
	if (v->odd)
		return false;
	if (v->type == AGX_VALUE_IMM) {
		if (v->imm < 0 || v->imm > 255 || v->cache || v->discard || v->wide)
			return false;
		f->value = (uint32_t)v->imm;
		f->type = 0;
		return true;
	}
	if (v->bits > max_bits || v->count > 1)
		return false;
	if (v->type == AGX_VALUE_UNIFORM) {
		unsigned idx = v->bits == 32 ? v->index << 1 : v->index;

		if (v->bits == 64 || idx > 0x1ff || v->cache || v->discard || v->wide)
			return false;
		if (type_bits == 3) {
			if (v->bits != 16)
				return false;
			f->type = 4 | (idx >> 8);
		} else {
			f->type = 4 | (v->bits == 32 ? 2 : 0) | (idx >> 8);
		}
		f->value = idx & 0xff;
		return true;
	}
	if (v->type != AGX_VALUE_REG)
		return false;
	if (v->wide && (v->bits != 32 || max_bits != 32 || type_bits != 4))
		return false;
	if (type_bits == 3) {
		if (v->bits != 16)
			return false;
		f->type = hint_bits(v);
	} else {
		f->type = (v->bits == 16 ? 0 : v->bits == 32 && !v->wide ? 8 : 12) | hint_bits(v);
	}
	f->value = v->bits == 16 ? v->index : v->index << 1;
	return f->value <= 0xff;
}

/* A register pair (pdst, pfsrc) named by its first register, with the flags parsed off it. */
static int encode_pair(struct parser *p, const struct agx_isa_operand_desc *o,
		       struct agx_isa_fields *f, const struct agx_isa_value *v,
		       const struct agx_isa_value *flags, const char *text)
{
	bool dst = o->kind == AGX_KIND_PDST;
	unsigned value = v->bits == 32 ? v->index << 1 : v->index;

	if (flags->sx || (flags->cache && flags->discard) ||
	    (dst && (flags->discard || flags->abs || flags->neg)))
		return fail(p, "modifier not allowed on '%s'", text);
	if (!fits(&o->value, value) || value > 0xff)
		return fail(p, "register out of range");
	f->value = value;
	if (dst) {
		f->type = (flags->cache ? 1u : 0u) | (v->bits == 32 ? 2u : 0u);
		return 0;
	}
	f->type = (v->bits == 32 ? 8u : 0u) | hint_bits(flags);
	f->mod = (flags->abs ? 1u : 0u) | (flags->neg ? 2u : 0u);
	return 0;
}

/* Whether an operand token is "NAME=...". */
static bool named_token(const char *tok, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(tok, name, len) && tok[len] == '=';
}

/* Parses operand string s for operand i; fills in->operands[i]. */
static int parse_operand(struct parser *p, struct agx_isa_instr *in, unsigned i, const char *text,
			 int64_t pc)
{
	const struct agx_isa_operand_desc *o = &in->desc->operands[i];
	struct agx_isa_fields *f = &in->operands[i];
	unsigned type_bits = bits_width(&o->type);
	char s[128];
	struct agx_isa_value v = { 0 };
	int64_t n;

	snprintf(s, sizeof(s), "%s", text);
	switch (o->kind) {
	case AGX_KIND_ICOND:
	case AGX_KIND_FCOND: {
		const char *const *names = o->kind == AGX_KIND_ICOND ? icond_names : fcond_names;

		for (unsigned code = 0; code < 16; code++) {
			if (names[code] && !strcmp(names[code], s)) {
				f->value = code & 7;
				f->type = code >> 3;
				if (f->type && !o->type.count)
					return fail(p, "condition %s cannot be negated here", s);
				return 0;
			}
		}
		return fail(p, "unknown condition '%s'", s);
	}
	case AGX_KIND_IMM:
	case AGX_KIND_SIMM:
		if (!parse_integer(s, &n))
			return fail(p, "'%s' is not an integer", s);
		if (o->kind == AGX_KIND_IMM
			? (n < 0 || !fits(&o->value, (uint32_t)n) || n > UINT32_MAX)
			: (n < -((int64_t)1 << (bits_width(&o->value) - 1)) ||
			   n >= ((int64_t)1 << (bits_width(&o->value) - 1))))
			return fail(p, "%s out of range for %s", s, o->name);
		f->value = (uint32_t)n & (uint32_t)((1ull << bits_width(&o->value)) - 1);
		return 0;
	case AGX_KIND_BRANCH: {
		unsigned w = bits_width(&o->value);

		if (!strncmp(s, "pc+", 3) || !strncmp(s, "pc-", 3)) {
			if (!parse_integer(s + 3, &n))
				return fail(p, "bad branch offset '%s'", s);
			if (s[2] == '-')
				n = -n;
		} else if (parse_integer(s, &n)) {
			n -= pc; /* an absolute target */
		} else {
			return fail(p, "bad branch target '%s'", s);
		}
		if (w < 64 && (n < -((int64_t)1 << (w - 1)) || n >= ((int64_t)1 << (w - 1))))
			return fail(p, "branch target out of range");
		/* a field narrower than 32 bits keeps only its own bits (jmp_if_skipping_doorbell)
		 */
		f->value = w < 32 ? (uint32_t)n & ((1u << w) - 1) : (uint32_t)n;
		return 0;
	}
	case AGX_KIND_SHIFT:
		if (!parse_integer(s + 4, &n) || strncmp(s, "lsl ", 4) || n < 0 ||
		    !fits(&o->value, (uint32_t)n))
			return fail(p, "bad shift '%s'", s);
		f->value = (uint32_t)n;
		return 0;
	case AGX_KIND_MASK: {
		uint64_t m;

		if (strncmp(s, "mask ", 5) || !parse_integer(s + 5, &n) || n <= 0 ||
		    n > 0xffffffffll || ((uint64_t)n & ((uint64_t)n + 1)))
			return fail(p, "bad mask '%s'", s);
		m = (uint64_t)__builtin_popcountll((uint64_t)n);
		f->value = m == 32 ? 0 : (uint32_t)m;
		return 0;
	}
	case AGX_KIND_TT:
		if (strlen(s) != 4 || strspn(s, "01") != 4)
			return fail(p, "bad truth table '%s'", s);
		for (unsigned b = 0; b < 4; b++)
			f->value |= (uint32_t)(s[b] - '0') << b;
		return 0;
	case AGX_KIND_SR: {
		char *paren = strstr(s, " (");

		if (paren)
			*paren = '\0';
		if (s[0] != 's' || s[1] != 'r' || !parse_integer(s + 2, &n) || n < 0 || n > 255)
			return fail(p, "bad special register '%s'", s);
		f->value = (uint32_t)n;
		return 0;
	}
	case AGX_KIND_ENUM:
		if (!enum_lookup(o->enumeration, s, &f->value) || !fits(&o->value, f->value))
			return fail(p, "'%s' is not a %s", s, o->enumeration->name);
		return 0;
	case AGX_KIND_SAMPLER:
		if (!strncmp(s, "ss", 2) && parse_integer(s + 2, &n) && n >= 0 &&
		    fits(&o->value, (uint32_t)n)) {
			f->value = (uint32_t)n;
			return 0;
		}
		/* tex_state_store's state register has no register form */
		if (parse_reg(s, &v) && v.type == AGX_VALUE_REG && v.bits == 16 &&
		    v.index <= 0xff && fits(&o->type, 1)) {
			f->type = 1;
			f->value = v.index;
			return 0;
		}
		return fail(p, "bad sampler '%s'", s);
	case AGX_KIND_TEXTURE:
		if (!strncmp(s, "ts", 2) && parse_integer(s + 2, &n) && n >= 0 &&
		    fits(&o->value, (uint32_t)n)) {
			f->value = (uint32_t)n;
			return 0;
		}
		if (!strcmp(s, "0") && fits(&o->type, 2)) {
			f->type = 2;
			return 0;
		}
		if (parse_reg(s, &v) && v.type == AGX_VALUE_REG && v.bits != 64 &&
		    fits(&o->type, 3)) {
			f->type = v.bits == 16 ? 1 : 3;
			f->value = v.bits == 16 ? v.index : v.index << 1;
			if (f->value <= 0xff)
				return 0;
		}
		return fail(p, "bad texture '%s'", s);
	case AGX_KIND_TEXUREG:
		if (!parse_reg(s, &v) || v.type != AGX_VALUE_UNIFORM || v.bits != 64 ||
		    (v.index & 1) || !fits(&o->value, v.index / 2))
			return fail(p, "bad bindless base '%s'", s);
		f->value = v.index / 2;
		return 0;
	case AGX_KIND_UPAIR:
		if (!parse_reg(s, &v) || v.type != AGX_VALUE_UNIFORM || v.bits != 64 ||
		    (v.index & 1) || !fits(&o->value, v.index / 2))
			return fail(p, "bad uniform pair '%s'", s);
		f->value = v.index / 2;
		return 0;
	case AGX_KIND_COORDS:
		v.discard = false;
		if (strlen(s) > 8 && !strcmp(s + strlen(s) - 8, ".discard")) {
			s[strlen(s) - 8] = '\0';
			f->type = 1;
		}
		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG)
			return fail(p, "bad coordinates '%s'", s);
		f->value = v.bits == 32 ? v.index << 1 : v.index;
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_LOD:
		if (!strcmp(s, "0"))
			return 0;
		if (parse_reg(s, &v) && v.bits == 16 && v.index <= 0xff) {
			f->value = v.index;
			p->tuple_len[i] = 1;
			return 0;
		}
		if (!parse_tuple(s, &v))
			return fail(p, "bad level of detail '%s'", s);
		f->value = v.bits == 32 ? v.index << 1 : v.index;
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_ATOMDST:
		if (!strcmp(s, "_"))
			return 0;
		if (!parse_reg(s, &v) || v.type != AGX_VALUE_REG || v.bits != 32)
			return fail(p, "'%s' is no 32-bit register or _", s);
		f->value = v.index << 1;
		f->type = (1u << bits_width(&o->type)) - 1;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_ZSREG:
		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG ||
		    !((v.bits == 32 && v.count == 1) || (v.bits == 16 && v.count == 1) ||
		      (v.bits == 16 && v.count == 3)))
			return fail(p, "'%s' is no depth (r32), stencil (r16) or both (3 halves)",
				    s);
		f->type = v.bits == 32 ? 1 : v.count == 1 ? 2 : 3;
		f->value = v.bits == 32 ? v.index << 1 : v.index;
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_ATOMSRC:
		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG || v.bits != 32)
			return fail(p, "bad atomic operand '%s'", s);
		f->value = v.index << 1;
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_CMPOFF: {
		/* compare (r32) and/or offset (r16), in that order */
		char *under = strchr(s, '_');
		struct agx_isa_value a = { 0 }, b = { 0 };
		bool compare = named_field(in, "compare");

		if (under)
			*under = '\0';
		if (!parse_reg(s, &a) || a.type != AGX_VALUE_REG ||
		    (under && (!parse_reg(under + 1, &b) || b.type != AGX_VALUE_REG)))
			return fail(p, "bad compare/offset '%s'", text);
		if (under || a.bits == 32) {
			/* r32 compare value first */
			if (a.bits != 32 || (under && b.bits != 16) ||
			    (under && b.index != (a.index << 1) + 2))
				return fail(p, "bad compare/offset '%s'", text);
			f->value = a.index << 1;
			f->type = under != NULL;
			p->tuple_len[i] = 1; /* a compare value: checked against "compare" */
		} else {
			if (a.bits != 16 || compare)
				return fail(p, "bad compare/offset '%s'", text);
			f->value = a.index;
			f->type = 1;
		}
		return f->value <= 0xff ? 0 : fail(p, "register out of range");
	}
	case AGX_KIND_CF:
	case AGX_KIND_CFPERSP:
		if (strncmp(s, "cf", 2) || !parse_integer(s + 2, &n) || n < 0 ||
		    !fits(&o->value, (uint32_t)n))
			return fail(p, "bad coefficient register '%s'", s);
		f->value = (uint32_t)n;
		return 0;
	case AGX_KIND_VARREG:
	case AGX_KIND_VARTRIPLE: {
		unsigned per = o->kind == AGX_KIND_VARTRIPLE ? 3 : 1;

		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG || v.count % per ||
		    v.count / per < 1 || v.count / per > 4)
			return fail(p, "bad register tuple '%s' for %s", s, in->desc->name);
		f->type = v.bits == 32;
		f->value = v.bits == 32 ? v.index << 1 : v.index;
		f->count = (v.count / per) & 3;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	}
	case AGX_KIND_PDST:
	case AGX_KIND_PFSRC: {
		struct agx_isa_value flags = { 0 };

		take_flags(s, &flags);
		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG || v.count != 2)
			return fail(p, "'%s' is no register pair", text);
		return encode_pair(p, o, f, &v, &flags, text);
	}
	case AGX_KIND_ASYNCTUPLE:
		if (!parse_tuple(s, &v) || v.bits != 32)
			return fail(p, "'%s' is no tuple of 32-bit registers or uniforms", s);
		f->type = v.type == AGX_VALUE_UNIFORM;
		f->value = v.index;
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_MEMREG:
	case AGX_KIND_TGREG:
		if (!parse_tuple(s, &v) || v.type != AGX_VALUE_REG)
			return fail(p, "bad register tuple '%s'", s);
		f->type = v.bits == 32;
		if (!fits(&o->type, f->type))
			return fail(p, "'%s': %s takes 16-bit registers here", s, in->desc->name);
		f->value = v.bits == 32 ? v.index << 1 : v.index;
		/* the count must agree with the mask; checked after all operands */
		p->tuple_len[i] = v.count;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_OPT:
	case AGX_KIND_IGNORED: {
		size_t len = strlen(o->name);

		if (!named_token(s, o->name) || !parse_integer(s + len + 1, &n) || n <= 0 ||
		    n > 0xffffffffll || !fits(&o->value, (uint32_t)n))
			return fail(p, "bad %s '%s'", o->name, s);
		f->value = (uint32_t)n;
		return 0;
	}
	default:
		break;
	}

	/* Registers and immediates with flags. */
	take_flags(s, &v);
	if ((v.odd || v.wide) &&
	    !(o->kind == AGX_KIND_DST || o->kind == AGX_KIND_DST16 || o->kind == AGX_KIND_SRC ||
	      o->kind == AGX_KIND_MULSRC || o->kind == AGX_KIND_FSRC))
		return fail(p, "'%s' cannot be encoded as %s", text, o->name);
	if (parse_reg(s, &v)) {
		v.count = 1;
	} else if ((o->kind == AGX_KIND_FSRC || o->kind == AGX_KIND_FSRC16) && s[0] != 'r' &&
		   s[0] != 'u') {
		unsigned bits;

		if (!parse_float_imm(s, &bits))
			return fail(p, "'%s' is not an 8-bit float immediate", s);
		v.type = AGX_VALUE_IMM;
		v.imm = bits;
	} else if (parse_integer(s, &n)) {
		v.type = AGX_VALUE_IMM;
		v.imm = n;
	} else {
		return fail(p, "cannot read operand '%s'", text);
	}

	switch (o->kind) {
	case AGX_KIND_DST:
	case AGX_KIND_DST64:
	case AGX_KIND_DST16:
	case AGX_KIND_DST32:
		if (v.type != AGX_VALUE_REG || v.discard || v.abs || v.neg || v.sx)
			return fail(p, "'%s' is no destination register", text);
		if ((o->kind == AGX_KIND_DST16 && v.bits != 16) ||
		    (o->kind == AGX_KIND_DST32 && v.bits != 32) ||
		    (o->kind == AGX_KIND_DST && v.bits == 64))
			return fail(p, "'%s' has the wrong size", text);
		if ((v.odd && (o->kind != AGX_KIND_DST || v.bits != 32)) ||
		    (v.wide && (o->kind != AGX_KIND_DST16 || type_bits != 2)))
			return fail(p, "'%s' cannot be encoded as %s", text, o->name);
		if (o->kind == AGX_KIND_DST16 || o->kind == AGX_KIND_DST32) {
			f->type = v.cache | (v.wide ? 2 : 0);
			f->value = v.bits == 32 ? v.index << 1 : v.index;
		} else {
			f->type = v.cache | (v.bits > 16 ? 2 : 0);
			f->value = v.bits == 16 ? v.index : v.index << 1 | (v.bits == 64 || v.odd);
		}
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_R0L:
		if (v.type != AGX_VALUE_REG || v.bits != 16 || v.index != 0)
			return fail(p, "expected r0l, got '%s'", text);
		f->type = v.cache;
		return 0;
	case AGX_KIND_SRC:
	case AGX_KIND_SRC64:
	case AGX_KIND_SRC16:
	case AGX_KIND_ADDSRC:
	case AGX_KIND_MULSRC: {
		unsigned max = src_max_bits(o->kind);

		if (v.abs || v.neg || (v.sx && !o->sx.count) || (v.sx && v.type == AGX_VALUE_IMM))
			return fail(p, "modifier not allowed on '%s'", text);
		if (!encode_src(&v, type_bits, max, f))
			return fail(p, "'%s' cannot be encoded as %s", text, o->name);
		f->sx = v.sx;
		return 0;
	}
	case AGX_KIND_FSRC:
	case AGX_KIND_FSRC16:
		if (v.sx || !encode_src(&v, type_bits, src_max_bits(o->kind), f))
			return fail(p, "'%s' cannot be encoded as %s", text, o->name);
		f->mod = (v.abs ? 1 : 0) | (v.neg ? 2 : 0);
		return 0;
	case AGX_KIND_CMPSEL: {
		unsigned bits = dest_bits(in);

		if (v.abs || v.neg || v.sx)
			return fail(p, "modifier not allowed on '%s'", text);
		if (v.type == AGX_VALUE_IMM) {
			if (v.imm < 0 || v.imm > 255)
				return fail(p, "immediate out of range");
			f->type = 4;
			f->value = (uint32_t)v.imm;
			return 0;
		}
		if (v.bits != bits)
			return fail(p, "'%s' must be %u-bit like the destination", text, bits);
		if (v.type == AGX_VALUE_UNIFORM) {
			unsigned idx = bits == 32 ? v.index << 1 : v.index;

			if (idx > 0x1ff)
				return fail(p, "uniform out of range");
			f->type = 6 | (idx >> 8);
			f->value = idx & 0xff;
			return 0;
		}
		f->type = hint_bits(&v);
		f->value = bits == 32 ? v.index << 1 : v.index;
		return f->value <= 0xff ? 0 : fail(p, "register out of range");
	}
	case AGX_KIND_MEMBASE:
		if (v.bits != 64 || v.cache || v.discard || v.abs || v.neg || v.sx)
			return fail(p, "'%s' is no 64-bit base", text);
		f->type = v.type == AGX_VALUE_UNIFORM;
		f->value = v.index << 1;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_MEMINDEX:
	case AGX_KIND_TGINDEX:
		if (v.type == AGX_VALUE_IMM) {
			if (v.imm < -32768 || v.imm > 32767)
				return fail(p, "offset out of range");
			f->type = 1;
			f->value = (uint32_t)v.imm & 0xffff;
			/* tex_state_store's immediate has 8 bits */
			return fits(&o->value, f->value) ? 0 : fail(p, "offset out of range");
		}
		if (v.type != AGX_VALUE_REG || v.bits != (o->kind == AGX_KIND_MEMINDEX ? 32u : 16u))
			return fail(p, "'%s' cannot be an offset here", text);
		f->type = 0;
		f->value = o->kind == AGX_KIND_MEMINDEX ? v.index << 1 : v.index;
		return f->value < 0x100 ? 0 : fail(p, "register out of range");
	case AGX_KIND_GPR32:
	case AGX_KIND_GPR16:
		if (v.type != AGX_VALUE_REG || v.bits != (o->kind == AGX_KIND_GPR32 ? 32u : 16u) ||
		    v.cache || v.discard)
			return fail(p, "'%s' is no %u-bit register", text,
				    o->kind == AGX_KIND_GPR32 ? 32u : 16u);
		f->value = v.index;
		return fits(&o->value, f->value) ? 0 : fail(p, "register out of range");
	case AGX_KIND_SAMPLEMASK:
	case AGX_KIND_IMMR16:
		if (v.type == AGX_VALUE_IMM && v.imm >= 0 && v.imm <= 255) {
			f->type = imm_type(o->kind);
			f->value = (uint32_t)v.imm;
			return 0;
		}
		if (v.type != AGX_VALUE_REG || v.bits != 16 || v.index > 255 || v.cache ||
		    v.discard)
			return fail(p,
				    o->kind == AGX_KIND_SAMPLEMASK
					? "'%s' cannot be a sample mask"
					: "'%s' is no 8-bit immediate or r16",
				    text);
		f->type = !imm_type(o->kind);
		f->value = v.index;
		return 0;
	case AGX_KIND_TGBASE:
		if (v.type == AGX_VALUE_IMM && v.imm == 0) {
			f->type = 2;
			f->value = 0;
			return 0;
		}
		if (v.bits != 16 || (v.type == AGX_VALUE_REG && v.index > 0xff) || v.index > 0x1ff)
			return fail(p, "'%s' cannot be a threadgroup base", text);
		f->type = v.type == AGX_VALUE_UNIFORM ? 1 | (v.index >> 8) << 1 : 0;
		f->value = v.index & 0xff;
		return 0;
	default:
		return fail(p, "operand '%s' is not expected", text);
	}
}

/* Splits "a, b, c" at top-level commas into at most max trimmed pieces. */
static int split_operands(char *s, char **out, int max)
{
	int n = 0;

	while (*s) {
		char *comma = strchr(s, ',');
		char *end;

		if (n == max)
			return -1;
		if (comma)
			*comma = '\0';
		while (isspace((unsigned char)*s))
			s++;
		end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			*--end = '\0';
		out[n++] = s;
		if (!comma)
			break;
		s = comma + 1;
	}
	return n;
}

static int parse_with(struct parser *p, const struct agx_isa_desc *d, bool alt, bool sat,
		      char **ops, int nops, int64_t pc, struct agx_isa_instr *in)
{
	int k = 0;

	memset(in, 0, sizeof(*in));
	in->desc = d;
	in->alt = alt;
	in->sat = sat;
	p->progress = 0;
	for (unsigned i = 0; i < d->num_operands; i++) {
		enum agx_isa_kind kind = d->operands[i].kind;

		p->progress = (unsigned)k;
		/* lsl and mask are omitted when they are the default */
		if ((kind == AGX_KIND_SHIFT && (k >= nops || strncmp(ops[k], "lsl ", 4))) ||
		    (kind == AGX_KIND_MASK && (k >= nops || strncmp(ops[k], "mask ", 5))) ||
		    ((kind == AGX_KIND_IGNORED || kind == AGX_KIND_OPT) &&
		     (k >= nops || !named_token(ops[k], d->operands[i].name))) ||
		    (kind == AGX_KIND_CFPERSP && (k >= nops || strncmp(ops[k], "cf", 2))) ||
		    (kind == AGX_KIND_TEXUREG &&
		     (k >= nops || ops[k][0] != 'u' || !strchr(ops[k], '_'))) ||
		    (kind == AGX_KIND_CMPOFF && (k >= nops || ops[k][0] != 'r')))
			continue;
		if (k >= nops)
			return fail(p, "%s needs more operands", d->name);
		if (parse_operand(p, in, i, ops[k++], pc) < 0)
			return -1;
	}
	p->progress = (unsigned)k + 1;
	if (k != nops)
		return fail(p, "%s takes fewer operands", d->name);
	/* every operand must now mean something; tuples must match their mask */
	for (unsigned i = 0; i < d->num_operands; i++) {
		struct agx_isa_value v;

		if (!agx_isa_operand_value(in, i, pc, &v))
			return fail(p, "%s: operand %s cannot be encoded", d->name,
				    d->operands[i].name);
		if (d->operands[i].kind == AGX_KIND_CMPOFF &&
		    (p->tuple_len[i] != 0) != (named_field(in, "compare") != 0))
			return fail(p, "%s: a compare value goes with compare 1", d->name);
		if ((d->operands[i].kind == AGX_KIND_MEMREG ||
		     d->operands[i].kind == AGX_KIND_TGREG ||
		     d->operands[i].kind == AGX_KIND_ATOMSRC ||
		     d->operands[i].kind == AGX_KIND_ZSREG ||
		     d->operands[i].kind == AGX_KIND_ASYNCTUPLE ||
		     d->operands[i].kind == AGX_KIND_COORDS ||
		     (d->operands[i].kind == AGX_KIND_LOD && v.type != AGX_VALUE_IMM)) &&
		    v.count != p->tuple_len[i])
			return fail(p, "%s: %u registers for a mask of %u", d->name,
				    p->tuple_len[i], v.count);
	}
	return 0;
}

int agx_isa_parse(const char *line, int64_t pc, struct agx_isa_instr *in, char *err, size_t errsize)
{
	struct parser p = { .err = err, .errsize = errsize };
	char buf[AGX_ISA_MAX_TEXT * 2], mnem[64], *ops[AGX_ISA_MAX_OPERANDS + 1], *rest;
	int nops;
	size_t mlen;
	bool sat = false;
	char besterr[160] = "";
	int best = -1;

	snprintf(buf, sizeof(buf), "%s", line);
	rest = buf;
	while (isspace((unsigned char)*rest))
		rest++;
	mlen = strcspn(rest, " \t");
	if (!mlen || mlen >= sizeof(mnem))
		return fail(&p, "no mnemonic");
	memcpy(mnem, rest, mlen);
	mnem[mlen] = '\0';
	rest += mlen;
	nops = split_operands(rest, ops, AGX_ISA_MAX_OPERANDS + 1);
	if (nops < 0)
		return fail(&p, "too many operands");

	/* Aliases first: they rewrite the operand list of their instruction. */
	static const struct {
		const char *alias, *tt;
		enum agx_op op;
		int unary;
	} bitops[] = {
		{ "and", "0001", AGX_OP_BITOP, 0 }, { "or", "0111", AGX_OP_BITOP, 0 },
		{ "xor", "0110", AGX_OP_BITOP, 0 }, { "nand", "1110", AGX_OP_BITOP, 0 },
		{ "nor", "1000", AGX_OP_BITOP, 0 }, { "not", "1010", AGX_OP_BITOP, 1 },
		{ "mov", "0101", AGX_OP_BITOP, 1 },
	};
	char *aliased[AGX_ISA_MAX_OPERANDS + 2];
	char ttbuf[8], zero[] = "0", eq[] = "eq", fz[] = "0.0";

	for (unsigned k = 0; k < sizeof(bitops) / sizeof(bitops[0]); k++) {
		if (strcmp(mnem, bitops[k].alias))
			continue;
		if (nops != (bitops[k].unary ? 2 : 3))
			return fail(&p, "%s takes %d operands", mnem, bitops[k].unary ? 2 : 3);
		snprintf(ttbuf, sizeof(ttbuf), "%s", bitops[k].tt);
		aliased[0] = ttbuf;
		for (int j = 0; j < nops; j++)
			aliased[j + 1] = ops[j];
		if (bitops[k].unary)
			aliased[3] = zero;
		return parse_with(&p, &agx_isa_table[bitops[k].op], false, false, aliased, 4, pc,
				  in);
	}
	if (!strcmp(mnem, "bitop_mov_a"))
		return parse_with(&p, &agx_isa_table[AGX_OP_BITOP], false, false, ops, nops, pc,
				  in);
	if (!strcmp(mnem, "update_exec") || !strcmp(mnem, "push_exec") ||
	    !strcmp(mnem, "else_exec")) {
		bool update = mnem[0] == 'u';

		if (nops != (update ? 1 : 2))
			return fail(&p, "%s takes %d operands", mnem, update ? 1 : 2);
		aliased[0] = ops[0];
		aliased[1] = eq;
		aliased[2] = fz;
		aliased[3] = fz;
		aliased[4] = update ? zero : ops[1];
		return parse_with(
		    &p, &agx_isa_table[mnem[0] == 'e' ? AGX_OP_ELSE_FCMP : AGX_OP_IF_FCMP], false,
		    false, aliased, 5, pc, in);
	}

	if (mlen > 4 && !strcmp(mnem + mlen - 4, ".sat")) {
		sat = true;
		mnem[mlen - 4] = '\0';
	}
	for (unsigned op = 0; op < AGX_NUM_OPS; op++) {
		const struct agx_isa_desc *d = &agx_isa_table[op];
		bool alt = d->alt_name && !strcmp(mnem, d->alt_name);

		if (strcmp(mnem, d->name) && !alt)
			continue;
		if (sat && d->sat_bit < 0)
			return fail(&p, "%s has no .sat form", mnem);
		if (parse_with(&p, d, alt, sat, ops, nops, pc, in) == 0)
			return 0;
		/* of several forms, report the one that came closest */
		if ((int)p.progress > best) {
			best = (int)p.progress;
			snprintf(besterr, sizeof(besterr), "%s", err);
		}
	}
	if (best >= 0)
		return fail(&p, "%s", besterr);
	return fail(&p, "unknown mnemonic '%s'", mnem);
}

int agx_isa_disassemble(const uint8_t *code, size_t len, FILE *out)
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
			snprintf(hex + 2 * i, 3, "%02x", code[pc + i]);
		if (fprintf(out, "%6zx: %-24s %s\n", pc, hex, text) < 0)
			return -1;
		pc += size;
	}
	return 0;
}

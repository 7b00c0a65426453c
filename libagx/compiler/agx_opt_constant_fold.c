/*
 * agx_opt_constant_fold.c: constant folding.  An instruction whose sources
 * are all immediates becomes an immediate, computed bit for bit as the G13
 * hardware computes it (docs/isa.md, "What the simulator does"), so that
 * folded and unfolded code agree: f32 sources and results flush denormals
 * to zero, a NaN result is the canonical one (f32 0x7fc00000, f16 0x7e00),
 * f16 is not flushed and rounds once, to nearest even.  bcsel with an
 * immediate condition becomes the source it picks, whatever the others.
 *
 * Not folded: the ops whose hardware results are approximations we cannot
 * reproduce (frcp, frsqrt, fsqrt, fexp2, flog2, fsin, fcos, fpow, fdiv --
 * lowered to a * frcp b -- frsqrt_special, fsin_pt_*), integer division by
 * zero (undefined in GLSL), ops without sources, and the few cases where
 * the result depends on how selection spells the op (below: fneg and fabs
 * of NaN or of an f32 denormal; fmin and fmax of equal values with
 * different bits, or of two NaNs).  A folded instruction is removed.
 */
#include <math.h>
#include <string.h>

#include "agx_ir.h"

#define F32_CANONICAL_NAN 0x7fc00000u
#define F16_CANONICAL_NAN 0x7e00u

/* ---- f32 ----------------------------------------------------------------------- */

static bool nan32(uint32_t u)
{
	return (u & 0x7fffffffu) > 0x7f800000u;
}

static bool denormal32(uint32_t u)
{
	return !(u & 0x7f800000u) && (u & 0x7fffffu);
}

/* A source as the float unit reads it: a denormal is a zero of its sign. */
static float in32(uint32_t u)
{
	float f;

	if (!(u & 0x7f800000u))
		u &= 0x80000000u;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* A result as the float unit writes it: canonical NaN, denormals flushed. */
static uint32_t out32(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	if (nan32(u))
		return F32_CANONICAL_NAN;
	if (!(u & 0x7f800000u))
		u &= 0x80000000u;
	return u;
}

/* ---- f16 ----------------------------------------------------------------------- */

static bool nan16(uint32_t h)
{
	return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

static bool inf16(uint32_t h)
{
	return (h & 0x7fffu) == 0x7c00u;
}

/* A finite half's magnitude in units of 2^-24 (below 2^40). */
static uint64_t units16(uint32_t h)
{
	uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;

	return e ? (uint64_t)(m | 0x400) << (e - 1) : m;
}

/*
 * The half nearest to m * 2^-48 (ties to even), with the sign: the unit
 * of the result is 2^-24 below the normal range, and eleven significant
 * bits within it; past 65504 and its half ulp, infinity.
 */
static uint32_t round16(bool negative, unsigned __int128 m)
{
	uint64_t hi = (uint64_t)(m >> 64), lo = (uint64_t)m;
	unsigned top, shift;
	unsigned __int128 q, rest, half;
	uint64_t bits;

	if (!m)
		return negative ? 0x8000u : 0;
	top = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
	shift = top > 34 ? top - 10 : 24;
	q = m >> shift;
	rest = m & (((unsigned __int128)1 << shift) - 1);
	half = (unsigned __int128)1 << (shift - 1);
	if (rest > half || (rest == half && (q & 1)))
		q++;
	/* exponent field and fraction in one add: a carry to 2048 lands on the next exponent */
	bits = ((uint64_t)(shift - 24) << 10) + (uint64_t)q;
	if (bits > 0x7c00u)
		bits = 0x7c00u; /* infinity */
	return (negative ? 0x8000u : 0) | (uint32_t)bits;
}

/* a * b + c in halves, rounded once; fadd16 is a * 1 + c, fmul16 a * b + 0. */
static uint32_t fma16(uint32_t a, uint32_t b, uint32_t c)
{
	bool sp = ((a ^ b) >> 15) & 1, sc = (c >> 15) & 1;
	__int128 p, s;

	if (nan16(a) || nan16(b) || nan16(c))
		return F16_CANONICAL_NAN;
	if (inf16(a) || inf16(b)) {
		if (!(a & 0x7fff) || !(b & 0x7fff))
			return F16_CANONICAL_NAN; /* infinity times zero */
		if (inf16(c) && sc != sp)
			return F16_CANONICAL_NAN;
		return (sp ? 0x8000u : 0) | 0x7c00u;
	}
	if (inf16(c))
		return c;
	p = (__int128)units16(a) * (__int128)units16(b); /* units of 2^-48 */
	s = (sp ? -p : p) + (sc ? -1 : 1) * ((__int128)units16(c) << 24);
	if (!s) /* an exact zero: -0 only when both parts were -0 */
		return sp && sc ? 0x8000u : 0;
	return round16(s < 0, s < 0 ? (unsigned __int128)-s : (unsigned __int128)s);
}

static uint32_t f16_from_float_exact(float f)
{
	return agx_ir_f32_to_f16(f);
}

/* ---- floats of either size -------------------------------------------------------- */

/* The value the float unit reads (an f32 denormal as zero), exactly, as a double. */
static double fvalue(enum agx_ir_type type, uint32_t bits)
{
	return type == AGX_IR_TYPE_F16 ? (double)agx_ir_f16_to_f32((uint16_t)bits)
				       : (double)in32(bits);
}

static bool fnan(enum agx_ir_type type, uint32_t bits)
{
	return type == AGX_IR_TYPE_F16 ? nan16(bits) : nan32(bits);
}

static uint32_t fadd_bits(enum agx_ir_type type, uint32_t a, uint32_t b)
{
	if (type == AGX_IR_TYPE_F16)
		return fma16(a, 0x3c00u, b);
	return out32(in32(a) + in32(b));
}

/* floor, ceil, trunc, round-even: exact, so the f16 ones go through f32 and back. */
static uint32_t fround_bits(enum agx_ir_op op, enum agx_ir_type type, uint32_t a)
{
	float x = type == AGX_IR_TYPE_F16 ? agx_ir_f16_to_f32((uint16_t)a) : in32(a), r;

	if (fnan(type, a))
		return type == AGX_IR_TYPE_F16 ? F16_CANONICAL_NAN : F32_CANONICAL_NAN;
	switch (op) {
	case AGX_IR_OP_ffloor:
		r = floorf(x);
		break;
	case AGX_IR_OP_fceil:
		r = ceilf(x);
		break;
	case AGX_IR_OP_ftrunc:
		r = truncf(x);
		break;
	default:
		r = nearbyintf(x); /* the default rounding: to nearest even */
		break;
	}
	return type == AGX_IR_TYPE_F16 ? f16_from_float_exact(r) : out32(r);
}

/*
 * fmin and fmax are compare-selects (docs/isa.md: fcmpsel ltn / gtn): the
 * comparison reads flushed values and a NaN loses, the select passes the
 * chosen source's bits as they are.  Which of two equal values (+0 and -0,
 * an f32 denormal and a zero) or two NaNs comes out depends on the order
 * selection gives the sources, and fmin is COMMUTATIVE in the IR, so those
 * stay unfolded.
 */
static bool fminmax_bits(enum agx_ir_type type, bool max, uint32_t a, uint32_t b, uint32_t *out)
{
	bool na = fnan(type, a), nb = fnan(type, b);
	double x = fvalue(type, a), y = fvalue(type, b);

	if (a == b) {
		*out = a;
		return true;
	}
	if (na && nb)
		return false;
	if (na || nb) {
		*out = na ? b : a;
		return true;
	}
	if (x == y)
		return false;
	*out = (x < y) != max ? a : b;
	return true;
}

/* f2i, f2u: toward zero, saturated to the destination, NaN to 0. */
static uint32_t f2int_bits(enum agx_ir_type src_type, uint32_t a, unsigned bits, bool is_signed)
{
	double x = fvalue(src_type, a);
	double lo = is_signed ? -ldexp(1.0, (int)bits - 1) : 0.0;
	double hi = is_signed ? ldexp(1.0, (int)bits - 1) - 1.0 : ldexp(1.0, (int)bits) - 1.0;
	int64_t v;

	if (fnan(src_type, a))
		return 0;
	x = trunc(x);
	x = x < lo ? lo : x > hi ? hi : x;
	v = (int64_t)x;
	return (uint32_t)v & (bits == 32 ? 0xffffffffu : 0xffffu);
}

/* i2f, u2f: to nearest even (never NaN, never an f32 denormal). */
static uint32_t int2f_bits(enum agx_ir_type dest_type, int64_t v)
{
	if (dest_type == AGX_IR_TYPE_F16) {
		uint64_t m = v < 0 ? (uint64_t)-v : (uint64_t)v;

		return round16(v < 0, (unsigned __int128)m << 48);
	}
	return out32((float)v); /* exact in int64, rounded once to float */
}

/* ---- integers ---------------------------------------------------------------------- */

static uint32_t mask_of(unsigned bits)
{
	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

static int64_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? (int64_t)(int32_t)v : (int64_t)(int16_t)(uint16_t)v;
}

/* ---- the fold ------------------------------------------------------------------------ */

/* Integer ops of the instruction's size; false when not folded (x / 0). */
static bool fold_int(enum agx_ir_op op, unsigned bits, uint32_t a, uint32_t b, uint32_t *out)
{
	uint32_t m = mask_of(bits), sh = b & (bits - 1);
	int64_t sa = sext(a, bits), sb = sext(b, bits);
	uint64_t r;

	switch (op) {
	case AGX_IR_OP_iadd:
		r = (uint64_t)a + b;
		break;
	case AGX_IR_OP_isub:
		r = (uint64_t)a - b;
		break;
	case AGX_IR_OP_imul:
		r = (uint64_t)a * b;
		break;
	case AGX_IR_OP_ineg:
		r = -(uint64_t)a;
		break;
	case AGX_IR_OP_idiv:
	case AGX_IR_OP_irem:
		if (!sb)
			return false;
		/* in 64 bits INT_MIN / -1 is 2^31, which wraps to INT_MIN (agx_lower_alu's too) */
		r = (uint64_t)(op == AGX_IR_OP_idiv ? sa / sb : sa % sb);
		break;
	case AGX_IR_OP_udiv:
	case AGX_IR_OP_umod:
		if (!b)
			return false;
		r = op == AGX_IR_OP_udiv ? a / b : a % b;
		break;
	case AGX_IR_OP_iand:
		r = a & b;
		break;
	case AGX_IR_OP_ior:
		r = a | b;
		break;
	case AGX_IR_OP_ixor:
		r = a ^ b;
		break;
	case AGX_IR_OP_inot:
		r = ~a;
		break;
	case AGX_IR_OP_ishl: /* counts modulo the size (agx_ir_ops.h) */
		r = (uint64_t)a << sh;
		break;
	case AGX_IR_OP_ishr:
		r = (uint64_t)(sa >> sh);
		break;
	case AGX_IR_OP_ushr:
		r = a >> sh;
		break;
	case AGX_IR_OP_imin:
		r = (uint64_t)(sa < sb ? sa : sb);
		break;
	case AGX_IR_OP_imax:
		r = (uint64_t)(sa > sb ? sa : sb);
		break;
	case AGX_IR_OP_umin:
		r = a < b ? a : b;
		break;
	case AGX_IR_OP_umax:
		r = a > b ? a : b;
		break;
	case AGX_IR_OP_imul_high:
		r = (uint64_t)(sa * sb) >> 32;
		break;
	case AGX_IR_OP_umul_high:
		r = ((uint64_t)a * b) >> 32;
		break;
	case AGX_IR_OP_ieq:
		r = a == b;
		break;
	case AGX_IR_OP_ine:
		r = a != b;
		break;
	case AGX_IR_OP_ilt:
		r = sa < sb;
		break;
	case AGX_IR_OP_ige:
		r = sa >= sb;
		break;
	case AGX_IR_OP_ult:
		r = a < b;
		break;
	case AGX_IR_OP_uge:
		r = a >= b;
		break;
	default:
		return false;
	}
	/* comparisons give a b1, already 0 or 1 */
	*out = (uint32_t)r & m;
	return true;
}

/* Float ops; false when not folded. */
static bool fold_float(enum agx_ir_op op, enum agx_ir_type t, const uint32_t *v, uint32_t *out)
{
	bool half = t == AGX_IR_TYPE_F16;
	uint32_t sign = half ? 0x8000u : 0x80000000u;
	uint32_t a = v[0], b = v[1], c = v[2];

	switch (op) {
	case AGX_IR_OP_fadd:
		*out = fadd_bits(t, a, b);
		return true;
	case AGX_IR_OP_fsub: /* fadd a, (fneg b): the negation after the read */
		*out = half ? fma16(a, 0x3c00u, b ^ sign) : out32(in32(a) + -in32(b));
		return true;
	case AGX_IR_OP_fmul: /* applegpu fma.py: fma(a, b, +0), so -0 * x is +0 */
		*out = half ? fma16(a, b, 0) : out32(fmaf(in32(a), in32(b), 0.0f));
		return true;
	case AGX_IR_OP_ffma:
		*out = half ? fma16(a, b, c) : out32(fmaf(in32(a), in32(b), in32(c)));
		return true;
	case AGX_IR_OP_fneg:
	case AGX_IR_OP_fabs:
		/* a source modifier or a move, as selection likes: only where both agree */
		if (fnan(t, a) || (!half && denormal32(a)))
			return false;
		*out = op == AGX_IR_OP_fneg ? a ^ sign : a & ~sign;
		return true;
	case AGX_IR_OP_fmin:
	case AGX_IR_OP_fmax:
		return fminmax_bits(t, op == AGX_IR_OP_fmax, a, b, out);
	case AGX_IR_OP_ffloor:
	case AGX_IR_OP_fceil:
	case AGX_IR_OP_ftrunc:
	case AGX_IR_OP_fround_even:
		*out = fround_bits(op, t, a);
		return true;
	case AGX_IR_OP_ffract: { /* fadd a, (fneg (ffloor a)), as agx_lower_alu makes it */
		uint32_t f = fround_bits(AGX_IR_OP_ffloor, t, a);

		*out = half ? fma16(a, 0x3c00u, f ^ sign) : out32(in32(a) + -in32(f));
		return true;
	}
	default:
		return false;
	}
}

/* Comparisons of floats: fne is unordered, the others ordered (agx_ir_ops.h). */
static bool fold_fcompare(enum agx_ir_op op, enum agx_ir_type t, uint32_t a, uint32_t b,
			  uint32_t *out)
{
	double x = fvalue(t, a), y = fvalue(t, b);
	bool unordered = fnan(t, a) || fnan(t, b);

	switch (op) {
	case AGX_IR_OP_feq:
		*out = !unordered && x == y;
		return true;
	case AGX_IR_OP_fne:
		*out = unordered || x != y;
		return true;
	case AGX_IR_OP_flt:
		*out = !unordered && x < y;
		return true;
	case AGX_IR_OP_fge:
		*out = !unordered && x >= y;
		return true;
	default:
		return false;
	}
}

static bool fold_convert(enum agx_ir_op op, enum agx_ir_type dt, enum agx_ir_type st, uint32_t a,
			 uint32_t *out)
{
	unsigned dbits = agx_ir_type_bits(dt), sbits = agx_ir_type_bits(st);

	switch (op) {
	case AGX_IR_OP_f2i:
	case AGX_IR_OP_f2u:
		*out = f2int_bits(st, a, dbits, op == AGX_IR_OP_f2i);
		return true;
	case AGX_IR_OP_i2f:
		*out = int2f_bits(dt, sext(a, sbits));
		return true;
	case AGX_IR_OP_u2f:
		*out = int2f_bits(dt, (int64_t)(a & mask_of(sbits)));
		return true;
	case AGX_IR_OP_f2f16: /* a float-unit move to a half: flushed, rounded, canonical NaN */
		*out = nan32(a) ? F16_CANONICAL_NAN : agx_ir_f32_to_f16(in32(a));
		return true;
	case AGX_IR_OP_f2f32: /* exact, but the write makes a NaN canonical */
		*out = nan16(a) ? F32_CANONICAL_NAN : out32(agx_ir_f16_to_f32((uint16_t)a));
		return true;
	case AGX_IR_OP_i2i16:
		*out = a & 0xffffu;
		return true;
	case AGX_IR_OP_i2i32:
		*out = (uint32_t)sext(a, 16);
		return true;
	case AGX_IR_OP_u2u32:
		*out = a & 0xffffu;
		return true;
	case AGX_IR_OP_b2f:
		*out = !a ? 0 : dt == AGX_IR_TYPE_F16 ? 0x3c00u : 0x3f800000u;
		return true;
	case AGX_IR_OP_b2i:
		*out = a ? 1 : 0;
		return true;
	case AGX_IR_OP_mov:
	case AGX_IR_OP_bitcast:
		*out = a;
		return true;
	default:
		return false;
	}
}

static bool fold_bool(enum agx_ir_op op, uint32_t a, uint32_t b, uint32_t *out)
{
	switch (op) {
	case AGX_IR_OP_band:
		*out = a & b;
		return true;
	case AGX_IR_OP_bor:
		*out = a | b;
		return true;
	case AGX_IR_OP_bxor:
		*out = a ^ b;
		return true;
	case AGX_IR_OP_bnot:
		*out = !a;
		return true;
	default:
		return false;
	}
}

/* The result of instr, whose sources are all immediates; false when it is not folded. */
static bool fold(const struct agx_ir_instr *instr, uint32_t *out)
{
	enum agx_ir_type dt = instr->dest.type, st = agx_ir_src_type(&instr->src[0]);
	uint32_t v[AGX_IR_MAX_SRCS] = { 0 };

	for (unsigned i = 0; i < instr->num_srcs && i < AGX_IR_MAX_SRCS; i++)
		v[i] = instr->src[i].imm;
	switch (instr->op) {
	case AGX_IR_OP_feq:
	case AGX_IR_OP_fne:
	case AGX_IR_OP_flt:
	case AGX_IR_OP_fge:
		return fold_fcompare(instr->op, st, v[0], v[1], out);
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ine:
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ige:
	case AGX_IR_OP_ult:
	case AGX_IR_OP_uge:
		return fold_int(instr->op, agx_ir_type_bits(st), v[0], v[1], out);
	default:
		break;
	}
	if (fold_bool(instr->op, v[0], v[1], out) || fold_convert(instr->op, dt, st, v[0], out))
		return true;
	if (agx_ir_type_is_float(dt))
		return fold_float(instr->op, dt, v, out);
	if (agx_ir_type_is_int(dt))
		return fold_int(instr->op, agx_ir_type_bits(dt), v[0], v[1], out);
	return false;
}

static bool all_immediate(const struct agx_ir_instr *instr)
{
	if (!instr->num_srcs)
		return false;
	for (unsigned i = 0; i < instr->num_srcs; i++) {
		if (instr->src[i].def)
			return false;
	}
	return true;
}

static bool fold_instr(struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);
	uint32_t bits;

	if (!(info->flags & AGX_IR_PURE) || info->dest == AGX_IR_CLASS_NONE)
		return false;
	if (instr->op == AGX_IR_OP_bcsel && !instr->src[0].def) {
		agx_ir_def_rewrite_uses(&instr->dest,
					agx_ir_src_value(&instr->src[instr->src[0].imm ? 1 : 2]));
		agx_ir_instr_remove(instr);
		return true;
	}
	if (!all_immediate(instr) || !fold(instr, &bits))
		return false;
	bits &= mask_of(agx_ir_type_bits(instr->dest.type));
	agx_ir_def_rewrite_uses(&instr->dest, agx_ir_imm(instr->dest.type, bits));
	agx_ir_instr_remove(instr);
	return true;
}

bool agx_opt_constant_fold(struct agx_ir_shader *shader)
{
	bool progress = false;

	/* program order: a fold's immediate reaches its readers before they are looked at */
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, instr)
				progress |= fold_instr(instr);
		}
	}
	return progress;
}

/*
 * agx_opt_algebraic.c: algebraic simplification.  Rewrites an instruction
 * into one of its sources, an immediate, or a cheaper op, by identities
 * that hold bit for bit on the G13 (docs/compiler.md, "Optimizations",
 * lists them).  Integer identities are exact as they stand (integers wrap,
 * shift counts are taken modulo the size).
 *
 * Float identities are few, because the float unit flushes f32 denormals
 * on its inputs and outputs and writes one canonical NaN: fmul x, 1.0 is
 * x flushed and canonicalized, which is x itself only when x already is.
 * So "x * 1.0 = x", "x + -0.0 = x", "x - 0.0 = x" and "-(-x) = x" are
 * applied only to an x that the float unit wrote (an arithmetic op or a
 * conversion to float) -- not to a load, a select, a phi, a bitcast or an
 * fneg/fabs, whose bits pass through unflushed.  x + 0.0 is never x
 * (-0 + 0 is +0), x * 0.0 is never 0 (NaN, infinity, the sign), x * 2.0
 * stays a multiplication (exact already).  Identities between float ops
 * of one rounding are exact for any x: ffma a, 1.0, c is fadd a, c, and
 * ffma a, b, +0.0 is fmul a, b (the ISA's fmul is that fma: applegpu
 * fma.py).  b2i/b2f of immediates are constant folding's.
 */
#include "agx_builder.h"

static uint32_t mask_of(unsigned bits)
{
	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

static bool is_imm(const struct agx_ir_src *src, uint32_t bits)
{
	return !src->def && src->imm == bits;
}

static bool same_value(const struct agx_ir_src *a, const struct agx_ir_src *b)
{
	if (a->def || b->def)
		return a->def == b->def;
	return a->imm == b->imm && a->type == b->type;
}

static struct agx_ir_instr *def_instr(const struct agx_ir_src *src, enum agx_ir_op op)
{
	return src->def && src->def->instr->op == op ? src->def->instr : NULL;
}

/* The power of two k is 1 << n; -1 otherwise. */
static int log2_exact(uint32_t k)
{
	return k && !(k & (k - 1)) ? __builtin_ctz(k) : -1;
}

/*
 * Whether the value has the bits the float unit would write for it: its
 * writer rounds through the float unit (canonical NaN, f32 denormals
 * flushed), or it is an immediate that is neither an f32 denormal nor a
 * NaN other than the canonical one.  The LOWERED ops count: each becomes
 * a float-unit op last (fsub an fadd, fdiv and fsqrt an fmul, ...).
 */
static bool float_unit_result(const struct agx_ir_src *src)
{
	if (!src->def) {
		if (src->type == AGX_IR_TYPE_F16)
			return (src->imm & 0x7c00u) != 0x7c00u || src->imm == 0x7e00u ||
			       !(src->imm & 0x3ffu);
		if ((src->imm & 0x7fffffffu) > 0x7f800000u)
			return src->imm == 0x7fc00000u;
		return (src->imm & 0x7f800000u) || !(src->imm & 0x7fffffu);
	}
	switch (src->def->instr->op) {
	case AGX_IR_OP_fadd:
	case AGX_IR_OP_fsub:
	case AGX_IR_OP_fmul:
	case AGX_IR_OP_ffma:
	case AGX_IR_OP_fdiv:
	case AGX_IR_OP_ffloor:
	case AGX_IR_OP_fceil:
	case AGX_IR_OP_ftrunc:
	case AGX_IR_OP_fround_even:
	case AGX_IR_OP_ffract:
	case AGX_IR_OP_frcp:
	case AGX_IR_OP_frsqrt:
	case AGX_IR_OP_fsqrt:
	case AGX_IR_OP_fexp2:
	case AGX_IR_OP_flog2:
	case AGX_IR_OP_fsin:
	case AGX_IR_OP_fcos:
	case AGX_IR_OP_fpow:
	case AGX_IR_OP_frsqrt_special:
	case AGX_IR_OP_fsin_pt_1:
	case AGX_IR_OP_fsin_pt_2:
	case AGX_IR_OP_f2f16:
	case AGX_IR_OP_f2f32:
	case AGX_IR_OP_i2f: /* never NaN, never denormal */
	case AGX_IR_OP_u2f:
	case AGX_IR_OP_b2f: /* 0.0 or 1.0 */
		return true;
	default:
		return false;
	}
}

/* instr's readers read v instead; instr goes. */
static bool replace(struct agx_ir_instr *instr, struct agx_ir_value v)
{
	agx_ir_def_rewrite_uses(&instr->dest, v);
	agx_ir_instr_remove(instr);
	return true;
}

static bool replace_src(struct agx_ir_instr *instr, const struct agx_ir_src *src)
{
	return replace(instr, agx_ir_src_value(src));
}

static bool replace_imm(struct agx_ir_instr *instr, uint32_t bits)
{
	return replace(instr, agx_ir_imm(instr->dest.type, bits));
}

static struct agx_builder before(struct agx_ir_instr *instr)
{
	return agx_builder_at(agx_ir_cursor_before(instr));
}

/*
 * For a two-source op: the immediate source when there is one (src 1, or
 * src 0 of a COMMUTATIVE op), and in *other the source beside it.
 */
static const struct agx_ir_src *imm_side(const struct agx_ir_instr *instr,
					 const struct agx_ir_src **other)
{
	if (!instr->src[1].def) {
		*other = &instr->src[0];
		return &instr->src[1];
	}
	if (!instr->src[0].def && (agx_ir_op_info(instr->op)->flags & AGX_IR_COMMUTATIVE)) {
		*other = &instr->src[1];
		return &instr->src[0];
	}
	return NULL;
}

static bool simplify_float(struct agx_ir_instr *instr)
{
	bool half = instr->dest.type == AGX_IR_TYPE_F16;
	uint32_t one = half ? 0x3c00u : 0x3f800000u, neg_zero = half ? 0x8000u : 0x80000000u;
	struct agx_ir_src *s = instr->src;
	const struct agx_ir_src *k, *x;
	struct agx_ir_instr *inner;
	struct agx_builder b;

	switch (instr->op) {
	case AGX_IR_OP_fadd:
		k = imm_side(instr, &x);
		if (k && k->imm == neg_zero && float_unit_result(x))
			return replace_src(instr, x);
		return false;
	case AGX_IR_OP_fsub:
		if (is_imm(&s[1], 0) && float_unit_result(&s[0]))
			return replace_src(instr, &s[0]);
		return false;
	case AGX_IR_OP_fmul:
		k = imm_side(instr, &x);
		if (k && k->imm == one && float_unit_result(x))
			return replace_src(instr, x);
		return false;
	case AGX_IR_OP_ffma:
		b = before(instr);
		if (is_imm(&s[1], one) || is_imm(&s[0], one)) {
			struct agx_ir_value other =
			    agx_ir_src_value(is_imm(&s[1], one) ? &s[0] : &s[1]);

			return replace(instr, agx_fadd(&b, other, agx_ir_src_value(&s[2])));
		}
		if (is_imm(&s[2], 0))
			return replace(
			    instr, agx_fmul(&b, agx_ir_src_value(&s[0]), agx_ir_src_value(&s[1])));
		return false;
	case AGX_IR_OP_fneg:
		inner = def_instr(&s[0], AGX_IR_OP_fneg);
		if (inner && float_unit_result(&inner->src[0]))
			return replace_src(instr, &inner->src[0]);
		return false;
	case AGX_IR_OP_fabs:
		/* |x| of |x| or of -x: the same bits however selection spells fabs */
		inner = def_instr(&s[0], AGX_IR_OP_fabs);
		if (!inner)
			inner = def_instr(&s[0], AGX_IR_OP_fneg);
		if (!inner)
			return false;
		agx_ir_src_set(&s[0], agx_ir_src_value(&inner->src[0]));
		return true;
	case AGX_IR_OP_fmin:
	case AGX_IR_OP_fmax:
		/* a select between two equal bit patterns */
		if (same_value(&s[0], &s[1]))
			return replace_src(instr, &s[0]);
		return false;
	default:
		return false;
	}
}

static bool simplify_shift(struct agx_ir_instr *instr, unsigned bits)
{
	struct agx_ir_src *s = instr->src;
	uint32_t m = mask_of(bits);

	if (is_imm(&s[0], 0) || (instr->op == AGX_IR_OP_ishr && is_imm(&s[0], m)))
		return replace_src(instr, &s[0]); /* 0 and (arithmetic) -1 stay */
	if (s[1].def)
		return false;
	if (!(s[1].imm & (bits - 1)))
		return replace_src(instr, &s[0]);
	if (s[1].imm >= bits) {
		/* the count modulo the size, spelled out */
		agx_ir_src_set(&s[1], agx_ir_imm(s[1].type, s[1].imm & (bits - 1)));
		return true;
	}
	return false;
}

static bool simplify_int(struct agx_ir_instr *instr)
{
	unsigned bits = agx_ir_type_bits(instr->dest.type);
	uint32_t m = mask_of(bits), smin = 1u << (bits - 1), smax = m >> 1;
	struct agx_ir_src *s = instr->src;
	const struct agx_ir_src *k = NULL, *x = NULL;
	struct agx_ir_instr *inner;
	struct agx_builder b = before(instr);
	int n;

	if (instr->num_srcs == 2)
		k = imm_side(instr, &x);

	switch (instr->op) {
	case AGX_IR_OP_iadd:
		if (k && k->imm == 0)
			return replace_src(instr, x);
		return false;
	case AGX_IR_OP_isub:
		if (is_imm(&s[1], 0))
			return replace_src(instr, &s[0]);
		if (same_value(&s[0], &s[1]))
			return replace_imm(instr, 0);
		if (is_imm(&s[0], 0))
			return replace(instr, agx_ineg(&b, agx_ir_src_value(&s[1])));
		return false;
	case AGX_IR_OP_imul:
		if (!k)
			return false;
		if (k->imm == 0)
			return replace_imm(instr, 0);
		if (k->imm == 1)
			return replace_src(instr, x);
		if (k->imm == m)
			return replace(instr, agx_ineg(&b, agx_ir_src_value(x)));
		n = log2_exact(k->imm);
		if (n > 0)
			return replace(instr, agx_ishl(&b, agx_ir_src_value(x),
						       agx_ir_imm(k->type, (uint32_t)n)));
		return false;
	case AGX_IR_OP_ineg:
		inner = def_instr(&s[0], AGX_IR_OP_ineg);
		return inner && replace_src(instr, &inner->src[0]);
	case AGX_IR_OP_inot:
		inner = def_instr(&s[0], AGX_IR_OP_inot);
		return inner && replace_src(instr, &inner->src[0]);
	case AGX_IR_OP_idiv:
		if (is_imm(&s[1], 1))
			return replace_src(instr, &s[0]);
		if (is_imm(&s[1], m)) /* INT_MIN / -1 wraps to INT_MIN, as ineg does */
			return replace(instr, agx_ineg(&b, agx_ir_src_value(&s[0])));
		return false;
	case AGX_IR_OP_irem:
		if (is_imm(&s[1], 1) || is_imm(&s[1], m))
			return replace_imm(instr, 0);
		return false;
	case AGX_IR_OP_udiv:
	case AGX_IR_OP_umod:
		n = s[1].def ? -1 : log2_exact(s[1].imm);
		if (n < 0)
			return false;
		if (instr->op == AGX_IR_OP_udiv)
			return n == 0
				   ? replace_src(instr, &s[0])
				   : replace(instr, agx_ushr(&b, agx_ir_src_value(&s[0]),
							     agx_ir_imm(s[1].type, (uint32_t)n)));
		return n == 0 ? replace_imm(instr, 0)
			      : replace(instr, agx_iand(&b, agx_ir_src_value(&s[0]),
							agx_ir_imm(s[1].type, s[1].imm - 1)));
	case AGX_IR_OP_iand:
		if (same_value(&s[0], &s[1]) || (k && k->imm == m))
			return replace_src(instr, k && k->imm == m ? x : &s[0]);
		if (k && k->imm == 0)
			return replace_imm(instr, 0);
		return false;
	case AGX_IR_OP_ior:
		if (same_value(&s[0], &s[1]) || (k && k->imm == 0))
			return replace_src(instr, k && k->imm == 0 ? x : &s[0]);
		if (k && k->imm == m)
			return replace_imm(instr, m);
		return false;
	case AGX_IR_OP_ixor:
		if (same_value(&s[0], &s[1]))
			return replace_imm(instr, 0);
		if (k && k->imm == 0)
			return replace_src(instr, x);
		if (k && k->imm == m)
			return replace(instr, agx_inot(&b, agx_ir_src_value(x)));
		return false;
	case AGX_IR_OP_ishl:
	case AGX_IR_OP_ishr:
	case AGX_IR_OP_ushr:
		return simplify_shift(instr, bits);
	case AGX_IR_OP_imin:
	case AGX_IR_OP_imax:
	case AGX_IR_OP_umin:
	case AGX_IR_OP_umax: {
		/* the bound at which the op gives the immediate, and the one where it gives x */
		bool is_min = instr->op == AGX_IR_OP_imin || instr->op == AGX_IR_OP_umin;
		bool is_signed = instr->op == AGX_IR_OP_imin || instr->op == AGX_IR_OP_imax;
		uint32_t lo = is_signed ? smin : 0, hi = is_signed ? smax : m;

		if (same_value(&s[0], &s[1]))
			return replace_src(instr, &s[0]);
		if (k && k->imm == (is_min ? lo : hi))
			return replace_imm(instr, k->imm);
		if (k && k->imm == (is_min ? hi : lo))
			return replace_src(instr, x);
		return false;
	}
	case AGX_IR_OP_i2i16:
		inner = def_instr(&s[0], AGX_IR_OP_i2i32);
		if (!inner)
			inner = def_instr(&s[0], AGX_IR_OP_u2u32);
		return inner && replace_src(instr, &inner->src[0]);
	default:
		return false;
	}
}

static bool simplify_compare(struct agx_ir_instr *instr)
{
	struct agx_ir_src *s = instr->src;

	switch (instr->op) {
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ige:
	case AGX_IR_OP_uge:
		if (same_value(&s[0], &s[1]) || (instr->op == AGX_IR_OP_uge && is_imm(&s[1], 0)))
			return replace_imm(instr, 1);
		return false;
	case AGX_IR_OP_ine:
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ult:
		if (same_value(&s[0], &s[1]) || (instr->op == AGX_IR_OP_ult && is_imm(&s[1], 0)))
			return replace_imm(instr, 0);
		return false;
	default:
		return false;
	}
}

static bool simplify_bool(struct agx_ir_instr *instr)
{
	struct agx_ir_src *s = instr->src;
	const struct agx_ir_src *k = NULL, *x = NULL;
	struct agx_ir_instr *inner;
	struct agx_builder b = before(instr);

	if (instr->num_srcs == 2)
		k = imm_side(instr, &x);
	switch (instr->op) {
	case AGX_IR_OP_band:
	case AGX_IR_OP_bor: {
		/* the immediate that absorbs, and the one that is the identity */
		uint32_t absorb = instr->op == AGX_IR_OP_bor;

		if (same_value(&s[0], &s[1]))
			return replace_src(instr, &s[0]);
		if (k && k->imm == absorb)
			return replace_imm(instr, absorb);
		if (k)
			return replace_src(instr, x);
		return false;
	}
	case AGX_IR_OP_bxor:
		if (same_value(&s[0], &s[1]))
			return replace_imm(instr, 0);
		if (k && k->imm == 0)
			return replace_src(instr, x);
		if (k)
			return replace(instr, agx_bnot(&b, agx_ir_src_value(x)));
		return false;
	case AGX_IR_OP_bnot:
		inner = def_instr(&s[0], AGX_IR_OP_bnot);
		return inner && replace_src(instr, &inner->src[0]);
	default:
		return false;
	}
}

static bool simplify_bcsel(struct agx_ir_instr *instr)
{
	struct agx_ir_src *s = instr->src;
	struct agx_ir_instr *inner = def_instr(&s[0], AGX_IR_OP_bnot);
	struct agx_builder b = before(instr);
	struct agx_ir_value c = agx_ir_src_value(&s[0]);

	if (same_value(&s[1], &s[2]))
		return replace_src(instr, &s[1]);
	if (inner) { /* bnot c ? x : y is c ? y : x */
		struct agx_ir_value x = agx_ir_src_value(&s[1]), y = agx_ir_src_value(&s[2]);

		agx_ir_src_set(&s[0], agx_ir_src_value(&inner->src[0]));
		agx_ir_src_set(&s[1], y);
		agx_ir_src_set(&s[2], x);
		return true;
	}
	if (instr->dest.type != AGX_IR_TYPE_B1)
		return false;
	if (is_imm(&s[1], 1) && is_imm(&s[2], 0))
		return replace(instr, c);
	if (is_imm(&s[1], 0) && is_imm(&s[2], 1))
		return replace(instr, agx_bnot(&b, c));
	if (is_imm(&s[1], 1)) /* c || x */
		return replace(instr, agx_bor(&b, c, agx_ir_src_value(&s[2])));
	if (is_imm(&s[2], 0)) /* c && x */
		return replace(instr, agx_band(&b, c, agx_ir_src_value(&s[1])));
	return false;
}

static bool simplify(struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);
	struct agx_ir_instr *inner;

	if (!(info->flags & AGX_IR_PURE) || info->dest == AGX_IR_CLASS_NONE)
		return false;
	switch (instr->op) {
	case AGX_IR_OP_bcsel:
		return simplify_bcsel(instr);
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ine:
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ige:
	case AGX_IR_OP_ult:
	case AGX_IR_OP_uge:
		return simplify_compare(instr);
	case AGX_IR_OP_band:
	case AGX_IR_OP_bor:
	case AGX_IR_OP_bxor:
	case AGX_IR_OP_bnot:
		return simplify_bool(instr);
	case AGX_IR_OP_bitcast:
		/* the same bits as the same type: the value itself */
		if (agx_ir_src_type(&instr->src[0]) == instr->dest.type)
			return replace_src(instr, &instr->src[0]);
		inner = def_instr(&instr->src[0], AGX_IR_OP_bitcast);
		if (inner && agx_ir_src_type(&inner->src[0]) == instr->dest.type)
			return replace_src(instr, &inner->src[0]);
		return false;
	default:
		break;
	}
	if (agx_ir_type_is_float(instr->dest.type))
		return simplify_float(instr);
	if (agx_ir_type_is_int(instr->dest.type))
		return simplify_int(instr);
	return false;
}

bool agx_opt_algebraic(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, instr)
				progress |= simplify(instr);
		}
	}
	return progress;
}

/*
 * agx_lower_alu.c: the arithmetic ops the ISA has no instruction for (those
 * flagged LOWERED in agx_ir_ops.h) rewritten into ops selection can select:
 *
 *   fsub a, b    fadd a, (fneg b)
 *   fdiv a, b    fmul a, (frcp b)
 *   ffract a     fadd a, (fneg (ffloor a))
 *   fsqrt a      fmul a, (frsqrt_special a)
 *   fpow a, b    fexp2 (fmul b, (flog2 a))
 *   fsin, fcos   the angle reduced to quarter turns in [0, 4), then
 *                u * fsin_pt_2 u with u = fsin_pt_1 of it
 *   udiv, umod   a reciprocal estimate refined in integers (no divider)
 *   idiv, irem   the same on the magnitudes, with the sign put back
 *
 * 16-bit integer divisions are widened to 32 bits, divided and narrowed.
 * Nothing else changes.  docs/compiler.md, "Lowering", has the rules.
 */
#include <math.h>

#include "agx_builder.h"

/* A float immediate of the instruction's type (f32 or f16). */
static struct agx_ir_value fimm(enum agx_ir_type type, float v)
{
	return type == AGX_IR_TYPE_F16 ? agx_imm_f16(v) : agx_imm_f32(v);
}

/*
 * sin or cos of x radians.  applegpu (applegpu.py, SinPt1InstructionDesc)
 * documents sin_pt_1's argument as quarter turns in [0, 4), reduced as
 * 4 * fract(x / tau), and cos(x) as sin(x + tau / 4): a quarter turn more,
 * which after the scaling is an ffma's addend of 1/4.  The simulator
 * (docs/isa.md) folds that argument into [-1, 1] in sin_pt_1 and gives
 * sin(t * pi / 2) / t in sin_pt_2, so their product is the sine.
 */
static struct agx_ir_value lower_sincos(struct agx_builder *b, struct agx_ir_value x, bool is_cos)
{
	enum agx_ir_type t = x.type;
	struct agx_ir_value inv_tau = fimm(t, (float)(0.5 / M_PI));
	struct agx_ir_value turns =
	    is_cos ? agx_ffma(b, x, inv_tau, fimm(t, 0.25f)) : agx_fmul(b, x, inv_tau);
	struct agx_ir_value fract = agx_fadd(b, turns, agx_fneg(b, agx_ffloor(b, turns)));
	struct agx_ir_value quarters = agx_fmul(b, fract, fimm(t, 4.0f));
	struct agx_ir_value u;

	/*
	 * fract of a negative number within half a unit of 0 rounds to 1.0,
	 * and 4.0 is outside sin_pt_1's [0, 4): the largest value below 4
	 * is the same angle to within 2^-22 of a quarter turn (f16: 2^-9).
	 */
	quarters =
	    agx_fmin(b, quarters,
		     t == AGX_IR_TYPE_F16 ? agx_imm_f16(3.998046875f) : agx_imm_f32(0x1.fffffep1f));
	u = agx_fsin_pt_1(b, quarters);

	return agx_fmul(b, u, agx_fsin_pt_2(b, u));
}

/*
 * n / d or n % d, unsigned 32-bit, after the expansion LLVM's AMDGPU back
 * end made public (AMDGPUCodeGenPrepare, expandDivRem32): an estimate of
 * 2^32 / d from the float reciprocal; one Newton-Raphson step in integers
 * (the estimate's error is e = 2^32 - est * d, which is -d * est modulo
 * 2^32; est += est * e / 2^32); the quotient from the high half of
 * n * est, short of the true one by at most two; two corrections.
 *
 * The estimate must not exceed 2^32 / d (e would wrap), so the reciprocal
 * is scaled by 2^32 - 2048, not 2^32: 2^-21 below, room for a reciprocal
 * up to three units in the last place high and the fmul's rounding (LLVM
 * takes 2^32 - 512 for AMD's rcp, within one unit; the G13's error is not
 * public).  An estimate that much low costs nothing: the Newton step
 * squares its error away.  test-lower-alu.c runs it with the reciprocal
 * moved by -4 to +3 units.
 *
 * Division by zero: frcp gives infinity, f2u saturates it to 2^32 - 1,
 * and the sequence ends with some value, without a loop or a trap (GLSL
 * leaves the result undefined).
 */
static struct agx_ir_value udivmod32(struct agx_builder *b, struct agx_ir_value n,
				     struct agx_ir_value d, bool rem)
{
	struct agx_ir_value rcp = agx_frcp(b, agx_u2f(b, AGX_IR_TYPE_F32, d));
	struct agx_ir_value est =
	    agx_f2u(b, AGX_IR_TYPE_I32, agx_fmul(b, rcp, agx_imm_f32(4294965248.0f)));
	struct agx_ir_value err = agx_imul(b, est, agx_ineg(b, d));
	struct agx_ir_value q, r;

	est = agx_iadd(b, est, agx_umul_high(b, est, err));
	q = agx_umul_high(b, n, est);
	r = agx_isub(b, n, agx_imul(b, q, d));
	for (unsigned i = 0; i < 2; i++) {
		struct agx_ir_value ge = agx_uge(b, r, d);

		if (!rem)
			q = agx_bcsel(b, ge, agx_iadd(b, q, agx_imm_u32(1)), q);
		if (rem || i == 0)
			r = agx_bcsel(b, ge, agx_isub(b, r, d), r);
	}
	return rem ? r : q;
}

/* |v| as an unsigned 32-bit value (INT_MIN's is 2^31), given s = v >> 31 arithmetic. */
static struct agx_ir_value iabs32(struct agx_builder *b, struct agx_ir_value v,
				  struct agx_ir_value s)
{
	return agx_isub(b, agx_ixor(b, v, s), s);
}

/*
 * Signed division truncating toward zero (C's; GLSL ES 3.00 leaves % of
 * negative operands undefined): on the magnitudes, the quotient negated
 * when the signs differ, the remainder taking the dividend's sign.
 * Negating by a mask s (0 or -1) is (v ^ s) - s.  INT_MIN / -1 divides
 * 2^31 by 1 and keeps 2^31 as it is: INT_MIN, the wrapped result.
 */
static struct agx_ir_value idivmod32(struct agx_builder *b, struct agx_ir_value n,
				     struct agx_ir_value d, bool rem)
{
	struct agx_ir_value sn = agx_ishr(b, n, agx_imm_u32(31));
	struct agx_ir_value sd = agx_ishr(b, d, agx_imm_u32(31));
	struct agx_ir_value an = iabs32(b, n, sn);
	struct agx_ir_value ad = iabs32(b, d, sd);
	struct agx_ir_value v = udivmod32(b, an, ad, rem);
	struct agx_ir_value s = rem ? sn : agx_ixor(b, sn, sd);

	return agx_isub(b, agx_ixor(b, v, s), s);
}

static struct agx_ir_value lower_intdiv(struct agx_builder *b, enum agx_ir_op op,
					struct agx_ir_value n, struct agx_ir_value d)
{
	bool is_signed = op == AGX_IR_OP_idiv || op == AGX_IR_OP_irem;
	bool rem = op == AGX_IR_OP_irem || op == AGX_IR_OP_umod;
	bool narrow = n.type == AGX_IR_TYPE_I16;
	struct agx_ir_value v;

	if (narrow) {
		n = is_signed ? agx_i2i32(b, n) : agx_u2u32(b, n);
		d = is_signed ? agx_i2i32(b, d) : agx_u2u32(b, d);
	}
	v = is_signed ? idivmod32(b, n, d, rem) : udivmod32(b, n, d, rem);
	return narrow ? agx_i2i16(b, v) : v;
}

/* The replacement of a lowered instruction, emitted before it. */
static struct agx_ir_value lower(struct agx_builder *b, struct agx_ir_instr *instr)
{
	struct agx_ir_value a = agx_ir_src_value(&instr->src[0]);
	struct agx_ir_value c = instr->num_srcs > 1 ? agx_ir_src_value(&instr->src[1]) : a;

	switch (instr->op) {
	case AGX_IR_OP_fsub:
		return agx_fadd(b, a, agx_fneg(b, c));
	case AGX_IR_OP_fdiv:
		return agx_fmul(b, a, agx_frcp(b, c));
	case AGX_IR_OP_ffract:
		return agx_fadd(b, a, agx_fneg(b, agx_ffloor(b, a)));
	case AGX_IR_OP_fsqrt:
		return agx_fmul(b, a, agx_frsqrt_special(b, a));
	case AGX_IR_OP_fpow:
		return agx_fexp2(b, agx_fmul(b, c, agx_flog2(b, a)));
	case AGX_IR_OP_fsin:
		return lower_sincos(b, a, false);
	case AGX_IR_OP_fcos:
		return lower_sincos(b, a, true);
	default: /* idiv udiv irem umod */
		return lower_intdiv(b, instr->op, a, c);
	}
}

static bool handled(enum agx_ir_op op)
{
	switch (op) {
	case AGX_IR_OP_fsub:
	case AGX_IR_OP_fdiv:
	case AGX_IR_OP_ffract:
	case AGX_IR_OP_fsqrt:
	case AGX_IR_OP_fpow:
	case AGX_IR_OP_fsin:
	case AGX_IR_OP_fcos:
	case AGX_IR_OP_idiv:
	case AGX_IR_OP_udiv:
	case AGX_IR_OP_irem:
	case AGX_IR_OP_umod:
		return true;
	default:
		return false;
	}
}

bool agx_lower_alu(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, instr) {
				struct agx_builder b;
				struct agx_ir_value v;

				if (!handled(instr->op))
					continue;
				b = agx_builder_at(agx_ir_cursor_before(instr));
				v = lower(&b, instr);
				agx_ir_def_rewrite_uses(&instr->dest, v);
				agx_ir_instr_remove(instr);
				progress = true;
			}
		}
	}
	return progress;
}

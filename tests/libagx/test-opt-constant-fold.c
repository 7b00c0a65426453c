/*
 * test-opt-constant-fold: agx_opt_constant_fold.  Exact IR for the pass's
 * own rules (chains, bcsel, if conditions, phi sources, what it leaves);
 * a table of folded ops at edge values -- denormals, NaNs, infinities,
 * -0.0, INT_MIN / -1, shifts past the size, f2i of 3e9 and NaN -- with
 * the bits worked out by hand from sim/usc/usc.c; and the cross-check:
 * every float, conversion and most integer ops folded over sets of edge
 * values and compared with what the simulated G13 computes running the
 * instruction selection would emit for it (sim/usc, code assembled with
 * agx_isa_assemble).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx/isa.h"
#include "ir-test.h"
#include "usc.h"

#define I32   AGX_IR_TYPE_I32
#define I16   AGX_IR_TYPE_I16
#define F32   AGX_IR_TYPE_F32
#define F16   AGX_IR_TYPE_F16
#define B1    AGX_IR_TYPE_B1
#define OP(x) AGX_IR_OP_##x

/* ---- folding one instruction ------------------------------------------------------ */

/*
 * Builds op(srcs) read by a store (or, for a b1, by an if), runs the pass
 * and says whether the reader now reads an immediate, and which.
 */
static bool fold_ir(enum agx_ir_op op, enum agx_ir_type dt, const struct agx_ir_value *srcs,
		    uint32_t *bits)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	uint32_t imms[AGX_IR_MAX_IMMS] = { 0 };
	struct agx_ir_instr *instr = agx_builder_emit(&b, op, dt, srcs, imms);
	struct agx_ir_value v = agx_ir_def_value(&instr->dest);
	struct agx_ir_src *reader;
	struct agx_ir_if *nif = NULL;
	struct agx_ir_instr *store = NULL;
	bool progress, folded;

	if (v.type == B1) {
		nif = agx_builder_push_if(&b, v);
		agx_builder_pop_if(&b, nif);
	} else {
		store = agx_store_ssbo(&b, v, agx_imm_u32(0), 0);
	}
	assert_valid(s);
	progress = agx_pass(s, agx_opt_constant_fold);
	reader = nif ? &nif->cond : &store->src[0];
	folded = !reader->def;
	assert_int_equal(progress, folded);
	if (folded) {
		assert_int_equal(reader->type, dt);
		*bits = reader->imm;
	}
	agx_ir_shader_destroy(s);
	return folded;
}

/* ---- exact IR --------------------------------------------------------------------- */

static void test_fold_nothing(void **state)
{
	struct agx_ir_shader *in, *want;
	struct agx_ir_function *f;
	struct agx_builder b;

	(void)state;
	for (int expected = 0; expected < 2; expected++) {
		struct agx_ir_shader *s = shader_new(&f, &b);
		struct agx_ir_value x = agx_load_uniform(&b, F32, 0);

		agx_store_ssbo(&b, agx_fadd(&b, x, agx_imm_f32(1.0f)), agx_imm_u32(0), 0);
		agx_store_ssbo(&b, agx_f2i(&b, I32, x), agx_imm_u32(4), 0);
		if (expected)
			want = s;
		else
			in = s;
	}
	check_pass(in, want, agx_opt_constant_fold, false);
}

/* A chain folds in one run (program order), and a fold feeds an op that stays. */
static void test_fold_chain(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, sum, prod;

	(void)state;
	x = agx_load_uniform(&b, I32, 0);
	sum = agx_iadd(&b, agx_imm_u32(2), agx_imm_u32(3));
	prod = agx_imul(&b, sum, agx_imm_u32(4));
	agx_store_ssbo(&b, prod, agx_ishl(&b, x, prod), 0);
	agx_store_ssbo(&b, agx_f2f16(&b, agx_fmul(&b, agx_imm_f32(3.0f), agx_imm_f32(0.5f))),
		       agx_imm_u32(8), 0);

	want = shader_new(&f, &b);
	x = agx_load_uniform(&b, I32, 0);
	agx_store_ssbo(&b, agx_imm_u32(20), agx_ishl(&b, x, agx_imm_u32(20)), 0);
	agx_store_ssbo(&b, agx_imm_f16(1.5f), agx_imm_u32(8), 0);
	check_pass(in, want, agx_opt_constant_fold, true);
}

/* bcsel with an immediate condition is the source it picks, immediate or not. */
static void test_fold_bcsel(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, y, c;

	(void)state;
	x = agx_load_uniform(&b, F32, 0);
	y = agx_load_uniform(&b, F32, 4);
	c = agx_flt(&b, x, y);
	agx_store_ssbo(&b, agx_bcsel(&b, agx_imm_bool(true), x, y), agx_imm_u32(0), 0);
	agx_store_ssbo(&b, agx_bcsel(&b, agx_imm_bool(false), x, agx_imm_f32(2.0f)), agx_imm_u32(4),
		       0);
	/* a condition that is not an immediate: nothing */
	agx_store_ssbo(&b, agx_bcsel(&b, c, agx_imm_f32(1.0f), agx_imm_f32(2.0f)), agx_imm_u32(8),
		       0);

	want = shader_new(&f, &b);
	x = agx_load_uniform(&b, F32, 0);
	y = agx_load_uniform(&b, F32, 4);
	c = agx_flt(&b, x, y);
	agx_store_ssbo(&b, x, agx_imm_u32(0), 0);
	agx_store_ssbo(&b, agx_imm_f32(2.0f), agx_imm_u32(4), 0);
	agx_store_ssbo(&b, agx_bcsel(&b, c, agx_imm_f32(1.0f), agx_imm_f32(2.0f)), agx_imm_u32(8),
		       0);
	check_pass(in, want, agx_opt_constant_fold, true);
}

/* Folds reach if conditions and phi sources. */
static void build_fold_cf(struct agx_builder *b, bool folded)
{
	struct agx_ir_value x = agx_load_uniform(b, F32, 0), c, t, phi;
	struct agx_ir_if *nif;

	c = folded ? agx_imm_bool(true) : agx_ult(b, agx_imm_u32(3), agx_imm_u32(4));
	nif = agx_builder_push_if(b, c);
	t = folded ? agx_imm_f32(3.0f) : agx_fadd(b, agx_imm_f32(1.0f), agx_imm_f32(2.0f));
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, F32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), x);
	agx_store_ssbo(b, phi, agx_imm_u32(0), 0);
}

static void test_fold_cf(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_fold_cf(&b, false);
	want = shader_new(&f, &b);
	build_fold_cf(&b, true);
	check_pass(in, want, agx_opt_constant_fold, true);
}

/*
 * Left alone: the approximations, fdiv, division by zero, and what depends
 * on how selection spells an op (fneg of a NaN or a denormal, fmin of +0
 * and -0, fmax of two NaNs); ops without sources; a phi of immediates.
 */
static void build_unfoldable(struct agx_builder *b)
{
	struct agx_ir_value one = agx_imm_f32(1.0f), three = agx_imm_f32(3.0f), phi;
	struct agx_ir_value vals[] = {
		agx_fdiv(b, one, three),
		agx_frcp(b, three),
		agx_frsqrt(b, three),
		agx_fsqrt(b, three),
		agx_fexp2(b, three),
		agx_flog2(b, three),
		agx_fsin(b, three),
		agx_fcos(b, three),
		agx_fpow(b, three, three),
		agx_frsqrt_special(b, three),
		agx_fsin_pt_1(b, three),
		agx_fsin_pt_2(b, three),
		agx_fneg(b, agx_ir_imm(F32, 0x7fa00000)),
		agx_fabs(b, agx_ir_imm(F32, 0x80000001)),
		agx_fneg(b, agx_ir_imm(F16, 0x7d00)),
		agx_fmin(b, agx_imm_f32(0.0f), agx_imm_f32(-0.0f)),
		agx_fmax(b, agx_ir_imm(F32, 0x7fc00000), agx_ir_imm(F32, 0x7fa00000)),
		agx_fmin(b, agx_ir_imm(F32, 0x00000001), agx_imm_f32(0.0f)),
		agx_bitcast(b, F32, agx_idiv(b, agx_imm_u32(7), agx_imm_u32(0))),
		agx_bitcast(b, F32, agx_umod(b, agx_imm_u32(7), agx_imm_u32(0))),
		agx_load_uniform(b, F32, 0),
		agx_undef(b, F32),
	};
	struct agx_ir_if *nif =
	    agx_builder_push_if(b, agx_ieq(b, agx_load_uniform(b, I32, 64), agx_imm_u32(0)));

	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, F32);
	phi_add(phi, then_block(nif), one);
	phi_add(phi, else_block(nif), one);
	for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		agx_store_ssbo(b, vals[i], agx_imm_u32(4 * i), 0);
	agx_store_ssbo(b, phi, agx_imm_u32(0), 1);
}

static void test_fold_unfoldable(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_unfoldable(&b);
	want = shader_new(&f, &b);
	build_unfoldable(&b);
	check_pass(in, want, agx_opt_constant_fold, false);
}

/* ---- the table ------------------------------------------------------------------- */

/* op(a, b, c) of source type st gives want (folded) or stays (!folded). */
struct fold_case {
	enum agx_ir_op op;
	enum agx_ir_type dt, st;
	uint32_t a, b, c;
	bool folded;
	uint32_t want;
	const char *why;
};

#define Y true
#define N false

static const struct fold_case table[] = {
	/* f32 add: denormals read as zero and written as zero, one canonical NaN */
	{ OP(fadd), F32, F32, 0x3f800000, 0x40000000, 0, Y, 0x40400000, "1 + 2" },
	{ OP(fadd), F32, F32, 0x00000001, 0x00000000, 0, Y, 0x00000000, "denormal in" },
	{ OP(fadd), F32, F32, 0x00800000, 0x80000001, 0, Y, 0x00800000, "-denormal reads -0" },
	{ OP(fadd), F32, F32, 0x00800001, 0x80800000, 0, Y, 0x00000000, "denormal out: +0" },
	{ OP(fadd), F32, F32, 0x80800001, 0x00800000, 0, Y, 0x80000000, "denormal out: -0" },
	{ OP(fadd), F32, F32, 0x80000000, 0x80000000, 0, Y, 0x80000000, "-0 + -0" },
	{ OP(fadd), F32, F32, 0x80000000, 0x00000000, 0, Y, 0x00000000, "-0 + +0" },
	{ OP(fadd), F32, F32, 0x7f800000, 0xff800000, 0, Y, 0x7fc00000, "inf - inf" },
	{ OP(fadd), F32, F32, 0x7fa00000, 0x3f800000, 0, Y, 0x7fc00000, "NaN payload" },
	{ OP(fadd), F32, F32, 0xffc00001, 0x3f800000, 0, Y, 0x7fc00000, "negative NaN" },
	{ OP(fadd), F32, F32, 0x7f7fffff, 0x7f7fffff, 0, Y, 0x7f800000, "overflow" },
	{ OP(fsub), F32, F32, 0x3f800000, 0x3f800000, 0, Y, 0x00000000, "1 - 1" },
	{ OP(fsub), F32, F32, 0x80000000, 0x00000000, 0, Y, 0x80000000, "-0 - +0" },
	{ OP(fsub), F32, F32, 0x00000000, 0x00000000, 0, Y, 0x00000000, "+0 - +0" },
	/* f32 mul is fma(a, b, +0): an exact zero product is +0 */
	{ OP(fmul), F32, F32, 0x80000000, 0x40a00000, 0, Y, 0x00000000, "-0 * 5" },
	{ OP(fmul), F32, F32, 0xbf800000, 0x00000000, 0, Y, 0x00000000, "-1 * 0" },
	{ OP(fmul), F32, F32, 0xc0000000, 0x40400000, 0, Y, 0xc0c00000, "-2 * 3" },
	{ OP(fmul), F32, F32, 0x1e3ce508, 0x9e3ce508, 0, Y, 0x80000000, "underflow keeps -" },
	{ OP(fmul), F32, F32, 0x7f800000, 0x00000000, 0, Y, 0x7fc00000, "inf * 0" },
	{ OP(fmul), F32, F32, 0x00000001, 0x7f800000, 0, Y, 0x7fc00000, "denormal * inf" },
	/* fma rounds once: (1 + 2^-12)^2 - 1 keeps its 2^-24 */
	{ OP(ffma), F32, F32, 0x40000000, 0x40400000, 0x3f800000, Y, 0x40e00000, "2 * 3 + 1" },
	{ OP(ffma), F32, F32, 0x3f800800, 0x3f800800, 0xbf800000, Y, 0x3a000400, "one rounding" },
	{ OP(ffma), F32, F32, 0x80000000, 0x3f800000, 0x80000000, Y, 0x80000000, "-0 * 1 + -0" },
	{ OP(ffma), F32, F32, 0x00000001, 0x3f800000, 0x00000000, Y, 0x00000000, "denormal" },
	{ OP(fneg), F32, F32, 0x3f800000, 0, 0, Y, 0xbf800000, "-1" },
	{ OP(fneg), F32, F32, 0x00000000, 0, 0, Y, 0x80000000, "-(+0)" },
	{ OP(fneg), F32, F32, 0x7fc00000, 0, 0, N, 0, "NaN: selection's" },
	{ OP(fneg), F32, F32, 0x00000001, 0, 0, N, 0, "denormal: selection's" },
	{ OP(fabs), F32, F32, 0xc0200000, 0, 0, Y, 0x40200000, "|-2.5|" },
	{ OP(fabs), F32, F32, 0x80000000, 0, 0, Y, 0x00000000, "|-0|" },
	/* fmin/fmax: fcmpsel ltn/gtn, a NaN loses, bits pass as they are */
	{ OP(fmin), F32, F32, 0x3f800000, 0x40000000, 0, Y, 0x3f800000, "min(1, 2)" },
	{ OP(fmax), F32, F32, 0x3f800000, 0x40000000, 0, Y, 0x40000000, "max(1, 2)" },
	{ OP(fmin), F32, F32, 0x7fa00000, 0x40400000, 0, Y, 0x40400000, "min(NaN, 3)" },
	{ OP(fmax), F32, F32, 0x40400000, 0xffc00001, 0, Y, 0x40400000, "max(3, NaN)" },
	{ OP(fmin), F32, F32, 0xff800000, 0x7fc00000, 0, Y, 0xff800000, "min(-inf, NaN)" },
	{ OP(fmin), F32, F32, 0x7fa00000, 0x7fa00000, 0, Y, 0x7fa00000, "one NaN twice" },
	{ OP(fmin), F32, F32, 0x00000001, 0x3f800000, 0, Y, 0x00000001, "denormal passes" },
	{ OP(fmin), F32, F32, 0x00000000, 0x80000000, 0, N, 0, "+0 vs -0: order" },
	{ OP(fmax), F32, F32, 0x7fc00000, 0x7fa00000, 0, N, 0, "two NaNs: order" },
	/* rounding to integers: exact, after the flush */
	{ OP(ffloor), F32, F32, 0xbf000000, 0, 0, Y, 0xbf800000, "floor -0.5" },
	{ OP(ffloor), F32, F32, 0x80000001, 0, 0, Y, 0x80000000, "floor -denormal = -0" },
	{ OP(fceil), F32, F32, 0xbf000000, 0, 0, Y, 0x80000000, "ceil -0.5 = -0" },
	{ OP(fceil), F32, F32, 0x00000001, 0, 0, Y, 0x00000000, "ceil denormal = 0" },
	{ OP(ftrunc), F32, F32, 0xc0200000, 0, 0, Y, 0xc0000000, "trunc -2.5" },
	{ OP(fround_even), F32, F32, 0x40200000, 0, 0, Y, 0x40000000, "rint 2.5" },
	{ OP(fround_even), F32, F32, 0x40600000, 0, 0, Y, 0x40800000, "rint 3.5" },
	{ OP(fround_even), F32, F32, 0xbf000000, 0, 0, Y, 0x80000000, "rint -0.5" },
	{ OP(fround_even), F32, F32, 0x7fa00000, 0, 0, Y, 0x7fc00000, "rint NaN" },
	{ OP(ffract), F32, F32, 0x3fa00000, 0, 0, Y, 0x3e800000, "fract 1.25" },
	{ OP(ffract), F32, F32, 0xbe800000, 0, 0, Y, 0x3f400000, "fract -0.25" },
	{ OP(ffract), F32, F32, 0xb0800000, 0, 0, Y, 0x3f800000, "fract -2^-30 rounds to 1" },
	{ OP(ffract), F32, F32, 0x7f800000, 0, 0, Y, 0x7fc00000, "fract inf" },
	/* comparisons: flushed, fne unordered */
	{ OP(feq), B1, F32, 0x00000001, 0x00000000, 0, Y, 1, "denormal == 0" },
	{ OP(feq), B1, F32, 0x7fc00000, 0x7fc00000, 0, Y, 0, "NaN == NaN" },
	{ OP(fne), B1, F32, 0x7fc00000, 0x3f800000, 0, Y, 1, "NaN != 1" },
	{ OP(fne), B1, F32, 0x3f800000, 0x3f800000, 0, Y, 0, "1 != 1" },
	{ OP(flt), B1, F32, 0x80000000, 0x00000000, 0, Y, 0, "-0 < +0" },
	{ OP(fge), B1, F32, 0x80000000, 0x00000000, 0, Y, 1, "-0 >= +0" },
	{ OP(flt), B1, F32, 0x3f800000, 0x7fc00000, 0, Y, 0, "1 < NaN" },
	{ OP(fge), B1, F32, 0x7fc00000, 0x3f800000, 0, Y, 0, "NaN >= 1" },
	{ OP(flt), B1, F32, 0x80000001, 0x00000001, 0, Y, 0, "-denormal < denormal" },
	/* float to integer: toward zero, saturated, NaN to 0 */
	{ OP(f2i), I32, F32, 0x4f32d05e, 0, 0, Y, 0x7fffffff, "f2i 3e9" },
	{ OP(f2i), I32, F32, 0xcf32d05e, 0, 0, Y, 0x80000000, "f2i -3e9" },
	{ OP(f2i), I32, F32, 0x7fc00000, 0, 0, Y, 0, "f2i NaN" },
	{ OP(f2i), I32, F32, 0xbfc00000, 0, 0, Y, 0xffffffff, "f2i -1.5" },
	{ OP(f2i), I32, F32, 0x4f000000, 0, 0, Y, 0x7fffffff, "f2i 2^31" },
	{ OP(f2i), I32, F32, 0xff800000, 0, 0, Y, 0x80000000, "f2i -inf" },
	{ OP(f2u), I32, F32, 0xbfc00000, 0, 0, Y, 0, "f2u -1.5" },
	{ OP(f2u), I32, F32, 0x4f32d05e, 0, 0, Y, 0xb2d05e00, "f2u 3e9" },
	{ OP(f2u), I32, F32, 0x501502f9, 0, 0, Y, 0xffffffff, "f2u 1e10" },
	{ OP(f2u), I32, F32, 0x7fa00000, 0, 0, Y, 0, "f2u NaN" },
	{ OP(f2i), I16, F32, 0x471c4000, 0, 0, Y, 0x7fff, "f2i16 40000" },
	{ OP(f2i), I16, F32, 0xc71c4000, 0, 0, Y, 0x8000, "f2i16 -40000" },
	{ OP(f2u), I16, F32, 0x4788b800, 0, 0, Y, 0xffff, "f2u16 70000" },
	{ OP(f2i), I32, F16, 0xfbff, 0, 0, Y, 0xffff0020, "f2i -65504.0h" },
	{ OP(f2i), I16, F16, 0xfbff, 0, 0, Y, 0x8000, "f2i16 -65504.0h" },
	/* integer to float: nearest even */
	{ OP(i2f), F32, I32, 0x7fffffff, 0, 0, Y, 0x4f000000, "i2f INT_MAX" },
	{ OP(i2f), F32, I32, 0x80000000, 0, 0, Y, 0xcf000000, "i2f INT_MIN" },
	{ OP(u2f), F32, I32, 0xffffffff, 0, 0, Y, 0x4f800000, "u2f UINT_MAX" },
	{ OP(i2f), F32, I32, 0x01000001, 0, 0, Y, 0x4b800000, "2^24 + 1: tie to even" },
	{ OP(i2f), F32, I32, 0x01000003, 0, 0, Y, 0x4b800002, "2^24 + 3: tie up" },
	{ OP(u2f), F16, I32, 65519, 0, 0, Y, 0x7bff, "u2f16 65519" },
	{ OP(u2f), F16, I32, 65520, 0, 0, Y, 0x7c00, "u2f16 65520: inf" },
	{ OP(i2f), F16, I32, 0xfffff7ff, 0, 0, Y, 0xe800, "i2f16 -2049: tie to even" },
	{ OP(i2f), F32, I16, 0x8000, 0, 0, Y, 0xc7000000, "i2f of i16 -32768" },
	{ OP(u2f), F32, I16, 0xffff, 0, 0, Y, 0x477fff00, "u2f of i16 65535" },
	/* between float sizes */
	{ OP(f2f16), F16, F32, 0x3f800000, 0, 0, Y, 0x3c00, "1.0" },
	{ OP(f2f16), F16, F32, 0x477ff000, 0, 0, Y, 0x7c00, "65520: inf" },
	{ OP(f2f16), F16, F32, 0x477fefff, 0, 0, Y, 0x7bff, "below 65520" },
	{ OP(f2f16), F16, F32, 0x33000000, 0, 0, Y, 0x0000, "2^-25: tie to 0" },
	{ OP(f2f16), F16, F32, 0x33000001, 0, 0, Y, 0x0001, "above 2^-25" },
	{ OP(f2f16), F16, F32, 0x33c00000, 0, 0, Y, 0x0002, "1.5 * 2^-24: tie to 2" },
	{ OP(f2f16), F16, F32, 0x7fa00000, 0, 0, Y, 0x7e00, "NaN: canonical" },
	{ OP(f2f16), F16, F32, 0x807fffff, 0, 0, Y, 0x8000, "f32 denormal: -0" },
	{ OP(f2f32), F32, F16, 0x0001, 0, 0, Y, 0x33800000, "f16 denormal: normal f32" },
	{ OP(f2f32), F32, F16, 0x7d00, 0, 0, Y, 0x7fc00000, "NaN: canonical" },
	{ OP(f2f32), F32, F16, 0xfc00, 0, 0, Y, 0xff800000, "-inf" },
	/* f16: no flush, one rounding */
	{ OP(fadd), F16, F16, 0x3c00, 0x3c00, 0, Y, 0x4000, "1 + 1" },
	{ OP(fadd), F16, F16, 0x7bff, 0x4c00, 0, Y, 0x7c00, "65504 + 16: tie to inf" },
	{ OP(fadd), F16, F16, 0x0001, 0x0001, 0, Y, 0x0002, "denormals stay" },
	{ OP(fmul), F16, F16, 0x8000, 0x4500, 0, Y, 0x0000, "-0 * 5" },
	{ OP(fmul), F16, F16, 0x0001, 0x3800, 0, Y, 0x0000, "2^-25: tie to 0" },
	{ OP(fmul), F16, F16, 0x0003, 0x3800, 0, Y, 0x0002, "1.5 units: tie to 2" },
	{ OP(ffma), F16, F16, 0x3c01, 0x3c01, 0xbc01, Y, 0x1401, "one rounding" },
	{ OP(fsub), F16, F16, 0x3c00, 0x3c00, 0, Y, 0x0000, "1 - 1" },
	{ OP(fneg), F16, F16, 0x0001, 0, 0, Y, 0x8001, "f16 denormal folds" },
	{ OP(fmin), F16, F16, 0x0001, 0x0000, 0, Y, 0x0000, "f16 denormal > 0" },
	{ OP(fmin), F16, F16, 0x8000, 0x0000, 0, N, 0, "+0 vs -0" },
	{ OP(ffloor), F16, F16, 0xb800, 0, 0, Y, 0xbc00, "floor -0.5" },
	{ OP(fround_even), F16, F16, 0x4100, 0, 0, Y, 0x4000, "rint 2.5" },
	{ OP(feq), B1, F16, 0x0001, 0x0000, 0, Y, 0, "no flush" },
	/* integers wrap; shifts take the count modulo the size */
	{ OP(iadd), I32, I32, 0xffffffff, 1, 0, Y, 0, "wraps" },
	{ OP(isub), I32, I32, 0, 1, 0, Y, 0xffffffff, "0 - 1" },
	{ OP(imul), I32, I32, 0x10000, 0x10000, 0, Y, 0, "2^32" },
	{ OP(imul), I32, I32, 0xffffffff, 0xffffffff, 0, Y, 1, "-1 * -1" },
	{ OP(ineg), I32, I32, 0x80000000, 0, 0, Y, 0x80000000, "-INT_MIN" },
	{ OP(idiv), I32, I32, 0x80000000, 0xffffffff, 0, Y, 0x80000000, "INT_MIN / -1" },
	{ OP(irem), I32, I32, 0x80000000, 0xffffffff, 0, Y, 0, "INT_MIN % -1" },
	{ OP(idiv), I32, I32, 0xfffffff9, 2, 0, Y, 0xfffffffd, "-7 / 2" },
	{ OP(irem), I32, I32, 0xfffffff9, 2, 0, Y, 0xffffffff, "-7 % 2: sign of a" },
	{ OP(irem), I32, I32, 7, 0xfffffffe, 0, Y, 1, "7 % -2" },
	{ OP(udiv), I32, I32, 0xffffffff, 2, 0, Y, 0x7fffffff, "udiv" },
	{ OP(umod), I32, I32, 0xffffffff, 10, 0, Y, 5, "umod" },
	{ OP(idiv), I32, I32, 7, 0, 0, N, 0, "x / 0" },
	{ OP(irem), I32, I32, 7, 0, 0, N, 0, "x % 0" },
	{ OP(udiv), I32, I32, 7, 0, 0, N, 0, "x / 0" },
	{ OP(idiv), I16, I16, 0x8000, 0xffff, 0, Y, 0x8000, "i16 INT_MIN / -1" },
	{ OP(ishl), I32, I32, 1, 33, 0, Y, 2, "1 << 33" },
	{ OP(ishl), I32, I32, 1, 32, 0, Y, 1, "1 << 32" },
	{ OP(ishr), I32, I32, 0x80000000, 35, 0, Y, 0xf0000000, "ishr by 35" },
	{ OP(ushr), I32, I32, 0x80000000, 31, 0, Y, 1, "ushr by 31" },
	{ OP(ushr), I32, I32, 0x80000000, 63, 0, Y, 1, "ushr by 63" },
	{ OP(ishl), I16, I16, 1, 17, 0, Y, 2, "i16 1 << 17" },
	{ OP(ishr), I16, I16, 0x8000, 15, 0, Y, 0xffff, "i16 ishr by 15" },
	{ OP(iadd), I16, I16, 0xffff, 1, 0, Y, 0, "i16 wraps" },
	{ OP(imin), I32, I32, 0x80000000, 1, 0, Y, 0x80000000, "imin" },
	{ OP(umin), I32, I32, 0x80000000, 1, 0, Y, 1, "umin" },
	{ OP(imax), I32, I32, 0xffffffff, 0, 0, Y, 0, "imax" },
	{ OP(umax), I32, I32, 0xffffffff, 0, 0, Y, 0xffffffff, "umax" },
	{ OP(ilt), B1, I32, 0x80000000, 0, 0, Y, 1, "INT_MIN < 0" },
	{ OP(ult), B1, I32, 0x80000000, 0, 0, Y, 0, "2^31 <u 0" },
	{ OP(ige), B1, I32, 0xffffffff, 0xffffffff, 0, Y, 1, "-1 >= -1" },
	{ OP(uge), B1, I32, 0, 1, 0, Y, 0, "0 >=u 1" },
	{ OP(ieq), B1, I16, 0xffff, 0xffff, 0, Y, 1, "i16 ==" },
	{ OP(ilt), B1, I16, 0x8000, 1, 0, Y, 1, "i16 signed <" },
	{ OP(inot), I16, I16, 0x00ff, 0, 0, Y, 0xff00, "i16 not" },
	{ OP(imul_high), I32, I32, 0x80000000, 0x80000000, 0, Y, 0x40000000, "signed high" },
	{ OP(umul_high), I32, I32, 0xffffffff, 0xffffffff, 0, Y, 0xfffffffe, "unsigned high" },
	/* sizes, booleans */
	{ OP(i2i16), I16, I32, 0x12345678, 0, 0, Y, 0x5678, "low half" },
	{ OP(i2i32), I32, I16, 0x8000, 0, 0, Y, 0xffff8000, "sign-extends" },
	{ OP(u2u32), I32, I16, 0x8000, 0, 0, Y, 0x8000, "zero-extends" },
	{ OP(b2f), F32, B1, 1, 0, 0, Y, 0x3f800000, "b2f true" },
	{ OP(b2f), F16, B1, 1, 0, 0, Y, 0x3c00, "b2f16 true" },
	{ OP(b2i), I32, B1, 0, 0, 0, Y, 0, "b2i false" },
	{ OP(b2i), I16, B1, 1, 0, 0, Y, 1, "b2i16 true" },
	{ OP(bitcast), F32, I32, 0x3f800000, 0, 0, Y, 0x3f800000, "bitcast" },
	{ OP(band), B1, B1, 1, 0, 0, Y, 0, "band" },
	{ OP(bor), B1, B1, 1, 0, 0, Y, 1, "bor" },
	{ OP(bxor), B1, B1, 1, 1, 0, Y, 0, "bxor" },
	{ OP(bnot), B1, B1, 0, 0, 0, Y, 1, "bnot" },
};

static void test_fold_table(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct fold_case *t = &table[i];
		const struct agx_ir_op_info *info = agx_ir_op_info(t->op);
		struct agx_ir_value srcs[AGX_IR_MAX_SRCS] = { { 0 } };
		uint32_t vals[3] = { t->a, t->b, t->c }, got = 0;
		bool folded;

		for (unsigned s = 0; s < info->num_srcs; s++)
			srcs[s] = agx_ir_imm(t->st, vals[s]);
		folded = fold_ir(t->op, t->dt, srcs, &got);
		if (folded != t->folded || (folded && got != t->want)) {
			note("%s(%#x, %#x, %#x) [%s]: %s %#x, want %s %#x", info->name, t->a, t->b,
			     t->c, t->why, folded ? "folded to" : "not folded", got,
			     t->folded ? "folded to" : "not folded", t->want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* ---- the cross-check with the simulated hardware ----------------------------------- */

#define L USC_LANES

static const uint32_t edge_f32[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0xc0200000, 0x00000001,
	0x807fffff, 0x00800000, 0x80800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0x7fa00000, 0xffc00001, 0x4f32d05e, 0xcf000000, 0x4f000000, 0x3effffff,
	0x3f000000, 0x4b000001, 0x1e3ce508, 0x9e3ce508, 0x40490fdb, 0x477fe000, 0x477ff000,
	0x38800000, 0x33000000, 0x33000001, 0x3f800800, 0xc7000000, 0x501502f9, 0xbf000000,
};
static const uint32_t edge_f16[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3e00,
	0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0xfe01, 0x3555, 0x4248,
	0x1400, 0x5640, 0x0200, 0x3800, 0x3bff, 0x6400, 0x7000, 0xc500, 0x3c01,
};
static const uint32_t edge_i32[] = {
	0,	    1,		2,	3,	 0x7fffffff, 0x80000000, 0x80000001,
	0xffffffff, 0xfffffffe, 0xffff, 0x10000, 0x12345678, 0xdeadbeef, 31,
	32,	    33,		63,	0x8000,	 0x7fff,     100,	 0xffffff9c,
	0x01000001, 0x01000003, 65519,	65520,	 0xfffff7ff,
};
static const uint32_t edge_i16[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0x1234, 0xfff0, 15, 16, 17 };

static const uint32_t *edges(enum agx_ir_type type, unsigned *count)
{
	switch (type) {
	case F32:
		*count = sizeof(edge_f32) / sizeof(edge_f32[0]);
		return edge_f32;
	case F16:
		*count = sizeof(edge_f16) / sizeof(edge_f16[0]);
		return edge_f16;
	case I16:
		*count = sizeof(edge_i16) / sizeof(edge_i16[0]);
		return edge_i16;
	default:
		*count = sizeof(edge_i32) / sizeof(edge_i32[0]);
		return edge_i32;
	}
}

/*
 * An op and the code selection would emit for it: sources in r1, r2, r3
 * (their low halves for 16-bit ones), the result in r4 (r4l); r5 holds an
 * f32 -0.0 and r6l an f16 -0.0 (the addend of a float-unit move), r7 is
 * scratch.  partial: some inputs stay unfolded (the table says which).
 */
struct xcheck {
	enum agx_ir_op op;
	enum agx_ir_type dt, st;
	const char *code;
	bool partial;
};

static const struct xcheck xchecks[] = {
	{ OP(fadd), F32, F32, "fadd r4, r1, r2", false },
	{ OP(fsub), F32, F32, "fadd r4, r1, r2.neg", false },
	{ OP(fmul), F32, F32, "fmul r4, r1, r2", false },
	{ OP(ffma), F32, F32, "fmadd r4, r1, r2, r3", false },
	{ OP(fneg), F32, F32, "fadd r4, r1.neg, r5", true },
	{ OP(fabs), F32, F32, "fadd r4, r1.abs, r5", true },
	{ OP(fmin), F32, F32, "fcmpsel ltn, r4, r1, r2, r1, r2", true },
	{ OP(fmax), F32, F32, "fcmpsel gtn, r4, r1, r2, r1, r2", true },
	{ OP(ffloor), F32, F32, "floor r4, r1", false },
	{ OP(fceil), F32, F32, "ceil r4, r1", false },
	{ OP(ftrunc), F32, F32, "trunc r4, r1", false },
	{ OP(fround_even), F32, F32, "rint r4, r1", false },
	{ OP(ffract), F32, F32, "floor r7, r1\nfadd r4, r1, r7.neg", false },
	{ OP(feq), B1, F32, "fcmpsel eq, r4, r1, r2, 1, 0", false },
	{ OP(fne), B1, F32, "fcmpsel eq, r4, r1, r2, 0, 1", false },
	{ OP(flt), B1, F32, "fcmpsel lt, r4, r1, r2, 1, 0", false },
	{ OP(fge), B1, F32, "fcmpsel gte, r4, r1, r2, 1, 0", false },
	{ OP(fadd), F16, F16, "fadd16 r4l, r1l, r2l", false },
	{ OP(fsub), F16, F16, "fadd16 r4l, r1l, r2l.neg", false },
	{ OP(fmul), F16, F16, "fmul16 r4l, r1l, r2l", false },
	{ OP(ffma), F16, F16, "fmadd16 r4l, r1l, r2l, r3l", false },
	{ OP(fneg), F16, F16, "fadd16 r4l, r1l.neg, r6l", true },
	{ OP(fabs), F16, F16, "fadd16 r4l, r1l.abs, r6l", true },
	{ OP(fmin), F16, F16, "fcmpsel ltn, r4l, r1l, r2l, r1l, r2l", true },
	{ OP(fmax), F16, F16, "fcmpsel gtn, r4l, r1l, r2l, r1l, r2l", true },
	{ OP(ffloor), F16, F16, "floor r4l, r1l", false },
	{ OP(fceil), F16, F16, "ceil r4l, r1l", false },
	{ OP(ftrunc), F16, F16, "trunc r4l, r1l", false },
	{ OP(fround_even), F16, F16, "rint r4l, r1l", false },
	{ OP(ffract), F16, F16, "floor r7l, r1l\nfadd16 r4l, r1l, r7l.neg", false },
	{ OP(feq), B1, F16, "fcmpsel eq, r4, r1l, r2l, 1, 0", false },
	{ OP(fne), B1, F16, "fcmpsel eq, r4, r1l, r2l, 0, 1", false },
	{ OP(flt), B1, F16, "fcmpsel lt, r4, r1l, r2l, 1, 0", false },
	{ OP(fge), B1, F16, "fcmpsel gte, r4, r1l, r2l, 1, 0", false },
	/* conversions */
	{ OP(f2i), I32, F32, "convert f_to_s32, r4, r1, rtz", false },
	{ OP(f2u), I32, F32, "convert f_to_u32, r4, r1, rtz", false },
	{ OP(f2i), I16, F32, "convert f_to_s16, r4l, r1, rtz", false },
	{ OP(f2u), I16, F32, "convert f_to_u16, r4l, r1, rtz", false },
	{ OP(f2i), I32, F16, "convert f_to_s32, r4, r1l, rtz", false },
	{ OP(f2u), I32, F16, "convert f_to_u32, r4, r1l, rtz", false },
	{ OP(f2i), I16, F16, "convert f_to_s16, r4l, r1l, rtz", false },
	{ OP(f2u), I16, F16, "convert f_to_u16, r4l, r1l, rtz", false },
	{ OP(i2f), F32, I32, "convert s32_to_f, r4, r1, rte", false },
	{ OP(u2f), F32, I32, "convert u32_to_f, r4, r1, rte", false },
	{ OP(i2f), F16, I32, "convert s32_to_f, r4l, r1, rte", false },
	{ OP(u2f), F16, I32, "convert u32_to_f, r4l, r1, rte", false },
	{ OP(i2f), F32, I16, "convert s16_to_f, r4, r1l, rte", false },
	{ OP(u2f), F32, I16, "convert u16_to_f, r4, r1l, rte", false },
	{ OP(i2f), F16, I16, "convert s16_to_f, r4l, r1l, rte", false },
	{ OP(u2f), F16, I16, "convert u16_to_f, r4l, r1l, rte", false },
	{ OP(f2f16), F16, F32, "fadd r4l, r1, r5", false },
	{ OP(f2f32), F32, F16, "fadd r4, r1l, r5", false },
	{ OP(i2i32), I32, I16, "iadd r4, r1l.sx, 0", false },
	{ OP(u2u32), I32, I16, "iadd r4, r1l, 0", false },
	/* integers */
	{ OP(iadd), I32, I32, "iadd r4, r1, r2", false },
	{ OP(isub), I32, I32, "isub r4, r1, r2", false },
	{ OP(imul), I32, I32, "imadd r4, r1, r2, 0", false },
	{ OP(ineg), I32, I32, "isub r4, 0, r1", false },
	{ OP(iand), I32, I32, "and r4, r1, r2", false },
	{ OP(ior), I32, I32, "or r4, r1, r2", false },
	{ OP(ixor), I32, I32, "xor r4, r1, r2", false },
	{ OP(inot), I32, I32, "not r4, r1", false },
	{ OP(ishl), I32, I32, "and r7, r2, 31\nbfi r4, 0, r1, r7", false },
	{ OP(ushr), I32, I32, "and r7, r2, 31\nbfeil r4, 0, r1, r7", false },
	{ OP(ishr), I32, I32, "and r7, r2, 31\nasr r4, r1, r7", false },
	{ OP(imin), I32, I32, "icmpsel slt, r4, r1, r2, r1, r2", false },
	{ OP(imax), I32, I32, "icmpsel sgt, r4, r1, r2, r1, r2", false },
	{ OP(umin), I32, I32, "icmpsel ult, r4, r1, r2, r1, r2", false },
	{ OP(umax), I32, I32, "icmpsel ugt, r4, r1, r2, r1, r2", false },
	{ OP(ieq), B1, I32, "icmpsel ueq, r4, r1, r2, 1, 0", false },
	{ OP(ine), B1, I32, "icmpsel ueq, r4, r1, r2, 0, 1", false },
	{ OP(ilt), B1, I32, "icmpsel slt, r4, r1, r2, 1, 0", false },
	{ OP(ige), B1, I32, "icmpsel slt, r4, r1, r2, 0, 1", false },
	{ OP(ult), B1, I32, "icmpsel ult, r4, r1, r2, 1, 0", false },
	{ OP(uge), B1, I32, "icmpsel ult, r4, r1, r2, 0, 1", false },
	{ OP(iadd), I16, I16, "iadd r4l, r1l, r2l", false },
	{ OP(imul), I16, I16, "imadd r4l, r1l, r2l, 0", false },
	{ OP(ilt), B1, I16, "icmpsel slt, r4, r1l, r2l, 1, 0", false },
	{ OP(ult), B1, I16, "icmpsel ult, r4, r1l, r2l, 1, 0", false },
};

struct lane_case {
	uint32_t src[3];
	uint32_t folded;
};

/* Runs code once over up to 32 cases, a lane each; fails on any lane that differs. */
static unsigned run_on_hardware(const struct xcheck *x, const struct lane_case *cases, unsigned n)
{
	char text[256], err[256];
	uint8_t code[128];
	long size;
	struct usc_program *p;
	struct usc_state *s = malloc(sizeof(*s));
	struct usc_result r;
	bool half_out = agx_ir_type_bits(x->dt) == 16;
	unsigned bad = 0;

	assert_non_null(s);
	snprintf(text, sizeof(text), "%s\nstop", x->code);
	size = agx_isa_assemble(text, code, sizeof(code), err, sizeof(err));
	if (size < 0)
		fail_msg("cannot assemble \"%s\": %s", x->code, err);
	p = usc_program_create(code, (size_t)size);
	assert_non_null(p);
	usc_state_init(s, L);
	for (unsigned l = 0; l < L; l++) {
		const uint32_t *v = cases[l < n ? l : 0].src;

		s->r[1][l] = v[0];
		s->r[2][l] = v[1];
		s->r[3][l] = v[2];
		s->r[5][l] = 0x80000000u;
		s->r[6][l] = 0x8000u;
	}
	r = usc_run(p, s, 1000);
	if (r.status != USC_DONE)
		fail_msg("\"%s\" ended with status %d: %s", x->code, r.status, r.message);
	for (unsigned l = 0; l < n; l++) {
		uint32_t hw = half_out ? s->r[4][l] & 0xffff : s->r[4][l];

		if (hw != cases[l].folded && bad++ < 8)
			note("%s %s (%#x, %#x, %#x): folded %#x, hardware %#x",
			     agx_ir_op_info(x->op)->name, agx_ir_type_name(x->dt), cases[l].src[0],
			     cases[l].src[1], cases[l].src[2], cases[l].folded, hw);
	}
	usc_program_destroy(p);
	free(s);
	return bad;
}

static void test_fold_hardware(void **state)
{
	unsigned bad = 0, checked = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(xchecks) / sizeof(xchecks[0]); i++) {
		const struct xcheck *x = &xchecks[i];
		unsigned nsrc = agx_ir_op_info(x->op)->num_srcs, count, total, n = 0;
		unsigned folded = 0, c_count;
		const uint32_t *vals = edges(x->st, &count);
		struct lane_case cases[L];

		/* all pairs (triples: the third from the first eight) */
		c_count = nsrc > 2 ? 8 : 1;
		total = count * (nsrc > 1 ? count : 1) * c_count;
		for (unsigned k = 0; k < total; k++) {
			struct agx_ir_value srcs[AGX_IR_MAX_SRCS] = { { 0 } };
			uint32_t v[3] = { vals[k % count], vals[(k / count) % count],
					  vals[(k / count / count) % count] };
			uint32_t bits;

			if (nsrc < 2)
				v[1] = 0;
			if (nsrc < 3)
				v[2] = 0;
			for (unsigned s = 0; s < nsrc; s++)
				srcs[s] = agx_ir_imm(x->st, v[s]);
			if (!fold_ir(x->op, x->dt, srcs, &bits)) {
				if (!x->partial) {
					note("%s %s (%#x, %#x, %#x) was not folded",
					     agx_ir_op_info(x->op)->name, agx_ir_type_name(x->dt),
					     v[0], v[1], v[2]);
					bad++;
				}
				continue;
			}
			folded++;
			memcpy(cases[n].src, v, sizeof(v));
			cases[n++].folded = bits;
			if (n == L) {
				bad += run_on_hardware(x, cases, n);
				n = 0;
			}
		}
		if (n)
			bad += run_on_hardware(x, cases, n);
		checked += folded;
		assert_true(folded > 0);
	}
	note("%u folds checked against the simulated hardware", checked);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_nothing),	cmocka_unit_test(test_fold_chain),
		cmocka_unit_test(test_fold_bcsel),	cmocka_unit_test(test_fold_cf),
		cmocka_unit_test(test_fold_unfoldable), cmocka_unit_test(test_fold_table),
		cmocka_unit_test(test_fold_hardware),
	};

	return cmocka_run_group_tests_name("opt_constant_fold", tests, NULL, NULL);
}

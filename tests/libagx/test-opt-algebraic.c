/*
 * test-opt-algebraic: agx_opt_algebraic, exact IR in and out.  Each test
 * builds the same shader twice, once as the pass gets it and once as it
 * should leave it (the rewritten instructions' dead sources stay: removing
 * them is agx_opt_dce's), and a shader of rewrites that must not happen --
 * above all the float ones that are not exact under the G13's denormal
 * flush and canonical NaN (docs/compiler.md, "Optimizations").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ir-test.h"

#define I32 AGX_IR_TYPE_I32
#define I16 AGX_IR_TYPE_I16
#define F32 AGX_IR_TYPE_F32
#define F16 AGX_IR_TYPE_F16

typedef void (*build_fn)(struct agx_builder *b, bool simplified);

/* Builds fn's shader unsimplified and simplified, runs the pass on the first, compares. */
static void check_build(build_fn fn, bool progress)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	fn(&b, false);
	want = shader_new(&f, &b);
	fn(&b, progress);
	check_pass(in, want, agx_opt_algebraic, progress);
}

/* Stores values at consecutive words. */
struct out {
	struct agx_builder *b;
	unsigned n;
};

static void put(struct out *o, struct agx_ir_value v)
{
	agx_store_ssbo(o->b, v, agx_imm_u32(4 * o->n++), 0);
}

/* A b1 made storable, by an op the pass leaves (b2i of an immediate is constant folding's). */
static void put_bool(struct out *o, struct agx_ir_value c)
{
	put(o, agx_b2i(o->b, I32, c));
}

/* ---- nothing to do ------------------------------------------------------------ */

/*
 * Not identities on this hardware: x + 0.0 (-0 + 0 is +0), x * 0.0, x * 1.0
 * and x + -0.0 and -(-x) of a value the float unit did not write (a load:
 * its denormal or NaN bits pass unflushed), x == x of floats (NaN), signed
 * division by a power of two (rounds toward zero), ffma's -0.0 addend.
 */
static void build_nothing(struct agx_builder *b, bool simplified)
{
	struct out o = { b, 0 };
	struct agx_ir_value x = agx_load_ssbo(b, F32, agx_imm_u32(0), 1);
	struct agx_ir_value y = agx_load_ssbo(b, F32, agx_imm_u32(4), 1);
	struct agx_ir_value i = agx_load_uniform(b, I32, 0), j = agx_load_uniform(b, I32, 4);
	struct agx_ir_value sum = agx_fadd(b, x, y);

	(void)simplified;
	put(&o, agx_fadd(b, sum, agx_imm_f32(0.0f)));
	put(&o, agx_fmul(b, sum, agx_imm_f32(0.0f)));
	put(&o, agx_fmul(b, sum, agx_imm_f32(2.0f)));
	put(&o, agx_fmul(b, x, agx_imm_f32(1.0f)));
	put(&o, agx_fadd(b, x, agx_imm_f32(-0.0f)));
	put(&o, agx_fsub(b, y, agx_imm_f32(0.0f)));
	put(&o, agx_fneg(b, agx_fneg(b, x)));
	put(&o, agx_fmul(b, agx_bitcast(b, F32, i), agx_imm_f32(1.0f)));
	put(&o, agx_fmul(b, agx_fmin(b, sum, y), agx_imm_f32(1.0f)));
	put(&o, agx_ffma(b, x, y, agx_imm_f32(-0.0f)));
	put(&o, agx_fsub(b, x, x));
	put_bool(&o, agx_feq(b, x, x));
	put_bool(&o, agx_fne(b, x, x));
	put(&o, agx_idiv(b, i, agx_imm_u32(4)));
	put(&o, agx_imul(b, i, agx_imm_u32(6)));
	put(&o, agx_iadd(b, i, j));
	put(&o, agx_isub(b, j, i));
	put(&o, agx_ishl(b, i, agx_imm_u32(31)));
	put(&o, agx_bcsel(b, agx_ilt(b, i, j), i, j));
}

static void test_algebraic_nothing(void **state)
{
	(void)state;
	check_build(build_nothing, false);
}

/* ---- integers -------------------------------------------------------------------- */

static void build_int(struct agx_builder *b, bool s)
{
	struct out o = { b, 0 };
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), h = agx_load_uniform(b, I16, 4);
	struct agx_ir_value zero = agx_imm_u32(0), ones = agx_imm_u32(0xffffffff), v;

	put(&o, s ? x : agx_iadd(b, x, zero));
	put(&o, s ? x : agx_iadd(b, zero, x));
	put(&o, s ? x : agx_isub(b, x, zero));
	put(&o, s ? zero : agx_isub(b, x, x));
	put(&o, s ? agx_ineg(b, x) : agx_isub(b, zero, x));
	put(&o, s ? zero : agx_imul(b, x, zero));
	put(&o, s ? x : agx_imul(b, agx_imm_u32(1), x));
	put(&o, s ? agx_ineg(b, x) : agx_imul(b, x, ones));
	put(&o, s ? agx_ishl(b, x, agx_imm_u32(3)) : agx_imul(b, x, agx_imm_u32(8)));
	put(&o, s ? agx_ishl(b, x, agx_imm_u32(31)) : agx_imul(b, agx_imm_u32(0x80000000), x));
	v = agx_ineg(b, x); /* stays, unread, when simplified */
	put(&o, s ? x : agx_ineg(b, v));
	v = agx_inot(b, x);
	put(&o, s ? x : agx_inot(b, v));
	put(&o, s ? zero : agx_iand(b, x, zero));
	put(&o, s ? x : agx_iand(b, ones, x));
	put(&o, s ? x : agx_iand(b, x, x));
	put(&o, s ? x : agx_ior(b, x, zero));
	put(&o, s ? ones : agx_ior(b, x, ones));
	put(&o, s ? x : agx_ior(b, x, x));
	put(&o, s ? zero : agx_ixor(b, x, x));
	put(&o, s ? x : agx_ixor(b, zero, x));
	put(&o, s ? agx_inot(b, x) : agx_ixor(b, x, ones));
	/* shifts: by 0 or a multiple of the size; of 0; -1 arithmetic; counts modulo the size */
	put(&o, s ? x : agx_ishl(b, x, zero));
	put(&o, s ? x : agx_ushr(b, x, agx_imm_u32(64)));
	put(&o, agx_ishr(b, x, agx_imm_u32(s ? 3 : 35)));
	put(&o, s ? zero : agx_ushr(b, zero, x));
	put(&o, s ? ones : agx_ishr(b, ones, x));
	/* divisions */
	put(&o, s ? agx_ushr(b, x, agx_imm_u32(4)) : agx_udiv(b, x, agx_imm_u32(16)));
	put(&o, s ? x : agx_udiv(b, x, agx_imm_u32(1)));
	put(&o, s ? agx_iand(b, x, agx_imm_u32(15)) : agx_umod(b, x, agx_imm_u32(16)));
	put(&o, s ? zero : agx_umod(b, x, agx_imm_u32(1)));
	put(&o, s ? x : agx_idiv(b, x, agx_imm_u32(1)));
	put(&o, s ? agx_ineg(b, x) : agx_idiv(b, x, ones));
	put(&o, s ? zero : agx_irem(b, x, ones));
	put(&o, s ? zero : agx_irem(b, x, agx_imm_u32(1)));
	/* min and max: of x twice, at the bounds */
	put(&o, s ? x : agx_imin(b, x, x));
	put(&o, s ? zero : agx_umin(b, x, zero));
	put(&o, s ? x : agx_umax(b, zero, x));
	put(&o, s ? ones : agx_umax(b, x, ones));
	put(&o, s ? agx_imm_u32(0x7fffffff) : agx_imax(b, x, agx_imm_u32(0x7fffffff)));
	put(&o, s ? x : agx_imin(b, x, agx_imm_u32(0x7fffffff)));
	put(&o, s ? agx_imm_u32(0x80000000) : agx_imin(b, agx_imm_u32(0x80000000), x));
	put(&o, s ? x : agx_imax(b, x, agx_imm_u32(0x80000000)));
	/* 16 bits: the all-ones and sign bounds are 16-bit ones */
	put(&o, s ? h : agx_iadd(b, h, agx_imm_u16(0)));
	put(&o, s ? agx_ineg(b, h) : agx_imul(b, h, agx_imm_u16(0xffff)));
	put(&o, s ? agx_imm_u16(0x7fff) : agx_imax(b, h, agx_imm_u16(0x7fff)));
	put(&o, s ? h : agx_ishr(b, h, agx_imm_u16(16)));
	v = agx_i2i32(b, h);
	put(&o, s ? h : agx_i2i16(b, v));
	v = agx_u2u32(b, h);
	put(&o, s ? h : agx_i2i16(b, v));
	v = agx_bitcast(b, F32, x);
	put(&o, s ? x : agx_bitcast(b, I32, v));
}

static void test_algebraic_int(void **state)
{
	(void)state;
	check_build(build_int, true);
}

/* ---- comparisons, booleans, selects ---------------------------------------------------- */

static void build_bool(struct agx_builder *b, bool s)
{
	struct out o = { b, 0 };
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), y = agx_load_uniform(b, I32, 4);
	struct agx_ir_value c = agx_ult(b, x, y), d = agx_ieq(b, x, agx_imm_u32(7));
	struct agx_ir_value t = agx_imm_bool(true), f = agx_imm_bool(false), v;

	put_bool(&o, s ? t : agx_ieq(b, x, x));
	put_bool(&o, s ? f : agx_ine(b, x, x));
	put_bool(&o, s ? f : agx_ilt(b, y, y));
	put_bool(&o, s ? t : agx_ige(b, y, y));
	put_bool(&o, s ? f : agx_ult(b, x, agx_imm_u32(0)));
	put_bool(&o, s ? t : agx_uge(b, x, agx_imm_u32(0)));
	put_bool(&o, s ? c : agx_band(b, c, t));
	put_bool(&o, s ? f : agx_band(b, f, c));
	put_bool(&o, s ? c : agx_band(b, c, c));
	put_bool(&o, s ? c : agx_bor(b, f, c));
	put_bool(&o, s ? t : agx_bor(b, c, t));
	put_bool(&o, s ? f : agx_bxor(b, c, c));
	put_bool(&o, s ? c : agx_bxor(b, c, f));
	put_bool(&o, s ? agx_bnot(b, c) : agx_bxor(b, t, c));
	v = agx_bnot(b, c);
	put_bool(&o, s ? c : agx_bnot(b, v));
	put(&o, s ? x : agx_bcsel(b, c, x, x));
	put_bool(&o, s ? c : agx_bcsel(b, c, t, f));
	put_bool(&o, s ? agx_bnot(b, c) : agx_bcsel(b, c, f, t));
	put_bool(&o, s ? agx_bor(b, c, d) : agx_bcsel(b, c, t, d));
	put_bool(&o, s ? agx_band(b, c, d) : agx_bcsel(b, c, d, f));
	/* bnot c ? x : y is c ? y : x, the same instruction with its sources turned */
	v = agx_bnot(b, d);
	put(&o, s ? agx_bcsel(b, d, y, x) : agx_bcsel(b, v, x, y));
}

static void test_algebraic_bool(void **state)
{
	(void)state;
	check_build(build_bool, true);
}

/* ---- floats -------------------------------------------------------------------------- */

/*
 * x * 1.0, x + -0.0, x - 0.0, -(-x) are x for values the float unit
 * wrote; ffma's 1.0 factor and +0.0 addend give fadd and fmul for any
 * sources; |(-x)| and ||x|| are |x|; fmin(x, x) is x.
 */
static void build_float(struct agx_builder *b, bool s)
{
	struct out o = { b, 0 };
	struct agx_ir_value x = agx_load_ssbo(b, F32, agx_imm_u32(0), 1);
	struct agx_ir_value y = agx_load_ssbo(b, F32, agx_imm_u32(4), 1);
	struct agx_ir_value i = agx_load_uniform(b, I32, 0);
	struct agx_ir_value sum = agx_fadd(b, x, y), fl = agx_ffloor(b, x);
	struct agx_ir_value conv = agx_i2f(b, F32, i), one = agx_imm_f32(1.0f);
	struct agx_ir_value h = agx_f2f16(b, x), v;

	put(&o, s ? sum : agx_fmul(b, sum, one));
	put(&o, s ? fl : agx_fmul(b, one, fl));
	put(&o, s ? conv : agx_fmul(b, conv, one));
	put(&o, s ? sum : agx_fadd(b, agx_imm_f32(-0.0f), sum));
	put(&o, s ? sum : agx_fsub(b, sum, agx_imm_f32(0.0f)));
	v = agx_fneg(b, sum);
	put(&o, s ? sum : agx_fneg(b, v));
	put(&o, s ? h : agx_fmul(b, h, agx_imm_f16(1.0f)));
	put(&o, s ? agx_fadd(b, x, y) : agx_ffma(b, x, one, y));
	put(&o, s ? agx_fadd(b, y, x) : agx_ffma(b, one, y, x));
	put(&o, s ? agx_fmul(b, x, y) : agx_ffma(b, x, y, agx_imm_f32(0.0f)));
	v = agx_fneg(b, x);
	put(&o, agx_fabs(b, s ? x : v));
	v = agx_fabs(b, y);
	put(&o, agx_fabs(b, s ? y : v));
	put(&o, s ? x : agx_fmin(b, x, x));
	put(&o, s ? y : agx_fmax(b, y, y));
}

static void test_algebraic_float(void **state)
{
	(void)state;
	check_build(build_float, true);
}

/* ---- across control flow ---------------------------------------------------------------- */

/* A phi and an if condition read the simplified value. */
static void build_cf(struct agx_builder *b, bool s)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), t, phi, c;
	struct agx_ir_if *nif;

	c = agx_ult(b, x, agx_imm_u32(4));
	nif = agx_builder_push_if(b, s ? c : agx_band(b, c, c));
	t = s ? x : agx_ior(b, x, agx_imm_u32(0));
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, I32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), agx_imm_u32(3));
	agx_store_ssbo(b, phi, agx_imm_u32(0), 0);
}

static void test_algebraic_cf(void **state)
{
	(void)state;
	check_build(build_cf, true);
}

/* What the pass makes is already simplified: a second run does nothing. */
static void test_algebraic_twice(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b), *want;

	(void)state;
	build_int(&b, false);
	assert_true(agx_pass(s, agx_opt_algebraic));
	want = shader_new(&f, &b);
	build_int(&b, true);
	check_pass(s, want, agx_opt_algebraic, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_algebraic_nothing), cmocka_unit_test(test_algebraic_int),
		cmocka_unit_test(test_algebraic_bool),	  cmocka_unit_test(test_algebraic_float),
		cmocka_unit_test(test_algebraic_cf),	  cmocka_unit_test(test_algebraic_twice),
	};

	return cmocka_run_group_tests_name("opt_algebraic", tests, NULL, NULL);
}

/*
 * test-lower-alu.c: agx_lower_alu.  Two kinds of test:
 *
 *  - exact IR: each rule's input and expected output built with the
 *    builder, compared after the pass;
 *  - numbers: a small evaluator of straight-line IR, with the simulator's
 *    semantics (docs/isa.md, "Execution in agx-sim": f32 denormals flushed
 *    on input and output, one canonical NaN, fmul's exact zero +0, frcp,
 *    frsqrt_special, log2 and exp2 in double rounded once, sin_pt_1 and
 *    sin_pt_2 as sim/usc/usc.c has them, conversions saturating), runs the
 *    lowered code: integer divisions against C's on every pair of 16-bit
 *    values and on 10^6 random 32-bit pairs with the edge cases, float
 *    results against libm within GLSL ES 3.00's precision rules.
 *
 * The evaluator runs one instruction at a time over many lanes at once;
 * a value every lane has the same (what depends only on a divisor held
 * fixed) is computed once.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-test.h"
#include "sanitized.h"

/*
 * Under ASan the evaluator runs some twenty times slower: there the
 * samples below are thinner (sanitized.h), the normal build checks them
 * whole.  16-bit divisors checked apart from the edges: 1 in SPARSE_16.
 */
#define SPARSE_16 (SANITIZED ? 2000 : 120)
#define EDGE_16	  (SANITIZED ? 256 : 2048)

/* ---- the evaluator ---------------------------------------------------------------- */

struct prog {
	struct agx_ir_instr **instrs;
	unsigned count, num_defs, width;
	uint32_t **val;	  /* per def: width lanes */
	bool *uniform;	  /* per def: lane 0 holds every lane's value */
	int rcp_ulps;	  /* frcp's result moved by this many units in the last place */
	uint32_t **in;	  /* load_uniform offset=4k reads in[k] ... */
	bool *in_uniform; /* ... the same in every lane when set */
	uint32_t **out;	  /* store_ssbo at byte 4k writes out[k] */
	unsigned num_in, num_out;
};

static struct prog *prog_create(struct agx_ir_shader *s, unsigned width)
{
	struct agx_ir_function *f = agx_ir_shader_first_function(s);
	struct prog *p = calloc(1, sizeof(*p));
	unsigned n = 0;

	assert_non_null(p);
	agx_ir_foreach_block(f, block) {
		agx_ir_foreach_instr(block, instr)
			n++;
	}
	assert_non_null(agx_ir_function_first_block(f));
	/* straight-line code only: one block */
	assert_null(agx_ir_block_next(agx_ir_function_first_block(f)));
	p->instrs = calloc(n, sizeof(*p->instrs));
	assert_non_null(p->instrs);
	agx_ir_foreach_instr(agx_ir_function_first_block(f), instr)
		p->instrs[p->count++] = instr;
	p->num_defs = f->num_defs;
	p->width = width;
	p->val = calloc(p->num_defs, sizeof(*p->val));
	p->uniform = calloc(p->num_defs, sizeof(*p->uniform));
	assert_non_null(p->val);
	assert_non_null(p->uniform);
	for (unsigned i = 0; i < p->num_defs; i++) {
		p->val[i] = calloc(width, sizeof(uint32_t));
		assert_non_null(p->val[i]);
	}
	return p;
}

static void prog_destroy(struct prog *p)
{
	for (unsigned i = 0; i < p->num_defs; i++)
		free(p->val[i]);
	free(p->val);
	free(p->uniform);
	free(p->instrs);
	free(p);
}

static uint32_t f2u32(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float u2f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* An f32 operand as the float unit reads it: denormals are zeros of their sign. */
static float fin32(uint32_t u)
{
	return u2f32((u & 0x7f800000u) ? u : u & 0x80000000u);
}

/* An f32 result as the float unit writes it: denormals flushed, one NaN. */
static uint32_t fout32(double d)
{
	uint32_t u = f2u32((float)d);

	u = (u & 0x7f800000u) ? u : u & 0x80000000u;
	return (u & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : u;
}

static uint32_t fout16(double d)
{
	uint16_t h = agx_ir_f32_to_f16((float)d);

	return (h & 0x7fff) > 0x7c00 ? 0x7e00 : h;
}

static double fin(uint32_t u, bool half)
{
	return half ? (double)agx_ir_f16_to_f32((uint16_t)u) : (double)fin32(u);
}

static uint32_t fout(double d, bool half)
{
	return half ? fout16(d) : fout32(d);
}

/* The simulator's sin_pt_1 and sin_pt_2 (docs/isa.md; sim/usc/usc.c). */
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

static uint32_t f2u_sat(double x, unsigned bits, bool is_signed)
{
	double lo = is_signed ? -ldexp(1, (int)bits - 1) : 0;
	double hi = is_signed ? ldexp(1, (int)bits - 1) - 1 : ldexp(1, (int)bits) - 1;
	uint32_t mask = bits == 32 ? 0xffffffffu : 0xffffu;

	if (isnan(x))
		return 0;
	x = trunc(x);
	x = x < lo ? lo : x > hi ? hi : x;
	return is_signed ? (uint32_t)(int64_t)x & mask : (uint32_t)(uint64_t)x & mask;
}

static int64_t sext(uint32_t v, unsigned bits)
{
	return bits == 32 ? (int64_t)(int32_t)v : (int64_t)(int16_t)(uint16_t)v;
}

/* One lane of one instruction; a, b, c its sources' bits. */
static uint32_t eval_lane(const struct prog *p, const struct agx_ir_instr *I, uint32_t a,
			  uint32_t b, uint32_t c)
{
	enum agx_ir_type t = I->dest.type;
	enum agx_ir_type st = I->num_srcs ? agx_ir_src_type(&I->src[0]) : t;
	bool half = agx_ir_type_bits(t) == 16, shalf = agx_ir_type_bits(st) == 16;
	unsigned bits = agx_ir_type_bits(t), sbits = agx_ir_type_bits(st);
	uint32_t mask = bits == 32 ? 0xffffffffu : bits == 16 ? 0xffffu : 1u;
	uint32_t smask = sbits == 32 ? 0xffffffffu : 0xffffu;
	double x = 0, y = 0, z = 0;

	if (agx_ir_type_is_float(st)) {
		x = fin(a, shalf);
		y = fin(b, shalf);
		z = fin(c, shalf);
	}
	switch (I->op) {
	case AGX_IR_OP_fadd:
		return fout(half ? x + y : (double)((float)x + (float)y), half);
	case AGX_IR_OP_fmul:
		if (x == 0.0 || y == 0.0)
			return fout(x * y + 0.0, half);
		return fout(half ? x * y : (double)((float)x * (float)y), half);
	case AGX_IR_OP_ffma:
		return fout(half ? fma(x, y, z) : (double)fmaf((float)x, (float)y, (float)z), half);
	case AGX_IR_OP_fneg:
		return fout(-x, half);
	case AGX_IR_OP_fabs:
		return fout(fabs(x), half);
	case AGX_IR_OP_fmin:
		return fout(isnan(x) ? y : isnan(y) ? x : x < y ? x : y, half);
	case AGX_IR_OP_fmax:
		return fout(isnan(x) ? y : isnan(y) ? x : x > y ? x : y, half);
	case AGX_IR_OP_ffloor:
		return fout(floor(x), half);
	case AGX_IR_OP_frcp: {
		uint32_t r = fout(1.0 / x, half);

		/* a reciprocal off by whole units (finite, non-zero results only) */
		if (p->rcp_ulps && (r & 0x7fffffff) && (r & 0x7fffffff) < 0x7f800000u)
			r = (uint32_t)((int64_t)r + p->rcp_ulps);
		return r;
	}
	case AGX_IR_OP_frsqrt_special:
		if (x == 0.0 || isinf(x))
			return fout(x == 0.0 ? 0.0 : INFINITY, half);
		return fout(1.0 / sqrt(x), half);
	case AGX_IR_OP_fexp2:
		return fout(exp2(x), half);
	case AGX_IR_OP_flog2:
		return fout(log2(x), half);
	case AGX_IR_OP_fsin_pt_1:
		/* the hardware's argument: quarter turns in [0, 4) (applegpu) */
		if (x < 0.0 || x >= 4.0)
			fail_msg("sin_pt_1 of %g, outside [0, 4)", x);
		return fout(sin_pt_1(x), half);
	case AGX_IR_OP_fsin_pt_2:
		return fout(sin_pt_2(x), half);
	case AGX_IR_OP_u2f:
		return fout(half ? (double)(a & smask) : (double)(float)(a & smask), half);
	case AGX_IR_OP_i2f:
		return fout(half ? (double)sext(a, sbits) : (double)(float)sext(a, sbits), half);
	case AGX_IR_OP_f2u:
		return f2u_sat(x, bits, false);
	case AGX_IR_OP_f2i:
		return f2u_sat(x, bits, true);
	case AGX_IR_OP_iadd:
		return (a + b) & mask;
	case AGX_IR_OP_isub:
		return (a - b) & mask;
	case AGX_IR_OP_imul:
		return (a * b) & mask;
	case AGX_IR_OP_ineg:
		return (0u - a) & mask;
	case AGX_IR_OP_iand:
		return a & b;
	case AGX_IR_OP_ior:
		return a | b;
	case AGX_IR_OP_ixor:
		return a ^ b;
	case AGX_IR_OP_inot:
		return ~a & mask;
	case AGX_IR_OP_ishl:
		return (a << (b % bits)) & mask;
	case AGX_IR_OP_ushr:
		return (a & mask) >> (b % bits);
	case AGX_IR_OP_ishr:
		return (uint32_t)(sext(a, bits) >> (b % bits)) & mask;
	case AGX_IR_OP_umul_high:
		return (uint32_t)(((uint64_t)a * b) >> 32);
	case AGX_IR_OP_imul_high:
		return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
	case AGX_IR_OP_ieq:
		return a == b;
	case AGX_IR_OP_ine:
		return a != b;
	case AGX_IR_OP_ult:
		return a < b;
	case AGX_IR_OP_uge:
		return a >= b;
	case AGX_IR_OP_ilt:
		return sext(a, sbits) < sext(b, sbits);
	case AGX_IR_OP_ige:
		return sext(a, sbits) >= sext(b, sbits);
	case AGX_IR_OP_bcsel:
		return a ? b : c;
	case AGX_IR_OP_mov:
		return a;
	case AGX_IR_OP_u2u32:
		return a & 0xffff;
	case AGX_IR_OP_i2i32:
		return (uint32_t)sext(a, 16);
	case AGX_IR_OP_i2i16:
		return a & 0xffff;
	default:
		fail_msg("the evaluator has no %s", agx_ir_op_info(I->op)->name);
		return 0;
	}
}

/* The lanes of a source: its def's, or an immediate's (uniform). */
static const uint32_t *src_lanes(struct prog *p, const struct agx_ir_src *s, uint32_t *imm,
				 bool *uniform)
{
	if (!s->def) {
		*imm = s->imm;
		*uniform = true;
		return imm;
	}
	*uniform = p->uniform[s->def->index];
	return p->val[s->def->index];
}

/*
 * The integer ops of the division sequences, lane by lane in loops the
 * compiler vectorizes: the exhaustive 16-bit test runs 2^32 pairs through
 * them.  Returns false for what eval_lane() does instead.
 */
static bool run_fast(const struct agx_ir_instr *I, unsigned width, uint32_t *restrict d,
		     const uint32_t *restrict a, const uint32_t *restrict b,
		     const uint32_t *restrict c)
{
	if (I->dest.type != AGX_IR_TYPE_I32 && I->dest.type != AGX_IR_TYPE_B1 &&
	    I->op != AGX_IR_OP_i2i16)
		return false;
	if (I->num_srcs && agx_ir_src_type(&I->src[0]) != AGX_IR_TYPE_I32 &&
	    agx_ir_src_type(&I->src[0]) != AGX_IR_TYPE_B1 && I->op != AGX_IR_OP_u2u32 &&
	    I->op != AGX_IR_OP_i2i32)
		return false;
#define LANES(expr)                                                                                \
	do {                                                                                       \
		for (unsigned l = 0; l < width; l++)                                               \
			d[l] = (expr);                                                             \
	} while (0)
	switch (I->op) {
	case AGX_IR_OP_iadd:
		LANES(a[l] + b[l]);
		return true;
	case AGX_IR_OP_isub:
		LANES(a[l] - b[l]);
		return true;
	case AGX_IR_OP_imul:
		LANES(a[l] * b[l]);
		return true;
	case AGX_IR_OP_ixor:
		LANES(a[l] ^ b[l]);
		return true;
	case AGX_IR_OP_umul_high:
		LANES((uint32_t)(((uint64_t)a[l] * b[l]) >> 32));
		return true;
	case AGX_IR_OP_uge:
		LANES(a[l] >= b[l]);
		return true;
	case AGX_IR_OP_bcsel: /* a mask of the b1, not a branch: the lanes go both ways */
		LANES((b[l] & (0u - a[l])) | (c[l] & (a[l] - 1u)));
		return true;
	case AGX_IR_OP_ishr:
		LANES((uint32_t)((int32_t)a[l] >> (b[l] & 31)));
		return true;
	case AGX_IR_OP_u2u32:
	case AGX_IR_OP_i2i16:
		LANES(a[l] & 0xffff);
		return true;
	case AGX_IR_OP_i2i32:
		LANES((uint32_t)(int32_t)(int16_t)(uint16_t)a[l]);
		return true;
	default:
		return false;
	}
#undef LANES
}

/* Makes a uniform def's lanes all hold its value, for an instruction that reads it lane by lane. */
static void spread(struct prog *p, const struct agx_ir_src *s, unsigned width, bool *spread_done)
{
	uint32_t *v;

	if (!s->def || !p->uniform[s->def->index] || spread_done[s->def->index])
		return;
	v = p->val[s->def->index];
	for (unsigned l = 1; l < width; l++)
		v[l] = v[0];
	spread_done[s->def->index] = true;
}

static void prog_run(struct prog *p, unsigned width)
{
	bool *spread_done = calloc(p->num_defs, sizeof(bool));
	uint32_t *imm_lanes[3] = { NULL, NULL, NULL };

	assert_non_null(spread_done);
	for (unsigned i = 0; i < p->count; i++) {
		struct agx_ir_instr *I = p->instrs[i];
		const uint32_t *src[3] = { 0 };
		uint32_t imm[3] = { 0 }, zero = 0;
		bool uni[3] = { true, true, true }, all_uniform = true;

		for (unsigned s = 0; s < 3; s++) {
			src[s] = &zero;
			if (s < I->num_srcs)
				src[s] = src_lanes(p, &I->src[s], &imm[s], &uni[s]);
			all_uniform &= uni[s];
		}
		if (I->op == AGX_IR_OP_load_uniform) {
			unsigned k = I->imm[0] / 4;

			assert_true(k < p->num_in);
			memcpy(p->val[I->dest.index], p->in[k],
			       (p->in_uniform[k] ? 1 : width) * sizeof(uint32_t));
			p->uniform[I->dest.index] = p->in_uniform[k];
			continue;
		}
		if (I->op == AGX_IR_OP_store_ssbo) {
			unsigned k;

			assert_null(I->src[1].def);
			k = I->src[1].imm / 4;
			assert_true(k < p->num_out);
			if (uni[0]) {
				for (unsigned l = 0; l < width; l++)
					p->out[k][l] = src[0][0];
			} else {
				memcpy(p->out[k], src[0], width * sizeof(uint32_t));
			}
			continue;
		}
		if (all_uniform) {
			p->val[I->dest.index][0] = eval_lane(p, I, src[0][0], src[1][0], src[2][0]);
			p->uniform[I->dest.index] = true;
			continue;
		}
		p->uniform[I->dest.index] = false;
		/* the fast loops read every source lane by lane: spread uniforms, immediates */
		for (unsigned s = 0; s < I->num_srcs; s++) {
			if (!uni[s])
				continue;
			if (I->src[s].def) {
				spread(p, &I->src[s], width, spread_done);
				continue;
			}
			if (!imm_lanes[s]) {
				imm_lanes[s] = malloc(width * sizeof(uint32_t));
				assert_non_null(imm_lanes[s]);
			}
			for (unsigned l = 0; l < width; l++)
				imm_lanes[s][l] = imm[s];
			src[s] = imm_lanes[s];
		}
		if (run_fast(I, width, p->val[I->dest.index], src[0], src[1], src[2]))
			continue;
		for (unsigned l = 0; l < width; l++)
			p->val[I->dest.index][l] =
			    eval_lane(p, I, src[0][uni[0] ? 0 : l], src[1][uni[1] ? 0 : l],
				      src[2][uni[2] ? 0 : l]);
	}
	for (unsigned s = 0; s < 3; s++)
		free(imm_lanes[s]);
	free(spread_done);
}

/*
 * A shader computing `ops` of (a, b), a and b the 32-bit words at byte 0
 * and 4 of the uniforms, each result stored at byte 4 * its number; lowered.
 */
static struct agx_ir_shader *binary_shader(enum agx_ir_type type, const enum agx_ir_op *ops,
					   unsigned num_ops)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, type, 0), y = agx_load_uniform(&b, type, 4);

	for (unsigned i = 0; i < num_ops; i++) {
		struct agx_ir_value srcs[2] = { x, y };
		struct agx_ir_instr *I = agx_builder_emit(&b, ops[i], type, srcs, NULL);

		agx_store_ssbo(&b, agx_ir_def_value(&I->dest), agx_imm_u32(4 * i), 0);
	}
	assert_valid(s);
	assert_true(agx_pass(s, agx_lower_alu));
	/* nothing lowered is left */
	agx_ir_foreach_block(f, block) {
		agx_ir_foreach_instr(block, instr)
			assert_false(agx_ir_op_info(instr->op)->flags & AGX_IR_LOWERED);
	}
	return s;
}

/* ---- exact IR -------------------------------------------------------------------- */

/* A shader reading a and b (type t) and storing op(a, b) or op(a). */
static struct agx_ir_shader *one_op(enum agx_ir_type t, enum agx_ir_op op, struct agx_ir_value *a,
				    struct agx_ir_value *b, struct agx_builder *bld)
{
	struct agx_ir_function *f;
	struct agx_ir_shader *s = shader_new(&f, bld);

	*a = agx_load_uniform(bld, t, 0);
	*b = agx_load_uniform(bld, t, 4);
	if (op != AGX_IR_OP_undef) {
		struct agx_ir_value srcs[2] = { *a, *b };
		struct agx_ir_instr *I = agx_builder_emit(bld, op, t, srcs, NULL);

		agx_store_ssbo(bld, agx_ir_def_value(&I->dest), agx_imm_u32(0), 0);
	}
	return s;
}

static void store(struct agx_builder *b, struct agx_ir_value v)
{
	agx_store_ssbo(b, v, agx_imm_u32(0), 0);
}

static void test_alu_fsub(void **state)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_fsub, &x, &y, &b), *want;

	(void)state;
	want = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_undef, &x, &y, &b);
	store(&b, agx_fadd(&b, x, agx_fneg(&b, y)));
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_fdiv(void **state)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(AGX_IR_TYPE_F16, AGX_IR_OP_fdiv, &x, &y, &b), *want;

	(void)state;
	want = one_op(AGX_IR_TYPE_F16, AGX_IR_OP_undef, &x, &y, &b);
	store(&b, agx_fmul(&b, x, agx_frcp(&b, y)));
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_ffract(void **state)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_ffract, &x, &y, &b), *want;

	(void)state;
	want = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_undef, &x, &y, &b);
	store(&b, agx_fadd(&b, x, agx_fneg(&b, agx_ffloor(&b, x))));
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_fsqrt(void **state)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_fsqrt, &x, &y, &b), *want;

	(void)state;
	want = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_undef, &x, &y, &b);
	store(&b, agx_fmul(&b, x, agx_frsqrt_special(&b, x)));
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_fpow(void **state)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_fpow, &x, &y, &b), *want;

	(void)state;
	want = one_op(AGX_IR_TYPE_F32, AGX_IR_OP_undef, &x, &y, &b);
	store(&b, agx_fexp2(&b, agx_fmul(&b, y, agx_flog2(&b, x))));
	check_pass(in, want, agx_lower_alu, true);
}

/*
 * sin: turns = x / tau, 4 * fract(turns) quarter turns kept below 4, u * sin_pt_2 u;
 * cos a quarter turn on.
 */
static void want_sincos(struct agx_builder *b, struct agx_ir_value x, bool is_cos, bool half)
{
	float inv_tau = (float)(0.5 / M_PI);
	struct agx_ir_value k = half ? agx_imm_f16(inv_tau) : agx_imm_f32(inv_tau);
	struct agx_ir_value turns =
	    is_cos ? agx_ffma(b, x, k, half ? agx_imm_f16(0.25f) : agx_imm_f32(0.25f))
		   : agx_fmul(b, x, k);
	struct agx_ir_value fr = agx_fadd(b, turns, agx_fneg(b, agx_ffloor(b, turns)));
	struct agx_ir_value q = agx_fmul(b, fr, half ? agx_imm_f16(4.0f) : agx_imm_f32(4.0f));
	struct agx_ir_value below4 = half ? agx_imm_f16(3.998046875f) : agx_imm_f32(0x1.fffffep1f);
	struct agx_ir_value u = agx_fsin_pt_1(b, agx_fmin(b, q, below4));

	store(b, agx_fmul(b, u, agx_fsin_pt_2(b, u)));
}

static void check_sincos(enum agx_ir_type t, bool is_cos)
{
	struct agx_builder b;
	struct agx_ir_value x, y;
	struct agx_ir_shader *in = one_op(t, is_cos ? AGX_IR_OP_fcos : AGX_IR_OP_fsin, &x, &y, &b);
	struct agx_ir_shader *want = one_op(t, AGX_IR_OP_undef, &x, &y, &b);

	want_sincos(&b, x, is_cos, t == AGX_IR_TYPE_F16);
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_sincos(void **state)
{
	(void)state;
	check_sincos(AGX_IR_TYPE_F32, false);
	check_sincos(AGX_IR_TYPE_F32, true);
	check_sincos(AGX_IR_TYPE_F16, false);
	check_sincos(AGX_IR_TYPE_F16, true);
}

/* The expected unsigned 32-bit sequence (agx_lower_alu.c says why). */
static struct agx_ir_value want_udiv32(struct agx_builder *b, struct agx_ir_value n,
				       struct agx_ir_value d, bool rem)
{
	struct agx_ir_value f = agx_u2f(b, AGX_IR_TYPE_F32, d);
	struct agx_ir_value rcp = agx_frcp(b, f);
	struct agx_ir_value scaled = agx_fmul(b, rcp, agx_imm_f32(4294965248.0f));
	struct agx_ir_value est = agx_f2u(b, AGX_IR_TYPE_I32, scaled);
	struct agx_ir_value negd = agx_ineg(b, d);
	struct agx_ir_value err = agx_imul(b, est, negd);
	struct agx_ir_value corr = agx_umul_high(b, est, err);
	struct agx_ir_value q, qd, r, ge;

	est = agx_iadd(b, est, corr);
	q = agx_umul_high(b, n, est);
	qd = agx_imul(b, q, d);
	r = agx_isub(b, n, qd);
	ge = agx_uge(b, r, d);
	if (!rem) {
		struct agx_ir_value q1 = agx_iadd(b, q, agx_imm_u32(1));

		q = agx_bcsel(b, ge, q1, q);
	}
	r = agx_bcsel(b, ge, agx_isub(b, r, d), r);
	ge = agx_uge(b, r, d);
	if (!rem) {
		struct agx_ir_value q1 = agx_iadd(b, q, agx_imm_u32(1));

		return agx_bcsel(b, ge, q1, q);
	}
	return agx_bcsel(b, ge, agx_isub(b, r, d), r);
}

static struct agx_ir_value want_idiv32(struct agx_builder *b, struct agx_ir_value n,
				       struct agx_ir_value d, bool rem)
{
	struct agx_ir_value sn = agx_ishr(b, n, agx_imm_u32(31));
	struct agx_ir_value sd = agx_ishr(b, d, agx_imm_u32(31));
	struct agx_ir_value an = agx_isub(b, agx_ixor(b, n, sn), sn);
	struct agx_ir_value ad = agx_isub(b, agx_ixor(b, d, sd), sd);
	struct agx_ir_value v = want_udiv32(b, an, ad, rem);
	struct agx_ir_value s = rem ? sn : agx_ixor(b, sn, sd);

	return agx_isub(b, agx_ixor(b, v, s), s);
}

static void check_intdiv(enum agx_ir_type t, enum agx_ir_op op)
{
	bool is_signed = op == AGX_IR_OP_idiv || op == AGX_IR_OP_irem;
	bool rem = op == AGX_IR_OP_irem || op == AGX_IR_OP_umod;
	struct agx_builder b;
	struct agx_ir_value x, y, v;
	struct agx_ir_shader *in = one_op(t, op, &x, &y, &b);
	struct agx_ir_shader *want = one_op(t, AGX_IR_OP_undef, &x, &y, &b);

	if (t == AGX_IR_TYPE_I16) {
		struct agx_ir_value x32 = is_signed ? agx_i2i32(&b, x) : agx_u2u32(&b, x);
		struct agx_ir_value y32 = is_signed ? agx_i2i32(&b, y) : agx_u2u32(&b, y);

		v = is_signed ? want_idiv32(&b, x32, y32, rem) : want_udiv32(&b, x32, y32, rem);
		v = agx_i2i16(&b, v);
	} else {
		v = is_signed ? want_idiv32(&b, x, y, rem) : want_udiv32(&b, x, y, rem);
	}
	store(&b, v);
	check_pass(in, want, agx_lower_alu, true);
}

static void test_alu_intdiv(void **state)
{
	static const enum agx_ir_op ops[] = { AGX_IR_OP_udiv, AGX_IR_OP_umod, AGX_IR_OP_idiv,
					      AGX_IR_OP_irem };

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		check_intdiv(AGX_IR_TYPE_I32, ops[i]);
		check_intdiv(AGX_IR_TYPE_I16, ops[i]);
	}
}

/*
 * Immediate sources, and lowered ops inside control flow whose results a
 * phi reads: the phi reads the replacement.
 */
static void build_cf(struct agx_builder *b, bool lowered)
{
	struct agx_ir_value x = agx_load_uniform(b, AGX_IR_TYPE_F32, 0), t, e, phi;
	struct agx_ir_if *nif = agx_builder_push_if(b, agx_flt(b, x, agx_imm_f32(0.0f)));

	t = lowered ? agx_fadd(b, agx_imm_f32(1.0f), agx_fneg(b, x))
		    : agx_fsub(b, agx_imm_f32(1.0f), x);
	agx_builder_push_else(b, nif);
	e = lowered ? agx_fmul(b, x, agx_frcp(b, agx_imm_f32(3.0f)))
		    : agx_fdiv(b, x, agx_imm_f32(3.0f));
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, AGX_IR_TYPE_F32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), e);
	store(b, phi);
}

static void test_alu_control_flow(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_cf(&b, false);
	want = shader_new(&f, &b);
	build_cf(&b, true);
	check_pass(in, want, agx_lower_alu, true);
}

/* Ops that are not lowered stay, and there is no progress. */
static void build_nothing(struct agx_builder *b)
{
	struct agx_ir_value x = agx_load_uniform(b, AGX_IR_TYPE_F32, 0);
	struct agx_ir_value i = agx_load_uniform(b, AGX_IR_TYPE_I32, 4);
	struct agx_ir_value y = agx_ffma(b, agx_frcp(b, x), agx_fneg(b, x), agx_fabs(b, x));

	y = agx_fmul(b, agx_frsqrt(b, y), agx_fexp2(b, agx_flog2(b, y)));
	store(b, y);
	store(b, agx_imul(b, agx_ineg(b, i), agx_ishr(b, i, agx_imm_u32(3))));
}

static void test_alu_nothing(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_nothing(&b);
	want = shader_new(&f, &b);
	build_nothing(&b);
	check_pass(in, want, agx_lower_alu, false);
}

/* ---- numbers: integer division ------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: reproducible pseudo-random numbers */
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct intdiv_run {
	struct agx_ir_shader *s;
	struct prog *p;
	uint32_t *a, *b, *q, *r;
	bool is_signed;
	unsigned bits;
};

static void intdiv_init(struct intdiv_run *run, unsigned bits, bool is_signed, unsigned width,
			bool divisor_uniform)
{
	static const enum agx_ir_op uops[] = { AGX_IR_OP_udiv, AGX_IR_OP_umod };
	static const enum agx_ir_op iops[] = { AGX_IR_OP_idiv, AGX_IR_OP_irem };
	static bool in_uniform[2];

	run->bits = bits;
	run->is_signed = is_signed;
	run->s = binary_shader(bits == 16 ? AGX_IR_TYPE_I16 : AGX_IR_TYPE_I32,
			       is_signed ? iops : uops, 2);
	run->p = prog_create(run->s, width);
	run->a = calloc(width, 4);
	run->b = calloc(width, 4);
	run->q = calloc(width, 4);
	run->r = calloc(width, 4);
	assert_true(run->a && run->b && run->q && run->r);
	run->p->in = calloc(2, sizeof(uint32_t *));
	run->p->out = calloc(2, sizeof(uint32_t *));
	assert_true(run->p->in && run->p->out);
	run->p->in[0] = run->a;
	run->p->in[1] = run->b;
	in_uniform[0] = false;
	in_uniform[1] = divisor_uniform;
	run->p->in_uniform = in_uniform;
	run->p->out[0] = run->q;
	run->p->out[1] = run->r;
	run->p->num_in = run->p->num_out = 2;
}

static void intdiv_finish(struct intdiv_run *run)
{
	free(run->p->in);
	free(run->p->out);
	prog_destroy(run->p);
	agx_ir_shader_destroy(run->s);
	free(run->a);
	free(run->b);
	free(run->q);
	free(run->r);
}

/*
 * Checks lane l: C's quotient and remainder (truncating; INT_MIN / -1
 * wrapping to INT_MIN, remainder 0), without dividing: q * d + r == n
 * with |r| < |d| and r of n's sign determine both.  Returns false, with a
 * note, on the first wrong lane.
 */
/* Whether lane l is right, as intdiv_check() says. */
static bool lane_ok(const struct intdiv_run *run, unsigned l, bool divisor_uniform)
{
	uint32_t mask = run->bits == 32 ? 0xffffffffu : 0xffffu;
	uint32_t ua = run->a[l] & mask, ub = run->b[divisor_uniform ? 0 : l] & mask;
	int64_t n, d, q, r, min;

	if (!run->is_signed) {
		uint64_t uq = run->q[l], ur = run->r[l];

		return ((uq | ur) & ~(uint64_t)mask) == 0 && ur < ub && uq * ub + ur == ua;
	}
	n = sext(ua, run->bits);
	d = sext(ub, run->bits);
	q = sext(run->q[l], run->bits);
	r = sext(run->r[l], run->bits);
	min = -((int64_t)1 << (run->bits - 1));
	if (((run->q[l] | run->r[l]) & ~mask) != 0)
		return false;
	if (n == min && d == -1)
		return q == min && r == 0;
	return (q * d + r == n) & (llabs(r) < llabs(d)) & ((r == 0) | ((r < 0) == (n < 0)));
}

/*
 * Checks the lanes against C's quotient and remainder (truncating;
 * INT_MIN / -1 wrapping to INT_MIN, remainder 0) without dividing:
 * q * d + r == n with |r| < |d| and r of n's sign determine both.
 * Returns false, with a note, at the first wrong lane.
 */
static bool intdiv_check(const struct intdiv_run *run, unsigned width, bool divisor_uniform)
{
	unsigned bad = 0;

	for (unsigned l = 0; l < width; l++)
		bad |= !lane_ok(run, l, divisor_uniform);
	if (!bad)
		return true;
	for (unsigned l = 0; l < width; l++) {
		if (lane_ok(run, l, divisor_uniform))
			continue;
		note("%s %u-bit: %#x, %#x gave quotient %#x, remainder %#x",
		     run->is_signed ? "signed" : "unsigned", run->bits, run->a[l],
		     run->b[divisor_uniform ? 0 : l], run->q[l], run->r[l]);
		break;
	}
	return false;
}

/*
 * The 16-bit forms on every dividend, 65536 lanes, by each divisor (the
 * same in every lane, so what depends on it alone is evaluated once):
 * every divisor but zero when `all`, otherwise those where an error would
 * show first -- magnitudes below 2048 (large quotients), the largest
 * (2^16 - 2048 and up, negative ones for the signed forms), powers of two
 * and their neighbours, and 512 others at random.  The full run is the
 * test group "exhaustive" (2^32 pairs: minutes).
 */

static void check_16(bool is_signed, bool all)
{
	struct intdiv_run run;

	intdiv_init(&run, 16, is_signed, 65536, true);
	for (unsigned n = 0; n < 65536; n++)
		run.a[n] = n;
	for (unsigned d = 1; d < 65536; d++) {
		bool near_pow2 = false;

		for (unsigned k = 1; k < 16; k++)
			near_pow2 |= d + 8 >= (1u << k) && d <= (1u << k) + 8;
		if (!all && d >= EDGE_16 && d < 65536 - EDGE_16 && !near_pow2 &&
		    rng() % SPARSE_16 != 0)
			continue;
		run.b[0] = d;
		prog_run(run.p, 65536);
		if (!intdiv_check(&run, 65536, true))
			fail_msg("wrong %s 16-bit division by %#x",
				 is_signed ? "signed" : "unsigned", d);
	}
	intdiv_finish(&run);
}

static void test_alu_udiv16(void **state)
{
	(void)state;
	check_16(false, false);
}

static void test_alu_idiv16(void **state)
{
	(void)state;
	check_16(true, false);
}

static void test_alu_udiv16_exhaustive(void **state)
{
	(void)state;
	check_16(false, true);
}

static void test_alu_idiv16_exhaustive(void **state)
{
	(void)state;
	check_16(true, true);
}

/* Values division gets wrong first: the ends of the range, powers of two and their neighbours. */
static unsigned edge_values(uint32_t *v)
{
	unsigned n = 0;

	for (unsigned i = 0; i < 32; i++) {
		uint32_t p = 1u << i;

		v[n++] = p;
		v[n++] = p - 1;
		v[n++] = p + 1;
		v[n++] = 0u - p;
		v[n++] = 0u - p + 1;
	}
	v[n++] = 0x55555555u;
	v[n++] = 0xaaaaaaabu;
	v[n++] = 3u;
	v[n++] = 7u;
	v[n++] = 10u;
	v[n++] = 1000000007u;
	v[n++] = 0x7ffffffdu;
	v[n++] = 0x80000003u;
	return n;
}

#define RANDOM_PAIRS (SANITIZED ? 100000u : 1000000u)
#define BATCH	     4096u

/*
 * 32-bit: every pair of edge values, then 10^6 random pairs: half with
 * both uniformly random, half with the divisor's magnitude spread over
 * every bit length (uniform divisors are mostly huge: quotients 0 and 1).
 */
static void check_32(bool is_signed, int rcp_ulps)
{
	uint32_t edges[256];
	unsigned num_edges = edge_values(edges), k = 0;
	struct intdiv_run run;

	intdiv_init(&run, 32, is_signed, BATCH, false);
	run.p->rcp_ulps = rcp_ulps;
	for (unsigned i = 0; i < num_edges; i++) {
		for (unsigned j = 0; j < num_edges; j++) {
			if (edges[j] == 0 && j != num_edges - 1)
				continue; /* no division by zero (test_alu_div_by_zero) */
			run.a[k] = edges[i];
			run.b[k] = edges[j] ? edges[j] : 1;
			if (++k == BATCH || (i == num_edges - 1 && j == num_edges - 1)) {
				prog_run(run.p, k);
				if (!intdiv_check(&run, k, false))
					fail_msg("wrong 32-bit division of edge values");
				k = 0;
			}
		}
	}
	for (unsigned done = 0; done < RANDOM_PAIRS; done += BATCH) {
		for (unsigned l = 0; l < BATCH; l++) {
			uint64_t x = rng();

			run.a[l] = (uint32_t)x;
			run.b[l] = (uint32_t)(x >> 32);
			if (l & 1)
				run.b[l] >>= rng() % 32;
			if (run.b[l] == 0)
				run.b[l] = 1;
		}
		prog_run(run.p, BATCH);
		if (!intdiv_check(&run, BATCH, false))
			fail_msg("wrong 32-bit division of random values");
	}
	intdiv_finish(&run);
}

static void test_alu_udiv32(void **state)
{
	(void)state;
	check_32(false, 0);
}

static void test_alu_idiv32(void **state)
{
	(void)state;
	check_32(true, 0);
}

/*
 * The hardware's rcp is not public: quotients stay exact with the
 * reciprocal 4 units in the last place low up to 3 high (agx_lower_alu.c
 * says why).  With 4 high they do not, and the check catches it:
 * (2^32 - 1) / 15 comes out wrong.
 */
static void test_alu_div32_rcp_off(void **state)
{
	(void)state;
	check_32(false, -4);
	check_32(true, -4);
	check_32(false, 3);
	check_32(true, 3);
}

static void test_alu_div32_rcp_too_high(void **state)
{
	struct intdiv_run run;

	(void)state;
	intdiv_init(&run, 32, false, 1, false);
	run.p->rcp_ulps = 4;
	run.a[0] = 0xffffffffu;
	run.b[0] = 15;
	prog_run(run.p, 1);
	assert_false(lane_ok(&run, 0, false));
	run.p->rcp_ulps = 3;
	prog_run(run.p, 1);
	assert_true(lane_ok(&run, 0, false));
	intdiv_finish(&run);
}

/* Division by zero ends with some value (GLSL: undefined), with no trap or loop. */
static void test_alu_div_by_zero(void **state)
{
	struct intdiv_run run;

	(void)state;
	for (unsigned s = 0; s < 2; s++) {
		intdiv_init(&run, 32, s, 4, false);
		run.a[0] = 0;
		run.a[1] = 1;
		run.a[2] = 0x80000000u;
		run.a[3] = 0xffffffffu;
		prog_run(run.p, 4);
		intdiv_finish(&run);
	}
}

/* ---- numbers: floats ------------------------------------------------------------------ */

struct float_run {
	struct agx_ir_shader *s;
	struct prog *p;
	uint32_t *a, *b, *out;
	bool in_uniform[2];
	bool half;
};

static void float_init(struct float_run *run, enum agx_ir_op op, bool half, unsigned width)
{
	run->half = half;
	run->s = binary_shader(half ? AGX_IR_TYPE_F16 : AGX_IR_TYPE_F32, &op, 1);
	run->p = prog_create(run->s, width);
	run->a = calloc(width, 4);
	run->b = calloc(width, 4);
	run->out = calloc(width, 4);
	assert_true(run->a && run->b && run->out);
	run->p->in = calloc(2, sizeof(uint32_t *));
	run->p->out = calloc(1, sizeof(uint32_t *));
	assert_true(run->p->in && run->p->out);
	run->p->in[0] = run->a;
	run->p->in[1] = run->b;
	run->in_uniform[0] = run->in_uniform[1] = false;
	run->p->in_uniform = run->in_uniform;
	run->p->out[0] = run->out;
	run->p->num_in = 2;
	run->p->num_out = 1;
}

static void float_finish(struct float_run *run)
{
	free(run->p->in);
	free(run->p->out);
	prog_destroy(run->p);
	agx_ir_shader_destroy(run->s);
	free(run->a);
	free(run->b);
	free(run->out);
}

static uint32_t fbits(float f, bool half)
{
	return half ? agx_ir_f32_to_f16(f) : f2u32(f);
}

static double fval(uint32_t u, bool half)
{
	return half ? (double)agx_ir_f16_to_f32((uint16_t)u) : (double)u2f32(u);
}

/* The size of a unit in the last place at v (its binade's), f32 or f16. */
static double ulp(double v, bool half)
{
	int e;

	v = fabs(v);
	assert_true(isfinite(v));
	if (half)
		return v < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ilogb(v) - 10);
	if (v < FLT_MIN)
		return 0x1p-149;
	e = ilogb(v);
	return ldexp(1.0, e - 23);
}

/* A float uniformly spread over [lo, hi]. */
static float uniform_in(double lo, double hi)
{
	return (float)(lo + (hi - lo) * (double)(rng() >> 11) * 0x1p-53);
}

/* A positive normal f32 with its exponent uniform in [emin, emax]. */
static float log_uniform(int emin, int emax)
{
	int e = emin + (int)(rng() % (uint64_t)(emax - emin + 1));

	return ldexpf(1.0f + (float)((rng() >> 40) * 0x1p-24), e);
}

/*
 * sin and cos of x radians: GLSL ES 3.00 leaves the trigonometric
 * functions' precision undefined (section 4.5.1); the bar is Vulkan's,
 * an absolute error of 2^-11 in [-pi, pi], kept here over [-100 pi, 100 pi]
 * too (the reduction's error grows with |x|, by 2^-24 of a turn per turn).
 * f16 (mediump) gets 2^-7.
 */
static void check_sincos_numbers(bool is_cos, bool half)
{
	enum { N = 100000 };
	struct float_run run;
	double bound = half ? 0x1p-7 : 0x1p-11, worst = 0;

	float_init(&run, is_cos ? AGX_IR_OP_fcos : AGX_IR_OP_fsin, half, N);
	for (unsigned range = 0; range < (half ? 1u : 2u); range++) {
		double lim = range ? 100 * M_PI : M_PI;

		/* multiples of pi/4, then zeros and tiny angles (whose fract rounds to 1) */
		static const float tiny[8] = { -0.0f,	0.0f,	-1e-9f,	  1e-9f,
					       -1e-30f, -3e-5f, -FLT_MIN, 6e-8f };

		for (unsigned l = 0; l < N; l++)
			run.a[l] = fbits(l < 16	  ? (float)(l * M_PI_4 - 2 * M_PI)
					 : l < 24 ? tiny[l - 16]
						  : uniform_in(-lim, lim),
					 half);
		prog_run(run.p, N);
		for (unsigned l = 0; l < N; l++) {
			double x = fval(run.a[l], half), want = is_cos ? cos(x) : sin(x);
			double got = fval(run.out[l], half), e = fabs(got - want);

			if (e > worst)
				worst = e;
			if (!(e <= bound))
				fail_msg("%s%s(%.9g) = %.9g, not %.9g", is_cos ? "cos" : "sin",
					 half ? " f16" : "", x, got, want);
		}
	}
	note("%s %s: worst absolute error %.3g", is_cos ? "cos" : "sin", half ? "f16" : "f32",
	     worst);
	float_finish(&run);
}

static void test_alu_sincos_numbers(void **state)
{
	(void)state;
	check_sincos_numbers(false, false);
	check_sincos_numbers(true, false);
	check_sincos_numbers(false, true);
	check_sincos_numbers(true, true);
}

/*
 * sqrt: GLSL ES 3.00 inherits it from 1.0 / inversesqrt(): inversesqrt's
 * 2 ULP and the division's 2.5; this one is within 2.  0, infinity and
 * negative numbers are exact (NaN for the last).
 */
static void check_sqrt_numbers(bool half)
{
	enum { N = 100000 };
	struct float_run run;
	double worst = 0;

	float_init(&run, AGX_IR_OP_fsqrt, half, N);
	for (unsigned l = 0; l < N; l++) {
		float x = half ? uniform_in(0x1p-14, 65504.0) : log_uniform(-126, 127);

		run.a[l] = fbits(l == 0 ? 0.0f : l == 1 ? INFINITY : l == 2 ? -4.0f : x, half);
	}
	prog_run(run.p, N);
	for (unsigned l = 0; l < N; l++) {
		double x = fval(run.a[l], half), want = sqrt(x), got = fval(run.out[l], half), e;

		if (l < 3) {
			if (!(got == want || (isnan(got) && isnan(want))))
				fail_msg("sqrt(%g) = %g, not %g", x, got, want);
			continue;
		}
		e = fabs(got - want) / ulp(want, half);
		if (e > worst)
			worst = e;
		if (!(e <= 2.0))
			fail_msg("sqrt%s(%.9g) = %.9g, not %.9g", half ? " f16" : "", x, got, want);
	}
	note("sqrt %s: worst error %.3g ULP", half ? "f16" : "f32", worst);
	float_finish(&run);
}

static void test_alu_sqrt_numbers(void **state)
{
	(void)state;
	check_sqrt_numbers(false);
	check_sqrt_numbers(true);
}

/* a / b: 2.5 ULP for b in [2^-126, 2^126] (GLSL ES 3.00, 4.5.1), results kept normal. */
static void test_alu_fdiv_numbers(void **state)
{
	enum { N = 200000 };
	struct float_run run;
	double worst = 0;

	(void)state;
	float_init(&run, AGX_IR_OP_fdiv, false, N);
	for (unsigned l = 0; l < N; l++) {
		float a = log_uniform(-60, 60), b = log_uniform(-126, 125);

		run.a[l] = f2u32(rng() & 1 ? -a : a);
		run.b[l] = f2u32(rng() & 1 ? -b : b);
	}
	prog_run(run.p, N);
	for (unsigned l = 0; l < N; l++) {
		double a = fval(run.a[l], false), b = fval(run.b[l], false), want = a / b;
		double got = fval(run.out[l], false), e;

		if (fabs(want) < FLT_MIN || fabs(want) > FLT_MAX)
			continue;
		e = fabs(got - want) / ulp(want, false);
		if (e > worst)
			worst = e;
		if (!(e <= 2.5))
			fail_msg("%.9g / %.9g = %.9g, not %.9g", a, b, got, want);
	}
	note("fdiv: worst error %.3g ULP", worst);
	float_finish(&run);
}

/*
 * pow(x, y): inherited from exp2(y * log2(x)) (GLSL ES 3.00, 4.5.1), for
 * x > 0 (undefined for x < 0, and for x == 0 with y <= 0).  The bound is
 * what that composition may give: log2 within 3 ULP (outside [0.5, 2]) or
 * 2^-21 absolute (inside), the product rounded, and exp2 within
 * 3 + 2 |t| ULP of its argument t.
 */
static void test_alu_fpow_numbers(void **state)
{
	enum { N = 200000 };
	struct float_run run;
	double worst = 0;

	(void)state;
	float_init(&run, AGX_IR_OP_fpow, false, N);
	for (unsigned l = 0; l < N; l++) {
		float x = l & 1 ? uniform_in(0.5, 2.0) : log_uniform(-30, 30);

		run.a[l] = f2u32(x);
		run.b[l] = f2u32(uniform_in(-120.0 / 31, 120.0 / 31));
	}
	prog_run(run.p, N);
	for (unsigned l = 0; l < N; l++) {
		double x = fval(run.a[l], false), y = fval(run.b[l], false);
		double l2 = log2(x), want = pow(x, y), got = fval(run.out[l], false);
		double l2_err = (x >= 0.5 && x <= 2.0) ? 0x1p-21 : 3 * ulp(l2, false);
		double t = y * l2, t_err = fabs(y) * l2_err + 0.5 * ulp(t, false);
		double bound = want * (exp2(t_err) - 1) + (3 + 2 * fabs(t)) * ulp(want, false);
		double e = fabs(got - want);

		if (want < FLT_MIN || want > FLT_MAX)
			continue;
		if (e / bound > worst)
			worst = e / bound;
		if (!(e <= bound))
			fail_msg("pow(%.9g, %.9g) = %.9g, not %.9g (bound %.3g)", x, y, got, want,
				 bound);
	}
	note("fpow: worst error %.3g of the bound", worst);
	float_finish(&run);
}

/* fract and subtraction are equations of exactly rounded ops: exact, as the float unit rounds. */
static void test_alu_fract_fsub_numbers(void **state)
{
	enum { N = 100000 };
	struct float_run fr, sub;

	(void)state;
	float_init(&fr, AGX_IR_OP_ffract, false, N);
	float_init(&sub, AGX_IR_OP_fsub, false, N);
	for (unsigned l = 0; l < N; l++) {
		float x = l & 1 ? uniform_in(-4, 4) : log_uniform(-40, 40);
		float y = log_uniform(-40, 40);

		fr.a[l] = sub.a[l] = f2u32(rng() & 1 ? -x : x);
		sub.b[l] = f2u32(rng() & 1 ? -y : y);
	}
	prog_run(fr.p, N);
	prog_run(sub.p, N);
	for (unsigned l = 0; l < N; l++) {
		float x = u2f32(fr.a[l]), y = u2f32(sub.b[l]);

		if (fr.out[l] != fout32(x - floorf(x)))
			fail_msg("fract(%.9g) = %.9g", x, u2f32(fr.out[l]));
		if (sub.out[l] != fout32(x - y))
			fail_msg("%.9g - %.9g = %.9g", x, y, u2f32(sub.out[l]));
	}
	float_finish(&fr);
	float_finish(&sub);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu_fsub),
		cmocka_unit_test(test_alu_fdiv),
		cmocka_unit_test(test_alu_ffract),
		cmocka_unit_test(test_alu_fsqrt),
		cmocka_unit_test(test_alu_fpow),
		cmocka_unit_test(test_alu_sincos),
		cmocka_unit_test(test_alu_intdiv),
		cmocka_unit_test(test_alu_control_flow),
		cmocka_unit_test(test_alu_nothing),
		cmocka_unit_test(test_alu_udiv32),
		cmocka_unit_test(test_alu_idiv32),
		cmocka_unit_test(test_alu_div32_rcp_off),
		cmocka_unit_test(test_alu_div32_rcp_too_high),
		cmocka_unit_test(test_alu_div_by_zero),
		cmocka_unit_test(test_alu_udiv16),
		cmocka_unit_test(test_alu_idiv16),
		cmocka_unit_test(test_alu_sincos_numbers),
		cmocka_unit_test(test_alu_sqrt_numbers),
		cmocka_unit_test(test_alu_fdiv_numbers),
		cmocka_unit_test(test_alu_fpow_numbers),
		cmocka_unit_test(test_alu_fract_fsub_numbers),
	};
	const struct CMUnitTest exhaustive[] = {
		cmocka_unit_test(test_alu_udiv16_exhaustive),
		cmocka_unit_test(test_alu_idiv16_exhaustive),
	};

	if (argc > 1 && !strcmp(argv[1], "exhaustive"))
		return cmocka_run_group_tests_name("lower_alu_exhaustive", exhaustive, NULL, NULL);
	if (argc > 1) {
		fprintf(stderr, "test-lower-alu: no group %s (exhaustive)\n", argv[1]);
		return 2;
	}
	return cmocka_run_group_tests_name("lower_alu", tests, NULL, NULL);
}

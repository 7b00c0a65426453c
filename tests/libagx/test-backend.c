/*
 * test-backend: the compiler's back end (libagx/compiler/agx_codegen.c and
 * what it runs) on lowered IR built with the builder, compiled and RUN on
 * the simulated USC (usc-run.h), results checked against references
 * computed here; plus the disassembly of small programs, the wait rule,
 * spilling under a small register budget, and agx_backend_compile() with
 * the lowering in front.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "agx/isa.h"
#include "agx_cmdbuf.h"
#include "usc.h"
#include "agx_compile.h"
#include "agx_mir.h"
#include "ir-test.h"
#include "usc-run.h"

#define IN_ADDR	 0x100000000ull
#define OUT_ADDR 0x200000000ull

/* ---- harness ------------------------------------------------------------ */

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint16_t hbits(float f)
{
	return agx_ir_f32_to_f16(f);
}

/* The disassembly, one instruction a line, without offsets. */
static char *disasm(const struct agx_shader_binary *bin)
{
	size_t cap = 256 + bin->size * 64, len = 0;
	char *text = malloc(cap);

	assert_non_null(text);
	text[0] = '\0';
	for (size_t pc = 0; pc < bin->size;) {
		struct agx_isa_instr in;
		unsigned n = agx_isa_decode(bin->code + pc, bin->size - pc, &in);

		assert_true(n > 0);
		len += (size_t)agx_isa_print(&in, (int64_t)pc, text + len, cap - len);
		len += (size_t)snprintf(text + len, cap - len, "\n");
		pc += n;
	}
	return text;
}

/* Compiles lowered IR; fails the test (with the log and the shader) when it does not. */
static void compile(struct agx_ir_shader *s, unsigned max_registers, struct agx_shader_binary *bin)
{
	struct agx_compile_options opts = { .max_registers = max_registers };
	char *log = NULL;
	int ret;

	assert_valid(s);
	memset(bin, 0, sizeof(*bin));
	ret = agx_codegen(s, &opts, bin, &log);
	if (ret) {
		print_shader("the shader", s);
		fail_msg("agx_codegen: %d: %s", ret, log ? log : "(no log)");
	}
	free(log);
	assert_non_null(bin->code);
}

struct grid {
	unsigned groups[3], local[3];
	uint32_t uniforms[32];
	unsigned num_uniforms;
	struct usc_run_buffer buffers[8];
	unsigned num_buffers;
	unsigned shared_size;
};

static void run(const struct agx_shader_binary *bin, const struct grid *g)
{
	struct usc_run_args a = {
		.code = bin->code,
		.size = bin->size,
		.uniforms = g->uniforms,
		.num_uniforms = g->num_uniforms,
		.buffers = g->buffers,
		.num_buffers = g->num_buffers,
		.shared_size = g->shared_size ? g->shared_size : bin->info.shared_size,
		.scratch_size = bin->info.scratch_size,
	};
	char why[256];

	memcpy(a.groups, g->groups, sizeof(a.groups));
	memcpy(a.local, g->local, sizeof(a.local));
	if (usc_run_grid(&a, why, sizeof(why))) {
		char *text = disasm(bin);

		note("%s", text);
		free(text);
		fail_msg("the run failed: %s", why);
	}
}

/* A grid of `threads` threads in groups of `local`, buffers IN (u0_u1) and OUT (u2_u3). */
static struct grid io_grid(unsigned threads, unsigned local, void *in, size_t in_size, void *out,
			   size_t out_size)
{
	struct grid g = { .groups = { threads / local, 1, 1 }, .local = { local, 1, 1 } };

	g.uniforms[0] = (uint32_t)IN_ADDR;
	g.uniforms[1] = (uint32_t)(IN_ADDR >> 32);
	g.uniforms[2] = (uint32_t)OUT_ADDR;
	g.uniforms[3] = (uint32_t)(OUT_ADDR >> 32);
	g.num_uniforms = 4;
	g.buffers[0] = (struct usc_run_buffer){ IN_ADDR, in, in_size };
	g.buffers[1] = (struct usc_run_buffer){ OUT_ADDR, out, out_size };
	g.num_buffers = 2;
	return g;
}

/* A compute shader reading IN (the pair u0_u1) and writing OUT (u2_u3), as lowering leaves it. */
static struct agx_ir_shader *kernel(struct agx_builder *b)
{
	struct agx_ir_function *func;
	struct agx_ir_shader *s = shader_new(&func, b);

	s->num_uniforms = 4;
	s->local_size[0] = 32;
	s->local_size[1] = s->local_size[2] = 1;
	return s;
}

static struct agx_ir_value gid(struct agx_builder *b)
{
	return agx_load_global_id(b, 0);
}

/* IN[index] (32-bit words) */
static struct agx_ir_value load_in(struct agx_builder *b, struct agx_ir_value index)
{
	return agx_load_global(b, AGX_IR_TYPE_I32, index, 0);
}

static void store_out(struct agx_builder *b, struct agx_ir_value v, struct agx_ir_value index)
{
	agx_store_global(b, v, index, 2);
}

/* ---- a first program ----------------------------------------------------- */

/* OUT[i] = IN[i] * 3 + 7, over 64 threads. */
static void test_smoke(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	uint32_t in[64], out[64] = { 0 };
	struct grid g;
	struct agx_ir_value i, x;

	(void)state;
	i = gid(&b);
	x = load_in(&b, i);
	x = agx_imul(&b, x, agx_imm_u32(3));
	x = agx_iadd(&b, x, agx_imm_u32(7));
	store_out(&b, x, i);
	compile(s, 0, &bin);
	for (unsigned l = 0; l < 64; l++)
		in[l] = l * 1000 + 1;
	g = io_grid(64, 32, in, sizeof(in), out, sizeof(out));
	run(&bin, &g);
	for (unsigned l = 0; l < 64; l++)
		assert_int_equal(out[l], in[l] * 3 + 7);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* ---- every selected op, against C -------------------------------------------- */

enum set { FV, FP, FN, FI, FU, HV, HP, IV, SH, IH, SH16, BV, NUM_SETS };

static const float fv[] = { 1.5f, -2.25f, 0.1f,	  1000.5f, -0.0f,    3.75f,
			    7.0f, 0.3f,	  -11.0f, 2.5e-3f, 65504.0f, 0.5f };
static const float fp[] = { 1.5f,    0.1f,	 1000.5f, 3.75f, 7.0f, 0.3f,
			    2.5e-3f, 12345.678f, 0.5f,	  4.0f,	 0.0f };
static const float fnan[] = { 1.5f, NAN, -2.0f, INFINITY, 1.5f, -INFINITY, 0.0f, -0.0f, 2.0f };
static const float fi[] = { 1.5f, -2.5f, 0.99f, -0.99f, 123456.7f, -7.0f, 2.5f };
static const float fu[] = { 1.5f, 0.99f, 123456.7f, 3e9f, 7.0f, 2.5f };
static const float hv[] = { 1.5f, -2.25f, 0.125f, 100.5f, -0.0f, 3.75f, 7.0f, 0.3125f };
static const float hp[] = { 1.5f, 0.125f, 100.5f, 3.75f, 7.0f, 0.3125f, 2.0f };
static const uint32_t iv[] = {
	0,	     1,	    0xffffffffu,      7,   0xfffffff8u, 0x7fffffff,
	0x80000000u, 12345, (uint32_t)-98765, 255, 256,		0xdeadbeefu
};
static const uint32_t sh[] = { 0, 1, 5, 31, 32, 33, 63, 17 };
static const uint32_t ih[] = { 0, 1, 0xffff, 7, 0xfff8, 0x7fff, 0x8000, 1234, 0x00ff };
static const uint32_t sh16[] = { 0, 1, 5, 15, 16, 17, 3 };
static const uint32_t bv[] = { 0, 1, 1, 0, 1 };

/* Input word n of a set (f16 sets as f16 bits). */
static uint32_t set_value(enum set st, unsigned n)
{
#define PICK(a) a[n % (sizeof(a) / sizeof(a[0]))]
	switch (st) {
	case FV:
		return fbits(PICK(fv));
	case FP:
		return fbits(PICK(fp));
	case FN:
		return fbits(PICK(fnan));
	case FI:
		return fbits(PICK(fi));
	case FU:
		return fbits(PICK(fu));
	case HV:
		return hbits(PICK(hv));
	case HP:
		return hbits(PICK(hp));
	case IV:
		return PICK(iv);
	case SH:
		return PICK(sh);
	case IH:
		return PICK(ih);
	case SH16:
		return PICK(sh16);
	default:
		return PICK(bv);
	}
#undef PICK
}

#define I32 AGX_IR_TYPE_I32
#define F32 AGX_IR_TYPE_F32
#define I16 AGX_IR_TYPE_I16
#define F16 AGX_IR_TYPE_F16
#define B1  AGX_IR_TYPE_B1

enum { CONST = 1, UNIFORM = 2, NEG = 4, ABS = 8 }; /* how a source is read */

struct op_case {
	enum agx_ir_op op;
	enum agx_ir_type dst, src[3];
	enum set set[3];
	unsigned how[3];
	uint32_t imm[2];
};

static float h2f(uint32_t h)
{
	return agx_ir_f16_to_f32((uint16_t)h);
}

/* The source value as the op sees it: modifiers applied. */
static uint32_t modded(const struct op_case *c, unsigned k, uint32_t x)
{
	uint32_t sign = c->src[k] == F16 ? 0x8000u : 0x80000000u;

	if (c->how[k] & ABS)
		x &= ~sign;
	if (c->how[k] & NEG)
		x ^= sign;
	return x;
}

static uint32_t fcanon(float f)
{
	return f != f ? 0x7fc00000u : fbits(f);
}

static uint32_t saturate_int(double x, bool sgn, unsigned bits)
{
	double lo = sgn ? -ldexp(1.0, (int)bits - 1) : 0.0;
	double hi = sgn ? ldexp(1.0, (int)bits - 1) - 1 : ldexp(1.0, (int)bits) - 1;

	x = x != x ? 0 : trunc(x);
	x = x < lo ? lo : x > hi ? hi : x;
	return sgn ? (uint32_t)(int64_t)x : (uint32_t)x;
}

/* C's answer for the op on x (three words as the table's types hold them). */
static uint32_t reference(const struct op_case *c, const uint32_t *raw)
{
	uint32_t x[3];
	bool h = c->src[0] == F16 || c->src[0] == I16;
	unsigned bits = h ? 16 : 32;
	uint32_t m = h ? 0xffff : 0xffffffffu;
	float a, b, cc;
	int64_t ia, ib;
	uint64_t ua, ub;

	for (unsigned k = 0; k < 3; k++)
		x[k] = modded(c, k, raw[k]);
	a = c->src[0] == F16 ? h2f(x[0]) : bitsf(x[0]);
	b = c->src[1] == F16 ? h2f(x[1]) : bitsf(x[1]);
	cc = c->src[2] == F16 ? h2f(x[2]) : bitsf(x[2]);
	ia = h ? (int16_t)x[0] : (int32_t)x[0];
	ib = h ? (int16_t)x[1] : (int32_t)x[1];
	ua = x[0] & m;
	ub = x[1] & m;
#define F(v) (c->dst == F16 ? hbits(v) : fcanon(v))
	switch (c->op) {
	case AGX_IR_OP_fadd:
		return F(a + b);
	case AGX_IR_OP_fmul:
		/* fma(a, b, +0): an exact zero product is +0 (docs/isa.md) */
		return F(a == 0 || b == 0 ? a * b + 0.0f : a * b);
	case AGX_IR_OP_ffma:
		return F(fmaf(a, b, cc));
	case AGX_IR_OP_fneg:
		return F(-a);
	case AGX_IR_OP_fabs:
		return F(fabsf(a));
	case AGX_IR_OP_fmin:
		return F(a < b || b != b ? a : b);
	case AGX_IR_OP_fmax:
		return F(a > b || b != b ? a : b);
	case AGX_IR_OP_ffloor:
		return F(floorf(a));
	case AGX_IR_OP_fceil:
		return F(ceilf(a));
	case AGX_IR_OP_ftrunc:
		return F(truncf(a));
	case AGX_IR_OP_fround_even:
		return F(rintf(a));
	case AGX_IR_OP_frcp:
		return F((float)(1.0 / (double)a));
	case AGX_IR_OP_frsqrt:
		return F((float)(1.0 / sqrt((double)a)));
	case AGX_IR_OP_frsqrt_special:
		return F(a == 0 ? 0.0f : (float)(1.0 / sqrt((double)a)));
	case AGX_IR_OP_fexp2:
		return F((float)exp2((double)a));
	case AGX_IR_OP_flog2:
		return F((float)log2((double)a));
	case AGX_IR_OP_iadd:
		return (uint32_t)(ia + ib) & m;
	case AGX_IR_OP_isub:
		return (uint32_t)(ia - ib) & m;
	case AGX_IR_OP_imul:
		return (uint32_t)(ua * ub) & m;
	case AGX_IR_OP_ineg:
		return (uint32_t)-ia & m;
	case AGX_IR_OP_iand:
	case AGX_IR_OP_band:
		return x[0] & x[1] & m;
	case AGX_IR_OP_ior:
	case AGX_IR_OP_bor:
		return (x[0] | x[1]) & m;
	case AGX_IR_OP_ixor:
	case AGX_IR_OP_bxor:
		return (x[0] ^ x[1]) & m;
	case AGX_IR_OP_inot:
		return ~x[0] & m;
	case AGX_IR_OP_bnot:
		return !x[0];
	case AGX_IR_OP_ishl:
		return (uint32_t)(ua << (ub & (bits - 1))) & m;
	case AGX_IR_OP_ishr:
		return (uint32_t)(ia >> (ub & (bits - 1))) & m;
	case AGX_IR_OP_ushr:
		return (uint32_t)(ua >> (ub & (bits - 1))) & m;
	case AGX_IR_OP_imin:
		return (uint32_t)(ia < ib ? ia : ib) & m;
	case AGX_IR_OP_imax:
		return (uint32_t)(ia > ib ? ia : ib) & m;
	case AGX_IR_OP_umin:
		return (uint32_t)(ua < ub ? ua : ub);
	case AGX_IR_OP_umax:
		return (uint32_t)(ua > ub ? ua : ub);
	case AGX_IR_OP_imul_high:
		return (uint32_t)((uint64_t)(ia * ib) >> 32);
	case AGX_IR_OP_umul_high:
		return (uint32_t)((ua * ub) >> 32);
	case AGX_IR_OP_feq:
		return a == b;
	case AGX_IR_OP_fne:
		return a != b;
	case AGX_IR_OP_flt:
		return a < b;
	case AGX_IR_OP_fge:
		return a >= b;
	case AGX_IR_OP_ieq:
		return ia == ib;
	case AGX_IR_OP_ine:
		return ia != ib;
	case AGX_IR_OP_ilt:
		return ia < ib;
	case AGX_IR_OP_ige:
		return ia >= ib;
	case AGX_IR_OP_ult:
		return ua < ub;
	case AGX_IR_OP_uge:
		return ua >= ub;
	case AGX_IR_OP_bcsel:
		return x[0] ? x[1] : x[2];
	case AGX_IR_OP_f2i:
		return saturate_int(a, true, c->dst == I16 ? 16 : 32) &
		       (c->dst == I16 ? 0xffff : ~0u);
	case AGX_IR_OP_f2u:
		return saturate_int(a, false, c->dst == I16 ? 16 : 32);
	case AGX_IR_OP_i2f:
		return F((float)ia);
	case AGX_IR_OP_u2f:
		return F((float)ua);
	case AGX_IR_OP_f2f16:
		return hbits(a);
	case AGX_IR_OP_f2f32:
		return fbits(a);
	case AGX_IR_OP_i2i16:
		return x[0] & 0xffff;
	case AGX_IR_OP_i2i32:
		return (uint32_t)(int32_t)(int16_t)x[0];
	case AGX_IR_OP_u2u32:
		return x[0] & 0xffff;
	case AGX_IR_OP_b2f:
		return F(x[0] ? 1.0f : 0.0f);
	case AGX_IR_OP_b2i:
		return x[0];
	default:
		fail_msg("no reference for %s", agx_ir_op_info(c->op)->name);
		return 0;
	}
#undef F
}

/* A raw input word as a value of type t. */
static struct agx_ir_value as_type(struct agx_builder *b, struct agx_ir_value w, enum agx_ir_type t)
{
	switch (t) {
	case F32:
		return agx_bitcast(b, F32, w);
	case I16:
		return agx_i2i16(b, w);
	case F16:
		return agx_bitcast(b, F16, agx_i2i16(b, w));
	case B1:
		return agx_ine(b, w, agx_imm_u32(0));
	default:
		return w;
	}
}

static struct agx_ir_value to_word(struct agx_builder *b, struct agx_ir_value v)
{
	switch (v.type) {
	case F32:
		return agx_bitcast(b, I32, v);
	case I16:
		return agx_u2u32(b, v);
	case F16:
		return agx_u2u32(b, agx_bitcast(b, I16, v));
	case B1:
		return agx_b2i(b, I32, v);
	default:
		return v;
	}
}

static struct agx_ir_value const_value(enum agx_ir_type t, uint32_t w)
{
	return agx_ir_imm(t, t == B1 ? (w & 1) : (t == I16 || t == F16) ? (w & 0xffff) : w);
}

static void check_op(const struct op_case *c)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(c->op);
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value srcs[3] = { { 0 } }, i, r;
	uint32_t in[32 * 3], out[32], words[32][3];
	struct agx_ir_instr *instr;
	struct grid g;

	for (unsigned l = 0; l < 32; l++)
		for (unsigned k = 0; k < 3; k++)
			words[l][k] = set_value(c->set[k], l * (k + 1) + 3 * k);
	i = gid(&b);
	for (unsigned k = 0; k < info->num_srcs; k++) {
		if (c->how[k] & CONST) {
			srcs[k] = const_value(c->src[k], words[0][k]);
		} else if (c->how[k] & UNIFORM) {
			srcs[k] = c->src[k] == F32 || c->src[k] == I32
				      ? agx_uniform_reg(&b, c->src[k], 4)
				      : as_type(&b, agx_uniform_reg(&b, I32, 4), c->src[k]);
		} else {
			struct agx_ir_value idx =
			    agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(3)), agx_imm_u32(k));

			srcs[k] = as_type(&b, load_in(&b, idx), c->src[k]);
		}
		if (c->how[k] & ABS)
			srcs[k] = agx_fabs(&b, srcs[k]);
		if (c->how[k] & NEG)
			srcs[k] = agx_fneg(&b, srcs[k]);
		if (c->how[k] & (CONST | UNIFORM))
			for (unsigned l = 1; l < 32; l++)
				words[l][k] = words[0][k];
	}
	instr = agx_builder_emit(&b, c->op, c->dst, srcs, c->imm);
	r = agx_ir_def_value(&instr->dest);
	store_out(&b, to_word(&b, r), i);
	compile(s, 0, &bin);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned k = 0; k < 3; k++)
			in[l * 3 + k] = words[l][k];
	memset(out, 0xee, sizeof(out));
	g = io_grid(32, 32, in, sizeof(in), out, sizeof(out));
	g.uniforms[4] = words[0][0] & (c->src[0] == F32 || c->src[0] == I32 ? ~0u : 0xffffu);
	for (unsigned k = 0; k < 3; k++)
		if (c->how[k] & UNIFORM)
			g.uniforms[4] = words[0][k];
	g.num_uniforms = 5;
	run(&bin, &g);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t want = reference(c, words[l]);

		if (out[l] != want) {
			char *text = disasm(&bin);

			print_shader("the shader", s);
			note("%s", text);
			free(text);
			fail_msg("%s (%s <- %s, %s, %s): lane %u, inputs 0x%x 0x%x 0x%x: got 0x%x, "
				 "want 0x%x",
				 info->name, agx_ir_type_name(c->dst), agx_ir_type_name(c->src[0]),
				 agx_ir_type_name(c->src[1]), agx_ir_type_name(c->src[2]), l,
				 words[l][0], words[l][1], words[l][2], out[l], want);
		}
	}
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

#define OP1(o, d, t, s0, ...)                                                                      \
	{                                                                                          \
		.op = AGX_IR_OP_##o, .dst = d, .src = { t }, .set = { s0 }, __VA_ARGS__            \
	}
#define OP2(o, d, t, s0, s1, ...)                                                                  \
	{                                                                                          \
		.op = AGX_IR_OP_##o, .dst = d, .src = { t, t }, .set = { s0, s1 }, __VA_ARGS__     \
	}
#define OP3(o, d, t, s0, s1, s2, ...)                                                              \
	{                                                                                          \
		.op = AGX_IR_OP_##o, .dst = d, .src = { t, t, t }, .set = { s0, s1, s2 },          \
		__VA_ARGS__                                                                        \
	}

static const struct op_case op_cases[] = {
	/* float32 */
	OP2(fadd, F32, F32, FV, FV),
	OP2(fadd, F32, F32, FV, FV, .how = { 0, CONST }), /* 1.5: an 8-bit float immediate */
	OP2(fadd, F32, F32, FV, FV, .how = { 0, CONST | NEG }),
	OP2(fadd, F32, F32, FV, FP, .how = { 0, CONST }), /* 0.1: a register */
	OP2(fadd, F32, F32, FV, FV, .how = { NEG, ABS }),
	OP2(fadd, F32, F32, FV, FV, .how = { 0, UNIFORM }),
	OP2(fmul, F32, F32, FV, FV),
	OP2(fmul, F32, F32, FV, FV, .how = { ABS | NEG, 0 }),
	OP3(ffma, F32, F32, FV, FV, FV),
	OP3(ffma, F32, F32, FV, FV, FV, .how = { NEG, 0, UNIFORM }),
	OP1(fneg, F32, F32, FV),
	OP1(fabs, F32, F32, FV),
	OP2(fmin, F32, F32, FN, FN),
	OP2(fmax, F32, F32, FN, FN),
	OP2(fmin, F32, F32, FV, FV, .how = { NEG, CONST }),
	OP1(ffloor, F32, F32, FV),
	OP1(fceil, F32, F32, FV),
	OP1(ftrunc, F32, F32, FV),
	OP1(fround_even, F32, F32, FV),
	OP1(frcp, F32, F32, FV),
	OP1(frsqrt, F32, F32, FP),
	OP1(frsqrt_special, F32, F32, FP),
	OP1(fexp2, F32, F32, FV),
	OP1(flog2, F32, F32, FP),
	OP1(flog2, F32, F32, FP, .how = { ABS }),
	OP2(feq, B1, F32, FN, FN),
	OP2(fne, B1, F32, FN, FN),
	OP2(flt, B1, F32, FN, FN),
	OP2(fge, B1, F32, FN, FN),
	OP2(flt, B1, F32, FV, FV, .how = { NEG, CONST }),
	OP1(f2i, I32, F32, FI),
	OP1(f2u, I32, F32, FU),
	OP1(f2i, I16, F32, FI),
	OP1(f2u, I16, F32, FI),
	OP1(f2f16, F16, F32, FV),
	OP1(f2f16, F16, F32, FV, .how = { NEG }),
	/* float16 */
	OP2(fadd, F16, F16, HV, HV),
	OP2(fadd, F16, F16, HV, HV, .how = { 0, CONST }),
	OP2(fmul, F16, F16, HV, HV, .how = { NEG, 0 }),
	OP3(ffma, F16, F16, HV, HV, HV),
	OP1(ffloor, F16, F16, HV),
	OP1(fround_even, F16, F16, HV),
	OP1(frcp, F16, F16, HP),
	OP1(fneg, F16, F16, HV),
	OP2(fmax, F16, F16, HV, HV),
	OP2(flt, B1, F16, HV, HV),
	OP1(f2f32, F32, F16, HV),
	OP1(f2i, I32, F16, HV),
	OP1(f2i, I16, F16, HV),
	/* integers */
	OP2(iadd, I32, I32, IV, IV),
	OP2(iadd, I32, I32, IV, IV, .how = { 0, CONST }),
	OP2(iadd, I32, I32, IV, IV, .how = { CONST, 0 }),
	OP2(iadd, I32, I32, IV, IV, .how = { 0, UNIFORM }),
	OP2(isub, I32, I32, IV, IV),
	OP2(isub, I32, I32, IV, IV, .how = { CONST, 0 }),
	OP2(imul, I32, I32, IV, IV),
	OP1(ineg, I32, I32, IV),
	OP2(iand, I32, I32, IV, IV),
	OP2(ior, I32, I32, IV, IV),
	OP2(ixor, I32, I32, IV, IV, .how = { 0, CONST }),
	OP1(inot, I32, I32, IV),
	OP2(ishl, I32, I32, IV, SH),
	OP2(ishl, I32, I32, IV, SH, .how = { 0, CONST }),
	OP2(ishr, I32, I32, IV, SH),
	OP2(ushr, I32, I32, IV, SH),
	OP2(ushr, I32, I32, IV, SH, .how = { UNIFORM, 0 }),
	OP2(imin, I32, I32, IV, IV),
	OP2(imax, I32, I32, IV, IV),
	OP2(umin, I32, I32, IV, IV),
	OP2(umax, I32, I32, IV, IV),
	OP2(imul_high, I32, I32, IV, IV),
	OP2(umul_high, I32, I32, IV, IV),
	OP2(umul_high, I32, I32, IV, IV, .how = { 0, CONST }),
	OP2(ieq, B1, I32, IV, IV),
	OP2(ine, B1, I32, IV, IV),
	OP2(ilt, B1, I32, IV, IV),
	OP2(ige, B1, I32, IV, IV),
	OP2(ult, B1, I32, IV, IV),
	OP2(uge, B1, I32, IV, IV),
	OP2(ult, B1, I32, IV, IV, .how = { 0, CONST }),
	OP1(i2f, F32, I32, IV),
	OP1(u2f, F32, I32, IV),
	OP1(i2f, F16, I32, IH),
	OP1(i2i16, I16, I32, IV),
	/* 16-bit integers */
	OP2(iadd, I16, I16, IH, IH),
	OP2(isub, I16, I16, IH, IH),
	OP2(imul, I16, I16, IH, IH),
	OP2(ishl, I16, I16, IH, SH16),
	OP2(ishr, I16, I16, IH, SH16),
	OP2(ushr, I16, I16, IH, SH16),
	OP2(ilt, B1, I16, IH, IH),
	OP2(umax, I16, I16, IH, IH),
	OP2(iand, I16, I16, IH, IH),
	OP1(i2i32, I32, I16, IH),
	OP1(u2u32, I32, I16, IH),
	OP1(i2f, F32, I16, IH),
	OP1(u2f, F16, I16, IH),
	/* booleans */
	OP2(band, B1, B1, BV, BV),
	OP2(bor, B1, B1, BV, BV),
	OP2(bxor, B1, B1, BV, BV),
	OP1(bnot, B1, B1, BV),
	{ AGX_IR_OP_bcsel, I32, { B1, I32, I32 }, { BV, IV, IV }, .how = { 0 } },
	{ AGX_IR_OP_bcsel, F32, { B1, F32, F32 }, { BV, FV, FP }, .how = { 0, CONST, CONST } },
	{ AGX_IR_OP_bcsel, F16, { B1, F16, F16 }, { BV, HV, HV }, .how = { 0 } },
	{ AGX_IR_OP_bcsel, B1, { B1, B1, B1 }, { BV, BV, BV }, .how = { 0 } },
	OP1(b2f, F32, B1, BV),
	OP1(b2f, F16, B1, BV),
	OP1(b2i, I32, B1, BV),
	OP1(b2i, I16, B1, BV),
};

static void test_ops(void **state)
{
	(void)state;
	for (unsigned k = 0; k < sizeof(op_cases) / sizeof(op_cases[0]); k++)
		check_op(&op_cases[k]);
}

/* sin of t quarter turns: u = sin_pt_1 t, u * sin_pt_2 u (agx_ir_ops.h). */
static void test_sine(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	float in[32];
	uint32_t out[32];
	struct agx_ir_value i, t, u;
	struct grid g;

	(void)state;
	i = gid(&b);
	t = agx_bitcast(&b, F32, load_in(&b, i));
	u = agx_fsin_pt_1(&b, t);
	u = agx_fmul(&b, u, agx_fsin_pt_2(&b, u));
	store_out(&b, agx_bitcast(&b, I32, u), i);
	compile(s, 0, &bin);
	for (unsigned l = 0; l < 32; l++)
		in[l] = (float)l * 0.125f;
	g = io_grid(32, 32, in, sizeof(in), out, sizeof(out));
	run(&bin, &g);
	for (unsigned l = 0; l < 32; l++)
		assert_float_equal(bitsf(out[l]), sin(in[l] * M_PI / 2), 1e-6);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* ---- control flow ------------------------------------------------------------ */

/* Compiles s, runs it on IN = in (n words), returns OUT (n words) in out. */
static void run_words(struct agx_ir_shader *s, unsigned max_registers, const uint32_t *in,
		      uint32_t *out, unsigned n, struct agx_shader_binary *bin)
{
	uint32_t *copy = malloc(n * 4 + 4);
	struct grid g;

	assert_non_null(copy);
	memcpy(copy, in, n * 4);
	compile(s, max_registers, bin);
	if (getenv("AGX_TEST_SHOW_CODE")) { /* the code as a TAP comment, for debugging */
		char *t = disasm(bin);
		note("%s", t);
		free(t);
	}
	memset(out, 0xee, n * 4);
	g = io_grid(n, 32, copy, n * 4, out, n * 4);
	run(bin, &g);
	free(copy);
}

static void assert_words(const uint32_t *got, const uint32_t *want, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		if (got[l] != want[l])
			fail_msg("thread %u: got %u (0x%x), want %u", l, got[l], got[l], want[l]);
}

/*
 * if (x < 10) { a = 2x; if (x & 1) b = a + 1; else b = a + 100; y = b + 5 }
 * else y = x - 3 -- the inner phi and the outer one, lanes on every path.
 */
static void test_nested_if(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, x, a, b1, b2, bp, y1, y2, y;
	struct agx_ir_if *outer, *inner;
	uint32_t in[64], out[64], want[64];

	(void)state;
	i = gid(&b);
	x = load_in(&b, i);
	outer = agx_builder_push_if(&b, agx_ult(&b, x, agx_imm_u32(10)));
	a = agx_imul(&b, x, agx_imm_u32(2));
	inner =
	    agx_builder_push_if(&b, agx_ieq(&b, agx_iand(&b, x, agx_imm_u32(1)), agx_imm_u32(1)));
	b1 = agx_iadd(&b, a, agx_imm_u32(1));
	agx_builder_push_else(&b, inner);
	b2 = agx_iadd(&b, a, agx_imm_u32(100));
	agx_builder_pop_if(&b, inner);
	bp = agx_phi(&b, I32);
	phi_add(bp, then_block(inner), b1);
	phi_add(bp, else_block(inner), b2);
	y1 = agx_iadd(&b, bp, agx_imm_u32(5));
	agx_builder_push_else(&b, outer);
	y2 = agx_isub(&b, x, agx_imm_u32(3));
	agx_builder_pop_if(&b, outer);
	y = agx_phi(&b, I32);
	phi_add(y, then_block(outer), y1);
	phi_add(y, else_block(outer), y2);
	store_out(&b, y, i);
	for (unsigned l = 0; l < 64; l++) {
		in[l] = (l * 7) % 23;
		want[l] = in[l] < 10 ? 2 * in[l] + (in[l] & 1 ? 1 : 100) + 5 : in[l] - 3;
	}
	run_words(s, 0, in, out, 64, &bin);
	assert_words(out, want, 64);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* The reference of test_loop_break_continue's loop. */
static uint32_t break_continue_ref(uint32_t n, uint32_t i)
{
	uint32_t k = 0, sum = 0;

	for (;;) {
		if (k >= n)
			break;
		if (k & 1) {
			sum += 1000;
			k++;
			continue;
		}
		if (k == 4 && (i & 1)) {
			sum += k + 7;
			k++;
			continue;
		}
		sum += k;
		k++;
	}
	return sum * 2 + k;
}

/*
 * A loop left by a break inside an if, with a continue inside an if and
 * one inside two: each lane has its own count (n from IN), so lanes leave
 * at different iterations; the sum leaves through a phi after the loop.
 */
static void test_loop_break_continue(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, n, kp, sp, kn, sc, sn, s7, ex, kx;
	struct agx_ir_if *nif, *n3, *n4;
	struct agx_ir_loop *loop;
	struct agx_ir_block *brk;
	uint32_t in[64], out[64], want[64];

	(void)state;
	i = gid(&b);
	n = load_in(&b, i);
	loop = agx_builder_push_loop(&b);
	kp = agx_phi(&b, I32);
	sp = agx_phi(&b, I32);
	phi_add(kp, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(sp, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	nif = agx_builder_push_if(&b, agx_uge(&b, kp, n));
	brk = b.cursor.block;
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	kn = agx_iadd(&b, kp, agx_imm_u32(1));
	nif =
	    agx_builder_push_if(&b, agx_ine(&b, agx_iand(&b, kp, agx_imm_u32(1)), agx_imm_u32(0)));
	sc = agx_iadd(&b, sp, agx_imm_u32(1000));
	phi_add(kp, b.cursor.block, kn);
	phi_add(sp, b.cursor.block, sc);
	agx_continue(&b);
	agx_builder_pop_if(&b, nif);
	sn = agx_iadd(&b, sp, kp);
	n3 = agx_builder_push_if(&b, agx_ieq(&b, kp, agx_imm_u32(4)));
	n4 = agx_builder_push_if(&b, agx_ine(&b, agx_iand(&b, i, agx_imm_u32(1)), agx_imm_u32(0)));
	s7 = agx_iadd(&b, sn, agx_imm_u32(7));
	phi_add(kp, b.cursor.block, kn);
	phi_add(sp, b.cursor.block, s7);
	agx_continue(&b);
	agx_builder_pop_if(&b, n4);
	agx_builder_pop_if(&b, n3);
	phi_add(kp, b.cursor.block, kn);
	phi_add(sp, b.cursor.block, sn);
	agx_builder_pop_loop(&b, loop);
	ex = agx_phi(&b, I32);
	phi_add(ex, brk, sp);
	kx = kp; /* the header's phi dominates the exit too */
	store_out(&b, agx_iadd(&b, agx_imul(&b, ex, agx_imm_u32(2)), kx), i);
	for (unsigned l = 0; l < 64; l++) {
		in[l] = (l * 5) % 11;
		want[l] = break_continue_ref(in[l], l);
	}
	run_words(s, 0, in, out, 64, &bin);
	assert_words(out, want, 64);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* for (a = 0; a < n; a++) for (c = 0; c <= a; c++) total += a * c + 1 */
static void test_nested_loops(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, n, ap, tp, cp, t2, t3;
	struct agx_ir_loop *outer, *inner;
	struct agx_ir_if *nif;
	uint32_t in[64], out[64], want[64];

	(void)state;
	i = gid(&b);
	n = load_in(&b, i);
	outer = agx_builder_push_loop(&b);
	ap = agx_phi(&b, I32);
	tp = agx_phi(&b, I32);
	phi_add(ap, agx_ir_cf_node_block_before(&outer->node), agx_imm_u32(0));
	phi_add(tp, agx_ir_cf_node_block_before(&outer->node), agx_imm_u32(0));
	nif = agx_builder_push_if(&b, agx_uge(&b, ap, n));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	inner = agx_builder_push_loop(&b);
	cp = agx_phi(&b, I32);
	t2 = agx_phi(&b, I32);
	phi_add(cp, agx_ir_cf_node_block_before(&inner->node), agx_imm_u32(0));
	phi_add(t2, agx_ir_cf_node_block_before(&inner->node), tp);
	nif = agx_builder_push_if(&b, agx_ult(&b, ap, cp));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	t3 = agx_iadd(&b, t2, agx_iadd(&b, agx_imul(&b, ap, cp), agx_imm_u32(1)));
	phi_add(cp, b.cursor.block, agx_iadd(&b, cp, agx_imm_u32(1)));
	phi_add(t2, b.cursor.block, t3);
	agx_builder_pop_loop(&b, inner);
	phi_add(ap, b.cursor.block, agx_iadd(&b, ap, agx_imm_u32(1)));
	phi_add(tp, b.cursor.block, t2);
	agx_builder_pop_loop(&b, outer);
	store_out(&b, tp, i);
	for (unsigned l = 0; l < 64; l++) {
		uint32_t total = 0;

		in[l] = l % 7;
		for (uint32_t a = 0; a < in[l]; a++)
			for (uint32_t c = 0; c <= a; c++)
				total += a * c + 1;
		want[l] = total;
	}
	run_words(s, 0, in, out, 64, &bin);
	assert_words(out, want, 64);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/*
 * Seven loop-carried values rotated each iteration (v[j] = v[j + 1]): a
 * cycle in the parallel copy of the back edge, and more phis than one copy
 * holds; plus a plain swap of two.
 */
static void test_loop_rotate(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, n, kp, v[7], x, y, r;
	struct agx_ir_loop *loop;
	struct agx_ir_if *nif;
	struct agx_ir_block *pre;
	uint32_t in[64], out[64], want[64];

	(void)state;
	i = gid(&b);
	n = load_in(&b, i);
	loop = agx_builder_push_loop(&b);
	pre = agx_ir_cf_node_block_before(&loop->node);
	kp = agx_phi(&b, I32);
	phi_add(kp, pre, agx_imm_u32(0));
	for (unsigned j = 0; j < 7; j++) {
		v[j] = agx_phi(&b, I32);
		phi_add(v[j], pre, agx_imm_u32(j + 1));
	}
	x = agx_phi(&b, I32);
	y = agx_phi(&b, I32);
	phi_add(x, pre, i);
	phi_add(y, pre, agx_imm_u32(100));
	nif = agx_builder_push_if(&b, agx_uge(&b, kp, n));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	phi_add(kp, b.cursor.block, agx_iadd(&b, kp, agx_imm_u32(1)));
	for (unsigned j = 0; j < 7; j++)
		phi_add(v[j], b.cursor.block, v[(j + 1) % 7]);
	phi_add(x, b.cursor.block, y);
	phi_add(y, b.cursor.block, x);
	agx_builder_pop_loop(&b, loop);
	r = agx_imm_u32(0);
	for (unsigned j = 0; j < 7; j++)
		r = agx_iadd(&b, agx_imul(&b, r, agx_imm_u32(10)), v[j]);
	r = agx_iadd(&b, agx_imul(&b, r, agx_imm_u32(1000)), agx_isub(&b, x, y));
	store_out(&b, r, i);
	for (unsigned l = 0; l < 64; l++) {
		uint32_t vv[7], xx = l, yy = 100, acc = 0;

		in[l] = l % 10;
		for (unsigned j = 0; j < 7; j++)
			vv[j] = (j + in[l]) % 7 + 1;
		if (in[l] & 1) {
			xx = 100;
			yy = l;
		}
		for (unsigned j = 0; j < 7; j++)
			acc = acc * 10 + vv[j];
		want[l] = acc * 1000 + (xx - yy);
	}
	run_words(s, 0, in, out, 64, &bin);
	assert_words(out, want, 64);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* ---- spilling -------------------------------------------------------------------- */

#define SPILL_VALUES 20

/*
 * Twenty loaded values live across a loop that reads them all, then
 * combined: at 128 registers nothing spills; at 8 most of them must.
 */
static struct agx_ir_shader *pressure_kernel(void)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_ir_value i, base, n, v[SPILL_VALUES], kp, acc, next, r;
	struct agx_ir_loop *loop;
	struct agx_ir_if *nif;
	struct agx_ir_block *pre;

	i = gid(&b);
	base = agx_imul(&b, i, agx_imm_u32(SPILL_VALUES + 1));
	n = load_in(&b, base);
	for (unsigned j = 0; j < SPILL_VALUES; j++)
		v[j] = load_in(&b, agx_iadd(&b, base, agx_imm_u32(j + 1)));
	loop = agx_builder_push_loop(&b);
	pre = agx_ir_cf_node_block_before(&loop->node);
	kp = agx_phi(&b, I32);
	acc = agx_phi(&b, I32);
	phi_add(kp, pre, agx_imm_u32(0));
	phi_add(acc, pre, agx_imm_u32(1));
	nif = agx_builder_push_if(&b, agx_uge(&b, kp, n));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	next = acc;
	for (unsigned j = 0; j < SPILL_VALUES; j++)
		next = agx_iadd(&b, agx_imul(&b, next, agx_imm_u32(3)), agx_ixor(&b, v[j], kp));
	phi_add(kp, b.cursor.block, agx_iadd(&b, kp, agx_imm_u32(1)));
	phi_add(acc, b.cursor.block, next);
	agx_builder_pop_loop(&b, loop);
	r = acc;
	for (unsigned j = 0; j < SPILL_VALUES; j++)
		r = agx_iadd(&b, r, agx_imul(&b, v[j], agx_imm_u32(j + 1)));
	store_out(&b, r, i);
	return s;
}

static void test_spilling(void **state)
{
	enum { N = 64 };
	uint32_t in[N * (SPILL_VALUES + 1)], out_full[N], out_small[N], want[N];
	struct agx_shader_binary full, small;
	struct agx_ir_shader *s;

	(void)state;
	for (unsigned l = 0; l < N; l++) {
		uint32_t *w = &in[l * (SPILL_VALUES + 1)], acc = 1, r;

		w[0] = l % 5;
		for (unsigned j = 0; j < SPILL_VALUES; j++)
			w[j + 1] = l * 131 + j * 17 + 3;
		for (uint32_t k = 0; k < w[0]; k++)
			for (unsigned j = 0; j < SPILL_VALUES; j++)
				acc = acc * 3 + (w[j + 1] ^ k);
		r = acc;
		for (unsigned j = 0; j < SPILL_VALUES; j++)
			r += w[j + 1] * (j + 1);
		want[l] = r;
	}
	s = pressure_kernel();
	compile(s, 0, &full);
	agx_ir_shader_destroy(s);
	s = pressure_kernel();
	compile(s, 8, &small);
	agx_ir_shader_destroy(s);
	note("128 registers: %u used, %u bytes of stack; 8 registers: %u used, %u bytes of stack",
	     full.info.num_registers, full.info.scratch_size, small.info.num_registers,
	     small.info.scratch_size);
	assert_int_equal(full.info.scratch_size, 0);
	assert_true(full.info.num_registers > 8);
	assert_true(small.info.scratch_size > 0);
	assert_true(small.info.num_registers <= 8);
	{
		struct grid g = io_grid(N, 32, in, sizeof(in), out_full, sizeof(out_full));

		run(&full, &g);
		g = io_grid(N, 32, in, sizeof(in), out_small, sizeof(out_small));
		run(&small, &g);
	}
	assert_words(out_full, want, N);
	assert_words(out_small, want, N);
	agx_shader_binary_finish(&full);
	agx_shader_binary_finish(&small);
}

/* A swap of two loop-carried values: the copy cycle goes through the scratch r1l. */
static void test_loop_swap(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, n, kp, x, y;
	struct agx_ir_loop *loop;
	struct agx_ir_if *nif;
	struct agx_ir_block *pre;
	uint32_t in[64], out[64], want[64];
	char *text;

	(void)state;
	i = gid(&b);
	n = load_in(&b, i);
	loop = agx_builder_push_loop(&b);
	pre = agx_ir_cf_node_block_before(&loop->node);
	kp = agx_phi(&b, I32);
	x = agx_phi(&b, I32);
	y = agx_phi(&b, I32);
	phi_add(kp, pre, agx_imm_u32(0));
	phi_add(x, pre, i);
	phi_add(y, pre, agx_imm_u32(1000));
	nif = agx_builder_push_if(&b, agx_uge(&b, kp, n));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	phi_add(kp, b.cursor.block, agx_iadd(&b, kp, agx_imm_u32(1)));
	phi_add(x, b.cursor.block, y);
	phi_add(y, b.cursor.block, x);
	agx_builder_pop_loop(&b, loop);
	store_out(&b, agx_iadd(&b, agx_imul(&b, x, agx_imm_u32(10000)), y), i);
	for (unsigned l = 0; l < 64; l++) {
		in[l] = l % 4;
		want[l] = in[l] & 1 ? 1000 * 10000 + l : l * 10000 + 1000;
	}
	run_words(s, 0, in, out, 64, &bin);
	assert_words(out, want, 64);
	text = disasm(&bin);
	if (!strstr(text, "r1l"))
		fail_msg("the swap did not go through r1l:\n%s", text);
	free(text);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* ---- threadgroups: shared memory, barriers, atomics ----------------------------- */

/*
 * 64 threads a group (two SIMD groups), two groups: each writes its id to
 * shared[local index], and after the barrier reads its mirror's.
 */
static void test_shared_barrier(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, li, v;
	uint32_t in[1] = { 0 }, out[128];
	struct grid g;

	(void)state;
	s->local_size[0] = 64;
	s->shared_size = 64 * 4;
	i = gid(&b);
	li = agx_load_local_index(&b);
	agx_store_shared(&b, agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(3)), agx_imm_u32(1)),
			 agx_imul(&b, li, agx_imm_u32(4)));
	agx_barrier(&b);
	v = agx_load_shared(&b, I32,
			    agx_imul(&b, agx_isub(&b, agx_imm_u32(63), li), agx_imm_u32(4)));
	store_out(&b, v, i);
	compile(s, 0, &bin);
	assert_int_equal(bin.info.shared_size, 256);
	g = io_grid(128, 64, in, sizeof(in), out, sizeof(out));
	run(&bin, &g);
	for (unsigned l = 0; l < 128; l++) {
		unsigned group = l / 64, mirror = group * 64 + 63 - l % 64;

		assert_int_equal(out[l], mirror * 3 + 1);
	}
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/*
 * Device atomics: add (every old value once), imax, a cmpxchg that one
 * thread wins; shared atomics: add and a cmpxchg, read after a barrier.
 */
static void test_atomics(void **state)
{
	enum { N = 64 };
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, old, win, sum, cas;
	uint32_t mem[4] = { 0, 0, 0, 0 }, out[4 * N];
	unsigned seen[N] = { 0 }, winners = 0, shared_winners = 0;
	uint32_t w = ~0u;
	struct grid g;

	(void)state;
	s->local_size[0] = N;
	s->shared_size = 8;
	i = gid(&b);
	old = agx_atomic_global(&b, agx_imm_u32(0), agx_imm_u32(1), 0, 0 /* add */);
	agx_atomic_global(&b, agx_imm_u32(1), i, 0, 7 /* imax */);
	win = agx_cmpxchg_global(&b, agx_imm_u32(2), agx_imm_u32(0),
				 agx_iadd(&b, i, agx_imm_u32(1)), 0);
	agx_atomic_shared(&b, agx_imm_u32(0), agx_imm_u32(3), 0 /* add */);
	cas =
	    agx_cmpxchg_shared(&b, agx_imm_u32(4), agx_imm_u32(0), agx_iadd(&b, i, agx_imm_u32(7)));
	agx_barrier(&b);
	sum = agx_load_shared(&b, I32, agx_imm_u32(0));
	store_out(&b, old, agx_imul(&b, i, agx_imm_u32(4)));
	store_out(&b, win, agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(4)), agx_imm_u32(1)));
	store_out(&b, sum, agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(4)), agx_imm_u32(2)));
	store_out(&b, agx_iadd(&b, cas, agx_load_shared(&b, I32, agx_imm_u32(4))),
		  agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(4)), agx_imm_u32(3)));
	compile(s, 0, &bin);
	g = io_grid(N, N, mem, sizeof(mem), out, sizeof(out));
	run(&bin, &g);
	assert_int_equal(mem[0], N);
	assert_int_equal(mem[1], N - 1);
	for (unsigned l = 0; l < N; l++) {
		assert_true(out[4 * l] < N);
		seen[out[4 * l]]++;
		if (out[4 * l + 1] == 0) {
			winners++;
			assert_int_equal(mem[2], l + 1);
		}
		assert_int_equal(out[4 * l + 2], 3 * N);
		if (out[4 * l + 3] < w)
			w = out[4 * l + 3];
	}
	for (unsigned l = 0; l < N; l++)
		assert_int_equal(seen[l], 1);
	assert_int_equal(winners, 1);
	/* shared cmpxchg: the winner's old value 0 plus the word w = its id + 7; the others' w + w
	 */
	assert_true(w >= 7 && w < N + 7);
	for (unsigned l = 0; l < N; l++) {
		if (out[4 * l + 3] == w)
			shared_winners++;
		else
			assert_int_equal(out[4 * l + 3], 2 * w);
	}
	assert_int_equal(shared_winners, 1);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* The system values over a 2 x 2 x 1 grid of 4 x 2 x 4 threadgroups (32 threads each). */
static void test_system_values(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value v[10], gx, gy, gz, lin;
	uint32_t in[1] = { 0 }, out[128 * 10];
	struct grid g;

	(void)state;
	for (unsigned c = 0; c < 3; c++) {
		v[c] = agx_load_global_id(&b, c);
		v[3 + c] = agx_load_local_id(&b, c);
		v[6 + c] = agx_load_workgroup_id(&b, c);
	}
	v[9] = agx_load_local_index(&b);
	/* linear thread number: x + 8 (y + 4 z) over the 8 x 4 x 4 grid of threads */
	gx = v[0];
	gy = v[1];
	gz = v[2];
	lin = agx_iadd(
	    &b, gx,
	    agx_imul(&b, agx_iadd(&b, gy, agx_imul(&b, gz, agx_imm_u32(4))), agx_imm_u32(8)));
	for (unsigned k = 0; k < 10; k++)
		store_out(&b, v[k],
			  agx_iadd(&b, agx_imul(&b, lin, agx_imm_u32(10)), agx_imm_u32(k)));
	compile(s, 0, &bin);
	g = io_grid(32, 32, in, sizeof(in), out, sizeof(out));
	g.groups[0] = 2, g.groups[1] = 2, g.groups[2] = 1;
	g.local[0] = 4, g.local[1] = 2, g.local[2] = 4;
	run(&bin, &g);
	for (unsigned z = 0; z < 4; z++)
		for (unsigned y = 0; y < 4; y++)
			for (unsigned x = 0; x < 8; x++) {
				const uint32_t *o = &out[(x + 8 * (y + 4 * z)) * 10];
				unsigned lx = x % 4, ly = y % 2, lz = z;

				assert_int_equal(o[0], x);
				assert_int_equal(o[1], y);
				assert_int_equal(o[2], z);
				assert_int_equal(o[3], lx);
				assert_int_equal(o[4], ly);
				assert_int_equal(o[5], lz);
				assert_int_equal(o[6], x / 4);
				assert_int_equal(o[7], y / 2);
				assert_int_equal(o[8], 0);
				assert_int_equal(o[9], lx + 4 * (ly + 2 * lz));
			}
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* ---- the code itself: disassembly, waits -------------------------------------- */

/* The 16-bit halves a register operand names ("r5", "r5l", "r4_r5", "r4_r5_r6"), as a mask. */
static void halves_of(const char *tok, uint64_t mask[4])
{
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", tok);
	if (strchr(buf, '.'))
		*strchr(buf, '.') = '\0';
	for (char *r = strtok_r(buf, "_", &save); r; r = strtok_r(NULL, "_", &save)) {
		char *end;
		unsigned long n;

		if (r[0] != 'r' || r[1] < '0' || r[1] > '9')
			return;
		n = strtoul(r + 1, &end, 10);
		if (n > 127)
			return;
		if (*end != 'h')
			mask[n / 32] |= 1ull << (2 * n % 64);
		if (*end != 'l')
			mask[n / 32] |= 2ull << (2 * n % 64);
	}
}

/*
 * Checks the wait rule on a disassembly: after a load (device, threadgroup,
 * stack) or a returning atomic, no instruction names its destination before
 * a wait.  Returns how many asynchronous results it followed.
 */
static int find_wait_violation(const char *text, char *why, size_t whysize)
{
	uint64_t pending[4] = { 0 };
	unsigned loads = 0;
	char line[256];

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *ops[16], *save = NULL, *mnem;
		unsigned n = 0, dst = 99;
		uint64_t named[4] = { 0 };

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (nl != NULL);
		mnem = strtok_r(line, " ", &save);
		for (char *o = strtok_r(NULL, ",", &save); o && n < 16;
		     o = strtok_r(NULL, ",", &save))
			ops[n++] = o + (o[0] == ' ');
		if (!strcmp(mnem, "wait")) {
			memset(pending, 0, sizeof(pending));
			continue;
		}
		for (unsigned k = 0; k < n; k++)
			halves_of(ops[k], named);
		for (unsigned w = 0; w < 4; w++)
			if (named[w] & pending[w]) {
				snprintf(why, whysize,
					 "`%.*s` names a register still being loaded, with no wait "
					 "before it",
					 (int)len, p - len - (nl != NULL));
				return -1;
			}
		if (!strcmp(mnem, "device_load") || !strcmp(mnem, "stack_load"))
			dst = 3;
		else if (!strcmp(mnem, "threadgroup_load") || !strcmp(mnem, "atomic"))
			dst = 2;
		else if (!strcmp(mnem, "threadgroup_atomic"))
			dst = 1;
		if (dst < n && strcmp(ops[dst], "_")) {
			halves_of(ops[dst], pending);
			loads++;
		}
	}
	return (int)loads;
}

static unsigned check_waits(const char *text)
{
	char why[300];
	int loads = find_wait_violation(text, why, sizeof(why));

	if (loads < 0)
		fail_msg("%s, in:\n%s", why, text);
	return (unsigned)loads;
}

static void expect_text(struct agx_shader_binary *bin, const char *want)
{
	char *text = disasm(bin);

	if (strcmp(text, want))
		fail_msg("the code:\n%s\nwanted:\n%s", text, want);
	free(text);
}

/* if (i < 5) ... else ...: the execution-mask instructions and the phi's copies. */
static void test_disasm_if(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin;
	struct agx_ir_value i, r;
	struct agx_ir_if *nif;

	(void)state;
	i = gid(&b);
	nif = agx_builder_push_if(&b, agx_ult(&b, i, agx_imm_u32(5)));
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	r = agx_phi(&b, I32);
	phi_add(r, then_block(nif), agx_imm_u32(7));
	phi_add(r, else_block(nif), agx_imm_u32(0x12345));
	store_out(&b, r, i);
	compile(s, 0, &bin);
	expect_text(&bin, "get_sr r2, sr80 (thread_position_in_grid.x)\n"
			  "icmpsel ult, r3l, r2, 5, 1, 0\n"
			  "if_icmp r0l, nueq, r3l, 0, 1\n"
			  "mov_imm r3, 7\n"
			  "else_exec r0l, 1\n"
			  "mov_imm r3, 74565\n"
			  "pop_exec r0l, 1\n"
			  "device_store 0, i32, x, r3, u2_u3, r2, unsigned, 0\n"
			  "stop\n");
	assert_int_equal(bin.info.num_registers, 4);
	assert_int_equal(bin.info.num_instructions, 9);
	{
		uint32_t in[1] = { 0 }, out[64];
		struct grid g = io_grid(64, 32, in, sizeof(in), out, sizeof(out));

		run(&bin, &g);
		for (unsigned l = 0; l < 64; l++)
			assert_int_equal(out[l], l < 5 ? 7 : 0x12345);
	}
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/* A loop summing IN[0..n): a load in the loop, waited for before its use; break and copies. */
static struct agx_ir_shader *sum_kernel(void)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_ir_value i, n, kp, acc, x;
	struct agx_ir_loop *loop;
	struct agx_ir_if *nif;
	struct agx_ir_block *pre;

	i = gid(&b);
	n = load_in(&b, i);
	loop = agx_builder_push_loop(&b);
	pre = agx_ir_cf_node_block_before(&loop->node);
	kp = agx_phi(&b, I32);
	acc = agx_phi(&b, I32);
	phi_add(kp, pre, agx_imm_u32(0));
	phi_add(acc, pre, agx_imm_u32(0));
	nif = agx_builder_push_if(&b, agx_uge(&b, kp, n));
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	x = load_in(&b, kp);
	phi_add(kp, b.cursor.block, agx_iadd(&b, kp, agx_imm_u32(1)));
	phi_add(acc, b.cursor.block, agx_iadd(&b, acc, x));
	agx_builder_pop_loop(&b, loop);
	store_out(&b, acc, i);
	return s;
}

static void test_disasm_loop(void **state)
{
	struct agx_ir_shader *s = sum_kernel();
	struct agx_shader_binary bin;

	(void)state;
	compile(s, 0, &bin);
	expect_text(&bin, "get_sr r2, sr80 (thread_position_in_grid.x)\n"
			  "device_load 0, i32, x, r3, u0_u1, r2, unsigned\n"
			  "mov_imm r4, 0\n"
			  "mov_imm r5, 0\n"
			  "wait 0\n"
			  "push_exec r0l, 2\n"
			  "icmpsel ult, r6l, r4, r3, 0, 1\n"
			  "if_icmp r0l, nueq, r6l, 0, 1\n"
			  "mov_imm r0l, 3\n"
			  "pop_exec r0l, 0\n"
			  "pop_exec r0l, 1\n"
			  "device_load 0, i32, x, r6, u0_u1, r4, unsigned\n"
			  "iadd r7, r4, 1\n"
			  "wait 0\n"
			  "iadd r6, r5, r6\n"
			  "mov r4, r7\n"
			  "mov r5, r6\n"
			  "while_icmp r0l, ueq, 0, 0, 2\n"
			  "jmp_exec_any 0x20\n"
			  "pop_exec r0l, 2\n"
			  "device_store 0, i32, x, r5, u2_u3, r2, unsigned, 0\n"
			  "stop\n");
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
}

/*
 * The wait rule, on the code of several kernels (the simulator completes
 * loads at once, so only the code can show it): the loop's loads, the
 * spills' stack loads, the atomics' old values, shared loads.
 */
static void test_waits(void **state)
{
	struct agx_ir_shader *s;
	struct agx_shader_binary bin;
	char *text;
	unsigned loads;

	(void)state;
	s = sum_kernel();
	compile(s, 0, &bin);
	text = disasm(&bin);
	assert_int_equal(check_waits(text), 2);
	free(text);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);

	s = pressure_kernel();
	compile(s, 8, &bin);
	text = disasm(&bin);
	loads = check_waits(text);
	assert_non_null(strstr(text, "stack_load"));
	assert_non_null(strstr(text, "stack_store"));
	assert_true(loads > SPILL_VALUES + 1);
	free(text);
	agx_shader_binary_finish(&bin);
	agx_ir_shader_destroy(s);
	{
		/* the wait checker itself: a use right after a load is caught */
		const char *bad = "device_load 0, i32, x, r3, u0_u1, r2, unsigned\n"
				  "iadd r4, r3h, 1\n";

		char why[300];

		assert_int_equal(find_wait_violation(bad, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "iadd r4, r3h, 1"));
	}
}

/* The op the back end cannot select is named, whichever entry point sees it. */
static void test_unsupported(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *s = kernel(&b);
	struct agx_shader_binary bin = { 0 };
	char *log = NULL;

	(void)state;
	/* graphics I/O in a compute shader */
	agx_store_output(&b, agx_load_input(&b, F32, 0, 0), 1, 0);
	assert_int_equal(agx_codegen(s, NULL, &bin, &log), -ENOTSUP);
	assert_non_null(log);
	assert_string_equal(log, "load_input in a compute shader");
	free(log);
	log = NULL;
	assert_int_equal(agx_backend_compile(s, NULL, &bin, &log), -ENOTSUP);
	assert_string_equal(log, "load_input in a compute shader");
	free(log);
	agx_ir_shader_destroy(s);

	/* a register budget nothing fits in */
	s = pressure_kernel();
	{
		struct agx_compile_options o = { .max_registers = 3 };

		assert_int_equal(agx_codegen(s, &o, &bin, &log), -ENOSPC);
		assert_non_null(log);
		free(log);
	}
	agx_ir_shader_destroy(s);
}

/* ---- the whole back end: lowering in front ------------------------------------ */

/*
 * Result[i] = Data[i] / 3 + Data[i] % 5 over two SSBOs, as the translator
 * leaves it (byte offsets, LOWERED ops): agx_backend_compile() places the
 * buffers' addresses (u0_u1, u2_u3), lowers, and the code runs.
 */
static void test_backend_compile(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&func, &b);
	struct agx_ir_var data = { .kind = AGX_IR_VAR_SSBO,
				   .name = "data",
				   .glsl_type = "Data",
				   .binding = 0,
				   .size = 256,
				   .uniform = -1 };
	struct agx_ir_var result = { .kind = AGX_IR_VAR_SSBO,
				     .name = "result",
				     .glsl_type = "Result",
				     .binding = 1,
				     .size = 256,
				     .uniform = -1 };
	struct agx_shader_binary bin = { 0 };
	struct agx_ir_value i, off, x, q, m;
	float in[64], out[64];
	char *log = NULL;
	struct grid g;
	int ret;

	(void)state;
	s->local_size[0] = 32;
	s->local_size[1] = s->local_size[2] = 1;
	s->num_workgroups_uniform = s->uniform_block_uniform = -1;
	agx_ir_shader_add_var(s, &data);
	agx_ir_shader_add_var(s, &result);
	i = gid(&b);
	off = agx_imul(&b, i, agx_imm_u32(4));
	x = agx_load_ssbo(&b, F32, off, 0);
	q = agx_fdiv(&b, x, agx_imm_f32(3.0f));
	m = agx_i2f(&b, F32, agx_umod(&b, i, agx_imm_u32(5)));
	agx_store_ssbo(&b, agx_fadd(&b, q, m), off, 1);
	ret = agx_backend_compile(s, NULL, &bin, &log);
	if (ret)
		fail_msg("agx_backend_compile: %d: %s", ret, log);
	assert_int_equal(bin.info.stage, AGX_SHADER_COMPUTE);
	assert_int_equal(bin.info.num_vars, 2);
	assert_string_equal(bin.info.vars[0].name, "data");
	assert_string_equal(bin.info.vars[1].glsl_type, "Result");
	assert_int_equal(bin.info.vars[0].kind, AGX_SHADER_STORAGE_BLOCK);
	assert_int_equal(bin.info.vars[0].uniform, 0);
	assert_int_equal(bin.info.vars[1].uniform, 2);
	assert_int_equal(bin.info.num_uniforms, 4);
	assert_int_equal(bin.info.local_size[0], 32);
	assert_int_equal(bin.info.scratch_size, 0);
	for (unsigned l = 0; l < 64; l++)
		in[l] = (float)l * 1.75f - 20.0f;
	g = io_grid(64, 32, in, sizeof(in), out, sizeof(out));
	run(&bin, &g);
	for (unsigned l = 0; l < 64; l++)
		assert_float_equal(out[l], in[l] / 3.0f + (float)(l % 5), 1e-5);
	agx_shader_binary_finish(&bin);
	free(log);
	agx_ir_shader_destroy(s);
}

/* ---- graphics: vertex and fragment shaders from GLSL, run with their I/O --------- */

#define ATTR0_ADDR 0x300000000ull
#define ATTR1_ADDR 0x400000000ull

struct gfx_memory {
	struct usc_run_buffer buf[4];
	unsigned num;
};

static void *gfx_find(struct gfx_memory *m, uint64_t addr, unsigned size)
{
	for (unsigned i = 0; i < m->num; i++)
		if (addr >= m->buf[i].address && addr + size <= m->buf[i].address + m->buf[i].size)
			return (uint8_t *)m->buf[i].data + (addr - m->buf[i].address);
	return NULL;
}

static bool gfx_read(void *ctx, uint64_t addr, void *dst, unsigned size)
{
	void *p = gfx_find(ctx, addr, size);

	if (p)
		memcpy(dst, p, size);
	return p != NULL;
}

static bool gfx_write(void *ctx, uint64_t addr, const void *src, unsigned size)
{
	void *p = gfx_find(ctx, addr, size);

	if (p)
		memcpy(p, src, size);
	return p != NULL;
}

static void glsl(enum agx_shader_stage stage, const char *src,
		 const struct agx_compile_options *opts, struct agx_shader_binary *bin)
{
	int ret;

	memset(bin, 0, sizeof(*bin));
	ret = agx_compile_glsl(stage, src, strlen(src), opts, bin);
	if (ret)
		fail_msg("agx_compile_glsl: %d: %s", ret, bin->log ? bin->log : "(no log)");
}

/* The texture unit's state run_stage binds: descriptors and samplers (24 bytes each). */
static const uint8_t *gfx_textures, *gfx_samplers;
static unsigned gfx_num_textures;

/* One SIMD group of 32 lanes of a graphics stage: r5, r6 and the stage's I/O given. */
static void run_stage(const struct agx_shader_binary *bin, const uint32_t *uniforms,
		      unsigned num_uniforms, struct gfx_memory *mem, const uint32_t *r5,
		      const uint32_t *r6, struct usc_vertex_io *vx, struct usc_fragment_io *fr)
{
	struct usc_program *prog = usc_program_create(bin->code, bin->size);
	struct usc_state *st = calloc(1, sizeof(*st));
	uint8_t *stack = calloc(USC_LANES, bin->info.scratch_size + 4);
	struct usc_result res;

	assert_non_null(prog);
	assert_non_null(st);
	assert_non_null(stack);
	usc_state_init(st, USC_LANES);
	if (num_uniforms)
		memcpy(st->u, uniforms, num_uniforms * sizeof(uint32_t));
	st->memory = (struct usc_memory){ .read = gfx_read, .write = gfx_write, .ctx = mem };
	st->stack = stack;
	st->stack_size = bin->info.scratch_size + 4;
	for (unsigned l = 0; l < USC_LANES; l++) {
		st->r[5][l] = r5 ? r5[l] : 0;
		st->r[6][l] = r6 ? r6[l] : 0;
	}
	st->vertex = vx;
	st->fragment = fr;
	st->textures = gfx_textures;
	st->num_textures = gfx_num_textures;
	st->samplers = gfx_samplers;
	st->num_samplers = gfx_num_textures;
	res = usc_run(prog, st, 1000000);
	if (res.status != USC_DONE) {
		char *text = disasm(bin);

		note("%s", text);
		free(text);
		fail_msg("the run ended with %d at pc %u: %s", res.status, res.pc, res.message);
	}
	usc_program_destroy(prog);
	free(stack);
	free(st);
}

static const struct agx_shader_var *find_var(const struct agx_shader_binary *bin, const char *name)
{
	for (unsigned i = 0; i < bin->info.num_vars; i++)
		if (!strcmp(bin->info.vars[i].name, name))
			return &bin->info.vars[i];
	fail_msg("no var %s", name);
	return NULL;
}

/*
 * Two attributes at their own strides (16 and 12 bytes), position and two
 * varyings written, for 32 vertices whose IDs step by 2 and two instances:
 * every output slot checked.
 */
static void test_vertex_shader(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "layout(location = 0) in vec4 pos;\n"
				  "layout(location = 1) in vec2 uv;\n"
				  "out vec2 v_uv;\n"
				  "flat out int v_id;\n"
				  "void main() {\n"
				  "  gl_Position = pos * 2.0 + vec4(float(gl_InstanceID));\n"
				  "  v_uv = uv + vec2(float(gl_VertexID), 0.5);\n"
				  "  v_id = gl_VertexID * 3 - gl_InstanceID;\n"
				  "}\n";
	struct agx_shader_binary bin;
	const struct agx_shader_var *pos, *uv, *vuv, *vid_var, *glpos;
	static float a0[64 * 4], a1[64 * 3];
	uint32_t u[16] = { 0 }, r5[32], r6[32], *out;
	struct gfx_memory mem = { .num = 2 };
	struct usc_vertex_io vx;

	(void)state;
	/* at 6 registers the allocator spills: r5 and r6 must be read before anything else */
	for (unsigned budget = 0; budget < 2; budget++) {
		struct agx_compile_options opts = { .max_registers = budget ? 6 : 0 };

		glsl(AGX_SHADER_VERTEX, src, &opts, &bin);
		if (budget)
			assert_int_not_equal(bin.info.scratch_size, 0);
		assert_int_equal(bin.info.stage, AGX_SHADER_VERTEX);
		pos = find_var(&bin, "pos");
		uv = find_var(&bin, "uv");
		vuv = find_var(&bin, "v_uv");
		vid_var = find_var(&bin, "v_id");
		glpos = find_var(&bin, "gl_Position");
		/* the ABI: an even pair, a stride and an offset each, by location */
		assert_int_equal(pos->uniform, 0);
		assert_int_equal(uv->uniform, 4);
		assert_int_equal(bin.info.num_uniforms, 8);
		assert_int_equal(glpos->slot, 0);
		assert_int_equal(vuv->slot, 4);
		assert_int_equal(vid_var->slot, 6);
		assert_int_equal(pos->slot, -1);
		assert_int_equal(bin.info.num_vertex_outputs, 7);

		for (unsigned i = 0; i < 64 * 4; i++)
			a0[i] = (float)i * 0.25f - 3.0f;
		for (unsigned i = 0; i < 64 * 3; i++)
			a1[i] = (float)i * -0.5f + 1.0f;
		mem.buf[0] = (struct usc_run_buffer){ ATTR0_ADDR, a0, sizeof(a0) };
		mem.buf[1] = (struct usc_run_buffer){ ATTR1_ADDR, a1, sizeof(a1) };
		u[0] = (uint32_t)ATTR0_ADDR;
		u[1] = (uint32_t)(ATTR0_ADDR >> 32);
		u[2] = 16;
		u[4] = (uint32_t)ATTR1_ADDR;
		u[5] = (uint32_t)(ATTR1_ADDR >> 32);
		u[6] = 12;
		for (unsigned l = 0; l < 32; l++) {
			r5[l] = 2 * l;
			r6[l] = l % 2;
		}
		out = calloc(32 * 7, sizeof(uint32_t));
		assert_non_null(out);
		vx = (struct usc_vertex_io){ out, 7 };
		run_stage(&bin, u, bin.info.num_uniforms, &mem, r5, r6, &vx, NULL);
		for (unsigned l = 0; l < 32; l++) {
			const uint32_t *o = out + l * 7;
			unsigned v = r5[l];

			float p[4];

			for (unsigned c = 0; c < 4; c++)
				p[c] = a0[v * 4 + c] * 2.0f + (float)r6[l];
			/* GL's clip z onto the hardware's 0..w (agx_lower_clip_z) */
			p[2] = (p[2] + p[3]) * 0.5f;
			for (unsigned c = 0; c < 4; c++)
				assert_int_equal(o[c], fbits(p[c]));
			assert_int_equal(o[4], fbits(a1[v * 3] + (float)v));
			assert_int_equal(o[5], fbits(a1[v * 3 + 1] + 0.5f));
			assert_int_equal(o[6], (uint32_t)(int32_t)(3 * v - r6[l]));
		}
		free(out);
		agx_shader_binary_finish(&bin);
	}
}

/*
 * Transform feedback (agx_lower_xfb, agx_lower_io): gl_Position and a
 * vec3 interleaved in buffer 0, an ivec2 in buffer 1, buffer 2 unused and
 * one component again in buffer 3, for 16 vertices from gl_VertexID 5 in
 * two instances: every word of every record checked, gl_Position.z as
 * the shader wrote it (GL's, not the hardware's clip z).
 */
static void test_vertex_xfb(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "out vec3 a;\n"
				  "flat out ivec2 n;\n"
				  "void main() {\n"
				  "  float v = float(gl_VertexID);\n"
				  "  gl_Position = vec4(v, 1.0, -0.5, 2.0);\n"
				  "  a = vec3(v, float(gl_InstanceID), 7.0) * 0.5;\n"
				  "  n = ivec2(gl_VertexID * 3, -gl_InstanceID);\n"
				  "}\n";
	struct agx_compile_options opts = { 0 };
	struct agx_shader_binary bin;
	const struct agx_shader_var *a, *n;
	static uint32_t b0[32 * 7], b1[32 * 2], b3[32];
	uint32_t u[32] = { 0 }, r5[32], r6[32], *out;
	struct gfx_memory mem = { .num = 3 };
	struct usc_vertex_io vx;
	unsigned nw = 0, x;

	(void)state;
	/* the shader's vars' locations: the varyings from 0, in declaration order */
	glsl(AGX_SHADER_VERTEX, src, NULL, &bin);
	a = find_var(&bin, "a");
	n = find_var(&bin, "n");
	for (unsigned c = 0; c < 4; c++)
		opts.xfb.words[nw++] =
		    (struct agx_xfb_word){ AGX_SHADER_LOCATION_POSITION, c, 0, c };
	for (unsigned c = 0; c < 3; c++)
		opts.xfb.words[nw++] = (struct agx_xfb_word){ a->location, c, 0, 4 + c };
	for (unsigned c = 0; c < 2; c++)
		opts.xfb.words[nw++] = (struct agx_xfb_word){ n->location, c, 1, c };
	opts.xfb.words[nw++] = (struct agx_xfb_word){ n->location, 1, 3, 0 };
	opts.xfb.num_words = nw;
	opts.xfb.stride[0] = 7;
	opts.xfb.stride[1] = 2;
	opts.xfb.stride[3] = 1;
	agx_shader_binary_finish(&bin);

	glsl(AGX_SHADER_VERTEX, src, &opts, &bin);
	assert_true(bin.info.xfb_uniform >= 0);
	x = (unsigned)bin.info.xfb_uniform;
	assert_int_equal(x % 2, 0);
	assert_int_equal(bin.info.num_uniforms, x + 8); /* three pairs, first, vertices */
	mem.buf[0] = (struct usc_run_buffer){ ATTR0_ADDR, b0, sizeof(b0) };
	mem.buf[1] = (struct usc_run_buffer){ ATTR1_ADDR, b1, sizeof(b1) };
	mem.buf[2] = (struct usc_run_buffer){ ATTR1_ADDR + 0x10000, b3, sizeof(b3) };
	u[x] = (uint32_t)ATTR0_ADDR;
	u[x + 1] = (uint32_t)(ATTR0_ADDR >> 32);
	u[x + 2] = (uint32_t)ATTR1_ADDR;
	u[x + 3] = (uint32_t)(ATTR1_ADDR >> 32);
	u[x + 4] = (uint32_t)(ATTR1_ADDR + 0x10000);
	u[x + 5] = (uint32_t)((ATTR1_ADDR + 0x10000) >> 32);
	u[x + 6] = 5;  /* the first vertex */
	u[x + 7] = 16; /* vertices per instance */
	/* the lanes in reverse: the record is the vertex's, not the lane's */
	for (unsigned l = 0; l < 32; l++) {
		r5[31 - l] = 5 + l % 16;
		r6[31 - l] = l / 16;
	}
	out = calloc(32 * bin.info.num_vertex_outputs, sizeof(uint32_t));
	assert_non_null(out);
	vx = (struct usc_vertex_io){ out, bin.info.num_vertex_outputs };
	run_stage(&bin, u, bin.info.num_uniforms, &mem, r5, r6, &vx, NULL);
	for (unsigned r = 0; r < 32; r++) {
		float v = (float)(5 + r % 16), i = (float)(r / 16);
		const uint32_t *w = b0 + 7 * r;

		assert_int_equal(w[0], fbits(v));
		assert_int_equal(w[1], fbits(1.0f));
		assert_int_equal(w[2], fbits(-0.5f));
		assert_int_equal(w[3], fbits(2.0f));
		assert_int_equal(w[4], fbits(v * 0.5f));
		assert_int_equal(w[5], fbits(i * 0.5f));
		assert_int_equal(w[6], fbits(3.5f));
		assert_int_equal(b1[2 * r], (uint32_t)(3 * (5 + r % 16)));
		assert_int_equal(b1[2 * r + 1], (uint32_t) - (int32_t)(r / 16));
		assert_int_equal(b3[r], (uint32_t) - (int32_t)(r / 16));
	}
	/* the rasterizer's position is still the hardware's: z = (z + w) / 2 */
	assert_int_equal(out[2], fbits(0.75f));
	free(out);
	agx_shader_binary_finish(&bin);
}

/* --- vertex attribute formats ----------------------------------------------------------- */

static const char *const vertex_type_names[] = {
	"FLOAT",
	"HALF_FLOAT",
	"BYTE",
	"UNSIGNED_BYTE",
	"SHORT",
	"UNSIGNED_SHORT",
	"INT",
	"UNSIGNED_INT",
	"FIXED",
	"INT_2_10_10_10_REV",
	"UNSIGNED_INT_2_10_10_10_REV",
};

static unsigned vertex_bytes(enum agx_vertex_type t)
{
	return t == AGX_VERTEX_BYTE || t == AGX_VERTEX_UNSIGNED_BYTE ? 1
	       : t == AGX_VERTEX_HALF_FLOAT || t == AGX_VERTEX_SHORT ||
		       t == AGX_VERTEX_UNSIGNED_SHORT
		   ? 2
		   : 4;
}

/*
 * GLES 3.0 section 2.8 on the CPU: component c of an element at bytes p
 * as the shader must see it (bits of a float, or of an integer).
 */
static uint32_t vertex_model(const struct agx_vertex_attrib *a, const uint8_t *p, unsigned c)
{
	enum agx_vertex_type t = a->type;
	bool packed =
	    t == AGX_VERTEX_INT_2_10_10_10_REV || t == AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV;
	bool sgn = t == AGX_VERTEX_BYTE || t == AGX_VERTEX_SHORT || t == AGX_VERTEX_INT ||
		   t == AGX_VERTEX_INT_2_10_10_10_REV;
	bool as_int = a->integer;
	unsigned size = packed ? 4 : a->size, b = packed ? (c == 3 ? 2 : 10) : 8 * vertex_bytes(t);
	uint32_t raw = 0;
	int64_t v;

	if (c >= size)
		return as_int ? (c == 3) : fbits(c == 3 ? 1.0f : 0.0f);
	if (packed) {
		memcpy(&raw, p, 4);
		raw = (raw >> (10 * c)) & ((1u << b) - 1);
	} else {
		memcpy(&raw, p + c * vertex_bytes(t), vertex_bytes(t));
	}
	if (t == AGX_VERTEX_FLOAT)
		return raw;
	if (t == AGX_VERTEX_HALF_FLOAT) {
		/* IEEE binary16 by hand (clang's sanitizer build has no _Float16 here) */
		unsigned e = (raw >> 10) & 31, m = raw & 1023;
		double x = e == 0    ? ldexp(m, -24)
			   : e == 31 ? (m ? NAN : INFINITY)
				     : ldexp(1024 + m, (int)e - 25);

		return fbits((float)((raw & 0x8000) ? -x : x));
	}
	v = sgn || t == AGX_VERTEX_FIXED ? (int64_t)((int32_t)(raw << (32 - b)) >> (32 - b))
					 : (int64_t)raw;
	if (t == AGX_VERTEX_FIXED)
		return fbits((float)(int32_t)v * (1.0f / 65536.0f));
	if (as_int)
		return (uint32_t)v;
	if (!a->normalized)
		return fbits((float)v);
	if (sgn)
		return fbits(fmaxf((float)((double)v / (double)((1ll << (b - 1)) - 1)), -1.0f));
	return fbits((float)((double)v / (double)((1ll << b) - 1)));
}

/*
 * Every vertex type, size and conversion (normalized, integer) fetched
 * by a compiled vertex shader from an array whose elements sit at their
 * own alignment only (the stride not a multiple of 4, the first element
 * past a word boundary), an instanced array beside it with a divisor,
 * and a constant attribute (stride 0); every lane's outputs against the CPU's conversion, exactly
 * (within one ulp for the normalized types, whose division the compiler
 * does by a reciprocal).
 */
static void test_vertex_formats(void **state)
{
	static uint8_t a0[64 * 40 + 8], a1[16 * 16];
	unsigned cases = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(a0); i++)
		a0[i] = (uint8_t)(i * 37 + (i >> 3) * 11 + 5);
	for (unsigned i = 0; i < 16 * 4; i++) {
		float f = (float)i * 0.75f - 7.0f;

		memcpy(&a1[4 * i], &f, 4);
	}
	for (unsigned t = AGX_VERTEX_FLOAT; t <= AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV; t++) {
		bool packed = t >= AGX_VERTEX_INT_2_10_10_10_REV;
		bool can_int = t != AGX_VERTEX_FLOAT && t != AGX_VERTEX_HALF_FLOAT &&
			       t != AGX_VERTEX_FIXED && !packed;
		bool can_norm = t >= AGX_VERTEX_BYTE && t != AGX_VERTEX_FIXED;

		for (unsigned size = packed ? 4 : 1; size <= 4; size++) {
			for (unsigned conv = 0; conv < 3; conv++) {
				/* 0 as floats, 1 normalized, 2 integers */
				struct agx_vertex_attrib a = { .type = (enum agx_vertex_type)t,
							       .size = size,
							       .normalized = conv == 1,
							       .integer = conv == 2 };
				char src[512];
				const char *vt = conv == 2 ? "ivec4" : "vec4";
				struct agx_compile_options opts = { 0 };
				struct agx_shader_binary bin;
				struct gfx_memory mem = { .num = 2 };
				unsigned bytes = vertex_bytes(a.type);
				unsigned stride = packed ? 8 : size * bytes + bytes;
				uint64_t base = ATTR0_ADDR + (bytes < 4 ? bytes : 4);
				uint32_t u[32] = { 0 }, r5[32], r6[32], *out;
				struct usc_vertex_io vx;
				const struct agx_shader_var *va, *vb, *vk, *pos;

				if ((conv == 1 && !can_norm) || (conv == 2 && !can_int))
					continue;
				snprintf(src, sizeof(src),
					 "#version 300 es\n"
					 "layout(location = 1) in highp %s a;\n"
					 "layout(location = 3) in vec4 b;\n"
					 "layout(location = 5) in vec4 k;\n"
					 "flat out highp %s va;\n"
					 "flat out vec4 vb;\n"
					 "flat out vec4 vk;\n"
					 "void main() {\n"
					 "  gl_Position = vec4(0.0); va = a; vb = b; vk = k;\n"
					 "}\n",
					 vt, vt);
				opts.attribs[1] = a;
				opts.attribs[3] =
				    (struct agx_vertex_attrib){ .size = 4, .divisor = 3 };
				glsl(AGX_SHADER_VERTEX, src, &opts, &bin);
				pos = find_var(&bin, "a");
				va = find_var(&bin, "va");
				vb = find_var(&bin, "vb");
				vk = find_var(&bin, "vk");
				mem.buf[0] = (struct usc_run_buffer){ ATTR0_ADDR, a0, sizeof(a0) };
				mem.buf[1] = (struct usc_run_buffer){ ATTR1_ADDR, a1, sizeof(a1) };
				/* agx_render_set_attrib()'s registers, by docs/compiler.md */
				u[pos->uniform] = (uint32_t)(base & ~3ull);
				u[pos->uniform + 1] = (uint32_t)(base >> 32);
				u[pos->uniform + 2] = stride;
				u[pos->uniform + 3] = (uint32_t)(base & 3);
				u[find_var(&bin, "b")->uniform] = (uint32_t)ATTR1_ADDR;
				u[find_var(&bin, "b")->uniform + 1] = (uint32_t)(ATTR1_ADDR >> 32);
				u[find_var(&bin, "b")->uniform + 2] = 16;
				/* a constant attribute: stride 0, the value at element 5 of a1 */
				u[find_var(&bin, "k")->uniform] = (uint32_t)(ATTR1_ADDR + 80);
				u[find_var(&bin, "k")->uniform + 1] = (uint32_t)(ATTR1_ADDR >> 32);
				for (unsigned l = 0; l < 32; l++) {
					r5[l] = (l * 7) % 61;
					r6[l] = l / 2;
				}
				out = calloc(32 * bin.info.num_vertex_outputs, sizeof(uint32_t));
				assert_non_null(out);
				vx = (struct usc_vertex_io){ out, bin.info.num_vertex_outputs };
				run_stage(&bin, u, bin.info.num_uniforms, &mem, r5, r6, &vx, NULL);
				for (unsigned l = 0; l < 32; l++) {
					const uint32_t *o = out + l * bin.info.num_vertex_outputs;
					const uint8_t *el =
					    a0 + (base - ATTR0_ADDR) + r5[l] * stride;

					for (unsigned c = 0; c < 4; c++) {
						uint32_t want = vertex_model(&a, el, c),
							 got = o[va->slot + c], inst;
						float wf, gf;

						memcpy(&wf, &want, 4);
						memcpy(&gf, &got, 4);
						/* a NaN half becomes some NaN */
						if (got != want && !(isnan(wf) && isnan(gf)) &&
						    !(conv == 1 &&
						      fabsf(gf - wf) <= fabsf(wf) * 1.2e-7f))
							fail_msg(
							    "%s size %u conv %u lane %u comp %u: "
							    "0x%08x, not 0x%08x",
							    vertex_type_names[t], size, conv, l, c,
							    got, want);
						/* the instanced array: element instance / 3 */
						memcpy(&inst, &a1[(r6[l] / 3) * 16 + 4 * c], 4);
						assert_int_equal(o[vb->slot + c], inst);
						memcpy(&inst, &a1[80 + 4 * c], 4);
						assert_int_equal(o[vk->slot + c], inst);
					}
				}
				cases++;
				free(out);
				agx_shader_binary_finish(&bin);
			}
		}
	}
	print_message("# %u attribute formats fetched\n", cases);
}

/* gl_PointSize goes after the varyings (the PPP's convention, sim/vdm.c). */
static void test_vertex_point_size(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "out float v;\n"
				  "void main() {\n"
				  "  gl_Position = vec4(1.0, 2.0, 3.0, 4.0);\n"
				  "  v = 7.0;\n"
				  "  gl_PointSize = float(gl_VertexID) + 1.0;\n"
				  "}\n";
	struct agx_shader_binary bin;
	uint32_t r5[32], out[32 * 6];
	struct usc_vertex_io vx = { out, 6 };
	struct gfx_memory mem = { 0 };

	(void)state;
	glsl(AGX_SHADER_VERTEX, src, NULL, &bin);
	assert_int_equal(bin.info.num_vertex_outputs, 6);
	assert_int_equal(find_var(&bin, "gl_PointSize")->slot, 5);
	assert_int_equal(find_var(&bin, "v")->slot, 4);
	for (unsigned l = 0; l < 32; l++)
		r5[l] = l;
	memset(out, 0, sizeof(out));
	run_stage(&bin, NULL, 0, &mem, r5, NULL, &vx, NULL);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(out[l * 6 + 3], fbits(4.0f));
		assert_int_equal(out[l * 6 + 4], fbits(7.0f));
		assert_int_equal(out[l * 6 + 5], fbits((float)l + 1.0f));
	}
	agx_shader_binary_finish(&bin);
}

/* A tile of 8x4 pixels, lane l at (l % 8, l / 8), at (x0, y0) of the framebuffer. */
static struct usc_fragment_io tile_io(uint8_t *tile, unsigned sample_size, const float (*cf)[3],
				      unsigned num_cf, uint32_t x0, uint32_t y0)
{
	struct usc_fragment_io f = { .tile = tile,
				     .width = 8,
				     .height = 4,
				     .sample_size = sample_size,
				     .samples = 1,
				     .x0 = x0,
				     .y0 = y0,
				     .cf = cf,
				     .num_cf = num_cf };

	for (unsigned l = 0; l < 32; l++) {
		f.px[l] = (uint8_t)(l % 8);
		f.py[l] = (uint8_t)(l / 8);
		f.cover[l] = 1;				 /* every lane's one sample is live */
		f.centroid[l][0] = f.centroid[l][1] = 8; /* at the centre */
	}
	return f;
}

/* A plane at lane l (the sim's position: within the 32x32 block, at the centre). */
static double plane(const float *p, const struct usc_fragment_io *f, unsigned l)
{
	double x = (double)((f->x0 + f->px[l]) & 31) + 0.5,
	       y = (double)((f->y0 + f->py[l]) & 31) + 0.5;

	return (double)p[0] * x + (double)p[1] * y + p[2];
}

static uint8_t unorm8(double v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (uint8_t)floor(v * 255.0 + 0.5);
}

/* A colour from a perspective-correct varying into a u8norm RGBA tile (the default target). */
static void test_fragment_color(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "in vec4 v_color;\n"
				  "out vec4 color;\n"
				  "void main() { color = v_color * 0.5 + 0.25; }\n";
	static const float cf[5][3] = { { 0.01f, 0.005f, 0.5f },
					{ 0.02f, 0.0f, 0.1f },
					{ 0.0f, 0.03f, 0.2f },
					{ -0.01f, 0.01f, 0.4f },
					{ 0.005f, 0.005f, 0.3f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 4];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	glsl(AGX_SHADER_FRAGMENT, src, NULL, &bin);
	assert_int_equal(bin.info.stage, AGX_SHADER_FRAGMENT);
	assert_int_equal(find_var(&bin, "v_color")->cf, 1);
	assert_int_equal(bin.info.num_cf, 5);
	assert_int_equal(bin.info.frag_coord_z_cf, -1);
	assert_false(bin.info.discards);
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 4, cf, 5, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned c = 0; c < 4; c++) {
			double v = plane(cf[1 + c], &f, l) / plane(cf[0], &f, l);
			int want = unorm8((float)v * 0.5f + 0.25f);

			/* the product rounded in f32 may land the other side of a .5 */
			assert_in_range(tile[l * 4 + c], want > 0 ? want - 1 : 0, want + 1);
		}
	agx_shader_binary_finish(&bin);
}

/*
 * A blended target the shader never writes (a fragment shader with no
 * colour output, with blending on, as GL lets a draw have): blending has
 * nothing to lower, and the tile is left as it was.  (agx_lower_blend
 * once made its cursor before the target's missing last store.)
 */
static void test_blend_unwritten(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "void main() {}\n";
	struct agx_compile_options o = { .num_rts = 1 };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 4];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };
	static const float cf[1][3] = { { 0.0f, 0.0f, 1.0f } };

	(void)state;
	o.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
	o.rt[0].blend = (struct agx_blend_rt){ .enable = true,
					       .rgb_src = AGX_BLEND_SRC1_COLOR,
					       .rgb_dst = AGX_BLEND_ONE,
					       .alpha_src = AGX_BLEND_ONE,
					       .alpha_dst = AGX_BLEND_ZERO };
	glsl(AGX_SHADER_FRAGMENT, src, &o, &bin);
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 4, cf, 1, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned i = 0; i < sizeof(tile); i++)
		assert_int_equal(tile[i], 0x55);
	agx_shader_binary_finish(&bin);
}

/*
 * Smooth, centroid and flat (a float and an int) into an i32 target at byte
 * 16 of a 32-byte sample: each word bit for bit.  (GLSL ES has no
 * noperspective: test_noperspective builds it as IR.)
 */
static void test_fragment_interpolation(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "in float s;\n"
				  "centroid in float n;\n"
				  "flat in float f;\n"
				  "flat in highp int i;\n"
				  "layout(location = 0) out highp uvec4 o;\n"
				  "void main() {\n"
				  "  o = uvec4(floatBitsToUint(s), floatBitsToUint(n),\n"
				  "            floatBitsToUint(f), uint(i));\n"
				  "}\n";
	struct agx_compile_options opts = { .num_rts = 1 };
	float cf[5][3] = { { 0.01f, 0.02f, 0.25f },
			   { 0.5f, -0.25f, 3.0f },
			   { 0.125f, 0.375f, -1.0f },
			   { 0.0f, 0.0f, 0.0f },
			   { 0.0f, 0.0f, 0.0f } };
	int32_t ival = -123456;
	float fval = -0.0f;
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 32];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	memcpy(&cf[3][2], &fval, 4);
	memcpy(&cf[4][2], &ival, 4);
	opts.rt[0].format = AGX_ISA_MEMFORMAT_I32;
	opts.rt[0].offset = 16;
	/* at 5 registers ldcf's three-register results spill */
	for (unsigned budget = 0; budget < 2; budget++) {
		opts.max_registers = budget ? 5 : 0;
		glsl(AGX_SHADER_FRAGMENT, src, &opts, &bin);
		if (budget)
			assert_int_not_equal(bin.info.scratch_size, 0);
		assert_int_equal(find_var(&bin, "s")->cf, 1);
		assert_int_equal(find_var(&bin, "n")->cf, 2);
		assert_int_equal(find_var(&bin, "f")->cf, 3);
		assert_int_equal(find_var(&bin, "i")->cf, 4);
		assert_int_equal(find_var(&bin, "f")->interp, AGX_SHADER_FLAT);
		assert_int_equal(bin.info.num_cf, 5);
		memset(tile, 0x55, sizeof(tile));
		f = tile_io(tile, 32, (const float(*)[3])cf, 5, 40, 8);
		run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
		for (unsigned l = 0; l < 32; l++) {
			uint32_t w[8];

			memcpy(w, tile + l * 32, 32);
			for (unsigned k = 0; k < 4; k++)
				assert_int_equal(w[k], 0x55555555u);
			assert_int_equal(w[4],
					 fbits((float)(plane(cf[1], &f, l) / plane(cf[0], &f, l))));
			assert_int_equal(w[5],
					 fbits((float)(plane(cf[2], &f, l) / plane(cf[0], &f, l))));
			assert_int_equal(w[6], 0x80000000u);
			assert_int_equal(w[7], (uint32_t)ival);
		}
		agx_shader_binary_finish(&bin);
	}
}

/*
 * Struct varyings: a vertex shader's flat struct output is a var per
 * member ("s.buffer", the member's own name though the lowering renames
 * it), each member's words in output slots of their own after the one
 * before, run for 32 vertices; the fragment shader's struct input the
 * same in coefficient registers, the flat members from C of their planes
 * and a smooth vec2 after them divided by 1/w.
 */
static void test_struct_varyings(void **state)
{
	static const char vs[] = "#version 300 es\n"
				 "struct S { float buffer; mat2 m; ivec2 i; };\n"
				 "flat out S s;\n"
				 "out vec2 after;\n"
				 "void main() {\n"
				 "  float v = float(gl_VertexID);\n"
				 "  gl_Position = vec4(v, 0.0, 0.0, 1.0);\n"
				 "  s.buffer = v * 2.0;\n"
				 "  s.m = mat2(v, 1.0, 2.0, v + 3.0);\n"
				 "  s.i = ivec2(gl_VertexID, -7);\n"
				 "  after = vec2(v, 0.5);\n"
				 "}\n";
	static const char fs[] =
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "struct S { float buffer; mat2 m; ivec2 i; };\n"
	    "flat in S s;\n"
	    "in vec2 after;\n"
	    "layout(location = 0) out highp uvec4 o;\n"
	    "void main() {\n"
	    "  o = uvec4(floatBitsToUint(s.buffer), floatBitsToUint(s.m[1].y),\n"
	    "            uint(s.i.y), floatBitsToUint(after.y));\n"
	    "}\n";
	static const char *const names[] = { "s.buffer", "s.m", "s.i", "after" };
	static const unsigned words[] = { 1, 4, 2, 2 };
	struct agx_compile_options opts = { .num_rts = 1 };
	struct agx_shader_binary bin;
	uint32_t r5[32], r6[32] = { 0 }, *out;
	struct gfx_memory mem = { 0 };
	struct usc_vertex_io vx;
	struct usc_fragment_io f;
	float cf[10][3] = { { 0.01f, 0.02f, 0.25f } };
	uint8_t tile[8 * 4 * 32];
	int32_t seven = -7;
	unsigned at;

	(void)state;
	glsl(AGX_SHADER_VERTEX, vs, NULL, &bin);
	at = 4;
	for (unsigned k = 0; k < 4; k++) {
		const struct agx_shader_var *v = find_var(&bin, names[k]);

		assert_int_equal(v->slot, at);
		assert_int_equal(v->components, words[k]);
		assert_int_equal(v->interp, k < 3 ? AGX_SHADER_FLAT : AGX_SHADER_SMOOTH);
		at += words[k];
	}
	assert_int_equal(find_var(&bin, "s.m")->locations, 2);
	assert_int_equal(bin.info.num_vertex_outputs, 13);
	for (unsigned l = 0; l < 32; l++)
		r5[l] = 3 * l;
	out = calloc(32 * 13, sizeof(uint32_t));
	assert_non_null(out);
	vx = (struct usc_vertex_io){ out, 13 };
	run_stage(&bin, NULL, 0, &mem, r5, r6, &vx, NULL);
	for (unsigned l = 0; l < 32; l++) {
		const uint32_t *o = out + l * 13;
		float v = (float)r5[l];

		assert_int_equal(o[4], fbits(v * 2.0f));
		assert_int_equal(o[5], fbits(v));
		assert_int_equal(o[6], fbits(1.0f));
		assert_int_equal(o[7], fbits(2.0f));
		assert_int_equal(o[8], fbits(v + 3.0f));
		assert_int_equal(o[9], r5[l]);
		assert_int_equal(o[10], (uint32_t)-7);
		assert_int_equal(o[11], fbits(v));
		assert_int_equal(o[12], fbits(0.5f));
	}
	free(out);
	agx_shader_binary_finish(&bin);

	opts.rt[0].format = AGX_ISA_MEMFORMAT_I32;
	glsl(AGX_SHADER_FRAGMENT, fs, &opts, &bin);
	at = 1;
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(find_var(&bin, names[k])->cf, at);
		at += words[k];
	}
	assert_int_equal(bin.info.num_cf, 10);
	for (unsigned k = 1; k < 10; k++)
		cf[k][2] = 0.125f * (float)k; /* flat: C only */
	memcpy(&cf[7][2], &seven, 4);	      /* s.i.y */
	cf[9][0] = 0.25f;		      /* after.y, smooth */
	cf[9][1] = -0.5f;
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 16, (const float(*)[3])cf, 10, 8, 4);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t w[4];

		memcpy(w, tile + l * 16, 16);
		assert_int_equal(w[0], fbits(cf[1][2]));
		assert_int_equal(w[1], fbits(cf[5][2]));
		assert_int_equal(w[2], (uint32_t)seven);
		assert_int_equal(w[3], fbits((float)(plane(cf[9], &f, l) / plane(cf[0], &f, l))));
	}
	agx_shader_binary_finish(&bin);
}

/*
 * noperspective (GLSL ES has none; the translator marks SPIR-V's
 * NoPerspective so), built as IR and compiled with the lowering: iter
 * without the 1/w division, two components of a vec2 at cf1 and cf2.
 */
static void test_noperspective(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&func, &b);
	struct agx_ir_var in = { .kind = AGX_IR_VAR_INPUT,
				 .name = "n",
				 .glsl_type = "vec2",
				 .type = F32,
				 .components = 2,
				 .location = 3,
				 .interp = AGX_IR_INTERP_NOPERSPECTIVE,
				 .uniform = -1 };
	struct agx_ir_var out = { .kind = AGX_IR_VAR_OUTPUT,
				  .name = "o",
				  .glsl_type = "vec4",
				  .type = F32,
				  .components = 4,
				  .location = 0,
				  .uniform = -1 };
	struct agx_compile_options opts = { .num_rts = 1 };
	static const float cf[3][3] = { { 0.01f, 0.0f, 0.5f },
					{ 0.25f, 0.5f, 1.0f },
					{ -0.125f, 0.0f, 2.0f } };
	struct agx_shader_binary bin = { 0 };
	uint8_t tile[8 * 4 * 8];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };
	char *log = NULL;
	int ret;

	(void)state;
	s->stage = AGX_IR_STAGE_FRAGMENT;
	s->num_workgroups_uniform = s->uniform_block_uniform = -1;
	agx_ir_shader_add_var(s, &in);
	agx_ir_shader_add_var(s, &out);
	agx_store_output(&b, agx_load_input(&b, F32, 3, 1), 0, 0);
	agx_store_output(&b, agx_load_input(&b, F32, 3, 0), 0, 1);
	opts.rt[0].format = AGX_ISA_MEMFORMAT_I32;
	ret = agx_backend_compile(s, &opts, &bin, &log);
	if (ret)
		fail_msg("agx_backend_compile: %d: %s", ret, log);
	assert_int_equal(bin.info.vars[0].cf, 1);
	assert_int_equal(bin.info.vars[0].interp, AGX_SHADER_NOPERSPECTIVE);
	assert_int_equal(bin.info.num_cf, 3);
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 8, cf, 3, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t w[2];

		memcpy(w, tile + l * 8, 8);
		assert_int_equal(w[0], fbits((float)plane(cf[2], &f, l)));
		assert_int_equal(w[1], fbits((float)plane(cf[1], &f, l)));
	}
	agx_shader_binary_finish(&bin);
	free(log);
	agx_ir_shader_destroy(s);
}

/* gl_FragCoord (x, y at the pixel centre in the framebuffer, z, w) and gl_FrontFacing. */
static void test_frag_coord_facing(void **state)
{
	static const char src[] =
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "in float v;\n"
	    "layout(location = 0) out highp uvec4 o;\n"
	    "layout(location = 1) out highp uvec4 p;\n"
	    "void main() {\n"
	    "  o = uvec4(floatBitsToUint(gl_FragCoord.x), floatBitsToUint(gl_FragCoord.y),\n"
	    "            floatBitsToUint(gl_FragCoord.z), floatBitsToUint(gl_FragCoord.w));\n"
	    "  p = uvec4(gl_FrontFacing ? 1u : 0u, floatBitsToUint(v), 0u, 0u);\n"
	    "}\n";
	struct agx_compile_options opts = { .num_rts = 2 };
	static const float cf[3][3] = { { 0.0f, 0.0f, 0.5f },
					{ 0.001f, 0.002f, 0.25f },
					{ 1.0f, 2.0f, 3.0f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 32];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	opts.rt[0].format = opts.rt[1].format = AGX_ISA_MEMFORMAT_I32;
	opts.rt[1].offset = 16;
	glsl(AGX_SHADER_FRAGMENT, src, &opts, &bin);
	assert_int_equal(bin.info.frag_coord_z_cf, 1);
	assert_int_equal(find_var(&bin, "v")->cf, 2);
	assert_int_equal(bin.info.num_cf, 3);
	for (unsigned back = 0; back < 2; back++) {
		memset(tile, 0, sizeof(tile));
		f = tile_io(tile, 32, cf, 3, 64, 36);
		f.backfacing = back;
		run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
		for (unsigned l = 0; l < 32; l++) {
			uint32_t w[8];

			memcpy(w, tile + l * 32, 32);
			assert_int_equal(w[0], fbits(64.5f + (float)(l % 8)));
			assert_int_equal(w[1], fbits(36.5f + (float)(l / 8)));
			assert_int_equal(w[2], fbits((float)plane(cf[1], &f, l)));
			assert_int_equal(w[3], fbits(0.5f));
			assert_int_equal(w[4], !back);
			assert_int_equal(w[5], fbits((float)(plane(cf[2], &f, l) / 0.5)));
		}
	}
	agx_shader_binary_finish(&bin);
}

/* gl_PointCoord: the two coefficient registers after the varyings, read across the screen. */
static void test_point_coord(void **state)
{
	static const char src[] =
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "in float v;\n"
	    "out highp uvec4 o;\n"
	    "void main() {\n"
	    "  o = uvec4(floatBitsToUint(gl_PointCoord.x),\n"
	    "            floatBitsToUint(gl_PointCoord.y), floatBitsToUint(v), 0u);\n"
	    "}\n";
	struct agx_compile_options opts = { .num_rts = 1 };
	static const float cf[4][3] = { { 0.0f, 0.01f, 0.5f },
					{ 1.0f, 1.0f, 1.0f },
					{ 0.0625f, 0.0f, -0.25f },
					{ 0.0f, 0.125f, 0.75f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 16];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	opts.rt[0].format = AGX_ISA_MEMFORMAT_I32;
	glsl(AGX_SHADER_FRAGMENT, src, &opts, &bin);
	assert_int_equal(find_var(&bin, "v")->cf, 1);
	assert_int_equal(find_var(&bin, "gl_PointCoord")->cf, 2);
	assert_int_equal(bin.info.num_cf, 4);
	f = tile_io(tile, 16, cf, 4, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t w[3];

		memcpy(w, tile + l * 16, 12);
		assert_int_equal(w[0], fbits((float)plane(cf[2], &f, l)));
		assert_int_equal(w[1], fbits((float)plane(cf[3], &f, l)));
		assert_int_equal(w[2], fbits((float)(plane(cf[1], &f, l) / plane(cf[0], &f, l))));
	}
	agx_shader_binary_finish(&bin);
}

/*
 * Packed targets: rgb10a2 at byte 4 and rg11b10f at byte 8 of a 12-byte
 * sample, one st_tile of the whole pixel each; byte 0..3 untouched.
 */
static void test_packed_targets(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "layout(location = 0) out vec4 a;\n"
				  "layout(location = 1) out vec4 b;\n"
				  "void main() {\n"
				  "  a = vec4(1.0, 0.0, 0.25, 1.0);\n"
				  "  b = vec4(gl_FragCoord.x, 2.0, 0.5, 0.0);\n"
				  "}\n";
	struct agx_compile_options opts = { .num_rts = 2 };
	static const float cf[1][3] = { { 0.0f, 0.0f, 1.0f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 12];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	opts.rt[0].format = AGX_ISA_MEMFORMAT_RGB10A2;
	opts.rt[0].offset = 4;
	opts.rt[1].format = AGX_ISA_MEMFORMAT_RG11B10F;
	opts.rt[1].offset = 8;
	glsl(AGX_SHADER_FRAGMENT, src, &opts, &bin);
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 12, cf, 1, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		uint32_t w[3];
		int e;
		/* an 11-bit float: 5 exponent bits (bias 15), 6 of mantissa; exact here */
		float m = frexpf((float)(l % 8) + 0.5f, &e);
		uint32_t r = (uint32_t)(e - 1 + 15) << 6 | (uint32_t)((m * 2.0f - 1.0f) * 64.0f);

		memcpy(w, tile + l * 12, 12);
		assert_int_equal(w[0], 0x55555555u);
		assert_int_equal(w[1], 1023u | 0u << 10 | 256u << 20 | 3u << 30);
		assert_int_equal(w[2] & 0x7ff, r);
		assert_int_equal((w[2] >> 11) & 0x7ff, 16u << 6); /* 2.0 */
		assert_int_equal(w[2] >> 22, 14u << 5);		  /* 0.5 */
	}
	agx_shader_binary_finish(&bin);
}

/* discard on the odd columns: their pixels keep what the tile held. */
static void test_discard(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "out vec4 color;\n"
				  "void main() {\n"
				  "  if (int(gl_FragCoord.x) % 2 == 1) discard;\n"
				  "  color = vec4(1.0, 0.0, 0.5, 1.0);\n"
				  "}\n";
	static const float cf[1][3] = { { 0.0f, 0.0f, 1.0f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 4];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	glsl(AGX_SHADER_FRAGMENT, src, NULL, &bin);
	assert_true(bin.info.discards);
	memset(tile, 0x55, sizeof(tile));
	f = tile_io(tile, 4, cf, 1, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		static const uint8_t kept[4] = { 0x55, 0x55, 0x55, 0x55 },
				     drawn[4] = { 255, 0, 128, 255 };

		assert_memory_equal(tile + l * 4, l % 2 ? kept : drawn, 4);
		assert_int_equal((f.killed >> l) & 1, l % 2);
	}
	agx_shader_binary_finish(&bin);
}

static float seen_depth[32];

static uint32_t record_depth(struct usc_fragment_io *io, uint32_t lanes, const float *depth,
			     const uint32_t *stencil)
{
	(void)io;
	(void)stencil;
	for (unsigned l = 0; l < 32; l++)
		if ((lanes >> l) & 1)
			seen_depth[l] = depth ? depth[l] : -1.0f;
	return lanes;
}

/* gl_FragDepth goes to the depth test through zs_emit. */
static void test_frag_depth(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "out vec4 color;\n"
				  "void main() {\n"
				  "  gl_FragDepth = gl_FragCoord.x / 16.0;\n"
				  "  color = vec4(0.0);\n"
				  "}\n";
	static const float cf[1][3] = { { 0.0f, 0.0f, 1.0f } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 4];
	struct usc_fragment_io f;
	struct gfx_memory mem = { 0 };

	(void)state;
	glsl(AGX_SHADER_FRAGMENT, src, NULL, &bin);
	assert_true(bin.info.writes_depth);
	f = tile_io(tile, 4, cf, 1, 0, 0);
	f.zs_test = record_depth;
	for (unsigned l = 0; l < 32; l++)
		seen_depth[l] = -2.0f;
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++)
		assert_float_equal(seen_depth[l], ((float)(l % 8) + 0.5f) / 16.0f, 1e-7);
	agx_shader_binary_finish(&bin);
}

/*
 * The instructions of the disassembly that use or fence the pixel's
 * tilebuffer and depth/stencil test, in order: the mnemonic, and a fence's
 * mask ("wait_pix 8").
 */
static void pixel_order_of(const struct agx_shader_binary *bin, char *out, size_t size)
{
	static const char *const ops[] = { "wait_pix", "signal_pix",  "ld_tile",
					   "st_tile",  "sample_mask", "zs_emit" };
	char *text = disasm(bin), *line = text, *next;
	size_t len = 0;

	out[0] = '\0';
	for (; *line; line = next + 1) {
		next = strchr(line, '\n');
		*next = '\0';
		for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			size_t n = strlen(ops[i]);

			if (strncmp(line, ops[i], n) || line[n] != ' ')
				continue;
			if (i < 2)
				n = strcspn(line, ",");
			len += (size_t)snprintf(out + len, size - len, "%s%.*s", len ? "; " : "",
						(int)n, line);
		}
	}
	free(text);
}

/*
 * Compiled shaders fence their pixel (agx_lower_pixel_order): a blended
 * colour waits on 0x8 before its loads and on 0x4 more before its stores;
 * gl_FragDepth waits on 0x1, releases it after its test, then waits on
 * 0xc for the colour; a discard only kills, and the test before the
 * colour waits.  Run, a blend with its fences reads and writes the tile.
 */
static void test_pixel_fences(void **state)
{
	static const char blend_src[] = "#version 300 es\n"
					"precision highp float;\n"
					"out vec4 color;\n"
					"void main() { color = vec4(0.25); }\n";
	static const char depth_src[] = "#version 300 es\n"
					"precision highp float;\n"
					"out vec4 color;\n"
					"void main() {\n"
					"  gl_FragDepth = 0.25;\n"
					"  color = vec4(1.0);\n"
					"}\n";
	static const char discard_src[] = "#version 300 es\n"
					  "precision highp float;\n"
					  "out vec4 color;\n"
					  "void main() {\n"
					  "  if (gl_FragCoord.x < 4.0) discard;\n"
					  "  color = vec4(1.0);\n"
					  "}\n";
	static const float cf[1][3] = { { 0.0f, 0.0f, 1.0f } };
	struct agx_compile_options o = { .num_rts = 1 };
	struct agx_shader_binary bin;
	struct gfx_memory mem = { 0 };
	uint8_t tile[8 * 4 * 4];
	struct usc_fragment_io f;
	char seq[512];

	(void)state;
	o.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
	o.rt[0].blend = (struct agx_blend_rt){ .enable = true,
					       .rgb_src = AGX_BLEND_ONE,
					       .rgb_dst = AGX_BLEND_ONE,
					       .alpha_src = AGX_BLEND_ONE,
					       .alpha_dst = AGX_BLEND_ZERO };
	glsl(AGX_SHADER_FRAGMENT, blend_src, &o, &bin);
	pixel_order_of(&bin, seq, sizeof(seq));
	assert_string_equal(seq,
			    "wait_pix 8; ld_tile; ld_tile; ld_tile; ld_tile; wait_pix 4; st_tile; "
			    "st_tile; st_tile; st_tile");
	memset(tile, 0x20, sizeof(tile));
	f = tile_io(tile, 4, cf, 1, 0, 0);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	/* 0x20 + 0.25 (63.75) in red, green and blue; alpha the source's */
	for (unsigned i = 0; i < sizeof(tile); i++)
		assert_int_equal(tile[i], i % 4 == 3 ? 0x40 : 0x60);
	agx_shader_binary_finish(&bin);

	glsl(AGX_SHADER_FRAGMENT, depth_src, NULL, &bin);
	pixel_order_of(&bin, seq, sizeof(seq));
	assert_string_equal(seq, "wait_pix 1; zs_emit; signal_pix 1; wait_pix 12; st_tile; "
				 "st_tile; st_tile; st_tile");
	agx_shader_binary_finish(&bin);

	glsl(AGX_SHADER_FRAGMENT, discard_src, NULL, &bin);
	pixel_order_of(&bin, seq, sizeof(seq));
	assert_string_equal(seq, "sample_mask; wait_pix 1; sample_mask; signal_pix 1; wait_pix 12; "
				 "st_tile; st_tile; st_tile; st_tile");
	agx_shader_binary_finish(&bin);
}

/*
 * Arrays of blocks and .length(): each element its own binding, pair and
 * buffer; the sizes the driver binds in the registers the reflection
 * names, and .length() what of each range is past the array's offset,
 * 0 for a range shorter than that.
 */
static void test_block_arrays_length(void **state)
{
	static const char src[] =
	    "#version 310 es\n"
	    "layout(local_size_x = 8) in;\n"
	    "layout(std140, binding = 1) uniform P { vec4 s; float b; } p[3];\n"
	    "layout(std430, binding = 4) buffer O { uint n; float o[]; } outs[2];\n"
	    "layout(std430, binding = 7) buffer I { vec4 head; vec2 v[]; } inb;\n"
	    "void main() {\n"
	    "  uint i = gl_GlobalInvocationID.x;\n"
	    "  outs[1].o[i] = p[2].s.y * float(i) + p[0].b;\n"
	    "  if (i == 0u) {\n"
	    "    outs[0].n = uint(inb.v.length());\n"
	    "    outs[1].n = uint(outs[0].o.length()) * 100u + uint(p[1].b);\n"
	    "  }\n"
	    "}\n";
	/* each uniform block element: s at 0, b at 16 (std140) */
	static float ubo[3][8] = { { 0, 0, 0, 0, 0.5f }, { 0, 0, 0, 0, 7.0f }, { 0, 3.0f } };
	uint32_t out0[8] = { 0 }, out1[1 + 8] = { 0 };
	float in[4 + 2 * 5] = { 0 };
	/* the sizes the driver binds: out0's range leaves room for 5 floats, inb's 3 vec2s */
	const uint32_t sizes[3] = { 4 + 4 * 5, sizeof(out1), 16 + 8 * 3 };
	struct agx_shader_binary bin;
	struct grid g = { .groups = { 1, 1, 1 }, .local = { 8, 1, 1 } };
	const struct agx_shader_var *pv, *ov, *inv;
	int in_size;
	void *data[6] = { ubo[0], ubo[1], ubo[2], out0, out1, in };
	size_t size[6] = { sizeof(ubo[0]), sizeof(ubo[1]), sizeof(ubo[2]),
			   sizeof(out0),   sizeof(out1),   sizeof(in) };

	(void)state;
	glsl(AGX_SHADER_COMPUTE, src, NULL, &bin);
	pv = find_var(&bin, "p");
	ov = find_var(&bin, "outs");
	inv = find_var(&bin, "inb");
	assert_int_equal(pv->array_size, 3);
	assert_int_equal(ov->array_size, 2);
	assert_int_equal(pv->size_uniform, -1);
	assert_true(ov->size_uniform >= 0 && inv->size_uniform >= 0);
	assert_true(bin.info.num_uniforms <= 16);
	/* buffer k at address 0x1000000 * (k + 1), each element's pair from the var's */
	for (unsigned k = 0; k < 6; k++) {
		uint64_t addr = 0x1000000ull * (k + 1);
		unsigned reg = k < 3   ? (unsigned)pv->uniform + 2 * k
			       : k < 5 ? (unsigned)ov->uniform + 2 * (k - 3)
				       : (unsigned)inv->uniform;

		g.buffers[k] = (struct usc_run_buffer){ addr, data[k], size[k] };
		g.uniforms[reg] = (uint32_t)addr;
		g.uniforms[reg + 1] = (uint32_t)(addr >> 32);
	}
	g.num_buffers = 6;
	g.uniforms[ov->size_uniform] = sizes[0];
	g.uniforms[ov->size_uniform + 1] = sizes[1];
	g.uniforms[inv->size_uniform] = sizes[2];
	g.num_uniforms = bin.info.num_uniforms;
	in_size = inv->size_uniform;
	run(&bin, &g);
	for (unsigned i = 0; i < 8; i++) {
		float f;

		memcpy(&f, &out1[1 + i], 4);
		assert_true(f == 3.0f * (float)i + 0.5f);
	}
	assert_int_equal(out0[0], 3);		/* (40 - 16) / 8 */
	assert_int_equal(out1[0], 5 * 100 + 7); /* (24 - 4) / 4, and p[1].b */
	agx_shader_binary_finish(&bin);

	/* a range shorter than the array's offset: no elements */
	memset(out0, 0, sizeof(out0));
	g.uniforms[in_size] = 8;
	glsl(AGX_SHADER_COMPUTE, src, NULL, &bin);
	run(&bin, &g);
	assert_int_equal(out0[0], 0);
	agx_shader_binary_finish(&bin);
}

/*
 * Default-block booleans (which the SPIR-V validator refuses and GL
 * allows): 32-bit words in their registers, any non-zero word true.
 */
static void test_bool_uniforms(void **state)
{
	static const char src[] = "#version 310 es\n"
				  "layout(local_size_x = 1) in;\n"
				  "layout(std430, binding = 0) buffer O { uint o[4]; };\n"
				  "uniform bool b;\n"
				  "uniform bvec3 v;\n"
				  "uniform bool a[2];\n"
				  "void main() {\n"
				  "  o[0] = b ? 1u : 0u;\n"
				  "  o[1] = uint(v.x) + 2u * uint(v.y) + 4u * uint(v.z);\n"
				  "  o[2] = any(v) && !a[0] ? 1u : 0u;\n"
				  "  o[3] = a[1] ? 5u : 6u;\n"
				  "}\n";
	static const struct {
		uint32_t b, v[3], a[2], want[4];
	} cases[] = {
		{ 0, { 0, 0, 0 }, { 0, 0 }, { 0, 0, 0, 6 } },
		{ 7, { 1, 0, 0x80000000u }, { 0, 3 }, { 1, 5, 1, 5 } },
		{ 1, { 0, 9, 0 }, { 1, 0 }, { 1, 2, 0, 6 } },
	};
	struct agx_shader_binary bin;
	const struct agx_shader_var *ob, *bvar, *vv, *av;

	(void)state;
	glsl(AGX_SHADER_COMPUTE, src, NULL, &bin);
	ob = find_var(&bin, "O");
	bvar = find_var(&bin, "b");
	vv = find_var(&bin, "v");
	av = find_var(&bin, "a");
	assert_string_equal(bvar->glsl_type, "bool");
	assert_string_equal(vv->glsl_type, "bvec3");
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t out[4] = { 0 };
		struct grid g = { .groups = { 1, 1, 1 }, .local = { 1, 1, 1 } };

		g.buffers[0] = (struct usc_run_buffer){ OUT_ADDR, out, sizeof(out) };
		g.num_buffers = 1;
		g.uniforms[ob->uniform] = (uint32_t)OUT_ADDR;
		g.uniforms[ob->uniform + 1] = (uint32_t)(OUT_ADDR >> 32);
		g.uniforms[bvar->uniform] = cases[k].b;
		for (unsigned c = 0; c < 3; c++)
			g.uniforms[vv->uniform + c] = cases[k].v[c];
		/* std140: an array of scalars strides 16 bytes, four registers */
		g.uniforms[av->uniform] = cases[k].a[0];
		g.uniforms[av->uniform + 4] = cases[k].a[1];
		g.num_uniforms = bin.info.num_uniforms;
		assert_true(g.num_uniforms <= 32);
		run(&bin, &g);
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(out[i], cases[k].want[i]);
	}
	agx_shader_binary_finish(&bin);
}

/* The fragment quads of the simulated renderer (sim/render.c): lane bit 0 is x, bit 1 y. */
static void quad_pixels(struct usc_fragment_io *f)
{
	for (unsigned l = 0; l < 32; l++) {
		unsigned q = l >> 2;

		f->px[l] = (uint8_t)((q & 3) * 2 + (l & 1));
		f->py[l] = (uint8_t)((q >> 2) * 2 + ((l >> 1) & 1));
	}
}

/*
 * texture() in a fragment shader, its LOD from the quad: an 8x4 RGBA8
 * texture over the 8x4 pixels, one texel a pixel (LOD 0), nearest; and a
 * texelFetch of the mirror texel.  Each pixel gets its texels exactly.
 */
static void test_fragment_texture(void **state)
{
	static const char src[] = "#version 300 es\n"
				  "precision highp float;\n"
				  "uniform sampler2D a;\n"
				  "uniform sampler2D t;\n"
				  "in vec2 uv;\n"
				  "layout(location = 0) out vec4 c;\n"
				  "layout(location = 1) out vec4 d;\n"
				  "void main() {\n"
				  "  c = texture(t, uv);\n"
				  "  d = texelFetch(t, ivec2(7, 3) - ivec2(gl_FragCoord.xy), 0) +\n"
				  "      texture(a, uv) * 0.0;\n"
				  "}\n";
	/* w = 1; uv: the pixel's centre over the texture */
	static const float cf[3][3] = { { 0, 0, 1 }, { 1.0f / 8, 0, 0 }, { 0, 1.0f / 4, 0 } };
	struct agx_compile_options opts = { .num_rts = 2 };
	struct agx_cmd_texture tex = { .dimension = AGX_CMD_TEXTURE_DIM_TEX_2D,
				       .layout = AGX_CMD_LAYOUT_LINEAR,
				       .channels = AGX_CMD_CHANNELS_R8G8B8A8,
				       .type = AGX_CMD_TEXTURE_TYPE_UNORM,
				       .swizzle_r = AGX_CMD_CHANNEL_R,
				       .swizzle_g = AGX_CMD_CHANNEL_G,
				       .swizzle_b = AGX_CMD_CHANNEL_B,
				       .swizzle_a = AGX_CMD_CHANNEL_A,
				       .width = 8,
				       .height = 4,
				       .address = 0x40000000ull,
				       .stride = 32 };
	struct agx_cmd_sampler nearest = { AGX_CMD_SAMPLER_DEFAULTS,
					   .border = AGX_CMD_BORDER_OPAQUE_WHITE };
	uint8_t texels[4][8][4], states[2][24] = { { 0 } }, samplers[2][24] = { { 0 } };
	uint8_t tile[8 * 4 * 8];
	struct gfx_memory mem = { .buf = { { 0x40000000ull, texels, sizeof(texels) } }, .num = 1 };
	struct agx_shader_binary bin;
	struct usc_fragment_io f;

	(void)state;
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 8; x++)
			for (unsigned c = 0; c < 4; c++)
				texels[y][x][c] = (uint8_t)(y * 64 + x * 8 + c * 2 + 1);
	opts.rt[0].format = opts.rt[1].format = AGX_ISA_MEMFORMAT_U8NORM;
	opts.rt[1].offset = 4;
	glsl(AGX_SHADER_FRAGMENT, src, &opts, &bin);
	/* two samplers, a unit each (the order is the module's); a samples the same texture */
	assert_int_equal(find_var(&bin, "a")->slot + find_var(&bin, "t")->slot, 1);
	assert_int_equal(bin.info.num_textures, 2);
	for (unsigned u = 0; u < 2; u++) {
		agx_cmd_texture_pack(states[u], &tex);
		agx_cmd_sampler_pack(samplers[u], &nearest);
	}
	gfx_textures = states[0];
	gfx_samplers = samplers[0];
	gfx_num_textures = 2;
	memset(tile, 0, sizeof(tile));
	f = tile_io(tile, 8, cf, 3, 0, 0);
	quad_pixels(&f);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	gfx_num_textures = 0;
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 8; x++)
			for (unsigned c = 0; c < 4; c++) {
				assert_int_equal(tile[(y * 8 + x) * 8 + c], texels[y][x][c]);
				assert_int_equal(tile[(y * 8 + x) * 8 + 4 + c],
						 texels[3 - y][7 - x][c]);
			}
	agx_shader_binary_finish(&bin);
}

/*
 * dFdx, dFdy and fwidth across the quad: of q = 8 uv.x^2, which changes
 * from quad to quad, and of uv.y.
 */
static void test_derivatives(void **state)
{
	static const char src[] =
	    "#version 300 es\n"
	    "precision highp float;\n"
	    "in vec2 uv;\n"
	    "out vec4 c;\n"
	    "void main() {\n"
	    "  float q = 8.0 * uv.x * uv.x;\n"
	    "  c = vec4(dFdx(q) / 8.0, dFdy(uv.y) * 2.0, fwidth(uv.y + q) / 8.0,\n"
	    "           dFdy(q) + 0.5);\n"
	    "}\n";
	static const float cf[3][3] = { { 0, 0, 1 }, { 1.0f / 8, 0, 0 }, { 0, 1.0f / 4, 0 } };
	struct agx_shader_binary bin;
	uint8_t tile[8 * 4 * 4];
	struct gfx_memory mem = { 0 };
	struct usc_fragment_io f;

	(void)state;
	glsl(AGX_SHADER_FRAGMENT, src, NULL, &bin);
	memset(tile, 0, sizeof(tile));
	f = tile_io(tile, 4, cf, 3, 0, 0);
	quad_pixels(&f);
	run_stage(&bin, NULL, 0, &mem, NULL, NULL, NULL, &f);
	for (unsigned l = 0; l < 32; l++) {
		/* the quad's left column and its right one */
		double x0 = ((f.px[l] & ~1u) + 0.5) / 8, x1 = x0 + 1.0 / 8;
		double dq = 8 * (x1 * x1 - x0 * x0);
		int want[4] = { unorm8(dq / 8), unorm8(0.25 * 2), unorm8((dq + 0.25) / 8),
				unorm8(0.5) };

		/* the tile is by pixel, not by lane */
		const uint8_t *px = &tile[(f.py[l] * 8 + f.px[l]) * 4];

		for (unsigned c = 0; c < 4; c++)
			assert_in_range(px[c], want[c] > 0 ? want[c] - 1 : 0, want[c] + 1);
	}
	agx_shader_binary_finish(&bin);
}

/*
 * How long a typical 100-instruction shader takes to compile (reported,
 * not asserted: timings vary by machine).
 */
static void test_compile_time(void **state)
{
	struct timespec t0, t1;
	unsigned instrs = 0, rounds = getenv("AGX_BENCH_ROUNDS")
					  ? (unsigned)atoi(getenv("AGX_BENCH_ROUNDS"))
					  : 50;
	double ms = 0;

	(void)state;
	for (unsigned r = 0; r < rounds; r++) {
		struct agx_ir_shader *s = pressure_kernel();
		struct agx_shader_binary bin = { 0 };
		char *log = NULL;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(agx_codegen(s, NULL, &bin, &log), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms +=
		    (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		instrs = bin.info.num_instructions;
		agx_shader_binary_finish(&bin);
		agx_ir_shader_destroy(s);
	}
	note("a shader of %u instructions: %.3f ms to compile (agx_codegen)", instrs, ms / rounds);
	assert_true(instrs > 90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smoke),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_sine),
		cmocka_unit_test(test_nested_if),
		cmocka_unit_test(test_loop_break_continue),
		cmocka_unit_test(test_nested_loops),
		cmocka_unit_test(test_loop_rotate),
		cmocka_unit_test(test_loop_swap),
		cmocka_unit_test(test_spilling),
		cmocka_unit_test(test_shared_barrier),
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_system_values),
		cmocka_unit_test(test_disasm_if),
		cmocka_unit_test(test_disasm_loop),
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_backend_compile),
		cmocka_unit_test(test_vertex_shader),
		cmocka_unit_test(test_vertex_xfb),
		cmocka_unit_test(test_vertex_formats),
		cmocka_unit_test(test_vertex_point_size),
		cmocka_unit_test(test_fragment_color),
		cmocka_unit_test(test_blend_unwritten),
		cmocka_unit_test(test_fragment_interpolation),
		cmocka_unit_test(test_struct_varyings),
		cmocka_unit_test(test_noperspective),
		cmocka_unit_test(test_frag_coord_facing),
		cmocka_unit_test(test_point_coord),
		cmocka_unit_test(test_packed_targets),
		cmocka_unit_test(test_discard),
		cmocka_unit_test(test_frag_depth),
		cmocka_unit_test(test_pixel_fences),
		cmocka_unit_test(test_fragment_texture),
		cmocka_unit_test(test_block_arrays_length),
		cmocka_unit_test(test_bool_uniforms),
		cmocka_unit_test(test_derivatives),
		cmocka_unit_test(test_compile_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

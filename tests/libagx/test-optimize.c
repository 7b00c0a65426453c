/*
 * test-optimize: agx_optimize(), the passes together until none changes
 * anything.  A shader that needs every pass, some of them twice (a fold
 * makes an if constant, the if's removal makes a phi trivial and a
 * repeat mergeable), comes out as the straight code it means; a second
 * run does nothing; the dump names each pass that changed the shader,
 * followed by the shader as it left it, and nothing else.  And random
 * integer programs -- ops on loaded values and on the immediates the
 * identities are about, ifs on values and on immediates with phis after
 * them, loops that run once -- compute the same outputs optimized and
 * not, run by the IR interpreter (ir-interp.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agx_compile.h"
#include "ir-interp.h"
#include "ir-test.h"

#define I32 AGX_IR_TYPE_I32
#define F32 AGX_IR_TYPE_F32

static struct agx_ir_shader *build_input(void)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x, m, zero, c, t, e, p, addr, v, w, k;
	struct agx_ir_if *nif;
	struct agx_ir_loop *loop;

	x = agx_load_global_id(&b, 0);
	m = agx_mov(&b, x);
	zero = agx_iadd(&b, m, agx_imm_u32(0));		 /* x */
	c = agx_ult(&b, agx_imm_u32(3), agx_imm_u32(4)); /* true */
	nif = agx_builder_push_if(&b, c);
	t = agx_imul(&b, zero, agx_imm_u32(4)); /* x << 2 */
	agx_builder_push_else(&b, nif);
	e = agx_iadd(&b, x, agx_imm_u32(1));
	agx_builder_pop_if(&b, nif);
	p = agx_phi(&b, I32);
	phi_add(p, then_block(nif), t);
	phi_add(p, else_block(nif), e);
	addr = agx_ishl(&b, x, agx_imm_u32(2)); /* t again, once t is before it */
	v = agx_load_ssbo(&b, F32, addr, 0);
	w = agx_fmul(&b, v, agx_imm_f32(1.0f)); /* v is a load: stays */
	k = agx_fadd(&b, agx_fmul(&b, v, agx_imm_f32(2.0f)), agx_imm_f32(-0.0f));
	agx_fadd(&b, v, v); /* dead */
	loop = agx_builder_push_loop(&b);
	agx_store_ssbo(&b, k, p, 1);
	agx_break(&b);
	agx_builder_pop_loop(&b, loop);
	agx_store_ssbo(&b, w, addr, 1);
	return s;
}

static struct agx_ir_shader *build_expected(void)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x, t, v, w, k;

	x = agx_load_global_id(&b, 0);
	t = agx_ishl(&b, x, agx_imm_u32(2));
	v = agx_load_ssbo(&b, F32, t, 0);
	w = agx_fmul(&b, v, agx_imm_f32(1.0f));
	k = agx_fmul(&b, v, agx_imm_f32(2.0f));
	agx_store_ssbo(&b, k, t, 1);
	agx_store_ssbo(&b, w, t, 1);
	return s;
}

static char *dump_optimize(struct agx_ir_shader *s)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	assert_non_null(fp);
	agx_optimize(s, fp);
	assert_int_equal(fclose(fp), 0);
	return text;
}

static void test_optimize_all(void **state)
{
	struct agx_ir_shader *s = build_input(), *want = build_expected();
	char *dump;

	(void)state;
	assert_valid(s);
	agx_optimize(s, NULL);
	assert_valid(s);
	assert_equal_ir(s, want);

	/* a second run: nothing to do, nothing dumped */
	dump = dump_optimize(s);
	assert_string_equal(dump, "");
	assert_equal_ir(s, want);
	free(dump);
	agx_ir_shader_destroy(s);
	agx_ir_shader_destroy(want);
}

/* The dump: "after <pass>:" and the shader, for each pass that changed it, in order. */
static void test_optimize_dump(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	char *dump, *final, *want;
	struct agx_ir_value x = agx_load_uniform(&b, I32, 0);

	(void)state;
	/* only constant folding has work here */
	agx_store_ssbo(&b, agx_iadd(&b, x, agx_iadd(&b, agx_imm_u32(2), agx_imm_u32(3))),
		       agx_imm_u32(0), 0);
	dump = dump_optimize(s);
	final = agx_ir_shader_to_string(s);
	assert_true(asprintf(&want, "after agx_opt_constant_fold:\n%s", final) > 0);
	assert_string_equal(dump, want);
	assert_non_null(strstr(final, "iadd %0, 5:i32"));
	free(want);
	free(final);
	free(dump);

	/* the full shader: every pass that changed it, each followed by a shader */
	agx_ir_shader_destroy(s);
	s = build_input();
	dump = dump_optimize(s);
	{
		static const char *const changed[] = {
			"after agx_opt_copy_prop:\nshader compute",
			"after agx_opt_constant_fold:\nshader compute",
			"after agx_opt_algebraic:\nshader compute",
			"after agx_opt_if:\nshader compute",
			"after agx_opt_cse:\nshader compute",
			"after agx_opt_dce:\nshader compute"
		};
		const char *at = dump;

		/* in the passes' order within the first round */
		for (unsigned i = 0; i < sizeof(changed) / sizeof(changed[0]); i++) {
			const char *found = strstr(at, changed[i]);

			if (!found)
				note("no \"%s\" after offset %zu of the dump:\n%s", changed[i],
				     (size_t)(at - dump), dump);
			assert_non_null(found);
			at = found + 1;
		}
		/* the last shader dumped is the result */
		final = agx_ir_shader_to_string(s);
		assert_true(strlen(dump) >= strlen(final));
		assert_string_equal(dump + strlen(dump) - strlen(final), final);
		free(final);
	}
	free(dump);
	agx_ir_shader_destroy(s);
}

/*
 * The example of docs/compiler.md ("Text"): an if choosing a loaded value
 * or 0, a loop of four steps, a store.  Nothing in it can go: the
 * address computed in the if's arm is computed again after it (the arm
 * does not dominate the store), ffma by 0.5 stays, the loop goes round.
 */
static struct agx_ir_shader *build_example(void)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value id, x, v, i, acc, acc2, i2;
	struct agx_ir_if *nif, *exit_if;
	struct agx_ir_loop *loop;

	id = agx_load_global_id(&b, 0);
	nif = agx_builder_push_if(&b, agx_ult(&b, id, agx_imm_u32(64)));
	x = agx_load_ssbo(&b, F32, agx_ishl(&b, id, agx_imm_u32(2)), 0);
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	v = agx_phi(&b, F32);
	phi_add(v, then_block(nif), x);
	phi_add(v, else_block(nif), agx_imm_f32(0.0f));
	loop = agx_builder_push_loop(&b);
	i = agx_phi(&b, I32);
	acc = agx_phi(&b, F32);
	exit_if = agx_builder_push_if(&b, agx_ige(&b, i, agx_imm_u32(4)));
	agx_break(&b);
	agx_builder_pop_if(&b, exit_if);
	acc2 = agx_ffma(&b, acc, agx_imm_f32(0.5f), v);
	i2 = agx_iadd(&b, i, agx_imm_u32(1));
	agx_builder_pop_loop(&b, loop);
	phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
	phi_add(acc, agx_ir_cf_node_block_before(&loop->node), v);
	phi_add(acc, agx_ir_cf_list_last_block(&loop->body), acc2);
	agx_store_ssbo(&b, acc, agx_ishl(&b, id, agx_imm_u32(2)), 1);
	return s;
}

static void test_optimize_nothing(void **state)
{
	struct agx_ir_shader *s = build_example(), *want = build_example();
	char *dump;

	(void)state;
	dump = dump_optimize(s);
	assert_string_equal(dump, "");
	assert_equal_ir(s, want);
	free(dump);
	agx_ir_shader_destroy(s);
	agx_ir_shader_destroy(want);
}

/* ---- random programs: optimized and not, the same outputs ----------------------------- */

#define LANES	  32
#define MAX_POOL  64
#define OUT_WORDS 8

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)((rng_state >> 11) % n);
}

static const uint32_t interesting[] = { 0,  1,	2,  3,		7,	    8,	       16,
					31, 32, 33, 0xffffffff, 0x80000000, 0x7fffffff };

struct gen {
	struct agx_builder b;
	struct agx_ir_value pool[MAX_POOL];
	unsigned n;
};

static struct agx_ir_value operand(struct gen *g)
{
	if (rnd(3) == 0)
		return agx_imm_u32(interesting[rnd(sizeof(interesting) / sizeof(interesting[0]))]);
	return g->pool[rnd(g->n)];
}

static void push(struct gen *g, struct agx_ir_value v)
{
	if (g->n < MAX_POOL)
		g->pool[g->n++] = v;
	else
		g->pool[rnd(MAX_POOL)] = v;
}

/* One op on the pool's values and interesting immediates, sometimes twice (for CSE). */
static struct agx_ir_value gen_op(struct gen *g)
{
	struct agx_builder *b = &g->b;
	struct agx_ir_value x = operand(g), y = operand(g);
	static const uint32_t divisors[] = { 1, 2, 3, 8, 16, 7 };

	switch (rnd(16)) {
	case 0:
		return agx_iadd(b, x, y);
	case 1:
		return agx_isub(b, x, y);
	case 2:
		return agx_imul(b, x, y);
	case 3:
		return agx_iand(b, x, y);
	case 4:
		return agx_ior(b, x, y);
	case 5:
		return agx_ixor(b, x, y);
	case 6:
		return agx_ishl(b, x, y);
	case 7:
		return agx_ushr(b, x, y);
	case 8:
		return agx_ishr(b, x, y);
	case 9:
		return agx_imin(b, x, y);
	case 10:
		return agx_umax(b, x, y);
	case 11:
		return agx_bcsel(b, agx_ult(b, x, y), x, operand(g));
	case 12: {
		uint32_t d = divisors[rnd(sizeof(divisors) / sizeof(divisors[0]))];

		return rnd(2) ? agx_udiv(b, x, agx_imm_u32(d)) : agx_umod(b, x, agx_imm_u32(d));
	}
	case 13:
		return agx_ineg(b, agx_ineg(b, x));
	case 14:
		return agx_b2i(b, AGX_IR_TYPE_I32, agx_bnot(b, agx_ieq(b, x, y)));
	default:
		return agx_iadd(b, agx_imul(b, x, y), agx_imul(b, y, x));
	}
}

static void gen_block(struct gen *g, unsigned ops)
{
	for (unsigned i = 0; i < ops; i++)
		push(g, gen_op(g));
}

static void gen_if(struct gen *g)
{
	struct agx_ir_value c =
	    rnd(2) ? agx_imm_bool(rnd(2)) : agx_ult(&g->b, operand(g), operand(g));
	struct agx_ir_value t, e, phi;
	struct agx_ir_if *nif = agx_builder_push_if(&g->b, c);
	unsigned saved = g->n;

	gen_block(g, rnd(3));
	t = g->pool[g->n - 1];
	g->n = saved; /* the arm's values do not reach past it */
	agx_builder_push_else(&g->b, nif);
	gen_block(g, rnd(3));
	e = g->pool[g->n - 1];
	g->n = saved;
	agx_builder_pop_if(&g->b, nif);
	phi = agx_phi(&g->b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), e);
	push(g, phi);
}

static void gen_loop_once(struct gen *g)
{
	struct agx_ir_loop *loop = agx_builder_push_loop(&g->b);

	gen_block(g, 1 + rnd(3));
	agx_break(&g->b);
	agx_builder_pop_loop(&g->b, loop);
}

static struct agx_ir_shader *gen_program(uint64_t seed)
{
	struct agx_ir_function *f;
	struct gen g = { .n = 0 };
	struct agx_ir_shader *s = shader_new(&f, &g.b);
	struct agx_ir_var ssbo = { .kind = AGX_IR_VAR_SSBO, .name = "io", .uniform = -1 };
	struct agx_ir_value id, base;

	rng_state = seed;
	s->local_size[0] = LANES;
	s->local_size[1] = s->local_size[2] = 1;
	ssbo.binding = 0;
	agx_ir_shader_add_var(s, &ssbo);
	ssbo.binding = 1;
	agx_ir_shader_add_var(s, &ssbo);
	id = agx_load_global_id(&g.b, 0);
	base = agx_ishl(&g.b, id, agx_imm_u32(2));
	push(&g, id);
	push(&g, agx_load_ssbo(&g.b, AGX_IR_TYPE_I32, base, 0));
	push(&g, agx_load_ssbo(&g.b, AGX_IR_TYPE_I32, agx_iadd(&g.b, base, agx_imm_u32(128)), 0));
	for (unsigned i = 0, steps = 4 + rnd(12); i < steps; i++) {
		unsigned what = rnd(8);

		if (what == 0)
			gen_if(&g);
		else if (what == 1)
			gen_loop_once(&g);
		else
			push(&g, gen_op(&g));
	}
	base = agx_imul(&g.b, id, agx_imm_u32(4 * OUT_WORDS));
	for (unsigned w = 0; w < OUT_WORDS; w++)
		agx_store_ssbo(&g.b, g.pool[g.n - 1 - (w % g.n)],
			       agx_iadd(&g.b, base, agx_imm_u32(4 * w)), 1);
	return s;
}

static void run_program(struct agx_ir_shader *s, const uint32_t *input, uint32_t *output)
{
	uint32_t in_copy[2 * LANES];
	struct ir_interp_buffer buffers[2] = {
		{ 0, in_copy, sizeof(in_copy) },
		{ 1, output, LANES * OUT_WORDS * sizeof(uint32_t) },
	};
	struct ir_interp_args args = { .ssbos = buffers, .num_ssbos = 2, .groups = { 1, 1, 1 } };
	char why[256];

	memcpy(in_copy, input, sizeof(in_copy));
	memset(output, 0, LANES * OUT_WORDS * sizeof(uint32_t));
	if (ir_interp_run(s, &args, why, sizeof(why)))
		fail_msg("interpreter: %s", why);
}

static void test_optimize_random(void **state)
{
	unsigned changed = 0, programs = 300;

	(void)state;
	for (unsigned p = 0; p < programs; p++) {
		uint64_t seed = 0x9e3779b97f4a7c15ull * (p + 1);
		struct agx_ir_shader *plain = gen_program(seed), *opt = gen_program(seed);
		uint32_t input[2 * LANES], want[LANES * OUT_WORDS], got[LANES * OUT_WORDS];
		char *dump;

		rng_state = seed ^ 0x5555;
		for (unsigned i = 0; i < 2 * LANES; i++)
			input[i] = i < 8 ? interesting[i] : (uint32_t)rnd(1u << 31) * 2 + rnd(2);
		assert_valid(plain);
		dump = dump_optimize(opt);
		changed += *dump != 0;
		free(dump);
		run_program(plain, input, want);
		run_program(opt, input, got);
		if (memcmp(want, got, sizeof(want))) {
			note("program %u computes other values optimized", p);
			print_shader("unoptimized", plain);
			print_shader("optimized", opt);
		}
		assert_memory_equal(want, got, sizeof(want));
		agx_ir_shader_destroy(plain);
		agx_ir_shader_destroy(opt);
	}
	note("%u of %u random programs changed by agx_optimize, all computing the same", changed,
	     programs);
	assert_true(changed > programs / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_optimize_all),
		cmocka_unit_test(test_optimize_dump),
		cmocka_unit_test(test_optimize_nothing),
		cmocka_unit_test(test_optimize_random),
	};

	return cmocka_run_group_tests_name("optimize", tests, NULL, NULL);
}

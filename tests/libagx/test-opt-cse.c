/*
 * test-opt-cse: agx_opt_cse, exact IR in and out: repeats in one block
 * (commutative sources either way round, indices and types that differ),
 * what is never merged (load_ssbo, stores), and across control flow: a
 * value before an if serves both arms, the arms do not serve each other
 * or the block after them, a loop's header serves its body.
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
#define F32 AGX_IR_TYPE_F32

typedef void (*build_fn)(struct agx_builder *b, bool merged);

static void check_build(build_fn fn, bool progress)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	fn(&b, false);
	want = shader_new(&f, &b);
	fn(&b, progress);
	check_pass(in, want, agx_opt_cse, progress);
}

static void store(struct agx_builder *b, struct agx_ir_value v, unsigned word)
{
	agx_store_ssbo(b, v, agx_imm_u32(4 * word), 0);
}

/*
 * Nothing alike: other ops, other indices, other types, other
 * immediates, non-commutative sources swapped, loads of an SSBO.
 */
static void build_nothing(struct agx_builder *b, bool merged)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), y = agx_load_uniform(b, I32, 4);
	struct agx_ir_value fx = agx_load_uniform(b, F32, 0), fy = agx_load_uniform(b, F32, 4);

	(void)merged;
	store(b, agx_isub(b, x, y), 0);
	store(b, agx_isub(b, y, x), 1);
	store(b, agx_iadd(b, x, y), 2);
	store(b, agx_iadd(b, x, agx_imm_u32(1)), 3);
	store(b, agx_iadd(b, x, agx_imm_u32(2)), 4);
	store(b, agx_ffma(b, fx, fy, fx), 5);
	store(b, agx_ffma(b, fy, fx, fy), 6);
	store(b, agx_bitcast(b, F32, x), 7);
	store(b, agx_load_ssbo(b, I32, x, 1), 8);
	store(b, agx_load_ssbo(b, I32, x, 1), 9);
	store(b, agx_load_global_id(b, 0), 10);
	store(b, agx_load_global_id(b, 1), 11);
	store(b, agx_b2i(b, I32, agx_flt(b, fx, fy)), 12);
	store(b, agx_b2i(b, I32, agx_flt(b, fy, fx)), 13);
}

static void test_cse_nothing(void **state)
{
	(void)state;
	check_build(build_nothing, false);
}

/* Repeats in one block; commutative sources either way; a repeat of a repeat. */
static void build_block(struct agx_builder *b, bool merged)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), y = agx_load_uniform(b, I32, 4);
	struct agx_ir_value fx = agx_load_uniform(b, F32, 8);
	struct agx_ir_value x2 = merged ? x : agx_load_uniform(b, I32, 0);
	struct agx_ir_value sum = agx_iadd(b, x, y);
	struct agx_ir_value sum2 = merged ? sum : agx_iadd(b, y, x2);
	struct agx_ir_value prod = agx_imul(b, sum, agx_imm_u32(3));
	struct agx_ir_value prod2 = merged ? prod : agx_imul(b, agx_imm_u32(3), sum2);
	struct agx_ir_value m = agx_fmul(b, fx, agx_imm_f32(0.5f));
	struct agx_ir_value m2 = merged ? m : agx_fmul(b, agx_imm_f32(0.5f), fx);
	struct agx_ir_value s = agx_isub(b, prod, x);
	struct agx_ir_value s2 = merged ? s : agx_isub(b, prod2, x2);
	struct agx_ir_value id = agx_load_global_id(b, 1);
	struct agx_ir_value id2 = merged ? id : agx_load_global_id(b, 1);

	store(b, sum2, 0);
	store(b, prod2, 1);
	store(b, m2, 2);
	store(b, s2, 3);
	store(b, agx_iadd(b, s, id2), 4);
}

static void test_cse_block(void **state)
{
	(void)state;
	check_build(build_block, true);
}

/*
 * Before an if: serves both arms and the block after.  In the then arm:
 * serves neither the else arm nor the block after (the then arm does not
 * dominate them), which compute it again.
 */
static void build_if(struct agx_builder *b, bool merged)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), y = agx_load_uniform(b, I32, 4);
	struct agx_ir_value before = agx_iadd(b, x, y), t, e, phi;
	struct agx_ir_if *nif = agx_builder_push_if(b, agx_ult(b, x, y));

	t = agx_imul(b, x, y);
	store(b, merged ? before : agx_iadd(b, x, y), 0);
	store(b, t, 1);
	agx_builder_push_else(b, nif);
	e = agx_imul(b, x, y); /* a sibling arm: stays */
	store(b, merged ? before : agx_iadd(b, y, x), 2);
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, I32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), e);
	store(b, agx_imul(b, x, y), 3); /* after the if: neither arm dominates it */
	store(b, merged ? before : agx_iadd(b, x, y), 4);
	store(b, phi, 5);
}

static void test_cse_if(void **state)
{
	(void)state;
	check_build(build_if, true);
}

/* A loop's header dominates its body; the body does not dominate the block after the loop. */
static void build_loop(struct agx_builder *b, bool merged)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), i, i2, h, in_body;
	struct agx_ir_loop *loop = agx_builder_push_loop(b);
	struct agx_ir_if *nif;

	i = agx_phi(b, I32);
	h = agx_ishl(b, x, agx_imm_u32(2));
	nif = agx_builder_push_if(b, agx_uge(b, i, h));
	agx_break(b);
	agx_builder_pop_if(b, nif);
	in_body = agx_iadd(b, i, merged ? h : agx_ishl(b, x, agx_imm_u32(2)));
	i2 = agx_iadd(b, in_body, agx_imm_u32(1));
	store(b, i2, 0);
	agx_builder_pop_loop(b, loop);
	phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
	store(b, agx_iadd(b, i, agx_imm_u32(1)), 1); /* the body's i + 1 is i2's, not this i's */
	/* the header dominates the block after the loop: its value serves there */
	store(b, merged ? h : agx_ishl(b, x, agx_imm_u32(2)), 2);
}

static void test_cse_loop(void **state)
{
	(void)state;
	check_build(build_loop, true);
}

/* A run after a run: nothing more. */
static void test_cse_twice(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b), *want;

	(void)state;
	build_block(&b, false);
	assert_true(agx_pass(s, agx_opt_cse));
	want = shader_new(&f, &b);
	build_block(&b, true);
	check_pass(s, want, agx_opt_cse, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cse_nothing), cmocka_unit_test(test_cse_block),
		cmocka_unit_test(test_cse_if),	    cmocka_unit_test(test_cse_loop),
		cmocka_unit_test(test_cse_twice),
	};

	return cmocka_run_group_tests_name("opt_cse", tests, NULL, NULL);
}

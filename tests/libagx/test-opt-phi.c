/*
 * test-opt-phi: agx_opt_phi, exact IR in and out: phis of one value after
 * an if (a def, an immediate), a loop header's phi of a value the body
 * passes round unchanged, and the phi after that loop, trivial only once
 * the header's is gone; phis of different values stay.
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

typedef void (*build_fn)(struct agx_builder *b, bool simplified);

static void check_build(build_fn fn, bool progress)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	fn(&b, false);
	want = shader_new(&f, &b);
	fn(&b, progress);
	check_pass(in, want, agx_opt_phi, progress);
}

/* Different values after an if; a counting loop; the same bits of another type are not one value */
static void build_nothing(struct agx_builder *b, bool simplified)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), y = agx_load_uniform(b, I32, 4);
	struct agx_ir_value p, q, i, i2;
	struct agx_ir_if *nif = agx_builder_push_if(b, agx_ult(b, x, y));
	struct agx_ir_loop *loop;

	(void)simplified;
	agx_builder_pop_if(b, nif);
	p = agx_phi(b, I32);
	phi_add(p, then_block(nif), x);
	phi_add(p, else_block(nif), y);
	q = agx_phi(b, I32);
	phi_add(q, then_block(nif), agx_imm_u32(1));
	phi_add(q, else_block(nif), agx_imm_u32(2));
	loop = agx_builder_push_loop(b);
	i = agx_phi(b, I32);
	nif = agx_builder_push_if(b, agx_uge(b, i, p));
	agx_break(b);
	agx_builder_pop_if(b, nif);
	i2 = agx_iadd(b, i, q);
	agx_builder_pop_loop(b, loop);
	phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
	agx_store_ssbo(b, i, agx_imm_u32(0), 0);
}

static void test_phi_nothing(void **state)
{
	(void)state;
	check_build(build_nothing, false);
}

/* After an if: one def from both arms, one immediate from both. */
static void build_if(struct agx_builder *b, bool s)
{
	struct agx_ir_value x = agx_load_uniform(b, F32, 0), p = x, q = agx_imm_f32(1.5f), r;
	struct agx_ir_if *nif = agx_builder_push_if(b, agx_flt(b, x, agx_imm_f32(0.0f)));

	agx_store_ssbo(b, x, agx_imm_u32(0), 1);
	agx_builder_push_else(b, nif);
	agx_builder_pop_if(b, nif);
	if (!s) {
		p = agx_phi(b, F32);
		phi_add(p, then_block(nif), x);
		phi_add(p, else_block(nif), x);
		q = agx_phi(b, F32);
		phi_add(q, then_block(nif), agx_imm_f32(1.5f));
		phi_add(q, else_block(nif), agx_imm_f32(1.5f));
	}
	r = agx_phi(b, F32); /* two values: stays */
	phi_add(r, then_block(nif), agx_imm_f32(1.5f));
	phi_add(r, else_block(nif), x);
	agx_store_ssbo(b, agx_fadd(b, p, q), agx_imm_u32(0), 0);
	agx_store_ssbo(b, r, agx_imm_u32(4), 0);
}

static void test_phi_if(void **state)
{
	(void)state;
	check_build(build_if, true);
}

/*
 * The header's phi of x and itself is x; then the phi after the loop, of
 * the header's phi from one break and x from the other, is x as well.
 */
static void build_loop(struct agx_builder *b, bool s)
{
	struct agx_ir_value x = agx_load_uniform(b, I32, 0), n = agx_load_uniform(b, I32, 4);
	struct agx_ir_value v = x, after = x, i, i2;
	struct agx_ir_loop *loop = agx_builder_push_loop(b);
	struct agx_ir_if *first, *second;

	i = agx_phi(b, I32);
	if (!s)
		v = agx_phi(b, I32);
	first = agx_builder_push_if(b, agx_uge(b, i, n));
	agx_break(b);
	agx_builder_pop_if(b, first);
	second = agx_builder_push_if(b, agx_ieq(b, agx_load_ssbo(b, I32, i, 1), v));
	agx_break(b);
	agx_builder_pop_if(b, second);
	i2 = agx_iadd(b, i, agx_imm_u32(1));
	agx_builder_pop_loop(b, loop);
	phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
	if (!s) {
		phi_add(v, agx_ir_cf_node_block_before(&loop->node), x);
		phi_add(v, agx_ir_cf_list_last_block(&loop->body), v);
		after = agx_phi(b, I32);
		phi_add(after, then_block(first), v);
		phi_add(after, then_block(second), x);
	}
	agx_store_ssbo(b, after, i, 0);
}

static void test_phi_loop(void **state)
{
	(void)state;
	check_build(build_loop, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phi_nothing),
		cmocka_unit_test(test_phi_if),
		cmocka_unit_test(test_phi_loop),
	};

	return cmocka_run_group_tests_name("opt_phi", tests, NULL, NULL);
}

/*
 * test-opt-if: agx_opt_if, exact IR in and out: ifs on immediate
 * conditions (either arm taken, phis after them, a break in the arm that
 * goes, a loop inside the arm that stays), ifs with two empty arms (phis
 * become bcsel's), loops that run once (a body ending in break, a body
 * whose first block breaks before dead code), and what stays: an if on a
 * value, a taken arm that breaks, a loop that can go round.
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

static struct agx_ir_shader *in_shader, *want_shader;

/* The shader being built: in_shader first, then want_shader. */
static struct agx_ir_shader *start(struct agx_builder *b, bool expected)
{
	struct agx_ir_function *f;
	struct agx_ir_shader *s = shader_new(&f, b);

	if (expected)
		want_shader = s;
	else
		in_shader = s;
	return s;
}

static void store(struct agx_builder *b, struct agx_ir_value v, unsigned word)
{
	agx_store_ssbo(b, v, agx_imm_u32(4 * word), 0);
}

/* ---- nothing to do -------------------------------------------------------------- */

static void test_if_nothing(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value x, i, i2, phi;
		struct agx_ir_if *nif;
		struct agx_ir_loop *loop;

		start(&b, e);
		x = agx_load_uniform(&b, I32, 0);
		/* on a value, with work in an arm */
		nif = agx_builder_push_if(&b, agx_ult(&b, x, agx_imm_u32(3)));
		store(&b, x, 0);
		agx_builder_pop_if(&b, nif);
		/* a loop that goes round, with a taken arm that breaks */
		loop = agx_builder_push_loop(&b);
		i = agx_phi(&b, I32);
		nif = agx_builder_push_if(&b, agx_uge(&b, i, x));
		agx_break(&b);
		agx_builder_pop_if(&b, nif);
		nif = agx_builder_push_if(&b, agx_imm_bool(true));
		store(&b, i, 1);
		agx_break(&b);
		agx_builder_pop_if(&b, nif);
		i2 = agx_iadd(&b, i, agx_imm_u32(1));
		agx_builder_pop_loop(&b, loop);
		phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
		phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
		/* an if with empty arms but a phi of values from inside... none: two values */
		nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(9)));
		store(&b, x, 2);
		agx_builder_push_else(&b, nif);
		agx_builder_pop_if(&b, nif);
		phi = agx_phi(&b, I32);
		phi_add(phi, then_block(nif), x);
		phi_add(phi, else_block(nif), i);
		store(&b, phi, 3);
	}
	check_pass(in_shader, want_shader, agx_opt_if, false);
}

/* ---- constant conditions ------------------------------------------------------------ */

/* if (c) { t = x * 2 } else { e = x + 1 }; phi(t, e): with c immediate, straight code. */
static void build_constant(struct agx_builder *b, bool cond, bool e)
{
	struct agx_ir_value x, t, v, phi;
	struct agx_ir_if *nif;

	start(b, e);
	x = agx_load_uniform(b, I32, 0);
	store(b, x, 0);
	if (e) {
		v = cond ? agx_imul(b, x, agx_imm_u32(2)) : agx_iadd(b, x, agx_imm_u32(1));
		store(b, v, cond ? 1 : 2);
		store(b, v, 3);
		return;
	}
	nif = agx_builder_push_if(b, agx_imm_bool(cond));
	t = agx_imul(b, x, agx_imm_u32(2));
	store(b, t, 1);
	agx_builder_push_else(b, nif);
	v = agx_iadd(b, x, agx_imm_u32(1));
	store(b, v, 2);
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, I32);
	phi_add(phi, then_block(nif), t);
	phi_add(phi, else_block(nif), v);
	store(b, phi, 3);
}

static void test_if_true(void **state)
{
	struct agx_builder b;

	(void)state;
	build_constant(&b, true, false);
	build_constant(&b, true, true);
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

static void test_if_false(void **state)
{
	struct agx_builder b;

	(void)state;
	build_constant(&b, false, false);
	build_constant(&b, false, true);
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

/*
 * In a loop, an if (false) whose arm stores and breaks: the arm goes, and
 * the phi after the loop loses the source that break gave it.
 */
static void test_if_false_break(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value n, i, i2, after;
		struct agx_ir_if *first, *dead = NULL;
		struct agx_ir_loop *loop;

		start(&b, e);
		n = agx_load_uniform(&b, I32, 0);
		loop = agx_builder_push_loop(&b);
		i = agx_phi(&b, I32);
		first = agx_builder_push_if(&b, agx_uge(&b, i, n));
		agx_break(&b);
		agx_builder_pop_if(&b, first);
		if (!e) {
			dead = agx_builder_push_if(&b, agx_imm_bool(false));
			store(&b, i, 0);
			agx_break(&b);
			agx_builder_pop_if(&b, dead);
		}
		i2 = agx_iadd(&b, i, agx_imm_u32(1));
		agx_builder_pop_loop(&b, loop);
		phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
		phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
		after = agx_phi(&b, I32);
		phi_add(after, then_block(first), i);
		if (!e)
			phi_add(after, then_block(dead), agx_imm_u32(7));
		store(&b, after, 1);
	}
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

/*
 * The taken arm holds a loop: its header's phi named the arm's first
 * block, which joins the block before the if; it names that block now.
 */
static void test_if_true_loop(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value x, a, j, j2;
		struct agx_ir_if *nif = NULL, *exit_if;
		struct agx_ir_loop *loop;

		start(&b, e);
		x = agx_load_uniform(&b, I32, 0);
		if (!e)
			nif = agx_builder_push_if(&b, agx_imm_bool(true));
		a = agx_ishl(&b, x, agx_imm_u32(1));
		loop = agx_builder_push_loop(&b);
		j = agx_phi(&b, I32);
		exit_if = agx_builder_push_if(&b, agx_uge(&b, j, a));
		agx_break(&b);
		agx_builder_pop_if(&b, exit_if);
		j2 = agx_iadd(&b, j, agx_imm_u32(1));
		agx_builder_pop_loop(&b, loop);
		phi_add(j, agx_ir_cf_node_block_before(&loop->node), x);
		phi_add(j, agx_ir_cf_list_last_block(&loop->body), j2);
		store(&b, j, 0);
		if (!e) {
			agx_builder_push_else(&b, nif);
			store(&b, x, 1);
			agx_builder_pop_if(&b, nif);
		}
		store(&b, x, 2);
	}
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

/* ---- empty arms -------------------------------------------------------------------- */

static void test_if_empty(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value x, y, c, p, q;
		struct agx_ir_if *nif;

		start(&b, e);
		x = agx_load_uniform(&b, F32, 0);
		y = agx_load_uniform(&b, F32, 4);
		c = agx_flt(&b, x, y);
		if (e) {
			p = agx_bcsel(&b, c, x, y);
			q = agx_bcsel(&b, c, agx_imm_f32(1.0f), x);
		} else {
			nif = agx_builder_push_if(&b, c);
			agx_builder_pop_if(&b, nif);
			p = agx_phi(&b, F32);
			phi_add(p, then_block(nif), x);
			phi_add(p, else_block(nif), y);
			q = agx_phi(&b, F32);
			phi_add(q, then_block(nif), agx_imm_f32(1.0f));
			phi_add(q, else_block(nif), x);
		}
		store(&b, agx_fadd(&b, p, q), 0);
	}
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

/* ---- loops that run once ------------------------------------------------------------ */

/* loop { p = phi(5, ...); store p; if (c) { store } ; break }: no other way round. */
static void test_loop_once(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value x, p, after;
		struct agx_ir_loop *loop = NULL;
		struct agx_ir_if *nif;

		start(&b, e);
		x = agx_load_uniform(&b, I32, 0);
		if (!e) {
			loop = agx_builder_push_loop(&b);
			p = agx_phi(&b, I32);
		} else {
			p = agx_imm_u32(5);
		}
		store(&b, p, 0);
		nif = agx_builder_push_if(&b, agx_ult(&b, x, p));
		store(&b, x, 1);
		agx_builder_pop_if(&b, nif);
		after = agx_iadd(&b, x, p);
		if (!e) {
			agx_break(&b);
			agx_builder_pop_loop(&b, loop);
			phi_add(p, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(5));
			{
				struct agx_ir_value v = agx_phi(&b, I32);

				phi_add(v, agx_ir_cf_list_last_block(&loop->body), after);
				after = v;
			}
		}
		store(&b, after, 2);
	}
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

/*
 * A body whose first block breaks: what follows is dead -- an if and the
 * block that went back to the header, whose source the header's phi
 * loses -- and the loop runs once.
 */
static void test_loop_break_first(void **state)
{
	(void)state;
	for (int e = 0; e < 2; e++) {
		struct agx_builder b;
		struct agx_ir_value x, c, p, p2;
		struct agx_ir_loop *loop;
		struct agx_ir_if *nif;

		start(&b, e);
		x = agx_load_uniform(&b, I32, 0);
		c = agx_ult(&b, x, agx_imm_u32(2)); /* stays, unread: removing it is DCE's */
		if (e) {
			store(&b, agx_imm_u32(0), 0);
			store(&b, x, 3);
			continue;
		}
		loop = agx_builder_push_loop(&b);
		p = agx_phi(&b, I32);
		store(&b, p, 0);
		agx_break(&b);
		/* dead: an if after the breaking block, and the block back to the header */
		nif = agx_builder_push_if(&b, c);
		store(&b, x, 1);
		agx_break(&b);
		agx_builder_pop_if(&b, nif);
		p2 = agx_iadd(&b, p, agx_imm_u32(1));
		store(&b, p2, 2);
		agx_builder_pop_loop(&b, loop);
		phi_add(p, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
		phi_add(p, agx_ir_cf_list_last_block(&loop->body), p2);
		store(&b, x, 3);
	}
	check_pass(in_shader, want_shader, agx_opt_if, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_if_nothing),   cmocka_unit_test(test_if_true),
		cmocka_unit_test(test_if_false),     cmocka_unit_test(test_if_false_break),
		cmocka_unit_test(test_if_true_loop), cmocka_unit_test(test_if_empty),
		cmocka_unit_test(test_loop_once),    cmocka_unit_test(test_loop_break_first),
	};

	return cmocka_run_group_tests_name("opt_if", tests, NULL, NULL);
}

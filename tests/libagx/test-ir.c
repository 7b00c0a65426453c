/*
 * test-ir: the compiler's IR (libagx/compiler/): the op table, the builder
 * and its cursors, use lists, the printer's exact text, the validator
 * (one broken shader per rule, each expecting its complaint), equality up
 * to numbering, dominance, and a group per pass: build the input and the
 * expected IR with the builder, run the pass, compare.
 *
 * Run with a group's name ("ir", "opt_dce", "opt_copy_prop") to run that
 * group only; meson registers one test per group.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir-test.h"

/*
 * The example of docs/compiler.md: an if choosing a loaded value or 0,
 * then a loop of four halvings, and a store.
 */
static struct agx_ir_shader *build_example_numbered(unsigned skip)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value id, in_range, x, v, i, acc, done, acc2, i2;
	struct agx_ir_if *nif, *exit_if;
	struct agx_ir_loop *loop;

	/* defs made and removed first: every number after them is `skip` on */
	for (unsigned n = 0; n < skip; n++) {
		agx_ir_instr_remove(agx_undef(&b, AGX_IR_TYPE_I32).def->instr);
		agx_builder_init(&b, f); /* the cursor was after what went */
	}
	id = agx_load_global_id(&b, 0);
	in_range = agx_ult(&b, id, agx_imm_u32(64));
	nif = agx_builder_push_if(&b, in_range);
	x = agx_load_ssbo(&b, AGX_IR_TYPE_F32, agx_ishl(&b, id, agx_imm_u32(2)), 0);
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	v = agx_phi(&b, AGX_IR_TYPE_F32);
	phi_add(v, then_block(nif), x);
	phi_add(v, else_block(nif), agx_imm_f32(0.0f));

	loop = agx_builder_push_loop(&b);
	i = agx_phi(&b, AGX_IR_TYPE_I32);
	acc = agx_phi(&b, AGX_IR_TYPE_F32);
	done = agx_ige(&b, i, agx_imm_u32(4));
	exit_if = agx_builder_push_if(&b, done);
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

static struct agx_ir_shader *build_example(void)
{
	return build_example_numbered(0);
}

static const char example_text[] = "shader compute\n"
				   "function main {\n"
				   "  block 0:\n"
				   "    %0:i32 = load_global_id component=0\n"
				   "    %1:b1 = ult %0, 64:i32\n"
				   "  if %1 {\n"
				   "    block 1:\n"
				   "      %2:i32 = ishl %0, 2:i32\n"
				   "      %3:f32 = load_ssbo %2, binding=0\n"
				   "  } else {\n"
				   "    block 2:\n"
				   "  }\n"
				   "  block 3:\n"
				   "    %4:f32 = phi [%3, block 1], [0.0:f32, block 2]\n"
				   "  loop {\n"
				   "    block 4:\n"
				   "      %5:i32 = phi [0:i32, block 3], [%9, block 7]\n"
				   "      %6:f32 = phi [%4, block 3], [%8, block 7]\n"
				   "      %7:b1 = ige %5, 4:i32\n"
				   "    if %7 {\n"
				   "      block 5:\n"
				   "        break\n"
				   "    } else {\n"
				   "      block 6:\n"
				   "    }\n"
				   "    block 7:\n"
				   "      %8:f32 = ffma %6, 0.5:f32, %4\n"
				   "      %9:i32 = iadd %5, 1:i32\n"
				   "  }\n"
				   "  block 8:\n"
				   "    %10:i32 = ishl %0, 2:i32\n"
				   "    store_ssbo %6, %10, binding=1\n"
				   "}\n";

/* ---- the op table ------------------------------------------------------------ */

static bool is_sized(enum agx_ir_class c)
{
	return c == AGX_IR_CLASS_F || c == AGX_IR_CLASS_I || c == AGX_IR_CLASS_N ||
	       c == AGX_IR_CLASS_T;
}

/* What the builder and validator assume of the table holds for every row. */
static void test_op_table(void **state)
{
	(void)state;
	for (unsigned op = 0; op < AGX_IR_NUM_OPS; op++) {
		const struct agx_ir_op_info *info = agx_ir_op_info(op);
		bool derivable = false;

		assert_non_null(info->name);
		assert_true(info->num_srcs <= AGX_IR_MAX_SRCS);
		assert_true(info->num_imms <= AGX_IR_MAX_IMMS);
		for (unsigned j = 0; j < op; j++)
			assert_string_not_equal(info->name, agx_ir_op_info(j)->name);
		for (unsigned i = 0; i < info->num_imms; i++)
			assert_non_null(info->imm[i]);
		for (unsigned i = 0; i < info->num_srcs; i++) {
			assert_int_not_equal(info->src[i], AGX_IR_CLASS_NONE);
			derivable |= info->dest == AGX_IR_CLASS_T ? info->src[i] == AGX_IR_CLASS_T
								  : is_sized(info->src[i]);
		}
		/* a destination the builder derives has a source to derive it from */
		if (info->dest == AGX_IR_CLASS_F || info->dest == AGX_IR_CLASS_I ||
		    info->dest == AGX_IR_CLASS_T)
			assert_true(derivable);
		if (info->flags & AGX_IR_COMMUTATIVE)
			assert_int_equal(info->src[0], info->src[1]);
		/* phis take the destination's type; texture ops lay out their own */
		if ((info->flags & AGX_IR_VARIADIC) && !(info->flags & AGX_IR_TEXTURE))
			assert_int_equal(info->dest, AGX_IR_CLASS_ANY);
		if (info->flags & AGX_IR_TEXTURE)
			assert_true(info->flags & AGX_IR_VARIADIC);
		if (info->flags & AGX_IR_TERMINATOR)
			assert_int_equal(info->dest, AGX_IR_CLASS_NONE);
		assert_false((info->flags & AGX_IR_PURE) && (info->flags & AGX_IR_SIDE_EFFECTS));
	}
	assert_string_equal(agx_ir_op_info(AGX_IR_OP_load_ssbo)->imm[0], "binding");
	assert_int_equal(agx_ir_op_info(AGX_IR_OP_ffma)->num_srcs, 3);
}

/* ---- the builder ------------------------------------------------------------- */

static void assert_offsets(struct agx_ir_block *block, const uint32_t *want, unsigned n)
{
	unsigned i = 0;

	agx_ir_foreach_instr(block, instr) {
		assert_true(i < n);
		assert_ptr_equal(instr->block, block);
		assert_int_equal(instr->imm[0], want[i]);
		i++;
	}
	assert_int_equal(i, n);
}

static void test_builder_cursor(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b, at;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_block *block = agx_ir_function_first_block(f);
	struct agx_ir_instr *a;
	static const uint32_t end_only[] = { 0, 4 };
	static const uint32_t with_start[] = { 8, 12, 0, 4 };
	static const uint32_t with_before[] = { 8, 12, 16, 20, 0, 4 };
	static const uint32_t with_after[] = { 8, 12, 16, 20, 0, 24, 28, 4 };

	(void)state;
	a = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0).def->instr;
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 4);
	assert_offsets(block, end_only, 2);

	/* at the start: the first emitted comes first, the next after it */
	at = agx_builder_at(agx_ir_cursor_start(block));
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 8);
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 12);
	assert_offsets(block, with_start, 4);

	/* before a: in order, and the cursor stays before a */
	at = agx_builder_at(agx_ir_cursor_before(a));
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 16);
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 20);
	assert_int_equal(at.cursor.kind, AGX_IR_CURSOR_BEFORE_INSTR);
	assert_ptr_equal(at.cursor.instr, a);
	assert_offsets(block, with_before, 6);

	/* after a: in order, the cursor moving on after each */
	at = agx_builder_at(agx_ir_cursor_after(a));
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 24);
	assert_ptr_not_equal(at.cursor.instr, a);
	agx_load_uniform(&at, AGX_IR_TYPE_I32, 28);
	assert_offsets(block, with_after, 8);

	/* block ends: agx_builder_init's cursor went on after its last */
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 32);
	assert_int_equal(agx_ir_block_last_instr(block)->imm[0], 32);
	assert_int_equal(agx_ir_function_index_instrs(f), 9);
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

static void test_builder_types(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value h, sum, eq, sel, w, i, bits, u, g, bad;
	struct agx_ir_instr *store;

	(void)state;
	h = agx_load_uniform(&b, AGX_IR_TYPE_F16, 0);
	assert_int_equal(h.type, AGX_IR_TYPE_F16);
	sum = agx_fadd(&b, h, agx_imm_f16(1.0f));
	assert_int_equal(sum.def->type, AGX_IR_TYPE_F16);
	eq = agx_feq(&b, sum, h);
	assert_int_equal(eq.type, AGX_IR_TYPE_B1);
	sel = agx_bcsel(&b, eq, agx_imm_u16(1), agx_imm_u16(2));
	assert_int_equal(sel.type, AGX_IR_TYPE_I16);
	w = agx_f2f32(&b, sum);
	assert_int_equal(w.type, AGX_IR_TYPE_F32);
	i = agx_f2i(&b, AGX_IR_TYPE_I16, w);
	assert_int_equal(i.type, AGX_IR_TYPE_I16);
	bits = agx_bitcast(&b, AGX_IR_TYPE_I32, w);
	assert_int_equal(bits.type, AGX_IR_TYPE_I32);
	u = agx_undef(&b, AGX_IR_TYPE_B1);
	assert_int_equal(u.type, AGX_IR_TYPE_B1);
	g = agx_load_global_id(&b, 2);
	assert_int_equal(g.type, AGX_IR_TYPE_I32);
	assert_int_equal(g.def->instr->imm[0], 2);

	store = agx_store_ssbo(&b, w, g, 3);
	assert_int_equal(store->op, AGX_IR_OP_store_ssbo);
	assert_int_equal(store->imm[0], 3);
	assert_null(agx_ir_instr_dest(store));
	assert_ptr_equal(store->src[0].def, w.def);
	assert_ptr_equal(store->src[1].def, g.def);

	/* sources that give no size leave the destination untyped */
	bad = agx_imm_bool(true);
	assert_int_equal(agx_builder_dest_type(AGX_IR_OP_fadd, AGX_IR_TYPE_NONE, &bad),
			 AGX_IR_TYPE_NONE);
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

static void test_immediates(void **state)
{
	(void)state;
	assert_int_equal(agx_imm_f32(1.0f).imm, 0x3f800000);
	assert_int_equal(agx_imm_f32(-2.5f).imm, 0xc0200000);
	assert_int_equal(agx_imm_u32(0xdeadbeef).imm, 0xdeadbeef);
	assert_int_equal(agx_imm_i32(-1).imm, 0xffffffff);
	assert_int_equal(agx_imm_i16(-1).imm, 0xffff);
	assert_int_equal(agx_imm_u16(7).type, AGX_IR_TYPE_I16);
	assert_int_equal(agx_imm_bool(true).imm, 1);
	assert_int_equal(agx_imm_bool(false).type, AGX_IR_TYPE_B1);
	assert_null(agx_imm_f32(1.0f).def);

	/* f16: normal, largest, rounding ties to even, overflow, subnormals, NaN */
	assert_int_equal(agx_imm_f16(1.0f).imm, 0x3c00);
	assert_int_equal(agx_imm_f16(-2.0f).imm, 0xc000);
	assert_int_equal(agx_imm_f16(0.1f).imm, 0x2e66);
	assert_int_equal(agx_imm_f16(65504.0f).imm, 0x7bff);
	assert_int_equal(agx_imm_f16(65519.0f).imm, 0x7bff);
	assert_int_equal(agx_imm_f16(65520.0f).imm, 0x7c00);
	assert_int_equal(agx_imm_f16(1.0f + 1.0f / 2048).imm, 0x3c00); /* tie: to even */
	assert_int_equal(agx_imm_f16(1.0f + 3.0f / 2048).imm, 0x3c02); /* tie: to even */
	assert_int_equal(agx_imm_f16(0x1p-24f).imm, 0x0001);
	assert_int_equal(agx_imm_f16(0x1p-25f).imm, 0x0000);	 /* tie: to even, zero */
	assert_int_equal(agx_imm_f16(0x1.8p-24f).imm, 0x0002);	 /* tie: to even */
	assert_int_equal(agx_imm_f16(0x1.ffcp-15f).imm, 0x0400); /* rounds up to the first normal */
	assert_int_equal(agx_imm_f16(-0.0f).imm, 0x8000);
	assert_int_equal(agx_imm_f16(__builtin_nanf("")).imm, 0x7e00);
	assert_true(agx_ir_f16_to_f32(0x0001) == 0x1p-24f);
	assert_true(agx_ir_f16_to_f32(0x3555) == 0x1.554p-2f);
	assert_true(agx_ir_f16_to_f32(0xfc00) == -__builtin_inff());
	for (unsigned h = 0; h < 0x10000; h++) {
		if ((h & 0x7fff) <= 0x7c00) /* not NaN: every f16 survives the round trip */
			assert_int_equal(agx_ir_f32_to_f16(agx_ir_f16_to_f32((uint16_t)h)), h);
	}
}

/* ---- use lists --------------------------------------------------------------- */

static bool reads(struct agx_ir_def *def, const struct agx_ir_src *src)
{
	agx_ir_foreach_use(def, use) {
		if (use == src)
			return true;
	}
	return false;
}

static void test_uses(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x, y, sum, cond, prod;
	struct agx_ir_instr *add;
	struct agx_ir_if *nif;

	(void)state;
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	y = agx_load_uniform(&b, AGX_IR_TYPE_I32, 4);
	sum = agx_iadd(&b, x, x);
	cond = agx_ieq(&b, sum, y);
	nif = agx_builder_push_if(&b, cond);
	prod = agx_imul(&b, x, y);
	agx_store_ssbo(&b, prod, agx_imm_u32(0), 0);
	agx_builder_pop_if(&b, nif);
	assert_valid(s);
	add = sum.def->instr;

	assert_int_equal(agx_ir_def_num_uses(x.def), 3);
	assert_int_equal(agx_ir_def_num_uses(y.def), 2);
	assert_true(reads(cond.def, &nif->cond));
	assert_true(reads(x.def, &add->src[0]) && reads(x.def, &add->src[1]));

	/* every reader of x reads y */
	agx_ir_def_rewrite_uses(x.def, y);
	assert_false(agx_ir_def_has_uses(x.def));
	assert_int_equal(agx_ir_def_num_uses(y.def), 5);
	assert_ptr_equal(add->src[0].def, y.def);
	assert_ptr_equal(prod.def->instr->src[0].def, y.def);
	agx_ir_foreach_use(y.def, use)
		assert_ptr_equal(use->def, y.def);

	/* an if's condition, rewritten to an immediate */
	agx_ir_def_rewrite_uses(cond.def, agx_imm_bool(true));
	assert_false(agx_ir_def_has_uses(cond.def));
	assert_null(nif->cond.def);
	assert_int_equal(nif->cond.imm, 1);
	assert_int_equal(agx_ir_src_type(&nif->cond), AGX_IR_TYPE_B1);

	/* one source at a time */
	agx_ir_src_set(&add->src[1], x);
	assert_int_equal(agx_ir_def_num_uses(x.def), 1);
	assert_int_equal(agx_ir_def_num_uses(y.def), 4);
	assert_true(reads(x.def, &add->src[1]));
	assert_valid(s);

	/* removing an instruction takes its sources out of the lists */
	agx_ir_instr_remove(cond.def->instr);
	agx_ir_instr_remove(add);
	assert_true(add->removed);
	assert_false(agx_ir_def_has_uses(x.def));
	assert_int_equal(agx_ir_def_num_uses(y.def), 2);
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

/* A phi's sources move when it grows; their use links must follow. */
static void test_phi_growth(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_block *block = agx_ir_function_first_block(f);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_value y = agx_load_uniform(&b, AGX_IR_TYPE_I32, 4);
	struct agx_ir_value phi = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_instr *p = phi.def->instr;

	(void)state;
	for (unsigned i = 0; i < 9; i++)
		agx_ir_phi_add_src(p, block, i % 3 ? x : y);
	assert_int_equal(p->num_srcs, 9);
	assert_true(p->src_capacity >= 9);
	assert_int_equal(agx_ir_def_num_uses(x.def), 6);
	assert_int_equal(agx_ir_def_num_uses(y.def), 3);
	for (unsigned i = 0; i < 9; i++)
		assert_true(reads(i % 3 ? x.def : y.def, &p->src[i]));
	agx_ir_foreach_use(x.def, use)
		assert_true(use >= p->src && use < p->src + p->num_srcs);
	assert_ptr_equal(agx_ir_phi_src(p, block), &p->src[0]);
	agx_ir_shader_destroy(s);
}

/* Control flow inserted mid-block splits it; phis follow their predecessor. */
static void test_cf_insert(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b, at;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value a, later, cond, v, t, phi;
	struct agx_ir_if *nif, *outer;
	struct agx_ir_block *first = agx_ir_function_first_block(f), *after;
	struct agx_ir_loop *loop;

	(void)state;
	a = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	later = agx_iadd(&b, a, agx_imm_u32(1));
	agx_store_ssbo(&b, later, agx_imm_u32(0), 0);

	at = agx_builder_at(agx_ir_cursor_after(a.def->instr));
	cond = agx_ieq(&at, a, agx_imm_u32(0));
	nif = agx_builder_push_if(&at, cond);
	v = agx_iadd(&at, a, agx_imm_u32(5));
	agx_builder_pop_if(&at, nif);
	after = agx_ir_cf_node_block_after(&nif->node);

	assert_ptr_equal(agx_ir_block_last_instr(first), cond.def->instr);
	assert_ptr_equal(agx_ir_cf_node_block_before(&nif->node), first);
	assert_ptr_equal(v.def->instr->block, then_block(nif));
	assert_ptr_equal(later.def->instr->block, after);
	assert_ptr_equal(agx_ir_block_first_instr(after), later.def->instr);
	/* the cursor after pop_if is where it was: before the moved instructions */
	t = agx_imul(&at, a, a);
	assert_ptr_equal(agx_ir_block_first_instr(after), t.def->instr);
	assert_ptr_equal(agx_ir_block_next(first), then_block(nif));
	assert_ptr_equal(agx_ir_block_next(then_block(nif)), else_block(nif));
	assert_ptr_equal(agx_ir_block_next(else_block(nif)), after);
	assert_ptr_equal(agx_ir_block_prev(after), else_block(nif));
	assert_ptr_equal(agx_ir_block_prev(then_block(nif)), first);
	assert_valid(s);
	agx_ir_shader_destroy(s);

	/* a loop put at the end of an arm: the phi after the if now names the block after the loop
	 */
	s = shader_new(&f, &b);
	a = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	outer = agx_builder_push_if(&b, agx_ieq(&b, a, agx_imm_u32(0)));
	v = agx_iadd(&b, a, agx_imm_u32(2));
	agx_builder_pop_if(&b, outer);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(outer), v);
	phi_add(phi, else_block(outer), a);
	agx_store_ssbo(&b, phi, agx_imm_u32(0), 0);
	assert_valid(s);

	loop = agx_ir_loop_insert(agx_ir_cursor_end(then_block(outer)));
	agx_break(
	    &(struct agx_builder){ f, agx_ir_cursor_end(agx_ir_cf_list_first_block(&loop->body)) });
	assert_ptr_equal(then_block(outer), agx_ir_cf_node_block_after(&loop->node));
	assert_non_null(agx_ir_phi_src(phi.def->instr, agx_ir_cf_node_block_after(&loop->node)));
	assert_null(agx_ir_phi_src(phi.def->instr, agx_ir_cf_node_block_before(&loop->node)));
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

/* ---- printing ------------------------------------------------------------------ */

static void test_print_example(void **state)
{
	struct agx_ir_shader *s = build_example();
	char *text = agx_ir_shader_to_string(s);

	(void)state;
	if (strcmp(text, example_text))
		note("printed:\n%s", text);
	assert_string_equal(text, example_text);
	free(text);
	agx_ir_shader_destroy(s);
}

static void test_print_immediates(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	char *text;
	static const char want[] = "shader compute\n"
				   "function main {\n"
				   "  block 0:\n"
				   "    %0:f32 = mov 0.1:f32\n"
				   "    %1:f32 = mov 1.0:f32\n"
				   "    %2:f32 = mov -0.0:f32\n"
				   "    %3:f32 = mov 1e+10:f32\n"
				   "    %4:f32 = mov 3.4028235e+38:f32\n"
				   "    %5:f32 = mov -inf:f32\n"
				   "    %6:f32 = mov nan:f32\n"
				   "    %7:f32 = mov nan(0x7fc00001):f32\n"
				   "    %8:f16 = mov 0.1:f16\n"
				   "    %9:f16 = mov 6.55e+04:f16\n"
				   "    %10:f16 = mov 6e-08:f16\n"
				   "    %11:i32 = mov -1:i32\n"
				   "    %12:i32 = mov 2147483647:i32\n"
				   "    %13:i16 = mov -2:i16\n"
				   "    %14:i16 = mov 65:i16\n"
				   "    %15:b1 = mov true\n"
				   "    %16:b1 = mov false\n"
				   "    %17:i32 = load_ubo 16:i32, binding=2\n"
				   "}\n";

	(void)state;
	agx_mov(&b, agx_imm_f32(0.1f));
	agx_mov(&b, agx_imm_f32(1.0f));
	agx_mov(&b, agx_imm_f32(-0.0f));
	agx_mov(&b, agx_imm_f32(1e10f));
	agx_mov(&b, agx_imm_f32(3.40282347e+38f));
	agx_mov(&b, agx_imm_f32(-__builtin_inff()));
	agx_mov(&b, agx_imm_f32(__builtin_nanf("")));
	agx_mov(&b, agx_ir_imm(AGX_IR_TYPE_F32, 0x7fc00001));
	agx_mov(&b, agx_imm_f16(0.1f));
	agx_mov(&b, agx_imm_f16(65504.0f));
	agx_mov(&b, agx_ir_imm(AGX_IR_TYPE_F16, 1));
	agx_mov(&b, agx_imm_u32(0xffffffff));
	agx_mov(&b, agx_imm_i32(2147483647));
	agx_mov(&b, agx_imm_i16(-2));
	agx_mov(&b, agx_imm_u16(65));
	agx_mov(&b, agx_imm_bool(true));
	agx_mov(&b, agx_imm_bool(false));
	agx_load_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(16), 2);
	text = agx_ir_shader_to_string(s);
	if (strcmp(text, want))
		note("printed:\n%s", text);
	assert_string_equal(text, want);
	free(text);

	text = agx_ir_instr_to_string(agx_ir_block_first_instr(agx_ir_function_first_block(f)));
	assert_string_equal(text, "%0:f32 = mov 0.1:f32");
	free(text);
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

/* ---- the validator: one rule each ------------------------------------------------ */

static void test_validate_example(void **state)
{
	struct agx_ir_shader *s = build_example();

	(void)state;
	assert_valid(s);
	agx_ir_shader_destroy(s);
}

static void test_validate_other_function(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b, other;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_function *g = agx_ir_function_create(s, "helper");
	struct agx_ir_value x;

	(void)state;
	agx_builder_init(&other, g);
	x = agx_load_uniform(&other, AGX_IR_TYPE_I32, 0);
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	agx_store_ssbo(&b, x, agx_imm_u32(0), 0);
	/* seen from both functions: a stranger's read, and a use list longer than the reads */
	assert_invalid(s,
		       "main, block 0: `store_ssbo %0, 0:i32, binding=0`: source 0 reads %0, "
		       "which is not defined in this function",
		       2);
}

static void test_validate_removed(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);

	(void)state;
	agx_store_ssbo(&b, x, agx_imm_u32(0), 0);
	agx_ir_instr_remove(x.def->instr);
	assert_invalid(s, "source 0 reads %0, which was removed", 1);
}

static void test_validate_not_dominated(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), y;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	y = agx_iadd(&b, x, x);
	agx_builder_pop_if(&b, nif);
	agx_store_ssbo(&b, y, agx_imm_u32(0), 0); /* y only exists on one arm */
	assert_invalid(s,
		       "main, block 3: `store_ssbo %2, 0:i32, binding=0`: source 0 reads %2, "
		       "defined in block 1, which does not dominate block 3",
		       1);
}

static void test_validate_before_definition(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b, at;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);

	(void)state;
	at = agx_builder_at(agx_ir_cursor_before(x.def->instr));
	agx_store_ssbo(&at, x, agx_imm_u32(0), 0);
	assert_invalid(
	    s, "`store_ssbo %0, 0:i32, binding=0`: source 0 reads %0 before its definition", 1);
}

static void test_validate_phi_dominance(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), y, phi;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	y = agx_iadd(&b, x, x);
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	phi_add(phi, else_block(nif), y); /* y is the then arm's */
	assert_invalid(s,
		       "`%3:i32 = phi [%0, block 1], [%2, block 2]`: source 1 reads %2 at the end "
		       "of block 2, which its block 1 does not dominate",
		       1);
}

static void test_validate_source_type(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_F32, 0);

	(void)state;
	agx_fadd(&b, x, agx_imm_u32(1));
	assert_invalid(s,
		       "`%1:f32 = fadd %0, 1:i32`: source 1 is i32, not a float of 32 bits like "
		       "the instruction's other operands",
		       1);
}

static void test_validate_size_mismatch(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_F32, 0);

	(void)state;
	agx_fmul(&b, x, agx_imm_f16(2.0f));
	assert_invalid(s, "source 1 is f16, not a float of 32 bits", 1);
}

static void test_validate_dest_type(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_F32, 0);

	(void)state;
	agx_f2f16(&b, x).def->type = AGX_IR_TYPE_I16;
	assert_invalid(s, "`%1:i16 = f2f16 %0`: the destination is i16, not f16", 1);
}

static void test_validate_source_count(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_instr *add = agx_ir_instr_create(f, AGX_IR_OP_iadd, 1);

	(void)state;
	add->dest.type = AGX_IR_TYPE_I32;
	agx_ir_src_set(&add->src[0], x);
	agx_ir_instr_insert(agx_ir_cursor_end(agx_ir_function_first_block(f)), add);
	assert_invalid(s, "`%1:i32 = iadd %0`: 1 sources; iadd takes 2", 1);
}

static void test_validate_immediate(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);

	(void)state;
	agx_mov(&b, agx_ir_imm(AGX_IR_TYPE_I16, 0x12345));
	assert_invalid(s, "source 0, an immediate i16, has bits beyond its 16: 0x12345", 1);
}

static void test_validate_phi_count(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), phi;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	assert_invalid(s, "`%2:i32 = phi [%0, block 1]`: 1 sources for the block's 2 predecessors",
		       1);
}

static void test_validate_phi_pred(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), phi;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	phi_add(phi, agx_ir_function_first_block(f), x);
	assert_invalid(s, "source 1 comes from block 0, which is no predecessor", 1);

	s = shader_new(&f, &b);
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	phi_add(phi, then_block(nif), x);
	assert_invalid(s, "sources 0 and 1 both come from block 1", 1);
}

static void test_validate_phi_type(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), phi;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	phi_add(phi, else_block(nif), agx_imm_f32(1.0f));
	assert_invalid(s, "source 1 is f32, not the destination's i32", 1);
}

static void test_validate_phi_position(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), phi;
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_builder_pop_if(&b, nif);
	agx_iadd(&b, x, x);
	phi = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), x);
	phi_add(phi, else_block(nif), x);
	assert_invalid(s,
		       "`%3:i32 = phi [%0, block 1], [%0, block 2]`: a phi after other "
		       "instructions: phis come first in a block",
		       1);
}

static void test_validate_phi_without_preds(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);

	(void)state;
	agx_phi(&b, AGX_IR_TYPE_I32);
	assert_invalid(s, "`%0:i32 = phi`: a phi in a block no edge enters", 1);
}

static void test_validate_break_outside_loop(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_continue(&b); /* an if is no loop */
	agx_builder_pop_if(&b, nif);
	assert_invalid(s, "main, block 1: `continue`: continue outside a loop", 1);
}

static void test_validate_break_not_last(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);

	(void)state;
	agx_break(&b);
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	agx_builder_pop_loop(&b, loop);
	assert_invalid(s, "main, block 1: `break`: break is not last in its block", 1);
}

static void test_validate_if_condition(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, x);

	(void)state;
	agx_builder_pop_if(&b, nif);
	assert_invalid(s, "main, block 0: the condition of the if after it is i32, not b1", 1);
}

static void test_validate_parent_link(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

	(void)state;
	agx_builder_pop_if(&b, nif);
	then_block(nif)->node.list = &nif->else_list;
	assert_invalid(
	    s, "main, block 1: a block in an if's then list has a parent link to another list", 1);
}

static void test_validate_tree_shape(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);

	(void)state;
	agx_builder_pop_loop(&b, loop);
	/* take the loop's only block out: an empty body */
	agx_ir_link_remove(&agx_ir_cf_list_first_block(&loop->body)->node.link);
	assert_invalid(s, "main: a loop's body is empty; it needs a block at least", 1);

	/* or the block after it: the function ends with a loop */
	s = shader_new(&f, &b);
	loop = agx_builder_push_loop(&b);
	agx_builder_pop_loop(&b, loop);
	agx_ir_link_remove(&agx_ir_cf_node_block_after(&loop->node)->node.link);
	assert_invalid(s, "main: the function's body ends with a loop, not a block", 1);
}

static void test_validate_use_list(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_value sum = agx_iadd(&b, x, x);

	(void)state;
	agx_ir_link_remove(&sum.def->instr->src[1].use_link);
	assert_invalid(s,
		       "main, block 0: `%0:i32 = load_uniform offset=0`: %0's use list has 1 "
		       "entries, but 2 sources read it",
		       1);
}

static void test_validate_defined_twice(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);

	(void)state;
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	agx_load_uniform(&b, AGX_IR_TYPE_I32, 4).def->index = 0;
	assert_invalid(s, "`%0:i32 = load_uniform offset=4`: %0 is defined twice", 1);
}

static bool remove_first(struct agx_ir_shader *s)
{
	agx_ir_instr_remove(
	    agx_ir_block_first_instr(agx_ir_function_first_block(agx_ir_shader_first_function(s))));
	return true;
}

/* agx_pass validates after the pass and aborts with the errors and the shader. */
static void test_pass_aborts(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	char out[4096];
	size_t len = 0;
	ssize_t n;
	int pipefd[2], status;
	pid_t pid;

	(void)state;
#ifdef NDEBUG
	agx_ir_shader_destroy(s);
	skip();
#endif
	agx_store_ssbo(&b, x, agx_imm_u32(0), 0);
	assert_int_equal(agx_pass(s, agx_opt_dce), false); /* valid: returns */

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		agx_pass(s, remove_first);
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out, "agx_ir: invalid IR after remove_first:\n"
				    "main, block 0: `store_ssbo %0, 0:i32, binding=0`: source 0 "
				    "reads %0, which was removed\n"
				    "shader compute\n"));
	agx_ir_shader_destroy(s);
}

/* ---- equality ----------------------------------------------------------------- */

static void test_equal_numbering(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b, at;
	struct agx_ir_shader *a = build_example(), *s = build_example_numbered(3);
	struct agx_ir_value x, y, sum;
	char *text_a, *text_s;

	(void)state;
	/* phis, backedges and ifs, numbered three apart */
	text_a = agx_ir_shader_to_string(a);
	text_s = agx_ir_shader_to_string(s);
	assert_string_not_equal(text_a, text_s);
	free(text_a);
	free(text_s);
	assert_equal_ir(a, s);
	assert_equal_ir(s, a);
	agx_ir_shader_destroy(a);
	agx_ir_shader_destroy(s);

	/* defs created out of program order: numbered differently, the same program */
	s = shader_new(&f, &b);
	y = agx_load_uniform(&b, AGX_IR_TYPE_I32, 4);
	at = agx_builder_at(agx_ir_cursor_before(y.def->instr));
	x = agx_load_uniform(&at, AGX_IR_TYPE_I32, 0);
	sum = agx_iadd(&b, x, y);
	agx_store_ssbo(&b, sum, x, 0);
	assert_int_equal(x.def->index, 1);

	a = shader_new(&f, &b);
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	y = agx_load_uniform(&b, AGX_IR_TYPE_I32, 4);
	sum = agx_iadd(&b, x, y);
	agx_store_ssbo(&b, sum, x, 0);
	assert_int_equal(x.def->index, 0);
	assert_equal_ir(s, a);
	assert_equal_ir(a, s);
	agx_ir_shader_destroy(a);
	agx_ir_shader_destroy(s);
}

/*
 * A shader with everything equality compares; `variant` changes one thing.
 */
static struct agx_ir_shader *build_variant(int variant)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value u, a, c, sum, t, lt, ge, e, phi;
	struct agx_ir_if *nif;

	u = agx_load_uniform(&b, variant == 5 ? AGX_IR_TYPE_I32 : AGX_IR_TYPE_F32, 0);
	a = agx_load_ssbo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 0);
	c = agx_load_ssbo(&b, AGX_IR_TYPE_F32, agx_imm_u32(4), variant == 4 ? 1 : 0);
	if (variant == 1)
		sum = agx_fmul(&b, a, c);
	else if (variant == 3)
		sum = agx_fadd(&b, c, a);
	else
		sum = agx_fadd(&b, a, c);
	t = agx_fmul(&b, sum, agx_imm_f32(variant == 2 ? 2.0f : 1.0f));
	lt = agx_flt(&b, t, a);
	ge = agx_fge(&b, t, a);
	if (variant == 7) {
		struct agx_ir_loop *loop = agx_builder_push_loop(&b);

		agx_break(&b);
		agx_builder_pop_loop(&b, loop);
		return s;
	}
	nif = agx_builder_push_if(&b, variant == 9 ? ge : lt);
	e = agx_fadd(&b, t, u);
	agx_builder_pop_if(&b, nif);
	phi = agx_phi(&b, AGX_IR_TYPE_F32);
	phi_add(phi, then_block(nif), e);
	phi_add(phi, else_block(nif), variant == 8 ? sum : t);
	agx_store_ssbo(&b, phi, agx_imm_u32(0), 0);
	if (variant == 6)
		agx_store_ssbo(&b, phi, agx_imm_u32(4), 0);
	return s;
}

static void test_equal_differences(void **state)
{
	static const char *const want[] = {
		[1] = "function main, block 0: `%3:f32 = fadd %1, %2` in the first, "
		      "`%3:f32 = fmul %1, %2` in the second: the ops differ",
		[2] = "function main, block 0: `%4:f32 = fmul %3, 1.0:f32` in the first, "
		      "`%4:f32 = fmul %3, 2.0:f32` in the second: source 1 differs",
		[3] = "`%3:f32 = fadd %1, %2` in the first, `%3:f32 = fadd %2, %1` in the second: "
		      "source 0 differs",
		[4] = "`%2:f32 = load_ssbo 4:i32, binding=0` in the first, "
		      "`%2:f32 = load_ssbo 4:i32, binding=1` in the second: binding differs",
		[5] = "`%0:f32 = load_uniform offset=0` in the first, "
		      "`%0:i32 = load_uniform offset=0` in the second: the destinations' types "
		      "differ",
		[6] = "function main, block 3: nothing in the first, "
		      "`store_ssbo %8, 4:i32, binding=0` in the second: the second's block goes on "
		      "after the other's last instruction",
		[7] = "function main, block 0: after it, the first has an if, the second a loop",
		[8] =
		    "function main, block 3: `%8:f32 = phi [%7, block 1], [%4, block 2]` in the "
		    "first, `%8:f32 = phi [%7, block 1], [%3, block 2]` in the second: the sources "
		    "from block 2 differ",
		[9] = "function main, block 0: the conditions of the ifs after it differ",
	};
	struct agx_ir_shader *base = build_variant(0);

	(void)state;
	for (int v = 1; v <= 9; v++) {
		struct agx_ir_shader *other = build_variant(v);
		char *why = NULL;

		assert_false(agx_ir_equal(base, other, &why));
		assert_non_null(why);
		if (strcmp(why, want[v]) && !strstr(why, want[v]))
			note("variant %d: \"%s\"\n", v, why);
		assert_non_null(strstr(why, want[v]));
		free(why);
		/* and the other way round: still different */
		assert_false(agx_ir_equal(other, base, NULL));
		agx_ir_shader_destroy(other);
	}
	{
		struct agx_ir_shader *same = build_variant(0);

		assert_equal_ir(base, same);
		agx_ir_shader_destroy(same);
	}
	agx_ir_shader_destroy(base);
}

/* ---- dominance ---------------------------------------------------------------- */

static void assert_blocks(struct agx_ir_block *const *got, unsigned n, const unsigned *want,
			  unsigned count)
{
	assert_int_equal(n, count);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(got[i]->index, want[i]);
}

/*
 *   block 0
 *   loop {
 *     block 1
 *     if { block 2: break } else { block 3 }
 *     block 4
 *     if { block 5: continue } else { block 6 }
 *     block 7
 *   }
 *   block 8
 */
static void test_dominance_if_in_loop(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_value c = agx_ieq(&b, x, agx_imm_u32(0));
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);
	struct agx_ir_if *nif = agx_builder_push_if(&b, c);
	struct agx_ir_block *blk[9];
	static const unsigned idom[9] = { 0, 0, 1, 1, 3, 4, 4, 6, 2 };
	static const unsigned preds1[] = { 0, 5, 7 }, succs0[] = { 1 }, succs1[] = { 2, 3 },
			      succs2[] = { 8 }, succs5[] = { 1 }, succs7[] = { 1 };

	(void)state;
	agx_break(&b);
	agx_builder_pop_if(&b, nif);
	nif = agx_builder_push_if(&b, c);
	agx_continue(&b);
	agx_builder_pop_if(&b, nif);
	agx_builder_pop_loop(&b, loop);
	assert_valid(s);

	agx_ir_function_compute_dominance(f);
	for (unsigned i = 0; i < 9; i++)
		blk[i] = block_n(f, i);
	assert_blocks(blk[0]->succs, blk[0]->num_succs, succs0, 1);
	assert_blocks(blk[1]->preds, blk[1]->num_preds, preds1, 3);
	assert_blocks(blk[1]->succs, blk[1]->num_succs, succs1, 2);
	assert_blocks(blk[2]->succs, blk[2]->num_succs, succs2, 1);
	assert_blocks(blk[5]->succs, blk[5]->num_succs, succs5, 1);
	assert_blocks(blk[7]->succs, blk[7]->num_succs, succs7, 1);
	assert_int_equal(blk[8]->num_succs, 0);
	assert_int_equal(blk[8]->num_preds, 1);

	assert_null(blk[0]->idom);
	for (unsigned i = 1; i < 9; i++) {
		assert_true(blk[i]->reachable);
		assert_int_equal(blk[i]->idom->index, idom[i]);
	}
	assert_true(agx_ir_block_dominates(blk[0], blk[8]));
	assert_true(agx_ir_block_dominates(blk[1], blk[7]));
	assert_true(agx_ir_block_dominates(blk[2], blk[8])); /* the only way out is the break */
	assert_false(agx_ir_block_dominates(blk[3], blk[8]));
	assert_true(agx_ir_block_dominates(blk[4], blk[7]));
	assert_false(agx_ir_block_dominates(blk[5], blk[7]));
	assert_false(agx_ir_block_dominates(blk[7], blk[1])); /* backedges do not make dominators */
	assert_true(agx_ir_block_dominates(blk[6], blk[6]));
	assert_int_equal(blk[4]->num_dom_children, 2);
	assert_int_equal(blk[1]->num_dom_children, 2);
	agx_ir_shader_destroy(s);
}

/* After an if whose arms both leave the loop, a block nothing reaches. */
static void test_dominance_unreachable(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&f, &b);
	struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));
	struct agx_ir_block *dead, *head;

	(void)state;
	agx_break(&b);
	agx_builder_push_else(&b, nif);
	agx_continue(&b);
	agx_builder_pop_if(&b, nif);
	agx_iadd(&b, x, x);
	agx_builder_pop_loop(&b, loop);
	assert_valid(s); /* unreachable code is valid */

	agx_ir_function_compute_dominance(f);
	dead = agx_ir_cf_node_block_after(&nif->node);
	head = agx_ir_cf_list_first_block(&loop->body);
	assert_int_equal(dead->num_preds, 0);
	assert_false(dead->reachable);
	assert_null(dead->idom);
	assert_true(agx_ir_block_dominates(then_block(nif), dead)); /* vacuously */
	assert_false(agx_ir_block_dominates(dead, head));
	/* before the loop, the continue, and the dead block's edge: edges follow the tree */
	assert_int_equal(head->num_preds, 3);
	agx_ir_shader_destroy(s);
}

/* ---- agx_opt_dce ------------------------------------------------------------------ */

static void test_dce_nothing(void **state)
{
	struct agx_ir_shader *in = build_example(), *want = build_example();

	(void)state;
	check_pass(in, want, agx_opt_dce, false);
}

/* Unread pure instructions go, unread chains of them too; a load that nothing reads goes. */
static void test_dce_chain(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, d1, d2, live;

	(void)state;
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	d1 = agx_imul(&b, x, agx_imm_u32(3));
	d2 = agx_iadd(&b, d1, d1);
	agx_load_ssbo(&b, AGX_IR_TYPE_I32, d2, 0);
	agx_undef(&b, AGX_IR_TYPE_F32);
	live = agx_iadd(&b, x, agx_imm_u32(1));
	agx_store_ssbo(&b, live, agx_imm_u32(0), 0);

	want = shader_new(&f, &b);
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	live = agx_iadd(&b, x, agx_imm_u32(1));
	agx_store_ssbo(&b, live, agx_imm_u32(0), 0);
	check_pass(in, want, agx_opt_dce, true);
}

/* Side effects, terminators and if conditions keep what they read; dead code in arms goes. */
static void test_dce_effects(void **state)
{
	struct agx_ir_shader *in, *want;
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_value x, c;
	struct agx_ir_loop *loop;
	struct agx_ir_if *nif;

	(void)state;
	for (int expected = 0; expected < 2; expected++) {
		struct agx_ir_shader *s = shader_new(&f, &b);

		x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
		loop = agx_builder_push_loop(&b);
		c = agx_ult(&b, agx_load_ssbo(&b, AGX_IR_TYPE_I32, x, 0), agx_imm_u32(10));
		nif = agx_builder_push_if(&b, c);
		if (!expected)
			agx_ixor(&b, x, x);
		agx_break(&b);
		agx_builder_push_else(&b, nif);
		if (!expected)
			agx_fmul(&b, agx_imm_f32(1.0f), agx_imm_f32(2.0f));
		agx_store_ssbo(&b, x, x, 1);
		agx_builder_pop_if(&b, nif);
		agx_builder_pop_loop(&b, loop);
		if (expected)
			want = s;
		else
			in = s;
	}
	check_pass(in, want, agx_opt_dce, true);
}

/* A loop counter that only feeds itself is dead, phi and all; the one that ends the loop is not. */
static void test_dce_phi_cycle(void **state)
{
	struct agx_ir_shader *in, *want;
	struct agx_ir_function *f;
	struct agx_builder b;

	(void)state;
	for (int expected = 0; expected < 2; expected++) {
		struct agx_ir_shader *s = shader_new(&f, &b);
		struct agx_ir_value i, j = { 0 }, i2, j2 = { 0 };
		struct agx_ir_loop *loop;
		struct agx_ir_if *nif;
		struct agx_ir_block *before;

		agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
		loop = agx_builder_push_loop(&b);
		i = agx_phi(&b, AGX_IR_TYPE_I32);
		if (!expected)
			j = agx_phi(&b, AGX_IR_TYPE_F32);
		nif = agx_builder_push_if(&b, agx_uge(&b, i, agx_imm_u32(8)));
		agx_break(&b);
		agx_builder_pop_if(&b, nif);
		i2 = agx_iadd(&b, i, agx_imm_u32(1));
		if (!expected)
			j2 = agx_fadd(&b, j, agx_imm_f32(0.5f));
		agx_builder_pop_loop(&b, loop);
		before = agx_ir_cf_node_block_before(&loop->node);
		phi_add(i, before, agx_imm_u32(0));
		phi_add(i, agx_ir_cf_list_last_block(&loop->body), i2);
		if (!expected) {
			phi_add(j, before, agx_imm_f32(0.0f));
			phi_add(j, agx_ir_cf_list_last_block(&loop->body), j2);
		}
		if (expected)
			want = s;
		else
			in = s;
	}
	/* the unread load goes too */
	agx_ir_instr_remove(agx_ir_block_first_instr(
	    agx_ir_function_first_block(agx_ir_shader_first_function(want))));
	check_pass(in, want, agx_opt_dce, true);
}

/* A phi nothing reads goes, and what only it read. */
static void test_dce_dead_phi(void **state)
{
	struct agx_ir_shader *in, *want;
	struct agx_ir_function *f;
	struct agx_builder b;

	(void)state;
	for (int expected = 0; expected < 2; expected++) {
		struct agx_ir_shader *s = shader_new(&f, &b);
		struct agx_ir_value x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), y, phi;
		struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ieq(&b, x, agx_imm_u32(0)));

		if (!expected)
			y = agx_imul(&b, x, x);
		agx_store_ssbo(&b, x, x, 0);
		agx_builder_pop_if(&b, nif);
		if (!expected) {
			phi = agx_phi(&b, AGX_IR_TYPE_I32);
			phi_add(phi, then_block(nif), y);
			phi_add(phi, else_block(nif), x);
		}
		if (expected)
			want = s;
		else
			in = s;
	}
	check_pass(in, want, agx_opt_dce, true);
}

/* ---- agx_opt_copy_prop ------------------------------------------------------------ */

static void test_copy_prop_nothing(void **state)
{
	struct agx_ir_shader *in = build_example(), *want = build_example();

	(void)state;
	check_pass(in, want, agx_opt_copy_prop, false);
}

/* A mov of a mov: both readers read the first source; the movs stay, unread. */
static void test_copy_prop_chain(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, m1, m2;

	(void)state;
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	m1 = agx_mov(&b, x);
	m2 = agx_mov(&b, m1);
	agx_store_ssbo(&b, agx_iadd(&b, m2, m1), m2, 0);

	want = shader_new(&f, &b);
	x = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	agx_mov(&b, x);
	agx_mov(&b, x);
	agx_store_ssbo(&b, agx_iadd(&b, x, x), x, 0);
	check_pass(in, want, agx_opt_copy_prop, true);
}

/* A mov of an immediate: its readers read the immediate. */
static void test_copy_prop_immediate(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, m;

	(void)state;
	x = agx_load_uniform(&b, AGX_IR_TYPE_F16, 0);
	m = agx_mov(&b, agx_imm_f16(1.5f));
	agx_store_ssbo(&b, agx_fmul(&b, x, m), agx_imm_u32(0), 0);

	want = shader_new(&f, &b);
	x = agx_load_uniform(&b, AGX_IR_TYPE_F16, 0);
	agx_mov(&b, agx_imm_f16(1.5f));
	agx_store_ssbo(&b, agx_fmul(&b, x, agx_imm_f16(1.5f)), agx_imm_u32(0), 0);
	check_pass(in, want, agx_opt_copy_prop, true);
}

/*
 * Phis and if conditions read through movs too, and a loop's backedge: a
 * mov in the body feeding the header's phi.
 */
static void build_copy_cf(struct agx_builder *b, bool propagated)
{
	struct agx_ir_value x, c, mc, t, mt, phi, i, i2, mi;
	struct agx_ir_if *nif;
	struct agx_ir_loop *loop;

	x = agx_load_uniform(b, AGX_IR_TYPE_I32, 0);
	c = agx_ieq(b, x, agx_imm_u32(3));
	mc = agx_mov(b, c);
	nif = agx_builder_push_if(b, propagated ? c : mc);
	t = agx_ishl(b, x, agx_imm_u32(1));
	mt = agx_mov(b, t);
	agx_builder_pop_if(b, nif);
	phi = agx_phi(b, AGX_IR_TYPE_I32);
	phi_add(phi, then_block(nif), propagated ? t : mt);
	phi_add(phi, else_block(nif), x);

	loop = agx_builder_push_loop(b);
	i = agx_phi(b, AGX_IR_TYPE_I32);
	nif = agx_builder_push_if(b, agx_ige(b, i, phi));
	agx_break(b);
	agx_builder_pop_if(b, nif);
	i2 = agx_iadd(b, i, agx_imm_u32(1));
	mi = agx_mov(b, i2);
	agx_builder_pop_loop(b, loop);
	phi_add(i, agx_ir_cf_node_block_before(&loop->node), agx_imm_u32(0));
	phi_add(i, agx_ir_cf_list_last_block(&loop->body), propagated ? i2 : mi);
	agx_store_ssbo(b, i, agx_imm_u32(0), 0);
}

static void test_copy_prop_cf(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_copy_cf(&b, false);
	want = shader_new(&f, &b);
	build_copy_cf(&b, true);
	check_pass(in, want, agx_opt_copy_prop, true);
}

/* Copy propagation, then DCE: no mov left. */
static void test_copy_prop_then_dce(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_copy_cf(&b, false);
	assert_true(agx_pass(in, agx_opt_copy_prop));
	assert_true(agx_pass(in, agx_opt_dce));
	assert_false(agx_pass(in, agx_opt_copy_prop)); /* the movs are gone */

	want = shader_new(&f, &b);
	build_copy_cf(&b, true);
	agx_ir_foreach_block(f, block) {
		agx_ir_foreach_instr_safe(block, instr) {
			if (instr->op == AGX_IR_OP_mov)
				agx_ir_instr_remove(instr);
		}
	}
	check_pass(in, want, agx_opt_dce, false);
}

/* ---- groups ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	const struct CMUnitTest ir[] = {
		cmocka_unit_test(test_op_table),
		cmocka_unit_test(test_builder_cursor),
		cmocka_unit_test(test_builder_types),
		cmocka_unit_test(test_immediates),
		cmocka_unit_test(test_uses),
		cmocka_unit_test(test_phi_growth),
		cmocka_unit_test(test_cf_insert),
		cmocka_unit_test(test_print_example),
		cmocka_unit_test(test_print_immediates),
		cmocka_unit_test(test_validate_example),
		cmocka_unit_test(test_validate_other_function),
		cmocka_unit_test(test_validate_removed),
		cmocka_unit_test(test_validate_not_dominated),
		cmocka_unit_test(test_validate_before_definition),
		cmocka_unit_test(test_validate_phi_dominance),
		cmocka_unit_test(test_validate_source_type),
		cmocka_unit_test(test_validate_size_mismatch),
		cmocka_unit_test(test_validate_dest_type),
		cmocka_unit_test(test_validate_source_count),
		cmocka_unit_test(test_validate_immediate),
		cmocka_unit_test(test_validate_phi_count),
		cmocka_unit_test(test_validate_phi_pred),
		cmocka_unit_test(test_validate_phi_type),
		cmocka_unit_test(test_validate_phi_position),
		cmocka_unit_test(test_validate_phi_without_preds),
		cmocka_unit_test(test_validate_break_outside_loop),
		cmocka_unit_test(test_validate_break_not_last),
		cmocka_unit_test(test_validate_if_condition),
		cmocka_unit_test(test_validate_parent_link),
		cmocka_unit_test(test_validate_tree_shape),
		cmocka_unit_test(test_validate_use_list),
		cmocka_unit_test(test_validate_defined_twice),
		cmocka_unit_test(test_pass_aborts),
		cmocka_unit_test(test_equal_numbering),
		cmocka_unit_test(test_equal_differences),
		cmocka_unit_test(test_dominance_if_in_loop),
		cmocka_unit_test(test_dominance_unreachable),
	};
	const struct CMUnitTest opt_dce[] = {
		cmocka_unit_test(test_dce_nothing),  cmocka_unit_test(test_dce_chain),
		cmocka_unit_test(test_dce_effects),  cmocka_unit_test(test_dce_phi_cycle),
		cmocka_unit_test(test_dce_dead_phi),
	};
	const struct CMUnitTest opt_copy_prop[] = {
		cmocka_unit_test(test_copy_prop_nothing),   cmocka_unit_test(test_copy_prop_chain),
		cmocka_unit_test(test_copy_prop_immediate), cmocka_unit_test(test_copy_prop_cf),
		cmocka_unit_test(test_copy_prop_then_dce),
	};
	const char *group = argc > 1 ? argv[1] : NULL;
	int failed = 0;

	if (!group || !strcmp(group, "ir"))
		failed += cmocka_run_group_tests_name("ir", ir, NULL, NULL);
	if (!group || !strcmp(group, "opt_dce"))
		failed += cmocka_run_group_tests_name("opt_dce", opt_dce, NULL, NULL);
	if (!group || !strcmp(group, "opt_copy_prop"))
		failed += cmocka_run_group_tests_name("opt_copy_prop", opt_copy_prop, NULL, NULL);
	if (group && strcmp(group, "ir") && strcmp(group, "opt_dce") &&
	    strcmp(group, "opt_copy_prop")) {
		fprintf(stderr, "test-ir: no group %s (ir, opt_dce, opt_copy_prop)\n", group);
		return 2;
	}
	return failed;
}

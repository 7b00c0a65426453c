/*
 * test-lower-cull.c: agx_lower_cull, EXT_clip_cull_distance's cull
 * distances as a vertex output of flags and a fragment kill.  Each test
 * builds a shader and the IR the pass should make of it, runs the pass,
 * checks the vars it declares and compares the IR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "ir-test.h"

static void add_cull_output(struct agx_ir_shader *s, unsigned location, unsigned n)
{
	struct agx_ir_var v = { .kind = AGX_IR_VAR_OUTPUT,
				.name = "agx_CullDistance",
				.glsl_type = "float",
				.type = AGX_IR_TYPE_F32,
				.components = 1,
				.array_size = n,
				.location = location,
				.uniform = -1,
				.slot = -1,
				.size_uniform = -1 };

	agx_ir_shader_add_var(s, &v);
}

static const struct agx_ir_var *var_at(const struct agx_ir_shader *s, enum agx_ir_var_kind kind,
				       unsigned location)
{
	for (unsigned i = 0; i < s->num_vars; i++)
		if (s->vars[i].kind == kind && s->vars[i].location == location)
			return &s->vars[i];
	return NULL;
}

static void assert_flags_var(const struct agx_ir_shader *s, enum agx_ir_var_kind kind, unsigned n)
{
	const struct agx_ir_var *f = var_at(s, kind, AGX_IR_LOCATION_CULL_FLAG);

	assert_non_null(f);
	assert_int_equal(f->array_size, n);
	assert_int_equal(f->components, 1);
	assert_int_equal(f->type, AGX_IR_TYPE_F32);
	assert_int_equal(f->interp, AGX_IR_INTERP_NOPERSPECTIVE);
}

static struct agx_ir_value flag(struct agx_builder *b, struct agx_ir_value d)
{
	return agx_bcsel(b, agx_fge(b, d, agx_imm_f32(0.0f)), agx_imm_f32(1.0f), agx_imm_f32(0.0f));
}

/* Two cull distances at location 3: each store gets its flag's store after it. */
static void test_vertex_flags(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = stage_shader_new(AGX_IR_STAGE_VERTEX, &b), *want;
	struct agx_ir_value x, y;
	bool progress;

	(void)state;
	add_cull_output(in, 3, 2);
	x = agx_load_vertex_id(&b);
	x = agx_u2f(&b, AGX_IR_TYPE_F32, x);
	y = agx_fneg(&b, x);
	agx_store_output(&b, x, AGX_IR_LOCATION_POSITION, 0);
	agx_store_output(&b, x, 3, 0);
	agx_store_output(&b, y, 4, 0);
	want = stage_shader_new(AGX_IR_STAGE_VERTEX, &b);
	x = agx_load_vertex_id(&b);
	x = agx_u2f(&b, AGX_IR_TYPE_F32, x);
	y = agx_fneg(&b, x);
	agx_store_output(&b, x, AGX_IR_LOCATION_POSITION, 0);
	agx_store_output(&b, x, 3, 0);
	agx_store_output(&b, flag(&b, x), AGX_IR_LOCATION_CULL_FLAG, 0);
	agx_store_output(&b, y, 4, 0);
	agx_store_output(&b, flag(&b, y), AGX_IR_LOCATION_CULL_FLAG + 1, 0);
	assert_valid(in);
	progress = agx_pass_options(in, agx_lower_cull, NULL);
	assert_flags_var(in, AGX_IR_VAR_OUTPUT, 2);
	/* a second run adds nothing: the flags are there */
	assert_false(agx_pass_options(in, agx_lower_cull, NULL));
	check_pass_checked(in, want, progress, true);
}

/* Three cull distances in the options: the kill first, where a flag's plane is 0. */
static void test_fragment_kill(void **state)
{
	struct agx_compile_options o = { .num_rts = 1, .cull_distances = 3 };
	struct agx_builder b;
	struct agx_ir_shader *in = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b), *want;
	struct agx_ir_value cull = { 0 };
	bool progress;

	(void)state;
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	want = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b);
	for (unsigned i = 0; i < 3; i++) {
		struct agx_ir_value f =
		    agx_load_input(&b, AGX_IR_TYPE_F32, AGX_IR_LOCATION_CULL_FLAG + i, 0);
		struct agx_ir_value zero = agx_imm_f32(0.0f);
		struct agx_ir_value all = agx_band(&b, agx_feq(&b, f, zero),
						   agx_band(&b, agx_feq(&b, agx_fddx(&b, f), zero),
							    agx_feq(&b, agx_fddy(&b, f), zero)));

		cull = i ? agx_bor(&b, cull, all) : all;
	}
	agx_discard_samples(&b, agx_bcsel(&b, cull, agx_imm_u16(0xff), agx_imm_u16(0)));
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	assert_valid(in);
	progress = agx_pass_options(in, agx_lower_cull, &o);
	assert_flags_var(in, AGX_IR_VAR_INPUT, 3);
	check_pass_checked(in, want, progress, true);
}

/* Nothing to do: a vertex shader without cull distances, a fragment shader told of none. */
static void test_nothing_to_do(void **state)
{
	struct agx_compile_options none = { .num_rts = 1 };
	struct agx_builder b;
	struct agx_ir_shader *in, *want;

	(void)state;
	in = stage_shader_new(AGX_IR_STAGE_VERTEX, &b);
	agx_store_output(&b, agx_imm_f32(1.0f), 3, 0);
	want = stage_shader_new(AGX_IR_STAGE_VERTEX, &b);
	agx_store_output(&b, agx_imm_f32(1.0f), 3, 0);
	check_pass_options(in, want, agx_lower_cull, &none, false);
	in = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	want = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	check_pass_options(in, want, agx_lower_cull, &none, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vertex_flags),
		cmocka_unit_test(test_fragment_kill),
		cmocka_unit_test(test_nothing_to_do),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

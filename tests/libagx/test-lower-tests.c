/*
 * test-lower-tests.c: agx_lower_tests, a fragment shader's colour stores
 * after its late depth and stencil tests.  Each test builds a shader,
 * and the IR the pass should make of it, runs the pass, and compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "ir-test.h"

#define DEPTH AGX_IR_LOCATION_FRAG_DEPTH

static struct agx_ir_shader *stage_shader(struct agx_builder *b, enum agx_ir_stage stage)
{
	return stage_shader_new(stage, b);
}

#define run(in, want, progress) check_pass(in, want, agx_lower_tests, progress)

/* gl_FragDepth stored after the colour: the colour stores move after it, in their order. */
static void test_colour_after_depth(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = stage_shader(&b, AGX_IR_STAGE_FRAGMENT), *want;
	struct agx_ir_value x;

	(void)state;
	x = agx_fadd(&b, agx_load_frag_coord(&b, 0), agx_imm_f32(1.0f));
	agx_store_output(&b, x, 0, 0);
	agx_store_tile_sample(&b, x, 1, 2, 3);
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_store_output(&b, x, 0, 1);
	want = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	x = agx_fadd(&b, agx_load_frag_coord(&b, 0), agx_imm_f32(1.0f));
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_store_output(&b, x, 0, 0);
	agx_store_tile_sample(&b, x, 1, 2, 3);
	agx_store_output(&b, x, 0, 1);
	run(in, want, true);
}

/* A shader that discards: the tests run before its first colour store, once. */
static void test_discard_tests_first(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = stage_shader(&b, AGX_IR_STAGE_FRAGMENT), *want;
	struct agx_ir_value x;

	(void)state;
	x = agx_load_frag_coord(&b, 1);
	agx_discard(&b);
	agx_store_output(&b, x, 0, 0);
	agx_store_output(&b, x, 0, 1);
	want = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	x = agx_load_frag_coord(&b, 1);
	agx_discard(&b);
	agx_test_zs(&b);
	agx_store_output(&b, x, 0, 0);
	agx_store_output(&b, x, 0, 1);
	run(in, want, true);
}

/*
 * Nothing to do: no discard and no depth; depth stored before the colour;
 * a vertex shader's outputs; a discarding shader that stores no colour.
 */
static void test_nothing_to_do(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in, *want;

	(void)state;
	in = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	want = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	run(in, want, false);

	in = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	want = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	run(in, want, false);

	in = stage_shader(&b, AGX_IR_STAGE_VERTEX);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	want = stage_shader(&b, AGX_IR_STAGE_VERTEX);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	run(in, want, false);

	in = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_discard(&b);
	want = stage_shader(&b, AGX_IR_STAGE_FRAGMENT);
	agx_discard(&b);
	run(in, want, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colour_after_depth),
		cmocka_unit_test(test_discard_tests_first),
		cmocka_unit_test(test_nothing_to_do),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test-lower-pixel-order.c: agx_lower_pixel_order, a fragment shader's
 * wait_pix before its first uses of the pixel's tilebuffer and late
 * depth/stencil test, and signal_pix after its last test.  Each test
 * builds a shader and the IR the pass should make of it, runs the pass,
 * and compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "ir-test.h"

#define DEPTH AGX_IR_LOCATION_FRAG_DEPTH
#define F32   AGX_IR_TYPE_F32

static struct agx_ir_shader *frag(struct agx_builder *b)
{
	return stage_shader_new(AGX_IR_STAGE_FRAGMENT, b);
}

#define run(in, want, options, progress)                                                           \
	check_pass_options(in, want, agx_lower_pixel_order, options, progress)

/* x + the target's own component c, stored back: blending's shape. */
static void blend(struct agx_builder *b, struct agx_ir_value x, unsigned c)
{
	agx_store_output(b, agx_fadd(b, x, agx_load_tile(b, F32, 0, c)), 0, c);
}

/* Blending: 0x8 before the first load, then 0x4 (0xc less what was waited) before the first store.
 */
static void test_blend(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value x, d0, d1;

	(void)state;
	x = agx_load_frag_coord(&b, 0);
	blend(&b, x, 0);
	blend(&b, x, 1);
	want = frag(&b);
	x = agx_load_frag_coord(&b, 0);
	agx_wait_pix(&b, 0x8);
	d0 = agx_fadd(&b, x, agx_load_tile(&b, F32, 0, 0));
	agx_wait_pix(&b, 0x4);
	agx_store_output(&b, d0, 0, 0);
	d1 = agx_fadd(&b, x, agx_load_tile(&b, F32, 0, 1));
	agx_store_output(&b, d1, 0, 1);
	run(in, want, NULL, true);
}

/* Stores alone: one wait on 0xc before the first; multisampled stores the same. */
static void test_store(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value x;

	(void)state;
	x = agx_load_frag_coord(&b, 1);
	agx_store_tile_sample(&b, x, 0, 0, 1);
	agx_store_output(&b, x, 0, 1);
	want = frag(&b);
	x = agx_load_frag_coord(&b, 1);
	agx_wait_pix(&b, 0xc);
	agx_store_tile_sample(&b, x, 0, 0, 1);
	agx_store_output(&b, x, 0, 1);
	run(in, want, NULL, true);

	in = frag(&b);
	x = agx_load_tile_sample(&b, F32, 0, 2, 3);
	agx_store_tile_sample(&b, x, 0, 2, 3);
	want = frag(&b);
	agx_wait_pix(&b, 0x8);
	x = agx_load_tile_sample(&b, F32, 0, 2, 3);
	agx_wait_pix(&b, 0x4);
	agx_store_tile_sample(&b, x, 0, 2, 3);
	run(in, want, NULL, true);
}

/*
 * gl_FragDepth: 0x1 before its test (zs_emit), which is released right
 * after it, then 0xc before the colour.
 */
static void test_depth(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value z;

	(void)state;
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	want = frag(&b);
	z = agx_load_frag_coord(&b, 2);
	agx_wait_pix(&b, 0x1);
	agx_store_output(&b, z, DEPTH, 0);
	agx_signal_pix(&b, 0x1);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	run(in, want, NULL, true);
}

/*
 * A discard in an if needs no wait (it only kills); the test before the
 * colour (agx_lower_tests) waits on 0x1 and releases it.
 */
static void test_discard(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value x;
	struct agx_ir_if *nif;

	(void)state;
	x = agx_load_frag_coord(&b, 0);
	nif = agx_builder_push_if(&b, agx_flt(&b, x, agx_imm_f32(4.0f)));
	agx_discard(&b);
	agx_builder_pop_if(&b, nif);
	agx_discard_samples(&b, agx_imm_u16(2));
	agx_test_zs(&b);
	agx_store_output(&b, x, 0, 0);
	want = frag(&b);
	x = agx_load_frag_coord(&b, 0);
	nif = agx_builder_push_if(&b, agx_flt(&b, x, agx_imm_f32(4.0f)));
	agx_discard(&b);
	agx_builder_pop_if(&b, nif);
	agx_discard_samples(&b, agx_imm_u16(2));
	agx_wait_pix(&b, 0x1);
	agx_test_zs(&b);
	agx_signal_pix(&b, 0x1);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, x, 0, 0);
	run(in, want, NULL, true);
}

/*
 * In control flow every use waits, as a wait there is not on every path
 * after it; a test inside an if is not released early.
 */
static void test_control_flow(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value x, c;
	struct agx_ir_if *nif;

	(void)state;
	x = agx_load_frag_coord(&b, 0);
	c = agx_flt(&b, x, agx_imm_f32(4.0f));
	nif = agx_builder_push_if(&b, c);
	agx_test_zs(&b);
	agx_store_output(&b, x, 0, 0);
	agx_builder_push_else(&b, nif);
	agx_store_output(&b, x, 0, 1);
	agx_builder_pop_if(&b, nif);
	agx_store_output(&b, x, 0, 2);
	agx_store_output(&b, x, 0, 3);
	want = frag(&b);
	x = agx_load_frag_coord(&b, 0);
	c = agx_flt(&b, x, agx_imm_f32(4.0f));
	nif = agx_builder_push_if(&b, c);
	agx_wait_pix(&b, 0x1);
	agx_test_zs(&b);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, x, 0, 0);
	agx_builder_push_else(&b, nif);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, x, 0, 1);
	agx_builder_pop_if(&b, nif);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, x, 0, 2);
	agx_store_output(&b, x, 0, 3);
	run(in, want, NULL, true);
}

/*
 * The targets decide: stores that reach none (an empty slot, past
 * num_rts, a component the target lacks) wait on nothing; a spilled
 * target's store is also a test (selection settles coverage before its
 * image_write at the block's end), so the test before it is not released.
 */
static void test_targets(void **state)
{
	struct agx_compile_options o = { .num_rts = 3 };
	struct agx_builder b;
	struct agx_ir_shader *in = frag(&b), *want;
	struct agx_ir_value x;

	(void)state;
	o.rt[1].none = true;
	o.rt[0].components = 2;
	o.rt[2].spilled = true;
	x = agx_load_frag_coord(&b, 0);
	agx_store_output(&b, x, 1, 0);
	agx_store_output(&b, x, 4, 0);
	agx_store_output(&b, x, 0, 3);
	agx_store_output(&b, x, AGX_IR_LOCATION_DUAL_SOURCE, 0);
	agx_store_output(&b, x, 0, 1);
	want = frag(&b);
	x = agx_load_frag_coord(&b, 0);
	agx_store_output(&b, x, 1, 0);
	agx_store_output(&b, x, 4, 0);
	agx_store_output(&b, x, 0, 3);
	agx_store_output(&b, x, AGX_IR_LOCATION_DUAL_SOURCE, 0);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, x, 0, 1);
	run(in, want, &o, true);

	in = frag(&b);
	agx_test_zs(&b);
	x = agx_load_tile(&b, F32, 2, 0);
	agx_store_output(&b, x, 2, 0);
	want = frag(&b);
	agx_wait_pix(&b, 0x1);
	agx_test_zs(&b);
	agx_wait_pix(&b, 0x8);
	x = agx_load_tile(&b, F32, 2, 0);
	agx_wait_pix(&b, 0x4);
	agx_store_output(&b, x, 2, 0);
	run(in, want, &o, true);
}

/*
 * Nothing to do: a vertex shader's outputs, a fragment shader that only
 * discards or stores nothing, and a second run over fenced code.
 */
static void test_nothing_to_do(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in, *want;

	(void)state;
	in = stage_shader_new(AGX_IR_STAGE_VERTEX, &b);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	want = stage_shader_new(AGX_IR_STAGE_VERTEX, &b);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	run(in, want, NULL, false);

	in = frag(&b);
	agx_discard(&b);
	want = frag(&b);
	agx_discard(&b);
	run(in, want, NULL, false);

	in = frag(&b);
	agx_wait_pix(&b, 0x1);
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_signal_pix(&b, 0x1);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	want = frag(&b);
	agx_wait_pix(&b, 0x1);
	agx_store_output(&b, agx_load_frag_coord(&b, 2), DEPTH, 0);
	agx_signal_pix(&b, 0x1);
	agx_wait_pix(&b, 0xc);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 0);
	run(in, want, NULL, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blend),	      cmocka_unit_test(test_store),
		cmocka_unit_test(test_depth),	      cmocka_unit_test(test_discard),
		cmocka_unit_test(test_control_flow),  cmocka_unit_test(test_targets),
		cmocka_unit_test(test_nothing_to_do),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

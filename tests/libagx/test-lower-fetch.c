/*
 * test-lower-fetch.c: agx_lower_fetch, framebuffer fetch's load_framebuffer
 * onto load_tile.  Each test builds a fragment shader that fetches and
 * stores, and the IR the pass should make of it under some render
 * targets, runs the pass, and compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "ir-test.h"

static struct agx_ir_shader *fragment_new(struct agx_builder *b)
{
	return stage_shader_new(AGX_IR_STAGE_FRAGMENT, b);
}

#define run(in, want, o, progress) check_pass_options(in, want, agx_lower_fetch, o, progress)

/* A float target of four components: each component its load_tile, the stores as they were. */
static void test_fetch_float(void **state)
{
	struct agx_compile_options o = { .num_rts = 1 };
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;

	(void)state;
	o.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
	for (unsigned c = 0; c < 4; c++) {
		struct agx_ir_value v = agx_load_framebuffer(&b, AGX_IR_TYPE_F32, 0, c);

		agx_store_output(&b, agx_fadd(&b, v, agx_imm_f32(0.5f)), 0, c);
	}
	want = fragment_new(&b);
	for (unsigned c = 0; c < 4; c++) {
		struct agx_ir_value v = agx_load_tile(&b, AGX_IR_TYPE_F32, 0, c);

		agx_store_output(&b, agx_fadd(&b, v, agx_imm_f32(0.5f)), 0, c);
	}
	run(in, want, &o, true);
}

/*
 * A 16-bit output: the 32-bit load_tile converted, float and integer; an
 * integer output reads its target's integers.
 */
static void test_fetch_16bit_and_integer(void **state)
{
	struct agx_compile_options o = { .num_rts = 2 };
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;

	(void)state;
	o.rt[0].format = AGX_ISA_MEMFORMAT_F16;
	o.rt[0].type = AGX_RT_FLOAT;
	o.rt[1].format = AGX_ISA_MEMFORMAT_I8;
	o.rt[1].type = AGX_RT_SINT;
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_F16, 0, 1), 0, 1);
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_I32, 1, 0), 1, 0);
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_I16, 1, 2), 1, 2);
	want = fragment_new(&b);
	agx_store_output(&b, agx_f2f16(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 1)), 0, 1);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_I32, 1, 0), 1, 0);
	agx_store_output(&b, agx_i2i16(&b, agx_load_tile(&b, AGX_IR_TYPE_I32, 1, 2)), 1, 2);
	run(in, want, &o, true);
}

/*
 * What no target holds: a component past the target's reads 0, alpha 1
 * (a colour of fewer components); a location without a target (none, past
 * num_rts) reads 0.
 */
static void test_fetch_missing(void **state)
{
	struct agx_compile_options o = { .num_rts = 2 };
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;

	(void)state;
	o.rt[0].format = AGX_ISA_MEMFORMAT_U8NORM;
	o.rt[0].components = 2;
	o.rt[1].none = true;
	for (unsigned c = 0; c < 4; c++)
		agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_F32, 0, c), 0, c);
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_F32, 1, 3), 1, 3);
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_I32, 2, 0), 2, 0);
	want = fragment_new(&b);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 0), 0, 0);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 1), 0, 1);
	agx_store_output(&b, agx_imm_f32(0.0f), 0, 2);
	agx_store_output(&b, agx_imm_f32(1.0f), 0, 3);
	agx_store_output(&b, agx_imm_f32(0.0f), 1, 3);
	agx_store_output(&b, agx_imm_u32(0), 2, 0);
	run(in, want, &o, true);
}

/* No targets in the options is one target at location 0; nothing to fetch is no progress. */
static void test_fetch_defaults(void **state)
{
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;

	(void)state;
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_F32, 0, 3), 0, 3);
	agx_store_output(&b, agx_load_framebuffer(&b, AGX_IR_TYPE_F32, 1, 0), 1, 0);
	want = fragment_new(&b);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 3), 0, 3);
	agx_store_output(&b, agx_imm_f32(0.0f), 1, 0);
	run(in, want, NULL, true);

	in = fragment_new(&b);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 0), 0, 0);
	want = fragment_new(&b);
	agx_store_output(&b, agx_load_tile(&b, AGX_IR_TYPE_F32, 0, 0), 0, 0);
	run(in, want, NULL, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fetch_float),
		cmocka_unit_test(test_fetch_16bit_and_integer),
		cmocka_unit_test(test_fetch_missing),
		cmocka_unit_test(test_fetch_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test-lower-coverage.c: agx_lower_coverage, GL's alpha to coverage and
 * glSampleCoverage's mask as discard_samples.  Each test builds a
 * fragment shader, and the IR the pass should make of it under some
 * options, runs the pass, and compares.
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

#define run(in, want, o, progress) check_pass_options(in, want, agx_lower_coverage, o, progress)

/* The kept samples of 4 for alpha a: s kept where s / 4 < a. */
static struct agx_ir_value alpha_mask(struct agx_builder *b, struct agx_ir_value a)
{
	struct agx_ir_value keep = agx_imm_u32(0);

	for (unsigned s = 0; s < 4; s++)
		keep = agx_ior(b, keep,
			       agx_bcsel(b, agx_flt(b, agx_imm_f32((float)s / 4), a),
					 agx_imm_u32(1u << s), agx_imm_u32(0)));
	return keep;
}

/*
 * Alpha to coverage and a mask, 4 samples: the kill at the alpha store,
 * the colour stores before it (red, green) moved after the kill.
 */
static void test_alpha_and_mask(void **state)
{
	struct agx_compile_options o = { .num_rts = 1,
					 .samples = 4,
					 .alpha_to_coverage = true,
					 .sample_coverage = true,
					 .sample_coverage_mask = 0x6 };
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;
	struct agx_ir_value x, a, keep;

	(void)state;
	x = agx_load_frag_coord(&b, 0);
	a = agx_load_frag_coord(&b, 1);
	agx_store_output(&b, x, 0, 0);
	agx_store_output(&b, x, 0, 1);
	agx_store_output(&b, a, 0, 3);
	want = fragment_new(&b);
	x = agx_load_frag_coord(&b, 0);
	a = agx_load_frag_coord(&b, 1);
	keep = agx_iand(&b, alpha_mask(&b, a), agx_imm_u32(0x6));
	agx_discard_samples(&b, agx_i2i16(&b, agx_ixor(&b, keep, agx_imm_u32(0xf))));
	agx_store_output(&b, x, 0, 0);
	agx_store_output(&b, x, 0, 1);
	agx_store_output(&b, a, 0, 3);
	run(in, want, &o, true);
}

/* glSampleCoverage alone, 2 samples, a shader with no alpha: the mask at the first store. */
static void test_mask_only(void **state)
{
	struct agx_compile_options o = {
		.num_rts = 1, .samples = 2, .sample_coverage = true, .sample_coverage_mask = 0x1
	};
	struct agx_builder b;
	struct agx_ir_shader *in = fragment_new(&b), *want;

	(void)state;
	agx_store_output(&b, agx_load_frag_coord(&b, 0), 0, 0);
	want = fragment_new(&b);
	{
		struct agx_ir_value x = agx_load_frag_coord(&b, 0);

		agx_discard_samples(
		    &b, agx_i2i16(&b, agx_ixor(&b, agx_iand(&b, agx_imm_u32(0x3), agx_imm_u32(0x1)),
					       agx_imm_u32(0x3))));
		agx_store_output(&b, x, 0, 0);
	}
	run(in, want, &o, true);
}

/* Nothing to do: one sample, or neither operation asked for. */
static void test_nothing_to_do(void **state)
{
	struct agx_compile_options single = { .num_rts = 1, .alpha_to_coverage = true },
				   none = { .num_rts = 1, .samples = 4 };
	struct agx_builder b;
	struct agx_ir_shader *in, *want;

	(void)state;
	in = fragment_new(&b);
	agx_store_output(&b, agx_load_frag_coord(&b, 1), 0, 3);
	want = fragment_new(&b);
	agx_store_output(&b, agx_load_frag_coord(&b, 1), 0, 3);
	run(in, want, &single, false);
	in = fragment_new(&b);
	agx_store_output(&b, agx_load_frag_coord(&b, 1), 0, 3);
	want = fragment_new(&b);
	agx_store_output(&b, agx_load_frag_coord(&b, 1), 0, 3);
	run(in, want, &none, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alpha_and_mask),
		cmocka_unit_test(test_mask_only),
		cmocka_unit_test(test_nothing_to_do),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

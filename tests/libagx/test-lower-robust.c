/*
 * test-lower-robust.c: agx_lower_robust, robust buffer access's bounds on
 * uniform block reads and vertex attribute fetches.  Each test builds a
 * shader that reads, and the IR the pass should make of it, runs the pass
 * and compares; the vars the pass marks for agx_lower_io (sized) are
 * checked on a second copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx/compiler.h"
#include "ir-test.h"

#define run(in, want, o, progress) check_pass_options(in, want, agx_lower_robust, o, progress)

static unsigned add_ubo(struct agx_ir_shader *s, const char *name, unsigned binding)
{
	struct agx_ir_var var = {
		.kind = AGX_IR_VAR_UBO,
		.name = name,
		.glsl_type = name,
		.binding = binding,
		.size = 64,
		.uniform = -1,
		.slot = -1,
		.size_uniform = -1,
	};

	return agx_ir_shader_add_var(s, &var);
}

static unsigned add_input(struct agx_ir_shader *s, const char *name, const char *glsl_type,
			  enum agx_ir_type type, unsigned components, unsigned location)
{
	struct agx_ir_var var = {
		.kind = AGX_IR_VAR_INPUT,
		.name = name,
		.glsl_type = glsl_type,
		.type = type,
		.components = components,
		.location = location,
		.uniform = -1,
		.slot = -1,
		.size_uniform = -1,
	};

	return agx_ir_shader_add_var(s, &var);
}

/* A fragment shader reading block "B" at binding 1: one var, the same in every copy. */
static struct agx_ir_shader *ubo_shader(struct agx_builder *b)
{
	struct agx_ir_shader *s = stage_shader_new(AGX_IR_STAGE_FRAGMENT, b);

	add_ubo(s, "B", 1);
	return s;
}

/*
 * The bounded read the pass makes of load_ubo: in range when the last
 * byte's offset is below the bound size, the read moved to offset 0 and
 * its value replaced by zero when not.
 */
static struct agx_ir_value bounded_ubo(struct agx_builder *b, enum agx_ir_type type,
				       struct agx_ir_value offset, struct agx_ir_value end,
				       struct agx_ir_value zero)
{
	struct agx_ir_value size = agx_load_ubo_size(b, 1);
	struct agx_ir_value in = agx_ult(b, end, size);
	struct agx_ir_value safe = agx_bcsel(b, in, offset, agx_imm_u32(0));
	struct agx_ir_value v = agx_load_ubo(b, type, safe, 1);

	return agx_bcsel(b, in, v, zero);
}

/*
 * A dynamically indexed vec4 array's word (offset 16 * i + 4) and a
 * 16-bit member at a constant offset: each read bounded by the bound
 * size, the constant's last byte folded.
 */
static void test_robust_ubo(void **state)
{
	struct agx_compile_options o = { .robust_access = true };
	struct agx_builder b;
	struct agx_ir_shader *in = ubo_shader(&b), *want;
	struct agx_ir_value i, off, end;

	(void)state;
	i = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	off = agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(16)), agx_imm_u32(4));
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, off, 1), 0, 0);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F16, agx_imm_u32(6), 1), 0, 1);

	want = ubo_shader(&b);
	i = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	off = agx_iadd(&b, agx_imul(&b, i, agx_imm_u32(16)), agx_imm_u32(4));
	end = agx_iadd(&b, off, agx_imm_u32(3));
	agx_store_output(&b, bounded_ubo(&b, AGX_IR_TYPE_F32, off, end, agx_imm_f32(0.0f)), 0, 0);
	agx_store_output(
	    &b, bounded_ubo(&b, AGX_IR_TYPE_F16, agx_imm_u32(6), agx_imm_u32(7), agx_imm_f16(0.0f)),
	    0, 1);
	run(in, want, &o, true);
}

/*
 * What the pass made is left as it is by a second run; a binding no
 * block var covers is not the pass's (agx_lower_io leaves it for
 * selection to refuse); without robust_access nothing changes.
 */
static void test_robust_ubo_again_and_off(void **state)
{
	struct agx_compile_options o = { .robust_access = true }, off_o = { 0 };
	struct agx_builder b;
	struct agx_ir_shader *in = ubo_shader(&b), *want;
	struct agx_ir_value v;

	(void)state;
	v = bounded_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(8), agx_imm_u32(11), agx_imm_u32(0));
	agx_store_output(&b, v, 0, 0);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 5), 0, 1);
	want = ubo_shader(&b);
	v = bounded_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(8), agx_imm_u32(11), agx_imm_u32(0));
	agx_store_output(&b, v, 0, 0);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 5), 0, 1);
	run(in, want, &o, false);

	in = ubo_shader(&b);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 1), 0, 0);
	want = ubo_shader(&b);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 1), 0, 0);
	run(in, want, &off_o, false);

	in = ubo_shader(&b);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 1), 0, 0);
	want = ubo_shader(&b);
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 1), 0, 0);
	run(in, want, NULL, false);
}

/* The pass marks the block var it bounded sized, so that agx_lower_io gives it a register. */
static void test_robust_ubo_marks_sized(void **state)
{
	struct agx_compile_options o = { .robust_access = true };
	struct agx_builder b;
	struct agx_ir_shader *s = ubo_shader(&b);
	unsigned other = add_ubo(s, "C", 2);

	(void)state;
	agx_store_output(&b, agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 1), 0, 0);
	assert_true(agx_pass_options(s, agx_lower_robust, &o));
	assert_true(s->vars[0].sized);
	assert_false(s->vars[other].sized); /* never read */
	agx_ir_shader_destroy(s);
}

/*
 * A vertex shader: a vec2 float array at location 0 (read as a vec4:
 * components 2 and 3 are the constants 0 and 1 whatever the element, so
 * they stay load_input), an instanced array of divisor 3 at location 1,
 * and an integer one at location 2.
 */
static struct agx_ir_shader *vertex_shader(struct agx_builder *b)
{
	struct agx_ir_shader *s = stage_shader_new(AGX_IR_STAGE_VERTEX, b);

	add_input(s, "p", "vec4", AGX_IR_TYPE_F32, 4, 0);
	add_input(s, "c", "vec4", AGX_IR_TYPE_F32, 4, 1);
	add_input(s, "n", "uint", AGX_IR_TYPE_I32, 1, 2);
	return s;
}

static void vertex_options(struct agx_compile_options *o)
{
	memset(o, 0, sizeof(*o));
	o->robust_access = true;
	o->attribs[0] = (struct agx_vertex_attrib){ .type = AGX_VERTEX_FLOAT, .size = 2 };
	o->attribs[1] = (struct agx_vertex_attrib){
		.type = AGX_VERTEX_UNSIGNED_BYTE, .size = 4, .normalized = true, .divisor = 3
	};
	o->attribs[2] = (struct agx_vertex_attrib){ .type = AGX_VERTEX_UNSIGNED_INT,
						    .size = 1,
						    .integer = true };
}

static struct agx_ir_value bounded_attrib(struct agx_builder *b, enum agx_ir_type type,
					  unsigned loc, unsigned c, unsigned divisor)
{
	struct agx_ir_value e = divisor ? agx_udiv(b, agx_load_instance_id(b), agx_imm_u32(divisor))
					: agx_load_vertex_id(b);
	struct agx_ir_value limit = agx_load_attrib_limit(b, loc);
	struct agx_ir_value in = agx_ult(b, e, limit);
	struct agx_ir_value safe = agx_bcsel(b, in, e, agx_imm_u32(0));
	struct agx_ir_value x = agx_load_attrib(b, type, safe, loc, c);

	return agx_bcsel(b, in, x, type == AGX_IR_TYPE_F32 ? agx_imm_f32(0.0f) : agx_imm_u32(0));
}

static void test_robust_attribs(void **state)
{
	struct agx_compile_options o;
	struct agx_builder b;
	struct agx_ir_shader *in = vertex_shader(&b), *want;

	(void)state;
	vertex_options(&o);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 1), AGX_IR_LOCATION_POSITION,
			 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 3), AGX_IR_LOCATION_POSITION,
			 1);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 1, 2), 1, 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_I32, 2, 0), 2, 0);

	want = vertex_shader(&b);
	agx_store_output(&b, bounded_attrib(&b, AGX_IR_TYPE_F32, 0, 1, 0), AGX_IR_LOCATION_POSITION,
			 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 3), AGX_IR_LOCATION_POSITION,
			 1);
	agx_store_output(&b, bounded_attrib(&b, AGX_IR_TYPE_F32, 1, 2, 3), 1, 0);
	agx_store_output(&b, bounded_attrib(&b, AGX_IR_TYPE_I32, 2, 0, 0), 2, 0);
	run(in, want, &o, true);
}

/*
 * Only what an attribute array holds is bounded: a location with no
 * input var, a fragment shader's inputs (varyings) and the constant
 * components are not; the vars bounded are marked sized.
 */
static void test_robust_attribs_not_bounded(void **state)
{
	struct agx_compile_options o;
	struct agx_builder b;
	struct agx_ir_shader *in = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b), *want, *s;

	(void)state;
	vertex_options(&o);
	add_input(in, "v", "vec4", AGX_IR_TYPE_F32, 4, 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 0), 0, 0);
	want = stage_shader_new(AGX_IR_STAGE_FRAGMENT, &b);
	add_input(want, "v", "vec4", AGX_IR_TYPE_F32, 4, 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 0), 0, 0);
	run(in, want, &o, false);

	in = vertex_shader(&b);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 2), 1, 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 7, 0), 1, 1);
	want = vertex_shader(&b);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 0, 2), 1, 0);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 7, 0), 1, 1);
	run(in, want, &o, false);

	s = vertex_shader(&b);
	agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 1, 0), 1, 0);
	assert_true(agx_pass_options(s, agx_lower_robust, &o));
	assert_false(s->vars[0].sized);
	assert_true(s->vars[1].sized);
	assert_false(s->vars[2].sized);
	agx_ir_shader_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust_ubo),
		cmocka_unit_test(test_robust_ubo_again_and_off),
		cmocka_unit_test(test_robust_ubo_marks_sized),
		cmocka_unit_test(test_robust_attribs),
		cmocka_unit_test(test_robust_attribs_not_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

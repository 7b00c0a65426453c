/*
 * test-lower-io.c: agx_lower_io's uniform-register ABI and its rewrites.
 * Each test builds a shader with its vars and the IR it should become,
 * runs the pass, compares the IR, and checks the placements it recorded
 * (var.uniform, the shader's fields) against docs/compiler.md's table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-test.h"

static unsigned add_var(struct agx_ir_shader *s, enum agx_ir_var_kind kind, const char *name,
			unsigned binding, unsigned array_size)
{
	struct agx_ir_var var = {
		.kind = kind,
		.name = name,
		.glsl_type = name,
		.binding = binding,
		.array_size = array_size,
		.uniform = 1234, /* whatever it held: the pass sets it */
	};

	return agx_ir_shader_add_var(s, &var);
}

static unsigned add_uniform(struct agx_ir_shader *s, const char *name, unsigned offset,
			    unsigned components)
{
	struct agx_ir_var var = {
		.kind = AGX_IR_VAR_UNIFORM,
		.name = name,
		.glsl_type = components == 1 ? "float" : "vec4",
		.type = AGX_IR_TYPE_F32,
		.components = components,
		.offset = offset,
		.size = 4 * components,
		.uniform = 1234,
	};

	return agx_ir_shader_add_var(s, &var);
}

/* Runs the pass on in, expects want and progress; destroys want, keeps in for the caller. */
static void run(struct agx_ir_shader *in, struct agx_ir_shader *want, bool progress)
{
	assert_valid(in);
	assert_valid(want);
	assert_int_equal(agx_pass(in, agx_lower_io), progress);
	assert_equal_ir(in, want);
	agx_ir_shader_destroy(want);
}

static void assert_placements(struct agx_ir_shader *s, unsigned num_uniforms, int num_workgroups,
			      int uniform_block)
{
	assert_int_equal(s->num_uniforms, num_uniforms);
	assert_int_equal(s->num_workgroups_uniform, num_workgroups);
	assert_int_equal(s->uniform_block_uniform, uniform_block);
}

/* Nothing to place or rewrite: shared memory, system values, graphics I/O stay. */
static void build_untouched(struct agx_builder *b)
{
	struct agx_ir_value id = agx_load_global_id(b, 0);
	struct agx_ir_value x =
	    agx_load_shared(b, AGX_IR_TYPE_F32, agx_ishl(b, id, agx_imm_u32(2)));

	agx_store_shared(b, x, agx_imm_u32(0));
	agx_atomic_shared(b, agx_imm_u32(4), id, 0);
	agx_store_output(b, agx_load_input(b, AGX_IR_TYPE_F32, 1, 2), 0, 1);
}

static void test_io_nothing(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	build_untouched(&b);
	add_var(in, AGX_IR_VAR_SHARED, "tmp", 0, 0);
	want = shader_new(&f, &b);
	build_untouched(&b);
	run(in, want, false);
	assert_placements(in, 0, -1, -1);
	assert_int_equal(in->vars[0].uniform, 1234); /* not ours: left alone */
	agx_ir_shader_destroy(in);
}

/*
 * UBOs and SSBOs at several bindings, in the vars' order: a pair each from
 * u0, low word first; each op names the pair of its binding (UBO and SSBO
 * bindings are apart), with its byte address in 32-bit words, or 16-bit
 * items for 16-bit values.  Immediate addresses are folded.
 */
static void test_io_buffers(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value id, addr, u0, u1, s2, h, sum;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 0, 0);
	add_var(in, AGX_IR_VAR_UBO, "Params", 1, 0);
	add_var(in, AGX_IR_VAR_SAMPLER, "tex", 0, 0);
	add_var(in, AGX_IR_VAR_SSBO, "In", 2, 0);
	add_var(in, AGX_IR_VAR_UBO, "Consts", 0, 0);
	id = agx_load_global_id(&b, 0);
	addr = agx_ishl(&b, id, agx_imm_u32(2));
	u0 = agx_load_ubo(&b, AGX_IR_TYPE_F32, addr, 0);
	u1 = agx_load_ubo(&b, AGX_IR_TYPE_F32, agx_imm_u32(16), 1);
	s2 = agx_load_ssbo(&b, AGX_IR_TYPE_F32, addr, 2);
	h = agx_load_ssbo(&b, AGX_IR_TYPE_I16, agx_imm_u32(6), 2);
	sum = agx_fadd(&b, agx_fadd(&b, u0, u1), s2);
	agx_store_ssbo(&b, sum, addr, 0);
	agx_store_ssbo(&b, h, agx_imm_u32(2), 0);

	want = shader_new(&f, &b);
	id = agx_load_global_id(&b, 0);
	addr = agx_ishl(&b, id, agx_imm_u32(2));
	u0 = agx_load_global_const(&b, AGX_IR_TYPE_F32, agx_ushr(&b, addr, agx_imm_u32(2)), 6);
	u1 = agx_load_global_const(&b, AGX_IR_TYPE_F32, agx_imm_u32(4), 2);
	s2 = agx_load_global(&b, AGX_IR_TYPE_F32, agx_ushr(&b, addr, agx_imm_u32(2)), 4);
	h = agx_load_global(&b, AGX_IR_TYPE_I16, agx_imm_u32(3), 4);
	sum = agx_fadd(&b, agx_fadd(&b, u0, u1), s2);
	agx_store_global(&b, sum, agx_ushr(&b, addr, agx_imm_u32(2)), 0);
	agx_store_global(&b, h, agx_imm_u32(1), 0);
	run(in, want, true);

	assert_placements(in, 8, -1, -1);
	assert_int_equal(in->vars[0].uniform, 0);
	assert_int_equal(in->vars[1].uniform, 2);
	assert_int_equal(in->vars[2].uniform, -1); /* a sampler textureSize does not read */
	assert_int_equal(in->vars[3].uniform, 4);
	assert_int_equal(in->vars[4].uniform, 6);
	agx_ir_shader_destroy(in);
}

/*
 * textureSize: three words (width, height, depth or layers) per element of
 * the samplers it reads, after the blocks; minified by the level, except
 * an array's layer count.  A sampler it does not read gets none.
 */
static void test_io_texture_size(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value lod, w, layers, x;
	unsigned arr, other;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 0, 0);
	other = add_var(in, AGX_IR_VAR_SAMPLER, "t", 0, 0);
	arr = add_var(in, AGX_IR_VAR_SAMPLER, "a", 0, 2);
	in->vars[other].slot = 0;
	in->vars[arr].slot = 1;
	lod = agx_load_global_id(&b, 0);
	w = agx_texture_size(&b, lod, 2, 3, 0);	     /* a[1].x */
	layers = agx_texture_size(&b, lod, 2, 3, 2); /* a[1]'s layers */
	agx_store_ssbo(&b, agx_iadd(&b, w, layers), agx_imm_u32(0), 0);

	want = shader_new(&f, &b);
	lod = agx_load_global_id(&b, 0);
	x = agx_umax(&b, agx_ushr(&b, agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2 + 3 + 0), lod),
		     agx_imm_u32(1));
	layers = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2 + 3 + 2);
	agx_store_global(&b, agx_iadd(&b, x, layers), agx_imm_u32(0), 0);
	run(in, want, true);

	assert_placements(in, 2 + 6, -1, -1);
	assert_int_equal(in->vars[other].uniform, -1);
	assert_int_equal(in->vars[arr].uniform, 2);
	/* the sampler's units stay: lowering places graphics I/O, not them */
	assert_int_equal(in->vars[arr].slot, 1);
	/* a second run keeps the placement, though no texture_size is left */
	assert_false(agx_pass(in, agx_lower_io));
	assert_int_equal(in->vars[arr].uniform, 2);
	agx_ir_shader_destroy(in);
}

/*
 * .length()'s sizes: one register per element of each storage block the
 * translator marked sized, after the blocks' pairs; the others get none.
 */
static void test_io_ssbo_size(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	unsigned sized, plain;

	(void)state;
	sized = add_var(in, AGX_IR_VAR_SSBO, "A", 0, 2);
	plain = add_var(in, AGX_IR_VAR_SSBO, "B", 5, 0);
	in->vars[sized].sized = true;
	agx_store_ssbo(&b, agx_load_ssbo_size(&b, 1), agx_imm_u32(0), 5);

	want = shader_new(&f, &b);
	agx_store_global(&b, agx_uniform_reg(&b, AGX_IR_TYPE_I32, 6 + 1), agx_imm_u32(0), 4);
	run(in, want, true);

	assert_placements(in, 8, -1, -1);
	assert_int_equal(in->vars[sized].uniform, 0);
	assert_int_equal(in->vars[plain].uniform, 4);
	assert_int_equal(in->vars[sized].size_uniform, 6);
	assert_false(agx_pass(in, agx_lower_io));
	agx_ir_shader_destroy(in);
}

/* An array of blocks: a pair per element, bindings binding .. binding + n - 1. */
static void test_io_block_array(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	add_var(in, AGX_IR_VAR_UBO, "U", 0, 0);
	add_var(in, AGX_IR_VAR_SSBO, "Bufs", 1, 3);
	add_var(in, AGX_IR_VAR_SSBO, "Last", 4, 0);
	agx_store_ssbo(&b, agx_load_ssbo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 3), agx_imm_u32(8),
		       4);
	agx_store_ssbo(&b, agx_load_ssbo(&b, AGX_IR_TYPE_I32, agx_imm_u32(4), 1), agx_imm_u32(12),
		       2);

	want = shader_new(&f, &b);
	agx_store_global(&b, agx_load_global(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 6),
			 agx_imm_u32(2), 8);
	agx_store_global(&b, agx_load_global(&b, AGX_IR_TYPE_I32, agx_imm_u32(1), 2),
			 agx_imm_u32(3), 4);
	run(in, want, true);
	assert_placements(in, 10, -1, -1);
	assert_int_equal(in->vars[0].uniform, 0);
	assert_int_equal(in->vars[1].uniform, 2);
	assert_int_equal(in->vars[2].uniform, 8);
	agx_ir_shader_destroy(in);
}

/* Atomics and compare-and-swap on SSBOs: the *_global forms, the op number kept. */
static void test_io_atomics(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value id, addr, old, swapped;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Counters", 3, 0);
	add_var(in, AGX_IR_VAR_SSBO, "Out", 5, 0);
	id = agx_load_global_id(&b, 0);
	addr = agx_ishl(&b, id, agx_imm_u32(2));
	old = agx_atomic_ssbo(&b, agx_imm_u32(0), agx_imm_u32(1), 3, 0);
	swapped = agx_cmpxchg_ssbo(&b, addr, old, id, 5);
	agx_atomic_ssbo(&b, addr, swapped, 5, 7);

	want = shader_new(&f, &b);
	id = agx_load_global_id(&b, 0);
	addr = agx_ishl(&b, id, agx_imm_u32(2));
	old = agx_atomic_global(&b, agx_imm_u32(0), agx_imm_u32(1), 0, 0);
	swapped = agx_cmpxchg_global(&b, agx_ushr(&b, addr, agx_imm_u32(2)), old, id, 2);
	agx_atomic_global(&b, agx_ushr(&b, addr, agx_imm_u32(2)), swapped, 2, 7);
	run(in, want, true);
	assert_placements(in, 4, -1, -1);
	agx_ir_shader_destroy(in);
}

/* gl_NumWorkGroups after the buffers, x y z; inside control flow too. */
static void test_io_num_workgroups(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value x, z, y;
	struct agx_ir_if *nif;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 0, 0);
	x = agx_load_num_workgroups(&b, 0);
	nif = agx_builder_push_if(&b, agx_ult(&b, x, agx_imm_u32(4)));
	z = agx_load_num_workgroups(&b, 2);
	y = agx_load_num_workgroups(&b, 1);
	agx_store_ssbo(&b, agx_iadd(&b, y, z), agx_imm_u32(0), 0);
	agx_builder_pop_if(&b, nif);

	want = shader_new(&f, &b);
	x = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2);
	nif = agx_builder_push_if(&b, agx_ult(&b, x, agx_imm_u32(4)));
	z = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 4);
	y = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 3);
	agx_store_global(&b, agx_iadd(&b, y, z), agx_imm_u32(0), 0);
	agx_builder_pop_if(&b, nif);
	run(in, want, true);
	assert_placements(in, 5, 2, -1);
	assert_int_equal(in->vars[0].uniform, 0);
	agx_ir_shader_destroy(in);
}

/*
 * Default-block uniforms that fit: the block copied from the first free
 * register (after the buffers and gl_NumWorkGroups, no alignment), each
 * var at first + offset / 4, each load_uniform a uniform_reg.
 */
static void test_io_uniforms_fit(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value a, v1, v2, h, n;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 0, 0);
	add_uniform(in, "scale", 0, 1);
	add_uniform(in, "colour", 16, 4);
	in->uniform_size = 32;
	a = agx_load_uniform(&b, AGX_IR_TYPE_F32, 0);
	v1 = agx_load_uniform(&b, AGX_IR_TYPE_F32, 16);
	v2 = agx_load_uniform(&b, AGX_IR_TYPE_F32, 28);
	h = agx_load_uniform(&b, AGX_IR_TYPE_F16, 8);
	n = agx_load_num_workgroups(&b, 1);
	agx_store_ssbo(&b, agx_fadd(&b, agx_fadd(&b, a, v1), v2), agx_imm_u32(0), 0);
	agx_store_ssbo(&b, h, agx_imm_u32(4), 0);
	agx_store_ssbo(&b, n, agx_imm_u32(8), 0);

	want = shader_new(&f, &b);
	a = agx_uniform_reg(&b, AGX_IR_TYPE_F32, 5);
	v1 = agx_uniform_reg(&b, AGX_IR_TYPE_F32, 9);
	v2 = agx_uniform_reg(&b, AGX_IR_TYPE_F32, 12);
	h = agx_uniform_reg(&b, AGX_IR_TYPE_F16, 7);
	n = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 3);
	agx_store_global(&b, agx_fadd(&b, agx_fadd(&b, a, v1), v2), agx_imm_u32(0), 0);
	agx_store_global(&b, h, agx_imm_u32(2), 0);
	agx_store_global(&b, n, agx_imm_u32(2), 0);
	run(in, want, true);
	assert_placements(in, 13, 2, -1);
	assert_int_equal(in->vars[0].uniform, 0);
	assert_int_equal(in->vars[1].uniform, 5);
	assert_int_equal(in->vars[2].uniform, 9);
	agx_ir_shader_destroy(in);
}

/*
 * 2048 bytes of uniforms do not fit: the pair at the next even register
 * (6, after u0_u1 and gl_NumWorkGroups' u2..u4) takes the address of a
 * buffer with the block, and each load_uniform reads it at its offset.
 */
static void test_io_uniforms_spill(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value a, c, h, n;

	(void)state;
	add_var(in, AGX_IR_VAR_UBO, "U", 0, 0);
	add_uniform(in, "a", 0, 1);
	add_uniform(in, "big", 16, 4);
	in->uniform_size = 2048;
	a = agx_load_uniform(&b, AGX_IR_TYPE_F32, 0);
	c = agx_load_uniform(&b, AGX_IR_TYPE_F32, 2044);
	h = agx_load_uniform(&b, AGX_IR_TYPE_I16, 1028);
	n = agx_load_num_workgroups(&b, 0);
	agx_store_shared(&b, agx_fadd(&b, a, c), agx_imm_u32(0));
	agx_store_shared(&b, h, agx_imm_u32(4));
	agx_store_shared(&b, n, agx_imm_u32(8));

	want = shader_new(&f, &b);
	a = agx_load_global_const(&b, AGX_IR_TYPE_F32, agx_imm_u32(0), 6);
	c = agx_load_global_const(&b, AGX_IR_TYPE_F32, agx_imm_u32(511), 6);
	h = agx_load_global_const(&b, AGX_IR_TYPE_I16, agx_imm_u32(514), 6);
	n = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2);
	agx_store_shared(&b, agx_fadd(&b, a, c), agx_imm_u32(0));
	agx_store_shared(&b, h, agx_imm_u32(4));
	agx_store_shared(&b, n, agx_imm_u32(8));
	run(in, want, true);
	assert_placements(in, 8, 2, 6);
	assert_int_equal(in->vars[0].uniform, 0);
	assert_int_equal(in->vars[1].uniform, -1);
	assert_int_equal(in->vars[2].uniform, -1);
	agx_ir_shader_destroy(in);
}

/*
 * The budget is u0..u191: a block of 184 words after four buffers fits
 * exactly; one word more, and it goes to memory, its pair at u8.
 */
static void check_budget(unsigned uniform_size, bool fits)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	unsigned last = uniform_size - 4;

	for (unsigned i = 0; i < 4; i++)
		add_var(in, AGX_IR_VAR_SSBO, "B", i, 0);
	add_uniform(in, "arr", 0, uniform_size / 4);
	in->uniform_size = uniform_size;
	agx_store_ssbo(&b, agx_load_uniform(&b, AGX_IR_TYPE_I32, last), agx_imm_u32(0), 3);

	want = shader_new(&f, &b);
	agx_store_global(&b,
			 fits
			     ? agx_uniform_reg(&b, AGX_IR_TYPE_I32, 8 + last / 4)
			     : agx_load_global_const(&b, AGX_IR_TYPE_I32, agx_imm_u32(last / 4), 8),
			 agx_imm_u32(0), 6);
	run(in, want, true);
	assert_placements(in, fits ? 192 : 10, -1, fits ? -1 : 8);
	assert_int_equal(in->vars[4].uniform, fits ? 8 : -1);
	agx_ir_shader_destroy(in);
}

static void test_io_uniform_budget(void **state)
{
	(void)state;
	check_budget(184 * 4, true);
	check_budget(184 * 4 + 4, false);
}

/*
 * What it cannot address stays, for selection to refuse: a binding no var
 * names, a uniform read past the block, a 16-bit read of a high half.  The
 * rest of the shader is still lowered and the placements made.
 */
static void test_io_unplaceable(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 1, 0);
	in->uniform_size = 8;
	agx_store_ssbo(&b, agx_load_ssbo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 0), agx_imm_u32(0),
		       1);
	agx_store_ssbo(&b, agx_load_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 1), agx_imm_u32(4), 7);
	agx_store_ssbo(&b, agx_load_uniform(&b, AGX_IR_TYPE_I32, 8), agx_imm_u32(8), 1);
	agx_store_ssbo(&b, agx_load_uniform(&b, AGX_IR_TYPE_I16, 2), agx_imm_u32(12), 1);

	want = shader_new(&f, &b);
	agx_store_global(&b, agx_load_ssbo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 0), agx_imm_u32(0),
			 0);
	agx_store_ssbo(&b, agx_load_ubo(&b, AGX_IR_TYPE_I32, agx_imm_u32(0), 1), agx_imm_u32(4), 7);
	agx_store_global(&b, agx_load_uniform(&b, AGX_IR_TYPE_I32, 8), agx_imm_u32(2), 0);
	agx_store_global(&b, agx_load_uniform(&b, AGX_IR_TYPE_I16, 2), agx_imm_u32(6), 0);
	run(in, want, true);
	assert_placements(in, 4, -1, -1);
	agx_ir_shader_destroy(in);
}

/* A second run finds nothing to do and keeps every placement, gl_NumWorkGroups' too. */
static void test_io_idempotent(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value n, k;

	(void)state;
	add_var(in, AGX_IR_VAR_SSBO, "Out", 0, 0);
	add_uniform(in, "k", 0, 1);
	in->uniform_size = 4;
	n = agx_load_num_workgroups(&b, 2);
	k = agx_load_uniform(&b, AGX_IR_TYPE_I32, 0);
	agx_store_ssbo(&b, agx_iadd(&b, n, k), agx_imm_u32(0), 0);
	assert_true(agx_pass(in, agx_lower_io));
	assert_placements(in, 6, 2, -1);

	want = shader_new(&f, &b);
	n = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 4);
	k = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 5);
	agx_store_global(&b, agx_iadd(&b, n, k), agx_imm_u32(0), 0);
	run(in, want, false);
	assert_placements(in, 6, 2, -1);
	assert_int_equal(in->vars[1].uniform, 5);
	agx_ir_shader_destroy(in);
}

static unsigned add_io(struct agx_ir_shader *s, enum agx_ir_var_kind kind, const char *name,
		       const char *glsl_type, unsigned components, unsigned location)
{
	struct agx_ir_var var = {
		.kind = kind,
		.name = name,
		.glsl_type = glsl_type,
		.type = AGX_IR_TYPE_F32,
		.components = components,
		.location = location,
		.uniform = 1234,
		.slot = 1234,
	};

	return agx_ir_shader_add_var(s, &var);
}

/* a.z + m[1].y of a vertex shader, as the pass should fetch them */
/*
 * A float attribute's component c from the four registers at regs: the
 * element's byte address offset + vertex * stride + 4c, its word loaded.
 */
static struct agx_ir_value lowered_fetch(struct agx_builder *b, unsigned regs, unsigned c)
{
	/* one statement an instruction: the order the pass builds them in */
	struct agx_ir_value vid = agx_load_vertex_id(b);
	struct agx_ir_value stride = agx_uniform_reg(b, AGX_IR_TYPE_I32, regs + 2);
	struct agx_ir_value i = agx_imul(b, vid, stride);
	struct agx_ir_value offset = agx_uniform_reg(b, AGX_IR_TYPE_I32, regs + 3);
	struct agx_ir_value at = agx_iadd(b, offset, i), word;

	if (c)
		at = agx_iadd(b, at, agx_imm_u32(4 * c));
	word = agx_load_global_const(b, AGX_IR_TYPE_I32, agx_ushr(b, at, agx_imm_u32(2)), regs);
	return agx_bitcast(b, AGX_IR_TYPE_F32, word);
}

static void build_fetches(struct agx_builder *b, bool lowered, unsigned a_pair, unsigned m_pair)
{
	struct agx_ir_value x, y;

	if (!lowered) {
		x = agx_load_input(b, AGX_IR_TYPE_F32, 2, 2);
		y = agx_load_input(b, AGX_IR_TYPE_F32, 6, 1);
	} else {
		x = lowered_fetch(b, a_pair, 2);
		/* location 6 is column 1 of the mat2x3 at 5: its own four registers */
		y = lowered_fetch(b, m_pair + 4, 1);
	}
	agx_store_output(b, agx_fadd(b, x, y), 3, 1);
	agx_store_output(b, x, AGX_IR_LOCATION_POINT_SIZE, 0);
}

/*
 * A vertex shader's attributes, by location, after an SSBO and
 * gl_NumWorkGroups: four registers a location from an even one (a
 * matrix's columns are arrays of their own); its outputs' slots:
 * the position 0, the varyings by location, gl_PointSize last.
 */
static void test_io_vertex(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	unsigned m, a, ssbo, v3, v1, psz, pos;

	(void)state;
	in->stage = AGX_IR_STAGE_VERTEX;
	m = add_io(in, AGX_IR_VAR_INPUT, "m", "mat2x3", 6, 5);
	ssbo = add_var(in, AGX_IR_VAR_SSBO, "Buf", 0, 0);
	a = add_io(in, AGX_IR_VAR_INPUT, "a", "vec4", 4, 2);
	v3 = add_io(in, AGX_IR_VAR_OUTPUT, "v3", "vec2", 2, 3);
	psz = add_io(in, AGX_IR_VAR_OUTPUT, "gl_PointSize", "float", 1, AGX_IR_LOCATION_POINT_SIZE);
	v1 = add_io(in, AGX_IR_VAR_OUTPUT, "v1", "vec3", 3, 1);
	pos = add_io(in, AGX_IR_VAR_OUTPUT, "gl_Position", "vec4", 4, AGX_IR_LOCATION_POSITION);
	agx_load_num_workgroups(&b, 0);
	build_fetches(&b, false, 0, 0);
	want = shader_new(&f, &b);
	want->stage = AGX_IR_STAGE_VERTEX;
	agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2);
	build_fetches(&b, true, 6, 10);
	run(in, want, true);
	assert_placements(in, 18, 2, -1);
	assert_int_equal(in->vars[ssbo].uniform, 0);
	assert_int_equal(in->vars[a].uniform, 6); /* u5 skipped: pairs are even */
	assert_int_equal(in->vars[m].uniform, 10);
	assert_int_equal(in->vars[pos].slot, 0);
	assert_int_equal(in->vars[v1].slot, 4);
	assert_int_equal(in->vars[v3].slot, 7);
	assert_int_equal(in->vars[psz].slot, 9);
	assert_int_equal(in->vars[a].slot, -1);
	/* a second run changes nothing */
	assert_false(agx_pass(in, agx_lower_io));
	agx_ir_shader_destroy(in);
}

/*
 * Robust access's bounds (agx_lower_robust marks the vars sized): a
 * uniform block's bound size in a register after the blocks' pairs, as a
 * storage block's; an attribute's element count after its four
 * registers, one per location; load_attrib fetches the element its
 * source names instead of the vertex's.
 */
static void test_io_robust_bounds(void **state)
{
	struct agx_ir_function *f;
	struct agx_builder b;
	struct agx_ir_shader *in = shader_new(&f, &b), *want;
	struct agx_ir_value size, limit, e, at, word;
	unsigned ubo, a, plain;

	(void)state;
	in->stage = AGX_IR_STAGE_VERTEX;
	ubo = add_var(in, AGX_IR_VAR_UBO, "U", 0, 0);
	a = add_io(in, AGX_IR_VAR_INPUT, "a", "vec4", 4, 0);
	plain = add_io(in, AGX_IR_VAR_INPUT, "b", "vec4", 4, 1);
	in->vars[ubo].sized = true;
	in->vars[a].sized = true;
	size = agx_load_ubo_size(&b, 0);
	limit = agx_load_attrib_limit(&b, 0);
	e = agx_iadd(&b, size, limit);
	agx_store_output(&b, agx_load_attrib(&b, AGX_IR_TYPE_F32, e, 0, 1),
			 AGX_IR_LOCATION_POSITION, 0);

	want = shader_new(&f, &b);
	want->stage = AGX_IR_STAGE_VERTEX;
	size = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 2);
	limit = agx_uniform_reg(&b, AGX_IR_TYPE_I32, 8);
	e = agx_iadd(&b, size, limit);
	at = agx_imul(&b, e, agx_uniform_reg(&b, AGX_IR_TYPE_I32, 6));
	at = agx_iadd(&b, agx_uniform_reg(&b, AGX_IR_TYPE_I32, 7), at);
	at = agx_iadd(&b, at, agx_imm_u32(4));
	word = agx_load_global_const(&b, AGX_IR_TYPE_I32, agx_ushr(&b, at, agx_imm_u32(2)), 4);
	agx_store_output(&b, agx_bitcast(&b, AGX_IR_TYPE_F32, word), AGX_IR_LOCATION_POSITION, 0);
	run(in, want, true);

	assert_placements(in, 14, -1, -1);
	assert_int_equal(in->vars[ubo].uniform, 0);
	assert_int_equal(in->vars[ubo].size_uniform, 2);
	assert_int_equal(in->vars[a].uniform, 4); /* u3 skipped: pairs are even */
	assert_int_equal(in->vars[a].size_uniform, 8);
	assert_int_equal(in->vars[plain].uniform, 10);
	assert_int_equal(in->vars[plain].size_uniform, -1);
	assert_false(agx_pass(in, agx_lower_io));
	agx_ir_shader_destroy(in);
}

/*
 * GL_APPLE_clip_distance's distances (an array of floats at
 * AGX_IR_LOCATION_CLIP_DISTANCE) take the last slots: after the point
 * size when there is one, after the varyings when not.
 */
static void test_io_clip_distances(void **state)
{
	for (unsigned point = 0; point < 2; point++) {
		struct agx_ir_function *f;
		struct agx_builder b;
		struct agx_ir_shader *in = shader_new(&f, &b);
		struct agx_ir_var clip = {
			.kind = AGX_IR_VAR_OUTPUT,
			.name = "agx_ClipDistance",
			.glsl_type = "float",
			.type = AGX_IR_TYPE_F32,
			.components = 1,
			.array_size = 8,
			.location = AGX_IR_LOCATION_CLIP_DISTANCE,
			.slot = 1234,
		};
		unsigned cd, v, psz = 0, pos;

		(void)state;
		in->stage = AGX_IR_STAGE_VERTEX;
		cd = agx_ir_shader_add_var(in, &clip);
		v = add_io(in, AGX_IR_VAR_OUTPUT, "v", "vec3", 3, 0);
		if (point)
			psz = add_io(in, AGX_IR_VAR_OUTPUT, "gl_PointSize", "float", 1,
				     AGX_IR_LOCATION_POINT_SIZE);
		pos = add_io(in, AGX_IR_VAR_OUTPUT, "gl_Position", "vec4", 4,
			     AGX_IR_LOCATION_POSITION);
		agx_store_output(&b, agx_imm_f32(1.0f), AGX_IR_LOCATION_CLIP_DISTANCE + 5, 0);
		agx_lower_io(in);
		assert_int_equal(in->vars[pos].slot, 0);
		assert_int_equal(in->vars[v].slot, 4);
		if (point)
			assert_int_equal(in->vars[psz].slot, 7);
		assert_int_equal(in->vars[cd].slot, 7 + (int)point);
		agx_ir_shader_destroy(in);
	}
}

/* A fragment shader's varyings: cf0 is 1/w, cf1 window z when gl_FragCoord.z is read. */
static void test_io_fragment(void **state)
{
	for (unsigned z = 0; z < 2; z++) {
		struct agx_ir_function *f;
		struct agx_builder b;
		struct agx_ir_shader *in = shader_new(&f, &b), *want;
		unsigned c, t, o;

		(void)state;
		in->stage = AGX_IR_STAGE_FRAGMENT;
		t = add_io(in, AGX_IR_VAR_INPUT, "t", "vec2", 2, 4);
		c = add_io(in, AGX_IR_VAR_INPUT, "c", "vec3", 3, 0);
		o = add_io(in, AGX_IR_VAR_OUTPUT, "o", "vec4", 4, 0);
		agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 4, 1), 0, 0);
		if (z)
			agx_store_output(&b, agx_load_frag_coord(&b, 2), 0, 1);
		want = shader_new(&f, &b);
		want->stage = AGX_IR_STAGE_FRAGMENT;
		agx_store_output(&b, agx_load_input(&b, AGX_IR_TYPE_F32, 4, 1), 0, 0);
		if (z)
			agx_store_output(&b, agx_load_frag_coord(&b, 2), 0, 1);
		run(in, want, true);
		assert_int_equal(in->vars[c].slot, 1 + (int)z);
		assert_int_equal(in->vars[t].slot, 4 + (int)z);
		assert_int_equal(in->vars[o].slot, -1);
		assert_int_equal(in->vars[t].uniform, 1234); /* not an attribute */
		agx_ir_shader_destroy(in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_io_nothing),	  cmocka_unit_test(test_io_buffers),
		cmocka_unit_test(test_io_block_array),	  cmocka_unit_test(test_io_atomics),
		cmocka_unit_test(test_io_num_workgroups), cmocka_unit_test(test_io_uniforms_fit),
		cmocka_unit_test(test_io_uniforms_spill), cmocka_unit_test(test_io_uniform_budget),
		cmocka_unit_test(test_io_unplaceable),	  cmocka_unit_test(test_io_idempotent),
		cmocka_unit_test(test_io_vertex),	  cmocka_unit_test(test_io_clip_distances),
		cmocka_unit_test(test_io_fragment),	  cmocka_unit_test(test_io_texture_size),
		cmocka_unit_test(test_io_ssbo_size),	  cmocka_unit_test(test_io_robust_bounds),
	};

	return cmocka_run_group_tests_name("lower_io", tests, NULL, NULL);
}

/*
 * test-ir-interp.c: the IR interpreter (ir-interp.h) on IR built with the
 * builder -- arithmetic and conversions, ifs, loops with break and
 * continue, phis, memory of each kind, barriers, atomics, the lowered ops,
 * and the errors it reports.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-interp.h"
#include "ir-test.h"

#define N 64 /* invocations: two threadgroups of 32 */

static void add_ssbo(struct agx_ir_shader *s, unsigned binding)
{
	struct agx_ir_var v = {
		.kind = AGX_IR_VAR_SSBO, .name = "buf", .binding = binding, .uniform = -1
	};

	agx_ir_shader_add_var(s, &v);
}

static struct agx_ir_shader *kernel_new(struct agx_ir_function **func, struct agx_builder *b,
					unsigned local)
{
	struct agx_ir_shader *s = shader_new(func, b);

	s->local_size[0] = local;
	s->local_size[1] = s->local_size[2] = 1;
	add_ssbo(s, 0);
	add_ssbo(s, 1);
	return s;
}

/* Byte offset of word i. */
static struct agx_ir_value word(struct agx_builder *b, struct agx_ir_value i)
{
	return agx_ishl(b, i, agx_imm_u32(2));
}

/* Runs s over N / local threadgroups with in (binding 0) and out (binding 1); returns run's. */
static int run(struct agx_ir_shader *s, uint32_t *in, size_t in_words, uint32_t *out,
	       size_t out_words, char *why, size_t whysize)
{
	struct ir_interp_buffer bufs[2] = { { 0, in, in_words * 4 }, { 1, out, out_words * 4 } };
	struct ir_interp_args args = { .ssbos = bufs, .num_ssbos = 2 };

	assert_valid(s);
	args.groups[0] = N / s->local_size[0];
	args.groups[1] = args.groups[2] = 1;
	return ir_interp_run(s, &args, why, whysize);
}

static void run_ok(struct agx_ir_shader *s, uint32_t *in, size_t in_words, uint32_t *out,
		   size_t out_words)
{
	char why[512];
	int ret = run(s, in, in_words, out, out_words, why, sizeof(why));

	if (ret)
		note("the run failed: %s", why);
	assert_int_equal(ret, 0);
}

static void run_fails(struct agx_ir_shader *s, uint32_t *in, size_t in_words, uint32_t *out,
		      size_t out_words, const char *want)
{
	char why[512];

	assert_int_equal(run(s, in, in_words, out, out_words, why, sizeof(why)), -1);
	if (!strstr(why, want))
		note("wanted \"%s\" in: %s", want, why);
	assert_non_null(strstr(why, want));
}

static float f(uint32_t b)
{
	float x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

static uint32_t u(float x)
{
	uint32_t b;

	memcpy(&b, &x, sizeof(b));
	return b;
}

/* out[8i + k] = the k-th of several ops on in[i] (float) and id. */
static void test_arithmetic(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[N], out[8 * N];

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value x = agx_load_ssbo(&b, AGX_IR_TYPE_F32, word(&b, id), 0);
	struct agx_ir_value base = agx_imul(&b, id, agx_imm_u32(8));
	struct agx_ir_value r[8] = {
		agx_ffma(&b, x, agx_imm_f32(2.0f), agx_imm_f32(1.0f)),
		agx_fdiv(&b, agx_imm_f32(1.0f), x),
		agx_ffract(&b, x),
		agx_bitcast(&b, AGX_IR_TYPE_F32, agx_f2i(&b, AGX_IR_TYPE_I32, x)),
		agx_bitcast(&b, AGX_IR_TYPE_F32, agx_isub(&b, agx_imm_i32(5), id)),
		agx_bitcast(&b, AGX_IR_TYPE_F32, agx_ishr(&b, agx_imm_i32(-64), id)),
		agx_bitcast(&b, AGX_IR_TYPE_F32,
			    agx_b2i(&b, AGX_IR_TYPE_I32, agx_fne(&b, x, agx_imm_f32(NAN)))),
		agx_f2f32(&b, agx_fmul(&b, agx_f2f16(&b, x), agx_imm_f16(3.0f))),
	};
	for (unsigned k = 0; k < 8; k++)
		agx_store_ssbo(&b, r[k], word(&b, agx_iadd(&b, base, agx_imm_u32(k))), 1);

	for (unsigned i = 0; i < N; i++)
		in[i] = u((float)i * 0.75f - 20.0f);
	run_ok(s, in, N, out, 8 * N);
	for (unsigned i = 0; i < N; i++) {
		float xf = f(in[i]);
		int32_t want_shr = -64 >> (i % 32);

		assert_true(f(out[8 * i]) == fmaf(xf, 2.0f, 1.0f));
		assert_true(f(out[8 * i + 1]) == 1.0f / xf);
		assert_true(f(out[8 * i + 2]) == xf - floorf(xf));
		assert_int_equal((int32_t)out[8 * i + 3], (int32_t)truncf(xf));
		assert_int_equal((int32_t)out[8 * i + 4], 5 - (int32_t)i);
		assert_int_equal((int32_t)out[8 * i + 5], want_shr);
		assert_int_equal(out[8 * i + 6], 1); /* fne is unordered */
		assert_true(f(out[8 * i + 7]) ==
			    agx_ir_f16_to_f32(agx_ir_f32_to_f16(
				agx_ir_f16_to_f32(agx_ir_f32_to_f16(xf)) * 3.0f)));
	}
	agx_ir_shader_destroy(s);
}

/* Conversions at their edges: saturating, NaN to 0, i2i16 / i2i32 / u2u32. */
static void test_conversions(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[N], out[4 * N];
	const float edges[] = { 3e9f, -3e9f, NAN, -0.5f, 70000.0f, -1.5f, 2.5f, 1e-40f };

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value x = agx_load_ssbo(&b, AGX_IR_TYPE_F32, word(&b, id), 0);
	struct agx_ir_value base = agx_imul(&b, id, agx_imm_u32(4));
	struct agx_ir_value r[4] = {
		agx_f2i(&b, AGX_IR_TYPE_I32, x),
		agx_f2u(&b, AGX_IR_TYPE_I32, x),
		agx_i2i32(&b, agx_f2i(&b, AGX_IR_TYPE_I16, x)),
		agx_u2u32(&b, agx_i2i16(&b, agx_f2i(&b, AGX_IR_TYPE_I32, x))),
	};
	for (unsigned k = 0; k < 4; k++)
		agx_store_ssbo(&b, r[k], word(&b, agx_iadd(&b, base, agx_imm_u32(k))), 1);

	for (unsigned i = 0; i < N; i++)
		in[i] = u(edges[i % 8]);
	run_ok(s, in, N, out, 4 * N);
	const int32_t want_i[8] = { INT32_MAX, INT32_MIN, 0, 0, 70000, -1, 2, 0 };
	const uint32_t want_u[8] = { 3000000000u, 0, 0, 0, 70000, 0, 2, 0 };
	const int32_t want_i16[8] = { INT16_MAX, INT16_MIN, 0, 0, INT16_MAX, -1, 2, 0 };
	const uint32_t want_lo[8] = { 0xffff, 0, 0, 0, 70000 & 0xffff, 0xffff, 2, 0 };
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal((int32_t)out[4 * i], want_i[i % 8]);
		assert_int_equal(out[4 * i + 1], want_u[i % 8]);
		assert_int_equal((int32_t)out[4 * i + 2], want_i16[i % 8]);
		assert_int_equal(out[4 * i + 3], want_lo[i % 8]);
	}
	agx_ir_shader_destroy(s);
}

/* if (id < 20) v = in[id] * 2 else v = -1; a phi joins them. */
static void test_if_phi(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[N], out[N];

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ult(&b, id, agx_imm_u32(20)));
	struct agx_ir_value x = agx_load_ssbo(&b, AGX_IR_TYPE_I32, word(&b, id), 0);
	struct agx_ir_value x2 = agx_imul(&b, x, agx_imm_u32(2));
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	struct agx_ir_value v = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(v, then_block(nif), x2);
	phi_add(v, else_block(nif), agx_imm_i32(-1));
	agx_store_ssbo(&b, v, word(&b, id), 1);

	for (unsigned i = 0; i < N; i++)
		in[i] = 100 + i;
	run_ok(s, in, N, out, N);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal((int32_t)out[i], i < 20 ? (int32_t)(2 * (100 + i)) : -1);
	agx_ir_shader_destroy(s);
}

/*
 * sum = 0; for (k = 0;; k++) { if (k >= id % 10) break; if (k is odd)
 * continue; sum += k; }  -- invocations leave after different numbers of
 * iterations, through break, and skip through continue.
 */
static void test_loop_break_continue(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1] = { 0 }, out[N];

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value limit = agx_umod(&b, id, agx_imm_u32(10));
	struct agx_ir_block *before = agx_ir_function_last_block(func);
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);
	struct agx_ir_value k = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_value sum = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_if *brk = agx_builder_push_if(&b, agx_uge(&b, k, limit));
	struct agx_ir_value twice = agx_imul(&b, sum, agx_imm_u32(2));
	agx_break(&b);
	struct agx_ir_block *break_block = then_block(brk);
	agx_builder_push_else(&b, brk);
	agx_builder_pop_if(&b, brk);
	struct agx_ir_value k1 = agx_iadd(&b, k, agx_imm_u32(1));
	struct agx_ir_if *odd =
	    agx_builder_push_if(&b, agx_ine(&b, agx_iand(&b, k, agx_imm_u32(1)), agx_imm_u32(0)));
	agx_continue(&b);
	struct agx_ir_block *continue_block = then_block(odd);
	agx_builder_push_else(&b, odd);
	agx_builder_pop_if(&b, odd);
	struct agx_ir_value sum1 = agx_iadd(&b, sum, k);
	struct agx_ir_block *end = agx_ir_cf_list_last_block(&loop->body);
	agx_builder_pop_loop(&b, loop);
	phi_add(k, before, agx_imm_u32(0));
	phi_add(k, continue_block, k1);
	phi_add(k, end, k1);
	phi_add(sum, before, agx_imm_u32(0));
	phi_add(sum, continue_block, sum);
	phi_add(sum, end, sum1);
	struct agx_ir_value result = agx_phi(&b, AGX_IR_TYPE_I32);
	phi_add(result, break_block, twice);
	agx_store_ssbo(&b, result, word(&b, id), 1);

	run_ok(s, in, 1, out, N);
	for (unsigned i = 0; i < N; i++) {
		uint32_t want = 0;

		for (unsigned j = 0; j < i % 10; j++)
			want += j % 2 ? 0 : j;
		assert_int_equal(out[i], 2 * want);
	}
	agx_ir_shader_destroy(s);
}

/* Two phis of a loop header that swap each other's values every iteration. */
static void test_phi_swap(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1] = { 0 }, out[2 * N];

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_block *before = agx_ir_function_last_block(func);
	struct agx_ir_loop *loop = agx_builder_push_loop(&b);
	struct agx_ir_value k = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_value x = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_value y = agx_phi(&b, AGX_IR_TYPE_I32);
	struct agx_ir_if *brk = agx_builder_push_if(&b, agx_uge(&b, k, id));
	agx_break(&b);
	agx_builder_push_else(&b, brk);
	agx_builder_pop_if(&b, brk);
	struct agx_ir_value k1 = agx_iadd(&b, k, agx_imm_u32(1));
	struct agx_ir_block *end = agx_ir_cf_list_last_block(&loop->body);
	agx_builder_pop_loop(&b, loop);
	phi_add(k, before, agx_imm_u32(0));
	phi_add(k, end, k1);
	phi_add(x, before, agx_imm_u32(7));
	phi_add(x, end, y);
	phi_add(y, before, agx_imm_u32(9));
	phi_add(y, end, x);
	/* (the values after the loop: the header's, the one break leaves from after them) */
	struct agx_ir_value base = agx_imul(&b, id, agx_imm_u32(2));
	agx_store_ssbo(&b, x, word(&b, base), 1);
	agx_store_ssbo(&b, y, word(&b, agx_iadd(&b, base, agx_imm_u32(1))), 1);

	run_ok(s, in, 1, out, 2 * N);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(out[2 * i], i % 2 ? 9 : 7);
		assert_int_equal(out[2 * i + 1], i % 2 ? 7 : 9);
	}
	agx_ir_shader_destroy(s);
}

/*
 * Shared memory and a barrier: each invocation writes its local id to
 * shared[id], and after the barrier reads its neighbour's, which only
 * holds when every invocation wrote before any read.
 */
static void test_barrier(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1] = { 0 }, out[N];

	s->shared_size = 32 * 4;
	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value lid = agx_load_local_id(&b, 0);
	struct agx_ir_value v =
	    agx_iadd(&b, agx_imul(&b, lid, agx_imm_u32(3)), agx_load_workgroup_id(&b, 0));
	agx_store_shared(&b, v, word(&b, lid));
	agx_barrier(&b);
	struct agx_ir_value next = agx_iand(&b, agx_iadd(&b, lid, agx_imm_u32(1)), agx_imm_u32(31));
	agx_store_ssbo(&b, agx_load_shared(&b, AGX_IR_TYPE_I32, word(&b, next)), word(&b, id), 1);

	run_ok(s, in, 1, out, N);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(out[i], ((i + 1) % 32) * 3 + i / 32);
	agx_ir_shader_destroy(s);
}

/* A barrier inside an if that only some invocations take is an error. */
static void test_barrier_divergent(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1] = { 0 }, out[N];

	struct agx_ir_value id = agx_load_local_id(&b, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ult(&b, id, agx_imm_u32(5)));
	agx_barrier(&b);
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	run_fails(s, in, 1, out, N, "a barrier that not every invocation of the group reaches");
	agx_ir_shader_destroy(s);
}

/* atomic add on one counter returns each old value once; cmpxchg swaps once. */
static void test_atomics(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t counter[2] = { 10, 0 }, out[2 * N];

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value old = agx_atomic_ssbo(&b, agx_imm_u32(0), agx_imm_u32(1), 0, 0);
	struct agx_ir_value swapped = agx_cmpxchg_ssbo(&b, agx_imm_u32(4), agx_imm_u32(0),
						       agx_iadd(&b, id, agx_imm_u32(1)), 0);
	struct agx_ir_value base = agx_imul(&b, id, agx_imm_u32(2));
	agx_store_ssbo(&b, old, word(&b, base), 1);
	agx_store_ssbo(&b, swapped, word(&b, agx_iadd(&b, base, agx_imm_u32(1))), 1);

	run_ok(s, counter, 2, out, 2 * N);
	assert_int_equal(counter[0], 10 + N);
	assert_int_equal(counter[1], 1); /* invocation 0 came first */
	bool seen[N] = { false };
	for (unsigned i = 0; i < N; i++) {
		assert_true(out[2 * i] >= 10 && out[2 * i] < 10 + N);
		assert_false(seen[out[2 * i] - 10]);
		seen[out[2 * i] - 10] = true;
		assert_int_equal(out[2 * i + 1], i == 0 ? 0 : 1);
	}
	agx_ir_shader_destroy(s);
}

/* Memory outside the buffer, and a binding no var names, are errors. */
static void test_memory_errors(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	uint32_t in[N], out[N];
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);

	struct agx_ir_value id = agx_load_global_id(&b, 0);
	agx_store_ssbo(&b, id, word(&b, agx_iadd(&b, id, agx_imm_u32(1))), 1);
	run_fails(s, in, N, out, N, "an SSBO access at byte 256 is outside its 256 bytes");
	agx_ir_shader_destroy(s);

	s = kernel_new(&func, &b, 32);
	agx_store_ssbo(&b, agx_imm_u32(1), agx_imm_u32(0), 7);
	run_fails(s, in, N, out, N, "no SSBO var has binding 7");
	agx_ir_shader_destroy(s);

	s = kernel_new(&func, &b, 32);
	agx_store_ssbo(&b, agx_imm_u32(1), agx_imm_u32(2), 1);
	run_fails(s, in, N, out, N, "is not aligned to 4");
	agx_ir_shader_destroy(s);
}

/* A loop no invocation leaves stops at the step limit. */
static void test_step_limit(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1], out[1];

	struct agx_ir_loop *loop = agx_builder_push_loop(&b);
	agx_iadd(&b, agx_imm_u32(1), agx_imm_u32(2));
	agx_builder_pop_loop(&b, loop);
	run_fails(s, in, 1, out, 1, "instructions: no end?");
	agx_ir_shader_destroy(s);
}

/* Default-block uniforms at their offsets, a UBO, and the system values of a 2D grid. */
static void test_uniforms_ubo(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&func, &b);
	uint32_t uniforms[2] = { 1000, u(0.5f) }, ubo[4] = { 1, 2, 3, 4 }, out[4 * 16];
	struct agx_ir_var ssbo = { .kind = AGX_IR_VAR_SSBO, .name = "o", .binding = 1 };
	struct agx_ir_var block = { .kind = AGX_IR_VAR_UBO, .name = "u", .binding = 3 };

	agx_ir_shader_add_var(s, &ssbo);
	agx_ir_shader_add_var(s, &block);
	s->local_size[0] = 2, s->local_size[1] = 2, s->local_size[2] = 1;
	s->uniform_size = 8;
	struct agx_ir_value idx = agx_load_local_index(&b);
	struct agx_ir_value gx = agx_load_global_id(&b, 0), gy = agx_load_global_id(&b, 1);
	struct agx_ir_value flat = agx_iadd(&b, gx, agx_imul(&b, gy, agx_imm_u32(4)));
	struct agx_ir_value base = agx_imul(&b, flat, agx_imm_u32(4));
	agx_store_ssbo(&b, agx_iadd(&b, agx_load_uniform(&b, AGX_IR_TYPE_I32, 0), idx),
		       word(&b, base), 1);
	agx_store_ssbo(&b, agx_load_ubo(&b, AGX_IR_TYPE_I32, word(&b, idx), 3),
		       word(&b, agx_iadd(&b, base, agx_imm_u32(1))), 1);
	agx_store_ssbo(&b, agx_fmul(&b, agx_load_uniform(&b, AGX_IR_TYPE_F32, 4), agx_imm_f32(6)),
		       word(&b, agx_iadd(&b, base, agx_imm_u32(2))), 1);
	agx_store_ssbo(&b, agx_load_num_workgroups(&b, 1),
		       word(&b, agx_iadd(&b, base, agx_imm_u32(3))), 1);
	assert_valid(s);

	struct ir_interp_buffer ob = { 1, out, sizeof(out) }, ub = { 3, ubo, sizeof(ubo) };
	struct ir_interp_args args = { .ssbos = &ob,
				       .num_ssbos = 1,
				       .ubos = &ub,
				       .num_ubos = 1,
				       .uniforms = uniforms,
				       .uniform_size = 8,
				       .groups = { 2, 2, 1 } };
	char why[512];
	int ret = ir_interp_run(s, &args, why, sizeof(why));
	if (ret)
		note("%s", why);
	assert_int_equal(ret, 0);
	for (unsigned y = 0; y < 4; y++) {
		for (unsigned x = 0; x < 4; x++) {
			unsigned i = x + 4 * y, local = x % 2 + 2 * (y % 2);

			assert_int_equal(out[4 * i], 1000 + local);
			assert_int_equal(out[4 * i + 1], local + 1);
			assert_true(f(out[4 * i + 2]) == 3.0f);
			assert_int_equal(out[4 * i + 3], 2);
		}
	}
	agx_ir_shader_destroy(s);
}

/* After lowering: uniform registers, device memory through their addresses, the ALU helpers. */
static void test_lowered(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = shader_new(&func, &b);
	uint32_t in[N], out[4 * N];
	const uint64_t in_addr = 0x1000000000ull, out_addr = 0x2000000000ull;
	uint32_t regs[6] = { (uint32_t)in_addr, in_addr >> 32, (uint32_t)out_addr,
			     out_addr >> 32,	u(2.0f),       0 };
	struct ir_interp_memory mem[2] = { { in_addr, in, sizeof(in) },
					   { out_addr, out, sizeof(out) } };

	s->local_size[0] = 32, s->local_size[1] = s->local_size[2] = 1;
	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_value x = agx_load_global_const(&b, AGX_IR_TYPE_F32, id, 0);
	struct agx_ir_value xi = agx_load_global(&b, AGX_IR_TYPE_I32, id, 0);
	struct agx_ir_value base = agx_imul(&b, id, agx_imm_u32(4));
	/* sqrt(x) = x * rsqrt_special(x); sin(x quarter turns) = t * sin_pt_2(t), t = sin_pt_1 x */
	agx_store_global(&b, agx_fmul(&b, x, agx_frsqrt_special(&b, x)), base, 2);
	struct agx_ir_value t =
	    agx_fsin_pt_1(&b, agx_fmul(&b, x, agx_uniform_reg(&b, AGX_IR_TYPE_F32, 4)));
	agx_store_global(&b, agx_fmul(&b, t, agx_fsin_pt_2(&b, t)),
			 agx_iadd(&b, base, agx_imm_u32(1)), 2);
	agx_store_global(&b, agx_umul_high(&b, xi, agx_imm_u32(0x80000001)),
			 agx_iadd(&b, base, agx_imm_u32(2)), 2);
	agx_store_global(&b, agx_imul_high(&b, xi, agx_imm_i32(-3)),
			 agx_iadd(&b, base, agx_imm_u32(3)), 2);
	assert_valid(s);

	for (unsigned i = 0; i < N; i++)
		in[i] = u((float)i / 32.0f); /* [0, 2): doubled, quarter turns in [0, 4) */
	struct ir_interp_args args = { .uniform_regs = regs,
				       .num_uniform_regs = 6,
				       .memory = mem,
				       .num_memory = 2,
				       .groups = { 2, 1, 1 } };
	char why[512];
	int ret = ir_interp_run(s, &args, why, sizeof(why));
	if (ret)
		note("%s", why);
	assert_int_equal(ret, 0);
	for (unsigned i = 0; i < N; i++) {
		float xf = f(in[i]);
		uint64_t prod = (uint64_t)in[i] * 0x80000001u;
		int64_t sprod = (int64_t)(int32_t)in[i] * -3;

		assert_true(fabsf(f(out[4 * i]) - sqrtf(xf)) <= 1e-6f);
		assert_true(fabs(f(out[4 * i + 1]) - sin(2.0 * xf * M_PI_2)) <= 1e-6);
		assert_int_equal(out[4 * i + 2], (uint32_t)(prod >> 32));
		assert_int_equal(out[4 * i + 3], (uint32_t)((uint64_t)sprod >> 32));
	}
	agx_ir_shader_destroy(s);
}

/* discard ends an invocation: it writes nothing after it. */
static void test_discard(void **state)
{
	struct agx_ir_function *func;
	struct agx_builder b;
	struct agx_ir_shader *s = kernel_new(&func, &b, 32);
	uint32_t in[1] = { 0 }, out[N];

	memset(out, 0, sizeof(out));
	struct agx_ir_value id = agx_load_global_id(&b, 0);
	struct agx_ir_if *nif = agx_builder_push_if(&b, agx_ult(&b, id, agx_imm_u32(3)));
	agx_discard(&b);
	agx_builder_push_else(&b, nif);
	agx_builder_pop_if(&b, nif);
	agx_store_ssbo(&b, agx_imm_u32(1), word(&b, id), 1);
	run_ok(s, in, 1, out, N);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(out[i], i < 3 ? 0 : 1);
	agx_ir_shader_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_if_phi),
		cmocka_unit_test(test_loop_break_continue),
		cmocka_unit_test(test_phi_swap),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_barrier_divergent),
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_memory_errors),
		cmocka_unit_test(test_step_limit),
		cmocka_unit_test(test_uniforms_ubo),
		cmocka_unit_test(test_lowered),
		cmocka_unit_test(test_discard),
	};

	return cmocka_run_group_tests_name("ir_interp", tests, NULL, NULL);
}

/*
 * memory.c: hand-written kernels of what a compute shader reads and
 * writes besides its own variables -- shared memory across a barrier,
 * atomics on storage and shared memory, the compute built-in variables
 * (gl_NumWorkGroups, gl_WorkGroupID, gl_LocalInvocationID, ...) over 1D
 * and 3D grids, uniform blocks (std140), default-block uniforms, and the
 * std430 layout of storage blocks (structs, vec3 arrays, a block with
 * members before its array, bools, read-modify-write).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "exec-internal.h"

#define PRE64(T)                                                                                   \
	"#version 310 es\n"                                                                        \
	"layout(local_size_x = 64) in;\n"                                                          \
	"layout(std430, binding = 0) buffer In { " T " x[]; };\n"                                  \
	"layout(std430, binding = 1) buffer Out { " T " r[]; };\n"

#define GROUPS2 .local = { 64, 1, 1 }, .groups = { 2, 1, 1 }

static void set(struct exec_expect *x, unsigned k, uint32_t v)
{
	exec_expect_bits(&x[k], v);
}

/* ---- shared memory and barriers ------------------------------------------------------------- */

static void ref_reverse(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, lid = inv % 64;

	set(x, 0, in[group * 64 + 63 - lid]);
}

static const struct exec_hand shared_reverse = {
	"shared_reverse",
	PRE64("int") "shared int s[64];\n"
		     "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		     "gl_GlobalInvocationID.x;\n"
		     "\ts[lid] = x[gid];\n\tbarrier();\n\tr[gid] = s[63u - lid];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'i',
	ref_reverse,
};

static const struct exec_hand shared_memory_barrier = {
	"shared_memory_barrier",
	PRE64("int") "shared int s[64];\n"
		     "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		     "gl_GlobalInvocationID.x;\n"
		     "\ts[lid] = x[gid];\n\tmemoryBarrierShared();\n\tbarrier();\n"
		     "\tr[gid] = s[63u - lid];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'i',
	ref_reverse,
};

static void ref_reduce(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t s = 0;

	for (unsigned k = 0; k < 64; k++)
		s += in[inv / 64 * 64 + k];
	set(x, 0, s);
}

static const struct exec_hand shared_reduce = {
	"shared_reduce_barrier_in_loop",
	PRE64(
	    "int") "shared int s[64];\n"
		   "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		   "gl_GlobalInvocationID.x;\n"
		   "\ts[lid] = x[gid];\n\tbarrier();\n"
		   "\tfor (uint stride = 32u; stride > 0u; stride >>= 1) {\n"
		   "\t\tif (lid < stride)\n\t\t\ts[lid] += s[lid + stride];\n\t\tbarrier();\n\t}\n"
		   "\tr[gid] = s[0];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'i',
	ref_reduce,
};

static void ref_prefix(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	uint32_t s = 0;

	for (unsigned k = inv / 64 * 64; k <= inv; k++)
		s += in[k];
	set(x, 0, s);
}

static const struct exec_hand shared_prefix = {
	"shared_prefix_sum",
	PRE64("uint") "shared uint s[64];\n"
		      "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		      "gl_GlobalInvocationID.x;\n"
		      "\ts[lid] = x[gid];\n\tbarrier();\n"
		      "\tfor (uint off = 1u; off < 64u; off <<= 1) {\n"
		      "\t\tuint t = lid >= off ? s[lid - off] : 0u;\n\t\tbarrier();\n"
		      "\t\ts[lid] += t;\n\t\tbarrier();\n\t}\n\tr[gid] = s[lid];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	ref_prefix,
};

static void ref_shared_struct(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, lid = inv % 64, from = (lid + 5) & 63;
	uint32_t a = in[(group * 64 + from) * 2], b = in[(group * 64 + from) * 2 + 1];

	exec_expect_float(&x[0], exec_bitsf(b));
	set(x, 1, from);
	exec_expect_float(&x[2], exec_bitsf(a));
	set(x, 3, from * 3);
}

static const struct exec_hand shared_struct = {
	"shared_struct_array",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { float x[]; };\n"
	"layout(std430, binding = 1) buffer Out { uint r[]; };\n"
	"struct P { vec4 v; int k; uvec2 w; };\nshared P ps[64];\n"
	"void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = gl_GlobalInvocationID.x;\n"
	"\tfloat a = x[2u * gid], b = x[2u * gid + 1u];\n"
	"\tps[lid] = P(vec4(a, b, a, b), int(lid), uvec2(lid * 3u, 1u));\n\tbarrier();\n"
	"\tP q = ps[(lid + 5u) & 63u];\n"
	"\tr[4u * gid] = floatBitsToUint(q.v.y);\n\tr[4u * gid + 1u] = uint(q.k);\n"
	"\tr[4u * gid + 2u] = floatBitsToUint(q.v.z);\n\tr[4u * gid + 3u] = q.w.x;\n}\n",
	GROUPS2,
	2,
	DOM_MID,
	4,
	'u',
	ref_shared_struct,
};

/* A 2D threadgroup: its tile transposed through shared memory. */
static void ref_transpose(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, ly = inv % 64 / 8, lx = inv % 8;

	set(x, 0, in[group * 64 + lx * 8 + ly]);
}

static const struct exec_hand shared_transpose = {
	"shared_2d_transpose",
	"#version 310 es\nlayout(local_size_x = 8, local_size_y = 8) in;\n"
	"layout(std430, binding = 0) buffer In { int x[]; };\n"
	"layout(std430, binding = 1) buffer Out { int r[]; };\n"
	"shared int tile[64];\n"
	"void main()\n{\n\tuvec3 l = gl_LocalInvocationID;\n"
	"\tuint base = gl_WorkGroupID.x * 64u;\n"
	"\ttile[l.y * 8u + l.x] = x[base + l.y * 8u + l.x];\n\tbarrier();\n"
	"\tr[base + l.y * 8u + l.x] = tile[l.x * 8u + l.y];\n}\n",
	.local = { 8, 8, 1 },
	.groups = { 2, 1, 1 },
	1,
	DOM_INT,
	1,
	'i',
	ref_transpose,
};

/* Only some invocations write; after the barrier every one reads. */
static void ref_divergent(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, lid = inv % 64;

	set(x, 0, in[group * 64 + 2 * (lid % 32)] + 1);
}

static const struct exec_hand shared_divergent = {
	"shared_divergent_write",
	PRE64("uint") "shared uint s[32];\n"
		      "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		      "gl_GlobalInvocationID.x;\n"
		      "\tif (lid % 2u == 0u)\n\t\ts[lid / 2u] = x[gid] + 1u;\n\tbarrier();\n"
		      "\tr[gid] = s[lid % 32u];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	ref_divergent,
};

/* gl_WorkGroupSize is a constant expression: it sizes the shared array. */
static void ref_wgsize(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, lid = inv % 64;

	set(x, 0, in[group * 64 + (lid + 1) % 64] * 2);
}

static const struct exec_hand shared_wgsize = {
	"shared_sized_by_workgroup_size",
	PRE64("uint") "shared uint s[gl_WorkGroupSize.x];\n"
		      "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		      "gl_GlobalInvocationID.x;\n"
		      "\ts[lid] = x[gid] * 2u;\n\tbarrier();\n"
		      "\tr[gid] = s[(lid + 1u) % gl_WorkGroupSize.x];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	ref_wgsize,
};

/* ---- atomics ----------------------------------------------------------------------------------
 */

#define TOTAL 128 /* invocations of the atomics kernels: 2 groups of 64 */

/* r[0] started at 5; every invocation added 1 and got a distinct old value. */
static unsigned check_counter(const struct exec_case *c, const uint8_t *got, FILE *report,
			      unsigned max_reports)
{
	const uint32_t *r = (const uint32_t *)got;
	bool seen[TOTAL] = { false };
	unsigned wrong = 0;

	if (r[0] != 5 + TOTAL) {
		if (report)
			fprintf(report, "%s: the counter is %u, expected %u\n", c->kernel->name,
				r[0], 5 + TOTAL);
		wrong++;
	}
	for (unsigned i = 0; i < TOTAL; i++) {
		uint32_t v = r[1 + i];
		if (v < 5 || v >= 5 + TOTAL || seen[v - 5]) {
			if (report && wrong < max_reports)
				fprintf(report, "%s: invocation %u got old value %u: %s\n",
					c->kernel->name, i, v,
					v < 5 || v >= 5 + TOTAL ? "never the counter's"
								: "another invocation's too");
			wrong++;
			continue;
		}
		seen[v - 5] = true;
	}
	return wrong;
}

static int setup_counter(const struct exec_hand *h, struct exec_case *c)
{
	uint32_t five = 5;

	memcpy(c->buffers[1].data, &five, 4);
	c->check = check_counter;
	return 0;
}

static const struct exec_hand atomic_counter = {
	"atomic_add_ssbo_counter",
	PRE64("uint") "void main()\n{\n\tuint gid = gl_GlobalInvocationID.x;\n"
		      "\tr[1u + gid] = atomicAdd(r[0], 1u);\n}\n",
	GROUPS2,
	0,
	DOM_INT,
	2,
	'u',
	NULL,
	setup_counter,
};

static const uint32_t atomic_init[8] = { 0, 0xffffffffu, 0,	      0xffffffffu,
					 0, 0,		 0x7fffffffu, 0x80000000u };

static int setup_atomic_ops(const struct exec_hand *h, struct exec_case *c)
{
	const uint32_t *in = (const uint32_t *)c->buffers[0].data;
	uint32_t f[8];

	memcpy(c->buffers[1].data, atomic_init, sizeof(atomic_init));
	memcpy(f, atomic_init, sizeof(f));
	for (unsigned i = 0; i < TOTAL; i++) {
		uint32_t v = in[i];
		f[0] += v;
		f[1] = v < f[1] ? v : f[1];
		f[2] = v > f[2] ? v : f[2];
		f[3] &= v | (1u << (i % 32));
		f[4] |= v & 0xf0f0f0f0u;
		f[5] ^= v;
		f[6] = (int32_t)v < (int32_t)f[6] ? v : f[6];
		f[7] = (int32_t)v > (int32_t)f[7] ? v : f[7];
	}
	for (unsigned k = 0; k < 8; k++)
		set(c->expect, k, f[k]);
	return 0;
}

static const struct exec_hand atomic_ops = {
	"atomic_ops_ssbo",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { uint x[]; };\n"
	"layout(std430, binding = 1) buffer Out { uint c[6]; int m[2]; uint rest[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, v = x[i];\n"
	"\tatomicAdd(c[0], v);\n\tatomicMin(c[1], v);\n\tatomicMax(c[2], v);\n"
	"\tatomicAnd(c[3], v | (1u << (i % 32u)));\n\tatomicOr(c[4], v & 0xf0f0f0f0u);\n"
	"\tatomicXor(c[5], v);\n\tatomicMin(m[0], int(v));\n\tatomicMax(m[1], int(v));\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	NULL,
	setup_atomic_ops,
};

/* Exchange: the old values and the last one make up the first and every invocation's. */
static unsigned check_exchange(const struct exec_case *c, const uint8_t *got, FILE *report,
			       unsigned max_reports)
{
	const uint32_t *r = (const uint32_t *)got;
	unsigned count[TOTAL + 1] = { 0 }, wrong = 0;

	/* the values are 1 + invocation, the counter started at 0 */
	count[r[0] <= TOTAL ? r[0] : 0] += r[0] <= TOTAL ? 1 : 100;
	for (unsigned i = 0; i < TOTAL; i++)
		count[r[1 + i] <= TOTAL ? r[1 + i] : 0] += r[1 + i] <= TOTAL ? 1 : 100;
	for (unsigned v = 0; v <= TOTAL; v++) {
		if (count[v] != 1) {
			if (report && wrong < max_reports)
				fprintf(report,
					"%s: value %u seen %u times (once expected) among the "
					"old values and the last\n",
					c->kernel->name, v, count[v]);
			wrong++;
		}
	}
	return wrong;
}

static int setup_exchange(const struct exec_hand *h, struct exec_case *c)
{
	c->check = check_exchange;
	return 0;
}

static const struct exec_hand atomic_exchange = {
	"atomic_exchange_ssbo",
	PRE64("uint") "void main()\n{\n\tuint gid = gl_GlobalInvocationID.x;\n"
		      "\tr[1u + gid] = atomicExchange(r[0], gid + 1u);\n}\n",
	GROUPS2,
	0,
	DOM_INT,
	2,
	'u',
	NULL,
	setup_exchange,
};

/* Compare-and-swap from 0: one invocation wins, the others see its value. */
static unsigned check_compswap(const struct exec_case *c, const uint8_t *got, FILE *report,
			       unsigned max_reports)
{
	const uint32_t *r = (const uint32_t *)got;
	unsigned winners = 0, wrong = 0;

	if (r[0] < 1 || r[0] > TOTAL) {
		if (report)
			fprintf(report, "%s: the word is %u, not an invocation's value\n",
				c->kernel->name, r[0]);
		return 1;
	}
	for (unsigned i = 0; i < TOTAL; i++) {
		uint32_t v = r[1 + i];
		if (v == 0 && r[0] == i + 1) {
			winners++;
		} else if (v != r[0]) {
			if (report && wrong < max_reports)
				fprintf(report,
					"%s: invocation %u saw %u, expected 0 (its own "
					"win) or the winner's %u\n",
					c->kernel->name, i, v, r[0]);
			wrong++;
		}
	}
	if (winners != 1) {
		if (report)
			fprintf(report, "%s: %u invocations swapped, expected one\n",
				c->kernel->name, winners);
		wrong++;
	}
	return wrong;
}

static int setup_compswap(const struct exec_hand *h, struct exec_case *c)
{
	c->check = check_compswap;
	return 0;
}

static const struct exec_hand atomic_compswap = {
	"atomic_compswap_ssbo",
	PRE64("uint") "void main()\n{\n\tuint gid = gl_GlobalInvocationID.x;\n"
		      "\tr[1u + gid] = atomicCompSwap(r[0], 0u, gid + 1u);\n}\n",
	GROUPS2,
	0,
	DOM_INT,
	2,
	'u',
	NULL,
	setup_compswap,
};

/* Atomics on shared memory: a count, a maximum and a histogram per threadgroup. */
static void ref_atomic_shared(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned group = inv / 64, lid = inv % 64;
	uint32_t mx = 0, bins[16] = { 0 };

	for (unsigned k = 0; k < 64; k++) {
		uint32_t v = in[group * 64 + k];
		mx = v > mx ? v : mx;
		bins[v & 15]++;
	}
	set(x, 0, 64);
	set(x, 1, mx);
	set(x, 2, bins[lid & 15]);
}

static const struct exec_hand atomic_shared = {
	"atomic_shared_count_max_histogram",
	PRE64("uint") "shared uint cnt, mx, bins[16];\n"
		      "void main()\n{\n\tuint lid = gl_LocalInvocationID.x, gid = "
		      "gl_GlobalInvocationID.x;\n"
		      "\tif (lid == 0u) {\n\t\tcnt = 0u;\n\t\tmx = 0u;\n\t}\n"
		      "\tif (lid < 16u)\n\t\tbins[lid] = 0u;\n\tbarrier();\n"
		      "\tatomicAdd(cnt, 1u);\n\tatomicMax(mx, x[gid]);\n"
		      "\tatomicAdd(bins[x[gid] & 15u], 1u);\n\tbarrier();\n"
		      "\tr[3u * gid] = cnt;\n\tr[3u * gid + 1u] = mx;\n"
		      "\tr[3u * gid + 2u] = bins[lid & 15u];\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	3,
	'u',
	ref_atomic_shared,
};

/* ---- built-in variables
 * ---------------------------------------------------------------------------- */

static void ref_sysvals_1d(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	set(x, 0, inv);
	set(x, 1, inv % 16);
	set(x, 2, inv / 16);
	set(x, 3, 4);
	set(x, 4, inv % 16);
	set(x, 5, 16);
}

static const struct exec_hand sysvals_1d = {
	"builtin_variables_1d",
	"#version 310 es\nlayout(local_size_x = 16) in;\n"
	"layout(std430, binding = 1) buffer Out { uint r[]; };\n"
	"void main()\n{\n\tuint g = gl_GlobalInvocationID.x, o = 6u * g;\n"
	"\tr[o] = g;\n\tr[o + 1u] = gl_LocalInvocationID.x;\n\tr[o + 2u] = gl_WorkGroupID.x;\n"
	"\tr[o + 3u] = gl_NumWorkGroups.x;\n\tr[o + 4u] = gl_LocalInvocationIndex;\n"
	"\tr[o + 5u] = gl_WorkGroupSize.x;\n}\n",
	.local = { 16, 1, 1 },
	.groups = { 4, 1, 1 },
	0,
	DOM_INT,
	6,
	'u',
	ref_sysvals_1d,
};

/* A 3D grid: groups of 4x2x2, 2x3x2 of them; invocation inv is the global linear index. */
static void ref_sysvals_3d(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned gx = inv % 8, gy = inv / 8 % 6, gz = inv / 48;
	unsigned l[3] = { gx % 4, gy % 2, gz % 2 }, w[3] = { gx / 4, gy / 2, gz / 2 };

	set(x, 0, gx);
	set(x, 1, gy);
	set(x, 2, gz);
	for (unsigned k = 0; k < 3; k++) {
		set(x, 3 + k, l[k]);
		set(x, 6 + k, w[k]);
	}
	set(x, 9, 2);
	set(x, 10, 3);
	set(x, 11, 2);
	set(x, 12, l[0] + 4 * l[1] + 8 * l[2]);
	set(x, 13, 4 * 2 * 2);
}

static const struct exec_hand sysvals_3d = {
	"builtin_variables_3d",
	"#version 310 es\nlayout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;\n"
	"layout(std430, binding = 1) buffer Out { uint r[]; };\n"
	"void main()\n{\n\tuvec3 g = gl_GlobalInvocationID;\n"
	"\tuvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;\n"
	"\tuint o = 14u * (g.x + size.x * (g.y + size.y * g.z));\n"
	"\tr[o] = g.x;\n\tr[o + 1u] = g.y;\n\tr[o + 2u] = g.z;\n"
	"\tr[o + 3u] = gl_LocalInvocationID.x;\n\tr[o + 4u] = gl_LocalInvocationID.y;\n"
	"\tr[o + 5u] = gl_LocalInvocationID.z;\n\tr[o + 6u] = gl_WorkGroupID.x;\n"
	"\tr[o + 7u] = gl_WorkGroupID.y;\n\tr[o + 8u] = gl_WorkGroupID.z;\n"
	"\tr[o + 9u] = gl_NumWorkGroups.x;\n\tr[o + 10u] = gl_NumWorkGroups.y;\n"
	"\tr[o + 11u] = gl_NumWorkGroups.z;\n\tr[o + 12u] = gl_LocalInvocationIndex;\n"
	"\tr[o + 13u] = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;\n}\n",
	.local = { 4, 2, 2 },
	.groups = { 2, 3, 2 },
	0,
	DOM_INT,
	14,
	'u',
	ref_sysvals_3d,
};

/* ---- uniform blocks (std140) and default-block uniforms
 * ----------------------------------------------- */

/*
 * layout(std140) uniform Params { vec4 scale; float offset; ivec2 iv; mat3 m;
 * float arr[4]; vec3 v3; int tail; }: std140 (GLSL ES 3.00 section 2.12.6.4
 * of the GL ES 3.0 spec) puts scale at 0, offset at 16, iv at 24, m's
 * columns at 32, 48, 64 (vec4-aligned), arr at 80 with a stride of 16,
 * v3 at 144 and tail at 156.
 */
static const float ubo_scale[4] = { 2.0f, -0.5f, 4.0f, 1.0f };
static const float ubo_m[3][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } };
static const float ubo_arr[4] = { 10, 20, 30, 40 };
static const float ubo_v3[3] = { 0.25f, 0.5f, 0.75f };

static int setup_ubo(const struct exec_hand *h, struct exec_case *c)
{
	uint8_t *u = exec_case_buffer(c, 2, true, 160);
	const float offset = 3.0f;
	const int32_t iv[2] = { 7, -9 }, tail = 1234;

	if (!u)
		return -ENOMEM;
	memcpy(u, ubo_scale, 16);
	memcpy(u + 16, &offset, 4);
	memcpy(u + 24, iv, 8);
	for (unsigned k = 0; k < 3; k++)
		memcpy(u + 32 + 16 * k, ubo_m[k], 12);
	for (unsigned k = 0; k < 4; k++)
		memcpy(u + 80 + 16 * k, &ubo_arr[k], 4);
	memcpy(u + 144, ubo_v3, 12);
	memcpy(u + 156, &tail, 4);
	return 0;
}

static void ref_ubo(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	struct ev v = ev_exact(exec_in_f(in, inv, 1, 0));
	unsigned k = inv % 4, col = inv % 3;

	/* r0 = v * scale.y + offset; r1 = arr[k]; r2 = m[col].z; r3 = (m * v3).x;
	 * r4 = float(iv.x + iv.y + tail) */
	exec_expect_ev(&x[0], p, ev_mad(p, v, ev_exact(ubo_scale[1]), ev_exact(3.0)));
	exec_expect_ev(&x[1], p, ev_exact(ubo_arr[k]));
	exec_expect_ev(&x[2], p, ev_exact(ubo_m[col][2]));
	struct ev s = ev_mul(p, ev_exact(ubo_m[0][0]), ev_exact(ubo_v3[0]));
	s = ev_mad(p, ev_exact(ubo_m[1][0]), ev_exact(ubo_v3[1]), s);
	s = ev_mad(p, ev_exact(ubo_m[2][0]), ev_exact(ubo_v3[2]), s);
	exec_expect_ev(&x[3], p, s);
	exec_expect_ev(&x[4], p, ev_exact(7 - 9 + 1234));
}

static const struct exec_hand ubo_std140 = {
	"ubo_std140_members",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { float x[]; };\n"
	"layout(std430, binding = 1) buffer Out { float r[]; };\n"
	"layout(std140, binding = 2) uniform Params {\n\tvec4 scale;\n\tfloat offset;\n"
	"\tivec2 iv;\n\tmat3 m;\n\tfloat arr[4];\n\tvec3 v3;\n\tint tail;\n};\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, o = 5u * i;\n"
	"\tr[o] = x[i] * scale.y + offset;\n\tr[o + 1u] = arr[i % 4u];\n"
	"\tr[o + 2u] = m[i % 3u].z;\n\tr[o + 3u] = (m * v3).x;\n"
	"\tr[o + 4u] = float(iv.x + iv.y + tail);\n}\n",
	GROUPS2,
	1,
	DOM_MID,
	5,
	'f',
	ref_ubo,
	setup_ubo,
};

static int setup_ubo_table(const struct exec_hand *h, struct exec_case *c)
{
	uint8_t *u = exec_case_buffer(c, 3, true, 16 * 16 + 4 * 16);

	if (!u)
		return -ENOMEM;
	for (unsigned k = 0; k < 16; k++) {
		float t[4] = { (float)k, (float)k * 2.0f, (float)k * -0.5f, 100.0f + (float)k };
		memcpy(u + 16 * k, t, 16);
	}
	for (unsigned k = 0; k < 4; k++) {
		int32_t v[4] = { (int32_t)k, -(int32_t)k, (int32_t)k * 7, 3 };
		memcpy(u + 256 + 16 * k, v, 16);
	}
	return 0;
}

static void ref_ubo_table(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	unsigned a = inv & 15, b = (inv >> 4) & 3;

	exec_expect_bits(&x[0], exec_fbits((float)a * 2.0f + (float)((int32_t)b * 7)));
	exec_expect_bits(&x[1], exec_fbits(100.0f + (float)a));
}

static const struct exec_hand ubo_table = {
	"ubo_dynamic_index",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 1) buffer Out { float r[]; };\n"
	"layout(std140, binding = 3) uniform Tbl {\n\tvec4 t[16];\n\tivec4 k[4];\n} tbl;\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	"\tr[2u * i] = tbl.t[i & 15u].y + float(tbl.k[(i >> 4u) & 3u].z);\n"
	"\tr[2u * i + 1u] = tbl.t[i & 15u][3];\n}\n",
	GROUPS2,
	0,
	DOM_INT,
	2,
	'f',
	ref_ubo_table,
	setup_ubo_table,
};

static int setup_uniforms(const struct exec_hand *h, struct exec_case *c)
{
	float scale = 1.5f, bias[3] = { -1.0f, 0.5f, 2.0f };
	int32_t count = 3;
	uint32_t mask[2] = { 0xff00ff00u, 0x0f0f0f0fu }, b[3];

	memcpy(b, bias, sizeof(b));
	exec_case_uniform(c, "u_scale", 1, (const uint32_t *)&scale);
	exec_case_uniform(c, "u_bias", 3, b);
	exec_case_uniform(c, "u_count", 1, (const uint32_t *)&count);
	exec_case_uniform(c, "u_mask", 2, mask);
	return 0;
}

static void ref_uniforms(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	struct ev v = ev_exact((float)exec_in_i(in, inv, 1, 0));
	static const float bias[3] = { -1.0f, 0.5f, 2.0f };
	uint32_t u = in[inv];

	exec_expect_ev(&x[0], p, ev_mad(p, v, ev_exact(1.5), ev_exact(bias[inv % 3])));
	exec_expect_bits(&x[1], exec_fbits((float)(3 * (int32_t)(inv % 5))));
	/* (u & mask.x) ^ mask.y, as bits of the float output */
	exec_expect_bits(&x[2], (u & 0xff00ff00u) ^ 0x0f0f0f0fu);
	if (!(exec_bitsf(x[2].bits) == exec_bitsf(x[2].bits)) ||
	    exec_is_denormal(exec_bitsf(x[2].bits)))
		x[2].kind = EXEC_ANY; /* (a NaN or a denormal pattern need not survive) */
}

static const struct exec_hand uniforms = {
	"uniforms_default_block",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { int x[]; };\n"
	"layout(std430, binding = 1) buffer Out { float r[]; };\n"
	"uniform float u_scale;\nuniform vec3 u_bias;\nuniform int u_count;\nuniform uvec2 "
	"u_mask;\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x, o = 3u * i;\n"
	"\tr[o] = float(x[i]) * u_scale + u_bias[i % 3u];\n"
	"\tr[o + 1u] = float(u_count * int(i % 5u));\n"
	"\tr[o + 2u] = uintBitsToFloat((uint(x[i]) & u_mask.x) ^ u_mask.y);\n}\n",
	GROUPS2,
	1,
	DOM_INT_SMALL,
	3,
	'f',
	ref_uniforms,
	setup_uniforms,
};

/* ---- storage block layouts (std430)
 * ------------------------------------------------------------------- */

/*
 * struct Item { vec3 p; float w; ivec2 q; uint flags; }: p at 0, w at 12,
 * q at 16, flags at 24; the struct aligned to 16 (its vec3), so an array
 * of them has a stride of 32 (std430, as std140 without rounding up to a
 * vec4's alignment for scalars and arrays).
 */
static void ref_struct_layout(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const struct exec_prec *p = exec_prec(PREC_HIGH);
	const uint32_t *it = in + inv * 8;

	for (unsigned k = 0; k < 3; k++)
		exec_expect_ev(&x[k], p, ev_mul(p, ev_exact(exec_bitsf(it[k])), ev_exact(2.0)));
	exec_expect_ev(&x[3], p, ev_add(p, ev_exact(exec_bitsf(it[3])), ev_exact(1.0)));
	exec_expect_bits(&x[4], it[5]);
	exec_expect_bits(&x[5], it[4]);
	exec_expect_bits(&x[6], it[6] ^ 1u);
	exec_expect_bits(&x[7], 0xdeadbeefu); /* padding: never written */
}

static int setup_struct_layout(const struct exec_hand *h, struct exec_case *c)
{
	uint32_t *in = (uint32_t *)c->buffers[0].data, *out = (uint32_t *)c->buffers[1].data;
	struct exec_rng rng;

	exec_rng_seed(&rng, h->name, 1);
	for (unsigned i = 0; i < 128; i++) {
		for (unsigned k = 0; k < 4; k++)
			in[8 * i + k] = exec_fbits((float)exec_rng_range(&rng, -100, 100));
		in[8 * i + 4] = (uint32_t)exec_rng_next(&rng);
		in[8 * i + 5] = (uint32_t)exec_rng_next(&rng);
		in[8 * i + 6] = (uint32_t)exec_rng_next(&rng);
		in[8 * i + 7] = 0;
		out[8 * i + 7] = 0xdeadbeefu;
	}
	return 0;
}

static const struct exec_hand struct_layout = {
	"ssbo_struct_array_layout",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"struct Item { vec3 p; float w; ivec2 q; uint flags; };\n"
	"layout(std430, binding = 0) buffer In { Item items[]; };\n"
	"layout(std430, binding = 1) buffer Out { Item outs[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tItem t = items[i];\n"
	"\touts[i] = Item(t.p * 2.0, t.w + 1.0, t.q.yx, t.flags ^ 1u);\n}\n",
	GROUPS2,
	8,
	DOM_INT,
	8,
	'u',
	ref_struct_layout,
	setup_struct_layout,
};

/* vec3 arrays have a stride of 16: the fourth word of each is left alone. */
static void ref_vec3_array(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const uint32_t *v = in + inv * 4;

	exec_expect_float(&x[0], exec_bitsf(v[2]));
	exec_expect_float(&x[1], exec_bitsf(v[0]));
	exec_expect_float(&x[2], exec_bitsf(v[1]));
	exec_expect_bits(&x[3], 0x12345678u);
}

static int setup_vec3_array(const struct exec_hand *h, struct exec_case *c)
{
	uint32_t *out = (uint32_t *)c->buffers[1].data;

	for (unsigned i = 0; i < 128; i++)
		out[4 * i + 3] = 0x12345678u;
	return 0;
}

static const struct exec_hand vec3_array = {
	"ssbo_vec3_array_stride",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { vec3 v[]; };\n"
	"layout(std430, binding = 1) buffer Out { vec3 o[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\to[i] = v[i].zxy;\n}\n",
	GROUPS2,
	4,
	DOM_UNIT,
	4,
	'f',
	ref_vec3_array,
	setup_vec3_array,
};

/* A block with members before its runtime array: count at 0, scale at 4, data from 8. */
static void ref_header(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	int32_t count = (int32_t)in[0], d = (int32_t)in[2 + inv];

	exec_expect_bits(&x[0], (uint32_t)(d * count + 2));
}

static int setup_header(const struct exec_hand *h, struct exec_case *c)
{
	uint32_t *in = (uint32_t *)c->buffers[0].data;
	float scale = 2.75f;

	in[0] = 3;
	memcpy(&in[1], &scale, 4);
	for (unsigned i = 0; i < 128; i++)
		in[2 + i] = (uint32_t)((int32_t)(i * 37 % 200) - 100);
	return 0;
}

static const struct exec_hand header = {
	"ssbo_members_before_array",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { int count; float scale; int data[]; };\n"
	"layout(std430, binding = 1) buffer Out { int r[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n"
	"\tr[i] = data[i] * count + int(scale);\n}\n",
	GROUPS2,
	2,
	DOM_INT,
	1,
	'i',
	ref_header,
	setup_header,
};

/* The same buffer read and written (binding 1 starts as a copy of the inputs). */
static void ref_rmw(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	exec_expect_bits(&x[0], in[inv] * 2u + 1u);
}

static int setup_rmw(const struct exec_hand *h, struct exec_case *c)
{
	memcpy(c->buffers[1].data, c->buffers[0].data, c->buffers[1].size);
	return 0;
}

static const struct exec_hand rmw = {
	"ssbo_read_modify_write",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 1) buffer Data { uint v[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tv[i] = v[i] * 2u + 1u;\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	ref_rmw,
	setup_rmw,
};

/* bool members of a storage block hold 0 or 1 in a 32-bit word. */
static void ref_bool_member(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	exec_expect_bits(&x[0], (int32_t)in[inv] > 0);
}

static const struct exec_hand bool_member = {
	"ssbo_bool_member",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { int x[]; };\n"
	"layout(std430, binding = 1) buffer Out { bool flags[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tflags[i] = x[i] > 0;\n}\n",
	GROUPS2,
	1,
	DOM_INT,
	1,
	'u',
	ref_bool_member,
};

/* Whole vectors written at once, and a store of one component only. */
static void ref_uvec4(const uint32_t *in, unsigned inv, unsigned n, struct exec_expect *x)
{
	const uint32_t *v = in + inv * 4;

	exec_expect_bits(&x[0], v[3]);
	exec_expect_bits(&x[1], v[2] + v[1]);
	exec_expect_bits(&x[2], 7u);
	exec_expect_bits(&x[3], v[0] ^ 0xffffffffu);
}

static const struct exec_hand uvec4_store = {
	"ssbo_uvec4_partial_store",
	"#version 310 es\nlayout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer In { uvec4 x[]; };\n"
	"layout(std430, binding = 1) buffer Out { uvec4 r[]; };\n"
	"void main()\n{\n\tuint i = gl_GlobalInvocationID.x;\n\tuvec4 v = x[i];\n"
	"\tr[i] = uvec4(v.w, v.z + v.y, 0u, ~v.x);\n\tr[i].z = 7u;\n}\n",
	GROUPS2,
	4,
	DOM_INT,
	4,
	'u',
	ref_uvec4,
};

void exec_memory_register(struct exec_list *l)
{
	static const struct exec_hand *all[] = {
		&shared_reverse,   &shared_memory_barrier,
		&shared_reduce,	   &shared_prefix,
		&shared_struct,	   &shared_transpose,
		&shared_divergent, &shared_wgsize,
		&atomic_counter,   &atomic_ops,
		&atomic_exchange,  &atomic_compswap,
		&atomic_shared,	   &sysvals_1d,
		&sysvals_3d,	   &ubo_std140,
		&ubo_table,	   &uniforms,
		&struct_layout,	   &vec3_array,
		&header,	   &rmw,
		&bool_member,	   &uvec4_store,
	};

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		exec_add_hand(l, all[i]);
}

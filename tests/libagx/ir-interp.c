/*
 * ir-interp.c: the IR interpreter of ir-interp.h -- the SIMT walk of the
 * control flow tree with per-invocation masks, and each op's meaning as
 * agx_ir_ops.h states it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir-interp.h"

/* Invocations of a threadgroup: GLSL ES 3.10's minimum of
 * MAX_COMPUTE_WORK_GROUP_INVOCATIONS is 128; the AGX takes 1024. */
#define MAX_INVOCATIONS 1024
#define MASK_WORDS	(MAX_INVOCATIONS / 64)

struct mask {
	uint64_t w[MASK_WORDS];
};

static bool mask_any(const struct mask *m)
{
	for (unsigned i = 0; i < MASK_WORDS; i++)
		if (m->w[i])
			return true;
	return false;
}

static bool mask_has(const struct mask *m, unsigned lane)
{
	return (m->w[lane / 64] >> (lane % 64)) & 1;
}

static void mask_set(struct mask *m, unsigned lane)
{
	m->w[lane / 64] |= (uint64_t)1 << (lane % 64);
}

static void mask_or(struct mask *d, const struct mask *s)
{
	for (unsigned i = 0; i < MASK_WORDS; i++)
		d->w[i] |= s->w[i];
}

static void mask_andnot(struct mask *d, const struct mask *s)
{
	for (unsigned i = 0; i < MASK_WORDS; i++)
		d->w[i] &= ~s->w[i];
}

static bool mask_equal(const struct mask *a, const struct mask *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

#define foreach_lane(it, m, l)                                                                     \
	for (unsigned l = 0; l < (it)->n; l++)                                                     \
		if (mask_has(m, l))

/* The innermost loop's invocations that left it, and that go on to its next iteration. */
struct loop_state {
	struct mask broke, continued;
};

struct interp {
	struct agx_ir_shader *shader;
	struct agx_ir_function *func;
	const struct ir_interp_args *args;
	unsigned n;		    /* invocations per threadgroup */
	unsigned group[3];	    /* the threadgroup running */
	uint32_t *vals;		    /* def d of invocation l: vals[d * n + l] */
	struct agx_ir_block **from; /* each invocation's last block run */
	uint8_t *shared;
	struct mask alive; /* invocations that did not discard */
	struct loop_state *loop;
	uint64_t *steps;
	uint64_t max_steps;
	bool failed;
	char *why;
	size_t whysize;
};

static void fail(struct interp *it, struct agx_ir_instr *instr, int lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(struct interp *it, struct agx_ir_instr *instr, int lane, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (it->failed)
		return;
	it->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char *text = instr ? agx_ir_instr_to_string(instr) : NULL;
	if (text)
		snprintf(it->why, it->whysize,
			 "`%s` (block %u, threadgroup %u,%u,%u, invocation %d): %s", text,
			 instr->block->index, it->group[0], it->group[1], it->group[2], lane, msg);
	else
		snprintf(it->why, it->whysize, "threadgroup %u,%u,%u, invocation %d: %s",
			 it->group[0], it->group[1], it->group[2], lane, msg);
	free(text);
}

/* ---- values ------------------------------------------------------------------ */

static uint32_t src_bits(struct interp *it, const struct agx_ir_src *s, unsigned lane)
{
	return s->def ? it->vals[s->def->index * it->n + lane] : s->imm;
}

static float bits_f32(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

static uint32_t f32_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

/* A float source as a float, whatever its size. */
static float src_float(struct interp *it, const struct agx_ir_src *s, unsigned lane)
{
	uint32_t b = src_bits(it, s, lane);

	return agx_ir_src_type(s) == AGX_IR_TYPE_F16 ? agx_ir_f16_to_f32(b & 0xffff) : bits_f32(b);
}

static uint32_t float_result(enum agx_ir_type type, float f)
{
	return type == AGX_IR_TYPE_F16 ? agx_ir_f32_to_f16(f) : f32_bits(f);
}

/* An integer source, sign- or zero-extended from its size. */
static int64_t src_int(struct interp *it, const struct agx_ir_src *s, unsigned lane)
{
	uint32_t b = src_bits(it, s, lane);

	return agx_ir_src_type(s) == AGX_IR_TYPE_I16 ? (int64_t)(int16_t)b : (int64_t)(int32_t)b;
}

static uint64_t src_uint(struct interp *it, const struct agx_ir_src *s, unsigned lane)
{
	uint32_t b = src_bits(it, s, lane);

	return agx_ir_src_type(s) == AGX_IR_TYPE_I16 ? (b & 0xffff) : b;
}

static uint32_t type_mask(enum agx_ir_type type)
{
	switch (agx_ir_type_bits(type)) {
	case 1:
		return 1;
	case 16:
		return 0xffff;
	default:
		return 0xffffffff;
	}
}

/* f2i and f2u: toward zero, saturating, NaN giving 0 (docs/isa.md, conversions). */
static uint32_t float_to_int(float f, enum agx_ir_type type, bool is_signed)
{
	double lo, hi;

	if (isnan(f))
		return 0;
	if (type == AGX_IR_TYPE_I16) {
		lo = is_signed ? INT16_MIN : 0;
		hi = is_signed ? INT16_MAX : UINT16_MAX;
	} else {
		lo = is_signed ? (double)INT32_MIN : 0;
		hi = is_signed ? INT32_MAX : UINT32_MAX;
	}
	double t = trunc((double)f);
	t = t < lo ? lo : t > hi ? hi : t;
	return (uint32_t)(is_signed ? (uint64_t)(int64_t)t : (uint64_t)t) & type_mask(type);
}

/* sin_pt_1 and sin_pt_2 as the simulator has them (docs/isa.md, "Unary float"). */
static double sin_pt_1(double x)
{
	if (x > 1.0 && x <= 3.0)
		return 2.0 - x;
	if (x > 3.0)
		return x - 4.0;
	return x;
}

static double sin_pt_2(double t)
{
	return t == 0.0 ? M_PI_2 : sin(t * M_PI_2) / t;
}

/* ---- memory ------------------------------------------------------------------ */

static unsigned value_bytes(struct interp *it, struct agx_ir_instr *instr, enum agx_ir_type type)
{
	unsigned bits = agx_ir_type_bits(type);

	if (bits != 16 && bits != 32) {
		fail(it, instr, -1, "memory values are 16 or 32 bits, not %s",
		     agx_ir_type_name(type));
		return 0;
	}
	return bits / 8;
}

/* A byte range of a buffer, checked; NULL (and the run failed) outside it or misaligned. */
static uint8_t *buffer_at(struct interp *it, struct agx_ir_instr *instr, unsigned lane,
			  uint8_t *data, size_t size, uint64_t offset, unsigned bytes,
			  const char *what)
{
	if (!bytes)
		return NULL;
	if (offset % bytes) {
		fail(it, instr, lane, "%s at byte %" PRIu64 " is not aligned to %u", what, offset,
		     bytes);
		return NULL;
	}
	if (!data || offset > size || size - offset < bytes) {
		fail(it, instr, lane, "%s at byte %" PRIu64 " is outside its %zu bytes", what,
		     offset, size);
		return NULL;
	}
	return data + offset;
}

static bool var_has_binding(struct interp *it, enum agx_ir_var_kind kind, unsigned binding)
{
	for (unsigned i = 0; i < it->shader->num_vars; i++)
		if (it->shader->vars[i].kind == kind && it->shader->vars[i].binding == binding)
			return true;
	return false;
}

/* The buffer of an SSBO or UBO binding, which a var of the shader must name. */
static const struct ir_interp_buffer *binding_buffer(struct interp *it, struct agx_ir_instr *instr,
						     bool ubo, unsigned binding)
{
	const struct ir_interp_buffer *list = ubo ? it->args->ubos : it->args->ssbos;
	unsigned count = ubo ? it->args->num_ubos : it->args->num_ssbos;

	if (!var_has_binding(it, ubo ? AGX_IR_VAR_UBO : AGX_IR_VAR_SSBO, binding)) {
		fail(it, instr, -1, "no %s var has binding %u", ubo ? "UBO" : "SSBO", binding);
		return NULL;
	}
	for (unsigned i = 0; i < count; i++)
		if (list[i].binding == binding)
			return &list[i];
	fail(it, instr, -1, "nothing is bound at %s binding %u", ubo ? "UBO" : "SSBO", binding);
	return NULL;
}

static uint8_t *binding_at(struct interp *it, struct agx_ir_instr *instr, unsigned lane, bool ubo,
			   unsigned binding, uint64_t offset, unsigned bytes)
{
	const struct ir_interp_buffer *buf = binding_buffer(it, instr, ubo, binding);

	if (!buf)
		return NULL;
	return buffer_at(it, instr, lane, buf->data, buf->size, offset, bytes,
			 ubo ? "a UBO access" : "an SSBO access");
}

/* Device memory at the address in uniform registers base, base + 1, plus index items. */
static uint8_t *global_at(struct interp *it, struct agx_ir_instr *instr, unsigned lane,
			  unsigned base, uint64_t index, unsigned bytes)
{
	const struct ir_interp_args *a = it->args;

	if (!bytes)
		return NULL;
	if (base + 1 >= a->num_uniform_regs) {
		fail(it, instr, lane, "uniform registers %u, %u are not given", base, base + 1);
		return NULL;
	}
	uint64_t addr =
	    (a->uniform_regs[base] | (uint64_t)a->uniform_regs[base + 1] << 32) + index * bytes;
	for (unsigned i = 0; i < a->num_memory; i++) {
		const struct ir_interp_memory *m = &a->memory[i];

		if (addr >= m->address && addr - m->address < m->size)
			return buffer_at(it, instr, lane, m->data, m->size, addr - m->address,
					 bytes, "a device memory access");
	}
	fail(it, instr, lane, "no device memory at 0x%" PRIx64, addr);
	return NULL;
}

static uint32_t load_bytes(const uint8_t *p, unsigned bytes)
{
	uint32_t v = 0;

	memcpy(&v, p, bytes); /* little-endian hosts, as the device */
	return v;
}

static void store_bytes(uint8_t *p, uint32_t v, unsigned bytes)
{
	memcpy(p, &v, bytes);
}

/* The ISA's atomic_op numbers (libagx/isa/g13.isa, enum atomic_op); cmpxchg has its own ops. */
static bool atomic_apply(unsigned op, uint32_t old, uint32_t v, uint32_t *out)
{
	switch (op) {
	case 0:
		*out = old + v;
		return true;
	case 1:
		*out = old - v;
		return true;
	case 2:
		*out = v;
		return true;
	case 4:
		*out = old < v ? old : v;
		return true;
	case 5:
		*out = (int32_t)old < (int32_t)v ? old : v;
		return true;
	case 6:
		*out = old > v ? old : v;
		return true;
	case 7:
		*out = (int32_t)old > (int32_t)v ? old : v;
		return true;
	case 8:
		*out = old & v;
		return true;
	case 9:
		*out = old | v;
		return true;
	case 10:
		*out = old ^ v;
		return true;
	default:
		return false;
	}
}

/* ---- one instruction, one invocation ------------------------------------------- */

static uint32_t float_op(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	enum agx_ir_type t = instr->dest.type;
	float a = src_float(it, &instr->src[0], lane);
	float b = instr->num_srcs > 1 ? src_float(it, &instr->src[1], lane) : 0.0f;
	float c = instr->num_srcs > 2 ? src_float(it, &instr->src[2], lane) : 0.0f;
	float r;

	switch (instr->op) {
	case AGX_IR_OP_fadd:
		r = a + b;
		break;
	case AGX_IR_OP_fsub:
		r = a - b;
		break;
	case AGX_IR_OP_fmul:
		r = a * b;
		break;
	case AGX_IR_OP_ffma:
		r = fmaf(a, b, c);
		break;
	case AGX_IR_OP_fdiv:
		r = a / b;
		break;
	case AGX_IR_OP_fneg:
		r = -a;
		break;
	case AGX_IR_OP_fabs:
		r = fabsf(a);
		break;
	case AGX_IR_OP_fmin:
		r = fminf(a, b);
		break;
	case AGX_IR_OP_fmax:
		r = fmaxf(a, b);
		break;
	case AGX_IR_OP_ffloor:
		r = floorf(a);
		break;
	case AGX_IR_OP_fceil:
		r = ceilf(a);
		break;
	case AGX_IR_OP_ftrunc:
		r = truncf(a);
		break;
	case AGX_IR_OP_fround_even:
		r = nearbyintf(a); /* the default rounding mode: to nearest even */
		break;
	case AGX_IR_OP_ffract:
		r = a - floorf(a);
		break;
	case AGX_IR_OP_frcp:
		r = 1.0f / a;
		break;
	case AGX_IR_OP_frsqrt:
		r = (float)(1.0 / sqrt((double)a));
		break;
	case AGX_IR_OP_frsqrt_special:
		r = a == 0.0f ? 0.0f : isinf(a) ? INFINITY : (float)(1.0 / sqrt((double)a));
		break;
	case AGX_IR_OP_fsqrt:
		r = sqrtf(a);
		break;
	case AGX_IR_OP_fexp2:
		r = exp2f(a);
		break;
	case AGX_IR_OP_flog2:
		r = log2f(a);
		break;
	case AGX_IR_OP_fsin:
		r = sinf(a);
		break;
	case AGX_IR_OP_fcos:
		r = cosf(a);
		break;
	case AGX_IR_OP_fpow:
		r = powf(a, b);
		break;
	case AGX_IR_OP_fsin_pt_1:
		r = (float)sin_pt_1(a);
		break;
	case AGX_IR_OP_fsin_pt_2:
		r = (float)sin_pt_2(a);
		break;
	default:
		fail(it, instr, lane, "not a float op");
		return 0;
	}
	return float_result(t, r);
}

static uint32_t int_op(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	enum agx_ir_type t = instr->dest.type;
	unsigned bits = agx_ir_type_bits(t);
	int64_t a = src_int(it, &instr->src[0], lane);
	int64_t b = instr->num_srcs > 1 ? src_int(it, &instr->src[1], lane) : 0;
	uint64_t ua = src_uint(it, &instr->src[0], lane);
	uint64_t ub = instr->num_srcs > 1 ? src_uint(it, &instr->src[1], lane) : 0;
	uint64_t r;

	switch (instr->op) {
	case AGX_IR_OP_iadd:
		r = ua + ub;
		break;
	case AGX_IR_OP_isub:
		r = ua - ub;
		break;
	case AGX_IR_OP_imul:
		r = ua * ub;
		break;
	case AGX_IR_OP_ineg:
		r = -ua;
		break;
	/*
	 * Division by zero is undefined in GLSL ES (3.00 section 5.9); these
	 * give all ones (a quotient) or the dividend (a remainder), and the
	 * overflowing INT_MIN / -1 wraps, so that the interpreter itself is
	 * defined for every input.
	 */
	case AGX_IR_OP_idiv:
		r = b == 0 ? ~(uint64_t)0 : (uint64_t)(a / b);
		break;
	case AGX_IR_OP_udiv:
		r = ub == 0 ? ~(uint64_t)0 : ua / ub;
		break;
	case AGX_IR_OP_irem:
		r = b == 0 ? (uint64_t)a : (uint64_t)(a % b);
		break;
	case AGX_IR_OP_umod:
		r = ub == 0 ? ua : ua % ub;
		break;
	case AGX_IR_OP_iand:
		r = ua & ub;
		break;
	case AGX_IR_OP_ior:
		r = ua | ub;
		break;
	case AGX_IR_OP_ixor:
		r = ua ^ ub;
		break;
	case AGX_IR_OP_inot:
		r = ~ua;
		break;
	case AGX_IR_OP_ishl:
		r = ua << (ub % bits);
		break;
	case AGX_IR_OP_ishr:
		r = (uint64_t)(a >> (ub % bits));
		break;
	case AGX_IR_OP_ushr:
		r = ua >> (ub % bits);
		break;
	case AGX_IR_OP_imin:
		r = (uint64_t)(a < b ? a : b);
		break;
	case AGX_IR_OP_imax:
		r = (uint64_t)(a > b ? a : b);
		break;
	case AGX_IR_OP_umin:
		r = ua < ub ? ua : ub;
		break;
	case AGX_IR_OP_umax:
		r = ua > ub ? ua : ub;
		break;
	case AGX_IR_OP_imul_high:
		r = (uint64_t)(a * b) >> 32;
		break;
	case AGX_IR_OP_umul_high:
		r = (ua * ub) >> 32;
		break;
	default:
		fail(it, instr, lane, "not an integer op");
		return 0;
	}
	return (uint32_t)r & type_mask(t);
}

static bool compare_op(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	const struct agx_ir_src *s = instr->src;

	switch (instr->op) {
	case AGX_IR_OP_feq:
		return src_float(it, &s[0], lane) == src_float(it, &s[1], lane);
	case AGX_IR_OP_fne: /* unordered: true with a NaN */
		return !(src_float(it, &s[0], lane) == src_float(it, &s[1], lane));
	case AGX_IR_OP_flt:
		return src_float(it, &s[0], lane) < src_float(it, &s[1], lane);
	case AGX_IR_OP_fge:
		return src_float(it, &s[0], lane) >= src_float(it, &s[1], lane);
	case AGX_IR_OP_ieq:
		return src_uint(it, &s[0], lane) == src_uint(it, &s[1], lane);
	case AGX_IR_OP_ine:
		return src_uint(it, &s[0], lane) != src_uint(it, &s[1], lane);
	case AGX_IR_OP_ilt:
		return src_int(it, &s[0], lane) < src_int(it, &s[1], lane);
	case AGX_IR_OP_ige:
		return src_int(it, &s[0], lane) >= src_int(it, &s[1], lane);
	case AGX_IR_OP_ult:
		return src_uint(it, &s[0], lane) < src_uint(it, &s[1], lane);
	case AGX_IR_OP_uge:
		return src_uint(it, &s[0], lane) >= src_uint(it, &s[1], lane);
	default:
		fail(it, instr, lane, "not a comparison");
		return false;
	}
}

static uint32_t system_value(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	const unsigned *ls = it->shader->local_size;
	unsigned local[3] = { lane % ls[0], lane / ls[0] % ls[1], lane / (ls[0] * ls[1]) };
	unsigned c = instr->imm[0];

	if (instr->op != AGX_IR_OP_load_local_index && c > 2) {
		fail(it, instr, lane, "component %u of a system value", c);
		return 0;
	}
	switch (instr->op) {
	case AGX_IR_OP_load_global_id:
		return it->group[c] * ls[c] + local[c];
	case AGX_IR_OP_load_local_id:
		return local[c];
	case AGX_IR_OP_load_workgroup_id:
		return it->group[c];
	case AGX_IR_OP_load_num_workgroups:
		return it->args->groups[c];
	case AGX_IR_OP_load_local_index:
		return lane;
	default:
		return 0;
	}
}

/* Everything but phis, barriers and terminators, for one invocation. */
/* A texture op through the caller's model: its sources by agx_ir_tex_layout(). */
static uint32_t texture_op(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	struct ir_interp_tex q = { .op = instr->op, .unit = instr->imm[0], .dim = instr->imm[1] };
	const struct agx_ir_src *s = instr->src;
	uint32_t out = 0;
	char msg[256] = "";

	if (!it->args->texture) {
		fail(it, instr, (int)lane, "no texture model to ask");
		return 0;
	}
	if (instr->op == AGX_IR_OP_texture_size) {
		q.lod_mode = 6;
		q.component = instr->imm[2];
		q.lod = src_bits(it, &s[0], lane);
	} else {
		struct agx_ir_tex_layout lay;
		unsigned off = instr->imm[4];

		if (!agx_ir_tex_layout(instr->op, instr->imm, &lay) ||
		    lay.num_srcs != instr->num_srcs) {
			fail(it, instr, (int)lane, "the indices name no texture layout");
			return 0;
		}
		q.lod_mode = instr->imm[2];
		q.compare = instr->imm[3] != 0;
		q.component = instr->imm[5];
		for (unsigned k = 0; k < 3; k++)
			q.offset[k] = (int)((off >> (4 * k)) & 7) - (int)((off >> (4 * k)) & 8);
		q.num_coords = lay.coords;
		for (unsigned k = 0; k < lay.coords; k++)
			q.coord[k] = src_bits(it, &s[k], lane);
		if (lay.layer >= 0) {
			q.has_layer = true;
			q.layer = (int32_t)src_bits(it, &s[lay.layer], lane);
		}
		if (lay.lod >= 0)
			q.lod = src_bits(it, &s[lay.lod], lane);
		for (int k = 0; lay.grad >= 0 && k < 2 * (int)lay.coords; k++)
			q.grad[k] = src_float(it, &s[lay.grad + k], lane);
		if (lay.reference >= 0)
			q.reference = src_float(it, &s[lay.reference], lane);
	}
	if (it->args->texture(it->args->texture_ctx, &q, &out, msg, sizeof(msg)))
		fail(it, instr, (int)lane, "%s", msg);
	return out;
}

static uint32_t eval(struct interp *it, struct agx_ir_instr *instr, unsigned lane)
{
	const struct agx_ir_src *s = instr->src;
	enum agx_ir_type t = instr->dest.type;
	unsigned bytes;
	uint8_t *p;

	switch (instr->op) {
	case AGX_IR_OP_fadd:
	case AGX_IR_OP_fsub:
	case AGX_IR_OP_fmul:
	case AGX_IR_OP_ffma:
	case AGX_IR_OP_fdiv:
	case AGX_IR_OP_fneg:
	case AGX_IR_OP_fabs:
	case AGX_IR_OP_fmin:
	case AGX_IR_OP_fmax:
	case AGX_IR_OP_ffloor:
	case AGX_IR_OP_fceil:
	case AGX_IR_OP_ftrunc:
	case AGX_IR_OP_fround_even:
	case AGX_IR_OP_ffract:
	case AGX_IR_OP_frcp:
	case AGX_IR_OP_frsqrt:
	case AGX_IR_OP_fsqrt:
	case AGX_IR_OP_fexp2:
	case AGX_IR_OP_flog2:
	case AGX_IR_OP_fsin:
	case AGX_IR_OP_fcos:
	case AGX_IR_OP_fpow:
	case AGX_IR_OP_frsqrt_special:
	case AGX_IR_OP_fsin_pt_1:
	case AGX_IR_OP_fsin_pt_2:
		return float_op(it, instr, lane);
	case AGX_IR_OP_iadd:
	case AGX_IR_OP_isub:
	case AGX_IR_OP_imul:
	case AGX_IR_OP_ineg:
	case AGX_IR_OP_idiv:
	case AGX_IR_OP_udiv:
	case AGX_IR_OP_irem:
	case AGX_IR_OP_umod:
	case AGX_IR_OP_iand:
	case AGX_IR_OP_ior:
	case AGX_IR_OP_ixor:
	case AGX_IR_OP_inot:
	case AGX_IR_OP_ishl:
	case AGX_IR_OP_ishr:
	case AGX_IR_OP_ushr:
	case AGX_IR_OP_imin:
	case AGX_IR_OP_imax:
	case AGX_IR_OP_umin:
	case AGX_IR_OP_umax:
	case AGX_IR_OP_imul_high:
	case AGX_IR_OP_umul_high:
		return int_op(it, instr, lane);
	case AGX_IR_OP_feq:
	case AGX_IR_OP_fne:
	case AGX_IR_OP_flt:
	case AGX_IR_OP_fge:
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ine:
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ige:
	case AGX_IR_OP_ult:
	case AGX_IR_OP_uge:
		return compare_op(it, instr, lane);
	case AGX_IR_OP_band:
		return src_bits(it, &s[0], lane) & src_bits(it, &s[1], lane) & 1;
	case AGX_IR_OP_bor:
		return (src_bits(it, &s[0], lane) | src_bits(it, &s[1], lane)) & 1;
	case AGX_IR_OP_bxor:
		return (src_bits(it, &s[0], lane) ^ src_bits(it, &s[1], lane)) & 1;
	case AGX_IR_OP_bnot:
		return ~src_bits(it, &s[0], lane) & 1;
	case AGX_IR_OP_bcsel:
		return (src_bits(it, &s[0], lane) & 1) ? src_bits(it, &s[1], lane)
						       : src_bits(it, &s[2], lane);
	case AGX_IR_OP_f2i:
		return float_to_int(src_float(it, &s[0], lane), t, true);
	case AGX_IR_OP_f2u:
		return float_to_int(src_float(it, &s[0], lane), t, false);
	case AGX_IR_OP_i2f: /* an int32 converts to a double exactly, then rounds once */
		return t == AGX_IR_TYPE_F16 ? agx_ir_f32_to_f16((float)src_int(it, &s[0], lane))
					    : f32_bits((float)src_int(it, &s[0], lane));
	case AGX_IR_OP_u2f:
		return t == AGX_IR_TYPE_F16 ? agx_ir_f32_to_f16((float)src_uint(it, &s[0], lane))
					    : f32_bits((float)src_uint(it, &s[0], lane));
	case AGX_IR_OP_f2f16:
		return agx_ir_f32_to_f16(src_float(it, &s[0], lane));
	case AGX_IR_OP_f2f32:
		return f32_bits(src_float(it, &s[0], lane));
	case AGX_IR_OP_i2i16:
		return src_bits(it, &s[0], lane) & 0xffff;
	case AGX_IR_OP_i2i32:
		return (uint32_t)src_int(it, &s[0], lane);
	case AGX_IR_OP_u2u32:
		return (uint32_t)src_uint(it, &s[0], lane);
	case AGX_IR_OP_b2f:
		return (src_bits(it, &s[0], lane) & 1) ? float_result(t, 1.0f) : 0;
	case AGX_IR_OP_b2i:
		return src_bits(it, &s[0], lane) & 1;
	case AGX_IR_OP_mov:
	case AGX_IR_OP_bitcast:
		return src_bits(it, &s[0], lane) & type_mask(t);
	case AGX_IR_OP_load_global_id:
	case AGX_IR_OP_load_local_id:
	case AGX_IR_OP_load_workgroup_id:
	case AGX_IR_OP_load_num_workgroups:
	case AGX_IR_OP_load_local_index:
		return system_value(it, instr, lane);
	case AGX_IR_OP_load_uniform:
		bytes = value_bytes(it, instr, t);
		p = buffer_at(it, instr, lane, (uint8_t *)it->args->uniforms,
			      it->args->uniform_size, instr->imm[0], bytes, "a uniform read");
		return p ? load_bytes(p, bytes) : 0;
	case AGX_IR_OP_load_ubo:
	case AGX_IR_OP_load_ssbo:
		bytes = value_bytes(it, instr, t);
		p = binding_at(it, instr, lane, instr->op == AGX_IR_OP_load_ubo, instr->imm[0],
			       src_uint(it, &s[0], lane), bytes);
		return p ? load_bytes(p, bytes) : 0;
	case AGX_IR_OP_store_ssbo:
		bytes = value_bytes(it, instr, agx_ir_src_type(&s[0]));
		p = binding_at(it, instr, lane, false, instr->imm[0], src_uint(it, &s[1], lane),
			       bytes);
		if (p)
			store_bytes(p, src_bits(it, &s[0], lane), bytes);
		return 0;
	case AGX_IR_OP_load_shared:
		bytes = value_bytes(it, instr, t);
		p = buffer_at(it, instr, lane, it->shared, it->shader->shared_size,
			      src_uint(it, &s[0], lane), bytes, "a shared memory access");
		return p ? load_bytes(p, bytes) : 0;
	case AGX_IR_OP_store_shared:
		bytes = value_bytes(it, instr, agx_ir_src_type(&s[0]));
		p = buffer_at(it, instr, lane, it->shared, it->shader->shared_size,
			      src_uint(it, &s[1], lane), bytes, "a shared memory access");
		if (p)
			store_bytes(p, src_bits(it, &s[0], lane), bytes);
		return 0;
	case AGX_IR_OP_atomic_ssbo:
	case AGX_IR_OP_atomic_shared:
	case AGX_IR_OP_atomic_global:
	case AGX_IR_OP_cmpxchg_ssbo:
	case AGX_IR_OP_cmpxchg_shared:
	case AGX_IR_OP_cmpxchg_global: {
		bool cmpxchg = instr->op == AGX_IR_OP_cmpxchg_ssbo ||
			       instr->op == AGX_IR_OP_cmpxchg_shared ||
			       instr->op == AGX_IR_OP_cmpxchg_global;
		uint64_t addr = src_uint(it, &s[0], lane);

		if (instr->op == AGX_IR_OP_atomic_ssbo || instr->op == AGX_IR_OP_cmpxchg_ssbo)
			p = binding_at(it, instr, lane, false, instr->imm[0], addr, 4);
		else if (instr->op == AGX_IR_OP_atomic_global ||
			 instr->op == AGX_IR_OP_cmpxchg_global)
			p = global_at(it, instr, lane, instr->imm[0], addr, 4);
		else
			p = buffer_at(it, instr, lane, it->shared, it->shader->shared_size, addr, 4,
				      "a shared memory atomic");
		if (!p)
			return 0;
		uint32_t old = load_bytes(p, 4), v = src_bits(it, &s[1], lane), nv;
		if (cmpxchg) {
			nv = old == v ? src_bits(it, &s[2], lane) : old;
		} else {
			unsigned op =
			    instr->op == AGX_IR_OP_atomic_shared ? instr->imm[0] : instr->imm[1];
			if (!atomic_apply(op, old, v, &nv)) {
				fail(it, instr, lane, "atomic op %u is no atomic_op of the ISA",
				     op);
				return 0;
			}
		}
		store_bytes(p, nv, 4);
		return old;
	}
	case AGX_IR_OP_uniform_reg: {
		unsigned i = instr->imm[0];

		if (i >= it->args->num_uniform_regs) {
			fail(it, instr, lane, "uniform register %u is not given", i);
			return 0;
		}
		return it->args->uniform_regs[i] & type_mask(t);
	}
	case AGX_IR_OP_load_global_const:
	case AGX_IR_OP_load_global:
		bytes = value_bytes(it, instr, t);
		p = global_at(it, instr, lane, instr->imm[0], src_uint(it, &s[0], lane), bytes);
		return p ? load_bytes(p, bytes) : 0;
	case AGX_IR_OP_store_global:
		bytes = value_bytes(it, instr, agx_ir_src_type(&s[0]));
		p = global_at(it, instr, lane, instr->imm[0], src_uint(it, &s[1], lane), bytes);
		if (p)
			store_bytes(p, src_bits(it, &s[0], lane), bytes);
		return 0;
	case AGX_IR_OP_texture_sample:
	case AGX_IR_OP_texture_load:
	case AGX_IR_OP_texture_size:
		return texture_op(it, instr, lane) & type_mask(t);
	case AGX_IR_OP_undef:
		/* What an undefined value holds is unspecified: a pattern a
		 * result that depends on it shows. */
		return 0xbadbad5a & type_mask(t);
	default:
		fail(it, instr, lane, "the interpreter does not run %s",
		     agx_ir_op_info(instr->op)->name);
		return 0;
	}
}

/* ---- the control flow tree ------------------------------------------------------- */

static struct mask run_list(struct interp *it, struct agx_ir_cf_list *list, struct mask mask);

/* Each phi of block takes, per invocation, the source of the block it came from. */
static void run_phis(struct interp *it, struct agx_ir_block *block, const struct mask *mask)
{
	unsigned count = 0;

	agx_ir_foreach_instr(block, instr) {
		if (instr->op != AGX_IR_OP_phi)
			break;
		count++;
	}
	if (!count)
		return;

	/* All read before any is written: a phi may read another of the block. */
	uint32_t *tmp = calloc((size_t)count * it->n, sizeof(uint32_t));
	unsigned k = 0;
	if (!tmp) {
		fail(it, NULL, -1, "out of memory");
		return;
	}
	agx_ir_foreach_instr(block, instr) {
		if (instr->op != AGX_IR_OP_phi)
			break;
		foreach_lane(it, mask, l)
		{
			struct agx_ir_src *src = agx_ir_phi_src(instr, it->from[l]);

			if (!src) {
				fail(it, instr, (int)l,
				     "no source for block %u, where it came from",
				     it->from[l] ? it->from[l]->index : 0);
				break;
			}
			tmp[k * it->n + l] = src_bits(it, src, l);
		}
		k++;
	}
	k = 0;
	agx_ir_foreach_instr(block, instr) {
		if (instr->op != AGX_IR_OP_phi)
			break;
		foreach_lane(it, mask, l) it->vals[instr->dest.index * it->n + l] =
		    tmp[k * it->n + l];
		k++;
	}
	free(tmp);
}

static bool count_steps(struct interp *it, struct agx_ir_instr *instr, const struct mask *mask)
{
	foreach_lane(it, mask, l)
	{
		if (++it->steps[l] > it->max_steps) {
			fail(it, instr, (int)l, "more than %" PRIu64 " instructions: no end?",
			     it->max_steps);
			return false;
		}
	}
	return true;
}

/* Returns the invocations that go on after the block (not those that break or continue). */
static struct mask run_block(struct interp *it, struct agx_ir_block *block, struct mask mask)
{
	for (unsigned i = 0; i < MASK_WORDS; i++)
		mask.w[i] &= it->alive.w[i];
	if (!mask_any(&mask))
		return mask;

	run_phis(it, block, &mask);
	agx_ir_foreach_instr(block, instr) {
		if (it->failed)
			break;
		if (instr->op == AGX_IR_OP_phi)
			continue;
		if (!count_steps(it, instr, &mask))
			break;
		switch (instr->op) {
		case AGX_IR_OP_break:
		case AGX_IR_OP_continue:
			if (!it->loop) {
				fail(it, instr, -1, "outside a loop");
				break;
			}
			foreach_lane(it, &mask, l) it->from[l] = block;
			mask_or(instr->op == AGX_IR_OP_break ? &it->loop->broke
							     : &it->loop->continued,
				&mask);
			return (struct mask){ 0 };
		case AGX_IR_OP_barrier:
			if (!mask_equal(&mask, &it->alive))
				fail(it, instr, -1,
				     "a barrier that not every invocation of the group reaches");
			continue;
		case AGX_IR_OP_discard:
			mask_andnot(&it->alive, &mask);
			return (struct mask){ 0 };
		default:
			break;
		}
		struct agx_ir_def *dest = agx_ir_instr_dest(instr);
		foreach_lane(it, &mask, l)
		{
			uint32_t v = eval(it, instr, l);

			if (it->failed)
				break;
			if (dest)
				it->vals[dest->index * it->n + l] = v;
		}
	}
	foreach_lane(it, &mask, l) it->from[l] = block;
	return it->failed ? (struct mask){ 0 } : mask;
}

static struct mask run_if(struct interp *it, struct agx_ir_if *nif, struct mask mask)
{
	struct mask then_mask = { 0 }, else_mask = { 0 };

	foreach_lane(it, &mask, l)
	{
		if (src_bits(it, &nif->cond, l) & 1)
			mask_set(&then_mask, l);
		else
			mask_set(&else_mask, l);
	}
	struct mask out = run_list(it, &nif->then_list, then_mask);
	struct mask out_else = run_list(it, &nif->else_list, else_mask);
	mask_or(&out, &out_else);
	return out;
}

static struct mask run_loop(struct interp *it, struct agx_ir_loop *loop, struct mask mask)
{
	struct loop_state state = { 0 }, *outer = it->loop;

	it->loop = &state;
	while (mask_any(&mask) && !it->failed) {
		memset(&state.continued, 0, sizeof(state.continued));
		mask = run_list(it, &loop->body, mask);
		mask_or(&mask, &state.continued);
	}
	it->loop = outer;
	return state.broke;
}

static struct mask run_list(struct interp *it, struct agx_ir_cf_list *list, struct mask mask)
{
	for (struct agx_ir_link *l = list->nodes.next; l != &list->nodes; l = l->next) {
		struct agx_ir_cf_node *node = agx_ir_container_of(l, struct agx_ir_cf_node, link);

		if (it->failed || !mask_any(&mask))
			return (struct mask){ 0 };
		switch (node->type) {
		case AGX_IR_CF_BLOCK:
			mask = run_block(it, agx_ir_node_block(node), mask);
			break;
		case AGX_IR_CF_IF:
			mask = run_if(it, agx_ir_node_if(node), mask);
			break;
		case AGX_IR_CF_LOOP:
			mask = run_loop(it, agx_ir_node_loop(node), mask);
			break;
		default:
			fail(it, NULL, -1, "%s inside a function body",
			     agx_ir_cf_node_describe(node));
			return (struct mask){ 0 };
		}
	}
	return mask;
}

/* ---- the grid ---------------------------------------------------------------------- */

int ir_interp_run(struct agx_ir_shader *shader, const struct ir_interp_args *args, char *why,
		  size_t whysize)
{
	struct interp it = { .shader = shader, .args = args, .why = why, .whysize = whysize };
	const unsigned *ls = shader->local_size;
	int ret = -1;

	if (whysize)
		why[0] = '\0';
	it.func = agx_ir_shader_first_function(shader);
	if (!it.func) {
		fail(&it, NULL, -1, "the shader has no function");
		return -1;
	}
	if (shader->stage != AGX_IR_STAGE_COMPUTE) {
		fail(&it, NULL, -1, "a %s shader: the interpreter runs compute shaders",
		     agx_ir_stage_name(shader->stage));
		return -1;
	}
	uint64_t n = (uint64_t)ls[0] * ls[1] * ls[2];
	if (n == 0 || n > MAX_INVOCATIONS) {
		fail(&it, NULL, -1, "a threadgroup of %ux%ux%u invocations", ls[0], ls[1], ls[2]);
		return -1;
	}
	it.n = (unsigned)n;
	it.max_steps = args->max_steps ? args->max_steps : (uint64_t)1 << 22;
	/* Blocks carry their program order in messages. */
	agx_ir_function_index_blocks(it.func);

	it.vals = calloc((size_t)it.func->num_defs * it.n + 1, sizeof(uint32_t));
	it.from = calloc(it.n, sizeof(*it.from));
	it.steps = calloc(it.n, sizeof(*it.steps));
	it.shared = malloc(shader->shared_size + 1);
	if (!it.vals || !it.from || !it.steps || !it.shared) {
		fail(&it, NULL, -1, "out of memory");
		goto out;
	}

	for (unsigned z = 0; z < args->groups[2]; z++) {
		for (unsigned y = 0; y < args->groups[1]; y++) {
			for (unsigned x = 0; x < args->groups[0]; x++) {
				struct mask all = { 0 };

				it.group[0] = x, it.group[1] = y, it.group[2] = z;
				for (unsigned l = 0; l < it.n; l++)
					mask_set(&all, l);
				it.alive = all;
				memset(it.from, 0, it.n * sizeof(*it.from));
				memset(it.steps, 0, it.n * sizeof(*it.steps));
				/* Shared variables start undefined (GLSL ES 3.10 section
				 * 4.3.8): a pattern, not zeros a shader might rely on. */
				memset(it.shared, 0xa5, shader->shared_size);
				run_list(&it, &it.func->body, all);
				if (it.failed)
					goto out;
			}
		}
	}
	ret = 0;
out:
	free(it.vals);
	free(it.from);
	free(it.steps);
	free(it.shared);
	return ret;
}

/*
 * agx_spirv_to_ir.c: the SPIR-V translator's entry point (agx_compile.h):
 * the module's types, constants and capabilities, the arena of the
 * translation, and the instructions of a block -- everything but memory
 * (agx_spirv_memory.c), control flow (agx_spirv_cf.c) and the extended
 * instructions (agx_spirv_glsl450.c).  The words are untrusted: every id
 * is looked up through the index and checked to be what the instruction
 * needs, every count against the type it claims.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>

#include "agx_compile.h"
#include "agx_spirv_to_ir.h"

/* ---- errors and memory ------------------------------------------------------ */

int tr_fail(struct tr *t, int err, const char *fmt, ...)
{
	va_list ap;

	if (t->err)
		return t->err;
	t->err = err;
	free(t->log);
	t->log = malloc(512);
	if (t->log) {
		va_start(ap, fmt);
		vsnprintf(t->log, 512, fmt, ap);
		va_end(ap);
	}
	return err;
}

struct tr_chunk {
	struct tr_chunk *next;
	size_t size, used;
	max_align_t data[];
};

void *tr_alloc(struct tr *t, size_t size)
{
	struct tr_chunk *c = t->chunks;
	void *p;

	size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!c || c->size - c->used < size) {
		size_t chunk = size > (64u << 10) ? size : (64u << 10);

		if (t->arena_size + chunk > TR_MAX_ARENA) {
			tr_fail(t, -ENOTSUP,
				"the shader is too large to translate (%zu bytes of state)",
				t->arena_size);
			return NULL;
		}
		c = malloc(sizeof(*c) + chunk);
		if (!c) {
			tr_fail(t, -ENOMEM, "out of memory");
			return NULL;
		}
		c->size = chunk;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
		t->arena_size += chunk;
	}
	p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

static void arena_free(struct tr *t)
{
	while (t->chunks) {
		struct tr_chunk *next = t->chunks->next;

		free(t->chunks);
		t->chunks = next;
	}
}

int tr_check_budget(struct tr *t)
{
	if (t->err)
		return t->err;
	if (t->func->num_defs > TR_MAX_DEFS)
		return tr_fail(t, -ENOTSUP,
			       "the shader is too large once inlined and scalarized (%u values)",
			       t->func->num_defs);
	return 0;
}

static size_t word_of(struct tr *t, const struct agx_spirv_inst *in)
{
	return t->m->num_insts ? (size_t)(in->words - t->m->insts[0].words) + 5 : 0;
}

/* ---- types ------------------------------------------------------------------- */

const struct tr_type *tr_type(struct tr *t, uint32_t id)
{
	const struct agx_spirv_inst *def = agx_spirv_def(t->m, id);

	if (!def || def->opcode < SpvOpTypeVoid || def->opcode > SpvOpTypeForwardPointer)
		return NULL;
	if (!t->index[id] || t->index[id] > t->num_types)
		return NULL;
	return &t->types[t->index[id] - 1];
}

enum agx_ir_type tr_scalar_type(const struct tr_type *type)
{
	switch (type->kind) {
	case TR_T_BOOL:
		return AGX_IR_TYPE_B1;
	case TR_T_INT:
		return AGX_IR_TYPE_I32;
	case TR_T_FLOAT:
		return AGX_IR_TYPE_F32;
	default:
		return AGX_IR_TYPE_NONE;
	}
}

static void flat_types(struct tr *t, const struct tr_type *type, enum agx_ir_type *out,
		       unsigned *at)
{
	switch (type->kind) {
	case TR_T_BOOL:
	case TR_T_INT:
	case TR_T_FLOAT:
		out[(*at)++] = tr_scalar_type(type);
		break;
	case TR_T_VECTOR:
	case TR_T_MATRIX:
	case TR_T_ARRAY:
		for (unsigned i = 0; i < type->len; i++)
			flat_types(t, tr_type(t, type->elem), out, at);
		break;
	case TR_T_STRUCT:
		for (unsigned i = 0; i < type->len; i++)
			flat_types(t, tr_type(t, type->members[i]), out, at);
		break;
	default:
		break;
	}
}

void tr_flat_types_all(struct tr *t, uint32_t id, enum agx_ir_type *out)
{
	unsigned at = 0;

	flat_types(t, tr_type(t, id), out, &at);
}

int tr_flat_types(struct tr *t, uint32_t id, enum agx_ir_type *out)
{
	const struct tr_type *type = tr_type(t, id);
	unsigned at = 0;

	if (!type || type->n > TR_MAX_SCALARS)
		return tr_fail(t, -ENOTSUP, "a value of type %u is too large (at most %u scalars)",
			       id, TR_MAX_SCALARS);
	flat_types(t, type, out, &at);
	return 0;
}

int tr_composite_index(struct tr *t, uint32_t id, const uint32_t *idx, unsigned n, unsigned *offset,
		       uint32_t *sub)
{
	unsigned off = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct tr_type *type = tr_type(t, id);

		if (!type)
			return tr_fail(t, -EINVAL, "a composite index into type %u, which is none",
				       id);
		switch (type->kind) {
		case TR_T_VECTOR:
		case TR_T_MATRIX:
		case TR_T_ARRAY:
			if (idx[i] >= type->len)
				return tr_fail(t, -EINVAL,
					       "composite index %u past the %u elements", idx[i],
					       type->len);
			off += idx[i] * tr_type(t, type->elem)->n;
			id = type->elem;
			break;
		case TR_T_STRUCT:
			if (idx[i] >= type->len)
				return tr_fail(t, -EINVAL, "member %u of a struct of %u", idx[i],
					       type->len);
			for (unsigned m = 0; m < idx[i]; m++)
				off += tr_type(t, type->members[m])->n;
			id = type->members[idx[i]];
			break;
		default:
			return tr_fail(t, -EINVAL, "a composite index into a scalar");
		}
	}
	*offset = off;
	*sub = id;
	return 0;
}

static unsigned sat_mul(unsigned a, unsigned b)
{
	unsigned long long r = (unsigned long long)a * b;

	return r > TR_BIG ? TR_BIG : (unsigned)r;
}

/* A type instruction, whose operand types must be defined before it. */
static int define_type(struct tr *t, const struct agx_spirv_inst *in)
{
	struct tr_type *type = &t->types[t->num_types];
	const struct tr_type *e;
	unsigned nops = agx_spirv_num_operands(in);
	uint32_t op0 = agx_spirv_operand(in, 0), op1 = agx_spirv_operand(in, 1);

	memset(type, 0, sizeof(*type));
	type->id = in->result;
	switch (in->opcode) {
	case SpvOpTypeVoid:
		type->kind = TR_T_VOID;
		break;
	case SpvOpTypeBool:
		type->kind = TR_T_BOOL;
		type->n = 1;
		break;
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		if (op0 != 32)
			return tr_fail(t, -ENOTSUP, "%u-bit %s are not translated (32 bits only)",
				       op0, in->opcode == SpvOpTypeInt ? "integers" : "floats");
		type->kind = in->opcode == SpvOpTypeInt ? TR_T_INT : TR_T_FLOAT;
		type->is_signed = in->opcode == SpvOpTypeInt && op1;
		type->n = 1;
		break;
	case SpvOpTypeVector:
	case SpvOpTypeMatrix:
		e = tr_type(t, op0);
		if (in->opcode == SpvOpTypeVector &&
		    (!e || (e->kind != TR_T_BOOL && e->kind != TR_T_INT && e->kind != TR_T_FLOAT)))
			return tr_fail(t, -EINVAL, "a vector of type %u, which is no scalar", op0);
		if (in->opcode == SpvOpTypeMatrix &&
		    (!e || e->kind != TR_T_VECTOR || tr_type(t, e->elem)->kind != TR_T_FLOAT))
			return tr_fail(t, -EINVAL, "a matrix of type %u, which is no float vector",
				       op0);
		if (op1 < 2 || op1 > 4)
			return tr_fail(t, -EINVAL, "a %s of %u %s",
				       in->opcode == SpvOpTypeVector ? "vector" : "matrix", op1,
				       in->opcode == SpvOpTypeVector ? "components" : "columns");
		type->kind = in->opcode == SpvOpTypeVector ? TR_T_VECTOR : TR_T_MATRIX;
		type->elem = op0;
		type->len = op1;
		type->n = e->n * op1;
		break;
	case SpvOpTypeArray: {
		const struct agx_spirv_inst *len = agx_spirv_def(t->m, op1);
		const struct tr_type *lt = len ? tr_type(t, len->type) : NULL;

		e = tr_type(t, op0);
		/* arrays of samplers hold no values: opaque all the way down (n stays 0) */
		if (!e || (e->n == 0 && e->kind != TR_T_SAMPLED_IMAGE && e->kind != TR_T_IMAGE &&
			   e->kind != TR_T_SAMPLER && e->kind != TR_T_ARRAY))
			return tr_fail(t, -EINVAL, "an array of type %u, which has no values", op0);
		if (!len || len->opcode != SpvOpConstant || !lt || lt->kind != TR_T_INT ||
		    agx_spirv_num_operands(len) < 1)
			return tr_fail(t, -EINVAL,
				       "an array whose length %u is no integer constant", op1);
		type->len = agx_spirv_operand(len, 0);
		if (type->len == 0 || type->len > TR_MAX_ARRAY)
			return tr_fail(t, -EINVAL, "an array of %u elements (1 to %u)", type->len,
				       TR_MAX_ARRAY);
		type->kind = TR_T_ARRAY;
		type->elem = op0;
		type->n = sat_mul(e->n, type->len);
		break;
	}
	case SpvOpTypeRuntimeArray:
		e = tr_type(t, op0);
		if (!e || e->n == 0)
			return tr_fail(t, -EINVAL, "an array of type %u, which has no values", op0);
		type->kind = TR_T_RUNTIME_ARRAY;
		type->elem = op0;
		type->n = TR_BIG;
		break;
	case SpvOpTypeStruct:
		type->kind = TR_T_STRUCT;
		type->len = nops;
		type->members = in->words + in->operands;
		for (unsigned i = 0; i < nops; i++) {
			e = tr_type(t, type->members[i]);
			if (!e || e->n == 0 || (e->kind == TR_T_RUNTIME_ARRAY && i != nops - 1))
				return tr_fail(t, -EINVAL, "struct member %u of type %u", i,
					       type->members[i]);
			type->n = type->n + e->n > TR_BIG ? TR_BIG : type->n + e->n;
		}
		if (nops == 0)
			return tr_fail(t, -EINVAL, "an empty struct");
		break;
	case SpvOpTypePointer:
		/* the pointee may be any type defined before */
		if (!tr_type(t, op1))
			return tr_fail(t, -EINVAL, "a pointer to %u, which is no type", op1);
		type->kind = TR_T_POINTER;
		type->storage = (SpvStorageClass)op0;
		type->elem = op1;
		break;
	case SpvOpTypeFunction:
		if (nops < 1 || !tr_type(t, op0))
			return tr_fail(t, -EINVAL, "a function type without a return type");
		for (unsigned i = 0; i < nops; i++)
			if (!tr_type(t, agx_spirv_operand(in, i)))
				return tr_fail(t, -EINVAL, "a function type naming %u, no type",
					       agx_spirv_operand(in, i));
		type->kind = TR_T_FUNCTION;
		type->members = in->words + in->operands;
		type->len = nops;
		break;
	case SpvOpTypeImage:
		if (nops < 7 || !tr_type(t, op0))
			return tr_fail(t, -EINVAL, "OpTypeImage of %u operands", nops);
		type->kind = TR_T_IMAGE;
		type->elem = op0;
		type->dim = op1;
		type->depth = agx_spirv_operand(in, 2);
		type->arrayed = agx_spirv_operand(in, 3);
		type->ms = agx_spirv_operand(in, 4);
		break;
	case SpvOpTypeSampler:
		type->kind = TR_T_SAMPLER;
		break;
	case SpvOpTypeSampledImage:
		e = tr_type(t, op0);
		if (!e || e->kind != TR_T_IMAGE)
			return tr_fail(t, -EINVAL, "a sampled image of %u, which is no image", op0);
		type->kind = TR_T_SAMPLED_IMAGE;
		type->elem = op0;
		break;
	default:
		return tr_fail(t, -ENOTSUP, "type opcode %u is not translated",
			       (unsigned)in->opcode);
	}
	t->index[in->result] = ++t->num_types;
	return 0;
}

/* ---- values ------------------------------------------------------------------ */

bool tr_value_equal(struct agx_ir_value a, struct agx_ir_value b)
{
	if (a.def || b.def)
		return a.def == b.def;
	return a.type == b.type && a.imm == b.imm;
}

struct agx_ir_value tr_undef(struct tr *t, enum agx_ir_type type)
{
	struct agx_builder b;

	if (type <= AGX_IR_TYPE_NONE || type > AGX_IR_TYPE_F32)
		return agx_ir_imm(AGX_IR_TYPE_I32, 0);
	if (!t->undef[type].def) {
		/* the first block stays first, and dominates every use */
		b = agx_builder_at(agx_ir_cursor_start(agx_ir_function_first_block(t->func)));
		t->undef[type] = agx_undef(&b, type);
	}
	return t->undef[type];
}

uint32_t tr_val_type(struct tr *t, uint32_t id)
{
	return id < t->m->bound && t->vals[id].kind != TR_V_NONE ? t->vals[id].type : 0;
}

int tr_get_ssa(struct tr *t, uint32_t id, struct agx_ir_value **s, unsigned *count)
{
	const struct tr_val *v = id < t->m->bound ? &t->vals[id] : NULL;
	const struct tr_type *type;

	if (!v || v->kind != TR_V_SSA)
		return tr_fail(t, -EINVAL, "id %u is used as a value but is none here", id);
	type = tr_type(t, v->type);
	if (count && *count && type->n != *count)
		return tr_fail(t, -EINVAL, "id %u has %u components where %u are needed", id,
			       type->n, *count);
	if (count)
		*count = type->n;
	*s = v->s;
	return 0;
}

int tr_set_ssa(struct tr *t, uint32_t id, uint32_t type_id, const struct agx_ir_value *s,
	       unsigned n)
{
	const struct tr_type *type = tr_type(t, type_id);
	enum agx_ir_type flat[TR_MAX_SCALARS];
	struct agx_ir_value *copy;
	int ret;

	if (!type || type->n != n || n == 0)
		return tr_fail(t, -EINVAL, "id %u: %u components for a result of type %u", id, n,
			       type_id);
	if ((ret = tr_flat_types(t, type_id, flat)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++)
		if (s[i].type != flat[i])
			return tr_fail(t, -EINVAL,
				       "id %u: an operand's type does not match the result type %u",
				       id, type_id);
	copy = tr_alloc(t, n * sizeof(*copy));
	if (!copy)
		return t->err;
	memcpy(copy, s, n * sizeof(*copy));
	t->vals[id].kind = TR_V_SSA;
	t->vals[id].type = type_id;
	t->vals[id].s = copy;
	return 0;
}

/* A constant instruction (module level): immediates. */
static int define_constant(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value s[TR_MAX_SCALARS];
	enum agx_ir_type flat[TR_MAX_SCALARS];
	unsigned n = 0;
	int ret;

	if (!type || type->n == 0 || type->n > TR_MAX_SCALARS)
		return tr_fail(t, -EINVAL, "constant %u of type %u, which holds no values",
			       in->result, in->type);
	switch (in->opcode) {
	case SpvOpConstantTrue:
	case SpvOpConstantFalse:
	case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse:
		if (type->kind != TR_T_BOOL)
			return tr_fail(t, -EINVAL, "a boolean constant of type %u", in->type);
		s[n++] = agx_imm_bool(in->opcode == SpvOpConstantTrue ||
				      in->opcode == SpvOpSpecConstantTrue);
		break;
	case SpvOpConstant:
	case SpvOpSpecConstant:
		if ((type->kind != TR_T_INT && type->kind != TR_T_FLOAT) ||
		    agx_spirv_num_operands(in) != 1)
			return tr_fail(t, -EINVAL, "constant %u: not one 32-bit scalar",
				       in->result);
		s[n++] = agx_ir_imm(tr_scalar_type(type), agx_spirv_operand(in, 0));
		break;
	case SpvOpConstantNull:
	case SpvOpUndef:
		if ((ret = tr_flat_types(t, in->type, flat)) < 0)
			return ret;
		for (n = 0; n < type->n; n++)
			s[n] = in->opcode == SpvOpUndef ? tr_undef(t, flat[n])
							: agx_ir_imm(flat[n], 0);
		break;
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite:
		for (unsigned i = 0; i < agx_spirv_num_operands(in); i++) {
			struct agx_ir_value *part;
			unsigned count = 0;

			if ((ret = tr_get_ssa(t, agx_spirv_operand(in, i), &part, &count)) < 0)
				return ret;
			if (n + count > type->n)
				return tr_fail(t, -EINVAL, "composite constant %u: too many parts",
					       in->result);
			memcpy(s + n, part, count * sizeof(*s));
			n += count;
		}
		break;
	default:
		return tr_fail(t, -ENOTSUP, "constant opcode %u is not translated",
			       (unsigned)in->opcode);
	}
	return tr_set_ssa(t, in->result, in->type, s, n);
}

/* ---- the instructions of a block --------------------------------------------- */

typedef struct agx_ir_value (*tr_binop)(struct agx_builder *b, struct agx_ir_value x,
					struct agx_ir_value y);
typedef struct agx_ir_value (*tr_unop)(struct agx_builder *b, struct agx_ir_value x);

static struct agx_ir_value b_feq_or_nan(struct agx_builder *b, struct agx_ir_value x,
					struct agx_ir_value y)
{
	/* unordered ==: not (ordered !=) */
	return agx_bnot(
	    b, agx_band(b, agx_fne(b, x, y), agx_band(b, agx_feq(b, x, x), agx_feq(b, y, y))));
}

static struct agx_ir_value b_fne_ordered(struct agx_builder *b, struct agx_ir_value x,
					 struct agx_ir_value y)
{
	return agx_band(b, agx_fne(b, x, y), agx_band(b, agx_feq(b, x, x), agx_feq(b, y, y)));
}

static struct agx_ir_value b_fgt(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_flt(b, y, x);
}

static struct agx_ir_value b_fle(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_fge(b, y, x);
}

static struct agx_ir_value b_fult(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_bnot(b, agx_fge(b, x, y));
}

static struct agx_ir_value b_fugt(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_bnot(b, agx_fge(b, y, x));
}

static struct agx_ir_value b_fule(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_bnot(b, agx_flt(b, y, x));
}

static struct agx_ir_value b_fuge(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_bnot(b, agx_flt(b, x, y));
}

static struct agx_ir_value b_igt(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_ilt(b, y, x);
}

static struct agx_ir_value b_ile(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_ige(b, y, x);
}

static struct agx_ir_value b_ugt(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_ult(b, y, x);
}

static struct agx_ir_value b_ule(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_uge(b, y, x);
}

static struct agx_ir_value b_beq(struct agx_builder *b, struct agx_ir_value x,
				 struct agx_ir_value y)
{
	return agx_bnot(b, agx_bxor(b, x, y));
}

/* x - y * trunc(x / y): SPIR-V's OpFRem, the sign of x. */
static struct agx_ir_value b_frem(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_fsub(b, x, agx_fmul(b, y, agx_ftrunc(b, agx_fdiv(b, x, y))));
}

/* x - y * floor(x / y): GLSL's mod (GLSL ES 3.00 section 8.3), OpFMod. */
static struct agx_ir_value b_fmod(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	return agx_fsub(b, x, agx_fmul(b, y, agx_ffloor(b, agx_fdiv(b, x, y))));
}

/* OpSMod: the remainder with the sign of the divisor. */
static struct agx_ir_value b_smod(struct agx_builder *b, struct agx_ir_value x,
				  struct agx_ir_value y)
{
	struct agx_ir_value r = agx_irem(b, x, y);
	struct agx_ir_value fix = agx_band(b, agx_ine(b, r, agx_imm_u32(0)),
					   agx_ilt(b, agx_ixor(b, r, y), agx_imm_u32(0)));

	return agx_bcsel(b, fix, agx_iadd(b, r, y), r);
}

static struct agx_ir_value b_isnan(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_fne(b, x, x);
}

static struct agx_ir_value b_isinf(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_feq(b, agx_fabs(b, x), agx_imm_f32(__builtin_inff()));
}

static struct agx_ir_value b_f2i(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_f2i(b, AGX_IR_TYPE_I32, x);
}

static struct agx_ir_value b_f2u(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_f2u(b, AGX_IR_TYPE_I32, x);
}

static struct agx_ir_value b_i2f(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_i2f(b, AGX_IR_TYPE_F32, x);
}

static struct agx_ir_value b_u2f(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_u2f(b, AGX_IR_TYPE_F32, x);
}

static struct agx_ir_value b_copy(struct agx_builder *b, struct agx_ir_value x)
{
	(void)b;
	return x;
}

static struct agx_ir_value b_quantize(struct agx_builder *b, struct agx_ir_value x)
{
	return agx_f2f32(b, agx_f2f16(b, x));
}

/* popcount by sums of ever wider fields (the classic SWAR count) */
static struct agx_ir_value b_bitcount(struct agx_builder *b, struct agx_ir_value x)
{
	struct agx_ir_value v =
	    agx_isub(b, x, agx_iand(b, agx_ushr(b, x, agx_imm_u32(1)), agx_imm_u32(0x55555555)));

	v = agx_iadd(b, agx_iand(b, v, agx_imm_u32(0x33333333)),
		     agx_iand(b, agx_ushr(b, v, agx_imm_u32(2)), agx_imm_u32(0x33333333)));
	v = agx_iand(b, agx_iadd(b, v, agx_ushr(b, v, agx_imm_u32(4))), agx_imm_u32(0x0f0f0f0f));
	return agx_ushr(b, agx_imul(b, v, agx_imm_u32(0x01010101)), agx_imm_u32(24));
}

static struct agx_ir_value b_bitreverse(struct agx_builder *b, struct agx_ir_value x)
{
	static const uint32_t masks[] = { 0x55555555, 0x33333333, 0x0f0f0f0f, 0x00ff00ff };
	struct agx_ir_value v = x;

	for (unsigned i = 0; i < 4; i++) {
		struct agx_ir_value s = agx_imm_u32(1u << i), mk = agx_imm_u32(masks[i]);

		v = agx_ior(b, agx_iand(b, agx_ushr(b, v, s), mk),
			    agx_ishl(b, agx_iand(b, v, mk), s));
	}
	return agx_ior(b, agx_ushr(b, v, agx_imm_u32(16)), agx_ishl(b, v, agx_imm_u32(16)));
}

/* Element-wise unary and binary operations: each operand has the result's component count. */
static int elementwise(struct tr *t, const struct agx_spirv_inst *in, unsigned nsrc, tr_unop un,
		       tr_binop bin)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *a, *c = NULL, r[TR_MAX_SCALARS];
	unsigned n;
	int ret;

	if (!type || type->n == 0 || type->n > 4 || agx_spirv_num_operands(in) < nsrc)
		return tr_fail(t, -EINVAL, "opcode %u (word %zu): a result of type %u",
			       (unsigned)in->opcode, word_of(t, in), in->type);
	n = type->n;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &a, &n)) < 0)
		return ret;
	if (nsrc == 2 && (ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &c, &n)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++)
		r[i] = nsrc == 1 ? un(&t->b, a[i]) : bin(&t->b, a[i], c[i]);
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int bitcast(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *a, r[4];
	enum agx_ir_type flat[TR_MAX_SCALARS];
	unsigned n;
	int ret;

	if (!type || type->n == 0 || type->n > 4)
		return tr_fail(t, -EINVAL, "OpBitcast to type %u", in->type);
	n = type->n;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &a, &n)) < 0 ||
	    (ret = tr_flat_types(t, in->type, flat)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++) {
		if (flat[i] == AGX_IR_TYPE_B1 || a[i].type == AGX_IR_TYPE_B1)
			return tr_fail(t, -EINVAL, "OpBitcast of a boolean");
		r[i] = a[i].type == flat[i] ? a[i] : agx_bitcast(&t->b, flat[i], a[i]);
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int select_op(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *c, *x, *y, r[TR_MAX_SCALARS];
	unsigned n, nc = 0;
	int ret;

	if (!type || type->n == 0 || type->n > TR_MAX_SCALARS)
		return tr_fail(t, -EINVAL, "OpSelect of type %u", in->type);
	n = type->n;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &c, &nc)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &x, &n)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, 2), &y, &n)) < 0)
		return ret;
	/* a condition per component, or one for the whole value */
	if (nc != 1 && nc != n)
		return tr_fail(t, -EINVAL, "OpSelect with %u conditions for %u components", nc, n);
	for (unsigned i = 0; i < n; i++) {
		struct agx_ir_value ci = c[nc == 1 ? 0 : i];

		if (ci.type != AGX_IR_TYPE_B1)
			return tr_fail(t, -EINVAL, "OpSelect of a condition that is no bool");
		r[i] = agx_bcsel(&t->b, ci, x[i], y[i]);
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int any_all(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_ir_value *a, r;
	unsigned n = 0;
	int ret;

	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &a, &n)) < 0)
		return ret;
	if (n > 4)
		return tr_fail(t, -EINVAL, "OpAny/OpAll of %u components", n);
	r = a[0];
	for (unsigned i = 1; i < n; i++)
		r = in->opcode == SpvOpAny ? agx_bor(&t->b, r, a[i]) : agx_band(&t->b, r, a[i]);
	return tr_set_ssa(t, in->result, in->type, &r, 1);
}

static int composite_construct(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value r[TR_MAX_SCALARS], *part;
	unsigned n = 0;
	int ret;

	if (!type || type->n == 0 || type->n > TR_MAX_SCALARS)
		return tr_fail(t, -ENOTSUP, "OpCompositeConstruct of type %u (too large or none)",
			       in->type);
	/* flattened, every kind of composite is its parts one after the other */
	for (unsigned i = 0; i < agx_spirv_num_operands(in); i++) {
		unsigned count = 0;

		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, i), &part, &count)) < 0)
			return ret;
		if (n + count > type->n)
			return tr_fail(t, -EINVAL, "OpCompositeConstruct %u: too many components",
				       in->result);
		memcpy(r + n, part, count * sizeof(*r));
		n += count;
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int composite_extract_insert(struct tr *t, const struct agx_spirv_inst *in)
{
	bool insert = in->opcode == SpvOpCompositeInsert;
	unsigned nops = agx_spirv_num_operands(in), first = insert ? 2 : 1, off, n = 0, nobj = 0;
	struct agx_ir_value *src, *obj = NULL, r[TR_MAX_SCALARS];
	uint32_t comp = agx_spirv_operand(in, insert ? 1 : 0), sub;
	int ret;

	if (nops < first)
		return tr_fail(t, -EINVAL, "a composite extract or insert without operands");
	if ((ret = tr_get_ssa(t, comp, &src, &n)) < 0)
		return ret;
	if ((ret = tr_composite_index(t, t->vals[comp].type, in->words + in->operands + first,
				      nops - first, &off, &sub)) < 0)
		return ret;
	if (!insert) {
		if (sub != in->type)
			return tr_fail(t, -EINVAL, "OpCompositeExtract %u of the wrong type",
				       in->result);
		return tr_set_ssa(t, in->result, in->type, src + off, tr_type(t, sub)->n);
	}
	if (t->vals[comp].type != in->type)
		return tr_fail(t, -EINVAL, "OpCompositeInsert %u of the wrong type", in->result);
	nobj = tr_type(t, sub)->n;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &obj, &nobj)) < 0)
		return ret;
	memcpy(r, src, n * sizeof(*r));
	memcpy(r + off, obj, nobj * sizeof(*r));
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int vector_shuffle(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_ir_value *a, *c, r[4];
	unsigned na = 0, nc = 0, nops = agx_spirv_num_operands(in);
	const struct tr_type *type = tr_type(t, in->type);
	int ret;

	if (!type || type->kind != TR_T_VECTOR || nops != 2 + type->len)
		return tr_fail(t, -EINVAL, "OpVectorShuffle %u of %u operands", in->result, nops);
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &a, &na)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &c, &nc)) < 0)
		return ret;
	if (na > 4 || nc > 4)
		return tr_fail(t, -EINVAL, "OpVectorShuffle of more than vectors");
	for (unsigned i = 0; i < type->len; i++) {
		uint32_t sel = agx_spirv_operand(in, 2 + i);

		if (sel == 0xffffffff)
			r[i] = tr_undef(t, tr_scalar_type(tr_type(t, type->elem)));
		else if (sel < na)
			r[i] = a[sel];
		else if (sel - na < nc)
			r[i] = c[sel - na];
		else
			return tr_fail(t, -EINVAL, "OpVectorShuffle component %u of %u", sel,
				       na + nc);
	}
	return tr_set_ssa(t, in->result, in->type, r, type->len);
}

static int vector_dynamic(struct tr *t, const struct agx_spirv_inst *in)
{
	bool insert = in->opcode == SpvOpVectorInsertDynamic;
	struct agx_ir_value *v, *idx, *comp = NULL, r[4];
	unsigned n = 0, one = 1;
	int ret;

	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &v, &n)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, insert ? 2 : 1), &idx, &one)) < 0)
		return ret;
	if (n > 4 || idx[0].type != AGX_IR_TYPE_I32)
		return tr_fail(t, -EINVAL, "a dynamic vector index that is no integer");
	if (insert) {
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &comp, &one)) < 0)
			return ret;
		for (unsigned i = 0; i < n; i++)
			r[i] =
			    agx_bcsel(&t->b, agx_ieq(&t->b, idx[0], agx_imm_u32(i)), comp[0], v[i]);
		return tr_set_ssa(t, in->result, in->type, r, n);
	}
	r[0] = v[n - 1];
	for (unsigned i = n - 1; i-- > 0;)
		r[0] = agx_bcsel(&t->b, agx_ieq(&t->b, idx[0], agx_imm_u32(i)), v[i], r[0]);
	return tr_set_ssa(t, in->result, in->type, r, 1);
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of two vectors. */
static int extended_arith(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	struct agx_ir_value *a, *c, r[8];
	unsigned n;
	int ret;

	if (!type || type->kind != TR_T_STRUCT || type->len != 2 || type->n > 8)
		return tr_fail(t, -EINVAL, "opcode %u of a result that is no pair",
			       (unsigned)in->opcode);
	n = type->n / 2;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &a, &n)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &c, &n)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++) {
		struct agx_builder *b = &t->b;

		switch (in->opcode) {
		case SpvOpIAddCarry:
			r[i] = agx_iadd(b, a[i], c[i]);
			r[n + i] = agx_b2i(b, AGX_IR_TYPE_I32, agx_ult(b, r[i], a[i]));
			break;
		case SpvOpISubBorrow:
			r[i] = agx_isub(b, a[i], c[i]);
			r[n + i] = agx_b2i(b, AGX_IR_TYPE_I32, agx_ult(b, a[i], c[i]));
			break;
		case SpvOpUMulExtended:
			r[i] = agx_imul(b, a[i], c[i]);
			r[n + i] = agx_umul_high(b, a[i], c[i]);
			break;
		default:
			r[i] = agx_imul(b, a[i], c[i]);
			r[n + i] = agx_imul_high(b, a[i], c[i]);
			break;
		}
	}
	return tr_set_ssa(t, in->result, in->type, r, 2 * n);
}

/* A mask of `bits` ones (bits 0..32), shifted by offset. */
static struct agx_ir_value field_mask(struct agx_builder *b, struct agx_ir_value offset,
				      struct agx_ir_value bits)
{
	/* a shift counts modulo 32, so 32 bits needs its own case */
	struct agx_ir_value ones =
	    agx_bcsel(b, agx_uge(b, bits, agx_imm_u32(32)), agx_imm_u32(0xffffffff),
		      agx_isub(b, agx_ishl(b, agx_imm_u32(1), bits), agx_imm_u32(1)));

	return agx_ishl(b, ones, offset);
}

static int bitfield(struct tr *t, const struct agx_spirv_inst *in)
{
	bool ins = in->opcode == SpvOpBitFieldInsert;
	struct agx_ir_value *base, *insert = NULL, *off, *bits, r[4];
	unsigned n, one = 1;
	int ret;
	struct agx_builder *b = &t->b;
	const struct tr_type *type = tr_type(t, in->type);

	if (!type || type->n > 4 || type->n == 0)
		return tr_fail(t, -EINVAL, "a bitfield instruction of type %u", in->type);
	n = type->n;
	if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 0), &base, &n)) < 0 ||
	    (ins && (ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &insert, &n)) < 0) ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, ins ? 2 : 1), &off, &one)) < 0 ||
	    (ret = tr_get_ssa(t, agx_spirv_operand(in, ins ? 3 : 2), &bits, &one)) < 0)
		return ret;
	for (unsigned i = 0; i < n; i++) {
		struct agx_ir_value zero = agx_imm_u32(0);

		if (ins) {
			struct agx_ir_value mask = field_mask(b, off[0], bits[0]);

			r[i] = agx_ior(b, agx_iand(b, base[i], agx_inot(b, mask)),
				       agx_iand(b, agx_ishl(b, insert[i], off[0]), mask));
		} else if (in->opcode == SpvOpBitFieldUExtract) {
			r[i] =
			    agx_iand(b, agx_ushr(b, base[i], off[0]), field_mask(b, zero, bits[0]));
		} else {
			/* up to the field's top bit, then down with its sign */
			struct agx_ir_value up =
			    agx_isub(b, agx_imm_u32(32), agx_iadd(b, off[0], bits[0]));
			struct agx_ir_value v = agx_ishr(b, agx_ishl(b, base[i], up),
							 agx_isub(b, agx_imm_u32(32), bits[0]));

			r[i] = agx_bcsel(b, agx_ieq(b, bits[0], zero), zero, v);
		}
	}
	return tr_set_ssa(t, in->result, in->type, r, n);
}

static int copy_object(struct tr *t, const struct agx_spirv_inst *in)
{
	uint32_t src = agx_spirv_operand(in, 0);

	if (src >= t->m->bound || t->vals[src].kind == TR_V_NONE || t->vals[src].type != in->type)
		return tr_fail(t, -EINVAL, "OpCopyObject %u of %u, no value of its type",
			       in->result, src);
	t->vals[in->result] = t->vals[src];
	return 0;
}

static int undef_value(struct tr *t, const struct agx_spirv_inst *in)
{
	const struct tr_type *type = tr_type(t, in->type);
	enum agx_ir_type flat[TR_MAX_SCALARS];
	struct agx_ir_value r[TR_MAX_SCALARS];
	int ret;

	if (!type || type->n == 0 || type->n > TR_MAX_SCALARS)
		return tr_fail(t, -ENOTSUP, "OpUndef of type %u", in->type);
	if ((ret = tr_flat_types(t, in->type, flat)) < 0)
		return ret;
	for (unsigned i = 0; i < type->n; i++)
		r[i] = tr_undef(t, flat[i]);
	return tr_set_ssa(t, in->result, in->type, r, type->n);
}

static int load_store(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_ir_value r[TR_MAX_SCALARS], *v;
	struct tr_ptr *p, *q;
	const struct tr_type *type;
	unsigned n;
	int ret;

	switch (in->opcode) {
	case SpvOpLoad:
		if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &p)) < 0)
			return ret;
		if (p->type != in->type)
			return tr_fail(t, -EINVAL, "OpLoad %u of type %u through a pointer to %u",
				       in->result, in->type, p->type);
		type = tr_type(t, p->type);
		if (type->kind == TR_T_SAMPLED_IMAGE || type->kind == TR_T_IMAGE ||
		    type->kind == TR_T_SAMPLER) {
			if (p->num_dyn)
				return tr_fail(t, -ENOTSUP,
					       "an array of samplers indexed by a non-constant");
			t->vals[in->result].kind = TR_V_SAMPLER;
			t->vals[in->result].type = in->type;
			t->vals[in->result].var = p->var;
			t->vals[in->result].element = p->base;
			return 0;
		}
		if (type->n == 0 || type->n > TR_MAX_SCALARS)
			return tr_fail(t, -ENOTSUP, "OpLoad of type %u (too large or none)",
				       in->type);
		if ((ret = tr_load(t, p, r, type->n)) < 0)
			return ret;
		return tr_set_ssa(t, in->result, in->type, r, type->n);
	case SpvOpStore:
		if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &p)) < 0)
			return ret;
		n = tr_type(t, p->type)->n;
		if (tr_val_type(t, agx_spirv_operand(in, 1)) != p->type)
			return tr_fail(t, -EINVAL, "OpStore of a value not of the pointee's type");
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &v, &n)) < 0)
			return ret;
		return tr_store(t, p, v, n);
	default: /* OpCopyMemory */
		if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &p)) < 0 ||
		    (ret = tr_get_ptr(t, agx_spirv_operand(in, 1), &q)) < 0)
			return ret;
		if (p->type != q->type)
			return tr_fail(t, -EINVAL, "OpCopyMemory between different types");
		n = tr_type(t, p->type)->n;
		if (n == 0 || n > TR_MAX_SCALARS)
			return tr_fail(t, -ENOTSUP, "OpCopyMemory of type %u (too large or none)",
				       p->type);
		if ((ret = tr_load(t, q, r, n)) < 0)
			return ret;
		return tr_store(t, p, r, n);
	}
}

int tr_instruction(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_builder *b = &t->b;
	int ret;

	switch (in->opcode) {
	case SpvOpNop:
	case SpvOpLine:
	case SpvOpNoLine:
	case SpvOpName:
	case SpvOpMemberName:
		return 0;
	case SpvOpUndef:
		return undef_value(t, in);
	case SpvOpVariable:
		return tr_local_variable(t, in);
	case SpvOpLoad:
	case SpvOpStore:
	case SpvOpCopyMemory:
		return load_store(t, in);
	case SpvOpAccessChain:
	case SpvOpInBoundsAccessChain:
		return tr_access_chain(t, in);
	case SpvOpArrayLength:
		return tr_array_length(t, in);
	case SpvOpCopyObject:
		return copy_object(t, in);

	case SpvOpFAdd:
		return elementwise(t, in, 2, NULL, agx_fadd);
	case SpvOpFSub:
		return elementwise(t, in, 2, NULL, agx_fsub);
	case SpvOpFMul:
		return elementwise(t, in, 2, NULL, agx_fmul);
	case SpvOpFDiv:
		return elementwise(t, in, 2, NULL, agx_fdiv);
	case SpvOpFRem:
		return elementwise(t, in, 2, NULL, b_frem);
	case SpvOpFMod:
		return elementwise(t, in, 2, NULL, b_fmod);
	case SpvOpFNegate:
		return elementwise(t, in, 1, agx_fneg, NULL);
	case SpvOpIAdd:
		return elementwise(t, in, 2, NULL, agx_iadd);
	case SpvOpISub:
		return elementwise(t, in, 2, NULL, agx_isub);
	case SpvOpIMul:
		return elementwise(t, in, 2, NULL, agx_imul);
	case SpvOpSDiv:
		return elementwise(t, in, 2, NULL, agx_idiv);
	case SpvOpUDiv:
		return elementwise(t, in, 2, NULL, agx_udiv);
	case SpvOpSRem:
		return elementwise(t, in, 2, NULL, agx_irem);
	case SpvOpSMod:
		return elementwise(t, in, 2, NULL, b_smod);
	case SpvOpUMod:
		return elementwise(t, in, 2, NULL, agx_umod);
	case SpvOpSNegate:
		return elementwise(t, in, 1, agx_ineg, NULL);
	case SpvOpShiftLeftLogical:
		return elementwise(t, in, 2, NULL, agx_ishl);
	case SpvOpShiftRightLogical:
		return elementwise(t, in, 2, NULL, agx_ushr);
	case SpvOpShiftRightArithmetic:
		return elementwise(t, in, 2, NULL, agx_ishr);
	case SpvOpBitwiseAnd:
		return elementwise(t, in, 2, NULL, agx_iand);
	case SpvOpBitwiseOr:
		return elementwise(t, in, 2, NULL, agx_ior);
	case SpvOpBitwiseXor:
		return elementwise(t, in, 2, NULL, agx_ixor);
	case SpvOpNot:
		return elementwise(t, in, 1, agx_inot, NULL);
	case SpvOpBitCount:
		return elementwise(t, in, 1, b_bitcount, NULL);
	case SpvOpBitReverse:
		return elementwise(t, in, 1, b_bitreverse, NULL);
	case SpvOpBitFieldInsert:
	case SpvOpBitFieldSExtract:
	case SpvOpBitFieldUExtract:
		return bitfield(t, in);
	case SpvOpLogicalAnd:
		return elementwise(t, in, 2, NULL, agx_band);
	case SpvOpLogicalOr:
		return elementwise(t, in, 2, NULL, agx_bor);
	case SpvOpLogicalNotEqual:
		return elementwise(t, in, 2, NULL, agx_bxor);
	case SpvOpLogicalEqual:
		return elementwise(t, in, 2, NULL, b_beq);
	case SpvOpLogicalNot:
		return elementwise(t, in, 1, agx_bnot, NULL);

	case SpvOpFOrdEqual:
		return elementwise(t, in, 2, NULL, agx_feq);
	case SpvOpFUnordNotEqual:
		return elementwise(t, in, 2, NULL, agx_fne);
	case SpvOpFOrdNotEqual:
		return elementwise(t, in, 2, NULL, b_fne_ordered);
	case SpvOpFUnordEqual:
		return elementwise(t, in, 2, NULL, b_feq_or_nan);
	case SpvOpFOrdLessThan:
		return elementwise(t, in, 2, NULL, agx_flt);
	case SpvOpFOrdGreaterThan:
		return elementwise(t, in, 2, NULL, b_fgt);
	case SpvOpFOrdLessThanEqual:
		return elementwise(t, in, 2, NULL, b_fle);
	case SpvOpFOrdGreaterThanEqual:
		return elementwise(t, in, 2, NULL, agx_fge);
	case SpvOpFUnordLessThan:
		return elementwise(t, in, 2, NULL, b_fult);
	case SpvOpFUnordGreaterThan:
		return elementwise(t, in, 2, NULL, b_fugt);
	case SpvOpFUnordLessThanEqual:
		return elementwise(t, in, 2, NULL, b_fule);
	case SpvOpFUnordGreaterThanEqual:
		return elementwise(t, in, 2, NULL, b_fuge);
	case SpvOpIEqual:
		return elementwise(t, in, 2, NULL, agx_ieq);
	case SpvOpINotEqual:
		return elementwise(t, in, 2, NULL, agx_ine);
	case SpvOpSLessThan:
		return elementwise(t, in, 2, NULL, agx_ilt);
	case SpvOpSGreaterThan:
		return elementwise(t, in, 2, NULL, b_igt);
	case SpvOpSLessThanEqual:
		return elementwise(t, in, 2, NULL, b_ile);
	case SpvOpSGreaterThanEqual:
		return elementwise(t, in, 2, NULL, agx_ige);
	case SpvOpULessThan:
		return elementwise(t, in, 2, NULL, agx_ult);
	case SpvOpUGreaterThan:
		return elementwise(t, in, 2, NULL, b_ugt);
	case SpvOpULessThanEqual:
		return elementwise(t, in, 2, NULL, b_ule);
	case SpvOpUGreaterThanEqual:
		return elementwise(t, in, 2, NULL, agx_uge);
	case SpvOpIsNan:
		return elementwise(t, in, 1, b_isnan, NULL);
	case SpvOpIsInf:
		return elementwise(t, in, 1, b_isinf, NULL);
	case SpvOpAny:
	case SpvOpAll:
		return any_all(t, in);
	case SpvOpSelect:
		return select_op(t, in);

	case SpvOpConvertFToS:
		return elementwise(t, in, 1, b_f2i, NULL);
	case SpvOpConvertFToU:
		return elementwise(t, in, 1, b_f2u, NULL);
	case SpvOpConvertSToF:
		return elementwise(t, in, 1, b_i2f, NULL);
	case SpvOpConvertUToF:
		return elementwise(t, in, 1, b_u2f, NULL);
	case SpvOpUConvert:
	case SpvOpSConvert:
	case SpvOpFConvert:
		/* 32 bits to 32 bits: the only width there is */
		return elementwise(t, in, 1, b_copy, NULL);
	case SpvOpQuantizeToF16:
		return elementwise(t, in, 1, b_quantize, NULL);
	case SpvOpBitcast:
		return bitcast(t, in);

	case SpvOpCompositeConstruct:
		return composite_construct(t, in);
	case SpvOpCompositeExtract:
	case SpvOpCompositeInsert:
		return composite_extract_insert(t, in);
	case SpvOpVectorShuffle:
		return vector_shuffle(t, in);
	case SpvOpVectorExtractDynamic:
	case SpvOpVectorInsertDynamic:
		return vector_dynamic(t, in);
	case SpvOpIAddCarry:
	case SpvOpISubBorrow:
	case SpvOpUMulExtended:
	case SpvOpSMulExtended:
		return extended_arith(t, in);

	case SpvOpVectorTimesScalar:
	case SpvOpMatrixTimesScalar:
	case SpvOpMatrixTimesVector:
	case SpvOpVectorTimesMatrix:
	case SpvOpMatrixTimesMatrix:
	case SpvOpOuterProduct:
	case SpvOpTranspose:
	case SpvOpDot:
		return tr_matrix_op(t, in);
	case SpvOpExtInst:
		if (agx_spirv_operand(in, 0) != t->glsl450 || !t->glsl450)
			return tr_fail(t, -EINVAL, "OpExtInst of set %u, not GLSL.std.450",
				       agx_spirv_operand(in, 0));
		return tr_glsl450(t, in);

	case SpvOpAtomicLoad:
	case SpvOpAtomicStore:
	case SpvOpAtomicExchange:
	case SpvOpAtomicCompareExchange:
	case SpvOpAtomicIIncrement:
	case SpvOpAtomicIDecrement:
	case SpvOpAtomicIAdd:
	case SpvOpAtomicISub:
	case SpvOpAtomicSMin:
	case SpvOpAtomicUMin:
	case SpvOpAtomicSMax:
	case SpvOpAtomicUMax:
	case SpvOpAtomicAnd:
	case SpvOpAtomicOr:
	case SpvOpAtomicXor:
		return tr_atomic(t, in);
	case SpvOpControlBarrier:
	case SpvOpMemoryBarrier:
		/* GLSL's barrier() and memoryBarrier*() alike: the brief's `barrier` */
		agx_barrier(b);
		return 0;

	case SpvOpDPdx:
	case SpvOpDPdy:
	case SpvOpFwidth:
	case SpvOpDPdxFine:
	case SpvOpDPdyFine:
	case SpvOpFwidthFine:
	case SpvOpDPdxCoarse:
	case SpvOpDPdyCoarse:
	case SpvOpFwidthCoarse:
		return tr_texture(t, in);
	case SpvOpSampledImage:
	case SpvOpImageSampleImplicitLod:
	case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleDrefImplicitLod:
	case SpvOpImageSampleDrefExplicitLod:
	case SpvOpImageSampleProjImplicitLod:
	case SpvOpImageSampleProjExplicitLod:
	case SpvOpImageSampleProjDrefImplicitLod:
	case SpvOpImageSampleProjDrefExplicitLod:
	case SpvOpImageFetch:
	case SpvOpImageGather:
	case SpvOpImageDrefGather:
	case SpvOpImageRead:
	case SpvOpImageWrite:
	case SpvOpImage:
	case SpvOpImageQuerySizeLod:
	case SpvOpImageQuerySize:
	case SpvOpImageQueryLod:
	case SpvOpImageQueryLevels:
	case SpvOpImageQuerySamples:
		return tr_texture(t, in);
	default:
		ret = tr_fail(t, -ENOTSUP, "SPIR-V opcode %u (word %zu) is not translated",
			      (unsigned)in->opcode, word_of(t, in));
		return ret;
	}
}

/* ---- the module ----------------------------------------------------------------- */

static int check_capability(struct tr *t, uint32_t cap)
{
	switch (cap) {
	case SpvCapabilityShader:
	case SpvCapabilityMatrix:
	case SpvCapabilityImageQuery: /* textureSize */
	case SpvCapabilitySampled1D:
	case SpvCapabilityDerivativeControl:
		return 0;
	case SpvCapabilityFloat64:
		return tr_fail(t, -ENOTSUP, "capability Float64 is not translated");
	case SpvCapabilityInt64:
		return tr_fail(t, -ENOTSUP, "capability Int64 is not translated");
	case SpvCapabilityFloat16:
		return tr_fail(t, -ENOTSUP, "capability Float16 is not translated");
	default:
		return tr_fail(t, -ENOTSUP, "capability %u is not translated", cap);
	}
}

/* The functions and their blocks: where each starts and ends, what merges it has. */
static int index_function(struct tr *t, size_t *at)
{
	const struct agx_spirv_module *m = t->m;
	const struct agx_spirv_inst *fn = &m->insts[*at];
	const struct tr_type *ftype = tr_type(t, agx_spirv_operand(fn, 1));
	struct tr_func *f = &t->funcs[t->num_funcs];
	size_t i = *at + 1;

	if (!ftype || ftype->kind != TR_T_FUNCTION || ftype->members[0] != fn->type)
		return tr_fail(t, -EINVAL, "function %u of type %u, which does not return %u",
			       fn->result, agx_spirv_operand(fn, 1), fn->type);
	memset(f, 0, sizeof(*f));
	f->id = fn->result;
	f->type = agx_spirv_operand(fn, 1);
	f->ret_type = fn->type;
	f->first = *at;
	f->first_param = (unsigned)i;
	while (i < m->num_insts && m->insts[i].opcode == SpvOpFunctionParameter)
		i++;
	f->num_params = (unsigned)(i - f->first_param);
	if (f->num_params != ftype->len - 1)
		return tr_fail(t, -EINVAL, "function %u has %u parameters, its type %u", f->id,
			       f->num_params, ftype->len - 1);
	for (unsigned p = 0; p < f->num_params; p++)
		if (m->insts[f->first_param + p].type != ftype->members[1 + p])
			return tr_fail(t, -EINVAL, "function %u: parameter %u of the wrong type",
				       f->id, p);
	f->first_block = t->num_blocks;
	while (i < m->num_insts && m->insts[i].opcode == SpvOpLabel) {
		struct tr_block *blk = &t->blocks[t->num_blocks];
		size_t j = i + 1;

		while (j < m->num_insts && m->insts[j].opcode != SpvOpLabel &&
		       m->insts[j].opcode != SpvOpFunctionEnd)
			j++;
		if (j == i + 1)
			return tr_fail(t, -EINVAL, "block %u is empty", m->insts[i].result);
		blk->label = m->insts[i].result;
		blk->first = i + 1;
		blk->term = j - 1;
		blk->merge = SIZE_MAX;
		blk->visited = 0;
		switch (m->insts[blk->term].opcode) {
		case SpvOpBranch:
		case SpvOpBranchConditional:
		case SpvOpSwitch:
		case SpvOpReturn:
		case SpvOpReturnValue:
		case SpvOpKill:
		case SpvOpUnreachable:
			break;
		default:
			return tr_fail(t, -EINVAL, "block %u does not end with a branch",
				       blk->label);
		}
		for (size_t k = blk->first; k < blk->term; k++) {
			SpvOp op = m->insts[k].opcode;

			if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
				if (k != blk->term - 1)
					return tr_fail(t, -EINVAL,
						       "a merge instruction not just before the "
						       "branch of block %u",
						       blk->label);
				blk->merge = k;
			}
			if (op == SpvOpLabel || op == SpvOpFunction ||
			    op == SpvOpFunctionParameter || op == SpvOpBranch ||
			    op == SpvOpBranchConditional || op == SpvOpSwitch ||
			    op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
			    op == SpvOpUnreachable)
				return tr_fail(t, -EINVAL, "opcode %u inside block %u",
					       (unsigned)op, blk->label);
		}
		t->index[blk->label] = ++t->num_blocks;
		i = j;
	}
	f->num_blocks = t->num_blocks - f->first_block;
	if (i >= m->num_insts || m->insts[i].opcode != SpvOpFunctionEnd || f->num_blocks == 0)
		return tr_fail(t, -EINVAL, "function %u without blocks or OpFunctionEnd", f->id);
	f->end = i;
	t->index[f->id] = ++t->num_funcs;
	*at = i;
	return 0;
}

static int read_module(struct tr *t)
{
	const struct agx_spirv_module *m = t->m;
	int ret = 0;

	for (size_t i = 0; i < m->num_insts && ret == 0; i++) {
		const struct agx_spirv_inst *in = &m->insts[i];

		switch (in->opcode) {
		case SpvOpCapability:
			ret = check_capability(t, agx_spirv_operand(in, 0));
			break;
		case SpvOpExtension:
			ret = tr_fail(t, -ENOTSUP, "extension %s is not translated",
				      agx_spirv_string(in, 0, NULL) ? agx_spirv_string(in, 0, NULL)
								    : "(unnamed)");
			break;
		case SpvOpExtInstImport: {
			const char *name = agx_spirv_string(in, 0, NULL);

			if (!name || strcmp(name, "GLSL.std.450") != 0)
				ret = tr_fail(t, -ENOTSUP,
					      "extended instructions %s are not translated",
					      name ? name : "(unnamed)");
			else
				t->glsl450 = in->result;
			break;
		}
		case SpvOpMemoryModel:
			if (agx_spirv_operand(in, 0) != SpvAddressingModelLogical)
				ret = tr_fail(t, -ENOTSUP, "addressing model %u (Logical only)",
					      agx_spirv_operand(in, 0));
			break;
		case SpvOpName:
			if (in->count >= 3 && in->words[1] < m->bound && !t->names[in->words[1]])
				t->names[in->words[1]] = (uint32_t)i + 1;
			break;
		case SpvOpExecutionMode:
			if (in->count >= 3 && in->words[2] == SpvExecutionModeEarlyFragmentTests)
				t->shader->early_fragment_tests = true;
			break;
		case SpvOpTypeVoid:
		case SpvOpTypeBool:
		case SpvOpTypeInt:
		case SpvOpTypeFloat:
		case SpvOpTypeVector:
		case SpvOpTypeMatrix:
		case SpvOpTypeImage:
		case SpvOpTypeSampler:
		case SpvOpTypeSampledImage:
		case SpvOpTypeArray:
		case SpvOpTypeRuntimeArray:
		case SpvOpTypeStruct:
		case SpvOpTypePointer:
		case SpvOpTypeFunction:
			ret = define_type(t, in);
			break;
		case SpvOpTypeOpaque:
		case SpvOpTypeForwardPointer:
		case SpvOpTypeEvent:
		case SpvOpTypeDeviceEvent:
		case SpvOpTypeReserveId:
		case SpvOpTypeQueue:
		case SpvOpTypePipe:
			ret = tr_fail(t, -ENOTSUP, "type opcode %u is not translated",
				      (unsigned)in->opcode);
			break;
		case SpvOpConstantTrue:
		case SpvOpConstantFalse:
		case SpvOpConstant:
		case SpvOpConstantComposite:
		case SpvOpConstantNull:
		case SpvOpSpecConstantTrue:
		case SpvOpSpecConstantFalse:
		case SpvOpSpecConstant:
		case SpvOpSpecConstantComposite:
			ret = define_constant(t, in);
			break;
		case SpvOpUndef:
			ret = define_constant(t, in);
			break;
		case SpvOpSpecConstantOp:
		case SpvOpConstantSampler:
			ret = tr_fail(t, -ENOTSUP, "constant opcode %u is not translated",
				      (unsigned)in->opcode);
			break;
		case SpvOpVariable:
			/* module-level variables wait for tr_global_variables */
			if (agx_spirv_operand(in, 0) == SpvStorageClassFunction)
				ret = tr_fail(t, -EINVAL, "a Function variable outside a function");
			break;
		case SpvOpFunction:
			ret = index_function(t, &i);
			break;
		case SpvOpFunctionEnd:
		case SpvOpFunctionParameter:
		case SpvOpLabel:
			ret = tr_fail(t, -EINVAL, "opcode %u outside a function",
				      (unsigned)in->opcode);
			break;
		default:
			if (in->opcode >= SpvOpTypeVoid && in->opcode <= SpvOpTypePipe)
				ret = tr_fail(t, -ENOTSUP, "type opcode %u", (unsigned)in->opcode);
			break;
		}
	}
	return ret ? ret : t->err;
}

static int translate(struct tr *t)
{
	const struct agx_spirv_module *m = t->m;
	const struct agx_spirv_inst *ep = m->entry_point;
	static const SpvExecutionModel models[] = {
		[AGX_IR_STAGE_COMPUTE] = SpvExecutionModelGLCompute,
		[AGX_IR_STAGE_VERTEX] = SpvExecutionModelVertex,
		[AGX_IR_STAGE_FRAGMENT] = SpvExecutionModelFragment,
	};
	size_t count = m->num_insts ? m->num_insts : 1;
	int ret;

	if (!ep)
		return tr_fail(t, -EINVAL, "the module has no entry point");
	if (ep->words[1] != (uint32_t)models[t->stage])
		return tr_fail(t, -EINVAL,
			       "the entry point is execution model %u, not the %s stage",
			       ep->words[1], agx_ir_stage_name(t->stage));
	t->index = calloc(m->bound, sizeof(*t->index));
	t->names = calloc(m->bound, sizeof(*t->names));
	t->vals = calloc(m->bound, sizeof(*t->vals));
	t->types = calloc(count, sizeof(*t->types));
	t->blocks = calloc(count, sizeof(*t->blocks));
	t->funcs = calloc(count, sizeof(*t->funcs));
	if (!t->index || !t->names || !t->vals || !t->types || !t->blocks || !t->funcs)
		return tr_fail(t, -ENOMEM, "out of memory");
	if ((ret = read_module(t)) < 0)
		return ret;
	if (t->stage == AGX_IR_STAGE_COMPUTE) {
		memcpy(t->shader->local_size, m->local_size, sizeof(m->local_size));
		for (unsigned i = 0; i < 3; i++)
			if (m->local_size[i] == 0 || m->local_size[i] > 1024)
				return tr_fail(t, -EINVAL, "a local size of %u", m->local_size[i]);
	}
	if ((ret = tr_global_variables(t)) < 0)
		return ret;
	if ((ret = tr_main(t, ep->words[2])) < 0)
		return ret;
	return tr_record_vars(t);
}

int agx_spirv_to_ir(const uint32_t *words, size_t num_words, enum agx_ir_stage stage,
		    struct agx_ir_shader **out, char **log)
{
	struct agx_spirv_module m;
	struct tr t;
	char why[256], *errors = NULL;
	int ret;

	*out = NULL;
	if (log)
		*log = NULL;
	memset(&t, 0, sizeof(t));
	if (stage > AGX_IR_STAGE_FRAGMENT) {
		ret = tr_fail(&t, -EINVAL, "stage %u is none", (unsigned)stage);
		goto done;
	}
	ret = agx_spirv_parse(words, num_words, &m, why, sizeof(why));
	if (ret < 0) {
		tr_fail(&t, ret, ret == -ENOMEM ? "out of memory" : "malformed SPIR-V: %s", why);
		goto done;
	}
	t.m = &m;
	t.stage = stage;
	t.shader = agx_ir_shader_create(stage);
	if (!t.shader) {
		ret = tr_fail(&t, -ENOMEM, "out of memory");
		goto finish;
	}
	t.func = agx_ir_function_create(t.shader, "main");
	agx_builder_init(&t.b, t.func);
	ret = translate(&t);
	if (ret == 0) {
		tr_remove_trivial_phis(&t);
		if (!agx_ir_validate(t.shader, &errors)) {
			char *nl = errors ? strchr(errors, '\n') : NULL;

			if (nl)
				*nl = '\0';
			/* what the checks above let through: ids used where they do not
			 * dominate, or types that do not agree */
			ret = tr_fail(&t, -EINVAL, "the module's values do not fit together: %s",
				      errors ? errors : "invalid IR");
			free(errors);
		}
	}
	if (ret == 0) {
		agx_opt_copy_prop(t.shader);
		agx_opt_dce(t.shader);
		*out = t.shader;
		t.shader = NULL;
	}
finish:
	agx_ir_shader_destroy(t.shader);
	agx_spirv_module_finish(&m);
	arena_free(&t);
	free(t.index);
	free(t.names);
	free(t.vals);
	free(t.types);
	free(t.blocks);
	free(t.funcs);
	free(t.vars);
	free(t.slot_type);
	free(t.slot_written);
	free(t.slot_dead);
	free(t.phi_slot);
	free(t.cur.v);
done:
	if (ret < 0 && log) {
		*log = t.log;
		t.log = NULL;
	}
	free(t.log);
	return ret;
}

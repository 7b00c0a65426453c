/*
 * agx_spirv_memory.c: the SPIR-V translator's variables and pointers
 * (agx_spirv_to_ir.h): which kind of storage each variable is, how it is
 * laid out, access chains into it, and the loads, stores and atomics that
 * read and write it -- and, at the end, the interface variables the
 * shader records (shader->vars).
 *
 * Three ways to hold a variable:
 *   slots   function, private and output variables: the current value of
 *           each scalar is an SSA value (agx_spirv_cf.c keeps them per path);
 *           a dynamic index picks among the candidates with bcsel
 *   tables  inputs, built-ins and default-block uniforms: one read per
 *           scalar (load_input, a system value, load_uniform at a constant
 *           offset), also picked with bcsel when indexed dynamically
 *   memory  SSBOs (std430), UBOs (std140) at the offsets their Offset,
 *           ArrayStride and MatrixStride decorations give, and shared
 *           variables, one 32-bit word per scalar: a byte address
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_spirv_to_ir.h"

/* ---- variables ------------------------------------------------------------------- */

static int new_var(struct tr *t, enum tr_var_kind kind, uint32_t id, uint32_t type,
		   SpvStorageClass storage, unsigned *index)
{
	struct tr_var *v;

	if (t->num_vars == t->var_capacity) {
		unsigned cap = t->var_capacity ? 2 * t->var_capacity : 16;
		struct tr_var *n = realloc(t->vars, cap * sizeof(*n));

		if (!n)
			return tr_fail(t, -ENOMEM, "out of memory");
		t->vars = n;
		t->var_capacity = cap;
	}
	v = &t->vars[t->num_vars];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	v->id = id;
	v->type = type;
	v->storage = storage;
	*index = t->num_vars++;
	return 0;
}

static int set_pointer(struct tr *t, uint32_t id, uint32_t ptr_type, unsigned var,
		       struct agx_ir_value addr)
{
	struct tr_ptr *p = tr_alloc(t, sizeof(*p));
	const struct tr_var *v = &t->vars[var];
	const struct tr_type *pointee = tr_type(t, v->type);

	if (!p)
		return t->err;
	p->var = var;
	p->type = v->type;
	p->addr = addr;
	p->vector_stride = 4;
	/* a matrix variable outside a block: shared memory's packed columns */
	if (pointee->kind == TR_T_MATRIX)
		p->matrix_stride = 4 * tr_type(t, pointee->elem)->len;
	t->vals[id].kind = TR_V_POINTER;
	t->vals[id].type = ptr_type;
	t->vals[id].p = p;
	return 0;
}

int tr_get_ptr(struct tr *t, uint32_t id, struct tr_ptr **p)
{
	if (id >= t->m->bound || t->vals[id].kind != TR_V_POINTER)
		return tr_fail(t, -EINVAL, "id %u is used as a pointer but is none here", id);
	*p = t->vals[id].p;
	return 0;
}

/* The pointee of a pointer type, checked. */
static const struct tr_type *pointee(struct tr *t, uint32_t ptr_type, SpvStorageClass *storage)
{
	const struct tr_type *pt = tr_type(t, ptr_type);

	if (!pt || pt->kind != TR_T_POINTER)
		return NULL;
	if (storage)
		*storage = pt->storage;
	return tr_type(t, pt->elem);
}

static bool is_opaque(struct tr *t, const struct tr_type *type)
{
	while (type && type->kind == TR_T_ARRAY)
		type = tr_type(t, type->elem);
	return type && (type->kind == TR_T_SAMPLED_IMAGE || type->kind == TR_T_IMAGE ||
			type->kind == TR_T_SAMPLER);
}

/* Slots of a function, private or output variable, set from its initializer if any. */
static int slot_variable(struct tr *t, const struct agx_spirv_inst *in, const struct tr_type *pt,
			 SpvStorageClass storage, unsigned *index)
{
	unsigned var;
	int ret;

	if (pt->n == 0 || pt->n > TR_MAX_SLOTS)
		return tr_fail(t, -ENOTSUP, "variable %u of %u scalars (at most %u)", in->result,
			       pt->n, TR_MAX_SLOTS);
	if ((ret = new_var(t, TR_VAR_SLOTS, in->result, pt->id, storage, &var)) < 0 ||
	    (ret = tr_alloc_slots(t, pt->id, &t->vars[var].slot)) < 0 ||
	    (ret = set_pointer(t, in->result, in->type, var, agx_imm_u32(0))) < 0)
		return ret;
	if (agx_spirv_num_operands(in) >= 2) {
		struct agx_ir_value *init;
		unsigned n = pt->n;

		if (tr_val_type(t, agx_spirv_operand(in, 1)) != pt->id)
			return tr_fail(t, -EINVAL, "variable %u initialized with another type",
				       in->result);
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 1), &init, &n)) < 0)
			return ret;
		for (unsigned i = 0; i < n; i++)
			tr_slot_set(t, t->vars[var].slot + i, init[i]);
	} else {
		/* a variable starts undefined each time its function is entered */
		for (unsigned i = 0; i < pt->n; i++)
			tr_slot_set(t, t->vars[var].slot + i, (struct agx_ir_value){ 0 });
	}
	*index = var;
	return 0;
}

int tr_local_variable(struct tr *t, const struct agx_spirv_inst *in)
{
	SpvStorageClass storage;
	const struct tr_type *pt = pointee(t, in->type, &storage);
	unsigned var;

	if (!pt || storage != SpvStorageClassFunction ||
	    agx_spirv_operand(in, 0) != SpvStorageClassFunction)
		return tr_fail(t, -EINVAL, "variable %u in a function is not of Function storage",
			       in->result);
	if (is_opaque(t, pt))
		return tr_fail(t, -ENOTSUP, "a local variable of a sampler type");
	return slot_variable(t, in, pt, storage, &var);
}

/* ---- layouts ------------------------------------------------------------------------- */

static unsigned round_up(unsigned v, unsigned a)
{
	return (v + a - 1) / a * a;
}

static unsigned std140_align(struct tr *t, const struct tr_type *type)
{
	unsigned a = 4;

	switch (type->kind) {
	case TR_T_VECTOR:
		return type->len == 2 ? 8 : 16;
	case TR_T_MATRIX:
	case TR_T_ARRAY:
		return 16;
	case TR_T_STRUCT:
		for (unsigned i = 0; i < type->len; i++) {
			unsigned m = std140_align(t, tr_type(t, type->members[i]));

			a = m > a ? m : a;
		}
		return round_up(a, 16);
	default:
		return 4;
	}
}

/*
 * std140 (OpenGL ES 3.00 section 2.12.6.4) for the default-block
 * uniforms, which have no decorations to follow: the byte offset of each
 * scalar into offsets[*at...]; returns the size.
 */
static unsigned std140_layout(struct tr *t, const struct tr_type *type, unsigned base,
			      uint32_t *offsets, unsigned *at)
{
	unsigned size = 0, off = 0;
	const struct tr_type *e;

	switch (type->kind) {
	case TR_T_BOOL:
	case TR_T_INT:
	case TR_T_FLOAT:
		offsets[(*at)++] = base;
		return 4;
	case TR_T_VECTOR:
		for (unsigned c = 0; c < type->len; c++)
			offsets[(*at)++] = base + 4 * c;
		return 4 * type->len;
	case TR_T_MATRIX:
		e = tr_type(t, type->elem);
		for (unsigned c = 0; c < type->len; c++)
			std140_layout(t, e, base + 16 * c, offsets, at);
		return 16 * type->len;
	case TR_T_ARRAY: {
		unsigned stride;

		e = tr_type(t, type->elem);
		/* one element's size, rounded to a vec4's: measured on a scratch layout */
		stride = round_up(std140_layout(t, e, base, offsets, at), 16);
		for (unsigned i = 1; i < type->len; i++)
			std140_layout(t, e, base + i * stride, offsets, at);
		return stride * type->len;
	}
	case TR_T_STRUCT:
		for (unsigned i = 0; i < type->len; i++) {
			e = tr_type(t, type->members[i]);
			off = round_up(off, std140_align(t, e));
			off += std140_layout(t, e, base + off, offsets, at);
		}
		size = round_up(off, 16);
		return size;
	default:
		return 0;
	}
}

static int member_offset(struct tr *t, const struct tr_var *v, const struct tr_type *st, unsigned m,
			 unsigned *off)
{
	uint32_t value;

	if (v->kind == TR_VAR_SHARED) {
		*off = 0;
		for (unsigned i = 0; i < m; i++)
			*off += 4 * tr_type(t, st->members[i])->n;
		return 0;
	}
	if (!agx_spirv_decorated(t->m, st->id, (int32_t)m, SpvDecorationOffset, &value))
		return tr_fail(t, -EINVAL, "member %u of block type %u has no Offset", m, st->id);
	*off = value;
	return 0;
}

static int array_stride(struct tr *t, const struct tr_var *v, const struct tr_type *at,
			unsigned *stride)
{
	uint32_t value;

	if (v->kind == TR_VAR_SHARED) {
		*stride = 4 * tr_type(t, at->elem)->n;
		return 0;
	}
	if (!agx_spirv_decorated(t->m, at->id, -1, SpvDecorationArrayStride, &value) || !value)
		return tr_fail(t, -EINVAL, "array type %u in a block has no ArrayStride", at->id);
	*stride = value;
	return 0;
}

/* The matrix layout a struct member gives what is under it. */
static int member_matrix_layout(struct tr *t, const struct tr_var *v, const struct tr_type *st,
				unsigned m, bool *row_major, unsigned *stride)
{
	const struct tr_type *e = tr_type(t, st->members[m]);
	uint32_t value;

	while (e->kind == TR_T_ARRAY || e->kind == TR_T_RUNTIME_ARRAY)
		e = tr_type(t, e->elem);
	if (e->kind != TR_T_MATRIX)
		return 0;
	if (v->kind == TR_VAR_SHARED) {
		*row_major = false;
		*stride = 4 * tr_type(t, e->elem)->len;
		return 0;
	}
	*row_major = agx_spirv_decorated(t->m, st->id, (int32_t)m, SpvDecorationRowMajor, NULL);
	if (!agx_spirv_decorated(t->m, st->id, (int32_t)m, SpvDecorationMatrixStride, &value) ||
	    !value)
		return tr_fail(t, -EINVAL, "matrix member %u of block type %u has no MatrixStride",
			       m, st->id);
	*stride = value;
	return 0;
}

/* ---- access chains -------------------------------------------------------------------- */

static struct agx_ir_value addr_add(struct tr *t, struct agx_ir_value a, struct agx_ir_value idx,
				    unsigned scale)
{
	struct agx_ir_value off;

	if (!idx.def) {
		uint32_t o = idx.imm * scale;

		if (!a.def)
			return agx_imm_u32(a.imm + o);
		return o ? agx_iadd(&t->b, a, agx_imm_u32(o)) : a;
	}
	off = scale == 1 ? idx : agx_imul(&t->b, idx, agx_imm_u32(scale));
	if (!a.def && a.imm == 0)
		return off;
	return agx_iadd(&t->b, a, off);
}

static bool in_memory(const struct tr_var *v)
{
	return v->kind == TR_VAR_SSBO || v->kind == TR_VAR_UBO || v->kind == TR_VAR_SHARED;
}

int tr_access_chain(struct tr *t, const struct agx_spirv_inst *in)
{
	unsigned nops = agx_spirv_num_operands(in);
	struct tr_ptr *base = NULL, *p;
	const struct tr_var *v;
	SpvStorageClass storage;
	const struct tr_type *want = pointee(t, in->type, &storage);
	int ret;

	if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &base)) < 0)
		return ret;
	if (!want)
		return tr_fail(t, -EINVAL, "an access chain of type %u, no pointer", in->type);
	p = tr_alloc(t, sizeof(*p));
	if (!p || (base->num_dyn + nops &&
		   !(p->dyn = tr_alloc(t, (base->num_dyn + nops) * sizeof(*p->dyn)))))
		return t->err;
	{
		struct tr_dyn *dyn = p->dyn;

		*p = *base;
		p->dyn = dyn;
		if (base->num_dyn)
			memcpy(p->dyn, base->dyn, base->num_dyn * sizeof(*p->dyn));
	}
	v = &t->vars[p->var];
	for (unsigned k = 1; k < nops; k++) {
		const struct tr_type *type = tr_type(t, p->type);
		struct agx_ir_value *ix;
		unsigned one = 1, count = 0, elem_n = 0;

		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, k), &ix, &one)) < 0)
			return ret;
		if (ix[0].type != AGX_IR_TYPE_I32)
			return tr_fail(t, -EINVAL, "an access chain index that is no integer");
		switch (type->kind) {
		case TR_T_STRUCT: {
			unsigned m = ix[0].imm, off;

			if (ix[0].def || m >= type->len)
				return tr_fail(t, -EINVAL,
					       "an access chain into a struct by index %u, not a "
					       "member's constant",
					       m);
			if (in_memory(v)) {
				if ((ret = member_offset(t, v, type, m, &off)) < 0 ||
				    (ret = member_matrix_layout(t, v, type, m, &p->row_major,
								&p->matrix_stride)) < 0)
					return ret;
				p->addr = addr_add(t, p->addr, agx_imm_u32(off), 1);
				p->vector_stride = 4;
			} else {
				for (unsigned i = 0; i < m; i++)
					p->base += tr_type(t, type->members[i])->n;
			}
			p->type = type->members[m];
			continue;
		}
		case TR_T_ARRAY:
		case TR_T_RUNTIME_ARRAY:
		case TR_T_MATRIX:
		case TR_T_VECTOR:
			count = type->kind == TR_T_RUNTIME_ARRAY ? 0 : type->len;
			elem_n = tr_type(t, type->elem)->n;
			break;
		default:
			return tr_fail(t, -EINVAL, "an access chain into a scalar");
		}
		if (!ix[0].def && count && ix[0].imm >= count)
			return tr_fail(t, -EINVAL, "access chain index %u of %u elements",
				       ix[0].imm, count);
		if ((v->kind == TR_VAR_UBO || v->kind == TR_VAR_SSBO) && p->type == v->type &&
		    type->kind == TR_T_ARRAY) {
			/*
			 * An array of blocks: the index picks the binding.  GLSL ES
			 * 3.00 section 4.3.7 indexes uniform block arrays by
			 * constants; so do we storage block arrays.
			 */
			if (ix[0].def)
				return tr_fail(t, -ENOTSUP,
					       "an array of blocks indexed by a non-constant");
			p->block = ix[0].imm;
			p->type = type->elem;
			continue;
		}
		if (v->kind == TR_VAR_SAMPLER) {
			/* GLSL ES 3.00 section 4.1.7.1: samplers are indexed by constants alone */
			if (ix[0].def || type->kind != TR_T_ARRAY)
				return tr_fail(t, -ENOTSUP,
					       "an array of samplers indexed by a non-constant");
			p->base += ix[0].imm * tr_opaque_elements(t, tr_type(t, type->elem));
			p->type = type->elem;
			continue;
		}
		if (in_memory(v)) {
			unsigned stride;

			if (type->kind == TR_T_MATRIX) {
				stride = p->row_major ? 4 : p->matrix_stride;
				p->vector_stride = p->row_major ? p->matrix_stride : 4;
			} else if (type->kind == TR_T_VECTOR) {
				stride = p->vector_stride;
			} else if ((ret = array_stride(t, v, type, &stride)) < 0) {
				return ret;
			}
			p->addr = addr_add(t, p->addr, ix[0], stride);
		} else if (!count) {
			return tr_fail(t, -EINVAL, "a runtime-sized array outside a storage block");
		} else if (!ix[0].def) {
			p->base += ix[0].imm * elem_n;
		} else {
			p->dyn[p->num_dyn++] = (struct tr_dyn){ ix[0], count, elem_n };
		}
		p->type = type->elem;
	}
	if (want->id != p->type)
		return tr_fail(t, -EINVAL, "access chain %u ends at type %u, not its type's %u",
			       in->result, p->type, want->id);
	t->vals[in->result].kind = TR_V_POINTER;
	t->vals[in->result].type = in->type;
	t->vals[in->result].p = p;
	return 0;
}

/* ---- loads and stores: slots and tables -------------------------------------------------- */

/* The flattened IR types of a variable, for the reads of a table. */
static enum agx_ir_type var_scalar_type(struct tr *t, const struct tr_var *v, unsigned k)
{
	(void)t;
	return (enum agx_ir_type)(v->reads[k].b >> 24);
}

static int table_read(struct tr *t, const struct tr_var *v, unsigned k, struct agx_ir_value *out)
{
	const struct tr_scalar_read *r = &v->reads[k];
	enum agx_ir_type type = var_scalar_type(t, v, k);
	unsigned comp = r->b & 0xffffff;
	uint32_t imms[2] = { r->a, comp };
	struct agx_ir_value v32;

	switch (r->how) {
	case TR_READ_INPUT:
		/* an input of bools is impossible (GLSL ES 3.00 section 4.3.4) */
		*out = agx_load_input(&t->b, type, r->a, comp);
		return 0;
	case TR_READ_UNIFORM:
		if (type == AGX_IR_TYPE_B1) {
			v32 = agx_load_uniform(&t->b, AGX_IR_TYPE_I32, r->a);
			*out = agx_ine(&t->b, v32, agx_imm_u32(0));
		} else {
			*out = agx_load_uniform(&t->b, type, r->a);
		}
		return 0;
	case TR_READ_SYSVAL: {
		enum agx_ir_op op = (enum agx_ir_op)r->a;

		imms[0] = comp;
		*out = agx_ir_def_value(
		    agx_ir_instr_dest(agx_builder_emit(&t->b, op, AGX_IR_TYPE_NONE, NULL, imms)));
		return 0;
	}
	case TR_READ_CONST:
		*out = agx_ir_imm(type, r->a);
		return 0;
	case TR_READ_FRONT:
		*out = agx_load_front_facing(&t->b);
		return 0;
	default:
		return tr_fail(t, -ENOTSUP, "built-in input %u of variable %u is not translated",
			       r->a, v->id);
	}
}

static int select_read(struct tr *t, const struct tr_var *v, unsigned base,
		       const struct tr_dyn *dyn, unsigned num_dyn, struct agx_ir_value *out,
		       unsigned n)
{
	struct agx_ir_value *cand;
	int ret;

	if (num_dyn == 0) {
		for (unsigned j = 0; j < n; j++) {
			if (v->kind == TR_VAR_SLOTS)
				out[j] = tr_slot_get(t, v->slot + base + j);
			else if ((ret = table_read(t, v, base + j, &out[j])) < 0)
				return ret;
		}
		return 0;
	}
	if ((ret = tr_check_budget(t)) < 0)
		return ret;
	cand = tr_alloc(t, n * sizeof(*cand));
	if (!cand)
		return t->err;
	/* the last candidate, then each earlier one chosen over it when the index is its */
	if ((ret = select_read(t, v, base + (dyn->count - 1) * dyn->stride, dyn + 1, num_dyn - 1,
			       out, n)) < 0)
		return ret;
	for (unsigned c = dyn->count - 1; c-- > 0;) {
		struct agx_ir_value is = agx_ieq(&t->b, dyn->index, agx_imm_u32(c));

		if ((ret = select_read(t, v, base + c * dyn->stride, dyn + 1, num_dyn - 1, cand,
				       n)) < 0)
			return ret;
		for (unsigned j = 0; j < n; j++)
			out[j] = agx_bcsel(&t->b, is, cand[j], out[j]);
	}
	return 0;
}

static int select_write(struct tr *t, const struct tr_var *v, unsigned base,
			const struct tr_dyn *dyn, unsigned num_dyn, struct agx_ir_value cond,
			bool conditional, const struct agx_ir_value *val, unsigned n)
{
	int ret;

	if (num_dyn == 0) {
		for (unsigned j = 0; j < n; j++) {
			unsigned s = v->slot + base + j;
			struct agx_ir_value nv = val[j];

			if (conditional)
				nv = agx_bcsel(&t->b, cond, val[j], tr_slot_get(t, s));
			tr_slot_set(t, s, nv);
			t->slot_written[s] = true;
		}
		return 0;
	}
	if ((ret = tr_check_budget(t)) < 0)
		return ret;
	for (unsigned c = 0; c < dyn->count; c++) {
		struct agx_ir_value is = agx_ieq(&t->b, dyn->index, agx_imm_u32(c));

		if (conditional)
			is = agx_band(&t->b, cond, is);
		if ((ret = select_write(t, v, base + c * dyn->stride, dyn + 1, num_dyn - 1, is,
					true, val, n)) < 0)
			return ret;
	}
	return 0;
}

/* ---- loads and stores: memory --------------------------------------------------------------- */

struct mem_layout {
	bool row_major;
	unsigned matrix_stride, vector_stride;
	unsigned binding; /* the block's: the var's, plus the element of an array of blocks */
};

static struct agx_ir_value mem_scalar_load(struct tr *t, const struct tr_var *v,
					   enum agx_ir_type type, struct agx_ir_value addr,
					   unsigned binding)
{
	enum agx_ir_type mt = type == AGX_IR_TYPE_B1 ? AGX_IR_TYPE_I32 : type;
	struct agx_ir_value r;

	if (v->kind == TR_VAR_SSBO)
		r = agx_load_ssbo(&t->b, mt, addr, binding);
	else if (v->kind == TR_VAR_UBO)
		r = agx_load_ubo(&t->b, mt, addr, binding);
	else
		r = agx_load_shared(&t->b, mt, addr);
	/* booleans are 32-bit words in memory, any non-zero value true */
	return type == AGX_IR_TYPE_B1 ? agx_ine(&t->b, r, agx_imm_u32(0)) : r;
}

static void mem_scalar_store(struct tr *t, const struct tr_var *v, struct agx_ir_value val,
			     struct agx_ir_value addr, unsigned binding)
{
	if (val.type == AGX_IR_TYPE_B1)
		val = agx_b2i(&t->b, AGX_IR_TYPE_I32, val);
	if (v->kind == TR_VAR_SSBO)
		agx_store_ssbo(&t->b, val, addr, binding);
	else
		agx_store_shared(&t->b, val, addr);
}

/* Loads (store NULL) or stores the scalars of type at addr, from or into vals[*at...]. */
static int mem_access(struct tr *t, const struct tr_var *v, const struct tr_type *type,
		      struct agx_ir_value addr, struct mem_layout lay, struct agx_ir_value *vals,
		      unsigned *at, bool store)
{
	const struct tr_type *e;
	struct mem_layout inner = lay;
	int ret;

	switch (type->kind) {
	case TR_T_BOOL:
	case TR_T_INT:
	case TR_T_FLOAT:
		if (store)
			mem_scalar_store(t, v, vals[*at], addr, lay.binding);
		else
			vals[*at] = mem_scalar_load(t, v, tr_scalar_type(type), addr, lay.binding);
		(*at)++;
		return 0;
	case TR_T_VECTOR:
		e = tr_type(t, type->elem);
		for (unsigned c = 0; c < type->len; c++)
			if ((ret = mem_access(t, v, e,
					      addr_add(t, addr, agx_imm_u32(c), lay.vector_stride),
					      lay, vals, at, store)) < 0)
				return ret;
		return 0;
	case TR_T_MATRIX:
		e = tr_type(t, type->elem);
		inner.vector_stride = lay.row_major ? lay.matrix_stride : 4;
		for (unsigned c = 0; c < type->len; c++)
			if ((ret = mem_access(t, v, e,
					      addr_add(t, addr, agx_imm_u32(c),
						       lay.row_major ? 4 : lay.matrix_stride),
					      inner, vals, at, store)) < 0)
				return ret;
		return 0;
	case TR_T_ARRAY: {
		unsigned stride;

		if ((ret = array_stride(t, v, type, &stride)) < 0)
			return ret;
		e = tr_type(t, type->elem);
		for (unsigned i = 0; i < type->len; i++)
			if ((ret = mem_access(t, v, e, addr_add(t, addr, agx_imm_u32(i), stride),
					      lay, vals, at, store)) < 0)
				return ret;
		return 0;
	}
	case TR_T_STRUCT:
		for (unsigned m = 0; m < type->len; m++) {
			unsigned off;

			inner.vector_stride = 4;
			if ((ret = member_offset(t, v, type, m, &off)) < 0 ||
			    (ret = member_matrix_layout(t, v, type, m, &inner.row_major,
							&inner.matrix_stride)) < 0)
				return ret;
			if ((ret = mem_access(t, v, tr_type(t, type->members[m]),
					      addr_add(t, addr, agx_imm_u32(off), 1), inner, vals,
					      at, store)) < 0)
				return ret;
		}
		return 0;
	default:
		return tr_fail(t, -EINVAL,
			       "a load or store of a runtime-sized array or an opaque type");
	}
}

int tr_load(struct tr *t, const struct tr_ptr *p, struct agx_ir_value *out, unsigned n)
{
	const struct tr_var *v = &t->vars[p->var];
	const struct tr_type *type = tr_type(t, p->type);
	unsigned at = 0;

	if (in_memory(v)) {
		struct mem_layout lay = { p->row_major, p->matrix_stride, p->vector_stride,
					  v->binding + p->block };

		return mem_access(t, v, type, p->addr, lay, out, &at, false);
	}
	if (v->kind == TR_VAR_SAMPLER)
		return tr_fail(t, -ENOTSUP, "a sampler loaded as a value");
	return select_read(t, v, p->base, p->dyn, p->num_dyn, out, n);
}

int tr_store(struct tr *t, const struct tr_ptr *p, const struct agx_ir_value *val, unsigned n)
{
	const struct tr_var *v = &t->vars[p->var];
	const struct tr_type *type = tr_type(t, p->type);
	unsigned at = 0;

	if (v->kind == TR_VAR_SSBO || v->kind == TR_VAR_SHARED) {
		struct mem_layout lay = { p->row_major, p->matrix_stride, p->vector_stride,
					  v->binding + p->block };

		return mem_access(t, v, type, p->addr, lay, (struct agx_ir_value *)val, &at, true);
	}
	if (v->kind != TR_VAR_SLOTS)
		return tr_fail(t, -EINVAL, "a store to variable %u, which is read-only", v->id);
	return select_write(t, v, p->base, p->dyn, p->num_dyn, agx_imm_bool(true), false, val, n);
}

/* ---- atomics ----------------------------------------------------------------------------------
 */

int tr_atomic(struct tr *t, const struct agx_spirv_inst *in)
{
	struct tr_ptr *p = NULL;
	const struct tr_var *v;
	const struct tr_type *type;
	struct agx_ir_value *val = NULL, *cmp = NULL, r, one_v;
	unsigned one = 1, op;
	int ret;

	if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &p)) < 0)
		return ret;
	v = &t->vars[p->var];
	type = tr_type(t, p->type);
	if ((v->kind != TR_VAR_SSBO && v->kind != TR_VAR_SHARED) || type->kind != TR_T_INT)
		return tr_fail(t, -EINVAL,
			       "an atomic on what is no integer of a storage block or "
			       "shared memory");
	switch (in->opcode) {
	case SpvOpAtomicLoad:
		r = mem_scalar_load(t, v, AGX_IR_TYPE_I32, p->addr, v->binding + p->block);
		return tr_set_ssa(t, in->result, in->type, &r, 1);
	case SpvOpAtomicStore:
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 3), &val, &one)) < 0)
			return ret;
		mem_scalar_store(t, v, val[0], p->addr, v->binding + p->block);
		return 0;
	case SpvOpAtomicCompareExchange:
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 4), &val, &one)) < 0 ||
		    (ret = tr_get_ssa(t, agx_spirv_operand(in, 5), &cmp, &one)) < 0)
			return ret;
		r = v->kind == TR_VAR_SSBO
			? agx_cmpxchg_ssbo(&t->b, p->addr, cmp[0], val[0], v->binding + p->block)
			: agx_cmpxchg_shared(&t->b, p->addr, cmp[0], val[0]);
		return tr_set_ssa(t, in->result, in->type, &r, 1);
	case SpvOpAtomicIIncrement:
	case SpvOpAtomicIDecrement:
		one_v = agx_imm_u32(1);
		val = &one_v;
		op = in->opcode == SpvOpAtomicIIncrement ? 0 : 1;
		break;
	default:
		if ((ret = tr_get_ssa(t, agx_spirv_operand(in, 3), &val, &one)) < 0)
			return ret;
		/* the ISA's atomic op numbers (agx_ir_ops.h) */
		switch (in->opcode) {
		case SpvOpAtomicIAdd:
			op = 0;
			break;
		case SpvOpAtomicISub:
			op = 1;
			break;
		case SpvOpAtomicExchange:
			op = 2;
			break;
		case SpvOpAtomicUMin:
			op = 4;
			break;
		case SpvOpAtomicSMin:
			op = 5;
			break;
		case SpvOpAtomicUMax:
			op = 6;
			break;
		case SpvOpAtomicSMax:
			op = 7;
			break;
		case SpvOpAtomicAnd:
			op = 8;
			break;
		case SpvOpAtomicOr:
			op = 9;
			break;
		default:
			op = 10;
			break;
		}
		break;
	}
	r = v->kind == TR_VAR_SSBO
		? agx_atomic_ssbo(&t->b, p->addr, val[0], v->binding + p->block, op)
		: agx_atomic_shared(&t->b, p->addr, val[0], op);
	return tr_set_ssa(t, in->result, in->type, &r, 1);
}

/*
 * OpArrayLength, .length() of a storage block's runtime-sized array: what
 * of the bound range is past the array's offset, in elements (GLSL ES 3.10
 * section 4.1.9; a range too short for any element gives 0).
 */
int tr_array_length(struct tr *t, const struct agx_spirv_inst *in)
{
	struct agx_builder *b = &t->b;
	struct tr_ptr *p = NULL;
	struct tr_var *v;
	const struct tr_type *st, *at;
	unsigned m = agx_spirv_operand(in, 1), off, stride;
	struct agx_ir_value size, n;
	int ret;

	if (agx_spirv_num_operands(in) != 2)
		return tr_fail(t, -EINVAL, "OpArrayLength of %u operands",
			       agx_spirv_num_operands(in));
	if ((ret = tr_get_ptr(t, agx_spirv_operand(in, 0), &p)) < 0)
		return ret;
	v = &t->vars[p->var];
	st = tr_type(t, p->type);
	if (v->kind != TR_VAR_SSBO || !st || st->kind != TR_T_STRUCT || m + 1 != st->len ||
	    !(at = tr_type(t, st->members[m])) || at->kind != TR_T_RUNTIME_ARRAY)
		return tr_fail(t, -EINVAL,
			       "OpArrayLength of what is no storage block's last, runtime-sized "
			       "member");
	if ((ret = member_offset(t, v, st, m, &off)) < 0 ||
	    (ret = array_stride(t, v, at, &stride)) < 0)
		return ret;
	v->sized = true;
	size = agx_load_ssbo_size(b, v->binding + p->block);
	n = agx_udiv(b, agx_isub(b, size, agx_imm_u32(off)), agx_imm_u32(stride));
	n = agx_bcsel(b, agx_ult(b, size, agx_imm_u32(off)), agx_imm_u32(0), n);
	return tr_set_ssa(t, in->result, in->type, &n, 1);
}

/* ---- global variables -------------------------------------------------------------------------
 */

/*
 * A struct member's first location: the member's own Location decoration
 * (allowed on a Block's members), else the one after the member before it
 * -- the rule of the Vulkan specification's "Location Assignment"
 * (Shader Interfaces chapter), which GL SPIR-V shares.
 */
static void member_location(struct tr *t, const struct tr_type *st, unsigned m, unsigned *loc)
{
	uint32_t value;

	if (agx_spirv_decorated(t->m, st->id, (int32_t)m, SpvDecorationLocation, &value))
		*loc = value;
}

/* Locations: a vector or scalar takes one, a matrix one per column; arrays and structs in order. */
static void location_walk(struct tr *t, const struct tr_type *type, unsigned *loc,
			  struct tr_scalar_read *reads, struct tr_out_loc *out, unsigned *at)
{
	const struct tr_type *e;

	switch (type->kind) {
	case TR_T_BOOL:
	case TR_T_INT:
	case TR_T_FLOAT:
	case TR_T_VECTOR:
		for (unsigned c = 0; c < (type->kind == TR_T_VECTOR ? type->len : 1); c++) {
			enum agx_ir_type st = tr_scalar_type(
			    type->kind == TR_T_VECTOR ? tr_type(t, type->elem) : type);

			if (reads)
				reads[*at] = (struct tr_scalar_read){ TR_READ_INPUT, *loc,
								      c | (unsigned)st << 24 };
			if (out)
				out[*at] = (struct tr_out_loc){ *loc, c, true };
			(*at)++;
		}
		(*loc)++;
		return;
	case TR_T_MATRIX:
		e = tr_type(t, type->elem);
		for (unsigned c = 0; c < type->len; c++)
			location_walk(t, e, loc, reads, out, at);
		return;
	case TR_T_ARRAY:
		e = tr_type(t, type->elem);
		for (unsigned i = 0; i < type->len; i++)
			location_walk(t, e, loc, reads, out, at);
		return;
	case TR_T_STRUCT:
		for (unsigned m = 0; m < type->len; m++) {
			member_location(t, type, m, loc);
			location_walk(t, tr_type(t, type->members[m]), loc, reads, out, at);
		}
		return;
	default:
		return;
	}
}

static int fill_types(struct tr *t, struct tr_var *v, const struct tr_type *type)
{
	enum agx_ir_type *flat = tr_alloc(t, type->n * sizeof(*flat));

	if (!flat)
		return t->err;
	tr_flat_types_all(t, type->id, flat);
	for (unsigned k = 0; k < type->n; k++)
		v->reads[k].b = (v->reads[k].b & 0xffffff) | (unsigned)flat[k] << 24;
	return 0;
}

static void builtin_read(struct tr *t, SpvBuiltIn bi, unsigned comp, struct tr_scalar_read *r)
{
	enum agx_ir_op op = AGX_IR_NUM_OPS;

	r->b = comp;
	switch (bi) {
	case SpvBuiltInGlobalInvocationId:
		op = AGX_IR_OP_load_global_id;
		break;
	case SpvBuiltInLocalInvocationId:
		op = AGX_IR_OP_load_local_id;
		break;
	case SpvBuiltInWorkgroupId:
		op = AGX_IR_OP_load_workgroup_id;
		break;
	case SpvBuiltInNumWorkgroups:
		op = AGX_IR_OP_load_num_workgroups;
		break;
	case SpvBuiltInLocalInvocationIndex:
		op = AGX_IR_OP_load_local_index;
		break;
	case SpvBuiltInFragCoord:
		op = AGX_IR_OP_load_frag_coord;
		break;
	case SpvBuiltInVertexId:
	case SpvBuiltInVertexIndex:
		op = AGX_IR_OP_load_vertex_id;
		break;
	case SpvBuiltInInstanceId:
	case SpvBuiltInInstanceIndex:
		op = AGX_IR_OP_load_instance_id;
		break;
	case SpvBuiltInWorkgroupSize:
		r->how = TR_READ_CONST;
		r->a = comp < 3 ? t->shader->local_size[comp] : 0;
		return;
	case SpvBuiltInFrontFacing:
		r->how = TR_READ_FRONT;
		return;
	case SpvBuiltInPointCoord:
		r->how = TR_READ_INPUT;
		r->a = AGX_IR_LOCATION_POINT_COORD;
		return;
	default:
		r->how = TR_READ_NONE;
		r->a = bi;
		return;
	}
	r->how = TR_READ_SYSVAL;
	r->a = op;
}

static int input_variable(struct tr *t, const struct agx_spirv_inst *in, const struct tr_type *pt)
{
	unsigned var, at = 0, loc = 0;
	uint32_t value;
	struct tr_var *v;
	int ret;

	if (pt->n == 0 || pt->n > TR_MAX_SLOTS || is_opaque(t, pt))
		return tr_fail(t, -EINVAL, "input %u of type %u", in->result, pt->id);
	if ((ret = new_var(t, TR_VAR_TABLE, in->result, pt->id, SpvStorageClassInput, &var)) < 0)
		return ret;
	v = &t->vars[var];
	v->reads = tr_alloc(t, pt->n * sizeof(*v->reads));
	if (!v->reads)
		return t->err;
	if (agx_spirv_decorated(t->m, in->result, -1, SpvDecorationBuiltIn, &value)) {
		for (unsigned k = 0; k < pt->n; k++)
			builtin_read(t, (SpvBuiltIn)value, k, &v->reads[k]);
	} else if (pt->kind == TR_T_STRUCT &&
		   agx_spirv_decorated(t->m, pt->id, 0, SpvDecorationBuiltIn, NULL)) {
		return tr_fail(t, -ENOTSUP,
			       "an input block of built-ins (gl_in) is not translated");
	} else {
		if (!agx_spirv_decorated(t->m, in->result, -1, SpvDecorationLocation, &value))
			return tr_fail(t, -EINVAL, "input %u has no Location", in->result);
		loc = value;
		location_walk(t, pt, &loc, v->reads, NULL, &at);
	}
	if ((ret = fill_types(t, v, pt)) < 0)
		return ret;
	return set_pointer(t, in->result, in->type, var, agx_imm_u32(0));
}

static const char *id_name(struct tr *t, uint32_t id);

/* The front end's name of GL_APPLE_clip_distance's gl_ClipDistance (libagx/glsl/extensions.c). */
static bool clip_distance_output(struct tr *t, uint32_t id)
{
	const char *name = id_name(t, id);

	return t->shader->stage == AGX_IR_STAGE_VERTEX && name && !strcmp(name, "agx_ClipDistance");
}

/*
 * Whether the module reads variable var: an OpLoad (or OpCopyMemory) of it
 * or of a pointer into it.  Pointers are defined before they are used.
 */
static int variable_read(struct tr *t, uint32_t var, bool *read)
{
	const struct agx_spirv_module *m = t->m;
	bool *into = calloc(m->bound, sizeof(*into));

	*read = false;
	if (!into)
		return tr_fail(t, -ENOMEM, "out of memory");
	into[var] = true;
	for (size_t i = 0; i < m->num_insts && !*read; i++) {
		const struct agx_spirv_inst *in = &m->insts[i];
		uint32_t p;

		if (agx_spirv_num_operands(in) < 1)
			continue;
		p = agx_spirv_operand(in, 0);
		switch (in->opcode) {
		case SpvOpAccessChain:
		case SpvOpInBoundsAccessChain:
		case SpvOpCopyObject:
			if (p < m->bound && into[p] && in->result < m->bound)
				into[in->result] = true;
			break;
		case SpvOpLoad:
			*read = p < m->bound && into[p];
			break;
		case SpvOpCopyMemory:
			p = agx_spirv_num_operands(in) >= 2 ? agx_spirv_operand(in, 1) : 0;
			*read = p < m->bound && into[p];
			break;
		default:
			break;
		}
	}
	free(into);
	return 0;
}

/*
 * Framebuffer fetch: a fragment shader's colour output that the shader
 * reads starts as what its render target holds (load_framebuffer, which
 * agx_lower_fetch lowers), and is stored whole at the end.  That is its
 * value at entry for EXT_shader_framebuffer_fetch (the front end makes
 * inout outputs and gl_LastFragData such reads, docs/compiler.md rules
 * 19 and 20); for any other output, read before it is written, the value
 * is undefined, so this one will do.
 */
static int fetch_output(struct tr *t, const struct agx_spirv_inst *in, struct tr_var *v,
			const struct tr_type *pt)
{
	bool read;
	int ret;

	if (t->stage != AGX_IR_STAGE_FRAGMENT)
		return 0;
	if ((ret = variable_read(t, in->result, &read)) < 0 || !read)
		return ret;
	for (unsigned k = 0; k < pt->n; k++) {
		unsigned slot = v->slot + k;

		if (!v->out[k].valid || v->out[k].location >= 8)
			continue;
		tr_slot_set(t, slot,
			    agx_load_framebuffer(&t->b, t->slot_type[slot], v->out[k].location,
						 v->out[k].component));
		t->slot_written[slot] = true;
	}
	return 0;
}

static int output_variable(struct tr *t, const struct agx_spirv_inst *in, const struct tr_type *pt)
{
	unsigned var, at = 0, loc;
	uint32_t value;
	struct tr_var *v;
	int ret;

	if (is_opaque(t, pt))
		return tr_fail(t, -EINVAL, "output %u of an opaque type", in->result);
	if ((ret = slot_variable(t, in, pt, SpvStorageClassOutput, &var)) < 0)
		return ret;
	v = &t->vars[var];
	v->is_output = true;
	v->out = tr_alloc(t, pt->n * sizeof(*v->out));
	if (!v->out)
		return t->err;
	if (agx_spirv_decorated(t->m, in->result, -1, SpvDecorationBuiltIn, &value)) {
		for (unsigned k = 0; k < pt->n; k++) {
			if (value == SpvBuiltInPosition)
				v->out[k] =
				    (struct tr_out_loc){ AGX_IR_LOCATION_POSITION, k, true };
			else if (value == SpvBuiltInPointSize)
				v->out[k] =
				    (struct tr_out_loc){ AGX_IR_LOCATION_POINT_SIZE, k, true };
			else if (value == SpvBuiltInFragDepth)
				v->out[k] =
				    (struct tr_out_loc){ AGX_IR_LOCATION_FRAG_DEPTH, k, true };
		}
	} else if (pt->kind == TR_T_STRUCT &&
		   agx_spirv_decorated(t->m, pt->id, 0, SpvDecorationBuiltIn, NULL)) {
		/* gl_PerVertex: the members say which built-in each is */
		for (unsigned m = 0; m < pt->len; m++) {
			const struct tr_type *mt = tr_type(t, pt->members[m]);
			unsigned location = 0;

			if (agx_spirv_decorated(t->m, pt->id, (int32_t)m, SpvDecorationBuiltIn,
						&value)) {
				if (value == SpvBuiltInPosition)
					location = AGX_IR_LOCATION_POSITION;
				else if (value == SpvBuiltInPointSize)
					location = AGX_IR_LOCATION_POINT_SIZE;
			}
			for (unsigned k = 0; k < mt->n; k++, at++)
				v->out[at] = (struct tr_out_loc){ location, k, location != 0 };
		}
	} else {
		uint32_t index = 0;

		if (!agx_spirv_decorated(t->m, in->result, -1, SpvDecorationLocation, &value))
			return tr_fail(t, -EINVAL, "output %u has no Location", in->result);
		loc = clip_distance_output(t, in->result) ? AGX_IR_LOCATION_CLIP_DISTANCE : value;
		/* index 1: the second blend source, of location 0 only (one dual-source target) */
		agx_spirv_decorated(t->m, in->result, -1, SpvDecorationIndex, &index);
		if (index > 1 || (index == 1 && (loc != 0 || pt->n > 4 ||
						 t->shader->stage != AGX_IR_STAGE_FRAGMENT)))
			return tr_fail(t, -EINVAL, "output %u at location %u index %u", in->result,
				       loc, index);
		if (index == 1)
			loc = AGX_IR_LOCATION_DUAL_SOURCE;
		location_walk(t, pt, &loc, NULL, v->out, &at);
		if ((ret = fetch_output(t, in, v, pt)) < 0)
			return ret;
	}
	return 0;
}

static int uniform_variable(struct tr *t, const struct agx_spirv_inst *in, const struct tr_type *pt)
{
	unsigned var, at = 0, size, offset;
	uint32_t *offsets;
	struct tr_var *v;
	int ret;

	if (pt->n == 0 || pt->n > TR_MAX_SLOTS)
		return tr_fail(t, -ENOTSUP, "uniform %u of %u scalars", in->result, pt->n);
	if ((ret = new_var(t, TR_VAR_TABLE, in->result, pt->id, SpvStorageClassUniformConstant,
			   &var)) < 0)
		return ret;
	v = &t->vars[var];
	v->reads = tr_alloc(t, pt->n * sizeof(*v->reads));
	offsets = tr_alloc(t, pt->n * sizeof(*offsets));
	if (!v->reads || !offsets)
		return t->err;
	offset = round_up(t->uniform_size, 16);
	size = std140_layout(t, pt, offset, offsets, &at);
	if (offset + size > TR_MAX_UNIFORM_SIZE)
		return tr_fail(t, -ENOTSUP, "default-block uniforms of more than %u bytes",
			       TR_MAX_UNIFORM_SIZE);
	for (unsigned k = 0; k < pt->n; k++)
		v->reads[k] = (struct tr_scalar_read){ TR_READ_UNIFORM, offsets[k], 0 };
	if ((ret = fill_types(t, v, pt)) < 0)
		return ret;
	v->offset = offset;
	t->uniform_size = offset + size;
	return set_pointer(t, in->result, in->type, var, agx_imm_u32(0));
}

static int global_variable(struct tr *t, const struct agx_spirv_inst *in)
{
	SpvStorageClass storage;
	const struct tr_type *pt = pointee(t, in->type, &storage);
	unsigned var;
	uint32_t value = 0;
	int ret;

	if (!pt || storage != (SpvStorageClass)agx_spirv_operand(in, 0))
		return tr_fail(t, -EINVAL, "variable %u of type %u, no pointer of its storage",
			       in->result, in->type);
	switch (storage) {
	case SpvStorageClassInput:
		return input_variable(t, in, pt);
	case SpvStorageClassOutput:
		return output_variable(t, in, pt);
	case SpvStorageClassPrivate:
		return slot_variable(t, in, pt, storage, &var);
	case SpvStorageClassUniformConstant:
		if (is_opaque(t, pt)) {
			unsigned units = tr_opaque_elements(t, pt);

			if (t->num_units + units > TR_MAX_UNITS)
				return tr_fail(t, -ENOTSUP, "samplers of more than %u units",
					       TR_MAX_UNITS);
			if ((ret = new_var(t, TR_VAR_SAMPLER, in->result, pt->id, storage, &var)) <
			    0)
				return ret;
			agx_spirv_decorated(t->m, in->result, -1, SpvDecorationBinding, &value);
			t->vars[var].binding = value;
			t->vars[var].unit = t->num_units;
			t->num_units += units;
			return set_pointer(t, in->result, in->type, var, agx_imm_u32(0));
		}
		return uniform_variable(t, in, pt);
	case SpvStorageClassUniform:
	case SpvStorageClassStorageBuffer: {
		/* a block, or a one-dimensional array of them (a binding per element) */
		const struct tr_type *bt = pt->kind == TR_T_ARRAY ? tr_type(t, pt->elem) : pt;
		bool ssbo = storage == SpvStorageClassStorageBuffer ||
			    agx_spirv_decorated(t->m, bt->id, -1, SpvDecorationBufferBlock, NULL);

		if (bt->kind != TR_T_STRUCT ||
		    (!ssbo && !agx_spirv_decorated(t->m, bt->id, -1, SpvDecorationBlock, NULL)))
			return tr_fail(t, -ENOTSUP,
				       "a Uniform variable %u that is no block or array of blocks",
				       in->result);
		if ((ret = new_var(t, ssbo ? TR_VAR_SSBO : TR_VAR_UBO, in->result, pt->id, storage,
				   &var)) < 0)
			return ret;
		agx_spirv_decorated(t->m, in->result, -1, SpvDecorationBinding, &value);
		t->vars[var].binding = value;
		return set_pointer(t, in->result, in->type, var, agx_imm_u32(0));
	}
	case SpvStorageClassWorkgroup:
		if (pt->n == 0 || pt->n > (1u << 16) || is_opaque(t, pt))
			return tr_fail(t, -ENOTSUP, "shared variable %u of %u scalars", in->result,
				       pt->n);
		if ((ret = new_var(t, TR_VAR_SHARED, in->result, pt->id, storage, &var)) < 0)
			return ret;
		t->vars[var].offset = round_up(t->shared_size, 16);
		t->shared_size = t->vars[var].offset + 4 * pt->n;
		if (t->shared_size > (1u << 16))
			return tr_fail(t, -ENOTSUP, "more than 64 KiB of shared variables");
		return set_pointer(t, in->result, in->type, var, agx_imm_u32(t->vars[var].offset));
	default:
		return tr_fail(t, -ENOTSUP, "variables of storage class %u are not translated",
			       (unsigned)storage);
	}
}

int tr_global_variables(struct tr *t)
{
	const struct agx_spirv_module *m = t->m;
	int ret;

	for (size_t i = 0; i < m->num_insts; i++) {
		const struct agx_spirv_inst *in = &m->insts[i];

		if (in->opcode == SpvOpFunction)
			break;
		if (in->opcode == SpvOpVariable && (ret = global_variable(t, in)) < 0)
			return ret;
	}
	t->shader->uniform_size = t->uniform_size;
	t->shader->shared_size = t->shared_size;
	return 0;
}

void tr_store_outputs(struct tr *t)
{
	for (unsigned i = 0; i < t->num_vars; i++) {
		const struct tr_var *v = &t->vars[i];
		const struct tr_type *type = tr_type(t, v->type);

		if (!v->is_output)
			continue;
		for (unsigned k = 0; k < type->n; k++) {
			struct agx_ir_value val;

			if (!v->out[k].valid || !t->slot_written[v->slot + k])
				continue;
			val = tr_slot_get(t, v->slot + k);
			agx_store_output(&t->b, val, v->out[k].location, v->out[k].component);
		}
	}
}

/* ---- the interface
 * -------------------------------------------------------------------------------- */

static const char *id_name(struct tr *t, uint32_t id)
{
	const char *s;

	if (id >= t->m->bound || !t->names[id])
		return NULL;
	s = agx_spirv_string(&t->m->insts[t->names[id] - 1], 1, NULL);
	return s;
}

/* GLSL's spelling of a type: "vec4", "mat2x3", "usampler2D", a struct's name, "float[3]". */
static void glsl_name(struct tr *t, const struct tr_type *type, char *buf, size_t size)
{
	static const char *dims[] = { "1D", "2D", "3D", "Cube", "2DRect", "Buffer", "SubpassData" };
	const struct tr_type *e;
	const char *prefix = "";
	char inner[128];

	switch (type->kind) {
	case TR_T_BOOL:
		snprintf(buf, size, "bool");
		return;
	case TR_T_INT:
		snprintf(buf, size, type->is_signed ? "int" : "uint");
		return;
	case TR_T_FLOAT:
		snprintf(buf, size, "float");
		return;
	case TR_T_VECTOR:
		e = tr_type(t, type->elem);
		prefix = e->kind == TR_T_BOOL  ? "b"
			 : e->kind == TR_T_INT ? e->is_signed ? "i" : "u"
					       : "";
		snprintf(buf, size, "%svec%u", prefix, type->len);
		return;
	case TR_T_MATRIX:
		e = tr_type(t, type->elem);
		if (e->len == type->len)
			snprintf(buf, size, "mat%u", type->len);
		else
			snprintf(buf, size, "mat%ux%u", type->len, e->len);
		return;
	case TR_T_ARRAY:
		glsl_name(t, tr_type(t, type->elem), inner, sizeof(inner));
		snprintf(buf, size, "%s[%u]", inner, type->len);
		return;
	case TR_T_RUNTIME_ARRAY:
		glsl_name(t, tr_type(t, type->elem), inner, sizeof(inner));
		snprintf(buf, size, "%s[]", inner);
		return;
	case TR_T_STRUCT:
		snprintf(buf, size, "%s", id_name(t, type->id) ? id_name(t, type->id) : "struct");
		return;
	case TR_T_SAMPLED_IMAGE:
	case TR_T_IMAGE: {
		const struct tr_type *img =
		    type->kind == TR_T_IMAGE ? type : tr_type(t, type->elem);
		const struct tr_type *st = tr_type(t, img->elem);

		prefix = st->kind == TR_T_INT ? st->is_signed ? "i" : "u" : "";
		snprintf(buf, size, "%s%s%s%s%s%s", prefix,
			 type->kind == TR_T_IMAGE ? "image" : "sampler",
			 img->dim < 7 ? dims[img->dim] : "?", img->ms ? "MS" : "",
			 img->arrayed ? "Array" : "", img->depth == 1 ? "Shadow" : "");
		return;
	}
	case TR_T_SAMPLER:
		snprintf(buf, size, "sampler");
		return;
	default:
		snprintf(buf, size, "?");
		return;
	}
}

/* The one scalar type of all of a type's scalars, or NONE. */
static enum agx_ir_type common_type(struct tr *t, const struct tr_type *type)
{
	enum agx_ir_type flat[TR_MAX_SCALARS], first;

	if (type->n == 0 || type->n > TR_MAX_SCALARS)
		return AGX_IR_TYPE_NONE;
	tr_flat_types(t, type->id, flat);
	first = flat[0];
	for (unsigned k = 1; k < type->n; k++)
		if (flat[k] != first)
			return AGX_IR_TYPE_NONE;
	return first;
}

/* A block's size: the furthest byte its members reach (a runtime array: its start). */
static unsigned block_size(struct tr *t, const struct tr_var *v, const struct tr_type *st)
{
	unsigned size = 0;

	for (unsigned m = 0; m < st->len; m++) {
		const struct tr_type *mt = tr_type(t, st->members[m]);
		unsigned off = 0, end, stride = 0, mstride = 0;
		bool row_major = false;
		uint32_t value;

		if (agx_spirv_decorated(t->m, st->id, (int32_t)m, SpvDecorationOffset, &value))
			off = value;
		member_matrix_layout(t, v, st, m, &row_major, &mstride);
		switch (mt->kind) {
		case TR_T_RUNTIME_ARRAY:
			end = off;
			break;
		case TR_T_ARRAY:
			if (agx_spirv_decorated(t->m, mt->id, -1, SpvDecorationArrayStride, &value))
				stride = value;
			end = off + stride * mt->len;
			break;
		case TR_T_MATRIX:
			end = off + mstride * (row_major ? tr_type(t, mt->elem)->len : mt->len);
			break;
		case TR_T_STRUCT:
			end = off + block_size(t, v, mt);
			break;
		case TR_T_VECTOR:
			end = off + 4 * mt->len;
			break;
		default:
			end = off + 4;
			break;
		}
		size = end > size ? end : size;
	}
	return size;
}

/* The name OpMemberName gives member m of struct type id, or NULL. */
static const char *member_name(struct tr *t, uint32_t id, unsigned m)
{
	for (size_t i = 0; i < t->m->num_insts; i++) {
		const struct agx_spirv_inst *in = &t->m->insts[i];

		if (in->opcode == SpvOpMemberName && agx_spirv_num_operands(in) >= 3 &&
		    agx_spirv_operand(in, 0) == id && agx_spirv_operand(in, 1) == m)
			return agx_spirv_string(in, 2, NULL);
	}
	return NULL;
}

/* The interpolation decorations of id (member -1) or of a member of struct type id. */
static enum agx_ir_interp decorated_interp(struct tr *t, uint32_t id, int32_t member)
{
	if (agx_spirv_decorated(t->m, id, member, SpvDecorationFlat, NULL))
		return AGX_IR_INTERP_FLAT;
	if (agx_spirv_decorated(t->m, id, member, SpvDecorationNoPerspective, NULL))
		return AGX_IR_INTERP_NOPERSPECTIVE;
	if (agx_spirv_decorated(t->m, id, member, SpvDecorationCentroid, NULL))
		return AGX_IR_INTERP_CENTROID;
	return AGX_IR_INTERP_SMOOTH;
}

static void add_var_interp(struct tr *t, const struct tr_var *v, const char *name,
			   const struct tr_type *type, enum agx_ir_var_kind kind, unsigned location,
			   enum agx_ir_interp interp)
{
	struct agx_ir_var out;
	char type_name[160];
	const struct tr_type *elem = type;
	uint32_t value;

	memset(&out, 0, sizeof(out));
	out.kind = kind;
	out.uniform = -1;
	out.size_uniform = -1;
	out.location = location;
	if (type->kind == TR_T_ARRAY) {
		out.array_size = type->len;
		elem = tr_type(t, type->elem);
	}
	glsl_name(t, elem, type_name, sizeof(type_name));
	out.name = name ? name : "";
	out.glsl_type = type_name;
	out.components = elem->n > TR_MAX_SLOTS ? 0 : elem->n;
	out.type = common_type(t, elem);
	out.interp = interp;
	switch (v->kind) {
	case TR_VAR_SSBO:
	case TR_VAR_UBO:
		/* an array of blocks: each element's size and the block's name */
		out.sized = v->sized;
		out.binding = v->binding;
		out.type = AGX_IR_TYPE_NONE;
		out.size = block_size(t, v, elem);
		out.components = 0;
		snprintf(type_name, sizeof(type_name), "%s",
			 id_name(t, elem->id) ? id_name(t, elem->id) : "");
		if (!name || !name[0])
			out.name = type_name;
		break;
	case TR_VAR_SAMPLER:
		out.binding = v->binding;
		out.type = AGX_IR_TYPE_NONE;
		out.components = 0;
		out.slot = (int)v->unit;
		if (agx_spirv_decorated(t->m, v->id, -1, SpvDecorationLocation, &value))
			out.location = value;
		break;
	case TR_VAR_SHARED:
		out.offset = v->offset;
		out.size = 4 * type->n;
		break;
	case TR_VAR_TABLE:
		if (kind == AGX_IR_VAR_UNIFORM) {
			unsigned at = 0;
			uint32_t *scratch = tr_alloc(t, type->n * sizeof(*scratch));

			out.offset = v->offset;
			out.size = scratch ? std140_layout(t, type, 0, scratch, &at) : 0;
		}
		break;
	default:
		break;
	}
	agx_ir_shader_add_var(t->shader, &out);
}

static void add_var(struct tr *t, const struct tr_var *v, const char *name,
		    const struct tr_type *type, enum agx_ir_var_kind kind, unsigned location)
{
	add_var_interp(t, v, name, type, kind, location, decorated_interp(t, v->id, -1));
}

/* Whether an interface var of the type is one var: a basic type or an array of one. */
static bool basic_io(struct tr *t, const struct tr_type *type)
{
	const struct tr_type *e = type->kind == TR_T_ARRAY ? tr_type(t, type->elem) : type;

	return e && e->kind != TR_T_STRUCT && e->kind != TR_T_ARRAY;
}

/* The locations of a basic type or an array of one, as location_walk() counts them. */
static unsigned io_locations(struct tr *t, const struct tr_type *type)
{
	const struct tr_type *e = type->kind == TR_T_ARRAY ? tr_type(t, type->elem) : type;
	unsigned per = e->kind == TR_T_MATRIX ? e->len : 1;

	return per * (type->kind == TR_T_ARRAY ? type->len : 1);
}

/*
 * An input or output of a struct type, an array of structs or an array of
 * arrays, recorded as GL names its parts (glTransformFeedbackVaryings
 * takes a struct's members as "s.f" and "s[1].f", never the whole
 * struct): one var per leaf of a basic type or an array of one -- "s.f",
 * "s[1].f", "s.t.f" -- at the location location_walk() gives it, so
 * placement, selection, the driver's matching of the stages and transform
 * feedback see basic-typed vars only.  Each leaf has the var's
 * interpolation, or its member's own.
 */
static void io_leaves(struct tr *t, const struct tr_var *v, const struct tr_type *type,
		      const char *name, enum agx_ir_var_kind kind, unsigned *loc,
		      enum agx_ir_interp interp)
{
	size_t size;
	char *sub;

	if (basic_io(t, type)) {
		add_var_interp(t, v, name, type, kind, *loc, interp);
		*loc += io_locations(t, type);
		return;
	}
	if (type->kind == TR_T_ARRAY) {
		size = strlen(name) + 16;
		if (!(sub = tr_alloc(t, size)))
			return;
		for (unsigned i = 0; i < type->len; i++) {
			snprintf(sub, size, "%s[%u]", name, i);
			io_leaves(t, v, tr_type(t, type->elem), sub, kind, loc, interp);
		}
		return;
	}
	for (unsigned m = 0; m < type->len; m++) {
		const char *mname = member_name(t, type->id, m);
		enum agx_ir_interp own = decorated_interp(t, type->id, (int32_t)m);

		mname = mname ? mname : "";
		size = strlen(name) + strlen(mname) + 2;
		if (!(sub = tr_alloc(t, size)))
			return;
		snprintf(sub, size, "%s.%s", name, mname);
		member_location(t, type, m, loc);
		io_leaves(t, v, tr_type(t, type->members[m]), sub, kind, loc,
			  own != AGX_IR_INTERP_SMOOTH ? own : interp);
	}
}

/* An input or output var of user locations from location: itself, or its leaves. */
static void add_io(struct tr *t, const struct tr_var *v, const char *name,
		   const struct tr_type *type, enum agx_ir_var_kind kind, unsigned location)
{
	if (basic_io(t, type))
		add_var(t, v, name, type, kind, location);
	else
		io_leaves(t, v, type, name ? name : "", kind, &location,
			  decorated_interp(t, v->id, -1));
}

/*
 * The GL uniforms of a default-block var of type at base, named name: its
 * leaves, laid out as std140_layout() lays the var out.  Returns the size.
 */
static unsigned uniform_leaves(struct tr *t, const struct tr_type *type, unsigned base,
			       const char *name, unsigned var)
{
	struct agx_ir_uniform_leaf leaf = { .name = name, .var = var, .offset = base };
	const struct tr_type *e = type;
	char type_name[160], sub[256];
	unsigned off = 0, stride, at = 0, one;
	uint32_t *scratch;

	switch (type->kind) {
	case TR_T_STRUCT:
		for (unsigned i = 0; i < type->len; i++) {
			const char *m = member_name(t, type->id, i);

			e = tr_type(t, type->members[i]);
			off = round_up(off, std140_align(t, e));
			snprintf(sub, sizeof(sub), "%s.%s", name, m ? m : "");
			off += uniform_leaves(t, e, base + off, sub, var);
		}
		return round_up(off, 16);
	case TR_T_ARRAY:
		e = tr_type(t, type->elem);
		if (e->kind == TR_T_STRUCT || e->kind == TR_T_ARRAY) {
			/* an array of structs: each element's members, "s[i].f" */
			stride = 0;
			for (unsigned i = 0; i < type->len; i++) {
				snprintf(sub, sizeof(sub), "%s[%u]", name, i);
				stride =
				    round_up(uniform_leaves(t, e, base + i * stride, sub, var), 16);
			}
			return stride * type->len;
		}
		leaf.array_size = type->len;
		break;
	default:
		break;
	}
	/* a basic type, or an array of one: its elements a vec4 apart */
	scratch = tr_alloc(t, (e->n ? e->n : 1) * sizeof(uint32_t));
	if (!scratch)
		return 0;
	one = std140_layout(t, e, 0, scratch, &at);
	leaf.array_stride = leaf.array_size ? round_up(one, 16) : 0;
	leaf.matrix_stride = e->kind == TR_T_MATRIX ? 16 : 0;
	glsl_name(t, e, type_name, sizeof(type_name));
	leaf.glsl_type = type_name;
	agx_ir_shader_add_leaf(t->shader, &leaf);
	return leaf.array_size ? leaf.array_stride * leaf.array_size : one;
}

int tr_record_vars(struct tr *t)
{
	for (unsigned i = 0; i < t->num_vars; i++) {
		const struct tr_var *v = &t->vars[i];
		const struct tr_type *type = tr_type(t, v->type);
		const char *name = id_name(t, v->id);
		uint32_t value = 0;

		switch (v->kind) {
		case TR_VAR_SSBO:
			add_var(t, v, name, type, AGX_IR_VAR_SSBO, 0);
			break;
		case TR_VAR_UBO:
			add_var(t, v, name, type, AGX_IR_VAR_UBO, 0);
			break;
		case TR_VAR_SAMPLER:
			add_var(t, v, name, type, AGX_IR_VAR_SAMPLER, 0);
			break;
		case TR_VAR_SHARED:
			add_var(t, v, name, type, AGX_IR_VAR_SHARED, 0);
			break;
		case TR_VAR_TABLE:
			if (v->storage == SpvStorageClassUniformConstant) {
				agx_spirv_decorated(t->m, v->id, -1, SpvDecorationLocation, &value);
				add_var(t, v, name, type, AGX_IR_VAR_UNIFORM, value);
				uniform_leaves(t, type, v->offset, name ? name : "",
					       t->shader->num_vars - 1);
			} else if (v->reads[0].how == TR_READ_INPUT) {
				add_io(t, v, name, type, AGX_IR_VAR_INPUT, v->reads[0].a);
			}
			break;
		case TR_VAR_SLOTS:
			if (!v->is_output)
				break;
			if (type->kind == TR_T_STRUCT &&
			    agx_spirv_decorated(t->m, type->id, 0, SpvDecorationBuiltIn, NULL)) {
				/* gl_PerVertex: each member written (gl_Position always) */
				unsigned at = 0;

				for (unsigned m = 0; m < type->len; m++) {
					const struct tr_type *mt = tr_type(t, type->members[m]);
					bool written = false;
					const char *mname = NULL;

					for (unsigned k = 0; k < mt->n; k++)
						written |= t->slot_written[v->slot + at + k];
					if (v->out[at].valid &&
					    (written ||
					     v->out[at].location == AGX_IR_LOCATION_POSITION)) {
						mname =
						    v->out[at].location == AGX_IR_LOCATION_POSITION
							? "gl_Position"
							: "gl_PointSize";
						add_var(t, v, mname, mt, AGX_IR_VAR_OUTPUT,
							v->out[at].location);
					}
					at += mt->n;
				}
			} else if (v->out[0].valid) {
				add_io(t, v, name, type, AGX_IR_VAR_OUTPUT, v->out[0].location);
			}
			break;
		}
	}
	return t->err;
}

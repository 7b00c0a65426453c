/*
 * agx_lower_robust.c: robust buffer access (GL_KHR_robustness,
 * KHR_robust_buffer_access_behavior) for the reads of buffer objects a
 * GLES 3.0 shader makes: its vertex attributes and its uniform blocks.
 * Run only when agx_compile_options.robust_access is set, before
 * agx_lower_io, which places the registers the bounds are read from.
 *
 * A read past what the buffer holds returns zeros and never touches
 * memory outside it (the GPU would fault on the guard page after the BO,
 * which loses the context, or read another object's data).  Zeros rather
 * than any value from inside the buffer, which the extensions also allow,
 * because that is what Mesa's llvmpipe returns, so the two can be
 * compared exactly.  Each bounded read is made in two selects: the
 * address is replaced by the buffer's first item when out of range (the
 * driver keeps that readable: a buffer of zeros when nothing is bound or
 * the range is empty), and the value it reads by zero.  No branch: the
 * loads stay plain loads, and the selects cost two instructions each.
 *
 * - load_ubo of binding b at byte offset o, n bytes: in range when
 *   o + n <= load_ubo_size(b), the size of the range the driver bound
 *   there (the block var is marked sized so that agx_lower_io gives it a
 *   register).  The offsets are multiples of the value's size, so
 *   o + n - 1 does not wrap.
 * - load_input of a vertex shader's attribute, for a component its array
 *   holds in memory: becomes load_attrib of element e (the vertex id, or
 *   the instance id over the divisor), in range when e <
 *   load_attrib_limit(location), the number of elements the bound buffer
 *   holds from the attribute's offset.  Components the format lacks stay
 *   load_input: they are the constants 0, 0 and 1 whatever the element,
 *   as for a read in range (llvmpipe fills them in the same way).
 */
#include "agx/compiler.h"
#include "agx_builder.h"
#include "agx_mir.h"

/* The block var of kind covering binding, or NULL. */
static struct agx_ir_var *block_var(struct agx_ir_shader *shader, enum agx_ir_var_kind kind,
				    unsigned binding)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *v = &shader->vars[i];
		unsigned n = v->array_size ? v->array_size : 1;

		if (v->kind == kind && binding >= v->binding && binding - v->binding < n)
			return v;
	}
	return NULL;
}

static struct agx_ir_var *input_var(struct agx_ir_shader *shader, unsigned location)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *v = &shader->vars[i];

		if (v->kind == AGX_IR_VAR_INPUT && location >= v->location &&
		    location - v->location < agx_io_locations(v))
			return v;
	}
	return NULL;
}

static struct agx_ir_value zero(enum agx_ir_type type)
{
	switch (type) {
	case AGX_IR_TYPE_F16:
		return agx_imm_f16(0.0f);
	case AGX_IR_TYPE_F32:
		return agx_imm_f32(0.0f);
	case AGX_IR_TYPE_I16:
		return agx_imm_u16(0);
	default:
		return agx_imm_u32(0);
	}
}

static struct agx_ir_instr *def_instr(const struct agx_ir_src *src, enum agx_ir_op op)
{
	return src->def && src->def->instr->op == op ? src->def->instr : NULL;
}

/*
 * Whether a load_ubo's offset is already this pass's select, bcsel(ult(_,
 * load_ubo_size(binding)), o, 0): a second run leaves it as it is.
 */
static bool ubo_bounded(const struct agx_ir_instr *load)
{
	struct agx_ir_instr *sel = def_instr(&load->src[0], AGX_IR_OP_bcsel), *cmp, *size;

	if (!sel || !(cmp = def_instr(&sel->src[0], AGX_IR_OP_ult)))
		return false;
	size = def_instr(&cmp->src[1], AGX_IR_OP_load_ubo_size);
	return size && size->imm[0] == load->imm[0];
}

static bool bound_ubo(struct agx_builder *b, struct agx_ir_shader *shader,
		      struct agx_ir_instr *load)
{
	enum agx_ir_type type = load->dest.type;
	struct agx_ir_value offset = agx_ir_src_value(&load->src[0]), end, in, v;
	struct agx_ir_var *var = block_var(shader, AGX_IR_VAR_UBO, load->imm[0]);
	unsigned last = agx_ir_type_bits(type) / 8 - 1;

	if (!var || ubo_bounded(load))
		return false; /* lower_io cannot place it either: selection refuses it */
	var->sized = true;
	end = offset.def ? agx_iadd(b, offset, agx_imm_u32(last)) : agx_imm_u32(offset.imm + last);
	in = agx_ult(b, end, agx_load_ubo_size(b, load->imm[0]));
	v = agx_load_ubo(b, type, agx_bcsel(b, in, offset, agx_imm_u32(0)), load->imm[0]);
	agx_ir_def_rewrite_uses(&load->dest, agx_bcsel(b, in, v, zero(type)));
	return true;
}

/* Components the array of a holds in memory; the others are constants (agx_lower_io's fetch). */
static unsigned attrib_components(const struct agx_vertex_attrib *a)
{
	if (a->type == AGX_VERTEX_INT_2_10_10_10_REV ||
	    a->type == AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV)
		return 4;
	return a->size ? a->size : 4;
}

static bool bound_attrib(struct agx_builder *b, struct agx_ir_shader *shader,
			 const struct agx_compile_options *o, struct agx_ir_instr *load)
{
	enum agx_ir_type type = load->dest.type;
	unsigned loc = load->imm[0], c = load->imm[1];
	struct agx_ir_var *var = input_var(shader, loc);
	const struct agx_vertex_attrib *a;
	struct agx_ir_value element, in, v;

	if (!var || loc >= AGX_MAX_VERTEX_ATTRIBS || agx_ir_type_bits(type) != 32)
		return false; /* not an attribute lower_io fetches */
	a = &o->attribs[loc];
	if (c >= attrib_components(a))
		return false;
	var->sized = true;
	element = a->divisor ? agx_udiv(b, agx_load_instance_id(b), agx_imm_u32(a->divisor))
			     : agx_load_vertex_id(b);
	in = agx_ult(b, element, agx_load_attrib_limit(b, loc));
	v = agx_load_attrib(b, type, agx_bcsel(b, in, element, agx_imm_u32(0)), loc, c);
	agx_ir_def_rewrite_uses(&load->dest, agx_bcsel(b, in, v, zero(type)));
	return true;
}

bool agx_lower_robust(struct agx_ir_shader *shader, const struct agx_compile_options *options)
{
	bool progress = false;

	if (!options || !options->robust_access)
		return false;
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, in) {
				struct agx_builder b = agx_builder_at(agx_ir_cursor_before(in));
				bool done;

				if (in->op == AGX_IR_OP_load_ubo)
					done = bound_ubo(&b, shader, in);
				else if (in->op == AGX_IR_OP_load_input &&
					 shader->stage == AGX_IR_STAGE_VERTEX)
					done = bound_attrib(&b, shader, options, in);
				else
					continue;
				if (!done)
					continue;
				agx_ir_instr_remove(in);
				progress = true;
			}
		}
	}
	return progress;
}

/*
 * agx_builder.c: emitting instructions and structured control flow at a
 * cursor (agx_builder.h).
 */
#include "agx_builder.h"

void agx_builder_init(struct agx_builder *b, struct agx_ir_function *func)
{
	b->func = func;
	b->cursor = agx_ir_cursor_end(agx_ir_function_last_block(func));
}

static enum agx_ir_type sized(bool is_float, unsigned bits)
{
	if (bits == 16)
		return is_float ? AGX_IR_TYPE_F16 : AGX_IR_TYPE_I16;
	if (bits == 32)
		return is_float ? AGX_IR_TYPE_F32 : AGX_IR_TYPE_I32;
	return AGX_IR_TYPE_NONE;
}

enum agx_ir_type agx_builder_dest_type(enum agx_ir_op op, enum agx_ir_type type,
				       const struct agx_ir_value *srcs)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(op);

	switch (info->dest) {
	case AGX_IR_CLASS_NONE:
		return AGX_IR_TYPE_NONE;
	case AGX_IR_CLASS_B:
		return AGX_IR_TYPE_B1;
	case AGX_IR_CLASS_F16:
		return AGX_IR_TYPE_F16;
	case AGX_IR_CLASS_F32:
		return AGX_IR_TYPE_F32;
	case AGX_IR_CLASS_I16:
		return AGX_IR_TYPE_I16;
	case AGX_IR_CLASS_I32:
		return AGX_IR_TYPE_I32;
	case AGX_IR_CLASS_F:
	case AGX_IR_CLASS_I:
	case AGX_IR_CLASS_T:
		/* the first source of a sized class says */
		for (unsigned i = 0; i < info->num_srcs; i++) {
			enum agx_ir_class c = info->src[i];

			if (c == AGX_IR_CLASS_T && info->dest == AGX_IR_CLASS_T)
				return srcs[i].type;
			if (c == AGX_IR_CLASS_F || c == AGX_IR_CLASS_I || c == AGX_IR_CLASS_N)
				return sized(info->dest == AGX_IR_CLASS_F,
					     agx_ir_type_bits(srcs[i].type));
		}
		return AGX_IR_TYPE_NONE;
	default:
		return type;
	}
}

struct agx_ir_instr *agx_builder_emit(struct agx_builder *b, enum agx_ir_op op,
				      enum agx_ir_type type, const struct agx_ir_value *srcs,
				      const uint32_t *imms)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(op);
	struct agx_ir_instr *instr = agx_ir_instr_create(b->func, op, info->num_srcs);

	for (unsigned i = 0; i < info->num_srcs; i++)
		agx_ir_src_set(&instr->src[i], srcs[i]);
	for (unsigned i = 0; i < info->num_imms; i++)
		instr->imm[i] = imms[i];
	if (info->dest != AGX_IR_CLASS_NONE)
		instr->dest.type = agx_builder_dest_type(op, type, srcs);
	agx_ir_instr_insert(b->cursor, instr);
	if (b->cursor.kind != AGX_IR_CURSOR_BEFORE_INSTR)
		b->cursor = agx_ir_cursor_after(instr);
	return instr;
}

struct agx_ir_if *agx_builder_push_if(struct agx_builder *b, struct agx_ir_value cond)
{
	struct agx_ir_if *nif = agx_ir_if_insert(b->cursor, cond);

	b->cursor = agx_ir_cursor_end(agx_ir_cf_list_first_block(&nif->then_list));
	return nif;
}

void agx_builder_push_else(struct agx_builder *b, struct agx_ir_if *nif)
{
	b->cursor = agx_ir_cursor_end(agx_ir_cf_list_last_block(&nif->else_list));
}

void agx_builder_pop_if(struct agx_builder *b, struct agx_ir_if *nif)
{
	b->cursor = agx_ir_cursor_start(agx_ir_cf_node_block_after(&nif->node));
}

struct agx_ir_loop *agx_builder_push_loop(struct agx_builder *b)
{
	struct agx_ir_loop *loop = agx_ir_loop_insert(b->cursor);

	b->cursor = agx_ir_cursor_end(agx_ir_cf_list_first_block(&loop->body));
	return loop;
}

void agx_builder_pop_loop(struct agx_builder *b, struct agx_ir_loop *loop)
{
	b->cursor = agx_ir_cursor_start(agx_ir_cf_node_block_after(&loop->node));
}

/*
 * agx_builder.h: building IR at a cursor.  One helper per op, expanded
 * from the table (agx_ir_ops.h):
 *
 *   agx_<op>(b, [type,] sources..., indices...)
 *
 * takes the type only when the op's destination class does not fix it
 * (N, FX, IX, V, ANY), returns the new def as a value (or, for an op
 * without a destination, the instruction), and leaves the cursor after it
 * -- or, for a cursor before an instruction, still before that one -- so
 * that helpers called one after the other emit in that order.  The helpers
 * check nothing (tests build invalid IR with them); agx_ir_validate() does.
 */
#ifndef AGX_BUILDER_H
#define AGX_BUILDER_H

#include <string.h>

#include "agx_ir.h"

struct agx_builder {
	struct agx_ir_function *func;
	struct agx_ir_cursor cursor;
};

static inline struct agx_builder agx_builder_at(struct agx_ir_cursor cursor)
{
	return (struct agx_builder){ cursor.block->func, cursor };
}

/* At the end of the function's last block. */
void agx_builder_init(struct agx_builder *b, struct agx_ir_function *func);

/*
 * Emits op reading srcs (as many as the op has) with indices imms at the
 * cursor.  The destination's type is agx_builder_dest_type()'s.
 */
struct agx_ir_instr *agx_builder_emit(struct agx_builder *b, enum agx_ir_op op,
				      enum agx_ir_type type, const struct agx_ir_value *srcs,
				      const uint32_t *imms);
/*
 * The type op's destination gets: fixed by its class, derived from the
 * sources (B, F, I, T), or `type` (N, FX, IX, V, ANY).  NONE when the
 * sources give nothing to derive from.
 */
enum agx_ir_type agx_builder_dest_type(enum agx_ir_op op, enum agx_ir_type type,
				       const struct agx_ir_value *srcs);

/*
 * Structured control flow.  push_if inserts an if at the cursor and moves
 * it into the then arm; push_else into the else arm; pop_if to after the
 * if, where the cursor was.  Loops likewise.
 */
struct agx_ir_if *agx_builder_push_if(struct agx_builder *b, struct agx_ir_value cond);
void agx_builder_push_else(struct agx_builder *b, struct agx_ir_if *nif);
void agx_builder_pop_if(struct agx_builder *b, struct agx_ir_if *nif);
struct agx_ir_loop *agx_builder_push_loop(struct agx_builder *b);
void agx_builder_pop_loop(struct agx_builder *b, struct agx_ir_loop *loop);

/* ---- immediates ---------------------------------------------------------- */

static inline struct agx_ir_value agx_imm_u32(uint32_t v)
{
	return agx_ir_imm(AGX_IR_TYPE_I32, v);
}

static inline struct agx_ir_value agx_imm_i32(int32_t v)
{
	return agx_ir_imm(AGX_IR_TYPE_I32, (uint32_t)v);
}

static inline struct agx_ir_value agx_imm_u16(uint16_t v)
{
	return agx_ir_imm(AGX_IR_TYPE_I16, v);
}

static inline struct agx_ir_value agx_imm_i16(int16_t v)
{
	return agx_ir_imm(AGX_IR_TYPE_I16, (uint16_t)v);
}

static inline struct agx_ir_value agx_imm_f32(float v)
{
	uint32_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return agx_ir_imm(AGX_IR_TYPE_F32, bits);
}

/* v rounded to the nearest f16 (agx_ir_f32_to_f16). */
static inline struct agx_ir_value agx_imm_f16(float v)
{
	return agx_ir_imm(AGX_IR_TYPE_F16, agx_ir_f32_to_f16(v));
}

static inline struct agx_ir_value agx_imm_bool(bool v)
{
	return agx_ir_imm(AGX_IR_TYPE_B1, v ? 1 : 0);
}

/* ---- one helper per op ------------------------------------------------------ */

/* What a destination class makes of the helper: NONE, AUTO (derived type) or GIVEN (a parameter).
 */
#define AGX_BUILDER_SHAPE_NONE NONE
#define AGX_BUILDER_SHAPE_B    AUTO
#define AGX_BUILDER_SHAPE_F    AUTO
#define AGX_BUILDER_SHAPE_I    AUTO
#define AGX_BUILDER_SHAPE_T    AUTO
#define AGX_BUILDER_SHAPE_F16  AUTO
#define AGX_BUILDER_SHAPE_F32  AUTO
#define AGX_BUILDER_SHAPE_I16  AUTO
#define AGX_BUILDER_SHAPE_I32  AUTO
#define AGX_BUILDER_SHAPE_N    GIVEN
#define AGX_BUILDER_SHAPE_FX   GIVEN
#define AGX_BUILDER_SHAPE_IX   GIVEN
#define AGX_BUILDER_SHAPE_V    GIVEN
#define AGX_BUILDER_SHAPE_ANY  GIVEN

#define AGX_BUILDER_RET_NONE  struct agx_ir_instr *
#define AGX_BUILDER_RET_AUTO  struct agx_ir_value
#define AGX_BUILDER_RET_GIVEN struct agx_ir_value
#define AGX_BUILDER_TYPE_PARAM_NONE
#define AGX_BUILDER_TYPE_PARAM_AUTO
#define AGX_BUILDER_TYPE_PARAM_GIVEN , enum agx_ir_type type
#define AGX_BUILDER_TYPE_ARG_NONE    AGX_IR_TYPE_NONE
#define AGX_BUILDER_TYPE_ARG_AUTO    AGX_IR_TYPE_NONE
#define AGX_BUILDER_TYPE_ARG_GIVEN   type
#define AGX_BUILDER_RESULT_NONE(i)   (i)
#define AGX_BUILDER_RESULT_AUTO(i)   agx_ir_def_value(&(i)->dest)
#define AGX_BUILDER_RESULT_GIVEN(i)  agx_ir_def_value(&(i)->dest)

#define AGX_BUILDER_CAT_(a, b) a##b
#define AGX_BUILDER_CAT(a, b)  AGX_BUILDER_CAT_(a, b)
#define AGX_BUILDER_BY_SHAPE(what, dst)                                                            \
	AGX_BUILDER_CAT(AGX_BUILDER_##what##_, AGX_BUILDER_SHAPE_##dst)

#define AGX_BUILDER_SRC_PARAMS_0
#define AGX_BUILDER_SRC_PARAMS_1 , struct agx_ir_value s0
#define AGX_BUILDER_SRC_PARAMS_2 , struct agx_ir_value s0, struct agx_ir_value s1
#define AGX_BUILDER_SRC_PARAMS_3                                                                   \
	, struct agx_ir_value s0, struct agx_ir_value s1, struct agx_ir_value s2
#define AGX_BUILDER_SRC_STORE_0 (void)0
#define AGX_BUILDER_SRC_STORE_1 src_[0] = s0
#define AGX_BUILDER_SRC_STORE_2 src_[0] = s0, src_[1] = s1
#define AGX_BUILDER_SRC_STORE_3 src_[0] = s0, src_[1] = s1, src_[2] = s2

#define AGX_BUILDER_IMM_PARAMS_0()
#define AGX_BUILDER_IMM_PARAMS_1(a)	  , uint32_t a
#define AGX_BUILDER_IMM_PARAMS_2(a, b)	  , uint32_t a, uint32_t b
#define AGX_BUILDER_IMM_STORE_0()	  (void)0
#define AGX_BUILDER_IMM_STORE_1(a)	  imm_[0] = a
#define AGX_BUILDER_IMM_STORE_2(a, b)	  imm_[0] = a, imm_[1] = b
#define AGX_BUILDER_IMM_PARAMS_3(a, b, c) , uint32_t a, uint32_t b, uint32_t c
#define AGX_BUILDER_IMM_STORE_3(a, b, c)  imm_[0] = a, imm_[1] = b, imm_[2] = c
#define AGX_BUILDER_IMM_PARAMS_6(a, b, c, d, e, f)                                                 \
	, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f
#define AGX_BUILDER_IMM_STORE_6(a, b, c, d, e, f)                                                  \
	imm_[0] = a, imm_[1] = b, imm_[2] = c, imm_[3] = d, imm_[4] = e, imm_[5] = f

#define AGX_BUILDER_HELPER(name, dst, nsrc, srcs, nimm, imms, flags)                               \
	static inline AGX_BUILDER_BY_SHAPE(RET, dst)                                               \
	    agx_##name(struct agx_builder *b AGX_BUILDER_BY_SHAPE(TYPE_PARAM, dst)                 \
			   AGX_BUILDER_SRC_PARAMS_##nsrc AGX_BUILDER_IMM_PARAMS_##nimm imms)       \
	{                                                                                          \
		struct agx_ir_value src_[AGX_IR_MAX_SRCS] = { { 0 } };                             \
		uint32_t imm_[AGX_IR_MAX_IMMS] = { 0 };                                            \
		struct agx_ir_instr *i_;                                                           \
                                                                                                   \
		AGX_BUILDER_SRC_STORE_##nsrc;                                                      \
		AGX_BUILDER_IMM_STORE_##nimm imms;                                                 \
		i_ = agx_builder_emit(b, AGX_IR_OP_##name, AGX_BUILDER_BY_SHAPE(TYPE_ARG, dst),    \
				      src_, imm_);                                                 \
		return AGX_BUILDER_BY_SHAPE(RESULT, dst)(i_);                                      \
	}

AGX_IR_OPS(AGX_BUILDER_HELPER)

/*
 * A texture op (texture_sample, texture_load) of type reading srcs[n], in
 * agx_ir_tex_layout()'s order, with the op's six indices.
 */
static inline struct agx_ir_value agx_tex(struct agx_builder *b, enum agx_ir_op op,
					  enum agx_ir_type type, const struct agx_ir_value *srcs,
					  unsigned n, const uint32_t *imms)
{
	struct agx_ir_instr *i_ = agx_builder_emit(b, op, type, NULL, imms);

	for (unsigned k = 0; k < n; k++)
		agx_ir_instr_add_src(i_, srcs[k]);
	return agx_ir_def_value(&i_->dest);
}

#endif

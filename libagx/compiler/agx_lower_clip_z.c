/*
 * agx_lower_clip_z.c: GL's clip-space depth onto the hardware's.  GL
 * clips z to -w..w (GLES 3.0 section 2.13); the AGX clips it to 0..w,
 * as Metal does (the near plane is z >= 0: sim/render.c's clip planes,
 * and Mesa's asahi driver lowers GL's z the same way).  The vertex
 * shader's gl_Position.z becomes (z + w) / 2, which maps -w..w onto
 * 0..w exactly (halving is exact); the driver's viewport then maps the
 * 0..1 of z / w onto the depth range: n + (f - n) * z.
 *
 * Not idempotent: agx_backend_compile runs it once, unless the options
 * say the shader's z is already the hardware's (depth_zero_to_one).
 */
#include "agx_builder.h"

bool agx_lower_clip_z(struct agx_ir_shader *shader)
{
	struct agx_ir_instr *z = NULL, *w = NULL;

	if (shader->stage != AGX_IR_STAGE_VERTEX)
		return false;
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				if (in->op != AGX_IR_OP_store_output ||
				    in->imm[0] != AGX_IR_LOCATION_POSITION)
					continue;
				if (in->imm[1] == 2)
					z = in;
				else if (in->imm[1] == 3)
					w = in;
			}
		}
	}
	if (!z)
		return false;

	/* built where both values are defined: at the later store of the block */
	struct agx_ir_instr *at = z;
	struct agx_ir_value zv = agx_ir_src_value(&z->src[0]), wv = agx_imm_f32(1.0f);

	if (w && w->block == z->block) {
		for (struct agx_ir_instr *i = z; i; i = agx_ir_instr_next(i))
			if (i == w)
				at = w;
		wv = agx_ir_src_value(&w->src[0]);
	} else if (w) {
		return false; /* not as the translator stores outputs: left alone */
	}

	struct agx_builder b = agx_builder_at(agx_ir_cursor_before(at));

	agx_store_output(&b, agx_fmul(&b, agx_fadd(&b, zv, wv), agx_imm_f32(0.5f)),
			 AGX_IR_LOCATION_POSITION, 2);
	agx_ir_instr_remove(z);
	return true;
}

/*
 * agx_lower_xfb.c: transform feedback capture (GLES 3.0 section 2.15.2).
 * The AGX has no fixed-function stream output (Mesa's asahi driver writes
 * it from the vertex shader too), so a vertex shader whose outputs are
 * captured writes them itself: each store_output of a component the
 * options' xfb words name gets a store_xfb of the same value beside it,
 * to the word of the vertex's record in its buffer.  agx_lower_io places
 * the buffers' addresses and the record arithmetic (agx/compiler.h,
 * agx_shader_info.xfb_uniform) and turns store_xfb into store_global.
 *
 * The value captured is the one the shader wrote: the pass runs before
 * agx_lower_clip_z changes gl_Position.z.  A 16-bit output is captured
 * widened to its 32-bit value (GL's types are 32-bit).  Not idempotent:
 * agx_backend_compile runs it once.
 */
#include "agx_builder.h"

static struct agx_ir_value widen(struct agx_builder *b, struct agx_ir_value v)
{
	switch (v.type) {
	case AGX_IR_TYPE_F16:
		return agx_f2f32(b, v);
	case AGX_IR_TYPE_I16:
		return agx_i2i32(b, v);
	case AGX_IR_TYPE_B1:
		return agx_bcsel(b, v, agx_imm_u32(1), agx_imm_u32(0));
	default:
		return v;
	}
}

bool agx_lower_xfb(struct agx_ir_shader *shader, const struct agx_compile_options *options)
{
	bool progress = false;

	if (shader->stage != AGX_IR_STAGE_VERTEX || !options || !options->xfb.num_words)
		return false;
	for (unsigned k = 0; k < AGX_MAX_XFB_BUFFERS; k++)
		shader->xfb_stride[k] = options->xfb.stride[k];
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, in) {
				if (in->op != AGX_IR_OP_store_output)
					continue;
				for (unsigned i = 0;
				     i < options->xfb.num_words && i < AGX_MAX_XFB_WORDS; i++) {
					const struct agx_xfb_word *w = &options->xfb.words[i];
					struct agx_builder b;

					if (w->location != in->imm[0] ||
					    w->component != in->imm[1] ||
					    w->buffer >= AGX_MAX_XFB_BUFFERS ||
					    w->word >= options->xfb.stride[w->buffer])
						continue;
					b = agx_builder_at(agx_ir_cursor_before(in));
					agx_store_xfb(&b, widen(&b, agx_ir_src_value(&in->src[0])),
						      w->buffer, w->word);
					progress = true;
				}
			}
		}
	}
	return progress;
}

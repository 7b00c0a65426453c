/*
 * agx_opt_copy_prop.c: copy propagation.  Whatever reads a mov's
 * destination -- instructions, phis, if conditions -- reads the mov's
 * source instead, a def or an immediate; the movs are left unread for
 * agx_opt_dce.  One walk suffices: a rewrite puts a mov's source where its
 * destination was read, never the destination of a mov already done.
 */
#include "agx_ir.h"

bool agx_opt_copy_prop(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, instr) {
				struct agx_ir_value v;

				if (instr->op != AGX_IR_OP_mov ||
				    !agx_ir_def_has_uses(&instr->dest))
					continue;
				v = agx_ir_src_value(&instr->src[0]);
				if (v.def == &instr->dest)
					continue; /* reads itself: invalid, and nothing to do */
				agx_ir_def_rewrite_uses(&instr->dest, v);
				progress = true;
			}
		}
	}
	return progress;
}

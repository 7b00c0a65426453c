/*
 * agx_opt_phi.c: trivial phis.  A phi whose sources are all one value v,
 * or the phi itself (a loop's value that the body passes round
 * unchanged), is v: its readers read v and the phi goes.  Removing one can
 * make another trivial (the phi after a loop of the one in its header), so
 * the pass goes round until none is left.
 *
 * v is available wherever the phi was: the first arrival at the phi's
 * block on any path comes from a predecessor whose source is v (the
 * others read the phi, which the block dominates), and v dominates that
 * predecessor.  Phis in unreachable blocks, and a v written in the phi's
 * own block, are left alone: there the argument does not hold.
 */
#include "agx_ir.h"

static bool same_value(const struct agx_ir_src *a, const struct agx_ir_src *b)
{
	if (a->def || b->def)
		return a->def == b->def;
	return a->imm == b->imm && a->type == b->type;
}

/* The one value of a trivial phi, or NULL. */
static const struct agx_ir_src *trivial_value(struct agx_ir_instr *phi)
{
	const struct agx_ir_src *v = NULL;

	agx_ir_foreach_src(phi, src) {
		if (src->def == &phi->dest)
			continue;
		if (v && !same_value(v, src))
			return NULL;
		v = src;
	}
	if (v && v->def && v->def->instr->block == phi->block)
		return NULL;
	return v;
}

static bool phi_function(struct agx_ir_function *func)
{
	bool progress = false, changed = true;

	agx_ir_function_compute_dominance(func);
	while (changed) {
		changed = false;
		agx_ir_foreach_block(func, block) {
			if (!block->reachable)
				continue;
			agx_ir_foreach_instr_safe(block, instr) {
				const struct agx_ir_src *v;

				if (instr->op != AGX_IR_OP_phi)
					break;
				v = trivial_value(instr);
				if (!v)
					continue;
				agx_ir_def_rewrite_uses(&instr->dest, agx_ir_src_value(v));
				agx_ir_instr_remove(instr);
				changed = true;
			}
		}
		progress |= changed;
	}
	return progress;
}

bool agx_opt_phi(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func)
		progress |= phi_function(func);
	return progress;
}

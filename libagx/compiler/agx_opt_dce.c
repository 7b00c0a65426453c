/*
 * agx_opt_dce.c: dead code elimination.  An instruction is live when it
 * has side effects, ends its block, has no destination, or is read by a
 * live instruction or an if; the rest goes.  Marking from the live ones
 * rather than sweeping the unread ones until nothing changes also removes
 * dead cycles: a loop's phi and the add that feeds it back, read by nothing
 * else.  pass_flags: 1 for live.
 */
#include <stdlib.h>

#include "agx_ir.h"

struct worklist {
	struct agx_ir_instr **items;
	unsigned count, capacity;
};

static void mark(struct worklist *w, struct agx_ir_instr *instr)
{
	if (instr->pass_flags)
		return;
	instr->pass_flags = 1;
	if (w->count == w->capacity) {
		unsigned cap = w->capacity ? 2 * w->capacity : 64;
		struct agx_ir_instr **grown = realloc(w->items, cap * sizeof(*grown));

		if (!grown) {
			fprintf(stderr, "agx_opt_dce: out of memory\n");
			abort();
		}
		w->items = grown;
		w->capacity = cap;
	}
	w->items[w->count++] = instr;
}

static bool is_root(const struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);

	return (info->flags & (AGX_IR_SIDE_EFFECTS | AGX_IR_TERMINATOR)) ||
	       info->dest == AGX_IR_CLASS_NONE;
}

static bool dce_function(struct agx_ir_function *func)
{
	struct worklist w = { 0 };
	bool progress = false;

	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr(block, instr)
			instr->pass_flags = 0;
	}
	agx_ir_foreach_block(func, block) {
		struct agx_ir_cf_node *next = agx_ir_cf_node_next(&block->node);

		agx_ir_foreach_instr(block, instr) {
			if (is_root(instr))
				mark(&w, instr);
		}
		if (next && next->type == AGX_IR_CF_IF && agx_ir_node_if(next)->cond.def)
			mark(&w, agx_ir_node_if(next)->cond.def->instr);
	}
	while (w.count) {
		struct agx_ir_instr *instr = w.items[--w.count];

		agx_ir_foreach_src(instr, src) {
			if (src->def)
				mark(&w, src->def->instr);
		}
	}
	free(w.items);

	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr_safe(block, instr) {
			if (!instr->pass_flags) {
				agx_ir_instr_remove(instr);
				progress = true;
			}
		}
	}
	return progress;
}

bool agx_opt_dce(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func)
		progress |= dce_function(func);
	return progress;
}

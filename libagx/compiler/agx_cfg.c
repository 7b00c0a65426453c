/*
 * agx_cfg.c: what the control flow tree implies -- each block's
 * predecessors and successors -- and the dominator tree over them.
 * Both are derived data: a pass that changes the tree computes them again.
 */
#include <stdlib.h>

#include "agx_ir.h"

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "agx_ir: out of memory\n");
		abort();
	}
	return p;
}

static void add_succ(struct agx_ir_block *block, struct agx_ir_block *succ)
{
	if (succ && block->num_succs < 2)
		block->succs[block->num_succs++] = succ;
}

static void find_succs(struct agx_ir_block *block)
{
	struct agx_ir_instr *last = agx_ir_block_last_instr(block);
	struct agx_ir_cf_node *next, *parent;

	if (last && (last->op == AGX_IR_OP_break || last->op == AGX_IR_OP_continue)) {
		struct agx_ir_loop *loop = agx_ir_block_loop(block);

		if (loop && last->op == AGX_IR_OP_break)
			add_succ(block, agx_ir_cf_node_block_after(&loop->node));
		else if (loop)
			add_succ(block, agx_ir_cf_list_first_block(&loop->body));
		return;
	}

	next = agx_ir_cf_node_next(&block->node);
	if (next) {
		if (next->type == AGX_IR_CF_IF) {
			add_succ(block,
				 agx_ir_cf_list_first_block(&agx_ir_node_if(next)->then_list));
			add_succ(block,
				 agx_ir_cf_list_first_block(&agx_ir_node_if(next)->else_list));
		} else if (next->type == AGX_IR_CF_LOOP) {
			add_succ(block, agx_ir_cf_list_first_block(&agx_ir_node_loop(next)->body));
		} else if (next->type == AGX_IR_CF_BLOCK) {
			add_succ(block, agx_ir_node_block(next)); /* not valid IR, but say so */
		}
		return;
	}

	parent = agx_ir_cf_node_parent(&block->node);
	if (parent && parent->type == AGX_IR_CF_IF)
		add_succ(block, agx_ir_cf_node_block_after(parent));
	else if (parent && parent->type == AGX_IR_CF_LOOP)
		add_succ(block, agx_ir_cf_list_first_block(&agx_ir_node_loop(parent)->body));
}

void agx_ir_function_compute_cfg(struct agx_ir_function *func)
{
	struct agx_ir_shader *shader = func->shader;

	agx_ir_function_index_blocks(func);
	agx_ir_foreach_block(func, block) {
		block->num_succs = 0;
		block->num_preds = 0;
	}
	agx_ir_foreach_block(func, block) {
		find_succs(block);
		for (unsigned i = 0; i < block->num_succs; i++)
			block->succs[i]->num_preds++;
	}
	/* pred arrays come from the arena; a later computation reuses a big enough one */
	agx_ir_foreach_block(func, block) {
		if (block->num_preds > block->pred_capacity) {
			block->preds =
			    agx_ir_shader_alloc(shader, block->num_preds * sizeof(*block->preds));
			block->pred_capacity = block->num_preds;
		}
		block->num_preds = 0;
	}
	agx_ir_foreach_block(func, block) {
		for (unsigned i = 0; i < block->num_succs; i++) {
			struct agx_ir_block *succ = block->succs[i];

			succ->preds[succ->num_preds++] = block;
		}
	}
}

/* Walks up the tree from a and b to where they meet (Cooper, Harvey, Kennedy: "intersect"). */
static struct agx_ir_block *intersect(struct agx_ir_block *a, struct agx_ir_block *b,
				      const unsigned *rpo)
{
	while (a != b) {
		while (rpo[a->index] > rpo[b->index])
			a = a->idom;
		while (rpo[b->index] > rpo[a->index])
			b = b->idom;
	}
	return a;
}

void agx_ir_function_compute_dominance(struct agx_ir_function *func)
{
	unsigned n, count = 0, top = 0, number = 0;
	struct agx_ir_block **order, **stack, *entry = agx_ir_function_first_block(func);
	unsigned *rpo, *next_succ;
	bool changed = true;

	agx_ir_function_compute_cfg(func);
	n = agx_ir_function_index_blocks(func);
	order = xcalloc(n, sizeof(*order)); /* postorder */
	stack = xcalloc(n, sizeof(*stack));
	rpo = xcalloc(n, sizeof(*rpo));
	next_succ = xcalloc(n, sizeof(*next_succ));

	agx_ir_foreach_block(func, block) {
		block->reachable = false;
		block->idom = NULL;
		block->num_dom_children = 0;
	}

	/* depth first from the entry: postorder, and who is reachable */
	entry->reachable = true;
	stack[top++] = entry;
	while (top) {
		struct agx_ir_block *b = stack[top - 1];

		if (next_succ[b->index] < b->num_succs) {
			struct agx_ir_block *s = b->succs[next_succ[b->index]++];

			if (!s->reachable) {
				s->reachable = true;
				stack[top++] = s;
			}
		} else {
			order[count++] = b;
			top--;
		}
	}
	for (unsigned i = 0; i < count; i++)
		rpo[order[i]->index] = count - 1 - i;

	entry->idom = entry;
	while (changed) {
		changed = false;
		for (unsigned i = count; i-- > 0;) {
			struct agx_ir_block *b = order[i], *idom = NULL;

			if (b == entry)
				continue;
			for (unsigned p = 0; p < b->num_preds; p++) {
				struct agx_ir_block *pred = b->preds[p];

				if (!pred->idom)
					continue;
				idom = idom ? intersect(pred, idom, rpo) : pred;
			}
			if (idom != b->idom) {
				b->idom = idom;
				changed = true;
			}
		}
	}
	entry->idom = NULL;

	/* children in program order, then pre/post numbers of a walk of the tree */
	agx_ir_foreach_block(func, block) {
		if (block->idom)
			block->idom->num_dom_children++;
	}
	agx_ir_foreach_block(func, block) {
		if (block->num_dom_children > block->dom_children_capacity) {
			block->dom_children = agx_ir_shader_alloc(
			    func->shader, block->num_dom_children * sizeof(*block->dom_children));
			block->dom_children_capacity = block->num_dom_children;
		}
		block->num_dom_children = 0;
	}
	agx_ir_foreach_block(func, block) {
		if (block->idom)
			block->idom->dom_children[block->idom->num_dom_children++] = block;
	}

	for (unsigned i = 0; i < n; i++)
		next_succ[i] = 0;
	top = 0;
	stack[top++] = entry;
	entry->dom_pre = number++;
	while (top) {
		struct agx_ir_block *b = stack[top - 1];

		if (next_succ[b->index] < b->num_dom_children) {
			struct agx_ir_block *c = b->dom_children[next_succ[b->index]++];

			c->dom_pre = number++;
			stack[top++] = c;
		} else {
			b->dom_post = number++;
			top--;
		}
	}

	free(order);
	free(stack);
	free(rpo);
	free(next_succ);
}

bool agx_ir_block_dominates(const struct agx_ir_block *a, const struct agx_ir_block *b)
{
	if (!b->reachable)
		return true;
	if (!a->reachable)
		return false;
	return a->dom_pre <= b->dom_pre && b->dom_post <= a->dom_post;
}

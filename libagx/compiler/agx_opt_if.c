/*
 * agx_opt_if.c: control flow that needs no branch.
 *
 * - An if on an immediate condition becomes the arm it takes: the other
 *   arm goes (and with it the sources its blocks gave phis elsewhere, for
 *   a break or continue in it), the phis after the if take the taken
 *   arm's value, and the taken arm's blocks join the blocks around the if.
 * - An if whose arms are both one empty block goes; the phis after it
 *   become bcsel's of its condition.
 * - A loop that can only run once -- the first block of its body that
 *   ends in a jump ends in break, and no other break or continue of the
 *   loop, nor the end of its body, is reachable past it -- becomes its
 *   body: what follows that break is dead and goes, and the header's
 *   phis take the value from before the loop.
 *
 * Only when simple: not when the taken arm ends in break or continue,
 * when the block before the node ends in one, or when a value of the
 * code that goes is read outside it other than by the phi sources that go
 * with it (only unreachable code can).  The pass repeats until no node
 * changes.  pass_flags of blocks: 1 for those about to go.
 */
#include "agx_builder.h"

/* ---- small tree surgery -------------------------------------------------------- */

static bool ends_in_jump(struct agx_ir_block *block)
{
	struct agx_ir_instr *last = agx_ir_block_last_instr(block);

	return last && (agx_ir_op_info(last->op)->flags & AGX_IR_TERMINATOR);
}

static bool is_phi(const struct agx_ir_instr *instr)
{
	return instr->op == AGX_IR_OP_phi;
}

#define foreach_node(list, n)                                                                      \
	for (struct agx_ir_cf_node *n =                                                            \
		 agx_ir_container_of((list)->nodes.next, struct agx_ir_cf_node, link),             \
				   *n##_next = agx_ir_container_of(n->link.next,                   \
								   struct agx_ir_cf_node, link);   \
	     &n->link != &(list)->nodes;                                                           \
	     n = n##_next, n##_next =                                                              \
			       agx_ir_container_of(n->link.next, struct agx_ir_cf_node, link))

static void mark_node(struct agx_ir_cf_node *node, unsigned value);

static void mark_list(struct agx_ir_cf_list *list, unsigned value)
{
	foreach_node(list, n) mark_node(n, value);
}

static void mark_node(struct agx_ir_cf_node *node, unsigned value)
{
	switch (node->type) {
	case AGX_IR_CF_BLOCK:
		agx_ir_node_block(node)->pass_flags = value;
		break;
	case AGX_IR_CF_IF:
		mark_list(&agx_ir_node_if(node)->then_list, value);
		mark_list(&agx_ir_node_if(node)->else_list, value);
		break;
	case AGX_IR_CF_LOOP:
		mark_list(&agx_ir_node_loop(node)->body, value);
		break;
	default:
		break;
	}
}

/* Drops a phi's source i, keeping the others (and their use lists) in order. */
static void phi_remove_src(struct agx_ir_instr *phi, unsigned i)
{
	for (; i + 1 < phi->num_srcs; i++) {
		agx_ir_src_set(&phi->src[i], agx_ir_src_value(&phi->src[i + 1]));
		phi->src[i].pred = phi->src[i + 1].pred;
	}
	agx_ir_src_set(&phi->src[phi->num_srcs - 1], agx_ir_imm(AGX_IR_TYPE_NONE, 0));
	phi->num_srcs--;
}

/*
 * Whether the marked blocks can go: nothing outside them reads their
 * values but phi sources that come from them, and no phi outside is left
 * without a source.
 */
static bool can_delete_marked(struct agx_ir_function *func)
{
	agx_ir_foreach_block(func, block) {
		if (block->pass_flags != 1)
			continue;
		agx_ir_foreach_instr(block, instr) {
			if (!agx_ir_instr_dest(instr))
				continue;
			agx_ir_foreach_use(&instr->dest, use) {
				if (use->if_node) {
					if (agx_ir_cf_list_first_block(&use->if_node->then_list)
						->pass_flags != 1)
						return false;
				} else if (use->instr->block->pass_flags != 1 &&
					   !(is_phi(use->instr) && use->pred->pass_flags == 1)) {
					return false;
				}
			}
		}
		for (unsigned s = 0; s < block->num_succs; s++) {
			struct agx_ir_block *succ = block->succs[s];

			if (succ->pass_flags == 1)
				continue;
			agx_ir_foreach_instr(succ, phi) {
				unsigned kept = 0;

				if (!is_phi(phi))
					break;
				agx_ir_foreach_src(phi, src)
					kept += src->pred->pass_flags != 1;
				if (!kept)
					return false;
			}
		}
	}
	return true;
}

static void delete_list(struct agx_ir_cf_list *list);

/* Takes node out of its list with everything in it; its if conditions stop reading. */
static void delete_node(struct agx_ir_cf_node *node)
{
	switch (node->type) {
	case AGX_IR_CF_BLOCK:
		agx_ir_foreach_instr_safe(agx_ir_node_block(node), instr)
			agx_ir_instr_remove(instr);
		break;
	case AGX_IR_CF_IF:
		agx_ir_src_set(&agx_ir_node_if(node)->cond, agx_imm_bool(false));
		delete_list(&agx_ir_node_if(node)->then_list);
		delete_list(&agx_ir_node_if(node)->else_list);
		break;
	case AGX_IR_CF_LOOP:
		delete_list(&agx_ir_node_loop(node)->body);
		break;
	default:
		break;
	}
	agx_ir_link_remove(&node->link);
	node->list = NULL;
}

static void delete_list(struct agx_ir_cf_list *list)
{
	foreach_node(list, n) delete_node(n);
}

/* Before the marked nodes go: the phis that stay drop the sources from them. */
static void drop_marked_phi_srcs(struct agx_ir_function *func)
{
	agx_ir_foreach_block(func, block) {
		if (block->pass_flags == 1)
			continue;
		agx_ir_foreach_instr(block, phi) {
			if (!is_phi(phi))
				break;
			for (unsigned i = phi->num_srcs; i-- > 0;) {
				if (phi->src[i].pred->pass_flags == 1)
					phi_remove_src(phi, i);
			}
		}
	}
}

/* Every phi of block becomes its source from pred. */
static void resolve_phis(struct agx_ir_block *block, struct agx_ir_block *pred)
{
	agx_ir_foreach_instr_safe(block, phi) {
		struct agx_ir_src *src;

		if (!is_phi(phi))
			break;
		src = agx_ir_phi_src(phi, pred);
		agx_ir_def_rewrite_uses(&phi->dest, agx_ir_src_value(src));
		agx_ir_instr_remove(phi);
	}
}

static void rename_pred(struct agx_ir_function *func, struct agx_ir_block *from,
			struct agx_ir_block *to)
{
	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr(block, phi) {
			if (!is_phi(phi))
				break;
			agx_ir_foreach_src(phi, src) {
				if (src->pred == from)
					src->pred = to;
			}
		}
	}
}

/* second (no phis, right after first in its list) joins the end of first, and goes. */
static void merge_blocks(struct agx_ir_block *first, struct agx_ir_block *second)
{
	agx_ir_foreach_instr_safe(second, instr) {
		agx_ir_link_remove(&instr->link);
		agx_ir_link_insert_before(&first->instrs, &instr->link);
		instr->block = first;
	}
	agx_ir_link_remove(&second->node.link);
	second->node.list = NULL;
	rename_pred(first->func, second, first);
}

/*
 * The node (an if or a loop) gives way to the nodes of list, and the
 * blocks that meet join: the one before the node with list's first, list's
 * last with the one after.  Phis in list's first block and the block after
 * must be gone.
 */
static void splice(struct agx_ir_cf_node *node, struct agx_ir_cf_list *list)
{
	struct agx_ir_block *before = agx_ir_cf_node_block_before(node);
	struct agx_ir_block *after = agx_ir_cf_node_block_after(node);
	struct agx_ir_block *first = agx_ir_cf_list_first_block(list);

	foreach_node(list, n)
	{
		agx_ir_link_remove(&n->link);
		agx_ir_link_insert_before(&node->link, &n->link);
		n->list = before->node.list;
	}
	agx_ir_link_remove(&node->link);
	node->list = NULL;
	merge_blocks(before, first);
	merge_blocks(agx_ir_cf_node_block_before(&after->node), after);
}

static void clear_marks(struct agx_ir_function *func)
{
	agx_ir_foreach_block(func, block)
		block->pass_flags = 0;
}

/* ---- the rules ---------------------------------------------------------------- */

static bool single_empty_block(struct agx_ir_cf_list *list)
{
	struct agx_ir_block *first = agx_ir_cf_list_first_block(list);

	return first == agx_ir_cf_list_last_block(list) && agx_ir_link_empty(&first->instrs);
}

/* An if with two empty arms: its phis are selects. */
static bool remove_empty_if(struct agx_ir_if *nif)
{
	struct agx_ir_block *before = agx_ir_cf_node_block_before(&nif->node);
	struct agx_ir_block *after = agx_ir_cf_node_block_after(&nif->node);
	struct agx_ir_block *then_block = agx_ir_cf_list_first_block(&nif->then_list);
	struct agx_ir_block *else_block = agx_ir_cf_list_first_block(&nif->else_list);
	struct agx_builder b = agx_builder_at(agx_ir_cursor_end(before));
	struct agx_ir_value cond = agx_ir_src_value(&nif->cond);

	agx_ir_foreach_instr_safe(after, phi) {
		struct agx_ir_value v;

		if (!is_phi(phi))
			break;
		v = agx_bcsel(&b, cond, agx_ir_src_value(agx_ir_phi_src(phi, then_block)),
			      agx_ir_src_value(agx_ir_phi_src(phi, else_block)));
		agx_ir_def_rewrite_uses(&phi->dest, v);
		agx_ir_instr_remove(phi);
	}
	agx_ir_src_set(&nif->cond, agx_imm_bool(false));
	agx_ir_link_remove(&nif->node.link);
	nif->node.list = NULL;
	merge_blocks(before, after);
	return true;
}

static bool simplify_if(struct agx_ir_function *func, struct agx_ir_if *nif)
{
	struct agx_ir_block *before = agx_ir_cf_node_block_before(&nif->node);
	struct agx_ir_block *after = agx_ir_cf_node_block_after(&nif->node);
	struct agx_ir_cf_list *taken, *other;

	if (ends_in_jump(before))
		return false;
	if (nif->cond.def) {
		if (!single_empty_block(&nif->then_list) || !single_empty_block(&nif->else_list))
			return false;
		/* both arms are one block, each the after block's predecessor */
		return remove_empty_if(nif);
	}
	taken = nif->cond.imm ? &nif->then_list : &nif->else_list;
	other = nif->cond.imm ? &nif->else_list : &nif->then_list;
	if (ends_in_jump(agx_ir_cf_list_last_block(taken)))
		return false;

	clear_marks(func);
	mark_list(other, 1);
	if (!can_delete_marked(func))
		return false;
	drop_marked_phi_srcs(func);
	delete_list(other);

	resolve_phis(after, agx_ir_cf_list_last_block(taken));
	resolve_phis(agx_ir_cf_list_first_block(taken), before);
	splice(&nif->node, taken);
	return true;
}

/* Whether the only predecessor of block that is not marked is pred. */
static bool only_pred(struct agx_ir_block *block, struct agx_ir_block *pred)
{
	bool seen = false;

	for (unsigned i = 0; i < block->num_preds; i++) {
		if (block->preds[i]->pass_flags == 1)
			continue;
		if (block->preds[i] != pred)
			return false;
		seen = true;
	}
	return seen;
}

static bool simplify_loop(struct agx_ir_function *func, struct agx_ir_loop *loop)
{
	struct agx_ir_block *before = agx_ir_cf_node_block_before(&loop->node);
	struct agx_ir_block *after = agx_ir_cf_node_block_after(&loop->node);
	struct agx_ir_block *header = agx_ir_cf_list_first_block(&loop->body);
	struct agx_ir_block *exit = NULL;
	struct agx_ir_instr *jump;
	bool dead = false;

	if (ends_in_jump(before))
		return false;
	/* the first block of the body's own list that jumps: a break, and all after it dead */
	clear_marks(func);
	foreach_node(&loop->body, n)
	{
		if (exit)
			mark_node(n, 1);
		else if (n->type == AGX_IR_CF_BLOCK && ends_in_jump(agx_ir_node_block(n)))
			exit = agx_ir_node_block(n);
	}
	if (!exit)
		return false;
	jump = agx_ir_block_last_instr(exit);
	if (jump->op != AGX_IR_OP_break)
		return false;
	dead = agx_ir_cf_list_last_block(&loop->body) != exit;
	/* with the dead code gone: entered once from before, left once from exit */
	if (!only_pred(header, before) || !only_pred(after, exit))
		return false;
	if (dead && !can_delete_marked(func))
		return false;
	if (dead) {
		drop_marked_phi_srcs(func);
		foreach_node(&loop->body, n)
		{
			if (n->type == AGX_IR_CF_BLOCK && agx_ir_node_block(n) == exit) {
				while (&n->link != loop->body.nodes.prev)
					delete_node(agx_ir_container_of(
					    n->link.next, struct agx_ir_cf_node, link));
				break;
			}
		}
	}

	resolve_phis(header, before);
	resolve_phis(after, exit);
	agx_ir_instr_remove(jump);
	splice(&loop->node, &loop->body);
	return true;
}

/* Tries the nodes of list, depth first; stops at the first that changed. */
static bool simplify_list(struct agx_ir_function *func, struct agx_ir_cf_list *list)
{
	foreach_node(list, n)
	{
		if (n->type == AGX_IR_CF_IF) {
			struct agx_ir_if *nif = agx_ir_node_if(n);

			if (simplify_list(func, &nif->then_list) ||
			    simplify_list(func, &nif->else_list) || simplify_if(func, nif))
				return true;
		} else if (n->type == AGX_IR_CF_LOOP) {
			struct agx_ir_loop *loop = agx_ir_node_loop(n);

			if (simplify_list(func, &loop->body) || simplify_loop(func, loop))
				return true;
		}
	}
	return false;
}

bool agx_opt_if(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func) {
		/* one change at a time, each on a fresh CFG */
		for (;;) {
			agx_ir_function_compute_cfg(func);
			if (!simplify_list(func, &func->body))
				break;
			progress = true;
		}
	}
	return progress;
}

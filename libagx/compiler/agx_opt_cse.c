/*
 * agx_opt_cse.c: common subexpression elimination.  Two PURE instructions
 * with the same op, destination type, indices and sources (either order
 * for the first two sources of a COMMUTATIVE op) compute the same value;
 * when the first dominates the second, the second's readers read the
 * first and the second goes.  Ops that are not PURE (load_ssbo, phi, the
 * side effects) are never merged.
 *
 * A walk of the dominator tree with a scoped hash table: what a block
 * adds is visible in the blocks it dominates, and goes when the walk
 * leaves them, so a lookup only ever finds a dominating instruction.
 * Unreachable blocks are not in the tree and are left as they are.
 */
#include <stdlib.h>

#include "agx_ir.h"

struct entry {
	struct agx_ir_instr *instr;
	struct entry *next; /* in its bucket: newest first */
	unsigned bucket;
};

struct table {
	struct entry **buckets;
	unsigned mask;	       /* buckets - 1, a power of two less one */
	struct entry *entries; /* a stack: pushed on insertion, popped on leaving a scope */
	unsigned count;
};

struct frame {
	struct agx_ir_block *block;
	unsigned next_child;
	unsigned mark; /* table.count when the block was entered */
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "agx_opt_cse: out of memory\n");
		abort();
	}
	return p;
}

static bool candidate(const struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);

	return (info->flags & AGX_IR_PURE) && !(info->flags & AGX_IR_VARIADIC) &&
	       info->dest != AGX_IR_CLASS_NONE;
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

static uint32_t src_hash(const struct agx_ir_src *src)
{
	if (src->def)
		return src->def->index * 0x85ebca6bu + 1;
	return (src->imm * 0xc2b2ae35u) ^ ((uint32_t)src->type << 28);
}

static uint32_t instr_hash(const struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);
	uint32_t h = mix((uint32_t)instr->op, (uint32_t)instr->dest.type);
	unsigned first = 0;

	for (unsigned i = 0; i < info->num_imms; i++)
		h = mix(h, instr->imm[i]);
	if ((info->flags & AGX_IR_COMMUTATIVE) && instr->num_srcs >= 2) {
		/* either order hashes the same */
		h = mix(h, src_hash(&instr->src[0]) + src_hash(&instr->src[1]));
		first = 2;
	}
	for (unsigned i = first; i < instr->num_srcs; i++)
		h = mix(h, src_hash(&instr->src[i]));
	return h;
}

static bool same_src(const struct agx_ir_src *a, const struct agx_ir_src *b)
{
	if (a->def || b->def)
		return a->def == b->def;
	return a->imm == b->imm && a->type == b->type;
}

static bool instr_equal(const struct agx_ir_instr *a, const struct agx_ir_instr *b)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(a->op);
	bool in_order = true, swapped;

	if (a->op != b->op || a->dest.type != b->dest.type || a->num_srcs != b->num_srcs)
		return false;
	for (unsigned i = 0; i < info->num_imms; i++) {
		if (a->imm[i] != b->imm[i])
			return false;
	}
	for (unsigned i = 0; i < a->num_srcs; i++)
		in_order = in_order && same_src(&a->src[i], &b->src[i]);
	if (in_order)
		return true;
	if (!(info->flags & AGX_IR_COMMUTATIVE) || a->num_srcs < 2)
		return false;
	swapped = same_src(&a->src[0], &b->src[1]) && same_src(&a->src[1], &b->src[0]);
	for (unsigned i = 2; i < a->num_srcs; i++)
		swapped = swapped && same_src(&a->src[i], &b->src[i]);
	return swapped;
}

/* The earlier instruction equal to instr, or NULL after adding instr to the table. */
static struct agx_ir_instr *lookup_or_insert(struct table *t, struct agx_ir_instr *instr)
{
	unsigned bucket = instr_hash(instr) & t->mask;
	struct entry *e;

	for (e = t->buckets[bucket]; e; e = e->next) {
		if (instr_equal(e->instr, instr))
			return e->instr;
	}
	e = &t->entries[t->count++];
	e->instr = instr;
	e->bucket = bucket;
	e->next = t->buckets[bucket];
	t->buckets[bucket] = e;
	return NULL;
}

/* Drops what was added since mark: entries leave in the reverse order, each its bucket's head. */
static void pop_to(struct table *t, unsigned mark)
{
	while (t->count > mark) {
		struct entry *e = &t->entries[--t->count];

		t->buckets[e->bucket] = e->next;
	}
}

static bool cse_block(struct table *t, struct agx_ir_block *block)
{
	bool progress = false;

	agx_ir_foreach_instr_safe(block, instr) {
		struct agx_ir_instr *earlier;

		if (!candidate(instr))
			continue;
		earlier = lookup_or_insert(t, instr);
		if (earlier) {
			agx_ir_def_rewrite_uses(&instr->dest, agx_ir_def_value(&earlier->dest));
			agx_ir_instr_remove(instr);
			progress = true;
		}
	}
	return progress;
}

static bool cse_function(struct agx_ir_function *func)
{
	unsigned num_blocks = agx_ir_function_index_blocks(func);
	unsigned num_instrs = agx_ir_function_index_instrs(func), size = 16;
	struct table t = { 0 };
	struct frame *stack;
	unsigned depth = 0;
	bool progress = false;

	agx_ir_function_compute_dominance(func);
	while (size < 2 * num_instrs)
		size *= 2;
	t.buckets = xcalloc(size, sizeof(*t.buckets));
	t.mask = size - 1;
	t.entries = xcalloc(num_instrs, sizeof(*t.entries));
	stack = xcalloc(num_blocks, sizeof(*stack));

	/* depth first through the dominator tree, without recursion: deep trees are common */
	stack[depth++] = (struct frame){ agx_ir_function_first_block(func), 0, 0 };
	progress |= cse_block(&t, stack[0].block);
	while (depth) {
		struct frame *f = &stack[depth - 1];

		if (f->next_child < f->block->num_dom_children) {
			struct agx_ir_block *child = f->block->dom_children[f->next_child++];

			stack[depth++] = (struct frame){ child, 0, t.count };
			progress |= cse_block(&t, child);
		} else {
			pop_to(&t, f->mark);
			depth--;
		}
	}
	free(stack);
	free(t.entries);
	free(t.buckets);
	return progress;
}

bool agx_opt_cse(struct agx_ir_shader *shader)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func)
		progress |= cse_function(func);
	return progress;
}

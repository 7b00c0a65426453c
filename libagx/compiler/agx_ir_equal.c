/*
 * agx_ir_equal.c: whether two shaders are the same program up to the
 * numbering of their defs -- what a pass's test compares its output with.
 *
 * Two walks over both trees in step: the first compares the shape, the
 * ops, types and indices and pairs the defs by position; the second
 * compares sources through that pairing (a phi's may read a def further
 * on) and phis' sources by their predecessors, in whatever order.
 * Sources are compared in order, commutative or not.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agx_ir.h"

struct eq {
	FILE *out;
	bool differ;
	struct agx_ir_function *fa, *fb;
	struct agx_ir_def **a2b, **b2a; /* by index */
	bool second;			/* the walk that compares sources */
};

static void differ(struct eq *e, struct agx_ir_block *block, struct agx_ir_instr *a,
		   struct agx_ir_instr *b, const char *fmt, ...)
{
	va_list ap;

	if (e->differ)
		return;
	e->differ = true;
	fprintf(e->out, "function %s", e->fa->name);
	if (block)
		fprintf(e->out, ", block %u", block->index);
	if (a || b) {
		fprintf(e->out, ": ");
		if (a) {
			fputc('`', e->out);
			agx_ir_instr_print(a, e->out);
			fputc('`', e->out);
		} else {
			fprintf(e->out, "nothing");
		}
		fprintf(e->out, " in the first, ");
		if (b) {
			fputc('`', e->out);
			agx_ir_instr_print(b, e->out);
			fputc('`', e->out);
		} else {
			fprintf(e->out, "nothing");
		}
		fprintf(e->out, " in the second");
	}
	fprintf(e->out, ": ");
	va_start(ap, fmt);
	vfprintf(e->out, fmt, ap);
	va_end(ap);
}

static bool same_value(struct eq *e, const struct agx_ir_src *a, const struct agx_ir_src *b)
{
	if (!a->def != !b->def)
		return false;
	if (!a->def)
		return a->type == b->type && a->imm == b->imm;
	return a->def->index < e->fa->num_defs && e->a2b[a->def->index] == b->def &&
	       b->def->index < e->fb->num_defs && e->b2a[b->def->index] == a->def;
}

static void pair_defs(struct eq *e, struct agx_ir_def *a, struct agx_ir_def *b)
{
	if (a->index < e->fa->num_defs && b->index < e->fb->num_defs) {
		e->a2b[a->index] = b;
		e->b2a[b->index] = a;
	}
}

static void compare_instr(struct eq *e, struct agx_ir_block *block, struct agx_ir_instr *a,
			  struct agx_ir_instr *b)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(a->op);

	if (!e->second) {
		if (a->op != b->op) {
			differ(e, block, a, b, "the ops differ");
			return;
		}
		if (agx_ir_instr_dest(a)) {
			if (a->dest.type != b->dest.type) {
				differ(e, block, a, b, "the destinations' types differ");
				return;
			}
			pair_defs(e, &a->dest, &b->dest);
		}
		for (unsigned i = 0; i < info->num_imms; i++) {
			if (a->imm[i] != b->imm[i]) {
				differ(e, block, a, b, "%s differs", info->imm[i]);
				return;
			}
		}
		if (a->num_srcs != b->num_srcs)
			differ(e, block, a, b, "the numbers of sources differ");
		return;
	}

	if (a->op == AGX_IR_OP_phi) {
		/* by predecessor: blocks pair by their numbers */
		for (unsigned i = 0; i < a->num_srcs; i++) {
			struct agx_ir_src *sa = &a->src[i], *sb = NULL;

			for (unsigned j = 0; j < b->num_srcs && sa->pred; j++) {
				if (b->src[j].pred && b->src[j].pred->index == sa->pred->index)
					sb = &b->src[j];
			}
			if (!sb) {
				differ(e, block, a, b, "only the first has a source from block %u",
				       sa->pred ? sa->pred->index : 0);
				return;
			}
			if (!same_value(e, sa, sb)) {
				differ(e, block, a, b, "the sources from block %u differ",
				       sa->pred->index);
				return;
			}
		}
		return;
	}
	for (unsigned i = 0; i < a->num_srcs; i++) {
		if (!same_value(e, &a->src[i], &b->src[i])) {
			differ(e, block, a, b, "source %u differs", i);
			return;
		}
	}
}

static void compare_block(struct eq *e, struct agx_ir_block *a, struct agx_ir_block *b)
{
	struct agx_ir_instr *ia = agx_ir_block_first_instr(a), *ib = agx_ir_block_first_instr(b);

	while (ia && ib && !e->differ) {
		compare_instr(e, a, ia, ib);
		ia = agx_ir_instr_next(ia);
		ib = agx_ir_instr_next(ib);
	}
	if ((ia || ib) && !e->differ)
		differ(e, a, ia, ib, "the %s block goes on after the other's last instruction",
		       ia ? "first's" : "second's");
}

static void compare_list(struct eq *e, struct agx_ir_cf_list *la, struct agx_ir_cf_list *lb)
{
	struct agx_ir_link *a = la->nodes.next, *b = lb->nodes.next;
	struct agx_ir_block *last = NULL;

	while (!e->differ) {
		struct agx_ir_cf_node *na =
		    a != &la->nodes ? agx_ir_container_of(a, struct agx_ir_cf_node, link) : NULL;
		struct agx_ir_cf_node *nb =
		    b != &lb->nodes ? agx_ir_container_of(b, struct agx_ir_cf_node, link) : NULL;

		if (!na && !nb)
			return;
		if (!na || !nb || na->type != nb->type) {
			if (last)
				differ(e, last, NULL, NULL,
				       "after it, the first has %s, the second %s",
				       agx_ir_cf_node_describe(na), agx_ir_cf_node_describe(nb));
			else
				differ(e, NULL, NULL, NULL,
				       "a list starts with %s in the first, %s in the second",
				       agx_ir_cf_node_describe(na), agx_ir_cf_node_describe(nb));
			return;
		}
		switch (na->type) {
		case AGX_IR_CF_BLOCK:
			last = agx_ir_node_block(na);
			compare_block(e, last, agx_ir_node_block(nb));
			break;
		case AGX_IR_CF_IF: {
			struct agx_ir_if *ia = agx_ir_node_if(na), *ib = agx_ir_node_if(nb);

			if (e->second && !same_value(e, &ia->cond, &ib->cond))
				differ(e, last, NULL, NULL,
				       "the conditions of the ifs after it differ");
			compare_list(e, &ia->then_list, &ib->then_list);
			compare_list(e, &ia->else_list, &ib->else_list);
			break;
		}
		case AGX_IR_CF_LOOP:
			compare_list(e, &agx_ir_node_loop(na)->body, &agx_ir_node_loop(nb)->body);
			break;
		default:
			break;
		}
		a = a->next;
		b = b->next;
	}
}

static void compare_function(struct eq *e, struct agx_ir_function *fa, struct agx_ir_function *fb)
{
	e->fa = fa;
	e->fb = fb;
	if (strcmp(fa->name, fb->name)) {
		differ(e, NULL, NULL, NULL, "the second's function is %s", fb->name);
		return;
	}
	agx_ir_function_index_blocks(fa);
	agx_ir_function_index_blocks(fb);
	e->a2b = calloc(fa->num_defs ? fa->num_defs : 1, sizeof(*e->a2b));
	e->b2a = calloc(fb->num_defs ? fb->num_defs : 1, sizeof(*e->b2a));
	if (!e->a2b || !e->b2a) {
		differ(e, NULL, NULL, NULL, "out of memory");
	} else {
		e->second = false;
		compare_list(e, &fa->body, &fb->body);
		e->second = true;
		compare_list(e, &fa->body, &fb->body);
	}
	free(e->a2b);
	free(e->b2a);
}

bool agx_ir_equal(struct agx_ir_shader *a, struct agx_ir_shader *b, char **why)
{
	struct eq e = { 0 };
	struct agx_ir_function *fa, *fb;
	char *text = NULL;
	size_t len;

	if (why)
		*why = NULL;
	e.out = open_memstream(&text, &len);
	if (!e.out)
		return false;
	if (a->stage != b->stage) {
		e.differ = true;
		fprintf(e.out, "a %s shader and a %s shader", agx_ir_stage_name(a->stage),
			agx_ir_stage_name(b->stage));
	}
	for (fa = agx_ir_shader_first_function(a), fb = agx_ir_shader_first_function(b);
	     fa && fb && !e.differ; fa = agx_ir_function_next(fa), fb = agx_ir_function_next(fb))
		compare_function(&e, fa, fb);
	if (!e.differ && (fa || fb)) {
		e.differ = true;
		fprintf(e.out, "only the %s has function %s", fa ? "first" : "second",
			fa ? fa->name : fb->name);
	}
	fclose(e.out);
	if (e.differ && why)
		*why = text;
	else
		free(text);
	return !e.differ;
}

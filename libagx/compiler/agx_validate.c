/*
 * agx_validate.c: the IR's rules, checked (docs/compiler.md lists them),
 * and agx_ir_pass_run(), which checks them after every pass unless NDEBUG.
 *
 * The tree's shape is checked first, by the lists' own links; only a
 * well-formed tree gets the other checks, since they walk it by its
 * parent pointers and the derived CFG.  Each error is one line naming the
 * function, the block and the instruction as printed.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "agx_ir.h"

/* Errors reported one by one; the rest are counted. */
#define MAX_REPORTED 32

struct validator {
	struct agx_ir_function *func;
	FILE *out;
	unsigned errors;
	struct agx_ir_def **defs; /* by index: the live def of that number */
	unsigned *reads;	  /* by index: the live sources reading it */
};

static void report(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *instr,
		   const char *fmt, ...)
{
	va_list ap;

	if (++v->errors > MAX_REPORTED)
		return;
	fprintf(v->out, "%s", v->func->name);
	if (block)
		fprintf(v->out, ", block %u", block->index);
	if (instr) {
		fprintf(v->out, ": `");
		agx_ir_instr_print(instr, v->out);
		fprintf(v->out, "`");
	}
	fprintf(v->out, ": ");
	va_start(ap, fmt);
	vfprintf(v->out, fmt, ap);
	va_end(ap);
	fputc('\n', v->out);
}

/* ---- the tree ----------------------------------------------------------- */

static bool check_list(struct validator *v, struct agx_ir_cf_list *list,
		       struct agx_ir_cf_node *owner, const char *what);

static bool check_block(struct validator *v, struct agx_ir_block *block)
{
	bool ok = true;

	if (block->func != v->func) {
		report(v, block, NULL, "the block names another function as its own");
		ok = false;
	}
	for (struct agx_ir_link *l = block->instrs.next; l != &block->instrs; l = l->next) {
		struct agx_ir_instr *instr = agx_ir_container_of(l, struct agx_ir_instr, link);

		if (instr->op >= AGX_IR_NUM_OPS) {
			report(v, block, NULL, "an instruction has op %u, which is no op",
			       instr->op);
			ok = false;
		} else if (instr->block != block) {
			report(v, block, instr, "the instruction names another block as its own");
			ok = false;
		} else if (instr->removed) {
			report(v, block, instr, "a removed instruction is still in the block");
			ok = false;
		}
	}
	return ok;
}

static bool check_node(struct validator *v, struct agx_ir_cf_node *node)
{
	switch (node->type) {
	case AGX_IR_CF_BLOCK:
		return check_block(v, agx_ir_node_block(node));
	case AGX_IR_CF_IF: {
		struct agx_ir_if *nif = agx_ir_node_if(node);
		bool ok = check_list(v, &nif->then_list, node, "an if's then list");

		return check_list(v, &nif->else_list, node, "an if's else list") && ok;
	}
	case AGX_IR_CF_LOOP:
		return check_list(v, &agx_ir_node_loop(node)->body, node, "a loop's body");
	default:
		report(v, NULL, NULL, "a function node inside a function");
		return false;
	}
}

static bool check_list(struct validator *v, struct agx_ir_cf_list *list,
		       struct agx_ir_cf_node *owner, const char *what)
{
	struct agx_ir_cf_node *prev = NULL;
	bool ok = true;

	if (list->owner != owner) {
		report(v, NULL, NULL, "%s names another node as its owner", what);
		ok = false;
	}
	if (agx_ir_link_empty(&list->nodes)) {
		report(v, NULL, NULL, "%s is empty; it needs a block at least", what);
		return false;
	}
	for (struct agx_ir_link *l = list->nodes.next; l != &list->nodes; l = l->next) {
		struct agx_ir_cf_node *node = agx_ir_container_of(l, struct agx_ir_cf_node, link);
		struct agx_ir_block *block =
		    node->type == AGX_IR_CF_BLOCK ? agx_ir_node_block(node) : NULL;

		if (node->list != list) {
			report(v, block, NULL, "%s in %s has a parent link to another list",
			       agx_ir_cf_node_describe(node), what);
			ok = false;
		}
		if (block && prev && prev->type == AGX_IR_CF_BLOCK) {
			report(v, block, NULL,
			       "the block follows block %u in %s: two blocks in a row",
			       agx_ir_node_block(prev)->index, what);
			ok = false;
		}
		if (!block && (!prev || prev->type != AGX_IR_CF_BLOCK)) {
			report(v, NULL, NULL, "%s in %s does not follow a block",
			       agx_ir_cf_node_describe(node), what);
			ok = false;
		}
		ok = check_node(v, node) && ok;
		prev = node;
	}
	if (prev->type != AGX_IR_CF_BLOCK) {
		report(v, NULL, NULL, "%s ends with %s, not a block", what,
		       agx_ir_cf_node_describe(prev));
		ok = false;
	}
	return ok;
}

/* ---- values ------------------------------------------------------------- */

/* Whether def is available at `before` in block (at its end for NULL). */
static bool available(const struct agx_ir_def *def, const struct agx_ir_block *block,
		      const struct agx_ir_instr *before)
{
	const struct agx_ir_block *home = def->instr->block;

	if (home == block)
		return !before || def->instr->index < before->index;
	return agx_ir_block_dominates(home, block);
}

static void check_imm(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *instr,
		      const struct agx_ir_src *src, const char *what)
{
	unsigned bits = agx_ir_type_bits(src->type);

	if (!bits)
		report(v, block, instr, "%s is an immediate without a type", what);
	else if (bits < 32 && src->imm >> bits)
		report(v, block, instr, "%s, an immediate %s, has bits beyond its %u: 0x%x", what,
		       agx_ir_type_name(src->type), bits, src->imm);
}

/*
 * A source read at `before` in `at` (NULL: at its end, as phis and if
 * conditions read); at NULL: a read whose place is already wrong, only
 * counted.  Returns whether it names a live def here.
 */
static bool check_read(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *instr,
		       const struct agx_ir_src *src, const char *what, struct agx_ir_block *at,
		       const struct agx_ir_instr *before)
{
	struct agx_ir_def *def = src->def;

	if (!def) {
		check_imm(v, block, instr, src, what);
		return false;
	}
	if (def->instr->removed) {
		report(v, block, instr, "%s reads %%%u, which was removed", what, def->index);
		return false;
	}
	if (def->index >= v->func->num_defs || v->defs[def->index] != def) {
		report(v, block, instr, "%s reads %%%u, which is not defined in this function",
		       what, def->index);
		return false;
	}
	v->reads[def->index]++;
	if (!at || available(def, at, before))
		return true;
	if (def->instr->block == at)
		report(v, block, instr, "%s reads %%%u before its definition", what, def->index);
	else if (before)
		report(v, block, instr,
		       "%s reads %%%u, defined in block %u, which does not dominate block %u", what,
		       def->index, def->instr->block->index, at->index);
	else
		report(v, block, instr,
		       "%s reads %%%u at the end of block %u, which its block %u does not dominate",
		       what, def->index, at->index, def->instr->block->index);
	return true;
}

/* ---- types -------------------------------------------------------------- */

static bool sized_class(enum agx_ir_class c)
{
	return c == AGX_IR_CLASS_F || c == AGX_IR_CLASS_I || c == AGX_IR_CLASS_N ||
	       c == AGX_IR_CLASS_T;
}

static bool accepts(enum agx_ir_class c, enum agx_ir_type t, unsigned size, enum agx_ir_type type)
{
	bool f = agx_ir_type_is_float(t), i = agx_ir_type_is_int(t);
	unsigned bits = agx_ir_type_bits(t);

	switch (c) {
	case AGX_IR_CLASS_B:
		return t == AGX_IR_TYPE_B1;
	case AGX_IR_CLASS_F:
		return f && bits == size;
	case AGX_IR_CLASS_I:
		return i && bits == size;
	case AGX_IR_CLASS_N:
		return (f || i) && bits == size;
	case AGX_IR_CLASS_T:
		return t == type;
	case AGX_IR_CLASS_FX:
		return f;
	case AGX_IR_CLASS_IX:
		return i;
	case AGX_IR_CLASS_V:
		return f || i;
	case AGX_IR_CLASS_ANY:
		return t != AGX_IR_TYPE_NONE;
	case AGX_IR_CLASS_F16:
		return t == AGX_IR_TYPE_F16;
	case AGX_IR_CLASS_F32:
		return t == AGX_IR_TYPE_F32;
	case AGX_IR_CLASS_I16:
		return t == AGX_IR_TYPE_I16;
	case AGX_IR_CLASS_I32:
		return t == AGX_IR_TYPE_I32;
	default:
		return false;
	}
}

static void describe(char *buf, size_t n, enum agx_ir_class c, unsigned size, enum agx_ir_type type)
{
	switch (c) {
	case AGX_IR_CLASS_B:
		snprintf(buf, n, "b1");
		break;
	case AGX_IR_CLASS_F:
		snprintf(buf, n, "a float of %u bits like the instruction's other operands", size);
		break;
	case AGX_IR_CLASS_I:
		snprintf(buf, n, "an integer of %u bits like the instruction's other operands",
			 size);
		break;
	case AGX_IR_CLASS_N:
		snprintf(buf, n, "an integer or a float of %u bits like the other operand", size);
		break;
	case AGX_IR_CLASS_T:
		snprintf(buf, n, "%s like the instruction's other operands",
			 agx_ir_type_name(type));
		break;
	case AGX_IR_CLASS_FX:
		snprintf(buf, n, "a float");
		break;
	case AGX_IR_CLASS_IX:
		snprintf(buf, n, "an integer");
		break;
	case AGX_IR_CLASS_V:
		snprintf(buf, n, "an integer or a float");
		break;
	case AGX_IR_CLASS_ANY:
		snprintf(buf, n, "typed");
		break;
	case AGX_IR_CLASS_F16:
		snprintf(buf, n, "f16");
		break;
	case AGX_IR_CLASS_F32:
		snprintf(buf, n, "f32");
		break;
	case AGX_IR_CLASS_I16:
		snprintf(buf, n, "i16");
		break;
	case AGX_IR_CLASS_I32:
		snprintf(buf, n, "i32");
		break;
	default:
		snprintf(buf, n, "nothing");
		break;
	}
}

static void check_operand(struct validator *v, struct agx_ir_block *block,
			  struct agx_ir_instr *instr, const char *what, enum agx_ir_class c,
			  enum agx_ir_type t, unsigned size, enum agx_ir_type type)
{
	char want[96];

	if (accepts(c, t, size, type))
		return;
	describe(want, sizeof(want), c, size, type);
	report(v, block, instr, "%s is %s, not %s", what, agx_ir_type_name(t), want);
}

/* A texture op's sources, as its indices lay them out (agx_ir_ops.h, "Textures"). */
static void check_texture(struct validator *v, struct agx_ir_block *block,
			  struct agx_ir_instr *instr)
{
	struct agx_ir_tex_layout l;
	bool load = instr->op == AGX_IR_OP_texture_load;

	if (!agx_ir_tex_layout(instr->op, instr->imm, &l)) {
		report(v, block, instr, "dim=%u, lod=%u, compare=%u, component=%u name no layout",
		       instr->imm[1], instr->imm[2], instr->imm[3], instr->imm[5]);
		return;
	}
	if (instr->num_srcs != l.num_srcs) {
		report(v, block, instr, "%u sources; its layout has %u", instr->num_srcs,
		       l.num_srcs);
		return;
	}
	if (instr->dest.type != AGX_IR_TYPE_F32 && instr->dest.type != AGX_IR_TYPE_I32)
		report(v, block, instr, "the destination is %s, not f32 or i32",
		       agx_ir_type_name(instr->dest.type));
	for (unsigned i = 0; i < instr->num_srcs; i++) {
		bool integer = (load && (int)i != l.grad) || (int)i == l.layer;
		enum agx_ir_type want = integer ? AGX_IR_TYPE_I32 : AGX_IR_TYPE_F32,
				 t = agx_ir_src_type(&instr->src[i]);

		if (t != want)
			report(v, block, instr, "source %u is %s, not %s", i, agx_ir_type_name(t),
			       agx_ir_type_name(want));
	}
}

static void check_types(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *instr)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);
	unsigned n = instr->num_srcs < info->num_srcs ? instr->num_srcs : info->num_srcs;
	enum agx_ir_type type = AGX_IR_TYPE_NONE;
	unsigned size = 0;
	char what[32];

	/* the instruction's size and type: its first sized operand's */
	if (sized_class(info->dest)) {
		type = instr->dest.type;
	} else {
		for (unsigned i = 0; i < n; i++) {
			if (sized_class(info->src[i])) {
				type = agx_ir_src_type(&instr->src[i]);
				break;
			}
		}
	}
	size = agx_ir_type_bits(type);

	if (info->dest != AGX_IR_CLASS_NONE)
		check_operand(v, block, instr, "the destination", info->dest, instr->dest.type,
			      size, type);
	for (unsigned i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "source %u", i);
		check_operand(v, block, instr, what, info->src[i], agx_ir_src_type(&instr->src[i]),
			      size, type);
	}
	if (info->flags & AGX_IR_TEXTURE) {
		check_texture(v, block, instr);
	} else if (info->flags & AGX_IR_VARIADIC) {
		for (unsigned i = 0; i < instr->num_srcs; i++) {
			enum agx_ir_type t = agx_ir_src_type(&instr->src[i]);

			if (t != instr->dest.type)
				report(v, block, instr, "source %u is %s, not the destination's %s",
				       i, agx_ir_type_name(t), agx_ir_type_name(instr->dest.type));
		}
	}
}

/* ---- instructions ------------------------------------------------------- */

static void check_phi(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *phi)
{
	if (!block->num_preds) {
		report(v, block, phi, "a phi in a block no edge enters");
		return;
	}
	if (phi->num_srcs != block->num_preds)
		report(v, block, phi, "%u sources for the block's %u predecessors", phi->num_srcs,
		       block->num_preds);
	for (unsigned i = 0; i < phi->num_srcs; i++) {
		struct agx_ir_src *src = &phi->src[i];
		bool is_pred = false;
		char what[32];

		snprintf(what, sizeof(what), "source %u", i);
		for (unsigned p = 0; p < block->num_preds; p++)
			is_pred |= block->preds[p] == src->pred;
		if (!src->pred || !is_pred) {
			if (!src->pred)
				report(v, block, phi, "source %u names no predecessor", i);
			else
				report(v, block, phi,
				       "source %u comes from block %u, which is no predecessor", i,
				       src->pred->index);
			check_read(v, block, phi, src, what, NULL, NULL);
			continue;
		}
		for (unsigned j = 0; j < i; j++) {
			if (phi->src[j].pred == src->pred)
				report(v, block, phi, "sources %u and %u both come from block %u",
				       j, i, src->pred->index);
		}
		check_read(v, block, phi, src, what, src->pred, NULL);
	}
}

static void check_instr(struct validator *v, struct agx_ir_block *block, struct agx_ir_instr *instr,
			bool *past_phis)
{
	const struct agx_ir_op_info *info = agx_ir_op_info(instr->op);

	if (instr->op == AGX_IR_OP_phi && *past_phis)
		report(v, block, instr,
		       "a phi after other instructions: phis come first in a block");
	if (instr->op != AGX_IR_OP_phi)
		*past_phis = true;

	if (!(info->flags & AGX_IR_VARIADIC) && instr->num_srcs != info->num_srcs)
		report(v, block, instr, "%u sources; %s takes %u", instr->num_srcs, info->name,
		       info->num_srcs);
	if (instr->dest.instr != instr)
		report(v, block, instr, "the destination names another instruction as its writer");
	if (info->flags & AGX_IR_TERMINATOR) {
		if (agx_ir_instr_next(instr))
			report(v, block, instr, "%s is not last in its block", info->name);
		if (!agx_ir_block_loop(block))
			report(v, block, instr, "%s outside a loop", info->name);
	}

	for (unsigned i = 0; i < instr->num_srcs; i++) {
		struct agx_ir_src *src = &instr->src[i];
		char what[32];

		if (src->instr != instr)
			report(v, block, instr, "source %u names another instruction as its reader",
			       i);
		if (instr->op == AGX_IR_OP_phi)
			continue;
		snprintf(what, sizeof(what), "source %u", i);
		check_read(v, block, instr, src, what, block, instr);
	}
	if (instr->op == AGX_IR_OP_phi)
		check_phi(v, block, instr);
	check_types(v, block, instr);
}

static void check_if(struct validator *v, struct agx_ir_block *before, struct agx_ir_if *nif)
{
	enum agx_ir_type t = agx_ir_src_type(&nif->cond);

	if (nif->cond.if_node != nif || nif->cond.instr)
		report(v, before, NULL, "the condition of the if after it names another reader");
	if (t != AGX_IR_TYPE_B1)
		report(v, before, NULL, "the condition of the if after it is %s, not b1",
		       agx_ir_type_name(t));
	check_read(v, before, NULL, &nif->cond, "the condition of the if after it", before, NULL);
}

static void check_uses(struct validator *v)
{
	for (unsigned i = 0; i < v->func->num_defs; i++) {
		struct agx_ir_def *def = v->defs[i];
		unsigned n = 0;

		if (!def)
			continue;
		agx_ir_foreach_use(def, src) {
			n++;
			if (src->def != def) {
				report(v, def->instr->block, def->instr,
				       "%%%u's use list holds a source that reads something else",
				       i);
			} else if (src->instr && src->instr->removed) {
				report(v, def->instr->block, def->instr,
				       "%%%u's use list holds a source of a removed %s", i,
				       agx_ir_op_info(src->instr->op)->name);
			} else if (!src->instr && !src->if_node) {
				report(v, def->instr->block, def->instr,
				       "%%%u's use list holds a source nothing reads", i);
			}
		}
		if (n != v->reads[i])
			report(v, def->instr->block, def->instr,
			       "%%%u's use list has %u entries, but %u sources read it", i, n,
			       v->reads[i]);
	}
}

static void validate_function(struct validator *v)
{
	struct agx_ir_function *func = v->func;

	agx_ir_function_index_blocks(func);
	if (!check_list(v, &func->body, &func->node, "the function's body"))
		return;

	agx_ir_function_index_instrs(func);
	agx_ir_function_compute_dominance(func);
	v->defs = calloc(func->num_defs ? func->num_defs : 1, sizeof(*v->defs));
	v->reads = calloc(func->num_defs ? func->num_defs : 1, sizeof(*v->reads));
	if (!v->defs || !v->reads) {
		report(v, NULL, NULL, "out of memory");
		goto out;
	}

	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr(block, instr) {
			struct agx_ir_def *def = agx_ir_instr_dest(instr);

			if (!def)
				continue;
			if (def->index >= func->num_defs)
				report(v, block, instr, "%%%u is past the function's %u defs",
				       def->index, func->num_defs);
			else if (v->defs[def->index])
				report(v, block, instr, "%%%u is defined twice", def->index);
			else
				v->defs[def->index] = def;
		}
	}

	agx_ir_foreach_block(func, block) {
		struct agx_ir_cf_node *next = agx_ir_cf_node_next(&block->node);
		bool past_phis = false;

		agx_ir_foreach_instr(block, instr)
			check_instr(v, block, instr, &past_phis);
		if (next && next->type == AGX_IR_CF_IF)
			check_if(v, block, agx_ir_node_if(next));
	}
	check_uses(v);

out:
	free(v->defs);
	free(v->reads);
	v->defs = NULL;
	v->reads = NULL;
}

bool agx_ir_validate(struct agx_ir_shader *shader, char **errors)
{
	struct validator v = { 0 };
	char *text = NULL;
	size_t len;

	if (errors)
		*errors = NULL;
	v.out = open_memstream(&text, &len);
	if (!v.out)
		return false;
	agx_ir_foreach_function(shader, func) {
		v.func = func;
		if (func->shader != shader)
			report(&v, NULL, NULL, "the function names another shader as its own");
		validate_function(&v);
	}
	if (v.errors > MAX_REPORTED)
		fprintf(v.out, "... and %u errors more\n", v.errors - MAX_REPORTED);
	fclose(v.out);
	if (v.errors && errors)
		*errors = text;
	else
		free(text);
	return v.errors == 0;
}

bool agx_ir_pass_run(struct agx_ir_shader *shader, agx_ir_pass_fn pass, const char *name)
{
	return agx_ir_pass_checked(shader, pass(shader), name);
}

bool agx_ir_pass_checked(struct agx_ir_shader *shader, bool progress, const char *name)
{
#ifndef NDEBUG
	char *errors;

	if (!agx_ir_validate(shader, &errors)) {
		fprintf(stderr, "agx_ir: invalid IR after %s:\n%s", name,
			errors ? errors : "(no details: out of memory)\n");
		agx_ir_shader_print(shader, stderr);
		free(errors);
		abort();
	}
#else
	(void)name;
#endif
	return progress;
}

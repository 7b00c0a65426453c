/*
 * agx_ir.c: the IR's objects (agx_ir.h) -- the arena, shaders, functions,
 * the control flow tree and walking it, instructions, defs and their use
 * lists -- and the op info table expanded from agx_ir_ops.h.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "agx_ir.h"

/* ---- the op table ---------------------------------------------------------- */

/* The flags column's spelling (agx_ir_ops.h), for this expansion only. */
#define PURE	     AGX_IR_PURE
#define COMMUTATIVE  AGX_IR_COMMUTATIVE
#define SIDE_EFFECTS AGX_IR_SIDE_EFFECTS
#define TERMINATOR   AGX_IR_TERMINATOR
#define VARIADIC     AGX_IR_VARIADIC
#define LOWERED	     AGX_IR_LOWERED
#define TEXTURE	     AGX_IR_TEXTURE

#define OP_INFO(name_, dest_, nsrc, srcs, nimm, imms, flags_)                                      \
	[AGX_IR_OP_##name_] = { .name = #name_,                                                    \
				.dest = AGX_IR_CLASS_##dest_,                                      \
				.num_srcs = nsrc,                                                  \
				.num_imms = nimm,                                                  \
				.src = { AGX_IR_CLASSES_##nsrc srcs },                             \
				.imm = { AGX_IR_NAMES_##nimm imms },                               \
				.flags = flags_ },

const struct agx_ir_op_info agx_ir_op_table[AGX_IR_NUM_OPS] = { AGX_IR_OPS(OP_INFO) };

#undef OP_INFO
#undef PURE
#undef COMMUTATIVE
#undef SIDE_EFFECTS
#undef TERMINATOR
#undef VARIADIC
#undef LOWERED
#undef TEXTURE

/* ---- types ----------------------------------------------------------------- */

unsigned agx_ir_type_bits(enum agx_ir_type type)
{
	switch (type) {
	case AGX_IR_TYPE_B1:
		return 1;
	case AGX_IR_TYPE_I16:
	case AGX_IR_TYPE_F16:
		return 16;
	case AGX_IR_TYPE_I32:
	case AGX_IR_TYPE_F32:
		return 32;
	default:
		return 0;
	}
}

bool agx_ir_type_is_float(enum agx_ir_type type)
{
	return type == AGX_IR_TYPE_F16 || type == AGX_IR_TYPE_F32;
}

bool agx_ir_type_is_int(enum agx_ir_type type)
{
	return type == AGX_IR_TYPE_I16 || type == AGX_IR_TYPE_I32;
}

const char *agx_ir_type_name(enum agx_ir_type type)
{
	switch (type) {
	case AGX_IR_TYPE_B1:
		return "b1";
	case AGX_IR_TYPE_I16:
		return "i16";
	case AGX_IR_TYPE_I32:
		return "i32";
	case AGX_IR_TYPE_F16:
		return "f16";
	case AGX_IR_TYPE_F32:
		return "f32";
	default:
		return "none";
	}
}

const char *agx_ir_stage_name(enum agx_ir_stage stage)
{
	switch (stage) {
	case AGX_IR_STAGE_COMPUTE:
		return "compute";
	case AGX_IR_STAGE_VERTEX:
		return "vertex";
	case AGX_IR_STAGE_FRAGMENT:
		return "fragment";
	}
	return "unknown";
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float f32_from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Drops the low `shift` bits of m, rounding to nearest even. */
static uint32_t round_shift(uint32_t m, unsigned shift)
{
	uint32_t q = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);

	if (rest > half || (rest == half && (q & 1)))
		q++;
	return q;
}

uint16_t agx_ir_f32_to_f16(float f)
{
	uint32_t x = f32_bits(f), sign = (x >> 16) & 0x8000, abs = x & 0x7fffffff;

	if (abs > 0x7f800000) /* NaN: quiet, keeping the payload's top bits */
		return (uint16_t)(sign | 0x7e00 | ((abs >> 13) & 0x3ff));
	if (abs >= 0x477ff000) /* 65520 and more round to infinity */
		return (uint16_t)(sign | 0x7c00);
	if (abs < 0x38800000) { /* under 2^-14: an f16 subnormal, in units of 2^-24 */
		unsigned e = abs >> 23;

		if (abs <= 0x33000000) /* up to 2^-25, the tie, rounds to 0 */
			return (uint16_t)sign;
		return (uint16_t)(sign | round_shift((abs & 0x7fffff) | 0x800000, 126 - e));
	}
	/* rebias the exponent (127 -> 15); a carry out of the fraction is right */
	return (uint16_t)(sign | round_shift(abs - 0x38000000, 13));
}

float agx_ir_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return f32_from_bits(sign | 0x7f800000 | (m << 13));
	if (e == 0) {
		if (m == 0)
			return f32_from_bits(sign);
		/* subnormal: normalize */
		e = 1;
		while (!(m & 0x400)) {
			m <<= 1;
			e--;
		}
		m &= 0x3ff;
	}
	return f32_from_bits(sign | ((e + 112) << 23) | (m << 13));
}

/* ---- the arena --------------------------------------------------------------- */

/*
 * Chunks of at least CHUNK_SIZE, newest first.  Allocation failure aborts:
 * no caller of the IR could go on without the object.
 */
#define CHUNK_SIZE (32 * 1024)

struct agx_ir_chunk {
	struct agx_ir_chunk *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

void *agx_ir_shader_alloc(struct agx_ir_shader *shader, size_t size)
{
	struct agx_ir_chunk *c = shader->chunks;
	void *p;

	size = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (!c || c->size - c->used < size) {
		size_t cap = size > CHUNK_SIZE ? size : CHUNK_SIZE;

		c = malloc(sizeof(*c) + cap);
		if (!c) {
			fprintf(stderr, "agx_ir: out of memory (%zu bytes)\n", cap);
			abort();
		}
		c->used = 0;
		c->size = cap;
		c->next = shader->chunks;
		shader->chunks = c;
	}
	p = c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

struct agx_ir_shader *agx_ir_shader_create(enum agx_ir_stage stage)
{
	struct agx_ir_shader *shader = calloc(1, sizeof(*shader));

	if (!shader)
		return NULL;
	shader->stage = stage;
	shader->num_workgroups_uniform = -1;
	shader->uniform_block_uniform = -1;
	shader->blend_constant_uniform = -1;
	shader->xfb_uniform = -1;
	agx_ir_link_init(&shader->functions);
	return shader;
}

static const char *arena_strdup(struct agx_ir_shader *shader, const char *str)
{
	char *copy;

	if (!str)
		return NULL;
	copy = agx_ir_shader_alloc(shader, strlen(str) + 1);
	memcpy(copy, str, strlen(str) + 1);
	return copy;
}

void agx_ir_shader_add_leaf(struct agx_ir_shader *shader, const struct agx_ir_uniform_leaf *leaf)
{
	struct agx_ir_uniform_leaf *l;

	if (shader->num_leaves == shader->leaf_capacity) {
		unsigned capacity = shader->leaf_capacity ? 2 * shader->leaf_capacity : 8;
		struct agx_ir_uniform_leaf *grown =
		    agx_ir_shader_alloc(shader, capacity * sizeof(*grown));

		if (shader->num_leaves)
			memcpy(grown, shader->leaves, shader->num_leaves * sizeof(*grown));
		shader->leaves = grown;
		shader->leaf_capacity = capacity;
	}
	l = &shader->leaves[shader->num_leaves++];
	*l = *leaf;
	l->name = arena_strdup(shader, leaf->name);
	l->glsl_type = arena_strdup(shader, leaf->glsl_type);
}

unsigned agx_ir_shader_add_var(struct agx_ir_shader *shader, const struct agx_ir_var *var)
{
	struct agx_ir_var *v;

	if (shader->num_vars == shader->var_capacity) {
		unsigned capacity = shader->var_capacity ? 2 * shader->var_capacity : 8;
		struct agx_ir_var *vars = agx_ir_shader_alloc(shader, capacity * sizeof(*vars));

		if (shader->num_vars)
			memcpy(vars, shader->vars, shader->num_vars * sizeof(*vars));
		shader->vars = vars;
		shader->var_capacity = capacity;
	}
	v = &shader->vars[shader->num_vars];
	*v = *var;
	v->name = arena_strdup(shader, var->name);
	v->glsl_type = arena_strdup(shader, var->glsl_type);
	return shader->num_vars++;
}

void agx_ir_shader_destroy(struct agx_ir_shader *shader)
{
	if (!shader)
		return;
	for (struct agx_ir_chunk *c = shader->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(shader);
}

/* ---- the control flow tree --------------------------------------------------- */

static void cf_list_init(struct agx_ir_cf_list *list, struct agx_ir_cf_node *owner)
{
	agx_ir_link_init(&list->nodes);
	list->owner = owner;
}

static struct agx_ir_block *block_create(struct agx_ir_function *func)
{
	struct agx_ir_block *block = agx_ir_shader_alloc(func->shader, sizeof(*block));

	block->node.type = AGX_IR_CF_BLOCK;
	block->func = func;
	agx_ir_link_init(&block->instrs);
	return block;
}

static void cf_list_append(struct agx_ir_cf_list *list, struct agx_ir_cf_node *node)
{
	agx_ir_link_insert_before(&list->nodes, &node->link);
	node->list = list;
}

static void cf_node_insert_after(struct agx_ir_cf_node *pos, struct agx_ir_cf_node *node)
{
	agx_ir_link_insert_before(pos->link.next, &node->link);
	node->list = pos->list;
}

struct agx_ir_function *agx_ir_function_create(struct agx_ir_shader *shader, const char *name)
{
	struct agx_ir_function *func = agx_ir_shader_alloc(shader, sizeof(*func));
	size_t len = strlen(name);
	char *copy = agx_ir_shader_alloc(shader, len + 1);

	memcpy(copy, name, len + 1);
	func->node.type = AGX_IR_CF_FUNCTION;
	func->shader = shader;
	func->name = copy;
	cf_list_init(&func->body, &func->node);
	cf_list_append(&func->body, &block_create(func)->node);
	agx_ir_link_insert_before(&shader->functions, &func->link);
	return func;
}

struct agx_ir_function *agx_ir_shader_first_function(struct agx_ir_shader *shader)
{
	if (agx_ir_link_empty(&shader->functions))
		return NULL;
	return agx_ir_container_of(shader->functions.next, struct agx_ir_function, link);
}

struct agx_ir_function *agx_ir_function_next(struct agx_ir_function *func)
{
	if (func->link.next == &func->shader->functions)
		return NULL;
	return agx_ir_container_of(func->link.next, struct agx_ir_function, link);
}

struct agx_ir_cf_node *agx_ir_cf_node_next(struct agx_ir_cf_node *node)
{
	if (!node->list || node->link.next == &node->list->nodes)
		return NULL;
	return agx_ir_container_of(node->link.next, struct agx_ir_cf_node, link);
}

struct agx_ir_cf_node *agx_ir_cf_node_prev(struct agx_ir_cf_node *node)
{
	if (!node->list || node->link.prev == &node->list->nodes)
		return NULL;
	return agx_ir_container_of(node->link.prev, struct agx_ir_cf_node, link);
}

struct agx_ir_cf_node *agx_ir_cf_node_parent(struct agx_ir_cf_node *node)
{
	return node->list ? node->list->owner : NULL;
}

static struct agx_ir_block *as_block(struct agx_ir_cf_node *node)
{
	return node && node->type == AGX_IR_CF_BLOCK ? agx_ir_node_block(node) : NULL;
}

struct agx_ir_block *agx_ir_cf_list_first_block(struct agx_ir_cf_list *list)
{
	if (agx_ir_link_empty(&list->nodes))
		return NULL;
	return as_block(agx_ir_container_of(list->nodes.next, struct agx_ir_cf_node, link));
}

struct agx_ir_block *agx_ir_cf_list_last_block(struct agx_ir_cf_list *list)
{
	if (agx_ir_link_empty(&list->nodes))
		return NULL;
	return as_block(agx_ir_container_of(list->nodes.prev, struct agx_ir_cf_node, link));
}

struct agx_ir_block *agx_ir_cf_node_block_before(struct agx_ir_cf_node *node)
{
	return as_block(agx_ir_cf_node_prev(node));
}

struct agx_ir_block *agx_ir_cf_node_block_after(struct agx_ir_cf_node *node)
{
	return as_block(agx_ir_cf_node_next(node));
}

struct agx_ir_loop *agx_ir_block_loop(struct agx_ir_block *block)
{
	for (struct agx_ir_cf_node *n = agx_ir_cf_node_parent(&block->node); n;
	     n = agx_ir_cf_node_parent(n)) {
		if (n->type == AGX_IR_CF_LOOP)
			return agx_ir_node_loop(n);
	}
	return NULL;
}

/* The first (last) block in program order inside a node. */
static struct agx_ir_block *node_first_block(struct agx_ir_cf_node *node)
{
	switch (node->type) {
	case AGX_IR_CF_IF:
		return agx_ir_cf_list_first_block(&agx_ir_node_if(node)->then_list);
	case AGX_IR_CF_LOOP:
		return agx_ir_cf_list_first_block(&agx_ir_node_loop(node)->body);
	case AGX_IR_CF_FUNCTION:
		return agx_ir_cf_list_first_block(&agx_ir_node_function(node)->body);
	default:
		return agx_ir_node_block(node);
	}
}

static struct agx_ir_block *node_last_block(struct agx_ir_cf_node *node)
{
	switch (node->type) {
	case AGX_IR_CF_IF:
		return agx_ir_cf_list_last_block(&agx_ir_node_if(node)->else_list);
	case AGX_IR_CF_LOOP:
		return agx_ir_cf_list_last_block(&agx_ir_node_loop(node)->body);
	case AGX_IR_CF_FUNCTION:
		return agx_ir_cf_list_last_block(&agx_ir_node_function(node)->body);
	default:
		return agx_ir_node_block(node);
	}
}

struct agx_ir_block *agx_ir_function_first_block(struct agx_ir_function *func)
{
	return agx_ir_cf_list_first_block(&func->body);
}

struct agx_ir_block *agx_ir_function_last_block(struct agx_ir_function *func)
{
	return agx_ir_cf_list_last_block(&func->body);
}

struct agx_ir_block *agx_ir_block_next(struct agx_ir_block *block)
{
	struct agx_ir_cf_node *node = &block->node, *next;

	for (;;) {
		struct agx_ir_cf_node *parent;

		next = agx_ir_cf_node_next(node);
		if (next)
			return node_first_block(next);
		parent = agx_ir_cf_node_parent(node);
		if (!parent || parent->type == AGX_IR_CF_FUNCTION)
			return NULL;
		if (parent->type == AGX_IR_CF_IF &&
		    node->list == &agx_ir_node_if(parent)->then_list)
			return agx_ir_cf_list_first_block(&agx_ir_node_if(parent)->else_list);
		node = parent;
	}
}

struct agx_ir_block *agx_ir_block_prev(struct agx_ir_block *block)
{
	struct agx_ir_cf_node *node = &block->node, *prev;

	for (;;) {
		struct agx_ir_cf_node *parent;

		prev = agx_ir_cf_node_prev(node);
		if (prev)
			return node_last_block(prev);
		parent = agx_ir_cf_node_parent(node);
		if (!parent || parent->type == AGX_IR_CF_FUNCTION)
			return NULL;
		if (parent->type == AGX_IR_CF_IF &&
		    node->list == &agx_ir_node_if(parent)->else_list)
			return agx_ir_cf_list_last_block(&agx_ir_node_if(parent)->then_list);
		node = parent;
	}
}

/*
 * By the lists' own links rather than parent pointers, so that the
 * validator and the printer can number a tree whose parent links are wrong.
 */
static void index_list(struct agx_ir_cf_list *list, unsigned *n)
{
	for (struct agx_ir_link *l = list->nodes.next; l != &list->nodes; l = l->next) {
		struct agx_ir_cf_node *node = agx_ir_container_of(l, struct agx_ir_cf_node, link);

		if (node->type == AGX_IR_CF_BLOCK) {
			agx_ir_node_block(node)->index = (*n)++;
		} else if (node->type == AGX_IR_CF_IF) {
			index_list(&agx_ir_node_if(node)->then_list, n);
			index_list(&agx_ir_node_if(node)->else_list, n);
		} else if (node->type == AGX_IR_CF_LOOP) {
			index_list(&agx_ir_node_loop(node)->body, n);
		}
	}
}

unsigned agx_ir_function_index_blocks(struct agx_ir_function *func)
{
	unsigned n = 0;

	index_list(&func->body, &n);
	return n;
}

unsigned agx_ir_function_index_instrs(struct agx_ir_function *func)
{
	unsigned n = 0;

	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr(block, instr)
			instr->index = n++;
	}
	return n;
}

/* ---- instructions -------------------------------------------------------------- */

struct agx_ir_instr *agx_ir_block_first_instr(struct agx_ir_block *block)
{
	if (agx_ir_link_empty(&block->instrs))
		return NULL;
	return agx_ir_container_of(block->instrs.next, struct agx_ir_instr, link);
}

struct agx_ir_instr *agx_ir_block_last_instr(struct agx_ir_block *block)
{
	if (agx_ir_link_empty(&block->instrs))
		return NULL;
	return agx_ir_container_of(block->instrs.prev, struct agx_ir_instr, link);
}

struct agx_ir_instr *agx_ir_instr_next(struct agx_ir_instr *instr)
{
	if (instr->link.next == &instr->block->instrs)
		return NULL;
	return agx_ir_container_of(instr->link.next, struct agx_ir_instr, link);
}

struct agx_ir_instr *agx_ir_instr_prev(struct agx_ir_instr *instr)
{
	if (instr->link.prev == &instr->block->instrs)
		return NULL;
	return agx_ir_container_of(instr->link.prev, struct agx_ir_instr, link);
}

struct agx_ir_instr *agx_ir_instr_create(struct agx_ir_function *func, enum agx_ir_op op,
					 unsigned num_srcs)
{
	struct agx_ir_instr *instr = agx_ir_shader_alloc(func->shader, sizeof(*instr));

	instr->op = op;
	instr->dest.instr = instr;
	agx_ir_link_init(&instr->dest.uses);
	if (agx_ir_op_table[op].dest != AGX_IR_CLASS_NONE)
		instr->dest.index = func->num_defs++;
	instr->num_srcs = instr->src_capacity = num_srcs;
	if (num_srcs)
		instr->src = agx_ir_shader_alloc(func->shader, num_srcs * sizeof(*instr->src));
	for (unsigned i = 0; i < num_srcs; i++)
		instr->src[i].instr = instr;
	return instr;
}

void agx_ir_instr_insert(struct agx_ir_cursor cursor, struct agx_ir_instr *instr)
{
	switch (cursor.kind) {
	case AGX_IR_CURSOR_BLOCK_START:
		agx_ir_link_insert_before(cursor.block->instrs.next, &instr->link);
		break;
	case AGX_IR_CURSOR_BLOCK_END:
		agx_ir_link_insert_before(&cursor.block->instrs, &instr->link);
		break;
	case AGX_IR_CURSOR_BEFORE_INSTR:
		agx_ir_link_insert_before(&cursor.instr->link, &instr->link);
		break;
	case AGX_IR_CURSOR_AFTER_INSTR:
		agx_ir_link_insert_before(cursor.instr->link.next, &instr->link);
		break;
	}
	instr->block = cursor.block;
}

/* Out of its def's use list, if in one. */
static void src_unlink(struct agx_ir_src *src)
{
	if (src->def && src->use_link.next)
		agx_ir_link_remove(&src->use_link);
}

void agx_ir_instr_remove(struct agx_ir_instr *instr)
{
	if (instr->removed)
		return;
	agx_ir_link_remove(&instr->link);
	agx_ir_foreach_src(instr, src)
		src_unlink(src);
	instr->removed = true;
}

void agx_ir_src_set(struct agx_ir_src *src, struct agx_ir_value v)
{
	src_unlink(src);
	src->def = v.def;
	src->imm = v.def ? 0 : v.imm;
	src->type = v.def ? v.def->type : v.type;
	if (v.def)
		agx_ir_link_insert_before(&v.def->uses, &src->use_link);
}

void agx_ir_def_rewrite_uses(struct agx_ir_def *def, struct agx_ir_value v)
{
	if (v.def == def)
		return;
	agx_ir_foreach_use_safe(def, src)
		agx_ir_src_set(src, v);
}

unsigned agx_ir_def_num_uses(const struct agx_ir_def *def)
{
	unsigned n = 0;

	for (const struct agx_ir_link *l = def->uses.next; l != &def->uses; l = l->next)
		n++;
	return n;
}

/* Room for one more source; the copies take the old sources' places in their use lists. */
static void grow_srcs(struct agx_ir_shader *shader, struct agx_ir_instr *instr)
{
	unsigned cap = instr->src_capacity ? 2 * instr->src_capacity : 2;
	struct agx_ir_src *grown;

	if (instr->num_srcs < instr->src_capacity)
		return;
	grown = agx_ir_shader_alloc(shader, cap * sizeof(*grown));
	for (unsigned i = 0; i < instr->num_srcs; i++) {
		grown[i] = instr->src[i];
		if (grown[i].def && grown[i].use_link.next) {
			grown[i].use_link.prev->next = &grown[i].use_link;
			grown[i].use_link.next->prev = &grown[i].use_link;
		}
	}
	instr->src = grown;
	instr->src_capacity = cap;
}

void agx_ir_phi_add_src(struct agx_ir_instr *phi, struct agx_ir_block *pred, struct agx_ir_value v)
{
	struct agx_ir_src *src;

	grow_srcs(pred->func->shader, phi);
	src = &phi->src[phi->num_srcs++];
	src->instr = phi;
	src->pred = pred;
	agx_ir_src_set(src, v);
}

void agx_ir_instr_add_src(struct agx_ir_instr *instr, struct agx_ir_value v)
{
	struct agx_ir_src *src;

	grow_srcs(instr->block->func->shader, instr);
	src = &instr->src[instr->num_srcs++];
	src->instr = instr;
	src->pred = NULL;
	agx_ir_src_set(src, v);
}

bool agx_ir_tex_layout(enum agx_ir_op op, const uint32_t *imm, struct agx_ir_tex_layout *out)
{
	/* coordinates by textype (g13.isa); 4 and 8 (multisampled) are not GLES 3.0's */
	static const unsigned coords[8] = { 1, 1, 2, 2, 0, 3, 3, 3 };
	unsigned dim = imm[1], lod = imm[2], n = 0;

	if (dim >= 8 || !coords[dim] || imm[5] > 3)
		return false;
	*out = (struct agx_ir_tex_layout){
		.coords = coords[dim], .layer = -1, .lod = -1, .grad = -1, .reference = -1
	};
	n = out->coords;
	if (dim == 1 || dim == 3 || dim == 7)
		out->layer = (int)n++;
	if (op == AGX_IR_OP_texture_load) {
		/* texelFetch has no cube forms */
		if (lod != 6 || imm[3] || dim >= 6)
			return false;
		out->lod = (int)n++;
	} else if (lod == 5 || lod == 6) {
		out->lod = (int)n++;
	} else if (lod == 4) {
		out->grad = (int)n;
		n += 2 * out->coords;
	} else if (lod != 0) {
		return false;
	}
	if (imm[3])
		out->reference = (int)n++;
	out->num_srcs = n;
	return true;
}

struct agx_ir_src *agx_ir_phi_src(struct agx_ir_instr *phi, struct agx_ir_block *pred)
{
	agx_ir_foreach_src(phi, src) {
		if (src->pred == pred)
			return src;
	}
	return NULL;
}

/* ---- inserting control flow ------------------------------------------------------ */

/*
 * Puts node after the cursor's block and a new block after node, and
 * moves what follows the cursor there.  The edges that left the block now
 * leave the new one, so phis naming the block as their predecessor name it.
 */
static void split_block(struct agx_ir_cursor cursor, struct agx_ir_cf_node *node)
{
	struct agx_ir_block *block = cursor.block, *after = block_create(block->func);
	struct agx_ir_instr *move = NULL;

	cf_node_insert_after(&block->node, node);
	cf_node_insert_after(node, &after->node);

	switch (cursor.kind) {
	case AGX_IR_CURSOR_BLOCK_START:
		move = agx_ir_block_first_instr(block);
		break;
	case AGX_IR_CURSOR_BLOCK_END:
		break;
	case AGX_IR_CURSOR_BEFORE_INSTR:
		move = cursor.instr;
		break;
	case AGX_IR_CURSOR_AFTER_INSTR:
		move = agx_ir_instr_next(cursor.instr);
		break;
	}
	while (move) {
		struct agx_ir_instr *next = agx_ir_instr_next(move);

		agx_ir_link_remove(&move->link);
		agx_ir_link_insert_before(&after->instrs, &move->link);
		move->block = after;
		move = next;
	}

	agx_ir_foreach_block(block->func, b) {
		agx_ir_foreach_instr(b, instr) {
			if (instr->op != AGX_IR_OP_phi)
				break;
			agx_ir_foreach_src(instr, src) {
				if (src->pred == block)
					src->pred = after;
			}
		}
	}
}

struct agx_ir_if *agx_ir_if_insert(struct agx_ir_cursor cursor, struct agx_ir_value cond)
{
	struct agx_ir_function *func = cursor.block->func;
	struct agx_ir_if *nif = agx_ir_shader_alloc(func->shader, sizeof(*nif));

	nif->node.type = AGX_IR_CF_IF;
	cf_list_init(&nif->then_list, &nif->node);
	cf_list_init(&nif->else_list, &nif->node);
	cf_list_append(&nif->then_list, &block_create(func)->node);
	cf_list_append(&nif->else_list, &block_create(func)->node);
	nif->cond.if_node = nif;
	agx_ir_src_set(&nif->cond, cond);
	split_block(cursor, &nif->node);
	return nif;
}

struct agx_ir_loop *agx_ir_loop_insert(struct agx_ir_cursor cursor)
{
	struct agx_ir_function *func = cursor.block->func;
	struct agx_ir_loop *loop = agx_ir_shader_alloc(func->shader, sizeof(*loop));

	loop->node.type = AGX_IR_CF_LOOP;
	cf_list_init(&loop->body, &loop->node);
	cf_list_append(&loop->body, &block_create(func)->node);
	split_block(cursor, &loop->node);
	return loop;
}

const char *agx_ir_cf_node_describe(const struct agx_ir_cf_node *node)
{
	if (!node)
		return "nothing";
	switch (node->type) {
	case AGX_IR_CF_BLOCK:
		return "a block";
	case AGX_IR_CF_IF:
		return "an if";
	case AGX_IR_CF_LOOP:
		return "a loop";
	default:
		return "a function";
	}
}

/*
 * agx_ir.h: the shader compiler's IR (docs/compiler.md, "The IR").  A
 * shader is a list of functions; a function's body is a tree of control
 * flow nodes -- blocks of instructions, ifs and loops -- and its values are
 * scalar SSA defs, each written by one instruction.  Every pass is declared
 * here, on one line, at the end.
 *
 * Memory: everything a shader holds comes from its arena and goes with
 * agx_ir_shader_destroy().  Removed instructions stay readable (flagged
 * removed) until then, which is what lets the validator name a use of a
 * removed def instead of reading freed memory.
 */
#ifndef AGX_IR_H
#define AGX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agx/compiler.h"
#include "agx_ir_ops.h"

/* ---- types and ops ------------------------------------------------------ */

enum agx_ir_type {
	AGX_IR_TYPE_NONE,
	AGX_IR_TYPE_B1,
	AGX_IR_TYPE_I16,
	AGX_IR_TYPE_I32,
	AGX_IR_TYPE_F16,
	AGX_IR_TYPE_F32,
};

/* 1, 16 or 32; 0 for NONE. */
unsigned agx_ir_type_bits(enum agx_ir_type type);
bool agx_ir_type_is_float(enum agx_ir_type type);
bool agx_ir_type_is_int(enum agx_ir_type type);
/* "b1", "i16", "i32", "f16", "f32", "none". */
const char *agx_ir_type_name(enum agx_ir_type type);

/* AGX_IR_OP_fadd, ...: the table's names as they are (QEMU's tcg does the same). */
#define AGX_IR_OP_ENUM(name, ...) AGX_IR_OP_##name,
enum agx_ir_op { AGX_IR_OPS(AGX_IR_OP_ENUM) AGX_IR_NUM_OPS };
#undef AGX_IR_OP_ENUM

struct agx_ir_op_info {
	const char *name;
	enum agx_ir_class dest; /* AGX_IR_CLASS_NONE: no destination */
	unsigned num_srcs, num_imms;
	enum agx_ir_class src[AGX_IR_MAX_SRCS];
	const char *imm[AGX_IR_MAX_IMMS];
	unsigned flags; /* enum agx_ir_op_flag */
};

extern const struct agx_ir_op_info agx_ir_op_table[AGX_IR_NUM_OPS];

static inline const struct agx_ir_op_info *agx_ir_op_info(enum agx_ir_op op)
{
	return &agx_ir_op_table[op];
}

/* ---- intrusive lists ---------------------------------------------------- */

/* A circular list: the head is a link that is no element. */
struct agx_ir_link {
	struct agx_ir_link *prev, *next;
};

#define agx_ir_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

static inline void agx_ir_link_init(struct agx_ir_link *head)
{
	head->prev = head->next = head;
}

static inline bool agx_ir_link_empty(const struct agx_ir_link *head)
{
	return head->next == head;
}

/* Puts l just before pos (before the head: at the end). */
static inline void agx_ir_link_insert_before(struct agx_ir_link *pos, struct agx_ir_link *l)
{
	l->prev = pos->prev;
	l->next = pos;
	pos->prev->next = l;
	pos->prev = l;
}

static inline void agx_ir_link_remove(struct agx_ir_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
	l->prev = l->next = NULL;
}

/* ---- values ------------------------------------------------------------- */

struct agx_ir_shader;
struct agx_ir_function;
struct agx_ir_block;
struct agx_ir_instr;
struct agx_ir_if;

/* An SSA value: the destination of one instruction. */
struct agx_ir_def {
	struct agx_ir_instr *instr; /* the instruction that writes it */
	unsigned index;		    /* its number, unique in its function ("%index") */
	enum agx_ir_type type;
	struct agx_ir_link uses; /* of struct agx_ir_src, use_link */
};

/*
 * What a source reads, by value: a def, or (def NULL) an immediate of a
 * type.  The builder returns them and takes them.  The immediate's bits
 * are the value's: a float's IEEE bits, an f16's in the low half, 0 or 1
 * for a b1.
 */
struct agx_ir_value {
	struct agx_ir_def *def;
	uint32_t imm;
	enum agx_ir_type type;
};

/* A read of a value by an instruction, or by an if as its condition. */
struct agx_ir_src {
	struct agx_ir_def *def; /* NULL: the immediate imm */
	uint32_t imm;
	enum agx_ir_type type;	     /* the immediate's (agx_ir_src_type() for either) */
	struct agx_ir_instr *instr;  /* the reader, or NULL ... */
	struct agx_ir_if *if_node;   /* ... for the condition of this if */
	struct agx_ir_block *pred;   /* a phi's source: the predecessor it comes from */
	struct agx_ir_link use_link; /* in def->uses */
};

static inline enum agx_ir_type agx_ir_src_type(const struct agx_ir_src *src)
{
	return src->def ? src->def->type : src->type;
}

static inline struct agx_ir_value agx_ir_def_value(struct agx_ir_def *def)
{
	return (struct agx_ir_value){ .def = def, .type = def->type };
}

static inline struct agx_ir_value agx_ir_src_value(const struct agx_ir_src *src)
{
	return (
	    struct agx_ir_value){ .def = src->def, .imm = src->imm, .type = agx_ir_src_type(src) };
}

static inline struct agx_ir_value agx_ir_imm(enum agx_ir_type type, uint32_t bits)
{
	return (struct agx_ir_value){ .imm = bits, .type = type };
}

/* Round to nearest even, as the ISA's f16 conversions (NaN stays NaN). */
uint16_t agx_ir_f32_to_f16(float f);
float agx_ir_f16_to_f32(uint16_t h);

/* ---- instructions ------------------------------------------------------- */

struct agx_ir_instr {
	struct agx_ir_link link; /* in block->instrs */
	struct agx_ir_block *block;
	enum agx_ir_op op;
	bool removed;
	unsigned index;		/* program order, set by agx_ir_function_index_instrs() */
	unsigned pass_flags;	/* the running pass's own, undefined at its start */
	struct agx_ir_def dest; /* when the op has one: agx_ir_instr_dest() */
	unsigned num_srcs, src_capacity;
	struct agx_ir_src *src;
	uint32_t imm[AGX_IR_MAX_IMMS]; /* named by agx_ir_op_info(op)->imm */
};

static inline struct agx_ir_def *agx_ir_instr_dest(struct agx_ir_instr *instr)
{
	return agx_ir_op_table[instr->op].dest != AGX_IR_CLASS_NONE ? &instr->dest : NULL;
}

/* ---- control flow ------------------------------------------------------- */

enum agx_ir_cf_type {
	AGX_IR_CF_BLOCK,
	AGX_IR_CF_IF,
	AGX_IR_CF_LOOP,
	AGX_IR_CF_FUNCTION,
};

/*
 * A list of nodes: it starts and ends with a block, and between two ifs
 * or loops there is always one, so that "the block after an if" and "a
 * loop's first block" exist.  Two blocks never follow each other.
 */
struct agx_ir_cf_list {
	struct agx_ir_link nodes; /* of struct agx_ir_cf_node, link */
	struct agx_ir_cf_node *owner;
};

struct agx_ir_cf_node {
	enum agx_ir_cf_type type;
	struct agx_ir_link link;
	struct agx_ir_cf_list *list; /* the list it is in; NULL for a function */
};

struct agx_ir_block {
	struct agx_ir_cf_node node;
	struct agx_ir_function *func;
	struct agx_ir_link instrs; /* of struct agx_ir_instr: phis first */
	unsigned index;		   /* program order: agx_ir_function_index_blocks() */
	unsigned pass_flags;

	/* Derived: agx_ir_function_compute_cfg(); preds in program order. */
	struct agx_ir_block *succs[2];
	unsigned num_succs, num_preds;
	struct agx_ir_block **preds;
	unsigned pred_capacity;

	/* Derived: agx_ir_function_compute_dominance(). */
	bool reachable; /* from the function's first block */
	struct agx_ir_block *idom;
	struct agx_ir_block **dom_children;
	unsigned num_dom_children, dom_children_capacity;
	unsigned dom_pre, dom_post; /* numbers of a walk of the dominator tree */
};

/* The condition is read at the end of the block before the if. */
struct agx_ir_if {
	struct agx_ir_cf_node node;
	struct agx_ir_src cond;
	struct agx_ir_cf_list then_list, else_list;
};

/* Left by break; continue, or falling off the body's end, goes back to its start. */
struct agx_ir_loop {
	struct agx_ir_cf_node node;
	struct agx_ir_cf_list body;
};

struct agx_ir_function {
	struct agx_ir_cf_node node;
	struct agx_ir_shader *shader;
	struct agx_ir_link link; /* in shader->functions */
	const char *name;
	struct agx_ir_cf_list body;
	unsigned num_defs; /* def indices are below it */
};

enum agx_ir_stage {
	AGX_IR_STAGE_COMPUTE,
	AGX_IR_STAGE_VERTEX,
	AGX_IR_STAGE_FRAGMENT,
};

struct agx_ir_chunk;

/* ---- the shader's interface ---------------------------------------------- */

/*
 * What the shader reads and writes besides its registers: the variables
 * the translator found, which lowering gives places and reflection
 * reports.  Names are the SPIR-V's (a lowered shader's renamed
 * identifiers: agx_glsl_original_name() maps them back).
 */
enum agx_ir_var_kind {
	AGX_IR_VAR_INPUT,   /* vertex attribute or fragment varying: load_input */
	AGX_IR_VAR_OUTPUT,  /* varying, gl_Position, fragment colour or depth: store_output */
	AGX_IR_VAR_UNIFORM, /* default-block uniform: load_uniform (offset, size) */
	AGX_IR_VAR_UBO,	    /* uniform block: load_ubo (binding, size) */
	AGX_IR_VAR_SSBO,    /* storage block: load_ssbo, store_ssbo, atomics (binding, size) */
	AGX_IR_VAR_SAMPLER, /* sampler (binding) */
	AGX_IR_VAR_SHARED,  /* shared variable: load_shared, store_shared (offset, size) */
};

enum agx_ir_interp {
	AGX_IR_INTERP_SMOOTH,
	AGX_IR_INTERP_FLAT,
	AGX_IR_INTERP_CENTROID,
	AGX_IR_INTERP_NOPERSPECTIVE,
};

/* Locations of the built-in outputs and inputs (load_input, store_output). */
/* the reflection's (agx/compiler.h) */
#define AGX_IR_LOCATION_POSITION    AGX_SHADER_LOCATION_POSITION /* 4 components */
#define AGX_IR_LOCATION_POINT_SIZE  AGX_SHADER_LOCATION_POINT_SIZE
#define AGX_IR_LOCATION_FRAG_DEPTH  AGX_SHADER_LOCATION_FRAG_DEPTH
#define AGX_IR_LOCATION_POINT_COORD AGX_SHADER_LOCATION_POINT_COORD /* 2 components */
#define AGX_IR_LOCATION_DUAL_SOURCE AGX_SHADER_LOCATION_DUAL_SOURCE /* 4 components */
#define AGX_IR_LOCATION_CLIP_DISTANCE                                                              \
	AGX_SHADER_LOCATION_CLIP_DISTANCE			/* a location per distance */
#define AGX_IR_LOCATION_CULL_FLAG AGX_SHADER_LOCATION_CULL_FLAG /* a location per distance */

struct agx_ir_var {
	enum agx_ir_var_kind kind;
	const char *name;
	/* GLSL's name of the type of one element: "float", "vec4", "mat3", "ivec2", "sampler2D", a
	 * block's name */
	const char *glsl_type;
	enum agx_ir_type type; /* of one component (NONE for blocks and samplers) */
	unsigned components;   /* 32-bit components of one element (a mat3 has 9) */
	unsigned array_size;   /* 0: not an array */
	unsigned location;     /* inputs, outputs, uniforms (AGX_IR_LOCATION_* for built-ins) */
	unsigned binding;      /* blocks, samplers */
	unsigned offset,
	    size; /* bytes: default-block uniforms and shared variables; a block's size */
	enum agx_ir_interp interp;
	/* Lowering's placement: the first 32-bit uniform register holding it (a
	 * block's 64-bit address, a uniform's value), or -1 when it has none. */
	int uniform;
	/* Lowering's placement of graphics I/O, or -1: a vertex output's first
	 * 32-bit output slot, a fragment input's first coefficient register.
	 * A sampler's: its first texture unit (the translator's). */
	int slot;
	/* A storage block whose .length() the shader reads (the translator
	 * says), and lowering's register holding its bound size in bytes, one
	 * per element (-1 when not sized). */
	bool sized;
	int size_uniform;
};

/*
 * A default-block uniform as GL names it (GLES 3.0 section 2.12.6): each
 * basic-typed leaf of a var's type -- "s.f", "s[1].f", an array of basic
 * types once ("a", its elements a[i]) -- with where its std140 layout puts
 * it in the default block.
 */
struct agx_ir_uniform_leaf {
	const char *name;      /* the SPIR-V's names, joined ("s[1].f") */
	const char *glsl_type; /* "float", "vec4", "mat3", "sampler2D" */
	unsigned var;	       /* index of the var it is part of */
	unsigned array_size;   /* 0: not an array */
	unsigned offset;       /* bytes into the default block (not for samplers) */
	unsigned array_stride, matrix_stride;
};

struct agx_ir_shader {
	enum agx_ir_stage stage;
	struct agx_ir_link functions; /* of struct agx_ir_function, link */
	struct agx_ir_chunk *chunks;  /* the arena */

	struct agx_ir_var *vars; /* in the arena; grows by agx_ir_shader_add_var() */
	unsigned num_vars, var_capacity;
	struct agx_ir_uniform_leaf *leaves; /* in the arena: agx_ir_shader_add_leaf() */
	unsigned num_leaves, leaf_capacity;
	unsigned local_size[3]; /* compute */
	unsigned shared_size;	/* bytes of shared variables */
	unsigned uniform_size;	/* bytes of default-block uniforms */
	bool early_fragment_tests;

	/* Lowering's placements (agx_lower_io), -1 for none: the uniform
	 * registers of gl_NumWorkGroups (x, y, z), and the pair holding the
	 * address of the default-block uniforms when they did not fit the
	 * uniform registers (then read from memory, at their offsets). */
	int num_workgroups_uniform;
	int uniform_block_uniform;
	int blend_constant_uniform; /* four registers: the blend colour */
	/*
	 * Transform feedback (agx_lower_xfb): the words of a record in each
	 * buffer (0: not written), and where agx_lower_io placed the
	 * registers agx_shader_info.xfb_uniform describes.
	 */
	uint8_t xfb_stride[AGX_MAX_XFB_BUFFERS];
	int xfb_uniform;
	/* A vertex shader's attribute arrays (agx_compile_options.attribs), for agx_lower_io. */
	struct agx_vertex_attrib attribs[AGX_MAX_VERTEX_ATTRIBS];
	unsigned num_uniforms; /* 32-bit uniform registers placed, from u0 */
};

/* Appends a copy of var (its strings copied into the arena); returns its index. */
unsigned agx_ir_shader_add_var(struct agx_ir_shader *shader, const struct agx_ir_var *var);
/* Appends a copy of leaf (its strings copied into the arena). */
void agx_ir_shader_add_leaf(struct agx_ir_shader *shader, const struct agx_ir_uniform_leaf *leaf);

#define agx_ir_node_block(n)	agx_ir_container_of(n, struct agx_ir_block, node)
#define agx_ir_node_if(n)	agx_ir_container_of(n, struct agx_ir_if, node)
#define agx_ir_node_loop(n)	agx_ir_container_of(n, struct agx_ir_loop, node)
#define agx_ir_node_function(n) agx_ir_container_of(n, struct agx_ir_function, node)

/* ---- shaders, functions ------------------------------------------------- */

/* NULL when out of memory; the arena aborts on exhaustion after that. */
struct agx_ir_shader *agx_ir_shader_create(enum agx_ir_stage stage);
void agx_ir_shader_destroy(struct agx_ir_shader *shader);
/* Zeroed memory that lives as long as the shader. */
void *agx_ir_shader_alloc(struct agx_ir_shader *shader, size_t size);
const char *agx_ir_stage_name(enum agx_ir_stage stage);

/* A function whose body is one empty block; name is copied. */
struct agx_ir_function *agx_ir_function_create(struct agx_ir_shader *shader, const char *name);

struct agx_ir_function *agx_ir_shader_first_function(struct agx_ir_shader *shader);
struct agx_ir_function *agx_ir_function_next(struct agx_ir_function *func);

#define agx_ir_foreach_function(shader, f)                                                         \
	for (struct agx_ir_function *f = agx_ir_shader_first_function(shader); f;                  \
	     f = agx_ir_function_next(f))

/* ---- navigating the control flow tree ------------------------------------ */

struct agx_ir_cf_node *agx_ir_cf_node_next(struct agx_ir_cf_node *node);
/* "a block", "an if", "a loop", "a function"; "nothing" for NULL: for messages. */
const char *agx_ir_cf_node_describe(const struct agx_ir_cf_node *node);
struct agx_ir_cf_node *agx_ir_cf_node_prev(struct agx_ir_cf_node *node);
/* The if, loop or function whose list holds node; NULL for a function. */
struct agx_ir_cf_node *agx_ir_cf_node_parent(struct agx_ir_cf_node *node);
struct agx_ir_block *agx_ir_cf_list_first_block(struct agx_ir_cf_list *list);
struct agx_ir_block *agx_ir_cf_list_last_block(struct agx_ir_cf_list *list);
/* The blocks just before and after an if or a loop in its list. */
struct agx_ir_block *agx_ir_cf_node_block_before(struct agx_ir_cf_node *node);
struct agx_ir_block *agx_ir_cf_node_block_after(struct agx_ir_cf_node *node);
/* The innermost loop holding block (through ifs), or NULL. */
struct agx_ir_loop *agx_ir_block_loop(struct agx_ir_block *block);

struct agx_ir_block *agx_ir_function_first_block(struct agx_ir_function *func);
struct agx_ir_block *agx_ir_function_last_block(struct agx_ir_function *func);
/* Program order: a block, then what its next node holds, depth first. */
struct agx_ir_block *agx_ir_block_next(struct agx_ir_block *block);
struct agx_ir_block *agx_ir_block_prev(struct agx_ir_block *block);

#define agx_ir_foreach_block(func, b)                                                              \
	for (struct agx_ir_block *b = agx_ir_function_first_block(func); b;                        \
	     b = agx_ir_block_next(b))

#define agx_ir_foreach_block_rev(func, b)                                                          \
	for (struct agx_ir_block *b = agx_ir_function_last_block(func); b; b = agx_ir_block_prev(b))

/* Numbers the function's blocks (instructions) in program order from 0; returns the count. */
unsigned agx_ir_function_index_blocks(struct agx_ir_function *func);
unsigned agx_ir_function_index_instrs(struct agx_ir_function *func);

/* ---- instructions in blocks --------------------------------------------- */

struct agx_ir_instr *agx_ir_block_first_instr(struct agx_ir_block *block);
struct agx_ir_instr *agx_ir_block_last_instr(struct agx_ir_block *block);
struct agx_ir_instr *agx_ir_instr_next(struct agx_ir_instr *instr);
struct agx_ir_instr *agx_ir_instr_prev(struct agx_ir_instr *instr);

#define agx_ir_foreach_instr(block, i)                                                             \
	for (struct agx_ir_instr *i = agx_ir_block_first_instr(block); i; i = agx_ir_instr_next(i))

/* For loops that remove i. */
#define agx_ir_foreach_instr_safe(block, i)                                                        \
	for (struct agx_ir_instr *i = agx_ir_block_first_instr(block),                             \
				 *i##_next = i ? agx_ir_instr_next(i) : NULL;                      \
	     i; i = i##_next, i##_next = i ? agx_ir_instr_next(i) : NULL)

#define agx_ir_foreach_instr_rev(block, i)                                                         \
	for (struct agx_ir_instr *i = agx_ir_block_last_instr(block); i; i = agx_ir_instr_prev(i))

/* (An instruction without sources has no array: src is NULL, and NULL + 0 is no pointer.) */
#define agx_ir_foreach_src(instr, s)                                                               \
	for (struct agx_ir_src *s = (instr)->src, *s##_end = s ? s + (instr)->num_srcs : NULL;     \
	     s != s##_end; s++)

/* ---- cursors ------------------------------------------------------------ */

enum agx_ir_cursor_kind {
	AGX_IR_CURSOR_BLOCK_START,
	AGX_IR_CURSOR_BLOCK_END,
	AGX_IR_CURSOR_BEFORE_INSTR,
	AGX_IR_CURSOR_AFTER_INSTR,
};

/* A place between two instructions; removing its instruction makes it invalid. */
struct agx_ir_cursor {
	enum agx_ir_cursor_kind kind;
	struct agx_ir_block *block;
	struct agx_ir_instr *instr; /* BEFORE_INSTR, AFTER_INSTR */
};

static inline struct agx_ir_cursor agx_ir_cursor_start(struct agx_ir_block *block)
{
	return (struct agx_ir_cursor){ AGX_IR_CURSOR_BLOCK_START, block, NULL };
}

static inline struct agx_ir_cursor agx_ir_cursor_end(struct agx_ir_block *block)
{
	return (struct agx_ir_cursor){ AGX_IR_CURSOR_BLOCK_END, block, NULL };
}

static inline struct agx_ir_cursor agx_ir_cursor_before(struct agx_ir_instr *instr)
{
	return (struct agx_ir_cursor){ AGX_IR_CURSOR_BEFORE_INSTR, instr->block, instr };
}

static inline struct agx_ir_cursor agx_ir_cursor_after(struct agx_ir_instr *instr)
{
	return (struct agx_ir_cursor){ AGX_IR_CURSOR_AFTER_INSTR, instr->block, instr };
}

/* ---- creating, inserting, removing -------------------------------------- */

/*
 * A new instruction, in no block yet, with num_srcs sources reading
 * nothing (type NONE) and, when the op has one, a new def of type NONE for
 * the caller to set; use agx_builder.h for anything else.
 */
struct agx_ir_instr *agx_ir_instr_create(struct agx_ir_function *func, enum agx_ir_op op,
					 unsigned num_srcs);
void agx_ir_instr_insert(struct agx_ir_cursor cursor, struct agx_ir_instr *instr);
/*
 * Takes instr out of its block and its sources out of their defs' use
 * lists.  Whatever still reads its def is invalid until rewritten.
 */
void agx_ir_instr_remove(struct agx_ir_instr *instr);

/* Makes src read v, keeping the use lists. */
void agx_ir_src_set(struct agx_ir_src *src, struct agx_ir_value v);
/* Makes every reader of def (instructions, phis, if conditions) read v. */
void agx_ir_def_rewrite_uses(struct agx_ir_def *def, struct agx_ir_value v);
unsigned agx_ir_def_num_uses(const struct agx_ir_def *def);

static inline bool agx_ir_def_has_uses(const struct agx_ir_def *def)
{
	return !agx_ir_link_empty(&def->uses);
}

/* def's readers in the order they were added; NULL after the last. */
static inline struct agx_ir_src *agx_ir_def_first_use(struct agx_ir_def *def)
{
	if (agx_ir_link_empty(&def->uses))
		return NULL;
	return agx_ir_container_of(def->uses.next, struct agx_ir_src, use_link);
}

static inline struct agx_ir_src *agx_ir_def_next_use(struct agx_ir_def *def, struct agx_ir_src *s)
{
	if (!s || s->use_link.next == &def->uses)
		return NULL;
	return agx_ir_container_of(s->use_link.next, struct agx_ir_src, use_link);
}

#define agx_ir_foreach_use(def, s)                                                                 \
	for (struct agx_ir_src *s = agx_ir_def_first_use(def); s; s = agx_ir_def_next_use(def, s))

/* For loops that rewrite s (it leaves def's list). */
#define agx_ir_foreach_use_safe(def, s)                                                            \
	for (struct agx_ir_src *s = agx_ir_def_first_use(def),                                     \
			       *s##_next = agx_ir_def_next_use(def, s);                            \
	     s; s = s##_next, s##_next = agx_ir_def_next_use(def, s))

/* Adds a source to a phi: v, coming from pred. */
void agx_ir_phi_add_src(struct agx_ir_instr *phi, struct agx_ir_block *pred, struct agx_ir_value v);
/* The phi's source from pred, or NULL. */
struct agx_ir_src *agx_ir_phi_src(struct agx_ir_instr *phi, struct agx_ir_block *pred);
/* Appends a source to an instruction of a VARIADIC op (a texture op's, in layout order). */
void agx_ir_instr_add_src(struct agx_ir_instr *instr, struct agx_ir_value v);

/*
 * Where a texture op's sources are (agx_ir_ops.h, "Textures"): the index
 * of the first of each kind, or -1 when the op has none; coords and
 * grad count their sources.  false when the indices name no layout (an
 * unknown dim or lod mode, compare on texture_load).
 */
struct agx_ir_tex_layout {
	unsigned coords; /* 1, 2 or 3 coordinates from source 0 */
	int layer;	 /* an array's layer */
	int lod;	 /* the bias, the LOD or texture_load's level */
	int grad;	 /* 2 * coords gradients: dPdx of each coordinate, then dPdy */
	int reference;	 /* the compare value */
	unsigned num_srcs;
};
bool agx_ir_tex_layout(enum agx_ir_op op, const uint32_t *imm, struct agx_ir_tex_layout *out);

/*
 * Structured control flow, inserted at a cursor: the cursor's block is
 * split there, the instructions after it going to a new block after the
 * new node; phis that named the block as their predecessor name the new
 * block.  An if starts with an empty block in each arm, a loop with one
 * in its body.
 */
struct agx_ir_if *agx_ir_if_insert(struct agx_ir_cursor cursor, struct agx_ir_value cond);
struct agx_ir_loop *agx_ir_loop_insert(struct agx_ir_cursor cursor);

/* ---- derived control flow graph, dominance ------------------------------- */

/*
 * Fills every block's preds and succs from the tree (and numbers blocks):
 * a block goes to the next node's first block(s), or at the end of a list
 * to the block after its if, or back to the start of its loop; break goes
 * to the block after the loop, continue to its start.  The last block of
 * the function has no successor.
 */
void agx_ir_function_compute_cfg(struct agx_ir_function *func);
/*
 * Computes the CFG, then the dominator tree (Cooper, Harvey and Kennedy's
 * iterative algorithm over reverse postorder).  Blocks no path reaches have
 * no idom.
 */
void agx_ir_function_compute_dominance(struct agx_ir_function *func);
/*
 * Whether every path from the function's start to b passes a (a == b
 * included), as of the last agx_ir_function_compute_dominance(); true,
 * vacuously, for an unreachable b.
 */
bool agx_ir_block_dominates(const struct agx_ir_block *a, const struct agx_ir_block *b);

/* ---- printing, validating, comparing ------------------------------------- */

void agx_ir_shader_print(struct agx_ir_shader *shader, FILE *fp);
/* "title:" and the shader, when fp is not NULL (the compiler's --ir output). */
void agx_ir_shader_dump(FILE *fp, const char *title, struct agx_ir_shader *shader);
void agx_ir_instr_print(struct agx_ir_instr *instr, FILE *fp);
/* The printed text, malloc'd (free() it); NULL when out of memory. */
char *agx_ir_shader_to_string(struct agx_ir_shader *shader);
char *agx_ir_instr_to_string(struct agx_ir_instr *instr);

/*
 * Checks the shader (docs/compiler.md lists what).  Recomputes the CFG and
 * dominance.  Returns true when it is valid; otherwise, when errors is not
 * NULL, *errors is a malloc'd text of one line per error.
 */
bool agx_ir_validate(struct agx_ir_shader *shader, char **errors);

/*
 * Whether a and b are the same shader, up to the numbering of their defs.
 * When they are not and why is not NULL, *why is a malloc'd description of
 * the first difference.
 */
bool agx_ir_equal(struct agx_ir_shader *a, struct agx_ir_shader *b, char **why);

/*
 * Runs a pass (it returns whether it changed anything) and, unless NDEBUG,
 * validates the result, aborting with the errors and the shader printed
 * when it is invalid.
 */
typedef bool (*agx_ir_pass_fn)(struct agx_ir_shader *shader);
bool agx_ir_pass_run(struct agx_ir_shader *shader, agx_ir_pass_fn pass, const char *name);
#define agx_pass(shader, pass) agx_ir_pass_run(shader, pass, #pass)
/* The same for a pass that takes the compile options: validates after it, returns its progress. */
bool agx_ir_pass_checked(struct agx_ir_shader *shader, bool progress, const char *name);
#define agx_pass_options(shader, pass, options)                                                    \
	agx_ir_pass_checked(shader, pass(shader, options), #pass)

/* ---- passes, one line each (agx_opt_<what>.c, agx_lower_<what>.c) --------- */

bool agx_opt_dce(struct agx_ir_shader *shader);	      /* dead instructions and phis */
bool agx_opt_copy_prop(struct agx_ir_shader *shader); /* readers of movs read their sources */
bool agx_lower_alu(struct agx_ir_shader *shader);     /* LOWERED arithmetic into selectable ops */
bool agx_lower_io(struct agx_ir_shader *shader); /* uniform-register ABI; memory onto *_global */
bool agx_opt_constant_fold(struct agx_ir_shader *shader); /* all-immediate ops, bit-exact */
bool agx_opt_algebraic(struct agx_ir_shader *shader);	  /* identities exact on the G13 */
bool agx_opt_cse(struct agx_ir_shader *shader);		  /* dominated repeats of PURE ops merged */
bool agx_opt_phi(struct agx_ir_shader *shader);		  /* phis of one value (or themselves) */
bool agx_opt_if(struct agx_ir_shader *shader); /* constant and empty ifs, loops run once */
struct agx_compile_options;
bool agx_lower_clip_z(
    struct agx_ir_shader *shader); /* GL's clip-space z onto the hardware's 0..w */
bool agx_lower_blend(
    struct agx_ir_shader *shader,
    const struct agx_compile_options *options); /* GL blending, colour masks: ld_tile */
bool agx_lower_xfb(struct agx_ir_shader *shader,
		   const struct agx_compile_options *options); /* captured outputs: store_xfb */
bool agx_lower_fetch(struct agx_ir_shader *shader,
		     const struct agx_compile_options *options); /* framebuffer fetch: ld_tile */
bool agx_lower_tests(struct agx_ir_shader *shader); /* late depth tests before colour stores */
/* agx_lower_tests.c: the colour stores before at in its block moved just after it, in order. */
bool agx_move_colour_stores_after(struct agx_ir_instr *at);
bool agx_lower_coverage(
    struct agx_ir_shader *shader,
    const struct agx_compile_options *options); /* alpha to coverage, GL's mask */
bool agx_lower_cull(struct agx_ir_shader *shader,
		    const struct agx_compile_options *options); /* cull distances: a discard */
bool agx_lower_robust(struct agx_ir_shader *shader,
		      const struct agx_compile_options *options); /* robust access: bounded reads */
bool agx_lower_pixel_order(struct agx_ir_shader *shader,
			   const struct agx_compile_options *options); /* wait_pix, signal_pix */

#endif

/*
 * agx_spirv_to_ir.h: the private interface of the SPIR-V translator
 * (agx_spirv_to_ir() in agx_compile.h; docs/compiler.md, "From SPIR-V to
 * the IR").  Its files share one context, struct tr:
 *
 *   agx_spirv_to_ir.c   the entry point, types, constants, the interface
 *                       variables, and the instructions of a block
 *   agx_spirv_memory.c  pointers: access chains, loads and stores of every
 *                       storage class
 *   agx_spirv_cf.c      structured control flow, inlining and the SSA
 *                       construction of variables (slots, states, phis)
 *   agx_spirv_glsl450.c the GLSL.std.450 extended instructions and the
 *                       matrix built-ins, expanded into IR ops
 *
 * Every SPIR-V value is kept flattened: a vector, matrix, array or struct
 * is its scalars in order (members, elements, columns, components).
 */
#ifndef AGX_SPIRV_TO_IR_H
#define AGX_SPIRV_TO_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agx/spirv.h"
#include "agx_builder.h"
#include "agx_ir.h"

/* Limits on what untrusted SPIR-V can make the translator build. */
#define TR_MAX_SCALARS	    1024       /* scalars of one value loaded or computed at once */
#define TR_BIG		    (1u << 30) /* a type's scalar count saturates here */
#define TR_MAX_ARRAY	    (1u << 24) /* elements of an array type */
#define TR_MAX_SLOTS	    16384      /* scalars of all function variables and hidden values */
#define TR_MAX_DEFS	    (1u << 20) /* IR values of the translated shader */
#define TR_MAX_ARENA	    (256u << 20)
#define TR_MAX_CALL_DEPTH   64
#define TR_MAX_NESTING	    400 /* constructs nested inside one another */
#define TR_MAX_ESCAPES	    64	/* escape targets active at once (one bit each) */
#define TR_MAX_UNIFORM_SIZE (1u << 20)

enum tr_type_kind {
	TR_T_NONE,
	TR_T_VOID,
	TR_T_BOOL,
	TR_T_INT,
	TR_T_FLOAT,
	TR_T_VECTOR,
	TR_T_MATRIX,
	TR_T_ARRAY,
	TR_T_RUNTIME_ARRAY,
	TR_T_STRUCT,
	TR_T_POINTER,
	TR_T_FUNCTION,
	TR_T_IMAGE,
	TR_T_SAMPLER,
	TR_T_SAMPLED_IMAGE,
};

struct tr_type {
	enum tr_type_kind kind;
	uint32_t id;
	bool is_signed; /* int */
	unsigned len;	/* vector components, matrix columns, array length, struct members */
	uint32_t elem;	/* component, column, element or pointee type; image: sampled type */
	const uint32_t *members; /* struct member types; function: return type then parameters */
	unsigned n;		 /* flattened scalars (TR_BIG and more: too many) */
	SpvStorageClass storage; /* pointer */
	unsigned dim, depth, arrayed, ms; /* image */
};

/* Where a variable lives, which says how a pointer into it is read and written. */
enum tr_var_kind {
	TR_VAR_SLOTS,	/* function, private and output variables: values in slots */
	TR_VAR_TABLE,	/* inputs and default-block uniforms: one read per scalar */
	TR_VAR_SSBO,	/* storage block: load_ssbo, store_ssbo, atomics */
	TR_VAR_UBO,	/* uniform block: load_ubo */
	TR_VAR_SHARED,	/* workgroup memory, laid out one 32-bit word per scalar */
	TR_VAR_SAMPLER, /* opaque */
};

/* How one scalar of a TR_VAR_TABLE variable is read. */
enum tr_read {
	TR_READ_INPUT,	 /* load_input a = location, b = component */
	TR_READ_UNIFORM, /* load_uniform a = byte offset */
	TR_READ_SYSVAL,	 /* op a (enum agx_ir_op), component b */
	TR_READ_CONST,	 /* the bits a */
	TR_READ_FRONT,	 /* load_front_facing */
	TR_READ_NONE,	 /* an unsupported built-in: -ENOTSUP when read */
};

struct tr_scalar_read {
	uint8_t how; /* enum tr_read */
	uint32_t a, b;
};

/* Where one scalar of an output variable is stored at the end (no location: never). */
struct tr_out_loc {
	uint32_t location, component;
	bool valid;
};

struct tr_var {
	enum tr_var_kind kind;
	uint32_t id;   /* the OpVariable */
	uint32_t type; /* the pointee type */
	SpvStorageClass storage;
	unsigned slot;		      /* TR_VAR_SLOTS: the first slot */
	struct tr_scalar_read *reads; /* TR_VAR_TABLE: one per scalar */
	struct tr_out_loc *out;	      /* outputs: one per scalar */
	unsigned binding;	      /* blocks, samplers */
	unsigned offset;	      /* shared: byte offset */
	unsigned unit;		      /* samplers: the first texture and sampler state register */
	bool sized;		      /* storage blocks: .length() reads the bound size */
	bool is_output;
};

/* A pointer: a variable and a place in it. */
struct tr_dyn {
	struct agx_ir_value index; /* i32 */
	unsigned count, stride;	   /* candidates, scalars between them */
};

struct tr_ptr {
	unsigned var;  /* index in tr.vars */
	uint32_t type; /* the pointee type */
	/* TR_VAR_SLOTS, TR_VAR_TABLE: the first scalar, and dynamic indices */
	unsigned base;
	unsigned num_dyn;
	struct tr_dyn *dyn;
	/* memory: the byte address, and how a matrix or vector pointee is laid out */
	struct agx_ir_value addr;
	bool row_major;
	unsigned matrix_stride; /* bytes between columns (rows when row-major) */
	unsigned vector_stride; /* bytes between a vector pointee's components */
	unsigned block;		/* an array of blocks: the element (binding = the var's + block) */
};

enum tr_val_kind {
	TR_V_NONE,
	TR_V_SSA,     /* scalars */
	TR_V_POINTER, /* ptr */
	TR_V_SAMPLER, /* a loaded sampler: var, and the element of an array of them */
};

struct tr_val {
	uint8_t kind;
	uint32_t type;
	unsigned element; /* TR_V_SAMPLER */
	union {
		struct agx_ir_value *s;
		struct tr_ptr *p;
		unsigned var;
	};
};

/* A SPIR-V block of a function. */
struct tr_block {
	uint32_t label;
	size_t first;	  /* the instruction after OpLabel */
	size_t term;	  /* its terminator */
	size_t merge;	  /* OpSelectionMerge or OpLoopMerge just before term, or SIZE_MAX */
	unsigned visited; /* the call instance that translated it */
};

struct tr_func {
	uint32_t id, type, ret_type;
	size_t first, end; /* OpFunction, OpFunctionEnd */
	unsigned first_block, num_blocks;
	unsigned first_param, num_params; /* instruction indices of OpFunctionParameter */
	bool active;			  /* being inlined */
};

/* The values of every slot on one path; missing ones (i >= n) are undefined. */
struct tr_state {
	struct agx_ir_value *v;
	unsigned n;
};

/*
 * How the paths of a construct end: `reaches`, some path gets to the end
 * of the IR list it was translated in (so that its last block is a
 * predecessor of what follows); `live`, some of those did not escape;
 * `mask`, which escape targets' flags may be set at the end.
 */
struct tr_path {
	bool reaches, live;
	uint64_t mask;
	struct tr_state st;
};

struct tr_break {
	struct agx_ir_block *block;
	struct tr_state st;
	uint64_t mask;
	struct tr_break *next;
};

/*
 * An escape target: a place a branch may jump to over the structure --
 * the end of a function (return), the merge of a switch (break), the
 * continue target of a loop (continue).  A path escaping sets the flag
 * slot and skips to the target under guards; loops also take breaks.
 */
enum tr_esc_kind { TR_ESC_FUNC, TR_ESC_LOOP, TR_ESC_SWITCH };

struct tr_escape {
	enum tr_esc_kind kind;
	unsigned flag;		 /* b1 slot */
	unsigned loop_depth;	 /* IR loops around the target */
	uint32_t merge, cont;	 /* LOOP: merge and continue target; SWITCH: merge */
	struct tr_break *breaks; /* LOOP */
	unsigned ret_slot;	 /* FUNC: the return value's first slot */
};

/* What follows a construct in a sequence: the rest of a block, or of a switch's cases. */
struct tr_switch;
struct tr_cont {
	uint32_t label;	      /* the block ... */
	size_t at;	      /* ... from this instruction, 0 for its start */
	uint32_t stop;	      /* the label ending the sequence, 0 for none */
	uint32_t loop_entry;  /* the loop header being entered (its merge is taken) */
	struct tr_switch *sw; /* not NULL: the cases of sw from case_index */
	unsigned case_index;
	struct agx_ir_value prev; /* the previous case's condition */
};

struct tr_chunk;

struct tr {
	const struct agx_spirv_module *m;
	enum agx_ir_stage stage;
	struct agx_ir_shader *shader;
	struct agx_ir_function *func;
	struct agx_builder b;
	char *log;
	int err;

	uint32_t glsl450; /* the GLSL.std.450 import id */
	uint32_t *index;  /* [id]: type, block or function index + 1 */
	struct tr_type *types;
	unsigned num_types;
	struct tr_val *vals; /* [id] */
	struct tr_block *blocks;
	unsigned num_blocks;
	struct tr_func *funcs;
	unsigned num_funcs;
	struct tr_var *vars;
	unsigned num_vars, var_capacity;
	uint32_t *names; /* [id]: index of its OpName + 1 */

	/* slots: the promoted variables and hidden values */
	enum agx_ir_type *slot_type;
	bool *slot_written; /* stored to (outputs are stored at the end if so) */
	bool *slot_dead;    /* of a call or construct that ended: never read again */
	uint32_t *phi_slot; /* [id]: the first slot of an OpPhi + 1 */
	struct tr_func *cur_func;
	unsigned num_slots, slot_capacity;
	struct tr_state cur; /* the path being translated */

	struct tr_escape esc[TR_MAX_ESCAPES];
	unsigned num_esc;
	unsigned loop_depth, nesting, call_depth;
	unsigned instance, num_instances; /* which inlined call is being translated */
	uint32_t block_label;		  /* the SPIR-V block being translated */

	struct agx_ir_value undef[AGX_IR_TYPE_F32 + 1];
	unsigned uniform_size, shared_size;
	unsigned num_units; /* texture and sampler state registers the samplers take */

	struct tr_chunk *chunks;
	size_t arena_size;
};

/* ---- agx_spirv_to_ir.c ---------------------------------------------------- */

int tr_fail(struct tr *t, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void *tr_alloc(struct tr *t, size_t size); /* zeroed, NULL (and t->err) past the budget */
const struct tr_type *tr_type(struct tr *t, uint32_t id);
enum agx_ir_type tr_scalar_type(const struct tr_type *type);
/* The IR types of the flattened scalars of a type of n <= TR_MAX_SCALARS scalars. */
int tr_flat_types(struct tr *t, uint32_t type, enum agx_ir_type *out);
/* The same for any size: out has room for the type's scalars (n < TR_BIG). */
void tr_flat_types_all(struct tr *t, uint32_t type, enum agx_ir_type *out);
/* The scalar offset and type of the part of type at literal indices idx. */
int tr_composite_index(struct tr *t, uint32_t type, const uint32_t *idx, unsigned n,
		       unsigned *offset, uint32_t *sub);
/* A value of id: its scalars, checked to be n of them (n = 0: any, *count says). */
int tr_get_ssa(struct tr *t, uint32_t id, struct agx_ir_value **s, unsigned *count);
/* Sets id to n scalars of type (copied), checking they are what the type says. */
int tr_set_ssa(struct tr *t, uint32_t id, uint32_t type, const struct agx_ir_value *s, unsigned n);
struct agx_ir_value tr_undef(struct tr *t, enum agx_ir_type type);
/* The type of id's value, 0 for none (an id out of bounds too). */
uint32_t tr_val_type(struct tr *t, uint32_t id);
bool tr_value_equal(struct agx_ir_value a, struct agx_ir_value b);
/* Translates one instruction that is not a terminator, a merge or a call. */
int tr_instruction(struct tr *t, const struct agx_spirv_inst *in);
/* Checks the budget of IR values. */
int tr_check_budget(struct tr *t);

/* ---- agx_spirv_memory.c ----------------------------------------------------- */

int tr_access_chain(struct tr *t, const struct agx_spirv_inst *in);
int tr_load(struct tr *t, const struct tr_ptr *p, struct agx_ir_value *out, unsigned n);
int tr_store(struct tr *t, const struct tr_ptr *p, const struct agx_ir_value *v, unsigned n);
int tr_get_ptr(struct tr *t, uint32_t id, struct tr_ptr **p);
int tr_atomic(struct tr *t, const struct agx_spirv_inst *in);
int tr_array_length(struct tr *t, const struct agx_spirv_inst *in);
/* A function-storage variable of the current instance (OpVariable in a block). */
int tr_local_variable(struct tr *t, const struct agx_spirv_inst *in);
/* The module's global variables: slots, tables, layouts, and shader->vars. */
int tr_global_variables(struct tr *t);
/* At the end of main: store_output of every output scalar written. */
void tr_store_outputs(struct tr *t);
/* The interface vars, once what was written is known. */
int tr_record_vars(struct tr *t);

/* ---- agx_spirv_cf.c --------------------------------------------------------- */

/* New slots of the flattened type's scalars (undefined); the first in *slot. */
int tr_alloc_slots(struct tr *t, uint32_t type, unsigned *slot);
int tr_alloc_slot(struct tr *t, enum agx_ir_type type, unsigned *slot);
struct agx_ir_value tr_slot_get(struct tr *t, unsigned slot);
void tr_slot_set(struct tr *t, unsigned slot, struct agx_ir_value v);
/* Translates the entry point (everything called inlined into it). */
int tr_main(struct tr *t, uint32_t func_id);
/* Removes the phis that chose one value (all sources it or the phi itself). */
void tr_remove_trivial_phis(struct tr *t);

/* ---- agx_spirv_glsl450.c ---------------------------------------------------- */

int tr_glsl450(struct tr *t, const struct agx_spirv_inst *in);

/* Matrix built-ins of the core instructions (OpMatrixTimes*, OpTranspose, OpOuterProduct, OpDot).
 */
int tr_matrix_op(struct tr *t, const struct agx_spirv_inst *in);
/* Sum of a[i] * b[i], i < n. */
struct agx_ir_value tr_dot(struct tr *t, const struct agx_ir_value *a, const struct agx_ir_value *b,
			   unsigned n);

/* ---- agx_spirv_texture.c ---------------------------------------------------- */

/* The state registers of the samplers, and the texture instructions (OpImage*). */
#define TR_MAX_UNITS 16
int tr_texture(struct tr *t, const struct agx_spirv_inst *in);
/* Elements of an opaque type: 1, or the product of its array lengths. */
unsigned tr_opaque_elements(struct tr *t, const struct tr_type *type);

#endif

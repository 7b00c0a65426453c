/*
 * agx_mir.h: the back end's private machine IR (docs/compiler.md, "The back
 * end").  Selection (agx_isel.c) turns lowered IR into one linear list of
 * G13 instructions over virtual registers, with the structured control
 * flow already spelled as execution-mask instructions; allocation
 * (agx_ra.c) gives every virtual register a place in the register file,
 * spilling to the stack when it must; agx_waits.c puts the waits in;
 * agx_emit.c writes each instruction as assembly text and encodes it with
 * the ISA table.
 *
 * An instruction is its mnemonic and operands in the assembler's order, so
 * the text of one is the mnemonic and the operands joined with commas.
 */
#ifndef AGX_MIR_H
#define AGX_MIR_H

#include <stdbool.h>
#include <stdint.h>

#include "agx/compiler.h"
#include "agx_ir.h"

#define MIR_MAX_OPDS 16

enum mir_opd_kind {
	MIR_NONE,
	MIR_VREG,    /* a virtual register: value = its number, offset in halves into it */
	MIR_PREG,    /* after allocation: value = the first 16-bit half (r5h is 11) */
	MIR_UNIFORM, /* value = the 32-bit uniform register; offset 1: a 16-bit read of its high
			half */
	MIR_IMM,     /* an integer: value, printed as a signed number when `sign` is set */
	MIR_FIMM,    /* an 8-bit float immediate: value is its encoding */
	MIR_TEXT,    /* a condition, an enumerated name, "lsl 2", "_": text */
	MIR_LABEL,   /* a branch target: value = the label's number */
};

enum mir_opd_flag {
	MIR_DST = 1 << 0, /* written, not read */
	MIR_NEG = 1 << 1,
	MIR_ABS = 1 << 2,
	MIR_SX = 1 << 3,
	MIR_SIGN = 1 << 4, /* an IMM printed signed */
	/* A texture's compare value and offset: a 32-bit register, then the next 16-bit half
	   ("r5_r6l"), of a 64-bit register */
	MIR_CMPOFF = 1 << 5,
};

struct mir_opd {
	uint8_t kind;	/* enum mir_opd_kind */
	uint8_t bits;	/* of a register or uniform: 16, 32 or 64; a tuple's register size */
	uint8_t offset; /* MIR_VREG: halves into the register */
	uint8_t count;	/* registers in a tuple (memory ops); 1 otherwise */
	uint8_t flags;	/* enum mir_opd_flag */
	uint32_t value;
	const char *text;
};

enum mir_op {
	MIR_OP_ISA,   /* one machine instruction: mnemonic and operands */
	MIR_OP_LABEL, /* a branch target: opd[0] is its MIR_LABEL */
	/*
	 * A parallel copy: destinations opd[0, n/2), sources opd[n/2, n),
	 * pairwise, read all before any is written -- phis on an incoming
	 * edge, and the halves of a register pair (cmpxchg's operand).
	 */
	MIR_OP_PCOPY,
};

/* Loads whose results arrive later (docs/compiler.md, "Waits"). */
#define MIR_ASYNC (1u << 0)
/* Control flow: a label, branch, execution-mask update or stop. */
#define MIR_CONTROL (1u << 1)

struct mir_instr {
	uint8_t op; /* enum mir_op */
	uint8_t num_opds;
	uint8_t flags; /* MIR_ASYNC, MIR_CONTROL */
	const char *mnem;
	struct mir_opd opd[MIR_MAX_OPDS];
};

/* A loop's instructions: [start, end], start its label, end its backward jump. */
struct mir_loop {
	unsigned start, end;
	int parent;	/* index of the loop around it, -1 */
	unsigned label; /* its label's number */
};

struct mir_vreg {
	uint8_t halves;	  /* 1, 2 or 4 16-bit halves */
	bool unspillable; /* a spill's own short-lived copy */
};

struct mir_program {
	struct mir_instr *instrs;
	unsigned num_instrs, cap_instrs;
	struct mir_vreg *vregs;
	unsigned num_vregs, cap_vregs;
	struct mir_loop *loops;
	unsigned num_loops, cap_loops;
	unsigned num_labels;
	unsigned scratch_size; /* bytes of stack per thread, for spills */
	unsigned num_registers;
	bool discards, writes_depth; /* selection saw discard, gl_FragDepth */
	int spill_textures;	     /* the spilled targets' first tsN/ssN, or -1 */
	unsigned num_spilled;
	char *log; /* malloc'd: why selection or allocation failed */
};

/* ---- building --------------------------------------------------------- */

/* A new virtual register of `bits` (16, 32, 64); returns its number. */
unsigned mir_vreg_new(struct mir_program *p, unsigned bits);
/* Appends an instruction (copied); returns its index. */
unsigned mir_append(struct mir_program *p, const struct mir_instr *in);
void mir_program_finish(struct mir_program *p);
/* Records why compilation failed (the first reason wins); returns err. */
int mir_fail(struct mir_program *p, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline struct mir_opd mir_vreg(unsigned v, unsigned bits)
{
	return (struct mir_opd){ .kind = MIR_VREG, .bits = (uint8_t)bits, .count = 1, .value = v };
}

static inline struct mir_opd mir_dst(unsigned v, unsigned bits)
{
	struct mir_opd o = mir_vreg(v, bits);

	o.flags = MIR_DST;
	return o;
}

static inline struct mir_opd mir_imm(uint32_t v)
{
	return (struct mir_opd){ .kind = MIR_IMM, .count = 1, .value = v };
}

static inline struct mir_opd mir_text(const char *t)
{
	return (struct mir_opd){ .kind = MIR_TEXT, .count = 1, .text = t };
}

/* The 8-bit float immediate encoding of f (f16 values too), or -1. */
int mir_float_imm(double f);

/*
 * Writes instruction in as assembly ("fadd r5, r3.neg, u4"); virtual
 * registers print as %vN (%vN+o for a half into one), labels as Ln or,
 * with label_pc, relative to pc.  Returns the length.
 */
int mir_print(const struct mir_instr *in, char *buf, unsigned size, const int64_t *label_pc,
	      int64_t pc);

/* ---- graphics I/O placement (agx_lower_io.c places, selection reads) ---- */

/* The var of kind whose locations include location, or NULL. */
const struct agx_ir_var *agx_io_var(const struct agx_ir_shader *shader, enum agx_ir_var_kind kind,
				    unsigned location);
/* The 32-bit word of var holding (location, component): matrix columns and
 * array elements in order, each location its share of the var's words. */
unsigned agx_io_word(const struct agx_ir_var *var, unsigned location, unsigned component);
/* The packed tile formats (rgb10a2, rg11b10f, rgb9e5): a whole pixel at once, never one component.
 */
bool agx_memformat_packed(enum agx_isa_memformat f);
/* The locations var covers (a matrix's columns, an array's elements). */
unsigned agx_io_locations(const struct agx_ir_var *var);
/* All the 32-bit words of var (every element). */
unsigned agx_io_words(const struct agx_ir_var *var);
/* The coefficient register of gl_FragCoord.z: 1 when a fragment shader reads it, else -1. */
int agx_io_frag_z_cf(struct agx_ir_shader *shader);

/* ---- the stages ------------------------------------------------------- */

/*
 * Selection: the lowered shader's function into p; 0, -ENOTSUP (p->log
 * says why).  options (may be NULL) gives a fragment shader's render targets.
 */
int agx_isel(struct agx_ir_shader *shader, const struct agx_compile_options *options,
	     struct mir_program *p);
/*
 * Allocation: every virtual register into r2..r(max_registers - 1) (r0 is
 * the execution-mask counter, r1 the back end's scratch), spilling to the
 * stack when they do not fit; parallel copies become moves.  0, or -ENOSPC
 * when the budget cannot hold one instruction's operands.
 */
int agx_ra(struct mir_program *p, unsigned max_registers);
/* Waits before the first use (or overwrite) of every asynchronous result. */
void agx_insert_waits(struct mir_program *p);
/* Encoding: the program, ended with stop, as machine code (malloc'd). */
int agx_emit(struct mir_program *p, uint8_t **code, size_t *size, unsigned *num_instructions);

/*
 * The code generator proper, on ALREADY-LOWERED IR (agx_backend_compile
 * runs agx_lower_io, agx_lower_alu and the clean-ups first): selection,
 * allocation, waits, encoding, and out->info.  Returns 0, -ENOTSUP, -ENOSPC
 * (the register budget cannot be met), -ENOMEM; *log (when log is not
 * NULL) is a malloc'd reason on failure.
 */
int agx_codegen(struct agx_ir_shader *shader, const struct agx_compile_options *options,
		struct agx_shader_binary *out, char **log);

#endif

/*
 * The G13 shader instruction set: the table generated from
 * libagx/isa/g13.isa, and the encoder, decoder, disassembler and assembler
 * it drives.  docs/isa.md describes the operand kinds and the text syntax,
 * which follows the public applegpu disassembler.
 */
#ifndef AGX_ISA_H
#define AGX_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agx_isa_table.h"

#define AGX_ISA_MAX_BYTES    12
#define AGX_ISA_MAX_OPERANDS 16
#define AGX_ISA_MAX_PARTS    4
/* Longest text agx_isa_print() writes for one instruction. */
#define AGX_ISA_MAX_TEXT 256

enum agx_isa_kind {
	AGX_KIND_DST,
	AGX_KIND_DST64,
	AGX_KIND_DST16,
	AGX_KIND_DST32,
	AGX_KIND_SRC,
	AGX_KIND_SRC64,
	AGX_KIND_SRC16,
	AGX_KIND_ADDSRC,
	AGX_KIND_MULSRC,
	AGX_KIND_FSRC,
	AGX_KIND_FSRC16,
	AGX_KIND_CMPSEL,
	AGX_KIND_ICOND,
	AGX_KIND_FCOND,
	AGX_KIND_R0L,
	AGX_KIND_IMM,
	AGX_KIND_SIMM,
	AGX_KIND_BRANCH,
	AGX_KIND_SHIFT,
	AGX_KIND_MASK,
	AGX_KIND_TT,
	AGX_KIND_SR,
	AGX_KIND_MEMREG,
	AGX_KIND_TGREG,
	AGX_KIND_MEMBASE,
	AGX_KIND_MEMINDEX,
	AGX_KIND_TGBASE,
	AGX_KIND_TGINDEX,
	AGX_KIND_ENUM,
	AGX_KIND_VARREG,     /* varying destination tuple, count field (0 = 4) */
	AGX_KIND_VARTRIPLE,  /* ldcf destination: three registers per count */
	AGX_KIND_CF,	     /* coefficient register cfN */
	AGX_KIND_CFPERSP,    /* cfN for perspective division, when P is set */
	AGX_KIND_SAMPLEMASK, /* tile sample mask: immediate or r16 */
	AGX_KIND_TEXTURE,    /* texture: state tsN, r16, r32 or 0 */
	AGX_KIND_SAMPLER,    /* sampler: state ssN or r16 */
	AGX_KIND_TEXUREG,    /* uniform pair of a bindless texture (texture type bit 0) */
	AGX_KIND_COORDS,     /* coordinates, as many as the texture type needs */
	AGX_KIND_LOD,	     /* level of detail argument, shaped by the lod mode */
	AGX_KIND_CMPOFF,     /* depth-compare value and/or texel offset */
	AGX_KIND_ATOMDST,    /* an atomic's old value: r32, or "_" when not returned (type 0) */
	AGX_KIND_ATOMSRC,    /* an atomic's operand: r32, a pair for cmpxchg */
	AGX_KIND_GPR32,	     /* a 32-bit register, its number in the field */
	AGX_KIND_GPR16,	     /* a 16-bit register, its number in the field */
	AGX_KIND_IMMR16,     /* an 8-bit immediate (type 1) or an r16 (type 0) */
	AGX_KIND_ZSREG,	     /* depth (r32, type 1), stencil (r16, type 2) or both (3 halves) */
	AGX_KIND_PDST,	     /* a destination pair: two halves, or two r32 (type bit 1) */
	AGX_KIND_PFSRC,	     /* a float source pair of registers, with abs/neg */
	AGX_KIND_ASYNCTUPLE, /* 3 or 5 32-bit registers or uniforms (type 1), by copy kind F */
	AGX_KIND_UPAIR,	     /* a 64-bit uniform pair u(2N)_u(2N+1), N in the field */
	AGX_KIND_OPT,	     /* a field whose effect is not public: NAME=0x.. when not 0 */
	AGX_KIND_IGNORED,    /* bits the hardware ignores: printed NAME=0x.. when not 0 */
};

enum agx_isa_class {
	AGX_CLASS_MOV,
	AGX_CLASS_IALU,
	AGX_CLASS_IMUL,
	AGX_CLASS_CONVERT,
	AGX_CLASS_FALU,
	AGX_CLASS_FUNARY,
	AGX_CLASS_SELECT,
	AGX_CLASS_EXEC,
	AGX_CLASS_CONTROL,
	AGX_CLASS_BRANCH,
	AGX_CLASS_SIMD,
	AGX_CLASS_MEMORY,
	AGX_CLASS_VARYING,
	AGX_CLASS_TILE,
	AGX_CLASS_TEXTURE,
};

/* How the disassembler spells some encodings (applegpu's aliases). */
enum agx_isa_alias {
	AGX_ALIAS_NONE,
	AGX_ALIAS_BITOP,     /* and, or, xor, nand, nor, not, mov */
	AGX_ALIAS_PUSH_EXEC, /* if_fcmp with eq 0.0, 0.0: push_exec / update_exec */
	AGX_ALIAS_ELSE_EXEC, /* else_fcmp with eq 0.0, 0.0: else_exec */
};

/* A field: up to four bit ranges, low part first. */
struct agx_isa_bits {
	uint8_t count;
	struct {
		uint8_t start, width;
	} part[AGX_ISA_MAX_PARTS];
};

struct agx_isa_enum_item {
	unsigned value;
	const char *name;
};

struct agx_isa_enum {
	const char *name;
	unsigned count;
	const struct agx_isa_enum_item *items;
};

struct agx_isa_operand_desc {
	const char *name;
	enum agx_isa_kind kind;
	struct agx_isa_bits value, type, mod, sx, count;
	const struct agx_isa_enum *enumeration;
};

/* 128-bit instruction words, low half first. */
struct agx_isa_word {
	uint64_t lo, hi;
};

struct agx_isa_desc {
	const char *name;
	const char *alt_name; /* spelling when alt_bit is set */
	enum agx_op op;
	uint8_t size_short, size_long, length_bit;
	int8_t alt_bit, sat_bit;
	struct agx_isa_word mask, bits, covered;
	enum agx_isa_class cls;
	enum agx_isa_alias alias;
	uint8_t num_operands;
	struct agx_isa_operand_desc operands[AGX_ISA_MAX_OPERANDS];
};

extern const struct agx_isa_desc agx_isa_table[AGX_NUM_OPS];

/* The raw sub-fields of one decoded operand. */
struct agx_isa_fields {
	uint32_t value, type, mod, sx, count;
};

struct agx_isa_instr {
	const struct agx_isa_desc *desc;
	unsigned size; /* bytes; 0 before encoding picks the shorter form */
	bool alt, sat;
	struct agx_isa_fields operands[AGX_ISA_MAX_OPERANDS];
};

/*
 * Decodes the instruction at bytes (len bytes available).  Returns its size,
 * or 0 when the bytes are no instruction we know (or are cut short).
 * Never reads past len.
 */
unsigned agx_isa_decode(const uint8_t *bytes, size_t len, struct agx_isa_instr *instr);

/* Encodes instr into bytes (AGX_ISA_MAX_BYTES); returns the size, 0 if invalid. */
unsigned agx_isa_encode(const struct agx_isa_instr *instr, uint8_t *bytes);

/*
 * Writes the instruction as text ("mnemonic operands").  pc is the
 * instruction's offset, for branch targets; pass -1 to print branches
 * relative to pc.  Returns the length written.
 */
int agx_isa_print(const struct agx_isa_instr *instr, int64_t pc, char *buf, size_t size);

/*
 * Writes a listing of len bytes of code, one instruction a line:
 * "OFFSET: HEXBYTES  mnemonic operands".  Bytes that are no instruction we
 * know print as "unknown", two at a time (the smallest instruction), so the
 * listing always reaches the end.  Returns 0, or -1 when writing failed.
 */
int agx_isa_disassemble(const uint8_t *code, size_t len, FILE *out);

/*
 * Parses one line of assembly at offset pc into instr.  Returns 0, or -1
 * with a message in err (errsize bytes).
 */
int agx_isa_parse(const char *line, int64_t pc, struct agx_isa_instr *instr, char *err,
		  size_t errsize);

/*
 * Assembles a program: instructions one a line ('\n'), blank lines
 * skipped; "name:" on its own line defines a label and "@name" in an
 * operand stands for its offset.  Writes at most cap bytes to code and
 * returns the length, or -1 with err saying which line and why.
 */
long agx_isa_assemble(const char *text, uint8_t *code, size_t cap, char *err, size_t errsize);

/* What an operand means, as the disassembler and the simulator see it. */
enum agx_isa_value_type {
	AGX_VALUE_NONE,
	AGX_VALUE_REG,	     /* general-purpose register(s) */
	AGX_VALUE_UNIFORM,   /* uniform register(s) */
	AGX_VALUE_IMM,	     /* integer immediate in imm */
	AGX_VALUE_FLOAT_IMM, /* 8-bit float immediate; its encoding in imm */
	AGX_VALUE_TEXT,	     /* condition, enum, shift, ...: see text */
};

struct agx_isa_value {
	enum agx_isa_value_type type;
	unsigned index; /* register number in units of its size (r1h is 16-bit index 3) */
	unsigned bits;	/* register size: 16, 32 or 64 */
	unsigned count; /* registers in a tuple */
	int64_t imm;
	bool cache, discard, abs, neg, sx;
	/*
	 * Encodings the hardware reads the same as a plainer one (hwtest.py ran
	 * them on an M1): "odd" a 32-bit destination whose number has its low
	 * bit set, which is ignored; "wide" a register whose size field names a
	 * wider register than the operand reads (a 64-bit type on a source of at
	 * most 32 bits, the 32-bit bit on a 16-bit float destination).
	 */
	bool odd, wide;
	const char *text;
	char textbuf[48];
};

/*
 * Operand i of a decoded instruction.  pc places branch targets (-1: print
 * them relative).  Returns false when the fields hold an encoding nobody
 * documented.
 */
bool agx_isa_operand_value(const struct agx_isa_instr *instr, unsigned i, int64_t pc,
			   struct agx_isa_value *value);

/* The value of an 8-bit float immediate (the encoding of applegpu's docs). */
double agx_isa_float_imm(unsigned bits);

/* Reads the bits of field f from an instruction word. */
uint32_t agx_isa_bits_get(const struct agx_isa_word *w, const struct agx_isa_bits *f);

#endif

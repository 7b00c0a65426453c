/*
 * spirv.h: a SPIR-V module read and indexed for the compiler's translator
 * (docs/compiler.md, "Reading SPIR-V").  The words are untrusted: parsing
 * checks the header, every instruction's length, every id against the
 * bound, that each result id is defined once and that each instruction's
 * result id and type are where the opcode says; afterwards the translator
 * may look ids up without checking more than what they are.
 */
#ifndef AGX_SPIRV_H
#define AGX_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#define AGX_SPIRV_MAX_BOUND (1u << 22) /* ids a module may have */
#define AGX_SPIRV_NO_ID	    0

struct agx_spirv_inst {
	SpvOp opcode;
	uint16_t count;	       /* words, with the first */
	const uint32_t *words; /* words[0] is the opcode word */
	uint32_t type;	       /* result type id, 0 without one */
	uint32_t result;       /* result id, 0 without one */
	uint16_t operands;     /* the first operand word after the type and result */
};

struct agx_spirv_decoration {
	uint32_t target;
	int32_t member; /* -1: the id itself */
	SpvDecoration decoration;
	uint32_t value; /* its first literal, 0 without one */
};

struct agx_spirv_module {
	uint32_t version, generator, bound;
	struct agx_spirv_inst *insts;
	size_t num_insts;
	uint32_t *defs; /* [id]: index in insts + 1; 0: not defined */
	struct agx_spirv_decoration *decorations;
	size_t num_decorations;
	const struct agx_spirv_inst *entry_point; /* the first OpEntryPoint */
	uint32_t local_size[3];			  /* LocalSize execution mode, or 1, 1, 1 */
};

/*
 * Reads count words: 0, or -EINVAL with what is wrong and where in why
 * (the module is then empty), or -ENOMEM.  The words must outlive m.
 */
int agx_spirv_parse(const uint32_t *words, size_t count, struct agx_spirv_module *m, char *why,
		    size_t why_size);
void agx_spirv_module_finish(struct agx_spirv_module *m);

/* The instruction defining id, or NULL. */
const struct agx_spirv_inst *agx_spirv_def(const struct agx_spirv_module *m, uint32_t id);
/* Operand word i after the type and result (0 past the end). */
uint32_t agx_spirv_operand(const struct agx_spirv_inst *inst, unsigned i);
unsigned agx_spirv_num_operands(const struct agx_spirv_inst *inst);
/*
 * The literal string starting at operand i (NUL-terminated inside the
 * instruction, or NULL), and in *next the operand after it.
 */
const char *agx_spirv_string(const struct agx_spirv_inst *inst, unsigned i, unsigned *next);
/* The name OpName gives id, or NULL. */
const char *agx_spirv_name(const struct agx_spirv_module *m, uint32_t id);
/* Whether id (member -1: itself) carries decoration; its first literal in *value. */
bool agx_spirv_decorated(const struct agx_spirv_module *m, uint32_t id, int32_t member,
			 SpvDecoration decoration, uint32_t *value);

#endif

/*
 * agx_emit.c: encoding.  Each allocated instruction is written as assembly
 * (agx_mir.h) and encoded by the ISA table's parser and encoder
 * (agx/isa.h), so no bit of an encoding is placed here.  Branches have one
 * size, so a first pass places every instruction and label and a second
 * encodes the branches with their offsets.  The program ends with stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agx/isa.h"
#include "agx_mir.h"

static bool is_branch(const struct mir_instr *in)
{
	for (unsigned o = 0; o < in->num_opds; o++)
		if (in->opd[o].kind == MIR_LABEL)
			return true;
	return false;
}

/* Encodes one instruction at pc into out; returns its size, or a negative errno. */
static int encode(struct mir_program *p, const struct mir_instr *in, const int64_t *label_pc,
		  int64_t pc, uint8_t *out)
{
	char text[AGX_ISA_MAX_TEXT], err[160];
	struct agx_isa_instr ins;
	unsigned size;

	mir_print(in, text, sizeof(text), label_pc, pc);
	if (agx_isa_parse(text, pc, &ins, err, sizeof(err)))
		return mir_fail(p, -ENOTSUP, "internal error: cannot encode `%s`: %s", text, err);
	size = agx_isa_encode(&ins, out);
	if (!size)
		return mir_fail(p, -ENOTSUP, "internal error: cannot encode `%s`", text);
	return (int)size;
}

static void count_registers(struct mir_program *p, const struct mir_instr *in)
{
	for (unsigned o = 0; o < in->num_opds; o++) {
		const struct mir_opd *d = &in->opd[o];
		unsigned halves = d->bits == 64 ? 4 : d->count * (d->bits / 16u), top;

		if (d->kind != MIR_PREG)
			continue;
		top = (d->value + halves - 1) / 2 + 1;
		if (top > p->num_registers)
			p->num_registers = top;
	}
}

int agx_emit(struct mir_program *p, uint8_t **code, size_t *size, unsigned *num_instructions)
{
	size_t cap = (size_t)p->num_instrs * AGX_ISA_MAX_BYTES + AGX_ISA_MAX_BYTES;
	uint8_t *buf = malloc(cap);
	int64_t *label_pc = calloc(p->num_labels + 1, sizeof(int64_t));
	int64_t *zero = calloc(p->num_labels + 1, sizeof(int64_t));
	unsigned *branches = malloc((p->num_instrs + 1) * sizeof(unsigned));
	int64_t *branch_pc = malloc((p->num_instrs + 1) * sizeof(int64_t));
	unsigned nbranches = 0, count = 0;
	struct mir_instr stop = { .op = MIR_OP_ISA, .mnem = "stop" };
	int64_t pc = 0;
	int ret = -ENOMEM;

	if (!buf || !label_pc || !zero || !branches || !branch_pc)
		goto fail;
	p->num_registers = 1; /* r0l, the execution-mask counter */
	for (unsigned i = 0; i <= p->num_instrs; i++) {
		const struct mir_instr *in = i < p->num_instrs ? &p->instrs[i] : &stop;
		int n;

		if (in->op == MIR_OP_LABEL) {
			label_pc[in->opd[0].value] = pc;
			continue;
		}
		count_registers(p, in);
		if (is_branch(in)) {
			branches[nbranches] = i;
			branch_pc[nbranches++] = pc;
		}
		/* a branch to itself for now: its size does not depend on the offset */
		n = encode(p, in, is_branch(in) ? zero : NULL, is_branch(in) ? 0 : pc, buf + pc);
		if (n < 0) {
			ret = n;
			goto fail;
		}
		pc += n;
		count++;
	}
	for (unsigned b = 0; b < nbranches; b++) {
		uint8_t bytes[AGX_ISA_MAX_BYTES];
		int n = encode(p, &p->instrs[branches[b]], label_pc, branch_pc[b], bytes);

		if (n < 0) {
			ret = n;
			goto fail;
		}
		memcpy(buf + branch_pc[b], bytes, (size_t)n);
	}
	free(label_pc);
	free(zero);
	free(branches);
	free(branch_pc);
	*code = buf;
	*size = (size_t)pc;
	*num_instructions = count;
	return 0;
fail:
	free(buf);
	free(label_pc);
	free(zero);
	free(branches);
	free(branch_pc);
	return ret;
}

/*
 * agx_waits.c: wait insertion.  The results of device_load,
 * threadgroup_load, stack_load and of the atomics that return one arrive
 * after the instruction issues; `wait 0` (every load here uses scoreboard
 * slot 0) holds the thread until they have.  After allocation, a wait goes
 * before the first instruction that reads or overwrites a register still
 * awaited, and before any label, branch or execution-mask instruction
 * while one is (a join or a back edge may lead to a read: waiting there is
 * the simple safe rule).
 */
#include <stdlib.h>
#include <string.h>

#include "agx_mir.h"

static bool touches(const struct mir_instr *in, const uint64_t pending[4])
{
	for (unsigned o = 0; o < in->num_opds; o++) {
		const struct mir_opd *d = &in->opd[o];
		unsigned halves = d->bits == 64 ? 4 : d->count * (d->bits / 16u);

		if (d->kind != MIR_PREG)
			continue;
		for (unsigned h = d->value; h < d->value + halves && h < 256; h++)
			if ((pending[h / 64] >> (h % 64)) & 1)
				return true;
	}
	return false;
}

static void await(const struct mir_instr *in, uint64_t pending[4])
{
	for (unsigned o = 0; o < in->num_opds; o++) {
		const struct mir_opd *d = &in->opd[o];
		unsigned halves = d->bits == 64 ? 4 : d->count * (d->bits / 16u);

		if (d->kind != MIR_PREG || !(d->flags & MIR_DST))
			continue;
		for (unsigned h = d->value; h < d->value + halves && h < 256; h++)
			pending[h / 64] |= 1ull << (h % 64);
	}
}

void agx_insert_waits(struct mir_program *p)
{
	struct mir_instr *old = p->instrs;
	unsigned count = p->num_instrs;
	uint64_t pending[4] = { 0 };
	bool any = false;
	struct mir_instr wait = { .op = MIR_OP_ISA, .num_opds = 1, .mnem = "wait" };

	wait.opd[0] = mir_imm(0);
	p->instrs = NULL;
	p->num_instrs = p->cap_instrs = 0;
	for (unsigned i = 0; i < count; i++) {
		const struct mir_instr *in = &old[i];

		if (any && ((in->flags & MIR_CONTROL) || touches(in, pending))) {
			mir_append(p, &wait);
			memset(pending, 0, sizeof(pending));
			any = false;
		}
		mir_append(p, in);
		if (in->flags & MIR_ASYNC) {
			await(in, pending);
			any = true;
		}
	}
	free(old);
}

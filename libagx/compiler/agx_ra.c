/*
 * agx_ra.c: register allocation (docs/compiler.md, "Register allocation").
 *
 * The selected program is SSA but for the phis, whose registers the
 * parallel copies on each incoming edge write.  A value's live range is,
 * in program order, from its first write or read to its last, widened to
 * the end of every loop it enters live (the back edge carries it round):
 * in the structured code of agx_isel.c that covers every point where it
 * may be live on some path.  The masked execution makes this enough: a
 * lane that leaves by break or continue is disabled, and its registers
 * untouched, until its path resumes.
 *
 * Ranges are assigned in order of their start to the first free aligned
 * place of their size (16-bit halves, 32-bit registers, even pairs) --
 * linear scan, so allocation stays near-linear in the program's length.
 * When none is free, the range ending last among the candidates is
 * spilled for its whole life: each write is followed by a stack_store to
 * its slot, each read preceded by a stack_load into a short-lived copy,
 * and allocation starts over (the copies are never spilled themselves).
 * Then the parallel copies become moves: 16-bit halves ordered so that none
 * is overwritten before it is read, cycles broken through r1l, neighbours
 * merged back into 32-bit moves.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "agx_mir.h"

#define FIRST_HALF 4 /* r0 is the execution-mask counter, r1 the scratch */
#define SCRATCH	   2 /* r1l: the half that breaks copy cycles */
#define MAX_HALVES 256
#define MAX_ROUNDS 16

struct ra {
	struct mir_program *p;
	unsigned halves; /* allocatable below this half */
	int *start, *end, *assign, *slot;
	bool *spilled;
	int *loop_at;
};

static void *xcalloc(size_t n, size_t size)
{
	void *m = calloc(n ? n : 1, size);

	if (!m)
		abort();
	return m;
}

/* Loop bounds after insertions: their labels and backward jumps, found again. */
static void find_loops(struct ra *ra)
{
	struct mir_program *p = ra->p;
	int *by_label = xcalloc(p->num_labels, sizeof(int));

	for (unsigned l = 0; l < p->num_loops; l++)
		by_label[p->loops[l].label] = (int)l;
	for (unsigned i = 0; i < p->num_instrs; i++) {
		struct mir_instr *in = &p->instrs[i];

		if (in->op == MIR_OP_LABEL) {
			p->loops[by_label[in->opd[0].value]].start = i;
			continue;
		}
		for (unsigned o = 0; o < in->num_opds; o++)
			if (in->opd[o].kind == MIR_LABEL)
				p->loops[by_label[in->opd[o].value]].end = i;
	}
	free(by_label);
	free(ra->loop_at);
	ra->loop_at = xcalloc(p->num_instrs, sizeof(int));
	for (unsigned i = 0; i < p->num_instrs; i++)
		ra->loop_at[i] = -1;
	/* an inner loop comes after its outer one: it overwrites it */
	for (unsigned l = 0; l < p->num_loops; l++)
		for (unsigned i = p->loops[l].start; i <= p->loops[l].end; i++)
			ra->loop_at[i] = (int)l;
}

static void live_ranges(struct ra *ra)
{
	struct mir_program *p = ra->p;

	for (unsigned v = 0; v < p->num_vregs; v++) {
		ra->start[v] = INT_MAX;
		ra->end[v] = -1;
	}
	for (unsigned i = 0; i < p->num_instrs; i++) {
		struct mir_instr *in = &p->instrs[i];

		for (unsigned o = 0; o < in->num_opds; o++) {
			const struct mir_opd *d = &in->opd[o];
			int pos = 2 * (int)i + ((d->flags & MIR_DST) ? 1 : 0);

			if (d->kind != MIR_VREG)
				continue;
			if (pos < ra->start[d->value])
				ra->start[d->value] = pos;
			if (pos > ra->end[d->value])
				ra->end[d->value] = pos;
		}
	}
	/*
	 * Live into a loop from before it: live to its end.  The outermost such
	 * loop around the last use decides (loops nest, so its end is the
	 * furthest).
	 */
	for (unsigned v = 0; v < p->num_vregs; v++) {
		int best = -1;

		if (ra->end[v] < 0)
			continue;
		for (int l = ra->loop_at[ra->end[v] / 2]; l >= 0; l = p->loops[l].parent)
			if (2 * (int)p->loops[l].start > ra->start[v])
				best = l;
		if (best >= 0 && 2 * (int)p->loops[best].end + 1 > ra->end[v])
			ra->end[v] = 2 * (int)p->loops[best].end + 1;
	}
}

/* One linear scan; returns the number of ranges it spilled, or -ENOSPC. */
static int scan(struct ra *ra)
{
	struct mir_program *p = ra->p;
	unsigned n = 2 * p->num_instrs + 2, *count = xcalloc(n + 1, sizeof(unsigned));
	unsigned *order = xcalloc(p->num_vregs, sizeof(unsigned));
	int busy[MAX_HALVES], owner[MAX_HALVES];
	int spills = 0;
	unsigned total;

	for (unsigned h = 0; h < MAX_HALVES; h++)
		busy[h] = -1, owner[h] = -1;
	/* counting sort by start */
	for (unsigned v = 0; v < p->num_vregs; v++)
		if (ra->end[v] >= 0)
			count[ra->start[v] + 1]++;
	for (unsigned i = 1; i <= n; i++)
		count[i] += count[i - 1];
	total = count[n];
	for (unsigned v = 0; v < p->num_vregs; v++)
		if (ra->end[v] >= 0)
			order[count[ra->start[v]]++] = v;

	for (unsigned k = 0; k < total; k++) {
		unsigned v = order[k], size = p->vregs[v].halves;
		int s = ra->start[v], found = -1, best = -1, best_score = -1;

		ra->assign[v] = -1;
		for (unsigned g = FIRST_HALF; g + size <= ra->halves && found < 0; g += size) {
			bool free_ = true;

			for (unsigned j = 0; j < size; j++)
				free_ &= busy[g + j] < s;
			if (free_)
				found = (int)g;
		}
		if (found < 0) {
			/* the place whose occupants' nearest end is furthest away */
			for (unsigned g = FIRST_HALF; g + size <= ra->halves; g += size) {
				int score = INT_MAX;
				bool ok = true;

				for (unsigned j = 0; j < size && ok; j++) {
					if (busy[g + j] < s)
						continue;
					ok = !p->vregs[owner[g + j]].unspillable;
					if (ra->end[owner[g + j]] < score)
						score = ra->end[owner[g + j]];
				}
				if (ok && score > best_score) {
					best = (int)g;
					best_score = score;
				}
			}
			if (!p->vregs[v].unspillable && (best < 0 || ra->end[v] >= best_score)) {
				ra->spilled[v] = true;
				spills++;
				continue;
			}
			if (best < 0) {
				free(count);
				free(order);
				return -ENOSPC;
			}
			for (unsigned j = 0; j < size; j++) {
				int o = owner[best + j];

				if (busy[best + j] < s || o < 0)
					continue;
				ra->spilled[o] = true;
				spills++;
				for (unsigned h = (unsigned)ra->assign[o];
				     h < (unsigned)ra->assign[o] + p->vregs[o].halves; h++)
					busy[h] = -1;
			}
			found = best;
		}
		ra->assign[v] = found;
		for (unsigned j = 0; j < size; j++) {
			busy[found + j] = ra->end[v];
			owner[found + j] = (int)v;
		}
	}
	free(count);
	free(order);
	return spills;
}

static struct mir_instr stack_op(bool store, unsigned vreg, unsigned halves, unsigned offset)
{
	struct mir_instr in = { .op = MIR_OP_ISA,
				.num_opds = 6,
				.flags = store ? 0 : MIR_ASYNC,
				.mnem = store ? "stack_store" : "stack_load" };
	static const char *const masks[5] = { "x", "x", "xy", "xyz", "xyzw" };
	struct mir_opd r = mir_vreg(vreg, halves * 16);

	/* a pair or a tuple (ldcf's three registers) goes as 32-bit items */
	if (halves >= 4) {
		r.bits = 32;
		r.count = (uint8_t)(halves / 2);
	}
	if (!store)
		r.flags = MIR_DST;
	in.opd[0] = mir_imm(0);
	in.opd[1] = mir_text(halves == 1 ? "i16" : "i32");
	in.opd[2] = mir_text(masks[halves >= 4 ? halves / 2 : 1]);
	in.opd[3] = r;
	in.opd[4] = mir_imm(offset);
	in.opd[5] = mir_text("signed");
	return in;
}

/* Every write of a spilled register stored, every read loaded into a fresh copy. */
static int rewrite_spills(struct ra *ra)
{
	struct mir_program *p = ra->p;
	unsigned old_count = p->num_instrs, cap = old_count + 64, n = 0;
	struct mir_instr *old = p->instrs, *out = malloc(cap * sizeof(*out));

	if (!out)
		abort();
	for (unsigned v = 0; v < p->num_vregs; v++) {
		if (!ra->spilled[v] || ra->slot[v] >= 0)
			continue;
		ra->slot[v] = (int)p->scratch_size;
		p->scratch_size += p->vregs[v].halves >= 4 ? 2u * p->vregs[v].halves : 4;
		if (p->scratch_size > 32767)
			return mir_fail(p, -ENOSPC, "more than 32 KiB of spills per thread");
	}
	for (unsigned i = 0; i < old_count; i++) {
		struct mir_instr in = old[i], after[MIR_MAX_OPDS];
		unsigned loaded[MIR_MAX_OPDS], copy[MIR_MAX_OPDS], nloaded = 0, nafter = 0;

		for (unsigned o = 0; o < in.num_opds; o++) {
			struct mir_opd *d = &in.opd[o];
			unsigned v = d->value, t = 0, j;

			if (d->kind != MIR_VREG || !ra->spilled[v])
				continue;
			if (d->flags & MIR_DST) {
				t = mir_vreg_new(p, p->vregs[v].halves * 16);
				after[nafter++] =
				    stack_op(true, t, p->vregs[v].halves, (unsigned)ra->slot[v]);
			} else {
				for (j = 0; j < nloaded && loaded[j] != v; j++)
					;
				if (j == nloaded) {
					loaded[nloaded] = v;
					copy[nloaded++] = t =
					    mir_vreg_new(p, p->vregs[v].halves * 16);
					if (n + 1 >= cap) {
						cap *= 2;
						out = realloc(out, cap * sizeof(*out));
						if (!out)
							abort();
					}
					out[n++] = stack_op(false, t, p->vregs[v].halves,
							    (unsigned)ra->slot[v]);
				}
				t = copy[j];
			}
			p->vregs[t].unspillable = true;
			d->value = t;
		}
		if (n + 1 + nafter >= cap) {
			cap = 2 * cap + nafter;
			out = realloc(out, cap * sizeof(*out));
			if (!out)
				abort();
		}
		out[n++] = in;
		for (unsigned k = 0; k < nafter; k++)
			out[n++] = after[k];
	}
	free(old);
	p->instrs = out;
	p->num_instrs = n;
	p->cap_instrs = cap;
	return 0;
}

/* ---- parallel copies into moves -------------------------------------------- */

enum { FROM_REG, FROM_IMM, FROM_UNIFORM };

struct hmove {
	unsigned dst, kind, src; /* src: a half, 16 bits of a constant, or a uniform half */
};

static struct mir_opd preg(unsigned half, unsigned bits)
{
	return (
	    struct mir_opd){ .kind = MIR_PREG, .bits = (uint8_t)bits, .count = 1, .value = half };
}

static void emit_move(struct mir_program *p, const struct hmove *m, unsigned bits, uint32_t imm)
{
	struct mir_instr in = { .op = MIR_OP_ISA, .num_opds = 2 };

	in.opd[0] = preg(m->dst, bits);
	in.opd[0].flags = MIR_DST;
	if (m->kind == FROM_IMM) {
		in.mnem = "mov_imm";
		in.opd[1] = mir_imm(imm);
	} else {
		in.mnem = "mov";
		in.opd[1] = preg(m->src, bits);
		if (m->kind == FROM_UNIFORM) {
			in.opd[1].kind = MIR_UNIFORM;
			in.opd[1].value = m->src / 2;
			in.opd[1].offset = m->src & 1;
		}
	}
	mir_append(p, &in);
}

/* Writes the moves in order, 32 bits at a time where two halves pair up. */
static void emit_moves(struct mir_program *p, const struct hmove *m, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct hmove *a = &m[k], *b = k + 1 < n ? &m[k + 1] : NULL;
		bool wide = b && !(a->dst & 1) && b->dst == a->dst + 1 && a->kind == b->kind &&
			    (a->kind == FROM_IMM || (!(a->src & 1) && b->src == a->src + 1));

		if (wide) {
			emit_move(p, a, 32, a->kind == FROM_IMM ? (a->src | b->src << 16) : 0);
			k++;
		} else {
			emit_move(p, a, 16, a->src);
		}
	}
}

static void lower_pcopy(struct mir_program *p, const struct mir_instr *pc)
{
	struct hmove moves[MIR_MAX_OPDS * 2], out[MIR_MAX_OPDS * 4], late[MIR_MAX_OPDS * 2];
	unsigned n = 0, nout = 0, nlate = 0, pairs = pc->num_opds / 2;

	for (unsigned i = 0; i < pairs; i++) {
		const struct mir_opd *d = &pc->opd[i], *s = &pc->opd[pairs + i];

		for (unsigned j = 0; j < d->bits / 16u; j++) {
			struct hmove m = { .dst = d->value + j };

			if (s->kind == MIR_IMM) {
				m.kind = FROM_IMM;
				m.src = (s->value >> (16 * j)) & 0xffff;
				late[nlate++] = m;
			} else if (s->kind == MIR_UNIFORM) {
				m.kind = FROM_UNIFORM;
				m.src = s->value * 2 + s->offset + j;
				late[nlate++] = m;
			} else {
				m.kind = FROM_REG;
				m.src = s->value + j;
				if (m.src != m.dst)
					moves[n++] = m;
			}
		}
	}
	while (n) {
		bool progress = false;

		for (unsigned k = 0; k < n; k++) {
			bool read = false;

			for (unsigned j = 0; j < n && !read; j++)
				read = j != k && moves[j].src == moves[k].dst;
			if (read)
				continue;
			/* in order, so that the halves of a register stay neighbours */
			out[nout++] = moves[k];
			memmove(&moves[k], &moves[k + 1], (n - k - 1) * sizeof(*moves));
			n--;
			progress = true;
			k--;
		}
		if (!progress) {
			/* only cycles are left: save one destination, read it from the scratch */
			unsigned d = moves[0].dst;

			out[nout++] = (struct hmove){ .dst = SCRATCH, .kind = FROM_REG, .src = d };
			for (unsigned j = 0; j < n; j++)
				if (moves[j].src == d)
					moves[j].src = SCRATCH;
		}
	}
	memcpy(out + nout, late, nlate * sizeof(*late));
	emit_moves(p, out, nout + nlate);
}

/* ---- the allocator ------------------------------------------------------------- */

static void finish_ra(struct ra *ra)
{
	free(ra->start);
	free(ra->end);
	free(ra->assign);
	free(ra->slot);
	free(ra->spilled);
	free(ra->loop_at);
}

/* Fresh per round: a register spilled before is no longer read or written. */
static void alloc_arrays(struct ra *ra)
{
	unsigned n = ra->p->num_vregs;

	free(ra->start);
	free(ra->end);
	free(ra->assign);
	free(ra->slot);
	free(ra->spilled);
	ra->start = xcalloc(n, sizeof(int));
	ra->end = xcalloc(n, sizeof(int));
	ra->assign = xcalloc(n, sizeof(int));
	ra->slot = xcalloc(n, sizeof(int));
	ra->spilled = xcalloc(n, sizeof(bool));
	for (unsigned v = 0; v < n; v++)
		ra->slot[v] = -1;
}

int agx_ra(struct mir_program *p, unsigned max_registers)
{
	struct ra ra = { .p = p };
	int ret = 0, spills;
	struct mir_instr *old;
	unsigned old_count;

	if (!max_registers || max_registers > 128)
		max_registers = 128;
	if (max_registers < 4)
		return mir_fail(p, -ENOSPC, "a budget of %u registers is too small (4 at least)",
				max_registers);
	ra.halves = 2 * max_registers;
	for (unsigned round = 0;; round++) {
		if (round == MAX_ROUNDS) {
			ret = mir_fail(p, -ENOSPC, "spilling did not converge in %u rounds",
				       MAX_ROUNDS);
			goto out;
		}
		alloc_arrays(&ra);
		find_loops(&ra);
		live_ranges(&ra);
		spills = scan(&ra);
		if (spills < 0) {
			ret = mir_fail(p, -ENOSPC,
				       "%u registers cannot hold the operands of one instruction",
				       max_registers);
			goto out;
		}
		if (!spills)
			break;
		if ((ret = rewrite_spills(&ra)))
			goto out;
	}
	/* registers in place of the virtual ones, then the copies as moves */
	for (unsigned i = 0; i < p->num_instrs; i++) {
		struct mir_instr *in = &p->instrs[i];

		for (unsigned o = 0; o < in->num_opds; o++) {
			struct mir_opd *d = &in->opd[o];

			if (d->kind != MIR_VREG)
				continue;
			d->kind = MIR_PREG;
			d->value = (uint32_t)ra.assign[d->value] + d->offset;
			d->offset = 0;
		}
	}
	old = p->instrs;
	old_count = p->num_instrs;
	p->instrs = NULL;
	p->num_instrs = p->cap_instrs = 0;
	for (unsigned i = 0; i < old_count; i++) {
		if (old[i].op == MIR_OP_PCOPY)
			lower_pcopy(p, &old[i]);
		else
			mir_append(p, &old[i]);
	}
	free(old);
out:
	finish_ra(&ra);
	return ret;
}

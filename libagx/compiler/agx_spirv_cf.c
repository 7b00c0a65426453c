/*
 * agx_spirv_cf.c: the SPIR-V translator's control flow (agx_spirv_to_ir.h):
 * structured selections, loops and switches become the IR's ifs and loops,
 * every function call is inlined, and function variables become SSA
 * values as the blocks are translated.
 *
 * Variables live in slots.  `t->cur` holds each slot's value on the path
 * being translated; an if saves it, translates each arm from it, and
 * merges the arms' states with phis where they differ; a loop starts with
 * a phi per slot and gets the back edge's values at its end (phis that
 * chose one value are removed afterwards).  SPIR-V's own OpPhis are slots
 * too, assigned on the edges that lead to their block.
 *
 * Jumps the IR has no instruction for -- return, a switch's break, a
 * loop's continue (the continue construct is translated at the end of the
 * body) -- set a b1 flag slot and escape: the code after the construct
 * they leave runs under `if (!flag)`, and a loop they leave is broken out
 * of with `if (flag) break`.  Where one arm of an if escaped and the other
 * did not, what follows is translated inside the other arm instead, with
 * no flag to test.  Switches become one if per case, in the order of the
 * case blocks, so that a case falls through into the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agx_spirv_to_ir.h"

/* ---- slots and states ----------------------------------------------------------------- */

static bool is_undef_marker(struct agx_ir_value v)
{
	return !v.def && v.type == AGX_IR_TYPE_NONE;
}

int tr_alloc_slot(struct tr *t, enum agx_ir_type type, unsigned *slot)
{
	if (t->num_slots >= TR_MAX_SLOTS)
		return tr_fail(t, -ENOTSUP, "more than %u scalars of variables once inlined",
			       TR_MAX_SLOTS);
	if (t->num_slots == t->slot_capacity) {
		unsigned cap = t->slot_capacity ? 2 * t->slot_capacity : 64;
		enum agx_ir_type *st = realloc(t->slot_type, cap * sizeof(*st));
		bool *sw, *sd;
		struct agx_ir_value *cv;

		if (st)
			t->slot_type = st;
		sw = realloc(t->slot_written, cap * sizeof(*sw));
		if (sw)
			t->slot_written = sw;
		sd = realloc(t->slot_dead, cap * sizeof(*sd));
		if (sd)
			t->slot_dead = sd;
		cv = realloc(t->cur.v, cap * sizeof(*cv));
		if (cv)
			t->cur.v = cv;
		if (!st || !sw || !sd || !cv)
			return tr_fail(t, -ENOMEM, "out of memory");
		t->slot_capacity = cap;
	}
	*slot = t->num_slots++;
	t->slot_type[*slot] = type;
	t->slot_written[*slot] = false;
	t->slot_dead[*slot] = false;
	t->cur.v[*slot] = (struct agx_ir_value){ 0 };
	t->cur.n = t->num_slots;
	return 0;
}

static bool slot_dead(struct tr *t, unsigned s)
{
	return t->slot_dead[s];
}

int tr_alloc_slots(struct tr *t, uint32_t type, unsigned *slot)
{
	enum agx_ir_type flat[TR_MAX_SCALARS];
	const struct tr_type *ty = tr_type(t, type);
	unsigned s;
	int ret;

	if (!ty || ty->n == 0 || ty->n > TR_MAX_SLOTS)
		return tr_fail(t, -ENOTSUP, "a variable of type %u (%u scalars) is too large", type,
			       ty ? ty->n : 0);
	*slot = t->num_slots;
	for (unsigned k = 0; k < ty->n; k++) {
		enum agx_ir_type st;

		if (ty->n <= TR_MAX_SCALARS) {
			if (k == 0 && (ret = tr_flat_types(t, type, flat)) < 0)
				return ret;
			st = flat[k];
		} else {
			/* larger than a value can be: all one scalar type or nothing */
			const struct tr_type *e = ty;

			while (e->kind == TR_T_ARRAY || e->kind == TR_T_VECTOR ||
			       e->kind == TR_T_MATRIX)
				e = tr_type(t, e->elem);
			if (e->kind == TR_T_STRUCT)
				return tr_fail(t, -ENOTSUP, "a variable of type %u is too large",
					       type);
			st = tr_scalar_type(e);
		}
		if ((ret = tr_alloc_slot(t, st, &s)) < 0)
			return ret;
	}
	return 0;
}

struct agx_ir_value tr_slot_get(struct tr *t, unsigned slot)
{
	struct agx_ir_value v = slot < t->cur.n ? t->cur.v[slot] : (struct agx_ir_value){ 0 };

	return is_undef_marker(v) ? tr_undef(t, t->slot_type[slot]) : v;
}

void tr_slot_set(struct tr *t, unsigned slot, struct agx_ir_value v)
{
	if (slot < t->cur.n)
		t->cur.v[slot] = v;
}

static struct tr_state save(struct tr *t)
{
	struct tr_state st = { NULL, t->cur.n };

	st.v = tr_alloc(t, (t->cur.n ? t->cur.n : 1) * sizeof(*st.v));
	if (!st.v)
		st.n = 0;
	else
		memcpy(st.v, t->cur.v, t->cur.n * sizeof(*st.v));
	return st;
}

static void restore(struct tr *t, const struct tr_state *st)
{
	unsigned n = st->n < t->num_slots ? st->n : t->num_slots;

	if (n)
		memcpy(t->cur.v, st->v, n * sizeof(*st->v));
	for (unsigned s = n; s < t->num_slots; s++)
		t->cur.v[s] = (struct agx_ir_value){ 0 };
	t->cur.n = t->num_slots;
}

static struct agx_ir_value state_get(const struct tr_state *st, unsigned s)
{
	return s < st->n ? st->v[s] : (struct agx_ir_value){ 0 };
}

static struct agx_ir_value materialize(struct tr *t, struct agx_ir_value v, unsigned slot)
{
	return is_undef_marker(v) ? tr_undef(t, t->slot_type[slot]) : v;
}

static struct tr_path live_path(struct tr *t)
{
	return (struct tr_path){ true, true, 0, save(t) };
}

static struct tr_path dead_path(void)
{
	return (struct tr_path){ false, false, 0, { NULL, 0 } };
}

/* cur becomes the merge of the states reaching block, with phis where they differ. */
static void merge_states(struct tr *t, struct agx_ir_block *block, unsigned n,
			 struct agx_ir_block **preds, const struct tr_state *states)
{
	struct agx_builder b = agx_builder_at(agx_ir_cursor_end(block));

	restore(t, &states[0]);
	for (unsigned s = 0; n > 1 && s < t->num_slots; s++) {
		struct agx_ir_value v0 = state_get(&states[0], s), phi;
		bool same = true;

		if (slot_dead(t, s))
			continue;
		for (unsigned i = 1; i < n && same; i++)
			same = tr_value_equal(v0, state_get(&states[i], s)) &&
			       v0.type == state_get(&states[i], s).type;
		if (same)
			continue;
		phi = agx_phi(&b, t->slot_type[s]);
		for (unsigned i = 0; i < n; i++)
			agx_ir_phi_add_src(phi.def->instr, preds[i],
					   materialize(t, state_get(&states[i], s), s));
		t->cur.v[s] = phi;
	}
	t->b.cursor = agx_ir_cursor_end(block);
}

/* The end of an if: the arms that reach the block after it merge there. */
static struct tr_path finish_if(struct tr *t, struct agx_ir_if *nif, const struct tr_path *a,
				const struct tr_path *e)
{
	struct agx_ir_block *after = agx_ir_cf_node_block_after(&nif->node), *preds[2];
	struct tr_state states[2];
	struct tr_path r = { false, false, 0, { NULL, 0 } };
	unsigned n = 0;

	if (a->reaches) {
		preds[n] = agx_ir_cf_list_last_block(&nif->then_list);
		states[n++] = a->st;
	}
	if (e->reaches) {
		preds[n] = agx_ir_cf_list_last_block(&nif->else_list);
		states[n++] = e->st;
	}
	t->b.cursor = agx_ir_cursor_end(after);
	if (n == 0)
		return r;
	merge_states(t, after, n, preds, states);
	r.reaches = true;
	r.live = (a->reaches && a->live) || (e->reaches && e->live);
	r.mask = (a->reaches ? a->mask : 0) | (e->reaches ? e->mask : 0);
	r.st = save(t);
	return r;
}

/* ---- escapes ------------------------------------------------------------------------------- */

static int esc_push(struct tr *t, enum tr_esc_kind kind, unsigned *index)
{
	struct tr_escape *e;
	int ret;

	if (t->num_esc == TR_MAX_ESCAPES)
		return tr_fail(t, -ENOTSUP, "more than %u functions, loops and switches nested",
			       TR_MAX_ESCAPES);
	e = &t->esc[t->num_esc];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->loop_depth = t->loop_depth;
	if ((ret = tr_alloc_slot(t, AGX_IR_TYPE_B1, &e->flag)) < 0)
		return ret;
	tr_slot_set(t, e->flag, agx_imm_bool(false));
	*index = t->num_esc++;
	return 0;
}

static void kill_slots(struct tr *t, unsigned from)
{
	for (unsigned s = from; s < t->num_slots; s++) {
		t->slot_dead[s] = true;
		t->cur.v[s] = (struct agx_ir_value){ 0 };
	}
}

static void esc_pop(struct tr *t)
{
	struct tr_escape *e = &t->esc[--t->num_esc];

	t->slot_dead[e->flag] = true;
}

/* The paths that escaped to target e have arrived: they go on as live ones. */
static void esc_arrive(struct tr_path *r, unsigned e)
{
	if (r->reaches && (r->mask & (1ull << e))) {
		r->live = true;
		r->mask &= ~(1ull << e);
	}
}

static int innermost_loop(struct tr *t, unsigned *index)
{
	for (unsigned i = t->num_esc; i-- > 0;)
		if (t->esc[i].kind == TR_ESC_LOOP) {
			*index = i;
			return 0;
		}
	return tr_fail(t, -EINVAL, "a break outside a loop");
}

static int emit_break(struct tr *t, uint64_t mask, struct tr_path *out)
{
	struct tr_break *br;
	unsigned l = 0;
	int ret;

	if ((ret = innermost_loop(t, &l)) < 0)
		return ret;
	br = tr_alloc(t, sizeof(*br));
	if (!br)
		return t->err;
	br->block = t->b.cursor.block;
	br->st = save(t);
	br->mask = mask;
	br->next = t->esc[l].breaks;
	t->esc[l].breaks = br;
	agx_break(&t->b);
	*out = dead_path();
	return t->err;
}

static int escape(struct tr *t, unsigned e, struct tr_path *out)
{
	tr_slot_set(t, t->esc[e].flag, agx_imm_bool(true));
	if (t->loop_depth > t->esc[e].loop_depth)
		return emit_break(t, 1ull << e, out);
	*out = (struct tr_path){ true, false, 1ull << e, save(t) };
	return t->err;
}

static struct agx_ir_value or_flags(struct tr *t, uint64_t mask)
{
	struct agx_ir_value r = agx_imm_bool(false);
	bool first = true;

	for (unsigned e = 0; e < t->num_esc; e++) {
		struct agx_ir_value f;

		if (!(mask & (1ull << e)))
			continue;
		f = tr_slot_get(t, t->esc[e].flag);
		r = first ? f : agx_bor(&t->b, r, f);
		first = false;
	}
	return r;
}

static void clear_flags(struct tr *t, uint64_t mask)
{
	for (unsigned e = 0; e < t->num_esc; e++)
		if (mask & (1ull << e))
			tr_slot_set(t, t->esc[e].flag, agx_imm_bool(false));
}

/* ---- sequences of blocks --------------------------------------------------------------------- */

static int seq(struct tr *t, struct tr_cont c, struct tr_path *out);
static int chain(struct tr *t, struct tr_cont c, struct tr_path *out);

static int run(struct tr *t, struct tr_cont c, struct tr_path *out)
{
	return c.sw ? chain(t, c, out) : seq(t, c, out);
}

/*
 * What follows a construct whose paths end as r.  *done false: nothing
 * needs guarding, the caller goes on translating with cur.  Otherwise
 * *out is the path of the construct and all that follows it.
 */
static int after(struct tr *t, const struct tr_path *r, struct tr_cont c, struct tr_path *out,
		 bool *done)
{
	uint64_t mask, leave = 0;
	struct tr_path rest, esc, dummy;
	struct agx_ir_if *nif;
	int ret;

	*done = true;
	if (!r->reaches || !r->live) {
		/* nothing goes on from here: what follows is not translated */
		*out = *r;
		return 0;
	}
	restore(t, &r->st);
	mask = r->mask;
	for (unsigned e = 0; e < t->num_esc; e++) {
		struct agx_ir_value f = tr_slot_get(t, t->esc[e].flag);

		if (!(mask & (1ull << e)))
			continue;
		if (!f.def && f.imm == 0)
			mask &= ~(1ull << e);
		else if (t->esc[e].loop_depth < t->loop_depth)
			leave |= 1ull << e;
	}
	if (leave) {
		/* targets outside the loop we are in: out of it first */
		struct tr_state in;

		nif = agx_builder_push_if(&t->b, or_flags(t, leave));
		in = save(t);
		if ((ret = emit_break(t, leave, &dummy)) < 0)
			return ret;
		agx_builder_push_else(&t->b, nif);
		restore(t, &in);
		clear_flags(t, leave);
		esc = live_path(t);
		rest = finish_if(t, nif, &dummy, &esc);
		mask &= ~leave;
	}
	if (!mask) {
		*done = false;
		return t->err;
	}
	nif = agx_builder_push_if(&t->b, agx_bnot(&t->b, or_flags(t, mask)));
	esc = (struct tr_path){ true, false, mask, save(t) };
	clear_flags(t, mask);
	if ((ret = run(t, c, &rest)) < 0)
		return ret;
	agx_builder_push_else(&t->b, nif);
	*out = finish_if(t, nif, &rest, &esc);
	return t->err;
}

static int run_rest(struct tr *t, const struct tr_path *r, struct tr_cont c, struct tr_path *out)
{
	bool done;
	int ret;

	if ((ret = after(t, r, c, out, &done)) < 0 || done)
		return ret;
	return run(t, c, out);
}

static struct tr_cont cont_at(uint32_t label, size_t at, uint32_t stop)
{
	return (struct tr_cont){ .label = label, .at = at, .stop = stop };
}

static struct tr_block *block_of(struct tr *t, uint32_t label)
{
	const struct agx_spirv_inst *def = agx_spirv_def(t->m, label);
	unsigned i;

	if (!def || def->opcode != SpvOpLabel || !t->index[label])
		return NULL;
	i = t->index[label] - 1;
	return i < t->num_blocks ? &t->blocks[i] : NULL;
}

enum jump { J_FRESH, J_STOP, J_BREAK, J_CONTINUE, J_SWITCH_BREAK };

static enum jump classify(struct tr *t, uint32_t target, uint32_t stop, unsigned *e)
{
	if (target == stop)
		return J_STOP;
	for (unsigned i = t->num_esc; i-- > 0;) {
		const struct tr_escape *x = &t->esc[i];

		if (x->kind == TR_ESC_FUNC)
			break;
		if (x->kind == TR_ESC_SWITCH && target == x->merge) {
			*e = i;
			return J_SWITCH_BREAK;
		}
		if (x->kind == TR_ESC_LOOP) {
			*e = i;
			if (target == x->merge)
				return J_BREAK;
			if (target == x->cont)
				return J_CONTINUE;
			break;
		}
	}
	return J_FRESH;
}

/* SPIR-V's phis of target, for the edge from block `from`: their slots take the values. */
static int assign_phis(struct tr *t, uint32_t target, uint32_t from)
{
	const struct tr_block *blk = block_of(t, target);
	struct agx_ir_value *vals[64];
	unsigned slots[64], counts[64], n = 0;
	int ret;

	if (!blk)
		return 0;
	for (size_t i = blk->first; i < blk->term && t->m->insts[i].opcode == SpvOpPhi; i++) {
		const struct agx_spirv_inst *phi = &t->m->insts[i];
		unsigned nops = agx_spirv_num_operands(phi), k;

		if (n == 64)
			return tr_fail(t, -ENOTSUP, "more than 64 OpPhi in block %u", target);
		for (k = 0; k + 1 < nops; k += 2)
			if (agx_spirv_operand(phi, k + 1) == from)
				break;
		if (k + 1 >= nops)
			return tr_fail(t, -EINVAL, "OpPhi %u has no value for block %u",
				       phi->result, from);
		counts[n] = tr_type(t, phi->type) ? tr_type(t, phi->type)->n : 0;
		if (!t->phi_slot[phi->result] ||
		    (ret = tr_get_ssa(t, agx_spirv_operand(phi, k), &vals[n], &counts[n])) < 0)
			return t->err ? t->err
				      : tr_fail(t, -EINVAL, "OpPhi %u outside its function",
						phi->result);
		if (tr_val_type(t, agx_spirv_operand(phi, k)) != phi->type)
			return tr_fail(t, -EINVAL, "OpPhi %u of a value of another type",
				       phi->result);
		slots[n++] = t->phi_slot[phi->result] - 1;
	}
	/* all read first, then written: a phi may read another's old value */
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < counts[i]; k++)
			tr_slot_set(t, slots[i] + k, vals[i][k]);
	return 0;
}

/* A branch to a target that is not translated where it is: a jump. */
static int jump(struct tr *t, uint32_t target, uint32_t stop, struct tr_path *out)
{
	unsigned e = 0;

	switch (classify(t, target, stop, &e)) {
	case J_STOP:
		*out = live_path(t);
		return t->err;
	case J_BREAK:
		return emit_break(t, 0, out);
	case J_CONTINUE:
	case J_SWITCH_BREAK:
		return escape(t, e, out);
	default:
		return tr_fail(t, -EINVAL, "a jump to block %u", target);
	}
}

static int do_if(struct tr *t, const struct tr_block *blk, struct agx_ir_value cond, uint32_t tl,
		 uint32_t fl, uint32_t merge, const struct tr_cont *c, struct tr_path *out,
		 bool *done)
{
	struct tr_path rt, rf, rest;
	struct tr_state st0 = save(t);
	struct agx_ir_if *nif = agx_builder_push_if(&t->b, cond);
	struct tr_path *live_arm = NULL;
	struct agx_ir_cf_list *live_list = NULL;
	int ret;

	if ((ret = assign_phis(t, tl, blk->label)) < 0 ||
	    (ret = seq(t, cont_at(tl, 0, merge), &rt)) < 0)
		return ret;
	agx_builder_push_else(&t->b, nif);
	restore(t, &st0);
	if ((ret = assign_phis(t, fl, blk->label)) < 0 ||
	    (ret = seq(t, cont_at(fl, 0, merge), &rf)) < 0)
		return ret;
	if (rt.reaches && !rt.live && rf.reaches && rf.live) {
		live_arm = &rf;
		live_list = &nif->else_list;
	} else if (rf.reaches && !rf.live && rt.reaches && rt.live) {
		live_arm = &rt;
		live_list = &nif->then_list;
	}
	if (live_arm) {
		/* one arm escaped: what follows runs in the other, with no flag to test */
		t->b.cursor = agx_ir_cursor_end(agx_ir_cf_list_last_block(live_list));
		if ((ret = run_rest(t, live_arm, cont_at(merge, 0, c->stop), &rest)) < 0)
			return ret;
		*live_arm = rest;
		*out = finish_if(t, nif, &rt, &rf);
		*done = true;
		return t->err;
	}
	rest = finish_if(t, nif, &rt, &rf);
	return after(t, &rest, cont_at(merge, 0, c->stop), out, done);
}

/* A conditional branch without a selection merge: each target is a jump but one at most. */
static int do_branch_jumps(struct tr *t, const struct tr_block *blk, struct agx_ir_value cond,
			   uint32_t tl, uint32_t fl, const struct tr_cont *c, struct tr_path *out)
{
	unsigned e;
	bool fresh_t = classify(t, tl, c->stop, &e) == J_FRESH;
	bool fresh_f = classify(t, fl, c->stop, &e) == J_FRESH;
	struct tr_state st0;
	struct tr_path rt, rf;
	struct agx_ir_if *nif;
	int ret;

	if (fresh_t && fresh_f)
		return tr_fail(t, -EINVAL,
			       "block %u branches to two new blocks without a selection merge",
			       blk->label);
	st0 = save(t);
	nif = agx_builder_push_if(&t->b, cond);
	if ((ret = assign_phis(t, tl, blk->label)) < 0)
		return ret;
	ret = fresh_t ? seq(t, cont_at(tl, 0, c->stop), &rt) : jump(t, tl, c->stop, &rt);
	if (ret < 0)
		return ret;
	agx_builder_push_else(&t->b, nif);
	restore(t, &st0);
	if ((ret = assign_phis(t, fl, blk->label)) < 0)
		return ret;
	ret = fresh_f ? seq(t, cont_at(fl, 0, c->stop), &rf) : jump(t, fl, c->stop, &rf);
	if (ret < 0)
		return ret;
	*out = finish_if(t, nif, &rt, &rf);
	return t->err;
}

/* ---- switches ----------------------------------------------------------------------------------
 */

/* a || b, without the || when a is false */
static struct agx_ir_value or_bool(struct tr *t, struct agx_ir_value a, struct agx_ir_value b)
{
	return !a.def && a.imm == 0 ? b : agx_bor(&t->b, a, b);
}

struct tr_switch {
	uint32_t *targets; /* the case blocks in the order of the function */
	struct agx_ir_value *conds;
	unsigned count;
	uint32_t merge, stop;
};

static int chain(struct tr *t, struct tr_cont c, struct tr_path *out)
{
	struct tr_switch *sw = c.sw;
	unsigned i = c.case_index;
	struct agx_ir_value cond;
	struct tr_state st0;
	struct tr_path rt, re, rest;
	struct agx_ir_if *nif;
	struct tr_cont next = c;
	int ret;

	if (i == sw->count) {
		*out = live_path(t);
		return t->err;
	}
	if (++t->nesting > TR_MAX_NESTING)
		return tr_fail(t, -ENOTSUP, "control flow nested more than %u deep",
			       TR_MAX_NESTING);
	cond = or_bool(t, c.prev, sw->conds[i]);
	st0 = save(t);
	nif = agx_builder_push_if(&t->b, cond);
	ret = seq(t, cont_at(sw->targets[i], 0, i + 1 < sw->count ? sw->targets[i + 1] : sw->merge),
		  &rt);
	if (ret < 0)
		goto done;
	agx_builder_push_else(&t->b, nif);
	restore(t, &st0);
	re = live_path(t);
	next.case_index = i + 1;
	if (rt.reaches && !rt.live) {
		/* the case broke out: the later cases are the else arm's */
		next.prev = agx_imm_bool(false);
		if ((ret = chain(t, next, &rest)) < 0)
			goto done;
		*out = finish_if(t, nif, &rt, &rest);
	} else {
		rest = finish_if(t, nif, &rt, &re);
		next.prev = cond;
		ret = run_rest(t, &rest, next, out);
	}
done:
	t->nesting--;
	return ret < 0 ? ret : t->err;
}

static unsigned block_pos(struct tr *t, uint32_t label)
{
	return t->index[label] - 1;
}

/*
 * The order to translate cases in: one that falls through into another
 * just before it.  glslang puts a switch's blocks in no such order (the
 * default's first), but each case's blocks together from its target, so
 * a case's blocks run from its target to the next target or the merge.
 */
static int order_cases(struct tr *t, struct tr_switch *sw)
{
	unsigned n = sw->count, *into, k = 0;
	uint32_t *sorted, *order;
	bool *placed;

	sorted = tr_alloc(t, n * sizeof(*sorted));
	order = tr_alloc(t, n * sizeof(*order));
	into = tr_alloc(t, n * sizeof(*into));
	placed = tr_alloc(t, n * sizeof(*placed));
	if (!sorted || !order || !into || !placed)
		return t->err;
	memcpy(sorted, sw->targets, n * sizeof(*sorted));
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && block_pos(t, sorted[j - 1]) > block_pos(t, sorted[j]);
		     j--) {
			uint32_t x = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = x;
		}
	for (unsigned i = 0; i < n; i++) {
		unsigned from = block_pos(t, sorted[i]),
			 to = t->cur_func->first_block + t->cur_func->num_blocks;

		into[i] = n;
		if (i + 1 < n)
			to = block_pos(t, sorted[i + 1]);
		if (block_pos(t, sw->merge) > from && block_pos(t, sw->merge) < to)
			to = block_pos(t, sw->merge);
		for (unsigned bi = from; bi < to; bi++) {
			const struct agx_spirv_inst *term = &t->m->insts[t->blocks[bi].term];
			unsigned nops = agx_spirv_num_operands(term);

			for (unsigned o = 0; o < nops; o++)
				for (unsigned j = 0; j < n; j++)
					if (j != i && agx_spirv_operand(term, o) == sorted[j] &&
					    term->opcode != SpvOpSwitch && into[i] != j) {
						if (into[i] != n)
							return tr_fail(t, -EINVAL,
								       "a case falls through "
								       "into two others");
						into[i] = j;
					}
		}
	}
	/* chains from the cases nothing falls into, in block order */
	for (unsigned i = 0; i < n; i++) {
		bool head = true;

		for (unsigned j = 0; j < n; j++)
			head &= into[j] != i;
		for (unsigned c = i; head && c < n && !placed[c]; c = into[c]) {
			placed[c] = true;
			order[k++] = sorted[c];
		}
	}
	if (k != n)
		return tr_fail(t, -EINVAL, "switch cases fall through into each other in a cycle");
	memcpy(sw->targets, order, n * sizeof(*order));
	return 0;
}

static int do_switch(struct tr *t, const struct tr_block *blk, const struct agx_spirv_inst *term,
		     const struct tr_cont *c, struct tr_path *out, bool *done)
{
	const struct agx_spirv_inst *mi = blk->merge != SIZE_MAX ? &t->m->insts[blk->merge] : NULL;
	unsigned nops = agx_spirv_num_operands(term), npairs, one = 1, e;
	uint32_t merge, def = agx_spirv_operand(term, 1);
	struct agx_ir_value *sel, any = agx_imm_bool(false);
	struct tr_switch *sw;
	struct tr_path r;
	int ret;

	if (!mi || mi->opcode != SpvOpSelectionMerge)
		return tr_fail(t, -EINVAL, "OpSwitch in block %u without OpSelectionMerge",
			       blk->label);
	merge = agx_spirv_operand(mi, 0);
	if (!block_of(t, merge))
		return tr_fail(t, -EINVAL, "the merge %u of a switch is no block", merge);
	if (nops < 2 || nops % 2)
		return tr_fail(t, -EINVAL, "OpSwitch of %u operands (32-bit selectors only)", nops);
	if ((ret = tr_get_ssa(t, agx_spirv_operand(term, 0), &sel, &one)) < 0)
		return ret;
	if (sel[0].type != AGX_IR_TYPE_I32)
		return tr_fail(t, -EINVAL, "OpSwitch on a value that is no integer");
	npairs = (nops - 2) / 2;
	sw = tr_alloc(t, sizeof(*sw));
	if (!sw || !(sw->targets = tr_alloc(t, (npairs + 1) * sizeof(*sw->targets))) ||
	    !(sw->conds = tr_alloc(t, (npairs + 1) * sizeof(*sw->conds))))
		return t->err;
	sw->merge = merge;
	sw->stop = c->stop;
	for (unsigned i = 0; i <= npairs; i++) {
		uint32_t target = i < npairs ? agx_spirv_operand(term, 3 + 2 * i) : def;
		bool seen = target == merge;

		if (!block_of(t, target))
			return tr_fail(t, -EINVAL, "OpSwitch to %u, which is no block", target);
		for (unsigned k = 0; k < sw->count && !seen; k++)
			seen = sw->targets[k] == target;
		if (!seen)
			sw->targets[sw->count++] = target;
		if ((ret = assign_phis(t, target, blk->label)) < 0)
			return ret;
	}
	if ((ret = assign_phis(t, merge, blk->label)) < 0)
		return ret;
	if ((ret = order_cases(t, sw)) < 0)
		return ret;
	/* each case's condition, computed before any case runs */
	for (unsigned i = 0; i < npairs; i++)
		any = agx_bor(
		    &t->b, any,
		    agx_ieq(&t->b, sel[0], agx_imm_u32(agx_spirv_operand(term, 2 + 2 * i))));
	for (unsigned k = 0; k < sw->count; k++) {
		struct agx_ir_value m = agx_imm_bool(false);

		for (unsigned i = 0; i < npairs; i++)
			if (agx_spirv_operand(term, 3 + 2 * i) == sw->targets[k])
				m = agx_bor(
				    &t->b, m,
				    agx_ieq(&t->b, sel[0],
					    agx_imm_u32(agx_spirv_operand(term, 2 + 2 * i))));
		if (sw->targets[k] == def)
			m = agx_bor(&t->b, m, agx_bnot(&t->b, any));
		sw->conds[k] = m;
	}
	if ((ret = esc_push(t, TR_ESC_SWITCH, &e)) < 0)
		return ret;
	t->esc[e].merge = merge;
	ret = chain(t, (struct tr_cont){ .sw = sw, .case_index = 0, .prev = agx_imm_bool(false) },
		    &r);
	if (ret < 0)
		return ret;
	esc_arrive(&r, e);
	esc_pop(t);
	return after(t, &r, cont_at(merge, 0, c->stop), out, done);
}

/* ---- loops
 * --------------------------------------------------------------------------------------- */

static int do_loop(struct tr *t, const struct tr_block *blk, struct tr_path *out)
{
	const struct agx_spirv_inst *lm = &t->m->insts[blk->merge];
	uint32_t merge = agx_spirv_operand(lm, 0), cont = agx_spirv_operand(lm, 1);
	unsigned nslots = t->num_slots, n = 0, l;
	struct agx_ir_instr **phis;
	struct agx_ir_block *pre, **preds;
	struct tr_state *states;
	struct agx_ir_loop *loop;
	struct tr_path r, r2;
	bool live = false;
	uint64_t mask = 0;
	int ret;

	if (!block_of(t, merge) || !block_of(t, cont))
		return tr_fail(t, -EINVAL, "OpLoopMerge of block %u names no blocks", blk->label);
	phis = tr_alloc(t, (nslots ? nslots : 1) * sizeof(*phis));
	if (!phis)
		return t->err;
	loop = agx_builder_push_loop(&t->b);
	pre = agx_ir_cf_node_block_before(&loop->node);
	/* every live slot may change in the loop: a phi each, trivial ones go later */
	for (unsigned s = 0; s < nslots; s++) {
		struct agx_ir_value phi;

		if (slot_dead(t, s))
			continue;
		phi = agx_phi(&t->b, t->slot_type[s]);
		agx_ir_phi_add_src(phi.def->instr, pre, materialize(t, t->cur.v[s], s));
		phis[s] = phi.def->instr;
		t->cur.v[s] = phi;
	}
	t->loop_depth++;
	if ((ret = esc_push(t, TR_ESC_LOOP, &l)) < 0)
		return ret;
	t->esc[l].merge = merge;
	t->esc[l].cont = cont;
	/* a loop whose continue target is its header: branching back is "continue" */
	ret = seq(t,
		  (struct tr_cont){ .label = blk->label,
				    .stop = cont == blk->label ? 0 : cont,
				    .loop_entry = blk->label },
		  &r);
	if (ret < 0)
		return ret;
	esc_arrive(&r, l);
	/* the continue construct: branching to it again would be no continue */
	t->esc[l].cont = 0;
	if (r.reaches && r.live && cont != blk->label) {
		if ((ret = run_rest(t, &r, cont_at(cont, 0, blk->label), &r2)) < 0)
			return ret;
		r = r2;
	}
	if (r.reaches) {
		struct agx_ir_block *end = agx_ir_cf_list_last_block(&loop->body);

		for (unsigned s = 0; s < nslots; s++)
			if (phis[s])
				agx_ir_phi_add_src(phis[s], end,
						   materialize(t, state_get(&r.st, s), s));
	}
	for (struct tr_break *br = t->esc[l].breaks; br; br = br->next)
		n++;
	preds = tr_alloc(t, (n ? n : 1) * sizeof(*preds));
	states = tr_alloc(t, (n ? n : 1) * sizeof(*states));
	if (!preds || !states)
		return t->err;
	n = 0;
	for (struct tr_break *br = t->esc[l].breaks; br; br = br->next) {
		preds[n] = br->block;
		states[n++] = br->st;
		live |= br->mask == 0;
		mask |= br->mask;
	}
	esc_pop(t);
	t->loop_depth--;
	agx_builder_pop_loop(&t->b, loop);
	if (n == 0) {
		/* a loop left by no break: nothing follows it */
		*out = dead_path();
		return t->err;
	}
	merge_states(t, agx_ir_cf_node_block_after(&loop->node), n, preds, states);
	*out = (struct tr_path){ true, live, mask, save(t) };
	return t->err;
}

/* ---- calls
 * ----------------------------------------------------------------------------------------- */

static struct tr_func *func_of(struct tr *t, uint32_t id)
{
	const struct agx_spirv_inst *def = agx_spirv_def(t->m, id);

	if (!def || def->opcode != SpvOpFunction || !t->index[id] || t->index[id] > t->num_funcs)
		return NULL;
	return &t->funcs[t->index[id] - 1];
}

/* A new instance of f: its values forgotten, its phis' slots made. */
static int enter(struct tr *t, struct tr_func *f)
{
	for (size_t i = f->first; i <= f->end; i++) {
		const struct agx_spirv_inst *in = &t->m->insts[i];

		if (in->result) {
			t->vals[in->result].kind = TR_V_NONE;
			t->phi_slot[in->result] = 0;
		}
	}
	for (size_t i = f->first; i <= f->end; i++) {
		const struct agx_spirv_inst *in = &t->m->insts[i];
		unsigned slot;
		int ret;

		if (in->opcode != SpvOpPhi)
			continue;
		if ((ret = tr_alloc_slots(t, in->type, &slot)) < 0)
			return ret;
		t->phi_slot[in->result] = slot + 1;
	}
	t->instance = ++t->num_instances;
	return 0;
}

static int body(struct tr *t, struct tr_func *f, unsigned *esc_index, struct tr_path *r)
{
	unsigned e;
	int ret;

	if ((ret = esc_push(t, TR_ESC_FUNC, &e)) < 0)
		return ret;
	*esc_index = e;
	if (f->ret_type && tr_type(t, f->ret_type)->kind != TR_T_VOID &&
	    (ret = tr_alloc_slots(t, f->ret_type, &t->esc[e].ret_slot)) < 0)
		return ret;
	f->active = true;
	ret = seq(t, cont_at(t->blocks[f->first_block].label, 0, 0), r);
	f->active = false;
	if (ret < 0)
		return ret;
	esc_arrive(r, e);
	return 0;
}

/*
 * The value a call returns: its return slots on the paths that reached
 * the end.  Apart from call(), which recurses, so that its frame stays small.
 */
static __attribute__((noinline)) int call_result(struct tr *t, const struct agx_spirv_inst *in,
						 const struct tr_func *f, unsigned e,
						 const struct tr_path *out)
{
	const struct tr_type *rt = tr_type(t, f->ret_type);
	struct agx_ir_value r[TR_MAX_SCALARS];
	enum agx_ir_type flat[TR_MAX_SCALARS];
	int ret;

	if (rt->kind == TR_T_VOID)
		return 0;
	if ((ret = tr_flat_types(t, f->ret_type, flat)) < 0)
		return ret;
	if (out->reaches)
		restore(t, &out->st);
	for (unsigned k = 0; k < rt->n; k++)
		r[k] = out->reaches ? tr_slot_get(t, t->esc[e].ret_slot + k) : tr_undef(t, flat[k]);
	return tr_set_ssa(t, in->result, in->type, r, rt->n);
}

static int call(struct tr *t, const struct agx_spirv_inst *in, struct tr_path *out)
{
	struct tr_func *f = func_of(t, agx_spirv_operand(in, 0));
	unsigned nargs = agx_spirv_num_operands(in) - 1, mark = t->num_slots, e, prev = t->instance;
	int ret;

	if (!f || agx_spirv_num_operands(in) < 1)
		return tr_fail(t, -EINVAL, "OpFunctionCall of %u, which is no function",
			       agx_spirv_operand(in, 0));
	if (f->active)
		return tr_fail(t, -EINVAL, "function %u calls itself, which GLSL does not allow",
			       f->id);
	if (t->call_depth >= TR_MAX_CALL_DEPTH)
		return tr_fail(t, -ENOTSUP, "calls nested more than %u deep", TR_MAX_CALL_DEPTH);
	if (nargs != f->num_params || in->type != f->ret_type)
		return tr_fail(t, -EINVAL, "OpFunctionCall of %u with %u arguments (it takes %u)",
			       f->id, nargs, f->num_params);
	for (unsigned p = 0; p < nargs; p++) {
		uint32_t arg = agx_spirv_operand(in, 1 + p);
		const struct agx_spirv_inst *param = &t->m->insts[f->first_param + p];

		if (arg >= t->m->bound || t->vals[arg].kind == TR_V_NONE ||
		    t->vals[arg].type != param->type)
			return tr_fail(t, -EINVAL, "argument %u of a call to %u is no %u", p, f->id,
				       param->type);
	}
	if ((ret = enter(t, f)) < 0)
		return ret;
	/* the parameters are the arguments: values, or pointers to the caller's variables */
	for (unsigned p = 0; p < nargs; p++)
		t->vals[t->m->insts[f->first_param + p].result] =
		    t->vals[agx_spirv_operand(in, 1 + p)];
	t->call_depth++;
	t->cur_func = f;
	ret = body(t, f, &e, out);
	t->call_depth--;
	if (ret < 0)
		return ret;
	if ((ret = call_result(t, in, f, e, out)) < 0)
		return ret;
	esc_pop(t);
	t->instance = prev;
	if (out->reaches) {
		/* the callee's variables are gone */
		restore(t, &out->st);
		kill_slots(t, mark);
		out->st = save(t);
	} else {
		kill_slots(t, mark);
	}
	return t->err;
}

/* ---- a sequence
 * ------------------------------------------------------------------------------------- */

static int terminator(struct tr *t, const struct tr_block *blk, const struct tr_cont *c,
		      struct tr_path *out, uint32_t *next, bool *done)
{
	const struct agx_spirv_inst *term = &t->m->insts[blk->term];
	const struct agx_spirv_inst *mi = blk->merge != SIZE_MAX ? &t->m->insts[blk->merge] : NULL;
	struct agx_ir_value *cond;
	unsigned one = 1, e;
	uint32_t tl, fl;
	int ret;

	*done = true;
	switch (term->opcode) {
	case SpvOpBranch:
		if ((ret = assign_phis(t, agx_spirv_operand(term, 0), blk->label)) < 0)
			return ret;
		*next = agx_spirv_operand(term, 0);
		*done = false;
		return 0;
	case SpvOpBranchConditional:
		tl = agx_spirv_operand(term, 1);
		fl = agx_spirv_operand(term, 2);
		if ((ret = tr_get_ssa(t, agx_spirv_operand(term, 0), &cond, &one)) < 0)
			return ret;
		if (cond[0].type != AGX_IR_TYPE_B1)
			return tr_fail(t, -EINVAL, "a branch on a value that is no bool");
		if (tl == fl) {
			if ((ret = assign_phis(t, tl, blk->label)) < 0)
				return ret;
			*next = tl;
			*done = false;
			return 0;
		}
		if (mi && mi->opcode == SpvOpSelectionMerge) {
			ret =
			    do_if(t, blk, cond[0], tl, fl, agx_spirv_operand(mi, 0), c, out, done);
			if (ret == 0 && !*done)
				*next = agx_spirv_operand(mi, 0);
			return ret;
		}
		return do_branch_jumps(t, blk, cond[0], tl, fl, c, out);
	case SpvOpSwitch:
		ret = do_switch(t, blk, term, c, out, done);
		if (ret == 0 && !*done)
			*next = agx_spirv_operand(mi, 0);
		return ret;
	case SpvOpReturn:
	case SpvOpReturnValue:
		for (e = t->num_esc; e-- > 0 && t->esc[e].kind != TR_ESC_FUNC;)
			;
		if (term->opcode == SpvOpReturnValue) {
			const struct tr_func *f = t->cur_func;
			struct agx_ir_value *v;
			unsigned n = 0;

			if (tr_type(t, f->ret_type)->kind == TR_T_VOID ||
			    tr_val_type(t, agx_spirv_operand(term, 0)) != f->ret_type)
				return tr_fail(t, -EINVAL,
					       "OpReturnValue of a value not of the "
					       "function's return type");
			if ((ret = tr_get_ssa(t, agx_spirv_operand(term, 0), &v, &n)) < 0)
				return ret;
			for (unsigned k = 0; k < n; k++)
				tr_slot_set(t, t->esc[e].ret_slot + k, v[k]);
		}
		return escape(t, e, out);
	case SpvOpKill:
		if (t->stage != AGX_IR_STAGE_FRAGMENT)
			return tr_fail(t, -EINVAL, "OpKill outside a fragment shader");
		/* discard ends the invocation: what follows is skipped like after a return from
		 * main */
		agx_discard(&t->b);
		return escape(t, 0, out);
	default: /* OpUnreachable */
		*out = (struct tr_path){ true, false, 0, save(t) };
		return t->err;
	}
}

/*
 * SPIR-V's phis at the start of blk: the values their slots got on the way
 * here.  Apart from seq(), which recurses, so that its frame stays small.
 */
static __attribute__((noinline)) int read_phis(struct tr *t, const struct tr_block *blk, size_t *at)
{
	struct agx_ir_value v[TR_MAX_SCALARS];
	int ret;

	for (; *at < blk->term && t->m->insts[*at].opcode == SpvOpPhi; (*at)++) {
		const struct agx_spirv_inst *phi = &t->m->insts[*at];
		const struct tr_type *pt = tr_type(t, phi->type);

		if (!pt || !t->phi_slot[phi->result] || pt->n > TR_MAX_SCALARS)
			return tr_fail(t, -EINVAL, "OpPhi %u of type %u", phi->result, phi->type);
		for (unsigned k = 0; k < pt->n; k++)
			v[k] = tr_slot_get(t, t->phi_slot[phi->result] - 1 + k);
		if ((ret = tr_set_ssa(t, phi->result, phi->type, v, pt->n)) < 0)
			return ret;
	}
	return 0;
}

static int seq(struct tr *t, struct tr_cont c, struct tr_path *out)
{
	uint32_t label = c.label;
	size_t at = c.at;
	int ret = 0;

	if (++t->nesting > TR_MAX_NESTING) {
		ret = tr_fail(t, -ENOTSUP, "control flow nested more than %u deep", TR_MAX_NESTING);
		goto done;
	}
	for (;;) {
		struct tr_block *blk;
		struct tr_path r;
		bool done;
		unsigned e;
		uint32_t next = 0;
		size_t end;

		if ((ret = tr_check_budget(t)) < 0)
			goto done;
		if (at == 0 && label != c.loop_entry && classify(t, label, c.stop, &e) != J_FRESH) {
			ret = jump(t, label, c.stop, out);
			goto done;
		}
		blk = block_of(t, label);
		if (!blk || blk < &t->blocks[t->cur_func->first_block] ||
		    blk >= &t->blocks[t->cur_func->first_block + t->cur_func->num_blocks]) {
			ret = tr_fail(t, -EINVAL,
				      "a branch to %u, which is no block of the function", label);
			goto done;
		}
		if (at == 0) {
			if (blk->merge != SIZE_MAX &&
			    t->m->insts[blk->merge].opcode == SpvOpLoopMerge &&
			    label != c.loop_entry) {
				if ((ret = do_loop(t, blk, &r)) < 0 ||
				    (ret = after(
					 t, &r,
					 cont_at(agx_spirv_operand(&t->m->insts[blk->merge], 0), 0,
						 c.stop),
					 out, &done)) < 0 ||
				    done)
					goto done;
				label = agx_spirv_operand(&t->m->insts[blk->merge], 0);
				continue;
			}
			if (blk->visited == t->instance) {
				ret = tr_fail(t, -EINVAL,
					      "block %u is reached twice: the control flow is not "
					      "structured",
					      label);
				goto done;
			}
			blk->visited = t->instance;
			at = blk->first;
			if ((ret = read_phis(t, blk, &at)) < 0)
				goto done;
		}
		c.loop_entry = 0;
		end = blk->merge != SIZE_MAX ? blk->merge : blk->term;
		for (; at < end; at++) {
			const struct agx_spirv_inst *in = &t->m->insts[at];

			if (in->opcode == SpvOpFunctionCall) {
				struct tr_func *caller = t->cur_func;

				ret = call(t, in, &r);
				t->cur_func = caller;
				if (ret < 0 ||
				    (ret = after(t, &r, cont_at(label, at + 1, c.stop), out,
						 &done)) < 0 ||
				    done)
					goto done;
				continue;
			}
			if (in->opcode == SpvOpPhi) {
				ret = tr_fail(t, -EINVAL, "OpPhi %u after the start of its block",
					      in->result);
				goto done;
			}
			if ((ret = tr_instruction(t, in)) < 0 || (ret = tr_check_budget(t)) < 0)
				goto done;
		}
		if ((ret = terminator(t, blk, &c, out, &next, &done)) < 0 || done)
			goto done;
		label = next;
		at = 0;
	}
done:
	t->nesting--;
	return ret < 0 ? ret : t->err;
}

int tr_main(struct tr *t, uint32_t func_id)
{
	struct tr_func *f = func_of(t, func_id);
	struct tr_path r;
	unsigned e;
	int ret;

	if (!f || f->num_params || tr_type(t, f->ret_type)->kind != TR_T_VOID)
		return tr_fail(t, -EINVAL, "the entry point %u is no function of no parameters",
			       func_id);
	t->phi_slot = calloc(t->m->bound, sizeof(*t->phi_slot));
	if (!t->phi_slot)
		return tr_fail(t, -ENOMEM, "out of memory");
	if ((ret = enter(t, f)) < 0)
		return ret;
	t->cur_func = f;
	if ((ret = body(t, f, &e, &r)) < 0)
		return ret;
	esc_pop(t);
	if (r.reaches) {
		restore(t, &r.st);
		t->b.cursor = agx_ir_cursor_end(agx_ir_function_last_block(t->func));
		tr_store_outputs(t);
	}
	return t->err;
}

void tr_remove_trivial_phis(struct tr *t)
{
	bool progress = true;

	while (progress) {
		progress = false;
		agx_ir_foreach_block(t->func, blk) {
			agx_ir_foreach_instr_safe(blk, phi) {
				struct agx_ir_value only = { 0 };
				bool have = false, trivial = true;

				if (phi->op != AGX_IR_OP_phi)
					break;
				agx_ir_foreach_src(phi, s) {
					struct agx_ir_value v = agx_ir_src_value(s);

					if (v.def == &phi->dest)
						continue;
					if (have && !tr_value_equal(v, only)) {
						trivial = false;
						break;
					}
					only = v;
					have = true;
				}
				if (!trivial || !have)
					continue;
				agx_ir_def_rewrite_uses(&phi->dest, only);
				agx_ir_instr_remove(phi);
				progress = true;
			}
		}
	}
}

/*
 * agx_isel.c: instruction selection -- lowered IR onto G13 instructions
 * (agx_mir.h), one linear list, the structured control flow spelled with
 * the execution mask (docs/compiler.md, "The back end").
 *
 * The execution mask (applegpu's model, docs/isa.md): r0l counts, per
 * lane, how many nesting levels disable it; a lane runs when it is 0.
 *
 *   if c { A } else { B }    if_icmp r0l, nueq, c, 0, 1; A; else_exec r0l, 1; B;
 *                            pop_exec r0l, 1
 *   loop { A }               push_exec r0l, 2; L: A; while_icmp r0l, ueq, 0, 0, 2;
 *                            jmp_exec_any L; pop_exec r0l, 2
 *
 * Inside a loop, a lane at 0 is running, 1 has continued (while brings it
 * back), 2 has broken out (the pop after the loop brings it back).  Inside
 * d ifs of its loop, break writes d + 2 to r0l and continue d + 1: r0l is
 * an ordinary register, so the write reaches the running lanes only, and
 * pop_exec r0l, 0 then recomputes the mask (Mesa's asahi compiler does
 * the same, agx_compile.c; the instructions' own n has two bits, too few
 * for deep nests).
 *
 * Booleans (b1) are 16-bit 0 or 1, what the compare-selects make.
 *
 * Graphics I/O (vertex IDs from r5/r6, st_var, iter/ldcf, st_tile,
 * sample_mask, zs_emit) follows docs/compiler.md, "Graphics I/O", on the
 * placements agx_lower_io made (var.slot).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_mir.h"

enum val_kind {
	VAL_NONE,
	VAL_OPD,  /* a register, a uniform or a constant */
	VAL_FMOD, /* fneg/fabs of base: folded into the readers' modifiers */
};

struct val {
	enum val_kind kind;
	struct mir_opd opd;
	struct agx_ir_value base;
	unsigned mods; /* MIR_NEG | MIR_ABS */
};

/* A packed render target's components, until the end of their block. */
struct packed_rt {
	bool any, have[4];
	enum agx_isa_memformat format;
	unsigned offset;
	unsigned samples; /* the st_tile's sample mask */
	struct mir_opd c[4];
};

/* A packed target's ld_tile in the current block, whose components later load_tiles share. */
struct loaded_rt {
	struct agx_ir_block *block;
	unsigned vreg;
	unsigned samples; /* the ld_tile's sample mask */
};

struct isel {
	struct mir_program *p;
	struct packed_rt packed[8];
	struct packed_rt spilled[8]; /* a spilled target's components, until the block ends */
	struct loaded_rt loaded[8];
	struct agx_ir_shader *shader;
	const struct agx_compile_options *options;
	/* the copies of r5 and r6 (vertex and instance ID) made at entry */
	struct mir_opd vertex_id, instance_id;
	int last_st_var; /* the final st_var, when it is outside ifs and loops; or -1 */
	struct val *vals;
	unsigned ifs; /* ifs around the current block inside its innermost loop */
	int loop;     /* that loop's index, -1 outside loops */
};

/* What an operand may be besides a register. */
enum {
	A_IMM8 = 1 << 0,   /* an 8-bit integer */
	A_FIMM = 1 << 1,   /* an 8-bit float */
	A_UNI = 1 << 2,	   /* a uniform register */
	A_MOD = 1 << 3,	   /* float modifiers */
	A_IMMS16 = 1 << 4, /* a signed 16-bit integer (memory offsets) */
	A_ANYIMM = 1 << 5, /* any constant (parallel copies) */
};

#define ALU			   (A_IMM8 | A_UNI)
#define FALU			   (A_FIMM | A_UNI | A_MOD)
#define OPDS(...)		   ((struct mir_opd[]){ __VA_ARGS__ })
#define NOPDS(...)		   (sizeof(OPDS(__VA_ARGS__)) / sizeof(struct mir_opd))
#define EMIT(s, mnem, ...)	   emit(s, mnem, 0, OPDS(__VA_ARGS__), NOPDS(__VA_ARGS__))
#define EMITF(s, mnem, flags, ...) emit(s, mnem, flags, OPDS(__VA_ARGS__), NOPDS(__VA_ARGS__))

static const struct mir_opd R0L = { .kind = MIR_TEXT, .count = 1, .text = "r0l" };

static unsigned type_bits(enum agx_ir_type t)
{
	return agx_ir_type_bits(t) == 32 ? 32 : 16;
}

static void emit(struct isel *s, const char *mnem, unsigned flags, const struct mir_opd *o,
		 unsigned n)
{
	struct mir_instr in = {
		.op = MIR_OP_ISA, .num_opds = (uint8_t)n, .flags = (uint8_t)flags, .mnem = mnem
	};

	if (n)
		memcpy(in.opd, o, n * sizeof(*o));
	mir_append(s->p, &in);
}

static struct mir_opd with_flags(struct mir_opd o, unsigned flags)
{
	o.flags |= (uint8_t)flags;
	return o;
}

static double imm_float(uint32_t bits, enum agx_ir_type t)
{
	float f;

	if (t == AGX_IR_TYPE_F16)
		return agx_ir_f16_to_f32((uint16_t)bits);
	memcpy(&f, &bits, 4);
	return f;
}

/* A constant's bits with float modifiers applied. */
static uint32_t imm_mods(uint32_t bits, enum agx_ir_type t, unsigned mods)
{
	uint32_t sign = t == AGX_IR_TYPE_F16 ? 0x8000u : 0x80000000u;

	if (mods & MIR_ABS)
		bits &= ~sign;
	if (mods & MIR_NEG)
		bits ^= sign;
	return bits;
}

static struct mir_opd new_dst(struct isel *s, unsigned bits, unsigned *vreg)
{
	*vreg = mir_vreg_new(s->p, bits);
	return mir_dst(*vreg, bits);
}

static struct mir_opd constant(struct isel *s, uint32_t bits, enum agx_ir_type t, unsigned allow)
{
	unsigned size = type_bits(t), v;
	struct mir_opd d;

	if (size == 16)
		bits &= 0xffff;
	if ((allow & A_FIMM) && agx_ir_type_is_float(t)) {
		int enc = mir_float_imm(imm_float(bits, t));

		if (enc >= 0)
			return (
			    struct mir_opd){ .kind = MIR_FIMM, .count = 1, .value = (uint32_t)enc };
	}
	if (((allow & A_IMM8) && bits < 256) || (allow & A_ANYIMM))
		return mir_imm(bits);
	if ((allow & A_IMMS16) && ((int32_t)bits >= -32768 && (int32_t)bits <= 32767)) {
		struct mir_opd o = mir_imm(bits);

		o.flags = MIR_SIGN;
		return o;
	}
	d = new_dst(s, size, &v);
	EMIT(s, "mov_imm", d, mir_imm(bits));
	return mir_vreg(v, size);
}

/* base with modifiers, computed into a register: -0 is the identity of fadd. */
static struct mir_opd apply_mods(struct isel *s, struct mir_opd base, unsigned bits, unsigned mods)
{
	unsigned v;
	struct mir_opd d = new_dst(s, bits, &v);
	struct mir_opd mz = { .kind = MIR_FIMM, .count = 1, .value = 0x80 };

	EMIT(s, bits == 16 ? "fadd16" : "fadd", d, with_flags(base, mods), mz);
	return mir_vreg(v, bits);
}

/* The operand reading value v, as an operand that allows `allow`. */
static struct mir_opd get(struct isel *s, struct agx_ir_value v, unsigned allow)
{
	unsigned mods = 0, size = type_bits(v.type), r;
	struct mir_opd o;

	if (v.def && s->vals[v.def->index].kind == VAL_FMOD) {
		mods = s->vals[v.def->index].mods;
		v = s->vals[v.def->index].base;
	}
	if (!v.def)
		return constant(s, imm_mods(v.imm, v.type, mods), v.type, allow);
	if (s->vals[v.def->index].kind != VAL_OPD) {
		mir_fail(s->p, -ENOTSUP, "%%%u is read before it is written", v.def->index);
		return mir_imm(0);
	}
	o = s->vals[v.def->index].opd;
	if (o.kind == MIR_IMM)
		return constant(s, imm_mods(o.value, v.type, mods), v.type, allow);
	o.bits = (uint8_t)size;
	if (mods && !(allow & A_MOD))
		return apply_mods(s, o, size, mods);
	if (o.kind == MIR_UNIFORM && !(allow & A_UNI)) {
		struct mir_opd d = new_dst(s, size, &r);

		if (mods)
			return apply_mods(s, o, size, mods);
		EMIT(s, "mov", d, o);
		return mir_vreg(r, size);
	}
	return with_flags(o, mods);
}

static struct mir_opd src(struct isel *s, struct agx_ir_instr *in, unsigned i, unsigned allow)
{
	return get(s, agx_ir_src_value(&in->src[i]), allow);
}

/* The instruction's destination: a new register, recorded as the def's value. */
static struct mir_opd dest(struct isel *s, struct agx_ir_instr *in)
{
	unsigned bits = type_bits(in->dest.type);
	unsigned v = mir_vreg_new(s->p, bits);

	s->vals[in->dest.index] = (struct val){ .kind = VAL_OPD, .opd = mir_vreg(v, bits) };
	return mir_dst(v, bits);
}

static void alias(struct isel *s, struct agx_ir_instr *in, struct mir_opd o)
{
	s->vals[in->dest.index] = (struct val){ .kind = VAL_OPD, .opd = o };
}

static bool is16(struct agx_ir_instr *in, unsigned i)
{
	return agx_ir_type_bits(agx_ir_src_type(&in->src[i])) != 32;
}

/* ---- per op -------------------------------------------------------------- */

/*
 * The compare-selects' conditions cannot be negated (no bit for it, unlike
 * if_icmp's): a negated one selects the other way round.
 */
static const char *icond(enum agx_ir_op op, bool *swap)
{
	*swap = op == AGX_IR_OP_ine || op == AGX_IR_OP_ige || op == AGX_IR_OP_uge;
	switch (op) {
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ine:
		return "ueq";
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ige:
		return "slt";
	default:
		return "ult";
	}
}

static const char *fcond(enum agx_ir_op op, bool *swap)
{
	*swap = op == AGX_IR_OP_fne; /* not equal: true when unordered, as GLSL's != */
	switch (op) {
	case AGX_IR_OP_feq:
	case AGX_IR_OP_fne:
		return "eq";
	case AGX_IR_OP_flt:
		return "lt";
	default:
		return "gte";
	}
}

static const char *funary(enum agx_ir_op op)
{
	switch (op) {
	case AGX_IR_OP_ffloor:
		return "floor";
	case AGX_IR_OP_fceil:
		return "ceil";
	case AGX_IR_OP_ftrunc:
		return "trunc";
	case AGX_IR_OP_fround_even:
		return "rint";
	case AGX_IR_OP_frcp:
		return "rcp";
	case AGX_IR_OP_frsqrt:
		return "rsqrt";
	case AGX_IR_OP_frsqrt_special:
		return "rsqrt_special";
	case AGX_IR_OP_fexp2:
		return "exp2";
	case AGX_IR_OP_flog2:
		return "log2";
	case AGX_IR_OP_fsin_pt_1:
		return "sin_pt_1";
	default:
		return "sin_pt_2";
	}
}

static const char *const atomic_names[] = { "add",  "sub",  "xchg", "cmpxchg", "umin", "imin",
					    "umax", "imax", "and",  "or",      "xor" };

/* A shift count taken modulo the size, as the IR's shifts do. */
static struct mir_opd shift_count(struct isel *s, struct agx_ir_instr *in, unsigned bits)
{
	struct agx_ir_value c = agx_ir_src_value(&in->src[1]);
	unsigned v;
	struct mir_opd d;

	if (!c.def)
		return mir_imm(c.imm & (bits - 1));
	d = new_dst(s, bits, &v);
	EMIT(s, "and", d, get(s, c, ALU), mir_imm(bits - 1));
	return mir_vreg(v, bits);
}

/* A memory index: a signed 16-bit constant or a 32-bit register. */
static struct mir_opd mem_index(struct isel *s, struct agx_ir_instr *in, unsigned i)
{
	return src(s, in, i, A_IMMS16);
}

static struct mir_opd uniform_pair(uint32_t base)
{
	return (struct mir_opd){ .kind = MIR_UNIFORM, .bits = 64, .count = 1, .value = base };
}

/*
 * A threadgroup index in items of `bytes` from a byte address: a constant
 * offset, or the address shifted into a 16-bit register.
 */
static struct mir_opd tg_index(struct isel *s, struct agx_ir_instr *in, unsigned i, unsigned bytes)
{
	struct agx_ir_value a = agx_ir_src_value(&in->src[i]);
	unsigned v, sh = bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
	struct mir_opd d;

	if (!a.def && (a.imm >> sh) <= 32767) {
		struct mir_opd o = mir_imm(a.imm >> sh);

		o.flags = MIR_SIGN;
		return o;
	}
	d = new_dst(s, 16, &v);
	EMIT(s, "bfeil", d, mir_imm(0), get(s, a, ALU), mir_imm(sh));
	return mir_vreg(v, 16);
}

/* A register pair holding (lo, hi): cmpxchg's (new, compare). */
static struct mir_opd pair(struct isel *s, struct mir_opd lo, struct mir_opd hi)
{
	unsigned v = mir_vreg_new(s->p, 64);
	struct mir_opd dlo = mir_dst(v, 32), dhi = mir_dst(v, 32);
	struct mir_instr pc = { .op = MIR_OP_PCOPY, .num_opds = 4 };
	struct mir_opd o = mir_vreg(v, 32);

	s->p->vregs[v].unspillable = true;
	dhi.offset = 2;
	pc.opd[0] = dlo;
	pc.opd[1] = dhi;
	pc.opd[2] = lo;
	pc.opd[3] = hi;
	mir_append(s->p, &pc);
	o.count = 2;
	return o;
}

/* ---- graphics I/O (docs/compiler.md, "Graphics I/O") ------------------------ */

static bool in_stage(struct isel *s, struct agx_ir_instr *in, enum agx_ir_stage stage)
{
	if (s->shader->stage == stage)
		return true;
	mir_fail(s->p, -ENOTSUP, "%s in a %s shader", agx_ir_op_info(in->op)->name,
		 agx_ir_stage_name(s->shader->stage));
	return false;
}

/* A fragment input's component: iter (smooth, noperspective, centroid) or ldcf's C (flat). */
static int sel_varying(struct isel *s, struct agx_ir_instr *in)
{
	const struct agx_ir_var *var = agx_io_var(s->shader, AGX_IR_VAR_INPUT, in->imm[0]);
	bool flat;
	unsigned cf, v;
	struct mir_opd d, ci;

	if (!var || var->slot < 0 || type_bits(in->dest.type) != 32)
		return mir_fail(s->p, -ENOTSUP,
				"load_input of location %u: no varying placed there", in->imm[0]);
	cf = (unsigned)var->slot + agx_io_word(var, in->imm[0], in->imm[1]);
	if (cf > 255)
		return mir_fail(s->p, -ENOTSUP, "coefficient register cf%u", cf);
	ci = (struct mir_opd){ .kind = MIR_TEXT, .count = 1 };
	ci.text = agx_ir_shader_alloc(s->shader, 8);
	snprintf((char *)ci.text, 8, "cf%u", cf);
	/* integers are flat (GLSL ES 3.00 section 4.3.4): their bits must survive */
	flat = var->interp == AGX_IR_INTERP_FLAT || !agx_ir_type_is_float(in->dest.type);
	if (flat) {
		/* A, B, C of the plane; a flat one is C, the provoking vertex's word */
		d = new_dst(s, 96, &v);
		d.bits = 32;
		d.count = 3;
		EMITF(s, "ldcf", MIR_ASYNC, d, ci);
		d = mir_vreg(v, 32);
		d.offset = 4;
		alias(s, in, d);
		return 0;
	}
	/* gl_PointCoord's planes are across the screen: no division by 1/w */
	if (var->interp == AGX_IR_INTERP_NOPERSPECTIVE ||
	    var->location == AGX_IR_LOCATION_POINT_COORD)
		EMITF(s, "iter", MIR_ASYNC, dest(s, in), mir_text("no_perspective"), ci, mir_imm(0),
		      mir_text("forward"), mir_text("pixel"), mir_text("no_centroid"), mir_imm(0));
	else
		EMITF(s, "iter", MIR_ASYNC, dest(s, in), mir_text("perspective"), ci,
		      mir_text("cf0"), mir_imm(0), mir_text("forward"), mir_text("pixel"),
		      mir_text(var->interp == AGX_IR_INTERP_CENTROID ? "centroid" : "no_centroid"),
		      mir_imm(0));
	return 0;
}

/* A vertex output's word to its slot. */
static int sel_st_var(struct isel *s, struct agx_ir_instr *in)
{
	const struct agx_ir_var *var = agx_io_var(s->shader, AGX_IR_VAR_OUTPUT, in->imm[0]);
	unsigned slot;

	if (!var || var->slot < 0 || is16(in, 0))
		return mir_fail(s->p, -ENOTSUP,
				"store_output of location %u: no output placed there", in->imm[0]);
	slot = (unsigned)var->slot + agx_io_word(var, in->imm[0], in->imm[1]);
	if (slot > 255)
		return mir_fail(s->p, -ENOTSUP, "vertex output slot %u", slot);
	EMIT(s, "st_var", mir_imm(0), src(s, in, 0, 0), mir_imm(slot));
	s->last_st_var = s->ifs == 0 && s->loop < 0 ? (int)s->p->num_instrs - 1 : -2;
	return 0;
}

static struct mir_opd tuple(struct isel *s, const struct mir_opd *v, unsigned n);

/* The texture and sampler state register of spilled target loc ("ts9", "ss9"). */
static const char *spill_state(struct isel *s, unsigned loc, char kind)
{
	const struct agx_compile_options *o = s->options;
	unsigned k = 0;
	char *name = agx_ir_shader_alloc(s->shader, 8);

	for (unsigned i = 0; i < loc; i++)
		k += o->rt[i].spilled && !o->rt[i].none;
	snprintf(name, 8, "%cs%u", kind, (unsigned)s->p->spill_textures + k);
	return name;
}

/* The pixel's integer coordinates, x and y, as a pair of 32-bit registers. */
static struct mir_opd pixel_coords(struct isel *s)
{
	struct mir_opd xy[2];
	unsigned v;

	for (unsigned i = 0; i < 2; i++) {
		struct mir_opd d = new_dst(s, 32, &v);

		EMIT(s, "get_sr", d, mir_text(i ? "sr81" : "sr80"));
		xy[i] = mir_vreg(v, 32);
	}
	return tuple(s, xy, 2);
}

/*
 * A spilled target's four components, gathered in a block, written at its
 * end to the target's memory at the pixel.  Coverage is settled first
 * (sample_mask tests the lanes a late test has not reached yet), so that
 * discarded and failing fragments, like helper lanes, write nothing.
 */
static void flush_spilled(struct isel *s)
{
	for (unsigned loc = 0; loc < 8; loc++) {
		struct packed_rt *rt = &s->spilled[loc];
		struct mir_opd c[4], data;

		if (!rt->any)
			continue;
		for (unsigned k = 0; k < 4; k++)
			c[k] = rt->have[k] ? rt->c[k] : mir_imm(0);
		data = tuple(s, c, 4);
		EMIT(s, "sample_mask", mir_imm(255), mir_imm(255));
		EMIT(s, "image_write", data, mir_text(spill_state(s, loc, 't')), pixel_coords(s),
		     mir_imm(0), mir_text("tex_2d"), mir_text("coherent0"), mir_imm(0));
		memset(rt, 0, sizeof(*rt));
	}
}

/*
 * A packed target's components, gathered in a block, stored at its end
 * with one st_tile of the whole tuple (rgb10a2 four registers, the others
 * three); a component the shader did not write is 0 (GLSL leaves it
 * undefined).
 */
static void flush_packed_rt(struct isel *s, unsigned loc)
{
	struct packed_rt *rt = &s->packed[loc];
	unsigned n = rt->format == AGX_ISA_MEMFORMAT_RGB10A2 ? 4 : 3, v;
	struct mir_instr pc = { .op = MIR_OP_PCOPY, .num_opds = (uint8_t)(2 * n) };
	struct mir_opd t;

	if (!rt->any)
		return;
	v = mir_vreg_new(s->p, 32 * n);
	t = mir_vreg(v, 32);
	/* written and read at once: as pair()'s, never worth a spill */
	s->p->vregs[v].unspillable = true;
	for (unsigned k = 0; k < n; k++) {
		pc.opd[k] = mir_dst(v, 32);
		pc.opd[k].offset = (uint8_t)(2 * k);
		pc.opd[n + k] = rt->have[k] ? rt->c[k] : mir_imm(0);
	}
	mir_append(s->p, &pc);
	t.count = (uint8_t)n;
	EMIT(s, "st_tile", t, mir_text(agx_isa_memformat_name(rt->format)), mir_imm(0),
	     mir_text(n == 4 ? "xyzw" : "xyz"), mir_imm(rt->offset), mir_imm(rt->samples),
	     mir_imm(0));
	memset(rt, 0, sizeof(*rt));
}

static void flush_packed(struct isel *s)
{
	for (unsigned loc = 0; loc < 8; loc++)
		flush_packed_rt(s, loc);
}

/*
 * A fragment output: gl_FragDepth to zs_emit, a colour component to its
 * render target (every covered sample; store_tile_sample's one).
 */
static int sel_frag_output(struct isel *s, struct agx_ir_instr *in)
{
	static const char *const masks[4] = { "x", "y", "z", "w" };
	const struct agx_compile_options *o = s->options;
	unsigned loc = in->imm[0], c = in->imm[1], offset = 0;
	unsigned samples = in->op == AGX_IR_OP_store_tile_sample ? 1u << (in->imm[2] & 7) : 255;
	enum agx_isa_memformat format = AGX_ISA_MEMFORMAT_U8NORM;

	if (loc == AGX_IR_LOCATION_FRAG_DEPTH) {
		if (is16(in, 0))
			return mir_fail(s->p, -ENOTSUP, "a 16-bit gl_FragDepth");
		EMIT(s, "zs_emit", mir_imm(255), src(s, in, 0, 0));
		s->p->writes_depth = true;
		return 0;
	}
	/* the second blend source feeds blending (agx_lower_blend) or nothing */
	if (loc == AGX_IR_LOCATION_DUAL_SOURCE)
		return 0;
	if (loc >= AGX_IR_LOCATION_POSITION || c > 3)
		return mir_fail(s->p, -ENOTSUP, "store_output of location %u component %u", loc, c);
	if (o && o->num_rts) {
		if (o->num_rts > 8)
			return mir_fail(s->p, -ENOTSUP, "%u render targets (8 at most)",
					o->num_rts);
		if (loc >= o->num_rts)
			return 0; /* no draw buffer: the write goes nowhere (GLES 3.0 section 4.2.1)
				   */
		format = o->rt[loc].format;
		offset = o->rt[loc].offset;
		if (o->rt[loc].none || (o->rt[loc].components && c >= o->rt[loc].components))
			return 0; /* the target has no such component */
	} else if (loc) {
		return 0;
	}
	if (o && o->num_rts && o->rt[loc].spilled) {
		struct packed_rt *rt = &s->spilled[loc];

		if (is16(in, 0))
			return mir_fail(s->p, -ENOTSUP, "a 16-bit colour to spilled target %u",
					loc);
		rt->any = true;
		rt->c[c] = src(s, in, 0, A_ANYIMM | A_UNI);
		rt->have[c] = true;
		return 0;
	}
	if (!agx_isa_memformat_name(format))
		return mir_fail(s->p, -ENOTSUP, "render target %u: memformat %u", loc, format);
	if (offset > 511)
		return mir_fail(s->p, -ENOTSUP, "render target %u at byte %u", loc, offset);
	if (agx_memformat_packed(format)) {
		struct packed_rt *rt = &s->packed[loc];

		if (is16(in, 0))
			return mir_fail(s->p, -ENOTSUP, "a 16-bit colour to packed target %u", loc);
		/* one st_tile a sample mask */
		if (rt->any && rt->samples != samples)
			flush_packed_rt(s, loc);
		rt->any = true;
		rt->format = format;
		rt->offset = offset;
		rt->samples = samples;
		rt->c[c] = src(s, in, 0, A_ANYIMM | A_UNI);
		rt->have[c] = true;
		return 0;
	}
	/* one component: a one-bit mask puts it at offset + c items */
	EMIT(s, "st_tile", src(s, in, 0, 0), mir_text(agx_isa_memformat_name(format)), mir_imm(0),
	     mir_text(masks[c]), mir_imm(offset), mir_imm(samples), mir_imm(0));
	return 0;
}

/*
 * A component of what the pixel's target holds (blending, colour masks):
 * one item's ld_tile, or, for a packed target, the whole pixel's, loaded
 * once a block (its stores wait for the block's end: flush_packed).
 */
static int sel_load_tile(struct isel *s, struct agx_ir_instr *in)
{
	static const char *const masks[4] = { "x", "y", "z", "w" };
	const struct agx_compile_options *o = s->options;
	unsigned loc = in->imm[0], c = in->imm[1], n;
	/* no targets in the options: one, u8norm RGBA at offset 0 */
	bool given = o && o->num_rts;
	enum agx_isa_memformat format = AGX_ISA_MEMFORMAT_U8NORM;
	unsigned offset = 0;
	bool spilled = false;
	/* load_tile_sample: one sample's; load_tile: the pixel's (its first sample) */
	unsigned samples = in->op == AGX_IR_OP_load_tile_sample ? 1u << (in->imm[2] & 7) : 255;
	struct loaded_rt *l;
	struct mir_opd t;

	if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
		return -ENOTSUP;
	if ((given && (loc >= o->num_rts || loc >= 8 || o->rt[loc].none)) || (!given && loc) ||
	    c > 3 || agx_ir_type_bits(in->dest.type) != 32)
		return mir_fail(s->p, -ENOTSUP, "load_tile of location %u component %u", loc, c);
	if (given) {
		format = o->rt[loc].format;
		offset = o->rt[loc].offset;
		spilled = o->rt[loc].spilled;
	}
	if (!spilled && !agx_memformat_packed(format)) {
		EMITF(s, "ld_tile", MIR_ASYNC, dest(s, in),
		      mir_text(agx_isa_memformat_name(format)), mir_imm(0), mir_text(masks[c]),
		      mir_imm(offset), mir_imm(samples), mir_imm(0));
		return 0;
	}
	/* a whole pixel: a spilled target's memory (four components) or a packed item */
	n = spilled || format == AGX_ISA_MEMFORMAT_RGB10A2 ? 4 : 3;
	if (c >= n)
		return mir_fail(s->p, -ENOTSUP,
				"load_tile of component %u of a %u-component target", c, n);
	l = &s->loaded[loc];
	if (l->block != in->block || l->samples != samples) {
		l->block = in->block;
		l->samples = samples;
		l->vreg = mir_vreg_new(s->p, 32 * n);
		t = mir_vreg(l->vreg, 32);
		t.count = (uint8_t)n;
		if (spilled)
			EMITF(s, "texture_load", MIR_ASYNC, t, mir_text(spill_state(s, loc, 't')),
			      mir_text(spill_state(s, loc, 's')), mir_text("tex_2d"),
			      pixel_coords(s), mir_text("auto_lod"), mir_imm(0), mir_text("xyzw"),
			      mir_imm(0), mir_imm(0), mir_imm(0), mir_imm(0), mir_imm(12),
			      mir_imm(0));
		else
			EMITF(s, "ld_tile", MIR_ASYNC, t, mir_text(agx_isa_memformat_name(format)),
			      mir_imm(0), mir_text(n == 4 ? "xyzw" : "xyz"), mir_imm(offset),
			      mir_imm(samples), mir_imm(0));
	}
	t = mir_vreg(l->vreg, 32);
	t.offset = (uint8_t)(2 * c);
	alias(s, in, t);
	return 0;
}

static int sel_graphics(struct isel *s, struct agx_ir_instr *in)
{
	struct mir_opd d, t;
	unsigned v;

	switch (in->op) {
	case AGX_IR_OP_load_vertex_id:
	case AGX_IR_OP_load_instance_id:
		if (!in_stage(s, in, AGX_IR_STAGE_VERTEX))
			return -ENOTSUP;
		alias(s, in, in->op == AGX_IR_OP_load_vertex_id ? s->vertex_id : s->instance_id);
		return 0;
	case AGX_IR_OP_load_input:
		/* a vertex shader's attributes are fetched: agx_lower_io rewrote those it placed */
		if (s->shader->stage == AGX_IR_STAGE_VERTEX)
			return mir_fail(s->p, -ENOTSUP,
					"load_input of location %u: no attribute placed there",
					in->imm[0]);
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		return sel_varying(s, in);
	case AGX_IR_OP_store_output:
		if (s->shader->stage == AGX_IR_STAGE_VERTEX)
			return sel_st_var(s, in);
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		return sel_frag_output(s, in);
	case AGX_IR_OP_load_frag_coord: {
		static const char *const srs[2] = { "sr80", "sr81" };
		unsigned c = in->imm[0];

		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		if (c > 3)
			return mir_fail(s->p, -ENOTSUP, "load_frag_coord of component %u", c);
		if (c >= 2) {
			/* z: window z's plane; w: 1/w's, cf0, across the screen (linear) */
			EMITF(s, "iter", MIR_ASYNC, dest(s, in), mir_text("no_perspective"),
			      mir_text(c == 2 ? "cf1" : "cf0"), mir_imm(0), mir_text("forward"),
			      mir_text("pixel"), mir_text("no_centroid"), mir_imm(0));
			return 0;
		}
		/* the pixel's integer coordinates; gl_FragCoord is its centre */
		t = new_dst(s, 32, &v);
		EMIT(s, "get_sr", t, mir_text(srs[c]));
		d = new_dst(s, 32, &v);
		EMIT(s, "convert", mir_text("u32_to_f"), d, mir_vreg(t.value, 32), mir_text("rte"));
		EMIT(s, "fadd", dest(s, in), mir_vreg(v, 32),
		     (struct mir_opd){
			 .kind = MIR_FIMM, .count = 1, .value = (uint32_t)mir_float_imm(0.5) });
		return 0;
	}
	case AGX_IR_OP_load_tile:
	case AGX_IR_OP_load_tile_sample:
		return sel_load_tile(s, in);
	case AGX_IR_OP_store_tile_sample:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		return sel_frag_output(s, in);
	case AGX_IR_OP_load_front_facing:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		/* sr62 is 1 for a back-facing triangle (docs/isa.md) */
		t = new_dst(s, 32, &v);
		EMIT(s, "get_sr", t, mir_text("sr62"));
		EMIT(s, "xor", dest(s, in), mir_vreg(v, 16), mir_imm(1));
		return 0;
	case AGX_IR_OP_discard:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		/* every sample of the running lanes killed: their later tile writes are dropped */
		EMIT(s, "sample_mask", mir_imm(255), mir_imm(0));
		s->p->discards = true;
		return 0;
	case AGX_IR_OP_discard_samples:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		/* the mask's samples killed, the others left as they are */
		EMIT(s, "sample_mask", src(s, in, 0, A_IMM8), mir_imm(0));
		s->p->discards = true;
		return 0;
	case AGX_IR_OP_test_zs:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		/* every live sample tested now; a tested or killed one stays so */
		EMIT(s, "sample_mask", mir_imm(255), mir_imm(255));
		return 0;
	case AGX_IR_OP_wait_pix:
	case AGX_IR_OP_signal_pix:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		EMIT(s, in->op == AGX_IR_OP_wait_pix ? "wait_pix" : "signal_pix",
		     mir_imm(in->imm[0]), mir_imm(0));
		return 0;
	default:
		return mir_fail(s->p, -ENOTSUP, "%s cannot be selected",
				agx_ir_op_info(in->op)->name);
	}
}

/* ---- textures (docs/compiler.md, "Textures") ------------------------------------ */

/* Whether b reads what a reads (the same texel): the same op, indices but the component, sources.
 */
static bool same_texel(const struct agx_ir_instr *a, const struct agx_ir_instr *b)
{
	if (a->op != b->op || a->num_srcs != b->num_srcs || a->dest.type != b->dest.type)
		return false;
	for (unsigned i = 0; i < 5; i++)
		if (a->imm[i] != b->imm[i])
			return false;
	for (unsigned i = 0; i < a->num_srcs; i++) {
		const struct agx_ir_src *x = &a->src[i], *y = &b->src[i];

		if (x->def != y->def || (!x->def && (x->imm != y->imm || x->type != y->type)))
			return false;
	}
	return true;
}

/*
 * A tuple of 32-bit registers made of values (PCOPY), for an operand the
 * texture unit reads whole; short-lived, so never spilled.  A value of
 * 16 bits (an array's layer) goes to the low half of its register.
 */
static struct mir_opd tuple(struct isel *s, const struct mir_opd *v, unsigned n)
{
	unsigned r = mir_vreg_new(s->p, 32 * n);
	struct mir_instr pc = { .op = MIR_OP_PCOPY, .num_opds = (uint8_t)(2 * n) };
	struct mir_opd o = mir_vreg(r, 32);

	s->p->vregs[r].unspillable = true;
	for (unsigned k = 0; k < n; k++) {
		pc.opd[k] = mir_dst(r, 32);
		pc.opd[k].offset = (uint8_t)(2 * k);
		pc.opd[n + k] = v[k];
	}
	mir_append(s->p, &pc);
	o.count = (uint8_t)n;
	return o;
}

/* A 16-bit register holding f32 value v as f16 (the LOD and bias), or i32 v's low half. */
static struct mir_opd half_of(struct isel *s, struct agx_ir_value v, bool integer)
{
	unsigned r;
	struct mir_opd d = new_dst(s, 16, &r);
	struct mir_opd mz = { .kind = MIR_FIMM, .count = 1, .value = 0x80 };

	if (!v.def)
		EMIT(s, "mov_imm", d,
		     mir_imm(integer ? v.imm & 0xffff
				     : agx_ir_f32_to_f16(imm_float(v.imm, v.type))));
	else if (integer)
		EMIT(s, "mov", d, get(s, v, ALU));
	else
		EMIT(s, "fadd", d, get(s, v, FALU), mz);
	return mir_vreg(r, 16);
}

/*
 * texture_sample, texture_load: the op and those after it in the block
 * that read the same texel (one op per component, as the translator
 * makes them) become one instruction writing the components they want;
 * each takes its register of the result.
 */
static int sel_texture(struct isel *s, struct agx_ir_instr *in)
{
	static const char *const dims[8] = {
		"tex_1d", "tex_1d_array", "tex_2d",   "tex_2d_array",
		NULL,	  "tex_3d",	  "tex_cube", "tex_cube_array"
	};
	static const char *const modes[7] = { "auto_lod",      NULL,	 NULL, NULL, "lod_grad",
					      "auto_lod_bias", "lod_min" };
	static const char *const masks[16] = {
		NULL, "x",  "y",  "xy",	 "z",  "xz",  "yz",  "xyz",
		"w",  "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw"
	};
	struct agx_ir_tex_layout l;
	struct agx_ir_instr *part[4] = { NULL };
	struct mir_opd c[4], g[6], opd[MIR_MAX_OPDS], lod = mir_imm(0), r;
	unsigned mask = 0, n = 0, k = 0, mode = in->imm[2], v, count;
	char *ts, *ss;

	if (s->vals[in->dest.index].kind != VAL_NONE)
		return 0; /* an earlier op's instruction wrote it */
	if (!agx_ir_tex_layout(in->op, in->imm, &l) || l.num_srcs != in->num_srcs ||
	    !dims[in->imm[1]] || in->imm[0] > 255)
		return mir_fail(s->p, -ENOTSUP, "%s with unit=%u dim=%u lod=%u",
				agx_ir_op_info(in->op)->name, in->imm[0], in->imm[1], in->imm[2]);
	for (struct agx_ir_instr *o = in; o; o = agx_ir_instr_next(o)) {
		if (o != in && !same_texel(in, o))
			continue;
		if (o->imm[5] < 4 && !part[o->imm[5]]) {
			part[o->imm[5]] = o;
			mask |= 1u << o->imm[5];
		}
	}

	/* coordinates, and an array's layer after them */
	for (unsigned i = 0; i < l.coords; i++)
		c[n++] = src(s, in, i, A_ANYIMM | A_UNI);
	if (l.layer >= 0)
		c[n++] = src(s, in, (unsigned)l.layer, A_ANYIMM | A_UNI);
	r = tuple(s, c, n);
	if (l.layer >= 0) {
		r.bits = 16;
		r.count = (uint8_t)(2 * l.coords + 1);
	}
	c[0] = r;

	/* the LOD: an f16 (texture_sample), the level's low half (texture_load), or gradients */
	if (l.lod >= 0) {
		struct agx_ir_value x = agx_ir_src_value(&in->src[l.lod]);

		if (in->op == AGX_IR_OP_texture_load && !x.def && x.imm == 0)
			mode = 0; /* level 0: auto_lod reads no register */
		else
			lod = half_of(s, x, in->op == AGX_IR_OP_texture_load);
	} else if (l.grad >= 0) {
		/* the unit's order: d/dx and d/dy of each coordinate in turn */
		for (unsigned i = 0; i < l.coords; i++) {
			g[2 * i] = src(s, in, (unsigned)l.grad + i, A_ANYIMM | A_UNI);
			g[2 * i + 1] =
			    src(s, in, (unsigned)l.grad + l.coords + i, A_ANYIMM | A_UNI);
		}
		lod = tuple(s, g, 2 * l.coords);
	}

	/* the result: the wanted components packed in order */
	count = (unsigned)__builtin_popcount(mask);
	r = new_dst(s, 32 * count, &v);
	r.bits = 32;
	r.count = (uint8_t)count;
	for (unsigned i = 0, at = 0; i < 4; i++) {
		struct mir_opd o = mir_vreg(v, 32);

		if (!part[i])
			continue;
		o.offset = (uint8_t)(2 * at++);
		alias(s, part[i], o);
		/* the same texel and component read again: the same register */
		for (struct agx_ir_instr *d = agx_ir_instr_next(part[i]); d;
		     d = agx_ir_instr_next(d))
			if (d->imm[5] == i && same_texel(in, d))
				alias(s, d, o);
	}

	ts = agx_ir_shader_alloc(s->shader, 8);
	ss = agx_ir_shader_alloc(s->shader, 8);
	snprintf(ts, 8, "ts%u", in->imm[0]);
	snprintf(ss, 8, "ss%u", in->imm[0]);
	opd[k++] = r;
	opd[k++] = mir_text(ts);
	opd[k++] = mir_text(ss);
	opd[k++] = mir_text(dims[in->imm[1]]);
	opd[k++] = c[0];
	opd[k++] = mir_text(modes[mode]);
	opd[k++] = lod;
	/* the compare value and the offset: a 32-bit register and the half after it */
	if (l.reference >= 0 || in->imm[4]) {
		struct mir_opd co[2];
		unsigned m = 0, rr;

		if (l.reference >= 0)
			co[m++] = src(s, in, (unsigned)l.reference, A_ANYIMM | A_UNI);
		if (in->imm[4]) {
			struct mir_opd d = new_dst(s, 16, &rr);

			EMIT(s, "mov_imm", d, mir_imm(in->imm[4]));
			co[m++] = mir_vreg(rr, 16);
		}
		if (m == 2) {
			unsigned pr = mir_vreg_new(s->p, 64);
			struct mir_instr pc = { .op = MIR_OP_PCOPY, .num_opds = 4 };

			s->p->vregs[pr].unspillable = true;
			pc.opd[0] = mir_dst(pr, 32);
			pc.opd[1] = mir_dst(pr, 16);
			pc.opd[1].offset = 2;
			pc.opd[2] = co[0];
			pc.opd[3] = co[1];
			mir_append(s->p, &pc);
			co[0] = mir_vreg(pr, 32);
			co[0].flags = MIR_CMPOFF;
		} else if (l.reference >= 0) {
			co[0] = tuple(s, co, 1);
		}
		opd[k++] = co[0];
	}
	opd[k++] = mir_text(masks[mask]);
	opd[k++] = mir_imm(l.reference >= 0);
	/* kill, slot, q2, q3, q6: as Mesa's encodings have them (g13.isa) */
	opd[k++] = mir_imm(0);
	opd[k++] = mir_imm(0);
	opd[k++] = mir_imm(0);
	opd[k++] = mir_imm(12);
	opd[k++] = mir_imm(0);
	emit(s, in->op == AGX_IR_OP_texture_load ? "texture_load" : "texture_sample", MIR_ASYNC,
	     opd, k);
	return 0;
}

static int sel_instr(struct isel *s, struct agx_ir_instr *in)
{
	enum agx_ir_op op = in->op;
	unsigned bits = in->dest.type != AGX_IR_TYPE_NONE ? type_bits(in->dest.type) : 32;
	bool h = bits == 16;
	struct mir_opd d, a;

	switch (op) {
	case AGX_IR_OP_fadd:
		EMIT(s, h ? "fadd16" : "fadd", dest(s, in), src(s, in, 0, FALU),
		     src(s, in, 1, FALU));
		return 0;
	case AGX_IR_OP_fmul:
		EMIT(s, h ? "fmul16" : "fmul", dest(s, in), src(s, in, 0, FALU),
		     src(s, in, 1, FALU));
		return 0;
	case AGX_IR_OP_ffma:
		EMIT(s, h ? "fmadd16" : "fmadd", dest(s, in), src(s, in, 0, FALU),
		     src(s, in, 1, FALU), src(s, in, 2, FALU));
		return 0;
	case AGX_IR_OP_fneg:
	case AGX_IR_OP_fabs: {
		struct agx_ir_value x = agx_ir_src_value(&in->src[0]);
		unsigned mods = 0;

		if (x.def && s->vals[x.def->index].kind == VAL_FMOD) {
			mods = s->vals[x.def->index].mods;
			x = s->vals[x.def->index].base;
		}
		mods = op == AGX_IR_OP_fabs ? MIR_ABS : mods ^ MIR_NEG;
		s->vals[in->dest.index] = (struct val){ .kind = VAL_FMOD, .base = x, .mods = mods };
		return 0;
	}
	case AGX_IR_OP_fmin:
	case AGX_IR_OP_fmax: {
		/* a NaN loses (ltn, gtn), as GLSL's min and max may */
		struct mir_opd x = src(s, in, 0, A_UNI), y = src(s, in, 1, A_UNI);

		EMIT(s, "fcmpsel", mir_text(op == AGX_IR_OP_fmin ? "ltn" : "gtn"), dest(s, in), x,
		     y, x, y);
		return 0;
	}
	case AGX_IR_OP_ffloor:
	case AGX_IR_OP_fceil:
	case AGX_IR_OP_ftrunc:
	case AGX_IR_OP_fround_even:
	case AGX_IR_OP_frcp:
	case AGX_IR_OP_frsqrt:
	case AGX_IR_OP_frsqrt_special:
	case AGX_IR_OP_fexp2:
	case AGX_IR_OP_flog2:
	case AGX_IR_OP_fsin_pt_1:
	case AGX_IR_OP_fsin_pt_2:
		EMIT(s, funary(op), dest(s, in), src(s, in, 0, FALU));
		return 0;
	case AGX_IR_OP_iadd:
		EMIT(s, "iadd", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU));
		return 0;
	case AGX_IR_OP_isub:
		EMIT(s, "isub", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU));
		return 0;
	case AGX_IR_OP_ineg:
		EMIT(s, "isub", dest(s, in), mir_imm(0), src(s, in, 0, ALU));
		return 0;
	case AGX_IR_OP_imul:
		EMIT(s, "imadd", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU), mir_imm(0));
		return 0;
	case AGX_IR_OP_imul_high:
	case AGX_IR_OP_umul_high: {
		/* the 64-bit product into an even pair; the result is its high word */
		unsigned sx = op == AGX_IR_OP_imul_high ? MIR_SX : 0;
		unsigned t = mir_vreg_new(s->p, 64);
		struct mir_opd hi = mir_vreg(t, 32);

		s->p->vregs[t].unspillable = true;
		EMIT(s, "imadd", mir_dst(t, 64), with_flags(src(s, in, 0, 0), sx),
		     with_flags(src(s, in, 1, 0), sx), mir_imm(0));
		hi.offset = 2;
		EMIT(s, "mov", dest(s, in), hi);
		return 0;
	}
	case AGX_IR_OP_iand:
	case AGX_IR_OP_band:
		EMIT(s, "and", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU));
		return 0;
	case AGX_IR_OP_ior:
	case AGX_IR_OP_bor:
		EMIT(s, "or", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU));
		return 0;
	case AGX_IR_OP_ixor:
	case AGX_IR_OP_bxor:
		EMIT(s, "xor", dest(s, in), src(s, in, 0, ALU), src(s, in, 1, ALU));
		return 0;
	case AGX_IR_OP_inot:
		EMIT(s, "not", dest(s, in), src(s, in, 0, ALU));
		return 0;
	case AGX_IR_OP_bnot:
		EMIT(s, "xor", dest(s, in), src(s, in, 0, ALU), mir_imm(1));
		return 0;
	case AGX_IR_OP_ishl:
		a = src(s, in, 0, ALU);
		EMIT(s, "bfi", dest(s, in), mir_imm(0), a, shift_count(s, in, bits));
		return 0;
	case AGX_IR_OP_ushr:
		a = src(s, in, 0, ALU);
		EMIT(s, "bfeil", dest(s, in), mir_imm(0), a, shift_count(s, in, bits));
		return 0;
	case AGX_IR_OP_ishr:
		a = src(s, in, 0, ALU);
		EMIT(s, "asr", dest(s, in), a, shift_count(s, in, bits));
		return 0;
	case AGX_IR_OP_imin:
	case AGX_IR_OP_imax:
	case AGX_IR_OP_umin:
	case AGX_IR_OP_umax: {
		static const char *const cc[] = { "slt", "sgt", "ult", "ugt" };
		struct mir_opd x = src(s, in, 0, ALU), y = src(s, in, 1, ALU);

		EMIT(s, "icmpsel", mir_text(cc[op - AGX_IR_OP_imin]), dest(s, in), x, y, x, y);
		return 0;
	}
	case AGX_IR_OP_feq:
	case AGX_IR_OP_fne:
	case AGX_IR_OP_flt:
	case AGX_IR_OP_fge: {
		bool swap;
		const char *cc = fcond(op, &swap);

		EMIT(s, "fcmpsel", mir_text(cc), dest(s, in), src(s, in, 0, FALU),
		     src(s, in, 1, FALU), mir_imm(!swap), mir_imm(swap));
		return 0;
	}
	case AGX_IR_OP_ieq:
	case AGX_IR_OP_ine:
	case AGX_IR_OP_ilt:
	case AGX_IR_OP_ige:
	case AGX_IR_OP_ult:
	case AGX_IR_OP_uge: {
		bool swap;
		const char *cc = icond(op, &swap);

		EMIT(s, "icmpsel", mir_text(cc), dest(s, in), src(s, in, 0, ALU),
		     src(s, in, 1, ALU), mir_imm(!swap), mir_imm(swap));
		return 0;
	}
	case AGX_IR_OP_bcsel: {
		struct mir_opd c = src(s, in, 0, ALU), x = src(s, in, 1, ALU),
			       y = src(s, in, 2, ALU);

		EMIT(s, "icmpsel", mir_text("ueq"), dest(s, in), c, mir_imm(0), y, x);
		return 0;
	}
	case AGX_IR_OP_f2i:
	case AGX_IR_OP_f2u: {
		static const char *const modes[2][2] = { { "f_to_s32", "f_to_u32" },
							 { "f_to_s16", "f_to_u16" } };

		a = src(s, in, 0, A_UNI);
		EMIT(s, "convert", mir_text(modes[h][op == AGX_IR_OP_f2u]), dest(s, in), a,
		     mir_text("rtz"));
		return 0;
	}
	case AGX_IR_OP_i2f:
	case AGX_IR_OP_u2f: {
		static const char *const modes[2][2] = { { "s32_to_f", "u32_to_f" },
							 { "s16_to_f", "u16_to_f" } };

		a = src(s, in, 0, ALU);
		EMIT(s, "convert", mir_text(modes[is16(in, 0)][op == AGX_IR_OP_u2f]), dest(s, in),
		     a, mir_text("rte"));
		return 0;
	}
	case AGX_IR_OP_f2f16:
	case AGX_IR_OP_f2f32: {
		struct mir_opd mz = { .kind = MIR_FIMM, .count = 1, .value = 0x80 };

		EMIT(s, "fadd", dest(s, in), src(s, in, 0, FALU), mz);
		return 0;
	}
	case AGX_IR_OP_i2i16:
		EMIT(s, "mov", dest(s, in), src(s, in, 0, ALU));
		return 0;
	case AGX_IR_OP_i2i32:
		EMIT(s, "iadd", dest(s, in), with_flags(src(s, in, 0, 0), MIR_SX), mir_imm(0));
		return 0;
	case AGX_IR_OP_u2u32:
		EMIT(s, "iadd", dest(s, in), src(s, in, 0, ALU), mir_imm(0));
		return 0;
	case AGX_IR_OP_b2f:
		EMIT(s, "convert", mir_text("u16_to_f"), dest(s, in), src(s, in, 0, ALU),
		     mir_text("rte"));
		return 0;
	case AGX_IR_OP_b2i:
		if (h)
			EMIT(s, "mov", dest(s, in), src(s, in, 0, ALU));
		else
			EMIT(s, "iadd", dest(s, in), src(s, in, 0, ALU), mir_imm(0));
		return 0;
	case AGX_IR_OP_mov:
	case AGX_IR_OP_bitcast: {
		struct agx_ir_value x = agx_ir_src_value(&in->src[0]);

		if (x.def && s->vals[x.def->index].kind == VAL_FMOD) {
			s->vals[in->dest.index] = s->vals[x.def->index];
			return 0;
		}
		alias(s, in, x.def ? s->vals[x.def->index].opd : mir_imm(x.imm));
		return 0;
	}
	case AGX_IR_OP_undef:
		alias(s, in, mir_imm(0));
		return 0;
	case AGX_IR_OP_uniform_reg:
		alias(s, in,
		      (struct mir_opd){ .kind = MIR_UNIFORM,
					.bits = (uint8_t)bits,
					.count = 1,
					.value = in->imm[0] });
		return 0;
	case AGX_IR_OP_load_global_id:
	case AGX_IR_OP_load_local_id:
	case AGX_IR_OP_load_workgroup_id:
	case AGX_IR_OP_load_local_index: {
		/* sim/usc/usc.c special_register(), applegpu's numbering */
		static const char *const srs[4][3] = { { "sr80", "sr81", "sr82" },
						       { "sr48", "sr49", "sr50" },
						       { "sr0", "sr1", "sr2" },
						       { "sr51", "sr51", "sr51" } };
		unsigned k = op == AGX_IR_OP_load_global_id	 ? 0
			     : op == AGX_IR_OP_load_local_id	 ? 1
			     : op == AGX_IR_OP_load_workgroup_id ? 2
								 : 3;
		unsigned c = k == 3 ? 0 : in->imm[0];

		if (c > 2)
			return mir_fail(s->p, -ENOTSUP, "%s of component %u",
					agx_ir_op_info(op)->name, c);
		EMIT(s, "get_sr", dest(s, in), mir_text(srs[k][c]));
		return 0;
	}
	case AGX_IR_OP_load_global_const:
	case AGX_IR_OP_load_global: {
		struct mir_opd idx = mem_index(s, in, 0);

		d = dest(s, in);
		EMITF(s, "device_load", MIR_ASYNC, mir_imm(0), mir_text(h ? "i16" : "i32"),
		      mir_text("x"), with_flags(d, 0), uniform_pair(in->imm[0]), idx,
		      mir_text(idx.kind == MIR_IMM ? "signed" : "unsigned"));
		return 0;
	}
	case AGX_IR_OP_store_global: {
		struct mir_opd val = src(s, in, 0, 0), idx = mem_index(s, in, 1);

		EMIT(s, "device_store", mir_imm(0), mir_text(is16(in, 0) ? "i16" : "i32"),
		     mir_text("x"), val, uniform_pair(in->imm[0]), idx,
		     mir_text(idx.kind == MIR_IMM ? "signed" : "unsigned"), mir_imm(0));
		return 0;
	}
	case AGX_IR_OP_atomic_global:
	case AGX_IR_OP_cmpxchg_global: {
		bool cas = op == AGX_IR_OP_cmpxchg_global;
		unsigned aop = cas ? 3 : in->imm[1];
		struct mir_opd idx = mem_index(s, in, 0), val;

		if (aop >= sizeof(atomic_names) / sizeof(atomic_names[0]) || (!cas && aop == 3))
			return mir_fail(s->p, -ENOTSUP, "atomic_global with op %u", aop);
		val = cas ? pair(s, src(s, in, 2, 0), src(s, in, 1, 0)) : src(s, in, 1, 0);
		d = agx_ir_def_has_uses(&in->dest) ? dest(s, in) : mir_text("_");
		EMITF(s, "atomic", MIR_ASYNC, mir_imm(0), mir_text(atomic_names[aop]), d, val,
		      uniform_pair(in->imm[0]), idx,
		      mir_text(idx.kind == MIR_IMM ? "signed" : "unsigned"), mir_text("coherent1"));
		return 0;
	}
	case AGX_IR_OP_load_shared: {
		struct mir_opd idx = tg_index(s, in, 0, h ? 2 : 4);

		EMITF(s, "threadgroup_load", MIR_ASYNC, mir_text(h ? "i16" : "i32"), mir_text("x"),
		      dest(s, in), mir_imm(0), idx);
		return 0;
	}
	case AGX_IR_OP_store_shared: {
		bool h16 = is16(in, 0);
		struct mir_opd val = src(s, in, 0, 0), idx = tg_index(s, in, 1, h16 ? 2 : 4);

		EMIT(s, "threadgroup_store", mir_text(h16 ? "i16" : "i32"), mir_text("x"), val,
		     mir_imm(0), idx);
		return 0;
	}
	case AGX_IR_OP_atomic_shared:
	case AGX_IR_OP_cmpxchg_shared: {
		/* the base is a byte address in a 16-bit register, the index counts words */
		bool cas = op == AGX_IR_OP_cmpxchg_shared;
		unsigned aop = cas ? 3 : in->imm[0];
		struct agx_ir_value addr = agx_ir_src_value(&in->src[0]);
		struct mir_opd base = mir_imm(0), idx = mir_imm(0), val;

		if (aop >= sizeof(atomic_names) / sizeof(atomic_names[0]) || (!cas && aop == 3))
			return mir_fail(s->p, -ENOTSUP, "atomic_shared with op %u", aop);
		if (!addr.def && (addr.imm >> 2) <= 32767) {
			idx = mir_imm(addr.imm >> 2);
		} else {
			base = get(s, addr, 0);
			base.bits = 16; /* the low half */
		}
		val = cas ? pair(s, src(s, in, 2, 0), src(s, in, 1, 0)) : src(s, in, 1, 0);
		d = agx_ir_def_has_uses(&in->dest) ? dest(s, in) : mir_text("_");
		EMITF(s, "threadgroup_atomic", MIR_ASYNC, mir_text(atomic_names[aop]), d, val, base,
		      idx);
		return 0;
	}
	case AGX_IR_OP_barrier:
		emit(s, "threadgroup_barrier", MIR_CONTROL, NULL, 0);
		return 0;
	case AGX_IR_OP_break:
	case AGX_IR_OP_continue: {
		unsigned n = s->ifs + (op == AGX_IR_OP_break ? 2 : 1);
		struct mir_opd r0l = R0L;

		r0l.flags = MIR_DST;
		if (s->loop < 0)
			return mir_fail(s->p, -ENOTSUP, "%s outside a loop",
					agx_ir_op_info(op)->name);
		EMITF(s, "mov_imm", MIR_CONTROL, r0l, mir_imm(n));
		EMITF(s, "pop_exec", MIR_CONTROL, R0L, mir_imm(0));
		return 0;
	}
	case AGX_IR_OP_texture_sample:
	case AGX_IR_OP_texture_load:
		return sel_texture(s, in);
	case AGX_IR_OP_fddx:
	case AGX_IR_OP_fddy:
		if (!in_stage(s, in, AGX_IR_STAGE_FRAGMENT))
			return -ENOTSUP;
		EMIT(s, op == AGX_IR_OP_fddx ? "dfdx" : "dfdy", dest(s, in), src(s, in, 0, FALU));
		return 0;
	case AGX_IR_OP_load_input:
	case AGX_IR_OP_store_output:
	case AGX_IR_OP_load_frag_coord:
	case AGX_IR_OP_load_front_facing:
	case AGX_IR_OP_load_tile:
	case AGX_IR_OP_load_tile_sample:
	case AGX_IR_OP_store_tile_sample:
	case AGX_IR_OP_load_vertex_id:
	case AGX_IR_OP_load_instance_id:
	case AGX_IR_OP_discard:
	case AGX_IR_OP_test_zs:
	case AGX_IR_OP_discard_samples:
	case AGX_IR_OP_wait_pix:
	case AGX_IR_OP_signal_pix:
		return sel_graphics(s, in);
	default:
		if (op == AGX_IR_OP_load_uniform || op == AGX_IR_OP_load_ubo ||
		    op == AGX_IR_OP_load_ssbo || op == AGX_IR_OP_store_ssbo ||
		    op == AGX_IR_OP_load_ssbo_size || op == AGX_IR_OP_load_ubo_size ||
		    op == AGX_IR_OP_load_attrib || op == AGX_IR_OP_load_attrib_limit ||
		    op == AGX_IR_OP_atomic_ssbo || op == AGX_IR_OP_cmpxchg_ssbo ||
		    op == AGX_IR_OP_load_num_workgroups || op == AGX_IR_OP_load_blend_constant ||
		    op == AGX_IR_OP_store_xfb)
			return mir_fail(s->p, -ENOTSUP,
					"%s was left unlowered: no variable or register places it",
					agx_ir_op_info(op)->name);
		return mir_fail(s->p, -ENOTSUP, "%s cannot be selected (lower it first)",
				agx_ir_op_info(op)->name);
	}
}

/* ---- control flow ---------------------------------------------------------- */

/*
 * Pairs of one parallel copy: its operands are all live at once, and a
 * small register budget (the spilling tests' 8) must hold them.
 */
#define PCOPY_PAIRS 5

static void pcopy(struct isel *s, const struct mir_opd *dsts, const struct mir_opd *srcs,
		  unsigned n)
{
	struct mir_instr pc = { .op = MIR_OP_PCOPY, .num_opds = (uint8_t)(2 * n) };

	memcpy(pc.opd, dsts, n * sizeof(*dsts));
	memcpy(pc.opd + n, srcs, n * sizeof(*srcs));
	mir_append(s->p, &pc);
}

/*
 * The copies into the phis of succ for the edge from pred, all read before
 * any is written.  More than one copy instruction holds go through fresh
 * registers first, so that no copy reads a phi another one wrote.
 */
static void edge_copies(struct isel *s, struct agx_ir_block *pred, struct agx_ir_block *succ)
{
	struct mir_opd *dsts, *srcs;
	unsigned n = 0, cap = 0;

	agx_ir_foreach_instr(succ, phi) {
		if (phi->op != AGX_IR_OP_phi)
			break;
		cap++;
	}
	if (!cap)
		return;
	dsts = malloc(2 * cap * sizeof(*dsts));
	if (!dsts)
		abort();
	srcs = dsts + cap;
	agx_ir_foreach_instr(succ, phi) {
		struct agx_ir_src *from;

		if (phi->op != AGX_IR_OP_phi)
			break;
		from = agx_ir_phi_src(phi, pred);
		if (!from)
			continue;
		dsts[n] = s->vals[phi->dest.index].opd;
		dsts[n].flags = MIR_DST;
		srcs[n] = get(s, agx_ir_src_value(from), A_ANYIMM | A_UNI);
		n++;
	}
	if (n > PCOPY_PAIRS) {
		for (unsigned i = 0; i < n; i += PCOPY_PAIRS) {
			unsigned k = n - i < PCOPY_PAIRS ? n - i : PCOPY_PAIRS;
			struct mir_opd tmp[PCOPY_PAIRS];

			for (unsigned j = 0; j < k; j++) {
				unsigned v = mir_vreg_new(s->p, dsts[i + j].bits);

				tmp[j] = mir_dst(v, dsts[i + j].bits);
			}
			pcopy(s, tmp, srcs + i, k);
			for (unsigned j = 0; j < k; j++) {
				srcs[i + j] = tmp[j];
				srcs[i + j].flags = 0;
			}
		}
	}
	for (unsigned i = 0; i < n; i += PCOPY_PAIRS)
		pcopy(s, dsts + i, srcs + i, n - i < PCOPY_PAIRS ? n - i : PCOPY_PAIRS);
	free(dsts);
}

static int sel_list(struct isel *s, struct agx_ir_cf_list *list);

static int sel_block(struct isel *s, struct agx_ir_block *b)
{
	struct agx_ir_instr *last = agx_ir_block_last_instr(b);
	bool term = last && (agx_ir_op_info(last->op)->flags & AGX_IR_TERMINATOR);
	int ret;

	agx_ir_foreach_instr(b, in) {
		if (in->op == AGX_IR_OP_phi || (term && in == last))
			continue;
		if ((ret = sel_instr(s, in)))
			return ret;
	}
	flush_packed(s);
	flush_spilled(s);
	for (unsigned i = 0; i < b->num_succs; i++)
		edge_copies(s, b, b->succs[i]);
	return term ? sel_instr(s, last) : 0;
}

/* An arm with nothing to run: no instructions, and no copies into the phis after the if. */
static bool arm_is_empty(struct agx_ir_if *nif, struct agx_ir_cf_list *list)
{
	struct agx_ir_block *first = agx_ir_cf_list_first_block(list);
	struct agx_ir_block *after = agx_ir_cf_node_block_after(&nif->node);
	struct agx_ir_instr *phi = agx_ir_block_first_instr(after);

	return first == agx_ir_cf_list_last_block(list) && !agx_ir_block_first_instr(first) &&
	       !(phi && phi->op == AGX_IR_OP_phi);
}

static int sel_if(struct isel *s, struct agx_ir_if *nif)
{
	struct mir_opd c = get(s, agx_ir_src_value(&nif->cond), ALU);
	int ret;

	EMITF(s, "if_icmp", MIR_CONTROL, R0L, mir_text("nueq"), c, mir_imm(0), mir_imm(1));
	s->ifs++;
	if ((ret = sel_list(s, &nif->then_list)))
		return ret;
	if (!arm_is_empty(nif, &nif->else_list)) {
		EMITF(s, "else_exec", MIR_CONTROL, R0L, mir_imm(1));
		if ((ret = sel_list(s, &nif->else_list)))
			return ret;
	}
	EMITF(s, "pop_exec", MIR_CONTROL, R0L, mir_imm(1));
	s->ifs--;
	return 0;
}

static int sel_loop(struct isel *s, struct agx_ir_loop *loop)
{
	struct mir_program *p = s->p;
	unsigned label = p->num_labels++, ifs = s->ifs;
	int outer = s->loop, ret;
	struct mir_instr l = { .op = MIR_OP_LABEL, .num_opds = 1, .flags = MIR_CONTROL };
	struct mir_opd target = { .kind = MIR_LABEL, .count = 1, .value = label };
	unsigned index;

	EMITF(s, "push_exec", MIR_CONTROL, R0L, mir_imm(2));
	if (p->num_loops == p->cap_loops) {
		p->cap_loops = p->cap_loops ? 2 * p->cap_loops : 16;
		p->loops = realloc(p->loops, p->cap_loops * sizeof(*p->loops));
		if (!p->loops)
			abort();
	}
	index = p->num_loops++;
	l.opd[0] = target;
	p->loops[index] =
	    (struct mir_loop){ .start = mir_append(p, &l), .parent = outer, .label = label };
	s->loop = (int)index;
	s->ifs = 0;
	if ((ret = sel_list(s, &loop->body)))
		return ret;
	EMITF(s, "while_icmp", MIR_CONTROL, R0L, mir_text("ueq"), mir_imm(0), mir_imm(0),
	      mir_imm(2));
	EMITF(s, "jmp_exec_any", MIR_CONTROL, target);
	p->loops[index].end = p->num_instrs - 1;
	EMITF(s, "pop_exec", MIR_CONTROL, R0L, mir_imm(2));
	s->loop = outer;
	s->ifs = ifs;
	return 0;
}

static int sel_list(struct isel *s, struct agx_ir_cf_list *list)
{
	struct agx_ir_cf_node *n =
	    agx_ir_link_empty(&list->nodes)
		? NULL
		: agx_ir_container_of(list->nodes.next, struct agx_ir_cf_node, link);
	int ret = 0;

	for (; n && !ret; n = agx_ir_cf_node_next(n)) {
		switch (n->type) {
		case AGX_IR_CF_BLOCK:
			ret = sel_block(s, agx_ir_node_block(n));
			break;
		case AGX_IR_CF_IF:
			ret = sel_if(s, agx_ir_node_if(n));
			break;
		case AGX_IR_CF_LOOP:
			ret = sel_loop(s, agx_ir_node_loop(n));
			break;
		default:
			ret = mir_fail(s->p, -ENOTSUP, "a function inside a function");
			break;
		}
	}
	return ret;
}

/*
 * A vertex shader's IDs arrive in r5 and r6 (sim/render.c; Mesa's
 * src/asahi/compiler/README.md): copied out first, before anything is
 * allocated, so that the allocator may use r5 and r6 after.  The copies
 * take the lowest free registers (r2 and r3), which are not r5 or r6.
 */
static void copy_ids(struct isel *s, struct agx_ir_function *func)
{
	bool vid = false, iid = false;
	unsigned v;

	agx_ir_foreach_block(func, b) {
		agx_ir_foreach_instr(b, in) {
			vid |= in->op == AGX_IR_OP_load_vertex_id;
			iid |= in->op == AGX_IR_OP_load_instance_id;
		}
	}
	if (s->shader->stage != AGX_IR_STAGE_VERTEX)
		return;
	if (vid) {
		struct mir_opd r5 = { .kind = MIR_PREG, .bits = 32, .count = 1, .value = 10 };

		EMIT(s, "mov", new_dst(s, 32, &v), r5);
		s->vertex_id = mir_vreg(v, 32);
	}
	if (iid) {
		struct mir_opd r6 = { .kind = MIR_PREG, .bits = 32, .count = 1, .value = 12 };

		EMIT(s, "mov", new_dst(s, 32, &v), r6);
		s->instance_id = mir_vreg(v, 32);
	}
}

int agx_isel(struct agx_ir_shader *shader, const struct agx_compile_options *options,
	     struct mir_program *p)
{
	struct agx_ir_function *func = agx_ir_shader_first_function(shader);
	struct isel s = {
		.p = p, .shader = shader, .options = options, .loop = -1, .last_st_var = -1
	};
	int ret;

	if (!func)
		return mir_fail(p, -ENOTSUP, "the shader has no function");
	/* the spilled targets' texture state: after the shader's samplers */
	p->spill_textures = -1;
	for (unsigned i = 0;
	     shader->stage == AGX_IR_STAGE_FRAGMENT && options && i < options->num_rts && i < 8;
	     i++)
		p->num_spilled += options->rt[i].spilled && !options->rt[i].none;
	if (p->num_spilled) {
		unsigned end = 0;

		for (unsigned i = 0; i < shader->num_vars; i++) {
			const struct agx_ir_var *v = &shader->vars[i];
			unsigned last = (unsigned)v->slot + (v->array_size ? v->array_size : 1);

			if (v->kind == AGX_IR_VAR_SAMPLER && v->slot >= 0 && last > end)
				end = last;
		}
		p->spill_textures = (int)end;
	}
	if (agx_ir_function_next(func))
		return mir_fail(p, -ENOTSUP, "more than one function (calls are not compiled)");
	agx_ir_function_compute_cfg(func);
	s.vals = calloc(func->num_defs ? func->num_defs : 1, sizeof(*s.vals));
	if (!s.vals)
		return -ENOMEM;
	/* phis first: their registers are written on the edges, before the phi is reached */
	agx_ir_foreach_block(func, b) {
		agx_ir_foreach_instr(b, in) {
			unsigned bits;

			if (in->op != AGX_IR_OP_phi)
				break;
			bits = type_bits(in->dest.type);
			s.vals[in->dest.index] =
			    (struct val){ .kind = VAL_OPD,
					  .opd = mir_vreg(mir_vreg_new(p, bits), bits) };
		}
	}
	copy_ids(&s, func);
	ret = sel_list(&s, &func->body);
	/* the final output marked: the vertex is complete (Mesa's st_var "last") */
	if (!ret && s.last_st_var >= 0)
		p->instrs[s.last_st_var].opd[0] = mir_imm(1);
	free(s.vals);
	if (!ret && p->log)
		ret = -ENOTSUP;
	return ret;
}

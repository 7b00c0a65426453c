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
 */
#include <errno.h>
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

struct isel {
	struct mir_program *p;
	struct agx_ir_shader *shader;
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
	default:
		if (op == AGX_IR_OP_load_input || op == AGX_IR_OP_store_output ||
		    op == AGX_IR_OP_load_frag_coord || op == AGX_IR_OP_load_front_facing ||
		    op == AGX_IR_OP_load_vertex_id || op == AGX_IR_OP_load_instance_id ||
		    op == AGX_IR_OP_discard)
			return mir_fail(s->p, -ENOTSUP, "%s is not selected yet",
					agx_ir_op_info(op)->name);
		if (op == AGX_IR_OP_load_uniform || op == AGX_IR_OP_load_ubo ||
		    op == AGX_IR_OP_load_ssbo || op == AGX_IR_OP_store_ssbo ||
		    op == AGX_IR_OP_atomic_ssbo || op == AGX_IR_OP_cmpxchg_ssbo ||
		    op == AGX_IR_OP_load_num_workgroups)
			return mir_fail(s->p, -ENOTSUP,
					"%s was left unlowered: no variable or register places it",
					agx_ir_op_info(op)->name);
		return mir_fail(s->p, -ENOTSUP, "%s cannot be selected (lower it first)",
				agx_ir_op_info(op)->name);
	}
}

/* ---- control flow ---------------------------------------------------------- */

#define PCOPY_PAIRS (MIR_MAX_OPDS / 2)

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

int agx_isel(struct agx_ir_shader *shader, struct mir_program *p)
{
	struct agx_ir_function *func = agx_ir_shader_first_function(shader);
	struct isel s = { .p = p, .shader = shader, .loop = -1 };
	int ret;

	if (!func)
		return mir_fail(p, -ENOTSUP, "the shader has no function");
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
	ret = sel_list(&s, &func->body);
	free(s.vals);
	if (!ret && p->log)
		ret = -ENOTSUP;
	return ret;
}

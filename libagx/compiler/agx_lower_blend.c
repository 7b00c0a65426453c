/*
 * agx_lower_blend.c: GL's blending and colour masks, done in the fragment
 * shader as AGX does them -- there is no fixed-function blender: the
 * shader reads what the pixel's render target holds (ld_tile, the IR's
 * load_tile), combines it with its own colour, and stores the result.
 *
 * For each colour location whose target (agx_compile_options.rt[])
 * blends or keeps components, the shader's store_outputs of it are
 * replaced, where the last of them was, by the stores of GLES 3.0
 * section 4.1.7's result: the source and destination clamped to the
 * format's range for fixed-point targets (and the factors with them), the
 * equation applied per component with the colour factors for red, green
 * and blue and the alpha factors for alpha, and the components the
 * colour mask keeps set back to the destination's (a packed target is
 * stored whole, so it stores them again; the others leave them out).
 * Integer targets are never blended; their masks still apply.  A
 * spilled target (not in the tilebuffer) is stored whole too, all four
 * components 32 bits wide, as image_write takes them.
 *
 * The translator stores each output once, at the end of the entry
 * function (tr_store_outputs); a location stored in more than one block
 * is left as it is.
 *
 * EXT_blend_func_extended's second source, the stores of
 * AGX_IR_LOCATION_DUAL_SOURCE, is read by location 0's SRC1 factors and
 * then removed: it is no render target's (selection would drop it too).
 */
#include "agx/compiler.h"
#include "agx_builder.h"
#include "agx_mir.h"

struct rt_stores {
	struct agx_ir_instr *store[4]; /* the store_output of each component, or NULL */
	struct agx_ir_instr *last;     /* the last of them in the block */
	struct agx_ir_block *block;
	bool split; /* stores in more than one block, or twice */
};

static bool integer(enum agx_rt_type t)
{
	return t == AGX_RT_UINT || t == AGX_RT_SINT;
}

/* rts[8]: the second source, AGX_IR_LOCATION_DUAL_SOURCE */
#define DUAL 8

static void collect(struct agx_ir_shader *shader, struct rt_stores *rts)
{
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				struct rt_stores *r;
				unsigned c = in->imm[1];

				if (in->op != AGX_IR_OP_store_output || c > 3 ||
				    (in->imm[0] >= 8 && in->imm[0] != AGX_IR_LOCATION_DUAL_SOURCE))
					continue;
				r = &rts[in->imm[0] >= 8 ? DUAL : in->imm[0]];
				if ((r->block && r->block != block) || r->store[c])
					r->split = true;
				r->block = block;
				r->store[c] = in;
				r->last = in;
			}
		}
	}
}

struct blend {
	struct agx_builder *b;
	enum agx_rt_type type;
	/* source, second source, destination, constant */
	struct agx_ir_value s[4], s1[4], d[4], k[4];
	bool have_k;
};

static struct agx_ir_value clamp(struct blend *x, struct agx_ir_value v)
{
	float lo = x->type == AGX_RT_SNORM ? -1.0f : 0.0f;

	if (x->type != AGX_RT_UNORM && x->type != AGX_RT_SNORM)
		return v;
	return agx_fmin(x->b, agx_fmax(x->b, v, agx_imm_f32(lo)), agx_imm_f32(1.0f));
}

static struct agx_ir_value constant(struct blend *x, unsigned c)
{
	if (!x->have_k) {
		for (unsigned i = 0; i < 4; i++)
			x->k[i] = clamp(x, agx_load_blend_constant(x->b, i));
		x->have_k = true;
	}
	return x->k[c];
}

static struct agx_ir_value one_minus(struct blend *x, struct agx_ir_value v)
{
	return agx_fadd(x->b, agx_imm_f32(1.0f), agx_fneg(x->b, v));
}

/* Factor f for component c (0..2 take the colour factor, 3 the alpha one). */
static struct agx_ir_value factor(struct blend *x, enum agx_blend_factor f, unsigned c)
{
	switch (f) {
	case AGX_BLEND_ZERO:
		return agx_imm_f32(0.0f);
	case AGX_BLEND_ONE:
		return agx_imm_f32(1.0f);
	case AGX_BLEND_SRC_COLOR:
		return x->s[c];
	case AGX_BLEND_ONE_MINUS_SRC_COLOR:
		return one_minus(x, x->s[c]);
	case AGX_BLEND_DST_COLOR:
		return x->d[c];
	case AGX_BLEND_ONE_MINUS_DST_COLOR:
		return one_minus(x, x->d[c]);
	case AGX_BLEND_SRC_ALPHA:
		return x->s[3];
	case AGX_BLEND_ONE_MINUS_SRC_ALPHA:
		return one_minus(x, x->s[3]);
	case AGX_BLEND_DST_ALPHA:
		return x->d[3];
	case AGX_BLEND_ONE_MINUS_DST_ALPHA:
		return one_minus(x, x->d[3]);
	case AGX_BLEND_CONSTANT_COLOR:
		return constant(x, c);
	case AGX_BLEND_ONE_MINUS_CONSTANT_COLOR:
		return one_minus(x, constant(x, c));
	case AGX_BLEND_CONSTANT_ALPHA:
		return constant(x, 3);
	case AGX_BLEND_ONE_MINUS_CONSTANT_ALPHA:
		return one_minus(x, constant(x, 3));
	case AGX_BLEND_SRC_ALPHA_SATURATE:
		if (c == 3)
			return agx_imm_f32(1.0f);
		return agx_fmin(x->b, x->s[3], one_minus(x, x->d[3]));
	case AGX_BLEND_SRC1_COLOR:
		return x->s1[c];
	case AGX_BLEND_ONE_MINUS_SRC1_COLOR:
		return one_minus(x, x->s1[c]);
	case AGX_BLEND_SRC1_ALPHA:
		return x->s1[3];
	case AGX_BLEND_ONE_MINUS_SRC1_ALPHA:
		return one_minus(x, x->s1[3]);
	}
	return agx_imm_f32(0.0f);
}

static struct agx_ir_value equation(struct blend *x, const struct agx_blend_rt *bl, unsigned c)
{
	enum agx_blend_op op = c == 3 ? bl->alpha_op : bl->rgb_op;
	enum agx_blend_factor sf = c == 3 ? bl->alpha_src : bl->rgb_src;
	enum agx_blend_factor df = c == 3 ? bl->alpha_dst : bl->rgb_dst;
	struct agx_ir_value s, d;

	if (op == AGX_BLEND_MIN)
		return agx_fmin(x->b, x->s[c], x->d[c]);
	if (op == AGX_BLEND_MAX)
		return agx_fmax(x->b, x->s[c], x->d[c]);
	/* fixed point: the factors are clamped too (ONE_MINUS of an out-of-range constant) */
	s = agx_fmul(x->b, x->s[c], clamp(x, factor(x, sf, c)));
	d = agx_fmul(x->b, x->d[c], clamp(x, factor(x, df, c)));
	if (op == AGX_BLEND_SUBTRACT)
		return agx_fadd(x->b, s, agx_fneg(x->b, d));
	if (op == AGX_BLEND_REVERSE_SUBTRACT)
		return agx_fadd(x->b, d, agx_fneg(x->b, s));
	return agx_fadd(x->b, s, d);
}

/*
 * The destination's component c: what the target holds (at one sample, or
 * the pixel's when sample is -1), 0 (colour) or 1 (alpha) where it has none.
 */
static struct agx_ir_value destination(struct agx_builder *b, unsigned loc, unsigned c,
				       unsigned components, enum agx_rt_type type, int sample)
{
	bool is_int = integer(type);
	enum agx_ir_type t = is_int ? AGX_IR_TYPE_I32 : AGX_IR_TYPE_F32;

	if (c < components && sample >= 0)
		return agx_load_tile_sample(b, t, loc, c, (unsigned)sample);
	if (c < components)
		return agx_load_tile(b, t, loc, c);
	if (c == 3)
		return is_int ? agx_imm_u32(1) : agx_imm_f32(1.0f);
	return is_int ? agx_imm_u32(0) : agx_imm_f32(0.0f);
}

/* The shader's component c, 32 bits wide. */
static struct agx_ir_value source(struct agx_builder *b, const struct rt_stores *r, unsigned c,
				  enum agx_rt_type type)
{
	struct agx_ir_value v;

	if (!r->store[c])
		return integer(type) ? agx_imm_u32(0) : agx_imm_f32(0.0f); /* GLSL: undefined */
	v = agx_ir_src_value(&r->store[c]->src[0]);
	if (agx_ir_type_bits(v.type) != 16)
		return v;
	if (!integer(type))
		return agx_f2f32(b, v);
	return type == AGX_RT_SINT ? agx_i2i32(b, v) : agx_u2u32(b, v);
}

/* Whichever of a and b, both in block, comes later. */
static struct agx_ir_instr *later(struct agx_ir_block *block, struct agx_ir_instr *a,
				  struct agx_ir_instr *b)
{
	struct agx_ir_instr *last = a;

	agx_ir_foreach_instr(block, in) {
		if (in == a || in == b)
			last = in;
	}
	return last;
}

static bool lower_target(const struct agx_compile_options *o, unsigned loc, struct rt_stores *r,
			 const struct rt_stores *second)
{
	const struct agx_blend_rt *bl = &o->rt[loc].blend;
	enum agx_rt_type type = o->rt[loc].type;
	unsigned components = o->rt[loc].components ? o->rt[loc].components : 4;
	unsigned keep = o->rt[loc].keep & ((1u << components) - 1);
	/* a packed target is stored whole, and so is a spilled one (image_write) */
	bool blending = bl->enable && !integer(type), spilled = o->rt[loc].spilled,
	     whole = agx_memformat_packed(o->rt[loc].format) || spilled;
	/* the second source is read where both are stored (the same block, or it is not read) */
	bool two = second && second->last && r->last && second->block == r->block && !second->split;
	struct agx_builder b;
	struct blend x = { .b = &b, .type = type };
	struct agx_ir_value out[4];
	bool store[4], reads = false;
	/*
	 * A multisampled pixel's samples hold colours of their own where it
	 * reads them back: the shader runs once, and blends and stores
	 * sample by sample (Mesa wraps the same in a loop over the samples).
	 */
	unsigned samples = o->samples > 1 ? o->samples : 1;

	/* a spilled target's stores are made 32-bit and whole even when nothing blends */
	if (o->rt[loc].none || r->split || !r->last || (!blending && !keep && !spilled))
		return false;
	for (unsigned c = 0; c < 4; c++)
		reads |= blending || (((keep >> c) & 1) && whole);
	if (!reads)
		samples = 1;
	b = agx_builder_at(
	    agx_ir_cursor_before(two ? later(r->block, r->last, second->last) : r->last));
	for (unsigned c = 0; c < 4; c++) {
		x.s[c] = source(&b, r, c, type);
		store[c] = r->store[c] != NULL || blending || whole;
		if (blending)
			x.s[c] = clamp(&x, x.s[c]);
		/* the second source, where the first is (the translator's end of main) */
		x.s1[c] =
		    blending && two ? clamp(&x, source(&b, second, c, type)) : agx_imm_f32(0.0f);
	}
	for (unsigned k = 0; k < samples; k++) {
		int sample = samples > 1 ? (int)k : -1;

		for (unsigned c = 0; c < 4; c++) {
			bool kept = (keep >> c) & 1;

			/* loaded once, before any store to the location (or the sample) */
			if (blending || (kept && whole))
				x.d[c] = destination(&b, loc, c, components, type, sample);
		}
		for (unsigned c = 0; c < 4; c++) {
			bool kept = (keep >> c) & 1;

			out[c] = blending ? equation(&x, bl, c) : x.s[c];
			if (kept && whole)
				out[c] = x.d[c];
			else if (kept)
				store[c] = false; /* one item: left out, the tile keeps it */
		}
		for (unsigned c = 0; c < components; c++) {
			if (!store[c])
				continue;
			if (sample >= 0)
				agx_store_tile_sample(&b, out[c], loc, c, (unsigned)sample);
			else
				agx_store_output(&b, out[c], loc, c);
		}
	}
	/* the cursor is before the last old store: they go once the new ones are in */
	for (unsigned c = 0; c < 4; c++)
		if (r->store[c])
			agx_ir_instr_remove(r->store[c]);
	return true;
}

bool agx_lower_blend(struct agx_ir_shader *shader, const struct agx_compile_options *options)
{
	struct rt_stores rts[9] = { 0 }; /* the targets, then DUAL */
	bool progress = false;

	if (shader->stage != AGX_IR_STAGE_FRAGMENT || !options || !options->num_rts)
		return false;
	collect(shader, rts);
	for (unsigned loc = 0; loc < options->num_rts && loc < 8; loc++)
		progress |= lower_target(options, loc, &rts[loc], loc == 0 ? &rts[DUAL] : NULL);
	for (unsigned c = 0; c < 4; c++)
		if (rts[DUAL].store[c]) {
			agx_ir_instr_remove(rts[DUAL].store[c]);
			progress = true;
		}
	return progress;
}

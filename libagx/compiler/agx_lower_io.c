/*
 * agx_lower_io.c: the uniform-register ABI, and memory ops onto device
 * addresses.  It places, from u0, each UBO's and SSBO's 64-bit address,
 * gl_NumWorkGroups when the shader reads it, and the default-block
 * uniforms (or, when they do not fit, the address of a buffer holding
 * them), records the placements in the vars and the shader, and rewrites
 * what reads them: load_ubo, load_ssbo, store_ssbo, atomic_ssbo and
 * cmpxchg_ssbo (and transform feedback's store_xfb) become *_global ops
 * on the pair holding their buffer's address, load_uniform and
 * load_num_workgroups uniform_reg reads (or load_global_const),
 * texture_size the read of a sampler's size words minified by the level.  docs/compiler.md,
 * "Lowering", is the contract the drivers fill the registers by.
 *
 * What it cannot place or address (a binding no var names, a uniform read
 * outside the block or at a 16-bit half the IR cannot name, registers run
 * out) it leaves as it is, for selection to refuse.
 *
 * Graphics I/O: a vertex shader's attributes (its inputs) get, after all
 * that, an address pair and a stride register each, and load_input becomes
 * a load_global_const at vertex_id * stride + the component's word; its
 * outputs get their 32-bit output slots, a fragment shader's inputs their
 * coefficient registers (var.slot), which selection reads.
 *
 * Robust access (agx_lower_robust, before this pass) marks the uniform
 * blocks and attributes it bounds sized: they get a size register each
 * (an element count per location for an attribute), which
 * load_ubo_size and load_attrib_limit read; load_attrib fetches the
 * element its source names.
 */
#include <string.h>

#include "agx_builder.h"
#include "agx_mir.h"

/* u0 .. u191 are the ABI's; the registers above are the back end's own. */
#define UNIFORM_BUDGET 192

/* Interface vars placed by location; more is more than GLSL ES has locations for. */
#define MAX_IO_VARS 256

struct placement {
	bool seen[MAX_IO_VARS]; /* vars already placed in the current ordering */
	unsigned next;		/* the first free uniform register */
	int uniform_first;	/* where the default-block uniforms start, or -1 */
	bool changed;
};

static void set_int(int *field, int v, struct placement *p)
{
	if (*field != v)
		p->changed = true;
	*field = v;
}

static bool reads_op(struct agx_ir_shader *shader, enum agx_ir_op op)
{
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, instr) {
				if (instr->op == op)
					return true;
			}
		}
	}
	return false;
}

/* Registers the default-block uniforms take, a 32-bit one per 4 bytes. */
static unsigned uniform_words(const struct agx_ir_shader *shader)
{
	return (shader->uniform_size + 3) / 4;
}

static bool is_block(const struct agx_ir_var *var)
{
	return var->kind == AGX_IR_VAR_UBO || var->kind == AGX_IR_VAR_SSBO;
}

/* Bindings a block var covers: an array of blocks takes one per element. */
static unsigned block_count(const struct agx_ir_var *var)
{
	return var->array_size ? var->array_size : 1;
}

static bool is_builtin(const struct agx_ir_var *var)
{
	return var->location >= AGX_IR_LOCATION_POSITION;
}

/*
 * The user var of kind with the lowest location not yet placed in this
 * run (p->seen), marked seen; NULL when none is left.
 */
static struct agx_ir_var *next_by_location(struct agx_ir_shader *shader, enum agx_ir_var_kind kind,
					   struct placement *p)
{
	int best = -1;

	for (unsigned i = 0; i < shader->num_vars && i < MAX_IO_VARS; i++) {
		const struct agx_ir_var *v = &shader->vars[i];

		if (v->kind != kind || is_builtin(v) || p->seen[i])
			continue;
		if (best < 0 || v->location < shader->vars[best].location)
			best = (int)i;
	}
	if (best < 0)
		return NULL;
	p->seen[best] = true;
	return &shader->vars[best];
}

/*
 * The vertex outputs' slots: the position 0..3, the varyings by location,
 * each var's words in order, the cull flags, then gl_PointSize (the PPP's point size comes
 * after the varyings: sim/vdm.c), then the clip distances (after the
 * point size, as the hardware orders them: Mesa's src/asahi agx_uvs.h).  A fragment shader's
 * coefficient registers: cf0 is 1/w, cf1 window z when gl_FragCoord.z is read, then the varyings
 * and cull flags the same way, then gl_PointCoord's s and t.
 */
static void place_io(struct agx_ir_shader *shader, struct placement *p)
{
	enum agx_ir_var_kind kind =
	    shader->stage == AGX_IR_STAGE_VERTEX ? AGX_IR_VAR_OUTPUT : AGX_IR_VAR_INPUT;
	unsigned next = 4, point = 0;
	int slot[MAX_IO_VARS];
	struct agx_ir_var *v;

	if (shader->stage == AGX_IR_STAGE_COMPUTE)
		return; /* no graphics I/O to place: the vars' slots are not ours */
	memset(p->seen, 0, sizeof(p->seen));
	for (unsigned i = 0; i < MAX_IO_VARS; i++)
		slot[i] = -1;
	if (shader->stage == AGX_IR_STAGE_FRAGMENT)
		next = agx_io_frag_z_cf(shader) >= 0 ? 2 : 1;
	while ((v = next_by_location(shader, kind, p))) {
		slot[v - shader->vars] = (int)next;
		next += agx_io_words(v);
	}
	/* the cull flags (agx_lower_cull.c) are varyings too, the last */
	for (unsigned i = 0; i < shader->num_vars && i < MAX_IO_VARS; i++)
		if (shader->vars[i].kind == kind &&
		    shader->vars[i].location == AGX_IR_LOCATION_CULL_FLAG) {
			slot[i] = (int)next;
			next += agx_io_words(&shader->vars[i]);
		}
	for (unsigned i = 0; i < shader->num_vars && i < MAX_IO_VARS; i++) {
		const struct agx_ir_var *var = &shader->vars[i];

		if (var->kind != kind)
			continue;
		if (var->location == AGX_IR_LOCATION_POSITION) {
			slot[i] = 0;
		} else if (var->location == AGX_IR_LOCATION_POINT_SIZE ||
			   var->location == AGX_IR_LOCATION_POINT_COORD) {
			slot[i] = (int)next;
			point = 1;
		}
	}
	for (unsigned i = 0; i < shader->num_vars && i < MAX_IO_VARS; i++)
		if (shader->vars[i].kind == kind &&
		    shader->vars[i].location == AGX_IR_LOCATION_CLIP_DISTANCE)
			slot[i] = (int)(next + point);
	for (unsigned i = 0; i < shader->num_vars; i++)
		if (shader->vars[i].kind != AGX_IR_VAR_SAMPLER) /* a sampler's is its unit */
			set_int(&shader->vars[i].slot, i < MAX_IO_VARS ? slot[i] : -1, p);
}

/* The sampler var whose units include unit, or NULL. */
static struct agx_ir_var *sampler_var(struct agx_ir_shader *shader, unsigned unit)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *v = &shader->vars[i];

		if (v->kind == AGX_IR_VAR_SAMPLER && v->slot >= 0 && unit >= (unsigned)v->slot &&
		    unit - (unsigned)v->slot < block_count(v))
			return v;
	}
	return NULL;
}

/* Transform feedback's buffers with a stride, before buffer `before`: their pairs come first. */
static unsigned xfb_buffers(const struct agx_ir_shader *shader, unsigned before)
{
	unsigned n = 0;

	for (unsigned k = 0; k < before && k < AGX_MAX_XFB_BUFFERS; k++)
		n += shader->xfb_stride[k] != 0;
	return n;
}

/* Whether the shader calls textureSize on a unit of var. */
static bool reads_size(struct agx_ir_shader *shader, const struct agx_ir_var *var)
{
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, instr) {
				if (instr->op == AGX_IR_OP_texture_size &&
				    sampler_var(shader, instr->imm[0]) == var)
					return true;
			}
		}
	}
	return false;
}

static void place(struct agx_ir_shader *shader, struct placement *p)
{
	unsigned words = uniform_words(shader);

	/* 1. every UBO and SSBO, in the order of the vars: a 64-bit address each */
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *var = &shader->vars[i];
		unsigned regs;

		if (!is_block(var))
			continue;
		regs = 2 * block_count(var);
		if (p->next + regs > UNIFORM_BUDGET) {
			set_int(&var->uniform, -1, p);
			continue;
		}
		set_int(&var->uniform, (int)p->next, p);
		p->next += regs;
	}

	/*
	 * 2. gl_NumWorkGroups.  A shader lowered before reads it through
	 * uniform_reg and keeps its placement, so a second run changes nothing.
	 */
	if ((reads_op(shader, AGX_IR_OP_load_num_workgroups) ||
	     shader->num_workgroups_uniform >= 0) &&
	    p->next + 3 <= UNIFORM_BUDGET) {
		set_int(&shader->num_workgroups_uniform, (int)p->next, p);
		p->next += 3;
	} else {
		set_int(&shader->num_workgroups_uniform, -1, p);
	}

	/*
	 * 1b. the bound size of each storage block whose .length() is read,
	 * and of each uniform block robust access bounds, one register per
	 * element (the translator and agx_lower_robust mark them: var.sized)
	 */
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *var = &shader->vars[i];
		unsigned regs = block_count(var);

		if (!is_block(var) || !var->sized)
			continue;
		if (p->next + regs > UNIFORM_BUDGET) {
			set_int(&var->size_uniform, -1, p);
			continue;
		}
		set_int(&var->size_uniform, (int)p->next, p);
		p->next += regs;
	}

	/*
	 * 2b. the sizes of the samplers textureSize reads: width, height and
	 * depth (layers) of level 0, three registers per element.  As for
	 * gl_NumWorkGroups, a placement made before is kept.
	 */
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *var = &shader->vars[i];
		unsigned regs = 3 * block_count(var);
		bool placed = var->uniform >= 0 && var->uniform < UNIFORM_BUDGET;

		if (var->kind != AGX_IR_VAR_SAMPLER)
			continue;
		if ((!placed && !reads_size(shader, var)) || p->next + regs > UNIFORM_BUDGET) {
			set_int(&var->uniform, -1, p);
			continue;
		}
		set_int(&var->uniform, (int)p->next, p);
		p->next += regs;
	}

	/*
	 * 3. the default-block uniforms: the block copied as it is into the
	 * registers, or else the address of a buffer holding it.
	 */
	p->uniform_first = -1;
	set_int(&shader->uniform_block_uniform, -1, p);
	if (words && p->next + words <= UNIFORM_BUDGET) {
		p->uniform_first = (int)p->next;
		p->next += words;
	} else if (words && ((p->next + 1) & ~1u) + 2 <= UNIFORM_BUDGET) {
		unsigned pair = (p->next + 1) & ~1u;

		set_int(&shader->uniform_block_uniform, (int)pair, p);
		p->next = pair + 2;
	}
	for (unsigned i = 0; i < shader->num_vars; i++) {
		struct agx_ir_var *var = &shader->vars[i];

		if (var->kind == AGX_IR_VAR_UNIFORM)
			set_int(&var->uniform,
				p->uniform_first < 0 ? -1
						     : p->uniform_first + (int)(var->offset / 4),
				p);
	}

	/*
	 * 4. a vertex shader's attributes, by location, four registers for
	 * each location a var covers (a matrix's columns are arrays of their
	 * own in GL): the array's address rounded down to a word (an even
	 * pair), the stride in bytes, and the byte offset of vertex 0's
	 * element from that address.  After them, for an attribute robust
	 * access bounds (agx_lower_robust marks it sized), one register per
	 * location: the number of elements its buffer holds.
	 */
	for (struct agx_ir_var *var; shader->stage == AGX_IR_STAGE_VERTEX &&
				     (var = next_by_location(shader, AGX_IR_VAR_INPUT, p));) {
		unsigned pair = (p->next + 1) & ~1u, regs = 4 * agx_io_locations(var),
			 limits = var->sized ? agx_io_locations(var) : 0;

		if (pair + regs + limits > UNIFORM_BUDGET) {
			set_int(&var->uniform, -1, p); /* none left */
			set_int(&var->size_uniform, -1, p);
			continue;
		}
		set_int(&var->uniform, (int)pair, p);
		set_int(&var->size_uniform, limits ? (int)(pair + regs) : -1, p);
		p->next = pair + regs + limits;
	}

	/* 5. the blend constant, when blending reads it: red, green, blue, alpha */
	if ((reads_op(shader, AGX_IR_OP_load_blend_constant) ||
	     shader->blend_constant_uniform >= 0) &&
	    p->next + 4 <= UNIFORM_BUDGET) {
		set_int(&shader->blend_constant_uniform, (int)p->next, p);
		p->next += 4;
	} else {
		set_int(&shader->blend_constant_uniform, -1, p);
	}

	/*
	 * 6. transform feedback, when the shader captures outputs
	 * (agx_lower_xfb): an even pair for each buffer with a stride, its
	 * record 0's address, then the draw's first vertex and its vertices
	 * per instance (agx_shader_info.xfb_uniform).
	 */
	if (reads_op(shader, AGX_IR_OP_store_xfb) || shader->xfb_uniform >= 0) {
		unsigned pair = (p->next + 1) & ~1u, regs = 2 * xfb_buffers(shader, 4) + 2;

		if (pair + regs <= UNIFORM_BUDGET) {
			set_int(&shader->xfb_uniform, (int)pair, p);
			p->next = pair + regs;
		} else {
			set_int(&shader->xfb_uniform, -1, p);
		}
	}

	if (shader->num_uniforms != p->next)
		p->changed = true;
	shader->num_uniforms = p->next;
	place_io(shader, p);
}

/* The uniform pair holding the address of the buffer of kind at binding, or -1. */
static int buffer_base(const struct agx_ir_shader *shader, enum agx_ir_var_kind kind,
		       unsigned binding)
{
	for (unsigned i = 0; i < shader->num_vars; i++) {
		const struct agx_ir_var *var = &shader->vars[i];

		if (var->kind != kind || var->uniform < 0 || binding < var->binding ||
		    binding - var->binding >= block_count(var))
			continue;
		return var->uniform + 2 * (int)(binding - var->binding);
	}
	return -1;
}

/*
 * A byte address as an index in items of `bits` (32-bit words, or halves
 * for 16-bit values): an immediate folded, otherwise a ushr.
 */
static struct agx_ir_value item_index(struct agx_builder *b, struct agx_ir_value addr,
				      unsigned bits)
{
	unsigned shift = bits == 16 ? 1 : 2;

	if (!addr.def)
		return agx_imm_u32(addr.imm >> shift);
	return agx_ushr(b, addr, agx_imm_u32(shift));
}

static unsigned value_bits(enum agx_ir_type type)
{
	return agx_ir_type_bits(type) == 16 ? 16 : 32;
}

/* Bytes of one component of the type in memory (a packed type's: its word). */
static unsigned vertex_type_bytes(enum agx_vertex_type t)
{
	switch (t) {
	case AGX_VERTEX_BYTE:
	case AGX_VERTEX_UNSIGNED_BYTE:
		return 1;
	case AGX_VERTEX_HALF_FLOAT:
	case AGX_VERTEX_SHORT:
	case AGX_VERTEX_UNSIGNED_SHORT:
		return 2;
	default:
		return 4;
	}
}

static bool vertex_type_signed(enum agx_vertex_type t)
{
	return t == AGX_VERTEX_BYTE || t == AGX_VERTEX_SHORT || t == AGX_VERTEX_INT ||
	       t == AGX_VERTEX_FIXED || t == AGX_VERTEX_INT_2_10_10_10_REV;
}

/* The low `bits` bits of v from bit `shift` on, sign- or zero-extended. */
static struct agx_ir_value field(struct agx_builder *b, struct agx_ir_value v,
				 struct agx_ir_value shift, unsigned bits, bool is_signed)
{
	if (shift.def || shift.imm)
		v = agx_ushr(b, v, shift);
	if (bits == 32)
		return v;
	if (is_signed)
		return agx_ishr(b, agx_ishl(b, v, agx_imm_u32(32 - bits)), agx_imm_u32(32 - bits));
	return agx_iand(b, v, agx_imm_u32((1u << bits) - 1));
}

/*
 * Component c of attribute array a for this vertex (or instance, with a
 * divisor), or for element *element when it is not NULL (load_attrib),
 * its four uniform registers from regs (place(), step 4):
 * fetched as the words that hold it, its bits taken out, and converted
 * as GLES 3.0 section 2.8 says -- to float (normalized by equations 2.1
 * and 2.2, or as integers), or kept an integer for glVertexAttribIPointer.
 * Components past the array's size are 0, 0 and 1.  A component's bytes
 * are at its own alignment (the GL layer repacks arrays that are not).
 */
static struct agx_ir_value fetch(struct agx_builder *b, const struct agx_vertex_attrib *a,
				 unsigned regs, unsigned c, enum agx_ir_type type,
				 const struct agx_ir_value *element)
{
	enum agx_vertex_type t = a->type;
	bool packed =
		 t == AGX_VERTEX_INT_2_10_10_10_REV || t == AGX_VERTEX_UNSIGNED_INT_2_10_10_10_REV,
	     is_signed = vertex_type_signed(t),
	     as_int = a->integer && !packed && t != AGX_VERTEX_FLOAT &&
		      t != AGX_VERTEX_HALF_FLOAT && t != AGX_VERTEX_FIXED;
	unsigned size = packed ? 4 : a->size ? a->size : 4, bytes = vertex_type_bytes(t);
	unsigned bits = packed ? (c == 3 ? 2 : 10) : 8 * bytes;
	struct agx_ir_value index, at, word, x, shift;

	if (c >= size) {
		x = as_int ? agx_imm_u32(c == 3) : agx_imm_f32(c == 3 ? 1.0f : 0.0f);
		return x.type == type ? x : agx_bitcast(b, type, x);
	}
	if (element)
		index = *element;
	else
		index = a->divisor ? agx_udiv(b, agx_load_instance_id(b), agx_imm_u32(a->divisor))
				   : agx_load_vertex_id(b);
	at = agx_imul(b, index, agx_uniform_reg(b, AGX_IR_TYPE_I32, regs + 2));
	at = agx_iadd(b, agx_uniform_reg(b, AGX_IR_TYPE_I32, regs + 3), at);
	if (!packed && c)
		at = agx_iadd(b, at, agx_imm_u32(c * bytes));
	word = agx_load_global_const(b, AGX_IR_TYPE_I32, agx_ushr(b, at, agx_imm_u32(2)), regs);
	/* the component's bit position in its word */
	shift = packed	    ? agx_imm_u32(10 * c)
		: bytes < 4 ? agx_ishl(b, agx_iand(b, at, agx_imm_u32(4 - bytes)), agx_imm_u32(3))
			    : agx_imm_u32(0);
	x = field(b, word, shift, bits, is_signed);

	if (t == AGX_VERTEX_FLOAT) {
		x = agx_bitcast(b, AGX_IR_TYPE_F32, x);
	} else if (t == AGX_VERTEX_HALF_FLOAT) {
		x = agx_f2f32(b, agx_bitcast(b, AGX_IR_TYPE_F16, agx_i2i16(b, x)));
	} else if (t == AGX_VERTEX_FIXED) {
		x = agx_fmul(b, agx_i2f(b, AGX_IR_TYPE_F32, x), agx_imm_f32(1.0f / 65536.0f));
	} else if (as_int) {
		/* the integer as it is */
	} else if (!a->normalized) {
		x = is_signed ? agx_i2f(b, AGX_IR_TYPE_F32, x) : agx_u2f(b, AGX_IR_TYPE_F32, x);
	} else if (is_signed) {
		/* equation 2.2: c / (2^(b-1) - 1), the most negative value clamped to -1 */
		x = agx_fdiv(b, agx_i2f(b, AGX_IR_TYPE_F32, x),
			     agx_imm_f32((float)((1ull << (bits - 1)) - 1)));
		x = agx_fmax(b, x, agx_imm_f32(-1.0f));
	} else {
		/* equation 2.1: c / (2^b - 1) */
		x = agx_fdiv(b, agx_u2f(b, AGX_IR_TYPE_F32, x),
			     agx_imm_f32((float)((1ull << bits) - 1)));
	}
	return x.type == type ? x : agx_bitcast(b, type, x);
}

/*
 * The replacement of instr, emitted before it; returns false when instr is
 * not one of ours or cannot be lowered.  *v is the new value when instr
 * has a destination.
 */
static bool lower(struct agx_builder *b, struct agx_ir_shader *shader, const struct placement *p,
		  struct agx_ir_instr *instr, struct agx_ir_value *v)
{
	enum agx_ir_type type = instr->dest.type;
	struct agx_ir_value s0 = instr->num_srcs > 0 ? agx_ir_src_value(&instr->src[0]) : *v;
	struct agx_ir_value s1 = instr->num_srcs > 1 ? agx_ir_src_value(&instr->src[1]) : *v;
	struct agx_ir_value s2 = instr->num_srcs > 2 ? agx_ir_src_value(&instr->src[2]) : *v;
	unsigned words = uniform_words(shader);
	int base;

	switch (instr->op) {
	case AGX_IR_OP_load_ubo:
		base = buffer_base(shader, AGX_IR_VAR_UBO, instr->imm[0]);
		if (base < 0)
			return false;
		*v = agx_load_global_const(b, type, item_index(b, s0, value_bits(type)),
					   (uint32_t)base);
		return true;
	case AGX_IR_OP_load_ssbo:
		base = buffer_base(shader, AGX_IR_VAR_SSBO, instr->imm[0]);
		if (base < 0)
			return false;
		*v = agx_load_global(b, type, item_index(b, s0, value_bits(type)), (uint32_t)base);
		return true;
	case AGX_IR_OP_store_ssbo:
		base = buffer_base(shader, AGX_IR_VAR_SSBO, instr->imm[0]);
		if (base < 0)
			return false;
		agx_store_global(b, s0, item_index(b, s1, value_bits(s0.type)), (uint32_t)base);
		return true;
	case AGX_IR_OP_atomic_ssbo:
		base = buffer_base(shader, AGX_IR_VAR_SSBO, instr->imm[0]);
		if (base < 0)
			return false;
		*v = agx_atomic_global(b, item_index(b, s0, 32), s1, (uint32_t)base, instr->imm[1]);
		return true;
	case AGX_IR_OP_cmpxchg_ssbo:
		base = buffer_base(shader, AGX_IR_VAR_SSBO, instr->imm[0]);
		if (base < 0)
			return false;
		*v = agx_cmpxchg_global(b, item_index(b, s0, 32), s1, s2, (uint32_t)base);
		return true;
	case AGX_IR_OP_load_num_workgroups:
		if (shader->num_workgroups_uniform < 0 || instr->imm[0] > 2)
			return false;
		*v = agx_uniform_reg(b, type,
				     (uint32_t)shader->num_workgroups_uniform + instr->imm[0]);
		return true;
	case AGX_IR_OP_load_input:
	case AGX_IR_OP_load_attrib: {
		const struct agx_ir_var *var = agx_io_var(shader, AGX_IR_VAR_INPUT, instr->imm[0]);
		unsigned loc = instr->imm[0];

		if (shader->stage != AGX_IR_STAGE_VERTEX || !var || var->uniform < 0 ||
		    agx_ir_type_bits(type) != 32 || loc >= AGX_MAX_VERTEX_ATTRIBS)
			return false;
		*v = fetch(b, &shader->attribs[loc],
			   (unsigned)var->uniform + 4 * (loc - var->location), instr->imm[1], type,
			   instr->op == AGX_IR_OP_load_attrib ? &s0 : NULL);
		return true;
	}
	case AGX_IR_OP_load_attrib_limit: {
		const struct agx_ir_var *var = agx_io_var(shader, AGX_IR_VAR_INPUT, instr->imm[0]);

		if (shader->stage != AGX_IR_STAGE_VERTEX || !var || !var->sized ||
		    var->size_uniform < 0)
			return false;
		*v = agx_uniform_reg(b, AGX_IR_TYPE_I32,
				     (uint32_t)var->size_uniform + instr->imm[0] - var->location);
		return true;
	}
	case AGX_IR_OP_store_xfb: {
		/* word `word` of record (instance * vertices + vertex - first) */
		unsigned k = instr->imm[0], regs = (unsigned)shader->xfb_uniform,
			 first = regs + 2 * xfb_buffers(shader, AGX_MAX_XFB_BUFFERS);
		struct agx_ir_value record, index;

		if (shader->xfb_uniform < 0 || k >= AGX_MAX_XFB_BUFFERS ||
		    instr->imm[1] >= shader->xfb_stride[k] || agx_ir_type_bits(s0.type) != 32)
			return false;
		record = agx_iadd(
		    b,
		    agx_imul(b, agx_load_instance_id(b),
			     agx_uniform_reg(b, AGX_IR_TYPE_I32, first + 1)),
		    agx_isub(b, agx_load_vertex_id(b), agx_uniform_reg(b, AGX_IR_TYPE_I32, first)));
		index = agx_iadd(b, agx_imul(b, record, agx_imm_u32(shader->xfb_stride[k])),
				 agx_imm_u32(instr->imm[1]));
		agx_store_global(b, s0, index, regs + 2 * xfb_buffers(shader, k));
		return true;
	}
	case AGX_IR_OP_load_blend_constant:
		if (shader->blend_constant_uniform < 0 || instr->imm[0] > 3)
			return false;
		*v = agx_uniform_reg(b, AGX_IR_TYPE_F32,
				     (uint32_t)shader->blend_constant_uniform + instr->imm[0]);
		return true;
	case AGX_IR_OP_load_ssbo_size:
	case AGX_IR_OP_load_ubo_size:
		for (unsigned i = 0; i < shader->num_vars; i++) {
			const struct agx_ir_var *var = &shader->vars[i];
			enum agx_ir_var_kind kind =
			    instr->op == AGX_IR_OP_load_ubo_size ? AGX_IR_VAR_UBO : AGX_IR_VAR_SSBO;

			if (var->kind != kind || !var->sized || var->size_uniform < 0 ||
			    instr->imm[0] < var->binding ||
			    instr->imm[0] - var->binding >= block_count(var))
				continue;
			*v = agx_uniform_reg(b, AGX_IR_TYPE_I32,
					     (uint32_t)var->size_uniform + instr->imm[0] -
						 var->binding);
			return true;
		}
		return false;
	case AGX_IR_OP_texture_size: {
		const struct agx_ir_var *var = sampler_var(shader, instr->imm[0]);
		unsigned c = instr->imm[2], dim = instr->imm[1];
		/* an array's layer count is not minified: 1d_array's y, 2d_array's z */
		bool layers = (dim == 1 && c == 1) || (dim == 3 && c == 2);

		if (!var || var->uniform < 0 || c > 2)
			return false;
		*v = agx_uniform_reg(b, AGX_IR_TYPE_I32,
				     (uint32_t)var->uniform +
					 3 * (instr->imm[0] - (uint32_t)var->slot) + c);
		if (!layers)
			*v = agx_umax(b, agx_ushr(b, *v, s0), agx_imm_u32(1));
		return true;
	}
	case AGX_IR_OP_load_uniform: {
		unsigned offset = instr->imm[0], bytes = agx_ir_type_bits(type) / 8;

		/* a read outside the block, or of a high half, which uniform_reg cannot name */
		if (offset + bytes > 4 * words || (bytes == 2 && offset % 4))
			return false;
		if (shader->uniform_block_uniform >= 0) {
			if (offset % bytes)
				return false;
			*v = agx_load_global_const(b, type, agx_imm_u32(offset / bytes),
						   (uint32_t)shader->uniform_block_uniform);
			return true;
		}
		if (offset % 4 || p->uniform_first < 0)
			return false;
		*v = agx_uniform_reg(b, type, (uint32_t)p->uniform_first + offset / 4);
		return true;
	}
	default:
		return false;
	}
}

bool agx_lower_io(struct agx_ir_shader *shader)
{
	struct placement p = { 0 };

	place(shader, &p);
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, instr) {
				struct agx_builder b = agx_builder_at(agx_ir_cursor_before(instr));
				struct agx_ir_value v = { 0 };

				if (!lower(&b, shader, &p, instr, &v))
					continue;
				if (agx_ir_instr_dest(instr))
					agx_ir_def_rewrite_uses(&instr->dest, v);
				agx_ir_instr_remove(instr);
				p.changed = true;
			}
		}
	}
	return p.changed;
}

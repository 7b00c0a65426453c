/*
 * agx_lower_fetch.c: framebuffer fetch (EXT_shader_framebuffer_fetch).
 * The translator starts a colour output the shader reads as
 * load_framebuffer of its location and components: the colour the
 * pixel's render target held when the shader started.  On AGX that is
 * the tilebuffer (ld_tile, the IR's load_tile, selected as a
 * texture_load of the target's memory for a spilled one), read before
 * anything the shader stores, since the translator puts the reads first.
 *
 * Each load_framebuffer becomes a 32-bit load_tile of the kind the
 * output has (float or integer), converted to the output's width, where
 * the location has a target with that component; a component the target
 * lacks reads as 0 (alpha: 1), as GL reads a colour of fewer components;
 * a location with no target (none, or past num_rts) is undefined and
 * reads as 0.
 */
#include "agx/compiler.h"
#include "agx_builder.h"

static bool has_target(const struct agx_compile_options *o, unsigned loc)
{
	if (!o || !o->num_rts)
		return loc == 0; /* one u8norm RGBA target */
	return loc < o->num_rts && loc < 8 && !o->rt[loc].none;
}

static struct agx_ir_value zero_or_one(enum agx_ir_type type, bool one)
{
	switch (type) {
	case AGX_IR_TYPE_F16:
		return agx_imm_f16(one ? 1.0f : 0.0f);
	case AGX_IR_TYPE_F32:
		return agx_imm_f32(one ? 1.0f : 0.0f);
	case AGX_IR_TYPE_I16:
		return agx_imm_u16(one);
	default:
		return agx_imm_u32(one);
	}
}

static struct agx_ir_value fetched(struct agx_builder *b, const struct agx_compile_options *o,
				   unsigned loc, unsigned c, enum agx_ir_type type)
{
	bool is_float = agx_ir_type_is_float(type);
	unsigned components;
	struct agx_ir_value v;

	if (!has_target(o, loc) || c > 3)
		return zero_or_one(type, false);
	components = o && o->num_rts && o->rt[loc].components ? o->rt[loc].components : 4;
	if (c >= components)
		return zero_or_one(type, c == 3);
	v = agx_load_tile(b, is_float ? AGX_IR_TYPE_F32 : AGX_IR_TYPE_I32, loc, c);
	if (agx_ir_type_bits(type) != 16)
		return v;
	return is_float ? agx_f2f16(b, v) : agx_i2i16(b, v);
}

bool agx_lower_fetch(struct agx_ir_shader *shader, const struct agx_compile_options *options)
{
	bool progress = false;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr_safe(block, in) {
				struct agx_builder b;
				struct agx_ir_value v;

				if (in->op != AGX_IR_OP_load_framebuffer)
					continue;
				b = agx_builder_at(agx_ir_cursor_before(in));
				v = fetched(&b, options, in->imm[0], in->imm[1], in->dest.type);
				agx_ir_def_rewrite_uses(&in->dest, v);
				agx_ir_instr_remove(in);
				progress = true;
			}
		}
	}
	return progress;
}

/*
 * agx_lower_pixel_order.c: a fragment shader's fences (wait_pix,
 * signal_pix) around its uses of the pixel's tilebuffer and of its late
 * depth and stencil test.  The hardware runs the fragments of a tile in
 * parallel; those of one pixel reach these in the order of their
 * primitives only where they wait for the earlier ones, which is what
 * keeps blending, framebuffer fetch and late tests right
 * (docs/isa.md, "Pixel order").
 *
 * The rules are Mesa's (agx_compile.c, agx_wait_pixel_mask and its
 * callers):
 *
 * - before a tile load (load_tile, load_tile_sample) wait on 0x8, before
 *   a colour store that reaches a target 0xc, before a late test
 *   (test_zs, the gl_FragDepth store) 0x1; a discard that only kills
 *   waits on nothing;
 * - a fence already waited on is not waited on again, but only a wait
 *   outside control flow counts as waited: it is on every path after it,
 *   one in an if or a loop is not;
 * - the fences are released when the fragment ends.  Mesa also released
 *   the depth/stencil fence early, signal_pix 1 after the shader's
 *   coverage was settled, so that later fragments' tests need not wait
 *   for this one's colour: here after the last late test when it is
 *   outside control flow and no spilled target settles coverage later
 *   (selection writes those at the end of the block, after a test).
 *
 * A spilled target's store is selected as a test and an image_write to
 * memory, and its load as a texture_load: they wait as a tile store (and
 * a test) and a tile load do.  Run last, just before selection, so that
 * no pass moves a tile access across its wait.
 */
#include "agx/compiler.h"
#include "agx_builder.h"
#include "agx_ir.h"

/* The fence bits Mesa's compiler waits on (agx_compile.c). */
#define FENCE_ZS	 0x1u
#define FENCE_TILE_READ	 0x8u
#define FENCE_TILE_WRITE 0xcu

/*
 * Where a colour store to location loc, component c, goes, as selection
 * decides (agx_isel.c, sel_frag_output): nowhere (false), the tilebuffer,
 * or a spilled target's memory (*spilled).
 */
static bool reaches_target(const struct agx_compile_options *o, unsigned loc, unsigned c,
			   bool *spilled)
{
	*spilled = false;
	if (loc >= 8 || c > 3)
		return false;
	if (!o || !o->num_rts)
		return loc == 0;
	if (loc >= o->num_rts || o->rt[loc].none ||
	    (o->rt[loc].components && c >= o->rt[loc].components))
		return false;
	*spilled = o->rt[loc].spilled;
	return true;
}

/* The fences `in` needs before it; whether it is a late test, or a spilled target's store. */
static unsigned fences(const struct agx_ir_instr *in, const struct agx_compile_options *o,
		       bool *test, bool *spilled)
{
	*test = *spilled = false;
	switch (in->op) {
	case AGX_IR_OP_load_tile:
	case AGX_IR_OP_load_tile_sample:
		return FENCE_TILE_READ;
	case AGX_IR_OP_test_zs:
		*test = true;
		return FENCE_ZS;
	case AGX_IR_OP_store_output:
		if (in->imm[0] == AGX_IR_LOCATION_FRAG_DEPTH) {
			*test = true;
			return FENCE_ZS;
		}
		/* fallthrough */
	case AGX_IR_OP_store_tile_sample:
		if (!reaches_target(o, in->imm[0], in->imm[1], spilled))
			return 0;
		return *spilled ? FENCE_TILE_WRITE | FENCE_ZS : FENCE_TILE_WRITE;
	default:
		return 0;
	}
}

static bool top_level(const struct agx_ir_block *block)
{
	return block->node.list == &block->func->body;
}

/* Whether the shader has its fences already (a second run leaves it alone). */
static bool fenced(struct agx_ir_shader *shader)
{
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				if (in->op == AGX_IR_OP_wait_pix || in->op == AGX_IR_OP_signal_pix)
					return true;
			}
		}
	}
	return false;
}

/* Waits before the uses of func; the last late test, and whether a spilled target is stored. */
static bool wait_before_uses(struct agx_ir_function *func, const struct agx_compile_options *o,
			     struct agx_ir_instr **last_test, bool *spills)
{
	unsigned waited = 0;
	bool progress = false;

	agx_ir_foreach_block(func, block) {
		agx_ir_foreach_instr(block, in) {
			bool test, spilled;
			unsigned need = fences(in, o, &test, &spilled) & ~waited;
			struct agx_builder b;

			*spills |= spilled;
			if (test)
				*last_test = in;
			if (!need)
				continue;
			b = agx_builder_at(agx_ir_cursor_before(in));
			agx_wait_pix(&b, need);
			progress = true;
			if (top_level(block))
				waited |= need;
		}
	}
	return progress;
}

bool agx_lower_pixel_order(struct agx_ir_shader *shader, const struct agx_compile_options *options)
{
	bool progress = false;

	if (shader->stage != AGX_IR_STAGE_FRAGMENT || fenced(shader))
		return false;
	agx_ir_foreach_function(shader, func) {
		struct agx_ir_instr *last_test = NULL;
		bool spills = false;

		progress |= wait_before_uses(func, options, &last_test, &spills);
		if (last_test && top_level(last_test->block) && !spills) {
			struct agx_builder b = agx_builder_at(agx_ir_cursor_after(last_test));

			agx_signal_pix(&b, FENCE_ZS);
		}
	}
	return progress;
}

/*
 * agx_lower_tests.c: a fragment shader's colour stores after its depth
 * and stencil tests.  A shader that may discard, or that writes
 * gl_FragDepth, is tested late, where it says so (sample_mask, zs_emit),
 * and a tile store writes every sample not killed by then: one that
 * fails a later test has its colour already (Mesa's rule 1 in
 * agx_nir_lower_sample_mask.c: every test of a sample comes before a
 * tile store to it).  So:
 *
 * - a shader that writes its depth: the colour stores of the depth
 *   store's block that come before it move to just after it (zs_emit is
 *   selected there, and tests);
 * - one that may discard and writes no depth: test_zs goes before its
 *   first colour store, which is after every discard (the translator
 *   stores the outputs at the end of main, where discard escapes to).
 *
 * Run after agx_lower_blend, whose stores (store_tile_sample too) are
 * the colour stores then.
 */
#include "agx_builder.h"
#include "agx_ir.h"

static bool colour_store(const struct agx_ir_instr *in)
{
	return (in->op == AGX_IR_OP_store_output && in->imm[0] < 8) ||
	       in->op == AGX_IR_OP_store_tile_sample;
}

static bool depth_store(const struct agx_ir_instr *in)
{
	return in->op == AGX_IR_OP_store_output && in->imm[0] == AGX_IR_LOCATION_FRAG_DEPTH;
}

bool agx_move_colour_stores_after(struct agx_ir_instr *at)
{
	struct agx_builder b = agx_builder_at(agx_ir_cursor_after(at));
	bool moved = false;

	agx_ir_foreach_instr_safe(at->block, in) {
		struct agx_ir_value v;

		if (in == at)
			break;
		if (!colour_store(in))
			continue;
		v = agx_ir_src_value(&in->src[0]);
		if (in->op == AGX_IR_OP_store_tile_sample)
			agx_store_tile_sample(&b, v, in->imm[0], in->imm[1], in->imm[2]);
		else
			agx_store_output(&b, v, in->imm[0], in->imm[1]);
		agx_ir_instr_remove(in);
		moved = true;
	}
	return moved;
}

/* The colour stores before the block's last depth store, moved after it; whether any moved. */
static bool after_depth(struct agx_ir_block *block)
{
	struct agx_ir_instr *depth = NULL;

	agx_ir_foreach_instr(block, in) {
		if (depth_store(in))
			depth = in;
	}
	return depth && agx_move_colour_stores_after(depth);
}

bool agx_lower_tests(struct agx_ir_shader *shader)
{
	bool discards = false, depth = false, progress = false;

	if (shader->stage != AGX_IR_STAGE_FRAGMENT)
		return false;
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				discards |= in->op == AGX_IR_OP_discard ||
					    in->op == AGX_IR_OP_discard_samples;
				depth |= depth_store(in);
			}
		}
	}
	if (depth) {
		agx_ir_foreach_function(shader, func) {
			agx_ir_foreach_block(func, block)
				progress |= after_depth(block);
		}
		return progress;
	}
	if (!discards)
		return false;
	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				struct agx_builder b;

				if (!colour_store(in))
					continue;
				b = agx_builder_at(agx_ir_cursor_before(in));
				agx_test_zs(&b);
				return true;
			}
		}
	}
	return false;
}

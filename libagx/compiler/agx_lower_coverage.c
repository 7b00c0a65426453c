/*
 * agx_lower_coverage.c: GL's multisample coverage operations (GLES 3.0.6
 * section 4.1.3) in the fragment shader, as Mesa's asahi driver does
 * them (there is no fixed-function unit for them): where the options ask
 * for alpha to coverage, sample s of the pixel is kept where colour 0's
 * alpha is greater than s / samples (the mapping is the implementation's
 * to choose; llvmpipe's is this one), and glSampleCoverage's mask keeps
 * the samples it names.  The samples dropped are killed by
 * discard_samples at colour 0's alpha store, and the colour stores before
 * it move after it, so that they write only the samples left;
 * agx_lower_tests then tests those after it.
 */
#include "agx/compiler.h"
#include "agx_builder.h"
#include "agx_ir.h"

/* Colour 0's alpha store (the last), else the first store of an output; NULL for none. */
static struct agx_ir_instr *place(struct agx_ir_shader *shader, bool *alpha)
{
	struct agx_ir_instr *first = NULL, *a = NULL;

	agx_ir_foreach_function(shader, func) {
		agx_ir_foreach_block(func, block) {
			agx_ir_foreach_instr(block, in) {
				if (in->op != AGX_IR_OP_store_output)
					continue;
				if (!first)
					first = in;
				if (in->imm[0] == 0 && in->imm[1] == 3)
					a = in;
			}
		}
	}
	*alpha = a != NULL;
	return a ? a : first;
}

bool agx_lower_coverage(struct agx_ir_shader *shader, const struct agx_compile_options *o)
{
	unsigned n = o ? o->samples : 0, all = (1u << (n & 7)) - 1;
	struct agx_ir_value keep = agx_imm_u32(all);
	struct agx_ir_instr *at, *kill;
	struct agx_builder b;
	bool alpha;

	if (shader->stage != AGX_IR_STAGE_FRAGMENT || n < 2 || n > 8 ||
	    (!o->alpha_to_coverage && !o->sample_coverage) || !(at = place(shader, &alpha)))
		return false;
	b = agx_builder_at(agx_ir_cursor_before(at));
	if (o->alpha_to_coverage && alpha) {
		struct agx_ir_value a = agx_ir_src_value(&at->src[0]);

		if (agx_ir_type_bits(a.type) == 16)
			a = agx_f2f32(&b, a);
		keep = agx_imm_u32(0);
		for (unsigned s = 0; s < n; s++) {
			struct agx_ir_value over = agx_flt(&b, agx_imm_f32((float)s / (float)n), a);

			keep = agx_ior(&b, keep,
				       agx_bcsel(&b, over, agx_imm_u32(1u << s), agx_imm_u32(0)));
		}
	}
	if (o->sample_coverage)
		keep = agx_iand(&b, keep, agx_imm_u32(o->sample_coverage_mask & all));
	kill = agx_discard_samples(&b, agx_i2i16(&b, agx_ixor(&b, keep, agx_imm_u32(all))));
	agx_move_colour_stores_after(kill);
	return true;
}
